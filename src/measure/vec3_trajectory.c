/* Vec3 trajectory analysis. STEP and LINEAR tracks never leave
 * the range of their keys, so the keys are the whole story; a CUBICSPLINE
 * segment can overshoot between keys, so each segment's interior extrema
 * (of every component and of every component difference, which is what the
 * pairwise spread measures) are visited too.
 *
 * Values are widened to double and accumulated in double; the predicates
 * keep an f32 comparison against the tolerance because that step decides
 * whether a finding exists, and it must judge the stored binary32 values,
 * not widening noise. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/math.h"
#include "animsmith/vec3_trajectory.h"

#define ROOT_EPS 1e-12
#define ROOT_DEDUP 1e-6

/* Element e's three floats when present and finite, else NULL; checked
 * says the whole visited range is known present and finite already. */
static const float *element(const anim_track *track, uint64_t e, bool checked)
{
    if (checked)
        return track->values + e * 3u;
    if (!track->values || e >= track->value_count)
        return NULL;
    const float *v = track->values + e * 3u;
    if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
        return NULL;
    return v;
}

/* Whether every element the analysis visits (keys 0.. of a linear or step
 * track; of a cubic one its values and the tangents between keys, 1 to
 * 3K-2) is present and finite, found in one scan: then no element needs
 * its own test. false also when some are missing, which the per-element
 * tests then find. */
static bool visited_elements_ok(const anim_track *track, bool cubic)
{
    uint64_t keys = track->key_count;
    uint64_t lo = cubic ? 1u : 0u, end = cubic ? 3u * keys - 1u : keys; /* end: one past */
    if (!track->values || end > track->value_count)
        return false;
    size_t floats = (size_t)(end - lo) * 3u;
    return anim_f32_first_nonfinite(track->values + lo * 3u, floats) == floats;
}

static double spread_of(const double v[3])
{
    double s = fabs(v[0] - v[1]);
    double xz = fabs(v[0] - v[2]);
    double yz = fabs(v[1] - v[2]);
    if (xz > s)
        s = xz;
    if (yz > s)
        s = yz;
    return s;
}

static void start(anim_vec3_trajectory *tr, const double v[3], double t)
{
    for (int c = 0; c < 3; c++)
        tr->min[c] = tr->max[c] = v[c];
    tr->max_spread = spread_of(v);
    tr->max_spread_time = t;
}

static void visit(anim_vec3_trajectory *tr, const double v[3], double t)
{
    for (int c = 0; c < 3; c++) {
        if (v[c] < tr->min[c])
            tr->min[c] = v[c];
        if (v[c] > tr->max[c])
            tr->max[c] = v[c];
    }
    double s = spread_of(v);
    if (s > tr->max_spread) { /* strictly greater: the first maximum keeps its time */
        tr->max_spread = s;
        tr->max_spread_time = t;
    }
}

static void widen(const float *f, double out[3])
{
    out[0] = f[0];
    out[1] = f[1];
    out[2] = f[2];
}

typedef struct {
    float u[12]; /* at most 2 roots for each of 6 polynomials */
    int count;
} root_set;

static void add_root(root_set *set, double r)
{
    if (!(r > 0.0 && r < 1.0))
        return;
    float u = (float)r;
    for (int i = 0; i < set->count; i++)
        if (fabsf(set->u[i] - u) < ROOT_DEDUP)
            return;
    if (set->count < (int)(sizeof set->u / sizeof set->u[0]))
        set->u[set->count++] = u;
}

/* Roots of the derivative 3a·u² + 2b·u + c of a·u³ + b·u² + c·u + d, with
 * the numerically stable quadratic formula. */
static void derivative_roots(double a, double b, double c, root_set *set)
{
    double qa = 3.0 * a, qb = 2.0 * b;
    if (fabs(qa) <= ROOT_EPS) {
        if (fabs(qb) > ROOT_EPS)
            add_root(set, -c / qb);
        return;
    }
    double disc = fma(qb, qb, -(4.0 * qa * c));
    if (disc < 0.0)
        return;
    double root = sqrt(disc);
    double q = -0.5 * (qb + (qb >= 0.0 ? root : -root));
    if (fabs(q) > ROOT_EPS) {
        add_root(set, q / qa);
        add_root(set, c / q);
    } else {
        add_root(set, (-qb - root) / (2.0 * qa));
        add_root(set, (-qb + root) / (2.0 * qa));
    }
}

