/* The measured root speed shared by the travel checks, with its gaps. */
#include "checks/travel_util.h"

int travel_root_speed(anim_lint_context *ctx, anim_check_record *rec, uint32_t c,
                      const char *scope_code, const char *too_short, double *mps)
{
    const char *clip = ctx->doc->clips[c].name;
    const anim_metric_grid *grid = anim_lint_grid(ctx, c);
    anim_root_speed speed;
    anim_lint_root_speed(ctx, c, &speed);
    if (speed.availability == ANIM_AVAIL_MEASURED) {
        *mps = speed.mps;
        return 1;
    }
    int rc;
    if (speed.availability == ANIM_AVAIL_NOT_APPLICABLE)
        rc = anim_check_gap_root_motion_roles(ctx, rec, scope_code, clip);
    else if (too_short && !grid)
        rc = anim_check_gap(ctx, rec, "measurement_unavailable", scope_code, clip, "%s", too_short);
    else
        rc = anim_check_gap(ctx, rec, "measurement_unavailable", scope_code, clip,
                            "root-motion speed could not be measured");
    return rc ? -1 : 0;
}
