/* Track evaluation, poses, forward kinematics and the metric grid, all
 * in f64.
 *
 * The authored binary32 times and values are widened to double when read
 * and everything is computed in double (libm acos/sin). The algorithms:
 * segment search and clamping, shortest-path slerp with the raw-dot
 * negation, STEP, CUBICSPLINE Hermite with dt-scaled tangents, tolerant
 * value fetches, rest fallback, T·R·S local matrices, and model rotations
 * composed separately from scale. Results may differ from an f32
 * evaluation of the same algorithms in the last digits only. */
#ifndef ANIMSMITH_SAMPLE_H
#define ANIMSMITH_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/doc.h"
#include "animsmith/error.h"
#include "animsmith/math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A local transform: translation, rotation (x, y, z, w), scale. */
typedef struct anim_trs {
    anim_vec3 t;
    anim_quat r;
    anim_vec3 s;
} anim_trs;

anim_trs anim_trs_identity(void);
anim_trs anim_trs_from_rest(const anim_bone *bone);

/* ---- one track ---- */

/* The keyframe segment containing t: clamp to key 0 when the
 * track has <= 1 key or t <= T[0]; clamp to the last key when t >= T[n-1];
 * else k1 = first index with time > t (binary search), k0 = k1 - 1 and
 * u = (t - T[k0]) / (T[k1] - T[k0]), or 0 when that span is <= 0.
 * Clamped segments have k0 == k1 and u == 0. NaN t or NaN key times fall
 * through to a clamp and never crash. A track with no keys gives (0, 0, 0). */
typedef struct anim_segment {
    uint32_t k0, k1;
    double u;
} anim_segment;

anim_segment anim_track_segment(const anim_track *track, double t);

/* Segment search for a run of non-decreasing sample times (the grid's):
 * remembers where the previous search ended so a pass over F frames costs
 * O(keys + F) instead of O(F log keys). Results are identical to
 * anim_track_segment for every t; tracks whose times are not finite and
 * non-decreasing, NaN t, and times that go backwards fall back to (or
 * restart) the plain search. Initialize with anim_track_cursor_init. */
typedef struct anim_track_cursor {
    uint32_t next;  /* candidate k1 from the previous search */
    bool ordered;   /* times finite and non-decreasing: cursor usable */
} anim_track_cursor;

void anim_track_cursor_init(anim_track_cursor *cursor, const anim_track *track);
anim_segment anim_track_segment_cursor(const anim_track *track, double t, anim_track_cursor *cursor);

/* How a track's values are stored, decided by its element width:
 * 3 → vec3 storage, 4 → quaternion storage, anything else → not a pose
 * track (never applied). */
typedef enum {
    ANIM_STORAGE_NONE = 0,
    ANIM_STORAGE_VEC3,
    ANIM_STORAGE_QUAT
} anim_storage;

anim_storage anim_track_storage(const anim_track *track);

/* Value of a vec3 track at t (STEP / LINEAR / CUBICSPLINE). Missing value
 * elements read as zero. A non-vec3 track gives zero. */
anim_vec3 anim_track_sample_vec3(const anim_track *track, double t);

/* Value of a rotation track at t, normalized (clamped / STEP: the key
 * normalized; LINEAR: shortest-path slerp; CUBICSPLINE: Hermite on the raw
 * stored components, then normalized). Missing elements read as identity.
 * A non-quaternion track gives identity. A zero stored quaternion gives
 * NaN components (callers check finiteness). */
anim_quat anim_track_sample_quat(const anim_track *track, double t);

/* Value of a morph-weight track at t: every one of its components (one
 * per morph target, any count) interpolated alike, so a 3- or 4-target
 * track is never read as a position or a rotation. STEP / LINEAR /
 * CUBICSPLINE Hermite with dt-scaled tangents, the formulas of
 * anim_track_sample_vec3, computed in double and rounded to binary32 into
 * out (track->components floats). Missing value elements read as zero. */
void anim_track_sample_weights(const anim_track *track, double t, float *out);

/* Overwrite of one bone's local transform: a vec3 track writes
 * translation (path translation) or scale (path scale) and nothing for any
 * other path; a quaternion track always writes rotation. Returns whether a
 * component was written (false for tracks with no keys or no storage). */
bool anim_track_sample_into(const anim_track *track, double t, anim_trs *trs);

/* anim_track_sample_into for an already located segment (seg from
 * anim_track_segment or anim_track_segment_cursor on the same track). */
bool anim_track_sample_segment_into(const anim_track *track, anim_segment seg, anim_trs *trs);

/* ---- poses and FK ---- */

/* local[b] = rest TRS of bone b, for every bone. */
void anim_pose_rest(const anim_doc *doc, anim_trs *local);

/* The pose at t: rest pose, then every TRS track of the clip with >= 1 key and
 * an in-range bone overwrites its bone's component, in clip order. Morph
 * tracks never touch the pose. local has doc->bone_count entries. */
void anim_pose_sample(const anim_doc *doc, const anim_clip *clip, double t, anim_trs *local);

/* Forward kinematics: model[b] = model[parent] · (T·R·S), model_rot[b] =
 * model_rot[parent] ⊗ local_rot (roots: the local values). A parent index
 * that is out of range or not lower than the bone's own index is treated
 * as no parent. model and/or model_rot may be NULL to skip them. */
void anim_pose_fk(const anim_doc *doc, const anim_trs *local, anim_mat4 *model, anim_quat *model_rot);

/* ---- pose grids and the metric grid ---- */

/* Sampled local and model-space poses of one clip, frame-major: the entry
 * for (frame f, bone b) is at index f * bone_count + b. One heap block,
 * released by anim_metric_grid_free; not part of any document arena. */
