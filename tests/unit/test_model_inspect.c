/* model.inspect (src/model/mdl_inspect*.c, mdl_mesh_check.c): documents
 * are built directly with the document calls, mdl_inspect runs on parsed
 * params, and every reply is parsed back and checked field by field —
 * rows and their order in every domain, cursors followed to the end, the
 * 12 KiB budget (also with long escaped names and limit 128), strict
 * params, validation issues and the solid checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/json.h"
#include "animsmith/json_write.h"
#include "animsmith/model.h"
#include "model/mdl_doc.h"
#include "model/mdl_inspect.h"

static anim_arena *arena;
static anim_model_limits limits;
static anim_model_head head;

static int setup(void **state)
{
    (void)state;
    arena = anim_arena_new();
    anim_model_limits_default(&limits);
    head.generation = 7;
    memset(head.content, 'a', 64);
    head.content[64] = '\0';
    return arena ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    anim_arena_free(arena);
    return 0;
}

/* ---- calling inspect */

static const anim_json_value *parse(const char *text)
{
    anim_error err;
    memset(&err, 0, sizeof err);
    const char *copy = anim_arena_strdup(arena, text);
    const anim_json_value *v = anim_json_parse(arena, copy, strlen(copy), NULL, &err);
    if (!v)
        fail_msg("unparsable JSON: %s", text);
    return v;
}

static size_t last_reply_len;

/* Runs inspect; on success returns the parsed reply (and checks the
 * budget), on refusal NULL with kind and code copied out. */
static const anim_json_value *run(const mdl_doc *d, const char *params, char *kind, int *code)
{
    anim_strbuf reply = ANIM_STRBUF_INIT;
    anim_model_fault fault;
    anim_model_fault_init(&fault);
    int rc = mdl_inspect(d, "robot", &head, parse(params), &limits, &reply, &fault);
    const anim_json_value *v = NULL;
    if (rc == 0) {
        last_reply_len = reply.len;
        if (reply.len > limits.max_reply_bytes)
            fail_msg("reply of %zu bytes for %s", reply.len, params);
        v = parse(reply.data);
    } else {
        assert_int_equal(reply.len, 0);
        if (kind)
            snprintf(kind, 64, "%s", fault.kind);
        if (code)
            *code = fault.code;
        assert_non_null(strchr(fault.message, ':'));
        assert_null(strchr(fault.message, '\n'));
    }
    anim_strbuf_free(&reply);
    anim_model_fault_free(&fault);
    return v;
}

static const anim_json_value *ok(const mdl_doc *d, const char *params)
{
    char kind[64] = "";
    const anim_json_value *v = run(d, params, kind, NULL);
    if (!v)
        fail_msg("refused (%s): %s", kind, params);
    return v;
}

static void refused(const mdl_doc *d, const char *params, const char *kind, int code)
{
    char got[64] = "";
    int got_code = 0;
    if (run(d, params, got, &got_code))
        fail_msg("accepted: %s", params);
    if (strcmp(got, kind) != 0)
        fail_msg("%s: kind %s, expected %s", params, got, kind);
    assert_int_equal(got_code, code);
}

/* ---- reading replies */

static const anim_json_value *get(const anim_json_value *v, const char *key)
{
    const anim_json_value *m = anim_json_get(v, key);
    if (!m)
        fail_msg("no member \"%s\"", key);
    return m;
}

static int64_t num(const anim_json_value *v, const char *key)
{
    const anim_json_value *m = get(v, key);
    if (!anim_json_is_integer(m))
        fail_msg("member \"%s\" is not an integer", key);
    return anim_json_integer(m);
}

static double f64(const anim_json_value *v, const char *key)
{
    const anim_json_value *m = get(v, key);
    assert_int_equal(m->type, ANIM_JSON_NUMBER);
    return anim_json_number(m);
}

static bool flag(const anim_json_value *v, const char *key)
{
    const anim_json_value *m = get(v, key);
    if (m->type != ANIM_JSON_TRUE && m->type != ANIM_JSON_FALSE)
        fail_msg("member \"%s\" is not a boolean", key);
    return m->type == ANIM_JSON_TRUE;
}

static bool is_null(const anim_json_value *v, const char *key)
{
    return get(v, key)->type == ANIM_JSON_NULL;
}

static void assert_str(const anim_json_value *v, const char *key, const char *want)
{
    const anim_json_value *m = get(v, key);
    if (!anim_json_string_eq(m, want))
        fail_msg("member \"%s\" is not \"%s\"", key, want);
}

static uint64_t id_of(const anim_json_value *v)
{
    assert_int_equal(v->type, ANIM_JSON_STRING);
    char buf[32];
    assert_true(v->len < sizeof buf);
    memcpy(buf, v->u.string, v->len);
    buf[v->len] = '\0';
    return strtoull(buf, NULL, 10);
}

static uint64_t id_at(const anim_json_value *v, const char *key)
{
    return id_of(get(v, key));
}

static const anim_json_value *items(const anim_json_value *reply)
{
    const anim_json_value *it = get(reply, "items");
    assert_int_equal(it->type, ANIM_JSON_ARRAY);
    assert_int_equal(anim_json_count(it), num(reply, "count"));
    return it;
}

static const anim_json_value *item(const anim_json_value *arr, size_t i)
{
    assert_true(i < anim_json_count(arr));
    return anim_json_item(arr, i);
}

/* ---- building meshes */

static uint64_t vtx(mdl_object *o, double x, double y, double z)
{
    double p[3] = {x, y, z};
    uint64_t id = mdl_object_add_vertex(o, p);
    assert_true(id != 0);
    return id;
}

static uint64_t face(mdl_object *o, const uint64_t *v, uint32_t n, int32_t material)
{
    uint64_t id = mdl_object_add_face(o, v, NULL, n, material, false);
    assert_true(id != 0);
    return id;
}

/* An axis-aligned cube from (x, y, z) with side s, faces wound outward
 * (or inward when inverted). */
static void cube(mdl_object *o, double x, double y, double z, double s, bool inverted)
{
    static const int quads[6][4] = {{1, 3, 7, 5}, {0, 4, 6, 2}, {2, 6, 7, 3},
                                    {0, 1, 5, 4}, {4, 5, 7, 6}, {0, 2, 3, 1}};
    uint64_t v[8];
    for (int i = 0; i < 8; i++)
        v[i] = vtx(o, x + s * (i & 1), y + s * ((i >> 1) & 1), z + s * ((i >> 2) & 1));
    for (int f = 0; f < 6; f++) {
        uint64_t q[4];
        for (int k = 0; k < 4; k++)
            q[k] = v[quads[f][inverted ? 3 - k : k]];
        face(o, q, 4, 0);
    }
}

