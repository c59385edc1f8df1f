/* The shortest-digits printer against the earlier printf/strtod search,
 * byte for byte (test_numfmt_check.h): floats sampled across all 2^32 bit
 * patterns, and random ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_numfmt_check.h"

/* Floats by sampling: a stride through all 2^32 bit patterns covers every
 * exponent and sign, plus random patterns. */
static void test_f32_sampled(void **state)
{
    (void)state;
    thorough_every = 16;
    for (uint64_t bits = 0; bits < ((uint64_t)1 << 32); bits += 8191) {
        float f = f32_of((uint32_t)bits);
        if (isfinite(f))
            check_f32(f);
    }
    rng_state = 4;
    for (int i = 0; i < 300000; i++) {
        float f = f32_of((uint32_t)rng());
        if (isfinite(f))
            check_f32(f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32_sampled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
