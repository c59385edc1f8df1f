/* images: one record per source image with its declared source
 * kind and MIME label, the container its bytes show (PNG or JPEG magic),
 * and the decoded header facts (dimensions, color type, channels).
 *
 * Only the header is decoded (stb_image's info entry points), never the
 * pixels: this is inventory evidence, and reading a 16k texture to learn
 * its size would dominate a lint run. Payloads are bounded before they are
 * read (ANIM_IMAGE_MAX_ENCODED_BYTES), and an image whose decoded pixels
 * would exceed ANIM_IMAGE_MAX_DECODED_BYTES reports resource_limit as a
 * bounded decoder would. External files are resolved like buffers: no
 * absolute paths, no scheme, no ".." out of the asset's directory. Every
 * failure is a reason on the record, never a load error. */
#include "measure/asset_internal.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "animsmith/json.h"
#include "animsmith/path.h"
#include "io/gltf/gltf_internal.h"

/* Header probing only: PNG and JPEG, from memory, all functions private
 * to this file. */
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_HDR
#define STBI_NO_FAILURE_STRINGS
/* STB_IMAGE_STATIC leaves the loaders we never call declared but unused;
 * that is reported at the end of the translation unit, so the warning
 * stays off for the rest of this file. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include <stb/stb_image.h>

/* A payload: borrowed (buffer bytes) or owned (malloc). */
typedef struct payload {
    const uint8_t *bytes;
    size_t len;
    uint8_t *owned;
} payload;

static anim_image_container detect_container(const uint8_t *b, size_t n)
{
    static const uint8_t png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (n >= 8 && memcmp(b, png, 8) == 0)
        return ANIM_CONTAINER_PNG;
    if (n >= 3 && b[0] == 0xff && b[1] == 0xd8 && b[2] == 0xff)
        return ANIM_CONTAINER_JPEG;
    return ANIM_CONTAINER_NONE;
}

static int leading_magic(anim_arena *arena, const uint8_t *b, size_t n,
                         anim_image_measurements *im, anim_error *err)
{
    static const char hex[] = "0123456789abcdef";
    size_t k = n < 16 ? n : 16;
    char *s = anim_arena_alloc(arena, k * 2 + 1);
    if (!s)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < k; i++) {
        s[2 * i] = hex[b[i] >> 4];
        s[2 * i + 1] = hex[b[i] & 15];
    }
    s[2 * k] = '\0';
    im->leading_magic_hex = s;
    return 0;
}

static int inspect(anim_arena *arena, const payload *p, anim_image_measurements *im,
                   anim_error *err)
{
    im->detected_container = detect_container(p->bytes, p->len);
    if (p->len > ANIM_IMAGE_MAX_ENCODED_BYTES) {
        im->status = ANIM_IMAGE_RESOURCE_LIMIT;
        return 0;
    }
    if (im->detected_container == ANIM_CONTAINER_NONE) {
        im->status = ANIM_IMAGE_UNSUPPORTED_CONTAINER;
        return p->len ? leading_magic(arena, p->bytes, p->len, im, err) : 0;
    }
    int w = 0, h = 0, comp = 0;
    if (!stbi_info_from_memory(p->bytes, (int)p->len, &w, &h, &comp) || w <= 0 || h <= 0 ||
        comp < 1 || comp > 4) {
        im->status = ANIM_IMAGE_DECODE_FAILED;
        return 0;
    }
    bool wide = im->detected_container == ANIM_CONTAINER_PNG &&
                stbi_is_16_bit_from_memory(p->bytes, (int)p->len);
    uint64_t decoded = (uint64_t)w * (uint64_t)h * (uint64_t)comp * (wide ? 2u : 1u);
    if (decoded > ANIM_IMAGE_MAX_DECODED_BYTES) {
        im->status = ANIM_IMAGE_RESOURCE_LIMIT;
        return 0;
    }
    static const anim_image_color_type narrow_types[4] = {ANIM_COLOR_L8, ANIM_COLOR_LA8,
                                                          ANIM_COLOR_RGB8, ANIM_COLOR_RGBA8};
    static const anim_image_color_type wide_types[4] = {ANIM_COLOR_L16, ANIM_COLOR_LA16,
                                                        ANIM_COLOR_RGB16, ANIM_COLOR_RGBA16};
    im->status = ANIM_IMAGE_AVAILABLE;
    im->width = (uint32_t)w;
    im->height = (uint32_t)h;
    im->channel_count = (uint32_t)comp;
    im->color_type = wide ? wide_types[comp - 1] : narrow_types[comp - 1];
    return 0;
}

