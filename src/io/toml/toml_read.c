/* TOML document structure: statements, [tables], [[arrays of tables]],
 * dotted keys, arrays and inline tables, and the rules on defining a table
 * twice.
 *
 * The redefinition rules follow tomllib, which tracks two flags per key
 * path; here they live on the tables themselves:
 *  - a table named by a [header] (defined_by_header) cannot be named by
 *    another header, nor extended by dotted keys from another section;
 *  - a table made by dotted keys is closed to headers and to dotted keys
 *    once the next header starts (pending_section < section);
 *  - arrays and inline tables are immutable (is_inline), as is everything
 *    inside them;
 *  - a [[header]] appends a fresh table, so everything above applies anew
 *    inside each element (tomllib forgets the flags under the path). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/toml/toml_internal.h"

struct toml_slot {
    anim_toml_value *table; /* NULL: empty slot */
    size_t index;
    uint64_t hash;
};

typedef struct {
    const char *key;
    size_t len;
    size_t off;
    uint32_t line, column; /* computed while reading, in source order */
} key_part;

typedef struct {
    key_part *parts;
    size_t count, cap;
    size_t start; /* offset of the first part */
} key_path;

static int nomem(toml_parser *p)
{
    return anim_error_set(p->err, ANIM_ERR_NOMEM, "out of memory reading TOML");
}

/* ---- table index ---------------------------------------------------- */

static uint64_t key_hash(const anim_toml_value *t, const char *key, size_t len)
{
    uint64_t h = UINT64_C(1469598103934665603) ^ ((uint64_t)(uintptr_t)t * UINT64_C(0x9E3779B97F4A7C15));
    for (size_t k = 0; k < len; k++) {
        h ^= (unsigned char)key[k];
        h *= UINT64_C(1099511628211);
    }
    return h ^ (h >> 29);
}

static anim_toml_entry *index_find(toml_parser *p, anim_toml_value *t, const char *key,
                                   size_t len)
{
    if (!p->slot_count)
        return NULL;
    uint64_t h = key_hash(t, key, len);
    size_t mask = p->slot_count - 1;
    for (size_t k = (size_t)h & mask;; k = (k + 1) & mask) {
        toml_slot *s = &p->slots[k];
        if (!s->table)
            return NULL;
        if (s->table == t && s->hash == h) {
            anim_toml_entry *e = &t->u.table.entries[s->index];
            if (e->key_len == len && memcmp(e->key, key, len) == 0)
                return e;
        }
    }
}

static void index_put(toml_parser *p, toml_slot slot)
{
    size_t mask = p->slot_count - 1;
    size_t k = (size_t)slot.hash & mask;
    while (p->slots[k].table)
        k = (k + 1) & mask;
    p->slots[k] = slot;
}

static int index_add(toml_parser *p, anim_toml_value *t, size_t index)
{
    if ((p->slot_used + 1) * 2 > p->slot_count) {
        size_t count = p->slot_count ? p->slot_count * 2 : 64;
        size_t bytes;
        if (!anim_size_mul(count, sizeof(toml_slot), &bytes))
            return nomem(p);
        toml_slot *old = p->slots;
        size_t old_count = p->slot_count;
        p->slots = calloc(count, sizeof(toml_slot));
        if (!p->slots) {
            p->slots = old;
            return nomem(p);
        }
        p->slot_count = count;
        for (size_t k = 0; k < old_count; k++)
            if (old[k].table)
                index_put(p, old[k]);
        free(old);
    }
    const anim_toml_entry *e = &t->u.table.entries[index];
    toml_slot s = {t, index, key_hash(t, e->key, e->key_len)};
    index_put(p, s);
    p->slot_used++;
    return 0;
}

/* ---- building values ------------------------------------------------ */

/* Arena vectors grow by doubling; the old block stays in the arena, which
 * at most doubles the memory spent on them. */
static void *grow(toml_parser *p, void *items, size_t count, size_t *cap, size_t size)
{
    if (count < *cap)
        return items;
    size_t ncap = *cap ? *cap * 2 : 4, bytes;
    if (ncap <= *cap || !anim_size_mul(ncap, size, &bytes)) {
        nomem(p);
        return NULL;
    }
    void *fresh = anim_arena_alloc(p->arena, bytes);
    if (!fresh) {
        nomem(p);
        return NULL;
    }
    if (count)
        memcpy(fresh, items, count * size);
    *cap = ncap;
    return fresh;
}

