/* Nodes to bones: every node is a bone, ordered by a depth-first
 * pre-order walk from the roots in ascending index, children in the order
 * each node lists them. The graph must be a forest. */
#include "io/gltf/gltf_internal.h"

#include "animsmith/math.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rounds to binary32 and widens back. The volatile is deliberate: gcc 12's
 * SLP vectorizer at -O2/-O3 turns a loop of (double)(float)x into a no-op
 * for vectorized lanes (the rest TRS stayed unrounded), so keep each
 * rounding scalar and observable. */
static double round_f32(double x)
{
    volatile float f = (float)x;
    return (double)f;
}

static int read_rest(const anim_json_value *node, uint32_t index, anim_bone *bone,
                     anim_error *err)
{
    char ctx[32];
    snprintf(ctx, sizeof ctx, "node %u", index);
    double t[3] = {0, 0, 0}, r[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
    bool has_t, has_r, has_s;
    if (gltf_get_numbers(node, "translation", ctx, 3, t, &has_t, err) ||
        gltf_get_numbers(node, "rotation", ctx, 4, r, &has_r, err) ||
        gltf_get_numbers(node, "scale", ctx, 3, s, &has_s, err) ||
        gltf_get_numbers(node, "matrix", ctx, 16, bone->matrix, &bone->has_matrix, err))
        return -1;
    if (bone->has_matrix && (has_t || has_r || has_s))
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: has both \"matrix\" and translation/rotation/scale", ctx);
    /* Authored values are binary32 in glTF: round once, then widen exactly. */
    if (bone->has_matrix) {
        double m[16];
        for (int i = 0; i < 16; i++)
            m[i] = bone->matrix[i] = round_f32(bone->matrix[i]);
        anim_vec3 dt, ds;
        anim_quat dr;
        anim_mat4 mm;
        memcpy(mm.m, m, sizeof m);
        anim_mat4_decompose(&mm, &dt, &dr, &ds);
        t[0] = dt.x, t[1] = dt.y, t[2] = dt.z;
        r[0] = dr.x, r[1] = dr.y, r[2] = dr.z, r[3] = dr.w;
        s[0] = ds.x, s[1] = ds.y, s[2] = ds.z;
    } else {
        for (int i = 0; i < 3; i++) {
            t[i] = round_f32(t[i]);
            s[i] = round_f32(s[i]);
        }
        for (int i = 0; i < 4; i++)
            r[i] = round_f32(r[i]);
    }
    memcpy(bone->rest_translation, t, sizeof t);
    memcpy(bone->rest_rotation, r, sizeof r);
    memcpy(bone->rest_scale, s, sizeof s);
    return 0;
}

