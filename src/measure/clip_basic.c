/* Per-clip measurements that need no sampling and the
 * availability statuses of the sampled facts that can be decided from the
 * document, the roles and the contract alone. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/math.h"
#include "animsmith/measure.h"
#include "animsmith/measure_loop.h"
#include "animsmith/sample.h"

static int cmp_str_ptr(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_range(const void *a, const void *b)
{
    return strcmp(((const anim_rotation_range *)a)->bone_name,
                  ((const anim_rotation_range *)b)->bone_name);
}

static bool quat_usable(anim_quat q)
{
    double n = anim_quat_dot(q, q);
    return anim_quat_is_finite(q) && isfinite(n) && n > 0.0;
}

/* The rotation range of one valid rotation track: the largest angle of any
 * key from key 0, in degrees rounded to f32 (the precision the report
 * prints); -1 when key 0 is unusable. */
static double rotation_range_deg(const anim_track *t)
{
    anim_quat first = anim_quat_from_f32(anim_track_key_value(t, 0));
    if (!quat_usable(first))
        return -1.0;
    first = anim_quat_normalize(first);
    double best = 0.0;
    /* The angle is 2 acos(|dot|) (anim_quat_angle_between), and acos falls
     * with slope at least 1 in magnitude while libm's acos is within a few
     * ulps (under 1e-15) of the true value; so a key whose |dot| exceeds
     * the best key's by more than 1e-12 has a computed angle below the
     * best one, and the later scaling and f32 rounding are monotone: it
     * cannot change the result, and its acos is skipped. */
    double best_dot = 2.0; /* no best key yet: nothing is skipped */
    for (uint32_t k = 1; k < t->key_count; k++) {
        anim_quat q = anim_quat_from_f32(anim_track_key_value(t, k));
        if (!quat_usable(q))
            continue;
        anim_quat u = anim_quat_normalize(q);
        double d = fabs(anim_quat_dot(first, u));
        if (d > best_dot + 1e-12)
            continue;
        double deg = anim_quat_angle_between(first, u) * (180.0 / ANIM_PI);
        deg = (double)(float)deg;
        if (deg > best) {
            best = deg;
            best_dot = d;
        }
    }
    return best;
}

/* round-half-away-from-zero (C's round()): 2.5 frames rounds to 3 and
 * -2.5 to -3, the rule the frame counts are documented with. */
static double round_away(double v)
{
    return round(v);
}

static bool on_frame(double t, double fps)
{
    double f = t * fps;
    return isfinite(t) && isfinite(f) && anim_off_whole(f) <= ANIM_FRAME_GRID_TOLERANCE;
}

bool anim_clip_on_frame_grid(const anim_clip *clip, double fps, uint64_t *intervals_out)
{
    double d = clip->duration_s;
    if (!(isfinite(fps) && fps > 0.0 && isfinite(d) && d > 0.0))
        return false;
    double intervals = d * fps;
    if (!isfinite(intervals) || anim_off_whole(intervals) > ANIM_FRAME_GRID_TOLERANCE)
        return false;
    double r = round_away(intervals);
    if (r < 0.0 || r > 4294967295.0)
        return false;
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const anim_track *t = &clip->tracks[i];
        for (uint32_t k = 0; k < t->key_count; k++)
            if (!on_frame((double)t->times[k], fps))
                return false;
    }
    *intervals_out = (uint64_t)r;
    return true;
}

/* The declared frame grid; fills fps/intervals when measured. */
static anim_availability frame_grid(const anim_clip *clip, const anim_clip_expect *ex,
                                    double *fps_out, uint64_t *intervals_out)
{
    if (!ex->fps.set)
        return ANIM_AVAIL_NOT_APPLICABLE;
    if (!anim_clip_on_frame_grid(clip, ex->fps.value, intervals_out))
        return ANIM_AVAIL_UNAVAILABLE;
    *fps_out = ex->fps.value;
    return ANIM_AVAIL_MEASURED;
}

/* A copy of lc whose rows live in arena (the measurement outlives the
 * caller's rows). Returns 0, or -1 with err set. */
static int copy_loop(const anim_loop_continuity *src, anim_arena *arena, anim_loop_continuity *dst,
                     anim_error *err)
{
    *dst = *src;
    if (!src->bones)
        return 0;
    anim_loop_bone *rows = anim_arena_calloc(arena, src->bone_count ? src->bone_count : 1,
                                             sizeof *rows);
    if (!rows)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    memcpy(rows, src->bones, (size_t)src->bone_count * sizeof *rows);
    dst->bones = rows;
    return 0;
}

