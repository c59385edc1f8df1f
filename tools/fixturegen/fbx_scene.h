/* FBX scene helpers for the generator's FBX recipes: the sections every
 * 7.x file carries (header, GlobalSettings, Definitions with templates,
 * Objects, Connections, Takes) and the objects the recipes put in them
 * (models, meshes, skins, poses, materials, animation stacks, layers,
 * curve nodes and curves), laid out the way exporters write them. */
#ifndef ANIMSMITH_FIXTUREGEN_FBX_SCENE_H
#define ANIMSMITH_FIXTUREGEN_FBX_SCENE_H

#include <stdbool.h>
#include <stdint.h>

#include "fbx_writer.h"

/* KTime ticks per second. */
#define FX_KTIME_S INT64_C(46186158000)

/* Object classes counted for Definitions. */
enum {
    FX_MODEL,
    FX_ATTR,
    FX_GEOMETRY,
    FX_MATERIAL,
    FX_POSE,
    FX_DEFORMER,
    FX_STACK,
    FX_LAYER,
    FX_CURVE_NODE,
    FX_CURVE,
    FX_CLASS_COUNT
};

typedef struct fx_scene {
    fbxw_doc *d;
    uint32_t version;
    fbxw_node *defs, *objects, *conns, *takes;
    int64_t next_id;
    uint32_t counts[FX_CLASS_COUNT];
} fx_scene;

/* Axes as GlobalSettings spells them (axis index and sign). */
typedef struct fx_axes {
    int up, up_sign, front, front_sign, coord, coord_sign;
    double unit_scale;  /* centimetres per file unit */
    int time_mode;      /* 6: 30 fps, 11: 24 fps */
    int64_t span_stop;  /* TimeSpanStop, KTime */
} fx_axes;

/* Header, GlobalSettings, Documents, References, and the (later filled)
 * Definitions, Objects, Connections and Takes sections. */
void fx_begin(fx_scene *s, fbxw_doc *d, uint32_t version, const fx_axes *axes,
              const char *active_stack);
/* Fills Definitions from the object counts. */
void fx_finish(fx_scene *s);

void fx_oo(fx_scene *s, int64_t child, int64_t parent);
void fx_op(fx_scene *s, int64_t child, int64_t parent, const char *property);

/* P lines. */
void fx_p_vec3(fbxw_node *props, const char *name, const char *type, const char *label,
               const char *flags, double x, double y, double z);
void fx_p_int(fbxw_node *props, const char *name, const char *type, int64_t v);
void fx_p_num(fbxw_node *props, const char *name, const char *type, const char *label,
              const char *flags, double v);

/* An object record "cls: id, "cls::name", "subclass"", counted under
 * class k; *id receives its id. */
fbxw_node *fx_object(fx_scene *s, int k, const char *cls, const char *name, const char *subclass,
                     int64_t *id);

typedef struct fx_model {
    int64_t id;
    fbxw_node *props;    /* its Properties70, for extra P lines */
} fx_model;

/* A Model (LimbNode, Mesh, Null) with Lcl Translation/Rotation/Scaling,
 * connected to parent (0: the scene root). Limb nodes get their
 * NodeAttribute. InheritType is written when inherit >= 0. */
fx_model fx_model_add(fx_scene *s, const char *name, const char *subclass, int64_t parent,
                      const double t[3], const double r[3], const double sc[3], int inherit);

/* A Geometry "Mesh": control points, polygons (last index of each
 * complemented), normals ByPolygonVertex Direct (may be NULL), UVs
 * IndexToDirect (may be NULL), per-polygon material indices (NULL: none;
 * one material on all). Connected to model. */
typedef struct fx_mesh {
    const double *points;
    uint32_t point_count;
    const int32_t *pvi;
    uint32_t pvi_count;
    const double *normals;     /* 3 * pvi_count */
    const double *uv;          /* 2 * uv_count */
    uint32_t uv_count;
    const int32_t *uv_index;   /* pvi_count */
    const int32_t *materials;  /* polygon count */
    uint32_t polygon_count;
} fx_mesh;
int64_t fx_geometry(fx_scene *s, const char *name, const fx_mesh *m, int64_t model);

/* A Lambert or Phong material connected to model. */
int64_t fx_material(fx_scene *s, const char *name, bool phong, double r, double g, double b,
                    int64_t model);

/* Animation. */
int64_t fx_stack(fx_scene *s, const char *name, int64_t start, int64_t stop);
int64_t fx_layer(fx_scene *s, const char *name, int64_t stack, int blend_mode);

typedef enum { FX_KEY_CUBIC, FX_KEY_LINEAR, FX_KEY_CONSTANT } fx_key_mode;
/* An AnimationCurve with KeyAttrFlags/DataFloat/RefCount runs (keys of
 * equal attributes share a run; cubic keys are "auto" with stored slopes
 * of 0, as in Mixamo's files). */
int64_t fx_curve(fx_scene *s, const int64_t *times, const float *values, uint32_t n,
                 fx_key_mode mode);
/* An AnimationCurveNode named name with channels chan[0..count) ("d|X"),
 * their defaults, and curves (0: channel left unanimated), connected to
 * layer and OP to target's property. */
int64_t fx_curve_node(fx_scene *s, const char *name, int64_t layer, int64_t target,
                      const char *property, uint32_t count, const char *const *chan,
                      const double *defaults, const int64_t *curves);

/* One Takes entry (the 7.x files repeat every stack there). */
void fx_take(fx_scene *s, const char *name, const char *file, int64_t start, int64_t stop);

#endif
