/* PLACEHOLDER: replaced by the real quat-norm check (being written now). */
#include "checks/checks.h"

CHECK_RUN(quat_norm)
{
    (void)err;
    return anim_check_gap(ctx, rec, "check_unavailable", NULL, NULL,
                          "this build of animsmith does not evaluate quat-norm yet");
}
