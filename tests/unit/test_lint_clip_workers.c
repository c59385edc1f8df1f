/* The parallel clip pass (anim_lint_run_parallel): whatever the number of
 * clip workers and whatever order they run in, every record is exactly
 * what one worker produces, clip_done sees each clip once on a worker's
 * own context, and a failing run reports the lowest failing clip, as one
 * worker does. The spawns here run the workers one after another (the
 * first to run takes every clip), so the extra workers' contexts and the
 * clip-order merge are exercised without threads; the threaded run is
 * covered by tests/scripts/lint_clip_workers_identical.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/lint.h"
#include "support/record_compare.h"
#include "support/test_support.h"

/* The last worker first: it takes every clip, worker 0 none. */
static void spawn_reverse(uint32_t count, anim_lint_task task, void *arg)
{
    for (uint32_t w = count; w-- > 0;)
        task(w, arg);
}

static void spawn_forward(uint32_t count, anim_lint_task task, void *arg)
{
    for (uint32_t w = 0; w < count; w++)
        task(w, arg);
}

static void run_parallel(const anim_asset *a, const anim_config *cfg,
                         const anim_lint_options *opts, uint32_t workers,
                         void (*spawn)(uint32_t, anim_lint_task, void *), anim_lint_file *out)
{
    anim_lint_parallel par = {workers, spawn};
    anim_error err;
    anim_error_clear(&err);
    int rc = anim_lint_run_parallel(a, cfg, opts, &par, out, &err);
    if (rc)
        fail_msg("anim_lint_run_parallel: %s", err.message);
}

static void same_as_one_worker(void **state)
{
    (void)state;
    static const struct {
        const char *asset, *contract;
    } cases[] = {
        {"run-ring.glb", "run-ring.animsmith.toml"},   /* the group gathers */
        {"run-ring.glb", "character.animsmith.toml"},  /* severity overrides */
        {"walk-dirty.glb", "walk.animsmith.toml"},     /* one clip */
        {"clip-dirty.glb", NULL},
    };
    static const uint32_t workers[] = {2, 3, 8};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        anim_asset *a = test_support_load_example(cases[i].asset);
        anim_config *cfg = cases[i].contract ? test_support_config_example(cases[i].contract)
                                             : test_support_config_default();
        anim_lint_file one;
        test_support_lint(a, cfg, NULL, 0, &one);
        for (size_t w = 0; w < sizeof workers / sizeof *workers; w++)
            for (int order = 0; order < 2; order++) {
                anim_lint_file many;
                run_parallel(a, cfg, NULL, workers[w], order ? spawn_reverse : spawn_forward,
                             &many);
                test_support_expect_same_lint(&one, &many);
                anim_lint_file_free(&many);
            }
        anim_lint_file_free(&one);
        anim_config_free(cfg);
        anim_asset_free(a);
    }
}

/* ---- clip_done on the workers ------------------------------------------ */

typedef struct {
    uint32_t workers;
    uint32_t seen[16];          /* per clip: calls */
    uint32_t on_extra;          /* calls on a worker other than 0 */
    uint32_t fail_from;         /* clip_done fails for clips >= this */
} worker_log;

static int on_clip(anim_lint_context *ctx, uint32_t clip, void *user, anim_error *err)
{
    worker_log *log = user;
    assert_true(clip < 16);
    assert_true(ctx->worker < log->workers);
    assert_int_equal(ctx->pass_clip, clip);
    /* The worker's own grid, holding this clip (or none yet). */
    assert_true(ctx->grid_clip == ANIM_NONE || ctx->grid_clip == clip);
    const anim_metric_grid *g = anim_lint_grid(ctx, clip);
    assert_ptr_equal(anim_lint_grid(ctx, clip), g);
    log->seen[clip]++;
    log->on_extra += ctx->worker != 0;
    if (clip >= log->fail_from)
        return anim_error_set(err, ANIM_ERR_INVALID, "stopped at clip %u", clip);
    return 0;
}

static int on_finish(anim_lint_context *ctx, void *user, anim_error *err)
{
    (void)user;
    (void)err;
    assert_int_equal(ctx->worker, 0); /* on the caller's thread */
    assert_int_equal(ctx->grid_clip, ANIM_NONE);
    return 0;
}

static void clip_done_once_per_clip(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("run-ring.glb");
    anim_config *cfg = test_support_config_example("run-ring.animsmith.toml");
    worker_log log;
    memset(&log, 0, sizeof log);
    log.workers = 3;
    log.fail_from = UINT32_MAX;
    anim_lint_options opts;
    memset(&opts, 0, sizeof opts);
    opts.clip_done = on_clip;
    opts.finish = on_finish;
    opts.user = &log;
    anim_lint_file file;
    run_parallel(a, cfg, &opts, log.workers, spawn_reverse, &file);
    assert_true(a->doc.clip_count > 1);
    for (uint32_t c = 0; c < a->doc.clip_count; c++)
        assert_int_equal(log.seen[c], 1);
    assert_int_equal(log.on_extra, a->doc.clip_count); /* worker 2 took them all */
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

static void failure_is_lowest_clip(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("run-ring.glb");
    anim_config *cfg = test_support_config_example("run-ring.animsmith.toml");
    for (uint32_t workers = 1; workers <= 4; workers++) {
        worker_log log;
        memset(&log, 0, sizeof log);
        log.workers = workers;
        log.fail_from = 1;
        anim_lint_options opts;
        memset(&opts, 0, sizeof opts);
        opts.clip_done = on_clip;
        opts.user = &log;
        anim_lint_parallel par = {workers, spawn_reverse};
        anim_lint_file file;
        anim_error err;
        anim_error_clear(&err);
        assert_int_equal(anim_lint_run_parallel(a, cfg, &opts, &par, &file, &err), -1);
        assert_string_equal(err.message, "stopped at clip 1");
        /* The run stops there: no clip after the failed one is judged. */
        assert_int_equal(log.seen[2], 0);
        assert_null(file.records);
        assert_null(file.arena);
        assert_int_equal(file.worker_arena_count, 0);
    }
    anim_config_free(cfg);
    anim_asset_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_as_one_worker),
        cmocka_unit_test(clip_done_once_per_clip),
        cmocka_unit_test(failure_is_lowest_clip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
