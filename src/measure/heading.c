/* The heading walk shared by root_trajectory's yaw and the gait-anchor
 * trajectory proof (include/animsmith/heading.h). */
#include <math.h>
#include <string.h>

#include "animsmith/heading.h"
#include "animsmith/math.h"

/* f32 epsilon: a heading whose horizontal projection is no longer than
 * this has no direction (the witness axis points straight up or down). */
#define HEADING_MIN_HORIZONTAL 1.1920928955078125e-7
/* A sampled step this close to a half turn has no recoverable direction. */
#define HALF_TURN_TOLERANCE_DEG 1e-4

/* The frame's model rotation, normalized; false when it is not usable. */
static bool frame_rotation(const anim_metric_grid *grid, uint32_t frame, uint32_t bone,
                           anim_quat *q)
{
    anim_quat r = grid->model_rot[anim_metric_grid_index(grid, frame, bone)];
    double n2 = anim_quat_dot(r, r);
    if (!anim_quat_is_finite(r) || !isfinite(n2) || n2 <= 0.0)
        return false;
    *q = anim_quat_normalize(r);
    return anim_quat_is_finite(*q);
}

static anim_vec3 axis_vector(anim_heading_axis a)
{
    switch (a) {
    case ANIM_HEADING_POSITIVE_Y: return anim_vec3_make(0.0, 1.0, 0.0);
    case ANIM_HEADING_POSITIVE_X: return anim_vec3_make(1.0, 0.0, 0.0);
    default: return anim_vec3_make(0.0, 0.0, 1.0);
    }
}

/* Heading of the witness axis in degrees; false when the axis has no
 * usable horizontal projection. */
static bool heading_deg(anim_quat q, anim_heading_axis axis, double *deg)
{
    anim_vec3 h = anim_quat_rotate(q, axis_vector(axis));
    double horizontal = hypot(h.x, h.z);
    if (!isfinite(horizontal) || horizontal <= HEADING_MIN_HORIZONTAL)
        return false;
    *deg = atan2(h.x, h.z) * (180.0 / ANIM_PI);
    return isfinite(*deg);
}

/* The witness axis: largest horizontal projection at frame 0, replaced
 * only on strictly greater, so ties keep +Z, then +Y. */
static anim_heading_axis choose_axis(anim_quat q)
{
    static const anim_heading_axis order[] = {ANIM_HEADING_POSITIVE_Z, ANIM_HEADING_POSITIVE_Y,
                                              ANIM_HEADING_POSITIVE_X};
    anim_heading_axis axis = ANIM_HEADING_POSITIVE_Z;
    double best = -1.0;
    for (size_t i = 0; i < 3; i++) {
        anim_vec3 h = anim_quat_rotate(q, axis_vector(order[i]));
        double len = hypot(h.x, h.z);
        if (isfinite(len) && len > best) {
            best = len;
            axis = order[i];
        }
    }
    return axis;
}

static bool fail(anim_heading_walk *out, anim_heading_failure why, uint32_t frame)
{
    out->failure = why;
    out->failed_frame = frame;
    return false;
}

bool anim_heading_walk_run(const anim_metric_grid *grid, uint32_t bone, bool reject_half_turn,
                           anim_heading_walk *out)
{
    memset(out, 0, sizeof *out);
    if (!grid || grid->frame_count == 0 || bone >= grid->bone_count)
        return fail(out, ANIM_HEADING_BAD_ROTATION, 0);
    anim_metric_grid_need_bones(grid, &bone, 1);
    anim_quat q;
    if (!frame_rotation(grid, 0, bone, &q))
        return fail(out, ANIM_HEADING_BAD_ROTATION, 0);
    out->axis = choose_axis(q);
    if (!heading_deg(q, out->axis, &out->first_deg))
        return fail(out, ANIM_HEADING_NO_PROJECTION, 0);
    double prev = out->first_deg;
    for (uint32_t f = 1; f < grid->frame_count; f++) {
        double h;
        if (!frame_rotation(grid, f, bone, &q))
            return fail(out, ANIM_HEADING_BAD_ROTATION, f);
        if (!heading_deg(q, out->axis, &h))
            return fail(out, ANIM_HEADING_NO_PROJECTION, f);
        double raw = h - prev;
        if (reject_half_turn && fabs(fabs(raw) - 180.0) <= HALF_TURN_TOLERANCE_DEG)
            return fail(out, ANIM_HEADING_HALF_TURN, f);
        if (raw > 180.0) {
            out->winding -= 1.0;
            out->travel_deg += fabs(raw - 360.0);
        } else if (raw < -180.0) {
            out->winding += 1.0;
            out->travel_deg += fabs(raw + 360.0);
        } else {
            out->travel_deg += fabs(raw);
        }
        prev = h;
    }
    out->last_deg = prev;
    return true;
}

double anim_heading_walk_unwrapped(const anim_heading_walk *walk)
{
    return walk->last_deg - walk->first_deg + 360.0 * walk->winding;
}
