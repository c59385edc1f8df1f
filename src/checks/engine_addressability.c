/* engine-addressability: scaffolding, replaced by the check's evaluation. */
#include "checks/checks.h"

CHECK_APPLIES(engine_addressability)
{
    (void)ctx;
    return false;
}

CHECK_RUN(engine_addressability)
{
    (void)ctx;
    (void)rec;
    (void)err;
    return 0;
}
