/* Private to the compiler (mdl_compile*.c): the state of one compile and
 * the parts each file builds. mdl_compile.c checks the document, runs the
 * parts and assembles the JSON; mdl_compile_mesh.c builds the primitives
 * of one object; mdl_compile_skin.c the joint nodes and the skin;
 * mdl_compile_anim.c the animations; mdl_compile_png.c the materials,
 * textures and images. */
#ifndef ANIMSMITH_MDL_COMPILE_INTERNAL_H
#define ANIMSMITH_MDL_COMPILE_INTERNAL_H

#include "animsmith/json_write.h"
#include "io/gltf/glb_build.h"
#include "model/mdl_compile.h"

/* One primitive: the faces of one material ordinal of one object. */
typedef struct cm_prim {
    int32_t material;  /* ordinal */
    uint32_t position, normal, uv, joints, weights, indices; /* accessors */
    uint32_t *targets; /* per morph target of the object: POSITION, NORMAL accessors */
    /* Face provenance: face id, first triangle, triangle count. */
    uint64_t *face_ids;
    uint32_t *first_tri, *tri_count;
    size_t face_count;
} cm_prim;

typedef struct cm_mesh {
    const mdl_object *o;
    cm_prim *prims;
    size_t prim_count;
    bool skinned;
    const mdl_morph **morphs; /* the object's morph targets, by name */
    size_t morph_count;
} cm_mesh;

typedef struct cm_ctx {
    const mdl_doc *d;
    bool preview;
    bool with_joints; /* joint nodes, skin and animations are written */
    const anim_model_limits *limits;
    glb_builder b;
    mdl_compile_info *info;
    anim_model_fault *fault;
    cm_mesh *meshes;
    size_t mesh_count;
    bool material_used[MDL_MATERIAL_SLOTS];
    int32_t material_index[MDL_MATERIAL_SLOTS]; /* glTF material, or -1 */
    int32_t texture_index[MDL_MATERIAL_SLOTS];  /* glTF texture, or -1 */
    uint32_t *image_views; /* per glTF texture */
    uint32_t ibm;          /* inverse bind matrices accessor */
    uint32_t **anim_inputs, **anim_outputs; /* per clip, per channel */
    /* Per clip, per compiled mesh: the morph weights sampler's accessors
     * (CM_NO_ACCESSOR when the clip keys none of the mesh's targets). */
    uint32_t **morph_inputs, **morph_outputs;
    bool bounds_set;
} cm_ctx;

#define CM_NO_ACCESSOR UINT32_MAX

/* Records a refusal in the fault and returns -1. */
int cm_refuse(cm_ctx *c, int code, const char *kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
int cm_nomem(cm_ctx *c);

/* mdl_compile_mesh.c: the primitives of object o into m (accessors in
 * c->b); counts and bounds into c->info. */
int cm_build_mesh(cm_ctx *c, const mdl_object *o, bool skinned, cm_mesh *m);
void cm_mesh_free(cm_mesh *m);
void cm_write_meshes(cm_ctx *c, anim_json_writer *w);

/* mdl_compile_skin.c (joints, skin) and mdl_compile_anim.c (clips) */
int cm_build_skin(cm_ctx *c);       /* inverse bind matrices */
int cm_build_animations(cm_ctx *c); /* key accessors */
void cm_write_joint_nodes(cm_ctx *c, anim_json_writer *w); /* inside "nodes" */
void cm_write_skin(cm_ctx *c, anim_json_writer *w);
void cm_write_animations(cm_ctx *c, anim_json_writer *w);
void cm_free_animations(cm_ctx *c);

/* mdl_compile_png.c */
int cm_build_images(cm_ctx *c); /* PNG views of the used textures */
void cm_write_materials(cm_ctx *c, anim_json_writer *w);

#endif
