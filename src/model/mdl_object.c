/* Mesh object primitives every operation builds on: id lookup, appending
 * vertices and faces with fresh ids, removing faces with the vertices they
 * leave unused, edge attributes and per-vertex weights, kept in the sort
 * orders mdl_doc.h promises (the canonical encoding and the inspect pages
 * rely on them). */
#include "model/mdl_doc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"

ptrdiff_t mdl_object_vertex_index(const mdl_object *o, uint64_t id)
{
    size_t lo = 0, hi = o->vertex_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (o->vertices[mid].id == id)
            return (ptrdiff_t)mid;
        if (o->vertices[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

ptrdiff_t mdl_object_face_index(const mdl_object *o, uint64_t id)
{
    size_t lo = 0, hi = o->face_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (o->faces[mid].id == id)
            return (ptrdiff_t)mid;
        if (o->faces[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

ptrdiff_t mdl_object_corner_index(const mdl_object *o, uint64_t id)
{
    for (size_t i = 0; i < o->corner_count; i++)
        if (o->corners[i].id == id)
            return (ptrdiff_t)i;
    return -1;
}

size_t mdl_object_corner_face(const mdl_object *o, size_t ci)
{
    size_t lo = 0, hi = o->face_count;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (o->faces[mid].corner_first <= ci)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

const double *mdl_object_position(const mdl_object *o, uint64_t vertex)
{
    ptrdiff_t i = mdl_object_vertex_index(o, vertex);
    return i < 0 ? NULL : o->vertices[i].p;
}

uint64_t mdl_object_add_vertex(mdl_object *o, const double p[3])
{
    if (!anim_grow((void **)&o->vertices, &o->vertex_cap, o->vertex_count + 1,
                   sizeof(*o->vertices)))
        return 0;
    uint64_t id = o->next_vertex++;
    mdl_vertex *v = &o->vertices[o->vertex_count++];
    v->id = id;
    memcpy(v->p, p, sizeof(v->p));
    return id;
}

uint64_t mdl_object_add_face(mdl_object *o, const uint64_t *vertex_ids, const double (*uvs)[2],
                             uint32_t count, int32_t material, bool smooth)
{
    if (!anim_grow((void **)&o->faces, &o->face_cap, o->face_count + 1, sizeof(*o->faces)) ||
        !anim_grow((void **)&o->corners, &o->corner_cap, o->corner_count + count,
                   sizeof(*o->corners)))
        return 0;
    mdl_face *f = &o->faces[o->face_count++];
    f->id = o->next_face++;
    f->corner_first = (uint32_t)o->corner_count;
    f->corner_count = count;
    f->material = material;
    f->smooth = smooth;
    for (uint32_t i = 0; i < count; i++) {
        mdl_corner *c = &o->corners[o->corner_count++];
        memset(c, 0, sizeof(*c));
        c->id = o->next_corner++;
        c->vertex = vertex_ids[i];
        if (uvs) {
            c->uv[0] = uvs[i][0];
            c->uv[1] = uvs[i][1];
        }
    }
    return f->id;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int mdl_object_drop_unused_vertices(mdl_object *o)
{
    if (!o->vertex_count)
        return 0;
    uint64_t *used = malloc((o->corner_count ? o->corner_count : 1) * sizeof(*used));
    if (!used)
        return -1;
    for (size_t i = 0; i < o->corner_count; i++)
        used[i] = o->corners[i].vertex;
    qsort(used, o->corner_count, sizeof(*used), cmp_u64);
    size_t nu = 0;
    for (size_t i = 0; i < o->corner_count; i++)
        if (!nu || used[nu - 1] != used[i])
            used[nu++] = used[i];
#define IS_USED(id) (bsearch(&(id), used, nu, sizeof(*used), cmp_u64) != NULL)
    size_t w = 0;
    for (size_t i = 0; i < o->vertex_count; i++)
        if (nu && IS_USED(o->vertices[i].id))
            o->vertices[w++] = o->vertices[i];
    o->vertex_count = w;
    w = 0;
    for (size_t i = 0; i < o->weight_count; i++)
        if (nu && IS_USED(o->weights[i].vertex))
            o->weights[w++] = o->weights[i];
    o->weight_count = w;
    w = 0;
    for (size_t i = 0; i < o->edge_count; i++)
        if (nu && IS_USED(o->edges[i].a) && IS_USED(o->edges[i].b))
            o->edges[w++] = o->edges[i];
    o->edge_count = w;
#undef IS_USED
    free(used);
    return 0;
}

int mdl_object_remove_faces(mdl_object *o, const bool *remove_face)
{
    size_t fw = 0, cw = 0;
    for (size_t i = 0; i < o->face_count; i++) {
        mdl_face f = o->faces[i];
        if (remove_face[i])
            continue;
        memmove(&o->corners[cw], &o->corners[f.corner_first], f.corner_count * sizeof(mdl_corner));
        f.corner_first = (uint32_t)cw;
        cw += f.corner_count;
        o->faces[fw++] = f;
    }
    o->face_count = fw;
    o->corner_count = cw;
    return mdl_object_drop_unused_vertices(o);
}

static void order_pair(uint64_t *a, uint64_t *b)
{
    if (*a > *b) {
        uint64_t t = *a;
        *a = *b;
        *b = t;
    }
}

/* Lower bound of (a, b) in the sorted edge attributes. */
static size_t edge_slot(const mdl_object *o, uint64_t a, uint64_t b)
{
    size_t lo = 0, hi = o->edge_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const mdl_edge_attr *e = &o->edges[mid];
        if (e->a < a || (e->a == a && e->b < b))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const mdl_edge_attr *mdl_object_edge_attr(const mdl_object *o, uint64_t a, uint64_t b)
{
    order_pair(&a, &b);
    size_t i = edge_slot(o, a, b);
    if (i < o->edge_count && o->edges[i].a == a && o->edges[i].b == b)
        return &o->edges[i];
    return NULL;
}

int mdl_object_set_edge_attr(mdl_object *o, uint64_t a, uint64_t b, bool seam, double crease)
{
    order_pair(&a, &b);
    size_t i = edge_slot(o, a, b);
    bool exists = i < o->edge_count && o->edges[i].a == a && o->edges[i].b == b;
    if (!seam && crease == 0) {
        if (exists) {
            memmove(&o->edges[i], &o->edges[i + 1], (o->edge_count - i - 1) * sizeof(*o->edges));
            o->edge_count--;
        }
        return 0;
    }
    if (!exists) {
        if (!anim_grow((void **)&o->edges, &o->edge_cap, o->edge_count + 1, sizeof(*o->edges)))
            return -1;
        memmove(&o->edges[i + 1], &o->edges[i], (o->edge_count - i) * sizeof(*o->edges));
        o->edge_count++;
    }
    o->edges[i] = (mdl_edge_attr){a, b, seam, crease};
    return 0;
}

static size_t weight_slot(const mdl_object *o, uint64_t vertex)
{
    size_t lo = 0, hi = o->weight_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (o->weights[mid].vertex < vertex)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

size_t mdl_object_vertex_weights(const mdl_object *o, uint64_t vertex, size_t *first)
{
    size_t i = weight_slot(o, vertex), n = 0;
    *first = i;
    while (i + n < o->weight_count && o->weights[i + n].vertex == vertex)
        n++;
    return n;
}

int mdl_object_set_vertex_weights(mdl_object *o, uint64_t vertex, const uint32_t *joints,
                                  const double *weights, size_t count)
{
    size_t first, old = mdl_object_vertex_weights(o, vertex, &first);
    size_t keep = 0;
    for (size_t i = 0; i < count; i++)
        if (weights[i] != 0)
            keep++;
    if (keep > old && !anim_grow((void **)&o->weights, &o->weight_cap,
                                 o->weight_count - old + keep, sizeof(*o->weights)))
        return -1;
    if (!o->weights)
        return 0; /* no weights before, none kept */
    memmove(&o->weights[first + keep], &o->weights[first + old],
            (o->weight_count - first - old) * sizeof(*o->weights));
    o->weight_count = o->weight_count - old + keep;
    /* Insertion sort by joint: at most a handful of influences. */
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        if (weights[i] == 0)
            continue;
        mdl_weight w = {vertex, joints[i], weights[i]};
        size_t at = n;
        while (at > 0 && o->weights[first + at - 1].joint > w.joint) {
            o->weights[first + at] = o->weights[first + at - 1];
            at--;
        }
        o->weights[first + at] = w;
        n++;
    }
    return 0;
}

void mdl_face_normal(const mdl_object *o, const mdl_face *f, double n[3])
{
    n[0] = n[1] = n[2] = 0;
    for (uint32_t i = 0; i < f->corner_count; i++) {
        const double *a = mdl_object_position(o, o->corners[f->corner_first + i].vertex);
        const double *b = mdl_object_position(
            o, o->corners[f->corner_first + (i + 1) % f->corner_count].vertex);
        if (!a || !b)
            continue;
        n[0] += (a[1] - b[1]) * (a[2] + b[2]);
        n[1] += (a[2] - b[2]) * (a[0] + b[0]);
        n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (len > 0 && isfinite(len)) {
        n[0] /= len;
        n[1] /= len;
        n[2] /= len;
    } else {
        n[0] = n[1] = n[2] = 0;
    }
}

void mdl_face_centroid(const mdl_object *o, const mdl_face *f, double c[3])
{
    c[0] = c[1] = c[2] = 0;
    for (uint32_t i = 0; i < f->corner_count; i++) {
        const double *p = mdl_object_position(o, o->corners[f->corner_first + i].vertex);
        if (!p)
            continue;
        c[0] += p[0];
        c[1] += p[1];
        c[2] += p[2];
    }
    if (f->corner_count)
        for (int k = 0; k < 3; k++)
            c[k] /= f->corner_count;
}
