/* Track evaluation, pose sampling and FK, on documents
 * built in memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "animsmith/doc.h"
#include "animsmith/math.h"
#include "animsmith/sample.h"
#include "support/test_support.h"

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

static anim_quat axis_angle(double x, double y, double z, double deg)
{
    return anim_quat_from_axis_angle(anim_vec3_make(x, y, z), anim_rad_from_deg(deg));
}


static anim_bone make_bone(const char *name, uint32_t parent, double tx, double ty, double tz)
{
    anim_bone b;
    memset(&b, 0, sizeof b);
    b.name = name;
    b.has_name = true;
    b.parent = parent;
    b.rest_translation[0] = tx;
    b.rest_translation[1] = ty;
    b.rest_translation[2] = tz;
    b.rest_rotation[3] = 1;
    b.rest_scale[0] = b.rest_scale[1] = b.rest_scale[2] = 1;
    b.mesh = b.skin = ANIM_NONE;
    return b;
}

static void set_rest_rotation(anim_bone *b, anim_quat q)
{
    b->rest_rotation[0] = q.x;
    b->rest_rotation[1] = q.y;
    b->rest_rotation[2] = q.z;
    b->rest_rotation[3] = q.w;
}

/* ---- doc.c helpers ---- */

static void test_names_and_lookup(void **state)
{
    (void)state;
    assert_string_equal(anim_path_name(ANIM_PATH_TRANSLATION), "translation");
    assert_string_equal(anim_path_name(ANIM_PATH_ROTATION), "rotation");
    assert_string_equal(anim_path_name(ANIM_PATH_SCALE), "scale");
    assert_string_equal(anim_path_name(ANIM_PATH_WEIGHTS), "weights");
    assert_string_equal(anim_interp_name(ANIM_INTERP_LINEAR), "LINEAR");
    assert_string_equal(anim_interp_name(ANIM_INTERP_STEP), "STEP");
    assert_string_equal(anim_interp_name(ANIM_INTERP_CUBICSPLINE), "CUBICSPLINE");
    anim_bone bones[3] = {make_bone("hips", ANIM_NONE, 0, 0, 0), make_bone("foot", 0, 0, 0, 0),
                          make_bone("foot", 0, 0, 0, 0)};
    anim_doc doc;
    memset(&doc, 0, sizeof doc);
    doc.bones = bones;
    doc.bone_count = 3;
    assert_int_equal(anim_doc_find_bone(&doc, "hips"), 0);
    assert_int_equal(anim_doc_find_bone(&doc, "foot"), 1); /* first wins */
    assert_int_equal(anim_doc_find_bone(&doc, "Foot"), ANIM_NONE);
    assert_int_equal(anim_doc_find_bone(&doc, NULL), ANIM_NONE);
}

static void test_track_validity(void **state)
{
    (void)state;
    static const float times[] = {0, 0.5f, 1};
    static const float v3[] = {0, 0, 0, 1, 1, 1, 2, 2, 2};
    anim_track t = test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, times, 3, v3, 3);
    assert_true(anim_track_is_valid(&t));
    anim_track e = t;
    e.key_count = 0;
    assert_false(anim_track_is_valid(&e));
    static const float nan_times[] = {0, NAN, 1};
    e = t;
    e.times = nan_times;
    assert_false(anim_track_is_valid(&e));
    static const float dup_times[] = {0, 0.5f, 0.5f};
    e = t;
    e.times = dup_times;
    assert_false(anim_track_is_valid(&e)); /* strictly increasing */
    e = t;
    e.value_count = 2;
    assert_false(anim_track_is_valid(&e));
    e = t;
    e.interp = ANIM_INTERP_CUBICSPLINE; /* needs 9 elements */
    assert_false(anim_track_is_valid(&e));
    e = t;
    e.path = ANIM_PATH_ROTATION; /* storage must be a quaternion */
    assert_false(anim_track_is_valid(&e));
    static const float bad_v3[] = {0, 0, 0, 1, INFINITY, 1, 2, 2, 2};
    e = t;
    e.values = bad_v3;
    assert_false(anim_track_is_valid(&e));
    /* Zero-length quaternions are still structurally valid. */
    static const float q[] = {0, 0, 0, 0};
    anim_track r = test_support_track(ANIM_PATH_ROTATION, ANIM_INTERP_STEP, times, 1, q, 1);
    assert_true(anim_track_is_valid(&r));

    /* key value: middle element for cubic, NULL past the end */
    assert_ptr_equal(anim_track_key_value(&t, 1), v3 + 3);
    assert_null(anim_track_key_value(&t, 3));
    static const float cub[] = {9, 9, 9, 1, 2, 3, 9, 9, 9, 9, 9, 9, 4, 5, 6, 9, 9, 9};
    anim_track c = test_support_track(ANIM_PATH_SCALE, ANIM_INTERP_CUBICSPLINE, times, 2, cub, 6);
    assert_true(anim_track_is_valid(&c));
    assert_true(anim_track_key_value(&c, 1)[0] == 4.0f);
    c.value_count = 4;
    assert_null(anim_track_key_value(&c, 1));
}

