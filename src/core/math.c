/* f64 vec3 / quaternion / mat4 (see include/animsmith/math.h). */
#include "animsmith/math.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

double anim_deg_from_rad(double rad) { return rad * (180.0 / ANIM_PI); }
double anim_rad_from_deg(double deg) { return deg * (ANIM_PI / 180.0); }

/* ---- vec3 ---- */

anim_vec3 anim_vec3_make(double x, double y, double z)
{
    anim_vec3 v = {x, y, z};
    return v;
}

anim_vec3 anim_vec3_from_f32(const float *v)
{
    return anim_vec3_make((double)v[0], (double)v[1], (double)v[2]);
}

anim_vec3 anim_vec3_from_array(const double *v) { return anim_vec3_make(v[0], v[1], v[2]); }

anim_vec3 anim_vec3_add(anim_vec3 a, anim_vec3 b) { return anim_vec3_make(a.x + b.x, a.y + b.y, a.z + b.z); }
anim_vec3 anim_vec3_sub(anim_vec3 a, anim_vec3 b) { return anim_vec3_make(a.x - b.x, a.y - b.y, a.z - b.z); }
anim_vec3 anim_vec3_scale(anim_vec3 a, double s) { return anim_vec3_make(a.x * s, a.y * s, a.z * s); }
anim_vec3 anim_vec3_mul(anim_vec3 a, anim_vec3 b) { return anim_vec3_make(a.x * b.x, a.y * b.y, a.z * b.z); }
anim_vec3 anim_vec3_neg(anim_vec3 a) { return anim_vec3_make(-a.x, -a.y, -a.z); }

