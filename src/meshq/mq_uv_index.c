/* Which triangle carries a UV: a uniform grid over the mesh's UV bounds,
 * each cell listing the triangles whose UV bounding box meets it, in
 * triangle order. A sample then tests the few triangles of its cell
 * instead of every triangle, which is what lets a full texture's texel
 * centres be measured against a character mesh in seconds. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "meshq/mq.h"

/* A UV on an edge (barycentric down to -EDGE) is on the triangle: an edge
 * shared by two triangles carries its samples in both, and the lower
 * triangle index wins. */
#define EDGE 1e-12
/* A UV whose every barycentric exceeds INSIDE lies strictly inside. */
#define INSIDE 1e-9
/* The grid never has more cells per axis than this. */
#define MAX_CELLS_PER_AXIS 2048u

struct anim_mq_uv_index {
    const anim_mq_mesh *mesh;
    double min[2], cell[2];    /* UV of cell (0, 0), cell size */
    uint32_t cols, rows;
    uint32_t *start;           /* cols * rows + 1 */
    uint32_t *tris;            /* triangle indices, per cell ascending */
};

static void tri_uv_bounds(const anim_mq_mesh *m, uint32_t t, double lo[2], double hi[2])
{
    lo[0] = lo[1] = DBL_MAX;
    hi[0] = hi[1] = -DBL_MAX;
    for (int c = 0; c < 3; c++) {
        const double *uv = m->uvs + 2 * (size_t)m->triangles[3 * (size_t)t + c];
        for (int a = 0; a < 2; a++) {
            lo[a] = fmin(lo[a], uv[a]);
            hi[a] = fmax(hi[a], uv[a]);
        }
    }
}

static uint32_t cell_of(const anim_mq_uv_index *ix, int axis, double v)
{
    uint32_t n = axis ? ix->rows : ix->cols;
    double f = (v - ix->min[axis]) / ix->cell[axis];
    if (!(f > 0))
        return 0;
    if (f >= (double)n)
        return n - 1;
    return (uint32_t)f;
}

anim_mq_uv_index *anim_mq_uv_index_build(const anim_mq_mesh *mesh, anim_arena *arena,
                                         size_t max_bytes, anim_error *err)
{
    anim_mq_uv_index *ix = anim_arena_calloc(arena, 1, sizeof *ix);
    if (!ix)
        goto nomem;
    ix->mesh = mesh;
    double lo[2] = {DBL_MAX, DBL_MAX}, hi[2] = {-DBL_MAX, -DBL_MAX};
    for (uint32_t v = 0; v < mesh->vertex_count; v++)
        for (int a = 0; a < 2; a++) {
            lo[a] = fmin(lo[a], mesh->uvs[2 * (size_t)v + a]);
            hi[a] = fmax(hi[a], mesh->uvs[2 * (size_t)v + a]);
        }
    if (mesh->vertex_count == 0)
        lo[0] = lo[1] = hi[0] = hi[1] = 0;
    /* About one triangle per cell, square cells in UV. */
    uint32_t side = (uint32_t)ceil(sqrt((double)mesh->triangle_count));
    if (side < 1)
        side = 1;
    if (side > MAX_CELLS_PER_AXIS)
        side = MAX_CELLS_PER_AXIS;
    ix->cols = ix->rows = side;
    for (int a = 0; a < 2; a++) {
        ix->min[a] = lo[a];
        double span = hi[a] - lo[a];
        ix->cell[a] = span > 0 ? span / side : 1.0;
    }
    size_t cells = (size_t)ix->cols * ix->rows;
    /* Count first, so the lists are sized (and budgeted) before allocation. */
    uint64_t total = 0;
    for (uint32_t t = 0; t < mesh->triangle_count; t++) {
        double tl[2], th[2];
        tri_uv_bounds(mesh, t, tl, th);
        uint64_t w = (uint64_t)cell_of(ix, 0, th[0]) - cell_of(ix, 0, tl[0]) + 1;
        uint64_t h = (uint64_t)cell_of(ix, 1, th[1]) - cell_of(ix, 1, tl[1]) + 1;
        total += w * h;
    }
    uint64_t bytes = (cells + 1) * 4u + total * 4u;
    if (total > UINT32_MAX || bytes > max_bytes) {
        anim_error_set(err, ANIM_ERR_LIMIT,
                       "the UV index of %u triangles needs %llu bytes, over the %zu-byte budget",
                       mesh->triangle_count, (unsigned long long)bytes, max_bytes);
        return NULL;
    }
    ix->start = anim_arena_calloc(arena, cells + 1, sizeof *ix->start);
    ix->tris = anim_arena_alloc(arena, (size_t)total * sizeof *ix->tris);
    if (!ix->start || !ix->tris)
        goto nomem;
    for (uint32_t t = 0; t < mesh->triangle_count; t++) {
        double tl[2], th[2];
        tri_uv_bounds(mesh, t, tl, th);
        for (uint32_t r = cell_of(ix, 1, tl[1]); r <= cell_of(ix, 1, th[1]); r++)
            for (uint32_t c = cell_of(ix, 0, tl[0]); c <= cell_of(ix, 0, th[0]); c++)
                ix->start[(size_t)r * ix->cols + c + 1]++;
    }
    for (size_t i = 0; i < cells; i++)
        ix->start[i + 1] += ix->start[i];
    uint32_t *fill = malloc(cells * sizeof *fill);
    if (!fill)
        goto nomem;
    memcpy(fill, ix->start, cells * sizeof *fill);
    for (uint32_t t = 0; t < mesh->triangle_count; t++) {
        double tl[2], th[2];
        tri_uv_bounds(mesh, t, tl, th);
        for (uint32_t r = cell_of(ix, 1, tl[1]); r <= cell_of(ix, 1, th[1]); r++)
            for (uint32_t c = cell_of(ix, 0, tl[0]); c <= cell_of(ix, 0, th[0]); c++)
                ix->tris[fill[(size_t)r * ix->cols + c]++] = t;
    }
    free(fill);
    return ix;
nomem:
    anim_error_set(err, ANIM_ERR_NOMEM, "out of memory building the UV index of %u triangles",
                   mesh->triangle_count);
    return NULL;
}

