/* The generic validation of an operation object against its field specs
 * (mdl_ops.h): known op, only known fields, required fields present, JSON
 * types, finite numbers, ranges, array lengths, id strings and names. It
 * runs over the whole batch before anything executes, so a malformed
 * operation late in a batch refuses before any work is done, and the run
 * functions may read their fields without checking again.
 *
 * Range convention of the specs: a number, integer or lane spec whose min
 * and max are both 0 (and not open) has no range; an array spec with
 * max_items 0 allows up to MDL_ITEMS_DEFAULT_MAX items.
 *
 * Messages name the field by its path inside the operation
 * ("field \"channels[2].keys[0].time\": ..."); the batch driver prefixes
 * "operation I (op): ". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/numfmt.h"
#include "animsmith/utf8.h"
#include "model/mdl_ops.h"

#define MDL_ITEMS_DEFAULT_MAX 1000000u
#define PATH_MAX_BYTES 200

typedef struct vpath {
    char buf[PATH_MAX_BYTES];
    size_t len;
} vpath;

/* Appends to the path, keeping what fits (messages are truncated, never
 * overrun). */
static void path_append(vpath *p, const char *s, size_t n)
{
    size_t room = sizeof p->buf - 1 - p->len;
    if (n > room)
        n = room;
    memcpy(p->buf + p->len, s, n);
    p->len += n;
    p->buf[p->len] = '\0';
}

static void path_index(vpath *p, size_t i)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "[%zu]", i);
    path_append(p, tmp, (size_t)n);
}

/* A JSON string made safe for a one-line message: at most 64 bytes, bytes
 * outside printable ASCII written as \xHH. */
static void quote_text(const char *s, size_t len, char out[300])
{
    size_t o = 0;
    size_t n = len > 64 ? 64 : len;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
            out[o++] = (char)c;
        } else {
            o += (size_t)snprintf(out + o, 5, "\\x%02x", c);
        }
    }
    if (len > n) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
}

/* Integral values print as integers ("128", not "128.0"). */
static void fmt_num(double v, char buf[ANIM_FMT_JSON_MAX])
{
    if (isinf(v))
        strcpy(buf, v < 0 ? "-inf" : "inf");
    else if (trunc(v) == v && fabs(v) < 1e15)
        snprintf(buf, ANIM_FMT_JSON_MAX, "%.0f", v); /* "-0" stays visible */
    else
        anim_fmt_f64_json(v, buf);
}

static bool has_range(const mdl_field *f)
{
    return !(f->min == 0 && f->max == 0 && !f->min_open && !f->max_open);
}

static int refuse_range(mdl_ctx *ctx, const vpath *p, const mdl_field *f, double v)
{
    char a[ANIM_FMT_JSON_MAX], b[ANIM_FMT_JSON_MAX], c[ANIM_FMT_JSON_MAX];
    fmt_num(v, a);
    fmt_num(f->min, b);
    fmt_num(f->max, c);
    return mdl_refuse(ctx, "out_of_range", "field \"%s\": %s is out of range %c%s, %s%c", p->buf,
                      a, f->min_open ? '(' : '[', b, c, f->max_open ? ')' : ']');
}

static int refuse_type(mdl_ctx *ctx, const vpath *p, const char *expected,
                       const anim_json_value *v)
{
    return mdl_refuse(ctx, "wrong_type", "field \"%s\": expected %s, got %s", p->buf, expected,
                      anim_json_type_name((anim_json_type)v->type));
}

/* A finite number within the spec's range. */
static int check_number(mdl_ctx *ctx, const vpath *p, const mdl_field *f,
                        const anim_json_value *v, bool integer)
{
    if (v->type != ANIM_JSON_NUMBER)
        return refuse_type(ctx, p, integer ? "an integer" : "a number", v);
    double x = anim_json_number(v);
    if (!isfinite(x))
        return mdl_refuse(ctx, "not_finite", "field \"%s\": the number is not finite", p->buf);
    if (integer && !anim_json_is_integer(v) &&
        (trunc(x) != x || x < -9223372036854775808.0 || x >= 9223372036854775808.0))
        return refuse_type(ctx, p, "an integer", v);
    if (has_range(f)) {
        if (x < f->min || (f->min_open && x <= f->min) || x > f->max ||
            (f->max_open && x >= f->max))
            return refuse_range(ctx, p, f, x);
    }
    return 0;
}

