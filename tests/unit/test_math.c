/* f64 math: vector/quaternion identities, TRS matrices, decomposition. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "animsmith/math.h"

#define EPS 1e-12

static void assert_near(double a, double b, double eps)
{
    if (!(fabs(a - b) <= eps)) {
        print_error("%.17g != %.17g (eps %g)\n", a, b, eps);
        fail();
    }
}

static void assert_vec3_near(anim_vec3 a, anim_vec3 b, double eps)
{
    assert_near(a.x, b.x, eps);
    assert_near(a.y, b.y, eps);
    assert_near(a.z, b.z, eps);
}

static void assert_quat_near(anim_quat a, anim_quat b, double eps)
{
    assert_near(a.x, b.x, eps);
    assert_near(a.y, b.y, eps);
    assert_near(a.z, b.z, eps);
    assert_near(a.w, b.w, eps);
}

/* Same rotation: q and -q are equal. */
static void assert_same_rotation(anim_quat a, anim_quat b, double eps)
{
    assert_near(fabs(anim_quat_dot(a, b)), 1.0, eps);
}

static void assert_mat4_near(const anim_mat4 *a, const anim_mat4 *b, double eps)
{
    for (int i = 0; i < 16; i++)
        assert_near(a->m[i], b->m[i], eps);
}

static anim_quat axis_angle(double x, double y, double z, double deg)
{
    return anim_quat_from_axis_angle(anim_vec3_make(x, y, z), anim_rad_from_deg(deg));
}

static void test_degrees(void **state)
{
    (void)state;
    assert_near(anim_deg_from_rad(ANIM_PI), 180.0, EPS);
    assert_near(anim_rad_from_deg(90.0), ANIM_PI / 2, EPS);
    assert_near(anim_deg_from_rad(anim_rad_from_deg(33.5)), 33.5, EPS);
}

static void test_vec3_basics(void **state)
{
    (void)state;
    anim_vec3 a = anim_vec3_make(1, 2, 3), b = anim_vec3_make(-4, 5, 0.5);
    assert_vec3_near(anim_vec3_add(a, b), anim_vec3_make(-3, 7, 3.5), 0);
    assert_vec3_near(anim_vec3_sub(a, b), anim_vec3_make(5, -3, 2.5), 0);
    assert_vec3_near(anim_vec3_scale(a, 2), anim_vec3_make(2, 4, 6), 0);
    assert_vec3_near(anim_vec3_mul(a, b), anim_vec3_make(-4, 10, 1.5), 0);
    assert_near(anim_vec3_dot(a, b), -4 + 10 + 1.5, 0);
    anim_vec3 c = anim_vec3_cross(anim_vec3_make(1, 0, 0), anim_vec3_make(0, 1, 0));
    assert_vec3_near(c, anim_vec3_make(0, 0, 1), 0);
    assert_near(anim_vec3_dot(anim_vec3_cross(a, b), a), 0, EPS);
    assert_near(anim_vec3_len(anim_vec3_make(3, 4, 12)), 13, 0);
    assert_near(anim_vec3_dist(a, a), 0, 0);
    assert_near(anim_vec3_len(anim_vec3_normalize(b)), 1, EPS);
    /* A zero vector has no direction: stays zero, never NaN. */
    anim_vec3 z = anim_vec3_normalize(anim_vec3_make(0, 0, 0));
    assert_true(anim_vec3_is_finite(z));
    assert_vec3_near(z, anim_vec3_make(0, 0, 0), 0);
    assert_vec3_near(anim_vec3_lerp(a, b, 0.25), anim_vec3_make(-0.25, 2.75, 2.375), EPS);
    assert_false(anim_vec3_is_finite(anim_vec3_make(0, NAN, 0)));
    float f[3] = {0.1f, -2.5f, 1e-3f};
    anim_vec3 w = anim_vec3_from_f32(f);
    assert_true(w.x == (double)0.1f && w.y == -2.5 && w.z == (double)1e-3f);
}

