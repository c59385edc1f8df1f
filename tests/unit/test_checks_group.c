/* The group checks: gait-group, sync-group and
 * time-complement, run through anim_lint_run with contracts parsed by
 * anim_config_load(_bytes). Documents are the run-ring fixture and small
 * .gltf texts built here: a pelvis with two feet (ue-mannequin names, so
 * `auto` resolves hips + both feet) whose clips swing the feet as
 * y_L = A·sin(2πk/C + off), y_R = −y_L. The left-minus-right signal is
 * then 2A·sin(θ + off), whose trough phase is (0.75 − off/2π) mod 1, so a
 * clip can be given any stride-anchor phase exactly. */
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
#include "support/test_support.h"

/* ---- documents -------------------------------------------------------- */

typedef struct {
    const char *name;
    double phase;     /* stride-anchor phase the clip is built for */
    double amp;       /* foot swing amplitude A (lr amplitude = 4A) */
    uint32_t keys;    /* key count, last key closes the cycle */
    double duration;  /* seconds */
    bool open;        /* the last left-foot key is moved 0.2 m: non-closing */
} clip_spec;

/* Builds and loads the document. right_foot names the third bone: "foot_r"
 * (bilateral) or anything else (one-sided rig); hips likewise ("pelvis"). */
static anim_asset *build_doc(const char *hips, const char *right_foot, const clip_spec *clips,
                             uint32_t n)
{
    test_support_gltf *g = test_support_gltf_new();
    const test_support_node nodes[3] = {
        {hips, -1, TEST_SUPPORT_T, {0, 1, 0}, {0}, {0}},
        {"foot_l", 0, TEST_SUPPORT_T, {0.1, -1, 0}, {0}, {0}},
        {right_foot, 0, TEST_SUPPORT_T, {-0.1, -1, 0}, {0}, {0}}};
    test_support_gltf_nodes(g, nodes, 3);
    for (uint32_t c = 0; c < n; c++) {
        const clip_spec *s = &clips[c];
        uint32_t k = s->keys, cyc = k - 1;
        double shift = 2.0 * 3.14159265358979323846 * (0.75 - s->phase);
        /* times (k floats), left (k*3), right (k*3) */
        float *t = calloc((size_t)k * 7, sizeof *t);
        assert_non_null(t);
        float *l = t + k, *r = l + 3 * k;
        for (uint32_t i = 0; i < k; i++) {
            t[i] = (float)(s->duration * i / cyc);
            double y = s->amp * sin(2.0 * 3.14159265358979323846 * i / cyc + shift);
            l[3 * i] = 0.1f;
            l[3 * i + 1] = (float)(-1.0 + y);
            r[3 * i] = -0.1f;
            r[3 * i + 1] = (float)(-1.0 - y);
            l[3 * i + 2] = r[3 * i + 2] = 0.0f;
        }
        if (s->open)
            l[3 * (k - 1) + 2] = 0.2f;
        int in = test_support_gltf_accessor(g, t, k, "SCALAR", TEST_SUPPORT_BOUNDS);
        int left = test_support_gltf_accessor(g, l, k, "VEC3", 0);
        int right = test_support_gltf_accessor(g, r, k, "VEC3", 0);
        test_support_gltf_animation(g, s->name);
        test_support_gltf_channel(g, 1, "translation", in, left, NULL);
        test_support_gltf_channel(g, 2, "translation", in, right, NULL);
        free(t);
    }
    anim_asset *a = test_support_gltf_load(g, "t.gltf");
    test_support_gltf_free(g);
    return a;
}

/* ---- running ---------------------------------------------------------- */

typedef struct {
    anim_asset *asset;
    anim_config *cfg;
    anim_lint_file file;
} run_t;

static void run(run_t *r, anim_asset *asset, const char *toml)
{
    memset(r, 0, sizeof *r);
    r->asset = asset;
    r->cfg = test_support_config_text(toml);
    test_support_lint(asset, r->cfg, NULL, 0, &r->file);
}

static void done(run_t *r)
{
    anim_lint_file_free(&r->file);
    anim_config_free(r->cfg);
    anim_asset_free(r->asset);
}

