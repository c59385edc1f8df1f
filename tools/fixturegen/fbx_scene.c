/* FBX scene helpers (fbx_scene.h). */
#include "fbx_scene.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The generator's creator string; without a version, so a release does
 * not change the committed fixtures. */
#define FX_CREATOR "animsmith fixturegen"

void fx_p_vec3(fbxw_node *props, const char *name, const char *type, const char *label,
               const char *flags, double x, double y, double z)
{
    fbxw_d(fbxw_d(fbxw_d(fbxw_p(props, name, type, label, flags), x), y), z);
}

void fx_p_int(fbxw_node *props, const char *name, const char *type, int64_t v)
{
    fbxw_node *p = fbxw_p(props, name, type, strcmp(type, "int") ? "" : "Integer", "");
    if (!strcmp(type, "KTime") || !strcmp(type, "ULongLong"))
        fbxw_l(p, v);
    else
        fbxw_i(p, (int32_t)v);
}

void fx_p_num(fbxw_node *props, const char *name, const char *type, const char *label,
              const char *flags, double v)
{
    fbxw_d(fbxw_p(props, name, type, label, flags), v);
}

static void p_ktime(fbxw_node *props, const char *name, int64_t v)
{
    fbxw_l(fbxw_p(props, name, "KTime", "Time", ""), v);
}

void fx_begin(fx_scene *s, fbxw_doc *d, uint32_t version, const fx_axes *a,
              const char *active_stack)
{
    memset(s, 0, sizeof *s);
    s->d = d;
    s->version = version;
    s->next_id = 1000000;
    fbxw_node *h = fbxw_top(d, "FBXHeaderExtension");
    fbxw_child_i(h, "FBXHeaderVersion", 1003);
    fbxw_child_i(h, "FBXVersion", (int32_t)version);
    fbxw_child_i(h, "EncryptionType", 0);
    fbxw_child_s(h, "Creator", FX_CREATOR);
    fbxw_s(fbxw_top(d, "Creator"), FX_CREATOR);
    fbxw_node *g = fbxw_top(d, "GlobalSettings");
    fbxw_child_i(g, "Version", 1000);
    fbxw_node *gp = fbxw_child(g, "Properties70");
    fx_p_int(gp, "UpAxis", "int", a->up);
    fx_p_int(gp, "UpAxisSign", "int", a->up_sign);
    fx_p_int(gp, "FrontAxis", "int", a->front);
    fx_p_int(gp, "FrontAxisSign", "int", a->front_sign);
    fx_p_int(gp, "CoordAxis", "int", a->coord);
    fx_p_int(gp, "CoordAxisSign", "int", a->coord_sign);
    fx_p_int(gp, "OriginalUpAxis", "int", a->up);
    fx_p_int(gp, "OriginalUpAxisSign", "int", a->up_sign);
    fx_p_num(gp, "UnitScaleFactor", "double", "Number", "", a->unit_scale);
    fx_p_num(gp, "OriginalUnitScaleFactor", "double", "Number", "", a->unit_scale);
    fx_p_vec3(gp, "AmbientColor", "ColorRGB", "Color", "", 0, 0, 0);
    fbxw_s(fbxw_p(gp, "DefaultCamera", "KString", "", ""), "Producer Perspective");
    fx_p_int(gp, "TimeMode", "enum", a->time_mode);
    fx_p_int(gp, "TimeProtocol", "enum", 2);
    fx_p_int(gp, "SnapOnFrameMode", "enum", 0);
    p_ktime(gp, "TimeSpanStart", 0);
    p_ktime(gp, "TimeSpanStop", a->span_stop);
    fx_p_num(gp, "CustomFrameRate", "double", "Number", "", -1);
    fbxw_node *docs = fbxw_top(d, "Documents");
    fbxw_child_i(docs, "Count", 1);
    fbxw_node *doc = fbxw_child(docs, "Document");
    fbxw_s(fbxw_s(fbxw_l(doc, 999999), ""), "Scene");
    fbxw_node *dp = fbxw_child(doc, "Properties70");
    fbxw_p(dp, "SourceObject", "object", "", "");
    fbxw_s(fbxw_p(dp, "ActiveAnimStackName", "KString", "", ""), active_stack);
    fbxw_l(fbxw_child(doc, "RootNode"), 0);
    fbxw_top(d, "References");
    s->defs = fbxw_top(d, "Definitions");
    s->objects = fbxw_top(d, "Objects");
    s->conns = fbxw_top(d, "Connections");
    s->takes = fbxw_top(d, "Takes");
    fbxw_child_s(s->takes, "Current", active_stack);
}

