/* The project contract, animsmith.toml (docs/config.md): rig selection,
 * per-check settings, per-clip expectations by exact name or `*` glob,
 * gait and sync groups, runtime nodes, engine selection, transition
 * families. Loaded strictly: unknown tables and keys, wrong types and
 * out-of-domain numbers are errors that name the file, line and key;
 * nothing is linted with a bad contract. */
#ifndef ANIMSMITH_CONFIG_H
#define ANIMSMITH_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/rig.h"
#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Severity of a finding; ordered so that a larger value fails first. */
typedef enum {
    ANIM_SEVERITY_UNSET = 0, /* config: use the check's default */
    ANIM_SEVERITY_OFF = 1,   /* config only: disable the check */
    ANIM_SEVERITY_NOTE = 2,
    ANIM_SEVERITY_WARNING = 3,
    ANIM_SEVERITY_ERROR = 4
} anim_severity;

const char *anim_severity_name(anim_severity s); /* "note", "warning", "error", "off" */

typedef struct {
    bool set;
    double value;
} anim_opt_f64;

typedef struct {
    bool set;
    bool value;
} anim_opt_bool;

/* A declared value with a tolerance: duration_s, speed_mps. */
typedef struct {
    bool set;
    double value;
    double tolerance;
} anim_pin;

typedef enum {
    ANIM_OWNER_UNSET = 0,
    ANIM_OWNER_GAMEPLAY,
    ANIM_OWNER_ANIMATION
} anim_movement_owner;

const char *anim_movement_owner_name(anim_movement_owner o); /* "gameplay", "animation" */

typedef struct {
    const char **items; /* arena strings, source order */
    uint32_t count;
    bool set;           /* the key was present (an empty list is "set") */
} anim_string_list;

/* One [clips.<selector>] table, or the merged expectations for one clip. */
typedef struct anim_clip_expect {
    anim_opt_bool loop;
    anim_opt_f64 max_loop_position_delta_m;
    anim_opt_f64 max_loop_rotation_delta_deg;
    anim_opt_f64 max_loop_velocity_delta_mps;
    anim_opt_f64 max_loop_angular_velocity_delta_degps;
    anim_pin duration_s;
    anim_pin speed_mps;
    anim_movement_owner movement_owner_xz;
    anim_movement_owner movement_owner_y;
    anim_movement_owner movement_owner_yaw;
    anim_opt_f64 fps;
    anim_string_list animates_bones;
    /* Raw per-clip engine_settings table (engine subsystem), or NULL. */
    const struct anim_toml_value *engine_settings;
} anim_clip_expect;

typedef struct anim_clip_selector {
    const char *selector;  /* exact clip name or `*` glob */
    anim_clip_expect expect; /* in_place already folded into movement_owner_xz */
    uint32_t line;         /* source line of the table header */
} anim_clip_selector;

/* Numeric settings a [checks.<id>] table may carry. */
typedef enum {
    ANIM_CHECK_MAX_RATIO,
    ANIM_CHECK_MIN_STRIDE_STEP_M,
    ANIM_CHECK_MAX_POSITION_DELTA_M,
    ANIM_CHECK_MAX_ROTATION_DELTA_DEG,
    ANIM_CHECK_MAX_VELOCITY_DELTA_MPS,
    ANIM_CHECK_MAX_ANGULAR_VELOCITY_DELTA_DEGPS,
    ANIM_CHECK_MIN_ROTATION_DEG,
    ANIM_CHECK_MAX_MEAN_REST_DELTA_DEG,
    ANIM_CHECK_CONTACT_HEIGHT_M,
    ANIM_CHECK_MAX_SLIDE_MPS,
    ANIM_CHECK_EXPECTED_UNIFORM_SCALE,
    ANIM_CHECK_UNIFORM_SCALE_TOLERANCE,
    ANIM_CHECK_MAX_DURATION_S,
    ANIM_CHECK_SETTING_COUNT
} anim_check_setting;

const char *anim_check_setting_name(anim_check_setting s); /* "max_ratio", ... */
/* The built-in default of a setting. */
double anim_check_setting_default(anim_check_setting s);

typedef struct anim_check_config {
    const char *id;               /* as written; unknown ids are accepted */
    anim_severity severity;       /* UNSET when not given */
    anim_opt_f64 settings[ANIM_CHECK_SETTING_COUNT];
    anim_string_list node_selectors; /* legacy alias, rest-world-scale only */
} anim_check_config;

typedef struct anim_gait_group {
    const char *name;
    anim_string_list clips;
    double max_gait_phase_spread;
    double min_lr_amplitude_m;    /* default 0 */
} anim_gait_group;

typedef struct anim_sync_group {
    const char *name;
    anim_string_list clips;
    double max_duration_delta_s;
    uint64_t max_frame_count_delta;
    double max_fps_delta;
    bool has_time_complement;
    double min_reflected_time_advantage; /* [0, 1] */
    double time_complement_min_lr_amplitude_m;
} anim_sync_group;

