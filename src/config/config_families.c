/* [transition_families."<id>"]: the document-local transition-family:1
 * grammar, validated strictly and kept raw for the transition evaluator.
 * Bounds: 8,388,608 source bytes, 4,096 families, 4,096
 * members per family, 16,384 members in all, 4,096-byte strings, 255-byte
 * ids. (Its 16-level depth cap cannot be reached: every accepted key holds
 * a scalar, a fixed table or the members array.) */
#include <string.h>

#include "config/config_internal.h"

#define FAMILY_SCHEMA "urn:animsmith:schema:transition-family:1"
#define MAX_SOURCE_BYTES ((size_t)8388608)
#define MAX_FAMILIES 4096
#define MAX_MEMBERS 4096
#define MAX_ALL_MEMBERS 16384
#define MAX_STRING 4096
#define MAX_ID 255

static const char *const family_keys[] = {"schema",     "schema_version", "scope",   "boundary",
                                          "basis",      "tolerances",     "members", NULL};
static const char *const basis_keys[] = {"translation", "rotation", "time", NULL};
static const char *const tolerance_keys[] = {"translation_m", "rotation_deg", "time_normalized",
                                             NULL};
static const char *const member_keys[] = {"take_index", "take_name", NULL};

static bool valid_id(const char *s, size_t len)
{
    if (len < 1 || len > MAX_ID)
        return false;
    for (size_t i = 0; i < len; i++) {
        char ch = s[i];
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
                  (i > 0 && (ch == '.' || ch == '_' || ch == '-'));
        if (!ok)
            return false;
    }
    return true;
}

/* A string key whose value must be one of a closed set. */
static int read_enum(cfg_ctx *c, const char *parent, const anim_toml_entry *e,
                     const char *const *allowed, const char *shown)
{
    const char *s;
    if (cfg_read_string(c, parent, e, &s) < 0)
        return -1;
    for (size_t i = 0; allowed[i]; i++)
        if (strcmp(s, allowed[i]) == 0)
            return 0;
    return cfg_fail(c, e->value->line, e->value->column, "%s must be %s (got %s)",
                    cfg_entry_path(c, parent, e), shown, cfg_quote(c, s, strlen(s)));
}

/* The sub-table under key in family table t: type, keys, all present. */
static int open_sub(cfg_ctx *c, const char *fpath, const anim_toml_entry *e,
                    const char *const *keys, const char **path)
{
    *path = cfg_entry_path(c, fpath, e);
    if (cfg_expect_table(c, e->value, *path) < 0 || cfg_check_keys(c, e->value, *path, keys) < 0)
        return -1;
    for (size_t k = 0; keys[k]; k++)
        if (!anim_toml_find(e->value, keys[k], strlen(keys[k])))
            return cfg_missing(c, e->value, *path, keys[k]);
    return 0;
}

static int read_basis(cfg_ctx *c, const char *fpath, const anim_toml_entry *e)
{
    static const char *const metres[] = {"skeleton-local-metres", NULL};
    static const char *const degrees[] = {"skeleton-local-degrees", NULL};
    static const char *const normalized[] = {"normalized-clip", NULL};
    const char *path;
    if (open_sub(c, fpath, e, basis_keys, &path) < 0)
        return -1;
    const anim_toml_value *t = e->value;
    for (size_t i = 0; i < t->u.table.count; i++) {
        const anim_toml_entry *b = &t->u.table.entries[i];
        int r;
        if (cfg_key_is(b, "translation"))
            r = read_enum(c, path, b, metres, "\"skeleton-local-metres\"");
        else if (cfg_key_is(b, "rotation"))
            r = read_enum(c, path, b, degrees, "\"skeleton-local-degrees\"");
        else
            r = read_enum(c, path, b, normalized, "\"normalized-clip\"");
        if (r < 0)
            return -1;
    }
    return 0;
}

static int read_tolerances(cfg_ctx *c, const char *fpath, const anim_toml_entry *e)
{
    const char *path;
    if (open_sub(c, fpath, e, tolerance_keys, &path) < 0)
        return -1;
    const anim_toml_value *t = e->value;
    for (size_t i = 0; i < t->u.table.count; i++) {
        double x;
        if (cfg_read_number(c, path, &t->u.table.entries[i], CFG_NONNEG, &x) < 0)
            return -1;
    }
    return 0;
}

typedef struct {
    int64_t index;
    const anim_toml_value *name;
} member_id;

static int read_member(cfg_ctx *c, const char *mpath, const anim_toml_value *m, member_id *id)
{
    if (cfg_expect_table(c, m, mpath) < 0 || cfg_check_keys(c, m, mpath, member_keys) < 0)
        return -1;
    const anim_toml_entry *ie = anim_toml_find(m, "take_index", 10);
    const anim_toml_entry *ne = anim_toml_find(m, "take_name", 9);
    if (!ie)
        return cfg_missing(c, m, mpath, "take_index");
    if (!ne)
        return cfg_missing(c, m, mpath, "take_name");
    uint64_t index;
    const char *name;
    if (cfg_read_uint(c, mpath, ie, &index) < 0 || cfg_read_string(c, mpath, ne, &name) < 0)
        return -1;
    if (ne->value->u.string.len > MAX_STRING)
        return cfg_fail(c, ne->value->line, ne->value->column,
                        "%s is longer than %d bytes", cfg_entry_path(c, mpath, ne), MAX_STRING);
    id->index = (int64_t)index;
    id->name = ne->value;
    return 0;
}

