/* root_trajectory: the sampled
 * translation and yaw of the Root bone, or of Hips as the typed
 * "hips_fallback" source, on the clip's metric grid. Translation and yaw
 * are independent: one domain failing never erases the other. */
#include <math.h>
#include <string.h>

#include "animsmith/availability.h"
#include "animsmith/heading.h"
#include "animsmith/math.h"
#include "animsmith/measure_travel.h"

/* A net yaw this close to a half turn takes the sign of the unwrapped yaw. */
#define HALF_TURN_TOLERANCE_DEG 1e-4

const char *anim_root_source_name(anim_root_source s)
{
    switch (s) {
    case ANIM_ROOT_SOURCE_ROOT: return "root";
    case ANIM_ROOT_SOURCE_HIPS_FALLBACK: return "hips_fallback";
    default: return NULL;
    }
}

const char *anim_heading_axis_name(anim_heading_axis a)
{
    switch (a) {
    case ANIM_HEADING_POSITIVE_Y: return "positive_y";
    case ANIM_HEADING_POSITIVE_X: return "positive_x";
    default: return "positive_z";
    }
}

const char *anim_heading_axis_label(anim_heading_axis a)
{
    switch (a) {
    case ANIM_HEADING_POSITIVE_Y: return "+Y";
    case ANIM_HEADING_POSITIVE_X: return "+X";
    default: return "+Z";
    }
}

void anim_root_trajectory_select(const anim_doc *doc, const anim_rig_resolution *rig,
                                 anim_root_trajectory *out)
{
    memset(out, 0, sizeof *out);
    out->availability = ANIM_AVAIL_NOT_APPLICABLE;
    out->bone_index = ANIM_NONE;
    out->translation_availability = ANIM_AVAIL_UNAVAILABLE;
    out->yaw_availability = ANIM_AVAIL_UNAVAILABLE;
    if (!rig)
        return;
    /* A resolved Root is the selection even when it later proves
     * unmeasurable: no silent fallback to Hips. */
    anim_role role;
    if (rig->bone[ANIM_ROLE_ROOT] != ANIM_NONE) {
        role = ANIM_ROLE_ROOT;
        out->source = ANIM_ROOT_SOURCE_ROOT;
    } else if (rig->bone[ANIM_ROLE_HIPS] != ANIM_NONE) {
        role = ANIM_ROLE_HIPS;
        out->source = ANIM_ROOT_SOURCE_HIPS_FALLBACK;
    } else {
        return;
    }
    uint32_t b = rig->bone[role];
    if (!doc || b >= doc->bone_count) {
        out->availability = ANIM_AVAIL_UNAVAILABLE;
        return;
    }
    out->availability = ANIM_AVAIL_MEASURED;
    out->bone_index = b;
    out->bone_name = doc->bones[b].name;
}

/* Root translation over frames 0..N-1; false when unavailable. */
static bool measure_translation(const anim_metric_grid *grid, uint32_t bone,
                                anim_root_translation *t)
{
    uint32_t n = grid->frame_count;
    if (n == 0)
        return false;
    for (uint32_t f = 0; f < n; f++)
        if (!anim_vec3_is_finite(grid->model_pos[anim_metric_grid_index(grid, f, bone)]))
            return false;
    anim_vec3 p0 = grid->model_pos[anim_metric_grid_index(grid, 0, bone)];
    anim_vec3 pl = grid->model_pos[anim_metric_grid_index(grid, n - 1, bone)];
    memset(t, 0, sizeof *t);
    t->dx_m = pl.x - p0.x;
    t->dz_m = pl.z - p0.z;
    t->dy_m = pl.y - p0.y;
    anim_vec3 prev = p0;
    for (uint32_t f = 1; f < n; f++) {
        anim_vec3 p = grid->model_pos[anim_metric_grid_index(grid, f, bone)];
        t->travel_m += hypot(p.x - prev.x, p.z - prev.z);
        double dy = p.y - p0.y;
        if (dy < t->y_min_m)
            t->y_min_m = dy;
        if (dy > t->y_max_m)
            t->y_max_m = dy;
        prev = p;
    }
    return isfinite(t->dx_m) && isfinite(t->dz_m) && isfinite(t->dy_m) &&
           isfinite(t->travel_m) && isfinite(t->y_min_m) && isfinite(t->y_max_m);
}

/* Root yaw; false (unavailable) at the first failure, an ambiguous half
 * turn included. */
