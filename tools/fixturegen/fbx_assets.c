/* The FBX example assets (listed in docs/fixtures.md): a Mixamo-
 * shaped walk in binary 7.4 and the same scene in ASCII 7.4, a 3ds Max-
 * style Z-up metre file in binary 7.5, and a Maya-style ASCII 7.5 file
 * with segment-scale compensation, a stack span inside longer curves, an
 * additive layer and a blend shape. Every number is a fixed recipe. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbx_scene.h"
#include "fixtures.h"

#define FRAME30 (FX_KTIME_S / 30)
#define PI 3.14159265358979323846

static const double ZERO3[3] = {0, 0, 0};
static const double ONE3[3] = {1, 1, 1};
static const char *const XYZ[3] = {"d|X", "d|Y", "d|Z"};

/* ---- the Mixamo-shaped walk ---- */

typedef struct joint {
    const char *name;
    int parent;          /* index, -1: scene root */
    double t[3];         /* rest translation, cm */
} joint;

enum { HIPS, SPINE, SPINE1, NECK, HEAD, L_ARM, L_FOREARM, L_HAND, R_ARM, R_FOREARM, R_HAND,
       L_UPLEG, L_LEG, L_FOOT, L_TOE, R_UPLEG, R_LEG, R_FOOT, R_TOE, JOINT_COUNT };

static const joint JOINTS[JOINT_COUNT] = {
    {"mixamorig:Hips", -1, {0, 100, 0}},
    {"mixamorig:Spine", HIPS, {0, 10, 0}},
    {"mixamorig:Spine1", SPINE, {0, 12, 0}},
    {"mixamorig:Neck", SPINE1, {0, 18, 0}},
    {"mixamorig:Head", NECK, {0, 10, 0}},
    {"mixamorig:LeftArm", SPINE1, {18, 14, 0}},
    {"mixamorig:LeftForeArm", L_ARM, {25, 0, 0}},
    {"mixamorig:LeftHand", L_FOREARM, {25, 0, 0}},
    {"mixamorig:RightArm", SPINE1, {-18, 14, 0}},
    {"mixamorig:RightForeArm", R_ARM, {-25, 0, 0}},
    {"mixamorig:RightHand", R_FOREARM, {-25, 0, 0}},
    {"mixamorig:LeftUpLeg", HIPS, {9, -5, 0}},
    {"mixamorig:LeftLeg", L_UPLEG, {0, -42, 0}},
    {"mixamorig:LeftFoot", L_LEG, {0, -43, 0}},
    {"mixamorig:LeftToeBase", L_FOOT, {0, -7, 12}},
    {"mixamorig:RightUpLeg", HIPS, {-9, -5, 0}},
    {"mixamorig:RightLeg", R_UPLEG, {0, -42, 0}},
    {"mixamorig:RightFoot", R_LEG, {0, -43, 0}},
    {"mixamorig:RightToeBase", R_FOOT, {0, -7, 12}},
};

/* Rest world position (every rest rotation is zero). */
static void joint_world(int j, double out[3])
{
    out[0] = out[1] = out[2] = 0;
    for (; j >= 0; j = JOINTS[j].parent)
        for (int k = 0; k < 3; k++)
            out[k] += JOINTS[j].t[k];
}

/* One body box: between two points, at least 2*half thick on every axis,
 * skinned rigidly to joint, except that the torso's top corners are split
 * half and half between Spine and top_joint2. */
typedef struct box {
    int from, to;        /* joints; to -1: from + ext */
    double ext[3];
    double half;
    int joint;
    int top_joint2;      /* -1, or the torso's top verts split with Spine1 */
    int material;
} box;

static const box BOXES[] = {
    {HIPS, NECK, {0}, 12, HIPS, SPINE1, 1},
    {HEAD, -1, {0, 18, 0}, 9, HEAD, -1, 0},
    {L_ARM, L_FOREARM, {0}, 4, L_ARM, -1, 1},
    {L_FOREARM, L_HAND, {0}, 3.5, L_FOREARM, -1, 0},
    {L_HAND, -1, {9, 0, 0}, 3, L_HAND, -1, 0},
    {R_ARM, R_FOREARM, {0}, 4, R_ARM, -1, 1},
    {R_FOREARM, R_HAND, {0}, 3.5, R_FOREARM, -1, 0},
    {R_HAND, -1, {-9, 0, 0}, 3, R_HAND, -1, 0},
    {L_UPLEG, L_LEG, {0}, 6, L_UPLEG, -1, 1},
    {L_LEG, L_FOOT, {0}, 5, L_LEG, -1, 1},
    {L_FOOT, L_TOE, {0}, 4, L_FOOT, -1, 1},
    {L_TOE, -1, {0, 0, 6}, 3, L_TOE, -1, 1},
    {R_UPLEG, R_LEG, {0}, 6, R_UPLEG, -1, 1},
    {R_LEG, R_FOOT, {0}, 5, R_LEG, -1, 1},
    {R_FOOT, R_TOE, {0}, 4, R_FOOT, -1, 1},
    {R_TOE, -1, {0, 0, 6}, 3, R_TOE, -1, 1},
};
#define BOX_COUNT (sizeof BOXES / sizeof BOXES[0])

