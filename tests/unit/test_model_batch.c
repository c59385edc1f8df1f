/* The batch layer of the authoring engine: generic operation validation,
 * all-or-nothing batches, the result rows' id and byte budgets, the
 * canonical content hash and the world.api schema. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/json.h"
#include "animsmith/json_write.h"
#include "animsmith/model.h"
#include "model/mdl_batch.h"
#include "model/mdl_canon.h"
#include "model/mdl_ops.h"

static anim_arena *arena;

static int setup(void **state)
{
    (void)state;
    arena = anim_arena_new();
    return arena ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    anim_arena_free(arena);
    return 0;
}

static const anim_json_value *parse(const char *text)
{
    anim_error err;
    memset(&err, 0, sizeof err);
    const char *copy = anim_arena_strdup(arena, text);
    anim_json_value *v = anim_json_parse(arena, copy, strlen(copy), NULL, &err);
    if (!v)
        fail_msg("parse %s: %s", text, err.message);
    return v;
}

static anim_model_limits test_limits(void)
{
    anim_model_limits l;
    memset(&l, 0, sizeof l);
    l.max_documents = 16;
    l.max_objects = 2048;
    l.max_materials = 512;
    l.max_batch_operations = 256;
    l.max_memory_bytes = 2ull << 30;
    l.max_work_units = 10000000000ull;
    l.max_reply_bytes = 12 * 1024;
    l.max_selection_ids = 256;
    return l;
}

/* Validates one operation; returns the refusal kind ("" when valid) and
 * leaves the message in msg. */
static const char *validate(const char *text, char msg[512])
{
    anim_model_limits l = test_limits();
    mdl_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.limits = &l;
    int rc = mdl_validate_op(&ctx, parse(text));
    snprintf(msg, 512, "%s", ctx.refusal);
    if (rc == 0) {
        assert_null(ctx.refusal_kind);
        return "";
    }
    assert_int_equal(rc, -1);
    assert_non_null(ctx.refusal_kind);
    return ctx.refusal_kind;
}

static void expect(const char *text, const char *kind, const char *needle)
{
    char m[512];
    const char *k = validate(text, m);
    if (strcmp(k, kind) != 0)
        fail_msg("%s: kind \"%s\" (%s), expected \"%s\"", text, k, m, kind);
    if (needle && !strstr(m, needle))
        fail_msg("%s: message \"%s\" lacks \"%s\"", text, m, needle);
}

#define EXPECT(text, kind, needle) expect((text), (kind), (needle))

static void test_validate_basics(void **state)
{
    (void)state;
    EXPECT("{\"op\":\"cube\",\"object\":\"a\",\"size\":[1,2,3]}", "", NULL);
    EXPECT("[1]", "invalid_operation", "JSON object");
    EXPECT("{\"object\":\"a\"}", "missing_field", "\"op\"");
    EXPECT("{\"op\":7}", "wrong_type", "\"op\"");
    EXPECT("{\"op\":\"teleport\"}", "unknown_op", "\"teleport\"");
    EXPECT("{\"op\":\"cube\",\"object\":\"a\",\"size\":[1,2,3],\"colour\":1}", "unknown_field",
           "field \"colour\": not a field of cube");
    /* object is a field of mesh edits only */
    EXPECT("{\"op\":\"delete_clip\",\"object\":\"a\",\"name\":\"walk\"}", "unknown_field",
           "\"object\"");
    EXPECT("{\"op\":\"cube\",\"object\":\"a\"}", "missing_field", "field \"size\": required");
    EXPECT("{\"op\":\"cube\",\"size\":[1,1,1]}", "missing_field", "field \"object\"");
    EXPECT("{\"op\":\"cube\",\"object\":\"a\",\"size\":\"big\"}", "wrong_type",
           "field \"size\": expected an array of 3 numbers, got string");
    EXPECT("{\"op\":\"cube\",\"object\":\"a\",\"size\":[1,1]}", "wrong_type", "\"size\"");
    EXPECT("{\"op\":\"cube\",\"object\":\"a\",\"size\":[1,\"1\",1]}", "wrong_type",
           "field \"size[1]\"");
    EXPECT("{\"op\":\"cube\",\"object\":\"a\",\"size\":[1,1,0]}", "out_of_range",
           "field \"size[2]\": 0 is out of range (0,");
    EXPECT("{\"op\":\"cube\",\"object\":\"a\",\"size\":[1,1,-2.5]}", "out_of_range", "-2.5");
}

