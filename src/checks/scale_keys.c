/* scale-keys: a scale track whose values move at all. Animated
 * scale is legal glTF, but many rigs and retargeters mishandle it, so it is
 * worth a human decision. */
#include "checks/checks.h"
#include "checks/track_util.h"
#include "checks/vec3_trajectory.h"

static int judge(anim_lint_context *ctx, anim_check_record *rec, const anim_clip *clip,
                 const anim_track *track)
{
    anim_vec3_trajectory tr;
    if (track->path != ANIM_PATH_SCALE || !check_vec3_trajectory_of(ctx, clip, track, &tr) ||
        !anim_vec3_trajectory_varies(&tr, ANIM_VEC3_TOLERANCE))
        return 0;
    anim_finding_fields f = track_fields(ctx, clip, track, ANIM_SEVERITY_WARNING);
    return anim_check_finding(ctx, rec, &f,
                              "scale animation present \xe2\x80\x94 verify it is intentional; "
                              "many rigs and retargeters mishandle animated scale");
}

CHECK_RUN(scale_keys)
{
    return track_check_each(ctx, rec, judge, err);
}
