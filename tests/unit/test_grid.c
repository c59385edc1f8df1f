/* The metric grid: frame count, existence, times, contents, the prepared
 * grid that fills only what its readers ask for (bit for bit what the full
 * grid holds), and the walk-dirty worked numbers of docs/fixtures.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "animsmith/doc.h"
#include "animsmith/error.h"
#include "animsmith/math.h"
#include "animsmith/sample.h"
#include "support/test_support.h"

static void assert_near(double a, double b, double eps)
{
    if (!(fabs(a - b) <= eps)) {
        print_error("%.17g != %.17g (eps %g)\n", a, b, eps);
        fail();
    }
}

static anim_bone make_bone(const char *name, uint32_t parent, double tx, double ty, double tz)
{
    anim_bone b;
    memset(&b, 0, sizeof b);
    b.name = name;
    b.has_name = true;
    b.parent = parent;
    b.rest_translation[0] = tx;
    b.rest_translation[1] = ty;
    b.rest_translation[2] = tz;
    b.rest_rotation[3] = 1;
    b.rest_scale[0] = b.rest_scale[1] = b.rest_scale[2] = 1;
    b.mesh = b.skin = ANIM_NONE;
    return b;
}

static anim_track make_track(anim_path path, anim_interp interp, uint32_t bone, const float *times,
                             uint32_t keys, const float *values, uint32_t elements)
{
    anim_track t = test_support_track(path, interp, times, keys, values, elements);
    t.bone = bone;
    return t;
}

/* Five keys of rotation (turning by angle per key about (1, k, 2)),
 * translation and (non-uniform) scale values. */
static void fill_keys(float rot[20], float trans[15], float scale[15], double angle, double grow,
                      double skew)
{
    for (int k = 0; k < 5; k++) {
        anim_quat q = anim_quat_from_axis_angle(anim_vec3_make(1, k, 2), angle * k);
        rot[4 * k] = (float)q.x;
        rot[4 * k + 1] = (float)q.y;
        rot[4 * k + 2] = (float)q.z;
        rot[4 * k + 3] = (float)q.w;
        for (int c = 0; c < 3; c++) {
            trans[3 * k + c] = (float)(0.1 * k * (c + 1));
            scale[3 * k + c] = (float)(1 + grow * k - skew * c);
        }
    }
}

static void test_default_frame_count(void **state)
{
    (void)state;
    anim_clip clip;
    memset(&clip, 0, sizeof clip);
    assert_int_equal(anim_clip_default_frame_count(&clip), 2);
    assert_int_equal(anim_clip_default_frame_count(NULL), 2);
    static const float t1[] = {0};
    static const float t5[] = {0, 0.25f, 0.25f, NAN, 1}; /* invalid, still counts */
    static const float v[15] = {0};
    anim_track tracks[3] = {make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 0, t1, 1, v, 1),
                            make_track(ANIM_PATH_SCALE, ANIM_INTERP_STEP, 0, t5, 5, v, 5),
                            make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 99, t5, 4, v, 4)};
    clip.tracks = tracks;
    clip.track_count = 1;
    assert_int_equal(anim_clip_default_frame_count(&clip), 2);
    clip.track_count = 3;
    assert_int_equal(anim_clip_default_frame_count(&clip), 5);
    /* Morph tracks do not count. */
    static const float t9[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    anim_track morph = make_track(ANIM_PATH_WEIGHTS, ANIM_INTERP_LINEAR, 0, t9, 9, v, 9);
    morph.components = 1;
    clip.morph_tracks = &morph;
    clip.morph_track_count = 1;
    assert_int_equal(anim_clip_default_frame_count(&clip), 5);
}

