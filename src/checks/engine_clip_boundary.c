/* engine-clip-boundary: scaffolding, replaced by the check's evaluation. */
#include "checks/checks.h"

CHECK_APPLIES(engine_clip_boundary)
{
    (void)ctx;
    return false;
}

CHECK_RUN(engine_clip_boundary)
{
    (void)ctx;
    (void)rec;
    (void)err;
    return 0;
}
