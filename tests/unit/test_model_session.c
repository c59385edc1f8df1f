/* The model host end to end through anim_model_call_text: opening and
 * closing documents, heads, request ids with their receipts and ledger,
 * undo / redo / checkpoint with replay and admission, asynchronous jobs,
 * the job queue bound and cancellation (a verify callback that blocks on
 * a gate holds the worker, so queue states are deterministic). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "animsmith/arena.h"
#include "animsmith/json.h"
#include "animsmith/model.h"
#include "animsmith/strbuf.h"

/* ---- helpers */

static anim_model_host *host_with(const anim_model_limits *limits, anim_model_verify_fn verify,
                                  void *user)
{
    anim_model_host_options o;
    memset(&o, 0, sizeof o);
    if (limits)
        o.limits = *limits;
    else
        anim_model_limits_default(&o.limits);
    o.verify = verify;
    o.verify_user = user;
    anim_error err;
    anim_model_host *h = anim_model_host_new(&o, &err);
    assert_non_null(h);
    return h;
}

/* The reply of a call that must succeed (malloc'd). */
static char *ok(anim_model_host *h, const char *method, const char *params)
{
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_model_fault f;
    anim_model_fault_init(&f);
    int rc = anim_model_call_text(h, method, params, params ? strlen(params) : 0, &out, &f);
    if (rc != 0)
        fail_msg("%s %s: %s (%s)", method, params ? params : "", f.message, f.kind);
    anim_model_fault_free(&f);
    assert_non_null(out.data);
    return out.data;
}

/* A call that must be refused with kind and code; returns the message
 * and data as "message|data" (malloc'd). */
static char *refused(anim_model_host *h, const char *method, const char *params, const char *kind,
                     int code)
{
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_model_fault f;
    anim_model_fault_init(&f);
    int rc = anim_model_call_text(h, method, params, params ? strlen(params) : 0, &out, &f);
    if (rc == 0)
        fail_msg("%s %s: expected %s, got %s", method, params, kind, out.data);
    if (strcmp(f.kind, kind) != 0)
        fail_msg("%s: expected %s, got %s: %s", method, kind, f.kind, f.message);
    assert_int_equal(f.code, code);
    assert_int_equal(out.len, 0);
    anim_strbuf s = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&s, "%s|%s", f.message, f.data.data ? f.data.data : "");
    anim_model_fault_free(&f);
    anim_strbuf_free(&out);
    return s.data;
}

/* A string member (or the compact text of an object member as written:
 * heads) of a reply, malloc'd. */
static char *member(const char *reply, const char *key)
{
    anim_arena *a = anim_arena_new();
    anim_error err;
    const anim_json_value *v = anim_json_parse(a, reply, strlen(reply), NULL, &err);
    assert_non_null(v);
    const anim_json_value *m = anim_json_get(v, key);
    if (!m)
        fail_msg("no %s in %s", key, reply);
    char *s;
    if (m->type == ANIM_JSON_STRING) {
        s = strndup(anim_json_string(m), anim_json_string_len(m));
    } else if (m->type == ANIM_JSON_OBJECT) {
        /* Heads only: rebuild from their two members. */
        const anim_json_value *g = anim_json_get(m, "generation");
        const anim_json_value *c = anim_json_get(m, "content");
        assert_non_null(g);
        assert_non_null(c);
        anim_strbuf sb = ANIM_STRBUF_INIT;
        anim_strbuf_printf(&sb, "{\"generation\":\"%.*s\",\"content\":\"%.*s\"}", (int)g->len,
                           anim_json_string(g), (int)c->len, anim_json_string(c));
        s = sb.data;
    } else if (m->type == ANIM_JSON_NUMBER) {
        char buf[32];
        snprintf(buf, sizeof buf, "%lld", (long long)anim_json_integer(m));
        s = strdup(buf);
    } else {
        s = strdup(m->type == ANIM_JSON_TRUE ? "true" : m->type == ANIM_JSON_FALSE ? "false"
                                                                                  : "null");
    }
    anim_arena_free(a);
    return s;
}

/* The head of a reply as params text. */
static char *head_of(const char *reply)
{
    return member(reply, "head");
}

static char *content_of(const char *head)
{
    char *c = member(head, "content");
    return c;
}

static char *generation_of(const char *head)
{
    return member(head, "generation");
}

static char *open_doc(anim_model_host *h, const char *name)
{
    char p[256];
    snprintf(p, sizeof p, "{\"document\":\"%s\"}", name);
    char *r = ok(h, "model.open", p);
    char *head = head_of(r);
    free(r);
    return head;
}

static char *apply_params(const char *doc, const char *id, const char *head, const char *ops)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&sb,
                       "{\"document\":\"%s\",\"request_id\":\"%s\",\"expected\":%s,"
                       "\"operations\":%s}",
                       doc, id, head, ops);
    return sb.data;
}

/* Applies ops and returns the reply; *head becomes the new head. */
static char *apply(anim_model_host *h, const char *doc, const char *id, char **head,
                   const char *ops)
{
    char *p = apply_params(doc, id, *head, ops);
    char *r = ok(h, "model.apply", p);
    free(p);
    free(*head);
    *head = head_of(r);
    return r;
}