static void set_weights(mdl_object *o, uint64_t v, size_t n, const uint32_t *j, const double *w)
{
    assert_int_equal(mdl_object_set_vertex_weights(o, v, j, w, n), 0);
}

static void skeleton(mdl_doc *d, size_t n)
{
    mdl_joint j[8];
    char names[8][32];
    assert_true(n <= 8);
    for (size_t i = 0; i < n; i++) {
        memset(&j[i], 0, sizeof j[i]);
        snprintf(names[i], sizeof names[i], "joint%zu", i);
        j[i].name = names[i];
        j[i].parent = i == 0 ? MDL_NO_PARENT : (int32_t)i - 1;
        j[i].translation[1] = (double)i;
        j[i].rotation[3] = 1;
        j[i].scale[0] = j[i].scale[1] = j[i].scale[2] = 1;
    }
    assert_int_equal(mdl_doc_set_joints(d, j, n), 0);
}

/* A clip with channels of the given key counts (times 0, 0.5, 1, ...). */
static void clip(mdl_doc *d, const char *name, size_t channels, const size_t *keys)
{
    mdl_clip *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->refs = 1;
    c->name = malloc(strlen(name) + 1);
    assert_non_null(c->name);
    strcpy(c->name, name);
    c->channels = calloc(channels, sizeof *c->channels);
    assert_non_null(c->channels);
    c->channel_count = channels;
    for (size_t i = 0; i < channels; i++) {
        mdl_channel *ch = &c->channels[i];
        ch->joint = (uint32_t)i;
        ch->path = i % 2 ? MDL_PATH_ROTATION : MDL_PATH_TRANSLATION;
        ch->keys = calloc(keys[i], sizeof *ch->keys);
        assert_non_null(ch->keys);
        ch->key_count = keys[i];
        for (size_t k = 0; k < keys[i]; k++) {
            ch->keys[k].time = 0.5 * (double)k;
            ch->keys[k].value[0] = (double)k;
            ch->keys[k].value[3] = i % 2 ? 1 : 0;
        }
    }
    assert_int_equal(mdl_doc_put_clip(d, c), 0);
}

/* Follows next_offset from 0 to the end; returns the pages it took and
 * calls visit on every row. */
typedef void (*visit_fn)(const anim_json_value *row, void *user);

static size_t follow(const mdl_doc *d, const char *object, const char *domain, int limit,
                     visit_fn visit, void *user, uint64_t *total)
{
    int64_t offset = 0;
    size_t pages = 0;
    char params[512];
    for (;;) {
        int n;
        if (object)
            n = snprintf(params, sizeof params,
                         "{\"document\":\"robot\",\"object\":\"%s\",\"domain\":\"%s\","
                         "\"offset\":%" PRId64 ",\"limit\":%d}",
                         object, domain, offset, limit);
        else
            n = snprintf(params, sizeof params,
                         "{\"document\":\"robot\",\"domain\":\"%s\",\"offset\":%" PRId64
                         ",\"limit\":%d}",
                         domain, offset, limit);
        assert_true(n > 0 && (size_t)n < sizeof params);
        const anim_json_value *r = ok(d, params);
        const anim_json_value *it = items(r);
        pages++;
        *total = (uint64_t)num(r, "total");
        assert_int_equal(num(r, "offset"), offset);
        assert_int_equal(num(r, "limit"), limit);
        int64_t count = num(r, "count");
        assert_true(count >= 1);
        assert_true(count <= limit);
        assert_int_equal(num(r, "omitted"), (int64_t)*total - offset - count);
        for (size_t i = 0; i < anim_json_count(it); i++)
            visit(item(it, i), user);
        if (is_null(r, "next_offset")) {
            assert_int_equal(offset + count, (int64_t)*total);
            return pages;
        }
        assert_int_equal(num(r, "next_offset"), offset + count);
        if (!flag(r, "byte_limited"))
            assert_int_equal(count, limit);
        offset = num(r, "next_offset");
    }
}

/* ---- document domains */

static mdl_doc *sample_doc(void)
{
    mdl_doc *d = mdl_doc_new();
    assert_non_null(d);
    mdl_object *b = mdl_doc_add_object(d, "body");
    mdl_object *a = mdl_doc_add_object(d, "arm");
    assert_non_null(a);
    assert_non_null(b);
    cube(b, 0, 0, 0, 1, false);
    b->faces[2].material = 7;
    uint64_t t[3] = {vtx(a, 0, 0, 0), vtx(a, 2, 0, 0), vtx(a, 0, 3, -1)};
    face(a, t, 3, 3);
    d->materials[3].defined = true;
    d->materials[3].color[0] = 0.5;
    d->materials[7].defined = true;
    d->materials[7].color[2] = 1;
    d->materials[7].texture = mdl_texture_new(4, 2);
    assert_non_null(d->materials[7].texture);
    d->materials[7].texture->refs = 1;
    skeleton(d, 3);
    size_t walk[3] = {3, 2, 4}, idle[1] = {2};
    clip(d, "walk", 3, walk);
    clip(d, "idle", 1, idle);
    return d;
}

