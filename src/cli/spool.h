/* Spooled file records: a worker hands over each file's rendered JSON
 * record as soon as the file is done, and the record goes to an unlinked
 * temporary file (mode 0600, in $TMPDIR or /tmp) while its memory is
 * released. A run's memory then stays at the files in flight instead of
 * growing with the report, and the report is still printed only once
 * every file has succeeded, in argument order. */
#ifndef ANIMSMITH_CLI_SPOOL_H
#define ANIMSMITH_CLI_SPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "animsmith/strbuf.h"

typedef struct cli_spool cli_spool;

/* A spool for n records; NULL when no temporary file can be made (the
 * records then simply stay in memory: every function below takes NULL). */
cli_spool *cli_spool_open(size_t n);

/* Moves record i into the spool and frees its memory. Safe to call from
 * several workers at once, each with its own i. Returns false (and keeps
 * the record in memory, untouched) when the spool is NULL or the write
 * fails: a full disk, or a file-size limit (main ignores SIGXFSZ, so the
 * limit fails the write instead of killing the run). */
bool cli_spool_put(cli_spool *spool, size_t i, anim_strbuf *record);

typedef enum {
    CLI_SPOOL_WRITTEN,
    CLI_SPOOL_OUT_FAILED,   /* writing to out failed (a closed or full stdout) */
    CLI_SPOOL_READ_FAILED,  /* the spool could not be read back (errno set) */
} cli_spool_result;

/* Writes record i to out: from the spool when it went there, else the
 * in-memory record. Call after the workers have finished. */
cli_spool_result cli_spool_write(const cli_spool *spool, size_t i, const anim_strbuf *in_memory,
                                 FILE *out);

void cli_spool_close(cli_spool *spool);

#endif
