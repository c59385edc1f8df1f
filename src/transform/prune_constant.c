/* --prune-constant-tracks: removes the tracks the constant-track note
 * calls export bloat, but only where the removal is provably invisible.
 * A constant track is not automatically redundant: without it the bone
 * falls back to its rest pose, which may differ from the held value, and
 * a duplicate channel on the same (bone, property) would take over. So
 * every candidate is either proven harmless (its values are the rest
 * values already) or tried: the clip is sampled without it, and the
 * removal stands only when every bone's local TRS and model-space
 * position and rotation stay within tolerance on the clip's default grid.
 * Bones the clip's contract declares as animated keep their tracks, so
 * missing-bones and frozen-bone still have their evidence. */
#include <math.h>
#include <string.h>

#include "animsmith/sample.h"
#include "animsmith/text.h"
#include "animsmith/track_constant.h"
#include "animsmith/transform.h"

#define POSITION_TOL 1e-4 /* local translation / scale and model position, per component */
#define ROTATION_TOL_RAD 1e-3

static const char *const REASON_ABSENT = "track target is not present in the skeleton";
static const char *const REASON_UNSAFE = "the original or trial clip cannot be sampled safely";
static const char *const REASON_PROTECTED = "target bone is protected";
static const char *const REASON_LAST = "removal would leave no writable track";
static const char *const REASON_CHANGES =
    "removal changes sampled local TRS or model-space position/rotation";

/* One candidate's outcome: reason NULL means removed. */
typedef struct {
    uint32_t track;
    const char *reason;
} verdict;

static bool finite3(const double *v)
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

static bool quat_nonzero(anim_quat q)
{
    return q.x != 0.0 || q.y != 0.0 || q.z != 0.0 || q.w != 0.0;
}

static bool rotation_keys_nonzero(const anim_track *t)
{
    if (t->components != 4)
        return true;
    for (uint32_t k = 0; k < t->key_count; k++) {
        const float *v = anim_track_key_value(t, k);
        if (!v || !quat_nonzero(anim_quat_from_f32(v)))
            return false;
    }
    return true;
}

/* Whether the clip can be sampled without NaN creeping in from the data
 * itself: a positive duration, a parents-first skeleton with finite rest
 * poses, and structurally valid tracks on bones that exist. */
static bool clip_samplable(const anim_doc *doc, const anim_clip *clip)
{
    if (!isfinite(clip->duration_s) || !(clip->duration_s > 0.0))
        return false;
    for (uint32_t b = 0; b < doc->bone_count; b++) {
        const anim_bone *bone = &doc->bones[b];
        if (bone->parent != ANIM_NONE && bone->parent >= b)
            return false;
        anim_quat rest = anim_quat_from_array(bone->rest_rotation);
        if (!finite3(bone->rest_translation) || !finite3(bone->rest_scale) ||
            !anim_quat_is_finite(rest) || !quat_nonzero(rest))
            return false;
    }
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const anim_track *t = &clip->tracks[i];
        if (t->bone >= doc->bone_count || !anim_track_is_valid(t) || !rotation_keys_nonzero(t))
            return false;
    }
    return true;
}

/* Every sampled value finite and every rotation non-zero. */
static bool grid_usable(const anim_metric_grid *g)
{
    size_t entries = (size_t)g->frame_count * g->bone_count;
    for (size_t e = 0; e < entries; e++) {
        const anim_trs *l = &g->local[e];
        if (!anim_vec3_is_finite(l->t) || !anim_vec3_is_finite(l->s) ||
            !anim_quat_is_finite(l->r) || !quat_nonzero(l->r) ||
            !anim_vec3_is_finite(g->model_pos[e]) || !anim_quat_is_finite(g->model_rot[e]) ||
            !quat_nonzero(g->model_rot[e]))
            return false;
    }
    return true;
}

static bool vec3_within(anim_vec3 a, anim_vec3 b)
{
    return fabs(a.x - b.x) <= POSITION_TOL && fabs(a.y - b.y) <= POSITION_TOL &&
           fabs(a.z - b.z) <= POSITION_TOL;
}

static bool quat_within(anim_quat a, anim_quat b)
{
    return anim_quat_angular_delta(a, b) <= ROTATION_TOL_RAD;
}

