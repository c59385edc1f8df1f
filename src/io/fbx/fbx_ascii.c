/* The ASCII FBX container: `; comment` lines, records `Name: v, v, ... {`
 * with children up to the matching `}`, arrays `Name: *N { a: v,v,... }`
 * and, in 6.1 files, long value runs continued on the next line after a
 * trailing comma.
 *
 * One forward pass over the bytes, no recursion: records go into a flat,
 * growing list with their parent's index (an explicit stack bounded by
 * ANIM_FBX_MAX_DEPTH tracks the open ones), their values into one flat
 * property list. At the end the list is laid out as the tree, each node's
 * children contiguous, in one arena allocation. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "io/fbx/fbx_tree.h"

typedef struct {
    const char *name;
    uint32_t parent; /* flat index + 1, 0 for the root */
    uint32_t first_prop;
    uint32_t prop_count;
    uint64_t line;
} flat_node;

typedef struct {
    const char *s;
    size_t len, pos;
    uint64_t line;
    anim_arena *arena;
    size_t budget;
    anim_error *err;
    flat_node *nodes;
    size_t node_count, node_cap;
    anim_fbx_prop *props;
    size_t prop_count, prop_cap;
} asc_parser;

static int fail(asc_parser *p, anim_error_code code, const char *what)
{
    return anim_error_set(p->err, code, "line %" PRIu64 ": %s", p->line, what);
}

static bool at_end(const asc_parser *p)
{
    return p->pos >= p->len;
}

static char cur(const asc_parser *p)
{
    return p->pos < p->len ? p->s[p->pos] : '\0';
}

static void skip_comment(asc_parser *p)
{
    while (p->pos < p->len && p->s[p->pos] != '\n')
        p->pos++;
}

/* Spaces, tabs, newlines and comments. */
static void skip_all_space(asc_parser *p)
{
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (c == '\n') {
            p->line++;
            p->pos++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            p->pos++;
        } else if (c == ';') {
            skip_comment(p);
        } else {
            break;
        }
    }
}

/* Spaces and tabs only: a newline may end a record. */
static void skip_blank(asc_parser *p)
{
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v')
            p->pos++;
        else
            break;
    }
}

static bool is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool is_number_char(char c)
{
    return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E' ||
           c == '#' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* A number token at pos: integer literals (that fit int64) as 'L', any
 * other number as 'D'; the "1.#INF" / "-1.#IND" spellings some exporters
 * write for infinities and NaNs are understood. */
static int read_number(asc_parser *p, bool *is_int, int64_t *iv, double *fv)
{
    size_t start = p->pos;
    while (p->pos < p->len && is_number_char(p->s[p->pos]))
        p->pos++;
    size_t n = p->pos - start;
    char buf[72];
    if (n == 0 || n >= sizeof buf)
        return fail(p, ANIM_ERR_PARSE, n ? "number literal too long" : "expected a value");
    memcpy(buf, p->s + start, n);
    buf[n] = '\0';
    size_t k = (buf[0] == '+' || buf[0] == '-') ? 1 : 0;
    bool digits = k < n;
    for (size_t j = k; j < n; j++)
        if (buf[j] < '0' || buf[j] > '9')
            digits = false;
    if (digits) {
        errno = 0;
        char *end = NULL;
        long long v = strtoll(buf, &end, 10);
        /* "-0" is a negative zero written by a float printer (exporters
         * print -0.0 that way): an integer would lose its sign. */
        bool negative_zero = v == 0 && buf[0] == '-';
        if (errno == 0 && end == buf + n && !negative_zero) {
            *is_int = true;
            *iv = (int64_t)v;
            *fv = (double)v;
            return 0;
        }
    }
    *is_int = false;
    char *end = NULL;
    double d = strtod(buf, &end);
    /* strtod also takes C's hexadecimal forms; FBX numbers are decimal. */
    if (end == buf + n && !strchr(buf, 'x') && !strchr(buf, 'X')) { /* glibc's "-inf" / "-nan" spellings included */
        *fv = d;
        return 0;
    }
    const char *hash = strchr(buf, '#');
    if (hash && hash > buf && (hash[-1] == '.')) {
        if (strncmp(hash, "#INF", 4) == 0) {
            *fv = buf[0] == '-' ? -INFINITY : INFINITY;
            return 0;
        }
        if (strncmp(hash, "#IND", 4) == 0 || strncmp(hash, "#QNAN", 5) == 0 ||
            strncmp(hash, "#SNAN", 5) == 0) {
            *fv = NAN;
            return 0;
        }
    }
    return anim_error_set(p->err, ANIM_ERR_PARSE, "line %" PRIu64 ": malformed number '%s'",
                          p->line, buf);
}

/* A quoted string at pos (on the opening quote); &quot; decodes to ". */
static int read_string(asc_parser *p, anim_fbx_prop *out)
{
    uint64_t line = p->line;
    size_t start = ++p->pos;
    const char *close = memchr(p->s + start, '"', p->len - start);
    if (!close)
        return anim_error_set(p->err, ANIM_ERR_PARSE, "line %" PRIu64 ": string never closed",
                              line);
    size_t n = (size_t)(close - (p->s + start));
    char *dst = anim_arena_alloc(p->arena, n + 1);
    if (!dst)
        return fail(p, ANIM_ERR_NOMEM, "out of memory");
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        char c = p->s[start + i];
        if (c == '\n')
            p->line++;
        if (c == '&' && n - i >= 6 && memcmp(p->s + start + i, "&quot;", 6) == 0) {
            dst[o++] = '"';
            i += 5;
        } else {
            dst[o++] = c;
        }
    }
    dst[o] = '\0';
    p->pos = start + n + 1;
    out->type = ANIM_FBX_STRING;
    out->bytes = dst;
    out->len = o;
    return 0;
}

