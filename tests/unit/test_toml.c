/* Unit tests of the TOML reader. With `--dump FILE` the program is the
 * differential driver of tests/scripts/toml_vs_tomllib.sh instead: it
 * prints the document as tagged JSON ({"type":"integer","value":"42"}, the
 * toml-test convention) and exits 0, or prints the error and exits 1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/strbuf.h"
#include "animsmith/toml.h"

/* ---- dumper --------------------------------------------------------- */

static void dump_string(anim_strbuf *sb, const char *s, size_t len)
{
    anim_strbuf_putc(sb, '"');
    for (size_t k = 0; k < len; k++) {
        unsigned char c = (unsigned char)s[k];
        if (c == '"' || c == '\\')
            anim_strbuf_printf(sb, "\\%c", c);
        else if (c < 0x20 || c == 0x7F)
            anim_strbuf_printf(sb, "\\u%04x", c);
        else
            anim_strbuf_putc(sb, (char)c);
    }
    anim_strbuf_putc(sb, '"');
}

/* The form Python's datetime.isoformat() gives: 'T' separator, fraction
 * cut to microseconds and dropped when zero, Z and -00:00 as +00:00. */
static void dump_datetime(anim_strbuf *sb, const anim_toml_value *v)
{
    const char *t = v->u.datetime.text;
    size_t len = v->u.datetime.len, k = 0;
    char out[64];
    size_t m = 0;
    if (v->u.datetime.kind != ANIM_TOML_LOCAL_TIME) {
        memcpy(out, t, 10);
        m = 10;
        k = 10;
        if (v->u.datetime.kind == ANIM_TOML_LOCAL_DATE)
            goto done;
        out[m++] = 'T';
        k++;
    }
    memcpy(out + m, t + k, 8);
    m += 8;
    k += 8;
    if (k < len && t[k] == '.') {
        char frac[7] = "000000";
        size_t d = 0;
        for (k++; k < len && t[k] >= '0' && t[k] <= '9'; k++)
            if (d < 6)
                frac[d++] = t[k];
        if (strcmp(frac, "000000") != 0) {
            out[m++] = '.';
            memcpy(out + m, frac, 6);
            m += 6;
        }
    }
    if (k < len) {
        if (t[k] == 'Z' || t[k] == 'z' || strncmp(t + k, "-00:00", 6) == 0) {
            memcpy(out + m, "+00:00", 6);
        } else {
            memcpy(out + m, t + k, 6);
        }
        m += 6;
    }
done:
    anim_strbuf_printf(sb, "\"%.*s\"", (int)m, out);
}

static void dump_value(anim_strbuf *sb, const anim_toml_value *v)
{
    static const char *const dt_kind[] = {"datetime", "datetime-local", "date-local",
                                          "time-local"};
    switch (v->type) {
    case ANIM_TOML_TABLE:
        anim_strbuf_putc(sb, '{');
        for (size_t k = 0; k < v->u.table.count; k++) {
            const anim_toml_entry *e = &v->u.table.entries[k];
            if (k)
                anim_strbuf_putc(sb, ',');
            dump_string(sb, e->key, e->key_len);
            anim_strbuf_putc(sb, ':');
            dump_value(sb, e->value);
        }
        anim_strbuf_putc(sb, '}');
        return;
    case ANIM_TOML_ARRAY:
        anim_strbuf_putc(sb, '[');
        for (size_t k = 0; k < v->u.array.count; k++) {
            if (k)
                anim_strbuf_putc(sb, ',');
            dump_value(sb, v->u.array.items[k]);
        }
        anim_strbuf_putc(sb, ']');
        return;
    case ANIM_TOML_STRING:
        anim_strbuf_puts(sb, "{\"type\":\"string\",\"value\":");
        dump_string(sb, v->u.string.data, v->u.string.len);
        break;
    case ANIM_TOML_INTEGER:
        anim_strbuf_printf(sb, "{\"type\":\"integer\",\"value\":\"%lld\"",
                           (long long)v->u.integer);
        break;
    case ANIM_TOML_FLOAT: {
        double x = v->u.floating;
        if (x != x)
            anim_strbuf_puts(sb, "{\"type\":\"float\",\"value\":\"nan\"");
        else if (x > 1.7976931348623157e308 || x < -1.7976931348623157e308)
            anim_strbuf_printf(sb, "{\"type\":\"float\",\"value\":\"%s\"",
                               x > 0 ? "inf" : "-inf");
        else
            anim_strbuf_printf(sb, "{\"type\":\"float\",\"value\":\"%.17g\"", x);
        break;
    }
    case ANIM_TOML_BOOLEAN:
        anim_strbuf_printf(sb, "{\"type\":\"bool\",\"value\":\"%s\"",
                           v->u.boolean ? "true" : "false");
        break;
    case ANIM_TOML_DATETIME:
        anim_strbuf_printf(sb, "{\"type\":\"%s\",\"value\":", dt_kind[v->u.datetime.kind]);
        dump_datetime(sb, v);
        break;
    }
    anim_strbuf_putc(sb, '}');
}

