/* --reduce-keys MAX_ERROR_M: lossy key removal bounded in model space.
 *
 * The error is measured where it shows, not where it is stored: a small
 * local rotation error on a parent moves every bone below it by the angle
 * times the distance, so a bound on local values alone lets a long chain
 * drift. This follows the object-space error idea of the ACL animation
 * compression library (its "virtual vertex" / shell distance metric: the
 * error of a transform is how far it moves a point at a distance from the
 * bone, measured after the whole hierarchy is composed). Here the measured
 * points are the bones themselves: every bone's model-space position,
 * compared with the original at every original key time of every TRS
 * track and on a uniform grid at least four times denser than the
 * smallest key interval of any track. A child's position is the shell
 * point of its parent's rotation; a leaf's own rotation moves no bone, so
 * its local tolerance uses the bone's length as a stand-in shell distance
 * (the mesh it carries) rather than removing every key.
 *
 * The search: each LINEAR track is simplified alone in local space
 * (Douglas-Peucker: keep the key the kept neighbours reconstruct worst
 * until every removed key is within the track's local tolerance, judged
 * by the sampler the checks use), with a tolerance from the bound and the
 * bone's lever arm. The reduced clip is then sampled at every check time;
 * tracks on a bone over the bound and on its ancestors get tighter
 * tolerances and the round repeats. After the last round, tracks still
 * on a failing chain are put back unreduced until the clip passes. The
 * last measurement is of the clip that is written: its largest error is
 * the one reported, and it is never above the bound.
 *
 * STEP tracks lose only keys that repeat the previous kept key exactly;
 * CUBICSPLINE and morph-weight tracks are left as authored. The first and
 * last key of every track stay, so the clip's duration does not move. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/numfmt.h"
#include "animsmith/sample.h"
#include "animsmith/text.h"
#include "animsmith/transform.h"

/* Check samples of one clip (key times plus the dense grid). */
#define RK_MAX_SAMPLES 200000u
/* The dense grid's spacing as a fraction of the smallest key interval. */
#define RK_GRID_DENSITY 4.0
/* Tightening rounds before the fallback puts tracks back unreduced. */
#define RK_MAX_ROUNDS 8
/* Share of the bound a track's first local tolerance may use: errors of a
 * chain add up, so starting at the full bound mostly buys a second round. */
#define RK_FIRST_SHARE 0.5
/* Check frames the lever arms are measured on (evenly spread). */
#define RK_LEVER_FRAMES 16u

typedef struct rk_track {
    uint32_t index;  /* in clip->tracks */
    double tol;      /* local tolerance: metres (T), radians (R), scale units (S) */
    bool reduce;     /* false: put back unreduced */
    uint32_t kept;
    float *times;    /* scratch, the original key count */
    float *values;
} rk_track;

typedef struct rk_state {
    const anim_doc *doc;
    const anim_clip *clip;
    double bound;
    double *check;        /* sorted, distinct check times */
    uint32_t check_count;
    anim_metric_grid orig;
    anim_clip trial;      /* the clip with the reduced tracks */
    anim_track *trial_tracks;
    rk_track *work;
    uint32_t work_count;
    double *bone_err;     /* per bone, of the last measurement */
    double max_err;
} rk_state;

static int nomem(const anim_clip *clip, anim_error *err)
{
    return anim_error_set(err, ANIM_ERR_NOMEM, "clip '%s': out of memory reducing keys",
                          anim_clip_message_name(clip));
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ---- which tracks are reduced ---- */

static bool rotation_keys_nonzero(const anim_track *t)
{
    for (uint32_t k = 0; k < t->key_count; k++)
        if (anim_quat_dot(anim_quat_from_f32(t->values + (size_t)k * 4u),
                          anim_quat_from_f32(t->values + (size_t)k * 4u)) == 0.0)
            return false;
    return true;
}

/* LINEAR or STEP, structurally sound, on a bone, with a key to spare. */
static bool reducible(const anim_doc *doc, const anim_track *t)
{
    if (t->interp == ANIM_INTERP_CUBICSPLINE || t->key_count < 3 || t->bone >= doc->bone_count ||
        !anim_track_is_valid(t))
        return false;
    return t->path != ANIM_PATH_ROTATION || rotation_keys_nonzero(t);
}

/* ---- check times ---- */

static double smallest_interval(const anim_clip *clip)
{
    double best = INFINITY;
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const anim_track *t = &clip->tracks[i];
        if (!t->times)
            continue;
        for (uint32_t k = 1; k < t->key_count; k++) {
            double dt = (double)t->times[k] - (double)t->times[k - 1];
            if (dt > 0.0 && dt < best)
                best = dt;
        }
    }
    return best;
}

