/* non-uniform-scale: a scale track whose axes differ. The
 * spread is absolute (max pairwise |component difference| > 1e-4), not
 * relative: a tolerance in scale units reads the same on every bone. The
 * finding is placed where the axes are
 * furthest apart. */
#include "checks/checks.h"
#include "checks/track_util.h"
#include "checks/vec3_trajectory.h"

static int judge(anim_lint_context *ctx, anim_check_record *rec, const anim_clip *clip,
                 const anim_track *track)
{
    anim_vec3_trajectory tr;
    if (track->path != ANIM_PATH_SCALE || !check_vec3_trajectory_of(ctx, clip, track, &tr) ||
        !anim_vec3_trajectory_non_uniform(&tr, ANIM_VEC3_TOLERANCE))
        return 0;
    anim_finding_fields f = track_fields(ctx, clip, track, ANIM_SEVERITY_WARNING);
    f.has_time = true;
    f.time_s = tr.max_spread_time;
    return anim_check_finding(ctx, rec, &f,
                              "non-uniform scale present \xe2\x80\x94 verify it is "
                              "intentional; many rigs and retargeters mishandle non-uniform "
                              "scale");
}

CHECK_RUN(non_uniform_scale)
{
    return track_check_each(ctx, rec, judge, err);
}
