/* --gait-anchor (anim_transform_gait_anchor): the rotation on the walk
 * example, and every refusal family on small in-memory gaits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/heading.h"
#include "animsmith/measure_loop.h"
#include "animsmith/rig.h"
#include "animsmith/sample.h"
#include "animsmith/transform.h"
#include "support/test_support.h"

#define ALT                                                                                        \
    "retain source root motion, use runtime phase offsets, or use a separately designed "       \
    "trajectory-preserving operation"

static void expect_text(const char *got, const char *want)
{
    if (strcmp(got, want) != 0) {
        print_error("got:  %s\nwant: %s\n", got, want);
        fail();
    }
}

/* ---- a small in-memory gait -------------------------------------------- */

/* 1 s at 8 fps: K = 9 frames, the last repeating the first. */
#define FPS 8.0
#define SK 9

typedef struct {
    anim_bone bones[3];
    anim_doc doc;
    anim_clip clip;
    anim_track tracks[4];
    anim_track morph[1];
    float times[SK];
    float left[SK * 3], right[SK * 3];
    float hips_rot[SK * 4];
    float weights[SK * 2];
    anim_rig_resolution rig;
    anim_arena *arena;
    anim_strbuf msg;
    anim_error err;
} synth;

static anim_bone bone(const char *name, uint32_t parent, double x, double y)
{
    anim_bone b;
    memset(&b, 0, sizeof b);
    b.name = name;
    b.has_name = true;
    b.parent = parent;
    b.rest_translation[0] = x;
    b.rest_translation[1] = y;
    b.rest_rotation[3] = 1.0;
    b.rest_scale[0] = b.rest_scale[1] = b.rest_scale[2] = 1.0;
    return b;
}

/* Hips (the Hips-fallback trajectory) with two feet whose heights swing
 * in opposition by 0.1 m, both as LINEAR translation tracks keyed on
 * every frame. */
static void synth_init(synth *s, double lift)
{
    memset(s, 0, sizeof *s);
    s->bones[0] = bone("pelvis", ANIM_NONE, 0.0, 1.0);
    s->bones[1] = bone("foot_l", 0, 0.1, -1.0);
    s->bones[2] = bone("foot_r", 0, -0.1, -1.0);
    s->doc.bones = s->bones;
    s->doc.bone_count = s->doc.node_count = 3;
    for (uint32_t k = 0; k < SK; k++) {
        s->times[k] = (float)(k / FPS);
        double w = sin(2.0 * ANIM_PI * (double)(k % (SK - 1)) / (double)(SK - 1));
        float *l = &s->left[k * 3], *r = &s->right[k * 3];
        l[0] = 0.1f, l[1] = (float)(-1.0 + lift * (1.0 + w)), l[2] = 0.0f;
        r[0] = -0.1f, r[1] = (float)(-1.0 + lift * (1.0 - w)), r[2] = 0.0f;
        s->hips_rot[k * 4 + 3] = 1.0f;
        s->weights[k * 2] = (float)k;
        s->weights[k * 2 + 1] = 0.5f;
    }
    s->tracks[0] = test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, s->times, SK,
                                      s->left, SK);
    s->tracks[0].bone = 1;
    s->tracks[1] = test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, s->times, SK,
                                      s->right, SK);
    s->tracks[1].bone = 2;
    /* A constant rotation on the hips: invariant, so exempt and untouched. */
    s->tracks[2] = test_support_track(ANIM_PATH_ROTATION, ANIM_INTERP_LINEAR, s->times, SK,
                                      s->hips_rot, SK);
    s->tracks[2].bone = 0;
    s->clip.name = "walk";
    s->clip.duration_s = 1.0;
    s->clip.tracks = s->tracks;
    s->clip.track_count = 3;
    s->clip.max_keys = SK;
    s->doc.clips = &s->clip;
    s->doc.clip_count = 1;
    for (int r = 0; r < ANIM_ROLE_COUNT; r++)
        s->rig.bone[r] = ANIM_NONE;
    s->rig.bone[ANIM_ROLE_HIPS] = 0;
    s->rig.bone[ANIM_ROLE_LEFT_FOOT] = 1;
    s->rig.bone[ANIM_ROLE_RIGHT_FOOT] = 2;
    s->arena = anim_arena_new();
    assert_non_null(s->arena);
}

