/* The FBX assets of the engine predictions (docs/fixtures.md), binary 7.4,
 * Y up, metres, 30 fps; every number is a fixed recipe.
 *
 * unity-root.fbx: a Unity Generic rig addressed by raw transform path.
 *   Reference            Null at the origin
 *     Root               LimbNode: the root-motion node
 *       Hips             LimbNode, 0.95 m up
 *         Spine, Head
 *         LeftUpLeg, LeftFoot / RightUpLeg, RightFoot
 *   Props / Socket       twice: two Nulls named Props, each with a Socket
 *                        child, so "Props/Socket" names two Models
 *   Clips: walk_turn (the Root travels 0.3 m on X and 1.2 m on Z and
 *   yaws 30 degrees over one second) and idle (the Root stays put), the
 *   Hips bobbing in both; pose, one frame of two keys, too short for a
 *   sampled trajectory.
 *
 * unreal-boundary.fbx: two stacks over one small rig (root / pelvis):
 *   on_lattice ends at frame 30 (KTime 30 * 1539538600), off_lattice
 *   half a frame later (KTime 30.5 frames): Unreal needs a whole end frame. */
#include <math.h>

#include "fbx_scene.h"
#include "fixtures.h"

#define FRAME30 (FX_KTIME_S / 30)
#define PI 3.14159265358979323846

static const double ZERO3[3] = {0, 0, 0};
static const double ONE3[3] = {1, 1, 1};
static const char *const XYZ[3] = {"d|X", "d|Y", "d|Z"};

/* Y up, +Z front, +X coord, 100 cm per unit, 30 fps. */
static const fx_axes AXES = {1, 1, 2, 1, 0, 1, 100.0, 6, FX_KTIME_S};

/* One T or R curve node of three 31-key curves (frames 0..30), values
 * from f(axis, s) with s the clip fraction in [0, 1]. */
typedef double (*channel_fn)(int axis, double s);

static void curve_node31(fx_scene *s, int64_t layer, int64_t model, char kind, channel_fn fn,
                         int64_t stop)
{
    int64_t times[31];
    int64_t curves[3];
    double defaults[3];
    for (int f = 0; f <= 30; f++)
        times[f] = f == 30 ? stop : (int64_t)f * (stop / 30);
    for (int k = 0; k < 3; k++) {
        float v[31];
        for (int f = 0; f <= 30; f++)
            v[f] = (float)fn(k, (double)f / 30.0);
        curves[k] = fx_curve(s, times, v, 31, FX_KEY_LINEAR);
        defaults[k] = v[0];
    }
    char name[2] = {kind, 0};
    fx_curve_node(s, name, layer, model, kind == 'T' ? "Lcl Translation" : "Lcl Rotation", 3,
                  XYZ, defaults, curves);
}

/* ---- unity-root.fbx ---- */

static double root_walk_t(int axis, double s)
{
    return axis == 0 ? 0.3 * s : axis == 2 ? 1.2 * s : 0.0;
}

static double root_walk_r(int axis, double s)
{
    return axis == 1 ? 30.0 * s : 0.0;
}

static double root_still(int axis, double s)
{
    (void)axis;
    (void)s;
    return 0.0;
}

static double hips_bob(int axis, double s)
{
    return axis == 1 ? 0.95 + 0.02 * cos(4 * PI * s) : 0.0;
}