/* Whether the trial grid matches the original at every frame and bone. */
static bool grids_match(const anim_metric_grid *a, const anim_metric_grid *b)
{
    size_t entries = (size_t)a->frame_count * a->bone_count;
    for (size_t e = 0; e < entries; e++)
        if (!vec3_within(a->local[e].t, b->local[e].t) ||
            !vec3_within(a->local[e].s, b->local[e].s) ||
            !quat_within(a->local[e].r, b->local[e].r) ||
            !vec3_within(a->model_pos[e], b->model_pos[e]) ||
            !quat_within(a->model_rot[e], b->model_rot[e]))
            return false;
    return true;
}

static bool is_protected(const anim_doc *doc, uint32_t bone, const anim_string_list *names)
{
    if (!names || bone >= doc->bone_count)
        return false;
    for (uint32_t i = 0; i < names->count; i++)
        if (names->items[i] && strcmp(names->items[i], doc->bones[bone].name) == 0)
            return true;
    return false;
}

/* The removal needs no sampling: a translation or scale track that is the
 * only one on its (bone, property) and stores exactly the rest value, and
 * either steps (it can only show its keys) or, when linear, samples to
 * exactly the rest value at every frame of the original grid. Removing it
 * leaves the rest fallback, which is the same bits. */
static bool fast_path(const anim_doc *doc, const anim_clip *clip, uint32_t i,
                      const anim_metric_grid *orig)
{
    const anim_track *t = &clip->tracks[i];
    if (t->path != ANIM_PATH_TRANSLATION && t->path != ANIM_PATH_SCALE)
        return false;
    if (t->interp != ANIM_INTERP_STEP && t->interp != ANIM_INTERP_LINEAR)
        return false;
    for (uint32_t j = 0; j < clip->track_count; j++)
        if (j != i && clip->tracks[j].bone == t->bone && clip->tracks[j].path == t->path)
            return false;
    const anim_bone *bone = &doc->bones[t->bone];
    const double *rest = t->path == ANIM_PATH_TRANSLATION ? bone->rest_translation : bone->rest_scale;
    const float rest32[3] = {(float)rest[0], (float)rest[1], (float)rest[2]};
    for (uint32_t v = 0; v < t->value_count; v++)
        if (memcmp(t->values + (size_t)v * 3u, rest32, sizeof rest32) != 0)
            return false;
    if (t->interp == ANIM_INTERP_STEP)
        return true;
    for (uint32_t f = 0; f < orig->frame_count; f++) {
        const anim_trs *l = &orig->local[anim_metric_grid_index(orig, f, t->bone)];
        const anim_vec3 *got = t->path == ANIM_PATH_TRANSLATION ? &l->t : &l->s;
        const double sampled[3] = {got->x, got->y, got->z};
        if (memcmp(sampled, rest, sizeof sampled) != 0)
            return false;
    }
    return true;
}

/* Samples the clip without track i and the tracks already removed, and
 * compares it with the original; *reason is NULL when the removal stands. */
static int try_removal(const anim_doc *doc, const anim_clip *clip, const bool *removed, uint32_t i,
                       const anim_metric_grid *orig, anim_track *scratch, const char **reason,
                       anim_error *err)
{
    anim_clip trial = *clip; /* shallow: the kept tracks are shared, not copied */
    trial.tracks = scratch;
    trial.track_count = 0;
    for (uint32_t j = 0; j < clip->track_count; j++)
        if (j != i && !removed[j])
            scratch[trial.track_count++] = clip->tracks[j];
    anim_metric_grid g;
    memset(&g, 0, sizeof g);
    if (anim_metric_grid_uniform(doc, &trial, orig->frame_count, &g, err))
        return -1;
    if (!grid_usable(&g))
        *reason = REASON_UNSAFE;
    else
        *reason = grids_match(orig, &g) ? NULL : REASON_CHANGES;
    anim_metric_grid_free(&g);
    return 0;
}