static void expect_gap(const anim_check_record *rec, uint32_t i, const char *code,
                       const char *scope, const char *subject, const char *message)
{
    assert_true(i < rec->gap_count);
    const anim_gap *g = &rec->gaps[i];
    assert_string_equal(g->code, code);
    assert_string_equal(g->message, message);
    if (!scope) {
        assert_false(g->has_scope);
        return;
    }
    assert_true(g->has_scope);
    assert_string_equal(g->scope.code, scope);
    if (subject)
        assert_string_equal(g->scope.subject, subject);
    else
        assert_null(g->scope.subject);
}

static void expect_scope(const anim_check_record *rec, uint32_t i, const char *code,
                         const char *subject)
{
    assert_true(i < rec->scope_count);
    assert_string_equal(rec->scopes[i].code, code);
    if (subject)
        assert_string_equal(rec->scopes[i].subject, subject);
    else
        assert_null(rec->scopes[i].subject);
}

static const anim_member_measurement *row_value(const anim_member_row *row, const char *key)
{
    for (uint32_t k = 0; k < row->measurement_count; k++)
        if (strcmp(row->measurements[k].key, key) == 0)
            return &row->measurements[k];
    return NULL;
}

static void expect_keys_sorted(const anim_member_row *row)
{
    for (uint32_t k = 1; k < row->measurement_count; k++)
        assert_true(strcmp(row->measurements[k - 1].key, row->measurements[k].key) < 0);
}

#define GAIT(name, phase) {name, phase, 0.05, 17, 1.0, false}

/* ---- gait-group ---------------------------------------------------------- */

static void test_run_ring_fixture(void **state)
{
    (void)state;
    const char *src = getenv("ANIMSMITH_SOURCE_DIR");
    char path[1024], cpath[1024];
    snprintf(path, sizeof path, "%s/examples/assets/run-ring.glb", src ? src : ".");
    snprintf(cpath, sizeof cpath, "%s/examples/run-ring.animsmith.toml", src ? src : ".");
    anim_error err;
    anim_asset *asset = anim_asset_load(path, NULL, &err);
    if (!asset)
        fail_msg("%s: %s", path, err.message);
    anim_config *cfg = anim_config_load(cpath, &err);
    if (!cfg)
        fail_msg("%s: %s", cpath, err.message);
    anim_lint_file file;
    assert_int_equal(anim_lint_run(asset, cfg, NULL, &file, &err), 0);

    const anim_check_record *gg = NULL, *sg = NULL, *tc = NULL;
    for (size_t i = 0; i < file.record_count; i++) {
        if (!strcmp(file.records[i].check_id, "gait-group"))
            gg = &file.records[i];
        if (!strcmp(file.records[i].check_id, "sync-group"))
            sg = &file.records[i];
        if (!strcmp(file.records[i].check_id, "time-complement"))
            tc = &file.records[i];
    }
    assert_non_null(gg);
    assert_int_equal(gg->evaluation, ANIM_EVAL_COMPLETE);
    assert_int_equal(gg->finding_count, 1);
    const anim_finding *f = &gg->findings[0];
    assert_int_equal(f->severity, ANIM_SEVERITY_ERROR);
    assert_null(f->clip);
    assert_int_equal(f->member_count, 0);
    assert_string_equal(f->message,
                        "gait group 'run-ring': stride-anchor phases spread by 0.20 cycle (cap "
                        "0.15) \xe2\x80\x94 directional blends between these clips will skate or "
                        "pop. Measured: [run_forward=0.75, run_backward=0.75, run_left=0.50, "
                        "run_right=0.75]");
    assert_true(fabs(f->measured.number - 0.1988) < 5e-5);
    assert_true(f->expected.number == 0.15);
    assert_int_equal(gg->scope_count, 2);
    expect_scope(gg, 0, "member_existence", NULL);
    expect_scope(gg, 1, "phase_coherence", "run-ring");

    /* No fps and no loop declared: the grid and endpoint comparisons are
     * coverage gaps (docs/checks-groups.md), the rest passes. */
    assert_non_null(sg);
    assert_int_equal(sg->evaluation, ANIM_EVAL_PARTIAL);
    assert_int_equal(sg->finding_count, 0);
    assert_int_equal(sg->gap_count, 2);
    expect_gap(sg, 0, "sync_frame_grid_unavailable", "sync_compatibility", "run-ring",
               "sync group 'run-ring' has 0 of 4 members with usable declared frame grids");
    expect_gap(sg, 1, "measurement_unavailable", "sync_compatibility", "run-ring",
               "sync group 'run-ring' has 0 of 4 members with usable loop endpoint evidence");
    assert_int_equal(sg->scope_count, 6);
    expect_scope(sg, 0, "member_existence", NULL);
    expect_scope(sg, 1, "sync_member_measurement", "run_forward");
    expect_scope(sg, 5, "sync_compatibility", "run-ring");

    /* Best reflected advantage is 0: quiet and complete. */
    assert_non_null(tc);
    assert_int_equal(tc->evaluation, ANIM_EVAL_COMPLETE);
    assert_int_equal(tc->finding_count, 0);
    assert_int_equal(tc->gap_count, 0);
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(asset);
}

