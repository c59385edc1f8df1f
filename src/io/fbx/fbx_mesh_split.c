/* The geometry core on plain arrays: polygons from PolygonVertexIndex,
 * triangulation, and the per-vertex split into one primitive per material
 * slot.
 *
 * Output is deterministic: vertices appear in the order their first corner
 * is met (polygon order, corner order), triangles in polygon order, and
 * attributes are compared bit for bit, so the same file always yields the
 * same buffers. Every size is bounded by the corner count: at most one
 * vertex and three indices per corner. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/fbx/fbx_geometry_internal.h"

int anim_fbx_polygons(const int64_t *pvi, uint32_t count, uint32_t cp_count, const char *label,
                      anim_arena *arena, uint32_t **corner_cp, uint32_t **poly_start,
                      uint32_t *poly_count, anim_error *err)
{
    uint32_t polys = 0;
    for (uint32_t i = 0; i < count; i++) {
        int64_t v = pvi[i];
        int64_t cp = v < 0 ? -(v + 1) : v;
        if (cp >= (int64_t)cp_count)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s PolygonVertexIndex[%u]: index %lld outside %u control points",
                                  label, i, (long long)cp, cp_count);
        if (v < 0)
            polys++;
    }
    /* A last polygon without its end mark is closed rather than refused:
     * the corners are all valid and the intent is plain. */
    if (count > 0 && pvi[count - 1] >= 0)
        polys++;
    uint32_t *cps = anim_arena_calloc(arena, count ? count : 1, sizeof *cps);
    uint32_t *starts = anim_arena_calloc(arena, (size_t)polys + 1, sizeof *starts);
    if (!cps || !starts)
        return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory for %u corners", label,
                              count);
    uint32_t p = 0;
    for (uint32_t i = 0; i < count; i++) {
        int64_t v = pvi[i];
        cps[i] = (uint32_t)(v < 0 ? -(v + 1) : v);
        if (v < 0)
            starts[++p] = i + 1;
    }
    if (p < polys)
        starts[++p] = count;
    *corner_cp = cps;
    *poly_start = starts;
    *poly_count = polys;
    return 0;
}

/* ---- triangulation -------------------------------------------------- */

