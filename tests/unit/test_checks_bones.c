/* The structural contract checks: required-bones,
 * rest-world-scale and missing-bones. Contracts are built in memory (the
 * TOML loader is tested on its own) and documents are either the example
 * assets or small .gltf texts with a data-URI buffer assembled here, so
 * every message, field, gap, scope and evaluation state is pinned. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/lint.h"
#include "checks/node_selector.h"
#include "support/test_support.h"

/* ---- contracts -------------------------------------------------------- */

static anim_config *cfg_new(void)
{
    anim_error err;
    anim_config *cfg = anim_config_default(&err);
    assert_non_null(cfg);
    return cfg;
}

static void set_list(anim_config *cfg, anim_string_list *list, const char *const *items,
                     uint32_t n)
{
    const char **copy = anim_arena_calloc(cfg->arena, n ? n : 1, sizeof *copy);
    assert_non_null(copy);
    for (uint32_t i = 0; i < n; i++)
        copy[i] = anim_arena_strdup(cfg->arena, items[i]);
    list->items = copy;
    list->count = n;
    list->set = true;
}

#define LIST(cfg, field, ...)                                                     \
    do {                                                                          \
        static const char *const items_[] = {__VA_ARGS__};                        \
        set_list(cfg, &(cfg)->field, items_, sizeof items_ / sizeof *items_);     \
    } while (0)

/* Appends a [checks.<id>] table (ids must be distinct). */
static anim_check_config *add_check(anim_config *cfg, const char *id)
{
    anim_check_config *n = anim_arena_calloc(cfg->arena, cfg->check_count + 1, sizeof *n);
    assert_non_null(n);
    if (cfg->check_count)
        memcpy(n, cfg->checks, cfg->check_count * sizeof *n);
    cfg->checks = n;
    anim_check_config *c = &n[cfg->check_count++];
    c->id = anim_arena_strdup(cfg->arena, id);
    return c;
}

/* Appends a [clips.<selector>] table; callers add them in byte-wise order
 * as the loader would have sorted them. */
static anim_clip_selector *add_clip(anim_config *cfg, const char *selector,
                                    const char *const *bones, uint32_t n)
{
    anim_clip_selector *s = anim_arena_calloc(cfg->arena, cfg->clip_count + 1, sizeof *s);
    assert_non_null(s);
    if (cfg->clip_count) {
        memcpy(s, cfg->clips, cfg->clip_count * sizeof *s);
        assert_true(strcmp(cfg->clips[cfg->clip_count - 1].selector, selector) < 0);
    }
    cfg->clips = s;
    anim_clip_selector *c = &s[cfg->clip_count++];
    c->selector = anim_arena_strdup(cfg->arena, selector);
    if (bones)
        set_list(cfg, &c->expect.animates_bones, bones, n);
    return c;
}

/* ---- documents -------------------------------------------------------- */

/* Loads a .gltf text; single quotes become double quotes and @URI@ the
 * shared animation buffer: times {0, 1} at 0 (accessor 0), two rotation
 * keys at 8 (accessor 1), two translation keys at 40 (accessor 2). */
static anim_asset *load_gltf(const char *tmpl)
{
    float data[16] = {0.0f, 1.0f,                        /* times */
                      0.0f, 0.0f, 0.0f, 1.0f,            /* rotation key 0 */
                      0.0f, 0.0f, 0.38268343f, 0.9238795f, /* rotation key 1 */
                      0.0f, 0.0f, 0.0f, 0.0f, 0.5f, 0.0f}; /* translations */
    char *b64 = test_support_base64(data, sizeof data);
    char uri[256];
    snprintf(uri, sizeof uri, "data:application/octet-stream;base64,%s", b64);
    free(b64);
    size_t cap = strlen(tmpl) + strlen(uri) * 4 + 1, o = 0;
    char *json = malloc(cap);
    assert_non_null(json);
    for (const char *p = tmpl; *p;) {
        if (!strncmp(p, "@URI@", 5)) {
            memcpy(json + o, uri, strlen(uri));
            o += strlen(uri);
            p += 5;
        } else {
            json[o++] = *p == '\'' ? '"' : *p;
            p++;
        }
    }
    json[o] = 0;
    anim_asset *a = test_support_load_gltf(json, o, "t.gltf");
    free(json);
    return a;
}

