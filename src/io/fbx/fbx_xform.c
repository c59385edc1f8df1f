/* The FBX transform chain: a node's local matrix from its transform
 * properties, world matrices under the three inheritance types, and local
 * TRS in glTF space.
 *
 * Local (the FBX SDK's documented formula, column vectors):
 *   T * Roff * Rp * Rpre * R * Rpost^-1 * Rp^-1 * Soff * Sp * S * Sp^-1
 * World, by InheritType of the child (the SDK's global-transform sample):
 *   RSrs (1): parent_world * local, the plain product;
 *   RrSs (0): Rp_g * Rl * Sp_g * Sl, the parent's global rotation and the
 *             local rotation first, then the parent's global scale and the
 *             local scale, so scale is inherited along the child's own
 *             axes and never shears;
 *   Rrs  (2): as RrSs with the parent's own Lcl Scaling divided out of the
 *             inherited scale (Maya's segment scale compensation);
 * and in every type the world translation is parent_world applied to the
 * local matrix's translation (pivots and offsets included).
 *
 * Everything is computed in file space and then conjugated into glTF space
 * (fbx_axes.c), which keeps rotations rotations for mirroring axis sets. */
#include <math.h>
#include <string.h>

#include "animsmith/math.h"
#include "io/fbx/fbx_scene.h"

/* Rest notes for non-TRS locals beyond this many are summarized in one. */
#define SHEAR_NOTE_MAX 16u
/* A rest local whose relative shear residual exceeds this is noted. */
#define SHEAR_NOTE_TOLERANCE 1e-6

/* ---- 3x3 helpers (column-major, m[c * 3 + r]) --------------------------- */

static void m3_of_m4(const double m4[16], double m3[9])
{
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            m3[c * 3 + r] = m4[c * 4 + r];
}

static void m3_mul(const double a[9], const double b[9], double out[9])
{
    double t[9];
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            t[c * 3 + r] = a[0 * 3 + r] * b[c * 3 + 0] + a[1 * 3 + r] * b[c * 3 + 1] +
                           a[2 * 3 + r] * b[c * 3 + 2];
    memcpy(out, t, sizeof t);
}

static void m3_transpose(const double a[9], double out[9])
{
    double t[9];
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            t[c * 3 + r] = a[r * 3 + c];
    memcpy(out, t, sizeof t);
}

static void m3_apply(const double a[9], const double v[3], double out[3])
{
    double t[3];
    for (int r = 0; r < 3; r++)
        t[r] = a[r] * v[0] + a[3 + r] * v[1] + a[6 + r] * v[2];
    memcpy(out, t, sizeof t);
}

static double m3_det(const double a[9])
{
    return a[0] * (a[4] * a[8] - a[7] * a[5]) - a[3] * (a[1] * a[8] - a[7] * a[2]) +
           a[6] * (a[1] * a[5] - a[4] * a[2]);
}

static double col_dot(const double a[9], int i, int j)
{
    return a[i * 3] * a[j * 3] + a[i * 3 + 1] * a[j * 3 + 1] + a[i * 3 + 2] * a[j * 3 + 2];
}

static void col_cross(double a[9], int i, int j, int k)
{
    const double *u = a + i * 3, *v = a + j * 3;
    a[k * 3 + 0] = u[1] * v[2] - u[2] * v[1];
    a[k * 3 + 1] = u[2] * v[0] - u[0] * v[2];
    a[k * 3 + 2] = u[0] * v[1] - u[1] * v[0];
}

static void col_normalize(double a[9], int i)
{
    double n = sqrt(col_dot(a, i, i));
    for (int r = 0; r < 3; r++)
        a[i * 3 + r] /= n;
}

static void m3_identity(double a[9])
{
    static const double id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    memcpy(a, id, sizeof id);
}

/* Gram-Schmidt on the columns, replacing a collapsed column by the cross
 * product of the others: the rotation of a matrix with a zero or
 * degenerate axis, where the polar iteration cannot run. */