static anim_image_status embedded_payload(const anim_source *src, uint32_t view, payload *p)
{
    if (view == ANIM_NONE || view >= src->view_count)
        return ANIM_IMAGE_SOURCE_UNAVAILABLE;
    const anim_buffer_view *v = &src->views[view];
    if (v->buffer >= src->buffer_count)
        return ANIM_IMAGE_SOURCE_UNAVAILABLE;
    const anim_buffer *b = &src->buffers[v->buffer];
    size_t end;
    if (!b->data || !anim_size_add(v->byte_offset, v->byte_length, &end) || end > b->data_length)
        return ANIM_IMAGE_SOURCE_UNAVAILABLE;
    if (v->byte_length > ANIM_IMAGE_MAX_ENCODED_BYTES)
        return ANIM_IMAGE_RESOURCE_LIMIT;
    p->bytes = b->data + v->byte_offset;
    p->len = v->byte_length;
    return ANIM_IMAGE_AVAILABLE;
}

/* Decodes a data URI; *mime gets the URI's media type (tmp arena) or NULL. */
static anim_image_status data_uri_payload(anim_arena *tmp, const char *uri, payload *p,
                                          const char **mime)
{
    const char *data, *m;
    size_t data_len, mime_len;
    *mime = NULL;
    if (!gltf_data_uri_payload(uri, &data, &data_len, &m, &mime_len))
        return ANIM_IMAGE_INVALID_DATA_URI;
    if (mime_len > 0)
        *mime = anim_arena_strndup(tmp, m, mime_len);
    if (data_len / 4 * 3 > ANIM_IMAGE_MAX_ENCODED_BYTES)
        return ANIM_IMAGE_RESOURCE_LIMIT;
    uint8_t *buf = malloc(data_len / 4 * 3 + 3);
    if (!buf)
        return ANIM_IMAGE_RESOURCE_LIMIT;
    long n = gltf_base64_decode(data, data_len, buf);
    if (n < 0) {
        free(buf);
        return ANIM_IMAGE_INVALID_DATA_URI;
    }
    p->bytes = p->owned = buf;
    p->len = (size_t)n;
    return ANIM_IMAGE_AVAILABLE;
}

/* The directory of the asset's path ("." for a bare file name), or NULL
 * when the asset has no path (loaded from memory without one). */
static const char *asset_dir(anim_arena *tmp, const char *path)
{
    return path ? anim_path_dirname(tmp, path) : NULL;
}

static anim_image_status external_payload(anim_arena *tmp, const char *dir, const char *uri,
                                          payload *p)
{
    anim_error ignored;
    anim_error_clear(&ignored);
    char *path = gltf_resolve_uri_path(tmp, dir, uri, true, "image", &ignored);
    if (!path)
        return ANIM_IMAGE_SOURCE_UNAVAILABLE;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return ANIM_IMAGE_SOURCE_UNAVAILABLE;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return ANIM_IMAGE_SOURCE_UNAVAILABLE;
    }
    if ((uint64_t)st.st_size > ANIM_IMAGE_MAX_ENCODED_BYTES) {
        close(fd);
        return ANIM_IMAGE_RESOURCE_LIMIT;
    }
    size_t size = (size_t)st.st_size;
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf) {
        close(fd);
        return ANIM_IMAGE_RESOURCE_LIMIT;
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
        return ANIM_IMAGE_SOURCE_UNAVAILABLE;
    }
    p->bytes = p->owned = buf;
    p->len = size;
    return ANIM_IMAGE_AVAILABLE;
}

