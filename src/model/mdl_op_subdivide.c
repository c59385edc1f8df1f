/* subdivide: Catmull-Clark subdivision of a whole object, 1 to 3 levels.
 *
 * Rules (one level): face point = centroid of the face's corners; edge
 * point = (a + b + two face points) / 4 on an edge of exactly two faces,
 * else the midpoint (boundary and non-manifold edges are kept sharp);
 * vertex point = (Q + 2R + (n - 3) S) / n for a vertex whose edges all
 * have two faces (Q: average of its face points, R: of its edge
 * midpoints, n: its edge count), (prev + 6 S + next) / 8 for a vertex on
 * exactly two sharp edges, and S itself (fixed) on one or more than two.
 * Each n-gon becomes n quads (vertex point, next edge point, face point,
 * previous edge point), winding as the face. UVs are face-varying and
 * interpolated linearly per face; weights follow the position stencils.
 *
 * Everything is admitted before anything is allocated: creases (which
 * these rules do not honour) and edge data on vertex pairs that are not
 * edges are refused, and the sizes of the result are checked against the
 * memory and work limits from the counts alone. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/model.h"
#include "model/mdl_ops.h"
#include "model/mdl_topo.h"

#define INFLUENCES_MAX 8

static const mdl_field subdivide_fields[] = {
    {.name = "levels", .type = MDL_F_INTEGER, .required = true, .min = 1, .max = 3,
     .description = "1-3 Catmull-Clark levels over the whole object"},
    {.name = NULL},
};

/* ---- weights: sparse (joint, weight) lists combined by stencils */

typedef struct {
    uint32_t joint;
    double w;
} infl;

typedef struct {
    infl *v;
    size_t n, cap;
} infl_buf;

static bool acc_add(infl_buf *b, const mdl_weight *w, size_t n, double k)
{
    if (k == 0)
        return true;
    if (b->n + n > b->cap) {
        size_t nc = b->cap ? b->cap : 32;
        while (nc < b->n + n)
            nc *= 2;
        infl *p = realloc(b->v, nc * sizeof *p);
        if (!p)
            return false;
        b->v = p;
        b->cap = nc;
    }
    for (size_t i = 0; i < n; i++) {
        b->v[b->n].joint = w[i].joint;
        b->v[b->n++].w = w[i].weight * k;
    }
    return true;
}

static int infl_by_joint(const void *x, const void *y)
{
    const infl *a = x, *b = y;
    if (a->joint != b->joint)
        return a->joint < b->joint ? -1 : 1;
    return a->w < b->w ? -1 : a->w > b->w;
}

static int infl_by_weight(const void *x, const void *y)
{
    const infl *a = x, *b = y;
    if (a->w != b->w)
        return a->w > b->w ? -1 : 1;
    return a->joint < b->joint ? -1 : a->joint > b->joint;
}

/* Merges the accumulated contributions per joint, keeps the 8 largest
 * rescaled to the merged total, and appends them (joint order) to out. */
typedef struct {
    mdl_weight *v;
    size_t n, cap;
} weight_vec;

static bool acc_flush(infl_buf *b, uint64_t vertex, weight_vec *out)
{
    if (b->n > 1)
        qsort(b->v, b->n, sizeof *b->v, infl_by_joint);
    size_t m = 0;
    for (size_t i = 0; i < b->n; i++) {
        if (m && b->v[m - 1].joint == b->v[i].joint)
            b->v[m - 1].w += b->v[i].w;
        else
            b->v[m++] = b->v[i];
    }
    size_t k = 0;
    double total = 0;
    for (size_t i = 0; i < m; i++)
        if (b->v[i].w > 0) {
            total += b->v[i].w;
            b->v[k++] = b->v[i];
        }
    m = k;
    if (m > INFLUENCES_MAX) {
        qsort(b->v, m, sizeof *b->v, infl_by_weight);
        m = INFLUENCES_MAX;
        double kept = 0;
        for (size_t i = 0; i < m; i++)
            kept += b->v[i].w;
        for (size_t i = 0; i < m; i++)
            b->v[i].w *= total / kept;
        qsort(b->v, m, sizeof *b->v, infl_by_joint);
    }
    b->n = 0;
    if (out->n + m > out->cap) {
        size_t nc = out->cap ? out->cap : 64;
        while (nc < out->n + m)
            nc *= 2;
        mdl_weight *p = realloc(out->v, nc * sizeof *p);
        if (!p)
            return false;
        out->v = p;
        out->cap = nc;
    }
    for (size_t i = 0; i < m; i++) {
        double w = b->v[i].w > 1 ? 1 : b->v[i].w;
        out->v[out->n++] = (mdl_weight){vertex, b->v[i].joint, w};
    }
    return true;
}

