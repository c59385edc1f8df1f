/* node_instances and scenes: the static rest-pose boxes of
 * mesh-bearing nodes and their per-scene unions.
 *
 * A node box transforms the definition's finite positions by the node's
 * source rest-world matrix (rotation, negative and non-uniform scale
 * included). Skinned instances are excluded: under glTF their node
 * transform is not what renders, and bind-pose skinning is a different
 * domain. Scene aggregates come from subtree sums accumulated child to
 * parent in reverse bone order, so many scenes never cost scenes x nodes. */
#include "measure/asset_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct aggregate {
    uint64_t instances;
    uint64_t excluded;
    bool any;
    anim_aabb box;
} aggregate;

static void box_union(bool *any, anim_aabb *dst, const anim_aabb *src)
{
    if (!*any) {
        *dst = *src;
        *any = true;
        return;
    }
    for (int i = 0; i < 3; i++) {
        dst->min[i] = fminf(dst->min[i], src->min[i]);
        dst->max[i] = fmaxf(dst->max[i], src->max[i]);
    }
}

static void aggregate_add(aggregate *dst, const aggregate *src)
{
    dst->instances += src->instances;
    dst->excluded += src->excluded;
    if (src->any)
        box_union(&dst->any, &dst->box, &src->box);
}

/* Static node-world box of mesh m under world; sets the status. */
static int node_box(const anim_source *src, const anim_mesh *mesh, const double *world,
                    anim_node_instance_measurements *ni, anim_error *err)
{
    bool any_finite = false, any = false;
    anim_aabb box;
    memset(&box, 0, sizeof box);
    for (uint32_t p = 0; p < mesh->primitive_count; p++) {
        const anim_primitive *prim = &mesh->primitives[p];
        if (!asset_primitive_is_measured(src, prim))
            continue;
        double *pos = asset_read_accessor(src, prim->position, err);
        if (!pos)
            return -1;
        uint32_t count = src->accessors[prim->position].count;
        for (uint32_t v = 0; v < count; v++) {
            const double *q = pos + (size_t)v * 3;
            if (!isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2]))
                continue;
            any_finite = true;
            anim_aabb pt;
            bool ok = true;
            for (int r = 0; r < 3; r++) {
                double t = world[0 * 4 + r] * q[0] + world[1 * 4 + r] * q[1] +
                           world[2 * 4 + r] * q[2] + world[3 * 4 + r];
                pt.min[r] = pt.max[r] = (float)t;
                ok = ok && isfinite(pt.min[r]);
            }
            if (!ok) {
                free(pos);
                ni->status = ANIM_NODE_AABB_NON_FINITE_TRANSFORM;
                return 0;
            }
            box_union(&any, &box, &pt);
        }
        free(pos);
    }
    if (!any_finite) {
        ni->status = ANIM_NODE_AABB_NO_FINITE_POSITIONS;
        return 0;
    }
    ni->status = ANIM_NODE_AABB_AVAILABLE;
    ni->static_node_world_aabb = box;
    return 0;
}

int asset_measure_nodes(const anim_asset *asset, anim_arena *arena, const asset_world *worlds,
                        anim_asset_measurements *out, anim_error *err)
{
    const anim_doc *doc = &asset->doc;
    uint32_t n = doc->node_count;
    bool *kept = anim_arena_calloc(arena, doc->mesh_count ? doc->mesh_count : 1, sizeof *kept);
    aggregate *agg = anim_arena_calloc(arena, doc->bone_count ? doc->bone_count : 1, sizeof *agg);
    if (!kept || !agg)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < out->mesh_count; i++)
        kept[out->meshes[i].mesh_index] = true;
    uint32_t instances = 0;
    for (uint32_t node = 0; node < n; node++) {
        const anim_bone *bone = &doc->bones[doc->node_to_bone[node]];
        if (bone->mesh != ANIM_NONE && bone->mesh < doc->mesh_count && kept[bone->mesh])
            instances++;
    }
    out->node_instances = anim_arena_calloc(arena, instances ? instances : 1,
                                            sizeof *out->node_instances);
    if (!out->node_instances)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    out->node_instance_count = 0;
    for (uint32_t node = 0; node < n; node++) {
        uint32_t b = doc->node_to_bone[node];
        const anim_bone *bone = &doc->bones[b];
        if (bone->mesh == ANIM_NONE || bone->mesh >= doc->mesh_count || !kept[bone->mesh])
            continue;
        anim_node_instance_measurements *ni = &out->node_instances[out->node_instance_count++];
        ni->node_index = node;
        ni->node_name = bone->name;
        ni->mesh_index = bone->mesh;
        if (bone->skin != ANIM_NONE)
            ni->status = ANIM_NODE_AABB_SKINNED_DEFORMATION_EXCLUDED;
        else if (!worlds[node].available)
            ni->status = ANIM_NODE_AABB_NON_FINITE_TRANSFORM;
        else if (node_box(&asset->source, &doc->meshes[bone->mesh], worlds[node].m, ni, err)) {
            anim_error_prefix(err, "node %u mesh %u", node, bone->mesh);
            return -1;
        }
        agg[b].instances++;
        if (ni->status == ANIM_NODE_AABB_AVAILABLE)
            box_union(&agg[b].any, &agg[b].box, &ni->static_node_world_aabb);
        else
            agg[b].excluded++;
    }
    /* Children after parents in bone order: walking backwards folds each
     * finished subtree into its parent exactly once. */
    for (uint32_t b = doc->bone_count; b-- > 0;)
        if (doc->bones[b].parent != ANIM_NONE)
            aggregate_add(&agg[doc->bones[b].parent], &agg[b]);

    out->scene_count = doc->scene_count;
    out->scenes = anim_arena_calloc(arena, doc->scene_count ? doc->scene_count : 1,
                                    sizeof *out->scenes);
    if (!out->scenes)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t s = 0; s < doc->scene_count; s++) {
        const anim_scene *scene = &doc->scenes[s];
        aggregate total;
        memset(&total, 0, sizeof total);
        for (uint32_t k = 0; k < scene->node_count; k++)
            if (scene->nodes[k] < n)
                aggregate_add(&total, &agg[doc->node_to_bone[scene->nodes[k]]]);
        anim_scene_measurements *sm = &out->scenes[s];
        sm->scene_index = s;
        sm->name = scene->name;
        sm->instance_count = total.instances;
        sm->excluded_instance_count = total.excluded;
        sm->has_aabb = total.any;
        sm->static_scene_world_aabb = total.box;
    }
    out->default_scene_index = doc->default_scene;
    return 0;
}
