/* src/io/json: the strict JSON reader (json_read.c, include/animsmith/
 * json.h) and the streaming JSON writer every report is printed with
 * (json_write.c, include/animsmith/json_write.h).
 *
 * This header is private to src/io: the hooks the glTF reader uses to read its large
 * top-level arrays straight from the JSON text instead of from a tree.
 *
 * Why: on a large clip library the tree of "accessors", "bufferViews" and
 * "animations" is most of what the parser writes (about 3 bytes of tree per
 * byte of text), and writing it, faulting its pages in and walking it
 * again cost more than the scanning. The hook validates those arrays and
 * records what the loader needs in one pass; the tree keeps them as
 * deferred values (ANIM_JSON_F_DEFERRED) built only if someone asks. */
#ifndef ANIMSMITH_JSON_INTERNAL_H
#define ANIMSMITH_JSON_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/json.h"

/* The parser offers the hook only when it may nest this deep (the hook's
 * shapes are shallow, so the default limit of 256 always qualifies). */
#define JSON_HOOK_MIN_DEPTH 16u

/* Offered every array or object value of a member of the root object,
 * whose first byte is text[at]. Returns true only when the whole value is
 * valid JSON exactly as anim_json_parse would accept it (grammar, UTF-8,
 * escapes, number range, no duplicate keys, nesting well below
 * JSON_HOOK_MIN_DEPTH), setting *end just past it and *count to its item
 * (or member) count. Returning false is always safe: the parser then reads
 * the value itself (and reports any error there). */
typedef bool (*json_member_hook)(void *user, const char *key, size_t key_len, const char *text,
                                 size_t len, size_t at, size_t *end, uint32_t *count);

/* anim_json_parse with a hook (NULL: no hook). */
anim_json_value *json_parse_hooked(anim_arena *arena, const char *text, size_t len,
                                   const anim_json_limits *limits, json_member_hook hook,
                                   void *hook_user, anim_error *err);

/* Validates the string whose opening quote is at text[*pos] and moves *pos
 * past its closing quote; *escaped says whether it holds escapes. 0, or -1
 * when invalid (no message: the caller declines and the parser reports). */
int json_scan_string(const char *text, size_t len, size_t *pos, bool *escaped);

/* Parses the number at text[*pos] ('-' or a digit) exactly as the parser
 * does into *v and moves *pos past it; -1 when invalid. */
int json_scan_number(const char *text, size_t len, size_t *pos, anim_json_value *v);

/* anim_json_get_n without expanding deferred values (NULL for a deferred
 * obj). */
const anim_json_value *json_get_raw(const anim_json_value *obj, const char *key,
                                    size_t key_len);

#endif
