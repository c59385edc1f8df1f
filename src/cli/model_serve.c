/* `animsmith model serve [--mcp]`: JSON-RPC 2.0 over stdio, one JSON
 * object per line in, one compact reply per line out. The envelope is
 * checked here (parse -32700; not an object, bad jsonrpc, missing method
 * or a bad id -32600; params not an object -32602); everything else is the
 * engine's answer through anim_model_call, its faults carried as
 * {"code","message","data":{"kind",...}}. The server keeps serving after
 * any error and stops at EOF.
 *
 * A line is bounded by the largest transaction the host admits plus room
 * for the envelope: a longer line is refused as it streams past, never
 * held in memory whole. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "animsmith/arena.h"
#include "animsmith/json.h"
#include "animsmith/json_write.h"
#include "animsmith/model.h"
#include "animsmith/strbuf.h"
#include "model_cli.h"

/* The JSON-RPC envelope around the largest params object. */
#define LINE_SLACK ((size_t)64 * 1024)
#define READ_CHUNK ((size_t)64 * 1024)

/* A buffered line reader that can drop the rest of an overlong line. */
typedef struct {
    int fd;
    char buf[READ_CHUNK];
    size_t at, len;
    bool eof;
} line_reader;

typedef enum { LINE_OK, LINE_TOO_LONG, LINE_EOF, LINE_NOMEM } line_status;

static bool fill(line_reader *r)
{
    if (r->at < r->len)
        return true;
    if (r->eof)
        return false;
    r->at = 0;
    r->len = 0;
    /* read(), not fread(): a client waits for each reply before it sends
     * the next line, so a read must return what has arrived. */
    for (;;) {
        ssize_t got = read(r->fd, r->buf, sizeof r->buf);
        if (got > 0) {
            r->len = (size_t)got;
            return true;
        }
        if (got < 0 && errno == EINTR)
            continue;
        r->eof = true;
        return false;
    }
}

/* The next line (without its newline) into line, at most max bytes; a
 * longer line is consumed to its newline and reported as LINE_TOO_LONG. */
static line_status read_line(line_reader *r, anim_strbuf *line, size_t max)
{
    anim_strbuf_reset(line);
    bool any = false, too_long = false;
    while (fill(r)) {
        any = true;
        const char *start = r->buf + r->at;
        size_t avail = r->len - r->at;
        const char *nl = memchr(start, '\n', avail);
        size_t take = nl ? (size_t)(nl - start) : avail;
        if (!too_long && take > max - line->len)
            too_long = true;
        if (too_long)
            anim_strbuf_reset(line);
        else
            anim_strbuf_append(line, start, take);
        r->at += take + (nl ? 1 : 0);
        if (line->failed)
            return LINE_NOMEM;
        if (nl)
            return too_long ? LINE_TOO_LONG : LINE_OK;
    }
    if (!any)
        return LINE_EOF;
    return too_long ? LINE_TOO_LONG : LINE_OK;
}

void model_json_copy(anim_json_writer *w, const anim_json_value *v, const char *text)
{
    switch ((anim_json_type)v->type) {
    case ANIM_JSON_NULL:
        anim_json_writer_null(w);
        break;
    case ANIM_JSON_FALSE:
        anim_json_writer_bool(w, false);
        break;
    case ANIM_JSON_TRUE:
        anim_json_writer_bool(w, true);
        break;
    case ANIM_JSON_NUMBER:
        anim_json_writer_raw(w, anim_json_number_text(v, text), v->len);
        break;
    case ANIM_JSON_STRING:
        anim_json_writer_string_n(w, anim_json_string(v), anim_json_string_len(v));
        break;
    case ANIM_JSON_ARRAY:
        anim_json_writer_begin_array(w);
        for (size_t i = 0; i < anim_json_count(v); i++)
            model_json_copy(w, anim_json_item(v, i), text);
        anim_json_writer_end_array(w);
        break;
    case ANIM_JSON_OBJECT:
        anim_json_writer_begin_object(w);
        for (size_t i = 0; i < anim_json_count(v); i++) {
            const anim_json_member *m = anim_json_member_at(v, i);
            anim_json_writer_key_n(w, m->key, anim_json_key_len(m));
            model_json_copy(w, &m->value, text);
        }
        anim_json_writer_end_object(w);
        break;
    }
}

