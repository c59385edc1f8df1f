/* Shortest round-trip and fixed-precision number formatting.
 *
 * Shortest digits follow R. Giulietti's Schubfach method ("The Schubfach way
 * to render doubles", 2020), written for this file. For v = c * 2^q the
 * decimal exponent k = floor(log10(width)) of the rounding interval is
 * chosen, so the interval holds at least one multiple of 10^k and at most
 * one of 10^(k+1). One 126-bit power of ten gives v, the lower and the upper
 * bound in units of 10^k / 4, each rounded to odd: exact enough to compare
 * with the integers that decide the answer. The result is
 *   - the multiple of 10^(k+1) inside the interval, if there is one (any
 *     shorter decimal would be a multiple of it, so it is the shortest);
 *   - else the multiple of 10^k closest to v (all such candidates have the
 *     same length), ties to the even digit.
 * That is what ryu prints and what a printf/strtod search finds: the
 * closest of the shortest decimals that read back to v, bounds included
 * exactly when strtod would round them to v (even significand). */
#include "animsmith/numfmt.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/numfmt_table.h"

/* floor(q * log10(2)), floor(log10(3/4 * 2^q)) and floor(e * log2(10)) by
 * fixed-point multiplication, exact over the ranges used here (checked by
 * tools/numfmt/gen_tables.py). The offsets keep the shifted value positive:
 * a right shift of a negative number is implementation-defined in C. */
static int floor_log10_pow2(int q)
{
    return (int)(((int64_t)q * 661971961083 + ((int64_t)512 << 41)) >> 41) - 512;
}

static int floor_log10_three_quarters_pow2(int q)
{
    return (int)(((int64_t)q * 661971961083 - 274743187321 + ((int64_t)512 << 41)) >> 41) - 512;
}

static int floor_log2_pow10(int e)
{
    return (int)(((int64_t)e * 913124641741 + ((int64_t)2048 << 38)) >> 38) - 2048;
}

/* a * b as a 128-bit value. */
static void mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 u128;
    u128 p = (u128)a * b;
    *hi = (uint64_t)(p >> 64);
    *lo = (uint64_t)p;
#else
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    *lo = (mid << 32) | (uint32_t)p00;
#endif
}

/* x = cp * beta / 2^127 rounded to odd (floor, with the low bit set when x
 * is not an integer), where g = floor(beta) + 1 is a table entry and
 * cp < 2^61. From T = floor(cp * g / 2^64): floor(x) is T >> 63 and "x is
 * not an integer" is "T's low 63 bits are not zero". cp * g over-estimates
 * cp * beta by less than 2^-67 in units of x; the Schubfach paper shows the
 * fraction of a non-integer x is never that close to 0 or 1, so neither the
 * floor nor the low bit can be disturbed. */
static uint64_t round_to_odd(const uint64_t g[2], uint64_t cp)
{
    uint64_t lo_hi, lo_lo, hi_hi, hi_lo;
    mul_64x64(cp, g[1], &lo_hi, &lo_lo);
    mul_64x64(cp, g[0], &hi_hi, &hi_lo);
    (void)lo_lo;
    uint64_t t_lo = hi_lo + lo_hi;
    uint64_t t_hi = hi_hi + (t_lo < hi_lo);
    uint64_t x = (t_hi << 1) | (t_lo >> 63);
    return x | ((t_lo & 0x7fffffffffffffffu) != 0);
}

/* The shortest decimal d * 10^e in the rounding interval of v = c * 2^q
 * (c > 0), the closest to v among those. lower_closer: v is a power of two
 * above the smallest normal, so its lower neighbour is half as far away. */
static void schubfach(uint64_t c, int q, bool lower_closer, uint64_t *d, int *e)
{
    uint64_t out = c & 1; /* odd significand: strtod rounds the bounds away */
    uint64_t cb = c << 2, cbr = cb + 2, cbl;
    int k;
    if (lower_closer) {
        cbl = cb - 1;
        k = floor_log10_three_quarters_pow2(q);
    } else {
        cbl = cb - 2;
        k = floor_log10_pow2(q);
    }
    int h = q + floor_log2_pow10(-k) + 2;
    const uint64_t *g = anim_numfmt_pow10[k - NUMFMT_K_MIN];
    uint64_t vb = round_to_odd(g, cb << h);
    uint64_t vbl = round_to_odd(g, cbl << h);
    uint64_t vbr = round_to_odd(g, cbr << h);
    uint64_t s = vb >> 2; /* floor(v / 10^k) */
    *e = k;
    /* The multiples of 10^(k+1) on either side of v. */
    uint64_t sp10 = s / 10 * 10, tp10 = sp10 + 10;
    bool upin = vbl + out <= sp10 << 2;
    bool wpin = (tp10 << 2) + out <= vbr;
    if (upin != wpin) {
        *d = upin ? sp10 : tp10;
        return;
    }
    uint64_t t = s + 1;
    bool uin = vbl + out <= s << 2;
    bool win = (t << 2) + out <= vbr;
    if (uin != win) {
        *d = uin ? s : t;
        return;
    }
    /* Both round-trip: the closer one, the even one on an exact tie. */
    uint64_t mid = (s + t) << 1;
    *d = (vb < mid || (vb == mid && (s & 1) == 0)) ? s : t;
}

