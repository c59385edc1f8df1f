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

/* ---- constraints */

size_t mdl_constraint_writes(const mdl_constraint *c, uint32_t out[2])
{
    out[0] = c->joint;
    if (c->type != MDL_CONSTRAINT_IK)
        return 1;
    out[1] = c->middle;
    return 2;
}

/* Whether joint a is j or one of j's ancestors (or_self) / strict ancestors. */
static bool is_ancestor(const mdl_doc *d, uint32_t a, uint32_t j, bool or_self)
{
    int32_t i = or_self ? (int32_t)j : d->joints[j].parent;
    for (; i >= 0; i = d->joints[i].parent)
        if ((uint32_t)i == a)
            return true;
    return false;
}

static bool has_target(const mdl_constraint *c)
{
    return c->type != MDL_CONSTRAINT_LIMIT;
}

/* Whether x must follow y: y writes a joint x reads. */
static bool depends(const mdl_doc *d, const mdl_constraint *x, const mdl_constraint *y)
{
    uint32_t w[2];
    size_t wn = mdl_constraint_writes(y, w);
    for (size_t k = 0; k < wn; k++) {
        if (w[k] >= d->joint_count)
            continue;
        if (x->joint < d->joint_count && is_ancestor(d, w[k], x->joint, false))
            return true;
        if (has_target(x) && x->target < d->joint_count && is_ancestor(d, w[k], x->target, true))
            return true;
    }
    return false;
}

mdl_order_status mdl_constraint_order(const mdl_doc *d, size_t *order, size_t *n, size_t *a,
                                      size_t *b, uint32_t *joint)
{
    size_t cn = d->constraint_count;
    for (size_t i = 0; i < cn; i++)
        for (size_t k = i + 1; k < cn && d->constraints[i].enabled; k++) {
            if (!d->constraints[k].enabled)
                continue;
            uint32_t wi[2], wk[2];
            size_t ni = mdl_constraint_writes(&d->constraints[i], wi);
            size_t nk = mdl_constraint_writes(&d->constraints[k], wk);
            for (size_t x = 0; x < ni; x++)
                for (size_t y = 0; y < nk; y++)
                    if (wi[x] == wk[y]) {
                        *a = i;
                        *b = k;
                        *joint = wi[x];
                        return MDL_ORDER_TWO_WRITERS;
                    }
        }
    /* Kahn's algorithm; constraints are sorted by name, so scanning from
     * the start picks the first ready name. done[] marks placed ones. */
    size_t placed = 0, enabled = 0;
    for (size_t i = 0; i < cn; i++)
        enabled += d->constraints[i].enabled;
    /* order doubles as the placed set: a constraint is placed when it is
     * in order[0..placed). */
    for (;;) {
        bool progressed = false;
        for (size_t i = 0; i < cn && placed < enabled; i++) {
            const mdl_constraint *x = &d->constraints[i];
            bool in = false;
            for (size_t k = 0; k < placed && !in; k++)
                in = order[k] == i;
            if (!x->enabled || in)
                continue;
            bool ready = true;
            for (size_t k = 0; k < cn && ready; k++) {
                if (k == i || !d->constraints[k].enabled)
                    continue;
                bool done = false;
                for (size_t m = 0; m < placed && !done; m++)
                    done = order[m] == k;
                if (!done && depends(d, x, &d->constraints[k]))
                    ready = false;
            }
            if (ready) {
                order[placed++] = i;
                progressed = true;
                break; /* restart from the first name */
            }
        }
        if (placed == enabled) {
            *n = placed;
            return MDL_ORDER_OK;
        }
        if (!progressed)
            break;
    }
    /* The rest: constraints in or behind a cycle, after the placed ones. */
    size_t at = placed;
    for (size_t i = 0; i < cn; i++) {
        bool in = false;
        for (size_t k = 0; k < placed && !in; k++)
            in = order[k] == i;
        if (d->constraints[i].enabled && !in)
            order[at++] = i;
    }
    *n = placed;
    *a = placed;
    *b = at;
    return MDL_ORDER_CYCLE;
}

/* The inverse of the upper 3x3 of m applied to v (v unchanged when
 * singular). */
static void inverse3_apply(const double m[16], const double v[3], double out[3])
{
    double a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6],
           i = m[10];
    double det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    if (det == 0) {
        memcpy(out, v, 3 * sizeof *v);
        return;
    }
    double r[3] = {((e * i - f * h) * v[0] + (c * h - b * i) * v[1] + (b * f - c * e) * v[2]) /
                       det,
                   ((f * g - d * i) * v[0] + (a * i - c * g) * v[1] + (c * d - a * f) * v[2]) /
                       det,
                   ((d * h - e * g) * v[0] + (b * g - a * h) * v[1] + (a * e - b * d) * v[2]) /
                       det};
    memcpy(out, r, sizeof r);
}

