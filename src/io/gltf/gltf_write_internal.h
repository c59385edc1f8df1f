/* Private to the glTF writer: the state shared by its parts. The writer
 * builds the output tree (gltf_out.h) and the binary payload together:
 * animation data first (gltf_write_anim.c), then the mesh, skin and image
 * data the source document held (gltf_write_assets.c, gltf_write_data.c),
 * each accessor in a buffer view of its own. */
#ifndef ANIMSMITH_GLTF_WRITE_INTERNAL_H
#define ANIMSMITH_GLTF_WRITE_INTERNAL_H

#include "animsmith/gltf.h"
#include "animsmith/gltf_write.h"
#include "io/gltf/gltf_out.h"

/* bufferView.target values. */
#define GW_TARGET_NONE 0u
#define GW_TARGET_ARRAY_BUFFER 34962u
#define GW_TARGET_ELEMENT_ARRAY_BUFFER 34963u

typedef struct gw {
    gout_builder b;
    const anim_doc *doc;       /* bones and clips to write */
    const anim_source *src;    /* the loaded container, NULL for a built doc */
    const anim_doc *src_doc;   /* the document loaded with src (meshes, images) */
    anim_gltf_format format;
    anim_strbuf *bin;
    gout *root, *views, *accessors;
    uint32_t *accessor_map;    /* source accessor -> written accessor */
    const anim_gltf_prim_override *overrides; /* reduced primitives */
    uint32_t override_count;
    anim_error *err;
    bool error_set;            /* err holds a message of its own */
} gw;

/* Sets err (once) and returns -1. */
int gw_fail(gw *g, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The source JSON array member key of the root (NULL when absent). */
const anim_json_value *gw_source_array(const gw *g, const char *key);

/* Appends bytes as a new buffer view (start aligned to 4); stride 0 and
 * target 0 leave those properties out. Returns the view index or -1. */
int64_t gw_add_view(gw *g, const void *data, size_t len, uint32_t stride, uint32_t target);

/* Bytes [offset, offset + len) of source view view, bounds-checked
 * against the bytes its buffer resolved; NULL with err naming ctx. */
const uint8_t *gw_view_bytes(gw *g, uint32_t view, size_t offset, size_t len, const char *ctx);

/* The written index of source accessor i, copying it (and its data) on
 * first use; vertex marks a vertex attribute (4-byte aligned elements,
 * ARRAY_BUFFER target), index an index accessor. -1 on error. ctx names
 * the user for messages ("mesh 0 primitive 1 NORMAL"). */
typedef enum { GW_USE_OTHER, GW_USE_VERTEX, GW_USE_INDEX } gw_use;
int64_t gw_accessor(gw *g, uint32_t src_accessor, gw_use use, const char *ctx);

/* Copies image's payload into a new buffer view; *mime is its MIME type
 * (declared, a data URI's own, else sniffed). -1 with err naming the image
 * when it cannot be read or its type is unknown. */
int gw_embed_image(gw *g, uint32_t image, int64_t *view, const char **mime);

/* TRS and morph tracks of the clip the writer writes (>= 1 key, bone in
 * range); a clip with none is dropped. */
uint32_t gw_clip_writable_tracks(const anim_doc *doc, const anim_clip *clip);

/* Renders the document: head gets every byte before the binary payload
 * (the .gltf JSON, or the GLB header, JSON chunk and BIN chunk header),
 * payload the GLB's BIN chunk data, padded (empty for .gltf). asset NULL:
 * a document built in memory (gw_check_built_doc first). */
int gw_render(const anim_asset *asset, const anim_doc *doc, anim_gltf_format format,
              const char *generator, const anim_gltf_prim_override *overrides,
              uint32_t override_count, anim_strbuf *head, anim_strbuf *payload,
              anim_gltf_write_summary *summary, anim_error *err);
/* Refuses a built document holding meshes, skins, materials, textures or
 * images (those are written from their loaded asset). */
int gw_check_built_doc(const anim_doc *doc, anim_error *err);

/* The parts, in output order. */
int gw_write_animations(gw *g);
int gw_write_nodes_and_scenes(gw *g);
int gw_write_assets(gw *g);

/* The override of mesh m primitive p, or NULL (gltf_write_override.c). */
const anim_gltf_prim_override *gw_override_of(const gw *g, uint32_t m, uint32_t p);
/* Writes prim (a copy of the stored primitive) from its override: new
 * attribute, target and index accessors. */
int gw_write_override(gw *g, gout *prim, const anim_gltf_prim_override *o, const char *ctx);
/* Checks the overrides against the source before anything is written. */
int gw_check_overrides(gw *g);

/* Authored binary32 values held as f64, narrowed so the JSON carries
 * exactly what a binary32 file holds. */
gout *gw_f32_vec(gw *g, const double *v, int n);

#endif