/* Template properties of the classes the recipes use: what an object
 * inherits when it does not write the property itself. */
static void template_model(fbxw_node *t)
{
    fbxw_node *p = fbxw_child(fbxw_s(fbxw_child(t, "PropertyTemplate"), "FbxNode"), "Properties70");
    fx_p_vec3(p, "RotationOffset", "Vector3D", "Vector", "", 0, 0, 0);
    fx_p_vec3(p, "RotationPivot", "Vector3D", "Vector", "", 0, 0, 0);
    fx_p_int(p, "RotationOrder", "enum", 0);
    fx_p_vec3(p, "PreRotation", "Vector3D", "Vector", "", 0, 0, 0);
    fx_p_vec3(p, "PostRotation", "Vector3D", "Vector", "", 0, 0, 0);
    fx_p_int(p, "RotationActive", "bool", 0);
    fx_p_int(p, "InheritType", "enum", 0);
    fx_p_vec3(p, "GeometricTranslation", "Vector3D", "Vector", "", 0, 0, 0);
    fx_p_vec3(p, "GeometricRotation", "Vector3D", "Vector", "", 0, 0, 0);
    fx_p_vec3(p, "GeometricScaling", "Vector3D", "Vector", "", 1, 1, 1);
    fx_p_vec3(p, "Lcl Translation", "Lcl Translation", "", "A", 0, 0, 0);
    fx_p_vec3(p, "Lcl Rotation", "Lcl Rotation", "", "A", 0, 0, 0);
    fx_p_vec3(p, "Lcl Scaling", "Lcl Scaling", "", "A", 1, 1, 1);
    fx_p_num(p, "Visibility", "Visibility", "", "A", 1);
}

static void template_named(fbxw_node *t, const char *name, int which)
{
    fbxw_node *p = fbxw_child(fbxw_s(fbxw_child(t, "PropertyTemplate"), name), "Properties70");
    switch (which) {
    case FX_ATTR:
        fx_p_vec3(p, "Color", "ColorRGB", "Color", "", 0.8, 0.8, 0.8);
        fx_p_num(p, "Size", "double", "Number", "", 100);
        fx_p_num(p, "LimbLength", "double", "Number", "H", 1);
        break;
    case FX_GEOMETRY:
        fx_p_vec3(p, "Color", "ColorRGB", "Color", "", 0.8, 0.8, 0.8);
        fx_p_int(p, "Primary Visibility", "bool", 1);
        fx_p_int(p, "Casts Shadows", "bool", 1);
        fx_p_int(p, "Receive Shadows", "bool", 1);
        break;
    case FX_MATERIAL:
        fbxw_s(fbxw_p(p, "ShadingModel", "KString", "", ""), "Lambert");
        fx_p_vec3(p, "DiffuseColor", "Color", "", "A", 0.8, 0.8, 0.8);
        fx_p_num(p, "DiffuseFactor", "Number", "", "A", 1);
        fx_p_vec3(p, "EmissiveColor", "Color", "", "A", 0, 0, 0);
        fx_p_num(p, "TransparencyFactor", "Number", "", "A", 0);
        break;
    case FX_STACK:
        fbxw_s(fbxw_p(p, "Description", "KString", "", ""), "");
        p_ktime(p, "LocalStart", 0);
        p_ktime(p, "LocalStop", 0);
        p_ktime(p, "ReferenceStart", 0);
        p_ktime(p, "ReferenceStop", 0);
        break;
    case FX_LAYER:
        fx_p_num(p, "Weight", "Number", "", "A", 100);
        fx_p_int(p, "Mute", "bool", 0);
        fx_p_int(p, "Solo", "bool", 0);
        fx_p_int(p, "Lock", "bool", 0);
        fx_p_vec3(p, "Color", "ColorRGB", "Color", "", 0.8, 0.8, 0.8);
        fx_p_int(p, "BlendMode", "enum", 0);
        fx_p_int(p, "RotationAccumulationMode", "enum", 0);
        fx_p_int(p, "ScaleAccumulationMode", "enum", 0);
        fx_p_int(p, "BlendModeBypass", "ULongLong", 0);
        break;
    default: /* FX_CURVE_NODE */
        fbxw_p(p, "d", "Compound", "", "");
        break;
    }
}