static int dump_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return 2;
    }
    anim_strbuf text = ANIM_STRBUF_INIT;
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        anim_strbuf_append(&text, chunk, got);
    fclose(f);
    anim_arena *arena = anim_arena_new();
    anim_error err;
    anim_error_clear(&err);
    const anim_toml_value *root = anim_toml_parse(arena, text.data, text.len, &err);
    int rc;
    if (root) {
        anim_strbuf out = ANIM_STRBUF_INIT;
        dump_value(&out, root);
        printf("%s\n", out.data);
        anim_strbuf_free(&out);
        rc = 0;
    } else {
        printf("%s\n", err.message);
        rc = 1;
    }
    anim_arena_free(arena);
    anim_strbuf_free(&text);
    return rc;
}

/* ---- unit tests ----------------------------------------------------- */

static anim_arena *g_arena;

static int setup(void **state)
{
    (void)state;
    g_arena = anim_arena_new();
    return g_arena ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    anim_arena_free(g_arena);
    return 0;
}

/* Parses from an exact-size heap copy, so ASan catches any read past len. */
static const anim_toml_value *parse(const char *text, anim_error *err)
{
    size_t len = strlen(text);
    char *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    memcpy(copy, text, len);
    anim_error_clear(err);
    const anim_toml_value *v = anim_toml_parse(g_arena, copy, len, err);
    free(copy);
    return v;
}

static void expect_error(const char *text, const char *message)
{
    anim_error err;
    const anim_toml_value *v = parse(text, &err);
    if (v || strcmp(err.message, message) != 0)
        fail_msg("for %s\n got: %s\nwant: %s", text, v ? "(accepted)" : err.message, message);
}

static const anim_toml_value *ok(const char *text)
{
    anim_error err;
    const anim_toml_value *v = parse(text, &err);
    if (!v)
        fail_msg("for %s: %s", text, err.message);
    return v;
}

static void test_scalars(void **state)
{
    (void)state;
    /* No sign on hexadecimal, octal or binary integers. */
    expect_error("i = -0x7F\n", "line 1 column 5: invalid number -0x");
    const anim_toml_value *r = ok("s = \"a\\tb\\u00e9\\U0001F600\"\nl = 'C:\\x'\nh = 0xDEAD_beef\no = 0o17\n"
           "b = 0b101\nd = +1_000\nf = 6.626e-34\nt = true\nn = -nan\nq = -inf\n");
    const anim_toml_value *s = anim_toml_get(r, "s");
    assert_int_equal(s->type, ANIM_TOML_STRING);
    assert_string_equal(s->u.string.data, "a\tb\xc3\xa9\xf0\x9f\x98\x80");
    assert_string_equal(anim_toml_get(r, "l")->u.string.data, "C:\\x");
    assert_true(anim_toml_get(r, "h")->u.integer == 0xDEADBEEF);
    assert_int_equal(anim_toml_get(r, "o")->u.integer, 15);
    assert_int_equal(anim_toml_get(r, "b")->u.integer, 5);
    assert_int_equal(anim_toml_get(r, "d")->u.integer, 1000);
    assert_true(anim_toml_get(r, "f")->u.floating == 6.626e-34);
    assert_true(anim_toml_get(r, "t")->u.boolean);
    double n = anim_toml_get(r, "n")->u.floating;
    assert_true(n != n);
    assert_true(anim_toml_get(r, "q")->u.floating < -1e308);
    assert_string_equal(anim_toml_type_name(anim_toml_get(r, "f")->type), "float");
    assert_null(anim_toml_get(r, "missing"));
}

