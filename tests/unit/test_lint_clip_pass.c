/* The clip-major lint run (src/lint/run.c) and clip-by-clip measurement
 * (anim_measure_begin / _clip / _end): a run keeps at most one clip's
 * metric grid alive, calls clip_done once per clip in clip order, and
 * produces exactly the records a check-major walk does (each per-clip
 * check run once over every clip, pass_clip = ANIM_NONE); the collector
 * gives exactly anim_measure_document's result, duplicate names included;
 * a document without clips still gets its whole-document verdicts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/json_write.h"
#include "animsmith/lint.h"
#include "animsmith/measure.h"
#include "animsmith/rig.h"
#include "support/record_compare.h"
#include "support/test_support.h"

/* Check-major reference: every active check of the catalog run once over
 * the whole document with pass_clip = ANIM_NONE (the per-clip checks then
 * loop over every clip themselves), compared with the run's records.
 * Severity overrides are applied by the run only, so the contracts used
 * here leave severities alone except where noted by the caller. */
static void expect_check_major_equal(const anim_asset *a, const anim_config *cfg)
{
    anim_lint_file file;
    test_support_lint(a, cfg, NULL, 0, &file);

    const anim_doc *doc = &a->doc;
    anim_clip_expect *expect = calloc(doc->clip_count ? doc->clip_count : 1, sizeof *expect);
    assert_non_null(expect);
    for (uint32_t c = 0; c < doc->clip_count; c++)
        anim_config_clip_expect(cfg, doc->clips[c].name, &expect[c]);
    anim_lint_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.asset = a;
    ctx.doc = doc;
    ctx.config = cfg;
    ctx.rig = &file.rig;
    ctx.expect = expect;
    ctx.arena = anim_arena_new();
    ctx.pass_clip = ANIM_NONE;
    ctx.grid_clip = ANIM_NONE;
    assert_non_null(ctx.arena);

    uint32_t compared = 0;
    for (size_t i = 0; i < anim_check_count(); i++) {
        const anim_check_def *def = anim_check_at(i);
        const anim_check_record *got = &file.records[i];
        if (!got->selected || !got->enabled || !got->applicable || !def->run)
            continue;
        const anim_check_config *cc = anim_config_check(cfg, def->id);
        if (cc && cc->severity >= ANIM_SEVERITY_NOTE)
            continue; /* the run rewrote the severities */
        anim_check_record want;
        memset(&want, 0, sizeof want);
        want.check_id = def->id;
        anim_error err;
        anim_error_clear(&err);
        assert_int_equal(def->run(&ctx, &want, &err), 0);
        test_support_expect_same_record(got, &want);
        free(want.findings);
        free(want.scopes);
        free(want.gaps);
        compared++;
    }
    assert_true(compared > 0);
    if (ctx.grid_built)
        anim_metric_grid_free(&ctx.grid);
    anim_arena_free(ctx.arena);
    free(expect);
    anim_lint_file_free(&file);
}