typedef struct anim_metric_grid {
    uint32_t frame_count;
    uint32_t bone_count;
    double *times;          /* frame_count sample times */
    anim_trs *local;        /* local TRS */
    anim_vec3 *model_pos;   /* translation column of the model matrix */
    anim_quat *model_rot;   /* model rotation, composed without scale */
    void *block_;           /* owning allocation (private) */
    size_t block_bytes_;    /* its size (private) */
    void *lazy_;            /* fill state of a prepared grid; NULL once complete (private) */
} anim_metric_grid;

/* The block of a released grid, kept for the next one. A long clip's grid
 * is tens of MB: allocated afresh for every clip, each of its pages is a
 * page fault and a zeroed page from the kernel, which cost more than
 * filling it; the kept block is reused with its pages already in place.
 * Zero-initialise; holds at most one block (the largest seen). */
typedef struct anim_grid_memory {
    void *block;
    size_t bytes;
} anim_grid_memory;

/* The bytes a grid of frames x bones takes. Grids larger than the
 * document's metric-grid budget (doc->limits, docs/limits.md) are refused
 * with a LIMIT error before anything is allocated: sizes come from files,
 * and a lazily committed huge allocation would fail only later, at first
 * touch. false when the size overflows. */
bool anim_metric_grid_bytes(uint32_t frames, uint32_t bones, size_t *bytes);

/* Refuses (LIMIT error naming the clip and the budget) a clip whose
 * metric grid would exceed doc->limits; 0 when it fits or has no grid. */
int anim_metric_grid_check_budget(const anim_doc *doc, const anim_clip *clip, anim_error *err);

/* The metric grid's default frame count N: the largest key_count over all of the
 * clip's TRS tracks (valid or not), at least 2. */
uint32_t anim_clip_default_frame_count(const anim_clip *clip);

/* Whether the clip has a metric grid: duration_s > 0 (finite) and N >= 3.
 * (A NaN or infinite duration, unreachable from the loader, has none.) */
bool anim_clip_has_metric_grid(const anim_clip *clip);

/* The clip's metric grid: N frames at t_i = (d·i)/(N−1) in double, both
 * endpoints included (t_0 = 0, t_{N−1} = d). Returns 1 when built, 0 when
 * the clip has no metric grid (grid zeroed; not an error), -1 on error
 * (size limit, out of memory, bad argument; grid zeroed). */
int anim_metric_grid_build(const anim_doc *doc, const anim_clip *clip, anim_metric_grid *grid,
                           anim_error *err);

/* anim_metric_grid_build without the fill: the same grid (same return
 * values, same budget refusal), whose entries are computed only when a
 * reader asks for them with anim_metric_grid_need_frames or
 * anim_metric_grid_need_bones, each exactly as the full fill computes it.
 * times is set; local, model_pos and model_rot hold an entry only once it
 * was asked for. doc and clip must outlive the grid. The asks write into
 * the grid through a const pointer, so one prepared grid must not be read
 * by two threads at once (give each thread its own grid). */
int anim_metric_grid_prepare(const anim_doc *doc, const anim_clip *clip, anim_metric_grid *grid,
                             anim_error *err);

/* anim_metric_grid_prepare taking its block from mem when the kept block
 * is large enough (mem may be NULL). */
int anim_metric_grid_prepare_reusing(const anim_doc *doc, const anim_clip *clip,
                                     anim_metric_grid *grid, anim_grid_memory *mem,
                                     anim_error *err);

/* Fills every bone of the given frames (out-of-range frames ignored).
 * Cannot fail: the state it needs was allocated by the builder. A no-op
 * on a complete grid. */
void anim_metric_grid_need_frames(const anim_metric_grid *grid, const uint32_t *frames, uint32_t count);

/* Fills every frame of the given bones (out-of-range bones ignored),
 * and of their ancestors on the way. A no-op on a complete grid. */
void anim_metric_grid_need_bones(const anim_metric_grid *grid, const uint32_t *bones, uint32_t count);

/* How many (frame, bone) entries have been computed: frame_count x
 * bone_count for a complete grid, what the readers asked for (with the
 * ancestors FK needed) for a prepared one, 0 for a zeroed grid. Each entry
 * is computed at most once. */
uint64_t anim_metric_grid_filled_entries(const anim_metric_grid *grid);

/* A uniform grid of frame_count (>= 2) frames over [0, clip duration] with
 * the same time formula, without the existence rule (for callers that
 * resample at another N). 0 ok, -1 error. */
int anim_metric_grid_uniform(const anim_doc *doc, const anim_clip *clip, uint32_t frame_count,
                             anim_metric_grid *grid, anim_error *err);

/* A grid sampled at caller-given times (any order; copied). count >= 1.
 * 0 ok, -1 error. */
int anim_metric_grid_at_times(const anim_doc *doc, const anim_clip *clip, const double *times,
                              uint32_t count, anim_metric_grid *grid, anim_error *err);

/* Frees the grid's block and zeroes it; safe on a zeroed grid. */
void anim_metric_grid_free(anim_metric_grid *grid);

/* Releases the grid like anim_metric_grid_free but keeps its block in mem
 * for the next grid (the larger of it and mem's block is kept). */
void anim_metric_grid_recycle(anim_metric_grid *grid, anim_grid_memory *mem);

/* Frees the kept block; safe on a zeroed mem. */
void anim_grid_memory_free(anim_grid_memory *mem);

/* Accessors (no bounds checks beyond the caller's frame/bone ranges). */
static inline size_t anim_metric_grid_index(const anim_metric_grid *grid, uint32_t frame, uint32_t bone)
{
    return (size_t)frame * grid->bone_count + bone;
}

#ifdef __cplusplus
}
#endif
#endif
