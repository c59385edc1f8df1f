/* Quaternion bytes and the fix command's f32 arithmetic. The spec pins the
 * repair to binary32 sums accumulated in x, y, z, w order (Appendix C), so
 * that a key's "is it unit" and "which hemisphere" decisions, and the
 * normalized bytes written, match the peer bit for bit. */
#include <math.h>
#include <string.h>

#include "repair/fix_internal.h"

static float load_f32(const uint8_t *p)
{
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                 (uint32_t)p[3] << 24;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static void store_f32(uint8_t *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    p[0] = (uint8_t)u;
    p[1] = (uint8_t)(u >> 8);
    p[2] = (uint8_t)(u >> 16);
    p[3] = (uint8_t)(u >> 24);
}

void fix_quat_load(const uint8_t *p, float q[4])
{
    for (int i = 0; i < 4; i++)
        q[i] = load_f32(p + 4 * i);
}

void fix_quat_store(uint8_t *p, const float q[4])
{
    for (int i = 0; i < 4; i++)
        store_f32(p + 4 * i, q[i]);
}

/* One product and one sum per statement: C allows contracting a*b+c into
 * an FMA only within one expression, and a fused sum would round
 * differently from the peer's. */
float fix_quat_dot(const float a[4], const float b[4])
{
    float sum = a[0] * b[0];
    for (int i = 1; i < 4; i++) {
        float p = a[i] * b[i];
        sum = sum + p;
    }
    return sum;
}

float fix_quat_length(const float q[4])
{
    return sqrtf(fix_quat_dot(q, q));
}
