/* Loop and foot-cycle clip measurements, the loop-closure caps and the
 * authored-key duplicate-endpoint analysis.
 *
 *   loop_continuity     per-bone C0/C1 seam facts, no roles needed
 *   loop_endpoint_mode  duplicate_endpoint / unique_cycle / non_closing for
 *                       declared loops, on top of the authored-key
 *                       duplicate-endpoint analysis
 *   foot cycle          feet-relative-to-hips seam ratio and gait phase /
 *                       left-right amplitude
 *
 * Everything here is a pure function of (document, clip, metric grid,
 * roles, merged clip expectations, config) into plain structs that carry
 * explicit availabilities, so `measure` writes them and the lint checks
 * (loop-closure, loop-seam, loop-seam-vel, loop-seam-rot,
 * duplicate-loop-endpoint, gait-group, time-complement, sync-group) judge
 * the very same numbers. Values are computed in f64 (authored f32 widened);
 * the only f32 step kept is the cap comparison rule "(f32)measured >
 * (f32)cap" (anim_loop_exceeds_cap), which decides outcomes.
 *
 * The JSON writers emit key/value pairs into the clip object the caller
 * has open, in the measurements object's per-clip field order; each
 * pair's availability key is always written, the value key only when
 * measured. */
#ifndef ANIMSMITH_MEASURE_LOOP_H
#define ANIMSMITH_MEASURE_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/availability.h"
#include "animsmith/config.h"
#include "animsmith/doc.h"
#include "animsmith/error.h"
#include "animsmith/json_write.h"
#include "animsmith/measure.h"
#include "animsmith/rig.h"
#include "animsmith/sample.h"
#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Loop continuity (per-bone rows)                                    */
/* ------------------------------------------------------------------ */

/* One skeleton bone's seam facts. A row is MEASURED (all four numbers
 * finite and >= 0) or UNAVAILABLE (non-finite or zero-length model
 * position/rotation at frames 0, 1, N-2 or N-1, or a non-finite result;
 * the numbers are then 0 and must not be used). One bone's bad evidence
 * does not suppress the other bones' rows: each row carries its own
 * availability. */
typedef struct anim_loop_bone {
    uint32_t bone_index;
    const char *bone_name;
    anim_availability availability;
    double position_delta_m;                 /* |P[N-1] - P[0]| (C0) */
    double rotation_delta_deg;               /* shortest arc Q[0]->Q[N-1], [0, 180] */
    double seam_velocity_delta_mps;          /* |v_out - v_in| (C1) */
    double seam_angular_velocity_delta_degps; /* |w_out - w_in| in deg/s */
} anim_loop_bone;

typedef struct anim_loop_continuity {
    /* NOT_APPLICABLE: the skeleton has no bones. UNAVAILABLE: no metric
     * grid (or grid == NULL), or the first / last grid step is not finite
     * and > 0. MEASURED: bones[] has one row per skeleton bone, skeleton
     * order (row i is bone i), possibly with UNAVAILABLE rows. */
    anim_availability availability;
    anim_loop_bone *bones;          /* arena; NULL unless MEASURED */
    uint32_t bone_count;
    uint32_t measured_bone_count;   /* rows with availability MEASURED */
    double time_s;                  /* last grid time (seam time), when MEASURED */
} anim_loop_continuity;

/* Computes loop_continuity of one clip from its metric grid (grid NULL or
 * with fewer than 3 frames = "no metric grid"). Rows live in arena.
 * Returns 0 (out filled, any availability), or -1 with err set (out of
 * memory, NULL arguments, grid bone count != doc bone count). */
int anim_loop_continuity_compute(const anim_doc *doc, const anim_metric_grid *grid,
                                 anim_arena *arena, anim_loop_continuity *out, anim_error *err);

/* Which seam quantity a lint check judges. */
typedef enum {
    ANIM_LOOP_POSITION = 0,        /* position_delta_m: loop-closure */
    ANIM_LOOP_ROTATION,            /* rotation_delta_deg: loop-closure */
    ANIM_LOOP_VELOCITY,            /* seam_velocity_delta_mps: loop-seam-vel */
    ANIM_LOOP_ANGULAR_VELOCITY,    /* seam_angular_velocity_delta_degps: loop-seam-rot */
    ANIM_LOOP_METRIC_COUNT
} anim_loop_metric;

