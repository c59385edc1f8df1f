/* Rig evaluation (mdl_rig_eval.h): the math every rig operation shares, so
 * a pose, an IK solve and a baked clip agree on what a transform means. */
#include <math.h>
#include <string.h>

#include "model/mdl_rig_eval.h"

#define IK_EPSILON 1e-12

void mdl_quat_mul(const double a[4], const double b[4], double out[4])
{
    double r[4] = {
        a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
        a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
        a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
        a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
    };
    memcpy(out, r, sizeof r);
}

void mdl_quat_normalize(const double q[4], double out[4])
{
    double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(len > 0)) {
        out[0] = out[1] = out[2] = 0;
        out[3] = 1;
        return;
    }
    for (int k = 0; k < 4; k++)
        out[k] = q[k] / len;
}

void mdl_quat_slerp(const double a[4], const double b[4], double u, double out[4])
{
    double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    double sign = 1;
    if (dot < 0) {
        dot = -dot;
        sign = -1;
    }
    double wa = 1 - u, wb = u;
    /* Near-parallel quaternions: lerp, since sin(theta) would vanish. */
    if (dot < 1 - 1e-12) {
        double theta = acos(dot), s = sin(theta);
        wa = sin((1 - u) * theta) / s;
        wb = sin(u * theta) / s;
    }
    double r[4];
    for (int k = 0; k < 4; k++)
        r[k] = wa * a[k] + sign * wb * b[k];
    mdl_quat_normalize(r, out);
}

void mdl_quat_rotate(const double q[4], const double v[3], double out[3])
{
    /* v + 2w (q×v) + 2 q×(q×v) */
    double t[3] = {2 * (q[1] * v[2] - q[2] * v[1]), 2 * (q[2] * v[0] - q[0] * v[2]),
                   2 * (q[0] * v[1] - q[1] * v[0])};
    double r[3] = {v[0] + q[3] * t[0] + (q[1] * t[2] - q[2] * t[1]),
                   v[1] + q[3] * t[1] + (q[2] * t[0] - q[0] * t[2]),
                   v[2] + q[3] * t[2] + (q[0] * t[1] - q[1] * t[0])};
    memcpy(out, r, sizeof r);
}

void mdl_trs_to_matrix(const mdl_trs *t, double m[16])
{
    const double *q = t->rotation;
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
                   2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                   2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y)};
    for (int c = 0; c < 3; c++) {
        for (int row = 0; row < 3; row++)
            m[c * 4 + row] = r[c * 3 + row] * t->scale[c];
        m[c * 4 + 3] = 0;
    }
    m[12] = t->translation[0];
    m[13] = t->translation[1];
    m[14] = t->translation[2];
    m[15] = 1;
}

void mdl_matrix_to_trs(const double m[16], mdl_trs *out)
{
    double col[3][3];
    for (int c = 0; c < 3; c++) {
        double len = sqrt(m[c * 4] * m[c * 4] + m[c * 4 + 1] * m[c * 4 + 1] +
                          m[c * 4 + 2] * m[c * 4 + 2]);
        out->scale[c] = len;
        for (int row = 0; row < 3; row++)
            col[c][row] = len > 0 ? m[c * 4 + row] / len : (row == c);
    }
    double det = col[0][0] * (col[1][1] * col[2][2] - col[2][1] * col[1][2]) -
                 col[1][0] * (col[0][1] * col[2][2] - col[2][1] * col[0][2]) +
                 col[2][0] * (col[0][1] * col[1][2] - col[1][1] * col[0][2]);
    if (det < 0) {
        out->scale[0] = -out->scale[0];
        for (int row = 0; row < 3; row++)
            col[0][row] = -col[0][row];
    }
    /* Rotation matrix to quaternion, largest-diagonal branch. */
    double m00 = col[0][0], m11 = col[1][1], m22 = col[2][2], q[4];
    double tr = m00 + m11 + m22;
    if (tr > 0) {
        double s = 2 * sqrt(tr + 1);
        q[3] = s / 4;
        q[0] = (col[1][2] - col[2][1]) / s;
        q[1] = (col[2][0] - col[0][2]) / s;
        q[2] = (col[0][1] - col[1][0]) / s;
    } else if (m00 > m11 && m00 > m22) {
        double s = 2 * sqrt(1 + m00 - m11 - m22);
        q[3] = (col[1][2] - col[2][1]) / s;
        q[0] = s / 4;
        q[1] = (col[1][0] + col[0][1]) / s;
        q[2] = (col[2][0] + col[0][2]) / s;
    } else if (m11 > m22) {
        double s = 2 * sqrt(1 + m11 - m00 - m22);
        q[3] = (col[2][0] - col[0][2]) / s;
        q[0] = (col[1][0] + col[0][1]) / s;
        q[1] = s / 4;
        q[2] = (col[2][1] + col[1][2]) / s;
    } else {
        double s = 2 * sqrt(1 + m22 - m00 - m11);
        q[3] = (col[0][1] - col[1][0]) / s;
        q[0] = (col[2][0] + col[0][2]) / s;
        q[1] = (col[2][1] + col[1][2]) / s;
        q[2] = s / 4;
    }
    mdl_quat_normalize(q, out->rotation);
    out->translation[0] = m[12];
    out->translation[1] = m[13];
    out->translation[2] = m[14];
}

