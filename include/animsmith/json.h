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
/* Private: where a deferred container's text lies (see ANIM_JSON_F_DEFERRED). */
struct anim_json_deferred;

/* One JSON value: 24 bytes, so the tree of a large glTF document stays a
 * small multiple of its text (the tree's memory traffic, not the scanning,
 * is what bounds a DOM parser). Strings and numbers are not copied: they
 * are read back from the parsed text, which must outlive the tree. Read
 * values through the accessors below where one exists; the fields are
 * public so that hot loops can stay inline. */
struct anim_json_value {
    uint8_t type;     /* anim_json_type */
    uint8_t flags;    /* ANIM_JSON_F_* (numbers) */
    uint16_t reserved;
    /* Byte offset of the value's first character in the parsed text (the
     * reader refuses texts of 4 GiB or more). */
    uint32_t offset;
    /* String: decoded length in bytes. Array: items. Object: members.
     * Number: length of the literal as written (text + offset). */
    uint32_t len;
    /* In an object member: the byte length of the member's key; else 0. */
    uint32_t key_len;
    union {
        /* Number without ANIM_JSON_F_INTEGER: correctly rounded binary64. */
        double number;
        /* Number with ANIM_JSON_F_INTEGER: the exact value. */
        int64_t integer;
        /* Decoded UTF-8 (len bytes, may hold U+0000). Points into the
         * parsed text when the string has no escapes; otherwise an arena
         * copy. Not NUL-terminated: use anim_json_strdup for a C string. */
        const char *string;
        const anim_json_value *items;     /* contiguous, len entries */
        const anim_json_member *members;  /* in source order, len entries */
        /* With ANIM_JSON_F_DEFERRED: private, see anim_json_expand. */
        const struct anim_json_deferred *deferred;
    } u;
};

/* Number flags. */
enum {
    /* A literal without fraction or exponent that fits int64: u.integer
     * holds it exactly. */
    ANIM_JSON_F_INTEGER = 1,
    /* The integer literal "-0" (u.integer is 0, the number is -0.0). */
    ANIM_JSON_F_NEG_ZERO = 2,
    /* An array or object whose children were validated but not built yet
     * (the glTF loader reads its large top-level arrays straight from the
     * text). len already holds the item/member count; the children are
     * built on first use by anim_json_get, anim_json_item,
     * anim_json_member_at or anim_json_expand, which rewrite the value in
     * place into an ordinary container. Code reading u.items / u.members
     * directly must call anim_json_expand first. Only texts parsed by the
     * glTF loader hold deferred values; anim_json_parse never makes them. */
    ANIM_JSON_F_DEFERRED = 4
};

/* Builds the children of a deferred container in place (a no-op for any
 * other value) and returns v. The first expansion writes to the tree: do
 * not expand one tree from two threads at once. On out of memory the value
 * becomes JSON null (count 0), which callers checking types will see. */
const anim_json_value *anim_json_expand(const anim_json_value *v);

struct anim_json_member {
    /* Decoded key, value.key_len bytes: like strings, it points into the
     * text unless it held escapes, and is not NUL-terminated. */
    const char *key;
    anim_json_value value;
};

/* ---- accessors (representation-independent reads) */

static inline size_t anim_json_count(const anim_json_value *v)
{
    return v->type == ANIM_JSON_ARRAY || v->type == ANIM_JSON_OBJECT ? v->len : 0;
}

/* Array element i (i < anim_json_count). */
static inline const anim_json_value *anim_json_item(const anim_json_value *v, size_t i)
{
    if (v->flags & ANIM_JSON_F_DEFERRED)
        v = anim_json_expand(v);
    return &v->u.items[i];
}

/* Object member i (i < anim_json_count). */
static inline const anim_json_member *anim_json_member_at(const anim_json_value *v, size_t i)
{
    if (v->flags & ANIM_JSON_F_DEFERRED)
        v = anim_json_expand(v);
    return &v->u.members[i];
}

static inline size_t anim_json_key_len(const anim_json_member *m)
{
    return m->value.key_len;
}

/* The number as binary64 (correctly rounded). */
static inline double anim_json_number(const anim_json_value *v)
{
    if (v->flags & ANIM_JSON_F_INTEGER)
        return (v->flags & ANIM_JSON_F_NEG_ZERO) ? -0.0 : (double)v->u.integer;
    return v->u.number;
}

static inline bool anim_json_is_integer(const anim_json_value *v)
{
    return v->type == ANIM_JSON_NUMBER && (v->flags & ANIM_JSON_F_INTEGER);
}

/* Exact value of an integer number (anim_json_is_integer), else 0. */
static inline int64_t anim_json_integer(const anim_json_value *v)
{
    return anim_json_is_integer(v) ? v->u.integer : 0;
}

/* The number literal as written, v->len bytes; text is the parsed text. */
static inline const char *anim_json_number_text(const anim_json_value *v, const char *text)
{
    return text + v->offset;
}

static inline const char *anim_json_string(const anim_json_value *v)
{
    return v->u.string;
}

static inline size_t anim_json_string_len(const anim_json_value *v)
{
    return v->len;
}

/* True when v is a string equal to the C string s. */
bool anim_json_string_eq(const anim_json_value *v, const char *s);

/* NUL-terminated arena copy of a string value (NULL when v is not a string
 * or out of memory). */
char *anim_json_strdup(anim_arena *arena, const anim_json_value *v);

typedef struct {
    size_t max_depth; /* nesting of arrays/objects; 0 means the default 256 */
    size_t max_bytes; /* input size; 0 means the default 1 GiB */
} anim_json_limits;

/* Parses exactly one JSON text (surrounding whitespace allowed). On error
 * returns NULL and fills err with "line L column C (byte B): what" — the
 * caller prefixes the object ("glTF JSON chunk: ..."). All memory comes
 * from arena; the tree also points into text, which must stay valid and
 * unchanged while the tree is used. limits may be NULL for defaults (and
 * max_bytes is capped at 4 GiB - 1, the reach of a value's offset). A
 * leading UTF-8 BOM is an error (RFC 8259 forbids emitting one; glTF
 * forbids it). */
anim_json_value *anim_json_parse(anim_arena *arena, const char *text, size_t len,
                                 const anim_json_limits *limits, anim_error *err);

/* Member lookup by key (NULL when absent or obj is not an object). A
 * deferred member value is expanded before it is returned. */
const anim_json_value *anim_json_get(const anim_json_value *obj, const char *key);
/* The same with a key of key_len bytes (may hold NUL). */
const anim_json_value *anim_json_get_n(const anim_json_value *obj, const char *key,
                                       size_t key_len);

/* 1-based line and column (columns count bytes) of a byte offset, for
 * error messages about values found after parsing. */
void anim_json_position(const char *text, size_t len, size_t offset, size_t *line,
                        size_t *column);

const char *anim_json_type_name(anim_json_type type);

#ifdef __cplusplus
}
#endif
#endif