/* The row's value of metric m. */
double anim_loop_bone_metric(const anim_loop_bone *row, anim_loop_metric m);

/* Index (into bones[], == bone index) of the MEASURED row with the largest
 * value of m, ties to the LAST such row (the row loop-closure,
 * loop-seam-vel and loop-seam-rot report);
 * ANIM_NONE when lc is not MEASURED or no row is measured. */
uint32_t anim_loop_continuity_worst(const anim_loop_continuity *lc, anim_loop_metric m);

/* Maximum of m over MEASURED rows, starting at 0.0 (measure text's
 * "loop Δp=… Δr=… Δv=… Δω=…" maxima). */
double anim_loop_continuity_max(const anim_loop_continuity *lc, anim_loop_metric m);

/* The cap rule of the loop checks and loop_endpoint_mode: "exceeds" iff
 * (float)measured > (float)cap. */
bool anim_loop_exceeds_cap(double measured, double cap);

/* Writes `loop_continuity` ({bones: [{bone_index, bone_name, availability,
 * position_delta_m, rotation_delta_deg, seam_velocity_delta_mps,
 * seam_angular_velocity_delta_degps}]}, numbers only on measured rows)
 * when MEASURED, then `loop_continuity_availability`, as members of the
 * open clip object. clip_name names the path in errors. Fails (output
 * contract: "measurement value clips[\"NAME\"].loop_continuity.
 * bones[I].FIELD must be finite" / "measurement structure ... is invalid")
 * on a measured row with a non-finite or negative value, an empty bones
 * list, or a row whose bone_index is not its position; nothing is written
 * then. */
int anim_loop_continuity_write_json(const anim_loop_continuity *lc, const char *clip_name,
                                    anim_json_writer *w, anim_error *err);

/* ------------------------------------------------------------------ */
/* Loop-closure caps (shared by the loop checks)                      */
/* ------------------------------------------------------------------ */

typedef struct anim_loop_caps {
    double position_m;             /* max_loop_position_delta_m → [checks.loop-closure] max_position_delta_m → 0.01 */
    double rotation_deg;           /* max_loop_rotation_delta_deg → [checks.loop-closure] max_rotation_delta_deg → 1.0 */
    double velocity_mps;           /* max_loop_velocity_delta_mps → [checks.loop-seam-vel] max_velocity_delta_mps → 0.1 */
    double angular_velocity_degps; /* max_loop_angular_velocity_delta_degps → [checks.loop-seam-rot] … → 5.0 */
} anim_loop_caps;

/* Effective caps for one clip: the clip's merged expectation (ex, may be
 * NULL) wins over the [checks.*] setting of cfg (may be NULL = defaults). */
void anim_loop_caps_resolve(const anim_config *cfg, const anim_clip_expect *ex,
                            anim_loop_caps *out);

/* ------------------------------------------------------------------ */
/* Duplicate loop endpoint analysis and endpoint mode                 */
/* ------------------------------------------------------------------ */

/* Tolerances of the authored key match. */
#define ANIM_DUP_ENDPOINT_VEC_TOL 1e-5
#define ANIM_DUP_ENDPOINT_QUAT_TOL_RAD 1e-4

typedef struct anim_dup_endpoint {
    bool candidate;            /* a mechanically removable closing key run */
    uint32_t removed_keys;     /* n: closing keys per track (candidate only) */
    double duration_before;    /* clip duration (candidate only) */
    double duration_after;     /* (f64) times[keys - n - 1] of track 0 */
    /* Per-property maximum endpoint delta between key 0 and the last key
     * over the tracks of that property (candidate only); has_* false when
     * the clip has no track of that property (message prints "n/a"). */
    bool has_translation, has_rotation, has_scale;
    double translation_delta_m;  /* max |component difference| */
    double rotation_delta_rad;   /* shortest arc, radians */
    double scale_delta;          /* max |component difference| */
} anim_dup_endpoint;

/* Duplicate-endpoint analysis of the clip's authored keys (no sampling).
 * Returns 0 with out filled (candidate or not), or -1 when the analysis
 * errors: err (code ANIM_ERR_INVALID) then holds the analysis's error text, e.g.
 * "clip has no tracks", "track 1 timeline is not strictly increasing",
 * "track Some(0) contains a non-finite authored value" — the
 * duplicate-loop-endpoint check prints it after "authored endpoint
 * analysis unavailable: ". This is an analysis outcome, not a failure of
 * the program. */
