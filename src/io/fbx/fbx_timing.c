/* Exact FBX timing evidence: the integer KTime period of a frame. A whole
 * end frame, or a key on the frame lattice, is a question about integers;
 * answering it through seconds or a decimal frame rate would round
 * (30000/1001 fps has no exact period in ticks, 30 fps has 1539538600). */
#include <math.h>

#include "animsmith/fbx.h"

const char *anim_fbx_span_source_name(anim_fbx_span_source s)
{
    switch (s) {
    case ANIM_FBX_SPAN_STACK: return "stack";
    case ANIM_FBX_SPAN_KEYS: return "keys";
    default: return "none";
    }
}

const char *anim_fbx_coverage_name(anim_fbx_coverage c)
{
    return c == ANIM_FBX_COVERAGE_COMPLETE ? "complete" : "partial";
}

/* Frames per second of each FbxTime::EMode as an exact fraction num/den
 * (den 0: the mode states no rate: 0 default, 14 custom, handled apart).
 * The same table as anim_fbx_frame_rate, kept as integers. */
static const struct {
    int64_t num, den;
} MODE_RATES[19] = {
    {0, 0},          /* 0 default: the reading application's rate */
    {120, 1},        /* 1 */
    {100, 1},        /* 2 */
    {60, 1},         /* 3 */
    {50, 1},         /* 4 */
    {48, 1},         /* 5 */
    {30, 1},         /* 6 */
    {30, 1},         /* 7 30 drop (drop-frame timecode, 30 frames a second) */
    {30000, 1001},   /* 8 NTSC drop frame */
    {30000, 1001},   /* 9 NTSC full frame */
    {25, 1},         /* 10 PAL */
    {24, 1},         /* 11 cinema */
    {1000, 1},       /* 12 milliseconds */
    {24000, 1001},   /* 13 film full frame */
    {0, 0},          /* 14 custom */
    {96, 1},         /* 15 */
    {72, 1},         /* 16 */
    {60000, 1001},   /* 17 */
    {120000, 1001},  /* 18 */
};

/* K / rate for rate = m * 2^e (m odd), when that is a whole number of
 * ticks that fits; 0 otherwise. */
static int64_t dyadic_period(int64_t m, int e)
{
    const int64_t k = ANIM_FBX_KTIME_PER_SECOND; /* 2^4 * 3 * 5^3 * 7697693 */
    if (m <= 0)
        return 0;
    if (e >= 0) {
        /* K / (m * 2^e): K holds 2^4, so e beyond 4 never divides. */
        if (e > 4 || m > k)
            return 0;
        int64_t d = m << e;
        return k % d == 0 ? k / d : 0;
    }
    if (k % m != 0)
        return 0;
    int64_t q = k / m;
    int s = -e;
    if (s > 62 || q > (INT64_MAX >> s))
        return 0;
    return q << s;
}

int64_t anim_fbx_frame_period_ktime(int64_t time_mode, double custom_rate)
{
    const int64_t k = ANIM_FBX_KTIME_PER_SECOND;
    if (time_mode == 14) {
        if (!isfinite(custom_rate) || !(custom_rate > 0.0))
            return 0;
        /* The double's exact value m * 2^e: frexp gives f in [0.5, 1), and
         * f * 2^53 is an integer for every double. */
        int e2 = 0;
        double f = frexp(custom_rate, &e2);
        int64_t m = (int64_t)ldexp(f, 53);
        int e = e2 - 53;
        while (m % 2 == 0) {
            m /= 2;
            e++;
        }
        return dyadic_period(m, e);
    }
    if (time_mode < 0 || time_mode > 18 || MODE_RATES[time_mode].den == 0)
        return 0;
    /* K * den / num, exact only when num divides K * den (K * 1001 < 2^63). */
    int64_t num = MODE_RATES[time_mode].num, den = MODE_RATES[time_mode].den;
    int64_t scaled = k * den;
    return scaled % num == 0 ? scaled / num : 0;
}

bool anim_fbx_frame_lattice(int64_t ktime, int64_t period, int64_t *frame, int64_t *rest)
{
    *frame = *rest = 0;
    if (period <= 0)
        return false;
    int64_t q = ktime / period, r = ktime % period;
    if (r < 0) { /* C truncates toward zero: step down to the floor */
        r += period;
        q--;
    }
    *frame = q;
    *rest = r;
    return r == 0;
}
