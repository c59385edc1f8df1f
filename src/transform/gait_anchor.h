/* Private to src/transform/gait_anchor*.c: the state one --gait-anchor run
 * carries between its stages (domain validation, the whole-frame grid,
 * the trajectory proof, the alignment) and the builders of its refusal
 * lines, which all share the same leading clauses. */
#ifndef ANIMSMITH_TRANSFORM_GAIT_ANCHOR_H
#define ANIMSMITH_TRANSFORM_GAIT_ANCHOR_H

#include <stdbool.h>
#include <stdint.h>

#include "animsmith/sample.h"
#include "animsmith/strbuf.h"
#include "animsmith/transform.h"

/* The alternative every trajectory refusal offers. */
#define GA_ALT                                                                                     \
    "retain source root motion, use runtime phase offsets, or use a separately designed "       \
    "trajectory-preserving operation"

/* Each work product (frames x bones, frames x tracks, keys x bones) is
 * capped at this many samples, inclusive. */
#define GA_WORK_BOUND 1000000.0

typedef struct ga_run {
    anim_arena *arena;
    const anim_doc *doc;
    anim_clip *clip;
    const anim_rig_resolution *rig;
    double fps;
    anim_error *err;
    uint32_t bone;          /* trajectory bone (Root, else Hips) */
    const char *label;      /* "Root" or "Hips fallback" */
    uint32_t frames;        /* K: whole frames over the duration, plus one */
    double *times;          /* K sample times (f32 values widened), malloc'd */
} ga_run;

/* Whether a track never changes: <= 1 key, or every key's value element
 * bit-equal (as floats) to key 0's and, for CUBICSPLINE, every tangent
 * zero. Such tracks are exempt from the grid rules and never rotated.
 * The track must have passed the cardinality validation. */
bool ga_track_invariant(const anim_track *track);

/* Refusal lines: ga_begin puts "clip {clip:?}: ", ga_begin_cannot adds
 * "cannot gait-anchor clip {clip:?}: ", ga_begin_policy "cannot
 * gait-anchor clip {clip:?} under the in-place policy: " and
 * ga_begin_selected the "selected {label} bone {name:?} (index {b}) "
 * clause on top. ga_refuse sets err from the line (with "; ALT" when alt),
 * frees it and returns -1. */
void ga_begin(const ga_run *run, anim_strbuf *sb);
void ga_begin_cannot(const ga_run *run, anim_strbuf *sb);
void ga_begin_policy(const ga_run *run, anim_strbuf *sb);
void ga_begin_selected(const ga_run *run, anim_strbuf *sb);
int ga_refuse(const ga_run *run, anim_strbuf *sb, anim_error_code code, bool alt);

/* Skeleton, role and track-shape validation, then the trajectory bone. */
int ga_validate_domain(ga_run *run);
/* The whole-frame grid: K, the work bounds, run->times and the key rules
 * of every non-invariant track. */
int ga_frame_grid(ga_run *run);
/* The trajectory proof on a pose grid at run->times; on success *grid
 * holds that grid (the caller frees it) for measuring the clip as it is. */
int ga_trajectory_proof(ga_run *run, anim_metric_grid *grid);

#endif