static void test_grid_existence(void **state)
{
    (void)state;
    anim_bone bones[1] = {make_bone("root", ANIM_NONE, 0, 0, 0)};
    anim_doc doc;
    memset(&doc, 0, sizeof doc);
    doc.bones = bones;
    doc.bone_count = 1;
    static const float t2[] = {0, 1};
    static const float t3[] = {0, 0.5f, 1};
    static const float v[9] = {0};
    anim_track tr = make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 0, t2, 2, v, 2);
    anim_clip clip;
    memset(&clip, 0, sizeof clip);
    clip.name = "c";
    clip.tracks = &tr;
    clip.track_count = 1;
    clip.duration_s = 1;
    anim_metric_grid grid;
    anim_error err;
    memset(&err, 0, sizeof err);

    /* N = 2: no grid (distinct from an error, grid zeroed) */
    assert_false(anim_clip_has_metric_grid(&clip));
    assert_int_equal(anim_metric_grid_build(&doc, &clip, &grid, &err), 0);
    assert_null(grid.times);
    assert_int_equal(grid.frame_count, 0);
    anim_metric_grid_free(&grid); /* safe on a zeroed grid */

    tr.times = t3;
    tr.key_count = 3;
    tr.value_count = 3;
    assert_true(anim_clip_has_metric_grid(&clip));
    assert_int_equal(anim_metric_grid_build(&doc, &clip, &grid, &err), 1);
    assert_int_equal(grid.frame_count, 3);
    assert_int_equal(grid.bone_count, 1);
    anim_metric_grid_free(&grid);
    assert_null(grid.times);

    clip.duration_s = 0;
    assert_int_equal(anim_metric_grid_build(&doc, &clip, &grid, &err), 0);
    clip.duration_s = -1;
    assert_int_equal(anim_metric_grid_build(&doc, &clip, &grid, &err), 0);
    clip.duration_s = NAN;
    assert_int_equal(anim_metric_grid_build(&doc, &clip, &grid, &err), 0);
    clip.duration_s = INFINITY;
    assert_int_equal(anim_metric_grid_build(&doc, &clip, &grid, &err), 0);

    /* Bad arguments are errors. */
    assert_int_equal(anim_metric_grid_build(NULL, &clip, &grid, &err), -1);
    assert_int_equal(err.code, ANIM_ERR_USAGE);
    assert_int_equal(anim_metric_grid_uniform(&doc, &clip, 1, &grid, &err), -1);
    assert_int_equal(anim_metric_grid_at_times(&doc, &clip, NULL, 0, &grid, &err), -1);
}

static void test_grid_times(void **state)
{
    (void)state;
    anim_doc doc;
    memset(&doc, 0, sizeof doc); /* no bones at all still has times */
    static const float t5[] = {0, 0.1f, 0.2f, 0.3f, 0.7f};
    static const float v[15] = {0};
    anim_track tr = make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 0, t5, 5, v, 5);
    anim_clip clip;
    memset(&clip, 0, sizeof clip);
    clip.tracks = &tr;
    clip.track_count = 1;
    clip.duration_s = 1.0;
    anim_metric_grid grid;
    anim_error err;
    assert_int_equal(anim_metric_grid_build(&doc, &clip, &grid, &err), 1);
    assert_int_equal(grid.frame_count, 5);
    const double expect[] = {0, 0.25, 0.5, 0.75, 1.0};
    for (int i = 0; i < 5; i++)
        assert_true(grid.times[i] == expect[i]);
    anim_metric_grid_free(&grid);

    /* Irregular duration: t_i = (d·i)/(N−1), endpoints exact. */
    clip.duration_s = (double)0.7f;
    assert_int_equal(anim_metric_grid_uniform(&doc, &clip, 7, &grid, &err), 0);
    assert_true(grid.times[0] == 0.0);
    assert_true(grid.times[6] == (double)0.7f);
    for (int i = 1; i < 6; i++) {
        assert_true(grid.times[i] == ((double)0.7f * i) / 6.0);
        assert_true(grid.times[i] > grid.times[i - 1]);
    }
    anim_metric_grid_free(&grid);
    /* Endpoints exact for many N even where (d·(N−1))/(N−1) might not be. */
    for (uint32_t n = 2; n < 200; n++) {
        clip.duration_s = 0.1 * n + 1.0 / 3.0;
        assert_int_equal(anim_metric_grid_uniform(&doc, &clip, n, &grid, &err), 0);
        assert_true(grid.times[0] == 0.0 && grid.times[n - 1] == clip.duration_s);
        anim_metric_grid_free(&grid);
    }
}

