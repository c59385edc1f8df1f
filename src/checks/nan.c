/* `nan`: a non-finite key time or stored value poisons every
 * pose interpolated through it, so each track reports the first bad time
 * and, independently, the first value element (cubic tangents included)
 * with a non-finite component. No gaps, no scopes: the check always has
 * its evidence. */
#include <math.h>

#include "animsmith/math.h"
#include "checks/track_util.h"

static int check_track(anim_lint_context *ctx, anim_check_record *rec, const anim_clip *clip,
                       const anim_track *t)
{
    const char *prop = track_property(t);
    if (t->times) {
        uint32_t k = (uint32_t)anim_f32_first_nonfinite(t->times, t->key_count);
        if (k < t->key_count) {
            anim_finding_fields f = track_fields(ctx, clip, t, ANIM_SEVERITY_ERROR);
            if (anim_check_finding(ctx, rec, &f, "non-finite key time in %s track (key %u)", prop,
                                   k))
                return -1;
        }
    }
    uint64_t floats = track_float_count(t);
    if (floats == 0 || t->components == 0)
        return 0;
    uint64_t i = anim_f32_first_nonfinite(t->values, (size_t)floats);
    if (i < floats) {
        /* Element index, not float index: the element is one key's vec3 /
         * quaternion (or one tangent of a cubic triplet). */
        unsigned long long element = (unsigned long long)(i / t->components);
        anim_finding_fields f = track_fields(ctx, clip, t, ANIM_SEVERITY_ERROR);
        if (anim_check_finding(ctx, rec, &f, "non-finite value in %s track (element %llu)", prop,
                               element))
            return -1;
    }
    return 0;
}

CHECK_RUN(nan)
{
    return track_check_each(ctx, rec, check_track, err);
}
