/* src/io/toml: the TOML 1.0 reader the contract (animsmith.toml) is read
 * with.
 *
 * Shared state of the TOML reader: toml_read.c owns the document structure
 * (tables, keys, TOML's redefinition rules), toml_scalar.c the scalars
 * (strings, numbers, booleans, dates and times). */
#ifndef ANIMSMITH_TOML_INTERNAL_H
#define ANIMSMITH_TOML_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/strbuf.h"
#include "animsmith/toml.h"

typedef struct toml_slot toml_slot;

typedef struct {
    anim_arena *arena;
    const char *s;
    size_t n; /* s[n] is never read */
    size_t i; /* read position */
    anim_error *err;
    /* Counts [headers]; a dotted-key table made in an earlier section is
     * closed to headers and to further dotted keys (see toml_read.c). */
    uint32_t section;
    /* Depth in the document tree of the value being read (root 0), and of
     * the table the current [section] fills. Bounded as a whole so that
     * code walking the tree recursively is safe. */
    size_t depth;
    size_t section_depth;
    /* Line/column cursor: positions are asked for in source order, so
     * each byte is counted once. */
    size_t pos_off;
    uint32_t pos_line, pos_col;
    /* (table, key) -> entry index, so a table with many keys stays linear. */
    toml_slot *slots;
    size_t slot_count, slot_used;
    anim_strbuf scratch; /* string decoding */
    char name[256];      /* a key path rendered for a message */
} toml_parser;

/* Byte at offset off, or -1 at or past the end (never reads past n). */
static inline int toml_at(const toml_parser *p, size_t off)
{
    return off < p->n ? (unsigned char)p->s[off] : -1;
}

/* True when a newline (LF or CRLF) starts at off; *len gets its length. */
static inline bool toml_newline_at(const toml_parser *p, size_t off, size_t *len)
{
    int c = toml_at(p, off);
    if (c == '\n') {
        *len = 1;
        return true;
    }
    if (c == '\r' && toml_at(p, off + 1) == '\n') {
        *len = 2;
        return true;
    }
    return false;
}

static inline bool toml_is_bare(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-';
}

void toml_position(toml_parser *p, size_t off, uint32_t *line, uint32_t *col);

/* Fills the error as "line L column C: what" for byte offset off; returns -1. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
int toml_fail(toml_parser *p, anim_error_code code, size_t off, const char *fmt, ...);

/* Describes the character at off for messages ("'x'", "end of file",
 * "U+0007", "newline"). */
const char *toml_describe(const toml_parser *p, size_t off, char buf[32]);

anim_toml_value *toml_new_value(toml_parser *p, anim_toml_type type, size_t off);
/* The same at a position already computed (a key part read earlier). */
anim_toml_value *toml_new_value_at(toml_parser *p, anim_toml_type type, uint32_t line,
                                   uint32_t column);

/* Strings: p->i at the opening quote; out and len get the decoded arena copy. */
int toml_parse_string(toml_parser *p, const char **out, size_t *len);
/* A key part: bare or quoted (single-line strings only). */
int toml_parse_key_part(toml_parser *p, const char **out, size_t *len);
/* A scalar value that is not a string (p->i at its first byte). */
anim_toml_value *toml_parse_scalar(toml_parser *p);

/* Validates the whole text as UTF-8 the way Python's decoder does
 * (no overlongs, no surrogates, nothing above U+10FFFF). */
int toml_check_utf8(toml_parser *p);

#endif
