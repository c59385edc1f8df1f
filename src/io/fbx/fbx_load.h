/* Loading an FBX file: parse, object graph, the scene stages, and the
 * projection into a glTF asset. convert edits the scene between the two
 * halves (animation-only, static bake, texture recipes), so they are
 * separate calls. */
#ifndef ANIMSMITH_FBX_LOAD_H
#define ANIMSMITH_FBX_LOAD_H

#include "animsmith/gltf.h"
#include "io/fbx/fbx_scene.h"

typedef struct anim_fbx_loaded {
    anim_arena *arena;        /* owns everything below */
    const char *path;         /* as given */
    uint8_t *bytes;           /* the file */
    size_t byte_count;
    anim_fbx_tree tree;
    anim_fbx_objects objs;
    anim_fbx_scene scene;
} anim_fbx_loaded;

/* Reads and builds the scene. Errors name the file: "walk.fbx: Model
 * 'Hips' (id 12): ...". Returns NULL on failure. */
anim_fbx_loaded *anim_fbx_read(const char *path, const anim_load_options *opts, anim_error *err);
/* The same from memory (fuzzing, tests); base_dir NULL: no linked files. */
anim_fbx_loaded *anim_fbx_read_memory(const void *bytes, size_t len, const char *base_dir,
                                      const char *display_path, const anim_load_options *opts,
                                      anim_error *err);
/* Projects the (possibly edited) scene into an asset whose source.path is
 * the FBX path, whose input bytes are the FBX file's, and whose
 * source.fbx carries the FBX facts. */
anim_asset *anim_fbx_to_asset(anim_fbx_loaded *l, const anim_load_options *opts, anim_error *err);
void anim_fbx_loaded_free(anim_fbx_loaded *l);

/* anim_fbx_read + anim_fbx_to_asset (what anim_asset_load does for .fbx). */
anim_asset *anim_fbx_asset_load(const char *path, const anim_load_options *opts, anim_error *err);

#endif