/* Removes d's trailing zeros, adding them to *e. */
static void strip_zeros(uint64_t *d, int *e)
{
    while (*d % 100000000 == 0) {
        *d /= 100000000;
        *e += 8;
    }
    static const uint64_t steps[3] = {10000, 100, 10};
    for (int i = 0; i < 3; i++)
        if (*d % steps[i] == 0) {
            *d /= steps[i];
            *e += 4 >> i;
        }
}

static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
                                     "25262728293031323334353637383940414243444546474849"
                                     "50515253545556575859606162636465666768697071727374"
                                     "75767778798081828384858687888990919293949596979899";

/* Exactly `count` digits of x (x < 10^count), ending just before `end`. */
static void put_fixed_digits(char *end, uint32_t x, int count)
{
    for (; count >= 2; count -= 2) {
        end -= 2;
        memcpy(end, digit_pairs + 2 * (x % 100), 2);
        x /= 100;
    }
    if (count)
        *--end = (char)('0' + x);
}

/* d (0 < d < 10^17) as decimal digits; returns the count. The low eight
 * digits and the rest are written as two 32-bit halves, which is cheaper
 * than dividing the 64-bit value by 100 again and again. */
static int put_digits(uint64_t d, char digits[18])
{
    int n = 1;
    for (uint64_t p = 10; n < 17 && d >= p; p *= 10)
        n++;
    digits[n] = '\0';
    if (n > 8) {
        put_fixed_digits(digits + n, (uint32_t)(d % 100000000), 8);
        put_fixed_digits(digits + n - 8, (uint32_t)(d / 100000000), n - 8);
    } else {
        put_fixed_digits(digits + n, (uint32_t)d, n);
    }
    return n;
}

/* Digits and exponent (|v| == 0.DIGITS x 10^exp10) from d * 10^e. */
static int emit_decimal(uint64_t d, int e, char digits[18], int *exp10)
{
    if (d == 0) {
        digits[0] = '0';
        digits[1] = '\0';
        *exp10 = 1;
        return 1;
    }
    strip_zeros(&d, &e);
    int n = put_digits(d, digits);
    *exp10 = e + n;
    return n;
}

/* Splits a positive finite binary number (biased exponent, fraction bits t)
 * into c * 2^q and prints it. An integer below 2^(mant_bits+1) is its own
 * shortest decimal (its rounding interval is narrower than 1, and any
 * decimal with a fraction is longer), which spares the multiplications for
 * frame counts and whole values. */
static int shortest(uint64_t t, int biased, int mant_bits, int bias, char digits[18], int *exp10)
{
    if (biased == 0 && t == 0)
        return emit_decimal(0, 0, digits, exp10);
    uint64_t c;
    int q;
    bool lower_closer = false;
    if (biased == 0) {
        c = t;
        q = 1 - bias - mant_bits;
    } else {
        c = t | (uint64_t)1 << mant_bits;
        q = biased - bias - mant_bits;
        lower_closer = t == 0 && biased > 1;
        if (q < 0 && q > -mant_bits - 1 && (c & (((uint64_t)1 << -q) - 1)) == 0)
            return emit_decimal(c >> -q, 0, digits, exp10);
    }
    uint64_t d;
    int e;
    schubfach(c, q, lower_closer, &d, &e);
    return emit_decimal(d, e, digits, exp10);
}

int anim_fmt_shortest_f64(double v, char digits[18], int *exp10)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    int biased = (int)(bits >> 52 & 0x7ff);
    if (biased == 0x7ff) /* NaN or infinity: out of contract, printed as 0 */
        biased = 0, bits = 0;
    return shortest(bits & (((uint64_t)1 << 52) - 1), biased, 52, 1023, digits, exp10);
}

int anim_fmt_shortest_f32(float v, char digits[18], int *exp10)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    int biased = (int)(bits >> 23 & 0xff);
    if (biased == 0xff)
        biased = 0, bits = 0;
    return shortest(bits & ((1u << 23) - 1), biased, 23, 127, digits, exp10);
}

static char *put_zeros(char *p, int n)
{
    for (int i = 0; i < n; i++)
        *p++ = '0';
    return p;
}

/* "e%d" without printf (|x| <= 324). */
static char *put_exponent(char *p, int x)
{
    *p++ = 'e';
    if (x < 0) {
        *p++ = '-';
        x = -x;
    }
    if (x >= 100)
        *p++ = (char)('0' + x / 100);
    if (x >= 10)
        *p++ = (char)('0' + x / 10 % 10);
    *p++ = (char)('0' + x % 10);
    return p;
}

/* ryu's "pretty" layout; kk is the decimal point position (exp10) and
 * max_kk / min_kk bound the plain range (16 / -5 for f64, 13 / -6 for f32). */
