/* The loop contract checks: duplicate-loop-endpoint,
 * loop-closure, loop-seam, loop-seam-vel and loop-seam-rot, run through
 * anim_lint_run. Contracts are TOML texts (the example contracts from
 * examples/, or small ones here through anim_config_load_bytes); documents
 * are the example assets or one small .gltf built here with a data-URI
 * buffer, so every message, field, scope, gap and evaluation state is
 * pinned: the documented walk transcripts, per-clip caps from exact and glob
 * selectors, the f32 cap rule at its boundary, rotation-only loops,
 * partial coverage from unavailable rows, no grid, no roles and a stride
 * under the floor. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdlib.h>
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/lint.h"
#include "support/test_support.h"

/* ---- documents -------------------------------------------------------- */

/* Accessors of the test document's buffer, in this order. */
enum { ACC_T5, ACC_ROT_OPEN, ACC_ROT_CLOSED, ACC_ROT_FULL_TURN, ACC_NAN3, ACC_T2, ACC_ROT2,
       ACC_COUNT };

static void yrot(float *q, double deg)
{
    double h = deg * 3.14159265358979323846 / 360.0;
    q[0] = 0.0f;
    q[1] = (float)sin(h);
    q[2] = 0.0f;
    q[3] = (float)cos(h);
}

/* Skeleton: root (node 0) with children arm (node 1, 1 m up the Y axis, so
 * rotations of root about Y never move it) and bad (node 2, 1 m along X).
 * Clips rotate root about Y at t = 0, .25, .5, .75, 1 (the grid has the
 * same five frames, dt = 0.25 s):
 *   spin_open    0, 20, 40, 20, 10 deg: misses its first pose by 10 deg;
 *                angular velocity 80 deg/s out, -40 deg/s in (120 apart)
 *   spin_closed  0, 20, 40, 20, 0 deg: closes (the last key repeats the
 *                first), but 80 vs -80 deg/s
 *   spin_dup     0, 90, 180, 270, 360 deg: the last key repeats the first
 *                (sign-flipped quaternion), constant 360 deg/s
 *   turn_once    spin_open's keys (never declared a loop)
 *   nan_bad      NaN translation keys on bad (channel 0), then spin_open
 *   nan_root     NaN translation keys on root (every row unusable)
 *   short        two rotation keys at 0 and 1 s: no metric grid */
static anim_asset *asset_spin(void)
{
    static const double open[5] = {0, 20, 40, 20, 10}, closed[5] = {0, 20, 40, 20, 0},
                        full[5] = {0, 90, 180, 270, 360};
    float buf[5 + 3 * 20 + 15 + 2 + 8];
    size_t o = 0, offset[ACC_COUNT], count[ACC_COUNT] = {5, 5, 5, 5, 5, 2, 2};
    static const char *const type[ACC_COUNT] = {"SCALAR", "VEC4", "VEC4", "VEC4",
                                                "VEC3",   "SCALAR", "VEC4"};
    offset[ACC_T5] = o;
    for (int k = 0; k < 5; k++)
        buf[o++] = (float)k / 4.0f;
    const double *angles[3] = {open, closed, full};
    for (int a = 0; a < 3; a++) {
        offset[ACC_ROT_OPEN + a] = o;
        for (int k = 0; k < 5; k++, o += 4)
            yrot(&buf[o], angles[a][k]);
    }
    offset[ACC_NAN3] = o;
    for (int k = 0; k < 15; k++)
        buf[o++] = NAN;
    offset[ACC_T2] = o;
    buf[o++] = 0.0f;
    buf[o++] = 1.0f;
    offset[ACC_ROT2] = o;
    yrot(&buf[o], 0.0);
    yrot(&buf[o + 4], 30.0);
    o += 8;
    assert_int_equal(o, sizeof buf / sizeof *buf);

    test_support_gltf *g = test_support_gltf_new();
    test_support_gltf_no_scene(g);
    static const test_support_node nodes[] = {{"root", -1, 0, {0}, {0}, {0}},
                                              {"arm", 0, TEST_SUPPORT_T, {0, 1, 0}, {0}, {0}},
                                              {"bad", 0, TEST_SUPPORT_T, {1, 0, 0}, {0}, {0}}};
    test_support_gltf_nodes(g, nodes, 3);
    for (int i = 0; i < ACC_COUNT; i++)
        assert_int_equal(test_support_gltf_accessor(g, buf + offset[i], (uint32_t)count[i],
                                                    type[i], 0),
                         i);
    /* One animation per clip: (name, [(input, output, node, path)...]). */
    static const struct {
        const char *name;
        int channels;
        int input[2], output[2], node[2];
        const char *path[2];
    } anims[] = {
        {"spin_open", 1, {ACC_T5}, {ACC_ROT_OPEN}, {0}, {"rotation"}},
        {"spin_closed", 1, {ACC_T5}, {ACC_ROT_CLOSED}, {0}, {"rotation"}},
        {"spin_dup", 1, {ACC_T5}, {ACC_ROT_FULL_TURN}, {0}, {"rotation"}},
        {"turn_once", 1, {ACC_T5}, {ACC_ROT_OPEN}, {0}, {"rotation"}},
        {"nan_bad",
         2,
         {ACC_T5, ACC_T5},
         {ACC_NAN3, ACC_ROT_OPEN},
         {2, 0},
         {"translation", "rotation"}},
        {"nan_root", 1, {ACC_T5}, {ACC_NAN3}, {0}, {"translation"}},
        {"short", 1, {ACC_T2}, {ACC_ROT2}, {0}, {"rotation"}},
    };
    for (size_t a = 0; a < sizeof anims / sizeof *anims; a++) {
        test_support_gltf_animation(g, anims[a].name);
        for (int c = 0; c < anims[a].channels; c++)
            test_support_gltf_channel(g, anims[a].node[c], anims[a].path[c], anims[a].input[c],
                                      anims[a].output[c], NULL);
    }
    anim_asset *asset = test_support_gltf_load(g, "spin.gltf");
    test_support_gltf_free(g);
    return asset;
}