/* `*N { a: v, v, ... }` at pos (on the star). */
static int read_array(asc_parser *p, const char *name, anim_fbx_prop *out)
{
    uint64_t line = p->line;
    p->pos++;
    uint64_t n = 0;
    size_t digits = 0;
    while (p->pos < p->len && cur(p) >= '0' && cur(p) <= '9') {
        if (n > UINT32_MAX)
            break;
        n = n * 10 + (uint64_t)(cur(p) - '0');
        p->pos++;
        digits++;
    }
    if (digits == 0 || n > UINT32_MAX)
        return anim_error_set(p->err, ANIM_ERR_PARSE,
                              "record '%s' at line %" PRIu64 ": malformed array count", name, line);
    size_t bytes = (size_t)n * 8;
    /* Each value takes at least one byte of what remains. */
    if (n > p->len - p->pos)
        return anim_error_set(p->err, ANIM_ERR_PARSE,
                              "record '%s' at line %" PRIu64 ": array declares %" PRIu64
                              " values, more than the file holds",
                              name, line, n);
    if (bytes > p->budget)
        return anim_error_set(p->err, ANIM_ERR_LIMIT,
                              "record '%s' at line %" PRIu64 ": array of %" PRIu64
                              " values exceeds the remaining array budget of %zu bytes",
                              name, line, n, p->budget);
    skip_all_space(p);
    if (cur(p) != '{')
        return anim_error_set(p->err, ANIM_ERR_PARSE,
                              "record '%s' at line %" PRIu64 ": expected '{' after *%" PRIu64, name,
                              line, n);
    p->pos++;
    skip_all_space(p);
    if (cur(p) == 'a') {
        p->pos++;
        skip_blank(p);
        if (cur(p) != ':')
            return anim_error_set(p->err, ANIM_ERR_PARSE,
                                  "record '%s' at line %" PRIu64 ": expected 'a:' in an array",
                                  name, line);
        p->pos++;
    } else if (cur(p) != '}') {
        return anim_error_set(p->err, ANIM_ERR_PARSE,
                              "record '%s' at line %" PRIu64 ": expected 'a:' in an array", name,
                              line);
    }
    union slot {
        int64_t i;
        double f;
    } *vals = anim_arena_alloc(p->arena, bytes);
    if (!vals)
        return fail(p, ANIM_ERR_NOMEM, "out of memory");
    p->budget -= bytes;
    bool all_int = true, want_value = true;
    uint64_t k = 0;
    for (;;) {
        skip_all_space(p);
        if (at_end(p))
            return anim_error_set(p->err, ANIM_ERR_PARSE,
                                  "record '%s' at line %" PRIu64 ": array never closed", name,
                                  line);
        char c = cur(p);
        if (c == '}') {
            p->pos++;
            break;
        }
        if (c == ',') {
            if (want_value)
                return fail(p, ANIM_ERR_PARSE, "empty array value");
            want_value = true;
            p->pos++;
            continue;
        }
        if (!want_value)
            return fail(p, ANIM_ERR_PARSE, "expected ',' between array values");
        if (k == n)
            return anim_error_set(p->err, ANIM_ERR_PARSE,
                                  "record '%s' at line %" PRIu64 ": array declares %" PRIu64
                                  " values and holds more",
                                  name, line, n);
        bool is_int;
        int64_t iv;
        double fv;
        if (read_number(p, &is_int, &iv, &fv) != 0)
            return -1;
        if (all_int && !is_int) {
            /* The first non-integer: what came before becomes double. */
            for (uint64_t j = 0; j < k; j++)
                vals[j].f = (double)vals[j].i;
            all_int = false;
        }
        if (all_int)
            vals[k].i = iv;
        else
            vals[k].f = fv;
        k++;
        want_value = false;
    }
    if (k != n)
        return anim_error_set(p->err, ANIM_ERR_PARSE,
                              "record '%s' at line %" PRIu64 ": array declares %" PRIu64
                              " values, holds %" PRIu64,
                              name, line, n, k);
    out->type = all_int ? ANIM_FBX_ARR_I64 : ANIM_FBX_ARR_F64;
    out->array = vals;
    out->count = (uint32_t)n;
    return 0;
}

