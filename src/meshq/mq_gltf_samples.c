/* The residual's samples on a glTF mesh: texel centres of the base-colour
 * texture inside each source UV triangle, then every source vertex's UV.
 *
 * Texels are enumerated per source triangle rather than looked up, so
 * each one knows the source triangle that carries it: a character's UV
 * layout is often mirrored or overlapping, and a texel inside two source
 * triangles is then two samples (one per surface point), never a guess
 * between them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/json.h"
#include "io/gltf/gltf_internal.h"
#include "meshq/mq_gltf_internal.h"

/* An encoded texture is read whole to learn its size; none is this big. */
#define MQ_IMAGE_MAX_BYTES ((size_t)256 << 20)
/* A texture side we would enumerate texels of. */
#define MQ_IMAGE_MAX_SIDE 65536u

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

bool mq_image_size(const uint8_t *b, size_t n, uint32_t *width, uint32_t *height)
{
    static const uint8_t png[8] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a};
    if (n >= 24 && memcmp(b, png, 8) == 0 && memcmp(b + 12, "IHDR", 4) == 0) {
        *width = be32(b + 16);
        *height = be32(b + 20);
        return *width > 0 && *height > 0;
    }
    if (n < 4 || b[0] != 0xff || b[1] != 0xd8)
        return false;
    size_t i = 2;
    while (i + 4 <= n) {
        if (b[i] != 0xff)
            return false;
        uint8_t marker = b[i + 1];
        if (marker == 0xff) { /* fill byte */
            i++;
            continue;
        }
        if (marker == 0xd8 || marker == 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
            i += 2;
            continue;
        }
        size_t seg = (size_t)b[i + 2] << 8 | b[i + 3];
        if (seg < 2)
            return false;
        bool sof = marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 &&
                   marker != 0xcc;
        if (sof) {
            if (i + 9 > n)
                return false;
            *height = (uint32_t)b[i + 5] << 8 | b[i + 6];
            *width = (uint32_t)b[i + 7] << 8 | b[i + 8];
            return *width > 0 && *height > 0;
        }
        if (marker == 0xd9 || marker == 0xda) /* end, or scan data before any frame */
            return false;
        i += 2 + seg;
    }
    return false;
}

/* The base-colour texture size of a material: 0 x 0 when it has none or
 * its image cannot be read or is not PNG/JPEG. */
static void texture_size(const anim_asset *asset, uint32_t material, anim_arena *arena,
                         uint32_t *w, uint32_t *h)
{
    *w = *h = 0;
    const anim_doc *doc = &asset->doc;
    if (material == ANIM_NONE || material >= doc->material_count)
        return;
    uint32_t tex = doc->materials[material].textures[0];
    if (tex == ANIM_NONE || tex >= doc->texture_count)
        return;
    uint32_t image = doc->textures[tex].source;
    if (image == ANIM_NONE || image >= doc->image_count)
        return;
    const anim_image *img = &doc->images[image];
    const anim_json_value *images = anim_json_get(asset->source.root, "images");
    const anim_json_value *obj =
        images && image < anim_json_count(images) ? anim_json_item(images, image) : NULL;
    const anim_json_value *uri_v = obj ? anim_json_get(obj, "uri") : NULL;
    const char *uri = uri_v ? anim_json_strdup(arena, uri_v) : NULL;
    gltf_image_payload p;
    anim_error why;
    anim_error_clear(&why);
    if (gltf_image_payload_read(&asset->source, img, uri, MQ_IMAGE_MAX_BYTES, arena, &p, "image",
                                &why) != GLTF_IMAGE_OK)
        return;
    uint32_t iw, ih;
    if (mq_image_size(p.bytes, p.len, &iw, &ih) && iw <= MQ_IMAGE_MAX_SIDE &&
        ih <= MQ_IMAGE_MAX_SIDE) {
        *w = iw;
        *h = ih;
    }
    free(p.owned);
}

/* Barycentric weights of uv in triangle (a, b, c) by UV, edges included;
 * false outside or for a degenerate UV triangle. */
