/* engine-track-support: scaffolding, replaced by the check's evaluation. */
#include "checks/checks.h"

CHECK_APPLIES(engine_track_support)
{
    (void)ctx;
    return false;
}

CHECK_RUN(engine_track_support)
{
    (void)ctx;
    (void)rec;
    (void)err;
    return 0;
}
