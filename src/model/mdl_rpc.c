/* anim_model_call: the JSON method dispatch every front end goes through,
 * the methods that run as jobs on the host's worker (open, close, apply,
 * history, inspect, compile), the default limits, faults, and the typed
 * conveniences of model.h, which build params text and read the reply
 * back, so they cannot behave differently from the JSON path. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/atomic_write.h"
#include "animsmith/base64.h"
#include "animsmith/hash.h"
#include "animsmith/json_write.h"
#include "model/mdl_compile.h"
#include "model/mdl_inspect.h"
#include "model/mdl_receipts.h"
#include "model/mdl_selfcheck.h"
#include "model/mdl_session.h"

#define DOCUMENT_NAME_MAX 128
/* Internal method of anim_model_get_head: a job (so it sees the head in
 * queue order) that anim_model_call does not accept by name. */
#define METHOD_HEAD "model.head"

void anim_model_limits_default(anim_model_limits *l)
{
    l->max_documents = 16;
    l->max_objects = 2048;
    l->max_materials = 512;
    l->max_batch_operations = 256;
    l->max_memory_bytes = UINT64_C(2) << 30;
    l->max_work_units = UINT64_C(10000000000);
    l->max_compiled_triangles = 4000000;
    l->max_source_bytes = UINT64_C(256) << 20;
    l->max_transaction_bytes = UINT64_C(64) << 20;
    l->max_undo_batches = 4096;
    l->max_receipts = 128;
    l->max_receipt_bytes = UINT64_C(2) << 20;
    l->max_request_ids = 65536;
    l->max_queued_jobs = 64;
    l->max_reply_bytes = 12 * 1024;
    l->max_selection_ids = 256;
}

void anim_model_fault_init(anim_model_fault *fault)
{
    fault->code = 0;
    fault->kind[0] = '\0';
    fault->message[0] = '\0';
    fault->data = (anim_strbuf)ANIM_STRBUF_INIT;
}

void anim_model_fault_free(anim_model_fault *fault)
{
    anim_strbuf_free(&fault->data);
}

/* ---- the method table */

typedef struct method_def {
    const char *name;
    bool job;   /* runs on the worker */
    bool async; /* accepts "async": true */
} method_def;

static const method_def methods[] = {
    {"model.open", true, false},      {"model.close", true, false},
    {"model.apply", true, true},      {"model.history", true, true},
    {"model.inspect", true, false},   {"model.compile", true, true},
    {"model.compile_preview", true, true}, {"model.job", false, false},
    {"model.cancel", false, false},   {"world.api", false, false},
    {"model.publish", true, false},   {"model.revisions", true, false},
};

static const method_def *method_find(const char *name)
{
    for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
        if (strcmp(methods[i].name, name) == 0)
            return &methods[i];
    return NULL;
}

bool mdl_rpc_is_job(const char *method)
{
    const method_def *m = method_find(method);
    return m ? m->job : strcmp(method, METHOD_HEAD) == 0;
}

bool mdl_rpc_allows_async(const char *method)
{
    const method_def *m = method_find(method);
    return m && m->async;
}

/* ---- job methods (on the worker) */

static int nomem(anim_model_fault *fault)
{
    return mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "out_of_memory", "out of memory");
}

static bool valid_name(const char *p, size_t n)
{
    if (n < 1 || n > DOCUMENT_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-'))
            return false;
    }
    return true;
}

static int document_param(const anim_json_value *params, const char *method,
                          const anim_json_value **out, anim_model_fault *fault)
{
    const anim_json_value *d = params ? anim_json_get(params, "document") : NULL;
    if (!d || d->type != ANIM_JSON_STRING || !valid_name(anim_json_string(d), d->len))
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "%s: document: expected a name of 1..128 bytes of "
                                 "[A-Za-z0-9._-]", method);
    *out = d;
    return 0;
}

