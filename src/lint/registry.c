/* The check catalog in its documented order (docs/checks.md), which is also
 * the order of checks[] in lint JSON and the tie order of text output.
 * Applicability is computed from the contract alone, even for checks that
 * will not run. */
#include <string.h>

#include "checks/checks.h"

const char *check_bone_name(const anim_lint_context *ctx, uint32_t bone)
{
    return bone < ctx->doc->bone_count ? ctx->doc->bones[bone].name : "<unknown>";
}

static bool always(const anim_lint_context *ctx)
{
    (void)ctx;
    return true;
}

static bool has_clips(const anim_lint_context *ctx)
{
    return ctx->doc->clip_count > 0;
}

static bool has_required_bones(const anim_lint_context *ctx)
{
    return ctx->config->required_bones.count > 0;
}

static bool has_runtime_selectors(const anim_lint_context *ctx)
{
    return ctx->config->runtime_selectors.count > 0;
}

static bool any_animates_bones(const anim_lint_context *ctx)
{
    for (uint32_t c = 0; c < ctx->doc->clip_count; c++)
        if (ctx->expect[c].animates_bones.set)
            return true;
    return false;
}

static bool any_loop(const anim_lint_context *ctx)
{
    for (uint32_t c = 0; c < ctx->doc->clip_count; c++)
        if (ctx->expect[c].loop.set && ctx->expect[c].loop.value)
            return true;
    return false;
}

static bool any_speed_pin_with_animation_travel(const anim_lint_context *ctx)
{
    for (uint32_t c = 0; c < ctx->doc->clip_count; c++)
        if (ctx->expect[c].speed_mps.set &&
            ctx->expect[c].movement_owner_xz != ANIM_OWNER_GAMEPLAY)
            return true;
    return false;
}

static bool any_speed_pin(const anim_lint_context *ctx)
{
    for (uint32_t c = 0; c < ctx->doc->clip_count; c++)
        if (ctx->expect[c].speed_mps.set)
            return true;
    return false;
}

static bool any_movement_owner(const anim_lint_context *ctx)
{
    for (uint32_t c = 0; c < ctx->doc->clip_count; c++)
        if (ctx->expect[c].movement_owner_xz != ANIM_OWNER_UNSET)
            return true;
    return false;
}

static bool any_fps(const anim_lint_context *ctx)
{
    for (uint32_t c = 0; c < ctx->doc->clip_count; c++)
        if (ctx->expect[c].fps.set)
            return true;
    return false;
}

static bool has_gait_groups(const anim_lint_context *ctx)
{
    return ctx->config->gait_group_count > 0;
}

static bool has_sync_groups(const anim_lint_context *ctx)
{
    return ctx->config->sync_group_count > 0;
}

static bool any_time_complement(const anim_lint_context *ctx)
{
    for (uint32_t g = 0; g < ctx->config->sync_group_count; g++)
        if (ctx->config->sync_groups[g].has_time_complement)
            return true;
    return false;
}

#define E ANIM_SEVERITY_ERROR
#define W ANIM_SEVERITY_WARNING
#define N ANIM_SEVERITY_NOTE

/* P: per-clip (judges each clip on its own, run once per clip in the clip
 * pass); D: whole-document (run once, after the clip pass). */
#define P true
#define D false

static const anim_check_def catalog[] = {
    {"nan", E, false, P, always, anim_check_run_nan, NULL},
    {"time-monotonic", E, false, P, always, anim_check_run_time_monotonic, NULL},
    {"quat-norm", E, false, P, always, anim_check_run_quat_norm, NULL},
    {"quat-flip", W, false, P, always, anim_check_run_quat_flip, NULL},
    {"duration-sanity", E, false, P, always, anim_check_run_duration_sanity, NULL},
    {"scale-keys", W, false, P, always, anim_check_run_scale_keys, NULL},
    {"non-uniform-scale", W, false, P, always, anim_check_run_non_uniform_scale, NULL},
    {"constant-nonunit-scale", N, true, P, always, anim_check_run_constant_nonunit_scale, NULL},
    {"constant-track", N, false, P, always, anim_check_run_constant_track, NULL},
    {"required-bones", E, false, D, has_required_bones, anim_check_run_required_bones, NULL},
    {"rest-world-scale", W, false, D, has_runtime_selectors, anim_check_run_rest_world_scale, NULL},
    {"missing-bones", E, false, P, any_animates_bones, anim_check_run_missing_bones, NULL},
    {"frozen-bone", E, false, P, any_animates_bones, anim_check_run_frozen_bone, NULL},
    {"duplicate-loop-endpoint", W, false, P, any_loop, anim_check_run_duplicate_loop_endpoint, NULL},
    {"loop-closure", E, false, P, any_loop, anim_check_run_loop_closure, NULL},
    {"loop-seam", E, false, P, any_loop, anim_check_run_loop_seam, NULL},
    {"loop-seam-vel", E, false, P, any_loop, anim_check_run_loop_seam_vel, NULL},
    {"loop-seam-rot", E, false, P, any_loop, anim_check_run_loop_seam_rot, NULL},
    {"root-motion-speed", E, false, P, any_speed_pin_with_animation_travel,
     anim_check_run_root_motion_speed, NULL},
    {"gait-group", E, false, D, has_gait_groups, anim_check_run_gait_group,
     anim_check_gather_gait_group},
    {"sync-group", E, false, D, has_sync_groups, anim_check_run_sync_group,
     anim_check_gather_sync_group},
    {"time-complement", W, false, D, any_time_complement, anim_check_run_time_complement,
     anim_check_gather_time_complement},
    {"in-place", E, false, P, any_movement_owner, anim_check_run_in_place, NULL},
    {"fps", W, false, P, any_fps, anim_check_run_fps, NULL},
    {"bind-pose", W, false, P, has_clips, anim_check_run_bind_pose, NULL},
    {"foot-slide", W, false, P, any_speed_pin, anim_check_run_foot_slide, NULL},
    {"engine-addressability", E, false, D, anim_check_applies_engine_addressability,
     anim_check_run_engine_addressability, NULL},
    {"engine-unit-scale", E, false, D, anim_check_applies_engine_unit_scale,
     anim_check_run_engine_unit_scale, NULL},
    {"engine-track-support", E, false, D, anim_check_applies_engine_track_support,
     anim_check_run_engine_track_support, NULL},
    {"engine-root-motion", E, false, D, anim_check_applies_engine_root_motion,
     anim_check_run_engine_root_motion, NULL},
    {"engine-clip-boundary", E, false, D, anim_check_applies_engine_clip_boundary,
     anim_check_run_engine_clip_boundary, NULL},
};

size_t anim_check_count(void)
{
    return sizeof catalog / sizeof *catalog;
}

const anim_check_def *anim_check_at(size_t index)
{
    return index < anim_check_count() ? &catalog[index] : NULL;
}

const anim_check_def *anim_check_find(const char *id)
{
    for (size_t i = 0; i < anim_check_count(); i++)
        if (strcmp(catalog[i].id, id) == 0)
            return &catalog[i];
    return NULL;
}