void model_fault_write(anim_json_writer *w, const anim_model_fault *fault)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "code");
    anim_json_writer_int(w, fault->code);
    anim_json_writer_key(w, "message");
    anim_json_writer_string(w, fault->message);
    anim_json_writer_key(w, "data");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "kind");
    anim_json_writer_string(w, fault->kind);
    if (fault->data.len && fault->data.data) {
        anim_arena *arena = anim_arena_new();
        anim_error err;
        anim_error_clear(&err);
        const anim_json_value *data =
            arena ? anim_json_parse(arena, fault->data.data, fault->data.len, NULL, &err) : NULL;
        for (size_t i = 0; data && data->type == ANIM_JSON_OBJECT && i < anim_json_count(data);
             i++) {
            const anim_json_member *m = anim_json_member_at(data, i);
            if (anim_json_key_len(m) == 4 && memcmp(m->key, "kind", 4) == 0)
                continue;
            anim_json_writer_key_n(w, m->key, anim_json_key_len(m));
            model_json_copy(w, &m->value, fault->data.data);
        }
        anim_arena_free(arena);
    }
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
}

/* A JSON-RPC error reply built from a code, kind and message. */
static void error_reply(anim_strbuf *reply, const char *id_json, int code, const char *kind,
                        const char *message)
{
    anim_model_fault f;
    anim_model_fault_init(&f);
    f.code = code;
    snprintf(f.kind, sizeof f.kind, "%s", kind);
    snprintf(f.message, sizeof f.message, "%s", message);
    anim_strbuf_puts(reply, "{\"jsonrpc\":\"2.0\",\"id\":");
    anim_strbuf_puts(reply, id_json ? id_json : "null");
    anim_strbuf_puts(reply, ",\"error\":");
    anim_json_writer w;
    anim_json_writer_init(&w, reply, false);
    model_fault_write(&w, &f);
    anim_strbuf_putc(reply, '}');
    anim_model_fault_free(&f);
}

/* One model.* / world.api call, answered as JSON-RPC. */
static void rpc_call(anim_model_host *host, const char *method, const anim_json_value *params,
                     const char *id_json, anim_strbuf *reply)
{
    anim_strbuf result = ANIM_STRBUF_INIT;
    anim_model_fault fault;
    anim_model_fault_init(&fault);
    int rc = anim_model_call(host, method, params, &result, &fault);
    if (id_json) {
        anim_strbuf_puts(reply, "{\"jsonrpc\":\"2.0\",\"id\":");
        anim_strbuf_puts(reply, id_json);
        if (rc == 0 && !result.failed) {
            anim_strbuf_puts(reply, ",\"result\":");
            anim_strbuf_append(reply, result.data ? result.data : "null",
                               result.data ? result.len : 4);
        } else {
            if (rc == 0) {
                fault.code = ANIM_MODEL_E_INTERNAL;
                snprintf(fault.kind, sizeof fault.kind, "out_of_memory");
                snprintf(fault.message, sizeof fault.message, "out of memory");
            }
            anim_strbuf_puts(reply, ",\"error\":");
            anim_json_writer w;
            anim_json_writer_init(&w, reply, false);
            model_fault_write(&w, &fault);
        }
        anim_strbuf_putc(reply, '}');
    }
    anim_strbuf_free(&result);
    anim_model_fault_free(&fault);
}

/* The id as JSON text into id (NUL-terminated), or false when v is not a
 * valid id (a string, a number or null). */
static bool id_text(const anim_json_value *v, const char *text, anim_strbuf *id)
{
    if (v->type == ANIM_JSON_STRING)
        anim_json_escape_string(id, anim_json_string(v), anim_json_string_len(v));
    else if (v->type == ANIM_JSON_NUMBER)
        anim_strbuf_append(id, anim_json_number_text(v, text), v->len);
    else if (v->type == ANIM_JSON_NULL)
        anim_strbuf_puts(id, "null");
    else
        return false;
    return !id->failed;
}

static bool blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return false;
    return true;
}

