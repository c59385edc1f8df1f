/* The asset-store methods on the worker: model.publish (compile, verify,
 * commit source and GLB as one revision), model.revisions, and model.open
 * of an alias's stored source.
 *
 * Publication order: the expected document head is checked first, then
 * the document is compiled and verified exactly as model.compile does
 * (cancellation is honoured up to here), then the store commits, comparing
 * the expected alias head inside its transaction. From the moment the
 * commit begins cancellation is ignored, so an accepted cancel never
 * leaves a committed revision reported as cancelled: the job completes and
 * its result stays queryable. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/json_write.h"
#include "model/mdl_compile.h"
#include "model/mdl_receipts.h"
#include "model/mdl_session.h"
#include "model/mdl_store.h"

static int nomem(anim_model_fault *fault)
{
    return mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "out_of_memory", "out of memory");
}

static mdl_store *need_store(anim_model_host *host, const char *method, anim_model_fault *fault)
{
    mdl_store *st = mdl_host_store(host);
    if (!st)
        mdl_session_fault(fault, ANIM_MODEL_E_REFUSED, "no_store",
                          "%s: this host has no asset store (start the server with --store PATH)",
                          method);
    return st;
}

/* An alias: 1..128 bytes of [A-Za-z0-9._/-]. */
static int alias_param(const anim_json_value *v, const char *method, char out[MDL_ALIAS_MAX + 1],
                       anim_model_fault *fault)
{
    bool ok = v && v->type == ANIM_JSON_STRING && v->len >= 1 && v->len <= MDL_ALIAS_MAX;
    for (size_t i = 0; ok && i < v->len; i++) {
        char c = anim_json_string(v)[i];
        ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
             c == '.' || c == '_' || c == '-' || c == '/';
    }
    if (!ok)
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "%s: alias: expected a name of 1..128 bytes of [A-Za-z0-9._/-]",
                                 method);
    memcpy(out, anim_json_string(v), v->len);
    out[v->len] = '\0';
    return 0;
}

static void write_u64_string(anim_json_writer *w, const char *key, uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    anim_json_writer_key(w, key);
    anim_json_writer_string(w, buf);
}

static void write_revision(anim_json_writer *w, const mdl_revision *r)
{
    write_u64_string(w, "asset", r->asset);
    anim_json_writer_key(w, "kind");
    anim_json_writer_string(w, r->kind);
    write_u64_string(w, "revision", r->revision);
    write_u64_string(w, "alias_head", r->alias_head);
    anim_json_writer_key(w, "source_sha256");
    anim_json_writer_string(w, r->source_sha256);
    anim_json_writer_key(w, "glb_sha256");
    anim_json_writer_string(w, r->glb_sha256);
}

/* expected_alias: a decimal head string, or null for "must not exist". */
static int expected_alias(const anim_json_value *v, mdl_publication *p, anim_model_fault *fault)
{
    if (v && v->type == ANIM_JSON_NULL) {
        p->expect_absent = true;
        return 0;
    }
    bool ok = v && v->type == ANIM_JSON_STRING && v->len >= 1 && v->len <= 20 &&
              (anim_json_string(v)[0] != '0' || v->len == 1);
    uint64_t n = 0;
    for (size_t i = 0; ok && i < v->len; i++) {
        char c = anim_json_string(v)[i];
        ok = c >= '0' && c <= '9' && n <= (UINT64_MAX - (uint64_t)(c - '0')) / 10;
        n = n * 10 + (uint64_t)(c - '0');
    }
    if (!ok)
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "model.publish: expected_alias: expected the alias head as a "
                                 "decimal string, or null when the alias must not exist yet");
    p->expected_head = n;
    return 0;
}

int mdl_rpc_publish(anim_model_host *host, const anim_json_value *params,
                    const volatile int *cancel, anim_strbuf *result, anim_model_fault *fault)
{
    static const char *const allowed[] = {"document", "expected", "alias", "expected_alias",
                                          NULL};
    const char *method = "model.publish";
    if (mdl_params_check(params, method, allowed, fault) != 0)
        return -1;
    mdl_store *st = need_store(host, method, fault);
    if (!st)
        return -1;
    const anim_json_value *d = params ? anim_json_get(params, "document") : NULL;
    mdl_session *s = d && d->type == ANIM_JSON_STRING
                         ? mdl_host_find(host, anim_json_string(d), d->len)
                         : NULL;
    if (!s)
        return mdl_session_fault(fault, ANIM_MODEL_E_REFUSED, "unknown_document",
                                 "%s: document: expected the name of an open document", method);
    char alias[MDL_ALIAS_MAX + 1];
    anim_model_head expected;
    mdl_publication p;
    memset(&p, 0, sizeof p);
    if (alias_param(anim_json_get(params, "alias"), method, alias, fault) != 0)
        return -1;
    if (!anim_json_get(params, "expected_alias"))
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "%s: expected_alias is required: the alias head, or null when "
                                 "the alias must not exist yet", method);
    if (expected_alias(anim_json_get(params, "expected_alias"), &p, fault) != 0 ||
        mdl_head_parse(anim_json_get(params, "expected"), "expected", &expected, fault) != 0 ||
        mdl_session_check_head(s, &expected, fault) != 0)
        return -1;

    anim_strbuf glb = ANIM_STRBUF_INIT, source = ANIM_STRBUF_INIT, saved = ANIM_STRBUF_INIT;
    mdl_compile_info info;
    int rc = -1;
    if (mdl_rpc_compile_checked(host, s, false, cancel, &glb, &info, fault) != 0)
        goto out;
    if (mdl_session_to_snapshot_bytes(s, &source) != 0 || source.failed ||
        mdl_session_to_bytes(s, &saved) != 0 || saved.failed) {
        nomem(fault);
        goto out;
    }
    if (cancel && *cancel) {
        mdl_session_fault(fault, ANIM_MODEL_E_REFUSED, "cancelled",
                          "%s: document \"%s\": cancelled before the commit began", method,
                          mdl_session_name(s));
        goto out;
    }
    /* The commit begins: cancellation no longer applies. */
    p.alias = alias;
    p.kind = info.skinned ? "Character" : "Prop";
    p.document = mdl_session_name(s);
    p.saved = saved.data;
    p.saved_len = saved.len;
    p.source = source.data;
    p.source_len = source.len;
    p.glb = glb.data;
    p.glb_len = glb.len;
    p.ledger = s->receipts.ledger;
    p.ledger_count = s->receipts.ledger_count;
    mdl_revision rev;
    if (st->ops->publish(st, &p, &rev, fault) != 0)
        goto out;
    anim_json_writer w;
    anim_json_writer_init(&w, result, false);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "document");
    anim_json_writer_string(&w, mdl_session_name(s));
    anim_json_writer_key(&w, "head");
    mdl_head_write(&w, &expected);
    anim_json_writer_key(&w, "alias");
    anim_json_writer_string(&w, alias);
    write_revision(&w, &rev);
    anim_json_writer_end_object(&w);
    rc = result->failed ? nomem(fault) : 0;
