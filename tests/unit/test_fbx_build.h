/* Builds binary FBX files in memory for the FBX unit tests: records with
 * typed properties, nested records closed by the null record, raw and
 * zlib-compressed arrays, in the 32-bit (before 7.5) or 64-bit record
 * layout. Included by test_fbx_parse.c and test_fbx_objects.c (inline, so
 * a test using only some helpers compiles without unused warnings). */
#ifndef TEST_FBX_BUILD_H
#define TEST_FBX_BUILD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct {
    uint8_t *b;
    size_t n, cap;
    bool wide;
    /* Open records: header offset, property list start, whether a child
     * was added. */
    size_t open[80], plist[80];
    uint32_t nprops[80];
    bool kids[80];
    int depth;
} fbxb;

static inline void fbxb_put(fbxb *f, const void *p, size_t n)
{
    if (f->n + n > f->cap) {
        f->cap = (f->n + n) * 2 + 256;
        f->b = realloc(f->b, f->cap);
    }
    if (n)
        memcpy(f->b + f->n, p, n);
    f->n += n;
}

static inline void fbxb_u8(fbxb *f, uint8_t v)
{
    fbxb_put(f, &v, 1);
}

static inline void fbxb_u32(fbxb *f, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    fbxb_put(f, b, 4);
}

static inline void fbxb_u64(fbxb *f, uint64_t v)
{
    fbxb_u32(f, (uint32_t)v);
    fbxb_u32(f, (uint32_t)(v >> 32));
}

static inline void fbxb_patch(fbxb *f, size_t at, uint64_t v, bool wide)
{
    for (unsigned i = 0; i < (wide ? 8u : 4u); i++)
        f->b[at + i] = (uint8_t)(v >> (8 * i));
}

/* The 27-byte header. */
static inline void fbxb_begin(fbxb *f, uint32_t version)
{
    memset(f, 0, sizeof *f);
    f->wide = version >= 7500;
    fbxb_put(f, "Kaydara FBX Binary  \0\x1a\0", 23);
    fbxb_u32(f, version);
}

static inline void fbxb_null(fbxb *f)
{
    static const uint8_t z[25] = {0};
    fbxb_put(f, z, f->wide ? 25 : 13);
}

/* Patches a record's property count and list length: when its first
 * child opens, or at its end (properties are all written before either). */
static inline void fbxb_props_done(fbxb *f, int d)
{
    size_t w = f->wide ? 8 : 4;
    fbxb_patch(f, f->open[d] + w, f->nprops[d], f->wide);
    fbxb_patch(f, f->open[d] + 2 * w, f->n - f->plist[d], f->wide);
}

/* Opens a record; its properties follow, then its children. */
static inline void fbxb_rec(fbxb *f, const char *name)
{
    if (f->depth > 0 && !f->kids[f->depth - 1]) {
        fbxb_props_done(f, f->depth - 1);
        f->kids[f->depth - 1] = true;
    }
    f->open[f->depth] = f->n;
    f->nprops[f->depth] = 0;
    f->kids[f->depth] = false;
    size_t w = f->wide ? 8 : 4;
    static const uint8_t z[24] = {0};
    fbxb_put(f, z, 3 * w);
    fbxb_u8(f, (uint8_t)strlen(name));
    fbxb_put(f, name, strlen(name));
    f->plist[f->depth] = f->n;
    f->depth++;
}

/* Closes the innermost record: the null record after children, then its
 * end offset. */
static inline void fbxb_end(fbxb *f)
{
    int d = --f->depth;
    if (f->kids[d])
        fbxb_null(f);
    else
        fbxb_props_done(f, d);
    fbxb_patch(f, f->open[d], f->n, f->wide);
}

/* The top-level null record and a footer (which readers ignore). */
static inline void fbxb_finish(fbxb *f)
{
    fbxb_null(f);
    fbxb_put(f, "footer-bytes-ignored", 20);
}

static inline void fbxb_type(fbxb *f, char t)
{
    f->nprops[f->depth - 1]++;
    fbxb_u8(f, (uint8_t)t);
}

static inline void fbxb_i32(fbxb *f, int32_t v)
{
    fbxb_type(f, 'I');
    fbxb_u32(f, (uint32_t)v);
}

static inline void fbxb_i64(fbxb *f, int64_t v)
{
    fbxb_type(f, 'L');
    fbxb_u64(f, (uint64_t)v);
}

static inline void fbxb_f64(fbxb *f, double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    fbxb_type(f, 'D');
    fbxb_u64(f, u);
}

static inline void fbxb_f32(fbxb *f, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    fbxb_type(f, 'F');
    fbxb_u32(f, u);
}

static inline void fbxb_i16(fbxb *f, int16_t v)
{
    fbxb_type(f, 'Y');
    fbxb_u8(f, (uint8_t)(uint16_t)v);
    fbxb_u8(f, (uint8_t)((uint16_t)v >> 8));
}

static inline void fbxb_bool(fbxb *f, uint8_t v)
{
    fbxb_type(f, 'C');
    fbxb_u8(f, v);
}

/* A string or raw property of n bytes (may hold NULs: "Hips\0\1Model"). */
static inline void fbxb_strn(fbxb *f, char t, const char *s, size_t n)
{
    fbxb_type(f, t);
    fbxb_u32(f, (uint32_t)n);
    fbxb_put(f, s, n);
}

static inline void fbxb_str(fbxb *f, const char *s)
{
    fbxb_strn(f, 'S', s, strlen(s));
}

/* An array of count elements of the type's size, raw or deflated. */
static inline void fbxb_array(fbxb *f, char t, const void *data, uint32_t count, bool compress)
{
    size_t size = t == 'b' ? 1 : (t == 'i' || t == 'f') ? 4 : 8;
    size_t raw = count * size;
    fbxb_type(f, t);
    fbxb_u32(f, count);
    fbxb_u32(f, compress ? 1u : 0u);
    if (!compress) {
        fbxb_u32(f, (uint32_t)raw);
        fbxb_put(f, data, raw);
        return;
    }
    uLongf clen = compressBound((uLong)raw);
    uint8_t *z = malloc(clen);
    if (compress2(z, &clen, data, (uLong)raw, 9) != Z_OK)
        abort();
    fbxb_u32(f, (uint32_t)clen);
    fbxb_put(f, z, clen);
    free(z);
}

#endif