static void synth_morph(synth *s)
{
    s->morph[0].bone = 0;
    s->morph[0].path = ANIM_PATH_WEIGHTS;
    s->morph[0].interp = ANIM_INTERP_LINEAR;
    s->morph[0].key_count = SK;
    s->morph[0].times = s->times;
    s->morph[0].components = 2;
    s->morph[0].value_count = SK;
    s->morph[0].values = s->weights;
    s->clip.morph_tracks = s->morph;
    s->clip.morph_track_count = 1;
}

static void synth_free(synth *s)
{
    anim_strbuf_free(&s->msg);
    anim_arena_free(s->arena);
}

static int synth_run(synth *s, double fps)
{
    anim_error_clear(&s->err);
    return anim_transform_gait_anchor(s->arena, &s->doc, &s->clip, &s->rig, fps, &s->msg,
                                      &s->err);
}

/* Runs at FPS and expects a refusal with exactly this message and no
 * success text. */
static void expect_refusal(synth *s, const char *want)
{
    assert_int_equal(synth_run(s, FPS), -1);
    expect_text(s->err.message, want);
    assert_int_equal(s->msg.len, 0);
}

#define POLICY "clip \"walk\": cannot gait-anchor clip \"walk\" under the in-place policy: "
#define SELECTED POLICY "selected Hips fallback bone \"pelvis\" (index 0) "
#define CANNOT "clip \"walk\": cannot gait-anchor clip \"walk\": "

/* Whether every element of track t equals the original's, key k taken
 * from key (k + shift) mod K. */
static void expect_rotated(const anim_track *t, const float *orig, uint32_t shift)
{
    uint32_t w = t->components, n = t->key_count;
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t c = 0; c < w; c++)
            if (t->values[k * w + c] != orig[((k + shift) % n) * w + c]) {
                print_error("key %u component %u not rotated by %u\n", k, c, shift);
                fail();
            }
}

/* ---- success ----------------------------------------------------------- */

/* The loop seam ratio of the clip with every moving track rotated by
 * shift, measured independently of the step (INFINITY when absent). */
static double candidate_seam(const synth *s, const float *left, const float *right,
                             uint32_t shift)
{
    float l[SK * 3], r[SK * 3];
    for (uint32_t k = 0; k < SK; k++) {
        memcpy(&l[k * 3], &left[((k + shift) % SK) * 3], 3 * sizeof(float));
        memcpy(&r[k * 3], &right[((k + shift) % SK) * 3], 3 * sizeof(float));
    }
    anim_track tracks[3];
    memcpy(tracks, s->tracks, sizeof tracks);
    tracks[0].values = l;
    tracks[1].values = r;
    anim_clip clip = s->clip;
    clip.tracks = tracks;
    clip.track_count = 3;
    double times[SK];
    for (uint32_t k = 0; k < SK; k++)
        times[k] = s->times[k];
    anim_metric_grid g;
    anim_error err;
    assert_int_equal(anim_metric_grid_at_times(&s->doc, &clip, times, SK, &g, &err), 0);
    anim_foot_cycle fc;
    anim_foot_cycle_compute(&s->doc, &g, &s->rig, ANIM_MIN_STRIDE_STEP_M, &fc);
    anim_metric_grid_free(&g);
    assert_int_equal(fc.phase_outcome, ANIM_GAIT_PHASE_MEASURED);
    return fc.has_ratio ? fc.ratio : INFINITY;
}

