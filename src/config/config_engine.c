/* [engine]: the four selection keys come together or not at all, and only
 * the frozen, supported tuples are accepted ("there is no fallback or
 * nearest engine profile": a near miss would silently apply the wrong
 * importer's advice). Once every table is read, [engine.settings] and each
 * clip's engine_settings are judged against the selected profile's closed
 * vocabulary (animsmith/engine.h): unknown keys, wrong scope, types and
 * domains, frozen values, missing required settings. The document
 * settings are stored resolved, defaults materialized with their origin.
 * A table holding only settings is accepted (no profile: nothing reads
 * it). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "animsmith/engine.h"
#include "animsmith/strbuf.h"
#include "config/config_internal.h"

static const char *const engine_keys[] = {"profile",  "profile_revision", "engine_version",
                                          "importer", "settings",         NULL};

static const char *supported_list(cfg_ctx *c)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    for (size_t i = 0; i < anim_engine_profile_count(); i++) {
        const anim_engine_profile *t = anim_engine_profile_at(i);
        anim_strbuf_printf(&sb, "%s%s/%u/%s/%s", i ? ", " : "", t->profile, t->revision,
                           t->engine_version, t->importer);
    }
    const char *s = sb.failed ? NULL : anim_arena_strdup(c->arena, sb.data);
    anim_strbuf_free(&sb);
    return s ? s : "";
}

int cfg_load_engine(cfg_ctx *c, const anim_toml_value *v)
{
    if (cfg_expect_table(c, v, "engine") < 0 || cfg_check_keys(c, v, "[engine]", engine_keys) < 0)
        return -1;
    anim_engine_config *eng = &c->cfg->engine;
    c->engine_line = v->line;
    c->engine_column = v->column;
    const char *profile = NULL, *version = NULL, *importer = NULL;
    bool has_revision = false;
    int64_t revision = 0;
    for (size_t i = 0; i < v->u.table.count; i++) {
        const anim_toml_entry *e = &v->u.table.entries[i];
        int r = 0;
        if (cfg_key_is(e, "profile"))
            r = cfg_read_string(c, "engine", e, &profile);
        else if (cfg_key_is(e, "engine_version"))
            r = cfg_read_string(c, "engine", e, &version);
        else if (cfg_key_is(e, "importer"))
            r = cfg_read_string(c, "engine", e, &importer);
        else if (cfg_key_is(e, "profile_revision")) {
            uint64_t u;
            r = cfg_read_uint(c, "engine", e, &u);
            revision = (int64_t)u;
            has_revision = true;
        } else {
            r = cfg_expect_table_entry(c, "engine", e);
            eng->settings = e->value;
        }
        if (r < 0)
            return -1;
    }
    int given = (profile != NULL) + has_revision + (version != NULL) + (importer != NULL);
    if (given == 0)
        return 0;
    if (given < 4) {
        const char *missing = !profile        ? "profile"
                              : !has_revision ? "profile_revision"
                              : !version      ? "engine_version"
                                              : "importer";
        return cfg_fail(c, v->line, v->column,
                        "[engine] requires profile, profile_revision, engine_version, and "
                        "importer (missing \"%s\")",
                        missing);
    }
    const anim_engine_profile *t =
        revision >= 0 && revision <= UINT32_MAX
            ? anim_engine_profile_find(profile, (uint32_t)revision, version, importer)
            : NULL;
    if (t) {
        eng->present = true;
        eng->def = t;
        eng->profile = profile;
        eng->profile_revision = anim_arena_printf(c->arena, "%" PRId64, revision);
        eng->engine_version = version;
        eng->importer = importer;
        return eng->profile_revision ? 0 : cfg_nomem(c);
    }
    return cfg_fail(c, v->line, v->column,
                    "[engine] profile %s profile_revision %" PRId64
                    " engine_version %s importer %s is not a supported engine profile "
                    "(supported: %s)",
                    cfg_quote(c, profile, strlen(profile)), revision,
                    cfg_quote(c, version, strlen(version)),
                    cfg_quote(c, importer, strlen(importer)), supported_list(c));
}

/* ---- settings against the profile ----------------------------------- */

/* "unity-generic revision 2", for messages. */
static const char *profile_name(cfg_ctx *c, const anim_engine_profile *p)
{
    const char *s =
        anim_arena_printf(c->arena, "%s revision %u", p->profile, (unsigned)p->revision);
    return s ? s : p->profile;
}

