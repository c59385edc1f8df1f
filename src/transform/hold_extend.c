/* --hold-extend SECONDS: holds the final pose for SECONDS more by
 * appending, on every keyed track (TRS and morph), a copy of its last key
 * at last + SECONDS (binary32 arithmetic, the precision of key times). A
 * cubic track's last out-tangent is zeroed and the new key gets zero
 * tangents, so the curve arrives flat and stays flat. A hold that does
 * not move a track's last key time forward in binary32 (zero, negative,
 * NaN, or smaller than one step of f32 time there) is refused: it would
 * write two keys at one time, which no reader accepts. */
#include <string.h>

#include "animsmith/numfmt.h"
#include "animsmith/text.h"
#include "animsmith/transform.h"

/* Appends the hold key to one track; *end receives its time. */
static int hold_track(anim_arena *arena, anim_track *t, float hold, float *end, anim_error *err)
{
    const bool cubic = t->interp == ANIM_INTERP_CUBICSPLINE;
    const uint32_t per = cubic ? 3u : 1u;
    const size_t width = t->components;
    uint32_t last = t->key_count - 1;
    float *times = anim_arena_calloc(arena, (size_t)t->key_count + 1u, sizeof *times);
    float *values = anim_arena_calloc(arena, ((size_t)t->value_count + per) * (width ? width : 1),
                                      sizeof *values);
    if (!times || !values)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory extending a track");
    memcpy(times, t->times, (size_t)t->key_count * sizeof *times);
    times[t->key_count] = t->times[last] + hold;
    *end = times[t->key_count];
    if (!(times[t->key_count] > t->times[last]))
        return anim_error_set(err, ANIM_ERR_USAGE,
                              "a hold of %.9gs does not move the last key at %.9gs forward in "
                              "single precision",
                              (double)hold, (double)t->times[last]);

    size_t old_floats = (size_t)t->value_count * width;
    if (old_floats)
        memcpy(values, t->values, old_floats * sizeof *values);
    /* New element(s) start zeroed (calloc): the cubic tangents stay 0. */
    float *added = values + old_floats;
    const float *held = anim_track_key_value(t, last);
    if (held)
        memcpy(added + (cubic ? width : 0), held, width * sizeof *values);
    if (cubic) {
        uint64_t out_tangent = (uint64_t)last * 3u + 2u;
        if (out_tangent < t->value_count)
            memset(values + out_tangent * width, 0, width * sizeof *values);
    }
    t->times = times;
    t->values = values;
    t->key_count++;
    t->value_count += per;
    return 0;
}

int anim_transform_hold_extend(anim_arena *arena, anim_clip *clip, double seconds,
                               anim_strbuf *msg, anim_error *err)
{
    const float hold = (float)seconds;
    double duration = clip->duration_s;
    float end;
    for (uint32_t i = 0; i < clip->track_count; i++) {
        if (clip->tracks[i].key_count == 0)
            continue;
        if (hold_track(arena, &clip->tracks[i], hold, &end, err)) {
            anim_error_prefix(err, "clip '%s' track %u", anim_clip_message_name(clip), i);
            return -1;
        }
        if ((double)end > duration) /* a NaN end leaves the duration alone */
            duration = end;
    }
    /* Morph channels follow the pose timeline; like the loader, the clip's
     * duration is the TRS tracks'. */
    for (uint32_t i = 0; i < clip->morph_track_count; i++)
        if (clip->morph_tracks[i].key_count > 0 &&
            hold_track(arena, &clip->morph_tracks[i], hold, &end, err)) {
            anim_error_prefix(err, "clip '%s' morph-weight track %u", anim_clip_message_name(clip),
                              i);
            return -1;
        }
    clip->duration_s = duration;
    anim_clip_refresh_max_keys(clip);

    anim_strbuf_puts(msg, "  hold-extended '");
    anim_text_atom(msg, clip->name, strlen(clip->name));
    anim_strbuf_puts(msg, "' by ");
    anim_strbuf_put_f64_plain(msg, seconds);
    anim_strbuf_puts(msg, "s\n");
    return 0;
}
