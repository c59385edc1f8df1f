/* Recipe images: the type from the leading magic bytes (never the file
 * name), the dimensions from the header without decoding, and full
 * decoding to 8-bit RGBA only when an image must be resized.
 *
 * PNG goes through libpng, with only layout transforms (palette and
 * low-bit-depth expansion, tRNS to alpha, 16-bit scaled to 8, grey to
 * RGB, opaque alpha added): no gamma correction, because normal and data
 * maps are not colour and the recipe's processing defines its own
 * transfer functions. JPEG goes through stb_image (baseline and
 * progressive). Both decoders are bounded before they allocate: the probe
 * refuses headers beyond the decode bound, and libpng's and stb's own
 * limits are set to the same side length. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "animsmith_version.h"
#include "convert/texture_internal.h"
#include "io/jpeg_guard.h"
#include "io/gltf/gltf_internal.h"

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_HDR
#define STBI_MAX_DIMENSIONS ANIM_TEXTURE_MAX_SOURCE_SIDE
/* stb's allocations are released with free() below. */
#define STBI_MALLOC(sz) malloc(sz)
#define STBI_REALLOC(p, newsz) realloc(p, newsz)
#define STBI_FREE(p) free(p)
/* STB_IMAGE_STATIC leaves loaders we never call unused; GCC reports that
 * at the end of the translation unit, so the warning stays off for this
 * file. The header's own warnings stay confined to it. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wpedantic"
#endif
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* stb_image's JPEG tables are checked first (io/jpeg_guard.h). */
static int jpeg_guard(const uint8_t *b, size_t n, const char *what, anim_error *err)
{
    size_t at = 0;
    switch (anim_jpeg_guard(b, n, &at)) {
    case ANIM_JPEG_TOO_MANY_TABLES:
        return anim_error_set(err, ANIM_ERR_LIMIT,
                              "%s: JPEG with more than %d Huffman table markers", what,
                              ANIM_JPEG_MAX_DHT_MARKERS);
    case ANIM_JPEG_OVERLONG_TABLE:
        return anim_error_set(err, ANIM_ERR_PARSE,
                              "%s: corrupt JPEG: a Huffman table at byte %zu declares more than "
                              "256 codes",
                              what, at);
    default:
        return 0;
    }
}

int anim_texture_probe(const uint8_t *bytes, size_t len, const char *what,
                       anim_texture_info *info, anim_error *err)
{
    const char *mime = gltf_image_sniff_mime(bytes, len);
    if (!mime)
        return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                              "%s is not a PNG or JPEG file (by its leading bytes)", what);
    if (strcmp(mime, "image/png") != 0 && strcmp(mime, "image/jpeg") != 0)
        return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                              "%s is %s; only PNG and JPEG are accepted", what, mime);
    uint32_t w = 0, h = 0;
    if (mime[6] == 'p') {
        /* The signature, then IHDR: always the first chunk, 13 bytes. */
        if (len < 33 || be32(bytes + 8) != 13 || memcmp(bytes + 12, "IHDR", 4) != 0)
            return anim_error_set(err, ANIM_ERR_PARSE, "%s: PNG without a valid IHDR header",
                                  what);
        w = be32(bytes + 16);
        h = be32(bytes + 20);
    } else {
        int iw = 0, ih = 0, comp = 0;
        if (jpeg_guard(bytes, len, what, err) < 0)
            return -1;
        /* stb only scans the markers up to the frame header here. */
        if (len > (size_t)INT32_MAX || !stbi_info_from_memory(bytes, (int)len, &iw, &ih, &comp) ||
            iw <= 0 || ih <= 0)
            return anim_error_set(err, ANIM_ERR_PARSE, "%s: JPEG without a readable frame header",
                                  what);
        w = (uint32_t)iw;
        h = (uint32_t)ih;
    }
    if (w == 0 || h == 0)
        return anim_error_set(err, ANIM_ERR_PARSE, "%s: header declares %ux%u pixels", what,
                              (unsigned)w, (unsigned)h);
    if (w > ANIM_TEXTURE_MAX_SOURCE_SIDE || h > ANIM_TEXTURE_MAX_SOURCE_SIDE ||
        (uint64_t)w * h > ANIM_TEXTURE_MAX_SOURCE_PIXELS)
        return anim_error_set(err, ANIM_ERR_LIMIT,
                              "%s is %ux%u, beyond the decode limit (%llu pixels, %u per side)",
                              what, (unsigned)w, (unsigned)h,
                              (unsigned long long)ANIM_TEXTURE_MAX_SOURCE_PIXELS,
                              ANIM_TEXTURE_MAX_SOURCE_SIDE);
    info->mime = mime;
    info->width = w;
    info->height = h;
    return 0;
}

