/* Duplicate loop endpoint analysis (the one `transform
 * --drop-duplicate-loop-endpoint` uses) and loop_endpoint_mode.
 *
 * The analysis reads authored keys only: a declared loop whose final keys
 * repeat key 0 on every moving track (within 1e-5 per vec3 component /
 * 1e-4 rad) carries a mechanically removable closing run. Anything the
 * analysis cannot classify is an error text, not a program failure; the
 * duplicate-loop-endpoint check prints those texts verbatim. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "animsmith/availability.h"
#include "animsmith/math.h"
#include "animsmith/measure_loop.h"
#include "animsmith/track_constant.h"

/* Shortest arc between two authored rotations, radians; -1 when either is
 * zero-length or non-finite (no direction to compare). */
static double quat_arc(const float *a, const float *b)
{
    anim_quat qa = anim_quat_from_f32(a), qb = anim_quat_from_f32(b);
    double na = anim_quat_dot(qa, qa), nb = anim_quat_dot(qb, qb);
    if (!(isfinite(na) && na > 0.0 && isfinite(nb) && nb > 0.0))
        return -1.0;
    return anim_quat_angular_delta(qa, qb);
}

static double vec_diff(const float *a, const float *b)
{
    double m = 0.0;
    for (int i = 0; i < 3; i++) {
        double d = fabs((double)a[i] - (double)b[i]);
        if (d > m)
            m = d;
    }
    return m;
}

static bool key_match(const anim_track *t, uint32_t i, uint32_t j)
{
    const float *a = anim_track_key_value(t, i), *b = anim_track_key_value(t, j);
    if (t->path == ANIM_PATH_ROTATION) {
        double arc = quat_arc(a, b);
        return arc >= 0.0 && arc <= ANIM_DUP_ENDPOINT_QUAT_TOL_RAD;
    }
    return vec_diff(a, b) <= ANIM_DUP_ENDPOINT_VEC_TOL;
}

static bool all_finite(const float *v, size_t n)
{
    return n == 0 || anim_f32_first_nonfinite(v, n) == n;
}

/* A cubic track whose tangents are not all ~0 moves even when its values
 * hold still. */
static bool tangents_move(const anim_track *t)
{
    if (t->interp != ANIM_INTERP_CUBICSPLINE)
        return false;
    for (uint32_t k = 0; k < t->key_count; k++)
        for (uint32_t e = 0; e < 3; e += 2) {
            const float *v = t->values + ((size_t)k * 3 + e) * t->components;
            for (uint32_t c = 0; c < t->components; c++)
                if (fabs((double)v[c]) > ANIM_DUP_ENDPOINT_VEC_TOL)
                    return true;
        }
    return false;
}

int anim_dup_endpoint_analyze(const anim_clip *clip, anim_dup_endpoint *out, anim_error *err)
{
    memset(out, 0, sizeof *out);
    if (clip->track_count == 0)
        return anim_error_set(err, ANIM_ERR_INVALID, "clip has no tracks");
    if (!isfinite(clip->duration_s))
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "track None contains a non-finite authored value");
    float duration32 = (float)clip->duration_s;
    const anim_track *t0 = &clip->tracks[0];

    bool have_moving = false;
    uint32_t moving_c = 0, min_c = UINT32_MAX;
    anim_dup_endpoint acc;
    memset(&acc, 0, sizeof acc);

    for (uint32_t i = 0; i < clip->track_count; i++) {
        const anim_track *t = &clip->tracks[i];
        uint32_t keys = t->key_count;
        uint64_t per = t->interp == ANIM_INTERP_CUBICSPLINE ? 3 : 1;
        if ((uint64_t)t->value_count != (uint64_t)keys * per)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "track %u has %u values for %u keys with %s interpolation", i,
                                  t->value_count, keys, anim_interp_label(t->interp));
        uint32_t want = t->path == ANIM_PATH_ROTATION ? 4 : 3;
        if (t->components != want || t->path == ANIM_PATH_WEIGHTS)
            return anim_error_set(err, ANIM_ERR_INVALID, "track %u has invalid value storage", i);
        if (!all_finite(t->times, keys) ||
            !all_finite(t->values, (size_t)t->value_count * t->components))
            return anim_error_set(err, ANIM_ERR_INVALID, "track Some(%u) contains a non-finite authored value", i);
        if (!anim_f32_strictly_increasing(t->times, keys))
            return anim_error_set(err, ANIM_ERR_INVALID, "track %u timeline is not strictly increasing", i);
        bool same = keys == t0->key_count;
        for (uint32_t k = 0; same && k < keys; k++)
            same = t->times[k] == t0->times[k];
        if (!same)
            return anim_error_set(err, ANIM_ERR_INVALID, "track %u does not share the exact authored timeline", i);
        if (keys == 0 || t->times[keys - 1] != duration32)
            return anim_error_set(err, ANIM_ERR_INVALID, "track %u does not end at the declared duration", i);
        if (keys < 3)
            return 0; /* too short to hold a closing run: not a candidate */

        uint32_t c = 0;
        while (c < keys - 2 && key_match(t, 0, keys - 1 - c))
            c++;
        if (c == 0)
            return 0;

        const float *first = anim_track_key_value(t, 0);
        const float *last = anim_track_key_value(t, keys - 1);
        if (t->path == ANIM_PATH_ROTATION) {
            double arc = quat_arc(first, last);
            if (arc < 0.0)
                return 0;
            if (!acc.has_rotation || arc > acc.rotation_delta_rad)
                acc.rotation_delta_rad = arc;
            acc.has_rotation = true;
        } else if (t->path == ANIM_PATH_TRANSLATION) {
            double d = vec_diff(first, last);
            if (!acc.has_translation || d > acc.translation_delta_m)
                acc.translation_delta_m = d;
            acc.has_translation = true;
        } else {
            double d = vec_diff(first, last);
            if (!acc.has_scale || d > acc.scale_delta)
                acc.scale_delta = d;
            acc.has_scale = true;
        }

        bool moves = tangents_move(t);
        for (uint32_t k = 1; !moves && k < keys; k++)
            moves = !key_match(t, 0, k);
        if (moves) {
            if (have_moving && c != moving_c)
                return 0; /* moving tracks disagree on the closing run */
            have_moving = true;
            moving_c = c;
        }
        if (c < min_c)
            min_c = c;
    }
    if (!have_moving)
        return 0; /* a stationary hold, not a loop with a duplicate */
    if (min_c < moving_c)
        return 0;

    acc.candidate = true;
    acc.removed_keys = moving_c;
    acc.duration_before = clip->duration_s;
    acc.duration_after = (double)t0->times[t0->key_count - moving_c - 1];
    *out = acc;
    return 0;
}

