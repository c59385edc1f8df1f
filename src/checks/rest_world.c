/* Rest-world composition and linear classification (see rest_world.h). */
#include "checks/rest_world.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Relative tolerances of the classification (the measurement's). */
#define REL_TOL 1e-5
#define SINGULAR_TOL 1e-6
/* Allowed distance of an authored matrix's bottom row from 0 0 0 1. */
#define AFFINE_ROW_TOL 1e-6

static bool fits_f32(double v)
{
    return isfinite(v) && fabs(v) <= FLT_MAX;
}

static bool local_is_finite(const anim_bone *b)
{
    if (b->has_matrix) {
        for (int i = 0; i < 16; i++)
            if (!isfinite(b->matrix[i]))
                return false;
        return true;
    }
    for (int i = 0; i < 3; i++)
        if (!isfinite(b->rest_translation[i]) || !isfinite(b->rest_scale[i]))
            return false;
    for (int i = 0; i < 4; i++)
        if (!isfinite(b->rest_rotation[i]))
            return false;
    return true;
}

static anim_mat4 local_matrix(const anim_bone *b)
{
    anim_mat4 m;
    if (b->has_matrix) {
        memcpy(m.m, b->matrix, sizeof m.m);
        return m;
    }
    /* The rotation is used as authored (not normalized here): the rest
     * matrix is what the engine builds from the file. */
    return anim_mat4_from_trs(anim_vec3_from_array(b->rest_translation),
                              anim_quat_from_array(b->rest_rotation),
                              anim_vec3_from_array(b->rest_scale));
}

/* Bones are parent-first, so one pass. */
void rest_world_compose(const anim_doc *doc, anim_mat4 *world, rest_world_status *status)
{
    for (uint32_t b = 0; b < doc->bone_count; b++) {
        const anim_bone *bone = &doc->bones[b];
        uint32_t p = bone->parent < b ? bone->parent : ANIM_NONE;
        if (!local_is_finite(bone)) {
            status[b] = REST_WORLD_NON_FINITE_LOCAL;
            continue;
        }
        if (p != ANIM_NONE && status[p] != REST_WORLD_OK) {
            status[b] = REST_WORLD_PARENT_UNAVAILABLE;
            continue;
        }
        anim_mat4 local = local_matrix(bone);
        world[b] = p == ANIM_NONE ? local : anim_mat4_mul(&world[p], &local);
        status[b] = REST_WORLD_OK;
        for (int i = 0; i < 16; i++)
            if (!fits_f32(world[b].m[i]))
                status[b] = REST_WORLD_NON_FINITE_MATRIX;
    }
}

/* Column lengths and pairwise orthogonality of the upper 3x3. */
static bool columns(const anim_mat4 *m, anim_vec3 c[3], double l[3])
{
    for (int i = 0; i < 3; i++) {
        c[i] = anim_mat4_column(m, i);
        if (!anim_vec3_is_finite(c[i]))
            return false;
        l[i] = anim_vec3_len(c[i]);
    }
    return true;
}

static bool orthogonal(const anim_vec3 c[3], const double l[3])
{
    static const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    for (int k = 0; k < 3; k++) {
        int i = pairs[k][0], j = pairs[k][1];
        double lp = l[i] * l[j];
        if (lp != 0.0 && !(fabs(anim_vec3_dot(c[i], c[j])) <= REL_TOL * lp))
            return false;
    }
    return true;
}

void rest_world_classify(const anim_mat4 *m, rest_lin_facts *out)
{
    memset(out, 0, sizeof *out);
    out->cls = REST_LIN_NON_FINITE;
    anim_vec3 c[3];
    double l[3];
    if (!columns(m, c, l))
        return;
    double s[3] = {l[0], l[1], l[2]};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2 - i; j++)
            if (s[j] > s[j + 1]) {
                double t = s[j];
                s[j] = s[j + 1];
                s[j + 1] = t;
            }
    double mean = (s[0] + s[1] + s[2]) / 3.0;
    double det = anim_vec3_dot(c[2], anim_vec3_cross(c[0], c[1]));
    double product = l[0] * l[1] * l[2];
    if (!isfinite(mean) || !isfinite(det) || !isfinite(product))
        return;
    memcpy(out->axes, l, sizeof l);
    bool singular = product == 0.0 || fabs(det) <= SINGULAR_TOL * product;
    bool ortho = orthogonal(c, l);
    bool uniform = true;
    for (int i = 0; i < 3; i++)
        if (!(fabs(l[i] - mean) <= REL_TOL * fmax(fabs(mean), fabs(l[i]))))
            uniform = false;
    out->has_uniform = ortho && uniform;
    out->uniform_scale = mean;
    if (singular)
        out->cls = REST_LIN_SINGULAR;
    else if (det < 0.0)
        out->cls = REST_LIN_REFLECTED;
    else if (!ortho)
        out->cls = REST_LIN_SHEARED;
    else if (out->has_uniform && fabs(mean - 1.0) <= REL_TOL)
        out->cls = REST_LIN_UNIT_ORTHONORMAL;
    else if (uniform)
        out->cls = REST_LIN_UNIFORM_SCALED;
    else
        out->cls = REST_LIN_NON_UNIFORM;
}

const char *rest_world_class_name(rest_lin_class c)
{
    switch (c) {
    case REST_LIN_SINGULAR: return "singular";
    case REST_LIN_REFLECTED: return "reflected";
    case REST_LIN_SHEARED: return "sheared";
    case REST_LIN_UNIT_ORTHONORMAL: return "unit_orthonormal";
    case REST_LIN_UNIFORM_SCALED: return "uniform_scaled";
    case REST_LIN_NON_UNIFORM: return "non_uniform";
    default: return "non_finite";
    }
}

bool rest_world_local_is_trs(const anim_bone *b)
{
    if (!b->has_matrix)
        return true;
    if (!local_is_finite(b))
        return false;
    /* Column-major: the bottom row is elements 3, 7, 11, 15. */
    const double *m = b->matrix;
    if (fabs(m[3]) > AFFINE_ROW_TOL || fabs(m[7]) > AFFINE_ROW_TOL ||
        fabs(m[11]) > AFFINE_ROW_TOL || fabs(m[15] - 1.0) > AFFINE_ROW_TOL)
        return false;
    anim_mat4 mat;
    memcpy(mat.m, m, sizeof mat.m);
    anim_vec3 c[3];
    double l[3];
    if (!columns(&mat, c, l))
        return false;
    for (int i = 0; i < 3; i++)
        if (!(l[i] > 0.0))
            return false;
    return orthogonal(c, l);
}
