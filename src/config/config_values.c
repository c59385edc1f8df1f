/* Positioned errors and typed value readers for the config loader. Every
 * message names the key path as TOML spells it, so the user can find the
 * setting from the message alone. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "animsmith/numfmt.h"
#include "animsmith/strbuf.h"
#include "animsmith/text.h"
#include "config/config_internal.h"

int cfg_fail(cfg_ctx *c, uint32_t line, uint32_t column, const char *fmt, ...)
{
    char what[ANIM_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return anim_error_set(c->err, ANIM_ERR_INVALID, "bad config %s: line %u column %u: %s", c->path,
                          (unsigned)line, (unsigned)column, what);
}

int cfg_nomem(cfg_ctx *c)
{
    return anim_error_set(c->err, ANIM_ERR_NOMEM, "bad config %s: out of memory", c->path);
}

/* Copies a finished strbuf into the arena; NULL on allocation failure. */
static const char *sb_finish(cfg_ctx *c, anim_strbuf *sb)
{
    const char *out = NULL;
    if (!sb->failed)
        out = anim_arena_strndup(c->arena, sb->data ? sb->data : "", sb->len);
    anim_strbuf_free(sb);
    return out ? out : "\"?\""; /* messages only: degrade, never crash */
}

const char *cfg_quote(cfg_ctx *c, const char *s, size_t len)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_text_quote_toml(&sb, s, len);
    return sb_finish(c, &sb);
}

const char *cfg_debug_quote(cfg_ctx *c, const char *s, size_t len)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_text_debug_quote(&sb, s, len);
    return sb_finish(c, &sb);
}

static bool is_bare_key(const char *s, size_t len)
{
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++) {
        char ch = s[i];
        if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
              ch == '_' || ch == '-'))
            return false;
    }
    return true;
}

const char *cfg_path(cfg_ctx *c, const char *parent, const char *key, size_t len,
                     bool force_quote)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    if (parent) {
        anim_strbuf_puts(&sb, parent);
        anim_strbuf_putc(&sb, '.');
    }
    if (!force_quote && is_bare_key(key, len))
        anim_strbuf_append(&sb, key, len);
    else
        anim_text_quote_toml(&sb, key, len);
    return sb_finish(c, &sb);
}

const char *cfg_path_index(cfg_ctx *c, const char *parent, size_t index)
{
    const char *s = anim_arena_printf(c->arena, "%s[%zu]", parent, index);
    return s ? s : parent;
}

const char *cfg_entry_path(cfg_ctx *c, const char *parent, const anim_toml_entry *e)
{
    return cfg_path(c, parent, e->key, e->key_len, false);
}

static int wrong_type(cfg_ctx *c, const anim_toml_value *v, const char *path, const char *want)
{
    return cfg_fail(c, v->line, v->column, "%s must be %s, found %s", path, want,
                    anim_toml_type_name(v->type));
}

int cfg_expect_table(cfg_ctx *c, const anim_toml_value *v, const char *path)
{
    if (v->type != ANIM_TOML_TABLE)
        return wrong_type(c, v, path, "a table");
    return 0;
}

int cfg_expect_table_entry(cfg_ctx *c, const char *parent, const anim_toml_entry *e)
{
    if (e->value->type != ANIM_TOML_TABLE)
        return wrong_type(c, e->value, cfg_entry_path(c, parent, e), "a table");
    return 0;
}

int cfg_check_keys(cfg_ctx *c, const anim_toml_value *table, const char *table_label,
                   const char *const *known)
{
    for (size_t i = 0; i < table->u.table.count; i++) {
        const anim_toml_entry *e = &table->u.table.entries[i];
        bool ok = false;
        for (size_t k = 0; known[k] && !ok; k++)
            ok = strlen(known[k]) == e->key_len && memcmp(known[k], e->key, e->key_len) == 0;
        if (!ok)
            return cfg_unknown_name(c, e, "key", table_label, known);
    }
    return 0;
}

int cfg_missing(cfg_ctx *c, const anim_toml_value *table, const char *path, const char *key)
{
    return cfg_fail(c, table->line, table->column, "%s is missing required key \"%s\"", path, key);
}

/* The readers below spell the key path only when they fail, so reading a
 * large table costs no message text. */
#define PATH() cfg_entry_path(c, parent, e)

int cfg_read_bool(cfg_ctx *c, const char *parent, const anim_toml_entry *e, bool *out)
{
    const anim_toml_value *v = e->value;
    if (v->type != ANIM_TOML_BOOLEAN)
        return wrong_type(c, v, PATH(), "a boolean");
    *out = v->u.boolean;
    return 0;
}

static void show_number(const anim_toml_value *v, char *buf, size_t cap)
{
    if (v->type == ANIM_TOML_INTEGER) {
        snprintf(buf, cap, "%lld", (long long)v->u.integer);
        return;
    }
    double d = v->u.floating;
    if (isnan(d))
        snprintf(buf, cap, "nan");
    else if (isinf(d))
        snprintf(buf, cap, "%s", d < 0 ? "-inf" : "inf");
    else {
        char tmp[ANIM_FMT_JSON_MAX];
        anim_fmt_f64_json(d, tmp);
        snprintf(buf, cap, "%s", tmp);
    }
}

