/* Mesh operations (primitives, polygon_mesh, transform, mirror, weld,
 * deletes, corner edits, edge attributes, materials, UV projection), run
 * one at a time on a context built here: the operation JSON goes through
 * the generic validation and then the operation's run function, exactly as
 * the batch driver calls them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/json.h"
#include "animsmith/math.h"
#include "animsmith/model.h"
#include "model/mdl_doc.h"
#include "model/mdl_ops.h"
#include "support/model_op_fixture.h"

static mdl_object *obj(fx *f, const char *name)
{
    ptrdiff_t i = mdl_doc_find_object(f->doc, name);
    assert_true(i >= 0);
    return f->doc->objects[i];
}

static const mdl_corner *corner_of(const mdl_object *o, size_t fi, uint32_t k)
{
    return &o->corners[o->faces[fi].corner_first + k];
}

static const double *pos(const mdl_object *o, uint64_t vid)
{
    ptrdiff_t i = mdl_object_vertex_index(o, vid);
    assert_true(i >= 0);
    return o->vertices[i].p;
}

/* ---- geometry checks */

typedef struct dedge {
    uint64_t a, b;
} dedge;

static int cmp_dedge(const void *x, const void *y)
{
    const dedge *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    return 0;
}

/* Every edge is used by exactly two faces in opposite directions. */
static void assert_closed(const mdl_object *o)
{
    dedge *e = malloc(o->corner_count * sizeof *e);
    assert_non_null(e);
    size_t n = 0;
    for (size_t fi = 0; fi < o->face_count; fi++) {
        const mdl_face *f = &o->faces[fi];
        for (uint32_t k = 0; k < f->corner_count; k++) {
            e[n].a = corner_of(o, fi, k)->vertex;
            e[n].b = corner_of(o, fi, (k + 1) % f->corner_count)->vertex;
            assert_true(e[n].a != e[n].b);
            n++;
        }
    }
    qsort(e, n, sizeof *e, cmp_dedge);
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && cmp_dedge(&e[i - 1], &e[i]) == 0) {
            print_error("edge %llu->%llu used twice in one direction\n",
                        (unsigned long long)e[i].a, (unsigned long long)e[i].b);
            fail();
        }
        dedge rev = {e[i].b, e[i].a};
        if (!bsearch(&rev, e, n, sizeof *e, cmp_dedge)) {
            print_error("edge %llu->%llu has no opposite\n", (unsigned long long)e[i].a,
                        (unsigned long long)e[i].b);
            fail();
        }
    }
    free(e);
}

static double signed_volume(const mdl_object *o)
{
    double v = 0;
    for (size_t fi = 0; fi < o->face_count; fi++) {
        const double *p0 = pos(o, corner_of(o, fi, 0)->vertex);
        for (uint32_t k = 1; k + 1 < o->faces[fi].corner_count; k++) {
            const double *p1 = pos(o, corner_of(o, fi, k)->vertex);
            const double *p2 = pos(o, corner_of(o, fi, k + 1)->vertex);
            v += (p0[0] * (p1[1] * p2[2] - p1[2] * p2[1]) - p0[1] * (p1[0] * p2[2] - p1[2] * p2[0]) +
                  p0[2] * (p1[0] * p2[1] - p1[1] * p2[0])) /
                 6.0;
        }
    }
    return v;
}

/* Seen from outside, the face's texture is upright and unmirrored: the
 * direction of increasing u crossed with that of decreasing v is the face
 * normal (checked on the corners with UV (0,0), (1,0) and (0,1)). */
static void assert_unmirrored_quad(const mdl_object *o, size_t fi)
{
    const double *p00 = NULL, *p10 = NULL, *p01 = NULL;
    for (uint32_t k = 0; k < 4; k++) {
        const mdl_corner *c = corner_of(o, fi, k);
        const double *p = pos(o, c->vertex);
        if (c->uv[0] == 0 && c->uv[1] == 0)
            p00 = p;
        else if (c->uv[0] == 1 && c->uv[1] == 0)
            p10 = p;
        else if (c->uv[0] == 0 && c->uv[1] == 1)
            p01 = p;
        else
            assert_true(c->uv[0] == 1 && c->uv[1] == 1);
    }
    assert_non_null(p00);
    assert_non_null(p10);
    assert_non_null(p01);
    double r[3], up[3], n[3], c[3];
    for (int a = 0; a < 3; a++) {
        r[a] = p10[a] - p00[a];
        up[a] = p00[a] - p01[a];
    }
    c[0] = r[1] * up[2] - r[2] * up[1];
    c[1] = r[2] * up[0] - r[0] * up[2];
    c[2] = r[0] * up[1] - r[1] * up[0];
    mdl_face_normal(o, &o->faces[fi], n);
    assert_true(c[0] * n[0] + c[1] * n[1] + c[2] * n[2] > 0);
}

/* Every face's UV polygon winds clockwise in (u, v), i.e. counter-
 * clockwise in (u, -v) like the face itself: the texture is not mirrored
 * seen from outside (v grows downward). */
static void assert_uv_unmirrored(const mdl_object *o)
{
    for (size_t fi = 0; fi < o->face_count; fi++) {
        double area = 0;
        uint32_t n = o->faces[fi].corner_count;
        for (uint32_t k = 0; k < n; k++) {
            const double *a = corner_of(o, fi, k)->uv, *b = corner_of(o, fi, (k + 1) % n)->uv;
            area += a[0] * b[1] - b[0] * a[1];
        }
        if (!(area < 0)) {
            print_error("face %zu: UV area %g\n", fi, area);
            fail();
        }
    }
}

static bool selected_face(const fx *f, uint64_t id)
{
    for (size_t i = 0; i < f->res.face_count; i++)
        if (f->res.faces[i] == id)
            return true;
    return false;
}

static bool selected_vertex(const fx *f, uint64_t id)
{
    for (size_t i = 0; i < f->res.vertex_count; i++)
        if (f->res.vertices[i] == id)
            return true;
    return false;
}

