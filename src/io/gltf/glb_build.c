/* The in-memory GLB builder (glb_build.h): buffer views, accessors with
 * bounds, and the container framing. */
#include "io/gltf/glb_build.h"

#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "core/grow.h"

void glb_builder_init(glb_builder *b)
{
    memset(b, 0, sizeof *b);
}

void glb_builder_free(glb_builder *b)
{
    anim_strbuf_free(&b->bin);
    free(b->views);
    free(b->accessors);
    memset(b, 0, sizeof *b);
}

uint32_t glb_add_view(glb_builder *b, const void *data, size_t len, uint32_t target)
{
    while (b->bin.len % 4)
        anim_strbuf_putc(&b->bin, 0);
    if (!anim_grow((void **)&b->views, &b->view_cap, (size_t)b->view_count + 1,
                   sizeof(glb_view))) {
        b->nomem = true;
        return 0;
    }
    b->views[b->view_count] = (glb_view){b->bin.len, len, target};
    anim_strbuf_append(&b->bin, data, len);
    if (b->bin.failed)
        b->nomem = true;
    return b->view_count++;
}

static double component(const void *data, uint32_t type, size_t i)
{
    switch (type) {
    case ANIM_GLTF_UNSIGNED_BYTE: return ((const uint8_t *)data)[i];
    case ANIM_GLTF_UNSIGNED_SHORT: {
        uint16_t v;
        memcpy(&v, (const char *)data + 2 * i, 2);
        return v;
    }
    case ANIM_GLTF_UNSIGNED_INT: {
        uint32_t v;
        memcpy(&v, (const char *)data + 4 * i, 4);
        return v;
    }
    default: {
        float v;
        memcpy(&v, (const char *)data + 4 * i, 4);
        return v;
    }
    }
}

uint32_t glb_add_accessor(glb_builder *b, const void *data, uint32_t count,
                          uint32_t component_type, uint32_t components, uint32_t target,
                          bool with_minmax)
{
    if (!anim_grow((void **)&b->accessors, &b->accessor_cap, (size_t)b->accessor_count + 1,
                   sizeof(glb_accessor))) {
        b->nomem = true;
        return 0;
    }
    size_t bytes;
    if (!anim_size_mul(anim_gltf_component_size(component_type) * components, count, &bytes)) {
        b->nomem = true;
        return 0;
    }
    glb_accessor *a = &b->accessors[b->accessor_count];
    memset(a, 0, sizeof *a);
    a->view = glb_add_view(b, data, bytes, target);
    a->component_type = component_type;
    a->count = count;
    a->components = components;
    if (with_minmax && count) {
        a->minmax = true;
        for (uint32_t k = 0; k < components; k++)
            a->min[k] = a->max[k] = component(data, component_type, k);
        for (size_t i = 1; i < count; i++)
            for (uint32_t k = 0; k < components; k++) {
                double x = component(data, component_type, i * components + k);
                if (x < a->min[k])
                    a->min[k] = x;
                if (x > a->max[k])
                    a->max[k] = x;
            }
    }
    return b->accessor_count++;
}

static const char *type_name(uint32_t n)
{
    switch (n) {
    case 1: return "SCALAR";
    case 2: return "VEC2";
    case 3: return "VEC3";
    case 4: return "VEC4";
    case 9: return "MAT3";
    default: return "MAT4";
    }
}

void glb_write_buffers(const glb_builder *b, anim_json_writer *w)
{
    if (b->bin.len == 0)
        return;
    anim_json_writer_key(w, "accessors");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < b->accessor_count; i++) {
        const glb_accessor *a = &b->accessors[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "bufferView", a->view);
        anim_json_writer_key_uint(w, "componentType", a->component_type);
        anim_json_writer_key_uint(w, "count", a->count);
        if (a->minmax) {
            anim_json_writer_key(w, "max");
            anim_json_writer_f64_array(w, a->max, a->components);
            anim_json_writer_key(w, "min");
            anim_json_writer_f64_array(w, a->min, a->components);
        }
        anim_json_writer_key(w, "type");
        anim_json_writer_string(w, type_name(a->components));
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "bufferViews");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < b->view_count; i++) {
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "buffer", 0);
        anim_json_writer_key_uint(w, "byteLength", b->views[i].length);
        if (b->views[i].offset)
            anim_json_writer_key_uint(w, "byteOffset", b->views[i].offset);
        if (b->views[i].target)
            anim_json_writer_key_uint(w, "target", b->views[i].target);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "buffers");
    anim_json_writer_begin_array(w);
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "byteLength", b->bin.len);
    anim_json_writer_end_object(w);
    anim_json_writer_end_array(w);
}

static void put_u32le(anim_strbuf *sb, uint32_t v)
{
    unsigned char c[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    anim_strbuf_append(sb, c, 4);
}

int glb_container(const anim_strbuf *json, const void *bin, size_t bin_len, anim_strbuf *glb,
                  anim_error *err)
{
    size_t jlen = (json->len + 3) & ~(size_t)3;
    size_t blen = (bin_len + 3) & ~(size_t)3;
    uint64_t total = 12 + 8 + (uint64_t)jlen + (blen ? 8 + (uint64_t)blen : 0);
    if (total > UINT32_MAX)
        return anim_error_set(err, ANIM_ERR_LIMIT, "the GLB would be %llu bytes, over 4 GiB",
                              (unsigned long long)total);
    if (!anim_strbuf_reserve(glb, (size_t)total))
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while building the GLB");
    anim_strbuf_append(glb, "glTF", 4);
    put_u32le(glb, 2);
    put_u32le(glb, (uint32_t)total);
    put_u32le(glb, (uint32_t)jlen);
    anim_strbuf_append(glb, "JSON", 4);
    anim_strbuf_append(glb, json->data, json->len);
    for (size_t i = json->len; i < jlen; i++)
        anim_strbuf_putc(glb, ' ');
    if (blen) {
        put_u32le(glb, (uint32_t)blen);
        anim_strbuf_append(glb, "BIN\0", 4);
        anim_strbuf_append(glb, bin, bin_len);
        for (size_t i = bin_len; i < blen; i++)
            anim_strbuf_putc(glb, 0);
    }
    return glb->failed ? anim_error_set(err, ANIM_ERR_NOMEM, "out of memory") : 0;
}

int glb_assemble(const glb_builder *b, const anim_strbuf *json, anim_strbuf *glb,
                 anim_error *err)
{
    if (b->nomem || json->failed)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while building the GLB");
    return glb_container(json, b->bin.data, b->bin.len, glb, err);
}