static char *history(anim_model_host *h, const char *doc, char **head, const char *action)
{
    anim_strbuf p = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&p, "{\"document\":\"%s\",\"expected\":%s,\"action\":\"%s\"}", doc, *head,
                       action);
    char *r = ok(h, "model.history", p.data);
    anim_strbuf_free(&p);
    free(*head);
    *head = head_of(r);
    return r;
}

static char *current_head(anim_model_host *h, const char *doc)
{
    anim_model_head hd;
    anim_model_fault f;
    anim_model_fault_init(&f);
    assert_int_equal(anim_model_get_head(h, doc, &hd, &f), 0);
    anim_model_fault_free(&f);
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&sb, "{\"generation\":\"%llu\",\"content\":\"%s\"}",
                       (unsigned long long)hd.generation, hd.content);
    return sb.data;
}

#define CUBE(obj) "[{\"op\":\"cube\",\"object\":\"" obj "\",\"size\":[1,2,3]}]"
#define PLANE(obj) "[{\"op\":\"plane\",\"object\":\"" obj "\",\"size\":[1,1]}]"

/* ---- documents */

static void test_open_close(void **state)
{
    (void)state;
    anim_model_host *h = host_with(NULL, NULL, NULL);
    char *head = open_doc(h, "robot");
    char *gen = generation_of(head);
    assert_string_equal(gen, "0");
    char *content = content_of(head);
    assert_int_equal(strlen(content), 64);
    free(gen);
    free(content);
    free(refused(h, "model.open", "{\"document\":\"robot\"}", "document_open",
                 ANIM_MODEL_E_CONFLICT));
    free(refused(h, "model.open", "{\"document\":\"bad name\"}", "invalid_params",
                 ANIM_MODEL_E_PARAMS));
    free(refused(h, "model.open", "{\"document\":\"x\",\"extra\":1}", "invalid_params",
                 ANIM_MODEL_E_PARAMS));
    free(refused(h, "model.frobnicate", "{}", "unknown_method", ANIM_MODEL_E_METHOD));
    free(refused(h, "model.open", "{\"document\":", "parse_error", ANIM_MODEL_E_PARSE));

    /* Close with a wrong head is refused and leaves the document open. */
    char *m = refused(h, "model.close",
                      "{\"document\":\"robot\",\"expected\":{\"generation\":\"7\",\"content\":"
                      "\"0000000000000000000000000000000000000000000000000000000000000000\"}}",
                      "stale_head", ANIM_MODEL_E_CONFLICT);
    assert_non_null(strstr(m, "\"current\":"));
    free(m);
    free(refused(h, "model.open", "{\"document\":\"robot\"}", "document_open",
                 ANIM_MODEL_E_CONFLICT));
    char p[256];
    snprintf(p, sizeof p, "{\"document\":\"robot\",\"expected\":%s}", head);
    free(ok(h, "model.close", p));
    free(refused(h, "model.close", p, "unknown_document", ANIM_MODEL_E_REFUSED));
    /* Reopened: a fresh document at generation 0 again. */
    free(head);
    head = open_doc(h, "robot");
    free(head);

    /* Sixteen open documents; the seventeenth is refused by name. */
    for (int i = 1; i < 16; i++) {
        char name[16];
        snprintf(name, sizeof name, "d%d", i);
        free(open_doc(h, name));
    }
    m = refused(h, "model.open", "{\"document\":\"d16\"}", "limit_exceeded", ANIM_MODEL_E_LIMIT);
    assert_non_null(strstr(m, "max_documents (16)"));
    free(m);
    anim_model_host_free(h);
}

static void test_head_parsing(void **state)
{
    (void)state;
    anim_model_host *h = host_with(NULL, NULL, NULL);
    char *head = open_doc(h, "d");
    char *content = content_of(head);
    static const char *const bad[] = {
        "{\"generation\":\"00\",\"content\":\"%s\"}",
        "{\"generation\":\"01\",\"content\":\"%s\"}",
        "{\"generation\":0,\"content\":\"%s\"}",
        "{\"generation\":\"0\",\"content\":\"%s\",\"x\":1}",
        "{\"generation\":\"18446744073709551616\",\"content\":\"%s\"}",
        "{\"generation\":\"-1\",\"content\":\"%s\"}",
        "{\"content\":\"%s\"}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char hb[256];
        snprintf(hb, sizeof hb, bad[i], content);
        char *p = apply_params("d", "r", hb, CUBE("a"));
        char *m = refused(h, "model.apply", p, "invalid_params", ANIM_MODEL_E_PARAMS);
        assert_non_null(strstr(m, "expected"));
        free(m);
        free(p);
    }
    /* Uppercase hex is not the content. */
    char upper[65];
    for (int i = 0; i < 64; i++)
        upper[i] = (char)(content[i] >= 'a' ? content[i] - 32 : content[i]);
    upper[64] = '\0';
    char hb[256];
    snprintf(hb, sizeof hb, "{\"generation\":\"0\",\"content\":\"%s\"}", upper);
    char *p = apply_params("d", "r", hb, CUBE("a"));
    free(refused(h, "model.apply", p, "invalid_params", ANIM_MODEL_E_PARAMS));
    free(p);
    free(content);
    free(head);
    anim_model_host_free(h);
}

