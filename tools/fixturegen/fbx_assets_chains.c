/* Two small FBX chains that exercise the transform chain and animation
 * corners: a 3ds Max-style Z-up metre file (pre-rotation, a rotation
 * pivot, a geometric translation, rotation order ZYX, a 360-degree turn
 * in two linear keys) and a Maya-style centimetre file (segment-scale
 * compensation under a non-uniformly scaled parent, a stack span inside
 * longer curves, an additive layer, a blend shape with its curve). */
#include <string.h>

#include "fbx_scene.h"
#include "fixtures.h"

static const double ZERO3[3] = {0, 0, 0};
static const double ONE3[3] = {1, 1, 1};
static const char *const XYZ[3] = {"d|X", "d|Y", "d|Z"};

/* A cube of half-size h around the origin: 8 points, 6 quads with their
 * normals per polygon vertex (corner bit k picks +h on axis k). */
typedef struct cube {
    double points[24];
    int32_t pvi[24];
    double normals[72];
} cube;

static void build_cube(cube *c, double h)
{
    static const int FACES[6][4] = {{1, 3, 7, 5}, {0, 4, 6, 2}, {2, 6, 7, 3},
                                    {0, 1, 5, 4}, {4, 5, 7, 6}, {0, 2, 3, 1}};
    static const double N[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0},
                                   {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int v = 0; v < 8; v++)
        for (int k = 0; k < 3; k++)
            c->points[v * 3 + k] = (v >> k & 1) ? h : -h;
    for (int f = 0; f < 6; f++)
        for (int i = 0; i < 4; i++) {
            c->pvi[f * 4 + i] = i == 3 ? ~FACES[f][i] : FACES[f][i];
            memcpy(&c->normals[(f * 4 + i) * 3], N[f], sizeof N[f]);
        }
}

static void rotation_active(fx_model m)
{
    fx_p_int(m.props, "RotationActive", "bool", 1);
}

void fg_fbx_zup_metres(fbxw_doc *d, uint32_t version)
{
    /* Z up, front -Y, X right; one file unit is 100 cm. */
    static const fx_axes AXES = {2, 1, 1, -1, 0, 1, 100.0, 6, FX_KTIME_S};
    fx_scene s;
    fx_begin(&s, d, version, &AXES, "Take 001");
    static const double T1[3] = {0, 0, 1}, T2[3] = {0.5, 0, 0}, R2[3] = {90, 0, 90};
    fx_model b1 = fx_model_add(&s, "Bone001", "LimbNode", 0, T1, ZERO3, ONE3, -1);
    fx_p_vec3(b1.props, "PreRotation", "Vector3D", "Vector", "", 0, -90, 0);
    rotation_active(b1);
    fx_model b2 = fx_model_add(&s, "Bone002", "LimbNode", b1.id, T2, R2, ONE3, -1);
    fx_p_int(b2.props, "RotationOrder", "enum", 5); /* ZYX */
    rotation_active(b2);
    fx_model b3 = fx_model_add(&s, "Bone003", "LimbNode", b2.id, T2, ZERO3, ONE3, -1);
    rotation_active(b3);

    static const double TM[3] = {2, 0, 0}, RM[3] = {0, 0, 90};
    fx_model box = fx_model_add(&s, "Box001", "Mesh", 0, TM, RM, ONE3, -1);
    fx_p_vec3(box.props, "RotationPivot", "Vector3D", "Vector", "", 1, 0, 0);
    fx_p_vec3(box.props, "GeometricTranslation", "Vector3D", "Vector", "", 0, 0, 0.25);
    rotation_active(box);
    cube c;
    build_cube(&c, 0.25);
    fx_mesh m = {c.points, 8, c.pvi, 24, c.normals, NULL, 0, NULL, NULL, 6};
    fx_geometry(&s, "Box001", &m, box.id);
    fx_material(&s, "Grey", false, 0.5, 0.5, 0.5, box.id);

    /* A full turn about Bone001's Z in two linear keys: only d|Z has a
     * curve; X and Y keep their defaults. */
    int64_t stack = fx_stack(&s, "Take 001", 0, FX_KTIME_S);
    int64_t layer = fx_layer(&s, "BaseLayer", stack, 0);
    int64_t times[2] = {0, FX_KTIME_S};
    float turn[2] = {0, 360};
    int64_t curves[3] = {0, 0, fx_curve(&s, times, turn, 2, FX_KEY_LINEAR)};
    fx_curve_node(&s, "R", layer, b1.id, "Lcl Rotation", 3, XYZ, ZERO3, curves);
    fx_take(&s, "Take 001", "Take_001.tak", 0, FX_KTIME_S);
    fx_finish(&s);
}

/* The blend shape of the segment-scale file: a plane whose far edge a
 * Shape raises by 10 cm, driven by a DeformPercent curve. */
