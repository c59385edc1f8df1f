/* Strict JSON reader: grammar accept/reject table, UTF-8, escapes, number
 * exactness against strtod, duplicate keys, limits, positions in error
 * messages, and memory safety on every prefix of a valid document. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/json.h"
#include "io/gltf/gltf_internal.h"
#include "io/json/json_internal.h"

/* Copies handed to the parser: the tree borrows strings from its text, so
 * each copy lives until the program ends (freed at exit). */
static char **texts;
static size_t text_count, text_cap;

static void free_texts(void)
{
    for (size_t i = 0; i < text_count; i++)
        free(texts[i]);
    free(texts);
}

/* Parses a copy of text in a malloc'd buffer of exactly len bytes, so ASan
 * catches any read past len. */
static const anim_json_value *parse_n(anim_arena *arena, const char *text, size_t len,
                                      const anim_json_limits *limits, anim_error *err)
{
    if (text_count == text_cap) {
        if (text_cap == 0)
            atexit(free_texts);
        text_cap = text_cap ? text_cap * 2 : 256;
        texts = realloc(texts, text_cap * sizeof *texts);
        assert_non_null(texts);
    }
    char *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    memcpy(copy, text, len);
    texts[text_count++] = copy;
    anim_error_clear(err);
    return anim_json_parse(arena, copy, len, limits, err);
}

static const anim_json_value *parse(anim_arena *arena, const char *text, anim_error *err)
{
    return parse_n(arena, text, strlen(text), NULL, err);
}

/* Checks "line L column C (byte B): " and returns what follows. */
static const char *message_body(const anim_error *err)
{
    size_t line, column, byte;
    int used = 0;
    int got = sscanf(err->message, "line %zu column %zu (byte %zu): %n", &line, &column, &byte,
                     &used);
    if (got != 3 || used == 0) {
        print_error("message without a position: %s\n", err->message);
        fail();
    }
    return err->message + used;
}

/* ------------------------------------------------------------ grammar */

typedef struct {
    const char *text;
    anim_json_type type;
} accept_case;

static const accept_case accept_cases[] = {
    {"null", ANIM_JSON_NULL},
    {"true", ANIM_JSON_TRUE},
    {"false", ANIM_JSON_FALSE},
    {"0", ANIM_JSON_NUMBER},
    {"-0", ANIM_JSON_NUMBER},
    {"-0.0e-0", ANIM_JSON_NUMBER},
    {"123", ANIM_JSON_NUMBER},
    {"1.5", ANIM_JSON_NUMBER},
    {"1E+2", ANIM_JSON_NUMBER},
    {"1e-2", ANIM_JSON_NUMBER},
    {"0.000001", ANIM_JSON_NUMBER},
    {"1e00000000000000000000000000001", ANIM_JSON_NUMBER},
    {"123456789012345678901234567890", ANIM_JSON_NUMBER},
    {"\"\"", ANIM_JSON_STRING},
    {"\"abc\"", ANIM_JSON_STRING},
    {"\"\\u0000\"", ANIM_JSON_STRING},
    {"\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", ANIM_JSON_STRING},
    {"\"\x7f\"", ANIM_JSON_STRING},
    {"[]", ANIM_JSON_ARRAY},
    {"[ ]", ANIM_JSON_ARRAY},
    {"[[],[[]],{}]", ANIM_JSON_ARRAY},
    {"[1,\"a\",null,true,false,{},[]]", ANIM_JSON_ARRAY},
    {"{}", ANIM_JSON_OBJECT},
    {"{ }", ANIM_JSON_OBJECT},
    {"{\"a\":1}", ANIM_JSON_OBJECT},
    {"{\"a\":{\"a\":{\"a\":[]}}}", ANIM_JSON_OBJECT},
    {"{\"\":0}", ANIM_JSON_OBJECT},
    {"{\"a\":1,\"A\":2,\"a \":3}", ANIM_JSON_OBJECT},
    {" \t\r\n[ \t\r\n1 \t\r\n, \t\r\n2 \t\r\n] \t\r\n", ANIM_JSON_ARRAY},
    {"{ \"k\" : \"v\" , \"l\" : [ ] }", ANIM_JSON_OBJECT},
    {"\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"", ANIM_JSON_STRING},
    {"\"\\ud83d\\ude00\"", ANIM_JSON_STRING},
    {"\"\\uDBFF\\uDFFF\"", ANIM_JSON_STRING},
    {"\"\\u2028\\u2029\"", ANIM_JSON_STRING},
    {"1.7976931348623157e308", ANIM_JSON_NUMBER},
    {"1e-400", ANIM_JSON_NUMBER},
    {"-1e-400", ANIM_JSON_NUMBER},
    {"4.9e-324", ANIM_JSON_NUMBER},
    {"[-9223372036854775808,9223372036854775807]", ANIM_JSON_ARRAY},
};

static void test_accept_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof accept_cases / sizeof accept_cases[0]; i++) {
        anim_arena *arena = anim_arena_new();
        anim_error err;
        const anim_json_value *v = parse(arena, accept_cases[i].text, &err);
        if (!v) {
            print_error("refused valid JSON %s: %s\n", accept_cases[i].text, err.message);
            fail();
        }
        assert_int_equal(v->type, accept_cases[i].type);
        anim_arena_free(arena);
    }
}

typedef struct {
    const char *text;
    size_t len; /* 0: strlen */
    const char *what; /* substring of the message after the position */
} reject_case;

