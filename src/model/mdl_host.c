/* The model host: the open documents, one worker thread and the jobs it
 * runs.
 *
 * Every authoring method is a job executed on the worker in FIFO order,
 * one at a time, so the caller's thread never does modeling work and two
 * requests can never interleave on a document. Only the worker touches
 * the documents; the mutex guards the queue and the job records alone, so
 * model.job and model.cancel answer at once even while a long job runs.
 * A job's params are copied (compact JSON re-parsed into the job's own
 * arena) because an asynchronous caller's text is gone by the time the
 * job runs. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/json_write.h"
#include "core/grow.h"
#include "model/mdl_receipts.h"
#include "model/mdl_session.h"
#include "model/mdl_store.h"

/* Finished asynchronous jobs remembered for model.job. */
#define FINISHED_KEEP 256

typedef enum { JOB_QUEUED, JOB_RUNNING, JOB_COMPLETED, JOB_FAILED, JOB_CANCELLED } job_state;

static const char *const state_names[] = {"queued", "running", "completed", "failed",
                                          "cancelled"};

typedef struct mdl_job {
    uint64_t id;
    char method[32];
    char *document; /* the params' document, for model.job (NULL when none) */
    char *text;     /* compact params; params point into it */
    size_t text_len;
    anim_arena *arena;
    const anim_json_value *params;
    job_state state;
    volatile int cancel;
    bool async;
    anim_strbuf result;
    anim_model_fault fault;
    struct mdl_job *next;
} mdl_job;

struct anim_model_host {
    anim_model_limits limits;
    anim_model_verify_fn verify;
    void *verify_user;
    mdl_store *store; /* NULL: none; used by the worker only */

    pthread_mutex_t mu;
    pthread_cond_t work_cv; /* the worker waits for a job */
    pthread_cond_t done_cv; /* synchronous callers wait for theirs */
    pthread_t worker;
    bool stop;
    mdl_job *head, *tail; /* the queue */
    size_t queued;
    mdl_job *running;
    mdl_job *finished[FINISHED_KEEP]; /* ring, oldest at fin_start */
    size_t fin_start, fin_count;
    uint64_t next_id;

    /* Worker only. */
    mdl_session **docs;
    size_t doc_count, doc_cap;
};

/* ---- documents (worker only) */

mdl_store *mdl_host_store(anim_model_host *host)
{
    return host->store;
}

const anim_model_limits *mdl_host_limits(const anim_model_host *host)
{
    return &host->limits;
}

anim_model_verify_fn mdl_host_verify(const anim_model_host *host, void **user)
{
    *user = host->verify_user;
    return host->verify;
}

mdl_session *mdl_host_find(anim_model_host *host, const char *name, size_t len)
{
    for (size_t i = 0; i < host->doc_count; i++) {
        const char *n = mdl_session_name(host->docs[i]);
        if (strlen(n) == len && memcmp(n, name, len) == 0)
            return host->docs[i];
    }
    return NULL;
}

size_t mdl_host_document_count(const anim_model_host *host)
{
    return host->doc_count;
}

int mdl_host_add(anim_model_host *host, mdl_session *s)
{
    if (!anim_grow((void **)&host->docs, &host->doc_cap, host->doc_count + 1, sizeof *host->docs)) {
        mdl_session_free(s);
        return -1;
    }
    host->docs[host->doc_count++] = s;
    return 0;
}

void mdl_host_remove(anim_model_host *host, mdl_session *s)
{
    for (size_t i = 0; i < host->doc_count; i++) {
        if (host->docs[i] == s) {
            memmove(host->docs + i, host->docs + i + 1,
                    (host->doc_count - i - 1) * sizeof *host->docs);
            host->doc_count--;
            break;
        }
    }
    mdl_session_free(s);
}

/* ---- jobs */

static void job_free(mdl_job *j)
{
    if (!j)
        return;
    free(j->document);
    free(j->text);
    anim_arena_free(j->arena);
    anim_strbuf_free(&j->result);
    anim_model_fault_free(&j->fault);
    free(j);
}

