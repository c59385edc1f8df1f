/* The surface and rig operations (material, texture_solid, paint_texture,
 * skeleton, weights, auto_weights, clip, delete_clip) run on a context
 * built here, and compile: a cube splits into 24 vertices and 12
 * triangles with outward normals and bounds, smooth faces share averaged
 * normals, a texture comes back as a decodable PNG, a skinned two-joint
 * mesh with a clip loads back with one skin, one animation and weights
 * that sum to one; the refusals (triangle limit, binary32 range, nothing
 * to compile, invalid skins, cancellation); the bytes are the same every
 * time; and the lint verifier accepts what compile writes.
 *
 * With MDL_COMPILE_DUMP=DIR set, every compiled GLB is also written to
 * DIR (for running the Khronos validator over them by hand). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/json.h"
#include "animsmith/json_write.h"
#include "animsmith/lint.h"
#include "animsmith/model.h"
#include "model/mdl_compile.h"
#include "model/mdl_ops.h"

/* ---- an operation context of our own */

typedef struct fx {
    mdl_doc *doc;
    anim_model_limits limits;
    mdl_result result;
    mdl_ctx ctx;
} fx;

static void fx_init(fx *f)
{
    memset(f, 0, sizeof *f);
    f->doc = mdl_doc_new();
    assert_non_null(f->doc);
    anim_model_limits_default(&f->limits);
}

static void result_reset(mdl_result *r)
{
    free(r->faces);
    free(r->vertices);
    for (uint32_t i = 0; i < r->note_count; i++)
        free(r->notes[i]);
    memset(r, 0, sizeof *r);
}

static void fx_free(fx *f)
{
    result_reset(&f->result);
    mdl_doc_free(f->doc);
}

/* Validates and runs one operation; returns its rc (refusal in f->ctx). */
static int run(fx *f, const char *json)
{
    result_reset(&f->result);
    memset(&f->ctx, 0, sizeof f->ctx);
    f->ctx.doc = f->doc;
    f->ctx.limits = &f->limits;
    f->ctx.result = &f->result;
    f->ctx.work_budget = f->limits.max_work_units;
    anim_arena *arena = anim_arena_new();
    anim_error err;
    memset(&err, 0, sizeof err);
    anim_json_value *op = anim_json_parse(arena, json, strlen(json), NULL, &err);
    if (!op)
        fail_msg("bad test JSON: %s: %s", err.message, json);
    int rc = mdl_validate_op(&f->ctx, op);
    if (rc == 0) {
        const mdl_op_def *def = mdl_op_find(f->ctx.op, strlen(f->ctx.op));
        assert_non_null(def);
        rc = def->run(&f->ctx, op);
    }
    anim_arena_free(arena);
    return rc;
}

static void ok(fx *f, const char *json)
{
    if (run(f, json) != 0)
        fail_msg("refused (%s: %s): %s", f->ctx.refusal_kind ? f->ctx.refusal_kind : "?",
                 f->ctx.refusal, json);
}

static void refused(fx *f, const char *json, const char *kind)
{
    assert_int_equal(run(f, json), -1);
    if (!f->ctx.refusal_kind || strcmp(f->ctx.refusal_kind, kind) != 0)
        fail_msg("expected %s, got %s (%s): %s", kind,
                 f->ctx.refusal_kind ? f->ctx.refusal_kind : "(none)", f->ctx.refusal, json);
}

/* ---- geometry built directly */

static uint64_t cube_vertex[8];

