/* The shortest-digits printer against the earlier printf/strtod search,
 * byte for byte (test_numfmt_check.h): uniformly random f64 bit patterns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_numfmt_check.h"

/* Uniform bit patterns: every exponent equally likely. */
static void test_f64_random_bits(void **state)
{
    (void)state;
    rng_state = 2;
    thorough_every = 16;
    for (int i = 0; i < 500000; i++) {
        double v = f64_of(rng());
        if (isfinite(v))
            check_f64(v);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f64_random_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