static void test_validate_numbers(void **state)
{
    (void)state;
    const char *base = "{\"op\":\"sphere\",\"object\":\"s\",\"radius\":1,\"segments\":%s,"
                       "\"rings\":4%s}";
    char buf[256];
    snprintf(buf, sizeof buf, base, "8", "");
    EXPECT(buf, "", NULL);
    snprintf(buf, sizeof buf, base, "8.0", ""); /* integral numbers are integers */
    EXPECT(buf, "", NULL);
    snprintf(buf, sizeof buf, base, "3.5", "");
    EXPECT(buf, "wrong_type", "field \"segments\": expected an integer");
    snprintf(buf, sizeof buf, base, "200", "");
    EXPECT(buf, "out_of_range", "field \"segments\": 200 is out of range [3, 128]");
    snprintf(buf, sizeof buf, base, "2", "");
    EXPECT(buf, "out_of_range", "[3, 128]");
    snprintf(buf, sizeof buf, base, "8", ",\"smooth\":1");
    EXPECT(buf, "wrong_type", "field \"smooth\": expected a boolean");
    snprintf(buf, sizeof buf, base, "8", ",\"smooth\":false");
    EXPECT(buf, "", NULL);
    EXPECT("{\"op\":\"sphere\",\"object\":\"s\",\"radius\":-0,\"segments\":8,\"rings\":4}",
           "out_of_range", "radius");
}

static void test_validate_names(void **state)
{
    (void)state;
    char name[200];
    memset(name, 'n', 128);
    name[128] = '\0';
    char buf[512];
    snprintf(buf, sizeof buf, "{\"op\":\"cube\",\"object\":\"%s\",\"size\":[1,1,1]}", name);
    EXPECT(buf, "", NULL);
    strcat(name, "n");
    snprintf(buf, sizeof buf, "{\"op\":\"cube\",\"object\":\"%s\",\"size\":[1,1,1]}", name);
    EXPECT(buf, "name_too_long", "129 bytes");
    EXPECT("{\"op\":\"cube\",\"object\":\"\",\"size\":[1,1,1]}", "invalid_name", "empty");
    EXPECT("{\"op\":\"cube\",\"object\":\"a\\u0001b\",\"size\":[1,1,1]}", "invalid_name",
           "control");
    EXPECT("{\"op\":\"cube\",\"object\":\"a\\u0000\",\"size\":[1,1,1]}", "invalid_name",
           "control");
    EXPECT("{\"op\":\"cube\",\"object\":\"k\\u00e4fer\",\"size\":[1,1,1]}", "", NULL);
    EXPECT("{\"op\":\"cube\",\"object\":3,\"size\":[1,1,1]}", "wrong_type", "\"object\"");
}

static void test_validate_ids(void **state)
{
    (void)state;
    const char *base = "{\"op\":\"delete_faces\",\"object\":\"a\",\"faces\":[%s]}";
    char buf[256];
    static const char *const bad[] = {"\"0\"", "\"01\"", "\"-1\"", "\"18446744073709551616\"",
                                      "\"\"", "\"1a\"", "\"+1\"", "\" 1\""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(buf, sizeof buf, base, bad[i]);
        EXPECT(buf, "invalid_id", "field \"faces[0]\"");
    }
    snprintf(buf, sizeof buf, base, "\"18446744073709551615\"");
    EXPECT(buf, "", NULL);
    snprintf(buf, sizeof buf, base, "\"1\",\"9\",\"10\"");
    EXPECT(buf, "", NULL);
    snprintf(buf, sizeof buf, base, "\"1\",\"2\",\"1\"");
    EXPECT(buf, "duplicate_id", "id \"1\" appears twice");
    snprintf(buf, sizeof buf, base, "1");
    EXPECT(buf, "wrong_type", "field \"faces[0]\": expected an id string");
    snprintf(buf, sizeof buf, base, "");
    EXPECT(buf, "out_of_range", "0 items");
    /* a long list goes through the heap path of the duplicate check */
    char big[4096];
    size_t n = 0;
    n += (size_t)snprintf(big + n, sizeof big - n,
                          "{\"op\":\"delete_faces\",\"object\":\"a\",\"faces\":[");
    for (int i = 1; i <= 100; i++)
        n += (size_t)snprintf(big + n, sizeof big - n, "%s\"%d\"", i > 1 ? "," : "", i);
    snprintf(big + n, sizeof big - n, ",\"57\"]}");
    EXPECT(big, "duplicate_id", "\"57\"");
    EXPECT("{\"op\":\"extrude\",\"object\":\"a\",\"face\":\"007\",\"offset\":[0,1,0]}",
           "invalid_id", "field \"face\": \"007\"");
}