/* ---- apply, receipts, ledger */

static void test_apply_stale_and_params(void **state)
{
    (void)state;
    anim_model_host *h = host_with(NULL, NULL, NULL);
    char *h0 = open_doc(h, "d");
    char *head = strdup(h0);
    free(apply(h, "d", "one", &head, CUBE("body")));
    assert_string_not_equal(head, h0);

    /* A stale head is refused with both heads, and nothing changes. */
    char *p = apply_params("d", "two", h0, PLANE("floor"));
    char *m = refused(h, "model.apply", p, "stale_head", ANIM_MODEL_E_CONFLICT);
    assert_non_null(strstr(m, "\"expected\":{\"generation\":\"0\""));
    assert_non_null(strstr(m, "\"current\":{\"generation\":\"1\""));
    free(m);
    free(p);
    char *now = current_head(h, "d");
    assert_string_equal(now, head);
    free(now);
    /* The refused request did not consume its id. */
    free(apply(h, "d", "two", &head, PLANE("floor")));

    p = apply_params("d", "three", head, "[]");
    free(refused(h, "model.apply", p, "empty_batch", ANIM_MODEL_E_REFUSED));
    free(p);
    p = apply_params("d", "", head, CUBE("x"));
    free(refused(h, "model.apply", p, "invalid_params", ANIM_MODEL_E_PARAMS));
    free(p);
    p = apply_params("d", "three", head, "{}");
    free(refused(h, "model.apply", p, "invalid_params", ANIM_MODEL_E_PARAMS));
    free(p);
    anim_strbuf q = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&q,
                       "{\"document\":\"d\",\"request_id\":\"x\",\"expected\":%s,"
                       "\"operations\":[],\"colour\":1}",
                       head);
    free(refused(h, "model.apply", q.data, "invalid_params", ANIM_MODEL_E_PARAMS));
    anim_strbuf_free(&q);
    p = apply_params("nope", "x", head, CUBE("x"));
    free(refused(h, "model.apply", p, "unknown_document", ANIM_MODEL_E_REFUSED));
    free(p);
    /* An operation refusal changes nothing either. */
    p = apply_params("d", "bad", head,
                     "[{\"op\":\"cube\",\"object\":\"c\",\"size\":[1,1,1]},{\"op\":\"nope\"}]");
    free(refused(h, "model.apply", p, "unknown_op", ANIM_MODEL_E_REFUSED));
    free(p);
    now = current_head(h, "d");
    assert_string_equal(now, head);
    free(now);
    free(h0);
    free(head);
    anim_model_host_free(h);
}

static void test_transaction_limit(void **state)
{
    (void)state;
    anim_model_limits l;
    anim_model_limits_default(&l);
    l.max_transaction_bytes = 120;
    anim_model_host *h = host_with(&l, NULL, NULL);
    char *head = open_doc(h, "d");
    char *p = apply_params("d", "big", head,
                           "[{\"op\":\"cube\",\"object\":\"a-rather-long-object-name\","
                           "\"size\":[1,1,1]}]");
    char *m = refused(h, "model.apply", p, "limit_exceeded", ANIM_MODEL_E_LIMIT);
    assert_non_null(strstr(m, "max_transaction_bytes (120)"));
    free(m);
    free(p);
    free(head);
    anim_model_host_free(h);
}

static void test_replay_and_conflict(void **state)
{
    (void)state;
    anim_model_host *h = host_with(NULL, NULL, NULL);
    char *h0 = open_doc(h, "d");
    char *head = strdup(h0);
    char *r1 = apply(h, "d", "create-body", &head, CUBE("body"));
    char *committed1 = member(r1, "committed");
    assert_string_equal(committed1, head);
    char *rep = member(r1, "replayed");
    assert_string_equal(rep, "false");
    free(rep);
    free(apply(h, "d", "floor", &head, PLANE("floor")));

    /* The retry carries the original (now stale) head and gets the
     * original result, with the current head. */
    char *p = apply_params("d", "create-body", h0, CUBE("body"));
    char *r2 = ok(h, "model.apply", p);
    free(p);
    rep = member(r2, "replayed");
    assert_string_equal(rep, "true");
    free(rep);
    char *c2 = member(r2, "committed");
    assert_string_equal(c2, committed1);
    char *cur = head_of(r2);
    assert_string_equal(cur, head);
    const char *tail1 = strstr(r1, "\"replayed\":false") + strlen("\"replayed\":false");
    const char *tail2 = strstr(r2, "\"replayed\":true") + strlen("\"replayed\":true");
    assert_string_equal(tail1, tail2);
    /* Nothing was applied twice. */
    char *now = current_head(h, "d");
    assert_string_equal(now, head);
    free(now);

    /* The same id with another payload. */
    p = apply_params("d", "create-body", h0, CUBE("other"));
    free(refused(h, "model.apply", p, "request_id_conflict", ANIM_MODEL_E_CONFLICT));
    free(p);
    p = apply_params("d", "create-body", head, CUBE("body"));
    free(refused(h, "model.apply", p, "request_id_conflict", ANIM_MODEL_E_CONFLICT));
    free(p);
    free(c2);
    free(cur);
    free(committed1);
    free(r1);
    free(r2);
    free(h0);
    free(head);
    anim_model_host_free(h);
}

