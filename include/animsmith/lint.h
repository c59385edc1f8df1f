/* The lint run: a registry of checks (one file per check under
 * src/checks/), and the evaluation lifecycle of every check: each check
 * record carries selection, configuration, applicability and evaluation,
 * its content findings, the scopes it completed and typed coverage gaps.
 * A check that lacks evidence says so as a gap instead of guessing; gaps
 * never fail a run. */
#ifndef ANIMSMITH_LINT_H
#define ANIMSMITH_LINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/config.h"
#include "animsmith/error.h"
#include "animsmith/gltf.h"
#include "animsmith/measure_loop.h"
#include "animsmith/measure_travel.h"
#include "animsmith/rig.h"
#include "animsmith/sample.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { ANIM_VALUE_NONE = 0, ANIM_VALUE_NUMBER, ANIM_VALUE_TEXT } anim_value_kind;

/* measured / expected of a finding: a number or a text, or absent. */
typedef struct {
    anim_value_kind kind;
    double number;
    const char *text;
} anim_value;

anim_value anim_value_number(double v); /* non-finite numbers become NONE */
anim_value anim_value_text(const char *s);
static inline anim_value anim_value_none(void)
{
    anim_value v = {ANIM_VALUE_NONE, 0.0, NULL};
    return v;
}

/* One measurement of a group member row (gait-group, sync-group). */
typedef struct {
    const char *key;
    anim_value value;
} anim_member_measurement;

typedef struct {
    const char *member;
    anim_member_measurement *measurements; /* sorted by key */
    uint32_t measurement_count;
} anim_member_row;

typedef struct anim_finding {
    const char *check_id;
    anim_severity severity; /* NOTE, WARNING or ERROR */
    bool has_time;          /* (next to severity: a library can hold 10^5 findings) */
    const char *clip;       /* NULL when absent */
    const char *bone;
    const char *node;
    double time_s;          /* an f32 value widened */
    anim_value measured;
    anim_value expected;
    anim_member_row *members;
    uint32_t member_count;
    /* On a prediction-bearing check: the available facet the finding binds
     * to (its scope code and subject); NULL otherwise. */
    const char *prediction_scope_code;
    const char *prediction_scope_subject;
    const char *message;
} anim_finding;

typedef struct {
    const char *code;       /* e.g. "first_frame_rest_delta" */
    const char *subject;    /* NULL when absent (e.g. the clip name) */
} anim_scope;

typedef struct {
    const char *code;       /* e.g. "insufficient_rotation_evidence" */
    const char *message;
    bool has_scope;
    anim_scope scope;
} anim_gap;

/* Engine prediction facets (engine-backed checks only). A facet is keyed
 * by an evaluation scope and is exactly available (a typed machine result
 * over a nonempty basis) or required_prediction_unavailable (one or more
 * stable reason codes, keeping any basis prefix). Facets are neither
 * findings nor coverage gaps: an available facet's scope is also an
 * evaluated scope; an unavailable one is in neither, makes lint exit 1 and
 * is never suppressed by severity or --allow. */
typedef enum {
    ANIM_FACET_AVAILABLE = 0,
    ANIM_FACET_REQUIRED_UNAVAILABLE
} anim_facet_state;

const char *anim_facet_state_name(anim_facet_state s); /* "available", ... */

/* A typed scalar of a result or basis row. */
typedef enum {
    ANIM_FIELD_NULL = 0,
    ANIM_FIELD_TEXT,
    ANIM_FIELD_NUMBER,   /* f64 */
    ANIM_FIELD_INT,      /* exact integer (indices, KTime ticks) */
    ANIM_FIELD_BOOL
} anim_field_kind;

typedef struct {
    const char *key;
    anim_field_kind kind;
    const char *text;
    double number;
    int64_t integer;
    bool boolean;
} anim_field;

