/* The per-track mechanical checks: nan,
 * time-monotonic, quat-norm, quat-flip, duration-sanity. Each test runs the
 * whole lint (anim_lint_run with the default contract, --select of these
 * ids) on an example asset or on a small .gltf built here with a base64
 * data-URI buffer, and asserts exact messages, severities, fields,
 * evaluation states, and the absence of gaps and scopes. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/lint.h"
#include "animsmith/numfmt.h"
#include "animsmith/strbuf.h"
#include "support/test_support.h"

#define EM "\xe2\x80\x94"

static const char *const track_ids[] = {"nan", "time-monotonic", "quat-norm", "quat-flip",
                                        "duration-sanity"};
#define TRACK_ID_COUNT (sizeof track_ids / sizeof *track_ids)

/* ---- building small documents ---------------------------------------- */

typedef struct {
    uint32_t node;        /* 0 root, 1 spine, 2 arm */
    const char *path;     /* "translation", "rotation", "scale" */
    const char *interp;   /* "LINEAR", "STEP", "CUBICSPLINE" */
    uint32_t keys;
    const float *times;   /* keys floats */
    const float *values;  /* keys * (cubic ? 3 : 1) * width floats */
} ttrack;

typedef struct {
    const char *name;
    const ttrack *tracks;
    uint32_t track_count;
} tclip;

/* A three-node skeleton (root -> spine, root -> arm) and the given clips;
 * every track gets its own times and values buffer views. */
static anim_asset *build_asset(const tclip *clips, uint32_t clip_count)
{
    static const test_support_node nodes[3] = {{"root", -1, 0, {0}, {0}, {0}},
                                               {"spine", 0, 0, {0}, {0}, {0}},
                                               {"arm", 0, 0, {0}, {0}, {0}}};
    test_support_gltf *g = test_support_gltf_new();
    test_support_gltf_nodes(g, nodes, 3);
    for (uint32_t c = 0; c < clip_count; c++) {
        test_support_gltf_animation(g, clips[c].name);
        for (uint32_t i = 0; i < clips[c].track_count; i++) {
            const ttrack *t = &clips[c].tracks[i];
            test_support_gltf_track(g, (int)t->node, t->path, t->interp, t->keys, t->times,
                                    t->values, 0);
        }
    }
    anim_asset *asset = test_support_gltf_load(g, "mem.gltf");
    test_support_gltf_free(g);
    return asset;
}

/* ---- running the lint ------------------------------------------------- */

typedef struct {
    anim_asset *asset;
    anim_config *cfg;
    anim_lint_file file;
} run_t;

static void lint_asset(run_t *r, anim_asset *asset, anim_config *cfg)
{
    memset(r, 0, sizeof *r);
    r->asset = asset;
    r->cfg = cfg ? cfg : test_support_config_default();
    test_support_lint(asset, r->cfg, track_ids, TRACK_ID_COUNT, &r->file);
}

static void lint_file(run_t *r, const char *path)
{
    anim_error err;
    anim_asset *asset = anim_asset_load(path, NULL, &err);
    if (!asset)
        fail_msg("cannot load %s: %s", path, err.message);
    lint_asset(r, asset, NULL);
}

static void lint_built(run_t *r, const tclip *clips, uint32_t n, anim_config *cfg)
{
    lint_asset(r, build_asset(clips, n), cfg);
}

static void run_free(run_t *r)
{
    anim_lint_file_free(&r->file);
    anim_config_free(r->cfg);
    anim_asset_free(r->asset);
}

/* Every one of our checks ran to completion without gaps or scopes. */
static void assert_complete(const run_t *r)
{
    for (size_t i = 0; i < TRACK_ID_COUNT; i++) {
        const anim_check_record *rec = test_support_record(&r->file, track_ids[i]);
        assert_true(rec->selected);
        assert_true(rec->enabled);
        assert_true(rec->applicable);
        assert_int_equal(rec->evaluation, ANIM_EVAL_COMPLETE);
        assert_int_equal(rec->gap_count, 0);
        assert_int_equal(rec->scope_count, 0);
    }
}

static uint32_t findings_of(const run_t *r, const char *id)
{
    return test_support_record(&r->file, id)->finding_count;
}

#define NO_TIME NAN
#define NONE NAN

/* time / measured / expected: NAN means absent. */
static void assert_finding(const anim_finding *f, const char *check, anim_severity sev,
                           const char *clip, const char *bone, double time_s, double measured,
                           double expected, const char *message)
{
    assert_string_equal(f->check_id, check);
    assert_int_equal(f->severity, sev);
    if (clip)
        assert_string_equal(f->clip, clip);
    else
        assert_null(f->clip);
    if (bone)
        assert_string_equal(f->bone, bone);
    else
        assert_null(f->bone);
    assert_null(f->node);
    if (isnan(time_s)) {
        assert_false(f->has_time);
    } else {
        assert_true(f->has_time);
        assert_true(f->time_s == time_s);
    }
    if (isnan(measured)) {
        assert_int_equal(f->measured.kind, ANIM_VALUE_NONE);
    } else {
        assert_int_equal(f->measured.kind, ANIM_VALUE_NUMBER);
        if (f->measured.number != measured)
            fail_msg("measured %.17g != %.17g", f->measured.number, measured);
    }
    if (isnan(expected)) {
        assert_int_equal(f->expected.kind, ANIM_VALUE_NONE);
    } else {
        assert_int_equal(f->expected.kind, ANIM_VALUE_NUMBER);
        assert_true(f->expected.number == expected);
    }
    assert_null(f->members);
    assert_string_equal(f->message, message);
}

