/* The pose operations: pose (define or replace a sparse named FK pose),
 * delete_pose, solve_pose (the enabled constraints applied to a named
 * pose) and ik (an analytic two-bone solve written into a named pose). A pose stores full local transforms of the joints it names; an
 * omitted joint takes its rest, so a pose stays meaningful when rests are
 * edited later. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/mdl_ops.h"
#include "model/mdl_rig_eval.h"
#include "model/mdl_rig_solve.h"
#include "model/mdl_transform_field.h"


static const mdl_field pose_joint_fields[] = {
    {.name = "joint", .type = MDL_F_INTEGER, .required = true, .min = 0, .max = 2147483647.0,
     .description = "an existing joint ordinal, unique within the pose"},
    {.name = "transform", .type = MDL_F_OBJECT, .required = true, .fields = mdl_transform_fields,
     .description = "the joint's full local transform {translation?, rotation?, scale?}"},
    {.name = NULL},
};

static const mdl_field pose_fields[] = {
    {.name = "name", .type = MDL_F_NAME, .required = true, .description = "pose name"},
    {.name = "joints", .type = MDL_F_OBJECTS, .required = true, .min_items = 0,
     .max_items = MDL_JOINTS_MAX, .fields = pose_joint_fields,
     .description = "0-256 rows {joint, transform}; omitted joints keep their rest"},
    {.name = NULL},
};

static int cmp_pose_joint(const void *a, const void *b)
{
    uint32_t x = ((const mdl_pose_joint *)a)->joint, y = ((const mdl_pose_joint *)b)->joint;
    return (x > y) - (x < y);
}

/* Stores p under its name, refusing a new name past MDL_POSES_MAX. Takes
 * ownership of p. */
static int store_pose(mdl_ctx *ctx, mdl_pose *p)
{
    if (mdl_doc_find_pose(ctx->doc, p->key.name) < 0 && ctx->doc->pose_count >= MDL_POSES_MAX) {
        int rc = mdl_refuse(ctx, "limit_exceeded",
                            "pose \"%s\": the document already holds the most poses (%d)",
                            p->key.name, MDL_POSES_MAX);
        mdl_pose_release(p);
        return rc;
    }
    return mdl_doc_put_pose(ctx->doc, p) ? mdl_nomem(ctx) : 0;
}

static int run_pose(mdl_ctx *ctx, const anim_json_value *op)
{
    const mdl_doc *d = ctx->doc;
    const anim_json_value *rows = mdl_field_get(op, "joints");
    size_t n = anim_json_count(rows);
    if (mdl_spend(ctx, 1 + n))
        return -1;
    char *name = mdl_field_name(op, "name");
    if (!name)
        return mdl_nomem(ctx);
    mdl_pose *p = mdl_pose_new(name, n);
    free(name);
    if (!p)
        return mdl_nomem(ctx);
    bool *seen = calloc(d->joint_count + 1, sizeof *seen);
    if (!seen) {
        mdl_pose_release(p);
        return mdl_nomem(ctx);
    }
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const anim_json_value *it = anim_json_item(rows, i);
        int64_t j = mdl_field_int(it, "joint", -1);
        if (j < 0 || (uint64_t)j >= d->joint_count) {
            rc = mdl_refuse(ctx, "unknown_joint",
                            "pose \"%s\" field \"joints[%zu].joint\": joint %lld does not exist "
                            "(the skeleton has %zu joints)",
                            p->key.name, i, (long long)j, d->joint_count);
            break;
        }
        if (seen[j]) {
            rc = mdl_refuse(ctx, "invalid_operation",
                            "pose \"%s\" field \"joints[%zu].joint\": joint %lld already has a "
                            "row",
                            p->key.name, i, (long long)j);
            break;
        }
        seen[j] = true;
        char field[64];
        snprintf(field, sizeof field, "joints[%zu].transform", i);
        p->joints[i].joint = (uint32_t)j;
        rc = mdl_read_transform(ctx, mdl_field_get(it, "transform"), field, &p->joints[i].local);
    }
    free(seen);
    if (rc) {
        mdl_pose_release(p);
        return rc;
    }
    if (n) /* an empty pose has no joint array */
        qsort(p->joints, n, sizeof *p->joints, cmp_pose_joint);
    return store_pose(ctx, p);
}

const mdl_op_def mdl_op_pose = {
    .op = "pose",
    .mesh_edit = false,
    .fields = pose_fields,
    .description = "Defines or replaces a sparse named FK pose; omitted joints keep their rest.",
    .run = run_pose,
};

/* ---- delete_pose */

static const mdl_field delete_pose_fields[] = {
    {.name = "name", .type = MDL_F_NAME, .required = true, .description = "pose name"},
    {.name = NULL},
};

