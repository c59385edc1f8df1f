/* FBX animation curves and the animation stage's internal interface.
 *
 * A curve is decoded once from an AnimationCurve object (7.x) or a 6.1
 * Take channel into one record per key: its time in KTime ticks, its
 * value, and how the segment that starts at it interpolates (with the
 * slopes and weights of a cubic segment). Evaluation is exact in f64:
 * cubic segments are the Bezier the FBX SDK documents, in (time, value),
 * and a weighted segment's time polynomial is solved for its parameter.
 *
 * The second half is what fbx_anim.c (AnimationStacks) and fbx_takes61.c
 * (6.1 Takes) hand to the track builder in fbx_anim_sample.c: one record
 * per animated property, from either file generation. */
#ifndef ANIMSMITH_FBX_CURVE_H
#define ANIMSMITH_FBX_CURVE_H

#include <stdbool.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "io/fbx/fbx_scene.h"

/* ANIM_FBX_KTIME_PER_SECOND: animsmith/fbx.h (through fbx_scene.h). */

/* KeyAttrFlags bits (FbxAnimCurveDef). */
#define ANIM_FBX_KEY_CONSTANT 0x00000002u
#define ANIM_FBX_KEY_LINEAR 0x00000004u
#define ANIM_FBX_KEY_CUBIC 0x00000008u
#define ANIM_FBX_KEY_CONSTANT_NEXT 0x00000100u /* with CONSTANT only */
#define ANIM_FBX_KEY_TANGENT_TCB 0x00000200u   /* with CUBIC only */
#define ANIM_FBX_KEY_WEIGHTED_RIGHT 0x01000000u
#define ANIM_FBX_KEY_WEIGHTED_NEXT_LEFT 0x02000000u

/* How the segment from a key to the next one interpolates. */
typedef enum {
    ANIM_FBX_SEG_CONSTANT = 0,      /* holds this key's value */
    ANIM_FBX_SEG_CONSTANT_NEXT = 1, /* holds the next key's value */
    ANIM_FBX_SEG_LINEAR = 2,
    ANIM_FBX_SEG_CUBIC = 3
} anim_fbx_seg_kind;

/* The default tangent weight: a Bezier whose inner control points sit at
 * thirds of the segment is exactly the Hermite cubic. */
#define ANIM_FBX_DEFAULT_WEIGHT (1.0 / 3.0)

typedef struct anim_fbx_key {
    int64_t time;               /* KTime ticks */
    double value;
    anim_fbx_seg_kind kind;     /* the segment that starts at this key */
    double right_slope;         /* value per second leaving this key */
    double next_left_slope;     /* value per second arriving at the next key */
    double right_weight;        /* fraction of the segment, in [0, 1] */
    double next_left_weight;
} anim_fbx_key;

typedef struct anim_fbx_curve {
    anim_fbx_key *keys;
    uint32_t key_count;
    double default_value;       /* the value of a curve without keys */
    bool tcb;                   /* some key had TCB tangents (slopes derived) */
} anim_fbx_curve;

/* Decodes the arrays of an AnimationCurve: times (KTime) and values, one
 * per key; flags, one per attribute group; attr, four floats per group
 * (right slope, next-left slope, the two weights packed as 16-bit
 * fractions of 9999 in the third float's bits, velocities); refs, how
 * many consecutive keys use each group. label names the curve in errors
 * ("AnimationCurve 'x' (id 5)"). Keys must have strictly increasing
 * times; the group arrays must agree with each other and cover every
 * key exactly. */
int anim_fbx_curve_decode(anim_arena *arena, const char *label, const int64_t *times,
                          uint32_t time_count, const double *values, uint32_t value_count,
                          const int64_t *flags, uint32_t flag_count, const float *attr,
                          uint32_t attr_count, const int64_t *refs, uint32_t ref_count,
                          double default_value, anim_fbx_curve *out, anim_error *err);

/* Checks a curve built key by key (6.1 Takes): strictly increasing times
 * ("{label} key 3: time 100 not after key 2's 100"), finite values,
 * weights clamped to [0, 1]. */
int anim_fbx_curve_check(const char *label, anim_fbx_curve *curve, anim_error *err);

/* The curve's value at time t (KTime): held before the first key and
 * after the last; segment k covers [t_k, t_k+1). */
double anim_fbx_curve_eval(const anim_fbx_curve *curve, int64_t t);

/* True when every segment of the curve is constant (or it has one key or
 * none): a glTF STEP track represents it exactly at its key times. */
bool anim_fbx_curve_is_stepped(const anim_fbx_curve *curve);

/* ---- the animation stage's interface between its files ---------------- */

/* One animated property of one target: the translation, rotation or
 * scaling of a node (three curves X/Y/Z, NULL where absent), or the
 * DeformPercent of one morph target of a mesh (curves[0]). */
typedef struct anim_fbx_anim_prop {
    uint32_t node;
    anim_path path;              /* TRANSLATION, ROTATION, SCALE or WEIGHTS */
    uint32_t mesh, target;       /* WEIGHTS: mesh index and target index */
    const anim_fbx_curve *curves[3];
    double statics[3];           /* the value where a curve is absent (FBX units,
                                  * degrees; WEIGHTS: percent) */
} anim_fbx_anim_prop;

/* A clip as read from a stack or a take, before sampling. */
typedef struct anim_fbx_clip_src {
    const char *name;
    bool has_span;               /* start/stop from the file */
    int64_t start, stop;
    anim_fbx_anim_prop *props;
    uint32_t prop_count, prop_cap;
    uint32_t curve_count;
    const char **ignored_layers;
    uint32_t ignored_layer_count;
} anim_fbx_clip_src;

/* Appends a property (arena growth). */
int anim_fbx_clip_src_add(anim_arena *arena, anim_fbx_clip_src *src, const anim_fbx_anim_prop *p,
                          anim_error *err);

/* Samples a clip into scene->clips (appended): span, tracks, values. */
int anim_fbx_clip_build(anim_fbx_scene *scene, const anim_fbx_clip_src *src, anim_error *err);

/* FBX 6.1 Takes (objs->takes) to clips; nothing when there are none. */
int anim_fbx_takes61_build(anim_fbx_scene *scene, anim_error *err);

/* Euler angles in degrees (FBX rotation order 0 XYZ .. 5 ZYX, where XYZ
 * applies X first: R = Rz * Ry * Rx) to a unit quaternion xyzw. */
void anim_fbx_euler_quat(int order, const double deg[3], double q[4]);

/* Rotation key times for an Euler motion: given the sorted times of a
 * rotation track and the curves, returns (malloc) the times with the
 * samples that keep every step at most 90 degrees per axis and in
 * angle (frame lattice first, then halving). max_added bounds the samples
 * added; over it, *over is set and NULL returned. */
int64_t *anim_fbx_euler_samples(const anim_fbx_anim_prop *rot, int order, const int64_t *times,
                                uint32_t count, double frame_rate, size_t max_added,
                                uint32_t *out_count, bool *over);

/* Makes quaternion signs continuous (q = -q when dot with the previous
 * key is negative), count quaternions xyzw. */
void anim_fbx_quat_continuity(double *q, uint32_t count);

#endif