/* The reader refuses 1e400 outright; a reader that rounds it to infinity
 * (as the contract allows) must still be refused, so the number is set by
 * hand. */
static void test_validate_not_finite(void **state)
{
    (void)state;
    anim_model_limits l = test_limits();
    const char *texts[] = {"{\"op\":\"cube\",\"object\":\"a\",\"size\":[1,1e300,1]}",
                           "{\"op\":\"sphere\",\"object\":\"a\",\"radius\":1e300,"
                           "\"segments\":8,\"rings\":4}"};
    for (int t = 0; t < 2; t++) {
        anim_json_value *op = (anim_json_value *)parse(texts[t]);
        anim_json_value *v = (anim_json_value *)(t == 0 ? anim_json_item(anim_json_get(op, "size"), 1)
                                                        : anim_json_get(op, "radius"));
        v->flags = 0;
        v->u.number = t == 0 ? INFINITY : -INFINITY;
        mdl_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.limits = &l;
        assert_int_equal(mdl_validate_op(&ctx, op), -1);
        assert_string_equal(ctx.refusal_kind, "not_finite");
        assert_non_null(strstr(ctx.refusal, t == 0 ? "field \"size[1]\"" : "field \"radius\""));
    }
}

static void test_validate_nested(void **state)
{
    (void)state;
    EXPECT("{\"op\":\"clip\",\"name\":\"walk\",\"channels\":[{\"joint\":0,\"path\":\"rotation\","
           "\"keys\":[{\"time\":0,\"value\":[0,0,0,1]}]}]}",
           "", NULL);
    EXPECT("{\"op\":\"clip\",\"name\":\"walk\",\"channels\":[{\"joint\":0,\"path\":\"rotation\","
           "\"keys\":[{\"time\":0,\"value\":[0,0,0,1]},{\"time\":-1,\"value\":[0,0,0,1]}]}]}",
           "out_of_range", "field \"channels[0].keys[1].time\": -1");
    EXPECT("{\"op\":\"clip\",\"name\":\"walk\",\"channels\":[{\"joint\":0,\"path\":\"wiggle\","
           "\"keys\":[{\"time\":0,\"value\":[0,0,0,1]}]}]}",
           "out_of_range", "channels[0].path");
    EXPECT("{\"op\":\"clip\",\"name\":\"walk\",\"channels\":[{\"joint\":0,\"path\":\"scale\","
           "\"keys\":[{\"time\":0,\"value\":[1,1,1,0],\"ease\":1}]}]}",
           "unknown_field", "field \"channels[0].keys[0].ease\": unknown field");
    EXPECT("{\"op\":\"clip\",\"name\":\"walk\",\"channels\":[{\"joint\":0,\"path\":\"scale\","
           "\"keys\":[{\"value\":[1,1,1,0]}]}]}",
           "missing_field", "field \"channels[0].keys[0].time\": required");
    EXPECT("{\"op\":\"clip\",\"name\":\"walk\",\"channels\":[7]}", "wrong_type",
           "channels[0]");
    EXPECT("{\"op\":\"clip\",\"name\":\"walk\",\"channels\":[]}", "out_of_range", "0 items");
    EXPECT("{\"op\":\"transform\",\"object\":\"a\",\"vertices\":[\"1\"],"
           "\"matrix\":[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}",
           "", NULL);
    EXPECT("{\"op\":\"transform\",\"object\":\"a\",\"vertices\":[\"1\"],"
           "\"matrix\":[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,1,1]]}",
           "out_of_range", "matrix[3]");
    EXPECT("{\"op\":\"transform\",\"object\":\"a\",\"vertices\":[\"1\"],"
           "\"matrix\":[[1,0,0,0],[0,1,0,0],[0,0,1,0]]}",
           "wrong_type", "matrix");
    EXPECT("{\"op\":\"texture_solid\",\"material\":0,\"width\":2,\"height\":2,"
           "\"color\":[0,128,256]}",
           "out_of_range", "color[2]");
    EXPECT("{\"op\":\"corner_normal\",\"object\":\"a\",\"corner\":\"1\",\"normal\":null}", "",
           NULL);
}

