/* loop-seam-vel: a loop can return to its first pose and still
 * hitch once per cycle when it arrives at a different speed than it
 * leaves. Per bone, the model-space velocity of the last in-clip step
 * (N-2 → N-1) is compared with the first (0 → 1); the bone with the
 * largest change is judged against the cap (per-clip
 * max_loop_velocity_delta_mps, else [checks.loop-seam-vel]
 * max_velocity_delta_mps, else 0.1 m/s) under the f32 cap rule. */
#include "checks/loop_util.h"

static int judge(anim_lint_context *ctx, anim_check_record *rec, const anim_clip *clip,
                 const anim_loop_continuity *lc, const anim_loop_caps *caps)
{
    const anim_loop_bone *row = loop_worst_exceeding(lc, ANIM_LOOP_VELOCITY, caps->velocity_mps);
    if (!row)
        return 0;
    anim_finding_fields f = loop_bone_finding(ctx, clip, row, ANIM_LOOP_VELOCITY,
                                              caps->velocity_mps);
    return anim_check_finding(ctx, rec, &f,
                              "loop velocity changes at the seam: bone '%s' differs by %.4f m/s "
                              "between the incoming and outgoing model-space velocities (cap "
                              "%.4f m/s)",
                              f.bone, row->seam_velocity_delta_mps, caps->velocity_mps);
}

CHECK_RUN(loop_seam_vel)
{
    return loop_continuity_each(ctx, rec, "loop_seam_velocity", judge, err);
}
