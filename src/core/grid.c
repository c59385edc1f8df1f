/* The metric grid: one clip sampled on a uniform time grid and taken to
 * model space, computed once and shared by every measurement and check.
 * Filled frame by frame, either all at once (anim_metric_grid_build) or
 * lazily, only the entries its readers ask for (anim_metric_grid_prepare):
 * the seam frames of loop continuity read every bone, the foot, hips and
 * root readers every frame of a few bones, and nothing else is read.
 * Allocations: the grid's own block and one block of per-bone and
 * per-track state (scratch model matrices, segment cursors). */
#include "animsmith/sample.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t anim_clip_default_frame_count(const anim_clip *clip)
{
    uint32_t n = 2;
    if (!clip || !clip->tracks)
        return n;
    /* Every TRS track counts, valid or not. */
    for (uint32_t i = 0; i < clip->track_count; i++) {
        if (clip->tracks[i].key_count > n)
            n = clip->tracks[i].key_count;
    }
    return n;
}

bool anim_clip_has_metric_grid(const anim_clip *clip)
{
    if (!clip)
        return false;
    double d = clip->duration_s;
    return isfinite(d) && d > 0.0 && anim_clip_default_frame_count(clip) >= 3;
}

void anim_metric_grid_free(anim_metric_grid *grid)
{
    if (!grid)
        return;
    free(grid->block_);
    free(grid->lazy_);
    memset(grid, 0, sizeof *grid);
}

void anim_metric_grid_recycle(anim_metric_grid *grid, anim_grid_memory *mem)
{
    if (!grid)
        return;
    if (mem && grid->block_ && grid->block_bytes_ > mem->bytes) {
        free(mem->block);
        mem->block = grid->block_;
        mem->bytes = grid->block_bytes_;
        grid->block_ = NULL;
    }
    anim_metric_grid_free(grid);
}

void anim_grid_memory_free(anim_grid_memory *mem)
{
    if (!mem)
        return;
    free(mem->block);
    mem->block = NULL;
    mem->bytes = 0;
}

bool anim_metric_grid_bytes(uint32_t frames, uint32_t bones, size_t *bytes)
{
    size_t entries, times_bytes, local_bytes, pos_bytes, rot_bytes, total;
    bool ok = anim_size_mul(frames, bones, &entries) &&
              anim_size_mul(frames, sizeof(double), &times_bytes) &&
              anim_size_mul(entries, sizeof(anim_trs), &local_bytes) &&
              anim_size_mul(entries, sizeof(anim_vec3), &pos_bytes) &&
              anim_size_mul(entries, sizeof(anim_quat), &rot_bytes) &&
              anim_size_add(times_bytes, local_bytes, &total) && anim_size_add(total, pos_bytes, &total) &&
              anim_size_add(total, rot_bytes, &total);
    *bytes = ok ? total : SIZE_MAX;
    return ok;
}

/* The grid's size, refused (naming the clip and the budget) when it does
 * not fit the document's metric-grid budget. */
static int budget_check(const anim_doc *doc, const anim_clip *clip, uint32_t frames,
                        size_t *total, anim_error *err)
{
    if (anim_metric_grid_bytes(frames, doc->bone_count, total) &&
        *total <= anim_limits_get(&doc->limits, ANIM_LIMIT_GRID))
        return 0;
    char what[ANIM_ERROR_MESSAGE_MAX / 2];
    snprintf(what, sizeof what, "clip '%.200s': a metric grid of %u frames x %u bones needs %zu bytes",
             anim_clip_message_name(clip), frames, doc->bone_count, *total);
    return anim_limit_error(err, &doc->limits, ANIM_LIMIT_GRID, what);
}

int anim_metric_grid_check_budget(const anim_doc *doc, const anim_clip *clip, anim_error *err)
{
    size_t total;
    if (!anim_clip_has_metric_grid(clip))
        return 0;
    return budget_check(doc, clip, anim_clip_default_frame_count(clip), &total, err);
}

/* One block: times, local, model_pos, model_rot (all arrays of doubles, so
 * every sub-array is suitably aligned). Left untouched here: the lazy
 * fill writes only the entries that are asked for, so the pages of an
 * unread region are never faulted in. */