static int table_add(toml_parser *p, anim_toml_value *t, const key_part *kp,
                     anim_toml_value *v)
{
    anim_toml_entry *e = grow(p, t->u.table.entries, t->u.table.count, &t->u.table.cap,
                              sizeof *e);
    if (!e)
        return -1;
    t->u.table.entries = e;
    anim_toml_entry *slot = &e[t->u.table.count];
    slot->key = kp->key;
    slot->key_len = kp->len;
    slot->line = kp->line;
    slot->column = kp->column;
    slot->value = v;
    t->u.table.count++;
    return index_add(p, t, t->u.table.count - 1);
}

static int array_add(toml_parser *p, anim_toml_value *a, anim_toml_value *v)
{
    anim_toml_value **items = grow(p, a->u.array.items, a->u.array.count, &a->u.array.cap,
                                   sizeof *items);
    if (!items)
        return -1;
    a->u.array.items = items;
    items[a->u.array.count++] = v;
    return 0;
}

static anim_toml_value *lookup(toml_parser *p, anim_toml_value *t, const key_part *kp)
{
    anim_toml_entry *e = index_find(p, t, kp->key, kp->len);
    return e ? e->value : NULL;
}

/* ---- names for messages --------------------------------------------- */

/* Appends a key path as written in TOML, quoting parts that are not bare. */
static void put_key(anim_strbuf *sb, const key_path *kp, size_t upto)
{
    for (size_t k = 0; k < upto; k++) {
        const key_part *part = &kp->parts[k];
        if (k)
            anim_strbuf_putc(sb, '.');
        bool bare = part->len > 0;
        for (size_t j = 0; j < part->len; j++)
            bare = bare && toml_is_bare((unsigned char)part->key[j]);
        if (bare) {
            anim_strbuf_append(sb, part->key, part->len);
            continue;
        }
        anim_strbuf_putc(sb, '"');
        for (size_t j = 0; j < part->len; j++) {
            unsigned char c = (unsigned char)part->key[j];
            if (c == '"' || c == '\\')
                anim_strbuf_printf(sb, "\\%c", c);
            else if (c < 0x20 || c == 0x7F)
                anim_strbuf_printf(sb, "\\u%04X", c);
            else
                anim_strbuf_putc(sb, (char)c);
        }
        anim_strbuf_putc(sb, '"');
    }
}

/* The key path (first upto parts) as a C string that lives until the next
 * call; long paths are cut for the message. */
static const char *key_name(toml_parser *p, const key_path *kp, size_t upto)
{
    char *buf = p->name;
    const size_t size = sizeof p->name;
    anim_strbuf sb = ANIM_STRBUF_INIT;
    put_key(&sb, kp, upto);
    if (sb.failed || !sb.data) {
        buf[0] = '\0';
    } else {
        size_t len = sb.len < size - 1 ? sb.len : size - 4;
        memcpy(buf, sb.data, len);
        if (len < sb.len)
            memcpy(buf + len, "...", 4);
        else
            buf[len] = '\0';
    }
    anim_strbuf_free(&sb);
    return buf;
}

/* ---- whitespace and comments ---------------------------------------- */

static void skip_ws(toml_parser *p)
{
    while (toml_at(p, p->i) == ' ' || toml_at(p, p->i) == '\t')
        p->i++;
}

/* A comment runs to the end of the line; control characters other than
 * tab are refused in it, as in strings. */
static int skip_comment(toml_parser *p)
{
    if (toml_at(p, p->i) != '#')
        return 0;
    p->i++;
    for (;;) {
        int c = toml_at(p, p->i);
        size_t nl;
        if (c < 0 || toml_newline_at(p, p->i, &nl))
            return 0;
        if ((c < 0x20 && c != '\t') || c == 0x7F)
            return toml_fail(p, ANIM_ERR_PARSE, p->i,
                             c == '\r' ? "carriage return not followed by a newline in a "
                                         "comment"
                                       : "control character U+%04X in a comment",
                             (unsigned)c);
        p->i++;
    }
}

