/* Shared by the animsmith.toml loader files: the load context, positioned
 * errors ("bad config PATH: line L column C: ...") and typed readers that
 * name the offending key path. config_load.c walks the top level and runs
 * the semantic checks; one file per table family reads its tables. */
#ifndef ANIMSMITH_CONFIG_INTERNAL_H
#define ANIMSMITH_CONFIG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/toml.h"

/* One [clips.<selector>] table while loading: in_place is kept apart so the
 * conflict with movement_owner_xz can be reported after sorting (that
 * semantic rule runs in key order, after every parse-time check). */
typedef struct cfg_clip_tmp {
    anim_clip_selector sel;
    size_t key_len;      /* selector bytes (for the byte-wise sort) */
    uint32_t column;     /* of the table, for the conflict message */
    bool has_in_place;
    bool has_owner_xz;
} cfg_clip_tmp;

typedef struct cfg_ctx {
    anim_config *cfg;
    anim_arena *arena; /* cfg->arena */
    const char *path;  /* as given, for messages */
    anim_error *err;
    /* The two runtime-selector spellings (declaring both is an error). */
    const anim_toml_entry *runtime_selectors;
    const anim_toml_entry *legacy_selectors;
    anim_string_list runtime_list;
    anim_string_list legacy_list;
    /* Clip tables before the sort and the in_place fold. */
    cfg_clip_tmp *clips;
    uint32_t clip_count;
    /* Where [engine] is written: a required engine setting the file lacks
     * is reported there when there is no [engine.settings]. */
    uint32_t engine_line, engine_column;
} cfg_ctx;

static inline bool cfg_key_is(const anim_toml_entry *e, const char *key)
{
    size_t n = strlen(key);
    return e->key_len == n && memcmp(e->key, key, n) == 0;
}

/* Domains of numeric keys; integers are accepted wherever a number is. */
typedef enum {
    CFG_ANY,      /* any number, nan and inf included (checks judge it) */
    CFG_NONNEG,   /* finite and >= 0 */
    CFG_POSITIVE, /* finite and > 0 */
    CFG_UNIT      /* finite and within [0, 1] */
} cfg_domain;

/* Fills err with "bad config PATH: line L column C: <fmt>"; returns -1. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
int cfg_fail(cfg_ctx *c, uint32_t line, uint32_t column, const char *fmt, ...);
int cfg_nomem(cfg_ctx *c);

/* Quoting for messages: TOML basic-string form (safe in a terminal, can be
 * pasted back into the file), and a double-quoted, backslash-escaped form
 * for the semantic-rule messages. */
const char *cfg_quote(cfg_ctx *c, const char *s, size_t len);
const char *cfg_debug_quote(cfg_ctx *c, const char *s, size_t len);
/* parent.key as TOML spells it: key bare when it is a bare key, quoted
 * otherwise (always quoted when force_quote). parent NULL = top level. */
const char *cfg_path(cfg_ctx *c, const char *parent, const char *key, size_t len,
                     bool force_quote);
/* parent[index] for array items. */
const char *cfg_path_index(cfg_ctx *c, const char *parent, size_t index);
/* The path of an entry of a table at parent. */
const char *cfg_entry_path(cfg_ctx *c, const char *parent, const anim_toml_entry *e);

/* The value must be a table; "PATH must be a table, found TYPE". */
int cfg_expect_table(cfg_ctx *c, const anim_toml_value *v, const char *path);
/* Rejects a key not in known (NULL-terminated); table_label is the table as
 * a header ("[checks.loop-seam]", "the top level"). */
int cfg_check_keys(cfg_ctx *c, const anim_toml_value *table, const char *table_label,
                   const char *const *known);
/* The known name within two edits of name[0..len), or NULL. */
const char *cfg_nearest_name(const char *name, size_t len, const char *const *known);
/* Refuses entry e at its key: "unknown NOUN "KEY" in TABLE_LABEL (did you
 * mean "X"?)", or "(known NOUNs: a, b, ...)" when nothing is close. known
 * is NULL-terminated. Returns -1. */
int cfg_unknown_name(cfg_ctx *c, const anim_toml_entry *e, const char *noun,
                     const char *table_label, const char *const *known);
/* "PATH is missing required key "KEY"" at the table's position. */
int cfg_missing(cfg_ctx *c, const anim_toml_value *table, const char *path, const char *key);

/* Typed readers of one entry of the table at key path parent (NULL = top
 * level); the entry's full path is spelled only in an error. Strings are
 * copied into the config arena and must not hold U+0000. */
int cfg_expect_table_entry(cfg_ctx *c, const char *parent, const anim_toml_entry *e);
int cfg_read_bool(cfg_ctx *c, const char *parent, const anim_toml_entry *e, bool *out);
int cfg_read_number(cfg_ctx *c, const char *parent, const anim_toml_entry *e, cfg_domain d,
                    double *out);
int cfg_read_uint(cfg_ctx *c, const char *parent, const anim_toml_entry *e, uint64_t *out);
int cfg_read_string(cfg_ctx *c, const char *parent, const anim_toml_entry *e, const char **out);
int cfg_read_string_list(cfg_ctx *c, const char *parent, const anim_toml_entry *e,
                         anim_string_list *out);
/* A table key used as a name (check id, selector, group): copied, no NUL. */
int cfg_read_key_name(cfg_ctx *c, const char *parent, const anim_toml_entry *e, const char **out);

/* Refuses any date or time value anywhere in the document. */
int cfg_refuse_datetimes(cfg_ctx *c, const anim_toml_value *root);

/* Table readers (one file each). v is the value under the top-level key;
 * each checks its own types and domains and fills c->cfg. */
int cfg_load_rig(cfg_ctx *c, const anim_toml_value *v);
int cfg_load_checks(cfg_ctx *c, const anim_toml_value *v);
int cfg_load_runtime_nodes(cfg_ctx *c, const anim_toml_value *v);
int cfg_load_clips(cfg_ctx *c, const anim_toml_value *v);
int cfg_finish_clips(cfg_ctx *c); /* sort, in_place fold, rule 3 */
int cfg_load_gait_groups(cfg_ctx *c, const anim_toml_value *v);
int cfg_load_sync_groups(cfg_ctx *c, const anim_toml_value *v);
int cfg_load_engine(cfg_ctx *c, const anim_toml_value *v);
/* After every table is read and the clips sorted: [engine.settings] and
 * each [clips.<selector>].engine_settings against the selected profile's
 * vocabulary, document defaults materialized (config_engine.c). */
int cfg_finish_engine(cfg_ctx *c);
int cfg_load_limits(cfg_ctx *c, const anim_toml_value *v);
int cfg_load_families(cfg_ctx *c, const anim_toml_value *v, size_t source_bytes);

#endif
