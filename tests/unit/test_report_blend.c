/* The report's illustrative blend in C: hand-computed poses for the
 * interpolation rules (lerp, shortest-hemisphere nlerp with its exact-zero
 * tie), T*R*S composition with retained shear, scales of any sign, and
 * the refusals (bad parents, weights, non-drawable results, bad streams). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <string.h>

#include "animsmith/math.h"
#include "report/blend.h"

#define EPS 1e-12
#define MAX_BONES 12
#define H 0.70710678118654752440 /* sqrt(2) / 2 */

typedef struct {
    float rec[MAX_BONES][REPORT_BLEND_RECORD_FLOATS];
} frame;

/* Every bone at rest: no translation, identity rotation, unit scale. */
static void rest(frame *f)
{
    memset(f, 0, sizeof *f);
    for (int i = 0; i < MAX_BONES; i++) {
        f->rec[i][6] = 1.0f;
        f->rec[i][7] = f->rec[i][8] = f->rec[i][9] = 1.0f;
    }
}

static void set_t(frame *f, int bone, float x, float y, float z)
{
    f->rec[bone][0] = x;
    f->rec[bone][1] = y;
    f->rec[bone][2] = z;
}

static void set_q(frame *f, int bone, float x, float y, float z, float w)
{
    f->rec[bone][3] = x;
    f->rec[bone][4] = y;
    f->rec[bone][5] = z;
    f->rec[bone][6] = w;
}

static void set_s(frame *f, int bone, float x, float y, float z)
{
    f->rec[bone][7] = x;
    f->rec[bone][8] = y;
    f->rec[bone][9] = z;
}