static const reject_case reject_cases[] = {
    {"", 0, "unexpected end of input"},
    {" \n\t", 0, "unexpected end of input"},
    {"[", 0, "unexpected end of input"},
    {"[1", 0, "unexpected end of input"},
    {"[1,", 0, "unexpected end of input"},
    {"{", 0, "unexpected end of input"},
    {"{\"a\"", 0, "unexpected end of input"},
    {"{\"a\":", 0, "unexpected end of input"},
    {"{\"a\":1", 0, "unexpected end of input"},
    {"\"abc", 0, "unexpected end of input"},
    {"tru", 0, "unexpected end of input"},
    {"[1,]", 0, "trailing comma before ']'"},
    {"{\"a\":1,}", 0, "trailing comma before '}'"},
    {"[,1]", 0, "expected a JSON value"},
    {"[1,,2]", 0, "expected a JSON value"},
    {"[1 2]", 0, "expected ',' or ']' after array element"},
    {"{\"a\":1 \"b\":2}", 0, "expected ',' or '}' after object member"},
    {"{\"a\" 1}", 0, "expected ':' after object key"},
    {"{\"a\"::1}", 0, "expected a JSON value"},
    {"{a:1}", 0, "expected a double-quoted object key"},
    {"{1:1}", 0, "expected a double-quoted object key"},
    {"{'a':1}", 0, "double quotes"},
    {"['a']", 0, "double quotes"},
    {"[1]]", 0, "trailing characters after the JSON value"},
    {"{}}", 0, "trailing characters after the JSON value"},
    {"1 2", 0, "trailing characters after the JSON value"},
    {"[1] x", 0, "trailing characters after the JSON value"},
    {"nulll", 0, "trailing characters after the JSON value"},
    {"[1}", 0, "expected ',' or ']'"},
    {"{\"a\":1]", 0, "expected ',' or '}'"},
    {"/* c */ 1", 0, "comments are not allowed"},
    {"[1] // c", 0, "trailing characters"},
    {"NaN", 0, "NaN and Infinity"},
    {"Infinity", 0, "NaN and Infinity"},
    {"-Infinity", 0, "Infinity is not a valid JSON number"},
    {"[nan]", 0, "invalid literal"},
    {"True", 0, "expected a JSON value"},
    {"nul", 0, "unexpected end of input"},
    {"fals", 0, "unexpected end of input"},
    {"tRue", 0, "invalid literal"},
    {"01", 0, "leading zeros"},
    {"-01", 0, "leading zeros"},
    {"00", 0, "leading zeros"},
    {"+1", 0, "cannot start with '+'"},
    {".5", 0, "cannot start with '.'"},
    {"-", 0, "unexpected end of input"},
    {"-a", 0, "expected a digit after '-'"},
    {"1.", 0, "unexpected end of input"},
    {"1.e3", 0, "expected a digit after the decimal point"},
    {"1e", 0, "unexpected end of input"},
    {"1e+", 0, "unexpected end of input"},
    {"1e+x", 0, "expected a digit in the exponent"},
    {"0x10", 0, "trailing characters"},
    {"1e309", 0, "is outside the binary64 range"},
    {"-1e309", 0, "is outside the binary64 range"},
    {"1.8e308", 0, "is outside the binary64 range"},
    {"\xef\xbb\xbf[]", 0, "byte order mark"},
    {"\"a\tb\"", 0, "unescaped control character 0x09"},
    {"\"a\nb\"", 0, "unescaped control character 0x0a"},
    {"\"a\x1f\"", 0, "unescaped control character 0x1f"},
    {"\"a\0b\"", 5, "unescaped control character 0x00"},
    {"[1]\0", 4, "trailing characters"},
    {"\0", 1, "expected a JSON value but found byte 0x00"},
    {"[\f1]", 0, "expected a JSON value but found byte 0x0c"},
    {"\"\\x41\"", 0, "invalid escape"},
    {"\"\\'\"", 0, "invalid escape"},
    {"\"\\U0041\"", 0, "invalid escape"},
    {"\"\\u12\"", 0, "expected 4 hexadecimal digits"},
    {"\"\\u12G4\"", 0, "expected 4 hexadecimal digits"},
    {"\"\\u", 0, "unexpected end of input"},
    {"\"\\", 0, "unexpected end of input"},
    {"\"\\ud800\"", 0, "lone high surrogate"},
    {"\"\\ud800x\"", 0, "lone high surrogate"},
    {"\"\\ud800\\u0041\"", 0, "lone high surrogate"},
    {"\"\\ud800\\ud800\"", 0, "lone high surrogate"},
    {"\"\\udc00\"", 0, "lone low surrogate"},
    {"\"\\udfff\\ud800\"", 0, "lone low surrogate"},
    {"\xe9", 0, "expected a JSON value but found byte 0xe9"},
    {"[1]\xc3\xa9", 0, "trailing characters"},
};

static void test_reject_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof reject_cases / sizeof reject_cases[0]; i++) {
        const reject_case *c = &reject_cases[i];
        size_t len = c->len ? c->len : strlen(c->text);
        anim_arena *arena = anim_arena_new();
        anim_error err;
        const anim_json_value *v = parse_n(arena, c->text, len, NULL, &err);
        if (v) {
            print_error("accepted invalid JSON case %zu: %s\n", i, c->text);
            fail();
        }
        assert_int_equal(err.code, ANIM_ERR_PARSE);
        const char *body = message_body(&err);
        if (!strstr(body, c->what)) {
            print_error("case %zu %s: message \"%s\" lacks \"%s\"\n", i, c->text, err.message,
                        c->what);
            fail();
        }
        anim_arena_free(arena);
    }
}