/* The facts sampled on the clip's metric grid; g is NULL
 * when the clip has none or it could not be built (size limit, out of
 * memory), which counts as no grid, as it does for lint (anim_lint_grid).
 * Facts the caller already has (facts, may be NULL) are copied instead of
 * derived again. Returns 0, or -1 with err set. */
static int measure_sampled(const anim_doc *doc, const anim_clip *clip,
                           const anim_rig_resolution *rig, const anim_config *cfg,
                           const anim_clip_expect *ex, const anim_metric_grid *g,
                           const anim_measure_clip_facts *facts, anim_arena *arena,
                           anim_clip_measurements *m, anim_error *err)
{
    static const anim_measure_clip_facts none = {NULL, NULL, NULL, NULL};
    if (!facts)
        facts = &none;
    anim_loop_continuity *lc = anim_arena_calloc(arena, 1, sizeof *lc);
    anim_loop_endpoint *le = anim_arena_calloc(arena, 1, sizeof *le);
    anim_foot_cycle *fc = anim_arena_calloc(arena, 1, sizeof *fc);
    int rc = 0;
    if (!lc || !le || !fc)
        rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    if (!rc)
        rc = facts->loop ? copy_loop(facts->loop, arena, lc, err)
                         : anim_loop_continuity_compute(doc, g, arena, lc, err);
    if (!rc) {
        if (facts->endpoint)
            *le = *facts->endpoint;
        else
            anim_loop_endpoint_mode_compute(clip, lc, cfg, ex, le);
        if (facts->foot_cycle)
            *fc = *facts->foot_cycle;
        else
            anim_foot_cycle_compute(doc, g, rig, anim_foot_cycle_min_stride(cfg), fc);
        m->loop = lc;
        m->endpoint = le;
        m->foot_cycle = fc;
        m->loop_continuity = lc->availability;
        m->loop_endpoint_mode = le->availability;
        m->loop_seam_ratio = fc->seam_ratio_availability;
        m->gait = fc->gait_availability;

        anim_root_trajectory_measure(doc, rig, g, &m->trajectory);
        m->root_trajectory = m->trajectory.availability;
        if (facts->speed)
            m->speed = *facts->speed;
        else
            anim_root_speed_measure(doc, rig, g, &m->speed);
        m->speed_mps = m->speed.availability;
    }
    return rc;
}

/* Duration, key counts and rotation ranges of one clip. scratch holds
 * doc->bone_count entries. */
