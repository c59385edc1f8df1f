/* f64 vector, quaternion and matrix math shared by every layer.
 *
 * Conventions: quaternions are stored x, y, z, w (glTF
 * order); the product is the Hamilton product, a ⊗ b rotates by b first,
 * then a. Matrices are column-major (m[col * 4 + row]), glTF style, and
 * act on column vectors. Everything is double: authored binary32 data is
 * widened exactly when read (anim_vec3_from_f32, anim_quat_from_f32).
 *
 * Nothing here hides non-finite inputs: normalizing a zero quaternion
 * yields NaN components, and callers that publish a number check
 * finiteness themselves. */
#ifndef ANIMSMITH_MATH_H
#define ANIMSMITH_MATH_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ANIM_PI 3.14159265358979323846

typedef struct anim_vec3 {
    double x, y, z;
} anim_vec3;

typedef struct anim_quat {
    double x, y, z, w;
} anim_quat;

/* Column-major: element (row r, column c) is m[c * 4 + r]. */
typedef struct anim_mat4 {
    double m[16];
} anim_mat4;

/* Slerp falls back to normalized lerp when the (hemisphere-corrected) dot
 * exceeds this. Computed in f32 the threshold would have to be 1 - 2^-23;
 * in f64 slerp stays well conditioned much closer to parallel, and at
 * this threshold (angle below ~1.4e-6 rad) lerp and slerp differ by less
 * than 1e-18, so the fallback only guards the division by sin(theta). */
#define ANIM_SLERP_LERP_THRESHOLD (1.0 - 1e-12)

/* ---- degrees ---- */
double anim_deg_from_rad(double rad); /* rad * 180/pi */
double anim_rad_from_deg(double deg); /* deg * pi/180 */

/* ---- vec3 ---- */
anim_vec3 anim_vec3_make(double x, double y, double z);
anim_vec3 anim_vec3_from_f32(const float *v);   /* 3 floats, widened */
anim_vec3 anim_vec3_from_array(const double *v); /* 3 doubles */
anim_vec3 anim_vec3_add(anim_vec3 a, anim_vec3 b);
anim_vec3 anim_vec3_sub(anim_vec3 a, anim_vec3 b);
anim_vec3 anim_vec3_scale(anim_vec3 a, double s);
anim_vec3 anim_vec3_mul(anim_vec3 a, anim_vec3 b); /* componentwise */
anim_vec3 anim_vec3_neg(anim_vec3 a);
double anim_vec3_dot(anim_vec3 a, anim_vec3 b);
anim_vec3 anim_vec3_cross(anim_vec3 a, anim_vec3 b);
double anim_vec3_len(anim_vec3 a);
double anim_vec3_dist(anim_vec3 a, anim_vec3 b);
/* Zero (or non-finite length) vectors are returned unchanged-as-zero:
 * direction of nothing is nothing, never NaN. */
anim_vec3 anim_vec3_normalize(anim_vec3 a);
anim_vec3 anim_vec3_lerp(anim_vec3 a, anim_vec3 b, double u); /* a(1-u) + bu */
bool anim_vec3_is_finite(anim_vec3 a);

/* |x - round(x)|, the distance of x from the nearest whole number; NaN
 * for a non-finite x. Exactly what the libm expression gives (on a tie
 * both neighbours are 0.5 away, and the subtraction is exact), without a
 * library call per key. */
double anim_off_whole(double x);

/* Index of the first non-finite float of v[0..n), or n when all are
 * finite: the finiteness scan every track goes through. */
size_t anim_f32_first_nonfinite(const float *v, size_t n);

/* Whether v[k] > v[k-1] for every k in [1, n) (false on any NaN): the
 * key-time order every track must have. */
bool anim_f32_strictly_increasing(const float *v, size_t n);

/* ---- quaternions ---- */
anim_quat anim_quat_identity(void);
anim_quat anim_quat_make(double x, double y, double z, double w);
anim_quat anim_quat_from_f32(const float *v); /* x, y, z, w floats, widened */
anim_quat anim_quat_from_array(const double *v);
anim_quat anim_quat_from_axis_angle(anim_vec3 axis, double angle_rad); /* axis normalized here */
anim_quat anim_quat_mul(anim_quat a, anim_quat b); /* Hamilton a ⊗ b */
anim_quat anim_quat_conj(anim_quat q);
anim_quat anim_quat_neg(anim_quat q);
anim_quat anim_quat_scale(anim_quat q, double s);
anim_quat anim_quat_add(anim_quat a, anim_quat b);
double anim_quat_dot(anim_quat a, anim_quat b);
double anim_quat_len(anim_quat q);
/* Each component divided by sqrt(q·q): a zero quaternion gives NaN. */
anim_quat anim_quat_normalize(anim_quat q);
/* Rotates v by q (q assumed unit; computed as q v q*). */
anim_vec3 anim_quat_rotate(anim_quat q, anim_vec3 v);
/* 2·acos(|a·b|) with |a·b| clamped to 1 (inputs assumed unit). */
double anim_quat_angle_between(anim_quat a, anim_quat b);
/* Slerp of unit quaternions: shortest path, normalized-lerp
 * fallback above ANIM_SLERP_LERP_THRESHOLD, no renormalization after the
 * true slerp. */
anim_quat anim_quat_slerp(anim_quat a, anim_quat b, double u);
bool anim_quat_is_finite(anim_quat q);
/* Quaternion of a rotation given as a column-major 3x3 (m[c*3 + r]);
 * trace-based with the largest-diagonal branches for robustness. */
anim_quat anim_quat_from_mat3(const double *m3);

/* ---- mat4 ---- */
anim_mat4 anim_mat4_identity(void);
/* T · R · S (glTF): rotation column c times scale c, translation in
 * column 3. q is used as given (not normalized). */
anim_mat4 anim_mat4_from_trs(anim_vec3 t, anim_quat r, anim_vec3 s);
anim_mat4 anim_mat4_mul(const anim_mat4 *a, const anim_mat4 *b); /* a · b */
anim_vec3 anim_mat4_transform_point(const anim_mat4 *m, anim_vec3 p);
anim_vec3 anim_mat4_transform_vector(const anim_mat4 *m, anim_vec3 v);
anim_vec3 anim_mat4_translation(const anim_mat4 *m); /* column 3 */
anim_vec3 anim_mat4_column(const anim_mat4 *m, int c); /* c in 0..3, xyz */
double anim_mat4_det3(const anim_mat4 *m); /* determinant of upper 3x3 */
/* General 4x4 inverse (column-major, f64, 16 doubles each); false when
 * singular or the result is not finite. */
bool anim_mat4_invert(const double *m, double *out);
/* Decomposition of a node matrix: t = column 3; s.x = |col0|, s.y = |col1|,
 * s.z = sign(det3)·|col2| (sign(0) = +1); r = quaternion of the 3x3 with
 * each column divided by its scale. Returns false (r = identity, t and s
 * still filled) when a scale is zero or the 3x3 is non-finite, so no
 * division by zero ever happens. Any output pointer may be NULL. */
bool anim_mat4_decompose(const anim_mat4 *m, anim_vec3 *t, anim_quat *r, anim_vec3 *s);

/* The circular mean of n phases given in cycles, as an angle in radians in
 * [-pi, pi]: atan2 of the summed sines and cosines of 2*pi*phase (0 for
 * n == 0). The gait-group check and the report's gait figure share it. */
double anim_circular_mean_rad(const double *phases, uint32_t n);

#ifdef __cplusplus
}
#endif
#endif