static const char *GAIT_TOML_WRAP = "[gait_groups.ring]\n"
                                    "clips = [\"a\", \"b\"]\n"
                                    "max_gait_phase_spread = %s\n";

static void wrap_case(double cap_expect_finding, const char *cap)
{
    clip_spec clips[] = {GAIT("a", 0.95), GAIT("b", 0.05)};
    char toml[256];
    snprintf(toml, sizeof toml, GAIT_TOML_WRAP, cap);
    run_t r;
    run(&r, build_doc("pelvis", "foot_r", clips, 2), toml);
    const anim_check_record *rec = test_support_record(&r.file, "gait-group");
    assert_int_equal(rec->evaluation, ANIM_EVAL_COMPLETE);
    assert_int_equal(rec->gap_count, 0);
    if (cap_expect_finding > 0) {
        assert_int_equal(rec->finding_count, 1);
        /* 0.95 and 0.05 are 0.1 apart across the wrap: 0.05 from the mean. */
        assert_true(fabs(rec->findings[0].measured.number - 0.05) < 1e-6);
        assert_string_equal(rec->findings[0].message,
                            "gait group 'ring': stride-anchor phases spread by 0.05 cycle (cap "
                            "0.04) \xe2\x80\x94 directional blends between these clips will "
                            "skate or pop. Measured: [a=0.95, b=0.05]");
    } else {
        assert_int_equal(rec->finding_count, 0);
    }
    expect_scope(rec, 0, "member_existence", NULL);
    expect_scope(rec, 1, "phase_coherence", "ring");
    done(&r);
}

static void test_gait_wrap_within(void **state)
{
    (void)state;
    wrap_case(0, "0.06");
}

static void test_gait_wrap_over(void **state)
{
    (void)state;
    wrap_case(1, "0.04");
}

static void test_gait_below_floor_and_missing(void **state)
{
    (void)state;
    clip_spec clips[] = {GAIT("a", 0.75), GAIT("b", 0.70), {"quiet", 0.2, 0.005, 17, 1.0, false},
                         {"flat", 0.2, 0.0, 17, 1.0, false}};
    run_t r;
    run(&r, build_doc("pelvis", "foot_r", clips, 4),
        "[gait_groups.ring]\n"
        "clips = [\"a\", \"ghost\", \"quiet\", \"flat\", \"b\"]\n"
        "max_gait_phase_spread = 0.1\n"
        "min_lr_amplitude_m = 0.03\n");
    const anim_check_record *rec = test_support_record(&r.file, "gait-group");
    assert_int_equal(rec->finding_count, 1);
    assert_int_equal(rec->findings[0].severity, ANIM_SEVERITY_ERROR);
    assert_string_equal(rec->findings[0].clip, "ghost");
    assert_string_equal(rec->findings[0].message, "gait group 'ring' member not found in file");
    assert_int_equal(rec->gap_count, 3);
    /* The quiet clip swings 4·0.005 m: excluded, not averaged in. */
    expect_gap(rec, 0, "measurement_unavailable", "phase_measurement", "quiet",
               "left/right gait amplitude 0.020 m is below the 0.030 m evidence floor");
    expect_gap(rec, 1, "measurement_unavailable", "phase_measurement", "flat",
               "gait phase has no left/right foot-height swing");
    expect_gap(rec, 2, "members_not_evaluated", "phase_coherence", "ring",
               "gait group 'ring' evaluated 2 of 5 configured member(s)");
    assert_int_equal(rec->evaluation, ANIM_EVAL_PARTIAL);
    assert_int_equal(rec->scope_count, 2);
    expect_scope(rec, 0, "member_existence", NULL);
    expect_scope(rec, 1, "phase_coherence", "ring");
    done(&r);
}