static mdl_object *add_cube(mdl_doc *d, const char *name, double half, int32_t material)
{
    mdl_object *o = mdl_doc_add_object(d, name);
    assert_non_null(o);
    for (int i = 0; i < 8; i++) {
        double p[3] = {(i & 1) ? half : -half, (i & 2) ? half : -half, (i & 4) ? half : -half};
        cube_vertex[i] = mdl_object_add_vertex(o, p);
        assert_true(cube_vertex[i] != 0);
    }
    static const int faces[6][4] = {{1, 3, 7, 5}, {0, 4, 6, 2}, {2, 6, 7, 3},
                                    {0, 1, 5, 4}, {4, 5, 7, 6}, {0, 2, 3, 1}};
    for (int f = 0; f < 6; f++) {
        uint64_t v[4];
        double uv[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
        for (int k = 0; k < 4; k++)
            v[k] = cube_vertex[faces[f][k]];
        assert_true(mdl_object_add_face(o, v, (const double(*)[2])uv, 4, material, false) != 0);
    }
    return o;
}

/* ---- compile helpers */

static void dump(const anim_strbuf *glb, const char *name)
{
    const char *dir = getenv("MDL_COMPILE_DUMP");
    if (!dir)
        return;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.glb", dir, name);
    FILE *fp = fopen(path, "wb");
    if (fp) {
        fwrite(glb->data, 1, glb->len, fp);
        fclose(fp);
    }
}

static void compile_ok(const mdl_doc *d, bool preview, const anim_model_limits *lim,
                       anim_strbuf *glb, mdl_compile_info *info, const char *name)
{
    anim_model_fault fault;
    memset(&fault, 0, sizeof fault);
    if (mdl_compile(d, preview, lim, NULL, glb, info, &fault) != 0)
        fail_msg("compile refused: %s: %s", fault.kind, fault.message);
    anim_strbuf_free(&fault.data);
    dump(glb, name);
    /* The lint layer's mechanical checks accept it. */
    anim_strbuf finding = ANIM_STRBUF_INIT;
    anim_error err;
    memset(&err, 0, sizeof err);
    int v = anim_lint_verify_glb(glb->data, glb->len, NULL, &finding, &err);
    if (v != 0)
        fail_msg("verify %d: %s %s", v, finding.data ? finding.data : "", err.message);
    anim_strbuf_free(&finding);
}

static void compile_refused(const mdl_doc *d, bool preview, const anim_model_limits *lim,
                            const volatile int *cancel, const char *kind, const char *needle)
{
    anim_model_fault fault;
    memset(&fault, 0, sizeof fault);
    anim_strbuf glb = ANIM_STRBUF_INIT;
    mdl_compile_info info;
    assert_int_equal(mdl_compile(d, preview, lim, cancel, &glb, &info, &fault), -1);
    if (strcmp(fault.kind, kind) != 0)
        fail_msg("expected %s, got %s: %s", kind, fault.kind, fault.message);
    if (needle && !strstr(fault.message, needle))
        fail_msg("message lacks \"%s\": %s", needle, fault.message);
    assert_int_equal(glb.len, 0);
    anim_strbuf_free(&glb);
    anim_strbuf_free(&fault.data);
}

static anim_asset *load(const anim_strbuf *glb)
{
    anim_error err;
    memset(&err, 0, sizeof err);
    anim_asset *a = anim_asset_load_memory(glb->data, glb->len, true, NULL, "t.glb", NULL, &err);
    if (!a)
        fail_msg("load: %s", err.message);
    return a;
}

static const anim_json_value *path_get(const anim_json_value *v, const char *const *keys)
{
    for (; *keys && v; keys++) {
        if (**keys >= '0' && **keys <= '9')
            v = anim_json_item(v, (size_t)atoi(*keys));
        else
            v = anim_json_get(v, *keys);
    }
    return v;
}

#define JGET(root, ...) path_get((root), (const char *const[]){__VA_ARGS__, NULL})

/* The values of accessor a (count set). malloc'd. */
static double *read_accessor(const anim_asset *a, int64_t index, size_t comps, size_t *count)
{
    const anim_json_value *acc = JGET(a->source.root, "accessors");
    assert_non_null(acc);
    *count = (size_t)anim_json_integer(anim_json_get(anim_json_item(acc, (size_t)index), "count"));
    double *out = malloc((*count * comps + 1) * sizeof *out);
    assert_non_null(out);
    anim_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(anim_accessor_read_f64(&a->source, (uint32_t)index, out, &err), 0);
    return out;
}

/* ---- operations */

static void test_material_ops(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    ok(&f, "{\"op\":\"material\",\"material\":3,\"color\":[0.5,0.25,1]}");
    assert_true(f.doc->materials[3].defined);
    assert_true(f.doc->materials[3].color[1] == 0.25);
    assert_null(f.result.object);
    refused(&f, "{\"op\":\"material\",\"material\":512,\"color\":[0,0,0]}", "out_of_range");
    refused(&f, "{\"op\":\"material\",\"material\":1,\"color\":[0,1.5,0]}", "out_of_range");

    refused(&f, "{\"op\":\"texture_solid\",\"material\":2,\"width\":4,\"height\":2,"
                "\"color\":[1,2,3]}",
            "undefined_material");
    refused(&f, "{\"op\":\"texture_solid\",\"material\":3,\"width\":4097,\"height\":2,"
                "\"color\":[1,2,3]}",
            "out_of_range");
    f.limits.max_memory_bytes = 23;
    refused(&f, "{\"op\":\"texture_solid\",\"material\":3,\"width\":4,\"height\":2,"
                "\"color\":[1,2,3]}",
            "limit_exceeded");
    assert_non_null(strstr(f.ctx.refusal, "max_memory_bytes"));
    f.limits.max_memory_bytes = 24;
    ok(&f, "{\"op\":\"texture_solid\",\"material\":3,\"width\":4,\"height\":2,"
           "\"color\":[1,2,3]}");
    const mdl_texture *t = f.doc->materials[3].texture;
    assert_non_null(t);
    assert_int_equal(t->width, 4);
    assert_int_equal(t->height, 2);
    for (int i = 0; i < 8; i++)
        assert_memory_equal(t->rgb + 3 * i, "\1\2\3", 3);

    refused(&f, "{\"op\":\"paint_texture\",\"material\":0,\"center\":[0.5,0.5],\"radius\":0.1,"
                "\"color\":[9,9,9]}",
            "no_texture");
    refused(&f, "{\"op\":\"paint_texture\",\"material\":3,\"center\":[0.5,0.5],\"radius\":0,"
                "\"color\":[9,9,9]}",
            "out_of_range");
    /* A version sharing the texture must not see the paint. */
    mdl_doc *before = mdl_doc_share(f.doc);
    assert_non_null(before);
    /* Texel centres: x (0.125, 0.375, 0.625, 0.875), y (0.25, 0.75).
     * Within 0.3 of (0.1, 0.25): x = 0.125 and 0.375 of row 0. */
    ok(&f, "{\"op\":\"paint_texture\",\"material\":3,\"center\":[0.1,0.25],\"radius\":0.3,"
           "\"color\":[200,100,50]}");
    t = f.doc->materials[3].texture;
    assert_memory_equal(t->rgb + 0, "\310\144\062", 3);
    assert_memory_equal(t->rgb + 3, "\310\144\062", 3);
    assert_memory_equal(t->rgb + 6, "\1\2\3", 3);
    assert_memory_equal(t->rgb + 12, "\1\2\3", 3); /* row 1, x 0: 0.5 away */
    assert_memory_equal(before->materials[3].texture->rgb, "\1\2\3", 3);
    mdl_doc_free(before);

    /* Redefining the material drops its texture. */
    ok(&f, "{\"op\":\"material\",\"material\":3,\"color\":[0,0,0]}");
    assert_null(f.doc->materials[3].texture);
    fx_free(&f);
}

static const char *const three_joints =
    "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"root\",\"translation\":[0,0,0]},"
    "{\"name\":\"up\",\"parent\":0,\"translation\":[0,1,0]},"
    "{\"name\":\"side\",\"parent\":0,\"translation\":[1,0,0]}]}";

static void test_skeleton_op(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    ok(&f, three_joints);
    assert_int_equal(f.doc->joint_count, 3);
    assert_int_equal(f.doc->joints[0].parent, MDL_NO_PARENT);
    assert_int_equal(f.doc->joints[2].parent, 0);
    assert_true(f.doc->joints[1].translation[1] == 1);
    assert_true(f.doc->joints[1].rotation[3] == 1 && f.doc->joints[1].scale[2] == 1);
    assert_null(f.result.object);

    /* An explicit null parent is the root, the same as an absent one. */
    ok(&f, "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"root\",\"parent\":null,"
           "\"translation\":[0,0,0]},{\"name\":\"up\",\"parent\":0,\"translation\":[0,1,0]}]}");
    assert_int_equal(f.doc->joint_count, 2);
    assert_int_equal(f.doc->joints[0].parent, MDL_NO_PARENT);
    refused(&f, "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"a\",\"translation\":[0,0,0]},"
                "{\"name\":\"b\",\"parent\":null,\"translation\":[0,0,0]}]}",
            "invalid_skeleton");
    refused(&f, "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"a\",\"parent\":\"0\","
                "\"translation\":[0,0,0]}]}",
            "wrong_type");
    assert_non_null(strstr(f.ctx.refusal, "an integer or null"));
    ok(&f, three_joints);

    refused(&f, "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"a\",\"translation\":[0,0,0]},"
                "{\"name\":\"b\",\"translation\":[0,0,0]}]}",
            "invalid_skeleton");
    refused(&f, "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"a\",\"parent\":0,"
                "\"translation\":[0,0,0]}]}",
            "invalid_skeleton");
    refused(&f, "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"a\",\"translation\":[0,0,0]},"
                "{\"name\":\"b\",\"parent\":1,\"translation\":[0,0,0]}]}",
            "invalid_skeleton");
    refused(&f, "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"a\",\"translation\":[0,0,0]},"
                "{\"name\":\"a\",\"parent\":0,\"translation\":[0,0,0]}]}",
            "invalid_skeleton");
    refused(&f, "{\"op\":\"skeleton\",\"joints\":[]}", "out_of_range");
    assert_int_equal(f.doc->joint_count, 3); /* refusals changed nothing */

    /* Weights and clips on joint 2 ("side") refuse a skeleton without that name. */
    add_cube(f.doc, "box", 0.5, 0);
    ok(&f, "{\"op\":\"weights\",\"object\":\"box\",\"vertex\":\"4\","
           "\"weights\":[{\"joint\":2,\"weight\":1}]}");
    const char *two = "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"a\",\"translation\":[0,0,0]},"
                      "{\"name\":\"b\",\"parent\":0,\"translation\":[0,0,0]}]}";
    refused(&f, two, "invalid_skeleton");
    assert_non_null(strstr(f.ctx.refusal, "\"box\""));
    ok(&f, "{\"op\":\"weights\",\"object\":\"box\",\"vertex\":\"4\",\"weights\":[]}");
    ok(&f, "{\"op\":\"clip\",\"name\":\"wave\",\"channels\":[{\"joint\":2,\"path\":\"scale\","
           "\"keys\":[{\"time\":0,\"value\":[1,1,1,0]}]}]}");
    refused(&f, two, "invalid_skeleton");
    assert_non_null(strstr(f.ctx.refusal, "\"wave\""));
    ok(&f, "{\"op\":\"delete_clip\",\"name\":\"wave\"}");
    ok(&f, two);
    assert_int_equal(f.doc->joint_count, 2);
    fx_free(&f);
}

static void test_weights_op(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    add_cube(f.doc, "box", 0.5, 0);
    const char *w1 = "{\"op\":\"weights\",\"object\":\"box\",\"vertex\":\"2\","
                     "\"weights\":[{\"joint\":1,\"weight\":0.25},{\"joint\":0,\"weight\":0.75},"
                     "{\"joint\":2,\"weight\":0}]}";
    refused(&f, w1, "unknown_joint"); /* no skeleton yet */
    ok(&f, three_joints);
    refused(&f, "{\"op\":\"weights\",\"object\":\"nope\",\"vertex\":\"2\",\"weights\":[]}",
            "unknown_object");
    refused(&f, "{\"op\":\"weights\",\"object\":\"box\",\"vertex\":\"99\",\"weights\":[]}",
            "unknown_vertex");
    refused(&f, "{\"op\":\"weights\",\"object\":\"box\",\"vertex\":\"2\","
                "\"weights\":[{\"joint\":3,\"weight\":1}]}",
            "unknown_joint");
    refused(&f, "{\"op\":\"weights\",\"object\":\"box\",\"vertex\":\"2\","
                "\"weights\":[{\"joint\":1,\"weight\":0.5},{\"joint\":1,\"weight\":0.5}]}",
            "invalid_operation");
    refused(&f, "{\"op\":\"weights\",\"object\":\"box\",\"vertex\":\"2\","
                "\"weights\":[{\"joint\":1,\"weight\":1.5}]}",
            "out_of_range");
    ok(&f, w1);
    assert_string_equal(f.result.object, "box");
    assert_int_equal(f.result.vertex_count, 1);
    assert_int_equal(f.result.vertices[0], 2);
    const mdl_object *o = f.doc->objects[0];
    size_t first, n = mdl_object_vertex_weights(o, 2, &first);
    assert_int_equal(n, 2); /* the zero weight is not stored */
    assert_int_equal(o->weights[first].joint, 0);
    assert_true(o->weights[first].weight == 0.75);
    assert_int_equal(o->weights[first + 1].joint, 1);
    /* The same weights again change nothing and select nothing. */
    ok(&f, w1);
    assert_int_equal(f.result.vertex_count, 0);
    /* An empty list clears them. */
    ok(&f, "{\"op\":\"weights\",\"object\":\"box\",\"vertex\":\"2\",\"weights\":[]}");
    assert_int_equal(mdl_object_vertex_weights(f.doc->objects[0], 2, &first), 0);
    assert_int_equal(f.result.vertex_count, 1);
    fx_free(&f);
}

static void test_auto_weights_op(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    mdl_object *o = mdl_doc_add_object(f.doc, "limb");
    /* Bone 0 runs from the root to its first child "up" at (0,1,0); "up"
     * and "side" are leaves (points). */
    const double p[4][3] = {{0, 0.5, 0.1}, {1.1, 0, 0}, {0, 1.5, 0}, {0.2, 1.2, 0}};
    for (int i = 0; i < 4; i++)
        assert_true(mdl_object_add_vertex(o, p[i]) != 0);
    refused(&f, "{\"op\":\"auto_weights\",\"object\":\"limb\"}", "invalid_skeleton");
    ok(&f, three_joints);
    refused(&f, "{\"op\":\"auto_weights\",\"object\":\"arm\"}", "unknown_object");
    ok(&f, "{\"op\":\"auto_weights\",\"object\":\"limb\"}");
    o = f.doc->objects[0];
    assert_int_equal(o->weight_count, 4);
    assert_int_equal(f.result.vertex_count, 4);
    const uint32_t want[4] = {0, 2, 0, 0}; /* vertex 3 and 4: ties go to joint 0 */
    for (int i = 0; i < 4; i++) {
        assert_int_equal(o->weights[i].vertex, (uint64_t)i + 1);
        assert_int_equal(o->weights[i].joint, want[i]);
        assert_true(o->weights[i].weight == 1.0);
    }
    /* Unchanged on a second run: nothing selected. */
    ok(&f, "{\"op\":\"auto_weights\",\"object\":\"limb\"}");
    assert_int_equal(f.result.vertex_count, 0);
    fx_free(&f);
}

static void test_clip_ops(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    ok(&f, three_joints);
    ok(&f, "{\"op\":\"clip\",\"name\":\"walk\",\"channels\":["
           "{\"joint\":1,\"path\":\"rotation\",\"keys\":[{\"time\":0,\"value\":[0,0,0,1]},"
           "{\"time\":0.5,\"value\":[0,0.70710678118654752,0,0.70710678118654752]}]},"
           "{\"joint\":1,\"path\":\"translation\",\"keys\":[{\"time\":0,\"value\":[0,1,0,0]}]}]}");
    assert_int_equal(f.doc->clip_count, 1);
    assert_null(f.result.object);
    const mdl_clip *c = f.doc->clips[0];
    assert_string_equal(c->name, "walk");
    assert_int_equal(c->channel_count, 2);
    assert_int_equal(c->channels[0].path, MDL_PATH_ROTATION);
    assert_int_equal(c->channels[0].key_count, 2);
    assert_true(c->channels[0].keys[1].time == 0.5);

    refused(&f, "{\"op\":\"clip\",\"name\":\"x\",\"channels\":[{\"joint\":3,"
                "\"path\":\"scale\",\"keys\":[{\"time\":0,\"value\":[1,1,1,0]}]}]}",
            "unknown_joint");
    refused(&f, "{\"op\":\"clip\",\"name\":\"x\",\"channels\":[{\"joint\":0,"
                "\"path\":\"scale\",\"keys\":[{\"time\":0,\"value\":[1,1,1,0]},"
                "{\"time\":0,\"value\":[1,1,1,0]}]}]}",
            "invalid_clip");
    refused(&f, "{\"op\":\"clip\",\"name\":\"x\",\"channels\":[{\"joint\":0,"
                "\"path\":\"rotation\",\"keys\":[{\"time\":0,\"value\":[0,0,0,1.00001]}]}]}",
            "invalid_clip");
    refused(&f, "{\"op\":\"clip\",\"name\":\"x\",\"channels\":[{\"joint\":0,"
                "\"path\":\"translation\",\"keys\":[{\"time\":0,\"value\":[0,0,0,1]}]}]}",
            "invalid_clip");
    refused(&f, "{\"op\":\"clip\",\"name\":\"x\",\"channels\":[{\"joint\":0,"
                "\"path\":\"scale\",\"keys\":[{\"time\":0,\"value\":[1,0,1,0]}]}]}",
            "invalid_clip");
    refused(&f, "{\"op\":\"clip\",\"name\":\"x\",\"channels\":["
                "{\"joint\":0,\"path\":\"scale\",\"keys\":[{\"time\":0,\"value\":[1,1,1,0]}]},"
                "{\"joint\":0,\"path\":\"scale\",\"keys\":[{\"time\":1,\"value\":[1,1,1,0]}]}]}",
            "invalid_clip");
    refused(&f, "{\"op\":\"clip\",\"name\":\"x\",\"channels\":[{\"joint\":0,"
                "\"path\":\"spin\",\"keys\":[{\"time\":0,\"value\":[1,1,1,0]}]}]}",
            "out_of_range");
    refused(&f, "{\"op\":\"clip\",\"name\":\"x\",\"channels\":[{\"joint\":0,"
                "\"path\":\"scale\",\"keys\":[{\"time\":-1,\"value\":[1,1,1,0]}]}]}",
            "out_of_range");
    assert_int_equal(f.doc->clip_count, 1);

    /* Same name: replaced. */
    ok(&f, "{\"op\":\"clip\",\"name\":\"walk\",\"channels\":[{\"joint\":2,\"path\":\"scale\","
           "\"keys\":[{\"time\":0,\"value\":[2,2,2,0]}]}]}");
    assert_int_equal(f.doc->clip_count, 1);
    assert_int_equal(f.doc->clips[0]->channels[0].joint, 2);
    ok(&f, "{\"op\":\"clip\",\"name\":\"idle\",\"channels\":[{\"joint\":0,\"path\":\"scale\","
           "\"keys\":[{\"time\":0,\"value\":[1,1,1,0]}]}]}");
    assert_int_equal(f.doc->clip_count, 2);
    assert_string_equal(f.doc->clips[0]->name, "idle");

    refused(&f, "{\"op\":\"delete_clip\",\"name\":\"run\"}", "unknown_clip");
    ok(&f, "{\"op\":\"delete_clip\",\"name\":\"walk\"}");
    assert_int_equal(f.doc->clip_count, 1);
    assert_null(f.result.object);
    fx_free(&f);
}

/* ---- compile */

static void test_compile_cube(void **state)
{
    (void)state;
    mdl_doc *d = mdl_doc_new();
    add_cube(d, "box", 0.5, 0);
    anim_model_limits lim;
    anim_model_limits_default(&lim);
    anim_strbuf glb = ANIM_STRBUF_INIT;
    mdl_compile_info info;
    compile_ok(d, false, &lim, &glb, &info, "cube");
    assert_int_equal(info.objects, 1);
    assert_int_equal(info.primitives, 1);
    assert_int_equal(info.vertices, 24);
    assert_int_equal(info.triangles, 12);
    assert_int_equal(info.materials, 1);
    assert_int_equal(info.textures, 0);
    assert_int_equal(info.joints, 0);
    assert_int_equal(info.nonplanar_faces, 0);
    assert_false(info.skinned);
    for (int k = 0; k < 3; k++) {
        assert_true(info.min[k] == -0.5);
        assert_true(info.max[k] == 0.5);
    }
    anim_strbuf js = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &js, false);
    anim_json_writer_begin_object(&w);
    mdl_compile_info_write(&info, &w);
    anim_json_writer_end_object(&w);
    assert_string_equal(js.data,
                        "{\"bounds\":{\"min\":[-0.5,-0.5,-0.5],\"max\":[0.5,0.5,0.5]},"
                        "\"counts\":{\"objects\":1,\"primitives\":1,\"vertices\":24,"
                        "\"triangles\":12,\"materials\":1,\"textures\":0,\"joints\":0,"
                        "\"clips\":0,\"nonplanar_faces\":0},\"skinned\":false}");
    anim_strbuf_free(&js);

    anim_asset *a = load(&glb);
    const anim_json_value *root = a->source.root;
    assert_true(anim_json_string_eq(JGET(root, "nodes", "0", "name"), "box"));
    const anim_json_value *prim = JGET(root, "meshes", "0", "primitives", "0");
    assert_non_null(prim);
    /* Default material: 0.8 grey, metallic 0, roughness 1. */
    const anim_json_value *pbr = JGET(root, "materials", "0", "pbrMetallicRoughness");
    assert_true(anim_json_number(JGET(pbr, "baseColorFactor", "0")) == 0.800000011920929 ||
                anim_json_number(JGET(pbr, "baseColorFactor", "0")) == 0.8);
    assert_true(anim_json_number(JGET(pbr, "metallicFactor")) == 0);
    assert_true(anim_json_number(JGET(pbr, "roughnessFactor")) == 1);
    /* Face provenance: six faces of two triangles each, in id order. */
    const anim_json_value *faces = JGET(prim, "extras", "animsmith", "faces");
    assert_int_equal(anim_json_count(faces), 6);
    assert_true(anim_json_string_eq(JGET(prim, "extras", "animsmith", "object"), "box"));
    for (size_t i = 0; i < 6; i++) {
        char id[8];
        snprintf(id, sizeof id, "%zu", i + 1);
        const anim_json_value *row = anim_json_item(faces, i);
        assert_true(anim_json_string_eq(anim_json_item(row, 0), id));
        assert_int_equal(anim_json_integer(anim_json_item(row, 1)), (int64_t)(2 * i));
        assert_int_equal(anim_json_integer(anim_json_item(row, 2)), 2);
    }
    /* Outward unit normals, flat per face. */
    size_t n, np;
    double *nrm = read_accessor(a, anim_json_integer(JGET(prim, "attributes", "NORMAL")), 3, &n);
    double *pos =
        read_accessor(a, anim_json_integer(JGET(prim, "attributes", "POSITION")), 3, &np);
    assert_int_equal(n, 24);
    assert_int_equal(np, 24);
    for (size_t i = 0; i < n; i++) {
        double *v = nrm + 3 * i, *p = pos + 3 * i;
        assert_true(fabs(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] - 1) < 1e-6);
        assert_true(v[0] * p[0] + v[1] * p[1] + v[2] * p[2] > 0.49);
        assert_true(fabs(v[0]) + fabs(v[1]) + fabs(v[2]) == 1);
    }
    free(nrm);
    free(pos);
    /* 16-bit indices for 24 vertices. */
    int64_t ia = anim_json_integer(JGET(prim, "indices"));
    const anim_json_value *iacc = anim_json_item(JGET(root, "accessors"), (size_t)ia);
    assert_int_equal(anim_json_integer(anim_json_get(iacc, "componentType")), 5123);
    assert_int_equal(anim_json_integer(anim_json_get(iacc, "count")), 36);
    anim_asset_free(a);

    /* Deterministic: the same document gives the same bytes. */
    anim_strbuf again = ANIM_STRBUF_INIT;
    compile_ok(d, false, &lim, &again, NULL, "cube2");
    assert_int_equal(again.len, glb.len);
    assert_memory_equal(again.data, glb.data, glb.len);
    anim_strbuf_free(&again);
    anim_strbuf_free(&glb);
    mdl_doc_free(d);
}