/* ---- segment search ---- */

static void test_segment_search(void **state)
{
    (void)state;
    static const float times[] = {0, 1, 2, 4};
    static const float v[12] = {0};
    anim_track t = test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, times, 4, v, 4);
    anim_segment s = anim_track_segment(&t, -1);
    assert_true(s.k0 == 0 && s.k1 == 0 && s.u == 0);
    s = anim_track_segment(&t, 0);
    assert_true(s.k0 == 0 && s.k1 == 0 && s.u == 0);
    s = anim_track_segment(&t, 0.25);
    assert_true(s.k0 == 0 && s.k1 == 1 && s.u == 0.25);
    s = anim_track_segment(&t, 1); /* exactly on key 1 */
    assert_true(s.k0 == 1 && s.k1 == 2 && s.u == 0);
    s = anim_track_segment(&t, 3);
    assert_true(s.k0 == 2 && s.k1 == 3 && s.u == 0.5);
    s = anim_track_segment(&t, 4);
    assert_true(s.k0 == 3 && s.k1 == 3 && s.u == 0);
    s = anim_track_segment(&t, 100);
    assert_true(s.k0 == 3 && s.k1 == 3 && s.u == 0);
    /* NaN time clamps to key 0 (every comparison is false). */
    s = anim_track_segment(&t, NAN);
    assert_true(s.k0 == 0 && s.k1 == 0 && s.u == 0);
    s = anim_track_segment(&t, INFINITY);
    assert_true(s.k0 == 3 && s.k1 == 3);
    s = anim_track_segment(&t, -INFINITY);
    assert_true(s.k0 == 0 && s.k1 == 0);
    /* One key: always key 0. */
    t.key_count = 1;
    s = anim_track_segment(&t, 5);
    assert_true(s.k0 == 0 && s.k1 == 0 && s.u == 0);
    /* No keys. */
    t.key_count = 0;
    s = anim_track_segment(&t, 5);
    assert_true(s.k0 == 0 && s.k1 == 0 && s.u == 0);
    /* Duplicate times: t on the duplicate lands past both copies. */
    static const float dup[] = {0, 1, 1, 2};
    anim_track d = test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, dup, 4, v, 4);
    s = anim_track_segment(&d, 1);
    assert_true(s.k0 == 2 && s.k1 == 3 && s.u == 0);
}

static void test_segment_nonfinite_times(void **state)
{
    (void)state;
    static const float v[] = {1, 1, 1, 2, 2, 2, 3, 3, 3};
    /* A NaN key inside: its span is NaN, which is not > 0, so u = 0. */
    static const float mid_nan[] = {0, NAN, 2};
    anim_track t = test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, mid_nan, 3, v, 3);
    anim_segment s = anim_track_segment(&t, 1);
    assert_true(s.k0 == 0 && s.k1 == 1 && s.u == 0);
    assert_vec3_near(anim_track_sample_vec3(&t, 1), anim_vec3_make(1, 1, 1), 0);
    /* NaN first key: nothing compares, clamp to key 0. */
    static const float first_nan[] = {NAN, 0.5f, 1};
    t.times = first_nan;
    for (double x = -1; x <= 2; x += 0.25) {
        s = anim_track_segment(&t, x);
        assert_true(s.k0 <= 2 && s.k1 <= 2);
        (void)anim_track_sample_vec3(&t, x);
    }
    static const float all_nan[] = {NAN, NAN, NAN};
    t.times = all_nan;
    s = anim_track_segment(&t, 0.5);
    assert_true(s.k0 == 0 && s.k1 == 0);
    static const float infs[] = {-INFINITY, 0, INFINITY};
    t.times = infs;
    s = anim_track_segment(&t, 0.5);
    assert_true(s.k0 == 1 && s.k1 == 2 && s.u == 0); /* (0.5 - 0) / inf */
    anim_track q = test_support_track(ANIM_PATH_ROTATION, ANIM_INTERP_CUBICSPLINE, all_nan, 3, v, 2);
    (void)anim_track_sample_quat(&q, 0.5);
}

