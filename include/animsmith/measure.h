/* Measurements (spec section 3; seed 003 "measure and lint"): the
 * measurements-v18 object that `measure` prints and `lint` embeds under
 * files[].measurements.
 *
 * This first slice computes the per-clip facts that need no sampling:
 * duration_s, frame_count, animated_bones, bone_channels,
 * bone_rotation_range_deg (spec 3.2, 3.3) and frame_grid (3.6). For the
 * sampled, role-dependent facts (loop_continuity, loop_endpoint_mode,
 * loop_seam_ratio, gait, root_trajectory, speed_mps) it records an
 * availability only where the rules of spec 3.4-3.11 decide it without
 * computing the value (no bones, no roles, no metric grid, no declared
 * loop); everything else is ANIM_AVAIL_UNDECIDED and is left out of the
 * JSON rather than guessed. */
#ifndef ANIMSMITH_MEASURE_H
#define ANIMSMITH_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/config.h"
#include "animsmith/doc.h"
#include "animsmith/error.h"
#include "animsmith/json_write.h"
#include "animsmith/measure_travel.h"
#include "animsmith/rig.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ANIM_MEASUREMENTS_SCHEMA_VERSION 18
#define ANIM_MEASUREMENTS_SCHEMA "urn:animsmith:schema:measurements:18"

/* Spec 3.3: rotation ranges below this are not recorded. */
#define ANIM_MIN_RECORDED_ROTATION_DEG 0.1

/* anim_availability (spec 3.1) and anim_availability_name come from
 * measure_travel.h. */

/* bone_channels property bits, output in this order. */
enum {
    ANIM_CHANNEL_TRANSLATION = 1u << 0,
    ANIM_CHANNEL_ROTATION = 1u << 1,
    ANIM_CHANNEL_SCALE = 1u << 2
};

typedef struct anim_bone_channels {
    uint32_t bone_index;
    const char *bone_name;
    unsigned properties;        /* ANIM_CHANNEL_* bits, never 0 */
} anim_bone_channels;

typedef struct anim_rotation_range {
    const char *bone_name;
    double deg;                 /* f32-rounded degrees, >= 0.1 */
} anim_rotation_range;

typedef struct anim_clip_measurements {
    const char *name;
    double duration_s;
    uint32_t frame_count;
    const char **animated_bones;        /* sorted byte-wise, unique */
    uint32_t animated_bone_count;
    anim_bone_channels *bone_channels;  /* ascending bone index */
    uint32_t bone_channel_count;
    anim_rotation_range *rotation_ranges; /* sorted by bone name */
    uint32_t rotation_range_count;

    anim_availability loop_continuity;
    anim_availability loop_endpoint_mode;
    anim_availability frame_grid;
    double frame_grid_fps;              /* when frame_grid is MEASURED */
    uint64_t frame_grid_intervals;
    anim_availability loop_seam_ratio;
    anim_availability gait;
    /* root_trajectory is decided here only when its selection is known
     * and the clip has no metric grid: MEASURED with both nested domains
     * unavailable (spec 3.10), or NOT_APPLICABLE without Root/Hips. */
    anim_availability root_trajectory;
    uint32_t root_bone_index;
    const char *root_bone_name;
    const char *root_source_role;       /* "root" or "hips_fallback" */
    anim_availability speed_mps;
} anim_clip_measurements;

typedef struct anim_measurements {
    anim_clip_measurements *clips;      /* sorted byte-wise by name, unique */
    uint32_t clip_count;
    /* Static asset evidence (spec 3.13) is the next issue. Mesh-less
     * documents get the fully determined mesh_definitions: [],
     * node_instances: [] and scene rows with zero instances; documents
     * with meshes leave those three fields (and default_scene_index) out.
     * Skeleton and material domains are reported "unavailable" with empty
     * tables, which the contract allows. */
    bool has_mesh_domain;
    uint32_t scene_count;
    const char **scene_names;           /* NULL entries when unnamed */
    uint32_t default_scene;             /* ANIM_NONE when absent */
} anim_measurements;

/* Measures every clip of doc. rig supplies the resolved roles; cfg (NULL
 * for built-in defaults) the per-clip expectations (loop, fps). All output
 * lives in arena. Returns 0, or -1 with err set (out of memory). */
int anim_measure_document(const anim_doc *doc, const anim_rig_resolution *rig,
                          const anim_config *cfg, anim_arena *arena, anim_measurements *out,
                          anim_error *err);

/* Writes the measurements-v18 object as the writer's next value. Fails
 * (err names the field, as spec 3.12: "measurement value {path} must be
 * finite") when a value that must be finite is not; nothing is a partial
 * success, the caller discards the buffer. */
int anim_measurements_write_json(const anim_measurements *m, anim_json_writer *w,
                                 anim_error *err);

#ifdef __cplusplus
}
#endif
#endif
