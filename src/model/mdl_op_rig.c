/* The rest-skeleton edits that keep every joint's ordinal: rig_rest (the
 * full local rest transform), rig_rename, rig_parent and rig_roll (a turn
 * of the rest about the joint's own Y axis, the bone's length axis by
 * convention). Weights, clips, poses and constraints refer to joints by
 * ordinal, so none of them has to change. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/math.h"
#include "model/mdl_ops.h"
#include "model/mdl_transform_field.h"

#define JOINT_FIELD(desc)                                                                      \
    {.name = "joint", .type = MDL_F_INTEGER, .required = true, .min = 0, .max = 2147483647.0,  \
     .description = desc}

/* The op's "joint" field as an existing ordinal; -1 after refusing
 * "unknown_joint". */
static int64_t target_joint(mdl_ctx *ctx, const anim_json_value *op)
{
    int64_t j = mdl_field_int(op, "joint", -1);
    if (j < 0 || (uint64_t)j >= ctx->doc->joint_count) {
        mdl_refuse(ctx, "unknown_joint",
                   "field \"joint\": joint %lld does not exist (the skeleton has %zu joints)",
                   (long long)j, ctx->doc->joint_count);
        return -1;
    }
    return mdl_spend(ctx, 1) ? -1 : j;
}

/* ---- rig_rest */

static const mdl_field rig_rest_fields[] = {
    JOINT_FIELD("an existing joint ordinal"),
    {.name = "transform", .type = MDL_F_OBJECT, .required = true, .fields = mdl_transform_fields,
     .description = "the full local rest {translation?, rotation?, scale?}; omitted parts reset"},
    {.name = NULL},
};

static int run_rig_rest(mdl_ctx *ctx, const anim_json_value *op)
{
    int64_t j = target_joint(ctx, op);
    if (j < 0)
        return -1;
    mdl_trs t;
    if (mdl_read_transform(ctx, mdl_field_get(op, "transform"), "transform", &t))
        return -1;
    mdl_joint *dst = &ctx->doc->joints[j];
    memcpy(dst->translation, t.translation, sizeof t.translation);
    memcpy(dst->rotation, t.rotation, sizeof t.rotation);
    memcpy(dst->scale, t.scale, sizeof t.scale);
    return 0;
}

const mdl_op_def mdl_op_rig_rest = {
    .op = "rig_rest",
    .mesh_edit = false,
    .fields = rig_rest_fields,
    .description = "Sets a joint's full local rest transform (defaults zero, identity, one).",
    .run = run_rig_rest,
};

/* ---- rig_rename */

static const mdl_field rig_rename_fields[] = {
    JOINT_FIELD("an existing joint ordinal"),
    {.name = "name", .type = MDL_F_NAME, .required = true,
     .description = "the new joint name, unique in the skeleton"},
    {.name = NULL},
};

static int run_rig_rename(mdl_ctx *ctx, const anim_json_value *op)
{
    int64_t j = target_joint(ctx, op);
    if (j < 0)
        return -1;
    mdl_doc *d = ctx->doc;
    char *name = mdl_field_name(op, "name");
    if (!name)
        return mdl_nomem(ctx);
    if (mdl_spend(ctx, d->joint_count)) {
        free(name);
        return -1;
    }
    for (size_t k = 0; k < d->joint_count; k++)
        if ((int64_t)k != j && strcmp(d->joints[k].name, name) == 0) {
            int rc = mdl_refuse(ctx, "invalid_skeleton",
                                "field \"name\": \"%s\" is already the name of joint %zu", name,
                                k);
            free(name);
            return rc;
        }
    free(d->joints[j].name);
    d->joints[j].name = name;
    return 0;
}

const mdl_op_def mdl_op_rig_rename = {
    .op = "rig_rename",
    .mesh_edit = false,
    .fields = rig_rename_fields,
    .description = "Renames a joint (names are unique); its ordinal and bindings stay.",
    .run = run_rig_rename,
};

/* ---- rig_parent */

static const mdl_field rig_parent_fields[] = {
    JOINT_FIELD("an existing joint ordinal other than the root to reparent"),
    {.name = "parent", .type = MDL_F_INTEGER_OR_NULL, .required = true, .min = 0,
     .max = 2147483647.0,
     .description = "an earlier joint ordinal; null only for joint 0, the single root"},
    {.name = NULL},
};

/* The skeleton keeps exactly one root, joint 0 (as the skeleton operation
 * requires): null is accepted for joint 0, where it changes nothing, and
 * refused for any other joint, so a limb cannot come loose by accident. */
static int run_rig_parent(mdl_ctx *ctx, const anim_json_value *op)
{
    int64_t j = target_joint(ctx, op);
    if (j < 0)
        return -1;
    const anim_json_value *pv = mdl_field_get(op, "parent");
    bool root = pv->type == ANIM_JSON_NULL;
    if (root && j != 0)
        return mdl_refuse(ctx, "invalid_skeleton",
                          "field \"parent\": null would make joint %lld (\"%s\") a second root; "
                          "only joint 0 is the root",
                          (long long)j, ctx->doc->joints[j].name);
    if (root)
        return 0;
    int64_t p = anim_json_integer(pv);
    if (j == 0)
        return mdl_refuse(ctx, "invalid_skeleton",
                          "field \"parent\": joint 0 (\"%s\") is the root and takes no parent",
                          ctx->doc->joints[0].name);
    if (p >= j)
        return mdl_refuse(ctx, "invalid_skeleton",
                          "field \"parent\": %lld does not precede joint %lld (parents precede "
                          "children)",
                          (long long)p, (long long)j);
    ctx->doc->joints[j].parent = (int32_t)p;
    return 0;
}

const mdl_op_def mdl_op_rig_parent = {
    .op = "rig_parent",
    .mesh_edit = false,
    .fields = rig_parent_fields,
    .description = "Reparents a joint to an earlier joint, keeping its local rest.",
    .run = run_rig_parent,
};

/* ---- rig_roll */

static const mdl_field rig_roll_fields[] = {
    JOINT_FIELD("an existing joint ordinal"),
    {.name = "angle", .type = MDL_F_NUMBER, .required = true, .min = -1e6, .max = 1e6,
     .description = "radians about the joint's local Y axis"},
    {.name = NULL},
};

static int run_rig_roll(mdl_ctx *ctx, const anim_json_value *op)
{
    int64_t j = target_joint(ctx, op);
    if (j < 0)
        return -1;
    mdl_joint *dst = &ctx->doc->joints[j];
    anim_quat roll = anim_quat_from_axis_angle(anim_vec3_make(0, 1, 0),
                                               mdl_field_f64(op, "angle", 0));
    /* rest * roll: the roll turns about the joint's own (post-rest) Y. */
    anim_quat q = anim_quat_normalize(anim_quat_mul(anim_quat_from_array(dst->rotation), roll));
    dst->rotation[0] = q.x;
    dst->rotation[1] = q.y;
    dst->rotation[2] = q.z;
    dst->rotation[3] = q.w;
    return 0;
}

const mdl_op_def mdl_op_rig_roll = {
    .op = "rig_roll",
    .mesh_edit = false,
    .fields = rig_roll_fields,
    .description = "Rotates a joint's local rest about its local Y axis by an angle in radians.",
    .run = run_rig_roll,
};
