/* loop-seam-rot: the rotational twin of loop-seam-vel. Per
 * bone, the shortest-path model-space angular velocity of the last in-clip
 * step is compared with the first; the bone with the largest change is
 * judged against the cap (per-clip max_loop_angular_velocity_delta_degps,
 * else [checks.loop-seam-rot] max_angular_velocity_delta_degps, else
 * 5.0 °/s) under the f32 cap rule. */
#include "checks/loop_util.h"

static int judge(anim_lint_context *ctx, anim_check_record *rec, const anim_clip *clip,
                 const anim_loop_continuity *lc, const anim_loop_caps *caps)
{
    const anim_loop_bone *row = loop_worst_exceeding(lc, ANIM_LOOP_ANGULAR_VELOCITY,
                                                     caps->angular_velocity_degps);
    if (!row)
        return 0;
    anim_finding_fields f = loop_bone_finding(ctx, clip, row, ANIM_LOOP_ANGULAR_VELOCITY,
                                              caps->angular_velocity_degps);
    return anim_check_finding(ctx, rec, &f,
                              "loop angular velocity changes at the seam: bone '%s' differs by "
                              "%.3f deg/s between the incoming and outgoing model-space angular "
                              "velocities (cap %.3f deg/s)",
                              f.bone, row->seam_angular_velocity_delta_degps,
                              caps->angular_velocity_degps);
}

CHECK_RUN(loop_seam_rot)
{
    return loop_continuity_each(ctx, rec, "loop_seam_rotation", judge, err);
}
