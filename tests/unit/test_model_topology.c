/* Derived topology, triangulation and the topology operations of the model
 * engine (src/model/mdl_topo.c, mdl_tri.c, mdl_op_extrude.c,
 * mdl_op_inset.c, mdl_op_subdivide.c, mdl_op_smooth.c, mdl_op_brush.c):
 * meshes are built directly with the document calls, operations are parsed
 * from JSON, validated and run on a context built here, and the results
 * are checked against hand-computed geometry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/json.h"
#include "animsmith/model.h"
#include "model/mdl_doc.h"
#include "model/mdl_ops.h"
#include "model/mdl_topo.h"
#include "model/mdl_tri.h"

#define EPS 1e-12

/* ---- fixture: a document, a context, and an operation runner */

typedef struct {
    mdl_doc *doc;
    anim_model_limits limits;
    mdl_result result;
    mdl_ctx ctx;
} fx;

static void fx_reset_result(fx *f)
{
    free(f->result.faces);
    free(f->result.vertices);
    for (uint32_t i = 0; i < f->result.note_count; i++)
        free(f->result.notes[i]);
    memset(&f->result, 0, sizeof f->result);
}

static void fx_init(fx *f)
{
    memset(f, 0, sizeof *f);
    f->doc = mdl_doc_new();
    assert_non_null(f->doc);
    anim_model_limits_default(&f->limits);
}

static void fx_free(fx *f)
{
    fx_reset_result(f);
    mdl_doc_free(f->doc);
}

/* Runs one operation; returns 0 or -1 (then ctx.refusal_kind says why). */
static int run(fx *f, const char *json)
{
    fx_reset_result(f);
    memset(&f->ctx, 0, sizeof f->ctx);
    f->ctx.doc = f->doc;
    f->ctx.limits = &f->limits;
    f->ctx.result = &f->result;
    f->ctx.work_budget = f->limits.max_work_units;
    anim_arena *arena = anim_arena_new();
    assert_non_null(arena);
    anim_error err;
    memset(&err, 0, sizeof err);
    const anim_json_value *op = anim_json_parse(arena, json, strlen(json), NULL, &err);
    assert_non_null(op);
    int rc = mdl_validate_op(&f->ctx, op);
    if (rc == 0) {
        const anim_json_value *name = anim_json_get(op, "op");
        const mdl_op_def *def = mdl_op_find(anim_json_string(name), anim_json_string_len(name));
        assert_non_null(def);
        rc = def->run(&f->ctx, op);
    }
    anim_arena_free(arena);
    return rc;
}

static void expect_refusal(fx *f, const char *json, const char *kind)
{
    assert_int_equal(run(f, json), -1);
    assert_non_null(f->ctx.refusal_kind);
    assert_string_equal(f->ctx.refusal_kind, kind);
    assert_true(strlen(f->ctx.refusal) > 0);
}

static mdl_object *obj(fx *f, const char *name)
{
    ptrdiff_t i = mdl_doc_find_object(f->doc, name);
    assert_true(i >= 0);
    return f->doc->objects[i];
}

/* A cube of half-size h, outward counter-clockwise quads; vertex i has
 * x = bit 0, y = bit 1, z = bit 2 (ids i + 1). */