static void test_grid_matches_pose_sampling(void **state)
{
    (void)state;
    /* Three-bone chain with rotation, translation and scale tracks; every
     * grid entry must equal plain per-time pose sampling + FK. */
    anim_bone bones[3] = {make_bone("root", ANIM_NONE, 0, 1, 0), make_bone("mid", 0, 0, 0.5, 0),
                          make_bone("tip", 1, 0.25, 0, 0)};
    anim_doc doc;
    memset(&doc, 0, sizeof doc);
    doc.bones = bones;
    doc.bone_count = 3;
    static const float times[] = {0, 0.2f, 0.5f, 0.9f, 1.3f};
    float rot[20], trans[15], scale[15];
    fill_keys(rot, trans, scale, 0.4, 0.2, 0.1);
    anim_track tracks[4] = {make_track(ANIM_PATH_ROTATION, ANIM_INTERP_LINEAR, 1, times, 5, rot, 5),
                            make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_STEP, 0, times, 5, trans, 5),
                            make_track(ANIM_PATH_SCALE, ANIM_INTERP_LINEAR, 1, times, 5, scale, 5),
                            make_track(ANIM_PATH_ROTATION, ANIM_INTERP_LINEAR, 2, times + 2, 3, rot + 8, 3)};
    anim_clip clip;
    memset(&clip, 0, sizeof clip);
    clip.tracks = tracks;
    clip.track_count = 4;
    clip.duration_s = (double)1.3f;
    anim_metric_grid grid;
    anim_error err;
    assert_int_equal(anim_metric_grid_build(&doc, &clip, &grid, &err), 1);
    assert_int_equal(grid.frame_count, 5);
    for (uint32_t f = 0; f < grid.frame_count; f++) {
        anim_trs local[3];
        anim_mat4 model[3];
        anim_quat mrot[3];
        anim_pose_sample(&doc, &clip, grid.times[f], local);
        anim_pose_fk(&doc, local, model, mrot);
        for (uint32_t b = 0; b < 3; b++) {
            size_t i = anim_metric_grid_index(&grid, f, b);
            assert_int_equal(i, f * 3 + b);
            assert_memory_equal(&grid.local[i], &local[b], sizeof local[b]);
            anim_vec3 p = anim_mat4_translation(&model[b]);
            assert_memory_equal(&grid.model_pos[i], &p, sizeof p);
            assert_memory_equal(&grid.model_rot[i], &mrot[b], sizeof mrot[b]);
        }
    }
    anim_metric_grid_free(&grid);

    /* Caller-given times (decreasing, off-key, beyond the ends). */
    const double ts[] = {2.0, 1.3, 0.95, 0.5, 0.21, -1.0, 0.6};
    assert_int_equal(anim_metric_grid_at_times(&doc, &clip, ts, 7, &grid, &err), 0);
    for (uint32_t f = 0; f < 7; f++) {
        anim_trs local[3];
        anim_pose_sample(&doc, &clip, ts[f], local);
        assert_true(grid.times[f] == ts[f]);
        assert_memory_equal(&grid.local[f * 3], local, sizeof local);
    }
    anim_metric_grid_free(&grid);
}

static void test_grid_size_limit(void **state)
{
    (void)state;
    static anim_bone bones[4];
    for (int i = 0; i < 4; i++)
        bones[i] = make_bone("b", i == 0 ? ANIM_NONE : 0, 0, 0, 0);
    anim_doc doc;
    memset(&doc, 0, sizeof doc);
    doc.bones = bones;
    doc.bone_count = 4;
    anim_clip clip;
    memset(&clip, 0, sizeof clip);
    clip.name = "huge";
    clip.duration_s = 1;
    anim_metric_grid grid;
    anim_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(anim_metric_grid_uniform(&doc, &clip, UINT32_MAX, &grid, &err), -1);
    assert_int_equal(err.code, ANIM_ERR_LIMIT);
    assert_non_null(strstr(err.message, "metric grid"));
    assert_null(grid.times);
    /* A clip whose key count claims a huge N fails the same way. */
    static const float t[] = {0, 1};
    anim_track tr = make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 0, t, UINT32_MAX, NULL, 0);
    clip.tracks = &tr;
    clip.track_count = 1;
    assert_int_equal(anim_metric_grid_build(&doc, &clip, &grid, &err), -1);
    assert_int_equal(err.code, ANIM_ERR_LIMIT);
}

/* ---- the example walk-dirty, built in memory ---- */

static float walk_times[33];
static float walk_values[2][33 * 3];