static void test_gait_insufficient(void **state)
{
    (void)state;
    clip_spec clips[] = {GAIT("a", 0.75), {"quiet", 0.2, 0.005, 17, 1.0, false}};
    run_t r;
    run(&r, build_doc("pelvis", "foot_r", clips, 2),
        "[gait_groups.ring]\n"
        "clips = [\"a\", \"quiet\"]\n"
        "max_gait_phase_spread = 0.1\n"
        "min_lr_amplitude_m = 0.03\n");
    const anim_check_record *rec = test_support_record(&r.file, "gait-group");
    assert_int_equal(rec->finding_count, 0);
    assert_int_equal(rec->gap_count, 2);
    expect_gap(rec, 1, "insufficient_measurable_members", "phase_coherence", "ring",
               "gait group 'ring' has 1 measurable phase member(s); at least two are required");
    /* member existence was still established */
    assert_int_equal(rec->evaluation, ANIM_EVAL_PARTIAL);
    assert_int_equal(rec->scope_count, 1);
    expect_scope(rec, 0, "member_existence", NULL);
    done(&r);
}

static void test_gait_no_roles(void **state)
{
    (void)state;
    clip_spec clips[] = {GAIT("a", 0.75), GAIT("b", 0.25)};
    run_t r;
    run(&r, build_doc("body", "other", clips, 2),
        "[gait_groups.ring]\n"
        "clips = [\"a\", \"b\", \"ghost\"]\n"
        "max_gait_phase_spread = 0.1\n");
    const anim_check_record *rec = test_support_record(&r.file, "gait-group");
    /* Existence is still validated without roles. */
    assert_int_equal(rec->finding_count, 1);
    assert_string_equal(rec->findings[0].clip, "ghost");
    assert_int_equal(rec->gap_count, 1);
    expect_gap(rec, 0, "roles_unresolved", "phase_coherence", "ring",
               "hips/foot roles not resolved (rig profile 'unknown') \xe2\x80\x94 needs hips "
               "and at least one foot role");
    assert_int_equal(rec->evaluation, ANIM_EVAL_PARTIAL);
    assert_int_equal(rec->scope_count, 1);
    expect_scope(rec, 0, "member_existence", NULL);

    /* time-complement takes the same gap, after the absent count. */
    done(&r);
    run(&r, build_doc("body", "other", clips, 2),
        "[sync_groups.s]\n"
        "clips = [\"a\", \"b\", \"ghost\", \"a\"]\n"
        "max_duration_delta_s = 0.001\nmax_frame_count_delta = 0\nmax_fps_delta = 0.01\n"
        "[sync_groups.s.time_complement]\n"
        "min_reflected_time_advantage = 0.25\nmin_lr_amplitude_m = 0.0\n");
    rec = test_support_record(&r.file, "time-complement");
    assert_int_equal(rec->gap_count, 2);
    expect_gap(rec, 0, "members_not_evaluated", "phase_coherence", "s",
               "same-time sync group 's' has 1 configured member(s) absent from the file");
    expect_gap(rec, 1, "roles_unresolved", "phase_coherence", "s",
               "hips/foot roles not resolved (rig profile 'unknown') \xe2\x80\x94 needs hips "
               "and at least one foot role");
    assert_int_equal(rec->evaluation, ANIM_EVAL_PARTIAL);
    done(&r);
}