static int grid_alloc(const anim_doc *doc, const anim_clip *clip, anim_metric_grid *grid,
                      uint32_t frames, anim_grid_memory *mem, anim_error *err)
{
    uint32_t bones = doc->bone_count;
    size_t total;
    if (budget_check(doc, clip, frames, &total, err))
        return -1;
    size_t times_bytes = (size_t)frames * sizeof(double);
    size_t entries = (size_t)frames * bones;
    size_t local_bytes = entries * sizeof(anim_trs), pos_bytes = entries * sizeof(anim_vec3);
    size_t bytes = total > 0 ? total : 1;
    unsigned char *block;
    if (mem && mem->block && mem->bytes >= bytes) {
        block = mem->block; /* every entry is written before it is read */
        bytes = mem->bytes;
        mem->block = NULL;
        mem->bytes = 0;
    } else {
        anim_grid_memory_free(mem); /* too small: never hold two blocks */
        block = malloc(bytes);
    }
    if (!block)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory for a metric grid of %u frames x %u bones",
                              frames, bones);
    grid->block_ = block;
    grid->block_bytes_ = bytes;
    grid->frame_count = frames;
    grid->bone_count = bones;
    grid->times = (double *)block;
    grid->local = (anim_trs *)(block + times_bytes);
    grid->model_pos = (anim_vec3 *)(block + times_bytes + local_bytes);
    grid->model_rot = (anim_quat *)(block + times_bytes + local_bytes + pos_bytes);
    return 0;
}

/* ---- lazy fill ----
 *
 * Readers ask for what they read (anim_metric_grid_need_bones /
 * _need_frames) and only those entries, plus the ancestors their FK
 * needs, are sampled. Every entry is computed exactly as a full fill
 * computes it: the bone's rest TRS overwritten by its tracks in clip
 * order (tracks of other bones never touch it), T·R·S model matrices
 * composed down the parent chain with anim_mat4_mul, model rotations
 * composed without scale. Entries are filled frame by frame; a filled
 * entry is never sampled again (a later pass only composes its model
 * matrix again when a child needs it).
 *
 * FK stays on 4x4 matrices: composing rotation quaternions plus positions
 * is about twice as fast per bone but rounds differently, and the model
 * translations it gives differ in the last bits (bench/bench_grid), which
 * the shortest round-trip report would print. */
typedef struct grid_lazy {
    const anim_doc *doc;
    const anim_clip *clip;
    anim_mat4 *model;            /* one frame's model matrices (scratch, nb) */
    anim_track_cursor *cursor;   /* one per entry of track_index */
    uint32_t *track_start;       /* nb + 1: bone b's tracks are [start[b], start[b+1]) */
    uint32_t *track_index;       /* the applied tracks, bone by bone, clip order within */
    uint32_t *order;             /* scratch: the bones of one pass, ascending */
    unsigned char *bone_done;    /* nb: every frame of the bone is filled */
    unsigned char *frame_done;   /* frames: every bone of the frame is filled */
    unsigned char *want;         /* nb scratch */
    uint32_t frames_left;        /* frames not yet frame_done */
    uint64_t filled;             /* entries computed so far */
} grid_lazy;

/* The tracks a full fill applies: in-range bone, keys with times, pose
 * storage (the rest are no-ops of anim_track_sample_segment_into). */
static bool track_applies(const anim_track *track, uint32_t nb)
{
    return track->bone < nb && track->key_count > 0 && track->times &&
           anim_track_storage(track) != ANIM_STORAGE_NONE;
}

static uint32_t applied_track_count(const anim_clip *clip, uint32_t nb)
{
    uint32_t n = 0;
    if (clip->tracks)
        for (uint32_t i = 0; i < clip->track_count; i++)
            n += track_applies(&clip->tracks[i], nb);
    return n;
}

/* The parent FK composes with, as anim_pose_fk decides it. */
static uint32_t fk_parent(const anim_doc *doc, uint32_t b)
{
    uint32_t p = doc->bones[b].parent;
    return p != ANIM_NONE && p < b ? p : ANIM_NONE;
}