/* The keys of one scope, NULL-terminated, for suggestions. */
static const char *const *scope_keys(cfg_ctx *c, const anim_engine_profile *p,
                                     anim_engine_setting_scope scope)
{
    size_t n = 0;
    const anim_engine_setting_def *defs = anim_engine_settings_of(p, &n);
    const char **keys = anim_arena_calloc(c->arena, n + 1, sizeof *keys);
    if (!keys)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (defs[i].scope == scope)
            keys[k++] = defs[i].key;
    return keys;
}

static size_t scope_count(const anim_engine_profile *p, anim_engine_setting_scope scope)
{
    size_t n = 0, k = 0;
    const anim_engine_setting_def *defs = anim_engine_settings_of(p, &n);
    for (size_t i = 0; i < n; i++)
        k += defs[i].scope == scope;
    return k;
}

/* A table where the profile takes no setting: refused at its first key
 * (or at the table when it is empty: writing it is already a claim). */
static int no_settings(cfg_ctx *c, const anim_toml_value *t, const char *path, const char *what)
{
    const anim_toml_entry *e = t->u.table.count ? &t->u.table.entries[0] : NULL;
    return cfg_fail(c, e ? e->line : t->line, e ? e->column : t->column, "%s: %s",
                    e ? cfg_entry_path(c, path, e) : path, what);
}

/* Another revision of the same profile that has the key: a config written
 * for one revision and pointed at another is the likely mistake. */
static const anim_engine_profile *other_revision(const anim_engine_profile *p,
                                                 const anim_toml_entry *e)
{
    for (size_t i = 0; i < anim_engine_profile_count(); i++) {
        const anim_engine_profile *q = anim_engine_profile_at(i);
        if (q != p && strcmp(q->profile, p->profile) == 0 &&
            anim_engine_setting_find(q, e->key, e->key_len))
            return q;
    }
    return NULL;
}

/* One entry of a settings table of the given scope: the key must be in
 * the vocabulary with that scope and the value in its domain. */
static int check_entry(cfg_ctx *c, const anim_engine_profile *p, const char *path,
                       const char *label, anim_engine_setting_scope scope,
                       const anim_toml_entry *e, anim_engine_setting_value *out)
{
    const anim_engine_setting_def *def = anim_engine_setting_find(p, e->key, e->key_len);
    if (!def && anim_engine_setting_not_applicable(p, e->key, e->key_len))
        return cfg_fail(c, e->line, e->column, "%s is not applicable to %s",
                        cfg_entry_path(c, path, e), p->profile);
    if (def && def->scope != scope) {
        if (def->scope == ANIM_ENGINE_SCOPE_CLIP)
            return cfg_fail(c, e->line, e->column,
                            "%s is a clip-scoped setting of %s: set it in "
                            "[clips.\"<selector>\".engine_settings]",
                            cfg_entry_path(c, path, e), profile_name(c, p));
        return cfg_fail(c, e->line, e->column,
                        "%s is a document-scoped setting of %s: set it in [engine.settings]",
                        cfg_entry_path(c, path, e), profile_name(c, p));
    }
    if (!def) {
        if (scope == ANIM_ENGINE_SCOPE_CLIP && scope_count(p, scope) == 0)
            return cfg_fail(c, e->line, e->column,
                            "%s: %s has no clip-scoped engine settings (its settings are "
                            "document-scoped: [engine.settings])",
                            cfg_entry_path(c, path, e), profile_name(c, p));
        const char *const *known = scope_keys(c, p, scope);
        if (!known)
            return cfg_nomem(c);
        const anim_engine_profile *other = other_revision(p, e);
        if (other)
            return cfg_fail(c, e->line, e->column,
                            "%s is a setting of %s revision %u, not of revision %u",
                            cfg_entry_path(c, path, e), other->profile,
                            (unsigned)other->revision, (unsigned)p->revision);
        return cfg_unknown_name(c, e, "engine setting", label, known);
    }
    const char *why = anim_engine_setting_parse(p, def, e->value, c->arena, out);
    if (why)
        return cfg_fail(c, e->value->line, e->value->column, "%s %s",
                        cfg_entry_path(c, path, e), why);
    return 0;
}

/* [engine.settings]: every key, then the required ones it lacks (in
 * vocabulary order), then the resolved list. */