static mdl_object *cube(fx *f, const char *name, double h)
{
    mdl_object *o = mdl_doc_add_object(f->doc, name);
    assert_non_null(o);
    for (int i = 0; i < 8; i++) {
        double p[3] = {(i & 1) ? h : -h, (i & 2) ? h : -h, (i & 4) ? h : -h};
        assert_true(mdl_object_add_vertex(o, p) != 0);
    }
    static const int q[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    for (int k = 0; k < 6; k++) {
        uint64_t v[4];
        for (int j = 0; j < 4; j++)
            v[j] = (uint64_t)q[k][j] + 1;
        assert_true(mdl_object_add_face(o, v, NULL, 4, 0, false) != 0);
    }
    return o;
}

/* One face over the given points (new vertices), uvs may be NULL. */
static mdl_object *polygon(fx *f, const char *name, const double (*p)[3], uint32_t n,
                           const double (*uv)[2])
{
    mdl_object *o = mdl_doc_add_object(f->doc, name);
    assert_non_null(o);
    uint64_t v[16];
    for (uint32_t i = 0; i < n; i++)
        v[i] = mdl_object_add_vertex(o, p[i]);
    assert_true(mdl_object_add_face(o, v, uv, n, 0, false) != 0);
    return o;
}

static void face_points(const mdl_object *o, const mdl_face *fc, double (*p)[3])
{
    for (uint32_t k = 0; k < fc->corner_count; k++)
        memcpy(p[k], mdl_object_position(o, o->corners[fc->corner_first + k].vertex),
               sizeof p[k]);
}

/* Area of a planar polygon by the Newell vector. */
static double face_area(const mdl_object *o, const mdl_face *fc)
{
    double s[3] = {0, 0, 0};
    double p[64][3];
    face_points(o, fc, p);
    uint32_t n = fc->corner_count;
    for (uint32_t i = 0; i < n; i++) {
        const double *a = p[i], *b = p[(i + 1) % n];
        s[0] += a[1] * b[2] - a[2] * b[1];
        s[1] += a[2] * b[0] - a[0] * b[2];
        s[2] += a[0] * b[1] - a[1] * b[0];
    }
    return 0.5 * sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
}

static bool near(double a, double b)
{
    return fabs(a - b) < 1e-9;
}

/* Every edge of two faces is used once in each direction. */
static void assert_consistent(const mdl_object *o, size_t *boundary)
{
    mdl_topo t;
    assert_int_equal(mdl_topo_build(o, &t), 0);
    *boundary = 0;
    for (size_t e = 0; e < t.edge_count; e++) {
        const mdl_edge *ed = &t.edges[e];
        if (ed->face_count == 1) {
            (*boundary)++;
            continue;
        }
        assert_int_equal(ed->face_count, 2);
        assert_true(t.uses[ed->first_use].forward != t.uses[ed->first_use + 1].forward);
    }
    mdl_topo_free(&t);
}

/* ---- topology */

static void test_topo_cube(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    mdl_object *o = cube(&f, "c", 1);
    mdl_topo t;
    assert_int_equal(mdl_topo_build(o, &t), 0);
    assert_int_equal(t.edge_count, 12);
    assert_int_equal(t.use_count, 24);
    for (size_t e = 0; e < t.edge_count; e++) {
        const mdl_edge *ed = &t.edges[e];
        assert_true(ed->a < ed->b);
        if (e > 0)
            assert_true(t.edges[e - 1].a < ed->a ||
                        (t.edges[e - 1].a == ed->a && t.edges[e - 1].b < ed->b));
        assert_int_equal(ed->face_count, 2);
        const mdl_edge_use *u0 = &t.uses[ed->first_use], *u1 = &t.uses[ed->first_use + 1];
        assert_true(u0->face < u1->face);
        assert_true(u0->forward != u1->forward);
        for (int k = 0; k < 2; k++) {
            const mdl_edge_use *u = k ? u1 : u0;
            const mdl_face *fc = &o->faces[u->face];
            uint32_t off = u->corner - fc->corner_first;
            assert_true(off < fc->corner_count);
            uint64_t va = o->corners[u->corner].vertex;
            uint64_t vb = o->corners[fc->corner_first + (off + 1) % fc->corner_count].vertex;
            assert_int_equal(va, u->forward ? ed->a : ed->b);
            assert_int_equal(vb, u->forward ? ed->b : ed->a);
        }
        assert_int_equal(mdl_topo_find(&t, ed->b, ed->a), (ptrdiff_t)e);
    }
    assert_int_equal(mdl_topo_find(&t, 1, 2), 0);
    assert_int_equal(mdl_topo_find(&t, 1, 8), -1); /* a diagonal */
    assert_int_equal(mdl_topo_find(&t, 1, 99), -1);
    mdl_topo_free(&t);
    fx_free(&f);
}

/* ---- triangulation */

static void check_tris(const mdl_object *o, const mdl_face *fc, const uint32_t *tri, int n,
                       double *area)
{
    double p[64][3], nrm[3];
    face_points(o, fc, p);
    mdl_face_normal(o, fc, nrm);
    *area = 0;
    for (int i = 0; i < n; i++) {
        const double *a = p[tri[3 * i]], *b = p[tri[3 * i + 1]], *c = p[tri[3 * i + 2]];
        double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        double x[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                       e1[0] * e2[1] - e1[1] * e2[0]};
        double s = x[0] * nrm[0] + x[1] * nrm[1] + x[2] * nrm[2];
        assert_true(s > 0); /* same winding as the face */
        *area += 0.5 * s;   /* area projected onto the face plane */
    }
}

static void test_tri_convex(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    const double p[5][3] = {{0, 0, 0}, {2, 0, 0}, {3, 1, 0}, {1, 2, 0}, {-1, 1, 0}};
    mdl_object *o = polygon(&f, "a", p, 5, NULL);
    const mdl_face *fc = &o->faces[0];
    assert_true(mdl_face_is_planar(o, fc));
    assert_true(mdl_face_is_convex(o, fc));
    uint32_t tri[9];
    bool np = true;
    assert_int_equal(mdl_face_triangulate(o, fc, tri, &np), 3);
    assert_false(np);
    const uint32_t fan[9] = {0, 1, 2, 0, 2, 3, 0, 3, 4};
    assert_memory_equal(tri, fan, sizeof fan);
    double area;
    check_tris(o, fc, tri, 3, &area);
    assert_true(near(area, face_area(o, fc)));
    fx_free(&f);
}

static void test_tri_concave(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    /* An L, counter-clockwise about +Z; corner 1 is reflex, and a fan
     * from corner 0 would start with a clockwise triangle over the notch. */
    const double p[6][3] = {{2, 1, 0}, {1, 1, 0}, {1, 2, 0}, {0, 2, 0}, {0, 0, 0}, {2, 0, 0}};
    mdl_object *o = polygon(&f, "l", p, 6, NULL);
    const mdl_face *fc = &o->faces[0];
    assert_true(mdl_face_is_planar(o, fc));
    assert_false(mdl_face_is_convex(o, fc));
    uint32_t tri[12];
    bool np = true;
    assert_int_equal(mdl_face_triangulate(o, fc, tri, &np), 4);
    assert_false(np);
    double area;
    check_tris(o, fc, tri, 4, &area);
    assert_true(near(area, 3.0));
    /* Deterministic: the same twice. */
    uint32_t again[12];
    assert_int_equal(mdl_face_triangulate(o, fc, again, &np), 4);
    assert_memory_equal(tri, again, sizeof tri);
    /* A pentagram turns one way at every corner but is not simple. */
    double star[5][3];
    for (int i = 0; i < 5; i++) {
        double a = 2 * 3.14159265358979323846 * (2 * i) / 5;
        star[i][0] = cos(a);
        star[i][1] = sin(a);
        star[i][2] = 0;
    }
    assert_false(mdl_poly_is_convex(&star[0][0], 5));
    fx_free(&f);
}

static void test_tri_nonplanar(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    const double p[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0.3}, {0, 1, 0}};
    mdl_object *o = polygon(&f, "n", p, 4, NULL);
    const mdl_face *fc = &o->faces[0];
    double np_value = mdl_face_nonplanarity(o, fc);
    /* Newell normal (-0.15, -0.15, 1)/|.|, centroid z 0.075: the corners
     * lie 0.075/|n| from the plane; the diameter is the diagonal. */
    double len = sqrt(0.15 * 0.15 * 2 + 1);
    double far = 0;
    for (int i = 0; i < 4; i++) {
        double d = fabs((p[i][0] - 0.5) * -0.15 + (p[i][1] - 0.5) * -0.15 + (p[i][2] - 0.075)) /
                   len;
        far = fmax(far, d);
    }
    assert_true(near(np_value, far / sqrt(2 + 0.09)));
    assert_false(mdl_face_is_planar(o, fc));
    uint32_t tri[6];
    bool np = false;
    assert_int_equal(mdl_face_triangulate(o, fc, tri, &np), 2);
    assert_true(np);
    double area;
    check_tris(o, fc, tri, 2, &area);
    for (int i = 0; i < 6; i++)
        assert_true(tri[i] < 4);
    /* A triangle is always planar. */
    assert_true(mdl_poly_nonplanarity(&p[0][0], 3) == 0);
    fx_free(&f);
}