static void test_gait_not_bilateral(void **state)
{
    (void)state;
    clip_spec clips[] = {GAIT("a", 0.75), GAIT("b", 0.25)};
    run_t r;
    /* Only the left foot resolves: the foot-cycle domain holds, the phase
     * has no bilateral subject. */
    run(&r, build_doc("pelvis", "other", clips, 2),
        "[gait_groups.ring]\n"
        "clips = [\"a\", \"b\"]\n"
        "max_gait_phase_spread = 0.1\n");
    const anim_check_record *rec = test_support_record(&r.file, "gait-group");
    assert_int_equal(rec->finding_count, 0);
    assert_int_equal(rec->gap_count, 3);
    expect_gap(rec, 0, "measurement_unavailable", "phase_measurement", "a",
               "gait phase has no bilateral foot-role subject");
    expect_gap(rec, 2, "insufficient_measurable_members", "phase_coherence", "ring",
               "gait group 'ring' has 0 measurable phase member(s); at least two are required");
    done(&r);
}

static void test_gait_unmeasured(void **state)
{
    (void)state;
    /* Two keys: no metric grid, so no phase can be measured. */
    clip_spec clips[] = {GAIT("a", 0.75), {"short", 0.75, 0.05, 2, 1.0, false}};
    run_t r;
    run(&r, build_doc("pelvis", "foot_r", clips, 2),
        "[gait_groups.ring]\n"
        "clips = [\"a\", \"short\"]\n"
        "max_gait_phase_spread = 0.1\n");
    const anim_check_record *rec = test_support_record(&r.file, "gait-group");
    expect_gap(rec, 0, "measurement_unavailable", "phase_measurement", "short",
               "gait phase could not be measured");
    done(&r);
}

/* ---- sync-group -------------------------------------------------------------- */

static const char *SYNC_HEAD = "[sync_groups.s]\n"
                               "clips = [\"a\", \"b\"]\n"
                               "max_duration_delta_s = 0.001\n"
                               "max_frame_count_delta = 0\n"
                               "max_fps_delta = 0.01\n";

static void test_sync_deltas_exceed(void **state)
{
    (void)state;
    /* b: 33 keys over 2 s declared at 32 fps (on its grid: 64 intervals);
     * a: 17 keys over 1 s at 16 fps. Every spread exceeds. */
    clip_spec clips[] = {GAIT("a", 0.75), {"b", 0.75, 0.05, 33, 2.0, false}};
    char toml[512];
    snprintf(toml, sizeof toml,
             "%s[clips.a]\nfps = 16\nloop = true\n[clips.b]\nfps = 32\nloop = true\n",
             SYNC_HEAD);
    run_t r;
    run(&r, build_doc("pelvis", "foot_r", clips, 2), toml);
    const anim_check_record *rec = test_support_record(&r.file, "sync-group");
    assert_int_equal(rec->gap_count, 0);
    assert_int_equal(rec->evaluation, ANIM_EVAL_COMPLETE);
    assert_int_equal(rec->finding_count, 4);
    assert_string_equal(rec->findings[0].message,
                        "sync group 's' duration spread 1.000000 exceeds cap 0.001000");
    assert_string_equal(rec->findings[1].message,
                        "sync group 's' frame count spread 16.000000 exceeds cap 0.000000");
    assert_string_equal(rec->findings[2].message,
                        "sync group 's' FPS spread 16.000000 exceeds cap 0.010000");
    assert_string_equal(rec->findings[3].message,
                        "sync group 's' frame intervals spread 48.000000 exceeds cap 0.000000");
    for (uint32_t i = 0; i < 4; i++) {
        const anim_finding *f = &rec->findings[i];
        assert_int_equal(f->severity, ANIM_SEVERITY_ERROR);
        assert_null(f->clip);
        assert_int_equal(f->member_count, 2);
        assert_int_equal(f->measured.kind, ANIM_VALUE_NUMBER);
        assert_int_equal(f->expected.kind, ANIM_VALUE_NUMBER);
    }
    const anim_member_row *row = &rec->findings[0].members[1];
    assert_string_equal(row->member, "b");
    expect_keys_sorted(row);
    assert_int_equal(row->measurement_count, 6);
    assert_string_equal(row_value(row, "availability")->value.text, "present");
    assert_true(row_value(row, "duration_s")->value.number == 2.0);
    assert_true(row_value(row, "frame_count")->value.number == 33);
    assert_true(row_value(row, "fps")->value.number == 32);
    assert_true(row_value(row, "frame_intervals")->value.number == 64);
    assert_string_equal(row_value(row, "loop_endpoint_mode")->value.text, "duplicate_endpoint");
    expect_scope(rec, 0, "member_existence", NULL);
    expect_scope(rec, 1, "sync_member_measurement", "a");
    expect_scope(rec, 2, "sync_member_measurement", "b");
    expect_scope(rec, 3, "sync_compatibility", "s");
    done(&r);
}

