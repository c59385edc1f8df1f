/* Saving and reopening an open document (to_bytes / from_bytes) and its
 * current state alone (the snapshot), layout in docs/model-format.md.
 *
 * The saved bytes hold the checkpoint's canonical encoding, the retained
 * batches as compact operations text with the content hash each produced,
 * the cursor, the receipts and the request-id ledger. Nothing derived is
 * stored: reopening decodes the checkpoint, replays every retained batch
 * (the redo tail too) through the same batch code model.apply used,
 * checks each content hash, and measures the replay work itself, so a
 * hostile file can neither smuggle in a document no batch produced nor
 * claim a cheap replay. The whole reopened state is then encoded again
 * and must give back the input exactly. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/json.h"
#include "core/grow.h"
#include "model/mdl_canon.h"
#include "model/mdl_decode.h"
#include "model/mdl_receipts.h"
#include "model/mdl_session.h"

#define SAVE_MAGIC "AMDS"
#define SAVE_VERSION 1u
#define REQUEST_ID_MAX 128

/* ---- writing */

static void put_le(anim_strbuf *o, uint64_t v, int bytes)
{
    unsigned char b[8];
    for (int i = 0; i < bytes; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    anim_strbuf_append(o, b, (size_t)bytes);
}

static void put_blob(anim_strbuf *o, const void *p, size_t n, int len_bytes)
{
    put_le(o, n, len_bytes);
    anim_strbuf_append(o, p, n);
}

/* 64 lowercase hex digits as 32 raw bytes. */
static void put_hash(anim_strbuf *o, const char hex[65])
{
    unsigned char b[32];
    for (int i = 0; i < 32; i++) {
        unsigned v = 0;
        sscanf(hex + 2 * i, "%2x", &v);
        b[i] = (unsigned char)v;
    }
    anim_strbuf_append(o, b, 32);
}

int mdl_session_to_bytes(const mdl_session *s, anim_strbuf *out)
{
    anim_strbuf cp = ANIM_STRBUF_INIT;
    if (mdl_canon_encode(s->checkpoint, &cp) != 0) {
        anim_strbuf_free(&cp);
        return -1;
    }
    anim_strbuf_append(out, SAVE_MAGIC, 4);
    put_le(out, SAVE_VERSION, 4);
    put_le(out, s->head.generation, 8);
    put_blob(out, cp.data, cp.len, 8);
    anim_strbuf_free(&cp);
    put_le(out, s->batch_count, 4);
    put_le(out, s->cursor, 4);
    for (size_t i = 0; i < s->batch_count; i++) {
        put_blob(out, s->batches[i].ops, s->batches[i].ops_len, 8);
        put_hash(out, s->batches[i].content);
    }
    const mdl_receipts *r = &s->receipts;
    put_le(out, r->count, 4);
    for (size_t i = 0; i < r->count; i++) {
        const mdl_receipt *rc = &r->items[i];
        put_blob(out, rc->request_id, strlen(rc->request_id), 4);
        anim_strbuf_append(out, rc->digest, 32);
        put_le(out, rc->committed.generation, 8);
        put_hash(out, rc->committed.content);
        put_blob(out, rc->members, rc->members_len, 8);
    }
    put_le(out, r->ledger_count, 4);
    for (size_t i = 0; i < r->ledger_count; i++)
        put_blob(out, r->ledger[i], strlen(r->ledger[i]), 4);
    return out->failed ? -1 : 0;
}

int mdl_session_to_snapshot_bytes(const mdl_session *s, anim_strbuf *out)
{
    return mdl_canon_encode(s->current, out);
}

/* ---- reading */

typedef struct reader {
    const uint8_t *p;
    size_t len, pos;
    bool failed;
    anim_model_fault *fault;
    const char *name;
} reader;

static bool fail(reader *r, const char *fmt, ...)
{
    if (r->failed)
        return false;
    r->failed = true;
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mdl_session_fault(r->fault, ANIM_MODEL_E_REFUSED, "invalid_source",
                      "document \"%s\": saved bytes, at byte %zu: %s", r->name, r->pos, msg);
    return false;
}

static uint64_t get_le(reader *r, int bytes)
{
    if (r->failed)
        return 0;
    if (r->len - r->pos < (size_t)bytes) {
        fail(r, "truncated");
        return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)r->p[r->pos + (size_t)i] << (8 * i);
    r->pos += (size_t)bytes;
    return v;
}

/* A length-prefixed blob of at most max bytes, pointing into the input. */
static const uint8_t *get_blob(reader *r, int len_bytes, uint64_t max, size_t *n, const char *what)
{
    *n = 0;
    uint64_t len = get_le(r, len_bytes);
    if (r->failed)
        return NULL;
    if (len > max || len > r->len - r->pos) {
        fail(r, "%s: a length of %" PRIu64 " bytes is out of range", what, len);
        return NULL;
    }
    const uint8_t *p = r->p + r->pos;
    r->pos += (size_t)len;
    *n = (size_t)len;
    return p;
}

static void get_hash(reader *r, char hex[65])
{
    if (r->failed || r->len - r->pos < 32) {
        fail(r, "truncated hash");
        hex[0] = '\0';
        return;
    }
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", r->p[r->pos + (size_t)i]);
    r->pos += 32;
}

static char *dup_n(const uint8_t *p, size_t n)
{
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, p, n);
        s[n] = '\0';
    }
    return s;
}

