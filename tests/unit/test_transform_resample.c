/* --resample FPS (anim_transform_resample): exact values at the grid
 * points for LINEAR, STEP, CUBICSPLINE and rotation tracks (with the
 * hemisphere alignment), morph-weight tracks, the grid's closing key and
 * the unchanged duration, the message, and the refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/transform.h"
#include "support/test_support.h"

typedef struct {
    const char *path;
    const char *interp;
    uint32_t keys;
    const float *times;
    const float *values;
} spec_track;

/* One root node "n" and one clip "a" of the given tracks. */
static anim_asset *one_clip(const spec_track *tracks, uint32_t count)
{
    test_support_node node = {"n", -1, 0, {0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
    test_support_gltf *g = test_support_gltf_new();
    test_support_gltf_nodes(g, &node, 1);
    test_support_gltf_animation(g, "a");
    for (uint32_t i = 0; i < count; i++)
        test_support_gltf_track(g, 0, tracks[i].path, tracks[i].interp, tracks[i].keys,
                                tracks[i].times, tracks[i].values, 0);
    anim_asset *a = test_support_gltf_load(g, "mem.gltf");
    test_support_gltf_free(g);
    anim_error err;
    assert_int_equal(anim_clip_detach(a->arena, &a->doc.clips[0], &err), 0);
    return a;
}

static int resample(anim_asset *a, double fps, anim_strbuf *msg, anim_error *err)
{
    return anim_transform_resample(a->arena, &a->doc, &a->doc.clips[0], fps, msg, err);
}

static void expect_times(const anim_track *t, const float *want, uint32_t n)
{
    assert_int_equal(t->key_count, n);
    for (uint32_t k = 0; k < n; k++)
        assert_true(t->times[k] == want[k]);
}

static const float quarter_times[] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};

static void test_linear_values_on_grid(void **state)
{
    (void)state;
    const float times[] = {0.0f, 1.0f};
    const float values[] = {0, 0, 0, 4, 8, -4};
    spec_track tr = {"translation", "LINEAR", 2, times, values};
    anim_asset *a = one_clip(&tr, 1);
    anim_strbuf msg = ANIM_STRBUF_INIT;
    anim_error err;
    assert_int_equal(resample(a, 4.0, &msg, &err), 0);
    const anim_track *t = &a->doc.clips[0].tracks[0];
    expect_times(t, quarter_times, 5);
    assert_int_equal(t->interp, ANIM_INTERP_LINEAR);
    assert_int_equal(t->value_count, 5);
    for (uint32_t k = 0; k < 5; k++) {
        assert_true(t->values[3 * k] == (float)k);
        assert_true(t->values[3 * k + 1] == 2.0f * (float)k);
        assert_true(t->values[3 * k + 2] == -(float)k);
    }
    assert_int_equal(a->doc.clips[0].max_keys, 5);
    test_support_expect_str(msg.data, "  resampled 'a' at 4 fps: 1 track(s), 2 -> 5 key(s)\n");
    anim_strbuf_free(&msg);
    anim_asset_free(a);
}

static void test_step_stays_step(void **state)
{
    (void)state;
    const float times[] = {0.0f, 0.5f, 1.0f};
    const float values[] = {1, 0, 0, 2, 0, 0, 3, 0, 0};
    spec_track tr = {"translation", "STEP", 3, times, values};
    anim_asset *a = one_clip(&tr, 1);
    anim_strbuf msg = ANIM_STRBUF_INIT;
    anim_error err;
    assert_int_equal(resample(a, 4.0, &msg, &err), 0);
    const anim_track *t = &a->doc.clips[0].tracks[0];
    expect_times(t, quarter_times, 5);
    assert_int_equal(t->interp, ANIM_INTERP_STEP);
    const float want[] = {1, 1, 2, 2, 3};
    for (uint32_t k = 0; k < 5; k++)
        assert_true(t->values[3 * k] == want[k]);
    anim_strbuf_free(&msg);
    anim_asset_free(a);
}

static void test_cubic_evaluated_as_hermite(void **state)
{
    (void)state;
    /* p0 = 0, p1 = 1, out-tangent of key 0 = 1, in-tangent of key 1 = 0:
     * p(u) = h10 + h01 = u^3 - 2u^2 + u - 2u^3 + 3u^2 = -u^3 + u^2 + u. */
    const float times[] = {0.0f, 1.0f};
    const float values[] = {0, 0, 0, 0, 0, 0, 1, 0, 0, /* key 0: in, value, out */
                            0, 0, 0, 1, 0, 0, 0, 0, 0}; /* key 1 */
    spec_track tr = {"translation", "CUBICSPLINE", 2, times, values};
    anim_asset *a = one_clip(&tr, 1);
    anim_strbuf msg = ANIM_STRBUF_INIT;
    anim_error err;
    assert_int_equal(resample(a, 4.0, &msg, &err), 0);
    const anim_track *t = &a->doc.clips[0].tracks[0];
    expect_times(t, quarter_times, 5);
    assert_int_equal(t->interp, ANIM_INTERP_LINEAR);
    assert_int_equal(t->value_count, 5); /* one element per key now */
    for (uint32_t k = 0; k < 5; k++) {
        double u = k / 4.0;
        assert_true(t->values[3 * k] == (float)(-u * u * u + u * u + u));
    }
    anim_strbuf_free(&msg);
    anim_asset_free(a);
}

/* Key 1 is stored on the far hemisphere: the sampler takes the short
 * way, and the output keeps every key on its neighbour's side. */
static void test_rotation_hemisphere_aligned(void **state)
{
    (void)state;
    const double h = sqrt(0.5);
    const float times[] = {0.0f, 1.0f};
    const float values[] = {0, 0, 0, 1, 0, 0, (float)-h, (float)-h};
    spec_track tr = {"rotation", "LINEAR", 2, times, values};
    anim_asset *a = one_clip(&tr, 1);
    anim_strbuf msg = ANIM_STRBUF_INIT;
    anim_error err;
    assert_int_equal(resample(a, 2.0, &msg, &err), 0);
    const anim_track *t = &a->doc.clips[0].tracks[0];
    const float want_t[] = {0.0f, 0.5f, 1.0f};
    expect_times(t, want_t, 3);
    const double angle[] = {0.0, ANIM_PI / 4.0, ANIM_PI / 2.0}; /* about +z */
    for (uint32_t k = 0; k < 3; k++) {
        const float *q = t->values + 4 * k;
        assert_true(q[0] == 0.0f && q[1] == 0.0f);
        assert_true(fabs(q[2] - sin(angle[k] / 2.0)) < 1e-7);
        assert_true(fabs(q[3] - cos(angle[k] / 2.0)) < 1e-7);
        double len = sqrt((double)q[2] * q[2] + (double)q[3] * q[3]);
        assert_true(fabs(len - 1.0) < 1e-7);
    }
    anim_strbuf_free(&msg);
    anim_asset_free(a);
}

/* The grid ends on the duration: a duration on the grid closes it, one
 * off the grid adds a final key, and the duration itself never moves. */
static void test_grid_closes_on_duration(void **state)
{
    (void)state;
    const float values[] = {0, 0, 0, 1, 0, 0};
    const float on_grid[] = {0.0f, 0.7f};
    spec_track tr = {"translation", "LINEAR", 2, on_grid, values};
    anim_asset *a = one_clip(&tr, 1);
    anim_strbuf msg = ANIM_STRBUF_INIT;
    anim_error err;
    double before = a->doc.clips[0].duration_s;
    assert_int_equal(resample(a, 30.0, &msg, &err), 0);
    const anim_track *t = &a->doc.clips[0].tracks[0];
    assert_int_equal(t->key_count, 22);
    for (uint32_t k = 0; k < 22; k++)
        assert_true(t->times[k] == (float)(k / 30.0));
    assert_true(t->times[21] == 0.7f);
    assert_true(a->doc.clips[0].duration_s == before);
    anim_asset_free(a);

    const float off_grid[] = {0.0f, 0.71f};
    tr.times = off_grid;
    a = one_clip(&tr, 1);
    before = a->doc.clips[0].duration_s;
    assert_int_equal(resample(a, 30.0, &msg, &err), 0);
    t = &a->doc.clips[0].tracks[0];
    assert_int_equal(t->key_count, 23);
    assert_true(t->times[21] == (float)(21 / 30.0));
    assert_true(t->times[22] == 0.71f);
    assert_true(a->doc.clips[0].duration_s == before);
    assert_true(fabs(t->values[3 * 22] - 1.0f) == 0.0);
    anim_strbuf_free(&msg);
    anim_asset_free(a);
}

/* A duration a hair past a grid time (within the tolerance) does not
 * earn a sliver of a final segment: the last grid key moves onto it. */
static void test_grid_snaps_within_tolerance(void **state)
{
    (void)state;
    const float values[] = {0, 0, 0, 1, 0, 0};
    const float times[] = {0.0f, 0.5f};
    spec_track tr = {"translation", "LINEAR", 2, times, values};
    anim_asset *a = one_clip(&tr, 1);
    anim_clip *clip = &a->doc.clips[0];
    clip->duration_s = 0.5 + 3e-7; /* (f32) of it is 0.5000003 */
    anim_strbuf msg = ANIM_STRBUF_INIT;
    anim_error err;
    assert_int_equal(resample(a, 10.0, &msg, &err), 0);
    const anim_track *t = &clip->tracks[0];
    assert_int_equal(t->key_count, 6);
    assert_true(t->times[5] == (float)clip->duration_s);
    assert_true(t->times[4] == (float)0.4);
    anim_strbuf_free(&msg);
    anim_asset_free(a);
}

/* A single key holds everywhere: it stays one key. */
static void test_single_key_stays(void **state)
{
    (void)state;
    const float one[] = {0.0f};
    const float two[] = {0.0f, 1.0f};
    const float v1[] = {5, 6, 7};
    const float v2[] = {0, 0, 0, 1, 1, 1};
    spec_track tr[] = {{"scale", "LINEAR", 1, one, v1}, {"translation", "LINEAR", 2, two, v2}};
    anim_asset *a = one_clip(tr, 2);
    anim_strbuf msg = ANIM_STRBUF_INIT;
    anim_error err;
    assert_int_equal(resample(a, 2.0, &msg, &err), 0);
    const anim_track *t = &a->doc.clips[0].tracks[0];
    assert_int_equal(t->key_count, 1);
    assert_true(t->values[0] == 5.0f && t->values[2] == 7.0f);
    assert_int_equal(a->doc.clips[0].tracks[1].key_count, 3);
    test_support_expect_str(msg.data, "  resampled 'a' at 2 fps: 2 track(s), 3 -> 4 key(s)\n");
    anim_strbuf_free(&msg);
    anim_asset_free(a);
}

/* Morph weights: every component interpolated alike, LINEAR and
 * CUBICSPLINE, even at widths 3 and 4 that are not positions or rotations. */
static void test_morph_weights(void **state)
{
    (void)state;
    const float times[] = {0.0f, 1.0f};
    const float lin[] = {0, 1, 2, 3, 4, 5, 6, 7};
    const float cub[] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1,  /* key 0 */
                         0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0}; /* key 1 */
    const float tv[] = {0, 0, 0, 1, 0, 0};
    spec_track tr = {"translation", "LINEAR", 2, times, tv};
    anim_asset *a = one_clip(&tr, 1);
    anim_track morph[2];
    memset(morph, 0, sizeof morph);
    for (int i = 0; i < 2; i++) {
        morph[i].path = ANIM_PATH_WEIGHTS;
        morph[i].key_count = 2;
        morph[i].times = times;
        morph[i].components = 4;
    }
    morph[0].interp = ANIM_INTERP_LINEAR;
    morph[0].value_count = 2;
    morph[0].values = lin;
    morph[1].interp = ANIM_INTERP_CUBICSPLINE;
    morph[1].value_count = 6;
    morph[1].values = cub;
    anim_clip *clip = &a->doc.clips[0];
    clip->morph_tracks = morph;
    clip->morph_track_count = 2;
    anim_strbuf msg = ANIM_STRBUF_INIT;
    anim_error err;
    assert_int_equal(resample(a, 4.0, &msg, &err), 0);
    for (uint32_t k = 0; k < 5; k++) {
        double u = k / 4.0;
        for (uint32_t c = 0; c < 4; c++) {
            assert_true(morph[0].values[4 * k + c] == (float)(c * (1 - u) + (c + 4) * u));
            assert_true(morph[1].values[4 * k + c] == (float)(-u * u * u + u * u + u));
        }
    }
    assert_int_equal(morph[1].interp, ANIM_INTERP_LINEAR);
    assert_int_equal(morph[1].value_count, 5);
    test_support_expect_str(msg.data, "  resampled 'a' at 4 fps: 3 track(s), 6 -> 15 key(s)\n");
    anim_strbuf_free(&msg);
    anim_asset_free(a);
}