static void test_int64_range(void **state)
{
    (void)state;
    const anim_toml_value *r =
        ok("a = 9223372036854775807\nb = -9223372036854775808\nc = 0x7FFFFFFFFFFFFFFF\n");
    assert_true(anim_toml_get(r, "a")->u.integer == INT64_MAX);
    assert_true(anim_toml_get(r, "b")->u.integer == INT64_MIN);
    assert_true(anim_toml_get(r, "c")->u.integer == INT64_MAX);
    expect_error("a = 9223372036854775808\n",
                 "line 1 column 5: integer 9223372036854775808 does not fit in 64 bits");
    expect_error("a = 0x8000000000000000\n",
                 "line 1 column 5: integer 0x8000000000000000 does not fit in 64 bits");
}

static void test_brief_messages(void **state)
{
    (void)state;
    expect_error("[clips.walk]\nloop = true\n  loop = false\n",
                 "line 3 column 3: duplicate key loop");
    expect_error("[clips.walk]\nloop = true\n\n\n\n\n[clips.walk]\n",
                 "line 7 column 1: table [clips.walk] defined twice");
    expect_error("a = 1\nname = \"ab\\q\"\n", "line 2 column 11: invalid escape \\q in string");
    expect_error("[clips.\"mixamo.com\"]\n[clips.\"mixamo.com\"]\n",
                 "line 2 column 1: table [clips.\"mixamo.com\"] defined twice");
    expect_error("a = \"caf\xc3\xa9\" x\n",
                 "line 1 column 12: expected the end of the line, found 'x'");
    expect_error("a = {b = 1,}\n",
                 "line 1 column 12: trailing comma in an inline table is not allowed");
    expect_error("a = {b = 1\n}\n",
                 "line 1 column 11: end of line inside an inline table (it must be on one "
                 "line)");
    expect_error("a.b = 1\n[a]\n", "line 2 column 1: table [a] was already defined by dotted keys");
    expect_error("a = [1\n", "line 1 column 5: unterminated array (no closing ']')");
    expect_error("a = \"x\n", "line 1 column 7: newline in a single-line string");
    expect_error("a = 1\r\nb = 2\rc = 3\n",
                 "line 2 column 6: expected the end of the line, found U+000D");
    expect_error("a = 1\n\xff = 2\n", "line 2 column 1: invalid UTF-8 byte 0xFF");
    expect_error("a = 2021-02-29\n", "line 1 column 5: invalid date 2021-02-29");
    expect_error("x = [1, 2] # \x01\n", "line 1 column 14: control character U+0001 in a comment");
    expect_error("a = 01\n", "line 1 column 5: leading zeros are not allowed in numbers");
    expect_error("a = truth\n",
                 "line 1 column 5: invalid value truth (strings need quotes; booleans are true "
                 "and false)");
}