/* Corner bit k of a box vertex index picks hi on axis k; faces counter-
 * clockwise seen from outside, with their normals. */
static const int FACES[6][4] = {{1, 3, 7, 5}, {0, 4, 6, 2}, {2, 6, 7, 3},
                                {0, 1, 5, 4}, {4, 5, 7, 6}, {0, 2, 3, 1}};
static const double FACE_N[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0},
                                    {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};

typedef struct body {
    double points[BOX_COUNT * 8 * 3];
    int32_t pvi[BOX_COUNT * 24];
    double normals[BOX_COUNT * 24 * 3];
    int32_t uv_index[BOX_COUNT * 24];
    int32_t materials[BOX_COUNT * 6];
    /* Up to two influences per control point. */
    int joint[BOX_COUNT * 8][2];
    double weight[BOX_COUNT * 8][2];
} body;

static void build_body(body *b)
{
    for (size_t i = 0; i < BOX_COUNT; i++) {
        const box *x = &BOXES[i];
        double a[3], c[3], lo[3], hi[3];
        joint_world(x->from, a);
        if (x->to >= 0)
            joint_world(x->to, c);
        else
            for (int k = 0; k < 3; k++)
                c[k] = a[k] + x->ext[k];
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(a[k], c[k]);
            hi[k] = fmax(a[k], c[k]);
            if (hi[k] - lo[k] < 2 * x->half) {
                double mid = (lo[k] + hi[k]) / 2;
                lo[k] = mid - x->half;
                hi[k] = mid + x->half;
            }
        }
        for (int v = 0; v < 8; v++) {
            size_t p = i * 8 + (size_t)v;
            for (int k = 0; k < 3; k++)
                b->points[p * 3 + (size_t)k] = (v >> k & 1) ? hi[k] : lo[k];
            bool top = v >> 1 & 1;
            if (x->top_joint2 >= 0 && top) {
                b->joint[p][0] = SPINE;
                b->joint[p][1] = x->top_joint2;
                b->weight[p][0] = b->weight[p][1] = 0.5;
            } else {
                b->joint[p][0] = x->joint;
                b->joint[p][1] = -1;
                b->weight[p][0] = 1;
            }
        }
        for (int f = 0; f < 6; f++) {
            size_t poly = i * 6 + (size_t)f;
            for (int c4 = 0; c4 < 4; c4++) {
                size_t pv = poly * 4 + (size_t)c4;
                int32_t idx = (int32_t)(i * 8) + FACES[f][c4];
                b->pvi[pv] = c4 == 3 ? ~idx : idx;
                b->uv_index[pv] = c4;
                memcpy(&b->normals[pv * 3], FACE_N[f], sizeof FACE_N[f]);
            }
            b->materials[poly] = x->material;
        }
    }
}

/* A column-major translation matrix. */
static void translation(double m[16], double x, double y, double z)
{
    memset(m, 0, 16 * sizeof *m);
    m[0] = m[5] = m[10] = m[15] = 1;
    m[12] = x;
    m[13] = y;
    m[14] = z;
}

static void pose_node(fbxw_node *pose, int64_t node, const double m[16])
{
    fbxw_node *pn = fbxw_child(pose, "PoseNode");
    fbxw_l(fbxw_child(pn, "Node"), node);
    fbxw_ad(fbxw_child(pn, "Matrix"), m, 16);
}