static void test_document_overview(void **state)
{
    (void)state;
    mdl_doc *d = sample_doc();
    const anim_json_value *r = ok(d, "{\"document\":\"robot\",\"domain\":\"overview\"}");
    assert_str(r, "document", "robot");
    assert_str(get(r, "head"), "generation", "7");
    assert_str(r, "domain", "overview");
    assert_null(anim_json_get(r, "object"));
    const anim_json_value *o = get(r, "overview");
    const anim_json_value *c = get(o, "counts");
    assert_int_equal(num(c, "objects"), 2);
    assert_int_equal(num(c, "materials"), 2);
    assert_int_equal(num(c, "joints"), 3);
    assert_int_equal(num(c, "clips"), 2);
    assert_int_equal(num(c, "vertices"), 11);
    assert_int_equal(num(c, "faces"), 7);
    assert_int_equal(num(c, "corners"), 27);
    assert_int_equal(num(c, "triangles"), 13);
    const anim_json_value *inv = get(o, "inventories");
    const anim_json_value *objs = get(inv, "objects");
    assert_int_equal(num(objs, "total"), 2);
    assert_true(anim_json_string_eq(item(get(objs, "preview"), 0), "arm"));
    assert_true(anim_json_string_eq(item(get(objs, "preview"), 1), "body"));
    assert_true(is_null(objs, "next_offset"));
    const anim_json_value *mats = get(inv, "materials");
    assert_int_equal(anim_json_integer(item(get(mats, "preview"), 0)), 3);
    assert_int_equal(anim_json_integer(item(get(mats, "preview"), 1)), 7);
    assert_true(anim_json_string_eq(item(get(get(inv, "joints"), "preview"), 2), "joint2"));
    assert_true(anim_json_string_eq(item(get(get(inv, "clips"), "preview"), 0), "idle"));
    const anim_json_value *l = get(o, "limits");
    assert_int_equal(num(l, "max_objects"), 2048);
    assert_int_equal(num(l, "max_materials"), 512);
    assert_int_equal(num(l, "max_batch_operations"), 256);
    assert_int_equal(num(l, "max_reply_bytes"), 12288);
    mdl_doc_free(d);
}

static void test_document_pages(void **state)
{
    (void)state;
    mdl_doc *d = sample_doc();
    const anim_json_value *r = ok(d, "{\"document\":\"robot\",\"domain\":\"objects\"}");
    const anim_json_value *it = items(r);
    assert_int_equal(num(r, "total"), 2);
    assert_int_equal(num(r, "limit"), 32);
    assert_true(is_null(r, "next_offset"));
    assert_false(flag(r, "byte_limited"));
    const anim_json_value *arm = item(it, 0), *body = item(it, 1);
    assert_str(arm, "name", "arm");
    assert_int_equal(num(arm, "vertex_count"), 3);
    assert_int_equal(num(arm, "face_count"), 1);
    assert_int_equal(num(arm, "corner_count"), 3);
    assert_int_equal(num(arm, "weight_count"), 0);
    assert_int_equal(anim_json_integer(item(get(arm, "materials"), 0)), 3);
    const anim_json_value *bmin = get(get(arm, "bounds"), "min");
    assert_true(anim_json_number(item(bmin, 2)) == -1);
    assert_true(anim_json_number(item(get(get(arm, "bounds"), "max"), 1)) == 3);
    assert_str(body, "name", "body");
    assert_int_equal(anim_json_count(get(body, "materials")), 2);
    assert_int_equal(anim_json_integer(item(get(body, "materials"), 1)), 7);

    r = ok(d, "{\"document\":\"robot\",\"domain\":\"materials\"}");
    it = items(r);
    assert_int_equal(num(r, "total"), 2);
    assert_int_equal(num(item(it, 0), "material"), 3);
    assert_true(is_null(item(it, 0), "texture"));
    assert_true(anim_json_number(item(get(item(it, 0), "color"), 0)) == 0.5);
    assert_int_equal(num(item(it, 1), "material"), 7);
    assert_int_equal(num(get(item(it, 1), "texture"), "width"), 4);
    assert_int_equal(num(get(item(it, 1), "texture"), "height"), 2);

    r = ok(d, "{\"document\":\"robot\",\"domain\":\"joints\",\"offset\":1}");
    it = items(r);
    assert_int_equal(num(r, "total"), 3);
    assert_int_equal(num(r, "count"), 2);
    assert_int_equal(num(item(it, 0), "joint"), 1);
    assert_str(item(it, 0), "name", "joint1");
    assert_int_equal(num(item(it, 0), "parent"), 0);
    assert_true(anim_json_number(item(get(item(it, 1), "translation"), 1)) == 2);
    assert_int_equal(anim_json_count(get(item(it, 1), "rotation")), 4);
    assert_int_equal(anim_json_count(get(item(it, 1), "scale")), 3);
    r = ok(d, "{\"document\":\"robot\",\"domain\":\"joints\",\"limit\":1}");
    assert_true(is_null(item(items(r), 0), "parent"));
    assert_int_equal(num(r, "next_offset"), 1);
    assert_int_equal(num(r, "omitted"), 2);

    r = ok(d, "{\"document\":\"robot\",\"domain\":\"clips\"}");
    it = items(r);
    assert_str(item(it, 0), "name", "idle");
    assert_int_equal(num(item(it, 0), "channels"), 1);
    assert_int_equal(num(item(it, 0), "keyframes"), 2);
    assert_int_equal(num(item(it, 0), "key_offset"), 0);
    assert_true(f64(item(it, 0), "duration") == 0.5);
    assert_str(item(it, 1), "name", "walk");
    assert_int_equal(num(item(it, 1), "keyframes"), 9);
    assert_int_equal(num(item(it, 1), "key_offset"), 2);
    assert_true(f64(item(it, 1), "duration") == 1.5);

    /* clip_keys: idle (2 keys), then walk channel 0 (3), 1 (2), 2 (4). */
    r = ok(d, "{\"document\":\"robot\",\"domain\":\"clip_keys\",\"offset\":1,\"limit\":6}");
    it = items(r);
    assert_int_equal(num(r, "total"), 11);
    static const struct {
        const char *clip;
        int channel, key;
        const char *path;
    } want[6] = {{"idle", 0, 1, "translation"}, {"walk", 0, 0, "translation"},
                 {"walk", 0, 1, "translation"}, {"walk", 0, 2, "translation"},
                 {"walk", 1, 0, "rotation"},    {"walk", 1, 1, "rotation"}};
    for (size_t i = 0; i < 6; i++) {
        const anim_json_value *k = item(it, i);
        assert_str(k, "clip", want[i].clip);
        assert_int_equal(num(k, "channel"), want[i].channel);
        assert_int_equal(num(k, "joint"), want[i].channel);
        assert_int_equal(num(k, "key"), want[i].key);
        assert_str(k, "path", want[i].path);
        assert_true(f64(k, "time") == 0.5 * want[i].key);
        assert_int_equal(anim_json_count(get(k, "value")), 4);
    }
    assert_int_equal(num(r, "next_offset"), 7);
    r = ok(d, "{\"document\":\"robot\",\"domain\":\"clip_keys\",\"offset\":10}");
    assert_int_equal(num(item(items(r), 0), "channel"), 2);
    assert_int_equal(num(item(items(r), 0), "key"), 3);
    assert_true(is_null(r, "next_offset"));
    mdl_doc_free(d);
}

