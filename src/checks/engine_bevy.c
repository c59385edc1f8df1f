/* Shared pieces of the Bevy engine checks (see engine_bevy.h). */
#include "checks/engine_bevy.h"

#include <string.h>

bool engine_bevy_applies(const anim_lint_context *ctx, unsigned revisions)
{
    const anim_engine_profile *p = ctx->engine ? anim_engine_run_profile(ctx->engine) : NULL;
    if (!p || p->family != ANIM_ENGINE_BEVY || p->revision < 1 || p->revision > 3 ||
        !(revisions & (1u << (p->revision - 1))))
        return false;
    unsigned format = anim_engine_run_format(ctx->engine);
    return (format & (ANIM_ENGINE_FORMAT_GLTF | ANIM_ENGINE_FORMAT_GLB)) != 0;
}

/* The Bevy 0.19.0 loader settings the checks read, with the documented
 * defaults of the optional ones. */
typedef struct {
    const char *key;
    const char *origin_ref;
    bool required;
    bool is_bool;
    bool default_bool;
    const char *default_word;
} setting_def;

static const setting_def settings[] = {
    {"extension_handler_environment", "extension_handler_environment/origin", true, false, false,
     NULL},
    {"bevy_animation_feature", "bevy_animation_feature/origin", true, true, false, NULL},
    {"rotate_scene_entity", "rotate_scene_entity/origin", false, true, false, NULL},
    {"rotate_meshes", "rotate_meshes/origin", false, true, false, NULL},
    {"load_meshes", "load_meshes/origin", false, false, false, "nonempty"},
    {"load_animations", "load_animations/origin", false, true, true, NULL},
};

engine_bevy_setting engine_bevy_setting_get(const anim_lint_context *ctx, const char *key)
{
    engine_bevy_setting s;
    memset(&s, 0, sizeof s);
    s.key = key;
    const setting_def *def = NULL;
    for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++)
        if (strcmp(settings[i].key, key) == 0)
            def = &settings[i];
    if (!def)
        return s; /* not a Bevy setting: unresolved */
    s.origin_ref = def->origin_ref;
    s.is_bool = def->is_bool;
    const anim_engine_setting_value *v =
        ctx->engine ? anim_engine_run_setting(ctx->engine, key) : NULL;
    if (v && (def->is_bool || v->text)) {
        s.resolved = true;
        s.boolean = def->is_bool && v->boolean;
        s.word = def->is_bool ? NULL : v->text;
        s.origin = v->origin;
    } else if (!def->required) {
        s.resolved = true;
        s.boolean = def->default_bool;
        s.word = def->default_word;
        s.origin = ANIM_ENGINE_ORIGIN_DEFAULT;
    }
    return s;
}

void engine_bevy_setting_basis(const engine_bevy_setting *s, anim_basis_row *rows, uint32_t *n)
{
    if (!s->resolved)
        return;
    rows[*n].kind = ANIM_BASIS_SETTING;
    rows[*n].value =
        s->is_bool ? anim_field_bool(s->key, s->boolean) : anim_field_text(s->key, s->word);
    (*n)++;
    rows[*n].kind = ANIM_BASIS_SETTING;
    rows[*n].value = anim_field_text(s->origin_ref, anim_engine_origin_name(s->origin));
    (*n)++;
}

void engine_bevy_fact(const anim_lint_context *ctx, anim_basis_row *rows, uint32_t *n,
                      const char *key)
{
    const anim_engine_profile *p = ctx->engine ? anim_engine_run_profile(ctx->engine) : NULL;
    const anim_engine_fact *f = p ? anim_engine_profile_fact(p, key) : NULL;
    rows[*n].kind = ANIM_BASIS_PROFILE_FACT;
    if (!f)
        rows[*n].value = anim_field_text(key, NULL);
    else if (f->kind == ANIM_ENGINE_FACT_INT)
        rows[*n].value = anim_field_int(key, f->integer);
    else if (f->kind == ANIM_ENGINE_FACT_BOOL)
        rows[*n].value = anim_field_bool(key, f->boolean);
    else
        rows[*n].value = anim_field_text(key, f->text);
    (*n)++;
}
