/* Compile: a document version to GLB (through the shared glTF writer), with
 * bounds, counts and face provenance. The preview is the static draft:
 * meshes, materials and textures at rest, no skin and no animation. */
#ifndef ANIMSMITH_MDL_COMPILE_H
#define ANIMSMITH_MDL_COMPILE_H

#include "animsmith/model.h"
#include "model/mdl_doc.h"

typedef struct mdl_compile_info {
    double min[3], max[3];  /* bounds of every compiled position (0s when empty) */
    uint64_t objects, primitives, vertices, triangles, materials, textures, joints, clips;
    uint64_t nonplanar_faces; /* triangulated by projection */
    bool skinned;
} mdl_compile_info;

/* Appends the GLB to glb. Refusals: "nothing_to_compile", "limit_exceeded"
 * (max_compiled_triangles), "f32_range" (a coordinate outside binary32),
 * "invalid_skin" (a vertex with more than four influences or weights that
 * do not normalize), "cancelled". */
int mdl_compile(const mdl_doc *d, bool preview, const anim_model_limits *limits,
                const volatile int *cancel, anim_strbuf *glb, mdl_compile_info *info,
                anim_model_fault *fault);
/* The members of info (bounds, counts) into the open object of w. */
struct anim_json_writer;
void mdl_compile_info_write(const mdl_compile_info *info, struct anim_json_writer *w);

#endif
