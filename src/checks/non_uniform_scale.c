/* non-uniform-scale (spec 5.10): a scale track whose axes differ. The
 * spread is absolute (max pairwise |component difference| > 1e-4), which
 * is what the reference code does although its docs say "relative"
 * (spec Appendix B item 2). The finding is placed where the axes are
 * furthest apart. */
#include "checks/checks.h"
#include "checks/vec3_trajectory.h"

CHECK_RUN(non_uniform_scale)
{
    for (uint32_t c = anim_lint_pass_begin(ctx); c < anim_lint_pass_end(ctx); c++) {
        const anim_clip *clip = &ctx->doc->clips[c];
        for (uint32_t i = 0; i < clip->track_count; i++) {
            const anim_track *track = &clip->tracks[i];
            check_vec3_trajectory tr;
            if (track->path != ANIM_PATH_SCALE || !check_vec3_trajectory_analyze(track, &tr) ||
                !check_vec3_trajectory_non_uniform(&tr, CHECK_VEC3_TOLERANCE))
                continue;
            anim_finding_fields f = {0};
            f.severity = ANIM_SEVERITY_WARNING;
            f.clip = clip->name;
            f.bone = check_bone_name(ctx, track->bone);
            f.has_time = true;
            f.time_s = tr.max_spread_time;
            if (anim_check_finding(ctx, rec, &f,
                                   "non-uniform scale present \xe2\x80\x94 verify it is "
                                   "intentional; many rigs and retargeters mishandle non-uniform "
                                   "scale"))
                return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        }
    }
    return 0;
}
