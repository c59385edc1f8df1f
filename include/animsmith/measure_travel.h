/* Root trajectory and speed: how the trajectory and yaw are defined.
 *
 * These are measurements (they appear under clips.<name>.root_trajectory
 * and .speed_mps) and also the inputs of the contract checks
 * root-motion-speed (5.22), in-place (5.23) and foot-slide (5.29), which
 * call anim_root_speed_measure on the lint context's shared metric grid.
 *
 * Selection: the resolved Root role, else Hips as the typed
 * "hips_fallback" source; a resolved but unmeasurable Root never falls
 * back to Hips. Translation and yaw are derived independently: bad
 * positions do not erase usable yaw and vice versa. Everything is computed
 * in f64 from the metric grid's model-space samples. */
#ifndef ANIMSMITH_MEASURE_TRAVEL_H
#define ANIMSMITH_MEASURE_TRAVEL_H

#include <stdbool.h>
#include <stdint.h>

#include "animsmith/availability.h"
#include "animsmith/doc.h"
#include "animsmith/error.h"
#include "animsmith/json_write.h"
#include "animsmith/rig.h"
#include "animsmith/sample.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which role supplied the trajectory bone. */
typedef enum {
    ANIM_ROOT_SOURCE_NONE = 0,      /* neither Root nor Hips resolved */
    ANIM_ROOT_SOURCE_ROOT,          /* "root" */
    ANIM_ROOT_SOURCE_HIPS_FALLBACK  /* "hips_fallback" */
} anim_root_source;

/* "root", "hips_fallback"; NULL for NONE. */
const char *anim_root_source_name(anim_root_source s);

/* The heading witness chosen at frame 0 (ties prefer +Z, then +Y). */
typedef enum {
    ANIM_HEADING_POSITIVE_Z = 0,
    ANIM_HEADING_POSITIVE_Y,
    ANIM_HEADING_POSITIVE_X
} anim_heading_axis;

/* JSON labels "positive_z", ... and text labels "+Z", ... */
const char *anim_heading_axis_name(anim_heading_axis a);
const char *anim_heading_axis_label(anim_heading_axis a);

/* Root trajectory translation facts, metres, normalized +Y-up model space:
 * signed displacements compare the last sample with sample 0. */
typedef struct anim_root_translation {
    double dx_m;            /* horizontal_displacement_x_m */
    double dz_m;            /* horizontal_displacement_z_m */
    double travel_m;        /* horizontal_travel_m: sum of sampled XZ steps */
    double dy_m;            /* vertical_displacement_m */
    double y_min_m;         /* vertical_min_displacement_m (<= 0) */
    double y_max_m;         /* vertical_max_displacement_m (>= 0) */
} anim_root_translation;

/* Root trajectory yaw facts, degrees; positive yaw turns +Z toward +X. */
typedef struct anim_root_yaw {
    anim_heading_axis axis;
    double net_deg;         /* in [-180, 180] */
    double unwrapped_deg;
    double travel_deg;      /* sum of |sampled steps| */
} anim_root_yaw;

typedef struct anim_root_trajectory {
    /* NOT_APPLICABLE: neither Root nor Hips resolved; UNAVAILABLE: the
     * selected bone is outside the skeleton; MEASURED: the selection
     * below stands and the two nested domains carry their own status. */
    anim_availability availability;
    uint32_t bone_index;
    const char *bone_name;          /* doc->bones[bone_index].name */
    anim_root_source source;
    anim_availability translation_availability; /* MEASURED or UNAVAILABLE */
    anim_root_translation translation;
    anim_availability yaw_availability;         /* MEASURED or UNAVAILABLE */
    anim_root_yaw yaw;
} anim_root_trajectory;

/* speed_mps: horizontal endpoint speed of the selected bone. */
typedef struct anim_root_speed {
    /* NOT_APPLICABLE without Root/Hips; UNAVAILABLE when the selection is
     * bad, the clip has no metric grid, or the value is not finite. */
    anim_availability availability;
    double mps;             /* when MEASURED */
} anim_root_speed;

/* Root trajectory bone selection only (no sampling): fills availability, bone and
 * source; the nested domains are left UNAVAILABLE. rig may be NULL. */
void anim_root_trajectory_select(const anim_doc *doc, const anim_rig_resolution *rig,
                                 anim_root_trajectory *out);

/* The whole root_trajectory record. grid is the clip's metric grid, or NULL when
 * the clip has none (both nested domains are then unavailable). */
void anim_root_trajectory_measure(const anim_doc *doc, const anim_rig_resolution *rig,
                                  const anim_metric_grid *grid, anim_root_trajectory *out);

/* speed_mps on the clip's metric grid (NULL: none). The value the
 * root-motion-speed, in-place and foot-slide checks compare. */
void anim_root_speed_measure(const anim_doc *doc, const anim_rig_resolution *rig,
                             const anim_metric_grid *grid, anim_root_speed *out);

/* Writes "root_trajectory" (when measured) and
 * "root_trajectory_availability" as the next members of the clip object.
 * Fails with err ("measurement value clips["clip"].root_trajectory... must
 * be finite") on a non-finite measured value. */
int anim_root_trajectory_write_json(const anim_root_trajectory *t, const char *clip,
                                    anim_json_writer *w, anim_error *err);

/* Writes "speed_mps" (when measured) and "speed_mps_availability". */
int anim_root_speed_write_json(const anim_root_speed *s, const char *clip, anim_json_writer *w,
                               anim_error *err);

#ifdef __cplusplus
}
#endif
#endif