static inline anim_field anim_field_text(const char *key, const char *s)
{
    anim_field f = {key, s ? ANIM_FIELD_TEXT : ANIM_FIELD_NULL, s, 0.0, 0, false};
    return f;
}
static inline anim_field anim_field_int(const char *key, int64_t v)
{
    anim_field f = {key, ANIM_FIELD_INT, NULL, 0.0, v, false};
    return f;
}
static inline anim_field anim_field_number(const char *key, double v)
{
    anim_field f = {key, ANIM_FIELD_NUMBER, NULL, v, 0, false};
    return f;
}
static inline anim_field anim_field_bool(const char *key, bool v)
{
    anim_field f = {key, ANIM_FIELD_BOOL, NULL, 0.0, 0, v};
    return f;
}

/* What a basis row refers to: a closed set of typed references. */
typedef enum {
    ANIM_BASIS_PROFILE_FACT = 0, /* ref: the fact's name in the frozen profile */
    ANIM_BASIS_SETTING,          /* ref: setting key ("clip/<name>/<key>" for clip scope) */
    ANIM_BASIS_CONFIG,           /* ref: config path ("clips.walk.movement_owner_xz") */
    ANIM_BASIS_RAW_SOURCE,       /* ref: JSON pointer into the source ("/animations/0") */
    ANIM_BASIS_MEASUREMENT,      /* ref: JSON pointer into measurements */
    ANIM_BASIS_PRIMARY_SOURCE    /* ref: "sha256" and the like */
} anim_basis_kind;

const char *anim_basis_kind_name(anim_basis_kind k); /* "profile_fact", ... */

typedef struct {
    anim_basis_kind kind;
    anim_field value;            /* value.key is the ref */
} anim_basis_row;

typedef struct anim_prediction_facet {
    anim_scope scope;            /* code, optional subject ("Animation0") */
    anim_facet_state state;
    const char *result_kind;     /* available: "animation_asset_label", ... */
    const anim_field *result;    /* available: the result's fields, in order */
    uint32_t result_count;
    const anim_basis_row *basis;
    uint32_t basis_count;
    const char *const *reasons;  /* unavailable: stable reason codes */
    uint32_t reason_count;
} anim_prediction_facet;

/* The per-file facet budget every engine-backed check shares. When a check
 * would pass it, the facets beyond it are omitted and the record ends with
 * one subjectless `facet_budget` facet whose reason is
 * `facet_budget_exceeded` (one slot is kept for it). */
#define ANIM_FACET_BUDGET 4096u

typedef enum {
    ANIM_EVAL_NOT_EVALUATED = 0,
    ANIM_EVAL_PARTIAL,
    ANIM_EVAL_COMPLETE
} anim_evaluation;

const char *anim_evaluation_name(anim_evaluation e); /* "complete", ... */

/* The findings, scopes and gaps arrays are heap blocks the record owns
 * (anim_lint_file_free releases them); their strings live in the run's
 * arena, and a string equal to the previous finding's is shared. */
typedef struct anim_check_record {
    const char *check_id;
    bool selected;
    bool enabled;
    bool applicable;
    anim_evaluation evaluation;
    anim_finding *findings;
    uint32_t finding_count, finding_cap;
    anim_scope *scopes;     /* evaluated scopes, emission order */
    uint32_t scope_count, scope_cap;
    anim_gap *gaps;
    uint32_t gap_count, gap_cap;
    /* Engine-backed checks: the prediction object (schema identity of the
     * profile, facets in emission order; their contents live in the run's
     * arena). prediction_schema is NULL for every other check. */
    const char *prediction_schema;
    anim_prediction_facet *facets;
    uint32_t facet_count, facet_cap;
    uint32_t facets_omitted;     /* beyond the budget (see ANIM_FACET_BUDGET) */
} anim_check_record;

/* What a check sees: the loaded asset, the contract, the resolved roles,
 * per-clip merged expectations and the metric grid of the clip in hand.
 *
 * A run keeps at most one clip's metric grid alive per clip worker (the
 * memory bound of a clip library is one asset plus one grid per worker;
 * one worker unless anim_lint_run_parallel). It goes clip-major: for each
 * clip in index order every per-clip check judges that clip alone
 * (pass_clip), then the grid is released; whole-document checks run after
 * that. Records are per check, so each record still lists its findings in
 * clip order. */
