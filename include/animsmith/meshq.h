/* Mesh quality: the skinning-envelope residual of a reduced (LOD) skinned
 * mesh against the mesh it was reduced from, and the helper that turns
 * declared bone-motion ranges into an envelope entry.
 *
 * The quantity. A UV sample is carried by one triangle of each mesh at
 * barycentric b. In each mesh, per bone k, the carried point has the
 * interpolated share w_k = sum_i b_i w_ik, the bind position
 * p = sum_i b_i x_i and the weighted position moment
 * s_k = sum_i b_i w_ik (x_i - p). For any motion under which bone k's
 * deformation differs from the reference bone's by a linear part of
 * spectral norm at most eps_k and a lever |(D_k - D_0) q| <= eps_k |q - c_k|
 * + tau_k, the candidate draws the sample within
 *
 *   sum_k eps_k |ds_k| + sum_k |dw_k| (eps_k |p - c_k| + tau_k)
 *
 * of where the source draws it (p the source's position), provided each
 * vertex's shares sum to 1 and both meshes place the sample at the same
 * bind position. The value is the largest over the samples both meshes
 * carry; what the position contract lets through is reported beside it
 * (sample_gap), never folded in.
 *
 * One core serves two inputs: the flat (2-D, drawing pixels, y down) JSON
 * form of a mesh-quality request, and a skinned glTF mesh beside a reduced
 * version of it (3-D, metres in bind space). Pure: no clock, no
 * randomness; every loop runs in index order. */
#ifndef ANIMSMITH_MESHQ_H
#define ANIMSMITH_MESHQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ANIM_MQ_NONE 0xffffffffu

/* The report's schema and the one row this module writes. */
#define ANIM_MQ_SCHEMA "mesh-quality-report/1"
#define ANIM_MQ_ROW_ID "MQ_SKINNING_RESIDUAL"

/* Half a step of the 6-decimal weight grid: a vertex whose shares miss 1 by
 * more is refused (SKINNING_WEIGHT_SUM). */
#define ANIM_MQ_WEIGHT_SUM_SLACK 5e-7
/* One 6-decimal half-step, of a point or of a UV. */
#define ANIM_MQ_R6_HALF_STEP 5e-7

/* The fixed sentence every measured row carries. */
extern const char ANIM_MQ_READING[];

/* Faults planted on purpose, for the negative-control tests only: each
 * reproduces one way the measurement could go wrong, and a test proves the
 * real code answers differently. The CLI plants none. */
typedef enum {
    ANIM_MQ_PLANT_NONE = 0,
    ANIM_MQ_PLANT_DROP_COVARIANCE,        /* the first sum left out */
    ANIM_MQ_PLANT_DROP_LEVER,             /* the second sum left out */
    ANIM_MQ_PLANT_UNCARRIED_READ_AS_ZERO, /* no common sample read as 0 */
    ANIM_MQ_PLANT_UNDECLARED_BONE_IGNORED,
    ANIM_MQ_PLANT_UNKNOWN_BONE_ACCEPTED,
    ANIM_MQ_PLANT_SETUP_UNCHECKED,
    ANIM_MQ_PLANT_DEFORM_UNCHECKED,
    ANIM_MQ_PLANT_ECHO_WHEN_UNSET,        /* echo written without skinning */
    ANIM_MQ_PLANT_ROW_WHEN_UNSET          /* row written without skinning */
} anim_mq_plant;

typedef enum {
    ANIM_MQ_ENVELOPE_PLANT_NONE = 0,
    ANIM_MQ_ENVELOPE_PLANT_SCALE_IGNORED,
    ANIM_MQ_ENVELOPE_PLANT_TRANSLATION_IGNORED
} anim_mq_envelope_plant;

/* One vertex's binding to one bone (an index into the caller's bone-name
 * table, shared by both meshes of a measurement). */
typedef struct anim_mq_bind {
    uint32_t bone;
    double weight;
} anim_mq_bind;

/* A mesh as the residual reads it. dim is 2 (drawing px) or 3 (metres).
 * Triangles may carry a group (a glTF primitive): a sample is carried only
 * by triangles of its own group. bind_start == NULL: unweighted. */
