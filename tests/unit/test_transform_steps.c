/* The transform steps slice, hold-extend, drop-duplicate-loop-endpoint
 * and prune-constant-tracks: the documented examples on the example
 * assets (clip.glb, walk.glb, walk-scaled.glb), their exact message lines,
 * and small clips built here that pin the window's boundary rule, cubic
 * triplets, morph-weight channels and every pruning reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/track_constant.h"
#include "animsmith/transform.h"
#include "support/test_support.h"

/* A loaded example whose clip 0 is detached, with a message buffer. */
typedef struct {
    anim_asset *asset;
    anim_clip *clip;
    anim_strbuf msg;
    anim_error err;
} fixture;

static void open_example(fixture *f, const char *name)
{
    memset(f, 0, sizeof *f);
    f->asset = test_support_load_example(name);
    assert_non_null(f->asset);
    assert_true(f->asset->doc.clip_count >= 1);
    f->clip = &f->asset->doc.clips[0];
    anim_error_clear(&f->err);
    assert_int_equal(anim_clip_detach(f->asset->arena, f->clip, &f->err), 0);
}

static void close_example(fixture *f)
{
    anim_strbuf_free(&f->msg);
    anim_asset_free(f->asset);
}

static void expect_msg(fixture *f, const char *want)
{
    assert_false(f->msg.failed);
    assert_string_equal(f->msg.data ? f->msg.data : "", want);
}

static void expect_times(const anim_track *t, const float *want, uint32_t n)
{
    assert_int_equal(t->key_count, n);
    for (uint32_t k = 0; k < n; k++)
        assert_true(t->times[k] == want[k]);
}

/* Floats of value elements [first, first + n) of t equal those of src
 * starting at element src_first (bit for bit). */
static void expect_elements(const anim_track *t, uint32_t first, const float *src,
                            uint32_t src_first, uint32_t n)
{
    assert_true(first + n <= t->value_count);
    assert_memory_equal(t->values + (size_t)first * t->components,
                        src + (size_t)src_first * t->components,
                        (size_t)n * t->components * sizeof(float));
}

/* ---- slice ----------------------------------------------------------- */

static void slice_clip_example(void **state)
{
    (void)state;
    fixture f;
    open_example(&f, "clip.glb");
    float original[20];
    memcpy(original, f.clip->tracks[0].values, sizeof original);
    assert_int_equal(anim_transform_slice(f.asset->arena, f.clip, 0.5, 1.0, 30.0, &f.msg, &f.err), 0);
    expect_msg(&f, "  sliced 'swing' to [0.5:1]s (3 keys max)\n");
    assert_int_equal(f.clip->track_count, 1);
    static const float want[] = {0.0f, 0.25f, 0.5f};
    expect_times(&f.clip->tracks[0], want, 3);
    assert_int_equal(f.clip->tracks[0].value_count, 3);
    expect_elements(&f.clip->tracks[0], 0, original, 2, 3); /* keys 0.5, 0.75, 1.0 */
    assert_true(f.clip->duration_s == 0.5);
    assert_int_equal(f.clip->max_keys, 3);
    close_example(&f);
}

/* A hand-built clip of caller-owned tracks (the steps replace arrays, they
 * never write into these). */
static anim_clip make_clip(const char *name, anim_track *tracks, uint32_t n, double duration)
{
    anim_clip c;
    memset(&c, 0, sizeof c);
    c.name = name;
    c.base_name = name;
    c.tracks = tracks;
    c.track_count = n;
    c.duration_s = duration;
    anim_clip_refresh_max_keys(&c);
    return c;
}

