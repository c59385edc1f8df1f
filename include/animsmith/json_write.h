/* Streaming JSON writer into an anim_strbuf.
 *
 * Keys are written in exactly the order the caller writes them, so output
 * is deterministic by construction (no hash maps anywhere). Two layouts:
 * compact (no whitespace) and pretty: 2-space indent, ": " after keys,
 * one element per line, and "[]" / "{}" for empty containers. Strings are
 * escaped minimally: `"` `\` and \b \f \n \r \t get short escapes,
 * other control characters become \u00xx, everything else (including
 * non-ASCII UTF-8) is copied verbatim. */
#ifndef ANIMSMITH_JSON_WRITE_H
#define ANIMSMITH_JSON_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ANIM_JSON_WRITER_MAX_DEPTH 128

typedef struct anim_json_writer {
    anim_strbuf *out;
    bool pretty;
    uint32_t depth;
    /* Per open container: whether it already holds an element. */
    bool has_value[ANIM_JSON_WRITER_MAX_DEPTH];
    bool after_key; /* a key was written; the next value belongs to it */
    uint32_t base_depth; /* a nested fragment's starting depth (0 normally) */
    bool misuse;    /* sticky: depth overflow or unbalanced end */
} anim_json_writer;

void anim_json_writer_init(anim_json_writer *w, anim_strbuf *out, bool pretty);

/* A writer for a fragment that will stand as an element `depth`
 * containers deep (same indentation as if written in place), so pieces can
 * be rendered independently (e.g. one per file, in parallel) and joined
 * with anim_json_writer_splice. */
void anim_json_writer_init_nested(anim_json_writer *w, anim_strbuf *out, bool pretty,
                                  uint32_t depth);

/* Appends a fragment written by a nested writer at this writer's depth as
 * the next element of the open container. */
void anim_json_writer_splice(anim_json_writer *w, const char *fragment, size_t len);

/* The same place kept for a fragment delivered separately: writes the
 * separator and returns the offset in out where the fragment belongs, so
 * a report of large records can be written out piece by piece instead of
 * being copied into one buffer. */
size_t anim_json_writer_splice_mark(anim_json_writer *w);

void anim_json_writer_begin_object(anim_json_writer *w);
void anim_json_writer_end_object(anim_json_writer *w);
void anim_json_writer_begin_array(anim_json_writer *w);
void anim_json_writer_end_array(anim_json_writer *w);

/* Object member name; the next call writes its value. */
void anim_json_writer_key(anim_json_writer *w, const char *key);
void anim_json_writer_key_n(anim_json_writer *w, const char *key, size_t len);

void anim_json_writer_string(anim_json_writer *w, const char *s);
void anim_json_writer_string_n(anim_json_writer *w, const char *s, size_t len);
void anim_json_writer_int(anim_json_writer *w, int64_t v);
void anim_json_writer_uint(anim_json_writer *w, uint64_t v);
/* f64 / f32 in shortest round-trip form (anim_fmt_f64_json / _f32_json). */
void anim_json_writer_f64(anim_json_writer *w, double v);
void anim_json_writer_f32(anim_json_writer *w, float v);
/* A member in one call: key, then the value (a NULL string is null). */
void anim_json_writer_key_uint(anim_json_writer *w, const char *key, uint64_t v);
void anim_json_writer_key_string_or_null(anim_json_writer *w, const char *key, const char *s);
/* [v[0], ..., v[n-1]] as anim_json_writer_f64 prints each. */
void anim_json_writer_f64_array(anim_json_writer *w, const double *v, size_t n);
void anim_json_writer_bool(anim_json_writer *w, bool v);
void anim_json_writer_null(anim_json_writer *w);
/* A pre-formatted JSON value, copied verbatim (e.g. a number literal kept
 * from the input). The caller guarantees it is valid JSON. */
void anim_json_writer_raw(anim_json_writer *w, const char *json, size_t len);

/* Appends s as a quoted, escaped JSON string (no separators). The output
 * is always valid UTF-8: a byte of s that does not start a valid UTF-8
 * sequence (overlong, surrogate, above U+10FFFF, truncated) is written as
 * the visible text `\x{hh}` (lowercase hex; in JSON `"\\x{ff}"`), the
 * spelling the text output uses, so a report with such a path still parses
 * and reads back (docs/json-reader.md). */
void anim_json_escape_string(anim_strbuf *out, const char *s, size_t len);

/* True when every container was closed, nothing was misused and no
 * allocation failed. */
bool anim_json_writer_ok(const anim_json_writer *w);

#ifdef __cplusplus
}
#endif
#endif