typedef struct anim_mq_mesh {
    uint32_t dim;
    uint32_t vertex_count;
    const double *points;       /* dim * vertex_count */
    const double *uvs;          /* 2 * vertex_count */
    uint32_t triangle_count;
    const uint32_t *triangles;  /* 3 * triangle_count */
    const uint32_t *groups;     /* triangle_count, or NULL: one group */
    uint32_t hull;              /* vertices 0..hull-1 are samples */
    const uint32_t *bind_start; /* vertex_count + 1 offsets, or NULL */
    const anim_mq_bind *binds;
} anim_mq_mesh;

/* One envelope entry: the bound on how bone's deformation differs from the
 * reference's (dimensionless linear, pivot and translation in the mesh's
 * units). */
typedef struct anim_mq_envelope_bone {
    uint32_t bone;              /* name index */
    double linear;
    double pivot[3];            /* dim components used */
    double translation;
} anim_mq_envelope_bone;

typedef struct anim_mq_envelope {
    uint32_t reference;         /* name index */
    const anim_mq_envelope_bone *bones;
    uint32_t bone_count;
} anim_mq_envelope;

/* One sample: its UV, and the art pixel (x, y; -1 when not a pixel), the
 * source vertex (ANIM_MQ_NONE when not a vertex) and the triangle group it
 * belongs to (0 without groups). */
typedef struct anim_mq_sample {
    double uv[2];
    int32_t pixel[2];
    uint32_t vertex;
    uint32_t group;
} anim_mq_sample;

/* Where a sample lies in one mesh: triangle (ANIM_MQ_NONE: uncarried) and
 * barycentric weights of its three corners. */
typedef struct anim_mq_carrier {
    uint32_t triangle;
    double bary[3];
} anim_mq_carrier;

/* A spatial index over a mesh's UV triangles (a uniform grid). */
typedef struct anim_mq_uv_index anim_mq_uv_index;

/* Builds the index in the arena. Refuses (ANIM_ERR_LIMIT) when the grid or
 * cell lists would exceed max_bytes. */
anim_mq_uv_index *anim_mq_uv_index_build(const anim_mq_mesh *mesh, anim_arena *arena,
                                         size_t max_bytes, anim_error *err);

/* The flat rule: the triangle of the sample's group containing uv (edges
 * included); on a shared edge or corner the lowest triangle index. Returns
 * 0 (carrier->triangle ANIM_MQ_NONE when no triangle holds uv), or 1 when
 * uv lies inside one triangle and in another too (overlapping UV
 * triangles: the carrier is not unique), with *other set to the second. */
int anim_mq_carrier_flat(const anim_mq_uv_index *index, const double uv[2], uint32_t group,
                         anim_mq_carrier *carrier, uint32_t *other);

/* The surface rule (mirrored or overlapping UV islands are normal on a
 * 3-D mesh): among the group's triangles containing uv, the one whose
 * carried point is nearest near[] (dim components); ties to the lowest
 * triangle index. carrier->triangle is ANIM_MQ_NONE when none holds uv. */
void anim_mq_carrier_nearest(const anim_mq_uv_index *index, const double uv[2], uint32_t group,
                             const double *near, anim_mq_carrier *carrier);

typedef enum {
    ANIM_MQ_MEASURED,
    ANIM_MQ_REFUSED,
    ANIM_MQ_NOT_MEASURABLE
} anim_mq_state;

/* Worst samples kept for a report to mark, largest first. */
#define ANIM_MQ_WORST_KEPT 16

typedef struct anim_mq_worst_mark {
    uint32_t sample;
    double value;
    double position[3];         /* the source's bind position p */
} anim_mq_worst_mark;