/* Byte layout of the lazy state: doubles first, then 4-byte, then 1-byte
 * arrays, so every array is aligned. */
typedef struct lazy_layout {
    size_t model, cursor, start, index, order, bone_done, frame_done, want, total;
} lazy_layout;

static bool lazy_place(size_t *at, size_t count, size_t size, size_t *offset)
{
    size_t bytes;
    *offset = *at;
    return anim_size_mul(count, size, &bytes) && anim_size_add(*at, bytes, at);
}

static bool lazy_plan(uint32_t nb, uint32_t tracks, uint32_t frames, lazy_layout *l)
{
    size_t at = sizeof(grid_lazy);
    at = (at + sizeof(double) - 1) / sizeof(double) * sizeof(double);
    bool ok = lazy_place(&at, nb, sizeof(anim_mat4), &l->model) &&
              lazy_place(&at, tracks, sizeof(anim_track_cursor), &l->cursor) &&
              lazy_place(&at, (size_t)nb + 1, sizeof(uint32_t), &l->start) &&
              lazy_place(&at, tracks, sizeof(uint32_t), &l->index) &&
              lazy_place(&at, nb, sizeof(uint32_t), &l->order) &&
              lazy_place(&at, nb, 1, &l->bone_done) && lazy_place(&at, frames, 1, &l->frame_done) &&
              lazy_place(&at, nb, 1, &l->want);
    l->total = at;
    return ok;
}

static void lazy_index_tracks(grid_lazy *lz, uint32_t nb)
{
    const anim_clip *clip = lz->clip;
    uint32_t *start = lz->track_start;
    memset(start, 0, ((size_t)nb + 1) * sizeof *start);
    if (!clip->tracks)
        return;
    /* Counting sort by bone, stable, so each bone keeps clip order. */
    for (uint32_t i = 0; i < clip->track_count; i++)
        if (track_applies(&clip->tracks[i], nb))
            start[clip->tracks[i].bone + 1]++;
    for (uint32_t b = 0; b < nb; b++)
        start[b + 1] += start[b];
    for (uint32_t b = 0; b < nb; b++)
        lz->order[b] = start[b]; /* next free slot of bone b */
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const anim_track *track = &clip->tracks[i];
        if (!track_applies(track, nb))
            continue;
        uint32_t j = lz->order[track->bone]++;
        lz->track_index[j] = i;
        anim_track_cursor_init(&lz->cursor[j], track);
    }
}

static int lazy_init(const anim_doc *doc, const anim_clip *clip, anim_metric_grid *grid,
                     anim_error *err)
{
    uint32_t nb = grid->bone_count, frames = grid->frame_count;
    uint32_t tracks = applied_track_count(clip, nb);
    lazy_layout l;
    if (!lazy_plan(nb, tracks, frames, &l))
        return anim_error_set(err, ANIM_ERR_LIMIT, "metric grid: %u bones exceed the size limit", nb);
    unsigned char *block = malloc(l.total);
    if (!block)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory for FK of %u bones", nb);
    grid_lazy *lz = (grid_lazy *)block;
    lz->doc = doc;
    lz->clip = clip;
    lz->model = (anim_mat4 *)(block + l.model);
    lz->cursor = (anim_track_cursor *)(block + l.cursor);
    lz->track_start = (uint32_t *)(block + l.start);
    lz->track_index = (uint32_t *)(block + l.index);
    lz->order = (uint32_t *)(block + l.order);
    lz->bone_done = block + l.bone_done;
    lz->frame_done = block + l.frame_done;
    lz->want = block + l.want;
    memset(lz->bone_done, 0, nb);
    memset(lz->frame_done, 0, frames);
    memset(lz->want, 0, nb);
    lz->frames_left = frames;
    lz->filled = 0;
    lazy_index_tracks(lz, nb);
    grid->lazy_ = lz;
    return 0;
}

/* Bone b of frame f: local, model position and model rotation, with the
 * parent's model matrix of the same frame already in lz->model. An entry
 * filled before (its bone or frame done) is not sampled again: only its
 * model matrix, which children need and which is not kept, is composed
 * again from the stored local TRS, giving the same bits. */
