/* Loop and foot-cycle measurements: the example assets' documented numbers
 * (docs/fixtures.md), row availability, the endpoint modes, the
 * duplicate-endpoint analysis's error texts and the JSON field shapes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/json_write.h"
#include "animsmith/measure_loop.h"
#include "animsmith/rig.h"
#include "animsmith/sample.h"
#include "support/test_support.h"

static void assert_near(double a, double b, double eps)
{
    if (!(fabs(a - b) <= eps)) {
        print_error("%.17g != %.17g (eps %g)\n", a, b, eps);
        fail();
    }
}

/* The value as the documentation prints it: to 4 decimals. */
static void assert_4dp(double v, double want)
{
    char a[64], b[64];
    snprintf(a, sizeof a, "%.4f", v);
    snprintf(b, sizeof b, "%.4f", want);
    if (strcmp(a, b) != 0) {
        print_error("%s != %s (%.17g)\n", a, b, v);
        fail();
    }
}

/* ---- an example asset with its grid, roles and loop results ---- */

typedef struct {
    anim_asset *asset;
    anim_rig_resolution rig;
    anim_metric_grid grid;
    anim_loop_continuity lc;
    anim_foot_cycle fc;
    uint32_t clip;
} loaded;

static void load_clip(const char *file, const char *clip_name, loaded *L)
{
    anim_error err;
    memset(L, 0, sizeof *L);
    L->asset = test_support_load_example(file);
    const anim_doc *doc = &L->asset->doc;
    assert_int_equal(anim_rig_resolve(doc, NULL, &L->rig, &err), 0);
    L->clip = ANIM_NONE;
    for (uint32_t i = 0; i < doc->clip_count; i++)
        if (strcmp(doc->clips[i].name, clip_name) == 0)
            L->clip = i;
    assert_true(L->clip != ANIM_NONE);
    assert_int_equal(anim_metric_grid_build(doc, &doc->clips[L->clip], &L->grid, &err), 1);
    assert_int_equal(anim_loop_continuity_compute(doc, &L->grid, L->asset->arena, &L->lc, &err), 0);
    anim_foot_cycle_compute(doc, &L->grid, &L->rig, ANIM_MIN_STRIDE_STEP_M, &L->fc);
}

static void unload(loaded *L)
{
    anim_metric_grid_free(&L->grid);
    anim_asset_free(L->asset);
}

static uint32_t bone_of(const loaded *L, const char *name)
{
    return anim_doc_find_bone(&L->asset->doc, name);
}

/* ---- the walks (docs/fixtures.md) ---- */