/* ---- object domains */

static void test_object_pages(void **state)
{
    (void)state;
    mdl_doc *d = mdl_doc_new();
    mdl_object *o = mdl_doc_add_object(d, "tri");
    uint64_t v[4] = {vtx(o, 0, 0, 0), vtx(o, 1, 0, 0), vtx(o, 1, 1, 0), vtx(o, 0, 1, 0)};
    uint64_t f0 = face(o, (uint64_t[]){v[0], v[1], v[2]}, 3, 0);
    uint64_t f1 = face(o, (uint64_t[]){v[0], v[2], v[3]}, 3, 2);
    o->faces[1].smooth = true;
    o->corners[4].has_normal = true;
    o->corners[4].normal[2] = 1;
    o->corners[4].uv[0] = 0.25;
    assert_int_equal(mdl_object_set_edge_attr(o, v[2], v[0], true, 0.5), 0);
    skeleton(d, 8);
    set_weights(o, v[1], 6, (uint32_t[]){5, 0, 1, 2, 3, 4},
                (double[]){0.1, 0.1, 0.2, 0.2, 0.2, 0.2});
    set_weights(o, v[3], 1, (uint32_t[]){2}, (double[]){1});

    const anim_json_value *r =
        ok(d, "{\"document\":\"robot\",\"object\":\"tri\",\"domain\":\"vertices\"}");
    assert_str(r, "object", "tri");
    const anim_json_value *it = items(r);
    assert_int_equal(num(r, "total"), 4);
    assert_int_equal(id_at(item(it, 0), "id"), v[0]);
    assert_int_equal(num(item(it, 0), "weight_count"), 0);
    assert_int_equal(num(item(it, 0), "weight_offset"), 0);
    const anim_json_value *v1 = item(it, 1);
    assert_int_equal(num(v1, "weight_count"), 6);
    assert_int_equal(anim_json_count(get(v1, "weights")), 4);
    assert_int_equal(num(item(get(v1, "weights"), 0), "joint"), 0);
    assert_int_equal(num(item(get(v1, "weights"), 3), "joint"), 3);
    assert_int_equal(num(v1, "weight_offset"), 0);
    assert_int_equal(num(item(it, 2), "weight_offset"), 6);
    assert_int_equal(num(item(it, 3), "weight_offset"), 6);
    assert_true(anim_json_number(item(get(item(it, 2), "position"), 1)) == 1);

    r = ok(d, "{\"document\":\"robot\",\"object\":\"tri\",\"domain\":\"weights\",\"offset\":4}");
    it = items(r);
    assert_int_equal(num(r, "total"), 7);
    assert_int_equal(id_at(item(it, 0), "vertex"), v[1]);
    assert_int_equal(num(item(it, 0), "weight_index"), 4);
    assert_int_equal(num(item(it, 0), "joint"), 4);
    assert_int_equal(num(item(it, 1), "joint"), 5);
    assert_int_equal(id_at(item(it, 2), "vertex"), v[3]);
    assert_int_equal(num(item(it, 2), "weight_index"), 0);
    assert_true(f64(item(it, 2), "weight") == 1);

    r = ok(d, "{\"document\":\"robot\",\"object\":\"tri\",\"domain\":\"faces\"}");
    it = items(r);
    assert_int_equal(id_at(item(it, 0), "id"), f0);
    assert_int_equal(num(item(it, 0), "corner_offset"), 0);
    assert_int_equal(num(item(it, 0), "corner_count"), 3);
    assert_false(flag(item(it, 0), "smooth"));
    assert_true(anim_json_number(item(get(item(it, 0), "normal"), 2)) == 1);
    assert_int_equal(id_at(item(it, 1), "id"), f1);
    assert_int_equal(num(item(it, 1), "corner_offset"), 3);
    assert_int_equal(num(item(it, 1), "material"), 2);
    assert_true(flag(item(it, 1), "smooth"));

    r = ok(d, "{\"document\":\"robot\",\"object\":\"tri\",\"domain\":\"corners\",\"offset\":2}");
    it = items(r);
    assert_int_equal(num(r, "total"), 6);
    assert_int_equal(id_at(item(it, 0), "face"), f0);
    assert_int_equal(num(item(it, 0), "index"), 2);
    assert_int_equal(id_at(item(it, 0), "vertex"), v[2]);
    assert_true(is_null(item(it, 0), "normal"));
    assert_false(flag(item(it, 0), "explicit"));
    const anim_json_value *c4 = item(it, 2);
    assert_int_equal(id_at(c4, "face"), f1);
    assert_int_equal(num(c4, "index"), 1);
    assert_int_equal(id_at(c4, "vertex"), v[2]);
    assert_true(flag(c4, "explicit"));
    assert_true(anim_json_number(item(get(c4, "normal"), 2)) == 1);
    assert_true(anim_json_number(item(get(c4, "uv"), 0)) == 0.25);

    r = ok(d, "{\"document\":\"robot\",\"object\":\"tri\",\"domain\":\"edges\"}");
    it = items(r);
    assert_int_equal(num(r, "total"), 5);
    uint64_t pa = 0, pb = 0;
    for (size_t i = 0; i < 5; i++) {
        const anim_json_value *e = item(it, i);
        uint64_t a = id_of(item(get(e, "vertices"), 0)), b = id_of(item(get(e, "vertices"), 1));
        assert_true(a < b);
        assert_true(a > pa || (a == pa && b > pb));
        pa = a;
        pb = b;
        bool diagonal = a == v[0] && b == v[2];
        assert_int_equal(num(e, "face_count"), diagonal ? 2 : 1);
        assert_int_equal(flag(e, "boundary"), !diagonal);
        assert_true(flag(e, "manifold"));
        assert_int_equal(flag(e, "seam"), diagonal);
        assert_true(f64(e, "crease") == (diagonal ? 0.5 : 0));
        assert_false(flag(e, "faces_truncated"));
    }

    r = ok(d, "{\"document\":\"robot\",\"object\":\"tri\",\"domain\":\"overview\"}");
    const anim_json_value *ov = get(r, "overview");
    assert_str(ov, "name", "tri");
    assert_int_equal(num(get(ov, "counts"), "edges"), 5);
    assert_int_equal(num(get(ov, "counts"), "triangles"), 2);
    assert_int_equal(num(get(ov, "counts"), "weights"), 7);
    assert_int_equal(anim_json_count(get(ov, "materials")), 2);
    mdl_doc_free(d);
}