/* Decides every candidate in order (step 4 of the pruning rule). */
static int judge(const anim_doc *doc, const anim_clip *clip, const anim_string_list *protect,
                 const anim_metric_grid *orig, verdict *v, uint32_t count, bool *removed,
                 anim_track *scratch, anim_error *err)
{
    uint32_t accepted = 0;
    for (uint32_t c = 0; c < count; c++) {
        uint32_t i = v[c].track;
        if (is_protected(doc, clip->tracks[i].bone, protect))
            v[c].reason = REASON_PROTECTED;
        else if (clip->track_count <= accepted + 1u)
            v[c].reason = REASON_LAST;
        else if (fast_path(doc, clip, i, orig))
            v[c].reason = NULL;
        else if (try_removal(doc, clip, removed, i, orig, scratch, &v[c].reason, err))
            return -1;
        if (!v[c].reason) {
            removed[i] = true;
            accepted++;
        }
    }
    return 0;
}

/* Step 2 failed: every candidate stays, with the reason that fits it. */
static void retain_all(const anim_doc *doc, const anim_clip *clip, verdict *v, uint32_t count,
                       bool samplable)
{
    for (uint32_t c = 0; c < count; c++)
        v[c].reason = !samplable && clip->tracks[v[c].track].bone >= doc->bone_count
                          ? REASON_ABSENT
                          : REASON_UNSAFE;
}

static void put_line(anim_strbuf *msg, const anim_doc *doc, const anim_clip *clip,
                     const verdict *v)
{
    const anim_track *t = &clip->tracks[v->track];
    const char *bone = t->bone < doc->bone_count ? doc->bones[t->bone].name : "<invalid bone>";
    anim_strbuf_puts(msg, v->reason ? "  constant-track retained '" : "  constant-track removed '");
    anim_text_atom(msg, clip->name, strlen(clip->name));
    anim_strbuf_printf(msg, "': track index %u bone '", (unsigned)v->track);
    anim_text_atom(msg, bone, strlen(bone));
    anim_strbuf_printf(msg, "' %s %s %u key(s)", anim_path_name(t->path),
                       anim_interp_label(t->interp), (unsigned)t->key_count);
    if (v->reason) {
        anim_strbuf_puts(msg, ": ");
        anim_strbuf_puts(msg, v->reason);
    }
    anim_strbuf_putc(msg, '\n');
}

int anim_transform_prune_constant(anim_arena *arena, const anim_doc *doc, anim_clip *clip,
                                  const anim_string_list *animates_bones, anim_strbuf *msg,
                                  anim_error *err)
{
    uint32_t count = 0;
    for (uint32_t i = 0; i < clip->track_count; i++)
        count += anim_track_is_constant(&clip->tracks[i]);
    if (count == 0) {
        anim_strbuf_puts(msg, "  constant-track pruning '");
        anim_text_atom(msg, clip->name, strlen(clip->name));
        anim_strbuf_puts(msg, "': no candidate tracks\n");
        return 0;
    }
    verdict *v = anim_arena_calloc(arena, count, sizeof *v);
    bool *removed = anim_arena_calloc(arena, clip->track_count, sizeof *removed);
    anim_track *scratch = anim_arena_calloc(arena, clip->track_count, sizeof *scratch);
    if (!v || !removed || !scratch)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory pruning clip '%s'", clip->name);
    for (uint32_t i = 0, c = 0; i < clip->track_count; i++)
        if (anim_track_is_constant(&clip->tracks[i]))
            v[c++].track = i;

    anim_metric_grid orig;
    memset(&orig, 0, sizeof orig);
    bool samplable = clip_samplable(doc, clip);
    int rc = 0;
    if (!samplable)
        retain_all(doc, clip, v, count, false);
    else if (anim_metric_grid_uniform(doc, clip, anim_clip_default_frame_count(clip), &orig, err))
        rc = -1;
    else if (!grid_usable(&orig))
        retain_all(doc, clip, v, count, true);
    else
        rc = judge(doc, clip, animates_bones, &orig, v, count, removed, scratch, err);
    anim_metric_grid_free(&orig);
    if (rc)
        return -1;

    for (uint32_t c = 0; c < count; c++)
        if (!v[c].reason)
            put_line(msg, doc, clip, &v[c]);
    for (uint32_t c = 0; c < count; c++)
        if (v[c].reason)
            put_line(msg, doc, clip, &v[c]);
    /* The accepted removals happen together, after every verdict: the
     * messages name original track indices. */
    uint32_t kept = 0;
    for (uint32_t i = 0; i < clip->track_count; i++)
        if (!removed[i])
            clip->tracks[kept++] = clip->tracks[i];
    clip->track_count = kept;
    anim_clip_refresh_max_keys(clip);
    return 0;
}
