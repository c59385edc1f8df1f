/* PLACEHOLDER: replaced by the real time-monotonic check (being written now). */
#include "checks/checks.h"

CHECK_RUN(time_monotonic)
{
    (void)err;
    return anim_check_gap(ctx, rec, "check_unavailable", NULL, NULL,
                          "this build of animsmith does not evaluate time-monotonic yet");
}