static void slice_boundary_dedup(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    anim_strbuf msg = ANIM_STRBUF_INIT;
    anim_error err;
    anim_error_clear(&err);
    /* At 10 fps the window [0.5, 1.0] takes keys from 0.45 to 1.05. */
    static const float crowded_t[] = {0.40f, 0.46f, 0.48f, 0.5f, 0.7f, 1.0f, 1.02f, 1.04f, 1.2f};
    static const float crowded_v[27] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4,
                                        5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8};
    static const float sparse_t[] = {0.0f, 0.46f, 0.7f, 1.04f, 1.5f};
    static const float sparse_v[15] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4};
    static const float outside_t[] = {0.0f, 0.1f};
    static const float outside_v[6] = {0};
    anim_track tracks[3] = {
        test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, crowded_t, 9, crowded_v, 9),
        test_support_track(ANIM_PATH_SCALE, ANIM_INTERP_STEP, outside_t, 2, outside_v, 2),
        test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, sparse_t, 5, sparse_v, 5),
    };
    tracks[2].bone = 1;
    anim_clip clip = make_clip("edge", tracks, 3, 1.5);
    assert_int_equal(anim_transform_slice(arena, &clip, 0.5, 1.0, 10.0, &msg, &err), 0);
    assert_string_equal(msg.data, "  sliced 'edge' to [0.5:1]s (3 keys max)\n");
    /* The track entirely before the window is gone; the others keep order. */
    assert_int_equal(clip.track_count, 2);
    const float mid = 0.7f - 0.5f;
    /* Crowded: of the keys clamped onto 0 only the one nearest the start
     * (0.5) stays, of those clamped onto the end only 1.0. */
    const float crowded_want[] = {0.0f, mid, 0.5f};
    expect_times(&clip.tracks[0], crowded_want, 3);
    expect_elements(&clip.tracks[0], 0, crowded_v, 3, 3);
    /* Sparse: the keys just outside the exact window are the nearest ones
     * and are kept, clamped onto the edges; nothing is synthesized. */
    assert_int_equal(clip.tracks[1].bone, 1);
    const float sparse_want[] = {0.0f, mid, 0.5f};
    expect_times(&clip.tracks[1], sparse_want, 3);
    expect_elements(&clip.tracks[1], 0, sparse_v, 1, 3);
    assert_true(clip.duration_s == 0.5);

    /* The duration is END - START in f64, even past the last key. */
    anim_strbuf_reset(&msg);
    anim_track again[1] = {
        test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, sparse_t, 5, sparse_v, 5)};
    clip = make_clip("late", again, 1, 1.5);
    assert_int_equal(anim_transform_slice(arena, &clip, 0.25, 2.0, 30.0, &msg, &err), 0);
    assert_string_equal(msg.data, "  sliced 'late' to [0.25:2]s (4 keys max)\n");
    assert_true(clip.duration_s == 1.75);
    anim_strbuf_free(&msg);
    anim_arena_free(arena);
}

/* Cubic triplets (in-tangent, value, out-tangent) travel with their keys,
 * and morph-weight channels are sliced by the same window without
 * counting toward the key maximum. */
static void slice_cubic_and_morph(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    anim_strbuf msg = ANIM_STRBUF_INIT;
    anim_error err;
    anim_error_clear(&err);
    static const float t[] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
    float cubic[5 * 3 * 3];
    for (int i = 0; i < 45; i++)
        cubic[i] = (float)i;
    static const float mt[] = {0.0f, 0.125f, 0.25f, 0.375f, 0.5f, 0.625f, 0.75f};
    float weights[7 * 2]; /* two morph targets */
    for (int i = 0; i < 14; i++)
        weights[i] = (float)i * 0.5f;
    anim_track tracks[1] = {
        test_support_track(ANIM_PATH_SCALE, ANIM_INTERP_CUBICSPLINE, t, 5, cubic, 15)};
    anim_track morph = test_support_track(ANIM_PATH_WEIGHTS, ANIM_INTERP_LINEAR, mt, 7, weights, 7);
    morph.components = 2;
    anim_clip clip = make_clip("curve", tracks, 1, 1.0);
    clip.morph_tracks = &morph;
    clip.morph_track_count = 1;
    assert_int_equal(anim_transform_slice(arena, &clip, 0.25, 0.75, 30.0, &msg, &err), 0);
    assert_string_equal(msg.data, "  sliced 'curve' to [0.25:0.75]s (3 keys max)\n");
    static const float want[] = {0.0f, 0.25f, 0.5f};
    expect_times(&clip.tracks[0], want, 3);
    assert_int_equal(clip.tracks[0].value_count, 9);
    expect_elements(&clip.tracks[0], 0, cubic, 3, 9); /* triplets of keys 1..3 */
    assert_int_equal(clip.morph_track_count, 1);
    static const float mwant[] = {0.0f, 0.125f, 0.25f, 0.375f, 0.5f};
    expect_times(&clip.morph_tracks[0], mwant, 5);
    assert_int_equal(clip.morph_tracks[0].value_count, 5);
    expect_elements(&clip.morph_tracks[0], 0, weights, 2, 5);
    assert_int_equal(clip.max_keys, 3);

    /* A morph channel outside the window is removed like a TRS track. */
    anim_strbuf_reset(&msg);
    anim_track morph2 = test_support_track(ANIM_PATH_WEIGHTS, ANIM_INTERP_LINEAR, mt, 2, weights, 2);
    morph2.components = 2;
    clip.morph_tracks = &morph2;
    clip.morph_track_count = 1;
    assert_int_equal(anim_transform_slice(arena, &clip, 0.25, 0.5, 30.0, &msg, &err), 0);
    assert_int_equal(clip.morph_track_count, 0);

    /* A window holding one cubic key: a spline needs two, so the key is
     * kept as its value alone, LINEAR. */
    anim_track lone[1] = {
        test_support_track(ANIM_PATH_SCALE, ANIM_INTERP_CUBICSPLINE, t, 5, cubic, 15)};
    anim_clip one = make_clip("one", lone, 1, 1.0);
    anim_strbuf_reset(&msg);
    assert_int_equal(anim_transform_slice(arena, &one, 0.5, 0.51, 30.0, &msg, &err), 0);
    assert_int_equal(one.tracks[0].key_count, 1);
    assert_int_equal(one.tracks[0].interp, ANIM_INTERP_LINEAR);
    assert_int_equal(one.tracks[0].value_count, 1);
    expect_elements(&one.tracks[0], 0, cubic, 7, 1); /* key 2's value (element 7) */
    anim_strbuf_free(&msg);
    anim_arena_free(arena);
}

