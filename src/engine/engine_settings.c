/* The closed setting vocabulary of every profile: key, type, domain,
 * scope, and whether the profile has a verified default. A setting is
 * either explicit in animsmith.toml or that default; nothing is guessed.
 * Profiles without a vocabulary (Unreal, Godot and Bevy revision 1)
 * accept no setting at all. Vocabulary order is the order settings are
 * resolved, recorded and documented in (docs/engine-profiles.md). */
#include <inttypes.h>
#include <string.h>

#include "animsmith/strbuf.h"
#include "animsmith/text.h"
#include "engine/engine_internal.h"

static const char *const bake_extract[] = {"bake", "extract", NULL};
static const char *const animation_types[] = {"generic", "humanoid", "legacy", NULL};
static const char *const avatar_setups[] = {"create_from_this_model", "copy_from_other_avatar",
                                            NULL};
static const char *const handler_environments[] = {"bare_empty", "bevy_pbr_stock_0_19", NULL};
static const char *const mesh_loads[] = {"nonempty", "empty", NULL};
static const char *const pointer_widths[] = {"bits32", "bits64", NULL};

#define DOC ANIM_ENGINE_SCOPE_DOCUMENT
#define CLIP ANIM_ENGINE_SCOPE_CLIP

/* Field order: key, type, scope, words, min, max, required, has_default,
 * default_bool, default_int, default_text, frozen, frozen_bool,
 * frozen_text. */
