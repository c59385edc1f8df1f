/* --gait-anchor: rotates an in-place cyclic clip in time so its stride
 * anchor (the trough of the left-minus-right foot height) lands at t = 0.
 * The step is a declaration that the clip is in place, so it proves that
 * first and refuses rather than guess (gait_anchor_grid.c admits the
 * shapes, gait_anchor_proof.c the trajectory); the rewrite itself moves
 * authored values by whole key indices and never resamples. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/measure_loop.h"
#include "animsmith/numfmt.h"
#include "animsmith/text.h"
#include "transform/gait_anchor.h"

/* A foot-height swing below this does not tell the feet apart. */
#define MIN_LR_AMPLITUDE_M 0.03

/* ---- refusal lines ---- */

static void put_clip(const ga_run *run, anim_strbuf *sb)
{
    const char *name = anim_clip_message_name(run->clip);
    anim_text_debug_quote(sb, name, strlen(name));
}

void ga_begin(const ga_run *run, anim_strbuf *sb)
{
    anim_strbuf_puts(sb, "clip ");
    put_clip(run, sb);
    anim_strbuf_puts(sb, ": ");
}

void ga_begin_cannot(const ga_run *run, anim_strbuf *sb)
{
    ga_begin(run, sb);
    anim_strbuf_puts(sb, "cannot gait-anchor clip ");
    put_clip(run, sb);
    anim_strbuf_puts(sb, ": ");
}

void ga_begin_policy(const ga_run *run, anim_strbuf *sb)
{
    ga_begin(run, sb);
    anim_strbuf_puts(sb, "cannot gait-anchor clip ");
    put_clip(run, sb);
    anim_strbuf_puts(sb, " under the in-place policy: ");
}

void ga_begin_selected(const ga_run *run, anim_strbuf *sb)
{
    const char *name = run->doc->bones[run->bone].name;
    ga_begin_policy(run, sb);
    anim_strbuf_printf(sb, "selected %s bone ", run->label);
    anim_text_debug_quote(sb, name, strlen(name));
    anim_strbuf_printf(sb, " (index %u) ", run->bone);
}

int ga_refuse(const ga_run *run, anim_strbuf *sb, anim_error_code code, bool alt)
{
    if (alt)
        anim_strbuf_puts(sb, "; " GA_ALT);
    if (sb->failed || !sb->data)
        anim_error_set(run->err, ANIM_ERR_NOMEM, "out of memory gait-anchoring a clip");
    else
        anim_error_set(run->err, code, "%s", sb->data);
    anim_strbuf_free(sb);
    return -1;
}

/* ---- which tracks move ---- */

bool ga_track_invariant(const anim_track *t)
{
    if (t->key_count <= 1)
        return true;
    bool cubic = t->interp == ANIM_INTERP_CUBICSPLINE;
    uint32_t w = t->components, stride = cubic ? 3u : 1u;
    const float *v0 = t->values + (size_t)(cubic ? 1u : 0u) * w;
    for (uint32_t k = 0; k < t->key_count; k++) {
        const float *key = t->values + (size_t)k * stride * w;
        for (uint32_t c = 0; c < w; c++) {
            /* Float equality on purpose: -0.0 equals 0.0, and a track
             * that is not bit-for-bit still is not exempt. */
            if (key[(cubic ? w : 0u) + c] != v0[c])
                return false;
            if (cubic && (key[c] != 0.0f || key[2u * w + c] != 0.0f))
                return false;
        }
    }
    return true;
}

/* The non-invariant cubic tracks, which a value permutation cannot shift
 * without re-deriving their tangents. */
static void list_cubic(const anim_track *tracks, uint32_t count, anim_strbuf *sb, bool *any)
{
    for (uint32_t i = 0; i < count; i++) {
        const anim_track *t = &tracks[i];
        if (t->interp != ANIM_INTERP_CUBICSPLINE || ga_track_invariant(t))
            continue;
        anim_strbuf_printf(sb, "%s%s bone %u", *any ? ", " : "", anim_path_name(t->path), t->bone);
        *any = true;
    }
}