/* ---- hold-extend ----------------------------------------------------- */

static void hold_extend_linear(void **state)
{
    (void)state;
    fixture f;
    open_example(&f, "clip.glb");
    float original[20];
    memcpy(original, f.clip->tracks[0].values, sizeof original);
    assert_int_equal(anim_transform_hold_extend(f.asset->arena, f.clip, 0.5, &f.msg, &f.err), 0);
    expect_msg(&f, "  hold-extended 'swing' by 0.5s\n");
    static const float want[] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f, 1.5f};
    expect_times(&f.clip->tracks[0], want, 6);
    assert_int_equal(f.clip->tracks[0].value_count, 6);
    expect_elements(&f.clip->tracks[0], 0, original, 0, 5);
    expect_elements(&f.clip->tracks[0], 5, original, 4, 1); /* the last pose, held */
    assert_true(f.clip->duration_s == 1.5);
    assert_int_equal(f.clip->max_keys, 6);
    close_example(&f);
}

static void hold_extend_cubic_and_morph(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    anim_strbuf msg = ANIM_STRBUF_INIT;
    anim_error err;
    anim_error_clear(&err);
    static const float t[] = {0.0f, 1.0f};
    static const float cubic[2 * 3 * 4] = {0, 0, 0, 0,  0, 0, 0, 1,  0.1f, 0, 0, 0,
                                           0.2f, 0, 0, 0,  0, 0.5f, 0, 0.8f,  0.3f, 0.1f, 0, 0};
    static const float mt[] = {0.0f, 0.5f, 0.75f};
    static const float weights[3 * 3] = {0, 0, 0, 0.5f, 0, 0.25f, 1, 0.5f, 0.75f};
    anim_track tracks[1] = {
        test_support_track(ANIM_PATH_ROTATION, ANIM_INTERP_CUBICSPLINE, t, 2, cubic, 6)};
    anim_track morph = test_support_track(ANIM_PATH_WEIGHTS, ANIM_INTERP_CUBICSPLINE, mt, 1, weights, 3);
    morph.components = 3;
    anim_clip clip = make_clip("flat", tracks, 1, 1.0);
    clip.morph_tracks = &morph;
    clip.morph_track_count = 1;
    assert_int_equal(anim_transform_hold_extend(arena, &clip, 0.25, &msg, &err), 0);
    assert_string_equal(msg.data, "  hold-extended 'flat' by 0.25s\n");
    const anim_track *r = &clip.tracks[0];
    static const float want[] = {0.0f, 1.0f, 1.25f};
    expect_times(r, want, 3);
    assert_int_equal(r->value_count, 9);
    expect_elements(r, 0, cubic, 0, 5); /* key 0 and the last key's in-tangent and value */
    static const float zero4[4] = {0};
    assert_memory_equal(r->values + 5 * 4, zero4, sizeof zero4); /* last out-tangent zeroed */
    assert_memory_equal(r->values + 6 * 4, zero4, sizeof zero4);
    expect_elements(r, 7, cubic, 4, 1); /* the held value */
    assert_memory_equal(r->values + 8 * 4, zero4, sizeof zero4);
    assert_true(clip.duration_s == 1.25);
    assert_int_equal(clip.max_keys, 3);

    const anim_track *m = &clip.morph_tracks[0];
    static const float mwant[] = {0.0f, 0.25f};
    expect_times(m, mwant, 2);
    assert_int_equal(m->value_count, 6);
    static const float mvalues[6 * 3] = {0, 0, 0, 0.5f, 0, 0.25f, 0, 0, 0,
                                         0, 0, 0, 0.5f, 0, 0.25f, 0, 0, 0};
    assert_memory_equal(m->values, mvalues, sizeof mvalues);
    anim_strbuf_free(&msg);
    anim_arena_free(arena);
}

