/* `animsmith model serve --mcp`: the Model Context Protocol over its stdio
 * transport (newline-delimited JSON-RPC 2.0; model_serve.c reads the
 * lines and checks the envelope). An agent gets one tool per engine
 * method; each tool's inputSchema is that method's params schema from
 * anim_model_api_schema, the table the validator itself enforces, so what
 * an agent is told and what the engine accepts cannot drift apart.
 *
 * Per MCP, an engine refusal is a tool result with isError true (the agent
 * reads it and corrects its call); only a malformed protocol request (an
 * unknown tool, bad arguments type) is a JSON-RPC error. */
#include <stdio.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/json.h"
#include "animsmith/json_write.h"
#include "animsmith/model.h"
#include "animsmith/strbuf.h"
#include "animsmith_version.h"
#include "model_cli.h"

/* Protocol revisions we speak, newest first: a client asking for one of
 * them gets it back; any other gets the newest. The stdio transport and
 * tools/list|call are the same in all of them. */
static const char *const protocol_versions[] = {"2025-11-25", "2025-06-18", "2025-03-26",
                                                "2024-11-05"};
#define PROTOCOL_COUNT (sizeof protocol_versions / sizeof *protocol_versions)

typedef struct {
    const char *tool;
    const char *method;
    const char *description; /* used when the schema carries none */
} mcp_tool;

static const mcp_tool tools[] = {
    {"model_open", "model.open",
     "Create an empty document by name, or open an alias's stored source; replies with its head {generation, content}, which "
     "every mutation must pass back as expected."},
    {"model_apply", "model.apply",
     "Apply one batch of operations (cube, extrude, transform, material, ...) atomically "
     "against the expected head: all or nothing; replies with result rows, selections and "
     "the new head. Repeating a request_id with the same payload replays the original reply."},
    {"model_inspect", "model.inspect",
     "Read one bounded page (at most 12 KiB) of a document domain (overview, objects, "
     "materials, joints, clips, clip_keys) or of an object (overview, vertices, faces, "
     "corners, edges, weights); follow next_offset until null."},
    {"model_history", "model.history",
     "Undo, redo or checkpoint (discard undo/redo history) against the expected head; the "
     "generation always advances."},
    {"model_job", "model.job", "Query an accepted job by its id: state and, when done, result."},
    {"model_cancel", "model.cancel",
     "Request cancellation of an accepted job: queued jobs are removed, running ones stop at a "
     "checkpoint."},
    {"model_close", "model.close", "Release an open document (its expected head required)."},
    {"model_compile", "model.compile",
     "Compile the document at the expected head to GLB, checked by the linter before it is "
     "returned; replies with bounds, counts and the GLB."},
    {"model_compile_preview", "model.compile_preview",
     "Compile the static draft at the expected head: meshes, materials and textures at rest, "
     "without skin or animation."},
    {"model_publish", "model.publish",
     "Publish the document at the expected head as a revision of an asset alias (source and "
     "compiled GLB in one transaction); pass the alias head or null for a new alias; replies "
     "with a job to follow with model_job."},
    {"model_revisions", "model.revisions",
     "List an alias's revisions: asset, kind, revision, alias head and the SHA-256 of source "
     "and GLB."},
    {"world_api", "world.api",
     "The operation contracts and method params as JSON Schema: every op, its fields, types "
     "and ranges."},
};
#define TOOL_COUNT (sizeof tools / sizeof *tools)

static void reply_open(anim_strbuf *reply, const char *id_json)
{
    anim_strbuf_puts(reply, "{\"jsonrpc\":\"2.0\",\"id\":");
    anim_strbuf_puts(reply, id_json);
    anim_strbuf_puts(reply, ",\"result\":");
}