static void assert_no_findings(const run_t *r)
{
    for (size_t i = 0; i < TRACK_ID_COUNT; i++)
        assert_int_equal(findings_of(r, track_ids[i]), 0);
}

/* Pins a duration_s expectation for one clip selector (exact or glob). */
static void pin_duration(anim_config *cfg, const char *selector, double value, double tol)
{
    anim_clip_selector *sel = anim_arena_calloc(cfg->arena, 1, sizeof *sel);
    assert_non_null(sel);
    sel->selector = selector;
    sel->expect.duration_s.set = true;
    sel->expect.duration_s.value = value;
    sel->expect.duration_s.tolerance = tol;
    cfg->clips = sel;
    cfg->clip_count = 1;
}

/* ---- fixtures: values ------------------------------------------------- */

static const float T3[] = {0.0f, 0.5f, 1.0f};
static const float ID3[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
static const float V3x3[] = {0, 0, 0, 0, 1, 0, 0, 2, 0};

/* ---- example assets --------------------------------------------------- */

static void test_clip_clean(void **state)
{
    (void)state;
    run_t r;
    lint_file(&r, "examples/assets/clip.glb");
    assert_complete(&r);
    assert_no_findings(&r);
    run_free(&r);
}

static void test_clip_dirty(void **state)
{
    (void)state;
    run_t r;
    lint_file(&r, "examples/assets/clip-dirty.glb");
    assert_complete(&r);
    assert_int_equal(findings_of(&r, "nan"), 0);
    assert_int_equal(findings_of(&r, "time-monotonic"), 0);
    assert_int_equal(findings_of(&r, "duration-sanity"), 0);
    assert_int_equal(findings_of(&r, "quat-norm"), 1);
    assert_int_equal(findings_of(&r, "quat-flip"), 1);

    /* The expected measured value: the f32 length of
     * (0, 0.10482508689165115, 0, 1.0447543859481812) with the SIMD
     * grouping, widened (~1.05000007; lint text shows 1.0500). */
    const anim_finding *n = test_support_finding(&r.file, "quat-norm", 0);
    assert_finding(n, "quat-norm", ANIM_SEVERITY_ERROR, "swing", "spine", 0.5,
                   1.0500000715255737, 1.0, "non-unit rotation key (worst at key 2)");
    char buf[64];
    anim_fmt_fixed(n->measured.number, 4, buf, sizeof buf);
    assert_string_equal(buf, "1.0500");

    assert_finding(test_support_finding(&r.file, "quat-flip", 0), "quat-flip", ANIM_SEVERITY_WARNING, "swing",
                   "spine", 0.75, 2.0, NONE,
                   "2 hemisphere flip(s) between adjacent rotation keys (first between keys 2 "
                   "and 3) " EM " engines without neighborhood correction will spin the long way");
    run_free(&r);
}

static void test_walk_assets(void **state)
{
    (void)state;
    static const char *const paths[] = {"examples/assets/walk.glb",
                                        "examples/assets/walk-dirty.glb"};
    for (size_t i = 0; i < 2; i++) {
        run_t r;
        lint_file(&r, paths[i]);
        assert_complete(&r);
        assert_no_findings(&r);
        run_free(&r);
    }
}

static void test_walk_short_channel(void **state)
{
    (void)state;
    run_t r;
    lint_file(&r, "examples/assets/walk-short-channel.glb");
    assert_complete(&r);
    assert_int_equal(findings_of(&r, "duration-sanity"), 1);
    assert_finding(test_support_finding(&r.file, "duration-sanity", 0), "duration-sanity", ANIM_SEVERITY_WARNING,
                   "walk_short_channel", NULL, NO_TIME, 0.25, 0.0,
                   "channels end at different times (0.750s..1.000s) " EM
                   " shorter channels will be clamp-held");
    run_free(&r);
}

/* ---- nan -------------------------------------------------------------- */

static void test_nan(void **state)
{
    (void)state;
    static const float t_nan[] = {0.0f, NAN, 1.0f, INFINITY};
    static const float v_ok[] = {0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0};
    static const float v_bad[] = {0, 0, 0, 1, 0, 0, 2, -INFINITY, 0, 3, NAN, 0};
    /* Cubic rotation: key 0's in-tangent is poisoned (element 0), the
     * value elements are finite unit quaternions. */
    static const float t2[] = {0.0f, 1.0f};
    static const float cubic[] = {NAN, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,
                                  0,   0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0};
    const ttrack tracks[] = {
        {1, "translation", "LINEAR", 4, t_nan, v_ok},
        {2, "scale", "STEP", 4, (const float[]){0.0f, 0.25f, 0.5f, 1.0f}, v_bad},
        {1, "rotation", "CUBICSPLINE", 2, t2, cubic},
        {2, "translation", "LINEAR", 3, T3, V3x3},
    };
    const tclip clips[] = {{"poison", tracks, 4}};
    run_t r;
    lint_built(&r, clips, 1, NULL);
    assert_complete(&r);
    assert_int_equal(findings_of(&r, "nan"), 3);
    assert_finding(test_support_finding(&r.file, "nan", 0), "nan", ANIM_SEVERITY_ERROR, "poison", "spine", NO_TIME,
                   NONE, NONE, "non-finite key time in translation track (key 1)");
    assert_finding(test_support_finding(&r.file, "nan", 1), "nan", ANIM_SEVERITY_ERROR, "poison", "arm", NO_TIME,
                   NONE, NONE, "non-finite value in scale track (element 2)");
    assert_finding(test_support_finding(&r.file, "nan", 2), "nan", ANIM_SEVERITY_ERROR, "poison", "spine", NO_TIME,
                   NONE, NONE, "non-finite value in rotation track (element 0)");
    /* NaN times fail every ordering comparison; infinite last key is a
     * valid increase. The cubic tangent is not a rotation key. */
    assert_int_equal(findings_of(&r, "time-monotonic"), 0);
    assert_int_equal(findings_of(&r, "quat-norm"), 0);
    assert_int_equal(findings_of(&r, "quat-flip"), 0);
    /* Ends: 1.0 (finite) from track 1, inf skipped, 1.0 and 1.0. */
    assert_int_equal(findings_of(&r, "duration-sanity"), 0);
    assert_true(r.asset->doc.clips[0].duration_s == 1.0);
    run_free(&r);
}

static void test_nan_time_and_value_same_track(void **state)
{
    (void)state;
    static const float t[] = {0.0f, 0.5f, NAN};
    static const float v[] = {0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, NAN, 0, 0, 0, 1};
    /* Rotation with key 2's value poisoned, plus its time: both reported,
     * time first. quat-norm skips the poisoned key. */
    static const float v3[] = {0, 0, 0, 1, 0.5f, 0, 0, 0, 0.7f, 0, 0, 1};
    const ttrack tracks[] = {
        {1, "rotation", "LINEAR", 3, t, v3},
        {2, "rotation", "LINEAR", 4, (const float[]){0, 0.25f, 0.5f, 1}, v},
    };
    const tclip clips[] = {{"c", tracks, 2}};
    run_t r;
    lint_built(&r, clips, 1, NULL);
    assert_complete(&r);
    assert_int_equal(findings_of(&r, "nan"), 2);
    assert_finding(test_support_finding(&r.file, "nan", 0), "nan", ANIM_SEVERITY_ERROR, "c", "spine", NO_TIME, NONE,
                   NONE, "non-finite key time in rotation track (key 2)");
    assert_finding(test_support_finding(&r.file, "nan", 1), "nan", ANIM_SEVERITY_ERROR, "c", "arm", NO_TIME, NONE,
                   NONE, "non-finite value in rotation track (element 2)");
    /* Track 0: keys 0 and 2 are unit; key 1 (0.5, 0,0,0) is the worst. */
    assert_int_equal(findings_of(&r, "quat-norm"), 1);
    assert_finding(test_support_finding(&r.file, "quat-norm", 0), "quat-norm", ANIM_SEVERITY_ERROR, "c", "spine",
                   0.5, 0.5, 1.0, "non-unit rotation key (worst at key 1)");
    run_free(&r);
}

/* ---- time-monotonic --------------------------------------------------- */

static void test_time_monotonic(void **state)
{
    (void)state;
    static const float t_late_back[] = {0.5f, 0.25f, 0.25f, 1.0f};
    static const float t_dup[] = {0.0f, 0.5f, 0.5f, 1.0f};
    static const float t_neg[] = {-0.5f, 0.0f, 1.0f};
    static const float t_edge_neg[] = {-1e-4f, 0.5f, 1.0f};
    static const float t_edge_late[] = {0.017f, 0.5f, 1.0f};
    static const float t_late[] = {0.02f, 0.5f, 1.0f};
    static const float v4[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    const ttrack tracks[] = {
        {1, "translation", "LINEAR", 4, t_late_back, v4},
        {2, "scale", "LINEAR", 4, t_dup, v4},
        {1, "rotation", "STEP", 3, t_neg, ID3},
        {2, "translation", "LINEAR", 3, t_edge_neg, V3x3},
        {2, "rotation", "LINEAR", 3, t_edge_late, ID3},
        {0, "scale", "LINEAR", 3, t_late, V3x3},
    };
    const tclip clips[] = {{"timing", tracks, 6}};
    run_t r;
    lint_built(&r, clips, 1, NULL);
    assert_complete(&r);
    assert_int_equal(findings_of(&r, "time-monotonic"), 5);
    assert_finding(test_support_finding(&r.file, "time-monotonic", 0), "time-monotonic", ANIM_SEVERITY_ERROR,
                   "timing", "spine", 0.25, NONE, NONE,
                   "key times not strictly increasing in translation track (keys 0 and 1)");
    assert_finding(test_support_finding(&r.file, "time-monotonic", 1), "time-monotonic", ANIM_SEVERITY_NOTE,
                   "timing", "spine", 0.5, 0.5, 0.0,
                   "first key of translation track starts at 0.500s, not 0 " EM
                   " the pose is clamp-held until then");
    assert_finding(test_support_finding(&r.file, "time-monotonic", 2), "time-monotonic", ANIM_SEVERITY_ERROR,
                   "timing", "arm", 0.5, NONE, NONE,
                   "key times not strictly increasing in scale track (keys 1 and 2)");
    assert_finding(test_support_finding(&r.file, "time-monotonic", 3), "time-monotonic", ANIM_SEVERITY_ERROR,
                   "timing", "spine", -0.5, -0.5, NONE, "negative key time in rotation track");
    assert_finding(test_support_finding(&r.file, "time-monotonic", 4), "time-monotonic", ANIM_SEVERITY_NOTE,
                   "timing", "root", (double)0.02f, (double)0.02f, 0.0,
                   "first key of scale track starts at 0.020s, not 0 " EM
                   " the pose is clamp-held until then");
    assert_int_equal(findings_of(&r, "nan"), 0);
    run_free(&r);
}

/* ---- quat-norm -------------------------------------------------------- */

static void test_quat_norm(void **state)
{
    (void)state;
    static const float t4[] = {0.0f, 0.25f, 0.5f, 1.0f};
    /* Keys: unit, 1.0005 (inside the tolerance), 1.2, 0.8: the two bad keys
     * deviate by about 0.2; widened, 1.2f deviates by 0.20000005 and 0.8f
     * by 0.19999999, so key 2 wins. */
    static const float within[] = {0, 0, 0, 1, 0, 0, 0, 1.0005f, 0, 0, 0, 1.2f, 0, 0, 0, 0.8f};
    /* Zero quaternion at key 1 (length 0) beats 1.5 at key 2 (dev 0.5). */
    static const float zero[] = {0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1.5f};
    /* Equal deviations: the first worst wins (keys 1 and 2 both 1.5). */
    static const float tie[] = {0, 0, 0, 1, 0, 0, 1.5f, 0, 0, 0, 0, 1.5f};
    /* Cubic: tangents far from unit are ignored; key 1's value is 0.9. */
    static const float cubic[] = {5, 5, 5, 5, 0, 0, 0, 1, 7, 7, 7, 7,
                                  9, 9, 9, 9, 0, 0.9f, 0, 0, 3, 3, 3, 3};
    static const float cubic_ok[] = {5, 5, 5, 5, 0, 0, 0, 1, 7, 7, 7, 7,
                                     9, 9, 9, 9, 0, 1, 0, 0, 3, 3, 3, 3};
    /* Translations are never quaternions. */
    static const float trans[] = {0, 0, 5, 0, 0, 5, 0, 0, 5};
    const ttrack tracks[] = {
        {1, "rotation", "LINEAR", 4, t4, within},
        {2, "rotation", "STEP", 3, T3, zero},
        {0, "rotation", "LINEAR", 3, T3, tie},
        {1, "rotation", "CUBICSPLINE", 2, (const float[]){0, 1}, cubic},
        {2, "rotation", "CUBICSPLINE", 2, (const float[]){0, 1}, cubic_ok},
        {0, "translation", "LINEAR", 3, T3, trans},
    };
    const tclip clips[] = {{"norms", tracks, 6}};
    run_t r;
    lint_built(&r, clips, 1, NULL);
    assert_complete(&r);
    assert_int_equal(findings_of(&r, "quat-norm"), 4);
    assert_finding(test_support_finding(&r.file, "quat-norm", 0), "quat-norm", ANIM_SEVERITY_ERROR, "norms",
                   "spine", 0.5, (double)1.2f, 1.0, "non-unit rotation key (worst at key 2)");
    assert_finding(test_support_finding(&r.file, "quat-norm", 1), "quat-norm", ANIM_SEVERITY_ERROR, "norms", "arm",
                   0.5, 0.0, 1.0, "non-unit rotation key (worst at key 1)");
    assert_finding(test_support_finding(&r.file, "quat-norm", 2), "quat-norm", ANIM_SEVERITY_ERROR, "norms", "root",
                   0.5, 1.5, 1.0, "non-unit rotation key (worst at key 1)");
    assert_finding(test_support_finding(&r.file, "quat-norm", 3), "quat-norm", ANIM_SEVERITY_ERROR, "norms",
                   "spine", 1.0, (double)0.9f, 1.0, "non-unit rotation key (worst at key 1)");
    run_free(&r);
}

/* ---- quat-flip -------------------------------------------------------- */

static void test_quat_flip(void **state)
{
    (void)state;
    static const float t5[] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
    /* One flip between keys 0 and 1 only (keys 1..4 share a hemisphere). */
    static const float one[] = {0, 0, 0, 1,  0, 0, 0, -1, 0, 0, 0, -1,
                                0, 0, 0, -1, 0, 0, 0, -1};
    /* A NaN key breaks the pairs around it: (0,1) and (1,2) are skipped;
     * (2,3) flips; (3,4) flips back. */
    static const float nanny[] = {0, 0, 0, 1, NAN, 0, 0, 1, 0, 0, 0, -1,
                                  0, 0, 0, 1, 0,   0, 0, -1};
    /* Orthogonal keys (dot exactly 0) are not a flip. */
    static const float ortho[] = {0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, -1};
    /* Cubic: negated tangents are ignored; values 0 and 1 are opposite. */
    static const float cubic[] = {-1, -1, -1, -1, 0, 0, 0, 1,  -1, -1, -1, -1,
                                  1,  1,  1,  1,  0, 0, 0, -1, 1,  1,  1,  1};
    static const float cubic_same[] = {-1, -1, -1, -1, 0, 0, 0, 1, -1, -1, -1, -1,
                                       -1, -1, -1, -1, 0, 0, 0, 1, -1, -1, -1, -1};
    const ttrack tracks[] = {
        {1, "rotation", "LINEAR", 5, t5, one},
        {2, "rotation", "LINEAR", 5, t5, nanny},
        {0, "rotation", "STEP", 3, T3, ortho},
        {1, "rotation", "CUBICSPLINE", 2, (const float[]){0, 1}, cubic},
        {2, "rotation", "CUBICSPLINE", 2, (const float[]){0, 1}, cubic_same},
    };
    const tclip clips[] = {{"flips", tracks, 5}};
    run_t r;
    lint_built(&r, clips, 1, NULL);
    assert_complete(&r);
    assert_int_equal(findings_of(&r, "quat-flip"), 3);
    assert_finding(test_support_finding(&r.file, "quat-flip", 0), "quat-flip", ANIM_SEVERITY_WARNING, "flips",
                   "spine", 0.25, 1.0, NONE,
                   "1 hemisphere flip(s) between adjacent rotation keys (first between keys 0 "
                   "and 1) " EM " engines without neighborhood correction will spin the long way");
    assert_finding(test_support_finding(&r.file, "quat-flip", 1), "quat-flip", ANIM_SEVERITY_WARNING, "flips",
                   "arm", 0.75, 2.0, NONE,
                   "2 hemisphere flip(s) between adjacent rotation keys (first between keys 2 "
                   "and 3) " EM " engines without neighborhood correction will spin the long way");
    assert_finding(test_support_finding(&r.file, "quat-flip", 2), "quat-flip", ANIM_SEVERITY_WARNING, "flips",
                   "spine", 1.0, 1.0, NONE,
                   "1 hemisphere flip(s) between adjacent rotation keys (first between keys 0 "
                   "and 1) " EM " engines without neighborhood correction will spin the long way");
    /* The NaN key is nan's business, not quat-norm's. */
    assert_int_equal(findings_of(&r, "quat-norm"), 0);
    assert_int_equal(findings_of(&r, "nan"), 1);
    run_free(&r);
}

/* Severity overrides apply to every finding of the check. */
static void test_severity_override(void **state)
{
    (void)state;
    anim_config *cfg = test_support_config_default();
    anim_check_config *cc = anim_arena_calloc(cfg->arena, 1, sizeof *cc);
    assert_non_null(cc);
    cc->id = "quat-flip";
    cc->severity = ANIM_SEVERITY_NOTE;
    cfg->checks = cc;
    cfg->check_count = 1;
    anim_error err;
    run_t r;
    memset(&r, 0, sizeof r);
    r.cfg = cfg;
    r.asset = anim_asset_load("examples/assets/clip-dirty.glb", NULL, &err);
    assert_non_null(r.asset);
    test_support_lint(r.asset, r.cfg, track_ids, TRACK_ID_COUNT, &r.file);
    assert_int_equal(test_support_finding(&r.file, "quat-flip", 0)->severity, ANIM_SEVERITY_NOTE);
    assert_int_equal(test_support_finding(&r.file, "quat-norm", 0)->severity, ANIM_SEVERITY_ERROR);
    anim_lint_file_free(&r.file);

    /* severity = "off" disables; --select of one id leaves the rest
     * unselected and not evaluated. */
    cc->severity = ANIM_SEVERITY_OFF;
    static const char *const only[] = {"quat-norm"};
    test_support_lint(r.asset, r.cfg, only, 1, &r.file);
    const anim_check_record *flip = test_support_record(&r.file, "quat-flip");
    assert_false(flip->selected);
    assert_int_equal(flip->evaluation, ANIM_EVAL_NOT_EVALUATED);
    assert_int_equal(flip->finding_count, 0);
    assert_int_equal(test_support_record(&r.file, "quat-norm")->evaluation, ANIM_EVAL_COMPLETE);
    assert_int_equal(test_support_record(&r.file, "quat-norm")->finding_count, 1);
    anim_lint_file_free(&r.file);
    test_support_lint(r.asset, r.cfg, track_ids, TRACK_ID_COUNT, &r.file);
    flip = test_support_record(&r.file, "quat-flip");
    assert_true(flip->selected);
    assert_false(flip->enabled);
    assert_int_equal(flip->evaluation, ANIM_EVAL_NOT_EVALUATED);
    assert_int_equal(flip->finding_count, 0);
    run_free(&r);
}

/* ---- duration-sanity -------------------------------------------------- */

static void test_duration_empty_clip(void **state)
{
    (void)state;
    const tclip clips[] = {{"empty", NULL, 0}};
    run_t r;
    lint_built(&r, clips, 1, NULL);
    assert_complete(&r);
    /* Without a pin: only the warning (the degenerate duration is implied). */
    assert_int_equal(findings_of(&r, "duration-sanity"), 1);
    assert_finding(test_support_finding(&r.file, "duration-sanity", 0), "duration-sanity", ANIM_SEVERITY_WARNING,
                   "empty", NULL, NO_TIME, NONE, NONE, "clip has no tracks");
    run_free(&r);

    /* With a valid pin: the warning, then the degenerate duration against
     * the pin. */
    anim_config *cfg = test_support_config_default();
    pin_duration(cfg, "emp*", 1.0, 0.02);
    lint_built(&r, clips, 1, cfg);
    assert_complete(&r);
    assert_int_equal(findings_of(&r, "duration-sanity"), 2);
    assert_finding(test_support_finding(&r.file, "duration-sanity", 0), "duration-sanity", ANIM_SEVERITY_WARNING,
                   "empty", NULL, NO_TIME, NONE, NONE, "clip has no tracks");
    assert_finding(test_support_finding(&r.file, "duration-sanity", 1), "duration-sanity", ANIM_SEVERITY_ERROR,
                   "empty", NULL, NO_TIME, 0.0, 1.0, "degenerate clip duration (0s)");
    run_free(&r);

    /* With an invalid pin: the pin error, the warning, then nothing. */
    cfg = test_support_config_default();
    pin_duration(cfg, "empty", -1.0, NAN);
    lint_built(&r, clips, 1, cfg);
    assert_complete(&r);
    assert_int_equal(findings_of(&r, "duration-sanity"), 2);
    assert_finding(test_support_finding(&r.file, "duration-sanity", 0), "duration-sanity", ANIM_SEVERITY_ERROR,
                   "empty", NULL, NO_TIME, 0.0, NONE,
                   "invalid declared duration pin (value -1s, tolerance NaNs) " EM
                   " value must be finite and positive, and tolerance must be finite and "
                   "non-negative");
    assert_finding(test_support_finding(&r.file, "duration-sanity", 1), "duration-sanity", ANIM_SEVERITY_WARNING,
                   "empty", NULL, NO_TIME, NONE, NONE, "clip has no tracks");
    run_free(&r);
}

static void test_duration_degenerate(void **state)
{
    (void)state;
    /* A single key at 0, and all-negative times: duration 0 either way. */
    static const float t1[] = {0.0f};
    static const float tneg[] = {-2.0f, -1.0f};
    static const float q1[] = {0, 0, 0, 1};
    static const float v2[] = {0, 0, 0, 0, 0, 0};
    const ttrack a[] = {{1, "rotation", "LINEAR", 1, t1, q1}};
    const ttrack b[] = {{2, "translation", "LINEAR", 2, tneg, v2}};
    const tclip clips[] = {{"single", a, 1}, {"negative", b, 1}};
    anim_config *cfg = test_support_config_default();
    pin_duration(cfg, "negative", 0.5, 0.0);
    run_t r;
    lint_built(&r, clips, 2, cfg);
    assert_complete(&r);
    assert_int_equal(findings_of(&r, "duration-sanity"), 2);
    assert_finding(test_support_finding(&r.file, "duration-sanity", 0), "duration-sanity", ANIM_SEVERITY_ERROR,
                   "single", NULL, NO_TIME, 0.0, NONE, "degenerate clip duration (0s)");
    /* The degenerate clip stops there: its end spread is not examined. */
    assert_finding(test_support_finding(&r.file, "duration-sanity", 1), "duration-sanity", ANIM_SEVERITY_ERROR,
                   "negative", NULL, NO_TIME, 0.0, 0.5, "degenerate clip duration (0s)");
    assert_int_equal(findings_of(&r, "time-monotonic"), 1);
    assert_finding(test_support_finding(&r.file, "time-monotonic", 0), "time-monotonic", ANIM_SEVERITY_ERROR,
                   "negative", "arm", -2.0, -2.0, NONE, "negative key time in translation track");
    run_free(&r);
}

static void test_duration_pins(void **state)
{
    (void)state;
    static const float t_long[] = {0.0f, 0.5f, 1.0f};
    static const float t_short[] = {0.0f, 0.25f, 0.5f};
    static const float t_one[] = {0.25f};
    static const float q1[] = {0, 0, 0, 1};
    /* Channels end at 1.0 and 0.5; a single-key track at 0.25 does not
     * count toward the spread. */
    const ttrack tracks[] = {
        {1, "translation", "LINEAR", 3, t_long, V3x3},
        {2, "rotation", "LINEAR", 3, t_short, ID3},
        {0, "rotation", "STEP", 1, t_one, q1},
    };
    const tclip clips[] = {{"walk", tracks, 3}};

    /* Passing pin (|1.0 - 1.01| <= 0.02): only the spread warning. */
    anim_config *cfg = test_support_config_default();
    pin_duration(cfg, "walk", 1.01, 0.02);
    run_t r;
    lint_built(&r, clips, 1, cfg);
    assert_complete(&r);
    assert_int_equal(findings_of(&r, "duration-sanity"), 1);
    assert_finding(test_support_finding(&r.file, "duration-sanity", 0), "duration-sanity", ANIM_SEVERITY_WARNING,
                   "walk", NULL, NO_TIME, 0.5, 0.0,
                   "channels end at different times (0.500s..1.000s) " EM
                   " shorter channels will be clamp-held");
    run_free(&r);

    /* Exactly at the tolerance passes (strict >). */
    cfg = test_support_config_default();
    pin_duration(cfg, "walk", 1.5, 0.5);
    lint_built(&r, clips, 1, cfg);
    assert_int_equal(findings_of(&r, "duration-sanity"), 1);
    run_free(&r);

    /* Failing pin: the miss, then the spread. */
    cfg = test_support_config_default();
    pin_duration(cfg, "w*", 1.2, 0.05);
    lint_built(&r, clips, 1, cfg);
    assert_complete(&r);
    assert_int_equal(findings_of(&r, "duration-sanity"), 2);
    assert_finding(test_support_finding(&r.file, "duration-sanity", 0), "duration-sanity", ANIM_SEVERITY_ERROR,
                   "walk", NULL, NO_TIME, 1.0, 1.2,
                   "measured duration 1.0000s disagrees with the declared 1.2000 \xc2\xb1 "
                   "0.0500s " EM " the clip may have been sliced or exported with a dropped frame");
    assert_int_equal(test_support_finding(&r.file, "duration-sanity", 1)->severity, ANIM_SEVERITY_WARNING);
    run_free(&r);

    /* Invalid pin on a clip with tracks: reported, then evaluated as if
     * unpinned (no miss, the spread still warns). */
    cfg = test_support_config_default();
    pin_duration(cfg, "walk", INFINITY, -0.5);
    lint_built(&r, clips, 1, cfg);
    assert_int_equal(findings_of(&r, "duration-sanity"), 2);
    assert_finding(test_support_finding(&r.file, "duration-sanity", 0), "duration-sanity", ANIM_SEVERITY_ERROR,
                   "walk", NULL, NO_TIME, 1.0, NONE,
                   "invalid declared duration pin (value infs, tolerance -0.5s) " EM
                   " value must be finite and positive, and tolerance must be finite and "
                   "non-negative");
    assert_int_equal(test_support_finding(&r.file, "duration-sanity", 1)->severity, ANIM_SEVERITY_WARNING);
    run_free(&r);

    /* A zero value is invalid too; plain display of 1e-7 has no exponent. */
    cfg = test_support_config_default();
    pin_duration(cfg, "walk", 0.0, 1e-7);
    lint_built(&r, clips, 1, cfg);
    assert_string_equal(test_support_finding(&r.file, "duration-sanity", 0)->message,
                        "invalid declared duration pin (value 0s, tolerance 0.0000001s) " EM
                        " value must be finite and positive, and tolerance must be finite and "
                        "non-negative");
    run_free(&r);

    /* A pin on another clip does not apply. */
    cfg = test_support_config_default();
    pin_duration(cfg, "run", 5.0, 0.0);
    lint_built(&r, clips, 1, cfg);
    assert_int_equal(findings_of(&r, "duration-sanity"), 1);
    run_free(&r);
}

/* A key time of 1e30 s: one error from the upper bound, in exponent form,
 * and nothing else about the clip (its pin and end spread would only
 * print 31-digit numbers). */
static void test_duration_huge(void **state)
{
    (void)state;
    static const float t[] = {0.0f, 1e30f};
    static const float t_short[] = {0.0f, 1.0f};
    static const float v2[] = {0, 0, 0, 1, 1, 1};
    const ttrack tracks[] = {
        {1, "translation", "LINEAR", 2, t, v2},
        {2, "translation", "LINEAR", 2, t_short, v2},
    };
    const tclip clips[] = {{"huge", tracks, 2}};
    anim_config *cfg = test_support_config_default();
    pin_duration(cfg, "huge", 1.0, 0.0);
    run_t r;
    lint_built(&r, clips, 1, cfg);
    assert_complete(&r);
    assert_int_equal(findings_of(&r, "duration-sanity"), 1);
    assert_finding(test_support_finding(&r.file, "duration-sanity", 0), "duration-sanity",
                   ANIM_SEVERITY_ERROR, "huge", NULL, NO_TIME, (double)1e30f, 86400.0,
                   "clip duration 1e+30s is above the 86400s bound " EM
                   " key times this large are corrupt or in the wrong unit");
    run_free(&r);
}

/* The bound is 24 h: a day-long clip passes, a key just past it fails. */
static void test_duration_upper_bound(void **state)
{
    (void)state;
    static const float day[] = {0.0f, 86400.0f};
    static const float past[] = {0.0f, 86408.0f}; /* the next f32 values are 8 s apart */
    static const float v2[] = {0, 0, 0, 1, 1, 1};
    const ttrack at[] = {{1, "translation", "LINEAR", 2, day, v2}};
    const ttrack over[] = {{1, "translation", "LINEAR", 2, past, v2}};
    const tclip clips[] = {{"day", at, 1}, {"over", over, 1}};
    anim_config *cfg = test_support_config_default();
    run_t r;
    lint_built(&r, clips, 2, cfg);
    assert_complete(&r);
    assert_int_equal(findings_of(&r, "duration-sanity"), 1);
    assert_finding(test_support_finding(&r.file, "duration-sanity", 0), "duration-sanity",
                   ANIM_SEVERITY_ERROR, "over", NULL, NO_TIME, 86408.0, 86400.0,
                   "clip duration 86408s is above the 86400s bound " EM
                   " key times this large are corrupt or in the wrong unit");
    run_free(&r);
}

/* The spread is an f32 difference compared with the f32 constant 0.017. */
static void test_duration_spread_threshold(void **state)
{
    (void)state;
    static const float t_a[] = {0.0f, 1.0f};
    static const float t_b[] = {0.0f, 1.0f - 0.017f};
    static const float t_c[] = {0.0f, 0.98f};
    static const float v2[] = {0, 0, 0, 1, 1, 1};
    const ttrack ok[] = {{1, "translation", "LINEAR", 2, t_a, v2},
                         {2, "scale", "LINEAR", 2, t_b, v2}};
    const ttrack bad[] = {{1, "translation", "LINEAR", 2, t_a, v2},
                          {2, "scale", "LINEAR", 2, t_c, v2}};
    const tclip clips[] = {{"ok", ok, 2}, {"bad", bad, 2}};
    run_t r;
    lint_built(&r, clips, 2, NULL);
    assert_complete(&r);
    float spread_ok = 1.0f - (1.0f - 0.017f);
    /* Whether the first clip warns depends on f32 rounding only. */
    uint32_t want = spread_ok > 0.017f ? 2 : 1;
    assert_int_equal(findings_of(&r, "duration-sanity"), want);
    const anim_finding *f = test_support_finding(&r.file, "duration-sanity", want - 1);
    assert_string_equal(f->clip, "bad");
    assert_true(f->measured.number == (double)(1.0f - 0.98f));
    assert_string_equal(f->message, "channels end at different times (0.980s..1.000s) " EM
                                    " shorter channels will be clamp-held");
    run_free(&r);
}

/* Several clips, several tracks: findings follow clip order, then track
 * order, and every finding names its own clip and bone. */
static void test_visit_order(void **state)
{
    (void)state;
    static const float bad_q[] = {0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1};
    const ttrack a[] = {{2, "rotation", "LINEAR", 3, T3, bad_q},
                        {1, "rotation", "LINEAR", 3, T3, bad_q}};
    const ttrack b[] = {{0, "rotation", "LINEAR", 3, T3, bad_q}};
    const tclip clips[] = {{"b_second_name", a, 2}, {"a_first_name", b, 1}};
    run_t r;
    lint_built(&r, clips, 2, NULL);
    assert_int_equal(findings_of(&r, "quat-norm"), 3);
    assert_string_equal(test_support_finding(&r.file, "quat-norm", 0)->clip, "b_second_name");
    assert_string_equal(test_support_finding(&r.file, "quat-norm", 0)->bone, "arm");
    assert_string_equal(test_support_finding(&r.file, "quat-norm", 1)->bone, "spine");
    assert_string_equal(test_support_finding(&r.file, "quat-norm", 2)->clip, "a_first_name");
    assert_string_equal(test_support_finding(&r.file, "quat-norm", 2)->bone, "root");
    assert_finding(test_support_finding(&r.file, "quat-norm", 2), "quat-norm", ANIM_SEVERITY_ERROR, "a_first_name",
                   "root", 0.0, 2.0, 1.0, "non-unit rotation key (worst at key 0)");
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clip_clean),
        cmocka_unit_test(test_clip_dirty),
        cmocka_unit_test(test_walk_assets),
        cmocka_unit_test(test_walk_short_channel),
        cmocka_unit_test(test_nan),
        cmocka_unit_test(test_nan_time_and_value_same_track),
        cmocka_unit_test(test_time_monotonic),
        cmocka_unit_test(test_quat_norm),
        cmocka_unit_test(test_quat_flip),
        cmocka_unit_test(test_severity_override),
        cmocka_unit_test(test_duration_empty_clip),
        cmocka_unit_test(test_duration_degenerate),
        cmocka_unit_test(test_duration_pins),
        cmocka_unit_test(test_duration_huge),
        cmocka_unit_test(test_duration_upper_bound),
        cmocka_unit_test(test_duration_spread_threshold),
        cmocka_unit_test(test_visit_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