static int limit_error(const anim_clip *clip, double count, anim_error *err)
{
    return anim_error_set(err, ANIM_ERR_LIMIT,
                          "clip '%s': key reduction would check %.0f sample time(s) (every key time "
                          "and a grid at a quarter of the smallest key interval), over the %u-sample "
                          "limit",
                          anim_clip_message_name(clip), count, RK_MAX_SAMPLES);
}

/* Every finite key time of every TRS track, and the uniform grid over
 * [0, duration] whose spacing is at most a quarter of the smallest key
 * interval; sorted, duplicates dropped. */
static int build_check_times(rk_state *st, anim_error *err)
{
    const anim_clip *clip = st->clip;
    double d = clip->duration_s;
    double small = smallest_interval(clip);
    double grid = 2.0;
    if (d > 0.0 && isfinite(small))
        grid = ceil(RK_GRID_DENSITY * d / small) + 1.0;
    if (!(grid <= (double)RK_MAX_SAMPLES))
        return limit_error(clip, grid, err);
    uint64_t total = (uint64_t)grid;
    for (uint32_t i = 0; i < clip->track_count; i++)
        total += clip->tracks[i].times ? clip->tracks[i].key_count : 0;
    double *t = malloc((size_t)total * sizeof *t);
    if (!t)
        return nomem(clip, err);
    uint32_t n = 0, g = (uint32_t)grid;
    for (uint32_t i = 0; i < g; i++)
        t[n++] = d > 0.0 ? (d * (double)i) / (double)(g - 1) : 0.0;
    t[g - 1] = d > 0.0 ? d : 0.0;
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const anim_track *tr = &clip->tracks[i];
        for (uint32_t k = 0; tr->times && k < tr->key_count; k++)
            if (isfinite(tr->times[k]))
                t[n++] = (double)tr->times[k];
    }
    qsort(t, n, sizeof *t, cmp_double);
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (m == 0 || t[i] != t[m - 1])
            t[m++] = t[i];
    st->check = t;
    st->check_count = m;
    if (m > RK_MAX_SAMPLES)
        return limit_error(clip, (double)m, err);
    return 0;
}

/* ---- the error measure ---- */

/* A bone that was not finite in the original is judged only on staying
 * so; turning finite or non-finite is an unbounded change. */
static double position_error(anim_vec3 a, anim_vec3 b)
{
    bool fa = anim_vec3_is_finite(a), fb = anim_vec3_is_finite(b);
    if (!fa || !fb)
        return fa == fb ? 0.0 : INFINITY;
    return anim_vec3_dist(a, b);
}

/* Samples the trial clip at every check time and records each bone's
 * largest model-space position error against the original. */
static int measure(rk_state *st, anim_error *err)
{
    anim_metric_grid g;
    if (anim_metric_grid_at_times(st->doc, &st->trial, st->check, st->check_count, &g, err))
        return -1;
    uint32_t bones = st->doc->bone_count;
    for (uint32_t b = 0; b < bones; b++)
        st->bone_err[b] = 0.0;
    st->max_err = 0.0;
    for (uint32_t f = 0; f < g.frame_count; f++)
        for (uint32_t b = 0; b < bones; b++) {
            size_t i = anim_metric_grid_index(&g, f, b);
            double e = position_error(st->orig.model_pos[i], g.model_pos[i]);
            if (e > st->bone_err[b])
                st->bone_err[b] = e;
            if (e > st->max_err)
                st->max_err = e;
        }
    anim_metric_grid_free(&g);
    return 0;
}

static bool has_parent(const anim_doc *doc, uint32_t b)
{
    uint32_t p = doc->bones[b].parent;
    return p != ANIM_NONE && p < b; /* as the pose FK treats it */
}

/* The lever arm of every bone: the farthest a descendant is from it, or
 * for a leaf its own length, over a few original frames. */
