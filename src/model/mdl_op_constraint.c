/* The constraint operations: constraint (create or replace a named copy,
 * aim, limit or ik constraint on a joint) and delete_constraint. Every
 * accepted set of enabled constraints has one writer per joint and an
 * evaluation order (mdl_constraint_order), so solve_pose and bake_clip can
 * never meet an ambiguous or cyclic rig. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/math.h"
#include "model/mdl_ops.h"
#include "model/mdl_rig_eval.h"

/* The kind object: the union of every type's fields; run_constraint
 * refuses the ones the named type does not take. */
static const mdl_field kind_fields[] = {
    {.name = "type", .type = MDL_F_NAME, .required = true,
     .description = "copy, aim, limit or ik"},
    {.name = "target", .type = MDL_F_INTEGER, .min = 0, .max = 2147483647.0,
     .description = "copy, aim, ik: another joint ordinal"},
    {.name = "translation", .type = MDL_F_BOOL, .description = "copy: default true"},
    {.name = "rotation", .type = MDL_F_BOOL, .description = "copy: default true"},
    {.name = "scale", .type = MDL_F_BOOL, .description = "copy: default false"},
    {.name = "influence", .type = MDL_F_NUMBER, .min = 0, .max = 1,
     .description = "copy, aim: 0-1, default 1"},
    {.name = "axis", .type = MDL_F_VEC3, .description = "aim: nonzero local axis, default [0,1,0]"},
    {.name = "min_translation", .type = MDL_F_VEC3, .description = "limit: lower bounds"},
    {.name = "max_translation", .type = MDL_F_VEC3, .description = "limit: upper bounds"},
    {.name = "min_scale", .type = MDL_F_VEC3, .description = "limit: positive lower bounds"},
    {.name = "max_scale", .type = MDL_F_VEC3, .description = "limit: upper bounds"},
    {.name = "max_angle", .type = MDL_F_NUMBER, .min = 0, .max = ANIM_PI,
     .description = "limit: radians from the rest rotation, 0-pi"},
    {.name = "middle", .type = MDL_F_INTEGER, .min = 0, .max = 2147483647.0,
     .description = "ik: the joint's direct child"},
    {.name = "end", .type = MDL_F_INTEGER, .min = 0, .max = 2147483647.0,
     .description = "ik: the middle's direct child"},
    {.name = "pole", .type = MDL_F_VEC3, .description = "ik: global bend position"},
    {.name = "clamp_reach", .type = MDL_F_BOOL, .description = "ik: default false"},
    {.name = NULL},
};

static const mdl_field constraint_fields[] = {
    {.name = "name", .type = MDL_F_NAME, .required = true, .description = "constraint name"},
    {.name = "joint", .type = MDL_F_INTEGER, .required = true, .min = 0, .max = 2147483647.0,
     .description = "the constrained joint (ik: the chain root)"},
    {.name = "enabled", .type = MDL_F_BOOL, .description = "default true"},
    {.name = "kind", .type = MDL_F_OBJECT, .required = true, .fields = kind_fields,
     .description = "{type, ...} of copy, aim, limit or ik"},
    {.name = NULL},
};

/* Fields of each type, required ones first. */
static const char *const copy_keys[] = {"target", NULL, "translation", "rotation", "scale",
                                        "influence", NULL};
static const char *const aim_keys[] = {"target", NULL, "axis", "influence", NULL};
static const char *const limit_keys[] = {"min_translation", "max_translation", "min_scale",
                                         "max_scale", "max_angle", NULL, NULL};
static const char *const ik_keys[] = {"middle", "end", "target", "pole", NULL, "clamp_reach",
                                      NULL};

static bool listed(const char *const *keys, const char *name, size_t len)
{
    for (int pass = 0; pass < 2; pass++, keys++)
        for (; *keys; keys++)
            if (strlen(*keys) == len && memcmp(*keys, name, len) == 0)
                return true;
    return false;
}

static int check_kind_fields(mdl_ctx *ctx, const anim_json_value *kind, const char *type,
                             const char *const *keys)
{
    for (size_t i = 0; i < anim_json_count(kind); i++) {
        const anim_json_member *m = anim_json_member_at(kind, i);
        size_t len = anim_json_key_len(m);
        if ((len == 4 && memcmp(m->key, "type", 4) == 0) || listed(keys, m->key, len))
            continue;
        return mdl_refuse(ctx, "unknown_field",
                          "field \"kind.%.*s\": a %s constraint does not take it", (int)len,
                          m->key, type);
    }
    for (const char *const *k = keys; *k; k++)
        if (!mdl_field_present(kind, *k))
            return mdl_refuse(ctx, "missing_field",
                              "field \"kind.%s\": a %s constraint requires it", *k, type);
    return 0;
}

