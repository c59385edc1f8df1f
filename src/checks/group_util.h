/* Helpers shared by the group checks (gait-group, sync-group,
 * time-complement): member lookup by clip name, the
 * per-member gait phase with its exclusion reasons, the circular phase
 * spread, and the sync-group member facts. Private to src/checks. */
#ifndef ANIMSMITH_CHECKS_GROUP_UTIL_H
#define ANIMSMITH_CHECKS_GROUP_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "animsmith/lint.h"
#include "animsmith/measure_loop.h"

/* The clip named exactly name, or ANIM_NONE. Among clips sharing a name
 * the last wins, as in the measurements object (one row per name). */
uint32_t group_find_clip(const anim_doc *doc, const char *name);

/* Why a present member has (or lacks) a gait phase subject. */
typedef enum {
    GROUP_PHASE_MEASURED = 0,
    GROUP_PHASE_UNMEASURED,    /* no metric grid or non-finite foot evidence */
    GROUP_PHASE_NOT_BILATERAL, /* a side has neither foot nor toe role */
    GROUP_PHASE_NO_SWING,      /* the left-right signal is exactly flat */
    GROUP_PHASE_UNFITTED,      /* the harmonic could not be fitted */
    GROUP_PHASE_BELOW_FLOOR    /* amplitude under the group's evidence floor */
} group_phase_status;

typedef struct {
    group_phase_status status;
    double phase;          /* [0, 1) when status is MEASURED */
    double lr_amplitude_m; /* when the foot cycle was computed */
} group_phase;

/* The member's gait phase on the clip's metric grid, always with the
 * built-in 0.02 m stride floor (the configurable floor gates only the seam
 * ratio, never the phase, so tuning loop-seam cannot change a group),
 * judged against the group's
 * amplitude floor. Call only when the gait roles resolve. Uses the foot
 * cycle gathered during the clip pass when there is one (no grid is built
 * again), else samples the clip's grid now. */
void group_phase_measure(anim_lint_context *ctx, uint32_t clip, double min_lr_amplitude_m,
                         group_phase *out);

/* The loop endpoint mode name of a clip declared loop = true (NULL
 * when unavailable), from the clip-pass facts when gathered, else from the
 * clip's grid now. Returns 0, or -1 with err set (out of memory). */
int group_endpoint_mode(anim_lint_context *ctx, uint32_t clip, const char **mode,
                        anim_error *err);

/* Clip-pass gathering (anim_check_def.gather): keeps the foot cycle of
 * gait-group members (gait) or of time-complement group members (!gait),
 * and the endpoint mode of declared-loop sync-group members, while the
 * clip's grid is the live one. Returns 0, or -1 with err set. */
int group_gather_foot_cycle(anim_lint_context *ctx, uint32_t clip, bool gait, anim_error *err);
int group_gather_endpoint_mode(anim_lint_context *ctx, uint32_t clip, anim_error *err);

/* Makes the per-clip facts table (ctx->group_facts) before a parallel
 * clip pass: its workers share it, each gathering into its own clips'
 * entries. Returns 0, or -1 with err set (out of memory). */
int group_facts_prepare(anim_lint_context *ctx, anim_error *err);

/* Circular spread: the largest angular distance of a phase from
 * the circular mean, in cycles ([0, 0.5]). 0 for n == 0. */
double group_circular_spread(const double *phases, uint32_t n);

/* Puts an evaluated scope at the front of the record's list (the
 * `member_existence` scope that the group checks name first). */
int group_scope_first(anim_lint_context *ctx, anim_check_record *rec, const char *code,
                      const char *subject);

/* Builds a member row in ctx->arena from key/value pairs, sorting keys
 * byte-wise. Returns 0, or -1 on allocation failure. */
int group_member_row(anim_lint_context *ctx, anim_member_row *row, const char *member,
                     const anim_member_measurement *items, uint32_t n);

#endif