/* ---- paging a large object to the end */

typedef struct seen {
    unsigned char *hits;
    size_t max;
    size_t rows;
    const char *key;
} seen;

static void mark_id(const anim_json_value *row, void *user)
{
    seen *s = user;
    uint64_t id = id_at(row, s->key);
    assert_true(id < s->max);
    assert_int_equal(s->hits[id], 0);
    s->hits[id] = 1;
    s->rows++;
}

static void count_row(const anim_json_value *row, void *user)
{
    (void)row;
    ((seen *)user)->rows++;
}

static void test_page_large_object(void **state)
{
    (void)state;
    mdl_doc *d = mdl_doc_new();
    skeleton(d, 4);
    mdl_object *o = mdl_doc_add_object(d, "strip");
    uint64_t ids[2000];
    for (size_t i = 0; i < 1000; i++) {
        ids[2 * i] = vtx(o, (double)i * 0.123456789, 0, 0.1 / 3);
        ids[2 * i + 1] = vtx(o, (double)i * 0.123456789, 1.0 / 3, 0.2 / 3);
    }
    for (size_t i = 0; i + 1 < 1000; i++)
        face(o, (uint64_t[]){ids[2 * i], ids[2 * i + 2], ids[2 * i + 3], ids[2 * i + 1]}, 4, 0);
    for (size_t i = 0; i < 2000; i++)
        set_weights(o, ids[i], 3, (uint32_t[]){0, 1, 3}, (double[]){0.3, 0.3, 0.4});

    unsigned char *hits = calloc(10000, 1);
    assert_non_null(hits);
    seen s = {hits, 10000, 0, "id"};
    uint64_t total;
    size_t pages = follow(d, "strip", "vertices", 128, mark_id, &s, &total);
    assert_int_equal(total, 2000);
    assert_int_equal(s.rows, 2000);
    for (size_t i = 0; i < 2000; i++)
        assert_int_equal(hits[ids[i]], 1);
    assert_true(pages >= 16);

    memset(hits, 0, 10000);
    s = (seen){hits, 10000, 0, "id"};
    follow(d, "strip", "corners", 128, mark_id, &s, &total);
    assert_int_equal(s.rows, 3996);
    memset(hits, 0, 10000);
    s = (seen){hits, 10000, 0, "id"};
    follow(d, "strip", "faces", 100, mark_id, &s, &total);
    assert_int_equal(s.rows, 999);
    s = (seen){NULL, 0, 0, NULL};
    follow(d, "strip", "edges", 128, count_row, &s, &total);
    assert_int_equal(s.rows, 2998);
    s.rows = 0;
    follow(d, "strip", "weights", 128, count_row, &s, &total);
    assert_int_equal(s.rows, 6000);
    s.rows = 0;
    follow(d, "strip", "vertices", 7, count_row, &s, &total);
    assert_int_equal(s.rows, 2000);
    free(hits);
    mdl_doc_free(d);
}

/* ---- the byte budget */

static void long_name(char *buf, size_t i)
{
    /* 128 bytes, many of them control characters that escape to 6. */
    for (size_t k = 0; k < 128; k++)
        buf[k] = k < 4 ? (char)('a' + (i >> (4 * k) & 15)) : (char)(1 + k % 30);
    buf[128] = '\0';
}

static void test_byte_budget(void **state)
{
    (void)state;
    mdl_doc *d = mdl_doc_new();
    char name[129];
    for (size_t i = 0; i < 300; i++) {
        long_name(name, i);
        mdl_object *o = mdl_doc_add_object(d, name);
        assert_non_null(o);
        uint64_t t[3] = {vtx(o, 0, 0, 0), vtx(o, 1, 0, 0), vtx(o, 0, 1, 0)};
        face(o, t, 3, (int32_t)i);
    }
    const anim_json_value *r = ok(d, "{\"document\":\"robot\",\"domain\":\"overview\"}");
    const anim_json_value *objs = get(get(get(r, "overview"), "inventories"), "objects");
    size_t shown = anim_json_count(get(objs, "preview"));
    assert_true(shown >= 1 && shown <= 8);
    assert_int_equal(num(objs, "next_offset"), (int64_t)shown);

    r = ok(d, "{\"document\":\"robot\",\"domain\":\"objects\",\"limit\":128}");
    assert_true(flag(r, "byte_limited"));
    assert_true(num(r, "count") < 128);
    assert_true(last_reply_len > 10000);
    seen s = {NULL, 0, 0, NULL};
    uint64_t total;
    follow(d, NULL, "objects", 128, count_row, &s, &total);
    assert_int_equal(s.rows, 300);

    /* An object named with 128 escaped bytes, inspected with limit 128 in
     * every domain, including an overview full of issues. */
    long_name(name, 999);
    mdl_object *o = mdl_doc_add_object(d, name);
    uint64_t prev = vtx(o, 0, 0, 0);
    for (size_t i = 0; i < 400; i++) {
        uint64_t a = vtx(o, (double)i + 1, 0, 0), b = vtx(o, (double)i + 1, 1, 0.5 * (i % 2));
        face(o, (uint64_t[]){prev, a, b, vtx(o, (double)i, 1, 0)}, 4, 5);
        prev = a;
    }
    char params[1024];
    static const char *const domains[] = {"overview", "vertices", "faces", "corners",
                                          "edges", "weights", "solid"};
    anim_strbuf esc = ANIM_STRBUF_INIT;
    anim_json_escape_string(&esc, name, 128);
    for (size_t i = 0; i < 7; i++) {
        snprintf(params, sizeof params,
                 "{\"document\":\"robot\",\"object\":%s,\"domain\":\"%s\",\"limit\":128}",
                 esc.data, domains[i]);
        r = ok(d, params);
        assert_true(last_reply_len <= 12288);
        if (i == 0) {
            const anim_json_value *val = get(get(r, "overview"), "validation");
            assert_true(num(val, "issues_total") > 128);
            assert_true(num(val, "issues_returned") >= 1);
            assert_true(flag(val, "issues_byte_limited"));
            assert_int_equal(num(val, "next_issue_offset"), num(val, "issues_returned"));
        } else if (i != 5) {
            assert_true(num(r, "count") >= 1);
        }
    }
    anim_strbuf_free(&esc);
    mdl_doc_free(d);
}

