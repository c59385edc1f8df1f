/* AnimationCurve decoding and exact evaluation (see fbx_curve.h). */
#include "io/fbx/fbx_curve.h"

#include <math.h>
#include <string.h>

/* Weights are stored as 16-bit fractions of 9999 (0x0D05 = 3333 is the
 * default third). */
#define WEIGHT_UNIT 9999.0

static double clamp01(double w)
{
    if (!(w >= 0.0))
        return 0.0; /* also NaN */
    return w > 1.0 ? 1.0 : w;
}

static uint32_t float_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* Kochanek-Bartels tangents for a TCB key (its group stores tension,
 * continuity and bias where other keys store slopes), as slopes per
 * second over the mean of the neighbouring intervals. */
static void tcb_slopes(anim_fbx_curve *c, uint32_t i, double tension, double continuity,
                       double bias)
{
    anim_fbx_key *k = c->keys;
    uint32_t n = c->key_count;
    double prev = i > 0 ? k[i].value - k[i - 1].value : 0.0;
    double next = i + 1 < n ? k[i + 1].value - k[i].value : 0.0;
    if (i == 0)
        prev = next;
    if (i + 1 == n)
        next = prev;
    double t0 = (double)(i > 0 ? k[i - 1].time : k[i].time);
    double t1 = (double)(i + 1 < n ? k[i + 1].time : k[i].time);
    double span = (t1 - t0) / (double)ANIM_FBX_KTIME_PER_SECOND;
    if (i == 0 || i + 1 == n)
        span *= 2.0; /* one-sided: a single interval */
    if (!(span > 0.0))
        return;
    double a = (1.0 - tension) / 2.0;
    double out = a * ((1.0 + continuity) * (1.0 + bias) * prev + (1.0 - continuity) * (1.0 - bias) * next);
    double in = a * ((1.0 - continuity) * (1.0 + bias) * prev + (1.0 + continuity) * (1.0 - bias) * next);
    k[i].right_slope = out / (span / 2.0);
    if (i > 0)
        k[i - 1].next_left_slope = in / (span / 2.0);
}

int anim_fbx_curve_decode(anim_arena *arena, const char *label, const int64_t *times,
                          uint32_t time_count, const double *values, uint32_t value_count,
                          const int64_t *flags, uint32_t flag_count, const float *attr,
                          uint32_t attr_count, const int64_t *refs, uint32_t ref_count,
                          double default_value, anim_fbx_curve *out, anim_error *err)
{
    memset(out, 0, sizeof *out);
    out->default_value = default_value;
    if (time_count != value_count)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: %u KeyTime but %u KeyValueFloat", label,
                              time_count, value_count);
    if (time_count == 0)
        return 0;
    if (flag_count == 0 || ref_count != flag_count || (uint64_t)attr_count != 4u * (uint64_t)flag_count)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: %u KeyAttrFlags, %u KeyAttrRefCount and %u KeyAttrDataFloat "
                              "(expected 4 per flag) do not agree",
                              label, flag_count, ref_count, attr_count);
    uint64_t covered = 0;
    for (uint32_t g = 0; g < ref_count; g++) {
        if (refs[g] < 0 || refs[g] > (int64_t)time_count)
            return anim_error_set(err, ANIM_ERR_INVALID, "%s KeyAttrRefCount[%u]: %lld outside 0..%u",
                                  label, g, (long long)refs[g], time_count);
        covered += (uint64_t)refs[g];
    }
    if (covered != time_count)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: KeyAttrRefCount covers %llu key(s) of %u", label,
                              (unsigned long long)covered, time_count);
    anim_fbx_key *keys = anim_arena_calloc(arena, time_count, sizeof *keys);
    if (!keys)
        return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", label);
    out->keys = keys;
    out->key_count = time_count;
    uint32_t k = 0;
    for (uint32_t g = 0; g < ref_count; g++) {
        uint32_t f = (uint32_t)flags[g];
        const float *a = attr + 4u * g;
        uint32_t wbits = float_bits(a[2]);
        for (int64_t r = 0; r < refs[g]; r++, k++) {
            anim_fbx_key *key = &keys[k];
            key->time = times[k];
            key->value = values[k];
            key->right_weight = ANIM_FBX_DEFAULT_WEIGHT;
            key->next_left_weight = ANIM_FBX_DEFAULT_WEIGHT;
            if (f & ANIM_FBX_KEY_CONSTANT) {
                key->kind = (f & ANIM_FBX_KEY_CONSTANT_NEXT) ? ANIM_FBX_SEG_CONSTANT_NEXT
                                                             : ANIM_FBX_SEG_CONSTANT;
            } else if (f & ANIM_FBX_KEY_LINEAR) {
                key->kind = ANIM_FBX_SEG_LINEAR;
            } else if (f & ANIM_FBX_KEY_CUBIC) {
                key->kind = ANIM_FBX_SEG_CUBIC;
                key->right_slope = a[0];
                key->next_left_slope = a[1];
                if (f & ANIM_FBX_KEY_WEIGHTED_RIGHT)
                    key->right_weight = (double)(wbits & 0xffffu) / WEIGHT_UNIT;
                if (f & ANIM_FBX_KEY_WEIGHTED_NEXT_LEFT)
                    key->next_left_weight = (double)(wbits >> 16) / WEIGHT_UNIT;
            } else {
                return anim_error_set(err, ANIM_ERR_INVALID,
                                      "%s key %u: KeyAttrFlags 0x%x names no interpolation", label,
                                      k, f);
            }
        }
    }
    if (anim_fbx_curve_check(label, out, err) != 0)
        return -1;
    /* TCB keys last: their tangents read the neighbours' values. */
    k = 0;
    for (uint32_t g = 0; g < ref_count; g++) {
        uint32_t f = (uint32_t)flags[g];
        const float *a = attr + 4u * g;
        for (int64_t r = 0; r < refs[g]; r++, k++) {
            if ((f & ANIM_FBX_KEY_CUBIC) && !(f & (ANIM_FBX_KEY_CONSTANT | ANIM_FBX_KEY_LINEAR)) &&
                (f & ANIM_FBX_KEY_TANGENT_TCB)) {
                tcb_slopes(out, k, a[0], a[1], a[2]);
                out->tcb = true;
            }
        }
    }
    return 0;
}