static void test_positions_and_order(void **state)
{
    (void)state;
    const anim_toml_value *r = ok("# contract\n"
                                  "[checks.quat-norm]\n"
                                  "severity = \"error\"\n"
                                  "\n"
                                  "[clips.\"mixamo.com\"]\n"
                                  "  z = 1\n"
                                  "  a.b = 2\n"
                                  "  \"\xc3\xa9t\xc3\xa9\" = 3\n"
                                  "[clips.\"run_*\"]\n");
    const anim_toml_value *checks = anim_toml_get(r, "checks");
    assert_non_null(checks);
    const anim_toml_value *qn = anim_toml_get(checks, "quat-norm");
    assert_int_equal(qn->line, 2);
    assert_int_equal(qn->column, 1);
    assert_true(qn->defined_by_header);
    assert_false(checks->defined_by_header);
    const anim_toml_entry *sev = anim_toml_find(qn, "severity", 8);
    assert_int_equal(sev->line, 3);
    assert_int_equal(sev->column, 1);
    assert_int_equal(sev->value->column, 12);
    const anim_toml_value *clips = anim_toml_get(r, "clips");
    assert_int_equal(clips->u.table.count, 2);
    assert_string_equal(clips->u.table.entries[0].key, "mixamo.com");
    assert_string_equal(clips->u.table.entries[1].key, "run_*");
    const anim_toml_value *m = clips->u.table.entries[0].value;
    assert_int_equal(m->u.table.count, 3);
    assert_string_equal(m->u.table.entries[0].key, "z");
    assert_string_equal(m->u.table.entries[1].key, "a");
    const anim_toml_value *a = m->u.table.entries[1].value;
    assert_int_equal(a->u.table.entries[0].line, 7);
    assert_int_equal(a->u.table.entries[0].column, 5);
    assert_int_equal(a->line, 7);
    assert_int_equal(a->column, 3);
    /* Columns count characters, not bytes. */
    expect_error("\"\xc3\xa9t\xc3\xa9\" = 1 2\n", "line 1 column 11: expected the end of the line, found '2'");
}

static void test_arrays_of_tables(void **state)
{
    (void)state;
    const anim_toml_value *r = ok("[[clip]]\nname = \"a\"\n[clip.range]\nx = 1\n"
                                  "[[clip]]\nname = \"b\"\n[clip.range]\nx = 2\n");
    const anim_toml_value *c = anim_toml_get(r, "clip");
    assert_int_equal(c->type, ANIM_TOML_ARRAY);
    assert_false(c->is_inline);
    assert_int_equal(c->u.array.count, 2);
    assert_int_equal(anim_toml_get(anim_toml_get(c->u.array.items[1], "range"), "x")->u.integer,
                     2);
    expect_error("a = []\n[[a]]\n",
                 "line 2 column 1: [[a]] cannot append to a, which is already an array "
                 "(immutable)");
    expect_error("[[a]]\n[a]\n",
                 "line 2 column 1: table [a] conflicts with the array of tables [[a]]");
}

static void test_datetimes(void **state)
{
    (void)state;
    const anim_toml_value *r = ok("a = 1979-05-27T07:32:00Z\nb = 1979-05-27 07:32:00.5\n"
                                  "c = 1979-05-27 # date\nd = 07:32:00\n");
    const anim_toml_value *a = anim_toml_get(r, "a");
    assert_int_equal(a->type, ANIM_TOML_DATETIME);
    assert_int_equal(a->u.datetime.kind, ANIM_TOML_OFFSET_DATETIME);
    assert_string_equal(a->u.datetime.text, "1979-05-27T07:32:00Z");
    assert_int_equal(anim_toml_get(r, "b")->u.datetime.kind, ANIM_TOML_LOCAL_DATETIME);
    assert_string_equal(anim_toml_get(r, "c")->u.datetime.text, "1979-05-27");
    assert_int_equal(anim_toml_get(r, "c")->u.datetime.kind, ANIM_TOML_LOCAL_DATE);
    assert_int_equal(anim_toml_get(r, "d")->u.datetime.kind, ANIM_TOML_LOCAL_TIME);
    assert_string_equal(anim_toml_type_name(ANIM_TOML_DATETIME), "datetime");
}

