/* The whole-document writer on small hand-written files: node renumbering
 * (skins, scenes, channels), mesh accessors copied as stored (padded
 * vertex strides, buffer-view targets, sparse blocks), morph-weight
 * animations, images (MIME sniffing, data URIs, files beside a .gltf),
 * carried and refused extensions, extras, determinism and sorted keys,
 * dropped clips and shared key times. Each document is loaded, written
 * (GLB and .gltf) and loaded again; the written JSON is read back through
 * the reloaded asset's source tree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "animsmith/gltf.h"
#include "animsmith/gltf_write.h"
#include "support/test_support.h"

static const char GENERATOR[] = "animsmith test";

/* ---- hand-written documents ------------------------------------------- */

/* The binary part of a hand-written .gltf: one buffer and its views. */
typedef struct bin_doc {
    anim_strbuf bin, views;
    uint32_t view_count;
} bin_doc;

/* Appends n bytes as a view (4-aligned; extra is appended to the view's
 * JSON, e.g. ",\"byteStride\":4") and returns its index. */
static uint32_t add_view(bin_doc *d, const void *p, size_t n, const char *extra)
{
    while (d->bin.len % 4)
        anim_strbuf_putc(&d->bin, '\0');
    anim_strbuf_printf(&d->views, "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu%s}",
                       d->view_count ? "," : "", d->bin.len, n, extra ? extra : "");
    anim_strbuf_append(&d->bin, p, n);
    return d->view_count++;
}

/* The document {body, buffers, bufferViews} as malloc'd text; body holds
 * the other root members (asset included) without the outer braces. */
static char *doc_text(bin_doc *d, const char *body, size_t *len)
{
    anim_strbuf js = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&js, "{%s", body);
    if (d && d->view_count) {
        anim_strbuf_printf(&js, ",\"buffers\":[{\"byteLength\":%zu,\"uri\":"
                                "\"data:application/octet-stream;base64,",
                           d->bin.len);
        test_support_base64_append(&js, d->bin.data, d->bin.len);
        anim_strbuf_printf(&js, "\"}],\"bufferViews\":[%s]", d->views.data);
    }
    anim_strbuf_putc(&js, '}');
    assert_false(js.failed);
    if (d) {
        anim_strbuf_free(&d->bin);
        anim_strbuf_free(&d->views);
    }
    *len = js.len;
    return js.data;
}

/* Loads doc_text(d, body) ("in.gltf"). */
static anim_asset *load_doc(bin_doc *d, const char *body)
{
    size_t len;
    char *text = doc_text(d, body, &len);
    anim_asset *a = test_support_load_gltf(text, len, "in.gltf");
    free(text);
    return a;
}

static const anim_gltf_format FORMATS[2] = {ANIM_GLTF_FORMAT_GLB, ANIM_GLTF_FORMAT_GLTF};

/* Writes the asset (doc NULL: its own) and loads the output; out keeps
 * the written bytes when given. */
static anim_asset *write_reload(const anim_asset *in, const anim_doc *doc, anim_gltf_format f,
                                anim_strbuf *out, anim_gltf_write_summary *sum)
{
    anim_strbuf local = ANIM_STRBUF_INIT;
    anim_strbuf *o = out ? out : &local;
    anim_error err;
    anim_error_clear(&err);
    if (anim_gltf_write_asset_mem(in, doc, f, GENERATOR, o, sum, &err) != 0)
        fail_msg("write failed: %s", err.message);
    anim_asset *back = anim_asset_load_memory(o->data, o->len, f == ANIM_GLTF_FORMAT_GLB, NULL,
                                              "written", NULL, &err);
    if (!back)
        fail_msg("reloading the written file: %s\n%.*s", err.message,
                 f == ANIM_GLTF_FORMAT_GLB ? 0 : (int)o->len, o->data);
    anim_strbuf_free(&local);
    return back;
}

/* The write must fail with code, and the message must hold needle. */
static void expect_refused(const anim_asset *in, anim_error_code code, const char *needle)
{
    for (int f = 0; f < 2; f++) {
        anim_strbuf out = ANIM_STRBUF_INIT;
        anim_error err;
        anim_error_clear(&err);
        assert_int_equal(anim_gltf_write_asset_mem(in, NULL, FORMATS[f], GENERATOR, &out, NULL,
                                                   &err),
                         -1);
        assert_int_equal(err.code, code);
        if (!strstr(err.message, needle))
            fail_msg("message \"%s\" does not name %s", err.message, needle);
        anim_strbuf_free(&out);
    }
}

/* ---- reading the written JSON ----------------------------------------- */

static const anim_json_value *root_item(const anim_asset *a, const char *key, uint32_t i)
{
    const anim_json_value *arr = anim_json_get(a->source.root, key);
    if (!arr || i >= anim_json_count(arr))
        fail_msg("%s[%u] is absent", key, i);
    return anim_json_item(arr, i);
}

/* Integer member key of obj (the test fails when absent). */
static int64_t int_of(const anim_json_value *obj, const char *key)
{
    const anim_json_value *v = anim_json_get(obj, key);
    if (!v || !anim_json_is_integer(v))
        fail_msg("no integer \"%s\"", key);
    return anim_json_integer(v);
}

static double num_at(const anim_json_value *arr, size_t i)
{
    assert_non_null(arr);
    assert_true(i < anim_json_count(arr));
    return anim_json_number(anim_json_item(arr, i));
}

static void expect_json_string(const anim_json_value *v, const char *want)
{
    assert_non_null(v);
    if (!anim_json_string_eq(v, want))
        fail_msg("\"%.*s\" is not \"%s\"", (int)anim_json_string_len(v), anim_json_string(v),
                 want);
}

/* The name of written node n. */
static void expect_node_name(const anim_asset *a, int64_t n, const char *want)
{
    assert_true(n >= 0);
    expect_json_string(anim_json_get(root_item(a, "nodes", (uint32_t)n), "name"), want);
}