/* The signal left.y - right.y = 0.1·sin(2πk/8) peaks a quarter cycle in,
 * so its trough is at phase 0.75: anchor round(0.75·9) = 7, and offset 0
 * (shift 7) has the lowest seam of shifts 7, 6, 8. Feet and morph
 * weights rotate alike; the exempt hips rotation and every timeline are
 * untouched. */
static void test_synth_success(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    synth_morph(&s);
    float left[SK * 3], right[SK * 3], weights[SK * 2];
    memcpy(left, s.left, sizeof left);
    memcpy(right, s.right, sizeof right);
    memcpy(weights, s.weights, sizeof weights);
    double seam7 = candidate_seam(&s, left, right, 7);
    double seam6 = candidate_seam(&s, left, right, 6), seam8 = candidate_seam(&s, left, right, 8);
    assert_true(seam7 <= seam6);
    assert_true(seam7 <= seam8);
    assert_int_equal(anim_clip_detach(s.arena, &s.clip, &s.err), 0);
    const float *hips_values = s.clip.tracks[2].values;
    assert_int_equal(synth_run(&s, FPS), 0);
    expect_text(s.msg.data, "  gait-anchored 'walk': phase 0.750 -> 0.975 (offset 0, seam 0.41)\n");
    uint32_t shift = 7;
    expect_rotated(&s.clip.tracks[0], left, shift);
    expect_rotated(&s.clip.tracks[1], right, shift);
    expect_rotated(&s.clip.morph_tracks[0], weights, shift);
    assert_ptr_equal(s.clip.tracks[2].values, hips_values);
    for (uint32_t i = 0; i < 3; i++)
        assert_memory_equal(s.clip.tracks[i].times, s.times, sizeof s.times);
    assert_memory_equal(s.clip.morph_tracks[0].times, s.times, sizeof s.times);
    synth_free(&s);
}

/* Mirroring the feet moves the trough half a cycle (phase 0.25, anchor
 * round(0.25·9) = 2); the seams of shifts 2, 1, 3 decide the offset. */
static void test_synth_offset(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    float left[SK * 3], right[SK * 3];
    memcpy(left, s.right, sizeof left);
    memcpy(right, s.left, sizeof right);
    /* A sideways step at key 1 (no height change, so the phase stands)
     * makes the seam through key 1 the worst. */
    left[1 * 3 + 0] += 0.05f;
    memcpy(s.left, left, sizeof left);
    memcpy(s.right, right, sizeof right);
    double seams[3] = {candidate_seam(&s, left, right, 2), candidate_seam(&s, left, right, 1),
                       candidate_seam(&s, left, right, 3)};
    /* Offset +1 (shift 3) strictly beats the others. */
    assert_true(seams[2] < seams[0] && seams[2] < seams[1]);
    uint32_t shift = 3;
    assert_int_equal(synth_run(&s, FPS), 0);
    expect_text(s.msg.data, "  gait-anchored 'walk': phase 0.250 -> 0.900 (offset 1, seam 0.28)\n");
    expect_rotated(&s.clip.tracks[0], left, shift);
    expect_rotated(&s.clip.tracks[1], right, shift);
    synth_free(&s);
}