/* Whitespace, newlines and comments, as allowed between array items. */
static int skip_array_space(toml_parser *p)
{
    for (;;) {
        size_t nl;
        skip_ws(p);
        if (toml_newline_at(p, p->i, &nl)) {
            p->i += nl;
            continue;
        }
        if (toml_at(p, p->i) != '#')
            return 0;
        if (skip_comment(p) < 0)
            return -1;
    }
}

/* ---- keys ----------------------------------------------------------- */

/* key ( ws '.' ws key )* ws — stops at the first character that is not a
 * dot after a part. */
static int parse_key(toml_parser *p, key_path *kp)
{
    kp->count = 0;
    kp->cap = 0;
    kp->parts = NULL;
    kp->start = p->i;
    for (;;) {
        key_part *parts = grow(p, kp->parts, kp->count, &kp->cap, sizeof *parts);
        if (!parts)
            return -1;
        kp->parts = parts;
        key_part *part = &parts[kp->count];
        part->off = p->i;
        toml_position(p, p->i, &part->line, &part->column);
        if (toml_parse_key_part(p, &part->key, &part->len) < 0)
            return -1;
        kp->count++;
        skip_ws(p);
        if (toml_at(p, p->i) != '.')
            return 0;
        p->i++;
        skip_ws(p);
    }
}

/* ---- values --------------------------------------------------------- */

static anim_toml_value *parse_value(toml_parser *p);
static int keyval(toml_parser *p, anim_toml_value *table, bool in_inline, size_t depth);

static int too_deep(toml_parser *p, size_t off)
{
    return toml_fail(p, ANIM_ERR_LIMIT, off,
                     "tables and arrays nested deeper than %d levels", ANIM_TOML_MAX_DEPTH);
}

static anim_toml_value *parse_array(toml_parser *p)
{
    size_t open = p->i;
    anim_toml_value *a = toml_new_value(p, ANIM_TOML_ARRAY, open);
    if (!a)
        return NULL;
    p->depth++; /* the items sit one level below the array */
    p->i++;
    if (skip_array_space(p) < 0)
        return NULL;
    while (toml_at(p, p->i) != ']') {
        if (p->depth > ANIM_TOML_MAX_DEPTH) {
            too_deep(p, p->i);
            return NULL;
        }
        anim_toml_value *v = parse_value(p);
        if (!v || array_add(p, a, v) < 0 || skip_array_space(p) < 0)
            return NULL;
        int c = toml_at(p, p->i);
        if (c == ']')
            break;
        if (c < 0) {
            toml_fail(p, ANIM_ERR_PARSE, open, "unterminated array (no closing ']')");
            return NULL;
        }
        if (c != ',') {
            char buf[32];
            toml_fail(p, ANIM_ERR_PARSE, p->i, "expected ',' or ']' in array, found %s",
                      toml_describe(p, p->i, buf));
            return NULL;
        }
        p->i++;
        if (skip_array_space(p) < 0)
            return NULL;
    }
    p->i++;
    a->is_inline = true;
    p->depth--;
    return a;
}

static anim_toml_value *parse_inline_table(toml_parser *p)
{
    size_t open = p->i;
    anim_toml_value *t = toml_new_value(p, ANIM_TOML_TABLE, open);
    if (!t)
        return NULL;
    p->depth++; /* keyval checks the depth of what goes in */
    p->i++;
    skip_ws(p);
    if (toml_at(p, p->i) != '}') {
        for (;;) {
            if (keyval(p, t, true, p->depth - 1) < 0)
                return NULL;
            skip_ws(p);
            int c = toml_at(p, p->i);
            if (c == '}')
                break;
            char buf[32];
            size_t nl;
            if (c != ',') {
                toml_fail(p, ANIM_ERR_PARSE, p->i,
                          toml_newline_at(p, p->i, &nl)
                              ? "%s inside an inline table (it must be on one line)"
                              : "expected ',' or '}' in inline table, found %s",
                          toml_describe(p, p->i, buf));
                return NULL;
            }
            p->i++;
            skip_ws(p);
            if (toml_at(p, p->i) == '}') {
                toml_fail(p, ANIM_ERR_PARSE, p->i,
                          "trailing comma in an inline table is not allowed");
                return NULL;
            }
        }
    }
    p->i++;
    t->is_inline = true;
    p->depth--;
    return t;
}