void fx_finish(fx_scene *s)
{
    static const struct {
        int k;
        const char *type, *templ;
    } TYPES[] = {
        {FX_MODEL, "Model", "FbxNode"},
        {FX_ATTR, "NodeAttribute", "FbxSkeleton"},
        {FX_GEOMETRY, "Geometry", "FbxMesh"},
        {FX_MATERIAL, "Material", "FbxSurfaceLambert"},
        {FX_POSE, "Pose", NULL},
        {FX_DEFORMER, "Deformer", NULL},
        {FX_STACK, "AnimationStack", "FbxAnimStack"},
        {FX_LAYER, "AnimationLayer", "FbxAnimLayer"},
        {FX_CURVE_NODE, "AnimationCurveNode", "FbxAnimCurveNode"},
        {FX_CURVE, "AnimationCurve", NULL},
    };
    uint32_t total = 1;
    for (size_t i = 0; i < sizeof TYPES / sizeof TYPES[0]; i++)
        total += s->counts[TYPES[i].k];
    fbxw_child_i(s->defs, "Version", 100);
    fbxw_child_i(s->defs, "Count", (int32_t)total);
    fbxw_child_i(fbxw_s(fbxw_child(s->defs, "ObjectType"), "GlobalSettings"), "Count", 1);
    for (size_t i = 0; i < sizeof TYPES / sizeof TYPES[0]; i++) {
        uint32_t n = s->counts[TYPES[i].k];
        if (!n)
            continue;
        fbxw_node *t = fbxw_s(fbxw_child(s->defs, "ObjectType"), TYPES[i].type);
        fbxw_child_i(t, "Count", (int32_t)n);
        if (TYPES[i].k == FX_MODEL)
            template_model(t);
        else if (TYPES[i].templ)
            template_named(t, TYPES[i].templ, TYPES[i].k);
    }
}

void fx_oo(fx_scene *s, int64_t child, int64_t parent)
{
    fbxw_l(fbxw_l(fbxw_s(fbxw_child(s->conns, "C"), "OO"), child), parent);
}

void fx_op(fx_scene *s, int64_t child, int64_t parent, const char *property)
{
    fbxw_s(fbxw_l(fbxw_l(fbxw_s(fbxw_child(s->conns, "C"), "OP"), child), parent), property);
}

fbxw_node *fx_object(fx_scene *s, int k, const char *cls, const char *name, const char *subclass,
                     int64_t *id)
{
    static const char *const RECORD[FX_CLASS_COUNT] = {
        "Model",    "NodeAttribute",  "Geometry",       "Material",           "Pose",
        "Deformer", "AnimationStack", "AnimationLayer", "AnimationCurveNode", "AnimationCurve"};
    const char *record = RECORD[k];
    *id = s->next_id;
    s->next_id += 17;
    s->counts[k]++;
    fbxw_node *n = fbxw_block(fbxw_child(s->objects, record));
    fbxw_s(fbxw_objname(fbxw_l(n, *id), cls, name), subclass);
    return n;
}

fx_model fx_model_add(fx_scene *s, const char *name, const char *subclass, int64_t parent,
                      const double t[3], const double r[3], const double sc[3], int inherit)
{
    fx_model m;
    fbxw_node *n = fx_object(s, FX_MODEL, "Model", name, subclass, &m.id);
    fbxw_child_i(n, "Version", 232);
    m.props = fbxw_child(n, "Properties70");
    if (inherit >= 0)
        fx_p_int(m.props, "InheritType", "enum", inherit);
    fx_p_vec3(m.props, "Lcl Translation", "Lcl Translation", "", "A", t[0], t[1], t[2]);
    fx_p_vec3(m.props, "Lcl Rotation", "Lcl Rotation", "", "A", r[0], r[1], r[2]);
    fx_p_vec3(m.props, "Lcl Scaling", "Lcl Scaling", "", "A", sc[0], sc[1], sc[2]);
    fbxw_c(fbxw_child(n, "Shading"), 'Y');
    fx_oo(s, m.id, parent);
    if (!strcmp(subclass, "LimbNode")) {
        int64_t attr;
        fbxw_node *a = fx_object(s, FX_ATTR, "NodeAttribute", name, "LimbNode", &attr);
        fbxw_child_s(a, "TypeFlags", "Skeleton");
        fx_oo(s, attr, m.id);
    }
    return m;
}