/* A clip of morph weights alone has no TRS duration: the grid still runs
 * to the end of its weights (AnimatedMorphCube's shape). */
static void test_morph_only_clip(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    static const float times[3] = {0.0f, 0.5f, 1.0f};
    static const float w[3] = {0.0f, 1.0f, 0.0f};
    anim_track morph = test_support_track(ANIM_PATH_WEIGHTS, ANIM_INTERP_LINEAR, times, 3, w, 3);
    morph.components = 1;
    anim_clip clip;
    memset(&clip, 0, sizeof clip);
    clip.name = "shape";
    clip.morph_tracks = &morph;
    clip.morph_track_count = 1;
    anim_doc doc;
    memset(&doc, 0, sizeof doc);
    anim_strbuf msg = ANIM_STRBUF_INIT;
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(anim_transform_resample(arena, &doc, &clip, 4.0, &msg, &err), 0);
    static const float want[5] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
    expect_times(&morph, want, 5);
    assert_true(morph.values[1] == 0.5f && morph.values[2] == 1.0f && morph.values[4] == 0.0f);
    test_support_expect_str(msg.data, "  resampled 'shape' at 4 fps: 1 track(s), 3 -> 5 key(s)\n");
    anim_strbuf_free(&msg);
    anim_arena_free(arena);
}