static void orthonormalize(const double a[9], double out[9])
{
    double q[9];
    memcpy(q, a, sizeof q);
    double n[3];
    int live = 0, dead = -1;
    for (int i = 0; i < 3; i++) {
        n[i] = sqrt(col_dot(q, i, i));
        if (n[i] > 0.0 && isfinite(n[i]))
            live++;
        else
            dead = i;
    }
    if (live < 2) {
        m3_identity(out);
        return;
    }
    /* The two columns kept, in increasing order. */
    int i0 = dead == 0 ? 1 : 0, i1 = (dead == 0 || dead == 1) ? 2 : 1;
    col_normalize(q, i0);
    double d = col_dot(q, i0, i1);
    for (int r = 0; r < 3; r++)
        q[i1 * 3 + r] -= d * q[i0 * 3 + r];
    if (!(sqrt(col_dot(q, i1, i1)) > 1e-300)) {
        m3_identity(out);
        return;
    }
    col_normalize(q, i1);
    /* The third column completes a right-handed basis (i0, i1) order. */
    int i2 = 3 - i0 - i1;
    if ((i1 - i0 + 3) % 3 == 1)
        col_cross(q, i0, i1, i2);
    else
        col_cross(q, i1, i0, i2);
    memcpy(out, q, sizeof q);
}

/* The rotation of a 3x3 with positive determinant: its orthonormal polar
 * factor. Exact (normalized columns) when the columns are orthogonal,
 * which every pure T*R*S is; otherwise Newton's iteration
 * X <- (X + X^-T) / 2, which converges quadratically for an invertible
 * matrix and is bounded here. */
static void rotation_part(const double a[9], double out[9])
{
    double n0 = col_dot(a, 0, 0), n1 = col_dot(a, 1, 1), n2 = col_dot(a, 2, 2);
    const double tol = 1e-24; /* (1e-12 relative)^2, on squared dots */
    bool orthogonal = col_dot(a, 0, 1) * col_dot(a, 0, 1) <= tol * n0 * n1 &&
                      col_dot(a, 0, 2) * col_dot(a, 0, 2) <= tol * n0 * n2 &&
                      col_dot(a, 1, 2) * col_dot(a, 1, 2) <= tol * n1 * n2;
    double det = m3_det(a);
    double vol = sqrt(n0 * n1 * n2);
    if (orthogonal || !(fabs(det) > 1e-12 * vol) || !isfinite(det)) {
        orthonormalize(a, out);
        return;
    }
    double x[9];
    memcpy(x, a, sizeof x);
    for (int it = 0; it < 100; it++) {
        double d = m3_det(x);
        double inv_t[9]; /* inverse transpose = cofactor matrix / det */
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++) {
                int c1 = (c + 1) % 3, c2 = (c + 2) % 3, r1 = (r + 1) % 3, r2 = (r + 2) % 3;
                inv_t[c * 3 + r] =
                    (x[c1 * 3 + r1] * x[c2 * 3 + r2] - x[c2 * 3 + r1] * x[c1 * 3 + r2]) / d;
            }
        double change = 0.0;
        for (int k = 0; k < 9; k++) {
            double nx = 0.5 * (x[k] + inv_t[k]);
            change = fmax(change, fabs(nx - x[k]));
            x[k] = nx;
        }
        if (change <= 1e-15)
            break;
    }
    memcpy(out, x, sizeof x);
}

/* Rotation R and scale s of a 3x3 m with m ~ R * diag(s): a negative
 * determinant puts the reflection on s.z (as anim_mat4_decompose does). */
static void rs_split(const double m[9], double rot[9], double s[3])
{
    double a[9];
    memcpy(a, m, sizeof a);
    bool mirrored = signbit(m3_det(m));
    if (mirrored)
        for (int r = 0; r < 3; r++)
            a[6 + r] = -a[6 + r];
    rotation_part(a, rot);
    for (int i = 0; i < 3; i++)
        s[i] = rot[i * 3] * a[i * 3] + rot[i * 3 + 1] * a[i * 3 + 1] + rot[i * 3 + 2] * a[i * 3 + 2];
    if (mirrored)
        s[2] = -s[2];
}

/* ---- the local chain ------------------------------------------------------ */

static void axis_rotation(int axis, double deg, double out[9])
{
    double rad = anim_rad_from_deg(deg), c = cos(rad), s = sin(rad);
    m3_identity(out);
    int i = (axis + 1) % 3, j = (axis + 2) % 3;
    out[i * 3 + i] = c;
    out[j * 3 + j] = c;
    out[i * 3 + j] = s;  /* column i, row j */
    out[j * 3 + i] = -s; /* column j, row i */
}

/* The axes of each FBX Euler order, first applied first. */
static const int EULER_AXES[6][3] = {
    {0, 1, 2}, {0, 2, 1}, {1, 2, 0}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0},
};

