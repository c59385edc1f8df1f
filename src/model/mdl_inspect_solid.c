/* model.inspect "solid": the global checks local validation leaves out.
 * Closed (no open edge), manifold (no edge of more than two faces),
 * consistently oriented (every shared edge run both ways), outward (the
 * enclosed signed volume is positive) and free of self-intersections.
 *
 * Self-intersection compares triangles of the compile triangulation: a
 * sweep over bounding boxes sorted by x finds candidate pairs, pairs that
 * share a vertex are adjacent and skipped, and each remaining pair gets an
 * exact separating-axis test. The work is bounded: past the candidate or
 * pair budget the answer is "unchecked_over_budget", never a guess.
 * Contact within a tolerance (touching without crossing) is not counted. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "model/mdl_inspect_page.h"
#include "model/mdl_mesh_check.h"
#include "model/mdl_topo.h"
#include "model/mdl_tri.h"

#define PAIR_TEST_BUDGET 5000000u
#define CANDIDATE_BUDGET 50000000u
#define RECORDED_PAIRS_MAX 262144u
#define CONTACT_RELATIVE 1e-9 /* of the object's size */

typedef struct tri {
    uint32_t face;
    uint32_t v[3]; /* vertex indices */
    double lo[3], hi[3];
} tri;

typedef struct pair {
    uint32_t a, b; /* face indices, a < b */
} pair;

typedef struct solid_result {
    bool closed, manifold, oriented;
    size_t boundary, nonmanifold, inconsistent;
    double volume;
    size_t triangles;
    uint64_t pairs_tested;
    bool over_budget, truncated;
    pair *pairs;
    size_t pair_count, pair_cap;
} solid_result;

static void sub(const double *a, const double *b, double *o)
{
    o[0] = a[0] - b[0];
    o[1] = a[1] - b[1];
    o[2] = a[2] - b[2];
}

static void cross(const double *a, const double *b, double *o)
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static double norm(const double *a)
{
    return sqrt(dot(a, a));
}

/* Whether the triangles overlap by more than tol along every candidate
 * axis: both normals, the nine edge-edge cross products (crossing
 * triangles) and the six in-plane edge normals (coplanar triangles). */
static bool triangles_cross(const double *const A[3], const double *const B[3], double tol)
{
    double ea[3][3], eb[3][3], na[3], nb[3];
    for (int i = 0; i < 3; i++) {
        sub(A[(i + 1) % 3], A[i], ea[i]);
        sub(B[(i + 1) % 3], B[i], eb[i]);
    }
    cross(ea[0], ea[1], na);
    cross(eb[0], eb[1], nb);
    double axes[17][3];
    double scale[17];
    int n = 0;
    memcpy(axes[n], na, sizeof na);
    scale[n++] = norm(ea[0]) * norm(ea[1]);
    memcpy(axes[n], nb, sizeof nb);
    scale[n++] = norm(eb[0]) * norm(eb[1]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            cross(ea[i], eb[j], axes[n]);
            scale[n++] = norm(ea[i]) * norm(eb[j]);
        }
    for (int i = 0; i < 3; i++) {
        cross(na, ea[i], axes[n]);
        scale[n++] = norm(na) * norm(ea[i]);
        cross(nb, eb[i], axes[n]);
        scale[n++] = norm(nb) * norm(eb[i]);
    }
    for (int k = 0; k < n; k++) {
        double len = norm(axes[k]);
        /* Parallel edges give no axis; skipping one never hides a
         * separation another axis shows. */
        if (!(len > 1e-12 * scale[k]))
            continue;
        double lo_a = INFINITY, hi_a = -INFINITY, lo_b = INFINITY, hi_b = -INFINITY;
        for (int i = 0; i < 3; i++) {
            double pa = dot(A[i], axes[k]) / len, pb = dot(B[i], axes[k]) / len;
            lo_a = fmin(lo_a, pa);
            hi_a = fmax(hi_a, pa);
            lo_b = fmin(lo_b, pb);
            hi_b = fmax(hi_b, pb);
        }
        if (hi_a <= lo_b + tol || hi_b <= lo_a + tol)
            return false;
    }
    return true;
}

static int cmp_tri_x(const void *pa, const void *pb)
{
    const tri *a = pa, *b = pb;
    if (a->lo[0] != b->lo[0])
        return a->lo[0] < b->lo[0] ? -1 : 1;
    if (a->face != b->face)
        return a->face < b->face ? -1 : 1;
    return memcmp(a->v, b->v, sizeof a->v);
}