static double cross2(const double *a, const double *b, const double *c)
{
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

static void fan(uint32_t n, uint32_t *tris)
{
    for (uint32_t i = 0; i + 2 < n; i++) {
        tris[3 * i] = 0;
        tris[3 * i + 1] = i + 1;
        tris[3 * i + 2] = i + 2;
    }
}

/* p inside or on triangle abc (counter-clockwise). */
static bool in_triangle(const double *p, const double *a, const double *b, const double *c)
{
    return cross2(a, b, p) >= 0.0 && cross2(b, c, p) >= 0.0 && cross2(c, a, p) >= 0.0;
}

static bool same_point(const double *a, const double *b)
{
    return a[0] == b[0] && a[1] == b[1];
}

/* Ear clipping of the projected polygon q (counter-clockwise). The
 * candidate after a clipped ear is the corner that followed it, so a
 * convex polygon comes out as the fan from corner 0. A polygon with no
 * ear (self-intersecting) still loses one corner per round, so the loop
 * always ends after n - 3 rounds. */
static void ear_clip(const double *q, uint32_t n, uint32_t *tris, uint32_t *idx)
{
    for (uint32_t i = 0; i < n; i++)
        idx[i] = i;
    uint32_t m = n, at = 1, t = 0;
    while (m > 3) {
        uint32_t pick = at % m;
        for (uint32_t k = 0; k < m; k++) {
            uint32_t c = (at + k) % m;
            const double *pa = q + 2 * idx[(c + m - 1) % m], *pb = q + 2 * idx[c],
                         *pc = q + 2 * idx[(c + 1) % m];
            if (cross2(pa, pb, pc) <= 0.0)
                continue;
            bool ear = true;
            for (uint32_t j = 0; j < m && ear; j++) {
                const double *pj = q + 2 * idx[j];
                if (j == c || j == (c + 1) % m || j == (c + m - 1) % m || same_point(pj, pa) ||
                    same_point(pj, pb) || same_point(pj, pc))
                    continue;
                ear = !in_triangle(pj, pa, pb, pc);
            }
            if (ear) {
                pick = c;
                break;
            }
        }
        tris[t++] = idx[(pick + m - 1) % m];
        tris[t++] = idx[pick];
        tris[t++] = idx[(pick + 1) % m];
        memmove(idx + pick, idx + pick + 1, (size_t)(m - pick - 1) * sizeof *idx);
        m--;
        at = pick % m;
        /* Keep the fan order: the next candidate is the corner after the
         * one clipped, never corner 0 itself while others remain. */
        if (at == 0)
            at = 1;
    }
    tris[t++] = idx[0];
    tris[t++] = idx[1];
    tris[t++] = idx[2];
}

bool anim_fbx_triangulate(const double *pos, uint32_t n, uint32_t *tris, uint32_t *iscratch,
                          double *dscratch)
{
    if (n <= 3) {
        fan(n, tris);
        return false;
    }
    /* Newell's normal: robust for non-planar and concave polygons. */
    double nx = 0, ny = 0, nz = 0;
    for (uint32_t i = 0; i < n; i++) {
        const double *a = pos + 3 * i, *b = pos + 3 * ((i + 1) % n);
        nx += (a[1] - b[1]) * (a[2] + b[2]);
        ny += (a[2] - b[2]) * (a[0] + b[0]);
        nz += (a[0] - b[0]) * (a[1] + b[1]);
    }
    double len = sqrt(nx * nx + ny * ny + nz * nz);
    if (!(len > 0.0) || !isfinite(len)) {
        fan(n, tris); /* no area: any split is as good, keep it simple */
        return false;
    }
    nx /= len, ny /= len, nz /= len;
    /* u: perpendicular to the normal from the axis it is least aligned
     * with; v = n x u, so (u, v, n) is right-handed and the polygon winds
     * counter-clockwise in (u, v). */
    double ax = fabs(nx), ay = fabs(ny), az = fabs(nz);
    double ux, uy, uz;
    if (ax <= ay && ax <= az)
        ux = 0, uy = -nz, uz = ny;
    else if (ay <= az)
        ux = nz, uy = 0, uz = -nx;
    else
        ux = -ny, uy = nx, uz = 0;
    double ul = sqrt(ux * ux + uy * uy + uz * uz);
    ux /= ul, uy /= ul, uz /= ul;
    double vx = ny * uz - nz * uy, vy = nz * ux - nx * uz, vz = nx * uy - ny * ux;
    double extent = 0.0, off_plane = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        double dx = pos[3 * i] - pos[0], dy = pos[3 * i + 1] - pos[1],
               dz = pos[3 * i + 2] - pos[2];
        dscratch[2 * i] = dx * ux + dy * uy + dz * uz;
        dscratch[2 * i + 1] = dx * vx + dy * vy + dz * vz;
        extent = fmax(extent, fmax(fabs(dscratch[2 * i]), fabs(dscratch[2 * i + 1])));
        off_plane = fmax(off_plane, fabs(dx * nx + dy * ny + dz * nz));
    }
    bool convex = true;
    for (uint32_t i = 0; i < n && convex; i++)
        convex = cross2(dscratch + 2 * i, dscratch + 2 * ((i + 1) % n),
                        dscratch + 2 * ((i + 2) % n)) >= 0.0;
    bool planar = off_plane <= 1e-6 * extent;
    if (convex && planar) {
        fan(n, tris);
        return false;
    }
    if (n > ANIM_FBX_EAR_CLIP_MAX) {
        fan(n, tris);
        return !convex;
    }
    ear_clip(dscratch, n, tris, iscratch);
    return false;
}

/* ---- the vertex split ----------------------------------------------- */