static void build_walk(anim_doc *doc, anim_bone *bones, anim_clip *clip, anim_track *tracks, double period)
{
    bones[0] = make_bone("pelvis", ANIM_NONE, 0, 1, 0);
    bones[1] = make_bone("foot_l", 0, (double)0.1f, -1, 0);
    bones[2] = make_bone("foot_r", 0, (double)-0.1f, -1, 0);
    for (int k = 0; k <= 32; k++)
        walk_times[k] = (float)k / 32.0f;
    for (int side = 0; side < 2; side++) {
        float sign = side == 0 ? 1.0f : -1.0f;
        float rest[3] = {side == 0 ? 0.1f : -0.1f, -1.0f, 0.0f};
        for (int k = 0; k <= 32; k++) {
            /* (P·2π·k)/32 in f64, left to right */
            double theta = (period * (2.0 * ANIM_PI) * k) / 32.0;
            float s = (float)sin(theta);
            float ay = sign * 0.05f, az = sign * 0.15f;
            walk_values[side][3 * k] = rest[0];
            walk_values[side][3 * k + 1] = rest[1] + ay * s;
            walk_values[side][3 * k + 2] = rest[2] + az * s;
        }
        tracks[side] =
            make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, (uint32_t)side + 1, walk_times, 33,
                       walk_values[side], 33);
    }
    memset(doc, 0, sizeof *doc);
    doc->bones = bones;
    doc->bone_count = 3;
    memset(clip, 0, sizeof *clip);
    clip->name = "walk";
    clip->has_name = true;
    clip->tracks = tracks;
    clip->track_count = 2;
    clip->duration_s = (double)walk_times[32];
    clip->max_keys = 33;
}

static void test_walk_dirty_loop_gap(void **state)
{
    (void)state;
    anim_bone bones[3];
    anim_track tracks[2];
    anim_doc doc;
    anim_clip clip;
    build_walk(&doc, bones, &clip, tracks, 0.75);
    assert_true(anim_track_is_valid(&tracks[0]) && anim_track_is_valid(&tracks[1]));
    anim_metric_grid grid;
    anim_error err;
    assert_int_equal(anim_metric_grid_build(&doc, &clip, &grid, &err), 1);
    assert_int_equal(grid.frame_count, 33);
    assert_true(grid.times[32] == 1.0);
    uint32_t foot_r = anim_doc_find_bone(&doc, "foot_r");
    uint32_t foot_l = anim_doc_find_bone(&doc, "foot_l");
    assert_int_equal(foot_r, 2);
    anim_vec3 first = grid.model_pos[anim_metric_grid_index(&grid, 0, foot_r)];
    anim_vec3 last = grid.model_pos[anim_metric_grid_index(&grid, 32, foot_r)];
    double gap = anim_vec3_dist(first, last);
    /* The documented loop-closure figure: "bone 'foot_r' is 0.1581 m"
     * (4 decimals). */
    assert_near(gap, 0.1581, 0.00005);
    assert_near(gap, 0.1581139, 1e-6);
    /* frame 0 is the rest pose: pelvis (0,1,0) + foot (−0.1,−1,0) */
    assert_near(first.x, (double)-0.1f, 1e-15);
    assert_near(first.y, 0, 1e-15);
    assert_near(first.z, 0, 1e-15);
    double gap_l = anim_vec3_dist(grid.model_pos[anim_metric_grid_index(&grid, 0, foot_l)],
                                  grid.model_pos[anim_metric_grid_index(&grid, 32, foot_l)]);
    assert_near(gap_l, 0.1581139, 1e-6);
    /* step_first = |v|·s_1 ≈ 0.0232001; step_last ≈ 0.0017114 */
    double step_first = anim_vec3_dist(grid.model_pos[anim_metric_grid_index(&grid, 0, foot_r)],
                                       grid.model_pos[anim_metric_grid_index(&grid, 1, foot_r)]);
    double step_last = anim_vec3_dist(grid.model_pos[anim_metric_grid_index(&grid, 31, foot_r)],
                                      grid.model_pos[anim_metric_grid_index(&grid, 32, foot_r)]);
    assert_near(step_first, 0.0232001, 1e-6);
    assert_near(step_last, 0.0017114, 1e-6);
    /* The pelvis never moves; all rotations stay identity. */
    for (uint32_t f = 0; f < grid.frame_count; f++) {
        anim_vec3 p = grid.model_pos[anim_metric_grid_index(&grid, f, 0)];
        assert_true(p.x == 0 && p.y == 1 && p.z == 0);
        anim_quat q = grid.model_rot[anim_metric_grid_index(&grid, f, foot_r)];
        assert_true(q.x == 0 && q.y == 0 && q.z == 0 && q.w == 1);
    }
    anim_metric_grid_free(&grid);

    /* The clean walk (P = 1) closes to within the sin(2π) residue. */
    build_walk(&doc, bones, &clip, tracks, 1.0);
    assert_int_equal(anim_metric_grid_build(&doc, &clip, &grid, &err), 1);
    gap = anim_vec3_dist(grid.model_pos[anim_metric_grid_index(&grid, 0, foot_r)],
                         grid.model_pos[anim_metric_grid_index(&grid, 32, foot_r)]);
    assert_true(gap > 0 && gap < 1e-16); /* ≈3.67e-17, the documented residue */
    anim_metric_grid_free(&grid);
}

