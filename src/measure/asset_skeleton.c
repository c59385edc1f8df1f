/* skeleton_nodes: the source node table in node
 * index order with the authored local rest (TRS or matrix, never
 * decomposed), scene-root membership, and the rest-world matrix composed
 * parent · local along the node hierarchy.
 *
 * Composition runs in the normalized bone order, which puts every parent
 * before its children, so each world is one product of an already-final
 * parent world. The f64 product is what children compose from; the
 * published matrix is its binary32 narrowing, and the linear facts
 * describe that published matrix. */
#include "measure/asset_internal.h"

#include <string.h>

#include "animsmith/math.h"

static void local_rest(const anim_bone *bone, anim_skeleton_node_measurements *nm, double *local,
                       bool *local_ok)
{
    *local_ok = false;
    if (bone->has_matrix) {
        for (int i = 0; i < 16; i++)
            nm->matrix[i] = (float)bone->matrix[i];
        if (!asset_all_finite_f(nm->matrix, 16)) {
            nm->local_kind = ANIM_LOCAL_REST_UNAVAILABLE;
            return;
        }
        nm->local_kind = ANIM_LOCAL_REST_MATRIX;
        for (int i = 0; i < 16; i++)
            local[i] = nm->matrix[i];
        *local_ok = true;
        return;
    }
    for (int i = 0; i < 3; i++) {
        nm->translation[i] = (float)bone->rest_translation[i];
        nm->scale[i] = (float)bone->rest_scale[i];
    }
    for (int i = 0; i < 4; i++)
        nm->rotation_xyzw[i] = (float)bone->rest_rotation[i];
    if (!asset_all_finite_f(nm->translation, 3) || !asset_all_finite_f(nm->rotation_xyzw, 4) ||
        !asset_all_finite_f(nm->scale, 3)) {
        nm->local_kind = ANIM_LOCAL_REST_UNAVAILABLE;
        return;
    }
    /* The quaternion is used as authored (not renormalized), as glTF
     * consumers build the node matrix from it. */
    anim_mat4 m = anim_mat4_from_trs(anim_vec3_from_f32(nm->translation),
                                     anim_quat_from_f32(nm->rotation_xyzw),
                                     anim_vec3_from_f32(nm->scale));
    float narrowed[16];
    if (!asset_narrow16(m.m, narrowed)) {
        nm->local_kind = ANIM_LOCAL_REST_UNAVAILABLE;
        return;
    }
    nm->local_kind = ANIM_LOCAL_REST_TRS;
    memcpy(local, m.m, sizeof m.m);
    *local_ok = true;
}

static int scene_roots(const anim_doc *doc, anim_arena *arena, anim_asset_measurements *out,
                       anim_error *err)
{
    uint32_t n = doc->node_count;
    uint32_t *counts = anim_arena_calloc(arena, n ? n : 1, sizeof *counts);
    if (!counts)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    /* The reader refuses a scene listing a node twice; a document built
     * in memory that does so still names the scene once. */
    for (uint32_t s = 0; s < doc->scene_count; s++)
        for (uint32_t k = 0; k < doc->scenes[s].node_count; k++) {
            uint32_t node = doc->scenes[s].nodes[k];
            if (node >= n)
                continue;
            anim_skeleton_node_measurements *nm = &out->skeleton_nodes[node];
            if (nm->scene_root_count && counts[node] == s + 1)
                continue;
            counts[node] = s + 1;
            nm->scene_root_count++;
        }
    for (uint32_t i = 0; i < n; i++) {
        anim_skeleton_node_measurements *nm = &out->skeleton_nodes[i];
        if (!nm->scene_root_count)
            continue;
        nm->scene_root_indices = anim_arena_calloc(arena, nm->scene_root_count, sizeof(uint32_t));
        if (!nm->scene_root_indices)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        nm->scene_root_count = 0;
    }
    for (uint32_t s = 0; s < doc->scene_count; s++)
        for (uint32_t k = 0; k < doc->scenes[s].node_count; k++) {
            uint32_t node = doc->scenes[s].nodes[k];
            if (node >= n)
                continue;
            anim_skeleton_node_measurements *nm = &out->skeleton_nodes[node];
            if (nm->scene_root_count && nm->scene_root_indices[nm->scene_root_count - 1] == s)
                continue;
            nm->scene_root_indices[nm->scene_root_count++] = s;
        }
    return 0;
}

int asset_measure_skeleton(const anim_asset *asset, anim_arena *arena,
                           anim_asset_measurements *out, asset_world *worlds, anim_error *err)
{
    const anim_doc *doc = &asset->doc;
    uint32_t n = doc->node_count;
    out->skeleton_source_complete = true;
    out->skeleton_node_count = n;
    out->skeleton_nodes = anim_arena_calloc(arena, n ? n : 1, sizeof *out->skeleton_nodes);
    if (!out->skeleton_nodes)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    /* Bone order: parents are final before their children. */
    for (uint32_t b = 0; b < doc->bone_count; b++) {
        const anim_bone *bone = &doc->bones[b];
        uint32_t node = bone->node;
        anim_skeleton_node_measurements *nm = &out->skeleton_nodes[node];
        nm->node_index = node;
        nm->name = bone->has_name ? bone->name : NULL;
        nm->parent_node_index = bone->parent == ANIM_NONE ? ANIM_NONE
                                                          : doc->bones[bone->parent].node;
        double local[16];
        bool local_ok;
        local_rest(bone, nm, local, &local_ok);
        asset_world *w = &worlds[node];
        w->available = false;
        if (!local_ok) {
            nm->world_status = ANIM_REST_WORLD_NON_FINITE_LOCAL_REST;
        } else if (nm->parent_node_index != ANIM_NONE &&
                   !worlds[nm->parent_node_index].available) {
            nm->world_status = ANIM_REST_WORLD_PARENT_UNAVAILABLE;
        } else {
            if (nm->parent_node_index == ANIM_NONE)
                memcpy(w->m, local, sizeof w->m);
            else
                asset_mat4_mul(worlds[nm->parent_node_index].m, local, w->m);
            if (asset_narrow16(w->m, nm->rest_world_matrix)) {
                nm->world_status = ANIM_REST_WORLD_AVAILABLE;
                w->available = true;
            } else {
                nm->world_status = ANIM_REST_WORLD_NON_FINITE_WORLD_MATRIX;
            }
        }
        if (nm->world_status == ANIM_REST_WORLD_AVAILABLE)
            anim_linear_facts_classify(nm->rest_world_matrix, &nm->rest_world_linear);
        else
            memset(&nm->rest_world_linear, 0, sizeof nm->rest_world_linear);
    }
    return scene_roots(doc, arena, out, err);
}