static void test_receipt_eviction(void **state)
{
    (void)state;
    anim_model_limits l;
    anim_model_limits_default(&l);
    l.max_receipts = 2;
    anim_model_host *h = host_with(&l, NULL, NULL);
    char *h0 = open_doc(h, "d");
    char *head = strdup(h0);
    free(apply(h, "d", "a", &head, CUBE("a")));
    char *ha = strdup(head);
    free(apply(h, "d", "b", &head, CUBE("b")));
    char *hb = strdup(head);
    free(apply(h, "d", "c", &head, CUBE("c")));
    /* "a" was evicted: its id stays consumed. */
    char *p = apply_params("d", "a", h0, CUBE("a"));
    free(refused(h, "model.apply", p, "request_id_reused", ANIM_MODEL_E_CONFLICT));
    free(p);
    p = apply_params("d", "a", head, CUBE("z"));
    free(refused(h, "model.apply", p, "request_id_reused", ANIM_MODEL_E_CONFLICT));
    free(p);
    /* "b" and "c" replay. */
    p = apply_params("d", "b", ha, CUBE("b"));
    char *r = ok(h, "model.apply", p);
    char *c = member(r, "committed");
    assert_string_equal(c, hb);
    free(c);
    free(r);
    free(p);
    free(ha);
    free(hb);
    free(h0);
    free(head);
    anim_model_host_free(h);

    /* A receipt bigger than the byte bound is evicted at once. */
    l.max_receipts = 128;
    l.max_receipt_bytes = 64;
    h = host_with(&l, NULL, NULL);
    h0 = open_doc(h, "d");
    head = strdup(h0);
    free(apply(h, "d", "a", &head, CUBE("a")));
    p = apply_params("d", "a", h0, CUBE("a"));
    free(refused(h, "model.apply", p, "request_id_reused", ANIM_MODEL_E_CONFLICT));
    free(p);
    free(h0);
    free(head);
    anim_model_host_free(h);
}

static void test_ledger_exhaustion(void **state)
{
    (void)state;
    anim_model_limits l;
    anim_model_limits_default(&l);
    l.max_request_ids = 2;
    anim_model_host *h = host_with(&l, NULL, NULL);
    char *h0 = open_doc(h, "d");
    char *head = strdup(h0);
    free(apply(h, "d", "a", &head, CUBE("a")));
    free(apply(h, "d", "b", &head, CUBE("b")));
    char *p = apply_params("d", "c", head, CUBE("c"));
    char *m = refused(h, "model.apply", p, "request_id_ledger_exhausted", ANIM_MODEL_E_LIMIT);
    assert_non_null(strstr(m, "max_request_ids (2)"));
    free(m);
    free(p);
    /* Retries of known ids still replay. */
    p = apply_params("d", "a", h0, CUBE("a"));
    free(ok(h, "model.apply", p));
    free(p);
    /* A checkpoint keeps the ledger: still exhausted. */
    free(history(h, "d", &head, "checkpoint"));
    p = apply_params("d", "c", head, CUBE("c"));
    free(refused(h, "model.apply", p, "request_id_ledger_exhausted", ANIM_MODEL_E_LIMIT));
    free(p);
    free(h0);
    free(head);
    anim_model_host_free(h);
}

/* ---- history */

