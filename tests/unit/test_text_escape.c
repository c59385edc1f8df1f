/* Text escaping: text_atom, TOML basic strings, {:?}.
 *
 * Run with --emit-toml to print a TOML document of quoted samples and their
 * UTF-8 bytes in hex; tests/scripts/text_escape_toml.sh parses it with
 * Python's tomllib and checks every string reads back to its bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "animsmith/text.h"

typedef void (*escape_fn)(anim_strbuf *, const char *, size_t);

static void check(escape_fn fn, const char *in, size_t len, const char *want)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    fn(&sb, in, len);
    assert_false(sb.failed);
    /* Appending nothing may leave the buffer unallocated. */
    assert_string_equal(sb.data ? sb.data : "", want);
    anim_strbuf_free(&sb);
}

#define ATOM(in, want) check(anim_text_atom, (in), sizeof(in) - 1, (want))
#define TOML(in, want) check(anim_text_quote_toml, (in), sizeof(in) - 1, (want))
#define DEBUGQ(in, want) check(anim_text_debug_quote, (in), sizeof(in) - 1, (want))

static size_t utf8_encode(uint32_t cp, char out[4])
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* The escaped presentation set, Cc included, as inclusive ranges. */
static const uint32_t set_ranges[][2] = {
    {0x0000, 0x001F},   {0x007F, 0x009F},   {0x00AD, 0x00AD},
    {0x034F, 0x034F},   {0x061C, 0x061C},   {0x180B, 0x180E},
    {0x200B, 0x200F},   {0x2028, 0x202E},   {0x2060, 0x206F},
    {0xFE00, 0xFE0F},   {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},
    {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0000, 0xE007F},
    {0xE0100, 0xE01EF},
};
#define SET_COUNT (sizeof set_ranges / sizeof set_ranges[0])

static bool in_set(uint32_t cp)
{
    for (size_t i = 0; i < SET_COUNT; i++)
        if (cp >= set_ranges[i][0] && cp <= set_ranges[i][1])
            return true;
    return false;
}

/* The expected text_atom of one code point. */
static void atom_of(uint32_t cp, char *want, size_t cap)
{
    if (cp == '\t')
        snprintf(want, cap, "\\t");
    else if (cp == '\r')
        snprintf(want, cap, "\\r");
    else if (cp == '\n')
        snprintf(want, cap, "\\n");
    else if (in_set(cp))
        snprintf(want, cap, "\\u{%x}", (unsigned)cp);
    else {
        char b[4];
        size_t n = utf8_encode(cp, b);
        memcpy(want, b, n);
        want[n] = '\0';
    }
}

static void check_atom_cp(uint32_t cp, bool escaped)
{
    char in[8], want[32];
    size_t n = utf8_encode(cp, in);
    assert_int_equal(anim_text_is_presentation_control(cp), escaped);
    atom_of(cp, want, sizeof want);
    check(anim_text_atom, in, n, want);
}

/* Every range: the code point before, both ends, and the one after. */
static void test_presentation_set_boundaries(void **state)
{
    (void)state;
    for (size_t i = 0; i < SET_COUNT; i++) {
        uint32_t lo = set_ranges[i][0], hi = set_ranges[i][1];
        if (lo > 0)
            check_atom_cp(lo - 1, in_set(lo - 1));
        check_atom_cp(lo, true);
        check_atom_cp(hi, true);
        check_atom_cp(hi + 1, in_set(hi + 1));
    }
    /* Neighbours that matter: printable ASCII ends, NBSP, the bidi gap. */
    check_atom_cp(0x20, false);
    check_atom_cp(0x7E, false);
    check_atom_cp(0xA0, false);
    check_atom_cp(0x2027, false);
    check_atom_cp(0x202F, false);
    check_atom_cp(0x10FFFF, false);
}

static void test_atom(void **state)
{
    (void)state;
    ATOM("", "");
    ATOM("mixamorig:Hips", "mixamorig:Hips");
    ATOM("a\tb\rc\nd", "a\\tb\\rc\\nd");
    ATOM("\x1b[31mred", "\\u{1b}[31mred");
    check(anim_text_atom, "a\0b", 3, "a\\u{0}b");
    ATOM("\x7f", "\\u{7f}");
    ATOM("\xc2\x85", "\\u{85}");                 /* NEL */
    ATOM("evil\xe2\x80\xaetxt.exe", "evil\\u{202e}txt.exe");
    ATOM("\xe2\x80\x8b", "\\u{200b}");
    ATOM("\xef\xbb\xbf" "BOM", "\\u{feff}BOM");
    ATOM("\xf3\xa0\x80\x81", "\\u{e0001}");        /* tag */
    ATOM("back\\slash \"q\"", "back\\slash \"q\""); /* kept as is */
    ATOM("caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80");
}

static void test_invalid_utf8(void **state)
{
    (void)state;
    ATOM("\xff", "\\x{ff}");
    ATOM("a\x80z", "a\\x{80}z");
    ATOM("\xc0\xaf", "\\x{c0}\\x{af}");                 /* overlong '/' */
    ATOM("\xe0\x80\xaf", "\\x{e0}\\x{80}\\x{af}");      /* overlong */
    ATOM("\xed\xa0\x80", "\\x{ed}\\x{a0}\\x{80}");      /* surrogate */
    ATOM("\xf4\x90\x80\x80", "\\x{f4}\\x{90}\\x{80}\\x{80}"); /* > U+10FFFF */
    ATOM("\xe2\x82", "\\x{e2}\\x{82}");                 /* truncated */
    ATOM("\xe2\x82" "A", "\\x{e2}\\x{82}A");
    ATOM("\xf5\x80\x80\x80", "\\x{f5}\\x{80}\\x{80}\\x{80}");
    DEBUGQ("\xfe", "\"\\x{fe}\"");
    TOML("a\xff" "b", "\"a\\uFFFDb\"");
    TOML("\xed\xa0\x80", "\"\\uFFFD\\uFFFD\\uFFFD\"");
}