/* A clip name from the file goes through the same escaping as every other
 * step's line: a control character never reaches the terminal raw. */
static void test_clip_name_escaped(void **state)
{
    (void)state;
    const float times[] = {0.0f, 1.0f};
    const float values[] = {0, 0, 0, 4, 8, -4};
    spec_track tr = {"translation", "LINEAR", 2, times, values};
    anim_asset *a = one_clip(&tr, 1);
    a->doc.clips[0].name = "a\x1b[2J";
    anim_strbuf msg = ANIM_STRBUF_INIT;
    anim_error err;
    assert_int_equal(resample(a, 4.0, &msg, &err), 0);
    test_support_expect_str(msg.data,
                            "  resampled 'a\\u{1b}[2J' at 4 fps: 1 track(s), 2 -> 5 key(s)\n");
    anim_strbuf_reset(&msg);
    assert_int_equal(anim_transform_reduce_keys(a->arena, &a->doc, &a->doc.clips[0], 0.001, NULL,
                                                &msg, &err),
                     0);
    assert_non_null(strstr(msg.data, "  reduced keys 'a\\u{1b}[2J': 5 -> 2 key(s)"));
    anim_strbuf_free(&msg);
    anim_asset_free(a);
}

static void expect_refusal(anim_asset *a, double fps, const char *want_part)
{
    anim_strbuf msg = ANIM_STRBUF_INIT;
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(resample(a, fps, &msg, &err), -1);
    if (!strstr(err.message, want_part)) {
        print_error("message: %s\nwanted: %s\n", err.message, want_part);
        fail();
    }
    assert_true(strncmp(err.message, "clip 'a': ", 10) == 0);
    assert_int_equal(msg.len, 0);
    anim_strbuf_free(&msg);
}