/* ---- drop duplicate loop endpoint ------------------------------------ */

static void drop_endpoint_walk(void **state)
{
    (void)state;
    fixture f;
    open_example(&f, "walk.glb");
    assert_int_equal(anim_transform_drop_endpoint(f.asset->arena, f.clip, true, &f.msg, &f.err), 0);
    expect_msg(&f, "  dropped duplicate loop endpoint 'walk': 1 key(s) per track, "
                   "duration 1.000000s -> 0.968750s (open cycle)\n");
    assert_int_equal(f.clip->track_count, 2);
    for (uint32_t i = 0; i < 2; i++) {
        assert_int_equal(f.clip->tracks[i].key_count, 32);
        assert_int_equal(f.clip->tracks[i].value_count, 32);
        assert_true(f.clip->tracks[i].times[31] == 0.96875f);
    }
    assert_true(f.clip->duration_s == 0.96875);
    assert_int_equal(f.clip->max_keys, 32);
    close_example(&f);

    /* Not declared a loop: skipped, nothing changes. */
    open_example(&f, "walk.glb");
    assert_int_equal(anim_transform_drop_endpoint(f.asset->arena, f.clip, false, &f.msg, &f.err), 0);
    expect_msg(&f, "  duplicate-loop-endpoint skipped 'walk': clip is not declared "
                   "`loop = true` in config\n");
    assert_int_equal(f.clip->tracks[0].key_count, 33);
    assert_true(f.clip->duration_s == 1.0);
    close_example(&f);

    /* A declared loop without a repeated endpoint. */
    open_example(&f, "clip.glb");
    assert_int_equal(anim_transform_drop_endpoint(f.asset->arena, f.clip, true, &f.msg, &f.err), 0);
    expect_msg(&f, "  duplicate-loop-endpoint skipped 'swing': no mechanically removable "
                   "repeated endpoint\n");
    assert_int_equal(f.clip->tracks[0].key_count, 5);
    close_example(&f);
}

/* The analysis error text is the reason; cubic runs go as whole triplets;
 * a morph channel past the new duration loses the same run only when it
 * is on the clip's timeline and closes like the TRS tracks. */
