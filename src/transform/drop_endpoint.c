/* --drop-duplicate-loop-endpoint: an inclusive DCC cycle export copies
 * frame 0 onto the final frame; engines that wrap over the duration then
 * play that pose twice. When the authored-key analysis (the one the
 * duplicate-loop-endpoint check reports from) finds such a closing run on
 * a declared loop, the run is cut from every track and the duration
 * re-pinned to the last retained key. Anything else is reported as
 * skipped, never refused: the flag asks for a narrow mechanical edit and
 * declining it is a result. */
#include <string.h>

#include "animsmith/measure_loop.h"
#include "animsmith/numfmt.h"
#include "animsmith/text.h"
#include "animsmith/transform.h"

static void put_clip(anim_strbuf *msg, const char *head, const anim_clip *clip)
{
    anim_strbuf_puts(msg, head);
    anim_text_atom(msg, clip->name, strlen(clip->name));
    anim_strbuf_puts(msg, "'");
}

static void skipped(anim_strbuf *msg, const anim_clip *clip, const char *reason)
{
    put_clip(msg, "  duplicate-loop-endpoint skipped '", clip);
    anim_strbuf_puts(msg, ": ");
    anim_text_atom(msg, reason, strlen(reason));
    anim_strbuf_putc(msg, '\n');
}

/* Cuts the last n keys (cubic: whole triplets). Truncation only shortens
 * the counts, so the arrays themselves are left as they are. */
static void drop_keys(anim_track *t, uint32_t n)
{
    uint32_t per = t->interp == ANIM_INTERP_CUBICSPLINE ? 3u : 1u;
    uint32_t cut = n < t->key_count ? n : t->key_count;
    uint64_t values = (uint64_t)cut * per;
    t->key_count -= cut;
    t->value_count = values < t->value_count ? t->value_count - (uint32_t)values : 0u;
}

/* A morph channel's keys after the new duration: the trailing run of keys
 * later than it (on a non-increasing timeline an earlier key after a
 * later one ends the run; such a channel is invalid anyway). */
static uint32_t keys_after(const anim_track *t, double duration)
{
    uint32_t n = 0;
    while (n < t->key_count && (double)t->times[t->key_count - 1 - n] > duration)
        n++;
    return n;
}

int anim_transform_drop_endpoint(anim_arena *arena, anim_clip *clip, bool declared_loop,
                                 anim_strbuf *msg, anim_error *err)
{
    (void)arena; /* truncation allocates nothing */
    (void)err;   /* never refuses */
    if (!declared_loop) {
        skipped(msg, clip, "clip is not declared `loop = true` in config");
        return 0;
    }
    anim_dup_endpoint dup;
    anim_error why;
    anim_error_clear(&why);
    if (anim_dup_endpoint_analyze(clip, &dup, &why) != 0) {
        skipped(msg, clip, why.message);
        return 0;
    }
    if (!dup.candidate) {
        skipped(msg, clip, "no mechanically removable repeated endpoint");
        return 0;
    }
    for (uint32_t i = 0; i < clip->track_count; i++)
        drop_keys(&clip->tracks[i], dup.removed_keys);
    for (uint32_t i = 0; i < clip->morph_track_count; i++)
        drop_keys(&clip->morph_tracks[i], keys_after(&clip->morph_tracks[i], dup.duration_after));
    clip->duration_s = dup.duration_after;
    anim_clip_refresh_max_keys(clip);

    put_clip(msg, "  dropped duplicate loop endpoint '", clip);
    anim_strbuf_printf(msg, ": %u key(s) per track, duration ", (unsigned)dup.removed_keys);
    anim_strbuf_put_fixed(msg, dup.duration_before, 6);
    anim_strbuf_puts(msg, "s -> ");
    anim_strbuf_put_fixed(msg, dup.duration_after, 6);
    anim_strbuf_puts(msg, "s (open cycle)\n");
    return 0;
}