/* The residual's reading. Arrays live in the arena of the measurement. */
typedef struct anim_mq_reading {
    anim_mq_state state;
    const char *code;           /* refusal code, NULL when measured */
    const char *reason;         /* "CODE: ..." or the not-measurable text */
    uint64_t samples;           /* all samples */
    uint64_t art;               /* art (texel) samples among them */
    /* measured only: */
    double value;               /* r6 of the largest sum */
    uint32_t worst_sample;      /* ANIM_MQ_NONE when value is 0 */
    double worst_covariance, worst_lever;
    double *bone_covariance;    /* envelope order, bone_count entries */
    double *bone_lever;
    uint64_t measured;
    uint32_t *uncarried_source; /* sample indices */
    uint64_t uncarried_source_count;
    uint32_t *uncarried_candidate;
    uint64_t uncarried_candidate_count;
    double l1, linf;
    double vertex_gap;
    double vertex_slack[2];
    double sample_gap;
    double weight_sum_gap;
    anim_mq_worst_mark marks[ANIM_MQ_WORST_KEPT];
    uint32_t mark_count;
} anim_mq_reading;

/* What a measurement needs beyond the meshes. */
typedef struct anim_mq_context {
    const char *who;            /* "attachment default/arm/arm", "mesh 'Body'" */
    const char *source_id;
    const char *const *bone_names;
    uint32_t bone_name_count;
    const anim_mq_envelope *envelope;
    /* Flat only: the frame the setup check carries UVs through (width,
     * height > 0). 0 x 0 skips the setup check (a 3-D mesh has no frame). */
    double frame[2];
    /* A deform that moves vertices outside skinning: NULL when none, else
     * the sentence naming it (the caller found it). */
    const char *deform_refusal;
    uint64_t min_art_samples;   /* flat: the floor; 0 for 3-D */
    double art_threshold;       /* flat: as the floor's message names it */
} anim_mq_context;

/* Runs the checks in the order a fix has to happen in (deform, which bones
 * bind, shares, setup positions, samples) and then the sums. Carriers of
 * the source come from source_carriers when non-NULL (a 3-D sample knows
 * its source triangle), else by the flat rule; the candidate's by the flat
 * rule when ctx->frame is set, else by the nearest rule around the
 * source's carried point. Returns 0 with out filled (state measured,
 * refused or not measurable), or -1 with err set (budget exceeded, out of
 * memory). */
int anim_mq_residual(const anim_mq_context *ctx, const anim_mq_mesh *source,
                     const anim_mq_mesh *candidate, const anim_mq_sample *samples,
                     uint64_t sample_count, const anim_mq_carrier *source_carriers,
                     anim_mq_plant plant, anim_arena *arena, size_t max_bytes,
                     anim_mq_reading *out, anim_error *err);

/* 6-decimal rounding, halves up (the JS Math.round rule). */
double anim_mq_r6(double v);

/* Room for "sha256:" and 64 hex digits. */
#define ANIM_MQ_DIGEST_MAX 72

/* "sha256:<hex>" of the mesh written as compact JSON in a fixed key order:
 * {"points":[[x,y(,z)],...],"uvs":[...],"triangles":[...],"hull":n,
 * "weights":null | [[{"bone":name,"weight":w},...],...]}, numbers in their
 * shortest round-trip (JavaScript) form, so one mesh has one digest
 * whatever order its file wrote its keys in. Returns 0, or -1 (out of
 * memory) with err set. */
int anim_mq_mesh_digest(const anim_mq_mesh *mesh, const char *const *bone_names,
                        char out[ANIM_MQ_DIGEST_MAX], anim_error *err);

/* ---- the envelope helper ---------------------------------------------- */

/* One bone's motion over the clips (relative to its rest/setup values). */
typedef struct anim_mq_bone_range {
    const char *bone;
    double pivot[3];            /* the rest/setup joint */
    double rotate_max;          /* largest |rotation| reached, radians */
    double scale_min[3], scale_max[3]; /* per axis (2 used in 2-D) */
    double translate;           /* largest joint translation, >= 0 */
} anim_mq_bone_range;

/* linear = S (prod_j (1 + e_j) - 1), e_j = 2 sin(theta_j / 2) +
 * max |sigma_j - 1|, S = prod over the reference chain of max sigma;
 * pivot = the last chain bone's joint; translation = S delta_1 with
 * delta_m = translate_m, delta_j = e_j |c - c_j| + (1 + e_j) delta_{j+1} +
 * translate_j. dim: 2 or 3 (axes read). */