static int open_session(anim_model_host *host, const anim_json_value *params, const char *method,
                        mdl_session **out, anim_model_fault *fault)
{
    const anim_json_value *d;
    if (document_param(params, method, &d, fault) != 0)
        return -1;
    *out = mdl_host_find(host, anim_json_string(d), d->len);
    if (!*out)
        return mdl_session_fault(fault, ANIM_MODEL_E_REFUSED, "unknown_document",
                                 "%s: document \"%.*s\" is not open", method, (int)d->len,
                                 anim_json_string(d));
    return 0;
}

static void head_reply(const mdl_session *s, anim_strbuf *result, const char *flag)
{
    anim_model_head head;
    mdl_session_head(s, &head);
    anim_json_writer w;
    anim_json_writer_init(&w, result, false);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "document");
    anim_json_writer_string(&w, mdl_session_name(s));
    anim_json_writer_key(&w, "head");
    mdl_head_write(&w, &head);
    if (flag) {
        anim_json_writer_key(&w, flag);
        anim_json_writer_bool(&w, true);
    }
    anim_json_writer_end_object(&w);
}

static int run_open(anim_model_host *host, const anim_json_value *params, anim_strbuf *result,
                    anim_model_fault *fault)
{
    static const char *const allowed[] = {"document", "alias", NULL};
    const anim_json_value *d;
    if (mdl_params_check(params, "model.open", allowed, fault) != 0 ||
        document_param(params, "model.open", &d, fault) != 0)
        return -1;
    const anim_model_limits *limits = mdl_host_limits(host);
    if (mdl_host_find(host, anim_json_string(d), d->len))
        return mdl_session_fault(fault, ANIM_MODEL_E_CONFLICT, "document_open",
                                 "model.open: document \"%.*s\" is already open; close it first",
                                 (int)d->len, anim_json_string(d));
    if (mdl_host_document_count(host) >= limits->max_documents)
        return mdl_session_fault(fault, ANIM_MODEL_E_LIMIT, "limit_exceeded",
                                 "model.open: document \"%.*s\": max_documents (%" PRIu32
                                 ") are open", (int)d->len, anim_json_string(d),
                                 limits->max_documents);
    char name[DOCUMENT_NAME_MAX + 1];
    memcpy(name, anim_json_string(d), d->len);
    name[d->len] = '\0';
    const anim_json_value *alias = anim_json_get(params, "alias");
    if (alias)
        return mdl_rpc_open_alias(host, name, alias, result, fault);
    mdl_session *s = mdl_session_new(name, limits);
    if (!s || mdl_host_add(host, s) != 0)
        return nomem(fault);
    head_reply(s, result, NULL);
    return 0;
}

static int run_close(anim_model_host *host, const anim_json_value *params, anim_strbuf *result,
                     anim_model_fault *fault)
{
    static const char *const allowed[] = {"document", "expected", NULL};
    mdl_session *s;
    anim_model_head expected;
    if (mdl_params_check(params, "model.close", allowed, fault) != 0 ||
        open_session(host, params, "model.close", &s, fault) != 0 ||
        mdl_head_parse(anim_json_get(params, "expected"), "expected", &expected, fault) != 0 ||
        mdl_session_check_head(s, &expected, fault) != 0)
        return -1;
    head_reply(s, result, "closed");
    mdl_host_remove(host, s);
    return 0;
}

static int run_head(anim_model_host *host, const anim_json_value *params, anim_strbuf *result,
                    anim_model_fault *fault)
{
    static const char *const allowed[] = {"document", NULL};
    mdl_session *s;
    if (mdl_params_check(params, METHOD_HEAD, allowed, fault) != 0 ||
        open_session(host, params, METHOD_HEAD, &s, fault) != 0)
        return -1;
    head_reply(s, result, NULL);
    return 0;
}

static int run_inspect(anim_model_host *host, const anim_json_value *params, anim_strbuf *result,
                       anim_model_fault *fault)
{
    mdl_session *s;
    if (open_session(host, params, "model.inspect", &s, fault) != 0)
        return -1;
    anim_model_head head;
    mdl_session_head(s, &head);
    return mdl_inspect(mdl_session_doc(s), mdl_session_name(s), &head, params,
                       mdl_host_limits(host), result, fault);
}

