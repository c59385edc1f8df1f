/* Linear-transform facts of an affine matrix's upper 3x3 (the
 * rest_world_linear record; also every derived skin matrix), plus the small f64
 * matrix helpers the asset measurements share.
 *
 * The facts are derived in f64 from the f32 columns the wire carries, so a
 * scale-cubed determinant neither overflows nor underflows across the
 * finite f32 range, and the published classification always describes the
 * published matrix. */
#include "measure/asset_internal.h"

#include <math.h>
#include <string.h>

#include "animsmith/math.h"

bool asset_all_finite_f(const float *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return false;
    return true;
}

bool asset_all_finite_d(const double *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return false;
    return true;
}

bool asset_narrow16(const double *m, float *out)
{
    for (int i = 0; i < 16; i++)
        out[i] = (float)m[i];
    return asset_all_finite_f(out, 16);
}

void asset_mat4_mul(const double *a, const double *b, double *out)
{
    double r[16];
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++)
            r[c * 4 + row] = a[0 * 4 + row] * b[c * 4 + 0] + a[1 * 4 + row] * b[c * 4 + 1] +
                             a[2 * 4 + row] * b[c * 4 + 2] + a[3 * 4 + row] * b[c * 4 + 3];
    memcpy(out, r, sizeof r);
}


bool asset_values_equal_to_mean(const double *values, uint32_t n, double mean, double tol)
{
    for (uint32_t i = 0; i < n; i++) {
        double scale = fmax(fabs(mean), fabs(values[i]));
        if (fabs(values[i] - mean) > tol * scale)
            return false;
    }
    return true;
}

/* 3x3 (column-major, m[c*3 + r]) inverse-transpose; false when singular. */
static bool inverse_transpose3(const double *a, double *out)
{
    /* Cofactor of element (r, c) by the cyclic rule (sign included),
     * stored at c*3 + r: the cofactor matrix over det is inverse(A)^T. */
    double cof[9];
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) {
            int r1 = (r + 1) % 3, r2 = (r + 2) % 3, k1 = (c + 1) % 3, k2 = (c + 2) % 3;
            cof[c * 3 + r] = a[k1 * 3 + r1] * a[k2 * 3 + r2] - a[k2 * 3 + r1] * a[k1 * 3 + r2];
        }
    double det = a[0] * cof[0] + a[1] * cof[1] + a[2] * cof[2];
    if (!isfinite(det) || det == 0.0)
        return false;
    for (int i = 0; i < 9; i++)
        out[i] = cof[i] / det;
    return true;
}

/* Orthogonal polar factor by Newton's iteration R <- (R + R^-T) / 2, which
 * converges quadratically for any non-singular start; the classifier only
 * asks for it on near-orthonormal matrices, where a handful of steps
 * reach f64 precision. */
static bool polar_rotation(const double *a, double *r)
{
    memcpy(r, a, 9 * sizeof *r);
    for (int it = 0; it < 64; it++) {
        double it_r[9];
        if (!inverse_transpose3(r, it_r))
            return false;
        double diff = 0.0;
        for (int i = 0; i < 9; i++) {
            double next = 0.5 * (r[i] + it_r[i]);
            diff = fmax(diff, fabs(next - r[i]));
            r[i] = next;
        }
        if (diff <= 1e-16)
            break;
    }
    return asset_all_finite_d(r, 9);
}

static void canonical_rotation(const double *a3, anim_linear_facts *out)
{
    double r[9];
    if (!polar_rotation(a3, r))
        return;
    anim_quat q = anim_quat_from_mat3(r);
    double v[4] = {q.x, q.y, q.z, q.w};
    double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    if (!isfinite(len) || len == 0.0)
        return;
    int big = 0;
    for (int i = 1; i < 4; i++)
        if (fabs(v[i]) > fabs(v[big]))
            big = i;
    double sign = v[big] < 0.0 ? -1.0 : 1.0;
    for (int i = 0; i < 4; i++)
        out->rotation_xyzw[i] = sign * v[i] / len + 0.0; /* + 0.0: no "-0.0" */
    out->has_rotation = true;
}

