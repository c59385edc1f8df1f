/* PLACEHOLDER: replaced by the real missing-bones check (being written now). */
#include "checks/checks.h"

CHECK_RUN(missing_bones)
{
    (void)err;
    return anim_check_gap(ctx, rec, "check_unavailable", NULL, NULL,
                          "this build of animsmith does not evaluate missing-bones yet");
}