/* walk.glb: a 1 s in-place loop keyed at 32 fps (33 keys). */
static void test_walk_example(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk.glb");
    anim_doc *doc = &a->doc;
    anim_error err;
    anim_rig_resolution rig;
    assert_int_equal(anim_rig_resolve(doc, NULL, &rig, &err), 0);
    anim_clip *clip = &doc->clips[0];
    assert_int_equal(anim_clip_detach(a->arena, clip, &err), 0);
    uint32_t n = clip->track_count;
    assert_true(n > 0 && n <= 8);
    float *orig[8], *times[8];
    for (uint32_t i = 0; i < n; i++) {
        const anim_track *t = &clip->tracks[i];
        size_t floats = (size_t)t->value_count * t->components;
        orig[i] = malloc(floats * sizeof(float));
        times[i] = malloc(t->key_count * sizeof(float));
        memcpy(orig[i], t->values, floats * sizeof(float));
        memcpy(times[i], t->times, t->key_count * sizeof(float));
        assert_int_equal(t->key_count, 33);
    }
    const float *first_values[8];
    for (uint32_t i = 0; i < n; i++)
        first_values[i] = clip->tracks[i].values;

    anim_strbuf msg = ANIM_STRBUF_INIT;
    assert_int_equal(anim_transform_gait_anchor(a->arena, doc, clip, &rig, 32.0, &msg, &err), 0);
    expect_text(msg.data, "  gait-anchored 'walk': phase 0.750 -> 0.992 (offset 0, seam n/a)\n");
    /* round(0.75 · 33) = 25, offset 0: no candidate has a real stride
     * step at its new seam, so every rank is absent and the first stays. */
    uint32_t rotated = 0;
    for (uint32_t i = 0; i < n; i++) {
        const anim_track *t = &clip->tracks[i];
        assert_memory_equal(t->times, times[i], t->key_count * sizeof(float));
        if (clip->tracks[i].values != first_values[i]) {
            expect_rotated(t, orig[i], 25);
            rotated++;
        } else {
            assert_memory_equal(t->values, orig[i],
                                (size_t)t->value_count * t->components * sizeof(float));
        }
        free(orig[i]);
        free(times[i]);
    }
    assert_true(rotated > 0);
    anim_strbuf_free(&msg);
    anim_asset_free(a);
}

/* ---- refusals: the domain ---------------------------------------------- */

static void test_skeleton_order(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    s.bones[2].parent = 7;
    expect_refusal(&s, CANNOT "skeleton bone \"foot_r\" (index 2) has out-of-range ancestor "
                              "index 7 (its parent), so trajectory evidence is missing");
    s.bones[2].parent = 2;
    expect_refusal(&s, CANNOT "skeleton bone \"foot_r\" (index 2) has parent index 2, creating a "
                              "cyclic ancestor chain or child-before-parent order; whole-skeleton "
                              "sampling requires an acyclic parents-before-children order and "
                              "trajectory evidence is missing");
    synth_free(&s);
}

static void test_role_and_track_targets(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    s.rig.bone[ANIM_ROLE_HIPS] = 9;
    expect_refusal(&s, CANNOT "selected Hips fallback bone index 9 is outside the skeleton, so "
                              "trajectory evidence is missing (3 bones)");
    s.rig.bone[ANIM_ROLE_HIPS] = 0;
    s.tracks[1].bone = 5;
    expect_refusal(&s, CANNOT "track 1 targets out-of-range bone index 5");
    synth_free(&s);
}

static void test_duplicate_channel(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    s.tracks[1].bone = 1; /* a second translation of foot_l */
    expect_refusal(&s, CANNOT "track 1 duplicates the translation channel for bone 1");
    synth_free(&s);
}

static void test_cardinality(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    s.tracks[0].value_count = SK - 1;
    expect_refusal(&s, CANNOT "track 0 has 9 times and 8 values for Translation Linear; expected "
                              "exactly 9 values with property-compatible storage");
    s.tracks[0].value_count = SK;
    s.tracks[2].components = 3; /* rotation stored as vec3 */
    expect_refusal(&s, CANNOT "track 2 has 9 times and 9 values for Rotation Linear; expected "
                              "exactly 9 values with property-compatible storage");
    synth_free(&s);
}

static void test_nonfinite_authored(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    s.right[4] = NAN;
    expect_refusal(&s, CANNOT "non-finite authored trajectory evidence in track 1; " ALT);
    synth_free(&s);
}

static void test_missing_trajectory(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    s.rig.bone[ANIM_ROLE_HIPS] = ANIM_NONE;
    expect_refusal(&s, POLICY "selected Root/Hips trajectory evidence is missing; " ALT);
    synth_free(&s);
}

/* ---- refusals: the whole-frame grid ------------------------------------ */