/* The bytes of written buffer view v. */
static const uint8_t *view_data(const anim_asset *a, uint32_t v, size_t *len)
{
    assert_true(v < a->source.view_count);
    const anim_buffer_view *bv = &a->source.views[v];
    *len = bv->byte_length;
    return a->source.buffers[bv->buffer].data + bv->byte_offset;
}

static const anim_clip *clip_named(const anim_asset *a, const char *name)
{
    for (uint32_t c = 0; c < a->doc.clip_count; c++)
        if (strcmp(a->doc.clips[c].name, name) == 0)
            return &a->doc.clips[c];
    fail_msg("no clip %s", name);
    return NULL;
}

/* ---- the mesh document ------------------------------------------------ */

/* Three nodes listed child first ("child", then its parent "root", then
 * "body" with the skinned, morphed mesh), a skin and a scene naming them
 * by file index, and two morph-weight animations (LINEAR with a
 * translation channel on "child", CUBICSPLINE). */
static anim_asset *load_mesh_doc(void)
{
    bin_doc d = {ANIM_STRBUF_INIT, ANIM_STRBUF_INIT, 0};
    static const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    static const uint8_t color[9] = {255, 0, 0, 0, 128, 0, 0, 0, 64};
    static const uint8_t joints[12] = {0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
    static const float weights[12] = {0.75f, 0.25f, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    static const uint16_t indices[3] = {0, 1, 2};
    /* sparse: index 2 (u16, padded to 4), then its VEC3 value */
    static const uint8_t sparse[16] = {2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f};
    static const float target1[9] = {0, 0, 0.5f, 0, 0, 0.5f, 0, 0, 0.5f};
    static const float ibm[32] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
                                  1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1};
    static const float times[3] = {0, 0.5f, 1};
    static const float morph[6] = {0, 1, 0.5f, 0.25f, 1, 0};
    static const float cubic_times[2] = {0, 1.25f};
    static const float cubic[12] = {0.1f, 0.2f, 0, 1, 0.3f, 0.4f, 0.5f, 0.6f, 1, 0, 0.7f, 0.8f};
    static const float move[9] = {0, 1, 0, 0, 1.5f, 0, 0, 2, 0.125f};
    assert_int_equal(add_view(&d, pos, sizeof pos, NULL), 0);
    assert_int_equal(add_view(&d, color, sizeof color, NULL), 1);
    assert_int_equal(add_view(&d, joints, sizeof joints, NULL), 2);
    assert_int_equal(add_view(&d, weights, sizeof weights, NULL), 3);
    assert_int_equal(add_view(&d, indices, sizeof indices, NULL), 4);
    assert_int_equal(add_view(&d, sparse, sizeof sparse, NULL), 5);
    assert_int_equal(add_view(&d, target1, sizeof target1, NULL), 6);
    assert_int_equal(add_view(&d, ibm, sizeof ibm, NULL), 7);
    assert_int_equal(add_view(&d, times, sizeof times, NULL), 8);
    assert_int_equal(add_view(&d, morph, sizeof morph, NULL), 9);
    assert_int_equal(add_view(&d, cubic_times, sizeof cubic_times, NULL), 10);
    assert_int_equal(add_view(&d, cubic, sizeof cubic, NULL), 11);
    assert_int_equal(add_view(&d, move, sizeof move, NULL), 12);
    static const char body[] =
        "\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[1,2]}],"
        "\"nodes\":[{\"name\":\"child\",\"translation\":[0,1,0]},"
        "{\"name\":\"root\",\"children\":[0]},"
        "{\"name\":\"body\",\"mesh\":0,\"skin\":0,\"extras\":{\"zeta\":1,\"alpha\":2}}],"
        "\"skins\":[{\"joints\":[1,0],\"skeleton\":1,\"inverseBindMatrices\":7}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"COLOR_0\":1,"
        "\"JOINTS_0\":2,\"WEIGHTS_0\":3},\"indices\":4,"
        "\"targets\":[{\"POSITION\":5},{\"POSITION\":6}]}],\"weights\":[0.25,0.5]}],"
        "\"accessors\":["
        "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
        "\"min\":[0,0,0],\"max\":[1,1,0]},"
        "{\"bufferView\":1,\"componentType\":5121,\"normalized\":true,\"count\":3,"
        "\"type\":\"VEC3\"},"
        "{\"bufferView\":2,\"componentType\":5121,\"count\":3,\"type\":\"VEC4\"},"
        "{\"bufferView\":3,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
        "{\"bufferView\":4,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"},"
        "{\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],"
        "\"max\":[0,0,1],\"sparse\":{\"count\":1,\"indices\":{\"bufferView\":5,"
        "\"componentType\":5123},\"values\":{\"bufferView\":5,\"byteOffset\":4}}},"
        "{\"bufferView\":6,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
        "\"min\":[0,0,0.5],\"max\":[0,0,0.5]},"
        "{\"bufferView\":7,\"componentType\":5126,\"count\":2,\"type\":\"MAT4\"},"
        "{\"bufferView\":8,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\","
        "\"min\":[0],\"max\":[1]},"
        "{\"bufferView\":9,\"componentType\":5126,\"count\":6,\"type\":\"SCALAR\"},"
        "{\"bufferView\":10,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\","
        "\"min\":[0],\"max\":[1.25]},"
        "{\"bufferView\":11,\"componentType\":5126,\"count\":12,\"type\":\"SCALAR\"},"
        "{\"bufferView\":12,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}],"
        "\"animations\":["
        "{\"name\":\"blink\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,"
        "\"path\":\"weights\"}},{\"sampler\":1,\"target\":{\"node\":0,"
        "\"path\":\"translation\"}}],\"samplers\":[{\"input\":8,\"output\":9},"
        "{\"input\":8,\"output\":12}]},"
        "{\"name\":\"blink_cubic\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,"
        "\"path\":\"weights\"}}],\"samplers\":[{\"input\":10,\"output\":11,"
        "\"interpolation\":\"CUBICSPLINE\"}]}]";
    return load_doc(&d, body);
}