/* ---- batches */

static mdl_doc *base_doc(void)
{
    mdl_doc *d = mdl_doc_new();
    assert_non_null(d);
    return d;
}

static void hash_of(const mdl_doc *d, char hex[65])
{
    assert_int_equal(mdl_canon_hash(d, hex, NULL), 0);
}

static void test_batch_invalid_third_op(void **state)
{
    (void)state;
    anim_model_limits l = test_limits();
    mdl_doc *base = base_doc();
    char before[65], after[65];
    hash_of(base, before);
    mdl_batch b;
    anim_model_fault f;
    anim_model_fault_init(&f);
    const anim_json_value *ops =
        parse("[{\"op\":\"cube\",\"object\":\"a\",\"size\":[1,1,1]},"
              "{\"op\":\"plane\",\"object\":\"b\",\"size\":[1,1]},"
              "{\"op\":\"cube\",\"object\":\"c\",\"size\":[1,1,1],\"bevel\":2}]");
    assert_int_equal(mdl_batch_run(base, ops, &l, l.max_work_units, NULL, &b, &f), -1);
    assert_string_equal(f.kind, "unknown_field");
    assert_int_equal(f.code, ANIM_MODEL_E_REFUSED);
    assert_string_equal(f.message, "operation 2 (cube): field \"bevel\": not a field of cube");
    assert_string_equal(f.data.data, "{\"index\":2,\"op\":\"cube\",\"reason\":\"unknown_field\"}");
    assert_null(b.doc);
    assert_int_equal(base->object_count, 0);
    hash_of(base, after);
    assert_string_equal(before, after);

    /* a refusal while running (not in validation) also leaves nothing */
    anim_strbuf_reset(&f.data);
    ops = parse("[{\"op\":\"cube\",\"object\":\"a\",\"size\":[1,1,1]},"
                "{\"op\":\"delete_faces\",\"object\":\"ghost\",\"faces\":[\"1\"]}]");
    assert_int_equal(mdl_batch_run(base, ops, &l, l.max_work_units, NULL, &b, &f), -1);
    assert_string_equal(f.kind, "unknown_object");
    assert_non_null(strstr(f.message, "operation 1 (delete_faces): "));
    assert_non_null(strstr(f.message, "\"ghost\""));
    assert_int_equal(base->object_count, 0);

    /* unknown op names itself in the data */
    anim_strbuf_reset(&f.data);
    ops = parse("[{\"op\":\"cube\",\"object\":\"a\",\"size\":[1,1,1]},{\"op\":\"warp\"}]");
    assert_int_equal(mdl_batch_run(base, ops, &l, l.max_work_units, NULL, &b, &f), -1);
    assert_string_equal(f.kind, "unknown_op");
    assert_string_equal(f.data.data, "{\"index\":1,\"op\":\"warp\",\"reason\":\"unknown_op\"}");

    anim_model_fault_free(&f);
    mdl_doc_free(base);
}