/* ---- running ---------------------------------------------------------- */

static const char *const LOOP_IDS[] = {"duplicate-loop-endpoint", "loop-closure", "loop-seam",
                                       "loop-seam-vel", "loop-seam-rot"};
#define LOOP_ID_COUNT (sizeof LOOP_IDS / sizeof *LOOP_IDS)

typedef struct {
    anim_lint_file file;
} run_result;

/* Runs the five loop checks only (the other checks are someone else's). */
static void run_loop(const anim_asset *a, const anim_config *cfg, run_result *out)
{
    test_support_lint(a, cfg, LOOP_IDS, LOOP_ID_COUNT, &out->file);
}

static void expect_state(const anim_check_record *r, bool applicable, anim_evaluation ev,
                         uint32_t findings, uint32_t scopes, uint32_t gaps)
{
    if (r->applicable != applicable || r->evaluation != ev || r->finding_count != findings ||
        r->scope_count != scopes || r->gap_count != gaps) {
        print_error("%s: applicable %d eval %s findings %u scopes %u gaps %u\n", r->check_id,
                    r->applicable, anim_evaluation_name(r->evaluation), r->finding_count,
                    r->scope_count, r->gap_count);
        for (uint32_t i = 0; i < r->finding_count; i++)
            print_error("  finding: %s\n", r->findings[i].message);
        for (uint32_t i = 0; i < r->gap_count; i++)
            print_error("  gap: %s %s\n", r->gaps[i].code, r->gaps[i].message);
        fail();
    }
}

static void expect_number(anim_value v, double want, double eps)
{
    assert_int_equal(v.kind, ANIM_VALUE_NUMBER);
    if (!(fabs(v.number - want) <= eps))
        fail_msg("%.17g != %.17g", v.number, want);
}

static void expect_finding(const anim_finding *f, const char *check, anim_severity sev,
                           const char *clip, const char *bone, double time_s,
                           const char *message)
{
    assert_string_equal(f->check_id, check);
    assert_int_equal(f->severity, sev);
    test_support_expect_str(f->clip, clip);
    test_support_expect_str(f->bone, bone);
    assert_null(f->node);
    assert_true(f->has_time);
    assert_true(f->time_s == time_s);
    assert_int_equal(f->member_count, 0);
    assert_string_equal(f->message, message);
}

static void expect_measured(const anim_finding *f, double measured, double eps, double expected)
{
    expect_number(f->measured, measured, eps);
    expect_number(f->expected, expected, 0.0);
}