/* A row too large on its own is cut down rather than never returned. */
static void test_row_cut(void **state)
{
    (void)state;
    mdl_doc *d = mdl_doc_new();
    mdl_object *o = mdl_doc_add_object(d, "fan");
    uint64_t a = vtx(o, 0, 0, 0), b = vtx(o, 1, 0, 0);
    for (size_t i = 0; i < 2000; i++) {
        double ang = (double)i * 0.003;
        face(o, (uint64_t[]){a, b, vtx(o, 0.5, cos(ang), sin(ang))}, 3, 0);
    }
    const anim_json_value *r =
        ok(d, "{\"document\":\"robot\",\"object\":\"fan\",\"domain\":\"edges\",\"limit\":2}");
    const anim_json_value *e = item(items(r), 0);
    assert_int_equal(num(e, "face_count"), 2000);
    assert_true(flag(e, "faces_truncated"));
    assert_false(flag(e, "manifold"));
    assert_true(anim_json_count(get(e, "faces")) < 2000);
    assert_int_equal(num(r, "count"), 2);
    assert_true(flag(r, "byte_limited"));
    assert_int_equal(num(r, "next_offset"), 2);
    r = ok(d, "{\"document\":\"robot\",\"object\":\"fan\",\"domain\":\"edges\",\"offset\":1}");
    assert_false(flag(item(items(r), 0), "faces_truncated"));
    mdl_doc_free(d);
}

static void test_offset_past_end(void **state)
{
    (void)state;
    mdl_doc *d = sample_doc();
    const anim_json_value *r =
        ok(d, "{\"document\":\"robot\",\"domain\":\"objects\",\"offset\":5000}");
    assert_int_equal(anim_json_count(items(r)), 0);
    assert_int_equal(num(r, "total"), 2);
    assert_int_equal(num(r, "count"), 0);
    assert_int_equal(num(r, "omitted"), 0);
    assert_true(is_null(r, "next_offset"));
    assert_false(flag(r, "byte_limited"));
    r = ok(d, "{\"document\":\"robot\",\"object\":\"body\",\"domain\":\"vertices\",\"offset\":8}");
    assert_int_equal(num(r, "count"), 0);
    assert_true(is_null(r, "next_offset"));
    r = ok(d, "{\"document\":\"robot\",\"object\":\"body\",\"domain\":\"overview\","
              "\"issue_offset\":99}");
    const anim_json_value *val = get(get(r, "overview"), "validation");
    assert_int_equal(num(val, "issues_returned"), 0);
    assert_int_equal(num(val, "issues_omitted"), 0);
    assert_true(is_null(val, "next_issue_offset"));
    mdl_doc_free(d);
}

static void test_invalid_params(void **state)
{
    (void)state;
    mdl_doc *d = sample_doc();
    const int P = ANIM_MODEL_E_PARAMS;
    refused(d, "{\"document\":\"robot\",\"domain\":\"objects\",\"page\":1}", "invalid_params", P);
    refused(d, "{\"document\":\"robot\"}", "invalid_params", P);
    refused(d, "{\"domain\":\"objects\"}", "invalid_params", P);
    refused(d, "[]", "invalid_params", P);
    refused(d, "{\"document\":\"robot\",\"domain\":\"vertices\"}", "invalid_params", P);
    refused(d, "{\"document\":\"robot\",\"domain\":\"solid\"}", "invalid_params", P);
    refused(d, "{\"document\":\"robot\",\"object\":\"body\",\"domain\":\"clips\"}",
            "invalid_params", P);
    refused(d, "{\"document\":\"robot\",\"domain\":\"nothing\"}", "invalid_params", P);
    refused(d, "{\"document\":\"robot\",\"domain\":7}", "invalid_params", P);
    refused(d, "{\"document\":\"robot\",\"domain\":\"objects\",\"limit\":0}", "invalid_params", P);
    refused(d, "{\"document\":\"robot\",\"domain\":\"objects\",\"limit\":129}", "invalid_params",
            P);
    refused(d, "{\"document\":\"robot\",\"domain\":\"objects\",\"limit\":\"5\"}",
            "invalid_params", P);
    refused(d, "{\"document\":\"robot\",\"domain\":\"objects\",\"offset\":-1}", "invalid_params",
            P);
    refused(d, "{\"document\":\"robot\",\"domain\":\"objects\",\"offset\":1.5}", "invalid_params",
            P);
    refused(d, "{\"document\":\"robot\",\"domain\":\"objects\",\"issue_offset\":0}",
            "invalid_params", P);
    refused(d,
            "{\"document\":\"robot\",\"object\":\"body\",\"domain\":\"vertices\","
            "\"issue_offset\":0}",
            "invalid_params", P);
    refused(d, "{\"document\":\"robot\",\"domain\":\"overview\",\"offset\":0}", "invalid_params",
            P);
    refused(d, "{\"document\":\"robot\",\"object\":\"\",\"domain\":\"overview\"}",
            "invalid_params", P);
    refused(d, "{\"document\":\"robot\",\"object\":\"leg\",\"domain\":\"overview\"}",
            "unknown_object", ANIM_MODEL_E_REFUSED);
    ok(d, "{\"document\":\"robot\",\"domain\":\"objects\",\"limit\":128,\"offset\":0}");
    ok(d, "{\"document\":\"robot\",\"object\":\"body\",\"domain\":\"overview\",\"limit\":1,"
          "\"issue_offset\":0}");
    mdl_doc_free(d);
}

/* ---- validation issues */

static const anim_json_value *issues_of(const mdl_doc *d, const char *object)
{
    char params[256];
    snprintf(params, sizeof params,
             "{\"document\":\"robot\",\"object\":\"%s\",\"domain\":\"overview\",\"limit\":128}",
             object);
    const anim_json_value *val = get(get(ok(d, params), "overview"), "validation");
    assert_str(val, "global_solidity", "unchecked");
    assert_str(val, "global_solidity_domain", "solid");
    assert_int_equal(anim_json_count(get(val, "checked")), 11);
    assert_true(is_null(val, "next_issue_offset"));
    return get(val, "issues");
}

static size_t count_kind(const anim_json_value *issues, const char *kind)
{
    size_t n = 0;
    for (size_t i = 0; i < anim_json_count(issues); i++)
        n += anim_json_string_eq(get(item(issues, i), "kind"), kind);
    return n;
}

