/* scale-keys (spec 5.9): a scale track whose values move at all. Animated
 * scale is legal glTF, but many rigs and retargeters mishandle it, so it is
 * worth a human decision. */
#include "checks/checks.h"
#include "checks/vec3_trajectory.h"

CHECK_RUN(scale_keys)
{
    for (uint32_t c = anim_lint_pass_begin(ctx); c < anim_lint_pass_end(ctx); c++) {
        const anim_clip *clip = &ctx->doc->clips[c];
        for (uint32_t i = 0; i < clip->track_count; i++) {
            const anim_track *track = &clip->tracks[i];
            check_vec3_trajectory tr;
            if (track->path != ANIM_PATH_SCALE || !check_vec3_trajectory_analyze(track, &tr) ||
                !check_vec3_trajectory_varies(&tr, CHECK_VEC3_TOLERANCE))
                continue;
            anim_finding_fields f = {0};
            f.severity = ANIM_SEVERITY_WARNING;
            f.clip = clip->name;
            f.bone = check_bone_name(ctx, track->bone);
            if (anim_check_finding(ctx, rec, &f,
                                   "scale animation present \xe2\x80\x94 verify it is intentional; "
                                   "many rigs and retargeters mishandle animated scale"))
                return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        }
    }
    return 0;
}