static int cmp_pair(const void *pa, const void *pb)
{
    const pair *a = pa, *b = pb;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : a->b > b->b;
}

static bool share_vertex(const tri *a, const tri *b)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (a->v[i] == b->v[j])
                return true;
    return false;
}

/* Triangulates every face (into *out) and sums the signed volume. */
static int triangulate(const mdl_object *o, tri **out, size_t *count, double *volume)
{
    uint32_t idx[3 * MDL_FACE_CORNERS_MAX];
    size_t cap = 0, n = 0;
    tri *t = NULL;
    *volume = 0;
    for (size_t fi = 0; fi < o->face_count; fi++) {
        const mdl_face *f = &o->faces[fi];
        bool nonplanar;
        if (f->corner_count > MDL_FACE_CORNERS_MAX)
            continue;
        int k = mdl_face_triangulate(o, f, idx, &nonplanar);
        if (k < 0 || !anim_grow((void **)&t, &cap, n + (size_t)k, sizeof *t)) {
            free(t);
            return -1;
        }
        for (int i = 0; i < k; i++) {
            tri *tr = &t[n++];
            const double *p[3];
            tr->face = (uint32_t)fi;
            for (int c = 0; c < 3; c++) {
                uint64_t vid = o->corners[f->corner_first + idx[3 * i + c]].vertex;
                ptrdiff_t vi = mdl_object_vertex_index(o, vid);
                tr->v[c] = (uint32_t)(vi < 0 ? 0 : vi);
                p[c] = o->vertices[tr->v[c]].p;
            }
            for (int a = 0; a < 3; a++) {
                tr->lo[a] = fmin(p[0][a], fmin(p[1][a], p[2][a]));
                tr->hi[a] = fmax(p[0][a], fmax(p[1][a], p[2][a]));
            }
            double c12[3];
            cross(p[1], p[2], c12);
            *volume += dot(p[0], c12) / 6.0;
        }
    }
    *out = t;
    *count = n;
    return 0;
}

static double object_size(const mdl_object *o)
{
    if (o->vertex_count == 0)
        return 0;
    double lo[3], hi[3];
    memcpy(lo, o->vertices[0].p, sizeof lo);
    memcpy(hi, o->vertices[0].p, sizeof hi);
    for (size_t v = 1; v < o->vertex_count; v++)
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], o->vertices[v].p[k]);
            hi[k] = fmax(hi[k], o->vertices[v].p[k]);
        }
    double d[3];
    sub(hi, lo, d);
    return norm(d);
}

static int find_intersections(const mdl_object *o, tri *t, size_t n, solid_result *s)
{
    double tol = CONTACT_RELATIVE * object_size(o);
    uint64_t candidates = 0;
    qsort(t, n, sizeof *t, cmp_tri_x);
    for (size_t i = 0; i < n && !s->over_budget; i++) {
        for (size_t j = i + 1; j < n && t[j].lo[0] <= t[i].hi[0]; j++) {
            if (++candidates > CANDIDATE_BUDGET) {
                s->over_budget = true;
                break;
            }
            if (t[j].lo[1] > t[i].hi[1] || t[i].lo[1] > t[j].hi[1] ||
                t[j].lo[2] > t[i].hi[2] || t[i].lo[2] > t[j].hi[2] ||
                t[i].face == t[j].face || share_vertex(&t[i], &t[j]))
                continue;
            if (s->pairs_tested == PAIR_TEST_BUDGET) {
                s->over_budget = true;
                break;
            }
            s->pairs_tested++;
            const double *A[3], *B[3];
            for (int c = 0; c < 3; c++) {
                A[c] = o->vertices[t[i].v[c]].p;
                B[c] = o->vertices[t[j].v[c]].p;
            }
            if (!triangles_cross(A, B, tol))
                continue;
            if (s->pair_count == RECORDED_PAIRS_MAX) {
                s->truncated = true;
                continue;
            }
            if (!anim_grow((void **)&s->pairs, &s->pair_cap, s->pair_count + 1,
                           sizeof *s->pairs))
                return -1;
            pair p = {t[i].face < t[j].face ? t[i].face : t[j].face,
                      t[i].face < t[j].face ? t[j].face : t[i].face};
            s->pairs[s->pair_count++] = p;
        }
    }
    /* Several triangle pairs of the same two faces report once. */
    if (s->pair_count) {
        qsort(s->pairs, s->pair_count, sizeof *s->pairs, cmp_pair);
        size_t k = 1;
        for (size_t i = 1; i < s->pair_count; i++)
            if (cmp_pair(&s->pairs[i], &s->pairs[k - 1]))
                s->pairs[k++] = s->pairs[i];
        s->pair_count = k;
    }
    return 0;
}

