/* The skeleton operation: replaces the document's joints (one root, joint
 * 0; parents precede children; unique names; rest rotation identity and
 * scale 1). A joint is identified by its name across the replacement:
 * weights, weight locks, clip channels, pose rows and constraints that
 * refer to a joint move to the ordinal its name has in the new skeleton,
 * so reordering or inserting joints keeps every binding. A reference to a
 * name the new skeleton lacks is refused rather than silently dropped. */
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

/* map[o]: the new ordinal of old joint o (found by name), or -1 when the
 * new skeleton has no joint of that name. */
static int build_map(mdl_ctx *ctx, const mdl_joint *nj, size_t n, int32_t **out)
{
    const mdl_doc *d = ctx->doc;
    *out = NULL;
    if (!d->joint_count)
        return 0;
    int32_t *map = malloc(d->joint_count * sizeof *map);
    if (!map)
        return mdl_nomem(ctx);
    for (size_t o = 0; o < d->joint_count; o++) {
        map[o] = -1;
        for (size_t k = 0; k < n; k++)
            if (strcmp(d->joints[o].name, nj[k].name) == 0) {
                map[o] = (int32_t)k;
                break;
            }
    }
    *out = map;
    return mdl_spend(ctx, (uint64_t)d->joint_count * n / 16 + 1);
}

/* The name a reference to old ordinal j had ("?" past the old skeleton). */
static const char *old_name(const mdl_doc *d, uint32_t j)
{
    return j < d->joint_count ? d->joints[j].name : "?";
}