static void reply_error(anim_strbuf *reply, const char *id_json, int code, const char *kind,
                        const char *message)
{
    anim_model_fault f;
    anim_model_fault_init(&f);
    f.code = code;
    snprintf(f.kind, sizeof f.kind, "%s", kind);
    snprintf(f.message, sizeof f.message, "%s", message);
    anim_strbuf_puts(reply, "{\"jsonrpc\":\"2.0\",\"id\":");
    anim_strbuf_puts(reply, id_json);
    anim_strbuf_puts(reply, ",\"error\":");
    anim_json_writer w;
    anim_json_writer_init(&w, reply, false);
    model_fault_write(&w, &f);
    anim_strbuf_putc(reply, '}');
    anim_model_fault_free(&f);
}

static void initialize(const anim_json_value *params, const char *id_json, anim_strbuf *reply)
{
    const char *version = protocol_versions[0];
    const anim_json_value *asked = params ? anim_json_get(params, "protocolVersion") : NULL;
    for (size_t i = 0; asked && i < PROTOCOL_COUNT; i++)
        if (anim_json_string_eq(asked, protocol_versions[i]))
            version = protocol_versions[i];
    reply_open(reply, id_json);
    anim_json_writer w;
    anim_json_writer_init(&w, reply, false);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "protocolVersion");
    anim_json_writer_string(&w, version);
    anim_json_writer_key(&w, "capabilities");
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "tools");
    anim_json_writer_begin_object(&w);
    anim_json_writer_end_object(&w);
    anim_json_writer_end_object(&w);
    anim_json_writer_key(&w, "serverInfo");
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "name");
    anim_json_writer_string(&w, "animsmith");
    anim_json_writer_key(&w, "version");
    anim_json_writer_string(&w, ANIMSMITH_VERSION_STRING);
    anim_json_writer_end_object(&w);
    anim_json_writer_key(&w, "instructions");
    anim_json_writer_string(&w, "Open a document with model_open, pass its head as expected "
                                "to model_apply, page model_inspect by next_offset, compile "
                                "with model_compile. world_api lists every operation.");
    anim_json_writer_end_object(&w);
    anim_strbuf_putc(reply, '}');
}

/* The schema entry of method: methods may map names to entries or list
 * entries that carry a "name"/"method" member. */
static const anim_json_value *method_entry(const anim_json_value *methods, const char *method)
{
    if (!methods)
        return NULL;
    if (methods->type == ANIM_JSON_OBJECT)
        return anim_json_get(methods, method);
    for (size_t i = 0; methods->type == ANIM_JSON_ARRAY && i < anim_json_count(methods); i++) {
        const anim_json_value *e = anim_json_item(methods, i);
        const anim_json_value *n = anim_json_get(e, "name");
        if (!n)
            n = anim_json_get(e, "method");
        if (n && anim_json_string_eq(n, method))
            return e;
    }
    return NULL;
}

/* The value a local JSON pointer ("#/operations/cube") names in root, or
 * NULL. */
static const anim_json_value *resolve(const anim_json_value *root, const anim_json_value *ref)
{
    const char *p = anim_json_string(ref);
    size_t n = anim_json_string_len(ref);
    if (n < 1 || p[0] != '#')
        return NULL;
    const anim_json_value *v = root;
    size_t at = 1;
    while (v && at < n) {
        if (p[at] != '/')
            return NULL;
        size_t start = ++at;
        while (at < n && p[at] != '/')
            at++;
        char key[128];
        size_t k = 0;
        for (size_t i = start; i < at; i++) {
            char c = p[i];
            if (c == '~' && i + 1 < at && (p[i + 1] == '0' || p[i + 1] == '1'))
                c = p[++i] == '0' ? '~' : '/';
            if (k + 1 >= sizeof key)
                return NULL;
            key[k++] = c;
        }
        v = anim_json_get_n(v, key, k);
    }
    return v;
}

/* A method's params schema as a self-contained inputSchema: the schema
 * document's local references ("#/$defs/head", "#/operation") mean
 * nothing once the schema stands alone in tools/list, so each is replaced
 * by what it names (members beside a $ref win over the target's). */
