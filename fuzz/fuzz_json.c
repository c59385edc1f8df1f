/* libFuzzer entry for the JSON reader: any byte string must be parsed or
 * refused with a positioned message, without reading past the input (the
 * fuzzer's buffer is exactly size bytes, so ASan sees any overread). Small
 * limits keep each run fast and exercise the limit paths. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
    anim_arena_free(arena);
    return 0;
}
