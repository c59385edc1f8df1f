/* Number formatting for every text and JSON output.
 *
 * Messages and JSON use three families of formats:
 *   - JSON numbers: shortest round-trip digits, integral values keep
 *     ".0", exponent form outside a fixed range;
 *   - "plain display": shortest digits, never an exponent, no ".0" for
 *     integral values;
 *   - fixed precision (printf "%.Nf") with NaN, inf and -inf spelled
 *     so, and exponent form for huge magnitudes. */
#ifndef ANIMSMITH_NUMFMT_H
#define ANIMSMITH_NUMFMT_H

#include <stddef.h>

#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Large enough for any JSON-form number ("-2.2250738585072014e-308"). */
#define ANIM_FMT_JSON_MAX 32
/* Large enough for any plain-display f64 (5e-324 needs 326 characters). */
#define ANIM_FMT_PLAIN_MAX 352

/* Shortest decimal digits that round-trip v (finite, non-zero magnitude
 * taken): writes the significant digits (no trailing zeros, at most 17,
 * NUL-terminated) and sets *exp10 so that |v| == 0.DIGITS x 10^exp10.
 * Among the shortest candidates the one closest to v is chosen (ryu).
 * Returns the digit count; for 0 it writes "0" and sets *exp10 = 1. */
int anim_fmt_shortest_f64(double v, char digits[18], int *exp10);
/* The same for binary32: digits that round-trip the float (at most 9). */
int anim_fmt_shortest_f32(float v, char digits[18], int *exp10);

/* JSON f64: plain for 1e-5 <= |v| < 1e16, else "1e-7",
 * "3.6739403974420595e-17", "1.2e16". Non-finite prints "null" (callers
 * should not rely on it: JSON has no non-finite numbers). Returns the
 * length. */
size_t anim_fmt_f64_json(double v, char buf[ANIM_FMT_JSON_MAX]);
/* JSON f32: digits that round-trip the float, plain for
 * 1e-6 <= |v| < 1e13. */
size_t anim_fmt_f32_json(float v, char buf[ANIM_FMT_JSON_MAX]);

/* Plain display: 30 -> "30", 0.5 -> "0.5", 1e-7 -> "0.0000001",
 * -0.0 -> "-0", NaN -> "NaN", inf -> "inf", -inf -> "-inf". */
size_t anim_fmt_f64_plain(double v, char buf[ANIM_FMT_PLAIN_MAX]);

/* "%.{decimals}f" with NaN -> "NaN", inf -> "inf" / "-inf", and
 * "%.{decimals}e" at magnitudes of 1e12 and beyond. Like snprintf,
 * returns the length the full text needs (writes at most cap-1 chars). */
size_t anim_fmt_fixed(double v, int decimals, char *buf, size_t cap);

/* strbuf conveniences for the formats above. */
void anim_strbuf_put_f64_json(anim_strbuf *sb, double v);
void anim_strbuf_put_f32_json(anim_strbuf *sb, float v);
void anim_strbuf_put_f64_plain(anim_strbuf *sb, double v);
void anim_strbuf_put_fixed(anim_strbuf *sb, double v, int decimals);

#ifdef __cplusplus
}
#endif
#endif
