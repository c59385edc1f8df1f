/* The skin weight operations: weights (replace one vertex's influences)
 * and auto_weights (a rigid nearest-bone binding of a whole object, the
 * starting point an artist or agent then edits). Both select the vertices
 * whose influences actually changed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/mdl_ops.h"
#include "model/mdl_weight_tools.h"

#define WEIGHTS_MAX MDL_VERTEX_INFLUENCES_MAX

static const mdl_field influence_fields[] = {
    {.name = "joint", .type = MDL_F_INTEGER, .required = true, .min = 0, .max = 2147483647.0,
     .description = "an existing joint ordinal"},
    {.name = "weight", .type = MDL_F_NUMBER, .required = true, .min = 0, .max = 1,
     .description = "0-1; zero weights are not stored"},
    {.name = NULL},
};

static const mdl_field weights_fields[] = {
    {.name = "vertex", .type = MDL_F_ID, .required = true, .description = "vertex ID string"},
    {.name = "weights", .type = MDL_F_OBJECTS, .required = true, .min_items = 0,
     .max_items = WEIGHTS_MAX, .fields = influence_fields,
     .description = "0-8 influences {joint, weight}, joints unique; replaces the vertex's"},
    {.name = NULL},
};

static bool same_weights(const mdl_object *o, uint64_t vertex, const uint32_t *joints,
                         const double *w, size_t n)
{
    size_t first, count = mdl_object_vertex_weights(o, vertex, &first);
    if (count != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        const mdl_weight *x = &o->weights[first + i];
        if (x->joint != joints[i] || x->weight != w[i])
            return false;
    }
    return true;
}

static int run_weights(mdl_ctx *ctx, const anim_json_value *op)
{
    mdl_object *o = mdl_target_object(ctx, op, false);
    if (!o)
        return -1;
    uint64_t vid = mdl_value_id(mdl_field_get(op, "vertex"));
    if (mdl_object_vertex_index(o, vid) < 0)
        return mdl_refuse(ctx, "unknown_vertex", "field \"vertex\": vertex \"%llu\" of object "
                          "\"%s\" does not exist", (unsigned long long)vid, o->name);
    const anim_json_value *list = mdl_field_get(op, "weights");
    size_t n = anim_json_count(list), kept = 0;
    uint32_t joints[WEIGHTS_MAX];
    double w[WEIGHTS_MAX];
    for (size_t i = 0; i < n; i++) {
        const anim_json_value *it = anim_json_item(list, i);
        int64_t j = mdl_field_int(it, "joint", -1);
        if (j < 0 || (uint64_t)j >= ctx->doc->joint_count)
            return mdl_refuse(ctx, "unknown_joint",
                              "field \"weights[%zu].joint\": joint %lld does not exist (the "
                              "skeleton has %zu joints)",
                              i, (long long)j, ctx->doc->joint_count);
        for (size_t k = 0; k < i; k++)
            if (mdl_field_int(anim_json_item(list, k), "joint", -1) == j)
                return mdl_refuse(ctx, "invalid_operation",
                                  "field \"weights[%zu].joint\": joint %lld is already "
                                  "weights[%zu]",
                                  i, (long long)j, k);
        double x = mdl_field_f64(it, "weight", 0);
        if (x == 0)
            continue;
        joints[kept] = (uint32_t)j;
        w[kept++] = x;
    }
    if (mdl_spend(ctx, 1 + n))
        return -1;
    /* Sorted by joint, as stored, so the comparison is exact. */
    for (size_t i = 1; i < kept; i++)
        for (size_t k = i; k > 0 && joints[k - 1] > joints[k]; k--) {
            uint32_t tj = joints[k];
            joints[k] = joints[k - 1];
            joints[k - 1] = tj;
            double tw = w[k];
            w[k] = w[k - 1];
            w[k - 1] = tw;
        }
    if (same_weights(o, vid, joints, w, kept))
        return 0;
    if (mdl_object_set_vertex_weights(o, vid, joints, w, kept))
        return mdl_nomem(ctx);
    return mdl_select_vertex(ctx, vid) ? mdl_nomem(ctx) : 0;
}

const mdl_op_def mdl_op_weights = {
    .op = "weights",
    .mesh_edit = true,
    .fields = weights_fields,
    .description = "Replaces one vertex's skin influences (up to 8; zero weights dropped).",
    .run = run_weights,
};

/* ---- auto_weights */

static const mdl_field auto_weights_fields[] = {
    {.name = NULL},
};

static int run_auto_weights(mdl_ctx *ctx, const anim_json_value *op)
{
    mdl_object *o = mdl_target_object(ctx, op, false);
    if (!o)
        return -1;
    const mdl_doc *d = ctx->doc;
    size_t jn = d->joint_count;
    if (jn == 0)
        return mdl_refuse(ctx, "invalid_skeleton",
                          "object \"%s\": auto_weights needs a skeleton (the document has no "
                          "joints)",
                          o->name);
    if (mdl_spend(ctx, 1 + o->vertex_count + o->weight_count + (uint64_t)o->vertex_count * jn))
        return -1;
    double(*pts)[3] = malloc(jn * sizeof *pts);
    double(*tails)[3] = malloc(jn * sizeof *tails);
    mdl_weight *nw = o->vertex_count ? malloc(o->vertex_count * sizeof *nw) : NULL;
    int rc = 0;
    if (!pts || !tails || (o->vertex_count && !nw) || mdl_joint_world_points(d, pts)) {
        rc = mdl_nomem(ctx);
        goto done;
    }
    /* A bone runs from its joint to its first (lowest-ordinal) child; a
     * leaf is its point. */
    for (size_t i = 0; i < jn; i++) {
        memcpy(tails[i], pts[i], sizeof tails[i]);
        for (size_t c = i + 1; c < jn; c++)
            if (d->joints[c].parent == (int32_t)i) {
                memcpy(tails[i], pts[c], sizeof tails[i]);
                break;
            }
    }
    size_t old = 0;
    for (size_t v = 0; v < o->vertex_count; v++) {
        const mdl_vertex *vx = &o->vertices[v];
        uint32_t best = 0;
        double best_d = mdl_segment_distance2(vx->p, pts[0], tails[0]);
        for (size_t i = 1; i < jn; i++) {
            double dd = mdl_segment_distance2(vx->p, pts[i], tails[i]);
            if (dd < best_d) {
                best_d = dd;
                best = (uint32_t)i;
            }
        }
        nw[v] = (mdl_weight){vx->id, best, 1.0};
        /* The old weights are sorted by vertex like the vertices. */
        while (old < o->weight_count && o->weights[old].vertex < vx->id)
            old++;
        size_t end = old;
        while (end < o->weight_count && o->weights[end].vertex == vx->id)
            end++;
        bool same = end - old == 1 && o->weights[old].joint == best &&
                    o->weights[old].weight == 1.0;
        old = end;
        if (!same && mdl_select_vertex(ctx, vx->id)) {
            rc = mdl_nomem(ctx);
            goto done;
        }
    }
    free(o->weights);
    o->weights = nw;
    o->weight_count = o->weight_cap = o->vertex_count;
    nw = NULL;
done:
    free(pts);
    free(tails);
    free(nw);
    return rc;
}

const mdl_op_def mdl_op_auto_weights = {
    .op = "auto_weights",
    .mesh_edit = true,
    .fields = auto_weights_fields,
    .description = "Binds every vertex rigidly (weight 1) to the joint of its nearest bone.",
    .run = run_auto_weights,
};