void fg_fbx_unity_root(fbxw_doc *d, uint32_t version)
{
    fx_scene s;
    fx_begin(&s, d, version, &AXES, "walk_turn");
    int64_t reference = fx_model_add(&s, "Reference", "Null", 0, ZERO3, ZERO3, ONE3, 1).id;
    int64_t root = fx_model_add(&s, "Root", "LimbNode", reference, ZERO3, ZERO3, ONE3, 1).id;
    static const double TH[3] = {0, 0.95, 0};
    int64_t hips = fx_model_add(&s, "Hips", "LimbNode", root, TH, ZERO3, ONE3, 1).id;
    static const double TS[3] = {0, 0.12, 0}, THD[3] = {0, 0.45, 0};
    int64_t spine = fx_model_add(&s, "Spine", "LimbNode", hips, TS, ZERO3, ONE3, 1).id;
    fx_model_add(&s, "Head", "LimbNode", spine, THD, ZERO3, ONE3, 1);
    static const double TL[3] = {0.09, -0.05, 0}, TR[3] = {-0.09, -0.05, 0};
    static const double TF[3] = {0, -0.85, 0};
    int64_t lleg = fx_model_add(&s, "LeftUpLeg", "LimbNode", hips, TL, ZERO3, ONE3, 1).id;
    fx_model_add(&s, "LeftFoot", "LimbNode", lleg, TF, ZERO3, ONE3, 1);
    int64_t rleg = fx_model_add(&s, "RightUpLeg", "LimbNode", hips, TR, ZERO3, ONE3, 1).id;
    fx_model_add(&s, "RightFoot", "LimbNode", rleg, TF, ZERO3, ONE3, 1);
    static const double TP1[3] = {1, 0, 0}, TP2[3] = {-1, 0, 0}, TK[3] = {0, 1, 0};
    int64_t props1 = fx_model_add(&s, "Props", "Null", 0, TP1, ZERO3, ONE3, 1).id;
    fx_model_add(&s, "Socket", "Null", props1, TK, ZERO3, ONE3, 1);
    int64_t props2 = fx_model_add(&s, "Props", "Null", 0, TP2, ZERO3, ONE3, 1).id;
    fx_model_add(&s, "Socket", "Null", props2, TK, ZERO3, ONE3, 1);

    int64_t walk = fx_stack(&s, "walk_turn", 0, FX_KTIME_S);
    int64_t walk_layer = fx_layer(&s, "BaseLayer", walk, 0);
    curve_node31(&s, walk_layer, root, 'T', root_walk_t, FX_KTIME_S);
    curve_node31(&s, walk_layer, root, 'R', root_walk_r, FX_KTIME_S);
    curve_node31(&s, walk_layer, hips, 'T', hips_bob, FX_KTIME_S);
    int64_t idle = fx_stack(&s, "idle", 0, FX_KTIME_S);
    int64_t idle_layer = fx_layer(&s, "BaseLayer", idle, 0);
    curve_node31(&s, idle_layer, root, 'T', root_still, FX_KTIME_S);
    curve_node31(&s, idle_layer, hips, 'T', hips_bob, FX_KTIME_S);
    int64_t pose = fx_stack(&s, "pose", 0, FRAME30);
    int64_t pose_layer = fx_layer(&s, "BaseLayer", pose, 0);
    int64_t two[2] = {0, FRAME30};
    int64_t curves[3];
    for (int k = 0; k < 3; k++) {
        float v[2] = {0, 0};
        curves[k] = fx_curve(&s, two, v, 2, FX_KEY_LINEAR);
    }
    fx_curve_node(&s, "T", pose_layer, root, "Lcl Translation", 3, XYZ, ZERO3, curves);
    fx_take(&s, "walk_turn", "walk_turn.tak", 0, FX_KTIME_S);
    fx_take(&s, "idle", "idle.tak", 0, FX_KTIME_S);
    fx_take(&s, "pose", "pose.tak", 0, FRAME30);
    fx_finish(&s);
}

/* ---- unreal-boundary.fbx ---- */

static double root_forward(int axis, double s)
{
    return axis == 2 ? 1.0 * s : 0.0;
}

static double pelvis_bob(int axis, double s)
{
    return axis == 1 ? 0.95 + 0.02 * sin(2 * PI * s) : 0.0;
}

void fg_fbx_unreal_boundary(fbxw_doc *d, uint32_t version)
{
    fx_scene s;
    fx_begin(&s, d, version, &AXES, "on_lattice");
    int64_t root = fx_model_add(&s, "root", "LimbNode", 0, ZERO3, ZERO3, ONE3, 1).id;
    static const double TP[3] = {0, 0.95, 0};
    int64_t pelvis = fx_model_add(&s, "pelvis", "LimbNode", root, TP, ZERO3, ONE3, 1).id;
    /* 30 frames, and 30 frames plus half of one. */
    const int64_t on = 30 * FRAME30, off = 30 * FRAME30 + FRAME30 / 2;
    int64_t a = fx_stack(&s, "on_lattice", 0, on);
    int64_t al = fx_layer(&s, "BaseLayer", a, 0);
    curve_node31(&s, al, root, 'T', root_forward, on);
    curve_node31(&s, al, pelvis, 'T', pelvis_bob, on);
    int64_t b = fx_stack(&s, "off_lattice", 0, off);
    int64_t bl = fx_layer(&s, "BaseLayer", b, 0);
    curve_node31(&s, bl, root, 'T', root_forward, off);
    curve_node31(&s, bl, pelvis, 'T', pelvis_bob, off);
    fx_take(&s, "on_lattice", "on_lattice.tak", 0, on);
    fx_take(&s, "off_lattice", "off_lattice.tak", 0, off);
    fx_finish(&s);
}

const fg_fbx_asset fg_fbx_engine_assets[] = {
    {"unity-root.fbx", fg_fbx_unity_root, {7400, false, 128, NULL}},
    {"unreal-boundary.fbx", fg_fbx_unreal_boundary, {7400, false, 128, NULL}},
};
const size_t fg_fbx_engine_asset_count =
    sizeof fg_fbx_engine_assets / sizeof fg_fbx_engine_assets[0];