/* ---- the documented transcripts on the example walks ------------------ */

static void test_walk_dirty_seed(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk-dirty.glb");
    anim_config *cfg = test_support_config_example("walk.animsmith.toml");
    run_result r;
    run_loop(a, cfg, &r);

    const anim_check_record *c = test_support_record(&r.file, "loop-closure");
    expect_state(c, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    test_support_expect_scope(&c->scopes[0], "loop_closure", "walk");
    expect_finding(&c->findings[0], "loop-closure", ANIM_SEVERITY_ERROR, "walk", "foot_r", 1.0,
                   "loop does not close in position: bone 'foot_r' is 0.1581 m from its "
                   "first-frame model-space position (cap 0.0100 m)");
    expect_measured(&c->findings[0], 0.1581139, 1e-6, 0.01);

    c = test_support_record(&r.file, "loop-seam");
    expect_state(c, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    test_support_expect_scope(&c->scopes[0], "loop_seam", "walk");
    expect_finding(&c->findings[0], "loop-seam", ANIM_SEVERITY_ERROR, "walk", NULL, 1.0,
                   "loop seam pops: wrap discontinuity is 6.82\xc3\x97 the neighbouring in-clip "
                   "step (cap 1.60) \xe2\x80\x94 the clip does not close its cycle");
    expect_measured(&c->findings[0], 6.815220, 1e-5, 1.6);

    c = test_support_record(&r.file, "loop-seam-vel");
    expect_state(c, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    test_support_expect_scope(&c->scopes[0], "loop_seam_velocity", "walk");
    expect_finding(&c->findings[0], "loop-seam-vel", ANIM_SEVERITY_ERROR, "walk", "foot_r", 1.0,
                   "loop velocity changes at the seam: bone 'foot_r' differs by 0.7972 m/s "
                   "between the incoming and outgoing model-space velocities (cap 0.1000 m/s)");
    expect_measured(&c->findings[0], 0.79717, 1e-5, 0.1);

    c = test_support_record(&r.file, "loop-seam-rot");
    expect_state(c, true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    test_support_expect_scope(&c->scopes[0], "loop_seam_rotation", "walk");

    /* Cut a quarter cycle short: no key repeats the first. */
    c = test_support_record(&r.file, "duplicate-loop-endpoint");
    expect_state(c, true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    test_support_expect_scope(&c->scopes[0], "duplicate_loop_endpoint", "walk");

    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* The clean walk's last key equals its first within 1e-5, so the
 * duplicate-endpoint analysis finds one removable closing key (a warning,
 * not `0 warning(s)`); every seam check passes. */
static void test_walk_clean_duplicate_endpoint(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk.glb");
    anim_config *cfg = test_support_config_example("walk.animsmith.toml");
    run_result r;
    run_loop(a, cfg, &r);

    const anim_check_record *c = test_support_record(&r.file, "duplicate-loop-endpoint");
    expect_state(c, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    expect_finding(&c->findings[0], "duplicate-loop-endpoint", ANIM_SEVERITY_WARNING, "walk",
                   NULL, 1.0,
                   "declared loop repeats its first pose at the authored endpoint: 1 redundant "
                   "closing key(s) per track; `animsmith transform "
                   "--drop-duplicate-loop-endpoint` can trim 1.000000s -> 0.968750s into an "
                   "open-cycle representation (endpoint deltas: translation 0.000000 m, "
                   "rotation n/a, scale n/a)");
    expect_measured(&c->findings[0], 1.0, 0.0, 0.0);
    for (size_t i = 1; i < LOOP_ID_COUNT; i++)
        expect_state(test_support_record(&r.file, LOOP_IDS[i]), true, ANIM_EVAL_COMPLETE, 0, 1, 0);

    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* No loop = true anywhere: the five checks are not applicable (a check
 * whose contract fact is absent is explicitly not applicable, never
 * silently passed). */
static void test_not_applicable_without_loop(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk-dirty.glb");
    anim_error err;
    anim_config *cfg = anim_config_default(&err);
    assert_non_null(cfg);
    run_result r;
    run_loop(a, cfg, &r);
    for (size_t i = 0; i < LOOP_ID_COUNT; i++)
        expect_state(test_support_record(&r.file, LOOP_IDS[i]), false, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);

    /* walk-short-channel's contract pins duration and fps, not a loop. */
    a = test_support_load_example("walk-short-channel.glb");
    cfg = test_support_config_example("walk-short-channel.animsmith.toml");
    run_loop(a, cfg, &r);
    for (size_t i = 0; i < LOOP_ID_COUNT; i++)
        expect_state(test_support_record(&r.file, LOOP_IDS[i]), false, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* docs/fixtures.md: before gives loop-closure left_foot 0.4000 m and
 * loop-seam-vel 1.3416 m/s, its seam ratio 1.457 stays under 1.5 and no
 * endpoint repeats; the authored repair passes every loop check. */
static void test_report_comparison(void **state)
{
    (void)state;
    anim_config *cfg = test_support_config_example("report-comparison.animsmith.toml");
    anim_asset *a = test_support_load_example("report-comparison-before.glb");
    run_result r;
    run_loop(a, cfg, &r);
    const anim_check_record *c = test_support_record(&r.file, "loop-closure");
    expect_state(c, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    expect_finding(&c->findings[0], "loop-closure", ANIM_SEVERITY_ERROR, "acceptance-matrix",
                   "left_foot", 1.0,
                   "loop does not close in position: bone 'left_foot' is 0.4000 m from its "
                   "first-frame model-space position (cap 0.0100 m)");
    expect_measured(&c->findings[0], 0.4, 1e-6, 0.01);
    c = test_support_record(&r.file, "loop-seam-vel");
    expect_state(c, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    expect_finding(&c->findings[0], "loop-seam-vel", ANIM_SEVERITY_ERROR, "acceptance-matrix",
                   "left_foot", 1.0,
                   "loop velocity changes at the seam: bone 'left_foot' differs by 1.3416 m/s "
                   "between the incoming and outgoing model-space velocities (cap 0.1000 m/s)");
    expect_measured(&c->findings[0], sqrt(0.36 + 1.44), 1e-5, 0.1);
    expect_state(test_support_record(&r.file, "loop-seam"), true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    expect_state(test_support_record(&r.file, "loop-seam-rot"), true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    expect_state(test_support_record(&r.file, "duplicate-loop-endpoint"), true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    anim_lint_file_free(&r.file);
    anim_asset_free(a);

    a = test_support_load_example("report-comparison-after.glb");
    run_loop(a, cfg, &r);
    for (size_t i = 0; i < LOOP_ID_COUNT; i++)
        expect_state(test_support_record(&r.file, LOOP_IDS[i]), true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    anim_lint_file_free(&r.file);
    anim_asset_free(a);
    anim_config_free(cfg);
}

/* ---- caps: per-clip selectors and the f32 rule ------------------------ */

/* The worst position delta of walk-dirty as loop-closure measures it. */
static double walk_dirty_position(void)
{
    anim_asset *a = test_support_load_example("walk-dirty.glb");
    anim_config *cfg = test_support_config_text("[clips.walk]\nloop = true\n");
    run_result r;
    run_loop(a, cfg, &r);
    const anim_check_record *c = test_support_record(&r.file, "loop-closure");
    expect_state(c, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    double m = c->findings[0].measured.number;
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
    return m;
}

static uint32_t closure_findings_with_cap(double cap, double *expected)
{
    char toml[256];
    snprintf(toml, sizeof toml, "[clips.walk]\nloop = true\nmax_loop_position_delta_m = %.17g\n",
             cap);
    anim_asset *a = test_support_load_example("walk-dirty.glb");
    anim_config *cfg = test_support_config_text(toml);
    run_result r;
    run_loop(a, cfg, &r);
    const anim_check_record *c = test_support_record(&r.file, "loop-closure");
    uint32_t n = c->finding_count;
    if (n && expected)
        *expected = c->findings[0].expected.number;
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
    return n;
}

/* "(f32)measured > (f32)cap": a cap a hair under the measured value in f64
 * but equal to it in f32 passes; the next f32 below fails. */
static void test_f32_cap_rule(void **state)
{
    (void)state;
    double m = walk_dirty_position();
    assert_true(fabs(m - 0.1581139) < 1e-6);
    double just_under = nextafter(m, 0.0);
    assert_true(just_under < m && (float)just_under == (float)m);
    assert_int_equal(closure_findings_with_cap(just_under, NULL), 0);
    assert_int_equal(closure_findings_with_cap(m, NULL), 0);
    double f32_below = (double)nextafterf((float)m, 0.0f), expected = 0.0;
    assert_int_equal(closure_findings_with_cap(f32_below, &expected), 1);
    assert_true(expected == f32_below);
}

/* Rotation-only loops: an open spin misses its pose by 10 deg and changes
 * angular velocity by 120 deg/s; a closed spin only by the latter. All
 * three bones share the root's model rotation, so they tie on the
 * rotation metrics and the last one (bad) is reported; bad also swings on
 * a 1 m lever, so it is the one whose position and velocity change. */
static void test_rotation_only_loops(void **state)
{
    (void)state;
    anim_asset *a = asset_spin();
    anim_config *cfg = test_support_config_text("[clips.spin_closed]\nloop = true\n"
                                   "[clips.spin_open]\nloop = true\n");
    run_result r;
    run_loop(a, cfg, &r);

    const anim_check_record *c = test_support_record(&r.file, "loop-closure");
    expect_state(c, true, ANIM_EVAL_COMPLETE, 2, 2, 0);
    test_support_expect_scope(&c->scopes[0], "loop_closure", "spin_open");
    test_support_expect_scope(&c->scopes[1], "loop_closure", "spin_closed");
    /* The 10 deg chord of a 1 m lever: 2 sin(5 deg) = 0.1743 m. */
    expect_finding(&c->findings[0], "loop-closure", ANIM_SEVERITY_ERROR, "spin_open", "bad", 1.0,
                   "loop does not close in position: bone 'bad' is 0.1743 m from its "
                   "first-frame model-space position (cap 0.0100 m)");
    expect_measured(&c->findings[0], 2.0 * sin(5.0 * M_PI / 180.0), 1e-6, 0.01);
    expect_finding(&c->findings[1], "loop-closure", ANIM_SEVERITY_ERROR, "spin_open", "bad", 1.0,
                   "loop does not close in rotation: bone 'bad' is 10.000 degrees from its "
                   "first-frame model-space rotation (cap 1.000 degrees)");
    expect_measured(&c->findings[1], 10.0, 1e-4, 1.0);

    /* bad sits 1 m along X and swings with the spin: its model velocity
     * changes at the seam too (|v_out - v_in| for a 1 m lever). */
    c = test_support_record(&r.file, "loop-seam-vel");
    expect_state(c, true, ANIM_EVAL_COMPLETE, 2, 2, 0);
    assert_string_equal(c->findings[0].bone, "bad");
    assert_string_equal(c->findings[0].clip, "spin_open");
    assert_string_equal(c->findings[1].clip, "spin_closed");

    c = test_support_record(&r.file, "loop-seam-rot");
    expect_state(c, true, ANIM_EVAL_COMPLETE, 2, 2, 0);
    expect_finding(&c->findings[0], "loop-seam-rot", ANIM_SEVERITY_ERROR, "spin_open", "bad",
                   1.0,
                   "loop angular velocity changes at the seam: bone 'bad' differs by 120.000 "
                   "deg/s between the incoming and outgoing model-space angular velocities (cap "
                   "5.000 deg/s)");
    expect_measured(&c->findings[0], 120.0, 1e-3, 5.0);
    expect_finding(&c->findings[1], "loop-seam-rot", ANIM_SEVERITY_ERROR, "spin_closed", "bad",
                   1.0,
                   "loop angular velocity changes at the seam: bone 'bad' differs by 160.000 "
                   "deg/s between the incoming and outgoing model-space angular velocities (cap "
                   "5.000 deg/s)");

    /* No rig roles: loop-seam reports the gait gap, per clip. */
    c = test_support_record(&r.file, "loop-seam");
    expect_state(c, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 2);
    char msg[256];
    snprintf(msg, sizeof msg,
             "hips/foot roles not resolved (rig profile '%s') \xe2\x80\x94 needs hips and at "
             "least one foot role",
             r.file.rig.label);
    test_support_expect_gap(&c->gaps[0], "roles_unresolved", "loop_seam", "spin_open", msg);
    test_support_expect_gap(&c->gaps[1], "roles_unresolved", "loop_seam", "spin_closed", msg);

    /* spin_closed returns to 0 deg with its last key: an inclusive
     * endpoint the transform could trim. turn_once is never judged. */
    c = test_support_record(&r.file, "duplicate-loop-endpoint");
    expect_state(c, true, ANIM_EVAL_COMPLETE, 1, 2, 0);
    test_support_expect_scope(&c->scopes[0], "duplicate_loop_endpoint", "spin_open");
    test_support_expect_scope(&c->scopes[1], "duplicate_loop_endpoint", "spin_closed");
    expect_finding(&c->findings[0], "duplicate-loop-endpoint", ANIM_SEVERITY_WARNING,
                   "spin_closed", NULL, 1.0,
                   "declared loop repeats its first pose at the authored endpoint: 1 redundant "
                   "closing key(s) per track; `animsmith transform "
                   "--drop-duplicate-loop-endpoint` can trim 1.000000s -> 0.750000s into an "
                   "open-cycle representation (endpoint deltas: translation n/a, rotation "
                   "0.000000 rad, scale n/a)");
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* Caps resolve per clip: the exact selector beats the glob, the glob beats
 * [checks.*], an omitted field inherits. */
static void test_per_clip_caps(void **state)
{
    (void)state;
    anim_asset *a = asset_spin();
    anim_config *cfg = test_support_config_text("[clips.\"spin_*\"]\n"
                                   "loop = true\n"
                                   "max_loop_rotation_delta_deg = 15.0\n"
                                   "max_loop_angular_velocity_delta_degps = 130.0\n"
                                   "max_loop_velocity_delta_mps = 10.0\n"
                                   "max_loop_position_delta_m = 1.0\n"
                                   "[clips.spin_closed]\n"
                                   "max_loop_angular_velocity_delta_degps = 170.0\n"
                                   "[clips.spin_open]\n"
                                   "max_loop_rotation_delta_deg = 5.0\n"
                                   "[checks.loop-closure]\n"
                                   "max_rotation_delta_deg = 20.0\n"
                                   "[checks.loop-seam-rot]\n"
                                   "max_angular_velocity_delta_degps = 100.0\n");
    run_result r;
    run_loop(a, cfg, &r);
    /* spin_open: exact 5 deg < 10 deg; spin_closed / spin_dup: glob 15. */
    const anim_check_record *c = test_support_record(&r.file, "loop-closure");
    expect_state(c, true, ANIM_EVAL_COMPLETE, 1, 3, 0);
    expect_finding(&c->findings[0], "loop-closure", ANIM_SEVERITY_ERROR, "spin_open", "bad", 1.0,
                   "loop does not close in rotation: bone 'bad' is 10.000 degrees from its "
                   "first-frame model-space rotation (cap 5.000 degrees)");
    expect_measured(&c->findings[0], 10.0, 1e-4, 5.0);
    /* spin_open inherits the glob's 130 (120 passes); spin_closed's exact
     * 170 passes 160; spin_dup spins at a constant rate. */
    expect_state(test_support_record(&r.file, "loop-seam-rot"), true, ANIM_EVAL_COMPLETE, 0, 3, 0);
    expect_state(test_support_record(&r.file, "loop-seam-vel"), true, ANIM_EVAL_COMPLETE, 0, 3, 0);
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);

    /* Without the overrides the [checks.*] caps apply: 10 < 20 deg and
     * 0.1743 < 0.5 m pass, 120 and 160 deg/s exceed 100. */
    cfg = test_support_config_text("[clips.\"spin_*\"]\nloop = true\n"
                      "[checks.loop-closure]\nmax_rotation_delta_deg = 20.0\n"
                      "max_position_delta_m = 0.5\n"
                      "[checks.loop-seam-rot]\nmax_angular_velocity_delta_degps = 100.0\n");
    run_loop(a, cfg, &r);
    expect_state(test_support_record(&r.file, "loop-closure"), true, ANIM_EVAL_COMPLETE, 0, 3, 0);
    c = test_support_record(&r.file, "loop-seam-rot");
    expect_state(c, true, ANIM_EVAL_COMPLETE, 2, 3, 0);
    expect_measured(&c->findings[1], 160.0, 1e-3, 100.0);
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* The full-turn spin repeats its first key (q and -q are one rotation):
 * a rotation-only duplicate endpoint with translation/scale n/a. */
static void test_rotation_duplicate_endpoint(void **state)
{
    (void)state;
    anim_asset *a = asset_spin();
    anim_config *cfg = test_support_config_text("[clips.spin_dup]\nloop = true\n");
    run_result r;
    run_loop(a, cfg, &r);
    const anim_check_record *c = test_support_record(&r.file, "duplicate-loop-endpoint");
    expect_state(c, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    expect_finding(&c->findings[0], "duplicate-loop-endpoint", ANIM_SEVERITY_WARNING, "spin_dup",
                   NULL, 1.0,
                   "declared loop repeats its first pose at the authored endpoint: 1 redundant "
                   "closing key(s) per track; `animsmith transform "
                   "--drop-duplicate-loop-endpoint` can trim 1.000000s -> 0.750000s into an "
                   "open-cycle representation (endpoint deltas: translation n/a, rotation "
                   "0.000000 rad, scale n/a)");
    expect_measured(&c->findings[0], 1.0, 0.0, 0.0);
    /* A steady spin that closes its pose and angular velocity ... */
    expect_state(test_support_record(&r.file, "loop-closure"), true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    expect_state(test_support_record(&r.file, "loop-seam-rot"), true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    /* ... but on a 90 deg grid bad's chord velocities next to the seam
     * (0 -> 90 and 270 -> 360 deg) point 90 deg apart: (-4, 0, -4) vs
     * (4, 0, -4) m/s. The check judges the sampled steps, not the curve. */
    c = test_support_record(&r.file, "loop-seam-vel");
    expect_state(c, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    assert_string_equal(c->findings[0].bone, "bad");
    expect_measured(&c->findings[0], 8.0, 1e-5, 0.1);
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* ---- missing evidence: gaps instead of verdicts ----------------------- */

/* One bone's NaN keys leave its row unavailable: the other bones are
 * still judged (partial); the authored analysis cannot classify NaN
 * keys (a gap); with hips = root and a foot on the NaN bone the
 * foot-cycle metrics fail. */
static void test_unavailable_rows_partial(void **state)
{
    (void)state;
    anim_asset *a = asset_spin();
    anim_config *cfg = test_support_config_text("[rig]\nroles = { hips = \"root\", left_foot = \"bad\" }\n"
                                   "[clips.nan_bad]\nloop = true\n");
    run_result r;
    run_loop(a, cfg, &r);
    static const char *const per_bone[3][2] = {{"loop-closure", "loop_closure"},
                                               {"loop-seam-vel", "loop_seam_velocity"},
                                               {"loop-seam-rot", "loop_seam_rotation"}};
    for (int i = 0; i < 3; i++) {
        const anim_check_record *c = test_support_record(&r.file, per_bone[i][0]);
        uint32_t findings = i == 1 ? 0 : 1; /* root and arm never move */
        expect_state(c, true, ANIM_EVAL_PARTIAL, findings, 1, 1);
        test_support_expect_scope(&c->scopes[0], per_bone[i][1], "nan_bad");
        test_support_expect_gap(&c->gaps[0], "measurement_unavailable", per_bone[i][1], "nan_bad",
                   "1 of 3 bone(s) have no usable loop-continuity sample ('bad'); the other "
                   "bones were judged");
        if (findings)
            assert_string_equal(c->findings[0].bone, "arm");
    }
    const anim_check_record *c = test_support_record(&r.file, "duplicate-loop-endpoint");
    expect_state(c, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 1);
    test_support_expect_gap(&c->gaps[0], "measurement_unavailable", "duplicate_loop_endpoint", "nan_bad",
               "authored endpoint analysis unavailable: track Some(0) contains a non-finite "
               "authored value");
    c = test_support_record(&r.file, "loop-seam");
    expect_state(c, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 1);
    test_support_expect_gap(&c->gaps[0], "measurement_unavailable", "loop_seam", "nan_bad",
               "foot-cycle metrics could not be produced");
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);

    /* NaN on the root poisons every bone: no evaluated scope at all. */
    cfg = test_support_config_text("[clips.nan_root]\nloop = true\n");
    run_loop(a, cfg, &r);
    for (int i = 0; i < 3; i++) {
        c = test_support_record(&r.file, per_bone[i][0]);
        expect_state(c, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 1);
        test_support_expect_gap(&c->gaps[0], "measurement_unavailable", per_bone[i][1], "nan_root",
                   "clip has no usable per-bone loop-continuity sample");
    }
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* Two keys give no metric grid: the continuity checks have no sample and
 * loop-seam (with roles) calls the clip too short; the authored analysis
 * still runs (fewer than three keys: not a candidate). */
static void test_no_grid(void **state)
{
    (void)state;
    anim_asset *a = asset_spin();
    anim_config *cfg = test_support_config_text("[rig]\nroles = { hips = \"root\", right_foot = \"arm\" }\n"
                                   "[clips.short]\nloop = true\n");
    run_result r;
    run_loop(a, cfg, &r);
    static const char *const per_bone[3][2] = {{"loop-closure", "loop_closure"},
                                               {"loop-seam-vel", "loop_seam_velocity"},
                                               {"loop-seam-rot", "loop_seam_rotation"}};
    for (int i = 0; i < 3; i++) {
        const anim_check_record *c = test_support_record(&r.file, per_bone[i][0]);
        expect_state(c, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 1);
        test_support_expect_gap(&c->gaps[0], "measurement_unavailable", per_bone[i][1], "short",
                   "clip has no usable per-bone loop-continuity sample");
    }
    const anim_check_record *c = test_support_record(&r.file, "loop-seam");
    expect_state(c, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 1);
    test_support_expect_gap(&c->gaps[0], "measurement_unavailable", "loop_seam", "short",
               "clip is too short to sample a loop cycle");
    expect_state(test_support_record(&r.file, "duplicate-loop-endpoint"), true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* A stride under [checks.loop-seam] min_stride_step_m leaves the seam
 * ratio unnormalized: a gap, not a pass. walk-dirty's larger neighbouring
 * step is 0.0232 m. Under the floor default it is judged (6.82×). */
static void test_stride_below_floor(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk-dirty.glb");
    anim_config *cfg = test_support_config_text("[rig]\nprofile = \"auto\"\n[clips.walk]\nloop = true\n"
                                   "[checks.loop-seam]\nmin_stride_step_m = 0.03\n");
    run_result r;
    run_loop(a, cfg, &r);
    const anim_check_record *c = test_support_record(&r.file, "loop-seam");
    expect_state(c, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 1);
    test_support_expect_gap(&c->gaps[0], "measurement_unavailable", "loop_seam", "walk",
               "the clip has no usable stride step for normalizing its loop seam");
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);

    cfg = test_support_config_text("[clips.walk]\nloop = true\n[checks.loop-seam]\nmin_stride_step_m = 0.02\n"
                      "max_ratio = 6.9\n");
    run_loop(a, cfg, &r);
    c = test_support_record(&r.file, "loop-seam");
    expect_state(c, true, ANIM_EVAL_COMPLETE, 0, 1, 0); /* 6.815 <= 6.9 */
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* [checks.<id>] severity re-grades the findings; "off" disables. */
static void test_severity_override(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk-dirty.glb");
    anim_config *cfg = test_support_config_text("[clips.walk]\nloop = true\n"
                                   "[checks.loop-closure]\nseverity = \"warn\"\n"
                                   "[checks.loop-seam]\nseverity = \"off\"\n");
    run_result r;
    run_loop(a, cfg, &r);
    const anim_check_record *c = test_support_record(&r.file, "loop-closure");
    expect_state(c, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    assert_int_equal(c->findings[0].severity, ANIM_SEVERITY_WARNING);
    c = test_support_record(&r.file, "loop-seam");
    assert_false(c->enabled);
    assert_int_equal(c->finding_count + c->scope_count + c->gap_count, 0);
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_dirty_seed),
        cmocka_unit_test(test_walk_clean_duplicate_endpoint),
        cmocka_unit_test(test_not_applicable_without_loop),
        cmocka_unit_test(test_report_comparison),
        cmocka_unit_test(test_f32_cap_rule),
        cmocka_unit_test(test_rotation_only_loops),
        cmocka_unit_test(test_per_clip_caps),
        cmocka_unit_test(test_rotation_duplicate_endpoint),
        cmocka_unit_test(test_unavailable_rows_partial),
        cmocka_unit_test(test_no_grid),
        cmocka_unit_test(test_stride_below_floor),
        cmocka_unit_test(test_severity_override),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
