/* Root trajectory and speed, their place in the measurements-v18 clip
 * record and the measure renderers: the documented numbers on the example
 * assets,
 * small .gltf documents built here (base64 data-URI buffers) for Root vs
 * Hips selection and yaw winding, and hand-built metric grids for the
 * half-turn, canonicalization and domain-independence rules. */
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
#include "animsmith/measure.h"
#include "animsmith/measure_loop.h"
#include "animsmith/measure_travel.h"
#include "animsmith/report.h"
#include "support/test_support.h"

#define PI 3.14159265358979323846

static void assert_near(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("got %.17g, want %.17g (tol %g)", got, want, tol);
}

/* ---- building .gltf documents ---------------------------------------- */

typedef struct {
    const char *name;
    int parent; /* -1: scene root; parents precede children */
} tnode;

typedef struct {
    int node;
    const char *path; /* "translation" or "rotation" */
    uint32_t keys;
    const float *times;
    const float *values;
} tchan;

/* One clip "c" with the given LINEAR channels over the given nodes; the
 * times accessors carry min/max. */
static anim_asset *build(const tnode *nodes, int node_count, const tchan *chans, int count)
{
    test_support_gltf *g = test_support_gltf_new();
    for (int n = 0; n < node_count; n++) {
        test_support_node node = {nodes[n].name, nodes[n].parent, 0, {0}, {0}, {0}};
        test_support_gltf_node(g, &node);
    }
    test_support_gltf_animation(g, "c");
    for (int i = 0; i < count; i++)
        test_support_gltf_track(g, chans[i].node, chans[i].path, NULL, chans[i].keys,
                                chans[i].times, chans[i].values, TEST_SUPPORT_BOUNDS);
    anim_asset *a = test_support_gltf_load(g, "t.gltf");
    test_support_gltf_free(g);
    return a;
}

/* Yaw keys about +Y: q = (0, sin(θ/2), 0, cos(θ/2)). */
static void yaw_keys(const double *deg, uint32_t n, float *times, float *q)
{
    for (uint32_t k = 0; k < n; k++) {
        double h = deg[k] * PI / 360.0;
        times[k] = (float)k / (float)(n - 1);
        q[4 * k + 0] = 0.0f;
        q[4 * k + 1] = (float)sin(h);
        q[4 * k + 2] = 0.0f;
        q[4 * k + 3] = (float)cos(h);
    }
}

static void measure_asset(const anim_asset *a, anim_rig_resolution *rig, anim_arena *arena,
                          anim_measurements *m)
{
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(anim_rig_resolve(&a->doc, NULL, rig, &err), 0);
    if (anim_measure_document(&a->doc, rig, NULL, arena, m, &err))
        fail_msg("measure failed: %s", err.message);
}

/* ---- example assets (docs/fixtures.md) ------------------------------ */