double anim_vec3_dot(anim_vec3 a, anim_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

anim_vec3 anim_vec3_cross(anim_vec3 a, anim_vec3 b)
{
    return anim_vec3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

double anim_vec3_len(anim_vec3 a) { return sqrt(anim_vec3_dot(a, a)); }
double anim_vec3_dist(anim_vec3 a, anim_vec3 b) { return anim_vec3_len(anim_vec3_sub(a, b)); }

anim_vec3 anim_vec3_normalize(anim_vec3 a)
{
    double len = anim_vec3_len(a);
    if (!(len > 0.0) || !isfinite(len))
        return anim_vec3_make(0.0, 0.0, 0.0);
    return anim_vec3_scale(a, 1.0 / len);
}

anim_vec3 anim_vec3_lerp(anim_vec3 a, anim_vec3 b, double u)
{
    double w = 1.0 - u;
    return anim_vec3_make(a.x * w + b.x * u, a.y * w + b.y * u, a.z * w + b.z * u);
}

bool anim_vec3_is_finite(anim_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

double anim_off_whole(double x)
{
    double a = fabs(x);
    /* From 2^52 up every double is whole (and x - x is 0, or NaN for an
     * infinity or a NaN). Below it, adding and taking away 2^52 rounds a
     * to the nearest whole number in the default rounding mode. */
    if (!(a < 0x1p52))
        return fabs(x - x);
    double r = (a + 0x1p52) - 0x1p52;
    return fabs(a - r);
}

size_t anim_f32_first_nonfinite(const float *v, size_t n)
{
    /* Blocks of 64 floats are tested without a branch per float (an
     * exponent of all ones is an infinity or a NaN, exactly !isfinite),
     * so the compiler vectorizes them; the block that holds one is then
     * walked for the exact index. */
    enum { BLOCK = 64 };
    size_t i = 0;
    for (; n - i >= BLOCK; i += BLOCK) {
        uint32_t bad = 0;
        for (size_t j = 0; j < BLOCK; j++) {
            uint32_t bits;
            memcpy(&bits, &v[i + j], sizeof bits);
            bad |= (uint32_t)((bits & 0x7f800000u) == 0x7f800000u);
        }
        if (bad)
            break;
    }
    for (; i < n; i++)
        if (!isfinite(v[i]))
            return i;
    return n;
}

bool anim_f32_strictly_increasing(const float *v, size_t n)
{
    /* As above: blocks without a branch per pair; !(a > b) is true for
     * a NaN on either side, as the per-pair test is. */
    enum { BLOCK = 64 };
    size_t k = 1;
    for (; n >= BLOCK + k; k += BLOCK) {
        int bad = 0;
        for (size_t j = 0; j < BLOCK; j++)
            bad |= !(v[k + j] > v[k + j - 1]);
        if (bad)
            return false;
    }
    for (; k < n; k++)
        if (!(v[k] > v[k - 1]))
            return false;
    return true;
}

/* ---- quaternions ---- */

anim_quat anim_quat_make(double x, double y, double z, double w)
{
    anim_quat q = {x, y, z, w};
    return q;
}

anim_quat anim_quat_identity(void) { return anim_quat_make(0.0, 0.0, 0.0, 1.0); }

anim_quat anim_quat_from_f32(const float *v)
{
    return anim_quat_make((double)v[0], (double)v[1], (double)v[2], (double)v[3]);
}

anim_quat anim_quat_from_array(const double *v) { return anim_quat_make(v[0], v[1], v[2], v[3]); }

anim_quat anim_quat_from_axis_angle(anim_vec3 axis, double angle_rad)
{
    anim_vec3 n = anim_vec3_normalize(axis);
    double s = sin(angle_rad * 0.5);
    return anim_quat_make(n.x * s, n.y * s, n.z * s, cos(angle_rad * 0.5));
}

anim_quat anim_quat_mul(anim_quat a, anim_quat b)
{
    return anim_quat_make(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                          a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                          a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}

anim_quat anim_quat_conj(anim_quat q) { return anim_quat_make(-q.x, -q.y, -q.z, q.w); }
anim_quat anim_quat_neg(anim_quat q) { return anim_quat_make(-q.x, -q.y, -q.z, -q.w); }
anim_quat anim_quat_scale(anim_quat q, double s) { return anim_quat_make(q.x * s, q.y * s, q.z * s, q.w * s); }

anim_quat anim_quat_add(anim_quat a, anim_quat b)
{
    return anim_quat_make(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

double anim_quat_dot(anim_quat a, anim_quat b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
double anim_quat_len(anim_quat q) { return sqrt(anim_quat_dot(q, q)); }

anim_quat anim_quat_normalize(anim_quat q)
{
    /* True division of every lane (not a multiply by 1/len, which rounds
     * twice); a zero quaternion becomes NaN on purpose (see the header). */
    double len = anim_quat_len(q);
    return anim_quat_make(q.x / len, q.y / len, q.z / len, q.w / len);
}

anim_vec3 anim_quat_rotate(anim_quat q, anim_vec3 v)
{
    /* v' = v + w·t + u×t with u = q.xyz, t = 2 (u × v). */
    anim_vec3 u = anim_vec3_make(q.x, q.y, q.z);
    anim_vec3 t = anim_vec3_scale(anim_vec3_cross(u, v), 2.0);
    return anim_vec3_add(anim_vec3_add(v, anim_vec3_scale(t, q.w)), anim_vec3_cross(u, t));
}

double anim_quat_angle_between(anim_quat a, anim_quat b)
{
    double d = fabs(anim_quat_dot(a, b));
    if (d > 1.0)
        d = 1.0;
    return 2.0 * acos(d);
}

anim_quat anim_quat_slerp(anim_quat a, anim_quat b, double u)
{
    double d = anim_quat_dot(a, b);
    if (d < 0.0) {
        b = anim_quat_neg(b);
        d = -d;
    }
    if (d > ANIM_SLERP_LERP_THRESHOLD) {
        anim_quat l = anim_quat_add(anim_quat_scale(a, 1.0 - u), anim_quat_scale(b, u));
        return anim_quat_normalize(l);
    }
    double theta = acos(d);
    double s = sin(theta);
    /* At u = 0 (a sample time equal to a key time) the two other sines
     * are known exactly: theta·(1−0) is theta, and theta·(+0) is +0 for the
     * finite theta of acos (sin(+0) = +0), so s0 = s and s1 = +0 give the
     * same bits as calling sin. A NaN theta takes the general path. */
    bool at_start = u == 0.0 && !signbit(u) && !isnan(theta);
    double s0 = at_start ? s : sin(theta * (1.0 - u));
    double s1 = at_start ? 0.0 : sin(theta * u);
    return anim_quat_make((a.x * s0 + b.x * s1) / s, (a.y * s0 + b.y * s1) / s,
                          (a.z * s0 + b.z * s1) / s, (a.w * s0 + b.w * s1) / s);
}

bool anim_quat_is_finite(anim_quat q)
{
    return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w);
}

anim_quat anim_quat_from_mat3(const double *m3)
{
/* Element (row r, column c) of the column-major 3x3. */
#define M(r, c) m3[(c) * 3 + (r)]
    double m00 = M(0, 0), m11 = M(1, 1), m22 = M(2, 2);
    double trace = m00 + m11 + m22;
    anim_quat q;
    /* Take the square root of the largest of w², x², y², z² (up to the
     * common factor 4) so the divisor is never small. */
    if (trace >= 0.0) {
        double s = sqrt(1.0 + trace);
        q.w = 0.5 * s;
        s = 0.5 / s;
        q.x = (M(2, 1) - M(1, 2)) * s;
        q.y = (M(0, 2) - M(2, 0)) * s;
        q.z = (M(1, 0) - M(0, 1)) * s;
    } else if (m00 > m11 && m00 > m22) {
        double s = sqrt(1.0 + m00 - m11 - m22);
        q.x = 0.5 * s;
        s = 0.5 / s;
        q.y = (M(0, 1) + M(1, 0)) * s;
        q.z = (M(2, 0) + M(0, 2)) * s;
        q.w = (M(2, 1) - M(1, 2)) * s;
    } else if (m11 > m22) {
        double s = sqrt(1.0 + m11 - m00 - m22);
        q.y = 0.5 * s;
        s = 0.5 / s;
        q.x = (M(0, 1) + M(1, 0)) * s;
        q.z = (M(1, 2) + M(2, 1)) * s;
        q.w = (M(0, 2) - M(2, 0)) * s;
    } else {
        double s = sqrt(1.0 + m22 - m00 - m11);
        q.z = 0.5 * s;
        s = 0.5 / s;
        q.x = (M(2, 0) + M(0, 2)) * s;
        q.y = (M(1, 2) + M(2, 1)) * s;
        q.w = (M(1, 0) - M(0, 1)) * s;
    }
#undef M
    return q;
}

/* ---- mat4 ---- */

anim_mat4 anim_mat4_identity(void)
{
    anim_mat4 r = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}};
    return r;
}

anim_mat4 anim_mat4_from_trs(anim_vec3 t, anim_quat q, anim_vec3 s)
{
    /* The standard rotation-matrix formula, quaternion used as given (not
     * normalized), so a non-unit key shows up in the matrix. */
    double x2 = q.x + q.x, y2 = q.y + q.y, z2 = q.z + q.z;
    double xx = q.x * x2, xy = q.x * y2, xz = q.x * z2;
    double yy = q.y * y2, yz = q.y * z2, zz = q.z * z2;
    double wx = q.w * x2, wy = q.w * y2, wz = q.w * z2;
    anim_mat4 r;
    r.m[0] = (1.0 - (yy + zz)) * s.x;
    r.m[1] = (xy + wz) * s.x;
    r.m[2] = (xz - wy) * s.x;
    r.m[3] = 0.0;
    r.m[4] = (xy - wz) * s.y;
    r.m[5] = (1.0 - (xx + zz)) * s.y;
    r.m[6] = (yz + wx) * s.y;
    r.m[7] = 0.0;
    r.m[8] = (xz + wy) * s.z;
    r.m[9] = (yz - wx) * s.z;
    r.m[10] = (1.0 - (xx + yy)) * s.z;
    r.m[11] = 0.0;
    r.m[12] = t.x;
    r.m[13] = t.y;
    r.m[14] = t.z;
    r.m[15] = 1.0;
    return r;
}

anim_mat4 anim_mat4_mul(const anim_mat4 *a, const anim_mat4 *b)
{
    anim_mat4 r;
    for (int c = 0; c < 4; c++) {
        const double *bc = &b->m[c * 4];
        for (int row = 0; row < 4; row++) {
            r.m[c * 4 + row] = ((a->m[row] * bc[0] + a->m[4 + row] * bc[1]) + a->m[8 + row] * bc[2]) +
                               a->m[12 + row] * bc[3];
        }
    }
    return r;
}

anim_vec3 anim_mat4_transform_point(const anim_mat4 *m, anim_vec3 p)
{
    const double *a = m->m;
    return anim_vec3_make(a[0] * p.x + a[4] * p.y + a[8] * p.z + a[12],
                          a[1] * p.x + a[5] * p.y + a[9] * p.z + a[13],
                          a[2] * p.x + a[6] * p.y + a[10] * p.z + a[14]);
}

anim_vec3 anim_mat4_transform_vector(const anim_mat4 *m, anim_vec3 v)
{
    const double *a = m->m;
    return anim_vec3_make(a[0] * v.x + a[4] * v.y + a[8] * v.z,
                          a[1] * v.x + a[5] * v.y + a[9] * v.z,
                          a[2] * v.x + a[6] * v.y + a[10] * v.z);
}

anim_vec3 anim_mat4_translation(const anim_mat4 *m) { return anim_vec3_make(m->m[12], m->m[13], m->m[14]); }

anim_vec3 anim_mat4_column(const anim_mat4 *m, int c)
{
    if (c < 0 || c > 3)
        return anim_vec3_make(0.0, 0.0, 0.0);
    return anim_vec3_make(m->m[c * 4], m->m[c * 4 + 1], m->m[c * 4 + 2]);
}

double anim_mat4_det3(const anim_mat4 *m)
{
    anim_vec3 c0 = anim_mat4_column(m, 0), c1 = anim_mat4_column(m, 1), c2 = anim_mat4_column(m, 2);
    return anim_vec3_dot(c0, anim_vec3_cross(c1, c2));
}

bool anim_mat4_decompose(const anim_mat4 *m, anim_vec3 *t, anim_quat *r, anim_vec3 *s)
{
    anim_vec3 c0 = anim_mat4_column(m, 0), c1 = anim_mat4_column(m, 1), c2 = anim_mat4_column(m, 2);
    double det = anim_mat4_det3(m);
    /* sign(det) like a float signum: -0 counts as negative, +0 as positive. */
    double sign = signbit(det) ? -1.0 : 1.0;
    anim_vec3 scale = anim_vec3_make(anim_vec3_len(c0), anim_vec3_len(c1), sign * anim_vec3_len(c2));
    if (t)
        *t = anim_mat4_translation(m);
    if (s)
        *s = scale;
    bool ok = scale.x != 0.0 && scale.y != 0.0 && scale.z != 0.0 && anim_vec3_is_finite(scale) &&
              isfinite(det);
    if (!ok) {
        /* No rotation can be recovered from a collapsed axis; identity is
         * the neutral answer and avoids dividing by zero. */
        if (r)
            *r = anim_quat_identity();
        return false;
    }
    double m3[9];
    anim_vec3 cols[3] = {anim_vec3_scale(c0, 1.0 / scale.x), anim_vec3_scale(c1, 1.0 / scale.y),
                         anim_vec3_scale(c2, 1.0 / scale.z)};
    for (int c = 0; c < 3; c++) {
        m3[c * 3 + 0] = cols[c].x;
        m3[c * 3 + 1] = cols[c].y;
        m3[c * 3 + 2] = cols[c].z;
    }
    if (r)
        *r = anim_quat_from_mat3(m3);
    return true;
}

double anim_circular_mean_rad(const double *phases, uint32_t n)
{
    const double two_pi = 2.0 * ANIM_PI;
    double s = 0.0, c = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        s += sin(two_pi * phases[i]);
        c += cos(two_pi * phases[i]);
    }
    return atan2(s, c);
}

bool anim_mat4_invert(const double *m, double *out)
{
    /* Cofactor expansion via 2x2 sub-determinants (index = c*4 + r; the
     * formula is symmetric in the layout, inverse(M^T) = inverse(M)^T). */
    double s0 = m[0] * m[5] - m[4] * m[1];
    double s1 = m[0] * m[6] - m[4] * m[2];
    double s2 = m[0] * m[7] - m[4] * m[3];
    double s3 = m[1] * m[6] - m[5] * m[2];
    double s4 = m[1] * m[7] - m[5] * m[3];
    double s5 = m[2] * m[7] - m[6] * m[3];
    double c5 = m[10] * m[15] - m[14] * m[11];
    double c4 = m[9] * m[15] - m[13] * m[11];
    double c3 = m[9] * m[14] - m[13] * m[10];
    double c2 = m[8] * m[15] - m[12] * m[11];
    double c1 = m[8] * m[14] - m[12] * m[10];
    double c0 = m[8] * m[13] - m[12] * m[9];
    double det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0;
    if (!isfinite(det) || det == 0.0)
        return false;
    double inv = 1.0 / det;
    double r[16];
    r[0] = (m[5] * c5 - m[6] * c4 + m[7] * c3) * inv;
    r[1] = (-m[1] * c5 + m[2] * c4 - m[3] * c3) * inv;
    r[2] = (m[13] * s5 - m[14] * s4 + m[15] * s3) * inv;
    r[3] = (-m[9] * s5 + m[10] * s4 - m[11] * s3) * inv;
    r[4] = (-m[4] * c5 + m[6] * c2 - m[7] * c1) * inv;
    r[5] = (m[0] * c5 - m[2] * c2 + m[3] * c1) * inv;
    r[6] = (-m[12] * s5 + m[14] * s2 - m[15] * s1) * inv;
    r[7] = (m[8] * s5 - m[10] * s2 + m[11] * s1) * inv;
    r[8] = (m[4] * c4 - m[5] * c2 + m[7] * c0) * inv;
    r[9] = (-m[0] * c4 + m[1] * c2 - m[3] * c0) * inv;
    r[10] = (m[12] * s4 - m[13] * s2 + m[15] * s0) * inv;
    r[11] = (-m[8] * s4 + m[9] * s2 - m[11] * s0) * inv;
    r[12] = (-m[4] * c3 + m[5] * c1 - m[6] * c0) * inv;
    r[13] = (m[0] * c3 - m[1] * c1 + m[2] * c0) * inv;
    r[14] = (-m[12] * s3 + m[13] * s1 - m[14] * s0) * inv;
    r[15] = (m[8] * s3 - m[9] * s1 + m[10] * s0) * inv;
    for (int k = 0; k < 16; k++)
        if (!isfinite(r[k]))
            return false;
    memcpy(out, r, sizeof r);
    return true;
}
