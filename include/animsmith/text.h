/* Escaping of untrusted text (names, paths, messages taken from assets)
 * before it reaches a terminal, a report or a recipe.
 *
 * All three functions append to out and treat s as UTF-8 of len bytes
 * (embedded NULs included). Bytes that are not valid UTF-8 (overlong forms,
 * surrogates, code points above U+10FFFF, truncated sequences) never pass
 * through raw: each such byte is shown as `\x{hh}` (lowercase hex) by
 * anim_text_atom and anim_text_debug_quote, and becomes U+FFFD (`\uFFFD`)
 * in anim_text_quote_toml, because TOML strings cannot hold raw bytes. */
#ifndef ANIMSMITH_TEXT_H
#define ANIMSMITH_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "Presentation control" code points: general category Cc plus U+00AD,
 * U+034F, U+061C, U+180B-U+180E, U+200B-U+200F, U+2028-U+202E,
 * U+2060-U+206F, U+FE00-U+FE0F, U+FEFF, U+FFF9-U+FFFB, U+1BCA0-U+1BCA3,
 * U+1D173-U+1D17A, U+E0000-U+E007F, U+E0100-U+E01EF. */
bool anim_text_is_presentation_control(uint32_t cp);

/* text_atom(s): tab, CR, LF become `\t` `\r` `\n`; every other presentation
 * control becomes `\u{hex}` (lowercase, no leading zeros); everything else
 * is kept. Backslashes are kept as they are. */
void anim_text_atom(anim_strbuf *out, const char *s, size_t len);

/* A Markdown table cell's text (inside a code span): CR, LF, U+2028 and
 * U+2029 become a space; other presentation controls their visible
 * escapes; `\` doubles so an authored `\|` cannot re-form a delimiter; a
 * backtick (the one character that closes the span) becomes `'`; `|`
 * becomes `\|`; invalid UTF-8 bytes show as \x{hh}. */
void anim_text_markdown_cell(anim_strbuf *out, const char *s, size_t len);

/* A TOML basic string "..." that parses back to s: `\"` `\\` `\b` `\t`
 * `\n` `\f` `\r`, any other presentation control as `\uXXXX` or
 * `\UXXXXXXXX` (uppercase hex), everything else kept. Safe to show in a
 * terminal and to paste into animsmith.toml. */
void anim_text_quote_toml(anim_strbuf *out, const char *s, size_t len);

/* Debug-quoted string {s:?}: "..." with `\"` `\\` `\0` `\t` `\r` `\n`;
 * other non-printable characters as `\u{hex}`. Non-printable here means
 * the presentation controls plus the other format characters (Cf), the
 * non-ASCII spaces (Zs), private use (Co) and noncharacters. */
void anim_text_debug_quote(anim_strbuf *out, const char *s, size_t len);

#ifdef __cplusplus
}
#endif
#endif
