/* The journal front end (model_journal.h): read and check a journal file
 * strictly, replay its batches through a host, then apply, inspect or
 * compile. A refusal prints one line naming the file and changes nothing:
 * the journal is rewritten (atomically) only after the engine committed
 * the new batch. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "animsmith/arena.h"
#include "animsmith/atomic_write.h"
#include "animsmith/json.h"
#include "animsmith/json_write.h"
#include "animsmith/model.h"
#include "animsmith/strbuf.h"
#include "model_cli.h"
#include "model_journal.h"

#define JOURNAL_FORMAT "animsmith-model-journal"
/* The JSON reader's own ceiling: a journal is text the reader must hold. */
#define JOURNAL_MAX_BYTES ((size_t)1 << 30)

typedef struct {
    const char *path;
    anim_arena *arena;
    const char *text;        /* the file's bytes (NULL for a new journal) */
    char *document;          /* NUL-terminated */
    const anim_json_value *batches; /* array (NULL for a new journal) */
    size_t batch_count;
} journal;

/* The bytes of path ("-": stdin), NUL-terminated in the arena; NULL after
 * printing the operator error. *absent (may be NULL) is set instead of an
 * error when the file does not exist. */
static char *read_bytes(const char *path, size_t max, anim_arena *arena, size_t *len, bool *absent)
{
    bool std_in = strcmp(path, "-") == 0;
    FILE *f = std_in ? stdin : fopen(path, "rb");
    if (!f) {
        if (absent && errno == ENOENT) {
            *absent = true;
            return NULL;
        }
        cli_operator_error("%s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (!std_in && (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))) {
        fclose(f);
        cli_operator_error("%s: not a regular file", path);
        return NULL;
    }
    anim_strbuf sb = ANIM_STRBUF_INIT;
    char chunk[65536];
    size_t got;
    bool too_big = false;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (got > max - sb.len) {
            too_big = true;
            break;
        }
        anim_strbuf_append(&sb, chunk, got);
    }
    bool bad = ferror(f) != 0;
    if (!std_in)
        fclose(f);
    char *text = NULL;
    if (too_big)
        cli_operator_error("%s: larger than %zu bytes", std_in ? "stdin" : path, max);
    else if (bad)
        cli_operator_error("%s: read error", std_in ? "stdin" : path);
    else if (sb.failed || !(text = anim_arena_strndup(arena, sb.data ? sb.data : "", sb.len)))
        cli_operator_error("out of memory");
    else
        *len = sb.len;
    anim_strbuf_free(&sb);
    return text;
}

static bool key_is(const anim_json_member *m, const char *key)
{
    return anim_json_key_len(m) == strlen(key) && memcmp(m->key, key, strlen(key)) == 0;
}

/* The document name of a new journal: the file name without .json. */
static char *stem(anim_arena *arena, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".json") == 0)
        n -= 5;
    return anim_arena_strndup(arena, base, n);
}

