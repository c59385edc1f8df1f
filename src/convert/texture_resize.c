/* Role-aware downscaling of recipe images: a separable resampler with
 * per-axis weights computed once per output column/row.
 *
 * Each output sample sits at the centre of its footprint in source
 * coordinates ((o + 0.5) * src / dst); the kernel is stretched by the
 * scale ratio so a downscale integrates every source texel it covers, and
 * the weights of each output are normalised to sum to one, so flat
 * regions stay exactly flat and edges are clamped rather than wrapped.
 * Texel values are transformed before filtering and back after it,
 * according to what they mean:
 *   colour  sRGB to linear light (the exact IEC 61966-2-1 curve), alpha
 *           premultiplied so transparent texels carry no colour, Lanczos3;
 *   normal  [0, 255] to [-1, 1] tangent vectors, Triangle, renormalised
 *           (a vector that cancels out becomes +Z, the flat normal);
 *   data    each channel linear in [0, 1], Triangle.
 * Sums are f64; the horizontal pass's intermediate is f32, which keeps a
 * 4096-row intermediate at 64 MiB and is far finer than the 8-bit output.
 * Every step is plain arithmetic in a fixed order: equal inputs give equal
 * bytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "convert/texture_internal.h"

#define PI 3.14159265358979323846

double anim_srgb_to_linear(double c)
{
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

double anim_linear_to_srgb(double l)
{
    return l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1.0 / 2.4) - 0.055;
}

anim_resize_role anim_texture_slot_role(int slot)
{
    if (slot == ANIM_TEXTURE_SLOT_BASE_COLOR)
        return ANIM_RESIZE_COLOR;
    if (slot == ANIM_TEXTURE_SLOT_NORMAL)
        return ANIM_RESIZE_NORMAL;
    return ANIM_RESIZE_DATA;
}

void anim_texture_fit_size(uint32_t w, uint32_t h, uint32_t max_dim, uint32_t *ow, uint32_t *oh)
{
    uint32_t longer = w > h ? w : h;
    if (longer <= max_dim) {
        *ow = w;
        *oh = h;
        return;
    }
    /* Round half up in integers: side * max_dim / longer. */
    uint64_t rw = ((uint64_t)w * max_dim * 2 + longer) / ((uint64_t)longer * 2);
    uint64_t rh = ((uint64_t)h * max_dim * 2 + longer) / ((uint64_t)longer * 2);
    *ow = rw < 1 ? 1 : (uint32_t)rw;
    *oh = rh < 1 ? 1 : (uint32_t)rh;
}

static double sinc(double x)
{
    if (x == 0.0)
        return 1.0;
    double px = PI * x;
    return sin(px) / px;
}

static double kernel(anim_resize_role role, double x)
{
    double a = fabs(x);
    if (role == ANIM_RESIZE_COLOR)
        return a < 3.0 ? sinc(x) * sinc(x / 3.0) : 0.0;
    return a < 1.0 ? 1.0 - a : 0.0;
}

/* The taps of one axis: output o reads source [start[o], start[o] +
 * count[o]) with weights w[o * stride + k]. */
typedef struct {
    uint32_t *start, *count;
    double *w;
    uint32_t stride;
} axis;

static void axis_free(axis *a)
{
    free(a->start);
    free(a->count);
    free(a->w);
}

static int axis_build(axis *a, uint32_t src, uint32_t dst, anim_resize_role role)
{
    memset(a, 0, sizeof *a);
    double ratio = (double)src / (double)dst;
    double fscale = ratio > 1.0 ? ratio : 1.0;
    double support = (role == ANIM_RESIZE_COLOR ? 3.0 : 1.0) * fscale;
    a->stride = (uint32_t)ceil(2.0 * support) + 2;
    a->start = malloc(sizeof *a->start * dst);
    a->count = malloc(sizeof *a->count * dst);
    a->w = calloc((size_t)dst * a->stride, sizeof *a->w);
    if (!a->start || !a->count || !a->w)
        return -1;
    for (uint32_t o = 0; o < dst; o++) {
        double center = ((double)o + 0.5) * ratio;
        double lo_f = floor(center - support), hi_f = ceil(center + support);
        uint32_t lo = lo_f < 0.0 ? 0 : (uint32_t)lo_f;
        uint32_t hi = hi_f > (double)src ? src : (uint32_t)hi_f;
        if (hi - lo > a->stride)
            hi = lo + a->stride;
        double *w = a->w + (size_t)o * a->stride, sum = 0.0;
        for (uint32_t i = lo; i < hi; i++) {
            w[i - lo] = kernel(role, ((double)i + 0.5 - center) / fscale);
            sum += w[i - lo];
        }
        /* The nearest texel always has positive weight, so sum > 0. */
        for (uint32_t i = lo; i < hi; i++)
            w[i - lo] /= sum;
        a->start[o] = lo;
        a->count[o] = hi - lo;
    }
    return 0;
}