int anim_dup_endpoint_analyze(const anim_clip *clip, anim_dup_endpoint *out, anim_error *err);

typedef enum {
    ANIM_LOOP_ENDPOINT_NONE = 0,       /* not measured */
    ANIM_LOOP_ENDPOINT_DUPLICATE,      /* "duplicate_endpoint" */
    ANIM_LOOP_ENDPOINT_UNIQUE_CYCLE,   /* "unique_cycle" */
    ANIM_LOOP_ENDPOINT_NON_CLOSING     /* "non_closing" */
} anim_loop_endpoint_mode;

/* "duplicate_endpoint", "unique_cycle", "non_closing"; NULL for NONE. */
const char *anim_loop_endpoint_mode_name(anim_loop_endpoint_mode mode);

typedef struct anim_loop_endpoint {
    /* NOT_APPLICABLE unless ex->loop is set and true; UNAVAILABLE when the
     * 9.4 analysis errors, or (no duplicate) loop continuity is not
     * MEASURED or any of its rows is UNAVAILABLE; else MEASURED. */
    anim_availability availability;
    anim_loop_endpoint_mode mode;      /* when MEASURED */
    anim_dup_endpoint analysis;        /* when the analysis ran without error */
    bool analysis_ok;
    char analysis_error[ANIM_ERROR_MESSAGE_MAX]; /* the 9.4 error text otherwise */
    anim_loop_caps caps;               /* the caps unique_cycle was judged with */
} anim_loop_endpoint;

/* loop_endpoint_mode for one clip. lc is the clip's loop continuity (from
 * anim_loop_continuity_compute); cfg/ex as for anim_loop_caps_resolve (ex
 * NULL = no expectations = not applicable). Never fails. */
void anim_loop_endpoint_mode_compute(const anim_clip *clip, const anim_loop_continuity *lc,
                                     const anim_config *cfg, const anim_clip_expect *ex,
                                     anim_loop_endpoint *out);

/* The same, given the clip's 9.4 analysis already run (analysis_rc,
 * *analysis and *analysis_err as anim_dup_endpoint_analyze left them), so
 * a caller holding the analysis (the lint run's per-clip facts) does not
 * run it twice. analysis and analysis_err are read only when ex declares
 * a loop. */
void anim_loop_endpoint_mode_from_analysis(const anim_loop_continuity *lc, const anim_config *cfg,
                                           const anim_clip_expect *ex, int analysis_rc,
                                           const anim_dup_endpoint *analysis,
                                           const anim_error *analysis_err,
                                           anim_loop_endpoint *out);

/* Writes `loop_endpoint_mode` (when MEASURED) and
 * `loop_endpoint_mode_availability` into the open clip object. */
void anim_loop_endpoint_mode_write_json(const anim_loop_endpoint *le, anim_json_writer *w);

/* ------------------------------------------------------------------ */
/* Foot-cycle metrics: loop_seam_ratio and gait                       */
/* ------------------------------------------------------------------ */

/* Built-in stride floor (gait-group / time-complement always use
 * it, loop-seam and measure use [checks.loop-seam] min_stride_step_m). */
#define ANIM_MIN_STRIDE_STEP_M 0.02

typedef enum {
    ANIM_FOOT_CYCLE_OK = 0,        /* metrics computed */
    ANIM_FOOT_CYCLE_NO_ROLES,      /* Hips or every foot/toe role unresolved */
    ANIM_FOOT_CYCLE_NO_GRID,       /* no metric grid (grid NULL or < 3 frames) */
    ANIM_FOOT_CYCLE_FAILED         /* non-finite hips/feet evidence, bad indices */
} anim_foot_cycle_status;

/* How the gait phase came out (the gait-group / time-complement gaps). */
typedef enum {
    ANIM_GAIT_PHASE_MEASURED = 0,
    ANIM_GAIT_PHASE_NOT_BILATERAL, /* a side has neither foot nor toe role */
    ANIM_GAIT_PHASE_NO_SWING,      /* lr_amplitude_m == 0 exactly */
    ANIM_GAIT_PHASE_FAILED         /* C < 2, non-finite signal or result */
} anim_gait_phase_outcome;