static void test_quat_product_and_rotation(void **state)
{
    (void)state;
    anim_quat id = anim_quat_identity();
    anim_quat a = axis_angle(1, 2, 3, 40), b = axis_angle(-1, 0.5, 0, 75), c = axis_angle(0, 0, 1, -20);
    assert_quat_near(anim_quat_mul(id, a), a, EPS);
    assert_quat_near(anim_quat_mul(a, id), a, EPS);
    /* associativity */
    assert_quat_near(anim_quat_mul(anim_quat_mul(a, b), c), anim_quat_mul(a, anim_quat_mul(b, c)), EPS);
    /* q ⊗ conj(q) = identity for unit q */
    assert_quat_near(anim_quat_mul(a, anim_quat_conj(a)), id, EPS);
    /* 90° about z takes +x to +y */
    anim_quat rz = axis_angle(0, 0, 1, 90);
    assert_vec3_near(anim_quat_rotate(rz, anim_vec3_make(1, 0, 0)), anim_vec3_make(0, 1, 0), EPS);
    /* Hamilton order: a ⊗ b applies b first, then a. */
    anim_vec3 v = anim_vec3_make(0.3, -1.2, 2.0);
    assert_vec3_near(anim_quat_rotate(anim_quat_mul(a, b), v), anim_quat_rotate(a, anim_quat_rotate(b, v)),
                     1e-12);
    anim_quat rx = axis_angle(1, 0, 0, 90);
    /* rx then rz: +y → +z (rx) → +z (rz) */
    assert_vec3_near(anim_quat_rotate(anim_quat_mul(rz, rx), anim_vec3_make(0, 1, 0)), anim_vec3_make(0, 0, 1),
                     EPS);
    /* Hamilton product of basis quaternions: i ⊗ j = k. */
    assert_quat_near(anim_quat_mul(anim_quat_make(1, 0, 0, 0), anim_quat_make(0, 1, 0, 0)),
                     anim_quat_make(0, 0, 1, 0), 0);
}

static void test_quat_normalize_and_dot(void **state)
{
    (void)state;
    anim_quat q = anim_quat_make(0, 0, 3, 4);
    assert_near(anim_quat_len(q), 5, 0);
    assert_quat_near(anim_quat_normalize(q), anim_quat_make(0, 0, 0.6, 0.8), EPS);
    assert_near(anim_quat_dot(q, anim_quat_make(1, 1, 1, 1)), 7, 0);
    assert_quat_near(anim_quat_conj(q), anim_quat_make(0, 0, -3, 4), 0);
    /* Zero quaternion: NaN on purpose (callers check). */
    assert_false(anim_quat_is_finite(anim_quat_normalize(anim_quat_make(0, 0, 0, 0))));
    float f[4] = {0.f, 0.70710677f, 0.f, 0.70710677f};
    anim_quat w = anim_quat_from_f32(f);
    assert_true(w.y == (double)0.70710677f && w.w == (double)0.70710677f);
}

static void test_angle_between(void **state)
{
    (void)state;
    anim_quat id = anim_quat_identity();
    assert_near(anim_quat_angle_between(id, axis_angle(1, 0, 0, 90)), ANIM_PI / 2, 1e-12);
    assert_near(anim_quat_angle_between(id, axis_angle(0, 1, 0, 270)), ANIM_PI / 2, 1e-12); /* |dot| */
    anim_quat a = axis_angle(1, 1, 0, 33);
    assert_near(anim_quat_angle_between(a, anim_quat_neg(a)), 0, 1e-7);
    /* Slightly over-unit dot is clamped, never NaN. */
    anim_quat big = anim_quat_make(0, 0, 0, 1.0000001);
    assert_true(anim_quat_angle_between(big, id) == 0.0);
}