void mdl_trs_blend(const mdl_trs *a, const mdl_trs *b, double u, mdl_trs *out)
{
    mdl_trs r;
    for (int k = 0; k < 3; k++) {
        r.translation[k] = a->translation[k] + (b->translation[k] - a->translation[k]) * u;
        r.scale[k] = a->scale[k] + (b->scale[k] - a->scale[k]) * u;
    }
    mdl_quat_slerp(a->rotation, b->rotation, u, r.rotation);
    *out = r;
}

static void mat_mul(const double a[16], const double b[16], double out[16])
{
    double r[16];
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            double s = 0;
            for (int k = 0; k < 4; k++)
                s += a[k * 4 + row] * b[c * 4 + k];
            r[c * 4 + row] = s;
        }
    memcpy(out, r, sizeof r);
}

void mdl_rig_globals(const mdl_doc *d, const mdl_trs *locals, double (*globals)[16])
{
    for (size_t i = 0; i < d->joint_count; i++) {
        double local[16];
        mdl_trs_to_matrix(&locals[i], local);
        int32_t p = d->joints[i].parent;
        if (p < 0)
            memcpy(globals[i], local, sizeof local);
        else
            mat_mul(globals[p], local, globals[i]);
    }
}

void mdl_rig_pose_locals(const mdl_doc *d, const mdl_pose *p, mdl_trs *out)
{
    for (size_t i = 0; i < d->joint_count; i++)
        mdl_joint_rest(&d->joints[i], &out[i]);
    for (size_t k = 0; p && k < p->joint_count; k++)
        if (p->joints[k].joint < d->joint_count)
            out[p->joints[k].joint] = p->joints[k].local;
}

/* The channel's value at t: clamped outside its keys, interpolated inside. */
static void channel_at(const mdl_channel *ch, double t, double v[4])
{
    const mdl_key *k = ch->keys;
    size_t n = ch->key_count;
    if (t <= k[0].time || n == 1) {
        memcpy(v, k[0].value, 4 * sizeof *v);
        return;
    }
    if (t >= k[n - 1].time) {
        memcpy(v, k[n - 1].value, 4 * sizeof *v);
        return;
    }
    size_t lo = 0, hi = n - 1; /* k[lo].time <= t < k[hi].time */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (k[mid].time <= t)
            lo = mid;
        else
            hi = mid;
    }
    double u = (t - k[lo].time) / (k[hi].time - k[lo].time);
    if (ch->path == MDL_PATH_ROTATION) {
        mdl_quat_slerp(k[lo].value, k[hi].value, u, v);
        return;
    }
    for (int c = 0; c < 4; c++)
        v[c] = k[lo].value[c] + (k[hi].value[c] - k[lo].value[c]) * u;
}

