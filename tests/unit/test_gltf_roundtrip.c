/* The whole-document writer: every loadable glTF of the corpus, read and
 * written back (GLB and .gltf), keeps its meshes (every attribute, morph
 * target and index, as stored), skins, materials, textures, samplers,
 * images (byte-equal payloads), node transforms and animation keys; the
 * output is deterministic, and writing the written file again gives the
 * same bytes. Skipped when the corpus is absent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/gltf_write.h"
#include "animsmith/path.h"
#include "support/test_support.h"

static const char *corpus_dir(char *buf, size_t cap)
{
    const char *corpus = getenv("ANIMSMITH_CORPUS");
    if (corpus)
        snprintf(buf, cap, "%s/gltf", corpus);
    else
        snprintf(buf, cap, "%s/../shared/corpus/gltf", test_support_source_dir());
    return buf;
}

/* Semantic JSON equality: objects by key, arrays in order, numbers by
 * value. */
static bool json_equal(const anim_json_value *a, const anim_json_value *b)
{
    if (!a || !b)
        return a == b;
    if (a->type != b->type)
        return false;
    switch (a->type) {
    case ANIM_JSON_NUMBER: return anim_json_number(a) == anim_json_number(b);
    case ANIM_JSON_STRING:
        return anim_json_string_len(a) == anim_json_string_len(b) &&
               memcmp(anim_json_string(a), anim_json_string(b), anim_json_string_len(a)) == 0;
    case ANIM_JSON_ARRAY:
        if (anim_json_count(a) != anim_json_count(b))
            return false;
        for (size_t i = 0; i < anim_json_count(a); i++)
            if (!json_equal(anim_json_item(a, i), anim_json_item(b, i)))
                return false;
        return true;
    case ANIM_JSON_OBJECT:
        if (anim_json_count(a) != anim_json_count(b))
            return false;
        for (size_t i = 0; i < anim_json_count(a); i++) {
            const anim_json_member *m = anim_json_member_at(a, i);
            char key[256];
            size_t n = anim_json_key_len(m);
            if (n >= sizeof key)
                return false;
            memcpy(key, m->key, n);
            key[n] = '\0';
            if (!json_equal(&m->value, anim_json_get(b, key)))
                return false;
        }
        return true;
    default: return true;
    }
}

/* anim_json_count that takes an absent member as empty. */
static size_t count_of(const anim_json_value *v)
{
    return v ? anim_json_count(v) : 0;
}

static const anim_json_value *item(const anim_asset *a, const char *key, size_t i)
{
    const anim_json_value *arr = anim_json_get(a->source.root, key);
    return arr && i < anim_json_count(arr) ? anim_json_item(arr, i) : NULL;
}

/* The accessor's decoded values, bit-compared, and its storage. */
static void expect_same_accessor(const anim_asset *a, uint32_t ia, const anim_asset *b,
                                 uint32_t ib, const char *what)
{
    const anim_accessor *x = &a->source.accessors[ia], *y = &b->source.accessors[ib];
    if (x->component_type != y->component_type || x->normalized != y->normalized ||
        x->count != y->count || x->components != y->components) {
        fail_msg("%s: accessor %u vs %u differ in storage", what, ia, ib);
    }
    size_t n = (size_t)x->count * x->components;
    double *va = calloc(n ? n : 1, sizeof *va), *vb = calloc(n ? n : 1, sizeof *vb);
    anim_error err = {0};
    assert_int_equal(anim_accessor_read_f64(&a->source, ia, va, &err), 0);
    assert_int_equal(anim_accessor_read_f64(&b->source, ib, vb, &err), 0);
    if (memcmp(va, vb, n * sizeof *va) != 0)
        fail_msg("%s: accessor %u vs %u values differ", what, ia, ib);
    const anim_json_value *ja = item(a, "accessors", ia), *jb = item(b, "accessors", ib);
    if (!json_equal(anim_json_get(ja, "min"), anim_json_get(jb, "min")) ||
        !json_equal(anim_json_get(ja, "max"), anim_json_get(jb, "max")))
        fail_msg("%s: accessor %u vs %u bounds differ", what, ia, ib);
    free(va);
    free(vb);
}

static uint32_t json_uint(const anim_json_value *v)
{
    return v ? (uint32_t)anim_json_integer(v) : ANIM_NONE;
}

/* Every attribute map of a primitive ({"POSITION": 0, ...}). */
static void expect_same_attributes(const anim_asset *a, const anim_json_value *ma,
                                   const anim_asset *b, const anim_json_value *mb,
                                   const char *what)
{
    assert_int_equal(count_of(ma), count_of(mb));
    for (size_t i = 0; i < count_of(ma); i++) {
        const anim_json_member *m = anim_json_member_at(ma, i);
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)anim_json_key_len(m), m->key);
        const anim_json_value *other = anim_json_get(mb, key);
        if (!other)
            fail_msg("%s: attribute %s lost", what, key);
        char ctx[160];
        snprintf(ctx, sizeof ctx, "%s %s", what, key);
        expect_same_accessor(a, json_uint(&m->value), b, json_uint(other), ctx);
    }
}

