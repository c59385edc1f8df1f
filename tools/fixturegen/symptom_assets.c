/* The symptom fixtures: each one is a mutation of the sample walk that makes
 * exactly the findings its symptom's example shows fire. docs/fixtures.md
 * lists the numbers every recipe aims at.
 *
 * Rigs use ue-mannequin names (pelvis / foot_l / foot_r) so `auto` resolves
 * hips and both feet; key times are k/32 s so every clip sits on a 32 fps
 * grid. All arithmetic is f64 narrowed once to f32, with glibc sin/cos,
 * so the bytes are reproducible. */
#include <math.h>

#include "fixtures.h"

static const double TWO_PI = 6.283185307179586;
static const double PI = 3.141592653589793;

typedef struct walk_rig {
    uint32_t pelvis, foot_l, foot_r;
} walk_rig;

static walk_rig walk_skeleton(fg_builder *b)
{
    walk_rig r;
    r.pelvis = fg_bone(b, "pelvis", ANIM_NONE, 0.0f, 1.0f, 0.0f);
    r.foot_l = fg_bone(b, "foot_l", r.pelvis, 0.1f, -1.0f, 0.0f);
    r.foot_r = fg_bone(b, "foot_r", r.pelvis, -0.1f, -1.0f, 0.0f);
    return r;
}

/* The analytic gait of walk.glb: foot = rest + sign*(0, 0.05, 0.15)*s with
 * s = sin(2pi*k/32 + offset); dir_x/dir_z orient the 0.15 m stride. */
static void gait_foot(fg_builder *b, uint32_t clip, uint32_t bone, float sign, double offset,
                      float dir_x, float dir_z)
{
    fg_track t = fg_add_track(b, clip, bone, ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 33);
    const double *rest = b->bones[bone].rest_translation;
    for (int k = 0; k <= 32; k++) {
        float s = (float)sin(TWO_PI * (double)k / 32.0 + offset);
        t.times[k] = (float)k / 32.0f;
        t.values[k * 3 + 0] = (float)rest[0] + sign * 0.15f * dir_x * s;
        t.values[k * 3 + 1] = (float)rest[1] + sign * 0.05f * s;
        t.values[k * 3 + 2] = (float)rest[2] + sign * 0.15f * dir_z * s;
    }
}

static void walk_feet(fg_builder *b, uint32_t clip, const walk_rig *r)
{
    gait_foot(b, clip, r->foot_l, 1.0f, 0.0, 0.0f, 1.0f);
    gait_foot(b, clip, r->foot_r, -1.0f, 0.0, 0.0f, 1.0f);
}

static void set_quat_z(float *q, double deg)
{
    double h = deg * PI / 360.0;
    q[0] = 0.0f;
    q[1] = 0.0f;
    q[2] = (float)sin(h);
    q[3] = (float)cos(h);
}

/* Left-ankle rotation stops at 0.75 s while both feet translate to 1.0 s:
 * duration-sanity end spread 0.2500 (0.750s..1.000s). */
void fg_walk_short_channel(fg_builder *b)
{
    walk_rig r = walk_skeleton(b);
    uint32_t clip = fg_clip(b, "walk_short_channel");
    walk_feet(b, clip, &r);
    fg_track t = fg_add_track(b, clip, r.foot_l, ANIM_PATH_ROTATION, ANIM_INTERP_LINEAR, 25);
    for (int k = 0; k <= 24; k++) {
        /* Ankle pitch, +-15 degrees about X. */
        double h = 15.0 * sin(TWO_PI * (double)k / 32.0) * PI / 360.0;
        t.times[k] = (float)k / 32.0f;
        t.values[k * 4 + 0] = (float)sin(h);
        t.values[k * 4 + 1] = 0.0f;
        t.values[k * 4 + 2] = 0.0f;
        t.values[k * 4 + 3] = (float)cos(h);
    }
}

/* The walk carried 1.2 m forward in one second (speed 1.20 m/s, hips
 * fallback). Feet are planted in the world during stance so foot-slide
 * stays quiet when a speed pin arms it. */
