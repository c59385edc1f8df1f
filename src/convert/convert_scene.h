/* src/convert/ owns the operations of `convert` beyond reading and
 * writing: the animation-only projection, the static mesh transform bake,
 * and material texture recipes (texture_recipe.h). They edit the FBX
 * scene (io/fbx/fbx_scene.h) before it is projected into the glTF
 * document that is written. */
#ifndef ANIMSMITH_CONVERT_SCENE_H
#define ANIMSMITH_CONVERT_SCENE_H

#include "io/fbx/fbx_scene.h"

/* Removes meshes, skins, materials, textures, images and morph weight
 * tracks: the skeleton and its clips remain. */
void anim_convert_animation_only(anim_fbx_scene *scene);

/* One baked mesh instance, for the conversion evidence. */
typedef struct anim_convert_bake_entry {
    uint32_t source_node_index;
    const char *source_node_name;
    uint32_t source_mesh_ordinal;
    uint32_t source_mesh_index;
    const char *source_mesh_name;
    uint32_t output_node_index;
    uint32_t output_mesh_index;
    double world_transform[16];   /* column-major rest world matrix applied */
    double linear_determinant;
    uint32_t primitive_count;
    uint64_t position_count;
    uint64_t normal_count;
} anim_convert_bake_entry;

/* Bakes every mesh instance's rest world transform into its vertices and
 * replaces the hierarchy with an identity root whose children are the
 * mesh nodes, with identity transforms. Refuses (ANIM_ERR_UNSUPPORTED,
 * message "cannot bake static transforms: ...", nothing changed) a scene
 * with an animation track, a skin, no mesh instance, a non-finite,
 * singular or near-singular, or reflecting transform. */
int anim_convert_bake_static(anim_fbx_scene *scene, anim_convert_bake_entry **entries,
                             uint32_t *entry_count, anim_error *err);

#endif
