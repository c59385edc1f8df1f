/* The node tree shared by both encodings: sniffing, dispatch, child
 * lookup, typed property reads and the "record 'X' at byte N" naming every
 * message uses. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/fbx/fbx_tree.h"

/* Skips whitespace and `;` comment lines from i. */
static size_t skip_ascii_preamble(const uint8_t *b, size_t len, size_t i)
{
    while (i < len) {
        if (b[i] == ';') {
            while (i < len && b[i] != '\n')
                i++;
        } else if (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
            i++;
        } else {
            break;
        }
    }
    return i;
}

bool anim_fbx_sniff(const uint8_t *bytes, size_t len)
{
    if (!bytes)
        return false;
    if (len >= sizeof ANIM_FBX_BINARY_MAGIC &&
        memcmp(bytes, ANIM_FBX_BINARY_MAGIC, sizeof ANIM_FBX_BINARY_MAGIC) == 0)
        return true;
    size_t i = len >= 3 && memcmp(bytes, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    if (len - i >= 5 && memcmp(bytes + i, "; FBX", 5) == 0)
        return true;
    static const char hdr[] = "FBXHeaderExtension";
    i = skip_ascii_preamble(bytes, len, i);
    return len - i >= sizeof hdr - 1 && memcmp(bytes + i, hdr, sizeof hdr - 1) == 0;
}

int anim_fbx_parse(const uint8_t *bytes, size_t len, anim_arena *arena,
                   const anim_fbx_parse_limits *limits, anim_fbx_tree *out, anim_error *err)
{
    size_t budget =
        limits && limits->array_bytes ? limits->array_bytes : ANIM_FBX_ARRAY_BUDGET_DEFAULT;
    if (len >= sizeof ANIM_FBX_BINARY_MAGIC &&
        memcmp(bytes, ANIM_FBX_BINARY_MAGIC, sizeof ANIM_FBX_BINARY_MAGIC) == 0)
        return anim_fbx_parse_binary(bytes, len, arena, budget, out, err);
    if (!anim_fbx_sniff(bytes, len)) {
        memset(out, 0, sizeof *out);
        out->root.name = "";
        return anim_error_set(err, ANIM_ERR_PARSE,
                              "not an FBX file (neither the binary header nor an ASCII FBX "
                              "header)");
    }
    return anim_fbx_parse_ascii(bytes, len, arena, budget, out, err);
}

bool anim_fbx_name_printable(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x21 || (unsigned char)s[i] > 0x7e)
            return false;
    return true;
}

const anim_fbx_node *anim_fbx_child(const anim_fbx_node *node, const char *name)
{
    if (!node)
        return NULL;
    for (uint32_t i = 0; i < node->child_count; i++)
        if (strcmp(node->children[i].name, name) == 0)
            return &node->children[i];
    return NULL;
}

uint32_t anim_fbx_child_count_named(const anim_fbx_node *node, const char *name)
{
    uint32_t n = 0;
    if (!node)
        return 0;
    for (uint32_t i = 0; i < node->child_count; i++)
        if (strcmp(node->children[i].name, name) == 0)
            n++;
    return n;
}

static const char *where_neutral(const anim_fbx_node *node, char *buf, size_t cap)
{
    snprintf(buf, cap, "record '%s' at %s %" PRIu64, node->name,
             node->where_is_line ? "line" : "byte", node->where);
    return buf;
}

const char *anim_fbx_node_where(const anim_fbx_tree *tree, const anim_fbx_node *node, char *buf,
                                size_t cap)
{
    (void)tree; /* the node knows its encoding */
    return where_neutral(node, buf, cap);
}

static bool is_int_type(char t)
{
    return t == ANIM_FBX_BOOL || t == ANIM_FBX_I16 || t == ANIM_FBX_I32 || t == ANIM_FBX_I64;
}

static bool is_float_type(char t)
{
    return t == ANIM_FBX_F32 || t == ANIM_FBX_F64;
}

static const char *kind_name(char t)
{
    if (is_int_type(t) || is_float_type(t))
        return "a number";
    if (t == ANIM_FBX_STRING || t == ANIM_FBX_RAW)
        return "a string";
    return "an array";
}

static int prop_error(const anim_fbx_node *node, uint32_t i, const char *expected, anim_error *err)
{
    char w[160];
    where_neutral(node, w, sizeof w);
    if (i >= node->prop_count)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s property %" PRIu32 ": expected %s, "
                              "the record has %" PRIu32 " properties",
                              w, i, expected, node->prop_count);
    return anim_error_set(err, ANIM_ERR_INVALID, "%s property %" PRIu32 ": expected %s, found %s",
                          w, i, expected, kind_name(node->props[i].type));
}

/* An integer-valued double converts to int64 only when exact. */
static bool f64_to_i64(double f, int64_t *out)
{
    if (!(f >= -9223372036854775808.0 && f < 9223372036854775808.0) || f != floor(f))
        return false;
    *out = (int64_t)f;
    return true;
}

/* An int64 converts to double only when exact. */
static bool i64_to_f64(int64_t i, double *out)
{
    double f = (double)i;
    if (f >= 9223372036854775808.0 || (int64_t)f != i)
        return false;
    *out = f;
    return true;
}

