/* One file's lint run: resolve roles and per-clip expectations once, then
 * walk the catalog through the evaluation lifecycle (selection,
 * configuration, applicability, evaluation) and apply severity overrides.
 *
 * Evaluation is clip-major so that at most one clip's metric grid is alive
 * per clip worker at a time: the clip pass (src/lint/clip_pass.c) judges
 * each clip with every active per-clip check, lets the whole-document
 * checks gather their small per-clip facts and the caller's clip_done see
 * it, then releases the grid. The whole-document checks run after the last
 * clip, here. Every record lists what it found in the same order as a
 * check-major walk would. */
#include <stdlib.h>
#include <string.h>

#include "animsmith/engine.h"
#include "checks/checks.h"
#include "lint/clip_facts.h"
#include "lint/run_internal.h"

uint32_t anim_lint_pass_begin(const anim_lint_context *ctx)
{
    return ctx->pass_clip == ANIM_NONE ? 0 : ctx->pass_clip;
}

uint32_t anim_lint_pass_end(const anim_lint_context *ctx)
{
    return ctx->pass_clip == ANIM_NONE ? ctx->doc->clip_count : ctx->pass_clip + 1;
}

static bool is_selected(const anim_lint_options *opts, const char *id)
{
    if (!opts || !opts->select)
        return true;
    for (size_t i = 0; i < opts->select_count; i++)
        if (strcmp(opts->select[i], id) == 0)
            return true;
    return false;
}

/* The recording helpers fail only on allocation. */
int anim_lint_check_failed(const anim_check_def *def, anim_error *err)
{
    if (!err || err->code == ANIM_OK)
        anim_error_set(err, ANIM_ERR_NOMEM, "check %s: out of memory", def->id);
    return -1;
}

int anim_lint_evaluate(anim_lint_context *ctx, const anim_check_def *def,
                       anim_check_record *rec, anim_error *err)
{
    anim_error_clear(err);
    int rc = def->run ? def->run(ctx, rec, err)
                      : anim_check_gap(ctx, rec, "check_unavailable", NULL, NULL,
                                       "this build of animsmith does not evaluate %s yet",
                                       def->id);
    return rc ? anim_lint_check_failed(def, err) : 0;
}

/* A catalog entry without an evaluation reports its one gap once, so it
 * runs with the whole-document checks whatever its kind. */
bool anim_lint_per_clip(const anim_check_def *def)
{
    return def->per_clip && def->run;
}

/* The cached clip facts keep rows in the scratch, so they go with it. */
void anim_lint_scratch_drop(anim_lint_context *ctx)
{
    /* What lives in the scratch goes with it: the clip facts' rows and the
     * checks' memo. */
    anim_lint_clip_facts_forget(ctx);
    ctx->check_memo = NULL;
    anim_arena_free(ctx->scratch);
    ctx->scratch = NULL;
}

int anim_lint_scratch_reset(anim_lint_context *ctx, anim_error *err)
{
    anim_lint_scratch_drop(ctx);
    ctx->scratch = anim_arena_new();
    return ctx->scratch ? 0 : anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
}

static int evaluate_all(anim_lint_context *ctx, anim_lint_file *out, const bool *active,
                        const anim_lint_options *opts, const anim_lint_parallel *par,
                        anim_error *err)
{
    if (anim_lint_clip_pass(ctx, out, active, opts, par, err))
        return -1;
    ctx->pass_clip = ANIM_NONE;
    for (size_t i = 0; i < out->record_count; i++) {
        const anim_check_def *def = anim_check_at(i);
        if (!active[i] || anim_lint_per_clip(def))
            continue;
        if (anim_lint_scratch_reset(ctx, err) ||
            anim_lint_evaluate(ctx, def, &out->records[i], err))
            return -1;
        anim_lint_grid_release(ctx);
    }
    return 0;
}

int anim_lint_run(const anim_asset *asset, const anim_config *cfg, const anim_lint_options *opts,
                  anim_lint_file *out, anim_error *err)
{
    return anim_lint_run_parallel(asset, cfg, opts, NULL, out, err);
}