static void check_still_hips(const anim_clip_measurements *c)
{
    const anim_root_trajectory *t = &c->trajectory;
    assert_int_equal(t->availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(c->root_trajectory, ANIM_AVAIL_MEASURED);
    assert_int_equal(t->source, ANIM_ROOT_SOURCE_HIPS_FALLBACK);
    assert_int_equal(t->bone_index, 0);
    assert_string_equal(t->bone_name, "pelvis");
    assert_int_equal(t->translation_availability, ANIM_AVAIL_MEASURED);
    assert_true(t->translation.dx_m == 0.0 && t->translation.dz_m == 0.0);
    assert_true(t->translation.travel_m == 0.0 && t->translation.dy_m == 0.0);
    assert_true(t->translation.y_min_m == 0.0 && t->translation.y_max_m == 0.0);
    assert_int_equal(t->yaw_availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(t->yaw.axis, ANIM_HEADING_POSITIVE_Z);
    assert_true(t->yaw.net_deg == 0.0 && t->yaw.unwrapped_deg == 0.0 && t->yaw.travel_deg == 0.0);
    assert_int_equal(c->speed.availability, ANIM_AVAIL_MEASURED);
    assert_true(c->speed.mps == 0.0);
}

static void test_examples_walk(void **state)
{
    (void)state;
    const char *names[] = {"walk.glb", "walk-dirty.glb"};
    for (int i = 0; i < 2; i++) {
        anim_asset *a = test_support_load_example(names[i]);
        anim_arena *arena = anim_arena_new();
        anim_rig_resolution rig;
        anim_measurements m;
        measure_asset(a, &rig, arena, &m);
        assert_int_equal(m.clip_count, 1);
        check_still_hips(&m.clips[0]);
        anim_arena_free(arena);
        anim_asset_free(a);
    }
}

static void test_example_walk_travel(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk-travel.glb");
    anim_arena *arena = anim_arena_new();
    anim_rig_resolution rig;
    anim_measurements m;
    measure_asset(a, &rig, arena, &m);
    const anim_clip_measurements *c = &m.clips[0];
    assert_string_equal(c->name, "walk_travel");
    assert_int_equal(c->trajectory.source, ANIM_ROOT_SOURCE_HIPS_FALLBACK);
    assert_int_equal(c->trajectory.translation_availability, ANIM_AVAIL_MEASURED);
    assert_near(c->trajectory.translation.dz_m, 1.2, 1e-6);
    assert_near(c->trajectory.translation.dx_m, 0.0, 1e-9);
    assert_near(c->trajectory.translation.travel_m, 1.2, 1e-6);
    assert_int_equal(c->speed.availability, ANIM_AVAIL_MEASURED);
    assert_near(c->speed.mps, 1.2, 1e-6);
    /* The checks compute the same value from the lint grid. */
    anim_metric_grid g;
    anim_error err;
    assert_int_equal(anim_metric_grid_build(&a->doc, &a->doc.clips[0], &g, &err), 1);
    anim_root_speed s;
    anim_root_speed_measure(&a->doc, &rig, &g, &s);
    assert_int_equal(s.availability, ANIM_AVAIL_MEASURED);
    assert_true(s.mps == c->speed.mps);
    anim_metric_grid_free(&g);
    anim_arena_free(arena);
    anim_asset_free(a);
}

/* clip.glb: no roles resolve, so neither fact has a subject. */
static void test_example_clip_not_applicable(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("clip.glb");
    anim_arena *arena = anim_arena_new();
    anim_rig_resolution rig;
    anim_measurements m;
    measure_asset(a, &rig, arena, &m);
    assert_int_equal(m.clips[0].root_trajectory, ANIM_AVAIL_NOT_APPLICABLE);
    assert_int_equal(m.clips[0].speed_mps, ANIM_AVAIL_NOT_APPLICABLE);
    anim_arena_free(arena);
    anim_asset_free(a);
}

/* ---- selection: Root preferred, Hips fallback ------------------------ */

static const float T3[3] = {0.0f, 0.5f, 1.0f};

static void test_root_preferred(void **state)
{
    (void)state;
    /* ue-mannequin: root -> "root", hips -> "pelvis". The pelvis travels
     * 3 m along +X, the root 1 m along -Z: the Root wins. */
    const tnode nodes[] = {{"root", -1}, {"pelvis", 0}, {"foot_l", 1}};
    const float root_t[9] = {0, 0, 0, 0, 0, -0.5f, 0, 0, -1};
    const float pelvis_t[9] = {0, 1, 0, 1.5f, 1, 0, 3, 1, 0};
    const tchan ch[] = {{0, "translation", 3, T3, root_t}, {1, "translation", 3, T3, pelvis_t}};
    anim_asset *a = build(nodes, 3, ch, 2);
    anim_arena *arena = anim_arena_new();
    anim_rig_resolution rig;
    anim_measurements m;
    measure_asset(a, &rig, arena, &m);
    const anim_root_trajectory *t = &m.clips[0].trajectory;
    assert_int_equal(t->source, ANIM_ROOT_SOURCE_ROOT);
    assert_int_equal(t->bone_index, 0);
    assert_string_equal(t->bone_name, "root");
    assert_near(t->translation.dz_m, -1.0, 1e-12);
    assert_near(t->translation.dx_m, 0.0, 1e-12);
    assert_near(m.clips[0].speed.mps, 1.0, 1e-12);

    /* A resolved Root outside the skeleton: unavailable, no silent Hips
     * fallback, for both facts. */
    rig.bone[ANIM_ROLE_ROOT] = 99;
    anim_root_trajectory tr;
    anim_root_trajectory_measure(&a->doc, &rig, NULL, &tr);
    assert_int_equal(tr.availability, ANIM_AVAIL_UNAVAILABLE);
    anim_root_speed s;
    anim_root_speed_measure(&a->doc, &rig, NULL, &s);
    assert_int_equal(s.availability, ANIM_AVAIL_UNAVAILABLE);

    /* Without Root, Hips is the typed fallback: the pelvis model position
     * includes the root's motion (3 m +X, 1 m -Z over 1 s). */
    rig.bone[ANIM_ROLE_ROOT] = ANIM_NONE;
    anim_metric_grid g;
    anim_error err;
    assert_int_equal(anim_metric_grid_build(&a->doc, &a->doc.clips[0], &g, &err), 1);
    anim_root_trajectory_measure(&a->doc, &rig, &g, &tr);
    assert_int_equal(tr.availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(tr.source, ANIM_ROOT_SOURCE_HIPS_FALLBACK);
    assert_int_equal(tr.bone_index, 1);
    assert_near(tr.translation.dx_m, 3.0, 1e-12);
    assert_near(tr.translation.dz_m, -1.0, 1e-12);
    assert_near(tr.translation.travel_m, sqrt(10.0), 1e-12);
    anim_root_speed_measure(&a->doc, &rig, &g, &s);
    assert_near(s.mps, sqrt(10.0), 1e-12);

    /* No Root, no Hips: not applicable. */
    rig.bone[ANIM_ROLE_HIPS] = ANIM_NONE;
    anim_root_trajectory_measure(&a->doc, &rig, &g, &tr);
    assert_int_equal(tr.availability, ANIM_AVAIL_NOT_APPLICABLE);
    anim_root_speed_measure(&a->doc, &rig, &g, &s);
    assert_int_equal(s.availability, ANIM_AVAIL_NOT_APPLICABLE);
    anim_root_trajectory_measure(&a->doc, NULL, &g, &tr);
    assert_int_equal(tr.availability, ANIM_AVAIL_NOT_APPLICABLE);
    anim_metric_grid_free(&g);
    anim_arena_free(arena);
    anim_asset_free(a);
}

/* Vertical facts and out-and-back travel on the hips fallback. */
static void test_translation_facts(void **state)
{
    (void)state;
    const tnode nodes[] = {{"pelvis", -1}, {"foot_l", 0}};
    const float t5[5] = {0, 0.25f, 0.5f, 0.75f, 1};
    /* x: 0 -> 1 -> 0 -> 1 -> 0 (out and back twice); y dips then rises. */
    const float p[15] = {0, 1, 0, 1, 0.75f, 0, 0, 1.25f, 0, 1, 1, 0, 0, 0.9f, 0};
    const tchan ch[] = {{0, "translation", 5, t5, p}};
    anim_asset *a = build(nodes, 2, ch, 1);
    anim_arena *arena = anim_arena_new();
    anim_rig_resolution rig;
    anim_measurements m;
    measure_asset(a, &rig, arena, &m);
    const anim_clip_measurements *c = &m.clips[0];
    const anim_root_translation *tr = &c->trajectory.translation;
    assert_int_equal(c->trajectory.source, ANIM_ROOT_SOURCE_HIPS_FALLBACK);
    assert_near(tr->dx_m, 0.0, 1e-12);
    assert_near(tr->travel_m, 4.0, 1e-12);
    assert_near(tr->dy_m, -0.1, 1e-6);
    assert_near(tr->y_min_m, -0.25, 1e-12);
    assert_near(tr->y_max_m, 0.25, 1e-12);
    /* speed is the endpoint chord: zero for an out-and-back clip. */
    assert_near(c->speed.mps, 0.0, 1e-12);
    anim_arena_free(arena);
    anim_asset_free(a);
}

/* Two keys: no metric grid. The selection stands, both nested domains
 * and the speed are unavailable. */
static void test_no_grid(void **state)
{
    (void)state;
    const tnode nodes[] = {{"pelvis", -1}, {"foot_l", 0}};
    const float t2[2] = {0, 1};
    const float p[6] = {0, 1, 0, 0, 1, 2};
    const tchan ch[] = {{0, "translation", 2, t2, p}};
    anim_asset *a = build(nodes, 2, ch, 1);
    anim_arena *arena = anim_arena_new();
    anim_rig_resolution rig;
    anim_measurements m;
    measure_asset(a, &rig, arena, &m);
    const anim_clip_measurements *c = &m.clips[0];
    assert_int_equal(c->trajectory.availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(c->trajectory.translation_availability, ANIM_AVAIL_UNAVAILABLE);
    assert_int_equal(c->trajectory.yaw_availability, ANIM_AVAIL_UNAVAILABLE);
    assert_int_equal(c->speed.availability, ANIM_AVAIL_UNAVAILABLE);

    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &sb, false);
    anim_error err;
    assert_int_equal(anim_measurements_write_json(&m, &w, &err), 0);
    assert_non_null(strstr(sb.data, "\"root_trajectory\":{\"bone_index\":0,\"bone_name\":\"pelvis\","
                                    "\"source_role\":\"hips_fallback\","
                                    "\"translation_availability\":\"unavailable\","
                                    "\"yaw_availability\":\"unavailable\"},"
                                    "\"root_trajectory_availability\":\"measured\","
                                    "\"speed_mps_availability\":\"unavailable\"}"));
    anim_strbuf_free(&sb);
    anim_arena_free(arena);
    anim_asset_free(a);
}

/* ---- yaw on built documents ------------------------------------------ */

static void yaw_case(const double *deg, uint32_t n, anim_root_trajectory *out)
{
    const tnode nodes[] = {{"root", -1}, {"pelvis", 0}};
    float times[16], q[64];
    assert_true(n <= 16);
    yaw_keys(deg, n, times, q);
    const tchan ch[] = {{0, "rotation", n, times, q}};
    anim_asset *a = build(nodes, 2, ch, 1);
    anim_arena *arena = anim_arena_new();
    anim_rig_resolution rig;
    anim_measurements m;
    measure_asset(a, &rig, arena, &m);
    *out = m.clips[0].trajectory;
    out->bone_name = NULL; /* lives in the asset */
    anim_arena_free(arena);
    anim_asset_free(a);
}

static void test_yaw_winding(void **state)
{
    (void)state;
    /* 0, 30, ..., 240 degrees about +Y: crosses +-180 between 180 and 210
     * (heading -150), which the unwrapping counts as one winding. */
    double deg[9];
    for (int k = 0; k < 9; k++)
        deg[k] = 30.0 * k;
    anim_root_trajectory t;
    yaw_case(deg, 9, &t);
    assert_int_equal(t.source, ANIM_ROOT_SOURCE_ROOT);
    assert_int_equal(t.yaw_availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(t.yaw.axis, ANIM_HEADING_POSITIVE_Z);
    assert_near(t.yaw.unwrapped_deg, 240.0, 1e-4);
    assert_near(t.yaw.net_deg, -120.0, 1e-4);
    assert_near(t.yaw.travel_deg, 240.0, 1e-4);
    /* A rotating but stationary root: translation measured, all zero. */
    assert_int_equal(t.translation_availability, ANIM_AVAIL_MEASURED);
    assert_true(t.translation.travel_m == 0.0);

    /* Turning back and forth: travel counts both ways, net cancels. */
    const double sway[5] = {0, 60, 0, -60, 0};
    yaw_case(sway, 5, &t);
    assert_near(t.yaw.unwrapped_deg, 0.0, 1e-4);
    assert_near(t.yaw.net_deg, 0.0, 1e-4);
    assert_near(t.yaw.travel_deg, 240.0, 1e-4);

    /* Negative direction, two full turns: -720 unwrapped, net 0. */
    double neg[13];
    for (int k = 0; k < 13; k++)
        neg[k] = -60.0 * k;
    yaw_case(neg, 13, &t);
    assert_near(t.yaw.unwrapped_deg, -720.0, 1e-3);
    assert_near(t.yaw.net_deg, 0.0, 1e-3);
    assert_near(t.yaw.travel_deg, 720.0, 1e-3);
}

static void test_yaw_half_turns(void **state)
{
    (void)state;
    anim_root_trajectory t;
    /* A multi-step half turn is canonicalized to +-180 with the sign of
     * the unwrapped result. */
    const double up[3] = {0, 90, 180};
    yaw_case(up, 3, &t);
    assert_int_equal(t.yaw_availability, ANIM_AVAIL_MEASURED);
    assert_true(t.yaw.net_deg == 180.0);
    assert_near(t.yaw.unwrapped_deg, 180.0, 1e-4);
    const double down[3] = {0, -90, -180};
    yaw_case(down, 3, &t);
    assert_true(t.yaw.net_deg == -180.0);
    assert_near(t.yaw.unwrapped_deg, -180.0, 1e-4);

    /* One sampled step of exactly half a turn has no direction: yaw is
     * unavailable, translation still measured (domains independent). */
    const double jump[3] = {0, 0, 180};
    yaw_case(jump, 3, &t);
    assert_int_equal(t.availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(t.yaw_availability, ANIM_AVAIL_UNAVAILABLE);
    assert_int_equal(t.translation_availability, ANIM_AVAIL_MEASURED);
}

/* ---- hand-built grids: axis choice, non-finite evidence -------------- */

typedef struct {
    anim_metric_grid g;
    double times[8];
    anim_vec3 pos[8];
    anim_quat rot[8];
} hgrid;

/* One bone, n frames at i/(n-1) s, at rest. */
static void hgrid_init(hgrid *h, uint32_t n)
{
    memset(h, 0, sizeof *h);
    h->g.frame_count = n;
    h->g.bone_count = 1;
    h->g.times = h->times;
    h->g.model_pos = h->pos;
    h->g.model_rot = h->rot;
    for (uint32_t i = 0; i < n; i++) {
        h->times[i] = (double)i / (double)(n - 1);
        h->rot[i] = anim_quat_identity();
    }
}

static void one_bone_doc(anim_doc *doc, anim_bone *bone, anim_rig_resolution *rig)
{
    memset(bone, 0, sizeof *bone);
    bone->name = "root";
    bone->parent = ANIM_NONE;
    memset(doc, 0, sizeof *doc);
    doc->bones = bone;
    doc->bone_count = 1;
    memset(rig, 0, sizeof *rig);
    for (int r = 0; r < ANIM_ROLE_COUNT; r++)
        rig->bone[r] = ANIM_NONE;
    rig->bone[ANIM_ROLE_ROOT] = 0;
}

static void test_heading_axis(void **state)
{
    (void)state;
    anim_doc doc;
    anim_bone bone;
    anim_rig_resolution rig;
    one_bone_doc(&doc, &bone, &rig);
    hgrid h;
    hgrid_init(&h, 3);
    anim_root_trajectory t;

    /* -90 degrees about X: local +Z points up, +Y points along -Z. The
     * witness is +Y; a yaw about world Y then turns it. */
    anim_quat tilt = anim_quat_from_axis_angle(anim_vec3_make(1, 0, 0), -PI / 2);
    for (int i = 0; i < 3; i++) {
        anim_quat yaw = anim_quat_from_axis_angle(anim_vec3_make(0, 1, 0), (PI / 4) * i);
        h.rot[i] = anim_quat_mul(yaw, tilt);
    }
    anim_root_trajectory_measure(&doc, &rig, &h.g, &t);
    assert_int_equal(t.yaw_availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(t.yaw.axis, ANIM_HEADING_POSITIVE_Y);
    assert_near(t.yaw.unwrapped_deg, 90.0, 1e-9);
    assert_near(t.yaw.net_deg, 90.0, 1e-9);

    /* -60 degrees about X: +Z keeps a horizontal projection of 0.5, +Y of
     * 0.866, +X stays horizontal (1): the witness is +X, heading 90. */
    for (int i = 0; i < 3; i++)
        h.rot[i] = anim_quat_from_axis_angle(anim_vec3_make(1, 0, 0), -PI / 3);
    anim_root_trajectory_measure(&doc, &rig, &h.g, &t);
    assert_int_equal(t.yaw_availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(t.yaw.axis, ANIM_HEADING_POSITIVE_X);
    assert_near(t.yaw.travel_deg, 0.0, 1e-9);
    assert_near(t.yaw.net_deg, 0.0, 1e-9);

    /* Ties keep the earlier axis: at rest +Z and +X are both horizontal
     * (length 1 exactly) and +Z is kept. */
    for (int i = 0; i < 3; i++)
        h.rot[i] = anim_quat_identity();
    anim_root_trajectory_measure(&doc, &rig, &h.g, &t);
    assert_int_equal(t.yaw_availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(t.yaw.axis, ANIM_HEADING_POSITIVE_Z);

    /* The witness held at frame 0 turns vertical later: unavailable. */
    hgrid_init(&h, 3);
    h.rot[2] = anim_quat_from_axis_angle(anim_vec3_make(1, 0, 0), -PI / 2);
    anim_root_trajectory_measure(&doc, &rig, &h.g, &t);
    assert_int_equal(t.yaw_availability, ANIM_AVAIL_UNAVAILABLE);
    assert_int_equal(t.translation_availability, ANIM_AVAIL_MEASURED);
}

static void test_domains_independent(void **state)
{
    (void)state;
    anim_doc doc;
    anim_bone bone;
    anim_rig_resolution rig;
    one_bone_doc(&doc, &bone, &rig);
    hgrid h;
    anim_root_trajectory t;
    anim_root_speed s;

    /* A non-finite position erases translation, not yaw. */
    hgrid_init(&h, 4);
    h.pos[2].x = NAN;
    anim_root_trajectory_measure(&doc, &rig, &h.g, &t);
    assert_int_equal(t.availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(t.translation_availability, ANIM_AVAIL_UNAVAILABLE);
    assert_int_equal(t.yaw_availability, ANIM_AVAIL_MEASURED);
    /* speed reads only the endpoints */
    anim_root_speed_measure(&doc, &rig, &h.g, &s);
    assert_int_equal(s.availability, ANIM_AVAIL_MEASURED);
    h.pos[3].z = INFINITY;
    anim_root_speed_measure(&doc, &rig, &h.g, &s);
    assert_int_equal(s.availability, ANIM_AVAIL_UNAVAILABLE);

    /* A zero or non-finite rotation erases yaw, not translation. */
    hgrid_init(&h, 4);
    h.pos[3] = anim_vec3_make(3, 0, 4);
    h.rot[1] = anim_quat_make(0, 0, 0, 0);
    anim_root_trajectory_measure(&doc, &rig, &h.g, &t);
    assert_int_equal(t.translation_availability, ANIM_AVAIL_MEASURED);
    assert_int_equal(t.yaw_availability, ANIM_AVAIL_UNAVAILABLE);
    assert_near(t.translation.dx_m, 3, 0);
    assert_near(t.translation.travel_m, 5, 1e-12);
    anim_root_speed_measure(&doc, &rig, &h.g, &s);
    assert_near(s.mps, 5.0, 1e-12);
    h.rot[1] = anim_quat_make(NAN, 0, 0, 1);
    anim_root_trajectory_measure(&doc, &rig, &h.g, &t);
    assert_int_equal(t.yaw_availability, ANIM_AVAIL_UNAVAILABLE);

    /* A zero-length last grid time: no speed. */
    hgrid_init(&h, 3);
    h.times[2] = 0.0;
    anim_root_speed_measure(&doc, &rig, &h.g, &s);
    assert_int_equal(s.availability, ANIM_AVAIL_UNAVAILABLE);
}

/* ---- JSON and text ---------------------------------------------------- */

static void test_trajectory_json(void **state)
{
    (void)state;
    anim_root_trajectory t;
    memset(&t, 0, sizeof t);
    t.availability = ANIM_AVAIL_MEASURED;
    t.bone_index = 2;
    t.bone_name = "Root";
    t.source = ANIM_ROOT_SOURCE_ROOT;
    t.translation_availability = ANIM_AVAIL_MEASURED;
    t.translation = (anim_root_translation){0.5, -1.25, 2.0, 0.0, -0.125, 0.25};
    t.yaw_availability = ANIM_AVAIL_MEASURED;
    t.yaw = (anim_root_yaw){ANIM_HEADING_POSITIVE_X, -90.0, 270.0, 270.0};
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &sb, false);
    anim_json_writer_begin_object(&w);
    anim_error err;
    assert_int_equal(anim_root_trajectory_write_json(&t, "c", &w, &err), 0);
    anim_root_speed s = {ANIM_AVAIL_MEASURED, 1.5};
    assert_int_equal(anim_root_speed_write_json(&s, "c", &w, &err), 0);
    anim_json_writer_end_object(&w);
    assert_string_equal(
        sb.data,
        "{\"root_trajectory\":{\"bone_index\":2,\"bone_name\":\"Root\",\"source_role\":\"root\","
        "\"translation\":{\"horizontal_displacement_x_m\":0.5,\"horizontal_displacement_z_m\":-1.25,"
        "\"horizontal_travel_m\":2.0,\"vertical_displacement_m\":0.0,"
        "\"vertical_min_displacement_m\":-0.125,\"vertical_max_displacement_m\":0.25},"
        "\"translation_availability\":\"measured\",\"yaw\":{\"heading_axis\":\"positive_x\","
        "\"net_yaw_deg\":-90.0,\"unwrapped_yaw_deg\":270.0,\"yaw_travel_deg\":270.0},"
        "\"yaw_availability\":\"measured\"},\"root_trajectory_availability\":\"measured\","
        "\"speed_mps\":1.5,\"speed_mps_availability\":\"measured\"}");

    /* not applicable: just the statuses; non-finite: refused. */
    anim_strbuf_reset(&sb);
    anim_json_writer_init(&w, &sb, false);
    anim_root_trajectory na;
    anim_root_trajectory_select(NULL, NULL, &na);
    anim_json_writer_begin_object(&w);
    assert_int_equal(anim_root_trajectory_write_json(&na, "c", &w, &err), 0);
    anim_json_writer_end_object(&w);
    assert_string_equal(sb.data, "{\"root_trajectory_availability\":\"not_applicable\"}");
    t.yaw.travel_deg = INFINITY;
    anim_strbuf_reset(&sb);
    anim_json_writer_init(&w, &sb, false);
    assert_int_equal(anim_root_trajectory_write_json(&t, "c", &w, &err), -1);
    assert_string_equal(err.message, "measurement value clips[\"c\"].root_trajectory.yaw."
                                     "yaw_travel_deg must be finite");
    s.mps = NAN;
    assert_int_equal(anim_root_speed_write_json(&s, "c", &w, &err), -1);
    assert_string_equal(err.message, "measurement value clips[\"c\"].speed_mps must be finite");
    anim_strbuf_free(&sb);
}

/* The documented first line of `measure --format text` on walk-dirty.glb,
 * byte for byte. */
static void test_text_walk_dirty(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk-dirty.glb");
    anim_arena *arena = anim_arena_new();
    anim_rig_resolution rig;
    anim_measurements m;
    measure_asset(a, &rig, arena, &m);
    anim_measure_file f = {"examples/assets/walk-dirty.glb", "", 0, &a->doc, &rig, &m};
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_render_measure_text(&f, 1, &sb);
    assert_false(sb.failed);
    const char *want =
        "examples/assets/walk-dirty.glb:\n"
        "  walk: 1.000s, 33 frames, 2 animated bones, 2 bone channels loop \xce\x94p=15.81cm "
        "\xce\x94r=0.00\xc2\xb0 \xce\x94v=0.797m/s \xce\x94\xcf\x89=0.00\xc2\xb0/s seam\xc3\x97"
        "6.82 gait \xcf\x86=0.85 (19.9cm) root hips_fallback#0:\"pelvis\" \xce\x94xz=(0.000,0.000)m "
        "xz\xce\xa3=0.000m \xce\x94y=0.000m y=[0.000,0.000]m yaw[+Z]=0.00\xc2\xb0 "
        "unwrap=0.00\xc2\xb0 travel=0.00\xc2\xb0\n";
    if (strncmp(sb.data, want, strlen(want)) != 0)
        fail_msg("got:\n%s\nwant:\n%s", sb.data, want);

    /* Unavailable domains in text. */
    anim_strbuf_reset(&sb);
    m.clips[0].trajectory.translation_availability = ANIM_AVAIL_UNAVAILABLE;
    m.clips[0].trajectory.yaw_availability = ANIM_AVAIL_UNAVAILABLE;
    anim_render_measure_text(&f, 1, &sb);
    assert_non_null(strstr(sb.data, " root hips_fallback#0:\"pelvis\" translation=unavailable "
                                    "yaw=unavailable\n"));
    anim_strbuf_reset(&sb);
    m.clips[0].trajectory.availability = ANIM_AVAIL_UNAVAILABLE;
    anim_render_measure_text(&f, 1, &sb);
    assert_non_null(strstr(sb.data, "(19.9cm) root=unavailable\n"));
    anim_strbuf_free(&sb);
    anim_arena_free(arena);
    anim_asset_free(a);
}

/* The measure envelope around the record. */
static void test_json_envelope(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk.glb");
    anim_arena *arena = anim_arena_new();
    anim_rig_resolution rig;
    anim_measurements m;
    measure_asset(a, &rig, arena, &m);
    anim_measure_file f[2] = {{"one.glb", "ab", 12, &a->doc, &rig, &m},
                              {"two.glb", "cd", 34, &a->doc, &rig, &m}};
    anim_tool_info tool = {"0.4.3", NULL, ANIM_SOURCE_DIRTY_UNKNOWN};
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_error err;
    assert_int_equal(anim_render_measure_json(f, 2, &tool, &sb, &err), 0);
    const char head[] = "{\n  \"schema_version\": 19,\n  \"schema\": \"urn:animsmith:schema:output:19\",\n"
                        "  \"tool\": {\n    \"name\": \"animsmith\",\n    \"version\": \"0.4.3\",\n"
                        "    \"source\": {\n      \"revision\": null,\n      \"dirty\": null\n    }\n"
                        "  },\n  \"command\": \"measure\",\n  \"summary\": {\n    \"files\": 2\n  },\n"
                        "  \"files\": [\n    {\n      \"path\": \"one.glb\",\n      \"input\": {\n"
                        "        \"sha256\": \"ab\",\n        \"bytes\": 12\n      },\n"
                        "      \"rig\": {\n        \"profile\": \"ue-mannequin\",\n";
    assert_int_equal(strncmp(sb.data, head, strlen(head)), 0);
    const char *two = strstr(sb.data, "\"path\": \"two.glb\"");
    assert_non_null(two);
    assert_true(two > strstr(sb.data, "\"path\": \"one.glb\""));
    assert_true(sb.data[sb.len - 1] == '\n' && sb.data[sb.len - 2] == '}');
    /* The documented order of the clip's tail. */
    const char *keys[] = {"\"loop_continuity\"", "\"loop_continuity_availability\"",
                          "\"loop_endpoint_mode_availability\"", "\"frame_grid_availability\"",
                          "\"loop_seam_ratio\"", "\"loop_seam_ratio_availability\"", "\"gait\"",
                          "\"gait_availability\"", "\"root_trajectory\"",
                          "\"root_trajectory_availability\"", "\"speed_mps\"",
                          "\"speed_mps_availability\""};
    const char *prev = sb.data;
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const char *p = strstr(prev, keys[i]);
        if (!p)
            fail_msg("%s missing or out of order", keys[i]);
        prev = p;
    }
    anim_strbuf_free(&sb);
    anim_arena_free(arena);
    anim_asset_free(a);
}

/* `measure --format json examples/assets/walk.glb`, checked field by field
 * against the documented record and field order; frozen here from the
 * files array to the clip record's end (the tool block depends on the
 * build, the static evidence on measure_asset.h). The documented figures
 * are rounded; the exact values printed are 3.67...e-17 (for 3.7e-17),
 * 1.19...e-15 (for 1.2e-15), the f32 data widened (for 0.2), and seam
 * velocities ~1e-15 (f64 arithmetic; f32 arithmetic would give exactly
 * 0). */
static const char WALK_JSON[] =
    "  \"files\": [\n"
    "    {\n"
    "      \"path\": \"examples/assets/walk.glb\",\n"
    "      \"input\": {\n"
    "        \"sha256\": \"SHA\",\n"
    "        \"bytes\": 1\n"
    "      },\n"
    "      \"rig\": {\n"
    "        \"profile\": \"ue-mannequin\",\n"
    "        \"resolution_outcome\": \"coverage\",\n"
    "        \"resolved_roles\": {\n"
    "          \"hips\": \"pelvis\",\n"
    "          \"left_foot\": \"foot_l\",\n"
    "          \"right_foot\": \"foot_r\"\n"
    "        },\n"
    "        \"resolved_role_policies\": {\n"
    "          \"hips\": \"exact\",\n"
    "          \"left_foot\": \"exact\",\n"
    "          \"right_foot\": \"exact\"\n"
    "        }\n"
    "      },\n"
    "      \"measurements\": {\n"
    "        \"schema_version\": 18,\n"
    "        \"schema\": \"urn:animsmith:schema:measurements:18\",\n"
    "        \"clips\": {\n"
    "          \"walk\": {\n"
    "            \"duration_s\": 1.0,\n"
    "            \"frame_count\": 33,\n"
    "            \"animated_bones\": [\n"
    "              \"foot_l\",\n"
    "              \"foot_r\"\n"
    "            ],\n"
    "            \"bone_channels\": [\n"
    "              {\n"
    "                \"bone_index\": 1,\n"
    "                \"bone_name\": \"foot_l\",\n"
    "                \"properties\": [\n"
    "                  \"translation\"\n"
    "                ]\n"
    "              },\n"
    "              {\n"
    "                \"bone_index\": 2,\n"
    "                \"bone_name\": \"foot_r\",\n"
    "                \"properties\": [\n"
    "                  \"translation\"\n"
    "                ]\n"
    "              }\n"
    "            ],\n"
    "            \"bone_rotation_range_deg\": {},\n"
    "            \"loop_continuity\": {\n"
    "              \"bones\": [\n"
    "                {\n"
    "                  \"bone_index\": 0,\n"
    "                  \"bone_name\": \"pelvis\",\n"
    "                  \"availability\": \"measured\",\n"
    "                  \"position_delta_m\": 0.0,\n"
    "                  \"rotation_delta_deg\": 0.0,\n"
    "                  \"seam_velocity_delta_mps\": 0.0,\n"
    "                  \"seam_angular_velocity_delta_degps\": 0.0\n"
    "                },\n"
    "                {\n"
    "                  \"bone_index\": 1,\n"
    "                  \"bone_name\": \"foot_l\",\n"
    "                  \"availability\": \"measured\",\n"
    "                  \"position_delta_m\": 3.6739405577555036e-17,\n"
    "                  \"rotation_delta_deg\": 0.0,\n"
    "                  \"seam_velocity_delta_mps\": 1.2212453270876722e-15,\n"
    "                  \"seam_angular_velocity_delta_degps\": 0.0\n"
    "                },\n"
    "                {\n"
    "                  \"bone_index\": 2,\n"
    "                  \"bone_name\": \"foot_r\",\n"
    "                  \"availability\": \"measured\",\n"
    "                  \"position_delta_m\": 3.6739405577555036e-17,\n"
    "                  \"rotation_delta_deg\": 0.0,\n"
    "                  \"seam_velocity_delta_mps\": 1.2212453270876722e-15,\n"
    "                  \"seam_angular_velocity_delta_degps\": 0.0\n"
    "                }\n"
    "              ]\n"
    "            },\n"
    "            \"loop_continuity_availability\": \"measured\",\n"
    "            \"loop_endpoint_mode_availability\": \"not_applicable\",\n"
    "            \"frame_grid_availability\": \"not_applicable\",\n"
    "            \"loop_seam_ratio\": 1.1910397812975176e-15,\n"
    "            \"loop_seam_ratio_availability\": \"measured\",\n"
    "            \"gait\": {\n"
    "              \"phase\": 0.75,\n"
    "              \"phase_availability\": \"measured\",\n"
    "              \"lr_amplitude_m\": 0.19999992847442627\n"
    "            },\n"
    "            \"gait_availability\": \"measured\",\n"
    "            \"root_trajectory\": {\n"
    "              \"bone_index\": 0,\n"
    "              \"bone_name\": \"pelvis\",\n"
    "              \"source_role\": \"hips_fallback\",\n"
    "              \"translation\": {\n"
    "                \"horizontal_displacement_x_m\": 0.0,\n"
    "                \"horizontal_displacement_z_m\": 0.0,\n"
    "                \"horizontal_travel_m\": 0.0,\n"
    "                \"vertical_displacement_m\": 0.0,\n"
    "                \"vertical_min_displacement_m\": 0.0,\n"
    "                \"vertical_max_displacement_m\": 0.0\n"
    "              },\n"
    "              \"translation_availability\": \"measured\",\n"
    "              \"yaw\": {\n"
    "                \"heading_axis\": \"positive_z\",\n"
    "                \"net_yaw_deg\": 0.0,\n"
    "                \"unwrapped_yaw_deg\": 0.0,\n"
    "                \"yaw_travel_deg\": 0.0\n"
    "              },\n"
    "              \"yaw_availability\": \"measured\"\n"
    "            },\n"
    "            \"root_trajectory_availability\": \"measured\",\n"
    "            \"speed_mps\": 0.0,\n"
    "            \"speed_mps_availability\": \"measured\"\n"
    "          }\n"
    "        },\n"
;

static void test_json_walk_record(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk.glb");
    anim_arena *arena = anim_arena_new();
    anim_rig_resolution rig;
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(anim_rig_resolve(&a->doc, NULL, &rig, &err), 0);
    anim_measurements m;
    if (anim_measure_asset_document(a, &rig, NULL, arena, &m, &err))
        fail_msg("%s", err.message);
    assert_non_null(m.asset);
    anim_measure_file f = {"examples/assets/walk.glb", "SHA", 1, &a->doc, &rig, &m};
    anim_strbuf sb = ANIM_STRBUF_INIT;
    assert_int_equal(anim_render_measure_json(&f, 1, NULL, &sb, &err), 0);
    const char *p = strstr(sb.data, "  \"files\": [\n");
    assert_non_null(p);
    if (strncmp(p, WALK_JSON, strlen(WALK_JSON)) != 0)
        fail_msg("got:\n%s\nwant:\n%s", p, WALK_JSON);
    assert_non_null(strstr(p + strlen(WALK_JSON), "        \"mesh_definitions\": []"));
    anim_strbuf_free(&sb);
    anim_arena_free(arena);
    anim_asset_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_examples_walk),
        cmocka_unit_test(test_example_walk_travel),
        cmocka_unit_test(test_example_clip_not_applicable),
        cmocka_unit_test(test_root_preferred),
        cmocka_unit_test(test_translation_facts),
        cmocka_unit_test(test_no_grid),
        cmocka_unit_test(test_yaw_winding),
        cmocka_unit_test(test_yaw_half_turns),
        cmocka_unit_test(test_heading_axis),
        cmocka_unit_test(test_domains_independent),
        cmocka_unit_test(test_trajectory_json),
        cmocka_unit_test(test_text_walk_dirty),
        cmocka_unit_test(test_json_envelope),
        cmocka_unit_test(test_json_walk_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