static int refuse_cubic(const ga_run *run)
{
    anim_strbuf list = ANIM_STRBUF_INIT;
    bool any = false;
    list_cubic(run->clip->tracks, run->clip->track_count, &list, &any);
    list_cubic(run->clip->morph_tracks, run->clip->morph_track_count, &list, &any);
    if (!any)
        return 0;
    anim_strbuf sb = ANIM_STRBUF_INIT;
    ga_begin(run, &sb);
    anim_strbuf_puts(&sb, "cannot gait-anchor: these animated tracks need lossless resampling "
                          "that is not yet supported (");
    anim_strbuf_puts(&sb, list.data);
    anim_strbuf_puts(&sb, "); retime them to LINEAR first");
    anim_strbuf_free(&list);
    return ga_refuse(run, &sb, ANIM_ERR_UNSUPPORTED, false);
}

/* ---- the rotation candidates ---- */

/* Copies of the track arrays whose moving tracks read values rotated
 * left by shift (new key k = old key (k + shift) mod K); invariant
 * tracks keep their arrays. The copies live in the arena: the winner's
 * become the clip's. */
static int rotate_tracks(const ga_run *run, const anim_track *src, uint32_t count, uint32_t shift,
                         anim_track **out)
{
    *out = NULL;
    if (count == 0)
        return 0;
    anim_track *copy = anim_arena_calloc(run->arena, count, sizeof *copy);
    if (!copy)
        return anim_error_set(run->err, ANIM_ERR_NOMEM, "out of memory gait-anchoring clip '%s'",
                              run->clip->name);
    memcpy(copy, src, (size_t)count * sizeof *copy);
    for (uint32_t i = 0; i < count; i++) {
        anim_track *t = &copy[i];
        if (ga_track_invariant(t))
            continue;
        /* Admitted moving tracks are LINEAR or STEP with exactly K keys. */
        size_t w = t->components, k_count = t->key_count;
        float *v = anim_arena_calloc(run->arena, k_count * w, sizeof *v);
        if (!v)
            return anim_error_set(run->err, ANIM_ERR_NOMEM,
                                  "out of memory gait-anchoring clip '%s'", run->clip->name);
        for (size_t k = 0; k < k_count; k++)
            memcpy(v + k * w, src[i].values + ((k + shift) % k_count) * w, w * sizeof *v);
        t->values = v;
    }
    *out = copy;
    return 0;
}

typedef struct candidate {
    anim_clip clip;
    anim_foot_cycle fc;
} candidate;

/* The clip with every moving track rotated by shift, measured on the
 * admitted frame times. */
static int measure_candidate(const ga_run *run, uint32_t shift, candidate *c)
{
    c->clip = *run->clip;
    if (rotate_tracks(run, run->clip->tracks, run->clip->track_count, shift, &c->clip.tracks) ||
        rotate_tracks(run, run->clip->morph_tracks, run->clip->morph_track_count, shift,
                      &c->clip.morph_tracks))
        return -1;
    anim_metric_grid grid;
    if (anim_metric_grid_at_times(run->doc, &c->clip, run->times, run->frames, &grid, run->err))
        return -1;
    anim_foot_cycle_compute(run->doc, &grid, run->rig, ANIM_MIN_STRIDE_STEP_M, &c->fc);
    anim_metric_grid_free(&grid);
    return 0;
}

static bool has_phase(const anim_foot_cycle *fc)
{
    return fc->status == ANIM_FOOT_CYCLE_OK && fc->phase_outcome == ANIM_GAIT_PHASE_MEASURED;
}

static int refuse_reason(const ga_run *run, const char *reason)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    ga_begin(run, &sb);
    anim_strbuf_puts(&sb, reason);
    return ga_refuse(run, &sb, ANIM_ERR_INVALID, false);
}