static void test_slerp(void **state)
{
    (void)state;
    anim_quat a = anim_quat_identity(), b = axis_angle(0, 0, 1, 90);
    assert_quat_near(anim_quat_slerp(a, b, 0), a, EPS);
    assert_quat_near(anim_quat_slerp(a, b, 1), b, EPS);
    assert_quat_near(anim_quat_slerp(a, b, 0.5), axis_angle(0, 0, 1, 45), EPS);
    assert_quat_near(anim_quat_slerp(a, b, 0.25), axis_angle(0, 0, 1, 22.5), EPS);
    /* Shortest path: -b is the same rotation and gives the same result. */
    assert_quat_near(anim_quat_slerp(a, anim_quat_neg(b), 0.5), axis_angle(0, 0, 1, 45), EPS);
    /* Near-parallel: normalized lerp fallback, still unit and between. */
    anim_quat c = anim_quat_normalize(anim_quat_make(1e-9, 0, 0, 1));
    anim_quat r = anim_quat_slerp(a, c, 0.5);
    assert_near(anim_quat_len(r), 1, 1e-15);
    assert_near(r.x, 0.5e-9, 1e-18);
    /* Identical inputs: exactly the input. */
    anim_quat d = axis_angle(1, 2, 3, 50);
    assert_quat_near(anim_quat_slerp(d, d, 0.3), d, 1e-15);
    /* 180° apart on the sphere (dot -1 → flips to dot 1): no NaN. */
    assert_true(anim_quat_is_finite(anim_quat_slerp(a, anim_quat_neg(a), 0.5)));
}

static void test_quat_from_mat3_all_branches(void **state)
{
    (void)state;
    /* trace >= 0, and the x, y, z largest-diagonal branches (180° turns). */
    anim_quat qs[] = {axis_angle(1, 2, 3, 40), axis_angle(1, 0, 0, 180), axis_angle(0, 1, 0, 180),
                      axis_angle(0, 0, 1, 180), axis_angle(1, 0.1, 0.1, 170), axis_angle(0.1, 1, 0.2, 175),
                      axis_angle(0.1, 0.2, 1, 178), anim_quat_identity()};
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
        anim_mat4 m = anim_mat4_from_trs(anim_vec3_make(0, 0, 0), qs[i], anim_vec3_make(1, 1, 1));
        double m3[9];
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++)
                m3[c * 3 + r] = m.m[c * 4 + r];
        anim_quat q = anim_quat_from_mat3(m3);
        assert_near(anim_quat_len(q), 1, 1e-12);
        assert_same_rotation(q, qs[i], 1e-12);
    }
}

static void test_mat4_trs(void **state)
{
    (void)state;
    anim_vec3 t = anim_vec3_make(1, 2, 3), s = anim_vec3_make(2, 3, 4);
    anim_quat r = axis_angle(0, 0, 1, 90);
    anim_mat4 m = anim_mat4_from_trs(t, r, s);
    /* p ↦ R(S p) + T: (1,0,0) → R(2,0,0) + T = (0,2,0) + (1,2,3) */
    assert_vec3_near(anim_mat4_transform_point(&m, anim_vec3_make(1, 0, 0)), anim_vec3_make(1, 4, 3), EPS);
    assert_vec3_near(anim_mat4_transform_point(&m, anim_vec3_make(0, 1, 0)), anim_vec3_make(-2, 2, 3), EPS);
    assert_vec3_near(anim_mat4_transform_vector(&m, anim_vec3_make(0, 0, 1)), anim_vec3_make(0, 0, 4), EPS);
    assert_vec3_near(anim_mat4_translation(&m), t, 0);
    assert_near(m.m[15], 1, 0);
    assert_near(m.m[3], 0, 0);
    assert_near(anim_mat4_det3(&m), 24, 1e-12);
    anim_mat4 id = anim_mat4_identity();
    anim_mat4 p = anim_mat4_mul(&id, &m);
    assert_mat4_near(&p, &m, 0);
    p = anim_mat4_mul(&m, &id);
    assert_mat4_near(&p, &m, 0);
    /* (A·B) p == A (B p) */
    anim_mat4 b = anim_mat4_from_trs(anim_vec3_make(-1, 0.5, 2), axis_angle(1, 1, 0, 30), anim_vec3_make(1, 2, 0.5));
    anim_mat4 ab = anim_mat4_mul(&m, &b);
    anim_vec3 v = anim_vec3_make(0.7, -0.2, 1.1);
    assert_vec3_near(anim_mat4_transform_point(&ab, v),
                     anim_mat4_transform_point(&m, anim_mat4_transform_point(&b, v)), 1e-12);
    assert_vec3_near(anim_mat4_column(&m, 3), t, 0);
    assert_vec3_near(anim_mat4_column(&m, 7), anim_vec3_make(0, 0, 0), 0);
}