/* ---- primitives */

static void test_cube(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"cube\",\"object\":\"box\",\"size\":[2,4,6]}");
    mdl_object *o = obj(f, "box");
    assert_string_equal(f->res.object, "box");
    assert_int_equal(o->vertex_count, 8);
    assert_int_equal(o->face_count, 6);
    assert_int_equal(o->corner_count, 24);
    assert_int_equal(f->res.face_count, 6);
    assert_int_equal(f->res.vertex_count, 8);
    for (uint64_t id = 1; id <= 8; id++)
        assert_true(selected_vertex(f, id));
    for (uint64_t id = 1; id <= 6; id++)
        assert_true(selected_face(f, id));
    for (size_t i = 0; i < 8; i++) {
        fx_near(fabs(o->vertices[i].p[0]), 1, 0);
        fx_near(fabs(o->vertices[i].p[1]), 2, 0);
        fx_near(fabs(o->vertices[i].p[2]), 3, 0);
    }
    assert_closed(o);
    fx_near(signed_volume(o), 48, 1e-12);
    assert_uv_unmirrored(o);
    for (size_t fi = 0; fi < 6; fi++) {
        assert_false(o->faces[fi].smooth);
        assert_int_equal(o->faces[fi].material, 0);
        for (uint32_t k = 0; k < 4; k++)
            assert_false(corner_of(o, fi, k)->has_normal);
        assert_unmirrored_quad(o, fi);
    }
    /* Appending continues the ids. */
    fx_ok(f, "{\"op\":\"cube\",\"object\":\"box\",\"size\":[1,1,1]}");
    o = obj(f, "box");
    assert_int_equal(o->vertex_count, 16);
    assert_int_equal(o->face_count, 12);
    assert_true(selected_vertex(f, 9) && selected_vertex(f, 16) && !selected_vertex(f, 8));
    assert_true(selected_face(f, 7) && selected_face(f, 12) && !selected_face(f, 6));

    fx_refused(f, "{\"op\":\"cube\",\"object\":\"box\",\"size\":[1,0,1]}", "out_of_range", NULL);
    fx_refused(f, "{\"op\":\"cube\",\"object\":\"box\",\"size\":[1,-1,1]}", "out_of_range", NULL);
    fx_refused(f, "{\"op\":\"cube\",\"object\":\"box\"}", "missing_field", NULL);
    fx_refused(f, "{\"op\":\"cube\",\"object\":\"box\",\"size\":[1,1]}", "wrong_type", NULL);
}

static void test_plane(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"plane\",\"object\":\"floor\",\"size\":[4,2]}");
    mdl_object *o = obj(f, "floor");
    assert_int_equal(o->vertex_count, 4);
    assert_int_equal(o->face_count, 1);
    double n[3];
    mdl_face_normal(o, &o->faces[0], n);
    fx_near(n[0], 0, 1e-15);
    fx_near(n[1], 1, 1e-15);
    fx_near(n[2], 0, 1e-15);
    for (size_t i = 0; i < 4; i++) {
        assert_true(o->vertices[i].p[1] == 0);
        fx_near(fabs(o->vertices[i].p[0]), 2, 0);
        fx_near(fabs(o->vertices[i].p[2]), 1, 0);
    }
    assert_unmirrored_quad(o, 0);
    assert_int_equal(f->res.face_count, 1);
    assert_int_equal(f->res.vertex_count, 4);
    fx_refused(f, "{\"op\":\"plane\",\"object\":\"floor\",\"size\":[0,2]}", "out_of_range", NULL);
}

static void test_sphere(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"sphere\",\"object\":\"ball\",\"radius\":2,\"segments\":8,\"rings\":4}");
    mdl_object *o = obj(f, "ball");
    assert_int_equal(o->vertex_count, 2 + 8 * 3);
    assert_int_equal(o->face_count, 8 * 4);
    assert_int_equal(o->corner_count, 8 * 3 * 2 + 8 * 2 * 4);
    assert_int_equal(f->res.face_count, 32);
    assert_int_equal(f->res.vertex_count, 26);
    assert_closed(o);
    double v = signed_volume(o);
    assert_true(v > 0 && v < 4.0 / 3.0 * ANIM_PI * 8);
    for (size_t i = 0; i < o->vertex_count; i++) {
        const double *p = o->vertices[i].p;
        fx_near(sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]), 2, 1e-12);
    }
    /* Smooth faces, explicit radial unit normals. */
    for (size_t fi = 0; fi < o->face_count; fi++) {
        assert_true(o->faces[fi].smooth);
        for (uint32_t k = 0; k < o->faces[fi].corner_count; k++) {
            const mdl_corner *c = corner_of(o, fi, k);
            const double *p = pos(o, c->vertex);
            assert_true(c->has_normal);
            for (int a = 0; a < 3; a++)
                fx_near(c->normal[a], p[a] / 2, 1e-12);
            fx_near(sqrt(c->normal[0] * c->normal[0] + c->normal[1] * c->normal[1] +
                      c->normal[2] * c->normal[2]),
                 1, 1e-12);
            assert_true(c->uv[0] >= 0 && c->uv[0] <= 1 && c->uv[1] >= 0 && c->uv[1] <= 1);
        }
    }
    /* The seam: 4 meridian edges marked; the u = 0 vertices carry u = 0 on
     * one side and u = 1 on the other. */
    assert_int_equal(o->edge_count, 4);
    size_t u0 = 0, u1 = 0;
    for (size_t e = 0; e < o->edge_count; e++) {
        assert_true(o->edges[e].seam);
        const double *pa = pos(o, o->edges[e].a), *pb = pos(o, o->edges[e].b);
        fx_near(pa[0], 0, 1e-12);
        fx_near(pb[0], 0, 1e-12);
        assert_true(pa[2] >= 0 && pb[2] >= 0);
    }
    for (size_t ci = 0; ci < o->corner_count; ci++) {
        const double *p = pos(o, o->corners[ci].vertex);
        if (fabs(p[1]) < 1.99 && fabs(p[0]) < 1e-12 && p[2] > 0) {
            u0 += o->corners[ci].uv[0] == 0;
            u1 += o->corners[ci].uv[0] == 1;
        }
    }
    assert_uv_unmirrored(o);
    assert_int_equal(u0, 3 * 2);
    assert_int_equal(u1, 3 * 2);

    fx_ok(f, "{\"op\":\"sphere\",\"object\":\"flat\",\"radius\":1,\"segments\":3,\"rings\":2,"
          "\"smooth\":false}");
    o = obj(f, "flat");
    assert_int_equal(o->vertex_count, 5);
    assert_int_equal(o->face_count, 6);
    assert_closed(o);
    assert_true(signed_volume(o) > 0);
    for (size_t ci = 0; ci < o->corner_count; ci++)
        assert_false(o->corners[ci].has_normal);
    for (size_t fi = 0; fi < o->face_count; fi++)
        assert_false(o->faces[fi].smooth);

    fx_ok(f, "{\"op\":\"sphere\",\"object\":\"big\",\"radius\":1,\"segments\":128,\"rings\":128}");
    assert_closed(obj(f, "big"));

    fx_refused(f, "{\"op\":\"sphere\",\"object\":\"b\",\"radius\":1,\"segments\":2,\"rings\":4}",
            "out_of_range", NULL);
    fx_refused(f, "{\"op\":\"sphere\",\"object\":\"b\",\"radius\":1,\"segments\":129,\"rings\":4}",
            "out_of_range", NULL);
    fx_refused(f, "{\"op\":\"sphere\",\"object\":\"b\",\"radius\":1,\"segments\":8,\"rings\":1}",
            "out_of_range", NULL);
    fx_refused(f, "{\"op\":\"sphere\",\"object\":\"b\",\"radius\":0,\"segments\":8,\"rings\":4}",
            "out_of_range", NULL);
    fx_refused(f, "{\"op\":\"sphere\",\"object\":\"b\",\"radius\":1,\"segments\":8.5,\"rings\":4}",
            "wrong_type", NULL);
}