static void lever_arms(const rk_state *st, double *lever)
{
    const anim_doc *doc = st->doc;
    const anim_metric_grid *g = &st->orig;
    for (uint32_t b = 0; b < doc->bone_count; b++)
        lever[b] = 0.0;
    uint32_t frames = g->frame_count < RK_LEVER_FRAMES ? g->frame_count : RK_LEVER_FRAMES;
    for (uint32_t s = 0; s < frames; s++) {
        uint32_t f = frames > 1 ? (uint32_t)(((uint64_t)s * (g->frame_count - 1)) / (frames - 1)) : 0;
        const anim_vec3 *p = g->model_pos + anim_metric_grid_index(g, f, 0);
        for (uint32_t d = 0; d < doc->bone_count; d++) {
            if (doc->bones[d].child_count == 0 && has_parent(doc, d)) {
                double own = position_error(p[d], p[doc->bones[d].parent]);
                lever[d] = own > lever[d] && isfinite(own) ? own : lever[d];
            }
            for (uint32_t a = d; has_parent(doc, a);) {
                a = doc->bones[a].parent;
                double e = position_error(p[d], p[a]);
                if (isfinite(e) && e > lever[a])
                    lever[a] = e;
            }
        }
    }
}

/* ---- one track in local space ---- */

/* The value the sampler gives between kept keys a and b at key k's time,
 * against key k's own: a two-key track through the same sampler, so a
 * LINEAR rotation is reconstructed by the slerp the checks judge by. */
static double key_deviation(const anim_track *t, uint32_t a, uint32_t b, uint32_t k)
{
    uint32_t c = t->components;
    float times[2] = {t->times[a], t->times[b]};
    float values[8];
    memcpy(values, t->values + (size_t)a * c, c * sizeof(float));
    memcpy(values + c, t->values + (size_t)b * c, c * sizeof(float));
    anim_track pair = *t;
    pair.key_count = 2;
    pair.value_count = 2;
    pair.times = times;
    pair.values = values;
    double at = (double)t->times[k];
    if (t->path == ANIM_PATH_ROTATION)
        return anim_quat_angle_between(anim_track_sample_quat(&pair, at),
                                       anim_track_sample_quat(t, at));
    return anim_vec3_dist(anim_track_sample_vec3(&pair, at), anim_track_sample_vec3(t, at));
}

/* Douglas-Peucker over key indices with an explicit stack: a segment
 * whose worst removed key is over tol keeps that key and splits there. */
static void simplify_linear(const anim_track *t, double tol, bool *keep, uint32_t *stack)
{
    uint32_t n = t->key_count, top = 0;
    keep[0] = keep[n - 1] = true;
    stack[top++] = 0;
    stack[top++] = n - 1;
    while (top >= 2) {
        uint32_t b = stack[--top], a = stack[--top];
        double worst = -1.0;
        uint32_t at = a;
        for (uint32_t k = a + 1; k < b; k++) {
            double e = key_deviation(t, a, b, k);
            if (!(e <= worst)) {
                worst = e;
                at = k;
            }
        }
        if (at == a || worst <= tol)
            continue;
        keep[at] = true;
        stack[top++] = a;
        stack[top++] = at;
        stack[top++] = at;
        stack[top++] = b;
    }
}

/* A STEP key goes only when it repeats the previous kept key exactly:
 * then the held value is the same either way, at every time. */
static void simplify_step(const anim_track *t, bool *keep)
{
    uint32_t n = t->key_count, c = t->components, last = 0;
    keep[0] = keep[n - 1] = true;
    for (uint32_t k = 1; k + 1 < n; k++) {
        const float *v = t->values + (size_t)k * c, *p = t->values + (size_t)last * c;
        bool same = true;
        for (uint32_t i = 0; i < c; i++)
            same = same && v[i] == p[i];
        if (!same) {
            keep[k] = true;
            last = k;
        }
    }
}

/* Reduces work track w from the original into its scratch and points the
 * trial track at the result (or at the original when it is put back). */
static void reduce_track(rk_state *st, rk_track *w, bool *keep, uint32_t *stack)
{
    const anim_track *t = &st->clip->tracks[w->index];
    anim_track *trial = &st->trial_tracks[w->index];
    *trial = *t;
    if (!w->reduce)
        return;
    memset(keep, 0, t->key_count * sizeof *keep);
    if (t->interp == ANIM_INTERP_STEP)
        simplify_step(t, keep);
    else
        simplify_linear(t, w->tol, keep, stack);
    uint32_t c = t->components, m = 0;
    for (uint32_t k = 0; k < t->key_count; k++) {
        if (!keep[k])
            continue;
        w->times[m] = t->times[k];
        memcpy(w->values + (size_t)m * c, t->values + (size_t)k * c, c * sizeof(float));
        m++;
    }
    w->kept = m;
    trial->times = w->times;
    trial->values = w->values;
    trial->key_count = m;
    trial->value_count = m;
}

/* ---- the search ---- */

