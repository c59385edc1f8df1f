/* PLACEHOLDER: replaced by the real bind-pose check (being written now). */
#include "checks/checks.h"

CHECK_RUN(bind_pose)
{
    (void)err;
    return anim_check_gap(ctx, rec, "check_unavailable", NULL, NULL,
                          "this build of animsmith does not evaluate bind-pose yet");
}
