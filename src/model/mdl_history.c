/* model.history: undo, redo and checkpoint of one open document.
 *
 * The history is the checkpoint version plus the retained batches as
 * compact operations text; the cursor says how many of them the current
 * version contains. Undo and redo re-derive a version by running retained
 * batches through mdl_batch_run, the code model.apply ran them with, so a
 * replay cannot take a path the original did not; the content hash each
 * batch produced is kept and a replay that does not reproduce it is an
 * internal error rather than a silently different document. Every action
 * advances the generation: undo may bring back a content hash, never a
 * head. Admission in model.apply keeps the whole replay within
 * max_work_units, so any cursor can be re-derived. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/json.h"
#include "animsmith/json_write.h"
#include "model/mdl_batch.h"
#include "model/mdl_canon.h"
#include "model/mdl_receipts.h"
#include "model/mdl_session.h"

static int nomem(anim_model_fault *fault, const mdl_session *s)
{
    return mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "out_of_memory",
                             "document \"%s\": out of memory", s->name);
}

int mdl_session_replay_one(const mdl_session *s, size_t i, mdl_doc **doc,
                           const volatile int *cancel, uint64_t *work, anim_model_fault *fault)
{
    anim_arena *arena = anim_arena_new();
    if (!arena)
        return nomem(fault, s);
    anim_error err;
    anim_error_clear(&err);
    const mdl_retained *r = &s->batches[i];
    anim_json_value *ops = anim_json_parse(arena, r->ops, r->ops_len, NULL, &err);
    if (!ops) {
        anim_arena_free(arena);
        return mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "replay_failed",
                                 "document \"%s\": retained batch %zu does not parse: %s", s->name,
                                 i, err.message);
    }
    mdl_batch b;
    memset(&b, 0, sizeof b);
    int rc = mdl_batch_run(*doc, ops, &s->limits, s->limits.max_work_units, cancel, &b, fault);
    anim_arena_free(arena);
    if (rc != 0) {
        if (strcmp(fault->kind, "cancelled") != 0) {
            char inner[sizeof fault->message];
            memcpy(inner, fault->message, sizeof inner);
            mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "replay_failed",
                              "document \"%s\": replaying retained batch %zu: %.600s", s->name, i,
                              inner);
        }
        mdl_batch_free(&b);
        return -1;
    }
    mdl_doc_free(*doc);
    *doc = b.doc;
    if (work)
        *work = b.work;
    b.doc = NULL;
    mdl_batch_free(&b);
    return 0;
}

/* The version after retained batches [from, to) applied to base, checked
 * against the content hash recorded for it. */
static int rederive(const mdl_session *s, const mdl_doc *base, size_t from, size_t to,
                    const volatile int *cancel, mdl_doc **out, char content[65], uint64_t *bytes,
                    anim_model_fault *fault)
{
    mdl_doc *doc = mdl_doc_share(base);
    if (!doc)
        return nomem(fault, s);
    for (size_t i = from; i < to; i++) {
        if (mdl_session_replay_one(s, i, &doc, cancel, NULL, fault) != 0) {
            mdl_doc_free(doc);
            return -1;
        }
    }
    const char *want = to == 0 ? s->checkpoint_content : s->batches[to - 1].content;
    if (mdl_canon_hash(doc, content, bytes) != 0) {
        mdl_doc_free(doc);
        return nomem(fault, s);
    }
    if (memcmp(content, want, 64) != 0) {
        mdl_doc_free(doc);
        return mdl_session_fault(fault, ANIM_MODEL_E_INTERNAL, "replay_failed",
                                 "document \"%s\": replay to cursor %zu gives content %.16s..., "
                                 "recorded %.16s...", s->name, to, content, want);
    }
    *out = doc;
    return 0;
}

static void write_reply(const mdl_session *s, const char *action, anim_strbuf *reply)
{
    anim_json_writer w;
    anim_json_writer_init(&w, reply, false);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "document");
    anim_json_writer_string(&w, s->name);
    anim_json_writer_key(&w, "head");
    mdl_head_write(&w, &s->head);
    anim_json_writer_key(&w, "action");
    anim_json_writer_string(&w, action);
    anim_json_writer_key_uint(&w, "undo_available", s->cursor);
    anim_json_writer_key_uint(&w, "redo_available", s->batch_count - s->cursor);
    anim_json_writer_end_object(&w);
}