/* ---- extrude */

static mdl_object *plane_quad(fx *f, const char *name)
{
    /* Counter-clockwise seen from +Y. */
    const double p[4][3] = {{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 0, 0}};
    const double uv[4][2] = {{0, 0}, {0, 1}, {1, 1}, {1, 0}};
    return polygon(f, name, p, 4, uv);
}

static void test_extrude(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    mdl_object *o = plane_quad(&f, "p");
    const uint32_t joint = 3;
    const double wv = 0.75;
    assert_int_equal(mdl_object_set_vertex_weights(o, 2, &joint, &wv, 1), 0);
    assert_int_equal(mdl_object_set_edge_attr(o, 2, 3, true, 0), 0);
    uint64_t corner_ids[4];
    for (int k = 0; k < 4; k++)
        corner_ids[k] = o->corners[k].id;

    assert_int_equal(run(&f, "{\"op\":\"extrude\",\"object\":\"p\",\"face\":\"1\","
                             "\"offset\":[0,2,0]}"),
                     0);
    o = obj(&f, "p");
    assert_int_equal(o->face_count, 5);
    assert_int_equal(o->vertex_count, 8);
    assert_int_equal(f.result.face_count, 5);
    assert_int_equal(f.result.vertex_count, 4);
    size_t boundary;
    assert_consistent(o, &boundary);
    assert_int_equal(boundary, 4); /* open only at the bottom */
    /* The face kept its id, corner ids and UVs, now on the new ring. */
    const mdl_face *top = &o->faces[mdl_object_face_index(o, 1)];
    for (int k = 0; k < 4; k++) {
        const mdl_corner *c = &o->corners[top->corner_first + k];
        assert_int_equal(c->id, corner_ids[k]);
        assert_int_equal(c->vertex, 5 + (uint64_t)k);
        assert_true(near(mdl_object_position(o, c->vertex)[1], 2));
    }
    assert_true(near(o->corners[top->corner_first + 2].uv[0], 1));
    /* Side walls face outward. */
    for (size_t i = 1; i < o->face_count; i++) {
        double n[3], c[3];
        mdl_face_normal(o, &o->faces[i], n);
        mdl_face_centroid(o, &o->faces[i], c);
        assert_true(n[0] * (c[0] - 0.5) + n[2] * (c[2] - 0.5) > 0.99 * 0.5);
        /* u from the edge's corners, v 0 at the old ring and 1 at the new. */
        const mdl_face *s = &o->faces[i];
        for (int k = 0; k < 4; k++) {
            const mdl_corner *cc = &o->corners[s->corner_first + k];
            double y = mdl_object_position(o, cc->vertex)[1];
            assert_true(near(cc->uv[1], y / 2));
        }
    }
    /* Weights copied to the new vertex over vertex 2, the seam carried. */
    size_t first;
    assert_int_equal(mdl_object_vertex_weights(o, 6, &first), 1);
    assert_int_equal(o->weights[first].joint, 3);
    assert_true(o->weights[first].weight == 0.75);
    const mdl_edge_attr *ea = mdl_object_edge_attr(o, 6, 7);
    assert_non_null(ea);
    assert_true(ea->seam);
    assert_non_null(mdl_object_edge_attr(o, 2, 3));

    expect_refusal(&f, "{\"op\":\"extrude\",\"object\":\"p\",\"face\":\"1\",\"offset\":[0,0,0]}",
                   "out_of_range");
    expect_refusal(&f, "{\"op\":\"extrude\",\"object\":\"p\",\"face\":\"77\",\"offset\":[0,1,0]}",
                   "unknown_face");
    expect_refusal(&f, "{\"op\":\"extrude\",\"object\":\"q\",\"face\":\"1\",\"offset\":[0,1,0]}",
                   "unknown_object");
    fx_free(&f);
}

