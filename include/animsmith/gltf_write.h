/* glTF 2.0 writer for whole documents.
 *
 * Writes one node per bone (node index = bone index) with its rest TRS,
 * one animation per clip that has a writable track (TRS tracks, then morph
 * weight tracks; every interpolation, cubic tangents as held), and, for a
 * loaded asset, everything else the file held: meshes with every
 * attribute, morph target and index accessor, skins, materials, textures,
 * samplers, images, cameras, extras and extensions. All binary data goes
 * into one buffer: animation data first, then mesh, skin and image data,
 * each accessor in a buffer view of its own, copied as stored (never
 * decoded and re-encoded). GLB embeds images in its BIN chunk; a .gltf
 * carries one base64 data-URI buffer and keeps image files beside it.
 *
 * Object keys are sorted byte-wise at every level and every f32 is printed
 * widened to f64 with shortest round-trip digits, so output is
 * deterministic and the example assets it writes equal reference files
 * byte for byte (apart from the generator string). Extensions whose data
 * could refer to renumbered nodes, accessors or buffer views (Draco,
 * meshopt, GPU instancing, animation pointers, unknown ones) are refused
 * with ANIM_ERR_UNSUPPORTED. */
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
    uint64_t positions;      /* sum of POSITION counts over all primitives */
    uint32_t materials;
    uint32_t dropped_clips;  /* clips without a writable track */
} anim_gltf_write_summary;

/* GLB when the path's extension is "glb" (any case), else .gltf JSON. */
anim_gltf_format anim_gltf_format_for_path(const char *path);

/* "animsmith <version of this build>", the default asset.generator. */
const char *anim_gltf_default_generator(void);

/* Serializes a document built in memory (bones and clips only; one with
 * meshes, skins, materials, textures or images is refused: write it from
 * its asset) into out (appended). generator NULL = default. summary may
 * be NULL. Returns 0, or -1 with err set and out unspecified. */
int anim_gltf_write_mem(const anim_doc *doc, anim_gltf_format format, const char *generator,
                        anim_strbuf *out, anim_gltf_write_summary *summary, anim_error *err);

/* Serializes doc and writes it atomically to path (format from the
 * extension). On failure an existing file at path is left untouched. */
int anim_gltf_write_file(const anim_doc *doc, const char *path, const char *generator,
                         anim_gltf_write_summary *summary, anim_error *err);

/* The whole loaded asset, with doc's bones and clips (NULL: the asset's
 * own; an edited copy of asset->doc must keep its bones). Everything else
 * comes from the asset's source. */
struct anim_asset;
int anim_gltf_write_asset_mem(const struct anim_asset *asset, const anim_doc *doc,
                              anim_gltf_format format, const char *generator, anim_strbuf *out,
                              anim_gltf_write_summary *summary, anim_error *err);

/* anim_gltf_write_asset_mem to path, atomically; for a .gltf also the
 * image files it names, beside it (an existing different file there is
 * refused before anything is written). */
int anim_gltf_write_asset_file(const struct anim_asset *asset, const anim_doc *doc,
                               const char *path, const char *generator,
                               anim_gltf_write_summary *summary, anim_error *err);

/* ---- mesh overrides: writing reduced primitives ---------------------- */

/* One vertex attribute written from the caller's array instead of being
 * gathered from the stored accessor (or beside the stored ones when the
 * primitive has no attribute of that name). data NULL drops the stored
 * attribute of that name (e.g. JOINTS_1 / WEIGHTS_1 once the influences
 * were cut to four). component_type is ANIM_GLTF_FLOAT, _UNSIGNED_SHORT or
 * _UNSIGNED_BYTE; data holds vertex_count * components components in host
 * order (float, uint16_t or uint8_t). */
typedef struct anim_gltf_attribute_data {
    const char *name;          /* "JOINTS_0", "WEIGHTS_0", ... */
    uint32_t component_type;
    uint32_t components;       /* 1..4 */
    bool normalized;
    const void *data;
} anim_gltf_attribute_data;

/* One primitive written with new vertices and indices. Written vertex i
 * copies stored vertex vertex_source[i] of every stored attribute and
 * every morph target (element bytes as stored, sparse data applied, the
 * result written dense), except the attributes listed in attributes.
 * Gathered accessors get min/max recomputed when the stored one had them
 * or the attribute is POSITION (glTF requires them there). The indices are
 * written as UNSIGNED_SHORT when every written vertex fits, else
 * UNSIGNED_INT. Stored accessors no other primitive uses are dropped. */
typedef struct anim_gltf_prim_override {
    uint32_t mesh, primitive;
    uint32_t vertex_count;
    const uint32_t *vertex_source;   /* vertex_count stored-vertex indices */
    const uint32_t *indices;         /* index_count, into written vertices */
    uint32_t index_count;
    const anim_gltf_attribute_data *attributes;
    uint32_t attribute_count;
} anim_gltf_prim_override;

/* anim_gltf_write_asset_mem / _file with the listed primitives written
 * from the overrides (at most one per mesh and primitive; an override of a
 * primitive the source does not hold, a vertex_source entry past the
 * stored vertices or an index past vertex_count is ANIM_ERR_INVALID). */
int anim_gltf_write_asset_mem_with(const struct anim_asset *asset, const anim_doc *doc,
                                   anim_gltf_format format, const char *generator,
                                   const anim_gltf_prim_override *overrides,
                                   uint32_t override_count, anim_strbuf *out,
                                   anim_gltf_write_summary *summary, anim_error *err);
int anim_gltf_write_asset_file_with(const struct anim_asset *asset, const anim_doc *doc,
                                    const char *path, const char *generator,
                                    const anim_gltf_prim_override *overrides,
                                    uint32_t override_count, anim_gltf_write_summary *summary,
                                    anim_error *err);

#ifdef __cplusplus
}
#endif
#endif