/* ---- 1. node order ------------------------------------------------------ */

static void test_nodes_renumbered(void **state)
{
    (void)state;
    anim_asset *in = load_mesh_doc();
    /* The file lists "child" (node 0) before its parent "root" (node 1). */
    assert_int_equal(in->doc.bones[anim_doc_find_bone(&in->doc, "root")].node, 1);
    for (int f = 0; f < 2; f++) {
        anim_asset *out = write_reload(in, NULL, FORMATS[f], NULL, NULL);
        const anim_doc *d = &out->doc;
        assert_int_equal(d->bone_count, 3);
        /* Node index = bone index: a written file needs no reordering. */
        for (uint32_t b = 0; b < d->bone_count; b++) {
            assert_int_equal(d->bones[b].node, b);
            assert_string_equal(d->bones[b].name, in->doc.bones[b].name);
        }
        uint32_t root = anim_doc_find_bone(d, "root"), child = anim_doc_find_bone(d, "child"),
                 body = anim_doc_find_bone(d, "body");
        assert_true(root < child);
        assert_int_equal(d->bones[child].parent, root);
        const anim_json_value *kids = anim_json_get(root_item(out, "nodes", root), "children");
        assert_int_equal(anim_json_count(kids), 1);
        expect_node_name(out, anim_json_integer(anim_json_item(kids, 0)), "child");
        /* The skin names the same bones, in its own order. */
        const anim_json_value *skin = root_item(out, "skins", 0);
        const anim_json_value *joints = anim_json_get(skin, "joints");
        assert_int_equal(anim_json_count(joints), 2);
        expect_node_name(out, anim_json_integer(anim_json_item(joints, 0)), "root");
        expect_node_name(out, anim_json_integer(anim_json_item(joints, 1)), "child");
        expect_node_name(out, int_of(skin, "skeleton"), "root");
        /* The scene keeps its roots in order, and the default scene. */
        assert_int_equal(int_of(out->source.root, "scene"), 0);
        const anim_json_value *roots = anim_json_get(root_item(out, "scenes", 0), "nodes");
        assert_int_equal(anim_json_count(roots), 2);
        expect_node_name(out, anim_json_integer(anim_json_item(roots, 0)), "root");
        expect_node_name(out, anim_json_integer(anim_json_item(roots, 1)), "body");
        /* Mesh and skin references stay on their node. */
        assert_int_equal(d->bones[body].mesh, 0);
        assert_int_equal(d->bones[body].skin, 0);
        assert_int_equal(d->bones[root].mesh, ANIM_NONE);
        assert_int_equal(d->bones[child].mesh, ANIM_NONE);
        assert_int_equal(d->bones[child].skin, ANIM_NONE);
        assert_true((float)d->bones[child].rest_translation[1] == 1.0f);
        /* Channels target the renumbered nodes. */
        const anim_clip *blink = clip_named(out, "blink");
        assert_int_equal(blink->track_count, 1);
        assert_int_equal(blink->tracks[0].bone, child);
        assert_int_equal(blink->morph_tracks[0].bone, body);
        anim_asset_free(out);
    }
    anim_asset_free(in);
}

/* ---- 2. mesh accessors -------------------------------------------------- */

/* Source accessor ia of a and written accessor ib of b: storage, bounds
 * and decoded values equal. */
static void expect_same_accessor(const anim_asset *a, uint32_t ia, const anim_asset *b,
                                 uint32_t ib, const char *what)
{
    const anim_accessor *x = &a->source.accessors[ia], *y = &b->source.accessors[ib];
    if (x->component_type != y->component_type || x->normalized != y->normalized ||
        x->count != y->count || x->components != y->components ||
        x->has_sparse != y->has_sparse || x->has_min != y->has_min || x->has_max != y->has_max)
        fail_msg("%s: accessor %u vs %u differ in storage", what, ia, ib);
    if ((x->has_min && memcmp(x->min, y->min, x->components * sizeof *x->min) != 0) ||
        (x->has_max && memcmp(x->max, y->max, x->components * sizeof *x->max) != 0))
        fail_msg("%s: accessor %u vs %u differ in bounds", what, ia, ib);
    size_t n = (size_t)x->count * x->components;
    double *va = calloc(n, sizeof *va), *vb = calloc(n, sizeof *vb);
    assert_true(va && vb);
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(anim_accessor_read_f64(&a->source, ia, va, &err), 0);
    assert_int_equal(anim_accessor_read_f64(&b->source, ib, vb, &err), 0);
    if (memcmp(va, vb, n * sizeof *va) != 0)
        fail_msg("%s: accessor %u vs %u differ in values", what, ia, ib);
    free(va);
    free(vb);
}

/* The accessor an attribute map names. */
static uint32_t attr(const anim_json_value *map, const char *key)
{
    return (uint32_t)int_of(map, key);
}

/* The written view of an accessor, with its byteStride and target (0 when
 * absent). */
static const anim_json_value *accessor_view(const anim_asset *a, uint32_t acc, int64_t *stride,
                                            int64_t *target)
{
    const anim_json_value *view =
        root_item(a, "bufferViews", (uint32_t)int_of(root_item(a, "accessors", acc), "bufferView"));
    const anim_json_value *s = anim_json_get(view, "byteStride");
    const anim_json_value *t = anim_json_get(view, "target");
    *stride = s ? anim_json_integer(s) : 0;
    *target = t ? anim_json_integer(t) : 0;
    return view;
}