static anim_toml_value *parse_value(toml_parser *p)
{
    int c = toml_at(p, p->i);
    if (c == '"' || c == '\'') {
        size_t start = p->i;
        anim_toml_value *v = toml_new_value(p, ANIM_TOML_STRING, start);
        if (!v || toml_parse_string(p, &v->u.string.data, &v->u.string.len) < 0)
            return NULL;
        return v;
    }
    if (c == '[')
        return parse_array(p);
    if (c == '{')
        return parse_inline_table(p);
    return toml_parse_scalar(p);
}

/* ---- statements ----------------------------------------------------- */

static bool closed_to_headers(const toml_parser *p, const anim_toml_value *t)
{
    return t->defined_by_header || (t->pending_section && t->pending_section < p->section);
}

static const char *kind_name(const anim_toml_value *v)
{
    switch (v->type) {
    case ANIM_TOML_ARRAY: return v->is_inline ? "an array" : "an array of tables";
    case ANIM_TOML_TABLE: return v->is_inline ? "an inline table" : "a table";
    case ANIM_TOML_STRING: return "a string";
    case ANIM_TOML_INTEGER: return "an integer";
    case ANIM_TOML_FLOAT: return "a float";
    case ANIM_TOML_BOOLEAN: return "a boolean";
    case ANIM_TOML_DATETIME: return "a date/time";
    }
    return "a value";
}

/* key = value, in the table of the current section or of an inline table
 * (at tree depth depth). */
static int keyval(toml_parser *p, anim_toml_value *table, bool in_inline, size_t depth)
{
    key_path kp;
    if (parse_key(p, &kp) < 0)
        return -1;
    if (depth + kp.count > ANIM_TOML_MAX_DEPTH)
        return too_deep(p, kp.start);
    if (toml_at(p, p->i) != '=') {
        char buf[32];
        return toml_fail(p, ANIM_ERR_PARSE, p->i,
                         "expected '=' after key %s, found %s", key_name(p, &kp, kp.count),
                         toml_describe(p, p->i, buf));
    }
    p->i++;
    skip_ws(p);

    anim_toml_value *node = table;
    for (size_t k = 0; k + 1 < kp.count; k++) {
        const key_part *part = &kp.parts[k];
        anim_toml_value *child = lookup(p, node, part);
        if (!child) {
            child = toml_new_value_at(p, ANIM_TOML_TABLE, part->line, part->column);
            if (!child || table_add(p, node, part, child) < 0)
                return -1;
        } else if (child->is_inline) {
            return toml_fail(p, ANIM_ERR_PARSE, part->off,
                             "cannot add keys to %s, which is %s (immutable)",
                             key_name(p, &kp, k + 1), kind_name(child));
        } else if (child->type != ANIM_TOML_TABLE) {
            return toml_fail(p, ANIM_ERR_PARSE, part->off,
                             "key %s is already %s, not a table", key_name(p, &kp, k + 1),
                             kind_name(child));
        } else if (!in_inline && closed_to_headers(p, child)) {
            return toml_fail(p, ANIM_ERR_PARSE, part->off,
                             "table %s is already defined%s; dotted keys cannot reopen it",
                             key_name(p, &kp, k + 1),
                             child->defined_by_header ? " by a [header]" : " above");
        }
        if (!in_inline && !child->pending_section)
            child->pending_section = p->section;
        node = child;
    }
    const key_part *stem = &kp.parts[kp.count - 1];
    if (lookup(p, node, stem))
        return toml_fail(p, ANIM_ERR_PARSE, stem->off, "duplicate key %s",
                         key_name(p, &kp, kp.count));
    size_t saved = p->depth;
    p->depth = depth + kp.count;
    anim_toml_value *v = parse_value(p);
    if (!v)
        return -1;
    p->depth = saved;
    return table_add(p, node, stem, v);
}

/* Walks a header's key path from the root, making missing tables and
 * stepping into the last element of arrays of tables; stops before the
 * last part. */