static int compile_verify(anim_model_host *host, const mdl_session *s, const anim_strbuf *glb,
                          anim_model_fault *fault)
{
    void *user;
    anim_model_verify_fn verify = mdl_host_verify(host, &user);
    if (!verify)
        return 0;
    anim_strbuf finding = ANIM_STRBUF_INIT;
    anim_error err;
    anim_error_clear(&err);
    int v = verify(glb->data, glb->len, user, &finding, &err);
    int rc = 0;
    if (v == 1) {
        mdl_session_fault(fault, ANIM_MODEL_E_REFUSED, "compile_refused",
                          "document \"%s\": the compiled GLB was refused by verification",
                          mdl_session_name(s));
        anim_strbuf_puts(&fault->data, "{\"finding\":");
        if (finding.len)
            anim_strbuf_append(&fault->data, finding.data, finding.len);
        else
            anim_strbuf_puts(&fault->data, "{}");
        anim_strbuf_putc(&fault->data, '}');
        rc = -1;
    } else if (v != 0) {
        rc = mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "verify_failed",
                               "document \"%s\": verification could not run: %s",
                               mdl_session_name(s), err.message);
    }
    anim_strbuf_free(&finding);
    return rc;
}

int mdl_rpc_compile_checked(anim_model_host *host, const mdl_session *s, bool preview,
                            const volatile int *cancel, anim_strbuf *glb, mdl_compile_info *info,
                            anim_model_fault *fault)
{
    memset(info, 0, sizeof *info);
    if (mdl_compile(mdl_session_doc(s), preview, mdl_host_limits(host), cancel, glb, info,
                    fault) != 0)
        return -1;
    if (glb->failed)
        return nomem(fault);
    return compile_verify(host, s, glb, fault);
}

static int run_compile(anim_model_host *host, const anim_json_value *params, bool preview,
                       const volatile int *cancel, anim_strbuf *result, anim_model_fault *fault)
{
    static const char *const allowed[] = {"document", "expected", "output", "async", NULL};
    const char *method = preview ? "model.compile_preview" : "model.compile";
    mdl_session *s;
    anim_model_head expected;
    if (mdl_params_check(params, method, allowed, fault) != 0 ||
        open_session(host, params, method, &s, fault) != 0 ||
        mdl_head_parse(anim_json_get(params, "expected"), "expected", &expected, fault) != 0 ||
        mdl_session_check_head(s, &expected, fault) != 0)
        return -1;
    const anim_json_value *output = anim_json_get(params, "output");
    if (output && (output->type != ANIM_JSON_STRING || output->len == 0 ||
                   memchr(anim_json_string(output), 0, output->len)))
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "%s: output: expected a non-empty file path", method);
    anim_strbuf glb = ANIM_STRBUF_INIT;
    mdl_compile_info info;
    int rc = -1;
    char *path = NULL;
    if (mdl_rpc_compile_checked(host, s, preview, cancel, &glb, &info, fault) != 0)
        goto out;
    if (output) {
        path = malloc((size_t)output->len + 1);
        if (!path) {
            nomem(fault);
            goto out;
        }
        memcpy(path, anim_json_string(output), output->len);
        path[output->len] = '\0';
        anim_error err;
        anim_error_clear(&err);
        if (anim_write_file_atomic(path, glb.data ? glb.data : "", glb.len, &err) != 0) {
            mdl_session_fault(fault, ANIM_MODEL_E_REFUSED, "output_failed",
                              "%s: document \"%s\": cannot write output \"%.300s\": %.300s",
                              method, mdl_session_name(s), path, err.message);
            goto out;
        }
    }
    char sha[65];
    anim_sha256_hex(glb.data ? glb.data : "", glb.len, sha);
    anim_json_writer w;
    anim_json_writer_init(&w, result, false);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "document");
    anim_json_writer_string(&w, mdl_session_name(s));
    anim_json_writer_key(&w, "head");
    mdl_head_write(&w, &expected);
    anim_json_writer_key_uint(&w, "bytes", glb.len);
    anim_json_writer_key(&w, "sha256");
    anim_json_writer_string(&w, sha);
    if (path) {
        anim_json_writer_key(&w, "output");
        anim_json_writer_string(&w, path);
    } else {
        anim_json_writer_key(&w, "glb");
        anim_strbuf b64 = ANIM_STRBUF_INIT;
        anim_strbuf_putc(&b64, '"');
        anim_base64_append(&b64, glb.data ? glb.data : "", glb.len);
        anim_strbuf_putc(&b64, '"');
        anim_json_writer_raw(&w, b64.data ? b64.data : "\"\"", b64.data ? b64.len : 2);
        bool failed = b64.failed;
        anim_strbuf_free(&b64);
        if (failed) {
            nomem(fault);
            goto out;
        }
    }
    mdl_compile_info_write(&info, &w);
    anim_json_writer_end_object(&w);
    rc = result->failed ? nomem(fault) : 0;
