/* PLACEHOLDER: replaced by the real nan check (being written now). */
#include "checks/checks.h"

CHECK_RUN(nan)
{
    (void)err;
    return anim_check_gap(ctx, rec, "check_unavailable", NULL, NULL,
                          "this build of animsmith does not evaluate nan yet");
}
