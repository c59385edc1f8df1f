/* The raw glTF animation/channel inventory (see engine_inventory.h). */
#include "checks/engine_inventory.h"

#include <stdio.h>
#include <string.h>

#include "animsmith/json.h"

const char *anim_engine_inventory_coverage_name(anim_engine_inventory_coverage c)
{
    switch (c) {
    case ANIM_ENGINE_INVENTORY_COMPLETE: return "complete";
    case ANIM_ENGINE_INVENTORY_PARTIAL: return "partial";
    default: return "unavailable";
    }
}

/* A member of the root, without expanding a deferred container (its count
 * is already known); the reader refuses duplicate keys. NULL when absent. */
static const anim_json_value *raw_member(const anim_json_value *root, const char *key)
{
    if (!root || root->type != ANIM_JSON_OBJECT)
        return NULL;
    size_t key_len = strlen(key);
    for (size_t i = 0; i < anim_json_count(root); i++) {
        const anim_json_member *m = anim_json_member_at(root, i);
        if (anim_json_key_len(m) == key_len && memcmp(m->key, key, key_len) == 0)
            return &m->value;
    }
    return NULL;
}

/* An FBX input's tree is the projection the reader made, not the source. */
static bool raw_source_present(const anim_asset *asset)
{
    return asset && !asset->source.fbx && asset->source.root &&
           asset->source.root->type == ANIM_JSON_OBJECT;
}

bool anim_engine_inventory_complete_empty(const anim_asset *asset)
{
    if (!raw_source_present(asset))
        return false;
    const anim_json_value *anims = raw_member(asset->source.root, "animations");
    return !anims || (anims->type == ANIM_JSON_ARRAY && anims->len == 0);
}

static uint32_t json_index(const anim_json_value *v)
{
    if (!v || !anim_json_is_integer(v) || anim_json_integer(v) < 0 ||
        anim_json_integer(v) >= (int64_t)ANIM_NONE)
        return ANIM_NONE;
    return (uint32_t)anim_json_integer(v);
}

static int copy_text(anim_arena *arena, const anim_json_value *v, anim_engine_inventory_text *out)
{
    out->s = NULL;
    out->len = 0;
    if (!v || v->type != ANIM_JSON_STRING)
        return 0;
    char *s = anim_json_strdup(arena, v);
    if (!s)
        return -1;
    out->s = s;
    out->len = anim_json_string_len(v);
    return 0;
}

/* Records the first shortfall of a coverage (later ones keep it). */
static int shortfall(anim_arena *arena, anim_engine_inventory_coverage *cov, const char **reason,
                     const char **detail, anim_engine_inventory_coverage state,
                     const char *code, const char *text)
{
    if (*cov == ANIM_ENGINE_INVENTORY_COMPLETE) {
        *cov = state;
        *reason = code;
        if (!(*detail = anim_arena_strdup(arena, text)))
            return -1;
    }
    return 0;
}

static int nomem(anim_error *err)
{
    return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while inventorying animations");
}

static int channel_row(anim_arena *arena, const anim_json_value *ch, const anim_json_value *samplers,
                       uint32_t index, anim_engine_inventory_channel *row)
{
    memset(row, 0, sizeof *row);
    row->index = index;
    row->sampler = row->target_node = ANIM_NONE;
    row->input_accessor = row->output_accessor = ANIM_NONE;
    if (ch->type != ANIM_JSON_OBJECT)
        return 0;
    const anim_json_value *target = anim_json_get(ch, "target");
    const anim_json_value *path = target ? anim_json_get(target, "path") : NULL;
    row->sampler = json_index(anim_json_get(ch, "sampler"));
    if (target && target->type == ANIM_JSON_OBJECT) {
        row->target_node = json_index(anim_json_get(target, "node"));
        if (copy_text(arena, path, &row->target_path))
            return -1;
    }
    bool sampler_ok = samplers && samplers->type == ANIM_JSON_ARRAY &&
                      row->sampler != ANIM_NONE && row->sampler < anim_json_count(samplers);
    if (sampler_ok) {
        const anim_json_value *s = anim_json_item(samplers, row->sampler);
        if (s->type == ANIM_JSON_OBJECT) {
            row->input_accessor = json_index(anim_json_get(s, "input"));
            row->output_accessor = json_index(anim_json_get(s, "output"));
            if (copy_text(arena, anim_json_get(s, "interpolation"), &row->interpolation))
                return -1;
        }
    }
    row->well_formed = sampler_ok && target && target->type == ANIM_JSON_OBJECT &&
                       row->target_path.s != NULL;
    return 0;
}