static anim_toml_value *walk_header(toml_parser *p, anim_toml_value *root, const key_path *kp)
{
    anim_toml_value *node = root;
    for (size_t k = 0; k + 1 < kp->count; k++) {
        const key_part *part = &kp->parts[k];
        anim_toml_value *child = lookup(p, node, part);
        if (!child) {
            child = toml_new_value_at(p, ANIM_TOML_TABLE, part->line, part->column);
            if (!child || table_add(p, node, part, child) < 0)
                return NULL;
        } else if (child->is_inline) {
            toml_fail(p, ANIM_ERR_PARSE, kp->start - 1,
                      "cannot add a table under %s, which is %s (immutable)",
                      key_name(p, kp, k + 1), kind_name(child));
            return NULL;
        } else if (child->type == ANIM_TOML_ARRAY) {
            child = child->u.array.items[child->u.array.count - 1];
            p->section_depth++; /* the element sits below its array */
        } else if (child->type != ANIM_TOML_TABLE) {
            toml_fail(p, ANIM_ERR_PARSE, kp->start - 1, "key %s is already %s, not a table",
                      key_name(p, kp, k + 1), kind_name(child));
            return NULL;
        }
        node = child;
    }
    return node;
}

/* [a.b.c] or [[a.b.c]]; p->i at the first '['. Returns the table that the
 * following key/value pairs go into. */
static anim_toml_value *header(toml_parser *p, anim_toml_value *root)
{
    size_t open = p->i;
    uint32_t line, col;
    toml_position(p, open, &line, &col);
    bool aot = toml_at(p, open + 1) == '[';
    p->i += aot ? 2 : 1;
    skip_ws(p);
    key_path kp;
    if (parse_key(p, &kp) < 0)
        return NULL;
    const char *close = aot ? "]]" : "]";
    if (toml_at(p, p->i) != ']' || (aot && toml_at(p, p->i + 1) != ']')) {
        char buf[32];
        toml_fail(p, ANIM_ERR_PARSE, p->i, "expected '%s' to close the header %s%s, found %s",
                  close, aot ? "[[" : "[", key_name(p, &kp, kp.count),
                  toml_describe(p, p->i, buf));
        return NULL;
    }
    p->i += aot ? 2 : 1;
    p->section_depth = kp.count + (aot ? 1 : 0);
    anim_toml_value *parent = walk_header(p, root, &kp);
    if (!parent)
        return NULL;
    if (p->section_depth > ANIM_TOML_MAX_DEPTH) {
        too_deep(p, open);
        return NULL;
    }
    const key_part *stem = &kp.parts[kp.count - 1];
    anim_toml_value *node = lookup(p, parent, stem);
    const char *name = key_name(p, &kp, kp.count);
    if (aot) {
        if (node && (node->type != ANIM_TOML_ARRAY || node->is_inline)) {
            toml_fail(p, ANIM_ERR_PARSE, open,
                      "[[%s]] cannot append to %s, which is already %s%s", name, name,
                      kind_name(node), node->is_inline ? " (immutable)" : "");
            return NULL;
        }
        if (!node) {
            node = toml_new_value_at(p, ANIM_TOML_ARRAY, line, col);
            if (!node || table_add(p, parent, stem, node) < 0)
                return NULL;
            node->defined_by_header = true;
        }
        anim_toml_value *elem = toml_new_value_at(p, ANIM_TOML_TABLE, line, col);
        if (!elem || array_add(p, node, elem) < 0)
            return NULL;
        elem->defined_by_header = true;
        return elem;
    }
    if (!node) {
        node = toml_new_value_at(p, ANIM_TOML_TABLE, line, col);
        if (!node || table_add(p, parent, stem, node) < 0)
            return NULL;
    } else if (node->type == ANIM_TOML_ARRAY && !node->is_inline) {
        toml_fail(p, ANIM_ERR_PARSE, open,
                  "table [%s] conflicts with the array of tables [[%s]]", name, name);
        return NULL;
    } else if (node->type != ANIM_TOML_TABLE || node->is_inline) {
        toml_fail(p, ANIM_ERR_PARSE, open, "table [%s] conflicts with key %s, which is %s%s",
                  name, name, kind_name(node), node->is_inline ? " (immutable)" : "");
        return NULL;
    } else if (closed_to_headers(p, node)) {
        toml_fail(p, ANIM_ERR_PARSE, open,
                  node->defined_by_header ? "table [%s] defined twice"
                                          : "table [%s] was already defined by dotted keys",
                  name);
        return NULL;
    } else {
        node->line = line; /* implicit until now: the header is where it is */
        node->column = col;
    }
    node->defined_by_header = true;
    return node;
}