static void test_compile_smooth_and_explicit_normals(void **state)
{
    (void)state;
    mdl_doc *d = mdl_doc_new();
    mdl_object *o = mdl_doc_add_object(d, "roof");
    /* Two smooth quads meeting at a ridge along z: the ridge vertices get
     * the averaged normal (0, 1, 0), so they are shared: 6 vertices. */
    const double p[6][3] = {{-1, 0, 0}, {0, 1, 0}, {1, 0, 0}, {-1, 0, -1}, {0, 1, -1}, {1, 0, -1}};
    uint64_t v[6];
    for (int i = 0; i < 6; i++)
        v[i] = mdl_object_add_vertex(o, p[i]);
    uint64_t q1[4] = {v[0], v[1], v[4], v[3]};
    uint64_t q2[4] = {v[1], v[2], v[5], v[4]};
    /* Both wind counter-clockwise seen from above (normals up-left, up-right). */
    assert_true(mdl_object_add_face(o, q1, NULL, 4, 0, true) != 0);
    assert_true(mdl_object_add_face(o, q2, NULL, 4, 0, true) != 0);
    anim_model_limits lim;
    anim_model_limits_default(&lim);
    anim_strbuf glb = ANIM_STRBUF_INIT;
    mdl_compile_info info;
    compile_ok(d, false, &lim, &glb, &info, "smooth");
    assert_int_equal(info.vertices, 6);
    anim_asset *a = load(&glb);
    const anim_json_value *prim = JGET(a->source.root, "meshes", "0", "primitives", "0");
    size_t n, np;
    double *nrm = read_accessor(a, anim_json_integer(JGET(prim, "attributes", "NORMAL")), 3, &n);
    double *pos =
        read_accessor(a, anim_json_integer(JGET(prim, "attributes", "POSITION")), 3, &np);
    double sign = 0;
    for (size_t i = 0; i < n; i++) {
        if (pos[3 * i] == 0) {
            assert_true(fabs(nrm[3 * i]) < 1e-7 && fabs(fabs(nrm[3 * i + 1]) - 1) < 1e-7);
            sign = nrm[3 * i + 1];
        } else {
            /* Outer vertices: the face normal (±0.7071, ±0.7071, 0). */
            assert_true(fabs(fabs(nrm[3 * i]) - sqrt(0.5)) < 1e-6);
        }
    }
    assert_true(sign != 0);
    free(nrm);
    free(pos);
    anim_asset_free(a);
    anim_strbuf_free(&glb);

    /* An explicit corner normal splits its corner off. */
    o = mdl_doc_edit_object(d, "roof", &(bool){false});
    o->corners[1].has_normal = true;
    o->corners[1].normal[0] = 0;
    o->corners[1].normal[1] = 0;
    o->corners[1].normal[2] = 1;
    compile_ok(d, false, &lim, &glb, &info, "explicit");
    assert_int_equal(info.vertices, 7);
    anim_strbuf_free(&glb);
    mdl_doc_free(d);
}

