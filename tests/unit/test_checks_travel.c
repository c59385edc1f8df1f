/* The travel and motion contract checks: root-motion-speed,
 * in-place (5.23), foot-slide (5.29), fps (5.27) and frozen-bone (5.16).
 * Contracts are TOML texts loaded with anim_config_load_bytes (or the
 * committed example contracts); documents are the example assets or small
 * .gltf texts assembled here with a base64 data-URI buffer, so every
 * message, field, gap, scope and evaluation state is pinned. */
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
#include "animsmith/lint.h"
#include "animsmith/strbuf.h"
#include "support/test_support.h"

/* ---- documents -------------------------------------------------------- */

typedef struct {
    const char *name;
    int parent;     /* -1 for a scene root */
    float t[3];     /* rest translation */
} tnode;

typedef struct {
    int node;
    const char *path; /* "translation", "rotation", "scale" */
    uint32_t keys;
    const float *times;
    const float *values; /* keys * (3 or 4) floats */
} ttrack;

/* One document with one clip named clip_name; nodes are listed parents
 * first. Every track gets its own input and output accessor. */
static anim_asset *build_doc(const tnode *nodes, int node_count, const char *clip_name,
                             const ttrack *tracks, int track_count)
{
    test_support_gltf *g = test_support_gltf_new();
    for (int i = 0; i < node_count; i++) {
        const float *t = nodes[i].t;
        test_support_node node = {nodes[i].name, nodes[i].parent, TEST_SUPPORT_T,
                                  {t[0], t[1], t[2]}, {0}, {0}};
        test_support_gltf_node(g, &node);
    }
    test_support_gltf_animation(g, clip_name);
    for (int i = 0; i < track_count; i++)
        test_support_gltf_track(g, tracks[i].node, tracks[i].path, NULL, tracks[i].keys,
                                tracks[i].times, tracks[i].values, 0);
    anim_asset *a = test_support_gltf_load(g, "t.gltf");
    test_support_gltf_free(g);
    return a;
}

/* ---- running ---------------------------------------------------------- */

typedef struct {
    anim_lint_file file;
    const anim_check_record *rec;
} run_result;

/* Runs only check id (--select id) and returns its record. */
static void run_check(const anim_asset *a, const anim_config *cfg, const char *id,
                      run_result *out)
{
    out->rec = test_support_lint_only(a, cfg, id, &out->file);
}

static void expect_number(anim_value v, double want)
{
    assert_int_equal(v.kind, ANIM_VALUE_NUMBER);
    if (!(fabs(v.number - want) <= 1e-9 * fmax(1.0, fabs(want))))
        fail_msg("number %.17g, want %.17g", v.number, want);
}

static void expect_finding(const anim_finding *f, const char *check, anim_severity sev,
                           const char *clip, const char *bone, const char *message)
{
    assert_string_equal(f->check_id, check);
    assert_int_equal(f->severity, sev);
    test_support_expect_str(f->clip, clip);
    test_support_expect_str(f->bone, bone);
    assert_null(f->node);
    assert_int_equal(f->member_count, 0);
    assert_string_equal(f->message, message);
}

static void done(run_result *r, anim_asset *a, anim_config *cfg)
{
    anim_lint_file_free(&r->file);
    anim_asset_free(a);
    anim_config_free(cfg);
}

/* ---- a small travelling rig ------------------------------------------- */

/* trunk -> waist -> sole_l, sole_r (plus "arm"): names no built-in profile
 * knows, so roles resolve only as each test declares them inline (root =
 * trunk, hips = waist, feet = soles). The trunk never moves; the waist
 * translates along Z; the soles are keyed in waist space. */
static const float T5[5] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};

static const tnode RIG[] = {
    {"trunk", -1, {0, 0, 0}},
    {"waist", 0, {0, 1, 0}},
    {"sole_l", 1, {0.1f, -1, 0}},
    {"sole_r", 1, {-0.1f, -1, 0}},
    {"arm", 1, {0.3f, 0.4f, 0}},
};

/* hips z over five keys at 0.25 s steps, ending at dz. */
static void hips_path(float dz, float v[15])
{
    for (int k = 0; k < 5; k++) {
        v[3 * k] = 0.0f;
        v[3 * k + 1] = 1.0f;
        v[3 * k + 2] = dz * (float)k / 4.0f;
    }
}

/* A rig clip where the hips travel dz metres in 1 s and the feet stay at
 * their rest offsets (so they travel with the hips). */
static anim_asset *travel_doc(float dz)
{
    static float hv[15];
    hips_path(dz, hv);
    ttrack tr[] = {{1, "translation", 5, T5, hv}};
    return build_doc(RIG, 5, "move", tr, 1);
}

#define ROLES_ALL                                                                       \
    "[rig]\nroles = { root = \"trunk\", hips = \"waist\", left_foot = \"sole_l\", "      \
    "right_foot = \"sole_r\" }\n"
#define ROLES_HIPS_ONLY "[rig]\nroles = { hips = \"waist\", left_foot = \"sole_l\", right_foot = \"sole_r\" }\n"
#define ROLES_NONE "[rig]\nprofile = \"auto\"\n"

/* ---- root-motion-speed ------------------------------------------------ */