static bool measure_yaw(const anim_metric_grid *grid, uint32_t bone, anim_root_yaw *y)
{
    anim_heading_walk walk;
    if (!anim_heading_walk_run(grid, bone, true, &walk))
        return false;
    double unwrapped = anim_heading_walk_unwrapped(&walk);
    double r = fmod(unwrapped + 180.0, 360.0);
    if (r < 0.0)
        r += 360.0; /* Euclidean remainder */
    double net = r - 180.0;
    if (fabs(fabs(net) - 180.0) <= HALF_TURN_TOLERANCE_DEG)
        net = unwrapped < 0.0 ? -180.0 : 180.0;
    if (!isfinite(unwrapped) || !isfinite(net) || !isfinite(walk.travel_deg))
        return false;
    y->axis = walk.axis;
    y->net_deg = net;
    y->unwrapped_deg = unwrapped;
    y->travel_deg = walk.travel_deg;
    return true;
}

void anim_root_trajectory_measure(const anim_doc *doc, const anim_rig_resolution *rig,
                                  const anim_metric_grid *grid, anim_root_trajectory *out)
{
    anim_root_trajectory_select(doc, rig, out);
    if (out->availability != ANIM_AVAIL_MEASURED || !grid || grid->frame_count == 0 ||
        out->bone_index >= grid->bone_count)
        return;
    anim_metric_grid_need_bones(grid, &out->bone_index, 1);
    if (measure_translation(grid, out->bone_index, &out->translation))
        out->translation_availability = ANIM_AVAIL_MEASURED;
    else
        memset(&out->translation, 0, sizeof out->translation);
    if (measure_yaw(grid, out->bone_index, &out->yaw))
        out->yaw_availability = ANIM_AVAIL_MEASURED;
    else
        memset(&out->yaw, 0, sizeof out->yaw);
}

/* ---- JSON (the documented member order inside root_trajectory) ---- */

static int put_finite(anim_json_writer *w, const char *key, double v, const char *clip,
                      const char *domain, anim_error *err)
{
    if (!isfinite(v))
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "measurement value clips[\"%s\"].root_trajectory.%s.%s must be "
                              "finite",
                              clip, domain, key);
    anim_json_writer_key(w, key);
    anim_json_writer_f64(w, v);
    return 0;
}

int anim_root_trajectory_write_json(const anim_root_trajectory *t, const char *clip,
                                    anim_json_writer *w, anim_error *err)
{
    const char *status = anim_availability_name(t->availability);
    if (!status)
        return 0; /* undecided: the pair is left out */
    if (t->availability == ANIM_AVAIL_MEASURED) {
        anim_json_writer_key(w, "root_trajectory");
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "bone_index");
        anim_json_writer_uint(w, t->bone_index);
        anim_json_writer_key(w, "bone_name");
        anim_json_writer_string(w, t->bone_name ? t->bone_name : "");
        anim_json_writer_key(w, "source_role");
        anim_json_writer_string(w, anim_root_source_name(t->source));
        if (t->translation_availability == ANIM_AVAIL_MEASURED) {
            const anim_root_translation *tr = &t->translation;
            anim_json_writer_key(w, "translation");
            anim_json_writer_begin_object(w);
            if (put_finite(w, "horizontal_displacement_x_m", tr->dx_m, clip, "translation", err) ||
                put_finite(w, "horizontal_displacement_z_m", tr->dz_m, clip, "translation", err) ||
                put_finite(w, "horizontal_travel_m", tr->travel_m, clip, "translation", err) ||
                put_finite(w, "vertical_displacement_m", tr->dy_m, clip, "translation", err) ||
                put_finite(w, "vertical_min_displacement_m", tr->y_min_m, clip, "translation",
                           err) ||
                put_finite(w, "vertical_max_displacement_m", tr->y_max_m, clip, "translation",
                           err))
                return -1;
            anim_json_writer_end_object(w);
        }
        anim_json_writer_key(w, "translation_availability");
        /* Never not_applicable once a bone is selected. */
        anim_json_writer_string(w, t->translation_availability == ANIM_AVAIL_MEASURED
                                       ? "measured"
                                       : "unavailable");
        if (t->yaw_availability == ANIM_AVAIL_MEASURED) {
            const anim_root_yaw *y = &t->yaw;
            anim_json_writer_key(w, "yaw");
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "heading_axis");
            anim_json_writer_string(w, anim_heading_axis_name(y->axis));
            if (put_finite(w, "net_yaw_deg", y->net_deg, clip, "yaw", err) ||
                put_finite(w, "unwrapped_yaw_deg", y->unwrapped_deg, clip, "yaw", err) ||
                put_finite(w, "yaw_travel_deg", y->travel_deg, clip, "yaw", err))
                return -1;
            anim_json_writer_end_object(w);
        }
        anim_json_writer_key(w, "yaw_availability");
        anim_json_writer_string(w, t->yaw_availability == ANIM_AVAIL_MEASURED ? "measured"
                                                                              : "unavailable");
        anim_json_writer_end_object(w);
    }
    anim_json_writer_key(w, "root_trajectory_availability");
    anim_json_writer_string(w, status);
    return 0;
}