int cfg_read_number(cfg_ctx *c, const char *parent, const anim_toml_entry *e, cfg_domain d,
                    double *out)
{
    const anim_toml_value *v = e->value;
    double x;
    if (v->type == ANIM_TOML_INTEGER)
        x = (double)v->u.integer;
    else if (v->type == ANIM_TOML_FLOAT)
        x = v->u.floating;
    else
        return wrong_type(c, v, PATH(), "a number");
    const char *want = NULL;
    switch (d) {
    case CFG_ANY:
        break;
    case CFG_NONNEG:
        if (!(isfinite(x) && x >= 0.0))
            want = "a finite non-negative number";
        break;
    case CFG_POSITIVE:
        if (!(isfinite(x) && x > 0.0))
            want = "a finite number greater than zero";
        break;
    case CFG_UNIT:
        if (!(isfinite(x) && x >= 0.0 && x <= 1.0))
            want = "a finite number in [0, 1]";
        break;
    }
    if (want) {
        char got[48];
        show_number(v, got, sizeof got);
        return cfg_fail(c, v->line, v->column, "%s must be %s (got %s)", PATH(), want, got);
    }
    *out = x;
    return 0;
}

int cfg_read_uint(cfg_ctx *c, const char *parent, const anim_toml_entry *e, uint64_t *out)
{
    const anim_toml_value *v = e->value;
    if (v->type != ANIM_TOML_INTEGER)
        return wrong_type(c, v, PATH(), "a non-negative integer");
    if (v->u.integer < 0)
        return cfg_fail(c, v->line, v->column, "%s must be a non-negative integer (got %lld)",
                        PATH(), (long long)v->u.integer);
    *out = (uint64_t)v->u.integer;
    return 0;
}

static const char *copy_string(cfg_ctx *c, const anim_toml_value *v)
{
    return anim_arena_strndup(c->arena, v->u.string.data, v->u.string.len);
}

static bool has_nul(const anim_toml_value *v)
{
    return memchr(v->u.string.data, '\0', v->u.string.len) != NULL;
}

int cfg_read_string(cfg_ctx *c, const char *parent, const anim_toml_entry *e, const char **out)
{
    const anim_toml_value *v = e->value;
    if (v->type != ANIM_TOML_STRING)
        return wrong_type(c, v, PATH(), "a string");
    if (has_nul(v))
        return cfg_fail(c, v->line, v->column, "%s must not contain U+0000", PATH());
    if (!(*out = copy_string(c, v)))
        return cfg_nomem(c);
    return 0;
}

int cfg_read_string_list(cfg_ctx *c, const char *parent, const anim_toml_entry *e,
                         anim_string_list *out)
{
    const anim_toml_value *v = e->value;
    if (v->type != ANIM_TOML_ARRAY)
        return wrong_type(c, v, PATH(), "an array of strings");
    size_t n = v->u.array.count;
    if (n > UINT32_MAX)
        return cfg_fail(c, v->line, v->column, "%s has too many items", PATH());
    const char **items = NULL;
    if (n > 0 && !(items = anim_arena_calloc(c->arena, n, sizeof *items)))
        return cfg_nomem(c);
    for (size_t i = 0; i < n; i++) {
        const anim_toml_value *item = v->u.array.items[i];
        if (item->type != ANIM_TOML_STRING)
            return cfg_fail(c, item->line, item->column, "%s must be a string, found %s",
                            cfg_path_index(c, PATH(), i), anim_toml_type_name(item->type));
        if (has_nul(item))
            return cfg_fail(c, item->line, item->column, "%s must not contain U+0000",
                            cfg_path_index(c, PATH(), i));
        if (!(items[i] = copy_string(c, item)))
            return cfg_nomem(c);
    }
    out->items = items;
    out->count = (uint32_t)n;
    out->set = true;
    return 0;
}

int cfg_read_key_name(cfg_ctx *c, const char *parent, const anim_toml_entry *e, const char **out)
{
    if (memchr(e->key, '\0', e->key_len))
        return cfg_fail(c, e->line, e->column, "%s: a name must not contain U+0000", PATH());
    char *copy = anim_arena_strndup(c->arena, e->key, e->key_len);
    if (!copy)
        return cfg_nomem(c);
    *out = copy;
    return 0;
}

/* Path segments of the value being scanned: a key or an array index. The
 * tree is at most ANIM_TOML_MAX_DEPTH deep, and the path is spelled only
 * on a hit, so scanning costs no allocation. */
typedef struct {
    const anim_toml_entry *key; /* NULL for an array index */
    size_t index;
} seg;

static int datetime_hit(cfg_ctx *c, const anim_toml_value *v, const seg *segs, size_t n)
{
    const char *path = NULL;
    for (size_t i = 0; i < n; i++)
        path = segs[i].key ? cfg_entry_path(c, path, segs[i].key)
                           : cfg_path_index(c, path ? path : "", segs[i].index);
    return cfg_fail(c, v->line, v->column,
                    "%s is a date/time (%s); animsmith.toml has no date or time settings",
                    path ? path : "value", v->u.datetime.text);
}

static int scan(cfg_ctx *c, const anim_toml_value *v, seg *segs, size_t n)
{
    if (v->type == ANIM_TOML_DATETIME)
        return datetime_hit(c, v, segs, n);
    if (n >= ANIM_TOML_MAX_DEPTH + 2)
        return 0; /* cannot happen: the parser bounds the depth */
    if (v->type == ANIM_TOML_ARRAY) {
        for (size_t i = 0; i < v->u.array.count; i++) {
            segs[n].key = NULL;
            segs[n].index = i;
            if (scan(c, v->u.array.items[i], segs, n + 1) < 0)
                return -1;
        }
    } else if (v->type == ANIM_TOML_TABLE) {
        for (size_t i = 0; i < v->u.table.count; i++) {
            segs[n].key = &v->u.table.entries[i];
            segs[n].index = 0;
            if (scan(c, v->u.table.entries[i].value, segs, n + 1) < 0)
                return -1;
        }
    }
    return 0;
}

int cfg_refuse_datetimes(cfg_ctx *c, const anim_toml_value *root)
{
    seg segs[ANIM_TOML_MAX_DEPTH + 2];
    return scan(c, root, segs, 0);
}