/* Entry (f, b) of a prepared grid equals per-time pose sampling + FK. */
static void expect_reference_entry(const anim_doc *doc, const anim_clip *clip,
                                   const anim_metric_grid *grid, uint32_t f, uint32_t b)
{
    anim_trs local[8];
    anim_mat4 model[8];
    anim_quat mrot[8];
    assert_true(doc->bone_count <= 8);
    anim_pose_sample(doc, clip, grid->times[f], local);
    anim_pose_fk(doc, local, model, mrot);
    size_t i = anim_metric_grid_index(grid, f, b);
    anim_vec3 p = anim_mat4_translation(&model[b]);
    assert_memory_equal(&grid->local[i], &local[b], sizeof local[b]);
    assert_memory_equal(&grid->model_pos[i], &p, sizeof p);
    assert_memory_equal(&grid->model_rot[i], &mrot[b], sizeof mrot[b]);
}

static void test_prepared_grid_fills_what_is_read(void **state)
{
    (void)state;
    /* root -> mid -> tip, root -> side (non-uniform scale), and a bone whose
     * parent index is not lower than its own (treated as a root). Key times
     * 0.25 and 0.5 fall exactly on grid times (u = 0 inside a segment). */
    anim_bone bones[5] = {make_bone("root", ANIM_NONE, 0, 1, 0), make_bone("mid", 0, 0, 0.5, 0),
                          make_bone("tip", 1, 0.25, 0, 0), make_bone("side", 0, 0.3, 0, 0.1),
                          make_bone("odd", 4, 0, 0, 1)};
    anim_doc doc;
    memset(&doc, 0, sizeof doc);
    doc.bones = bones;
    doc.bone_count = 5;
    static const float times[] = {0, 0.25f, 0.5f, 0.9f, 1.0f};
    float rot[20], trans[15], scale[15];
    fill_keys(rot, trans, scale, 0.7, 0.3, 0.2);
    anim_track tracks[6] = {make_track(ANIM_PATH_ROTATION, ANIM_INTERP_LINEAR, 1, times, 5, rot, 5),
                            make_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_STEP, 0, times, 5, trans, 5),
                            make_track(ANIM_PATH_SCALE, ANIM_INTERP_LINEAR, 3, times, 5, scale, 5),
                            make_track(ANIM_PATH_ROTATION, ANIM_INTERP_LINEAR, 2, times + 1, 4, rot + 4, 4),
                            make_track(ANIM_PATH_ROTATION, ANIM_INTERP_LINEAR, 3, times, 5, rot, 5),
                            /* a later track of bone 1 overwrites the first */
                            make_track(ANIM_PATH_ROTATION, ANIM_INTERP_STEP, 1, times, 3, rot + 8, 3)};
    anim_clip clip;
    memset(&clip, 0, sizeof clip);
    clip.name = "c";
    clip.tracks = tracks;
    clip.track_count = 6;
    clip.duration_s = 1.0;
    anim_metric_grid grid;
    anim_error err;
    assert_int_equal(anim_metric_grid_prepare(&doc, &clip, &grid, &err), 1);
    uint32_t n = grid.frame_count, nb = grid.bone_count;
    assert_int_equal(n, 5);
    assert_true(grid.times[1] == 0.25 && grid.times[2] == 0.5);
    assert_int_equal(anim_metric_grid_filled_entries(&grid), 0);

    /* Loop continuity's seam frames: every bone of four frames. */
    const uint32_t seam[4] = {0, 1, n - 2, n - 1};
    anim_metric_grid_need_frames(&grid, seam, 4);
    assert_int_equal(anim_metric_grid_filled_entries(&grid), 4 * nb);
    anim_metric_grid_need_frames(&grid, seam, 4); /* nothing new */
    assert_int_equal(anim_metric_grid_filled_entries(&grid), 4 * nb);
    for (int i = 0; i < 4; i++)
        for (uint32_t b = 0; b < nb; b++)
            expect_reference_entry(&doc, &clip, &grid, seam[i], b);

    /* The tip of a chain: frame 2 of the tip and of its two ancestors. */
    const uint32_t tip = 2, pair[2] = {2, 1}, odd = 4;
    anim_metric_grid_need_bones(&grid, &tip, 1);
    assert_int_equal(anim_metric_grid_filled_entries(&grid), 4 * nb + 3);
    anim_metric_grid_need_bones(&grid, pair, 2); /* already there */
    assert_int_equal(anim_metric_grid_filled_entries(&grid), 4 * nb + 3);
    anim_metric_grid_need_bones(&grid, &odd, 1);
    assert_int_equal(anim_metric_grid_filled_entries(&grid), 4 * nb + 4);
    for (uint32_t f = 0; f < n; f++)
        for (uint32_t b = 0; b < 3; b++)
            expect_reference_entry(&doc, &clip, &grid, f, b);

    /* The rest, and a full build, hold the same bits everywhere. */
    const uint32_t middle = 2;
    anim_metric_grid_need_frames(&grid, &middle, 1);
    assert_int_equal(anim_metric_grid_filled_entries(&grid), (uint64_t)n * nb);
    anim_metric_grid full;
    assert_int_equal(anim_metric_grid_build(&doc, &clip, &full, &err), 1);
    assert_int_equal(anim_metric_grid_filled_entries(&full), (uint64_t)n * nb);
    for (uint32_t f = 0; f < n; f++)
        for (uint32_t b = 0; b < nb; b++) {
            expect_reference_entry(&doc, &clip, &grid, f, b);
            size_t i = anim_metric_grid_index(&grid, f, b);
            assert_memory_equal(&grid.model_pos[i], &full.model_pos[i], sizeof full.model_pos[i]);
            assert_memory_equal(&grid.model_rot[i], &full.model_rot[i], sizeof full.model_rot[i]);
        }
    /* Asking a complete grid is a no-op; out-of-range asks are ignored. */
    const uint32_t far = 99;
    anim_metric_grid_need_bones(&full, &far, 1);
    anim_metric_grid_need_frames(&full, &far, 1);
    anim_metric_grid_need_bones(&grid, &far, 1);
    anim_metric_grid_need_frames(&grid, &far, 1);
    anim_metric_grid_free(&full);
    anim_metric_grid_free(&grid);

    /* No grid: prepare answers 0 like build, grid zeroed. */
    clip.duration_s = 0.0;
    assert_int_equal(anim_metric_grid_prepare(&doc, &clip, &grid, &err), 0);
    assert_null(grid.times);
    assert_int_equal(anim_metric_grid_filled_entries(&grid), 0);
    anim_metric_grid_free(&grid);
}