static void test_compile_textured(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    add_cube(f.doc, "crate", 0.5, 0);
    add_cube(f.doc, "apple", 0.25, 7); /* ordinal 7 undefined: default grey */
    ok(&f, "{\"op\":\"material\",\"material\":0,\"color\":[1,0.5,0.25]}");
    ok(&f, "{\"op\":\"texture_solid\",\"material\":0,\"width\":3,\"height\":2,"
           "\"color\":[10,20,30]}");
    ok(&f, "{\"op\":\"paint_texture\",\"material\":0,\"center\":[0,0],\"radius\":0.35,"
           "\"color\":[250,0,0]}");
    anim_strbuf glb = ANIM_STRBUF_INIT;
    mdl_compile_info info;
    compile_ok(f.doc, false, &f.limits, &glb, &info, "textured");
    assert_int_equal(info.objects, 2);
    assert_int_equal(info.materials, 2);
    assert_int_equal(info.textures, 1);
    assert_true(info.min[0] == -0.5 && info.max[1] == 0.5);
    anim_asset *a = load(&glb);
    const anim_json_value *root = a->source.root;
    /* Objects in name order. */
    assert_true(anim_json_string_eq(JGET(root, "nodes", "0", "name"), "apple"));
    assert_true(anim_json_string_eq(JGET(root, "nodes", "1", "name"), "crate"));
    const anim_json_value *m0 = JGET(root, "materials", "0", "pbrMetallicRoughness");
    assert_true(anim_json_number(JGET(m0, "baseColorFactor", "1")) == 0.5);
    assert_int_equal(anim_json_integer(JGET(m0, "baseColorTexture", "index")), 0);
    assert_null(JGET(root, "materials", "1", "pbrMetallicRoughness", "baseColorTexture"));
    assert_true(anim_json_string_eq(JGET(root, "images", "0", "mimeType"), "image/png"));
    assert_non_null(JGET(root, "textures", "0", "sampler"));
    /* The PNG decodes back to 3x2 with the painted corner. */
    int64_t view = anim_json_integer(JGET(root, "images", "0", "bufferView"));
    const anim_json_value *bv = anim_json_item(JGET(root, "bufferViews"), (size_t)view);
    const anim_json_value *off = anim_json_get(bv, "byteOffset");
    size_t o = off ? (size_t)anim_json_integer(off) : 0;
    size_t len = (size_t)anim_json_integer(anim_json_get(bv, "byteLength"));
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    assert_true(png_image_begin_read_from_memory(&img, a->source.bytes + a->source.bin_offset + o,
                                                 len) != 0);
    assert_int_equal(img.width, 3);
    assert_int_equal(img.height, 2);
    img.format = PNG_FORMAT_RGB;
    unsigned char px[18];
    assert_true(png_image_finish_read(&img, NULL, px, 0, NULL) != 0);
    assert_memory_equal(px, "\372\0\0", 3);
    assert_memory_equal(px + 3, "\12\24\36", 3);
    anim_asset_free(a);
    anim_strbuf_free(&glb);
    fx_free(&f);
}

