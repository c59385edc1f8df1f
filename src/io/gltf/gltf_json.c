/* Typed accessors over the JSON tree. Every wrong type is refused with the
 * glTF object and property named, because a lenient reader would report
 * numbers derived from a file it misunderstood. */
#include "io/gltf/gltf_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

char *gltf_format_ctx(char *out, size_t cap, const char *prefix, uint32_t index)
{
    char digits[10];
    size_t d = 0, n = strlen(prefix);
    do {
        digits[d++] = (char)('0' + index % 10);
        index /= 10;
    } while (index);
    if (cap == 0)
        return out;
    if (n + d >= cap) {
        snprintf(out, cap, "%s", prefix); /* truncated like snprintf would */
        return out;
    }
    memcpy(out, prefix, n);
    while (d)
        out[n++] = digits[--d];
    out[n] = '\0';
    return out;
}

int gltf_require_object(const anim_json_value *v, const char *ctx, anim_error *err)
{
    if (!v || v->type != ANIM_JSON_OBJECT)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: expected a JSON object, found %s",
                              ctx, v ? anim_json_type_name((anim_json_type)v->type) : "nothing");
    return 0;
}

static const char *type_name(const anim_json_value *v)
{
    return anim_json_type_name((anim_json_type)v->type);
}

int gltf_value_array(const anim_json_value *v, const char *key, const char *ctx,
                     anim_error *err)
{
    if (v->type != ANIM_JSON_ARRAY)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: \"%s\" must be an array, found %s",
                              ctx, key, type_name(v));
    if (v->len > GLTF_MAX_ARRAY)
        return anim_error_set(err, ANIM_ERR_LIMIT, "%s: \"%s\" has %zu entries (limit %u)",
                              ctx, key, (size_t)v->len, GLTF_MAX_ARRAY);
    return 0;
}

int gltf_get_array(const anim_json_value *obj, const char *key, const char *ctx,
                   const anim_json_value **out, anim_error *err)
{
    const anim_json_value *v = anim_json_get(obj, key);
    *out = NULL;
    if (!v)
        return 0;
    if (gltf_value_array(v, key, ctx, err))
        return -1;
    *out = v;
    return 0;
}

/* Parses a JSON integer literal as uint64; false for fractions, exponents,
 * negatives or overflow. Plain integers (the common case) need no text. */
static bool literal_u64(const char *text, const anim_json_value *v, uint64_t *out)
{
    if (v->type != ANIM_JSON_NUMBER)
        return false;
    if (v->flags & ANIM_JSON_F_INTEGER) {
        if (v->u.integer < 0 || (v->flags & ANIM_JSON_F_NEG_ZERO))
            return false;
        *out = (uint64_t)v->u.integer;
        return true;
    }
    const char *p = text + v->offset;
    size_t n = v->len;
    if (n == 0 || p[0] == '-')
        return false;
    uint64_t acc = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return false;
        unsigned d = (unsigned)(p[i] - '0');
        if (acc > (UINT64_MAX - d) / 10)
            return false;
        acc = acc * 10 + d;
    }
    *out = acc;
    return true;
}

int gltf_value_u64(const char *text, const anim_json_value *v, const char *key,
                   const char *ctx, bool required, uint64_t dflt, uint64_t *out,
                   anim_error *err)
{
    if (!v) {
        if (required)
            return anim_error_set(err, ANIM_ERR_INVALID, "%s: missing required \"%s\"", ctx,
                                  key);
        *out = dflt;
        return 0;
    }
    if (!literal_u64(text, v, out)) {
        if (v->type == ANIM_JSON_NUMBER)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: \"%s\" must be a non-negative integer, found %.*s", ctx,
                                  key, (int)v->len, text + v->offset);
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: \"%s\" must be a non-negative integer, found %s", ctx, key,
                              type_name(v));
    }
    return 0;
}

int gltf_get_u64(const char *text, const anim_json_value *obj, const char *key,
                 const char *ctx, bool required, uint64_t dflt, uint64_t *out,
                 anim_error *err)
{
    return gltf_value_u64(text, anim_json_get(obj, key), key, ctx, required, dflt, out, err);
}

