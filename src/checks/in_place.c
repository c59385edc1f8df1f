/* in-place: the declared owner of horizontal (XZ) travel must agree with the
 * measured root speed. Gameplay-owned XZ on a clip whose root travels is a
 * glide (the controller and the clip both move the character);
 * animation-owned XZ on a stationary root runs in place (neither does). Only
 * movement_owner_xz is judged: Y and yaw ownership are independent
 * declarations (an omitted axis is never assumed: the contract says who
 * writes what, axis by axis) that no built-in check reads, so they neither
 * arm this check nor change its verdict. */
#include "checks/travel_util.h"

#define SCOPE "travel_mode"

static int check_clip(anim_lint_context *ctx, anim_check_record *rec, uint32_t c)
{
    const anim_clip *clip = &ctx->doc->clips[c];
    anim_movement_owner owner = ctx->expect[c].movement_owner_xz;
    double speed = 0.0;
    int got = travel_root_speed(ctx, rec, c, SCOPE, NULL, &speed);
    if (got <= 0)
        return got;
    if (anim_check_scope(ctx, rec, SCOPE, clip->name))
        return -1;
    bool travels = speed >= TRAVEL_THRESHOLD_MPS;
    anim_finding_fields f = {0};
    f.severity = ANIM_SEVERITY_ERROR;
    f.clip = clip->name;
    f.measured = anim_value_number(speed);
    if (owner == ANIM_OWNER_GAMEPLAY && travels) {
        f.expected = anim_value_number(0.0);
        return anim_check_finding(ctx, rec, &f,
                                  "declared in-place but the root travels at %.2f m/s \xe2\x80\x94 "
                                  "the character will glide at runtime",
                                  speed);
    }
    if (owner == ANIM_OWNER_ANIMATION && !travels)
        return anim_check_finding(ctx, rec, &f,
                                  "declared root-motion but the root is stationary (%.2f m/s) "
                                  "\xe2\x80\x94 the character will run in place",
                                  speed);
    return 0;
}

CHECK_RUN(in_place)
{
    for (uint32_t c = anim_lint_pass_begin(ctx); c < anim_lint_pass_end(ctx); c++) {
        if (ctx->expect[c].movement_owner_xz == ANIM_OWNER_UNSET)
            continue;
        if (check_clip(ctx, rec, c))
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    return 0;
}
