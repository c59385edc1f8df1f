/* An image's encoded bytes, from wherever the document keeps them: a
 * buffer view, a base64 data URI, or a file beside the asset. One reader
 * for the image measurements (which report a failure as a reason on the
 * record) and for the writer (which refuses with the reason's message).
 * Every payload is bounded before it is read; file URIs are resolved like
 * buffer URIs, confined to the asset's directory, against the source's
 * base directory (none for a document from memory given without one). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "animsmith/base64.h"
#include "io/gltf/gltf_internal.h"

static gltf_image_status from_view(const anim_source *src, uint32_t view, size_t max_bytes,
                                   gltf_image_payload *p, const char *ctx, anim_error *why)
{
    if (view == ANIM_NONE || view >= src->view_count) {
        anim_error_set(why, ANIM_ERR_INVALID, "%s: buffer view %u does not exist", ctx, view);
        return GLTF_IMAGE_UNAVAILABLE;
    }
    const anim_buffer_view *v = &src->views[view];
    const anim_buffer *b = v->buffer < src->buffer_count ? &src->buffers[v->buffer] : NULL;
    size_t end;
    if (!b || !b->data || !anim_size_add(v->byte_offset, v->byte_length, &end) ||
        end > b->data_length) {
        anim_error_set(why, ANIM_ERR_INVALID, "%s: buffer view %u lies outside its data", ctx,
                       view);
        return GLTF_IMAGE_UNAVAILABLE;
    }
    if (v->byte_length > max_bytes) {
        anim_error_set(why, ANIM_ERR_LIMIT, "%s: %zu bytes, over the %zu-byte image limit", ctx,
                       v->byte_length, max_bytes);
        return GLTF_IMAGE_TOO_LARGE;
    }
    p->bytes = b->data + v->byte_offset;
    p->len = v->byte_length;
    return GLTF_IMAGE_OK;
}

static gltf_image_status from_data_uri(const char *uri, size_t max_bytes, gltf_image_payload *p,
                                       const char *ctx, anim_error *why)
{
    const char *data;
    size_t data_len;
    if (!gltf_data_uri_payload(uri, &data, &data_len, &p->uri_mime, &p->uri_mime_len)) {
        p->uri_mime = NULL;
        p->uri_mime_len = 0;
        anim_error_set(why, ANIM_ERR_INVALID, "%s: data URI is not base64", ctx);
        return GLTF_IMAGE_BAD_DATA_URI;
    }
    if (data_len / 4 * 3 > max_bytes) {
        anim_error_set(why, ANIM_ERR_LIMIT, "%s: data URI over the %zu-byte image limit", ctx,
                       max_bytes);
        return GLTF_IMAGE_TOO_LARGE;
    }
    uint8_t *buf = malloc(data_len / 4 * 3 + 3);
    if (!buf) {
        anim_error_set(why, ANIM_ERR_NOMEM, "%s: out of memory", ctx);
        return GLTF_IMAGE_TOO_LARGE;
    }
    long long n = anim_base64_decode_unpadded(data, data_len, buf);
    if (n < 0) {
        free(buf);
        anim_error_set(why, ANIM_ERR_INVALID, "%s: malformed base64 data URI", ctx);
        return GLTF_IMAGE_BAD_DATA_URI;
    }
    p->bytes = p->owned = buf;
    p->len = (size_t)n;
    return GLTF_IMAGE_OK;
}

static gltf_image_status from_file(const anim_source *src, const char *uri, size_t max_bytes,
                                   anim_arena *tmp, gltf_image_payload *p, const char *ctx,
                                   anim_error *why)
{
    char *path = gltf_resolve_uri_path(tmp, src->base_dir, uri, true, ctx, why);
    if (!path)
        return GLTF_IMAGE_UNAVAILABLE;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        anim_error_set(why, ANIM_ERR_IO, "%s: %s: cannot read the image file", ctx, path);
        if (fd >= 0)
            close(fd);
        return GLTF_IMAGE_UNAVAILABLE;
    }
    if ((uint64_t)st.st_size > max_bytes) {
        close(fd);
        anim_error_set(why, ANIM_ERR_LIMIT, "%s: %s is over the %zu-byte image limit", ctx, path,
                       max_bytes);
        return GLTF_IMAGE_TOO_LARGE;
    }
    size_t size = (size_t)st.st_size;
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf) {
        close(fd);
        anim_error_set(why, ANIM_ERR_NOMEM, "%s: out of memory", ctx);
        return GLTF_IMAGE_TOO_LARGE;
    }
    size_t got = 0;
    while (got < size) {
        ssize_t r = read(fd, buf + got, size - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    if (got != size) {
        free(buf);
        anim_error_set(why, ANIM_ERR_IO, "%s: %s: short read", ctx, path);
        return GLTF_IMAGE_UNAVAILABLE;
    }
    p->bytes = p->owned = buf;
    p->len = size;
    return GLTF_IMAGE_OK;
}

gltf_image_status gltf_image_payload_read(const anim_source *src, const anim_image *img,
                                          const char *uri, size_t max_bytes, anim_arena *tmp,
                                          gltf_image_payload *p, const char *ctx,
                                          anim_error *why)
{
    memset(p, 0, sizeof *p);
    switch (img->source) {
    case ANIM_IMAGE_BUFFER_VIEW: return from_view(src, img->buffer_view, max_bytes, p, ctx, why);
    case ANIM_IMAGE_DATA_URI:
        if (!uri) {
            anim_error_set(why, ANIM_ERR_INVALID, "%s: data URI is not base64", ctx);
            return GLTF_IMAGE_BAD_DATA_URI;
        }
        return from_data_uri(uri, max_bytes, p, ctx, why);
    case ANIM_IMAGE_URI_FILE:
        if (uri)
            return from_file(src, uri, max_bytes, tmp, p, ctx, why);
        break; /* a file image without its uri has nothing to read */
    default: break;
    }
    anim_error_set(why, ANIM_ERR_INVALID, "%s: has neither a uri nor a bufferView", ctx);
    return GLTF_IMAGE_UNAVAILABLE;
}

const char *gltf_image_sniff_mime(const uint8_t *p, size_t n)
{
    if (n >= 8 && memcmp(p, "\x89PNG\r\n\x1a\n", 8) == 0)
        return "image/png";
    if (n >= 3 && p[0] == 0xFF && p[1] == 0xD8 && p[2] == 0xFF)
        return "image/jpeg";
    if (n >= 12 && memcmp(p, "RIFF", 4) == 0 && memcmp(p + 8, "WEBP", 4) == 0)
        return "image/webp";
    if (n >= 12 && memcmp(p, "\xABKTX 20\xBB\r\n\x1a\n", 12) == 0)
        return "image/ktx2";
    return NULL;
}