/* Reference segment: linear scan for the first index with T > t (the
 * definition of the segment, valid for sorted times). */
static anim_segment scan_segment(const float *T, uint32_t n, double t)
{
    anim_segment s = {0, 0, 0};
    if (n <= 1 || t <= T[0])
        return s;
    if (t >= T[n - 1]) {
        s.k0 = s.k1 = n - 1;
        return s;
    }
    uint32_t k1 = 0;
    while (k1 < n && (double)T[k1] <= t)
        k1++;
    s.k0 = k1 - 1;
    s.k1 = k1;
    double span = (double)T[k1] - (double)T[k1 - 1];
    s.u = span > 0 ? (t - T[k1 - 1]) / span : 0;
    return s;
}

static uint32_t lcg(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

static void test_cursor_matches_binary_search(void **state)
{
    (void)state;
    static float T[64];
    static const float v[64 * 3] = {0};
    uint32_t rng = 12345;
    for (int trial = 0; trial < 300; trial++) {
        uint32_t n = 1 + lcg(&rng) % 40;
        int kind = trial % 4; /* 0 sorted, 1 sorted with duplicates, 2 unsorted, 3 with NaN */
        float acc = (float)(lcg(&rng) % 5) * 0.25f - 0.5f;
        for (uint32_t k = 0; k < n; k++) {
            if (kind == 2)
                T[k] = (float)(lcg(&rng) % 100) / 25.0f;
            else {
                acc += (kind == 1 && lcg(&rng) % 3 == 0) ? 0.0f : (float)(1 + lcg(&rng) % 7) / 16.0f;
                T[k] = acc;
            }
        }
        if (kind == 3)
            T[lcg(&rng) % n] = NAN;
        anim_track t = test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, T, n, v, n);
        anim_track_cursor cur;
        anim_track_cursor_init(&cur, &t);
        if (kind <= 1)
            assert_true(cur.ordered);
        if (kind == 3)
            assert_false(cur.ordered);
        uint32_t frames = 2 + lcg(&rng) % 50;
        for (uint32_t f = 0; f < frames; f++) {
            double x = -0.6 + (5.0 * f) / (frames - 1);
            if (f == frames / 2 && trial % 7 == 0)
                x = -0.1; /* a step backwards restarts the cursor */
            if (kind <= 1 && trial % 5 == 0)
                x = T[(f * 7) % n]; /* exactly on keys */
            anim_segment a = anim_track_segment(&t, x);
            anim_segment b = anim_track_segment_cursor(&t, x, &cur);
            assert_int_equal(a.k0, b.k0);
            assert_int_equal(a.k1, b.k1);
            assert_true(a.u == b.u);
            if (kind <= 1) {
                anim_segment c = scan_segment(T, n, x);
                assert_int_equal(a.k0, c.k0);
                assert_int_equal(a.k1, c.k1);
                assert_true(a.u == c.u);
            }
        }
    }
}

/* ---- vec3 tracks ---- */

static const float times3[] = {0, 1, 3};
static const float vals3[] = {0, 0, 0, 2, 4, 6, -2, 0, 10};

static void test_vec3_step_linear(void **state)
{
    (void)state;
    anim_track t = test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, times3, 3, vals3, 3);
    assert_vec3_near(anim_track_sample_vec3(&t, 0), anim_vec3_make(0, 0, 0), 0);
    assert_vec3_near(anim_track_sample_vec3(&t, 0.5), anim_vec3_make(1, 2, 3), EPS);
    assert_vec3_near(anim_track_sample_vec3(&t, 1), anim_vec3_make(2, 4, 6), 0);
    assert_vec3_near(anim_track_sample_vec3(&t, 2), anim_vec3_make(0, 2, 8), EPS);
    assert_vec3_near(anim_track_sample_vec3(&t, 3), anim_vec3_make(-2, 0, 10), 0);
    /* clamping */
    assert_vec3_near(anim_track_sample_vec3(&t, -5), anim_vec3_make(0, 0, 0), 0);
    assert_vec3_near(anim_track_sample_vec3(&t, 50), anim_vec3_make(-2, 0, 10), 0);
    t.interp = ANIM_INTERP_STEP;
    assert_vec3_near(anim_track_sample_vec3(&t, 0.99), anim_vec3_make(0, 0, 0), 0);
    assert_vec3_near(anim_track_sample_vec3(&t, 1), anim_vec3_make(2, 4, 6), 0);
    assert_vec3_near(anim_track_sample_vec3(&t, 2.9), anim_vec3_make(2, 4, 6), 0);
    assert_vec3_near(anim_track_sample_vec3(&t, 3), anim_vec3_make(-2, 0, 10), 0);
    /* A rotation-width track read as vec3: zero. */
    anim_track r = t;
    r.components = 4;
    assert_vec3_near(anim_track_sample_vec3(&r, 0.5), anim_vec3_make(0, 0, 0), 0);
}