static void walk_skin(fx_scene *s, const body *b, int64_t geometry, int64_t mesh_model,
                      const int64_t *joint_ids)
{
    int64_t skin, pose;
    fbxw_node *sk = fx_object(s, FX_DEFORMER, "Deformer", "Skin Body", "Skin", &skin);
    fbxw_child_i(sk, "Version", 101);
    fbxw_child_d(sk, "Link_DeformAcuracy", 50);
    fx_oo(s, skin, geometry);
    fbxw_node *p = fx_object(s, FX_POSE, "Pose", "BindPose", "BindPose", &pose);
    fbxw_child_s(p, "Type", "BindPose");
    fbxw_child_i(p, "Version", 100);
    fbxw_child_i(p, "NbPoseNodes", JOINT_COUNT + 1);
    double m[16];
    translation(m, 0, 0, 0);
    pose_node(p, mesh_model, m);
    for (int j = 0; j < JOINT_COUNT; j++) {
        int32_t idx[BOX_COUNT * 8];
        double w[BOX_COUNT * 8];
        uint32_t n = 0;
        for (uint32_t v = 0; v < BOX_COUNT * 8; v++)
            for (int k = 0; k < 2; k++)
                if (b->joint[v][k] == j) {
                    idx[n] = (int32_t)v;
                    w[n++] = b->weight[v][k];
                }
        char name[96];
        snprintf(name, sizeof name, "Cluster %s", JOINTS[j].name);
        int64_t cid;
        fbxw_node *c = fx_object(s, FX_DEFORMER, "SubDeformer", name, "Cluster", &cid);
        fbxw_child_i(c, "Version", 100);
        fbxw_s(fbxw_s(fbxw_child(c, "UserData"), ""), "");
        /* Joints without influences carry no arrays, as exporters write. */
        if (n) {
            fbxw_ai(fbxw_child(c, "Indexes"), idx, n);
            fbxw_ad(fbxw_child(c, "Weights"), w, n);
        }
        double wp[3], link[16], inv[16];
        joint_world(j, wp);
        translation(link, wp[0], wp[1], wp[2]);
        translation(inv, -wp[0], -wp[1], -wp[2]);
        fbxw_ad(fbxw_child(c, "Transform"), inv, 16);
        fbxw_ad(fbxw_child(c, "TransformLink"), link, 16);
        fx_oo(s, cid, skin);
        fx_oo(s, joint_ids[j], cid);
        pose_node(p, joint_ids[j], link);
    }
}

/* The walk's channels: value of a joint's curve at frame f of 30. */
typedef struct walk_channel {
    int joint;
    char kind;           /* 'T', 'R', 'S' */
    double amp[3];       /* per axis: base + amp * wave */
    double base[3];
    int wave;            /* 0 sin, 1 cos(2x) bob, 2 (1-cos), 3 (1+cos) */
} walk_channel;

static const walk_channel WALK[] = {
    {HIPS, 'T', {1.5, 1, 0}, {0, 99, 0}, 4},
    {HIPS, 'R', {0, 4, 0}, {0, 0, 0}, 0},
    {L_UPLEG, 'R', {25, 0, 0}, {0, 0, 0}, 0},
    {R_UPLEG, 'R', {-25, 0, 0}, {0, 0, 0}, 0},
    {L_LEG, 'R', {15, 0, 0}, {0, 0, 0}, 2},
    {R_LEG, 'R', {15, 0, 0}, {0, 0, 0}, 3},
    {L_ARM, 'R', {0, -20, 0}, {0, 0, -60}, 0},
    {R_ARM, 'R', {0, -20, 0}, {0, 0, 60}, 0},
};

static double wave(int kind, int axis, int frame)
{
    /* The phase wraps at frame 30, so the last key equals the first. */
    double x = 2 * PI * (double)(frame % 30) / 30.0;
    switch (kind) {
    case 0:
        return sin(x);
    case 2:
        return 1 - cos(x);
    case 3:
        return 1 + cos(x);
    default: /* hips: sway on X, a bob twice a cycle on Y */
        return axis == 0 ? sin(x) : cos(2 * x);
    }
}

static const char *const PROPERTY[3] = {"Lcl Translation", "Lcl Rotation", "Lcl Scaling"};

static int kind_index(char kind)
{
    return kind == 'T' ? 0 : kind == 'R' ? 1 : 2;
}

static void curve_node3(fx_scene *s, int64_t layer, int64_t model, char kind,
                        const double defaults[3], const int64_t curves[3])
{
    char name[2] = {kind, 0};
    fx_curve_node(s, name, layer, model, PROPERTY[kind_index(kind)], 3, XYZ, defaults, curves);
}