static void test_compile_skinned(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    add_cube(f.doc, "body", 0.5, 0);
    ok(&f, "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"hips\",\"translation\":[0,-0.5,0]},"
           "{\"name\":\"chest\",\"parent\":0,\"translation\":[0,1,0]}]}");
    ok(&f, "{\"op\":\"auto_weights\",\"object\":\"body\"}");
    ok(&f, "{\"op\":\"weights\",\"object\":\"body\",\"vertex\":\"1\","
           "\"weights\":[{\"joint\":0,\"weight\":0.3},{\"joint\":1,\"weight\":0.3}]}");
    ok(&f, "{\"op\":\"clip\",\"name\":\"bend\",\"channels\":["
           "{\"joint\":1,\"path\":\"rotation\",\"keys\":[{\"time\":0,\"value\":[0,0,0,1]},"
           "{\"time\":1,\"value\":[0.38268343236508977,0,0,0.92387953251128674]}]},"
           "{\"joint\":0,\"path\":\"translation\",\"keys\":[{\"time\":0,\"value\":[0,-0.5,0,0]},"
           "{\"time\":1,\"value\":[0,-0.4,0,0]}]}]}");
    anim_strbuf glb = ANIM_STRBUF_INIT;
    mdl_compile_info info;
    compile_ok(f.doc, false, &f.limits, &glb, &info, "skinned");
    assert_true(info.skinned);
    assert_int_equal(info.joints, 2);
    assert_int_equal(info.clips, 1);
    anim_asset *a = load(&glb);
    assert_int_equal(a->doc.skin_count, 1);
    assert_int_equal(a->doc.clip_count, 1);
    const anim_json_value *root = a->source.root;
    assert_true(anim_json_string_eq(JGET(root, "animations", "0", "name"), "bend"));
    assert_true(anim_json_string_eq(
        JGET(root, "animations", "0", "samplers", "0", "interpolation"), "LINEAR"));
    /* The mesh node is a root of the scene, not a joint's child. */
    const anim_json_value *scene = JGET(root, "scenes", "0", "nodes");
    assert_int_equal(anim_json_count(scene), 2);
    assert_true(anim_json_string_eq(JGET(root, "nodes", "0", "name"), "hips"));
    assert_non_null(JGET(root, "nodes", "2", "skin"));
    const anim_json_value *prim = JGET(root, "meshes", "0", "primitives", "0");
    size_t n;
    double *w = read_accessor(a, anim_json_integer(JGET(prim, "attributes", "WEIGHTS_0")), 4, &n);
    assert_int_equal(n, 24);
    bool split = false;
    for (size_t i = 0; i < n; i++) {
        double s = w[4 * i] + w[4 * i + 1] + w[4 * i + 2] + w[4 * i + 3];
        assert_true(fabs(s - 1) < 1e-6);
        split = split || fabs(w[4 * i] - 0.5) < 1e-6;
    }
    assert_true(split); /* 0.3 / 0.3 normalized to 0.5 / 0.5 */
    free(w);
    anim_asset_free(a);
    anim_strbuf_free(&glb);

    /* The preview: no skin, no joints, no animation. */
    compile_ok(f.doc, true, &f.limits, &glb, &info, "preview");
    assert_false(info.skinned);
    assert_int_equal(info.joints, 0);
    assert_int_equal(info.clips, 0);
    a = load(&glb);
    assert_int_equal(a->doc.skin_count, 0);
    assert_int_equal(a->doc.clip_count, 0);
    assert_int_equal(a->doc.node_count, 1);
    anim_asset_free(a);
    anim_strbuf_free(&glb);

    /* A skinned object's unweighted vertex, and a fifth influence. */
    ok(&f, "{\"op\":\"weights\",\"object\":\"body\",\"vertex\":\"8\",\"weights\":[]}");
    compile_refused(f.doc, false, &f.limits, NULL, "invalid_skin", "vertex \"8\"");
    /* The weighted joints keep their names (and so their identities). */
    ok(&f, "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"hips\",\"translation\":[0,0,0]},"
           "{\"name\":\"chest\",\"parent\":0,\"translation\":[0,1,0]},"
           "{\"name\":\"c\",\"parent\":1,\"translation\":[0,1,0]},"
           "{\"name\":\"d\",\"parent\":2,\"translation\":[0,1,0]},"
           "{\"name\":\"e\",\"parent\":3,\"translation\":[0,1,0]}]}");
    ok(&f, "{\"op\":\"weights\",\"object\":\"body\",\"vertex\":\"8\",\"weights\":["
           "{\"joint\":0,\"weight\":0.2},{\"joint\":1,\"weight\":0.2},"
           "{\"joint\":2,\"weight\":0.2},{\"joint\":3,\"weight\":0.2},"
           "{\"joint\":4,\"weight\":0.2}]}");
    compile_refused(f.doc, false, &f.limits, NULL, "invalid_skin", "5 influences");
    /* The preview ignores skins. */
    compile_ok(f.doc, true, &f.limits, &glb, &info, "preview2");
    anim_strbuf_free(&glb);
    fx_free(&f);
}

