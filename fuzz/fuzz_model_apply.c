/* libFuzzer entry for the model engine's untrusted JSON: the input is the
 * operations of a model.apply on a fresh document (first as the whole
 * params text, then spliced into a well-formed envelope at the right
 * head, so the bytes reach the operation validators), followed by a
 * model.inspect with the input as params and one page of every domain.
 * Each call must either succeed or refuse with a kind and a one-line
 * message; a refused apply must leave the head unchanged, and no reply may
 * exceed the reply cap. One host serves every input (its worker thread is
 * started once); each input opens and closes its own document. */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/model.h"
#include "animsmith/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static anim_model_host *host;

static int call(const char *method, const char *params, size_t len, anim_strbuf *reply)
{
    anim_model_fault f;
    anim_model_fault_init(&f);
    anim_strbuf_reset(reply);
    int rc = anim_model_call_text(host, method, params, len, reply, &f);
    if (rc == 0 && reply->len > 12288 && strcmp(method, "model.inspect") == 0)
        __builtin_trap();
    if (rc != 0 && (!f.kind[0] || !f.message[0] || strchr(f.message, '\n')))
        __builtin_trap();
    anim_model_fault_free(&f);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!host) {
        anim_model_host_options opts;
        memset(&opts, 0, sizeof opts);
        anim_model_limits_default(&opts.limits);
        /* Small enough that the fuzzer reaches the limits, too. */
        opts.limits.max_work_units = 2000000;
        opts.limits.max_objects = 8;
        anim_error err;
        anim_error_clear(&err);
        host = anim_model_host_new(&opts, &err);
        if (!host)
            __builtin_trap();
    }
    if (size > 1 << 16)
        return 0;
    anim_model_fault f;
    anim_model_fault_init(&f);
    anim_model_head head, after;
    if (anim_model_open(host, "f", &head, &f) != 0)
        __builtin_trap();
    anim_strbuf reply = ANIM_STRBUF_INIT, params = ANIM_STRBUF_INIT;
    (void)call("model.apply", (const char *)data, size, &reply);
    anim_strbuf_printf(&params,
                       "{\"document\":\"f\",\"request_id\":\"q\",\"expected\":{\"generation\":\"%" PRIu64
                       "\",\"content\":\"%s\"},\"operations\":",
                       head.generation, head.content);
    anim_strbuf_append(&params, data, size);
    anim_strbuf_putc(&params, '}');
    if (anim_model_get_head(host, "f", &head, &f) != 0)
        __builtin_trap();
    int rc = params.failed ? -1 : call("model.apply", params.data, params.len, &reply);
    if (anim_model_get_head(host, "f", &after, &f) != 0)
        __builtin_trap();
    if (rc != 0 && (after.generation != head.generation || strcmp(after.content, head.content)))
        __builtin_trap();
    (void)call("model.inspect", (const char *)data, size, &reply);
    static const char *const pages[] = {
        "{\"document\":\"f\",\"domain\":\"overview\"}",
        "{\"document\":\"f\",\"domain\":\"objects\",\"limit\":128}",
        "{\"document\":\"f\",\"domain\":\"materials\"}",
        "{\"document\":\"f\",\"object\":\"a\",\"domain\":\"overview\"}",
        "{\"document\":\"f\",\"object\":\"a\",\"domain\":\"vertices\",\"limit\":128}",
        "{\"document\":\"f\",\"object\":\"a\",\"domain\":\"faces\",\"limit\":128}",
        "{\"document\":\"f\",\"object\":\"a\",\"domain\":\"corners\",\"limit\":128}",
        "{\"document\":\"f\",\"object\":\"a\",\"domain\":\"edges\",\"limit\":128}",
        "{\"document\":\"f\",\"object\":\"a\",\"domain\":\"solid\"}",
    };
    for (size_t i = 0; i < sizeof pages / sizeof *pages; i++)
        (void)call("model.inspect", pages[i], strlen(pages[i]), &reply);
    if (anim_model_close(host, "f", &after, &f) != 0)
        __builtin_trap();
    anim_model_fault_free(&f);
    anim_strbuf_free(&reply);
    anim_strbuf_free(&params);
    return 0;
}