/* ------------------------------------------------------------ UTF-8 */

static void test_utf8(void **state)
{
    (void)state;
    static const char *const valid[] = {
        "\xc2\x80",         "\xdf\xbf",         "\xe0\xa0\x80", "\xef\xbf\xbf",
        "\xed\x9f\xbf",     "\xee\x80\x80",     "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf",
        "\xf3\xbf\xbf\xbf", "\xe2\x80\xae",     "\xef\xbb\xbf",
    };
    static const struct {
        const char *bytes;
        const char *what;
    } invalid[] = {
        {"\xc0\x80", "invalid UTF-8 byte 0xc0 in string (overlong"},
        {"\xc1\xbf", "invalid UTF-8 byte 0xc1"},
        {"\xe0\x80\x80", "invalid UTF-8 byte 0x80 in string (overlong"},
        {"\xe0\x9f\xbf", "overlong"},
        {"\xf0\x80\x80\x80", "overlong"},
        {"\xf0\x8f\xbf\xbf", "overlong"},
        {"\xed\xa0\x80", "UTF-8-encoded surrogate"},
        {"\xed\xbf\xbf", "UTF-8-encoded surrogate"},
        {"\xf4\x90\x80\x80", "above U+10FFFF"},
        {"\xf5\x80\x80\x80", "invalid UTF-8 byte 0xf5"},
        {"\xff", "invalid UTF-8 byte 0xff"},
        {"\x80", "continuation byte without a lead byte"},
        {"\xbf", "continuation byte without a lead byte"},
        {"\xc3", "truncated sequence"},
        {"\xe2\x82", "truncated sequence"},
        {"\xf0\x9f\x98", "truncated sequence"},
        {"\xe2\x28\xa1", "truncated sequence"},
        {"\xc3\xc3", "truncated sequence"},
    };
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) {
        char text[32];
        snprintf(text, sizeof text, "[\"a%sb\"]", valid[i]);
        anim_arena *arena = anim_arena_new();
        anim_error err;
        const anim_json_value *v = parse(arena, text, &err);
        if (!v) {
            print_error("valid UTF-8 case %zu refused: %s\n", i, err.message);
            fail();
        }
        const anim_json_value *s = anim_json_item(v, 0);
        assert_int_equal(s->type, ANIM_JSON_STRING);
        assert_int_equal(anim_json_string_len(s), strlen(valid[i]) + 2);
        assert_memory_equal(anim_json_string(s) + 1, valid[i], strlen(valid[i]));
        anim_arena_free(arena);
    }
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
        char text[32];
        snprintf(text, sizeof text, "[\"a%sb\"]", invalid[i].bytes);
        anim_arena *arena = anim_arena_new();
        anim_error err;
        assert_null(parse(arena, text, &err));
        assert_int_equal(err.code, ANIM_ERR_PARSE);
        if (!strstr(message_body(&err), invalid[i].what)) {
            print_error("UTF-8 case %zu: \"%s\" lacks \"%s\"\n", i, err.message,
                        invalid[i].what);
            fail();
        }
        /* Also in a key. */
        snprintf(text, sizeof text, "{\"%s\":1}", invalid[i].bytes);
        assert_null(parse(arena, text, &err));
        assert_int_equal(err.code, ANIM_ERR_PARSE);
        anim_arena_free(arena);
    }
    /* The error points at the offending byte: [" a 0xc0 ... -> byte 3. */
    anim_arena *arena = anim_arena_new();
    anim_error err;
    assert_null(parse(arena, "[\"a\xc0\x80\"]", &err));
    assert_string_equal(err.message,
                        "line 1 column 4 (byte 3): invalid UTF-8 byte 0xc0 in string (overlong "
                        "encoding)");
    /* Truncated at the end of input. */
    assert_null(parse(arena, "\"\xe2\x82", &err));
    assert_non_null(strstr(err.message, "unexpected end of input"));
    anim_arena_free(arena);
}

/* ------------------------------------------------------------ escapes */

static void check_string(const char *json, const char *bytes, size_t len)
{
    anim_arena *arena = anim_arena_new();
    anim_error err;
    const anim_json_value *v = parse(arena, json, &err);
    if (!v) {
        print_error("%s refused: %s\n", json, err.message);
        fail();
    }
    assert_int_equal(v->type, ANIM_JSON_STRING);
    assert_int_equal(anim_json_string_len(v), len);
    assert_memory_equal(anim_json_string(v), bytes, len);
    /* The C-string copy holds every decoded byte and a terminating NUL. */
    char *c = anim_json_strdup(arena, v);
    assert_non_null(c);
    assert_memory_equal(c, bytes, len);
    assert_int_equal(c[len], '\0');
    /* Strings without escapes are borrowed from the text, not copied. */
    if (!memchr(json, '\\', strlen(json))) {
        const anim_json_value *d = anim_json_parse(arena, json, strlen(json), NULL, &err);
        assert_non_null(d);
        assert_ptr_equal(anim_json_string(d), json + 1);
    }
    anim_arena_free(arena);
}

