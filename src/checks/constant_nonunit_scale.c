/* constant-nonunit-scale (opt-in): a scale channel that holds
 * still away from unit scale, single-key pins included. It is a project
 * policy signal (some runtimes expect unit scale in animation channels),
 * so the catalog keeps it disabled until a severity is configured. */
#include "checks/checks.h"
#include "checks/track_util.h"
#include "checks/vec3_trajectory.h"

static int judge(anim_lint_context *ctx, anim_check_record *rec, const anim_clip *clip,
                 const anim_track *track)
{
    anim_vec3_trajectory tr;
    if (track->path != ANIM_PATH_SCALE || !check_vec3_trajectory_of(ctx, clip, track, &tr) ||
        anim_vec3_trajectory_varies(&tr, ANIM_VEC3_TOLERANCE))
        return 0;
    /* Decided in f32, the precision of the stored values, so widening
     * noise cannot create a finding. */
    if (!((float)anim_vec3_trajectory_unit_deviation(&tr) > (float)ANIM_VEC3_TOLERANCE))
        return 0;
    anim_finding_fields f = track_fields(ctx, clip, track, ANIM_SEVERITY_NOTE);
    return anim_check_finding(ctx, rec, &f, "constant non-unit scale channel present");
}

CHECK_RUN(constant_nonunit_scale)
{
    return track_check_each(ctx, rec, judge, err);
}