static int align(ga_run *run, const anim_foot_cycle *before, anim_strbuf *msg)
{
    static const int offsets[3] = {0, -1, 1};
    int64_t k = run->frames;
    int64_t anchor = (int64_t)round(before->phase * (double)k);
    candidate best, c;
    memset(&best, 0, sizeof best);
    int best_offset = 0;
    bool found = false;
    double best_rank = INFINITY;
    for (int i = 0; i < 3; i++) {
        uint32_t shift = (uint32_t)((((anchor + offsets[i]) % k) + k) % k);
        if (measure_candidate(run, shift, &c))
            return -1;
        if (!has_phase(&c.fc))
            continue;
        double rank = c.fc.has_ratio ? c.fc.ratio : INFINITY;
        /* Strictly lower only: ties keep the earlier offset. */
        if (!found || rank < best_rank) {
            best = c;
            best_rank = rank;
            best_offset = offsets[i];
            found = true;
        }
    }
    if (!found)
        return refuse_reason(run, "no rotation candidate was measurable");

    run->clip->tracks = best.clip.tracks;
    run->clip->morph_tracks = best.clip.morph_tracks;
    anim_strbuf_puts(msg, "  gait-anchored '");
    const char *name = anim_clip_message_name(run->clip);
    anim_text_atom(msg, name, strlen(name));
    anim_strbuf_puts(msg, "': phase ");
    anim_strbuf_put_fixed(msg, before->phase, 3);
    anim_strbuf_puts(msg, " -> ");
    anim_strbuf_put_fixed(msg, best.fc.phase, 3);
    anim_strbuf_printf(msg, " (offset %d, seam ", best_offset);
    if (best.fc.has_ratio)
        anim_strbuf_put_fixed(msg, best.fc.ratio, 2);
    else
        anim_strbuf_puts(msg, "n/a");
    anim_strbuf_puts(msg, ")\n");
    return 0;
}

static int anchor(ga_run *run, anim_strbuf *msg)
{
    if (ga_validate_domain(run) || ga_frame_grid(run))
        return -1;
    anim_metric_grid grid;
    if (ga_trajectory_proof(run, &grid))
        return -1;
    anim_foot_cycle before;
    anim_foot_cycle_compute(run->doc, &grid, run->rig, ANIM_MIN_STRIDE_STEP_M, &before);
    anim_metric_grid_free(&grid);
    if (!has_phase(&before))
        return refuse_reason(run, "no usable stride anchor (hips/foot roles unresolved or clip "
                                  "too short)");
    if (before.lr_amplitude_m < MIN_LR_AMPLITUDE_M) {
        anim_strbuf sb = ANIM_STRBUF_INIT;
        ga_begin(run, &sb);
        /* U+2212 MINUS SIGN and U+2014 EM DASH, spelled as UTF-8. */
        anim_strbuf_puts(&sb, "no usable stride anchor (L\xe2\x88\x92R amplitude ");
        anim_strbuf_put_fixed(&sb, before.lr_amplitude_m, 4);
        anim_strbuf_puts(&sb, " m) \xe2\x80\x94 a ring clip must alternate its feet for anchor "
                              "alignment to mean anything");
        return ga_refuse(run, &sb, ANIM_ERR_INVALID, false);
    }
    if (refuse_cubic(run))
        return -1;
    return align(run, &before, msg);
}

int anim_transform_gait_anchor(anim_arena *arena, const anim_doc *doc, anim_clip *clip,
                               const anim_rig_resolution *rig, double fps, anim_strbuf *msg,
                               anim_error *err)
{
    if (!arena || !doc || !clip || !msg)
        return anim_error_set(err, ANIM_ERR_USAGE, "gait-anchor needs a document and a clip");
    ga_run run;
    memset(&run, 0, sizeof run);
    run.arena = arena;
    run.doc = doc;
    run.clip = clip;
    run.rig = rig;
    run.fps = fps;
    run.err = err;
    int rc = anchor(&run, msg);
    free(run.times);
    return rc;
}
