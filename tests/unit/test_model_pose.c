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
#include "animsmith/model.h"
#include "model/mdl_doc.h"
#include "model/mdl_ops.h"
#include "model/mdl_rig_eval.h"

typedef struct fx {
    mdl_doc *doc;
    anim_model_limits limits;
    anim_arena *arena;
    mdl_result res;
    mdl_ctx ctx;
} fx;

static void result_clear(mdl_result *r)
{
    free(r->faces);
    free(r->vertices);
    for (uint32_t i = 0; i < r->note_count; i++)
        free(r->notes[i]);
    memset(r, 0, sizeof *r);
}

static int run(fx *f, const char *json)
{
    anim_error err;
    anim_json_value *op = anim_json_parse(f->arena, json, strlen(json), NULL, &err);
    if (!op) {
        print_error("bad test JSON: %s\n%s\n", err.message, json);
        fail();
    }
    result_clear(&f->res);
    memset(&f->ctx, 0, sizeof f->ctx);
    f->ctx.doc = f->doc;
    f->ctx.limits = &f->limits;
    f->ctx.result = &f->res;
    f->ctx.work_budget = f->limits.max_work_units;
    const anim_json_value *name = anim_json_get(op, "op");
    f->ctx.op = anim_json_string(name);
    if (mdl_validate_op(&f->ctx, op) != 0)
        return -1;
    const mdl_op_def *def = mdl_op_find(anim_json_string(name), anim_json_string_len(name));
    assert_non_null(def);
    int rc = def->run(&f->ctx, op);
    if (rc == 0)
        assert_true(f->ctx.work > 0);
    return rc;
}

static void ok(fx *f, const char *json)
{
    if (run(f, json) != 0) {
        print_error("refused (%s): %s\n%s\n", f->ctx.refusal_kind ? f->ctx.refusal_kind : "?",
                    f->ctx.refusal, json);
        fail();
    }
}

static void refused(fx *f, const char *json, const char *kind, const char *want)
{
    if (run(f, json) == 0) {
        print_error("accepted: %s\n", json);
        fail();
    }
    assert_non_null(f->ctx.refusal_kind);
    if (strcmp(f->ctx.refusal_kind, kind) != 0) {
        print_error("kind %s (%s), wanted %s\n", f->ctx.refusal_kind, f->ctx.refusal, kind);
        fail();
    }
    if (want && !strstr(f->ctx.refusal, want)) {
        print_error("message \"%s\" lacks \"%s\"\n", f->ctx.refusal, want);
        fail();
    }
}

static void near(double a, double b, double eps)
{
    if (!(fabs(a - b) <= eps)) {
        print_error("%.17g != %.17g (eps %g)\n", a, b, eps);
        fail();
    }
}

/* A root at the origin, an arm 0 -> 1 -> 2 of two unit bones up +Y, and a
 * side joint 3 at +X. */
static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->doc = mdl_doc_new();
    anim_model_limits_default(&f->limits);
    f->arena = anim_arena_new();
    assert_non_null(f->doc);
    assert_non_null(f->arena);
    *state = f;
    ok(f, "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"root\",\"translation\":[0,0,0]},"
          "{\"name\":\"upper\",\"parent\":0,\"translation\":[0,1,0]},"
          "{\"name\":\"lower\",\"parent\":1,\"translation\":[0,1,0]},"
          "{\"name\":\"side\",\"parent\":0,\"translation\":[1,0,0]}]}");
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    result_clear(&f->res);
    mdl_doc_free(f->doc);
    anim_arena_free(f->arena);
    free(f);
    return 0;
}

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

