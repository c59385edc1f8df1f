/* The constant-track rule, shared by the constant-track check and
 * constant-track pruning so the note and the removal never disagree about
 * which tracks hold still. */
#include <math.h>

#include "animsmith/sample.h"
#include "animsmith/track_constant.h"
#include "animsmith/vec3_trajectory.h"

/* The key's quaternion, normalized; false when missing, non-finite or zero. */
static bool unit_key(const anim_track *track, uint32_t k, anim_quat *out)
{
    const float *v = anim_track_key_value(track, k);
    if (!v)
        return false;
    anim_quat q = anim_quat_from_f32(v);
    if (!anim_quat_is_finite(q) || (q.x == 0.0 && q.y == 0.0 && q.z == 0.0 && q.w == 0.0))
        return false;
    q = anim_quat_normalize(q);
    if (!anim_quat_is_finite(q))
        return false;
    *out = q;
    return true;
}

/* The angle between two unit quaternions. Kept apart from the public form
 * so inputs that are already unit are not normalized a second time (which
 * can move the last bit, and the rule's verdict must not depend on it). */
static double delta_of_units(anim_quat a, anim_quat b)
{
    anim_quat d = anim_quat_mul(anim_quat_conj(a), b);
    return 2.0 * atan2(sqrt(d.x * d.x + d.y * d.y + d.z * d.z), fabs(d.w));
}

double anim_quat_angular_delta(anim_quat a, anim_quat b)
{
    return delta_of_units(anim_quat_normalize(a), anim_quat_normalize(b));
}

static bool cubic_tangents_zero(const anim_track *track)
{
    for (uint32_t k = 0; k < track->key_count; k++) {
        uint64_t in = 3u * (uint64_t)k, out = in + 2u;
        if (out >= track->value_count || !track->values)
            return false;
        const float *a = track->values + in * 4u, *b = track->values + out * 4u;
        for (int i = 0; i < 4; i++)
            if (a[i] != 0.0f || b[i] != 0.0f) /* -0.0 compares equal to zero */
                return false;
    }
    return true;
}

static bool rotation_constant(const anim_track *track)
{
    anim_quat q0, qk;
    if (!unit_key(track, 0, &q0))
        return false;
    for (uint32_t k = 1; k < track->key_count; k++) {
        if (!unit_key(track, k, &qk))
            return false;
        double delta = delta_of_units(q0, qk);
        /* Decided in f32, the precision of the stored values, so widening
         * noise cannot decide whether the track is constant. */
        if (!((float)delta <= (float)ANIM_TRACK_CONSTANT_ROTATION_TOL_RAD))
            return false;
    }
    return track->interp != ANIM_INTERP_CUBICSPLINE || cubic_tangents_zero(track);
}

bool anim_track_is_constant(const anim_track *track)
{
    if (!track || track->key_count < 2)
        return false;
    switch (anim_track_storage(track)) {
    case ANIM_STORAGE_VEC3: {
        anim_vec3_trajectory tr;
        return anim_vec3_trajectory_analyze(track, &tr) &&
               !anim_vec3_trajectory_varies(&tr, ANIM_TRACK_CONSTANT_VEC3_TOL);
    }
    case ANIM_STORAGE_QUAT:
        return rotation_constant(track);
    case ANIM_STORAGE_NONE:
    default:
        return false;
    }
}