static void test_sync_endpoint_modes_mixed(void **state)
{
    (void)state;
    clip_spec clips[] = {GAIT("a", 0.75), {"b", 0.75, 0.05, 17, 1.0, true}};
    char toml[512];
    snprintf(toml, sizeof toml, "%s[clips.\"*\"]\nfps = 16\nloop = true\n", SYNC_HEAD);
    run_t r;
    run(&r, build_doc("pelvis", "foot_r", clips, 2), toml);
    const anim_check_record *rec = test_support_record(&r.file, "sync-group");
    assert_int_equal(rec->gap_count, 0);
    assert_int_equal(rec->finding_count, 1);
    const anim_finding *f = &rec->findings[0];
    assert_string_equal(f->message, "sync group 's' has incompatible loop endpoint modes");
    assert_string_equal(f->measured.text, "mixed");
    assert_string_equal(f->expected.text, "one shared endpoint mode");
    assert_int_equal(f->member_count, 2);
    assert_string_equal(row_value(&f->members[0], "loop_endpoint_mode")->value.text,
                        "duplicate_endpoint");
    assert_string_equal(row_value(&f->members[1], "loop_endpoint_mode")->value.text,
                        "non_closing");
    done(&r);
}

static void test_sync_grid_unavailable_and_missing(void **state)
{
    (void)state;
    /* c: 17 keys over 1.5 s, declared 16 fps: 24 intervals but keys off it. */
    clip_spec clips[] = {GAIT("a", 0.75), GAIT("b", 0.75), {"c", 0.75, 0.05, 17, 1.5, false}};
    run_t r;
    run(&r, build_doc("pelvis", "foot_r", clips, 3),
        "[sync_groups.s]\n"
        "clips = [\"a\", \"ghost\", \"b\", \"c\"]\n"
        "max_duration_delta_s = 1\nmax_frame_count_delta = 0\nmax_fps_delta = 0.01\n"
        "[clips.a]\nfps = 16\n[clips.c]\nfps = 16\n");
    const anim_check_record *rec = test_support_record(&r.file, "sync-group");
    assert_int_equal(rec->finding_count, 1);
    const anim_finding *f = &rec->findings[0];
    assert_string_equal(f->message, "sync group 's' member not found in file");
    assert_string_equal(f->clip, "ghost");
    assert_int_equal(f->member_count, 4);
    assert_string_equal(f->members[1].member, "ghost");
    assert_int_equal(f->members[1].measurement_count, 1);
    assert_string_equal(f->members[1].measurements[0].key, "availability");
    assert_string_equal(f->members[1].measurements[0].value.text, "missing");
    assert_non_null(row_value(&f->members[0], "fps"));
    assert_string_equal(row_value(&f->members[2], "frame_grid")->value.text, "undeclared_fps");
    assert_string_equal(row_value(&f->members[3], "frame_grid")->value.text, "off_grid");
    assert_string_equal(row_value(&f->members[3], "loop_endpoint_mode")->value.text,
                        "unavailable");
    expect_keys_sorted(&f->members[3]);

    assert_int_equal(rec->gap_count, 3);
    expect_gap(rec, 0, "members_not_evaluated", "sync_compatibility", "s",
               "sync group 's' has 1 configured member(s) absent from the file");
    expect_gap(rec, 1, "sync_frame_grid_unavailable", "sync_compatibility", "s",
               "sync group 's' has 1 of 3 members with usable declared frame grids");
    expect_gap(rec, 2, "measurement_unavailable", "sync_compatibility", "s",
               "sync group 's' has 0 of 3 members with usable loop endpoint evidence");
    assert_int_equal(rec->evaluation, ANIM_EVAL_PARTIAL);
    expect_scope(rec, rec->scope_count - 1, "sync_compatibility", "s");
    done(&r);
}

