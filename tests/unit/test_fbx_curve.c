/* FBX AnimationCurve decoding and evaluation against hand-computed
 * values: constant, constant-next, linear, cubic (Hermite), weighted cubic
 * (a Bezier solved here by plain bisection), stored auto tangents, and
 * the refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "io/fbx/fbx_curve.h"

#define TPS ANIM_FBX_KTIME_PER_SECOND

/* |got - want| <= eps, printing both when not. */
#define assert_double_equal(got, want, eps) assert_near_at((got), (want), (eps), __FILE__, __LINE__)
static void assert_near_at(double got, double want, double eps, const char *file, int line)
{
    if (!(fabs(got - want) <= eps)) {
        print_error("%s:%d: got %.17g, want %.17g (eps %g)\n", file, line, got, want, eps);
        fail();
    }
}

typedef struct {
    anim_arena *arena;
    anim_fbx_curve c;
    anim_error err;
} fixture;

static float packed_weights(uint32_t right, uint32_t next_left)
{
    uint32_t bits = right | (next_left << 16);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* Two keys 0 s -> 1 s (values v0, v1), one attribute group. */
static int decode2(fixture *fx, double v0, double v1, uint32_t flags, float s0, float s1, float w)
{
    static int64_t times[2] = {0, TPS};
    double values[2] = {v0, v1};
    int64_t fl[1] = {flags}, refs[1] = {2};
    float attr[4] = {s0, s1, w, 0};
    if (!fx->arena)
        fx->arena = anim_arena_new();
    return anim_fbx_curve_decode(fx->arena, "AnimationCurve 'c' (id 7)", times, 2, values, 2, fl, 1,
                                 attr, 4, refs, 1, 0.0, &fx->c, &fx->err);
}

static double hermite(double p0, double m0, double p1, double m1, double u)
{
    double u2 = u * u, u3 = u2 * u;
    return (2 * u3 - 3 * u2 + 1) * p0 + (u3 - 2 * u2 + u) * m0 + (-2 * u3 + 3 * u2) * p1 + (u3 - u2) * m1;
}

static void test_constant(void **state)
{
    (void)state;
    fixture fx = {0};
    assert_int_equal(decode2(&fx, 1.0, 5.0, ANIM_FBX_KEY_CONSTANT, 0, 0, 0), 0);
    assert_true(anim_fbx_curve_eval(&fx.c, -TPS) == 1.0);
    assert_true(anim_fbx_curve_eval(&fx.c, TPS / 2) == 1.0);
    assert_true(anim_fbx_curve_eval(&fx.c, TPS - 1) == 1.0);
    assert_true(anim_fbx_curve_eval(&fx.c, TPS) == 5.0);
    assert_true(anim_fbx_curve_eval(&fx.c, 3 * TPS) == 5.0);
    assert_true(anim_fbx_curve_is_stepped(&fx.c));
    anim_arena_free(fx.arena);
}

static void test_constant_next(void **state)
{
    (void)state;
    fixture fx = {0};
    assert_int_equal(decode2(&fx, 1.0, 5.0, ANIM_FBX_KEY_CONSTANT | ANIM_FBX_KEY_CONSTANT_NEXT, 0, 0, 0), 0);
    assert_true(anim_fbx_curve_eval(&fx.c, TPS / 2) == 5.0);
    assert_true(anim_fbx_curve_eval(&fx.c, TPS) == 5.0);
    assert_true(anim_fbx_curve_is_stepped(&fx.c));
    anim_arena_free(fx.arena);
}

static void test_linear(void **state)
{
    (void)state;
    fixture fx = {0};
    assert_int_equal(decode2(&fx, 1.0, 5.0, ANIM_FBX_KEY_LINEAR, 0, 0, 0), 0);
    assert_double_equal(anim_fbx_curve_eval(&fx.c, TPS / 4), 2.0, 1e-15);
    assert_double_equal(anim_fbx_curve_eval(&fx.c, TPS / 2), 3.0, 1e-15);
    assert_false(anim_fbx_curve_is_stepped(&fx.c));
    anim_arena_free(fx.arena);
}

static void test_cubic_hermite(void **state)
{
    (void)state;
    fixture fx = {0};
    /* Unweighted: the stored default weights (0x0D05 each) are ignored. */
    assert_int_equal(decode2(&fx, 0.0, 3.0, ANIM_FBX_KEY_CUBIC | 0x400u, 2.0f, -1.0f,
                             packed_weights(3333, 3333)), 0);
    for (int i = 0; i <= 10; i++) {
        double u = i / 10.0;
        int64_t t = (int64_t)llround(u * (double)TPS);
        double ut = (double)t / (double)TPS;
        assert_double_equal(anim_fbx_curve_eval(&fx.c, t), hermite(0.0, 2.0, 3.0, -1.0, ut), 1e-12);
    }
    anim_arena_free(fx.arena);
}

/* The Bezier of a weighted segment solved independently by bisection. */
static double bezier_ref(double v0, double v1, double s0, double s1, double w0, double w1, double x)
{
    double lo = 0, hi = 1;
    for (int i = 0; i < 200; i++) {
        double u = (lo + hi) / 2, v = 1 - u;
        double xu = 3 * v * v * u * w0 + 3 * v * u * u * (1 - w1) + u * u * u;
        if (xu < x)
            lo = u;
        else
            hi = u;
    }
    double u = (lo + hi) / 2, v = 1 - u;
    double p1 = v0 + w0 * s0, p2 = v1 - w1 * s1; /* one-second segment */
    return v * v * v * v0 + 3 * v * v * u * p1 + 3 * v * u * u * p2 + u * u * u * v1;
}

static void test_cubic_weighted(void **state)
{
    (void)state;
    fixture fx = {0};
    uint32_t flags = ANIM_FBX_KEY_CUBIC | 0x400u | ANIM_FBX_KEY_WEIGHTED_RIGHT | ANIM_FBX_KEY_WEIGHTED_NEXT_LEFT;
    assert_int_equal(decode2(&fx, 0.0, 1.0, flags, 4.0f, 0.0f, packed_weights(8000, 1000)), 0);
    double w0 = 8000 / 9999.0, w1 = 1000 / 9999.0;
    assert_double_equal(fx.c.keys[0].right_weight, w0, 0);
    assert_double_equal(fx.c.keys[0].next_left_weight, w1, 0);
    double maxdiff_hermite = 0;
    for (int i = 1; i < 20; i++) {
        int64_t t = TPS / 20 * i;
        double x = (double)t / (double)TPS;
        double got = anim_fbx_curve_eval(&fx.c, t);
        assert_double_equal(got, bezier_ref(0, 1, 4, 0, w0, w1, x), 1e-12);
        maxdiff_hermite = fmax(maxdiff_hermite, fabs(got - hermite(0, 4, 1, 0, x)));
    }
    /* The weights matter: not the unweighted Hermite. */
    assert_true(maxdiff_hermite > 0.05);
    anim_arena_free(fx.arena);
}

static void test_auto_tangents_as_stored(void **state)
{
    (void)state;
    fixture fx = {0};
    /* Auto | time-independent | cubic, as Mixamo writes (0x2108): the
     * slopes stored are used, not re-derived. */
    static int64_t times[3] = {0, TPS, 3 * TPS};
    double values[3] = {0, 10, 4};
    int64_t fl[2] = {0x2108, 0x2108}, refs[2] = {1, 2};
    float attr[8] = {7.0f, 3.0f, packed_weights(3333, 3333), 0, -2.0f, 0.5f, packed_weights(3333, 3333), 0};
    fx.arena = anim_arena_new();
    assert_int_equal(anim_fbx_curve_decode(fx.arena, "c", times, 3, values, 3, fl, 2, attr, 8, refs, 2, 0,
                                           &fx.c, &fx.err), 0);
    assert_double_equal(anim_fbx_curve_eval(&fx.c, TPS / 2), hermite(0, 7, 10, 3, 0.5), 1e-12);
    /* Second segment: 2 s long, slopes per second scale by the length. */
    assert_double_equal(anim_fbx_curve_eval(&fx.c, 2 * TPS), hermite(10, -4, 4, 1, 0.5), 1e-12);
    anim_arena_free(fx.arena);
}

static void test_refusals(void **state)
{
    (void)state;
    fixture fx = {0};
    fx.arena = anim_arena_new();
    int64_t times[3] = {0, TPS, TPS};
    double values[3] = {0, 1, 2};
    int64_t fl[1] = {ANIM_FBX_KEY_LINEAR}, refs[1] = {3};
    float attr[4] = {0};
    assert_int_equal(anim_fbx_curve_decode(fx.arena, "AnimationCurve 'c' (id 7)", times, 3, values, 3,
                                           fl, 1, attr, 4, refs, 1, 0, &fx.c, &fx.err), -1);
    assert_non_null(strstr(fx.err.message, "AnimationCurve 'c' (id 7) key 2"));
    times[2] = 2 * TPS;
    assert_int_equal(anim_fbx_curve_decode(fx.arena, "AnimationCurve 'c' (id 7)", times, 3, values, 2,
                                           fl, 1, attr, 4, refs, 1, 0, &fx.c, &fx.err), -1);
    assert_non_null(strstr(fx.err.message, "AnimationCurve 'c' (id 7)"));
    refs[0] = 2; /* groups cover 2 of 3 keys */
    assert_int_equal(anim_fbx_curve_decode(fx.arena, "AnimationCurve 'c' (id 7)", times, 3, values, 3,
                                           fl, 1, attr, 4, refs, 1, 0, &fx.c, &fx.err), -1);
    assert_non_null(strstr(fx.err.message, "covers 2 key(s) of 3"));
    refs[0] = 3;
    assert_int_equal(anim_fbx_curve_decode(fx.arena, "c", times, 3, values, 3, fl, 1, attr, 3, refs, 1, 0,
                                           &fx.c, &fx.err), -1);
    assert_int_equal(anim_fbx_curve_decode(fx.arena, "c", times, 3, values, 3, fl, 1, attr, 4, refs, 1, 0,
                                           &fx.c, &fx.err), 0);
    /* No keys: the default value. */
    assert_int_equal(anim_fbx_curve_decode(fx.arena, "c", NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, 2.5,
                                           &fx.c, &fx.err), 0);
    assert_true(anim_fbx_curve_eval(&fx.c, 123) == 2.5);
    anim_arena_free(fx.arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constant),       cmocka_unit_test(test_constant_next),
        cmocka_unit_test(test_linear),         cmocka_unit_test(test_cubic_hermite),
        cmocka_unit_test(test_cubic_weighted), cmocka_unit_test(test_auto_tangents_as_stored),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
