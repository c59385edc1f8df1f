/* PLACEHOLDER: replaced by the real constant-track check (being written now). */
#include "checks/checks.h"

CHECK_RUN(constant_track)
{
    (void)err;
    return anim_check_gap(ctx, rec, "check_unavailable", NULL, NULL,
                          "this build of animsmith does not evaluate constant-track yet");
}