typedef struct anim_engine_config {
    bool present;
    const char *profile;
    const char *profile_revision;
    const char *engine_version;
    const char *importer;
    const struct anim_toml_value *settings; /* raw, or NULL */
    /* The selected profile (animsmith/engine.h), NULL when none. */
    const struct anim_engine_profile *def;
    /* Its document-scope settings, validated, defaults materialized, in
     * vocabulary order. */
    const struct anim_engine_setting_value *settings_resolved;
    uint32_t settings_resolved_count;
} anim_engine_config;

typedef struct anim_config {
    anim_arena *arena;
    const char *path;          /* NULL for built-in defaults */
    uint8_t sha256[32];        /* of the config bytes (zero for defaults) */
    /* [rig] */
    const char *rig_profile;   /* "auto" by default */
    const char *rig_roles[ANIM_ROLE_COUNT]; /* inline [rig.roles], NULL = none */
    anim_string_list required_bones;
    /* [checks.<id>] in source order */
    anim_check_config *checks;
    uint32_t check_count;
    /* Effective runtime-node selectors (runtime_nodes.selectors, else the
     * legacy checks.rest-world-scale.node_selectors), duplicates removed. */
    anim_string_list runtime_selectors;
    /* [clips.<selector>] sorted byte-wise by selector (merge order). */
    anim_clip_selector *clips;
    uint32_t clip_count;
    anim_gait_group *gait_groups; /* sorted by name */
    uint32_t gait_group_count;
    anim_sync_group *sync_groups; /* sorted by name */
    uint32_t sync_group_count;
    anim_engine_config engine;
    /* [transition_families."<id>"]: validated, kept raw for the evaluator. */
    const struct anim_toml_value *transition_families;
    /* [limits]: budgets of memory sized by file values (docs/limits.md);
     * zero fields keep the defaults. */
    anim_limits limits;
} anim_config;

/* Built-in defaults (no file). */
anim_config *anim_config_default(anim_error *err);

/* Loads and validates a contract. Errors: "cannot read config PATH: ...",
 * "bad config PATH: line L column C: ..." (the CLI prefixes "animsmith: "). */
anim_config *anim_config_load(const char *path, anim_error *err);
/* The same for a contract already in memory (tests, fuzzing, embedding);
 * path only names the file in messages and in cfg->path. */
anim_config *anim_config_load_bytes(const char *path, const void *data, size_t len,
                                    anim_error *err);

/* Resolves the file a command uses: explicit (--config) wins; otherwise
 * ./animsmith.toml when it exists; otherwise defaults. */
anim_config *anim_config_resolve(const char *explicit_path, anim_error *err);

void anim_config_free(anim_config *cfg);

/* The [checks.<id>] table, or NULL. */
const anim_check_config *anim_config_check(const anim_config *cfg, const char *id);
/* A check setting: the configured value, else the built-in default. */
double anim_config_check_setting(const anim_config *cfg, const char *id,
                                 anim_check_setting s);
/* Merged expectations for one clip name: globs in byte-wise key order,
 * then the exact selector. */
void anim_config_clip_expect(const anim_config *cfg, const char *clip_name,
                             anim_clip_expect *out);
/* Glob match: only `*` is special (any run, including empty). */
bool anim_glob_match(const char *pattern, const char *name);

/* Load options carrying the contract's [limits] (defaults without them), for
 * anim_asset_load: every command that loads assets passes these so the
 * budgets raised in animsmith.toml apply. cfg may be NULL. */
struct anim_load_options;
void anim_config_load_options(const anim_config *cfg, struct anim_load_options *opts);

/* The rig config view for anim_rig_resolve. */
anim_rig_config anim_config_rig(const anim_config *cfg);

/* Contract names an input does not have -- a [clips.<selector>] that
 * matches none of its clips, a [rig.roles] bone its skeleton lacks -- are
 * gathered per asset (while it is loaded; workers fill one each) and
 * turned into warnings once per run: a clip selector warns only when it
 * matches no clip of any input (one clip per file is a common layout), a
 * role bone for each input that lacks it. */
typedef struct anim_contract_usage {
    uint32_t selector_count;   /* cfg->clip_count */
    bool *selector_matched;    /* per cfg->clips entry */
    char **selector_nearest;   /* per entry: a clip name within two edits, or NULL */
    bool has_clips;            /* the asset has at least one clip */
    anim_strbuf role_warnings; /* one line per absent [rig.roles] bone */
} anim_contract_usage;

/* Fills out for one asset at path (as given, for messages). -1 on OOM. */
int anim_contract_usage_collect(const anim_config *cfg, const anim_doc *doc, const char *path,
                                anim_contract_usage *out, anim_error *err);
void anim_contract_usage_free(anim_contract_usage *usage);
/* Appends one line per mistake (no prefix, terminal-safe):
 *   [clips.Walk] matches no clip of Xbot.glb (did you mean "walk"?)
 *   [rig.roles] hips = "Hip" names no bone of a.glb (did you mean "Hips"?)
 * Inputs without clips do not count for clip selectors. */
void anim_contract_warnings(const anim_config *cfg, const anim_contract_usage *usages,
                            const char *const *paths, size_t n, anim_strbuf *out);

#ifdef __cplusplus
}
#endif
#endif