static int analyse(const mdl_object *o, const mdl_topo *topo, solid_result *s)
{
    for (size_t e = 0; e < topo->edge_count; e++) {
        const mdl_edge *ed = &topo->edges[e];
        if (ed->face_count == 1)
            s->boundary++;
        else if (ed->face_count > 2)
            s->nonmanifold++;
        else if (topo->uses[ed->first_use].forward == topo->uses[ed->first_use + 1].forward)
            s->inconsistent++;
    }
    s->closed = o->face_count > 0 && s->boundary == 0;
    s->manifold = s->nonmanifold == 0;
    s->oriented = s->manifold && s->inconsistent == 0;
    tri *t = NULL;
    if (triangulate(o, &t, &s->triangles, &s->volume))
        return -1;
    int rc = find_intersections(o, t, s->triangles, s);
    free(t);
    return rc;
}

typedef struct solid_ctx {
    const mdl_object *o;
    const mdl_topo *t;
    const mdl_issue_list *issues;
} solid_ctx;

static int solid_issue_row(void *ctx, uint64_t index, anim_json_writer *w, size_t cut)
{
    const solid_ctx *c = ctx;
    (void)cut;
    mdl_issue_write(w, c->o, c->t, &c->issues->items[index]);
    return 0;
}

static void write_solid(anim_json_writer *w, const solid_result *s)
{
    anim_json_writer_key(w, "solid");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "closed");
    anim_json_writer_bool(w, s->closed);
    anim_json_writer_key(w, "manifold");
    anim_json_writer_bool(w, s->manifold);
    anim_json_writer_key(w, "oriented");
    anim_json_writer_bool(w, s->oriented);
    /* Inside and outside mean something only for a closed, consistently
     * oriented surface. */
    anim_json_writer_key(w, "outward");
    if (s->closed && s->oriented)
        anim_json_writer_bool(w, s->volume > 0);
    else
        anim_json_writer_null(w);
    anim_json_writer_key(w, "signed_volume");
    anim_json_writer_f64(w, s->volume);
    anim_json_writer_key(w, "intersections");
    anim_json_writer_string(w, s->over_budget      ? "unchecked_over_budget"
                               : s->pair_count > 0 ? "found"
                                                   : "none");
    anim_json_writer_key_uint(w, "pairs_tested", s->pairs_tested);
    anim_json_writer_key_uint(w, "pair_budget", PAIR_TEST_BUDGET);
    anim_json_writer_key_uint(w, "triangles", s->triangles);
    anim_json_writer_key_uint(w, "boundary_edges", s->boundary);
    anim_json_writer_key_uint(w, "nonmanifold_edges", s->nonmanifold);
    anim_json_writer_key_uint(w, "inconsistent_edges", s->inconsistent);
    anim_json_writer_key_uint(w, "intersecting_face_pairs", s->pair_count);
    anim_json_writer_key(w, "intersections_truncated");
    anim_json_writer_bool(w, s->truncated);
    anim_json_writer_end_object(w);
}

int mdl_inspect_solid(mdl_inspect_req *r)
{
    const mdl_object *o = r->object;
    mdl_topo topo = {0};
    mdl_issue_list issues = {0};
    solid_result s;
    memset(&s, 0, sizeof s);
    int rc = -1;
    if (mdl_topo_build(o, &topo) || analyse(o, &topo, &s) ||
        mdl_mesh_check(r->doc, o, &topo, MDL_ISSUE_MASK_EDGES, &issues))
        goto nomem;
    if (s.closed && s.oriented && s.volume < 0) {
        mdl_issue is = {MDL_ISSUE_INWARD_ORIENTATION, 0, 0, s.volume, 0};
        if (mdl_issue_push(&issues, &is))
            goto nomem;
    }
    for (size_t i = 0; i < s.pair_count; i++) {
        mdl_issue is = {MDL_ISSUE_SELF_INTERSECTION, s.pairs[i].a, s.pairs[i].b, 0, 0};
        if (mdl_issue_push(&issues, &is))
            goto nomem;
    }
    write_solid(r->w, &s);
    solid_ctx c = {o, &topo, &issues};
    rc = mdl_inspect_page(r, issues.count, solid_issue_row, &c);
    goto done;
nomem:
    rc = mdl_inspect_nomem(r);
done:
    free(s.pairs);
    mdl_issue_list_free(&issues);
    mdl_topo_free(&topo);
    return rc;
}