static void test_escapes(void **state)
{
    (void)state;
    check_string("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\/\b\f\n\r\t", 8);
    check_string("\"\\u0041\\u00e9\\u20AC\"", "A\xc3\xa9\xe2\x82\xac", 6);
    check_string("\"a\\u0000b\"", "a\0b", 3);
    check_string("\"\\u007f\\u0080\\u07ff\\u0800\\uffff\"",
                  "\x7f\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf", 11);
    check_string("\"\\ud83d\\ude00\"", "\xf0\x9f\x98\x80", 4);
    check_string("\"\\uD800\\uDC00\"", "\xf0\x90\x80\x80", 4);
    check_string("\"\\udbff\\udfff\"", "\xf4\x8f\xbf\xbf", 4);
    check_string("\"x\\ud83d\\ude00y\\n\"", "x\xf0\x9f\x98\x80y\n", 7);
    check_string("\"\"", "", 0);
    /* Long strings with and without escapes (past the interned length). */
    char json[300], want[300];
    size_t o = 0, w = 0;
    json[o++] = '"';
    for (int i = 0; i < 100; i++) {
        json[o++] = (char)('a' + i % 26);
        want[w++] = (char)('a' + i % 26);
    }
    json[o++] = '"';
    json[o] = '\0';
    check_string(json, want, w);
    memcpy(json + o - 1, "\\t\"", 4);
    want[w++] = '\t';
    check_string(json, want, w);
    /* Keys are decoded too. */
    anim_arena *arena = anim_arena_new();
    anim_error err;
    const anim_json_value *v = parse(arena, "{\"\\u006eame\":1,\"a\\u0000b\":2}", &err);
    assert_non_null(v);
    assert_int_equal(anim_json_key_len(anim_json_member_at(v, 0)), 4);
    assert_memory_equal(anim_json_member_at(v, 0)->key, "name", 4);
    assert_int_equal(anim_json_key_len(anim_json_member_at(v, 1)), 3);
    assert_memory_equal(anim_json_member_at(v, 1)->key, "a\0b", 3);
    assert_non_null(anim_json_get_n(v, "a\0b", 3));
    assert_non_null(anim_json_get(v, "name"));
    anim_arena_free(arena);
}

static void test_repeated_strings(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    anim_error err;
    const anim_json_value *v =
        parse(arena, "[\"LINEAR\",\"LINEAR\",\"STEP\",\"LINEAR\",{\"LINEAR\":\"LINEAR\"}]", &err);
    assert_non_null(v);
    assert_true(anim_json_string_eq(anim_json_item(v, 0), "LINEAR"));
    assert_true(anim_json_string_eq(anim_json_item(v, 1), "LINEAR"));
    assert_true(anim_json_string_eq(anim_json_item(v, 2), "STEP"));
    assert_true(anim_json_string_eq(anim_json_item(v, 3), "LINEAR"));
    assert_false(anim_json_string_eq(anim_json_item(v, 3), "LINEA"));
    const anim_json_member *m = anim_json_member_at(anim_json_item(v, 4), 0);
    assert_int_equal(anim_json_key_len(m), 6);
    assert_memory_equal(m->key, "LINEAR", 6);
    assert_int_equal(anim_json_string_len(&m->value), 6);
    anim_arena_free(arena);
}

/* ------------------------------------------------------------ numbers */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Parses literal and checks value bit-for-bit against strtod. */
static void check_number(anim_arena *arena, const char *literal)
{
    anim_error err;
    anim_error_clear(&err);
    const anim_json_value *v = anim_json_parse(arena, literal, strlen(literal), NULL, &err);
    double want = strtod(literal, NULL);
    if (isinf(want)) {
        if (v) {
            print_error("%s: overflow accepted\n", literal);
            fail();
        }
        return;
    }
    if (!v) {
        print_error("%s refused: %s\n", literal, err.message);
        fail();
    }
    assert_int_equal(v->type, ANIM_JSON_NUMBER);
    uint64_t a, b;
    double got = anim_json_number(v);
    memcpy(&a, &got, 8);
    memcpy(&b, &want, 8);
    if (a != b) {
        print_error("%s: got %.17g want %.17g\n", literal, got, want);
        fail();
    }
    assert_int_equal(v->len, strlen(literal));
    assert_ptr_equal(anim_json_number_text(v, literal), literal);
}