static void test_refusals(void **state)
{
    (void)state;
    const float times[] = {0.0f, 1.0f};
    const float values[] = {0, 0, 0, 1, 0, 0};
    spec_track tr = {"translation", "LINEAR", 2, times, values};
    anim_asset *a = one_clip(&tr, 1);
    expect_refusal(a, 0.0, "at most 1000 fps, got 0");
    expect_refusal(a, -30.0, "got -30");
    expect_refusal(a, NAN, "got NaN");
    expect_refusal(a, INFINITY, "got inf");
    expect_refusal(a, 1000.5, "got 1000.5");
    anim_clip *clip = &a->doc.clips[0];
    clip->duration_s = 20000.0; /* 20,000,001 grid keys + 1 x 1 track */
    expect_refusal(a, 1000.0, "needs 20000002 key(s) x 1 track(s) = 20000002 keys, over the "
                              "10000000-key limit");
    clip->duration_s = INFINITY;
    expect_refusal(a, 30.0, "duration is not a finite");
    clip->duration_s = 1.0;
    assert_true(clip->tracks[0].key_count == 2); /* nothing was touched */
    anim_asset_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear_values_on_grid),
        cmocka_unit_test(test_step_stays_step),
        cmocka_unit_test(test_cubic_evaluated_as_hermite),
        cmocka_unit_test(test_rotation_hemisphere_aligned),
        cmocka_unit_test(test_grid_closes_on_duration),
        cmocka_unit_test(test_grid_snaps_within_tolerance),
        cmocka_unit_test(test_single_key_stays),
        cmocka_unit_test(test_morph_weights),
        cmocka_unit_test(test_morph_only_clip),
        cmocka_unit_test(test_clip_name_escaped),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