/* ---- one level */

static void object_arrays_free(mdl_object *t)
{
    free(t->vertices);
    free(t->faces);
    free(t->corners);
    free(t->edges);
    free(t->weights);
}

typedef struct {
    mdl_topo t;
    size_t *cvi;       /* corner -> vertex index */
    size_t *cedge;     /* corner -> edge of the side it starts */
    size_t *ve_first;  /* vertex -> incident edges (CSR) */
    size_t *ve;
    size_t *vf_first;  /* vertex -> faces of its corners (CSR) */
    size_t *vf;
    size_t *ea, *eb;   /* edge endpoints as vertex indices */
    double *fp, *ep;   /* face and edge points */
    size_t *fw_first;  /* face point weights (CSR into fw) */
    weight_vec fw;
} level_work;

static void level_free(level_work *w)
{
    mdl_topo_free(&w->t);
    free(w->cvi);
    free(w->cedge);
    free(w->ve_first);
    free(w->ve);
    free(w->vf_first);
    free(w->vf);
    free(w->ea);
    free(w->eb);
    free(w->fp);
    free(w->ep);
    free(w->fw_first);
    free(w->fw.v);
}

static void *alloc_n(size_t n, size_t elem)
{
    size_t bytes;
    if (!anim_size_mul(n ? n : 1, elem, &bytes))
        return NULL;
    return calloc(1, bytes);
}

/* Weights of source vertex index i. */
static size_t src_weights(const mdl_object *s, size_t i, const mdl_weight **w)
{
    size_t first;
    size_t n = mdl_object_vertex_weights(s, s->vertices[i].id, &first);
    *w = s->weights + first;
    return n;
}

/* One Catmull-Clark level from s into d (fresh arrays). 0, -1 on out of
 * memory. */
