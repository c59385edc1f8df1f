/* The writer's binary payload: buffer views, source accessors repacked
 * into views of their own, and image payloads.
 *
 * An accessor is copied as stored (component type, normalization, sparse
 * layout), never decoded and re-encoded, so mesh data survives a rewrite
 * bit for bit. Vertex attributes whose element is not a multiple of four
 * bytes get a padded stride, which glTF requires of vertex data. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/path.h"
#include "io/gltf/gltf_internal.h"
#include "io/gltf/gltf_write_internal.h"

int gw_fail(gw *g, int code, const char *fmt, ...)
{
    if (g->error_set)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    anim_error_setv(g->err, (anim_error_code)code, fmt, ap);
    va_end(ap);
    g->error_set = true;
    return -1;
}

const anim_json_value *gw_source_array(const gw *g, const char *key)
{
    if (!g->src || !g->src->root)
        return NULL;
    const anim_json_value *v = anim_json_get(g->src->root, key);
    return v && v->type == ANIM_JSON_ARRAY ? v : NULL;
}

static const uint8_t zeros[4];

int64_t gw_add_view(gw *g, const void *data, size_t len, uint32_t stride, uint32_t target)
{
    anim_strbuf *bin = g->bin;
    size_t pad = (4 - bin->len % 4) % 4;
    size_t end;
    if (!anim_size_add(bin->len, pad, &end) || !anim_size_add(end, len, &end) ||
        end > UINT32_MAX - 64)
        return gw_fail(g, ANIM_ERR_LIMIT, "binary payload exceeds the 4 GiB glTF limit");
    if (!anim_strbuf_reserve(bin, pad + len))
        return gw_fail(g, ANIM_ERR_NOMEM, "out of memory");
    anim_strbuf_append(bin, zeros, pad);
    size_t offset = bin->len;
    if (len)
        anim_strbuf_append(bin, data, len);
    gout *view = gout_object(&g->b);
    gout_set(&g->b, view, "buffer", gout_uint(&g->b, 0));
    gout_set(&g->b, view, "byteLength", gout_uint(&g->b, len));
    gout_set(&g->b, view, "byteOffset", gout_uint(&g->b, offset));
    if (stride)
        gout_set(&g->b, view, "byteStride", gout_uint(&g->b, stride));
    if (target)
        gout_set(&g->b, view, "target", gout_uint(&g->b, target));
    gout_push(&g->b, g->views, view);
    if (g->b.failed || bin->failed)
        return gw_fail(g, ANIM_ERR_NOMEM, "out of memory");
    return (int64_t)g->views->count - 1;
}

/* Bytes [offset, offset + len) of a source view, bounds-checked against
 * the bytes the loader resolved for its buffer. */
const uint8_t *gw_view_bytes(gw *g, uint32_t view, size_t offset, size_t len, const char *ctx)
{
    const anim_source *src = g->src;
    if (view >= src->view_count) {
        gw_fail(g, ANIM_ERR_INVALID, "%s: buffer view %u does not exist", ctx, view);
        return NULL;
    }
    const anim_buffer_view *v = &src->views[view];
    size_t start, end;
    if (v->buffer >= src->buffer_count || !anim_size_add(v->byte_offset, offset, &start) ||
        !anim_size_add(start, len, &end) || end > src->buffers[v->buffer].data_length ||
        offset + len > v->byte_length) {
        gw_fail(g, ANIM_ERR_INVALID, "%s: buffer view %u: bytes %zu..+%zu lie outside its data",
                ctx, view, offset, len);
        return NULL;
    }
    return src->buffers[v->buffer].data + start;
}

/* Packs count elements of elem bytes read at stride into out_stride-byte
 * slots (the padding zeroed). */
static uint8_t *pack(const uint8_t *p, uint32_t count, size_t elem, size_t stride,
                     size_t out_stride)
{
    size_t total = (size_t)count * out_stride;
    uint8_t *out = calloc(total ? total : 1, 1);
    if (!out)
        return NULL;
    for (uint32_t i = 0; i < count; i++)
        memcpy(out + (size_t)i * out_stride, p + (size_t)i * stride, elem);
    return out;
}

static int64_t copy_dense(gw *g, const anim_accessor *a, gw_use use, const char *ctx)
{
    size_t elem = gltf_accessor_element_size(a);
    size_t out_stride = use == GW_USE_VERTEX ? (elem + 3) & ~(size_t)3 : elem;
    const anim_buffer_view *v = &g->src->views[a->buffer_view];
    size_t stride = v->byte_stride ? v->byte_stride : elem;
    size_t span = a->count ? (size_t)(a->count - 1) * stride + elem : 0;
    const uint8_t *p = gw_view_bytes(g, a->buffer_view, a->byte_offset, span, ctx);
    if (!p)
        return -1;
    uint8_t *packed = pack(p, a->count, elem, stride, out_stride);
    if (!packed)
        return gw_fail(g, ANIM_ERR_NOMEM, "out of memory");
    uint32_t target = use == GW_USE_VERTEX  ? GW_TARGET_ARRAY_BUFFER
                      : use == GW_USE_INDEX ? GW_TARGET_ELEMENT_ARRAY_BUFFER
                                            : GW_TARGET_NONE;
    int64_t view = gw_add_view(g, packed, (size_t)a->count * out_stride,
                               out_stride != elem ? (uint32_t)out_stride : 0, target);
    free(packed);
    return view;
}