static bool valid_request_id(const uint8_t *p, size_t n)
{
    if (n < 1 || n > REQUEST_ID_MAX || memchr(p, 0, n))
        return false;
    return true;
}

/* Whether text is exactly the compact form of the JSON it holds. */
static bool compact_json(const char *text, size_t n)
{
    anim_arena *arena = anim_arena_new();
    if (!arena)
        return false;
    anim_error err;
    anim_error_clear(&err);
    const anim_json_value *v = anim_json_parse(arena, text, n, NULL, &err);
    bool ok = v && v->type == ANIM_JSON_ARRAY;
    if (ok) {
        anim_strbuf again = ANIM_STRBUF_INIT;
        mdl_json_compact(v, &again);
        ok = !again.failed && again.len == n && memcmp(again.data, text, n) == 0;
        anim_strbuf_free(&again);
    }
    anim_arena_free(arena);
    return ok;
}

/* Retained batches: the text must be the compact form, as apply keeps it. */
static void get_batches(reader *r, mdl_session *s, size_t count)
{
    s->batches = calloc(count ? count : 1, sizeof *s->batches);
    s->batch_cap = count;
    if (!s->batches) {
        fail(r, "out of memory");
        return;
    }
    for (size_t i = 0; i < count && !r->failed; i++) {
        size_t n;
        const uint8_t *ops = get_blob(r, 8, s->limits.max_transaction_bytes, &n, "retained batch");
        if (r->failed)
            break;
        mdl_retained *b = &s->batches[i];
        b->ops = dup_n(ops, n);
        b->ops_len = n;
        s->batch_count = i + 1;
        get_hash(r, b->content);
        if (!b->ops) {
            fail(r, "out of memory");
            break;
        }
        if (!compact_json(b->ops, n))
            fail(r, "retained batch %zu is not compact JSON operations text", i);
    }
}

static void get_receipts(reader *r, mdl_session *s)
{
    mdl_receipts *rs = &s->receipts;
    size_t count = (size_t)get_le(r, 4);
    if (!r->failed && count > s->limits.max_receipts)
        fail(r, "%zu receipts, more than max_receipts (%" PRIu32 ")", count, s->limits.max_receipts);
    for (size_t i = 0; i < count && !r->failed; i++) {
        size_t idn, mn;
        const uint8_t *id = get_blob(r, 4, REQUEST_ID_MAX, &idn, "request id");
        const uint8_t *digest = NULL;
        if (!r->failed && r->len - r->pos >= 32) {
            digest = r->p + r->pos;
            r->pos += 32;
        } else {
            fail(r, "truncated digest");
        }
        anim_model_head committed;
        committed.generation = get_le(r, 8);
        get_hash(r, committed.content);
        const uint8_t *members = get_blob(r, 8, s->limits.max_receipt_bytes, &mn, "receipt");
        if (r->failed)
            break;
        if (!valid_request_id(id, idn) || mdl_receipts_find(rs, (const char *)id, idn)) {
            fail(r, "receipt %zu: request id invalid or repeated", i);
            break;
        }
        char *m = dup_n(members, mn);
        if (!m) {
            fail(r, "out of memory");
            break;
        }
        /* The ledger is read afterwards; add() records ids as it goes, and
         * the ledger read below must then agree with it exactly. */
        int rc = mdl_receipts_add(rs, (const char *)id, idn, digest, &committed, m, mn, &s->limits);
        free(m);
        if (rc != 0)
            fail(r, "out of memory");
        else if (rs->count != i + 1)
            fail(r, "receipt %zu would be evicted at once: the receipts exceed their bounds", i);
    }
}

