/* speed_mps: the horizontal endpoint speed of the trajectory
 * bone, |(x, z)_last - (x, z)_first| / duration on the metric grid. It is
 * a chord speed, not a path speed: a clip that walks out and back reads
 * ~0 here while root_trajectory.horizontal_travel_m keeps the path. The
 * contract checks (root-motion-speed, in-place, foot-slide) judge this
 * value. */
#include <math.h>
#include <string.h>

#include "animsmith/availability.h"
#include "animsmith/math.h"
#include "animsmith/measure_travel.h"

void anim_root_speed_measure(const anim_doc *doc, const anim_rig_resolution *rig,
                             const anim_metric_grid *grid, anim_root_speed *out)
{
    memset(out, 0, sizeof *out);
    anim_root_trajectory sel;
    anim_root_trajectory_select(doc, rig, &sel);
    if (sel.availability == ANIM_AVAIL_NOT_APPLICABLE) {
        out->availability = ANIM_AVAIL_NOT_APPLICABLE;
        return;
    }
    out->availability = ANIM_AVAIL_UNAVAILABLE;
    /* A bad selection, or no metric grid (too short to sample). */
    if (sel.availability != ANIM_AVAIL_MEASURED || !grid || grid->frame_count < 2 ||
        sel.bone_index >= grid->bone_count)
        return;
    uint32_t last = grid->frame_count - 1;
    double duration = grid->times[last];
    if (!(isfinite(duration) && duration > 0.0))
        return;
    anim_metric_grid_need_bones(grid, &sel.bone_index, 1);
    anim_vec3 p0 = grid->model_pos[anim_metric_grid_index(grid, 0, sel.bone_index)];
    anim_vec3 pl = grid->model_pos[anim_metric_grid_index(grid, last, sel.bone_index)];
    double speed = hypot(pl.x - p0.x, pl.z - p0.z) / duration;
    if (!isfinite(speed))
        return;
    out->availability = ANIM_AVAIL_MEASURED;
    out->mps = speed;
}

int anim_root_speed_write_json(const anim_root_speed *s, const char *clip, anim_json_writer *w,
                               anim_error *err)
{
    const char *status = anim_availability_name(s->availability);
    if (!status)
        return 0;
    if (s->availability == ANIM_AVAIL_MEASURED) {
        if (!isfinite(s->mps))
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "measurement value clips[\"%s\"].speed_mps must be finite", clip);
        anim_json_writer_key(w, "speed_mps");
        anim_json_writer_f64(w, s->mps);
    }
    anim_json_writer_key(w, "speed_mps_availability");
    anim_json_writer_string(w, status);
    return 0;
}
