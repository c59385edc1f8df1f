/* The import-advice model: which projection a profile has, and building it
 * from one input's same-load evidence. Every refusal is typed and carries
 * no partial payload, because a retained prefix of clips would read as a
 * complete importer configuration. */
#include <stdio.h>
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/fbx.h"
#include "animsmith/gltf.h"
#include "animsmith/json_write.h"
#include "animsmith/measure.h"
#include "animsmith/measure_loop.h"
#include "animsmith/utf8.h"
#include "generate/import_advice.h"

anim_advice_route anim_advice_route_of(const anim_engine_profile *p, const char **why)
{
    const char *reason = "has no import-advice projection";
    anim_advice_route route = ANIM_ADVICE_ROUTE_NONE;
    if (!p) {
        reason = "no engine profile is selected";
    } else {
        switch (p->family) {
        case ANIM_ENGINE_UNITY_GENERIC:
        case ANIM_ENGINE_UNITY_HUMANOID:
            if (p->revision == 1)
                route = ANIM_ADVICE_ROUTE_UNITY_V1;
            else
                reason = "has no import-advice projection (its settings drive the "
                         "engine-root-motion lint check); select revision 1 for import advice";
            break;
        case ANIM_ENGINE_UNREAL:
            route = p->revision == 1   ? ANIM_ADVICE_ROUTE_UNMODELED_V1
                    : p->revision == 2 ? ANIM_ADVICE_ROUTE_UNREAL_V2
                                       : ANIM_ADVICE_ROUTE_NONE;
            break;
        case ANIM_ENGINE_GODOT:
            route = p->revision == 1   ? ANIM_ADVICE_ROUTE_UNMODELED_V1
                    : p->revision == 2 ? ANIM_ADVICE_ROUTE_GODOT_V2
                                       : ANIM_ADVICE_ROUTE_NONE;
            break;
        case ANIM_ENGINE_BEVY:
            reason = "has no import-advice projection (Bevy animation selectors come from "
                     "`animsmith generate addressability`)";
            break;
        }
    }
    if (why)
        *why = route == ANIM_ADVICE_ROUTE_NONE ? reason : NULL;
    return route;
}

const char *anim_advice_state_name(anim_advice_state s)
{
    return s == ANIM_ADVICE_AVAILABLE ? "available" : "refused";
}

int anim_advice_unreal_sample_rate(const anim_engine_setting_value *v,
                                   anim_advice_sample_rate *out)
{
    if (!v || v->type != ANIM_ENGINE_SETTING_SAMPLE_RATE || !v->text)
        return -1;
    if (strcmp(v->text, "default_30") == 0 && v->integer == 0) {
        *out = (anim_advice_sample_rate){true, 0};
        return 0;
    }
    if (strcmp(v->text, "source_determined") == 0 && v->integer == 0) {
        *out = (anim_advice_sample_rate){false, 0};
        return 0;
    }
    /* custom_hz(n): the spelling and the parsed hertz must agree, so a
     * value the config layer did not produce cannot become a rate. */
    char expect[32];
    if (v->integer < 1 || v->integer > 48000)
        return -1;
    snprintf(expect, sizeof expect, "custom_hz(%lld)", (long long)v->integer);
    if (strcmp(v->text, expect) != 0)
        return -1;
    *out = (anim_advice_sample_rate){false, v->integer};
    return 0;
}

/* "FBX only", "glTF JSON or GLB only", ... for the format refusal. */
static const char *formats_phrase(unsigned f)
{
    switch (f) {
    case ANIM_ENGINE_FORMAT_FBX:
        return "FBX only";
    case ANIM_ENGINE_FORMAT_GLTF | ANIM_ENGINE_FORMAT_GLB:
        return "glTF JSON or GLB only";
    case ANIM_ENGINE_FORMAT_GLTF | ANIM_ENGINE_FORMAT_GLB | ANIM_ENGINE_FORMAT_FBX:
        return "glTF JSON, GLB or FBX";
    default:
        return "other formats only";
    }
}

