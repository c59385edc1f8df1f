/* The scale checks, constant-track and bind-pose:
 * the documented transcripts on the example assets, and small documents built
 * here as .gltf text with a base64 data-URI buffer that pin every
 * message, severity, field, gap, scope and evaluation state. */
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

#define EM "\xe2\x80\x94"
#define DEG "\xc2\xb0"

static const char *const MY_CHECKS[] = {"scale-keys", "non-uniform-scale",
                                        "constant-nonunit-scale", "constant-track", "bind-pose"};

/* ---- building documents ---------------------------------------------- */

typedef struct {
    const char *name;
    int parent;   /* -1 for roots; parents precede children */
    float r[4];   /* rest rotation xyzw; all zero means identity */
} tnode;

typedef struct {
    int node;
    const char *path;   /* "translation", "rotation", "scale" */
    const char *interp; /* NULL: LINEAR */
    uint32_t keys;
    const float *times;
    const float *values; /* keys * (cubic ? 3 : 1) elements */
} tchan;

typedef struct {
    const char *name;
    const tchan *chans;
    int count;
} tclip;

/* Every channel gets its own times and values accessors, in channel
 * order; identity rest rotations are written out as (0, 0, 0, 1). */
static anim_asset *build(const tnode *nodes, int node_count, const tclip *clips, int clip_count)
{
    test_support_gltf *g = test_support_gltf_new();
    for (int n = 0; n < node_count; n++) {
        const float *r = nodes[n].r;
        bool ident = r[0] == 0 && r[1] == 0 && r[2] == 0 && r[3] == 0;
        test_support_node node = {nodes[n].name, nodes[n].parent, TEST_SUPPORT_R, {0},
                                  {r[0], r[1], r[2], ident ? 1.0 : r[3]}, {0}};
        test_support_gltf_node(g, &node);
    }
    for (int c = 0; c < clip_count; c++) {
        test_support_gltf_animation(g, clips[c].name);
        for (int i = 0; i < clips[c].count; i++) {
            const tchan *ch = &clips[c].chans[i];
            test_support_gltf_track(g, ch->node, ch->path, ch->interp ? ch->interp : "LINEAR",
                                    ch->keys, ch->times, ch->values, 0);
        }
    }
    anim_asset *a = test_support_gltf_load(g, "t.gltf");
    test_support_gltf_free(g);
    return a;
}

/* One clip 'c' over a flat rig of nodes a, b, c, d (identity rest). */
static const tnode FLAT[] = {
    {"a", -1, {0}}, {"b", -1, {0}}, {"c", -1, {0}}, {"d", -1, {0}}};

static anim_asset *build_one(const tchan *chans, int count)
{
    tclip clip = {"c", chans, count};
    return build(FLAT, 4, &clip, 1);
}

/* ---- running the lint ------------------------------------------------ */

static anim_config *config_new(void)
{
    anim_error err;
    anim_config *cfg = anim_config_default(&err);
    assert_non_null(cfg);
    cfg->checks = anim_arena_calloc(cfg->arena, 8, sizeof *cfg->checks);
    assert_non_null(cfg->checks);
    return cfg;
}

static anim_check_config *config_check(anim_config *cfg, const char *id, anim_severity sev)
{
    anim_check_config *cc = &cfg->checks[cfg->check_count++];
    cc->id = id;
    cc->severity = sev;
    return cc;
}

static void lint(const anim_asset *a, const anim_config *cfg, anim_lint_file *out)
{
    test_support_lint(a, cfg, MY_CHECKS, sizeof MY_CHECKS / sizeof *MY_CHECKS, out);
}

/* Lints with the default contract (or cfg) and returns one record; the
 * file stays alive in *file. */
static const anim_check_record *lint_record(const anim_asset *a, const anim_config *cfg,
                                            const char *id, anim_lint_file *file)
{
    anim_config *own = NULL;
    if (!cfg)
        cfg = own = config_new();
    lint(a, cfg, file);
    if (own)
        anim_config_free(own);
    return test_support_record(file, id);
}

static void assert_complete(const anim_check_record *r, uint32_t findings)
{
    assert_true(r->selected);
    assert_true(r->enabled);
    assert_true(r->applicable);
    assert_int_equal(r->evaluation, ANIM_EVAL_COMPLETE);
    assert_int_equal(r->gap_count, 0);
    assert_int_equal(r->finding_count, findings);
}

