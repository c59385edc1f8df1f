/* Receipts and the request-id ledger of one open document, plus the
 * compact JSON re-serialization they are keyed by.
 *
 * A receipt lets a client retry a request whose reply it lost: the same
 * id and payload give back the original result. Receipts are bounded
 * (count and bytes, oldest evicted first), so the ledger remembers every
 * id ever consumed: an id whose receipt is gone is refused instead of
 * being applied a second time, and a full ledger refuses new ids instead
 * of forgetting old ones. */
#include "model/mdl_receipts.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/json_write.h"
#include "animsmith/numfmt.h"
#include "core/grow.h"

void mdl_json_compact(const anim_json_value *v, anim_strbuf *out)
{
    switch ((anim_json_type)v->type) {
    case ANIM_JSON_NULL:
        anim_strbuf_append(out, "null", 4);
        return;
    case ANIM_JSON_FALSE:
        anim_strbuf_append(out, "false", 5);
        return;
    case ANIM_JSON_TRUE:
        anim_strbuf_append(out, "true", 4);
        return;
    case ANIM_JSON_NUMBER:
        if (anim_json_is_integer(v)) {
            if (v->flags & ANIM_JSON_F_NEG_ZERO)
                anim_strbuf_append(out, "-0", 2);
            else
                anim_strbuf_printf(out, "%" PRId64, v->u.integer);
        } else {
            anim_strbuf_put_f64_json(out, anim_json_number(v));
        }
        return;
    case ANIM_JSON_STRING:
        anim_json_escape_string(out, anim_json_string(v), anim_json_string_len(v));
        return;
    case ANIM_JSON_ARRAY:
        anim_strbuf_putc(out, '[');
        for (size_t i = 0; i < anim_json_count(v); i++) {
            if (i)
                anim_strbuf_putc(out, ',');
            mdl_json_compact(anim_json_item(v, i), out);
        }
        anim_strbuf_putc(out, ']');
        return;
    case ANIM_JSON_OBJECT:
        anim_strbuf_putc(out, '{');
        for (size_t i = 0; i < anim_json_count(v); i++) {
            const anim_json_member *m = anim_json_member_at(v, i);
            if (i)
                anim_strbuf_putc(out, ',');
            anim_json_escape_string(out, m->key, anim_json_key_len(m));
            anim_strbuf_putc(out, ':');
            mdl_json_compact(&m->value, out);
        }
        anim_strbuf_putc(out, '}');
        return;
    }
}

static void receipt_free(mdl_receipt *r)
{
    free(r->request_id);
    free(r->members);
}

void mdl_receipts_free(mdl_receipts *r)
{
    for (size_t i = 0; i < r->count; i++)
        receipt_free(&r->items[i]);
    free(r->items);
    for (size_t i = 0; i < r->ledger_count; i++)
        free(r->ledger[i]);
    free(r->ledger);
    memset(r, 0, sizeof *r);
}

static bool id_eq(const char *a, const char *b, size_t len)
{
    return strlen(a) == len && memcmp(a, b, len) == 0;
}

const mdl_receipt *mdl_receipts_find(const mdl_receipts *r, const char *id, size_t len)
{
    for (size_t i = 0; i < r->count; i++)
        if (id_eq(r->items[i].request_id, id, len))
            return &r->items[i];
    return NULL;
}

/* Byte-wise order of a NUL-terminated id against (id, len). */
static int id_cmp(const char *a, const char *b, size_t len)
{
    size_t al = strlen(a);
    int c = memcmp(a, b, al < len ? al : len);
    if (c)
        return c;
    return al < len ? -1 : al > len ? 1 : 0;
}

