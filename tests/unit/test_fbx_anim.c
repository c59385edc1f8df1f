/* The FBX animation stage: Euler to quaternion, the samples that keep a
 * 360-degree turn a turn, sign continuity, and (through the whole reader
 * on small ASCII files) span clipping and empty stacks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/math.h"
#include "io/fbx/fbx_curve.h"
#include "io/fbx/fbx_load.h"

#define TPS ANIM_FBX_KTIME_PER_SECOND

static void assert_near_at(double got, double want, double eps, int line)
{
    if (!(fabs(got - want) <= eps)) {
        print_error("line %d: got %.17g, want %.17g\n", line, got, want);
        fail();
    }
}
#define assert_near(g, w, e) assert_near_at((g), (w), (e), __LINE__)

static void test_euler_order(void **state)
{
    (void)state;
    /* XYZ applies X first: R = Rz(90) * Rx(90) takes +Y to +Z, then to +Z. */
    double e[3] = {90, 0, 90}, q[4];
    anim_fbx_euler_quat(0, e, q);
    anim_vec3 v = anim_quat_rotate(anim_quat_from_array(q), anim_vec3_make(0, 1, 0));
    assert_near(v.x, 0, 1e-12);
    assert_near(v.y, 0, 1e-12);
    assert_near(v.z, 1, 1e-12);
    /* ZYX applies Z first: Rx(90) * Rz(90) takes +Y to -X, then stays -X. */
    anim_fbx_euler_quat(5, e, q);
    v = anim_quat_rotate(anim_quat_from_array(q), anim_vec3_make(0, 1, 0));
    assert_near(v.x, -1, 1e-12);
}

static void test_euler_360_turn(void **state)
{
    (void)state;
    /* Z turns 0 -> 360 linearly over one second: two keys, same orientation. */
    anim_fbx_key keys[2] = {{.time = 0, .value = 0, .kind = ANIM_FBX_SEG_LINEAR},
                            {.time = TPS, .value = 360, .kind = ANIM_FBX_SEG_LINEAR}};
    anim_fbx_curve z = {.keys = keys, .key_count = 2};
    anim_fbx_anim_prop rot = {.path = ANIM_PATH_ROTATION, .curves = {NULL, NULL, &z}};
    int64_t times[2] = {0, TPS};
    uint32_t n;
    bool over;
    int64_t *t = anim_fbx_euler_samples(&rot, 0, times, 2, 30.0, 1000, &n, &over);
    assert_non_null(t);
    assert_int_equal(n, 31); /* the 29 frames inside plus both keys */
    double *q = malloc((size_t)n * 4 * sizeof *q);
    for (uint32_t i = 0; i < n; i++) {
        double e[3] = {0, 0, anim_fbx_curve_eval(&z, t[i])};
        anim_fbx_euler_quat(0, e, q + 4 * i);
        if (i > 0)
            assert_true(t[i] > t[i - 1]);
    }
    anim_fbx_quat_continuity(q, n);
    /* Every step turns the same way (+Z) by at most 90 degrees. */
    double total = 0;
    for (uint32_t i = 1; i < n; i++) {
        anim_quat a = anim_quat_from_array(q + 4 * (i - 1)), b = anim_quat_from_array(q + 4 * i);
        anim_quat d = anim_quat_mul(anim_quat_conj(a), b);
        assert_true(d.w > 0 && d.z > 0);
        double ang = anim_deg_from_rad(2 * atan2(d.z, d.w));
        assert_true(ang <= 90.0 + 1e-9);
        total += ang;
    }
    assert_near(total, 360.0, 1e-9);
    free(q);
    free(t);

    /* A 360 jump inside one frame interval is halved until each step <= 90. */
    keys[1].time = TPS / 30;
    times[1] = TPS / 30;
    t = anim_fbx_euler_samples(&rot, 0, times, 2, 30.0, 1000, &n, &over);
    assert_non_null(t);
    assert_int_equal(n, 5); /* halves: 90-degree steps */
    free(t);
    /* The budget of added samples is enforced. */
    keys[1].time = TPS;
    times[1] = TPS;
    t = anim_fbx_euler_samples(&rot, 0, times, 2, 30.0, 10, &n, &over);
    assert_null(t);
    assert_true(over);
    /* Small motion: nothing added. */
    keys[1].value = 80;
    t = anim_fbx_euler_samples(&rot, 0, times, 2, 30.0, 1000, &n, &over);
    assert_int_equal(n, 2);
    free(t);
}

static void test_sign_continuity(void **state)
{
    (void)state;
    double q[12] = {0, 0, 0, 1, 0, 0, -0.38268343236508978, -0.92387953251128674, 0, 0, 0.7071067811865476, 0.7071067811865476};
    anim_fbx_quat_continuity(q, 3);
    assert_true(q[6] > 0 && q[7] > 0);
    assert_true(q[10] > 0 && q[11] > 0);
    double q2[8] = {0, 0, 0, 1, 0, 0, 0, -1};
    anim_fbx_quat_continuity(q2, 2);
    assert_true(q2[7] == 1.0);
}

/* ---- through the reader ----------------------------------------------- */

