/* Private to the session and host files (mdl_session.c, mdl_history.c,
 * mdl_receipts.c, mdl_host.c, mdl_rpc.c); operations never include it.
 *
 * It holds what those files share and nobody else needs:
 *  - the compact re-serialization of a JSON value (request digests, the
 *    retained operations text, the host's private copy of job params);
 *  - receipts (request id -> payload digest, committed head, result) and
 *    the bounded request-id ledger that outlives evicted receipts;
 *  - the session's state behind the opaque mdl_session;
 *  - the seam between the host (documents, worker, jobs) and the method
 *    dispatch that runs a job. */
#ifndef ANIMSMITH_MDL_RECEIPTS_H
#define ANIMSMITH_MDL_RECEIPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/json.h"
#include "animsmith/model.h"
#include "animsmith/strbuf.h"
#include "model/mdl_doc.h"
#include "model/mdl_session.h"

/* ---- compact JSON re-serialization */

/* Appends v as compact JSON: members in source order, strings re-escaped,
 * integers exactly and other numbers in shortest round-trip form (a
 * literal with a fraction or exponent keeps one, so an integer field and a
 * number field read back as they were written). The same value always
 * gives the same bytes, and parsing them gives an equal value. */
void mdl_json_compact(const anim_json_value *v, anim_strbuf *out);

/* ---- receipts and the request-id ledger */

typedef struct mdl_receipt {
    char *request_id;
    uint8_t digest[32];        /* SHA-256 of compact {expected, operations} */
    anim_model_head committed; /* the head the request published */
    char *members;             /* the reply's result members: ",\"results\":...". */
    size_t members_len;
    uint64_t bytes;            /* what it counts against max_receipt_bytes */
} mdl_receipt;

typedef struct mdl_receipts {
    mdl_receipt *items; /* oldest first */
    size_t count, cap;
    uint64_t bytes;     /* sum of items[].bytes */
    char **ledger;      /* every consumed request id, sorted byte-wise */
    size_t ledger_count, ledger_cap;
} mdl_receipts;

void mdl_receipts_free(mdl_receipts *r);
/* The receipt of request_id, or NULL. */
const mdl_receipt *mdl_receipts_find(const mdl_receipts *r, const char *id, size_t len);
bool mdl_ledger_has(const mdl_receipts *r, const char *id, size_t len);
/* Stores a receipt and records its id in the ledger (the caller checked
 * that the ledger has room), then evicts oldest receipts while more than
 * max_receipts are kept or their bytes exceed max_receipt_bytes; the new
 * receipt itself goes when it alone is over the byte bound. -1 on out of
 * memory, with nothing changed. */
int mdl_receipts_add(mdl_receipts *r, const char *id, size_t id_len, const uint8_t digest[32],
                     const anim_model_head *committed, const char *members, size_t members_len,
                     const anim_model_limits *limits);

/* ---- the session's state */

/* One retained batch: its operations as compact JSON (re-parsed for
 * replay) and what executing it measured. */
typedef struct mdl_retained {
    char *ops;
    size_t ops_len;
    uint64_t work;
    char content[65]; /* content hash after it: replay must reproduce it */
} mdl_retained;

struct mdl_session {
    char *name;
    anim_model_limits limits;
    mdl_doc *current;
    anim_model_head head;
    uint64_t current_bytes;     /* canonical size of current */
    mdl_doc *checkpoint;        /* replay starts here */
    char checkpoint_content[65];
    uint64_t checkpoint_bytes;  /* its canonical size: the decode cost */
    mdl_retained *batches;      /* [0, cursor) applied, [cursor, count) redo tail */
    size_t batch_count, batch_cap;
    size_t cursor;
    mdl_receipts receipts;
};

/* Runs retained batch i on *doc, replacing it with the result; the work
 * it measured in *work (may be NULL). mdl_history.c. */
int mdl_session_replay_one(const mdl_session *s, size_t i, mdl_doc **doc,
                           const volatile int *cancel, uint64_t *work, anim_model_fault *fault);

/* Frees retained batches [from, count). */
void mdl_session_drop_batches(mdl_session *s, size_t from);
/* The sum of the work of retained batches [0, n). */
uint64_t mdl_session_retained_work(const mdl_session *s, size_t n);

/* A fault with data reset (mdl_fault leaves data as it was). */
int mdl_session_fault(anim_model_fault *f, int code, const char *kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Refuses every member of params not named in allowed (NULL-terminated)
 * and a params value that is not an object: invalid_params. */
int mdl_params_check(const anim_json_value *params, const char *method,
                     const char *const *allowed, anim_model_fault *fault);

/* ---- host <-> dispatch */

/* What a running job sees of the host: only the worker thread touches the
 * documents, so none of these lock. */
const anim_model_limits *mdl_host_limits(const anim_model_host *host);
struct mdl_store;
/* The asset store, or NULL when the host has none. */
struct mdl_store *mdl_host_store(anim_model_host *host);
anim_model_verify_fn mdl_host_verify(const anim_model_host *host, void **user);
/* The open document named name (len bytes), or NULL. */
mdl_session *mdl_host_find(anim_model_host *host, const char *name, size_t len);
size_t mdl_host_document_count(const anim_model_host *host);
/* Takes ownership of s; -1 on out of memory (s freed). */
int mdl_host_add(anim_model_host *host, mdl_session *s);
/* Removes and frees the document. */
void mdl_host_remove(anim_model_host *host, mdl_session *s);

/* Whether method runs as a job, and whether it may be asynchronous. */
bool mdl_rpc_is_job(const char *method);
bool mdl_rpc_allows_async(const char *method);
/* Runs one job's method on the worker. */
int mdl_rpc_execute(anim_model_host *host, const char *method, const anim_json_value *params,
                    size_t params_bytes, const volatile int *cancel, anim_strbuf *result,
                    anim_model_fault *fault);

/* Compiles the session's current version and runs the host's verifier
 * on it (mdl_rpc.c): the one path model.compile and model.publish share. */
struct mdl_compile_info;
int mdl_rpc_compile_checked(anim_model_host *host, const mdl_session *s, bool preview,
                            const volatile int *cancel, anim_strbuf *glb,
                            struct mdl_compile_info *info, anim_model_fault *fault);
/* model.publish, model.revisions and model.open with an alias
 * (mdl_rpc_store.c). */
int mdl_rpc_publish(anim_model_host *host, const anim_json_value *params,
                    const volatile int *cancel, anim_strbuf *result, anim_model_fault *fault);
int mdl_rpc_revisions(anim_model_host *host, const anim_json_value *params, anim_strbuf *result,
                      anim_model_fault *fault);
int mdl_rpc_open_alias(anim_model_host *host, const char *document, const anim_json_value *alias,
                       anim_strbuf *result, anim_model_fault *fault);

/* The host side of anim_model_call for job methods, model.job and
 * model.cancel (mdl_host.c). params is already an object or NULL. */
int mdl_host_submit(anim_model_host *host, const char *method, const anim_json_value *params,
                    anim_strbuf *result, anim_model_fault *fault);
int mdl_host_job(anim_model_host *host, const anim_json_value *params, anim_strbuf *result,
                 anim_model_fault *fault);
int mdl_host_cancel(anim_model_host *host, const anim_json_value *params, anim_strbuf *result,
                    anim_model_fault *fault);

#endif
