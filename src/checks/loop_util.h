/* Shared by the loop checks: which clips are judged, the
 * seam time every loop finding carries, and the per-bone continuity
 * skeleton of loop-closure / loop-seam-vel / loop-seam-rot (one scope per
 * declared loop, a gap instead of a verdict when the seam samples are
 * missing, partial coverage when only some bones' rows are usable). */
#ifndef ANIMSMITH_CHECKS_LOOP_UTIL_H
#define ANIMSMITH_CHECKS_LOOP_UTIL_H

#include "animsmith/measure_loop.h"
#include "checks/checks.h"

/* The clip's merged expectation declares `loop = true`. */
bool loop_declared(const anim_lint_context *ctx, uint32_t clip);

/* The seam time of a loop finding: the clip duration narrowed to f32 and
 * widened back (time = (f32)duration, like every f32 time_s field). */
double loop_seam_time(const anim_clip *clip);

/* Judges one clip's measured rows against its caps; records findings with
 * anim_check_finding. Returns 0, or -1 when recording fails. */
typedef int (*loop_judge_fn)(anim_lint_context *ctx, anim_check_record *rec,
                             const anim_clip *clip, const anim_loop_continuity *lc,
                             const anim_loop_caps *caps);

/* For every declared loop clip: computes loop continuity from the shared
 * metric grid, resolves the clip's caps and
 *   - no usable row (no grid, unusable seam steps, every row unavailable)
 *     → gap `measurement_unavailable` "clip has no usable per-bone
 *     loop-continuity sample" on (scope_code, clip), no verdict;
 *   - otherwise the evaluated scope (scope_code, clip), a
 *     `measurement_unavailable` gap naming the unavailable bones when some
 *     rows are unusable (the check is then partial), and judge().
 * Returns 0, or -1 with err set (out of memory). */
int loop_continuity_each(anim_lint_context *ctx, anim_check_record *rec, const char *scope_code,
                         loop_judge_fn judge, anim_error *err);

/* The measured row with the largest value of m (ties → last bone) when it
 * exceeds cap under the f32 rule; NULL when none exceeds. */
const anim_loop_bone *loop_worst_exceeding(const anim_loop_continuity *lc, anim_loop_metric m,
                                           double cap);

/* The fields of a per-bone loop finding: error, clip, bone, seam time,
 * measured = the row's value of m, expected = cap. */
anim_finding_fields loop_bone_finding(const anim_lint_context *ctx, const anim_clip *clip,
                                      const anim_loop_bone *row, anim_loop_metric m, double cap);

#endif