void fg_walk_travel(fg_builder *b)
{
    walk_rig r = walk_skeleton(b);
    uint32_t clip = fg_clip(b, "walk_travel");
    fg_track pelvis = fg_add_track(b, clip, r.pelvis, ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 33);
    for (int k = 0; k <= 32; k++) {
        pelvis.times[k] = (float)k / 32.0f;
        pelvis.values[k * 3 + 0] = 0.0f;
        pelvis.values[k * 3 + 1] = 1.0f;
        pelvis.values[k * 3 + 2] = (float)(1.2 * (double)k / 32.0);
    }
    /* Per foot: world z planted during its stance half, eased forward by
     * 1.2 m during its swing half, lifted 0.25 m * sin(pi*u) while
     * swinging. Left stands first, right swings first. */
    for (int side = 0; side < 2; side++) {
        uint32_t bone = side == 0 ? r.foot_l : r.foot_r;
        fg_track t = fg_add_track(b, clip, bone, ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 33);
        for (int k = 0; k <= 32; k++) {
            double time = (double)k / 32.0;
            double hip_z = 1.2 * time;
            double z, y = 0.0;
            int swing = side == 0 ? k > 16 : k < 16;
            double u = side == 0 ? (time - 0.5) / 0.5 : time / 0.5;
            if (side == 0)
                z = k <= 16 ? 0.3 : 0.3 + 1.2 * (1.0 - cos(PI * u)) / 2.0;
            else
                z = k >= 16 ? 0.9 : -0.3 + 1.2 * (1.0 - cos(PI * u)) / 2.0;
            if (swing)
                y = 0.25 * sin(PI * u);
            t.times[k] = (float)time;
            t.values[k * 3 + 0] = side == 0 ? 0.1f : -0.1f;
            t.values[k * 3 + 1] = (float)(y - 1.0);
            t.values[k * 3 + 2] = (float)(z - hip_z);
        }
    }
}

/* Declared to animate arm_l and arm_r: arm_l is keyed at five identical
 * (rest) values, arm_r does not exist. */
void fg_walk_frozen_arm(fg_builder *b)
{
    walk_rig r = walk_skeleton(b);
    uint32_t arm_l = fg_bone(b, "arm_l", r.pelvis, 0.2f, 0.5f, 0.0f);
    uint32_t clip = fg_clip(b, "walk_frozen_arm");
    walk_feet(b, clip, &r);
    fg_track t = fg_add_track(b, clip, arm_l, ANIM_PATH_ROTATION, ANIM_INTERP_LINEAR, 5);
    for (int k = 0; k < 5; k++) {
        t.times[k] = (float)k * 0.25f;
        t.values[k * 4 + 3] = 1.0f;
    }
}

/* Pelvis scale stretches to (1, 1.2, 1) at 0.5 s and back (scale-keys,
 * non-uniform-scale @0.500s); weapon_socket carries a five-key translation
 * track equal to its rest (constant-track, pruned as track index 3). */
void fg_walk_scaled(fg_builder *b)
{
    walk_rig r = walk_skeleton(b);
    uint32_t socket = fg_bone(b, "weapon_socket", r.pelvis, 0.3f, 0.2f, 0.1f);
    uint32_t clip = fg_clip(b, "walk_scaled");
    walk_feet(b, clip, &r);
    static const float sy[5] = {1.0f, 1.1f, 1.2f, 1.1f, 1.0f};
    fg_track s = fg_add_track(b, clip, r.pelvis, ANIM_PATH_SCALE, ANIM_INTERP_LINEAR, 5);
    fg_track w = fg_add_track(b, clip, socket, ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 5);
    for (int k = 0; k < 5; k++) {
        s.times[k] = w.times[k] = (float)k * 0.25f;
        s.values[k * 3 + 0] = 1.0f;
        s.values[k * 3 + 1] = sy[k];
        s.values[k * 3 + 2] = 1.0f;
        w.values[k * 3 + 0] = 0.3f;
        w.values[k * 3 + 1] = 0.2f;
        w.values[k * 3 + 2] = 0.1f;
    }
}

/* Four directional clips of one gait; run_left enters it a quarter cycle
 * in, so its stride anchor is 0.50 against 0.75 for the others (spread
 * 0.1988 cycle). */
void fg_run_ring(fg_builder *b)
{
    walk_rig r = walk_skeleton(b);
    static const struct {
        const char *name;
        float dx, dz;
        double offset;
    } runs[4] = {
        {"run_forward", 0.0f, 1.0f, 0.0},
        {"run_backward", 0.0f, -1.0f, 0.0},
        {"run_left", 1.0f, 0.0f, 1.5707963267948966},
        {"run_right", -1.0f, 0.0f, 0.0},
    };
    for (int i = 0; i < 4; i++) {
        uint32_t clip = fg_clip(b, runs[i].name);
        gait_foot(b, clip, r.foot_l, 1.0f, runs[i].offset, runs[i].dx, runs[i].dz);
        gait_foot(b, clip, r.foot_r, -1.0f, runs[i].offset, runs[i].dx, runs[i].dz);
    }
}

typedef struct comparison_rig {
    uint32_t root, hips, left, right, hand;
} comparison_rig;

/* Explicit-role rig of report-comparison.animsmith.toml: root and hips
 * static, hips 1 m above the ground, the hand held at 30 degrees. */