static void test_cylinder(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"cylinder\",\"object\":\"can\",\"radius\":1,\"height\":3,\"segments\":6}");
    mdl_object *o = obj(f, "can");
    assert_int_equal(o->vertex_count, 12);
    assert_int_equal(o->face_count, 8);
    assert_int_equal(o->corner_count, 6 * 4 + 2 * 6);
    assert_closed(o);
    fx_near(signed_volume(o), 1.5 * sqrt(3.0) * 3, 1e-12);
    size_t caps = 0;
    for (size_t fi = 0; fi < o->face_count; fi++) {
        const mdl_face *fc = &o->faces[fi];
        if (fc->corner_count == 6) {
            caps++;
            assert_false(fc->smooth);
            double n[3];
            mdl_face_normal(o, fc, n);
            fx_near(fabs(n[1]), 1, 1e-12);
            for (uint32_t k = 0; k < 6; k++) {
                assert_false(corner_of(o, fi, k)->has_normal);
                fx_near(pos(o, corner_of(o, fi, k)->vertex)[1], n[1] * 1.5, 0);
            }
            continue;
        }
        assert_true(fc->smooth);
        for (uint32_t k = 0; k < 4; k++) {
            const mdl_corner *c = corner_of(o, fi, k);
            const double *p = pos(o, c->vertex);
            assert_true(c->has_normal);
            fx_near(c->normal[0], p[0], 1e-12);
            fx_near(c->normal[1], 0, 0);
            fx_near(c->normal[2], p[2], 1e-12);
        }
    }
    assert_int_equal(caps, 2);
    assert_uv_unmirrored(o);
    assert_int_equal(o->edge_count, 1);
    assert_true(o->edges[0].seam);
    const double *pa = pos(o, o->edges[0].a), *pb = pos(o, o->edges[0].b);
    fx_near(pa[0], 0, 0);
    fx_near(pb[0], 0, 0);
    fx_near(pa[2], 1, 0);
    fx_near(pa[1], -pb[1], 0);

    fx_ok(f, "{\"op\":\"cylinder\",\"object\":\"hard\",\"radius\":1,\"height\":1,\"segments\":3,"
          "\"smooth\":false}");
    o = obj(f, "hard");
    assert_closed(o);
    assert_true(signed_volume(o) > 0);
    for (size_t ci = 0; ci < o->corner_count; ci++)
        assert_false(o->corners[ci].has_normal);
    fx_refused(f, "{\"op\":\"cylinder\",\"object\":\"c\",\"radius\":1,\"height\":0,\"segments\":6}",
            "out_of_range", NULL);
    fx_refused(f, "{\"op\":\"cylinder\",\"object\":\"c\",\"radius\":1,\"height\":1,\"segments\":2}",
            "out_of_range", NULL);
}

static void test_work_limit(void **state)
{
    fx *f = *state;
    f->budget = 100;
    fx_refused(f, "{\"op\":\"sphere\",\"object\":\"b\",\"radius\":1,\"segments\":16,\"rings\":8}",
            "work_limit_exceeded", NULL);
    f->budget = 0;
}

/* ---- polygon_mesh */

#define TETRA_POS "\"positions\":[[0,0,0],[1,0,0],[0,1,0],[0,0,1]]"