static void test_numbers_exact(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    char buf[128];
    static const char *const fixed[] = {
        "0", "-0", "0.0", "-0.0", "1", "-1", "0.1", "0.2", "0.3", "1e23", "8.98846567431158e307",
        "9007199254740992", "9007199254740993", "9007199254740995", "-9007199254740993",
        "1.7976931348623157e308", "1.7976931348623158e308", "2.2250738585072011e-308",
        "2.2250738585072014e-308", "4.9406564584124654e-324", "2.4703282292062327e-324",
        "2.4703282292062328e-324", "1e-324", "123456789012345678901234567890e-10",
        "0.000000000000000000000000000000000000000001", "7.038531e-26",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "-9223372036854775809", "18446744073709551615", "18446744073709551616",
        "0.1000000000000000055511151231257827021181583404541015625",
        "0.1000000000000000055511151231257827021181583404541015624",
        "0.1000000000000000055511151231257827021181583404541015626",
        "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126",
        "3.0000000000000004440892098500626", "9.999999999999999e22", "1e22", "1e-22",
        "123456789e-30", "99999999999999999999e-39", "0.9999999403953552", "-0.7071067690849304",
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        check_number(arena, fixed[i]);

    for (int i = 0; i < 200000; i++) {
        uint64_t r = rng();
        int kind = (int)(r % 6);
        int digits = 1 + (int)((r >> 8) % 19);
        uint64_t m = rng() % 10000000000000000000u;
        int e;
        switch (kind) {
        case 0: e = (int)((r >> 16) % 61) - 30; break;     /* near the fast paths */
        case 1: e = (int)((r >> 16) % 651) - 345; break;   /* whole range */
        case 2: e = (int)((r >> 16) % 41) - 340; break;    /* subnormals */
        case 3: e = (int)((r >> 16) % 21) + 295; break;    /* near overflow */
        default: e = (int)((r >> 16) % 55) - 27; break;    /* long double path */
        }
        char mant[32];
        snprintf(mant, sizeof mant, "%llu", (unsigned long long)m);
        mant[digits] = '\0';
        size_t mlen = strlen(mant);
        int point = (int)((r >> 32) % (mlen + 1));
        const char *sign = (r >> 40) & 1 ? "-" : "";
        if (mant[0] == '0' && mlen > 1)
            mant[0] = '1';
        if (point == 0 || mant[0] == '0')
            snprintf(buf, sizeof buf, "%s%se%d", sign, mant, e);
        else if ((size_t)point == mlen)
            snprintf(buf, sizeof buf, "%s%sE%+d", sign, mant, e);
        else
            snprintf(buf, sizeof buf, "%s%.*s.%se%d", sign, point, mant, mant + point, e);
        check_number(arena, buf);
        if (kind == 5) {
            /* Shortest round-trip form of a random double, as exporters
             * write it, and its 17-digit form. */
            uint64_t bits = rng();
            double d;
            memcpy(&d, &bits, 8);
            if (!isfinite(d))
                continue;
            snprintf(buf, sizeof buf, "%.17g", d);
            check_number(arena, buf);
            snprintf(buf, sizeof buf, "%.16g", d);
            check_number(arena, buf);
            snprintf(buf, sizeof buf, "%.9g", (double)(float)(d * 1e-300));
            check_number(arena, buf);
        }
        if (i % 20000 == 0) {
            anim_arena_free(arena);
            arena = anim_arena_new();
        }
    }
    /* Decimal strings next to the midpoint between two adjacent doubles:
     * the cases where a second rounding would go wrong. */
    for (int i = 0; i < 50000; i++) {
        double lo = ldexp((double)(rng() >> 11) + 4503599627370496.0, (int)(rng() % 120) - 60 - 52);
        double hi = nextafter(lo, INFINITY);
        long double mid = ((long double)lo + (long double)hi) / 2;
        for (int prec = 17; prec <= 21; prec++) {
            snprintf(buf, sizeof buf, "%.*Le", prec, mid);
            check_number(arena, buf);
        }
        if (i % 5000 == 0) {
            anim_arena_free(arena);
            arena = anim_arena_new();
        }
    }
    anim_arena_free(arena);
}

static void test_integers(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        bool is_integer;
        int64_t integer;
    } cases[] = {
        {"0", true, 0},
        {"-0", true, 0},
        {"42", true, 42},
        {"-42", true, -42},
        {"9007199254740993", true, INT64_C(9007199254740993)},
        {"9223372036854775807", true, INT64_MAX},
        {"-9223372036854775808", true, INT64_MIN},
        {"9223372036854775808", false, 0},
        {"-9223372036854775809", false, 0},
        {"99999999999999999999", false, 0},
        {"1.0", false, 0},
        {"1e2", false, 0},
        {"10E0", false, 0},
    };
    anim_arena *arena = anim_arena_new();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        anim_error err;
        const anim_json_value *v = parse(arena, cases[i].text, &err);
        assert_non_null(v);
        assert_int_equal(anim_json_is_integer(v), cases[i].is_integer);
        if (cases[i].is_integer)
            assert_true(anim_json_integer(v) == cases[i].integer);
        assert_true(anim_json_number(v) == strtod(cases[i].text, NULL));
        assert_int_equal(v->len, strlen(cases[i].text));
    }
    /* -0 keeps its sign in value. */
    anim_error err;
    const anim_json_value *v = parse(arena, "-0", &err);
    assert_true(signbit(anim_json_number(v)));
    /* Overflow message names the literal. */
    assert_null(parse(arena, "[1, 2e400]", &err));
    assert_string_equal(err.message,
                        "line 1 column 5 (byte 4): number 2e400 is outside the binary64 range");
    anim_arena_free(arena);
}

/* ------------------------------------------------------------ objects */

