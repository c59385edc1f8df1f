/* The field readers the measurement validators share. Each one checks one
 * typed member and, on failure, names its full path
 * ("clips[\"walk\"].gait.phase") so an operator can find the bad value in
 * the report. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "animsmith/strbuf.h"
#include "animsmith/text.h"
#include "diff/diff_internal.h"

const char *const DIFF_AVAIL[3] = {"measured", "not_applicable", "unavailable"};

size_t dv_push(vctx *v, const char *fmt, ...)
{
    size_t old = v->len;
    if (old < sizeof v->path - 1) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(v->path + old, sizeof v->path - old, fmt, ap);
        va_end(ap);
        if (n > 0)
            v->len = old + (size_t)n < sizeof v->path - 1 ? old + (size_t)n : sizeof v->path - 1;
    }
    return old;
}

void dv_pop(vctx *v, size_t old)
{
    v->len = old;
    v->path[old] = '\0';
}

int dv_bad(vctx *v, const char *fmt, ...)
{
    char reason[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    return anim_error_set(v->err, ANIM_ERR_INVALID, "measurement structure %s is invalid: %s",
                          v->path, reason);
}

static int nonfinite(vctx *v)
{
    return anim_error_set(v->err, ANIM_ERR_INVALID, "measurement value %s must be finite",
                          v->path);
}

/* Strings a producer might have written for a non-finite number. */
static bool is_nonfinite_spelling(const anim_json_value *x)
{
    static const char *const names[] = {"NaN", "nan", "inf", "-inf", "+inf", "Infinity",
                                        "-Infinity", "+Infinity"};
    if (x->type != ANIM_JSON_STRING)
        return false;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (anim_json_string_eq(x, names[i]))
            return true;
    return false;
}

static bool key_is(const anim_json_member *m, const char *k)
{
    size_t n = strlen(k);
    return anim_json_key_len(m) == n && memcmp(m->key, k, n) == 0;
}

int dv_check_keys(vctx *v, const anim_json_value *obj, const char *const *keys, size_t n)
{
    for (size_t i = 0; i < anim_json_count(obj); i++) {
        const anim_json_member *m = anim_json_member_at(obj, i);
        bool known = false;
        for (size_t k = 0; k < n && !known; k++)
            known = key_is(m, keys[k]);
        if (known)
            continue;
        anim_strbuf q = ANIM_STRBUF_INIT;
        anim_text_debug_quote(&q, m->key, anim_json_key_len(m));
        /* A later version's field in a historical record is the usual
         * way a hand-edited or mislabelled report fails: say so. */
        int since = diff_field_since(m->key, anim_json_key_len(m));
        int rc = since > v->version
                     ? dv_bad(v, "unknown field %s (first carried by measurements-v%d)",
                              q.data ? q.data : "?", since)
                     : dv_bad(v, "unknown field %s", q.data ? q.data : "?");
        anim_strbuf_free(&q);
        return rc;
    }
    return 0;
}

int dv_want_object(vctx *v, const anim_json_value *x)
{
    return x->type == ANIM_JSON_OBJECT ? 0 : dv_bad(v, "expected an object");
}

int dv_want_array(vctx *v, const anim_json_value *x)
{
    return x->type == ANIM_JSON_ARRAY ? 0 : dv_bad(v, "expected an array");
}

const anim_json_value *dv_required(vctx *v, const anim_json_value *obj, const char *key)
{
    const anim_json_value *x = anim_json_get(obj, key);
    if (!x) {
        size_t old = dv_push(v, ".%s", key);
        dv_bad(v, "missing");
        dv_pop(v, old);
    }
    return x;
}

int dv_number_value(vctx *v, const anim_json_value *x, double *out)
{
    if (is_nonfinite_spelling(x))
        return nonfinite(v);
    if (x->type != ANIM_JSON_NUMBER)
        return dv_bad(v, "expected a number");
    double d = anim_json_number(x);
    if (!isfinite(d))
        return nonfinite(v);
    *out = d;
    return 0;
}

int dv_number_field(vctx *v, const anim_json_value *obj, const char *key, bool nonneg,
                    double *out)
{
    const anim_json_value *x = dv_required(v, obj, key);
    if (!x)
        return -1;
    size_t old = dv_push(v, ".%s", key);
    int rc = dv_number_value(v, x, out);
    if (!rc && nonneg && *out < 0)
        rc = dv_bad(v, "must not be negative");
    dv_pop(v, old);
    return rc;
}

