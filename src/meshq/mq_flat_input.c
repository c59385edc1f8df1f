/* Reading helpers of the flat requests: refusals that name the file and
 * the field's path, bounded display of an offending value, and the bone
 * name table. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meshq/mq_flat_input.h"

static int refuse_v(mq_flat_reader *rd, anim_error_code code, const char *tag, const char *fmt,
                    va_list ap)
{
    char msg[ANIM_ERROR_MESSAGE_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    return anim_error_set(rd->err, code, "%s: %s: %s", tag, rd->path, msg);
}

int mq_flat_refuse(mq_flat_reader *rd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    refuse_v(rd, ANIM_ERR_INVALID, "REDUCE_INPUT_MISSING", fmt, ap);
    va_end(ap);
    return -1;
}

int mq_flat_refuse_range(mq_flat_reader *rd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    refuse_v(rd, ANIM_ERR_UNSUPPORTED, "SKINNING_RANGE_UNSUPPORTED", fmt, ap);
    va_end(ap);
    return -1;
}

/* Long strings are cut here in messages, so a refusal stays one line. */
#define SHOWN_MAX 48

const char *mq_flat_shown(mq_flat_reader *rd, const anim_json_value *v)
{
    if (!v)
        return "missing";
    switch ((anim_json_type)v->type) {
    case ANIM_JSON_NULL: return "null";
    case ANIM_JSON_TRUE: return "true";
    case ANIM_JSON_FALSE: return "false";
    case ANIM_JSON_NUMBER: {
        size_t n = v->len < SHOWN_MAX ? v->len : SHOWN_MAX;
        return anim_arena_strndup(rd->arena, anim_json_number_text(v, rd->text), n);
    }
    case ANIM_JSON_STRING: {
        anim_strbuf sb = {0};
        size_t n = anim_json_string_len(v);
        bool cut = n > SHOWN_MAX;
        anim_json_escape_string(&sb, anim_json_string(v), cut ? SHOWN_MAX : n);
        const char *s = sb.failed ? "a string"
                                  : anim_arena_printf(rd->arena, "%s%s", sb.data ? sb.data : "",
                                                      cut ? "..." : "");
        anim_strbuf_free(&sb);
        return s ? s : "a string";
    }
    case ANIM_JSON_ARRAY: {
        const char *s = anim_arena_printf(rd->arena, "an array of %zu", anim_json_count(v));
        return s ? s : "an array";
    }
    case ANIM_JSON_OBJECT: return "an object";
    }
    return "a value";
}

bool mq_flat_is_number(const anim_json_value *v)
{
    return v && v->type == ANIM_JSON_NUMBER && isfinite(anim_json_number(v));
}

bool mq_flat_is_point(const anim_json_value *v, uint32_t dim)
{
    if (!v || v->type != ANIM_JSON_ARRAY || anim_json_count(v) != dim)
        return false;
    for (uint32_t i = 0; i < dim; i++)
        if (!mq_flat_is_number(anim_json_item(v, i)))
            return false;
    return true;
}

bool mq_flat_is_whole(const anim_json_value *v)
{
    if (!mq_flat_is_number(v))
        return false;
    double x = anim_json_number(v);
    return x == floor(x);
}

const char *mq_flat_name(mq_flat_reader *rd, const anim_json_value *v)
{
    if (!v || v->type != ANIM_JSON_STRING || anim_json_string_len(v) == 0 ||
        memchr(anim_json_string(v), 0, anim_json_string_len(v)))
        return NULL;
    return anim_json_strdup(rd->arena, v);
}

static uint32_t hash_of(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static bool grow(mq_names *t)
{
    uint32_t cap = t->slot_cap ? t->slot_cap * 2 : 64;
    uint32_t *slots = calloc(cap, sizeof *slots);
    const char **names = realloc(t->names, (size_t)cap / 2 * sizeof *names);
    if (!slots || !names) {
        free(slots);
        if (names)
            t->names = names;
        return false;
    }
    t->names = names;
    for (uint32_t i = 0; i < t->count; i++) {
        uint32_t h = hash_of(names[i]) & (cap - 1);
        while (slots[h])
            h = (h + 1) & (cap - 1);
        slots[h] = i + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->slot_cap = cap;
    t->cap = cap / 2;
    return true;
}

uint32_t mq_names_intern(mq_flat_reader *rd, const char *name)
{
    mq_names *t = &rd->names;
    if (t->count == t->cap && !grow(t)) {
        anim_error_set(rd->err, ANIM_ERR_NOMEM, "%s: out of memory naming %u bones", rd->path,
                       t->count);
        return ANIM_MQ_NONE;
    }
    uint32_t h = hash_of(name) & (t->slot_cap - 1);
    while (t->slots[h]) {
        uint32_t i = t->slots[h] - 1;
        if (strcmp(t->names[i], name) == 0)
            return i;
        h = (h + 1) & (t->slot_cap - 1);
    }
    t->names[t->count] = name;
    t->slots[h] = t->count + 1;
    return t->count++;
}

void mq_names_free(mq_names *names)
{
    free(names->names);
    free(names->slots);
    memset(names, 0, sizeof *names);
}

void mq_flat_write_value(anim_json_writer *w, const anim_json_value *v, const char *text)
{
    switch ((anim_json_type)v->type) {
    case ANIM_JSON_NULL: anim_json_writer_null(w); break;
    case ANIM_JSON_TRUE: anim_json_writer_bool(w, true); break;
    case ANIM_JSON_FALSE: anim_json_writer_bool(w, false); break;
    case ANIM_JSON_NUMBER: anim_json_writer_f64(w, anim_json_number(v)); break;
    case ANIM_JSON_STRING:
        anim_json_writer_string_n(w, anim_json_string(v), anim_json_string_len(v));
        break;
    case ANIM_JSON_ARRAY:
        anim_json_writer_begin_array(w);
        for (size_t i = 0; i < anim_json_count(v); i++)
            mq_flat_write_value(w, anim_json_item(v, i), text);
        anim_json_writer_end_array(w);
        break;
    case ANIM_JSON_OBJECT:
        anim_json_writer_begin_object(w);
        for (size_t i = 0; i < anim_json_count(v); i++) {
            const anim_json_member *m = anim_json_member_at(v, i);
            anim_json_writer_key_n(w, m->key, anim_json_key_len(m));
            mq_flat_write_value(w, &m->value, text);
        }
        anim_json_writer_end_object(w);
        break;
    }
}
