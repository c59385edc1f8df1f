/* Escaping of untrusted strings (the text-atom form of text output and the
 * debug-quoted {:?} form, plus TOML basic strings for names a user copies
 * into a recipe).
 *
 * Asset names can carry terminal escapes, bidi overrides (which make text
 * read differently from what it is) and invisible characters; output must
 * show them, never obey them. */
#include <string.h>

#include "animsmith/text.h"
#include "animsmith/utf8.h"

typedef struct { uint32_t lo, hi; } cp_range;

/* The presentation set (characters that hide or reorder text), in
 * ascending order; Cc is tested separately. */
static const cp_range presentation[] = {
    {0x00AD, 0x00AD},   {0x034F, 0x034F},   {0x061C, 0x061C},
    {0x180B, 0x180E},   {0x200B, 0x200F},   {0x2028, 0x202E},
    {0x2060, 0x206F},   {0xFE00, 0xFE0F},   {0xFEFF, 0xFEFF},
    {0xFFF9, 0xFFFB},   {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A},
    {0xE0000, 0xE007F}, {0xE0100, 0xE01EF},
};

/* What {:?} also escapes beyond the presentation set: the remaining format
 * characters (Cf), non-ASCII spaces (Zs), private use (Co). Unassigned code
 * points and grapheme extenders pass through unescaped: escaping them would
 * need the full Unicode tables. */
static const cp_range debug_extra[] = {
    {0x00A0, 0x00A0},     {0x0600, 0x0605},   {0x06DD, 0x06DD},
    {0x070F, 0x070F},     {0x0890, 0x0891},   {0x08E2, 0x08E2},
    {0x1680, 0x1680},     {0x2000, 0x200A},   {0x205F, 0x205F},
    {0x202F, 0x202F},     {0x3000, 0x3000},   {0xE000, 0xF8FF},
    {0xFDD0, 0xFDEF},     {0x110BD, 0x110BD}, {0x110CD, 0x110CD},
    {0x13430, 0x1343F},   {0xF0000, 0x10FFFF},
};

static bool in_ranges(const cp_range *r, size_t n, uint32_t cp)
{
    for (size_t i = 0; i < n; i++)
        if (cp >= r[i].lo && cp <= r[i].hi)
            return true;
    return false;
}

static bool is_cc(uint32_t cp)
{
    return cp <= 0x1F || (cp >= 0x7F && cp <= 0x9F);
}

bool anim_text_is_presentation_control(uint32_t cp)
{
    return is_cc(cp) ||
           in_ranges(presentation, sizeof presentation / sizeof *presentation, cp);
}

static bool is_debug_escaped(uint32_t cp)
{
    /* Noncharacters U+nFFFE and U+nFFFF in every plane. */
    if ((cp & 0xFFFE) == 0xFFFE)
        return true;
    return anim_text_is_presentation_control(cp) ||
           in_ranges(debug_extra, sizeof debug_extra / sizeof *debug_extra, cp);
}

typedef void (*escape_fn)(anim_strbuf *out, uint32_t cp);
typedef void (*raw_byte_fn)(anim_strbuf *out, unsigned char byte);

/* Walks s, copying runs of characters that need no escape in one append
 * and handing every other character (or invalid byte) to the callbacks. */
static void escape_walk(anim_strbuf *out, const char *s, size_t len,
                        bool (*needs)(uint32_t), escape_fn esc,
                        raw_byte_fn raw)
{
    if (len == 0)
        return; /* s may be NULL then; NULL + 0 is undefined in C */
    const unsigned char *p = (const unsigned char *)s;
    size_t run = 0, i = 0;
    while (i < len) {
        uint32_t cp;
        size_t n = anim_utf8_decode(p + i, len - i, &cp);
        if (n > 0 && !needs(cp)) {
            i += n;
            continue;
        }
        anim_strbuf_append(out, p + run, i - run);
        if (n == 0) {
            raw(out, p[i]);
            i += 1;
        } else {
            esc(out, cp);
            i += n;
        }
        run = i;
    }
    anim_strbuf_append(out, p + run, i - run);
}

static void raw_hex_brace(anim_strbuf *out, unsigned char byte)
{
    anim_strbuf_printf(out, "\\x{%02x}", (unsigned)byte);
}