static int read_members(cfg_ctx *c, const char *fpath, const anim_toml_entry *e, size_t *total)
{
    const char *path = cfg_entry_path(c, fpath, e);
    const anim_toml_value *a = e->value;
    if (a->type != ANIM_TOML_ARRAY)
        return cfg_fail(c, a->line, a->column, "%s must be an array of tables, found %s", path,
                        anim_toml_type_name(a->type));
    size_t n = a->u.array.count;
    if (n == 0)
        return cfg_fail(c, a->line, a->column, "%s must list at least one member", path);
    if (n > MAX_MEMBERS)
        return cfg_fail(c, a->line, a->column, "%s has %zu members (at most %d)", path, n,
                        MAX_MEMBERS);
    *total += n;
    if (*total > MAX_ALL_MEMBERS)
        return cfg_fail(c, a->line, a->column,
                        "transition families declare more than %d members in all",
                        MAX_ALL_MEMBERS);
    member_id *ids = anim_arena_calloc(c->arena, n, sizeof *ids);
    if (!ids)
        return cfg_nomem(c);
    for (size_t i = 0; i < n; i++) {
        const anim_toml_value *m = a->u.array.items[i];
        const char *mpath = cfg_path_index(c, path, i);
        if (read_member(c, mpath, m, &ids[i]) < 0)
            return -1;
        /* A member listed twice would be compared with itself: members
         * must be unambiguous, so refuse rather than silently drop one. */
        for (size_t j = 0; j < i; j++)
            if (ids[j].index == ids[i].index &&
                ids[j].name->u.string.len == ids[i].name->u.string.len &&
                memcmp(ids[j].name->u.string.data, ids[i].name->u.string.data,
                       ids[i].name->u.string.len) == 0)
                return cfg_fail(c, m->line, m->column, "%s repeats %s (take_index %lld)", mpath,
                                cfg_path_index(c, path, j), (long long)ids[i].index);
    }
    return 0;
}

static int read_family(cfg_ctx *c, const anim_toml_entry *fe, size_t *total)
{
    const char *fpath = cfg_path(c, "transition_families", fe->key, fe->key_len, true);
    if (!valid_id(fe->key, fe->key_len))
        return cfg_fail(c, fe->line, fe->column,
                        "transition family id %s must be 1-255 bytes of [a-z0-9._-] starting "
                        "with [a-z0-9]",
                        cfg_quote(c, fe->key, fe->key_len));
    const anim_toml_value *t = fe->value;
    if (cfg_expect_table(c, t, fpath) < 0)
        return -1;
    const anim_toml_entry *fid = anim_toml_find(t, "family_id", 9);
    if (fid)
        return cfg_fail(c, fid->line, fid->column,
                        "%s: the table key is the family id; \"family_id\" is not a field of a "
                        "document-local family",
                        fpath);
    if (cfg_check_keys(c, t, fpath, family_keys) < 0)
        return -1;
    for (size_t k = 0; family_keys[k]; k++)
        if (!anim_toml_find(t, family_keys[k], strlen(family_keys[k])))
            return cfg_missing(c, t, fpath, family_keys[k]);
    static const char *const schema[] = {FAMILY_SCHEMA, NULL};
    static const char *const boundary[] = {"entry", "exit", "both", NULL};
    for (size_t i = 0; i < t->u.table.count; i++) {
        const anim_toml_entry *e = &t->u.table.entries[i];
        int r = 0;
        if (cfg_key_is(e, "schema"))
            r = read_enum(c, fpath, e, schema, "\"" FAMILY_SCHEMA "\"");
        else if (cfg_key_is(e, "schema_version")) {
            uint64_t ver;
            r = cfg_read_uint(c, fpath, e, &ver);
            if (r == 0 && ver != 1)
                r = cfg_fail(c, e->value->line, e->value->column, "%s must be 1 (got %llu)",
                             cfg_entry_path(c, fpath, e), (unsigned long long)ver);
        } else if (cfg_key_is(e, "scope")) {
            const char *s;
            r = cfg_read_string(c, fpath, e, &s);
            if (r == 0 && strcmp(s, "document") != 0)
                r = cfg_fail(c, e->value->line, e->value->column,
                             "%s must be \"document\" (got %s)%s", cfg_entry_path(c, fpath, e),
                             cfg_quote(c, s, strlen(s)),
                             strcmp(s, "collection") == 0
                                 ? "; collection families belong in a separate declaration "
                                   "envelope, not in animsmith.toml"
                                 : "");
        } else if (cfg_key_is(e, "boundary"))
            r = read_enum(c, fpath, e, boundary, "one of \"entry\", \"exit\", \"both\"");
        else if (cfg_key_is(e, "basis"))
            r = read_basis(c, fpath, e);
        else if (cfg_key_is(e, "tolerances"))
            r = read_tolerances(c, fpath, e);
        else
            r = read_members(c, fpath, e, total);
        if (r < 0)
            return -1;
    }
    return 0;
}

int cfg_load_families(cfg_ctx *c, const anim_toml_value *v, size_t source_bytes)
{
    if (cfg_expect_table(c, v, "transition_families") < 0)
        return -1;
    if (source_bytes > MAX_SOURCE_BYTES)
        return cfg_fail(c, v->line, v->column,
                        "a config declaring transition families is at most %zu bytes (this one "
                        "is %zu)",
                        MAX_SOURCE_BYTES, source_bytes);
    if (v->u.table.count > MAX_FAMILIES)
        return cfg_fail(c, v->line, v->column,
                        "transition_families declares %zu families (at most %d)",
                        v->u.table.count, MAX_FAMILIES);
    size_t total = 0;
    for (size_t i = 0; i < v->u.table.count; i++)
        if (read_family(c, &v->u.table.entries[i], &total) < 0)
            return -1;
    c->cfg->transition_families = v;
    return 0;
}
