/* constant-nonunit-scale (spec 5.11, opt-in): a scale channel that holds
 * still away from unit scale, single-key pins included. It is a project
 * policy signal (some runtimes expect unit scale in animation channels),
 * so the catalog keeps it disabled until a severity is configured. */
#include "checks/checks.h"
#include "checks/vec3_trajectory.h"

CHECK_RUN(constant_nonunit_scale)
{
    const float tol = (float)CHECK_VEC3_TOLERANCE;
    for (uint32_t c = anim_lint_pass_begin(ctx); c < anim_lint_pass_end(ctx); c++) {
        const anim_clip *clip = &ctx->doc->clips[c];
        for (uint32_t i = 0; i < clip->track_count; i++) {
            const anim_track *track = &clip->tracks[i];
            check_vec3_trajectory tr;
            if (track->path != ANIM_PATH_SCALE || !check_vec3_trajectory_analyze(track, &tr) ||
                check_vec3_trajectory_varies(&tr, CHECK_VEC3_TOLERANCE))
                continue;
            /* Decided in f32 like the reference's comparison. */
            if (!((float)check_vec3_trajectory_unit_deviation(&tr) > tol))
                continue;
            anim_finding_fields f = {0};
            f.severity = ANIM_SEVERITY_NOTE;
            f.clip = clip->name;
            f.bone = check_bone_name(ctx, track->bone);
            if (anim_check_finding(ctx, rec, &f, "constant non-unit scale channel present"))
                return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        }
    }
    return 0;
}