/* A fresh zeroed property at the end of the flat list, NULL when out of
 * memory (the caller reports it). */
static anim_fbx_prop *push_prop(asc_parser *p)
{
    if (!anim_grow((void **)&p->props, &p->prop_cap, p->prop_count + 1, sizeof *p->props))
        return NULL;
    anim_fbx_prop *prop = &p->props[p->prop_count++];
    memset(prop, 0, sizeof *prop);
    return prop;
}

/* The values of the record node (its name and colon read); *opens is set
 * when they end with '{'. */
static int read_values(asc_parser *p, flat_node *node, bool *opens)
{
    bool pending_comma = false, any = false;
    *opens = false;
    node->first_prop = (uint32_t)p->prop_count;
    for (;;) {
        skip_blank(p);
        char c = cur(p);
        if (at_end(p))
            break;
        if (c == '\n' || c == ';') {
            /* A trailing comma continues the list on the next line, and so
             * does a comma starting the next line (the 6.1 SDK wraps long
             * runs before the comma); no record name starts with one. */
            size_t save_pos = p->pos;
            uint64_t save_line = p->line;
            skip_all_space(p);
            if (pending_comma || cur(p) == ',')
                continue;
            p->pos = save_pos;
            p->line = save_line;
            break;
        }
        if (c == ',') {
            /* Leading and doubled commas (`Content: ,`) separate nothing. */
            pending_comma = true;
            p->pos++;
            continue;
        }
        if (c == '{') {
            p->pos++;
            *opens = true;
            break;
        }
        if (c == '}')
            break;
        if (any && !pending_comma)
            return fail(p, ANIM_ERR_PARSE, "expected ',' between values");
        if (p->prop_count >= UINT32_MAX)
            return fail(p, ANIM_ERR_LIMIT, "too many values");
        anim_fbx_prop *prop = push_prop(p);
        if (!prop)
            return fail(p, ANIM_ERR_NOMEM, "out of memory");
        if (c == '"') {
            if (read_string(p, prop) != 0)
                return -1;
        } else if (c == '*') {
            if (read_array(p, node->name, prop) != 0)
                return -1;
        } else if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.') {
            bool is_int;
            int64_t iv;
            double fv;
            if (read_number(p, &is_int, &iv, &fv) != 0)
                return -1;
            prop->type = is_int ? ANIM_FBX_I64 : ANIM_FBX_F64;
            if (is_int)
                prop->scalar.i = iv;
            else
                prop->scalar.f = fv;
        } else if (is_word_char(c)) {
            size_t start = p->pos;
            while (p->pos < p->len && is_word_char(p->s[p->pos]))
                p->pos++;
            char *w = anim_arena_strndup(p->arena, p->s + start, p->pos - start);
            if (!w)
                return fail(p, ANIM_ERR_NOMEM, "out of memory");
            prop->type = ANIM_FBX_STRING;
            prop->bytes = w;
            prop->len = p->pos - start;
        } else {
            if (c > 0x20 && c < 0x7f)
                return anim_error_set(p->err, ANIM_ERR_PARSE,
                                      "line %" PRIu64
                                      ": unexpected character '%c' in the values of '%s'",
                                      p->line, c, node->name);
            return anim_error_set(p->err, ANIM_ERR_PARSE,
                                  "line %" PRIu64 ": unexpected byte 0x%02x in the values of '%s'",
                                  p->line, (unsigned)(unsigned char)c, node->name);
        }
        any = true;
        pending_comma = false;
    }
    node->prop_count = (uint32_t)(p->prop_count - node->first_prop);
    return 0;
}