const char *anim_loop_endpoint_mode_name(anim_loop_endpoint_mode mode)
{
    switch (mode) {
    case ANIM_LOOP_ENDPOINT_DUPLICATE: return "duplicate_endpoint";
    case ANIM_LOOP_ENDPOINT_UNIQUE_CYCLE: return "unique_cycle";
    case ANIM_LOOP_ENDPOINT_NON_CLOSING: return "non_closing";
    default: return NULL;
    }
}

void anim_loop_endpoint_mode_compute(const anim_clip *clip, const anim_loop_continuity *lc,
                                     const anim_config *cfg, const anim_clip_expect *ex,
                                     anim_loop_endpoint *out)
{
    /* The 9.4 analysis runs only for a declared loop (it is the costly
     * part and means nothing otherwise). */
    anim_dup_endpoint analysis;
    anim_error aerr;
    anim_error_clear(&aerr);
    memset(&analysis, 0, sizeof analysis);
    int rc = 0;
    if (ex && ex->loop.set && ex->loop.value)
        rc = anim_dup_endpoint_analyze(clip, &analysis, &aerr);
    anim_loop_endpoint_mode_from_analysis(lc, cfg, ex, rc, &analysis, &aerr, out);
}

void anim_loop_endpoint_mode_from_analysis(const anim_loop_continuity *lc, const anim_config *cfg,
                                           const anim_clip_expect *ex, int analysis_rc,
                                           const anim_dup_endpoint *analysis,
                                           const anim_error *analysis_err, anim_loop_endpoint *out)
{
    memset(out, 0, sizeof *out);
    anim_loop_caps_resolve(cfg, ex, &out->caps);
    if (!ex || !ex->loop.set || !ex->loop.value) {
        out->availability = ANIM_AVAIL_NOT_APPLICABLE;
        return;
    }
    out->availability = ANIM_AVAIL_UNAVAILABLE;
    out->analysis = *analysis;
    if (analysis_rc != 0) {
        memcpy(out->analysis_error, analysis_err->message, sizeof out->analysis_error);
        return;
    }
    out->analysis_ok = true;
    if (out->analysis.candidate) {
        out->availability = ANIM_AVAIL_MEASURED;
        out->mode = ANIM_LOOP_ENDPOINT_DUPLICATE;
        return;
    }
    /* Every bone must have usable seam evidence to call the cycle closed or
     * not; a single unavailable row leaves the mode unavailable. */
    if (!lc || lc->availability != ANIM_AVAIL_MEASURED || lc->measured_bone_count != lc->bone_count)
        return;
    bool closes = true;
    for (uint32_t i = 0; closes && i < lc->bone_count; i++) {
        const anim_loop_bone *row = &lc->bones[i];
        if (anim_loop_exceeds_cap(row->position_delta_m, out->caps.position_m) ||
            anim_loop_exceeds_cap(row->rotation_delta_deg, out->caps.rotation_deg))
            closes = false;
    }
    out->availability = ANIM_AVAIL_MEASURED;
    out->mode = closes ? ANIM_LOOP_ENDPOINT_UNIQUE_CYCLE : ANIM_LOOP_ENDPOINT_NON_CLOSING;
}

void anim_loop_endpoint_mode_write_json(const anim_loop_endpoint *le, anim_json_writer *w)
{
    const char *mode = anim_loop_endpoint_mode_name(le->mode);
    if (le->availability == ANIM_AVAIL_MEASURED && mode) {
        anim_json_writer_key(w, "loop_endpoint_mode");
        anim_json_writer_string(w, mode);
    }
    anim_json_writer_key(w, "loop_endpoint_mode_availability");
    anim_json_writer_string(w, le->availability == ANIM_AVAIL_MEASURED && !mode
                                   ? "unavailable"
                                   : anim_availability_name(le->availability));
}

void anim_loop_endpoint_text(const anim_loop_endpoint *le, anim_strbuf *out)
{
    const char *mode = anim_loop_endpoint_mode_name(le->mode);
    if (le->availability != ANIM_AVAIL_MEASURED || !mode)
        return;
    anim_strbuf_puts(out, " endpoint=");
    anim_strbuf_puts(out, mode);
}