#define SETTING(k, t, scope, w, lo, hi, req, hasdef, db, di, dt, fz, fb, ft) \
    {k, ANIM_ENGINE_SETTING_##t, scope, w, lo, hi, req, hasdef, db, di, dt, fz, fb, ft}
/* Required, no default. */
#define REQ_BOOL(k, scope) \
    SETTING(k, BOOL, scope, NULL, 0, 0, true, false, false, 0, NULL, false, false, NULL)
#define REQ_WORD(k, scope, w) \
    SETTING(k, WORD, scope, w, 0, 0, true, false, false, 0, NULL, false, false, NULL)
#define REQ_PATH(k) \
    SETTING(k, PATH, DOC, NULL, 0, 0, true, false, false, 0, NULL, false, false, NULL)
#define REQ_RATE(k, lo, hi) \
    SETTING(k, SAMPLE_RATE, DOC, NULL, lo, hi, true, false, false, 0, NULL, false, false, NULL)
/* Required and frozen to one value. */
#define FROZEN_WORD(k, w, v) \
    SETTING(k, WORD, DOC, w, 0, 0, true, false, false, 0, NULL, true, false, v)
#define FROZEN_BOOL(k, v) \
    SETTING(k, BOOL, DOC, NULL, 0, 0, true, false, false, 0, NULL, true, v, NULL)
/* With the profile's default. */
#define DEF_BOOL(k, v) \
    SETTING(k, BOOL, DOC, NULL, 0, 0, false, true, v, 0, NULL, false, false, NULL)
#define DEF_WORD(k, w, v) \
    SETTING(k, WORD, DOC, w, 0, 0, false, true, false, 0, v, false, false, NULL)
#define DEF_INT(k, lo, hi, v) \
    SETTING(k, INT, DOC, NULL, lo, hi, false, true, false, v, NULL, false, false, NULL)
/* Optional, no default: absent means unknown. */
#define OPT_WORD(k, w) \
    SETTING(k, WORD, DOC, w, 0, 0, false, false, false, 0, NULL, false, false, NULL)

#define UNITY_CLIP_SETTINGS                                                       \
    REQ_WORD("root_rotation", CLIP, bake_extract),                                \
        REQ_WORD("root_position_y", CLIP, bake_extract),                          \
        REQ_WORD("root_position_xz", CLIP, bake_extract)

static const anim_engine_setting_def unity_generic_1[] = {
    REQ_BOOL("convert_units", DOC),
    REQ_BOOL("bake_axis_conversion", DOC),
    REQ_PATH("root_motion_source"),
    UNITY_CLIP_SETTINGS,
};
static const anim_engine_setting_def unity_humanoid_1[] = {
    REQ_BOOL("convert_units", DOC),
    REQ_BOOL("bake_axis_conversion", DOC),
    UNITY_CLIP_SETTINGS,
};
static const anim_engine_setting_def unity_generic_2[] = {
    FROZEN_WORD("animation_type", animation_types, "generic"),
    FROZEN_WORD("avatar_setup", avatar_setups, "create_from_this_model"),
    FROZEN_BOOL("import_animation", true),
    REQ_PATH("root_motion_source"),
    UNITY_CLIP_SETTINGS,
};
static const anim_engine_setting_def unreal_2[] = {
    REQ_RATE("sample_rate", 1, 48000),
};
static const anim_engine_setting_def godot_2[] = {
    DEF_INT("animation_fps", 1, 120, 30),
    DEF_BOOL("animation_trimming", false),
};

#define BEVY_SETTINGS                                                             \
    REQ_WORD("extension_handler_environment", DOC, handler_environments),         \
        REQ_BOOL("bevy_animation_feature", DOC), DEF_BOOL("rotate_scene_entity", false), \
        DEF_BOOL("rotate_meshes", false), DEF_WORD("load_meshes", mesh_loads, "nonempty"), \
        DEF_BOOL("load_animations", true)

static const anim_engine_setting_def bevy_2[] = {
    BEVY_SETTINGS,
};
static const anim_engine_setting_def bevy_3[] = {
    BEVY_SETTINGS,
    OPT_WORD("target_pointer_width", pointer_widths),
};

static const char *const humanoid_not_applicable[] = {"root_motion_source", NULL};

typedef struct {
    const anim_engine_setting_def *defs;
    size_t count;
    const char *const *not_applicable;
} vocabulary;

#define VOCAB(a) {a, sizeof a / sizeof a[0], NULL}
static const vocabulary empty_vocabulary = {NULL, 0, NULL};
static const vocabulary v_unity_generic_1 = VOCAB(unity_generic_1);
static const vocabulary v_unity_generic_2 = VOCAB(unity_generic_2);
static const vocabulary v_unity_humanoid_1 = {
    unity_humanoid_1, sizeof unity_humanoid_1 / sizeof unity_humanoid_1[0],
    humanoid_not_applicable};
static const vocabulary v_unreal_2 = VOCAB(unreal_2);
static const vocabulary v_godot_2 = VOCAB(godot_2);
static const vocabulary v_bevy_2 = VOCAB(bevy_2);
static const vocabulary v_bevy_3 = VOCAB(bevy_3);

static const vocabulary *vocabulary_of(const anim_engine_profile *p)
{
    if (!p)
        return &empty_vocabulary;
    switch (p->family) {
    case ANIM_ENGINE_UNITY_GENERIC:
        return p->revision == 1 ? &v_unity_generic_1 : &v_unity_generic_2;
    case ANIM_ENGINE_UNITY_HUMANOID:
        return &v_unity_humanoid_1;
    case ANIM_ENGINE_UNREAL:
        return p->revision == 2 ? &v_unreal_2 : &empty_vocabulary;
    case ANIM_ENGINE_GODOT:
        return p->revision == 2 ? &v_godot_2 : &empty_vocabulary;
    case ANIM_ENGINE_BEVY:
        return p->revision == 2   ? &v_bevy_2
               : p->revision == 3 ? &v_bevy_3
                                  : &empty_vocabulary;
    }
    return &empty_vocabulary;
}

static bool key_is(const char *key, const char *s, size_t len)
{
    return strlen(key) == len && memcmp(key, s, len) == 0;
}

const anim_engine_setting_def *anim_engine_settings_of(const anim_engine_profile *p,
                                                       size_t *count)
{
    const vocabulary *v = vocabulary_of(p);
    *count = v->count;
    return v->defs;
}

const anim_engine_setting_def *anim_engine_setting_find(const anim_engine_profile *p,
                                                        const char *key, size_t len)
{
    const vocabulary *v = vocabulary_of(p);
    for (size_t i = 0; key && i < v->count; i++)
        if (key_is(v->defs[i].key, key, len))
            return &v->defs[i];
    return NULL;
}

bool anim_engine_setting_not_applicable(const anim_engine_profile *p, const char *key,
                                        size_t len)
{
    const vocabulary *v = vocabulary_of(p);
    for (size_t i = 0; key && v->not_applicable && v->not_applicable[i]; i++)
        if (key_is(v->not_applicable[i], key, len))
            return true;
    return false;
}

/* ---- values ------------------------------------------------------------ */

static const char *finish(anim_arena *arena, anim_strbuf *sb)
{
    const char *s =
        sb->failed ? NULL : anim_arena_strndup(arena, sb->data ? sb->data : "", sb->len);
    anim_strbuf_free(sb);
    return s ? s : "has a value that cannot be described (out of memory)";
}

static const char *found_type(anim_arena *arena, const char *want, const anim_toml_value *v)
{
    const char *s = anim_arena_printf(arena, "must be %s, found %s", want,
                                      anim_toml_type_name(v->type));
    return s ? s : "has the wrong type";
}

/* `(got "text")`, quoted so it is safe in a terminal and pastes back. */
static void got_text(anim_strbuf *sb, const char *s, size_t len)
{
    anim_strbuf_puts(sb, " (got ");
    anim_text_quote_toml(sb, s, len);
    anim_strbuf_putc(sb, ')');
}

static const char *parse_word(const anim_engine_profile *p, const anim_engine_setting_def *def,
                              const anim_toml_value *v, anim_arena *arena,
                              anim_engine_setting_value *out)
{
    const char *s = v->u.string.data;
    size_t len = v->u.string.len;
    const char *match = NULL;
    for (size_t i = 0; def->words[i]; i++)
        if (key_is(def->words[i], s, len))
            match = def->words[i];
    anim_strbuf sb = ANIM_STRBUF_INIT;
    if (!match) {
        size_t n = 0;
        while (def->words[n])
            n++;
        anim_strbuf_puts(&sb, n == 2 ? "must be " : "must be one of ");
        for (size_t i = 0; i < n; i++)
            anim_strbuf_printf(&sb, "%s\"%s\"", i == 0 ? "" : n == 2 ? " or " : ", ",
                               def->words[i]);
        got_text(&sb, s, len);
        return finish(arena, &sb);
    }
    if (def->frozen && strcmp(match, def->frozen_text) != 0) {
        anim_strbuf_printf(&sb, "is frozen to \"%s\" by %s revision %u", def->frozen_text,
                           p->profile, (unsigned)p->revision);
        got_text(&sb, s, len);
        return finish(arena, &sb);
    }
    out->text = match; /* the vocabulary's own spelling: static */
    return NULL;
}

/* custom_hz(N): N in canonical decimal (no sign, no leading zero). */
static bool parse_custom_hz(const char *s, size_t len, int64_t lo, int64_t hi, int64_t *hz)
{
    static const char head[] = "custom_hz(";
    size_t h = sizeof head - 1;
    if (len < h + 2 || memcmp(s, head, h) != 0 || s[len - 1] != ')')
        return false;
    size_t digits = len - h - 1;
    if (digits > 6 || s[h] == '0')
        return false;
    int64_t n = 0;
    for (size_t i = h; i < len - 1; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        n = n * 10 + (s[i] - '0');
    }
    if (n < lo || n > hi)
        return false;
    *hz = n;
    return true;
}

const char *anim_engine_setting_parse(const anim_engine_profile *p,
                                      const anim_engine_setting_def *def,
                                      const anim_toml_value *v, anim_arena *arena,
                                      anim_engine_setting_value *out)
{
    memset(out, 0, sizeof *out);
    out->key = def->key;
    out->type = def->type;
    out->origin = ANIM_ENGINE_ORIGIN_EXPLICIT;
    anim_strbuf sb = ANIM_STRBUF_INIT;
    switch (def->type) {
    case ANIM_ENGINE_SETTING_BOOL:
        if (v->type != ANIM_TOML_BOOLEAN)
            return found_type(arena, "a boolean", v);
        if (def->frozen && v->u.boolean != def->frozen_bool) {
            anim_strbuf_printf(&sb, "is frozen to %s by %s revision %u (got %s)",
                               def->frozen_bool ? "true" : "false", p->profile,
                               (unsigned)p->revision, v->u.boolean ? "true" : "false");
            return finish(arena, &sb);
        }
        out->boolean = v->u.boolean;
        return NULL;
    case ANIM_ENGINE_SETTING_INT:
        if (v->type != ANIM_TOML_INTEGER)
            return found_type(arena, "an integer", v);
        if (v->u.integer < def->min || v->u.integer > def->max) {
            anim_strbuf_printf(&sb,
                               "must be an integer in [%" PRId64 ", %" PRId64 "] (got %" PRId64
                               ")",
                               def->min, def->max, v->u.integer);
            return finish(arena, &sb);
        }
        out->integer = v->u.integer;
        return NULL;
    case ANIM_ENGINE_SETTING_WORD:
        if (v->type != ANIM_TOML_STRING)
            return found_type(arena, "a string", v);
        return parse_word(p, def, v, arena, out);
    case ANIM_ENGINE_SETTING_PATH: {
        if (v->type != ANIM_TOML_STRING)
            return found_type(arena, "a string", v);
        const char *why = engine_path_problem(v->u.string.data, v->u.string.len, arena);
        if (why) {
            anim_strbuf_printf(&sb, "is not a valid source-transform path: %s", why);
            got_text(&sb, v->u.string.data, v->u.string.len);
            return finish(arena, &sb);
        }
        out->text = v->u.string.data;
        return NULL;
    }
    case ANIM_ENGINE_SETTING_SAMPLE_RATE: {
        if (v->type != ANIM_TOML_STRING)
            return found_type(arena, "a string", v);
        const char *s = v->u.string.data;
        size_t len = v->u.string.len;
        int64_t hz = 0;
        if (key_is("default_30", s, len))
            out->text = "default_30";
        else if (key_is("source_determined", s, len))
            out->text = "source_determined";
        else if (parse_custom_hz(s, len, def->min, def->max, &hz)) {
            out->text = s;
            out->integer = hz;
        } else {
            anim_strbuf_printf(&sb,
                               "must be \"default_30\", \"source_determined\" or "
                               "\"custom_hz(N)\" with N an integer in [%" PRId64 ", %" PRId64 "]",
                               def->min, def->max);
            got_text(&sb, s, len);
            return finish(arena, &sb);
        }
        return NULL;
    }
    }
    return "has an unknown setting type";
}

void anim_engine_setting_default(const anim_engine_setting_def *def,
                                 anim_engine_setting_value *out)
{
    memset(out, 0, sizeof *out);
    out->key = def->key;
    out->type = def->type;
    out->origin = ANIM_ENGINE_ORIGIN_DEFAULT;
    out->boolean = def->default_bool;
    out->integer = def->default_int;
    out->text = def->default_text;
}