/* [x, y, ...] of exactly n finite numbers, each in the spec's range. */
static int check_vec(mdl_ctx *ctx, vpath *p, const mdl_field *f, const anim_json_value *v,
                     size_t n, bool integer)
{
    static const char *const names[] = {"", "", "an array of 2 numbers", "an array of 3 numbers",
                                        "an array of 4 numbers"};
    if (v->type != ANIM_JSON_ARRAY || anim_json_count(v) != n)
        return refuse_type(ctx, p, integer ? "an array of 3 integers" : names[n], v);
    size_t mark = p->len;
    for (size_t i = 0; i < n; i++) {
        path_index(p, i);
        if (check_number(ctx, p, f, anim_json_item(v, i), integer) != 0)
            return -1;
        p->len = mark;
        p->buf[mark] = '\0';
    }
    return 0;
}

static int check_count(mdl_ctx *ctx, const vpath *p, const mdl_field *f, size_t count)
{
    uint32_t max = f->max_items ? f->max_items : MDL_ITEMS_DEFAULT_MAX;
    if (count < f->min_items || count > max)
        return mdl_refuse(ctx, "out_of_range", "field \"%s\": %zu items, expected %u to %u",
                          p->buf, count, (unsigned)f->min_items, (unsigned)max);
    return 0;
}

/* Parses an id string; false for anything but "1".."18446744073709551615"
 * without leading zeros. */
