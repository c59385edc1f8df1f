/* [rig]: profile, inline roles, required_bones. An unknown
 * profile name is an error here (the strict loader rejects unknown
 * values), listing the names that exist. */
#include "animsmith/strbuf.h"
#include "config/config_internal.h"

static const char *const rig_keys[] = {"profile", "roles", "required_bones", NULL};

static const char *known_profiles(cfg_ctx *c)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_strbuf_puts(&sb, "auto");
    for (size_t i = 0; i < anim_rig_profile_count(); i++)
        anim_strbuf_printf(&sb, ", %s", anim_rig_profile_name(i));
    const char *s = sb.failed ? NULL : anim_arena_strdup(c->arena, sb.data);
    anim_strbuf_free(&sb);
    return s ? s : "auto";
}

static const char *known_roles(cfg_ctx *c)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    for (int r = 0; r < ANIM_ROLE_COUNT; r++)
        anim_strbuf_printf(&sb, "%s%s", r ? ", " : "", anim_role_name((anim_role)r));
    const char *s = sb.failed ? NULL : anim_arena_strdup(c->arena, sb.data);
    anim_strbuf_free(&sb);
    return s ? s : "";
}

static int load_roles(cfg_ctx *c, const anim_toml_entry *roles_entry)
{
    if (cfg_expect_table_entry(c, "rig", roles_entry) < 0)
        return -1;
    const anim_toml_value *t = roles_entry->value;
    for (size_t i = 0; i < t->u.table.count; i++) {
        const anim_toml_entry *e = &t->u.table.entries[i];
        int role = -1;
        if (!memchr(e->key, '\0', e->key_len))
            role = anim_role_from_name(e->key);
        if (role < 0)
            return cfg_fail(c, e->line, e->column, "unknown role %s in [rig.roles] (roles: %s)",
                            cfg_quote(c, e->key, e->key_len), known_roles(c));
        if (cfg_read_string(c, "rig.roles", e, &c->cfg->rig_roles[role]) < 0)
            return -1;
    }
    return 0;
}

int cfg_load_rig(cfg_ctx *c, const anim_toml_value *v)
{
    if (cfg_expect_table(c, v, "rig") < 0 || cfg_check_keys(c, v, "[rig]", rig_keys) < 0)
        return -1;
    for (size_t i = 0; i < v->u.table.count; i++) {
        const anim_toml_entry *e = &v->u.table.entries[i];
        if (cfg_key_is(e, "profile")) {
            const char *name;
            if (cfg_read_string(c, "rig", e, &name) < 0)
                return -1;
            if (!anim_rig_profile_known(name))
                return cfg_fail(c, e->value->line, e->value->column,
                                "rig.profile %s is not a known rig profile (known: %s)",
                                cfg_quote(c, name, strlen(name)), known_profiles(c));
            c->cfg->rig_profile = name;
        } else if (cfg_key_is(e, "roles")) {
            if (load_roles(c, e) < 0)
                return -1;
        } else if (cfg_read_string_list(c, "rig", e, &c->cfg->required_bones) < 0) {
            return -1;
        }
    }
    return 0;
}