void anim_linear_facts_classify(const float m[16], anim_linear_facts *out)
{
    memset(out, 0, sizeof *out);
    out->classification = ANIM_LINEAR_NON_FINITE;
    if (!asset_all_finite_f(m, 16))
        return;
    anim_vec3 x = anim_vec3_make(m[0], m[1], m[2]);
    anim_vec3 y = anim_vec3_make(m[4], m[5], m[6]);
    anim_vec3 z = anim_vec3_make(m[8], m[9], m[10]);
    double l[3] = {anim_vec3_len(x), anim_vec3_len(y), anim_vec3_len(z)};
    double det = anim_vec3_dot(z, anim_vec3_cross(x, y));
    double product = l[0] * l[1] * l[2];
    double dots[3] = {anim_vec3_dot(x, y), anim_vec3_dot(x, z), anim_vec3_dot(y, z)};
    if (!asset_all_finite_d(l, 3) || !isfinite(det) || !isfinite(product) ||
        !asset_all_finite_d(dots, 3))
        return;
    /* The mean sums the sorted lengths, so an axis permutation cannot
     * change the last bit of the result. */
    double s[3] = {l[0], l[1], l[2]};
    for (int i = 1; i < 3; i++)
        for (int j = i; j > 0 && s[j - 1] > s[j]; j--) {
            double t = s[j];
            s[j] = s[j - 1];
            s[j - 1] = t;
        }
    double mean = (s[0] + s[1] + s[2]) / 3.0;

    bool singular = product == 0.0 || fabs(det) <= ANIM_LINEAR_SINGULAR_TOLERANCE * product;
    anim_linear_orientation orient = singular ? ANIM_ORIENTATION_ZERO
                                     : det < 0.0 ? ANIM_ORIENTATION_NEGATIVE
                                                 : ANIM_ORIENTATION_POSITIVE;
    static const int pair[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    bool orthogonal = true;
    for (int p = 0; p < 3; p++) {
        double lp = l[pair[p][0]] * l[pair[p][1]];
        if (lp != 0.0 && fabs(dots[p]) > ANIM_LINEAR_RELATIVE_TOLERANCE * lp)
            orthogonal = false;
    }
    bool uniform = asset_values_equal_to_mean(l, 3, mean, ANIM_LINEAR_RELATIVE_TOLERANCE);
    bool unit = orthogonal && uniform && fabs(mean - 1.0) <= ANIM_LINEAR_RELATIVE_TOLERANCE;

    memcpy(out->axis_lengths, l, sizeof l);
    out->determinant = det;
    out->orientation = orient;
    if (orthogonal && uniform) {
        out->has_uniform_scale = true;
        out->uniform_scale = mean;
    }
    if (singular)
        out->classification = ANIM_LINEAR_SINGULAR;
    else if (orient == ANIM_ORIENTATION_NEGATIVE)
        out->classification = ANIM_LINEAR_REFLECTED;
    else if (!orthogonal)
        out->classification = ANIM_LINEAR_SHEARED;
    else if (unit)
        out->classification = ANIM_LINEAR_UNIT_ORTHONORMAL;
    else if (uniform)
        out->classification = ANIM_LINEAR_UNIFORM_SCALED;
    else
        out->classification = ANIM_LINEAR_NON_UNIFORM;

    if (out->classification == ANIM_LINEAR_UNIT_ORTHONORMAL) {
        double a3[9] = {m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]};
        canonical_rotation(a3, out);
    }
}

const char *anim_linear_class_name(anim_linear_class c)
{
    switch (c) {
    case ANIM_LINEAR_UNIT_ORTHONORMAL: return "unit_orthonormal";
    case ANIM_LINEAR_UNIFORM_SCALED: return "uniform_scaled";
    case ANIM_LINEAR_NON_UNIFORM: return "non_uniform";
    case ANIM_LINEAR_SHEARED: return "sheared";
    case ANIM_LINEAR_REFLECTED: return "reflected";
    case ANIM_LINEAR_SINGULAR: return "singular";
    case ANIM_LINEAR_NON_FINITE: break;
    }
    return "non_finite";
}

const char *anim_linear_orientation_name(anim_linear_orientation o)
{
    switch (o) {
    case ANIM_ORIENTATION_POSITIVE: return "positive";
    case ANIM_ORIENTATION_NEGATIVE: return "negative";
    case ANIM_ORIENTATION_ZERO: break;
    }
    return "zero";
}