static int measure_clip(const anim_doc *doc, const anim_clip *clip, anim_arena *arena,
                        unsigned *props, double *range, anim_clip_measurements *m)
{
    memset(props, 0, (size_t)doc->bone_count * sizeof *props);
    for (uint32_t b = 0; b < doc->bone_count; b++)
        range[b] = -1.0;

    m->name = clip->name;
    if (isfinite(clip->duration_s)) {
        m->duration_s = clip->duration_s;
    } else {
        double d = 0.0;
        for (uint32_t i = 0; i < clip->track_count; i++)
            for (uint32_t k = 0; k < clip->tracks[i].key_count; k++) {
                double t = (double)clip->tracks[i].times[k];
                if (isfinite(t) && t > d)
                    d = t;
            }
        m->duration_s = d;
    }

    for (uint32_t i = 0; i < clip->track_count; i++) {
        const anim_track *t = &clip->tracks[i];
        if (t->bone >= doc->bone_count || t->key_count == 0)
            continue;
        if (t->key_count > m->frame_count)
            m->frame_count = t->key_count;
        if (!anim_track_is_valid(t))
            continue;
        unsigned bit = t->path == ANIM_PATH_TRANSLATION ? ANIM_CHANNEL_TRANSLATION
                       : t->path == ANIM_PATH_ROTATION  ? ANIM_CHANNEL_ROTATION
                       : t->path == ANIM_PATH_SCALE     ? ANIM_CHANNEL_SCALE
                                                        : 0u;
        if (!bit)
            continue;
        props[t->bone] |= bit;
        if (bit == ANIM_CHANNEL_ROTATION && t->components == 4) {
            double r = rotation_range_deg(t);
            if (r > range[t->bone])
                range[t->bone] = r;
        }
    }

    uint32_t nch = 0, nrange = 0;
    for (uint32_t b = 0; b < doc->bone_count; b++) {
        nch += props[b] != 0;
        nrange += range[b] >= ANIM_MIN_RECORDED_ROTATION_DEG;
    }
    m->bone_channels = anim_arena_calloc(arena, nch ? nch : 1, sizeof *m->bone_channels);
    m->animated_bones = anim_arena_calloc(arena, nch ? nch : 1, sizeof *m->animated_bones);
    m->rotation_ranges = anim_arena_calloc(arena, nrange ? nrange : 1, sizeof *m->rotation_ranges);
    if (!m->bone_channels || !m->animated_bones || !m->rotation_ranges)
        return -1;
    for (uint32_t b = 0; b < doc->bone_count; b++) {
        if (props[b]) {
            anim_bone_channels *c = &m->bone_channels[m->bone_channel_count++];
            c->bone_index = b;
            c->bone_name = doc->bones[b].name;
            c->properties = props[b];
            m->animated_bones[m->animated_bone_count++] = doc->bones[b].name;
        }
        if (range[b] >= ANIM_MIN_RECORDED_ROTATION_DEG) {
            anim_rotation_range *r = &m->rotation_ranges[m->rotation_range_count++];
            r->bone_name = doc->bones[b].name;
            r->deg = range[b];
        }
    }

    /* Names, not indices, key these two: duplicate bone names collapse
     * (animated_bones unique; the rotation range keeps the maximum). */
    qsort(m->animated_bones, m->animated_bone_count, sizeof *m->animated_bones, cmp_str_ptr);
    uint32_t w = 0;
    for (uint32_t i = 0; i < m->animated_bone_count; i++)
        if (w == 0 || strcmp(m->animated_bones[w - 1], m->animated_bones[i]) != 0)
            m->animated_bones[w++] = m->animated_bones[i];
    m->animated_bone_count = w;

    qsort(m->rotation_ranges, m->rotation_range_count, sizeof *m->rotation_ranges, cmp_range);
    w = 0;
    for (uint32_t i = 0; i < m->rotation_range_count; i++) {
        if (w > 0 && strcmp(m->rotation_ranges[w - 1].bone_name,
                            m->rotation_ranges[i].bone_name) == 0) {
            if (m->rotation_ranges[i].deg > m->rotation_ranges[w - 1].deg)
                m->rotation_ranges[w - 1].deg = m->rotation_ranges[i].deg;
        } else {
            m->rotation_ranges[w++] = m->rotation_ranges[i];
        }
    }
    m->rotation_range_count = w;
    return 0;
}

/* Stable merge sort of clip indices by name (byte-wise), so that among
 * equal names the source order survives and the later clip can win (one
 * row per name, the last clip of that name). */
static void sort_by_name(uint32_t *idx, uint32_t *tmp, uint32_t n, const anim_doc *doc)
{
    if (n < 2)
        return;
    uint32_t h = n / 2;
    sort_by_name(idx, tmp, h, doc);
    sort_by_name(idx + h, tmp, n - h, doc);
    uint32_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = strcmp(doc->clips[idx[j]].name, doc->clips[idx[i]].name) < 0 ? idx[j++]
                                                                                : idx[i++];
    while (i < h)
        tmp[k++] = idx[i++];
    while (j < n)
        tmp[k++] = idx[j++];
    memcpy(idx, tmp, (size_t)n * sizeof *idx);
}

/* A collector's per-bone scratch, in its arena: one per thread feeding
 * clips, since measure_clip overwrites it for every clip. */
static void alloc_scratch(anim_measure_collector *mc)
{
    uint32_t nb = mc->doc->bone_count ? mc->doc->bone_count : 1;
    mc->props_ = anim_arena_calloc(mc->arena, nb, sizeof *mc->props_);
    mc->range_ = anim_arena_calloc(mc->arena, nb, sizeof *mc->range_);
}