typedef struct anim_lint_context {
    const anim_asset *asset;
    const anim_doc *doc;
    const anim_config *config;
    const anim_rig_resolution *rig;
    const anim_clip_expect *expect; /* doc->clip_count entries */
    anim_arena *arena;              /* findings, messages: freed with the result */
    /* The clip the current pass judges; ANIM_NONE outside the clip pass
     * (a per-clip check then judges every clip). Read it through
     * anim_lint_pass_begin / anim_lint_pass_end. */
    uint32_t pass_clip;
    /* Working memory that lives for one clip of the pass (or one
     * whole-document check): intermediate rows a check does not keep. */
    anim_arena *scratch;
    /* The one cached metric grid (see anim_lint_grid). */
    anim_metric_grid grid;
    uint32_t grid_clip;             /* ANIM_NONE: nothing cached */
    bool grid_built;                /* false: grid_clip has no grid */
    anim_grid_memory grid_memory;   /* the released grid's block, for the next clip */
    /* Per-clip facts the group checks gather during the clip pass
     * (src/checks/group_util.c); NULL until first used. */
    void *group_facts;
    /* The current clip's derived facts (src/lint/clip_facts.c), shared by
     * the checks, the group gathers and clip_done; NULL until first used.
     * Read them through anim_lint_loop_continuity and its siblings. */
    void *clip_facts;
    /* The clip worker this context belongs to, in [0, workers) of
     * anim_lint_parallel; 0 outside a parallel clip pass. Each worker has
     * its own context (grid, scratch, clip facts, arena), so a clip_done
     * hook keeps its per-worker state by this index. */
    uint32_t worker;
    /* A memo of the per-track analyses several checks share (the vec3
     * trajectory of src/checks/vec3_trajectory.c), in the scratch arena:
     * dropped with the clip facts whenever the scratch goes. */
    void *check_memo;
    /* The engine profile's same-load facts (animsmith/engine.h), NULL when
     * the config selects no profile. */
    const struct anim_engine_run *engine;
    /* Facets every engine-backed check of this file may still record. */
    uint32_t facet_budget_left;
} anim_lint_context;

/* The clip's metric grid, or NULL when the clip has none (duration 0 or
 * fewer than 3 keys) or it could not be built. Only the most recently
 * requested clip's grid is kept: asking for another clip releases it, so
 * a caller must not hold the pointer across a request for another clip.
 * During the clip pass only the pass clip may be requested. */
const anim_metric_grid *anim_lint_grid(anim_lint_context *ctx, uint32_t clip);

/* Per-clip facts, each derived at most once per clip from the clip's
 * metric grid (anim_lint_grid) and shared by every check, group gather and
 * the clip_done measurement that asks for it. The facts of one clip are
 * kept until another clip is asked for or the scratch arena is reset
 * (next clip of the pass, next whole-document check). Each call copies
 * the fact into *out; the values are exactly what the underlying measure
 * function returns for the same arguments (without memory for the cache,
 * it is simply computed again). */

/* anim_loop_continuity_compute on the clip's grid; the rows live in
 * ctx->scratch (ctx->arena without one) until the scratch is reset.
 * Returns 0, or -1 with err set. */
int anim_lint_loop_continuity(anim_lint_context *ctx, uint32_t clip, anim_loop_continuity *out,
                              anim_error *err);

/* anim_dup_endpoint_analyze of the clip: returns its result (0, or -1 when
 * the analysis errors, with the analysis's error text in *analysis_err). */
int anim_lint_dup_endpoint(anim_lint_context *ctx, uint32_t clip, anim_dup_endpoint *out,
                           anim_error *analysis_err);

/* anim_loop_endpoint_mode_compute of the clip with ctx->config and the
 * clip's merged expectation, on the shared loop continuity and 9.4
 * analysis. Returns 0, or -1 with err set (out of memory). */
