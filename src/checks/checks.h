/* Private to the lint layer: the evaluation entry of every check (one file
 * per check id in this directory) and small helpers checks share. */
#ifndef ANIMSMITH_CHECKS_H
#define ANIMSMITH_CHECKS_H

#include "animsmith/lint.h"

#define CHECK_RUN(name) \
    int anim_check_run_##name(anim_lint_context *ctx, anim_check_record *rec, anim_error *err)

CHECK_RUN(nan);
CHECK_RUN(time_monotonic);
CHECK_RUN(quat_norm);
CHECK_RUN(quat_flip);
CHECK_RUN(duration_sanity);
CHECK_RUN(scale_keys);
CHECK_RUN(non_uniform_scale);
CHECK_RUN(constant_nonunit_scale);
CHECK_RUN(constant_track);
CHECK_RUN(required_bones);
CHECK_RUN(rest_world_scale);
CHECK_RUN(missing_bones);
CHECK_RUN(bind_pose);
CHECK_RUN(frozen_bone);
CHECK_RUN(duplicate_loop_endpoint);
CHECK_RUN(loop_closure);
CHECK_RUN(loop_seam);
CHECK_RUN(loop_seam_vel);
CHECK_RUN(loop_seam_rot);
CHECK_RUN(root_motion_speed);
CHECK_RUN(gait_group);
CHECK_RUN(sync_group);
CHECK_RUN(time_complement);
CHECK_RUN(in_place);
CHECK_RUN(fps);
CHECK_RUN(foot_slide);
CHECK_RUN(engine_addressability);
CHECK_RUN(engine_unit_scale);
CHECK_RUN(engine_track_support);
CHECK_RUN(engine_root_motion);
CHECK_RUN(engine_clip_boundary);

/* Applicability of the engine-backed checks (each in its own file): the
 * exact profile, the input format and the declared work. */
#define CHECK_APPLIES(name) bool anim_check_applies_##name(const anim_lint_context *ctx)

CHECK_APPLIES(engine_addressability);
CHECK_APPLIES(engine_unit_scale);
CHECK_APPLIES(engine_track_support);
CHECK_APPLIES(engine_root_motion);
CHECK_APPLIES(engine_clip_boundary);

/* Clip-pass gathering of the group checks (anim_check_def.gather). */
#define CHECK_GATHER(name) \
    int anim_check_gather_##name(anim_lint_context *ctx, uint32_t clip, anim_error *err)

CHECK_GATHER(gait_group);
CHECK_GATHER(sync_group);
CHECK_GATHER(time_complement);

/* The name a finding uses for a track's bone (`<unknown>` out of range). */
const char *check_bone_name(const anim_lint_context *ctx, uint32_t bone);

#endif