/* The channel rows of one well-formed animation object. */
static int channel_rows(anim_arena *arena, const anim_json_value *obj,
                        anim_engine_inventory_animation *an)
{
    const anim_json_value *channels = anim_json_get(obj, "channels");
    const anim_json_value *samplers = anim_json_get(obj, "samplers");
    char text[96];
    if (!channels || channels->type != ANIM_JSON_ARRAY) {
        snprintf(text, sizeof text, "animation %u has no \"channels\" array", an->index);
        return shortfall(arena, &an->channel_coverage, &an->channel_reason, &an->channel_detail,
                         ANIM_ENGINE_INVENTORY_UNAVAILABLE,
                         ANIM_ENGINE_INVENTORY_CHANNELS_INCOMPLETE, text);
    }
    size_t n = anim_json_count(channels);
    an->source_channel_count = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
    uint32_t keep = n > ANIM_ENGINE_INVENTORY_MAX_CHANNELS ? ANIM_ENGINE_INVENTORY_MAX_CHANNELS
                                                           : (uint32_t)n;
    an->channels = anim_arena_calloc(arena, keep ? keep : 1, sizeof *an->channels);
    if (!an->channels)
        return -1;
    for (uint32_t c = 0; c < keep; c++) {
        anim_engine_inventory_channel *row = &an->channels[an->channel_count++];
        if (channel_row(arena, anim_json_item(channels, c), samplers, c, row))
            return -1;
        if (!row->well_formed) {
            snprintf(text, sizeof text, "animation %u channel %u is malformed", an->index, c);
            if (shortfall(arena, &an->channel_coverage, &an->channel_reason, &an->channel_detail,
                          ANIM_ENGINE_INVENTORY_PARTIAL, ANIM_ENGINE_INVENTORY_CHANNELS_INCOMPLETE,
                          text))
                return -1;
        }
    }
    /* The row past the bound is the overflow witness. */
    if (n > ANIM_ENGINE_INVENTORY_MAX_CHANNELS) {
        snprintf(text, sizeof text, "animation %u has more than %u channels", an->index,
                 ANIM_ENGINE_INVENTORY_MAX_CHANNELS);
        if (shortfall(arena, &an->channel_coverage, &an->channel_reason, &an->channel_detail,
                      ANIM_ENGINE_INVENTORY_PARTIAL, ANIM_ENGINE_INVENTORY_CHANNELS_OVERFLOW, text))
            return -1;
    }
    return 0;
}

/* The channel domain as a whole: partial as soon as one animation's rows
 * are not complete (the other animations' rows are still retained), with
 * the first such animation's reason and text. */
static void fold_channels(anim_engine_inventory *inv)
{
    for (uint32_t a = 0; a < inv->animation_count; a++) {
        const anim_engine_inventory_animation *an = &inv->animations[a];
        inv->channel_row_count += an->channel_count;
        if (an->channel_coverage == ANIM_ENGINE_INVENTORY_COMPLETE ||
            inv->channel_coverage != ANIM_ENGINE_INVENTORY_COMPLETE)
            continue;
        inv->channel_coverage = ANIM_ENGINE_INVENTORY_PARTIAL;
        inv->channel_reason = an->channel_reason;
        inv->channel_detail = an->channel_detail;
    }
}

int anim_engine_inventory_build(const anim_asset *asset, anim_arena *arena,
                                anim_engine_inventory *out, anim_error *err)
{
    memset(out, 0, sizeof *out);
    if (!raw_source_present(asset)) {
        /* Nothing to count from: both domains are unavailable. */
        out->coverage = out->channel_coverage = ANIM_ENGINE_INVENTORY_UNAVAILABLE;
        out->reason = ANIM_ENGINE_INVENTORY_ANIMATIONS_INCOMPLETE;
        out->channel_reason = ANIM_ENGINE_INVENTORY_CHANNELS_INCOMPLETE;
        out->detail = out->channel_detail = "the raw glTF JSON of the input is not available";
        return 0;
    }
    const anim_json_value *anims = raw_member(asset->source.root, "animations");
    if (anims && anims->type != ANIM_JSON_ARRAY) {
        out->coverage = out->channel_coverage = ANIM_ENGINE_INVENTORY_UNAVAILABLE;
        out->reason = ANIM_ENGINE_INVENTORY_ANIMATIONS_INCOMPLETE;
        out->channel_reason = ANIM_ENGINE_INVENTORY_CHANNELS_INCOMPLETE;
        out->detail = out->channel_detail = "\"animations\" is not an array";
        return 0;
    }
    size_t n = anims ? anim_json_count(anims) : 0;
    out->source_animation_count = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
    uint32_t keep = n > ANIM_ENGINE_INVENTORY_MAX_ANIMATIONS ? ANIM_ENGINE_INVENTORY_MAX_ANIMATIONS
                                                             : (uint32_t)n;
    out->animations = anim_arena_calloc(arena, keep ? keep : 1, sizeof *out->animations);
    if (!out->animations)
        return nomem(err);
    char text[96];
    for (uint32_t a = 0; a < keep; a++) {
        const anim_json_value *obj = anim_json_item(anims, a);
        anim_engine_inventory_animation *an = &out->animations[out->animation_count++];
        an->index = a;
        if (obj->type != ANIM_JSON_OBJECT) {
            an->channel_coverage = ANIM_ENGINE_INVENTORY_UNAVAILABLE;
            an->channel_reason = ANIM_ENGINE_INVENTORY_CHANNELS_INCOMPLETE;
            snprintf(text, sizeof text, "animation %u is not a JSON object", a);
            if (!(an->channel_detail = anim_arena_strdup(arena, text)) ||
                shortfall(arena, &out->coverage, &out->reason, &out->detail,
                          ANIM_ENGINE_INVENTORY_PARTIAL,
                          ANIM_ENGINE_INVENTORY_ANIMATIONS_INCOMPLETE, text))
                return nomem(err);
            continue;
        }
        an->well_formed = true;
        if (copy_text(arena, anim_json_get(obj, "name"), &an->name) ||
            channel_rows(arena, obj, an))
            return nomem(err);
    }
    if (n > ANIM_ENGINE_INVENTORY_MAX_ANIMATIONS) {
        snprintf(text, sizeof text, "the file has more than %u animations",
                 ANIM_ENGINE_INVENTORY_MAX_ANIMATIONS);
        if (shortfall(arena, &out->coverage, &out->reason, &out->detail,
                      ANIM_ENGINE_INVENTORY_PARTIAL, ANIM_ENGINE_INVENTORY_ANIMATIONS_OVERFLOW,
                      text))
            return nomem(err);
    }
    fold_channels(out);
    return 0;
}
