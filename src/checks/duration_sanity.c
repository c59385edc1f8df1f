/* PLACEHOLDER: replaced by the real duration-sanity check (being written now). */
#include "checks/checks.h"

CHECK_RUN(duration_sanity)
{
    (void)err;
    return anim_check_gap(ctx, rec, "check_unavailable", NULL, NULL,
                          "this build of animsmith does not evaluate duration-sanity yet");
}