static void copy_resolved(anim_json_writer *w, const anim_json_value *v,
                          const anim_json_value *root, const char *text, int depth)
{
    if (v->type == ANIM_JSON_ARRAY) {
        anim_json_writer_begin_array(w);
        for (size_t i = 0; i < anim_json_count(v); i++)
            copy_resolved(w, anim_json_item(v, i), root, text, depth);
        anim_json_writer_end_array(w);
        return;
    }
    if (v->type != ANIM_JSON_OBJECT) {
        model_json_copy(w, v, text);
        return;
    }
    const anim_json_value *ref = anim_json_get(v, "$ref");
    const anim_json_value *target =
        ref && ref->type == ANIM_JSON_STRING && depth < 32 ? resolve(root, ref) : NULL;
    anim_json_writer_begin_object(w);
    if (target && target->type == ANIM_JSON_OBJECT) {
        for (size_t i = 0; i < anim_json_count(target); i++) {
            const anim_json_member *m = anim_json_member_at(target, i);
            if (anim_json_get_n(v, m->key, anim_json_key_len(m)))
                continue;
            anim_json_writer_key_n(w, m->key, anim_json_key_len(m));
            copy_resolved(w, &m->value, root, text, depth + 1);
        }
    }
    for (size_t i = 0; i < anim_json_count(v); i++) {
        const anim_json_member *m = anim_json_member_at(v, i);
        if (target && anim_json_key_len(m) == 4 && memcmp(m->key, "$ref", 4) == 0)
            continue;
        anim_json_writer_key_n(w, m->key, anim_json_key_len(m));
        copy_resolved(w, &m->value, root, text, depth + 1);
    }
    anim_json_writer_end_object(w);
}

static void tools_list(const char *id_json, anim_strbuf *reply)
{
    anim_strbuf schema = ANIM_STRBUF_INIT;
    anim_arena *arena = anim_arena_new();
    anim_error err;
    anim_error_clear(&err);
    const anim_json_value *root = NULL;
    if (arena && anim_model_api_schema(&schema) == 0 && !schema.failed && schema.data)
        root = anim_json_parse(arena, schema.data, schema.len, NULL, &err);
    const anim_json_value *methods = root ? anim_json_get(root, "methods") : NULL;
    reply_open(reply, id_json);
    anim_json_writer w;
    anim_json_writer_init(&w, reply, false);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "tools");
    anim_json_writer_begin_array(&w);
    for (size_t t = 0; t < TOOL_COUNT; t++) {
        const anim_json_value *e = method_entry(methods, tools[t].method);
        /* An entry is the params schema itself, or holds it as params. */
        const anim_json_value *ps = e ? anim_json_get(e, "params") : NULL;
        if (!ps && e && anim_json_get(e, "type"))
            ps = e;
        const anim_json_value *desc = e ? anim_json_get(e, "description") : NULL;
        anim_json_writer_begin_object(&w);
        anim_json_writer_key(&w, "name");
        anim_json_writer_string(&w, tools[t].tool);
        anim_json_writer_key(&w, "description");
        if (desc && desc->type == ANIM_JSON_STRING)
            anim_json_writer_string_n(&w, anim_json_string(desc), anim_json_string_len(desc));
        else
            anim_json_writer_string(&w, tools[t].description);
        anim_json_writer_key(&w, "inputSchema");
        if (ps && ps->type == ANIM_JSON_OBJECT) {
            copy_resolved(&w, ps, root, schema.data, 0);
        } else {
            anim_json_writer_begin_object(&w);
            anim_json_writer_key(&w, "type");
            anim_json_writer_string(&w, "object");
            anim_json_writer_end_object(&w);
        }
        anim_json_writer_end_object(&w);
    }
    anim_json_writer_end_array(&w);
    anim_json_writer_end_object(&w);
    anim_strbuf_putc(reply, '}');
    anim_arena_free(arena);
    anim_strbuf_free(&schema);
}

/* A text content block of JSON text. */
static void text_content(anim_strbuf *reply, const char *json, size_t len)
{
    anim_strbuf_puts(reply, "\"content\":[{\"type\":\"text\",\"text\":");
    anim_json_escape_string(reply, json, len);
    anim_strbuf_puts(reply, "}]");
}

