/* The earlier shortest-digits printer, kept as the reference the fast one
 * (src/core/numfmt.c) must match byte for byte: a printf/strtod search, slow
 * but obviously right. Shared by tests/unit/test_numfmt_random.c and
 * fuzz/fuzz_numfmt.c; everything here is static (inline where a user may not need it).
 *
 * For each precision p, printf's "%.{p}e" yields the correctly rounded
 * (p+1)-digit decimal, the closest candidate of that length. If it parses
 * back to the same value, it is what ryu prints. Near a power of two the
 * rounding interval is asymmetric, so the closest candidate can miss while
 * its neighbour on the other side still round-trips; ryu would print that
 * neighbour, so it is tried too before moving to p+1 digits. */
#ifndef ANIMSMITH_TEST_NUMFMT_REFERENCE_H
#define ANIMSMITH_TEST_NUMFMT_REFERENCE_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Candidate M x 10^q parses back to exactly `v` (as double or float). */
static int ref_round_trips(uint64_t m, int q, double v, int is_f32)
{
    char text[48];
    snprintf(text, sizeof text, "%llue%d", (unsigned long long)m, q);
    if (is_f32) {
        float f = strtof(text, NULL);
        return f == (float)v;
    }
    return strtod(text, NULL) == v;
}

/* Writes the significant digits of m (trailing zeros stripped) and the
 * exponent such that m x 10^q == 0.DIGITS x 10^exp10. */
static int ref_emit_digits(uint64_t m, int q, char digits[18], int *exp10)
{
    char tmp[24];
    int n = snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)m);
    int len = n;
    while (len > 1 && tmp[len - 1] == '0')
        len--;
    memcpy(digits, tmp, (size_t)len);
    digits[len] = '\0';
    *exp10 = q + n;
    return len;
}

/* The p+1-significant-digit candidate that round-trips, preferring the
 * correctly rounded one, then its upper and lower neighbours. */
static bool ref_candidate_at(double mag, int is_f32, int p, uint64_t *out_m, int *out_q)
{
    char text[48];
    snprintf(text, sizeof text, "%.*e", p, mag);
    /* text is "D.DDDDe[+-]XX" (no '.' when p == 0). */
    uint64_t m = 0;
    const char *s = text;
    for (; *s && *s != 'e'; s++)
        if (*s >= '0' && *s <= '9')
            m = m * 10 + (uint64_t)(*s - '0');
    int q = atoi(s + 1) - p;
    uint64_t tries[3] = {m, m + 1, m - 1};
    int count = m > 1 ? 3 : 2;
    for (int i = 0; i < count; i++)
        if (ref_round_trips(tries[i], q, mag, is_f32)) {
            *out_m = tries[i];
            *out_q = q;
            return true;
        }
    return false;
}

static int ref_shortest(double mag, int is_f32, int max_p, char digits[18], int *exp10)
{
    if (mag == 0.0) {
        digits[0] = '0';
        digits[1] = '\0';
        *exp10 = 1;
        return 1;
    }
    /* "Some p-digit candidate round-trips" is monotone in p: binary search
     * for the smallest p. */
    int lo = 0, hi = max_p;
    uint64_t best_m = 0;
    int best_q = 0;
    bool have = false;
    while (lo <= hi) {
        int p = lo + (hi - lo) / 2;
        uint64_t m;
        int q;
        if (ref_candidate_at(mag, is_f32, p, &m, &q)) {
            best_m = m;
            best_q = q;
            have = true;
            hi = p - 1;
        } else {
            lo = p + 1;
        }
    }
    if (!have) {
        /* Unreachable for finite input: 17 (9 for f32) digits always round-trip. */
        char text[48];
        snprintf(text, sizeof text, "%.*e", max_p, mag);
        uint64_t m = 0;
        const char *s = text;
        for (; *s && *s != 'e'; s++)
            if (*s >= '0' && *s <= '9')
                m = m * 10 + (uint64_t)(*s - '0');
        return ref_emit_digits(m, atoi(s + 1) - max_p, digits, exp10);
    }
    return ref_emit_digits(best_m, best_q, digits, exp10);
}

static int ref_shortest_f64(double v, char digits[18], int *exp10)
{
    return ref_shortest(fabs(v), 0, 16, digits, exp10);
}

static int ref_shortest_f32(float v, char digits[18], int *exp10)
{
    return ref_shortest(fabs((double)v), 1, 8, digits, exp10);
}

static char *ref_put_zeros(char *p, int n)
{
    for (int i = 0; i < n; i++)
        *p++ = '0';
    return p;
}

/* ryu's "pretty" layout; kk is the decimal point position (exp10) and
 * max_kk / min_kk bound the plain range (16 / -5 for f64, 13 / -6 for f32). */
static size_t ref_layout_json(int negative, const char *d, int len, int kk, int max_kk,
                              int min_kk, char *buf)
{
    char *p = buf;
    if (negative)
        *p++ = '-';
    int k = kk - len; /* exponent of the last digit */
    if (k >= 0 && kk <= max_kk) {
        memcpy(p, d, (size_t)len);
        p += len;
        p = ref_put_zeros(p, k);
        *p++ = '.';
        *p++ = '0';
    } else if (kk > 0 && kk <= max_kk) {
        memcpy(p, d, (size_t)kk);
        p += kk;
        *p++ = '.';
        memcpy(p, d + kk, (size_t)(len - kk));
        p += len - kk;
    } else if (kk > min_kk && kk <= 0) {
        *p++ = '0';
        *p++ = '.';
        p = ref_put_zeros(p, -kk);
        memcpy(p, d, (size_t)len);
        p += len;
    } else {
        *p++ = d[0];
        if (len > 1) {
            *p++ = '.';
            memcpy(p, d + 1, (size_t)(len - 1));
            p += len - 1;
        }
        p += sprintf(p, "e%d", kk - 1);
    }
    *p = '\0';
    return (size_t)(p - buf);
}

/* JSON f64 of a finite v from its reference digits, as anim_fmt_f64_json
 * printed it. */
static inline size_t ref_f64_json_of(double v, const char *d, int len, int kk, char buf[32])
{
    if (v == 0.0)
        return ref_layout_json(signbit(v) != 0, "0", 1, 1, 16, -5, buf);
    return ref_layout_json(signbit(v) != 0, d, len, kk, 16, -5, buf);
}

static inline size_t ref_f64_json(double v, char buf[32])
{
    char d[18];
    int kk;
    int len = ref_shortest_f64(v, d, &kk);
    return ref_f64_json_of(v, d, len, kk, buf);
}

/* The same for a finite float (anim_fmt_f32_json). */
static inline size_t ref_f32_json_of(float v, const char *d, int len, int kk, char buf[32])
{
    return ref_layout_json(signbit(v) != 0, d, len, kk, 13, -6, buf);
}

static inline size_t ref_f32_json(float v, char buf[32])
{
    char d[18];
    int kk;
    int len = ref_shortest_f32(v, d, &kk);
    return ref_f32_json_of(v, d, len, kk, buf);
}

#endif
