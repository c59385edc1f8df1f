/* The weight tools (weight_locks, weight_edit: assign, normalize, smooth,
 * mirror, transfer, bind) and the shape targets (morph, capture_morph,
 * delete_morph, morph_weight), run as whole batches so the batch's
 * morph-pin check applies: numeric results (locks exact, unit sums,
 * nearest-bone binds, mirrored weights, captured deltas) and every
 * refusal kind. */
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
#include "animsmith/model.h"
#include "model/mdl_batch.h"
#include "model/mdl_doc.h"

typedef struct fx {
    mdl_doc *doc;
    anim_model_limits limits;
    anim_model_fault fault;
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->doc = mdl_doc_new();
    assert_non_null(f->doc);
    anim_model_limits_default(&f->limits);
    anim_model_fault_init(&f->fault);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    mdl_doc_free(f->doc);
    anim_model_fault_free(&f->fault);
    free(f);
    return 0;
}

/* Runs a batch (a JSON array); on success the result becomes f->doc. */
static int apply(fx *f, const char *json)
{
    anim_arena *arena = anim_arena_new();
    anim_error err;
    memset(&err, 0, sizeof err);
    anim_json_value *ops = anim_json_parse(arena, json, strlen(json), NULL, &err);
    if (!ops)
        fail_msg("bad test JSON: %s: %s", err.message, json);
    mdl_batch b;
    anim_strbuf_reset(&f->fault.data);
    f->fault.kind[0] = '\0';
    int rc = mdl_batch_run(f->doc, ops, &f->limits, f->limits.max_work_units, NULL, &b,
                           &f->fault);
    if (rc == 0) {
        mdl_doc_free(f->doc);
        f->doc = b.doc;
        b.doc = NULL;
        mdl_batch_free(&b);
    }
    anim_arena_free(arena);
    return rc;
}

static void ok(fx *f, const char *json)
{
    if (apply(f, json) != 0)
        fail_msg("refused (%s: %s): %s", f->fault.kind, f->fault.message, json);
}

static void refused(fx *f, const char *json, const char *kind)
{
    if (apply(f, json) == 0)
        fail_msg("accepted, expected %s: %s", kind, json);
    if (strcmp(f->fault.kind, kind) != 0)
        fail_msg("expected %s, got %s (%s): %s", kind, f->fault.kind, f->fault.message, json);
}

static const mdl_object *obj(fx *f, const char *name)
{
    ptrdiff_t i = mdl_doc_find_object(f->doc, name);
    assert_true(i >= 0);
    return f->doc->objects[i];
}

/* The weight of vertex id on joint j (0 when none). */
static double weight(fx *f, const char *name, uint64_t id, uint32_t j)
{
    const mdl_object *o = obj(f, name);
    size_t first, n = mdl_object_vertex_weights(o, id, &first);
    for (size_t k = 0; k < n; k++)
        if (o->weights[first + k].joint == j)
            return o->weights[first + k].weight;
    return 0;
}

static double weight_sum(fx *f, const char *name, uint64_t id, size_t *count)
{
    const mdl_object *o = obj(f, name);
    size_t first, n = mdl_object_vertex_weights(o, id, &first);
    double s = 0;
    for (size_t k = 0; k < n; k++)
        s += o->weights[first + k].weight;
    if (count)
        *count = n;
    return s;
}

/* A 2x1 strip of quads symmetric about x = 0 (vertex ids 1..6:
 * (-1,0) (0,0) (1,0) (-1,1) (0,1) (1,1)) and a skeleton whose bones run
 * from the root at the origin to (-1,0,0) (joint 1) and (1,0,0) (joint 2). */
#define STRIP(NAME, DZ)                                                                      \
    "{\"op\":\"polygon_mesh\",\"object\":\"" NAME "\",\"positions\":[[-1,0," DZ "],[0,0," DZ \
    "],[1,0," DZ "],[-1,1," DZ "],[0,1," DZ "],[1,1," DZ "]],"                                \
    "\"polygons\":[{\"vertices\":[0,1,4,3]},{\"vertices\":[1,2,5,4]}]}"
#define SKELETON                                                                             \
    "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"root\",\"translation\":[0,0,0]},"          \
    "{\"name\":\"left\",\"parent\":0,\"translation\":[-1,0,0]},"                             \
    "{\"name\":\"right\",\"parent\":0,\"translation\":[1,0,0]}]}"

