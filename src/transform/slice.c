/* --slice START:END: keeps the keys inside the window (widened by half a
 * frame so a key authored a rounding step outside still counts) and
 * retimes them to start at 0. No key is synthesized at the window edges:
 * a slice only selects authored keys, so it can never invent a pose. The
 * window arithmetic is binary32, the precision of the key times. */
#include <string.h>

#include "animsmith/numfmt.h"
#include "animsmith/text.h"
#include "animsmith/transform.h"

typedef struct {
    float lo, hi; /* keys with lo <= t <= hi are candidates */
    float start;  /* new time = clamp(t - start, 0, span) */
    float span;
} window;

static float retime(const window *w, float t)
{
    float nt = t - w->start;
    if (nt < 0.0f)
        return 0.0f;
    return nt > w->span ? w->span : nt;
}

/* Whether candidate j of the n candidates (new times nt) survives the
 * boundary de-duplication: of the keys clamped onto the window start only
 * the one nearest the start (the last) is kept, of those clamped onto its
 * end only the one nearest the end (the first). */
static bool survives(const float *nt, uint32_t j, uint32_t n, float span)
{
    if (nt[j] <= 0.0f)
        return j + 1 == n || nt[j + 1] > 0.0f;
    if (nt[j] >= span)
        return j == 0 || nt[j - 1] < span;
    return true;
}

/* Rewrites one track (TRS or morph) to its surviving keys; the values
 * (whole triplets for CUBICSPLINE) travel with their keys. */
static int slice_track(anim_arena *arena, anim_track *t, const window *w, anim_error *err)
{
    uint32_t per = t->interp == ANIM_INTERP_CUBICSPLINE ? 3u : 1u;
    size_t elem_floats = t->components;
    uint32_t n = 0;
    uint32_t *src = t->key_count ? anim_arena_calloc(arena, t->key_count, sizeof *src) : NULL;
    float *nt = t->key_count ? anim_arena_calloc(arena, t->key_count, sizeof *nt) : NULL;
    if (t->key_count && (!src || !nt))
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory slicing a track");
    for (uint32_t k = 0; k < t->key_count; k++) {
        float time = t->times[k];
        if (time >= w->lo && time <= w->hi) {
            src[n] = k;
            nt[n++] = retime(w, time);
        }
    }
    uint32_t kept = 0;
    for (uint32_t j = 0; j < n; j++)
        if (survives(nt, j, n, w->span))
            src[kept] = src[j], nt[kept++] = nt[j];
    if (kept == 0) {
        t->key_count = 0;
        t->value_count = 0;
        return 0;
    }
    float *values = anim_arena_calloc(arena, (size_t)kept * per * (elem_floats ? elem_floats : 1),
                                      sizeof *values);
    if (!values)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory slicing a track");
    /* A key whose value elements lie past the stored ones (an invalid
     * track) keeps only what exists. */
    uint32_t elems = 0;
    for (uint32_t j = 0; j < kept; j++)
        for (uint32_t e = 0; e < per; e++) {
            uint64_t from = (uint64_t)src[j] * per + e;
            if (from >= t->value_count)
                continue;
            memcpy(values + (size_t)elems * elem_floats, t->values + from * elem_floats,
                   elem_floats * sizeof *values);
            elems++;
        }
    t->times = nt;
    t->key_count = kept;
    t->values = values;
    t->value_count = elems;
    /* A cubic spline needs two keys; a lone key left by a narrow window is
     * its value alone, held: a LINEAR key plays exactly that. */
    if (t->interp == ANIM_INTERP_CUBICSPLINE && kept == 1 && elems == 3) {
        memmove(values, values + elem_floats, elem_floats * sizeof *values);
        t->interp = ANIM_INTERP_LINEAR;
        t->value_count = 1;
    }
    return 0;
}

/* Slices every track of the array and drops the ones left without keys
 * (survivors keep their order). */
static int slice_tracks(anim_arena *arena, anim_track *tracks, uint32_t *count, const window *w,
                        anim_error *err)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < *count; i++) {
        if (slice_track(arena, &tracks[i], w, err))
            return -1;
        if (tracks[i].key_count > 0)
            tracks[kept++] = tracks[i];
    }
    *count = kept;
    return 0;
}

int anim_transform_slice(anim_arena *arena, anim_clip *clip, double start, double end,
                         double fps, anim_strbuf *msg, anim_error *err)
{
    window w;
    float eps = (float)(0.5 / fps);
    w.start = (float)start;
    float e = (float)end;
    w.span = e - w.start;
    if (!(w.span > 0.0f)) /* max(e - s, 0), a NaN span included */
        w.span = 0.0f;
    w.lo = w.start - eps;
    w.hi = e + eps;
    if (slice_tracks(arena, clip->tracks, &clip->track_count, &w, err) ||
        slice_tracks(arena, clip->morph_tracks, &clip->morph_track_count, &w, err))
        return -1;
    double duration = end - start; /* f64, unlike the window */
    clip->duration_s = duration > 0.0 ? duration : 0.0;
    anim_clip_refresh_max_keys(clip);

    anim_strbuf_puts(msg, "  sliced '");
    anim_text_atom(msg, clip->name, strlen(clip->name));
    anim_strbuf_puts(msg, "' to [");
    anim_strbuf_put_f64_plain(msg, start);
    anim_strbuf_putc(msg, ':');
    anim_strbuf_put_f64_plain(msg, end);
    anim_strbuf_printf(msg, "]s (%u keys max)\n", (unsigned)clip->max_keys);
    return 0;
}