static void test_vec3_cubic(void **state)
{
    (void)state;
    static const float times[] = {0, 2};
    /* in, value, out per key */
    static const float vals[] = {9, 9, 9, 0, 0, 0, 1, 0, 0, /* key 0 */
                                 0, 1, 0, 1, 2, 3, 7, 7, 7}; /* key 1 */
    anim_track t = test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_CUBICSPLINE, times, 2, vals, 6);
    assert_vec3_near(anim_track_sample_vec3(&t, 0), anim_vec3_make(0, 0, 0), 0);
    assert_vec3_near(anim_track_sample_vec3(&t, 2), anim_vec3_make(1, 2, 3), 0);
    assert_vec3_near(anim_track_sample_vec3(&t, -1), anim_vec3_make(0, 0, 0), 0);
    assert_vec3_near(anim_track_sample_vec3(&t, 9), anim_vec3_make(1, 2, 3), 0);
    /* u = 0.5: h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = -0.125; dt = 2 so
     * m0 = (2,0,0), m1 = (0,2,0): 0.5·v1 + 0.125·m0 − 0.125·m1. */
    assert_vec3_near(anim_track_sample_vec3(&t, 1), anim_vec3_make(0.75, 0.75, 1.5), EPS);
    /* u = 0.25: h00 = 27/32, h10 = 9/64, h01 = 5/32, h11 = -3/64 */
    assert_vec3_near(anim_track_sample_vec3(&t, 0.5),
                     anim_vec3_make(5.0 / 32 + 2 * 9.0 / 64, 10.0 / 32 - 2 * 3.0 / 64, 15.0 / 32), EPS);
    /* Short values: missing tangents read as zero, no crash. */
    t.value_count = 5;
    assert_true(anim_vec3_is_finite(anim_track_sample_vec3(&t, 1)));
    t.value_count = 2;
    assert_vec3_near(anim_track_sample_vec3(&t, 2), anim_vec3_make(0, 0, 0), 0);
}

static void test_value_fetch_tolerant(void **state)
{
    (void)state;
    static const float times[] = {0, 1, 2};
    static const float vals[] = {1, 1, 1};
    anim_track t = test_support_track(ANIM_PATH_SCALE, ANIM_INTERP_LINEAR, times, 3, vals, 1);
    assert_vec3_near(anim_track_sample_vec3(&t, 0.5), anim_vec3_make(0.5, 0.5, 0.5), EPS);
    assert_vec3_near(anim_track_sample_vec3(&t, 2), anim_vec3_make(0, 0, 0), 0);
    static const float q[] = {0, 0, 1, 0};
    anim_track r = test_support_track(ANIM_PATH_ROTATION, ANIM_INTERP_STEP, times, 3, q, 1);
    assert_quat_near(anim_track_sample_quat(&r, 5), anim_quat_identity(), 0);
    r.values = NULL;
    assert_quat_near(anim_track_sample_quat(&r, 0), anim_quat_identity(), 0);
}

/* ---- morph-weight tracks ---- */

static void assert_weights(const anim_track *t, double time, const float *want, uint32_t n)
{
    float got[8];
    for (uint32_t i = 0; i < 8; i++)
        got[i] = -99.0f; /* past the track's width: must stay untouched */
    anim_track_sample_weights(t, time, got);
    for (uint32_t i = 0; i < n; i++)
        assert_near(got[i], want[i], 0);
    for (uint32_t i = n; i < 8; i++)
        assert_near(got[i], -99.0, 0);
}

