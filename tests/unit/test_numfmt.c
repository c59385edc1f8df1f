/* Number formatting: serde_json/ryu JSON forms, plain display, fixed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/numfmt.h"

static void expect_f64(double v, const char *want)
{
    char buf[ANIM_FMT_JSON_MAX];
    size_t n = anim_fmt_f64_json(v, buf);
    assert_string_equal(buf, want);
    assert_int_equal(n, strlen(want));
}

static void expect_f32(float v, const char *want)
{
    char buf[ANIM_FMT_JSON_MAX];
    anim_fmt_f32_json(v, buf);
    assert_string_equal(buf, want);
}

static void expect_plain(double v, const char *want)
{
    char buf[ANIM_FMT_PLAIN_MAX];
    anim_fmt_f64_plain(v, buf);
    assert_string_equal(buf, want);
}

static void test_f64_json(void **state)
{
    (void)state;
    expect_f64(0.0, "0.0");
    expect_f64(-0.0, "-0.0");
    expect_f64(1.0, "1.0");
    expect_f64(33.0, "33.0");
    expect_f64(0.1, "0.1");
    expect_f64((double)0.1f, "0.10000000149011612");
    expect_f64((double)1.05f, "1.0499999523162842");
    expect_f64(0.5, "0.5");
    expect_f64(-1.25, "-1.25");
    expect_f64(1e-5, "0.00001");
    expect_f64(1e-6, "1e-6");
    expect_f64(1e-7, "1e-7");
    expect_f64(1.5e-7, "1.5e-7");
    expect_f64(3.6739403974420595e-17, "3.6739403974420595e-17");
    expect_f64(9999999999999998.0, "9999999999999998.0");
    expect_f64(1e15, "1000000000000000.0");
    expect_f64(1e16, "1e16");
    expect_f64(1.2e16, "1.2e16");
    expect_f64(5e-324, "5e-324");
    expect_f64(DBL_MAX, "1.7976931348623157e308");
    expect_f64(DBL_MIN, "2.2250738585072014e-308");
    expect_f64(0.3, "0.3");
    expect_f64(2.0 / 3.0, "0.6666666666666666");
    expect_f64(123456.789, "123456.789");
    expect_f64(NAN, "null");
    expect_f64(INFINITY, "null");
    /* A power of two where the closest 16-digit candidate misses. */
    expect_f64(9007199254740992.0, "9007199254740992.0");
    expect_f64(ldexp(1.0, -1074 + 60), "5.696189077778436e-306");
}

static void test_f32_json(void **state)
{
    (void)state;
    expect_f32(0.1f, "0.1");
    expect_f32(1.0f, "1.0");
    expect_f32(-0.0f, "-0.0");
    expect_f32(1.05f, "1.05");
    expect_f32(0.04997916892170906f, "0.04997917");
    expect_f32(1e-6f, "0.000001");
    expect_f32(1e-7f, "1e-7");
    expect_f32(1e12f, "1000000000000.0");
    expect_f32(1e13f, "1e13");
    expect_f32(FLT_MAX, "3.4028235e38");
    expect_f32(1.4e-45f, "1e-45");
    expect_f32(16777216.0f, "16777216.0");
}

static void test_plain(void **state)
{
    (void)state;
    expect_plain(30.0, "30");
    expect_plain(0.5, "0.5");
    expect_plain(1e-7, "0.0000001");
    expect_plain(1e21, "1000000000000000000000");
    expect_plain(-0.0, "-0");
    expect_plain(0.0, "0");
    expect_plain(NAN, "NaN");
    expect_plain(INFINITY, "inf");
    expect_plain(-INFINITY, "-inf");
    expect_plain(1.25, "1.25");
    expect_plain(-32.5, "-32.5");
    expect_plain((double)0.1f, "0.10000000149011612");
    char buf[ANIM_FMT_PLAIN_MAX];
    size_t n = anim_fmt_f64_plain(5e-324, buf);
    assert_int_equal(n, 2 + 323 + 1);
    assert_string_equal(buf + n - 2, "05");
    n = anim_fmt_f64_plain(-DBL_MAX, buf);
    assert_int_equal(n, 310);
}

static void test_fixed(void **state)
{
    (void)state;
    char buf[64];
    anim_fmt_fixed(0.15811388, 4, buf, sizeof buf);
    assert_string_equal(buf, "0.1581");
    anim_fmt_fixed(-0.0, 4, buf, sizeof buf);
    assert_string_equal(buf, "-0.0000");
    anim_fmt_fixed(0.125, 2, buf, sizeof buf);
    assert_string_equal(buf, "0.12"); /* exact binary value, ties to even */
    anim_fmt_fixed(NAN, 4, buf, sizeof buf);
    assert_string_equal(buf, "NaN");
    anim_fmt_fixed(-INFINITY, 2, buf, sizeof buf);
    assert_string_equal(buf, "-inf");
    /* Magnitudes from 1e12 on print in exponent form (a 1e38 s key time). */
    anim_fmt_fixed(999999999999.0, 3, buf, sizeof buf);
    assert_string_equal(buf, "999999999999.000");
    anim_fmt_fixed(99999996802856924650656260769173209088.0, 3, buf, sizeof buf);
    assert_string_equal(buf, "1.000e+38");
    anim_fmt_fixed(-1e12, 4, buf, sizeof buf);
    assert_string_equal(buf, "-1.0000e+12");
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_strbuf_put_fixed(&sb, 1e300, 2);
    assert_string_equal(sb.data, "1.00e+300");
    anim_strbuf_puts(&sb, "|");
    anim_strbuf_put_f64_json(&sb, 2.5);
    anim_strbuf_put_f32_json(&sb, 0.1f);
    anim_strbuf_put_f64_plain(&sb, 7.0);
    assert_string_equal(sb.data + 10, "2.50.17");
    anim_strbuf_free(&sb);
}

/* Parses the JSON form back; must round-trip and be no longer than %.17g. */
static void test_random_round_trip(void **state)
{
    (void)state;
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 40000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double v;
        memcpy(&v, &x, sizeof v);
        if (!isfinite(v))
            continue;
        char buf[ANIM_FMT_JSON_MAX];
        anim_fmt_f64_json(v, buf);
        double back = strtod(buf, NULL);
        assert_memory_equal(&back, &v, sizeof v);
        char digits[18];
        int e;
        int len = anim_fmt_shortest_f64(v, digits, &e);
        assert_true(len >= 1 && len <= 17);
        /* Not shorter by one digit: the correctly rounded len-1 digits fail. */
        if (len > 1) {
            char t[48];
            snprintf(t, sizeof t, "%.*e", len - 2, fabs(v));
            assert_true(strtod(t, NULL) != fabs(v));
        }
        float f;
        uint32_t u = (uint32_t)(x >> 17);
        memcpy(&f, &u, sizeof f);
        if (!isfinite(f))
            continue;
        anim_fmt_f32_json(f, buf);
        assert_true(strtof(buf, NULL) == f);
        char pbuf[ANIM_FMT_PLAIN_MAX];
        anim_fmt_f64_plain(v, pbuf);
        back = strtod(pbuf, NULL);
        assert_memory_equal(&back, &v, sizeof v);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f64_json),
        cmocka_unit_test(test_f32_json),
        cmocka_unit_test(test_plain),
        cmocka_unit_test(test_fixed),
        cmocka_unit_test(test_random_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