static int checkpoint(mdl_session *s, anim_model_fault *fault)
{
    mdl_doc *cp = mdl_doc_share(s->current);
    if (!cp)
        return nomem(fault, s);
    mdl_doc_free(s->checkpoint);
    s->checkpoint = cp;
    memcpy(s->checkpoint_content, s->head.content, sizeof s->checkpoint_content);
    s->checkpoint_bytes = s->current_bytes;
    mdl_session_drop_batches(s, 0);
    s->cursor = 0;
    s->head.generation++;
    return 0;
}

int mdl_session_history(mdl_session *s, const anim_json_value *params,
                        const volatile int *cancel, anim_strbuf *reply, anim_model_fault *fault)
{
    static const char *const allowed[] = {"document", "expected", "action", "async", NULL};
    if (!params)
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "model.history: missing params");
    if (mdl_params_check(params, "model.history", allowed, fault) != 0)
        return -1;
    const anim_json_value *action = anim_json_get(params, "action");
    const char *name = NULL;
    if (action && anim_json_string_eq(action, "undo"))
        name = "undo";
    else if (action && anim_json_string_eq(action, "redo"))
        name = "redo";
    else if (action && anim_json_string_eq(action, "checkpoint"))
        name = "checkpoint";
    if (!name)
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "action: expected \"undo\", \"redo\" or \"checkpoint\"");
    const anim_json_value *async = anim_json_get(params, "async");
    if (async && async->type != ANIM_JSON_TRUE && async->type != ANIM_JSON_FALSE)
        return mdl_session_fault(fault, ANIM_MODEL_E_PARAMS, "invalid_params",
                                 "async: expected a boolean");
    anim_model_head expected;
    if (mdl_head_parse(anim_json_get(params, "expected"), "expected", &expected, fault) != 0 ||
        mdl_session_check_head(s, &expected, fault) != 0)
        return -1;
    if (s->head.generation == UINT64_MAX)
        return mdl_session_fault(fault, ANIM_MODEL_E_LIMIT, "limit_exceeded",
                                 "document \"%s\": generation cannot advance", s->name);

    if (name[0] == 'c') {
        if (checkpoint(s, fault) != 0)
            return -1;
        write_reply(s, name, reply);
        return 0;
    }

    bool undo = name[0] == 'u';
    if (undo && s->cursor == 0)
        return mdl_session_fault(fault, ANIM_MODEL_E_REFUSED, "nothing_to_undo",
                                 "document \"%s\": no retained batch to undo", s->name);
    if (!undo && s->cursor == s->batch_count)
        return mdl_session_fault(fault, ANIM_MODEL_E_REFUSED, "nothing_to_redo",
                                 "document \"%s\": no undone batch to redo", s->name);
    mdl_doc *doc = NULL;
    char content[65];
    uint64_t bytes = 0;
    /* Undo replays from the checkpoint; redo needs only the next batch on
     * the current version, which is itself the replay of [0, cursor). */
    int rc = undo ? rederive(s, s->checkpoint, 0, s->cursor - 1, cancel, &doc, content, &bytes,
                             fault)
                  : rederive(s, s->current, s->cursor, s->cursor + 1, cancel, &doc, content,
                             &bytes, fault);
    if (rc != 0)
        return -1;
    if (cancel && *cancel) {
        mdl_doc_free(doc);
        return mdl_session_fault(fault, ANIM_MODEL_E_REFUSED, "cancelled",
                                 "document \"%s\": model.history %s cancelled before publication",
                                 s->name, name);
    }
    /* Publication. */
    mdl_doc_free(s->current);
    s->current = doc;
    s->cursor = undo ? s->cursor - 1 : s->cursor + 1;
    s->head.generation++;
    memcpy(s->head.content, content, sizeof s->head.content);
    s->current_bytes = bytes;
    write_reply(s, name, reply);
    return 0;
}
