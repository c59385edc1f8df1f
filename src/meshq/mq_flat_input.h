/* The flat (2-D) request's shared reading helpers: the refusal of a
 * malformed field (REDUCE_INPUT_MISSING, naming the file and the path), the
 * value as a message shows it, and the bone-name table both meshes and the
 * envelope index into. Used by the residual request and the envelope
 * helper's request. */
#ifndef ANIMSMITH_MQ_FLAT_INPUT_H
#define ANIMSMITH_MQ_FLAT_INPUT_H

#include "animsmith/json.h"
#include "meshq/mq.h"

typedef struct mq_names {
    const char **names;
    uint32_t count, cap;
    uint32_t *slots;            /* open addressing, 0 = empty, else index + 1 */
    uint32_t slot_cap;
} mq_names;

typedef struct mq_flat_reader {
    anim_arena *arena;
    const char *path;
    const char *text;
    anim_error *err;
    mq_names names;
} mq_flat_reader;

/* Sets err to "REDUCE_INPUT_MISSING: PATH: <message>" (ANIM_ERR_INVALID);
 * returns -1. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
int mq_flat_refuse(mq_flat_reader *rd, const char *fmt, ...);

/* The same with code SKINNING_RANGE_UNSUPPORTED (ANIM_ERR_UNSUPPORTED). */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
int mq_flat_refuse_range(mq_flat_reader *rd, const char *fmt, ...);

/* A value as a message names it, bounded: a number as written, a string
 * quoted (long ones cut), null/true/false, "an array of N", "an object",
 * and "missing" for NULL. Arena memory. */
const char *mq_flat_shown(mq_flat_reader *rd, const anim_json_value *v);

bool mq_flat_is_number(const anim_json_value *v);
bool mq_flat_is_point(const anim_json_value *v, uint32_t dim);
bool mq_flat_is_whole(const anim_json_value *v);

/* A string member as a C string: NULL when v is not a non-empty string
 * without U+0000. */
const char *mq_flat_name(mq_flat_reader *rd, const anim_json_value *v);

/* The index of name in the table, added when new; ANIM_MQ_NONE when out
 * of memory (err set). */
uint32_t mq_names_intern(mq_flat_reader *rd, const char *name);

void mq_names_free(mq_names *names);

/* Writes a parsed JSON value back (compact, key order as given). */
void mq_flat_write_value(anim_json_writer *w, const anim_json_value *v, const char *text);

#endif
