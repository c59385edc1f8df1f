/* extensionsUsed/extensionsRequired and buffer resolution (GLB BIN chunk,
 * base64 data URIs, files beside the asset). */
#include "animsmith/base64.h"
#include "io/gltf/gltf_internal.h"

#include <stdio.h>
#include <string.h>

/* Extensions that change nothing we decode (materials, lights, texture
 * transforms and image containers): a file may require them and still be
 * measured exactly. Anything else that is required (mesh quantization,
 * Draco, meshopt, animation pointers, ...) would make us misread data. */
static const char *const supported_extensions[] = {
    "KHR_lights_punctual",
    "KHR_materials_anisotropy",
    "KHR_materials_clearcoat",
    "KHR_materials_diffuse_transmission",
    "KHR_materials_dispersion",
    "KHR_materials_emissive_strength",
    "KHR_materials_ior",
    "KHR_materials_iridescence",
    "KHR_materials_pbrSpecularGlossiness",
    "KHR_materials_sheen",
    "KHR_materials_specular",
    "KHR_materials_transmission",
    "KHR_materials_unlit",
    "KHR_materials_variants",
    "KHR_materials_volume",
    "KHR_texture_basisu",
    "KHR_texture_transform",
    "EXT_texture_webp",
    "EXT_texture_avif",
};

static bool extension_supported(const char *name)
{
    for (size_t i = 0; i < sizeof supported_extensions / sizeof *supported_extensions; i++)
        if (strcmp(name, supported_extensions[i]) == 0)
            return true;
    return false;
}

/* What to do about a required extension we cannot read: the data it
 * changes would be misread, so the way forward is a file without it. */
static const char *extension_advice(const char *name)
{
    if (strcmp(name, "KHR_mesh_quantization") == 0)
        return "quantized attributes are not decoded; re-export without mesh quantization, "
               "e.g. gltf-transform dequantize";
    if (strcmp(name, "KHR_draco_mesh_compression") == 0 ||
        strcmp(name, "EXT_meshopt_compression") == 0)
        return "compressed buffers are not decoded; re-export without geometry compression";
    return "the data it changes would be misread; re-export without it";
}

static int string_list(const anim_json_value *root, const char *key, anim_arena *arena,
                       const char ***out, uint32_t *count, anim_error *err)
{
    const anim_json_value *arr;
    if (gltf_get_array(root, key, "glTF root", &arr, err))
        return -1;
    *out = NULL;
    *count = 0;
    if (!arr)
        return 0;
    const char **list = anim_arena_calloc(arena, arr->len + 1, sizeof *list);
    if (!list)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < arr->len; i++) {
        const anim_json_value *e = &arr->u.items[i];
        if (e->type != ANIM_JSON_STRING)
            return anim_error_set(err, ANIM_ERR_INVALID, "%s[%zu] must be a string", key, i);
        list[i] = anim_json_strdup(arena, e);
        if (!list[i])
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    *out = list;
    *count = (uint32_t)arr->len;
    return 0;
}

int gltf_parse_extensions(anim_source *src, anim_arena *arena, anim_error *err)
{
    if (string_list(src->root, "extensionsUsed", arena, &src->extensions_used,
                    &src->extensions_used_count, err) ||
        string_list(src->root, "extensionsRequired", arena, &src->extensions_required,
                    &src->extensions_required_count, err))
        return -1;
    for (uint32_t i = 0; i < src->extensions_required_count; i++) {
        if (!extension_supported(src->extensions_required[i]))
            return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                                  "extensionsRequired[%u] = \"%s\": unsupported extension (%s)", i,
                                  src->extensions_required[i],
                                  extension_advice(src->extensions_required[i]));
    }
    return 0;
}

