/* The model engine through its public API: apply latency for batches of
 * 1, 16 and 256 operations, the time of one inspect page, and compile
 * throughput (triangles per second) of a subdivided sphere of about a
 * million triangles, without and with the linter's verification, plus the
 * peak resident memory. Prints figures; never fails a test run. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "animsmith/arena.h"
#include "animsmith/json.h"
#include "animsmith/lint.h"
#include "animsmith/model.h"
#include "animsmith/strbuf.h"
#include "bench_clock.h"

static long peak_kib(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
}

static int fail(const char *what, const anim_model_fault *f)
{
    fprintf(stderr, "model_bench: %s: %s\n", what, f->message);
    return 1;
}

/* n cube operations into one batch, all appended to the batch's object
 * (so the objects stay well within max_objects). */
static void cubes(anim_strbuf *ops, unsigned batch, unsigned n)
{
    anim_strbuf_reset(ops);
    anim_strbuf_putc(ops, '[');
    for (unsigned i = 0; i < n; i++)
        anim_strbuf_printf(ops, "%s{\"op\":\"cube\",\"object\":\"b%u\",\"size\":[1,2,3]}",
                           i ? "," : "", batch);
    anim_strbuf_putc(ops, ']');
}

static int apply(anim_model_host *h, const char *doc, const char *rid, const char *ops,
                 anim_strbuf *reply, anim_model_fault *f)
{
    anim_model_head head;
    anim_strbuf_reset(reply);
    if (anim_model_get_head(h, doc, &head, f))
        return -1;
    return anim_model_apply(h, doc, &head, rid, ops, reply, f);
}

static int bench_apply(anim_model_host *h, anim_model_fault *f)
{
    static const unsigned sizes[] = {1, 16, 256};
    anim_strbuf ops = ANIM_STRBUF_INIT, reply = ANIM_STRBUF_INIT;
    anim_model_head head;
    if (anim_model_open(h, "apply", &head, f))
        return fail("model.open", f);
    unsigned batch = 0;
    for (size_t s = 0; s < 3; s++) {
        unsigned runs = sizes[s] == 256 ? 8 : 64;
        double total = 0;
        for (unsigned r = 0; r < runs; r++, batch++) {
            cubes(&ops, batch, sizes[s]);
            char rid[32];
            snprintf(rid, sizeof rid, "r%u", batch);
            double t0 = now_seconds();
            if (apply(h, "apply", rid, ops.data, &reply, f))
                return fail("model.apply", f);
            total += now_seconds() - t0;
        }
        printf("apply %3u op(s): %9.3f ms per batch (mean of %u, %zu-byte reply)\n", sizes[s],
               total / runs * 1e3, runs, reply.len);
    }
    anim_strbuf_free(&ops);
    anim_strbuf_free(&reply);
    return 0;
}

/* The member "triangles" of "counts" in a compile reply (0 when absent). */
static uint64_t reply_triangles(const anim_strbuf *reply)
{
    anim_arena *a = anim_arena_new();
    anim_error err;
    anim_error_clear(&err);
    const anim_json_value *v =
        a && reply->data ? anim_json_parse(a, reply->data, reply->len, NULL, &err) : NULL;
    const anim_json_value *t = anim_json_get(anim_json_get(v, "counts"), "triangles");
    uint64_t tris = t ? (uint64_t)anim_json_integer(t) : 0;
    anim_arena_free(a);
    return tris;
}

static int bench_big(anim_model_host *h, const char *label, int levels, anim_model_fault *f)
{
    anim_strbuf reply = ANIM_STRBUF_INIT;
    anim_model_head head;
    if (anim_model_open(h, "big", &head, f))
        return fail("model.open", f);
    double t0 = now_seconds();
    if (apply(h, "big", "sphere",
              "[{\"op\":\"sphere\",\"object\":\"ball\",\"radius\":1,\"segments\":128,"
              "\"rings\":64}]",
              &reply, f))
        return fail("sphere", f);
    char ops[128];
    snprintf(ops, sizeof ops, "[{\"op\":\"subdivide\",\"object\":\"ball\",\"levels\":%d}]",
             levels);
    if (apply(h, "big", "subdivide", ops, &reply, f))
        return fail("subdivide", f);
    double build = now_seconds() - t0;
    printf("%s: sphere 128x64 subdivided %d level(s): built in %.3f s\n", label, levels, build);
    t0 = now_seconds();
    unsigned pages = 16;
    for (unsigned p = 0; p < pages; p++) {
        anim_strbuf_reset(&reply);
        if (anim_model_inspect(h, "big", "ball", "vertices", (uint64_t)p * 10007, 128, &reply, f))
            return fail("model.inspect", f);
    }
    printf("%s: inspect vertices page (limit 128): %.3f ms per page\n", label,
           (now_seconds() - t0) / pages * 1e3);
    if (anim_model_get_head(h, "big", &head, f))
        return fail("head", f);
    /* Through model.compile with an output file, as a client calls it:
     * the reply's counts give the triangles. */
    char path[] = "/tmp/model_bench_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        perror("model_bench: mkstemp");
        return 1;
    }
    close(fd);
    anim_strbuf params = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&params,
                       "{\"document\":\"big\",\"expected\":{\"generation\":\"%" PRIu64
                       "\",\"content\":\"%s\"},\"output\":\"%s\"}",
                       head.generation, head.content, path);
    anim_strbuf_reset(&reply);
    t0 = now_seconds();
    int rc = anim_model_call_text(h, "model.compile", params.data, params.len, &reply, f);
    double secs = now_seconds() - t0;
    remove(path);
    anim_strbuf_free(&params);
    if (rc)
        return fail("model.compile", f);
    uint64_t tris = reply_triangles(&reply);
    printf("%s: compile: %" PRIu64 " triangles in %.3f s, %.2f M triangles/s\n", label, tris,
           secs, secs > 0 ? (double)tris / secs / 1e6 : 0.0);
    if (anim_model_close(h, "big", &head, f))
        return fail("model.close", f);
    anim_strbuf_free(&reply);
    return 0;
}