static void test_mesh_accessors(void **state)
{
    (void)state;
    anim_asset *in = load_mesh_doc();
    static const char *const attrs[] = {"COLOR_0", "JOINTS_0", "POSITION", "WEIGHTS_0"};
    const anim_json_value *sprim =
        anim_json_item(anim_json_get(root_item(in, "meshes", 0), "primitives"), 0);
    for (int f = 0; f < 2; f++) {
        anim_asset *out = write_reload(in, NULL, FORMATS[f], NULL, NULL);
        const anim_json_value *mesh = root_item(out, "meshes", 0);
        const anim_json_value *prim = anim_json_item(anim_json_get(mesh, "primitives"), 0);
        const anim_json_value *sa = anim_json_get(sprim, "attributes"),
                              *wa = anim_json_get(prim, "attributes");
        assert_int_equal(anim_json_count(wa), 4);
        for (size_t i = 0; i < 4; i++)
            expect_same_accessor(in, attr(sa, attrs[i]), out, attr(wa, attrs[i]), attrs[i]);
        expect_same_accessor(in, 4, out, (uint32_t)int_of(prim, "indices"), "indices");
        const anim_json_value *st = anim_json_get(sprim, "targets"),
                              *wt = anim_json_get(prim, "targets");
        assert_int_equal(anim_json_count(wt), 2);
        for (size_t t = 0; t < 2; t++)
            expect_same_accessor(in, attr(anim_json_item(st, t), "POSITION"), out,
                                 attr(anim_json_item(wt, t), "POSITION"), "target");
        expect_same_accessor(in, 7, out, (uint32_t)int_of(root_item(out, "skins", 0),
                                                          "inverseBindMatrices"),
                             "inverseBindMatrices");
        const anim_json_value *mw = anim_json_get(mesh, "weights");
        assert_int_equal(anim_json_count(mw), 2);
        assert_true(num_at(mw, 0) == 0.25 && num_at(mw, 1) == 0.5);

        /* 3-byte colors get a 4-byte stride; vertex data ARRAY_BUFFER,
         * indices ELEMENT_ARRAY_BUFFER, 4-byte elements no stride. */
        int64_t stride, target;
        const anim_json_value *cv = accessor_view(out, attr(wa, "COLOR_0"), &stride, &target);
        assert_int_equal(stride, 4);
        assert_int_equal(target, 34962);
        assert_int_equal(int_of(cv, "byteLength"), 12);
        accessor_view(out, attr(wa, "POSITION"), &stride, &target);
        assert_int_equal(stride, 0);
        assert_int_equal(target, 34962);
        accessor_view(out, attr(wa, "JOINTS_0"), &stride, &target);
        assert_int_equal(stride, 0);
        assert_int_equal(target, 34962);
        accessor_view(out, (uint32_t)int_of(prim, "indices"), &stride, &target);
        assert_int_equal(stride, 0);
        assert_int_equal(target, 34963);

        /* The sparse target stays sparse, without a dense view, its
         * indices and values in views of their own. */
        const anim_json_value *acc =
            root_item(out, "accessors", attr(anim_json_item(wt, 0), "POSITION"));
        assert_null(anim_json_get(acc, "bufferView"));
        const anim_json_value *sparse = anim_json_get(acc, "sparse");
        assert_non_null(sparse);
        assert_int_equal(int_of(sparse, "count"), 1);
        const anim_json_value *si = anim_json_get(sparse, "indices"),
                              *sv = anim_json_get(sparse, "values");
        assert_int_equal(int_of(si, "componentType"), 5123);
        int64_t iv = int_of(si, "bufferView"), vv = int_of(sv, "bufferView");
        assert_true(iv != vv);
        size_t ilen, vlen;
        const uint8_t *ip = view_data(out, (uint32_t)iv, &ilen);
        const uint8_t *vp = view_data(out, (uint32_t)vv, &vlen);
        assert_int_equal(ilen, 2);
        assert_int_equal(vlen, 12);
        assert_memory_equal(ip, "\x02\x00", 2);
        assert_memory_equal(vp, "\0\0\0\0\0\0\0\0\0\0\x80\x3f", 12);
        for (uint32_t a = 0; a < out->source.accessor_count; a++) {
            const anim_json_value *v = anim_json_get(root_item(out, "accessors", a), "bufferView");
            assert_true(!v || (anim_json_integer(v) != iv && anim_json_integer(v) != vv));
        }
        anim_asset_free(out);
    }
    anim_asset_free(in);
}

/* ---- 3. morph weight animations ----------------------------------------- */

static void expect_same_morph(const anim_track *x, const anim_track *y)
{
    assert_int_equal(y->path, ANIM_PATH_WEIGHTS);
    assert_int_equal(x->interp, y->interp);
    assert_int_equal(x->key_count, y->key_count);
    assert_int_equal(x->components, y->components);
    assert_int_equal(x->value_count, y->value_count);
    assert_memory_equal(x->times, y->times, (size_t)x->key_count * sizeof *x->times);
    assert_memory_equal(x->values, y->values,
                        (size_t)x->value_count * x->components * sizeof *x->values);
}

/* The written output accessor of a clip's only morph track. */
static const anim_json_value *morph_output(const anim_asset *a, const anim_clip *clip)
{
    const anim_json_value *anim = root_item(a, "animations", clip->animation);
    const anim_json_value *chans = anim_json_get(anim, "channels");
    for (size_t c = 0; c < anim_json_count(chans); c++) {
        const anim_json_value *ch = anim_json_item(chans, c);
        if (!anim_json_string_eq(anim_json_get(anim_json_get(ch, "target"), "path"), "weights"))
            continue;
        const anim_json_value *smp =
            anim_json_item(anim_json_get(anim, "samplers"), (size_t)int_of(ch, "sampler"));
        return root_item(a, "accessors", (uint32_t)int_of(smp, "output"));
    }
    fail_msg("clip %s has no weights channel", clip->name);
    return NULL;
}