/* ---- text_atom ---- */

static bool atom_needs(uint32_t cp)
{
    return anim_text_is_presentation_control(cp);
}

static void atom_escape(anim_strbuf *out, uint32_t cp)
{
    switch (cp) {
    case '\t': anim_strbuf_puts(out, "\\t"); break;
    case '\r': anim_strbuf_puts(out, "\\r"); break;
    case '\n': anim_strbuf_puts(out, "\\n"); break;
    default: anim_strbuf_printf(out, "\\u{%x}", (unsigned)cp); break;
    }
}

void anim_text_atom(anim_strbuf *out, const char *s, size_t len)
{
    if (!out || (!s && len))
        return;
    escape_walk(out, s, len, atom_needs, atom_escape, raw_hex_brace);
}

/* ---- TOML basic string ---- */

static bool toml_needs(uint32_t cp)
{
    return cp == '"' || cp == '\\' || anim_text_is_presentation_control(cp);
}

static void toml_escape(anim_strbuf *out, uint32_t cp)
{
    switch (cp) {
    case '"': anim_strbuf_puts(out, "\\\""); break;
    case '\\': anim_strbuf_puts(out, "\\\\"); break;
    case '\b': anim_strbuf_puts(out, "\\b"); break;
    case '\t': anim_strbuf_puts(out, "\\t"); break;
    case '\n': anim_strbuf_puts(out, "\\n"); break;
    case '\f': anim_strbuf_puts(out, "\\f"); break;
    case '\r': anim_strbuf_puts(out, "\\r"); break;
    default:
        if (cp <= 0xFFFF)
            anim_strbuf_printf(out, "\\u%04X", (unsigned)cp);
        else
            anim_strbuf_printf(out, "\\U%08X", (unsigned)cp);
        break;
    }
}

/* TOML has no byte escape; U+FFFD marks the loss visibly. */
static void toml_raw(anim_strbuf *out, unsigned char byte)
{
    (void)byte;
    anim_strbuf_puts(out, "\\uFFFD");
}

void anim_text_quote_toml(anim_strbuf *out, const char *s, size_t len)
{
    if (!out || (!s && len))
        return;
    anim_strbuf_putc(out, '"');
    escape_walk(out, s, len, toml_needs, toml_escape, toml_raw);
    anim_strbuf_putc(out, '"');
}

/* ---- Debug-quoted ---- */

static bool debug_needs(uint32_t cp)
{
    return cp == '"' || cp == '\\' || is_debug_escaped(cp);
}

static void debug_escape(anim_strbuf *out, uint32_t cp)
{
    switch (cp) {
    case '"': anim_strbuf_puts(out, "\\\""); break;
    case '\\': anim_strbuf_puts(out, "\\\\"); break;
    case '\0': anim_strbuf_puts(out, "\\0"); break;
    default: atom_escape(out, cp); break;
    }
}

void anim_text_debug_quote(anim_strbuf *out, const char *s, size_t len)
{
    if (!out || (!s && len))
        return;
    anim_strbuf_putc(out, '"');
    escape_walk(out, s, len, debug_needs, debug_escape, raw_hex_brace);
    anim_strbuf_putc(out, '"');
}

void anim_text_markdown_cell(anim_strbuf *out, const char *str, size_t len)
{
    const unsigned char *s = (const unsigned char *)(str ? str : "");
    for (size_t i = 0; i < len;) {
        uint32_t cp = 0;
        size_t n = anim_utf8_decode(s + i, len - i, &cp);
        if (n == 0) {
            anim_text_atom(out, (const char *)s + i, 1); /* shows \x{hh} */
            i++;
            continue;
        }
        if (cp == '\r' || cp == '\n' || cp == 0x2028 || cp == 0x2029)
            anim_strbuf_putc(out, ' ');
        else if (anim_text_is_presentation_control(cp))
            anim_text_atom(out, (const char *)s + i, n);
        else if (cp == '\\')
            anim_strbuf_puts(out, "\\\\");
        else if (cp == '`')
            anim_strbuf_putc(out, '\'');
        else if (cp == '|')
            anim_strbuf_puts(out, "\\|");
        else
            anim_strbuf_append(out, s + i, n);
        i += n;
    }
}
