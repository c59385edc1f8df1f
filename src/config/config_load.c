/* Loading animsmith.toml: read the bytes, parse strict TOML, refuse dates
 * anywhere, read the transition families first (before the generic
 * config, so their errors are reported first), then every other
 * top-level table in document order, then the semantic rules that need
 * the whole file. The first problem found is the one reported; nothing is
 * returned with it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "animsmith/hash.h"
#include "animsmith/names.h"
#include "config/config_internal.h"

static const char *const top_keys[] = {"rig",         "checks", "runtime_nodes",
                                       "clips",       "gait_groups", "sync_groups",
                                       "engine",      "transition_families", "limits", NULL};

/* Effective runtime selectors: runtime_nodes.selectors when
 * present, else the legacy rest-world-scale spelling; duplicates removed
 * keeping the first occurrence. Sorting copies keeps this n log n even for
 * a hostile list. */
static int effective_selectors(cfg_ctx *c)
{
    const anim_string_list *src = c->runtime_selectors ? &c->runtime_list
                                  : c->legacy_selectors ? &c->legacy_list
                                                        : NULL;
    if (!src)
        return 0;
    anim_string_list *dst = &c->cfg->runtime_selectors;
    dst->set = true;
    if (src->count == 0)
        return 0;
    uint32_t ordered = 0;
    uint32_t *order = anim_names_order(src->items, src->count, &ordered);
    bool *dup = calloc(src->count, sizeof *dup);
    const char **items = anim_arena_calloc(c->arena, src->count, sizeof *items);
    if (!order || !dup || !items) {
        free(order);
        free(dup);
        return cfg_nomem(c);
    }
    /* Equal selectors are adjacent, the first occurrence first: keep it. */
    for (uint32_t k = 1; k < ordered; k++)
        if (strcmp(src->items[order[k - 1]], src->items[order[k]]) == 0)
            dup[order[k]] = true;
    uint32_t n = 0;
    for (uint32_t i = 0; i < src->count; i++)
        if (!dup[i])
            items[n++] = src->items[i];
    free(order);
    free(dup);
    dst->items = items;
    dst->count = n;
    return 0;
}

/* Declaring both runtime-selector spellings is an error, reported at
 * whichever spelling comes second. */
static int selectors_conflict(cfg_ctx *c)
{
    if (!c->runtime_selectors || !c->legacy_selectors)
        return 0;
    const anim_toml_entry *a = c->runtime_selectors, *b = c->legacy_selectors;
    const anim_toml_entry *later =
        (a->line > b->line || (a->line == b->line && a->column > b->column)) ? a : b;
    return cfg_fail(c, later->line, later->column,
                    "cannot declare both \"runtime_nodes.selectors\" and "
                    "\"checks.rest-world-scale.node_selectors\"");
}

static int load_tree(cfg_ctx *c, const anim_toml_value *root, size_t len)
{
    if (cfg_refuse_datetimes(c, root) < 0)
        return -1;
    const anim_toml_value *families = anim_toml_get(root, "transition_families");
    if (families && cfg_load_families(c, families, len) < 0)
        return -1;
    if (cfg_check_keys(c, root, "the top level", top_keys) < 0)
        return -1;
    for (size_t i = 0; i < root->u.table.count; i++) {
        const anim_toml_entry *e = &root->u.table.entries[i];
        const anim_toml_value *v = e->value;
        int r = 0;
        if (cfg_key_is(e, "rig"))
            r = cfg_load_rig(c, v);
        else if (cfg_key_is(e, "checks"))
            r = cfg_load_checks(c, v);
        else if (cfg_key_is(e, "runtime_nodes"))
            r = cfg_load_runtime_nodes(c, v);
        else if (cfg_key_is(e, "clips"))
            r = cfg_load_clips(c, v);
        else if (cfg_key_is(e, "gait_groups"))
            r = cfg_load_gait_groups(c, v);
        else if (cfg_key_is(e, "sync_groups"))
            r = cfg_load_sync_groups(c, v);
        else if (cfg_key_is(e, "engine"))
            r = cfg_load_engine(c, v);
        else if (cfg_key_is(e, "limits"))
            r = cfg_load_limits(c, v);
        if (r < 0)
            return -1;
    }
    if (selectors_conflict(c) < 0 || cfg_finish_clips(c) < 0)
        return -1;
    return effective_selectors(c);
}

anim_config *anim_config_load_bytes(const char *path, const void *data, size_t len,
                                    anim_error *err)
{
    if (!path)
        path = "animsmith.toml";
    anim_config *cfg = anim_config_default(err);
    if (!cfg)
        return NULL;
    cfg_ctx c;
    memset(&c, 0, sizeof c);
    c.cfg = cfg;
    c.arena = cfg->arena;
    c.err = err;
    c.path = anim_arena_strdup(cfg->arena, path);
    if (!c.path) {
        c.path = path;
        cfg_nomem(&c);
        anim_config_free(cfg);
        return NULL;
    }
    cfg->path = c.path;
    anim_sha256(data, len, cfg->sha256);
    anim_toml_value *root = anim_toml_parse(cfg->arena, data ? data : "", len, err);
    if (!root) {
        anim_error_prefix(err, "bad config %s", c.path);
        anim_config_free(cfg);
        return NULL;
    }
    if (load_tree(&c, root, len) < 0) {
        anim_config_free(cfg);
        return NULL;
    }
    return cfg;
}

/* Reads the whole file (bounded by the TOML reader's size limit) and loads
 * it. I/O failures say "cannot read config PATH: <strerror>". */
anim_config *anim_config_load(const char *path, anim_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        anim_error_set(err, ANIM_ERR_IO, "cannot read config %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0) {
        int e = errno;
        fclose(f);
        anim_error_set(err, ANIM_ERR_IO, "cannot read config %s: %s", path, strerror(e));
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        fclose(f);
        anim_error_set(err, ANIM_ERR_IO, "cannot read config %s: %s", path, strerror(EISDIR));
        return NULL;
    }
    /* Read up to one byte past the limit so an oversized file (or a pipe
     * with no size) is refused by the parser's limit message. */
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (len == cap) {
            if (cap > ANIM_TOML_MAX_BYTES)
                break;
            char *grown = realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int read_error = buf ? ferror(f) : 0;
    int e = errno;
    fclose(f);
    if (!buf) {
        anim_error_set(err, ANIM_ERR_NOMEM, "cannot read config %s: out of memory", path);
        return NULL;
    }
    if (read_error) {
        free(buf);
        anim_error_set(err, ANIM_ERR_IO, "cannot read config %s: %s", path,
                       strerror(e ? e : EIO));
        return NULL;
    }
    anim_config *cfg = anim_config_load_bytes(path, buf, len, err);
    free(buf);
    return cfg;
}

anim_config *anim_config_resolve(const char *explicit_path, anim_error *err)
{
    if (explicit_path)
        return anim_config_load(explicit_path, err);
    struct stat st;
    if (stat("animsmith.toml", &st) != 0 && (errno == ENOENT || errno == ENOTDIR))
        return anim_config_default(err);
    /* Present (or present but unreadable: loading reports why). */
    return anim_config_load("animsmith.toml", err);
}
