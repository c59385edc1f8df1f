/* loop-seam: the locomotion view of a popping loop. The feet's
 * hips-relative positions jump across the wrap (frame N-1 → 0) by some
 * distance; normalized by the larger of the two in-clip steps next to the
 * seam, a clean cycle reads ≈ 1 or less and a cut cycle several times
 * that. Needs the hips and a foot role; without a usable stride step
 * (a standing clip) the ratio means nothing, so that is a gap, not a pass.
 * The cap compare is a plain f64 `>` (unlike the per-bone caps). */
#include "checks/loop_util.h"

static int seam_clip(anim_lint_context *ctx, anim_check_record *rec, uint32_t c,
                     double max_ratio, double min_stride)
{
    const anim_clip *clip = &ctx->doc->clips[c];
    static const char scope[] = "loop_seam";
    if (!anim_foot_cycle_roles(ctx->rig))
        return anim_check_gap_gait_roles(ctx, rec, scope, clip->name);
    anim_foot_cycle fc;
    anim_lint_foot_cycle(ctx, c, min_stride, &fc);
    switch (fc.status) {
    case ANIM_FOOT_CYCLE_OK: break;
    case ANIM_FOOT_CYCLE_NO_ROLES: return anim_check_gap_gait_roles(ctx, rec, scope, clip->name);
    case ANIM_FOOT_CYCLE_NO_GRID:
        return anim_check_gap(ctx, rec, "measurement_unavailable", scope, clip->name,
                              "clip is too short to sample a loop cycle");
    default:
        return anim_check_gap(ctx, rec, "measurement_unavailable", scope, clip->name,
                              "foot-cycle metrics could not be produced");
    }
    if (!fc.has_ratio)
        return anim_check_gap(ctx, rec, "measurement_unavailable", scope, clip->name,
                              "the clip has no usable stride step for normalizing its loop seam");
    if (anim_check_scope(ctx, rec, scope, clip->name))
        return -1;
    if (!(fc.ratio > max_ratio))
        return 0;
    anim_finding_fields f = {0};
    f.severity = ANIM_SEVERITY_ERROR;
    f.clip = clip->name;
    f.time_s = loop_seam_time(clip);
    f.has_time = true;
    f.measured = anim_value_number(fc.ratio);
    f.expected = anim_value_number(max_ratio);
    return anim_check_finding(ctx, rec, &f,
                              "loop seam pops: wrap discontinuity is %.2f\xc3\x97 the neighbouring "
                              "in-clip step (cap %.2f) \xe2\x80\x94 the clip does not close its "
                              "cycle",
                              fc.ratio, max_ratio);
}

CHECK_RUN(loop_seam)
{
    double max_ratio = anim_config_check_setting(ctx->config, "loop-seam", ANIM_CHECK_MAX_RATIO);
    double min_stride = anim_foot_cycle_min_stride(ctx->config);
    for (uint32_t c = anim_lint_pass_begin(ctx); c < anim_lint_pass_end(ctx); c++)
        if (loop_declared(ctx, c) && seam_clip(ctx, rec, c, max_ratio, min_stride))
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    return 0;
}
