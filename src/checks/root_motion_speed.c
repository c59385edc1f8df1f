/* root-motion-speed: a clip whose horizontal travel is not
 * owned by gameplay and that pins speed_mps must travel at that speed, or
 * playback scaled by the pin slides or moonwalks. The measured value is
 * the `speed_mps` endpoint speed of the Root (else Hips) bone. A pin of a
 * real locomotion speed on a clip that barely moves is reported as a
 * stray pin rather than as a plain disagreement, because the usual cause
 * is an in-place clip declared as root-motion, not a wrong number. */
#include <math.h>

#include "checks/travel_util.h"

#define SCOPE "root_motion_speed"

static int check_clip(anim_lint_context *ctx, anim_check_record *rec, uint32_t c)
{
    const anim_clip *clip = &ctx->doc->clips[c];
    const anim_pin *pin = &ctx->expect[c].speed_mps;
    double measured = 0.0;
    int got = travel_root_speed(ctx, rec, c, SCOPE, NULL, &measured);
    if (got <= 0)
        return got;
    if (anim_check_scope(ctx, rec, SCOPE, clip->name))
        return -1;
    anim_finding_fields f = {0};
    f.severity = ANIM_SEVERITY_ERROR;
    f.clip = clip->name;
    f.measured = anim_value_number(measured);
    f.expected = anim_value_number(pin->value);
    if (measured < TRAVEL_THRESHOLD_MPS && pin->value >= TRAVEL_THRESHOLD_MPS)
        return anim_check_finding(ctx, rec, &f,
                                  "declared speed %.2f m/s but the clip carries almost no root "
                                  "motion (%.2f m/s) \xe2\x80\x94 stray pin, or an in-place clip "
                                  "declared as root-motion",
                                  pin->value, measured);
    if (fabs(measured - pin->value) > pin->tolerance)
        return anim_check_finding(ctx, rec, &f,
                                  "measured root-motion speed %.2f m/s disagrees with the declared "
                                  "%.2f \xc2\xb1 %.2f m/s \xe2\x80\x94 playback scaled by this pin "
                                  "will slide or moonwalk",
                                  measured, pin->value, pin->tolerance);
    return 0;
}

CHECK_RUN(root_motion_speed)
{
    for (uint32_t c = anim_lint_pass_begin(ctx); c < anim_lint_pass_end(ctx); c++) {
        const anim_clip_expect *ex = &ctx->expect[c];
        if (!ex->speed_mps.set || ex->movement_owner_xz == ANIM_OWNER_GAMEPLAY)
            continue;
        if (check_clip(ctx, rec, c))
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    return 0;
}