static void test_frame_grid(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    assert_int_equal(synth_run(&s, 7.5), -1);
    expect_text(s.err.message, SELECTED "has no finite whole-frame trajectory grid at 7.5 fps "
                                        "over 1.000000 s; " ALT);
    assert_int_equal(synth_run(&s, 1.0), -1);
    expect_text(s.err.message, SELECTED "has incomplete whole-frame rotation evidence in track 0: "
                                        "9 keys instead of exactly 2 at 1 fps; " ALT);
    synth_free(&s);
}

static void test_wrong_key_count(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    s.tracks[1].key_count = SK - 1;
    s.tracks[1].value_count = SK - 1;
    expect_refusal(&s, SELECTED "has incomplete whole-frame rotation evidence in track 1: 8 keys "
                                "instead of exactly 9 at 8 fps; " ALT);
    synth_free(&s);
}

static void test_off_grid_key(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    s.times[3] = 0.376f;
    expect_refusal(&s, SELECTED "has duplicate/non-frame-aligned whole-frame trajectory evidence "
                                "in track 0, key 3: authored time 0.375999987 s, required frame "
                                "time 0.375000000 s at 8 fps; " ALT);
    synth_free(&s);
}

/* A changing morph weight track follows the same grid rule. */
static void test_morph_off_grid(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    synth_morph(&s);
    s.morph[0].key_count = 4;
    s.morph[0].value_count = 4;
    expect_refusal(&s, SELECTED "has incomplete whole-frame rotation evidence in morph weight "
                                "track 0: 4 keys instead of exactly 9 at 8 fps; " ALT);
    synth_free(&s);
}

static void test_work_bound(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    /* 1,000,001 frames x 3 bones. */
    assert_int_equal(synth_run(&s, 1000000.0), -1);
    expect_text(s.err.message, SELECTED "needs 1000001 whole-frame samples x 3 skeleton bones = "
                                        "3000003 samples, over the inclusive 1000000-sample work "
                                        "bound; " ALT);
    assert_int_equal(s.err.code, ANIM_ERR_LIMIT);
    /* 300,001 frames x 3 bones fits; x 4 tracks does not. */
    s.clip.duration_s = 300000.0 / FPS;
    s.tracks[3] = s.tracks[2];
    s.clip.track_count = 4;
    assert_int_equal(synth_run(&s, FPS), -1);
    expect_text(s.err.message, CANNOT "track 3 duplicates the rotation channel for bone 0");
    s.tracks[3].bone = 1;
    assert_int_equal(synth_run(&s, FPS), -1);
    expect_text(s.err.message, SELECTED "needs 300001 whole-frame samples x 4 tracks = 1200004 "
                                        "samples, over the inclusive 1000000-sample work "
                                        "bound; " ALT);

    /* An exempt track's keys count too: 333,334 keys x 3 bones. */
    s.clip.duration_s = 1.0;
    s.clip.track_count = 3;
    uint32_t keys = 333334;
    float *times = malloc(keys * sizeof *times), *rot = calloc((size_t)keys * 4, sizeof *rot);
    assert_non_null(times);
    assert_non_null(rot);
    for (uint32_t k = 0; k < keys; k++) {
        times[k] = (float)k;
        rot[k * 4 + 3] = 1.0f;
    }
    s.tracks[2] =
        test_support_track(ANIM_PATH_ROTATION, ANIM_INTERP_LINEAR, times, keys, rot, keys);
    assert_int_equal(synth_run(&s, FPS), -1);
    expect_text(s.err.message, SELECTED "needs 333334 authored keys x 3 skeleton bones = 1000002 "
                                        "samples, over the inclusive 1000000-sample work "
                                        "bound; " ALT);
    free(times);
    free(rot);
    synth_free(&s);
}

/* ---- refusals: the trajectory proof ------------------------------------ */