#define ALL6 "\"vertices\":[\"1\",\"2\",\"3\",\"4\",\"5\",\"6\"],"

static void rigged(fx *f)
{
    ok(f, "[" STRIP("s", "0") "," SKELETON "]");
}

static void test_weight_locks(void **state)
{
    fx *f = *state;
    rigged(f);
    ok(f, "[{\"op\":\"weight_locks\",\"object\":\"s\",\"joints\":[2,0]}]");
    const mdl_object *o = obj(f, "s");
    assert_int_equal(o->lock_count, 2);
    assert_int_equal(o->locks[0], 0);
    assert_int_equal(o->locks[1], 2);
    /* a skeleton that drops a locked joint is refused */
    refused(f, "[{\"op\":\"skeleton\",\"joints\":[{\"name\":\"root\",\"translation\":[0,0,0]}]}]",
            "invalid_skeleton");
    ok(f, "[{\"op\":\"weight_locks\",\"object\":\"s\",\"joints\":[]}]");
    assert_int_equal(obj(f, "s")->lock_count, 0);
    refused(f, "[{\"op\":\"weight_locks\",\"object\":\"s\",\"joints\":[3]}]", "unknown_joint");
    refused(f, "[{\"op\":\"weight_locks\",\"object\":\"s\",\"joints\":[1,1]}]",
            "invalid_operation");
    refused(f, "[{\"op\":\"weight_locks\",\"object\":\"t\",\"joints\":[]}]", "unknown_object");
}

static void test_assign_and_locks(void **state)
{
    fx *f = *state;
    rigged(f);
    ok(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[\"1\",\"4\"],"
          "\"edit\":{\"type\":\"assign\",\"joint\":1}}]");
    assert_true(weight(f, "s", 1, 1) == 1.0);
    assert_true(weight(f, "s", 4, 1) == 1.0);
    assert_true(weight(f, "s", 2, 1) == 0.0);
    /* a positive locked weight on another joint rejects the whole edit */
    ok(f, "[{\"op\":\"weights\",\"object\":\"s\",\"vertex\":\"2\",\"weights\":"
          "[{\"joint\":0,\"weight\":0.3},{\"joint\":2,\"weight\":0.7}]},"
          "{\"op\":\"weight_locks\",\"object\":\"s\",\"joints\":[0]}]");
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[\"3\",\"2\"],"
               "\"edit\":{\"type\":\"assign\",\"joint\":2}}]",
            "locked_weight");
    assert_true(weight(f, "s", 3, 2) == 0.0); /* nothing of the batch stayed */
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[\"3\"],"
               "\"edit\":{\"type\":\"assign\",\"joint\":9}}]",
            "unknown_joint");
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[\"3\",\"3\"],"
               "\"edit\":{\"type\":\"assign\",\"joint\":1}}]",
            "duplicate_id");
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[\"99\"],"
               "\"edit\":{\"type\":\"assign\",\"joint\":1}}]",
            "unknown_vertex");
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[],"
               "\"edit\":{\"type\":\"paint\"}}]",
            "out_of_range");
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[],"
               "\"edit\":{\"type\":\"assign\",\"joint\":1,\"factor\":1}}]",
            "unknown_field");
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[],"
               "\"edit\":{\"joint\":1}}]",
            "missing_field");
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[],"
               "\"edit\":{\"type\":\"assign\"}}]",
            "missing_field");
}

