/* engine-unit-scale: scaffolding, replaced by the check's evaluation. */
#include "checks/checks.h"

CHECK_APPLIES(engine_unit_scale)
{
    (void)ctx;
    return false;
}

CHECK_RUN(engine_unit_scale)
{
    (void)ctx;
    (void)rec;
    (void)err;
    return 0;
}
