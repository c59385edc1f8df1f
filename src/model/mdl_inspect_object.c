/* model.inspect object domains: overview (counts, bounds, materials and the
 * local validation findings, paged by issue_offset), vertices, faces,
 * corners, edges and weights. Offsets index the object's own arrays
 * (vertices and faces by id, corners in face order, weights by vertex then
 * joint, edges by vertex pair), which is what lets a face row's
 * corner_offset and a vertex row's weight_offset point into other domains. */
#include <stdlib.h>

#include "model/mdl_inspect_page.h"
#include "model/mdl_mesh_check.h"
#include "model/mdl_topo.h"

#define VERTEX_WEIGHTS_INLINE 4

/* Index of the first weight of vertex id (or where it would be). */
static size_t weight_lower_bound(const mdl_object *o, uint64_t id)
{
    size_t lo = 0, hi = o->weight_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (o->weights[mid].vertex < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* ---- overview */

typedef struct issue_ctx {
    const mdl_object *o;
    const mdl_topo *t;
    const mdl_issue_list *issues;
} issue_ctx;

static int issue_row(void *ctx, uint64_t index, anim_json_writer *w, size_t cut)
{
    const issue_ctx *c = ctx;
    (void)cut; /* a finding row inlines at most MDL_ISSUE_IDS_MAX ids anyway */
    mdl_issue_write(w, c->o, c->t, &c->issues->items[index]);
    return 0;
}

int mdl_inspect_object_overview(mdl_inspect_req *r)
{
    const mdl_object *o = r->object;
    mdl_topo t = {0};
    mdl_issue_list issues = {0};
    if (mdl_topo_build(o, &t) ||
        mdl_mesh_check(r->doc, o, &t, MDL_ISSUE_MASK_LOCAL, &issues)) {
        mdl_topo_free(&t);
        mdl_issue_list_free(&issues);
        return mdl_inspect_nomem(r);
    }
    uint64_t triangles = 0;
    for (size_t i = 0; i < o->face_count; i++)
        triangles += o->faces[i].corner_count - 2;
    bool used[MDL_MATERIAL_SLOTS];
    mdl_object_materials_used(o, used);

    anim_json_writer *w = r->w;
    anim_json_writer_key(w, "overview");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "name");
    anim_json_writer_string(w, o->name);
    anim_json_writer_key(w, "counts");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "vertices", o->vertex_count);
    anim_json_writer_key_uint(w, "faces", o->face_count);
    anim_json_writer_key_uint(w, "corners", o->corner_count);
    anim_json_writer_key_uint(w, "edges", t.edge_count);
    anim_json_writer_key_uint(w, "weights", o->weight_count);
    anim_json_writer_key_uint(w, "triangles", triangles);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "bounds");
    mdl_write_bounds(w, o);
    anim_json_writer_key(w, "materials");
    anim_json_writer_begin_array(w);
    for (size_t m = 0; m < MDL_MATERIAL_SLOTS; m++)
        if (used[m])
            anim_json_writer_uint(w, m);
    anim_json_writer_end_array(w);

    anim_json_writer_key(w, "validation");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "checked");
    anim_json_writer_begin_array(w);
    for (unsigned k = 0; k < MDL_ISSUE_LOCAL_KINDS; k++)
        anim_json_writer_string(w, mdl_issue_kind_name((mdl_issue_kind)k));
    anim_json_writer_end_array(w);
    /* Local checks cannot tell whether the surface bounds a solid without
     * self-intersections; say so and where to ask. */
    anim_json_writer_key(w, "global_solidity");
    anim_json_writer_string(w, "unchecked");
    anim_json_writer_key(w, "global_solidity_domain");
    anim_json_writer_string(w, "solid");
    anim_json_writer_key_uint(w, "issues_total", issues.count);
    anim_json_writer_key(w, "issues");
    anim_json_writer_begin_array(w);
    mdl_page p = {r->out, w, r->budget, issues.count, r->issue_offset, r->limit, 0,
                  false, false, false};
    issue_ctx c = {o, &t, &issues};
    mdl_page_rows(&p, issue_row, &c);
    anim_json_writer_end_array(w);
    mdl_topo_free(&t);
    mdl_issue_list_free(&issues);
    if (p.nomem)
        return mdl_inspect_nomem(r);
    uint64_t next = mdl_page_next(&p);
    anim_json_writer_key_uint(w, "issue_offset", p.offset);
    anim_json_writer_key_uint(w, "issues_returned", p.count);
    anim_json_writer_key_uint(w, "issues_omitted",
                              p.offset < p.total ? p.total - p.offset - p.count : 0);
    anim_json_writer_key(w, "next_issue_offset");
    if (next == UINT64_MAX)
        anim_json_writer_null(w);
    else
        anim_json_writer_uint(w, next);
    anim_json_writer_key(w, "issues_byte_limited");
    anim_json_writer_bool(w, p.byte_limited);
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
    return 0;
}

/* ---- vertices */

static int vertex_row(void *ctx, uint64_t index, anim_json_writer *w, size_t cut)
{
    const mdl_object *o = ctx;
    const mdl_vertex *v = &o->vertices[index];
    size_t first = weight_lower_bound(o, v->id), n = 0;
    while (first + n < o->weight_count && o->weights[first + n].vertex == v->id)
        n++;
    size_t inline_n = n < VERTEX_WEIGHTS_INLINE ? n : VERTEX_WEIGHTS_INLINE;
    (void)cut;
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "id");
    mdl_write_id(w, v->id);
    anim_json_writer_key(w, "position");
    anim_json_writer_f64_array(w, v->p, 3);
    anim_json_writer_key_uint(w, "weight_count", n);
    anim_json_writer_key(w, "weights");
    anim_json_writer_begin_array(w);
    for (size_t i = 0; i < inline_n; i++) {
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "joint", o->weights[first + i].joint);
        anim_json_writer_key(w, "weight");
        anim_json_writer_f64(w, o->weights[first + i].weight);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key_uint(w, "weight_offset", first);
    anim_json_writer_end_object(w);
    return 0;
}