static void test_polygon_mesh(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"polygon_mesh\",\"object\":\"t\"," TETRA_POS ",\"polygons\":["
          "{\"vertices\":[0,2,1],\"uvs\":[[0,0],[0,1],[1,0]],\"material\":3},"
          "{\"vertices\":[0,1,3]},{\"vertices\":[0,3,2]},{\"vertices\":[1,2,3]}]}");
    mdl_object *o = obj(f, "t");
    assert_int_equal(o->vertex_count, 4);
    assert_int_equal(o->face_count, 4);
    assert_int_equal(f->res.face_count, 4);
    assert_int_equal(f->res.vertex_count, 4);
    assert_int_equal(f->res.note_count, 0);
    assert_closed(o);
    fx_near(signed_volume(o), 1.0 / 6.0, 1e-15);
    assert_int_equal(o->faces[0].material, 3);
    assert_int_equal(o->faces[1].material, 0);
    fx_near(corner_of(o, 0, 1)->uv[1], 1, 0);
    fx_near(pos(o, corner_of(o, 0, 1)->vertex)[1], 1, 0);

    /* Indices map onto the new ids when appending. */
    fx_ok(f, "{\"op\":\"polygon_mesh\",\"object\":\"t\","
          "\"positions\":[[0,0,5],[1,0,5],[1,1,5],[0,1,5.5]],"
          "\"polygons\":[{\"vertices\":[0,1,2,3]}]}");
    o = obj(f, "t");
    assert_int_equal(o->vertex_count, 8);
    assert_int_equal(corner_of(o, 4, 0)->vertex, 5);
    assert_int_equal(f->res.note_count, 1); /* nonplanar, kept */
    assert_non_null(strstr(f->res.notes[0], "nonplanar"));

    /* Integral indices written with a fraction or exponent are indices. */
    fx_ok(f, "{\"op\":\"polygon_mesh\",\"object\":\"u\"," TETRA_POS ",\"polygons\":["
          "{\"vertices\":[0,2.0,1]},{\"vertices\":[0,1,3e0]},{\"vertices\":[0,3,2]},"
          "{\"vertices\":[1,2,3]}]}");
    assert_closed(obj(f, "u"));
    assert_int_equal(corner_of(obj(f, "u"), 0, 1)->vertex, 3);

    fx_refused(f, "{\"op\":\"polygon_mesh\",\"object\":\"t\"," TETRA_POS ",\"polygons\":["
               "{\"vertices\":[0,2,1]},{\"vertices\":[0,1,4]},{\"vertices\":[1,2,3]}]}",
            "out_of_range", "polygons[1].vertices[2]");
    fx_refused(f, "{\"op\":\"polygon_mesh\",\"object\":\"t\"," TETRA_POS ",\"polygons\":["
               "{\"vertices\":[0,2,1,2]},{\"vertices\":[1,2,3]}]}",
            "degenerate_face", "polygons[0].vertices[3]");
    fx_refused(f, "{\"op\":\"polygon_mesh\",\"object\":\"t\"," TETRA_POS ",\"polygons\":["
               "{\"vertices\":[0,2,1],\"uvs\":[[0,0],[1,1],[1,0],[0,1]]},{\"vertices\":[1,2,3]}]}",
            "invalid_operation", "polygons[0].uvs");
    fx_refused(f, "{\"op\":\"polygon_mesh\",\"object\":\"t\"," TETRA_POS ",\"polygons\":["
               "{\"vertices\":[0,2,1]}]}",
            "loose_vertices", "positions[3]");
    fx_refused(f, "{\"op\":\"polygon_mesh\",\"object\":\"t\"," TETRA_POS ",\"polygons\":["
               "{\"vertices\":[0,2]}]}",
            "out_of_range", NULL);
    fx_refused(f, "{\"op\":\"polygon_mesh\",\"object\":\"t\"," TETRA_POS ",\"polygons\":["
               "{\"vertices\":[0,2,1,3],\"material\":512}]}",
            "out_of_range", NULL);
    fx_refused(f, "{\"op\":\"polygon_mesh\",\"object\":\"t\",\"positions\":[],\"polygons\":[]}",
            "out_of_range", NULL);
}

/* ---- transform */

