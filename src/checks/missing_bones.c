/* missing-bones: every name a clip's effective animates_bones
 * lists must exist in the skeleton and carry at least one keyed track in
 * that clip. Whether the keys actually move the bone is frozen-bone's job. */
#include "checks/checks.h"

static bool has_keyed_track(const anim_clip *clip, uint32_t bone)
{
    for (uint32_t i = 0; i < clip->track_count; i++)
        if (clip->tracks[i].bone == bone && clip->tracks[i].key_count >= 1)
            return true;
    return false;
}

CHECK_RUN(missing_bones)
{
    const anim_doc *doc = ctx->doc;
    for (uint32_t c = anim_lint_pass_begin(ctx); c < anim_lint_pass_end(ctx); c++) {
        const anim_string_list *names = &ctx->expect[c].animates_bones;
        if (!names->set)
            continue;
        const anim_clip *clip = &doc->clips[c];
        for (uint32_t i = 0; i < names->count; i++) {
            anim_finding_fields f = {0};
            f.severity = ANIM_SEVERITY_ERROR;
            f.clip = clip->name;
            f.bone = names->items[i];
            /* The first bone of that name, the one every other check that
             * looks a bone up by name resolves. */
            uint32_t bone = anim_doc_find_bone(doc, names->items[i]);
            int rc = 0;
            if (bone == ANIM_NONE)
                rc = anim_check_finding(ctx, rec, &f, "required bone does not exist in the skeleton");
            else if (!has_keyed_track(clip, bone))
                rc = anim_check_finding(ctx, rec, &f,
                                        "required bone carries no keyframes in this clip");
            if (rc)
                return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        }
    }
    return 0;
}
