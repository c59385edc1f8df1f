/* Rotation sampling for the animation stage: Euler angles to quaternions,
 * the extra key times an Euler motion needs so that glTF's slerp (which
 * takes the shorter arc between neighbouring keys) follows it, and
 * quaternion sign continuity. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/math.h"
#include "io/fbx/fbx_curve.h"

/* A step larger than this (per Euler axis, or as the angle between the
 * two orientations) is split: slerp over at most 90 degrees cannot take
 * the wrong way round. */
#define MAX_STEP_DEG 90.0
/* Rounding slack, so an exact 90-degree step is not split again. */
#define STEP_SLACK_DEG 1e-9
/* Halving stops at adjacent ticks; int64 intervals halve at most 63 times. */
#define MAX_HALVING_DEPTH 64

void anim_fbx_euler_quat(int order, const double deg[3], double q[4])
{
    /* The axis applied first, second, third for each FBX order. */
    static const int seq[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}};
    if (order < 0 || order > 5)
        order = 0;
    anim_quat r = anim_quat_identity();
    for (int i = 0; i < 3; i++) {
        int axis = seq[order][i];
        anim_vec3 v = anim_vec3_make(axis == 0, axis == 1, axis == 2);
        /* Later rotations multiply on the left: R = R3 * R2 * R1. */
        r = anim_quat_mul(anim_quat_from_axis_angle(v, anim_rad_from_deg(deg[axis])), r);
    }
    q[0] = r.x;
    q[1] = r.y;
    q[2] = r.z;
    q[3] = r.w;
}

void anim_fbx_quat_continuity(double *q, uint32_t count)
{
    for (uint32_t i = 1; i < count; i++) {
        double *a = q + 4u * (i - 1), *b = q + 4u * i;
        if (a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0.0)
            for (int c = 0; c < 4; c++)
                b[c] = -b[c];
    }
}

static void euler_at(const anim_fbx_anim_prop *rot, int64_t t, double e[3])
{
    for (int i = 0; i < 3; i++)
        e[i] = rot->curves[i] ? anim_fbx_curve_eval(rot->curves[i], t) : rot->statics[i];
}

/* The larger of the largest per-axis change and the angle between the two
 * orientations, in degrees. */
static double step_deg(const anim_fbx_anim_prop *rot, int order, int64_t a, int64_t b)
{
    double ea[3], eb[3], qa[4], qb[4];
    euler_at(rot, a, ea);
    euler_at(rot, b, eb);
    double m = 0.0;
    for (int i = 0; i < 3; i++)
        m = fmax(m, fabs(eb[i] - ea[i]));
    anim_fbx_euler_quat(order, ea, qa);
    anim_fbx_euler_quat(order, eb, qb);
    double ang = anim_deg_from_rad(anim_quat_angle_between(anim_quat_from_array(qa), anim_quat_from_array(qb)));
    return fmax(m, ang);
}

typedef struct {
    int64_t *t;
    uint32_t n, cap;
    size_t added, max_added;
    bool over, nomem;
    const anim_fbx_anim_prop *rot;
    int order;
} sampler;

static void push(sampler *s, int64_t t, bool added)
{
    if (s->over || s->nomem)
        return;
    if (added && ++s->added > s->max_added) {
        s->over = true;
        return;
    }
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? s->cap * 2u : 16u;
        if (cap <= s->cap) {
            s->over = true;
            return;
        }
        int64_t *t2 = realloc(s->t, (size_t)cap * sizeof *t2);
        if (!t2) {
            s->nomem = true;
            return;
        }
        s->t = t2;
        s->cap = cap;
    }
    s->t[s->n++] = t;
}

/* Pushes the midpoints (in time order) that bring every step of (a, b)
 * to at most MAX_STEP_DEG; neither end is pushed. */
static void halve(sampler *s, int64_t a, int64_t b, int depth)
{
    if (s->over || s->nomem || depth >= MAX_HALVING_DEPTH || b - a < 2)
        return;
    if (step_deg(s->rot, s->order, a, b) <= MAX_STEP_DEG + STEP_SLACK_DEG)
        return;
    int64_t m = a + (b - a) / 2;
    halve(s, a, m, depth + 1);
    push(s, m, true);
    halve(s, m, b, depth + 1);
}

/* The frame lattice strictly inside (a, b), each step then halved. */
static void lattice(sampler *s, int64_t a, int64_t b, double frame_rate)
{
    double ft = (double)ANIM_FBX_KTIME_PER_SECOND / frame_rate;
    double frames = ((double)b - (double)a) / ft;
    if (!(frames < (double)(s->max_added - s->added) + 1.0)) {
        s->over = true;
        return;
    }
    int64_t prev = a;
    for (double k = floor((double)a / ft) + 1.0;; k += 1.0) {
        double tf = nearbyint(k * ft);
        if (!(tf < (double)b))
            break;
        int64_t t = (int64_t)tf;
        if (t <= prev)
            continue;
        halve(s, prev, t, 0);
        push(s, t, true);
        prev = t;
        if (s->over || s->nomem)
            return;
    }
    halve(s, prev, b, 0);
}

int64_t *anim_fbx_euler_samples(const anim_fbx_anim_prop *rot, int order, const int64_t *times,
                                uint32_t count, double frame_rate, size_t max_added,
                                uint32_t *out_count, bool *over)
{
    sampler s = {.max_added = max_added, .rot = rot, .order = order};
    if (!(frame_rate > 0.0) || !isfinite(frame_rate))
        frame_rate = 30.0;
    *over = false;
    *out_count = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (i > 0 && step_deg(rot, order, times[i - 1], times[i]) > MAX_STEP_DEG + STEP_SLACK_DEG)
            lattice(&s, times[i - 1], times[i], frame_rate);
        push(&s, times[i], false);
    }
    if (s.over || s.nomem) {
        free(s.t);
        *over = s.over;
        return NULL;
    }
    if (!s.t) /* count == 0: an empty, non-NULL result */
        s.t = malloc(sizeof *s.t);
    *out_count = s.n;
    return s.t;
}

int anim_fbx_clip_src_add(anim_arena *arena, anim_fbx_clip_src *src, const anim_fbx_anim_prop *p,
                          anim_error *err)
{
    if (src->prop_count == src->prop_cap) {
        uint32_t cap = src->prop_cap ? src->prop_cap * 2u : 16u;
        anim_fbx_anim_prop *n = cap > src->prop_cap ? anim_arena_alloc(arena, (size_t)cap * sizeof *n) : NULL;
        if (!n)
            return anim_error_set(err, ANIM_ERR_NOMEM, "clip '%s': out of memory", src->name);
        if (src->prop_count)
            memcpy(n, src->props, (size_t)src->prop_count * sizeof *n);
        src->props = n;
        src->prop_cap = cap;
    }
    src->props[src->prop_count++] = *p;
    return 0;
}
