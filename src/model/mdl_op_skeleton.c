/* The skeleton operation: replaces the document's joints (one root, joint
 * 0; parents precede children; unique names; rest rotation identity and
 * scale 1). Weights, weight locks and clips refer to joints by ordinal, so a skeleton
 * that would leave one of them pointing past its last joint is refused
 * rather than silently dropping the binding. */
#include <stdlib.h>
#include <string.h>

#include "model/mdl_ops.h"

static const mdl_field joint_fields[] = {
    {.name = "name", .type = MDL_F_NAME, .required = true, .description = "unique joint name"},
    {.name = "parent", .type = MDL_F_INTEGER_OR_NULL, .required = false, .min = 0,
     .max = MDL_JOINTS_MAX - 1,
     .description = "an earlier joint ordinal; null or absent for the root (joint 0 only)"},
    {.name = "translation", .type = MDL_F_VEC3, .required = true,
     .description = "parent-local rest translation, metres"},
    {.name = NULL},
};

static const mdl_field skeleton_fields[] = {
    {.name = "joints", .type = MDL_F_OBJECTS, .required = true, .min_items = 1,
     .max_items = MDL_JOINTS_MAX, .fields = joint_fields,
     .description = "1-256 joints in ordinal order"},
    {.name = NULL},
};

static void free_names(mdl_joint *j, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(j[i].name);
    free(j);
}

/* The first weight or clip channel naming an ordinal >= count. */
static int check_references(mdl_ctx *ctx, size_t count)
{
    const mdl_doc *d = ctx->doc;
    uint64_t touched = 0;
    for (size_t i = 0; i < d->object_count; i++) {
        const mdl_object *o = d->objects[i];
        touched += o->weight_count;
        for (size_t k = 0; k < o->weight_count; k++)
            if (o->weights[k].joint >= count)
                return mdl_refuse(ctx, "invalid_skeleton",
                                  "vertex \"%llu\" of object \"%s\" is weighted to joint %u, "
                                  "which the new skeleton of %zu joints lacks",
                                  (unsigned long long)o->weights[k].vertex, o->name,
                                  o->weights[k].joint, count);
        for (size_t k = 0; k < o->lock_count; k++)
            if (o->locks[k] >= count)
                return mdl_refuse(ctx, "invalid_skeleton",
                                  "object \"%s\" locks the weights of joint %u, which the new "
                                  "skeleton of %zu joints lacks (unlock it with weight_locks)",
                                  o->name, o->locks[k], count);
    }
    for (size_t i = 0; i < d->clip_count; i++) {
        const mdl_clip *c = d->clips[i];
        touched += c->channel_count;
        for (size_t k = 0; k < c->channel_count; k++)
            if (c->channels[k].joint >= count)
                return mdl_refuse(ctx, "invalid_skeleton",
                                  "clip \"%s\" channel %zu animates joint %u, which the new "
                                  "skeleton of %zu joints lacks",
                                  c->name, k, c->channels[k].joint, count);
    }
    return mdl_spend(ctx, touched);
}

static int run_skeleton(mdl_ctx *ctx, const anim_json_value *op)
{
    const anim_json_value *list = mdl_field_get(op, "joints");
    size_t n = anim_json_count(list);
    if (mdl_spend(ctx, 1 + n))
        return -1;
    mdl_joint *j = calloc(n, sizeof *j);
    if (!j)
        return mdl_nomem(ctx);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const anim_json_value *it = anim_json_item(list, i);
        const anim_json_value *parent = anim_json_get(it, "parent");
        bool root = !parent || parent->type == ANIM_JSON_NULL;
        j[i].name = mdl_field_name(it, "name");
        if (!j[i].name) {
            rc = mdl_nomem(ctx);
            break;
        }
        if (root && i != 0)
            rc = mdl_refuse(ctx, "invalid_skeleton",
                            "joint %zu (\"%s\"): only joint 0 may be the root (give it a parent)",
                            i, j[i].name);
        else if (!root && i == 0)
            rc = mdl_refuse(ctx, "invalid_skeleton",
                            "joint 0 (\"%s\"): the first joint is the root and has no parent",
                            j[i].name);
        else if (!root && (size_t)anim_json_integer(parent) >= i)
            rc = mdl_refuse(ctx, "invalid_skeleton",
                            "joint %zu (\"%s\"): parent %lld does not precede it", i, j[i].name,
                            (long long)anim_json_integer(parent));
        for (size_t k = 0; k < i && rc == 0; k++)
            if (strcmp(j[k].name, j[i].name) == 0)
                rc = mdl_refuse(ctx, "invalid_skeleton",
                                "joint %zu: name \"%s\" is already joint %zu", i, j[i].name, k);
        if (rc)
            break;
        j[i].parent = root ? MDL_NO_PARENT : (int32_t)anim_json_integer(parent);
        mdl_field_vec(it, "translation", j[i].translation, 3);
        j[i].rotation[3] = 1;
        j[i].scale[0] = j[i].scale[1] = j[i].scale[2] = 1;
    }
    if (rc == 0)
        rc = check_references(ctx, n);
    if (rc == 0 && mdl_doc_set_joints(ctx->doc, j, n))
        rc = mdl_nomem(ctx);
    free_names(j, n);
    return rc;
}

const mdl_op_def mdl_op_skeleton = {
    .op = "skeleton",
    .mesh_edit = false,
    .fields = skeleton_fields,
    .description = "Replaces the skeleton: joint 0 is the root, parents precede children.",
    .run = run_skeleton,
};
