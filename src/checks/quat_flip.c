/* `quat-flip`: adjacent rotation keys on opposite hemispheres
 * (raw stored dot product < 0) make an engine without neighbourhood
 * correction slerp the long way round. Counts such pairs per rotation
 * track over value elements (cubic tangents ignored), skipping pairs with
 * a non-finite component, and reports the count and the first pair.
 *
 * Precision: the dot is taken in f64 (each product of two binary32 values
 * is exact; only the three additions round), so the sign is right even for
 * pairs whose dot lies within f32 rounding of 0 (keys ~180 degrees of
 * rotation apart), where an f32 dot could go either way. */
#include "checks/track_util.h"

static double dot_f64(const float a[4], const float b[4])
{
    return (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2] + (double)a[3] * b[3];
}

static int check_track(anim_lint_context *ctx, anim_check_record *rec, const anim_clip *clip,
                       const anim_track *t)
{
    if (t->path != ANIM_PATH_ROTATION)
        return 0;
    uint32_t count = 0, first = 0;
    bool finite = track_values_finite(t);
    for (uint32_t k = 1; k < t->key_count; k++) {
        const float *a = track_key_quat(t, k - 1);
        const float *b = track_key_quat(t, k);
        if (!a || !b || (!finite && (!track_floats_finite(a, 4) || !track_floats_finite(b, 4))))
            continue;
        if (dot_f64(a, b) < 0.0) {
            if (count == 0)
                first = k;
            count++;
        }
    }
    if (count == 0)
        return 0;
    anim_finding_fields f = track_fields(ctx, clip, t, ANIM_SEVERITY_WARNING);
    if (t->times) {
        f.has_time = true;
        f.time_s = (double)t->times[first];
    }
    f.measured = anim_value_number((double)count);
    return anim_check_finding(ctx, rec, &f,
                              "%u hemisphere flip(s) between adjacent rotation keys (first "
                              "between keys %u and %u) \xe2\x80\x94 engines without neighborhood "
                              "correction will spin the long way",
                              count, first - 1, first);
}

CHECK_RUN(quat_flip)
{
    return track_check_each(ctx, rec, check_track, err);
}
