/* The heading walk of a bone over a sampled grid: the yaw evidence behind
 * root_trajectory (measure, the travel checks) and the gait-anchor
 * trajectory proof, computed once so both judge the same numbers.
 *
 * At frame 0 the witness axis is chosen among local +Z, +Y, +X (that
 * priority; replaced only on a strictly larger horizontal projection) and
 * kept for every frame, so a later axis switch cannot hide yaw. Each
 * frame's heading is atan2(h.x, h.z) in degrees of the rotated axis; the
 * step between neighbouring frames counts a full-turn crossing when it
 * exceeds 180 degrees in magnitude. Everything is f64 on the grid's model
 * rotations (normalized per frame). */
#ifndef ANIMSMITH_HEADING_H
#define ANIMSMITH_HEADING_H

#include <stdbool.h>
#include <stdint.h>

#include "animsmith/measure_travel.h"
#include "animsmith/sample.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Why a walk stopped. */
typedef enum {
    ANIM_HEADING_OK = 0,
    ANIM_HEADING_BAD_ROTATION,   /* model rotation non-finite or zero */
    ANIM_HEADING_NO_PROJECTION,  /* witness axis (anti)parallel to +Y, or non-finite */
    ANIM_HEADING_HALF_TURN       /* a step within 1e-4 deg of a half turn */
} anim_heading_failure;

typedef struct anim_heading_walk {
    anim_heading_failure failure;
    uint32_t failed_frame;       /* frame of the failure, when failure != OK */
    anim_heading_axis axis;      /* chosen at frame 0 (valid once frame 0 passed) */
    double first_deg;            /* heading at frame 0 */
    double last_deg;             /* heading at the last frame */
    double winding;              /* counted full-turn crossings, signed */
    double travel_deg;           /* sum of |unwrapped steps| */
} anim_heading_walk;

/* Walks bone's headings over every frame of grid. reject_half_turn stops
 * at an ambiguous half-turn step (root_trajectory); the gait-anchor proof
 * counts it like any other step. Returns failure == ANIM_HEADING_OK. */
bool anim_heading_walk_run(const anim_metric_grid *grid, uint32_t bone, bool reject_half_turn,
                           anim_heading_walk *out);

/* last - first + 360 * winding: the unwrapped yaw of a completed walk. */
double anim_heading_walk_unwrapped(const anim_heading_walk *walk);

#ifdef __cplusplus
}
#endif
#endif
