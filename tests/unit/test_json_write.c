/* Streaming JSON writer: compact and serde_json-pretty layouts, escaping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "animsmith/json.h"
#include "animsmith/json_write.h"
#include "animsmith/utf8.h"

static void write_sample(anim_json_writer *w)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "b");
    anim_json_writer_begin_array(w);
    anim_json_writer_int(w, -3);
    anim_json_writer_uint(w, UINT64_MAX);
    anim_json_writer_f64(w, 1.0);
    anim_json_writer_f32(w, 0.1f);
    anim_json_writer_f64(w, (double)0.1f);
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "a");
    anim_json_writer_begin_object(w);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "e");
    anim_json_writer_begin_array(w);
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "n");
    anim_json_writer_null(w);
    anim_json_writer_key(w, "t");
    anim_json_writer_bool(w, true);
    anim_json_writer_key(w, "o");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "x");
    anim_json_writer_bool(w, false);
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
}

static void test_compact(void **state)
{
    (void)state;
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &sb, false);
    write_sample(&w);
    assert_true(anim_json_writer_ok(&w));
    assert_string_equal(sb.data, "{\"b\":[-3,18446744073709551615,1.0,0.1,0.10000000149011612],"
                                 "\"a\":{},\"e\":[],\"n\":null,\"t\":true,\"o\":{\"x\":false}}");
    anim_strbuf_free(&sb);
}

static void test_pretty(void **state)
{
    (void)state;
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &sb, true);
    write_sample(&w);
    assert_true(anim_json_writer_ok(&w));
    assert_string_equal(sb.data, "{\n"
                                 "  \"b\": [\n"
                                 "    -3,\n"
                                 "    18446744073709551615,\n"
                                 "    1.0,\n"
                                 "    0.1,\n"
                                 "    0.10000000149011612\n"
                                 "  ],\n"
                                 "  \"a\": {},\n"
                                 "  \"e\": [],\n"
                                 "  \"n\": null,\n"
                                 "  \"t\": true,\n"
                                 "  \"o\": {\n"
                                 "    \"x\": false\n"
                                 "  }\n"
                                 "}");
    anim_strbuf_free(&sb);
}

static void test_escape(void **state)
{
    (void)state;
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &sb, false);
    anim_json_writer_begin_array(&w);
    const char s[] = "q\"b\\\b\f\n\r\t\x01\x1f\x7f caf\xc3\xa9 \xe2\x80\xae";
    anim_json_writer_string(&w, s);
    anim_json_writer_string_n(&w, "a\0b", 3);
    anim_json_writer_end_array(&w);
    assert_true(anim_json_writer_ok(&w));
    assert_string_equal(sb.data, "[\"q\\\"b\\\\\\b\\f\\n\\r\\t\\u0001\\u001f\x7f caf\xc3\xa9 "
                                 "\xe2\x80\xae\",\"a\\u0000b\"]");
    anim_strbuf_free(&sb);
}

/* Every byte that needs attention is found wherever it sits: at each
 * offset of strings from 0 to 40 bytes (so before, inside and after the
 * eight-byte words the scan reads), between plain bytes of every kind,
 * each string's output equals the plain bytes copied around the one
 * escape. */
static void test_escape_every_position(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        size_t in_len;
        const char *out;
    } special[] = {
        {"\"", 1, "\\\""},      {"\\", 1, "\\\\"},     {"\x00", 1, "\\u0000"},
        {"\x01", 1, "\\u0001"},   {"\x1f", 1, "\\u001f"},   {"\n", 1, "\\n"},
        {"\x7f", 1, "\x7f"},      {"\x20", 1, " "},           {"\x80", 1, "\\\\x{80}"},
        {"\xff", 1, "\\\\x{ff}"}, {"\xc3\xa9", 2, "\xc3\xa9"}, {"\x21", 1, "!"},
        {"\x5b", 1, "["},          {"\x5d", 1, "]"},           {"\x23", 1, "#"},
    };
    const char filler[] = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG";
    anim_strbuf got = ANIM_STRBUF_INIT, want = ANIM_STRBUF_INIT;
    for (size_t k = 0; k < sizeof special / sizeof special[0]; k++)
        for (size_t len = 0; len <= 40; len++)
            for (size_t at = 0; at <= len; at++) {
                char in[64];
                memcpy(in, filler, at);
                memcpy(in + at, special[k].in, special[k].in_len);
                memcpy(in + at + special[k].in_len, filler + at, len - at);
                size_t n = len + special[k].in_len;
                anim_strbuf_reset(&got);
                anim_strbuf_reset(&want);
                anim_json_escape_string(&got, in, n);
                anim_strbuf_putc(&want, '"');
                anim_strbuf_append(&want, filler, at);
                anim_strbuf_puts(&want, special[k].out);
                anim_strbuf_append(&want, filler + at, len - at);
                anim_strbuf_putc(&want, '"');
                assert_int_equal(got.len, want.len);
                assert_memory_equal(got.data, want.data, want.len);
            }
    /* and a plain string of every length is copied as it is */
    for (size_t len = 0; len <= 40; len++) {
        anim_strbuf_reset(&got);
        anim_json_escape_string(&got, filler, len);
        assert_int_equal(got.len, len + 2);
        assert_memory_equal(got.data + 1, filler, len);
    }
    anim_strbuf_free(&got);
    anim_strbuf_free(&want);
}

