/* The model document core (src/model/mdl_doc.c, mdl_object.c): ids come
 * from per-object counters and survive deletion and recreation of an
 * object; a shared version is never written through (copy on first edit);
 * removing faces drops the vertices, weights and edge attributes they
 * leave unused; weights and edge attributes keep their sort orders. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "model/mdl_doc.h"

static mdl_object *quad_object(mdl_doc *d, const char *name, uint64_t *face)
{
    mdl_object *o = mdl_doc_add_object(d, name);
    assert_non_null(o);
    const double p[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 0, -1}, {0, 0, -1}};
    uint64_t v[4];
    for (int i = 0; i < 4; i++)
        v[i] = mdl_object_add_vertex(o, p[i]);
    *face = mdl_object_add_face(o, v, NULL, 4, 0, false);
    assert_true(*face != 0);
    return o;
}

static void test_ids_and_lookup(void **state)
{
    (void)state;
    mdl_doc *d = mdl_doc_new();
    uint64_t f;
    mdl_object *o = quad_object(d, "b", &f);
    assert_int_equal(o->vertex_count, 4);
    assert_int_equal(o->vertices[3].id, 4);
    assert_int_equal(f, 1);
    assert_int_equal(o->corners[3].id, 4);
    assert_int_equal(mdl_object_vertex_index(o, 3), 2);
    assert_int_equal(mdl_object_vertex_index(o, 9), -1);
    assert_int_equal(mdl_object_face_index(o, 1), 0);
    assert_int_equal(mdl_object_corner_face(o, 3), 0);
    double n[3];
    mdl_face_normal(o, &o->faces[0], n);
    /* (0,0,0) (1,0,0) (1,0,-1) (0,0,-1) winds counter-clockwise seen from +Y. */
    assert_true(n[1] > 0.999);
    /* Names stay sorted. */
    uint64_t g;
    quad_object(d, "a", &g);
    assert_string_equal(d->objects[0]->name, "a");
    assert_null(mdl_doc_add_object(d, "a"));
    assert_int_equal(mdl_doc_find_object(d, "b"), 1);
    mdl_doc_free(d);
}

static void test_retired_counters(void **state)
{
    (void)state;
    mdl_doc *d = mdl_doc_new();
    uint64_t f;
    quad_object(d, "arm", &f);
    assert_int_equal(mdl_doc_delete_object(d, "arm"), 0);
    assert_int_equal(d->retired_count, 1);
    mdl_object *o = quad_object(d, "arm", &f);
    /* A recreated object continues its counters: no id is handed out twice. */
    assert_int_equal(o->vertices[0].id, 5);
    assert_int_equal(f, 2);
    assert_int_equal(d->retired_count, 0);
    assert_int_equal(mdl_doc_delete_object(d, "nope"), -1);
    mdl_doc_free(d);
}

static void test_copy_on_edit(void **state)
{
    (void)state;
    mdl_doc *a = mdl_doc_new();
    uint64_t f;
    quad_object(a, "body", &f);
    a->materials[2].defined = true;
    a->materials[2].texture = mdl_texture_new(2, 2);
    mdl_doc *b = mdl_doc_share(a);
    assert_non_null(b);
    assert_ptr_equal(a->objects[0], b->objects[0]);
    bool nomem;
    mdl_object *e = mdl_doc_edit_object(b, "body", &nomem);
    assert_non_null(e);
    assert_ptr_not_equal(e, a->objects[0]);
    e->vertices[0].p[0] = 5;
    assert_true(a->objects[0]->vertices[0].p[0] == 0);
    /* A second edit of the now private object does not clone again. */
    assert_ptr_equal(mdl_doc_edit_object(b, "body", &nomem), e);
    mdl_texture *t = mdl_material_edit_texture(&b->materials[2]);
    t->rgb[0] = 200;
    assert_int_equal(a->materials[2].texture->rgb[0], 0);
    mdl_doc_free(b);
    assert_int_equal(a->objects[0]->refs, 1);
    mdl_doc_free(a);
}

