/* Property tests of the model engine through its JSON entry point
 * (anim_model_call_text), driven by a PRNG from fixed starting states: random batches mixing
 * valid and invalid operations (cube, plane, transform, extrude,
 * delete_faces, uv, assign_material with bad ids, unknown and missing
 * fields, out-of-range values). Whatever the batch:
 *   - a refused batch leaves the content and the head unchanged;
 *   - apply then undo restores the content hash (and redo the new one),
 *     the generation advancing every time;
 *   - no apply, inspect or history reply exceeds 12288 bytes;
 *   - no element id is handed out twice within an object's lineage (ids
 *     created by a primitive are fresh; undo returns to the lineage of
 *     the earlier head, whose ids are tracked separately). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/json.h"
#include "animsmith/model.h"
#include "animsmith/strbuf.h"

#define REPLY_CAP 12288
#define OBJECTS 3
#define MAX_IDS 4096
#define MAX_DEPTH 16

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
    /* xorshift64*: a fixed sequence per starting state, the same on every machine. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * UINT64_C(2685821657736338717)) >> 33) % n;
}

typedef struct {
    uint64_t ids[MAX_IDS];
    size_t n;
} id_set;

static bool set_has(const id_set *s, uint64_t id)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->ids[i] == id)
            return true;
    return false;
}

static void set_add(id_set *s, uint64_t id)
{
    if (!set_has(s, id) && s->n < MAX_IDS)
        s->ids[s->n++] = id;
}

/* What one lineage has handed out, per object: every vertex and face id
 * ever created (live or deleted), and the live ones for building ops. */
typedef struct {
    id_set created_v[OBJECTS], created_f[OBJECTS];
    id_set live_v[OBJECTS], live_f[OBJECTS], live_c[OBJECTS];
} lineage;

static const char *const object_names[OBJECTS] = {"a", "b", "c"};

typedef struct {
    anim_model_host *host;
    anim_model_head head;
    lineage *stack; /* stack[0..depth]: the lineage of each undo level */
    size_t depth;
    uint64_t applies, refusals, undos;
} world;

static anim_json_value *parse(anim_arena *arena, const anim_strbuf *sb)
{
    anim_error err;
    anim_error_clear(&err);
    anim_json_value *v = anim_json_parse(arena, sb->data, sb->len, NULL, &err);
    assert_non_null(v);
    return v;
}

static uint64_t id_value(const anim_json_value *v)
{
    assert_int_equal(v->type, ANIM_JSON_STRING);
    char buf[32];
    assert_true(v->len > 0 && v->len < sizeof buf);
    memcpy(buf, v->u.string, v->len);
    buf[v->len] = '\0';
    return strtoull(buf, NULL, 10);
}

static void get_head(world *w, anim_model_head *h)
{
    anim_model_fault f;
    anim_model_fault_init(&f);
    assert_int_equal(anim_model_get_head(w->host, "p", h, &f), 0);
    anim_model_fault_free(&f);
}

static int call(world *w, const char *method, const char *params, anim_strbuf *reply,
                anim_model_fault *f)
{
    anim_strbuf_reset(reply);
    anim_model_fault_free(f);
    anim_model_fault_init(f);
    int rc = anim_model_call_text(w->host, method, params, strlen(params), reply, f);
    if (rc == 0) {
        if (reply->len > REPLY_CAP)
            fail_msg("%s reply of %zu bytes exceeds %d", method, reply->len, REPLY_CAP);
    } else {
        assert_true(f->kind[0] != '\0');
        assert_true(f->message[0] != '\0');
        assert_null(strchr(f->message, '\n'));
    }
    return rc;
}

