/* The lint context's one cached metric grid (anim_lint_grid, lint.h): built
 * when a check, gather or measurement first asks for a clip's grid, kept
 * while that clip is in hand, and released (its block kept for the next
 * clip) when another clip is asked for. Its own file so that the clip-fact
 * cache, which asks for grids, and the run, which forgets the facts, do
 * not call each other. */
#include "lint/run_internal.h"

void anim_lint_grid_release(anim_lint_context *ctx)
{
    if (ctx->grid_built)
        anim_metric_grid_recycle(&ctx->grid, &ctx->grid_memory);
    ctx->grid_built = false;
    ctx->grid_clip = ANIM_NONE;
}

const anim_metric_grid *anim_lint_grid(anim_lint_context *ctx, uint32_t clip)
{
    if (clip >= ctx->doc->clip_count)
        return NULL;
    if (ctx->grid_clip != clip) {
        anim_lint_grid_release(ctx);
        anim_error err;
        /* Prepared, not filled: each reader fills the entries it reads. */
        int rc = anim_metric_grid_prepare_reusing(ctx->doc, &ctx->doc->clips[clip], &ctx->grid,
                                                  &ctx->grid_memory, &err);
        ctx->grid_clip = clip;
        ctx->grid_built = rc == 1;
    }
    return ctx->grid_built ? &ctx->grid : NULL;
}