static int run_delete_pose(mdl_ctx *ctx, const anim_json_value *op)
{
    char *name = mdl_field_name(op, "name");
    if (!name)
        return mdl_nomem(ctx);
    int rc = mdl_spend(ctx, 1);
    if (rc == 0 && mdl_doc_delete_pose(ctx->doc, name))
        rc = mdl_refuse(ctx, "unknown_pose", "field \"name\": pose \"%s\" does not exist", name);
    free(name);
    return rc;
}

const mdl_op_def mdl_op_delete_pose = {
    .op = "delete_pose",
    .mesh_edit = false,
    .fields = delete_pose_fields,
    .description = "Deletes the named pose.",
    .run = run_delete_pose,
};

/* ---- ik */

static const mdl_field ik_fields[] = {
    {.name = "pose", .type = MDL_F_NAME, .required = true,
     .description = "an existing pose, replaced by the solved one"},
    {.name = "root", .type = MDL_F_INTEGER, .required = true, .min = 0, .max = 2147483647.0,
     .description = "chain root joint ordinal"},
    {.name = "middle", .type = MDL_F_INTEGER, .required = true, .min = 0, .max = 2147483647.0,
     .description = "a direct child of root"},
    {.name = "end", .type = MDL_F_INTEGER, .required = true, .min = 0, .max = 2147483647.0,
     .description = "a direct child of middle: the end effector"},
    {.name = "target", .type = MDL_F_VEC3, .required = true,
     .description = "global position the end should reach"},
    {.name = "pole", .type = MDL_F_VEC3, .required = true,
     .description = "global position the chain bends toward"},
    {.name = "clamp_reach", .type = MDL_F_BOOL, .required = false,
     .description = "reach as far as possible instead of refusing; default false"},
    {.name = NULL},
};

static int chain_joint(mdl_ctx *ctx, const anim_json_value *op, const char *field, size_t *out)
{
    int64_t j = mdl_field_int(op, field, -1);
    if (j < 0 || (uint64_t)j >= ctx->doc->joint_count)
        return mdl_refuse(ctx, "unknown_joint",
                          "field \"%s\": joint %lld does not exist (the skeleton has %zu joints)",
                          field, (long long)j, ctx->doc->joint_count);
    *out = (size_t)j;
    return 0;
}

/* The pose with rows for every joint in `set` (sorted union with p). */
static mdl_pose *pose_with(const mdl_pose *p, const mdl_trs *locals, const size_t *set,
                           size_t set_n)
{
    size_t extra = 0;
    for (size_t s = 0; s < set_n; s++) {
        bool have = false;
        for (size_t k = 0; k < p->joint_count && !have; k++)
            have = p->joints[k].joint == set[s];
        extra += !have;
    }
    mdl_pose *np = mdl_pose_new(p->key.name, p->joint_count + extra);
    if (!np)
        return NULL;
    if (p->joint_count)
        memcpy(np->joints, p->joints, p->joint_count * sizeof *p->joints);
    size_t at = p->joint_count;
    for (size_t s = 0; s < set_n; s++) {
        bool have = false;
        for (size_t k = 0; k < p->joint_count && !have; k++)
            have = p->joints[k].joint == set[s];
        if (!have)
            np->joints[at++].joint = (uint32_t)set[s];
    }
    for (size_t k = 0; k < np->joint_count; k++)
        for (size_t s = 0; s < set_n; s++)
            if (np->joints[k].joint == set[s])
                np->joints[k].local = locals[set[s]];
    if (np->joint_count)
        qsort(np->joints, np->joint_count, sizeof *np->joints, cmp_pose_joint);
    return np;
}

/* The index of the pose the op's "pose" field names; -1 after refusing
 * unknown_pose (or out of memory). */
static ptrdiff_t existing_pose(mdl_ctx *ctx, const anim_json_value *op)
{
    char *name = mdl_field_name(op, "pose");
    if (!name)
        return mdl_nomem(ctx);
    ptrdiff_t pi = mdl_doc_find_pose(ctx->doc, name);
    if (pi < 0)
        mdl_refuse(ctx, "unknown_pose", "field \"pose\": pose \"%s\" does not exist", name);
    free(name);
    return pi;
}