/* The sparse block: indices and values each in a view of their own. */
static int copy_sparse(gw *g, const anim_accessor *a, gout *json, const char *ctx)
{
    gout *sparse = gout_get(json, "sparse");
    gout *indices = gout_get(sparse, "indices");
    gout *values = gout_get(sparse, "values");
    if (!indices || !values)
        return gw_fail(g, ANIM_ERR_INVALID, "%s: sparse accessor without indices or values", ctx);
    size_t isize = anim_gltf_component_size(a->sparse_indices_component_type);
    size_t elem = gltf_accessor_element_size(a);
    const uint8_t *ip = gw_view_bytes(g, a->sparse_indices_view, a->sparse_indices_offset,
                                   (size_t)a->sparse_count * isize, ctx);
    const uint8_t *vp = ip ? gw_view_bytes(g, a->sparse_values_view, a->sparse_values_offset,
                                        (size_t)a->sparse_count * elem, ctx)
                           : NULL;
    if (!vp)
        return -1;
    int64_t iv = gw_add_view(g, ip, (size_t)a->sparse_count * isize, 0, 0);
    int64_t vv = iv < 0 ? -1 : gw_add_view(g, vp, (size_t)a->sparse_count * elem, 0, 0);
    if (vv < 0)
        return -1;
    gout_remove(indices, "byteOffset");
    gout_remove(values, "byteOffset");
    gout_set(&g->b, indices, "bufferView", gout_uint(&g->b, (uint64_t)iv));
    gout_set(&g->b, values, "bufferView", gout_uint(&g->b, (uint64_t)vv));
    return 0;
}

int64_t gw_accessor(gw *g, uint32_t index, gw_use use, const char *ctx)
{
    const anim_source *src = g->src;
    if (index >= src->accessor_count)
        return gw_fail(g, ANIM_ERR_INVALID, "%s: accessor %u does not exist", ctx, index);
    if (g->accessor_map[index] != ANIM_NONE)
        return g->accessor_map[index];
    const anim_accessor *a = &src->accessors[index];
    const anim_json_value *list = gw_source_array(g, "accessors");
    gout *json = gout_copy(&g->b, anim_json_item(list, index));
    if (!json)
        return gw_fail(g, ANIM_ERR_NOMEM, "out of memory");
    char actx[160];
    snprintf(actx, sizeof actx, "%s: accessor %u", ctx, index);
    gout_remove(json, "byteOffset");
    gout_remove(json, "bufferView");
    if (a->buffer_view != ANIM_NONE) {
        int64_t view = copy_dense(g, a, use, actx);
        if (view < 0)
            return -1;
        gout_set(&g->b, json, "bufferView", gout_uint(&g->b, (uint64_t)view));
    }
    if (a->has_sparse && copy_sparse(g, a, json, actx))
        return -1;
    gout_push(&g->b, g->accessors, json);
    if (g->b.failed)
        return gw_fail(g, ANIM_ERR_NOMEM, "out of memory");
    g->accessor_map[index] = g->accessors->count - 1;
    return g->accessor_map[index];
}

int gw_embed_image(gw *g, uint32_t index, int64_t *view, const char **mime)
{
    const anim_image *img = &g->src_doc->images[index];
    const anim_json_value *obj = anim_json_item(gw_source_array(g, "images"), index);
    const anim_json_value *uri_v = anim_json_get(obj, "uri");
    const char *uri = uri_v && uri_v->type == ANIM_JSON_STRING ? anim_json_strdup(g->b.arena, uri_v)
                                                               : NULL;
    char ctx[32];
    snprintf(ctx, sizeof ctx, "image %u", index);
    gltf_image_payload p;
    anim_error why;
    anim_error_clear(&why);
    if (gltf_image_payload_read(g->src, img, uri,
                                anim_limits_get(&g->src->limits, ANIM_LIMIT_FILE), g->b.arena, &p,
                                ctx, &why) != GLTF_IMAGE_OK) {
        if (!g->error_set) {
            *g->err = why;
            g->error_set = true;
        }
        return -1;
    }
    *mime = img->mime_type;
    if (!*mime && p.uri_mime_len)
        *mime = anim_arena_strndup(g->b.arena, p.uri_mime, p.uri_mime_len);
    if (!*mime)
        *mime = gltf_image_sniff_mime(p.bytes, p.len);
    int rc = 0;
    if (!*mime)
        rc = gw_fail(g, ANIM_ERR_UNSUPPORTED,
                     "%s: no mimeType is declared and the bytes are not PNG, JPEG, WebP or "
                     "KTX2, so it cannot be embedded",
                     ctx);
    else if ((*view = gw_add_view(g, p.bytes, p.len, 0, 0)) < 0)
        rc = -1;
    free(p.owned);
    return rc;
}
