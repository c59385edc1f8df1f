/* --gait-anchor's admission rules: the skeleton, roles and track shapes
 * it can reason about, and the whole-frame grid every changing track must
 * sit on exactly, so the anchor shift is a permutation of authored values
 * by key index and never a resample. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/math.h"
#include "animsmith/numfmt.h"
#include "animsmith/text.h"
#include "transform/gait_anchor.h"

/* Property words of the shape message ("Translation Linear"). */
static const char *property_title(anim_path path)
{
    switch (path) {
    case ANIM_PATH_TRANSLATION: return "Translation";
    case ANIM_PATH_ROTATION: return "Rotation";
    case ANIM_PATH_SCALE: return "Scale";
    default: return "Weights";
    }
}

/* "track 3" or "morph weight track 0": morph tracks are numbered apart. */
static void put_track(anim_strbuf *sb, bool morph, uint32_t i)
{
    anim_strbuf_printf(sb, "%strack %u", morph ? "morph weight " : "", i);
}

static int check_skeleton(const ga_run *run)
{
    const anim_doc *doc = run->doc;
    for (uint32_t b = 0; b < doc->bone_count; b++) {
        uint32_t p = doc->bones[b].parent;
        if (p == ANIM_NONE || p < b)
            continue;
        anim_strbuf sb = ANIM_STRBUF_INIT;
        ga_begin_cannot(run, &sb);
        anim_strbuf_puts(&sb, "skeleton bone ");
        anim_text_debug_quote(&sb, doc->bones[b].name, strlen(doc->bones[b].name));
        if (p >= doc->bone_count)
            anim_strbuf_printf(&sb,
                               " (index %u) has out-of-range ancestor index %u (its parent), so "
                               "trajectory evidence is missing",
                               b, p);
        else
            anim_strbuf_printf(&sb,
                               " (index %u) has parent index %u, creating a cyclic ancestor "
                               "chain or child-before-parent order; whole-skeleton sampling "
                               "requires an acyclic parents-before-children order and "
                               "trajectory evidence is missing",
                               b, p);
        return ga_refuse(run, &sb, ANIM_ERR_INVALID, false);
    }
    return 0;
}

static int check_roles(const ga_run *run)
{
    if (!run->rig)
        return 0;
    for (int r = 0; r < ANIM_ROLE_COUNT; r++) {
        uint32_t b = run->rig->bone[r];
        if (b == ANIM_NONE || b < run->doc->bone_count)
            continue;
        anim_strbuf sb = ANIM_STRBUF_INIT;
        ga_begin_cannot(run, &sb);
        anim_strbuf_printf(&sb,
                           "selected %s bone index %u is outside the skeleton, so trajectory "
                           "evidence is missing (%u bones)",
                           r == ANIM_ROLE_HIPS ? "Hips fallback" : anim_role_name((anim_role)r),
                           b, run->doc->bone_count);
        return ga_refuse(run, &sb, ANIM_ERR_INVALID, false);
    }
    return 0;
}

/* Value width the property stores: 3 (T, S), 4 (R); morph weights any
 * non-zero width. */
static bool storage_fits(const anim_track *t, bool morph)
{
    if (morph)
        return t->components > 0;
    return t->components == (t->path == ANIM_PATH_ROTATION ? 4u : 3u);
}

