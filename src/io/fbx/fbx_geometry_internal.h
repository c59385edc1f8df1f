/* Private interfaces of the geometry stage (fbx_geometry.c drives
 * fbx_mesh.c, fbx_mesh_split.c, fbx_skin.c, fbx_blendshape.c and
 * fbx_material.c). Not part of the scene contract (fbx_scene.h).
 *
 * The split/triangulation core works on plain arrays so it can be tested
 * without a file: polygons as runs of corners, each corner naming its
 * control point, and the already converted per-corner attributes. */
#ifndef ANIMSMITH_FBX_GEOMETRY_INTERNAL_H
#define ANIMSMITH_FBX_GEOMETRY_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "io/fbx/fbx_scene.h"

/* Polygons with more corners than this are fanned instead of ear-clipped
 * when they are not convex: ear clipping costs up to n^3 per polygon, and
 * real n-gons stay far below this. */
#define ANIM_FBX_EAR_CLIP_MAX 64u

/* ---- the split/triangulation core (fbx_mesh_split.c) ---------------- */

typedef struct anim_fbx_split_input {
    uint32_t cp_count;
    const double *positions;     /* 3 * cp_count, for triangulation only */
    uint32_t corner_count;
    const uint32_t *corner_cp;   /* control point of each corner, < cp_count */
    uint32_t poly_count;
    const uint32_t *poly_start;  /* poly_count + 1 ascending corner offsets */
    const uint32_t *poly_slot;   /* material slot of each polygon, NULL: all 0 */
    uint32_t slot_count;         /* slots are < max(slot_count, 1) */
    /* Per-corner attributes compared bit-exactly for the split (NULL when
     * absent): 3, 4, 2 and 4 floats per corner. */
    const float *normals;
    const float *tangents;
    const float *uv;
    const float *colors;
    bool flip_winding;           /* emit (a, c, b) instead of (a, b, c) */
} anim_fbx_split_input;

typedef struct anim_fbx_split_prim {
    uint32_t slot;
    uint32_t vertex_count;
    uint32_t *vertex_corner;     /* the first corner that made each vertex */
    uint32_t index_count;
    uint32_t *indices;           /* triangle list into the vertices */
} anim_fbx_split_prim;

typedef struct anim_fbx_split {
    anim_fbx_split_prim *prims;  /* used slots, ascending */
    uint32_t prim_count;
    uint32_t skipped_polygons;   /* fewer than 3 corners */
    uint32_t fanned_polygons;    /* non-convex but over ANIM_FBX_EAR_CLIP_MAX corners */
} anim_fbx_split;

/* Splits vertices (one per unique control point + attribute tuple, in
 * first-use order) and triangulates every polygon into the primitive of
 * its slot. Sizes are bounded by corner_count. */
int anim_fbx_split_mesh(const anim_fbx_split_input *in, anim_arena *arena, anim_fbx_split *out,
                        anim_error *err);

/* Triangulates one polygon of n >= 3 corners given by their positions
 * (pos[3 * i]): fan from corner 0 when convex and planar, else ear
 * clipping in the Newell plane. Writes 3 * (n - 2) corner numbers (0..n-1)
 * to tris; scratch holds n uint32 + 2n doubles (work space). Returns true
 * when the polygon was fanned only because it was too large to clip. */
bool anim_fbx_triangulate(const double *pos, uint32_t n, uint32_t *tris, uint32_t *iscratch,
                          double *dscratch);

/* Polygons from PolygonVertexIndex: a negative value -(i+1) ends a
 * polygon; a last polygon without the end mark is closed. Checks every
 * control point index. label names the geometry for messages. */
int anim_fbx_polygons(const int64_t *pvi, uint32_t count, uint32_t cp_count, const char *label,
                      anim_arena *arena, uint32_t **corner_cp, uint32_t **poly_start,
                      uint32_t *poly_count, anim_error *err);

/* ---- geometry records (fbx_mesh.c) ----------------------------------- */

typedef enum {
    ANIM_FBX_MAP_POLYGON_VERTEX,
    ANIM_FBX_MAP_CONTROL_POINT,
    ANIM_FBX_MAP_POLYGON,
    ANIM_FBX_MAP_ALL_SAME
} anim_fbx_mapping;