static void test_transform(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"cube\",\"object\":\"b\",\"size\":[2,2,2]}");
    fx_ok(f, "{\"op\":\"transform\",\"object\":\"b\",\"vertices\":[\"1\",\"2\",\"3\",\"4\",\"5\","
          "\"6\",\"7\",\"8\"],\"matrix\":[[2,0,0,10],[0,1,0,0],[0,0,3,-1],[0,0,0,1]]}");
    mdl_object *o = obj(f, "b");
    fx_near(pos(o, 1)[0], 8, 0);
    fx_near(pos(o, 1)[2], -4, 0);
    fx_near(pos(o, 8)[0], 12, 0);
    fx_near(pos(o, 8)[2], 2, 0);
    assert_int_equal(f->res.vertex_count, 8);
    assert_int_equal(f->res.face_count, 6);
    fx_near(signed_volume(o), 48, 1e-9);

    /* One vertex: its three faces are selected. */
    fx_ok(f, "{\"op\":\"transform\",\"object\":\"b\",\"vertices\":[\"8\"],"
          "\"matrix\":[[1,0,0,1],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}");
    assert_int_equal(f->res.vertex_count, 1);
    assert_int_equal(f->res.face_count, 3);
    fx_near(pos(obj(f, "b"), 8)[0], 13, 0);
    fx_near(pos(obj(f, "b"), 7)[0], 8, 0);

    /* Normals follow by the inverse-transpose. */
    fx_ok(f, "{\"op\":\"sphere\",\"object\":\"s\",\"radius\":1,\"segments\":4,\"rings\":2}");
    o = obj(f, "s");
    char ids[512] = "";
    for (size_t i = 0; i < o->vertex_count; i++) {
        char one[32];
        snprintf(one, sizeof one, "%s\"%llu\"", i ? "," : "",
                 (unsigned long long)o->vertices[i].id);
        strcat(ids, one);
    }
    double before[64][3];
    for (size_t ci = 0; ci < o->corner_count; ci++)
        memcpy(before[ci], o->corners[ci].normal, sizeof before[ci]);
    char json[1024];
    snprintf(json, sizeof json,
             "{\"op\":\"transform\",\"object\":\"s\",\"vertices\":[%s],"
             "\"matrix\":[[2,0,0,0],[0,1,0,0],[0,0,-4,0],[0,0,0,1]]}",
             ids);
    fx_ok(f, json);
    o = obj(f, "s");
    for (size_t ci = 0; ci < o->corner_count; ci++) {
        double n[3] = {before[ci][0] / 2, before[ci][1], before[ci][2] / -4};
        double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int a = 0; a < 3; a++)
            fx_near(o->corners[ci].normal[a], n[a] / len, 1e-12);
    }

    /* A reflection: the inverse-transpose of diag(-1, 1, 1) is itself. */
    for (size_t ci = 0; ci < o->corner_count; ci++)
        memcpy(before[ci], o->corners[ci].normal, sizeof before[ci]);
    snprintf(json, sizeof json,
             "{\"op\":\"transform\",\"object\":\"s\",\"vertices\":[%s],"
             "\"matrix\":[[-1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}",
             ids);
    fx_ok(f, json);
    o = obj(f, "s");
    for (size_t ci = 0; ci < o->corner_count; ci++) {
        fx_near(o->corners[ci].normal[0], -before[ci][0], 1e-15);
        fx_near(o->corners[ci].normal[1], before[ci][1], 1e-15);
        fx_near(o->corners[ci].normal[2], before[ci][2], 1e-15);
    }

    fx_refused(f, "{\"op\":\"transform\",\"object\":\"b\",\"vertices\":[\"1\"],"
               "\"matrix\":[[1,0,0,0],[0,1,0,0],[1,1,0,0],[0,0,0,1]]}",
            "degenerate_matrix", NULL);
    fx_refused(f, "{\"op\":\"transform\",\"object\":\"b\",\"vertices\":[\"1\"],"
               "\"matrix\":[[0,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}",
            "degenerate_matrix", NULL);
    fx_refused(f, "{\"op\":\"transform\",\"object\":\"b\",\"vertices\":[\"99\"],"
               "\"matrix\":[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}",
            "unknown_vertex", "99");
    fx_refused(f, "{\"op\":\"transform\",\"object\":\"nope\",\"vertices\":[\"1\"],"
               "\"matrix\":[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}",
            "unknown_object", "nope");
    assert_true(fx_run(f, "{\"op\":\"transform\",\"object\":\"b\",\"vertices\":[\"1\"],"
                       "\"matrix\":[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,1,0,1]]}") != 0);
    /* Vertex 1 sits at x = 8: scaling by 1e308 overflows (the matrix
     * itself is fine: huge rows are not mistaken for singular ones). */
    fx_refused(f, "{\"op\":\"transform\",\"object\":\"b\",\"vertices\":[\"1\"],"
               "\"matrix\":[[1e308,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}",
            "not_finite", "vertex \"1\"");
    fx_ok(f, "{\"op\":\"transform\",\"object\":\"b\",\"vertices\":[\"1\"],"
          "\"matrix\":[[1e-200,0,0,0],[0,1e-200,0,0],[0,0,1e-200,0],[0,0,0,1]]}");
}

/* ---- mirror */

static void test_mirror(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"sphere\",\"object\":\"m\",\"radius\":1,\"segments\":6,\"rings\":3}");
    fx_ok(f, "{\"op\":\"transform\",\"object\":\"m\",\"vertices\":[\"1\",\"2\",\"3\",\"4\",\"5\","
          "\"6\",\"7\",\"8\",\"9\",\"10\",\"11\",\"12\",\"13\",\"14\"],"
          "\"matrix\":[[1,0,0,3],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}");
    mdl_object *o = obj(f, "m");
    uint32_t joints[2] = {0, 2};
    double weights[2] = {0.25, 0.75};
    assert_int_equal(mdl_object_set_vertex_weights(o, 3, joints, weights, 2), 0);
    assert_int_equal(mdl_object_set_edge_attr(o, 3, 4, false, 0.5), 0);
    size_t nv = o->vertex_count, nf = o->face_count, ne = o->edge_count;
    double vol = signed_volume(o);
    fx_ok(f, "{\"op\":\"mirror\",\"object\":\"m\",\"axis\":0,\"offset\":1}");
    o = obj(f, "m");
    assert_int_equal(o->vertex_count, 2 * nv);
    assert_int_equal(o->face_count, 2 * nf);
    assert_int_equal(f->res.vertex_count, nv);
    assert_int_equal(f->res.face_count, nf);
    assert_true(selected_vertex(f, nv + 1) && !selected_vertex(f, nv));
    assert_true(selected_face(f, nf + 1) && !selected_face(f, nf));
    assert_closed(o);
    fx_near(signed_volume(o), 2 * vol, 1e-12);
    for (size_t i = 0; i < nv; i++) {
        const double *p = o->vertices[i].p, *q = o->vertices[nv + i].p;
        fx_near(q[0], 2 - p[0], 1e-15);
        fx_near(q[1], p[1], 0);
        fx_near(q[2], p[2], 0);
    }
    /* Corners: same UVs in reversed order (first corner kept first),
     * normals reflected. */
    for (size_t fi = 0; fi < nf; fi++) {
        uint32_t n = o->faces[fi].corner_count;
        assert_int_equal(o->faces[nf + fi].corner_count, n);
        assert_true(o->faces[nf + fi].smooth);
        for (uint32_t k = 0; k < n; k++) {
            const mdl_corner *a = corner_of(o, fi, k == 0 ? 0 : n - k), *b = corner_of(o, nf + fi, k);
            assert_int_equal(b->vertex, a->vertex + nv);
            fx_near(b->uv[0], a->uv[0], 0);
            fx_near(b->uv[1], a->uv[1], 0);
            assert_true(b->has_normal);
            fx_near(b->normal[0], -a->normal[0], 0);
            fx_near(b->normal[1], a->normal[1], 0);
        }
    }
    size_t first;
    assert_int_equal(mdl_object_vertex_weights(o, 3 + nv, &first), 2);
    assert_int_equal(o->weights[first + 1].joint, 2);
    fx_near(o->weights[first + 1].weight, 0.75, 0);
    assert_int_equal(o->edge_count, 2 * ne);
    const mdl_edge_attr *ea = mdl_object_edge_attr(o, 3 + nv, 4 + nv);
    assert_non_null(ea);
    fx_near(ea->crease, 0.5, 0);
    fx_refused(f, "{\"op\":\"mirror\",\"object\":\"m\",\"axis\":3,\"offset\":0}", "out_of_range",
            NULL);
    fx_refused(f, "{\"op\":\"mirror\",\"object\":\"zz\",\"axis\":1,\"offset\":0}", "unknown_object",
            NULL);
}

