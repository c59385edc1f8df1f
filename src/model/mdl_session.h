/* One open document: its current version and head, the undo history
 * (checkpoint version plus retained batches and a cursor), the receipts of
 * recent requests and the request-id ledger. Sessions are driven by the
 * host's worker, one call at a time. */
#ifndef ANIMSMITH_MDL_SESSION_H
#define ANIMSMITH_MDL_SESSION_H

#include "animsmith/model.h"
#include "animsmith/strbuf.h"
#include "model/mdl_doc.h"

typedef struct mdl_session mdl_session;

mdl_session *mdl_session_new(const char *name, const anim_model_limits *limits);
void mdl_session_free(mdl_session *s);
const char *mdl_session_name(const mdl_session *s);
void mdl_session_head(const mdl_session *s, anim_model_head *head);
/* The current version (valid until the next mutation of s). */
const mdl_doc *mdl_session_doc(const mdl_session *s);

/* Parses {"generation": "...", "content": "..."} strictly; -1 with an
 * invalid_params fault naming field. */
int mdl_head_parse(const anim_json_value *v, const char *field, anim_model_head *head,
                   anim_model_fault *fault);
/* Writes a head object as the next value of w. */
struct anim_json_writer;
void mdl_head_write(struct anim_json_writer *w, const anim_model_head *head);
/* -1 with a stale_head fault (data: expected and current) unless equal. */
int mdl_session_check_head(const mdl_session *s, const anim_model_head *expected,
                           anim_model_fault *fault);

/* model.apply params (document, request_id, expected, operations): the
 * whole reply object into reply. */
int mdl_session_apply(mdl_session *s, const anim_json_value *params, size_t params_bytes,
                      const volatile int *cancel, anim_strbuf *reply, anim_model_fault *fault);
/* model.history params (document, expected, action). */
int mdl_session_history(mdl_session *s, const anim_json_value *params,
                        const volatile int *cancel, anim_strbuf *reply, anim_model_fault *fault);

/* ---- persistence (mdl_persist.c; layout in docs/model-format.md) */

/* The versioned saved form: checkpoint, retained batches, cursor, receipts
 * and request-id ledger. -1 on out of memory. */
int mdl_session_to_bytes(const mdl_session *s, anim_strbuf *out);
/* The current editable state alone (its canonical encoding). */
int mdl_session_to_snapshot_bytes(const mdl_session *s, anim_strbuf *out);
/* A session named name from saved bytes: replays and verifies every batch
 * within limits->max_work_units and refuses non-canonical bytes; NULL with
 * the fault (invalid_source, limit_exceeded, work_limit_exceeded). */
mdl_session *mdl_session_from_bytes(const char *name, const anim_model_limits *limits,
                                    const void *bytes, size_t len, const volatile int *cancel,
                                    anim_model_fault *fault);
/* A session whose checkpoint and current version are the snapshot. */
mdl_session *mdl_session_from_snapshot(const char *name, const anim_model_limits *limits,
                                       const void *bytes, size_t len, anim_model_fault *fault);

#endif