static void assert_finding(const anim_finding *f, anim_severity sev, const char *clip,
                           const char *bone, const char *message)
{
    assert_int_equal(f->severity, sev);
    assert_string_equal(f->clip, clip);
    if (bone)
        assert_string_equal(f->bone, bone);
    else
        assert_null(f->bone);
    assert_null(f->node);
    assert_string_equal(f->message, message);
    assert_null(f->members);
}

static void assert_no_values(const anim_finding *f)
{
    assert_int_equal(f->measured.kind, ANIM_VALUE_NONE);
    assert_int_equal(f->expected.kind, ANIM_VALUE_NONE);
}

static void assert_near(double a, double b, double eps)
{
    if (!(fabs(a - b) <= eps))
        fail_msg("%.17g != %.17g (eps %g)", a, b, eps);
}

#define SCALE_MSG                                                                                  \
    "scale animation present " EM " verify it is intentional; many rigs and retargeters "        \
    "mishandle animated scale"
#define NON_UNIFORM_MSG                                                                            \
    "non-uniform scale present " EM " verify it is intentional; many rigs and retargeters "      \
    "mishandle non-uniform scale"

/* ---- the example assets ---------------------------------------------- */

static void assert_bind_gap(const anim_check_record *r, uint32_t index, const char *clip,
                            unsigned count)
{
    char msg[160];
    snprintf(msg, sizeof msg,
             "only %u usable first-frame rotation track(s); at least three are required", count);
    assert_true(index < r->gap_count);
    const anim_gap *g = &r->gaps[index];
    assert_string_equal(g->code, "insufficient_rotation_evidence");
    assert_string_equal(g->message, msg);
    assert_true(g->has_scope);
    assert_string_equal(g->scope.code, "first_frame_rest_delta");
    assert_string_equal(g->scope.subject, clip);
}