static void test_morph_weight_animation(void **state)
{
    (void)state;
    anim_asset *in = load_mesh_doc();
    for (int f = 0; f < 2; f++) {
        anim_asset *out = write_reload(in, NULL, FORMATS[f], NULL, NULL);
        static const char *const names[2] = {"blink", "blink_cubic"};
        static const int64_t counts[2] = {3 * 2, 2 * 3 * 2}; /* keys x targets (x3 cubic) */
        for (int c = 0; c < 2; c++) {
            const anim_clip *x = clip_named(in, names[c]), *y = clip_named(out, names[c]);
            assert_int_equal(y->morph_track_count, 1);
            assert_int_equal(y->morph_tracks[0].components, 2);
            expect_same_morph(&x->morph_tracks[0], &y->morph_tracks[0]);
            const anim_json_value *acc = morph_output(out, y);
            expect_json_string(anim_json_get(acc, "type"), "SCALAR");
            assert_int_equal(int_of(acc, "count"), counts[c]);
        }
        assert_int_equal(clip_named(out, "blink_cubic")->morph_tracks[0].interp,
                         ANIM_INTERP_CUBICSPLINE);
        anim_asset_free(out);
    }
    anim_asset_free(in);
}

/* ---- 4. images ---------------------------------------------------------- */

static const uint8_t PNG_BYTES[16] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n',
                                      0, 0, 0, 13, 'I', 'H', 'D', 'R'};
/* Declared PNG by its data URI, though the bytes are not: the type must
 * come from the URI, not from sniffing. */
static const char URI_BYTES[] = "not really a png";

static void test_images(void **state)
{
    (void)state;
    bin_doc d = {ANIM_STRBUF_INIT, ANIM_STRBUF_INIT, 0};
    add_view(&d, PNG_BYTES, sizeof PNG_BYTES, NULL);
    char *b64 = test_support_base64(URI_BYTES, sizeof URI_BYTES - 1);
    anim_strbuf body = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&body,
                       "\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"n\"}],"
                       "\"images\":[{\"bufferView\":0},{\"uri\":\"data:image/png;base64,%s\"}]",
                       b64);
    anim_asset *in = load_doc(&d, body.data);
    const anim_json_value *src_uri = anim_json_get(root_item(in, "images", 1), "uri");
    for (int f = 0; f < 2; f++) {
        anim_asset *out = write_reload(in, NULL, FORMATS[f], NULL, NULL);
        assert_int_equal(out->doc.image_count, 2);
        const anim_json_value *i0 = root_item(out, "images", 0), *i1 = root_item(out, "images", 1);
        expect_json_string(anim_json_get(i0, "mimeType"), "image/png");
        size_t n;
        const uint8_t *p = view_data(out, (uint32_t)int_of(i0, "bufferView"), &n);
        assert_int_equal(n, sizeof PNG_BYTES);
        assert_memory_equal(p, PNG_BYTES, n);
        if (FORMATS[f] == ANIM_GLTF_FORMAT_GLB) {
            /* Embedded in the BIN chunk. */
            assert_null(anim_json_get(i1, "uri"));
            expect_json_string(anim_json_get(i1, "mimeType"), "image/png");
            p = view_data(out, (uint32_t)int_of(i1, "bufferView"), &n);
            assert_int_equal(n, sizeof URI_BYTES - 1);
            assert_memory_equal(p, URI_BYTES, n);
        } else {
            /* Kept as the same data URI. */
            assert_null(anim_json_get(i1, "bufferView"));
            const anim_json_value *uri = anim_json_get(i1, "uri");
            assert_non_null(uri);
            assert_int_equal(anim_json_string_len(uri), anim_json_string_len(src_uri));
            assert_memory_equal(anim_json_string(uri), anim_json_string(src_uri),
                                anim_json_string_len(uri));
        }
        anim_asset_free(out);
    }
    anim_asset_free(in);
    anim_strbuf_free(&body);
    free(b64);

    /* Bytes of no known format and no declared type cannot be embedded. */
    static const uint8_t gif[8] = {'G', 'I', 'F', '8', '9', 'a', 1, 0};
    bin_doc u = {ANIM_STRBUF_INIT, ANIM_STRBUF_INIT, 0};
    add_view(&u, gif, sizeof gif, NULL);
    in = load_doc(&u, "\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"n\"}],"
                      "\"images\":[{\"bufferView\":0}]");
    expect_refused(in, ANIM_ERR_UNSUPPORTED, "image 0");
    anim_asset_free(in);
}

/* ---- 5. extensions, extras, asset --------------------------------------- */

/* A material with an extension of its own and one in its texture info,
 * extras at the root, on a node and on an animation, and an asset with a
 * copyright and a foreign generator; used names extensionsUsed. */
static anim_asset *load_extension_doc(const char *used)
{
    bin_doc d = {ANIM_STRBUF_INIT, ANIM_STRBUF_INIT, 0};
    static const float times[2] = {0, 1};
    static const float move[6] = {0, 0, 0, 1, 0, 0};
    add_view(&d, times, sizeof times, NULL);
    add_view(&d, move, sizeof move, NULL);
    char *png = test_support_base64(PNG_BYTES, sizeof PNG_BYTES);
    anim_strbuf body = ANIM_STRBUF_INIT;
    anim_strbuf_printf(
        &body,
        "\"asset\":{\"version\":\"2.0\",\"generator\":\"Exporter 9\","
        "\"copyright\":\"(c) Studio\"},\"extensionsUsed\":[%s],"
        "\"extras\":{\"pipeline\":{\"rev\":7}},"
        "\"nodes\":[{\"name\":\"n\",\"extras\":{\"tag\":\"x\"}}],"
        "\"images\":[{\"uri\":\"data:image/png;base64,%s\"}],\"textures\":[{\"source\":0}],"
        "\"materials\":[{\"name\":\"skin\",\"emissiveFactor\":[1,0.5,0],"
        "\"extensions\":{\"KHR_materials_emissive_strength\":{\"emissiveStrength\":5.5}},"
        "\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0,\"extensions\":"
        "{\"KHR_texture_transform\":{\"offset\":[0.5,0.25],\"rotation\":0.125,"
        "\"scale\":[2,3]}}}}}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,"
        "\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"
        "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
        "\"animations\":[{\"name\":\"a\",\"extras\":{\"take\":3},\"channels\":[{\"sampler\":0,"
        "\"target\":{\"node\":0,\"path\":\"translation\"}}],"
        "\"samplers\":[{\"input\":0,\"output\":1}]}]",
        used, png);
    free(png);
    anim_asset *a = load_doc(&d, body.data);
    anim_strbuf_free(&body);
    return a;
}

