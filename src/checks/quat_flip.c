/* PLACEHOLDER: replaced by the real quat-flip check (being written now). */
#include "checks/checks.h"

CHECK_RUN(quat_flip)
{
    (void)err;
    return anim_check_gap(ctx, rec, "check_unavailable", NULL, NULL,
                          "this build of animsmith does not evaluate quat-flip yet");
}
