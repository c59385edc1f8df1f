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

#include <stdlib.h>
#include <string.h>

#include "animsmith/json.h"
#include "io/gltf/gltf_internal.h"
#include "io/jpeg_guard.h"

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

static anim_image_container detect_container(const uint8_t *b, size_t n)
{
    const char *mime = gltf_image_sniff_mime(b, n);
    if (mime && strcmp(mime, "image/png") == 0)
        return ANIM_CONTAINER_PNG;
    if (mime && strcmp(mime, "image/jpeg") == 0)
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

static int inspect(anim_arena *arena, const gltf_image_payload *p, anim_image_measurements *im,
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
    /* A JPEG whose Huffman tables would overrun stb's is not handed to
     * it (io/jpeg_guard.h). */
    size_t bad_at;
    if (im->detected_container == ANIM_CONTAINER_JPEG &&
        anim_jpeg_guard(p->bytes, p->len, &bad_at) != ANIM_JPEG_SAFE) {
        im->status = ANIM_IMAGE_DECODE_FAILED;
        return 0;
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

/* The reader's outcome as the record's reason. */
static anim_image_status status_of(gltf_image_status st)
{
    switch (st) {
    case GLTF_IMAGE_OK: return ANIM_IMAGE_AVAILABLE;
    case GLTF_IMAGE_TOO_LARGE: return ANIM_IMAGE_RESOURCE_LIMIT;
    case GLTF_IMAGE_BAD_DATA_URI: return ANIM_IMAGE_INVALID_DATA_URI;
    default: return ANIM_IMAGE_SOURCE_UNAVAILABLE;
    }
}

static anim_image_source_kind kind_of(anim_image_source source)
{
    switch (source) {
    case ANIM_IMAGE_BUFFER_VIEW: return ANIM_IMAGE_KIND_EMBEDDED;
    case ANIM_IMAGE_DATA_URI: return ANIM_IMAGE_KIND_DATA_URI;
    default: return ANIM_IMAGE_KIND_EXTERNAL; /* a file, or nothing to read */
    }
}

static int measure_image(const anim_asset *asset, anim_arena *arena, anim_arena *tmp, uint32_t i,
                         anim_image_measurements *im, anim_error *err)
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
    im->source_kind = kind_of(img->source);
    gltf_image_payload p;
    anim_error why; /* a failure is the record's reason, not an error */
    anim_error_clear(&why);
    anim_image_status st = status_of(gltf_image_payload_read(
        &asset->source, img, uri, ANIM_IMAGE_MAX_ENCODED_BYTES, tmp, &p, "image", &why));
    /* The declared label falls back to a data URI's own media type. */
    if (img->source == ANIM_IMAGE_DATA_URI && !im->declared_mime_type && p.uri_mime_len) {
        im->declared_mime_type = anim_arena_strndup(arena, p.uri_mime, p.uri_mime_len);
        if (!im->declared_mime_type) {
            free(p.owned);
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        }
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
    int rc = 0;
    for (uint32_t i = 0; i < doc->image_count && rc == 0; i++)
        rc = measure_image(asset, arena, tmp, i, &out->images[i], err);
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
