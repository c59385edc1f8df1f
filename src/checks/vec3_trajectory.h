/* The per-clip memo of the vec3 trajectory analysis
 * (animsmith/vec3_trajectory.h) for the three scale checks (scale-keys,
 * non-uniform-scale, constant-nonunit-scale), which all ask about the same
 * scale tracks in one clip pass. constant-track asks the shared
 * constant-track rule (animsmith/track_constant.h) instead, which runs
 * the analysis itself. */
#ifndef ANIMSMITH_CHECKS_VEC3_TRAJECTORY_H
#define ANIMSMITH_CHECKS_VEC3_TRAJECTORY_H

#include <stdbool.h>

#include "animsmith/doc.h"
#include "animsmith/lint.h"
#include "animsmith/vec3_trajectory.h"

/* anim_vec3_trajectory_analyze for a track of clip, analysed once per
 * clip pass however many checks ask. */
bool check_vec3_trajectory_of(anim_lint_context *ctx, const anim_clip *clip,
                              const anim_track *track, anim_vec3_trajectory *out);

#endif
