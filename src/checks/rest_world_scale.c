/* PLACEHOLDER: replaced by the real rest-world-scale check (being written now). */
#include "checks/checks.h"

CHECK_RUN(rest_world_scale)
{
    (void)err;
    return anim_check_gap(ctx, rec, "check_unavailable", NULL, NULL,
                          "this build of animsmith does not evaluate rest-world-scale yet");
}
