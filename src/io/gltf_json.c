/* Typed accessors over the JSON tree. Every wrong type is refused with the
 * glTF object and property named, because a lenient reader would report
 * numbers derived from a file it misunderstood. */
#include "io/gltf_internal.h"

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
                              ctx, v ? anim_json_type_name(v->type) : "nothing");
    return 0;
}

int gltf_get_array(const anim_json_value *obj, const char *key, const char *ctx,
                   const anim_json_value **out, anim_error *err)
{
    const anim_json_value *v = anim_json_get(obj, key);
    *out = NULL;
    if (!v)
        return 0;
    if (v->type != ANIM_JSON_ARRAY)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: \"%s\" must be an array, found %s",
                              ctx, key, anim_json_type_name(v->type));
    if (v->u.array.count > GLTF_MAX_ARRAY)
        return anim_error_set(err, ANIM_ERR_LIMIT, "%s: \"%s\" has %zu entries (limit %u)",
                              ctx, key, v->u.array.count, GLTF_MAX_ARRAY);
    *out = v;
    return 0;
}

/* Parses a JSON integer literal as uint64; false for fractions, exponents,
 * negatives or overflow. */
static bool literal_u64(const anim_json_value *v, uint64_t *out)
{
    if (v->type != ANIM_JSON_NUMBER)
        return false;
    const char *p = v->u.number.text;
    size_t n = v->u.number.text_len;
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

int gltf_get_u64(const anim_json_value *obj, const char *key, const char *ctx, bool required,
                 uint64_t dflt, uint64_t *out, anim_error *err)
{
    const anim_json_value *v = anim_json_get(obj, key);
    if (!v) {
        if (required)
            return anim_error_set(err, ANIM_ERR_INVALID, "%s: missing required \"%s\"", ctx,
                                  key);
        *out = dflt;
        return 0;
    }
    if (!literal_u64(v, out)) {
        if (v->type == ANIM_JSON_NUMBER)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: \"%s\" must be a non-negative integer, found %.*s", ctx,
                                  key, (int)v->u.number.text_len, v->u.number.text);
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: \"%s\" must be a non-negative integer, found %s", ctx, key,
                              anim_json_type_name(v->type));
    }
    return 0;
}

int gltf_get_index(const anim_json_value *obj, const char *key, const char *ctx, bool required,
                   uint32_t limit, const char *target, uint32_t *out, anim_error *err)
{
    uint64_t v = 0;
    *out = ANIM_NONE;
    if (gltf_get_u64(obj, key, ctx, required, UINT64_MAX, &v, err))
        return -1;
    if (v == UINT64_MAX && !anim_json_get(obj, key))
        return 0;
    if (v >= limit)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: \"%s\" refers to %s %llu, but the file has %u", ctx, key,
                              target, (unsigned long long)v, limit);
    *out = (uint32_t)v;
    return 0;
}

int gltf_get_string(const anim_json_value *obj, const char *key, const char *ctx,
                    const char **out, anim_error *err)
{
    const anim_json_value *v = anim_json_get(obj, key);
    *out = NULL;
    if (!v)
        return 0;
    if (v->type != ANIM_JSON_STRING)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: \"%s\" must be a string, found %s",
                              ctx, key, anim_json_type_name(v->type));
    if (strlen(v->u.string.data) != v->u.string.len)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: \"%s\" contains a NUL character",
                              ctx, key);
    *out = v->u.string.data;
    return 0;
}

int gltf_get_bool(const anim_json_value *obj, const char *key, const char *ctx, bool dflt,
                  bool *out, anim_error *err)
{
    const anim_json_value *v = anim_json_get(obj, key);
    *out = dflt;
    if (!v)
        return 0;
    if (v->type != ANIM_JSON_TRUE && v->type != ANIM_JSON_FALSE)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: \"%s\" must be a boolean, found %s",
                              ctx, key, anim_json_type_name(v->type));
    *out = v->type == ANIM_JSON_TRUE;
    return 0;
}

int gltf_get_numbers(const anim_json_value *obj, const char *key, const char *ctx, size_t n,
                     double *out, bool *present, anim_error *err)
{
    const anim_json_value *v = anim_json_get(obj, key);
    if (present)
        *present = v != NULL;
    if (!v)
        return 0;
    if (v->type != ANIM_JSON_ARRAY || v->u.array.count != n)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: \"%s\" must be an array of %zu numbers",
                              ctx, key, n);
    for (size_t i = 0; i < n; i++) {
        const anim_json_value *e = &v->u.array.items[i];
        if (e->type != ANIM_JSON_NUMBER)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: \"%s\"[%zu] must be a number, found %s", ctx, key, i,
                                  anim_json_type_name(e->type));
        out[i] = e->u.number.value;
    }
    return 0;
}
