/* src/transform/ owns the mechanical clip edits of `animsmith transform`
 * (one file per step) and this file's detach helper, which gives every
 * step arena-owned arrays to rewrite. The steps never touch the loaded
 * file's bytes: a borrowed track points into a read-only mapping. */
#include <string.h>

#include "animsmith/transform.h"

static int copy_floats(anim_arena *arena, const float *src, size_t count, const float **dst,
                       anim_error *err)
{
    if (count == 0) {
        *dst = NULL;
        return 0;
    }
    float *p = anim_arena_calloc(arena, count, sizeof *p);
    if (!p)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory copying a track");
    memcpy(p, src, count * sizeof *p);
    *dst = p;
    return 0;
}

static int detach_tracks(anim_arena *arena, anim_track **tracks, uint32_t count, anim_error *err)
{
    if (count == 0)
        return 0;
    anim_track *copy = anim_arena_calloc(arena, count, sizeof *copy);
    if (!copy)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory copying a clip");
    memcpy(copy, *tracks, (size_t)count * sizeof *copy);
    for (uint32_t i = 0; i < count; i++) {
        anim_track *t = &copy[i];
        size_t values = (size_t)t->value_count * t->components;
        if (copy_floats(arena, t->times, t->key_count, &t->times, err) ||
            copy_floats(arena, t->values, values, &t->values, err))
            return -1;
        t->borrowed = false;
    }
    *tracks = copy;
    return 0;
}

int anim_clip_detach(anim_arena *arena, anim_clip *clip, anim_error *err)
{
    if (detach_tracks(arena, &clip->tracks, clip->track_count, err) ||
        detach_tracks(arena, &clip->morph_tracks, clip->morph_track_count, err))
        return -1;
    return 0;
}

void anim_clip_refresh_max_keys(anim_clip *clip)
{
    uint32_t max = 0;
    for (uint32_t i = 0; i < clip->track_count; i++)
        if (clip->tracks[i].key_count > max)
            max = clip->tracks[i].key_count;
    clip->max_keys = max;
}