int anim_lint_loop_endpoint(anim_lint_context *ctx, uint32_t clip, anim_loop_endpoint *out,
                            anim_error *err);

/* anim_foot_cycle_compute on the clip's grid with ctx->rig and the given
 * stride floor (one result kept per floor value). */
void anim_lint_foot_cycle(anim_lint_context *ctx, uint32_t clip, double min_stride_step_m,
                          anim_foot_cycle *out);

/* anim_root_speed_measure on the clip's grid with ctx->rig. */
void anim_lint_root_speed(anim_lint_context *ctx, uint32_t clip, anim_root_speed *out);

/* The clips a per-clip check judges in this call, [begin, end): the pass
 * clip alone during the clip pass, otherwise every clip. */
uint32_t anim_lint_pass_begin(const anim_lint_context *ctx);
uint32_t anim_lint_pass_end(const anim_lint_context *ctx);

typedef struct anim_check_def {
    const char *id;
    anim_severity default_severity; /* the most severe it emits by default */
    bool opt_in;                    /* disabled unless a severity is configured */
    /* Per-clip checks judge each clip independently of the others: the
     * run calls them once per clip, in clip order, with pass_clip set.
     * Whole-document checks (per_clip false) are called once. */
    bool per_clip;
    bool (*applicable)(const anim_lint_context *ctx);
    /* NULL for catalog entries whose evaluation has not landed yet: such a
     * check reports one gap `check_unavailable` when it applies. */
    int (*run)(anim_lint_context *ctx, anim_check_record *rec, anim_error *err);
    /* Optional, whole-document checks only: called for each clip during
     * the clip pass (while its grid may be sampled) to keep the small
     * per-clip facts run() will need, so no grid is built twice. */
    int (*gather)(anim_lint_context *ctx, uint32_t clip, anim_error *err);
} anim_check_def;

/* The catalog, in docs/checks.md order (also the order of checks[] in
 * JSON and the tie order of text output). */
size_t anim_check_count(void);
const anim_check_def *anim_check_at(size_t index);
const anim_check_def *anim_check_find(const char *id);

/* Recording from inside a check (strings are copied into ctx->arena;
 * message is printf-formatted). Return 0, or -1 on allocation failure. */
#if defined(__GNUC__)
#define ANIM_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define ANIM_PRINTF(a, b)
#endif
typedef struct {
    anim_severity severity;
    const char *clip, *bone, *node;
    bool has_time;
    double time_s;
    anim_value measured, expected;
    anim_member_row *members;
    uint32_t member_count;
    const char *prediction_scope_code, *prediction_scope_subject;
} anim_finding_fields;

int anim_check_finding(anim_lint_context *ctx, anim_check_record *rec,
                       const anim_finding_fields *f, const char *fmt, ...) ANIM_PRINTF(4, 5);
int anim_check_scope(anim_lint_context *ctx, anim_check_record *rec, const char *code,
                     const char *subject);
int anim_check_gap(anim_lint_context *ctx, anim_check_record *rec, const char *code,
                   const char *scope_code, const char *scope_subject, const char *fmt, ...)
    ANIM_PRINTF(6, 7);

/* Records one prediction facet (copied into ctx->arena, so the caller may
 * build it on the stack) and marks the record prediction-bearing with the
 * profile's prediction schema. An available facet's scope is also added to
 * the evaluated scopes. Past the shared budget the facet is counted in
 * facets_omitted instead. Returns 0, or -1 on allocation failure. */
int anim_check_facet(anim_lint_context *ctx, anim_check_record *rec,
                     const anim_prediction_facet *facet);
/* A required_prediction_unavailable facet with one reason and no basis. */
int anim_check_facet_unavailable(anim_lint_context *ctx, anim_check_record *rec,
                                 const char *scope_code, const char *scope_subject,
                                 const char *reason);
/* Facet counts of a record: available and required-unavailable. */
void anim_check_facet_counts(const anim_check_record *rec, uint32_t *available,
                             uint32_t *unavailable);