int anim_measure_begin(const anim_doc *doc, anim_arena *arena, anim_measure_collector *mc,
                       anim_measurements *out, anim_error *err)
{
    memset(mc, 0, sizeof *mc);
    memset(out, 0, sizeof *out);
    out->default_scene = ANIM_NONE;
    if (!doc || !arena)
        return anim_error_set(err, ANIM_ERR_USAGE, "anim_measure_document: missing argument");
    uint32_t nc = doc->clip_count ? doc->clip_count : 1;
    mc->doc = doc;
    mc->arena = arena;
    mc->out = out;
    alloc_scratch(mc);
    mc->row_of = anim_arena_calloc(arena, nc, sizeof *mc->row_of);
    anim_clip_measurements *clips = anim_arena_calloc(arena, nc, sizeof *clips);
    uint32_t *idx = calloc(nc, sizeof *idx);
    uint32_t *tmp = calloc(nc, sizeof *tmp);
    if (!mc->props_ || !mc->range_ || !mc->row_of || !clips || !idx || !tmp) {
        free(idx);
        free(tmp);
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    for (uint32_t c = 0; c < doc->clip_count; c++) {
        idx[c] = c;
        mc->row_of[c] = ANIM_NONE;
    }
    sort_by_name(idx, tmp, doc->clip_count, doc);
    /* Keep the last clip of each run of equal names. */
    uint32_t w = 0;
    for (uint32_t i = 0; i < doc->clip_count; i++) {
        if (w > 0 && strcmp(doc->clips[idx[w - 1]].name, doc->clips[idx[i]].name) == 0)
            idx[w - 1] = idx[i];
        else
            idx[w++] = idx[i];
    }
    for (uint32_t i = 0; i < w; i++)
        mc->row_of[idx[i]] = i;
    free(idx);
    free(tmp);
    out->clips = clips;
    out->clip_count = w;

    out->has_mesh_domain = doc->mesh_count == 0;
    out->scene_count = doc->scene_count;
    out->default_scene = doc->default_scene;
    if (doc->scene_count) {
        out->scene_names = anim_arena_calloc(arena, doc->scene_count, sizeof *out->scene_names);
        if (!out->scene_names)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        for (uint32_t s = 0; s < doc->scene_count; s++)
            out->scene_names[s] = doc->scenes[s].name;
    }
    return 0;
}

int anim_measure_fork(const anim_measure_collector *parent, anim_arena *arena,
                      anim_measure_collector *child, anim_error *err)
{
    memset(child, 0, sizeof *child);
    if (!parent->doc || !arena)
        return anim_error_set(err, ANIM_ERR_USAGE, "anim_measure_fork: missing argument");
    /* The same rows (each clip writes only its own) and row map, read
     * only once begun; the arena and scratch are the child's. */
    *child = *parent;
    child->arena = arena;
    alloc_scratch(child);
    if (!child->props_ || !child->range_)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    return 0;
}

bool anim_measure_wants_clip(const anim_measure_collector *mc, uint32_t clip)
{
    return mc->doc && clip < mc->doc->clip_count && mc->row_of[clip] != ANIM_NONE;
}

int anim_measure_clip(anim_measure_collector *mc, uint32_t clip, const anim_rig_resolution *rig,
                      const anim_config *cfg, const anim_metric_grid *grid, anim_error *err)
{
    return anim_measure_clip_with(mc, clip, rig, cfg, grid, NULL, err);
}

int anim_measure_clip_with(anim_measure_collector *mc, uint32_t clip,
                           const anim_rig_resolution *rig, const anim_config *cfg,
                           const anim_metric_grid *grid, const anim_measure_clip_facts *facts,
                           anim_error *err)
{
    if (!anim_measure_wants_clip(mc, clip))
        return 0;
    const anim_doc *doc = mc->doc;
    const anim_clip *c = &doc->clips[clip];
    anim_clip_measurements *m = &mc->out->clips[mc->row_of[clip]];
    memset(m, 0, sizeof *m);
    if (measure_clip(doc, c, mc->arena, mc->props_, mc->range_, m))
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    anim_clip_expect ex;
    memset(&ex, 0, sizeof ex);
    if (cfg)
        anim_config_clip_expect(cfg, c->name, &ex);
    m->frame_grid = frame_grid(c, &ex, &m->frame_grid_fps, &m->frame_grid_intervals);
    return measure_sampled(doc, c, rig, cfg, &ex, grid, facts, mc->arena, m, err);
}

int anim_measure_end(anim_measure_collector *mc, const anim_asset *asset, anim_error *err)
{
    if (!asset)
        return 0;
    anim_asset_measurements *am = anim_arena_calloc(mc->arena, 1, sizeof *am);
    if (!am)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    if (anim_measure_asset(asset, mc->arena, am, err))
        return -1;
    mc->out->asset = am;
    return 0;
}

/* Clip by clip, each grid built, measured and released before the next. */
static int measure_document(const anim_doc *doc, const anim_asset *asset,
                            const anim_rig_resolution *rig, const anim_config *cfg,
                            anim_arena *arena, anim_measurements *out, anim_error *err)
{
    anim_measure_collector mc;
    if (anim_measure_begin(doc, arena, &mc, out, err))
        return -1;
    anim_grid_memory kept = {NULL, 0}; /* one clip's grid pages serve the next */
    int rc = 0;
    for (uint32_t c = 0; rc == 0 && c < doc->clip_count; c++) {
        if (!anim_measure_wants_clip(&mc, c))
            continue;
        anim_metric_grid grid;
        memset(&grid, 0, sizeof grid);
        anim_error gerr;
        anim_error_clear(&gerr);
        int built = anim_metric_grid_prepare_reusing(doc, &doc->clips[c], &grid, &kept, &gerr);
        rc = anim_measure_clip(&mc, c, rig, cfg, built == 1 ? &grid : NULL, err);
        anim_metric_grid_recycle(&grid, &kept);
    }
    anim_grid_memory_free(&kept);
    return rc ? -1 : anim_measure_end(&mc, asset, err);
}

int anim_measure_document(const anim_doc *doc, const anim_rig_resolution *rig,
                          const anim_config *cfg, anim_arena *arena, anim_measurements *out,
                          anim_error *err)
{
    return measure_document(doc, NULL, rig, cfg, arena, out, err);
}

int anim_measure_asset_document(const anim_asset *asset, const anim_rig_resolution *rig,
                                const anim_config *cfg, anim_arena *arena,
                                anim_measurements *out, anim_error *err)
{
    if (!asset)
        return anim_error_set(err, ANIM_ERR_USAGE, "anim_measure_asset_document: missing asset");
    return measure_document(&asset->doc, asset, rig, cfg, arena, out, err);
}

/* ---- measurements-v18 JSON (the documented field order of the clip
 * record and of the static asset fields) ---- */

static int finite_or_fail(double v, const char *clip, const char *field, anim_error *err)
{
    if (isfinite(v))
        return 0;
    return anim_error_set(err, ANIM_ERR_INVALID,
                          "measurement value clips[\"%s\"].%s must be finite", clip, field);
}

static void write_availability(anim_json_writer *w, const char *key, anim_availability a)
{
    const char *name = anim_availability_name(a);
    if (!name)
        return; /* undecided by this build: the pair is left out */
    anim_json_writer_key(w, key);
    anim_json_writer_string(w, name);
}

static int write_clip(const anim_clip_measurements *m, anim_json_writer *w, anim_error *err)
{
    static const char *const prop_names[] = {"translation", "rotation", "scale"};
    if (finite_or_fail(m->duration_s, m->name, "duration_s", err))
        return -1;
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "duration_s");
    anim_json_writer_f64(w, m->duration_s);
    anim_json_writer_key(w, "frame_count");
    anim_json_writer_uint(w, m->frame_count);
    anim_json_writer_key(w, "animated_bones");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < m->animated_bone_count; i++)
        anim_json_writer_string(w, m->animated_bones[i]);
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "bone_channels");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < m->bone_channel_count; i++) {
        const anim_bone_channels *c = &m->bone_channels[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "bone_index");
        anim_json_writer_uint(w, c->bone_index);
        anim_json_writer_key(w, "bone_name");
        anim_json_writer_string(w, c->bone_name);
        anim_json_writer_key(w, "properties");
        anim_json_writer_begin_array(w);
        for (unsigned p = 0; p < 3; p++)
            if (c->properties & (1u << p))
                anim_json_writer_string(w, prop_names[p]);
        anim_json_writer_end_array(w);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "bone_rotation_range_deg");
    anim_json_writer_begin_object(w);
    for (uint32_t i = 0; i < m->rotation_range_count; i++) {
        if (finite_or_fail(m->rotation_ranges[i].deg, m->name, "bone_rotation_range_deg", err))
            return -1;
        anim_json_writer_key(w, m->rotation_ranges[i].bone_name);
        anim_json_writer_f64(w, m->rotation_ranges[i].deg);
    }
    anim_json_writer_end_object(w);

    /* A record built by hand without the sampled facts (m->loop etc.
     * NULL) writes just the statuses it has. */
    if (m->loop) {
        if (anim_loop_continuity_write_json(m->loop, m->name, w, err))
            return -1;
    } else {
        write_availability(w, "loop_continuity_availability", m->loop_continuity);
    }
    if (m->endpoint)
        anim_loop_endpoint_mode_write_json(m->endpoint, w);
    else
        write_availability(w, "loop_endpoint_mode_availability", m->loop_endpoint_mode);
    if (m->frame_grid == ANIM_AVAIL_MEASURED) {
        if (finite_or_fail(m->frame_grid_fps, m->name, "frame_grid.fps", err))
            return -1;
        if (m->frame_grid_intervals < 1)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "measurement structure clips[\"%s\"].frame_grid is invalid: "
                                  "frame_intervals must be at least 1",
                                  m->name);
        anim_json_writer_key(w, "frame_grid");
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "fps");
        anim_json_writer_f64(w, m->frame_grid_fps);
        anim_json_writer_key(w, "frame_intervals");
        anim_json_writer_uint(w, m->frame_grid_intervals);
        anim_json_writer_end_object(w);
    }
    write_availability(w, "frame_grid_availability", m->frame_grid);
    if (m->foot_cycle) {
        if (anim_loop_seam_ratio_write_json(m->foot_cycle, m->name, w, err) ||
            anim_gait_write_json(m->foot_cycle, m->name, w, err))
            return -1;
    } else {
        write_availability(w, "loop_seam_ratio_availability", m->loop_seam_ratio);
        write_availability(w, "gait_availability", m->gait);
    }
    if (anim_root_trajectory_write_json(&m->trajectory, m->name, w, err) ||
        anim_root_speed_write_json(&m->speed, m->name, w, err))
        return -1;
    anim_json_writer_end_object(w);
    return 0;
}