static bool finished(const mdl_job *j)
{
    return j->state >= JOB_COMPLETED;
}

/* Under the lock: a job reached its final state. Asynchronous jobs are
 * remembered (the oldest record dropped past FINISHED_KEEP); a synchronous
 * job belongs to its waiting caller, who is woken. */
static void job_finish(anim_model_host *host, mdl_job *j)
{
    if (j->async) {
        if (host->fin_count == FINISHED_KEEP) {
            job_free(host->finished[host->fin_start]);
            host->fin_start = (host->fin_start + 1) % FINISHED_KEEP;
            host->fin_count--;
        }
        host->finished[(host->fin_start + host->fin_count) % FINISHED_KEEP] = j;
        host->fin_count++;
    }
    pthread_cond_broadcast(&host->done_cv);
}

static void *worker_main(void *arg)
{
    anim_model_host *host = arg;
    pthread_mutex_lock(&host->mu);
    for (;;) {
        while (!host->stop && !host->head)
            pthread_cond_wait(&host->work_cv, &host->mu);
        if (!host->head)
            break;
        mdl_job *j = host->head;
        host->head = j->next;
        if (!host->head)
            host->tail = NULL;
        host->queued--;
        j->next = NULL;
        j->state = JOB_RUNNING;
        host->running = j;
        pthread_mutex_unlock(&host->mu);

        int rc = mdl_rpc_execute(host, j->method, j->params, j->text_len, &j->cancel, &j->result,
                                 &j->fault);

        pthread_mutex_lock(&host->mu);
        host->running = NULL;
        if (rc == 0)
            j->state = JOB_COMPLETED;
        else if (j->cancel && strcmp(j->fault.kind, "cancelled") == 0)
            j->state = JOB_CANCELLED;
        else
            j->state = JOB_FAILED;
        job_finish(host, j);
    }
    pthread_mutex_unlock(&host->mu);
    return NULL;
}

/* A host that never started: its store closed, itself freed. */
static void discard(anim_model_host *host)
{
    if (host->store)
        host->store->ops->close(host->store);
    free(host);
}

anim_model_host *anim_model_host_new(const anim_model_host_options *opts, anim_error *err)
{
    anim_model_host *host = calloc(1, sizeof *host);
    if (!host) {
        anim_error_set(err, ANIM_ERR_NOMEM, "model host: out of memory");
        return NULL;
    }
    if (opts) {
        host->limits = opts->limits;
        host->verify = opts->verify;
        host->verify_user = opts->verify_user;
        if (opts->store_path) {
            host->store = mdl_store_open_sqlite(opts->store_path, err);
            if (!host->store) {
                discard(host);
                return NULL;
            }
        }
    } else {
        anim_model_limits_default(&host->limits);
    }
    host->next_id = 1;
    if (pthread_mutex_init(&host->mu, NULL) != 0) {
        discard(host);
        anim_error_set(err, ANIM_ERR_NOMEM, "model host: cannot create a mutex");
        return NULL;
    }
    if (pthread_cond_init(&host->work_cv, NULL) != 0) {
        pthread_mutex_destroy(&host->mu);
        discard(host);
        anim_error_set(err, ANIM_ERR_NOMEM, "model host: cannot create a condition variable");
        return NULL;
    }
    if (pthread_cond_init(&host->done_cv, NULL) != 0) {
        pthread_cond_destroy(&host->work_cv);
        pthread_mutex_destroy(&host->mu);
        discard(host);
        anim_error_set(err, ANIM_ERR_NOMEM, "model host: cannot create a condition variable");
        return NULL;
    }
    if (pthread_create(&host->worker, NULL, worker_main, host) != 0) {
        pthread_cond_destroy(&host->done_cv);
        pthread_cond_destroy(&host->work_cv);
        pthread_mutex_destroy(&host->mu);
        discard(host);
        anim_error_set(err, ANIM_ERR_NOMEM, "model host: cannot start the worker thread");
        return NULL;
    }
    return host;
}