static void expect_same_meshes(const anim_asset *a, const anim_asset *b)
{
    assert_int_equal(a->doc.mesh_count, b->doc.mesh_count);
    for (uint32_t m = 0; m < a->doc.mesh_count; m++) {
        const anim_json_value *pa = anim_json_get(item(a, "meshes", m), "primitives");
        const anim_json_value *pb = anim_json_get(item(b, "meshes", m), "primitives");
        assert_int_equal(count_of(pa), count_of(pb));
        assert_true(json_equal(anim_json_get(item(a, "meshes", m), "weights"),
                               anim_json_get(item(b, "meshes", m), "weights")));
        for (size_t p = 0; p < count_of(pa); p++) {
            const anim_json_value *xa = anim_json_item(pa, p), *xb = anim_json_item(pb, p);
            char what[64];
            snprintf(what, sizeof what, "mesh %u primitive %zu", m, p);
            expect_same_attributes(a, anim_json_get(xa, "attributes"), b,
                                   anim_json_get(xb, "attributes"), what);
            const anim_json_value *ta = anim_json_get(xa, "targets"),
                                  *tb = anim_json_get(xb, "targets");
            assert_int_equal(count_of(ta), count_of(tb));
            for (size_t t = 0; t < count_of(ta); t++)
                expect_same_attributes(a, anim_json_item(ta, t), b, anim_json_item(tb, t), what);
            const anim_json_value *ia = anim_json_get(xa, "indices"),
                                  *ib = anim_json_get(xb, "indices");
            assert_true((ia == NULL) == (ib == NULL));
            if (ia)
                expect_same_accessor(a, json_uint(ia), b, json_uint(ib), what);
            assert_true(json_equal(anim_json_get(xa, "material"), anim_json_get(xb, "material")));
            assert_true(json_equal(anim_json_get(xa, "mode"), anim_json_get(xb, "mode")));
        }
    }
}

static void expect_same_skins(const anim_asset *a, const anim_asset *b)
{
    assert_int_equal(a->doc.skin_count, b->doc.skin_count);
    for (uint32_t s = 0; s < a->doc.skin_count; s++) {
        const anim_skin *x = &a->doc.skins[s], *y = &b->doc.skins[s];
        assert_int_equal(x->joint_count, y->joint_count);
        for (uint32_t j = 0; j < x->joint_count; j++)
            assert_int_equal(a->doc.node_to_bone[x->joints[j]], b->doc.node_to_bone[y->joints[j]]);
        assert_true((x->skeleton == ANIM_NONE) == (y->skeleton == ANIM_NONE));
        if (x->skeleton != ANIM_NONE)
            assert_int_equal(a->doc.node_to_bone[x->skeleton], b->doc.node_to_bone[y->skeleton]);
        assert_true((x->inverse_bind_accessor == ANIM_NONE) ==
                    (y->inverse_bind_accessor == ANIM_NONE));
        if (x->inverse_bind_accessor != ANIM_NONE)
            expect_same_accessor(a, x->inverse_bind_accessor, b, y->inverse_bind_accessor, "skin");
    }
}

static void image_payload(const anim_asset *a, uint32_t i, const uint8_t **p, size_t *n)
{
    const anim_image *img = &a->doc.images[i];
    assert_int_equal(img->source, ANIM_IMAGE_BUFFER_VIEW);
    const anim_buffer_view *v = &a->source.views[img->buffer_view];
    *p = a->source.buffers[v->buffer].data + v->byte_offset;
    *n = v->byte_length;
}

static void expect_same_materials_and_images(const anim_asset *a, const anim_asset *b)
{
    static const char *const verbatim[] = {"materials", "textures", "samplers", "cameras",
                                           "extensionsUsed"};
    for (size_t k = 0; k < sizeof verbatim / sizeof *verbatim; k++)
        if (!json_equal(anim_json_get(a->source.root, verbatim[k]),
                        anim_json_get(b->source.root, verbatim[k])))
            fail_msg("%s differ", verbatim[k]);
    assert_int_equal(a->doc.image_count, b->doc.image_count);
    for (uint32_t i = 0; i < a->doc.image_count; i++) {
        if (a->doc.images[i].source != ANIM_IMAGE_BUFFER_VIEW)
            continue; /* no image file in the corpus's loadable .gltf files */
        const uint8_t *pa, *pb;
        size_t na, nb;
        image_payload(a, i, &pa, &na);
        image_payload(b, i, &pb, &nb);
        assert_int_equal(na, nb);
        assert_memory_equal(pa, pb, na);
    }
}