static int parse_document(toml_parser *p, anim_toml_value *root)
{
    anim_toml_value *current = root;
    p->section = 1;
    if (p->n >= 3 && memcmp(p->s, "\xEF\xBB\xBF", 3) == 0)
        return toml_fail(p, ANIM_ERR_PARSE, 0, "a byte order mark is not allowed (save the "
                                               "file as UTF-8 without BOM)");
    for (;;) {
        skip_ws(p);
        int c = toml_at(p, p->i);
        size_t nl;
        if (c < 0)
            return 0;
        if (toml_newline_at(p, p->i, &nl)) {
            p->i += nl;
            continue;
        }
        if (toml_is_bare(c) || c == '"' || c == '\'') {
            if (keyval(p, current, false, p->section_depth) < 0)
                return -1;
        } else if (c == '[') {
            p->section++;
            current = header(p, root);
            if (!current)
                return -1;
        } else if (c != '#') {
            char buf[32];
            return toml_fail(p, ANIM_ERR_PARSE, p->i,
                             "expected a key, a [table] header or a comment, found %s",
                             toml_describe(p, p->i, buf));
        }
        skip_ws(p);
        if (skip_comment(p) < 0)
            return -1;
        c = toml_at(p, p->i);
        if (c < 0)
            return 0;
        if (!toml_newline_at(p, p->i, &nl)) {
            char buf[32];
            return toml_fail(p, ANIM_ERR_PARSE, p->i,
                             "expected the end of the line, found %s",
                             toml_describe(p, p->i, buf));
        }
        p->i += nl;
    }
}

anim_toml_value *anim_toml_parse(anim_arena *arena, const char *text, size_t len,
                                 anim_error *err)
{
    if (len > ANIM_TOML_MAX_BYTES) {
        anim_error_set(err, ANIM_ERR_LIMIT, "TOML document is %zu bytes; the limit is %zu",
                       len, ANIM_TOML_MAX_BYTES);
        return NULL;
    }
    toml_parser p;
    memset(&p, 0, sizeof p);
    p.arena = arena;
    p.s = text ? text : "";
    p.n = text ? len : 0;
    p.err = err;
    p.pos_line = 1;
    p.pos_col = 1;
    p.scratch = (anim_strbuf)ANIM_STRBUF_INIT;
    anim_toml_value *root = NULL;
    if (toml_check_utf8(&p) == 0) {
        root = toml_new_value(&p, ANIM_TOML_TABLE, 0);
        if (root && parse_document(&p, root) < 0)
            root = NULL;
    }
    free(p.slots);
    anim_strbuf_free(&p.scratch);
    return root;
}

/* ---- lookups -------------------------------------------------------- */

const anim_toml_entry *anim_toml_find(const anim_toml_value *t, const char *key,
                                      size_t key_len)
{
    if (!t || t->type != ANIM_TOML_TABLE || !key)
        return NULL;
    for (size_t k = 0; k < t->u.table.count; k++) {
        const anim_toml_entry *e = &t->u.table.entries[k];
        if (e->key_len == key_len && memcmp(e->key, key, key_len) == 0)
            return e;
    }
    return NULL;
}

const anim_toml_value *anim_toml_getn(const anim_toml_value *t, const char *key,
                                      size_t key_len)
{
    const anim_toml_entry *e = anim_toml_find(t, key, key_len);
    return e ? e->value : NULL;
}

const anim_toml_value *anim_toml_get(const anim_toml_value *t, const char *key)
{
    return key ? anim_toml_getn(t, key, strlen(key)) : NULL;
}

const char *anim_toml_type_name(anim_toml_type type)
{
    switch (type) {
    case ANIM_TOML_STRING: return "string";
    case ANIM_TOML_INTEGER: return "integer";
    case ANIM_TOML_FLOAT: return "float";
    case ANIM_TOML_BOOLEAN: return "boolean";
    case ANIM_TOML_DATETIME: return "datetime";
    case ANIM_TOML_ARRAY: return "array";
    case ANIM_TOML_TABLE: return "table";
    }
    return "unknown";
}