/* One request line: its reply (nothing for a notification) into reply. */
static void handle_line(anim_model_host *host, const char *text, size_t len, bool mcp,
                        anim_strbuf *reply)
{
    if (blank(text, len))
        return;
    anim_arena *arena = anim_arena_new();
    if (!arena) {
        error_reply(reply, NULL, ANIM_MODEL_E_INTERNAL, "out_of_memory", "out of memory");
        return;
    }
    anim_error err;
    anim_error_clear(&err);
    anim_json_limits lim = {0, len + 1};
    const anim_json_value *req = anim_json_parse(arena, text, len, &lim, &err);
    anim_strbuf id = ANIM_STRBUF_INIT;
    if (!req) {
        char msg[1200];
        snprintf(msg, sizeof msg, "Parse error: %s", err.message);
        error_reply(reply, NULL, ANIM_MODEL_E_PARSE, "parse_error", msg);
        goto done;
    }
    if (req->type != ANIM_JSON_OBJECT) {
        error_reply(reply, NULL, ANIM_MODEL_E_INVALID_REQUEST, "invalid_request",
                    "Invalid Request: a request is one JSON object (batches are not "
                    "accepted)");
        goto done;
    }
    const anim_json_value *idv = anim_json_get(req, "id");
    if (idv && !id_text(idv, text, &id)) {
        error_reply(reply, NULL, ANIM_MODEL_E_INVALID_REQUEST, "invalid_request",
                    "Invalid Request: id must be a string, a number or null");
        goto done;
    }
    const char *id_json = idv ? id.data : NULL;
    const anim_json_value *ver = anim_json_get(req, "jsonrpc");
    if (!ver || !anim_json_string_eq(ver, "2.0")) {
        error_reply(reply, id_json, ANIM_MODEL_E_INVALID_REQUEST, "invalid_request",
                    "Invalid Request: jsonrpc must be \"2.0\"");
        goto done;
    }
    const anim_json_value *mv = anim_json_get(req, "method");
    char *method = mv ? anim_json_strdup(arena, mv) : NULL;
    if (!method || strlen(method) != anim_json_string_len(mv)) {
        error_reply(reply, id_json, ANIM_MODEL_E_INVALID_REQUEST, "invalid_request",
                    "Invalid Request: method must be a string");
        goto done;
    }
    for (size_t i = 0; i < anim_json_count(req); i++) {
        const anim_json_member *m = anim_json_member_at(req, i);
        static const char *const known[] = {"jsonrpc", "id", "method", "params"};
        bool ok = false;
        for (size_t k = 0; k < 4 && !ok; k++)
            ok = anim_json_key_len(m) == strlen(known[k]) &&
                 memcmp(m->key, known[k], anim_json_key_len(m)) == 0;
        if (!ok) {
            error_reply(reply, id_json, ANIM_MODEL_E_INVALID_REQUEST, "invalid_request",
                        "Invalid Request: members are jsonrpc, id, method and params only");
            goto done;
        }
    }
    const anim_json_value *params = anim_json_get(req, "params");
    if (params && params->type != ANIM_JSON_OBJECT) {
        char msg[256];
        snprintf(msg, sizeof msg, "Invalid params: %s params must be an object",
                 strlen(method) < 64 ? method : "the");
        error_reply(reply, id_json, ANIM_MODEL_E_PARAMS, "invalid_params", msg);
        goto done;
    }
    if (mcp)
        model_mcp_handle(host, method, params, text, id_json, reply);
    else
        rpc_call(host, method, params, id_json, reply);
done:
    anim_strbuf_free(&id);
    anim_arena_free(arena);
}

int model_serve(anim_model_host *host, FILE *in, FILE *out, bool mcp)
{
    anim_model_limits limits;
    anim_model_limits_default(&limits);
    size_t max = (size_t)limits.max_transaction_bytes;
    max = max > SIZE_MAX - LINE_SLACK ? SIZE_MAX : max + LINE_SLACK;
    line_reader *r = calloc(1, sizeof *r);
    if (!r)
        return cli_operator_error("model serve: out of memory");
    r->fd = fileno(in);
    anim_strbuf line = ANIM_STRBUF_INIT, reply = ANIM_STRBUF_INIT;
    int rc = EXIT_CLEAN;
    for (;;) {
        line_status st = read_line(r, &line, max);
        if (st == LINE_EOF)
            break;
        anim_strbuf_reset(&reply);
        if (st == LINE_TOO_LONG) {
            char msg[256];
            snprintf(msg, sizeof msg,
                     "request line longer than max_transaction_bytes (%llu) plus %zu bytes of "
                     "envelope: refused unread",
                     (unsigned long long)limits.max_transaction_bytes, LINE_SLACK);
            error_reply(&reply, NULL, ANIM_MODEL_E_LIMIT, "limit_exceeded", msg);
        } else if (st == LINE_NOMEM) {
            error_reply(&reply, NULL, ANIM_MODEL_E_INTERNAL, "out_of_memory",
                        "out of memory while reading the request");
            anim_strbuf_free(&line);
        } else {
            handle_line(host, line.data ? line.data : "", line.len, mcp, &reply);
        }
        if (reply.failed) {
            anim_strbuf_reset(&reply);
            error_reply(&reply, NULL, ANIM_MODEL_E_INTERNAL, "out_of_memory",
                        "out of memory while writing the reply");
        }
        /* A near-limit request must not keep its buffer for the session. */
        if (line.cap > READ_CHUNK * 16)
            anim_strbuf_free(&line);
        if (reply.len) {
            anim_strbuf_putc(&reply, '\n');
            if (fwrite(reply.data, 1, reply.len, out) != reply.len || fflush(out) != 0) {
                rc = cli_operator_error("model serve: could not write to stdout: %s",
                                        strerror(errno));
                break;
            }
        }
    }
    anim_strbuf_free(&line);
    anim_strbuf_free(&reply);
    free(r);
    return rc;
}