static void test_duplicate_keys(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    anim_error err;
    assert_null(parse(arena, "{\"a\":1,\"b\":2,\"a\":3}", &err));
    assert_int_equal(err.code, ANIM_ERR_PARSE);
    assert_string_equal(err.message, "line 1 column 14 (byte 13): duplicate key \"a\"");
    assert_null(parse(arena, "{\n  \"asset\": {},\n  \"nodes\": [],\n  \"nodes\": []\n}", &err));
    assert_string_equal(err.message, "line 4 column 3 (byte 34): duplicate key \"nodes\"");
    /* Keys equal after decoding are duplicates. */
    assert_null(parse(arena, "{\"a\":1,\"\\u0061\":2}", &err));
    assert_non_null(strstr(err.message, "duplicate key \"a\""));
    /* Nested objects have their own key sets. */
    assert_non_null(parse(arena, "{\"a\":{\"a\":{\"a\":1}},\"b\":{\"a\":2}}", &err));
    /* Control and bidi characters in the key are escaped in the message. */
    assert_null(parse(arena, "{\"x\\n\\u202e\":1,\"x\\n\\u202e\":2}", &err));
    assert_non_null(strstr(err.message, "duplicate key \"x\\u000a\\u202e\""));
    anim_arena_free(arena);

    /* 10,000 distinct keys, then the same with one repeated. */
    size_t n = 10000;
    char *text = malloc(n * 16 + 16);
    assert_non_null(text);
    size_t o = 0;
    text[o++] = '{';
    for (size_t i = 0; i < n; i++)
        o += (size_t)sprintf(text + o, "%s\"k%zu\":%zu", i ? "," : "", (i * 7919) % n, i);
    text[o++] = '}';
    arena = anim_arena_new();
    const anim_json_value *v = parse_n(arena, text, o, NULL, &err);
    assert_non_null(v);
    assert_int_equal(anim_json_count(v), n);
    assert_non_null(anim_json_get(v, "k9999"));
    assert_int_equal(anim_json_integer(anim_json_get(v, "k7919")), 1);
    o--;
    size_t dup_at = o + 1;
    o += (size_t)sprintf(text + o, ",\"k5\":1,\"k17\":2}");
    assert_null(parse_n(arena, text, o, NULL, &err));
    char want[80];
    snprintf(want, sizeof want, "(byte %zu): duplicate key \"k5\"", dup_at);
    assert_non_null(strstr(err.message, want));
    anim_arena_free(arena);
    free(text);
}

static void test_get_and_names(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    anim_error err;
    const anim_json_value *v = parse(arena, "{\"a\":1,\"bb\":[true],\"c\":null}", &err);
    assert_non_null(v);
    assert_int_equal(anim_json_get(v, "bb")->type, ANIM_JSON_ARRAY);
    assert_int_equal(anim_json_get(v, "c")->type, ANIM_JSON_NULL);
    assert_null(anim_json_get(v, "b"));
    assert_null(anim_json_get(v, "bbb"));
    assert_null(anim_json_get(anim_json_get(v, "bb"), "a"));
    assert_null(anim_json_get(NULL, "a"));
    assert_string_equal(anim_json_type_name(ANIM_JSON_NULL), "null");
    assert_string_equal(anim_json_type_name(ANIM_JSON_TRUE), "boolean");
    assert_string_equal(anim_json_type_name(ANIM_JSON_FALSE), "boolean");
    assert_string_equal(anim_json_type_name(ANIM_JSON_NUMBER), "number");
    assert_string_equal(anim_json_type_name(ANIM_JSON_STRING), "string");
    assert_string_equal(anim_json_type_name(ANIM_JSON_ARRAY), "array");
    assert_string_equal(anim_json_type_name(ANIM_JSON_OBJECT), "object");
    anim_arena_free(arena);
}

/* ------------------------------------------------------------ limits */

static char *nested(size_t depth, size_t *len)
{
    char *t = malloc(depth * 2 + 1);
    assert_non_null(t);
    for (size_t i = 0; i < depth; i++) {
        t[i] = '[';
        t[depth * 2 - 1 - i] = ']';
    }
    *len = depth * 2;
    return t;
}

static void test_depth_limit(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    anim_error err;
    size_t len;
    char *t = nested(256, &len);
    const anim_json_value *v = parse_n(arena, t, len, NULL, &err);
    assert_non_null(v);
    for (int i = 0; i < 255; i++)
        v = anim_json_item(v, 0);
    assert_int_equal(v->type, ANIM_JSON_ARRAY);
    assert_int_equal(anim_json_count(v), 0);
    free(t);

    t = nested(257, &len);
    assert_null(parse_n(arena, t, len, NULL, &err));
    assert_int_equal(err.code, ANIM_ERR_LIMIT);
    assert_string_equal(err.message, "line 1 column 257 (byte 256): nesting deeper than 256 levels");
    free(t);

    /* Objects count too; a custom limit applies. */
    anim_json_limits lim = {3, 0};
    assert_non_null(parse_n(arena, "{\"a\":[{}]}", 10, &lim, &err));
    assert_null(parse_n(arena, "{\"a\":[{\"b\":[]}]}", 16, &lim, &err));
    assert_int_equal(err.code, ANIM_ERR_LIMIT);
    assert_non_null(strstr(err.message, "nesting deeper than 3 levels"));

    /* A deep but allowed document: 100,000 levels under a raised limit. */
    lim.max_depth = 100000;
    t = nested(100000, &len);
    assert_non_null(parse_n(arena, t, len, &lim, &err));
    free(t);
    anim_arena_free(arena);
}

static void test_size_limit(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    anim_error err;
    anim_json_limits lim = {0, 10};
    assert_non_null(parse_n(arena, "[1,2,3,44]", 10, &lim, &err));
    assert_null(parse_n(arena, "[1,2,3,444]", 11, &lim, &err));
    assert_int_equal(err.code, ANIM_ERR_LIMIT);
    assert_non_null(strstr(err.message, "11 bytes"));
    anim_arena_free(arena);
}

/* ------------------------------------------------------------ positions */

