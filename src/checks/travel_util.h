/* Private helpers shared by the travel contract checks (root-motion-speed,
 * in-place, foot-slide): the measured root speed of a clip on the lint
 * context's shared metric grid, with the coverage gap that names each way
 * it can be missing (roles, too short a clip, unmeasurable speed). */
#ifndef ANIMSMITH_CHECKS_TRAVEL_UTIL_H
#define ANIMSMITH_CHECKS_TRAVEL_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "animsmith/measure_travel.h"
#include "checks/checks.h"

/* Root-motion speed at or above this is travel (root-motion-speed's
 * stray-pin floor, in-place's travel threshold, foot-slide's treadmill vs
 * root-motion: one number, so the three checks never disagree). */
#define TRAVEL_THRESHOLD_MPS 0.5

/* The `speed_mps` speed of clip c (anim_root_speed_measure on the shared
 * grid). When it is not measured, records the gap that explains why under
 * scope (scope_code, clip name), in this order: `roles_unresolved`
 * when neither Root nor Hips resolves; else, when too_short is not NULL and
 * the clip has no metric grid, `measurement_unavailable` with that message
 * (foot-slide's "clip is too short to sample foot stance"); else
 * `measurement_unavailable` "root-motion speed could not be measured".
 * Returns 1 with *mps set when measured, 0 when a gap was recorded, -1 on
 * allocation failure. */
int travel_root_speed(anim_lint_context *ctx, anim_check_record *rec, uint32_t c,
                      const char *scope_code, const char *too_short, double *mps);

#endif