/* One clip worker's share of a parallel clip pass (anim_lint_parallel). */
typedef void (*anim_lint_task)(uint32_t worker, void *arg);

/* Which checks run: --select (NULL = all). */
typedef struct anim_lint_options {
    const char *const *select;
    size_t select_count;
    /* Called after the per-clip checks of each clip, in clip order (from
     * the clip workers in a parallel pass, see anim_lint_parallel), while
     * that clip's grid can still be had through anim_lint_grid(ctx, clip)
     * without sampling again (measurements). Non-zero fails the run. */
    int (*clip_done)(anim_lint_context *ctx, uint32_t clip, void *user, anim_error *err);
    /* Called once every check has run and every record is final (no grid
     * is alive then). Non-zero fails the run. */
    int (*finish)(anim_lint_context *ctx, void *user, anim_error *err);
    void *user;                     /* passed to clip_done and finish */
} anim_lint_options;

/* One file's lint result. */
typedef struct anim_lint_file {
    const char *path;
    uint64_t byte_count;
    char sha256_hex[65];
    anim_rig_resolution rig;
    anim_check_record *records; /* anim_check_count() entries, catalog order */
    size_t record_count;
    anim_arena *arena;
    /* The arenas of the extra clip workers of a parallel clip pass (their
     * findings' strings live there); freed with the result. */
    anim_arena **worker_arenas;
    uint32_t worker_arena_count;
    /* The engine profile's same-load facts (in arena), NULL without one:
     * lint JSON writes them as prediction_provenance. */
    const struct anim_engine_run *engine;
} anim_lint_file;

/* Runs every check over one loaded asset. The result owns its arena. */
int anim_lint_run(const anim_asset *asset, const anim_config *cfg,
                  const anim_lint_options *opts, anim_lint_file *out, anim_error *err);

/* A parallel clip pass: the clips of the file are judged by up to
 * `workers` clip workers, each with its own context, grid, scratch and
 * arena; each clip's findings are kept apart and appended in clip order
 * afterwards, so every record (and the error of a failing run: that of the
 * lowest failing clip) is exactly what one worker produces. clip_done is
 * then called from the workers, for several clips at once and in no set
 * order, with ctx->worker naming the worker. The whole-document checks and
 * finish still run on the caller's thread. The library starts no thread:
 * spawn runs task(w, arg) for every w in [0, count) -- concurrently, or
 * one after another, any schedule gives the same result -- and returns
 * once all have returned. */
typedef struct anim_lint_parallel {
    uint32_t workers;
    void (*spawn)(uint32_t count, anim_lint_task task, void *arg);
} anim_lint_parallel;

/* anim_lint_run with a parallel clip pass (par NULL, workers <= 1 or
 * spawn NULL: on the caller's thread alone). */
int anim_lint_run_parallel(const anim_asset *asset, const anim_config *cfg,
                           const anim_lint_options *opts, const anim_lint_parallel *par,
                           anim_lint_file *out, anim_error *err);
void anim_lint_file_free(anim_lint_file *file);

/* Shared role gaps (roles_unresolved, naming the rig profile). */
int anim_check_gap_root_motion_roles(anim_lint_context *ctx, anim_check_record *rec,
                                     const char *scope_code, const char *subject);
int anim_check_gap_gait_roles(anim_lint_context *ctx, anim_check_record *rec,
                              const char *scope_code, const char *subject);

/* The model engine's GLB verifier (anim_model_verify_fn of model.h): loads
 * the GLB from memory and runs the default (empty) configuration, i.e.
 * the mechanical checks. 1 with the first error-severity finding as one
 * JSON object in finding ({check, severity, message, clip?, bone?, node?,
 * time?}), 0 when none, -1 with err set when it could not run
 * (src/lint/model_verify.c). */
int anim_lint_verify_glb(const void *glb, size_t len, void *user, anim_strbuf *finding,
                         anim_error *err);

#ifdef __cplusplus
}
#endif
#endif