/* ---- inset */

static void test_inset(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    const double p[4][3] = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0}};
    const double uv[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    polygon(&f, "sq", p, 4, uv);
    expect_refusal(&f, "{\"op\":\"inset\",\"object\":\"sq\",\"face\":\"1\",\"distance\":1}",
                   "inset_too_large");
    expect_refusal(&f, "{\"op\":\"inset\",\"object\":\"sq\",\"face\":\"1\",\"distance\":0}",
                   "out_of_range");
    assert_int_equal(run(&f, "{\"op\":\"inset\",\"object\":\"sq\",\"face\":\"1\","
                             "\"distance\":0.5}"),
                     0);
    mdl_object *o = obj(&f, "sq");
    assert_int_equal(o->face_count, 5);
    assert_int_equal(o->vertex_count, 8);
    assert_int_equal(f.result.face_count, 5);
    assert_int_equal(f.result.vertex_count, 4);
    const mdl_face *fc = &o->faces[0];
    assert_int_equal(fc->id, 1);
    assert_true(near(face_area(o, fc), 1.0));
    const mdl_corner *c0 = &o->corners[fc->corner_first];
    const double *q0 = mdl_object_position(o, c0->vertex);
    assert_true(near(q0[0], 0.5) && near(q0[1], 0.5) && near(q0[2], 0));
    /* UVs by the face's own affine map: (0.5, 0.5) -> (0.25, 0.75). */
    assert_true(near(c0->uv[0], 0.25) && near(c0->uv[1], 0.75));
    double total = 0;
    for (size_t i = 0; i < o->face_count; i++)
        total += face_area(o, &o->faces[i]);
    assert_true(near(total, 4.0));
    size_t boundary;
    assert_consistent(o, &boundary);
    assert_int_equal(boundary, 4);
    for (size_t i = 0; i < o->face_count; i++) {
        double n[3];
        mdl_face_normal(o, &o->faces[i], n);
        assert_true(n[2] > 0.999);
    }

    const double np[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0.3}, {0, 1, 0}};
    polygon(&f, "np", np, 4, NULL);
    expect_refusal(&f, "{\"op\":\"inset\",\"object\":\"np\",\"face\":\"1\",\"distance\":0.1}",
                   "nonplanar_face");
    const double l[6][3] = {{0, 0, 0}, {2, 0, 0}, {2, 1, 0}, {1, 1, 0}, {1, 2, 0}, {0, 2, 0}};
    polygon(&f, "l", l, 6, NULL);
    expect_refusal(&f, "{\"op\":\"inset\",\"object\":\"l\",\"face\":\"1\",\"distance\":0.1}",
                   "nonconvex_face");
    /* A wide, low trapezoid (height 1): 0.45 still fits, 0.6 would turn
     * the outline inside out. */
    const double tz[4][3] = {{0, 0, 0}, {10, 0, 0}, {5.5, 1, 0}, {4.5, 1, 0}};
    polygon(&f, "tz", tz, 4, NULL);
    expect_refusal(&f, "{\"op\":\"inset\",\"object\":\"tz\",\"face\":\"1\",\"distance\":0.6}",
                   "inset_too_large");
    assert_int_equal(run(&f, "{\"op\":\"inset\",\"object\":\"tz\",\"face\":\"1\","
                             "\"distance\":0.45}"),
                     0);
    fx_free(&f);
}