void mdl_rig_clip_locals(const mdl_doc *d, const mdl_clip *c, double t, mdl_trs *out)
{
    mdl_rig_pose_locals(d, NULL, out);
    for (size_t i = 0; i < c->channel_count; i++) {
        const mdl_channel *ch = &c->channels[i];
        if (ch->joint >= d->joint_count || ch->key_count == 0)
            continue;
        double v[4];
        channel_at(ch, t, v);
        mdl_trs *dst = &out[ch->joint];
        if (ch->path == MDL_PATH_ROTATION)
            memcpy(dst->rotation, v, sizeof dst->rotation);
        else if (ch->path == MDL_PATH_SCALE)
            memcpy(dst->scale, v, sizeof dst->scale);
        else
            memcpy(dst->translation, v, sizeof dst->translation);
    }
}

double mdl_clip_duration(const mdl_clip *c)
{
    double end = 0;
    for (size_t i = 0; i < c->channel_count; i++) {
        const mdl_channel *ch = &c->channels[i];
        if (ch->key_count && ch->keys[ch->key_count - 1].time > end)
            end = ch->keys[ch->key_count - 1].time;
    }
    return end;
}

/* ---- two-bone IK */

static bool uniform_scale(const mdl_trs *t)
{
    double s = t->scale[0];
    return s > 0 && t->scale[1] == s && t->scale[2] == s;
}

/* Global rotation of joint j: with uniform scales along the chain, the
 * product of the local rotations from the root down. */
static void global_rotation(const mdl_doc *d, const mdl_trs *locals, size_t j, double q[4])
{
    q[0] = q[1] = q[2] = 0;
    q[3] = 1;
    for (int32_t i = (int32_t)j; i >= 0; i = d->joints[i].parent) {
        double r[4];
        mdl_quat_mul(locals[i].rotation, q, r);
        memcpy(q, r, sizeof r);
    }
}

static double len3(const double v[3])
{
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

/* The shortest-arc rotation taking unit u to unit v. */
static void arc(const double u[3], const double v[3], double q[4])
{
    double dot = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    if (dot < -1 + 1e-15) {
        /* Half turn about any axis perpendicular to u. */
        double a[3] = {0, 0, 0};
        a[fabs(u[0]) < 0.5 ? 0 : fabs(u[1]) < 0.5 ? 1 : 2] = 1;
        double p[3] = {u[1] * a[2] - u[2] * a[1], u[2] * a[0] - u[0] * a[2],
                       u[0] * a[1] - u[1] * a[0]};
        double l = len3(p);
        q[0] = p[0] / l;
        q[1] = p[1] / l;
        q[2] = p[2] / l;
        q[3] = 0;
        return;
    }
    double r[4] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                   u[0] * v[1] - u[1] * v[0], 1 + dot};
    mdl_quat_normalize(r, q);
}

static void quat_conj(const double q[4], double out[4])
{
    out[0] = -q[0];
    out[1] = -q[1];
    out[2] = -q[2];
    out[3] = q[3];
}