typedef struct {
    const uint8_t *p;
    size_t len, at;
    char msg[160];
} png_source;

static void png_read_bytes(png_structp png, png_bytep out, size_t n)
{
    png_source *s = png_get_io_ptr(png);
    if (n > s->len - s->at)
        png_error(png, "truncated file");
    memcpy(out, s->p + s->at, n);
    s->at += n;
}

static void png_fail(png_structp png, png_const_charp msg)
{
    png_source *s = png_get_error_ptr(png);
    snprintf(s->msg, sizeof s->msg, "%s", msg);
    png_longjmp(png, 1);
}

/* Warnings (an unknown ancillary chunk, a bad sRGB profile) do not change
 * the pixels we read; they are not printed. */
static void png_quiet(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

static int decode_png(const uint8_t *bytes, size_t len, const anim_texture_info *info,
                      const char *what, uint8_t **rgba, anim_error *err)
{
    png_source src = {bytes, len, 0, "out of memory"};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &src, png_fail, png_quiet);
    png_infop pi = png ? png_create_info_struct(png) : NULL;
    if (!pi) {
        png_destroy_read_struct(&png, NULL, NULL);
        return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", what);
    }
    /* Written after setjmp, read after a longjmp: volatile. */
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &pi, NULL);
        free(pixels);
        free(rows);
        return anim_error_set(err, ANIM_ERR_PARSE, "%s: cannot decode PNG: %s", what, src.msg);
    }
    png_set_read_fn(png, &src, png_read_bytes);
    png_set_user_limits(png, ANIM_TEXTURE_MAX_SOURCE_SIDE, ANIM_TEXTURE_MAX_SOURCE_SIDE);
    png_set_chunk_malloc_max(png, (png_alloc_size_t)16 << 20);
    png_read_info(png, pi);
    if (png_get_image_width(png, pi) != info->width ||
        png_get_image_height(png, pi) != info->height)
        png_error(png, "header changed since it was probed");
    png_set_expand(png);
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, pi);
    size_t stride = (size_t)info->width * 4;
    if (png_get_rowbytes(png, pi) != stride)
        png_error(png, "unexpected row layout after expansion to RGBA8");
    pixels = malloc(stride * info->height);
    rows = malloc(sizeof(png_bytep) * info->height);
    if (!pixels || !rows)
        png_error(png, "out of memory");
    for (uint32_t y = 0; y < info->height; y++)
        rows[y] = pixels + stride * y;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &pi, NULL);
    free(rows);
    *rgba = pixels;
    return 0;
}

static int decode_jpeg(const uint8_t *bytes, size_t len, const anim_texture_info *info,
                       const char *what, uint8_t **rgba, anim_error *err)
{
    int w = 0, h = 0, comp = 0;
    if (jpeg_guard(bytes, len, what, err) < 0)
        return -1;
    uint8_t *px = stbi_load_from_memory(bytes, (int)len, &w, &h, &comp, 4);
    if (!px)
        return anim_error_set(err, ANIM_ERR_PARSE, "%s: cannot decode JPEG: %s", what,
                              stbi_failure_reason() ? stbi_failure_reason() : "unknown error");
    if ((uint32_t)w != info->width || (uint32_t)h != info->height) {
        free(px);
        return anim_error_set(err, ANIM_ERR_PARSE, "%s: JPEG decoded to %dx%d, header said %ux%u",
                              what, w, h, (unsigned)info->width, (unsigned)info->height);
    }
    *rgba = px;
    return 0;
}

int anim_texture_decode(const uint8_t *bytes, size_t len, const anim_texture_info *info,
                        const char *what, uint8_t **rgba, anim_error *err)
{
    *rgba = NULL;
    if (strcmp(info->mime, "image/png") == 0)
        return decode_png(bytes, len, info, what, rgba, err);
    return decode_jpeg(bytes, len, info, what, rgba, err);
}

const char *anim_texture_processor_name(void)
{
    return "animsmith-texture@" ANIMSMITH_VERSION_STRING;
}

/* The libpng actually linked, which can differ from the header's. */
void anim_texture_png_library(char *buf, size_t n)
{
    snprintf(buf, n, "libpng@%s", png_get_libpng_ver(NULL));
}

/* stb_image carries no version macro (STBI_VERSION is its API level, 1);
 * this is the release named in the header this file is built with,
 * Debian's libstb-dev. */
const char *anim_texture_jpeg_library(void)
{
    return "stb_image@2.27";
}