int anim_lint_run_parallel(const anim_asset *asset, const anim_config *cfg,
                           const anim_lint_options *opts, const anim_lint_parallel *par,
                           anim_lint_file *out, anim_error *err)
{
    memset(out, 0, sizeof *out);
    const anim_doc *doc = &asset->doc;
    out->arena = anim_arena_new();
    if (!out->arena)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    out->path = anim_arena_strdup(out->arena, asset->source.path);
    out->byte_count = asset->source.input_byte_count;
    anim_rig_config rig_cfg = anim_config_rig(cfg);
    if (anim_rig_resolve(doc, &rig_cfg, &out->rig, err))
        goto fail;

    anim_clip_expect *expect =
        anim_arena_calloc(out->arena, doc->clip_count ? doc->clip_count : 1, sizeof *expect);
    out->record_count = anim_check_count();
    out->records = anim_arena_calloc(out->arena, out->record_count, sizeof *out->records);
    bool *active = anim_arena_calloc(out->arena, out->record_count, sizeof *active);
    if (!expect || !out->records || !active) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        goto fail;
    }
    for (uint32_t c = 0; c < doc->clip_count; c++)
        anim_config_clip_expect(cfg, doc->clips[c].name, &expect[c]);

    anim_lint_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.asset = asset;
    ctx.doc = doc;
    ctx.config = cfg;
    ctx.rig = &out->rig;
    ctx.expect = expect;
    /* The engine profile's same-load facts, before any check: a format the
     * profile does not accept, or a clip without its required settings,
     * is an operator error, not a finding. */
    anim_engine_run *engine = NULL;
    if (anim_engine_prepare(cfg, asset, out->arena, &engine, err))
        goto fail;
    ctx.engine = engine;
    out->engine = engine;
    ctx.facet_budget_left = ANIM_FACET_BUDGET;
    ctx.arena = out->arena;
    ctx.pass_clip = ANIM_NONE;
    ctx.grid_clip = ANIM_NONE;

    /* Selection, configuration and applicability come from the contract
     * alone, so they are settled before anything is evaluated. */
    for (size_t i = 0; i < out->record_count; i++) {
        const anim_check_def *def = anim_check_at(i);
        anim_check_record *rec = &out->records[i];
        rec->check_id = def->id;
        rec->selected = is_selected(opts, def->id);
        const anim_check_config *cc = anim_config_check(cfg, def->id);
        anim_severity configured = cc ? cc->severity : ANIM_SEVERITY_UNSET;
        rec->enabled = configured == ANIM_SEVERITY_UNSET ? !def->opt_in
                                                          : configured != ANIM_SEVERITY_OFF;
        rec->applicable = def->applicable(&ctx);
        rec->evaluation = ANIM_EVAL_NOT_EVALUATED;
        active[i] = rec->selected && rec->enabled && rec->applicable;
    }

    int rc = evaluate_all(&ctx, out, active, opts, par, err);
    anim_lint_grid_release(&ctx);
    /* Before finish: the record it renders must not share the peak with
     * the largest clip's grid block. */
    anim_grid_memory_free(&ctx.grid_memory);
    anim_lint_scratch_drop(&ctx);

    for (size_t i = 0; rc == 0 && i < out->record_count; i++) {
        if (!active[i])
            continue;
        anim_check_record *rec = &out->records[i];
        const anim_check_config *cc = anim_config_check(cfg, rec->check_id);
        anim_severity configured = cc ? cc->severity : ANIM_SEVERITY_UNSET;
        if (configured >= ANIM_SEVERITY_NOTE)
            for (uint32_t f = 0; f < rec->finding_count; f++)
                rec->findings[f].severity = configured;
        if (rec->prediction_schema && anim_lint_facets_finish(&ctx, rec)) {
            anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
            rc = -1;
            break;
        }
        /* Required-unavailable facets are work not done: the record is
         * partial when it also completed something, not_evaluated when it
         * completed nothing. */
        uint32_t available = 0, unavailable = 0;
        anim_check_facet_counts(rec, &available, &unavailable);
        bool missing = rec->gap_count != 0 || unavailable != 0;
        rec->evaluation = !missing                ? ANIM_EVAL_COMPLETE
                          : rec->scope_count == 0 ? ANIM_EVAL_NOT_EVALUATED
                                                  : ANIM_EVAL_PARTIAL;
    }
    if (rc == 0 && opts && opts->finish) {
        anim_error_clear(err);
        rc = opts->finish(&ctx, opts->user, err);
        anim_lint_grid_release(&ctx);
        anim_lint_clip_facts_forget(&ctx);
    }
    anim_grid_memory_free(&ctx.grid_memory); /* one finish may have asked for */
    if (rc == 0)
        return 0;
fail:
    anim_lint_file_free(out);
    return -1;
}

void anim_lint_file_free(anim_lint_file *file)
{
    for (size_t i = 0; file->records && i < file->record_count; i++) {
        anim_lint_record_release(&file->records[i]);
    }
    for (uint32_t w = 0; w < file->worker_arena_count; w++)
        anim_arena_free(file->worker_arenas[w]);
    free(file->worker_arenas);
    anim_arena_free(file->arena);
    memset(file, 0, sizeof *file);
}
