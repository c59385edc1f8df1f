/* libFuzzer entry for the JSON reader: any byte string must be parsed or
 * refused with a positioned message, without reading past the input (the
 * fuzzer's buffer is exactly size bytes, so ASan sees any overread). Small
 * limits keep each run fast and exercise the limit paths.
 *
 * Each input is parsed a second time with the glTF reader's hook
 * (gltf_scan.c), which validates "bufferViews", "accessors" and
 * "animations" itself and defers their trees: the verdict and message
 * must not change, and the expanded tree must equal the plain one. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/json.h"
#include "io/gltf/gltf_internal.h"
#include "io/json/json_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool same_tree(const anim_json_value *a, const anim_json_value *b)
{
    a = anim_json_expand(a);
    b = anim_json_expand(b);
    if (a->type != b->type || a->offset != b->offset || a->flags != b->flags)
        return false;
    switch (a->type) {
    case ANIM_JSON_NUMBER:
        return a->len == b->len && memcmp(&a->u, &b->u, sizeof a->u) == 0;
    case ANIM_JSON_STRING:
        return a->len == b->len && memcmp(a->u.string, b->u.string, a->len) == 0;
    case ANIM_JSON_ARRAY:
        if (anim_json_count(a) != anim_json_count(b))
            return false;
        for (size_t i = 0; i < anim_json_count(a); i++)
            if (!same_tree(anim_json_item(a, i), anim_json_item(b, i)))
                return false;
        return true;
    case ANIM_JSON_OBJECT:
        if (anim_json_count(a) != anim_json_count(b))
            return false;
        for (size_t i = 0; i < anim_json_count(a); i++) {
            const anim_json_member *x = anim_json_member_at(a, i), *y = anim_json_member_at(b, i);
            if (anim_json_key_len(x) != anim_json_key_len(y) ||
                memcmp(x->key, y->key, anim_json_key_len(x)) != 0 ||
                !same_tree(&x->value, &y->value))
                return false;
        }
        return true;
    default:
        return true;
    }
}

/* The hooked parse against the plain one (v, err). */
static void check_hooked(const uint8_t *data, size_t size, const anim_json_limits *limits,
                         const anim_json_value *v, const anim_error *err)
{
    anim_arena *arena = anim_arena_new();
    if (!arena)
        return;
    gltf_scan scan;
    memset(&scan, 0, sizeof scan);
    anim_error herr;
    anim_error_clear(&herr);
    const anim_json_value *h = json_parse_hooked(arena, (const char *)data, size, limits,
                                                 gltf_scan_hook, &scan, &herr);
    if (!v != !h)
        __builtin_trap(); /* the hook changed the verdict */
    if (!v && (err->code != herr.code || strcmp(err->message, herr.message) != 0))
        __builtin_trap(); /* or the message */
    if (v && !same_tree(v, h))
        __builtin_trap(); /* or the tree */
    gltf_scan_free(&scan);
    anim_arena_free(arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    anim_arena *arena = anim_arena_new();
    if (!arena)
        return 0;
    anim_json_limits limits = {64, 1u << 20};
    anim_error err;
    anim_error_clear(&err);
    const anim_json_value *v = anim_json_parse(arena, (const char *)data, size, &limits, &err);
    if (v) {
        /* Touch the tree a little so bad pointers would show. */
        if (v->type == ANIM_JSON_OBJECT && anim_json_count(v) > 0) {
            const anim_json_member *m = anim_json_member_at(v, 0);
            if (anim_json_get_n(v, m->key, anim_json_key_len(m)) != &m->value)
                __builtin_trap(); /* the first member must be found by its key */
        }
        /* Every value's offset lies inside the input; borrowed strings and
         * number literals too. */
        if (v->offset >= size)
            __builtin_trap();
        if (v->type == ANIM_JSON_NUMBER && (size_t)v->offset + v->len > size)
            __builtin_trap();
        if (v->type == ANIM_JSON_STRING && v->len > 0) {
            volatile char last = anim_json_string(v)[v->len - 1]; /* ASan checks it */
            (void)last;
        }
    } else if (err.code != ANIM_ERR_PARSE && err.code != ANIM_ERR_LIMIT &&
               err.code != ANIM_ERR_NOMEM) {
        __builtin_trap();
    } else if (strncmp(err.message, "line ", 5) != 0 && err.code != ANIM_ERR_LIMIT) {
        __builtin_trap();
    }
    check_hooked(data, size, &limits, v, &err);
    anim_arena_free(arena);
    return 0;
}
