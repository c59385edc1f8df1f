/* smooth: uniform Laplacian relaxation of listed vertices toward the
 * average of their edge neighbours. Jacobi style (every iteration reads
 * the previous iteration's positions), so the result does not depend on
 * the order the vertices are listed in. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/mdl_ops.h"
#include "model/mdl_topo.h"

static const mdl_field smooth_fields[] = {
    {.name = "vertices", .type = MDL_F_IDS, .required = true, .min_items = 1,
     .description = "vertex ID strings that may move"},
    {.name = "iterations", .type = MDL_F_INTEGER, .required = true, .min = 1, .max = 64,
     .description = "1-64 relaxation passes"},
    {.name = "factor", .type = MDL_F_NUMBER, .required = true, .min = 0, .max = 1,
     .description = "0-1 fraction of the way to the neighbour average per pass"},
    {.name = "preserve_boundary", .type = MDL_F_BOOL, .required = true,
     .description = "keep vertices on an edge of one face in place"},
    {.name = NULL},
};

typedef struct {
    size_t *idx;      /* vertex indices that move */
    size_t *nbr_first; /* per moving vertex: start in nbr (count + 1 entries) */
    size_t *nbr;      /* neighbour vertex indices */
    double *cur, *next;
} smooth_work;

static void sw_free(smooth_work *w)
{
    free(w->idx);
    free(w->nbr_first);
    free(w->nbr);
    free(w->cur);
    free(w->next);
}

static int run_smooth(mdl_ctx *ctx, const anim_json_value *op)
{
    mdl_object *o = mdl_target_object(ctx, op, false);
    if (!o)
        return -1;
    size_t nids;
    uint64_t *ids = mdl_field_ids(ctx, op, "vertices", &nids);
    if (!ids)
        return -1;
    int iterations = (int)mdl_field_int(op, "iterations", 1);
    double factor = mdl_field_f64(op, "factor", 0.5);
    bool keep_boundary = mdl_field_bool(op, "preserve_boundary", true);
    smooth_work w;
    memset(&w, 0, sizeof w);
    mdl_topo t;
    memset(&t, 0, sizeof t);
    bool *listed = NULL, *pinned = NULL;
    int rc = -1;
    w.idx = malloc(nids * sizeof *w.idx);
    if (!w.idx) {
        mdl_nomem(ctx);
        goto done;
    }
    if (mdl_resolve_vertices(ctx, o, ids, nids, w.idx) != 0)
        goto done;
    if (mdl_spend(ctx, 1 + nids + o->corner_count))
        goto done;
    if (mdl_topo_build(o, &t) != 0) {
        mdl_nomem(ctx);
        goto done;
    }
    size_t nv = o->vertex_count;
    listed = calloc(nv ? nv : 1, sizeof *listed);
    pinned = calloc(nv ? nv : 1, sizeof *pinned);
    if (!listed || !pinned) {
        mdl_nomem(ctx);
        goto done;
    }
    for (size_t i = 0; i < nids; i++)
        listed[w.idx[i]] = true;
    if (keep_boundary)
        for (size_t e = 0; e < t.edge_count; e++)
            if (t.edges[e].face_count == 1) {
                pinned[mdl_object_vertex_index(o, t.edges[e].a)] = true;
                pinned[mdl_object_vertex_index(o, t.edges[e].b)] = true;
            }
    /* Moving vertices in vertex order, each with its neighbours (an edge
     * lists a pair once, so each neighbour appears once). */
    size_t m = 0;
    for (size_t v = 0; v < nv; v++)
        if (listed[v] && !pinned[v])
            w.idx[m++] = v;
    size_t *deg = calloc(nv ? nv : 1, sizeof *deg);
    if (!deg) {
        mdl_nomem(ctx);
        goto done;
    }
    size_t total = 0;
    for (size_t e = 0; e < t.edge_count; e++) {
        size_t a = (size_t)mdl_object_vertex_index(o, t.edges[e].a);
        size_t b = (size_t)mdl_object_vertex_index(o, t.edges[e].b);
        if (listed[a] && !pinned[a])
            deg[a]++, total++;
        if (listed[b] && !pinned[b])
            deg[b]++, total++;
    }
    w.nbr_first = malloc((m + 1) * sizeof *w.nbr_first);
    w.nbr = malloc((total ? total : 1) * sizeof *w.nbr);
    w.cur = malloc((nv ? nv : 1) * 3 * sizeof *w.cur);
    w.next = malloc((m ? m : 1) * 3 * sizeof *w.next);
    if (!w.nbr_first || !w.nbr || !w.cur || !w.next) {
        free(deg);
        mdl_nomem(ctx);
        goto done;
    }
    /* deg becomes each moving vertex's fill cursor into nbr. */
    size_t at = 0;
    for (size_t i = 0; i < m; i++) {
        w.nbr_first[i] = at;
        size_t d = deg[w.idx[i]];
        deg[w.idx[i]] = at;
        at += d;
    }
    w.nbr_first[m] = at;
    for (size_t e = 0; e < t.edge_count; e++) {
        size_t a = (size_t)mdl_object_vertex_index(o, t.edges[e].a);
        size_t b = (size_t)mdl_object_vertex_index(o, t.edges[e].b);
        if (listed[a] && !pinned[a])
            w.nbr[deg[a]++] = b;
        if (listed[b] && !pinned[b])
            w.nbr[deg[b]++] = a;
    }
    free(deg);
    for (size_t v = 0; v < nv; v++)
        memcpy(w.cur + 3 * v, o->vertices[v].p, sizeof o->vertices[v].p);
    for (int it = 0; it < iterations; it++) {
        if (mdl_spend(ctx, m + total))
            goto done;
        for (size_t i = 0; i < m; i++) {
            const double *p = w.cur + 3 * w.idx[i];
            size_t k0 = w.nbr_first[i], k1 = w.nbr_first[i + 1];
            for (int c = 0; c < 3; c++) {
                if (k1 == k0) {
                    w.next[3 * i + c] = p[c];
                    continue;
                }
                double s = 0;
                for (size_t k = k0; k < k1; k++)
                    s += w.cur[3 * w.nbr[k] + c];
                double avg = s / (double)(k1 - k0);
                w.next[3 * i + c] = p[c] + factor * (avg - p[c]);
            }
        }
        for (size_t i = 0; i < m; i++)
            memcpy(w.cur + 3 * w.idx[i], w.next + 3 * i, 3 * sizeof(double));
    }
    /* Selects the listed vertices whose position changed. */
    for (size_t i = 0; i < m; i++) {
        mdl_vertex *v = &o->vertices[w.idx[i]];
        const double *p = w.cur + 3 * w.idx[i];
        if (p[0] == v->p[0] && p[1] == v->p[1] && p[2] == v->p[2])
            continue;
        if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) {
            mdl_refuse(ctx, "not_finite", "vertex \"%llu\" of object \"%s\" would move out of "
                       "range", (unsigned long long)v->id, o->name);
            goto done;
        }
        memcpy(v->p, p, sizeof v->p);
        if (mdl_select_vertex(ctx, v->id) != 0)
            goto done;
    }
    rc = 0;
done:
    free(ids);
    free(listed);
    free(pinned);
    mdl_topo_free(&t);
    sw_free(&w);
    return rc;
}

const mdl_op_def mdl_op_smooth = {
    .op = "smooth",
    .mesh_edit = true,
    .fields = smooth_fields,
    .description = "uniform Laplacian smoothing of listed vertices over their edge neighbours",
    .run = run_smooth,
};