int anim_fbx_prop_i64(const anim_fbx_node *node, uint32_t i, int64_t *out, anim_error *err)
{
    if (i < node->prop_count) {
        const anim_fbx_prop *p = &node->props[i];
        if (is_int_type(p->type)) {
            *out = p->scalar.i;
            return 0;
        }
        if (is_float_type(p->type) && f64_to_i64(p->scalar.f, out))
            return 0;
        if (is_float_type(p->type))
            return prop_error(node, i, "an integer", err);
    }
    return prop_error(node, i, "a number", err);
}

int anim_fbx_prop_f64(const anim_fbx_node *node, uint32_t i, double *out, anim_error *err)
{
    if (i < node->prop_count) {
        const anim_fbx_prop *p = &node->props[i];
        if (is_float_type(p->type)) {
            *out = p->scalar.f;
            return 0;
        }
        if (is_int_type(p->type) && i64_to_f64(p->scalar.i, out))
            return 0;
    }
    return prop_error(node, i, "a number", err);
}

int anim_fbx_prop_string(const anim_fbx_node *node, uint32_t i, const char **out, size_t *len,
                         anim_error *err)
{
    if (i < node->prop_count &&
        (node->props[i].type == ANIM_FBX_STRING || node->props[i].type == ANIM_FBX_RAW)) {
        *out = node->props[i].bytes;
        if (len)
            *len = node->props[i].len;
        return 0;
    }
    return prop_error(node, i, "a string", err);
}

/* Element j of an array property as double / int64 (exact or false). */
static bool array_f64(const anim_fbx_prop *p, uint32_t j, double *out)
{
    switch (p->type) {
    case ANIM_FBX_ARR_BOOL: *out = ((const uint8_t *)p->array)[j]; return true;
    case ANIM_FBX_ARR_I32: *out = ((const int32_t *)p->array)[j]; return true;
    case ANIM_FBX_ARR_I64: return i64_to_f64(((const int64_t *)p->array)[j], out);
    case ANIM_FBX_ARR_F32: *out = ((const float *)p->array)[j]; return true;
    case ANIM_FBX_ARR_F64: *out = ((const double *)p->array)[j]; return true;
    default: return false;
    }
}

static bool array_i64(const anim_fbx_prop *p, uint32_t j, int64_t *out)
{
    switch (p->type) {
    case ANIM_FBX_ARR_BOOL: *out = ((const uint8_t *)p->array)[j]; return true;
    case ANIM_FBX_ARR_I32: *out = ((const int32_t *)p->array)[j]; return true;
    case ANIM_FBX_ARR_I64: *out = ((const int64_t *)p->array)[j]; return true;
    case ANIM_FBX_ARR_F32: return f64_to_i64(((const float *)p->array)[j], out);
    case ANIM_FBX_ARR_F64: return f64_to_i64(((const double *)p->array)[j], out);
    default: return false;
    }
}

static bool is_array_type(char t)
{
    return t == ANIM_FBX_ARR_BOOL || t == ANIM_FBX_ARR_I32 || t == ANIM_FBX_ARR_I64 ||
           t == ANIM_FBX_ARR_F32 || t == ANIM_FBX_ARR_F64;
}

/* Shared by the two array reads: want_int selects int64 output. */
static int prop_array(anim_arena *arena, const anim_fbx_node *node, uint32_t i, bool want_int,
                      void **out, uint32_t *count, anim_error *err)
{
    const char *expected = want_int ? "an integer array" : "a number array";
    if (i >= node->prop_count)
        return prop_error(node, i, expected, err);
    const anim_fbx_prop *p = &node->props[i];
    bool run = !is_array_type(p->type);
    uint32_t n = run ? node->prop_count - i : p->count;
    void *dst = anim_arena_calloc(arena, n ? n : 1, 8);
    if (!dst)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t j = 0; j < n; j++) {
        bool ok;
        if (run) {
            anim_error scratch;
            ok = want_int ? anim_fbx_prop_i64(node, i + j, (int64_t *)dst + j, &scratch) == 0
                          : anim_fbx_prop_f64(node, i + j, (double *)dst + j, &scratch) == 0;
            if (!ok)
                return prop_error(node, i + j, want_int ? "an integer" : "a number", err);
        } else {
            ok =
                want_int ? array_i64(p, j, (int64_t *)dst + j) : array_f64(p, j, (double *)dst + j);
            if (!ok) {
                char w[160];
                return anim_error_set(
                    err, ANIM_ERR_INVALID, "%s property %" PRIu32 "[%" PRIu32 "]: %s",
                    where_neutral(node, w, sizeof w), i, j,
                    want_int ? "not an exact integer" : "not exactly representable as a double");
            }
        }
    }
    *out = dst;
    *count = n;
    return 0;
}

int anim_fbx_prop_array_f64(anim_arena *arena, const anim_fbx_node *node, uint32_t i,
                            const double **out, uint32_t *count, anim_error *err)
{
    void *v;
    if (prop_array(arena, node, i, false, &v, count, err) != 0)
        return -1;
    *out = v;
    return 0;
}

int anim_fbx_prop_array_i64(anim_arena *arena, const anim_fbx_node *node, uint32_t i,
                            const int64_t **out, uint32_t *count, anim_error *err)
{
    void *v;
    if (prop_array(arena, node, i, true, &v, count, err) != 0)
        return -1;
    *out = v;
    return 0;
}