void anim_mq_envelope_bone_of(const anim_mq_bone_range *reference_chain, uint32_t reference_count,
                              const anim_mq_bone_range *chain, uint32_t chain_count, uint32_t dim,
                              anim_mq_envelope_plant plant, double *linear, double pivot[3],
                              double *translation);

/* ---- the flat (2-D) JSON request -------------------------------------- */

/* The outcome of a request, for the exit code. */
typedef struct anim_mq_outcome {
    uint32_t rows;
    uint32_t passed;            /* measured within the bound */
    uint32_t failed;            /* measured over the bound */
    uint32_t undeclared;        /* measured, no bound declared */
    uint32_t refused;
    uint32_t not_measurable;
} anim_mq_outcome;

/* `mesh-quality residual INPUT.json`: parses and validates the request
 * (malformed: -1 with err naming the file and the path, code
 * REDUCE_INPUT_MISSING in the message), measures, and appends the
 * mesh-quality-report/1 document (json) or its text form. */
int anim_mq_flat_residual(const char *text, size_t len, const char *path, bool json,
                          anim_mq_plant plant, anim_strbuf *out, anim_mq_outcome *outcome,
                          anim_error *err);

/* `mesh-quality envelope RANGES.json`: one envelope entry per request
 * ({ referenceChain, chain } or a list of them), as JSON or text. Refusals
 * (SKINNING_RANGE_UNSUPPORTED, REDUCE_INPUT_MISSING) are -1 with err. */
int anim_mq_flat_envelope(const char *text, size_t len, const char *path, bool json,
                          anim_mq_envelope_plant plant, anim_strbuf *out, anim_error *err);

/* ---- glTF (3-D) -------------------------------------------------------- */

struct anim_asset;

typedef struct anim_mq_gltf_options {
    const char *mesh;           /* a mesh name as inspect prints it, or NULL: every skinned mesh */
    const char *envelope_path;  /* TOML envelope, or NULL */
    bool envelope_from_clips;   /* derive the envelope from the source's clips */
    bool has_max_residual;
    double max_residual;        /* metres */
    uint32_t uv_grid;           /* texel grid N x N when no base-colour texture, 0: texture or vertices only */
    const char *source_path;    /* for messages and the source id */
    const char *candidate_path;
    uint64_t max_samples;       /* budget; 0: the default */
} anim_mq_gltf_options;

/* One row per measured mesh. */
typedef struct anim_mq_gltf_row {
    uint32_t mesh;              /* source mesh index */
    const char *mesh_name;      /* as inspect prints it */
    const char *reference;      /* reference bone name */
    const char *source_digest;  /* "sha256:..." */
    uint64_t source_triangles, candidate_triangles;
    anim_mq_reading reading;
    const anim_mq_mesh *source_mesh; /* for the report's marks */
    /* What the report echoes and names (added by the glTF side; NULL /
     * 0 when the row was refused before they existed): */
    const char *const *bone_names;   /* the name table of the binds */
    uint32_t bone_name_count;
    const anim_mq_envelope *envelope; /* as used, NULL when none */
    const anim_mq_sample *samples;   /* reading.samples entries */
    const anim_mq_carrier *source_carriers; /* each sample's source triangle, as measured */
} anim_mq_gltf_row;

typedef struct anim_mq_gltf_result {
    anim_mq_gltf_row *rows;
    uint32_t row_count;
} anim_mq_gltf_result;

/* Measures candidate against source as options say. -1 with err for an
 * operator error (malformed envelope, unknown mesh, mismatched meshes). */
int anim_mq_gltf_residual(const struct anim_asset *source, const struct anim_asset *candidate,
                          const anim_mq_gltf_options *options, anim_arena *arena,
                          anim_mq_gltf_result *result, anim_error *err);

/* The mesh-quality-report/1 document of a glTF measurement. */
void anim_mq_gltf_report(const anim_mq_gltf_options *options, const anim_mq_gltf_result *result,
                         bool json, anim_strbuf *out, anim_mq_outcome *outcome);

#ifdef __cplusplus
}
#endif
#endif