/* ---- subdivide */

static bool has_vertex_at(const mdl_object *o, double x, double y, double z)
{
    for (size_t i = 0; i < o->vertex_count; i++) {
        const double *p = o->vertices[i].p;
        if (near(p[0], x) && near(p[1], y) && near(p[2], z))
            return true;
    }
    return false;
}

static void test_subdivide_cube(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    cube(&f, "c", 1);
    assert_int_equal(run(&f, "{\"op\":\"subdivide\",\"object\":\"c\",\"levels\":1}"), 0);
    mdl_object *o = obj(&f, "c");
    assert_int_equal(o->face_count, 24);
    assert_int_equal(o->vertex_count, 26);
    assert_int_equal(o->corner_count, 96);
    assert_int_equal(f.result.face_count, 24);
    assert_int_equal(f.result.vertex_count, 26);
    /* Original vertices keep their ids and move to (5/9, 5/9, 5/9)-type
     * vertex points; face points stay at the face centres; edge points
     * at (3/4, 3/4, 0)-type positions. */
    const double *v8 = mdl_object_position(o, 8);
    assert_true(near(v8[0], 5.0 / 9) && near(v8[1], 5.0 / 9) && near(v8[2], 5.0 / 9));
    const double *v1 = mdl_object_position(o, 1);
    assert_true(near(v1[0], -5.0 / 9) && near(v1[1], -5.0 / 9) && near(v1[2], -5.0 / 9));
    assert_true(has_vertex_at(o, 1, 0, 0));
    assert_true(has_vertex_at(o, 0, 0, -1));
    assert_true(has_vertex_at(o, 0.75, 0.75, 0));
    assert_true(has_vertex_at(o, -0.75, 0, 0.75));
    /* New faces have new ids; orientation stays outward and consistent. */
    assert_true(o->faces[0].id > 6);
    size_t boundary;
    assert_consistent(o, &boundary);
    assert_int_equal(boundary, 0);
    for (size_t i = 0; i < o->face_count; i++) {
        double n[3], c[3];
        mdl_face_normal(o, &o->faces[i], n);
        mdl_face_centroid(o, &o->faces[i], c);
        assert_true(n[0] * c[0] + n[1] * c[1] + n[2] * c[2] > 0);
    }
    /* Level 2 on a fresh cube: 96 faces, 98 vertices. */
    cube(&f, "d", 1);
    assert_int_equal(run(&f, "{\"op\":\"subdivide\",\"object\":\"d\",\"levels\":2}"), 0);
    o = obj(&f, "d");
    assert_int_equal(o->face_count, 96);
    assert_int_equal(o->vertex_count, 98);
    assert_consistent(o, &boundary);
    assert_int_equal(boundary, 0);
    expect_refusal(&f, "{\"op\":\"subdivide\",\"object\":\"d\",\"levels\":4}", "out_of_range");
    fx_free(&f);
}

