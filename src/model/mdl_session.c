/* One open document and model.apply.
 *
 * A session is the current version with its head, the history it can be
 * re-derived from (mdl_history.c) and the receipts of recent requests.
 * model.apply is ordered so that a retry is answered before anything can
 * refuse it: the request id is looked up first (a retry after success
 * carries a head that is stale by then), then the head is checked, then
 * the batch runs on a copy, then admission decides whether history could
 * still replay it. Everything that can fail happens before publication;
 * publication itself only swaps pointers, so a cancellation or a refusal
 * never leaves a half-applied document. */
#include "model/mdl_session.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/hash.h"
#include "animsmith/json_write.h"
#include "core/grow.h"
#include "model/mdl_batch.h"
#include "model/mdl_canon.h"
#include "model/mdl_receipts.h"

#define REQUEST_ID_MAX 128

mdl_session *mdl_session_new(const char *name, const anim_model_limits *limits)
{
    mdl_session *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->limits = *limits;
    size_t n = strlen(name);
    s->name = malloc(n + 1);
    s->current = mdl_doc_new();
    if (!s->name || !s->current) {
        mdl_session_free(s);
        return NULL;
    }
    memcpy(s->name, name, n + 1);
    if (mdl_canon_hash(s->current, s->head.content, &s->current_bytes) != 0) {
        mdl_session_free(s);
        return NULL;
    }
    s->checkpoint = mdl_doc_share(s->current);
    if (!s->checkpoint) {
        mdl_session_free(s);
        return NULL;
    }
    memcpy(s->checkpoint_content, s->head.content, sizeof s->checkpoint_content);
    s->checkpoint_bytes = s->current_bytes;
    return s;
}

void mdl_session_drop_batches(mdl_session *s, size_t from)
{
    for (size_t i = from; i < s->batch_count; i++)
        free(s->batches[i].ops);
    if (from < s->batch_count)
        s->batch_count = from;
}

uint64_t mdl_session_retained_work(const mdl_session *s, size_t n)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum = sum > UINT64_MAX - s->batches[i].work ? UINT64_MAX : sum + s->batches[i].work;
    return sum;
}

void mdl_session_free(mdl_session *s)
{
    if (!s)
        return;
    mdl_session_drop_batches(s, 0);
    free(s->batches);
    mdl_receipts_free(&s->receipts);
    mdl_doc_free(s->current);
    mdl_doc_free(s->checkpoint);
    free(s->name);
    free(s);
}

const char *mdl_session_name(const mdl_session *s)
{
    return s->name;
}

void mdl_session_head(const mdl_session *s, anim_model_head *head)
{
    *head = s->head;
}

const mdl_doc *mdl_session_doc(const mdl_session *s)
{
    return s->current;
}

/* ---- heads */

static int parse_generation(const anim_json_value *g, const char *field, uint64_t *out,
                            anim_model_fault *fault)
{
    if (!g || g->type != ANIM_JSON_STRING)
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "%s.generation: expected a decimal string", field);
    const char *p = anim_json_string(g);
    size_t n = anim_json_string_len(g);
    if (n == 0 || n > 20 || (n > 1 && p[0] == '0'))
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "%s.generation: not a decimal u64 without leading zeros", field);
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                     "%s.generation: not a decimal u64", field);
        uint64_t d = (uint64_t)(p[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                     "%s.generation: above 18446744073709551615", field);
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static int parse_content(const anim_json_value *c, const char *field, char out[65],
                         anim_model_fault *fault)
{
    bool ok = c && c->type == ANIM_JSON_STRING && anim_json_string_len(c) == 64;
    for (size_t i = 0; ok && i < 64; i++) {
        char ch = anim_json_string(c)[i];
        ok = (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f');
    }
    if (!ok)
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "%s.content: expected 64 lowercase hex digits", field);
    memcpy(out, anim_json_string(c), 64);
    out[64] = '\0';
    return 0;
}

int mdl_head_parse(const anim_json_value *v, const char *field, anim_model_head *head,
                   anim_model_fault *fault)
{
    if (!v)
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "missing %s (a head {generation, content})", field);
    if (v->type != ANIM_JSON_OBJECT)
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "%s: expected a head object {generation, content}", field);
    static const char *const members[] = {"generation", "content", NULL};
    for (size_t i = 0; i < anim_json_count(v); i++) {
        const anim_json_member *m = anim_json_member_at(v, i);
        size_t kl = anim_json_key_len(m);
        bool known = false;
        for (size_t k = 0; members[k]; k++)
            known = known || (strlen(members[k]) == kl && memcmp(members[k], m->key, kl) == 0);
        if (!known) {
            anim_strbuf key = ANIM_STRBUF_INIT;
            anim_json_escape_string(&key, m->key, kl < 64 ? kl : 64);
            mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                              "%s: unknown member %s", field, key.data ? key.data : "\"\"");
            anim_strbuf_free(&key);
            return -1;
        }
    }
    anim_model_head h;
    if (parse_generation(anim_json_get(v, "generation"), field, &h.generation, fault) != 0 ||
        parse_content(anim_json_get(v, "content"), field, h.content, fault) != 0)
        return -1;
    *head = h;
    return 0;
}