static void test_rms_walk_travel_stale_pin(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk-travel.glb");
    anim_config *cfg = test_support_config_example("walk-travel-root-motion.animsmith.toml");
    run_result r;
    run_check(a, cfg, "root-motion-speed", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    const anim_finding *f = &r.rec->findings[0];
    expect_finding(f, "root-motion-speed", ANIM_SEVERITY_ERROR, "walk_travel", NULL,
                   "measured root-motion speed 1.20 m/s disagrees with the declared 1.00 \xc2\xb1 "
                   "0.10 m/s \xe2\x80\x94 playback scaled by this pin will slide or moonwalk");
    assert_false(f->has_time);
    expect_number(f->measured, (double)1.2f); /* f32 authored travel over 1 s */
    expect_number(f->expected, 1.0);
    test_support_expect_scope(&r.rec->scopes[0], "root_motion_speed", "walk_travel");
    done(&r, a, cfg);
}

static void test_rms_walk_travel_true_pin_passes(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk-travel.glb");
    anim_config *cfg = test_support_config_text("[rig]\nprofile = \"auto\"\n[clips.walk_travel]\n"
                                "movement_owner_xz = \"animation\"\n"
                                "speed_mps = { value = 1.2, tolerance = 0.1 }\n");
    run_result r;
    run_check(a, cfg, "root-motion-speed", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    done(&r, a, cfg);
}

/* Speed exactly 1.0 (f32 1.0 over a 1 s grid): a deviation equal to the
 * tolerance passes, a hair more fails. */
static void test_rms_tolerance_edge(void **state)
{
    (void)state;
    static const char *const pass[] = {
        "speed_mps = { value = 0.75, tolerance = 0.25 }\n",
        "speed_mps = { value = 1.25, tolerance = 0.25 }\n",
        "speed_mps = { value = 1.0, tolerance = 0.0 }\n",
    };
    for (size_t i = 0; i < sizeof pass / sizeof *pass; i++) {
        anim_asset *a = travel_doc(1.0f);
        char toml[512];
        snprintf(toml, sizeof toml, ROLES_HIPS_ONLY "[clips.move]\n%s", pass[i]);
        anim_config *cfg = test_support_config_text(toml);
        run_result r;
        run_check(a, cfg, "root-motion-speed", &r);
        test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 1, 0);
        done(&r, a, cfg);
    }
    anim_asset *a = travel_doc(1.0f);
    anim_config *cfg = test_support_config_text(ROLES_HIPS_ONLY "[clips.move]\n"
                                "speed_mps = { value = 1.25, tolerance = 0.2499 }\n");
    run_result r;
    run_check(a, cfg, "root-motion-speed", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    expect_finding(&r.rec->findings[0], "root-motion-speed", ANIM_SEVERITY_ERROR, "move", NULL,
                   "measured root-motion speed 1.00 m/s disagrees with the declared 1.25 \xc2\xb1 "
                   "0.25 m/s \xe2\x80\x94 playback scaled by this pin will slide or moonwalk");
    expect_number(r.rec->findings[0].measured, 1.0);
    expect_number(r.rec->findings[0].expected, 1.25);
    done(&r, a, cfg);
}

/* A locomotion-speed pin on a clip that does not travel is a stray pin; a
 * pin below the travel floor is an ordinary disagreement. */
static void test_rms_stray_pin(void **state)
{
    (void)state;
    anim_asset *a = travel_doc(0.0f);
    anim_config *cfg = test_support_config_text(ROLES_ALL "[clips.move]\nspeed_mps = { value = 1.0, tolerance = 0.1 }\n");
    run_result r;
    run_check(a, cfg, "root-motion-speed", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    expect_finding(&r.rec->findings[0], "root-motion-speed", ANIM_SEVERITY_ERROR, "move", NULL,
                   "declared speed 1.00 m/s but the clip carries almost no root motion (0.00 m/s) "
                   "\xe2\x80\x94 stray pin, or an in-place clip declared as root-motion");
    expect_number(r.rec->findings[0].measured, 0.0);
    expect_number(r.rec->findings[0].expected, 1.0);
    done(&r, a, cfg);

    a = travel_doc(0.0f);
    cfg = test_support_config_text(ROLES_ALL "[clips.move]\nspeed_mps = { value = 0.3, tolerance = 0.1 }\n");
    run_check(a, cfg, "root-motion-speed", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    expect_finding(&r.rec->findings[0], "root-motion-speed", ANIM_SEVERITY_ERROR, "move", NULL,
                   "measured root-motion speed 0.00 m/s disagrees with the declared 0.30 \xc2\xb1 "
                   "0.10 m/s \xe2\x80\x94 playback scaled by this pin will slide or moonwalk");
    done(&r, a, cfg);

    /* Both under the floor and within tolerance: quiet. */
    a = travel_doc(0.4375f);
    cfg = test_support_config_text(ROLES_HIPS_ONLY "[clips.move]\nspeed_mps = { value = 0.4, tolerance = 0.05 }\n");
    run_check(a, cfg, "root-motion-speed", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    done(&r, a, cfg);
}

/* Gameplay-owned XZ disarms the check for that clip; no pin, no check. */
static void test_rms_applicability(void **state)
{
    (void)state;
    anim_asset *a = travel_doc(1.0f);
    anim_config *cfg = test_support_config_text(ROLES_HIPS_ONLY "[clips.move]\nmovement_owner_xz = \"gameplay\"\n"
                                "speed_mps = { value = 3.0, tolerance = 0.1 }\n");
    run_result r;
    run_check(a, cfg, "root-motion-speed", &r);
    test_support_expect_state(r.rec, false, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
    done(&r, a, cfg);

    a = travel_doc(1.0f);
    cfg = test_support_config_text(ROLES_HIPS_ONLY "[clips.move]\nmovement_owner_xz = \"animation\"\n");
    run_check(a, cfg, "root-motion-speed", &r);
    test_support_expect_state(r.rec, false, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
    done(&r, a, cfg);

    /* A pin on a clip the document does not have arms nothing. */
    a = travel_doc(1.0f);
    cfg = test_support_config_text(ROLES_HIPS_ONLY "[clips.other]\nspeed_mps = { value = 3.0, tolerance = 0.1 }\n");
    run_check(a, cfg, "root-motion-speed", &r);
    test_support_expect_state(r.rec, false, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
    done(&r, a, cfg);

    /* Y / yaw owners do not stand in for the XZ owner: still armed. */
    a = travel_doc(1.0f);
    cfg = test_support_config_text(ROLES_HIPS_ONLY "[clips.move]\nmovement_owner_y = \"gameplay\"\n"
                   "movement_owner_yaw = \"gameplay\"\n"
                   "speed_mps = { value = 3.0, tolerance = 0.1 }\n");
    run_check(a, cfg, "root-motion-speed", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    done(&r, a, cfg);
}

/* Without Root and Hips roles the check reports a typed gap; without a
 * metric grid (two keys) the speed is unavailable. */
static void test_rms_gaps(void **state)
{
    (void)state;
    anim_asset *a = travel_doc(1.0f);
    anim_config *cfg = test_support_config_text(ROLES_NONE "[clips.move]\nspeed_mps = { value = 1.0, tolerance = 0.1 }\n");
    run_result r;
    run_check(a, cfg, "root-motion-speed", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 1);
    test_support_expect_gap(&r.rec->gaps[0], "roles_unresolved", "root_motion_speed", "move",
               "root/hips role not resolved (rig profile 'unknown')");
    done(&r, a, cfg);

    static const float t2[2] = {0.0f, 1.0f};
    static const float v2[6] = {0, 1, 0, 0, 1, 1};
    ttrack tr[] = {{1, "translation", 2, t2, v2}};
    a = build_doc(RIG, 5, "move", tr, 1);
    cfg = test_support_config_text(ROLES_ALL "[clips.move]\nspeed_mps = { value = 1.0, tolerance = 0.1 }\n");
    run_check(a, cfg, "root-motion-speed", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 1);
    test_support_expect_gap(&r.rec->gaps[0], "measurement_unavailable", "root_motion_speed", "move",
               "root-motion speed could not be measured");
    done(&r, a, cfg);
}

/* ---- in-place ---------------------------------------------------------- */

static void test_in_place_walk_travel_glide(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk-travel.glb");
    anim_config *cfg = test_support_config_example("walk-travel-in-place.animsmith.toml");
    run_result r;
    run_check(a, cfg, "in-place", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    const anim_finding *f = &r.rec->findings[0];
    expect_finding(f, "in-place", ANIM_SEVERITY_ERROR, "walk_travel", NULL,
                   "declared in-place but the root travels at 1.20 m/s \xe2\x80\x94 the "
                   "character will glide at runtime");
    assert_false(f->has_time);
    expect_number(f->measured, (double)1.2f);
    expect_number(f->expected, 0.0);
    test_support_expect_scope(&r.rec->scopes[0], "travel_mode", "walk_travel");
    done(&r, a, cfg);

    /* The same file under the root-motion contract: owner animation and
     * the root travels, so in-place agrees. */
    a = test_support_load_example("walk-travel.glb");
    cfg = test_support_config_example("walk-travel-root-motion.animsmith.toml");
    run_check(a, cfg, "in-place", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    done(&r, a, cfg);

    /* And the clean, in-place walk under its own contract. */
    a = test_support_load_example("walk.glb");
    cfg = test_support_config_example("walk.animsmith.toml");
    run_check(a, cfg, "in-place", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    test_support_expect_scope(&r.rec->scopes[0], "travel_mode", "walk");
    done(&r, a, cfg);
}

static void test_in_place_owners(void **state)
{
    (void)state;
    run_result r;
    /* Gameplay owner, stationary root: fine. */
    anim_asset *a = travel_doc(0.0f);
    anim_config *cfg = test_support_config_text(ROLES_ALL "[clips.move]\nmovement_owner_xz = \"gameplay\"\n");
    run_check(a, cfg, "in-place", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    done(&r, a, cfg);

    /* Animation owner, stationary root: running in place; no expected. */
    a = travel_doc(0.0f);
    cfg = test_support_config_text(ROLES_ALL "[clips.move]\nmovement_owner_xz = \"animation\"\n");
    run_check(a, cfg, "in-place", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    expect_finding(&r.rec->findings[0], "in-place", ANIM_SEVERITY_ERROR, "move", NULL,
                   "declared root-motion but the root is stationary (0.00 m/s) \xe2\x80\x94 the "
                   "character will run in place");
    expect_number(r.rec->findings[0].measured, 0.0);
    assert_int_equal(r.rec->findings[0].expected.kind, ANIM_VALUE_NONE);
    done(&r, a, cfg);

    /* The travel threshold is inclusive: 0.5 m/s travels. */
    a = travel_doc(0.5f);
    cfg = test_support_config_text(ROLES_HIPS_ONLY "[clips.move]\nmovement_owner_xz = \"animation\"\n");
    run_check(a, cfg, "in-place", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    done(&r, a, cfg);
    a = travel_doc(0.5f);
    cfg = test_support_config_text(ROLES_HIPS_ONLY "[clips.move]\nmovement_owner_xz = \"gameplay\"\n");
    run_check(a, cfg, "in-place", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    assert_string_equal(r.rec->findings[0].message,
                        "declared in-place but the root travels at 0.50 m/s \xe2\x80\x94 the "
                        "character will glide at runtime");
    done(&r, a, cfg);
    a = travel_doc(0.4999f);
    cfg = test_support_config_text(ROLES_HIPS_ONLY "[clips.move]\nmovement_owner_xz = \"gameplay\"\n");
    run_check(a, cfg, "in-place", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    done(&r, a, cfg);

    /* The legacy alias in_place = true is gameplay-owned XZ. */
    a = travel_doc(1.0f);
    cfg = test_support_config_text(ROLES_HIPS_ONLY "[clips.move]\nin_place = true\n");
    run_check(a, cfg, "in-place", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    done(&r, a, cfg);
}

/* XZ, Y and yaw ownership are independent: Y/yaw declarations alone do
 * not arm in-place, and they do not change the XZ verdict. */
static void test_in_place_y_yaw_independent(void **state)
{
    (void)state;
    run_result r;
    anim_asset *a = travel_doc(1.0f);
    anim_config *cfg = test_support_config_text(ROLES_HIPS_ONLY "[clips.move]\nmovement_owner_y = \"gameplay\"\n"
                                "movement_owner_yaw = \"animation\"\n");
    run_check(a, cfg, "in-place", &r);
    test_support_expect_state(r.rec, false, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
    done(&r, a, cfg);

    /* Vertical bob under a gameplay-owned Y does not count as XZ travel. */
    static float hv[15];
    hips_path(0.0f, hv);
    for (int k = 0; k < 5; k++)
        hv[3 * k + 1] = 1.0f + 0.8f * (float)(k % 2);
    static float hv_end[15];
    memcpy(hv_end, hv, sizeof hv);
    hv_end[13] = 3.0f; /* end 2 m higher: still no horizontal travel */
    ttrack tr[] = {{1, "translation", 5, T5, hv_end}};
    a = build_doc(RIG, 5, "move", tr, 1);
    cfg = test_support_config_text(ROLES_HIPS_ONLY "[clips.move]\nmovement_owner_xz = \"gameplay\"\n"
                   "movement_owner_y = \"animation\"\nmovement_owner_yaw = \"gameplay\"\n");
    run_check(a, cfg, "in-place", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    done(&r, a, cfg);
}

/* Root is preferred to Hips; Hips is the fallback only when Root is not
 * resolved; neither → a gap per clip. */
static void test_in_place_root_vs_hips(void **state)
{
    (void)state;
    run_result r;
    /* Root resolved and stationary while the hips travel: judged on Root. */
    anim_asset *a = travel_doc(1.0f);
    anim_config *cfg = test_support_config_text(ROLES_ALL "[clips.move]\nmovement_owner_xz = \"gameplay\"\n");
    run_check(a, cfg, "in-place", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    done(&r, a, cfg);

    /* No Root role: the hips fallback travels. */
    a = travel_doc(1.0f);
    cfg = test_support_config_text(ROLES_HIPS_ONLY "[clips.move]\nmovement_owner_xz = \"gameplay\"\n");
    run_check(a, cfg, "in-place", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    expect_number(r.rec->findings[0].measured, 1.0);
    done(&r, a, cfg);

    /* Root role on a bone that travels (the hips bone named as root). */
    a = travel_doc(1.0f);
    cfg = test_support_config_text("[rig]\nroles = { root = \"waist\" }\n[clips.move]\nmovement_owner_xz = \"gameplay\"\n");
    run_check(a, cfg, "in-place", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    done(&r, a, cfg);

    /* No roles: one gap for each declared clip, nothing evaluated. */
    a = travel_doc(1.0f);
    cfg = test_support_config_text(ROLES_NONE "[clips.move]\nmovement_owner_xz = \"animation\"\n");
    run_check(a, cfg, "in-place", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 1);
    test_support_expect_gap(&r.rec->gaps[0], "roles_unresolved", "travel_mode", "move",
               "root/hips role not resolved (rig profile 'unknown')");
    done(&r, a, cfg);
}

/* ---- foot-slide --------------------------------------------------------- */

static void test_foot_slide_report_comparison(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("report-comparison-before.glb");
    anim_config *cfg = test_support_config_example("report-comparison.animsmith.toml");
    run_result r;
    run_check(a, cfg, "foot-slide", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 2, 2, 0);
    const anim_finding *f = &r.rec->findings[0];
    expect_finding(f, "foot-slide", ANIM_SEVERITY_WARNING, "acceptance-matrix", "left_foot",
                   "left foot skates during stance: speed deviates 0.72 m/s from the expected "
                   "1.00 m/s (cap 0.30) \xe2\x80\x94 foot plants will slip at runtime");
    assert_true(f->has_time);
    assert_true(f->time_s == 0.25);
    /* |0.07 m (as f32) / 0.25 s - 1.0 m/s| */
    expect_number(f->measured, 1.0 - (double)0.07f / 0.25);
    expect_number(f->expected, 0.3);
    f = &r.rec->findings[1];
    expect_finding(f, "foot-slide", ANIM_SEVERITY_WARNING, "acceptance-matrix", "right_foot",
                   "right foot skates during stance: speed deviates 0.88 m/s from the expected "
                   "1.00 m/s (cap 0.30) \xe2\x80\x94 foot plants will slip at runtime");
    assert_true(f->time_s == 1.0);
    test_support_expect_scope(&r.rec->scopes[0], "left_foot_stance", "acceptance-matrix");
    test_support_expect_scope(&r.rec->scopes[1], "right_foot_stance", "acceptance-matrix");
    done(&r, a, cfg);

    a = test_support_load_example("report-comparison-after.glb");
    cfg = test_support_config_example("report-comparison.animsmith.toml");
    run_check(a, cfg, "foot-slide", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 2, 0);
    done(&r, a, cfg);
}

/* walk-travel's feet are planted in the world while the hips travel 1.2
 * m/s: a root-motion clip, expected stance speed 0, whatever the owner. */
static void test_foot_slide_root_motion_planted(void **state)
{
    (void)state;
    static const char *const owners[] = {"gameplay", "animation"};
    for (int i = 0; i < 2; i++) {
        anim_asset *a = test_support_load_example("walk-travel.glb");
        char toml[256];
        snprintf(toml, sizeof toml,
                 "[rig]\nprofile = \"auto\"\n[clips.walk_travel]\nmovement_owner_xz = \"%s\"\n"
                 "speed_mps = { value = 1.2, tolerance = 0.1 }\n",
                 owners[i]);
        anim_config *cfg = test_support_config_text(toml);
        run_result r;
        run_check(a, cfg, "foot-slide", &r);
        test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 2, 0);
        done(&r, a, cfg);
    }
}

/* Feet keyed in model space under a stationary root/hips: five frames at
 * 0.25 s. Foot heights and z positions per frame are given. */
static anim_asset *feet_doc(const float lz[5], const float ly[5], const float rz[5],
                            const float ry[5], float hips_dz)
{
    static float lv[15], rv[15], hv[15];
    for (int k = 0; k < 5; k++) {
        lv[3 * k] = 0.1f;
        lv[3 * k + 1] = ly[k] - 1.0f; /* hips are 1 m up */
        lv[3 * k + 2] = lz[k];
        rv[3 * k] = -0.1f;
        rv[3 * k + 1] = ry[k] - 1.0f;
        rv[3 * k + 2] = rz[k];
    }
    hips_path(hips_dz, hv);
    /* The feet are children of the hips: subtract the hips travel so the
     * model-space z is what the test states. */
    for (int k = 0; k < 5; k++) {
        lv[3 * k + 2] -= hv[3 * k + 2];
        rv[3 * k + 2] -= hv[3 * k + 2];
    }
    ttrack tr[] = {{1, "translation", 5, T5, hv},
                   {2, "translation", 5, T5, lv},
                   {3, "translation", 5, T5, rv}};
    return build_doc(RIG, 5, "move", tr, 3);
}

#define SLIDE_CFG(extra)                                                                 \
    ROLES_ALL "[clips.move]\nspeed_mps = { value = 1.0, tolerance = 0.1 }\n"             \
              "[checks.foot-slide]\nmax_slide_mps = 0.25\n" extra

static void test_foot_slide_stance_edges(void **state)
{
    (void)state;
    run_result r;
    /* Treadmill (root speed 0): the stance foot must sweep at 1 m/s.
     * Left: steps of 0.1875 m per 0.25 s = 0.75 m/s, a slide of exactly
     * the 0.25 cap (not beyond it). Right: 0.125 m per step = 0.5 m/s,
     * slide 0.5, twice; the first of equal worst steps is reported. */
    static const float lz[5] = {0.375f, 0.1875f, 0.0f, -0.1875f, -0.375f};
    static const float rz[5] = {0.25f, 0.125f, 0.0f, -0.125f, -0.25f};
    static const float flat[5] = {0, 0, 0, 0, 0};
    anim_asset *a = feet_doc(lz, flat, rz, flat, 0.0f);
    anim_config *cfg = test_support_config_text(SLIDE_CFG(""));
    run_check(a, cfg, "foot-slide", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 2, 0);
    const anim_finding *f = &r.rec->findings[0];
    expect_finding(f, "foot-slide", ANIM_SEVERITY_WARNING, "move", "sole_r",
                   "right foot skates during stance: speed deviates 0.50 m/s from the expected "
                   "1.00 m/s (cap 0.25) \xe2\x80\x94 foot plants will slip at runtime");
    assert_true(f->time_s == 0.25);
    expect_number(f->measured, 0.5);
    expect_number(f->expected, 0.25);
    done(&r, a, cfg);

    /* Height decides stance: a step counts only when both ends are within
     * contact_height_m of the lowest sample (inclusive). The right foot
     * slides on steps 1-2 but is lifted 0.0625 at frames 1 and 2 with a
     * contact height of 0.0625 (inclusive: still stance), then 0.07 over
     * a 0.0625 contact (swing: no finding). */
    static const float ry_in[5] = {0, 0.0625f, 0.0625f, 0, 0};
    static const float rz2[5] = {0.0f, 0.0f, 0.0f, -0.25f, -0.5f};
    a = feet_doc(lz, flat, rz2, ry_in, 0.0f);
    cfg = test_support_config_text(SLIDE_CFG("contact_height_m = 0.0625\n"));
    run_check(a, cfg, "foot-slide", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 2, 0);
    assert_string_equal(r.rec->findings[0].bone, "sole_r");
    assert_true(r.rec->findings[0].time_s == 0.25); /* 0 m/s against 1 m/s */
    expect_number(r.rec->findings[0].measured, 1.0);
    done(&r, a, cfg);
    static const float ry_out[5] = {0, 0.07f, 0.07f, 0.07f, 0};
    a = feet_doc(lz, flat, rz2, ry_out, 0.0f);
    cfg = test_support_config_text(SLIDE_CFG("contact_height_m = 0.0625\n"));
    run_check(a, cfg, "foot-slide", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 2, 0);
    done(&r, a, cfg);

    /* Ground is the lowest sample, not y = 0: a foot hovering at 0.5 m
     * with the same sweep is judged the same way. */
    static const float high[5] = {0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
    a = feet_doc(lz, high, rz, high, 0.0f);
    cfg = test_support_config_text(SLIDE_CFG(""));
    run_check(a, cfg, "foot-slide", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 2, 0);
    assert_string_equal(r.rec->findings[0].bone, "sole_r");
    done(&r, a, cfg);
}

/* Root speed >= 0.5 makes it a root-motion clip: expected stance speed 0,
 * and the treadmill sweep that was fine above now slides. */
static void test_foot_slide_expected_from_root_speed(void **state)
{
    (void)state;
    run_result r;
    static const float sweep[5] = {0.5f, 0.25f, 0.0f, -0.25f, -0.5f}; /* 1 m/s */
    static const float flat[5] = {0, 0, 0, 0, 0};
    anim_asset *a = feet_doc(sweep, flat, sweep, flat, 0.0f);
    anim_config *cfg = test_support_config_text(SLIDE_CFG(""));
    run_check(a, cfg, "foot-slide", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 2, 0);
    done(&r, a, cfg);

    /* Same model-space feet, hips (the root role here) travel 1 m. */
    a = feet_doc(sweep, flat, sweep, flat, 1.0f);
    cfg = test_support_config_text(ROLES_HIPS_ONLY "[clips.move]\nspeed_mps = { value = 1.0, tolerance = 0.1 }\n");
    run_check(a, cfg, "foot-slide", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 2, 2, 0);
    assert_string_equal(r.rec->findings[0].message,
                        "left foot skates during stance: speed deviates 1.00 m/s from the expected "
                        "0.00 m/s (cap 0.30) \xe2\x80\x94 foot plants will slip at runtime");
    assert_true(r.rec->findings[0].time_s == 0.25);
    done(&r, a, cfg);
}

static void test_foot_slide_gaps(void **state)
{
    (void)state;
    run_result r;
    static const float flat[5] = {0, 0, 0, 0, 0};
    /* Only the left foot resolves: partial. */
    anim_asset *a = feet_doc(flat, flat, flat, flat, 0.0f);
    anim_config *cfg = test_support_config_text("[rig]\nroles = { hips = \"waist\", left_foot = \"sole_l\" }\n"
                                "[clips.move]\nspeed_mps = { value = 0.0, tolerance = 0.1 }\n");
    run_check(a, cfg, "foot-slide", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_PARTIAL, 0, 1, 1);
    test_support_expect_scope(&r.rec->scopes[0], "left_foot_stance", "move");
    test_support_expect_gap(&r.rec->gaps[0], "roles_unresolved", "right_foot_stance", "move",
               "right foot/toe role not resolved");
    done(&r, a, cfg);

    /* The toe role stands in for an unresolved foot role. */
    static const float slide[5] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
    a = feet_doc(flat, flat, slide, flat, 0.0f);
    cfg = test_support_config_text("[rig]\nroles = { hips = \"waist\", left_foot = \"sole_l\", right_toe = \"sole_r\" }\n"
                   "[clips.move]\nspeed_mps = { value = 0.0, tolerance = 0.1 }\n");
    run_check(a, cfg, "foot-slide", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 2, 0);
    assert_string_equal(r.rec->findings[0].bone, "sole_r");
    assert_true(strncmp(r.rec->findings[0].message, "right foot skates", 17) == 0);
    done(&r, a, cfg);

    /* No Root/Hips: one clip-level gap; the sides are not visited. */
    a = feet_doc(flat, flat, flat, flat, 0.0f);
    cfg = test_support_config_text("[rig]\nroles = { left_foot = \"sole_l\", right_foot = \"sole_r\" }\n"
                   "[clips.move]\nspeed_mps = { value = 1.0, tolerance = 0.1 }\n");
    run_check(a, cfg, "foot-slide", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 1);
    test_support_expect_gap(&r.rec->gaps[0], "roles_unresolved", "foot_stance", "move",
               "root/hips role not resolved (rig profile 'custom')");
    done(&r, a, cfg);

    /* Too short for a metric grid. */
    static const float t2[2] = {0.0f, 1.0f};
    static const float v2[6] = {0.1f, -1, 0, 0.1f, -1, 0};
    ttrack tr[] = {{2, "translation", 2, t2, v2}};
    a = build_doc(RIG, 5, "move", tr, 1);
    cfg = test_support_config_text(SLIDE_CFG(""));
    run_check(a, cfg, "foot-slide", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 1);
    test_support_expect_gap(&r.rec->gaps[0], "measurement_unavailable", "foot_stance", "move",
               "clip is too short to sample foot stance");
    done(&r, a, cfg);

    /* No speed pin: not applicable, whatever the owners say. */
    a = feet_doc(flat, flat, flat, flat, 0.0f);
    cfg = test_support_config_text(ROLES_ALL "[clips.move]\nmovement_owner_xz = \"gameplay\"\n");
    run_check(a, cfg, "foot-slide", &r);
    test_support_expect_state(r.rec, false, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
    done(&r, a, cfg);
}

/* ---- fps ----------------------------------------------------------------- */

static void fps_run(const char *fps_line, run_result *r, anim_asset **a, anim_config **cfg)
{
    char toml[256];
    snprintf(toml, sizeof toml, "[clips.walk_short_channel]\n%s\n", fps_line);
    *a = test_support_load_example("walk-short-channel.glb");
    *cfg = test_support_config_text(toml);
    run_check(*a, *cfg, "fps", r);
}

static void test_fps_on_grid(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk-short-channel.glb");
    anim_config *cfg = test_support_config_example("walk-short-channel.animsmith.toml");
    run_result r;
    run_check(a, cfg, "fps", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    test_support_expect_scope(&r.rec->scopes[0], "frame_grid", "walk_short_channel");
    done(&r, a, cfg);

    /* 16 fps: the duration is 16 frames but odd keys (k/32) are half a
     * frame off; the first of the equal worst (key 1 of the first track)
     * is named. */
    fps_run("fps = 16", &r, &a, &cfg);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    const anim_finding *f = &r.rec->findings[0];
    expect_finding(f, "fps", ANIM_SEVERITY_WARNING, "walk_short_channel", NULL,
                   "translation key at 0.0312s sits 0.50 frames off the 16 fps grid (worst "
                   "offender) \xe2\x80\x94 resampling drift?");
    assert_true(f->has_time);
    assert_true(f->time_s == (double)(1.0f / 32.0f));
    expect_number(f->measured, 0.5);
    assert_int_equal(f->expected.kind, ANIM_VALUE_NONE);
    done(&r, a, cfg);

    /* 30 fps: 30 whole frames; key k/32 sits 15k/16 frames in. */
    fps_run("fps = 30.0", &r, &a, &cfg);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    assert_string_equal(r.rec->findings[0].message,
                        "translation key at 0.2500s sits 0.50 frames off the 30 fps grid (worst "
                        "offender) \xe2\x80\x94 resampling drift?");
    done(&r, a, cfg);

    /* 64 fps: every k/32 key is on the grid. */
    fps_run("fps = 64", &r, &a, &cfg);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    done(&r, a, cfg);
}

static void test_fps_fractional_duration(void **state)
{
    (void)state;
    run_result r;
    anim_asset *a;
    anim_config *cfg;
    /* 32.5 fps: 32.5 frames (rounds away from zero to 33), and keys off. */
    fps_run("fps = 32.5", &r, &a, &cfg);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 2, 1, 0);
    const anim_finding *f = &r.rec->findings[0];
    expect_finding(f, "fps", ANIM_SEVERITY_WARNING, "walk_short_channel", NULL,
                   "duration 1.0000s is 32.50 frames at 32.5 fps \xe2\x80\x94 not a whole frame "
                   "count; a slice cut mid-frame?");
    assert_false(f->has_time);
    expect_number(f->measured, 32.5);
    expect_number(f->expected, 33.0);
    assert_string_equal(r.rec->findings[1].check_id, "fps");
    assert_true(r.rec->findings[1].has_time);
    done(&r, a, cfg);

    /* Within 0.1 frame of a whole count is whole: at 32.09 fps the clip
     * is 32.09 frames and its last key 0.09 frame off, both tolerated;
     * at 32.11 both are beyond the tolerance (the last key is the worst). */
    fps_run("fps = 32.09", &r, &a, &cfg);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    done(&r, a, cfg);
    fps_run("fps = 32.11", &r, &a, &cfg);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 2, 1, 0);
    assert_false(r.rec->findings[0].has_time);
    assert_string_equal(r.rec->findings[1].message,
                        "translation key at 1.0000s sits 0.11 frames off the 32.11 fps grid "
                        "(worst offender) \xe2\x80\x94 resampling drift?");
    assert_true(r.rec->findings[1].time_s == 1.0);
    done(&r, a, cfg);
}

static void test_fps_invalid(void **state)
{
    (void)state;
    static const char *const lines[] = {"fps = 0", "fps = -24", "fps = -0.5", "fps = nan",
                                        "fps = inf"};
    static const char *const shown[] = {"0", "-24", "-0.5", "NaN", "inf"};
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        run_result r;
        anim_asset *a;
        anim_config *cfg;
        fps_run(lines[i], &r, &a, &cfg);
        test_support_expect_state(r.rec, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 1);
        char msg[128];
        snprintf(msg, sizeof msg,
                 "clip declares a non-positive or non-finite frame rate (%s)", shown[i]);
        test_support_expect_gap(&r.rec->gaps[0], "invalid_declared_fps", "frame_grid", "walk_short_channel",
                   msg);
        done(&r, a, cfg);
    }
}

static void test_fps_not_applicable(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk-short-channel.glb");
    anim_config *cfg = test_support_config_text("[clips.walk_short_channel]\nloop = true\n");
    run_result r;
    run_check(a, cfg, "fps", &r);
    test_support_expect_state(r.rec, false, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
    done(&r, a, cfg);
}

/* ---- frozen-bone ----------------------------------------------------------- */

static void test_frozen_bone_example(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk-frozen-arm.glb");
    anim_config *cfg = test_support_config_example("walk-frozen-arm.animsmith.toml");
    run_result r;
    run_check(a, cfg, "frozen-bone", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 0, 0);
    const anim_finding *f = &r.rec->findings[0];
    expect_finding(f, "frozen-bone", ANIM_SEVERITY_ERROR, "walk_frozen_arm", "arm_l",
                   "required bone rotates only 0.00\xc2\xb0 over the clip (floor 1.00\xc2\xb0) "
                   "\xe2\x80\x94 frozen/T-posed limb or a wrong-source slice");
    assert_false(f->has_time);
    expect_number(f->measured, 0.0);
    expect_number(f->expected, 1.0);
    done(&r, a, cfg);

    /* Without the declaration the check does not apply. */
    a = test_support_load_example("walk-frozen-arm.glb");
    cfg = test_support_config_text("");
    run_check(a, cfg, "frozen-bone", &r);
    test_support_expect_state(r.rec, false, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
    done(&r, a, cfg);
}

/* arm swings about Z by half_deg * 2 at its middle key. */
static anim_asset *arm_doc(double deg)
{
    static float rv[12];
    double h = deg * 3.14159265358979323846 / 360.0;
    float q[4] = {0.0f, 0.0f, (float)sin(h), (float)cos(h)};
    for (int k = 0; k < 3; k++) {
        rv[4 * k] = 0.0f;
        rv[4 * k + 1] = 0.0f;
        rv[4 * k + 2] = k == 1 ? q[2] : 0.0f;
        rv[4 * k + 3] = k == 1 ? q[3] : 1.0f;
    }
    static const float t3[3] = {0.0f, 0.5f, 1.0f};
    static const float lv[9] = {0.1f, -1, 0, 0.1f, -1, 0.1f, 0.1f, -1, 0};
    ttrack tr[] = {{4, "rotation", 3, t3, rv}, {2, "translation", 3, t3, lv}};
    return build_doc(RIG, 5, "move", tr, 2);
}

static void test_frozen_bone_floor(void **state)
{
    (void)state;
    run_result r;
    /* 0.5° under the default 1° floor. */
    anim_asset *a = arm_doc(0.5);
    anim_config *cfg = test_support_config_text("[clips.move]\nanimates_bones = [\"arm\"]\n");
    run_check(a, cfg, "frozen-bone", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 0, 0);
    assert_string_equal(r.rec->findings[0].message,
                        "required bone rotates only 0.50\xc2\xb0 over the clip (floor 1.00\xc2\xb0) "
                        "\xe2\x80\x94 frozen/T-posed limb or a wrong-source slice");
    double measured = r.rec->findings[0].measured.number;
    assert_true(fabs(measured - 0.5) < 1e-3);
    assert_true(measured == (double)(float)measured); /* f32-rounded degrees */
    done(&r, a, cfg);

    /* 2° passes the default floor. */
    a = arm_doc(2.0);
    cfg = test_support_config_text("[clips.move]\nanimates_bones = [\"arm\"]\n");
    run_check(a, cfg, "frozen-bone", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 0, 0);
    done(&r, a, cfg);

    /* A lower configured floor; the floor itself passes (strict <), the
     * next double above it fails. */
    char toml[256];
    snprintf(toml, sizeof toml,
             "[clips.move]\nanimates_bones = [\"arm\"]\n[checks.frozen-bone]\nmin_rotation_deg = "
             "%.17g\n",
             measured);
    a = arm_doc(0.5);
    cfg = test_support_config_text(toml);
    run_check(a, cfg, "frozen-bone", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 0, 0);
    done(&r, a, cfg);
    snprintf(toml, sizeof toml,
             "[clips.move]\nanimates_bones = [\"arm\"]\n[checks.frozen-bone]\nmin_rotation_deg = "
             "%.17g\n",
             nextafter(measured, 1.0));
    a = arm_doc(0.5);
    cfg = test_support_config_text(toml);
    run_check(a, cfg, "frozen-bone", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 0, 0);
    done(&r, a, cfg);
}

/* Bones without tracks belong to missing-bones; a bone keyed only in
 * translation never rotates; unknown names are skipped. */
static void test_frozen_bone_tracks(void **state)
{
    (void)state;
    run_result r;
    anim_asset *a = arm_doc(10.0);
    anim_config *cfg = test_support_config_text("[clips.move]\nanimates_bones = [\"waist\", \"sole_l\", \"nope\", "
                                "\"arm\"]\n[checks.frozen-bone]\nmin_rotation_deg = 0.5\n");
    run_check(a, cfg, "frozen-bone", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 0, 0);
    expect_finding(&r.rec->findings[0], "frozen-bone", ANIM_SEVERITY_ERROR, "move", "sole_l",
                   "required bone rotates only 0.00\xc2\xb0 over the clip (floor 0.50\xc2\xb0) "
                   "\xe2\x80\x94 frozen/T-posed limb or a wrong-source slice");
    expect_number(r.rec->findings[0].expected, 0.5);
    done(&r, a, cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rms_walk_travel_stale_pin),
        cmocka_unit_test(test_rms_walk_travel_true_pin_passes),
        cmocka_unit_test(test_rms_tolerance_edge),
        cmocka_unit_test(test_rms_stray_pin),
        cmocka_unit_test(test_rms_applicability),
        cmocka_unit_test(test_rms_gaps),
        cmocka_unit_test(test_in_place_walk_travel_glide),
        cmocka_unit_test(test_in_place_owners),
        cmocka_unit_test(test_in_place_y_yaw_independent),
        cmocka_unit_test(test_in_place_root_vs_hips),
        cmocka_unit_test(test_foot_slide_report_comparison),
        cmocka_unit_test(test_foot_slide_root_motion_planted),
        cmocka_unit_test(test_foot_slide_stance_edges),
        cmocka_unit_test(test_foot_slide_expected_from_root_speed),
        cmocka_unit_test(test_foot_slide_gaps),
        cmocka_unit_test(test_fps_on_grid),
        cmocka_unit_test(test_fps_fractional_duration),
        cmocka_unit_test(test_fps_invalid),
        cmocka_unit_test(test_fps_not_applicable),
        cmocka_unit_test(test_frozen_bone_example),
        cmocka_unit_test(test_frozen_bone_floor),
        cmocka_unit_test(test_frozen_bone_tracks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