static void test_subdivide_refusals(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    mdl_object *o = cube(&f, "c", 1);
    assert_int_equal(mdl_object_set_edge_attr(o, 1, 2, false, 0.5), 0);
    expect_refusal(&f, "{\"op\":\"subdivide\",\"object\":\"c\",\"levels\":1}", "creased_edges");
    o = cube(&f, "e", 1);
    assert_int_equal(mdl_object_set_edge_attr(o, 1, 8, true, 0), 0);
    expect_refusal(&f, "{\"op\":\"subdivide\",\"object\":\"e\",\"levels\":1}", "loose_edges");
    cube(&f, "m", 1);
    f.limits.max_memory_bytes = 4096;
    expect_refusal(&f, "{\"op\":\"subdivide\",\"object\":\"m\",\"levels\":3}", "limit_exceeded");
    assert_non_null(strstr(f.ctx.refusal, "max_memory_bytes"));
    anim_model_limits_default(&f.limits);
    f.limits.max_work_units = 500;
    expect_refusal(&f, "{\"op\":\"subdivide\",\"object\":\"m\",\"levels\":3}",
                   "work_limit_exceeded");
    /* Nothing was changed by the refusals. */
    assert_int_equal(obj(&f, "m")->face_count, 6);
    fx_free(&f);
}