static void tools_call(anim_model_host *host, const anim_json_value *params, const char *id_json,
                       anim_strbuf *reply)
{
    const anim_json_value *name = params ? anim_json_get(params, "name") : NULL;
    const mcp_tool *tool = NULL;
    for (size_t t = 0; name && t < TOOL_COUNT; t++)
        if (anim_json_string_eq(name, tools[t].tool))
            tool = &tools[t];
    if (!tool) {
        char msg[256];
        if (name && name->type == ANIM_JSON_STRING && anim_json_string_len(name) < 100)
            snprintf(msg, sizeof msg, "Invalid params: unknown tool \"%.*s\" (see tools/list)",
                     (int)anim_json_string_len(name), anim_json_string(name));
        else
            snprintf(msg, sizeof msg, "Invalid params: tools/call needs a tool name (see "
                                      "tools/list)");
        reply_error(reply, id_json, ANIM_MODEL_E_PARAMS, "unknown_tool", msg);
        return;
    }
    const anim_json_value *args = anim_json_get(params, "arguments");
    if (args && args->type == ANIM_JSON_NULL)
        args = NULL;
    if (args && args->type != ANIM_JSON_OBJECT) {
        reply_error(reply, id_json, ANIM_MODEL_E_PARAMS, "invalid_params",
                    "Invalid params: tools/call arguments must be an object");
        return;
    }
    anim_strbuf result = ANIM_STRBUF_INIT;
    anim_model_fault fault;
    anim_model_fault_init(&fault);
    int rc = anim_model_call(host, tool->method, args, &result, &fault);
    if (rc == 0 && result.failed) {
        rc = -1;
        fault.code = ANIM_MODEL_E_INTERNAL;
        snprintf(fault.kind, sizeof fault.kind, "out_of_memory");
        snprintf(fault.message, sizeof fault.message, "out of memory");
    }
    reply_open(reply, id_json);
    anim_strbuf_putc(reply, '{');
    if (rc == 0) {
        const char *r = result.data ? result.data : "null";
        size_t n = result.data ? result.len : 4;
        text_content(reply, r, n);
        /* structuredContent is an object: every method's result is one. */
        if (n && r[0] == '{') {
            anim_strbuf_puts(reply, ",\"structuredContent\":");
            anim_strbuf_append(reply, r, n);
        }
        anim_strbuf_puts(reply, ",\"isError\":false}");
    } else {
        anim_strbuf text = ANIM_STRBUF_INIT;
        anim_json_writer w;
        anim_json_writer_init(&w, &text, false);
        model_fault_write(&w, &fault);
        text_content(reply, text.data ? text.data : "{}", text.data ? text.len : 2);
        anim_strbuf_puts(reply, ",\"isError\":true}");
        anim_strbuf_free(&text);
    }
    anim_strbuf_putc(reply, '}');
    anim_strbuf_free(&result);
    anim_model_fault_free(&fault);
}

void model_mcp_handle(anim_model_host *host, const char *method, const anim_json_value *params,
                      const char *text, const char *id_json, anim_strbuf *reply)
{
    (void)text;
    /* Notifications (initialized, cancelled, progress) need no answer:
     * every tool call here completes before its reply is written. */
    if (!id_json)
        return;
    if (!strcmp(method, "initialize")) {
        initialize(params, id_json, reply);
    } else if (!strcmp(method, "ping")) {
        reply_open(reply, id_json);
        anim_strbuf_puts(reply, "{}}");
    } else if (!strcmp(method, "tools/list")) {
        tools_list(id_json, reply);
    } else if (!strcmp(method, "tools/call")) {
        tools_call(host, params, id_json, reply);
    } else {
        char msg[256];
        snprintf(msg, sizeof msg, "Method not found: %.100s (this server offers initialize, "
                                  "ping, tools/list and tools/call)",
                 method);
        reply_error(reply, id_json, ANIM_MODEL_E_METHOD, "unknown_method", msg);
    }
}