static void euler3(const double deg[3], int order, double out[9])
{
    if (order < 0 || order > 5)
        order = 0; /* spheric and unknown orders are refused when read */
    m3_identity(out);
    for (int k = 0; k < 3; k++) {
        int axis = EULER_AXES[order][k];
        double r[9];
        axis_rotation(axis, deg[axis], r);
        m3_mul(r, out, out); /* later axes multiply on the left */
    }
}

static void m4_from_m3t(const double m3[9], const double t[3], double out[16])
{
    memset(out, 0, 16 * sizeof *out);
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            out[c * 4 + r] = m3[c * 3 + r];
    for (int r = 0; r < 3; r++)
        out[12 + r] = t[r];
    out[15] = 1.0;
}

void anim_fbx_euler_matrix(const double deg[3], int order, double out[16])
{
    double r[9];
    static const double zero[3] = {0, 0, 0};
    euler3(deg, order, r);
    m4_from_m3t(r, zero, out);
}

/* Rpre * R * Rpost^-1 of a node for rotation channel r. */
static void local_rotation(const anim_fbx_xform *x, const double r[3], double out[9])
{
    double pre[9], rot[9], post[9];
    euler3(x->pre_rotation, 0, pre);
    euler3(r, x->rotation_order, rot);
    euler3(x->post_rotation, 0, post);
    m3_transpose(post, post);
    m3_mul(pre, rot, out);
    m3_mul(out, post, out);
}

/* The local chain as linear part lin and translation t. Expanded from the
 * product: x' = T + Roff + Rp + Rrot * (Soff + Sp - Rp + S * (x - Sp)). */
static void local_parts(const anim_fbx_xform *x, const anim_fbx_channels *ch, double rot[9],
                        double lin[9], double t[3])
{
    local_rotation(x, ch->r, rot);
    double s[9] = {ch->s[0], 0, 0, 0, ch->s[1], 0, 0, 0, ch->s[2]};
    m3_mul(rot, s, lin);
    double inner[3], a[3], b[3];
    for (int i = 0; i < 3; i++)
        inner[i] = x->scaling_offset[i] + x->scaling_pivot[i] - x->rotation_pivot[i];
    m3_apply(rot, inner, a);
    m3_apply(lin, x->scaling_pivot, b);
    for (int i = 0; i < 3; i++)
        t[i] = ch->t[i] + x->rotation_offset[i] + x->rotation_pivot[i] + a[i] - b[i];
}

void anim_fbx_local_matrix(const anim_fbx_xform *xform, const anim_fbx_channels *ch,
                           double out[16])
{
    double rot[9], lin[9], t[3];
    local_parts(xform, ch, rot, lin, t);
    m4_from_m3t(lin, t, out);
}

/* ---- worlds --------------------------------------------------------------- */

static void m4_mul(const double a[16], const double b[16], double out[16])
{
    anim_mat4 ma, mb, r;
    memcpy(ma.m, a, sizeof ma.m);
    memcpy(mb.m, b, sizeof mb.m);
    r = anim_mat4_mul(&ma, &mb);
    memcpy(out, r.m, sizeof r.m);
}

/* File-space world of node n, its parent's file-space world pw (NULL for
 * a child of the root). */
static void world_of(const anim_fbx_scene *scene, const anim_fbx_channels *channels, uint32_t n,
                     const double *pw, double out[16])
{
    const anim_fbx_node_rec *node = &scene->nodes[n];
    double rot[9], lin[9], t[3];
    local_parts(&node->xform, &channels[n], rot, lin, t);
    if (!pw) {
        m4_from_m3t(lin, t, out);
        return;
    }
    if (node->xform.inherit_type != 0 && node->xform.inherit_type != 2) {
        double local[16];
        m4_from_m3t(lin, t, local);
        m4_mul(pw, local, out);
        return;
    }
    /* Parent global rotation and global scale (GSM = GRM^-1 * parent RS,
     * which keeps any shear the parent has). */
    double prs[9], grm[9], gsm[9], grm_t[9], ps[3];
    m3_of_m4(pw, prs);
    rs_split(prs, grm, ps);
    m3_transpose(grm, grm_t);
    m3_mul(grm_t, prs, gsm);
    if (node->xform.inherit_type == 2 && node->parent != 0) {
        /* Divide out the parent's own Lcl Scaling; a zero component has no
         * inverse and stays (the axis is collapsed either way). */
        const double *pls = channels[node->parent].s;
        for (int c = 0; c < 3; c++)
            if (pls[c] != 0.0)
                for (int r = 0; r < 3; r++)
                    gsm[c * 3 + r] /= pls[c];
    }
    double rs[9], sl[9] = {channels[n].s[0], 0, 0, 0, channels[n].s[1], 0, 0, 0, channels[n].s[2]};
    m3_mul(grm, rot, rs);
    m3_mul(rs, gsm, rs);
    m3_mul(rs, sl, rs);
    double gt[3];
    m3_apply(prs, t, gt);
    for (int i = 0; i < 3; i++)
        gt[i] += pw[12 + i];
    m4_from_m3t(rs, gt, out);
}

