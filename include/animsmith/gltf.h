/* glTF 2.0 / GLB reader. Loading yields two views of one file, sharing one
 * arena: the raw container (JSON tree, resolved buffers, accessor table,
 * byte offsets) that fix and transform write through byte-exactly, and the
 * normalized document every measurement reads. */
#ifndef ANIMSMITH_GLTF_H
#define ANIMSMITH_GLTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/doc.h"
#include "animsmith/error.h"
#include "animsmith/json.h"

#ifdef __cplusplus
extern "C" {
#endif

/* glTF componentType values. */
enum {
    ANIM_GLTF_BYTE = 5120,
    ANIM_GLTF_UNSIGNED_BYTE = 5121,
    ANIM_GLTF_SHORT = 5122,
    ANIM_GLTF_UNSIGNED_SHORT = 5123,
    ANIM_GLTF_UNSIGNED_INT = 5125,
    ANIM_GLTF_FLOAT = 5126
};

typedef enum {
    ANIM_BUFFER_GLB_BIN,   /* the GLB's BIN chunk */
    ANIM_BUFFER_DATA_URI,  /* base64 data: URI, decoded */
    ANIM_BUFFER_EXTERNAL   /* a file beside the glTF */
} anim_buffer_kind;

typedef struct anim_buffer {
    anim_buffer_kind kind;
    const uint8_t *data;   /* resolved bytes (at least byte_length) */
    size_t byte_length;    /* declared byteLength */
    size_t data_length;    /* bytes actually resolved */
    const char *uri;       /* as declared, NULL for GLB BIN */
    const char *path;      /* resolved file path for EXTERNAL */
    size_t file_offset;    /* GLB_BIN: offset of the chunk data in the file */
} anim_buffer;

typedef struct anim_buffer_view {
    uint32_t buffer;
    size_t byte_offset;
    size_t byte_length;
    uint32_t byte_stride;  /* 0 when absent (tightly packed) */
} anim_buffer_view;

typedef struct anim_accessor {
    uint32_t buffer_view;  /* ANIM_NONE: all zeros (before sparse) */
    size_t byte_offset;
    uint32_t component_type;
    bool normalized;
    uint32_t count;
    uint32_t components;   /* 1 SCALAR, 2 VEC2, 3 VEC3, 4 VEC4/MAT2, 9 MAT3, 16 MAT4 */
    const char *type;      /* "SCALAR", "VEC3", ... */
    bool has_sparse;
    uint32_t sparse_count;
    uint32_t sparse_indices_view;
    size_t sparse_indices_offset;
    uint32_t sparse_indices_component_type;
    uint32_t sparse_values_view;
    size_t sparse_values_offset;
    bool has_min, has_max;
    /* components entries each when has_min / has_max, else NULL (arena
     * arrays: most accessors have neither, and a large library has
     * hundreds of thousands of accessors). */
    const double *min, *max;
} anim_accessor;

/* The raw container, kept beside the normalized document. */
/* Private: files mapped for an asset, released by anim_asset_free. */
struct anim_file_mapping;

typedef struct anim_source {
    const char *path;          /* as given */
    /* The directory relative URIs resolve against: the file's own, or the
     * one given to anim_asset_load_memory; NULL when external URIs are
     * refused (a document from memory without one). */
    const char *base_dir;
    bool is_glb;
    /* The whole file, valid for the asset's lifetime: a read-only mapping
     * of the file when it could be mapped (never write through it), else
     * arena memory. Not NUL-terminated. */
    const uint8_t *bytes;
    size_t byte_count;
    const char *json_text;     /* the JSON (chunk) text */
    size_t json_length;
    size_t json_offset;        /* offset of the JSON text in the file */
    bool has_bin;              /* GLB with a BIN chunk */
    size_t bin_offset;         /* offset of the BIN chunk data in the file */
    size_t bin_length;
    anim_json_value *root;
    anim_buffer *buffers;
    uint32_t buffer_count;
    anim_buffer_view *views;
    uint32_t view_count;
    anim_accessor *accessors;
    uint32_t accessor_count;
    const char **extensions_used;
    uint32_t extensions_used_count;
    const char **extensions_required;
    uint32_t extensions_required_count;
    anim_limits limits;                 /* from the load options */
    struct anim_file_mapping *mappings; /* private */
    /* The primary input file as read: what its identity (SHA-256, byte
     * count) describes. For glTF these equal bytes/byte_count; an FBX file
     * is projected into a GLB held in bytes, and its own bytes are here. */
    const uint8_t *input_bytes;
    size_t input_byte_count;
    /* FBX facts beyond the projected document; NULL for glTF input. */
    const struct anim_fbx_facts *fbx;
} anim_source;

/* A loaded file: one arena owns everything reachable from here. */
typedef struct anim_asset {
    anim_arena *arena;
    anim_source source;
    anim_doc doc;
} anim_asset;

typedef struct anim_load_options {
    /* Upper bound for the file and for its external buffers together
     * (default 2 GiB, the input-file budget). */
    size_t max_file_bytes;
    /* Refuse external buffer/image URIs that leave the file's directory,
     * by their text or through a symbolic link (default true). */
    bool confine_uris;
    /* Budgets of derived allocations (implicit accessors, metric grids;
     * zero fields are the defaults), kept in the document for later work.
     * docs/limits.md lists them. */
    anim_limits limits;
} anim_load_options;

void anim_load_options_default(anim_load_options *opts);

/* Loads FILE by extension (.glb / .gltf / .fbx, case-insensitive). On failure
 * returns NULL and err names the file (as given) and the object:
 * "walk.glb: clip 'walk' node 3 sampler input: accessor 0 ...". opts may be
 * NULL. A clip whose metric grid would exceed the grid budget is refused
 * here, before any command allocates one. */
anim_asset *anim_asset_load(const char *path, const anim_load_options *opts,
                            anim_error *err);

/* Loads from memory; is_glb selects the container. base_dir resolves
 * relative URIs (NULL: external URIs are refused). The bytes are copied.
 * Errors start with display_path when it is given. */
anim_asset *anim_asset_load_memory(const void *bytes, size_t len, bool is_glb,
                                   const char *base_dir, const char *display_path,
                                   const anim_load_options *opts, anim_error *err);

void anim_asset_free(anim_asset *asset);

/* Size in bytes of one component of componentType, 0 if unknown. */
size_t anim_gltf_component_size(uint32_t component_type);
/* "FLOAT", "UNSIGNED_SHORT", ... ("UNKNOWN(n)" never: returns NULL). */
const char *anim_gltf_component_name(uint32_t component_type);

/* Decodes accessor elements [0, count) as f64 (normalized integers mapped
 * per glTF, sparse substitution applied) into out (count * components).
 * The accessor must have been validated by the loader. */
int anim_accessor_read_f64(const anim_source *src, uint32_t accessor, double *out,
                           anim_error *err);

#ifdef __cplusplus
}
#endif
#endif
