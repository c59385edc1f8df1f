/* --resample FPS: every track onto one uniform grid of key times.
 *
 * The grid is t_k = (f32)(k / fps) for k = 0 .. floor(duration·fps + 1e-6)
 * (the 1e-6 frame absorbs a duration·fps that rounding left just under a
 * whole frame), closed by the clip's end: when the last grid time is
 * within RESAMPLE_END_TOLERANCE of (f32)duration, or past it, it is moved
 * onto (f32)duration; otherwise (f32)duration is appended as a final key.
 * Either way the last key sits exactly at the clip's end, so the duration
 * is unchanged.
 *
 * Values come from the samplers the checks use (sample.h), so the new
 * keys are the pose the checks judged at those times. Output is LINEAR,
 * except STEP tracks: a LINEAR copy of a step would blend between steps. */
#include <math.h>
#include <string.h>

#include "animsmith/numfmt.h"
#include "animsmith/sample.h"
#include "animsmith/text.h"
#include "animsmith/transform.h"

#define RESAMPLE_MAX_FPS 1000.0
/* Keys written over all tracks of a clip (and grid keys alone). */
#define RESAMPLE_MAX_KEYS 10000000ull
/* Stored floats over all tracks: morph tracks carry one float per target
 * per key, so the key bound alone does not bound memory. */
#define RESAMPLE_MAX_FLOATS (4ull * RESAMPLE_MAX_KEYS)
/* How close the last grid time must come to the clip's end to stand for
 * it. Half a microsecond is 1/2000 of a frame at the 1000 fps cap: a
 * final segment that short is one no player can show and a consumer can
 * only stumble on. Past 8 s one f32 step of time is larger than that (two
 * steps are 1.9 µs at 8 s), so two f32 steps at the duration are allowed
 * as well: a grid time one rounding away from the end is the end. */
#define RESAMPLE_END_TOLERANCE 5e-7

static double end_tolerance(float end)
{
    double ulps2 = 2.0 * ((double)nextafterf(end, INFINITY) - (double)end);
    return ulps2 > RESAMPLE_END_TOLERANCE ? ulps2 : RESAMPLE_END_TOLERANCE;
}

/* Where the grid ends: the clip's duration, or a morph-weight track's
 * last key when one runs longer (the duration comes from the TRS tracks,
 * and a clip of morph weights alone has duration 0). */
static double clip_end(const anim_clip *clip)
{
    double end = clip->duration_s;
    for (uint32_t i = 0; i < clip->morph_track_count; i++) {
        const anim_track *t = &clip->morph_tracks[i];
        if (t->key_count && isfinite(t->times[t->key_count - 1]) &&
            (double)t->times[t->key_count - 1] > end)
            end = (double)t->times[t->key_count - 1];
    }
    return end;
}

/* Keys over every track, morph weights included (the message counts what
 * was resampled). */
static uint64_t all_keys(const anim_clip *clip)
{
    uint64_t keys = anim_clip_trs_key_count(clip);
    for (uint32_t i = 0; i < clip->morph_track_count; i++)
        keys += clip->morph_tracks[i].key_count;
    return keys;
}

/* The grid key count, refusing work bounds before anything is allocated. */
static int grid_count(const anim_clip *clip, double fps, uint32_t *count, anim_error *err)
{
    double d = clip_end(clip);
    double last = floor(d * fps + 1e-6);
    /* One more key when the grid stops short of the end; counted up front
     * so the bound covers what is written. */
    double keys = last + 2.0;
    uint64_t tracks = (uint64_t)clip->track_count + clip->morph_track_count;
    uint64_t floats = 0;
    for (uint32_t i = 0; i < clip->track_count; i++)
        floats += clip->tracks[i].components;
    for (uint32_t i = 0; i < clip->morph_track_count; i++)
        floats += clip->morph_tracks[i].components;
    char fbuf[ANIM_FMT_PLAIN_MAX];
    anim_fmt_f64_plain(fps, fbuf);
    if (keys > (double)RESAMPLE_MAX_KEYS || (double)tracks * keys > (double)RESAMPLE_MAX_KEYS)
        return anim_error_set(err, ANIM_ERR_LIMIT,
                              "clip '%s': resampling at %s fps over %.6fs needs %.0f key(s) x %llu "
                              "track(s) = %.0f keys, over the %llu-key limit",
                              anim_clip_message_name(clip), fbuf, d, keys,
                              (unsigned long long)tracks, keys * (double)(tracks ? tracks : 1),
                              (unsigned long long)RESAMPLE_MAX_KEYS);
    if ((double)floats * keys > (double)RESAMPLE_MAX_FLOATS)
        return anim_error_set(err, ANIM_ERR_LIMIT,
                              "clip '%s': resampling at %s fps needs %.0f key(s) x %llu value "
                              "component(s) = %.0f floats, over the %llu-float limit",
                              anim_clip_message_name(clip), fbuf, keys, (unsigned long long)floats,
                              keys * (double)floats, (unsigned long long)RESAMPLE_MAX_FLOATS);
    *count = (uint32_t)last + 1u;
    return 0;
}

/* The key times, shared by every resampled track (the steps replace
 * arrays, they never write through them). */