/* Checks the journal's shape; 2 after printing what is wrong. */
static int check_journal(journal *j, const anim_json_value *root)
{
    const char *p = j->path;
    if (root->type != ANIM_JSON_OBJECT)
        return cli_operator_error("%s: not a model journal: the top level must be an object "
                                  "with format \"" JOURNAL_FORMAT "\"",
                                  p);
    for (size_t i = 0; i < anim_json_count(root); i++) {
        const anim_json_member *m = anim_json_member_at(root, i);
        if (!key_is(m, "format") && !key_is(m, "version") && !key_is(m, "document") &&
            !key_is(m, "batches"))
            return cli_operator_error("%s: not a model journal: unknown member \"%.*s\"", p,
                                      (int)(anim_json_key_len(m) < 64 ? anim_json_key_len(m) : 64),
                                      m->key);
    }
    const anim_json_value *format = anim_json_get(root, "format");
    if (!format || !anim_json_string_eq(format, JOURNAL_FORMAT))
        return cli_operator_error("%s: not a model journal: format must be \"" JOURNAL_FORMAT
                                  "\"",
                                  p);
    const anim_json_value *version = anim_json_get(root, "version");
    if (!version || !anim_json_is_integer(version) || anim_json_integer(version) != 1)
        return cli_operator_error("%s: model journal version must be 1", p);
    const anim_json_value *doc = anim_json_get(root, "document");
    j->document = doc ? anim_json_strdup(j->arena, doc) : NULL;
    if (!j->document || !j->document[0] || strlen(j->document) != anim_json_string_len(doc))
        return cli_operator_error("%s: model journal document must be a non-empty name", p);
    j->batches = anim_json_get(root, "batches");
    if (!j->batches || j->batches->type != ANIM_JSON_ARRAY)
        return cli_operator_error("%s: model journal batches must be an array", p);
    j->batch_count = anim_json_count(j->batches);
    for (size_t b = 0; b < j->batch_count; b++) {
        const anim_json_value *batch = anim_json_item(j->batches, b);
        if (batch->type != ANIM_JSON_OBJECT)
            return cli_operator_error("%s: batch %zu must be an object", p, b);
        for (size_t i = 0; i < anim_json_count(batch); i++) {
            const anim_json_member *m = anim_json_member_at(batch, i);
            if (!key_is(m, "request_id") && !key_is(m, "operations"))
                return cli_operator_error("%s: batch %zu: unknown member \"%.*s\"", p, b,
                                          (int)(anim_json_key_len(m) < 64 ? anim_json_key_len(m)
                                                                          : 64),
                                          m->key);
        }
        const anim_json_value *rid = anim_json_get(batch, "request_id");
        if (!rid || rid->type != ANIM_JSON_STRING || anim_json_string_len(rid) == 0)
            return cli_operator_error("%s: batch %zu: request_id must be a non-empty string", p,
                                      b);
        const anim_json_value *ops = anim_json_get(batch, "operations");
        if (!ops || ops->type != ANIM_JSON_ARRAY)
            return cli_operator_error("%s: batch %zu: operations must be an array", p, b);
    }
    return 0;
}

/* Loads path; a missing file is a new, empty journal when may_create. */
static int journal_load(journal *j, const char *path, bool may_create)
{
    memset(j, 0, sizeof *j);
    j->path = path;
    j->arena = anim_arena_new();
    if (!j->arena)
        return cli_operator_error("out of memory");
    bool absent = false;
    size_t len = 0;
    char *text = read_bytes(path, JOURNAL_MAX_BYTES - 1, j->arena, &len, may_create ? &absent : NULL);
    if (!text) {
        if (!absent)
            return EXIT_OPERATOR;
        j->document = stem(j->arena, path);
        if (!j->document || !j->document[0])
            return cli_operator_error("%s: cannot name a document after this path", path);
        return 0;
    }
    anim_error err;
    anim_error_clear(&err);
    const anim_json_value *root = anim_json_parse(j->arena, text, len, NULL, &err);
    if (!root)
        return cli_operator_error("%s: not a model journal: %s", path, err.message);
    j->text = text;
    return check_journal(j, root);
}

static void journal_free(journal *j)
{
    anim_arena_free(j->arena);
}

static void head_write(anim_json_writer *w, const anim_model_head *h)
{
    char gen[24];
    snprintf(gen, sizeof gen, "%" PRIu64, h->generation);
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "generation");
    anim_json_writer_string(w, gen);
    anim_json_writer_key(w, "content");
    anim_json_writer_string(w, h->content);
    anim_json_writer_end_object(w);
}

/* model.apply of ops (parsed from text) at the document's current head;
 * on a checkpoint-required refusal the history is checkpointed (the
 * journal keeps no undo history) and the batch retried once. */