int dv_numbers_field(vctx *v, const anim_json_value *obj, const char *key, size_t n, double *out)
{
    const anim_json_value *x = dv_required(v, obj, key);
    if (!x)
        return -1;
    size_t old = dv_push(v, ".%s", key);
    int rc = dv_want_array(v, x);
    if (!rc && anim_json_count(x) != n)
        rc = dv_bad(v, "expected %zu numbers", n);
    for (size_t i = 0; !rc && i < n; i++) {
        size_t o2 = dv_push(v, "[%zu]", i);
        rc = dv_number_value(v, anim_json_item(x, i), &out[i]);
        dv_pop(v, o2);
    }
    dv_pop(v, old);
    return rc;
}

int dv_uint_value(vctx *v, const anim_json_value *x, uint64_t *out)
{
    if (x->type != ANIM_JSON_NUMBER)
        return dv_bad(v, "expected a non-negative integer");
    if (anim_json_is_integer(x)) {
        int64_t i = anim_json_integer(x);
        if (i < 0)
            return dv_bad(v, "expected a non-negative integer");
        *out = (uint64_t)i;
        return 0;
    }
    double d = anim_json_number(x);
    if (!(d >= 0 && d < 18446744073709551616.0) || d != floor(d))
        return dv_bad(v, "expected a non-negative integer");
    *out = (uint64_t)d;
    return 0;
}

int dv_uint_field(vctx *v, const anim_json_value *obj, const char *key, uint64_t *out)
{
    const anim_json_value *x = dv_required(v, obj, key);
    if (!x)
        return -1;
    size_t old = dv_push(v, ".%s", key);
    int rc = dv_uint_value(v, x, out);
    dv_pop(v, old);
    return rc;
}

int dv_string_field(vctx *v, const anim_json_value *obj, const char *key)
{
    const anim_json_value *x = dv_required(v, obj, key);
    if (!x)
        return -1;
    size_t old = dv_push(v, ".%s", key);
    int rc = x->type == ANIM_JSON_STRING ? 0 : dv_bad(v, "expected a string");
    dv_pop(v, old);
    return rc;
}

int dv_enum_field(vctx *v, const anim_json_value *obj, const char *key, const char *const *names,
                  size_t n)
{
    const anim_json_value *x = dv_required(v, obj, key);
    if (!x)
        return -1;
    size_t old = dv_push(v, ".%s", key);
    int idx = -1;
    if (x->type != ANIM_JSON_STRING) {
        dv_bad(v, "expected a string");
    } else {
        for (size_t i = 0; i < n && idx < 0; i++)
            if (anim_json_string_eq(x, names[i]))
                idx = (int)i;
        if (idx < 0) {
            anim_strbuf q = ANIM_STRBUF_INIT;
            anim_text_debug_quote(&q, anim_json_string(x), anim_json_string_len(x));
            dv_bad(v, "unknown value %s", q.data ? q.data : "?");
            anim_strbuf_free(&q);
        }
    }
    dv_pop(v, old);
    return idx;
}

int dv_avail_pair(vctx *v, const anim_json_value *obj, const char *field, const char *avail_key,
                  bool allow_na, const anim_json_value **value)
{
    int st = dv_enum_field(v, obj, avail_key, DIFF_AVAIL, 3);
    if (st < 0)
        return -1;
    size_t old = dv_push(v, ".%s", avail_key);
    if (st == AV_NOT_APPLICABLE && !allow_na) {
        dv_bad(v, "not_applicable is not allowed here");
        dv_pop(v, old);
        return -1;
    }
    dv_pop(v, old);
    const anim_json_value *x = anim_json_get(obj, field);
    old = dv_push(v, ".%s", field);
    int rc = 0;
    if (st == AV_MEASURED && !x)
        rc = dv_bad(v, "missing although %s is \"measured\"", avail_key);
    else if (st != AV_MEASURED && x)
        rc = dv_bad(v, "present although %s is \"%s\"", avail_key, DIFF_AVAIL[st]);
    dv_pop(v, old);
    *value = st == AV_MEASURED ? x : NULL;
    return rc;
}
