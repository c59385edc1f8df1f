/* Strict TOML 1.0.0 reader for the project contract (animsmith.toml).
 *
 * Why our own: Debian ships no C TOML library. The reader accepts and
 * rejects exactly what Python 3.11's tomllib does (tests/scripts/
 * toml_vs_tomllib.sh checks it on every document under tests/toml/), with
 * one deliberate exception taken from the TOML 1.0 spec: an integer outside
 * the signed 64-bit range is an error here, where tomllib returns a Python
 * big integer. Every value and every key keeps its 1-based source line and
 * column (columns count characters), so the config loader can say where a
 * bad setting is. Dates and times are accepted and kept as text: the
 * contract has no use for them, and the loader refuses them by type. */
#ifndef ANIMSMITH_TOML_H
#define ANIMSMITH_TOML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Nesting of arrays and inline tables inside one value. */
#define ANIM_TOML_MAX_DEPTH 128
/* A contract is a few kilobytes; anything near this is not one. */
#define ANIM_TOML_MAX_BYTES ((size_t)16 << 20)

typedef enum {
    ANIM_TOML_STRING,
    ANIM_TOML_INTEGER,
    ANIM_TOML_FLOAT,
    ANIM_TOML_BOOLEAN,
    ANIM_TOML_DATETIME,
    ANIM_TOML_ARRAY,
    ANIM_TOML_TABLE
} anim_toml_type;

typedef enum {
    ANIM_TOML_OFFSET_DATETIME, /* 1979-05-27T07:32:00Z */
    ANIM_TOML_LOCAL_DATETIME,  /* 1979-05-27T07:32:00 */
    ANIM_TOML_LOCAL_DATE,      /* 1979-05-27 */
    ANIM_TOML_LOCAL_TIME       /* 07:32:00 */
} anim_toml_datetime_kind;

typedef struct anim_toml_value anim_toml_value;
typedef struct anim_toml_entry anim_toml_entry;

struct anim_toml_value {
    anim_toml_type type;
    /* Where the value is written; for a table opened by a header, the '['
     * of its (last) header; for a table made by dotted keys, the key. */
    uint32_t line, column;
    union {
        struct {
            /* Decoded UTF-8, NUL-terminated; len excludes the NUL and can be
             * shorter than strlen says when the string holds \u0000. */
            const char *data;
            size_t len;
        } string;
        int64_t integer;
        double floating; /* inf and nan included, as TOML allows */
        bool boolean;
        struct {
            const char *text; /* as written, NUL-terminated */
            size_t len;
            anim_toml_datetime_kind kind;
        } datetime;
        struct {
            anim_toml_value **items;
            size_t count;
            size_t cap; /* internal */
        } array;
        struct {
            anim_toml_entry *entries; /* in source order */
            size_t count;
            size_t cap; /* internal */
        } table;
    } u;
    /* How the value was written (TOML's redefinition rules depend on it). */
    bool is_inline;         /* an [ ... ] array or { ... } inline table */
    bool defined_by_header; /* a [table], or an array of [[tables]] and its
                               elements */
    uint32_t pending_section; /* internal: section of the dotted key that
                                 made this table, 0 if none */
};

struct anim_toml_entry {
    const char *key; /* decoded, NUL-terminated (see string.len note) */
    size_t key_len;
    uint32_t line, column; /* where this key (its last dotted part) is */
    anim_toml_value *value;
};

/* Parses a whole document; returns its root table, or NULL with err filled
 * as "line L column C: what" (code ANIM_ERR_PARSE; ANIM_ERR_LIMIT for the
 * depth and size limits). text need not be NUL-terminated: nothing past len
 * is read. All memory comes from arena. */
anim_toml_value *anim_toml_parse(anim_arena *arena, const char *text, size_t len,
                                 anim_error *err);

/* The value under key in a table (NULL when absent or t is not a table). */
const anim_toml_value *anim_toml_get(const anim_toml_value *t, const char *key);
const anim_toml_value *anim_toml_getn(const anim_toml_value *t, const char *key,
                                      size_t key_len);
/* The entry (key and its position) under key, or NULL. */
const anim_toml_entry *anim_toml_find(const anim_toml_value *t, const char *key,
                                      size_t key_len);

/* "string", "integer", "float", "boolean", "datetime", "array", "table". */
const char *anim_toml_type_name(anim_toml_type type);

#ifdef __cplusplus
}
#endif
#endif