out:
    free(path);
    anim_strbuf_free(&glb);
    return rc;
}

int mdl_rpc_execute(anim_model_host *host, const char *method, const anim_json_value *params,
                    size_t params_bytes, const volatile int *cancel, anim_strbuf *result,
                    anim_model_fault *fault)
{
    if (strcmp(method, "model.open") == 0)
        return run_open(host, params, result, fault);
    if (strcmp(method, "model.close") == 0)
        return run_close(host, params, result, fault);
    if (strcmp(method, METHOD_HEAD) == 0)
        return run_head(host, params, result, fault);
    if (strcmp(method, "model.inspect") == 0)
        return run_inspect(host, params, result, fault);
    if (strcmp(method, "model.compile") == 0)
        return run_compile(host, params, false, cancel, result, fault);
    if (strcmp(method, "model.compile_preview") == 0)
        return run_compile(host, params, true, cancel, result, fault);
    if (strcmp(method, "model.publish") == 0)
        return mdl_rpc_publish(host, params, cancel, result, fault);
    if (strcmp(method, "model.revisions") == 0)
        return mdl_rpc_revisions(host, params, result, fault);
    mdl_session *s;
    if (strcmp(method, "model.apply") == 0 || strcmp(method, "model.history") == 0) {
        if (open_session(host, params, method, &s, fault) != 0)
            return -1;
        int rc = method[6] == 'a'
                     ? mdl_session_apply(s, params, params_bytes, cancel, result, fault)
                     : mdl_session_history(s, params, cancel, result, fault);
        if (rc == 0)
            mdl_selfcheck_session(s);
        return rc;
    }
    return mdl_session_fault(fault, ANIM_MODEL_E_METHOD, "unknown_method",
                             "unknown method \"%.64s\"", method);
}

/* ---- anim_model_call */

static int call(anim_model_host *host, const char *method, const anim_json_value *params,
                bool internal, anim_strbuf *result, anim_model_fault *fault)
{
    const method_def *m = method ? method_find(method) : NULL;
    if (!m && !(internal && strcmp(method, METHOD_HEAD) == 0))
        return mdl_session_fault(fault, ANIM_MODEL_E_METHOD, "unknown_method",
                                 "unknown method \"%.64s\"", method ? method : "");
    if (params && params->type != ANIM_JSON_OBJECT)
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "%s: params must be an object", method);
    if (m && strcmp(m->name, "world.api") == 0) {
        static const char *const none[] = {NULL};
        if (mdl_params_check(params, method, none, fault) != 0)
            return -1;
        anim_strbuf schema = ANIM_STRBUF_INIT;
        int rc = anim_model_api_schema(&schema);
        if (rc == 0 && !schema.failed)
            anim_strbuf_append(result, schema.data ? schema.data : "{}",
                               schema.data ? schema.len : 2);
        else
            rc = mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "internal_error",
                                   "world.api: the schema could not be generated");
        anim_strbuf_free(&schema);
        return rc;
    }
    if (m && strcmp(m->name, "model.job") == 0)
        return mdl_host_job(host, params, result, fault);
    if (m && strcmp(m->name, "model.cancel") == 0)
        return mdl_host_cancel(host, params, result, fault);
    return mdl_host_submit(host, method, params, result, fault);
}