/* One layer element resolved to a data tuple per corner. */
typedef struct anim_fbx_layer {
    bool present;
    const char *name;            /* the element's Name ("UVChannel_1"), may be "" */
    uint32_t width;              /* components per data tuple */
    const double *data;
    uint32_t tuple_count;
    uint32_t *corner_tuple;      /* corner_count tuple indices, all checked */
} anim_fbx_layer;

/* A Geometry record read into arrays (file space). */
typedef struct anim_fbx_geom {
    const char *label;           /* "Geometry 'Body' (id 123)" */
    uint32_t cp_count;
    const double *cp;            /* 3 * cp_count, file space */
    uint32_t corner_count;
    uint32_t *corner_cp;
    uint32_t poly_count;
    uint32_t *poly_start;
    anim_fbx_layer normal, tangent, uv, color;
    uint32_t *poly_slot;         /* NULL: every polygon slot 0 */
    uint32_t extra_uv_sets;      /* UV elements beyond the first (ignored) */
} anim_fbx_geom;

/* Reads Vertices, PolygonVertexIndex and the layer elements of rec
 * (a 7.x Geometry record, or a 6.1 Mesh Model record). slot_count is the
 * Model's material slot count (material indices are checked against it
 * when it is not 0). */
int anim_fbx_geom_read(const anim_fbx_node *rec, const char *label, uint32_t slot_count,
                       anim_arena *arena, anim_fbx_geom *out, anim_error *err);

/* ---- per-mesh context shared by skin / blend shape routing ------------- */

/* What the skin and blend-shape builders need of one built mesh. */
typedef struct anim_fbx_mesh_ctx {
    uint32_t mesh;               /* scene mesh index */
    uint32_t node;               /* the Model's node */
    uint32_t model_object;
    uint32_t geom_object;        /* ANIM_FBX_SCENE_ROOT for a 6.1 inline mesh */
    const anim_fbx_geom *geom;
    const anim_fbx_split *split;
    double geometric[16];        /* anim_fbx_geometric_matrix of the node */
    double normal_matrix[9];     /* inverse-transpose of its linear part, column-major */
} anim_fbx_mesh_ctx;

/* fbx_skin.c: the Skin deformer of the mesh (if any) into a scene skin
 * and per-vertex joints/weights on every primitive. */
int anim_fbx_build_skin(anim_fbx_scene *scene, const anim_fbx_mesh_ctx *ctx, anim_error *err);
/* The four strongest influences of one vertex, normalized: joints and
 * weights of n influences (joint slots, weights > 0) into out4; ties keep
 * the lower joint. Returns the number dropped (n - 4 when n > 4). */
uint32_t anim_fbx_pick_influences(const uint32_t *joints, const double *weights, uint32_t n,
                                  uint16_t out_joints[4], float out_weights[4]);

/* fbx_blendshape.c: BlendShape channels into morph targets. */
int anim_fbx_build_blendshapes(anim_fbx_scene *scene, const anim_fbx_mesh_ctx *ctx,
                               anim_error *err);

/* fbx_material.c: every Material connected to a mesh node, with its
 * textures and images; fills nodes[i].materials. */
int anim_fbx_build_materials(anim_fbx_scene *scene, anim_error *err);

/* fbx_geometry.c helpers shared by the builders. */
/* The source (child) object of o's k-th child connection (k below
 * o->dst_conn_count) when its class is cls (NULL: any), else
 * ANIM_FBX_SCENE_ROOT; *prop gets the OP property or NULL. Loops over
 * every child walk k directly, so they stay linear in the connections
 * (the i-th-of-a-class lookup rescans from the start each call). */
uint32_t anim_fbx_conn_child(const anim_fbx_objects *objs, const anim_fbx_object *o, uint32_t k,
                             const char *cls, const char **prop);
/* The 3x3 inverse-transpose of m4's linear part (column-major 3x3);
 * identity when singular. */
void anim_fbx_normal_matrix(const double m4[16], double out[9]);
/* Point / direction through convert + geometric (the mesh-space rules). */
void anim_fbx_mesh_point(const anim_fbx_scene *scene, const anim_fbx_mesh_ctx *ctx,
                         const double in[3], double out[3]);
void anim_fbx_mesh_delta(const anim_fbx_scene *scene, const anim_fbx_mesh_ctx *ctx,
                         const double in[3], double out[3]);
void anim_fbx_mesh_normal(const anim_fbx_scene *scene, const anim_fbx_mesh_ctx *ctx,
                          const double in[3], double out[3]);

#endif
