/* The availability names (include/animsmith/availability.h). */
#include "animsmith/availability.h"

#include <stddef.h>

const char *anim_availability_name(anim_availability a)
{
    switch (a) {
    case ANIM_AVAIL_MEASURED: return "measured";
    case ANIM_AVAIL_NOT_APPLICABLE: return "not_applicable";
    case ANIM_AVAIL_UNAVAILABLE: return "unavailable";
    default: return NULL;
    }
}