static void test_normalize(void **state)
{
    fx *f = *state;
    rigged(f);
    ok(f, "[{\"op\":\"weights\",\"object\":\"s\",\"vertex\":\"2\",\"weights\":"
          "[{\"joint\":0,\"weight\":0.2},{\"joint\":1,\"weight\":0.3},"
          "{\"joint\":2,\"weight\":0.1}]},"
          "{\"op\":\"weight_locks\",\"object\":\"s\",\"joints\":[0]},"
          "{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[\"2\"],"
          "\"edit\":{\"type\":\"normalize\"}}]");
    /* the lock stays exact; the free 0.3 : 0.1 share the remaining 0.8 */
    assert_true(weight(f, "s", 2, 0) == 0.2);
    assert_true(fabs(weight(f, "s", 2, 1) - 0.6) < 1e-12);
    assert_true(fabs(weight(f, "s", 2, 2) - 0.2) < 1e-12);
    assert_true(fabs(weight_sum(f, "s", 2, NULL) - 1) < 1e-12);
    /* a cap of 2 keeps the lock and the largest free weight */
    ok(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[\"2\"],"
          "\"edit\":{\"type\":\"normalize\",\"max_influences\":2}}]");
    size_t n;
    assert_true(fabs(weight_sum(f, "s", 2, &n) - 1) < 1e-12);
    assert_int_equal(n, 2);
    assert_true(weight(f, "s", 2, 0) == 0.2);
    assert_true(fabs(weight(f, "s", 2, 1) - 0.8) < 1e-12);
    /* a cap taken entirely by locks cannot hold the free remainder */
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[\"2\"],"
               "\"edit\":{\"type\":\"normalize\",\"max_influences\":1}}]",
            "influence_cap");
    /* locked weights that alone exceed one */
    ok(f, "[{\"op\":\"weights\",\"object\":\"s\",\"vertex\":\"3\",\"weights\":"
          "[{\"joint\":0,\"weight\":0.8},{\"joint\":1,\"weight\":0.7}]},"
          "{\"op\":\"weight_locks\",\"object\":\"s\",\"joints\":[0,1]}]");
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[\"3\"],"
               "\"edit\":{\"type\":\"normalize\"}}]",
            "locked_weight");
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[],"
               "\"edit\":{\"type\":\"normalize\",\"max_influences\":9}}]",
            "out_of_range");
}

static void test_bind_nearest_bone(void **state)
{
    fx *f = *state;
    rigged(f);
    ok(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[],"
          "\"edit\":{\"type\":\"bind\"}}]");
    /* vertex 1 lies on bone 1 and vertex 3 on bone 2: rigid */
    assert_true(weight(f, "s", 1, 1) == 1.0);
    assert_true(weight(f, "s", 3, 2) == 1.0);
    /* vertex 2 is the root point, on all three bones */
    assert_true(fabs(weight(f, "s", 2, 0) - 1.0 / 3) < 1e-12);
    /* vertex 4 (-1,1,0): distances sqrt2, 1, sqrt2; power 2: 1/2, 1, 1/2 */
    assert_true(fabs(weight(f, "s", 4, 0) - 0.25) < 1e-12);
    assert_true(fabs(weight(f, "s", 4, 1) - 0.5) < 1e-12);
    assert_true(fabs(weight(f, "s", 4, 2) - 0.25) < 1e-12);
    /* power 1 and one influence: the nearest bone alone */
    ok(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[\"6\"],"
          "\"edit\":{\"type\":\"bind\",\"max_influences\":1,\"power\":1}}]");
    assert_true(weight(f, "s", 6, 2) == 1.0);
    size_t n;
    weight_sum(f, "s", 6, &n);
    assert_int_equal(n, 1);
    /* a lock holds; a cap with no room for the remaining mass refuses */
    ok(f, "[{\"op\":\"weights\",\"object\":\"s\",\"vertex\":\"5\",\"weights\":"
          "[{\"joint\":0,\"weight\":0.4}]},"
          "{\"op\":\"weight_locks\",\"object\":\"s\",\"joints\":[0]},"
          "{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[\"5\"],"
          "\"edit\":{\"type\":\"bind\"}}]");
    assert_true(weight(f, "s", 5, 0) == 0.4);
    assert_true(fabs(weight(f, "s", 5, 1) - 0.3) < 1e-12);
    assert_true(fabs(weight(f, "s", 5, 2) - 0.3) < 1e-12);
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[\"5\"],"
               "\"edit\":{\"type\":\"bind\",\"max_influences\":1}}]",
            "influence_cap");
    assert_true(fabs(weight(f, "s", 5, 1) - 0.3) < 1e-12);
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[],"
               "\"edit\":{\"type\":\"bind\",\"power\":9}}]",
            "out_of_range");
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[],"
               "\"edit\":{\"type\":\"bind\",\"power\":0}}]",
            "out_of_range");
}

static void test_bind_needs_skeleton(void **state)
{
    fx *f = *state;
    ok(f, "[" STRIP("s", "0") "]");
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[],"
               "\"edit\":{\"type\":\"bind\"}}]",
            "invalid_skeleton");
}

