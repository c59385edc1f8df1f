/* Small queries over the normalized document (include/animsmith/doc.h). */
#include "animsmith/doc.h"

#include <math.h>
#include <string.h>

const char *anim_path_name(anim_path path)
{
    switch (path) {
    case ANIM_PATH_TRANSLATION: return "translation";
    case ANIM_PATH_ROTATION: return "rotation";
    case ANIM_PATH_SCALE: return "scale";
    case ANIM_PATH_WEIGHTS: return "weights";
    }
    return "unknown";
}

const char *anim_interp_name(anim_interp interp)
{
    switch (interp) {
    case ANIM_INTERP_LINEAR: return "LINEAR";
    case ANIM_INTERP_STEP: return "STEP";
    case ANIM_INTERP_CUBICSPLINE: return "CUBICSPLINE";
    }
    return "unknown";
}

uint32_t anim_doc_find_bone(const anim_doc *doc, const char *name)
{
    if (!doc || !name || !doc->bones)
        return ANIM_NONE;
    for (uint32_t i = 0; i < doc->bone_count; i++) {
        if (doc->bones[i].name && strcmp(doc->bones[i].name, name) == 0)
            return i;
    }
    return ANIM_NONE;
}

/* Width of one value element that the track's property calls for; 0 means
 * "any positive width" (morph weights: one per target). */
static uint32_t expected_components(anim_path path)
{
    switch (path) {
    case ANIM_PATH_TRANSLATION:
    case ANIM_PATH_SCALE: return 3;
    case ANIM_PATH_ROTATION: return 4;
    case ANIM_PATH_WEIGHTS: return 0;
    }
    return UINT32_MAX; /* unknown path: nothing matches */
}

bool anim_track_is_valid(const anim_track *track)
{
    /* Spec 1.4, tests in the stated order. */
    if (!track || track->key_count == 0 || !track->times)
        return false;
    for (uint32_t k = 0; k < track->key_count; k++) {
        if (!isfinite(track->times[k]))
            return false;
    }
    for (uint32_t k = 1; k < track->key_count; k++) {
        if (!(track->times[k] > track->times[k - 1]))
            return false;
    }
    uint64_t per_key = track->interp == ANIM_INTERP_CUBICSPLINE ? 3u : 1u;
    if ((uint64_t)track->value_count != (uint64_t)track->key_count * per_key)
        return false;
    uint32_t want = expected_components(track->path);
    if (want == UINT32_MAX || (want == 0 ? track->components == 0 : track->components != want))
        return false;
    uint64_t floats = (uint64_t)track->value_count * track->components;
    if (floats > 0 && !track->values)
        return false;
    for (uint64_t i = 0; i < floats; i++) {
        if (!isfinite(track->values[i]))
            return false;
    }
    return true;
}

const float *anim_track_key_value(const anim_track *track, uint32_t k)
{
    if (!track || !track->values || k >= track->key_count)
        return NULL;
    uint64_t elem = track->interp == ANIM_INTERP_CUBICSPLINE ? 3u * (uint64_t)k + 1u : (uint64_t)k;
    if (elem >= track->value_count)
        return NULL;
    return track->values + elem * track->components;
}