static void test_undo_redo(void **state)
{
    (void)state;
    anim_model_host *h = host_with(NULL, NULL, NULL);
    char *h0 = open_doc(h, "d");
    char *head = strdup(h0);
    char *p = NULL;
    anim_strbuf q = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&q, "{\"document\":\"d\",\"expected\":%s,\"action\":\"undo\"}", head);
    free(refused(h, "model.history", q.data, "nothing_to_undo", ANIM_MODEL_E_REFUSED));
    anim_strbuf_free(&q);

    free(apply(h, "d", "a", &head, CUBE("a")));
    char *h1 = strdup(head);
    free(apply(h, "d", "b", &head, PLANE("b")));
    char *h2 = strdup(head);

    char *r = history(h, "d", &head, "undo");
    assert_non_null(strstr(r, "\"undo_available\":1,\"redo_available\":1"));
    free(r);
    char *c = content_of(head), *c1 = content_of(h1);
    assert_string_equal(c, c1);
    char *g = generation_of(head);
    assert_string_equal(g, "3");
    free(c);
    free(g);

    r = history(h, "d", &head, "undo");
    assert_non_null(strstr(r, "\"undo_available\":0,\"redo_available\":2"));
    free(r);
    char *c0 = content_of(h0);
    c = content_of(head);
    assert_string_equal(c, c0);
    free(c);
    /* Undo restores content, never a head. */
    assert_string_not_equal(head, h0);

    /* The old head is stale now. */
    q = (anim_strbuf)ANIM_STRBUF_INIT;
    anim_strbuf_printf(&q, "{\"document\":\"d\",\"expected\":%s,\"action\":\"redo\"}", h2);
    free(refused(h, "model.history", q.data, "stale_head", ANIM_MODEL_E_CONFLICT));
    anim_strbuf_free(&q);

    free(history(h, "d", &head, "redo"));
    c = content_of(head);
    assert_string_equal(c, c1);
    free(c);
    free(history(h, "d", &head, "redo"));
    c = content_of(head);
    char *c2 = content_of(h2);
    assert_string_equal(c, c2);
    free(c);
    g = generation_of(head);
    assert_string_equal(g, "6");
    free(g);
    q = (anim_strbuf)ANIM_STRBUF_INIT;
    anim_strbuf_printf(&q, "{\"document\":\"d\",\"expected\":%s,\"action\":\"redo\"}", head);
    free(refused(h, "model.history", q.data, "nothing_to_redo", ANIM_MODEL_E_REFUSED));
    anim_strbuf_free(&q);
    q = (anim_strbuf)ANIM_STRBUF_INIT;
    anim_strbuf_printf(&q, "{\"document\":\"d\",\"expected\":%s,\"action\":\"rewind\"}", head);
    free(refused(h, "model.history", q.data, "invalid_params", ANIM_MODEL_E_PARAMS));
    anim_strbuf_free(&q);

    /* A new edit after undo discards the redo tail. */
    free(history(h, "d", &head, "undo"));
    free(apply(h, "d", "c", &head, CUBE("c")));
    r = history(h, "d", &head, "undo");
    assert_non_null(strstr(r, "\"undo_available\":1,\"redo_available\":1"));
    c = content_of(head);
    assert_string_equal(c, c1);
    free(c);
    free(r);

    free(c0);
    free(c1);
    free(c2);
    free(p);
    free(h0);
    free(h1);
    free(h2);
    free(head);
    anim_model_host_free(h);
}

static void test_checkpoint(void **state)
{
    (void)state;
    anim_model_host *h = host_with(NULL, NULL, NULL);
    char *h0 = open_doc(h, "d");
    char *head = strdup(h0);
    free(apply(h, "d", "a", &head, CUBE("a")));
    free(apply(h, "d", "b", &head, CUBE("b")));
    char *before = strdup(head);
    char *r = history(h, "d", &head, "checkpoint");
    assert_non_null(strstr(r, "\"action\":\"checkpoint\",\"undo_available\":0,\"redo_available\":0"));
    free(r);
    char *c = content_of(head), *cb = content_of(before);
    assert_string_equal(c, cb);
    char *g = generation_of(head);
    assert_string_equal(g, "3");
    free(g);
    anim_strbuf q = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&q, "{\"document\":\"d\",\"expected\":%s,\"action\":\"undo\"}", head);
    free(refused(h, "model.history", q.data, "nothing_to_undo", ANIM_MODEL_E_REFUSED));
    anim_strbuf_free(&q);
    /* Receipts survive the checkpoint. */
    char *p = apply_params("d", "a", h0, CUBE("a"));
    r = ok(h, "model.apply", p);
    assert_non_null(strstr(r, "\"replayed\":true"));
    free(r);
    free(p);
    /* Undo after a checkpoint replays from the checkpoint version. */
    free(apply(h, "d", "c", &head, CUBE("c")));
    free(history(h, "d", &head, "undo"));
    char *c2 = content_of(head);
    assert_string_equal(c2, cb);
    free(c2);
    free(c);
    free(cb);
    free(before);
    free(h0);
    free(head);
    anim_model_host_free(h);
}

static void test_max_undo_batches(void **state)
{
    (void)state;
    anim_model_limits l;
    anim_model_limits_default(&l);
    l.max_undo_batches = 2;
    anim_model_host *h = host_with(&l, NULL, NULL);
    char *head = open_doc(h, "d");
    free(apply(h, "d", "a", &head, CUBE("a")));
    free(apply(h, "d", "b", &head, CUBE("b")));
    char *p = apply_params("d", "c", head, CUBE("c"));
    char *m = refused(h, "model.apply", p, "checkpoint_required", ANIM_MODEL_E_LIMIT);
    assert_non_null(strstr(m, "max_undo_batches (2)"));
    free(m);
    char *now = current_head(h, "d");
    assert_string_equal(now, head);
    free(now);
    free(history(h, "d", &head, "checkpoint"));
    free(p);
    /* The refused id was not consumed. */
    free(apply(h, "d", "c", &head, CUBE("c")));
    free(head);
    anim_model_host_free(h);
}

