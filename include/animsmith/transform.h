/* Mechanical clip edits behind `animsmith transform`: slice, hold-extend,
 * duplicate-endpoint removal, resampling, gait anchoring, constant-track
 * pruning and key reduction.
 *
 * Every step edits one clip of a document in place. Before the first step
 * the caller detaches the clip (anim_clip_detach) so its times and values
 * live in arena memory the steps may replace; a step never writes through
 * the loaded file's bytes. Steps append their report lines (each ending in
 * "\n", two leading spaces) to msg and return 0; a refusal returns -1 with
 * err set and leaves the clip in an unspecified state, so the caller
 * writes nothing after a refusal.
 *
 * The fixed order of the command is: slice, hold-extend,
 * drop-duplicate-loop-endpoint, resample, gait-anchor, reduce-keys,
 * prune-constant-tracks. Resampling comes before the gait anchor so a
 * sparse cycle can be put on the anchor's grid in the same run; key
 * reduction before pruning, so a track it reduced to a constant pair of
 * keys is pruned in the same run. */
#ifndef ANIMSMITH_TRANSFORM_H
#define ANIMSMITH_TRANSFORM_H

#include <stdbool.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/config.h"
#include "animsmith/doc.h"
#include "animsmith/error.h"
#include "animsmith/rig.h"
#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Copies the clip's track arrays and every track's times and values (TRS
 * and morph weights) into arena memory; afterwards no pointer of the clip
 * refers to the loaded file. */
int anim_clip_detach(anim_arena *arena, anim_clip *clip, anim_error *err);

/* Recomputes max_keys (the largest key count over the TRS tracks) after
 * a step changed key counts. The duration is each step's to set: a slice
 * pins it to the window, which may end after the last key. */
void anim_clip_refresh_max_keys(anim_clip *clip);

/* --slice START:END at fps (the window's half-frame tolerance). Message:
 * "  sliced '{clip}' to [{start}:{end}]s ({maxkeys} keys max)". */
int anim_transform_slice(anim_arena *arena, anim_clip *clip, double start, double end,
                         double fps, anim_strbuf *msg, anim_error *err);

/* --hold-extend SECONDS. Message: "  hold-extended '{clip}' by {s}s". */
int anim_transform_hold_extend(anim_arena *arena, anim_clip *clip, double seconds,
                               anim_strbuf *msg, anim_error *err);

/* --drop-duplicate-loop-endpoint; declared_loop is the clip's effective
 * `loop = true`. Either drops the closing run or says why it skipped;
 * never refuses. */
int anim_transform_drop_endpoint(anim_arena *arena, anim_clip *clip, bool declared_loop,
                                 anim_strbuf *msg, anim_error *err);

/* --resample FPS: every track (TRS and morph) onto the uniform grid
 * k / fps over [0, duration] (plus the duration itself when it is not on
 * the grid), LINEAR output except STEP tracks, which stay STEP;
 * rotations keep the shortest path between neighbouring keys. */
int anim_transform_resample(anim_arena *arena, const anim_doc *doc, anim_clip *clip,
                            double fps, anim_strbuf *msg, anim_error *err);

/* --gait-anchor at fps, with the resolved rig. A refusal's err message is
 * the whole line after "animsmith: ", e.g. "clip \"walk\": cannot
 * gait-anchor clip \"walk\": ...". */
int anim_transform_gait_anchor(anim_arena *arena, const anim_doc *doc, anim_clip *clip,
                               const anim_rig_resolution *rig, double fps, anim_strbuf *msg,
                               anim_error *err);

/* --prune-constant-tracks; animates_bones is the clip's effective
 * animates_bones list (its bones are protected). */
int anim_transform_prune_constant(anim_arena *arena, const anim_doc *doc, anim_clip *clip,
                                  const anim_string_list *animates_bones, anim_strbuf *msg,
                                  anim_error *err);

/* What --reduce-keys did to one clip. */
typedef struct anim_reduce_result {
    uint64_t keys_before;     /* TRS keys (a cubic key counts once) */
    uint64_t keys_after;
    double max_error_m;       /* largest model-space bone position error
                                 measured on the result */
    uint32_t check_samples;   /* sample times the result was verified at */
} anim_reduce_result;

/* --reduce-keys MAX_ERROR_M: removes keys while the model-space position
 * of every bone stays within max_error_m of the original at every
 * original key time and on a grid at least four times denser than the
 * densest track, then verifies its own output by sampling it again.
 * result may be NULL. */
int anim_transform_reduce_keys(anim_arena *arena, const anim_doc *doc, anim_clip *clip,
                               double max_error_m, anim_reduce_result *result, anim_strbuf *msg,
                               anim_error *err);

#ifdef __cplusplus
}
#endif
#endif