/* Refreshes the live ids of every object from paged inspection. */
static void refresh_live(world *w)
{
    lineage *l = &w->stack[w->depth];
    static const char *const domains[] = {"vertices", "faces", "corners"};
    anim_strbuf reply = ANIM_STRBUF_INIT;
    anim_model_fault f;
    anim_model_fault_init(&f);
    for (int o = 0; o < OBJECTS; o++) {
        id_set *sets[] = {&l->live_v[o], &l->live_f[o], &l->live_c[o]};
        for (int d = 0; d < 3; d++) {
            sets[d]->n = 0;
            uint64_t offset = 0;
            for (int guard = 0; guard < 1000; guard++) {
                char params[256];
                snprintf(params, sizeof params,
                         "{\"document\":\"p\",\"object\":\"%s\",\"domain\":\"%s\",\"offset\":%" PRIu64
                         ",\"limit\":%u}",
                         object_names[o], domains[d], offset, 1 + rnd(128));
                if (call(w, "model.inspect", params, &reply, &f)) {
                    assert_string_equal(f.kind, "unknown_object");
                    break;
                }
                anim_arena *arena = anim_arena_new();
                const anim_json_value *v = parse(arena, &reply);
                const anim_json_value *items = anim_json_get(v, "items");
                for (size_t i = 0; i < anim_json_count(items); i++)
                    set_add(sets[d], id_value(anim_json_get(anim_json_item(items, i), "id")));
                const anim_json_value *next = anim_json_get(v, "next_offset");
                bool more = next && next->type == ANIM_JSON_NUMBER;
                if (more) {
                    assert_true((uint64_t)anim_json_integer(next) > offset);
                    offset = (uint64_t)anim_json_integer(next);
                }
                anim_arena_free(arena);
                if (!more)
                    break;
            }
            /* Every live vertex and face was handed out in this lineage. */
            for (size_t i = 0; d < 2 && i < sets[d]->n; i++)
                assert_true(set_has(d == 0 ? &l->created_v[o] : &l->created_f[o],
                                    sets[d]->ids[i]));
        }
    }
    anim_model_fault_free(&f);
    anim_strbuf_free(&reply);
}

/* An id of set, or (sometimes, or when empty) one that does not exist. */
static void pick_id(const id_set *s, char *buf, size_t cap, bool *bad)
{
    if (s->n == 0 || rnd(8) == 0) {
        static const char *const bogus[] = {"999999", "0", "18446744073709551615", "-1", "x"};
        snprintf(buf, cap, "\"%s\"", bogus[rnd(5)]);
        *bad = true;
    } else {
        snprintf(buf, cap, "\"%" PRIu64 "\"", s->ids[rnd((uint32_t)s->n)]);
    }
}

static const char *num(void)
{
    static const char *const values[] = {"0.5", "1", "0.25", "2", "0.125"};
    return values[rnd(5)];
}

/* Appends one random operation to ops; *bad is set when it is meant to
 * be refused (it may also be refused for reasons of geometry). */