static void test_checkpoint_required_work(void **state)
{
    (void)state;
    /* Transforms keep the document's size, so only their retained work
     * grows the replay bound; the bound leaves room for a few dozen. */
    anim_model_limits l;
    anim_model_limits_default(&l);
    anim_model_host *probe = host_with(&l, NULL, NULL);
    (void)probe;
    anim_model_host_free(probe);

    static const char *const xf =
        "[{\"op\":\"transform\",\"object\":\"a\",\"vertices\":[\"1\",\"2\",\"3\"],"
        "\"matrix\":[[1,0,0,0.5],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}]";
    /* Find a bound the first cube passes: start tight and relax. */
    uint64_t bound = 0;
    for (uint64_t b = 256; b < (1u << 24) && !bound; b *= 2) {
        l.max_work_units = b;
        anim_model_host *h = host_with(&l, NULL, NULL);
        char *head = open_doc(h, "d");
        char *p = apply_params("d", "cube", head, CUBE("a"));
        anim_strbuf out = ANIM_STRBUF_INIT;
        anim_model_fault f;
        anim_model_fault_init(&f);
        if (anim_model_call_text(h, "model.apply", p, strlen(p), &out, &f) == 0)
            bound = b;
        else
            assert_string_equal(f.kind, "checkpoint_required");
        anim_model_fault_free(&f);
        anim_strbuf_free(&out);
        free(p);
        free(head);
        anim_model_host_free(h);
    }
    assert_true(bound > 0);
    /* Twice the tightest bound: a cube and some transforms fit. */
    l.max_work_units = bound * 2;
    anim_model_host *h = host_with(&l, NULL, NULL);
    char *head = open_doc(h, "d");
    free(apply(h, "d", "cube", &head, CUBE("a")));
    int applied = 0;
    bool refusal = false;
    for (int i = 0; i < 100000 && !refusal; i++) {
        char id[32];
        snprintf(id, sizeof id, "t%d", i);
        char *p = apply_params("d", id, head, xf);
        anim_strbuf out = ANIM_STRBUF_INIT;
        anim_model_fault f;
        anim_model_fault_init(&f);
        if (anim_model_call_text(h, "model.apply", p, strlen(p), &out, &f) == 0) {
            free(head);
            head = head_of(out.data);
            applied++;
        } else {
            assert_string_equal(f.kind, "checkpoint_required");
            assert_int_equal(f.code, ANIM_MODEL_E_LIMIT);
            assert_non_null(strstr(f.message, "max_work_units"));
            refusal = true;
            /* Atomic: the head did not move. */
            char *now = current_head(h, "d");
            assert_string_equal(now, head);
            free(now);
            /* A checkpoint drops the retained work; the same batch fits. */
            free(history(h, "d", &head, "checkpoint"));
            free(apply(h, "d", id, &head, xf));
        }
        anim_model_fault_free(&f);
        anim_strbuf_free(&out);
        free(p);
    }
    assert_true(refusal);
    assert_true(applied > 0);
    free(head);
    anim_model_host_free(h);
}

/* ---- jobs */

typedef struct gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool entered, open;
} gate;

static int blocking_verify(const void *glb, size_t len, void *user, anim_strbuf *finding,
                           anim_error *err)
{
    (void)glb;
    (void)len;
    (void)finding;
    (void)err;
    gate *g = user;
    pthread_mutex_lock(&g->mu);
    g->entered = true;
    pthread_cond_broadcast(&g->cv);
    while (!g->open)
        pthread_cond_wait(&g->cv, &g->mu);
    pthread_mutex_unlock(&g->mu);
    return 0;
}

static int refusing_verify(const void *glb, size_t len, void *user, anim_strbuf *finding,
                           anim_error *err)
{
    (void)glb;
    (void)len;
    (void)user;
    (void)err;
    anim_strbuf_puts(finding, "{\"check\":\"test\",\"severity\":\"error\"}");
    return 1;
}

static void nap(void)
{
    struct timespec ts = {0, 2000000};
    nanosleep(&ts, NULL);
}

/* Polls model.job until its state is not one of the given; returns the
 * reply. */
static char *wait_job(anim_model_host *h, const char *job)
{
    char p[64];
    snprintf(p, sizeof p, "{\"job\":\"%s\"}", job);
    for (int i = 0; i < 5000; i++) {
        char *r = ok(h, "model.job", p);
        char *st = member(r, "state");
        bool done = strcmp(st, "queued") != 0 && strcmp(st, "running") != 0;
        free(st);
        if (done)
            return r;
        free(r);
        nap();
    }
    fail_msg("job %s did not finish", job);
    return NULL;
}