static void test_weights_step_linear(void **state)
{
    (void)state;
    /* Two targets, three keys: any width, not read as vec3 or quaternion. */
    static const float vals[] = {0, 1, 0.5f, 0.25f, 1, 0};
    anim_track t = test_support_track(ANIM_PATH_WEIGHTS, ANIM_INTERP_LINEAR, times3, 3, vals, 3);
    t.components = 2;
    assert_weights(&t, 0, (const float[]){0, 1}, 2);
    assert_weights(&t, 0.5, (const float[]){0.25f, 0.625f}, 2);
    assert_weights(&t, 1, (const float[]){0.5f, 0.25f}, 2);
    assert_weights(&t, 2, (const float[]){0.75f, 0.125f}, 2);
    assert_weights(&t, 3, (const float[]){1, 0}, 2);
    assert_weights(&t, -5, (const float[]){0, 1}, 2);
    assert_weights(&t, 50, (const float[]){1, 0}, 2);
    t.interp = ANIM_INTERP_STEP;
    assert_weights(&t, 0.99, (const float[]){0, 1}, 2);
    assert_weights(&t, 1, (const float[]){0.5f, 0.25f}, 2);
    assert_weights(&t, 2.9, (const float[]){0.5f, 0.25f}, 2);
    assert_weights(&t, 3, (const float[]){1, 0}, 2);
    /* Missing elements read as zero, past the last value and without values. */
    t.interp = ANIM_INTERP_LINEAR;
    t.value_count = 2;
    assert_weights(&t, 2, (const float[]){0.25f, 0.125f}, 2); /* halfway to a zero key */
    assert_weights(&t, 0.5, (const float[]){0.25f, 0.625f}, 2);
    t.values = NULL;
    assert_weights(&t, 0.5, (const float[]){0, 0}, 2);
}

static void test_weights_cubic(void **state)
{
    (void)state;
    static const float times[] = {0, 2};
    /* in, value, out per key: the vec3 cubic test's numbers, read as
     * three morph weights. */
    static const float vals[] = {9, 9, 9, 0, 0, 0, 1, 0, 0, /* key 0 */
                                 0, 1, 0, 1, 2, 3, 7, 7, 7}; /* key 1 */
    anim_track t = test_support_track(ANIM_PATH_WEIGHTS, ANIM_INTERP_CUBICSPLINE, times, 2, vals, 6);
    assert_weights(&t, 0, (const float[]){0, 0, 0}, 3);
    assert_weights(&t, 2, (const float[]){1, 2, 3}, 3);
    assert_weights(&t, 1, (const float[]){0.75f, 0.75f, 1.5f}, 3);
    assert_weights(&t, 0.5,
                   (const float[]){5.0f / 32 + 2 * 9.0f / 64, 10.0f / 32 - 2 * 3.0f / 64, 15.0f / 32},
                   3);
    /* The vec3 sampler's formula term by term: the same values, rounded. */
    anim_track v = t;
    v.path = ANIM_PATH_TRANSLATION;
    for (int i = 0; i <= 40; i++) {
        double time = 0.05 * i + 1e-3;
        anim_vec3 want = anim_track_sample_vec3(&v, time);
        assert_weights(&t, time, (const float[]){(float)want.x, (float)want.y, (float)want.z}, 3);
    }
    /* One target, and a missing out-tangent reads as zero. */
    static const float one[] = {0, 1, 4, 0, 3, 0}; /* in, value, out per key */
    anim_track w = test_support_track(ANIM_PATH_WEIGHTS, ANIM_INTERP_CUBICSPLINE, times, 2, one, 6);
    w.components = 1;
    /* u = 0.5, dt = 2: 0.5·1 + 0.125·(4·2) + 0.5·3 - 0.125·0 */
    assert_weights(&w, 1, (const float[]){3.0f}, 1);
    w.value_count = 5;
    assert_weights(&w, 2, (const float[]){3.0f}, 1);
    w.value_count = 4;
    assert_weights(&w, 2, (const float[]){0.0f}, 1);
}

/* ---- rotation tracks ---- */

static void fill_quat(float *dst, anim_quat q, double scale)
{
    dst[0] = (float)(q.x * scale);
    dst[1] = (float)(q.y * scale);
    dst[2] = (float)(q.z * scale);
    dst[3] = (float)(q.w * scale);
}

