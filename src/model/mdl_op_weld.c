/* The weld operation: merges listed vertices that lie within a distance of
 * each other, typically to join the halves after `mirror` or to close a
 * seam between parts. Clustering is deterministic and independent of the
 * order ids are listed in: vertices are visited by ascending id and each
 * joins the first (lowest-id) earlier cluster representative within the
 * distance; the representative survives with its position and weights.
 * Faces are then rewritten in place: merged corners collapse, faces left
 * with fewer than three corners disappear, and unused vertices go. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/mdl_ops.h"

typedef struct weld {
    size_t *rep;      /* per vertex index: its cluster representative's index */
    bool *absorbed;   /* per vertex index: a representative that absorbed others */
    mdl_edge_attr *edges; /* edge attributes before the weld */
    size_t edge_count;
} weld;

static double distance(const double a[3], const double b[3])
{
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static int cluster(mdl_ctx *ctx, const mdl_object *o, const bool *listed, double dist, weld *w)
{
    size_t *reps = malloc((o->vertex_count ? o->vertex_count : 1) * sizeof *reps);
    if (!reps)
        return mdl_nomem(ctx);
    size_t nreps = 0;
    int rc = 0;
    for (size_t i = 0; i < o->vertex_count && rc == 0; i++) {
        w->rep[i] = i;
        if (!listed[i])
            continue;
        size_t r = 0;
        while (r < nreps && !(distance(o->vertices[reps[r]].p, o->vertices[i].p) <= dist))
            r++;
        if (r < nreps) {
            w->rep[i] = reps[r];
            w->absorbed[reps[r]] = true;
        } else {
            reps[nreps++] = i;
        }
        rc = mdl_spend(ctx, 1 + r);
    }
    free(reps);
    return rc;
}

static uint64_t survivor(const mdl_object *o, const weld *w, uint64_t id)
{
    ptrdiff_t i = mdl_object_vertex_index(o, id);
    return i < 0 ? id : o->vertices[w->rep[i]].id;
}

/* One face's corners remapped to survivors and collapsed, into buf;
 * returns the kept count (0: the face goes), or -1 after a refusal. */
static int rewrite_face(mdl_ctx *ctx, mdl_object *o, const weld *w, const mdl_face *f,
                        mdl_corner *buf, bool *changed)
{
    uint32_t n = f->corner_count, kept = 0;
    memcpy(buf, &o->corners[f->corner_first], n * sizeof *buf);
    *changed = false;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t s = survivor(o, w, buf[k].vertex);
        if (s != buf[k].vertex)
            *changed = true;
        buf[k].vertex = s;
        if (kept > 0 && buf[kept - 1].vertex == s)
            continue;
        buf[kept++] = buf[k];
    }
    while (kept > 1 && buf[kept - 1].vertex == buf[0].vertex)
        kept--;
    if (kept < 3)
        return 0;
    if (*changed) {
        for (uint32_t a = 0; a < kept; a++) {
            for (uint32_t b = a + 1; b < kept; b++) {
                if (buf[a].vertex == buf[b].vertex)
                    return mdl_refuse(ctx, "degenerate_face",
                                      "face \"%llu\" of object \"%s\" would pass through vertex "
                                      "\"%llu\" twice",
                                      (unsigned long long)f->id, o->name,
                                      (unsigned long long)buf[a].vertex);
            }
        }
    }
    return (int)kept;
}

/* Compacts faces and corners in place (writes never overtake reads). */
static int rewrite_faces(mdl_ctx *ctx, mdl_object *o, const weld *w)
{
    mdl_corner buf[MDL_FACE_CORNERS_MAX];
    size_t fw = 0, cw = 0;
    for (size_t fi = 0; fi < o->face_count; fi++) {
        mdl_face f = o->faces[fi];
        bool changed;
        int kept = rewrite_face(ctx, o, w, &f, buf, &changed);
        if (kept < 0)
            return -1;
        if (kept == 0)
            continue;
        memcpy(&o->corners[cw], buf, (size_t)kept * sizeof *buf);
        f.corner_first = (uint32_t)cw;
        f.corner_count = (uint32_t)kept;
        o->faces[fw++] = f;
        cw += (size_t)kept;
        if (changed && mdl_select_face(ctx, f.id) != 0)
            return -1;
    }
    o->face_count = fw;
    o->corner_count = cw;
    return 0;
}

/* A seam or crease between merged vertices moves to their survivors
 * pair (unless that pair has attributes of its own); computed before the
 * unused vertices go, applied after. */
