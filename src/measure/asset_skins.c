/* skins: the source skin table with per-joint bind-domain
 * observations.
 *
 * joint_bind_to_mesh = inverse(IBM) and mesh_bind_world = joint rest world
 * · IBM are independent per-joint observations; neither is substituted
 * from node rest data when the inverse-bind evidence is missing. Before an
 * inversion is trusted the source must be affine (bottom row within 1e-6
 * of [0, 0, 0, 1]) and its linear part well conditioned: the scale-free
 * reciprocal infinity-norm condition number 1 / (|A|inf |A^-1|inf) must
 * exceed 1e-6 (0 for an exactly singular A). */
#include "animsmith/math.h"
#include "measure/asset_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double norm_inf3(const double *a) /* column-major 3x3 */
{
    double best = 0.0;
    for (int r = 0; r < 3; r++) {
        double sum = fabs(a[0 * 3 + r]) + fabs(a[1 * 3 + r]) + fabs(a[2 * 3 + r]);
        best = fmax(best, sum);
    }
    return best;
}

/* Reciprocal condition number of the upper 3x3; *singular when det == 0. */
static double inversion_quality(const float *m, bool *singular)
{
    double a[9] = {m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]};
    double cof[9];
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) {
            int r1 = (r + 1) % 3, r2 = (r + 2) % 3, k1 = (c + 1) % 3, k2 = (c + 2) % 3;
            cof[c * 3 + r] = a[k1 * 3 + r1] * a[k2 * 3 + r2] - a[k2 * 3 + r1] * a[k1 * 3 + r2];
        }
    double det = a[0] * cof[0] + a[1] * cof[1] + a[2] * cof[2];
    *singular = det == 0.0;
    if (*singular)
        return 0.0;
    /* inverse(A)[r][c] = cof(c, r) / det, i.e. the transpose of cof / det:
     * its row sums are cof's column sums. */
    double inv_norm = 0.0;
    for (int r = 0; r < 3; r++) {
        double sum = 0.0;
        for (int c = 0; c < 3; c++)
            sum += fabs(cof[r * 3 + c] / det);
        inv_norm = fmax(inv_norm, sum);
    }
    double q = 1.0 / (norm_inf3(a) * inv_norm);
    return isfinite(q) ? q : 0.0;
}