static void drop_endpoint_cubic_morph_and_errors(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    anim_strbuf msg = ANIM_STRBUF_INIT;
    anim_error err;
    anim_error_clear(&err);
    anim_clip empty = make_clip("none", NULL, 0, 1.0);
    assert_int_equal(anim_transform_drop_endpoint(arena, &empty, true, &msg, &err), 0);
    assert_string_equal(msg.data, "  duplicate-loop-endpoint skipped 'none': clip has no tracks\n");

    static const float t[] = {0.0f, 0.5f, 1.0f};
    static const float cubic[3 * 3 * 3] = {0, 0, 0, 1, 1, 1, 0, 0, 0,  0, 0, 0, 2, 2, 2, 0, 0, 0,
                                           0, 0, 0, 1, 1, 1, 0, 0, 0};
    static const float mt[] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
    static const float weights[5] = {0, 0.25f, 0.5f, 0.75f, 1};
    anim_track tracks[1] = {
        test_support_track(ANIM_PATH_SCALE, ANIM_INTERP_CUBICSPLINE, t, 3, cubic, 9)};
    anim_track morph = test_support_track(ANIM_PATH_WEIGHTS, ANIM_INTERP_LINEAR, mt, 5, weights, 5);
    morph.components = 1;
    anim_clip clip = make_clip("pulse", tracks, 1, 1.0);
    clip.morph_tracks = &morph;
    clip.morph_track_count = 1;
    /* A morph ramp on its own timeline past the new duration: cutting it
     * would change the weights it plays, so the step skips. */
    anim_strbuf_reset(&msg);
    assert_int_equal(anim_transform_drop_endpoint(arena, &clip, true, &msg, &err), 0);
    assert_string_equal(msg.data, "  duplicate-loop-endpoint skipped 'pulse': morph-weight track 0 "
                                  "does not share the authored timeline\n");
    assert_int_equal(clip.tracks[0].key_count, 3);
    assert_int_equal(clip.morph_tracks[0].key_count, 5);

    /* On the clip's timeline but not closing: skipped too. */
    static const float ramp[3] = {0.0f, 0.5f, 1.0f};
    anim_track open_morph =
        test_support_track(ANIM_PATH_WEIGHTS, ANIM_INTERP_LINEAR, t, 3, ramp, 3);
    open_morph.components = 1;
    clip.morph_tracks = &open_morph;
    anim_strbuf_reset(&msg);
    assert_int_equal(anim_transform_drop_endpoint(arena, &clip, true, &msg, &err), 0);
    assert_string_equal(msg.data, "  duplicate-loop-endpoint skipped 'pulse': morph-weight track 0 "
                                  "does not repeat its first key at the endpoint\n");
    assert_int_equal(clip.tracks[0].key_count, 3);

    /* On the clip's timeline and closing like the TRS tracks: the same run
     * goes from it. */
    static const float closing[3] = {0.25f, 0.75f, 0.25f};
    anim_track closed_morph =
        test_support_track(ANIM_PATH_WEIGHTS, ANIM_INTERP_LINEAR, t, 3, closing, 3);
    closed_morph.components = 1;
    clip.morph_tracks = &closed_morph;
    anim_strbuf_reset(&msg);
    assert_int_equal(anim_transform_drop_endpoint(arena, &clip, true, &msg, &err), 0);
    assert_string_equal(msg.data, "  dropped duplicate loop endpoint 'pulse': 1 key(s) per track, "
                                  "duration 1.000000s -> 0.500000s (open cycle)\n");
    assert_int_equal(clip.tracks[0].key_count, 2);
    assert_int_equal(clip.tracks[0].value_count, 6);
    assert_int_equal(clip.morph_tracks[0].key_count, 2);
    assert_int_equal(clip.morph_tracks[0].value_count, 2);
    assert_true(clip.duration_s == 0.5);

    /* A track that does not share track 0's timeline. */
    static const float other_t[] = {0.0f, 0.4f, 1.0f};
    anim_track split[2] = {
        test_support_track(ANIM_PATH_SCALE, ANIM_INTERP_CUBICSPLINE, t, 3, cubic, 9),
        test_support_track(ANIM_PATH_SCALE, ANIM_INTERP_CUBICSPLINE, other_t, 3, cubic, 9),
    };
    clip = make_clip("split", split, 2, 1.0);
    anim_strbuf_reset(&msg);
    assert_int_equal(anim_transform_drop_endpoint(arena, &clip, true, &msg, &err), 0);
    assert_string_equal(msg.data, "  duplicate-loop-endpoint skipped 'split': track 1 does not "
                                  "share the exact authored timeline\n");
    assert_int_equal(clip.tracks[0].key_count, 3);
    anim_strbuf_free(&msg);
    anim_arena_free(arena);
}

/* ---- prune constant tracks ------------------------------------------- */

