/* PLACEHOLDER: replaced by the real non-uniform-scale check (being written now). */
#include "checks/checks.h"

CHECK_RUN(non_uniform_scale)
{
    (void)err;
    return anim_check_gap(ctx, rec, "check_unavailable", NULL, NULL,
                          "this build of animsmith does not evaluate non-uniform-scale yet");
}