static int alloc_state(rk_state *st, anim_error *err)
{
    const anim_clip *clip = st->clip;
    st->trial = *clip;
    st->trial_tracks = calloc(clip->track_count ? clip->track_count : 1, sizeof *st->trial_tracks);
    st->work = calloc(clip->track_count ? clip->track_count : 1, sizeof *st->work);
    st->bone_err = calloc(st->doc->bone_count ? st->doc->bone_count : 1, sizeof *st->bone_err);
    if (!st->trial_tracks || !st->work || !st->bone_err)
        return nomem(clip, err);
    memcpy(st->trial_tracks, clip->tracks, clip->track_count * sizeof *st->trial_tracks);
    st->trial.tracks = st->trial_tracks;
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const anim_track *t = &clip->tracks[i];
        if (!reducible(st->doc, t))
            continue;
        rk_track *w = &st->work[st->work_count++];
        w->index = i;
        w->reduce = true;
        w->times = malloc(t->key_count * sizeof *w->times);
        w->values = malloc((size_t)t->key_count * t->components * sizeof *w->values);
        if (!w->times || !w->values)
            return nomem(clip, err);
    }
    return 0;
}

static void free_state(rk_state *st)
{
    for (uint32_t i = 0; i < st->work_count; i++) {
        free(st->work[i].times);
        free(st->work[i].values);
    }
    free(st->work);
    free(st->trial_tracks);
    free(st->bone_err);
    free(st->check);
    anim_metric_grid_free(&st->orig);
}

static int first_tolerances(rk_state *st, anim_error *err)
{
    double *lever = calloc(st->doc->bone_count, sizeof *lever);
    if (!lever)
        return nomem(st->clip, err);
    lever_arms(st, lever);
    double share = RK_FIRST_SHARE * st->bound;
    for (uint32_t i = 0; i < st->work_count; i++) {
        rk_track *w = &st->work[i];
        const anim_track *t = &st->clip->tracks[w->index];
        double arm = lever[t->bone];
        if (t->path == ANIM_PATH_TRANSLATION)
            w->tol = share;
        else /* an angle or a relative scale change moves a point at the arm by tol x arm */
            w->tol = arm > 0.0 ? share / arm : INFINITY;
    }
    free(lever);
    return 0;
}

/* The worst error among a bone and its descendants, per bone: what a
 * track on that bone is responsible for. */
static void chain_errors(const rk_state *st, double *chain)
{
    const anim_doc *doc = st->doc;
    memcpy(chain, st->bone_err, doc->bone_count * sizeof *chain);
    for (uint32_t b = doc->bone_count; b-- > 0;)
        if (has_parent(doc, b) && chain[b] > chain[doc->bones[b].parent])
            chain[doc->bones[b].parent] = chain[b];
}

/* Tightens (round < RK_MAX_ROUNDS) or puts back the tracks of every
 * failing chain. Returns how many tracks were put back. */
static uint32_t respond(rk_state *st, const double *chain, bool put_back)
{
    uint32_t back = 0;
    for (uint32_t i = 0; i < st->work_count; i++) {
        rk_track *w = &st->work[i];
        double e = chain[st->clip->tracks[w->index].bone];
        if (!w->reduce || !(e > st->bound))
            continue;
        if (put_back) {
            w->reduce = false;
            back++;
        } else {
            /* A track with no lever arm on the sampled frames still moved
             * something: judge it as if its arm were a metre. */
            if (!isfinite(w->tol))
                w->tol = st->bound;
            double f = 0.9 * st->bound / e; /* aim under the bound... */
            w->tol *= f < 0.5 ? f : 0.5;    /* ...and at least halve */
        }
    }
    return back;
}

static int search(rk_state *st, anim_error *err)
{
    uint32_t max_keys = 0;
    for (uint32_t i = 0; i < st->work_count; i++) {
        uint32_t k = st->clip->tracks[st->work[i].index].key_count;
        max_keys = k > max_keys ? k : max_keys;
    }
    bool *keep = malloc(max_keys ? max_keys : 1);
    /* Each split pushes two pairs for one kept key: 4 per key is plenty. */
    uint32_t *stack = malloc(((size_t)max_keys * 4u + 4u) * sizeof *stack);
    double *chain = malloc((st->doc->bone_count ? st->doc->bone_count : 1) * sizeof *chain);
    int rc = 0;
    if (!keep || !stack || !chain) {
        rc = nomem(st->clip, err);
        goto done;
    }
    for (uint32_t round = 0;; round++) {
        for (uint32_t i = 0; i < st->work_count; i++)
            reduce_track(st, &st->work[i], keep, stack);
        if (measure(st, err)) {
            rc = -1;
            goto done;
        }
        if (st->max_err <= st->bound)
            break;
        chain_errors(st, chain);
        bool put_back = round + 1 >= RK_MAX_ROUNDS;
        if (put_back && respond(st, chain, true) == 0) {
            /* Unreachable: a bone differs only through a reduced track on
             * it or above it. Keep everything rather than loop. */
            for (uint32_t i = 0; i < st->work_count; i++)
                st->work[i].reduce = false;
        } else if (!put_back) {
            respond(st, chain, false);
        }
    }
done:
    free(keep);
    free(stack);
    free(chain);
    return rc;
}