static int apply_ops(anim_model_host *host, const char *document, const char *request_id,
                     const anim_json_value *ops, const char *text, anim_strbuf *reply,
                     anim_model_fault *fault, anim_strbuf *sent)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        anim_model_head head;
        if (anim_model_get_head(host, document, &head, fault))
            return -1;
        anim_strbuf params = ANIM_STRBUF_INIT;
        anim_json_writer w;
        anim_json_writer_init(&w, &params, false);
        anim_json_writer_begin_object(&w);
        anim_json_writer_key(&w, "document");
        anim_json_writer_string(&w, document);
        anim_json_writer_key(&w, "request_id");
        anim_json_writer_string(&w, request_id);
        anim_json_writer_key(&w, "expected");
        head_write(&w, &head);
        anim_json_writer_key(&w, "operations");
        model_json_copy(&w, ops, text);
        anim_json_writer_end_object(&w);
        int rc = -1;
        if (!anim_json_writer_ok(&w)) {
            fault->code = ANIM_MODEL_E_INTERNAL;
            snprintf(fault->kind, sizeof fault->kind, "out_of_memory");
            snprintf(fault->message, sizeof fault->message, "out of memory");
        } else {
            anim_strbuf_reset(reply);
            rc = anim_model_call_text(host, "model.apply", params.data, params.len, reply, fault);
        }
        if (rc == 0 && sent) {
            anim_strbuf_reset(sent);
            anim_strbuf_append(sent, params.data, params.len);
        }
        anim_strbuf_free(&params);
        if (rc == 0 || attempt || strcmp(fault->kind, "checkpoint_required") != 0)
            return rc;
        anim_strbuf ignored = ANIM_STRBUF_INIT;
        anim_model_fault_free(fault);
        anim_model_fault_init(fault);
        rc = anim_model_history(host, document, &head, "checkpoint", &ignored, fault);
        anim_strbuf_free(&ignored);
        if (rc)
            return rc;
    }
    return -1;
}

/* A host holding the journal's document with every batch applied; the
 * params sent for the batch whose request id is capture_id (may be NULL)
 * go into captured. */
static anim_model_host *replay(const journal *j, int *rc, const char *capture_id,
                               anim_strbuf *captured)
{
    anim_model_host *host = model_host_start(NULL);
    if (!host) {
        *rc = EXIT_OPERATOR;
        return NULL;
    }
    anim_model_fault fault;
    anim_model_fault_init(&fault);
    anim_model_head head;
    if (anim_model_open(host, j->document, &head, &fault)) {
        *rc = cli_operator_error("%s: %s", j->path, fault.message);
        goto fail;
    }
    anim_strbuf reply = ANIM_STRBUF_INIT;
    for (size_t b = 0; b < j->batch_count; b++) {
        const anim_json_value *batch = anim_json_item(j->batches, b);
        const anim_json_value *rid = anim_json_get(batch, "request_id");
        char *id = anim_json_strdup(j->arena, rid);
        if (!id) {
            *rc = cli_operator_error("out of memory");
            anim_strbuf_free(&reply);
            goto fail;
        }
        bool capture = capture_id && strcmp(capture_id, id) == 0;
        if (apply_ops(host, j->document, id, anim_json_get(batch, "operations"), j->text, &reply,
                      &fault, capture ? captured : NULL)) {
            *rc = cli_operator_error("%s: batch %zu (request id \"%s\") no longer applies: %s",
                                     j->path, b, id, fault.message);
            anim_strbuf_free(&reply);
            goto fail;
        }
    }
    anim_strbuf_free(&reply);
    anim_model_fault_free(&fault);
    return host;
fail:
    anim_model_fault_free(&fault);
    anim_model_host_free(host);
    return NULL;
}

static void print_line(const anim_strbuf *reply)
{
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_strbuf_append(&out, reply->data ? reply->data : "", reply->len);
    anim_strbuf_putc(&out, '\n');
    cli_deliver(&out);
    anim_strbuf_free(&out);
}

/* The journal with one more batch, pretty-printed. */
static int journal_write(const journal *j, const char *request_id, const anim_json_value *ops,
                         const char *ops_text)
{
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &out, true);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "format");
    anim_json_writer_string(&w, JOURNAL_FORMAT);
    anim_json_writer_key(&w, "version");
    anim_json_writer_uint(&w, 1);
    anim_json_writer_key(&w, "document");
    anim_json_writer_string(&w, j->document);
    anim_json_writer_key(&w, "batches");
    anim_json_writer_begin_array(&w);
    for (size_t b = 0; b < j->batch_count; b++)
        model_json_copy(&w, anim_json_item(j->batches, b), j->text);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "request_id");
    anim_json_writer_string(&w, request_id);
    anim_json_writer_key(&w, "operations");
    model_json_copy(&w, ops, ops_text);
    anim_json_writer_end_object(&w);
    anim_json_writer_end_array(&w);
    anim_json_writer_end_object(&w);
    anim_strbuf_putc(&out, '\n');
    int rc = 0;
    anim_error err;
    anim_error_clear(&err);
    if (!anim_json_writer_ok(&w) || out.failed)
        rc = cli_operator_error("%s: out of memory while writing the journal", j->path);
    else if (anim_write_file_atomic(j->path, out.data, out.len, &err))
        rc = cli_operator_error("%s", err.message);
    anim_strbuf_free(&out);
    return rc;
}