/* ---- weld */

static void test_weld_halves(void **state)
{
    fx *f = *state;
    /* Two quads sharing the edge x = 0 through duplicated vertices. */
    fx_ok(f, "{\"op\":\"plane\",\"object\":\"w\",\"size\":[2,2]}");
    fx_ok(f, "{\"op\":\"transform\",\"object\":\"w\",\"vertices\":[\"1\",\"2\",\"3\",\"4\"],"
          "\"matrix\":[[1,0,0,1],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}");
    fx_ok(f, "{\"op\":\"mirror\",\"object\":\"w\",\"axis\":0,\"offset\":0}");
    mdl_object *o = obj(f, "w");
    assert_int_equal(mdl_object_set_edge_attr(o, 5, 6, true, 0), 0); /* the copy's x=0 edge */
    /* Listed in reverse: the result does not depend on the order. */
    fx_ok(f, "{\"op\":\"weld\",\"object\":\"w\",\"vertices\":[\"8\",\"7\",\"6\",\"5\",\"4\",\"3\","
          "\"2\",\"1\"],\"distance\":1e-9}");
    o = obj(f, "w");
    assert_int_equal(o->vertex_count, 6);
    assert_int_equal(o->face_count, 2);
    assert_int_equal(o->corner_count, 8);
    /* Plane vertices 1 and 2 lie at x = 0 after the move; the copies 5, 6. */
    assert_true(mdl_object_vertex_index(o, 5) < 0 && mdl_object_vertex_index(o, 6) < 0);
    assert_int_equal(f->res.vertex_count, 2);
    assert_true(selected_vertex(f, 1) && selected_vertex(f, 2));
    assert_int_equal(f->res.face_count, 1);
    assert_true(selected_face(f, 2));
    for (uint32_t k = 0; k < 4; k++)
        assert_true(corner_of(o, 1, k)->vertex != 5 && corner_of(o, 1, k)->vertex != 6);
    const mdl_edge_attr *ea = mdl_object_edge_attr(o, 1, 2);
    assert_non_null(ea);
    assert_true(ea->seam);
    assert_int_equal(o->edge_count, 1);
    /* Nothing within distance: no change. */
    fx_ok(f, "{\"op\":\"weld\",\"object\":\"w\",\"vertices\":[\"1\",\"3\"],\"distance\":0}");
    assert_int_equal(obj(f, "w")->vertex_count, 6);
    assert_int_equal(f->res.face_count + f->res.vertex_count, 0);
}

static void test_weld_collapse(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"polygon_mesh\",\"object\":\"c\",\"positions\":[[0,0,0],[1,0,0],[1,1,0],"
          "[0.99,1,0],[3,0,0],[4,0,0],[4,0.05,0]],\"polygons\":[{\"vertices\":[0,1,2,3]},"
          "{\"vertices\":[4,5,6]}]}");
    mdl_object *o = obj(f, "c");
    uint32_t j = 1;
    double w = 1;
    assert_int_equal(mdl_object_set_vertex_weights(o, 4, &j, &w, 1), 0);
    fx_ok(f, "{\"op\":\"weld\",\"object\":\"c\",\"vertices\":[\"3\",\"4\",\"6\",\"7\"],"
          "\"distance\":0.1}");
    o = obj(f, "c");
    /* The quad became a triangle on the survivor 3 at its own position;
     * the triangle collapsed and went with its vertices 5 and 6. */
    assert_int_equal(o->face_count, 1);
    assert_int_equal(o->faces[0].corner_count, 3);
    assert_int_equal(o->vertex_count, 3);
    fx_near(pos(o, 3)[0], 1, 0);
    assert_int_equal(corner_of(o, 0, 2)->vertex, 3);
    size_t first;
    assert_int_equal(mdl_object_vertex_weights(o, 4, &first), 0);
    assert_int_equal(o->weight_count, 0);
    assert_true(selected_vertex(f, 3) && selected_face(f, 1));
    assert_false(selected_face(f, 2));
    assert_false(selected_vertex(f, 6)); /* its face is gone */

    /* Welding a quad's diagonal would make it pass a vertex twice. */
    fx_ok(f, "{\"op\":\"polygon_mesh\",\"object\":\"d\",\"positions\":[[0,0,0],[1,0,0],[0.05,0.05,0],"
          "[0,1,0]],\"polygons\":[{\"vertices\":[0,1,2,3]}]}");
    fx_refused(f, "{\"op\":\"weld\",\"object\":\"d\",\"vertices\":[\"1\",\"3\"],\"distance\":0.1}",
            "degenerate_face", NULL);
    fx_refused(f, "{\"op\":\"weld\",\"object\":\"d\",\"vertices\":[\"1\",\"9\"],\"distance\":0.1}",
            "unknown_vertex", NULL);
    fx_refused(f, "{\"op\":\"weld\",\"object\":\"d\",\"vertices\":[\"1\"],\"distance\":-1}",
            "out_of_range", NULL);
    fx_refused(f, "{\"op\":\"weld\",\"object\":\"d\",\"vertices\":[\"1\",\"1\"],\"distance\":1}",
            "duplicate_id", NULL);
}

/* ---- deletes */