static void test_remove_faces_drops_unused(void **state)
{
    (void)state;
    mdl_doc *d = mdl_doc_new();
    uint64_t f;
    mdl_object *o = quad_object(d, "p", &f);
    const double extra[3] = {2, 0, 0};
    uint64_t v5 = mdl_object_add_vertex(o, extra);
    uint64_t tri[3] = {2, 5, 3};
    assert_true(mdl_object_add_face(o, tri, NULL, 3, 1, false) == 2);
    assert_int_equal(mdl_object_set_edge_attr(o, 5, 2, true, 0), 0);
    uint32_t j[2] = {1, 0};
    double w[2] = {0.25, 0.75};
    assert_int_equal(mdl_object_set_vertex_weights(o, v5, j, w, 2), 0);
    assert_int_equal(o->weights[0].joint, 0);
    bool remove[2] = {false, true};
    assert_int_equal(mdl_object_remove_faces(o, remove), 0);
    assert_int_equal(o->face_count, 1);
    assert_int_equal(o->corner_count, 4);
    assert_int_equal(o->vertex_count, 4);
    assert_int_equal(o->weight_count, 0);
    assert_int_equal(o->edge_count, 0);
    mdl_doc_free(d);
}

static void test_edge_attrs_and_weights(void **state)
{
    (void)state;
    mdl_doc *d = mdl_doc_new();
    uint64_t f;
    mdl_object *o = quad_object(d, "p", &f);
    assert_int_equal(mdl_object_set_edge_attr(o, 3, 2, false, 0.5), 0);
    assert_int_equal(mdl_object_set_edge_attr(o, 1, 2, true, 0), 0);
    assert_int_equal(o->edge_count, 2);
    assert_true(o->edges[0].a == 1 && o->edges[1].a == 2 && o->edges[1].b == 3);
    assert_non_null(mdl_object_edge_attr(o, 2, 3));
    assert_int_equal(mdl_object_set_edge_attr(o, 2, 3, false, 0), 0);
    assert_null(mdl_object_edge_attr(o, 2, 3));
    uint32_t j[3] = {4, 1, 2};
    double w[3] = {0.5, 0.0, 0.5};
    assert_int_equal(mdl_object_set_vertex_weights(o, 3, j, w, 3), 0);
    assert_int_equal(mdl_object_set_vertex_weights(o, 1, j, w, 1), 0);
    size_t first;
    assert_int_equal(mdl_object_vertex_weights(o, 3, &first), 2);
    assert_int_equal(first, 1);
    assert_int_equal(o->weights[1].joint, 2);
    assert_int_equal(o->weights[2].joint, 4);
    assert_int_equal(mdl_object_set_vertex_weights(o, 3, NULL, NULL, 0), 0);
    assert_int_equal(o->weight_count, 1);
    mdl_doc_free(d);
}

static void test_clips_sorted(void **state)
{
    (void)state;
    mdl_doc *d = mdl_doc_new();
    const char *names[3] = {"walk", "idle", "run"};
    for (int i = 0; i < 3; i++) {
        mdl_clip *c = calloc(1, sizeof(*c));
        c->refs = 1;
        c->name = malloc(strlen(names[i]) + 1);
        strcpy(c->name, names[i]);
        assert_int_equal(mdl_doc_put_clip(d, c), 0);
    }
    assert_string_equal(d->clips[0]->name, "idle");
    assert_string_equal(d->clips[2]->name, "walk");
    mdl_doc *s = mdl_doc_share(d);
    assert_int_equal(mdl_doc_delete_clip(s, "run"), 0);
    assert_int_equal(d->clip_count, 3);
    assert_int_equal(mdl_doc_find_clip(s, "run"), -1);
    mdl_doc_free(s);
    mdl_doc_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ids_and_lookup),
        cmocka_unit_test(test_retired_counters),
        cmocka_unit_test(test_copy_on_edit),
        cmocka_unit_test(test_remove_faces_drops_unused),
        cmocka_unit_test(test_edge_attrs_and_weights),
        cmocka_unit_test(test_clips_sorted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
