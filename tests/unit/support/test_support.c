/* Shared unit-test helpers (see test_support.h). The builder writes plain
 * glTF 2.0 JSON with one data-URI buffer, so the documents go through the
 * same reader as real files; it favours clarity over speed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/test_support.h"

/* ---- base64 ---------------------------------------------------------- */

void test_support_base64_append(anim_strbuf *out, const void *data, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const uint8_t *p = data;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < n)
            v |= p[i + 2];
        char quad[4] = {tab[v >> 18 & 63], tab[v >> 12 & 63], i + 1 < n ? tab[v >> 6 & 63] : '=',
                        i + 2 < n ? tab[v & 63] : '='};
        anim_strbuf_append(out, quad, 4);
    }
}

char *test_support_base64(const void *data, size_t n)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_strbuf_puts(&sb, ""); /* a non-NULL, terminated string even for n == 0 */
    test_support_base64_append(&sb, data, n);
    assert_false(sb.failed);
    return sb.data;
}

/* ---- the example assets and contracts -------------------------------- */

const char *test_support_source_dir(void)
{
    const char *d = getenv("ANIMSMITH_SOURCE_DIR");
    return d && *d ? d : ".";
}

anim_asset *test_support_load_example(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/examples/assets/%s", test_support_source_dir(), name);
    anim_error err;
    anim_error_clear(&err);
    anim_asset *a = anim_asset_load(path, NULL, &err);
    if (!a)
        fail_msg("cannot load %s: %s", path, err.message);
    return a;
}

anim_config *test_support_config_example(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/examples/%s", test_support_source_dir(), name);
    anim_error err;
    anim_error_clear(&err);
    anim_config *cfg = anim_config_load(path, &err);
    if (!cfg)
        fail_msg("cannot load %s: %s", path, err.message);
    return cfg;
}

anim_config *test_support_config_text(const char *toml)
{
    anim_error err;
    anim_error_clear(&err);
    anim_config *cfg = anim_config_load_bytes("t.toml", toml, strlen(toml), &err);
    if (!cfg)
        fail_msg("bad test contract: %s\n%s", err.message, toml);
    return cfg;
}

anim_track test_support_track(anim_path path, anim_interp interp, const float *times,
                              uint32_t keys, const float *values, uint32_t elements)
{
    anim_track t;
    memset(&t, 0, sizeof t);
    t.path = path;
    t.interp = interp;
    t.times = times;
    t.key_count = keys;
    t.values = values;
    t.value_count = elements;
    t.components = path == ANIM_PATH_ROTATION ? 4 : 3;
    return t;
}

anim_config *test_support_config_default(void)
{
    anim_error err;
    anim_error_clear(&err);
    anim_config *cfg = anim_config_default(&err);
    if (!cfg)
        fail_msg("default contract: %s", err.message);
    return cfg;
}

/* ---- loading a document from memory ------------------------------------ */

anim_asset *test_support_load_gltf(const char *json, size_t len, const char *display_path)
{
    anim_error err;
    anim_error_clear(&err);
    anim_asset *a = anim_asset_load_memory(json, len, false, NULL, display_path, NULL, &err);
    if (!a)
        fail_msg("load failed: %s\n%.*s", err.message, (int)len, json);
    return a;
}

/* ---- a small .gltf builder -------------------------------------------- */

struct test_support_gltf {
    test_support_node *nodes;
    int node_count, node_cap;
    bool no_scene;
    anim_strbuf bin;        /* the buffer's bytes */
    anim_strbuf views;      /* bufferViews items */
    anim_strbuf accessors;  /* accessors items */
    int accessor_count;
    anim_strbuf anims;      /* finished animations */
    anim_strbuf channels;   /* of the open animation */
    anim_strbuf samplers;
    char *anim_name;
    int anim_count;
    int channel_count;      /* of the open animation */
    bool anim_open;
    anim_strbuf json;
};