static void test_pose_defaults_and_order(void **state)
{
    fx *f = *state;
    ok(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":["
          "{\"joint\":2,\"transform\":{\"translation\":[0,2,0]}},"
          "{\"joint\":1,\"transform\":{\"rotation\":[0,0,0.70710678118654752,"
          "0.70710678118654752],\"scale\":[2,2,2]}}]}");
    const mdl_pose *p = pose(f, "p");
    assert_int_equal(p->joint_count, 2);
    assert_int_equal(p->joints[0].joint, 1); /* sorted by ordinal */
    assert_int_equal(p->joints[1].joint, 2);
    near(p->joints[0].local.translation[1], 0, 0); /* default zero, not the rest */
    near(p->joints[0].local.scale[0], 2, 0);
    near(p->joints[1].local.rotation[3], 1, 0); /* default identity */
    near(p->joints[1].local.scale[2], 1, 0);    /* default one */
    double pts[4][3];
    pose_points(f, "p", pts);
    /* upper at the origin rotated 90 degrees about Z with scale 2: lower's
     * [0,2,0] lands at [-4,0,0]; side keeps its rest. */
    near(pts[2][0], -4, 1e-12);
    near(pts[2][1], 0, 1e-12);
    near(pts[3][0], 1, 0);
    /* Replacing keeps one pose. */
    ok(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[]}");
    assert_int_equal(f->doc->pose_count, 1);
    assert_int_equal(pose(f, "p")->joint_count, 0);
}