typedef struct anim_foot_cycle {
    anim_foot_cycle_status status;
    /* Seam evidence (status OK): footdist = max over foot bones of the
     * change of the foot's hips-relative position. */
    double seam_m;               /* footdist(N-1, 0): the wrap discontinuity */
    double step_first_m;         /* footdist(1, 0) */
    double step_last_m;          /* footdist(N-1, N-2) */
    double neighbour_step_m;     /* max(step_first, step_last) */
    double min_stride_step_m;    /* the floor used */
    bool has_real_stride;        /* neighbour_step > 0 and >= floor */
    bool has_ratio;
    double ratio;                /* seam / neighbour_step, when has_ratio */
    uint32_t seam_frame;         /* N-1: the wrap frame */
    double seam_time_s;          /* grid time of frame N-1 (clip duration) */
    /* Gait (status OK). */
    bool bilateral;              /* both sides have a foot or toe role */
    uint32_t cycle_frames;       /* C = N-1 if N > 3 else N */
    double lr_amplitude_m;       /* max - min of the L-R height signal; 0 unless bilateral */
    anim_gait_phase_outcome phase_outcome;
    double phase;                /* [0, 1), when phase_outcome == MEASURED */
    /* Availabilities of the measurement fields (3.8, 3.9; also set when
     * status is not OK). */
    anim_availability seam_ratio_availability;
    anim_availability gait_availability;
    anim_availability phase_availability; /* inside gait; when gait MEASURED */
} anim_foot_cycle;

/* Whether the foot-cycle role domain resolves: Hips and at least one of
 * LeftFoot / LeftToe / RightFoot / RightToe. rig may be NULL. */
bool anim_foot_cycle_roles(const anim_rig_resolution *rig);

/* Foot-cycle metrics of one clip. grid NULL = no metric grid.
 * min_stride_step_m: the loop-seam floor (anim_foot_cycle_min_stride(cfg)
 * for measure / loop-seam, ANIM_MIN_STRIDE_STEP_M for gait groups). Never
 * fails: every outcome is in out->status and the availabilities. */
void anim_foot_cycle_compute(const anim_doc *doc, const anim_metric_grid *grid,
                             const anim_rig_resolution *rig, double min_stride_step_m,
                             anim_foot_cycle *out);

/* [checks.loop-seam] min_stride_step_m, default 0.02 (cfg may be NULL). */
double anim_foot_cycle_min_stride(const anim_config *cfg);

/* Writes `loop_seam_ratio` (when MEASURED) and
 * `loop_seam_ratio_availability` into the open clip object. Fails on a
 * non-finite measured ratio ("measurement value clips[\"NAME\"].
 * loop_seam_ratio must be finite"); nothing is written then. */
int anim_loop_seam_ratio_write_json(const anim_foot_cycle *fc, const char *clip_name,
                                    anim_json_writer *w, anim_error *err);

/* Writes `gait` ({phase?, phase_availability, lr_amplitude_m}, when
 * MEASURED) and `gait_availability` into the open clip object. Fails on a
 * non-finite phase or amplitude; nothing is written then. */
int anim_gait_write_json(const anim_foot_cycle *fc, const char *clip_name, anim_json_writer *w,
                         anim_error *err);

/* ------------------------------------------------------------------ */
/* measure --format text fragments                                    */
/* ------------------------------------------------------------------ */

/* " endpoint={mode}" when MEASURED, else nothing. */
void anim_loop_endpoint_text(const anim_loop_endpoint *le, anim_strbuf *out);
/* " loop Δp={cm:.2}cm Δr={:.2}° Δv={:.3}m/s Δω={:.2}°/s" (maxima over
 * measured rows) when loop continuity has bones, else nothing. */
void anim_loop_continuity_text(const anim_loop_continuity *lc, anim_strbuf *out);
/* " seam×{ratio:.2}" when the ratio is measured, else nothing. */
void anim_loop_seam_ratio_text(const anim_foot_cycle *fc, anim_strbuf *out);
/* " gait φ={phase:.2} ({amp·100:.1}cm)" when a phase is present. */
void anim_gait_text(const anim_foot_cycle *fc, anim_strbuf *out);

#ifdef __cplusplus
}
#endif
#endif