static void test_extensions_and_extras(void **state)
{
    (void)state;
    anim_asset *in = load_extension_doc("\"EXT_mesh_gpu_instancing\"");
    expect_refused(in, ANIM_ERR_UNSUPPORTED, "EXT_mesh_gpu_instancing");
    anim_asset_free(in);

    /* Used without being declared: the data is still there, so it is
     * refused the same, naming the object. */
    static const char undeclared[] =
        "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"n\",\"extensions\":"
        "{\"EXT_mesh_gpu_instancing\":{\"attributes\":{\"TRANSLATION\":3}}},"
        "\"extras\":{\"extensions\":{\"mine\":1}}}]}";
    in = test_support_load_gltf(undeclared, sizeof undeclared - 1, "in.gltf");
    assert_non_null(in);
    expect_refused(in, ANIM_ERR_UNSUPPORTED, "nodes 0: extension \"EXT_mesh_gpu_instancing\"");
    anim_asset_free(in);

    in = load_extension_doc("\"KHR_materials_emissive_strength\",\"KHR_texture_transform\"");
    for (int f = 0; f < 2; f++) {
        anim_asset *out = write_reload(in, NULL, FORMATS[f], NULL, NULL);
        const anim_json_value *root = out->source.root;
        const anim_json_value *used = anim_json_get(root, "extensionsUsed");
        assert_int_equal(anim_json_count(used), 2);
        expect_json_string(anim_json_item(used, 0), "KHR_materials_emissive_strength");
        expect_json_string(anim_json_item(used, 1), "KHR_texture_transform");
        const anim_json_value *mat = root_item(out, "materials", 0);
        const anim_json_value *ext = anim_json_get(mat, "extensions");
        assert_int_equal(anim_json_count(ext), 1);
        const anim_json_value *es = anim_json_get(ext, "KHR_materials_emissive_strength");
        assert_int_equal(anim_json_count(es), 1);
        assert_true(anim_json_number(anim_json_get(es, "emissiveStrength")) == 5.5);
        const anim_json_value *tex =
            anim_json_get(anim_json_get(mat, "pbrMetallicRoughness"), "baseColorTexture");
        assert_int_equal(int_of(tex, "index"), 0);
        const anim_json_value *tt =
            anim_json_get(anim_json_get(tex, "extensions"), "KHR_texture_transform");
        assert_int_equal(anim_json_count(tt), 3);
        const anim_json_value *off = anim_json_get(tt, "offset"), *sc = anim_json_get(tt, "scale");
        assert_int_equal(anim_json_count(off), 2);
        assert_true(num_at(off, 0) == 0.5 && num_at(off, 1) == 0.25);
        assert_true(num_at(sc, 0) == 2 && num_at(sc, 1) == 3);
        assert_true(anim_json_number(anim_json_get(tt, "rotation")) == 0.125);
        /* Extras travel with their objects. */
        assert_int_equal(int_of(anim_json_get(anim_json_get(root, "extras"), "pipeline"), "rev"),
                         7);
        expect_json_string(anim_json_get(anim_json_get(root_item(out, "nodes", 0), "extras"),
                                         "tag"),
                           "x");
        assert_int_equal(int_of(anim_json_get(root_item(out, "animations", 0), "extras"), "take"),
                         3);
        /* The copyright stays, the generator is ours. */
        const anim_json_value *asset = anim_json_get(root, "asset");
        expect_json_string(anim_json_get(asset, "copyright"), "(c) Studio");
        expect_json_string(anim_json_get(asset, "generator"), GENERATOR);
        expect_json_string(anim_json_get(asset, "version"), "2.0");
        anim_asset_free(out);
    }
    anim_asset_free(in);
}

/* ---- 6. determinism, fixed point, sorted keys ---------------------------- */

/* Every object of the tree has its keys in byte-wise order. */
static void expect_sorted(const anim_json_value *v, const char *where)
{
    if (v->type == ANIM_JSON_ARRAY)
        for (size_t i = 0; i < anim_json_count(v); i++)
            expect_sorted(anim_json_item(v, i), where);
    if (v->type != ANIM_JSON_OBJECT)
        return;
    for (size_t i = 0; i < anim_json_count(v); i++) {
        const anim_json_member *m = anim_json_member_at(v, i);
        if (i > 0) {
            const anim_json_member *p = anim_json_member_at(v, i - 1);
            size_t pn = anim_json_key_len(p), mn = anim_json_key_len(m);
            int c = memcmp(p->key, m->key, pn < mn ? pn : mn);
            if (c > 0 || (c == 0 && pn >= mn))
                fail_msg("%s: key \"%.*s\" written before \"%.*s\"", where, (int)pn, p->key,
                         (int)mn, m->key);
        }
        expect_sorted(&m->value, where);
    }
}

/* Writing twice gives the same bytes, writing the output again too, and
 * every object is sorted; unsorted names the node whose extras were
 * authored {"zeta", "alpha"} (NULL: none). */