test_support_gltf *test_support_gltf_new(void)
{
    test_support_gltf *g = calloc(1, sizeof *g);
    assert_non_null(g);
    return g;
}

void test_support_gltf_free(test_support_gltf *g)
{
    if (!g)
        return;
    anim_strbuf *all[] = {&g->bin,   &g->views,    &g->accessors, &g->anims,
                          &g->channels, &g->samplers, &g->json};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        anim_strbuf_free(all[i]);
    free(g->anim_name);
    free(g->nodes);
    free(g);
}

void test_support_gltf_no_scene(test_support_gltf *g)
{
    g->no_scene = true;
}

int test_support_gltf_node(test_support_gltf *g, const test_support_node *node)
{
    assert_true(node->parent < g->node_count); /* parents precede children */
    if (g->node_count == g->node_cap) {
        g->node_cap = g->node_cap ? g->node_cap * 2 : 8;
        g->nodes = realloc(g->nodes, (size_t)g->node_cap * sizeof *g->nodes);
        assert_non_null(g->nodes);
    }
    g->nodes[g->node_count] = *node;
    return g->node_count++;
}

void test_support_gltf_nodes(test_support_gltf *g, const test_support_node *nodes, int count)
{
    for (int i = 0; i < count; i++)
        test_support_gltf_node(g, &nodes[i]);
}

static uint32_t type_components(const char *type)
{
    if (strcmp(type, "SCALAR") == 0)
        return 1;
    if (strcmp(type, "VEC3") == 0)
        return 3;
    if (strcmp(type, "VEC4") == 0)
        return 4;
    fail_msg("unsupported accessor type %s", type);
    return 0;
}

int test_support_gltf_accessor(test_support_gltf *g, const float *data, uint32_t count,
                               const char *type, unsigned flags)
{
    size_t len = (size_t)count * type_components(type) * sizeof(float);
    int index = g->accessor_count++;
    anim_strbuf_printf(&g->views, "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}",
                       index ? "," : "", g->bin.len, len);
    if (len)
        anim_strbuf_append(&g->bin, data, len);
    anim_strbuf_printf(&g->accessors,
                       "%s{\"bufferView\":%d,\"componentType\":5126,\"count\":%u,\"type\":\"%s\"",
                       index ? "," : "", index, count, type);
    if (flags & TEST_SUPPORT_BOUNDS) {
        assert_true(strcmp(type, "SCALAR") == 0 && count > 0);
        float lo = data[0], hi = data[0];
        for (uint32_t i = 1; i < count; i++) {
            lo = data[i] < lo ? data[i] : lo;
            hi = data[i] > hi ? data[i] : hi;
        }
        anim_strbuf_printf(&g->accessors, ",\"min\":[%.9g],\"max\":[%.9g]", (double)lo,
                           (double)hi);
    }
    anim_strbuf_putc(&g->accessors, '}');
    return index;
}

static void close_animation(test_support_gltf *g)
{
    if (!g->anim_open)
        return;
    anim_strbuf_puts(&g->anims, g->anim_count++ ? ",{" : "{");
    if (g->anim_name)
        anim_strbuf_printf(&g->anims, "\"name\":\"%s\",", g->anim_name);
    anim_strbuf_printf(&g->anims, "\"channels\":[%s],\"samplers\":[%s]}",
                       g->channels.data ? g->channels.data : "",
                       g->samplers.data ? g->samplers.data : "");
    anim_strbuf_reset(&g->channels);
    anim_strbuf_reset(&g->samplers);
    free(g->anim_name);
    g->anim_name = NULL;
    g->channel_count = 0;
    g->anim_open = false;
}

void test_support_gltf_animation(test_support_gltf *g, const char *name)
{
    close_animation(g);
    g->anim_open = true;
    if (name) {
        size_t n = strlen(name) + 1;
        g->anim_name = malloc(n);
        assert_non_null(g->anim_name);
        memcpy(g->anim_name, name, n);
    }
}