static void cancel_queued(anim_model_host *host, mdl_job *j)
{
    j->state = JOB_CANCELLED;
    mdl_session_fault(&j->fault, ANIM_MODEL_E_REFUSED, "cancelled",
                      "job %" PRIu64 " (%s) was cancelled before it ran", j->id, j->method);
    job_finish(host, j);
}

void anim_model_host_free(anim_model_host *host)
{
    if (!host)
        return;
    pthread_mutex_lock(&host->mu);
    host->stop = true;
    while (host->head) {
        mdl_job *j = host->head;
        host->head = j->next;
        host->queued--;
        cancel_queued(host, j);
    }
    host->tail = NULL;
    pthread_cond_broadcast(&host->work_cv);
    pthread_mutex_unlock(&host->mu);
    pthread_join(host->worker, NULL);
    for (size_t i = 0; i < host->fin_count; i++)
        job_free(host->finished[(host->fin_start + i) % FINISHED_KEEP]);
    for (size_t i = 0; i < host->doc_count; i++)
        mdl_session_free(host->docs[i]);
    free(host->docs);
    pthread_cond_destroy(&host->done_cv);
    pthread_cond_destroy(&host->work_cv);
    pthread_mutex_destroy(&host->mu);
    discard(host);
}

static int nomem(anim_model_fault *fault)
{
    return mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "out_of_memory",
                             "model host: out of memory");
}

static void copy_fault(anim_model_fault *to, const anim_model_fault *from)
{
    to->code = from->code;
    memcpy(to->kind, from->kind, sizeof to->kind);
    memcpy(to->message, from->message, sizeof to->message);
    anim_strbuf_reset(&to->data);
    if (from->data.len)
        anim_strbuf_append(&to->data, from->data.data, from->data.len);
}

/* A job holding its own copy of params. */
static mdl_job *job_new(const char *method, const anim_json_value *params, bool async)
{
    mdl_job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    anim_model_fault_init(&j->fault);
    snprintf(j->method, sizeof j->method, "%s", method);
    j->async = async;
    anim_strbuf sb = ANIM_STRBUF_INIT;
    if (params)
        mdl_json_compact(params, &sb);
    else
        anim_strbuf_puts(&sb, "{}");
    j->arena = anim_arena_new();
    if (sb.failed || !j->arena) {
        anim_strbuf_free(&sb);
        job_free(j);
        return NULL;
    }
    j->text = sb.data;
    j->text_len = sb.len;
    anim_error err;
    anim_error_clear(&err);
    j->params = anim_json_parse(j->arena, j->text, j->text_len, NULL, &err);
    const anim_json_value *doc = j->params ? anim_json_get(j->params, "document") : NULL;
    if (doc && doc->type == ANIM_JSON_STRING && !memchr(doc->u.string, 0, doc->len)) {
        j->document = malloc((size_t)doc->len + 1);
        if (!j->document) {
            job_free(j);
            return NULL;
        }
        memcpy(j->document, anim_json_string(doc), doc->len);
        j->document[doc->len] = '\0';
    }
    if (!j->params) {
        job_free(j);
        return NULL;
    }
    return j;
}

static void write_id(anim_json_writer *w, const char *key, uint64_t id)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, id);
    anim_json_writer_key(w, key);
    anim_json_writer_string(w, buf);
}