static void get_ledger(reader *r, mdl_session *s)
{
    mdl_receipts *rs = &s->receipts;
    size_t count = (size_t)get_le(r, 4);
    if (!r->failed && count > s->limits.max_request_ids)
        fail(r, "%zu request ids, more than max_request_ids (%" PRIu32 ")", count,
             s->limits.max_request_ids);
    if (!r->failed && count > (r->len - r->pos) / 5)
        fail(r, "%zu request ids do not fit", count);
    if (r->failed)
        return;
    char **ids = calloc(count ? count : 1, sizeof *ids);
    if (!ids) {
        fail(r, "out of memory");
        return;
    }
    size_t got = 0;
    for (; got < count && !r->failed; got++) {
        size_t n;
        const uint8_t *id = get_blob(r, 4, REQUEST_ID_MAX, &n, "ledger id");
        if (r->failed)
            break;
        ids[got] = dup_n(id, n);
        if (!ids[got] || !valid_request_id(id, n) ||
            (got && strcmp(ids[got - 1], ids[got]) >= 0))
            fail(r, "ledger id %zu invalid or out of order", got);
    }
    /* Every receipt id is in the ledger already (add put it there); the
     * stored ledger must contain them and be sorted, and it replaces the
     * one built while reading receipts. */
    for (size_t i = 0; i < rs->count && !r->failed; i++) {
        bool found = false;
        for (size_t k = 0; k < got && !found; k++)
            found = strcmp(ids[k], rs->items[i].request_id) == 0;
        if (!found)
            fail(r, "receipt \"%s\" is missing from the ledger", rs->items[i].request_id);
    }
    for (size_t i = 0; i < rs->ledger_count; i++)
        free(rs->ledger[i]);
    free(rs->ledger);
    rs->ledger = ids;
    rs->ledger_count = got;
    rs->ledger_cap = count ? count : 1;
}

/* Replays every retained batch from the checkpoint, checking each content
 * hash and the aggregate replay work; the version at the cursor becomes
 * current. */
static int replay_all(mdl_session *s, const volatile int *cancel, anim_model_fault *fault)
{
    uint64_t total = s->checkpoint_bytes;
    mdl_doc *doc = mdl_doc_share(s->checkpoint);
    if (!doc)
        return mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "out_of_memory", "out of memory");
    char content[65];
    memcpy(content, s->checkpoint_content, sizeof content);
    uint64_t bytes = s->checkpoint_bytes;
    for (size_t i = 0; i < s->batch_count; i++) {
        uint64_t work = 0;
        if (mdl_session_replay_one(s, i, &doc, cancel, &work, fault) != 0) {
            mdl_doc_free(doc);
            return -1;
        }
        s->batches[i].work = work;
        total = total + work < total ? UINT64_MAX : total + work;
        if (total > s->limits.max_work_units) {
            mdl_doc_free(doc);
            return mdl_session_fault(fault, ANIM_MODEL_E_LIMIT, "work_limit_exceeded",
                                     "document \"%s\": replaying the saved history needs more "
                                     "than max_work_units (%" PRIu64 ")",
                                     s->name, s->limits.max_work_units);
        }
        if (mdl_canon_hash(doc, content, &bytes) != 0) {
            mdl_doc_free(doc);
            return mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "out_of_memory",
                                     "out of memory");
        }
        if (memcmp(content, s->batches[i].content, 64) != 0) {
            mdl_doc_free(doc);
            return mdl_session_fault(fault, ANIM_MODEL_E_REFUSED, "invalid_source",
                                     "document \"%s\": saved batch %zu gives content %.16s..., "
                                     "the saved bytes record %.16s...",
                                     s->name, i, content, s->batches[i].content);
        }
        if (i + 1 == s->cursor) {
            mdl_doc_free(s->current);
            s->current = mdl_doc_share(doc);
            memcpy(s->head.content, content, sizeof content);
            s->current_bytes = bytes;
            if (!s->current) {
                mdl_doc_free(doc);
                return mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "out_of_memory",
                                         "out of memory");
            }
        }
    }
    mdl_doc_free(doc);
    return 0;
}