out:
    anim_strbuf_free(&glb);
    anim_strbuf_free(&source);
    anim_strbuf_free(&saved);
    return rc;
}

int mdl_rpc_revisions(anim_model_host *host, const anim_json_value *params, anim_strbuf *result,
                      anim_model_fault *fault)
{
    static const char *const allowed[] = {"alias", NULL};
    const char *method = "model.revisions";
    char alias[MDL_ALIAS_MAX + 1];
    if (mdl_params_check(params, method, allowed, fault) != 0 ||
        alias_param(params ? anim_json_get(params, "alias") : NULL, method, alias, fault) != 0)
        return -1;
    mdl_store *st = need_store(host, method, fault);
    if (!st)
        return -1;
    mdl_revision *revs = NULL;
    size_t n = 0;
    if (st->ops->revisions(st, alias, &revs, &n, fault) != 0)
        return -1;
    anim_json_writer w;
    anim_json_writer_init(&w, result, false);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "alias");
    anim_json_writer_string(&w, alias);
    write_u64_string(&w, "alias_head", revs[n - 1].revision);
    anim_json_writer_key(&w, "revisions");
    anim_json_writer_begin_array(&w);
    for (size_t i = 0; i < n; i++) {
        anim_json_writer_begin_object(&w);
        write_revision(&w, &revs[i]);
        anim_json_writer_end_object(&w);
    }
    anim_json_writer_end_array(&w);
    anim_json_writer_end_object(&w);
    free(revs);
    return result->failed ? nomem(fault) : 0;
}

int mdl_rpc_open_alias(anim_model_host *host, const char *document, const anim_json_value *alias_v,
                       anim_strbuf *result, anim_model_fault *fault)
{
    const char *method = "model.open";
    char alias[MDL_ALIAS_MAX + 1];
    if (alias_param(alias_v, method, alias, fault) != 0)
        return -1;
    mdl_store *st = need_store(host, method, fault);
    if (!st)
        return -1;
    anim_strbuf source = ANIM_STRBUF_INIT;
    mdl_revision rev;
    if (st->ops->head_source(st, alias, &source, &rev, fault) != 0) {
        anim_strbuf_free(&source);
        return -1;
    }
    mdl_session *s = mdl_session_from_snapshot(document, mdl_host_limits(host), source.data,
                                               source.len, fault);
    anim_strbuf_free(&source);
    if (!s)
        return -1;
    /* Request ids this document name consumed before stay consumed. */
    char **ids = NULL;
    size_t n = 0;
    if (st->ops->ledger(st, document, &ids, &n, fault) != 0) {
        mdl_session_free(s);
        return -1;
    }
    if (n > s->limits.max_request_ids) {
        for (size_t i = 0; i < n; i++)
            free(ids[i]);
        free(ids);
        mdl_session_free(s);
        return mdl_session_fault(fault, ANIM_MODEL_E_LIMIT, "request_id_ledger_exhausted",
                                 "%s: document \"%s\": the stored request-id ledger holds %zu ids, "
                                 "more than max_request_ids", method, document, n);
    }
    s->receipts.ledger = ids;
    s->receipts.ledger_count = s->receipts.ledger_cap = n;
    anim_model_head head;
    mdl_session_head(s, &head);
    if (mdl_host_add(host, s) != 0)
        return nomem(fault);
    anim_json_writer w;
    anim_json_writer_init(&w, result, false);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "document");
    anim_json_writer_string(&w, document);
    anim_json_writer_key(&w, "head");
    mdl_head_write(&w, &head);
    anim_json_writer_key(&w, "alias");
    anim_json_writer_string(&w, alias);
    write_revision(&w, &rev);
    anim_json_writer_end_object(&w);
    return result->failed ? nomem(fault) : 0;
}