static void test_fewer_than_three(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    /* Only invariant tracks, so 1 fps over 1 s (K = 2) is admitted. */
    s.tracks[0] = s.tracks[2];
    s.clip.track_count = 1;
    assert_int_equal(synth_run(&s, 1.0), -1);
    expect_text(s.err.message, SELECTED "has fewer than three trajectory samples; " ALT);
    synth_free(&s);
}

/* A zero quaternion is finite authored data that samples to nothing. */
static void test_nonfinite_sample(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    s.hips_rot[5 * 4 + 3] = 0.0f;
    /* Sample 4 already reads it: the slerp toward key 5 is NaN at u = 0. */
    expect_refusal(&s, SELECTED "has non-finite trajectory evidence at sample 4; " ALT);
    synth_free(&s);
}

/* Tipping the hips 90 degrees about X points the +Z heading basis
 * straight down at sample 4. */
static void test_no_projection(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    s.hips_rot[4 * 4 + 0] = (float)sin(ANIM_PI / 4.0);
    s.hips_rot[4 * 4 + 3] = (float)cos(ANIM_PI / 4.0);
    expect_refusal(&s, SELECTED "has no finite horizontal projection for its selected local +Z "
                                "heading basis at sample 4; " ALT);
    synth_free(&s);
}

/* The hips turn a full 90 degrees about +Y over the cycle. */
static void test_yaw_accumulation(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    for (uint32_t k = 0; k < SK; k++) {
        double half = 0.5 * (ANIM_PI / 2.0) * (double)k / (double)(SK - 1);
        s.hips_rot[k * 4 + 1] = (float)sin(half);
        s.hips_rot[k * 4 + 3] = (float)cos(half);
    }
    expect_refusal(&s, SELECTED "accumulates horizontal translation 0.0000 m (endpoint 0.0000 m, "
                                "cap 0.0100 m) and yaw 90.000 deg (sampled total 90.000 deg, cap "
                                "1.000 deg); " ALT);
    /* One ulp of f32 over the cap still passes (the cap has four). */
    double cap = nextafterf(1.0f, 2.0f);
    for (uint32_t k = 0; k < SK; k++) {
        double half = 0.5 * (cap * ANIM_PI / 180.0) * (double)k / (double)(SK - 1);
        s.hips_rot[k * 4 + 1] = (float)sin(half);
        s.hips_rot[k * 4 + 3] = (float)cos(half);
    }
    assert_int_equal(synth_run(&s, FPS), 0);
    synth_free(&s);
}

/* walk-travel.glb is the walk travelling 1.2 m forward. */
static void test_walk_travel(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk-travel.glb");
    anim_doc *doc = &a->doc;
    anim_error err;
    anim_rig_resolution rig;
    assert_int_equal(anim_rig_resolve(doc, NULL, &rig, &err), 0);
    anim_clip *clip = &doc->clips[0];
    assert_int_equal(anim_clip_detach(a->arena, clip, &err), 0);
    anim_strbuf msg = ANIM_STRBUF_INIT;
    assert_int_equal(anim_transform_gait_anchor(a->arena, doc, clip, &rig, 32.0, &msg, &err), -1);
    expect_text(err.message, "clip \"walk_travel\": cannot gait-anchor clip \"walk_travel\" under "
                             "the in-place policy: selected Hips fallback bone \"pelvis\" "
                             "(index 0) accumulates horizontal translation 1.2000 m (endpoint "
                             "1.2000 m, cap 0.0100 m) and yaw 0.000 deg (sampled total 0.000 "
                             "deg, cap 1.000 deg); " ALT);
    assert_int_equal(msg.len, 0);
    anim_strbuf_free(&msg);
    anim_asset_free(a);
}

/* ---- refusals: the alignment ------------------------------------------- */

static void test_no_stride_anchor(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    s.rig.bone[ANIM_ROLE_LEFT_FOOT] = ANIM_NONE;
    s.rig.bone[ANIM_ROLE_RIGHT_FOOT] = ANIM_NONE;
    expect_refusal(&s, "clip \"walk\": no usable stride anchor (hips/foot roles unresolved or "
                       "clip too short)");
    synth_free(&s);
}