/* What a lint run samples: nothing for checks that read no grid, and for
 * the JSON measurements only the seam frames of every bone plus every
 * frame of the few bones the foot, hips and root readers use. */
typedef struct {
    uint32_t clips;
    bool measure;      /* ask for the measurement facts like lint JSON */
    uint64_t filled;   /* entries sampled over the run */
    uint64_t full;     /* entries a full grid would have had */
} sample_log;

static int count_samples(anim_lint_context *ctx, uint32_t clip, void *user, anim_error *err)
{
    sample_log *log = user;
    log->clips++;
    if (!log->measure) {
        /* No check of the selection asked for a grid. */
        assert_int_equal(ctx->grid_clip, ANIM_NONE);
        return 0;
    }
    anim_loop_continuity lc;
    anim_foot_cycle fc;
    anim_root_speed speed;
    if (anim_lint_loop_continuity(ctx, clip, &lc, err))
        return -1;
    anim_lint_foot_cycle(ctx, clip, 0.02, &fc);
    anim_lint_root_speed(ctx, clip, &speed);
    const anim_metric_grid *g = anim_lint_grid(ctx, clip);
    if (g) {
        log->filled += anim_metric_grid_filled_entries(g);
        log->full += (uint64_t)g->frame_count * g->bone_count;
    }
    return 0;
}