static void test_sync_single_present(void **state)
{
    (void)state;
    clip_spec clips[] = {GAIT("a", 0.75)};
    run_t r;
    run(&r, build_doc("pelvis", "foot_r", clips, 1), SYNC_HEAD);
    const anim_check_record *rec = test_support_record(&r.file, "sync-group");
    assert_int_equal(rec->finding_count, 1);
    assert_int_equal(rec->gap_count, 2);
    expect_gap(rec, 1, "insufficient_measurable_members", "sync_compatibility", "s",
               "sync group 's' has 1 present member(s); at least two are required");
    assert_int_equal(rec->scope_count, 2);
    expect_scope(rec, 1, "sync_member_measurement", "a");
    done(&r);
}

/* ---- time-complement --------------------------------------------------------- */

static const char *TC_TOML = "[sync_groups.s]\n"
                             "clips = [\"a\", \"b\", \"quiet\"]\n"
                             "max_duration_delta_s = 1\nmax_frame_count_delta = 0\n"
                             "max_fps_delta = 0.01\n"
                             "[sync_groups.s.time_complement]\n"
                             "min_reflected_time_advantage = 0.25\n"
                             "min_lr_amplitude_m = 0.03\n";

static void test_time_complement_warns(void **state)
{
    (void)state;
    /* 0.25 vs 0.75: opposite under same time, identical when reflected. */
    clip_spec clips[] = {GAIT("a", 0.25), GAIT("b", 0.75), {"quiet", 0.2, 0.005, 17, 1.0, false}};
    run_t r;
    run(&r, build_doc("pelvis", "foot_r", clips, 3), TC_TOML);
    const anim_check_record *rec = test_support_record(&r.file, "time-complement");
    assert_int_equal(rec->finding_count, 1);
    const anim_finding *f = &rec->findings[0];
    assert_int_equal(f->severity, ANIM_SEVERITY_WARNING);
    assert_string_equal(f->message,
                        "same-time / absolute-sync group 's' pair 'a' and 'b' has reflected-time "
                        "gait similarity 1.000 versus same-time 0.000 (advantage 1.000; threshold "
                        "0.250); this is a sync-compatibility diagnostic for the declared group");
    assert_true(fabs(f->measured.number - 1.0) < 1e-6);
    assert_true(f->expected.number == 0.25);
    assert_int_equal(f->member_count, 2);
    assert_string_equal(f->members[0].member, "a");
    assert_string_equal(f->members[1].member, "b");
    assert_int_equal(f->members[1].measurement_count, 5);
    expect_keys_sorted(&f->members[1]);
    assert_true(fabs(row_value(&f->members[1], "gait_phase")->value.number - 0.75) < 1e-6);
    assert_true(fabs(row_value(&f->members[0], "lr_amplitude_m")->value.number - 0.2) < 1e-6);
    assert_true(fabs(row_value(&f->members[0], "same_time_similarity")->value.number) < 1e-6);

    assert_int_equal(rec->gap_count, 2);
    expect_gap(rec, 0, "measurement_unavailable", "phase_measurement", "quiet",
               "left/right gait amplitude 0.020 m is below the 0.030 m time-complement "
               "evidence floor");
    expect_gap(rec, 1, "members_not_evaluated", "phase_coherence", "s",
               "same-time sync group 's' evaluated 2 of 3 configured member(s)");
    assert_int_equal(rec->evaluation, ANIM_EVAL_PARTIAL);
    expect_scope(rec, 0, "member_existence", NULL);
    expect_scope(rec, 1, "phase_coherence", "s");
    done(&r);
}