/* Whether reply (an apply reply) says "replayed": true. */
static bool replayed(const anim_strbuf *reply, anim_arena *arena)
{
    anim_error err;
    anim_error_clear(&err);
    const anim_json_value *v =
        reply->data ? anim_json_parse(arena, reply->data, reply->len, NULL, &err) : NULL;
    const anim_json_value *r = v ? anim_json_get(v, "replayed") : NULL;
    return r && r->type == ANIM_JSON_TRUE;
}

int model_journal_apply(const char *doc_path, const char *batch_path, const char *request_id)
{
    journal j;
    int rc = journal_load(&j, doc_path, true);
    if (rc) {
        journal_free(&j);
        return rc;
    }
    anim_model_limits limits;
    anim_model_limits_default(&limits);
    size_t len = 0;
    size_t max = limits.max_transaction_bytes > SIZE_MAX - 1 ? SIZE_MAX - 1
                                                              : (size_t)limits.max_transaction_bytes;
    const char *label = strcmp(batch_path, "-") ? batch_path : "stdin";
    char *text = read_bytes(batch_path, max, j.arena, &len, NULL);
    if (!text) {
        journal_free(&j);
        return EXIT_OPERATOR;
    }
    anim_error err;
    anim_error_clear(&err);
    const anim_json_value *ops = anim_json_parse(j.arena, text, len, NULL, &err);
    if (!ops) {
        journal_free(&j);
        return cli_operator_error("%s: not a batch: %s", label, err.message);
    }
    if (ops->type != ANIM_JSON_ARRAY) {
        journal_free(&j);
        return cli_operator_error("%s: not a batch: a batch is a JSON array of operation "
                                  "objects",
                                  label);
    }
    char *id = request_id ? anim_arena_strdup(j.arena, request_id)
                          : anim_arena_printf(j.arena, "batch-%zu", j.batch_count + 1);
    if (!id) {
        journal_free(&j);
        return cli_operator_error("out of memory");
    }
    /* A request id the journal holds already is a retry: the same
     * operations replay that batch's reply, other ones are refused. */
    const anim_json_value *earlier = NULL;
    size_t earlier_index = 0;
    for (size_t b = 0; b < j.batch_count && !earlier; b++) {
        const anim_json_value *batch = anim_json_item(j.batches, b);
        if (anim_json_string_eq(anim_json_get(batch, "request_id"), id)) {
            earlier = anim_json_get(batch, "operations");
            earlier_index = b;
        }
    }
    if (earlier) {
        anim_strbuf a = ANIM_STRBUF_INIT, b = ANIM_STRBUF_INIT;
        anim_json_writer wa, wb;
        anim_json_writer_init(&wa, &a, false);
        anim_json_writer_init(&wb, &b, false);
        model_json_copy(&wa, earlier, j.text);
        model_json_copy(&wb, ops, text);
        bool same = !a.failed && !b.failed && a.len == b.len && memcmp(a.data, b.data, a.len) == 0;
        anim_strbuf_free(&a);
        anim_strbuf_free(&b);
        if (!same) {
            /* The id may live in the journal's arena: report before freeing it. */
            int refused = cli_operator_error("%s: request id \"%s\" was used by batch %zu with "
                                             "other operations",
                                             doc_path, id, earlier_index);
            journal_free(&j);
            return refused;
        }
    }
    anim_strbuf sent = ANIM_STRBUF_INIT;
    anim_model_host *host = replay(&j, &rc, earlier ? id : NULL, &sent);
    if (!host) {
        anim_strbuf_free(&sent);
        journal_free(&j);
        return rc;
    }
    anim_strbuf reply = ANIM_STRBUF_INIT;
    anim_model_fault fault;
    anim_model_fault_init(&fault);
    int applied = earlier ? anim_model_call_text(host, "model.apply", sent.data ? sent.data : "",
                                                 sent.len, &reply, &fault)
                          : apply_ops(host, j.document, id, ops, text, &reply, &fault, NULL);
    anim_strbuf_free(&sent);
    if (applied) {
        rc = cli_operator_error("%s: %s", doc_path, fault.message);
    } else if (reply.failed) {
        rc = cli_operator_error("out of memory");
    } else {
        /* A replayed request is in the journal already. */
        rc = replayed(&reply, j.arena) ? 0 : journal_write(&j, id, ops, text);
        if (rc == 0)
            print_line(&reply);
    }
    anim_model_fault_free(&fault);
    anim_strbuf_free(&reply);
    anim_model_host_free(host);
    journal_free(&j);
    return rc;
}