void mdl_head_write(struct anim_json_writer *w, const anim_model_head *head)
{
    char gen[24];
    snprintf(gen, sizeof gen, "%" PRIu64, head->generation);
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "generation");
    anim_json_writer_string(w, gen);
    anim_json_writer_key(w, "content");
    anim_json_writer_string(w, head->content);
    anim_json_writer_end_object(w);
}

static bool head_eq(const anim_model_head *a, const anim_model_head *b)
{
    return a->generation == b->generation && memcmp(a->content, b->content, 64) == 0;
}

int mdl_session_check_head(const mdl_session *s, const anim_model_head *expected,
                           anim_model_fault *fault)
{
    if (head_eq(&s->head, expected))
        return 0;
    mdl_session_fault(fault, ANIM_MODEL_E_CONFLICT, "stale_head",
                      "document \"%s\": expected head (generation %" PRIu64
                      ") is not the current head (generation %" PRIu64 ")",
                      s->name, expected->generation, s->head.generation);
    anim_json_writer w;
    anim_json_writer_init(&w, &fault->data, false);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "expected");
    mdl_head_write(&w, expected);
    anim_json_writer_key(&w, "current");
    mdl_head_write(&w, &s->head);
    anim_json_writer_end_object(&w);
    return -1;
}

/* ---- model.apply */

static int nomem(anim_model_fault *fault, const mdl_session *s)
{
    return mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "out_of_memory",
                             "document \"%s\": out of memory", s->name);
}

static int check_request_id(const anim_json_value *id, anim_model_fault *fault)
{
    if (!id)
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "missing request_id (a string of 1..128 printable bytes)");
    bool ok = id->type == ANIM_JSON_STRING && anim_json_string_len(id) >= 1 &&
              anim_json_string_len(id) <= REQUEST_ID_MAX;
    for (size_t i = 0; ok && i < anim_json_string_len(id); i++) {
        unsigned char c = (unsigned char)anim_json_string(id)[i];
        ok = c >= 0x20 && c < 0x7f;
    }
    if (!ok)
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "request_id: expected a string of 1..128 printable ASCII bytes");
    return 0;
}

/* The payload a request id is bound to: what it asked for, not how. */
static void payload_digest(const anim_json_value *expected, const anim_json_value *ops,
                           uint8_t digest[32], bool *nomem_out)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_strbuf_puts(&sb, "{\"expected\":");
    mdl_json_compact(expected, &sb);
    anim_strbuf_puts(&sb, ",\"operations\":");
    mdl_json_compact(ops, &sb);
    anim_strbuf_putc(&sb, '}');
    *nomem_out = sb.failed;
    anim_sha256(sb.data ? sb.data : "", sb.len, digest);
    anim_strbuf_free(&sb);
}

/* The reply's leading members up to "replayed"; returns the writer open. */
static void reply_prefix(anim_json_writer *w, anim_strbuf *out, const mdl_session *s,
                         const anim_model_head *current, const anim_model_head *committed,
                         bool replayed)
{
    anim_json_writer_init(w, out, false);
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "document");
    anim_json_writer_string(w, s->name);
    anim_json_writer_key(w, "head");
    mdl_head_write(w, current);
    anim_json_writer_key(w, "committed");
    mdl_head_write(w, committed);
    anim_json_writer_key(w, "replayed");
    anim_json_writer_bool(w, replayed);
}

static int write_replay(const mdl_session *s, const mdl_receipt *rc, anim_strbuf *reply,
                        anim_model_fault *fault)
{
    anim_strbuf tmp = ANIM_STRBUF_INIT;
    anim_json_writer w;
    reply_prefix(&w, &tmp, s, &s->head, &rc->committed, true);
    /* The stored members continue the open object exactly as they did in
     * the original reply (they begin with their separator). */
    anim_strbuf_append(&tmp, rc->members, rc->members_len);
    anim_json_writer_end_object(&w);
    if (tmp.failed || !anim_json_writer_ok(&w)) {
        anim_strbuf_free(&tmp);
        return nomem(fault, s);
    }
    anim_strbuf_append(reply, tmp.data, tmp.len);
    anim_strbuf_free(&tmp);
    return reply->failed ? nomem(fault, s) : 0;
}