static void check_major_examples(void **state)
{
    (void)state;
    static const struct {
        const char *asset, *contract;
    } cases[] = {
        {"run-ring.glb", "run-ring.animsmith.toml"},
        {"run-ring.glb", "character.animsmith.toml"},
        {"walk-dirty.glb", "walk.animsmith.toml"},
        {"walk-travel.glb", "walk-travel-root-motion.animsmith.toml"},
        {"report-comparison-before.glb", "report-comparison.animsmith.toml"},
        {"walk-frozen-arm.glb", "walk-frozen-arm.animsmith.toml"},
        {"clip-dirty.glb", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        anim_asset *a = test_support_load_example(cases[i].asset);
        anim_config *cfg = cases[i].contract ? test_support_config_example(cases[i].contract)
                                             : test_support_config_default();
        expect_check_major_equal(a, cfg);
        anim_config_free(cfg);
        anim_asset_free(a);
    }
}

/* ---- the clip pass ----------------------------------------------------- */

typedef struct {
    uint32_t calls, next;
    uint32_t finish_calls;
    uint32_t grids;
} pass_log;

static int on_clip(anim_lint_context *ctx, uint32_t clip, void *user, anim_error *err)
{
    (void)err;
    pass_log *log = user;
    assert_int_equal(clip, log->next);
    assert_int_equal(ctx->pass_clip, clip);
    /* Whatever grid is cached belongs to this clip. */
    assert_true(ctx->grid_clip == ANIM_NONE || ctx->grid_clip == clip);
    assert_true(anim_lint_pass_begin(ctx) == clip && anim_lint_pass_end(ctx) == clip + 1);
    const anim_metric_grid *g = anim_lint_grid(ctx, clip);
    log->grids += g != NULL;
    /* Asking again samples nothing new: the same grid comes back. */
    assert_ptr_equal(anim_lint_grid(ctx, clip), g);
    log->calls++;
    log->next++;
    return 0;
}

static int on_finish(anim_lint_context *ctx, void *user, anim_error *err)
{
    (void)err;
    pass_log *log = user;
    log->finish_calls++;
    assert_int_equal(ctx->pass_clip, ANIM_NONE);
    assert_int_equal(ctx->grid_clip, ANIM_NONE); /* no grid outlives the checks */
    assert_int_equal(anim_lint_pass_begin(ctx), 0);
    assert_int_equal(anim_lint_pass_end(ctx), ctx->doc->clip_count);
    return 0;
}

static void clip_done_in_order(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("run-ring.glb");
    anim_config *cfg = test_support_config_example("character.animsmith.toml");
    pass_log log;
    memset(&log, 0, sizeof log);
    anim_lint_options opts;
    memset(&opts, 0, sizeof opts);
    opts.clip_done = on_clip;
    opts.finish = on_finish;
    opts.user = &log;
    anim_lint_file file;
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(anim_lint_run(a, cfg, &opts, &file, &err), 0);
    assert_int_equal(log.calls, a->doc.clip_count);
    assert_int_equal(log.grids, a->doc.clip_count);
    assert_int_equal(log.finish_calls, 1);
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

static int fail_clip(anim_lint_context *ctx, uint32_t clip, void *user, anim_error *err)
{
    (void)ctx;
    (void)user;
    if (clip == 1)
        return anim_error_set(err, ANIM_ERR_INVALID, "stop at clip %u", (unsigned)clip);
    return 0;
}

static void clip_done_failure_fails_run(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("run-ring.glb");
    anim_config *cfg = test_support_config_default();
    anim_lint_options opts;
    memset(&opts, 0, sizeof opts);
    opts.clip_done = fail_clip;
    anim_lint_file file;
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(anim_lint_run(a, cfg, &opts, &file, &err), -1);
    assert_string_equal(err.message, "stop at clip 1");
    assert_null(file.records);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* A document without clips: nothing calls clip_done, the per-clip checks
 * that apply are complete with nothing to say, and the whole-document
 * checks still report (the group members are all missing). */
static void zero_clips(void **state)
{
    (void)state;
    test_support_gltf *g = test_support_gltf_new();
    test_support_node n = {"hips", -1, 0, {0}, {0}, {0}};
    test_support_gltf_node(g, &n);
    anim_asset *a = test_support_gltf_load(g, "empty.gltf");
    test_support_gltf_free(g);
    assert_int_equal(a->doc.clip_count, 0);
    anim_config *cfg = test_support_config_example("character.animsmith.toml");

    pass_log log;
    memset(&log, 0, sizeof log);
    anim_lint_options opts;
    memset(&opts, 0, sizeof opts);
    opts.clip_done = on_clip;
    opts.finish = on_finish;
    opts.user = &log;
    anim_lint_file file;
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(anim_lint_run(a, cfg, &opts, &file, &err), 0);
    assert_int_equal(log.calls, 0);
    assert_int_equal(log.finish_calls, 1);
    test_support_expect_state(test_support_record(&file, "nan"), true, ANIM_EVAL_COMPLETE, 0, 0,
                              0);
    const anim_check_record *gait = test_support_record(&file, "gait-group");
    assert_int_equal(gait->finding_count, 4);
    test_support_expect_str(gait->findings[0].clip, "run_forward");
    const anim_check_record *sync = test_support_record(&file, "sync-group");
    assert_int_equal(sync->finding_count, 4);
    assert_true(sync->scope_count >= 1);
    test_support_expect_str(sync->scopes[0].code, "member_existence");
    anim_lint_file_free(&file);

    expect_check_major_equal(a, cfg);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* ---- clip-by-clip measurement ------------------------------------------ */

static char *measurements_json(const anim_measurements *m)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &sb, true);
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(anim_measurements_write_json(m, &w, &err), 0);
    assert_false(sb.failed);
    size_t n = sb.data ? strlen(sb.data) : 0;
    char *s = malloc(n + 1);
    assert_non_null(s);
    memcpy(s, sb.data ? sb.data : "", n);
    s[n] = '\0';
    anim_strbuf_free(&sb);
    return s;
}

/* Three clips, two named "b" (renamed after loading): rows come out sorted by name and the later
 * "b" wins, whatever order the clips are fed in. */
static void collector_matches_document(void **state)
{
    (void)state;
    static const float times[4] = {0.0f, 0.25f, 0.5f, 0.75f};
    static const float up[12] = {0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0};
    static const float side[12] = {0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0};
    test_support_gltf *g = test_support_gltf_new();
    test_support_node nodes[2] = {{"hips", -1, 0, {0}, {0}, {0}}, {"foot", 0, 0, {0}, {0}, {0}}};
    test_support_gltf_nodes(g, nodes, 2);
    test_support_gltf_animation(g, "b");
    test_support_gltf_track(g, 0, "translation", NULL, 4, times, up, TEST_SUPPORT_BOUNDS);
    test_support_gltf_animation(g, "a");
    test_support_gltf_track(g, 1, "translation", NULL, 4, times, side, TEST_SUPPORT_BOUNDS);
    test_support_gltf_animation(g, "b");
    test_support_gltf_track(g, 1, "translation", NULL, 3, times, up, TEST_SUPPORT_BOUNDS);
    anim_asset *a = test_support_gltf_load(g, "dup.gltf");
    test_support_gltf_free(g);
    /* The loader tells equal names apart ("b#1"); a document built or
     * edited in memory need not, and measurement keeps one row per name. */
    assert_int_equal(a->doc.clip_count, 3);
    a->doc.clips[2].name = "b";
    anim_config *cfg = test_support_config_text("[clips.\"*\"]\nloop = true\nfps = 4\n");
    anim_rig_resolution rig;
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(anim_rig_resolve(&a->doc, NULL, &rig, &err), 0);

    anim_arena *ref_arena = anim_arena_new();
    anim_measurements ref;
    assert_int_equal(anim_measure_asset_document(a, &rig, cfg, ref_arena, &ref, &err), 0);
    assert_int_equal(ref.clip_count, 2);
    char *want = measurements_json(&ref);

    anim_arena *arena = anim_arena_new();
    anim_measure_collector mc;
    anim_measurements m;
    assert_int_equal(anim_measure_begin(&a->doc, arena, &mc, &m, &err), 0);
    assert_false(anim_measure_wants_clip(&mc, 0)); /* replaced by clip 2 */
    assert_true(anim_measure_wants_clip(&mc, 1));
    assert_true(anim_measure_wants_clip(&mc, 2));
    assert_false(anim_measure_wants_clip(&mc, 3));
    for (uint32_t k = 3; k-- > 0;) {
        anim_metric_grid grid;
        memset(&grid, 0, sizeof grid);
        int built = anim_metric_grid_build(&a->doc, &a->doc.clips[k], &grid, &err);
        assert_int_equal(anim_measure_clip(&mc, k, &rig, cfg, built == 1 ? &grid : NULL, &err),
                         0);
        anim_metric_grid_free(&grid);
    }
    assert_int_equal(anim_measure_end(&mc, a, &err), 0);
    assert_int_equal(m.clip_count, 2);
    assert_string_equal(m.clips[0].name, "a");
    assert_string_equal(m.clips[1].name, "b");
    assert_int_equal(m.clips[1].frame_count, 3); /* the later "b" */
    assert_int_equal(m.clips[1].loop_continuity, ANIM_AVAIL_MEASURED);
    char *got = measurements_json(&m);
    assert_string_equal(got, want);

    free(got);
    free(want);
    anim_arena_free(arena);
    anim_arena_free(ref_arena);
    anim_config_free(cfg);
    anim_asset_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(check_major_examples),
        cmocka_unit_test(clip_done_in_order),
        cmocka_unit_test(clip_done_failure_fails_run),
        cmocka_unit_test(zero_clips),
        cmocka_unit_test(collector_matches_document),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
