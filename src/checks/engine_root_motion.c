/* engine-root-motion: scaffolding, replaced by the check's evaluation. */
#include "checks/checks.h"

CHECK_APPLIES(engine_root_motion)
{
    (void)ctx;
    return false;
}

CHECK_RUN(engine_root_motion)
{
    (void)ctx;
    (void)rec;
    (void)err;
    return 0;
}
