/* --gait-anchor's trajectory proof: the clip is in place only if its
 * trajectory bone ends where it started, horizontally and in heading,
 * measured on the exact admitted frame times. No interior step is an
 * allowance: the endpoint caps apply directly. */
#include <math.h>
#include <string.h>

#include "animsmith/heading.h"
#include "animsmith/math.h"
#include "animsmith/numfmt.h"
#include "transform/gait_anchor.h"

#define HORIZONTAL_CAP_M 0.01f
#define YAW_CAP_DEG 1.0f

/* The f32 cap moved up by four ulps: the room authored f32 endpoint
 * translations and quaternions need, and no more. */
static double cap_with_ulps(float cap)
{
    for (int i = 0; i < 4; i++)
        cap = nextafterf(cap, INFINITY);
    return cap;
}

static int refuse_at_sample(const ga_run *run, const char *what, uint32_t f)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    ga_begin_selected(run, &sb);
    anim_strbuf_printf(&sb, "%s at sample %u", what, f);
    return ga_refuse(run, &sb, ANIM_ERR_INVALID, true);
}

static bool frame_finite(const anim_metric_grid *grid, uint32_t f, uint32_t bone)
{
    size_t i = anim_metric_grid_index(grid, f, bone);
    anim_quat q = grid->model_rot[i];
    return anim_vec3_is_finite(grid->model_pos[i]) && anim_quat_is_finite(q) &&
           anim_quat_dot(q, q) > 0.0;
}

static int check_caps(const ga_run *run, const anim_metric_grid *grid,
                      const anim_heading_walk *walk)
{
    anim_vec3 p0 = grid->model_pos[anim_metric_grid_index(grid, 0, run->bone)];
    anim_vec3 pl = grid->model_pos[anim_metric_grid_index(grid, grid->frame_count - 1, run->bone)];
    /* The endpoint length is judged as the f32 value it is in the file's
     * precision, so the four-ulp cap is meaningful. */
    double horizontal = (double)(float)hypot(pl.x - p0.x, pl.z - p0.z);
    double yaw = fabs(anim_heading_walk_unwrapped(walk));
    if (isfinite(horizontal) && isfinite(yaw) && !(horizontal > cap_with_ulps(HORIZONTAL_CAP_M)) &&
        !(yaw > cap_with_ulps(YAW_CAP_DEG)))
        return 0;
    anim_strbuf sb = ANIM_STRBUF_INIT;
    ga_begin_selected(run, &sb);
    anim_strbuf_puts(&sb, "accumulates horizontal translation ");
    anim_strbuf_put_fixed(&sb, horizontal, 4);
    anim_strbuf_puts(&sb, " m (endpoint ");
    anim_strbuf_put_fixed(&sb, horizontal, 4);
    anim_strbuf_puts(&sb, " m, cap 0.0100 m) and yaw ");
    anim_strbuf_put_fixed(&sb, yaw, 3);
    anim_strbuf_puts(&sb, " deg (sampled total ");
    anim_strbuf_put_fixed(&sb, yaw, 3);
    anim_strbuf_puts(&sb, " deg, cap 1.000 deg)");
    return ga_refuse(run, &sb, ANIM_ERR_INVALID, true);
}

int ga_trajectory_proof(ga_run *run, anim_metric_grid *grid)
{
    memset(grid, 0, sizeof *grid);
    if (run->frames < 3) {
        anim_strbuf sb = ANIM_STRBUF_INIT;
        ga_begin_selected(run, &sb);
        anim_strbuf_puts(&sb, "has fewer than three trajectory samples");
        return ga_refuse(run, &sb, ANIM_ERR_INVALID, true);
    }
    if (anim_metric_grid_at_times(run->doc, run->clip, run->times, run->frames, grid, run->err))
        return -1;
    for (uint32_t f = 0; f < grid->frame_count; f++)
        if (!frame_finite(grid, f, run->bone)) {
            anim_metric_grid_free(grid);
            return refuse_at_sample(run, "has non-finite trajectory evidence", f);
        }

    /* Heading per root_trajectory, but a half-turn step is counted like
     * any other: the endpoint yaw cap is what decides. */
    anim_heading_walk walk;
    if (!anim_heading_walk_run(grid, run->bone, false, &walk)) {
        anim_metric_grid_free(grid);
        if (walk.failure != ANIM_HEADING_NO_PROJECTION)
            return refuse_at_sample(run, "has non-finite trajectory evidence", walk.failed_frame);
        anim_strbuf sb = ANIM_STRBUF_INIT;
        ga_begin_selected(run, &sb);
        anim_strbuf_printf(&sb,
                           "has no finite horizontal projection for its selected local %s "
                           "heading basis at sample %u",
                           anim_heading_axis_label(walk.axis), walk.failed_frame);
        return ga_refuse(run, &sb, ANIM_ERR_INVALID, true);
    }
    if (check_caps(run, grid, &walk)) {
        anim_metric_grid_free(grid);
        return -1;
    }
    return 0;
}