static void test_async_job(void **state)
{
    (void)state;
    anim_model_host *h = host_with(NULL, NULL, NULL);
    char *head = open_doc(h, "d");
    anim_strbuf p = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&p,
                       "{\"document\":\"d\",\"request_id\":\"a\",\"expected\":%s,"
                       "\"operations\":" CUBE("a") ",\"async\":true}",
                       head);
    char *r = ok(h, "model.apply", p.data);
    /* Every call is a job (the open was one too): read the id back. */
    char *first = member(r, "job");
    char expect[96];
    snprintf(expect, sizeof expect, "{\"job\":\"%s\",\"state\":\"queued\"}", first);
    assert_string_equal(r, expect);
    free(r);
    r = wait_job(h, first);
    free(first);
    assert_non_null(strstr(r, "\"method\":\"model.apply\",\"document\":\"d\",\"state\":\"completed\""));
    assert_non_null(strstr(r, "\"result\":{\"document\":\"d\""));
    assert_non_null(strstr(r, "\"committed\":"));
    free(r);
    /* A failed async job keeps its error. */
    /* The same request again: a replay job; then the current head. */
    r = ok(h, "model.apply", p.data);
    char *again = member(r, "job");
    free(r);
    r = wait_job(h, again);
    assert_non_null(strstr(r, "\"replayed\":true"));
    free(r);
    free(again);
    r = ok(h, "model.inspect", "{\"document\":\"d\",\"domain\":\"overview\"}");
    free(head);
    head = head_of(r);
    free(r);
    free(history(h, "d", &head, "undo")); /* head changes; job 2 is a replay */
    anim_strbuf_reset(&p);
    anim_strbuf_printf(&p,
                       "{\"document\":\"d\",\"request_id\":\"b\",\"expected\":{\"generation\":"
                       "\"0\",\"content\":\"%064d\"},\"operations\":" CUBE("b") ",\"async\":true}",
                       0);
    r = ok(h, "model.apply", p.data);
    char *id = member(r, "job");
    free(r);
    r = wait_job(h, id);
    assert_non_null(strstr(r, "\"state\":\"failed\",\"error\":{\"code\":-32001,\"kind\":\"stale_head\""));
    free(r);
    free(id);
    free(refused(h, "model.job", "{\"job\":\"999\"}", "unknown_job", ANIM_MODEL_E_REFUSED));
    free(refused(h, "model.job", "{\"job\":1}", "invalid_params", ANIM_MODEL_E_PARAMS));
    /* async is not accepted on inspect. */
    free(refused(h, "model.inspect", "{\"document\":\"d\",\"domain\":\"overview\",\"async\":true}",
                 "invalid_params", ANIM_MODEL_E_PARAMS));
    anim_strbuf_free(&p);
    free(head);
    anim_model_host_free(h);
}

static void test_cancel_and_queue(void **state)
{
    (void)state;
    gate g = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, false};
    anim_model_limits l;
    anim_model_limits_default(&l);
    l.max_queued_jobs = 2;
    anim_model_host *h = host_with(&l, blocking_verify, &g);
    char *head = open_doc(h, "d");
    free(apply(h, "d", "a", &head, CUBE("a")));

    /* A compile held in verification occupies the worker. */
    anim_strbuf p = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&p, "{\"document\":\"d\",\"expected\":%s,\"async\":true}", head);
    char *r = ok(h, "model.compile", p.data);
    char *slow = member(r, "job");
    free(r);
    pthread_mutex_lock(&g.mu);
    while (!g.entered)
        pthread_cond_wait(&g.cv, &g.mu);
    pthread_mutex_unlock(&g.mu);

    anim_strbuf q1 = ANIM_STRBUF_INIT, q2 = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&q1,
                       "{\"document\":\"d\",\"request_id\":\"b\",\"expected\":%s,"
                       "\"operations\":" CUBE("b") ",\"async\":true}",
                       head);
    anim_strbuf_printf(&q2,
                       "{\"document\":\"d\",\"request_id\":\"c\",\"expected\":%s,"
                       "\"operations\":" CUBE("c") ",\"async\":true}",
                       head);
    r = ok(h, "model.apply", q1.data);
    char *jb = member(r, "job");
    free(r);
    r = ok(h, "model.apply", q2.data);
    char *jc = member(r, "job");
    free(r);
    /* The queue holds two: a third is refused. */
    free(refused(h, "model.apply", q2.data, "job_queue_full", ANIM_MODEL_E_LIMIT));

    char jp[64];
    snprintf(jp, sizeof jp, "{\"job\":\"%s\"}", slow);
    r = ok(h, "model.job", jp);
    assert_non_null(strstr(r, "\"state\":\"running\""));
    free(r);

    /* Cancel the queued "b": removed at once. */
    snprintf(jp, sizeof jp, "{\"job\":\"%s\"}", jb);
    r = ok(h, "model.cancel", jp);
    assert_non_null(strstr(r, "\"state\":\"cancelled\",\"cancel_requested\":true"));
    free(r);
    r = ok(h, "model.job", jp);
    assert_non_null(strstr(r, "\"state\":\"cancelled\",\"error\":{"));
    assert_non_null(strstr(r, "\"kind\":\"cancelled\""));
    free(r);

    /* Cancel the running compile: requested; it is past its last
     * checkpoint, so it completes. */
    snprintf(jp, sizeof jp, "{\"job\":\"%s\"}", slow);
    r = ok(h, "model.cancel", jp);
    assert_non_null(strstr(r, "\"state\":\"running\",\"cancel_requested\":true"));
    free(r);

    pthread_mutex_lock(&g.mu);
    g.open = true;
    pthread_cond_broadcast(&g.cv);
    pthread_mutex_unlock(&g.mu);

    r = wait_job(h, slow);
    assert_non_null(strstr(r, "\"state\":\"completed\""));
    assert_non_null(strstr(r, "\"glb\":\""));
    free(r);
    r = wait_job(h, jc);
    assert_non_null(strstr(r, "\"state\":\"completed\""));
    free(r);
    /* Cancelling a finished job is too late. */
    snprintf(jp, sizeof jp, "{\"job\":\"%s\"}", jc);
    r = ok(h, "model.cancel", jp);
    assert_non_null(strstr(r, "\"state\":\"completed\",\"cancel_requested\":false,\"reason\":"));
    free(r);
    /* "b" never ran, so its id is free and "c" is in. */
    char *now = current_head(h, "d");
    char *g2 = generation_of(now);
    assert_string_equal(g2, "2");
    free(g2);
    free(head);
    head = now;
    free(apply(h, "d", "b", &head, CUBE("b")));

    free(slow);
    free(jb);
    free(jc);
    anim_strbuf_free(&p);
    anim_strbuf_free(&q1);
    anim_strbuf_free(&q2);
    free(head);
    anim_model_host_free(h);
}