static void prune_walk_scaled(void **state)
{
    (void)state;
    fixture f;
    open_example(&f, "walk-scaled.glb");
    const anim_doc *doc = &f.asset->doc;
    assert_int_equal(anim_transform_prune_constant(f.asset->arena, doc, f.clip, NULL, &f.msg, &f.err), 0);
    expect_msg(&f, "  constant-track removed 'walk_scaled': track index 3 bone 'weapon_socket' "
                   "translation Linear 5 key(s)\n");
    assert_int_equal(f.clip->track_count, 3);
    for (uint32_t i = 0; i < 3; i++)
        assert_int_not_equal(f.clip->tracks[i].bone, anim_doc_find_bone(doc, "weapon_socket"));
    assert_int_equal(f.clip->tracks[2].path, ANIM_PATH_SCALE);
    close_example(&f);

    /* animates_bones protects; required_bones is no part of this. */
    open_example(&f, "walk-scaled.glb");
    const char *names[] = {"foot_l", "weapon_socket"};
    anim_string_list protect = {names, 2, true};
    assert_int_equal(anim_transform_prune_constant(f.asset->arena, &f.asset->doc, f.clip, &protect,
                                                   &f.msg, &f.err), 0);
    expect_msg(&f, "  constant-track retained 'walk_scaled': track index 3 bone 'weapon_socket' "
                   "translation Linear 5 key(s): target bone is protected\n");
    assert_int_equal(f.clip->track_count, 4);
    close_example(&f);

    /* No constant track at all. */
    open_example(&f, "clip.glb");
    assert_int_equal(anim_transform_prune_constant(f.asset->arena, &f.asset->doc, f.clip, NULL,
                                                   &f.msg, &f.err), 0);
    expect_msg(&f, "  constant-track pruning 'swing': no candidate tracks\n");
    assert_int_equal(f.clip->track_count, 1);
    close_example(&f);
}

/* A held value away from rest changes the pose when removed; a held rest
 * rotation does not (tried by sampling, no fast path for rotations); the
 * last remaining track stays; removed lines come before retained ones. */
static void prune_reasons(void **state)
{
    (void)state;
    fixture f;
    open_example(&f, "walk-scaled.glb");
    const anim_doc *doc = &f.asset->doc;
    uint32_t socket = anim_doc_find_bone(doc, "weapon_socket");
    static const float t[] = {0.0f, 0.5f, 1.0f};
    static const float lifted[9] = {0.3f, 0.25f, 0.1f, 0.3f, 0.25f, 0.1f, 0.3f, 0.25f, 0.1f};
    static const float rest_rot[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    anim_track tracks[3] = {
        f.clip->tracks[0],
        test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, t, 3, lifted, 3),
        test_support_track(ANIM_PATH_ROTATION, ANIM_INTERP_STEP, t, 3, rest_rot, 3),
    };
    tracks[1].bone = socket;
    tracks[2].bone = socket;
    f.clip->tracks = tracks;
    f.clip->track_count = 3;
    assert_int_equal(anim_transform_prune_constant(f.asset->arena, doc, f.clip, NULL, &f.msg, &f.err), 0);
    expect_msg(&f, "  constant-track removed 'walk_scaled': track index 2 bone 'weapon_socket' "
                   "rotation Step 3 key(s)\n"
                   "  constant-track retained 'walk_scaled': track index 1 bone 'weapon_socket' "
                   "translation Linear 3 key(s): removal changes sampled local TRS or "
                   "model-space position/rotation\n");
    assert_int_equal(f.clip->track_count, 2);
    assert_int_equal(f.clip->tracks[1].path, ANIM_PATH_TRANSLATION);

    /* The only track of a clip. */
    anim_strbuf_reset(&f.msg);
    anim_track only[1] = {test_support_track(ANIM_PATH_ROTATION, ANIM_INTERP_STEP, t, 3, rest_rot, 3)};
    only[0].bone = socket;
    f.clip->tracks = only;
    f.clip->track_count = 1;
    assert_int_equal(anim_transform_prune_constant(f.asset->arena, doc, f.clip, NULL, &f.msg, &f.err), 0);
    expect_msg(&f, "  constant-track retained 'walk_scaled': track index 0 bone 'weapon_socket' "
                   "rotation Step 3 key(s): removal would leave no writable track\n");
    assert_int_equal(f.clip->track_count, 1);

    /* A track on a bone the skeleton does not have: nothing is sampled. */
    anim_strbuf_reset(&f.msg);
    anim_track stray[2] = {
        test_support_track(ANIM_PATH_ROTATION, ANIM_INTERP_STEP, t, 3, rest_rot, 3),
        test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, t, 3, lifted, 3),
    };
    stray[0].bone = socket;
    stray[1].bone = doc->bone_count;
    f.clip->tracks = stray;
    f.clip->track_count = 2;
    assert_int_equal(anim_transform_prune_constant(f.asset->arena, doc, f.clip, NULL, &f.msg, &f.err), 0);
    expect_msg(&f, "  constant-track retained 'walk_scaled': track index 0 bone 'weapon_socket' "
                   "rotation Step 3 key(s): the original or trial clip cannot be sampled safely\n"
                   "  constant-track retained 'walk_scaled': track index 1 bone '<invalid bone>' "
                   "translation Linear 3 key(s): track target is not present in the skeleton\n");
    assert_int_equal(f.clip->track_count, 2);
    close_example(&f);
}