static void test_decompose_roundtrip(void **state)
{
    (void)state;
    anim_vec3 t = anim_vec3_make(0.5, -2, 7);
    anim_quat r = axis_angle(0.3, -1, 0.2, 123);
    anim_vec3 s = anim_vec3_make(1.5, 0.25, 3);
    anim_mat4 m = anim_mat4_from_trs(t, r, s);
    anim_vec3 dt, ds;
    anim_quat dr;
    assert_true(anim_mat4_decompose(&m, &dt, &dr, &ds));
    assert_vec3_near(dt, t, 0);
    assert_vec3_near(ds, s, 1e-12);
    assert_same_rotation(dr, r, 1e-12);
    /* NULL outputs are allowed. */
    assert_true(anim_mat4_decompose(&m, NULL, NULL, NULL));
    anim_mat4 id = anim_mat4_identity();
    assert_true(anim_mat4_decompose(&id, &dt, &dr, &ds));
    assert_quat_near(dr, anim_quat_identity(), 0);
    assert_vec3_near(ds, anim_vec3_make(1, 1, 1), 0);
}

static void test_decompose_negative_determinant(void **state)
{
    (void)state;
    anim_vec3 t = anim_vec3_make(1, 2, 3);
    anim_quat r = axis_angle(1, 1, 1, 60);
    /* Mirror on z: recovered exactly (a negative determinant goes to s.z). */
    anim_mat4 m = anim_mat4_from_trs(t, r, anim_vec3_make(2, 3, -4));
    anim_vec3 dt, ds;
    anim_quat dr;
    assert_true(anim_mat4_decompose(&m, &dt, &dr, &ds));
    assert_vec3_near(ds, anim_vec3_make(2, 3, -4), 1e-12);
    assert_same_rotation(dr, r, 1e-12);
    /* Mirror on x: the sign moves to z, rotation absorbs a 180° turn, and
     * the recomposed matrix is the original. */
    m = anim_mat4_from_trs(t, r, anim_vec3_make(-2, 3, 4));
    assert_true(anim_mat4_decompose(&m, &dt, &dr, &ds));
    assert_vec3_near(ds, anim_vec3_make(2, 3, -4), 1e-12);
    assert_near(anim_quat_len(dr), 1, 1e-12);
    anim_mat4 back = anim_mat4_from_trs(dt, dr, ds);
    assert_mat4_near(&back, &m, 1e-12);
    assert_true(anim_mat4_det3(&m) < 0);
}

static void test_decompose_zero_scale(void **state)
{
    (void)state;
    anim_mat4 m = anim_mat4_from_trs(anim_vec3_make(4, 5, 6), axis_angle(0, 1, 0, 30), anim_vec3_make(1, 0, 1));
    anim_vec3 dt, ds;
    anim_quat dr = anim_quat_make(9, 9, 9, 9);
    assert_false(anim_mat4_decompose(&m, &dt, &dr, &ds));
    assert_vec3_near(dt, anim_vec3_make(4, 5, 6), 0);
    assert_near(ds.y, 0, 0);
    assert_near(ds.x, 1, 1e-12);
    assert_quat_near(dr, anim_quat_identity(), 0);
    /* An all-zero matrix. */
    anim_mat4 z;
    for (int i = 0; i < 16; i++)
        z.m[i] = 0;
    assert_false(anim_mat4_decompose(&z, &dt, &dr, &ds));
    assert_quat_near(dr, anim_quat_identity(), 0);
    assert_true(anim_vec3_is_finite(ds));
    /* Non-finite 3x3. */
    anim_mat4 n = anim_mat4_identity();
    n.m[0] = NAN;
    assert_false(anim_mat4_decompose(&n, &dt, &dr, &ds));
    assert_quat_near(dr, anim_quat_identity(), 0);
}