static void test_low_amplitude(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.005); /* 0.02 m signal swing */
    expect_refusal(&s, "clip \"walk\": no usable stride anchor (L\xe2\x88\x92R amplitude 0.0200 m) "
                       "\xe2\x80\x94 a ring clip must alternate its feet for anchor alignment to "
                       "mean anything");
    synth_free(&s);
}

static void test_cubic_refusal(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    /* foot_r as CUBICSPLINE with zero tangents: the same key values. */
    float cubic[SK * 9];
    memset(cubic, 0, sizeof cubic);
    for (uint32_t k = 0; k < SK; k++)
        memcpy(&cubic[(k * 3 + 1) * 3], &s.right[k * 3], 3 * sizeof(float));
    s.tracks[1].interp = ANIM_INTERP_CUBICSPLINE;
    s.tracks[1].value_count = SK * 3;
    s.tracks[1].values = cubic;
    /* A constant cubic rotation with zero tangents stays exempt. */
    float rot[SK * 12];
    memset(rot, 0, sizeof rot);
    for (uint32_t k = 0; k < SK; k++)
        rot[(k * 3 + 1) * 4 + 3] = 1.0f;
    s.tracks[2].interp = ANIM_INTERP_CUBICSPLINE;
    s.tracks[2].value_count = SK * 3;
    s.tracks[2].values = rot;
    expect_refusal(&s, "clip \"walk\": cannot gait-anchor: these animated tracks need lossless "
                       "resampling that is not yet supported (translation bone 2); retime them "
                       "to LINEAR first");
    synth_free(&s);
}

/* ---- the shared heading walk ------------------------------------------- */

/* Counting a half-turn step is the proof's choice; root_trajectory
 * rejects it. */
static void test_heading_half_turn(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0.05);
    for (uint32_t k = 0; k < SK; k++) {
        double half = 0.5 * ANIM_PI * (double)(k % 2);
        s.hips_rot[k * 4 + 1] = (float)sin(half);
        s.hips_rot[k * 4 + 3] = (float)cos(half);
    }
    anim_metric_grid g;
    anim_error err;
    assert_int_equal(anim_metric_grid_build(&s.doc, &s.clip, &g, &err), 1);
    anim_heading_walk w;
    assert_false(anim_heading_walk_run(&g, 0, true, &w));
    assert_int_equal(w.failure, ANIM_HEADING_HALF_TURN);
    assert_int_equal(w.failed_frame, 1);
    assert_true(anim_heading_walk_run(&g, 0, false, &w));
    assert_int_equal(w.axis, ANIM_HEADING_POSITIVE_Z);
    anim_metric_grid_free(&g);
    synth_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_synth_success),      cmocka_unit_test(test_synth_offset),
        cmocka_unit_test(test_walk_example),
        cmocka_unit_test(test_skeleton_order),     cmocka_unit_test(test_role_and_track_targets),
        cmocka_unit_test(test_duplicate_channel),  cmocka_unit_test(test_cardinality),
        cmocka_unit_test(test_nonfinite_authored), cmocka_unit_test(test_missing_trajectory),
        cmocka_unit_test(test_frame_grid),         cmocka_unit_test(test_wrong_key_count),
        cmocka_unit_test(test_off_grid_key),       cmocka_unit_test(test_morph_off_grid),
        cmocka_unit_test(test_work_bound),         cmocka_unit_test(test_fewer_than_three),
        cmocka_unit_test(test_nonfinite_sample),   cmocka_unit_test(test_no_projection),
        cmocka_unit_test(test_yaw_accumulation),   cmocka_unit_test(test_walk_travel),
        cmocka_unit_test(test_no_stride_anchor),   cmocka_unit_test(test_low_amplitude),
        cmocka_unit_test(test_cubic_refusal),      cmocka_unit_test(test_heading_half_turn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