int gltf_value_index(const char *text, const anim_json_value *v, const char *key,
                     const char *ctx, bool required, uint32_t limit, const char *target,
                     uint32_t *out, anim_error *err)
{
    uint64_t n = 0;
    *out = ANIM_NONE;
    if (gltf_value_u64(text, v, key, ctx, required, UINT64_MAX, &n, err))
        return -1;
    if (!v)
        return 0;
    if (n >= limit)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: \"%s\" refers to %s %llu, but the file has %u", ctx, key,
                              target, (unsigned long long)n, limit);
    *out = (uint32_t)n;
    return 0;
}

int gltf_get_index(const char *text, const anim_json_value *obj, const char *key,
                   const char *ctx, bool required, uint32_t limit, const char *target,
                   uint32_t *out, anim_error *err)
{
    return gltf_value_index(text, anim_json_get(obj, key), key, ctx, required, limit, target,
                            out, err);
}

bool gltf_small_index(const anim_json_value *v, uint64_t limit, uint32_t *out)
{
    if (v->type != ANIM_JSON_NUMBER || !(v->flags & ANIM_JSON_F_INTEGER) || v->u.integer < 0 ||
        (uint64_t)v->u.integer >= limit)
        return false;
    *out = (uint32_t)v->u.integer;
    return true;
}

int gltf_value_string(const anim_json_value *v, const char *key, const char *ctx,
                      anim_error *err)
{
    if (v->type != ANIM_JSON_STRING)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: \"%s\" must be a string, found %s",
                              ctx, key, type_name(v));
    if (memchr(v->u.string, '\0', v->len))
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: \"%s\" contains a NUL character",
                              ctx, key);
    return 0;
}

int gltf_get_string_value(const anim_json_value *obj, const char *key, const char *ctx,
                          const anim_json_value **out, anim_error *err)
{
    const anim_json_value *v = anim_json_get(obj, key);
    *out = NULL;
    if (!v)
        return 0;
    if (gltf_value_string(v, key, ctx, err))
        return -1;
    *out = v;
    return 0;
}

int gltf_get_string(anim_arena *arena, const anim_json_value *obj, const char *key,
                    const char *ctx, const char **out, anim_error *err)
{
    const anim_json_value *v;
    *out = NULL;
    if (gltf_get_string_value(obj, key, ctx, &v, err))
        return -1;
    if (!v)
        return 0;
    *out = anim_json_strdup(arena, v);
    if (!*out)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    return 0;
}

int gltf_value_bool(const anim_json_value *v, const char *key, const char *ctx, bool dflt,
                    bool *out, anim_error *err)
{
    *out = dflt;
    if (!v)
        return 0;
    if (v->type != ANIM_JSON_TRUE && v->type != ANIM_JSON_FALSE)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: \"%s\" must be a boolean, found %s",
                              ctx, key, type_name(v));
    *out = v->type == ANIM_JSON_TRUE;
    return 0;
}

int gltf_get_bool(const anim_json_value *obj, const char *key, const char *ctx, bool dflt,
                  bool *out, anim_error *err)
{
    return gltf_value_bool(anim_json_get(obj, key), key, ctx, dflt, out, err);
}

int gltf_value_numbers(const anim_json_value *v, const char *key, const char *ctx, size_t n,
                       double *out, bool *present, anim_error *err)
{
    if (present)
        *present = v != NULL;
    if (!v)
        return 0;
    if (v->type != ANIM_JSON_ARRAY || v->len != n)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: \"%s\" must be an array of %zu numbers",
                              ctx, key, n);
    for (size_t i = 0; i < n; i++) {
        const anim_json_value *e = &v->u.items[i];
        if (e->type != ANIM_JSON_NUMBER)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: \"%s\"[%zu] must be a number, found %s", ctx, key, i,
                                  type_name(e));
        out[i] = anim_json_number(e);
    }
    return 0;
}

int gltf_get_numbers(const anim_json_value *obj, const char *key, const char *ctx, size_t n,
                     double *out, bool *present, anim_error *err)
{
    return gltf_value_numbers(anim_json_get(obj, key), key, ctx, n, out, present, err);
}
