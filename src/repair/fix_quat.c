/* Quaternion bytes and the fix command's arithmetic. Sums are taken in f64
 * after scaling by the largest component: a binary32 sum of squares
 * overflows to +inf once a component reaches about 1.84e19, and dividing
 * by that length would write (0,0,0,0) as a "repaired" key. */
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

/* The largest |component| of a finite key, the scale that keeps every
 * square of the scaled key in [0, 1]. */
static double max_abs(const float q[4])
{
    double m = 0.0;
    for (int i = 0; i < 4; i++)
        m = fmax(m, fabs((double)q[i]));
    return m;
}

double fix_quat_dot(const float a[4], const float b[4])
{
    double sa = max_abs(a), sb = max_abs(b);
    if (sa == 0.0 || sb == 0.0)
        return 0.0;
    double sum = 0.0;
    for (int i = 0; i < 4; i++)
        sum += ((double)a[i] / sa) * ((double)b[i] / sb);
    /* Only the sign decides a flip; the scale restores the magnitude. */
    return sum * sa * sb;
}

double fix_quat_length(const float q[4])
{
    double m = max_abs(q);
    if (m == 0.0)
        return 0.0;
    double sum = 0.0;
    for (int i = 0; i < 4; i++) {
        double s = (double)q[i] / m;
        sum += s * s;
    }
    return m * sqrt(sum);
}