static const anim_json_value *first_kind(const anim_json_value *issues, const char *kind)
{
    for (size_t i = 0; i < anim_json_count(issues); i++)
        if (anim_json_string_eq(get(item(issues, i), "kind"), kind))
            return item(issues, i);
    fail_msg("no %s issue", kind);
    return NULL;
}

static void test_validation_issues(void **state)
{
    (void)state;
    mdl_doc *d = mdl_doc_new();
    skeleton(d, 6);
    d->materials[1].defined = true;

    mdl_object *np = mdl_doc_add_object(d, "bent");
    uint64_t q[4] = {vtx(np, 0, 0, 0), vtx(np, 1, 0, 0), vtx(np, 1, 1, 0.3), vtx(np, 0, 1, 0)};
    uint64_t bent_face = face(np, q, 4, 1);
    const anim_json_value *is = issues_of(d, "bent");
    assert_int_equal(count_kind(is, "nonplanar_face"), 1);
    assert_int_equal(count_kind(is, "boundary_edge"), 4);
    assert_int_equal(count_kind(is, "undefined_material"), 0);
    const anim_json_value *nf = first_kind(is, "nonplanar_face");
    assert_str(nf, "severity", "warning");
    assert_int_equal(id_of(item(get(nf, "faces"), 0)), bent_face);
    assert_str(first_kind(is, "boundary_edge"), "severity", "info");
    /* kind order: nonplanar before the boundary edges */
    assert_true(anim_json_string_eq(get(item(is, 0), "kind"), "nonplanar_face"));

    mdl_object *o = mdl_doc_add_object(d, "mess");
    uint64_t v0 = vtx(o, 0, 0, 0), v1 = vtx(o, 1, 0, 0), v2 = vtx(o, 0, 1, 0),
             v3 = vtx(o, 0, -1, 0), v4 = vtx(o, 0, 0, 1);
    face(o, (uint64_t[]){v0, v1, v2}, 3, 0);
    face(o, (uint64_t[]){v1, v0, v3}, 3, 0);
    face(o, (uint64_t[]){v0, v1, v4}, 3, 0);
    uint64_t loose = vtx(o, 5, 5, 5);
    uint64_t c0 = vtx(o, 3, 0, 0), c1 = vtx(o, 4, 0, 0), c2 = vtx(o, 5, 0, 0);
    uint64_t flat = face(o, (uint64_t[]){c0, c1, c2}, 3, 0);
    uint64_t w0 = vtx(o, 0, 3, 0), w1 = vtx(o, 1, 3, 0);
    face(o, (uint64_t[]){w0, w1, vtx(o, 0, 4, 0)}, 3, 0);
    face(o, (uint64_t[]){w0, w1, vtx(o, 0, 2, 1)}, 3, 0);
    uint64_t l_shape = face(o,
                            (uint64_t[]){vtx(o, 10, 0, 0), vtx(o, 12, 0, 0), vtx(o, 12, 1, 0),
                                         vtx(o, 11, 1, 0), vtx(o, 11, 2, 0), vtx(o, 10, 2, 0)},
                            6, 0);
    set_weights(o, v0, 5, (uint32_t[]){0, 1, 2, 3, 4}, (double[]){0.2, 0.2, 0.2, 0.2, 0.2});
    set_weights(o, v1, 1, (uint32_t[]){0}, (double[]){0.5});
    is = issues_of(d, "mess");
    assert_int_equal(count_kind(is, "nonmanifold_edge"), 1);
    const anim_json_value *nm = first_kind(is, "nonmanifold_edge");
    assert_str(nm, "severity", "error");
    assert_int_equal(id_of(item(get(nm, "vertices"), 0)), v0);
    assert_int_equal(id_of(item(get(nm, "vertices"), 1)), v1);
    assert_int_equal(anim_json_count(get(nm, "faces")), 3);
    assert_int_equal(count_kind(is, "degenerate_face"), 1);
    assert_int_equal(id_of(item(get(first_kind(is, "degenerate_face"), "faces"), 0)), flat);
    assert_int_equal(count_kind(is, "nonconvex_face"), 1);
    assert_int_equal(id_of(item(get(first_kind(is, "nonconvex_face"), "faces"), 0)), l_shape);
    assert_int_equal(count_kind(is, "inconsistent_winding"), 1);
    assert_int_equal(id_of(item(get(first_kind(is, "inconsistent_winding"), "vertices"), 0)), w0);
    assert_int_equal(count_kind(is, "loose_vertex"), 1);
    assert_int_equal(id_of(item(get(first_kind(is, "loose_vertex"), "vertices"), 0)), loose);
    assert_int_equal(count_kind(is, "undefined_material"), 1);
    assert_int_equal(num(first_kind(is, "undefined_material"), "material"), 0);
    assert_int_equal(count_kind(is, "too_many_influences"), 1);
    assert_int_equal(id_of(item(get(first_kind(is, "too_many_influences"), "vertices"), 0)), v0);
    assert_int_equal(count_kind(is, "unnormalized_weights"), 1);
    assert_int_equal(id_of(item(get(first_kind(is, "unnormalized_weights"), "vertices"), 0)),
                     v1);
    assert_int_equal(count_kind(is, "unweighted_vertex"), (size_t)o->vertex_count - 2);

    /* Deterministic order: kinds in the checked order, ids ascending. */
    const anim_json_value *checked = get(
        get(get(ok(d, "{\"document\":\"robot\",\"object\":\"mess\",\"domain\":\"overview\"}"),
            "overview"),
            "validation"),
        "checked");
    size_t last_kind = 0;
    uint64_t last_id = 0;
    for (size_t i = 0; i < anim_json_count(is); i++) {
        const anim_json_value *row = item(is, i), *kv = get(row, "kind");
        const char *kind = anim_arena_strndup(arena, kv->u.string, kv->len);
        size_t kk = 0;
        while (kk < anim_json_count(checked) && !anim_json_string_eq(item(checked, kk), kind))
            kk++;
        assert_true(kk < anim_json_count(checked));
        assert_true(kk >= last_kind);
        const anim_json_value *ids = anim_json_count(get(row, "faces")) ? get(row, "faces")
                                                                        : get(row, "vertices");
        uint64_t id = anim_json_count(ids) ? id_of(item(ids, 0)) : 0;
        if (kk == last_kind && (strstr(kind, "_face") || strstr(kind, "vertex") ||
                                strstr(kind, "weights") || strstr(kind, "influences")))
            assert_true(id > last_id);
        last_kind = kk;
        last_id = id;
    }

    /* Paging the issues by issue_offset walks the same list. */
    size_t total = anim_json_count(is), got = 0;
    int64_t off = 0;
    while (off >= 0) {
        char params[256];
        snprintf(params, sizeof params,
                 "{\"document\":\"robot\",\"object\":\"mess\",\"domain\":\"overview\","
                 "\"limit\":3,\"issue_offset\":%" PRId64 "}",
                 off);
        const anim_json_value *val = get(get(ok(d, params), "overview"), "validation");
        const anim_json_value *page = get(val, "issues");
        for (size_t i = 0; i < anim_json_count(page); i++, got++)
            assert_true(anim_json_string_eq(get(item(page, i), "detail"),
                                            anim_arena_strndup(arena,
                                                               get(item(is, got), "detail")->u.string,
                                                               get(item(is, got), "detail")->len)));
        assert_int_equal(num(val, "issues_omitted"),
                         (int64_t)total - off - num(val, "issues_returned"));
        off = is_null(val, "next_issue_offset") ? -1 : num(val, "next_issue_offset");
    }
    assert_int_equal(got, total);
    mdl_doc_free(d);
}