void anim_fbx_eval_worlds(const anim_fbx_scene *scene, const anim_fbx_channels *channels,
                          double (*world)[16])
{
    if (scene->node_count == 0)
        return;
    static const double id[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    memcpy(world[0], id, sizeof id);
    /* Node order puts parents first, so each parent's file-space world is
     * final when its children read it; conversion is a second pass. */
    for (uint32_t n = 1; n < scene->node_count; n++) {
        uint32_t p = scene->nodes[n].parent;
        const double *pw = (p == 0 || p >= n) ? NULL : world[p];
        world_of(scene, channels, n, pw, world[n]);
    }
    for (uint32_t n = 1; n < scene->node_count; n++)
        anim_fbx_convert_matrix(scene, world[n], world[n]);
}

/* Inverse of an affine 4x4; false when its 3x3 is singular. */
static bool affine_inverse(const double m[16], double out[16])
{
    double a[9], inv[9];
    m3_of_m4(m, a);
    double d = m3_det(a);
    if (!(d != 0.0) || !isfinite(d))
        return false;
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) {
            /* inverse(r, c) = cofactor(c, r) / det */
            int c1 = (r + 1) % 3, c2 = (r + 2) % 3, r1 = (c + 1) % 3, r2 = (c + 2) % 3;
            inv[c * 3 + r] = (a[c1 * 3 + r1] * a[c2 * 3 + r2] - a[c2 * 3 + r1] * a[c1 * 3 + r2]) / d;
        }
    double t[3];
    m3_apply(inv, m + 12, t);
    for (int i = 0; i < 3; i++)
        t[i] = -t[i];
    m4_from_m3t(inv, t, out);
    return true;
}

/* TRS of an affine matrix (rotation and scale split as rs_split does);
 * returns the shear residual relative to the largest axis. */
static double decompose(const double local[16], double t[3], double r[4], double s[3])
{
    double m[9], rot[9];
    m3_of_m4(local, m);
    rs_split(m, rot, s);
    anim_quat q = anim_quat_from_mat3(rot);
    double qn = anim_quat_len(q);
    if (qn > 0.0 && isfinite(qn))
        q = anim_quat_scale(q, 1.0 / qn);
    else
        q = anim_quat_identity();
    r[0] = q.x;
    r[1] = q.y;
    r[2] = q.z;
    r[3] = q.w;
    for (int i = 0; i < 3; i++)
        t[i] = local[12 + i];
    /* How far the 3x3 is from the TRS it was read as. */
    anim_mat4 back =
        anim_mat4_from_trs(anim_vec3_make(0, 0, 0), q, anim_vec3_make(s[0], s[1], s[2]));
    double worst = 0.0, size = 0.0;
    for (int c = 0; c < 3; c++) {
        size = fmax(size, sqrt(col_dot(m, c, c)));
        for (int k = 0; k < 3; k++)
            worst = fmax(worst, fabs(back.m[c * 4 + k] - m[c * 3 + k]));
    }
    if (!isfinite(worst))
        return INFINITY;
    return size > 0.0 ? worst / size : worst;
}

double anim_fbx_local_trs(const anim_fbx_scene *scene, const double (*world)[16], uint32_t n,
                          double t[3], double r[4], double s[3])
{
    uint32_t p = scene->nodes[n].parent;
    if (p == ANIM_NONE || p >= scene->node_count)
        return decompose(world[n], t, r, s);
    double pinv[16], local[16];
    if (!affine_inverse(world[p], pinv)) {
        /* A collapsed parent leaves the child's local undetermined by
         * the worlds: report identity and an unbounded residual. */
        t[0] = t[1] = t[2] = 0.0;
        r[0] = r[1] = r[2] = 0.0;
        r[3] = 1.0;
        s[0] = s[1] = s[2] = 1.0;
        return INFINITY;
    }
    m4_mul(pinv, world[n], local);
    return decompose(local, t, r, s);
}