/* One track's shape: target, duplicate channel, cardinality, finiteness. */
static int check_track(const ga_run *run, const anim_track *tracks, uint32_t i, bool morph)
{
    const anim_track *t = &tracks[i];
    anim_strbuf sb = ANIM_STRBUF_INIT;
    if (t->bone >= run->doc->bone_count) {
        ga_begin_cannot(run, &sb);
        put_track(&sb, morph, i);
        anim_strbuf_printf(&sb, " targets out-of-range bone index %u", t->bone);
        return ga_refuse(run, &sb, ANIM_ERR_INVALID, false);
    }
    for (uint32_t j = 0; j < i; j++) {
        if (tracks[j].bone != t->bone || tracks[j].path != t->path)
            continue;
        /* Two writers of one channel: the rotation would no longer be a
         * single permutation of the values the pose actually reads. */
        ga_begin_cannot(run, &sb);
        put_track(&sb, morph, i);
        anim_strbuf_printf(&sb, " duplicates the %s channel for bone %u", anim_path_name(t->path),
                           t->bone);
        return ga_refuse(run, &sb, ANIM_ERR_INVALID, false);
    }
    uint64_t expected = (uint64_t)t->key_count * (t->interp == ANIM_INTERP_CUBICSPLINE ? 3u : 1u);
    if (t->value_count != expected || !storage_fits(t, morph) ||
        (t->key_count > 0 && (!t->times || !t->values))) {
        ga_begin_cannot(run, &sb);
        put_track(&sb, morph, i);
        anim_strbuf_printf(&sb,
                           " has %u times and %u values for %s %s; expected exactly %llu "
                           "values with property-compatible storage",
                           t->key_count, t->value_count, property_title(t->path),
                           anim_interp_label(t->interp), (unsigned long long)expected);
        return ga_refuse(run, &sb, ANIM_ERR_INVALID, false);
    }
    size_t floats = (size_t)t->value_count * t->components;
    if ((t->key_count > 0 && anim_f32_first_nonfinite(t->times, t->key_count) < t->key_count) ||
        (floats > 0 && anim_f32_first_nonfinite(t->values, floats) < floats)) {
        ga_begin_cannot(run, &sb);
        anim_strbuf_puts(&sb, "non-finite authored trajectory evidence in ");
        put_track(&sb, morph, i);
        return ga_refuse(run, &sb, ANIM_ERR_INVALID, true);
    }
    return 0;
}

int ga_validate_domain(ga_run *run)
{
    if (check_skeleton(run) || check_roles(run))
        return -1;
    for (uint32_t i = 0; i < run->clip->track_count; i++)
        if (check_track(run, run->clip->tracks, i, false))
            return -1;
    for (uint32_t i = 0; i < run->clip->morph_track_count; i++)
        if (check_track(run, run->clip->morph_tracks, i, true))
            return -1;

    /* A resolved Root is the trajectory even when Hips would measure
     * better: no silent fallback, as in root_trajectory. */
    const anim_rig_resolution *rig = run->rig;
    if (rig && rig->bone[ANIM_ROLE_ROOT] != ANIM_NONE) {
        run->bone = rig->bone[ANIM_ROLE_ROOT];
        run->label = "Root";
    } else if (rig && rig->bone[ANIM_ROLE_HIPS] != ANIM_NONE) {
        run->bone = rig->bone[ANIM_ROLE_HIPS];
        run->label = "Hips fallback";
    } else {
        anim_strbuf sb = ANIM_STRBUF_INIT;
        ga_begin_policy(run, &sb);
        anim_strbuf_puts(&sb, "selected Root/Hips trajectory evidence is missing");
        return ga_refuse(run, &sb, ANIM_ERR_INVALID, true);
    }
    return 0;
}

/* ---- the whole-frame grid ---- */

static int refuse_no_grid(const ga_run *run)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    ga_begin_selected(run, &sb);
    anim_strbuf_puts(&sb, "has no finite whole-frame trajectory grid at ");
    anim_strbuf_put_f64_plain(&sb, run->fps);
    anim_strbuf_puts(&sb, " fps over ");
    anim_strbuf_put_fixed(&sb, run->clip->duration_s, 6);
    anim_strbuf_puts(&sb, " s");
    return ga_refuse(run, &sb, ANIM_ERR_INVALID, true);
}

/* One work product against the bound; products are doubles so a huge K
 * cannot overflow before it is refused. */
static int check_bound(const ga_run *run, double a, const char *a_what, double b,
                       const char *b_what)
{
    double product = a * b;
    if (product <= GA_WORK_BOUND)
        return 0;
    anim_strbuf sb = ANIM_STRBUF_INIT;
    ga_begin_selected(run, &sb);
    anim_strbuf_printf(&sb,
                       "needs %.0f %s x %.0f %s = %.0f samples, over the inclusive %.0f-sample "
                       "work bound",
                       a, a_what, b, b_what, product, GA_WORK_BOUND);
    return ga_refuse(run, &sb, ANIM_ERR_LIMIT, true);
}