static void expect_same_track(const anim_track *x, const anim_track *y)
{
    assert_int_equal(x->bone, y->bone);
    assert_int_equal(x->path, y->path);
    assert_int_equal(x->interp, y->interp);
    assert_int_equal(x->key_count, y->key_count);
    assert_int_equal(x->value_count, y->value_count);
    assert_int_equal(x->components, y->components);
    assert_memory_equal(x->times, y->times, (size_t)x->key_count * 4);
    assert_memory_equal(x->values, y->values, (size_t)x->value_count * x->components * 4);
}

static void expect_same_doc(const anim_asset *a, const anim_asset *b)
{
    assert_int_equal(a->doc.bone_count, b->doc.bone_count);
    for (uint32_t i = 0; i < a->doc.bone_count; i++) {
        const anim_bone *x = &a->doc.bones[i], *y = &b->doc.bones[i];
        assert_string_equal(x->name, y->name);
        assert_int_equal(x->parent, y->parent);
        for (int c = 0; c < 3; c++) {
            assert_true((float)x->rest_translation[c] == (float)y->rest_translation[c]);
            assert_true((float)x->rest_scale[c] == (float)y->rest_scale[c]);
        }
        for (int c = 0; c < 4; c++)
            assert_true((float)x->rest_rotation[c] == (float)y->rest_rotation[c]);
        assert_int_equal(x->mesh, y->mesh);
        assert_int_equal(x->skin, y->skin);
    }
    assert_int_equal(a->doc.clip_count, b->doc.clip_count);
    for (uint32_t c = 0; c < a->doc.clip_count; c++) {
        const anim_clip *x = &a->doc.clips[c], *y = &b->doc.clips[c];
        assert_string_equal(x->name, y->name);
        assert_int_equal(x->track_count, y->track_count);
        assert_int_equal(x->morph_track_count, y->morph_track_count);
        for (uint32_t t = 0; t < x->track_count; t++)
            expect_same_track(&x->tracks[t], &y->tracks[t]);
        for (uint32_t t = 0; t < x->morph_track_count; t++)
            expect_same_track(&x->morph_tracks[t], &y->morph_tracks[t]);
    }
}

static anim_asset *write_and_load(const anim_asset *in, anim_gltf_format format,
                                  anim_strbuf *out)
{
    anim_error err = {0};
    anim_gltf_write_summary sum;
    if (anim_gltf_write_asset_mem(in, NULL, format, "animsmith test", out, &sum, &err) != 0)
        fail_msg("%s: %s", in->source.path, err.message);
    assert_int_equal(sum.meshes, in->doc.mesh_count);
    anim_asset *back = anim_asset_load_memory(out->data, out->len, format == ANIM_GLTF_FORMAT_GLB,
                                              NULL, "written", NULL, &err);
    if (!back)
        fail_msg("%s: reloading the written file: %s", in->source.path, err.message);
    return back;
}

static void roundtrip_one(const char *path)
{
    anim_error err = {0};
    anim_asset *in = anim_asset_load(path, NULL, &err);
    if (!in)
        return; /* not loadable: the reader refuses it (Draco, quantized) */
    for (int f = 0; f < 2; f++) {
        anim_gltf_format format = f ? ANIM_GLTF_FORMAT_GLTF : ANIM_GLTF_FORMAT_GLB;
        anim_strbuf first = ANIM_STRBUF_INIT, again = ANIM_STRBUF_INIT, second = ANIM_STRBUF_INIT;
        anim_asset *back = write_and_load(in, format, &first);
        expect_same_doc(in, back);
        expect_same_meshes(in, back);
        expect_same_skins(in, back);
        expect_same_materials_and_images(in, back);
        /* Deterministic, and a fixed point after one write. */
        anim_asset_free(write_and_load(in, format, &again));
        assert_int_equal(first.len, again.len);
        assert_memory_equal(first.data, again.data, first.len);
        anim_asset_free(write_and_load(back, format, &second));
        assert_int_equal(first.len, second.len);
        assert_memory_equal(first.data, second.data, first.len);
        anim_asset_free(back);
        anim_strbuf_free(&first);
        anim_strbuf_free(&again);
        anim_strbuf_free(&second);
    }
    anim_asset_free(in);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_corpus_roundtrip(void **state)
{
    (void)state;
    char dir[1024];
    DIR *d = opendir(corpus_dir(dir, sizeof dir));
    if (!d)
        skip();
    char *names[256];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256)
        if (anim_path_has_extension(e->d_name, ".glb") || anim_path_has_extension(e->d_name, ".gltf"))
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    assert_true(n >= 20);
    for (size_t i = 0; i < n; i++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        print_message("round trip %s\n", names[i]);
        roundtrip_one(path);
        free(names[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_roundtrip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