static void test_compile_refusals(void **state)
{
    (void)state;
    mdl_doc *d = mdl_doc_new();
    anim_model_limits lim;
    anim_model_limits_default(&lim);
    compile_refused(d, false, &lim, NULL, "nothing_to_compile", NULL);
    mdl_doc_add_object(d, "empty");
    compile_refused(d, true, &lim, NULL, "nothing_to_compile", NULL);
    mdl_object *o = add_cube(d, "box", 0.5, 0);
    lim.max_compiled_triangles = 11;
    compile_refused(d, false, &lim, NULL, "limit_exceeded", "max_compiled_triangles");
    lim.max_compiled_triangles = 12;
    volatile int cancel = 1;
    compile_refused(d, false, &lim, &cancel, "cancelled", NULL);
    o->vertices[3].p[1] = 1e39;
    compile_refused(d, false, &lim, NULL, "f32_range", "vertex \"4\"");
    o->vertices[3].p[1] = 3e38; /* within binary32 */
    anim_strbuf glb = ANIM_STRBUF_INIT;
    anim_model_fault fault;
    memset(&fault, 0, sizeof fault);
    assert_int_equal(mdl_compile(d, false, &lim, NULL, &glb, NULL, &fault), 0);
    anim_strbuf_free(&glb);
    mdl_doc_free(d);

    /* A skeleton with a clip and no faces compiles; its preview does not. */
    fx f;
    fx_init(&f);
    ok(&f, three_joints);
    ok(&f, "{\"op\":\"clip\",\"name\":\"nod\",\"channels\":[{\"joint\":1,"
           "\"path\":\"translation\",\"keys\":[{\"time\":0,\"value\":[0,1,0,0]},"
           "{\"time\":1,\"value\":[0,1.5,0,0]}]}]}");
    mdl_compile_info info;
    anim_strbuf rig = ANIM_STRBUF_INIT;
    compile_ok(f.doc, false, &f.limits, &rig, &info, "rig");
    assert_int_equal(info.joints, 3);
    assert_int_equal(info.clips, 1);
    assert_int_equal(info.objects, 0);
    assert_false(info.skinned);
    anim_strbuf_free(&rig);
    compile_refused(f.doc, true, &f.limits, NULL, "nothing_to_compile", NULL);
    fx_free(&f);
}

