/* libFuzzer entry for the TOML reader: any byte string must be parsed or
 * refused with a positioned message, without reading past the input (the
 * fuzzer's buffer is exactly size bytes, so ASan sees any overread). A
 * parsed document is walked whole, and every key must be found again. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/toml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t walk(const anim_toml_value *v, size_t depth)
{
    if (depth > ANIM_TOML_MAX_DEPTH * 2 + 16 || v->line == 0 || v->column == 0)
        __builtin_trap();
    size_t n = 1;
    if (v->type == ANIM_TOML_TABLE) {
        for (size_t k = 0; k < v->u.table.count; k++) {
            const anim_toml_entry *e = &v->u.table.entries[k];
            if (anim_toml_find(v, e->key, e->key_len) != e || e->key[e->key_len] != '\0')
                __builtin_trap(); /* keys are unique and NUL-terminated */
            n += walk(e->value, depth + 1);
        }
    } else if (v->type == ANIM_TOML_ARRAY) {
        for (size_t k = 0; k < v->u.array.count; k++)
            n += walk(v->u.array.items[k], depth + 1);
    } else if (v->type == ANIM_TOML_STRING) {
        if (v->u.string.data[v->u.string.len] != '\0')
            __builtin_trap();
    } else if (v->type == ANIM_TOML_DATETIME) {
        if (v->u.datetime.len < 8 || strlen(v->u.datetime.text) != v->u.datetime.len)
            __builtin_trap();
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    anim_arena *arena = anim_arena_new();
    if (!arena)
        return 0;
    anim_error err;
    anim_error_clear(&err);
    const anim_toml_value *root = anim_toml_parse(arena, (const char *)data, size, &err);
    if (root) {
        walk(root, 0);
    } else if (err.code != ANIM_ERR_PARSE && err.code != ANIM_ERR_LIMIT &&
               err.code != ANIM_ERR_NOMEM) {
        __builtin_trap();
    } else if (strncmp(err.message, "line ", 5) != 0) {
        __builtin_trap();
    }
    anim_arena_free(arena);
    return 0;
}
