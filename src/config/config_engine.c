/* [engine]: the four selection keys come together or not at all, and only
 * the frozen, supported tuples are accepted ("there is no fallback or
 * nearest engine profile": a near miss would silently apply the wrong
 * importer's advice). settings and per-clip engine_settings stay raw for
 * the engine-profile subsystem, which validates them against the selected
 * profile. A table holding only settings is accepted (no profile: nothing
 * reads it). */
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
