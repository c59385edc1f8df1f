/* The rig_mirror operation: duplicates selected joints as their mirror
 * image across the plane x = 0, y = 0 or z = 0 (the usual way to build the
 * right limb from the left). The mirrored rest is the full world rest
 * reflected (position reflected, orientation conjugated by the reflection,
 * so the duplicate is a proper, unreflected frame); each duplicate hangs
 * from its parent's duplicate when the parent is selected too, else from
 * the original parent, and gets the local rest that reproduces the
 * mirrored world rest there. Duplicates are appended, so existing joints,
 * weights, clips and poses keep their ordinals. A local rest that would
 * need shear (a nonuniformly scaled parent above a rotated child that is
 * not mirrored with it) is refused rather than approximated. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/math.h"
#include "model/mdl_ops.h"

/* Recomposing the decomposed local rest must give it back to this
 * relative precision, or the local needs shear. */
#define SHEAR_TOLERANCE 1e-9

static const mdl_field name_fields[] = {
    {.name = "joint", .type = MDL_F_INTEGER, .required = true, .min = 0, .max = 2147483647.0,
     .description = "a selected joint ordinal"},
    {.name = "name", .type = MDL_F_NAME, .required = true,
     .description = "the duplicate's name, unique in the skeleton"},
    {.name = NULL},
};

static const mdl_field rig_mirror_fields[] = {
    {.name = "joints", .type = MDL_F_INT_ARRAY, .required = true, .min = 0,
     .max = 2147483647.0, .min_items = 1, .max_items = MDL_JOINTS_MAX,
     .description = "joint ordinals to duplicate (not the root), each once"},
    {.name = "axis", .type = MDL_F_INTEGER, .required = true, .min = 0, .max = 2,
     .description = "the mirror plane's normal: 0 X, 1 Y, 2 Z (through the origin)"},
    {.name = "names", .type = MDL_F_OBJECTS, .required = true, .min_items = 1,
     .max_items = MDL_JOINTS_MAX, .fields = name_fields,
     .description = "one {joint, name} row per selected joint"},
    {.name = NULL},
};

static anim_mat4 rest_matrix(const double t[3], const double r[4], const double s[3])
{
    return anim_mat4_from_trs(anim_vec3_from_array(t), anim_quat_from_array(r),
                              anim_vec3_from_array(s));
}

/* M * w * M for the reflection M across the plane normal to axis. */
static anim_mat4 reflect(const anim_mat4 *w, int axis)
{
    anim_mat4 out = *w;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            if ((c == axis) != (r == axis))
                out.m[c * 4 + r] = -out.m[c * 4 + r];
    return out;
}

static bool same_affine(const anim_mat4 *a, const anim_mat4 *b)
{
    double big = 1;
    for (int i = 0; i < 16; i++)
        if (fabs(a->m[i]) > big)
            big = fabs(a->m[i]);
    for (int i = 0; i < 16; i++)
        if (fabs(a->m[i] - b->m[i]) > SHEAR_TOLERANCE * big)
            return false;
    return true;
}

typedef struct mirror_job {
    size_t n;          /* selected joints */
    uint32_t *sel;     /* ascending ordinals: parents first */
    int32_t *dup;      /* old ordinal -> its duplicate's ordinal, or -1 */
    char **names;      /* per selected joint (sel order), malloc'd */
    anim_mat4 *world;  /* joint_count + n world rests */
    mdl_joint *joints; /* the new skeleton; old names borrowed */
} mirror_job;