static void test_batch_sizes_and_limits(void **state)
{
    (void)state;
    anim_model_limits l = test_limits();
    mdl_doc *base = base_doc();
    mdl_batch b;
    anim_model_fault f;
    anim_model_fault_init(&f);
    assert_int_equal(mdl_batch_run(base, parse("[]"), &l, l.max_work_units, NULL, &b, &f), -1);
    assert_string_equal(f.kind, "empty_batch");
    assert_int_equal(mdl_batch_run(base, parse("{}"), &l, l.max_work_units, NULL, &b, &f), -1);

    l.max_batch_operations = 2;
    const anim_json_value *three = parse("[{\"op\":\"cube\",\"object\":\"a\",\"size\":[1,1,1]},"
                                         "{\"op\":\"cube\",\"object\":\"b\",\"size\":[1,1,1]},"
                                         "{\"op\":\"cube\",\"object\":\"c\",\"size\":[1,1,1]}]");
    assert_int_equal(mdl_batch_run(base, three, &l, l.max_work_units, NULL, &b, &f), -1);
    assert_string_equal(f.kind, "too_many_operations");
    assert_int_equal(f.code, ANIM_MODEL_E_LIMIT);
    assert_non_null(strstr(f.message, "max_batch_operations (2)"));

    l = test_limits();
    l.max_objects = 2;
    anim_strbuf_reset(&f.data);
    assert_int_equal(mdl_batch_run(base, three, &l, l.max_work_units, NULL, &b, &f), -1);
    assert_string_equal(f.kind, "limit_exceeded");
    assert_int_equal(f.code, ANIM_MODEL_E_LIMIT);
    assert_non_null(strstr(f.message, "operation 2 (cube): "));
    assert_non_null(strstr(f.message, "max_objects (2)"));

    l = test_limits();
    l.max_memory_bytes = 64;
    anim_strbuf_reset(&f.data);
    assert_int_equal(mdl_batch_run(base, three, &l, l.max_work_units, NULL, &b, &f), -1);
    assert_string_equal(f.kind, "limit_exceeded");
    assert_non_null(strstr(f.message, "operation 0 (cube): "));
    assert_non_null(strstr(f.message, "max_memory_bytes (64)"));

    l = test_limits();
    anim_strbuf_reset(&f.data);
    assert_int_equal(mdl_batch_run(base, three, &l, 5, NULL, &b, &f), -1);
    assert_string_equal(f.kind, "work_limit_exceeded");
    assert_int_equal(f.code, ANIM_MODEL_E_LIMIT);

    volatile int cancel = 1;
    anim_strbuf_reset(&f.data);
    assert_int_equal(mdl_batch_run(base, three, &l, l.max_work_units, &cancel, &b, &f), -1);
    assert_string_equal(f.kind, "cancelled");

    assert_int_equal(mdl_batch_run(base, three, &l, l.max_work_units, NULL, &b, &f), 0);
    assert_int_equal(b.doc->object_count, 3);
    assert_int_equal(base->object_count, 0);
    assert_int_equal(b.result_count, 3);
    assert_string_equal(b.results[1].object, "b");
    assert_int_equal(b.results[1].face_count, 6);
    assert_int_equal(b.results[1].vertex_count, 8);
    assert_true(b.work > 3);
    mdl_batch_free(&b);
    anim_model_fault_free(&f);
    mdl_doc_free(base);
}

/* Writes the result members of b into a fresh object and parses them. */
static const anim_json_value *results_json(const mdl_batch *b, size_t budget)
{
    anim_model_limits l = test_limits();
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &sb, false);
    anim_json_writer_begin_object(&w);
    mdl_batch_write_results(b, &l, budget, &w);
    anim_json_writer_end_object(&w);
    assert_true(anim_json_writer_ok(&w));
    if (budget >= 800) /* the totals are always written */
        assert_true(sb.len <= budget + 2);
    const anim_json_value *v = parse(sb.data);
    anim_strbuf_free(&sb);
    return v;
}

static uint64_t num(const anim_json_value *o, const char *key)
{
    const anim_json_value *v = anim_json_get(o, key);
    assert_non_null(v);
    return (uint64_t)anim_json_integer(v);
}

static bool flag(const anim_json_value *o, const char *key)
{
    const anim_json_value *v = anim_json_get(o, key);
    assert_non_null(v);
    return v->type == ANIM_JSON_TRUE;
}

