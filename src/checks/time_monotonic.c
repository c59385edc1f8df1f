/* `time-monotonic`: key times must start at (or near) zero and
 * move strictly forward. Per track with keys, in order: a negative first
 * key (error), the first non-increasing pair (error, one per track), and a
 * first key materially after zero (note: the pose is clamp-held until
 * then). The comparisons are between binary32 values and binary32
 * constants, exactly as authored, so a time the file stores is judged as
 * stored, never after widening arithmetic; NaN times fail every
 * comparison and are left to `nan`. */
#include "checks/track_util.h"

#define FIRST_KEY_SLACK_S 0.017f
#define NEGATIVE_TIME_TOLERANCE_S 1e-4f

static int check_track(anim_lint_context *ctx, anim_check_record *rec, const anim_clip *clip,
                       const anim_track *t)
{
    if (t->key_count == 0 || !t->times)
        return 0;
    const char *prop = track_property(t);
    const float t0 = t->times[0];
    if (t0 < -NEGATIVE_TIME_TOLERANCE_S) {
        anim_finding_fields f = track_fields(ctx, clip, t, ANIM_SEVERITY_ERROR);
        f.has_time = true;
        f.time_s = (double)t0;
        f.measured = anim_value_number((double)t0);
        if (anim_check_finding(ctx, rec, &f, "negative key time in %s track", prop))
            return -1;
    }
    for (uint32_t k = 1; k < t->key_count; k++) {
        if (!(t->times[k] <= t->times[k - 1]))
            continue;
        anim_finding_fields f = track_fields(ctx, clip, t, ANIM_SEVERITY_ERROR);
        f.has_time = true;
        f.time_s = (double)t->times[k];
        if (anim_check_finding(ctx, rec, &f,
                               "key times not strictly increasing in %s track (keys %u and %u)",
                               prop, k - 1, k))
            return -1;
        break;
    }
    if (t0 > FIRST_KEY_SLACK_S) {
        char when[TRACK_FMT_MAX];
        anim_finding_fields f = track_fields(ctx, clip, t, ANIM_SEVERITY_NOTE);
        f.has_time = true;
        f.time_s = (double)t0;
        f.measured = anim_value_number((double)t0);
        f.expected = anim_value_number(0.0);
        if (anim_check_finding(ctx, rec, &f,
                               "first key of %s track starts at %ss, not 0 \xe2\x80\x94 the pose "
                               "is clamp-held until then",
                               prop, track_fmt_fixed((double)t0, 3, when)))
            return -1;
    }
    return 0;
}

CHECK_RUN(time_monotonic)
{
    return track_check_each(ctx, rec, check_track, err);
}