/* The provenance as compact canonical JSON (the identity's first part)
 * and the dependency-closure state it records. */
static int capture_provenance(const anim_engine_run *run, anim_arena *arena,
                              anim_import_advice *out, anim_error *err)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &sb, false);
    if (anim_engine_write_provenance(&w, run, err)) {
        anim_strbuf_free(&sb);
        return -1;
    }
    if (!anim_json_writer_ok(&w) || sb.failed) {
        anim_strbuf_free(&sb);
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing the provenance");
    }
    char *copy = anim_arena_strndup(arena, sb.data ? sb.data : "", sb.len);
    out->provenance_len = sb.len;
    anim_strbuf_free(&sb);
    if (!copy)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    out->provenance_json = copy;
    /* Only the three closed states count; anything else is treated as
     * unavailable evidence, never as complete. */
    const char *state = anim_engine_run_closure_state(run);
    static const char *const known[] = {"complete", "partial", "unavailable"};
    out->closure_state = "unavailable";
    for (size_t i = 0; state && i < sizeof known / sizeof *known; i++)
        if (strcmp(state, known[i]) == 0)
            out->closure_state = known[i];
    return 0;
}

static void refuse(anim_import_advice *out, const char *reason)
{
    out->state = ANIM_ADVICE_REFUSED;
    out->refusal_reason = reason;
    out->clips = NULL;
    out->clip_count = 0;
    out->has_importer = false;
    out->projection = ANIM_ADVICE_PROJECTION_NONE;
}

/* The config's name for messages: its path, or the defaults. */
static const char *config_name(const anim_config *cfg)
{
    return cfg && cfg->path ? cfg->path : "animsmith.toml";
}

/* A document setting the projection needs: missing or mistyped is a
 * contract error (exit 2), never a guessed value. */
static const anim_engine_setting_value *need_setting(const anim_config *cfg,
                                                     const anim_engine_run *run,
                                                     const char *key,
                                                     anim_engine_setting_type type,
                                                     anim_error *err)
{
    const anim_engine_setting_value *v = anim_engine_run_setting(run, key);
    const anim_engine_profile *p = anim_engine_run_profile(run);
    if (!v)
        anim_error_set(err, ANIM_ERR_USAGE,
                       "%s: engine.settings.%s: required by engine profile %s revision %u for "
                       "import advice, but it is not resolved",
                       config_name(cfg), key, p->profile, p->revision);
    else if (v->type != type || ((type == ANIM_ENGINE_SETTING_PATH ||
                                  type == ANIM_ENGINE_SETTING_WORD) && !v->text))
        anim_error_set(err, ANIM_ERR_USAGE,
                       "%s: engine.settings.%s: resolved with the wrong type for engine profile "
                       "%s revision %u",
                       config_name(cfg), key, p->profile, p->revision);
    else
        return v;
    return NULL;
}

static bool valid_utf8(const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        size_t k = anim_utf8_decode((const unsigned char *)s + i, n - i, NULL);
        if (!k)
            return false;
        i += k;
    }
    return true;
}