typedef struct split_ctx {
    const anim_fbx_split_input *in;
    const uint32_t *corner_slot;
} split_ctx;

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t corner_hash(const split_ctx *s, uint32_t c)
{
    const anim_fbx_split_input *in = s->in;
    uint64_t h = 0xcbf29ce484222325ull;
    h = mix(h, &in->corner_cp[c], sizeof(uint32_t));
    h = mix(h, &s->corner_slot[c], sizeof(uint32_t));
    if (in->normals)
        h = mix(h, in->normals + 3 * (size_t)c, 3 * sizeof(float));
    if (in->tangents)
        h = mix(h, in->tangents + 4 * (size_t)c, 4 * sizeof(float));
    if (in->uv)
        h = mix(h, in->uv + 2 * (size_t)c, 2 * sizeof(float));
    if (in->colors)
        h = mix(h, in->colors + 4 * (size_t)c, 4 * sizeof(float));
    return h ^ (h >> 29);
}

static bool attr_eq(const float *a, uint32_t w, uint32_t i, uint32_t j)
{
    return !a || memcmp(a + (size_t)w * i, a + (size_t)w * j, w * sizeof(float)) == 0;
}

static bool corner_eq(const split_ctx *s, uint32_t a, uint32_t b)
{
    const anim_fbx_split_input *in = s->in;
    return in->corner_cp[a] == in->corner_cp[b] && s->corner_slot[a] == s->corner_slot[b] &&
           attr_eq(in->normals, 3, a, b) && attr_eq(in->tangents, 4, a, b) &&
           attr_eq(in->uv, 2, a, b) && attr_eq(in->colors, 4, a, b);
}

/* Temporary buffers of one split (malloc: they do not outlive the call). */
typedef struct split_tmp {
    uint32_t *corner_slot, *corner_local, *table, *prim_of_slot, *slot_tris, *slot_corners;
    uint32_t *tris, *iscratch;
    double *pos, *dscratch;
} split_tmp;

static void tmp_free(split_tmp *t)
{
    free(t->corner_slot), free(t->corner_local), free(t->table), free(t->prim_of_slot);
    free(t->slot_tris), free(t->slot_corners), free(t->tris), free(t->iscratch);
    free(t->pos), free(t->dscratch);
}

static int alloc_prims(anim_arena *arena, split_tmp *t, uint32_t slots, anim_fbx_split *out,
                       anim_error *err)
{
    uint32_t used = 0;
    for (uint32_t s = 0; s < slots; s++)
        if (t->slot_tris[s])
            t->prim_of_slot[s] = used++;
        else
            t->prim_of_slot[s] = ANIM_NONE;
    out->prims = anim_arena_calloc(arena, used ? used : 1, sizeof *out->prims);
    if (!out->prims)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory for %u primitives", used);
    out->prim_count = used;
    for (uint32_t s = 0; s < slots; s++) {
        if (t->prim_of_slot[s] == ANIM_NONE)
            continue;
        anim_fbx_split_prim *p = &out->prims[t->prim_of_slot[s]];
        p->slot = s;
        p->vertex_corner = anim_arena_calloc(arena, t->slot_corners[s], sizeof(uint32_t));
        p->indices = anim_arena_calloc(arena, 3 * (size_t)t->slot_tris[s], sizeof(uint32_t));
        if (!p->vertex_corner || !p->indices)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory for %u triangles",
                                  t->slot_tris[s]);
    }
    return 0;
}

/* Vertices of every corner of the usable polygons, in first-use order. */
static void assign_vertices(const anim_fbx_split_input *in, split_tmp *t, size_t table_mask,
                            anim_fbx_split *out)
{
    split_ctx s = {in, t->corner_slot};
    for (uint32_t p = 0; p < in->poly_count; p++) {
        uint32_t a = in->poly_start[p], b = in->poly_start[p + 1];
        if (b - a < 3)
            continue;
        anim_fbx_split_prim *prim = &out->prims[t->prim_of_slot[t->corner_slot[a]]];
        for (uint32_t c = a; c < b; c++) {
            size_t h = (size_t)corner_hash(&s, c) & table_mask;
            for (;;) {
                uint32_t e = t->table[h];
                if (e == 0) {
                    t->table[h] = c + 1;
                    t->corner_local[c] = prim->vertex_count;
                    prim->vertex_corner[prim->vertex_count++] = c;
                    break;
                }
                if (corner_eq(&s, e - 1, c)) {
                    t->corner_local[c] = t->corner_local[e - 1];
                    break;
                }
                h = (h + 1) & table_mask;
            }
        }
    }
}