static void test_smooth(void **state)
{
    fx *f = *state;
    rigged(f);
    /* left column on joint 1, the rest on joint 2 */
    ok(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[],"
          "\"edit\":{\"type\":\"assign\",\"joint\":2}},"
          "{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[\"1\",\"4\"],"
          "\"edit\":{\"type\":\"assign\",\"joint\":1}},"
          "{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[\"2\"],"
          "\"edit\":{\"type\":\"smooth\"}}]");
    /* vertex 2's neighbours are 1 (joint 1), 3 and 5 (joint 2): average
     * 1/3 : 2/3, blended half-way with its own joint 2 */
    assert_true(fabs(weight(f, "s", 2, 1) - 1.0 / 6) < 1e-12);
    assert_true(fabs(weight(f, "s", 2, 2) - 5.0 / 6) < 1e-12);
    assert_true(weight(f, "s", 5, 2) == 1.0); /* unselected: untouched */
    /* factor 0 changes nothing; more iterations keep unit sums */
    ok(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[],"
          "\"edit\":{\"type\":\"smooth\",\"factor\":0}}]");
    assert_true(fabs(weight(f, "s", 2, 1) - 1.0 / 6) < 1e-12);
    ok(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[],"
          "\"edit\":{\"type\":\"smooth\",\"iterations\":5,\"factor\":1}}]");
    for (uint64_t v = 1; v <= 6; v++)
        assert_true(fabs(weight_sum(f, "s", v, NULL) - 1) < 1e-12);
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[],"
               "\"edit\":{\"type\":\"smooth\",\"iterations\":65}}]",
            "out_of_range");
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[],"
               "\"edit\":{\"type\":\"smooth\",\"factor\":1.5}}]",
            "out_of_range");
}

static void test_mirror(void **state)
{
    fx *f = *state;
    rigged(f);
    ok(f, "[{\"op\":\"weights\",\"object\":\"s\",\"vertex\":\"1\",\"weights\":"
          "[{\"joint\":1,\"weight\":0.9},{\"joint\":0,\"weight\":0.1}]},"
          "{\"op\":\"weights\",\"object\":\"s\",\"vertex\":\"4\",\"weights\":"
          "[{\"joint\":1,\"weight\":0.6},{\"joint\":0,\"weight\":0.4}]},"
          "{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[\"3\",\"6\"],"
          "\"edit\":{\"type\":\"mirror\",\"axis\":0,"
          "\"joints\":[{\"source\":1,\"target\":2},{\"source\":2,\"target\":1}]}}]");
    assert_true(weight(f, "s", 3, 2) == 0.9);
    assert_true(weight(f, "s", 3, 0) == 0.1);
    assert_true(weight(f, "s", 6, 2) == 0.6);
    assert_true(weight(f, "s", 6, 0) == 0.4);
    assert_true(weight(f, "s", 6, 1) == 0.0);
    /* mirrored across Y nothing lies at y = -1 */
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[\"4\"],"
               "\"edit\":{\"type\":\"mirror\",\"axis\":1,\"joints\":[]}}]",
            "unmatched_vertex");
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[\"3\"],"
               "\"edit\":{\"type\":\"mirror\",\"axis\":0,\"joints\":[{\"source\":1,"
               "\"target\":2},{\"source\":1,\"target\":0}]}}]",
            "invalid_operation");
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[\"3\"],"
               "\"edit\":{\"type\":\"mirror\",\"axis\":0,\"joints\":[{\"source\":1,"
               "\"target\":7}]}}]",
            "unknown_joint");
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[\"3\"],"
               "\"edit\":{\"type\":\"mirror\",\"axis\":0,\"joints\":[],\"tolerance\":0}}]",
            "out_of_range");
}

