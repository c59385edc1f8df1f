/* Measurements (docs/measurements.md): the measurements-v18 object that
 * `measure` prints and `lint` embeds under files[].measurements.
 *
 * Per clip: duration_s, frame_count, animated_bones, bone_channels,
 * bone_rotation_range_deg and frame_grid from the authored keys;
 * loop_continuity, loop_endpoint_mode, loop_seam_ratio and gait
 * (measure_loop.h) and root_trajectory and speed_mps (measure_travel.h)
 * on the clip's metric grid, each optional fact with its availability.
 * anim_measure_asset_document adds the static asset evidence
 * (measure_asset.h); a bare document gets the minimal static fields
 * described below. */
#ifndef ANIMSMITH_MEASURE_H
#define ANIMSMITH_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/availability.h"
#include "animsmith/config.h"
#include "animsmith/doc.h"
#include "animsmith/error.h"
#include "animsmith/gltf.h"
#include "animsmith/json_write.h"
#include "animsmith/measure_asset.h"
#include "animsmith/measure_travel.h"
#include "animsmith/rig.h"
#include "animsmith/sample.h"
#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* measure_loop.h includes this header, so its records are referred to by
 * tag here (include measure_loop.h to use them). */
struct anim_loop_continuity;
struct anim_loop_endpoint;
struct anim_foot_cycle;

#define ANIM_MEASUREMENTS_SCHEMA_VERSION 18
#define ANIM_MEASUREMENTS_SCHEMA "urn:animsmith:schema:measurements:18"

/* Rotation ranges below this are not recorded. */
#define ANIM_MIN_RECORDED_ROTATION_DEG 0.1


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

    /* Availability of each optional fact. The loop and
     * foot-cycle records below carry the values; the availabilities are
     * mirrored here for callers that only need the status. */
    anim_availability loop_continuity;
    anim_availability loop_endpoint_mode;
    anim_availability frame_grid;
    double frame_grid_fps;              /* when frame_grid is MEASURED */
    uint64_t frame_grid_intervals;
    anim_availability loop_seam_ratio;
    anim_availability gait;
    anim_availability root_trajectory;  /* == trajectory.availability */
    anim_availability speed_mps;        /* == speed.availability */

    /* Loop and foot-cycle records (measure_loop.h), in the arena;
     * NULL when not computed (their availabilities above then decide). */
    const struct anim_loop_continuity *loop;
    const struct anim_loop_endpoint *endpoint;
    const struct anim_foot_cycle *foot_cycle;

    /* Root trajectory and speed (measure_travel.h). */
    anim_root_trajectory trajectory;
    anim_root_speed speed;
} anim_clip_measurements;

typedef struct anim_measurements {
    anim_clip_measurements *clips;      /* sorted byte-wise by name, unique */
    uint32_t clip_count;
    /* Without the full static evidence (asset below), mesh-less
     * documents get the fully determined mesh_definitions: [],
     * node_instances: [] and scene rows with zero instances; documents
     * with meshes leave those three fields (and default_scene_index) out.
     * Skeleton and material domains are reported "unavailable" with empty
     * tables, which the contract allows. */
    bool has_mesh_domain;
    uint32_t scene_count;
    const char **scene_names;           /* NULL entries when unnamed */
    uint32_t default_scene;             /* ANIM_NONE when absent */
    /* The full static evidence (measure_asset.h) when measured
     * from a loaded asset (anim_measure_asset_document); it then replaces
     * the minimal fields above in the JSON. NULL for a bare document. */
    const anim_asset_measurements *asset;
} anim_measurements;

/* Measures every clip of doc. rig supplies the resolved roles; cfg (NULL
 * for built-in defaults) the per-clip expectations (loop, fps). All output
 * lives in arena. Each clip's metric grid is built, sampled and released
 * before the next one. Returns 0, or -1 with err set (out of memory). */
int anim_measure_document(const anim_doc *doc, const anim_rig_resolution *rig,
                          const anim_config *cfg, anim_arena *arena, anim_measurements *out,
                          anim_error *err);

/* anim_measure_document on asset->doc plus the static asset evidence
 * (anim_measure_asset) of the loaded file: what `measure` and `lint`
 * print. */
int anim_measure_asset_document(const anim_asset *asset, const anim_rig_resolution *rig,
                                const anim_config *cfg, anim_arena *arena,
                                anim_measurements *out, anim_error *err);

/* ---- clip-by-clip measurement ----
 *
 * The same result as anim_measure_document, fed one clip at a time by a
 * caller that already has each clip's metric grid in hand (a lint run), so
 * no grid is sampled twice and only one need be alive:
 *
 *   anim_measure_collector mc;
 *   anim_measure_begin(doc, arena, &mc, &m, err);
 *   for each clip c (any order):
 *       if (anim_measure_wants_clip(&mc, c))
 *           anim_measure_clip(&mc, c, rig, cfg, grid_of_c, err);
 *   anim_measure_end(&mc, asset_or_NULL, err);
 *
 * out->clips is sorted by name, one row per name (the last clip of a name
 * wins), exactly as anim_measure_document. A clip that is never fed keeps
 * a zeroed row, so every wanted clip must be. */