static bool parse_id(const char *s, size_t len, uint64_t *out)
{
    if (len == 0 || len > 20 || s[0] == '0')
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

static int check_id(mdl_ctx *ctx, const vpath *p, const anim_json_value *v, uint64_t *out)
{
    if (v->type != ANIM_JSON_STRING)
        return refuse_type(ctx, p, "an id string", v);
    if (!parse_id(anim_json_string(v), anim_json_string_len(v), out)) {
        char q[300];
        quote_text(anim_json_string(v), anim_json_string_len(v), q);
        return mdl_refuse(ctx, "invalid_id",
                          "field \"%s\": \"%s\" is not an id (a decimal string from 1 to "
                          "18446744073709551615 without leading zeros)",
                          p->buf, q);
    }
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int check_ids(mdl_ctx *ctx, vpath *p, const mdl_field *f, const anim_json_value *v)
{
    if (v->type != ANIM_JSON_ARRAY)
        return refuse_type(ctx, p, "an array of id strings", v);
    size_t n = anim_json_count(v);
    if (check_count(ctx, p, f, n) != 0)
        return -1;
    uint64_t local[64];
    uint64_t *ids = local;
    if (n > 64) {
        ids = malloc(n * sizeof *ids); /* n <= max_items (u32): no overflow */
        if (!ids)
            return mdl_nomem(ctx);
    }
    int rc = 0;
    size_t mark = p->len;
    for (size_t i = 0; i < n && rc == 0; i++) {
        path_index(p, i);
        rc = check_id(ctx, p, anim_json_item(v, i), &ids[i]);
        p->len = mark;
        p->buf[mark] = '\0';
    }
    if (rc == 0 && n > 1) {
        qsort(ids, n, sizeof *ids, cmp_u64);
        for (size_t i = 1; i < n; i++) {
            if (ids[i] == ids[i - 1]) {
                rc = mdl_refuse(ctx, "duplicate_id", "field \"%s\": id \"%llu\" appears twice",
                                p->buf, (unsigned long long)ids[i]);
                break;
            }
        }
    }
    if (ids != local)
        free(ids);
    return rc;
}

static int check_name(mdl_ctx *ctx, const vpath *p, const anim_json_value *v)
{
    if (v->type != ANIM_JSON_STRING)
        return refuse_type(ctx, p, "a name string", v);
    const unsigned char *s = (const unsigned char *)anim_json_string(v);
    size_t len = anim_json_string_len(v);
    if (len == 0)
        return mdl_refuse(ctx, "invalid_name", "field \"%s\": the name is empty", p->buf);
    if (len > MDL_NAME_MAX)
        return mdl_refuse(ctx, "name_too_long", "field \"%s\": the name has %zu bytes, at most %d",
                          p->buf, len, MDL_NAME_MAX);
    for (size_t i = 0; i < len;) {
        uint32_t cp = 0;
        size_t n = anim_utf8_decode(s + i, len - i, &cp);
        if (n == 0)
            return mdl_refuse(ctx, "invalid_name", "field \"%s\": byte %zu is not valid UTF-8",
                              p->buf, i);
        if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
            return mdl_refuse(ctx, "invalid_name",
                              "field \"%s\": byte %zu is a control character", p->buf, i);
        i += n;
    }
    return 0;
}

static int check_matrix(mdl_ctx *ctx, vpath *p, const mdl_field *f, const anim_json_value *v)
{
    if (v->type != ANIM_JSON_ARRAY || anim_json_count(v) != 4)
        return refuse_type(ctx, p, "four rows of four numbers", v);
    static const mdl_field lane = {0};
    size_t mark = p->len;
    for (size_t r = 0; r < 4; r++) {
        const anim_json_value *row = anim_json_item(v, r);
        path_index(p, r);
        if (check_vec(ctx, p, has_range(f) ? f : &lane, row, 4, false) != 0)
            return -1;
        if (r == 3) {
            for (size_t c = 0; c < 4; c++) {
                if (anim_json_number(anim_json_item(row, c)) != (c == 3 ? 1.0 : 0.0))
                    return mdl_refuse(ctx, "out_of_range",
                                      "field \"%s\": the last row of an affine matrix must be "
                                      "[0, 0, 0, 1]",
                                      p->buf);
            }
        }
        p->len = mark;
        p->buf[mark] = '\0';
    }
    return 0;
}

static int check_fields(mdl_ctx *ctx, vpath *p, const mdl_field *fields,
                        const anim_json_value *obj, const mdl_op_def *def);

/* An array whose items are each checked by check_item. */
static int check_array(mdl_ctx *ctx, vpath *p, const mdl_field *f, const anim_json_value *v)
{
    const char *what = f->type == MDL_F_VEC3_ARRAY  ? "an array of [x, y, z]"
                       : f->type == MDL_F_VEC2_ARRAY ? "an array of [u, v]"
                       : f->type == MDL_F_INT_ARRAY  ? "an array of integers"
                                                     : "an array of objects";
    if (v->type != ANIM_JSON_ARRAY)
        return refuse_type(ctx, p, what, v);
    size_t n = anim_json_count(v);
    if (check_count(ctx, p, f, n) != 0)
        return -1;
    size_t mark = p->len;
    for (size_t i = 0; i < n; i++) {
        const anim_json_value *it = anim_json_item(v, i);
        path_index(p, i);
        int rc = 0;
        switch (f->type) {
        case MDL_F_VEC3_ARRAY:
            rc = check_vec(ctx, p, f, it, 3, false);
            break;
        case MDL_F_VEC2_ARRAY:
            rc = check_vec(ctx, p, f, it, 2, false);
            break;
        case MDL_F_INT_ARRAY:
            rc = check_number(ctx, p, f, it, true);
            break;
        default:
            if (it->type != ANIM_JSON_OBJECT)
                rc = refuse_type(ctx, p, "an object", it);
            else
                rc = check_fields(ctx, p, f->fields, it, NULL);
            break;
        }
        if (rc != 0)
            return -1;
        p->len = mark;
        p->buf[mark] = '\0';
    }
    return 0;
}

static int check_value(mdl_ctx *ctx, vpath *p, const mdl_field *f, const anim_json_value *v)
{
    uint64_t id;
    switch (f->type) {
    case MDL_F_NUMBER:
        return check_number(ctx, p, f, v, false);
    case MDL_F_INTEGER:
        return check_number(ctx, p, f, v, true);
    case MDL_F_INTEGER_OR_NULL:
        if (v->type == ANIM_JSON_NULL)
            return 0;
        return v->type == ANIM_JSON_NUMBER ? check_number(ctx, p, f, v, true)
                                           : refuse_type(ctx, p, "an integer or null", v);
    case MDL_F_BOOL:
        return v->type == ANIM_JSON_TRUE || v->type == ANIM_JSON_FALSE
                   ? 0
                   : refuse_type(ctx, p, "a boolean", v);
    case MDL_F_NAME:
        return check_name(ctx, p, v);
    case MDL_F_ID:
        return check_id(ctx, p, v, &id);
    case MDL_F_IDS:
        return check_ids(ctx, p, f, v);
    case MDL_F_VEC2:
        return check_vec(ctx, p, f, v, 2, false);
    case MDL_F_VEC3:
        return check_vec(ctx, p, f, v, 3, false);
    case MDL_F_VEC3_OR_NULL:
        return v->type == ANIM_JSON_NULL ? 0 : check_vec(ctx, p, f, v, 3, false);
    case MDL_F_VEC4:
        return check_vec(ctx, p, f, v, 4, false);
    case MDL_F_RGB8: {
        static const mdl_field byte = {.min = 0, .max = 255};
        return check_vec(ctx, p, &byte, v, 3, true);
    }
    case MDL_F_MATRIX:
        return check_matrix(ctx, p, f, v);
    case MDL_F_VEC3_ARRAY:
    case MDL_F_VEC2_ARRAY:
    case MDL_F_INT_ARRAY:
    case MDL_F_OBJECTS:
        return check_array(ctx, p, f, v);
    case MDL_F_OBJECT:
        if (v->type != ANIM_JSON_OBJECT)
            return refuse_type(ctx, p, "an object", v);
        return check_fields(ctx, p, f->fields, v, NULL);
    case MDL_F_PATH:
        if (v->type != ANIM_JSON_STRING)
            return refuse_type(ctx, p, "a path string", v);
        if (anim_json_string_eq(v, "translation") || anim_json_string_eq(v, "rotation") ||
            anim_json_string_eq(v, "scale"))
            return 0;
        {
            char q[300];
            quote_text(anim_json_string(v), anim_json_string_len(v), q);
            return mdl_refuse(ctx, "out_of_range",
                              "field \"%s\": \"%s\" is not \"translation\", \"rotation\" or "
                              "\"scale\"",
                              p->buf, q);
        }
    }
    return mdl_refuse(ctx, "invalid_operation", "field \"%s\": unsupported field type", p->buf);
}

static const mdl_field *find_field(const mdl_field *fields, const char *key, size_t len)
{
    for (const mdl_field *f = fields; f && f->name; f++) {
        if (strlen(f->name) == len && memcmp(f->name, key, len) == 0)
            return f;
    }
    return NULL;
}

static void path_member(vpath *p, const char *key, size_t len)
{
    if (p->len)
        path_append(p, ".", 1);
    path_append(p, key, len);
}

/* The members of obj against fields; def set for the operation object
 * itself ("op" and, for mesh edits, "object" are allowed there). */
static int check_fields(mdl_ctx *ctx, vpath *p, const mdl_field *fields,
                        const anim_json_value *obj, const mdl_op_def *def)
{
    static const mdl_field object_field = {.name = "object", .type = MDL_F_NAME};
    size_t mark = p->len;
    size_t n = anim_json_count(obj);
    for (size_t i = 0; i < n; i++) {
        const anim_json_member *m = anim_json_member_at(obj, i);
        size_t klen = anim_json_key_len(m);
        const mdl_field *f;
        if (def && klen == 2 && memcmp(m->key, "op", 2) == 0)
            continue;
        if (def && def->mesh_edit && klen == 6 && memcmp(m->key, "object", 6) == 0)
            f = &object_field;
        else
            f = find_field(fields, m->key, klen);
        char q[300];
        quote_text(m->key, klen, q);
        path_member(p, q, strlen(q));
        if (!f) {
            if (def)
                return mdl_refuse(ctx, "unknown_field", "field \"%s\": not a field of %s", p->buf,
                                  def->op);
            return mdl_refuse(ctx, "unknown_field", "field \"%s\": unknown field", p->buf);
        }
        if (check_value(ctx, p, f, &m->value) != 0)
            return -1;
        p->len = mark;
        p->buf[mark] = '\0';
    }
    if (def && def->mesh_edit && !anim_json_get(obj, "object")) {
        path_member(p, "object", 6);
        return mdl_refuse(ctx, "missing_field", "field \"%s\": required", p->buf);
    }
    for (const mdl_field *f = fields; f && f->name; f++) {
        if (f->required && !anim_json_get(obj, f->name)) {
            path_member(p, f->name, strlen(f->name));
            return mdl_refuse(ctx, "missing_field", "field \"%s\": required", p->buf);
        }
    }
    return 0;
}

int mdl_validate_op(mdl_ctx *ctx, const anim_json_value *op)
{
    if (!op || op->type != ANIM_JSON_OBJECT)
        return mdl_refuse(ctx, "invalid_operation", "an operation must be a JSON object, got %s",
                          anim_json_type_name(op ? (anim_json_type)op->type : ANIM_JSON_NULL));
    const anim_json_value *name = anim_json_get(op, "op");
    if (!name)
        return mdl_refuse(ctx, "missing_field", "field \"op\": required");
    if (name->type != ANIM_JSON_STRING)
        return mdl_refuse(ctx, "wrong_type", "field \"op\": expected a string, got %s",
                          anim_json_type_name((anim_json_type)name->type));
    const mdl_op_def *def = mdl_op_find(anim_json_string(name), anim_json_string_len(name));
    if (!def) {
        char q[300];
        quote_text(anim_json_string(name), anim_json_string_len(name), q);
        return mdl_refuse(ctx, "unknown_op", "field \"op\": unknown operation \"%s\"", q);
    }
    ctx->op = def->op;
    vpath p = {{0}, 0};
    return check_fields(ctx, &p, def->fields, op, def);
}