static void emit_triangles(const anim_fbx_split_input *in, split_tmp *t, anim_fbx_split *out)
{
    for (uint32_t p = 0; p < in->poly_count; p++) {
        uint32_t a = in->poly_start[p], n = in->poly_start[p + 1] - a;
        if (n < 3)
            continue;
        for (uint32_t i = 0; i < n; i++)
            memcpy(t->pos + 3 * i, in->positions + 3 * (size_t)in->corner_cp[a + i],
                   3 * sizeof(double));
        if (anim_fbx_triangulate(t->pos, n, t->tris, t->iscratch, t->dscratch))
            out->fanned_polygons++;
        anim_fbx_split_prim *prim = &out->prims[t->prim_of_slot[t->corner_slot[a]]];
        for (uint32_t k = 0; k + 2 < n; k++) {
            uint32_t i0 = t->corner_local[a + t->tris[3 * k]];
            uint32_t i1 = t->corner_local[a + t->tris[3 * k + 1]];
            uint32_t i2 = t->corner_local[a + t->tris[3 * k + 2]];
            uint32_t *dst = prim->indices + prim->index_count;
            dst[0] = i0;
            dst[1] = in->flip_winding ? i2 : i1;
            dst[2] = in->flip_winding ? i1 : i2;
            prim->index_count += 3;
        }
    }
}

int anim_fbx_split_mesh(const anim_fbx_split_input *in, anim_arena *arena, anim_fbx_split *out,
                        anim_error *err)
{
    memset(out, 0, sizeof *out);
    uint32_t slots = in->slot_count ? in->slot_count : 1;
    uint32_t corners = in->corner_count, max_poly = 3;
    size_t table_size = 16;
    while (table_size < 2 * (size_t)corners)
        table_size <<= 1;
    split_tmp t = {0};
    t.corner_slot = malloc(((size_t)corners + 1) * sizeof(uint32_t));
    t.corner_local = malloc(((size_t)corners + 1) * sizeof(uint32_t));
    t.table = calloc(table_size, sizeof(uint32_t));
    t.prim_of_slot = malloc((size_t)slots * sizeof(uint32_t));
    t.slot_tris = calloc(slots, sizeof(uint32_t));
    t.slot_corners = calloc(slots, sizeof(uint32_t));
    int rc = -1;
    if (!t.corner_slot || !t.corner_local || !t.table || !t.prim_of_slot || !t.slot_tris ||
        !t.slot_corners) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory splitting %u corners", corners);
        goto done;
    }
    for (uint32_t p = 0; p < in->poly_count; p++) {
        uint32_t a = in->poly_start[p], b = in->poly_start[p + 1];
        uint32_t slot = in->poly_slot ? in->poly_slot[p] : 0;
        if (a > b || b > corners || slot >= slots) {
            anim_error_set(err, ANIM_ERR_INVALID, "polygon %u: corners %u..%u or slot %u out of range",
                           p, a, b, slot);
            goto done;
        }
        for (uint32_t c = a; c < b; c++)
            t.corner_slot[c] = slot;
        if (b - a < 3) {
            out->skipped_polygons++;
            continue;
        }
        t.slot_tris[slot] += b - a - 2;
        t.slot_corners[slot] += b - a;
        if (b - a > max_poly)
            max_poly = b - a;
    }
    t.tris = malloc(3 * (size_t)max_poly * sizeof(uint32_t));
    t.iscratch = malloc((size_t)max_poly * sizeof(uint32_t));
    t.pos = malloc(3 * (size_t)max_poly * sizeof(double));
    t.dscratch = malloc(2 * (size_t)max_poly * sizeof(double));
    if (!t.tris || !t.iscratch || !t.pos || !t.dscratch) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory for a %u-corner polygon", max_poly);
        goto done;
    }
    if (alloc_prims(arena, &t, slots, out, err) != 0)
        goto done;
    assign_vertices(in, &t, table_size - 1, out);
    emit_triangles(in, &t, out);
    rc = 0;
done:
    tmp_free(&t);
    return rc;
}
