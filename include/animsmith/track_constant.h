/* The constant-track rule: whether a multi-key translation, rotation or
 * scale track never moves. The constant-track lint check reports such
 * tracks as export bloat and `transform --prune-constant-tracks` takes
 * them as its removal candidates, so both ask this one predicate.
 *
 * Vec3 tracks are judged on the range they visit (keys, plus the interior
 * extrema of CUBICSPLINE segments, so an overshoot between equal keys is
 * motion); quaternion tracks compare every key with the first,
 * sign-invariantly, and a cubic one must also have all-zero tangents,
 * since a tangent is motion the keys do not show. */
#ifndef ANIMSMITH_TRACK_CONSTANT_H
#define ANIMSMITH_TRACK_CONSTANT_H

#include <stdbool.h>

#include "animsmith/doc.h"
#include "animsmith/math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest per-component range of a constant vec3 track. */
#define ANIM_TRACK_CONSTANT_VEC3_TOL 1e-4
/* Largest angle (radians) between key 0 and any key of a constant
 * rotation track. */
#define ANIM_TRACK_CONSTANT_ROTATION_TOL_RAD 1e-3

/* 2·atan2(|Δ.xyz|, |Δ.w|) with Δ = conj(â) ⊗ b̂ (both normalized here):
 * the rotation angle between two quaternions in radians, blind to the
 * q / -q sign. NaN when either is zero or non-finite. */
double anim_quat_angular_delta(anim_quat a, anim_quat b);

/* Whether the track has at least two keys and never moves:
 *   vec3 storage: the trajectory analysis succeeds (keys present, finite,
 *     strictly increasing times) and no component's range exceeds
 *     ANIM_TRACK_CONSTANT_VEC3_TOL (cubic interior excursions count);
 *   quaternion storage: key 0 finite and non-zero, every later key present
 *     and within ANIM_TRACK_CONSTANT_ROTATION_TOL_RAD of it (decided in
 *     f32), and, for CUBICSPLINE, every tangent exactly zero (-0.0 too);
 *   any other storage: never constant. */
bool anim_track_is_constant(const anim_track *track);

#ifdef __cplusplus
}
#endif
#endif