static void random_op(world *w, anim_strbuf *ops, bool *bad, bool *primitive)
{
    lineage *l = &w->stack[w->depth];
    int o = (int)rnd(OBJECTS);
    const char *obj = object_names[o];
    char id1[48], id2[48];
    switch (rnd(7)) {
    case 0:
        switch (rnd(6)) {
        case 0:
            anim_strbuf_printf(ops, "{\"op\":\"cube\",\"object\":\"%s\",\"size\":[-1,1,1]}", obj);
            *bad = true;
            break;
        case 1:
            anim_strbuf_printf(ops, "{\"op\":\"cube\",\"object\":\"%s\"}", obj);
            *bad = true;
            break;
        case 2:
            anim_strbuf_printf(ops, "{\"op\":\"cube\",\"object\":\"%s\",\"size\":[1,1,1],"
                                    "\"colour\":1}",
                               obj);
            *bad = true;
            break;
        default:
            anim_strbuf_printf(ops, "{\"op\":\"cube\",\"object\":\"%s\",\"size\":[%s,%s,%s]}", obj,
                               num(), num(), num());
            *primitive = true;
        }
        break;
    case 1:
        if (rnd(5) == 0) {
            anim_strbuf_printf(ops, "{\"op\":\"plane\",\"object\":\"%s\",\"size\":[1]}", obj);
            *bad = true;
        } else {
            anim_strbuf_printf(ops, "{\"op\":\"plane\",\"object\":\"%s\",\"size\":[%s,%s]}", obj,
                               num(), num());
            *primitive = true;
        }
        break;
    case 2:
        pick_id(&l->live_v[o], id1, sizeof id1, bad);
        if (rnd(6) == 0) {
            anim_strbuf_printf(ops, "{\"op\":\"transform\",\"object\":\"%s\",\"vertices\":[%s],"
                                    "\"matrix\":[[0,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}",
                               obj, id1);
            *bad = true;
        } else {
            anim_strbuf_printf(ops, "{\"op\":\"transform\",\"object\":\"%s\",\"vertices\":[%s],"
                                    "\"matrix\":[[1,0,0,%s],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}",
                               obj, id1, num());
        }
        break;
    case 3:
        pick_id(&l->live_f[o], id1, sizeof id1, bad);
        if (rnd(6) == 0) {
            anim_strbuf_printf(ops, "{\"op\":\"extrude\",\"object\":\"%s\",\"face\":%s,"
                                    "\"offset\":[0,1,0,0]}",
                               obj, id1);
            *bad = true;
        } else {
            anim_strbuf_printf(ops, "{\"op\":\"extrude\",\"object\":\"%s\",\"face\":%s,"
                                    "\"offset\":[0,%s,0]}",
                               obj, id1, num());
        }
        break;
    case 4:
        pick_id(&l->live_f[o], id1, sizeof id1, bad);
        anim_strbuf_printf(ops, "{\"op\":\"delete_faces\",\"object\":\"%s\",\"faces\":[%s]}", obj,
                           id1);
        break;
    case 5:
        pick_id(&l->live_c[o], id1, sizeof id1, bad);
        if (rnd(5) == 0) {
            anim_strbuf_printf(ops, "{\"op\":\"uv\",\"object\":\"%s\",\"corner\":%s,\"uv\":[0]}",
                               obj, id1);
            *bad = true;
        } else {
            anim_strbuf_printf(ops, "{\"op\":\"uv\",\"object\":\"%s\",\"corner\":%s,"
                                    "\"uv\":[%s,%s]}",
                               obj, id1, num(), num());
        }
        break;
    default:
        pick_id(&l->live_f[o], id2, sizeof id2, bad);
        if (rnd(4) == 0) {
            anim_strbuf_printf(ops, "{\"op\":\"assign_material\",\"object\":\"%s\",\"faces\":[%s],"
                                    "\"material\":%s}",
                               obj, id2, rnd(2) ? "512" : "-1");
            *bad = true;
        } else {
            anim_strbuf_printf(ops, "{\"op\":\"assign_material\",\"object\":\"%s\",\"faces\":[%s],"
                                    "\"material\":%u}",
                               obj, id2, rnd(512));
        }
    }
}

static void head_params(const anim_model_head *h, char *buf, size_t cap)
{
    snprintf(buf, cap, "{\"generation\":\"%" PRIu64 "\",\"content\":\"%s\"}", h->generation,
             h->content);
}

static void history(world *w, const char *action, anim_model_head *out)
{
    char expected[128], params[256];
    head_params(&w->head, expected, sizeof expected);
    snprintf(params, sizeof params, "{\"document\":\"p\",\"expected\":%s,\"action\":\"%s\"}",
             expected, action);
    anim_strbuf reply = ANIM_STRBUF_INIT;
    anim_model_fault f;
    anim_model_fault_init(&f);
    if (call(w, "model.history", params, &reply, &f))
        fail_msg("%s refused: %s", action, f.message);
    get_head(w, out);
    assert_true(out->generation > w->head.generation);
    anim_model_fault_free(&f);
    anim_strbuf_free(&reply);
}

/* Records the ids a successful apply handed out: a primitive's rows are
 * all new elements, never ones this lineage had before. */
