/* glTF 2.0 writer for skeleton + animation documents.
 *
 * Writes one node per bone (node index = bone index) with its rest TRS,
 * one animation per clip that has a writable track, and one buffer holding
 * every track's times then values. Object keys are sorted byte-wise at
 * every level and every f32 is printed widened to f64 with shortest
 * round-trip digits, so the example assets it writes equal the corpus's
 * reference files byte for byte (apart from the generator string).
 *
 * Scope: documents with meshes, skins, materials, textures, images or morph
 * weight tracks are refused with ANIM_ERR_UNSUPPORTED; writing those is not
 * implemented yet. */
#ifndef ANIMSMITH_GLTF_WRITE_H
#define ANIMSMITH_GLTF_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "animsmith/doc.h"
#include "animsmith/error.h"
#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    ANIM_GLTF_FORMAT_GLB,  /* binary container, compact JSON */
    ANIM_GLTF_FORMAT_GLTF  /* pretty JSON, one base64 data-URI buffer */
} anim_gltf_format;

/* What the writer wrote (for transform's "wrote ..." line). */
typedef struct anim_gltf_write_summary {
    uint32_t nodes;
    uint32_t animations;
    uint32_t meshes;
    uint64_t positions;      /* sum of POSITION counts (0: no meshes yet) */
    uint32_t materials;
    uint32_t dropped_clips;  /* clips without a writable track */
} anim_gltf_write_summary;

/* GLB when the path's extension is "glb" (any case), else .gltf JSON. */
anim_gltf_format anim_gltf_format_for_path(const char *path);

/* "animsmith <version of this build>", the default asset.generator. */
const char *anim_gltf_default_generator(void);

/* Serializes doc into out (appended). generator NULL = default. summary
 * may be NULL. Returns 0, or -1 with err set and out unspecified. */
int anim_gltf_write_mem(const anim_doc *doc, anim_gltf_format format, const char *generator,
                        anim_strbuf *out, anim_gltf_write_summary *summary, anim_error *err);

/* Serializes doc and writes it atomically to path (format from the
 * extension). On failure an existing file at path is left untouched. */
int anim_gltf_write_file(const anim_doc *doc, const char *path, const char *generator,
                         anim_gltf_write_summary *summary, anim_error *err);

#ifdef __cplusplus
}
#endif
#endif