static const char *const FBX_HEAD =
    "; FBX 7.5.0 project file\n"
    "FBXHeaderExtension:  {\n FBXHeaderVersion: 1003\n FBXVersion: 7500\n}\n"
    "GlobalSettings:  {\n Version: 1000\n Properties70:  {\n"
    "  P: \"UpAxis\", \"int\", \"Integer\", \"\",1\n  P: \"UpAxisSign\", \"int\", \"Integer\", \"\",1\n"
    "  P: \"FrontAxis\", \"int\", \"Integer\", \"\",2\n  P: \"FrontAxisSign\", \"int\", \"Integer\", \"\",1\n"
    "  P: \"CoordAxis\", \"int\", \"Integer\", \"\",0\n  P: \"CoordAxisSign\", \"int\", \"Integer\", \"\",1\n"
    "  P: \"UnitScaleFactor\", \"double\", \"Number\", \"\",100\n"
    "  P: \"TimeMode\", \"enum\", \"\", \"\",6\n }\n}\n";

/* One joint rotating about Z on keys at 0, 1, 2, 3 s (0, 30, 60, 90 deg);
 * stack Clip spans 1..2 s; stack Empty has a layer and no curve nodes. */
static const char *const FBX_BODY =
    "Objects:  {\n"
    " Model: 10, \"Model::j\", \"LimbNode\" {\n  Version: 232\n  Properties70:  {\n"
    "   P: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",1,2,3\n  }\n }\n"
    " AnimationStack: 20, \"AnimStack::Clip\", \"\" {\n  Properties70:  {\n"
    "   P: \"LocalStart\", \"KTime\", \"Time\", \"\",46186158000\n"
    "   P: \"LocalStop\", \"KTime\", \"Time\", \"\",92372316000\n  }\n }\n"
    " AnimationStack: 21, \"AnimStack::Empty\", \"\" {\n }\n"
    " AnimationLayer: 30, \"AnimLayer::Base\", \"\" {\n }\n"
    " AnimationLayer: 31, \"AnimLayer::Base2\", \"\" {\n }\n"
    " AnimationLayer: 32, \"AnimLayer::Extra\", \"\" {\n }\n"
    " AnimationCurveNode: 40, \"AnimCurveNode::R\", \"\" {\n  Properties70:  {\n"
    "   P: \"d|X\", \"Number\", \"\", \"A\",0\n   P: \"d|Y\", \"Number\", \"\", \"A\",0\n"
    "   P: \"d|Z\", \"Number\", \"\", \"A\",0\n  }\n }\n"
    " AnimationCurve: 50, \"AnimCurve::\", \"\" {\n  Default: 0\n  KeyVer: 4009\n"
    "  KeyTime: *4 {\n   a: 0,46186158000,92372316000,138558474000\n  }\n"
    "  KeyValueFloat: *4 {\n   a: 0,30,60,90\n  }\n"
    "  KeyAttrFlags: *1 {\n   a: 24836\n  }\n"
    "  KeyAttrDataFloat: *4 {\n   a: 0,0,218434821,0\n  }\n"
    "  KeyAttrRefCount: *1 {\n   a: 4\n  }\n }\n"
    "}\n"
    "Connections:  {\n"
    " C: \"OO\",10,0\n C: \"OO\",30,20\n C: \"OO\",32,20\n C: \"OO\",31,21\n"
    " C: \"OO\",40,30\n C: \"OP\",40,10, \"Lcl Rotation\"\n C: \"OP\",50,40, \"d|Z\"\n"
    "}\n";

static anim_fbx_loaded *load_text(anim_error *err)
{
    size_t a = strlen(FBX_HEAD), b = strlen(FBX_BODY);
    char *text = malloc(a + b + 1);
    memcpy(text, FBX_HEAD, a);
    memcpy(text + a, FBX_BODY, b + 1);
    anim_fbx_loaded *l = anim_fbx_read_memory(text, a + b, NULL, "t.fbx", NULL, err);
    free(text);
    return l;
}

static void test_span_clipping_and_empty_stack(void **state)
{
    (void)state;
    anim_error err = {0};
    anim_fbx_loaded *l = load_text(&err);
    if (!l)
        print_error("%s\n", err.message);
    assert_non_null(l);
    const anim_fbx_scene *sc = &l->scene;
    assert_int_equal(sc->clip_count, 2);
    const anim_fbx_clip *c = &sc->clips[0];
    assert_string_equal(c->name, "Clip");
    assert_near(c->start_s, 1.0, 0);
    assert_near(c->stop_s, 2.0, 0);
    assert_int_equal(c->curve_count, 1);
    assert_int_equal(c->ignored_layer_count, 1);
    assert_string_equal(c->ignored_layers[0], "Extra");
    assert_int_equal(c->track_count, 1);
    const anim_fbx_track *tr = &c->tracks[0];
    assert_int_equal(tr->path, ANIM_PATH_ROTATION);
    assert_int_equal(tr->interp, ANIM_INTERP_LINEAR);
    /* Keys inside [1, 2] only, never rebased. */
    assert_int_equal(tr->key_count, 2);
    assert_near(tr->times[0], 1.0, 0);
    assert_near(tr->times[1], 2.0, 0);
    /* 60 degrees about Z at 2 s (Y-up file: glTF Z is file Z). */
    assert_near(fabs(tr->values[4 + 2]), sin(anim_rad_from_deg(30)), 1e-9);
    /* The empty stack is still a clip, with no tracks and the keys' (no) span. */
    assert_string_equal(sc->clips[1].name, "Empty");
    assert_int_equal(sc->clips[1].track_count, 0);
    assert_int_equal(sc->clips[1].curve_count, 0);
    anim_fbx_loaded_free(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_euler_order),
        cmocka_unit_test(test_euler_360_turn),
        cmocka_unit_test(test_sign_continuity),
        cmocka_unit_test(test_span_clipping_and_empty_stack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