static void test_lint_samples_only_what_is_read(void **state)
{
    (void)state;
    /* pelvis, two feet and an arm that only loop continuity reads */
    anim_asset *a = test_support_load_example("walk-frozen-arm.glb");
    anim_config *cfg = test_support_config_example("walk-frozen-arm.animsmith.toml");
    static const char *const select[] = {"fps", "nan", "time-monotonic"};
    for (int measure = 0; measure < 2; measure++) {
        sample_log log;
        memset(&log, 0, sizeof log);
        log.measure = measure == 1;
        anim_lint_options opts;
        memset(&opts, 0, sizeof opts);
        opts.select = select;
        opts.select_count = 3;
        opts.clip_done = count_samples;
        opts.user = &log;
        anim_lint_file file;
        anim_error err;
        anim_error_clear(&err);
        assert_int_equal(anim_lint_run(a, cfg, &opts, &file, &err), 0);
        assert_int_equal(log.clips, a->doc.clip_count);
        if (log.measure) {
            /* Seam frames of every bone, every frame of the others: the
             * arm's inner frames are never sampled. */
            assert_true(log.full > 0);
            assert_true(log.filled >= 4u * a->doc.bone_count && log.filled < log.full);
        }
        anim_lint_file_free(&file);
    }
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* A grid built in a kept block (anim_metric_grid_prepare_reusing) is the
 * grid a fresh one is, bit for bit, even when the kept block holds garbage
 * from before: every entry is written before it is read. The block of a
 * released grid is kept and handed to the next one that fits. */
static void test_grid_reuses_kept_block(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("run-ring.glb");
    const anim_doc *doc = &a->doc;
    assert_true(doc->clip_count >= 2);
    anim_grid_memory kept = {NULL, 0};
    for (int round = 0; round < 2; round++)
        for (uint32_t c = 0; c < doc->clip_count; c++) {
            anim_error err;
            anim_error_clear(&err);
            anim_metric_grid fresh, reused;
            int rc = anim_metric_grid_build(doc, &doc->clips[c], &fresh, &err);
            if (kept.block)
                memset(kept.block, 0xA5, kept.bytes); /* what a previous clip left */
            void *offered = kept.block;
            size_t offered_bytes = kept.bytes;
            assert_int_equal(anim_metric_grid_prepare_reusing(doc, &doc->clips[c], &reused, &kept, &err), rc);
            if (rc != 1) {
                anim_metric_grid_free(&fresh);
                continue;
            }
            size_t need;
            assert_true(anim_metric_grid_bytes(fresh.frame_count, fresh.bone_count, &need));
            if (offered && offered_bytes >= need)
                assert_ptr_equal(reused.block_, offered);
            for (uint32_t f = 0; f < reused.frame_count; f++)
                anim_metric_grid_need_frames(&reused, &f, 1);
            size_t entries = (size_t)fresh.frame_count * fresh.bone_count;
            assert_memory_equal(reused.times, fresh.times, fresh.frame_count * sizeof *fresh.times);
            assert_memory_equal(reused.local, fresh.local, entries * sizeof *fresh.local);
            assert_memory_equal(reused.model_pos, fresh.model_pos, entries * sizeof *fresh.model_pos);
            assert_memory_equal(reused.model_rot, fresh.model_rot, entries * sizeof *fresh.model_rot);
            anim_metric_grid_recycle(&reused, &kept);
            assert_non_null(kept.block);
            assert_true(kept.bytes >= need);
            assert_null(reused.block_);
            anim_metric_grid_free(&fresh);
        }
    anim_grid_memory_free(&kept);
    assert_null(kept.block);
    anim_asset_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_frame_count),
        cmocka_unit_test(test_grid_existence),
        cmocka_unit_test(test_grid_times),
        cmocka_unit_test(test_grid_matches_pose_sampling),
        cmocka_unit_test(test_grid_size_limit),
        cmocka_unit_test(test_walk_dirty_loop_gap),
        cmocka_unit_test(test_prepared_grid_fills_what_is_read),
        cmocka_unit_test(test_lint_samples_only_what_is_read),
        cmocka_unit_test(test_grid_reuses_kept_block),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
