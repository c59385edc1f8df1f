/* constant-track: a multi-key track that never moves is export bloat
 * ("key everything" exports, baked control rigs). What "never moves"
 * means is the shared constant-track rule (animsmith/track_constant.h),
 * the same one `transform --prune-constant-tracks` removes by. */
#include "animsmith/track_constant.h"
#include "checks/checks.h"

CHECK_RUN(constant_track)
{
    for (uint32_t c = anim_lint_pass_begin(ctx); c < anim_lint_pass_end(ctx); c++) {
        const anim_clip *clip = &ctx->doc->clips[c];
        for (uint32_t i = 0; i < clip->track_count; i++) {
            const anim_track *track = &clip->tracks[i];
            if (!anim_track_is_constant(track))
                continue;
            anim_finding_fields f = {0};
            f.severity = ANIM_SEVERITY_NOTE;
            f.clip = clip->name;
            f.bone = check_bone_name(ctx, track->bone);
            if (anim_check_finding(ctx, rec, &f,
                                   "%s track has %u keys but never moves \xe2\x80\x94 export bloat",
                                   anim_path_name(track->path), (unsigned)track->key_count))
                return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        }
    }
    return 0;
}
