/* One file's lint run: resolve roles and per-clip expectations once, then
 * walk the catalog through the evaluation lifecycle (selection,
 * configuration, applicability, evaluation) and apply severity overrides. */
#include <stdlib.h>
#include <string.h>

#include "animsmith/hash.h"
#include "checks/checks.h"

const anim_metric_grid *anim_lint_grid(anim_lint_context *ctx, uint32_t clip)
{
    if (clip >= ctx->doc->clip_count)
        return NULL;
    if (ctx->grid_state[clip] == 0) {
        anim_error err;
        int rc = anim_metric_grid_build(ctx->doc, &ctx->doc->clips[clip], &ctx->grids[clip], &err);
        ctx->grid_state[clip] = rc == 1 ? 1 : -1;
    }
    return ctx->grid_state[clip] == 1 ? &ctx->grids[clip] : NULL;
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

static int evaluate(anim_lint_context *ctx, const anim_check_def *def, anim_check_record *rec,
                    anim_error *err)
{
    if (!def->run)
        return anim_check_gap(ctx, rec, "check_unavailable", NULL, NULL,
                              "this build of animsmith does not evaluate %s yet", def->id);
    return def->run(ctx, rec, err);
}

int anim_lint_run(const anim_asset *asset, const anim_config *cfg, const anim_lint_options *opts,
                  anim_lint_file *out, anim_error *err)
{
    memset(out, 0, sizeof *out);
    const anim_doc *doc = &asset->doc;
    out->arena = anim_arena_new();
    if (!out->arena)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    out->path = anim_arena_strdup(out->arena, asset->source.path);
    out->byte_count = asset->source.byte_count;
    anim_sha256_hex(asset->source.bytes, asset->source.byte_count, out->sha256_hex);
    anim_rig_config rig_cfg = anim_config_rig(cfg);
    if (anim_rig_resolve(doc, &rig_cfg, &out->rig, err))
        goto fail;

    anim_clip_expect *expect =
        anim_arena_calloc(out->arena, doc->clip_count ? doc->clip_count : 1, sizeof *expect);
    out->record_count = anim_check_count();
    out->records = anim_arena_calloc(out->arena, out->record_count, sizeof *out->records);
    anim_lint_context ctx = {asset, doc, cfg, &out->rig, expect, out->arena, NULL, NULL};
    ctx.grids = calloc(doc->clip_count ? doc->clip_count : 1, sizeof *ctx.grids);
    ctx.grid_state = calloc(doc->clip_count ? doc->clip_count : 1, 1);
    if (!expect || !out->records || !ctx.grids || !ctx.grid_state) {
        free(ctx.grids);
        free(ctx.grid_state);
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        goto fail;
    }
    for (uint32_t c = 0; c < doc->clip_count; c++)
        anim_config_clip_expect(cfg, doc->clips[c].name, &expect[c]);

    int rc = 0;
    for (size_t i = 0; i < out->record_count && rc == 0; i++) {
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
        if (!rec->selected || !rec->enabled || !rec->applicable)
            continue;
        anim_error_clear(err);
        rc = evaluate(&ctx, def, rec, err);
        if (rc) {
            /* The recording helpers fail only on allocation. */
            if (!err || err->code == ANIM_OK)
                anim_error_set(err, ANIM_ERR_NOMEM, "check %s: out of memory", def->id);
            break;
        }
        if (configured >= ANIM_SEVERITY_NOTE)
            for (uint32_t f = 0; f < rec->finding_count; f++)
                rec->findings[f].severity = configured;
        rec->evaluation = rec->gap_count == 0    ? ANIM_EVAL_COMPLETE
                          : rec->scope_count == 0 ? ANIM_EVAL_NOT_EVALUATED
                                                  : ANIM_EVAL_PARTIAL;
    }
    if (rc == 0 && opts && opts->finish) {
        anim_error_clear(err);
        rc = opts->finish(&ctx, opts->finish_user, err);
    }
    for (uint32_t c = 0; c < doc->clip_count; c++)
        if (ctx.grid_state[c] == 1)
            anim_metric_grid_free(&ctx.grids[c]);
    free(ctx.grids);
    free(ctx.grid_state);
    if (rc == 0)
        return 0;
fail:
    anim_lint_file_free(out);
    return -1;
}

void anim_lint_file_free(anim_lint_file *file)
{
    anim_arena_free(file->arena);
    memset(file, 0, sizeof *file);
}