static void empty_array(anim_json_writer *w, const char *key)
{
    anim_json_writer_key(w, key);
    anim_json_writer_begin_array(w);
    anim_json_writer_end_array(w);
}

int anim_measurements_write_json(const anim_measurements *m, anim_json_writer *w,
                                 anim_error *err)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "schema_version");
    anim_json_writer_uint(w, ANIM_MEASUREMENTS_SCHEMA_VERSION);
    anim_json_writer_key(w, "schema");
    anim_json_writer_string(w, ANIM_MEASUREMENTS_SCHEMA);
    anim_json_writer_key(w, "clips");
    anim_json_writer_begin_object(w);
    for (uint32_t i = 0; i < m->clip_count; i++) {
        anim_json_writer_key(w, m->clips[i].name);
        if (write_clip(&m->clips[i], w, err))
            return -1;
    }
    anim_json_writer_end_object(w);

    if (m->asset) {
        if (anim_asset_measurements_write_json(m->asset, w, err))
            return -1;
        anim_json_writer_end_object(w);
        return 0;
    }
    if (m->has_mesh_domain) {
        /* No mesh in the document: no definitions, no mesh-bearing nodes,
         * and every declared scene counts zero instances. */
        empty_array(w, "mesh_definitions");
        empty_array(w, "node_instances");
        anim_json_writer_key(w, "scenes");
        anim_json_writer_begin_array(w);
        for (uint32_t s = 0; s < m->scene_count; s++) {
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "scene_index");
            anim_json_writer_uint(w, s);
            if (m->scene_names && m->scene_names[s]) {
                anim_json_writer_key(w, "name");
                anim_json_writer_string(w, m->scene_names[s]);
            }
            anim_json_writer_key(w, "instance_count");
            anim_json_writer_uint(w, 0);
            anim_json_writer_key(w, "excluded_instance_count");
            anim_json_writer_uint(w, 0);
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
        if (m->default_scene != ANIM_NONE) {
            anim_json_writer_key(w, "default_scene_index");
            anim_json_writer_uint(w, m->default_scene);
        }
    }
    /* "unavailable" coverage keeps these tables empty: no table is ever
     * half-filled. */
    anim_json_writer_key(w, "skeleton_source_coverage");
    anim_json_writer_string(w, "unavailable");
    empty_array(w, "skeleton_nodes");
    empty_array(w, "skins");
    anim_json_writer_key(w, "material_resource_coverage");
    anim_json_writer_string(w, "unavailable");
    empty_array(w, "material_definitions");
    empty_array(w, "textures");
    empty_array(w, "images");
    anim_json_writer_end_object(w);
    return 0;
}