static void test_nul_and_binary(void **state)
{
    (void)state;
    /* A \u0000 escape keeps its place: lengths, not strlen. */
    const anim_toml_value *r = ok("\"a\\u0000b\" = \"x\\u0000y\"\n");
    assert_int_equal(r->u.table.entries[0].key_len, 3);
    const anim_toml_value *v = anim_toml_getn(r, "a\0b", 3);
    assert_non_null(v);
    assert_int_equal(v->u.string.len, 3);
    /* A raw NUL byte is refused. */
    anim_error err;
    anim_error_clear(&err);
    static const char raw[] = {'a', ' ', '=', ' ', '1', ' ', '#', '\0'};
    assert_null(anim_toml_parse(g_arena, raw, sizeof raw, &err));
    assert_string_equal(err.message, "line 1 column 8: control character U+0000 in a comment");
    /* Empty document; NULL with length 0. */
    assert_int_equal(ok("")->u.table.count, 0);
    anim_error_clear(&err);
    assert_non_null(anim_toml_parse(g_arena, NULL, 0, &err));
}

static void test_limits(void **state)
{
    (void)state;
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_strbuf_puts(&sb, "a = ");
    for (int k = 0; k < ANIM_TOML_MAX_DEPTH; k++)
        anim_strbuf_putc(&sb, '[');
    for (int k = 0; k < ANIM_TOML_MAX_DEPTH; k++)
        anim_strbuf_putc(&sb, ']');
    anim_error err;
    assert_non_null(parse(sb.data, &err));
    anim_strbuf_reset(&sb);
    anim_strbuf_puts(&sb, "a = ");
    for (int k = 0; k <= ANIM_TOML_MAX_DEPTH; k++)
        anim_strbuf_puts(&sb, "{b=");
    assert_null(parse(sb.data, &err));
    assert_int_equal(err.code, ANIM_ERR_LIMIT);
    assert_string_equal(err.message, "line 1 column 387: tables and arrays nested deeper "
                                     "than 128 levels");
    /* Dotted keys and headers count too: the tree depth is what is bounded. */
    anim_strbuf_reset(&sb);
    anim_strbuf_puts(&sb, "[t]\nx");
    for (int k = 0; k < ANIM_TOML_MAX_DEPTH; k++)
        anim_strbuf_puts(&sb, ".x");
    anim_strbuf_puts(&sb, " = 1\n");
    assert_null(parse(sb.data, &err));
    assert_string_equal(err.message, "line 2 column 1: tables and arrays nested deeper than "
                                     "128 levels");
    anim_strbuf_reset(&sb);
    anim_strbuf_puts(&sb, "[[x");
    for (int k = 1; k < ANIM_TOML_MAX_DEPTH; k++)
        anim_strbuf_puts(&sb, ".x");
    anim_strbuf_puts(&sb, "]]\n");
    assert_null(parse(sb.data, &err));
    assert_int_equal(err.code, ANIM_ERR_LIMIT);
    anim_strbuf_free(&sb);
    anim_error_clear(&err);
    assert_null(anim_toml_parse(g_arena, "", ANIM_TOML_MAX_BYTES + 1, &err));
    assert_int_equal(err.code, ANIM_ERR_LIMIT);
}

/* Many keys in one table and many [[elements]]: lookups stay cheap. */
static void test_many_keys(void **state)
{
    (void)state;
    anim_strbuf sb = ANIM_STRBUF_INIT;
    for (int k = 0; k < 50000; k++)
        anim_strbuf_printf(&sb, "k%d = %d\n", k, k);
    anim_strbuf_puts(&sb, "[[t]]\n[[t]]\nk1 = 1\n");
    const anim_toml_value *r = ok(sb.data);
    assert_int_equal(r->u.table.count, 50001);
    assert_int_equal(anim_toml_get(r, "k49999")->u.integer, 49999);
    assert_int_equal(anim_toml_get(r, "k49999")->line, 50000);
    anim_strbuf_puts(&sb, "k1 = 2\n");
    expect_error(sb.data, "line 50004 column 1: duplicate key k1");
    anim_strbuf_free(&sb);
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "--dump") == 0)
        return dump_file(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_scalars, setup, teardown),
        cmocka_unit_test_setup_teardown(test_int64_range, setup, teardown),
        cmocka_unit_test_setup_teardown(test_brief_messages, setup, teardown),
        cmocka_unit_test_setup_teardown(test_positions_and_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_arrays_of_tables, setup, teardown),
        cmocka_unit_test_setup_teardown(test_datetimes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nul_and_binary, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_many_keys, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