int gltf_build_skeleton(const anim_source *src, anim_arena *arena, anim_doc *doc,
                        anim_error *err)
{
    const anim_json_value *nodes;
    if (gltf_get_array(src->root, "nodes", "glTF root", &nodes, err))
        return -1;
    uint32_t n = nodes ? (uint32_t)nodes->len : 0;
    doc->node_count = doc->bone_count = n;
    doc->bones = anim_arena_calloc(arena, n ? n : 1, sizeof *doc->bones);
    doc->node_to_bone = anim_arena_calloc(arena, n ? n : 1, sizeof *doc->node_to_bone);
    uint32_t *claims = calloc(n ? n : 1, sizeof *claims);
    uint32_t *parent_node = calloc(n ? n : 1, sizeof *parent_node);
    uint32_t *stack = calloc(n ? n : 1, sizeof *stack);
    int rc = -1;
    if (!doc->bones || !doc->node_to_bone || !claims || !parent_node || !stack) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        goto done;
    }
    /* Pass 1: validate children and count parent claims. */
    for (uint32_t i = 0; i < n; i++) {
        const anim_json_value *node = &nodes->u.items[i];
        char ctx[32];
        snprintf(ctx, sizeof ctx, "node %u", i);
        const anim_json_value *children;
        if (gltf_require_object(node, ctx, err) ||
            gltf_get_array(node, "children", ctx, &children, err))
            goto done;
        parent_node[i] = ANIM_NONE;
        doc->node_to_bone[i] = ANIM_NONE;
        for (size_t c = 0; children && c < children->len; c++) {
            const anim_json_value *cv = &children->u.items[c];
            uint32_t child;
            if (!gltf_small_index(cv, n, &child)) {
                anim_error_set(err, ANIM_ERR_INVALID,
                               "%s: children[%zu] is not the index of one of the file's %u nodes",
                               ctx, c, n);
                goto done;
            }
            claims[child]++;
        }
    }
    for (uint32_t i = 0; i < n; i++)
        if (claims[i] >= 2) {
            anim_error_set(err, ANIM_ERR_INVALID,
                           "malformed node graph: node %u is a child of %u nodes; glTF requires a forest (one parent per node)",
                           i, claims[i]);
            goto done;
        }
    /* Pass 2: depth-first pre-order from each root in ascending index. */
    uint32_t next = 0;
    for (uint32_t root = 0; root < n; root++) {
        if (claims[root] != 0)
            continue;
        size_t top = 0;
        stack[top++] = root;
        while (top > 0) {
            uint32_t node_index = stack[--top];
            uint32_t bone_index = next++;
            doc->node_to_bone[node_index] = bone_index;
            anim_bone *bone = &doc->bones[bone_index];
            bone->node = node_index;
            bone->parent = parent_node[node_index] == ANIM_NONE
                               ? ANIM_NONE
                               : doc->node_to_bone[parent_node[node_index]];
            bone->depth = bone->parent == ANIM_NONE ? 0 : doc->bones[bone->parent].depth + 1;
            const anim_json_value *node = &nodes->u.items[node_index];
            const anim_json_value *children = anim_json_get(node, "children");
            size_t cc = children ? children->len : 0;
            /* Push in reverse so the first listed child is visited first. */
            for (size_t c = cc; c-- > 0;) {
                uint32_t child = (uint32_t)children->u.items[c].u.integer;
                parent_node[child] = node_index;
                stack[top++] = child;
            }
        }
    }
    for (uint32_t i = 0; i < n; i++)
        if (doc->node_to_bone[i] == ANIM_NONE) {
            anim_error_set(err, ANIM_ERR_INVALID,
                           "malformed node graph: node %u is unreachable from any root; the node graph contains a cycle",
                           i);
            goto done;
        }
    /* Pass 3: names, rest transforms, mesh/skin references, child links. */
    for (uint32_t b = 0; b < n; b++) {
        anim_bone *bone = &doc->bones[b];
        const anim_json_value *node = &nodes->u.items[bone->node];
        char ctx[32];
        snprintf(ctx, sizeof ctx, "node %u", bone->node);
        const char *name;
        if (gltf_get_string(arena, node, "name", ctx, &name, err))
            goto done;
        bone->has_name = name != NULL;
        bone->name = name ? name : anim_arena_printf(arena, "node%u", bone->node);
        if (!bone->name) {
            anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", ctx);
            goto done;
        }
        const anim_json_value *meshes = anim_json_get(src->root, "meshes");
        const anim_json_value *skins = anim_json_get(src->root, "skins");
        uint32_t mesh_count = meshes && meshes->type == ANIM_JSON_ARRAY ? (uint32_t)meshes->len : 0;
        uint32_t skin_count = skins && skins->type == ANIM_JSON_ARRAY ? (uint32_t)skins->len : 0;
        if (!bone->name || read_rest(node, bone->node, bone, err) ||
            gltf_get_index(src->json_text, node, "mesh", ctx, false, mesh_count, "mesh", &bone->mesh, err) ||
            gltf_get_index(src->json_text, node, "skin", ctx, false, skin_count, "skin", &bone->skin, err))
            goto done;
        bone->first_child = bone->next_sibling = ANIM_NONE;
    }
    /* Children appear after their parent in bone order; link them in order. */
    for (uint32_t b = n; b-- > 0;) {
        anim_bone *bone = &doc->bones[b];
        if (bone->parent == ANIM_NONE)
            continue;
        anim_bone *parent = &doc->bones[bone->parent];
        bone->next_sibling = parent->first_child;
        parent->first_child = b;
        parent->child_count++;
    }
    rc = 0;
done:
    free(claims);
    free(parent_node);
    free(stack);
    return rc;
}
