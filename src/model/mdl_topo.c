/* Derived edges and radial queries of an object (mdl_topo.h). Faces and
 * corners are the authoritative mesh; edges are recomputed here whenever
 * an operation, inspection or check needs them, so they can never drift
 * from the faces. One sort of every face side by (a, b, face, corner):
 * O(n log n) in the corner count, and deterministic because the key is
 * total. A side whose two corners name the same vertex is no edge and is
 * skipped. */
#include "model/mdl_topo.h"

#include <stdlib.h>
#include <string.h>

#include "animsmith/arena.h"

typedef struct {
    uint64_t a, b;
    uint32_t face, corner;
    bool forward;
} side;

static int side_cmp(const void *x, const void *y)
{
    const side *s = x, *t = y;
    if (s->a != t->a)
        return s->a < t->a ? -1 : 1;
    if (s->b != t->b)
        return s->b < t->b ? -1 : 1;
    if (s->face != t->face)
        return s->face < t->face ? -1 : 1;
    if (s->corner != t->corner)
        return s->corner < t->corner ? -1 : 1;
    return 0;
}

void mdl_topo_free(mdl_topo *t)
{
    if (!t)
        return;
    free(t->edges);
    free(t->uses);
    memset(t, 0, sizeof *t);
}

int mdl_topo_build(const mdl_object *o, mdl_topo *t)
{
    memset(t, 0, sizeof *t);
    if (o->corner_count > UINT32_MAX || o->face_count > UINT32_MAX)
        return -1; /* indices are u32 by contract; nothing that large is admitted */
    size_t n = 0;
    for (size_t fi = 0; fi < o->face_count; fi++)
        n += o->faces[fi].corner_count;
    if (n == 0)
        return 0;
    size_t bytes;
    if (!anim_size_mul(n, sizeof(side), &bytes))
        return -1;
    side *s = malloc(bytes);
    if (!s)
        return -1;
    size_t m = 0;
    for (size_t fi = 0; fi < o->face_count; fi++) {
        const mdl_face *f = &o->faces[fi];
        for (uint32_t k = 0; k < f->corner_count; k++) {
            uint32_t ci = f->corner_first + k;
            uint32_t cj = f->corner_first + (k + 1) % f->corner_count;
            uint64_t va = o->corners[ci].vertex, vb = o->corners[cj].vertex;
            if (va == vb)
                continue;
            side *e = &s[m++];
            e->forward = va < vb;
            e->a = e->forward ? va : vb;
            e->b = e->forward ? vb : va;
            e->face = (uint32_t)fi;
            e->corner = ci;
        }
    }
    if (m == 0) {
        free(s);
        return 0;
    }
    qsort(s, m, sizeof *s, side_cmp);
    size_t edges = 1;
    for (size_t i = 1; i < m; i++)
        if (s[i].a != s[i - 1].a || s[i].b != s[i - 1].b)
            edges++;
    t->uses = malloc(m * sizeof *t->uses);
    t->edges = malloc(edges * sizeof *t->edges);
    if (!t->uses || !t->edges) {
        free(s);
        mdl_topo_free(t);
        return -1;
    }
    size_t ei = 0;
    for (size_t i = 0; i < m; i++) {
        if (i == 0 || s[i].a != s[i - 1].a || s[i].b != s[i - 1].b) {
            mdl_edge *e = &t->edges[ei++];
            e->a = s[i].a;
            e->b = s[i].b;
            e->face_count = 0;
            e->first_use = (uint32_t)i;
        }
        t->edges[ei - 1].face_count++;
        t->uses[i].face = s[i].face;
        t->uses[i].corner = s[i].corner;
        t->uses[i].forward = s[i].forward;
    }
    t->edge_count = edges;
    t->use_count = m;
    free(s);
    return 0;
}

ptrdiff_t mdl_topo_find(const mdl_topo *t, uint64_t a, uint64_t b)
{
    if (a > b) {
        uint64_t x = a;
        a = b;
        b = x;
    }
    size_t lo = 0, hi = t->edge_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const mdl_edge *e = &t->edges[mid];
        if (e->a < a || (e->a == a && e->b < b))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < t->edge_count && t->edges[lo].a == a && t->edges[lo].b == b)
        return (ptrdiff_t)lo;
    return -1;
}

int mdl_topo_copy_weights(mdl_object *o, uint64_t from, uint64_t to)
{
    size_t first, n = mdl_object_vertex_weights(o, from, &first);
    size_t tfirst;
    if (n == 0 && mdl_object_vertex_weights(o, to, &tfirst) == 0)
        return 0; /* nothing to copy or replace */
    /* Copied out first: setting weights moves o->weights. */
    uint32_t joints[16];
    double w[16];
    uint32_t *jp = joints;
    double *wp = w;
    if (n > 16) {
        jp = malloc(n * sizeof *jp);
        wp = malloc(n * sizeof *wp);
        if (!jp || !wp) {
            free(jp);
            free(wp);
            return -1;
        }
    }
    for (size_t i = 0; i < n; i++) {
        jp[i] = o->weights[first + i].joint;
        wp[i] = o->weights[first + i].weight;
    }
    int rc = mdl_object_set_vertex_weights(o, to, jp, wp, n);
    if (jp != joints) {
        free(jp);
        free(wp);
    }
    return rc;
}
