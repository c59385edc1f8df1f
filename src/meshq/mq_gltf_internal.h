/* What the glTF side of mesh quality shares between its files: an
 * envelope in bone names (as a TOML file or the clips give it), before it
 * is mapped onto a measurement's name table. */
#ifndef ANIMSMITH_MQ_GLTF_INTERNAL_H
#define ANIMSMITH_MQ_GLTF_INTERNAL_H

#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/gltf.h"
#include "animsmith/json_write.h"
#include "animsmith/meshq.h"
#include "meshq/mq_gltf_mesh.h"

typedef struct mq_named_bone {
    const char *bone;
    double linear;
    double pivot[3];
    double translation;
} mq_named_bone;

typedef struct mq_named_envelope {
    const char *reference;
    mq_named_bone *bones;
    uint32_t bone_count;
} mq_named_envelope;

/* Reads ENVELOPE.toml: `reference = "name"` and [[bone]] tables with
 * bone, linear, pivot = [x, y, z] and translation, every one required and
 * nothing else. -1 with err (ANIM_ERR_PARSE / INVALID naming the file, the
 * table index and the key) when malformed. */
int mq_gltf_envelope_read(const char *path, anim_arena *arena, mq_named_envelope *out,
                          anim_error *err);

/* The envelope the source's clips declare for mesh (built with its
 * reference joint): one entry per joint the mesh binds other than the
 * reference, in joint order. Returns 0 with out filled, 1 with *refusal
 * set (a "SKINNING_RANGE_UNSUPPORTED: ..." sentence, the row is refused),
 * -1 with err. who names the mesh in sentences. */
int mq_gltf_envelope_from_clips(const anim_asset *asset, const mq_gltf_mesh *mesh,
                                const char *who, anim_arena *arena, mq_named_envelope *out,
                                const char **refusal, anim_error *err);

/* The samples default budget: about 130 MB of samples and carriers. */
#define MQ_GLTF_DEFAULT_MAX_SAMPLES ((uint64_t)1 << 21)

/* Width and height from a PNG (IHDR) or baseline/progressive JPEG (SOFn)
 * header, reading only the bytes it needs; false for anything else. */
bool mq_image_size(const uint8_t *bytes, size_t len, uint32_t *width, uint32_t *height);

/* The residual's samples over the source mesh, with the source triangle
 * that carries each: per triangle in triangle order, the texel centres
 * ((x + 0.5) / W, (y + 0.5) / H) of its primitive's base-colour texture
 * (or the uv_grid x uv_grid grid when uv_grid > 0) inside its UV triangle,
 * edges included, row by row; then every vertex's UV, carried by the
 * first triangle of its group with it as a corner. Counted first and
 * refused (ANIM_ERR_LIMIT) over max_samples before anything is
 * allocated. */
int mq_gltf_samples_build(const anim_asset *asset, const mq_gltf_mesh *mesh, uint32_t uv_grid,
                          uint64_t max_samples, const char *what, anim_arena *arena,
                          anim_mq_sample **samples, anim_mq_carrier **carriers, uint64_t *count,
                          uint64_t *art, anim_error *err);

#endif
