/* bind-pose: a clip authored against a different bind starts
 * far from the skeleton's rest pose on most bones at once. The mean
 * first-key deviation over the clip's usable rotation tracks is compared
 * with a cap; with fewer than three usable tracks one outlier would decide
 * the mean, so the clip is reported as a coverage gap instead of judged.
 * Duplicate rotation tracks of one bone count twice: each is a track the
 * engine plays, and the check does not guess which one wins. */
#include <stdio.h>

#include "animsmith/math.h"
#include "checks/checks.h"

#define MIN_USABLE_TRACKS 3u

/* q normalized, or false when it is non-finite or zero. */
static bool usable_unit(anim_quat q, anim_quat *out)
{
    if (!anim_quat_is_finite(q) || (q.x == 0.0 && q.y == 0.0 && q.z == 0.0 && q.w == 0.0))
        return false;
    *out = anim_quat_normalize(q);
    return anim_quat_is_finite(*out);
}

static int check_clip(anim_lint_context *ctx, anim_check_record *rec, const anim_clip *clip,
                      double cap)
{
    const anim_doc *doc = ctx->doc;
    double sum = 0.0, worst = 0.0;
    uint32_t count = 0, worst_bone = ANIM_NONE;
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const anim_track *track = &clip->tracks[i];
        if (track->path != ANIM_PATH_ROTATION || track->key_count < 1 ||
            track->bone >= doc->bone_count || track->components != 4)
            continue;
        const float *first = anim_track_key_value(track, 0);
        anim_quat key, rest;
        if (!first || !usable_unit(anim_quat_from_f32(first), &key) ||
            !usable_unit(anim_quat_from_array(doc->bones[track->bone].rest_rotation), &rest))
            continue;
        double deg = anim_deg_from_rad(anim_quat_angle_between(rest, key));
        sum += deg;
        if (count == 0 || deg > worst) { /* strictly greater: the first worst wins */
            worst = deg;
            worst_bone = track->bone;
        }
        count++;
    }
    if (count < MIN_USABLE_TRACKS)
        return anim_check_gap(ctx, rec, "insufficient_rotation_evidence", "first_frame_rest_delta",
                              clip->name,
                              "only %u usable first-frame rotation track(s); at least three are "
                              "required",
                              (unsigned)count);
    if (anim_check_scope(ctx, rec, "first_frame_rest_delta", clip->name))
        return -1;
    double mean = sum / (double)count;
    if (!(mean > cap))
        return 0;
    anim_finding_fields f = {0};
    f.severity = ANIM_SEVERITY_WARNING;
    f.clip = clip->name;
    f.has_time = true;
    f.time_s = 0.0;
    f.measured = anim_value_number(mean);
    f.expected = anim_value_number(cap);
    return anim_check_finding(ctx, rec, &f,
                              "first frame deviates from the rest pose by %.0f\xc2\xb0 on average "
                              "across %u bones (worst %s: %.0f\xc2\xb0) \xe2\x80\x94 authored "
                              "against a different bind?",
                              mean, (unsigned)count, check_bone_name(ctx, worst_bone), worst);
}

CHECK_RUN(bind_pose)
{
    double cap = anim_config_check_setting(ctx->config, "bind-pose",
                                           ANIM_CHECK_MAX_MEAN_REST_DELTA_DEG);
    for (uint32_t c = anim_lint_pass_begin(ctx); c < anim_lint_pass_end(ctx); c++)
        if (check_clip(ctx, rec, &ctx->doc->clips[c], cap))
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    return 0;
}