static int64_t blend_plane(fx_scene *s)
{
    static const double P[12] = {-10, 0, -10, -10, 0, 10, 10, 0, 10, 10, 0, -10};
    static const int32_t PVI[4] = {0, 1, 2, ~3};
    static const double N[12] = {0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0};
    fx_model plane = fx_model_add(s, "Face", "Mesh", 0, ZERO3, ZERO3, ONE3, 1);
    fx_mesh m = {P, 4, PVI, 4, N, NULL, 0, NULL, NULL, 1};
    int64_t geometry = fx_geometry(s, "Face", &m, plane.id);
    fx_material(s, "lambert1", false, 0.5, 0.5, 0.5, plane.id);
    int64_t bs, ch, shape;
    fbxw_node *n = fx_object(s, FX_DEFORMER, "Deformer", "blendShape1", "BlendShape", &bs);
    fbxw_child_i(n, "Version", 100);
    n = fx_object(s, FX_DEFORMER, "SubDeformer", "raise", "BlendShapeChannel", &ch);
    fbxw_child_i(n, "Version", 100);
    fbxw_child_d(n, "DeformPercent", 0);
    static const double FULL[1] = {100};
    fbxw_ad(fbxw_child(n, "FullWeights"), FULL, 1);
    fx_p_num(fbxw_child(n, "Properties70"), "DeformPercent", "Number", "", "A", 0);
    n = fx_object(s, FX_GEOMETRY, "Geometry", "raise", "Shape", &shape);
    fbxw_child_i(n, "Version", 100);
    static const int32_t IDX[2] = {2, 3};
    static const double OFS[6] = {0, 10, 0, 0, 10, 0};
    static const double ZN[6] = {0, 0, 0, 0, 0, 0};
    fbxw_ai(fbxw_child(n, "Indexes"), IDX, 2);
    fbxw_ad(fbxw_child(n, "Vertices"), OFS, 6);
    fbxw_ad(fbxw_child(n, "Normals"), ZN, 6);
    fx_oo(s, bs, geometry);
    fx_oo(s, ch, bs);
    fx_oo(s, shape, ch);
    return ch;
}

void fg_fbx_segment_scale(fbxw_doc *d, uint32_t version)
{
    /* Maya: Y up, centimetres, 24 fps. */
    static const fx_axes AXES = {1, 1, 2, 1, 0, 1, 1.0, 11, 2 * FX_KTIME_S};
    fx_scene s;
    fx_begin(&s, d, version, &AXES, "scale_pulse");
    static const double T1[3] = {0, 100, 0}, T2[3] = {0, 20, 0}, T3[3] = {10, 30, 0},
                        T4[3] = {10, 10, 0};
    fx_model j1 = fx_model_add(&s, "joint1", "LimbNode", 0, T1, ZERO3, ONE3, 1);
    fx_model j2 = fx_model_add(&s, "joint2", "LimbNode", j1.id, T2, ZERO3, ONE3, 1);
    /* Segment scale compensation: joint2's own scale does not reach it. */
    fx_model j3 = fx_model_add(&s, "joint3", "LimbNode", j2.id, T3, ZERO3, ONE3, 2);
    fx_model_add(&s, "joint4", "LimbNode", j3.id, T4, ZERO3, ONE3, 1);
    int64_t channel = blend_plane(&s);

    /* scale_pulse: curves over 0-2 s, the stack plays 0.5-1.5 s. */
    int64_t half = FX_KTIME_S / 2;
    int64_t pulse = fx_stack(&s, "scale_pulse", half, 3 * half);
    int64_t base = fx_layer(&s, "BaseLayer", pulse, 0);
    int64_t t3[3] = {0, FX_KTIME_S, 2 * FX_KTIME_S};
    static const float SX[3] = {1, 2, 1}, SY[3] = {1, 0.5f, 1}, SZ[3] = {1, 1, 1};
    int64_t sc[3] = {fx_curve(&s, t3, SX, 3, FX_KEY_LINEAR), fx_curve(&s, t3, SY, 3, FX_KEY_LINEAR),
                     fx_curve(&s, t3, SZ, 3, FX_KEY_LINEAR)};
    fx_curve_node(&s, "S", base, j2.id, "Lcl Scaling", 3, XYZ, ONE3, sc);
    static const float PCT[3] = {0, 100, 0};
    static const char *const DP[1] = {"d|DeformPercent"};
    int64_t pc[1] = {fx_curve(&s, t3, PCT, 3, FX_KEY_LINEAR)};
    fx_curve_node(&s, "DeformPercent", base, channel, "DeformPercent", 1, DP, ZERO3, pc);

    /* layered: a base rotation and an additive layer on the same joint. */
    int64_t layered = fx_stack(&s, "layered", 0, FX_KTIME_S);
    int64_t lb = fx_layer(&s, "BaseLayer", layered, 0);
    int64_t la = fx_layer(&s, "AdditiveLayer", layered, 1);
    int64_t t2[2] = {0, FX_KTIME_S};
    static const float YAW[2] = {0, 90}, TILT[2] = {0, 30};
    int64_t yaw[3] = {0, fx_curve(&s, t2, YAW, 2, FX_KEY_LINEAR), 0};
    fx_curve_node(&s, "R", lb, j1.id, "Lcl Rotation", 3, XYZ, ZERO3, yaw);
    int64_t tilt[3] = {fx_curve(&s, t2, TILT, 2, FX_KEY_LINEAR), 0, 0};
    fx_curve_node(&s, "R", la, j1.id, "Lcl Rotation", 3, XYZ, ZERO3, tilt);
    fx_take(&s, "scale_pulse", "scale_pulse.tak", half, 3 * half);
    fx_take(&s, "layered", "layered.tak", 0, FX_KTIME_S);
    fx_finish(&s);
}
