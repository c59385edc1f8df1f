/* Small queries over the normalized document (include/animsmith/doc.h). */
#include "animsmith/doc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "animsmith/error.h"
#include "animsmith/math.h"

static const struct {
    const char *key;
    const char *name;
    size_t dflt;
} limit_table[ANIM_LIMIT_COUNT] = {
    [ANIM_LIMIT_FILE] = {"file_mib", "input-file", ANIM_LIMIT_FILE_DEFAULT},
    [ANIM_LIMIT_IMPLICIT_ACCESSOR] = {"implicit_accessor_mib", "implicit-accessor",
                                      ANIM_LIMIT_IMPLICIT_ACCESSOR_DEFAULT},
    [ANIM_LIMIT_GRID] = {"grid_mib", "metric-grid", ANIM_LIMIT_GRID_DEFAULT},
};

size_t anim_limits_get(const anim_limits *limits, anim_limit which)
{
    if (which >= ANIM_LIMIT_COUNT)
        return 0;
    size_t v = 0;
    if (limits)
        v = which == ANIM_LIMIT_FILE               ? limits->file_bytes
            : which == ANIM_LIMIT_IMPLICIT_ACCESSOR ? limits->implicit_accessor_bytes
                                                    : limits->grid_bytes;
    return v ? v : limit_table[which].dflt;
}

const char *anim_limit_key(anim_limit which)
{
    return which < ANIM_LIMIT_COUNT ? limit_table[which].key : NULL;
}

const char *anim_limit_name(anim_limit which)
{
    return which < ANIM_LIMIT_COUNT ? limit_table[which].name : NULL;
}

const char *anim_limit_format(size_t bytes, char *buf, size_t cap)
{
    if (bytes % ANIM_MIB == 0)
        snprintf(buf, cap, "%zu MiB", bytes / ANIM_MIB);
    else
        snprintf(buf, cap, "%zu-byte", bytes);
    return buf;
}

int anim_limit_error(struct anim_error *err, const anim_limits *limits, anim_limit which,
                     const char *what)
{
    char v[48];
    return anim_error_set(err, ANIM_ERR_LIMIT,
                          "%s, over the %s %s budget (raise with [limits] %s in animsmith.toml)",
                          what, anim_limit_format(anim_limits_get(limits, which), v, sizeof v),
                          anim_limit_name(which), anim_limit_key(which));
}

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

const char *anim_interp_label(anim_interp interp)
{
    switch (interp) {
    case ANIM_INTERP_STEP: return "Step";
    case ANIM_INTERP_CUBICSPLINE: return "CubicSpline";
    case ANIM_INTERP_LINEAR:
    default: return "Linear";
    }
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
    /* The tests in the order doc.h states them. */
    if (!track || track->key_count == 0 || !track->times)
        return false;
    if (anim_f32_first_nonfinite(track->times, track->key_count) != track->key_count)
        return false;
    if (!anim_f32_strictly_increasing(track->times, track->key_count))
        return false;
    uint64_t per_key = track->interp == ANIM_INTERP_CUBICSPLINE ? 3u : 1u;
    if ((uint64_t)track->value_count != (uint64_t)track->key_count * per_key)
        return false;
    uint32_t want = expected_components(track->path);
    if (want == UINT32_MAX || (want == 0 ? track->components == 0 : track->components != want))
        return false;
    uint64_t floats = (uint64_t)track->value_count * track->components;
    if (floats > 0 && !track->values)
        return false;
    return floats == 0 || anim_f32_first_nonfinite(track->values, (size_t)floats) == floats;
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

const char *anim_clip_message_name(const anim_clip *clip)
{
    return clip && clip->name ? clip->name : "";
}

uint64_t anim_clip_trs_key_count(const anim_clip *clip)
{
    uint64_t keys = 0;
    for (uint32_t i = 0; clip && i < clip->track_count; i++)
        keys += clip->tracks[i].key_count;
    return keys;
}