static void test_positions(void **state)
{
    (void)state;
    const char *doc = "{\n  \"a\": [1,\n    \"x\", {\"k\": -2.5e1}],\n\t\"b\": true\n}";
    anim_arena *arena = anim_arena_new();
    anim_error err;
    anim_error_clear(&err);
    const anim_json_value *v = anim_json_parse(arena, doc, strlen(doc), NULL, &err);
    assert_non_null(v);
    assert_int_equal(v->offset, 0);
    const anim_json_value *a = anim_json_get(v, "a");
    assert_int_equal(a->offset, (size_t)(strchr(doc, '[') - doc));
    assert_int_equal(anim_json_item(a, 0)->offset, (size_t)(strchr(doc, '1') - doc));
    assert_int_equal(anim_json_item(a, 1)->offset, (size_t)(strstr(doc, "\"x\"") - doc));
    const anim_json_value *k = anim_json_get(anim_json_item(a, 2), "k");
    assert_int_equal(k->offset, (size_t)(strchr(doc, '-') - doc));
    assert_int_equal(k->len, 6);
    assert_memory_equal(anim_json_number_text(k, doc), "-2.5e1", 6);
    assert_true(anim_json_number(k) == -25.0);
    assert_int_equal(anim_json_get(v, "b")->offset, (size_t)(strstr(doc, "true") - doc));

    size_t line, col;
    anim_json_position(doc, strlen(doc), (size_t)(strstr(doc, "\"x\"") - doc), &line, &col);
    assert_int_equal(line, 3);
    assert_int_equal(col, 5);
    anim_json_position(doc, strlen(doc), 0, &line, &col);
    assert_int_equal(line, 1);
    assert_int_equal(col, 1);
    anim_json_position(doc, strlen(doc), strlen(doc) + 100, &line, &col);
    assert_int_equal(line, 5);
    assert_int_equal(col, 2);
    anim_json_position("", 0, 0, &line, &col);
    assert_int_equal(line, 1);
    assert_int_equal(col, 1);

    assert_null(parse(arena, "{\n  \"a\": [1,\n    2 x]}", &err));
    assert_string_equal(err.message,
                        "line 3 column 7 (byte 19): expected ',' or ']' after array element but "
                        "found 'x'");
    assert_null(parse(arena, "[1,\n2", &err));
    assert_string_equal(err.message, "line 2 column 2 (byte 5): unexpected end of input "
                                     "(unclosed array opened at byte 0)");
    assert_null(parse(arena, "{\"a\":1}\n\n  x", &err));
    assert_string_equal(err.message, "line 3 column 3 (byte 11): trailing characters after the "
                                     "JSON value");
    anim_arena_free(arena);
}

/* ------------------------------------------------------------ truncation */

static void test_every_prefix_refused(void **state)
{
    (void)state;
    const char *doc =
        "{\"asset\":{\"version\":\"2.0\",\"generator\":\"t\\u00e9st \\ud83d\\ude00\"},"
        "\"nodes\":[{\"name\":\"H\xc3\xbc" "fte\",\"rotation\":[0,-0.7071067690849304,0,"
        "0.70710676908493042],\"scale\":[1e0,1E+0,1.0e-0]},{}],\"x\":[true,false,null,\"\","
        "-12345678901234567890123,[],{\"\":[[\"\\n\\\"\\\\\"]]}], \"long\":"
        "\"abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz\" }";
    size_t len = strlen(doc);
    anim_arena *arena = anim_arena_new();
    anim_error err;
    assert_non_null(parse_n(arena, doc, len, NULL, &err));
    for (size_t k = 0; k < len; k++) {
        char *prefix = malloc(k ? k : 1);
        assert_non_null(prefix);
        memcpy(prefix, doc, k);
        anim_error_clear(&err);
        const anim_json_value *v = anim_json_parse(arena, prefix, k, NULL, &err);
        /* Prefixes ending right after a complete top-level value do not
         * exist here: the document is one object. */
        if (v) {
            print_error("prefix of %zu bytes accepted\n", k);
            fail();
        }
        assert_int_equal(err.code, ANIM_ERR_PARSE);
        message_body(&err);
        free(prefix);
        if (k % 64 == 0) {
            anim_arena_free(arena);
            arena = anim_arena_new();
        }
    }
    anim_arena_free(arena);
}

static void test_null_arguments(void **state)
{
    (void)state;
    anim_error err;
    assert_null(anim_json_parse(NULL, "1", 1, NULL, &err));
    assert_int_equal(err.code, ANIM_ERR_USAGE);
    anim_arena *arena = anim_arena_new();
    assert_null(anim_json_parse(arena, NULL, 0, NULL, &err));
    assert_int_equal(err.code, ANIM_ERR_PARSE);
    anim_arena_free(arena);
}

/* ---- deferred members (the glTF loader's hook) --------------------------- */

/* A hook that consumes the root member "big" when its value is exactly
 * "[1,[2,3],{\"k\":4}]" (it claims to have validated it: the test hook
 * only accepts that literal) and counts the offers. */
typedef struct {
    int offers;
} hook_state;

static bool test_hook(void *user, const char *key, size_t key_len, const char *text, size_t len,
                      size_t at, size_t *end, uint32_t *count)
{
    hook_state *h = user;
    h->offers++;
    static const char lit[] = "[1,[2,3],{\"k\":4}]";
    if (key_len != 3 || memcmp(key, "big", 3) != 0 || len - at < sizeof lit - 1 ||
        memcmp(text + at, lit, sizeof lit - 1) != 0)
        return false;
    *end = at + sizeof lit - 1;
    *count = 3;
    return true;
}