static void test_time_complement_passes(void **state)
{
    (void)state;
    /* Aligned phases: reflection only makes it worse. */
    clip_spec clips[] = {GAIT("a", 0.75), GAIT("b", 0.75)};
    run_t r;
    run(&r, build_doc("pelvis", "foot_r", clips, 2),
        "[sync_groups.s]\n"
        "clips = [\"a\", \"b\", \"a\"]\n"
        "max_duration_delta_s = 1\nmax_frame_count_delta = 0\nmax_fps_delta = 0.01\n"
        "[sync_groups.s.time_complement]\n"
        "min_reflected_time_advantage = 0.25\nmin_lr_amplitude_m = 0.03\n");
    const anim_check_record *rec = test_support_record(&r.file, "time-complement");
    assert_int_equal(rec->finding_count, 0);
    assert_int_equal(rec->gap_count, 0); /* duplicates count once */
    assert_int_equal(rec->evaluation, ANIM_EVAL_COMPLETE);
    done(&r);
}

static void test_time_complement_insufficient(void **state)
{
    (void)state;
    clip_spec clips[] = {GAIT("a", 0.25), {"quiet", 0.2, 0.005, 17, 1.0, false}};
    run_t r;
    run(&r, build_doc("pelvis", "foot_r", clips, 2),
        "[sync_groups.s]\n"
        "clips = [\"a\", \"ghost\", \"quiet\"]\n"
        "max_duration_delta_s = 1\nmax_frame_count_delta = 0\nmax_fps_delta = 0.01\n"
        "[sync_groups.s.time_complement]\n"
        "min_reflected_time_advantage = 0.25\nmin_lr_amplitude_m = 0.03\n");
    const anim_check_record *rec = test_support_record(&r.file, "time-complement");
    assert_int_equal(rec->finding_count, 0);
    assert_int_equal(rec->gap_count, 3);
    expect_gap(rec, 1, "members_not_evaluated", "phase_coherence", "s",
               "same-time sync group 's' has 1 configured member(s) absent from the file");
    expect_gap(rec, 2, "insufficient_measurable_members", "phase_coherence", "s",
               "same-time sync group 's' has 1 measurable phase member(s); at least two are "
               "required");
    assert_int_equal(rec->scope_count, 1);
    assert_int_equal(rec->evaluation, ANIM_EVAL_PARTIAL);
    done(&r);
}

static void test_not_applicable_without_groups(void **state)
{
    (void)state;
    clip_spec clips[] = {GAIT("a", 0.25)};
    run_t r;
    run(&r, build_doc("pelvis", "foot_r", clips, 1), "[rig]\nprofile = \"auto\"\n");
    const char *ids[] = {"gait-group", "sync-group", "time-complement"};
    for (int i = 0; i < 3; i++) {
        const anim_check_record *rec = test_support_record(&r.file, ids[i]);
        assert_false(rec->applicable);
        assert_int_equal(rec->finding_count + rec->gap_count + rec->scope_count, 0);
    }
    done(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_ring_fixture),
        cmocka_unit_test(test_gait_wrap_within),
        cmocka_unit_test(test_gait_wrap_over),
        cmocka_unit_test(test_gait_below_floor_and_missing),
        cmocka_unit_test(test_gait_insufficient),
        cmocka_unit_test(test_gait_no_roles),
        cmocka_unit_test(test_gait_not_bilateral),
        cmocka_unit_test(test_gait_unmeasured),
        cmocka_unit_test(test_sync_deltas_exceed),
        cmocka_unit_test(test_sync_endpoint_modes_mixed),
        cmocka_unit_test(test_sync_grid_unavailable_and_missing),
        cmocka_unit_test(test_sync_single_present),
        cmocka_unit_test(test_time_complement_warns),
        cmocka_unit_test(test_time_complement_passes),
        cmocka_unit_test(test_time_complement_insufficient),
        cmocka_unit_test(test_not_applicable_without_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