static int build_grid(anim_arena *arena, const anim_clip *clip, double fps, const float **out,
                      uint32_t *out_count, anim_error *err)
{
    uint32_t n = 0;
    if (grid_count(clip, fps, &n, err))
        return -1;
    float *times = anim_arena_calloc(arena, (size_t)n + 1u, sizeof *times);
    if (!times)
        return anim_error_set(err, ANIM_ERR_NOMEM, "clip '%s': out of memory resampling",
                              anim_clip_message_name(clip));
    for (uint32_t k = 0; k < n; k++)
        times[k] = (float)((double)k / fps);
    float end = (float)clip_end(clip);
    if ((double)times[n - 1] >= (double)end - end_tolerance(end))
        times[n - 1] = end;
    else
        times[n++] = end;
    for (uint32_t k = 1; k < n; k++)
        if (!(times[k] > times[k - 1])) {
            char fbuf[ANIM_FMT_PLAIN_MAX];
            anim_fmt_f64_plain(fps, fbuf);
            return anim_error_set(err, ANIM_ERR_LIMIT,
                                  "clip '%s': grid keys %u and %u at %s fps share the time %.9gs "
                                  "in single precision",
                                  anim_clip_message_name(clip), k - 1, k, fbuf, (double)times[k]);
        }
    *out = times;
    *out_count = n;
    return 0;
}

static void put_vec3(float *dst, anim_vec3 v)
{
    dst[0] = (float)v.x;
    dst[1] = (float)v.y;
    dst[2] = (float)v.z;
}

/* A rotation key: normalized, and on the previous key's hemisphere so a
 * LINEAR consumer (which may skip the shortest-path negation) turns the
 * short way. Returns false on a non-finite sample (a zero stored key). */
static bool put_quat(float *dst, const float *prev, anim_quat q)
{
    q = anim_quat_normalize(q);
    if (!anim_quat_is_finite(q))
        return false;
    if (prev && anim_quat_dot(anim_quat_from_f32(prev), q) < 0.0)
        q = anim_quat_neg(q);
    dst[0] = (float)q.x;
    dst[1] = (float)q.y;
    dst[2] = (float)q.z;
    dst[3] = (float)q.w;
    return true;
}

static int resample_track(anim_arena *arena, const anim_clip *clip, anim_track *track,
                          const char *kind, uint32_t index, const float *times, uint32_t n,
                          anim_error *err)
{
    if (!anim_track_is_valid(track))
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "clip '%s': %s track %u cannot be resampled: its key times are not "
                              "finite and increasing or its values are not finite and complete",
                              anim_clip_message_name(clip), kind, index);
    if (track->key_count < 2)
        return 0; /* one key holds everywhere: nothing to put on a grid */
    uint32_t c = track->components;
    float *values = anim_arena_calloc(arena, (size_t)n * c, sizeof *values);
    if (!values)
        return anim_error_set(err, ANIM_ERR_NOMEM, "clip '%s': out of memory resampling %s track %u",
                              anim_clip_message_name(clip), kind, index);
    anim_storage storage = track->path == ANIM_PATH_WEIGHTS ? ANIM_STORAGE_NONE
                                                            : anim_track_storage(track);
    for (uint32_t k = 0; k < n; k++) {
        double t = (double)times[k];
        float *dst = values + (size_t)k * c;
        if (storage == ANIM_STORAGE_VEC3) {
            put_vec3(dst, anim_track_sample_vec3(track, t));
        } else if (storage == ANIM_STORAGE_QUAT) {
            if (!put_quat(dst, k ? dst - c : NULL, anim_track_sample_quat(track, t)))
                return anim_error_set(err, ANIM_ERR_INVALID,
                                      "clip '%s': %s track %u has a zero-length rotation key, "
                                      "which has no value to resample at %.9gs",
                                      anim_clip_message_name(clip), kind, index, t);
        } else {
            anim_track_sample_weights(track, t, dst);
        }
    }
    if (track->interp != ANIM_INTERP_STEP)
        track->interp = ANIM_INTERP_LINEAR;
    track->times = times;
    track->values = values;
    track->key_count = n;
    track->value_count = n;
    track->quantized = false; /* the new values are plain floats */
    return 0;
}

int anim_transform_resample(anim_arena *arena, const anim_doc *doc, anim_clip *clip,
                            double fps, anim_strbuf *msg, anim_error *err)
{
    (void)doc; /* the grid depends on the clip alone */
    if (!isfinite(fps) || fps <= 0.0 || fps > RESAMPLE_MAX_FPS) {
        char fbuf[ANIM_FMT_PLAIN_MAX];
        anim_fmt_f64_plain(fps, fbuf);
        return anim_error_set(err, ANIM_ERR_USAGE,
                              "clip '%s': --resample wants a frame rate above 0 and at most 1000 "
                              "fps, got %s",
                              anim_clip_message_name(clip), fbuf);
    }
    if (!isfinite(clip->duration_s) || clip->duration_s < 0.0)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "clip '%s': cannot resample a clip whose duration is not a finite, "
                              "non-negative number of seconds",
                              anim_clip_message_name(clip));
    const float *times = NULL;
    uint32_t n = 0;
    if (build_grid(arena, clip, fps, &times, &n, err))
        return -1;
    uint64_t before = all_keys(clip);
    for (uint32_t i = 0; i < clip->track_count; i++)
        if (resample_track(arena, clip, &clip->tracks[i], "track", i, times, n, err))
            return -1;
    for (uint32_t i = 0; i < clip->morph_track_count; i++)
        if (resample_track(arena, clip, &clip->morph_tracks[i], "morph-weight track", i, times,
                           n, err))
            return -1;
    anim_clip_refresh_max_keys(clip);
    const char *name = anim_clip_message_name(clip);
    anim_strbuf_puts(msg, "  resampled '");
    anim_text_atom(msg, name, strlen(name)); /* escaped like every other step's line */
    anim_strbuf_puts(msg, "' at ");
    anim_strbuf_put_f64_plain(msg, fps);
    anim_strbuf_printf(msg, " fps: %u track(s), %llu -> %llu key(s)\n",
                       clip->track_count + clip->morph_track_count, (unsigned long long)before,
                       (unsigned long long)all_keys(clip));
    return 0;
}