/* The general slerp formula with all three sines, as anim_quat_slerp
 * computed it before it knew the two sines of u = 0. */
static anim_quat slerp_three_sines(anim_quat a, anim_quat b, double u)
{
    double d = anim_quat_dot(a, b);
    if (d < 0.0) {
        b = anim_quat_neg(b);
        d = -d;
    }
    if (d > ANIM_SLERP_LERP_THRESHOLD)
        return anim_quat_normalize(anim_quat_add(anim_quat_scale(a, 1.0 - u), anim_quat_scale(b, u)));
    double theta = acos(d);
    double s0 = sin(theta * (1.0 - u));
    double s1 = sin(theta * u);
    double s = sin(theta);
    return anim_quat_make((a.x * s0 + b.x * s1) / s, (a.y * s0 + b.y * s1) / s,
                          (a.z * s0 + b.z * s1) / s, (a.w * s0 + b.w * s1) / s);
}

static double unit_random(uint32_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return (double)*state / 4294967296.0 * 2.0 - 1.0;
}

/* A sample time on a key time (u = 0) skips two sines; the result keeps
 * every bit, zero signs included, for random, near-equal, opposite,
 * signed-zero and non-finite inputs, and u = -0 takes the general path. */
static void test_slerp_at_key_time_exact(void **state)
{
    (void)state;
    uint32_t rng = 2463534242u;
    static const double us[] = {0.0, -0.0, 0.25, 1e-300};
    for (int i = 0; i < 20000; i++) {
        anim_quat a = anim_quat_normalize(anim_quat_make(unit_random(&rng), unit_random(&rng),
                                                         unit_random(&rng), unit_random(&rng)));
        anim_quat b = anim_quat_normalize(anim_quat_make(unit_random(&rng), unit_random(&rng),
                                                         unit_random(&rng), unit_random(&rng)));
        if (i % 4 == 1) /* nearly equal: just below the lerp threshold or above */
            b = anim_quat_normalize(anim_quat_add(a, anim_quat_scale(b, 1e-6 * unit_random(&rng))));
        if (i % 4 == 2) { /* zero lanes with both signs */
            a.x = i % 8 == 2 ? -0.0 : 0.0;
            b.y = -0.0;
        }
        if (i % 997 == 3)
            b.z = i % 2 ? NAN : INFINITY;
        for (size_t k = 0; k < sizeof us / sizeof us[0]; k++) {
            anim_quat want = slerp_three_sines(a, b, us[k]);
            anim_quat got = anim_quat_slerp(a, b, us[k]);
            assert_memory_equal(&got, &want, sizeof got);
        }
    }
}

/* A small deterministic generator (xorshift64*), so the random values are
 * the same on every run. */