/* Clip options set on the document directly (their operation lives
 * elsewhere): interpolation, root motion, one event, keys of one target. */
static void set_clip_options(mdl_doc *d, const char *clip, mdl_interp interp)
{
    ptrdiff_t ci = mdl_doc_find_clip(d, clip);
    assert_true(ci >= 0);
    mdl_clip *c = mdl_doc_edit_clip(d, (size_t)ci);
    assert_non_null(c);
    mdl_clip_clear_options(c);
    c->has_options = true;
    c->interpolation = interp;
    c->root_motion = true;
    c->events = calloc(1, sizeof *c->events);
    assert_non_null(c->events);
    c->events[0].time = 0.5;
    c->events[0].name = strdup("step");
    c->events[0].payload = strdup("left");
    c->events[0].payload_len = 4;
    c->event_count = 1;
    c->morph_tracks = calloc(1, sizeof *c->morph_tracks);
    assert_non_null(c->morph_tracks);
    c->morph_tracks[0].morph = strdup("puff");
    c->morph_tracks[0].keys = calloc(3, sizeof(mdl_morph_key));
    assert_non_null(c->morph_tracks[0].keys);
    c->morph_tracks[0].keys[0] = (mdl_morph_key){0, 0};
    c->morph_tracks[0].keys[1] = (mdl_morph_key){0.5, 1};
    c->morph_tracks[0].keys[2] = (mdl_morph_key){1, 0};
    c->morph_tracks[0].key_count = 3;
    c->morph_track_count = 1;
}

