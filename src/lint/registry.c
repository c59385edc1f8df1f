/* The check catalog in spec 5.1 order, which is also the order of checks[]
 * in lint JSON and the tie order of text output. Applicability is computed
 * from the contract alone, even for checks that will not run. */
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

/* Only a Bevy [engine] profile makes engine-addressability applicable. */
static bool bevy_engine(const anim_lint_context *ctx)
{
    return ctx->config->engine.present && ctx->config->engine.profile &&
           strcmp(ctx->config->engine.profile, "bevy") == 0;
}

#define E ANIM_SEVERITY_ERROR
#define W ANIM_SEVERITY_WARNING
#define N ANIM_SEVERITY_NOTE

static const anim_check_def catalog[] = {
    {"nan", E, false, always, anim_check_run_nan},
    {"time-monotonic", E, false, always, anim_check_run_time_monotonic},
    {"quat-norm", E, false, always, anim_check_run_quat_norm},
    {"quat-flip", W, false, always, anim_check_run_quat_flip},
    {"duration-sanity", E, false, always, anim_check_run_duration_sanity},
    {"scale-keys", W, false, always, anim_check_run_scale_keys},
    {"non-uniform-scale", W, false, always, anim_check_run_non_uniform_scale},
    {"constant-nonunit-scale", N, true, always, anim_check_run_constant_nonunit_scale},
    {"constant-track", N, false, always, anim_check_run_constant_track},
    {"required-bones", E, false, has_required_bones, anim_check_run_required_bones},
    {"rest-world-scale", W, false, has_runtime_selectors, anim_check_run_rest_world_scale},
    {"missing-bones", E, false, any_animates_bones, anim_check_run_missing_bones},
    {"frozen-bone", E, false, any_animates_bones, anim_check_run_frozen_bone},
    {"duplicate-loop-endpoint", W, false, any_loop, anim_check_run_duplicate_loop_endpoint},
    {"loop-closure", E, false, any_loop, anim_check_run_loop_closure},
    {"loop-seam", E, false, any_loop, anim_check_run_loop_seam},
    {"loop-seam-vel", E, false, any_loop, anim_check_run_loop_seam_vel},
    {"loop-seam-rot", E, false, any_loop, anim_check_run_loop_seam_rot},
    {"root-motion-speed", E, false, any_speed_pin_with_animation_travel, anim_check_run_root_motion_speed},
    {"gait-group", E, false, has_gait_groups, anim_check_run_gait_group},
    {"sync-group", E, false, has_sync_groups, anim_check_run_sync_group},
    {"time-complement", W, false, any_time_complement, anim_check_run_time_complement},
    {"in-place", E, false, any_movement_owner, anim_check_run_in_place},
    {"fps", W, false, any_fps, anim_check_run_fps},
    {"bind-pose", W, false, has_clips, anim_check_run_bind_pose},
    {"foot-slide", W, false, any_speed_pin, anim_check_run_foot_slide},
    {"engine-addressability", E, false, bevy_engine, NULL},
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