mdl_ik_status mdl_rig_two_bone(const mdl_doc *d, mdl_trs *locals, size_t root, size_t middle,
                               size_t end, const double target[3], const double pole[3],
                               bool clamp_reach, size_t *bad)
{
    size_t chain[2] = {end, middle};
    for (int k = 0; k < 2; k++)
        if (!uniform_scale(&locals[chain[k]])) {
            *bad = chain[k];
            return MDL_IK_NONUNIFORM;
        }
    for (int32_t i = (int32_t)root; i >= 0; i = d->joints[i].parent)
        if (!uniform_scale(&locals[i])) {
            *bad = (size_t)i;
            return MDL_IK_NONUNIFORM;
        }
    double gr[16], gm[16], ge[16];
    /* Only the chain's globals are needed: walk the ancestors once. */
    {
        double acc[16], local[16];
        int32_t path[MDL_JOINTS_MAX];
        int n = 0;
        for (int32_t i = (int32_t)root; i >= 0; i = d->joints[i].parent)
            path[n++] = i;
        mdl_trs_to_matrix(&locals[path[n - 1]], acc);
        for (int k = n - 2; k >= 0; k--) {
            mdl_trs_to_matrix(&locals[path[k]], local);
            mat_mul(acc, local, acc);
        }
        memcpy(gr, acc, sizeof acc);
        mdl_trs_to_matrix(&locals[middle], local);
        mat_mul(gr, local, gm);
        mdl_trs_to_matrix(&locals[end], local);
        mat_mul(gm, local, ge);
    }
    double pr[3] = {gr[12], gr[13], gr[14]}, pm[3] = {gm[12], gm[13], gm[14]},
           pe[3] = {ge[12], ge[13], ge[14]};
    double bone_a[3], bone_b[3], to_t[3];
    for (int k = 0; k < 3; k++) {
        bone_a[k] = pm[k] - pr[k];
        bone_b[k] = pe[k] - pm[k];
        to_t[k] = target[k] - pr[k];
    }
    double a = len3(bone_a), b = len3(bone_b), dist = len3(to_t);
    if (a <= IK_EPSILON || b <= IK_EPSILON || dist <= IK_EPSILON)
        return MDL_IK_DEGENERATE;
    double reach_max = a + b, reach_min = fabs(a - b);
    if (dist > reach_max || dist < reach_min) {
        if (!clamp_reach)
            return MDL_IK_UNREACHABLE;
        dist = dist > reach_max ? reach_max : reach_min;
        if (dist <= IK_EPSILON)
            return MDL_IK_DEGENERATE;
    }
    double dir[3], side[3], pv[3];
    double along = 0;
    for (int k = 0; k < 3; k++)
        dir[k] = to_t[k] / len3(to_t);
    for (int k = 0; k < 3; k++)
        along += (pole[k] - pr[k]) * dir[k];
    for (int k = 0; k < 3; k++)
        pv[k] = pole[k] - pr[k] - along * dir[k];
    double pl = len3(pv);
    if (pl <= IK_EPSILON * (1 + len3(to_t)))
        return MDL_IK_DEGENERATE;
    for (int k = 0; k < 3; k++)
        side[k] = pv[k] / pl;
    /* Law of cosines: the root's angle between the target line and bone a. */
    double c = (a * a + dist * dist - b * b) / (2 * a * dist);
    c = c > 1 ? 1 : c < -1 ? -1 : c;
    double s = sqrt(1 - c * c);
    double want_m[3], want_e[3], u[3], v[3];
    for (int k = 0; k < 3; k++) {
        want_m[k] = pr[k] + a * (c * dir[k] + s * side[k]);
        want_e[k] = pr[k] + dist * dir[k];
        u[k] = bone_a[k] / a;
        v[k] = (want_m[k] - pr[k]) / a;
    }
    double d1[4], d2[4], qr[4], qm[4], qp[4], tmp[4], tmp2[4];
    arc(u, v, d1);
    double moved_b[3];
    mdl_quat_rotate(d1, bone_b, moved_b);
    for (int k = 0; k < 3; k++) {
        u[k] = moved_b[k] / b;
        v[k] = (want_e[k] - want_m[k]) / b;
    }
    arc(u, v, d2);
    global_rotation(d, locals, root, qr);
    global_rotation(d, locals, middle, qm);
    int32_t parent = d->joints[root].parent;
    if (parent >= 0)
        global_rotation(d, locals, (size_t)parent, qp);
    else
        qp[0] = qp[1] = qp[2] = 0, qp[3] = 1;
    /* New globals: root d1·Qr, middle d2·d1·Qm; locals relative to parents. */
    double new_r[4], new_m[4], inv[4];
    mdl_quat_mul(d1, qr, new_r);
    mdl_quat_mul(d1, qm, tmp);
    mdl_quat_mul(d2, tmp, new_m);
    quat_conj(qp, inv);
    mdl_quat_mul(inv, new_r, tmp2);
    mdl_quat_normalize(tmp2, locals[root].rotation);
    quat_conj(new_r, inv);
    mdl_quat_mul(inv, new_m, tmp2);
    mdl_quat_normalize(tmp2, locals[middle].rotation);
    return MDL_IK_OK;
}