static int joint_field(mdl_ctx *ctx, const anim_json_value *v, const char *field, uint32_t *out)
{
    int64_t j = mdl_field_int(v, field, -1);
    if (j < 0 || (uint64_t)j >= ctx->doc->joint_count)
        return mdl_refuse(ctx, "unknown_joint",
                          "field \"kind.%s\": joint %lld does not exist (the skeleton has %zu "
                          "joints)",
                          field, (long long)j, ctx->doc->joint_count);
    *out = (uint32_t)j;
    return 0;
}

static int read_kind(mdl_ctx *ctx, const anim_json_value *kind, mdl_constraint *c)
{
    const anim_json_value *type = mdl_field_get(kind, "type");
    const char *const *keys;
    const char *tn;
    if (anim_json_string_eq(type, "copy")) {
        c->type = MDL_CONSTRAINT_COPY, keys = copy_keys, tn = "copy";
    } else if (anim_json_string_eq(type, "aim")) {
        c->type = MDL_CONSTRAINT_AIM, keys = aim_keys, tn = "aim";
    } else if (anim_json_string_eq(type, "limit")) {
        c->type = MDL_CONSTRAINT_LIMIT, keys = limit_keys, tn = "limit";
    } else if (anim_json_string_eq(type, "ik")) {
        c->type = MDL_CONSTRAINT_IK, keys = ik_keys, tn = "ik";
    } else {
        return mdl_refuse(ctx, "out_of_range",
                          "field \"kind.type\": \"%s\" is not copy, aim, limit or ik",
                          anim_json_string(type));
    }
    if (check_kind_fields(ctx, kind, tn, keys))
        return -1;
    if (c->type != MDL_CONSTRAINT_LIMIT) {
        if (joint_field(ctx, kind, "target", &c->target))
            return -1;
        if (c->target == c->joint)
            return mdl_refuse(ctx, "invalid_constraint",
                              "field \"kind.target\": joint %u is the constrained joint itself",
                              c->target);
    }
    const mdl_doc *d = ctx->doc;
    /* Aim and ik read the target's global position and then move the
     * joint: a target below the joint would move with it, so the result
     * would miss it. */
    if (c->type == MDL_CONSTRAINT_AIM || c->type == MDL_CONSTRAINT_IK)
        for (int32_t i = d->joints[c->target].parent; i >= 0; i = d->joints[i].parent)
            if ((uint32_t)i == c->joint)
                return mdl_refuse(ctx, "invalid_constraint",
                                  "field \"kind.target\": joint %u lies below joint %u, which "
                                  "the %s constraint moves",
                                  c->target, c->joint, tn);
    switch (c->type) {
    case MDL_CONSTRAINT_COPY:
        c->copy_translation = mdl_field_bool(kind, "translation", true);
        c->copy_rotation = mdl_field_bool(kind, "rotation", true);
        c->copy_scale = mdl_field_bool(kind, "scale", false);
        c->influence = mdl_field_f64(kind, "influence", 1);
        break;
    case MDL_CONSTRAINT_AIM:
        c->influence = mdl_field_f64(kind, "influence", 1);
        c->axis[1] = 1;
        mdl_field_vec(kind, "axis", c->axis, 3);
        if (c->axis[0] == 0 && c->axis[1] == 0 && c->axis[2] == 0)
            return mdl_refuse(ctx, "out_of_range", "field \"kind.axis\": the axis is zero");
        break;
    case MDL_CONSTRAINT_LIMIT:
        mdl_field_vec(kind, "min_translation", c->min_translation, 3);
        mdl_field_vec(kind, "max_translation", c->max_translation, 3);
        mdl_field_vec(kind, "min_scale", c->min_scale, 3);
        mdl_field_vec(kind, "max_scale", c->max_scale, 3);
        c->max_angle = mdl_field_f64(kind, "max_angle", 0);
        for (int k = 0; k < 3; k++) {
            if (!(c->min_scale[k] > 0))
                return mdl_refuse(ctx, "out_of_range",
                                  "field \"kind.min_scale\": lane %d is %.17g (must be positive)",
                                  k, c->min_scale[k]);
            if (c->max_translation[k] < c->min_translation[k])
                return mdl_refuse(ctx, "out_of_range",
                                  "field \"kind.max_translation\": lane %d is %.17g, below its "
                                  "minimum %.17g",
                                  k, c->max_translation[k], c->min_translation[k]);
            if (c->max_scale[k] < c->min_scale[k])
                return mdl_refuse(ctx, "out_of_range",
                                  "field \"kind.max_scale\": lane %d is %.17g, below its minimum "
                                  "%.17g",
                                  k, c->max_scale[k], c->min_scale[k]);
        }
        break;
    case MDL_CONSTRAINT_IK:
        if (joint_field(ctx, kind, "middle", &c->middle) || joint_field(ctx, kind, "end", &c->end))
            return -1;
        if (d->joints[c->middle].parent != (int32_t)c->joint)
            return mdl_refuse(ctx, "invalid_ik_chain",
                              "field \"kind.middle\": joint %u is not a direct child of joint %u",
                              c->middle, c->joint);
        if (d->joints[c->end].parent != (int32_t)c->middle)
            return mdl_refuse(ctx, "invalid_ik_chain",
                              "field \"kind.end\": joint %u is not a direct child of joint %u",
                              c->end, c->middle);
        mdl_field_vec(kind, "pole", c->pole, 3);
        c->clamp_reach = mdl_field_bool(kind, "clamp_reach", false);
        break;
    }
    return 0;
}

