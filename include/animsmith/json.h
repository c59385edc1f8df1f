/* Strict JSON (RFC 8259) reader: one for every JSON input we read.
 *
 * Why our own: on the JSON chunks of a real clip library, jansson and jsmn
 * parse at 30-35 MB/s, which alone caps a lint run; this reader targets
 * several hundred MB/s. It is strict where they are lenient: UTF-8 is
 * validated, duplicate keys are rejected, depth and size are bounded, and
 * every value keeps its source byte offset for error messages. */
#ifndef ANIMSMITH_JSON_H
#define ANIMSMITH_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    ANIM_JSON_NULL,
    ANIM_JSON_FALSE,
    ANIM_JSON_TRUE,
    ANIM_JSON_NUMBER,
    ANIM_JSON_STRING,
    ANIM_JSON_ARRAY,
    ANIM_JSON_OBJECT
} anim_json_type;

typedef struct anim_json_value anim_json_value;
typedef struct anim_json_member anim_json_member;

struct anim_json_value {
    anim_json_type type;
    /* Byte offset of the value's first character in the parsed text. */
    size_t offset;
    union {
        struct {
            /* Correctly rounded binary64 value of the literal. */
            double value;
            /* Exact value when is_integer (literal without fraction or
             * exponent that fits int64). */
            int64_t integer;
            bool is_integer;
            /* The literal as written (not NUL-terminated). */
            const char *text;
            size_t text_len;
        } number;
        struct {
            /* Decoded UTF-8, NUL-terminated; len excludes the NUL and may
             * be shorter than strlen would say if the string holds \u0000. */
            const char *data;
            size_t len;
        } string;
        struct {
            anim_json_value *items; /* contiguous, count entries */
            size_t count;
        } array;
        struct {
            anim_json_member *members; /* in source order */
            size_t count;
        } object;
    } u;
};

struct anim_json_member {
    const char *key; /* decoded, NUL-terminated */
    size_t key_len;
    anim_json_value value;
};

typedef struct {
    size_t max_depth; /* nesting of arrays/objects; 0 means the default 256 */
    size_t max_bytes; /* input size; 0 means the default 1 GiB */
} anim_json_limits;

/* Parses exactly one JSON text (surrounding whitespace allowed). On error
 * returns NULL and fills err with "line L column C (byte B): what" — the
 * caller prefixes the object ("glTF JSON chunk: ..."). All memory comes
 * from arena. limits may be NULL for defaults. A leading UTF-8 BOM is an
 * error (RFC 8259 forbids emitting one; glTF forbids it). */
anim_json_value *anim_json_parse(anim_arena *arena, const char *text, size_t len,
                                 const anim_json_limits *limits, anim_error *err);

/* Member lookup by key (NULL when absent or obj is not an object). */
const anim_json_value *anim_json_get(const anim_json_value *obj, const char *key);

/* 1-based line and column (columns count bytes) of a byte offset, for
 * error messages about values found after parsing. */
void anim_json_position(const char *text, size_t len, size_t offset, size_t *line,
                        size_t *column);

const char *anim_json_type_name(anim_json_type type);

#ifdef __cplusplus
}
#endif
#endif