static void test_results_budget(void **state)
{
    (void)state;
    anim_model_limits l = test_limits();
    mdl_doc *base = base_doc();
    char text[8192];
    size_t n = 0;
    n += (size_t)snprintf(text + n, sizeof text - n, "[");
    for (int i = 0; i < 30; i++)
        n += (size_t)snprintf(text + n, sizeof text - n,
                              "%s{\"op\":\"cube\",\"object\":\"o%02d\",\"size\":[1,1,1]}",
                              i ? "," : "", i);
    n += (size_t)snprintf(text + n, sizeof text - n,
                          ",{\"op\":\"material\",\"material\":3,\"color\":[1,0,0]}]");
    mdl_batch b;
    anim_model_fault f;
    anim_model_fault_init(&f);
    assert_int_equal(mdl_batch_run(base, parse(text), &l, l.max_work_units, NULL, &b, &f), 0);

    const anim_json_value *r = results_json(&b, 1u << 20);
    assert_int_equal(num(r, "results_total"), 31);
    assert_int_equal(num(r, "results_returned"), 31);
    assert_int_equal(num(r, "results_omitted"), 0);
    assert_false(flag(r, "results_truncated"));
    assert_int_equal(num(r, "selection_face_total"), 180);
    assert_int_equal(num(r, "selection_vertex_total"), 240);
    assert_int_equal(num(r, "selection_ids_returned"), 256);
    assert_int_equal(num(r, "selection_ids_omitted"), 420 - 256);
    const anim_json_value *rows = anim_json_get(r, "results");
    assert_int_equal(anim_json_count(rows), 31);
    /* 18 rows of 14 ids use 252; row 18 gets 4 faces; later rows none */
    const anim_json_value *r0 = anim_json_item(rows, 0);
    assert_true(anim_json_string_eq(anim_json_get(r0, "op"), "cube"));
    assert_true(anim_json_string_eq(anim_json_get(r0, "object"), "o00"));
    assert_int_equal(anim_json_count(anim_json_get(r0, "faces")), 6);
    assert_true(anim_json_string_eq(anim_json_item(anim_json_get(r0, "faces"), 0), "1"));
    assert_false(flag(r0, "selections_truncated"));
    assert_null(anim_json_get(r0, "notes"));
    const anim_json_value *r17 = anim_json_item(rows, 17);
    assert_false(flag(r17, "selections_truncated"));
    const anim_json_value *r18 = anim_json_item(rows, 18);
    assert_int_equal(anim_json_count(anim_json_get(r18, "faces")), 4);
    assert_int_equal(anim_json_count(anim_json_get(r18, "vertices")), 0);
    assert_int_equal(num(r18, "face_count"), 6);
    assert_int_equal(num(r18, "vertex_count"), 8);
    assert_true(flag(r18, "selections_truncated"));
    const anim_json_value *r29 = anim_json_item(rows, 29);
    assert_int_equal(anim_json_count(anim_json_get(r29, "faces")), 0);
    assert_true(flag(r29, "selections_truncated"));
    const anim_json_value *r30 = anim_json_item(rows, 30);
    assert_int_equal(anim_json_get(r30, "object")->type, ANIM_JSON_NULL);
    assert_true(anim_json_string_eq(anim_json_get(r30, "op"), "material"));
    assert_false(flag(r30, "selections_truncated"));

    /* a small byte budget drops rows from the end, never fails */
    r = results_json(&b, 2500);
    uint64_t kept = num(r, "results_returned");
    assert_true(kept > 0 && kept < 31);
    assert_int_equal(num(r, "results_omitted"), 31 - kept);
    assert_true(flag(r, "results_truncated"));
    assert_int_equal(anim_json_count(anim_json_get(r, "results")), kept);
    assert_int_equal(num(r, "selection_face_total"), 180);
    assert_int_equal(num(r, "selection_ids_returned") + num(r, "selection_ids_omitted"), 420);
    r = results_json(&b, 0);
    assert_int_equal(num(r, "results_returned"), 0);
    assert_int_equal(num(r, "selection_ids_returned"), 0);
    assert_int_equal(num(r, "selection_ids_omitted"), 420);

    mdl_batch_free(&b);
    anim_model_fault_free(&f);
    mdl_doc_free(base);
}

static void test_result_rows_dedupe_and_notes(void **state)
{
    (void)state;
    anim_model_limits l = test_limits();
    mdl_result rows[1];
    memset(rows, 0, sizeof rows);
    mdl_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.limits = &l;
    ctx.result = &rows[0];
    static const uint64_t ids[] = {9, 3, 9, 1, 3};
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(mdl_select_face(&ctx, ids[i]), 0);
        assert_int_equal(mdl_select_vertex(&ctx, ids[i] + 100), 0);
    }
    for (int i = 0; i < 6; i++)
        assert_int_equal(mdl_note(&ctx, "note %d", i), 0);
    assert_int_equal(rows[0].note_count, 4);
    /* A batch as mdl_batch_run lays it out: op names after the rows. */
    struct {
        mdl_result r[1];
        const char *ops[1];
    } block = {{rows[0]}, {"weld"}};
    mdl_batch b = {NULL, block.r, 1, 0};
    const anim_json_value *r = results_json(&b, 1u << 16);
    const anim_json_value *row = anim_json_item(anim_json_get(r, "results"), 0);
    assert_int_equal(num(row, "face_count"), 3);
    const anim_json_value *faces = anim_json_get(row, "faces");
    assert_int_equal(anim_json_count(faces), 3);
    assert_true(anim_json_string_eq(anim_json_item(faces, 0), "1"));
    assert_true(anim_json_string_eq(anim_json_item(faces, 2), "9"));
    assert_true(anim_json_string_eq(anim_json_item(anim_json_get(row, "vertices"), 1), "103"));
    assert_int_equal(anim_json_count(anim_json_get(row, "notes")), 4);
    assert_true(anim_json_string_eq(anim_json_get(row, "op"), "weld"));
    free(block.r[0].faces);
    free(block.r[0].vertices);
    for (uint32_t i = 0; i < block.r[0].note_count; i++)
        free(block.r[0].notes[i]);
}

