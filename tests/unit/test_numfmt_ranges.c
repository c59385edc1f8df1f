/* The shortest-digits printer against the earlier printf/strtod search,
 * byte for byte (test_numfmt_check.h): doubles uniform in the ranges
 * animation data lives in, and floats widened to doubles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_numfmt_check.h"

/* Uniform in ranges animation data lives in, and floats widened to
 * doubles (what an f32 key time or rotation becomes in a measurement). */
static void test_f64_random_ranges(void **state)
{
    (void)state;
    rng_state = 3;
    thorough_every = 16;
    static const double ranges[][2] = {{-1.0, 1.0}, {0.0, 1000.0}, {-1e-3, 1e-3},
                                       {1e-6, 1e-4}, {1e15, 1e17}, {0.0, 60.0}};
    for (int i = 0; i < 350000; i++) {
        const double *r = ranges[i % 6];
        double v = uniform(r[0], r[1]);
        check_f64(v);
        check_f64((double)(float)v);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f64_random_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