int model_journal_inspect(const char *doc_path, const char *object, const char *domain,
                          bool has_offset, uint64_t offset, bool has_limit, uint64_t limit)
{
    journal j;
    int rc = journal_load(&j, doc_path, false);
    anim_model_host *host = rc ? NULL : replay(&j, &rc, NULL, NULL);
    if (!host) {
        journal_free(&j);
        return rc;
    }
    anim_strbuf params = ANIM_STRBUF_INIT, reply = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &params, false);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "document");
    anim_json_writer_string(&w, j.document);
    if (object) {
        anim_json_writer_key(&w, "object");
        anim_json_writer_string(&w, object);
    }
    anim_json_writer_key(&w, "domain");
    anim_json_writer_string(&w, domain);
    if (has_offset) {
        anim_json_writer_key(&w, "offset");
        anim_json_writer_uint(&w, offset);
    }
    if (has_limit) {
        anim_json_writer_key(&w, "limit");
        anim_json_writer_uint(&w, limit);
    }
    anim_json_writer_end_object(&w);
    anim_model_fault fault;
    anim_model_fault_init(&fault);
    if (!anim_json_writer_ok(&w))
        rc = cli_operator_error("out of memory");
    else if (anim_model_call_text(host, "model.inspect", params.data, params.len, &reply, &fault))
        rc = cli_operator_error("%s: %s", doc_path, fault.message);
    else if (reply.failed)
        rc = cli_operator_error("out of memory");
    else
        print_line(&reply);
    anim_model_fault_free(&fault);
    anim_strbuf_free(&params);
    anim_strbuf_free(&reply);
    anim_model_host_free(host);
    journal_free(&j);
    return rc;
}

/* Whether a compile refusal came from the linter's verdict on the GLB (a
 * finding of error severity) rather than from the document itself. */
static bool refused_by_lint(const anim_model_fault *f)
{
    return strcmp(f->kind, "compile_refused") == 0 && f->data.data &&
           strstr(f->data.data, "\"finding\"") != NULL;
}

int model_journal_compile(const char *doc_path, const char *out, bool preview)
{
    journal j;
    int rc = journal_load(&j, doc_path, false);
    anim_model_host *host = rc ? NULL : replay(&j, &rc, NULL, NULL);
    if (!host) {
        journal_free(&j);
        return rc;
    }
    anim_model_fault fault;
    anim_model_fault_init(&fault);
    anim_model_head head;
    anim_strbuf glb = ANIM_STRBUF_INIT;
    anim_error err;
    anim_error_clear(&err);
    if (anim_model_get_head(host, j.document, &head, &fault) ||
        anim_model_compile(host, j.document, &head, preview, &glb, &fault)) {
        cli_operator_error("%s: %s", doc_path, fault.message);
        rc = refused_by_lint(&fault) ? EXIT_FINDINGS : EXIT_OPERATOR;
    } else if (glb.failed) {
        rc = cli_operator_error("out of memory");
    } else if (anim_write_file_atomic(out, glb.data, glb.len, &err)) {
        rc = cli_operator_error("%s", err.message);
    } else {
        anim_strbuf line = ANIM_STRBUF_INIT;
        anim_json_writer w;
        anim_json_writer_init(&w, &line, false);
        anim_json_writer_begin_object(&w);
        anim_json_writer_key(&w, "output");
        anim_json_writer_string(&w, out);
        anim_json_writer_key_uint(&w, "bytes", glb.len);
        anim_json_writer_key(&w, "preview");
        anim_json_writer_bool(&w, preview);
        anim_json_writer_key(&w, "head");
        head_write(&w, &head);
        anim_json_writer_end_object(&w);
        print_line(&line);
        anim_strbuf_free(&line);
    }
    anim_strbuf_free(&glb);
    anim_model_fault_free(&fault);
    anim_model_host_free(host);
    journal_free(&j);
    return rc;
}