static void test_delete(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"cube\",\"object\":\"a\",\"size\":[1,1,1]}");
    fx_ok(f, "{\"op\":\"delete_faces\",\"object\":\"a\",\"faces\":[\"2\"]}");
    mdl_object *o = obj(f, "a");
    assert_int_equal(o->face_count, 5);
    assert_int_equal(o->vertex_count, 8);
    assert_true(mdl_object_face_index(o, 2) < 0);
    /* With -X gone, +X, +Y and +Z take vertex 8 (+,+,+) and vertex 7
     * (-,+,+) with them; -Y and -Z keep the other six. */
    fx_ok(f, "{\"op\":\"delete_faces\",\"object\":\"a\",\"faces\":[\"1\",\"3\",\"5\"]}");
    o = obj(f, "a");
    assert_int_equal(o->face_count, 2);
    assert_int_equal(o->vertex_count, 6);
    assert_true(mdl_object_vertex_index(o, 8) < 0 && mdl_object_vertex_index(o, 7) < 0);
    assert_true(mdl_object_vertex_index(o, 6) >= 0);
    fx_refused(f, "{\"op\":\"delete_faces\",\"object\":\"a\",\"faces\":[\"1\"]}", "unknown_face",
            "\"1\"");
    fx_refused(f, "{\"op\":\"delete_faces\",\"object\":\"a\",\"faces\":[]}", "out_of_range", NULL);

    fx_ok(f, "{\"op\":\"delete_object\",\"object\":\"a\"}");
    assert_true(mdl_doc_find_object(f->doc, "a") < 0);
    assert_string_equal(f->res.object, "a");
    fx_refused(f, "{\"op\":\"delete_object\",\"object\":\"a\"}", "unknown_object", "\"a\"");
    fx_ok(f, "{\"op\":\"cube\",\"object\":\"a\",\"size\":[1,1,1]}");
    o = obj(f, "a");
    assert_int_equal(o->vertices[0].id, 9); /* counters retired, not reset */
    assert_int_equal(o->faces[0].id, 7);
}

/* ---- corner edits, edge attributes, materials, projection */

static void test_corners(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"cube\",\"object\":\"k\",\"size\":[1,1,1]}");
    mdl_object *o = obj(f, "k");
    uint64_t cid = corner_of(o, 1, 2)->id;
    char json[256];
    snprintf(json, sizeof json, "{\"op\":\"uv\",\"object\":\"k\",\"corner\":\"%llu\",\"uv\":[0.25,-2]}",
             (unsigned long long)cid);
    fx_ok(f, json);
    o = obj(f, "k");
    fx_near(corner_of(o, 1, 2)->uv[0], 0.25, 0);
    fx_near(corner_of(o, 1, 2)->uv[1], -2, 0);
    assert_true(selected_face(f, 2) && f->res.face_count == 1);

    snprintf(json, sizeof json,
             "{\"op\":\"corner_normal\",\"object\":\"k\",\"corner\":\"%llu\",\"normal\":[0,3,4]}",
             (unsigned long long)cid);
    fx_ok(f, json);
    o = obj(f, "k");
    assert_true(corner_of(o, 1, 2)->has_normal);
    fx_near(corner_of(o, 1, 2)->normal[1], 0.6, 1e-15);
    fx_near(corner_of(o, 1, 2)->normal[2], 0.8, 1e-15);
    snprintf(json, sizeof json,
             "{\"op\":\"corner_normal\",\"object\":\"k\",\"corner\":\"%llu\",\"normal\":[1e-320,0,0]}",
             (unsigned long long)cid);
    fx_ok(f, json);
    fx_near(corner_of(obj(f, "k"), 1, 2)->normal[0], 1, 0);
    snprintf(json, sizeof json,
             "{\"op\":\"corner_normal\",\"object\":\"k\",\"corner\":\"%llu\",\"normal\":null}",
             (unsigned long long)cid);
    fx_ok(f, json);
    assert_false(corner_of(obj(f, "k"), 1, 2)->has_normal);
    snprintf(json, sizeof json,
             "{\"op\":\"corner_normal\",\"object\":\"k\",\"corner\":\"%llu\",\"normal\":[0,0,0]}",
             (unsigned long long)cid);
    fx_refused(f, json, "invalid_operation", NULL);
    fx_refused(f, "{\"op\":\"uv\",\"object\":\"k\",\"corner\":\"999\",\"uv\":[0,0]}",
            "unknown_corner", "\"999\"");
    fx_refused(f, "{\"op\":\"corner_normal\",\"object\":\"k\",\"corner\":\"999\",\"normal\":null}",
            "unknown_corner", NULL);
    fx_refused(f, "{\"op\":\"uv\",\"object\":\"k\",\"corner\":\"01\",\"uv\":[0,0]}", "invalid_id",
            NULL);
}

static void test_edge_attributes(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"cube\",\"object\":\"e\",\"size\":[1,1,1]}");
    fx_ok(f, "{\"op\":\"edge_attributes\",\"object\":\"e\",\"vertices\":[\"2\",\"1\"],"
          "\"seam\":true,\"crease\":0.5}");
    mdl_object *o = obj(f, "e");
    const mdl_edge_attr *ea = mdl_object_edge_attr(o, 1, 2);
    assert_non_null(ea);
    assert_true(ea->seam);
    fx_near(ea->crease, 0.5, 0);
    assert_int_equal(f->res.face_count, 2); /* -Y and -Z share it */
    assert_true(selected_face(f, 4) && selected_face(f, 6));
    assert_int_equal(f->res.vertex_count, 2);
    fx_ok(f, "{\"op\":\"edge_attributes\",\"object\":\"e\",\"vertices\":[\"1\",\"2\"],"
          "\"seam\":false,\"crease\":0}");
    assert_null(mdl_object_edge_attr(obj(f, "e"), 1, 2));
    fx_refused(f, "{\"op\":\"edge_attributes\",\"object\":\"e\",\"vertices\":[\"1\",\"8\"],"
               "\"seam\":true,\"crease\":0}",
            "unknown_edge", NULL);
    fx_refused(f, "{\"op\":\"edge_attributes\",\"object\":\"e\",\"vertices\":[\"1\",\"2\"],"
               "\"seam\":true,\"crease\":1.5}",
            "out_of_range", NULL);
    fx_refused(f, "{\"op\":\"edge_attributes\",\"object\":\"e\",\"vertices\":[\"1\",\"2\",\"3\"],"
               "\"seam\":true,\"crease\":0}",
            "out_of_range", NULL);
    fx_refused(f, "{\"op\":\"edge_attributes\",\"object\":\"e\",\"vertices\":[\"1\",\"20\"],"
               "\"seam\":true,\"crease\":0}",
            "unknown_vertex", NULL);
}