int mdl_host_submit(anim_model_host *host, const char *method, const anim_json_value *params,
                    anim_strbuf *result, anim_model_fault *fault)
{
    const anim_json_value *av = params ? anim_json_get(params, "async") : NULL;
    if (av && av->type != ANIM_JSON_TRUE && av->type != ANIM_JSON_FALSE)
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "%s: async must be a boolean", method);
    /* A publication always answers with its job: accepted is not yet
     * published, and the caller follows it with model.job. */
    bool async = (av && av->type == ANIM_JSON_TRUE) || strcmp(method, "model.publish") == 0;
    if (av && !mdl_rpc_allows_async(method))
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "%s: unknown param \"async\"", method);
    mdl_job *j = job_new(method, params, async);
    if (!j)
        return nomem(fault);

    pthread_mutex_lock(&host->mu);
    if (host->queued >= host->limits.max_queued_jobs) {
        uint32_t max = host->limits.max_queued_jobs;
        pthread_mutex_unlock(&host->mu);
        job_free(j);
        return mdl_session_fault(fault, ANIM_MODEL_E_LIMIT, "job_queue_full",
                                 "%s: %" PRIu32 " jobs are queued: max_queued_jobs (%" PRIu32 ")",
                                 method, max, max);
    }
    j->id = host->next_id++;
    j->state = JOB_QUEUED;
    if (host->tail)
        host->tail->next = j;
    else
        host->head = j;
    host->tail = j;
    host->queued++;
    pthread_cond_signal(&host->work_cv);
    if (async) {
        anim_json_writer w;
        anim_json_writer_init(&w, result, false);
        anim_json_writer_begin_object(&w);
        write_id(&w, "job", j->id);
        anim_json_writer_key(&w, "state");
        anim_json_writer_string(&w, "queued");
        anim_json_writer_end_object(&w);
        pthread_mutex_unlock(&host->mu);
        return 0;
    }
    while (!finished(j))
        pthread_cond_wait(&host->done_cv, &host->mu);
    pthread_mutex_unlock(&host->mu);
    int rc;
    if (j->state == JOB_COMPLETED) {
        anim_strbuf_append(result, j->result.data ? j->result.data : "", j->result.len);
        rc = result->failed || j->result.failed ? nomem(fault) : 0;
    } else {
        copy_fault(fault, &j->fault);
        rc = -1;
    }
    job_free(j);
    return rc;
}

/* ---- model.job and model.cancel (under the lock) */

static int parse_job_id(const anim_json_value *params, const char *method, uint64_t *id,
                        anim_model_fault *fault)
{
    static const char *const allowed[] = {"job", NULL};
    if (mdl_params_check(params, method, allowed, fault) != 0)
        return -1;
    const anim_json_value *v = params ? anim_json_get(params, "job") : NULL;
    bool ok = v && v->type == ANIM_JSON_STRING && anim_json_string_len(v) >= 1 &&
              anim_json_string_len(v) <= 20 && anim_json_string(v)[0] != '0';
    uint64_t n = 0;
    for (size_t i = 0; ok && i < anim_json_string_len(v); i++) {
        char c = anim_json_string(v)[i];
        ok = c >= '0' && c <= '9' && n <= (UINT64_MAX - (uint64_t)(c - '0')) / 10;
        n = n * 10 + (uint64_t)(c - '0');
    }
    if (!ok)
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "%s: job: expected a decimal job id string", method);
    *id = n;
    return 0;
}

static mdl_job *find_job(anim_model_host *host, uint64_t id, mdl_job **prev_out)
{
    *prev_out = NULL;
    if (host->running && host->running->id == id)
        return host->running;
    mdl_job *prev = NULL;
    for (mdl_job *j = host->head; j; prev = j, j = j->next) {
        if (j->id == id) {
            *prev_out = prev;
            return j;
        }
    }
    for (size_t i = 0; i < host->fin_count; i++) {
        mdl_job *j = host->finished[(host->fin_start + i) % FINISHED_KEEP];
        if (j->id == id)
            return j;
    }
    return NULL;
}

static int unknown_job(uint64_t id, anim_model_fault *fault)
{
    return mdl_session_fault(fault, ANIM_MODEL_E_REFUSED, "unknown_job",
                             "job %" PRIu64 " is not known (never accepted, or no longer kept)",
                             id);
}