static void test_walk_dirty(void **state)
{
    (void)state;
    loaded L;
    load_clip("walk-dirty.glb", "walk", &L);
    uint32_t foot_l = bone_of(&L, "foot_l"), foot_r = bone_of(&L, "foot_r");

    assert_int_equal(L.lc.availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(L.lc.bone_count, 3);
    assert_int_equal(L.lc.measured_bone_count, 3);
    const anim_loop_bone *r = &L.lc.bones[foot_r];
    assert_int_equal(r->availability, ANIM_AVAIL_MEASURED);
    assert_string_equal(r->bone_name, "foot_r");
    assert_4dp(r->position_delta_m, 0.1581);
    assert_near(r->position_delta_m, 0.1581139, 1e-6);
    assert_4dp(r->seam_velocity_delta_mps, 0.7972);
    assert_near(r->seam_velocity_delta_mps, 0.79717, 1e-5);
    assert_near(r->rotation_delta_deg, 0.0, 1e-12);
    assert_near(r->seam_angular_velocity_delta_degps, 0.0, 1e-9);
    assert_near(L.lc.bones[foot_l].position_delta_m, 0.1581139, 1e-6);
    assert_near(L.lc.bones[0].position_delta_m, 0.0, 0.0);
    assert_near(L.lc.time_s, 1.0, 0.0);

    /* Both feet tie in f64: the worst bone is the last one (foot_r). */
    assert_int_equal(anim_loop_continuity_worst(&L.lc, ANIM_LOOP_POSITION), foot_r);
    assert_int_equal(anim_loop_continuity_worst(&L.lc, ANIM_LOOP_VELOCITY), foot_r);
    assert_4dp(anim_loop_continuity_max(&L.lc, ANIM_LOOP_POSITION), 0.1581);

    assert_int_equal(L.fc.status, ANIM_FOOT_CYCLE_OK);
    assert_true(L.fc.has_ratio);
    assert_4dp(L.fc.ratio, 6.8152);
    assert_near(L.fc.ratio, 6.815220, 1e-5);
    assert_near(L.fc.seam_m, 0.1581139, 1e-6);
    assert_near(L.fc.step_first_m, 0.0232001, 1e-6);
    assert_near(L.fc.step_last_m, 0.0017114, 1e-6);
    assert_near(L.fc.neighbour_step_m, L.fc.step_first_m, 0.0);
    assert_int_equal(L.fc.seam_frame, 32);
    assert_near(L.fc.seam_time_s, 1.0, 0.0);
    assert_int_equal(L.fc.seam_ratio_availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(L.fc.gait_availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(L.fc.phase_availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(L.fc.cycle_frames, 32);
    assert_near(L.fc.phase, 0.848168, 1e-5);
    assert_near(L.fc.lr_amplitude_m, 0.198797, 1e-5);

    /* The documented measure text fragments. */
    anim_strbuf sb = {0};
    anim_loop_continuity_text(&L.lc, &sb);
    anim_loop_seam_ratio_text(&L.fc, &sb);
    anim_gait_text(&L.fc, &sb);
    assert_string_equal(sb.data, " loop \xce\x94p=15.81cm \xce\x94r=0.00\xc2\xb0 \xce\x94v=0.797m/s "
                                 "\xce\x94\xcf\x89=0.00\xc2\xb0/s seam\xc3\x97"
                                 "6.82 gait \xcf\x86=0.85 (19.9cm)");
    anim_strbuf_free(&sb);

    /* Not a declared loop: no endpoint mode. */
    anim_loop_endpoint le;
    anim_loop_endpoint_mode_compute(&L.asset->doc.clips[L.clip], &L.lc, NULL, NULL, &le);
    assert_int_equal(le.availability, ANIM_AVAIL_NOT_APPLICABLE);

    /* Declared (walk.animsmith.toml): the cut cycle does not close. */
    anim_config *cfg = test_support_config_example("walk.animsmith.toml");
    anim_clip_expect ex;
    anim_config_clip_expect(cfg, "walk", &ex);
    anim_loop_endpoint_mode_compute(&L.asset->doc.clips[L.clip], &L.lc, cfg, &ex, &le);
    assert_int_equal(le.availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(le.mode, ANIM_LOOP_ENDPOINT_NON_CLOSING);
    assert_true(le.analysis_ok);
    assert_false(le.analysis.candidate);
    assert_near(le.caps.position_m, 0.01, 0.0);
    assert_near(le.caps.rotation_deg, 0.5, 0.0); /* the clip's own cap wins */
    assert_near(le.caps.velocity_mps, 0.1, 0.0);
    assert_near(le.caps.angular_velocity_degps, 5.0, 0.0);
    assert_near(anim_foot_cycle_min_stride(cfg), 0.02, 0.0);
    anim_config_free(cfg);
    unload(&L);
}

static void test_walk_clean(void **state)
{
    (void)state;
    loaded L;
    load_clip("walk.glb", "walk", &L);
    uint32_t foot_r = bone_of(&L, "foot_r");
    assert_int_equal(L.lc.availability, ANIM_AVAIL_MEASURED);
    /* The f64 sin(2*pi) residue of the last key (docs/checks-loop.md). */
    assert_near(L.lc.bones[foot_r].position_delta_m, 3.67e-17, 0.01e-17);
    assert_near(L.lc.bones[foot_r].seam_velocity_delta_mps, 0.0, 1e-12);
    assert_true(L.fc.has_ratio);
    assert_near(L.fc.ratio, 1.19e-15, 0.01e-15);
    assert_near(L.fc.step_first_m, 0.0308465, 1e-6);
    assert_near(L.fc.step_last_m, 0.0308465, 1e-6);
    assert_4dp(L.fc.phase, 0.75);
    assert_4dp(L.fc.lr_amplitude_m, 0.2);

    /* Declared loop: the last key repeats key 0 -> duplicate endpoint
     * (one closing key, 1.0 s -> 0.96875 s). */
    anim_config *cfg = test_support_config_example("walk.animsmith.toml");
    anim_clip_expect ex;
    anim_config_clip_expect(cfg, "walk", &ex);
    anim_loop_endpoint le;
    anim_loop_endpoint_mode_compute(&L.asset->doc.clips[L.clip], &L.lc, cfg, &ex, &le);
    assert_int_equal(le.availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(le.mode, ANIM_LOOP_ENDPOINT_DUPLICATE);
    assert_true(le.analysis.candidate);
    assert_int_equal(le.analysis.removed_keys, 1);
    assert_near(le.analysis.duration_before, 1.0, 0.0);
    assert_near(le.analysis.duration_after, 0.96875, 0.0);
    assert_true(le.analysis.has_translation);
    assert_false(le.analysis.has_rotation);
    assert_false(le.analysis.has_scale);
    assert_near(le.analysis.translation_delta_m, 3.67e-17, 0.01e-17);

    anim_strbuf sb = {0};
    anim_loop_endpoint_text(&le, &sb);
    assert_string_equal(sb.data, " endpoint=duplicate_endpoint");
    anim_json_writer w;
    anim_strbuf_reset(&sb);
    anim_json_writer_init(&w, &sb, false);
    anim_json_writer_begin_object(&w);
    anim_loop_endpoint_mode_write_json(&le, &w);
    anim_json_writer_end_object(&w);
    assert_true(anim_json_writer_ok(&w));
    assert_string_equal(sb.data, "{\"loop_endpoint_mode\":\"duplicate_endpoint\","
                                 "\"loop_endpoint_mode_availability\":\"measured\"}");
    anim_strbuf_free(&sb);
    anim_config_free(cfg);
    unload(&L);
}

/* clip.glb: no roles (3.8 not_applicable), a 22.9° swing on spine. */
static void test_clip_glb(void **state)
{
    (void)state;
    loaded L;
    load_clip("clip.glb", "swing", &L);
    uint32_t spine = bone_of(&L, "spine");
    assert_int_equal(L.lc.availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(L.lc.bone_count, 2);
    assert_4dp(L.lc.bones[spine].rotation_delta_deg, 22.9183);
    assert_near(L.lc.bones[spine].position_delta_m, 0.0, 1e-12);
    assert_near(L.lc.bones[0].rotation_delta_deg, 0.0, 0.0);
    assert_true(L.lc.bones[spine].seam_angular_velocity_delta_degps < 1e-3);
    assert_int_equal(anim_loop_continuity_worst(&L.lc, ANIM_LOOP_ROTATION), spine);

    assert_int_equal(L.fc.status, ANIM_FOOT_CYCLE_NO_ROLES);
    assert_int_equal(L.fc.seam_ratio_availability, ANIM_AVAIL_NOT_APPLICABLE);
    assert_int_equal(L.fc.gait_availability, ANIM_AVAIL_NOT_APPLICABLE);
    anim_strbuf sb = {0};
    anim_json_writer w;
    anim_json_writer_init(&w, &sb, false);
    anim_error err;
    anim_json_writer_begin_object(&w);
    assert_int_equal(anim_loop_seam_ratio_write_json(&L.fc, "swing", &w, &err), 0);
    assert_int_equal(anim_gait_write_json(&L.fc, "swing", &w, &err), 0);
    anim_json_writer_end_object(&w);
    assert_string_equal(sb.data, "{\"loop_seam_ratio_availability\":\"not_applicable\","
                                 "\"gait_availability\":\"not_applicable\"}");
    anim_strbuf_free(&sb);
    unload(&L);
}

/* run-ring.glb (docs/fixtures.md): run_left a quarter cycle in. */
static void test_run_ring_phases(void **state)
{
    (void)state;
    static const struct {
        const char *clip;
        double phase;
    } want[] = {{"run_forward", 0.75}, {"run_backward", 0.75}, {"run_left", 0.50},
                {"run_right", 0.75}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        loaded L;
        load_clip("run-ring.glb", want[i].clip, &L);
        assert_int_equal(L.fc.phase_availability, ANIM_AVAIL_MEASURED);
        assert_4dp(L.fc.phase, want[i].phase);
        assert_4dp(L.fc.lr_amplitude_m, 0.2);
        unload(&L);
    }
}

/* ---- synthetic documents ---- */

static anim_bone make_bone(const char *name, uint32_t parent, double ty)
{
    anim_bone b;
    memset(&b, 0, sizeof b);
    b.name = name;
    b.has_name = true;
    b.parent = parent;
    b.rest_translation[1] = ty;
    b.rest_rotation[3] = 1;
    b.rest_scale[0] = b.rest_scale[1] = b.rest_scale[2] = 1;
    b.mesh = b.skin = ANIM_NONE;
    return b;
}

static anim_track make_track(anim_path path, anim_interp interp, uint32_t bone, const float *times,
                             uint32_t keys, const float *values)
{
    anim_track t;
    memset(&t, 0, sizeof t);
    t.bone = bone;
    t.path = path;
    t.interp = interp;
    t.times = times;
    t.key_count = keys;
    t.values = values;
    t.value_count = interp == ANIM_INTERP_CUBICSPLINE ? keys * 3 : keys;
    t.components = path == ANIM_PATH_ROTATION ? 4 : 3;
    return t;
}

typedef struct {
    anim_bone bones[4];
    anim_doc doc;
    anim_clip clip;
    anim_track tracks[4];
} synth;

static void synth_init(synth *s, uint32_t bones, uint32_t tracks, double duration)
{
    memset(s, 0, sizeof *s);
    s->bones[0] = make_bone("a", ANIM_NONE, 1.0);
    s->bones[1] = make_bone("b", 0, -1.0);
    s->bones[2] = make_bone("c", 0, -1.0);
    s->bones[3] = make_bone("d", 0, -1.0);
    s->doc.bones = s->bones;
    s->doc.bone_count = bones;
    s->doc.node_count = bones;
    s->clip.name = "c";
    s->clip.duration_s = duration;
    s->clip.tracks = s->tracks;
    s->clip.track_count = tracks;
    s->doc.clips = &s->clip;
    s->doc.clip_count = 1;
}

static const float T5[5] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};

/* One bone with non-finite evidence becomes an unavailable row; the other
 * rows stay measured, and the endpoint mode is unavailable. */
static void test_unavailable_row(void **state)
{
    (void)state;
    static const float bad[15] = {NAN, 0, 0, NAN, 0, 0, NAN, 0, 0, NAN, 0, 0, NAN, 0, 0};
    synth s;
    synth_init(&s, 2, 1, 1.0);
    s.tracks[0] = make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 1, T5, 5, bad);
    anim_metric_grid g;
    anim_error err;
    assert_int_equal(anim_metric_grid_build(&s.doc, &s.clip, &g, &err), 1);
    anim_arena *arena = anim_arena_new();
    anim_loop_continuity lc;
    assert_int_equal(anim_loop_continuity_compute(&s.doc, &g, arena, &lc, &err), 0);
    assert_int_equal(lc.availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(lc.measured_bone_count, 1);
    assert_int_equal(lc.bones[0].availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(lc.bones[1].availability, ANIM_AVAIL_UNAVAILABLE);
    assert_int_equal(anim_loop_continuity_worst(&lc, ANIM_LOOP_POSITION), 0);

    anim_strbuf sb = {0};
    anim_json_writer w;
    anim_json_writer_init(&w, &sb, false);
    anim_json_writer_begin_object(&w);
    assert_int_equal(anim_loop_continuity_write_json(&lc, "c", &w, &err), 0);
    anim_json_writer_end_object(&w);
    assert_true(anim_json_writer_ok(&w));
    assert_string_equal(sb.data,
                        "{\"loop_continuity\":{\"bones\":["
                        "{\"bone_index\":0,\"bone_name\":\"a\",\"availability\":\"measured\","
                        "\"position_delta_m\":0.0,\"rotation_delta_deg\":0.0,"
                        "\"seam_velocity_delta_mps\":0.0,"
                        "\"seam_angular_velocity_delta_degps\":0.0},"
                        "{\"bone_index\":1,\"bone_name\":\"b\",\"availability\":\"unavailable\"}"
                        "]},\"loop_continuity_availability\":\"measured\"}");
    anim_strbuf_free(&sb);

    anim_clip_expect ex;
    memset(&ex, 0, sizeof ex);
    ex.loop.set = ex.loop.value = true;
    anim_loop_endpoint le;
    anim_loop_endpoint_mode_compute(&s.clip, &lc, NULL, &ex, &le);
    assert_int_equal(le.availability, ANIM_AVAIL_UNAVAILABLE);
    assert_false(le.analysis_ok);
    assert_string_equal(le.analysis_error, "track Some(0) contains a non-finite authored value");

    /* A corrupt measured value is refused by the output contract. */
    lc.bones[0].seam_velocity_delta_mps = INFINITY;
    anim_strbuf_reset(&sb);
    anim_json_writer_init(&w, &sb, false);
    anim_json_writer_begin_object(&w);
    assert_int_equal(anim_loop_continuity_write_json(&lc, "c", &w, &err), -1);
    assert_string_equal(err.message, "measurement value clips[\"c\"].loop_continuity.bones[0]."
                                     "seam_velocity_delta_mps must be finite");
    anim_strbuf_free(&sb);
    anim_arena_free(arena);
    anim_metric_grid_free(&g);
}

static void test_no_grid_no_bones(void **state)
{
    (void)state;
    synth s;
    synth_init(&s, 0, 0, 0.0);
    anim_arena *arena = anim_arena_new();
    anim_error err;
    anim_loop_continuity lc;
    assert_int_equal(anim_loop_continuity_compute(&s.doc, NULL, arena, &lc, &err), 0);
    assert_int_equal(lc.availability, ANIM_AVAIL_NOT_APPLICABLE);
    synth_init(&s, 2, 0, 0.0);
    assert_int_equal(anim_loop_continuity_compute(&s.doc, NULL, arena, &lc, &err), 0);
    assert_int_equal(lc.availability, ANIM_AVAIL_UNAVAILABLE);
    assert_int_equal(anim_loop_continuity_worst(&lc, ANIM_LOOP_POSITION), ANIM_NONE);

    anim_strbuf sb = {0};
    anim_json_writer w;
    anim_json_writer_init(&w, &sb, false);
    anim_json_writer_begin_object(&w);
    assert_int_equal(anim_loop_continuity_write_json(&lc, "c", &w, &err), 0);
    anim_json_writer_end_object(&w);
    assert_string_equal(sb.data, "{\"loop_continuity_availability\":\"unavailable\"}");
    anim_strbuf_free(&sb);

    /* Roles resolved but no grid: the foot cycle is unavailable. */
    anim_rig_resolution rig;
    memset(&rig, 0, sizeof rig);
    for (int r = 0; r < ANIM_ROLE_COUNT; r++)
        rig.bone[r] = ANIM_NONE;
    rig.bone[ANIM_ROLE_HIPS] = 0;
    rig.bone[ANIM_ROLE_LEFT_FOOT] = 1;
    anim_foot_cycle fc;
    anim_foot_cycle_compute(&s.doc, NULL, &rig, ANIM_MIN_STRIDE_STEP_M, &fc);
    assert_int_equal(fc.status, ANIM_FOOT_CYCLE_NO_GRID);
    assert_int_equal(fc.seam_ratio_availability, ANIM_AVAIL_UNAVAILABLE);
    assert_int_equal(fc.gait_availability, ANIM_AVAIL_UNAVAILABLE);
    rig.bone[ANIM_ROLE_LEFT_FOOT] = ANIM_NONE;
    assert_false(anim_foot_cycle_roles(&rig));
    anim_foot_cycle_compute(&s.doc, NULL, &rig, ANIM_MIN_STRIDE_STEP_M, &fc);
    assert_int_equal(fc.status, ANIM_FOOT_CYCLE_NO_ROLES);
    assert_int_equal(fc.gait_availability, ANIM_AVAIL_NOT_APPLICABLE);
    anim_arena_free(arena);
}

/* A loop that closes within the caps but has no duplicate key is a
 * unique_cycle; past a cap it is non_closing. */
static void test_unique_cycle(void **state)
{
    (void)state;
    /* x goes 0 -> 0.1 -> 0 -> -0.1 -> 0.005: key 4 is 5 mm off key 0. */
    static const float v[15] = {0, 0, 0, 0.1f, 0, 0, 0, 0, 0, -0.1f, 0, 0, 0.005f, 0, 0};
    synth s;
    synth_init(&s, 2, 1, 1.0);
    s.tracks[0] = make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 1, T5, 5, v);
    anim_metric_grid g;
    anim_error err;
    assert_int_equal(anim_metric_grid_build(&s.doc, &s.clip, &g, &err), 1);
    anim_arena *arena = anim_arena_new();
    anim_loop_continuity lc;
    assert_int_equal(anim_loop_continuity_compute(&s.doc, &g, arena, &lc, &err), 0);
    assert_near(lc.bones[1].position_delta_m, 0.005, 1e-9);
    /* v_out = 0.4 m/s, v_in = (0.005 + 0.1) / 0.25 = 0.42 m/s. */
    assert_near(lc.bones[1].seam_velocity_delta_mps, 0.02, 1e-7);

    anim_clip_expect ex;
    memset(&ex, 0, sizeof ex);
    ex.loop.set = ex.loop.value = true;
    anim_loop_endpoint le;
    anim_loop_endpoint_mode_compute(&s.clip, &lc, NULL, &ex, &le);
    assert_true(le.analysis_ok);
    assert_int_equal(le.availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(le.mode, ANIM_LOOP_ENDPOINT_UNIQUE_CYCLE);
    ex.max_loop_position_delta_m.set = true;
    ex.max_loop_position_delta_m.value = 0.004;
    anim_loop_endpoint_mode_compute(&s.clip, &lc, NULL, &ex, &le);
    assert_int_equal(le.mode, ANIM_LOOP_ENDPOINT_NON_CLOSING);
    /* The f32 cap rule: equal after narrowing is not "exceeds". */
    assert_false(anim_loop_exceeds_cap(0.1 + 1e-12, 0.1));
    assert_true(anim_loop_exceeds_cap(0.1001, 0.1));
    anim_arena_free(arena);
    anim_metric_grid_free(&g);
}

/* Angular C1: a bone spinning at a constant rate has no seam change; one
 * that reverses does. */
static void test_rotation_seam(void **state)
{
    (void)state;
    /* Rotation about Y by 0, 90, 180, 270, 360 degrees (q and -q mix). */
    const float h = (float)(sqrt(0.5));
    const float q[20] = {0, 0, 0, 1, 0, h, 0, h, 0, 1, 0, 0, 0, h, 0, -h, 0, 0, 0, -1};
    synth s;
    synth_init(&s, 1, 1, 1.0);
    s.tracks[0] = make_track(ANIM_PATH_ROTATION, ANIM_INTERP_LINEAR, 0, T5, 5, q);
    anim_metric_grid g;
    anim_error err;
    assert_int_equal(anim_metric_grid_build(&s.doc, &s.clip, &g, &err), 1);
    anim_arena *arena = anim_arena_new();
    anim_loop_continuity lc;
    assert_int_equal(anim_loop_continuity_compute(&s.doc, &g, arena, &lc, &err), 0);
    assert_near(lc.bones[0].rotation_delta_deg, 0.0, 1e-6);
    assert_near(lc.bones[0].seam_angular_velocity_delta_degps, 0.0, 1e-4);

    /* 0, 30, 60, 30, 0 degrees: out +120 deg/s, in -120 deg/s -> 240. */
    float r[20];
    const double deg[5] = {0, 30, 60, 30, 0};
    for (int k = 0; k < 5; k++) {
        double a = deg[k] * ANIM_PI / 360.0;
        r[k * 4 + 0] = 0;
        r[k * 4 + 1] = (float)sin(a);
        r[k * 4 + 2] = 0;
        r[k * 4 + 3] = (float)cos(a);
    }
    s.tracks[0] = make_track(ANIM_PATH_ROTATION, ANIM_INTERP_LINEAR, 0, T5, 5, r);
    anim_metric_grid_free(&g);
    assert_int_equal(anim_metric_grid_build(&s.doc, &s.clip, &g, &err), 1);
    assert_int_equal(anim_loop_continuity_compute(&s.doc, &g, arena, &lc, &err), 0);
    assert_near(lc.bones[0].rotation_delta_deg, 0.0, 1e-4);
    assert_near(lc.bones[0].seam_angular_velocity_delta_degps, 240.0, 1e-3);
    anim_arena_free(arena);
    anim_metric_grid_free(&g);
}

/* The duplicate-endpoint analysis's error texts, in the order it meets
 * them. */
static void test_dup_endpoint_errors(void **state)
{
    (void)state;
    static const float v[15] = {0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0};
    static const float tbad[5] = {0.0f, 0.5f, 0.5f, 0.75f, 1.0f};
    static const float tother[5] = {0.0f, 0.2f, 0.5f, 0.75f, 1.0f};
    synth s;
    anim_dup_endpoint d;
    anim_error err;

    synth_init(&s, 2, 0, 1.0);
    assert_int_equal(anim_dup_endpoint_analyze(&s.clip, &d, &err), -1);
    assert_string_equal(err.message, "clip has no tracks");

    synth_init(&s, 2, 2, 1.0);
    s.tracks[0] = make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 1, T5, 5, v);
    s.tracks[1] = make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 1, T5, 5, v);
    s.tracks[1].value_count = 4;
    assert_int_equal(anim_dup_endpoint_analyze(&s.clip, &d, &err), -1);
    assert_string_equal(err.message, "track 1 has 4 values for 5 keys with Linear interpolation");
    s.tracks[1].interp = ANIM_INTERP_CUBICSPLINE;
    assert_int_equal(anim_dup_endpoint_analyze(&s.clip, &d, &err), -1);
    assert_string_equal(err.message,
                        "track 1 has 4 values for 5 keys with CubicSpline interpolation");

    s.tracks[1] = make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 1, T5, 5, v);
    s.tracks[1].components = 4;
    assert_int_equal(anim_dup_endpoint_analyze(&s.clip, &d, &err), -1);
    assert_string_equal(err.message, "track 1 has invalid value storage");

    s.tracks[1] = make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 1, tbad, 5, v);
    assert_int_equal(anim_dup_endpoint_analyze(&s.clip, &d, &err), -1);
    assert_string_equal(err.message, "track 1 timeline is not strictly increasing");

    s.tracks[1] = make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 1, tother, 5, v);
    assert_int_equal(anim_dup_endpoint_analyze(&s.clip, &d, &err), -1);
    assert_string_equal(err.message, "track 1 does not share the exact authored timeline");

    s.tracks[1] = make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 1, T5, 5, v);
    s.clip.duration_s = 2.0;
    assert_int_equal(anim_dup_endpoint_analyze(&s.clip, &d, &err), -1);
    assert_string_equal(err.message, "track 0 does not end at the declared duration");

    /* Both tracks close with one duplicate key: a candidate. */
    s.clip.duration_s = 1.0;
    assert_int_equal(anim_dup_endpoint_analyze(&s.clip, &d, &err), 0);
    assert_true(d.candidate);
    assert_int_equal(d.removed_keys, 1);
    assert_near(d.duration_after, 0.75, 0.0);

    /* A stationary hold is not a candidate. */
    static const float still[15] = {0};
    s.tracks[0] = make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 1, T5, 5, still);
    s.tracks[1] = make_track(ANIM_PATH_SCALE, ANIM_INTERP_LINEAR, 1, T5, 5, still);
    assert_int_equal(anim_dup_endpoint_analyze(&s.clip, &d, &err), 0);
    assert_false(d.candidate);

    /* A moving track whose closing key is off by more than 1e-5: no. */
    static const float off[15] = {0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 2e-5f, 0, 0};
    s.tracks[0] = make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 1, T5, 5, off);
    assert_int_equal(anim_dup_endpoint_analyze(&s.clip, &d, &err), 0);
    assert_false(d.candidate);
}

