/* loop-closure: a declared loop must come back to its first
 * pose. The bone whose last-frame model-space position (and, separately,
 * rotation) is farthest from frame 0 is compared with the clip's caps
 * (per-clip override, else [checks.loop-closure], else 0.01 m / 1.0°)
 * under the f32 cap rule. The comparison is inclusive: a loop that
 * repeats frame 0 as its last sample closes; an open cycle does not. */
#include "checks/loop_util.h"

static int judge(anim_lint_context *ctx, anim_check_record *rec, const anim_clip *clip,
                 const anim_loop_continuity *lc, const anim_loop_caps *caps)
{
    const anim_loop_bone *row = loop_worst_exceeding(lc, ANIM_LOOP_POSITION, caps->position_m);
    if (row) {
        anim_finding_fields f = loop_bone_finding(ctx, clip, row, ANIM_LOOP_POSITION,
                                                  caps->position_m);
        if (anim_check_finding(ctx, rec, &f,
                               "loop does not close in position: bone '%s' is %.4f m from its "
                               "first-frame model-space position (cap %.4f m)",
                               f.bone, row->position_delta_m, caps->position_m))
            return -1;
    }
    row = loop_worst_exceeding(lc, ANIM_LOOP_ROTATION, caps->rotation_deg);
    if (row) {
        anim_finding_fields f = loop_bone_finding(ctx, clip, row, ANIM_LOOP_ROTATION,
                                                  caps->rotation_deg);
        if (anim_check_finding(ctx, rec, &f,
                               "loop does not close in rotation: bone '%s' is %.3f degrees from "
                               "its first-frame model-space rotation (cap %.3f degrees)",
                               f.bone, row->rotation_delta_deg, caps->rotation_deg))
            return -1;
    }
    return 0;
}

CHECK_RUN(loop_closure)
{
    return loop_continuity_each(ctx, rec, "loop_closure", judge, err);
}