/* Barycentric weights of uv in triangle t; false for a triangle of zero UV
 * area, which carries nothing. */
static bool barycentric(const anim_mq_mesh *m, uint32_t t, const double uv[2], double b[3])
{
    const uint32_t *tri = m->triangles + 3 * (size_t)t;
    const double *a = m->uvs + 2 * (size_t)tri[0];
    const double *p = m->uvs + 2 * (size_t)tri[1];
    const double *q = m->uvs + 2 * (size_t)tri[2];
    double d = (p[0] - a[0]) * (q[1] - a[1]) - (q[0] - a[0]) * (p[1] - a[1]);
    if (d == 0.0 || !isfinite(d))
        return false;
    double b1 = ((uv[0] - a[0]) * (q[1] - a[1]) - (q[0] - a[0]) * (uv[1] - a[1])) / d;
    double b2 = ((p[0] - a[0]) * (uv[1] - a[1]) - (uv[0] - a[0]) * (p[1] - a[1])) / d;
    b[0] = 1.0 - b1 - b2;
    b[1] = b1;
    b[2] = b2;
    return true;
}

static bool holds(const double b[3], double tol)
{
    return b[0] >= -tol && b[1] >= -tol && b[2] >= -tol;
}

/* The cell's list, or NULL when uv lies outside the grid's bounds. */
static const uint32_t *cell_list(const anim_mq_uv_index *ix, const double uv[2], uint32_t *n)
{
    *n = 0;
    for (int a = 0; a < 2; a++) {
        uint32_t cells = a ? ix->rows : ix->cols;
        double hi = ix->min[a] + ix->cell[a] * cells;
        if (!(uv[a] >= ix->min[a] - EDGE && uv[a] <= hi + EDGE))
            return NULL;
    }
    size_t cell = (size_t)cell_of(ix, 1, uv[1]) * ix->cols + cell_of(ix, 0, uv[0]);
    *n = ix->start[cell + 1] - ix->start[cell];
    return ix->tris + ix->start[cell];
}

static uint32_t group_of(const anim_mq_mesh *m, uint32_t t)
{
    return m->groups ? m->groups[t] : 0;
}

int anim_mq_carrier_flat(const anim_mq_uv_index *ix, const double uv[2], uint32_t group,
                         anim_mq_carrier *carrier, uint32_t *other)
{
    carrier->triangle = ANIM_MQ_NONE;
    uint32_t n;
    const uint32_t *list = cell_list(ix, uv, &n);
    bool first_inside = false;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t t = list[i];
        double b[3];
        if (group_of(ix->mesh, t) != group || !barycentric(ix->mesh, t, uv, b) || !holds(b, EDGE))
            continue;
        bool inside = holds(b, -INSIDE);
        if (carrier->triangle == ANIM_MQ_NONE) {
            carrier->triangle = t;
            memcpy(carrier->bary, b, sizeof b);
            first_inside = inside;
        } else if (inside || first_inside) {
            /* Two triangles hold the UV and one holds it strictly inside:
             * they overlap, and the UV has two carriers. */
            *other = t;
            return 1;
        }
    }
    return 0;
}

void anim_mq_carrier_nearest(const anim_mq_uv_index *ix, const double uv[2], uint32_t group,
                             const double *near, anim_mq_carrier *carrier)
{
    const anim_mq_mesh *m = ix->mesh;
    carrier->triangle = ANIM_MQ_NONE;
    double best = DBL_MAX;
    uint32_t n;
    const uint32_t *list = cell_list(ix, uv, &n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t t = list[i];
        double b[3];
        if (group_of(m, t) != group || !barycentric(m, t, uv, b) || !holds(b, EDGE))
            continue;
        double d2 = 0;
        for (uint32_t a = 0; a < m->dim; a++) {
            double p = 0;
            for (int c = 0; c < 3; c++)
                p += b[c] * m->points[(size_t)m->triangles[3 * (size_t)t + c] * m->dim + a];
            d2 += (p - near[a]) * (p - near[a]);
        }
        if (d2 < best) {
            best = d2;
            carrier->triangle = t;
            memcpy(carrier->bary, b, sizeof b);
        }
    }
}
