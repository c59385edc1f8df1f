/* Helpers shared by the per-track mechanical checks (see track_util.h). */
#include <stdint.h>

#include "animsmith/math.h"
#include "animsmith/numfmt.h"
#include "checks/track_util.h"

int track_check_each(anim_lint_context *ctx, anim_check_record *rec, track_check_fn fn,
                     anim_error *err)
{
    for (uint32_t c = anim_lint_pass_begin(ctx); c < anim_lint_pass_end(ctx); c++) {
        const anim_clip *clip = &ctx->doc->clips[c];
        for (uint32_t i = 0; i < clip->track_count; i++)
            if (fn(ctx, rec, clip, &clip->tracks[i]))
                return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    return 0;
}

anim_finding_fields track_fields(const anim_lint_context *ctx, const anim_clip *clip,
                                 const anim_track *track, anim_severity severity)
{
    anim_finding_fields f = {0};
    f.severity = severity;
    f.clip = clip->name;
    f.bone = check_bone_name(ctx, track->bone);
    f.measured = anim_value_none();
    f.expected = anim_value_none();
    return f;
}

const char *track_property(const anim_track *track)
{
    return anim_path_name(track->path);
}

uint64_t track_float_count(const anim_track *track)
{
    if (!track->values)
        return 0;
    return (uint64_t)track->value_count * track->components;
}

bool track_floats_finite(const float *v, uint32_t n)
{
    return anim_f32_first_nonfinite(v, n) == n;
}

bool track_values_finite(const anim_track *track)
{
    uint64_t floats = track_float_count(track);
    return floats > 0 && floats <= SIZE_MAX &&
           anim_f32_first_nonfinite(track->values, (size_t)floats) == floats;
}

const float *track_key_quat(const anim_track *track, uint32_t k)
{
    if (track->components != 4)
        return NULL;
    return anim_track_key_value(track, k);
}

const char *track_fmt_fixed(double v, int decimals, char buf[TRACK_FMT_MAX])
{
    /* The widest finite "%.4f" is ~315 characters; anim_fmt_fixed
     * truncates rather than overflows if a caller asks for more. */
    anim_fmt_fixed(v, decimals, buf, TRACK_FMT_MAX);
    return buf;
}

const char *track_fmt_plain(double v, char buf[TRACK_FMT_MAX])
{
    anim_fmt_f64_plain(v, buf);
    return buf;
}