static void test_compile(void **state)
{
    (void)state;
    anim_model_host *h = host_with(NULL, NULL, NULL);
    anim_model_head hd;
    anim_model_fault f;
    anim_model_fault_init(&f);
    assert_int_equal(anim_model_open(h, "c", &hd, &f), 0);
    anim_strbuf reply = ANIM_STRBUF_INIT;
    assert_int_equal(anim_model_apply(h, "c", &hd, "a", CUBE("box"), &reply, &f), 0);
    assert_int_equal(anim_model_get_head(h, "c", &hd, &f), 0);
    assert_int_equal(hd.generation, 1);
    anim_strbuf glb = ANIM_STRBUF_INIT;
    assert_int_equal(anim_model_compile(h, "c", &hd, false, &glb, &f), 0);
    assert_true(glb.len > 12);
    assert_memory_equal(glb.data, "glTF", 4);
    anim_strbuf_free(&glb);

    /* Output to a path that cannot be written. */
    anim_strbuf p = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&p,
                       "{\"document\":\"c\",\"expected\":{\"generation\":\"1\",\"content\":\"%s\"},"
                       "\"output\":\"/nonexistent-dir/x.glb\"}",
                       hd.content);
    char *m = refused(h, "model.compile", p.data, "output_failed", ANIM_MODEL_E_REFUSED);
    assert_non_null(strstr(m, "/nonexistent-dir/x.glb"));
    free(m);

    assert_int_equal(anim_model_history(h, "c", &hd, "undo", &reply, &f), 0);
    assert_int_equal(anim_model_get_head(h, "c", &hd, &f), 0);
    assert_int_equal(anim_model_close(h, "c", &hd, &f), 0);
    anim_strbuf_free(&reply);
    anim_strbuf_free(&p);
    anim_model_host_free(h);

    /* A verification refusal carries the finding. */
    anim_model_host_options o;
    memset(&o, 0, sizeof o);
    anim_model_limits_default(&o.limits);
    o.verify = refusing_verify;
    anim_error err;
    h = anim_model_host_new(&o, &err);
    assert_non_null(h);
    char *head = open_doc(h, "c");
    free(apply(h, "c", "a", &head, CUBE("box")));
    anim_strbuf_reset(&p);
    anim_strbuf_printf(&p, "{\"document\":\"c\",\"expected\":%s}", head);
    m = refused(h, "model.compile_preview", p.data, "compile_refused", ANIM_MODEL_E_REFUSED);
    assert_non_null(strstr(m, "{\"finding\":{\"check\":\"test\""));
    free(m);
    anim_strbuf_free(&p);
    free(head);
    anim_model_fault_free(&f);
    anim_model_host_free(h);
}

static void test_world_api(void **state)
{
    (void)state;
    anim_model_host *h = host_with(NULL, NULL, NULL);
    char *r = ok(h, "world.api", NULL);
    assert_true(r[0] == '{');
    free(r);
    free(refused(h, "world.api", "{\"x\":1}", "invalid_params", ANIM_MODEL_E_PARAMS));
    /* The internal head query is not a public method. */
    free(refused(h, "model.head", "{\"document\":\"d\"}", "unknown_method", ANIM_MODEL_E_METHOD));
    anim_model_host_free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_close),
        cmocka_unit_test(test_head_parsing),
        cmocka_unit_test(test_apply_stale_and_params),
        cmocka_unit_test(test_transaction_limit),
        cmocka_unit_test(test_replay_and_conflict),
        cmocka_unit_test(test_receipt_eviction),
        cmocka_unit_test(test_ledger_exhaustion),
        cmocka_unit_test(test_undo_redo),
        cmocka_unit_test(test_checkpoint),
        cmocka_unit_test(test_max_undo_batches),
        cmocka_unit_test(test_checkpoint_required_work),
        cmocka_unit_test(test_async_job),
        cmocka_unit_test(test_cancel_and_queue),
        cmocka_unit_test(test_compile),
        cmocka_unit_test(test_world_api),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
