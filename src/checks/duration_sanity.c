/* `duration-sanity`: per clip, in index order:
 *   1. a declared duration_s pin that cannot be evaluated (error);
 *   2. a clip without tracks (warning) -- then, without a valid pin,
 *      nothing more can be said about it;
 *   3. a degenerate duration (error; stops the clip), or one above the
 *      24 h upper bound (error; stops the clip): key times that large are
 *      corrupt or in the wrong unit, and nothing measured on them means
 *      anything;
 *   4. a valid pin missed by more than its tolerance (error);
 *   5. multi-key channels ending at different times (warning: the engine
 *      clamp-holds the shorter ones).
 * The pin comparisons are f64 (duration is the widened f32 maximum key
 * time). The end spread is taken in f32 between f32 key times and compared
 * with the f32 constant on purpose: that rounding decides the
 * outcome and is the reported value. Single-key tracks are pinned values,
 * not truncated channels, so they do not count toward the spread. */
#include <math.h>
#include <stdio.h>

#include "checks/track_util.h"

#define END_SPREAD_TOLERANCE_S 0.017f

/* Seconds for a message: plain up to a million, then in exponent form, so a
 * garbage key time reads "1e+38s", not a 39-digit number. */
static const char *fmt_seconds(double v, char buf[TRACK_FMT_MAX])
{
    if (fabs(v) < 1e6)
        return track_fmt_plain(v, buf);
    snprintf(buf, TRACK_FMT_MAX, "%.6g", v);
    return buf;
}

static bool pin_valid(const anim_pin *pin)
{
    return isfinite(pin->value) && pin->value > 0.0 && isfinite(pin->tolerance) &&
           pin->tolerance >= 0.0;
}

static anim_finding_fields clip_fields(const anim_clip *clip, anim_severity severity)
{
    anim_finding_fields f = {0};
    f.severity = severity;
    f.clip = clip->name;
    f.measured = anim_value_none();
    f.expected = anim_value_none();
    return f;
}

static int end_spread(anim_lint_context *ctx, anim_check_record *rec, const anim_clip *clip)
{
    bool any = false;
    float lo = 0.0f, hi = 0.0f;
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const anim_track *t = &clip->tracks[i];
        if (t->key_count < 2 || !t->times)
            continue;
        float end = t->times[t->key_count - 1];
        if (!isfinite(end))
            continue;
        if (!any || end < lo)
            lo = end;
        if (!any || end > hi)
            hi = end;
        any = true;
    }
    if (!any)
        return 0;
    float spread = hi - lo; /* f32, may overflow to inf for extreme times */
    if (!(spread > END_SPREAD_TOLERANCE_S))
        return 0;
    char a[TRACK_FMT_MAX], b[TRACK_FMT_MAX];
    anim_finding_fields f = clip_fields(clip, ANIM_SEVERITY_WARNING);
    f.measured = anim_value_number((double)spread);
    f.expected = anim_value_number(0.0);
    return anim_check_finding(ctx, rec, &f,
                              "channels end at different times (%ss..%ss) \xe2\x80\x94 shorter "
                              "channels will be clamp-held",
                              track_fmt_fixed((double)lo, 3, a), track_fmt_fixed((double)hi, 3, b));
}

static int check_clip(anim_lint_context *ctx, anim_check_record *rec, uint32_t c)
{
    const anim_clip *clip = &ctx->doc->clips[c];
    const anim_pin *pin = &ctx->expect[c].duration_s;
    const double duration = clip->duration_s;
    const bool valid = pin->set && pin_valid(pin);
    char a[TRACK_FMT_MAX], b[TRACK_FMT_MAX], d[TRACK_FMT_MAX];

    if (pin->set && !valid) {
        anim_finding_fields f = clip_fields(clip, ANIM_SEVERITY_ERROR);
        f.measured = anim_value_number(duration);
        if (anim_check_finding(ctx, rec, &f,
                               "invalid declared duration pin (value %ss, tolerance %ss) "
                               "\xe2\x80\x94 value must be finite and positive, and tolerance "
                               "must be finite and non-negative",
                               track_fmt_plain(pin->value, a), track_fmt_plain(pin->tolerance, b)))
            return -1;
    }
    if (clip->track_count == 0) {
        anim_finding_fields f = clip_fields(clip, ANIM_SEVERITY_WARNING);
        if (anim_check_finding(ctx, rec, &f, "clip has no tracks"))
            return -1;
        if (!valid)
            return 0;
    }
    if (!(duration > 0.0) || !isfinite(duration)) {
        anim_finding_fields f = clip_fields(clip, ANIM_SEVERITY_ERROR);
        f.measured = anim_value_number(duration);
        if (valid)
            f.expected = anim_value_number(pin->value);
        return anim_check_finding(ctx, rec, &f, "degenerate clip duration (%ss)",
                                  track_fmt_plain(duration, d));
    }
    /* Default one day ([checks.duration-sanity] max_duration_s): longer
     * than any authored clip, short enough to catch garbage key times and
     * times written in a unit thousands of times too small. */
    const double bound =
        anim_config_check_setting(ctx->config, "duration-sanity", ANIM_CHECK_MAX_DURATION_S);
    if (duration > bound) {
        anim_finding_fields f = clip_fields(clip, ANIM_SEVERITY_ERROR);
        f.measured = anim_value_number(duration);
        f.expected = anim_value_number(bound);
        return anim_check_finding(ctx, rec, &f,
                                  "clip duration %ss is above the %ss bound \xe2\x80\x94 key times "
                                  "this large are corrupt or in the wrong unit",
                                  fmt_seconds(duration, d), fmt_seconds(bound, a));
    }
    if (valid && fabs(duration - pin->value) > pin->tolerance) {
        anim_finding_fields f = clip_fields(clip, ANIM_SEVERITY_ERROR);
        f.measured = anim_value_number(duration);
        f.expected = anim_value_number(pin->value);
        if (anim_check_finding(ctx, rec, &f,
                               "measured duration %ss disagrees with the declared %s \xc2\xb1 %ss "
                               "\xe2\x80\x94 the clip may have been sliced or exported with a "
                               "dropped frame",
                               track_fmt_fixed(duration, 4, d), track_fmt_fixed(pin->value, 4, a),
                               track_fmt_fixed(pin->tolerance, 4, b)))
            return -1;
    }
    return end_spread(ctx, rec, clip);
}

CHECK_RUN(duration_sanity)
{
    for (uint32_t c = anim_lint_pass_begin(ctx); c < anim_lint_pass_end(ctx); c++)
        if (check_clip(ctx, rec, c))
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    return 0;
}