static void test_pose_refusals(void **state)
{
    fx *f = *state;
    refused(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[{\"joint\":9,\"transform\":{}}]}",
            "unknown_joint", "joints[0].joint");
    refused(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[{\"joint\":1,\"transform\":{}},"
               "{\"joint\":1,\"transform\":{}}]}",
            "invalid_operation", "joints[1].joint");
    refused(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[{\"joint\":1,\"transform\":"
               "{\"rotation\":[0,0,0,2]}}]}",
            "out_of_range", "joints[0].transform.rotation");
    refused(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[{\"joint\":1,\"transform\":"
               "{\"scale\":[1,0,1]}}]}",
            "out_of_range", "joints[0].transform.scale");
    refused(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[{\"joint\":1,\"transform\":"
               "{\"shear\":[1,0,1]}}]}",
            "unknown_field", NULL);
    refused(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[{\"joint\":1,\"transform\":[1]}]}",
            "wrong_type", NULL);
    assert_int_equal(f->doc->pose_count, 0);
    char json[128];
    for (int i = 0; i < MDL_POSES_MAX; i++) {
        snprintf(json, sizeof json, "{\"op\":\"pose\",\"name\":\"p%02d\",\"joints\":[]}", i);
        ok(f, json);
    }
    refused(f, "{\"op\":\"pose\",\"name\":\"extra\",\"joints\":[]}", "limit_exceeded", "64");
    ok(f, "{\"op\":\"pose\",\"name\":\"p00\",\"joints\":[]}"); /* replacing is fine */
}

static void test_delete_pose(void **state)
{
    fx *f = *state;
    ok(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[]}");
    ok(f, "{\"op\":\"delete_pose\",\"name\":\"p\"}");
    assert_int_equal(f->doc->pose_count, 0);
    refused(f, "{\"op\":\"delete_pose\",\"name\":\"p\"}", "unknown_pose", "\"p\"");
}

static void test_ik_lands_on_target(void **state)
{
    fx *f = *state;
    ok(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[{\"joint\":3,\"transform\":"
          "{\"translation\":[5,0,0]}}]}");
    ok(f, "{\"op\":\"ik\",\"pose\":\"p\",\"root\":0,\"middle\":1,\"end\":2,"
          "\"target\":[1.2,0.3,0.4],\"pole\":[0,0,-3]}");
    const mdl_pose *p = pose(f, "p");
    assert_int_equal(p->joint_count, 3); /* rows for the root and middle added */
    double pts[4][3], target[3] = {1.2, 0.3, 0.4};
    pose_points(f, "p", pts);
    assert_true(dist(pts[2], target) <= 1e-9);
    near(dist(pts[0], pts[1]), 1, 1e-12);
    near(dist(pts[1], pts[2]), 1, 1e-12);
    /* The middle bends toward the pole side (negative z beyond the line). */
    double mid_z = pts[1][2] - 0.4 * (pts[1][0] * 1.2 + pts[1][1] * 0.3 + pts[1][2] * 0.4) /
                                   (1.2 * 1.2 + 0.3 * 0.3 + 0.4 * 0.4);
    assert_true(mid_z < 0);
    near(p->joints[2].local.translation[0], 5, 0); /* other rows survive */
}

static void test_ik_scaled_parent(void **state)
{
    fx *f = *state;
    /* A uniformly scaled, rotated root: bone lengths are 2 in world. */
    ok(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[{\"joint\":0,\"transform\":"
          "{\"translation\":[1,0,0],\"rotation\":[0.6,0,0,0.8],\"scale\":[2,2,2]}}]}");
    ok(f, "{\"op\":\"ik\",\"pose\":\"p\",\"root\":0,\"middle\":1,\"end\":2,"
          "\"target\":[2,1,3],\"pole\":[5,0,0]}");
    double pts[4][3], target[3] = {2, 1, 3};
    pose_points(f, "p", pts);
    assert_true(dist(pts[2], target) <= 1e-9);
    near(dist(pts[0], pts[1]), 2, 1e-12);
    near(dist(pts[1], pts[2]), 2, 1e-12);
    near(pts[0][0], 1, 0); /* the root does not move */
}

static void test_ik_clamp_and_refusals(void **state)
{
    fx *f = *state;
    ok(f, "{\"op\":\"pose\",\"name\":\"p\",\"joints\":[]}");
    refused(f, "{\"op\":\"ik\",\"pose\":\"p\",\"root\":0,\"middle\":1,\"end\":2,"
               "\"target\":[5,0,0],\"pole\":[0,0,1]}",
            "ik_unreachable", "clamp_reach");
    ok(f, "{\"op\":\"ik\",\"pose\":\"p\",\"root\":0,\"middle\":1,\"end\":2,"
          "\"target\":[5,0,0],\"pole\":[0,0,1],\"clamp_reach\":true}");
    double pts[4][3];
    pose_points(f, "p", pts);
    near(pts[2][0], 2, 1e-9); /* on the reach sphere along the target line */
    near(pts[2][1], 0, 1e-9);
    near(pts[2][2], 0, 1e-9);
    refused(f, "{\"op\":\"ik\",\"pose\":\"p\",\"root\":0,\"middle\":1,\"end\":2,"
               "\"target\":[0,0,0],\"pole\":[0,0,1]}",
            "ik_degenerate", NULL);
    refused(f, "{\"op\":\"ik\",\"pose\":\"p\",\"root\":0,\"middle\":1,\"end\":2,"
               "\"target\":[1,1,0],\"pole\":[2,2,0]}",
            "ik_degenerate", "pole");
    refused(f, "{\"op\":\"ik\",\"pose\":\"q\",\"root\":0,\"middle\":1,\"end\":2,"
               "\"target\":[1,1,0],\"pole\":[0,0,1]}",
            "unknown_pose", "\"q\"");
    refused(f, "{\"op\":\"ik\",\"pose\":\"p\",\"root\":0,\"middle\":3,\"end\":2,"
               "\"target\":[1,1,0],\"pole\":[0,0,1]}",
            "invalid_ik_chain", "middle");
    refused(f, "{\"op\":\"ik\",\"pose\":\"p\",\"root\":0,\"middle\":1,\"end\":3,"
               "\"target\":[1,1,0],\"pole\":[0,0,1]}",
            "invalid_ik_chain", "end");
    refused(f, "{\"op\":\"ik\",\"pose\":\"p\",\"root\":0,\"middle\":1,\"end\":7,"
               "\"target\":[1,1,0],\"pole\":[0,0,1]}",
            "unknown_joint", "\"end\"");
    ok(f, "{\"op\":\"pose\",\"name\":\"s\",\"joints\":[{\"joint\":0,\"transform\":"
          "{\"scale\":[1,2,1]}}]}");
    refused(f, "{\"op\":\"ik\",\"pose\":\"s\",\"root\":0,\"middle\":1,\"end\":2,"
               "\"target\":[1,1,0],\"pole\":[0,0,1]}",
            "ik_nonuniform_scale", "joint 0");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_pose_defaults_and_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pose_refusals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_delete_pose, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ik_lands_on_target, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ik_scaled_parent, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ik_clamp_and_refusals, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
