/* The model authoring engine: editable documents of meshes, materials,
 * textures, a skeleton, weights and clips, changed only through atomic
 * batches of operations pinned to the head they were planned against,
 * inspected in bounded pages, undone and redone, and compiled to GLB.
 *
 * Every front end (`animsmith model serve` over JSON-RPC 2.0 or MCP, and
 * `animsmith model apply|inspect|compile`) goes through this API; none
 * holds document state of its own. A host owns its open documents and one
 * worker thread: every authoring operation runs there, one at a time, as a
 * job with an id, so the caller's thread does no modeling work.
 *
 * Requests and replies are JSON (the method names and shapes of
 * docs/model.md); the typed functions below are thin conveniences over
 * anim_model_call. */
#ifndef ANIMSMITH_MODEL_H
#define ANIMSMITH_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/error.h"
#include "animsmith/json.h"
#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Resource guards; anim_model_limits_default gives the documented
 * defaults. Each refusal names the limit by its field name. */
typedef struct anim_model_limits {
    uint32_t max_documents;          /* open documents: 16 */
    uint32_t max_objects;            /* per document: 2048 */
    uint32_t max_materials;          /* defined materials: 512 */
    uint32_t max_batch_operations;   /* per model.apply: 256 */
    uint64_t max_memory_bytes;       /* working memory of one document: 2 GiB */
    uint64_t max_work_units;         /* one batch, and the retained replay work: 10^10 */
    uint64_t max_compiled_triangles; /* 4,000,000 */
    uint64_t max_source_bytes;       /* canonical encoding of a document: 256 MiB */
    uint64_t max_transaction_bytes;  /* serialized model.apply params: 64 MiB */
    uint32_t max_undo_batches;       /* retained before a checkpoint: 4096 */
    uint32_t max_receipts;           /* retained replayable results: 128 */
    uint64_t max_receipt_bytes;      /* their serialized size: 2 MiB */
    uint32_t max_request_ids;        /* the request-id ledger: 65,536 */
    uint32_t max_queued_jobs;        /* waiting jobs: 64 */
    uint32_t max_reply_bytes;        /* every inspect / apply / history reply: 12 KiB */
    uint32_t max_selection_ids;      /* shared selection budget of one reply: 256 */
} anim_model_limits;

void anim_model_limits_default(anim_model_limits *limits);

/* Checks a compiled GLB before it is returned (the CLI passes the lint
 * layer's mechanical checks). Returns 0 when acceptable; 1 when refused,
 * with finding holding one JSON object (check, severity, message, ...);
 * -1 with err set when it could not run. */
typedef int (*anim_model_verify_fn)(const void *glb, size_t len, void *user,
                                    anim_strbuf *finding, anim_error *err);

typedef struct anim_model_host_options {
    anim_model_limits limits;
    anim_model_verify_fn verify; /* NULL: compile without verification */
    void *verify_user;
    /* The SQLite asset store behind model.publish, model.revisions and
     * model.open by alias (created when absent); NULL: no store, and those
     * methods are refused with no_store. */
    const char *store_path;
} anim_model_host_options;

typedef struct anim_model_host anim_model_host;

/* Starts the host and its worker thread. NULL with err set on failure. */
anim_model_host *anim_model_host_new(const anim_model_host_options *opts, anim_error *err);
/* Cancels queued jobs, waits for a running one, frees every document. */
void anim_model_host_free(anim_model_host *host);

/* A refused call: a JSON-RPC error code, a stable snake_case kind
 * ("stale_head", "operation_refused", "limit_exceeded", ...), a one-line
 * message naming the document, operation index and op, field or limit,
 * and data: a JSON object with the details (empty when none). */
typedef struct anim_model_fault {
    int code;
    char kind[64];
    char message[768];
    anim_strbuf data;
} anim_model_fault;

void anim_model_fault_init(anim_model_fault *fault);
void anim_model_fault_free(anim_model_fault *fault);

/* JSON-RPC error codes of faults. */
#define ANIM_MODEL_E_PARSE (-32700)
#define ANIM_MODEL_E_INVALID_REQUEST (-32600)
#define ANIM_MODEL_E_METHOD (-32601)
#define ANIM_MODEL_E_PARAMS (-32602)
#define ANIM_MODEL_E_INTERNAL (-32603)
#define ANIM_MODEL_E_REFUSED (-32000)  /* a well-formed request the engine refuses */
#define ANIM_MODEL_E_CONFLICT (-32001) /* stale head, request id reuse, open document */
#define ANIM_MODEL_E_LIMIT (-32002)    /* a resource limit or admission bound */

/* One method call: method is a name of docs/model.md ("model.open",
 * "model.apply", "model.inspect", "model.history", "model.job",
 * "model.cancel", "model.close", "model.compile", "model.compile_preview",
 * "world.api"), params its params object (NULL = {}). On success appends
 * the result (one compact JSON value) to result and returns 0; otherwise
 * fills fault and returns -1. Safe to call from several threads. */
int anim_model_call(anim_model_host *host, const char *method, const anim_json_value *params,
                    anim_strbuf *result, anim_model_fault *fault);

/* The same with params as JSON text. */
int anim_model_call_text(anim_model_host *host, const char *method, const char *params,
                         size_t len, anim_strbuf *result, anim_model_fault *fault);

/* The operation contracts and method params as JSON Schema (draft
 * 2020-12), generated from the tables the validator enforces. */
int anim_model_api_schema(anim_strbuf *out);

/* ---- typed conveniences */

typedef struct anim_model_head {
    uint64_t generation;
    char content[65]; /* SHA-256 of the canonical encoding, lowercase hex */
} anim_model_head;

int anim_model_open(anim_model_host *host, const char *document, anim_model_head *head,
                    anim_model_fault *fault);
int anim_model_get_head(anim_model_host *host, const char *document, anim_model_head *head,
                        anim_model_fault *fault);
/* operations: a JSON array text of operation objects. */
int anim_model_apply(anim_model_host *host, const char *document, const anim_model_head *expected,
                     const char *request_id, const char *operations, anim_strbuf *reply,
                     anim_model_fault *fault);
/* action: "undo", "redo" or "checkpoint". */
int anim_model_history(anim_model_host *host, const char *document,
                       const anim_model_head *expected, const char *action, anim_strbuf *reply,
                       anim_model_fault *fault);
/* object NULL for document domains; limit 1..128. */
int anim_model_inspect(anim_model_host *host, const char *document, const char *object,
                       const char *domain, uint64_t offset, uint32_t limit, anim_strbuf *reply,
                       anim_model_fault *fault);
/* The GLB bytes (not base64) of the document at expected. */
int anim_model_compile(anim_model_host *host, const char *document,
                       const anim_model_head *expected, bool preview, anim_strbuf *glb,
                       anim_model_fault *fault);
int anim_model_close(anim_model_host *host, const char *document,
                     const anim_model_head *expected, anim_model_fault *fault);

#ifdef __cplusplus
}
#endif
#endif