static int subdivide_level(const mdl_object *s, mdl_object *d)
{
    level_work w;
    memset(&w, 0, sizeof w);
    memset(d, 0, sizeof *d);
    infl_buf acc = {0};
    weight_vec wout = {0};
    int rc = -1;
    if (mdl_topo_build(s, &w.t) != 0)
        goto done;
    size_t nv = s->vertex_count, nf = s->face_count, nc = s->corner_count;
    size_t ne = w.t.edge_count;
    bool weighted = s->weight_count > 0;
    w.cvi = alloc_n(nc, sizeof *w.cvi);
    w.cedge = alloc_n(nc, sizeof *w.cedge);
    w.ve_first = alloc_n(nv + 1, sizeof *w.ve_first);
    w.ve = alloc_n(2 * ne, sizeof *w.ve);
    w.vf_first = alloc_n(nv + 1, sizeof *w.vf_first);
    w.vf = alloc_n(nc, sizeof *w.vf);
    w.ea = alloc_n(ne, sizeof *w.ea);
    w.eb = alloc_n(ne, sizeof *w.eb);
    w.fp = alloc_n(nf, 3 * sizeof *w.fp);
    w.ep = alloc_n(ne, 3 * sizeof *w.ep);
    w.fw_first = alloc_n(nf + 1, sizeof *w.fw_first);
    size_t nnv = nv + nf + ne, nnc = 4 * nc;
    d->vertices = alloc_n(nnv, sizeof *d->vertices);
    d->faces = alloc_n(nc, sizeof *d->faces);
    d->corners = alloc_n(nnc, sizeof *d->corners);
    if (!w.cvi || !w.cedge || !w.ve_first || !w.ve || !w.vf_first || !w.vf || !w.ea || !w.eb ||
        !w.fp || !w.ep || !w.fw_first || !d->vertices || !d->faces || !d->corners)
        goto done;
    d->vertex_cap = nnv ? nnv : 1;
    d->face_cap = nc ? nc : 1;
    d->corner_cap = nnc ? nnc : 1;
    d->name = s->name;
    d->next_vertex = s->next_vertex;
    d->next_face = s->next_face;
    d->next_corner = s->next_corner;

    for (size_t c = 0; c < nc; c++)
        w.cvi[c] = (size_t)mdl_object_vertex_index(s, s->corners[c].vertex);
    for (size_t e = 0; e < ne; e++) {
        const mdl_edge *ed = &w.t.edges[e];
        w.ea[e] = (size_t)mdl_object_vertex_index(s, ed->a);
        w.eb[e] = (size_t)mdl_object_vertex_index(s, ed->b);
        for (uint32_t u = 0; u < ed->face_count; u++)
            w.cedge[w.t.uses[ed->first_use + u].corner] = e;
        w.ve_first[w.ea[e] + 1]++;
        w.ve_first[w.eb[e] + 1]++;
    }
    for (size_t c = 0; c < nc; c++)
        w.vf_first[w.cvi[c] + 1]++;
    for (size_t v = 0; v < nv; v++) {
        w.ve_first[v + 1] += w.ve_first[v];
        w.vf_first[v + 1] += w.vf_first[v];
    }
    {
        size_t *fill = alloc_n(nv, sizeof *fill);
        if (!fill)
            goto done;
        for (size_t e = 0; e < ne; e++) {
            w.ve[w.ve_first[w.ea[e]] + fill[w.ea[e]]++] = e;
            w.ve[w.ve_first[w.eb[e]] + fill[w.eb[e]]++] = e;
        }
        memset(fill, 0, (nv ? nv : 1) * sizeof *fill);
        for (size_t f = 0; f < nf; f++) {
            const mdl_face *fc = &s->faces[f];
            for (uint32_t k = 0; k < fc->corner_count; k++) {
                size_t v = w.cvi[fc->corner_first + k];
                w.vf[w.vf_first[v] + fill[v]++] = f;
            }
        }
        free(fill);
    }

    /* Face points (and their weights). */
    for (size_t f = 0; f < nf; f++) {
        const mdl_face *fc = &s->faces[f];
        double *p = w.fp + 3 * f;
        for (uint32_t k = 0; k < fc->corner_count; k++) {
            const double *q = s->vertices[w.cvi[fc->corner_first + k]].p;
            for (int i = 0; i < 3; i++)
                p[i] += q[i] / fc->corner_count;
            if (weighted) {
                const mdl_weight *sw;
                size_t n = src_weights(s, w.cvi[fc->corner_first + k], &sw);
                if (!acc_add(&acc, sw, n, 1.0 / fc->corner_count))
                    goto done;
            }
        }
        w.fw_first[f] = w.fw.n;
        if (weighted && !acc_flush(&acc, 0, &w.fw))
            goto done;
    }
    w.fw_first[nf] = w.fw.n;

    /* Vertices of the result: vertex points (same ids, same order), then
     * face points, then edge points, with new increasing ids. */
    d->vertex_count = nnv;
    for (size_t v = 0; v < nv; v++) {
        const double *S = s->vertices[v].p;
        double *out = d->vertices[v].p;
        d->vertices[v].id = s->vertices[v].id;
        size_t n = w.ve_first[v + 1] - w.ve_first[v];
        size_t nfv = w.vf_first[v + 1] - w.vf_first[v];
        size_t sharp = 0;
        double sharp_sum[3] = {0, 0, 0};
        for (size_t k = w.ve_first[v]; k < w.ve_first[v + 1]; k++) {
            size_t e = w.ve[k];
            if (w.t.edges[e].face_count != 2) {
                size_t other = w.ea[e] == v ? w.eb[e] : w.ea[e];
                sharp++;
                for (int i = 0; i < 3; i++)
                    sharp_sum[i] += s->vertices[other].p[i];
            }
        }
        const mdl_weight *sw = NULL;
        size_t swn = weighted ? src_weights(s, v, &sw) : 0;
        bool ok = true;
        if (n == 0 || nfv == 0 || (sharp != 0 && sharp != 2)) {
            memcpy(out, S, 3 * sizeof *S);
            if (weighted)
                ok = acc_add(&acc, sw, swn, 1);
        } else if (sharp == 2) {
            for (int i = 0; i < 3; i++)
                out[i] = (sharp_sum[i] + 6 * S[i]) / 8;
            if (weighted) {
                ok = acc_add(&acc, sw, swn, 6.0 / 8);
                for (size_t k = w.ve_first[v]; ok && k < w.ve_first[v + 1]; k++) {
                    size_t e = w.ve[k];
                    if (w.t.edges[e].face_count == 2)
                        continue;
                    const mdl_weight *ow;
                    size_t on = src_weights(s, w.ea[e] == v ? w.eb[e] : w.ea[e], &ow);
                    ok = acc_add(&acc, ow, on, 1.0 / 8);
                }
            }
        } else {
            double Q[3] = {0, 0, 0}, R[3] = {0, 0, 0};
            double dn = (double)n;
            for (size_t k = w.vf_first[v]; k < w.vf_first[v + 1]; k++)
                for (int i = 0; i < 3; i++)
                    Q[i] += w.fp[3 * w.vf[k] + i] / (double)nfv;
            for (size_t k = w.ve_first[v]; k < w.ve_first[v + 1]; k++) {
                size_t e = w.ve[k];
                for (int i = 0; i < 3; i++)
                    R[i] += (s->vertices[w.ea[e]].p[i] + s->vertices[w.eb[e]].p[i]) / (2 * dn);
            }
            for (int i = 0; i < 3; i++)
                out[i] = (Q[i] + 2 * R[i] + (dn - 3) * S[i]) / dn;
            if (weighted) {
                /* (Q + 2R + (n-3)S)/n with R's own S halves folded in:
                 * S gets (n-3)/n + 1/n = (n-2)/n. */
                ok = acc_add(&acc, sw, swn, (dn - 2) / dn);
                for (size_t k = w.vf_first[v]; ok && k < w.vf_first[v + 1]; k++) {
                    size_t f = w.vf[k];
                    ok = acc_add(&acc, w.fw.v + w.fw_first[f], w.fw_first[f + 1] - w.fw_first[f],
                                 1.0 / ((double)nfv * dn));
                }
                for (size_t k = w.ve_first[v]; ok && k < w.ve_first[v + 1]; k++) {
                    size_t e = w.ve[k];
                    const mdl_weight *ow;
                    size_t on = src_weights(s, w.ea[e] == v ? w.eb[e] : w.ea[e], &ow);
                    ok = acc_add(&acc, ow, on, 1.0 / (dn * dn));
                }
            }
        }
        if (!ok || (weighted && !acc_flush(&acc, d->vertices[v].id, &wout)))
            goto done;
    }
    for (size_t f = 0; f < nf; f++) {
        mdl_vertex *nvx = &d->vertices[nv + f];
        nvx->id = d->next_vertex++;
        memcpy(nvx->p, w.fp + 3 * f, sizeof nvx->p);
        if (weighted) {
            if (!acc_add(&acc, w.fw.v + w.fw_first[f], w.fw_first[f + 1] - w.fw_first[f], 1) ||
                !acc_flush(&acc, nvx->id, &wout))
                goto done;
        }
    }
    for (size_t e = 0; e < ne; e++) {
        const mdl_edge *ed = &w.t.edges[e];
        const double *a = s->vertices[w.ea[e]].p, *b = s->vertices[w.eb[e]].p;
        mdl_vertex *nvx = &d->vertices[nv + nf + e];
        nvx->id = d->next_vertex++;
        bool smooth_edge = ed->face_count == 2;
        size_t f1 = 0, f2 = 0;
        if (smooth_edge) {
            f1 = w.t.uses[ed->first_use].face;
            f2 = w.t.uses[ed->first_use + 1].face;
            for (int i = 0; i < 3; i++)
                nvx->p[i] = (a[i] + b[i] + w.fp[3 * f1 + i] + w.fp[3 * f2 + i]) / 4;
        } else {
            for (int i = 0; i < 3; i++)
                nvx->p[i] = (a[i] + b[i]) / 2;
        }
        memcpy(w.ep + 3 * e, nvx->p, sizeof nvx->p);
        if (weighted) {
            const mdl_weight *aw, *bw;
            size_t an = src_weights(s, w.ea[e], &aw), bn = src_weights(s, w.eb[e], &bw);
            double k = smooth_edge ? 0.25 : 0.5;
            bool ok = acc_add(&acc, aw, an, k) && acc_add(&acc, bw, bn, k);
            if (ok && smooth_edge)
                ok = acc_add(&acc, w.fw.v + w.fw_first[f1], w.fw_first[f1 + 1] - w.fw_first[f1],
                             0.25) &&
                     acc_add(&acc, w.fw.v + w.fw_first[f2], w.fw_first[f2 + 1] - w.fw_first[f2],
                             0.25);
            if (!ok || !acc_flush(&acc, nvx->id, &wout))
                goto done;
        }
    }

    /* Child faces: n quads per n-gon, corner k's quad first. */
    for (size_t f = 0; f < nf; f++) {
        const mdl_face *fc = &s->faces[f];
        uint32_t n = fc->corner_count;
        double fuv[2] = {0, 0};
        for (uint32_t k = 0; k < n; k++) {
            fuv[0] += s->corners[fc->corner_first + k].uv[0] / n;
            fuv[1] += s->corners[fc->corner_first + k].uv[1] / n;
        }
        for (uint32_t k = 0; k < n; k++) {
            size_t c = fc->corner_first + k;
            size_t cp = fc->corner_first + (k + n - 1) % n;
            size_t cn = fc->corner_first + (k + 1) % n;
            const double *uk = s->corners[c].uv, *up = s->corners[cp].uv,
                         *un = s->corners[cn].uv;
            mdl_face *nfc = &d->faces[d->face_count++];
            nfc->id = d->next_face++;
            nfc->corner_first = (uint32_t)d->corner_count;
            nfc->corner_count = 4;
            nfc->material = fc->material;
            nfc->smooth = fc->smooth;
            uint64_t vids[4] = {s->vertices[w.cvi[c]].id, d->vertices[nv + nf + w.cedge[c]].id,
                                d->vertices[nv + f].id, d->vertices[nv + nf + w.cedge[cp]].id};
            double uvs[4][2] = {{uk[0], uk[1]},
                                {(uk[0] + un[0]) / 2, (uk[1] + un[1]) / 2},
                                {fuv[0], fuv[1]},
                                {(up[0] + uk[0]) / 2, (up[1] + uk[1]) / 2}};
            for (int i = 0; i < 4; i++) {
                mdl_corner *nc2 = &d->corners[d->corner_count++];
                nc2->id = d->next_corner++;
                nc2->vertex = vids[i];
                nc2->uv[0] = uvs[i][0];
                nc2->uv[1] = uvs[i][1];
            }
        }
    }

    /* Seams split with their edge: both halves keep it. */
    size_t seams = 0;
    for (size_t i = 0; i < s->edge_count; i++)
        if (s->edges[i].seam)
            seams++;
    if (seams) {
        d->edges = alloc_n(2 * seams, sizeof *d->edges);
        if (!d->edges)
            goto done;
        d->edge_cap = 2 * seams;
        for (size_t i = 0; i < s->edge_count; i++) {
            const mdl_edge_attr *ea = &s->edges[i];
            if (!ea->seam)
                continue;
            ptrdiff_t e = mdl_topo_find(&w.t, ea->a, ea->b);
            if (e < 0)
                continue; /* admitted only when every attribute is on an edge */
            uint64_t mid = d->vertices[nv + nf + (size_t)e].id;
            /* Old ids are below every new id, so (old, mid) is ordered. */
            d->edges[d->edge_count++] = (mdl_edge_attr){ea->a, mid, true, 0};
            d->edges[d->edge_count++] = (mdl_edge_attr){ea->b, mid, true, 0};
        }
    }
    d->weights = wout.v;
    d->weight_count = wout.n;
    d->weight_cap = wout.cap;
    wout.v = NULL;
    rc = 0;
done:
    if (rc != 0)
        object_arrays_free(d);
    free(acc.v);
    free(wout.v);
    level_free(&w);
    return rc;
}