/* Refuses a document whose enabled constraints cannot be ordered. */
static int check_graph(mdl_ctx *ctx)
{
    const mdl_doc *d = ctx->doc;
    size_t cn = d->constraint_count, n = 0, a = 0, b = 0;
    uint32_t joint = 0;
    if (mdl_spend(ctx, 1 + (uint64_t)cn * cn * 2))
        return -1;
    size_t *order = malloc((cn + 1) * sizeof *order);
    if (!order)
        return mdl_nomem(ctx);
    int rc = 0;
    switch (mdl_constraint_order(d, order, &n, &a, &b, &joint)) {
    case MDL_ORDER_OK:
        break;
    case MDL_ORDER_TWO_WRITERS:
        rc = mdl_refuse(ctx, "constraint_conflict",
                        "constraints \"%s\" and \"%s\" both write joint %u (one enabled writer "
                        "per joint)",
                        d->constraints[a].name, d->constraints[b].name, joint);
        break;
    case MDL_ORDER_CYCLE: {
        char names[400] = "";
        size_t len = 0;
        for (size_t i = a; i < b && len + MDL_NAME_MAX + 4 < sizeof names; i++)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s\"%s\"",
                                    i > a ? ", " : "", d->constraints[order[i]].name);
        rc = mdl_refuse(ctx, "constraint_cycle",
                        "constraints %s depend on each other's joints in a cycle", names);
        break;
    }
    }
    free(order);
    return rc;
}

static int run_constraint(mdl_ctx *ctx, const anim_json_value *op)
{
    mdl_constraint c;
    memset(&c, 0, sizeof c);
    const anim_json_value *name = mdl_field_get(op, "name");
    memcpy(c.name, anim_json_string(name), anim_json_string_len(name));
    int64_t j = mdl_field_int(op, "joint", -1);
    if (j < 0 || (uint64_t)j >= ctx->doc->joint_count)
        return mdl_refuse(ctx, "unknown_joint",
                          "field \"joint\": joint %lld does not exist (the skeleton has %zu "
                          "joints)",
                          (long long)j, ctx->doc->joint_count);
    c.joint = (uint32_t)j;
    c.enabled = mdl_field_bool(op, "enabled", true);
    if (mdl_spend(ctx, 1) || read_kind(ctx, mdl_field_get(op, "kind"), &c))
        return -1;
    if (mdl_doc_find_constraint(ctx->doc, c.name) < 0 &&
        ctx->doc->constraint_count >= MDL_CONSTRAINTS_MAX)
        return mdl_refuse(ctx, "limit_exceeded",
                          "constraint \"%s\": the document already holds the most constraints "
                          "(%d)",
                          c.name, MDL_CONSTRAINTS_MAX);
    /* The graph is checked on the document with the new constraint in
     * place; a refusal puts the previous state back so the working copy
     * stays as the operation found it. */
    ptrdiff_t old_i = mdl_doc_find_constraint(ctx->doc, c.name);
    mdl_constraint old;
    if (old_i >= 0)
        old = ctx->doc->constraints[old_i];
    if (mdl_doc_put_constraint(ctx->doc, &c))
        return mdl_nomem(ctx);
    if (check_graph(ctx) == 0)
        return 0;
    if (old_i >= 0 ? mdl_doc_put_constraint(ctx->doc, &old)
                   : mdl_doc_delete_constraint(ctx->doc, c.name))
        ctx->nomem = true;
    return -1;
}

const mdl_op_def mdl_op_constraint = {
    .op = "constraint",
    .mesh_edit = false,
    .fields = constraint_fields,
    .description = "Creates or replaces a named copy, aim, limit or ik constraint on a joint.",
    .run = run_constraint,
};

/* ---- delete_constraint */

static const mdl_field delete_constraint_fields[] = {
    {.name = "name", .type = MDL_F_NAME, .required = true, .description = "constraint name"},
    {.name = NULL},
};

static int run_delete_constraint(mdl_ctx *ctx, const anim_json_value *op)
{
    char *name = mdl_field_name(op, "name");
    if (!name)
        return mdl_nomem(ctx);
    int rc = mdl_spend(ctx, 1);
    if (rc == 0 && mdl_doc_delete_constraint(ctx->doc, name))
        rc = mdl_refuse(ctx, "unknown_constraint",
                        "field \"name\": constraint \"%s\" does not exist", name);
    free(name);
    return rc;
}

const mdl_op_def mdl_op_delete_constraint = {
    .op = "delete_constraint",
    .mesh_edit = false,
    .fields = delete_constraint_fields,
    .description = "Deletes the named constraint.",
    .run = run_delete_constraint,
};
