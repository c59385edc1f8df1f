/* Engine profiles: exact, versioned importer contracts (Unity 6000.3,
 * Unreal 5.8, Godot 4.7, Bevy 0.19.0). A profile is evidence about what
 * one documented importer does with a file, never a claim that an engine
 * loaded or played it. A profile names its accepted source formats, its
 * closed setting vocabulary (type, range, scope, default) and the schema
 * identities of the prediction evidence lint writes under it.
 *
 * Lifecycle: the config loader selects the profile and validates every
 * statically knowable setting before any input is read (exit 2, naming the
 * key); after loading, anim_engine_prepare checks the input format and the
 * per-clip settings of the clips the file really has, and captures the
 * same-load facts (raw inventory, dependency closure) the prediction
 * provenance records. */
#ifndef ANIMSMITH_ENGINE_H
#define ANIMSMITH_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/json_write.h"

#ifdef __cplusplus
extern "C" {
#endif

struct anim_config;
struct anim_asset;
struct anim_toml_value;

/* Source formats a profile accepts (bit set). */
enum {
    ANIM_ENGINE_FORMAT_GLTF = 1u, /* glTF JSON */
    ANIM_ENGINE_FORMAT_GLB = 2u,
    ANIM_ENGINE_FORMAT_FBX = 4u
};

typedef enum {
    ANIM_ENGINE_UNITY_GENERIC,
    ANIM_ENGINE_UNITY_HUMANOID,
    ANIM_ENGINE_UNREAL,
    ANIM_ENGINE_GODOT,
    ANIM_ENGINE_BEVY
} anim_engine_family;

typedef enum {
    ANIM_ENGINE_SETTING_BOOL,
    ANIM_ENGINE_SETTING_WORD,        /* one of a closed list of words */
    ANIM_ENGINE_SETTING_INT,         /* an integer in [min, max] */
    ANIM_ENGINE_SETTING_PATH,        /* a raw source-transform path */
    ANIM_ENGINE_SETTING_SAMPLE_RATE  /* default_30 | source_determined | custom_hz(N) */
} anim_engine_setting_type;

typedef enum { ANIM_ENGINE_SCOPE_DOCUMENT, ANIM_ENGINE_SCOPE_CLIP } anim_engine_setting_scope;

typedef enum {
    ANIM_ENGINE_ORIGIN_EXPLICIT,     /* "explicit_config" */
    ANIM_ENGINE_ORIGIN_DEFAULT       /* "profile_default" */
} anim_engine_setting_origin;

const char *anim_engine_origin_name(anim_engine_setting_origin o);

/* One resolved setting value. */
typedef struct anim_engine_setting_value {
    const char *key;
    anim_engine_setting_type type;
    bool boolean;                    /* BOOL */
    int64_t integer;                 /* INT; SAMPLE_RATE: custom hertz, 0 otherwise */
    const char *text;                /* WORD, PATH; SAMPLE_RATE: its spelling */
    anim_engine_setting_origin origin;
    /* Clip-scoped values: the [clips."<selector>"] table the value came
     * from (explicit_config); NULL for document settings. */
    const char *selector;
} anim_engine_setting_value;

/* One key of a profile's closed setting vocabulary. */
typedef struct anim_engine_setting_def {
    const char *key;
    anim_engine_setting_type type;
    anim_engine_setting_scope scope;
    const char *const *words;        /* WORD: the closed list, NULL-terminated */
    int64_t min, max;                /* INT; SAMPLE_RATE: the custom_hz(N) range */
    bool required;                   /* no default: the file must state it */
    bool has_default;                /* the profile's verified default */
    bool default_bool;
    int64_t default_int;
    const char *default_text;
    /* Frozen: the one value of the domain the profile accepts (still
     * required: the file states it, the profile does not assume it). */
    bool frozen;
    bool frozen_bool;
    const char *frozen_text;
} anim_engine_setting_def;

/* One frozen profile tuple. */
typedef struct anim_engine_profile {
    const char *profile;             /* "bevy", "unity-generic", ... */
    uint32_t revision;
    const char *engine_version;      /* "0.19.0", "6000.3", ... */
    const char *importer;            /* "gltf-asset-loader", ... */
    anim_engine_family family;
    unsigned formats;                /* ANIM_ENGINE_FORMAT_* accepted */
    const char *provenance_schema;   /* "urn:animsmith:prediction-provenance:N" */
    const char *prediction_schema;   /* "urn:animsmith:engine-prediction:N" */
} anim_engine_profile;

size_t anim_engine_profile_count(void);
const anim_engine_profile *anim_engine_profile_at(size_t i);
/* Exact match only: no nearest version, no fallback. NULL when unknown. */
const anim_engine_profile *anim_engine_profile_find(const char *profile, uint32_t revision,
                                                    const char *engine_version,
                                                    const char *importer);

/* The profile's vocabulary, document and clip keys, in resolution order
 * (empty for the revisions without settings). */
const anim_engine_setting_def *anim_engine_settings_of(const anim_engine_profile *p,
                                                       size_t *count);
const anim_engine_setting_def *anim_engine_setting_find(const anim_engine_profile *p,
                                                        const char *key, size_t len);
/* A key another profile of the family has that this one declares not
 * applicable (root_motion_source under unity-humanoid). */
bool anim_engine_setting_not_applicable(const anim_engine_profile *p, const char *key,
                                        size_t len);
/* Parses one TOML value against def: NULL on success (*out filled, origin
 * explicit_config, text pointing into v or static), else the complaint the
 * caller prefixes with the key path ("must be a boolean, found string"),
 * in arena. */
const char *anim_engine_setting_parse(const anim_engine_profile *p,
                                      const anim_engine_setting_def *def,
                                      const struct anim_toml_value *v, anim_arena *arena,
                                      anim_engine_setting_value *out);
/* def's default as a value (origin profile_default). */
void anim_engine_setting_default(const anim_engine_setting_def *def,
                                 anim_engine_setting_value *out);

/* "gltf", "glb", "fbx" for one ANIM_ENGINE_FORMAT_* bit; NULL otherwise. */
const char *anim_engine_format_name(unsigned format);

/* One frozen fact of a profile (recorded in the provenance, referenced by
 * prediction basis rows as profile_fact). */
typedef enum {
    ANIM_ENGINE_FACT_TEXT,
    ANIM_ENGINE_FACT_INT,
    ANIM_ENGINE_FACT_BOOL
} anim_engine_fact_kind;

typedef struct anim_engine_fact {
    const char *key;                 /* "gltf_asset_label_animation_format", ... */
    anim_engine_fact_kind kind;
    const char *text;
    int64_t integer;
    bool boolean;
} anim_engine_fact;

/* The profile's facts in their fixed order. */
const anim_engine_fact *anim_engine_profile_facts(const anim_engine_profile *p, size_t *count);
/* One fact by key; NULL when the profile has none. */
const anim_engine_fact *anim_engine_profile_fact(const anim_engine_profile *p, const char *key);
/* Writes a fact's value (string, integer or boolean). */
void anim_engine_fact_write(anim_json_writer *w, const anim_engine_fact *f);

/* The raw source-transform path grammar of root_motion_source: "/" is the
 * only separator; segments are nonempty, not "." or "..", without
 * backslash, control (C0, DEL, C1) or Unicode format (Cf) characters;
 * valid UTF-8; at most ANIM_ENGINE_PATH_MAX_SEGMENT bytes a segment,
 * ANIM_ENGINE_PATH_MAX_BYTES bytes and ANIM_ENGINE_PATH_MAX_SEGMENTS
 * segments. True when s[0..len) is a valid path. */
#define ANIM_ENGINE_PATH_MAX_SEGMENT 1024u
#define ANIM_ENGINE_PATH_MAX_BYTES 4096u
#define ANIM_ENGINE_PATH_MAX_SEGMENTS 256u
bool anim_engine_path_valid(const char *s, size_t len);

/* The clips of one file with their clip-scoped settings resolved field by
 * field (matching globs in byte order, then the exact name last). At most
 * ANIM_ENGINE_MAX_SETTING_CLIPS rows are kept; a longer file is partial
 * coverage (overflow), never a complete prefix. */
#define ANIM_ENGINE_MAX_SETTING_CLIPS 4096u

typedef struct anim_engine_clip_settings {
    const char *clip;                /* the document's clip name */
    uint32_t clip_index;             /* document clip index */
    const anim_engine_setting_value *values; /* clip-scoped, vocabulary order */
    uint32_t value_count;
    bool complete;                   /* every required clip setting resolved */
    /* Another clip of the file has the same source name: the row is kept,
     * but a prediction keyed by the name cannot tell them apart. */
    bool duplicate_name;
} anim_engine_clip_settings;

/* What one lint (or generate) run knows about its engine profile, captured
 * from the same load: built by anim_engine_prepare in the caller's arena. */
typedef struct anim_engine_run anim_engine_run;

/* After loading: refuses an input format the profile does not accept and,
 * where the profile requires clip settings on every real clip, a clip
 * without them (ANIM_ERR_CONFIG, exit 2, naming the file, the clip and the
 * key); otherwise captures the run facts. *out is NULL (and 0 returned)
 * when cfg selects no profile. */
int anim_engine_prepare(const struct anim_config *cfg, const struct anim_asset *asset,
                        anim_arena *arena, anim_engine_run **out, anim_error *err);

const anim_engine_profile *anim_engine_run_profile(const anim_engine_run *run);
/* The document-scope setting, explicit or defaulted; NULL when the profile
 * has no such setting (or it is optional and absent). */
const anim_engine_setting_value *anim_engine_run_setting(const anim_engine_run *run,
                                                         const char *key);
/* Clip rows in document clip order; *overflow set when the file has more
 * clips than ANIM_ENGINE_MAX_SETTING_CLIPS. */
const anim_engine_clip_settings *anim_engine_run_clips(const anim_engine_run *run,
                                                       uint32_t *count, bool *overflow);
/* One clip's clip-scoped setting, NULL when unresolved (or past overflow). */
const anim_engine_setting_value *anim_engine_run_clip_setting(const anim_engine_run *run,
                                                              uint32_t clip_index,
                                                              const char *key);
/* The input's format (one ANIM_ENGINE_FORMAT_* bit). */
unsigned anim_engine_run_format(const anim_engine_run *run);
/* The dependency closure's state: "complete" (every file of the load was
 * read and hashed), "partial" or "unavailable". */
const char *anim_engine_run_closure_state(const anim_engine_run *run);

/* One resolved setting as every engine evidence document writes it:
 * {"key", "value", "origin"} (and "selector" for a clip-scope value). */
void anim_engine_write_setting(anim_json_writer *w, const anim_engine_setting_value *v);

/* The lint file's prediction_provenance object (written at the writer's
 * current position, as the value of a key already written). */
int anim_engine_write_provenance(anim_json_writer *w, const anim_engine_run *run,
                                 anim_error *err);

/* Validates [engine.settings] and every [clips.*].engine_settings against
 * the selected profile, materializing document defaults into
 * cfg->engine.settings_resolved. The config loader runs the same
 * validation (src/config/config_engine.c); errors are the loader's
 * positioned "bad config PATH: line L column C: ..." naming the key
 * (ANIM_ERR_INVALID). Exposed for the tests. */
int anim_engine_validate_config(struct anim_config *cfg, anim_error *err);
/* The same, given where the [engine] table is written: a required setting
 * the file lacks is reported there when it has no [engine.settings]. */
int anim_engine_validate_config_at(struct anim_config *cfg, uint32_t engine_line,
                                   uint32_t engine_column, anim_error *err);

#ifdef __cplusplus
}
#endif
#endif