static int edge_attr_cmp(const void *x, const void *y)
{
    const mdl_edge_attr *a = x, *b = y;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : a->b > b->b;
}

/* The element counts after `levels` levels, or false on overflow. */
typedef struct {
    uint64_t v, f, c, e, w;
} counts;

static bool mul_ok(uint64_t a, uint64_t b, uint64_t *r)
{
    if (a && b > UINT64_MAX / a)
        return false;
    *r = a * b;
    return true;
}

static bool add_ok(uint64_t a, uint64_t b, uint64_t *r)
{
    if (b > UINT64_MAX - a)
        return false;
    *r = a + b;
    return true;
}

static int run_subdivide(mdl_ctx *ctx, const anim_json_value *op)
{
    mdl_object *o = mdl_target_object(ctx, op, false);
    if (!o)
        return -1;
    int levels = (int)mdl_field_int(op, "levels", 1);
    if (mdl_spend(ctx, 1 + o->edge_count + o->corner_count))
        return -1;
    for (size_t i = 0; i < o->edge_count; i++)
        if (o->edges[i].crease > 0)
            return mdl_refuse(ctx, "creased_edges",
                              "object \"%s\": edge (\"%llu\", \"%llu\") has crease %g; subdivide "
                              "refuses creased edges (set crease 0 first)",
                              o->name, (unsigned long long)o->edges[i].a,
                              (unsigned long long)o->edges[i].b, o->edges[i].crease);
    for (size_t fi = 0; fi < o->face_count; fi++) {
        const mdl_face *f = &o->faces[fi];
        for (uint32_t k = 0; k < f->corner_count; k++)
            if (o->corners[f->corner_first + k].vertex ==
                o->corners[f->corner_first + (k + 1) % f->corner_count].vertex)
                return mdl_refuse(ctx, "degenerate_face",
                                  "face \"%llu\" of object \"%s\" repeats vertex \"%llu\" at "
                                  "corner %u",
                                  (unsigned long long)f->id, o->name,
                                  (unsigned long long)o->corners[f->corner_first + k].vertex, k);
    }
    mdl_topo t;
    if (mdl_topo_build(o, &t) != 0)
        return mdl_nomem(ctx);
    for (size_t i = 0; i < o->edge_count; i++)
        if (mdl_topo_find(&t, o->edges[i].a, o->edges[i].b) < 0) {
            mdl_topo_free(&t);
            return mdl_refuse(ctx, "loose_edges",
                              "object \"%s\": edge data on (\"%llu\", \"%llu\"), which is not an "
                              "edge of any face; subdivide refuses loose edge data",
                              o->name, (unsigned long long)o->edges[i].a,
                              (unsigned long long)o->edges[i].b);
        }
    counts k = {o->vertex_count, o->face_count, o->corner_count, t.edge_count, 0};
    mdl_topo_free(&t);
    bool has_normals = false;
    for (size_t i = 0; i < o->corner_count && !has_normals; i++)
        has_normals = o->corners[i].has_normal;

    /* Admission from the counts alone. */
    uint64_t work = 0;
    bool ok = true;
    for (int l = 0; l < levels && ok; l++) {
        counts n = {0, 0, 0, 0, 0};
        ok = add_ok(k.v, k.e, &n.v) && add_ok(n.v, k.f, &n.v) && mul_ok(k.c, 4, &n.c) &&
             mul_ok(k.e, 2, &n.e) && add_ok(n.e, k.c, &n.e);
        n.f = k.c;
        n.w = o->weight_count ? n.v * INFLUENCES_MAX : 0;
        ok = ok && n.v <= UINT64_MAX / (INFLUENCES_MAX + 1);
        k = n;
        ok = ok && add_ok(work, k.v, &work) && add_ok(work, k.f, &work) &&
             add_ok(work, k.c, &work);
    }
    uint64_t bytes = 0;
    if (ok) {
        uint64_t b;
        ok = mul_ok(k.v, sizeof(mdl_vertex), &b) && add_ok(bytes, b, &bytes) &&
             mul_ok(k.f, sizeof(mdl_face), &b) && add_ok(bytes, b, &bytes) &&
             mul_ok(k.c, sizeof(mdl_corner), &b) && add_ok(bytes, b, &bytes) &&
             mul_ok(k.w, sizeof(mdl_weight), &b) && add_ok(bytes, b, &bytes) &&
             add_ok(bytes, mdl_doc_memory_bytes(ctx->doc), &bytes);
    }
    if (!ok || k.c > UINT32_MAX || bytes > ctx->limits->max_memory_bytes)
        return mdl_refuse(ctx, "limit_exceeded",
                          "object \"%s\": %d subdivision levels make %llu faces and %llu "
                          "corners, beyond max_memory_bytes (%llu)",
                          o->name, levels, (unsigned long long)k.f, (unsigned long long)k.c,
                          (unsigned long long)ctx->limits->max_memory_bytes);
    if (work > ctx->work_budget || ctx->work > ctx->work_budget - work)
        return mdl_refuse(ctx, "work_limit_exceeded",
                          "object \"%s\": %d subdivision levels need %llu work units, beyond "
                          "the batch's %llu (max_work_units)",
                          o->name, levels, (unsigned long long)work,
                          (unsigned long long)ctx->work_budget);

    mdl_object cur;
    const mdl_object *src = o;
    for (int l = 0; l < levels; l++) {
        mdl_object next;
        if (subdivide_level(src, &next) != 0) {
            if (src != o)
                object_arrays_free(&cur);
            return mdl_nomem(ctx);
        }
        if (src != o)
            object_arrays_free(&cur);
        cur = next;
        src = &cur;
        if (mdl_spend(ctx, cur.vertex_count + cur.face_count + cur.corner_count) != 0) {
            object_arrays_free(&cur);
            return -1;
        }
    }
    for (size_t i = 0; i < cur.vertex_count; i++) {
        const double *p = cur.vertices[i].p;
        if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) {
            object_arrays_free(&cur);
            return mdl_refuse(ctx, "not_finite",
                              "object \"%s\": subdivided positions overflow", o->name);
        }
    }
    if (cur.edge_count > 1)
        qsort(cur.edges, cur.edge_count, sizeof *cur.edges, edge_attr_cmp);
    object_arrays_free(o);
    o->vertices = cur.vertices;
    o->vertex_count = cur.vertex_count;
    o->vertex_cap = cur.vertex_cap;
    o->faces = cur.faces;
    o->face_count = cur.face_count;
    o->face_cap = cur.face_cap;
    o->corners = cur.corners;
    o->corner_count = cur.corner_count;
    o->corner_cap = cur.corner_cap;
    o->edges = cur.edges;
    o->edge_count = cur.edge_count;
    o->edge_cap = cur.edge_cap;
    o->weights = cur.weights;
    o->weight_count = cur.weight_count;
    o->weight_cap = cur.weight_cap;
    o->next_vertex = cur.next_vertex;
    o->next_face = cur.next_face;
    o->next_corner = cur.next_corner;
    for (size_t i = 0; i < o->face_count; i++)
        if (mdl_select_face(ctx, o->faces[i].id) != 0)
            return -1;
    for (size_t i = 0; i < o->vertex_count; i++)
        if (mdl_select_vertex(ctx, o->vertices[i].id) != 0)
            return -1;
    if (has_normals &&
        mdl_note(ctx, "object \"%s\": explicit corner normals were dropped by subdivide; "
                      "normals are derived",
                 o->name) != 0)
        return -1;
    return 0;
}

const mdl_op_def mdl_op_subdivide = {
    .op = "subdivide",
    .mesh_edit = true,
    .fields = subdivide_fields,
    .description = "Catmull-Clark subdivision of the whole object (1-3 levels); keeps UVs and "
                   "seams, refuses creases and loose edge data",
    .run = run_subdivide,
};