static void record(world *w, const anim_strbuf *reply, const bool *primitive, size_t n)
{
    lineage *l = &w->stack[w->depth];
    anim_arena *arena = anim_arena_new();
    const anim_json_value *v = parse(arena, reply);
    const anim_json_value *results = anim_json_get(v, "results");
    for (size_t i = 0; i < anim_json_count(results); i++) {
        const anim_json_value *row = anim_json_item(results, i);
        const anim_json_value *idx = anim_json_get(row, "result_index");
        const anim_json_value *obj = anim_json_get(row, "object");
        size_t k = (size_t)anim_json_integer(idx);
        assert_true(k < n);
        int o = -1;
        for (int j = 0; obj && obj->type == ANIM_JSON_STRING && j < OBJECTS; j++)
            if (anim_json_string_eq(obj, object_names[j]))
                o = j;
        if (o < 0)
            continue;
        static const char *const keys[] = {"vertices", "faces"};
        for (int s = 0; s < 2; s++) {
            id_set *created = s == 0 ? &l->created_v[o] : &l->created_f[o];
            const anim_json_value *ids = anim_json_get(row, keys[s]);
            for (size_t j = 0; j < anim_json_count(ids); j++) {
                uint64_t id = id_value(anim_json_item(ids, j));
                if (primitive[k] && set_has(created, id))
                    fail_msg("object \"%s\": %s id %" PRIu64 " handed out twice",
                             object_names[o], keys[s], id);
                set_add(created, id);
            }
        }
    }
    anim_arena_free(arena);
}

/* Every id a batch may create without being reported (the rows share a
 * 256-id budget): the live ids after it count as created too. */
static void adopt_live(world *w)
{
    lineage *l = &w->stack[w->depth];
    for (int o = 0; o < OBJECTS; o++) {
        for (size_t i = 0; i < l->live_v[o].n; i++)
            set_add(&l->created_v[o], l->live_v[o].ids[i]);
        for (size_t i = 0; i < l->live_f[o].n; i++)
            set_add(&l->created_f[o], l->live_f[o].ids[i]);
    }
}