static void test_subdivide_attributes(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    const double p[4][3] = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0}};
    const double uv[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    mdl_object *o = polygon(&f, "q", p, 4, uv);
    o->faces[0].material = 7;
    o->faces[0].smooth = true;
    o->corners[0].has_normal = true;
    o->corners[0].normal[2] = 1;
    assert_int_equal(mdl_object_set_edge_attr(o, 1, 2, true, 0), 0);
    const uint32_t joint = 2;
    const double one = 1;
    assert_int_equal(mdl_object_set_vertex_weights(o, 1, &joint, &one, 1), 0);
    assert_int_equal(run(&f, "{\"op\":\"subdivide\",\"object\":\"q\",\"levels\":1}"), 0);
    o = obj(&f, "q");
    assert_int_equal(o->face_count, 4);
    assert_int_equal(o->vertex_count, 9);
    assert_int_equal(f.result.note_count, 1);
    /* Boundary corners: (prev + 6 v + next) / 8. */
    const double *v1 = mdl_object_position(o, 1);
    assert_true(near(v1[0], 0.25) && near(v1[1], 0.25));
    /* Face point 5 at the centre; edge points midpoints (ids 6.. in edge
     * order: (1,2) (1,4) (2,3) (3,4)). */
    assert_true(has_vertex_at(o, 1, 1, 0));
    const double *e12 = mdl_object_position(o, 6);
    assert_true(near(e12[0], 1) && near(e12[1], 0));
    for (size_t i = 0; i < o->face_count; i++) {
        const mdl_face *fc = &o->faces[i];
        assert_int_equal(fc->material, 7);
        assert_true(fc->smooth);
        for (uint32_t k = 0; k < 4; k++) {
            const mdl_corner *c = &o->corners[fc->corner_first + k];
            assert_false(c->has_normal);
            const double *q = mdl_object_position(o, c->vertex);
            /* This face's UVs are affine in position (before smoothing the
             * boundary), so each child corner's UV is the map of where
             * the corner came from: vertex points keep their corner UV,
             * midpoints and the centre interpolate. */
            if (c->vertex == 5) {
                assert_true(near(c->uv[0], 0.5) && near(c->uv[1], 0.5));
            } else if (c->vertex > 5) {
                assert_true(near(c->uv[0], q[0] / 2) && near(c->uv[1], 1 - q[1] / 2));
            }
        }
    }
    /* The seam on (1, 2) is on both halves. */
    assert_non_null(mdl_object_edge_attr(o, 1, 6));
    assert_non_null(mdl_object_edge_attr(o, 2, 6));
    assert_true(mdl_object_edge_attr(o, 1, 6)->seam);
    assert_int_equal(o->edge_count, 2);
    /* Weights: the edge point on (1,2) gets half, the face point a
     * quarter, vertex 1 itself 6/8. */
    size_t first;
    assert_int_equal(mdl_object_vertex_weights(o, 6, &first), 1);
    assert_true(near(o->weights[first].weight, 0.5));
    assert_int_equal(o->weights[first].joint, 2);
    assert_int_equal(mdl_object_vertex_weights(o, 5, &first), 1);
    assert_true(near(o->weights[first].weight, 0.25));
    assert_int_equal(mdl_object_vertex_weights(o, 1, &first), 1);
    assert_true(near(o->weights[first].weight, 0.75));
    assert_int_equal(mdl_object_vertex_weights(o, 3, &first), 0);
    fx_free(&f);
}

/* ---- smooth and brush */

/* A 3x3 vertex grid in XZ (4 quads facing +Y); vertex ids 1..9 row by
 * row, the centre (id 5) raised to y = 1. */
static mdl_object *grid(fx *f, const char *name)
{
    mdl_object *o = mdl_doc_add_object(f->doc, name);
    assert_non_null(o);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            double p[3] = {c, (r == 1 && c == 1) ? 1 : 0, r};
            assert_true(mdl_object_add_vertex(o, p) != 0);
        }
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 2; c++) {
            uint64_t a = (uint64_t)(r * 3 + c + 1);
            uint64_t v[4] = {a, a + 3, a + 4, a + 1};
            assert_true(mdl_object_add_face(o, v, NULL, 4, 0, false) != 0);
        }
    return o;
}

