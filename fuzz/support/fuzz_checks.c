/* See fuzz_checks.h. */
#include "fuzz_checks.h"

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/json.h"

void fuzz_require_json(const anim_strbuf *out)
{
    if (out->failed)
        return;
    anim_arena *arena = anim_arena_new();
    if (!arena)
        return;
    anim_error err;
    anim_error_clear(&err);
    if (!anim_json_parse(arena, out->data, out->len, NULL, &err))
        __builtin_trap();
    anim_arena_free(arena);
}

void fuzz_require_outcome(const anim_mq_outcome *o)
{
    if (o->passed + o->failed + o->undeclared + o->refused + o->not_measurable != o->rows)
        __builtin_trap();
}
