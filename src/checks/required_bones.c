/* PLACEHOLDER: replaced by the real required-bones check (being written now). */
#include "checks/checks.h"

CHECK_RUN(required_bones)
{
    (void)err;
    return anim_check_gap(ctx, rec, "check_unavailable", NULL, NULL,
                          "this build of animsmith does not evaluate required-bones yet");
}