typedef struct anim_measure_collector {
    const anim_doc *doc;
    anim_arena *arena;
    anim_measurements *out;
    uint32_t *row_of;       /* per clip: its row in out->clips, or ANIM_NONE */
    unsigned *props_;       /* per-bone scratch (private) */
    double *range_;
} anim_measure_collector;

/* Prepares out (clip rows sorted by name, scenes) for doc. Returns 0, or
 * -1 with err set. */
int anim_measure_begin(const anim_doc *doc, anim_arena *arena, anim_measure_collector *mc,
                       anim_measurements *out, anim_error *err);

/* A collector for another thread feeding clips of the same measurements
 * (a parallel lint clip pass): it writes the same rows as parent, each
 * clip only its own, but allocates in arena and has its own scratch, so
 * collectors fed distinct clips may run at once. arena must live as long
 * as the measurements; parent is completed with anim_measure_end once
 * every collector is done. Returns 0, or -1 with err set. */
int anim_measure_fork(const anim_measure_collector *parent, anim_arena *arena,
                      anim_measure_collector *child, anim_error *err);

/* Keys within this many frames of a whole frame sit on the frame grid. */
#define ANIM_FRAME_GRID_TOLERANCE 0.1

/* The declared frame grid of frame_grid and the sync-group check: fps is
 * finite and positive, the duration finite and positive and within the
 * tolerance of a whole number of frames (at most 2^32 - 1, its rounded
 * value in *intervals), and every key of every bone track within the
 * tolerance of a frame. *intervals is set only when true. */
bool anim_clip_on_frame_grid(const anim_clip *clip, double fps, uint64_t *intervals);

/* Whether clip has a row of its own (false for a clip a later clip of the
 * same name replaces, and out of range). */
bool anim_measure_wants_clip(const anim_measure_collector *mc, uint32_t clip);

/* Measures one clip into its row; grid is the clip's metric grid, NULL
 * when it has none (or it could not be built). A clip without a row of its
 * own is ignored. Returns 0, or -1 with err set (out of memory). */
int anim_measure_clip(anim_measure_collector *mc, uint32_t clip, const anim_rig_resolution *rig,
                      const anim_config *cfg, const anim_metric_grid *grid, anim_error *err);

/* Sampled facts of the clip a caller already derived on the same grid
 * with the same rig and contract (a lint run's per-clip facts); NULL
 * members are computed by anim_measure_clip_with as anim_measure_clip
 * does. foot_cycle must use anim_foot_cycle_min_stride(cfg). The loop
 * rows are copied into the collector's arena. */
typedef struct anim_measure_clip_facts {
    const struct anim_loop_continuity *loop;
    const struct anim_loop_endpoint *endpoint;
    const struct anim_foot_cycle *foot_cycle;
    const anim_root_speed *speed;
} anim_measure_clip_facts;

/* anim_measure_clip reusing facts (may be NULL). */
int anim_measure_clip_with(anim_measure_collector *mc, uint32_t clip,
                           const anim_rig_resolution *rig, const anim_config *cfg,
                           const anim_metric_grid *grid, const anim_measure_clip_facts *facts,
                           anim_error *err);

/* Completes the measurements: with asset, adds its static evidence
 * (anim_measure_asset) as anim_measure_asset_document does. Returns 0, or
 * -1 with err set. */
int anim_measure_end(anim_measure_collector *mc, const anim_asset *asset, anim_error *err);

/* Writes the measurements-v18 object as the writer's next value. Fails
 * (err names the field: "measurement value {path} must be finite") when
 * a value that must be finite is not; nothing is a partial success, the
 * caller discards the buffer. */
int anim_measurements_write_json(const anim_measurements *m, anim_json_writer *w,
                                 anim_error *err);

/* ---- `measure` output ---- */

struct anim_tool_info; /* report.h */

/* One measured file: identity, roles and measurements. */
typedef struct anim_measure_file {
    const char *path;               /* the argument as given */
    const char *sha256_hex;         /* lowercase hex of the file bytes */
    uint64_t bytes;
    const anim_doc *doc;
    const anim_rig_resolution *rig;
    const anim_measurements *measurements;
} anim_measure_file;

/* The output-v19 measure envelope (schema, tool, command "measure",
 * summary {files}, files [{path, input, rig, measurements}]),
 * pretty-printed, followed by "\n". Fails (err set; out holds partial
 * content the caller discards) on a measurement the output contract
 * rejects (non-finite value) or on allocation failure. */
int anim_render_measure_json(const anim_measure_file *files, size_t n,
                             const struct anim_tool_info *tool, anim_strbuf *out, anim_error *err);

/* The text view: per file "{path}:", one line per clip (sorted
 * by name) with the optional endpoint/grid/loop/seam/gait/root parts, then
 * the static asset lines. Allocation failure is sticky in out->failed. */
void anim_render_measure_text(const anim_measure_file *files, size_t n, anim_strbuf *out);

#ifdef __cplusplus
}
#endif
#endif