static void fill_entry(const anim_metric_grid *grid, grid_lazy *lz, uint32_t f, uint32_t b)
{
    const anim_doc *doc = lz->doc;
    size_t at = (size_t)f * grid->bone_count + b;
    bool filled = lz->bone_done[b] || lz->frame_done[f];
    uint32_t p = fk_parent(doc, b);
    if (filled) {
        const anim_trs *trs = &grid->local[at];
        anim_mat4 m = anim_mat4_from_trs(trs->t, trs->r, trs->s);
        lz->model[b] = p != ANIM_NONE ? anim_mat4_mul(&lz->model[p], &m) : m;
        return;
    }
    double t = grid->times[f];
    anim_trs trs = anim_trs_from_rest(&doc->bones[b]);
    for (uint32_t j = lz->track_start[b]; j < lz->track_start[b + 1]; j++) {
        const anim_track *track = &lz->clip->tracks[lz->track_index[j]];
        anim_segment seg = anim_track_segment_cursor(track, t, &lz->cursor[j]);
        anim_track_sample_segment_into(track, seg, &trs);
    }
    grid->local[at] = trs;
    anim_mat4 m = anim_mat4_from_trs(trs.t, trs.r, trs.s);
    lz->model[b] = p != ANIM_NONE ? anim_mat4_mul(&lz->model[p], &m) : m;
    size_t parent_at = (size_t)f * grid->bone_count + p;
    grid->model_rot[at] = p != ANIM_NONE ? anim_quat_mul(grid->model_rot[parent_at], trs.r) : trs.r;
    grid->model_pos[at] = anim_mat4_translation(&lz->model[b]);
    lz->filled++;
}

static void lazy_release(anim_metric_grid *grid)
{
    free(grid->lazy_);
    grid->lazy_ = NULL;
}

void anim_metric_grid_need_frames(const anim_metric_grid *grid, const uint32_t *frames, uint32_t count)
{
    grid_lazy *lz = grid ? grid->lazy_ : NULL;
    if (!lz || !frames)
        return;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t f = frames[i];
        if (f >= grid->frame_count || lz->frame_done[f])
            continue;
        for (uint32_t b = 0; b < grid->bone_count; b++)
            fill_entry(grid, lz, f, b);
        lz->frame_done[f] = 1;
        lz->frames_left--;
    }
}

void anim_metric_grid_need_bones(const anim_metric_grid *grid, const uint32_t *bones, uint32_t count)
{
    grid_lazy *lz = grid ? grid->lazy_ : NULL;
    if (!lz || !bones || lz->frames_left == 0)
        return;
    uint32_t nb = grid->bone_count;
    bool any = false;
    /* The asked bones and every ancestor: FK of a bone needs its parent's
     * model matrix of the same frame, which is not kept between passes. */
    for (uint32_t i = 0; i < count; i++) {
        uint32_t b = bones[i];
        if (b >= nb || lz->bone_done[b])
            continue;
        any = true;
        for (uint32_t x = b; x != ANIM_NONE && !lz->want[x]; x = fk_parent(lz->doc, x))
            lz->want[x] = 1;
    }
    if (!any)
        return;
    uint32_t n = 0;
    for (uint32_t b = 0; b < nb; b++)
        if (lz->want[b])
            lz->order[n++] = b; /* ascending: parents before children */
    for (uint32_t f = 0; f < grid->frame_count; f++) {
        if (lz->frame_done[f])
            continue;
        for (uint32_t i = 0; i < n; i++)
            fill_entry(grid, lz, f, lz->order[i]);
    }
    for (uint32_t i = 0; i < n; i++) {
        lz->bone_done[lz->order[i]] = 1;
        lz->want[lz->order[i]] = 0;
    }
}

uint64_t anim_metric_grid_filled_entries(const anim_metric_grid *grid)
{
    if (!grid)
        return 0;
    const grid_lazy *lz = grid->lazy_;
    return lz ? lz->filled : (uint64_t)grid->frame_count * grid->bone_count;
}

