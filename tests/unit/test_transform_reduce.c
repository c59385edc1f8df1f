/* --reduce-keys MAX_ERROR_M (anim_transform_reduce_keys): collinear keys
 * go, a parent's rotation keeps its keys when a long child amplifies the
 * error (where a local-only tolerance would drop them), a zero bound
 * removes only exactly redundant keys, STEP keys go only on exact
 * repeats, cubic tracks are left and counted, the message, the refusals,
 * and on the example assets (and the corpus's Xbot when present) the
 * result re-sampled independently is within the bound. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/sample.h"
#include "animsmith/transform.h"
#include "support/test_support.h"

typedef struct {
    int node;
    const char *path;
    const char *interp;
    uint32_t keys;
    const float *times;
    const float *values;
} spec_track;

static anim_asset *build(const test_support_node *nodes, int node_count, const spec_track *tracks,
                         uint32_t count)
{
    test_support_gltf *g = test_support_gltf_new();
    test_support_gltf_nodes(g, nodes, node_count);
    test_support_gltf_animation(g, "a");
    for (uint32_t i = 0; i < count; i++)
        test_support_gltf_track(g, tracks[i].node, tracks[i].path, tracks[i].interp,
                                tracks[i].keys, tracks[i].times, tracks[i].values, 0);
    anim_asset *a = test_support_gltf_load(g, "mem.gltf");
    test_support_gltf_free(g);
    anim_error err;
    assert_int_equal(anim_clip_detach(a->arena, &a->doc.clips[0], &err), 0);
    return a;
}

static const test_support_node root = {"n", -1, 0, {0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};

static const float eighths[] = {0, 0.125f, 0.25f, 0.375f, 0.5f, 0.625f, 0.75f, 0.875f, 1};

static int reduce(anim_asset *a, uint32_t clip, double bound, anim_reduce_result *r,
                  anim_strbuf *msg)
{
    anim_error err;
    anim_error_clear(&err);
    int rc = anim_transform_reduce_keys(a->arena, &a->doc, &a->doc.clips[clip], bound, r, msg,
                                        &err);
    if (rc != 0)
        print_error("%s\n", err.message);
    return rc;
}

static void expect_times(const anim_track *t, const float *want, uint32_t n)
{
    assert_int_equal(t->key_count, n);
    assert_int_equal(t->value_count, n);
    for (uint32_t k = 0; k < n; k++)
        assert_true(t->times[k] == want[k]);
}

static void test_collinear_ramp_to_two_keys(void **state)
{
    (void)state;
    float v[27];
    for (int k = 0; k < 9; k++) {
        v[3 * k] = 0.5f * (float)k;
        v[3 * k + 1] = -0.25f * (float)k;
        v[3 * k + 2] = 1.0f;
    }
    spec_track tr = {0, "translation", "LINEAR", 9, eighths, v};
    anim_asset *a = build(&root, 1, &tr, 1);
    anim_reduce_result r;
    anim_strbuf msg = ANIM_STRBUF_INIT;
    assert_int_equal(reduce(a, 0, 0.001, &r, &msg), 0);
    const anim_track *t = &a->doc.clips[0].tracks[0];
    const float ends[] = {0.0f, 1.0f};
    expect_times(t, ends, 2);
    assert_true(t->values[3] == 4.0f && t->values[4] == -2.0f && t->values[5] == 1.0f);
    assert_true(r.keys_before == 9 && r.keys_after == 2);
    assert_true(r.max_error_m == 0.0);
    /* The grid at a quarter of 1/8 s: 33 times, the key times among them. */
    assert_int_equal(r.check_samples, 33);
    assert_int_equal(a->doc.clips[0].max_keys, 2);
    test_support_expect_str(msg.data, "  reduced keys 'a': 9 -> 2 key(s), largest error 0.000000 m "
                                      "(bound 0.001 m, 33 check sample(s))\n");
    anim_strbuf_free(&msg);
    anim_asset_free(a);
}

/* x: a ramp to key 4 (keys 1..3 exactly on it), a corner, a gentler ramp
 * with key 6 lifted by 2^-12. A zero bound removes keys 1..3 only; a
 * millimetre also removes 5..7. */