int anim_model_call(anim_model_host *host, const char *method, const anim_json_value *params,
                    anim_strbuf *result, anim_model_fault *fault)
{
    return call(host, method, params, false, result, fault);
}

static int call_text(anim_model_host *host, const char *method, const char *params, size_t len,
                     bool internal, anim_strbuf *result, anim_model_fault *fault)
{
    if (!params || len == 0)
        return call(host, method, NULL, internal, result, fault);
    anim_arena *arena = anim_arena_new();
    if (!arena)
        return nomem(fault);
    anim_error err;
    anim_error_clear(&err);
    const anim_json_value *v = anim_json_parse(arena, params, len, NULL, &err);
    int rc;
    if (!v)
        rc = mdl_session_fault(fault, ANIM_MODEL_E_PARSE, "parse_error", "%s params: %s",
                               method ? method : "", err.message);
    else
        rc = call(host, method, v, internal, result, fault);
    anim_arena_free(arena);
    return rc;
}

int anim_model_call_text(anim_model_host *host, const char *method, const char *params,
                         size_t len, anim_strbuf *result, anim_model_fault *fault)
{
    return call_text(host, method, params, len, false, result, fault);
}

/* ---- typed conveniences */

static void key_head(anim_json_writer *w, const char *key, const anim_model_head *head)
{
    anim_json_writer_key(w, key);
    mdl_head_write(w, head);
}

/* Runs method with the params w built into p, appending the reply to
 * reply (or a scratch buffer) and, when head is given, reading the
 * reply's "head" into it. */
static int typed_call(anim_model_host *host, const char *method, anim_strbuf *p, bool internal,
                      anim_strbuf *reply, anim_model_head *head, anim_model_fault *fault)
{
    if (p->failed)
        return nomem(fault);
    anim_strbuf scratch = ANIM_STRBUF_INIT;
    anim_strbuf *out = reply ? reply : &scratch;
    size_t start = out->len;
    int rc = call_text(host, method, p->data, p->len, internal, out, fault);
    if (rc == 0 && head) {
        anim_arena *arena = anim_arena_new();
        anim_error err;
        anim_error_clear(&err);
        const anim_json_value *v =
            arena ? anim_json_parse(arena, out->data + start, out->len - start, NULL, &err) : NULL;
        rc = v ? mdl_head_parse(anim_json_get(v, "head"), "head", head, fault) : nomem(fault);
        anim_arena_free(arena);
    }
    anim_strbuf_free(&scratch);
    return rc;
}

static void begin_doc(anim_json_writer *w, anim_strbuf *p, const char *document)
{
    anim_json_writer_init(w, p, false);
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "document");
    anim_json_writer_string(w, document ? document : "");
}

int anim_model_open(anim_model_host *host, const char *document, anim_model_head *head,
                    anim_model_fault *fault)
{
    anim_strbuf p = ANIM_STRBUF_INIT;
    anim_json_writer w;
    begin_doc(&w, &p, document);
    anim_json_writer_end_object(&w);
    anim_model_head h;
    int rc = typed_call(host, "model.open", &p, false, NULL, &h, fault);
    if (rc == 0 && head)
        *head = h;
    anim_strbuf_free(&p);
    return rc;
}

int anim_model_get_head(anim_model_host *host, const char *document, anim_model_head *head,
                        anim_model_fault *fault)
{
    anim_strbuf p = ANIM_STRBUF_INIT;
    anim_json_writer w;
    begin_doc(&w, &p, document);
    anim_json_writer_end_object(&w);
    anim_model_head h;
    int rc = typed_call(host, METHOD_HEAD, &p, true, NULL, &h, fault);
    if (rc == 0 && head)
        *head = h;
    anim_strbuf_free(&p);
    return rc;
}

