/* The PNG encoder for resized recipe images and compiled model textures:
 * 8-bit RGBA, non-interlaced,
 * zlib level 9 with no row filtering, and nothing but IHDR, IDAT and IEND
 * (no tIME, no text, no gamma or colour chunks), so the bytes depend only
 * on the pixels and the linked libpng/zlib. Written to memory through
 * libpng's write callback. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "convert/png_encode.h"

typedef struct {
    uint8_t *data;
    size_t len, cap;
    char msg[160];
} png_sink;

static void sink_write(png_structp png, png_bytep p, size_t n)
{
    png_sink *s = png_get_io_ptr(png);
    if (n > s->cap - s->len) {
        size_t cap = s->cap ? s->cap : 4096;
        while (cap - s->len < n) {
            if (cap > SIZE_MAX / 2)
                png_error(png, "output too large");
            cap *= 2;
        }
        uint8_t *grown = realloc(s->data, cap);
        if (!grown)
            png_error(png, "out of memory");
        s->data = grown;
        s->cap = cap;
    }
    memcpy(s->data + s->len, p, n);
    s->len += n;
}

static void sink_flush(png_structp png)
{
    (void)png;
}

static void sink_fail(png_structp png, png_const_charp msg)
{
    png_sink *s = png_get_error_ptr(png);
    snprintf(s->msg, sizeof s->msg, "%s", msg);
    png_longjmp(png, 1);
}

static void sink_quiet(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

int anim_texture_png_encode(const uint8_t *rgba, uint32_t w, uint32_t h, uint8_t **png_out,
                            size_t *len, anim_error *err)
{
    *png_out = NULL;
    *len = 0;
    png_sink sink = {NULL, 0, 0, "out of memory"};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, sink_fail, sink_quiet);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return anim_error_set(err, ANIM_ERR_NOMEM, "cannot encode PNG: out of memory");
    }
    /* Written after setjmp, read after a longjmp: volatile. */
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(rows);
        free(sink.data);
        return anim_error_set(err, ANIM_ERR_NOMEM, "cannot encode PNG: %s", sink.msg);
    }
    png_set_write_fn(png, &sink, sink_write, sink_flush);
    png_set_compression_level(png, 9);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    rows = malloc(sizeof(png_bytep) * h);
    if (!rows)
        png_error(png, "out of memory");
    for (uint32_t y = 0; y < h; y++)
        rows[y] = (png_bytep)(uintptr_t)(rgba + (size_t)y * w * 4);
    png_set_rows(png, info, rows);
    png_write_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
    png_destroy_write_struct(&png, &info);
    free(rows);
    *png_out = sink.data;
    *len = sink.len;
    return 0;
}