static void test_toml(void **state)
{
    (void)state;
    TOML("", "\"\"");
    TOML("Body Mat", "\"Body Mat\"");
    TOML("a\"b\\c", "\"a\\\"b\\\\c\"");
    TOML("\b\t\n\f\r", "\"\\b\\t\\n\\f\\r\"");
    check(anim_text_quote_toml, "\0", 1, "\"\\u0000\"");
    TOML("\x1b\x7f", "\"\\u001B\\u007F\"");
    TOML("\xc2\x9f\xc2\xa0", "\"\\u009F\xc2\xa0\"");
    TOML("x\xe2\x80\xaey", "\"x\\u202Ey\"");
    TOML("\xef\xbb\xbf", "\"\\uFEFF\"");
    TOML("\xf0\x9b\xb2\xa0", "\"\\U0001BCA0\"");
    TOML("\xf3\xa0\x87\xaf", "\"\\U000E01EF\"");
    TOML("caf\xc3\xa9 \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"");
    TOML("'single'", "\"'single'\"");
}

static void test_debug_quote(void **state)
{
    (void)state;
    DEBUGQ("", "\"\"");
    DEBUGQ("walk", "\"walk\"");
    DEBUGQ("a\"b\\c", "\"a\\\"b\\\\c\"");
    DEBUGQ("'", "\"'\"");
    DEBUGQ("\t\r\n", "\"\\t\\r\\n\"");
    check(anim_text_debug_quote, "\0", 1, "\"\\0\"");
    DEBUGQ("\x01\x1b\x7f", "\"\\u{1}\\u{1b}\\u{7f}\"");
    DEBUGQ("\xe2\x80\xae", "\"\\u{202e}\"");
    DEBUGQ("a\xc2\xa0" "b", "\"a\\u{a0}b\"");            /* NBSP (Zs) */
    DEBUGQ("\xe3\x80\x80", "\"\\u{3000}\"");              /* ideographic sp */
    DEBUGQ("\xee\x80\x80", "\"\\u{e000}\"");              /* private use */
    DEBUGQ("\xef\xbf\xbe", "\"\\u{fffe}\"");              /* nonchar */
    DEBUGQ("\xd8\x80", "\"\\u{600}\"");                   /* Cf */
    DEBUGQ("caf\xc3\xa9 \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"");
}

static void test_appends(void **state)
{
    (void)state;
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_strbuf_puts(&sb, "x=");
    anim_text_quote_toml(&sb, "a\nb", 3);
    anim_strbuf_putc(&sb, ' ');
    anim_text_atom(&sb, NULL, 0);
    anim_text_debug_quote(&sb, "q", 1);
    assert_string_equal(sb.data, "x=\"a\\nb\" \"q\"");
    anim_strbuf_free(&sb);
}

/* --emit-toml: "kN = <quoted>" and "hN = <hex of the input>" per sample. */
static int emit_toml(void)
{
    static const char *const fixed[] = {
        "", "plain", "a\"b\\c", "\b\t\n\f\r", "'", "\"\"\"", "#not comment",
        "caf\xc3\xa9 \xf0\x9f\x98\x80", "x\xe2\x80\xaey", "\\u0041",
    };
    anim_strbuf sb = ANIM_STRBUF_INIT;
    size_t k = 0;
    char buf[64];
    size_t n;

    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++, k++) {
        anim_strbuf_printf(&sb, "k%zu = ", k);
        anim_text_quote_toml(&sb, fixed[i], strlen(fixed[i]));
        anim_strbuf_printf(&sb, "\nh%zu = \"", k);
        for (const char *p = fixed[i]; *p; p++)
            anim_strbuf_printf(&sb, "%02x", (unsigned)(unsigned char)*p);
        anim_strbuf_puts(&sb, "\"\n");
    }
    /* Every boundary code point, alone and between letters. */
    for (size_t i = 0; i < SET_COUNT; i++) {
        uint32_t cps[4] = {set_ranges[i][0] ? set_ranges[i][0] - 1 : 0x41,
                           set_ranges[i][0], set_ranges[i][1],
                           set_ranges[i][1] + 1};
        for (int j = 0; j < 4; j++, k++) {
            buf[0] = 'a';
            n = 1 + utf8_encode(cps[j], buf + 1);
            buf[n++] = 'z';
            anim_strbuf_printf(&sb, "k%zu = ", k);
            anim_text_quote_toml(&sb, buf, n);
            anim_strbuf_printf(&sb, "\nh%zu = \"", k);
            for (size_t b = 0; b < n; b++)
                anim_strbuf_printf(&sb, "%02x", (unsigned)(unsigned char)buf[b]);
            anim_strbuf_puts(&sb, "\"\n");
        }
    }
    if (sb.failed)
        return 1;
    fwrite(sb.data, 1, sb.len, stdout);
    anim_strbuf_free(&sb);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--emit-toml") == 0)
        return emit_toml();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_presentation_set_boundaries),
        cmocka_unit_test(test_atom),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_toml),
        cmocka_unit_test(test_debug_quote),
        cmocka_unit_test(test_appends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
