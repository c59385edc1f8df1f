/* libFuzzer entry for saved model documents and stored sources: the input
 * is read as saved bytes (from_bytes), as a snapshot (a stored source) and
 * as a canonical document encoding, and then used as a patch over a valid
 * saved document (pairs of offset and XOR byte), so mutations also land
 * just beside valid bytes, where a reader is most likely to trust a field.
 * Whatever loads must save again to exactly the bytes it came from; what
 * is refused must be refused with a kind and a one-line message. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/json.h"
#include "model/mdl_canon.h"
#include "model/mdl_decode.h"
#include "model/mdl_receipts.h"
#include "model/mdl_session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static anim_model_limits limits;
static anim_strbuf valid = ANIM_STRBUF_INIT;

static const char *const batches[] = {
    "[{\"op\":\"cube\",\"object\":\"body\",\"size\":[0.5,1,0.25]},"
    "{\"op\":\"material\",\"material\":1,\"color\":[0.8,0.1,0.1]}]",
    "[{\"op\":\"skeleton\",\"joints\":[{\"name\":\"root\",\"parent\":null,\"translation\":[0,0,0]},"
    "{\"name\":\"spine\",\"parent\":0,\"translation\":[0,0.5,0]}]},"
    "{\"op\":\"auto_weights\",\"object\":\"body\"}]",
    "[{\"op\":\"clip\",\"name\":\"idle\",\"channels\":[{\"joint\":1,\"path\":\"rotation\","
    "\"keys\":[{\"time\":0,\"value\":[0,0,0,1]},{\"time\":1,\"value\":[0,0.6,0,0.8]}]}]}]",
};

/* A small saved document with history and receipts, built once. */
static void build_valid(void)
{
    anim_model_limits_default(&limits);
    limits.max_work_units = 5000000; /* keeps hostile replays short */
    mdl_session *s = mdl_session_new("f", &limits);
    if (!s)
        __builtin_trap();
    for (size_t i = 0; i < sizeof batches / sizeof *batches; i++) {
        anim_model_head h;
        mdl_session_head(s, &h);
        char params[1024];
        snprintf(params, sizeof params,
                 "{\"document\":\"f\",\"request_id\":\"r%zu\",\"expected\":{\"generation\":"
                 "\"%llu\",\"content\":\"%s\"},\"operations\":%s}",
                 i, (unsigned long long)h.generation, h.content, batches[i]);
        anim_arena *arena = anim_arena_new();
        anim_error err;
        anim_error_clear(&err);
        anim_json_value *v = anim_json_parse(arena, params, strlen(params), NULL, &err);
        anim_strbuf reply = ANIM_STRBUF_INIT;
        anim_model_fault f;
        anim_model_fault_init(&f);
        if (!v || mdl_session_apply(s, v, strlen(params), NULL, &reply, &f) != 0)
            __builtin_trap();
        anim_model_fault_free(&f);
        anim_strbuf_free(&reply);
        anim_arena_free(arena);
    }
    if (mdl_session_to_bytes(s, &valid) != 0)
        __builtin_trap();
    mdl_session_free(s);
}

static void refusal_ok(const anim_model_fault *f)
{
    if (!f->kind[0] || !f->message[0] || strchr(f->message, '\n'))
        __builtin_trap();
}

static void try_saved(const uint8_t *p, size_t n)
{
    anim_model_fault f;
    anim_model_fault_init(&f);
    mdl_session *s = mdl_session_from_bytes("f", &limits, p, n, NULL, &f);
    if (s) {
        anim_strbuf again = ANIM_STRBUF_INIT;
        if (mdl_session_to_bytes(s, &again) != 0 || again.len != n || memcmp(again.data, p, n))
            __builtin_trap();
        anim_strbuf_free(&again);
        mdl_session_free(s);
    } else {
        refusal_ok(&f);
    }
    anim_model_fault_free(&f);
}

static void try_source(const uint8_t *p, size_t n)
{
    anim_model_fault f;
    anim_model_fault_init(&f);
    mdl_session *s = mdl_session_from_snapshot("f", &limits, p, n, &f);
    if (s) {
        anim_strbuf again = ANIM_STRBUF_INIT;
        if (mdl_session_to_snapshot_bytes(s, &again) != 0 || again.len != n ||
            memcmp(again.data, p, n))
            __builtin_trap();
        anim_strbuf_free(&again);
        mdl_session_free(s);
    } else {
        refusal_ok(&f);
    }
    anim_model_fault_free(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!valid.len)
        build_valid();
    if (size > 1 << 20)
        return 0;
    try_saved(data, size);
    try_source(data, size);
    /* The input as a patch: (offset u16, xor u8) triples over the valid
     * saved bytes, and over its checkpoint-free tail. */
    uint8_t *patched = malloc(valid.len);
    if (!patched)
        return 0;
    memcpy(patched, valid.data, valid.len);
    for (size_t i = 0; i + 3 <= size; i += 3) {
        size_t at = ((size_t)data[i] | (size_t)data[i + 1] << 8) % valid.len;
        patched[at] ^= data[i + 2] ? data[i + 2] : 1;
    }
    try_saved(patched, valid.len);
    /* A cut at an input-chosen length. */
    if (size >= 2)
        try_saved(patched, ((size_t)data[0] | (size_t)data[1] << 8) % (valid.len + 1));
    free(patched);
    return 0;
}