static const int32_t CHAIN[MAX_BONES] = {-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

static void assert_pos(const double *out, int bone, double x, double y, double z, double eps)
{
    const double want[3] = {x, y, z};
    for (int c = 0; c < 3; c++)
        if (!(fabs(out[3 * bone + c] - want[c]) <= eps)) {
            print_error("bone %d component %d: %.17g != %.17g\n", bone, c, out[3 * bone + c],
                        want[c]);
            fail();
        }
}

static void blend_ok(const int32_t *parents, uint32_t n, const frame *a, const frame *b, double w,
                     double *out)
{
    assert_int_equal(report_blend_positions(parents, n, &a->rec[0][0], &b->rec[0][0], w, out), 0);
}

static void test_identity(void **state)
{
    (void)state;
    frame a, b;
    rest(&a);
    rest(&b);
    double out[9];
    memset(out, 0x7f, sizeof out);
    blend_ok(CHAIN, 3, &a, &b, 0.5, out);
    for (int i = 0; i < 3; i++)
        assert_pos(out, i, 0, 0, 0, 0);
}

static void test_translation_chain(void **state)
{
    (void)state;
    frame a, b;
    rest(&a);
    rest(&b);
    set_t(&a, 0, 1, 0, 0);
    set_t(&a, 1, 0, 2, 0);
    set_t(&a, 2, 0, 0, 3);
    set_t(&b, 0, 3, 0, 0);
    set_t(&b, 1, 0, 4, 0);
    set_t(&b, 2, 0, 0, 5);
    double out[9];
    blend_ok(CHAIN, 3, &a, &b, 0.5, out);
    assert_pos(out, 0, 2, 0, 0, EPS);
    assert_pos(out, 1, 2, 3, 0, EPS);
    assert_pos(out, 2, 2, 3, 4, EPS);
    blend_ok(CHAIN, 3, &a, &b, 0.25, out);
    assert_pos(out, 2, 1.5, 2.5, 3.5, EPS);
    /* The weights themselves: 0 is a's pose, 1 is b's. */
    blend_ok(CHAIN, 3, &a, &b, 0.0, out);
    assert_pos(out, 2, 1, 2, 3, 0);
    blend_ok(CHAIN, 3, &a, &b, 1.0, out);
    assert_pos(out, 2, 3, 4, 5, 0);
    /* Two roots: each keeps its own transform. */
    const int32_t roots[3] = {-1, -1, 1};
    blend_ok(roots, 3, &a, &b, 0.5, out);
    assert_pos(out, 1, 0, 3, 0, EPS);
    assert_pos(out, 2, 0, 3, 4, EPS);
}

/* Root rotates from rest to 90 degrees about +Z; its child sits 1 m along
 * +X. Halfway, nlerp is the 45-degree rotation. */
static void rotation_case(float bx, float by, float bz, float bw, double w, double *out)
{
    frame a, b;
    rest(&a);
    rest(&b);
    set_q(&b, 0, bx, by, bz, bw);
    set_t(&a, 1, 1, 0, 0);
    set_t(&b, 1, 1, 0, 0);
    blend_ok(CHAIN, 2, &a, &b, w, out);
}

static void test_rotation_90_half(void **state)
{
    (void)state;
    double out[6];
    rotation_case(0, 0, (float)H, (float)H, 0.5, out);
    assert_pos(out, 0, 0, 0, 0, 0);
    /* f32 storage of sqrt(2)/2 moves the angle by ~1e-8 rad. */
    assert_pos(out, 1, H, H, 0, 1e-7);
    /* Stored rotations are normalized before blending: a scaled copy of
     * the same rotation blends the same. */
    double scaled[6];
    rotation_case(0, 0, (float)(2 * H), (float)(2 * H), 0.5, scaled);
    assert_pos(scaled, 1, out[3], out[4], out[5], EPS);
    /* Rotation about +X leaves a child on the X axis where it is; about +Y
     * it swings it towards -Z. */
    rotation_case((float)H, 0, 0, (float)H, 0.5, out);
    assert_pos(out, 1, 1, 0, 0, 1e-7);
    rotation_case(0, (float)H, 0, (float)H, 0.5, out);
    assert_pos(out, 1, H, 0, -H, 1e-7);
}

/* The same 90-degree rotation stored negated: the blend still takes the
 * short way (45 degrees), not the 135-degree long way. */
static void test_negative_dot_hemisphere(void **state)
{
    (void)state;
    double out[6];
    rotation_case(0, 0, (float)-H, (float)-H, 0.5, out);
    assert_pos(out, 1, H, H, 0, 1e-7);
    rotation_case(0, 0, (float)-H, (float)-H, 0.25, out);
    /* nlerp at 0.25 of a 90-degree turn: atan2(0.25 s, 0.75 + 0.25 c)
     * doubled, with s = c = sqrt(2)/2 in the half-angle quaternion. */
    double half = atan2(0.25 * H, 0.75 + 0.25 * H);
    assert_pos(out, 1, cos(2 * half), sin(2 * half), 0, 1e-7);
}

/* Rest against 180 degrees about +Z: the dot is exactly zero, so the
 * second rotation keeps its sign and the halfway pose is +90 degrees
 * (negating it would give -90). */
static void test_exact_zero_dot(void **state)
{
    (void)state;
    double out[6];
    rotation_case(0, 0, 1, 0, 0.5, out);
    assert_pos(out, 1, 0, 1, 0, EPS);
    rotation_case(0, 0, -1, 0, 0.5, out);
    assert_pos(out, 1, 0, -1, 0, EPS);
}

static void test_negative_and_zero_scale(void **state)
{
    (void)state;
    frame a, b;
    rest(&a);
    rest(&b);
    set_s(&a, 0, -1, 1, 1);
    set_s(&b, 0, -1, 1, 1);
    set_t(&a, 1, 1, 2, 3);
    set_t(&b, 1, 1, 2, 3);
    double out[6];
    blend_ok(CHAIN, 2, &a, &b, 0.5, out);
    assert_pos(out, 1, -1, 2, 3, EPS);
    /* +1 to -1 in x passes through zero at the midpoint: allowed. */
    set_s(&a, 0, 1, 1, 1);
    blend_ok(CHAIN, 2, &a, &b, 0.5, out);
    assert_pos(out, 1, 0, 2, 3, EPS);
    blend_ok(CHAIN, 2, &a, &b, 0.25, out);
    assert_pos(out, 1, 0.5, 2, 3, EPS);
    /* A root scaled to nothing puts its child at the root. */
    set_t(&a, 0, 4, 5, 6);
    set_t(&b, 0, 4, 5, 6);
    set_s(&a, 0, 0, 0, 0);
    set_s(&b, 0, 0, 0, 0);
    blend_ok(CHAIN, 2, &a, &b, 0.5, out);
    assert_pos(out, 1, 4, 5, 6, EPS);
}

/* Root: 45 degrees about +Z, scale (2, 1, 1). Child 1 m along +X, turned
 * back by -45 degrees; grandchild 1 m along the child's +X. Composing full
 * matrices keeps the shear the nonuniform parent scale puts on the child's
 * rotated frame: the grandchild lands at (sqrt2 + 1.5, sqrt2 + 0.5, 0). A
 * decomposed (shear-dropping) chain would put it at (sqrt2 + 2, sqrt2, 0). */
static void test_shear_retained(void **state)
{
    (void)state;
    frame a;
    rest(&a);
    const float s45 = (float)sin((ANIM_PI / 8)), c45 = (float)cos((ANIM_PI / 8));
    set_q(&a, 0, 0, 0, s45, c45);
    set_s(&a, 0, 2, 1, 1);
    set_t(&a, 1, 1, 0, 0);
    set_q(&a, 1, 0, 0, -s45, c45);
    set_t(&a, 2, 1, 0, 0);
    double out[9];
    blend_ok(CHAIN, 3, &a, &a, 0.5, out);
    double r2 = sqrt(2.0);
    assert_pos(out, 1, r2, r2, 0, 1e-6);
    assert_pos(out, 2, r2 + 1.5, r2 + 0.5, 0, 1e-6);
}

static void test_refusals(void **state)
{
    (void)state;
    frame a, b;
    rest(&a);
    rest(&b);
    double out[3 * MAX_BONES];
    const float *pa = &a.rec[0][0], *pb = &b.rec[0][0];
    /* Parents: self, later bone, below -1. */
    const int32_t self[2] = {-1, 1}, later[3] = {-1, 2, 0}, neg[2] = {-1, -2};
    assert_int_equal(report_blend_positions(self, 2, pa, pb, 0.5, out), -1);
    assert_int_equal(report_blend_positions(later, 3, pa, pb, 0.5, out), -1);
    assert_int_equal(report_blend_positions(neg, 2, pa, pb, 0.5, out), -1);
    /* Weights outside [0, 1]. */
    assert_int_equal(report_blend_positions(CHAIN, 2, pa, pb, -0.01, out), -1);
    assert_int_equal(report_blend_positions(CHAIN, 2, pa, pb, 1.01, out), -1);
    assert_int_equal(report_blend_positions(CHAIN, 2, pa, pb, NAN, out), -1);
    /* Finite in binary64 but beyond f32: two FLT_MAX steps. */
    set_t(&a, 0, FLT_MAX, 0, 0);
    set_t(&b, 0, FLT_MAX, 0, 0);
    assert_int_equal(report_blend_positions(CHAIN, 1, pa, pb, 0.5, out), 0);
    set_t(&a, 1, FLT_MAX, 0, 0);
    set_t(&b, 1, FLT_MAX, 0, 0);
    assert_int_equal(report_blend_positions(CHAIN, 2, pa, pb, 0.5, out), -1);
    /* Non-finite: scales of FLT_MAX compounding down a chain overflow. */
    rest(&a);
    rest(&b);
    for (int i = 0; i < MAX_BONES; i++) {
        set_s(&a, i, FLT_MAX, FLT_MAX, FLT_MAX);
        set_s(&b, i, FLT_MAX, FLT_MAX, FLT_MAX);
        set_t(&a, i, 1, 0, 0);
        set_t(&b, i, 1, 0, 0);
    }
    assert_int_equal(report_blend_positions(CHAIN, MAX_BONES, pa, pb, 0.5, out), -1);
    /* A zero rotation cannot be normalized: its child's position is NaN
     * (the bone's own translation column stays finite). */
    rest(&a);
    rest(&b);
    set_q(&a, 0, 0, 0, 0, 0);
    set_q(&b, 0, 0, 0, 0, 0);
    set_t(&a, 1, 1, 0, 0);
    set_t(&b, 1, 1, 0, 0);
    assert_int_equal(report_blend_positions(CHAIN, 1, pa, pb, 0.5, out), 0);
    assert_int_equal(report_blend_positions(CHAIN, 2, pa, pb, 0.5, out), -1);
    /* No bones: nothing to do, nothing refused. */
    assert_int_equal(report_blend_positions(CHAIN, 0, pa, pb, 0.5, out), 0);
}

static void test_stream_valid(void **state)
{
    (void)state;
    frame f;
    rest(&f);
    const char *why = NULL;
    assert_true(report_blend_stream_valid(&f.rec[0][0], MAX_BONES, &why));
    assert_null(why);
    /* Within the band. */
    set_q(&f, 3, 0, 0, 0, 1.00005f);
    assert_true(report_blend_stream_valid(&f.rec[0][0], MAX_BONES, NULL));
    set_q(&f, 3, 0, 0, 0, 0.99995f);
    assert_true(report_blend_stream_valid(&f.rec[0][0], MAX_BONES, NULL));
    /* Outside it, either way. */
    set_q(&f, 3, 0, 0, 0, 1.0002f);
    assert_false(report_blend_stream_valid(&f.rec[0][0], MAX_BONES, &why));
    assert_non_null(why);
    assert_non_null(strstr(why, "length"));
    assert_true(report_blend_stream_valid(&f.rec[0][0], 3, NULL)); /* only records 0..2 */
    set_q(&f, 3, 0, 0, 0, 0.9998f);
    assert_false(report_blend_stream_valid(&f.rec[0][0], MAX_BONES, NULL));
    set_q(&f, 3, 0, 0, 0, 0);
    assert_false(report_blend_stream_valid(&f.rec[0][0], MAX_BONES, NULL));
    /* Non-finite components anywhere in a record. */
    rest(&f);
    f.rec[MAX_BONES - 1][9] = INFINITY;
    why = NULL;
    assert_false(report_blend_stream_valid(&f.rec[0][0], MAX_BONES, &why));
    assert_non_null(strstr(why, "finite"));
    rest(&f);
    f.rec[0][0] = NAN;
    assert_false(report_blend_stream_valid(&f.rec[0][0], 1, NULL));
    rest(&f);
    f.rec[2][4] = NAN;
    assert_false(report_blend_stream_valid(&f.rec[0][0], MAX_BONES, NULL));
    /* Zero and negative scales are valid samples. */
    rest(&f);
    set_s(&f, 1, 0, -1, 0);
    assert_true(report_blend_stream_valid(&f.rec[0][0], MAX_BONES, NULL));
    assert_true(report_blend_stream_valid(&f.rec[0][0], 0, NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identity),
        cmocka_unit_test(test_translation_chain),
        cmocka_unit_test(test_rotation_90_half),
        cmocka_unit_test(test_negative_dot_hemisphere),
        cmocka_unit_test(test_exact_zero_dot),
        cmocka_unit_test(test_negative_and_zero_scale),
        cmocka_unit_test(test_shear_retained),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_stream_valid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
