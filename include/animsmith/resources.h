/* The files a loaded glTF asset consists of: the file itself, every
 * external buffer it read and every image file it names. Writers use the
 * list to refuse a write that would land on one of the input's own files
 * (under any spelling: compare the files, not the paths). */
#ifndef ANIMSMITH_RESOURCES_H
#define ANIMSMITH_RESOURCES_H

#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/gltf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    ANIM_RESOURCE_FILE,    /* the .gltf / .glb itself */
    ANIM_RESOURCE_BUFFER,  /* an external buffer file */
    ANIM_RESOURCE_IMAGE    /* an image file named by URI (never read) */
} anim_resource_kind;

typedef struct anim_resource {
    anim_resource_kind kind;
    uint32_t index;        /* buffer or image index; 0 for the file */
    const char *uri;       /* as declared; NULL for the file */
    const char *path;      /* the path it resolves to */
} anim_resource;

/* Fills *out (allocated in arena) with the asset's resources, the file
 * first, then buffers and images in index order, and returns how many.
 * Data-URI and GLB-chunk buffers and embedded images are not files and
 * are not listed; an image URI that does not resolve is left out. Returns
 * -1 with ANIM_ERR_NOMEM on failure. */
int anim_asset_resources(const anim_asset *asset, anim_arena *arena, anim_resource **out,
                         uint32_t *count, anim_error *err);

#ifdef __cplusplus
}
#endif
#endif