static void test_rotation_linear(void **state)
{
    (void)state;
    static const float times[] = {0, 1};
    float vals[8];
    anim_quat q1 = axis_angle(0, 0, 1, 90);
    fill_quat(vals, anim_quat_identity(), 1);
    fill_quat(vals + 4, q1, 1);
    anim_track t = test_support_track(ANIM_PATH_ROTATION, ANIM_INTERP_LINEAR, times, 2, vals, 2);
    anim_quat f1 = anim_quat_normalize(anim_quat_from_f32(vals + 4));
    assert_quat_near(anim_track_sample_quat(&t, 0), anim_quat_identity(), 0);
    assert_quat_near(anim_track_sample_quat(&t, 1), f1, 0);
    assert_quat_near(anim_track_sample_quat(&t, 0.5), axis_angle(0, 0, 1, 45), 1e-7);
    assert_quat_near(anim_track_sample_quat(&t, 0.5), anim_quat_slerp(anim_quat_identity(), f1, 0.5), 0);
    /* Shortest path: the second key stored negated (and unnormalized)
     * still turns the short way, by +45° at the midpoint. */
    fill_quat(vals + 4, q1, -2);
    assert_quat_near(anim_track_sample_quat(&t, 0.5), axis_angle(0, 0, 1, 45), 1e-7);
    /* the clamp normalizes the stored value as is (no hemisphere fix) */
    assert_quat_near(anim_track_sample_quat(&t, 1), anim_quat_neg(f1), 1e-7);
    /* 270° the long way stored: the short way is −90°. */
    fill_quat(vals + 4, axis_angle(0, 0, 1, 270), 1);
    assert_quat_near(anim_track_sample_quat(&t, 0.5), axis_angle(0, 0, 1, -45), 1e-7);
    /* clamps */
    assert_quat_near(anim_track_sample_quat(&t, -1), anim_quat_identity(), 0);
    /* A zero key normalizes to NaN but never crashes. */
    fill_quat(vals, anim_quat_make(0, 0, 0, 0), 1);
    assert_false(anim_quat_is_finite(anim_track_sample_quat(&t, 0.5)));
    /* A vec3-width track read as quaternion: identity. */
    anim_track v = t;
    v.components = 3;
    assert_quat_near(anim_track_sample_quat(&v, 0.5), anim_quat_identity(), 0);
}

static void test_rotation_step_and_cubic(void **state)
{
    (void)state;
    static const float times[] = {0, 1};
    float vals[8];
    anim_quat q1 = axis_angle(0, 0, 1, 90);
    fill_quat(vals, anim_quat_make(0, 0, 0, 2), 1); /* unnormalized identity */
    fill_quat(vals + 4, q1, 1);
    anim_track t = test_support_track(ANIM_PATH_ROTATION, ANIM_INTERP_STEP, times, 2, vals, 2);
    assert_quat_near(anim_track_sample_quat(&t, 0.7), anim_quat_identity(), 0);
    assert_quat_near(anim_track_sample_quat(&t, 1), anim_quat_normalize(anim_quat_from_f32(vals + 4)), 0);

    /* CUBICSPLINE, zero tangents: at u = 0.5 Hermite weights are 0.5/0.5
     * on the raw values, so the raw scale of key 0 matters. */
    float cub[24] = {0};
    fill_quat(cub + 4, anim_quat_identity(), 1);
    fill_quat(cub + 16, q1, 1);
    anim_track c = test_support_track(ANIM_PATH_ROTATION, ANIM_INTERP_CUBICSPLINE, times, 2, cub, 6);
    anim_quat a = anim_quat_from_f32(cub + 4), b = anim_quat_from_f32(cub + 16);
    anim_quat mid = anim_quat_normalize(anim_quat_add(anim_quat_scale(a, 0.5), anim_quat_scale(b, 0.5)));
    assert_quat_near(anim_track_sample_quat(&c, 0.5), mid, 1e-15);
    assert_quat_near(anim_track_sample_quat(&c, 0.5), axis_angle(0, 0, 1, 45), 1e-7);
    fill_quat(cub + 4, anim_quat_identity(), 3);
    a = anim_quat_from_f32(cub + 4);
    mid = anim_quat_normalize(anim_quat_add(anim_quat_scale(a, 0.5), anim_quat_scale(b, 0.5)));
    assert_quat_near(anim_track_sample_quat(&c, 0.5), mid, 1e-15);
    /* Tangents scaled by dt: out-tangent (0,0,1,0) on key 0, dt = 1, u = .5
     * adds 0.125·(0,0,1,0) before normalization. */
    fill_quat(cub + 4, anim_quat_identity(), 1);
    a = anim_quat_from_f32(cub + 4);
    cub[10] = 1;
    anim_quat raw = anim_quat_add(anim_quat_add(anim_quat_scale(a, 0.5), anim_quat_scale(b, 0.5)),
                                  anim_quat_make(0, 0, 0.125, 0));
    assert_quat_near(anim_track_sample_quat(&c, 0.5), anim_quat_normalize(raw), 1e-15);
    /* at keys: normalized key values */
    assert_quat_near(anim_track_sample_quat(&c, 1), anim_quat_normalize(b), 0);
    assert_quat_near(anim_track_sample_quat(&c, 0), anim_quat_identity(), 0);
}

/* ---- pose and FK ---- */