void test_support_gltf_channel(test_support_gltf *g, int node, const char *path, int input,
                               int output, const char *interp)
{
    assert_true(g->anim_open);
    int i = g->channel_count++;
    anim_strbuf_printf(&g->channels, "%s{\"sampler\":%d,\"target\":{\"node\":%d,\"path\":\"%s\"}}",
                       i ? "," : "", i, node, path);
    anim_strbuf_printf(&g->samplers, "%s{\"input\":%d,\"output\":%d", i ? "," : "", input,
                       output);
    if (interp)
        anim_strbuf_printf(&g->samplers, ",\"interpolation\":\"%s\"", interp);
    anim_strbuf_putc(&g->samplers, '}');
}

void test_support_gltf_track(test_support_gltf *g, int node, const char *path,
                             const char *interp, uint32_t keys, const float *times,
                             const float *values, unsigned flags)
{
    bool cubic = interp && strcmp(interp, "CUBICSPLINE") == 0;
    bool rot = strcmp(path, "rotation") == 0;
    int in = test_support_gltf_accessor(g, times, keys, "SCALAR", flags);
    int out = test_support_gltf_accessor(g, values, keys * (cubic ? 3u : 1u), rot ? "VEC4" : "VEC3",
                                         0);
    test_support_gltf_channel(g, node, path, in, out, interp);
}

static void put_numbers(anim_strbuf *sb, const char *sep, const char *key, const double *v,
                        int n)
{
    anim_strbuf_printf(sb, "%s\"%s\":[", sep, key);
    for (int i = 0; i < n; i++)
        anim_strbuf_printf(sb, (double)(float)v[i] == v[i] ? "%s%.9g" : "%s%.17g", i ? "," : "",
                           v[i]);
    anim_strbuf_putc(sb, ']');
}

const char *test_support_gltf_json(test_support_gltf *g, size_t *len)
{
    close_animation(g);
    anim_strbuf *js = &g->json;
    anim_strbuf_reset(js);
    anim_strbuf_puts(js, "{\"asset\":{\"version\":\"2.0\"}");
    if (!g->no_scene) {
        anim_strbuf_puts(js, ",\"scene\":0,\"scenes\":[{\"nodes\":[");
        for (int n = 0, first = 1; n < g->node_count; n++)
            if (g->nodes[n].parent < 0) {
                anim_strbuf_printf(js, "%s%d", first ? "" : ",", n);
                first = 0;
            }
        anim_strbuf_puts(js, "]}]");
    }
    if (g->node_count) {
        anim_strbuf_puts(js, ",\"nodes\":[");
        for (int n = 0; n < g->node_count; n++) {
            const test_support_node *nd = &g->nodes[n];
            anim_strbuf_puts(js, n ? ",{" : "{");
            const char *sep = ""; /* before the node's next member */
            if (nd->name) {
                anim_strbuf_printf(js, "\"name\":\"%s\"", nd->name);
                sep = ",";
            }
            static const char *const keys[3] = {"translation", "rotation", "scale"};
            const double *values[3] = {nd->t, nd->r, nd->s};
            for (int m = 0; m < 3; m++)
                if (nd->has & (1u << m)) {
                    put_numbers(js, sep, keys[m], values[m], m == 1 ? 4 : 3);
                    sep = ",";
                }
            int kids = 0;
            for (int k = 0; k < g->node_count; k++)
                if (g->nodes[k].parent == n) {
                    if (kids++)
                        anim_strbuf_putc(js, ',');
                    else
                        anim_strbuf_printf(js, "%s\"children\":[", sep);
                    anim_strbuf_printf(js, "%d", k);
                }
            anim_strbuf_puts(js, kids ? "]}" : "}");
        }
        anim_strbuf_putc(js, ']');
    }
    if (g->accessor_count) {
        anim_strbuf_printf(js, ",\"buffers\":[{\"byteLength\":%zu,\"uri\":"
                               "\"data:application/octet-stream;base64,",
                           g->bin.len);
        test_support_base64_append(js, g->bin.data, g->bin.len);
        anim_strbuf_printf(js, "\"}],\"bufferViews\":[%s],\"accessors\":[%s]", g->views.data,
                           g->accessors.data);
    }
    if (g->anim_count)
        anim_strbuf_printf(js, ",\"animations\":[%s]", g->anims.data);
    anim_strbuf_putc(js, '}');
    assert_false(js->failed);
    if (len)
        *len = js->len;
    return js->data;
}