static void walk_animation(fx_scene *s, const int64_t *joint_ids)
{
    int64_t empty = fx_stack(s, "Take 001", 0, 100 * FRAME30);
    fx_layer(s, "BaseLayer", empty, 0);
    int64_t stack = fx_stack(s, "mixamo.com", 0, FX_KTIME_S);
    int64_t layer = fx_layer(s, "Base Layer", stack, 0);
    int64_t times[31];
    for (int f = 0; f <= 30; f++)
        times[f] = f * FRAME30;
    for (size_t c = 0; c < sizeof WALK / sizeof WALK[0]; c++) {
        const walk_channel *w = &WALK[c];
        int64_t curves[3];
        double defaults[3];
        for (int k = 0; k < 3; k++) {
            float v[31];
            for (int f = 0; f <= 30; f++)
                v[f] = (float)(w->base[k] + w->amp[k] * wave(w->wave, k, f));
            curves[k] = fx_curve(s, times, v, 31, FX_KEY_CUBIC);
            defaults[k] = v[0];
        }
        curve_node3(s, layer, joint_ids[w->joint], w->kind, defaults, curves);
    }
    /* Spine: a constant translation track of two keys; Hips: a scale
     * track at one. */
    int64_t two[2] = {0, FX_KTIME_S};
    int64_t curves[3];
    for (int k = 0; k < 3; k++) {
        float v[2] = {(float)JOINTS[SPINE].t[k], (float)JOINTS[SPINE].t[k]};
        curves[k] = fx_curve(s, two, v, 2, FX_KEY_CONSTANT);
    }
    curve_node3(s, layer, joint_ids[SPINE], 'T', JOINTS[SPINE].t, curves);
    for (int k = 0; k < 3; k++) {
        float v[2] = {1, 1};
        curves[k] = fx_curve(s, two, v, 2, FX_KEY_CUBIC);
    }
    curve_node3(s, layer, joint_ids[HIPS], 'S', ONE3, curves);
    fx_take(s, "Take 001", "Take_001.tak", 0, 100 * FRAME30);
    fx_take(s, "mixamo.com", "mixamo.com.tak", 0, FX_KTIME_S);
}

static void mixamo_walk(fbxw_doc *d, uint32_t version)
{
    static const fx_axes AXES = {1, 1, 2, 1, 0, 1, 1.0, 6, 100 * FRAME30};
    fx_scene s;
    fx_begin(&s, d, version, &AXES, "mixamo.com");
    int64_t ids[JOINT_COUNT];
    for (int j = 0; j < JOINT_COUNT; j++) {
        int64_t parent = JOINTS[j].parent < 0 ? 0 : ids[JOINTS[j].parent];
        ids[j] = fx_model_add(&s, JOINTS[j].name, "LimbNode", parent, JOINTS[j].t, ZERO3, ONE3, 1)
                     .id;
    }
    body *b = calloc(1, sizeof *b);
    if (!b) {
        fputs("animsmith-fixturegen: out of memory\n", stderr);
        exit(1);
    }
    build_body(b);
    static const double UV[8] = {0, 0, 1, 0, 1, 1, 0, 1};
    fx_model mesh = fx_model_add(&s, "Body", "Mesh", 0, ZERO3, ZERO3, ONE3, 1);
    fbxw_s(fbxw_p(mesh.props, "currentUVSet", "KString", "", "U"), "map1");
    fx_mesh m = {b->points, BOX_COUNT * 8, b->pvi,    BOX_COUNT * 24,  b->normals,
                 UV,        4,             b->uv_index, b->materials, BOX_COUNT * 6};
    int64_t geometry = fx_geometry(&s, "Body", &m, mesh.id);
    fx_material(&s, "Skin", false, 0.8, 0.6, 0.5, mesh.id);
    fx_material(&s, "Cloth", true, 0.2, 0.3, 0.6, mesh.id);
    walk_skin(&s, b, geometry, mesh.id, ids);
    free(b);
    walk_animation(&s, ids);
    fx_finish(&s);
}

void fg_fbx_mixamo_walk(fbxw_doc *d, uint32_t version)
{
    mixamo_walk(d, version);
}

/* Binary files deflate arrays of 128 bytes and more (key times, matrices,
 * mesh arrays); the 31-key value arrays stay raw. */
const fg_fbx_asset fg_fbx_assets[] = {
    {"mixamo-walk.fbx", fg_fbx_mixamo_walk, {7400, false, 128, NULL}},
    {"mixamo-walk-ascii.fbx", fg_fbx_mixamo_walk,
     {7400, true, 0, "The mixamo-walk.fbx scene in ASCII (generated by animsmith-fixturegen)"}},
    {"fbx-zup-metres.fbx", fg_fbx_zup_metres, {7500, false, 128, NULL}},
    {"fbx-segment-scale.fbx", fg_fbx_segment_scale,
     {7500, true, 0, "Segment scale, a stack span inside its curves, an additive layer, "
                     "a blend shape (generated by animsmith-fixturegen)"}},
};
const size_t fg_fbx_asset_count = sizeof fg_fbx_assets / sizeof fg_fbx_assets[0];
