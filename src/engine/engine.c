/* src/engine/ owns the engine profiles: the frozen tuples and their setting
 * vocabularies, config validation against them, the same-load run facts
 * and the prediction provenance lint writes. (Scaffolding: the full
 * implementation replaces this file.) */
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/engine.h"
#include "animsmith/gltf.h"

struct anim_engine_run {
    const anim_engine_profile *profile;
    unsigned format;
};

static const anim_engine_profile profiles[] = {
    {"unity-generic", 1, "6000.3", "fbx-model-importer", ANIM_ENGINE_UNITY_GENERIC,
     ANIM_ENGINE_FORMAT_FBX, "urn:animsmith:prediction-provenance:3",
     "urn:animsmith:engine-prediction:3"},
    {"unity-generic", 2, "6000.3", "fbx-model-importer", ANIM_ENGINE_UNITY_GENERIC,
     ANIM_ENGINE_FORMAT_FBX, "urn:animsmith:prediction-provenance:6",
     "urn:animsmith:engine-prediction:6"},
    {"unity-humanoid", 1, "6000.3", "fbx-model-importer", ANIM_ENGINE_UNITY_HUMANOID,
     ANIM_ENGINE_FORMAT_FBX, "urn:animsmith:prediction-provenance:3",
     "urn:animsmith:engine-prediction:3"},
    {"unreal", 1, "5.8", "fbx-importer", ANIM_ENGINE_UNREAL, ANIM_ENGINE_FORMAT_FBX,
     "urn:animsmith:prediction-provenance:3", "urn:animsmith:engine-prediction:3"},
    {"unreal", 2, "5.8", "fbx-importer", ANIM_ENGINE_UNREAL, ANIM_ENGINE_FORMAT_FBX,
     "urn:animsmith:prediction-provenance:4", "urn:animsmith:engine-prediction:4"},
    {"godot", 1, "4.7", "resource-importer-scene", ANIM_ENGINE_GODOT,
     ANIM_ENGINE_FORMAT_GLTF | ANIM_ENGINE_FORMAT_GLB | ANIM_ENGINE_FORMAT_FBX,
     "urn:animsmith:prediction-provenance:3", "urn:animsmith:engine-prediction:3"},
    {"godot", 2, "4.7", "resource-importer-scene", ANIM_ENGINE_GODOT,
     ANIM_ENGINE_FORMAT_GLTF | ANIM_ENGINE_FORMAT_GLB, "urn:animsmith:prediction-provenance:4",
     "urn:animsmith:engine-prediction:4"},
    {"bevy", 1, "0.19.0", "gltf-asset-loader", ANIM_ENGINE_BEVY,
     ANIM_ENGINE_FORMAT_GLTF | ANIM_ENGINE_FORMAT_GLB, "urn:animsmith:prediction-provenance:3",
     "urn:animsmith:engine-prediction:3"},
    {"bevy", 2, "0.19.0", "gltf-asset-loader", ANIM_ENGINE_BEVY,
     ANIM_ENGINE_FORMAT_GLTF | ANIM_ENGINE_FORMAT_GLB, "urn:animsmith:prediction-provenance:4",
     "urn:animsmith:engine-prediction:4"},
    {"bevy", 3, "0.19.0", "gltf-asset-loader", ANIM_ENGINE_BEVY,
     ANIM_ENGINE_FORMAT_GLTF | ANIM_ENGINE_FORMAT_GLB, "urn:animsmith:prediction-provenance:5",
     "urn:animsmith:engine-prediction:5"},
};

size_t anim_engine_profile_count(void)
{
    return sizeof profiles / sizeof profiles[0];
}

const anim_engine_profile *anim_engine_profile_at(size_t i)
{
    return i < anim_engine_profile_count() ? &profiles[i] : NULL;
}

const anim_engine_profile *anim_engine_profile_find(const char *profile, uint32_t revision,
                                                    const char *engine_version,
                                                    const char *importer)
{
    for (size_t i = 0; i < anim_engine_profile_count(); i++) {
        const anim_engine_profile *p = &profiles[i];
        if (strcmp(p->profile, profile) == 0 && p->revision == revision &&
            strcmp(p->engine_version, engine_version) == 0 &&
            strcmp(p->importer, importer) == 0)
            return p;
    }
    return NULL;
}

const char *anim_engine_origin_name(anim_engine_setting_origin o)
{
    return o == ANIM_ENGINE_ORIGIN_EXPLICIT ? "explicit_config" : "profile_default";
}

int anim_engine_prepare(const anim_config *cfg, const anim_asset *asset, anim_arena *arena,
                        anim_engine_run **out, anim_error *err)
{
    (void)err;
    *out = NULL;
    if (!cfg || !cfg->engine.present || !cfg->engine.def)
        return 0;
    anim_engine_run *run = anim_arena_calloc(arena, 1, sizeof *run);
    if (!run)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    run->profile = cfg->engine.def;
    run->format = asset->source.fbx      ? ANIM_ENGINE_FORMAT_FBX
                  : asset->source.is_glb ? ANIM_ENGINE_FORMAT_GLB
                                         : ANIM_ENGINE_FORMAT_GLTF;
    *out = run;
    return 0;
}

const anim_engine_profile *anim_engine_run_profile(const anim_engine_run *run)
{
    return run ? run->profile : NULL;
}

const anim_engine_setting_value *anim_engine_run_setting(const anim_engine_run *run,
                                                         const char *key)
{
    (void)run;
    (void)key;
    return NULL;
}

const anim_engine_clip_settings *anim_engine_run_clips(const anim_engine_run *run,
                                                       uint32_t *count, bool *overflow)
{
    (void)run;
    *count = 0;
    *overflow = false;
    return NULL;
}

const anim_engine_setting_value *anim_engine_run_clip_setting(const anim_engine_run *run,
                                                              uint32_t clip_index,
                                                              const char *key)
{
    (void)run;
    (void)clip_index;
    (void)key;
    return NULL;
}

unsigned anim_engine_run_format(const anim_engine_run *run)
{
    return run ? run->format : 0;
}

int anim_engine_write_provenance(anim_json_writer *w, const anim_engine_run *run,
                                 anim_error *err)
{
    (void)err;
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "schema");
    anim_json_writer_string(w, run->profile->provenance_schema);
    anim_json_writer_end_object(w);
    return 0;
}

int anim_engine_validate_config(anim_config *cfg, anim_error *err)
{
    (void)cfg;
    (void)err;
    return 0;
}