/* A session around a decoded checkpoint version. */
static mdl_session *session_at(const char *name, const anim_model_limits *limits, mdl_doc *doc,
                               anim_model_fault *fault)
{
    mdl_session *s = mdl_session_new(name, limits);
    if (!s) {
        mdl_doc_free(doc);
        mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "out_of_memory", "out of memory");
        return NULL;
    }
    mdl_doc_free(s->checkpoint);
    mdl_doc_free(s->current);
    s->checkpoint = doc;
    s->current = mdl_doc_share(doc);
    if (!s->current || mdl_canon_hash(doc, s->checkpoint_content, &s->checkpoint_bytes) != 0) {
        mdl_session_free(s);
        mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "out_of_memory", "out of memory");
        return NULL;
    }
    memcpy(s->head.content, s->checkpoint_content, sizeof s->head.content);
    s->current_bytes = s->checkpoint_bytes;
    return s;
}

static mdl_doc *decode_source(const char *name, const anim_model_limits *limits, const void *p,
                              size_t n, anim_model_fault *fault)
{
    if (n > limits->max_source_bytes) {
        mdl_session_fault(fault, ANIM_MODEL_E_LIMIT, "limit_exceeded",
                          "document \"%s\": a source of %zu bytes is more than max_source_bytes "
                          "(%" PRIu64 ")", name, n, limits->max_source_bytes);
        return NULL;
    }
    char why[400];
    mdl_doc *d = mdl_decode(p, n, limits->max_work_units, why, sizeof why);
    if (!d)
        mdl_session_fault(fault, ANIM_MODEL_E_REFUSED, "invalid_source",
                          "document \"%s\": source %s", name, why);
    return d;
}

mdl_session *mdl_session_from_snapshot(const char *name, const anim_model_limits *limits,
                                       const void *bytes, size_t len, anim_model_fault *fault)
{
    mdl_doc *d = decode_source(name, limits, bytes, len, fault);
    return d ? session_at(name, limits, d, fault) : NULL;
}

mdl_session *mdl_session_from_bytes(const char *name, const anim_model_limits *limits,
                                    const void *bytes, size_t len, const volatile int *cancel,
                                    anim_model_fault *fault)
{
    reader r = {.p = bytes, .len = len, .fault = fault, .name = name};
    if (len < 8 || memcmp(bytes, SAVE_MAGIC, 4) != 0) {
        fail(&r, "not a saved model document (no AMDS signature)");
        return NULL;
    }
    r.pos = 4;
    uint32_t version = (uint32_t)get_le(&r, 4);
    if (version != SAVE_VERSION) {
        fail(&r, "format version %u is not supported (this build reads %u)", version,
             SAVE_VERSION);
        return NULL;
    }
    uint64_t generation = get_le(&r, 8);
    size_t cpn;
    const uint8_t *cp = get_blob(&r, 8, limits->max_source_bytes, &cpn, "checkpoint");
    if (r.failed)
        return NULL;
    mdl_doc *d = decode_source(name, limits, cp, cpn, fault);
    if (!d)
        return NULL;
    mdl_session *s = session_at(name, limits, d, fault);
    if (!s)
        return NULL;
    size_t count = (size_t)get_le(&r, 4);
    size_t cursor = (size_t)get_le(&r, 4);
    if (!r.failed && (count > limits->max_undo_batches || cursor > count))
        fail(&r, "%zu retained batches (cursor %zu): more than max_undo_batches (%" PRIu32
             ") or a cursor past them", count, cursor, limits->max_undo_batches);
    if (!r.failed && count > (r.len - r.pos) / 40)
        fail(&r, "%zu retained batches do not fit", count);
    if (!r.failed)
        get_batches(&r, s, count);
    s->cursor = cursor;
    if (!r.failed)
        get_receipts(&r, s);
    if (!r.failed)
        get_ledger(&r, s);
    if (!r.failed && r.pos != r.len)
        fail(&r, "%zu bytes follow the end", r.len - r.pos);
    if (!r.failed && replay_all(s, cancel, fault) != 0)
        r.failed = true;
    s->head.generation = generation;
    if (!r.failed && generation < cursor)
        fail(&r, "generation %" PRIu64 " is below the %zu batches it contains", generation,
             cursor);
    if (!r.failed) {
        anim_strbuf again = ANIM_STRBUF_INIT;
        if (mdl_session_to_bytes(s, &again) != 0)
            mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "out_of_memory", "out of memory"),
                r.failed = true;
        else if (again.len != len || memcmp(again.data, bytes, len) != 0)
            fail(&r, "the saved bytes are not in canonical form");
        anim_strbuf_free(&again);
    }
    if (r.failed) {
        mdl_session_free(s);
        return NULL;
    }
    return s;
}
