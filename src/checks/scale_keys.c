/* PLACEHOLDER: replaced by the real scale-keys check (being written now). */
#include "checks/checks.h"

CHECK_RUN(scale_keys)
{
    (void)err;
    return anim_check_gap(ctx, rec, "check_unavailable", NULL, NULL,
                          "this build of animsmith does not evaluate scale-keys yet");
}
