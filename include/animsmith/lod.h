/* LODs of skinned meshes certified by the skinning-envelope residual
 * (meshq.h, docs/mesh-quality.md "LODs").
 *
 * For each skinned mesh the index buffers of its triangle primitives are
 * simplified with meshoptimizer to a fraction of their index count (one
 * fraction for the whole mesh: the residual is one row per mesh, so a
 * per-primitive search would have no per-primitive value to steer by),
 * the vertices no triangle uses any more are dropped, and each kept
 * vertex's influences are cut to the four largest and renormalized. The
 * search bisects the fraction for the smallest triangle count whose
 * residual under the envelope the source's clips reach
 * (envelope_from_clips) stays within the bound, measuring every step on
 * the candidate as written; the result is re-measured on the bytes that
 * are handed back, so the certificate is of those bytes.
 *
 * UV seams. Debian's meshoptimizer 0.18 has meshopt_simplify (with
 * meshopt_SimplifyLockBorder) but neither meshopt_simplifyWithAttributes
 * nor a per-vertex lock. Given the whole index buffer it already keeps a
 * seam closed: vertices at one position with different attributes only
 * collapse together, along the seam. It still shortens the seam, and then
 * UV island outlines move and source samples near them fall outside the
 * candidate's UVs (uncarried, outside the value). ANIM_LOD_SEAMS_LOCK
 * (the default) therefore hands the simplifier each such vertex at a
 * position a few float ulps apart from its twins, which turns every seam
 * into a topological border that LockBorder keeps; the written positions
 * are the stored ones. Afterwards every seam vertex is checked to be
 * kept. ANIM_LOD_SEAMS_MESHOPT leaves the seams to meshoptimizer. */
#ifndef ANIMSMITH_LOD_H
#define ANIMSMITH_LOD_H

#include <stdbool.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/gltf.h"
#include "animsmith/gltf_write.h"
#include "animsmith/meshq.h"
#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ANIM_LOD_SCHEMA "animsmith-lod/1"
/* Bisection steps after the full mesh is measured: 12 halvings resolve
 * the fraction to 1/4096, finer than one triangle in a thousand. */
#define ANIM_LOD_DEFAULT_STEPS 12u

typedef enum {
    ANIM_LOD_SEAMS_LOCK = 0, /* seam and border vertices kept */
    ANIM_LOD_SEAMS_MESHOPT   /* meshoptimizer's own seam handling */
} anim_lod_seams;

typedef struct anim_lod_options {
    const char *mesh;          /* as inspect prints it, NULL: every skinned mesh */
    bool has_max_residual;     /* required for the search */
    double max_residual;       /* metres, inclusive */
    bool has_ratio;            /* plain simplification at ratio, no search */
    double ratio;              /* (0, 1] of each primitive's index count */
    uint32_t steps;            /* bisection steps, 0: ANIM_LOD_DEFAULT_STEPS */
    anim_lod_seams seams;
    const char *source_path;   /* messages and the residual's source id */
    const char *generator;     /* asset.generator, NULL: the default */
} anim_lod_options;

typedef struct anim_lod_mesh {
    uint32_t mesh;
    const char *name;
    uint64_t source_triangles, triangles;
    uint64_t source_vertices, vertices;
    double ratio;              /* the fraction chosen (1: the full mesh) */
    uint32_t steps;            /* residuals measured for this mesh */
    uint32_t seam_vertices;    /* source vertices sharing a position with another */
    uint32_t seam_vertices_dropped;
    /* Every skinned mesh mode only: a mesh the residual cannot read (no
     * TEXCOORD_0, say) is written as stored, and this says why. */
    const char *kept_as_stored;
    /* The certificate: the reading on the handed-back bytes. */
    anim_mq_reading reading;
} anim_lod_mesh;

typedef struct anim_lod_result {
    anim_lod_mesh *meshes;
    uint32_t mesh_count;
    const char **clips;        /* the source's clips the envelope came from */
    uint32_t clip_count;
    bool certified;            /* every mesh measured and within the bound */
    const char *failure;       /* why not, when !certified (arena text) */
    anim_strbuf bytes;         /* the GLB, when certified (or --ratio) */
} anim_lod_result;

/* Builds the LOD of source. -1 with err for an operator error (unknown
 * mesh, no skinned mesh, bad options); 0 otherwise, with result->certified
 * false and result->failure set when a residual is refused or not
 * measurable or the bound is missed (nothing to write). The caller frees
 * result->bytes. */
int anim_lod_build(const anim_asset *source, const anim_lod_options *options, anim_arena *arena,
                   anim_lod_result *result, anim_error *err);

/* The text or animsmith-lod/1 JSON report of a result; out_path and
 * out_bytes describe the file written (NULL: none). */
void anim_lod_report(const anim_lod_options *options, const anim_lod_result *result,
                     const char *out_path, bool json, anim_strbuf *out);

#ifdef __cplusplus
}
#endif
#endif