void anim_fbx_rest_channels(const anim_fbx_scene *scene, anim_fbx_channels *channels)
{
    for (uint32_t n = 0; n < scene->node_count; n++) {
        const anim_fbx_xform *x = &scene->nodes[n].xform;
        memcpy(channels[n].t, x->translation, sizeof channels[n].t);
        memcpy(channels[n].r, x->rotation, sizeof channels[n].r);
        memcpy(channels[n].s, x->scaling, sizeof channels[n].s);
    }
}

void anim_fbx_geometric_matrix(const anim_fbx_scene *scene, uint32_t node, double out[16])
{
    const anim_fbx_xform *x = &scene->nodes[node].xform;
    /* The SDK composes the geometric rotation as plain XYZ Euler angles
     * (FbxAMatrix(T, R, S)), whatever the node's rotation order. */
    double rot[9], s[9] = {x->geometric_scaling[0], 0, 0, 0, x->geometric_scaling[1], 0, 0, 0,
                           x->geometric_scaling[2]};
    euler3(x->geometric_rotation, 0, rot);
    m3_mul(rot, s, rot);
    double m[16];
    m4_from_m3t(rot, x->geometric_translation, m);
    anim_fbx_convert_matrix(scene, m, out);
}

/* ---- rest ----------------------------------------------------------------- */

int anim_fbx_scene_rest(anim_fbx_scene *scene, anim_error *err)
{
    uint32_t count = scene->node_count;
    if (count == 0)
        return 0;
    size_t wbytes;
    if (!anim_size_mul(count, sizeof(double[16]), &wbytes))
        return anim_error_set(err, ANIM_ERR_LIMIT, "%u nodes: world matrices overflow", count);
    anim_fbx_channels *ch = anim_arena_calloc(scene->arena, count, sizeof *ch);
    double(*world)[16] = anim_arena_alloc(scene->arena, wbytes);
    if (!ch || !world)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory evaluating %u nodes", count);
    anim_fbx_rest_channels(scene, ch);
    anim_fbx_eval_worlds(scene, ch, world);
    uint32_t sheared = 0;
    anim_fbx_node_rec *root = &scene->nodes[0];
    memset(root->t, 0, sizeof root->t);
    root->r[0] = root->r[1] = root->r[2] = 0.0;
    root->r[3] = 1.0;
    root->s[0] = root->s[1] = root->s[2] = 1.0;
    for (uint32_t n = 1; n < count; n++) {
        anim_fbx_node_rec *node = &scene->nodes[n];
        double residual = anim_fbx_local_trs(scene, (const double(*)[16])world, n, node->t,
                                             node->r, node->s);
        for (int i = 0; i < 16; i++)
            if (!isfinite(world[n][i]))
                return anim_error_set(err, ANIM_ERR_INVALID,
                                      "Model '%s' (id %lld): rest transform is not finite",
                                      node->name, (long long)node->id);
        if (isinf(residual) && node->parent != 0) {
            /* Under a zero-scale parent the worlds say nothing about the
             * child: its own local matrix is the rest answer. */
            double local[16];
            anim_fbx_local_matrix(&node->xform, &ch[n], local);
            anim_fbx_convert_matrix(scene, local, local);
            residual = decompose(local, node->t, node->r, node->s);
            if (anim_fbx_scene_note(scene, err,
                                    "Model '%s' (id %lld): parent has zero scale at rest; its own "
                                    "local transform is used",
                                    node->name, (long long)node->id) < 0)
                return -1;
        }
        if (residual > SHEAR_NOTE_TOLERANCE) {
            if (sheared < SHEAR_NOTE_MAX &&
                anim_fbx_scene_note(scene, err,
                                    "Model '%s' (id %lld): rest local transform is not a TRS "
                                    "(shear %.3g, inherited non-uniform scale), approximated",
                                    node->name, (long long)node->id, residual) < 0)
                return -1;
            sheared++;
        }
    }
    if (sheared > SHEAR_NOTE_MAX &&
        anim_fbx_scene_note(scene, err, "%u more Model(s) with a sheared rest local transform",
                            sheared - SHEAR_NOTE_MAX) < 0)
        return -1;
    return 0;
}