int mdl_inspect_vertices(mdl_inspect_req *r)
{
    return mdl_inspect_page(r, r->object->vertex_count, vertex_row, (void *)r->object);
}

/* ---- faces */

static int face_row(void *ctx, uint64_t index, anim_json_writer *w, size_t cut)
{
    const mdl_object *o = ctx;
    const mdl_face *f = &o->faces[index];
    double n[3];
    (void)cut;
    mdl_face_normal(o, f, n);
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "id");
    mdl_write_id(w, f->id);
    anim_json_writer_key_uint(w, "corner_offset", f->corner_first);
    anim_json_writer_key_uint(w, "corner_count", f->corner_count);
    anim_json_writer_key_uint(w, "material", (uint64_t)f->material);
    anim_json_writer_key(w, "smooth");
    anim_json_writer_bool(w, f->smooth);
    anim_json_writer_key(w, "normal");
    anim_json_writer_f64_array(w, n, 3);
    anim_json_writer_end_object(w);
    return 0;
}

int mdl_inspect_faces(mdl_inspect_req *r)
{
    return mdl_inspect_page(r, r->object->face_count, face_row, (void *)r->object);
}

/* ---- corners */

static int corner_row(void *ctx, uint64_t index, anim_json_writer *w, size_t cut)
{
    const mdl_object *o = ctx;
    const mdl_corner *c = &o->corners[index];
    size_t fi = mdl_object_corner_face(o, (size_t)index);
    const mdl_face *f = &o->faces[fi];
    (void)cut;
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "id");
    mdl_write_id(w, c->id);
    anim_json_writer_key(w, "face");
    mdl_write_id(w, f->id);
    anim_json_writer_key_uint(w, "index", index - f->corner_first);
    anim_json_writer_key(w, "vertex");
    mdl_write_id(w, c->vertex);
    anim_json_writer_key(w, "uv");
    anim_json_writer_f64_array(w, c->uv, 2);
    anim_json_writer_key(w, "normal");
    if (c->has_normal)
        anim_json_writer_f64_array(w, c->normal, 3);
    else
        anim_json_writer_null(w);
    anim_json_writer_key(w, "explicit");
    anim_json_writer_bool(w, c->has_normal);
    anim_json_writer_end_object(w);
    return 0;
}

int mdl_inspect_corners(mdl_inspect_req *r)
{
    return mdl_inspect_page(r, r->object->corner_count, corner_row, (void *)r->object);
}

/* ---- edges (derived) */

typedef struct edge_ctx {
    const mdl_object *o;
    const mdl_topo *t;
} edge_ctx;

static int edge_row(void *ctx, uint64_t index, anim_json_writer *w, size_t cut)
{
    const edge_ctx *c = ctx;
    const mdl_edge *e = &c->t->edges[index];
    const mdl_edge_attr *attr = mdl_object_edge_attr(c->o, e->a, e->b);
    size_t n = e->face_count < cut ? e->face_count : cut;
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "vertices");
    anim_json_writer_begin_array(w);
    mdl_write_id(w, e->a);
    mdl_write_id(w, e->b);
    anim_json_writer_end_array(w);
    anim_json_writer_key_uint(w, "face_count", e->face_count);
    anim_json_writer_key(w, "faces");
    anim_json_writer_begin_array(w);
    for (size_t i = 0; i < n; i++)
        mdl_write_id(w, c->o->faces[c->t->uses[e->first_use + i].face].id);
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "faces_truncated");
    anim_json_writer_bool(w, n < e->face_count);
    anim_json_writer_key(w, "boundary");
    anim_json_writer_bool(w, e->face_count == 1);
    anim_json_writer_key(w, "manifold");
    anim_json_writer_bool(w, e->face_count <= 2);
    anim_json_writer_key(w, "seam");
    anim_json_writer_bool(w, attr && attr->seam);
    anim_json_writer_key(w, "crease");
    anim_json_writer_f64(w, attr ? attr->crease : 0.0);
    anim_json_writer_end_object(w);
    return 0;
}

int mdl_inspect_edges(mdl_inspect_req *r)
{
    mdl_topo t = {0};
    if (mdl_topo_build(r->object, &t)) {
        mdl_topo_free(&t);
        return mdl_inspect_nomem(r);
    }
    edge_ctx c = {r->object, &t};
    int rc = mdl_inspect_page(r, t.edge_count, edge_row, &c);
    mdl_topo_free(&t);
    return rc;
}

/* ---- weights */

static int weight_row(void *ctx, uint64_t index, anim_json_writer *w, size_t cut)
{
    const mdl_object *o = ctx;
    const mdl_weight *wt = &o->weights[index];
    size_t first = (size_t)index;
    (void)cut;
    while (first > 0 && o->weights[first - 1].vertex == wt->vertex)
        first--;
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "vertex");
    mdl_write_id(w, wt->vertex);
    anim_json_writer_key_uint(w, "weight_index", index - first);
    anim_json_writer_key_uint(w, "joint", wt->joint);
    anim_json_writer_key(w, "weight");
    anim_json_writer_f64(w, wt->weight);
    anim_json_writer_end_object(w);
    return 0;
}

int mdl_inspect_weights(mdl_inspect_req *r)
{
    return mdl_inspect_page(r, r->object->weight_count, weight_row, (void *)r->object);
}