#define BUFFERS                                                                          \
    "'buffers':[{'byteLength':64,'uri':'@URI@'}],"                                       \
    "'bufferViews':[{'buffer':0,'byteOffset':0,'byteLength':8},"                         \
    "{'buffer':0,'byteOffset':8,'byteLength':32},{'buffer':0,'byteOffset':40,'byteLength':24}]," \
    "'accessors':[{'bufferView':0,'componentType':5126,'count':2,'type':'SCALAR'},"      \
    "{'bufferView':1,'componentType':5126,'count':2,'type':'VEC4'},"                     \
    "{'bufferView':2,'componentType':5126,'count':2,'type':'VEC3'}],"
#define ROT_CHANNEL(node) "{'sampler':0,'target':{'node':" #node ",'path':'rotation'}}"
#define TRA_CHANNEL(node) "{'sampler':1,'target':{'node':" #node ",'path':'translation'}}"
#define SAMPLERS "'samplers':[{'input':0,'output':1},{'input':0,'output':2}]"

static anim_asset *load_nodes(const char *nodes_json)
{
    char tmpl[4096];
    snprintf(tmpl, sizeof tmpl, "{'asset':{'version':'2.0'},'nodes':[%s]}", nodes_json);
    return load_gltf(tmpl);
}

/* ---- running ---------------------------------------------------------- */

typedef struct {
    anim_lint_file file;
    const anim_check_record *rec;
} run_result;

static void run_check(const anim_asset *a, const anim_config *cfg, const char *id,
                      run_result *out)
{
    out->rec = test_support_lint_only(a, cfg, id, &out->file);
}

static void expect_number(anim_value v, double want)
{
    assert_int_equal(v.kind, ANIM_VALUE_NUMBER);
    assert_true(fabs(v.number - want) <= 1e-12 * fmax(1.0, fabs(want)));
}

static void expect_text(anim_value v, const char *want)
{
    assert_int_equal(v.kind, ANIM_VALUE_TEXT);
    assert_string_equal(v.text, want);
}

static void expect_finding(const anim_finding *f, const char *check, anim_severity sev,
                           const char *clip, const char *bone, const char *node,
                           const char *message)
{
    assert_string_equal(f->check_id, check);
    assert_int_equal(f->severity, sev);
    test_support_expect_str(f->clip, clip);
    test_support_expect_str(f->bone, bone);
    test_support_expect_str(f->node, node);
    assert_false(f->has_time);
    assert_int_equal(f->member_count, 0);
    assert_string_equal(f->message, message);
}

/* ---- required-bones --------------------------------------------------- */

