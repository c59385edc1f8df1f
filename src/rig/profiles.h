/* Private: the built-in profile table shared by profiles.c and resolve.c. */
#ifndef ANIMSMITH_RIG_PROFILES_H
#define ANIMSMITH_RIG_PROFILES_H

#include <stddef.h>

#include "animsmith/rig.h"

typedef struct rig_profile {
    const char *name;
    const char *bones[ANIM_ROLE_COUNT]; /* NULL: the profile has no name */
    /* NULL-terminated; when set, auto considers the profile only if one of
     * these names is present (any matching stage). */
    const char *const *markers;
} rig_profile;

const rig_profile *rig_profile_at(size_t index);
const rig_profile *rig_profile_find(const char *name);

#endif