/* The symptom "The file is bloated, or the retargeter chokes". */
static void test_walk_scaled(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk-scaled.glb");
    anim_lint_file file;
    anim_config *cfg = config_new();
    lint(a, cfg, &file);

    const anim_check_record *r = test_support_record(&file, "scale-keys");
    assert_complete(r, 1);
    assert_finding(&r->findings[0], ANIM_SEVERITY_WARNING, "walk_scaled", "pelvis", SCALE_MSG);
    assert_false(r->findings[0].has_time);
    assert_no_values(&r->findings[0]);

    r = test_support_record(&file, "non-uniform-scale");
    assert_complete(r, 1);
    assert_finding(&r->findings[0], ANIM_SEVERITY_WARNING, "walk_scaled", "pelvis",
                   NON_UNIFORM_MSG);
    assert_true(r->findings[0].has_time);
    assert_true(r->findings[0].time_s == 0.5);
    assert_no_values(&r->findings[0]);

    r = test_support_record(&file, "constant-nonunit-scale"); /* opt-in: recorded, not run */
    assert_true(r->selected);
    assert_false(r->enabled);
    assert_true(r->applicable);
    assert_int_equal(r->evaluation, ANIM_EVAL_NOT_EVALUATED);
    assert_int_equal(r->finding_count + r->gap_count + r->scope_count, 0);

    r = test_support_record(&file, "constant-track");
    assert_complete(r, 1);
    assert_finding(&r->findings[0], ANIM_SEVERITY_NOTE, "walk_scaled", "weapon_socket",
                   "translation track has 5 keys but never moves " EM " export bloat");
    assert_false(r->findings[0].has_time);
    assert_no_values(&r->findings[0]);

    r = test_support_record(&file, "bind-pose");
    assert_int_equal(r->evaluation, ANIM_EVAL_NOT_EVALUATED);
    assert_int_equal(r->finding_count, 0);
    assert_int_equal(r->scope_count, 0);
    assert_int_equal(r->gap_count, 1);
    assert_bind_gap(r, 0, "walk_scaled", 0);
    anim_lint_file_free(&file);

    /* The page's contract opts into constant-nonunit-scale: the pelvis
     * scale moves, so it stays quiet. */
    config_check(cfg, "constant-nonunit-scale", ANIM_SEVERITY_NOTE);
    lint(a, cfg, &file);
    r = test_support_record(&file, "constant-nonunit-scale");
    assert_complete(r, 0);
    assert_int_equal(test_support_record(&file, "scale-keys")->finding_count, 1);
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* The same run under the shipped contract (examples/walk-scaled.animsmith.toml):
 * the opted-in constant-nonunit-scale evaluates and stays quiet. */
static void test_walk_scaled_contract(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/examples/walk-scaled.animsmith.toml", test_support_source_dir());
    anim_error err;
    anim_error_clear(&err);
    anim_config *cfg = anim_config_load(path, &err);
    if (!cfg)
        fail_msg("cannot load %s: %s", path, err.message);
    anim_asset *a = test_support_load_example("walk-scaled.glb");
    anim_lint_file file;
    lint(a, cfg, &file);
    assert_complete(test_support_record(&file, "constant-nonunit-scale"), 0);
    const anim_check_record *r = test_support_record(&file, "scale-keys");
    assert_complete(r, 1);
    assert_finding(&r->findings[0], ANIM_SEVERITY_WARNING, "walk_scaled", "pelvis", SCALE_MSG);
    r = test_support_record(&file, "non-uniform-scale");
    assert_complete(r, 1);
    assert_true(r->findings[0].time_s == 0.5);
    r = test_support_record(&file, "constant-track");
    assert_complete(r, 1);
    assert_string_equal(r->findings[0].bone, "weapon_socket");
    r = test_support_record(&file, "bind-pose");
    assert_int_equal(r->gap_count, 1);
    assert_bind_gap(r, 0, "walk_scaled", 0);
    anim_lint_file_free(&file);
    anim_asset_free(a);
    anim_config_free(cfg);
}

/* The example assets' documented lint results and their bind-pose
 * coverage lines. */
static void test_example_assets(void **state)
{
    (void)state;
    static const struct {
        const char *file, *clip;
        unsigned usable;
    } cases[] = {{"clip.glb", "swing", 1},
                 {"clip-dirty.glb", "swing", 1},
                 {"walk.glb", "walk", 0},
                 {"walk-dirty.glb", "walk", 0},
                 {"walk-short-channel.glb", "walk_short_channel", 1},
                 {"walk-travel.glb", "walk_travel", 0}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        anim_asset *a = test_support_load_example(cases[i].file);
        anim_lint_file file;
        const anim_check_record *r = lint_record(a, NULL, "bind-pose", &file);
        assert_int_equal(r->gap_count, 1);
        assert_int_equal(r->evaluation, ANIM_EVAL_NOT_EVALUATED);
        assert_bind_gap(r, 0, cases[i].clip, cases[i].usable);
        assert_complete(test_support_record(&file, "scale-keys"), 0);
        assert_complete(test_support_record(&file, "non-uniform-scale"), 0);
        assert_complete(test_support_record(&file, "constant-track"), 0);
        anim_lint_file_free(&file);
        anim_asset_free(a);
    }
}

static void test_run_ring_and_frozen_arm(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("run-ring.glb");
    anim_lint_file file;
    const anim_check_record *r = lint_record(a, NULL, "bind-pose", &file);
    static const char *const clips[] = {"run_forward", "run_backward", "run_left", "run_right"};
    assert_int_equal(r->gap_count, 4);
    for (uint32_t i = 0; i < 4; i++) {
        /* gaps follow clip order in the document */
        assert_bind_gap(r, i, a->doc.clips[i].name, 0);
        bool known = false;
        for (int k = 0; k < 4; k++)
            known = known || strcmp(a->doc.clips[i].name, clips[k]) == 0;
        assert_true(known);
    }
    anim_lint_file_free(&file);
    anim_asset_free(a);

    a = test_support_load_example("walk-frozen-arm.glb");
    r = lint_record(a, NULL, "constant-track", &file);
    assert_complete(r, 1);
    assert_finding(&r->findings[0], ANIM_SEVERITY_NOTE, "walk_frozen_arm", "arm_l",
                   "rotation track has 5 keys but never moves " EM " export bloat");
    assert_bind_gap(test_support_record(&file, "bind-pose"), 0, "walk_frozen_arm", 1);
    anim_lint_file_free(&file);
    anim_asset_free(a);
}

/* ---- scale-keys, non-uniform-scale ----------------------------------- */

static const float T2[] = {0.0f, 1.0f};
static const float T3[] = {0.0f, 0.5f, 1.0f};
static const float T0[] = {0.25f};

static void test_scale_keys(void **state)
{
    (void)state;
    static const float unit[] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    static const float grow[] = {1, 1, 1, 2, 2, 2, 1, 1, 1};
    static const float below[] = {1, 1, 1, 1, 1, 1.00009f};     /* moves 9e-5 */
    static const float above[] = {1, 1, 1, 1, 1, 1.00011f};     /* moves 1.1e-4 */
    static const float step[] = {1, 1, 1, 1.5f, 1.5f, 1.5f};
    static const float moving_t[] = {0, 0, 0, 1, 2, 3};
    const tchan chans[] = {
        {0, "scale", NULL, 3, T3, unit},       {1, "scale", NULL, 3, T3, grow},
        {2, "scale", NULL, 2, T2, below},      {3, "scale", NULL, 2, T2, above},
        {0, "scale", "STEP", 2, T2, step},     {1, "translation", NULL, 2, T2, moving_t},
    };
    anim_asset *a = build_one(chans, 6);
    anim_lint_file file;
    const anim_check_record *r = lint_record(a, NULL, "scale-keys", &file);
    assert_complete(r, 3);
    assert_finding(&r->findings[0], ANIM_SEVERITY_WARNING, "c", "b", SCALE_MSG);
    assert_finding(&r->findings[1], ANIM_SEVERITY_WARNING, "c", "d", SCALE_MSG);
    assert_finding(&r->findings[2], ANIM_SEVERITY_WARNING, "c", "a", SCALE_MSG);
    for (int i = 0; i < 3; i++) {
        assert_false(r->findings[i].has_time);
        assert_no_values(&r->findings[i]);
    }
    /* uniform growth is not non-uniform; 1.00011 vs 1 is */
    r = test_support_record(&file, "non-uniform-scale");
    assert_complete(r, 1);
    assert_finding(&r->findings[0], ANIM_SEVERITY_WARNING, "c", "d", NON_UNIFORM_MSG);
    assert_true(r->findings[0].time_s == 1.0);
    anim_lint_file_free(&file);
    anim_asset_free(a);
}

static void test_non_uniform_spread(void **state)
{
    (void)state;
    /* Absolute pairwise spreads around 1e-4; the first maximum keeps its
     * time; a single key counts. */
    static const float s_below[] = {1, 1.00009f, 1, 1, 1.00009f, 1};
    static const float s_above[] = {1, 1, 1, 1.00011f, 1, 1};
    static const float s_first[] = {1, 1, 1, 1, 2, 1, 1, 1, 2};
    static const float s_single[] = {0.5f, 0.5f, 0.75f};
    /* exactly 1e-4 apart in f32: not greater than the f32 tolerance */
    static const float s_exact[] = {0.0001f, 0, 0, 0.0001f, 0, 0};
    static const float s_big[] = {2, 2, 2, 2, 2, 3.5f};
    const tchan chans[] = {
        {0, "scale", NULL, 2, T2, s_below},  {1, "scale", NULL, 2, T2, s_above},
        {2, "scale", NULL, 3, T3, s_first},  {3, "scale", NULL, 1, T0, s_single},
        {0, "scale", NULL, 2, T2, s_exact},  {1, "scale", NULL, 2, T2, s_big},
    };
    anim_asset *a = build_one(chans, 6);
    anim_lint_file file;
    const anim_check_record *r = lint_record(a, NULL, "non-uniform-scale", &file);
    assert_complete(r, 4);
    static const struct {
        const char *bone;
        double t;
    } want[] = {{"b", 1.0}, {"c", 0.5}, {"d", 0.25}, {"b", 1.0}};
    for (int i = 0; i < 4; i++) {
        assert_finding(&r->findings[i], ANIM_SEVERITY_WARNING, "c", want[i].bone,
                       NON_UNIFORM_MSG);
        assert_true(r->findings[i].has_time);
        assert_true(r->findings[i].time_s == (double)(float)want[i].t);
        assert_no_values(&r->findings[i]);
    }
    anim_lint_file_free(&file);
    anim_asset_free(a);
}

/* CUBICSPLINE: tangents make motion between equal keys, found at the
 * derivative's roots. */
static void test_cubic_excursion(void **state)
{
    (void)state;
    /* y(u) = -u² + u + 1 between keys of 1: peak 1.25 at u = 0.5 */
    static const float bump[] = {0, 0, 0, 1, 1, 1, 0, 1, 0, 0, -1, 0, 1, 1, 1, 0, 0, 0};
    /* y(u) = 3u³ - 5u² + 2u + 1: the larger extremum at u = (10 - √28)/18 */
    static const float wave[] = {0, 0, 0, 1, 1, 1, 0, 2, 0, 0, 1, 0, 1, 1, 1, 0, 0, 0};
    /* zero tangents: constant */
    static const float flat[] = {0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0};
    static const float t2[] = {0.0f, 2.0f};
    const tchan chans[] = {
        {0, "scale", "CUBICSPLINE", 2, T2, bump},
        {1, "scale", "CUBICSPLINE", 2, T2, wave},
        {2, "scale", "CUBICSPLINE", 2, t2, flat},
        {3, "translation", "CUBICSPLINE", 2, t2, bump},
    };
    anim_asset *a = build_one(chans, 4);
    anim_lint_file file;
    const anim_check_record *r = lint_record(a, NULL, "non-uniform-scale", &file);
    assert_complete(r, 2);
    assert_string_equal(r->findings[0].bone, "a");
    assert_true(r->findings[0].time_s == 0.5);
    assert_string_equal(r->findings[1].bone, "b");
    assert_true(r->findings[1].time_s == (double)(float)((10.0 - sqrt(28.0)) / 18.0));
    r = test_support_record(&file, "scale-keys");
    assert_complete(r, 2);
    assert_string_equal(r->findings[0].bone, "a");
    assert_string_equal(r->findings[1].bone, "b");
    /* only the zero-tangent track is constant; the translation bumps */
    r = test_support_record(&file, "constant-track");
    assert_complete(r, 1);
    assert_finding(&r->findings[0], ANIM_SEVERITY_NOTE, "c", "c",
                   "scale track has 2 keys but never moves " EM " export bloat");
    anim_lint_file_free(&file);
    anim_asset_free(a);
}

/* Tracks the analysis ignores: non-increasing times, non-finite values. */
static void test_analysis_refusals(void **state)
{
    (void)state;
    static const float t_dup[] = {0.0f, 0.0f};
    static const float grow[] = {1, 1, 1, 2, 3, 4};
    static float nan_vals[] = {1, 1, 1, 0, 2, 2};
    nan_vals[3] = NAN;
    const tchan chans[] = {
        {0, "scale", NULL, 2, t_dup, grow},
        {1, "scale", NULL, 2, T2, nan_vals},
        {2, "translation", NULL, 2, t_dup, grow},
    };
    anim_asset *a = build_one(chans, 3);
    anim_lint_file file;
    lint_record(a, NULL, "scale-keys", &file);
    assert_complete(test_support_record(&file, "scale-keys"), 0);
    assert_complete(test_support_record(&file, "non-uniform-scale"), 0);
    assert_complete(test_support_record(&file, "constant-track"), 0);
    anim_lint_file_free(&file);
    anim_asset_free(a);
}

/* ---- constant-track -------------------------------------------------- */

static void test_constant_track(void **state)
{
    (void)state;
    static const float t_still[] = {0.1f, 0.2f, 0.3f, 0.1f, 0.2f, 0.3f, 0.1f, 0.2f, 0.3f};
    static const float t_moves[] = {0.1f, 0.2f, 0.3f, 0.1f, 0.2f, 0.30011f};
    static const float t_small[] = {0.1f, 0.2f, 0.3f, 0.1f, 0.2f, 0.30009f};
    static const float t_single[] = {5, 5, 5};
    const float h = (float)sin(0.5e-3 / 2), hc = (float)cos(0.5e-3 / 2);
    const float g = (float)sin(2e-3 / 2), gc = (float)cos(2e-3 / 2);
    const float q_sign[] = {0, 0, 0.6f, 0.8f, 0, 0, -0.6f, -0.8f}; /* q and -q */
    const float q_near[] = {0, 0, 0, 1, h, 0, 0, hc, 0, 0, 0, 1};   /* 0.5 mrad */
    const float q_far[] = {0, 0, 0, 1, g, 0, 0, gc};                 /* 2 mrad */
    const float q_zero[] = {0, 0, 0, 0, 0, 0, 0, 0};
    const float q_cubic[] = {0, 0, 0, 0, 0, 0, 0, 1, -0.0f, 0, 0, 0,
                             0, 0, 0, 0, 0, 0, 0, 1, 0,     0, 0, 0};
    const float q_cubic_tan[] = {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1e-7f, 0,
                                 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,     0};
    static const float s_still[] = {2, 2, 2, 2, 2, 2};
    const tchan chans[] = {
        {0, "translation", NULL, 3, T3, t_still},        /* 0: note, 3 keys */
        {1, "translation", "STEP", 2, T2, t_moves},      /* moves */
        {2, "translation", NULL, 2, T2, t_small},        /* within 1e-4: note */
        {3, "translation", NULL, 1, T0, t_single},       /* one key: never */
        {0, "rotation", NULL, 2, T2, q_sign},            /* sign-invariant: note */
        {1, "rotation", NULL, 3, T3, q_near},            /* note */
        {2, "rotation", NULL, 2, T2, q_far},             /* moves */
        {3, "rotation", NULL, 2, T2, q_zero},            /* zero: not constant */
        {0, "rotation", "CUBICSPLINE", 2, T2, q_cubic},  /* zero tangents: note */
        {1, "rotation", "CUBICSPLINE", 2, T2, q_cubic_tan}, /* a tangent: moves */
        {2, "scale", NULL, 2, T2, s_still},              /* note */
    };
    anim_asset *a = build_one(chans, 11);
    anim_lint_file file;
    const anim_check_record *r = lint_record(a, NULL, "constant-track", &file);
    assert_complete(r, 6);
    static const struct {
        const char *bone, *msg;
    } want[] = {
        {"a", "translation track has 3 keys but never moves " EM " export bloat"},
        {"c", "translation track has 2 keys but never moves " EM " export bloat"},
        {"a", "rotation track has 2 keys but never moves " EM " export bloat"},
        {"b", "rotation track has 3 keys but never moves " EM " export bloat"},
        {"a", "rotation track has 2 keys but never moves " EM " export bloat"},
        {"c", "scale track has 2 keys but never moves " EM " export bloat"},
    };
    for (int i = 0; i < 6; i++) {
        assert_finding(&r->findings[i], ANIM_SEVERITY_NOTE, "c", want[i].bone, want[i].msg);
        assert_false(r->findings[i].has_time);
        assert_no_values(&r->findings[i]);
    }
    anim_lint_file_free(&file);

    /* A configured severity overrides the note. */
    anim_config *cfg = config_new();
    config_check(cfg, "constant-track", ANIM_SEVERITY_ERROR);
    r = lint_record(a, cfg, "constant-track", &file);
    assert_complete(r, 6);
    for (int i = 0; i < 6; i++)
        assert_int_equal(r->findings[i].severity, ANIM_SEVERITY_ERROR);
    anim_lint_file_free(&file);
    cfg->checks[0].severity = ANIM_SEVERITY_OFF;
    r = lint_record(a, cfg, "constant-track", &file);
    assert_false(r->enabled);
    assert_int_equal(r->evaluation, ANIM_EVAL_NOT_EVALUATED);
    assert_int_equal(r->finding_count, 0);
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* ---- constant-nonunit-scale (opt-in) --------------------------------- */

static void test_constant_nonunit_scale(void **state)
{
    (void)state;
    static const float pin2[] = {2, 2, 2};                    /* single-key pin */
    static const float pin1[] = {1, 1, 1};                    /* unit pin */
    static const float near1[] = {1, 1.00005f, 1, 1, 1.00005f, 1}; /* within 1e-4 */
    static const float held[] = {0.5f, 1, 1, 0.5f, 1, 1};     /* constant, non-unit */
    static const float moving[] = {2, 2, 2, 3, 3, 3};         /* varies */
    const tchan chans[] = {
        {0, "scale", NULL, 1, T0, pin2}, {1, "scale", NULL, 1, T0, pin1},
        {2, "scale", NULL, 2, T2, near1}, {3, "scale", NULL, 2, T2, held},
        {0, "scale", NULL, 2, T2, moving},
    };
    anim_asset *a = build_one(chans, 5);
    anim_lint_file file;

    /* Disabled without a severity: recorded but not evaluated. */
    const anim_check_record *r = lint_record(a, NULL, "constant-nonunit-scale", &file);
    assert_true(r->selected);
    assert_false(r->enabled);
    assert_true(r->applicable);
    assert_int_equal(r->evaluation, ANIM_EVAL_NOT_EVALUATED);
    assert_int_equal(r->finding_count, 0);
    anim_lint_file_free(&file);

    static const anim_severity sevs[] = {ANIM_SEVERITY_NOTE, ANIM_SEVERITY_WARNING,
                                         ANIM_SEVERITY_ERROR};
    for (int s = 0; s < 3; s++) {
        anim_config *cfg = config_new();
        config_check(cfg, "constant-nonunit-scale", sevs[s]);
        r = lint_record(a, cfg, "constant-nonunit-scale", &file);
        assert_complete(r, 2);
        assert_finding(&r->findings[0], sevs[s], "c", "a", "constant non-unit scale channel present");
        assert_finding(&r->findings[1], sevs[s], "c", "d", "constant non-unit scale channel present");
        for (int i = 0; i < 2; i++) {
            assert_false(r->findings[i].has_time);
            assert_no_values(&r->findings[i]);
        }
        anim_lint_file_free(&file);
        anim_config_free(cfg);
    }
    anim_config *cfg = config_new();
    config_check(cfg, "constant-nonunit-scale", ANIM_SEVERITY_OFF);
    r = lint_record(a, cfg, "constant-nonunit-scale", &file);
    assert_false(r->enabled);
    assert_int_equal(r->finding_count, 0);
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* ---- bind-pose ------------------------------------------------------- */

/* Unit quaternion of `deg` degrees about Z, as floats. */
static void rot_z(float *q, double deg)
{
    double h = deg * 3.14159265358979323846 / 360.0;
    q[0] = 0;
    q[1] = 0;
    q[2] = (float)sin(h);
    q[3] = (float)cos(h);
}

static void test_bind_pose_evidence(void **state)
{
    (void)state;
    /* Clip 'few': two usable tracks plus unusable ones (zero first key, a
     * translation). Clip 'ok': three usable tracks, mean 20 deg, plus a
     * bone whose rest rotation is 30 deg with a 30 deg key (0 deg). */
    tnode nodes[] = {{"a", -1, {0}}, {"b", 0, {0}}, {"c", 1, {0}}, {"d", -1, {0}}};
    rot_z(nodes[3].r, 30);
    float q10[8], q20[8], q30[8], q0[8];
    rot_z(q10, 10);
    rot_z(q20, 20);
    rot_z(q30, 30);
    rot_z(q0, 0);
    memcpy(q10 + 4, q0, sizeof q0 / 2);
    memcpy(q20 + 4, q0, sizeof q0 / 2);
    memcpy(q30 + 4, q0, sizeof q0 / 2);
    memcpy(q0 + 4, q0, sizeof q0 / 2);
    const float zero[] = {0, 0, 0, 0, 0, 0, 0, 1};
    static const float tr[] = {0, 0, 0, 1, 1, 1};
    const tchan few[] = {{0, "rotation", NULL, 2, T2, q10},
                         {1, "rotation", NULL, 2, T2, zero},
                         {2, "translation", NULL, 2, T2, tr},
                         {2, "rotation", "STEP", 2, T2, q20}};
    const tchan ok[] = {{0, "rotation", NULL, 2, T2, q10},
                        {1, "rotation", NULL, 2, T2, q20},
                        {2, "rotation", NULL, 2, T2, q30},
                        {3, "rotation", NULL, 2, T2, q30}};
    const tclip clips[] = {{"few", few, 4}, {"ok", ok, 4}};
    anim_asset *a = build(nodes, 4, clips, 2);
    anim_lint_file file;
    const anim_check_record *r = lint_record(a, NULL, "bind-pose", &file);
    assert_int_equal(r->evaluation, ANIM_EVAL_PARTIAL);
    assert_int_equal(r->gap_count, 1);
    assert_bind_gap(r, 0, "few", 2);
    assert_int_equal(r->scope_count, 1);
    assert_string_equal(r->scopes[0].code, "first_frame_rest_delta");
    assert_string_equal(r->scopes[0].subject, "ok");
    assert_int_equal(r->finding_count, 0); /* mean 15 deg (10, 20, 30, 0) */
    anim_lint_file_free(&file);

    /* A cap below the mean: the clip warns. */
    anim_config *cfg = config_new();
    anim_check_config *cc = config_check(cfg, "bind-pose", ANIM_SEVERITY_UNSET);
    cc->settings[ANIM_CHECK_MAX_MEAN_REST_DELTA_DEG].set = true;
    cc->settings[ANIM_CHECK_MAX_MEAN_REST_DELTA_DEG].value = 12.5;
    r = lint_record(a, cfg, "bind-pose", &file);
    assert_int_equal(r->evaluation, ANIM_EVAL_PARTIAL);
    assert_int_equal(r->finding_count, 1);
    const anim_finding *f = &r->findings[0];
    assert_finding(f, ANIM_SEVERITY_WARNING, "ok", NULL,
                   "first frame deviates from the rest pose by 15" DEG " on average across 4 "
                   "bones (worst c: 30" DEG ") " EM " authored against a different bind?");
    assert_true(f->has_time);
    assert_true(f->time_s == 0.0);
    assert_int_equal(f->measured.kind, ANIM_VALUE_NUMBER);
    assert_near(f->measured.number, 15.0, 1e-4);
    assert_int_equal(f->expected.kind, ANIM_VALUE_NUMBER);
    assert_true(f->expected.number == 12.5);
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

static void test_bind_pose_default_cap(void **state)
{
    (void)state;
    /* Bones 60/50/70 deg off rest, a duplicate track of the first (counted
     * twice) and a -70 deg key on d: mean 310/5 = 62 > 45. The tie for the
     * worst keeps the first (c). */
    float q60[8], q50[8], q70[8], q70b[8];
    rot_z(q60, 60);
    rot_z(q50, 50);
    rot_z(q70, 70);
    rot_z(q70b, -70);
    memcpy(q60 + 4, q60, 4 * sizeof(float));
    memcpy(q50 + 4, q50, 4 * sizeof(float));
    memcpy(q70 + 4, q70, 4 * sizeof(float));
    memcpy(q70b + 4, q70b, 4 * sizeof(float));
    const tchan chans[] = {{0, "rotation", NULL, 2, T2, q60},
                           {1, "rotation", NULL, 2, T2, q50},
                           {2, "rotation", NULL, 2, T2, q70},
                           {0, "rotation", NULL, 2, T2, q60},
                           {3, "rotation", NULL, 2, T2, q70b}};
    anim_asset *a = build_one(chans, 5);
    anim_lint_file file;
    const anim_check_record *r = lint_record(a, NULL, "bind-pose", &file);
    assert_complete(r, 1);
    assert_int_equal(r->scope_count, 1);
    assert_string_equal(r->scopes[0].subject, "c");
    const anim_finding *f = &r->findings[0];
    assert_finding(f, ANIM_SEVERITY_WARNING, "c", NULL,
                   "first frame deviates from the rest pose by 62" DEG " on average across 5 "
                   "bones (worst c: 70" DEG ") " EM " authored against a different bind?");
    assert_near(f->measured.number, 62.0, 1e-4);
    assert_true(f->expected.number == 45.0);
    anim_lint_file_free(&file);

    /* Exactly three usable tracks at 50 deg: evaluated; over 45, under 50.5. */
    const tchan under[] = {{0, "rotation", NULL, 2, T2, q50},
                           {1, "rotation", NULL, 2, T2, q50},
                           {2, "rotation", NULL, 2, T2, q50}};
    anim_asset *b = build_one(under, 3);
    r = lint_record(b, NULL, "bind-pose", &file);
    assert_complete(r, 1);
    assert_near(r->findings[0].measured.number, 50.0, 1e-4);
    anim_lint_file_free(&file);
    anim_config *cfg = config_new();
    anim_check_config *cc = config_check(cfg, "bind-pose", ANIM_SEVERITY_UNSET);
    cc->settings[ANIM_CHECK_MAX_MEAN_REST_DELTA_DEG].set = true;
    cc->settings[ANIM_CHECK_MAX_MEAN_REST_DELTA_DEG].value = 50.5;
    r = lint_record(b, cfg, "bind-pose", &file);
    assert_complete(r, 0);
    assert_int_equal(r->scope_count, 1);
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(b);
    anim_asset_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_scaled),
        cmocka_unit_test(test_walk_scaled_contract),
        cmocka_unit_test(test_example_assets),
        cmocka_unit_test(test_run_ring_and_frozen_arm),
        cmocka_unit_test(test_scale_keys),
        cmocka_unit_test(test_non_uniform_spread),
        cmocka_unit_test(test_cubic_excursion),
        cmocka_unit_test(test_analysis_refusals),
        cmocka_unit_test(test_constant_track),
        cmocka_unit_test(test_constant_nonunit_scale),
        cmocka_unit_test(test_bind_pose_evidence),
        cmocka_unit_test(test_bind_pose_default_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