static void expect_stable(anim_asset *in, const char *unsorted)
{
    for (int f = 0; f < 2; f++) {
        anim_strbuf first = ANIM_STRBUF_INIT, again = ANIM_STRBUF_INIT, second = ANIM_STRBUF_INIT;
        anim_asset *out = write_reload(in, NULL, FORMATS[f], &first, NULL);
        anim_asset_free(write_reload(in, NULL, FORMATS[f], &again, NULL));
        assert_int_equal(first.len, again.len);
        assert_memory_equal(first.data, again.data, first.len);
        anim_asset_free(write_reload(out, NULL, FORMATS[f], &second, NULL));
        assert_int_equal(first.len, second.len);
        assert_memory_equal(first.data, second.data, first.len);
        expect_sorted(out->source.root, "written JSON");
        if (unsorted) {
            const anim_json_value *extras = anim_json_get(
                root_item(out, "nodes", anim_doc_find_bone(&out->doc, unsorted)), "extras");
            assert_int_equal(anim_json_count(extras), 2);
            assert_int_equal(anim_json_key_len(anim_json_member_at(extras, 0)), 5);
            assert_memory_equal(anim_json_member_at(extras, 0)->key, "alpha", 5);
            assert_int_equal(int_of(extras, "zeta"), 1);
        }
        anim_asset_free(out);
        anim_strbuf_free(&first);
        anim_strbuf_free(&again);
        anim_strbuf_free(&second);
    }
}

static void test_deterministic_fixed_point(void **state)
{
    (void)state;
    anim_asset *in = load_mesh_doc();
    uint32_t body = anim_doc_find_bone(&in->doc, "body");
    assert_non_null(anim_json_get(root_item(in, "nodes", in->doc.bones[body].node), "extras"));
    expect_stable(in, "body");
    anim_asset_free(in);
    in = load_extension_doc("\"KHR_materials_emissive_strength\",\"KHR_texture_transform\"");
    expect_stable(in, NULL);
    anim_asset_free(in);
}

/* ---- 7. dropped clips, shared key times ---------------------------------- */

static void test_dropped_clip_and_shared_times(void **state)
{
    (void)state;
    static const float t3[3] = {0, 0.5f, 1}, t2[2] = {0, 1};
    static const float move[9] = {0, 0, 0, 1, 0, 0, 2, 0, 0};
    static const float turn[12] = {0, 0, 0, 1, 0, 0.6f, 0, 0.8f, 0, 1, 0, 0};
    static const float grow[6] = {1, 1, 1, 2, 2, 2};
    test_support_gltf *g = test_support_gltf_new();
    test_support_node nodes[2] = {
        {"root", -1, TEST_SUPPORT_T, {0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}},
        {"arm", 0, TEST_SUPPORT_T, {0, 1, 0}, {0, 0, 0, 1}, {1, 1, 1}},
    };
    test_support_gltf_nodes(g, nodes, 2);
    test_support_gltf_animation(g, "gone");
    test_support_gltf_track(g, 1, "translation", NULL, 3, t3, move, TEST_SUPPORT_BOUNDS);
    test_support_gltf_animation(g, "kept");
    /* Equal times in accessors of their own, then other times. */
    test_support_gltf_track(g, 0, "translation", NULL, 3, t3, move, TEST_SUPPORT_BOUNDS);
    test_support_gltf_track(g, 1, "rotation", NULL, 3, t3, turn, TEST_SUPPORT_BOUNDS);
    test_support_gltf_track(g, 1, "scale", NULL, 2, t2, grow, TEST_SUPPORT_BOUNDS);
    anim_asset *in = test_support_gltf_load(g, "in.gltf");
    test_support_gltf_free(g);
    assert_int_equal(in->doc.clip_count, 2);
    const anim_track *src = in->doc.clips[1].tracks;
    assert_true(src[0].input_accessor != src[1].input_accessor);

    anim_doc edited = in->doc;
    anim_clip *clips = malloc(2 * sizeof *clips);
    assert_non_null(clips);
    memcpy(clips, in->doc.clips, 2 * sizeof *clips);
    clips[0].track_count = 0;
    edited.clips = clips;
    for (int f = 0; f < 2; f++) {
        anim_gltf_write_summary sum;
        anim_asset *out = write_reload(in, &edited, FORMATS[f], NULL, &sum);
        assert_int_equal(sum.dropped_clips, 1);
        assert_int_equal(sum.animations, 1);
        assert_int_equal(sum.nodes, 2);
        assert_int_equal(out->doc.clip_count, 1);
        const anim_clip *kept = &out->doc.clips[0];
        assert_string_equal(kept->name, "kept");
        assert_int_equal(kept->track_count, 3);
        const anim_track *t = kept->tracks;
        assert_int_equal(t[0].input_accessor, t[1].input_accessor);
        assert_true(t[2].input_accessor != t[0].input_accessor);
        for (int i = 0; i < 3; i++) {
            assert_int_equal(t[i].key_count, src[i].key_count);
            assert_memory_equal(t[i].times, src[i].times, src[i].key_count * sizeof(float));
            assert_memory_equal(t[i].values, src[i].values,
                                (size_t)src[i].value_count * src[i].components * sizeof(float));
        }
        anim_asset_free(out);
    }
    free(clips);
    anim_asset_free(in);
}

/* ---- 8. image files beside a .gltf --------------------------------------- */

static void put_file(const char *dir, const char *name, const void *p, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(p, 1, n, fp), n);
    assert_int_equal(fclose(fp), 0);
}