/* Bytes that are not UTF-8 become the visible text \x{hh} (with its
 * backslash escaped), so the output is valid UTF-8 and the string reads
 * back as the same spelling the text output shows; valid multi-byte
 * sequences pass through. */
static void test_escape_invalid_utf8(void **state)
{
    (void)state;
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_json_escape_string(&sb, "bad\xff\xfename.glb", 13);
    assert_string_equal(sb.data, "\"bad\\\\x{ff}\\\\x{fe}name.glb\"");
    anim_strbuf_reset(&sb);
    /* Overlong, surrogate, above U+10FFFF, truncated, lone continuation;
     * then 2-, 3- and 4-byte sequences kept. */
    const char s[] = "\xc0\xaf|\xed\xa0\x80|\xf4\x90\x80\x80|\xe2\x82|\x80|\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
    anim_json_escape_string(&sb, s, sizeof s - 1);
    assert_string_equal(sb.data,
                        "\"\\\\x{c0}\\\\x{af}|\\\\x{ed}\\\\x{a0}\\\\x{80}|"
                        "\\\\x{f4}\\\\x{90}\\\\x{80}\\\\x{80}|\\\\x{e2}\\\\x{82}|"
                        "\\\\x{80}|\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
    anim_strbuf_free(&sb);
    /* The strict reader accepts it and reads back the visible spelling. */
    anim_strbuf_reset(&sb);
    anim_json_escape_string(&sb, "bad\xff\xfename.glb", 13);
    anim_arena *arena = anim_arena_new();
    anim_error err;
    anim_error_clear(&err);
    anim_json_value *v = anim_json_parse(arena, sb.data, sb.len, NULL, &err);
    if (!v)
        fail_msg("%s", err.message);
    assert_int_equal(v->type, ANIM_JSON_STRING);
    assert_int_equal(v->len, strlen("bad\\x{ff}\\x{fe}name.glb"));
    assert_memory_equal(v->u.string, "bad\\x{ff}\\x{fe}name.glb", v->len);
    anim_arena_free(arena);
    anim_strbuf_free(&sb);
    const unsigned char four[] = {0xf0, 0x9f, 0x98, 0x80};
    assert_int_equal(anim_utf8_decode(four, 4, NULL), 4);
    assert_int_equal(anim_utf8_decode(four, 3, NULL), 0);
}

static void test_misuse(void **state)
{
    (void)state;
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &sb, false);
    anim_json_writer_begin_object(&w);
    assert_false(anim_json_writer_ok(&w)); /* still open */
    anim_json_writer_end_array(&w);        /* not after a key: closes */
    anim_json_writer_end_object(&w);       /* nothing open */
    assert_false(anim_json_writer_ok(&w));
    anim_strbuf_free(&sb);

    anim_strbuf deep = ANIM_STRBUF_INIT;
    anim_json_writer_init(&w, &deep, false);
    for (int i = 0; i < ANIM_JSON_WRITER_MAX_DEPTH + 1; i++)
        anim_json_writer_begin_array(&w);
    assert_true(w.misuse);
    anim_strbuf_free(&deep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compact),
        cmocka_unit_test(test_pretty),
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_escape_invalid_utf8),
        cmocka_unit_test(test_escape_every_position),
        cmocka_unit_test(test_misuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
