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
} anim_engine_setting_value;

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

/* The lint file's prediction_provenance object (written at the writer's
 * current position, as the value of a key already written). */
int anim_engine_write_provenance(anim_json_writer *w, const anim_engine_run *run,
                                 anim_error *err);

/* Validates [engine.settings] and every [clips.*].engine_settings against
 * the selected profile, materializing document defaults into
 * cfg->engine.settings_resolved. Called by the config loader; errors name
 * the key (ANIM_ERR_CONFIG). Exposed for the tests. */
int anim_engine_validate_config(struct anim_config *cfg, anim_error *err);

#ifdef __cplusplus
}
#endif
#endif