int anim_model_apply(anim_model_host *host, const char *document, const anim_model_head *expected,
                     const char *request_id, const char *operations, anim_strbuf *reply,
                     anim_model_fault *fault)
{
    anim_strbuf p = ANIM_STRBUF_INIT;
    anim_json_writer w;
    begin_doc(&w, &p, document);
    anim_json_writer_key(&w, "request_id");
    anim_json_writer_string(&w, request_id ? request_id : "");
    key_head(&w, "expected", expected);
    anim_json_writer_key(&w, "operations");
    /* The caller's text goes in as written; parsing the params checks it. */
    anim_json_writer_raw(&w, operations ? operations : "null",
                         operations ? strlen(operations) : 4);
    anim_json_writer_end_object(&w);
    int rc = typed_call(host, "model.apply", &p, false, reply, NULL, fault);
    anim_strbuf_free(&p);
    return rc;
}

int anim_model_history(anim_model_host *host, const char *document,
                       const anim_model_head *expected, const char *action, anim_strbuf *reply,
                       anim_model_fault *fault)
{
    anim_strbuf p = ANIM_STRBUF_INIT;
    anim_json_writer w;
    begin_doc(&w, &p, document);
    key_head(&w, "expected", expected);
    anim_json_writer_key(&w, "action");
    anim_json_writer_string(&w, action ? action : "");
    anim_json_writer_end_object(&w);
    int rc = typed_call(host, "model.history", &p, false, reply, NULL, fault);
    anim_strbuf_free(&p);
    return rc;
}

int anim_model_inspect(anim_model_host *host, const char *document, const char *object,
                       const char *domain, uint64_t offset, uint32_t limit, anim_strbuf *reply,
                       anim_model_fault *fault)
{
    anim_strbuf p = ANIM_STRBUF_INIT;
    anim_json_writer w;
    begin_doc(&w, &p, document);
    if (object) {
        anim_json_writer_key(&w, "object");
        anim_json_writer_string(&w, object);
    }
    anim_json_writer_key(&w, "domain");
    anim_json_writer_string(&w, domain ? domain : "");
    anim_json_writer_key_uint(&w, "offset", offset);
    anim_json_writer_key_uint(&w, "limit", limit);
    anim_json_writer_end_object(&w);
    int rc = typed_call(host, "model.inspect", &p, false, reply, NULL, fault);
    anim_strbuf_free(&p);
    return rc;
}

int anim_model_compile(anim_model_host *host, const char *document,
                       const anim_model_head *expected, bool preview, anim_strbuf *glb,
                       anim_model_fault *fault)
{
    anim_strbuf p = ANIM_STRBUF_INIT;
    anim_json_writer w;
    begin_doc(&w, &p, document);
    key_head(&w, "expected", expected);
    anim_json_writer_end_object(&w);
    anim_strbuf reply = ANIM_STRBUF_INIT;
    int rc = typed_call(host, preview ? "model.compile_preview" : "model.compile", &p, false,
                        &reply, NULL, fault);
    anim_strbuf_free(&p);
    if (rc != 0) {
        anim_strbuf_free(&reply);
        return rc;
    }
    anim_arena *arena = anim_arena_new();
    anim_error err;
    anim_error_clear(&err);
    const anim_json_value *v =
        arena ? anim_json_parse(arena, reply.data, reply.len, NULL, &err) : NULL;
    const anim_json_value *b64 = v ? anim_json_get(v, "glb") : NULL;
    rc = -1;
    if (b64 && b64->type == ANIM_JSON_STRING && anim_strbuf_reserve(glb, b64->len / 4 * 3 + 1)) {
        long long n = anim_base64_decode(anim_json_string(b64), b64->len,
                                         (uint8_t *)glb->data + glb->len);
        if (n >= 0) {
            glb->len += (size_t)n;
            glb->data[glb->len] = '\0';
            rc = 0;
        }
    }
    if (rc != 0)
        nomem(fault);
    anim_arena_free(arena);
    anim_strbuf_free(&reply);
    return rc;
}

int anim_model_close(anim_model_host *host, const char *document,
                     const anim_model_head *expected, anim_model_fault *fault)
{
    anim_strbuf p = ANIM_STRBUF_INIT;
    anim_json_writer w;
    begin_doc(&w, &p, document);
    key_head(&w, "expected", expected);
    anim_json_writer_end_object(&w);
    int rc = typed_call(host, "model.close", &p, false, NULL, NULL, fault);
    anim_strbuf_free(&p);
    return rc;
}
