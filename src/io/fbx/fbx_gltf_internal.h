/* Private to the FBX-to-glTF projection (fbx_gltf*.c): the document being
 * built (buffer views and accessors over one binary buffer, in the shared
 * GLB builder) and the parts
 * each file writes. */
#ifndef ANIMSMITH_FBX_GLTF_INTERNAL_H
#define ANIMSMITH_FBX_GLTF_INTERNAL_H

#include "animsmith/json_write.h"
#include "io/fbx/fbx_gltf.h"
#include "io/gltf/glb_build.h"

typedef struct {
    anim_fbx_scene *scene;
    const anim_fbx_gltf_options *opts;
    glb_builder buf; /* the binary buffer, its views and accessors */
    /* Per scene image: the buffer view and MIME type, or ANIM_NONE when
     * it could not be carried (and textures of it are dropped). */
    uint32_t *image_view;
    const char **image_mime;
    uint32_t *image_index; /* scene image -> glTF image index */
    uint32_t gltf_image_count;
    uint32_t *texture_index; /* scene texture -> glTF texture index */
    uint32_t gltf_texture_count;
    bool nomem;
} gl_ctx;

typedef struct {
    uint32_t input, output;
    const anim_fbx_track *track;
} gl_sampler;

typedef struct {
    uint32_t position, normal, tangent, uv0, color, joints, weights, indices;
    uint32_t *target_position, *target_normal;
} gl_prim;

/* A float accessor of n-vectors; with_bounds records min/max (positions
 * and animation inputs need them). */
uint32_t gl_add_floats(gl_ctx *c, const float *v, uint32_t count, uint32_t n, bool with_bounds);
/* s as valid UTF-8 for JSON ("" for NULL). */
const char *gl_json_name(gl_ctx *c, const char *s);
/* v[0..n) all equal d, except v[last_one] which equals 1. */
bool gl_is_default(const double *v, uint32_t n, double d, uint32_t last_one);

/* fbx_gltf_mesh.c: animation samplers, meshes, skins. */
int gl_track_accessors(gl_ctx *c, const anim_fbx_track *t, gl_sampler *s, anim_error *err);
void gl_write_animations(gl_ctx *c, anim_json_writer *w, gl_sampler **samplers);
int gl_mesh_accessors(gl_ctx *c, const anim_fbx_mesh *m, gl_prim *out, anim_error *err);
void gl_write_meshes(gl_ctx *c, anim_json_writer *w, gl_prim **prims);
uint32_t gl_skin_accessor(gl_ctx *c, const anim_fbx_skin *s, anim_error *err);

/* fbx_gltf_material.c: images (embedded, or linked inside the FBX's
 * directory), textures and materials. */
int gl_image_views(gl_ctx *c, anim_error *err);
void gl_write_images(gl_ctx *c, anim_json_writer *w);
void gl_write_materials(gl_ctx *c, anim_json_writer *w);

#endif