static void layer_element(fbxw_node *layer, const char *type)
{
    fbxw_node *e = fbxw_child(layer, "LayerElement");
    fbxw_child_s(e, "Type", type);
    fbxw_child_i(e, "TypedIndex", 0);
}

int64_t fx_geometry(fx_scene *s, const char *name, const fx_mesh *m, int64_t model)
{
    int64_t id;
    fbxw_node *g = fx_object(s, FX_GEOMETRY, "Geometry", name, "Mesh", &id);
    fbxw_ad(fbxw_child(g, "Vertices"), m->points, 3 * m->point_count);
    fbxw_ai(fbxw_child(g, "PolygonVertexIndex"), m->pvi, m->pvi_count);
    fbxw_child_i(g, "GeometryVersion", 124);
    if (m->normals) {
        fbxw_node *e = fbxw_i(fbxw_child(g, "LayerElementNormal"), 0);
        fbxw_child_i(e, "Version", 102);
        fbxw_child_s(e, "Name", "");
        fbxw_child_s(e, "MappingInformationType", "ByPolygonVertex");
        fbxw_child_s(e, "ReferenceInformationType", "Direct");
        fbxw_ad(fbxw_child(e, "Normals"), m->normals, 3 * m->pvi_count);
    }
    if (m->uv) {
        fbxw_node *e = fbxw_i(fbxw_child(g, "LayerElementUV"), 0);
        fbxw_child_i(e, "Version", 101);
        fbxw_child_s(e, "Name", "map1");
        fbxw_child_s(e, "MappingInformationType", "ByPolygonVertex");
        fbxw_child_s(e, "ReferenceInformationType", "IndexToDirect");
        fbxw_ad(fbxw_child(e, "UV"), m->uv, 2 * m->uv_count);
        fbxw_ai(fbxw_child(e, "UVIndex"), m->uv_index, m->pvi_count);
    }
    fbxw_node *e = fbxw_i(fbxw_child(g, "LayerElementMaterial"), 0);
    fbxw_child_i(e, "Version", 101);
    fbxw_child_s(e, "Name", "");
    int32_t zero = 0;
    fbxw_child_s(e, "MappingInformationType", m->materials ? "ByPolygon" : "AllSame");
    fbxw_child_s(e, "ReferenceInformationType", "IndexToDirect");
    fbxw_ai(fbxw_child(e, "Materials"), m->materials ? m->materials : &zero,
            m->materials ? m->polygon_count : 1);
    fbxw_node *l = fbxw_i(fbxw_child(g, "Layer"), 0);
    fbxw_child_i(l, "Version", 100);
    if (m->normals)
        layer_element(l, "LayerElementNormal");
    layer_element(l, "LayerElementMaterial");
    if (m->uv)
        layer_element(l, "LayerElementUV");
    fx_oo(s, id, model);
    return id;
}

int64_t fx_material(fx_scene *s, const char *name, bool phong, double r, double g, double b,
                    int64_t model)
{
    int64_t id;
    fbxw_node *m = fx_object(s, FX_MATERIAL, "Material", name, "", &id);
    fbxw_child_i(m, "Version", 102);
    fbxw_child_s(m, "ShadingModel", phong ? "phong" : "lambert");
    fbxw_child_i(m, "MultiLayer", 0);
    fbxw_node *p = fbxw_child(m, "Properties70");
    fx_p_vec3(p, "AmbientColor", "Color", "", "A", 0, 0, 0);
    fx_p_vec3(p, "DiffuseColor", "Color", "", "A", r, g, b);
    fx_p_num(p, "DiffuseFactor", "Number", "", "A", 0.8);
    if (phong) {
        fx_p_vec3(p, "SpecularColor", "Color", "", "A", 0.5, 0.5, 0.5);
        fx_p_num(p, "ShininessExponent", "Number", "", "A", 20);
    }
    fx_oo(s, id, model);
    return id;
}

int64_t fx_stack(fx_scene *s, const char *name, int64_t start, int64_t stop)
{
    int64_t id;
    fbxw_node *n = fx_object(s, FX_STACK, "AnimStack", name, "", &id);
    fbxw_node *p = fbxw_child(n, "Properties70");
    /* Starts at 0 are left to the template, as exporters do. */
    if (start)
        p_ktime(p, "LocalStart", start);
    p_ktime(p, "LocalStop", stop);
    if (start)
        p_ktime(p, "ReferenceStart", start);
    p_ktime(p, "ReferenceStop", stop);
    return id;
}