static void test_zero_bound_exact_only(void **state)
{
    (void)state;
    float v[27] = {0};
    for (int k = 0; k < 9; k++)
        v[3 * k] = k <= 4 ? 0.5f * (float)k : 2.0f + 0.25f * (float)(k - 4);
    v[3 * 6 + 1] = 1.0f / 4096.0f;
    spec_track tr = {0, "translation", "LINEAR", 9, eighths, v};
    anim_asset *a = build(&root, 1, &tr, 1);
    anim_reduce_result r;
    anim_strbuf msg = ANIM_STRBUF_INIT;
    assert_int_equal(reduce(a, 0, 0.0, &r, &msg), 0);
    const float exact[] = {0.0f, 0.5f, 0.625f, 0.75f, 0.875f, 1.0f};
    expect_times(&a->doc.clips[0].tracks[0], exact, 6);
    assert_true(r.max_error_m == 0.0);
    assert_non_null(strstr(msg.data, "9 -> 6 key(s), largest error 0.000000 m (bound 0 m,"));
    anim_asset_free(a);

    a = build(&root, 1, &tr, 1);
    assert_int_equal(reduce(a, 0, 0.001, &r, &msg), 0);
    const float coarse[] = {0.0f, 0.5f, 1.0f};
    expect_times(&a->doc.clips[0].tracks[0], coarse, 3);
    assert_true(r.max_error_m > 0.0 && r.max_error_m <= 0.001);
    anim_strbuf_free(&msg);
    anim_asset_free(a);
}

/* The largest model-space distance of bone `bone` between the clip as it
 * was (tracks) and as it is, at the given times. */
static double bone_error(const anim_doc *doc, const anim_clip *clip, const anim_track *tracks,
                         const double *times, uint32_t n)
{
    anim_clip before = *clip;
    before.tracks = (anim_track *)tracks;
    anim_metric_grid g0, g1;
    anim_error err;
    assert_int_equal(anim_metric_grid_at_times(doc, &before, times, n, &g0, &err), 0);
    assert_int_equal(anim_metric_grid_at_times(doc, clip, times, n, &g1, &err), 0);
    double worst = 0.0;
    for (uint32_t f = 0; f < n; f++)
        for (uint32_t b = 0; b < doc->bone_count; b++) {
            size_t i = anim_metric_grid_index(&g0, f, b);
            anim_vec3 p0 = g0.model_pos[i], p1 = g1.model_pos[i];
            if (!anim_vec3_is_finite(p0) && !anim_vec3_is_finite(p1))
                continue;
            double e = anim_vec3_dist(p0, p1);
            if (!(e <= worst))
                worst = e;
        }
    anim_metric_grid_free(&g0);
    anim_metric_grid_free(&g1);
    return worst;
}

/* A parent turning by +-0.5 mrad around z with a child 10 m out: every
 * local deviation is under 1 mrad, so a local-only tolerance of the bound
 * (read as radians) would keep only the end keys, and the child would
 * then be 5 mm off. The reduction must keep the parent's keys. */