/* Lays the flat list out as the tree under root: the children of each
 * record get one contiguous block, blocks in the order of their parents. */
static int build_tree(asc_parser *p, anim_fbx_node *root)
{
    size_t n = p->node_count;
    anim_fbx_prop *props = NULL;
    if (p->prop_count) {
        props = anim_arena_calloc(p->arena, p->prop_count, sizeof *props);
        if (!props)
            return fail(p, ANIM_ERR_NOMEM, "out of memory");
        memcpy(props, p->props, p->prop_count * sizeof *props);
    }
    anim_fbx_node *nodes = anim_arena_calloc(p->arena, n ? n : 1, sizeof *nodes);
    uint32_t *start = calloc(n + 2, sizeof *start); /* block of record i's children */
    uint32_t *fill = calloc(n + 1, sizeof *fill);
    uint32_t *slot = calloc(n ? n : 1, sizeof *slot);
    int rc = 0;
    if (!nodes || !start || !fill || !slot) {
        rc = fail(p, ANIM_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        start[p->nodes[i].parent + 1]++;
    for (size_t i = 1; i <= n + 1; i++)
        start[i] += start[i - 1];
    memcpy(fill, start, (n + 1) * sizeof *fill);
    for (size_t i = 0; i < n; i++)
        slot[i] = fill[p->nodes[i].parent]++;
    for (size_t i = 0; i <= n; i++) {
        anim_fbx_node *nd = root;
        if (i > 0) {
            const flat_node *f = &p->nodes[i - 1];
            nd = &nodes[slot[i - 1]];
            nd->name = f->name;
            nd->props = f->prop_count ? props + f->first_prop : NULL;
            nd->prop_count = f->prop_count;
            nd->where = f->line;
            nd->where_is_line = true;
        }
        nd->child_count = start[i + 1] - start[i];
        nd->children = nd->child_count ? nodes + start[i] : NULL;
    }
done:
    free(start);
    free(fill);
    free(slot);
    return rc;
}

/* FBXHeaderExtension's FBXVersion, else the "; FBX 7.4.0 project file"
 * comment, else 7400 (the version most ASCII writers produce). */
static uint32_t ascii_version(const uint8_t *bytes, size_t len, const anim_fbx_node *root)
{
    const anim_fbx_node *v =
        anim_fbx_child(anim_fbx_child(root, "FBXHeaderExtension"), "FBXVersion");
    if (v && v->prop_count > 0 && v->props[0].type == ANIM_FBX_I64 && v->props[0].scalar.i > 0 &&
        v->props[0].scalar.i < 100000)
        return (uint32_t)v->props[0].scalar.i;
    size_t i = len >= 3 && memcmp(bytes, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    if (len - i > 8 && memcmp(bytes + i, "; FBX ", 6) == 0) {
        unsigned part[3] = {0, 0, 0}, k = 0;
        for (i += 6; i < len && k < 3; i++) {
            uint8_t c = bytes[i];
            if (c >= '0' && c <= '9' && part[k] < 100)
                part[k] = part[k] * 10 + (unsigned)(c - '0');
            else if (c == '.')
                k++;
            else
                break;
        }
        if (part[0] >= 6 && part[0] <= 9 && part[1] <= 9 && part[2] <= 9)
            return part[0] * 1000 + part[1] * 100 + part[2] * 10;
    }
    return 7400;
}

int anim_fbx_parse_ascii(const uint8_t *bytes, size_t len, anim_arena *arena, size_t array_budget,
                         anim_fbx_tree *out, anim_error *err)
{
    memset(out, 0, sizeof *out);
    out->root.name = "";
    out->root.where_is_line = true;
    out->ascii = true;
    asc_parser p = {
        (const char *)bytes, len, 0, 1, arena, array_budget, err, NULL, 0, 0, NULL, 0, 0};
    if (len >= 3 && memcmp(bytes, "\xEF\xBB\xBF", 3) == 0)
        p.pos = 3;
    uint32_t stack[ANIM_FBX_MAX_DEPTH + 1];
    unsigned depth = 0;
    stack[0] = 0;
    int rc = 0;
    for (;;) {
        skip_all_space(&p);
        if (at_end(&p)) {
            if (depth != 0) {
                const flat_node *open = &p.nodes[stack[depth] - 1];
                rc = anim_error_set(err, ANIM_ERR_PARSE,
                                    "record '%s' at line %" PRIu64 " is never closed", open->name,
                                    open->line);
            }
            break;
        }
        char c = cur(&p);
        if (c == '}') {
            if (depth == 0) {
                rc = fail(&p, ANIM_ERR_PARSE, "'}' closes no record");
                break;
            }
            depth--;
            p.pos++;
            continue;
        }
        size_t start = p.pos;
        while (p.pos < p.len) {
            char d = p.s[p.pos];
            if (d == ':' || d == ' ' || d == '\t' || d == '\r' || d == '\n' || d == '{' ||
                d == '}' || d == '"' || d == ',' || d == ';')
                break;
            p.pos++;
        }
        if (p.pos == start || cur(&p) != ':' ||
            !anim_fbx_name_printable(p.s + start, p.pos - start)) {
            rc = fail(&p, ANIM_ERR_PARSE, "expected a record name followed by ':'");
            break;
        }
        if (p.node_count >= UINT32_MAX - 1 ||
            !anim_grow((void **)&p.nodes, &p.node_cap, p.node_count + 1, sizeof *p.nodes)) {
            rc = fail(&p, ANIM_ERR_NOMEM, "out of memory");
            break;
        }
        flat_node *node = &p.nodes[p.node_count];
        memset(node, 0, sizeof *node);
        node->name = anim_arena_strndup(arena, p.s + start, p.pos - start);
        node->parent = stack[depth];
        node->line = p.line;
        if (!node->name) {
            rc = fail(&p, ANIM_ERR_NOMEM, "out of memory");
            break;
        }
        p.node_count++;
        p.pos++; /* the colon */
        bool opens;
        if (read_values(&p, node, &opens) != 0) {
            rc = -1;
            break;
        }
        if (opens) {
            if (depth + 1 > ANIM_FBX_MAX_DEPTH) {
                rc = anim_error_set(err, ANIM_ERR_LIMIT,
                                    "record '%s' at line %" PRIu64
                                    ": nesting deeper than %u records",
                                    node->name, node->line, ANIM_FBX_MAX_DEPTH);
                break;
            }
            stack[++depth] = (uint32_t)p.node_count;
        }
    }
    if (rc == 0)
        rc = build_tree(&p, &out->root);
    if (rc == 0)
        out->version = ascii_version(bytes, len, &out->root);
    free(p.nodes);
    free(p.props);
    return rc;
}
