/* Prediction facets: recording (copies, the available scope also
 * evaluated, the shared budget and its one compaction marker) and the
 * text and Markdown views (runs of facets on one line, blocking work with
 * its reasons, the summary counts). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/report.h"
#include "lint/run_internal.h"

static anim_lint_context make_context(anim_arena *arena, uint32_t budget)
{
    anim_lint_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.arena = arena;
    ctx.facet_budget_left = budget;
    return ctx;
}

static int add_label(anim_lint_context *ctx, anim_check_record *rec, unsigned i)
{
    char subject[32];
    snprintf(subject, sizeof subject, "Animation%u", i);
    anim_field result[2] = {anim_field_text("label", subject),
                            anim_field_int("source_animation_index", i)};
    anim_basis_row basis[1] = {{ANIM_BASIS_RAW_SOURCE, anim_field_text("/animations/0", NULL)}};
    anim_prediction_facet f;
    memset(&f, 0, sizeof f);
    f.scope.code = "animation_asset_label";
    f.scope.subject = subject; /* a stack buffer: the record must copy it */
    f.state = ANIM_FACET_AVAILABLE;
    f.result_kind = "animation_asset_label";
    f.result = result;
    f.result_count = 2;
    f.basis = basis;
    f.basis_count = 1;
    return anim_check_facet(ctx, rec, &f);
}

static void test_record_copies_and_scopes(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    anim_lint_context ctx = make_context(arena, ANIM_FACET_BUDGET);
    anim_check_record rec;
    memset(&rec, 0, sizeof rec);
    rec.check_id = "engine-addressability";
    assert_int_equal(add_label(&ctx, &rec, 0), 0);
    assert_int_equal(add_label(&ctx, &rec, 1), 0);
    assert_int_equal(anim_check_facet_unavailable(&ctx, &rec, "runtime_survival", NULL,
                                                  "runtime_survival_unobservable"),
                     0);
    assert_non_null(rec.prediction_schema);
    assert_int_equal(rec.facet_count, 3);
    assert_string_equal(rec.facets[1].scope.subject, "Animation1");
    assert_string_equal(rec.facets[1].result[0].text, "Animation1");
    assert_int_equal(rec.facets[1].result[1].integer, 1);
    assert_int_equal(rec.facets[0].basis[0].value.kind, ANIM_FIELD_NULL);
    /* Only the available facets are evaluated scopes. */
    assert_int_equal(rec.scope_count, 2);
    assert_string_equal(rec.scopes[0].subject, "Animation0");
    uint32_t a = 0, u = 0;
    anim_check_facet_counts(&rec, &a, &u);
    assert_int_equal(a, 2);
    assert_int_equal(u, 1);
    assert_int_equal(ctx.facet_budget_left, ANIM_FACET_BUDGET - 3);
    assert_int_equal(anim_lint_facets_finish(&ctx, &rec), 0);
    assert_int_equal(rec.facet_count, 3); /* nothing omitted: no marker */
    anim_lint_record_release(&rec);
    anim_arena_free(arena);
}

/* Past the budget, facets are counted, not kept, and the record closes
 * with one subjectless facet_budget marker in the slot kept for it. */
static void test_budget_marker(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    anim_lint_context ctx = make_context(arena, 4);
    anim_check_record rec;
    memset(&rec, 0, sizeof rec);
    rec.check_id = "engine-addressability";
    for (unsigned i = 0; i < 10; i++)
        assert_int_equal(add_label(&ctx, &rec, i), 0);
    assert_int_equal(rec.facet_count, 3);
    assert_int_equal(rec.facets_omitted, 7);
    assert_int_equal(anim_lint_facets_finish(&ctx, &rec), 0);
    assert_int_equal(rec.facet_count, 4);
    const anim_prediction_facet *m = &rec.facets[3];
    assert_string_equal(m->scope.code, "facet_budget");
    assert_null(m->scope.subject);
    assert_int_equal(m->state, ANIM_FACET_REQUIRED_UNAVAILABLE);
    assert_int_equal(m->reason_count, 1);
    assert_string_equal(m->reasons[0], "facet_budget_exceeded");
    anim_lint_record_release(&rec);
    anim_arena_free(arena);
}

static void build_file(anim_lint_file *file, anim_check_record *recs, anim_arena *arena)
{
    memset(file, 0, sizeof *file);
    anim_lint_context ctx = make_context(arena, ANIM_FACET_BUDGET);
    memset(recs, 0, 2 * sizeof *recs);
    recs[0].check_id = "nan";
    recs[1].check_id = "engine-track-support";
    for (int i = 0; i < 2; i++) {
        recs[i].selected = recs[i].enabled = recs[i].applicable = true;
        recs[i].evaluation = ANIM_EVAL_COMPLETE;
    }
    for (unsigned i = 0; i < 7; i++)
        assert_int_equal(add_label(&ctx, &recs[1], i), 0);
    assert_int_equal(anim_check_facet_unavailable(&ctx, &recs[1], "runtime_survival", NULL,
                                                  "runtime_survival_unobservable"),
                     0);
    file->path = "walk.glb";
    file->records = recs;
    file->record_count = 2;
}

static void test_text_and_markdown(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    anim_check_record recs[2];
    anim_lint_file file;
    build_file(&file, recs, arena);
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_render_lint_text(&file, 1, NULL, &sb);
    assert_false(sb.failed);
    assert_string_equal(sb.data,
                        "walk.glb:\n"
                        "  prediction[engine-track-support] animation_asset_label available "
                        "\xc3\x97" "7 (subjects: Animation0, Animation1, Animation2, Animation3, "
                        "Animation4, \xe2\x80\xa6 +2 more)\n"
                        "  prediction[engine-track-support] runtime_survival "
                        "required_prediction_unavailable: runtime_survival_unobservable\n"
                        "0 error(s), 0 warning(s), 0 note(s), 0 coverage gap(s), 7 available "
                        "prediction facet(s), 1 required-unavailable prediction facet(s)\n");
    anim_strbuf_reset(&sb);
    anim_render_lint_markdown(&file, 1, NULL, &sb);
    assert_false(sb.failed);
    assert_non_null(strstr(sb.data, "7 available, 1 required-unavailable prediction facet(s)"));
    assert_non_null(strstr(sb.data, "| `engine-track-support` | `runtime_survival` | "
                                    "\xe2\x9d\x8c required_prediction_unavailable | 1 | `"
                                    "\xe2\x80\x94` | `runtime_survival_unobservable` |"));
    assert_null(strstr(sb.data, "Clean"));
    assert_non_null(strstr(sb.data, "7 available prediction facet(s) \xc2\xb7 1 "
                                    "required-unavailable prediction facet(s)"));
    anim_strbuf_free(&sb);
    anim_lint_record_release(&recs[1]);
    anim_arena_free(arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_copies_and_scopes),
        cmocka_unit_test(test_budget_marker),
        cmocka_unit_test(test_text_and_markdown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