static size_t layout_json(int negative, const char *d, int len, int kk, int max_kk, int min_kk,
                          char *buf)
{
    char *p = buf;
    if (negative)
        *p++ = '-';
    int k = kk - len; /* exponent of the last digit */
    if (k >= 0 && kk <= max_kk) {
        memcpy(p, d, (size_t)len);
        p += len;
        p = put_zeros(p, k);
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
        p = put_zeros(p, -kk);
        memcpy(p, d, (size_t)len);
        p += len;
    } else {
        *p++ = d[0];
        if (len > 1) {
            *p++ = '.';
            memcpy(p, d + 1, (size_t)(len - 1));
            p += len - 1;
        }
        p = put_exponent(p, kk - 1);
    }
    *p = '\0';
    return (size_t)(p - buf);
}

static size_t put_null(char *buf)
{
    memcpy(buf, "null", 5);
    return 4;
}

size_t anim_fmt_f64_json(double v, char buf[ANIM_FMT_JSON_MAX])
{
    if (!isfinite(v))
        return put_null(buf);
    char d[18];
    int kk;
    int len = anim_fmt_shortest_f64(v, d, &kk);
    if (v == 0.0)
        return layout_json(signbit(v) != 0, "0", 1, 1, 16, -5, buf);
    return layout_json(signbit(v) != 0, d, len, kk, 16, -5, buf);
}

size_t anim_fmt_f32_json(float v, char buf[ANIM_FMT_JSON_MAX])
{
    if (!isfinite(v))
        return put_null(buf);
    char d[18];
    int kk;
    int len = anim_fmt_shortest_f32(v, d, &kk);
    return layout_json(signbit(v) != 0, d, len, kk, 13, -6, buf);
}

static size_t put_nonfinite(double v, char *buf, size_t cap)
{
    const char *s = isnan(v) ? "NaN" : (v < 0 ? "-inf" : "inf");
    size_t n = strlen(s);
    if (cap > 0) {
        size_t c = n < cap - 1 ? n : cap - 1;
        memcpy(buf, s, c);
        buf[c] = '\0';
    }
    return n;
}

size_t anim_fmt_f64_plain(double v, char buf[ANIM_FMT_PLAIN_MAX])
{
    if (!isfinite(v))
        return put_nonfinite(v, buf, ANIM_FMT_PLAIN_MAX);
    char d[18];
    int kk;
    int len = anim_fmt_shortest_f64(v, d, &kk);
    char *p = buf;
    if (signbit(v))
        *p++ = '-';
    if (kk <= 0) {
        *p++ = '0';
        *p++ = '.';
        p = put_zeros(p, -kk);
        memcpy(p, d, (size_t)len);
        p += len;
    } else if (kk >= len) {
        memcpy(p, d, (size_t)len);
        p += len;
        p = put_zeros(p, kk - len);
    } else {
        memcpy(p, d, (size_t)kk);
        p += kk;
        *p++ = '.';
        memcpy(p, d + kk, (size_t)(len - kk));
        p += len - kk;
    }
    *p = '\0';
    return (size_t)(p - buf);
}

size_t anim_fmt_fixed(double v, int decimals, char *buf, size_t cap)
{
    if (!isfinite(v))
        return put_nonfinite(v, buf, cap);
    if (decimals < 0)
        decimals = 0;
    /* A hostile file can carry a key time of 1e38 s: printed in full that is
     * 39 digits no reader can take in. At 1e12 and beyond, switch to
     * exponent form with the same number of decimals; no real clip, frame
     * count or measurement comes near it. */
    if (fabs(v) >= 1e12) {
        int n = snprintf(buf, cap, "%.*e", decimals, v);
        return n < 0 ? 0 : (size_t)n;
    }
    int n = snprintf(buf, cap, "%.*f", decimals, v);
    return n < 0 ? 0 : (size_t)n;
}

void anim_strbuf_put_f64_json(anim_strbuf *sb, double v)
{
    char buf[ANIM_FMT_JSON_MAX];
    size_t n = anim_fmt_f64_json(v, buf);
    anim_strbuf_append(sb, buf, n);
}

void anim_strbuf_put_f32_json(anim_strbuf *sb, float v)
{
    char buf[ANIM_FMT_JSON_MAX];
    size_t n = anim_fmt_f32_json(v, buf);
    anim_strbuf_append(sb, buf, n);
}

void anim_strbuf_put_f64_plain(anim_strbuf *sb, double v)
{
    char buf[ANIM_FMT_PLAIN_MAX];
    size_t n = anim_fmt_f64_plain(v, buf);
    anim_strbuf_append(sb, buf, n);
}

void anim_strbuf_put_fixed(anim_strbuf *sb, double v, int decimals)
{
    char small[64];
    size_t n = anim_fmt_fixed(v, decimals, small, sizeof small);
    if (n < sizeof small) {
        anim_strbuf_append(sb, small, n);
        return;
    }
    char *big = malloc(n + 1);
    if (!big) {
        sb->failed = true;
        return;
    }
    anim_fmt_fixed(v, decimals, big, n + 1);
    anim_strbuf_append(sb, big, n);
    free(big);
}