static void test_deferred_members(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    anim_error err;
    hook_state h = {0};
    const char *text = "{\"a\":[0],\"big\":[1,[2,3],{\"k\":4}],\"c\":{\"big\":[1,[2,3],{\"k\":4}]}}";
    anim_json_value *root = json_parse_hooked(arena, text, strlen(text), NULL, test_hook, &h, &err);
    assert_non_null(root);
    /* Offered the root members' containers only, not nested ones. */
    assert_int_equal(h.offers, 3);
    const anim_json_value *raw = json_get_raw(root, "big", 3);
    assert_non_null(raw);
    assert_true(raw->flags & ANIM_JSON_F_DEFERRED);
    assert_int_equal(anim_json_count(raw), 3);
    assert_int_equal(raw->offset, 15);
    /* The nested "big" was parsed normally. */
    const anim_json_value *nested = anim_json_get(anim_json_get(root, "c"), "big");
    assert_false(nested->flags & ANIM_JSON_F_DEFERRED);
    /* anim_json_item expands in place; offsets stay absolute. */
    const anim_json_value *second = anim_json_item(raw, 1);
    assert_false(raw->flags & ANIM_JSON_F_DEFERRED);
    assert_int_equal(raw->type, ANIM_JSON_ARRAY);
    assert_int_equal(second->offset, 18);
    assert_int_equal(anim_json_integer(anim_json_item(second, 1)), 3);
    assert_memory_equal(anim_json_number_text(anim_json_item(second, 1), text), "3", 1);
    assert_int_equal(anim_json_integer(anim_json_get(anim_json_item(raw, 2), "k")), 4);
    /* The member keeps its key; lookups find the expanded value. */
    assert_ptr_equal(anim_json_get(root, "big"), raw);
    assert_int_equal(anim_json_key_len(anim_json_member_at(root, 1)), 3);
    /* anim_json_expand on ordinary values is a no-op. */
    assert_ptr_equal(anim_json_expand(root), root);

    /* A declined value is parsed (and refused) by the parser itself, and a
     * syntax error after a consumed member is still reported. */
    h.offers = 0;
    const char *bad = "{\"big\":[1,[2,3],{\"k\":4}],\"x\":[1,]}";
    assert_null(json_parse_hooked(arena, bad, strlen(bad), NULL, test_hook, &h, &err));
    assert_string_equal(err.message, "line 1 column 33 (byte 32): trailing comma before ']'");
    const char *dup = "{\"big\":[1,[2,3],{\"k\":4}],\"big\":[1,[2,3],{\"k\":4}]}";
    assert_null(json_parse_hooked(arena, dup, strlen(dup), NULL, test_hook, &h, &err));
    assert_string_equal(err.message, "line 1 column 26 (byte 25): duplicate key \"big\"");

    /* The glTF hook on texts cut right after an opening quote (found by
     * fuzz_json: the key matchers read one byte past the end). Exact-size
     * heap copies, so ASan sees any overread. */
    static const char *const cut[] = {"{\"animations\":[{\"", "{\"accessors\":[{\"type\":\"",
                                      "{\"bufferViews\":[{\""};
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(cut[i]);
        char *copy = malloc(n);
        memcpy(copy, cut[i], n);
        gltf_scan sc;
        memset(&sc, 0, sizeof sc);
        assert_null(json_parse_hooked(arena, copy, n, NULL, gltf_scan_hook, &sc, &err));
        assert_non_null(strstr(err.message, "unexpected end of input in string"));
        gltf_scan_free(&sc);
        free(copy);
    }

    /* anim_json_parse never defers. */
    anim_json_value *plain = anim_json_parse(arena, text, strlen(text), NULL, &err);
    assert_false(json_get_raw(plain, "big", 3)->flags & ANIM_JSON_F_DEFERRED);
    anim_arena_free(arena);
}

/* The scanners the hook uses validate exactly like the parser. */
static void test_scan_helpers(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int ok;
        bool escaped;
    } strings[] = {
        {"\"abc\"", 0, false},     {"\"a\\u00e9\"", 0, true}, {"\"\xc3\xa9\"", 0, false},
        {"\"\xc0\xaf\"", -1, false}, {"\"a\x01\"", -1, false},  {"\"abc", -1, false},
        {"\"\\ud800\"", -1, false},
    };
    for (size_t i = 0; i < sizeof strings / sizeof *strings; i++) {
        size_t pos = 0;
        bool esc = false;
        const char *t = strings[i].text;
        assert_int_equal(json_scan_string(t, strlen(t), &pos, &esc), strings[i].ok);
        if (strings[i].ok == 0) {
            assert_int_equal(pos, strlen(t));
            assert_int_equal(esc, strings[i].escaped);
        }
    }
    anim_json_value v;
    size_t pos = 0;
    assert_int_equal(json_scan_number("-1.5e2,", 7, &pos, &v), 0);
    assert_int_equal(pos, 6);
    assert_true(anim_json_number(&v) == -150.0);
    pos = 0;
    assert_int_equal(json_scan_number("1e999", 5, &pos, &v), -1);
    pos = 0;
    assert_int_equal(json_scan_number("-", 1, &pos, &v), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accept_table),
        cmocka_unit_test(test_reject_table),
        cmocka_unit_test(test_utf8),
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_repeated_strings),
        cmocka_unit_test(test_numbers_exact),
        cmocka_unit_test(test_integers),
        cmocka_unit_test(test_duplicate_keys),
        cmocka_unit_test(test_get_and_names),
        cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_size_limit),
        cmocka_unit_test(test_positions),
        cmocka_unit_test(test_every_prefix_refused),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_deferred_members),
        cmocka_unit_test(test_scan_helpers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