/* The file's bytes equal p[0..n). */
static void expect_file(const char *dir, const char *name, const void *p, size_t n)
{
    char path[512], buf[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        fail_msg("%s is missing", path);
    size_t got = fread(buf, 1, sizeof buf, fp);
    fclose(fp);
    assert_int_equal(got, n);
    assert_memory_equal(buf, p, n);
}

static bool exists(const char *dir, const char *name)
{
    char path[512];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0;
}

static void remove_in(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    unlink(path);
}

static void test_image_file_beside_gltf(void **state)
{
    (void)state;
    char top[] = "/tmp/animsmith-write-asset-XXXXXX";
    assert_non_null(mkdtemp(top));
    char in_dir[256], out_dir[256], clash_dir[256];
    snprintf(in_dir, sizeof in_dir, "%s/in", top);
    snprintf(out_dir, sizeof out_dir, "%s/out", top);
    snprintf(clash_dir, sizeof clash_dir, "%s/clash", top);
    assert_int_equal(mkdir(in_dir, 0700), 0);
    assert_int_equal(mkdir(out_dir, 0700), 0);
    assert_int_equal(mkdir(clash_dir, 0700), 0);
    static const char json[] = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"n\"}],"
                               "\"images\":[{\"uri\":\"tex.png\"}],\"textures\":[{\"source\":0}]}";
    put_file(in_dir, "a.gltf", json, sizeof json - 1);
    put_file(in_dir, "tex.png", PNG_BYTES, sizeof PNG_BYTES);
    char path[512];
    snprintf(path, sizeof path, "%s/a.gltf", in_dir);
    anim_error err;
    anim_error_clear(&err);
    anim_asset *in = anim_asset_load(path, NULL, &err);
    if (!in)
        fail_msg("%s", err.message);

    /* The image is copied beside the output, which still names it. */
    snprintf(path, sizeof path, "%s/b.gltf", out_dir);
    if (anim_gltf_write_asset_file(in, NULL, path, GENERATOR, NULL, &err) != 0)
        fail_msg("%s", err.message);
    expect_file(out_dir, "tex.png", PNG_BYTES, sizeof PNG_BYTES);
    anim_asset *out = anim_asset_load(path, NULL, &err);
    if (!out)
        fail_msg("%s", err.message);
    expect_json_string(anim_json_get(root_item(out, "images", 0), "uri"), "tex.png");
    anim_asset_free(out);
    /* Writing again over the same bytes is fine. */
    assert_int_equal(anim_gltf_write_asset_file(in, NULL, path, GENERATOR, NULL, &err), 0);

    /* A different file at the image's place (of the same size, so only
     * its bytes tell): refused, nothing written. */
    static const char other[] = "another texture!";
    assert_int_equal(sizeof other - 1, sizeof PNG_BYTES);
    put_file(clash_dir, "tex.png", other, sizeof other - 1);
    snprintf(path, sizeof path, "%s/b.gltf", clash_dir);
    anim_error_clear(&err);
    assert_int_equal(anim_gltf_write_asset_file(in, NULL, path, GENERATOR, NULL, &err), -1);
    assert_int_equal(err.code, ANIM_ERR_IO);
    if (!strstr(err.message, "image 0") || !strstr(err.message, "tex.png"))
        fail_msg("message \"%s\" does not name the image", err.message);
    assert_false(exists(clash_dir, "b.gltf"));
    expect_file(clash_dir, "tex.png", other, sizeof other - 1);
    anim_asset_free(in);

    remove_in(in_dir, "a.gltf");
    remove_in(in_dir, "tex.png");
    remove_in(out_dir, "b.gltf");
    remove_in(out_dir, "tex.png");
    remove_in(clash_dir, "tex.png");
    assert_int_equal(rmdir(in_dir), 0);
    assert_int_equal(rmdir(out_dir), 0);
    assert_int_equal(rmdir(clash_dir), 0);
    assert_int_equal(rmdir(top), 0);
}

/* A document loaded from memory without a directory has no files: its
 * image URI is refused, not read from the current directory. */
static void test_memory_asset_image_uri_refused(void **state)
{
    (void)state;
    char top[] = "/tmp/animsmith-write-asset-XXXXXX";
    assert_non_null(mkdtemp(top));
    char cwd[1024];
    assert_non_null(getcwd(cwd, sizeof cwd));
    put_file(top, "tex.png", PNG_BYTES, sizeof PNG_BYTES);
    assert_int_equal(chdir(top), 0);
    static const char json[] = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"n\"}],"
                               "\"images\":[{\"uri\":\"tex.png\"}],\"textures\":[{\"source\":0}]}";
    anim_error err;
    anim_error_clear(&err);
    anim_asset *in = anim_asset_load_memory(json, sizeof json - 1, false, NULL, "mem.gltf", NULL,
                                            &err);
    if (!in)
        fail_msg("%s", err.message);
    anim_strbuf out = ANIM_STRBUF_INIT;
    assert_int_equal(
        anim_gltf_write_asset_mem(in, NULL, ANIM_GLTF_FORMAT_GLB, GENERATOR, &out, NULL, &err), -1);
    assert_int_equal(err.code, ANIM_ERR_UNSUPPORTED);
    if (!strstr(err.message, "image 0") || !strstr(err.message, "no directory"))
        fail_msg("message \"%s\" does not explain the refusal", err.message);
    anim_strbuf_free(&out);
    assert_int_equal(anim_gltf_write_asset_file(in, NULL, "out/x.gltf", GENERATOR, NULL, &err), -1);
    anim_asset_free(in);
    assert_int_equal(chdir(cwd), 0);
    remove_in(top, "tex.png");
    assert_int_equal(rmdir(top), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nodes_renumbered),
        cmocka_unit_test(test_mesh_accessors),
        cmocka_unit_test(test_morph_weight_animation),
        cmocka_unit_test(test_images),
        cmocka_unit_test(test_extensions_and_extras),
        cmocka_unit_test(test_deterministic_fixed_point),
        cmocka_unit_test(test_dropped_clip_and_shared_times),
        cmocka_unit_test(test_image_file_beside_gltf),
        cmocka_unit_test(test_memory_asset_image_uri_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