int64_t fx_layer(fx_scene *s, const char *name, int64_t stack, int blend_mode)
{
    int64_t id;
    fbxw_node *n = fx_object(s, FX_LAYER, "AnimLayer", name, "", &id);
    if (blend_mode > 0)
        fx_p_int(fbxw_child(n, "Properties70"), "BlendMode", "enum", blend_mode);
    fx_oo(s, id, stack);
    return id;
}

/* KeyAttrFlags bits: interpolation constant 0x2, linear 0x4, cubic 0x8;
 * tangent auto 0x100; generic time-independent 0x2000 and clamp
 * progressive 0x4000 (as exporters set them on every key). */
#define KEY_FLAGS_CUBIC_AUTO 0x2108
#define KEY_FLAGS_LINEAR 0x6104
#define KEY_FLAGS_CONSTANT 0x0002
/* The fourth attribute float's bits: right and next-left weights of
 * 0.3333 (two 16-bit 1/10000 values), i.e. unweighted tangents. */
#define KEY_WEIGHTS_BITS UINT32_C(0x0d050d05)

static float weights_float(void)
{
    uint32_t bits = KEY_WEIGHTS_BITS;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

int64_t fx_curve(fx_scene *s, const int64_t *times, const float *values, uint32_t n,
                 fx_key_mode mode)
{
    int64_t id;
    fbxw_node *c = fx_object(s, FX_CURVE, "AnimCurve", "", "", &id);
    fbxw_child_d(c, "Default", values[0]);
    fbxw_child_i(c, "KeyVer", 4008);
    fbxw_al(fbxw_child(c, "KeyTime"), times, n);
    fbxw_af(fbxw_child(c, "KeyValueFloat"), values, n);
    int32_t *flags = calloc(n, sizeof *flags), *refs = calloc(n, sizeof *refs);
    float *data = calloc((size_t)n * 4, sizeof *data);
    if (!flags || !refs || !data) {
        fputs("animsmith-fixturegen: out of memory\n", stderr);
        exit(1);
    }
    /* Consecutive keys with equal attributes share one run. */
    uint32_t runs = 0;
    for (uint32_t i = 0; i < n; i++) {
        int32_t f = mode == FX_KEY_CUBIC    ? KEY_FLAGS_CUBIC_AUTO
                    : mode == FX_KEY_LINEAR ? KEY_FLAGS_LINEAR
                                            : KEY_FLAGS_CONSTANT;
        /* Slopes are stored as 0, as Mixamo's files store their auto
         * tangents; the reader derives auto tangents from the keys. */
        float d[4] = {0, 0, weights_float(), 0};
        if (runs && flags[runs - 1] == f && !memcmp(&data[(runs - 1) * 4], d, sizeof d)) {
            refs[runs - 1]++;
            continue;
        }
        flags[runs] = f;
        memcpy(&data[runs * 4], d, sizeof d);
        refs[runs] = 1;
        runs++;
    }
    fbxw_ai(fbxw_child(c, "KeyAttrFlags"), flags, runs);
    fbxw_af(fbxw_child(c, "KeyAttrDataFloat"), data, runs * 4);
    fbxw_ai(fbxw_child(c, "KeyAttrRefCount"), refs, runs);
    free(flags);
    free(refs);
    free(data);
    return id;
}

int64_t fx_curve_node(fx_scene *s, const char *name, int64_t layer, int64_t target,
                      const char *property, uint32_t count, const char *const *chan,
                      const double *defaults, const int64_t *curves)
{
    int64_t id;
    fbxw_node *n = fx_object(s, FX_CURVE_NODE, "AnimCurveNode", name, "", &id);
    fbxw_node *p = fbxw_child(n, "Properties70");
    for (uint32_t i = 0; i < count; i++)
        fx_p_num(p, chan[i], "Number", "", "A", defaults[i]);
    fx_oo(s, id, layer);
    fx_op(s, id, target, property);
    for (uint32_t i = 0; i < count; i++)
        if (curves[i])
            fx_op(s, curves[i], id, chan[i]);
    return id;
}

void fx_take(fx_scene *s, const char *name, const char *file, int64_t start, int64_t stop)
{
    fbxw_node *t = fbxw_s(fbxw_child(s->takes, "Take"), name);
    fbxw_child_s(t, "FileName", file);
    fbxw_l(fbxw_l(fbxw_child(t, "LocalTime"), start), stop);
    fbxw_l(fbxw_l(fbxw_child(t, "ReferenceTime"), start), stop);
}