/* ---- solid */

static const anim_json_value *solid_of(const mdl_doc *d, const char *object)
{
    char params[256];
    snprintf(params, sizeof params,
             "{\"document\":\"robot\",\"object\":\"%s\",\"domain\":\"solid\"}", object);
    return ok(d, params);
}

static void test_solid(void **state)
{
    (void)state;
    mdl_doc *d = mdl_doc_new();
    cube(mdl_doc_add_object(d, "box"), -0.5, -0.5, -0.5, 1, false);
    cube(mdl_doc_add_object(d, "inverted"), 0, 0, 0, 2, true);
    mdl_object *two = mdl_doc_add_object(d, "two");
    cube(two, 0, 0, 0, 1, false);
    cube(two, 0.5, 0.4, 0.3, 1, false);
    mdl_object *apart = mdl_doc_add_object(d, "apart");
    cube(apart, 0, 0, 0, 1, false);
    cube(apart, 3, 0, 0, 1, false);
    mdl_object *plane = mdl_doc_add_object(d, "plane");
    face(plane, (uint64_t[]){vtx(plane, 0, 0, 0), vtx(plane, 1, 0, 0), vtx(plane, 1, 0, -1),
                             vtx(plane, 0, 0, -1)},
         4, 0);

    const anim_json_value *r = solid_of(d, "box");
    const anim_json_value *s = get(r, "solid");
    assert_true(flag(s, "closed"));
    assert_true(flag(s, "manifold"));
    assert_true(flag(s, "oriented"));
    assert_true(flag(s, "outward"));
    assert_true(fabs(f64(s, "signed_volume") - 1) < 1e-12);
    assert_str(s, "intersections", "none");
    assert_int_equal(num(s, "triangles"), 12);
    assert_int_equal(num(r, "total"), 0);

    r = solid_of(d, "inverted");
    s = get(r, "solid");
    assert_true(flag(s, "closed"));
    assert_true(flag(s, "oriented"));
    assert_false(flag(s, "outward"));
    assert_true(fabs(f64(s, "signed_volume") + 8) < 1e-12);
    assert_str(s, "intersections", "none");
    assert_int_equal(num(r, "total"), 1);
    assert_str(item(items(r), 0), "kind", "inward_orientation");

    r = solid_of(d, "two");
    s = get(r, "solid");
    assert_true(flag(s, "closed"));
    assert_true(flag(s, "outward"));
    assert_str(s, "intersections", "found");
    assert_true(num(s, "pairs_tested") > 0);
    assert_true(num(s, "intersecting_face_pairs") > 0);
    assert_int_equal(num(r, "total"), num(s, "intersecting_face_pairs"));
    const anim_json_value *first = item(items(r), 0);
    assert_str(first, "kind", "self_intersection");
    uint64_t fa = id_of(item(get(first, "faces"), 0)), fb = id_of(item(get(first, "faces"), 1));
    assert_true(fa <= 6 && fb > 6); /* one face of each cube */

    r = solid_of(d, "apart");
    assert_str(get(r, "solid"), "intersections", "none");
    assert_true(fabs(f64(get(r, "solid"), "signed_volume") - 2) < 1e-12);

    r = solid_of(d, "plane");
    s = get(r, "solid");
    assert_false(flag(s, "closed"));
    assert_true(is_null(s, "outward"));
    assert_int_equal(num(s, "boundary_edges"), 4);
    assert_int_equal(num(r, "total"), 4);
    assert_str(item(items(r), 0), "kind", "boundary_edge");
    mdl_doc_free(d);
}

/* Too many candidate pairs: the answer is "unchecked_over_budget", not a
 * guess. 3,500 parallel tilted triangles whose boxes all overlap give
 * about 6.1 million pairs, over the 5,000,000 pair budget. */
static void test_solid_over_budget(void **state)
{
    (void)state;
    mdl_doc *d = mdl_doc_new();
    mdl_object *o = mdl_doc_add_object(d, "stack");
    for (size_t i = 0; i < 3500; i++) {
        double z = 1e-4 * (double)i;
        face(o, (uint64_t[]){vtx(o, 0, 0, z), vtx(o, 1, 0, z + 1), vtx(o, 0, 1, z)}, 3, 0);
    }
    const anim_json_value *s = get(solid_of(d, "stack"), "solid");
    assert_str(s, "intersections", "unchecked_over_budget");
    assert_int_equal(num(s, "pairs_tested"), 5000000);
    mdl_doc_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_document_overview, setup, teardown),
        cmocka_unit_test_setup_teardown(test_document_pages, setup, teardown),
        cmocka_unit_test_setup_teardown(test_object_pages, setup, teardown),
        cmocka_unit_test_setup_teardown(test_page_large_object, setup, teardown),
        cmocka_unit_test_setup_teardown(test_byte_budget, setup, teardown),
        cmocka_unit_test_setup_teardown(test_row_cut, setup, teardown),
        cmocka_unit_test_setup_teardown(test_offset_past_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_invalid_params, setup, teardown),
        cmocka_unit_test_setup_teardown(test_validation_issues, setup, teardown),
        cmocka_unit_test_setup_teardown(test_solid, setup, teardown),
        cmocka_unit_test_setup_teardown(test_solid_over_budget, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