static int run_ik(mdl_ctx *ctx, const anim_json_value *op)
{
    const mdl_doc *d = ctx->doc;
    size_t root = 0, middle = 0, end = 0;
    if (chain_joint(ctx, op, "root", &root) || chain_joint(ctx, op, "middle", &middle) ||
        chain_joint(ctx, op, "end", &end))
        return -1;
    if (d->joints[middle].parent != (int32_t)root)
        return mdl_refuse(ctx, "invalid_ik_chain",
                          "field \"middle\": joint %zu is not a direct child of root joint %zu",
                          middle, root);
    if (d->joints[end].parent != (int32_t)middle)
        return mdl_refuse(ctx, "invalid_ik_chain",
                          "field \"end\": joint %zu is not a direct child of middle joint %zu",
                          end, middle);
    ptrdiff_t pi = existing_pose(ctx, op);
    if (pi < 0)
        return -1;
    if (mdl_spend(ctx, 1 + d->joint_count))
        return -1;
    const mdl_pose *p = d->poses[pi];
    mdl_trs *locals = malloc(d->joint_count * sizeof *locals);
    if (!locals)
        return mdl_nomem(ctx);
    mdl_rig_pose_locals(d, p, locals);
    double target[3], pole[3];
    mdl_field_vec(op, "target", target, 3);
    mdl_field_vec(op, "pole", pole, 3);
    size_t bad = 0;
    int rc = 0;
    switch (mdl_rig_two_bone(d, locals, root, middle, end, target, pole,
                             mdl_field_bool(op, "clamp_reach", false), &bad)) {
    case MDL_IK_OK:
        break;
    case MDL_IK_UNREACHABLE:
        rc = mdl_refuse(ctx, "ik_unreachable",
                        "field \"target\": [%.17g, %.17g, %.17g] is outside the reach of the "
                        "chain %zu-%zu-%zu (set clamp_reach to reach as far as possible)",
                        target[0], target[1], target[2], root, middle, end);
        break;
    case MDL_IK_NONUNIFORM:
        rc = mdl_refuse(ctx, "ik_nonuniform_scale",
                        "joint %zu: the chain %zu-%zu-%zu and its ancestors need uniform positive "
                        "scale in pose \"%s\"",
                        bad, root, middle, end, p->key.name);
        break;
    case MDL_IK_DEGENERATE:
        rc = mdl_refuse(ctx, "ik_degenerate",
                        "chain %zu-%zu-%zu: a bone has zero length, the target is at the root or "
                        "the pole [%.17g, %.17g, %.17g] lies on the root-target line",
                        root, middle, end, pole[0], pole[1], pole[2]);
        break;
    }
    mdl_pose *np = NULL;
    if (rc == 0) {
        size_t set[2] = {root, middle};
        np = pose_with(p, locals, set, 2);
        if (!np)
            rc = mdl_nomem(ctx);
    }
    free(locals);
    if (rc)
        return rc;
    return mdl_doc_put_pose(ctx->doc, np) ? mdl_nomem(ctx) : 0;
}

const mdl_op_def mdl_op_ik = {
    .op = "ik",
    .mesh_edit = false,
    .fields = ik_fields,
    .description = "Solves a two-bone chain of a named pose toward a global target, bending "
                   "toward a pole.",
    .run = run_ik,
};

/* ---- solve_pose */

static const mdl_field solve_pose_fields[] = {
    {.name = "pose", .type = MDL_F_NAME, .required = true,
     .description = "an existing pose, replaced by the solved one"},
    {.name = NULL},
};

static int run_solve_pose(mdl_ctx *ctx, const anim_json_value *op)
{
    const mdl_doc *d = ctx->doc;
    ptrdiff_t pi = existing_pose(ctx, op);
    if (pi < 0)
        return -1;
    const mdl_pose *p = d->poses[pi];
    mdl_trs *locals = malloc((d->joint_count + 1) * sizeof *locals);
    bool *written = calloc(d->joint_count + 1, sizeof *written);
    size_t *set = malloc((d->joint_count + 1) * sizeof *set);
    int rc = 0;
    mdl_pose *np = NULL;
    if (!locals || !written || !set) {
        rc = mdl_nomem(ctx);
        goto done;
    }
    mdl_rig_pose_locals(d, p, locals);
    char what[MDL_NAME_MAX + 16];
    snprintf(what, sizeof what, "pose \"%s\"", p->key.name);
    rc = mdl_solve_constraints(ctx, locals, written, what);
    if (rc)
        goto done;
    size_t set_n = 0;
    for (size_t j = 0; j < d->joint_count; j++)
        if (written[j])
            set[set_n++] = j;
    np = pose_with(p, locals, set, set_n);
    if (!np || mdl_doc_put_pose(ctx->doc, np))
        rc = mdl_nomem(ctx);
done:
    free(locals);
    free(written);
    free(set);
    return rc;
}

const mdl_op_def mdl_op_solve_pose = {
    .op = "solve_pose",
    .mesh_edit = false,
    .fields = solve_pose_fields,
    .description = "Applies the enabled constraints to a named pose and replaces it.",
    .run = run_solve_pose,
};