static uint32_t max_key_count(const anim_clip *clip)
{
    uint32_t max = 0;
    for (uint32_t i = 0; i < clip->track_count; i++)
        if (clip->tracks[i].key_count > max)
            max = clip->tracks[i].key_count;
    for (uint32_t i = 0; i < clip->morph_track_count; i++)
        if (clip->morph_tracks[i].key_count > max)
            max = clip->morph_tracks[i].key_count;
    return max;
}

static int refuse_misaligned(const ga_run *run, bool morph, uint32_t i, uint32_t k, float authored,
                             float required)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    ga_begin_selected(run, &sb);
    anim_strbuf_puts(&sb, "has duplicate/non-frame-aligned whole-frame trajectory evidence in ");
    put_track(&sb, morph, i);
    anim_strbuf_printf(&sb, ", key %u: authored time ", k);
    anim_strbuf_put_fixed(&sb, authored, 9);
    anim_strbuf_puts(&sb, " s, required frame time ");
    anim_strbuf_put_fixed(&sb, required, 9);
    anim_strbuf_puts(&sb, " s at ");
    anim_strbuf_put_f64_plain(&sb, run->fps);
    anim_strbuf_puts(&sb, " fps");
    return ga_refuse(run, &sb, ANIM_ERR_INVALID, true);
}

/* A changing track must hold exactly one key at every frame time, the
 * f32 value of k / fps, ending at the clip's duration. */
static int check_track_frames(const ga_run *run, const anim_track *t, bool morph, uint32_t i)
{
    if (ga_track_invariant(t))
        return 0;
    uint32_t n = run->frames;
    if (t->key_count != n) {
        anim_strbuf sb = ANIM_STRBUF_INIT;
        ga_begin_selected(run, &sb);
        anim_strbuf_puts(&sb, "has incomplete whole-frame rotation evidence in ");
        put_track(&sb, morph, i);
        anim_strbuf_printf(&sb, ": %u keys instead of exactly %u at ", t->key_count, n);
        anim_strbuf_put_f64_plain(&sb, run->fps);
        anim_strbuf_puts(&sb, " fps");
        return ga_refuse(run, &sb, ANIM_ERR_INVALID, true);
    }
    for (uint32_t k = 0; k < n; k++)
        if (t->times[k] != (float)run->times[k])
            return refuse_misaligned(run, morph, i, k, t->times[k], (float)run->times[k]);
    float duration = (float)run->clip->duration_s;
    if (t->times[n - 1] != duration)
        return refuse_misaligned(run, morph, i, n - 1, t->times[n - 1], duration);
    return 0;
}

int ga_frame_grid(ga_run *run)
{
    double fps = run->fps, duration = run->clip->duration_s;
    double frames = duration * fps;
    double tolerance = ldexp(1.0, -23) * fmax(fabs(frames), 1.0) * 4.0;
    if (!(isfinite(fps) && fps > 0.0 && isfinite(duration) && duration > 0.0 &&
          isfinite(frames) && fabs(frames - round(frames)) <= tolerance && round(frames) >= 1.0))
        return refuse_no_grid(run);

    double k = round(frames) + 1.0;
    const anim_doc *doc = run->doc;
    double tracks = (double)run->clip->track_count + (double)run->clip->morph_track_count;
    if (check_bound(run, k, "whole-frame samples", doc->bone_count, "skeleton bones") ||
        check_bound(run, k, "whole-frame samples", tracks, "tracks") ||
        check_bound(run, max_key_count(run->clip), "authored keys", doc->bone_count,
                    "skeleton bones"))
        return -1;

    run->frames = (uint32_t)k;
    run->times = malloc((size_t)run->frames * sizeof *run->times);
    if (!run->times)
        return anim_error_set(run->err, ANIM_ERR_NOMEM, "out of memory gait-anchoring clip '%s'",
                              run->clip->name);
    /* f64 division, then narrowing: the exact f32 time an exporter writes
     * for frame k. */
    for (uint32_t f = 0; f < run->frames; f++)
        run->times[f] = (double)(float)((double)f / fps);

    for (uint32_t i = 0; i < run->clip->track_count; i++)
        if (check_track_frames(run, &run->clip->tracks[i], false, i))
            return -1;
    for (uint32_t i = 0; i < run->clip->morph_track_count; i++)
        if (check_track_frames(run, &run->clip->morph_tracks[i], true, i))
            return -1;
    return 0;
}
