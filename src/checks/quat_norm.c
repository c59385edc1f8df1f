/* `quat-norm`: the worst rotation key whose length differs
 * from 1 by more than 1e-3. Only value elements count (cubic tangents are
 * not rotations); keys with a non-finite component are left to `nan`;
 * zero quaternions are reported with length 0.
 *
 * Precision: we decide in f64 (the length of the widened components, which
 * is exact up to one rounding) against the f32 tolerance widened, so the
 * verdict does not depend on f32 rounding. The reported `measured` is the
 * f32 length with the SIMD grouping (x*x + z*z) + (y*y + w*w), widened —
 * e.g. 1.0500000715255737 for clip-dirty's key 2 — so the printed figure
 * is the binary32 length of the stored key, the same on every compiler. */
#include <math.h>

#include "checks/track_util.h"

#define QUAT_NORM_TOLERANCE 1e-3f

/* The reported f32 length; separate statements keep the compiler from
 * fusing multiply-adds. */
static float grouped_length_f32(const float q[4])
{
    float xx = q[0] * q[0];
    float yy = q[1] * q[1];
    float zz = q[2] * q[2];
    float ww = q[3] * q[3];
    float a = xx + zz;
    float b = yy + ww;
    float dot = a + b;
    return sqrtf(dot);
}

static double length_f64(const float q[4])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    return sqrt(x * x + y * y + z * z + w * w);
}

static int check_track(anim_lint_context *ctx, anim_check_record *rec, const anim_clip *clip,
                       const anim_track *t)
{
    if (t->path != ANIM_PATH_ROTATION)
        return 0;
    bool found = false;
    uint32_t worst_key = 0;
    double worst_dev = 0.0;
    bool finite = track_values_finite(t);
    for (uint32_t k = 0; k < t->key_count; k++) {
        const float *q = track_key_quat(t, k);
        if (!q || (!finite && !track_floats_finite(q, 4)))
            continue;
        double dev = fabs(length_f64(q) - 1.0);
        if (!(dev > (double)QUAT_NORM_TOLERANCE))
            continue;
        /* Strict `>`: the first of equally bad keys wins. */
        if (!found || dev > worst_dev) {
            found = true;
            worst_key = k;
            worst_dev = dev;
        }
    }
    if (!found)
        return 0;
    anim_finding_fields f = track_fields(ctx, clip, t, ANIM_SEVERITY_ERROR);
    if (t->times && worst_key < t->key_count) {
        f.has_time = true;
        f.time_s = (double)t->times[worst_key];
    }
    f.measured = anim_value_number((double)grouped_length_f32(track_key_quat(t, worst_key)));
    f.expected = anim_value_number(1.0);
    return anim_check_finding(ctx, rec, &f, "non-unit rotation key (worst at key %u)", worst_key);
}

CHECK_RUN(quat_norm)
{
    return track_check_each(ctx, rec, check_track, err);
}