static int plan_edges(mdl_ctx *ctx, const mdl_object *o, weld *w)
{
    w->edges = malloc((o->edge_count ? o->edge_count : 1) * sizeof *w->edges);
    if (!w->edges)
        return mdl_nomem(ctx);
    for (size_t e = 0; e < o->edge_count; e++) {
        mdl_edge_attr ea = o->edges[e];
        uint64_t sa = survivor(o, w, ea.a), sb = survivor(o, w, ea.b);
        if (sa == sb || (sa == ea.a && sb == ea.b))
            continue;
        ea.a = sa < sb ? sa : sb;
        ea.b = sa < sb ? sb : sa;
        w->edges[w->edge_count++] = ea;
    }
    return 0;
}

static int carry_edges(mdl_ctx *ctx, mdl_object *o, const weld *w)
{
    for (size_t e = 0; e < w->edge_count; e++) {
        const mdl_edge_attr *ea = &w->edges[e];
        if (mdl_object_vertex_index(o, ea->a) < 0 || mdl_object_vertex_index(o, ea->b) < 0 ||
            mdl_object_edge_attr(o, ea->a, ea->b))
            continue;
        if (mdl_object_set_edge_attr(o, ea->a, ea->b, ea->seam, ea->crease) != 0)
            return mdl_nomem(ctx);
    }
    return 0;
}

/* Survivors that absorbed another vertex (ids, collected before the
 * vertex array shrinks), selected when they still exist. */
static int select_survivors(mdl_ctx *ctx, const mdl_object *o, const uint64_t *ids, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (mdl_object_vertex_index(o, ids[i]) >= 0 && mdl_select_vertex(ctx, ids[i]) != 0)
            return -1;
    }
    return 0;
}

static int weld_object(mdl_ctx *ctx, mdl_object *o, const bool *listed, double dist, weld *w,
                       uint64_t *kept_ids)
{
    if (cluster(ctx, o, listed, dist, w) != 0 || plan_edges(ctx, o, w) != 0)
        return -1;
    size_t nk = 0;
    for (size_t i = 0; i < o->vertex_count; i++) {
        if (w->absorbed[i])
            kept_ids[nk++] = o->vertices[i].id;
    }
    if (rewrite_faces(ctx, o, w) != 0)
        return -1;
    if (mdl_object_drop_unused_vertices(o) != 0)
        return mdl_nomem(ctx);
    if (carry_edges(ctx, o, w) != 0)
        return -1;
    return select_survivors(ctx, o, kept_ids, nk);
}

static int run_weld(mdl_ctx *ctx, const anim_json_value *op)
{
    double dist = mdl_field_f64(op, "distance", 0.0);
    mdl_object *o = mdl_target_object(ctx, op, false);
    if (!o)
        return -1;
    size_t n = 0, nv = o->vertex_count, one = nv ? nv : 1;
    uint64_t *ids = mdl_field_ids(ctx, op, "vertices", &n);
    if (!ids && ctx->nomem)
        return -1;
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    bool *listed = calloc(one, sizeof *listed);
    uint64_t *kept_ids = malloc(one * sizeof *kept_ids);
    weld w = {0};
    w.rep = malloc(one * sizeof *w.rep);
    w.absorbed = calloc(one, sizeof *w.absorbed);
    int rc = -1;
    if (!idx || !listed || !kept_ids || !w.rep || !w.absorbed) {
        mdl_nomem(ctx);
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        idx[i] = SIZE_MAX; /* entries a deduplicating resolver leaves unset */
    if (mdl_resolve_vertices(ctx, o, ids, n, idx) != 0 ||
        mdl_spend(ctx, 1 + n + 2 * nv + 2 * o->corner_count + o->face_count + o->edge_count) != 0)
        goto out;
    for (size_t i = 0; i < n; i++) {
        if (idx[i] < nv)
            listed[idx[i]] = true;
    }
    rc = weld_object(ctx, o, listed, dist, &w, kept_ids);
out:
    free(ids);
    free(idx);
    free(listed);
    free(kept_ids);
    free(w.rep);
    free(w.absorbed);
    free(w.edges);
    return rc;
}

static const mdl_field weld_fields[] = {
    {.name = "vertices", .type = MDL_F_IDS, .required = true, .min_items = 1,
     .description = "vertex ids that may merge with each other"},
    {.name = "distance", .type = MDL_F_NUMBER, .required = true, .min = 0, .max = DBL_MAX,
     .description = "merge vertices at most this far apart, in metres (0: coincident only)"},
    {0},
};

const mdl_op_def mdl_op_weld = {
    .op = "weld",
    .mesh_edit = true,
    .fields = weld_fields,
    .description = "merges listed vertices within a distance into the lowest id of each cluster",
    .run = run_weld,
};