static void test_required_present_absent(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk.glb");
    anim_config *cfg = cfg_new();
    /* pelvis twice: distinct names are checked once, first-declared order. */
    LIST(cfg, required_bones, "pelvis", "weapon_socket", "pelvis", "foot_l", "ik_hand_l");
    run_result r;
    run_check(a, cfg, "required-bones", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 2, 1, 0);
    test_support_expect_scope(&r.rec->scopes[0], "required_bone_presence", NULL);
    const anim_finding *f = &r.rec->findings[0];
    expect_finding(f, "required-bones", ANIM_SEVERITY_ERROR, NULL, "weapon_socket", NULL,
                   "required bone does not exist in the skeleton");
    expect_number(f->measured, 0.0);
    expect_number(f->expected, 1.0);
    expect_finding(&r.rec->findings[1], "required-bones", ANIM_SEVERITY_ERROR, NULL,
                   "ik_hand_l", NULL, "required bone does not exist in the skeleton");
    anim_lint_file_free(&r.file);

    /* Everything present: clean and complete. */
    LIST(cfg, required_bones, "pelvis", "foot_r");
    run_check(a, cfg, "required-bones", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

static void test_required_ambiguous_and_synthetic_names(void **state)
{
    (void)state;
    /* Two nodes share "socket"; node 3 has no name and is known as node3. */
    anim_asset *a = load_nodes("{'name':'root','children':[1,2,3]},{'name':'socket'},"
                               "{'name':'socket'},{}");
    anim_config *cfg = cfg_new();
    LIST(cfg, required_bones, "socket", "node3", "root");
    run_result r;
    run_check(a, cfg, "required-bones", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    const anim_finding *f = &r.rec->findings[0];
    expect_finding(f, "required-bones", ANIM_SEVERITY_ERROR, NULL, "socket", NULL,
                   "required bone name is ambiguous: 2 skeleton bones share this name");
    expect_number(f->measured, 2.0);
    expect_number(f->expected, 1.0);
    anim_lint_file_free(&r.file);

    /* A configured severity overrides the built-in error. */
    add_check(cfg, "required-bones")->severity = ANIM_SEVERITY_WARNING;
    run_check(a, cfg, "required-bones", &r);
    assert_int_equal(r.rec->finding_count, 1);
    assert_int_equal(r.rec->findings[0].severity, ANIM_SEVERITY_WARNING);
    anim_lint_file_free(&r.file);

    /* severity = "off" disables it: nothing runs. */
    cfg->checks[0].severity = ANIM_SEVERITY_OFF;
    run_check(a, cfg, "required-bones", &r);
    assert_false(r.rec->enabled);
    assert_true(r.rec->applicable);
    assert_int_equal(r.rec->evaluation, ANIM_EVAL_NOT_EVALUATED);
    assert_int_equal(r.rec->finding_count + r.rec->scope_count + r.rec->gap_count, 0);
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

static void test_required_no_skeleton(void **state)
{
    (void)state;
    anim_asset *a = load_gltf("{'asset':{'version':'2.0'}}");
    assert_int_equal(a->doc.bone_count, 0);
    anim_config *cfg = cfg_new();
    LIST(cfg, required_bones, "root");
    run_result r;
    run_check(a, cfg, "required-bones", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 1);
    test_support_expect_gap(&r.rec->gaps[0], "skeleton_unavailable", "required_bone_presence", NULL,
               "required skeleton bones cannot be checked because the file has no usable "
               "skeleton");
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

static void test_required_not_applicable(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk.glb");
    anim_config *cfg = cfg_new();
    run_result r;
    run_check(a, cfg, "required-bones", &r);
    assert_false(r.rec->applicable);
    assert_int_equal(r.rec->evaluation, ANIM_EVAL_NOT_EVALUATED);
    anim_lint_file_free(&r.file);
    /* An explicit empty list is "set" but declares nothing. */
    set_list(cfg, &cfg->required_bones, NULL, 0);
    run_check(a, cfg, "required-bones", &r);
    assert_false(r.rec->applicable);
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* ---- missing-bones ---------------------------------------------------- */

static void test_missing_frozen_arm_example(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk-frozen-arm.glb");
    anim_config *cfg = cfg_new();
    static const char *const arms[] = {"arm_l", "arm_r"};
    add_clip(cfg, "walk_frozen_arm", arms, 2);
    run_result r;
    run_check(a, cfg, "missing-bones", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 0, 0);
    const anim_finding *f = &r.rec->findings[0];
    expect_finding(f, "missing-bones", ANIM_SEVERITY_ERROR, "walk_frozen_arm", "arm_r", NULL,
                   "required bone does not exist in the skeleton");
    assert_int_equal(f->measured.kind, ANIM_VALUE_NONE);
    assert_int_equal(f->expected.kind, ANIM_VALUE_NONE);
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* hips(0) -> arm_l(1), arm_r(2); 'swing' keys arm_l's rotation, 'idle'
 * and 'rest' key hips' translation. */
static void test_missing_keys_and_merge(void **state)
{
    (void)state;
    anim_asset *a = load_gltf("{'asset':{'version':'2.0'}," BUFFERS
                              "'nodes':[{'name':'hips','children':[1,2]},{'name':'arm_l'},"
                              "{'name':'arm_r'}],"
                              "'animations':[{'name':'swing','channels':[" ROT_CHANNEL(1)
                              "]," SAMPLERS "},{'name':'idle','channels':[" TRA_CHANNEL(0)
                              "]," SAMPLERS "},{'name':'rest','channels':[" TRA_CHANNEL(0)
                              "]," SAMPLERS "}]}");
    assert_int_equal(a->doc.clip_count, 3);
    anim_config *cfg = cfg_new();
    /* The glob covers every clip; the exact 'idle' table replaces its list
     * and 'rest' declares an empty list (set, nothing to check). */
    static const char *const glob[] = {"arm_l"};
    static const char *const idle[] = {"hips", "arm_r", "ghost", "arm_l"};
    add_clip(cfg, "*", glob, 1);
    add_clip(cfg, "idle", idle, 4);
    add_clip(cfg, "rest", NULL, 0);
    set_list(cfg, &cfg->clips[2].expect.animates_bones, NULL, 0);
    run_result r;
    run_check(a, cfg, "missing-bones", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 3, 0, 0);
    expect_finding(&r.rec->findings[0], "missing-bones", ANIM_SEVERITY_ERROR, "idle", "arm_r",
                   NULL, "required bone carries no keyframes in this clip");
    expect_finding(&r.rec->findings[1], "missing-bones", ANIM_SEVERITY_ERROR, "idle", "ghost",
                   NULL, "required bone does not exist in the skeleton");
    expect_finding(&r.rec->findings[2], "missing-bones", ANIM_SEVERITY_ERROR, "idle", "arm_l",
                   NULL, "required bone carries no keyframes in this clip");
    for (uint32_t i = 0; i < 3; i++) {
        assert_int_equal(r.rec->findings[i].measured.kind, ANIM_VALUE_NONE);
        assert_int_equal(r.rec->findings[i].expected.kind, ANIM_VALUE_NONE);
    }
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

static void test_missing_duplicate_names_use_first(void **state)
{
    (void)state;
    /* Two bones named 'arm'; only the second (node 2) is keyed, and the
     * check resolves the name to the first. */
    anim_asset *a = load_gltf("{'asset':{'version':'2.0'}," BUFFERS
                              "'nodes':[{'name':'hips','children':[1,2]},{'name':'arm'},"
                              "{'name':'arm'}],"
                              "'animations':[{'name':'swing','channels':[" ROT_CHANNEL(2)
                              "]," SAMPLERS "}]}");
    anim_config *cfg = cfg_new();
    static const char *const arm[] = {"arm"};
    add_clip(cfg, "swing", arm, 1);
    run_result r;
    run_check(a, cfg, "missing-bones", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 0, 0);
    expect_finding(&r.rec->findings[0], "missing-bones", ANIM_SEVERITY_ERROR, "swing", "arm",
                   NULL, "required bone carries no keyframes in this clip");
    anim_lint_file_free(&r.file);

    /* Not applicable when no clip declares animates_bones. */
    anim_config *none = cfg_new();
    add_clip(none, "swing", NULL, 0);
    run_check(a, none, "missing-bones", &r);
    assert_false(r.rec->applicable);
    assert_int_equal(r.rec->evaluation, ANIM_EVAL_NOT_EVALUATED);
    anim_lint_file_free(&r.file);
    anim_config_free(none);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* ---- rest-world-scale ------------------------------------------------- */

#define UNIFORM_MSG "effective rest-world uniform scale differs from selected-node policy"

static void test_rws_walk_scaled_example(void **state)
{
    (void)state;
    /* examples/walk-scaled.animsmith.toml: weapon_socket inherits a unit
     * rest scale and passes; ik_*_target matches nothing. */
    anim_asset *a = test_support_load_example("walk-scaled.glb");
    anim_config *cfg = cfg_new();
    LIST(cfg, runtime_selectors, "weapon_socket", "ik_*_target");
    anim_check_config *cc = add_check(cfg, "rest-world-scale");
    cc->settings[ANIM_CHECK_EXPECTED_UNIFORM_SCALE] = (anim_opt_f64){true, 1.0};
    cc->settings[ANIM_CHECK_UNIFORM_SCALE_TOLERANCE] = (anim_opt_f64){true, 0.0001};
    run_result r;
    run_check(a, cfg, "rest-world-scale", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_PARTIAL, 0, 1, 1);
    test_support_expect_scope(&r.rec->scopes[0], "selected_node_rest_scale", "weapon_socket");
    test_support_expect_gap(&r.rec->gaps[0], "node_selector_no_match", "selected_node_rest_scale",
               "ik_*_target", "source-node selector \"ik_*_target\" matched no named node");
    anim_lint_file_free(&r.file);

    /* Not applicable without selectors. */
    anim_config *plain = cfg_new();
    run_check(a, plain, "rest-world-scale", &r);
    assert_false(r.rec->applicable);
    assert_int_equal(r.rec->evaluation, ANIM_EVAL_NOT_EVALUATED);
    anim_lint_file_free(&r.file);
    anim_config_free(plain);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* Source order differs from hierarchy order: node 2 'rig' (scale 0.01) is
 * the root, node 1 is unnamed, node 0 the socket. */
#define NESTED                                                                        \
    "{'name':'weapon_socket','translation':[0,11.5,0]},"                              \
    "{'children':[0],'translation':[0,1,0]},"                                          \
    "{'name':'rig','scale':[0.01,0.01,0.01],'children':[1]}"

static void test_rws_nested_scaled_parent(void **state)
{
    (void)state;
    anim_asset *a = load_nodes(NESTED);
    anim_config *cfg = cfg_new();
    LIST(cfg, runtime_selectors, "weapon_socket");
    run_result r;
    run_check(a, cfg, "rest-world-scale", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    test_support_expect_scope(&r.rec->scopes[0], "selected_node_rest_scale", "weapon_socket");
    const anim_finding *f = &r.rec->findings[0];
    expect_finding(f, "rest-world-scale", ANIM_SEVERITY_WARNING, NULL, NULL,
                   "#2(rig)/#1(<unnamed>)/#0(weapon_socket)", UNIFORM_MSG);
    expect_number(f->measured, (double)0.01f);
    expect_number(f->expected, 1.0);
    anim_lint_file_free(&r.file);

    /* A policy that expects the inherited factor passes; a configured
     * severity applies to the finding otherwise. */
    anim_check_config *cc = add_check(cfg, "rest-world-scale");
    cc->settings[ANIM_CHECK_EXPECTED_UNIFORM_SCALE] = (anim_opt_f64){true, 0.01};
    run_check(a, cfg, "rest-world-scale", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 0, 1, 0);
    anim_lint_file_free(&r.file);
    cc->settings[ANIM_CHECK_EXPECTED_UNIFORM_SCALE] = (anim_opt_f64){true, 2.0};
    cc->settings[ANIM_CHECK_UNIFORM_SCALE_TOLERANCE] = (anim_opt_f64){true, 0.5};
    cc->severity = ANIM_SEVERITY_ERROR;
    run_check(a, cfg, "rest-world-scale", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 1, 0);
    assert_int_equal(r.rec->findings[0].severity, ANIM_SEVERITY_ERROR);
    expect_number(r.rec->findings[0].expected, 2.0);
    anim_lint_file_free(&r.file);

    /* The unnamed node is never selectable, even by its display name. */
    anim_config *cfg2 = cfg_new();
    LIST(cfg2, runtime_selectors, "node1", "*");
    run_check(a, cfg2, "rest-world-scale", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 2);
    test_support_expect_gap(&r.rec->gaps[0], "node_selector_no_match", "selected_node_rest_scale", "node1",
               "source-node selector \"node1\" matched no named node");
    test_support_expect_gap(&r.rec->gaps[1], "node_selector_ambiguous", "selected_node_rest_scale", "*",
               "source-node selector \"*\" matched 2 nodes (#2(rig)/#1(<unnamed>)/"
               "#0(weapon_socket), #2(rig)); use a selector that resolves exactly once");
    anim_lint_file_free(&r.file);
    anim_config_free(cfg2);
    anim_config_free(cfg);
    anim_asset_free(a);
}

static void test_rws_tolerance_is_inclusive(void **state)
{
    (void)state;
    /* Scales just inside and just outside the default 1e-4 band. */
    anim_asset *a = load_nodes("{'name':'root','children':[1,2]},"
                               "{'name':'in_band','scale':[1.00005,1.00005,1.00005]},"
                               "{'name':'out_band','scale':[0.9998,0.9998,0.9998]}");
    anim_config *cfg = cfg_new();
    LIST(cfg, runtime_selectors, "in_band", "out_band", "root");
    run_result r;
    run_check(a, cfg, "rest-world-scale", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 3, 0);
    test_support_expect_scope(&r.rec->scopes[0], "selected_node_rest_scale", "in_band");
    test_support_expect_scope(&r.rec->scopes[1], "selected_node_rest_scale", "out_band");
    test_support_expect_scope(&r.rec->scopes[2], "selected_node_rest_scale", "root");
    expect_finding(&r.rec->findings[0], "rest-world-scale", ANIM_SEVERITY_WARNING, NULL, NULL,
                   "#0(root)/#2(out_band)", UNIFORM_MSG);
    expect_number(r.rec->findings[0].measured, (double)0.9998f);
    anim_lint_file_free(&r.file);

    /* Zero tolerance: exactly the expected factor still passes (inclusive),
     * while in_band (f32 1.00005) now fails. */
    anim_check_config *cc = add_check(cfg, "rest-world-scale");
    cc->settings[ANIM_CHECK_UNIFORM_SCALE_TOLERANCE] = (anim_opt_f64){true, 0.0};
    run_check(a, cfg, "rest-world-scale", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 2, 3, 0);
    test_support_expect_str(r.rec->findings[0].node, "#0(root)/#1(in_band)");
    test_support_expect_str(r.rec->findings[1].node, "#0(root)/#2(out_band)");
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

static void test_rws_classes(void **state)
{
    (void)state;
    /* Node 1: non-uniform TRS; 2: sheared matrix; 3: reflected; 4: singular;
     * 5: matrix uniformly scaled by 2 and turned 90 degrees about Z. */
    anim_asset *a = load_nodes(
        "{'name':'root','children':[1,2,3,4,5]},"
        "{'name':'stretch','scale':[1,2,1]},"
        "{'name':'shear','matrix':[1,0,0,0, 0.5,1,0,0, 0,0,1,0, 3,4,5,1]},"
        "{'name':'mirror','scale':[-1,1,1]},"
        "{'name':'flat','scale':[0,1,1]},"
        "{'name':'big','matrix':[0,2,0,0, -2,0,0,0, 0,0,2,0, 0,0,0,1]}");
    anim_config *cfg = cfg_new();
    LIST(cfg, runtime_selectors, "stretch", "shear", "mirror", "flat", "big");
    run_result r;
    run_check(a, cfg, "rest-world-scale", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 5, 5, 0);
    static const struct {
        const char *node, *cls, *axes;
    } want[4] = {
        {"#0(root)/#1(stretch)", "non-uniform", "(1.000000,2.000000,1.000000)"},
        {"#0(root)/#2(shear)", "sheared", "(1.000000,1.118034,1.000000)"},
        {"#0(root)/#3(mirror)", "reflected", "(1.000000,1.000000,1.000000)"},
        {"#0(root)/#4(flat)", "singular", "(0.000000,1.000000,1.000000)"},
    };
    for (int i = 0; i < 4; i++) {
        const anim_finding *f = &r.rec->findings[i];
        char msg[256], measured[128];
        snprintf(msg, sizeof msg,
                 "effective rest-world transform is %s; selected-node policy requires a "
                 "uniform factor near 1",
                 want[i].cls);
        snprintf(measured, sizeof measured, "%s axes=%s", want[i].cls, want[i].axes);
        expect_finding(f, "rest-world-scale", ANIM_SEVERITY_WARNING, NULL, NULL, want[i].node,
                       msg);
        expect_text(f->measured, measured);
        expect_text(f->expected, "uniform=1 tolerance=0.0001");
    }
    expect_finding(&r.rec->findings[4], "rest-world-scale", ANIM_SEVERITY_WARNING, NULL, NULL,
                   "#0(root)/#5(big)", UNIFORM_MSG);
    expect_number(r.rec->findings[4].measured, 2.0);
    anim_lint_file_free(&r.file);

    /* Expected/tolerance use plain display in the class texts. */
    anim_check_config *cc = add_check(cfg, "rest-world-scale");
    cc->settings[ANIM_CHECK_EXPECTED_UNIFORM_SCALE] = (anim_opt_f64){true, 2.0};
    cc->settings[ANIM_CHECK_UNIFORM_SCALE_TOLERANCE] = (anim_opt_f64){true, 1e-7};
    run_check(a, cfg, "rest-world-scale", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 4, 5, 0); /* 'big' now passes */
    assert_string_equal(r.rec->findings[0].message,
                        "effective rest-world transform is non-uniform; selected-node policy "
                        "requires a uniform factor near 2");
    expect_text(r.rec->findings[0].expected, "uniform=2 tolerance=0.0000001");
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

static void test_rws_matrix_under_scaled_parent(void **state)
{
    (void)state;
    /* A matrix child scaled by 2 under a parent scaled by 0.5: the
     * authored factors cancel, and a local scale of 1 under the parent
     * does not. */
    anim_asset *a = load_nodes(
        "{'name':'half','scale':[0.5,0.5,0.5],'children':[1,2]},"
        "{'name':'doubled','matrix':[2,0,0,0, 0,2,0,0, 0,0,2,0, 1,1,1,1]},"
        "{'name':'plain'}");
    anim_config *cfg = cfg_new();
    LIST(cfg, runtime_selectors, "doubled", "plain");
    run_result r;
    run_check(a, cfg, "rest-world-scale", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_COMPLETE, 1, 2, 0);
    expect_finding(&r.rec->findings[0], "rest-world-scale", ANIM_SEVERITY_WARNING, NULL, NULL,
                   "#0(half)/#2(plain)", UNIFORM_MSG);
    expect_number(r.rec->findings[0].measured, 0.5);
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

static void test_rws_globs_and_duplicates(void **state)
{
    (void)state;
    anim_asset *a = load_nodes("{'name':'rig','children':[1,2,3,4]},"
                               "{'name':'ik_hand_target','scale':[3,3,3]},"
                               "{'name':'ik_foot_target'},"
                               "{'name':'socket'},{'name':'socket'}");
    anim_config *cfg = cfg_new();
    /* A glob matching 2 nodes, one matching 1, an exact duplicate name, and
     * two spellings resolving to the same node (judged once, scoped twice). */
    LIST(cfg, runtime_selectors, "ik_*_target", "ik_hand*", "socket", "*hand_target",
         "ik_hand*");
    run_result r;
    run_check(a, cfg, "rest-world-scale", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_PARTIAL, 1, 2, 2);
    test_support_expect_gap(&r.rec->gaps[0], "node_selector_ambiguous", "selected_node_rest_scale",
               "ik_*_target",
               "source-node selector \"ik_*_target\" matched 2 nodes (#0(rig)/#1(ik_hand_target), "
               "#0(rig)/#2(ik_foot_target)); use a selector that resolves exactly once");
    test_support_expect_gap(&r.rec->gaps[1], "node_selector_ambiguous", "selected_node_rest_scale", "socket",
               "source-node selector \"socket\" matched 2 nodes (#0(rig)/#3(socket), "
               "#0(rig)/#4(socket)); use a selector that resolves exactly once");
    test_support_expect_scope(&r.rec->scopes[0], "selected_node_rest_scale", "ik_hand*");
    test_support_expect_scope(&r.rec->scopes[1], "selected_node_rest_scale", "*hand_target");
    expect_finding(&r.rec->findings[0], "rest-world-scale", ANIM_SEVERITY_WARNING, NULL, NULL,
                   "#0(rig)/#1(ik_hand_target)", UNIFORM_MSG);
    expect_number(r.rec->findings[0].measured, 3.0);
    anim_lint_file_free(&r.file);

    /* Only gaps: not evaluated. Selector text is debug-quoted. */
    anim_config *cfg2 = cfg_new();
    LIST(cfg2, runtime_selectors, "no\"such\\node\n");
    run_check(a, cfg2, "rest-world-scale", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 1);
    test_support_expect_gap(&r.rec->gaps[0], "node_selector_no_match", "selected_node_rest_scale",
               "no\"such\\node\n",
               "source-node selector \"no\\\"such\\\\node\\n\" matched no named node");
    anim_lint_file_free(&r.file);
    anim_config_free(cfg2);
    anim_config_free(cfg);
    anim_asset_free(a);
}

static void test_rws_non_finite(void **state)
{
    (void)state;
    /* 1e39 overflows binary32: node 1's own rest is non-finite, node 2
     * inherits that, node 4's world (1e30 * 1e30) overflows binary32. */
    anim_asset *a = load_nodes("{'name':'root','children':[1,3]},"
                               "{'name':'huge','scale':[1e39,1,1],'children':[2]},"
                               "{'name':'under_huge'},"
                               "{'name':'big','scale':[1e30,1e30,1e30],'children':[4]},"
                               "{'name':'bigger','scale':[1e30,1e30,1e30]}");
    anim_config *cfg = cfg_new();
    LIST(cfg, runtime_selectors, "huge", "under_huge", "bigger", "root");
    run_result r;
    run_check(a, cfg, "rest-world-scale", &r);
    test_support_expect_state(r.rec, true, ANIM_EVAL_PARTIAL, 0, 1, 3);
    test_support_expect_gap(&r.rec->gaps[0], "measurement_unavailable", "selected_node_rest_scale", "huge",
               "rest-world linear transform is unavailable for source node #0(root)/#1(huge) "
               "(NonFiniteLocalRest)");
    test_support_expect_gap(&r.rec->gaps[1], "measurement_unavailable", "selected_node_rest_scale",
               "under_huge",
               "rest-world linear transform is unavailable for source node "
               "#0(root)/#1(huge)/#2(under_huge) (ParentRestWorldUnavailable)");
    test_support_expect_gap(&r.rec->gaps[2], "measurement_unavailable", "selected_node_rest_scale",
               "bigger",
               "rest-world linear transform is unavailable for source node "
               "#0(root)/#3(big)/#4(bigger) (NonFiniteWorldMatrix)");
    test_support_expect_scope(&r.rec->scopes[0], "selected_node_rest_scale", "root");
    anim_lint_file_free(&r.file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

static void test_node_selector_helpers(void **state)
{
    (void)state;
    anim_asset *a = load_nodes(NESTED);
    uint32_t out[3];
    assert_int_equal(node_selector_match(&a->doc, "*socket", out), 1);
    assert_int_equal(a->doc.bones[out[0]].node, 0);
    assert_int_equal(node_selector_match(&a->doc, "*", out), 2);
    /* Source order: node 0 before node 2, though node 2 is the root. */
    assert_int_equal(a->doc.bones[out[0]].node, 0);
    assert_int_equal(a->doc.bones[out[1]].node, 2);
    anim_strbuf sb = ANIM_STRBUF_INIT;
    node_selector_path(&a->doc, a->doc.node_to_bone[1], &sb);
    assert_string_equal(sb.data, "#2(rig)/#1(<unnamed>)");
    anim_strbuf_free(&sb);
    anim_asset_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_required_present_absent),
        cmocka_unit_test(test_required_ambiguous_and_synthetic_names),
        cmocka_unit_test(test_required_no_skeleton),
        cmocka_unit_test(test_required_not_applicable),
        cmocka_unit_test(test_missing_frozen_arm_example),
        cmocka_unit_test(test_missing_keys_and_merge),
        cmocka_unit_test(test_missing_duplicate_names_use_first),
        cmocka_unit_test(test_rws_walk_scaled_example),
        cmocka_unit_test(test_rws_nested_scaled_parent),
        cmocka_unit_test(test_rws_tolerance_is_inclusive),
        cmocka_unit_test(test_rws_classes),
        cmocka_unit_test(test_rws_matrix_under_scaled_parent),
        cmocka_unit_test(test_rws_globs_and_duplicates),
        cmocka_unit_test(test_rws_non_finite),
        cmocka_unit_test(test_node_selector_helpers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