/* ---- committing and reporting ---- */

static int commit(anim_arena *arena, rk_state *st, anim_clip *clip, anim_error *err)
{
    for (uint32_t i = 0; i < st->work_count; i++) {
        const rk_track *w = &st->work[i];
        anim_track *t = &clip->tracks[w->index];
        if (!w->reduce || w->kept == t->key_count)
            continue;
        uint32_t c = t->components;
        float *times = anim_arena_calloc(arena, w->kept, sizeof *times);
        float *values = anim_arena_calloc(arena, (size_t)w->kept * c, sizeof *values);
        if (!times || !values)
            return nomem(clip, err);
        memcpy(times, w->times, w->kept * sizeof *times);
        memcpy(values, w->values, (size_t)w->kept * c * sizeof *values);
        t->times = times;
        t->values = values;
        t->key_count = w->kept;
        t->value_count = w->kept;
    }
    anim_clip_refresh_max_keys(clip);
    return 0;
}

static void report(anim_strbuf *msg, const anim_clip *clip, const anim_reduce_result *r,
                   double bound)
{
    uint32_t left = clip->morph_track_count;
    for (uint32_t i = 0; i < clip->track_count; i++)
        left += clip->tracks[i].interp == ANIM_INTERP_CUBICSPLINE;
    /* The name through the same escaping as every other step's line. */
    const char *name = anim_clip_message_name(clip);
    anim_strbuf_puts(msg, "  reduced keys '");
    anim_text_atom(msg, name, strlen(name));
    anim_strbuf_printf(msg, "': %llu -> %llu key(s), largest error ",
                       (unsigned long long)r->keys_before, (unsigned long long)r->keys_after);
    anim_strbuf_put_fixed(msg, r->max_error_m, 6);
    anim_strbuf_puts(msg, " m (bound ");
    anim_strbuf_put_f64_plain(msg, bound);
    anim_strbuf_printf(msg, " m, %u check sample(s))", r->check_samples);
    if (left)
        anim_strbuf_printf(msg, "; %u cubic/morph track(s) left as authored", left);
    anim_strbuf_putc(msg, '\n');
}

int anim_transform_reduce_keys(anim_arena *arena, const anim_doc *doc, anim_clip *clip,
                               double max_error_m, anim_reduce_result *result, anim_strbuf *msg,
                               anim_error *err)
{
    if (!isfinite(max_error_m) || max_error_m < 0.0) {
        char buf[ANIM_FMT_PLAIN_MAX];
        anim_fmt_f64_plain(max_error_m, buf);
        return anim_error_set(err, ANIM_ERR_USAGE,
                              "clip '%s': --reduce-keys wants a finite error bound of 0 m or more, "
                              "got %s",
                              anim_clip_message_name(clip), buf);
    }
    rk_state st;
    memset(&st, 0, sizeof st);
    st.doc = doc;
    st.clip = clip;
    st.bound = max_error_m;
    anim_reduce_result r = {anim_clip_trs_key_count(clip), 0, 0.0, 0};
    int rc = build_check_times(&st, err);
    if (rc == 0)
        rc = alloc_state(&st, err);
    if (rc == 0 && st.work_count > 0 && doc->bone_count > 0) {
        rc = anim_metric_grid_at_times(doc, clip, st.check, st.check_count, &st.orig, err);
        if (rc == 0)
            rc = first_tolerances(&st, err);
        if (rc == 0)
            rc = search(&st, err);
        if (rc == 0)
            rc = commit(arena, &st, clip, err);
    }
    if (rc == 0) {
        r.keys_after = anim_clip_trs_key_count(clip);
        r.max_error_m = st.max_err;
        r.check_samples = st.check_count;
        report(msg, clip, &r, max_error_m);
        if (result)
            *result = r;
    }
    free_state(&st);
    return rc;
}