static uint64_t next_random(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

static double bits_to_double(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* anim_off_whole must give the very bits of fabs(x - round(x)): edge
 * values (ties, the 2^52 boundary, tiny, huge, signed zeros, infinities,
 * NaN) and a million random doubles of every exponent and of the frame
 * range. */
static void check_off_whole(double x)
{
    double want = fabs(x - round(x));
    double got = anim_off_whole(x);
    if (isnan(want)) {
        assert_true(isnan(got));
        return;
    }
    uint64_t a, b;
    memcpy(&a, &want, sizeof a);
    memcpy(&b, &got, sizeof b);
    if (a != b)
        fail_msg("anim_off_whole(%.17g) = %.17g, fabs(x - round(x)) = %.17g", x, got, want);
}

static void test_off_whole_matches_libm(void **state)
{
    (void)state;
    const double edges[] = {0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, 0.49999999999999994,
                            0.5000000000000001, 0x1p52, -0x1p52, 0x1p52 - 0.5, 0x1p52 + 1.0,
                            0x1p53, 0x1p53 - 1.0, 4503599627370495.5, 1e300, -1e300, 5e-324,
                            0x1p-1022, 0.1, 29.999999999999996, 30.000000000000004,
                            INFINITY, -INFINITY, NAN};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        check_off_whole(edges[i]);
    uint64_t s = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 1000000; i++) {
        uint64_t r = next_random(&s);
        check_off_whole(bits_to_double(r));
        /* key time x fps: a few thousand frames, near and between them */
        double frames = (double)(r >> 40) / 4096.0;
        check_off_whole(frames);
        check_off_whole(-frames);
        check_off_whole((double)(float)(frames / 30.0) * 30.0);
    }
}

static size_t first_nonfinite_reference(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return i;
    return n;
}

/* The first non-finite float is found wherever it sits: in every position
 * of arrays shorter and longer than the scan's blocks, with later
 * non-finite values after it, and never in an all-finite array. */
static void test_first_nonfinite(void **state)
{
    (void)state;
    float v[300];
    const float bad[] = {INFINITY, -INFINITY, NAN, -NAN};
    for (size_t i = 0; i < 300; i++)
        v[i] = (float)i * 0.25f - 20.0f;
    v[7] = 3.4028235e38f; /* the largest finite float is finite */
    v[8] = -1.4e-45f;
    for (size_t n = 0; n <= 300; n += (n < 140 ? 1 : 37)) {
        assert_int_equal(anim_f32_first_nonfinite(v, n), n);
        for (size_t at = 0; at < n; at++) {
            float keep = v[at];
            v[at] = bad[at % 4];
            size_t later = (at + 65) % 300;
            float keep_later = v[later];
            if (later > at && later < n)
                v[later] = NAN;
            assert_int_equal(anim_f32_first_nonfinite(v, n), first_nonfinite_reference(v, n));
            assert_int_equal(anim_f32_first_nonfinite(v, n), at);
            v[later] = keep_later;
            v[at] = keep;
        }
    }
}

/* Strict order is judged pair by pair wherever the first bad pair sits,
 * in arrays shorter and longer than the scan's blocks: a repeat, a step
 * back and a NaN each break it; n of 0 or 1 is ordered. */
static void test_strictly_increasing(void **state)
{
    (void)state;
    float v[300];
    for (size_t i = 0; i < 300; i++)
        v[i] = (float)i / 30.0f - 1.0f;
    const float breakers[] = {0.0f, -1.0f, NAN};
    for (size_t n = 0; n <= 300; n += (n < 140 ? 1 : 37)) {
        assert_true(anim_f32_strictly_increasing(v, n));
        for (size_t at = 1; at < n; at++)
            for (size_t b = 0; b < 3; b++) {
                float keep = v[at];
                v[at] = b == 0 ? v[at - 1] : b == 1 ? v[at - 1] + breakers[b] : breakers[b];
                assert_false(anim_f32_strictly_increasing(v, n));
                v[at] = keep;
            }
    }
    const float one[] = {NAN};
    assert_true(anim_f32_strictly_increasing(one, 1)); /* no pair to compare */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_degrees),
        cmocka_unit_test(test_vec3_basics),
        cmocka_unit_test(test_quat_product_and_rotation),
        cmocka_unit_test(test_quat_normalize_and_dot),
        cmocka_unit_test(test_angle_between),
        cmocka_unit_test(test_slerp),
        cmocka_unit_test(test_slerp_at_key_time_exact),
        cmocka_unit_test(test_quat_from_mat3_all_branches),
        cmocka_unit_test(test_mat4_trs),
        cmocka_unit_test(test_decompose_roundtrip),
        cmocka_unit_test(test_decompose_negative_determinant),
        cmocka_unit_test(test_decompose_zero_scale),
        cmocka_unit_test(test_off_whole_matches_libm),
        cmocka_unit_test(test_first_nonfinite),
        cmocka_unit_test(test_strictly_increasing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
