/* quat-norm: divide each non-unit rotation key by its length. Lossless
 * because a rotation is the direction of the quaternion; engines that skip
 * renormalization would otherwise scale or shear the pose. */
#include <float.h>
#include <math.h>

#include "repair/fix_internal.h"

static const double tolerance = 1e-3;

static bool all_finite(const float q[4])
{
    return isfinite(q[0]) && isfinite(q[1]) && isfinite(q[2]) && isfinite(q[3]);
}

/* A key this pass would change or must refuse: zero length (2^-23 is
 * FLT_EPSILON) or off unit by more than 1e-3. */
static bool off_unit(double len)
{
    return len <= FLT_EPSILON || fabs(len - 1.0) > tolerance;
}

/* Cubic keys are never modified: scaling a value without its tangents
 * would change the curve between keys, so that would not be lossless. */
static uint32_t cubic_track(const fix_span *span, const char **skip)
{
    for (uint32_t k = 0; k < span->keys; k++) {
        float q[4];
        fix_quat_load(span->base + ((size_t)k * 3 + 1) * span->stride, q);
        if (all_finite(q) && off_unit(fix_quat_length(q))) {
            *skip = "cubic rotation output (quat-norm skipped to preserve tangents)";
            break;
        }
    }
    return 0;
}

/* The normalized key, rounded to f32, or false when the rounded result is
 * not a finite unit quaternion (then nothing may be written). */
static bool normalize(const float q[4], double len, float out[4])
{
    for (int i = 0; i < 4; i++)
        out[i] = (float)((double)q[i] / len);
    return all_finite(out) && !off_unit(fix_quat_length(out));
}

uint32_t fix_quat_norm_track(const fix_span *span, const char **skip)
{
    *skip = NULL;
    if (span->cubic)
        return cubic_track(span, skip);
    uint32_t fixed = 0;
    for (uint32_t k = 0; k < span->keys; k++) {
        uint8_t *p = span->base + (size_t)k * span->stride;
        float q[4];
        fix_quat_load(p, q);
        /* Keys without a direction cannot be normalized losslessly; the
         * last such reason of the track is the one reported. */
        if (!all_finite(q)) {
            *skip = "non-finite rotation key";
            continue;
        }
        double len = fix_quat_length(q);
        if (len <= FLT_EPSILON) {
            *skip = "zero-length rotation key";
            continue;
        }
        if (!off_unit(len))
            continue;
        float unit[4];
        if (!normalize(q, len, unit)) {
            *skip = "rotation key cannot be normalized in f32";
            continue;
        }
        fix_quat_store(p, unit);
        fixed++;
    }
    return fixed;
}