static void test_assign_material(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"cube\",\"object\":\"q\",\"size\":[1,1,1]}");
    fx_ok(f, "{\"op\":\"assign_material\",\"object\":\"q\",\"faces\":[\"5\",\"2\"],\"material\":511}");
    mdl_object *o = obj(f, "q");
    assert_int_equal(o->faces[1].material, 511);
    assert_int_equal(o->faces[4].material, 511);
    assert_int_equal(o->faces[0].material, 0);
    assert_int_equal(f->res.face_count, 2);
    fx_refused(f, "{\"op\":\"assign_material\",\"object\":\"q\",\"faces\":[\"5\"],\"material\":512}",
            "out_of_range", NULL);
    fx_refused(f, "{\"op\":\"assign_material\",\"object\":\"q\",\"faces\":[\"50\"],\"material\":1}",
            "unknown_face", NULL);
}

static void test_project_uv(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"cube\",\"object\":\"p\",\"size\":[2,4,6]}");
    static const char *const axes[3] = {"0", "1", "2"};
    for (int axis = 0; axis < 3; axis++) {
        char json[256];
        snprintf(json, sizeof json,
                 "{\"op\":\"project_uv\",\"object\":\"p\",\"faces\":[\"1\",\"3\"],\"axis\":%s,"
                 "\"scale\":[2,-3],\"offset\":[0.5,0.25]}",
                 axes[axis]);
        fx_ok(f, json);
        mdl_object *o = obj(f, "p");
        int a = (axis + 1) % 3, b = (axis + 2) % 3;
        for (size_t fi = 0; fi < 3; fi += 2) {
            for (uint32_t k = 0; k < 4; k++) {
                const mdl_corner *c = corner_of(o, fi, k);
                const double *p = pos(o, c->vertex);
                fx_near(c->uv[0], p[a] * 2 + 0.5, 0);
                fx_near(c->uv[1], p[b] * -3 + 0.25, 0);
            }
        }
        /* Face 2 untouched: still the unit square. */
        assert_unmirrored_quad(o, 1);
        assert_int_equal(f->res.face_count, 2);
    }
    fx_refused(f, "{\"op\":\"project_uv\",\"object\":\"p\",\"faces\":[\"1\"],\"axis\":2,"
               "\"scale\":[1e308,1],\"offset\":[1e308,0]}",
            "not_finite", NULL);
    fx_refused(f, "{\"op\":\"project_uv\",\"object\":\"p\",\"faces\":[\"9\"],\"axis\":2,"
               "\"scale\":[1,1],\"offset\":[0,0]}",
            "unknown_face", NULL);
    fx_refused(f, "{\"op\":\"project_uv\",\"object\":\"p\",\"faces\":[\"1\"],\"axis\":-1,"
               "\"scale\":[1,1],\"offset\":[0,0]}",
            "out_of_range", NULL);
}

/* The worked batch of docs/model-operations-mesh.md, one operation at a
 * time, with the outcome the page describes. */
static void test_worked_batch(void **state)
{
    fx *f = *state;
    fx_ok(f, "{\"op\":\"cube\",\"object\":\"body\",\"size\":[0.6,1.0,0.3]}");
    fx_ok(f, "{\"op\":\"transform\",\"object\":\"body\",\"vertices\":[\"1\",\"2\",\"3\",\"4\","
          "\"5\",\"6\",\"7\",\"8\"],\"matrix\":[[1,0,0,0],[0,1,0,0.5],[0,0,1,0],[0,0,0,1]]}");
    fx_ok(f, "{\"op\":\"cylinder\",\"object\":\"arms\",\"radius\":0.05,\"height\":0.7,"
          "\"segments\":4}");
    fx_ok(f, "{\"op\":\"transform\",\"object\":\"arms\",\"vertices\":[\"1\",\"2\",\"3\",\"4\","
          "\"5\",\"6\",\"7\",\"8\"],\"matrix\":[[1,0,0,0.4],[0,1,0,0.55],[0,0,1,0],[0,0,0,1]]}");
    fx_ok(f, "{\"op\":\"mirror\",\"object\":\"arms\",\"axis\":0,\"offset\":0}");
    for (uint64_t id = 9; id <= 16; id++)
        assert_true(selected_vertex(f, id));
    for (uint64_t id = 7; id <= 12; id++)
        assert_true(selected_face(f, id));
    fx_ok(f, "{\"op\":\"assign_material\",\"object\":\"body\",\"faces\":[\"5\"],\"material\":1}");
    mdl_object *body = obj(f, "body"), *arms = obj(f, "arms");
    double n[3];
    mdl_face_normal(body, &body->faces[4], n);
    fx_near(n[2], 1, 1e-15);
    assert_int_equal(body->faces[4].material, 1);
    for (size_t i = 0; i < body->vertex_count; i++)
        assert_true(body->vertices[i].p[1] >= 0);
    assert_int_equal(arms->vertex_count, 16);
    assert_int_equal(arms->face_count, 12);
    assert_closed(arms);
    assert_true(signed_volume(arms) > 0);
    for (size_t i = 0; i < 16; i++)
        fx_near(fabs(arms->vertices[i].p[0]), 0.4, 0.0500001);
    fx_near(pos(arms, 9)[0], -pos(arms, 1)[0], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_cube, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_plane, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_sphere, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_cylinder, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_work_limit, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_polygon_mesh, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_transform, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_mirror, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_weld_halves, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_weld_collapse, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_delete, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_corners, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_edge_attributes, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_assign_material, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_project_uv, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_worked_batch, fx_setup, fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