int anim_fbx_curve_check(const char *label, anim_fbx_curve *c, anim_error *err)
{
    for (uint32_t k = 0; k < c->key_count; k++) {
        anim_fbx_key *key = &c->keys[k];
        if (k > 0 && key->time <= c->keys[k - 1].time)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s key %u: time %lld not after key %u's %lld", label, k,
                                  (long long)key->time, k - 1, (long long)c->keys[k - 1].time);
        if (!isfinite(key->value) || !isfinite(key->right_slope) || !isfinite(key->next_left_slope))
            return anim_error_set(err, ANIM_ERR_INVALID, "%s key %u: value or slope not finite",
                                  label, k);
        key->right_weight = clamp01(key->right_weight);
        key->next_left_weight = clamp01(key->next_left_weight);
    }
    return 0;
}

/* Index of the last key with time <= t (key_count > 0, t >= keys[0]). */
static uint32_t find_segment(const anim_fbx_curve *c, int64_t t)
{
    uint32_t lo = 0, hi = c->key_count - 1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (c->keys[mid].time <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The Bezier's normalized time x(u) for inner control points at w0 and
 * 1 - w1, and its derivative. With w0, w1 in [0, 1] x is nondecreasing. */
static double bez_x(double u, double w0, double w1)
{
    double v = 1.0 - u;
    return 3.0 * v * v * u * w0 + 3.0 * v * u * u * (1.0 - w1) + u * u * u;
}

static double bez_dx(double u, double w0, double w1)
{
    double v = 1.0 - u;
    return 3.0 * v * v * w0 + 6.0 * v * u * (1.0 - w1 - w0) + 3.0 * u * u * w1;
}

/* Solves x(u) = target on [0, 1]: Newton inside a bracket that bisection
 * keeps, down to adjacent doubles. */
static double solve_u(double target, double w0, double w1)
{
    double lo = 0.0, hi = 1.0, u = target;
    for (int it = 0; it < 200; it++) {
        double f = bez_x(u, w0, w1) - target;
        if (f == 0.0)
            return u;
        if (f < 0.0)
            lo = u;
        else
            hi = u;
        double mid = lo + (hi - lo) / 2.0;
        if (mid <= lo || mid >= hi)
            break; /* the bracket is two adjacent doubles */
        double d = bez_dx(u, w0, w1);
        double next = d > 0.0 ? u - f / d : mid;
        u = (next > lo && next < hi) ? next : mid;
    }
    double flo = fabs(bez_x(lo, w0, w1) - target), fhi = fabs(bez_x(hi, w0, w1) - target);
    return flo <= fhi ? lo : hi;
}

double anim_fbx_curve_eval(const anim_fbx_curve *c, int64_t t)
{
    if (c->key_count == 0)
        return c->default_value;
    const anim_fbx_key *first = &c->keys[0];
    if (t <= first->time)
        return first->value;
    uint32_t k = find_segment(c, t);
    const anim_fbx_key *a = &c->keys[k];
    if (k + 1 >= c->key_count)
        return a->value;
    const anim_fbx_key *b = &c->keys[k + 1];
    /* Differences of increasing int64 times: exact below 2^53 ticks. */
    double span = (double)((uint64_t)b->time - (uint64_t)a->time);
    double frac = (double)((uint64_t)t - (uint64_t)a->time) / span;
    switch (a->kind) {
    case ANIM_FBX_SEG_CONSTANT:
        return a->value;
    case ANIM_FBX_SEG_CONSTANT_NEXT:
        return b->value;
    case ANIM_FBX_SEG_LINEAR:
        return a->value + (b->value - a->value) * frac;
    case ANIM_FBX_SEG_CUBIC:
    default:
        break;
    }
    double w0 = a->right_weight, w1 = a->next_left_weight;
    double u = (w0 == ANIM_FBX_DEFAULT_WEIGHT && w1 == ANIM_FBX_DEFAULT_WEIGHT)
                   ? frac /* x(u) = u exactly: the Hermite case */
                   : solve_u(frac, w0, w1);
    double dt = span / (double)ANIM_FBX_KTIME_PER_SECOND;
    double p1 = a->value + w0 * dt * a->right_slope;
    double p2 = b->value - w1 * dt * a->next_left_slope;
    double v = 1.0 - u;
    return v * v * v * a->value + 3.0 * v * v * u * p1 + 3.0 * v * u * u * p2 + u * u * u * b->value;
}

bool anim_fbx_curve_is_stepped(const anim_fbx_curve *c)
{
    for (uint32_t k = 0; k + 1 < c->key_count; k++)
        if (c->keys[k].kind != ANIM_FBX_SEG_CONSTANT && c->keys[k].kind != ANIM_FBX_SEG_CONSTANT_NEXT)
            return false;
    return true;
}