static int32_t mapped(const int32_t *map, const mdl_doc *d, uint32_t j)
{
    return j < d->joint_count ? map[j] : -1;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Every reference to a joint must survive by name; refuses naming the
 * first that does not. */
static int check_references(mdl_ctx *ctx, const int32_t *map)
{
    const mdl_doc *d = ctx->doc;
    uint64_t touched = 1;
    for (size_t i = 0; i < d->object_count; i++) {
        const mdl_object *o = d->objects[i];
        touched += o->weight_count + o->lock_count;
        for (size_t k = 0; k < o->weight_count; k++)
            if (mapped(map, d, o->weights[k].joint) < 0)
                return mdl_refuse(ctx, "invalid_skeleton",
                                  "vertex \"%llu\" of object \"%s\" is weighted to joint %u "
                                  "(\"%s\"), which the new skeleton lacks",
                                  (unsigned long long)o->weights[k].vertex, o->name,
                                  o->weights[k].joint, old_name(d, o->weights[k].joint));
        for (size_t k = 0; k < o->lock_count; k++)
            if (mapped(map, d, o->locks[k]) < 0)
                return mdl_refuse(ctx, "invalid_skeleton",
                                  "object \"%s\" locks the weights of joint %u (\"%s\"), which "
                                  "the new skeleton lacks",
                                  o->name, o->locks[k], old_name(d, o->locks[k]));
    }
    for (size_t i = 0; i < d->clip_count; i++) {
        const mdl_clip *c = d->clips[i];
        touched += c->channel_count;
        for (size_t k = 0; k < c->channel_count; k++)
            if (mapped(map, d, c->channels[k].joint) < 0)
                return mdl_refuse(ctx, "invalid_skeleton",
                                  "clip \"%s\" channel %zu animates joint %u (\"%s\"), which the "
                                  "new skeleton lacks",
                                  c->name, k, c->channels[k].joint,
                                  old_name(d, c->channels[k].joint));
    }
    for (size_t i = 0; i < d->pose_count; i++) {
        const mdl_pose *p = d->poses[i];
        touched += p->joint_count;
        for (size_t k = 0; k < p->joint_count; k++)
            if (mapped(map, d, p->joints[k].joint) < 0)
                return mdl_refuse(ctx, "invalid_skeleton",
                                  "pose \"%s\" row %zu sets joint %u (\"%s\"), which the new "
                                  "skeleton lacks",
                                  p->key.name, k, p->joints[k].joint,
                                  old_name(d, p->joints[k].joint));
    }
    for (size_t i = 0; i < d->constraint_count; i++) {
        const mdl_constraint *c = &d->constraints[i];
        uint32_t refs[4] = {c->joint, c->target, c->middle, c->end};
        static const char *const what[4] = {"joint", "target", "middle", "end"};
        int used = c->type == MDL_CONSTRAINT_IK ? 4 : c->type == MDL_CONSTRAINT_LIMIT ? 1 : 2;
        touched++;
        for (int k = 0; k < used; k++)
            if (mapped(map, d, refs[k]) < 0)
                return mdl_refuse(ctx, "invalid_skeleton",
                                  "constraint \"%s\" %s is joint %u (\"%s\"), which the new "
                                  "skeleton lacks",
                                  c->name, what[k], refs[k], old_name(d, refs[k]));
    }
    return mdl_spend(ctx, touched);
}

static bool object_moves(const mdl_object *o, const int32_t *map)
{
    for (size_t k = 0; k < o->weight_count; k++)
        if ((uint32_t)map[o->weights[k].joint] != o->weights[k].joint)
            return true;
    for (size_t k = 0; k < o->lock_count; k++)
        if ((uint32_t)map[o->locks[k]] != o->locks[k])
            return true;
    return false;
}

/* Weights stay sorted by (vertex, joint): each vertex's run is re-sorted
 * by its new ordinals. */
static void remap_weights(mdl_object *o, const int32_t *map)
{
    for (size_t k = 0; k < o->weight_count; k++)
        o->weights[k].joint = (uint32_t)map[o->weights[k].joint];
    for (size_t a = 0; a < o->weight_count;) {
        size_t b = a + 1;
        while (b < o->weight_count && o->weights[b].vertex == o->weights[a].vertex)
            b++;
        for (size_t i = a + 1; i < b; i++)
            for (size_t k = i; k > a && o->weights[k - 1].joint > o->weights[k].joint; k--) {
                mdl_weight t = o->weights[k];
                o->weights[k] = o->weights[k - 1];
                o->weights[k - 1] = t;
            }
        a = b;
    }
    for (size_t k = 0; k < o->lock_count; k++)
        o->locks[k] = (uint32_t)map[o->locks[k]];
    if (o->lock_count > 1)
        qsort(o->locks, o->lock_count, sizeof *o->locks, cmp_u32);
}

static int cmp_pose_joint(const void *a, const void *b)
{
    return cmp_u32(&((const mdl_pose_joint *)a)->joint, &((const mdl_pose_joint *)b)->joint);
}

/* Moves every reference to its joint's new ordinal, editing only what
 * moves (shared objects, clips and poses are copied first). */
static int remap_references(mdl_ctx *ctx, const int32_t *map)
{
    mdl_doc *d = ctx->doc;
    for (size_t i = 0; i < d->object_count; i++) {
        if (!object_moves(d->objects[i], map))
            continue;
        bool nomem = false;
        mdl_object *o = mdl_doc_edit_object(d, d->objects[i]->name, &nomem);
        if (!o)
            return mdl_nomem(ctx);
        remap_weights(o, map);
    }
    for (size_t i = 0; i < d->clip_count; i++) {
        bool moves = false;
        for (size_t k = 0; k < d->clips[i]->channel_count && !moves; k++)
            moves = (uint32_t)map[d->clips[i]->channels[k].joint] != d->clips[i]->channels[k].joint;
        if (!moves)
            continue;
        mdl_clip *c = mdl_doc_edit_clip(d, i);
        if (!c)
            return mdl_nomem(ctx);
        for (size_t k = 0; k < c->channel_count; k++)
            c->channels[k].joint = (uint32_t)map[c->channels[k].joint];
    }
    for (size_t i = 0; i < d->pose_count; i++) {
        const mdl_pose *p = d->poses[i];
        bool moves = false;
        for (size_t k = 0; k < p->joint_count && !moves; k++)
            moves = (uint32_t)map[p->joints[k].joint] != p->joints[k].joint;
        if (!moves)
            continue;
        mdl_pose *q = mdl_pose_new(p->key.name, p->joint_count);
        if (!q)
            return mdl_nomem(ctx);
        for (size_t k = 0; k < p->joint_count; k++) {
            q->joints[k] = p->joints[k];
            q->joints[k].joint = (uint32_t)map[p->joints[k].joint];
        }
        qsort(q->joints, q->joint_count, sizeof *q->joints, cmp_pose_joint);
        if (mdl_doc_put_pose(d, q))
            return mdl_nomem(ctx);
    }
    for (size_t i = 0; i < d->constraint_count; i++) {
        mdl_constraint *c = &d->constraints[i];
        int used = c->type == MDL_CONSTRAINT_IK ? 4 : c->type == MDL_CONSTRAINT_LIMIT ? 1 : 2;
        c->joint = (uint32_t)map[c->joint];
        if (used > 1)
            c->target = (uint32_t)map[c->target];
        if (used > 2) {
            c->middle = (uint32_t)map[c->middle];
            c->end = (uint32_t)map[c->end];
        }
    }
    return 0;
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
    int32_t *map = NULL;
    if (rc == 0)
        rc = build_map(ctx, j, n, &map);
    if (rc == 0)
        rc = check_references(ctx, map);
    if (rc == 0 && map)
        rc = remap_references(ctx, map);
    if (rc == 0 && mdl_doc_set_joints(ctx->doc, j, n))
        rc = mdl_nomem(ctx);
    free(map);
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