/* ---- canonical hash */

static mdl_doc *tri_doc(double x)
{
    mdl_doc *d = mdl_doc_new();
    assert_non_null(d);
    mdl_object *o = mdl_doc_add_object(d, "tri");
    assert_non_null(o);
    double p[3][3] = {{x, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    uint64_t v[3];
    for (int i = 0; i < 3; i++)
        v[i] = mdl_object_add_vertex(o, p[i]);
    assert_int_not_equal(mdl_object_add_face(o, v, NULL, 3, 0, false), 0);
    return d;
}

static void test_canon_hash(void **state)
{
    (void)state;
    char a[65], b[65], c[65];
    mdl_doc *d1 = tri_doc(0.25), *d2 = tri_doc(0.25);
    hash_of(d1, a);
    hash_of(d2, b);
    assert_string_equal(a, b);
    assert_int_equal(strlen(a), 64);
    hash_of(d1, c);
    assert_string_equal(a, c);

    /* one bit of one coordinate */
    double x = 0.25;
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits ^= 1;
    memcpy(&x, &bits, sizeof bits);
    mdl_doc *d3 = tri_doc(x);
    hash_of(d3, c);
    assert_string_not_equal(a, c);

    /* -0 and 0 are different content */
    mdl_doc *z1 = tri_doc(0.0), *z2 = tri_doc(-0.0);
    hash_of(z1, b);
    hash_of(z2, c);
    assert_string_not_equal(b, c);

    /* a defined material, and a future id (retired counters) are content */
    anim_strbuf e1 = ANIM_STRBUF_INIT, e2 = ANIM_STRBUF_INIT;
    assert_int_equal(mdl_canon_encode(d1, &e1), 0);
    d2->materials[5].defined = true;
    hash_of(d2, c);
    assert_string_not_equal(a, c);
    d2->materials[5].defined = false;
    hash_of(d2, c);
    assert_string_equal(a, c);
    assert_int_equal(mdl_doc_delete_object(d2, "tri"), 0);
    assert_non_null(mdl_doc_add_object(d1, "tri2"));
    assert_int_equal(mdl_doc_delete_object(d1, "tri2"), 0);
    assert_int_equal(mdl_doc_delete_object(d1, "tri"), 0);
    hash_of(d1, a);
    hash_of(d2, b);
    assert_string_not_equal(a, b); /* d1 also retired "tri2" */
    assert_int_equal(mdl_canon_encode(d2, &e2), 0);
    assert_memory_equal(e2.data, "AMDL\x02\0\0\0", 8);
    uint64_t size = 0;
    hash_of(d2, b);
    assert_int_equal(mdl_canon_hash(d2, c, &size), 0);
    assert_int_equal(size, e2.len);
    anim_strbuf_free(&e1);
    anim_strbuf_free(&e2);
    mdl_doc_free(d1);
    mdl_doc_free(d2);
    mdl_doc_free(d3);
    mdl_doc_free(z1);
    mdl_doc_free(z2);
}

/* ---- world.api schema */

static void test_api_schema(void **state)
{
    (void)state;
    anim_strbuf s1 = ANIM_STRBUF_INIT, s2 = ANIM_STRBUF_INIT;
    assert_int_equal(anim_model_api_schema(&s1), 0);
    assert_int_equal(anim_model_api_schema(&s2), 0);
    assert_int_equal(s1.len, s2.len);
    assert_memory_equal(s1.data, s2.data, s1.len);
    const anim_json_value *v = parse(s1.data);
    assert_true(anim_json_string_eq(anim_json_get(v, "$schema"),
                                    "https://json-schema.org/draft/2020-12/schema"));
    const anim_json_value *ops = anim_json_get(v, "operations");
    assert_int_equal(anim_json_count(ops), 49);
    assert_int_equal(mdl_op_def_count, 49);
    static const char *const order[] = {
        "cube",         "plane",       "sphere",        "cylinder",     "polygon_mesh",
        "transform",    "extrude",     "inset",         "mirror",       "weld",
        "delete_faces", "delete_object", "uv",          "corner_normal", "edge_attributes",
        "weights",      "assign_material", "material",  "texture_solid", "paint_texture",
        "skeleton",     "auto_weights", "subdivide",    "smooth",       "project_uv",
        "brush",        "clip",        "delete_clip",   "rig_rest",     "rig_rename",
        "rig_parent",   "rig_roll",    "clip_options",  "rig_mirror",   "weight_locks",
        "weight_edit",  "morph",       "capture_morph", "delete_morph", "morph_weight",
        "pose",         "delete_pose", "ik",            "blend_clip",   "retarget_clip",
        "constraint",   "delete_constraint", "solve_pose", "bake_clip"};
    for (size_t i = 0; i < 49; i++) {
        const anim_json_member *m = anim_json_member_at(ops, i);
        assert_int_equal(anim_json_key_len(m), strlen(order[i]));
        assert_memory_equal(m->key, order[i], strlen(order[i]));
        assert_ptr_equal(mdl_op_find(order[i], strlen(order[i])), mdl_op_defs[i]);
        const anim_json_value *props = anim_json_get(&m->value, "properties");
        assert_true(anim_json_string_eq(anim_json_get(anim_json_get(props, "op"), "const"),
                                        order[i]));
        assert_int_equal(anim_json_get(&m->value, "additionalProperties")->type,
                         ANIM_JSON_FALSE);
    }
    assert_null(mdl_op_find("cub", 3));
    const anim_json_value *sphere = anim_json_get(ops, "sphere");
    const anim_json_value *seg =
        anim_json_get(anim_json_get(sphere, "properties"), "segments");
    assert_true(anim_json_string_eq(anim_json_get(seg, "type"), "integer"));
    assert_int_equal(anim_json_integer(anim_json_get(seg, "minimum")), 3);
    assert_int_equal(anim_json_integer(anim_json_get(seg, "maximum")), 128);
    const anim_json_value *radius = anim_json_get(anim_json_get(sphere, "properties"), "radius");
    assert_non_null(anim_json_get(radius, "exclusiveMinimum"));
    const anim_json_value *df = anim_json_get(
        anim_json_get(anim_json_get(ops, "delete_faces"), "properties"), "faces");
    assert_true(anim_json_string_eq(anim_json_get(anim_json_get(df, "items"), "pattern"),
                                    "^[1-9][0-9]*$"));
    assert_int_equal(
        anim_json_count(anim_json_get(anim_json_get(v, "operation"), "oneOf")), 49);
    const anim_json_value *methods = anim_json_get(v, "methods");
    static const char *const names[] = {"model.open",  "model.apply",  "model.inspect",
                                        "model.history", "model.job",  "model.cancel",
                                        "model.close", "model.compile", "model.compile_preview",
                                        "model.publish", "model.revisions", "world.api"};
    assert_int_equal(anim_json_count(methods), 12);
    for (size_t i = 0; i < 12; i++)
        assert_non_null(anim_json_get(methods, names[i]));
    const anim_json_value *domain = anim_json_get(
        anim_json_get(anim_json_get(methods, "model.inspect"), "properties"), "domain");
    assert_int_equal(anim_json_count(anim_json_get(domain, "enum")), 12);
    anim_strbuf_free(&s1);
    anim_strbuf_free(&s2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validate_basics),
        cmocka_unit_test(test_validate_numbers),
        cmocka_unit_test(test_validate_names),
        cmocka_unit_test(test_validate_ids),
        cmocka_unit_test(test_validate_not_finite),
        cmocka_unit_test(test_validate_nested),
        cmocka_unit_test(test_batch_invalid_third_op),
        cmocka_unit_test(test_batch_sizes_and_limits),
        cmocka_unit_test(test_results_budget),
        cmocka_unit_test(test_result_rows_dedupe_and_notes),
        cmocka_unit_test(test_canon_hash),
        cmocka_unit_test(test_api_schema),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
