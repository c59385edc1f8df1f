/* constant-track: a multi-key track that never moves is
 * export bloat ("key everything" exports, baked control rigs). Vec3 tracks
 * use the trajectory analysis, so a cubic overshoot between equal keys
 * counts as motion; quaternion tracks compare every key with the first
 * sign-invariantly and demand all-zero cubic tangents, since a tangent
 * is motion the keys do not show. */
#include <math.h>

#include "animsmith/math.h"
#include "animsmith/sample.h"
#include "checks/checks.h"
#include "checks/vec3_trajectory.h"

#define ROTATION_TOLERANCE_RAD 1e-3

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

/* 2·atan2(|Δ.xyz|, |Δ.w|) with Δ = conj(a) ⊗ b: the rotation angle between
 * two unit quaternions, blind to the q / -q sign. */
static double angular_delta(anim_quat a, anim_quat b)
{
    anim_quat d = anim_quat_mul(anim_quat_conj(a), b);
    return 2.0 * atan2(sqrt(d.x * d.x + d.y * d.y + d.z * d.z), fabs(d.w));
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
        double delta = angular_delta(q0, qk);
        /* Decided in f32, the precision of the stored values, so widening
         * noise cannot decide whether the track is constant. */
        if (!((float)delta <= (float)ROTATION_TOLERANCE_RAD))
            return false;
    }
    return track->interp != ANIM_INTERP_CUBICSPLINE || cubic_tangents_zero(track);
}

static bool is_constant(anim_lint_context *ctx, const anim_clip *clip, const anim_track *track)
{
    switch (anim_track_storage(track)) {
    case ANIM_STORAGE_VEC3: {
        check_vec3_trajectory tr;
        return check_vec3_trajectory_of(ctx, clip, track, &tr) &&
               !check_vec3_trajectory_varies(&tr, CHECK_VEC3_TOLERANCE);
    }
    case ANIM_STORAGE_QUAT:
        return rotation_constant(track);
    case ANIM_STORAGE_NONE:
    default:
        return false;
    }
}

CHECK_RUN(constant_track)
{
    for (uint32_t c = anim_lint_pass_begin(ctx); c < anim_lint_pass_end(ctx); c++) {
        const anim_clip *clip = &ctx->doc->clips[c];
        for (uint32_t i = 0; i < clip->track_count; i++) {
            const anim_track *track = &clip->tracks[i];
            if (track->key_count < 2 || !is_constant(ctx, clip, track))
                continue;
            anim_finding_fields f = {0};
            f.severity = ANIM_SEVERITY_NOTE;
            f.clip = clip->name;
            f.bone = check_bone_name(ctx, track->bone);
            if (anim_check_finding(ctx, rec, &f,
                                   "%s track has %u keys but never moves \xe2\x80\x94 export bloat",
                                   anim_path_name(track->path), (unsigned)track->key_count))
                return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        }
    }
    return 0;
}
