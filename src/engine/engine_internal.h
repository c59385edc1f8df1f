/* src/engine/ owns the engine profiles: the frozen tuples with their facts
 * (engine_profiles.c), their closed setting vocabularies and the value
 * grammar (engine_settings.c, engine_path.c), and the same-load run facts
 * lint and generate consume: per-clip settings (engine_clips.c), the
 * dependency closure (engine_closure.c), raw source facts (engine_raw.c),
 * the run itself (engine_run.c) and the prediction provenance
 * (engine_provenance.c). The config loader validates animsmith.toml
 * against the vocabularies (src/config/config_engine.c). This header is
 * shared by the files of this folder only. */
#ifndef ANIMSMITH_ENGINE_INTERNAL_H
#define ANIMSMITH_ENGINE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/config.h"
#include "animsmith/engine.h"
#include "animsmith/gltf.h"
#include "animsmith/toml.h"

/* The raw source-transform path grammar (root_motion_source): NULL when
 * s[0..len) is valid, else why not ("empty segment (\"//\")"). */
const char *engine_path_problem(const char *s, size_t len, anim_arena *arena);

/* Dependency closure of one load. */
typedef struct engine_closure_file {
    const char *role;            /* "primary", "buffer", "image" */
    uint32_t index;              /* buffer or image index */
    const char *path;            /* the primary as given */
    const char *uri;             /* buffers and images, as declared */
    bool readable;
    char sha256[65];
    uint64_t bytes;
} engine_closure_file;

typedef struct engine_closure {
    const char *state;           /* "complete", "partial", "unavailable" */
    engine_closure_file *files;
    uint32_t count;
} engine_closure;

int engine_closure_build(const anim_asset *asset, anim_arena *arena, engine_closure *out,
                         anim_error *err);

/* Raw source facts, counted from the raw JSON (glTF) or the FBX facts. */
#define ENGINE_MAX_RAW_TAKES 4096u

typedef struct engine_raw_source {
    unsigned format;             /* ANIM_ENGINE_FORMAT_* */
    /* glTF: array lengths of the raw JSON (0 when absent or not arrays) */
    uint32_t animations, channels, scenes, nodes, skins, meshes;
    uint32_t default_scene;      /* ANIM_NONE when absent */
    bool channels_complete;      /* every animation's channels was an array */
    /* FBX */
    const struct anim_fbx_facts *fbx;
} engine_raw_source;

void engine_raw_source_build(const anim_asset *asset, engine_raw_source *out);

struct anim_engine_run {
    const anim_engine_profile *profile;
    const anim_config *config;
    unsigned format;
    const char *input_path;       /* as given */
    char primary_sha256[65];
    uint64_t primary_bytes;
    const anim_engine_setting_value *settings; /* document, vocabulary order */
    uint32_t setting_count;
    anim_engine_clip_settings *clips;          /* retained rows */
    uint32_t clip_count;                       /* retained */
    uint32_t source_clip_count;                /* the document's clips */
    bool overflow;
    engine_closure closure;
    engine_raw_source raw;
};

/* Resolves the clip rows of run (engine_clips.c); for the profiles whose
 * clip settings are required, a real clip without one is an error naming
 * the file, the clip and the key. */
int engine_clips_resolve(anim_engine_run *run, const anim_config *cfg, const anim_doc *doc,
                         anim_arena *arena, anim_error *err);

/* Writes s as a JSON string; bytes that are not UTF-8 become U+FFFD so
 * the document stays valid JSON (the names come from the asset). */
void engine_json_text(anim_json_writer *w, const char *s);
void engine_json_value(anim_json_writer *w, const anim_engine_setting_value *v);

/* "gltf", "glb", "fbx". */
const char *engine_format_name(unsigned format);

#endif