/* The ledger position of id: where it is, or where it would go. */
static size_t ledger_lower(const mdl_receipts *r, const char *id, size_t len)
{
    size_t lo = 0, hi = r->ledger_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (id_cmp(r->ledger[mid], id, len) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

bool mdl_ledger_has(const mdl_receipts *r, const char *id, size_t len)
{
    size_t at = ledger_lower(r, id, len);
    return at < r->ledger_count && id_cmp(r->ledger[at], id, len) == 0;
}

static char *dup_n(const char *s, size_t len)
{
    char *p = malloc(len + 1);
    if (p) {
        memcpy(p, s, len);
        p[len] = '\0';
    }
    return p;
}

static void evict_oldest(mdl_receipts *r)
{
    r->bytes -= r->items[0].bytes;
    receipt_free(&r->items[0]);
    memmove(r->items, r->items + 1, (r->count - 1) * sizeof *r->items);
    r->count--;
}

int mdl_receipts_add(mdl_receipts *r, const char *id, size_t id_len, const uint8_t digest[32],
                     const anim_model_head *committed, const char *members, size_t members_len,
                     const anim_model_limits *limits)
{
    bool in_ledger = mdl_ledger_has(r, id, id_len);
    if (!anim_grow((void **)&r->items, &r->cap, r->count + 1, sizeof *r->items))
        return -1;
    if (!in_ledger &&
        !anim_grow((void **)&r->ledger, &r->ledger_cap, r->ledger_count + 1, sizeof *r->ledger))
        return -1;
    mdl_receipt rc;
    memset(&rc, 0, sizeof rc);
    rc.request_id = dup_n(id, id_len);
    rc.members = dup_n(members, members_len);
    char *ledger_id = in_ledger ? NULL : dup_n(id, id_len);
    if (!rc.request_id || !rc.members || (!in_ledger && !ledger_id)) {
        receipt_free(&rc);
        free(ledger_id);
        return -1;
    }
    memcpy(rc.digest, digest, 32);
    rc.committed = *committed;
    rc.members_len = members_len;
    /* The stored text plus the id and a fixed overhead for digest and head:
     * roughly what the receipt costs to keep and to persist. */
    rc.bytes = (uint64_t)id_len + members_len + 32 + sizeof(anim_model_head);
    if (!in_ledger) {
        size_t at = ledger_lower(r, id, id_len);
        memmove(r->ledger + at + 1, r->ledger + at, (r->ledger_count - at) * sizeof *r->ledger);
        r->ledger[at] = ledger_id;
        r->ledger_count++;
    }
    /* A receipt over the byte bound by itself is evicted at once, without
     * pushing the older ones out: its id stays consumed in the ledger. */
    if (rc.bytes > limits->max_receipt_bytes) {
        receipt_free(&rc);
    } else {
        r->items[r->count++] = rc;
        r->bytes += rc.bytes;
    }
    while (r->count > 0 && (r->count > limits->max_receipts || r->bytes > limits->max_receipt_bytes))
        evict_oldest(r);
    return 0;
}

int mdl_session_fault(anim_model_fault *f, int code, const char *kind, const char *fmt, ...)
{
    f->code = code;
    snprintf(f->kind, sizeof f->kind, "%s", kind);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->message, sizeof f->message, fmt, ap);
    va_end(ap);
    anim_strbuf_reset(&f->data);
    return -1;
}

int mdl_params_check(const anim_json_value *params, const char *method,
                     const char *const *allowed, anim_model_fault *fault)
{
    if (!params)
        return 0;
    if (params->type != ANIM_JSON_OBJECT)
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "%s: params must be an object", method);
    for (size_t i = 0; i < anim_json_count(params); i++) {
        const anim_json_member *m = anim_json_member_at(params, i);
        size_t klen = anim_json_key_len(m);
        bool known = false;
        for (size_t k = 0; allowed[k] && !known; k++)
            known = id_eq(allowed[k], m->key, klen);
        if (!known) {
            anim_strbuf key = ANIM_STRBUF_INIT;
            anim_json_escape_string(&key, m->key, klen < 128 ? klen : 128);
            mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                              "%s: unknown param %s", method, key.data ? key.data : "\"\"");
            anim_strbuf_free(&key);
            return -1;
        }
    }
    return 0;
}