static void one_step(world *w, uint32_t step)
{
    anim_strbuf ops = ANIM_STRBUF_INIT, params = ANIM_STRBUF_INIT, reply = ANIM_STRBUF_INIT;
    size_t n = 1 + rnd(5);
    bool bad = false, primitive[8] = {false};
    /* Half the batches hold only well-formed operations on existing ids,
     * so that the document grows and undo has something to undo. */
    bool clean = rnd(2) == 0;
    anim_strbuf one = ANIM_STRBUF_INIT;
    anim_strbuf_putc(&ops, '[');
    for (size_t i = 0; i < n; i++) {
        bool op_bad;
        int tries = 0;
        do {
            op_bad = false;
            primitive[i] = false;
            anim_strbuf_reset(&one);
            random_op(w, &one, &op_bad, &primitive[i]);
        } while (clean && op_bad && ++tries < 50);
        bad = bad || op_bad;
        if (i)
            anim_strbuf_putc(&ops, ',');
        anim_strbuf_append(&ops, one.data, one.len);
    }
    anim_strbuf_putc(&ops, ']');
    anim_strbuf_free(&one);
    char expected[128];
    bool stale = rnd(20) == 0 && w->head.generation > 0;
    anim_model_head planned = w->head;
    if (stale)
        planned.generation--;
    head_params(&planned, expected, sizeof expected);
    anim_strbuf_printf(&params, "{\"document\":\"p\",\"request_id\":\"r%u\",\"expected\":%s,"
                                "\"operations\":%s}",
                       step, expected, ops.data);
    anim_model_fault f;
    anim_model_fault_init(&f);
    int rc = call(w, "model.apply", params.data, &reply, &f);
    anim_model_head after;
    get_head(w, &after);
    if (rc) {
        w->refusals++;
        /* Nothing of a refused batch is visible. */
        assert_int_equal(after.generation, w->head.generation);
        assert_string_equal(after.content, w->head.content);
        if (stale)
            assert_string_equal(f.kind, "stale_head");
    } else {
        assert_false(stale);
        if (bad)
            fail_msg("a batch meant to be refused was applied: %s", ops.data);
        w->applies++;
        assert_true(after.generation > w->head.generation);
        anim_model_head before = w->head;
        /* The new lineage starts as a copy of the one it grew from. */
        assert_true(w->depth + 1 < MAX_DEPTH);
        memcpy(&w->stack[w->depth + 1], &w->stack[w->depth], sizeof *w->stack);
        w->depth++;
        record(w, &reply, primitive, n);
        w->head = after;
        refresh_live(w);
        adopt_live(w);
        if (rnd(3) == 0) {
            anim_model_head undone, redone;
            history(w, "undo", &undone);
            w->undos++;
            assert_string_equal(undone.content, before.content);
            w->head = undone;
            w->depth--;
            if (rnd(2) == 0) {
                history(w, "redo", &redone);
                assert_string_equal(redone.content, after.content);
                w->head = redone;
                w->depth++;
            } else {
                refresh_live(w);
            }
        }
        if (w->depth + 2 >= MAX_DEPTH) {
            /* Checkpoint: the history is gone, the current lineage stays. */
            anim_model_head cp;
            history(w, "checkpoint", &cp);
            assert_string_equal(cp.content, w->head.content);
            memcpy(&w->stack[0], &w->stack[w->depth], sizeof *w->stack);
            w->depth = 0;
            w->head = cp;
        }
    }
    /* A random page of a random domain never exceeds the reply cap. */
    static const char *const doc_domains[] = {"overview", "objects", "materials", "joints",
                                              "clips", "clip_keys"};
    static const char *const obj_domains[] = {"overview", "vertices", "faces", "corners",
                                              "edges", "weights", "solid"};
    char ip[256];
    if (rnd(2))
        snprintf(ip, sizeof ip, "{\"document\":\"p\",\"domain\":\"%s\"}", doc_domains[rnd(6)]);
    else
        snprintf(ip, sizeof ip,
                 "{\"document\":\"p\",\"object\":\"%s\",\"domain\":\"%s\",\"offset\":%u,"
                 "\"limit\":%u}",
                 object_names[rnd(OBJECTS)], obj_domains[1 + rnd(6)], rnd(40), 1 + rnd(128));
    (void)call(w, "model.inspect", ip, &reply, &f);
    anim_model_fault_free(&f);
    anim_strbuf_free(&ops);
    anim_strbuf_free(&params);
    anim_strbuf_free(&reply);
}

static void run_stream(uint64_t start, uint32_t steps)
{
    rng_state = start;
    world w;
    memset(&w, 0, sizeof w);
    w.stack = calloc(MAX_DEPTH, sizeof *w.stack);
    assert_non_null(w.stack);
    anim_model_host_options opts;
    memset(&opts, 0, sizeof opts);
    anim_model_limits_default(&opts.limits);
    anim_error err;
    anim_error_clear(&err);
    w.host = anim_model_host_new(&opts, &err);
    assert_non_null(w.host);
    anim_model_fault f;
    anim_model_fault_init(&f);
    assert_int_equal(anim_model_open(w.host, "p", &w.head, &f), 0);
    for (uint32_t s = 0; s < steps; s++)
        one_step(&w, s);
    printf("stream %#" PRIx64 ": %" PRIu64 " batches applied, %" PRIu64 " refused, %" PRIu64
           " undone\n", start, w.applies, w.refusals, w.undos);
    /* Both kinds of batch really happened. */
    assert_true(w.applies > steps / 10);
    assert_true(w.refusals > steps / 10);
    assert_true(w.undos > 0);
    anim_model_fault_free(&f);
    anim_model_host_free(w.host);
    free(w.stack);
}

static void test_stream_1(void **state)
{
    (void)state;
    run_stream(UINT64_C(0x9e3779b97f4a7c15), 150);
}

static void test_stream_2(void **state)
{
    (void)state;
    run_stream(UINT64_C(0x2545f4914f6cdd1d), 150);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream_1),
        cmocka_unit_test(test_stream_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