static anim_model_host *host(bool verify, const char *store);

/* The job id of a model.publish reply, then its completion by polling. */
static int publish_wait(anim_model_host *h, const char *params, anim_strbuf *reply,
                        anim_model_fault *f)
{
    anim_strbuf_reset(reply);
    if (anim_model_call_text(h, "model.publish", params, strlen(params), reply, f))
        return -1;
    const char *id = strstr(reply->data, "\"job\":\"");
    if (!id)
        return -1;
    char job[64];
    snprintf(job, sizeof job, "{\"job\":\"%.20s", id + 7);
    *strchr(job + 8, '"') = '\0';
    strcat(job, "\"}");
    for (;;) {
        anim_strbuf_reset(reply);
        if (anim_model_call_text(h, "model.job", job, strlen(job), reply, f))
            return -1;
        if (strstr(reply->data, "\"state\":\"completed\""))
            return 0;
        if (!strstr(reply->data, "\"state\":\"queued\"") &&
            !strstr(reply->data, "\"state\":\"running\""))
            return -1;
    }
}

/* model.publish of a 64-cube prop into a fresh SQLite store: compile,
 * verification off, snapshot, saved bytes and one durable commit each. */
static int bench_publish(anim_model_fault *f)
{
    char dir[] = "/tmp/model_bench.XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char path[64];
    snprintf(path, sizeof path, "%s/store.db", dir);
    anim_model_host *h = host(false, path);
    anim_strbuf ops = ANIM_STRBUF_INIT, reply = ANIM_STRBUF_INIT, params = ANIM_STRBUF_INIT;
    anim_model_head head;
    int rc = -1;
    if (!h || anim_model_open(h, "prop", &head, f))
        goto out;
    cubes(&ops, 0, 64);
    if (apply(h, "prop", "p0", ops.data, &reply, f) || anim_model_get_head(h, "prop", &head, f))
        goto out;
    enum { RUNS = 20 };
    double t0 = now_seconds();
    for (unsigned i = 0; i < RUNS; i++) {
        anim_strbuf_reset(&params);
        if (i == 0)
            anim_strbuf_printf(&params, "{\"document\":\"prop\",\"expected\":{\"generation\":"
                                        "\"%" PRIu64 "\",\"content\":\"%s\"},\"alias\":\"bench\","
                                        "\"expected_alias\":null}",
                               head.generation, head.content);
        else
            anim_strbuf_printf(&params, "{\"document\":\"prop\",\"expected\":{\"generation\":"
                                        "\"%" PRIu64 "\",\"content\":\"%s\"},\"alias\":\"bench\","
                                        "\"expected_alias\":\"%u\"}",
                               head.generation, head.content, i);
        if (publish_wait(h, params.data, &reply, f))
            goto out;
    }
    printf("publish 64-cube prop: %.3f ms per revision (mean of %d, durable commits)\n",
           (now_seconds() - t0) * 1000 / RUNS, RUNS);
    rc = 0;
out:
    if (rc)
        fail("model.publish", f);
    anim_model_host_free(h);
    anim_strbuf_free(&ops);
    anim_strbuf_free(&reply);
    anim_strbuf_free(&params);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        rc = -1;
    return rc;
}

static anim_model_host *host(bool verify, const char *store)
{
    anim_model_host_options opts;
    memset(&opts, 0, sizeof opts);
    anim_model_limits_default(&opts.limits);
    opts.verify = verify ? anim_lint_verify_glb : NULL;
    opts.store_path = store;
    anim_error err;
    anim_error_clear(&err);
    anim_model_host *h = anim_model_host_new(&opts, &err);
    if (!h)
        fprintf(stderr, "model_bench: %s\n", err.message);
    return h;
}

int main(int argc, char **argv)
{
    int levels = 3;
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        puts("usage: model_bench [LEVELS]\n"
             "\n"
             "Times the model engine: model.apply of 1, 16 and 256 cube operations, one\n"
             "model.inspect page, model.publish into a fresh SQLite store, and model.compile of a 128x64 sphere subdivided LEVELS\n"
             "times (1 to 3, default 3: about a million triangles), without and with the\n"
             "linter's verification; then the peak resident memory.\n"
             "  -h, --help  print this help and exit");
        return 0;
    }
    if (argc > 2 || (argc == 2 && (argv[1][0] < '1' || argv[1][0] > '3' || argv[1][1]))) {
        fprintf(stderr, "usage: model_bench [LEVELS] (see --help)\n");
        return 2;
    }
    if (argc == 2)
        levels = argv[1][0] - '0';
    anim_model_fault f;
    anim_model_fault_init(&f);
    int rc = 1;
    anim_model_host *h = host(false, NULL);
    if (h && bench_apply(h, &f) == 0 && bench_publish(&f) == 0 &&
        bench_big(h, "unverified", levels, &f) == 0) {
        anim_model_host_free(h);
        h = host(true, NULL);
        rc = h && bench_big(h, "verified", levels, &f) == 0 ? 0 : 1;
    }
    anim_model_host_free(h);
    anim_model_fault_free(&f);
    printf("peak resident memory: %ld MiB\n", peak_kib() / 1024);
    return rc;
}
