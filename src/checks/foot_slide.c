/* foot-slide: during stance a foot must move consistently with
 * the clip's travel. A root-motion clip (measured root speed >= 0.5 m/s)
 * plants the stance foot in the world, so its expected stance speed is 0;
 * a treadmill clip sweeps the stance foot backwards at the declared
 * speed_mps. Which of the two a clip is comes from the measured root
 * speed, never from the declared movement owner: the check judges the
 * feet against what the root actually does, which is what the player sees.
 *
 * Stance is height only: a step between two grid frames is a stance step
 * when the foot is within contact_height_m of its lowest sampled height at
 * both ends. Positions are raw model space, not hips-relative. The worst
 * stance step per side beyond max_slide_mps is reported (heuristic, hence
 * a warning). */
#include <math.h>

#include "checks/travel_util.h"

#define SCOPE "foot_stance"

typedef struct {
    const char *word;       /* "left" / "right" in the messages */
    const char *scope;      /* per-side scope code */
    anim_role foot, toe;
} side_def;

static const side_def sides[2] = {
    {"left", "left_foot_stance", ANIM_ROLE_LEFT_FOOT, ANIM_ROLE_LEFT_TOE},
    {"right", "right_foot_stance", ANIM_ROLE_RIGHT_FOOT, ANIM_ROLE_RIGHT_TOE},
};

/* The foot bone of a side: the foot role, else the toe role; ANIM_NONE
 * when neither resolves to a bone the grid holds. */
static uint32_t side_bone(const anim_lint_context *ctx, const side_def *s,
                          const anim_metric_grid *grid)
{
    uint32_t b = ctx->rig->bone[s->foot];
    if (b == ANIM_NONE)
        b = ctx->rig->bone[s->toe];
    return b < grid->bone_count ? b : ANIM_NONE;
}

static int check_side(anim_lint_context *ctx, anim_check_record *rec, const anim_clip *clip,
                      const anim_metric_grid *grid, const side_def *s, double expected,
                      double contact, double cap)
{
    uint32_t bone = side_bone(ctx, s, grid);
    if (bone == ANIM_NONE)
        return anim_check_gap(ctx, rec, "roles_unresolved", s->scope, clip->name,
                              "%s foot/toe role not resolved", s->word);
    if (anim_check_scope(ctx, rec, s->scope, clip->name))
        return -1;
    anim_metric_grid_need_bones(grid, &bone, 1);

    /* Ground: the lowest sampled height. NaN heights never compare below
     * it and never count as stance. */
    double ground = INFINITY;
    for (uint32_t f = 0; f < grid->frame_count; f++) {
        double h = grid->model_pos[anim_metric_grid_index(grid, f, bone)].y;
        if (h < ground)
            ground = h;
    }
    double level = ground + contact;

    bool found = false;
    double worst = 0.0, worst_t = 0.0;
    for (uint32_t f = 1; f < grid->frame_count; f++) {
        anim_vec3 p0 = grid->model_pos[anim_metric_grid_index(grid, f - 1, bone)];
        anim_vec3 p1 = grid->model_pos[anim_metric_grid_index(grid, f, bone)];
        if (!(p1.y <= level && p0.y <= level))
            continue;
        double dt = grid->times[f] - grid->times[f - 1];
        if (!(dt > 0.0))
            continue;
        double slide = fabs(hypot(p1.x - p0.x, p1.z - p0.z) / dt - expected);
        if (slide > cap && (!found || slide > worst)) { /* strictly: first worst wins */
            found = true;
            worst = slide;
            worst_t = grid->times[f];
        }
    }
    if (!found)
        return 0;
    anim_finding_fields f = {0};
    f.severity = ANIM_SEVERITY_WARNING;
    f.clip = clip->name;
    f.bone = ctx->doc->bones[bone].name;
    f.has_time = true;
    f.time_s = (double)(float)worst_t; /* time_s is an f32 value */
    f.measured = anim_value_number(worst);
    f.expected = anim_value_number(cap);
    return anim_check_finding(ctx, rec, &f,
                              "%s foot skates during stance: speed deviates %.2f m/s from the "
                              "expected %.2f m/s (cap %.2f) \xe2\x80\x94 foot plants will slip at "
                              "runtime",
                              s->word, worst, expected, cap);
}

static int check_clip(anim_lint_context *ctx, anim_check_record *rec, uint32_t c, double contact,
                      double cap)
{
    const anim_clip *clip = &ctx->doc->clips[c];
    double root_speed = 0.0;
    int got = travel_root_speed(ctx, rec, c, SCOPE, "clip is too short to sample foot stance",
                                &root_speed);
    if (got <= 0)
        return got;
    const anim_metric_grid *grid = anim_lint_grid(ctx, c); /* non-NULL: speed was measured */
    double expected = root_speed >= TRAVEL_THRESHOLD_MPS ? 0.0 : ctx->expect[c].speed_mps.value;
    for (int i = 0; i < 2; i++)
        if (check_side(ctx, rec, clip, grid, &sides[i], expected, contact, cap))
            return -1;
    return 0;
}

CHECK_RUN(foot_slide)
{
    double contact =
        anim_config_check_setting(ctx->config, "foot-slide", ANIM_CHECK_CONTACT_HEIGHT_M);
    double cap = anim_config_check_setting(ctx->config, "foot-slide", ANIM_CHECK_MAX_SLIDE_MPS);
    for (uint32_t c = anim_lint_pass_begin(ctx); c < anim_lint_pass_end(ctx); c++) {
        if (!ctx->expect[c].speed_mps.set)
            continue;
        if (check_clip(ctx, rec, c, contact, cap))
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    return 0;
}
