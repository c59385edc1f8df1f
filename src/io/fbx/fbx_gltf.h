/* The projection of an FBX scene into a glTF 2.0 document (GLB bytes in
 * memory), which the glTF reader then loads like any other file: every
 * command reads FBX through the same code, and `convert` writes the same
 * document, so a number measured on an FBX equals the number measured on
 * its converted GLB. */
#ifndef ANIMSMITH_FBX_GLTF_H
#define ANIMSMITH_FBX_GLTF_H

#include "animsmith/strbuf.h"
#include "io/fbx/fbx_scene.h"

typedef struct anim_fbx_gltf_options {
    /* Linked texture files must resolve inside the FBX's directory
     * (realpath, so a symbolic link cannot lead out); others are skipped
     * with a note. */
    bool confine_uris;
    /* Largest linked image file embedded. */
    size_t max_image_bytes;
} anim_fbx_gltf_options;

/* Appends the GLB to glb. Notes about what could not be carried (an image
 * of another type, a linked file outside the directory) go to the scene's
 * notes. */
int anim_fbx_to_glb(anim_fbx_scene *scene, const anim_fbx_gltf_options *opts, anim_strbuf *glb,
                    anim_error *err);

#endif