static void test_pose_sample_rules(void **state)
{
    (void)state;
    anim_bone bones[3] = {make_bone("a", ANIM_NONE, 1, 2, 3), make_bone("b", 0, 4, 5, 6),
                          make_bone("c", 1, 7, 8, 9)};
    set_rest_rotation(&bones[2], axis_angle(1, 0, 0, 30));
    bones[2].rest_scale[1] = 2;
    static const float times[] = {0, 1};
    static const float tv[] = {0, 0, 0, 10, 10, 10};
    static const float tv2[] = {5, 5, 5, 5, 5, 5};
    static const float sv[] = {2, 2, 2, 4, 4, 4};
    static const float qv[] = {0, 0, 0, 1, 0, 0, 0, 1};
    anim_track tracks[8];
    tracks[0] = test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, times, 2, tv, 2);
    tracks[0].bone = 1;
    tracks[1] = test_support_track(ANIM_PATH_SCALE, ANIM_INTERP_LINEAR, times, 2, sv, 2);
    tracks[1].bone = 1;
    tracks[2] = test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, times, 2, tv, 2);
    tracks[2].bone = 7; /* out of range: ignored */
    tracks[3] = test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, times, 0, tv, 0);
    tracks[3].bone = 0; /* no keys: ignored */
    /* vec3 storage under path rotation writes nothing */
    tracks[4] = test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, times, 2, tv, 2);
    tracks[4].path = ANIM_PATH_ROTATION;
    tracks[4].bone = 0;
    /* quaternion storage always writes rotation, whatever the path says */
    tracks[5] = test_support_track(ANIM_PATH_ROTATION, ANIM_INTERP_LINEAR, times, 2, qv, 2);
    tracks[5].path = ANIM_PATH_SCALE;
    tracks[5].bone = 2;
    /* a later duplicate overwrites the earlier translation of bone 1 */
    tracks[6] = test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_STEP, times, 2, tv2, 2);
    tracks[6].bone = 1;
    /* morph-width track in the TRS list: no storage, ignored */
    tracks[7] = test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, times, 2, tv, 3);
    tracks[7].components = 2;
    tracks[7].bone = 0;
    /* morph tracks never touch the pose */
    anim_track morph = test_support_track(ANIM_PATH_WEIGHTS, ANIM_INTERP_LINEAR, times, 2, tv, 2);
    morph.bone = 0;
    anim_clip clip;
    memset(&clip, 0, sizeof clip);
    clip.tracks = tracks;
    clip.track_count = 8;
    clip.morph_tracks = &morph;
    clip.morph_track_count = 1;
    clip.duration_s = 1;
    anim_doc doc;
    memset(&doc, 0, sizeof doc);
    doc.bones = bones;
    doc.bone_count = 3;

    anim_trs pose[3];
    anim_pose_sample(&doc, &clip, 0.5, pose);
    /* bone 0: untouched rest */
    assert_vec3_near(pose[0].t, anim_vec3_make(1, 2, 3), 0);
    assert_quat_near(pose[0].r, anim_quat_identity(), 0);
    assert_vec3_near(pose[0].s, anim_vec3_make(1, 1, 1), 0);
    /* bone 1: translation from the later STEP duplicate, scale lerped */
    assert_vec3_near(pose[1].t, anim_vec3_make(5, 5, 5), 0);
    assert_vec3_near(pose[1].s, anim_vec3_make(3, 3, 3), EPS);
    assert_quat_near(pose[1].r, anim_quat_identity(), 0);
    /* bone 2: rest translation and scale, rotation from the quaternion track */
    assert_vec3_near(pose[2].t, anim_vec3_make(7, 8, 9), 0);
    assert_vec3_near(pose[2].s, anim_vec3_make(1, 2, 1), 0);
    assert_quat_near(pose[2].r, anim_quat_identity(), EPS);

    anim_trs rest[3];
    anim_pose_rest(&doc, rest);
    assert_quat_near(rest[2].r, axis_angle(1, 0, 0, 30), 0);
    anim_pose_sample(&doc, NULL, 0.5, pose);
    assert_memory_equal(pose, rest, sizeof rest);

    anim_trs one = anim_trs_identity();
    assert_false(anim_track_sample_into(&tracks[3], 0.5, &one));
    assert_false(anim_track_sample_into(&tracks[4], 0.5, &one));
    assert_true(anim_track_sample_into(&tracks[0], 1, &one));
    assert_vec3_near(one.t, anim_vec3_make(10, 10, 10), 0);
}

