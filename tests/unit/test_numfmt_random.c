/* The shortest-digits printer against the earlier printf/strtod search,
 * byte for byte (test_numfmt_check.h): every power of two and ten, the
 * subnormals, the extremes, the JSON layout thresholds and known hard
 * cases for f64 and f32 (speed is measured by bench/bench_numfmt, never in a
 * test). Random values:
 * test_numfmt_bits.c, test_numfmt_ranges.c and test_numfmt_f32.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_numfmt_check.h"

static void test_f64_edges(void **state)
{
    (void)state;
    /* Every power of two, normal and subnormal, where the rounding
     * interval is asymmetric. */
    for (int x = -1074; x <= 1023; x++) {
        check_f64_around(ldexp(1.0, x));
        check_f64(-ldexp(1.0, x));
    }
    /* Every power of ten a double can hold. */
    for (int x = -323; x <= 308; x++) {
        char t[16];
        snprintf(t, sizeof t, "1e%d", x);
        check_f64_around(strtod(t, NULL));
    }
    /* Subnormals: the smallest ones one by one, then random ones. */
    for (uint64_t m = 1; m <= 3000; m++)
        check_f64(f64_of(m));
    rng_state = 1;
    for (int i = 0; i < 20000; i++)
        check_f64(f64_of(rng() & 0x000fffffffffffffull));
    check_f64_around(DBL_MAX);
    check_f64_around(DBL_MIN);
    check_f64_around(f64_of(0x000fffffffffffffull));
    /* The JSON layout thresholds and the integer range. */
    static const double around[] = {1e-5, 1e-6, 1e15, 1e16, 1e17, 9007199254740992.0,
                                    4503599627370496.0, 1.0, 0.1, 0.5, 30.0, 1e21, 1e22,
                                    1e23, 5e-324, 1.5e-7, 0.3, 2.0 / 3.0};
    for (size_t i = 0; i < sizeof around / sizeof around[0]; i++) {
        check_f64_around(around[i]);
        check_f64_around(-around[i]);
    }
    check_f64(0.0);
    check_f64(-0.0);
    /* Hard cases for shortest printers collected by ryu and others. */
    static const double hard[] = {
        1.7800590868057611e-307, 2.8480945388892178e-306, 2.446494580089078e-296,
        4.8929891601781557e-296, 1.8014398509481984e16, 3.6028797018963964e16,
        2.900835519859558e-216, 5.801671039719115e-216, 3.196104012172126e-27,
        9007199254740991.0, 4.940656e-318, 1.18575755e-316, 2.989102097996e-312,
        9.0608011534336e15, 4.708356024711512e18, 9.409340012568248e18, 1.2345678,
        2.98023223876953125e-8, -2.109808898695963e16, 4.940656e-318, 1.18575755e-316,
        1e-322, 2.2250738585072011e-308, 1.9156918820264798e-56, 6.6564021122018745e18,
        4.3e-322, 1.0e23, 8.41e21, 5.0e22, 9.5e22, 1.7976931348623157e308,
        0.0333333, 1.25, -0.70710677, (double)-0.70710677f, (double)0.0333333f};
    for (size_t i = 0; i < sizeof hard / sizeof hard[0]; i++)
        check_f64_around(hard[i]);
}

static void test_f32_edges(void **state)
{
    (void)state;
    for (int x = -149; x <= 127; x++) {
        check_f32_around(ldexpf(1.0f, x));
        check_f32(-ldexpf(1.0f, x));
    }
    for (int x = -45; x <= 38; x++) {
        char t[16];
        snprintf(t, sizeof t, "1e%d", x);
        check_f32_around(strtof(t, NULL));
    }
    for (uint32_t m = 1; m <= 3000; m++)
        check_f32(f32_of(m));
    check_f32_around(FLT_MAX);
    check_f32_around(FLT_MIN);
    check_f32_around(f32_of(0x007fffffu));
    static const float around[] = {1e-6f, 1e-7f, 1e12f, 1e13f, 1e14f, 16777216.0f,
                                   8388608.0f, 1.0f, 0.1f, 1.05f, 0.04997916892170906f,
                                   0.0333333f, 1.25f, -0.70710677f, 3.4028235e38f};
    for (size_t i = 0; i < sizeof around / sizeof around[0]; i++) {
        check_f32_around(around[i]);
        check_f32_around(-around[i]);
    }
    check_f32(0.0f);
    check_f32(-0.0f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f64_edges),
        cmocka_unit_test(test_f32_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