/* Visits the interior extrema of one Hermite segment between keys k-1, k. */
static void cubic_segment(anim_vec3_trajectory *tr, const double p0[3], const double m0[3],
                          const double p1[3], const double m1[3], double t0, double dt)
{
    double a[3], b[3], c[3];
    for (int i = 0; i < 3; i++) {
        a[i] = 2.0 * p0[i] + m0[i] - 2.0 * p1[i] + m1[i];
        b[i] = -3.0 * p0[i] - 2.0 * m0[i] + 3.0 * p1[i] - m1[i];
        c[i] = m0[i];
    }
    root_set set = {{0}, 0};
    for (int i = 0; i < 3; i++)
        derivative_roots(a[i], b[i], c[i], &set);
    static const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    for (int p = 0; p < 3; p++) {
        int i = pairs[p][0], j = pairs[p][1];
        derivative_roots(a[i] - a[j], b[i] - b[j], c[i] - c[j], &set);
    }
    for (int r = 0; r < set.count; r++) {
        double u = set.u[r];
        double v[3];
        for (int i = 0; i < 3; i++)
            v[i] = ((a[i] * u + b[i]) * u + c[i]) * u + p0[i];
        visit(tr, v, (double)(float)(t0 + dt * u));
    }
}

static bool times_ok(const anim_track *track)
{
    if (track->key_count == 0 || !track->times)
        return false;
    return anim_f32_first_nonfinite(track->times, track->key_count) == track->key_count &&
           anim_f32_strictly_increasing(track->times, track->key_count);
}

bool anim_vec3_trajectory_analyze(const anim_track *track, anim_vec3_trajectory *out)
{
    if (!track || track->components != 3 || !times_ok(track))
        return false;
    const bool cubic = track->interp == ANIM_INTERP_CUBICSPLINE;
    const bool checked = visited_elements_ok(track, cubic);
    anim_vec3_trajectory tr;
    double v[3];
    const float *first = element(track, cubic ? 1u : 0u, checked);
    if (!first)
        return false;
    widen(first, v);
    start(&tr, v, track->times[0]);
    for (uint32_t k = 1; k < track->key_count; k++) {
        if (!cubic) {
            const float *e = element(track, k, checked);
            if (!e)
                return false;
            widen(e, v);
            visit(&tr, v, track->times[k]);
            continue;
        }
        const float *prev = element(track, 3u * (uint64_t)(k - 1) + 1u, checked);
        const float *out_tan = element(track, 3u * (uint64_t)(k - 1) + 2u, checked);
        const float *in_tan = element(track, 3u * (uint64_t)k, checked);
        const float *cur = element(track, 3u * (uint64_t)k + 1u, checked);
        if (!prev || !out_tan || !in_tan || !cur)
            return false;
        double t0 = track->times[k - 1];
        double dt = (double)track->times[k] - t0;
        double p0[3], p1[3], m0[3], m1[3];
        widen(prev, p0);
        widen(cur, p1);
        for (int i = 0; i < 3; i++) {
            m0[i] = (double)out_tan[i] * dt;
            m1[i] = (double)in_tan[i] * dt;
        }
        visit(&tr, p1, track->times[k]);
        cubic_segment(&tr, p0, m0, p1, m1, t0, dt);
    }
    *out = tr;
    return true;
}

bool anim_vec3_trajectory_varies(const anim_vec3_trajectory *tr, double tol)
{
    float limit = (float)tol;
    for (int c = 0; c < 3; c++)
        if ((float)(tr->max[c] - tr->min[c]) > limit)
            return true;
    return false;
}

bool anim_vec3_trajectory_non_uniform(const anim_vec3_trajectory *tr, double tol)
{
    return (float)tr->max_spread > (float)tol;
}

double anim_vec3_trajectory_unit_deviation(const anim_vec3_trajectory *tr)
{
    double worst = 0.0;
    for (int c = 0; c < 3; c++) {
        double lo = fabs(tr->min[c] - 1.0), hi = fabs(tr->max[c] - 1.0);
        if (lo > worst)
            worst = lo;
        if (hi > worst)
            worst = hi;
    }
    return worst;
}
