/* A tiny work queue over pthreads: an atomic next-index counter, no
 * per-item allocation. Results go to per-index slots, so the order of
 * completion never shows in the output. */
#include "jobs.h"

#include "animsmith/error.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

typedef struct {
    size_t n;
    cli_job_fn fn;
    void *ctx;
    atomic_size_t next;
    atomic_size_t done;
} job_queue;

static void *worker(void *arg)
{
    job_queue *q = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&q->next, 1);
        if (i >= q->n)
            return NULL;
        q->fn(i, q->ctx);
        atomic_fetch_add(&q->done, 1);
    }
}

int cli_default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

int cli_parse_jobs(const char *text, int *jobs)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || v < 1 || v > 1024) {
        cli_operator_error("--jobs: expected a whole number from 1 to 1024, got '%s'", text);
        return -1;
    }
    *jobs = (int)v;
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Progress is only for people watching a terminal; pipes and CI logs stay
 * clean. The line appears after a second so quick runs never flicker. */
static void watch_progress(job_queue *q, const char *verb, pthread_t *threads, int count)
{
    bool tty = isatty(STDERR_FILENO);
    double start = now_s();
    bool shown = false;
    size_t last = (size_t)-1;
    while (tty && atomic_load(&q->done) < q->n) {
        struct timespec pause = {0, 100 * 1000 * 1000};
        nanosleep(&pause, NULL);
        size_t done = atomic_load(&q->done);
        if (now_s() - start < 1.0 || done == last)
            continue;
        fprintf(stderr, "\r%s %zu/%zu files", verb, done, q->n);
        fflush(stderr);
        last = done;
        shown = true;
    }
    for (int t = 0; t < count; t++)
        pthread_join(threads[t], NULL);
    if (shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
}

void cli_run_jobs(size_t n, int jobs, cli_job_fn fn, void *ctx, const char *verb)
{
    job_queue q = {n, fn, ctx, 0, 0};
    int count = jobs < 1 ? 1 : jobs;
    if ((size_t)count > n)
        count = (int)n;
    pthread_t *threads = count > 1 ? calloc((size_t)count, sizeof *threads) : NULL;
    int started = 0;
    for (int t = 0; threads && t < count; t++, started++)
        if (pthread_create(&threads[t], NULL, worker, &q) != 0)
            break;
    if (started == 0) {
        /* One job, or threads unavailable: run inline. */
        worker(&q);
        free(threads);
        return;
    }
    watch_progress(&q, verb, threads, started);
    free(threads);
}

typedef struct {
    void (*task)(uint32_t worker, void *arg);
    void *arg;
    uint32_t worker;
} worker_start;

static void *run_worker(void *p)
{
    worker_start *s = p;
    s->task(s->worker, s->arg);
    return NULL;
}

void cli_run_workers(uint32_t count, void (*task)(uint32_t worker, void *arg), void *arg)
{
    pthread_t *threads = count > 1 ? calloc(count, sizeof *threads) : NULL;
    worker_start *starts = count > 1 ? calloc(count, sizeof *starts) : NULL;
    bool *started = count > 1 ? calloc(count, sizeof *started) : NULL;
    for (uint32_t w = 1; threads && starts && started && w < count; w++) {
        starts[w] = (worker_start){task, arg, w};
        started[w] = pthread_create(&threads[w], NULL, run_worker, &starts[w]) == 0;
    }
    task(0, arg);
    /* Unstarted workers still run (each may own state to release); the
     * tasks share their work, so running them late changes no result. */
    for (uint32_t w = 1; w < count; w++) {
        if (started && started[w])
            pthread_join(threads[w], NULL);
        else
            task(w, arg);
    }
    free(threads);
    free(starts);
    free(started);
}

char *cli_file_error(const char *path, const char *msg)
{
    char buf[ANIM_ERROR_MESSAGE_MAX + 512];
    /* A message that already starts with the file (the engine profile's
     * format and per-clip refusals name it themselves) is not prefixed
     * twice. */
    size_t plen = path ? strlen(path) : 0;
    if (path && strncmp(msg, path, plen) == 0 && msg[plen] == ':' && msg[plen + 1] == ' ')
        path = NULL;
    if (path)
        snprintf(buf, sizeof buf, "%s: %s", path, msg);
    else
        snprintf(buf, sizeof buf, "%s", msg);
    size_t n = strlen(buf) + 1;
    char *copy = malloc(n);
    if (copy)
        memcpy(copy, buf, n);
    return copy;
}