static const anim_clip_measurements *find_measurements(const anim_measurements *m,
                                                       const char *name)
{
    size_t lo = 0, hi = m ? m->clip_count : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(m->clips[mid].name, name);
        if (c == 0)
            return &m->clips[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static bool finite(double v)
{
    return v == v && v - v == 0;
}

/* A status is never stronger than its value: a measured value that is
 * not finite (JSON cannot carry it) is reported unavailable. */
static void copy_measurements(const anim_clip_measurements *m, anim_advice_measurements *out)
{
    out->duration = finite(m->duration_s) ? ANIM_AVAIL_MEASURED : ANIM_AVAIL_UNAVAILABLE;
    out->duration_s = out->duration == ANIM_AVAIL_MEASURED ? m->duration_s : 0;
    out->speed = m->speed.availability ? m->speed.availability : m->speed_mps;
    if (out->speed == ANIM_AVAIL_MEASURED && !finite(m->speed.mps))
        out->speed = ANIM_AVAIL_UNAVAILABLE;
    if (!anim_availability_name(out->speed))
        out->speed = ANIM_AVAIL_UNAVAILABLE;
    out->speed_mps = out->speed == ANIM_AVAIL_MEASURED ? m->speed.mps : 0;
    /* As the measurement writer: measured without a mode name is
     * unavailable. */
    out->loop_endpoint = m->endpoint ? m->endpoint->availability : m->loop_endpoint_mode;
    out->loop_endpoint_mode = NULL;
    if (out->loop_endpoint == ANIM_AVAIL_MEASURED) {
        out->loop_endpoint_mode = m->endpoint ? anim_loop_endpoint_mode_name(m->endpoint->mode)
                                              : NULL;
        if (!out->loop_endpoint_mode)
            out->loop_endpoint = ANIM_AVAIL_UNAVAILABLE;
    }
    out->frame_grid = m->frame_grid;
    out->frame_grid_fps = m->frame_grid == ANIM_AVAIL_MEASURED ? m->frame_grid_fps : 0;
    out->frame_grid_intervals = m->frame_grid == ANIM_AVAIL_MEASURED ? m->frame_grid_intervals : 0;
    if (out->frame_grid == ANIM_AVAIL_MEASURED &&
        (out->frame_grid_intervals < 1 || !finite(out->frame_grid_fps)))
        out->frame_grid = ANIM_AVAIL_UNAVAILABLE;
    if (!anim_availability_name(out->frame_grid))
        out->frame_grid = ANIM_AVAIL_UNAVAILABLE;
    if (!anim_availability_name(out->loop_endpoint))
        out->loop_endpoint = ANIM_AVAIL_UNAVAILABLE;
}

/* bake keeps the root component in the pose (locked: true); extract
 * stores it as root motion (false). -1 for anything else. */
static int lock_of(const anim_engine_setting_value *v, bool *lock)
{
    if (!v || v->type != ANIM_ENGINE_SETTING_WORD || !v->text)
        return -1;
    if (strcmp(v->text, "bake") == 0)
        *lock = true;
    else if (strcmp(v->text, "extract") == 0)
        *lock = false;
    else
        return -1;
    return 0;
}

/* One clip row, or the refusal reason that forbids it (NULL: row built). */
static const char *unity_clip(const anim_config *cfg, const anim_asset *asset,
                              const anim_engine_run *run, const anim_measurements *m,
                              const anim_engine_clip_settings *row, uint32_t i,
                              anim_advice_clip *out)
{
    const anim_doc *doc = &asset->doc;
    const anim_clip *clip = &doc->clips[i];
    const anim_fbx_take *take = &asset->source.fbx->takes[i];
    /* The projected document keeps every take, in order, as the
     * animation of the same index; a name the reader did not have to
     * repair (invalid UTF-8) is carried verbatim. */
    if (clip->animation != i || !take->name || !clip->base_name ||
        (valid_utf8(take->name) && strcmp(take->name, clip->base_name) != 0))
        return ANIM_ADVICE_REFUSE_LINK;
    /* Unity's importer addresses a clip's take by its name: two takes of
     * one name cannot be told apart there, so neither row can be bound. */
    if (row->duplicate_name)
        return ANIM_ADVICE_REFUSE_LINK;
    if (row->clip_index != i || !row->clip || strcmp(row->clip, clip->name) != 0 ||
        !row->complete)
        return ANIM_ADVICE_REFUSE_EVIDENCE;
    const anim_clip_measurements *cm = find_measurements(m, clip->name);
    if (!cm)
        return ANIM_ADVICE_REFUSE_EVIDENCE;
    if (lock_of(anim_engine_run_clip_setting(run, i, "root_rotation"), &out->lock_root_rotation) ||
        lock_of(anim_engine_run_clip_setting(run, i, "root_position_y"),
                &out->lock_root_height_y) ||
        lock_of(anim_engine_run_clip_setting(run, i, "root_position_xz"),
                &out->lock_root_position_xz))
        return ANIM_ADVICE_REFUSE_EVIDENCE;
    anim_clip_expect ex;
    anim_config_clip_expect(cfg, clip->name, &ex);
    out->source_clip_index = i;
    out->normalized_clip_index = i;
    out->source_name = take->name;
    out->normalized_name = clip->name;
    out->loop = ex.loop;
    out->owner_xz = ex.movement_owner_xz;
    out->owner_y = ex.movement_owner_y;
    out->owner_yaw = ex.movement_owner_yaw;
    copy_measurements(cm, &out->measured);
    return NULL;
}

static int build_unity(const anim_config *cfg, const anim_asset *asset,
                       const anim_engine_run *run, const anim_measurements *m,
                       anim_arena *arena, anim_import_advice *out, anim_error *err)
{
    const anim_engine_profile *p = out->profile;
    const anim_engine_setting_value *cu, *bac, *rms = NULL;
    if (!(cu = need_setting(cfg, run, "convert_units", ANIM_ENGINE_SETTING_BOOL, err)) ||
        !(bac = need_setting(cfg, run, "bake_axis_conversion", ANIM_ENGINE_SETTING_BOOL, err)))
        return -1;
    if (p->family == ANIM_ENGINE_UNITY_GENERIC &&
        !(rms = need_setting(cfg, run, "root_motion_source", ANIM_ENGINE_SETTING_PATH, err)))
        return -1;
    out->convert_units = cu->boolean;
    out->bake_axis_conversion = bac->boolean;
    out->root_motion_source = rms ? rms->text : NULL;

    const anim_doc *doc = &asset->doc;
    const anim_fbx_facts *fbx = asset->source.fbx;
    uint32_t rows = 0;
    bool overflow = false;
    const anim_engine_clip_settings *settings = anim_engine_run_clips(run, &rows, &overflow);
    /* The raw inventory is the file's animation stacks: every one of them
     * must be retained and bound, or the advice would silently leave a
     * clip's importer settings out. */
    if (!fbx || fbx->take_count != doc->clip_count || overflow ||
        doc->clip_count > ANIM_ENGINE_MAX_SETTING_CLIPS || rows != doc->clip_count ||
        (rows && !settings)) {
        refuse(out, ANIM_ADVICE_REFUSE_INVENTORY);
        return 0;
    }
    anim_advice_clip *clips = anim_arena_calloc(arena, rows ? rows : 1, sizeof *clips);
    if (!clips)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < rows; i++) {
        const char *why = unity_clip(cfg, asset, run, m, &settings[i], i, &clips[i]);
        if (why) {
            refuse(out, why);
            return 0;
        }
    }
    out->clips = clips;
    out->clip_count = rows;
    out->has_importer = true;
    out->state = ANIM_ADVICE_AVAILABLE;
    return 0;
}

static int build_v2(const anim_config *cfg, const anim_engine_run *run, anim_arena *arena,
                    anim_advice_route route, anim_import_advice *out, anim_error *err)
{
    const anim_engine_profile *p = out->profile;
    out->basis = anim_arena_calloc(arena, 2, sizeof *out->basis);
    if (!out->basis)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    if (route == ANIM_ADVICE_ROUTE_GODOT_V2) {
        const anim_engine_setting_value *fps, *trim;
        if (!(fps = need_setting(cfg, run, "animation_fps", ANIM_ENGINE_SETTING_INT, err)) ||
            !(trim = need_setting(cfg, run, "animation_trimming", ANIM_ENGINE_SETTING_BOOL, err)))
            return -1;
        if (fps->integer < 1 || fps->integer > 120)
            return anim_error_set(err, ANIM_ERR_USAGE,
                                  "%s: engine.settings.animation_fps: %lld is outside 1..120 for "
                                  "engine profile %s revision %u",
                                  config_name(cfg), (long long)fps->integer, p->profile,
                                  p->revision);
        out->basis[0] = fps;
        out->basis[1] = trim;
        out->basis_count = 2;
        out->godot_fps = fps->integer;
        out->godot_fps_origin = fps->origin;
        out->godot_trimming = trim->boolean;
        out->godot_trimming_origin = trim->origin;
        out->projection = ANIM_ADVICE_PROJECTION_GODOT;
    } else {
        const anim_engine_setting_value *rate =
            need_setting(cfg, run, "sample_rate", ANIM_ENGINE_SETTING_SAMPLE_RATE, err);
        if (!rate)
            return -1;
        if (anim_advice_unreal_sample_rate(rate, &out->unreal))
            return anim_error_set(err, ANIM_ERR_USAGE,
                                  "%s: engine.settings.sample_rate: \"%s\" is not default_30, "
                                  "source_determined or custom_hz(1..48000)",
                                  config_name(cfg), rate->text ? rate->text : "");
        out->basis[0] = rate;
        out->basis_count = 1;
        out->unreal_origin = rate->origin;
        out->projection = ANIM_ADVICE_PROJECTION_UNREAL;
    }
    /* The projection exists only over a complete same-load closure: a
     * missing or unreadable dependency could change what the importer
     * sees, so a partial closure is a refusal, never a best guess. */
    if (strcmp(out->closure_state, "complete") == 0)
        out->state = ANIM_ADVICE_AVAILABLE;
    else
        refuse(out, ANIM_ADVICE_REFUSE_CLOSURE);
    return 0;
}

int anim_import_advice_build(const anim_config *cfg, const anim_asset *asset,
                             const anim_engine_run *run, const anim_measurements *measurements,
                             anim_arena *arena, anim_import_advice *out, anim_error *err)
{
    memset(out, 0, sizeof *out);
    const char *path = asset && asset->source.path ? asset->source.path : "";
    const anim_engine_profile *p = anim_engine_run_profile(run);
    const char *why = NULL;
    anim_advice_route route = anim_advice_route_of(p, &why);
    if (route == ANIM_ADVICE_ROUTE_NONE) {
        if (!p)
            return anim_error_set(err, ANIM_ERR_USAGE,
                                  "generate import-advice needs an [engine] profile");
        return anim_error_set(err, ANIM_ERR_USAGE,
                              "%s: [engine] profile %s revision %u %s", config_name(cfg),
                              p->profile, p->revision, why);
    }
    /* anim_engine_prepare refuses this first; kept so the advice can never
     * be built for a format its profile does not describe. */
    unsigned format = anim_engine_run_format(run);
    if (!(format & p->formats))
        return anim_error_set(err, ANIM_ERR_USAGE, "%s: engine profile %s revision %u accepts %s",
                              path, p->profile, p->revision, formats_phrase(p->formats));
    out->profile = p;
    out->run = run;
    out->schema_version = route == ANIM_ADVICE_ROUTE_GODOT_V2 ||
                                  route == ANIM_ADVICE_ROUTE_UNREAL_V2
                              ? 2
                              : 1;
    if (capture_provenance(run, arena, out, err)) {
        anim_error_prefix(err, "%s", path);
        return -1;
    }
    int rc = 0;
    switch (route) {
    case ANIM_ADVICE_ROUTE_UNITY_V1:
        rc = build_unity(cfg, asset, run, measurements, arena, out, err);
        break;
    case ANIM_ADVICE_ROUTE_UNMODELED_V1:
        refuse(out, ANIM_ADVICE_REFUSE_UNMODELED);
        break;
    default:
        rc = build_v2(cfg, run, arena, route, out, err);
        break;
    }
    if (rc)
        return -1;
    if (out->schema_version == 1 && anim_import_advice_identify(out, err)) {
        anim_error_prefix(err, "%s", path);
        return -1;
    }
    return 0;
}
