/* The persistence self-check (mdl_selfcheck.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/mdl_canon.h"
#include "model/mdl_decode.h"
#include "model/mdl_receipts.h"
#include "model/mdl_selfcheck.h"

/* Saving a long history and replaying it after every edit is quadratic;
 * beyond this many retained batches only the snapshot is checked. */
#define SELFCHECK_MAX_BATCHES 64

static bool enabled(void)
{
    static int state = -1; /* read once; the worker is the only caller */
    if (state < 0) {
        const char *v = getenv("ANIMSMITH_MODEL_SELFCHECK");
        state = v && strcmp(v, "1") == 0;
    }
    return state == 1;
}

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "animsmith: model self-check failed: %s%s%s\n", what, detail ? ": " : "",
            detail ? detail : "");
    abort();
}

void mdl_selfcheck_doc(const mdl_doc *d)
{
    if (!enabled())
        return;
    anim_strbuf a = ANIM_STRBUF_INIT, b = ANIM_STRBUF_INIT;
    char why[400];
    if (mdl_canon_encode(d, &a) != 0)
        die("encoding a document", "out of memory");
    mdl_doc *back = mdl_decode(a.data, a.len, UINT64_MAX, why, sizeof why);
    if (!back)
        die("decoding a document's own encoding", why);
    if (mdl_canon_encode(back, &b) != 0)
        die("encoding a decoded document", "out of memory");
    if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
        die("a decoded document encodes differently", NULL);
    mdl_doc_free(back);
    anim_strbuf_free(&a);
    anim_strbuf_free(&b);
}

void mdl_selfcheck_session(const mdl_session *s)
{
    if (!enabled())
        return;
    anim_model_fault fault;
    anim_model_fault_init(&fault);
    anim_strbuf a = ANIM_STRBUF_INIT, b = ANIM_STRBUF_INIT;
    if (mdl_session_to_snapshot_bytes(s, &a) != 0)
        die("writing a snapshot", "out of memory");
    mdl_session *snap = mdl_session_from_snapshot(s->name, &s->limits, a.data, a.len, &fault);
    if (!snap)
        die("reopening a snapshot", fault.message);
    if (memcmp(snap->head.content, s->head.content, 64) != 0)
        die("a reopened snapshot has another content hash", NULL);
    mdl_session_free(snap);
    anim_strbuf_free(&a);
    if (s->batch_count <= SELFCHECK_MAX_BATCHES) {
        if (mdl_session_to_bytes(s, &a) != 0)
            die("saving a document", "out of memory");
        mdl_session *back = mdl_session_from_bytes(s->name, &s->limits, a.data, a.len, NULL,
                                                   &fault);
        if (!back)
            die("reopening saved bytes", fault.message);
        if (back->head.generation != s->head.generation ||
            memcmp(back->head.content, s->head.content, 64) != 0 || back->cursor != s->cursor)
            die("reopened saved bytes have another head or cursor", NULL);
        if (mdl_session_to_bytes(back, &b) != 0 || a.len != b.len ||
            memcmp(a.data, b.data, a.len) != 0)
            die("reopened saved bytes save differently", NULL);
        mdl_session_free(back);
    }
    anim_strbuf_free(&a);
    anim_strbuf_free(&b);
    anim_model_fault_free(&fault);
}