static void derive_joint_bind_to_mesh(const float *raw, anim_derived_matrix *d)
{
    static const float affine_row[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    for (int c = 0; c < 4; c++)
        if (fabs((double)raw[c * 4 + 3] - (double)affine_row[c]) > ANIM_AFFINE_ROW_TOLERANCE) {
            d->status = ANIM_DERIVED_IBM_NON_AFFINE;
            return;
        }
    bool singular;
    d->inversion_quality = inversion_quality(raw, &singular);
    d->has_inversion_quality = true;
    if (singular) {
        d->status = ANIM_DERIVED_IBM_NON_INVERTIBLE;
        return;
    }
    if (d->inversion_quality <= ANIM_INVERSION_QUALITY_MIN) {
        d->status = ANIM_DERIVED_IBM_ILL_CONDITIONED;
        return;
    }
    double m[16], inv[16];
    for (int i = 0; i < 16; i++)
        m[i] = raw[i];
    if (!anim_mat4_invert(m, inv)) {
        d->status = ANIM_DERIVED_IBM_NON_INVERTIBLE;
        return;
    }
    if (!asset_narrow16(inv, d->matrix)) {
        d->status = ANIM_DERIVED_NON_FINITE_DERIVED_MATRIX;
        return;
    }
    d->status = ANIM_DERIVED_AVAILABLE;
    anim_linear_facts_classify(d->matrix, &d->linear);
}

static void derive_mesh_bind_world(const float *raw, const asset_world *world,
                                   anim_derived_matrix *d)
{
    if (!world->available) {
        d->status = ANIM_DERIVED_JOINT_REST_WORLD_UNAVAILABLE;
        return;
    }
    double m[16], out[16];
    for (int i = 0; i < 16; i++)
        m[i] = raw[i];
    asset_mat4_mul(world->m, m, out);
    if (!asset_narrow16(out, d->matrix)) {
        d->status = ANIM_DERIVED_NON_FINITE_DERIVED_MATRIX;
        return;
    }
    d->status = ANIM_DERIVED_AVAILABLE;
    anim_linear_facts_classify(d->matrix, &d->linear);
}

static int read_inverse_binds(const anim_source *src, const anim_skin *skin, anim_arena *arena,
                              anim_skin_measurements *sm, anim_error *err)
{
    uint32_t acc = skin->inverse_bind_accessor;
    if (acc == ANIM_NONE || acc >= src->accessor_count) {
        sm->ibm_status = ANIM_IBM_ABSENT;
        return 0;
    }
    const anim_accessor *a = &src->accessors[acc];
    sm->has_declared_count = true;
    sm->declared_count = a->count;
    if (a->count == 0) {
        sm->ibm_status = ANIM_IBM_EMPTY_ACCESSOR;
        return 0;
    }
    if (a->components != 16 || a->component_type != ANIM_GLTF_FLOAT) {
        sm->ibm_status = ANIM_IBM_UNREADABLE;
        return 0;
    }
    double *v = asset_read_accessor(src, acc, err);
    if (!v)
        return -1;
    size_t n = (size_t)a->count * 16;
    float *f = anim_arena_alloc(arena, n * sizeof *f);
    if (!f) {
        free(v);
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        f[i] = (float)v[i];
    free(v);
    /* JSON cannot carry a non-finite matrix: the declaration is unreadable
     * as a whole rather than published in part. */
    if (!asset_all_finite_f(f, (uint32_t)(n < UINT32_MAX ? n : UINT32_MAX))) {
        sm->ibm_status = ANIM_IBM_UNREADABLE;
        return 0;
    }
    sm->matrices = f;
    sm->matrix_count = a->count;
    sm->ibm_status = a->count >= skin->joint_count ? ANIM_IBM_AVAILABLE : ANIM_IBM_COUNT_MISMATCH;
    return 0;
}

static anim_derived_status accessor_reason(anim_ibm_status s)
{
    switch (s) {
    case ANIM_IBM_ABSENT: return ANIM_DERIVED_IBM_ACCESSOR_ABSENT;
    case ANIM_IBM_EMPTY_ACCESSOR: return ANIM_DERIVED_IBM_ACCESSOR_EMPTY;
    case ANIM_IBM_UNREADABLE: return ANIM_DERIVED_IBM_ACCESSOR_UNREADABLE;
    case ANIM_IBM_AVAILABLE:
    case ANIM_IBM_COUNT_MISMATCH: break;
    }
    return ANIM_DERIVED_AVAILABLE;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* joint_bind_linear_summary: the joint rows stay authoritative; this only
 * groups their joint_bind_to_mesh classes. */
static int summarize(anim_skin_measurements *sm, anim_error *err)
{
    uint32_t available = 0;
    bool all_uniform = true, all_shape = true, all_degenerate = true;
    for (uint32_t j = 0; j < sm->joint_count; j++) {
        const anim_derived_matrix *d = &sm->joints[j].joint_bind_to_mesh;
        if (d->status != ANIM_DERIVED_AVAILABLE)
            continue;
        available++;
        anim_linear_class c = d->linear.classification;
        all_uniform &= c == ANIM_LINEAR_UNIT_ORTHONORMAL || c == ANIM_LINEAR_UNIFORM_SCALED;
        all_shape &= c == ANIM_LINEAR_NON_UNIFORM || c == ANIM_LINEAR_SHEARED;
        all_degenerate &= c == ANIM_LINEAR_REFLECTED || c == ANIM_LINEAR_SINGULAR;
    }
    sm->available_joint_count = available;
    sm->unavailable_joint_count = sm->joint_count - available;
    if (sm->joint_count == 0)
        sm->summary = ANIM_BIND_SUMMARY_NO_JOINTS;
    else if (available == 0)
        sm->summary = ANIM_BIND_SUMMARY_UNAVAILABLE;
    else if (available < sm->joint_count)
        sm->summary = ANIM_BIND_SUMMARY_PARTIALLY_UNAVAILABLE;
    else if (all_uniform) {
        /* Sorted before summing and compared symmetrically with the mean,
         * so authored joint order cannot change the published factor. */
        double *f = malloc((size_t)available * sizeof *f);
        if (!f)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        for (uint32_t j = 0; j < sm->joint_count; j++)
            f[j] = sm->joints[j].joint_bind_to_mesh.linear.uniform_scale;
        qsort(f, available, sizeof *f, cmp_double);
        double sum = 0.0;
        for (uint32_t j = 0; j < available; j++)
            sum += f[j];
        double mean = sum / (double)available;
        if (asset_values_equal_to_mean(f, available, mean, ANIM_LINEAR_RELATIVE_TOLERANCE) &&
            isfinite(mean)) {
            sm->summary = ANIM_BIND_SUMMARY_CONSISTENT_UNIFORM;
            sm->has_consistent_uniform_scale = true;
            sm->consistent_uniform_scale = mean;
        } else {
            sm->summary = ANIM_BIND_SUMMARY_MIXED_UNIFORM;
        }
        free(f);
    } else if (all_shape)
        sm->summary = ANIM_BIND_SUMMARY_NON_UNIFORM_OR_SHEARED;
    else if (all_degenerate)
        sm->summary = ANIM_BIND_SUMMARY_REFLECTED_OR_SINGULAR;
    else
        sm->summary = ANIM_BIND_SUMMARY_MIXED;
    return 0;
}

static int attachments(const anim_doc *doc, anim_arena *arena, anim_asset_measurements *out,
                       anim_error *err)
{
    for (uint32_t node = 0; node < doc->node_count; node++) {
        const anim_bone *bone = &doc->bones[doc->node_to_bone[node]];
        if (bone->skin != ANIM_NONE && bone->skin < out->skin_count)
            out->skins[bone->skin].attachment_count++;
    }
    for (uint32_t s = 0; s < out->skin_count; s++) {
        anim_skin_measurements *sm = &out->skins[s];
        sm->attachments = anim_arena_calloc(arena, sm->attachment_count ? sm->attachment_count : 1,
                                            sizeof *sm->attachments);
        if (!sm->attachments)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        sm->attachment_count = 0;
    }
    for (uint32_t node = 0; node < doc->node_count; node++) {
        const anim_bone *bone = &doc->bones[doc->node_to_bone[node]];
        if (bone->skin == ANIM_NONE || bone->skin >= out->skin_count)
            continue;
        anim_skin_measurements *sm = &out->skins[bone->skin];
        anim_skin_attachment *at = &sm->attachments[sm->attachment_count++];
        at->node_index = node;
        at->mesh_index = bone->mesh;
    }
    return 0;
}

int asset_measure_skins(const anim_asset *asset, anim_arena *arena, const asset_world *worlds,
                        anim_asset_measurements *out, anim_error *err)
{
    const anim_doc *doc = &asset->doc;
    out->skin_count = doc->skin_count;
    out->skins = anim_arena_calloc(arena, doc->skin_count ? doc->skin_count : 1,
                                   sizeof *out->skins);
    if (!out->skins)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t s = 0; s < doc->skin_count; s++) {
        const anim_skin *skin = &doc->skins[s];
        anim_skin_measurements *sm = &out->skins[s];
        sm->skin_index = s;
        sm->name = skin->name;
        sm->skeleton_root_node_index = skin->skeleton;
        if (read_inverse_binds(&asset->source, skin, arena, sm, err)) {
            anim_error_prefix(err, "skin %u inverseBindMatrices", s);
            return -1;
        }
        sm->joint_count = skin->joint_count;
        sm->joints = anim_arena_calloc(arena, skin->joint_count ? skin->joint_count : 1,
                                       sizeof *sm->joints);
        if (!sm->joints)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        anim_derived_status global = accessor_reason(sm->ibm_status);
        for (uint32_t j = 0; j < skin->joint_count; j++) {
            anim_skin_joint_measurements *jm = &sm->joints[j];
            jm->joint_index = j;
            jm->node_index = skin->joints[j];
            if (global != ANIM_DERIVED_AVAILABLE || j >= sm->matrix_count) {
                anim_derived_status reason =
                    global != ANIM_DERIVED_AVAILABLE ? global
                                                     : ANIM_DERIVED_IBM_ACCESSOR_COUNT_MISMATCH;
                jm->joint_bind_to_mesh.status = reason;
                jm->mesh_bind_world.status = reason;
                continue;
            }
            const float *raw = sm->matrices + (size_t)j * 16;
            memcpy(jm->joint_bind_to_mesh.source_inverse_bind_matrix, raw, 16 * sizeof *raw);
            memcpy(jm->mesh_bind_world.source_inverse_bind_matrix, raw, 16 * sizeof *raw);
            jm->joint_bind_to_mesh.has_source = jm->mesh_bind_world.has_source = true;
            derive_joint_bind_to_mesh(raw, &jm->joint_bind_to_mesh);
            derive_mesh_bind_world(raw, &worlds[jm->node_index], &jm->mesh_bind_world);
        }
        if (summarize(sm, err))
            return -1;
    }
    return attachments(doc, arena, out, err);
}