static void normalize3(double v[3])
{
    double l = len3(v);
    if (l > 0)
        for (int k = 0; k < 3; k++)
            v[k] /= l;
}

static void apply_copy(const mdl_constraint *c, mdl_trs *locals)
{
    mdl_trs *dst = &locals[c->joint];
    const mdl_trs *src = &locals[c->target];
    double u = c->influence;
    for (int k = 0; k < 3; k++) {
        if (c->copy_translation)
            dst->translation[k] += (src->translation[k] - dst->translation[k]) * u;
        if (c->copy_scale)
            dst->scale[k] += (src->scale[k] - dst->scale[k]) * u;
    }
    if (c->copy_rotation)
        mdl_quat_slerp(dst->rotation, src->rotation, u, dst->rotation);
}

/* Rotates the joint (in its parent's space, so nonuniform parent scale is
 * honoured) so its local axis points at the target's global position. */
static void apply_aim(const mdl_doc *d, const mdl_constraint *c, mdl_trs *locals)
{
    double g[MDL_JOINTS_MAX][16]; /* 32 KiB: the skeleton's bound, not its size */
    mdl_rig_globals(d, locals, g);
    mdl_trs *t = &locals[c->joint];
    const double *gj = g[c->joint], *gt = g[c->target];
    double want[3] = {gt[12] - gj[12], gt[13] - gj[13], gt[14] - gj[14]};
    if (len3(want) <= IK_EPSILON)
        return; /* the target sits on the joint: no direction to aim along */
    int32_t p = d->joints[c->joint].parent;
    if (p >= 0)
        inverse3_apply(g[p], want, want);
    normalize3(want);
    double scaled[3] = {c->axis[0] * t->scale[0], c->axis[1] * t->scale[1],
                        c->axis[2] * t->scale[2]}, cur[3];
    mdl_quat_rotate(t->rotation, scaled, cur);
    normalize3(cur);
    double delta[4], full[4];
    arc(cur, want, delta);
    mdl_quat_mul(delta, t->rotation, full);
    mdl_quat_normalize(full, full);
    mdl_quat_slerp(t->rotation, full, c->influence, t->rotation);
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static void apply_limit(const mdl_doc *d, const mdl_constraint *c, mdl_trs *locals)
{
    mdl_trs *t = &locals[c->joint], rest;
    for (int k = 0; k < 3; k++) {
        t->translation[k] = clampd(t->translation[k], c->min_translation[k],
                                   c->max_translation[k]);
        t->scale[k] = clampd(t->scale[k], c->min_scale[k], c->max_scale[k]);
    }
    mdl_joint_rest(&d->joints[c->joint], &rest);
    double dot = 0;
    for (int k = 0; k < 4; k++)
        dot += rest.rotation[k] * t->rotation[k];
    double angle = 2 * acos(clampd(fabs(dot), 0, 1));
    if (angle > c->max_angle)
        mdl_quat_slerp(rest.rotation, t->rotation, c->max_angle / angle, t->rotation);
}

mdl_ik_status mdl_constraint_solve(const mdl_doc *d, mdl_trs *locals, const size_t *order,
                                   size_t n, size_t *failed, size_t *bad)
{
    mdl_ik_status st = MDL_IK_OK;
    for (size_t i = 0; i < n && st == MDL_IK_OK; i++) {
        const mdl_constraint *c = &d->constraints[order[i]];
        switch (c->type) {
        case MDL_CONSTRAINT_COPY:
            apply_copy(c, locals);
            break;
        case MDL_CONSTRAINT_AIM:
            apply_aim(d, c, locals);
            break;
        case MDL_CONSTRAINT_LIMIT:
            apply_limit(d, c, locals);
            break;
        case MDL_CONSTRAINT_IK: {
            /* The target joint's global position: its chain to the root. */
            double acc[16], local[16];
            int32_t path[MDL_JOINTS_MAX];
            int m = 0;
            for (int32_t j = (int32_t)c->target; j >= 0; j = d->joints[j].parent)
                path[m++] = j;
            mdl_trs_to_matrix(&locals[path[m - 1]], acc);
            for (int k = m - 2; k >= 0; k--) {
                mdl_trs_to_matrix(&locals[path[k]], local);
                mat_mul(acc, local, acc);
            }
            double target[3] = {acc[12], acc[13], acc[14]};
            st = mdl_rig_two_bone(d, locals, c->joint, c->middle, c->end, target, c->pole,
                                  c->clamp_reach, bad);
            if (st != MDL_IK_OK)
                *failed = order[i];
            break;
        }
        }
    }
    return st;
}
