/* Checks shared by the number-printer tests (test_numfmt_random.c, _bits.c,
 * _ranges.c and _f32.c: separate programs, so the test runner spreads the
 * two million reference comparisons over its cores and none takes long):
 * the digits must (a) read back to the same value, (b) be no longer than
 * %.17g (%.9g for f32), (c) be the shortest (one digit fewer does not read
 * back), and (d) equal the earlier printf/strtod search
 * (test_numfmt_reference.h) digit for digit and in the JSON text. Include
 * after cmocka.h. */
#ifndef ANIMSMITH_TEST_NUMFMT_CHECK_H
#define ANIMSMITH_TEST_NUMFMT_CHECK_H

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/numfmt.h"
#include "test_numfmt_reference.h"

static uint64_t rng_state;

/* splitmix64: a fixed seed per test, so every run checks the same values. */
static inline uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline double uniform(double lo, double hi)
{
    return lo + (hi - lo) * (double)(rng() >> 11) * 0x1p-53;
}

static inline double f64_of(uint64_t bits)
{
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static inline float f32_of(uint32_t bits)
{
    float v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* Significant digits %.{prec}g prints for x, trailing zeros dropped. */
static inline int g_digits(double x, int prec)
{
    char t[64];
    snprintf(t, sizeof t, "%.*g", prec, fabs(x));
    int n = 0, trailing = 0;
    bool started = false;
    for (const char *s = t; *s && *s != 'e'; s++) {
        if (*s < '0' || *s > '9')
            continue;
        if (*s != '0')
            started = true;
        if (!started)
            continue;
        n++;
        trailing = *s == '0' ? trailing + 1 : 0;
    }
    return n - trailing;
}

static inline void fail_f64(double v, const char *what, const char *got, const char *want)
{
    fail_msg("f64 %a (%.17g): %s: got \"%s\", want \"%s\"", v, v, what, got, want);
}

/* Every value gets (a) and (d); (b) and (c) cost two more printf calls, so
 * the random runs spot-check them on one value in `thorough_every` (the
 * edge cases get all four). The reference satisfies (b) and (c) by
 * construction, so (d) implies them anyway. */
static unsigned thorough_every = 1, thorough_count;

static inline bool thorough(void)
{
    return ++thorough_count % thorough_every == 0;
}

/* (a) to (d) for one finite double. */
static inline void check_f64(double v)
{
    char digits[18], ref_digits[18];
    int e, ref_e;
    int len = anim_fmt_shortest_f64(v, digits, &e);
    int ref_len = ref_shortest_f64(v, ref_digits, &ref_e);
    if (len != ref_len || e != ref_e || strcmp(digits, ref_digits) != 0)
        fail_f64(v, "digits", digits, ref_digits);
    char buf[ANIM_FMT_JSON_MAX], ref_buf[32];
    size_t n = anim_fmt_f64_json(v, buf);
    ref_f64_json_of(v, ref_digits, ref_len, ref_e, ref_buf);
    if (strcmp(buf, ref_buf) != 0 || n != strlen(ref_buf))
        fail_f64(v, "json", buf, ref_buf);
    double back = strtod(buf, NULL);
    if (memcmp(&back, &v, sizeof v) != 0)
        fail_f64(v, "round trip", buf, "the same value");
    if (!thorough())
        return;
    if (v != 0.0 && len > g_digits(v, 17))
        fail_f64(v, "longer than %.17g", digits, "");
    if (len > 1) {
        char t[48];
        snprintf(t, sizeof t, "%.*e", len - 2, fabs(v));
        if (strtod(t, NULL) == fabs(v))
            fail_f64(v, "not the shortest", digits, t);
    }
}

/* (a) to (d) for one finite float. */
static inline void check_f32(float v)
{
    char digits[18], ref_digits[18];
    int e, ref_e;
    int len = anim_fmt_shortest_f32(v, digits, &e);
    int ref_len = ref_shortest_f32(v, ref_digits, &ref_e);
    if (len != ref_len || e != ref_e || strcmp(digits, ref_digits) != 0)
        fail_msg("f32 %a (%.9g): digits \"%s\" e%d, want \"%s\" e%d", (double)v, (double)v,
                 digits, e, ref_digits, ref_e);
    char buf[ANIM_FMT_JSON_MAX], ref_buf[32];
    anim_fmt_f32_json(v, buf);
    ref_f32_json_of(v, ref_digits, ref_len, ref_e, ref_buf);
    if (strcmp(buf, ref_buf) != 0)
        fail_msg("f32 %a: json \"%s\", want \"%s\"", (double)v, buf, ref_buf);
    float back = strtof(buf, NULL);
    if (memcmp(&back, &v, sizeof v) != 0)
        fail_msg("f32 %a: \"%s\" does not read back", (double)v, buf);
    if (!thorough())
        return;
    if (v != 0.0f && len > g_digits(v, 9))
        fail_msg("f32 %a: \"%s\" longer than %%.9g", (double)v, digits);
    if (len > 1) {
        char t[48];
        snprintf(t, sizeof t, "%.*e", len - 2, fabs((double)v));
        if (strtof(t, NULL) == fabsf(v))
            fail_msg("f32 %a: \"%s\" is not the shortest (%s)", (double)v, digits, t);
    }
}

/* v and the values one and two ulps either side. */
static inline void check_f64_around(double v)
{
    double lo = v, hi = v;
    check_f64(v);
    for (int i = 0; i < 2; i++) {
        lo = nextafter(lo, -INFINITY);
        hi = nextafter(hi, INFINITY);
        if (isfinite(lo))
            check_f64(lo);
        if (isfinite(hi))
            check_f64(hi);
    }
}

static inline void check_f32_around(float v)
{
    float lo = v, hi = v;
    check_f32(v);
    for (int i = 0; i < 2; i++) {
        lo = nextafterf(lo, -INFINITY);
        hi = nextafterf(hi, INFINITY);
        if (isfinite(lo))
            check_f32(lo);
        if (isfinite(hi))
            check_f32(hi);
    }
}

#endif