anim_asset *test_support_gltf_load(test_support_gltf *g, const char *display_path)
{
    size_t len;
    const char *json = test_support_gltf_json(g, &len);
    return test_support_load_gltf(json, len, display_path);
}

/* ---- running the lint -------------------------------------------------- */

void test_support_lint(const anim_asset *a, const anim_config *cfg, const char *const *ids,
                       size_t count, anim_lint_file *out)
{
    anim_lint_options opts;
    memset(&opts, 0, sizeof opts);
    opts.select = ids;
    opts.select_count = count;
    anim_error err;
    anim_error_clear(&err);
    if (anim_lint_run(a, cfg, count ? &opts : NULL, out, &err))
        fail_msg("lint failed: %s", err.message);
}

const anim_check_record *test_support_lint_only(const anim_asset *a, const anim_config *cfg,
                                                const char *id, anim_lint_file *out)
{
    const char *select[1] = {id};
    test_support_lint(a, cfg, select, 1, out);
    const anim_check_record *rec = NULL;
    for (size_t i = 0; i < out->record_count; i++) {
        const anim_check_record *r = &out->records[i];
        if (strcmp(r->check_id, id) == 0)
            rec = r;
        else
            assert_int_equal(r->finding_count + r->gap_count + r->scope_count, 0);
    }
    assert_non_null(rec);
    return rec;
}

const anim_check_record *test_support_record(const anim_lint_file *f, const char *id)
{
    for (size_t i = 0; i < f->record_count; i++)
        if (strcmp(f->records[i].check_id, id) == 0)
            return &f->records[i];
    fail_msg("no record %s", id);
    return NULL;
}

const anim_finding *test_support_finding(const anim_lint_file *f, const char *id, uint32_t i)
{
    const anim_check_record *rec = test_support_record(f, id);
    assert_true(i < rec->finding_count);
    return &rec->findings[i];
}

/* ---- record assertions ------------------------------------------------- */

void test_support_expect_str(const char *got, const char *want)
{
    if (!want)
        assert_null(got);
    else {
        assert_non_null(got);
        assert_string_equal(got, want);
    }
}

void test_support_expect_state(const anim_check_record *r, bool applicable, anim_evaluation ev,
                               uint32_t findings, uint32_t scopes, uint32_t gaps)
{
    assert_true(r->selected);
    assert_true(r->enabled);
    assert_int_equal(r->applicable, applicable);
    assert_string_equal(anim_evaluation_name(r->evaluation), anim_evaluation_name(ev));
    assert_int_equal(r->finding_count, findings);
    assert_int_equal(r->scope_count, scopes);
    assert_int_equal(r->gap_count, gaps);
}

void test_support_expect_scope(const anim_scope *s, const char *code, const char *subject)
{
    assert_string_equal(s->code, code);
    test_support_expect_str(s->subject, subject);
}

void test_support_expect_gap(const anim_gap *g, const char *code, const char *scope_code,
                             const char *subject, const char *message)
{
    assert_string_equal(g->code, code);
    assert_string_equal(g->message, message);
    assert_int_equal(g->has_scope, scope_code != NULL);
    test_support_expect_str(g->scope.code, scope_code);
    test_support_expect_str(g->scope.subject, subject);
}
