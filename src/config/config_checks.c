/* [checks.<id>] and [runtime_nodes]. Every check table accepts
 * every key (only the owning check reads each). The id must name a check
 * in the catalog: a misspelt id would otherwise configure nothing and say
 * nothing, leaving the check at its default severity. */
#include <string.h>

#include "animsmith/lint.h"
#include "config/config_internal.h"

static const char *const runtime_keys[] = {"selectors", NULL};

/* severity, node_selectors and the numeric settings (names owned by
 * config_query.c). */
static void known_check_keys(const char *keys[ANIM_CHECK_SETTING_COUNT + 3])
{
    keys[0] = "severity";
    keys[1] = "node_selectors";
    for (int s = 0; s < ANIM_CHECK_SETTING_COUNT; s++)
        keys[2 + s] = anim_check_setting_name((anim_check_setting)s);
    keys[2 + ANIM_CHECK_SETTING_COUNT] = NULL;
}

static int read_severity(cfg_ctx *c, const char *parent, const anim_toml_entry *e,
                         anim_severity *out)
{
    static const struct {
        const char *name;
        anim_severity sev;
    } names[] = {{"off", ANIM_SEVERITY_OFF},         {"note", ANIM_SEVERITY_NOTE},
                 {"warn", ANIM_SEVERITY_WARNING},    {"warning", ANIM_SEVERITY_WARNING},
                 {"error", ANIM_SEVERITY_ERROR}};
    const char *s;
    if (cfg_read_string(c, parent, e, &s) < 0)
        return -1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i].name) == 0) {
            *out = names[i].sev;
            return 0;
        }
    return cfg_fail(c, e->value->line, e->value->column,
                    "%s must be one of \"off\", \"note\", \"warn\", \"warning\", \"error\" "
                    "(got %s)",
                    cfg_entry_path(c, parent, e), cfg_quote(c, s, strlen(s)));
}

/* The catalog is the only list of check ids (the lint registry; --select
 * refuses against the same list), so the contract cannot drift from it. */
static int known_check_id(cfg_ctx *c, const anim_toml_entry *te, const char *id,
                          const char *label)
{
    if (anim_check_find(id))
        return 0;
    size_t n = anim_check_count();
    const char **ids = anim_arena_calloc(c->arena, n + 1, sizeof *ids);
    if (!ids)
        return cfg_nomem(c);
    for (size_t i = 0; i < n; i++)
        ids[i] = anim_check_at(i)->id;
    return cfg_unknown_name(c, te, "check", label, ids);
}

static int load_check(cfg_ctx *c, const anim_toml_entry *te, anim_check_config *cc)
{
    const char *path = cfg_entry_path(c, "checks", te);
    if (cfg_expect_table(c, te->value, path) < 0 || cfg_read_key_name(c, "checks", te, &cc->id) < 0)
        return -1;
    const char *label = anim_arena_printf(c->arena, "[%s]", path);
    if (!label)
        return cfg_nomem(c);
    if (known_check_id(c, te, cc->id, label) < 0)
        return -1;
    const anim_toml_value *t = te->value;
    const char *keys[ANIM_CHECK_SETTING_COUNT + 3];
    known_check_keys(keys);
    if (cfg_check_keys(c, t, label, keys) < 0)
        return -1;
    for (size_t i = 0; i < t->u.table.count; i++) {
        const anim_toml_entry *e = &t->u.table.entries[i];
        if (cfg_key_is(e, "severity")) {
            if (read_severity(c, path, e, &cc->severity) < 0)
                return -1;
        } else if (cfg_key_is(e, "node_selectors")) {
            if (cfg_read_string_list(c, path, e, &cc->node_selectors) < 0)
                return -1;
            if (strcmp(cc->id, "rest-world-scale") == 0) {
                c->legacy_selectors = e;
                c->legacy_list = cc->node_selectors;
            }
        } else {
            for (int s = 0; s < ANIM_CHECK_SETTING_COUNT; s++) {
                if (!cfg_key_is(e, anim_check_setting_name((anim_check_setting)s)))
                    continue;
                /* A scale or a duration bound of 0 would judge every asset. */
                cfg_domain d = s == ANIM_CHECK_EXPECTED_UNIFORM_SCALE || s == ANIM_CHECK_MAX_DURATION_S
                                   ? CFG_POSITIVE
                                   : CFG_NONNEG;
                if (cfg_read_number(c, path, e, d, &cc->settings[s].value) < 0)
                    return -1;
                cc->settings[s].set = true;
                break;
            }
        }
    }
    return 0;
}

int cfg_load_checks(cfg_ctx *c, const anim_toml_value *v)
{
    if (cfg_expect_table(c, v, "checks") < 0)
        return -1;
    size_t n = v->u.table.count;
    if (n == 0)
        return 0;
    if (n > UINT32_MAX)
        return cfg_fail(c, v->line, v->column, "too many [checks] tables");
    anim_check_config *checks = anim_arena_calloc(c->arena, n, sizeof *checks);
    if (!checks)
        return cfg_nomem(c);
    for (size_t i = 0; i < n; i++)
        if (load_check(c, &v->u.table.entries[i], &checks[i]) < 0)
            return -1;
    c->cfg->checks = checks;
    c->cfg->check_count = (uint32_t)n;
    return 0;
}

int cfg_load_runtime_nodes(cfg_ctx *c, const anim_toml_value *v)
{
    if (cfg_expect_table(c, v, "runtime_nodes") < 0 ||
        cfg_check_keys(c, v, "[runtime_nodes]", runtime_keys) < 0)
        return -1;
    for (size_t i = 0; i < v->u.table.count; i++) {
        const anim_toml_entry *e = &v->u.table.entries[i];
        if (cfg_read_string_list(c, "runtime_nodes", e, &c->runtime_list) < 0)
            return -1;
        c->runtime_selectors = e;
    }
    return 0;
}
