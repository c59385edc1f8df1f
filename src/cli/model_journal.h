/* `animsmith model apply|inspect|compile DOC.json`: a document kept for
 * scripts as a journal file, the batches that built it in order:
 *   {"format": "animsmith-model-journal", "version": 1, "document": NAME,
 *    "batches": [{"request_id": ID, "operations": [...]}, ...]}
 * Each command replays the journal through a fresh host (the same engine
 * as `model serve`), so the file holds intent, never engine state. */
#ifndef ANIMSMITH_CLI_MODEL_JOURNAL_H
#define ANIMSMITH_CLI_MODEL_JOURNAL_H

#include <stdbool.h>
#include <stdint.h>

/* Applies the operations array of batch_path ("-": stdin) to the journal
 * at doc_path (created when absent); on success rewrites it atomically
 * with the batch appended and prints the apply reply. request_id NULL:
 * "batch-N" for the N-th batch. Returns the exit code (2 on refusal, the
 * journal untouched). */
int model_journal_apply(const char *doc_path, const char *batch_path, const char *request_id);

/* Prints one model.inspect page of the replayed journal. object NULL for
 * a document domain; offset/limit used when has_* is set. */
int model_journal_inspect(const char *doc_path, const char *object, const char *domain,
                          bool has_offset, uint64_t offset, bool has_limit, uint64_t limit);

/* Writes the GLB of the replayed journal to out atomically. 1 when the
 * compile is refused by a lint error finding, 2 for other refusals. */
int model_journal_compile(const char *doc_path, const char *out, bool preview);

#endif