/* One-sided feet: amplitude 0, no phase (3.9 not_applicable); zero swing
 * also gives not_applicable; a stride below the floor has no ratio. */
static void test_gait_edges(void **state)
{
    (void)state;
    static const float lift[15] = {0, 0, 0, 0, 0.05f, 0.1f, 0, 0, 0, 0, -0.05f, -0.1f, 0, 0, 0};
    static const float tiny[15] = {0, 0, 0, 0, 0, 0.005f, 0, 0, 0, 0, 0, -0.005f, 0, 0, 0};
    synth s;
    synth_init(&s, 3, 1, 1.0);
    s.tracks[0] = make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 1, T5, 5, lift);
    anim_metric_grid g;
    anim_error err;
    assert_int_equal(anim_metric_grid_build(&s.doc, &s.clip, &g, &err), 1);
    anim_rig_resolution rig;
    memset(&rig, 0, sizeof rig);
    for (int r = 0; r < ANIM_ROLE_COUNT; r++)
        rig.bone[r] = ANIM_NONE;
    rig.bone[ANIM_ROLE_HIPS] = 0;
    rig.bone[ANIM_ROLE_LEFT_FOOT] = 1;
    anim_foot_cycle fc;
    anim_foot_cycle_compute(&s.doc, &g, &rig, ANIM_MIN_STRIDE_STEP_M, &fc);
    assert_int_equal(fc.status, ANIM_FOOT_CYCLE_OK);
    assert_false(fc.bilateral);
    assert_near(fc.lr_amplitude_m, 0.0, 0.0);
    assert_int_equal(fc.phase_outcome, ANIM_GAIT_PHASE_NOT_BILATERAL);
    assert_int_equal(fc.gait_availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(fc.phase_availability, ANIM_AVAIL_NOT_APPLICABLE);
    assert_int_equal(fc.cycle_frames, 4);
    /* seam 0, steps 0.1118 and 0.1118: ratio 0. */
    assert_true(fc.has_ratio);
    assert_near(fc.ratio, 0.0, 0.0);

    anim_strbuf sb = {0};
    anim_json_writer w;
    anim_json_writer_init(&w, &sb, false);
    anim_json_writer_begin_object(&w);
    assert_int_equal(anim_gait_write_json(&fc, "c", &w, &err), 0);
    anim_json_writer_end_object(&w);
    assert_string_equal(sb.data, "{\"gait\":{\"phase_availability\":\"not_applicable\","
                                 "\"lr_amplitude_m\":0.0},\"gait_availability\":\"measured\"}");
    anim_strbuf_free(&sb);

    /* Both feet bound, the right one still: the swing is the left lift. */
    rig.bone[ANIM_ROLE_RIGHT_FOOT] = 2;
    anim_foot_cycle_compute(&s.doc, &g, &rig, ANIM_MIN_STRIDE_STEP_M, &fc);
    assert_true(fc.bilateral);
    assert_near(fc.lr_amplitude_m, 0.1, 1e-8); /* +0.05 .. -0.05 */
    assert_int_equal(fc.phase_availability, ANIM_AVAIL_MEASURED);
    assert_true(fc.phase >= 0.0 && fc.phase < 1.0);

    /* No vertical motion at all: zero swing. */
    static const float flat[15] = {0, 0, 0, 0, 0, 0.1f, 0, 0, 0, 0, 0, -0.1f, 0, 0, 0};
    s.tracks[0] = make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 1, T5, 5, flat);
    anim_metric_grid_free(&g);
    assert_int_equal(anim_metric_grid_build(&s.doc, &s.clip, &g, &err), 1);
    anim_foot_cycle_compute(&s.doc, &g, &rig, ANIM_MIN_STRIDE_STEP_M, &fc);
    assert_int_equal(fc.phase_outcome, ANIM_GAIT_PHASE_NO_SWING);
    assert_int_equal(fc.phase_availability, ANIM_AVAIL_NOT_APPLICABLE);

    /* Steps of 5 mm are below the 2 cm floor: no real stride. */
    s.tracks[0] = make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 1, T5, 5, tiny);
    anim_metric_grid_free(&g);
    assert_int_equal(anim_metric_grid_build(&s.doc, &s.clip, &g, &err), 1);
    anim_foot_cycle_compute(&s.doc, &g, &rig, ANIM_MIN_STRIDE_STEP_M, &fc);
    assert_false(fc.has_real_stride);
    assert_false(fc.has_ratio);
    assert_int_equal(fc.seam_ratio_availability, ANIM_AVAIL_NOT_APPLICABLE);
    anim_foot_cycle_compute(&s.doc, &g, &rig, 0.001, &fc);
    assert_true(fc.has_ratio);
    assert_int_equal(fc.seam_ratio_availability, ANIM_AVAIL_MEASURED);

    /* A stale role index is failed evidence, not a crash. */
    rig.bone[ANIM_ROLE_RIGHT_FOOT] = 7;
    anim_foot_cycle_compute(&s.doc, &g, &rig, ANIM_MIN_STRIDE_STEP_M, &fc);
    assert_int_equal(fc.status, ANIM_FOOT_CYCLE_FAILED);
    assert_int_equal(fc.seam_ratio_availability, ANIM_AVAIL_UNAVAILABLE);
    assert_int_equal(fc.gait_availability, ANIM_AVAIL_UNAVAILABLE);
    anim_metric_grid_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_dirty),         cmocka_unit_test(test_walk_clean),
        cmocka_unit_test(test_clip_glb),           cmocka_unit_test(test_run_ring_phases),
        cmocka_unit_test(test_unavailable_row),    cmocka_unit_test(test_no_grid_no_bones),
        cmocka_unit_test(test_unique_cycle),       cmocka_unit_test(test_rotation_seam),
        cmocka_unit_test(test_dup_endpoint_errors), cmocka_unit_test(test_gait_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
