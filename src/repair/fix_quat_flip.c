/* quat-flip: a hemisphere chain. q and -q are the same
 * rotation, but an engine interpolating between keys on opposite
 * hemispheres spins the long way; negating the later key is lossless. The
 * chain compares each key with the previous key as it ends up after the
 * repair, not with a fixed reference. */
#include "repair/fix_internal.h"

/* Negation is the sign bit of each little-endian f32 (byte 3): exact for
 * every value, NaN payloads included, with no round trip through a float
 * register that could quiet a signaling NaN. */
static void negate_at(uint8_t *p)
{
    for (int i = 0; i < 4; i++)
        p[4 * i + 3] ^= 0x80;
}

uint32_t fix_quat_flip_track(const fix_span *span)
{
    uint32_t flipped = 0;
    float prev[4];
    bool have_prev = false;
    for (uint32_t k = 0; k < span->keys; k++) {
        size_t first = (size_t)k * span->per_key;
        size_t value = first + (span->cubic ? 1 : 0);
        float q[4];
        fix_quat_load(span->base + value * span->stride, q);
        /* A NaN dot compares false: non-finite keys never flip. */
        if (have_prev && fix_quat_dot(prev, q) < 0.0) {
            /* Cubic: in-tangent, value and out-tangent flip together, so
             * the Hermite curve is negated as a whole. */
            for (uint32_t e = 0; e < span->per_key; e++)
                negate_at(span->base + (first + e) * span->stride);
            for (int i = 0; i < 4; i++)
                q[i] = -q[i];
            flipped++;
        }
        for (int i = 0; i < 4; i++)
            prev[i] = q[i];
        have_prev = true;
    }
    return flipped;
}
