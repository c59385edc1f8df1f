/* The four assets whose bytes are fixed (they equal the test corpus's
 * reference files except the version string): clip.glb, clip-dirty.glb,
 * walk.glb and walk-dirty.glb. Every arithmetic step below keeps the
 * recipe's precision exactly (f32 vs f64, evaluation order); changing any
 * of it changes the committed bytes. */
#include <math.h>

#include "fixtures.h"

/* 2*pi in f64 (the recipe's P * 2pi). */
static const double TWO_PI = 6.283185307179586;

static fg_track swing_clip(fg_builder *b)
{
    uint32_t root = fg_bone(b, "root", ANIM_NONE, 0.0f, 0.0f, 0.0f);
    uint32_t spine = fg_bone(b, "spine", root, 0.0f, 0.5f, 0.0f);
    uint32_t clip = fg_clip(b, "swing");
    fg_track t = fg_add_track(b, clip, spine, ANIM_PATH_ROTATION, ANIM_INTERP_LINEAR, 5);
    static const float times[5] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
    static const float angles[5] = {0.0f, 0.1f, 0.2f, 0.3f, 0.4f};
    for (int k = 0; k < 5; k++) {
        double h = (double)angles[k] * 0.5;
        t.times[k] = times[k];
        t.values[k * 4 + 0] = 0.0f;
        t.values[k * 4 + 1] = (float)sin(h);
        t.values[k * 4 + 2] = 0.0f;
        t.values[k * 4 + 3] = (float)cos(h);
    }
    return t;
}

void fg_clip_clean(fg_builder *b)
{
    swing_clip(b);
}

void fg_clip_dirty(fg_builder *b)
{
    fg_track t = swing_clip(b);
    /* Key 2 scaled to length 1.05 (quat-norm), key 3 negated (two flips). */
    for (int c = 0; c < 4; c++) {
        t.values[2 * 4 + c] = t.values[2 * 4 + c] * 1.05f;
        t.values[3 * 4 + c] = -t.values[3 * 4 + c];
    }
}

/* Foot translation over 33 keys: rest + (0, sign*0.05, sign*0.15) * s_k
 * with s_k = (f32)sin(P * 2pi * k / 32). */
static void foot_track(fg_builder *b, uint32_t clip, uint32_t bone, float sign, double cycles)
{
    fg_track t = fg_add_track(b, clip, bone, ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, 33);
    const double *rest = b->bones[bone].rest_translation;
    float rx = (float)rest[0], ry = (float)rest[1], rz = (float)rest[2];
    float ay = sign * 0.05f, az = sign * 0.15f;
    for (int k = 0; k <= 32; k++) {
        double theta = cycles * TWO_PI * (double)k / 32.0;
        float s = (float)sin(theta);
        t.times[k] = (float)k / 32.0f;
        t.values[k * 3 + 0] = rx;
        t.values[k * 3 + 1] = ry + ay * s;
        t.values[k * 3 + 2] = rz + az * s;
    }
}

static void walk(fg_builder *b, double cycles)
{
    uint32_t pelvis = fg_bone(b, "pelvis", ANIM_NONE, 0.0f, 1.0f, 0.0f);
    uint32_t foot_l = fg_bone(b, "foot_l", pelvis, 0.1f, -1.0f, 0.0f);
    uint32_t foot_r = fg_bone(b, "foot_r", pelvis, -0.1f, -1.0f, 0.0f);
    uint32_t clip = fg_clip(b, "walk");
    foot_track(b, clip, foot_l, 1.0f, cycles);
    foot_track(b, clip, foot_r, -1.0f, cycles);
}

void fg_walk_clean(fg_builder *b)
{
    walk(b, 1.0);
}

void fg_walk_dirty(fg_builder *b)
{
    walk(b, 0.75);
}