static void test_compile_morphs_and_clip_options(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    add_cube(f.doc, "body", 0.5, 0);
    ok(&f, "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"hips\",\"translation\":[0,-0.5,0]},"
           "{\"name\":\"chest\",\"parent\":0,\"translation\":[0,1,0]}]}");
    ok(&f, "{\"op\":\"auto_weights\",\"object\":\"body\"}");
    ok(&f, "{\"op\":\"morph\",\"name\":\"puff\",\"object\":\"body\",\"weight\":0.25,"
           "\"deltas\":[{\"vertex\":\"8\",\"delta\":[0.1,0.1,0.1]}]}");
    ok(&f, "{\"op\":\"morph\",\"name\":\"blink\",\"object\":\"body\",\"deltas\":["
           "{\"vertex\":\"1\",\"delta\":[0,-0.2,0]}]}");
    ok(&f, "{\"op\":\"clip\",\"name\":\"wave\",\"channels\":["
           "{\"joint\":1,\"path\":\"rotation\",\"keys\":[{\"time\":0,\"value\":[0,0,0,1]},"
           "{\"time\":1,\"value\":[0.38268343236508977,0,0,0.92387953251128674]}]}]}");
    set_clip_options(f.doc, "wave", MDL_INTERP_CUBIC);
    anim_strbuf glb = ANIM_STRBUF_INIT;
    mdl_compile_info info;
    compile_ok(f.doc, false, &f.limits, &glb, &info, "morphs_cubic");
    anim_asset *a = load(&glb);
    const anim_json_value *root = a->source.root;
    const anim_json_value *mesh = JGET(root, "meshes", "0");
    const anim_json_value *targets = JGET(mesh, "primitives", "0", "targets");
    assert_int_equal(anim_json_count(targets), 2);
    assert_true(anim_json_string_eq(JGET(mesh, "extras", "targetNames", "0"), "blink"));
    assert_true(anim_json_string_eq(JGET(mesh, "extras", "targetNames", "1"), "puff"));
    assert_int_equal(anim_json_count(JGET(mesh, "weights")), 2);
    assert_true(anim_json_number(JGET(mesh, "weights", "1")) == 0.25);
    size_t n;
    double *dp = read_accessor(a, anim_json_integer(JGET(targets, "1", "POSITION")), 3, &n);
    assert_int_equal(n, 24); /* one delta per glTF vertex */
    size_t moved = 0;
    for (size_t i = 0; i < n; i++)
        if (dp[3 * i] != 0) {
            assert_true(fabs(dp[3 * i] - 0.1) < 1e-6);
            moved++;
        }
    assert_int_equal(moved, 3); /* cube vertex 8 splits into three glTF vertices */
    free(dp);
    double *dn = read_accessor(a, anim_json_integer(JGET(targets, "1", "NORMAL")), 3, &n);
    assert_int_equal(n, 24);
    bool bent = false;
    for (size_t i = 0; i < 3 * n; i++)
        bent = bent || fabs(dn[i]) > 1e-3;
    assert_true(bent); /* moving a corner tilts the flat faces around it */
    free(dn);
    const anim_json_value *anim = JGET(root, "animations", "0");
    assert_true(anim_json_string_eq(JGET(anim, "samplers", "0", "interpolation"), "CUBICSPLINE"));
    size_t in_n, out_n;
    free(read_accessor(a, anim_json_integer(JGET(anim, "samplers", "0", "input")), 1, &in_n));
    free(read_accessor(a, anim_json_integer(JGET(anim, "samplers", "0", "output")), 4, &out_n));
    assert_int_equal(out_n, 3 * in_n);
    /* the weights channel on the mesh node (after the two joints) */
    assert_int_equal(anim_json_count(JGET(anim, "channels")), 2);
    assert_true(anim_json_string_eq(JGET(anim, "channels", "1", "target", "path"), "weights"));
    assert_int_equal(anim_json_integer(JGET(anim, "channels", "1", "target", "node")), 2);
    double *mw = read_accessor(a, anim_json_integer(JGET(anim, "samplers", "1", "output")), 1,
                               &out_n);
    assert_int_equal(out_n, 3 * 3 * 2); /* 3 keys x (in, value, out) x 2 targets */
    assert_true(mw[2 * 4 + 1] == 1.0);  /* key 1, value, puff */
    assert_true(mw[2 * 1 + 0] == 0.0);  /* blink holds its default */
    free(mw);
    assert_true(JGET(anim, "extras", "animsmith", "root_motion")->type == ANIM_JSON_TRUE);
    assert_true(anim_json_string_eq(JGET(anim, "extras", "animsmith", "events", "0", "name"),
                                    "step"));
    assert_true(anim_json_string_eq(
        JGET(anim, "extras", "animsmith", "events", "0", "payload"), "left"));
    assert_true(anim_json_number(JGET(anim, "extras", "animsmith", "events", "0", "time")) ==
                0.5);
    anim_asset_free(a);
    anim_strbuf_free(&glb);

    set_clip_options(f.doc, "wave", MDL_INTERP_STEP);
    compile_ok(f.doc, false, &f.limits, &glb, &info, "morphs_step");
    a = load(&glb);
    anim = JGET(a->source.root, "animations", "0");
    assert_true(anim_json_string_eq(JGET(anim, "samplers", "0", "interpolation"), "STEP"));
    assert_true(anim_json_string_eq(JGET(anim, "samplers", "1", "interpolation"), "STEP"));
    free(read_accessor(a, anim_json_integer(JGET(anim, "samplers", "1", "output")), 1, &out_n));
    assert_int_equal(out_n, 3 * 2);
    anim_asset_free(a);
    anim_strbuf_free(&glb);
    fx_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_material_ops),
        cmocka_unit_test(test_skeleton_op),
        cmocka_unit_test(test_weights_op),
        cmocka_unit_test(test_auto_weights_op),
        cmocka_unit_test(test_clip_ops),
        cmocka_unit_test(test_compile_cube),
        cmocka_unit_test(test_compile_smooth_and_explicit_normals),
        cmocka_unit_test(test_compile_textured),
        cmocka_unit_test(test_compile_skinned),
        cmocka_unit_test(test_compile_refusals),
        cmocka_unit_test(test_compile_morphs_and_clip_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
