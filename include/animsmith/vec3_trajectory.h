/* Vec3 trajectory analysis, shared by scale-keys, non-uniform-scale,
 * constant-nonunit-scale and the constant-track rule: the range a
 * translation/scale track covers, including the interior excursions of
 * CUBICSPLINE segments, and where its axes are furthest apart. A leaf of
 * the measurement layer: it reads one track and nothing else, so checks,
 * measurements and transform steps can all stand on it. */
#ifndef ANIMSMITH_VEC3_TRAJECTORY_H
#define ANIMSMITH_VEC3_TRAJECTORY_H

#include <stdbool.h>

#include "animsmith/doc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* VEC3_TOLERANCE of the checks that use the analysis. */
#define ANIM_VEC3_TOLERANCE 1e-4

typedef struct anim_vec3_trajectory {
    double min[3], max[3];  /* componentwise over every visited point */
    double max_spread;      /* largest max(|x-y|, |x-z|, |y-z|) */
    double max_spread_time; /* where it was first reached (an f32 time widened) */
} anim_vec3_trajectory;

/* Analyses a vec3-storage track. Returns false (track ignored) when it has
 * no keys, a non-finite or non-increasing time, or a needed value element
 * (key value, or a cubic tangent of a segment) that is missing or
 * non-finite; also for quaternion or other storage. */
bool anim_vec3_trajectory_analyze(const anim_track *track, anim_vec3_trajectory *out);

/* max over components of (max - min) > tol (decided in f32, the precision
 * of the stored values). */
bool anim_vec3_trajectory_varies(const anim_vec3_trajectory *tr, double tol);
/* max pairwise component spread > tol: an absolute spread, not a relative one. */
bool anim_vec3_trajectory_non_uniform(const anim_vec3_trajectory *tr, double tol);
/* max over components of max(|min - 1|, |max - 1|). */
double anim_vec3_trajectory_unit_deviation(const anim_vec3_trajectory *tr);

#ifdef __cplusplus
}
#endif
#endif