static void write_error(anim_json_writer *w, const anim_model_fault *f)
{
    anim_json_writer_key(w, "error");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "code");
    anim_json_writer_int(w, f->code);
    anim_json_writer_key(w, "kind");
    anim_json_writer_string(w, f->kind);
    anim_json_writer_key(w, "message");
    anim_json_writer_string(w, f->message);
    anim_json_writer_key(w, "data");
    if (f->data.len)
        anim_json_writer_raw(w, f->data.data, f->data.len);
    else
        anim_json_writer_raw(w, "{}", 2);
    anim_json_writer_end_object(w);
}

/* The job params name, with the host's mutex held (released, with the
 * fault filled, when the params are bad or the job is unknown). */
static mdl_job *lock_job(anim_model_host *host, const anim_json_value *params, const char *method,
                         mdl_job **prev, anim_model_fault *fault)
{
    uint64_t id = 0;
    if (parse_job_id(params, method, &id, fault) != 0)
        return NULL;
    pthread_mutex_lock(&host->mu);
    mdl_job *j = find_job(host, id, prev);
    if (!j) {
        pthread_mutex_unlock(&host->mu);
        unknown_job(id, fault);
    }
    return j;
}

/* Opens a model.job / model.cancel reply object with its "job" member. */
static void begin_job_reply(anim_json_writer *w, anim_strbuf *result, const mdl_job *j)
{
    anim_json_writer_init(w, result, false);
    anim_json_writer_begin_object(w);
    write_id(w, "job", j->id);
}

int mdl_host_job(anim_model_host *host, const anim_json_value *params, anim_strbuf *result,
                 anim_model_fault *fault)
{
    mdl_job *prev;
    mdl_job *j = lock_job(host, params, "model.job", &prev, fault);
    if (!j)
        return -1;
    anim_json_writer w;
    begin_job_reply(&w, result, j);
    anim_json_writer_key(&w, "method");
    anim_json_writer_string(&w, j->method);
    anim_json_writer_key_string_or_null(&w, "document", j->document);
    anim_json_writer_key(&w, "state");
    anim_json_writer_string(&w, state_names[j->state]);
    if (j->state == JOB_COMPLETED) {
        anim_json_writer_key(&w, "result");
        anim_json_writer_raw(&w, j->result.data ? j->result.data : "null",
                             j->result.data ? j->result.len : 4);
    } else if (j->state == JOB_FAILED || j->state == JOB_CANCELLED) {
        write_error(&w, &j->fault);
    }
    anim_json_writer_end_object(&w);
    pthread_mutex_unlock(&host->mu);
    return result->failed ? nomem(fault) : 0;
}

int mdl_host_cancel(anim_model_host *host, const anim_json_value *params, anim_strbuf *result,
                    anim_model_fault *fault)
{
    mdl_job *prev;
    mdl_job *j = lock_job(host, params, "model.cancel", &prev, fault);
    if (!j)
        return -1;
    anim_json_writer w;
    begin_job_reply(&w, result, j);
    if (j->state == JOB_QUEUED) {
        if (prev)
            prev->next = j->next;
        else
            host->head = j->next;
        if (host->tail == j)
            host->tail = prev;
        j->next = NULL;
        host->queued--;
        /* Written before job_finish: a synchronous job's waiter frees it. */
        anim_json_writer_key(&w, "state");
        anim_json_writer_string(&w, "cancelled");
        anim_json_writer_key(&w, "cancel_requested");
        anim_json_writer_bool(&w, true);
        cancel_queued(host, j);
    } else if (j->state == JOB_RUNNING) {
        j->cancel = 1;
        anim_json_writer_key(&w, "state");
        anim_json_writer_string(&w, "running");
        anim_json_writer_key(&w, "cancel_requested");
        anim_json_writer_bool(&w, true);
    } else {
        anim_json_writer_key(&w, "state");
        anim_json_writer_string(&w, state_names[j->state]);
        anim_json_writer_key(&w, "cancel_requested");
        anim_json_writer_bool(&w, false);
        anim_json_writer_key(&w, "reason");
        anim_json_writer_string(&w, "too late: the job already finished");
    }
    anim_json_writer_end_object(&w);
    pthread_mutex_unlock(&host->mu);
    return result->failed ? nomem(fault) : 0;
}
