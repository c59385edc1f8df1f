/* One glTF mesh as the residual reads it (dim 3, metres in bind space),
 * and the accessor-level data a LOD writer needs to write a reduced
 * version of it back.
 *
 * Bind space. A skinned vertex is drawn at sum_k w_k World(k) IBM(k) x;
 * at rest every World(k) IBM(k) is one matrix G, the mesh's bind
 * transform. We take G = World(reference) IBM(reference), so one joint
 * decides it, and apply it to the mesh-local POSITION: that is where the
 * rest pose draws the vertex, in the scene's units (metres), which also
 * folds in an armature's scale (Mixamo's 0.01). A joint's pivot in the
 * same space is G IBM(k)^-1 applied to the origin: the joint's position
 * at bind. An unskinned mesh uses its node's world rest matrix. */
#ifndef ANIMSMITH_MQ_GLTF_MESH_H
#define ANIMSMITH_MQ_GLTF_MESH_H

#include <stdbool.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/gltf.h"
#include "animsmith/meshq.h"

/* Influence sets (JOINTS_n / WEIGHTS_n pairs) read per primitive. */
#define MQ_GLTF_MAX_INFLUENCE_SETS 8
/* Vertices and triangles of one measured mesh: far beyond any real
 * character (a film-grade body is a few hundred thousand), small enough
 * that the per-vertex arrays stay well inside memory. */
#define MQ_GLTF_MAX_VERTICES ((uint32_t)1 << 24)
#define MQ_GLTF_MAX_TRIANGLES ((uint32_t)1 << 25)

/* One triangle primitive (mode 4) of the mesh, as the file holds it. */
typedef struct mq_gltf_prim {
    uint32_t primitive;         /* index in the glTF mesh (the group) */
    uint32_t material;          /* ANIM_NONE when absent */
    uint32_t first_vertex;      /* range in the concatenated mesh */
    uint32_t vertex_count;
    uint32_t first_triangle;
    uint32_t triangle_count;
    /* Accessor-level data, primitive-local vertex indices: */
    const float *positions;     /* 3 * vertex_count, mesh-local */
    const float *uvs;           /* 2 * vertex_count, TEXCOORD_0 */
    const uint32_t *indices;    /* 3 * triangle_count, primitive-local */
    uint32_t influence_sets;    /* JOINTS_n / WEIGHTS_n pairs read */
    /* Set s at joints + s * 4 * vertex_count (4 per vertex); joints are
     * indices into the skin's joints, weights decoded (normalized ints
     * mapped per glTF). NULL when influence_sets is 0. */
    const uint32_t *joints;
    const double *weights;
    uint32_t target_count;      /* morph targets */
} mq_gltf_prim;

typedef struct mq_gltf_mesh {
    anim_mq_mesh mesh;          /* dim 3, groups = primitive index */
    uint32_t mesh_index;
    const char *name;           /* as inspect prints it (mq_gltf_mesh_name) */
    uint32_t node;              /* the first node instancing it, ANIM_NONE */
    uint32_t skin;              /* that node's skin, ANIM_NONE: unskinned */
    uint32_t reference_joint;   /* joint index in the skin G is taken from */
    double bind[16];            /* G, column-major */
    /* One name per skin joint (the joint node's name, "node N" when
     * unnamed): the table the binds' bone indices point into. */
    const char **bone_names;
    uint32_t bone_count;
    double *pivots;             /* 3 * bone_count: G IBM(k)^-1 origin */
    mq_gltf_prim *prims;
    uint32_t prim_count;
    /* Triangles of primitives with another mode, left out. */
    uint32_t skipped_primitives;
} mq_gltf_mesh;

/* The mesh's name as `animsmith inspect` prints it: its own name, or
 * "#N" (inspect's "mesh #N") when it has none. Arena string. */
const char *mq_gltf_mesh_name(const anim_asset *asset, uint32_t mesh, anim_arena *arena);

/* The first node (in node order) instancing mesh, and its skin (ANIM_NONE
 * when none); returns the node or ANIM_NONE. Prefers a skinned node. */
uint32_t mq_gltf_mesh_instance(const anim_asset *asset, uint32_t mesh, uint32_t *skin);

/* Whether the mesh is skinned: a node with a skin draws it. */
bool mq_gltf_mesh_is_skinned(const anim_asset *asset, uint32_t mesh);

/* The first vertex of glTF primitive prim in the built mesh's numbering:
 * the vertices of the triangle primitives one after another, in
 * primitive order (what mq_gltf_mesh_build writes). */
uint32_t mq_gltf_mesh_first_vertex(const anim_mesh *mesh, uint32_t prim);

/* The skin's root joint (joint index): skin.skeleton when it is a joint,
 * else the first joint whose parent is not a joint of the skin. */
uint32_t mq_gltf_skin_root_joint(const anim_asset *asset, uint32_t skin);

/* The joint index of the joint named name in the skin (names as
 * bone_names spells them), or ANIM_NONE. */
uint32_t mq_gltf_skin_find_joint(const anim_asset *asset, uint32_t skin, const char *name);

/* Builds the mesh. reference_joint: the joint G comes from (ANIM_NONE:
 * the skin's root joint). what names the file in messages ("source
 * 'a.glb'"). Every triangle primitive needs TEXCOORD_0 (else
 * ANIM_ERR_INVALID naming the mesh and primitive); counts over the
 * bounds above, or bytes over the asset's grid budget (the budget of
 * derived work, [limits] grid_mib), are refused
 * (ANIM_ERR_LIMIT) before anything is allocated. */
int mq_gltf_mesh_build(const anim_asset *asset, uint32_t mesh, uint32_t reference_joint,
                       const char *what, anim_arena *arena, mq_gltf_mesh *out, anim_error *err);

/* The first triangle primitive of the mesh without TEXCOORD_0, or
 * ANIM_NONE. The residual samples UVs, so such a mesh is not measurable
 * (a property of the asset, not a malformed file). */
uint32_t mq_gltf_mesh_uvless_primitive(const anim_asset *asset, uint32_t mesh_index);

#endif