static void test_parent_error_amplified_at_child(void **state)
{
    (void)state;
    test_support_node nodes[] = {
        {"parent", -1, 0, {0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}},
        {"child", 0, TEST_SUPPORT_T, {10, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}},
    };
    float q[36];
    for (int k = 0; k < 9; k++) {
        double angle = (k % 2) ? 5e-4 : 0.0;
        q[4 * k] = 0;
        q[4 * k + 1] = 0;
        q[4 * k + 2] = (float)sin(angle / 2);
        q[4 * k + 3] = (float)cos(angle / 2);
    }
    spec_track tr = {0, "rotation", "LINEAR", 9, eighths, q};
    anim_asset *a = build(nodes, 2, &tr, 1);
    anim_clip *clip = &a->doc.clips[0];
    anim_track original = clip->tracks[0];
    double times[9];
    for (int k = 0; k < 9; k++)
        times[k] = eighths[k];

    /* What the local-only rule would write: the two end keys. */
    anim_track naive = original;
    naive.key_count = naive.value_count = 2;
    float nt[2] = {0.0f, 1.0f}, nv[8];
    memcpy(nv, q, 4 * sizeof(float));
    memcpy(nv + 4, q + 32, 4 * sizeof(float));
    naive.times = nt;
    naive.values = nv;
    anim_clip naive_clip = *clip;
    naive_clip.tracks = &naive;
    assert_true(bone_error(&a->doc, &naive_clip, &original, times, 9) > 0.004);

    anim_reduce_result r;
    anim_strbuf msg = ANIM_STRBUF_INIT;
    assert_int_equal(reduce(a, 0, 0.001, &r, &msg), 0);
    assert_true(clip->tracks[0].key_count > 2);
    assert_true(r.max_error_m <= 0.001);
    assert_true(bone_error(&a->doc, clip, &original, times, 9) <= 0.001);
    anim_strbuf_free(&msg);
    anim_asset_free(a);
}

/* STEP keys go only when they repeat the previous kept key exactly,
 * whatever the bound: 1e-7 apart is a different step. */
static void test_step_exact_repeats_only(void **state)
{
    (void)state;
    const float x[] = {1, 1, 1.0000001f, 2, 2, 3, 3};
    float v[21] = {0};
    for (int k = 0; k < 7; k++)
        v[3 * k] = x[k];
    spec_track tr = {0, "translation", "STEP", 7, eighths, v};
    anim_asset *a = build(&root, 1, &tr, 1);
    anim_reduce_result r;
    anim_strbuf msg = ANIM_STRBUF_INIT;
    assert_int_equal(reduce(a, 0, 1.0, &r, &msg), 0);
    const anim_track *t = &a->doc.clips[0].tracks[0];
    const float kept[] = {0.0f, 0.25f, 0.375f, 0.625f, 0.75f};
    expect_times(t, kept, 5);
    const float want[] = {1, 1.0000001f, 2, 3, 3};
    for (int k = 0; k < 5; k++)
        assert_true(t->values[3 * k] == want[k]);
    assert_int_equal(t->interp, ANIM_INTERP_STEP);
    assert_true(r.max_error_m == 0.0);
    anim_strbuf_free(&msg);
    anim_asset_free(a);
}

static void test_cubic_left_and_counted(void **state)
{
    (void)state;
    float lin[27] = {0}, cub[81] = {0};
    for (int k = 0; k < 9; k++) {
        lin[3 * k + 1] = (float)k;
        cub[9 * k + 3] = (float)k; /* value element of key k */
    }
    spec_track tr[] = {{0, "translation", "LINEAR", 9, eighths, lin},
                       {0, "scale", "CUBICSPLINE", 9, eighths, cub}};
    anim_asset *a = build(&root, 1, tr, 2);
    anim_reduce_result r;
    anim_strbuf msg = ANIM_STRBUF_INIT;
    assert_int_equal(reduce(a, 0, 0.001, &r, &msg), 0);
    assert_int_equal(a->doc.clips[0].tracks[0].key_count, 2);
    assert_int_equal(a->doc.clips[0].tracks[1].key_count, 9);
    assert_int_equal(a->doc.clips[0].tracks[1].interp, ANIM_INTERP_CUBICSPLINE);
    test_support_expect_str(msg.data,
                            "  reduced keys 'a': 18 -> 11 key(s), largest error 0.000000 m "
                            "(bound 0.001 m, 33 check sample(s)); 1 cubic/morph track(s) left "
                            "as authored\n");
    anim_strbuf_free(&msg);
    anim_asset_free(a);
}