static void job_free(mirror_job *j)
{
    for (size_t i = 0; j->names && i < j->n; i++)
        free(j->names[i]);
    free(j->names);
    free(j->sel);
    free(j->dup);
    free(j->world);
    free(j->joints);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The selection: existing, unique, not the root; sorted parent-first. */
static int read_selection(mdl_ctx *ctx, const anim_json_value *op, mirror_job *j)
{
    const mdl_doc *d = ctx->doc;
    const anim_json_value *list = mdl_field_get(op, "joints");
    for (size_t i = 0; i < j->n; i++) {
        int64_t x = anim_json_integer(anim_json_item(list, i));
        if (x < 0 || (uint64_t)x >= d->joint_count)
            return mdl_refuse(ctx, "unknown_joint",
                              "field \"joints[%zu]\": joint %lld does not exist (the skeleton "
                              "has %zu joints)",
                              i, (long long)x, d->joint_count);
        if (x == 0)
            return mdl_refuse(ctx, "invalid_skeleton",
                              "field \"joints[%zu]\": joint 0 (\"%s\") is the single root and "
                              "cannot be duplicated; select limbs or subtrees",
                              i, d->joints[0].name);
        if (j->dup[x] >= 0)
            return mdl_refuse(ctx, "invalid_operation",
                              "field \"joints[%zu]\": joint %lld is selected twice", i,
                              (long long)x);
        j->dup[x] = 0;
        j->sel[i] = (uint32_t)x;
    }
    qsort(j->sel, j->n, sizeof *j->sel, cmp_u32);
    for (size_t k = 0; k < j->n; k++)
        j->dup[j->sel[k]] = (int32_t)(d->joint_count + k);
    if (d->joint_count + j->n > MDL_JOINTS_MAX)
        return mdl_refuse(ctx, "limit_exceeded",
                          "field \"joints\": %zu duplicates on %zu joints exceed the most joints "
                          "(%d)",
                          j->n, d->joint_count, MDL_JOINTS_MAX);
    return 0;
}

static size_t sel_index(const mirror_job *j, uint32_t joint, size_t base)
{
    return (size_t)j->dup[joint] - base;
}

/* One unique new name per selected joint. */
static int read_names(mdl_ctx *ctx, const anim_json_value *op, mirror_job *j)
{
    const mdl_doc *d = ctx->doc;
    const anim_json_value *rows = mdl_field_get(op, "names");
    size_t m = anim_json_count(rows);
    for (size_t i = 0; i < m; i++) {
        const anim_json_value *row = anim_json_item(rows, i);
        int64_t x = mdl_field_int(row, "joint", -1);
        if (x < 0 || (uint64_t)x >= d->joint_count || j->dup[x] < 0)
            return mdl_refuse(ctx, "invalid_operation",
                              "field \"names[%zu].joint\": joint %lld is not selected", i,
                              (long long)x);
        size_t k = sel_index(j, (uint32_t)x, d->joint_count);
        if (j->names[k])
            return mdl_refuse(ctx, "invalid_operation",
                              "field \"names[%zu].joint\": joint %lld is already named", i,
                              (long long)x);
        j->names[k] = mdl_field_name(row, "name");
        if (!j->names[k])
            return mdl_nomem(ctx);
        for (size_t o = 0; o < d->joint_count; o++)
            if (strcmp(d->joints[o].name, j->names[k]) == 0)
                return mdl_refuse(ctx, "invalid_skeleton",
                                  "field \"names[%zu].name\": \"%s\" is already the name of "
                                  "joint %zu",
                                  i, j->names[k], o);
        for (size_t o = 0; o < j->n; o++)
            if (o != k && j->names[o] && strcmp(j->names[o], j->names[k]) == 0)
                return mdl_refuse(ctx, "invalid_skeleton",
                                  "field \"names[%zu].name\": \"%s\" names two duplicates", i,
                                  j->names[k]);
    }
    for (size_t k = 0; k < j->n; k++)
        if (!j->names[k])
            return mdl_refuse(ctx, "invalid_operation",
                              "field \"names\": selected joint %u has no name row", j->sel[k]);
    return 0;
}

/* World rests of the old joints, then each duplicate's mirrored world
 * rest and the local rest that yields it under its parent. */
static int build_duplicates(mdl_ctx *ctx, int axis, mirror_job *j)
{
    const mdl_doc *d = ctx->doc;
    size_t base = d->joint_count;
    for (size_t i = 0; i < base; i++) {
        const mdl_joint *x = &d->joints[i];
        anim_mat4 local = rest_matrix(x->translation, x->rotation, x->scale);
        j->world[i] = x->parent < 0 ? local : anim_mat4_mul(&j->world[x->parent], &local);
        j->joints[i] = *x;
    }
    for (size_t k = 0; k < j->n; k++) {
        const mdl_joint *src = &d->joints[j->sel[k]];
        mdl_joint *dst = &j->joints[base + k];
        int32_t parent = j->dup[src->parent] >= 0 ? j->dup[src->parent] : src->parent;
        j->world[base + k] = reflect(&j->world[j->sel[k]], axis);
        anim_mat4 inv, local;
        if (!anim_mat4_invert(j->world[parent].m, inv.m))
            return mdl_refuse(ctx, "mirror_shear",
                              "joint %u (\"%s\"): the world rest of its parent %d is singular",
                              j->sel[k], src->name, parent);
        local = anim_mat4_mul(&inv, &j->world[base + k]);
        anim_vec3 t, s;
        anim_quat r;
        bool ok = anim_mat4_decompose(&local, &t, &r, &s);
        anim_mat4 back = anim_mat4_from_trs(t, r, s);
        if (!ok || !same_affine(&local, &back))
            return mdl_refuse(ctx, "mirror_shear",
                              "joint %u (\"%s\"): its mirrored local rest under joint %d would "
                              "need shear; include the parent chain in the selection or remove "
                              "the nonuniform parent scale",
                              j->sel[k], src->name, parent);
        r = anim_quat_normalize(r);
        dst->name = j->names[k];
        dst->parent = parent;
        double tv[3] = {t.x, t.y, t.z}, rv[4] = {r.x, r.y, r.z, r.w}, sv[3] = {s.x, s.y, s.z};
        memcpy(dst->translation, tv, sizeof tv);
        memcpy(dst->rotation, rv, sizeof rv);
        memcpy(dst->scale, sv, sizeof sv);
    }
    return 0;
}

static int run_rig_mirror(mdl_ctx *ctx, const anim_json_value *op)
{
    mdl_doc *d = ctx->doc;
    mirror_job j;
    memset(&j, 0, sizeof j);
    j.n = anim_json_count(mdl_field_get(op, "joints"));
    if (mdl_spend(ctx, 1 + d->joint_count + j.n * (d->joint_count + 1)))
        return -1;
    size_t total = d->joint_count + j.n;
    j.sel = calloc(j.n, sizeof *j.sel);
    j.dup = malloc((d->joint_count ? d->joint_count : 1) * sizeof *j.dup);
    j.names = calloc(j.n, sizeof *j.names);
    j.world = malloc(total * sizeof *j.world);
    j.joints = calloc(total, sizeof *j.joints);
    int rc = 0;
    if (!j.sel || !j.dup || !j.names || !j.world || !j.joints)
        rc = mdl_nomem(ctx);
    for (size_t i = 0; rc == 0 && i < d->joint_count; i++)
        j.dup[i] = -1;
    if (rc == 0)
        rc = read_selection(ctx, op, &j);
    if (rc == 0)
        rc = read_names(ctx, op, &j);
    if (rc == 0)
        rc = build_duplicates(ctx, (int)mdl_field_int(op, "axis", 0), &j);
    if (rc == 0 && mdl_doc_set_joints(d, j.joints, total))
        rc = mdl_nomem(ctx);
    job_free(&j);
    return rc;
}

const mdl_op_def mdl_op_rig_mirror = {
    .op = "rig_mirror",
    .mesh_edit = false,
    .fields = rig_mirror_fields,
    .description = "Appends mirrored duplicates of joints across the X, Y or Z plane.",
    .run = run_rig_mirror,
};
