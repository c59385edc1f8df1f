/* --drop-duplicate-loop-endpoint: an inclusive DCC cycle export copies
 * frame 0 onto the final frame; engines that wrap over the duration then
 * play that pose twice. When the authored-key analysis (the one the
 * duplicate-loop-endpoint check reports from) finds such a closing run on
 * a declared loop, the run is cut from every track and the duration
 * re-pinned to the last retained key. Anything else is reported as
 * skipped, never refused: the flag asks for a narrow mechanical edit and
 * declining it is a result. */
#include <math.h>
#include <stdio.h>
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

/* Whether morph channel t can lose the same closing run: it must be keyed
 * on the clip's authored timeline (track 0's) and its last n keys must
 * repeat its key 0, as the analysis requires of the moving TRS tracks;
 * otherwise cutting it would change the weights it plays. A channel that
 * ends by the new duration is untouched and fine. NULL when it can, else
 * the reason to skip. */
static const char *morph_refusal(const anim_clip *clip, const anim_track *t, uint32_t n,
                                 double duration, char *buf, size_t cap, uint32_t index)
{
    if (t->key_count == 0 || (double)t->times[t->key_count - 1] <= duration)
        return NULL;
    const anim_track *ref = &clip->tracks[0];
    if (t->key_count != ref->key_count ||
        memcmp(t->times, ref->times, (size_t)t->key_count * sizeof *t->times) != 0) {
        snprintf(buf, cap, "morph-weight track %u does not share the authored timeline", index);
        return buf;
    }
    uint32_t per = t->interp == ANIM_INTERP_CUBICSPLINE ? 3u : 1u;
    uint32_t mid = per == 3u ? 1u : 0u;
    if (t->value_count != t->key_count * per) {
        snprintf(buf, cap, "morph-weight track %u has invalid value storage", index);
        return buf;
    }
    const float *first = t->values + (size_t)mid * t->components;
    for (uint32_t k = t->key_count - n; k < t->key_count; k++) {
        const float *v = t->values + ((size_t)k * per + mid) * t->components;
        for (uint32_t c = 0; c < t->components; c++)
            if (!(fabs((double)v[c] - (double)first[c]) <= ANIM_DUP_ENDPOINT_VEC_TOL)) {
                snprintf(buf, cap,
                         "morph-weight track %u does not repeat its first key at the endpoint",
                         index);
                return buf;
            }
    }
    return NULL;
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
    char buf[128];
    for (uint32_t i = 0; i < clip->morph_track_count; i++) {
        const char *why_not = morph_refusal(clip, &clip->morph_tracks[i], dup.removed_keys,
                                            dup.duration_after, buf, sizeof buf, i);
        if (why_not) {
            skipped(msg, clip, why_not);
            return 0;
        }
    }
    for (uint32_t i = 0; i < clip->track_count; i++)
        drop_keys(&clip->tracks[i], dup.removed_keys);
    for (uint32_t i = 0; i < clip->morph_track_count; i++)
        if (clip->morph_tracks[i].key_count &&
            (double)clip->morph_tracks[i].times[clip->morph_tracks[i].key_count - 1] >
                dup.duration_after)
            drop_keys(&clip->morph_tracks[i], dup.removed_keys);
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
