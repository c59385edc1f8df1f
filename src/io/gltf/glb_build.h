/* A small builder for GLB documents made in memory: one binary buffer of
 * buffer views (4-byte aligned, one accessor per view), accessors with
 * their min/max, and the GLB container around a JSON text the caller
 * writes. The model compiler builds its document with it and then hands
 * the bytes to the strict reader and the shared writer, so this builder
 * only has to be simple and correct, not canonical. */
#ifndef ANIMSMITH_GLB_BUILD_H
#define ANIMSMITH_GLB_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/error.h"
#include "animsmith/json_write.h"
#include "animsmith/strbuf.h"

#define GLB_TARGET_NONE 0u
#define GLB_TARGET_ARRAY_BUFFER 34962u
#define GLB_TARGET_ELEMENT_ARRAY_BUFFER 34963u

typedef struct glb_accessor {
    uint32_t view;
    uint32_t component_type; /* ANIM_GLTF_FLOAT, ... */
    uint32_t count;
    uint32_t components;     /* 1, 2, 3, 4 or 16 */
    bool minmax;
    double min[16], max[16];
} glb_accessor;

typedef struct glb_view {
    size_t offset, length;
    uint32_t target;
} glb_view;

typedef struct glb_builder {
    anim_strbuf bin;
    glb_view *views;
    uint32_t view_count;
    size_t view_cap;
    glb_accessor *accessors;
    uint32_t accessor_count;
    size_t accessor_cap;
    bool nomem; /* sticky */
} glb_builder;

void glb_builder_init(glb_builder *b);
void glb_builder_free(glb_builder *b);

/* A buffer view over a copy of data; its index. */
uint32_t glb_add_view(glb_builder *b, const void *data, size_t len, uint32_t target);
/* An accessor over count elements of components values of component_type
 * (tightly packed in data), in a view of its own. with_minmax records the
 * per-component bounds (required for positions and animation inputs). */
uint32_t glb_add_accessor(glb_builder *b, const void *data, uint32_t count,
                          uint32_t component_type, uint32_t components, uint32_t target,
                          bool with_minmax);

/* The "accessors", "bufferViews" and "buffers" members into the open root
 * object of w (nothing when the buffer is empty). */
void glb_write_buffers(const glb_builder *b, anim_json_writer *w);

/* Appends the GLB container of a JSON chunk and a BIN chunk (none when
 * bin_len is 0; both padded to 4 bytes) to glb. 0, or -1 with err set
 * (over 4 GiB, out of memory). */
int glb_container(const anim_strbuf *json, const void *bin, size_t bin_len, anim_strbuf *glb,
                  anim_error *err);

/* Appends the GLB container of json and the builder's buffer to glb.
 * Returns 0, or -1 with err set (over 4 GiB, out of memory). */
int glb_assemble(const glb_builder *b, const anim_strbuf *json, anim_strbuf *glb,
                 anim_error *err);

#endif