/* The clip helpers the steps' messages use: the name of a clip that has
 * none, and the TRS key total (morph-weight keys not counted). */
static void clip_message_helpers(void **state)
{
    (void)state;
    static const float t[] = {0.0f, 1.0f, 2.0f};
    static const float v[9] = {0};
    anim_track trs[2] = {
        test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, t, 3, v, 3),
        test_support_track(ANIM_PATH_SCALE, ANIM_INTERP_STEP, t, 2, v, 2),
    };
    anim_track morph = test_support_track(ANIM_PATH_WEIGHTS, ANIM_INTERP_LINEAR, t, 3, v, 3);
    anim_clip clip;
    memset(&clip, 0, sizeof clip);
    assert_string_equal(anim_clip_message_name(&clip), "");
    assert_int_equal(anim_clip_trs_key_count(&clip), 0);
    clip.name = "walk";
    clip.tracks = trs;
    clip.track_count = 2;
    clip.morph_tracks = &morph;
    clip.morph_track_count = 1;
    assert_string_equal(anim_clip_message_name(&clip), "walk");
    assert_int_equal(anim_clip_trs_key_count(&clip), 5);
}

/* The rule the lint note and the pruning share. */
static void constant_rule(void **state)
{
    (void)state;
    static const float t[] = {0.0f, 1.0f};
    static const float still[6] = {1, 2, 3, 1.00005f, 2, 3};
    static const float moving[6] = {1, 2, 3, 1.001f, 2, 3};
    static const float turn[8] = {0, 0, 0, 1, 0, 0.01f, 0, 1};
    static const float cubic_rot[24] = {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,
                                        0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0.1f, 0};
    anim_track one = test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, t, 1, still, 1);
    anim_track a = test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, t, 2, still, 2);
    anim_track b = test_support_track(ANIM_PATH_SCALE, ANIM_INTERP_STEP, t, 2, moving, 2);
    anim_track c = test_support_track(ANIM_PATH_ROTATION, ANIM_INTERP_LINEAR, t, 2, turn, 2);
    anim_track d = test_support_track(ANIM_PATH_ROTATION, ANIM_INTERP_CUBICSPLINE, t, 2, cubic_rot, 6);
    assert_false(anim_track_is_constant(&one)); /* a single key is a pin, not bloat */
    assert_true(anim_track_is_constant(&a));
    assert_false(anim_track_is_constant(&b));
    assert_false(anim_track_is_constant(&c)); /* 0.02 rad */
    assert_false(anim_track_is_constant(&d)); /* a non-zero tangent moves */
    assert_string_equal(anim_interp_label(ANIM_INTERP_CUBICSPLINE), "CubicSpline");
    assert_string_equal(anim_interp_label(ANIM_INTERP_STEP), "Step");
    assert_string_equal(anim_interp_label(ANIM_INTERP_LINEAR), "Linear");
    assert_true(fabs(anim_quat_angular_delta(anim_quat_make(0, 0, 0, 1), anim_quat_make(0, 0, 0, -2))) < 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(slice_clip_example),
        cmocka_unit_test(slice_boundary_dedup),
        cmocka_unit_test(slice_cubic_and_morph),
        cmocka_unit_test(hold_extend_linear),
        cmocka_unit_test(hold_extend_cubic_and_morph),
        cmocka_unit_test(drop_endpoint_walk),
        cmocka_unit_test(drop_endpoint_cubic_morph_and_errors),
        cmocka_unit_test(prune_walk_scaled),
        cmocka_unit_test(prune_reasons),
        cmocka_unit_test(constant_rule),
        cmocka_unit_test(clip_message_helpers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