/* One source row in filter space (4 channels). */
static void prepare_row(const uint8_t *src, uint32_t n, anim_resize_role role,
                        const double *srgb_lut, double *out)
{
    for (uint32_t x = 0; x < n; x++) {
        const uint8_t *p = src + (size_t)x * 4;
        double *q = out + (size_t)x * 4;
        if (role == ANIM_RESIZE_COLOR) {
            double a = p[3] / 255.0;
            q[0] = srgb_lut[p[0]] * a;
            q[1] = srgb_lut[p[1]] * a;
            q[2] = srgb_lut[p[2]] * a;
            q[3] = a;
        } else if (role == ANIM_RESIZE_NORMAL) {
            for (int c = 0; c < 3; c++)
                q[c] = p[c] / 255.0 * 2.0 - 1.0;
            q[3] = p[3] / 255.0;
        } else {
            for (int c = 0; c < 4; c++)
                q[c] = p[c] / 255.0;
        }
    }
}

static uint8_t to_byte(double v)
{
    if (!(v > 0.0))
        return 0;
    if (v >= 1.0)
        return 255;
    return (uint8_t)floor(v * 255.0 + 0.5);
}

/* One filtered texel back to 8-bit RGBA. */
static void finish_texel(const double *v, anim_resize_role role, uint8_t *out)
{
    if (role == ANIM_RESIZE_COLOR) {
        double a = v[3] < 0.0 ? 0.0 : v[3] > 1.0 ? 1.0 : v[3];
        for (int c = 0; c < 3; c++) {
            double l = a > 0.0 ? v[c] / a : 0.0;
            l = l < 0.0 ? 0.0 : l > 1.0 ? 1.0 : l;
            out[c] = to_byte(anim_linear_to_srgb(l));
        }
        out[3] = to_byte(a);
    } else if (role == ANIM_RESIZE_NORMAL) {
        double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        double n[3] = {0.0, 0.0, 1.0};
        if (len > 1e-12 && isfinite(len))
            for (int c = 0; c < 3; c++)
                n[c] = v[c] / len;
        for (int c = 0; c < 3; c++)
            out[c] = to_byte((n[c] + 1.0) * 0.5);
        out[3] = to_byte(v[3]);
    } else {
        for (int c = 0; c < 4; c++)
            out[c] = to_byte(v[c]);
    }
}

int anim_texture_resize(const uint8_t *src, uint32_t sw, uint32_t sh, uint8_t *dst,
                        uint32_t dw, uint32_t dh, anim_resize_role role, anim_error *err)
{
    axis ax, ay;
    size_t tmp_n = 0;
    float *tmp = NULL;
    double *row = NULL, *acc = NULL;
    int rc = -1;
    int bx = axis_build(&ax, sw, dw, role), by = axis_build(&ay, sh, dh, role);
    if (bx == 0 && by == 0 && anim_size_mul((size_t)sh * 4, dw, &tmp_n)) {
        tmp = malloc(tmp_n * sizeof *tmp);
        row = malloc((size_t)sw * 4 * sizeof *row);
        acc = malloc((size_t)dw * 4 * sizeof *acc);
    }
    if (!tmp || !row || !acc) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory resizing a %ux%u image", (unsigned)sw,
                       (unsigned)sh);
        goto done;
    }
    double lut[256];
    for (int i = 0; i < 256; i++)
        lut[i] = anim_srgb_to_linear(i / 255.0);
    /* Horizontal: every source row to dw texels. */
    for (uint32_t y = 0; y < sh; y++) {
        prepare_row(src + (size_t)y * sw * 4, sw, role, lut, row);
        float *t = tmp + (size_t)y * dw * 4;
        for (uint32_t x = 0; x < dw; x++) {
            const double *w = ax.w + (size_t)x * ax.stride;
            const double *s = row + (size_t)ax.start[x] * 4;
            double v0 = 0.0, v1 = 0.0, v2 = 0.0, v3 = 0.0;
            for (uint32_t k = 0; k < ax.count[x]; k++) {
                v0 += w[k] * s[4 * k];
                v1 += w[k] * s[4 * k + 1];
                v2 += w[k] * s[4 * k + 2];
                v3 += w[k] * s[4 * k + 3];
            }
            t[4 * x] = (float)v0;
            t[4 * x + 1] = (float)v1;
            t[4 * x + 2] = (float)v2;
            t[4 * x + 3] = (float)v3;
        }
    }
    /* Vertical: whole rows at a time, so the intermediate is read in order. */
    size_t n = (size_t)dw * 4;
    for (uint32_t y = 0; y < dh; y++) {
        memset(acc, 0, n * sizeof *acc);
        const double *w = ay.w + (size_t)y * ay.stride;
        for (uint32_t k = 0; k < ay.count[y]; k++) {
            const float *t = tmp + (size_t)(ay.start[y] + k) * n;
            double wk = w[k];
            for (size_t i = 0; i < n; i++)
                acc[i] += wk * t[i];
        }
        uint8_t *out = dst + (size_t)y * n;
        for (uint32_t x = 0; x < dw; x++)
            finish_texel(acc + (size_t)x * 4, role, out + (size_t)x * 4);
    }
    rc = 0;
done:
    axis_free(&ax);
    axis_free(&ay);
    free(tmp);
    free(row);
    free(acc);
    return rc;
}
