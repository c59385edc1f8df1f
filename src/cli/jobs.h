/* Runs per-file work on every core while output stays in argument order:
 * workers fill per-index result slots; the caller renders afterwards. */
#ifndef ANIMSMITH_CLI_JOBS_H
#define ANIMSMITH_CLI_JOBS_H

#include <stddef.h>
#include <stdint.h>

typedef void (*cli_job_fn)(size_t index, void *ctx);

/* Default worker count: the number of online cores (at least 1). */
int cli_default_jobs(void);

/* Parses --jobs N (1..1024). Returns -1 (after printing the operator
 * error) on a bad value. */
int cli_parse_jobs(const char *text, int *jobs);

/* Calls fn(i, ctx) for i in [0, n) on up to `jobs` threads. When stderr is
 * a terminal and the run takes more than a second, a progress line
 * "<verb> k/n files" is kept up to date on stderr and cleared at the end. */
void cli_run_jobs(size_t n, int jobs, cli_job_fn fn, void *ctx, const char *verb);

/* Calls task(w, arg) for every w in [0, count) on a thread each (w = 0
 * on the caller's), returning once all have returned; a thread that
 * cannot start has its task run on the caller's thread afterwards. The
 * spawn of a parallel lint clip pass (anim_lint_parallel). */
void cli_run_workers(uint32_t count, void (*task)(uint32_t worker, void *arg), void *arg);

/* A worker's per-file error for its slot: "<path>: <msg>", or msg alone
 * when path is NULL (the caller passes NULL for messages that already name
 * the file, as every loader error does).
 * Malloc'd; NULL when out of memory (callers then report "out of
 * memory"). */
char *cli_file_error(const char *path, const char *msg);

#endif