static comparison_rig comparison_skeleton(fg_builder *b)
{
    comparison_rig r;
    r.root = fg_bone(b, "root", ANIM_NONE, 0.0f, 0.0f, 0.0f);
    r.hips = fg_bone(b, "hips", r.root, 0.0f, 1.0f, 0.0f);
    r.left = fg_bone(b, "left_foot", r.hips, 0.1f, -1.0f, 0.0f);
    r.right = fg_bone(b, "right_foot", r.hips, -0.1f, -1.0f, 0.0f);
    r.hand = fg_bone(b, "hand", r.hips, 0.4f, 0.4f, 0.0f);
    float q[4];
    set_quat_z(q, 30.0);
    fg_bone_rotation(b, r.hand, q[0], q[1], q[2], q[3]);
    return r;
}

/* Foot track from model-space positions (hips are static at y = 1). */
static void foot_from_model(fg_builder *b, uint32_t clip, uint32_t bone, int keys,
                            const double (*pos)[3])
{
    fg_track t = fg_add_track(b, clip, bone, ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR,
                              (uint32_t)keys);
    for (int k = 0; k < keys; k++) {
        t.times[k] = (float)k / (float)(keys - 1);
        t.values[k * 3 + 0] = (float)pos[k][0];
        t.values[k * 3 + 1] = (float)(pos[k][1] - 1.0);
        t.values[k * 3 + 2] = (float)pos[k][2];
    }
}

/* Five keys at 0.25 s. Left foot: stance step 0->1 sweeps 0.07 m (0.28 m/s,
 * slide 0.72 @0.250s) and ends 0.4 m from its start with a seam velocity
 * jump of 1.3416 m/s. Right foot: last stance step sweeps 0.03 m (slide
 * 0.88 @1.000s). Hand: five identical rotation keys (constant-track). */
void fg_report_comparison_before(fg_builder *b)
{
    comparison_rig r = comparison_skeleton(b);
    uint32_t clip = fg_clip(b, "acceptance-matrix");
    static const double left[5][3] = {
        {0.1, 0.0, 0.0}, {0.1, 0.0, -0.07}, {0.1, 0.15, 0.05}, {0.1, 0.15, 0.17}, {0.1, 0.0, 0.4}};
    static const double right[5][3] = {{-0.1, 0.1, -0.08},
                                       {-0.1, 0.15, 0.1},
                                       {-0.1, 0.0, 0.2},
                                       {-0.1, 0.0, -0.05},
                                       {-0.1, 0.0, -0.08}};
    foot_from_model(b, clip, r.left, 5, left);
    foot_from_model(b, clip, r.right, 5, right);
    fg_track h = fg_add_track(b, clip, r.hand, ANIM_PATH_ROTATION, ANIM_INTERP_LINEAR, 5);
    for (int k = 0; k < 5; k++) {
        h.times[k] = (float)k * 0.25f;
        set_quat_z(&h.values[k * 4], 30.0);
    }
}

/* Treadmill foot at phase u in [0, 1): stance for u <= 0.5 sweeping z from
 * +0.25 to -0.25 at exactly 1 m/s, swing eased back with a quartic lift
 * that is flat at mid-swing (smooth velocity across the seam). */
static void treadmill_foot(double u, double x, double *pos)
{
    pos[0] = x;
    if (u <= 0.5) {
        pos[1] = 0.0;
        pos[2] = 0.25 - u;
    } else {
        double s = (u - 0.5) / 0.5;
        double c = 2.0 * s - 1.0;
        pos[1] = 0.1 * (1.0 - c * c * c * c);
        pos[2] = -0.25 + 0.5 * (1.0 - cos(PI * s)) / 2.0;
    }
}

/* The repaired gait: 33 keys; the left foot is mid-stance and the right
 * mid-swing at the seam, both feet close exactly; stance sweeps at the
 * declared 1 m/s; the hand swings +-10 degrees with a 0.1 degree drift so
 * the endpoint is not a duplicate key. */
void fg_report_comparison_after(fg_builder *b)
{
    comparison_rig r = comparison_skeleton(b);
    uint32_t clip = fg_clip(b, "acceptance-matrix");
    double left[33][3], right[33][3];
    for (int k = 0; k <= 32; k++) {
        double u = (double)k / 32.0;
        treadmill_foot(fmod(u + 0.25, 1.0), 0.1, left[k]);
        treadmill_foot(fmod(u + 0.75, 1.0), -0.1, right[k]);
    }
    foot_from_model(b, clip, r.left, 33, (const double (*)[3])left);
    foot_from_model(b, clip, r.right, 33, (const double (*)[3])right);
    fg_track h = fg_add_track(b, clip, r.hand, ANIM_PATH_ROTATION, ANIM_INTERP_LINEAR, 33);
    for (int k = 0; k <= 32; k++) {
        double u = (double)k / 32.0;
        h.times[k] = (float)k / 32.0f;
        set_quat_z(&h.values[k * 4], 30.0 + 10.0 * sin(TWO_PI * u) + 0.1 * u);
    }
}