static void test_transfer(void **state)
{
    fx *f = *state;
    ok(f, "[" STRIP("s", "0") "," STRIP("t", "0.01") "," SKELETON "]");
    ok(f, "[{\"op\":\"weight_edit\",\"object\":\"s\",\"vertices\":[],"
          "\"edit\":{\"type\":\"bind\"}},"
          "{\"op\":\"weight_edit\",\"object\":\"t\",\"vertices\":[],"
          "\"edit\":{\"type\":\"assign\",\"joint\":0}},"
          "{\"op\":\"weight_edit\",\"object\":\"t\",\"vertices\":[\"1\",\"4\"],"
          "\"edit\":{\"type\":\"transfer\",\"source\":\"s\",\"max_distance\":0.1}}]");
    assert_true(weight(f, "t", 1, 1) == 1.0);
    assert_true(fabs(weight(f, "t", 4, 1) - 0.5) < 1e-12);
    assert_true(weight(f, "t", 2, 0) == 1.0); /* unselected */
    /* beyond max_distance the vertex keeps its weights */
    ok(f, "[{\"op\":\"weight_edit\",\"object\":\"t\",\"vertices\":[\"3\"],"
          "\"edit\":{\"type\":\"transfer\",\"source\":\"s\",\"max_distance\":0.001}}]");
    assert_true(weight(f, "t", 3, 0) == 1.0);
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"t\",\"vertices\":[],"
               "\"edit\":{\"type\":\"transfer\",\"source\":\"nope\",\"max_distance\":1}}]",
            "unknown_object");
    refused(f, "[{\"op\":\"weight_edit\",\"object\":\"t\",\"vertices\":[],"
               "\"edit\":{\"type\":\"transfer\",\"source\":\"s\",\"max_distance\":0}}]",
            "out_of_range");
}

static const mdl_morph *morph(fx *f, const char *name)
{
    ptrdiff_t i = mdl_doc_find_morph(f->doc, name);
    assert_true(i >= 0);
    return f->doc->morphs[i];
}

static void test_morph(void **state)
{
    fx *f = *state;
    ok(f, "[" STRIP("s", "0") "]");
    ok(f, "[{\"op\":\"morph\",\"name\":\"bulge\",\"object\":\"s\",\"deltas\":["
          "{\"vertex\":\"5\",\"delta\":[0,0,0.5]},{\"vertex\":\"2\",\"delta\":[0,0,0.25]}]}]");
    const mdl_morph *m = morph(f, "bulge");
    assert_string_equal(m->object, "s");
    assert_int_equal(m->delta_count, 2);
    assert_int_equal(m->deltas[0].vertex, 2); /* sorted by vertex id */
    assert_true(m->deltas[1].delta[2] == 0.5);
    assert_true(m->weight == 0.0);
    uint8_t sig[32];
    assert_int_equal(mdl_object_topology(obj(f, "s"), sig), 0);
    assert_memory_equal(sig, m->topology, 32);
    ok(f, "[{\"op\":\"morph_weight\",\"name\":\"bulge\",\"weight\":-1.5}]");
    assert_true(morph(f, "bulge")->weight == -1.5);
    refused(f, "[{\"op\":\"morph_weight\",\"name\":\"bulge\",\"weight\":2.5}]", "out_of_range");
    refused(f, "[{\"op\":\"morph_weight\",\"name\":\"nope\",\"weight\":1}]", "unknown_morph");
    refused(f, "[{\"op\":\"morph\",\"name\":\"m\",\"object\":\"s\",\"deltas\":["
               "{\"vertex\":\"2\",\"delta\":[0,0,1]},{\"vertex\":\"2\",\"delta\":[0,1,0]}]}]",
            "duplicate_id");
    refused(f, "[{\"op\":\"morph\",\"name\":\"m\",\"object\":\"s\",\"deltas\":["
               "{\"vertex\":\"42\",\"delta\":[0,0,1]}]}]",
            "unknown_vertex");
    refused(f, "[{\"op\":\"morph\",\"name\":\"m\",\"object\":\"x\",\"deltas\":[]}]",
            "unknown_object");
    refused(f, "[{\"op\":\"morph\",\"name\":\"m\",\"object\":\"s\",\"deltas\":[],\"weight\":3}]",
            "out_of_range");
    /* moving vertices keeps the topology: allowed */
    ok(f, "[{\"op\":\"transform\",\"object\":\"s\"," ALL6
          "\"matrix\":[[1,0,0,0],[0,1,0,2],[0,0,1,0],"
          "[0,0,0,1]]}]");
    /* a topology edit of a pinned object refuses until the target goes */
    refused(f, "[{\"op\":\"delete_faces\",\"object\":\"s\",\"faces\":[\"1\"]}]",
            "morph_topology_changed");
    refused(f, "[{\"op\":\"delete_object\",\"object\":\"s\"}]", "morph_target_pinned");
    ok(f, "[{\"op\":\"delete_morph\",\"name\":\"bulge\"},"
          "{\"op\":\"delete_faces\",\"object\":\"s\",\"faces\":[\"1\"]}]");
    assert_int_equal(f->doc->morph_count, 0);
    refused(f, "[{\"op\":\"delete_morph\",\"name\":\"bulge\"}]", "unknown_morph");
}