static int check_document(cfg_ctx *c, const anim_engine_profile *p)
{
    anim_engine_config *eng = &c->cfg->engine;
    const anim_toml_value *t = eng->settings;
    size_t n = 0;
    const anim_engine_setting_def *defs = anim_engine_settings_of(p, &n);
    if (n == 0) {
        if (!t)
            return 0;
        const char *what = anim_arena_printf(c->arena, "%s has no engine settings",
                                             profile_name(c, p));
        return no_settings(c, t, "engine.settings", what ? what : "no engine settings");
    }
    anim_engine_setting_value *given = anim_arena_calloc(c->arena, n, sizeof *given);
    bool *has = anim_arena_calloc(c->arena, n, sizeof *has);
    anim_engine_setting_value *resolved = anim_arena_calloc(c->arena, n, sizeof *resolved);
    if (!given || !has || !resolved)
        return cfg_nomem(c);
    const char *label = anim_arena_printf(c->arena, "[engine.settings] of %s", profile_name(c, p));
    if (!label)
        return cfg_nomem(c);
    for (size_t i = 0; t && i < t->u.table.count; i++) {
        const anim_toml_entry *e = &t->u.table.entries[i];
        anim_engine_setting_value v;
        if (check_entry(c, p, "engine.settings", label, ANIM_ENGINE_SCOPE_DOCUMENT, e, &v) < 0)
            return -1;
        size_t k = (size_t)(anim_engine_setting_find(p, e->key, e->key_len) - defs);
        given[k] = v;
        has[k] = true;
    }
    uint32_t count = 0;
    for (size_t k = 0; k < n; k++) {
        const anim_engine_setting_def *def = &defs[k];
        if (def->scope != ANIM_ENGINE_SCOPE_DOCUMENT)
            continue;
        if (has[k]) {
            resolved[count++] = given[k];
        } else if (def->has_default) {
            anim_engine_setting_default(def, &resolved[count++]);
        } else if (def->required) {
            uint32_t line = t ? t->line : c->engine_line;
            uint32_t column = t ? t->column : c->engine_column;
            return cfg_fail(c, line, column,
                            "engine.settings is missing required key \"%s\" (%s has no "
                            "default for it)",
                            def->key, profile_name(c, p));
        }
        /* optional without a default and absent: stays unknown */
    }
    eng->settings_resolved = resolved;
    eng->settings_resolved_count = count;
    return 0;
}

/* Every [clips.<selector>].engine_settings, in the clips' byte-wise order.
 * Whether each real clip resolves every required key is known only once
 * the input is read (anim_engine_prepare). */
static int check_clips(cfg_ctx *c, const anim_engine_profile *p)
{
    const anim_config *cfg = c->cfg;
    size_t n = 0;
    anim_engine_settings_of(p, &n);
    for (uint32_t i = 0; i < cfg->clip_count; i++) {
        const anim_clip_selector *sel = &cfg->clips[i];
        const anim_toml_value *t = sel->expect.engine_settings;
        if (!t)
            continue;
        const char *clip = cfg_path(c, "clips", sel->selector, strlen(sel->selector), true);
        const char *path = anim_arena_printf(c->arena, "%s.engine_settings", clip);
        const char *label = anim_arena_printf(c->arena, "[%s] of %s", path ? path : "",
                                              profile_name(c, p));
        if (!path || !label)
            return cfg_nomem(c);
        if (n == 0) {
            const char *what = anim_arena_printf(c->arena, "%s has no engine settings",
                                                 profile_name(c, p));
            return no_settings(c, t, path, what ? what : "no engine settings");
        }
        if (t->u.table.count == 0 && scope_count(p, ANIM_ENGINE_SCOPE_CLIP) == 0) {
            const char *what = anim_arena_printf(
                c->arena, "%s has no clip-scoped engine settings (its settings are "
                          "document-scoped: [engine.settings])",
                profile_name(c, p));
            return no_settings(c, t, path, what ? what : "no clip-scoped engine settings");
        }
        for (size_t k = 0; k < t->u.table.count; k++) {
            anim_engine_setting_value v;
            if (check_entry(c, p, path, label, ANIM_ENGINE_SCOPE_CLIP, &t->u.table.entries[k],
                            &v) < 0)
                return -1;
        }
    }
    return 0;
}

int cfg_finish_engine(cfg_ctx *c)
{
    const anim_engine_config *eng = &c->cfg->engine;
    if (!eng->present || !eng->def)
        return 0;
    if (check_document(c, eng->def) < 0)
        return -1;
    return check_clips(c, eng->def);
}

int anim_engine_validate_config_at(anim_config *cfg, uint32_t engine_line, uint32_t engine_column,
                                   anim_error *err)
{
    cfg_ctx c;
    memset(&c, 0, sizeof c);
    c.cfg = cfg;
    c.arena = cfg->arena;
    c.path = cfg->path ? cfg->path : "animsmith.toml";
    c.err = err;
    c.engine_line = engine_line;
    c.engine_column = engine_column;
    return cfg_finish_engine(&c);
}

int anim_engine_validate_config(anim_config *cfg, anim_error *err)
{
    return anim_engine_validate_config_at(cfg, 1, 1, err);
}
