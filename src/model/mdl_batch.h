/* One batch of operations run against a base version: the whole batch is
 * validated (mdl_validate_op for each) before anything runs, then applied
 * to a shared copy; the first refusal discards the copy. Used for
 * model.apply and, with the same code, for replaying retained batches
 * during undo and redo, so replay and the original run cannot differ. */
#ifndef ANIMSMITH_MDL_BATCH_H
#define ANIMSMITH_MDL_BATCH_H

#include "animsmith/model.h"
#include "model/mdl_ops.h"

typedef struct mdl_batch {
    mdl_doc *doc;          /* the new version (owned) on success */
    mdl_result *results;   /* one per operation, batch order */
    size_t result_count;
    uint64_t work;         /* work units measured while executing */
} mdl_batch;

/* Runs ops (a JSON array) on base. On refusal returns -1 with fault filled:
 * kind from the operation ("unknown_vertex", ...) or the batch
 * ("empty_batch", "too_many_operations"), message "operation I (op): ...",
 * data {"index": I, "op": "...", "reason": kind}. base is never changed. */
int mdl_batch_run(const mdl_doc *base, const anim_json_value *ops,
                  const anim_model_limits *limits, uint64_t work_budget,
                  const volatile int *cancel, mdl_batch *out, anim_model_fault *fault);
void mdl_batch_free(mdl_batch *b);

/* Writes the result-row members of an apply reply (results, results_total,
 * results_returned, results_omitted, results_truncated,
 * selection_face_total, selection_vertex_total, selection_ids_returned,
 * selection_ids_omitted) as members of the open object of w, sharing
 * limits->max_selection_ids among the rows, and shrinking the rows until
 * the reply stays under byte_budget bytes. */
struct anim_json_writer;
void mdl_batch_write_results(const mdl_batch *b, const anim_model_limits *limits,
                             size_t byte_budget, struct anim_json_writer *w);

/* A fault with kind, code and a formatted message (data left empty). */
int mdl_fault(anim_model_fault *f, int code, const char *kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