static void test_morph_limit(void **state)
{
    fx *f = *state;
    ok(f, "[" STRIP("s", "0") "]");
    char buf[256];
    for (int i = 0; i < MDL_MORPHS_MAX; i++) {
        snprintf(buf, sizeof buf,
                 "[{\"op\":\"morph\",\"name\":\"m%02d\",\"object\":\"s\",\"deltas\":[]}]", i);
        ok(f, buf);
    }
    refused(f, "[{\"op\":\"morph\",\"name\":\"extra\",\"object\":\"s\",\"deltas\":[]}]",
            "limit_exceeded");
    /* replacing an existing target is not a new one */
    ok(f, "[{\"op\":\"morph\",\"name\":\"m00\",\"object\":\"s\",\"deltas\":[],\"weight\":1}]");
    assert_int_equal(f->doc->morph_count, MDL_MORPHS_MAX);
}

static void test_capture_morph(void **state)
{
    fx *f = *state;
    ok(f, "[" STRIP("s", "0") "," STRIP("t", "0") "," STRIP("u", "0") ","
          "{\"op\":\"polygon_mesh\",\"object\":\"tri\",\"positions\":[[0,0,0],[1,0,0],[0,1,0]],"
          "\"polygons\":[{\"vertices\":[0,1,2]}]}]");
    ok(f, "[{\"op\":\"delete_faces\",\"object\":\"u\",\"faces\":[\"2\"]}]");
    ok(f, "[{\"op\":\"transform\",\"object\":\"t\"," ALL6
          "\"matrix\":[[1,0,0,0],[0,1,0,0],[0,0,2,0],"
          "[0,0,0,1]]}]");
    /* t differs from s only by z scale (all z are 0): no deltas at all */
    ok(f, "[{\"op\":\"capture_morph\",\"name\":\"flat\",\"object\":\"s\",\"target\":\"t\"}]");
    assert_int_equal(morph(f, "flat")->delta_count, 0);
    ok(f, "[{\"op\":\"transform\",\"object\":\"t\"," ALL6 "\"matrix\":[[1,0,0,0.5],[0,1,0,0],"
          "[0,0,1,0],[0,0,0,1]]},"
          "{\"op\":\"capture_morph\",\"name\":\"shift\",\"object\":\"s\",\"target\":\"t\","
          "\"weight\":0.5}]");
    const mdl_morph *m = morph(f, "shift");
    assert_int_equal(m->delta_count, 6);
    assert_true(m->deltas[0].delta[0] == 0.5);
    assert_true(m->deltas[0].delta[1] == 0.0);
    assert_true(m->weight == 0.5);
    refused(f, "[{\"op\":\"capture_morph\",\"name\":\"x\",\"object\":\"s\",\"target\":\"u\"}]",
            "topology_mismatch");
    refused(f, "[{\"op\":\"capture_morph\",\"name\":\"x\",\"object\":\"s\",\"target\":\"tri\"}]",
            "topology_mismatch");
    refused(f, "[{\"op\":\"capture_morph\",\"name\":\"x\",\"object\":\"s\",\"target\":\"s\"}]",
            "topology_mismatch");
    refused(f, "[{\"op\":\"capture_morph\",\"name\":\"x\",\"object\":\"s\",\"target\":\"q\"}]",
            "unknown_object");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_weight_locks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_assign_and_locks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_normalize, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bind_nearest_bone, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bind_needs_skeleton, setup, teardown),
        cmocka_unit_test_setup_teardown(test_smooth, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mirror, setup, teardown),
        cmocka_unit_test_setup_teardown(test_transfer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_morph, setup, teardown),
        cmocka_unit_test_setup_teardown(test_morph_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_capture_morph, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
