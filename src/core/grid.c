/* The metric grid: one clip sampled on a uniform time grid and taken to
 * model space, computed once and shared by every measurement and check.
 * Built track-major (each track sweeps all frames with a segment cursor,
 * later tracks overwriting earlier ones as in anim_pose_sample), then FK
 * frame by frame; the only allocations are the grid's own block and one
 * scratch array of model matrices. */
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
    memset(grid, 0, sizeof *grid);
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
             clip && clip->name ? clip->name : "", frames, doc->bone_count, *total);
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
 * every sub-array is suitably aligned). */
static int grid_alloc(const anim_doc *doc, const anim_clip *clip, anim_metric_grid *grid,
                      uint32_t frames, anim_error *err)
{
    uint32_t bones = doc->bone_count;
    size_t total;
    if (budget_check(doc, clip, frames, &total, err))
        return -1;
    size_t times_bytes = (size_t)frames * sizeof(double);
    size_t entries = (size_t)frames * bones;
    size_t local_bytes = entries * sizeof(anim_trs), pos_bytes = entries * sizeof(anim_vec3);
    unsigned char *block = malloc(total > 0 ? total : 1);
    if (!block)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory for a metric grid of %u frames x %u bones",
                              frames, bones);
    grid->block_ = block;
    grid->frame_count = frames;
    grid->bone_count = bones;
    grid->times = (double *)block;
    grid->local = (anim_trs *)(block + times_bytes);
    grid->model_pos = (anim_vec3 *)(block + times_bytes + local_bytes);
    grid->model_rot = (anim_quat *)(block + times_bytes + local_bytes + pos_bytes);
    return 0;
}

/* Fills local, model_pos and model_rot from grid->times. */
static int grid_fill(const anim_doc *doc, const anim_clip *clip, anim_metric_grid *grid, anim_error *err)
{
    uint32_t frames = grid->frame_count, nb = grid->bone_count;
    if (nb == 0)
        return 0;

    size_t scratch_bytes;
    if (!anim_size_mul(nb, sizeof(anim_mat4), &scratch_bytes))
        return anim_error_set(err, ANIM_ERR_LIMIT, "metric grid: %u bones exceed the size limit", nb);
    anim_mat4 *model = malloc(scratch_bytes);
    if (!model)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory for FK of %u bones", nb);

    /* Rest pose in frame 0, copied to the others. */
    anim_pose_rest(doc, grid->local);
    for (uint32_t f = 1; f < frames; f++)
        memcpy(&grid->local[(size_t)f * nb], grid->local, (size_t)nb * sizeof(anim_trs));

    if (clip && clip->tracks) {
        for (uint32_t i = 0; i < clip->track_count; i++) {
            const anim_track *track = &clip->tracks[i];
            if (track->bone >= nb || track->key_count == 0 || !track->times ||
                anim_track_storage(track) == ANIM_STORAGE_NONE)
                continue;
            anim_track_cursor cursor;
            anim_track_cursor_init(&cursor, track);
            anim_trs *slot = &grid->local[track->bone];
            for (uint32_t f = 0; f < frames; f++, slot += nb) {
                anim_segment seg = anim_track_segment_cursor(track, grid->times[f], &cursor);
                anim_track_sample_segment_into(track, seg, slot);
            }
        }
    }

    for (uint32_t f = 0; f < frames; f++) {
        size_t base = (size_t)f * nb;
        anim_pose_fk(doc, &grid->local[base], model, &grid->model_rot[base]);
        for (uint32_t b = 0; b < nb; b++)
            grid->model_pos[base + b] = anim_mat4_translation(&model[b]);
    }
    free(model);
    return 0;
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
                              clip->name ? clip->name : "");
    if (grid_alloc(doc, clip, grid, count, err) != 0)
        return -1;
    memcpy(grid->times, times, (size_t)count * sizeof(double));
    if (grid_fill(doc, clip, grid, err) != 0) {
        anim_metric_grid_free(grid);
        return -1;
    }
    return 0;
}

int anim_metric_grid_uniform(const anim_doc *doc, const anim_clip *clip, uint32_t frame_count,
                             anim_metric_grid *grid, anim_error *err)
{
    if (check_args(doc, clip, grid, err) != 0)
        return -1;
    if (frame_count < 2)
        return anim_error_set(err, ANIM_ERR_USAGE, "clip '%s': a uniform grid needs at least 2 frames, got %u",
                              clip->name ? clip->name : "", frame_count);
    if (grid_alloc(doc, clip, grid, frame_count, err) != 0)
        return -1;
    double d = clip->duration_s;
    double last = (double)(frame_count - 1);
    /* Multiplication first, then division (t = d·i/(N−1)). The last time is
     * stored as d itself: (d·(N−1))/(N−1) can miss d by an ulp in double,
     * and the seam pair must sit exactly at the clip's end. */
    for (uint32_t i = 0; i < frame_count; i++)
        grid->times[i] = (d * (double)i) / last;
    grid->times[frame_count - 1] = d;
    if (grid_fill(doc, clip, grid, err) != 0) {
        anim_metric_grid_free(grid);
        return -1;
    }
    return 0;
}

int anim_metric_grid_build(const anim_doc *doc, const anim_clip *clip, anim_metric_grid *grid,
                           anim_error *err)
{
    if (check_args(doc, clip, grid, err) != 0)
        return -1;
    if (!anim_clip_has_metric_grid(clip))
        return 0;
    if (anim_metric_grid_uniform(doc, clip, anim_clip_default_frame_count(clip), grid, err) != 0)
        return -1;
    return 1;
}