static void test_fk_chain(void **state)
{
    (void)state;
    /* root at (0,1,0) turned 90° about z; each child 1 m along its parent's
     * x and turned 90° more. */
    anim_bone bones[3] = {make_bone("root", ANIM_NONE, 0, 1, 0), make_bone("mid", 0, 1, 0, 0),
                          make_bone("tip", 1, 1, 0, 0)};
    set_rest_rotation(&bones[0], axis_angle(0, 0, 1, 90));
    set_rest_rotation(&bones[1], axis_angle(0, 0, 1, 90));
    anim_doc doc;
    memset(&doc, 0, sizeof doc);
    doc.bones = bones;
    doc.bone_count = 3;
    anim_trs local[3];
    anim_mat4 model[3];
    anim_quat rot[3];
    anim_pose_rest(&doc, local);
    anim_pose_fk(&doc, local, model, rot);
    assert_vec3_near(anim_mat4_translation(&model[0]), anim_vec3_make(0, 1, 0), EPS);
    assert_vec3_near(anim_mat4_translation(&model[1]), anim_vec3_make(0, 2, 0), EPS);
    assert_vec3_near(anim_mat4_translation(&model[2]), anim_vec3_make(-1, 2, 0), EPS);
    assert_quat_near(rot[2], axis_angle(0, 0, 1, 180), EPS);
    assert_quat_near(rot[1], axis_angle(0, 0, 1, 180), EPS);
    /* Uniform scale 2 on the root doubles the child offsets. */
    bones[0].rest_scale[0] = bones[0].rest_scale[1] = bones[0].rest_scale[2] = 2;
    anim_pose_rest(&doc, local);
    anim_pose_fk(&doc, local, model, NULL);
    assert_vec3_near(anim_mat4_translation(&model[1]), anim_vec3_make(0, 3, 0), EPS);
    assert_vec3_near(anim_mat4_translation(&model[2]), anim_vec3_make(-2, 3, 0), EPS);
    /* Rotations only. */
    anim_pose_fk(&doc, local, NULL, rot);
    assert_quat_near(rot[0], axis_angle(0, 0, 1, 90), EPS);
}

static void test_model_rotation_ignores_scale(void **state)
{
    (void)state;
    /* A non-uniformly scaled parent skews the child's model matrix, but the
     * model rotation is composed from rotations alone. */
    anim_bone bones[2] = {make_bone("parent", ANIM_NONE, 0, 0, 0), make_bone("child", 0, 1, 1, 0)};
    bones[0].rest_scale[1] = 3;
    anim_quat c = axis_angle(0, 0, 1, 45);
    set_rest_rotation(&bones[1], c);
    anim_doc doc;
    memset(&doc, 0, sizeof doc);
    doc.bones = bones;
    doc.bone_count = 2;
    anim_trs local[2];
    anim_mat4 model[2];
    anim_quat rot[2];
    anim_pose_rest(&doc, local);
    anim_pose_fk(&doc, local, model, rot);
    assert_quat_near(rot[1], c, 0);
    assert_vec3_near(anim_mat4_translation(&model[1]), anim_vec3_make(1, 3, 0), EPS);
    /* The matrix's own axes are no longer orthogonal (skew). */
    double dot = anim_vec3_dot(anim_mat4_column(&model[1], 0), anim_mat4_column(&model[1], 1));
    assert_true(fabs(dot) > 0.1);
}

static void test_fk_bad_parent_is_root(void **state)
{
    (void)state;
    /* A parent index not lower than the bone's own is treated as none. */
    anim_bone bones[2] = {make_bone("a", 1, 1, 0, 0), make_bone("b", 9, 0, 2, 0)};
    anim_doc doc;
    memset(&doc, 0, sizeof doc);
    doc.bones = bones;
    doc.bone_count = 2;
    anim_trs local[2];
    anim_mat4 model[2];
    anim_pose_rest(&doc, local);
    anim_pose_fk(&doc, local, model, NULL);
    assert_vec3_near(anim_mat4_translation(&model[0]), anim_vec3_make(1, 0, 0), 0);
    assert_vec3_near(anim_mat4_translation(&model[1]), anim_vec3_make(0, 2, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_lookup),
        cmocka_unit_test(test_track_validity),
        cmocka_unit_test(test_segment_search),
        cmocka_unit_test(test_segment_nonfinite_times),
        cmocka_unit_test(test_cursor_matches_binary_search),
        cmocka_unit_test(test_vec3_step_linear),
        cmocka_unit_test(test_vec3_cubic),
        cmocka_unit_test(test_value_fetch_tolerant),
        cmocka_unit_test(test_weights_step_linear),
        cmocka_unit_test(test_weights_cubic),
        cmocka_unit_test(test_rotation_linear),
        cmocka_unit_test(test_rotation_step_and_cubic),
        cmocka_unit_test(test_pose_sample_rules),
        cmocka_unit_test(test_fk_chain),
        cmocka_unit_test(test_model_rotation_ignores_scale),
        cmocka_unit_test(test_fk_bad_parent_is_root),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
