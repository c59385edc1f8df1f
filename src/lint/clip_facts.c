/* The per-clip fact cache of a lint run. Several checks, the group gathers
 * and the JSON measurement of clip_done all want the same derived facts of
 * the clip in hand (loop continuity, the 9.4 endpoint analysis, the
 * endpoint mode, the foot cycle, the root speed). Each is a pure function
 * of the clip, its metric grid and the run's contract and roles, so it is
 * computed on first request and kept until another clip is asked for or
 * the scratch arena (which holds the loop rows) is reset. The values are
 * those of the measure functions called with the same arguments: caching
 * changes how often they run, never what they return. */
#include <string.h>

#include "lint/clip_facts.h"

/* Enough for the two stride floors in use: [checks.loop-seam]
 * min_stride_step_m (loop-seam, measurements) and the built-in 0.02 m of
 * the group checks; equal values share one entry. */
#define FOOT_SLOTS 2

typedef struct {
    uint32_t clip;               /* ANIM_NONE: nothing cached */
    bool has_loop;
    anim_loop_continuity loop;
    bool has_dup;
    int dup_rc;
    anim_dup_endpoint dup;
    anim_error dup_err;
    bool has_endpoint;
    anim_loop_endpoint endpoint;
    uint32_t foot_count;
    double foot_stride[FOOT_SLOTS];
    anim_foot_cycle foot[FOOT_SLOTS];
    bool has_speed;
    anim_root_speed speed;
} clip_facts;

void anim_lint_clip_facts_forget(anim_lint_context *ctx)
{
    clip_facts *f = ctx->clip_facts;
    if (!f)
        return;
    f->clip = ANIM_NONE;
    f->has_loop = f->has_dup = f->has_endpoint = f->has_speed = false;
    f->foot_count = 0;
}

/* The cache for clip, emptied when it held another clip; NULL on
 * allocation failure (the callers then compute without caching). */
static clip_facts *facts_for(anim_lint_context *ctx, uint32_t clip)
{
    clip_facts *f = ctx->clip_facts;
    if (!f) {
        f = anim_arena_calloc(ctx->arena, 1, sizeof *f);
        if (!f)
            return NULL;
        ctx->clip_facts = f;
        f->clip = ANIM_NONE;
    }
    if (f->clip != clip) {
        anim_lint_clip_facts_forget(ctx);
        f->clip = clip;
    }
    return f;
}

int anim_lint_loop_continuity(anim_lint_context *ctx, uint32_t clip, anim_loop_continuity *out,
                              anim_error *err)
{
    /* The grid first: asking for it may release another clip's. */
    const anim_metric_grid *grid = anim_lint_grid(ctx, clip);
    anim_arena *rows = ctx->scratch ? ctx->scratch : ctx->arena;
    clip_facts *f = facts_for(ctx, clip);
    if (!f)
        return anim_loop_continuity_compute(ctx->doc, grid, rows, out, err);
    if (!f->has_loop) {
        if (anim_loop_continuity_compute(ctx->doc, grid, rows, &f->loop, err))
            return -1;
        f->has_loop = true;
    }
    *out = f->loop;
    return 0;
}

int anim_lint_dup_endpoint(anim_lint_context *ctx, uint32_t clip, anim_dup_endpoint *out,
                           anim_error *analysis_err)
{
    const anim_clip *c = &ctx->doc->clips[clip];
    clip_facts *f = facts_for(ctx, clip);
    if (!f)
        return anim_dup_endpoint_analyze(c, out, analysis_err);
    if (!f->has_dup) {
        anim_error_clear(&f->dup_err);
        f->dup_rc = anim_dup_endpoint_analyze(c, &f->dup, &f->dup_err);
        f->has_dup = true;
    }
    *out = f->dup;
    if (f->dup_rc)
        *analysis_err = f->dup_err;
    return f->dup_rc;
}

int anim_lint_loop_endpoint(anim_lint_context *ctx, uint32_t clip, anim_loop_endpoint *out,
                            anim_error *err)
{
    const anim_clip_expect *ex = ctx->expect ? &ctx->expect[clip] : NULL;
    anim_loop_continuity lc;
    if (anim_lint_loop_continuity(ctx, clip, &lc, err))
        return -1;
    clip_facts *f = facts_for(ctx, clip);
    if (f && f->has_endpoint) {
        *out = f->endpoint;
        return 0;
    }
    /* The 9.4 analysis only for a declared loop, as the measure function
     * runs it (anim_loop_endpoint_mode_compute). */
    anim_dup_endpoint analysis;
    anim_error aerr;
    anim_error_clear(&aerr);
    memset(&analysis, 0, sizeof analysis);
    int rc = 0;
    if (ex && ex->loop.set && ex->loop.value)
        rc = anim_lint_dup_endpoint(ctx, clip, &analysis, &aerr);
    anim_loop_endpoint_mode_from_analysis(&lc, ctx->config, ex, rc, &analysis, &aerr, out);
    if (f) {
        f->endpoint = *out;
        f->has_endpoint = true;
    }
    return 0;
}

void anim_lint_foot_cycle(anim_lint_context *ctx, uint32_t clip, double min_stride_step_m,
                          anim_foot_cycle *out)
{
    const anim_metric_grid *grid = anim_lint_grid(ctx, clip);
    clip_facts *f = facts_for(ctx, clip);
    if (!f) {
        anim_foot_cycle_compute(ctx->doc, grid, ctx->rig, min_stride_step_m, out);
        return;
    }
    for (uint32_t i = 0; i < f->foot_count; i++)
        if (memcmp(&f->foot_stride[i], &min_stride_step_m, sizeof min_stride_step_m) == 0) {
            *out = f->foot[i];
            return;
        }
    anim_foot_cycle_compute(ctx->doc, grid, ctx->rig, min_stride_step_m, out);
    /* A third floor value (none today) replaces the last entry. */
    uint32_t slot = f->foot_count < FOOT_SLOTS ? f->foot_count++ : FOOT_SLOTS - 1;
    f->foot_stride[slot] = min_stride_step_m;
    f->foot[slot] = *out;
}

void anim_lint_root_speed(anim_lint_context *ctx, uint32_t clip, anim_root_speed *out)
{
    const anim_metric_grid *grid = anim_lint_grid(ctx, clip);
    clip_facts *f = facts_for(ctx, clip);
    if (f && f->has_speed) {
        *out = f->speed;
        return;
    }
    anim_root_speed_measure(ctx->doc, ctx->rig, grid, out);
    if (f) {
        f->speed = *out;
        f->has_speed = true;
    }
}
