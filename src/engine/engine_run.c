/* One run's engine facts, captured from the same load the checks read:
 * the input format (refused when the profile does not accept it), the
 * resolved document and clip settings, the dependency closure and the raw
 * source facts. Everything lives in the caller's arena; accessors never
 * fail and answer NULL for what the run does not have. */
#include <string.h>

#include "animsmith/hash.h"
#include "engine/engine_internal.h"

static unsigned format_of(const anim_asset *asset)
{
    return asset->source.fbx      ? ANIM_ENGINE_FORMAT_FBX
           : asset->source.is_glb ? ANIM_ENGINE_FORMAT_GLB
                                  : ANIM_ENGINE_FORMAT_GLTF;
}

/* "FBX only", "glTF JSON or GLB only". */
static const char *accepted_list(unsigned formats)
{
    switch (formats) {
    case ANIM_ENGINE_FORMAT_FBX:
        return "FBX only";
    case ANIM_ENGINE_FORMAT_GLTF | ANIM_ENGINE_FORMAT_GLB:
        return "glTF JSON or GLB only";
    default:
        return "glTF JSON, GLB or FBX only";
    }
}

int anim_engine_prepare(const anim_config *cfg, const anim_asset *asset, anim_arena *arena,
                        anim_engine_run **out, anim_error *err)
{
    *out = NULL;
    if (!cfg || !cfg->engine.present || !cfg->engine.def)
        return 0;
    const anim_engine_profile *p = cfg->engine.def;
    const char *path = asset->source.path ? asset->source.path : "input";
    unsigned format = format_of(asset);
    if (!(p->formats & format))
        return anim_error_set(err, ANIM_ERR_USAGE, "%s: engine profile %s revision %u accepts %s",
                              path, p->profile, (unsigned)p->revision, accepted_list(p->formats));
    anim_engine_run *run = anim_arena_calloc(arena, 1, sizeof *run);
    if (!run)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    run->profile = p;
    run->config = cfg;
    run->format = format;
    run->input_path = path;
    run->settings = cfg->engine.settings_resolved;
    run->setting_count = cfg->engine.settings_resolved_count;
    anim_sha256_hex(asset->source.input_bytes, asset->source.input_byte_count,
                    run->primary_sha256);
    run->primary_bytes = asset->source.input_byte_count;
    if (engine_clips_resolve(run, cfg, &asset->doc, arena, err) ||
        engine_closure_build(asset, arena, &run->closure, err))
        return -1;
    engine_raw_source_build(asset, &run->raw);
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
    for (uint32_t i = 0; run && key && i < run->setting_count; i++)
        if (strcmp(run->settings[i].key, key) == 0)
            return &run->settings[i];
    return NULL;
}

const anim_engine_clip_settings *anim_engine_run_clips(const anim_engine_run *run,
                                                       uint32_t *count, bool *overflow)
{
    *count = run ? run->clip_count : 0;
    *overflow = run ? run->overflow : false;
    return run && run->clip_count ? run->clips : NULL;
}

const anim_engine_setting_value *anim_engine_run_clip_setting(const anim_engine_run *run,
                                                              uint32_t clip_index,
                                                              const char *key)
{
    if (!run || !key || clip_index >= run->clip_count)
        return NULL;
    const anim_engine_clip_settings *row = &run->clips[clip_index];
    for (uint32_t i = 0; i < row->value_count; i++)
        if (strcmp(row->values[i].key, key) == 0)
            return &row->values[i];
    return NULL;
}

unsigned anim_engine_run_format(const anim_engine_run *run)
{
    return run ? run->format : 0;
}

const char *anim_engine_run_closure_state(const anim_engine_run *run)
{
    return run && run->closure.state ? run->closure.state : "unavailable";
}