static int limit_fault(anim_model_fault *fault, int code, const char *kind, const char *field,
                       uint64_t limit, uint64_t value, const char *fmt_prefix,
                       const mdl_session *s)
{
    mdl_session_fault(fault, code, kind, "document \"%s\": %s %" PRIu64 " exceeds %s (%" PRIu64 ")",
                      s->name, fmt_prefix, value, field, limit);
    anim_json_writer w;
    anim_json_writer_init(&w, &fault->data, false);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "limit");
    anim_json_writer_string(&w, field);
    anim_json_writer_key_uint(&w, "max", limit);
    anim_json_writer_key_uint(&w, "value", value);
    anim_json_writer_end_object(&w);
    return -1;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Checks the params and the request id; 1 when the reply is a replay
 * already written, 0 to go on, -1 refused. */
static int apply_admit_request(mdl_session *s, const anim_json_value *params, size_t params_bytes,
                               anim_model_head *expected, uint8_t digest[32],
                               anim_strbuf *reply, anim_model_fault *fault)
{
    static const char *const allowed[] = {"document", "request_id", "expected", "operations",
                                          "async", NULL};
    if (!params)
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "model.apply: missing params");
    if (mdl_params_check(params, "model.apply", allowed, fault) != 0)
        return -1;
    if (params_bytes > s->limits.max_transaction_bytes)
        return limit_fault(fault, ANIM_MODEL_E_LIMIT, "limit_exceeded", "max_transaction_bytes",
                           s->limits.max_transaction_bytes, params_bytes, "params of",
                           s);
    const anim_json_value *id = anim_json_get(params, "request_id");
    const anim_json_value *ops = anim_json_get(params, "operations");
    const anim_json_value *async = anim_json_get(params, "async");
    if (check_request_id(id, fault) != 0)
        return -1;
    if (mdl_head_parse(anim_json_get(params, "expected"), "expected", expected, fault) != 0)
        return -1;
    if (!ops || ops->type != ANIM_JSON_ARRAY)
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "operations: expected an array of operation objects");
    if (async && async->type != ANIM_JSON_TRUE && async->type != ANIM_JSON_FALSE)
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "async: expected a boolean");
    bool oom = false;
    payload_digest(anim_json_get(params, "expected"), ops, digest, &oom);
    if (oom)
        return nomem(fault, s);

    const char *idp = anim_json_string(id);
    size_t idn = anim_json_string_len(id);
    const mdl_receipt *rc = mdl_receipts_find(&s->receipts, idp, idn);
    if (rc) {
        if (memcmp(rc->digest, digest, 32) == 0)
            return write_replay(s, rc, reply, fault) == 0 ? 1 : -1;
        return mdl_session_fault(fault, ANIM_MODEL_E_CONFLICT, "request_id_conflict",
                                 "document \"%s\": request_id \"%.*s\" was used with another "
                                 "payload", s->name, (int)idn, idp);
    }
    if (mdl_ledger_has(&s->receipts, idp, idn))
        return mdl_session_fault(fault, ANIM_MODEL_E_CONFLICT, "request_id_reused",
                                 "document \"%s\": request_id \"%.*s\" was already used and its "
                                 "receipt has been evicted", s->name, (int)idn, idp);
    if (s->receipts.ledger_count >= s->limits.max_request_ids)
        return mdl_session_fault(fault, ANIM_MODEL_E_LIMIT, "request_id_ledger_exhausted",
                                 "document \"%s\": the request-id ledger holds max_request_ids "
                                 "(%" PRIu32 ") ids; no new request id is admitted",
                                 s->name, s->limits.max_request_ids);
    return 0;
}

static int checkpoint_required(const mdl_session *s, anim_model_fault *fault, const char *why,
                               const char *field, uint64_t limit, uint64_t value)
{
    mdl_session_fault(fault, ANIM_MODEL_E_LIMIT, "checkpoint_required",
                      "document \"%s\": %s %" PRIu64 " would exceed %s (%" PRIu64
                      "); call model.history with action checkpoint first",
                      s->name, why, value, field, limit);
    anim_json_writer w;
    anim_json_writer_init(&w, &fault->data, false);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "limit");
    anim_json_writer_string(&w, field);
    anim_json_writer_key_uint(&w, "max", limit);
    anim_json_writer_key_uint(&w, "value", value);
    anim_json_writer_end_object(&w);
    return -1;
}

