/* Pose operations (pose, delete_pose, ik) and the rig evaluation they
 * share, run one at a time on a context built here: the operation JSON
 * goes through the generic validation and then the run function, as the
 * batch driver calls them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/json.h"
#include "animsmith/math.h"
#include "animsmith/model.h"
#include "model/mdl_doc.h"
#include "model/mdl_ops.h"
#include "support/model_op_fixture.h"
#include "model/mdl_rig_eval.h"

/* A root at the origin, an arm 0 -> 1 -> 2 of two unit bones up +Y, and a
 * side joint 3 at +X. */
static const mdl_pose *pose(fx *f, const char *name)
{
    ptrdiff_t i = mdl_doc_find_pose(f->doc, name);
    assert_true(i >= 0);
    return f->doc->poses[i];
}

/* Global positions of every joint in the named pose. */
static void pose_points(fx *f, const char *name, double (*pts)[3])
{
    mdl_trs locals[8];
    double g[8][16];
    assert_true(f->doc->joint_count <= 8);
    mdl_rig_pose_locals(f->doc, pose(f, name), locals);
    mdl_rig_globals(f->doc, locals, g);
    for (size_t i = 0; i < f->doc->joint_count; i++)
        for (int k = 0; k < 3; k++)
            pts[i][k] = g[i][12 + k];
}

static double dist(const double a[3], const double b[3])
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                (a[2] - b[2]) * (a[2] - b[2]));
}

/* Every test starts from a four-joint skeleton: root, upper, lower (a
 * two-bone chain above it) and side. */
static int setup(void **state)
{
    fx_setup(state);
    fx_ok(*state, "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"root\",\"translation\":[0,0,0]},"
                  "{\"name\":\"upper\",\"parent\":0,\"translation\":[0,1,0]},"
                  "{\"name\":\"lower\",\"parent\":1,\"translation\":[0,1,0]},"
                  "{\"name\":\"side\",\"parent\":0,\"translation\":[1,0,0]}]}");
    return 0;
}

static void test_pose_defaults_and_order(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":["
          "{\"joint\":2,\"transform\":{\"translation\":[0,2,0]}},"
          "{\"joint\":1,\"transform\":{\"rotation\":[0,0,0.70710678118654752,"
          "0.70710678118654752],\"scale\":[2,2,2]}}]}");
    const mdl_pose *p = pose(f, "p");
    assert_int_equal(p->joint_count, 2);
    assert_int_equal(p->joints[0].joint, 1); /* sorted by ordinal */
    assert_int_equal(p->joints[1].joint, 2);
    fx_near(p->joints[0].local.translation[1], 0, 0); /* default zero, not the rest */
    fx_near(p->joints[0].local.scale[0], 2, 0);
    fx_near(p->joints[1].local.rotation[3], 1, 0); /* default identity */
    fx_near(p->joints[1].local.scale[2], 1, 0);    /* default one */
    double pts[4][3];
    pose_points(f, "p", pts);
    /* upper at the origin rotated 90 degrees about Z with scale 2: lower's
     * [0,2,0] lands at [-4,0,0]; side keeps its rest. */
    fx_near(pts[2][0], -4, 1e-12);
    fx_near(pts[2][1], 0, 1e-12);
    fx_near(pts[3][0], 1, 0);
    /* Replacing keeps one pose. */
    fx_ok(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[]}");
    assert_int_equal(f->doc->pose_count, 1);
    assert_int_equal(pose(f, "p")->joint_count, 0);
}

