/* fps: a clip that declares the frame rate it was authored at
 * must span a whole number of those frames, and its keys must sit on that
 * frame grid. A fractional frame count points at a slice cut mid-frame;
 * off-grid keys at resampling drift. Both are judged within 0.1 frame, the
 * same tolerance as the frame_grid measurement. Only the worst
 * off-grid key is reported, so a uniformly drifted clip gives one finding,
 * not one per key. */
#include <math.h>

#include "animsmith/math.h"
#include "animsmith/measure.h"
#include "checks/track_util.h"

#define SCOPE "frame_grid"

static int check_clip(anim_lint_context *ctx, anim_check_record *rec, const anim_clip *clip,
                      double fps)
{
    char a[TRACK_FMT_MAX], b[TRACK_FMT_MAX], p[TRACK_FMT_MAX];
    if (!(isfinite(fps) && fps > 0.0))
        return anim_check_gap(ctx, rec, "invalid_declared_fps", SCOPE, clip->name,
                              "clip declares a non-positive or non-finite frame rate (%s)",
                              track_fmt_plain(fps, p));
    if (anim_check_scope(ctx, rec, SCOPE, clip->name))
        return -1;
    track_fmt_plain(fps, p);

    double frames = clip->duration_s * fps;
    if (anim_off_whole(frames) > ANIM_FRAME_GRID_TOLERANCE) {
        anim_finding_fields f = {0};
        f.severity = ANIM_SEVERITY_WARNING;
        f.clip = clip->name;
        f.measured = anim_value_number(frames);
        f.expected = anim_value_number(round(frames));
        if (anim_check_finding(ctx, rec, &f,
                               "duration %ss is %s frames at %s fps \xe2\x80\x94 not a whole frame "
                               "count; a slice cut mid-frame?",
                               track_fmt_fixed(clip->duration_s, 4, a),
                               track_fmt_fixed(frames, 2, b), p))
            return -1;
    }

    /* The worst off-grid key: strictly larger replaces, so the first of
     * equal offenders (track order, then key order) is the one named. */
    const anim_track *worst_track = NULL;
    double worst_err = 0.0, worst_t = 0.0;
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const anim_track *t = &clip->tracks[i];
        for (uint32_t k = 0; k < t->key_count; k++) {
            double time = (double)t->times[k];
            double e = anim_off_whole(time * fps);
            if (e > ANIM_FRAME_GRID_TOLERANCE && (!worst_track || e > worst_err)) {
                worst_track = t;
                worst_err = e;
                worst_t = time;
            }
        }
    }
    if (!worst_track)
        return 0;
    anim_finding_fields f = {0};
    f.severity = ANIM_SEVERITY_WARNING;
    f.clip = clip->name;
    f.has_time = true;
    f.time_s = worst_t; /* an authored f32 key time, widened */
    f.measured = anim_value_number(worst_err);
    return anim_check_finding(ctx, rec, &f,
                              "%s key at %ss sits %s frames off the %s fps grid (worst offender) "
                              "\xe2\x80\x94 resampling drift?",
                              track_property(worst_track), track_fmt_fixed(worst_t, 4, a),
                              track_fmt_fixed(worst_err, 2, b), p);
}

CHECK_RUN(fps)
{
    for (uint32_t c = anim_lint_pass_begin(ctx); c < anim_lint_pass_end(ctx); c++) {
        const anim_clip_expect *ex = &ctx->expect[c];
        if (!ex->fps.set)
            continue;
        if (check_clip(ctx, rec, &ctx->doc->clips[c], ex->fps.value))
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    return 0;
}