static int resolve_one(anim_source *src, anim_arena *arena, const char *base_dir,
                       const anim_load_options *opts, uint32_t index, const anim_json_value *obj,
                       anim_buffer *buf, size_t *external_bytes, anim_error *err)
{
    char ctx[48];
    snprintf(ctx, sizeof ctx, "buffer %u", index);
    if (gltf_require_object(obj, ctx, err))
        return -1;
    uint64_t byte_length;
    if (gltf_get_u64(src->json_text, obj, "byteLength", ctx, true, 0, &byte_length, err))
        return -1;
    if (byte_length > opts->max_file_bytes)
        return anim_error_set(err, ANIM_ERR_LIMIT, "%s: byteLength %llu exceeds the %zu-byte limit",
                              ctx, (unsigned long long)byte_length, opts->max_file_bytes);
    buf->byte_length = (size_t)byte_length;
    if (gltf_get_string(arena, obj, "uri", ctx, &buf->uri, err))
        return -1;
    if (!buf->uri) {
        if (!src->is_glb || index != 0)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: has no uri, and only a GLB's first buffer may omit it", ctx);
        buf->kind = ANIM_BUFFER_GLB_BIN;
        buf->data = src->has_bin ? src->bytes + src->bin_offset : NULL;
        buf->data_length = src->has_bin ? src->bin_length : 0;
        buf->file_offset = src->bin_offset;
        return 0;
    }
    const char *payload, *mime;
    size_t payload_len, mime_len;
    if (gltf_data_uri_payload(buf->uri, &payload, &payload_len, &mime, &mime_len)) {
        buf->kind = ANIM_BUFFER_DATA_URI;
        uint8_t *data = anim_arena_alloc(arena, payload_len / 4 * 3 + 3);
        if (!data)
            return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", ctx);
        long long n = anim_base64_decode_unpadded(payload, payload_len, data);
        if (n < 0)
            return anim_error_set(err, ANIM_ERR_INVALID, "%s: the data URI is not valid base64",
                                  ctx);
        buf->data = data;
        buf->data_length = (size_t)n;
        return 0;
    }
    if (strncmp(buf->uri, "data:", 5) == 0)
        return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                              "%s: data URI is not base64-encoded", ctx);
    buf->kind = ANIM_BUFFER_EXTERNAL;
    char *path = gltf_resolve_uri_path(arena, base_dir, buf->uri, opts->confine_uris, ctx, err);
    if (!path)
        return -1;
    /* All external files of one asset share the file-size limit: a short
     * JSON naming one large file a thousand times must not hold it in memory
     * a thousand times. */
    size_t used = *external_bytes; /* <= max_file_bytes, so no underflow */
    const uint8_t *data;
    size_t len;
    if (gltf_map_file(path, opts->max_file_bytes - used, arena, &src->mappings, &data, &len,
                      err)) {
        if (used > 0 && err && err->code == ANIM_ERR_LIMIT)
            return anim_error_set(err, ANIM_ERR_LIMIT,
                                  "%s: uri \"%s\": the asset's external buffers together exceed the "
                                  "%zu-byte limit",
                                  ctx, buf->uri, opts->max_file_bytes);
        anim_error_prefix(err, "%s", ctx);
        return -1;
    }
    *external_bytes = used + len;
    buf->path = path;
    buf->data = data;
    buf->data_length = len;
    return 0;
}

int gltf_resolve_buffers(anim_source *src, anim_arena *arena, const char *base_dir,
                         const anim_load_options *opts, anim_error *err)
{
    const anim_json_value *arr;
    if (gltf_get_array(src->root, "buffers", "glTF root", &arr, err))
        return -1;
    if (!arr)
        return 0;
    src->buffer_count = (uint32_t)arr->len;
    src->buffers = anim_arena_calloc(arena, src->buffer_count, sizeof *src->buffers);
    if (!src->buffers && src->buffer_count)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    size_t external_bytes = 0;
    for (uint32_t i = 0; i < src->buffer_count; i++)
        if (resolve_one(src, arena, base_dir, opts, i, &arr->u.items[i], &src->buffers[i],
                        &external_bytes, err))
            return -1;
    return 0;
}