static void test_smooth(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    grid(&f, "g");
    assert_int_equal(run(&f, "{\"op\":\"smooth\",\"object\":\"g\",\"vertices\":[\"5\",\"2\"],"
                             "\"iterations\":1,\"factor\":0.5,\"preserve_boundary\":true}"),
                     0);
    mdl_object *o = obj(&f, "g");
    assert_true(near(mdl_object_position(o, 5)[1], 0.5));
    assert_true(near(mdl_object_position(o, 2)[1], 0)); /* boundary: kept */
    assert_int_equal(f.result.vertex_count, 1);
    /* Jacobi: both move from the previous positions. Vertex 2 (x 1, z 0)
     * has neighbours 1, 3 and 5 (y 0.5): y -> 0.5/3 * 1; vertex 5 has 4
     * neighbours at y 0 (2 still at 0 in the previous iteration). */
    assert_int_equal(run(&f, "{\"op\":\"smooth\",\"object\":\"g\",\"vertices\":[\"2\",\"5\"],"
                             "\"iterations\":1,\"factor\":1,\"preserve_boundary\":false}"),
                     0);
    o = obj(&f, "g");
    assert_true(near(mdl_object_position(o, 5)[1], 0));
    assert_true(near(mdl_object_position(o, 2)[1], 0.5 / 3));
    assert_true(near(mdl_object_position(o, 2)[0], 1));
    assert_true(near(mdl_object_position(o, 2)[2], 1.0 / 3));
    expect_refusal(&f, "{\"op\":\"smooth\",\"object\":\"g\",\"vertices\":[\"99\"],"
                       "\"iterations\":1,\"factor\":1,\"preserve_boundary\":false}",
                   "unknown_vertex");
    expect_refusal(&f, "{\"op\":\"smooth\",\"object\":\"g\",\"vertices\":[\"1\"],"
                       "\"iterations\":65,\"factor\":1,\"preserve_boundary\":false}",
                   "out_of_range");
    fx_free(&f);
}

static void test_brush(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    grid(&f, "g");
    /* Centre (1, 1, 1) on the raised vertex 5, radius 2. */
    assert_int_equal(run(&f, "{\"op\":\"brush\",\"object\":\"g\",\"vertices\":[\"1\",\"2\","
                             "\"5\"],\"center\":[1,1,1],\"radius\":2,\"delta\":[0,1,0],"
                             "\"max_displacement\":10}"),
                     0);
    mdl_object *o = obj(&f, "g");
    /* Vertex 5 at the centre: w 1. Vertex 2 at d sqrt(2): w (1 - 0.5)^2
     * = 0.25. Vertex 1 at d sqrt(3): w (1 - 0.75)^2 = 0.0625. */
    assert_true(near(mdl_object_position(o, 5)[1], 2));
    assert_true(near(mdl_object_position(o, 2)[1], 0.25));
    assert_true(near(mdl_object_position(o, 1)[1], 0.0625));
    assert_true(near(mdl_object_position(o, 3)[1], 0)); /* not listed */
    assert_int_equal(f.result.vertex_count, 3);
    /* Clamped to max_displacement; vertices outside the radius stay. */
    assert_int_equal(run(&f, "{\"op\":\"brush\",\"object\":\"g\",\"vertices\":[\"5\",\"9\"],"
                             "\"center\":[1,2,1],\"radius\":1,\"delta\":[3,0,4],"
                             "\"max_displacement\":0.5}"),
                     0);
    o = obj(&f, "g");
    const double *p5 = mdl_object_position(o, 5);
    assert_true(near(p5[0], 1.3) && near(p5[2], 1.4));
    assert_true(near(mdl_object_position(o, 9)[0], 2));
    assert_int_equal(f.result.vertex_count, 1);
    expect_refusal(&f, "{\"op\":\"brush\",\"object\":\"g\",\"vertices\":[\"5\"],"
                       "\"center\":[0,0,0],\"radius\":0,\"delta\":[0,1,0],"
                       "\"max_displacement\":1}",
                   "out_of_range");
    fx_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_topo_cube),          cmocka_unit_test(test_tri_convex),
        cmocka_unit_test(test_tri_concave),        cmocka_unit_test(test_tri_nonplanar),
        cmocka_unit_test(test_extrude),            cmocka_unit_test(test_inset),
        cmocka_unit_test(test_subdivide_cube),     cmocka_unit_test(test_subdivide_refusals),
        cmocka_unit_test(test_subdivide_attributes), cmocka_unit_test(test_smooth),
        cmocka_unit_test(test_brush),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