static int measure_image(const anim_asset *asset, anim_arena *arena, anim_arena *tmp,
                         const char *dir, uint32_t i, anim_image_measurements *im,
                         anim_error *err)
{
    const anim_image *img = &asset->doc.images[i];
    const anim_json_value *images = anim_json_get(asset->source.root, "images");
    const anim_json_value *obj =
        images && i < anim_json_count(images) ? anim_json_item(images, i) : NULL;
    const anim_json_value *uri_v = obj ? anim_json_get(obj, "uri") : NULL;
    const char *uri = uri_v ? anim_json_strdup(tmp, uri_v) : NULL;
    im->image_index = i;
    im->name = img->name;
    im->declared_mime_type = img->mime_type;
    payload p = {NULL, 0, NULL};
    anim_image_status st;
    switch (img->source) {
    case ANIM_IMAGE_BUFFER_VIEW:
        im->source_kind = ANIM_IMAGE_KIND_EMBEDDED;
        st = embedded_payload(&asset->source, img->buffer_view, &p);
        break;
    case ANIM_IMAGE_DATA_URI: {
        im->source_kind = ANIM_IMAGE_KIND_DATA_URI;
        const char *uri_mime = NULL;
        st = uri ? data_uri_payload(tmp, uri, &p, &uri_mime) : ANIM_IMAGE_INVALID_DATA_URI;
        /* The declared label falls back to the URI's own media type. */
        if (!im->declared_mime_type && uri_mime) {
            im->declared_mime_type = anim_arena_strdup(arena, uri_mime);
            if (!im->declared_mime_type)
                return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        }
        break;
    }
    case ANIM_IMAGE_URI_FILE:
        im->source_kind = ANIM_IMAGE_KIND_EXTERNAL;
        st = uri ? external_payload(tmp, dir, uri, &p) : ANIM_IMAGE_SOURCE_UNAVAILABLE;
        break;
    case ANIM_IMAGE_NONE:
    default:
        /* Neither uri nor bufferView: nothing to read. */
        im->source_kind = ANIM_IMAGE_KIND_EXTERNAL;
        st = ANIM_IMAGE_SOURCE_UNAVAILABLE;
        break;
    }
    int rc = 0;
    if (st != ANIM_IMAGE_AVAILABLE)
        im->status = st;
    else
        rc = inspect(arena, &p, im, err);
    free(p.owned);
    return rc;
}

int asset_measure_images(const anim_asset *asset, anim_arena *arena, anim_asset_measurements *out,
                         anim_error *err)
{
    const anim_doc *doc = &asset->doc;
    out->image_count = doc->image_count;
    out->images = anim_arena_calloc(arena, doc->image_count ? doc->image_count : 1,
                                    sizeof *out->images);
    if (!out->images)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    if (doc->image_count == 0)
        return 0;
    /* URI copies and paths are scratch: freed before returning. */
    anim_arena *tmp = anim_arena_new();
    if (!tmp)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    const char *dir = asset_dir(tmp, asset->source.path);
    int rc = 0;
    for (uint32_t i = 0; i < doc->image_count && rc == 0; i++)
        rc = measure_image(asset, arena, tmp, dir, i, &out->images[i], err);
    anim_arena_free(tmp);
    return rc;
}

const char *anim_image_status_name(anim_image_status status)
{
    switch (status) {
    case ANIM_IMAGE_SOURCE_UNAVAILABLE: return "source_unavailable";
    case ANIM_IMAGE_INVALID_DATA_URI: return "invalid_data_uri";
    case ANIM_IMAGE_UNSUPPORTED_CONTAINER: return "unsupported_container";
    case ANIM_IMAGE_DECODE_FAILED: return "decode_failed";
    case ANIM_IMAGE_RESOURCE_LIMIT: return "resource_limit";
    case ANIM_IMAGE_AVAILABLE: break;
    }
    return NULL;
}

const char *anim_image_color_type_name(anim_image_color_type t)
{
    static const char *const names[] = {"l8",  "la8",  "rgb8",  "rgba8",
                                        "l16", "la16", "rgb16", "rgba16"};
    return (unsigned)t < sizeof names / sizeof *names ? names[t] : "unknown";
}