/* Every entry now; the lazy state is no longer needed. */
static void fill_all(anim_metric_grid *grid)
{
    for (uint32_t f = 0; f < grid->frame_count; f++)
        anim_metric_grid_need_frames(grid, &f, 1);
    lazy_release(grid);
}

static int check_args(const anim_doc *doc, const anim_clip *clip, anim_metric_grid *grid, anim_error *err)
{
    if (!grid)
        return anim_error_set(err, ANIM_ERR_USAGE, "metric grid: no output grid given");
    memset(grid, 0, sizeof *grid);
    if (!doc || !clip || (doc->bone_count > 0 && !doc->bones))
        return anim_error_set(err, ANIM_ERR_USAGE, "metric grid: no document or clip given");
    return 0;
}

int anim_metric_grid_at_times(const anim_doc *doc, const anim_clip *clip, const double *times,
                              uint32_t count, anim_metric_grid *grid, anim_error *err)
{
    if (check_args(doc, clip, grid, err) != 0)
        return -1;
    if (count == 0 || !times)
        return anim_error_set(err, ANIM_ERR_USAGE, "clip '%s': metric grid needs at least one sample time",
                              anim_clip_message_name(clip));
    if (grid_alloc(doc, clip, grid, count, NULL, err) != 0)
        return -1;
    memcpy(grid->times, times, (size_t)count * sizeof(double));
    if (lazy_init(doc, clip, grid, err) != 0) {
        anim_metric_grid_free(grid);
        return -1;
    }
    fill_all(grid);
    return 0;
}

/* A uniform grid with nothing filled yet. */
static int uniform_unfilled(const anim_doc *doc, const anim_clip *clip, uint32_t frame_count,
                            anim_metric_grid *grid, anim_grid_memory *mem, anim_error *err)
{
    if (check_args(doc, clip, grid, err) != 0)
        return -1;
    if (frame_count < 2)
        return anim_error_set(err, ANIM_ERR_USAGE, "clip '%s': a uniform grid needs at least 2 frames, got %u",
                              clip->name ? clip->name : "", frame_count);
    if (grid_alloc(doc, clip, grid, frame_count, mem, err) != 0)
        return -1;
    double d = clip->duration_s;
    double last = (double)(frame_count - 1);
    /* Multiplication first, then division (t = d·i/(N−1)). The last time is
     * stored as d itself: (d·(N−1))/(N−1) can miss d by an ulp in double,
     * and the seam pair must sit exactly at the clip's end. */
    for (uint32_t i = 0; i < frame_count; i++)
        grid->times[i] = (d * (double)i) / last;
    grid->times[frame_count - 1] = d;
    if (lazy_init(doc, clip, grid, err) != 0) {
        anim_metric_grid_free(grid);
        return -1;
    }
    return 0;
}

int anim_metric_grid_uniform(const anim_doc *doc, const anim_clip *clip, uint32_t frame_count,
                             anim_metric_grid *grid, anim_error *err)
{
    if (uniform_unfilled(doc, clip, frame_count, grid, NULL, err) != 0)
        return -1;
    fill_all(grid);
    return 0;
}

int anim_metric_grid_prepare_reusing(const anim_doc *doc, const anim_clip *clip,
                                     anim_metric_grid *grid, anim_grid_memory *mem,
                                     anim_error *err)
{
    if (check_args(doc, clip, grid, err) != 0)
        return -1;
    if (!anim_clip_has_metric_grid(clip))
        return 0;
    if (uniform_unfilled(doc, clip, anim_clip_default_frame_count(clip), grid, mem, err) != 0)
        return -1;
    return 1;
}

int anim_metric_grid_prepare(const anim_doc *doc, const anim_clip *clip, anim_metric_grid *grid,
                             anim_error *err)
{
    return anim_metric_grid_prepare_reusing(doc, clip, grid, NULL, err);
}

int anim_metric_grid_build(const anim_doc *doc, const anim_clip *clip, anim_metric_grid *grid,
                           anim_error *err)
{
    int rc = anim_metric_grid_prepare(doc, clip, grid, err);
    if (rc == 1)
        fill_all(grid);
    return rc;
}