int mdl_session_apply(mdl_session *s, const anim_json_value *params, size_t params_bytes,
                      const volatile int *cancel, anim_strbuf *reply, anim_model_fault *fault)
{
    anim_model_head expected;
    uint8_t digest[32];
    int admitted = apply_admit_request(s, params, params_bytes, &expected, digest, reply, fault);
    if (admitted != 0)
        return admitted > 0 ? 0 : -1;
    if (mdl_session_check_head(s, &expected, fault) != 0)
        return -1;
    if (s->head.generation == UINT64_MAX)
        return mdl_session_fault(fault, ANIM_MODEL_E_LIMIT, "limit_exceeded",
                                 "document \"%s\": generation cannot advance", s->name);
    if (s->cursor >= s->limits.max_undo_batches)
        return checkpoint_required(s, fault, "retained batches", "max_undo_batches",
                                   s->limits.max_undo_batches, (uint64_t)s->cursor + 1);

    const anim_json_value *ops = anim_json_get(params, "operations");
    mdl_batch b;
    memset(&b, 0, sizeof b);
    if (mdl_batch_run(s->current, ops, &s->limits, s->limits.max_work_units, cancel, &b, fault) !=
        0)
        return -1;

    int rc = -1;
    anim_strbuf tmp = ANIM_STRBUF_INIT;
    anim_strbuf ops_text = ANIM_STRBUF_INIT;
    anim_model_head committed;
    uint64_t bytes = 0;
    if (mdl_canon_hash(b.doc, committed.content, &bytes) != 0) {
        nomem(fault, s);
        goto out;
    }
    committed.generation = s->head.generation + 1;
    /* Everything undo or redo would have to replay, measured: decoding the
     * checkpoint, every batch kept before this one, this one, and encoding
     * the result. */
    uint64_t replay = sat_add(sat_add(s->checkpoint_bytes, mdl_session_retained_work(s, s->cursor)),
                              sat_add(b.work, bytes));
    if (replay > s->limits.max_work_units) {
        checkpoint_required(s, fault, "replay work", "max_work_units", s->limits.max_work_units,
                            replay);
        goto out;
    }
    if (bytes > s->limits.max_source_bytes) {
        limit_fault(fault, ANIM_MODEL_E_LIMIT, "limit_exceeded", "max_source_bytes",
                    s->limits.max_source_bytes, bytes, "canonical size", s);
        goto out;
    }
    if (cancel && *cancel) {
        mdl_session_fault(fault, ANIM_MODEL_E_REFUSED, "cancelled",
                          "document \"%s\": model.apply cancelled before publication", s->name);
        goto out;
    }

    anim_json_writer w;
    reply_prefix(&w, &tmp, s, &committed, &committed, false);
    size_t mark = tmp.len;
    /* Room for the prefix, the closing brace and a replay's current head,
     * whose generation may have up to 19 more digits than committed's. */
    size_t used = mark + 1 + 19;
    size_t budget = s->limits.max_reply_bytes > used ? s->limits.max_reply_bytes - used : 0;
    mdl_batch_write_results(&b, &s->limits, budget, &w);
    size_t members_end = tmp.len;
    anim_json_writer_end_object(&w);
    mdl_json_compact(ops, &ops_text);
    if (tmp.failed || ops_text.failed || !anim_json_writer_ok(&w) ||
        !anim_grow((void **)&s->batches, &s->batch_cap, s->cursor + 1, sizeof *s->batches)) {
        nomem(fault, s);
        goto out;
    }
    const anim_json_value *id = anim_json_get(params, "request_id");
    if (mdl_receipts_add(&s->receipts, anim_json_string(id), anim_json_string_len(id), digest,
                         &committed, tmp.data + mark, members_end - mark, &s->limits) != 0) {
        nomem(fault, s);
        goto out;
    }
    anim_strbuf_append(reply, tmp.data, tmp.len);

    /* Publication: nothing below can fail or be cancelled. */
    mdl_session_drop_batches(s, s->cursor);
    mdl_retained *r = &s->batches[s->cursor];
    r->ops = ops_text.data;
    r->ops_len = ops_text.len;
    r->work = b.work;
    memcpy(r->content, committed.content, sizeof r->content);
    ops_text = (anim_strbuf)ANIM_STRBUF_INIT;
    s->cursor++;
    s->batch_count = s->cursor;
    mdl_doc_free(s->current);
    s->current = b.doc;
    b.doc = NULL;
    s->head = committed;
    s->current_bytes = bytes;
    rc = 0;
out:
    anim_strbuf_free(&tmp);
    anim_strbuf_free(&ops_text);
    mdl_batch_free(&b);
    return rc;
}