static bool uv_bary(const double *a, const double *b, const double *c, const double uv[2],
                    double out[3])
{
    double d = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
    if (d == 0 || !isfinite(d))
        return false;
    double l1 = ((uv[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (uv[1] - a[1])) / d;
    double l2 = ((b[0] - a[0]) * (uv[1] - a[1]) - (uv[0] - a[0]) * (b[1] - a[1])) / d;
    double l0 = 1 - l1 - l2;
    if (l0 < 0 || l1 < 0 || l2 < 0)
        return false;
    out[0] = l0;
    out[1] = l1;
    out[2] = l2;
    return true;
}

/* The texel rows or columns whose centres (k + 0.5) / n lie in [lo, hi]. */
static bool texel_span(double lo, double hi, uint32_t n, uint32_t *k0, uint32_t *k1)
{
    if (!(lo <= hi) || !isfinite(lo) || !isfinite(hi))
        return false;
    double a = ceil(lo * n - 0.5), b = floor(hi * n - 0.5);
    if (a < 0)
        a = 0;
    if (b > (double)n - 1)
        b = (double)n - 1;
    if (a > b)
        return false;
    *k0 = (uint32_t)a;
    *k1 = (uint32_t)b;
    return true;
}

/* Visits the texels of triangle t: counts them (samples NULL) or writes. */
static uint64_t texels_of(const anim_mq_mesh *m, uint32_t t, uint32_t W, uint32_t H,
                          anim_mq_sample *samples, anim_mq_carrier *carriers)
{
    const double *a = m->uvs + 2 * (size_t)m->triangles[3 * (size_t)t];
    const double *b = m->uvs + 2 * (size_t)m->triangles[3 * (size_t)t + 1];
    const double *c = m->uvs + 2 * (size_t)m->triangles[3 * (size_t)t + 2];
    double lo[2], hi[2];
    for (int k = 0; k < 2; k++) {
        lo[k] = fmin(a[k], fmin(b[k], c[k]));
        hi[k] = fmax(a[k], fmax(b[k], c[k]));
    }
    uint32_t x0, x1, y0, y1;
    if (!texel_span(lo[0], hi[0], W, &x0, &x1) || !texel_span(lo[1], hi[1], H, &y0, &y1))
        return 0;
    uint64_t n = 0;
    for (uint32_t y = y0; y <= y1; y++) {
        for (uint32_t x = x0; x <= x1; x++) {
            double uv[2] = {(x + 0.5) / W, (y + 0.5) / H};
            double bary[3];
            if (!uv_bary(a, b, c, uv, bary))
                continue;
            if (samples) {
                anim_mq_sample *s = &samples[n];
                s->uv[0] = uv[0];
                s->uv[1] = uv[1];
                s->pixel[0] = (int32_t)x;
                s->pixel[1] = (int32_t)y;
                s->vertex = ANIM_MQ_NONE;
                s->group = m->groups ? m->groups[t] : 0;
                carriers[n].triangle = t;
                memcpy(carriers[n].bary, bary, sizeof bary);
            }
            n++;
        }
    }
    return n;
}

int mq_gltf_samples_build(const anim_asset *asset, const mq_gltf_mesh *mesh, uint32_t uv_grid,
                          uint64_t max_samples, const char *what, anim_arena *arena,
                          anim_mq_sample **samples_out, anim_mq_carrier **carriers_out,
                          uint64_t *count_out, uint64_t *art_out, anim_error *err)
{
    const anim_mq_mesh *m = &mesh->mesh;
    if (max_samples == 0)
        max_samples = MQ_GLTF_DEFAULT_MAX_SAMPLES;
    /* Texture size per primitive (the grid overrides every texture). */
    uint32_t *W = anim_arena_calloc(arena, mesh->prim_count ? mesh->prim_count : 1, sizeof *W);
    uint32_t *H = anim_arena_calloc(arena, mesh->prim_count ? mesh->prim_count : 1, sizeof *H);
    if (!W || !H)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t p = 0; p < mesh->prim_count; p++) {
        if (uv_grid)
            W[p] = H[p] = uv_grid;
        else
            texture_size(asset, mesh->prims[p].material, arena, &W[p], &H[p]);
    }
    /* Pass 1: count. */
    uint64_t art = 0;
    for (uint32_t p = 0; p < mesh->prim_count; p++) {
        if (!W[p])
            continue;
        const mq_gltf_prim *pr = &mesh->prims[p];
        for (uint32_t t = pr->first_triangle; t < pr->first_triangle + pr->triangle_count; t++) {
            art += texels_of(m, t, W[p], H[p], NULL, NULL);
            if (art + m->hull > max_samples)
                return anim_error_set(err, ANIM_ERR_LIMIT,
                                      "%s: mesh '%s' has more than %llu samples (texels of a %ux%u "
                                      "texture on primitive %u, and %u vertices); required at most "
                                      "that: measure on a coarser grid with --uv-grid N",
                                      what, mesh->name, (unsigned long long)max_samples, W[p], H[p],
                                      pr->primitive, m->hull);
        }
    }
    uint64_t total = art + m->hull;
    anim_mq_sample *samples = anim_arena_alloc(arena, (size_t)(total ? total : 1) * sizeof *samples);
    anim_mq_carrier *carriers =
        anim_arena_alloc(arena, (size_t)(total ? total : 1) * sizeof *carriers);
    /* The first triangle using each vertex, for its sample's carrier. */
    uint32_t *first = malloc((size_t)(m->vertex_count ? m->vertex_count : 1) * sizeof *first);
    if (!samples || !carriers || !first) {
        free(first);
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    uint64_t n = 0;
    for (uint32_t p = 0; p < mesh->prim_count; p++) {
        if (!W[p])
            continue;
        const mq_gltf_prim *pr = &mesh->prims[p];
        for (uint32_t t = pr->first_triangle; t < pr->first_triangle + pr->triangle_count; t++)
            n += texels_of(m, t, W[p], H[p], samples + n, carriers + n);
    }
    for (uint32_t v = 0; v < m->vertex_count; v++)
        first[v] = ANIM_MQ_NONE;
    for (uint32_t t = m->triangle_count; t-- > 0;)
        for (int c = 0; c < 3; c++)
            first[m->triangles[3 * (size_t)t + c]] = t;
    for (uint32_t p = 0; p < mesh->prim_count; p++) {
        const mq_gltf_prim *pr = &mesh->prims[p];
        for (uint32_t v = pr->first_vertex; v < pr->first_vertex + pr->vertex_count; v++) {
            anim_mq_sample *s = &samples[n];
            s->uv[0] = m->uvs[2 * (size_t)v];
            s->uv[1] = m->uvs[2 * (size_t)v + 1];
            s->pixel[0] = s->pixel[1] = -1;
            s->vertex = v;
            s->group = pr->primitive;
            anim_mq_carrier *c = &carriers[n];
            c->triangle = first[v];
            c->bary[0] = c->bary[1] = c->bary[2] = 0;
            if (c->triangle != ANIM_MQ_NONE)
                for (int k = 0; k < 3; k++)
                    if (m->triangles[3 * (size_t)c->triangle + k] == v) {
                        c->bary[k] = 1;
                        break;
                    }
            n++;
        }
    }
    free(first);
    *samples_out = samples;
    *carriers_out = carriers;
    *count_out = n;
    *art_out = art;
    return 0;
}