static void test_refusals(void **state)
{
    (void)state;
    const float v[] = {0, 0, 0, 1, 0, 0};
    spec_track tr = {0, "translation", "LINEAR", 2, eighths, v};
    anim_asset *a = build(&root, 1, &tr, 1);
    const double bad[] = {-0.001, NAN, INFINITY};
    const char *want[] = {"got -0.001", "got NaN", "got inf"};
    for (int i = 0; i < 3; i++) {
        anim_strbuf msg = ANIM_STRBUF_INIT;
        anim_error err;
        assert_int_equal(anim_transform_reduce_keys(a->arena, &a->doc, &a->doc.clips[0], bad[i],
                                                    NULL, &msg, &err),
                         -1);
        assert_true(strncmp(err.message, "clip 'a': --reduce-keys wants", 29) == 0);
        assert_non_null(strstr(err.message, want[i]));
        assert_int_equal(msg.len, 0);
        anim_strbuf_free(&msg);
    }
    anim_asset_free(a);
}

/* ---- real files ---- */

/* Every distinct key time of the clip's TRS tracks (all check times). */
static double *key_times(const anim_clip *clip, uint32_t *n)
{
    uint32_t total = 0;
    for (uint32_t i = 0; i < clip->track_count; i++)
        total += clip->tracks[i].key_count;
    double *t = malloc((total + 1) * sizeof *t);
    assert_non_null(t);
    *n = 0;
    for (uint32_t i = 0; i < clip->track_count; i++)
        for (uint32_t k = 0; k < clip->tracks[i].key_count; k++)
            t[(*n)++] = clip->tracks[i].times[k];
    if (*n == 0)
        t[(*n)++] = 0.0;
    return t;
}

/* Reduces every clip at 1 mm and re-samples the result independently at
 * every original key time: within the bound, and keys only ever go. */
static void check_file(anim_asset *a, const char *name, uint64_t *removed)
{
    for (uint32_t c = 0; c < a->doc.clip_count; c++) {
        anim_clip *clip = &a->doc.clips[c];
        anim_error err;
        assert_int_equal(anim_clip_detach(a->arena, clip, &err), 0);
        anim_track *orig = malloc((clip->track_count + 1) * sizeof *orig);
        assert_non_null(orig);
        memcpy(orig, clip->tracks, clip->track_count * sizeof *orig);
        uint32_t n;
        double *times = key_times(clip, &n);
        anim_reduce_result r;
        anim_strbuf msg = ANIM_STRBUF_INIT;
        assert_int_equal(reduce(a, c, 0.001, &r, &msg), 0);
        double e = bone_error(&a->doc, clip, orig, times, n);
        if (!(r.max_error_m <= 0.001) || !(e <= 0.001) || r.keys_after > r.keys_before) {
            print_error("%s clip '%s': reported %.9g, measured %.9g, keys %llu -> %llu\n", name,
                        clip->name, r.max_error_m, e, (unsigned long long)r.keys_before,
                        (unsigned long long)r.keys_after);
            fail();
        }
        *removed += r.keys_before - r.keys_after;
        anim_strbuf_free(&msg);
        free(times);
        free(orig);
    }
}

static void test_examples_within_bound(void **state)
{
    (void)state;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/examples/assets", test_support_source_dir());
    DIR *d = opendir(dir);
    assert_non_null(d);
    uint32_t files = 0;
    uint64_t removed = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 4, ".glb") != 0)
            continue;
        anim_asset *a = test_support_load_example(e->d_name);
        check_file(a, e->d_name, &removed);
        anim_asset_free(a);
        files++;
    }
    closedir(d);
    assert_true(files >= 5);
    assert_true(removed > 0);
}

static void test_corpus_xbot_within_bound(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/../shared/corpus/gltf/Xbot.glb", test_support_source_dir());
    FILE *f = fopen(path, "rb");
    if (!f)
        skip(); /* corpus absent */
    fclose(f);
    anim_error err;
    anim_asset *a = anim_asset_load(path, NULL, &err);
    assert_non_null(a);
    uint64_t removed = 0;
    check_file(a, "Xbot.glb", &removed);
    assert_true(removed > 0);
    anim_asset_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collinear_ramp_to_two_keys),
        cmocka_unit_test(test_zero_bound_exact_only),
        cmocka_unit_test(test_parent_error_amplified_at_child),
        cmocka_unit_test(test_step_exact_repeats_only),
        cmocka_unit_test(test_cubic_left_and_counted),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_examples_within_bound),
        cmocka_unit_test(test_corpus_xbot_within_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