static void test_pose_refusals(void **state)
{
    fx *f = *state;
    fx_refused(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[{\"joint\":9,\"transform\":{}}]}",
            "unknown_joint", "joints[0].joint");
    fx_refused(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[{\"joint\":1,\"transform\":{}},"
               "{\"joint\":1,\"transform\":{}}]}",
            "invalid_operation", "joints[1].joint");
    fx_refused(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[{\"joint\":1,\"transform\":"
               "{\"rotation\":[0,0,0,2]}}]}",
            "invalid_transform", "joints[0].transform");
    fx_refused(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[{\"joint\":1,\"transform\":"
               "{\"scale\":[1,0,1]}}]}",
            "invalid_transform", "joints[0].transform");
    fx_refused(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[{\"joint\":1,\"transform\":"
               "{\"shear\":[1,0,1]}}]}",
            "unknown_field", NULL);
    fx_refused(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[{\"joint\":1,\"transform\":[1]}]}",
            "wrong_type", NULL);
    assert_int_equal(f->doc->pose_count, 0);
    char json[128];
    for (int i = 0; i < MDL_POSES_MAX; i++) {
        snprintf(json, sizeof json, "{\"op\":\"pose\",\"name\":\"p%02d\",\"joints\":[]}", i);
        fx_ok(f, json);
    }
    fx_refused(f, "{\"op\":\"pose\",\"name\":\"extra\",\"joints\":[]}", "limit_exceeded", "64");
    fx_ok(f, "{\"op\":\"pose\",\"name\":\"p00\",\"joints\":[]}"); /* replacing is fine */
}

static void test_delete_pose(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[]}");
    fx_ok(f, "{\"op\":\"delete_pose\",\"name\":\"p\"}");
    assert_int_equal(f->doc->pose_count, 0);
    fx_refused(f, "{\"op\":\"delete_pose\",\"name\":\"p\"}", "unknown_pose", "\"p\"");
}

static void test_ik_lands_on_target(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[{\"joint\":3,\"transform\":"
          "{\"translation\":[5,0,0]}}]}");
    fx_ok(f, "{\"op\":\"ik\",\"pose\":\"p\",\"root\":0,\"middle\":1,\"end\":2,"
          "\"target\":[1.2,0.3,0.4],\"pole\":[0,0,-3]}");
    const mdl_pose *p = pose(f, "p");
    assert_int_equal(p->joint_count, 3); /* rows for the root and middle added */
    double pts[4][3], target[3] = {1.2, 0.3, 0.4};
    pose_points(f, "p", pts);
    assert_true(dist(pts[2], target) <= 1e-9);
    fx_near(dist(pts[0], pts[1]), 1, 1e-12);
    fx_near(dist(pts[1], pts[2]), 1, 1e-12);
    /* The middle bends toward the pole side (negative z beyond the line). */
    double mid_z = pts[1][2] - 0.4 * (pts[1][0] * 1.2 + pts[1][1] * 0.3 + pts[1][2] * 0.4) /
                                   (1.2 * 1.2 + 0.3 * 0.3 + 0.4 * 0.4);
    assert_true(mid_z < 0);
    fx_near(p->joints[2].local.translation[0], 5, 0); /* other rows survive */
}

static void test_ik_scaled_parent(void **state)
{
    fx *f = *state;
    /* A uniformly scaled, rotated root: bone lengths are 2 in world. */
    fx_ok(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[{\"joint\":0,\"transform\":"
          "{\"translation\":[1,0,0],\"rotation\":[0.6,0,0,0.8],\"scale\":[2,2,2]}}]}");
    fx_ok(f, "{\"op\":\"ik\",\"pose\":\"p\",\"root\":0,\"middle\":1,\"end\":2,"
          "\"target\":[2,1,3],\"pole\":[5,0,0]}");
    double pts[4][3], target[3] = {2, 1, 3};
    pose_points(f, "p", pts);
    assert_true(dist(pts[2], target) <= 1e-9);
    fx_near(dist(pts[0], pts[1]), 2, 1e-12);
    fx_near(dist(pts[1], pts[2]), 2, 1e-12);
    fx_near(pts[0][0], 1, 0); /* the root does not move */
}

static void test_ik_clamp_and_refusals(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[]}");
    fx_refused(f, "{\"op\":\"ik\",\"pose\":\"p\",\"root\":0,\"middle\":1,\"end\":2,"
               "\"target\":[5,0,0],\"pole\":[0,0,1]}",
            "ik_unreachable", "clamp_reach");
    fx_ok(f, "{\"op\":\"ik\",\"pose\":\"p\",\"root\":0,\"middle\":1,\"end\":2,"
          "\"target\":[5,0,0],\"pole\":[0,0,1],\"clamp_reach\":true}");
    double pts[4][3];
    pose_points(f, "p", pts);
    fx_near(pts[2][0], 2, 1e-9); /* on the reach sphere along the target line */
    fx_near(pts[2][1], 0, 1e-9);
    fx_near(pts[2][2], 0, 1e-9);
    fx_refused(f, "{\"op\":\"ik\",\"pose\":\"p\",\"root\":0,\"middle\":1,\"end\":2,"
               "\"target\":[0,0,0],\"pole\":[0,0,1]}",
            "ik_degenerate", NULL);
    fx_refused(f, "{\"op\":\"ik\",\"pose\":\"p\",\"root\":0,\"middle\":1,\"end\":2,"
               "\"target\":[1,1,0],\"pole\":[2,2,0]}",
            "ik_degenerate", "pole");
    fx_refused(f, "{\"op\":\"ik\",\"pose\":\"q\",\"root\":0,\"middle\":1,\"end\":2,"
               "\"target\":[1,1,0],\"pole\":[0,0,1]}",
            "unknown_pose", "\"q\"");
    fx_refused(f, "{\"op\":\"ik\",\"pose\":\"p\",\"root\":0,\"middle\":3,\"end\":2,"
               "\"target\":[1,1,0],\"pole\":[0,0,1]}",
            "invalid_ik_chain", "middle");
    fx_refused(f, "{\"op\":\"ik\",\"pose\":\"p\",\"root\":0,\"middle\":1,\"end\":3,"
               "\"target\":[1,1,0],\"pole\":[0,0,1]}",
            "invalid_ik_chain", "end");
    fx_refused(f, "{\"op\":\"ik\",\"pose\":\"p\",\"root\":0,\"middle\":1,\"end\":7,"
               "\"target\":[1,1,0],\"pole\":[0,0,1]}",
            "unknown_joint", "\"end\"");
    fx_ok(f, "{\"op\":\"pose\",\"name\":\"s\",\"joints\":[{\"joint\":0,\"transform\":"
          "{\"scale\":[1,2,1]}}]}");
    fx_refused(f, "{\"op\":\"ik\",\"pose\":\"s\",\"root\":0,\"middle\":1,\"end\":2,"
               "\"target\":[1,1,0],\"pole\":[0,0,1]}",
            "ik_nonuniform_scale", "joint 0");
}

static const mdl_clip *clip(fx *f, const char *name)
{
    ptrdiff_t i = mdl_doc_find_clip(f->doc, name);
    assert_true(i >= 0);
    return f->doc->clips[i];
}

static const mdl_channel *channel(const mdl_clip *c, uint32_t joint, mdl_path path)
{
    for (size_t i = 0; i < c->channel_count; i++)
        if (c->channels[i].joint == joint && c->channels[i].path == path)
            return &c->channels[i];
    fail();
    return NULL;
}

/* Clip a: joint 1 moves x 0 -> 2 over 1 s; clip b: joint 1 rotates 0 -> 90
 * degrees about Z over 2 s and joint 2 holds translation [0,3,0]. */
static void two_clips(fx *f)
{
    fx_ok(f, "{\"op\":\"clip\",\"name\":\"a\",\"channels\":[{\"joint\":1,\"path\":"
          "\"translation\",\"keys\":[{\"time\":0,\"value\":[0,1,0,0]},{\"time\":1,"
          "\"value\":[2,1,0,0]}]}]}");
    fx_ok(f, "{\"op\":\"clip\",\"name\":\"b\",\"channels\":[{\"joint\":1,\"path\":"
          "\"rotation\",\"keys\":[{\"time\":0,\"value\":[0,0,0,1]},{\"time\":2,"
          "\"value\":[0,0,0.70710678118654752,0.70710678118654752]}]},"
          "{\"joint\":2,\"path\":\"translation\",\"keys\":[{\"time\":0,"
          "\"value\":[0,3,0,0]}]}]}");
}

static void test_blend_clip(void **state)
{
    fx *f = *state;
    two_clips(f);
    fx_ok(f, "{\"op\":\"blend_clip\",\"name\":\"mix\",\"a\":\"a\",\"b\":\"b\","
          "\"weight\":0.5,\"fps\":4}");
    const mdl_clip *c = clip(f, "mix");
    /* Union of animated (joint, path): 1 translation, 1 rotation, 2 translation. */
    assert_int_equal(c->channel_count, 3);
    const mdl_channel *t = channel(c, 1, MDL_PATH_TRANSLATION);
    assert_int_equal(t->key_count, 9); /* 0, 0.25 .. 1.75, then 2 */
    fx_near(t->keys[8].time, 2, 0);
    /* At t = 1 (half the longer timeline), a is at 0.5 s: x = 1; b's rest x
     * is 0; the midpoint is 0.5. */
    fx_near(t->keys[4].time, 1, 0);
    fx_near(t->keys[4].value[0], 0.5, 1e-12);
    fx_near(t->keys[8].value[0], 1, 1e-12);
    /* Rotation at the end: half of 90 degrees. */
    const mdl_channel *r = channel(c, 1, MDL_PATH_ROTATION);
    fx_near(r->keys[8].value[2], sin(ANIM_PI / 8), 1e-12);
    fx_near(r->keys[8].value[3], cos(ANIM_PI / 8), 1e-12);
    fx_near(channel(c, 2, MDL_PATH_TRANSLATION)->keys[0].value[1], 2, 1e-12); /* (1 + 3) / 2 */
    /* Default fps 30 and weight 0 gives a. */
    fx_ok(f, "{\"op\":\"blend_clip\",\"name\":\"mix\",\"a\":\"a\",\"b\":\"b\","
          "\"weight\":0}");
    t = channel(clip(f, "mix"), 1, MDL_PATH_TRANSLATION);
    assert_int_equal(t->key_count, 61);
    fx_near(t->keys[30].value[0], 1, 1e-12);
    assert_int_equal(clip(f, "a")->channel_count, 1); /* sources unchanged */
    fx_refused(f, "{\"op\":\"blend_clip\",\"name\":\"mix\",\"a\":\"a\",\"b\":\"zz\","
               "\"weight\":0.5}",
            "unknown_clip", "\"b\"");
    fx_refused(f, "{\"op\":\"blend_clip\",\"name\":\"mix\",\"a\":\"a\",\"b\":\"b\","
               "\"weight\":1.5}",
            "out_of_range", NULL);
    fx_ok(f, "{\"op\":\"clip\",\"name\":\"long\",\"channels\":[{\"joint\":1,\"path\":"
          "\"scale\",\"keys\":[{\"time\":0,\"value\":[1,1,1,0]},{\"time\":1000,"
          "\"value\":[2,1,1,0]}]}]}");
    fx_refused(f, "{\"op\":\"blend_clip\",\"name\":\"mix\",\"a\":\"a\",\"b\":\"long\","
               "\"weight\":0.5,\"fps\":120}",
            "limit_exceeded", "keys per channel");
}

static void test_retarget_clip(void **state)
{
    fx *f = *state;
    two_clips(f);
    fx_ok(f, "{\"op\":\"retarget_clip\",\"name\":\"r\",\"source\":\"b\",\"joints\":["
          "{\"source\":1,\"target\":3},{\"source\":2,\"target\":1}],"
          "\"translation_scale\":0.5}");
    const mdl_clip *c = clip(f, "r");
    assert_int_equal(c->channel_count, 2);
    fx_near(channel(c, 1, MDL_PATH_TRANSLATION)->keys[0].value[1], 1.5, 0); /* 3 * 0.5 */
    const mdl_channel *r = channel(c, 3, MDL_PATH_ROTATION);
    fx_near(r->keys[1].value[2], 0.70710678118654752, 0); /* rotations copied */
    fx_near(r->keys[1].time, 2, 0);
    fx_refused(f, "{\"op\":\"retarget_clip\",\"name\":\"r\",\"source\":\"b\",\"joints\":["
               "{\"source\":1,\"target\":3}]}",
            "unmapped_joint", "joint 2");
    fx_refused(f, "{\"op\":\"retarget_clip\",\"name\":\"r\",\"source\":\"b\",\"joints\":["
               "{\"source\":1,\"target\":3},{\"source\":1,\"target\":2}]}",
            "invalid_operation", "joints[1].source");
    fx_refused(f, "{\"op\":\"retarget_clip\",\"name\":\"r\",\"source\":\"b\",\"joints\":["
               "{\"source\":1,\"target\":3},{\"source\":2,\"target\":3}]}",
            "invalid_operation", "joints[1].target");
    fx_refused(f, "{\"op\":\"retarget_clip\",\"name\":\"r\",\"source\":\"b\",\"joints\":["
               "{\"source\":1,\"target\":8}]}",
            "unknown_joint", "joints[0].target");
    fx_refused(f, "{\"op\":\"retarget_clip\",\"name\":\"r\",\"source\":\"zz\",\"joints\":["
               "{\"source\":1,\"target\":3}]}",
            "unknown_clip", NULL);
    fx_refused(f, "{\"op\":\"retarget_clip\",\"name\":\"r\",\"source\":\"b\",\"joints\":["
               "{\"source\":1,\"target\":3}],\"translation_scale\":0}",
            "out_of_range", NULL);
}

static void global_y_axis(fx *f, const char *name, size_t j, double out[3])
{
    mdl_trs locals[8];
    double g[8][16];
    mdl_rig_pose_locals(f->doc, pose(f, name), locals);
    mdl_rig_globals(f->doc, locals, g);
    double l = sqrt(g[j][4] * g[j][4] + g[j][5] * g[j][5] + g[j][6] * g[j][6]);
    for (int k = 0; k < 3; k++)
        out[k] = g[j][4 + k] / l;
}

static void test_constraints_solve(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[{\"joint\":1,\"transform\":"
          "{\"translation\":[0,1,0],\"rotation\":[0,0,0.70710678118654752,"
          "0.70710678118654752]}}]}");
    /* copy: joint 2 takes half of joint 3's local translation. */
    fx_ok(f, "{\"op\":\"constraint\",\"name\":\"c\",\"joint\":2,\"kind\":{\"type\":\"copy\","
          "\"target\":3,\"influence\":0.5}}");
    /* limit: joint 1 at most 45 degrees from rest, translation y <= 0.5. */
    fx_ok(f, "{\"op\":\"constraint\",\"name\":\"l\",\"joint\":1,\"kind\":{\"type\":\"limit\","
          "\"min_translation\":[-1,-1,-1],\"max_translation\":[1,0.5,1],"
          "\"min_scale\":[0.5,0.5,0.5],\"max_scale\":[2,2,2],\"max_angle\":0.78539816339744831}}");
    /* aim: joint 3 points its Y axis at joint 1 (after the limit). */
    fx_ok(f, "{\"op\":\"constraint\",\"name\":\"a\",\"joint\":3,\"kind\":{\"type\":\"aim\","
          "\"target\":1}}");
    assert_int_equal(f->doc->constraint_count, 3);
    const mdl_constraint *c = &f->doc->constraints[mdl_doc_find_constraint(f->doc, "c")];
    assert_true(c->enabled && c->copy_translation && c->copy_rotation && !c->copy_scale);
    fx_ok(f, "{\"op\":\"solve_pose\",\"pose\":\"p\"}");
    const mdl_pose *p = pose(f, "p");
    assert_int_equal(p->joint_count, 3);
    const mdl_trs *upper = &p->joints[0].local, *lower = &p->joints[1].local;
    fx_near(upper->translation[1], 0.5, 0);
    fx_near(upper->rotation[2], sin(ANIM_PI / 8), 1e-12);
    fx_near(upper->rotation[3], cos(ANIM_PI / 8), 1e-12);
    /* copy runs after the aim rewrote joint 3's rotation: half of it. */
    fx_near(lower->translation[0], 0.5, 1e-15);
    fx_near(lower->translation[1], 0.5, 1e-15);
    assert_true(lower->rotation[3] < 1);
    double pts[4][3], axis[3];
    pose_points(f, "p", pts);
    global_y_axis(f, "p", 3, axis);
    double want[3] = {pts[1][0] - pts[3][0], pts[1][1] - pts[3][1], pts[1][2] - pts[3][2]};
    fx_near(pts[1][1], 0.5, 1e-15);
    double wl = sqrt(want[0] * want[0] + want[1] * want[1] + want[2] * want[2]);
    for (int k = 0; k < 3; k++)
        fx_near(axis[k], want[k] / wl, 1e-12);
    /* A disabled constraint is skipped; deleting works once. */
    fx_ok(f, "{\"op\":\"constraint\",\"name\":\"a\",\"joint\":3,\"enabled\":false,"
          "\"kind\":{\"type\":\"aim\",\"target\":2,\"axis\":[1,0,0]}}");
    fx_ok(f, "{\"op\":\"delete_constraint\",\"name\":\"a\"}");
    fx_refused(f, "{\"op\":\"delete_constraint\",\"name\":\"a\"}", "unknown_constraint", "\"a\"");
    fx_refused(f, "{\"op\":\"solve_pose\",\"pose\":\"zz\"}", "unknown_pose", NULL);
}

static void test_constraint_ik(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"root\",\"translation\":[0,0,0]},"
          "{\"name\":\"a\",\"parent\":0,\"translation\":[0,1,0]},"
          "{\"name\":\"b\",\"parent\":1,\"translation\":[0,1,0]},"
          "{\"name\":\"c\",\"parent\":2,\"translation\":[0,1,0]},"
          "{\"name\":\"goal\",\"parent\":0,\"translation\":[1,1.5,0]}]}");
    fx_ok(f, "{\"op\":\"constraint\",\"name\":\"leg\",\"joint\":1,\"kind\":{\"type\":\"ik\","
          "\"middle\":2,\"end\":3,\"target\":4,\"pole\":[0,1,5]}}");
    fx_ok(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[]}");
    fx_ok(f, "{\"op\":\"solve_pose\",\"pose\":\"p\"}");
    double pts[5][3], goal[3] = {1, 1.5, 0};
    pose_points(f, "p", pts);
    assert_true(dist(pts[3], goal) <= 1e-9);
    fx_near(dist(pts[1], pts[2]), 1, 1e-12);
    assert_true(pts[2][2] > 0); /* bends toward the pole */
    fx_ok(f, "{\"op\":\"pose\",\"name\":\"far\",\"joints\":[{\"joint\":4,\"transform\":"
          "{\"translation\":[9,0,0]}}]}");
    fx_refused(f, "{\"op\":\"solve_pose\",\"pose\":\"far\"}", "ik_unreachable", "\"leg\"");
    /* The ik constraint writes joints 1 and 2: a second writer of 2 fails. */
    fx_refused(f, "{\"op\":\"constraint\",\"name\":\"x\",\"joint\":2,\"kind\":{\"type\":\"copy\","
               "\"target\":4}}",
            "constraint_conflict", "joint 2");
    fx_refused(f, "{\"op\":\"constraint\",\"name\":\"x\",\"joint\":1,\"kind\":{\"type\":\"ik\","
               "\"middle\":3,\"end\":2,\"target\":4,\"pole\":[0,1,5]}}",
            "invalid_ik_chain", "kind.middle");
    fx_refused(f, "{\"op\":\"constraint\",\"name\":\"x\",\"joint\":1,\"kind\":{\"type\":\"ik\","
               "\"middle\":2,\"end\":4,\"target\":4,\"pole\":[0,1,5]}}",
            "invalid_ik_chain", "kind.end");
}

static void test_constraint_refusals(void **state)
{
    fx *f = *state;
    fx_refused(f, "{\"op\":\"constraint\",\"name\":\"x\",\"joint\":9,\"kind\":{\"type\":\"copy\","
               "\"target\":1}}",
            "unknown_joint", "\"joint\"");
    fx_refused(f, "{\"op\":\"constraint\",\"name\":\"x\",\"joint\":1,\"kind\":{\"type\":\"copy\","
               "\"target\":9}}",
            "unknown_joint", "kind.target");
    fx_refused(f, "{\"op\":\"constraint\",\"name\":\"x\",\"joint\":1,\"kind\":{\"type\":\"copy\","
               "\"target\":1}}",
            "invalid_constraint", "kind.target");
    fx_refused(f, "{\"op\":\"constraint\",\"name\":\"x\",\"joint\":1,\"kind\":{\"type\":\"aim\","
               "\"target\":2}}",
            "invalid_constraint", "lies below joint 1");
    fx_refused(f, "{\"op\":\"constraint\",\"name\":\"x\",\"joint\":1,\"kind\":{\"type\":\"spin\"}}",
            "out_of_range", "kind.type");
    fx_refused(f, "{\"op\":\"constraint\",\"name\":\"x\",\"joint\":1,\"kind\":{\"type\":\"copy\","
               "\"target\":2,\"axis\":[1,0,0]}}",
            "unknown_field", "kind.axis");
    fx_refused(f, "{\"op\":\"constraint\",\"name\":\"x\",\"joint\":1,\"kind\":{\"type\":\"aim\"}}",
            "missing_field", "kind.target");
    fx_refused(f, "{\"op\":\"constraint\",\"name\":\"x\",\"joint\":1,\"kind\":{\"type\":\"aim\","
               "\"target\":3,\"axis\":[0,0,0]}}",
            "out_of_range", "kind.axis");
    fx_refused(f, "{\"op\":\"constraint\",\"name\":\"x\",\"joint\":1,\"kind\":{\"type\":\"copy\","
               "\"target\":2,\"influence\":2}}",
            "out_of_range", NULL);
    static const char limit[] =
        "{\"op\":\"constraint\",\"name\":\"x\",\"joint\":1,\"kind\":{\"type\":\"limit\","
        "\"min_translation\":[0,0,0],\"max_translation\":%s,\"min_scale\":%s,"
        "\"max_scale\":[1,1,1],\"max_angle\":%s}}";
    char json[512];
    snprintf(json, sizeof json, limit, "[1,1,1]", "[0,1,1]", "1");
    fx_refused(f, json, "out_of_range", "kind.min_scale");
    snprintf(json, sizeof json, limit, "[1,-1,1]", "[1,1,1]", "1");
    fx_refused(f, json, "out_of_range", "kind.max_translation");
    snprintf(json, sizeof json, limit, "[1,1,1]", "[1,2,1]", "1");
    fx_refused(f, json, "out_of_range", "kind.max_scale");
    snprintf(json, sizeof json, limit, "[1,1,1]", "[1,1,1]", "4");
    fx_refused(f, json, "out_of_range", NULL);
    /* A cycle: a reads joint 2 (below joint 1, written by b); b reads joint 3. */
    fx_ok(f, "{\"op\":\"constraint\",\"name\":\"a\",\"joint\":3,\"kind\":{\"type\":\"aim\","
          "\"target\":2}}");
    fx_refused(f, "{\"op\":\"constraint\",\"name\":\"b\",\"joint\":1,\"kind\":{\"type\":\"copy\","
               "\"target\":3}}",
            "constraint_cycle", "\"a\"");
    fx_refused(f, "{\"op\":\"constraint\",\"name\":\"b\",\"joint\":3,\"kind\":{\"type\":\"copy\","
               "\"target\":1}}",
            "constraint_conflict", "joint 3");
    for (int i = 0; i < MDL_CONSTRAINTS_MAX - 1; i++) {
        snprintf(json, sizeof json, "{\"op\":\"constraint\",\"name\":\"d%03d\",\"joint\":1,"
                 "\"enabled\":false,\"kind\":{\"type\":\"copy\",\"target\":2}}", i);
        fx_ok(f, json);
    }
    fx_refused(f, "{\"op\":\"constraint\",\"name\":\"more\",\"joint\":1,\"enabled\":false,"
               "\"kind\":{\"type\":\"copy\",\"target\":2}}",
            "limit_exceeded", "128");
}

static void test_bake_clip(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"pose\",\"name\":\"a\",\"joints\":[{\"joint\":1,\"transform\":"
          "{\"translation\":[0,1,0]}}]}");
    fx_ok(f, "{\"op\":\"pose\",\"name\":\"b\",\"joints\":[{\"joint\":1,\"transform\":"
          "{\"translation\":[2,1,0],\"rotation\":[0,0,0.70710678118654752,"
          "0.70710678118654752]}}]}");
    fx_ok(f, "{\"op\":\"bake_clip\",\"name\":\"baked\",\"poses\":[{\"time\":0,\"pose\":\"a\"},"
          "{\"time\":1.05,\"pose\":\"b\"}],\"fps\":10}");
    const mdl_clip *c = clip(f, "baked");
    /* Only joint 1's translation and rotation leave the rest. */
    assert_int_equal(c->channel_count, 2);
    const mdl_channel *t = channel(c, 1, MDL_PATH_TRANSLATION);
    assert_int_equal(t->key_count, 12); /* 0, 0.1 .. 1.0, then 1.05 exactly */
    fx_near(t->keys[11].time, 1.05, 0);
    fx_near(t->keys[11].value[0], 2, 1e-12);
    /* Half time is not on the lattice here: 0.5 s is 0.5 / 1.05 of the way. */
    fx_near(t->keys[5].value[0], 2 * 0.5 / 1.05, 1e-12);
    fx_ok(f, "{\"op\":\"bake_clip\",\"name\":\"baked\",\"poses\":[{\"time\":0,\"pose\":\"a\"},"
          "{\"time\":1,\"pose\":\"b\"}]}");
    c = clip(f, "baked");
    t = channel(c, 1, MDL_PATH_TRANSLATION);
    assert_int_equal(t->key_count, 31); /* default 30 fps */
    fx_near(t->keys[15].value[0], 1, 1e-12); /* the midpoint at half time */
    const mdl_channel *r = channel(c, 1, MDL_PATH_ROTATION);
    fx_near(r->keys[15].value[2], sin(ANIM_PI / 8), 1e-12);
    /* Constraints are solved at every sample unless told otherwise. */
    fx_ok(f, "{\"op\":\"constraint\",\"name\":\"l\",\"joint\":1,\"kind\":{\"type\":\"limit\","
          "\"min_translation\":[-1,-1,-1],\"max_translation\":[0.5,2,1],"
          "\"min_scale\":[1,1,1],\"max_scale\":[1,1,1],\"max_angle\":3}}");
    fx_ok(f, "{\"op\":\"bake_clip\",\"name\":\"solved\",\"poses\":[{\"time\":0,\"pose\":\"a\"},"
          "{\"time\":1,\"pose\":\"b\"}]}");
    fx_near(channel(clip(f, "solved"), 1, MDL_PATH_TRANSLATION)->keys[30].value[0], 0.5, 0);
    fx_ok(f, "{\"op\":\"bake_clip\",\"name\":\"raw\",\"poses\":[{\"time\":0,\"pose\":\"a\"},"
          "{\"time\":1,\"pose\":\"b\"}],\"solve_constraints\":false}");
    fx_near(channel(clip(f, "raw"), 1, MDL_PATH_TRANSLATION)->keys[30].value[0], 2, 1e-12);
    fx_refused(f, "{\"op\":\"bake_clip\",\"name\":\"x\",\"poses\":[{\"time\":0.5,\"pose\":\"a\"},"
               "{\"time\":1,\"pose\":\"b\"}]}",
            "invalid_clip", "poses[0].time");
    fx_refused(f, "{\"op\":\"bake_clip\",\"name\":\"x\",\"poses\":[{\"time\":0,\"pose\":\"a\"},"
               "{\"time\":0,\"pose\":\"b\"}]}",
            "invalid_clip", "poses[1].time");
    fx_refused(f, "{\"op\":\"bake_clip\",\"name\":\"x\",\"poses\":[{\"time\":0,\"pose\":\"a\"},"
               "{\"time\":1,\"pose\":\"zz\"}]}",
            "unknown_pose", "poses[1].pose");
    fx_refused(f, "{\"op\":\"bake_clip\",\"name\":\"x\",\"poses\":[{\"time\":0,\"pose\":\"a\"}]}",
            "out_of_range", NULL);
    fx_refused(f, "{\"op\":\"bake_clip\",\"name\":\"x\",\"poses\":[{\"time\":0,\"pose\":\"a\"},"
               "{\"time\":1,\"pose\":\"b\"}],\"fps\":121}",
            "out_of_range", NULL);
    fx_refused(f, "{\"op\":\"bake_clip\",\"name\":\"x\",\"poses\":[{\"time\":0,\"pose\":\"a\"},"
               "{\"time\":1000,\"pose\":\"b\"}],\"fps\":120}",
            "limit_exceeded", NULL);
    fx_ok(f, "{\"op\":\"pose\",\"name\":\"rest\",\"joints\":[]}");
    fx_refused(f, "{\"op\":\"bake_clip\",\"name\":\"x\",\"poses\":[{\"time\":0,\"pose\":\"rest\"},"
               "{\"time\":1,\"pose\":\"rest\"}]}",
            "invalid_clip", "rest pose");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_pose_defaults_and_order, setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_pose_refusals, setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_delete_pose, setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_ik_lands_on_target, setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_ik_scaled_parent, setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_ik_clamp_and_refusals, setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_blend_clip, setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_retarget_clip, setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_constraints_solve, setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_constraint_ik, setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_constraint_refusals, setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_bake_clip, setup, fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
