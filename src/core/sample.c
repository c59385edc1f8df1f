/* Track evaluation, poses and forward kinematics in f64.
 * The metric grid built on top of these lives in grid.c. */
#include "animsmith/sample.h"

#include <math.h>

anim_trs anim_trs_identity(void)
{
    anim_trs trs;
    trs.t = anim_vec3_make(0.0, 0.0, 0.0);
    trs.r = anim_quat_identity();
    trs.s = anim_vec3_make(1.0, 1.0, 1.0);
    return trs;
}

anim_trs anim_trs_from_rest(const anim_bone *bone)
{
    anim_trs trs;
    trs.t = anim_vec3_from_array(bone->rest_translation);
    trs.r = anim_quat_from_array(bone->rest_rotation);
    trs.s = anim_vec3_from_array(bone->rest_scale);
    return trs;
}

/* ---- segment search ---- */

/* A hand-built track may claim keys without a times array: it has none. */
static uint32_t key_count(const anim_track *track)
{
    return track->times ? track->key_count : 0;
}

/* Index of the first key whose time is > t, as a branch-light binary
 * search (the lower-bound form used by common standard libraries). On
 * sorted times that is exactly "first index strictly greater"; on unsorted
 * (invalid) times it still lands on some index deterministically. */
static uint32_t partition_point(const float *times, uint32_t n, double t)
{
    uint32_t base = 0, size = n;
    while (size > 1) {
        uint32_t half = size / 2;
        uint32_t mid = base + half;
        if ((double)times[mid] <= t)
            base = mid;
        size -= half;
    }
    return base + ((double)times[base] <= t ? 1u : 0u);
}

/* Shared tail of both searches: k1 (in [1, n-1]) located, compute u. */
static anim_segment finish_segment(const float *times, uint32_t k1, double t)
{
    anim_segment seg = {k1 - 1, k1, 0.0};
    double t0 = (double)times[seg.k0];
    double span = (double)times[k1] - t0;
    seg.u = span > 0.0 ? (t - t0) / span : 0.0;
    return seg;
}

/* The clamps of anim_segment (sample.h). Returns true with *seg filled when t clamps. */
static bool clamp_segment(const float *times, uint32_t n, double t, anim_segment *seg)
{
    seg->u = 0.0;
    if (n <= 1 || t <= (double)times[0]) {
        seg->k0 = seg->k1 = 0;
        return true;
    }
    if (t >= (double)times[n - 1]) {
        seg->k0 = seg->k1 = n - 1;
        return true;
    }
    return false;
}

anim_segment anim_track_segment(const anim_track *track, double t)
{
    anim_segment seg = {0, 0, 0.0};
    uint32_t n = track ? key_count(track) : 0;
    if (n == 0 || clamp_segment(track->times, n, t, &seg))
        return seg;
    uint32_t k1 = partition_point(track->times, n, t);
    if (k1 > n - 1)
        k1 = n - 1;
    if (k1 == 0) /* NaN t or NaN first key: nothing is <= t */
        return seg;
    return finish_segment(track->times, k1, t);
}

void anim_track_cursor_init(anim_track_cursor *cursor, const anim_track *track)
{
    cursor->next = 0;
    cursor->ordered = false;
    uint32_t n = track ? key_count(track) : 0;
    if (n == 0)
        return;
    for (uint32_t k = 0; k < n; k++) {
        if (!isfinite(track->times[k]) || (k > 0 && track->times[k] < track->times[k - 1]))
            return;
    }
    cursor->ordered = true;
}

anim_segment anim_track_segment_cursor(const anim_track *track, double t, anim_track_cursor *cursor)
{
    if (!cursor || !cursor->ordered || isnan(t))
        return anim_track_segment(track, t);
    anim_segment seg = {0, 0, 0.0};
    uint32_t n = key_count(track);
    if (clamp_segment(track->times, n, t, &seg))
        return seg;
    /* Here T[0] < t < T[n-1] on finite non-decreasing times, so the first
     * index with time > t lies in [1, n-1] and is what the binary search
     * finds (its predicate is monotone). */
    uint32_t c = cursor->next;
    if (c > n || (c > 0 && (double)track->times[c - 1] > t))
        c = 0; /* time went backwards: restart */
    while (c < n && (double)track->times[c] <= t)
        c++;
    cursor->next = c;
    return finish_segment(track->times, c, t);
}

/* ---- value fetch ---- */

anim_storage anim_track_storage(const anim_track *track)
{
    if (!track)
        return ANIM_STORAGE_NONE;
    if (track->components == 3)
        return ANIM_STORAGE_VEC3;
    if (track->components == 4)
        return ANIM_STORAGE_QUAT;
    return ANIM_STORAGE_NONE;
}

/* Element e's floats, or NULL past the end (tolerant fetch). */
static const float *element(const anim_track *track, uint64_t e)
{
    if (!track->values || e >= track->value_count)
        return NULL;
    return track->values + e * track->components;
}

static uint64_t value_index(const anim_track *track, uint32_t k)
{
    return track->interp == ANIM_INTERP_CUBICSPLINE ? 3u * (uint64_t)k + 1u : (uint64_t)k;
}

static anim_vec3 fetch_vec3(const anim_track *track, uint64_t e)
{
    const float *p = element(track, e);
    return p ? anim_vec3_from_f32(p) : anim_vec3_make(0.0, 0.0, 0.0);
}

static anim_quat fetch_quat(const anim_track *track, uint64_t e)
{
    const float *p = element(track, e);
    return p ? anim_quat_from_f32(p) : anim_quat_identity();
}

/* ---- interpolation ---- */

typedef struct hermite {
    double h00, h10, h01, h11;
} hermite;

static hermite hermite_basis(double u)
{
    double u2 = u * u;
    double u3 = u2 * u;
    hermite h = {2.0 * u3 - 3.0 * u2 + 1.0, u3 - 2.0 * u2 + u, -2.0 * u3 + 3.0 * u2, u3 - u2};
    return h;
}

static double key_span(const anim_track *track, anim_segment seg)
{
    return (double)track->times[seg.k1] - (double)track->times[seg.k0];
}

static anim_vec3 sample_vec3_seg(const anim_track *track, anim_segment seg)
{
    anim_vec3 v0 = fetch_vec3(track, value_index(track, seg.k0));
    if (seg.k0 == seg.k1)
        return v0;
    anim_vec3 v1 = fetch_vec3(track, value_index(track, seg.k1));
    switch (track->interp) {
    case ANIM_INTERP_STEP:
        return v0;
    case ANIM_INTERP_CUBICSPLINE: {
        double dt = key_span(track, seg);
        /* out-tangent of k0 and in-tangent of k1, scaled by dt (glTF). */
        anim_vec3 m0 = anim_vec3_scale(fetch_vec3(track, 3u * (uint64_t)seg.k0 + 2u), dt);
        anim_vec3 m1 = anim_vec3_scale(fetch_vec3(track, 3u * (uint64_t)seg.k1), dt);
        hermite h = hermite_basis(seg.u);
        anim_vec3 r = anim_vec3_scale(v0, h.h00);
        r = anim_vec3_add(r, anim_vec3_scale(m0, h.h10));
        r = anim_vec3_add(r, anim_vec3_scale(v1, h.h01));
        return anim_vec3_add(r, anim_vec3_scale(m1, h.h11));
    }
    case ANIM_INTERP_LINEAR:
    default:
        return anim_vec3_lerp(v0, v1, seg.u);
    }
}

static anim_quat sample_quat_seg(const anim_track *track, anim_segment seg)
{
    anim_quat q0 = fetch_quat(track, value_index(track, seg.k0));
    if (seg.k0 == seg.k1)
        return anim_quat_normalize(q0);
    anim_quat q1 = fetch_quat(track, value_index(track, seg.k1));
    switch (track->interp) {
    case ANIM_INTERP_STEP:
        return anim_quat_normalize(q0);
    case ANIM_INTERP_CUBICSPLINE: {
        /* glTF: componentwise Hermite on the raw stored quaternions, then
         * normalize. */
        double dt = key_span(track, seg);
        anim_quat m0 = anim_quat_scale(fetch_quat(track, 3u * (uint64_t)seg.k0 + 2u), dt);
        anim_quat m1 = anim_quat_scale(fetch_quat(track, 3u * (uint64_t)seg.k1), dt);
        hermite h = hermite_basis(seg.u);
        anim_quat r = anim_quat_scale(q0, h.h00);
        r = anim_quat_add(r, anim_quat_scale(m0, h.h10));
        r = anim_quat_add(r, anim_quat_scale(q1, h.h01));
        r = anim_quat_add(r, anim_quat_scale(m1, h.h11));
        return anim_quat_normalize(r);
    }
    case ANIM_INTERP_LINEAR:
    default:
        /* Shortest path decided on the raw stored values, before either
         * is normalized. */
        if (anim_quat_dot(q0, q1) < 0.0)
            q1 = anim_quat_neg(q1);
        return anim_quat_slerp(anim_quat_normalize(q0), anim_quat_normalize(q1), seg.u);
    }
}

/* Component i of a fetched element, zero when the element is missing. */
static double component(const float *p, uint32_t i)
{
    return p ? (double)p[i] : 0.0;
}

/* sample_vec3_seg for any element width, term by term in the same order,
 * so a 3-wide weights track samples to the vec3 sampler's values. */
static void sample_weights_seg(const anim_track *track, anim_segment seg, float *out)
{
    uint32_t c = track->components;
    const float *v0 = element(track, value_index(track, seg.k0));
    if (seg.k0 == seg.k1 || track->interp == ANIM_INTERP_STEP) {
        for (uint32_t i = 0; i < c; i++)
            out[i] = (float)component(v0, i);
        return;
    }
    const float *v1 = element(track, value_index(track, seg.k1));
    if (track->interp != ANIM_INTERP_CUBICSPLINE) {
        double w = 1.0 - seg.u;
        for (uint32_t i = 0; i < c; i++)
            out[i] = (float)(component(v0, i) * w + component(v1, i) * seg.u);
        return;
    }
    double dt = key_span(track, seg);
    const float *m0 = element(track, 3u * (uint64_t)seg.k0 + 2u); /* out-tangent of k0 */
    const float *m1 = element(track, 3u * (uint64_t)seg.k1);      /* in-tangent of k1 */
    hermite h = hermite_basis(seg.u);
    for (uint32_t i = 0; i < c; i++) {
        double r = component(v0, i) * h.h00;
        r += component(m0, i) * dt * h.h10;
        r += component(v1, i) * h.h01;
        out[i] = (float)(r + component(m1, i) * dt * h.h11);
    }
}

void anim_track_sample_weights(const anim_track *track, double t, float *out)
{
    if (!track || !out)
        return;
    sample_weights_seg(track, anim_track_segment(track, t), out);
}

anim_vec3 anim_track_sample_vec3(const anim_track *track, double t)
{
    if (anim_track_storage(track) != ANIM_STORAGE_VEC3)
        return anim_vec3_make(0.0, 0.0, 0.0);
    return sample_vec3_seg(track, anim_track_segment(track, t));
}

anim_quat anim_track_sample_quat(const anim_track *track, double t)
{
    if (anim_track_storage(track) != ANIM_STORAGE_QUAT)
        return anim_quat_identity();
    return sample_quat_seg(track, anim_track_segment(track, t));
}

bool anim_track_sample_segment_into(const anim_track *track, anim_segment seg, anim_trs *trs)
{
    if (!track || key_count(track) == 0)
        return false;
    switch (anim_track_storage(track)) {
    case ANIM_STORAGE_VEC3:
        if (track->path == ANIM_PATH_TRANSLATION) {
            trs->t = sample_vec3_seg(track, seg);
            return true;
        }
        if (track->path == ANIM_PATH_SCALE) {
            trs->s = sample_vec3_seg(track, seg);
            return true;
        }
        return false;
    case ANIM_STORAGE_QUAT:
        trs->r = sample_quat_seg(track, seg);
        return true;
    case ANIM_STORAGE_NONE:
    default:
        return false;
    }
}

bool anim_track_sample_into(const anim_track *track, double t, anim_trs *trs)
{
    if (!track)
        return false;
    return anim_track_sample_segment_into(track, anim_track_segment(track, t), trs);
}

/* ---- poses and FK ---- */

void anim_pose_rest(const anim_doc *doc, anim_trs *local)
{
    for (uint32_t b = 0; b < doc->bone_count; b++)
        local[b] = anim_trs_from_rest(&doc->bones[b]);
}

void anim_pose_sample(const anim_doc *doc, const anim_clip *clip, double t, anim_trs *local)
{
    anim_pose_rest(doc, local);
    if (!clip || !clip->tracks)
        return;
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const anim_track *track = &clip->tracks[i];
        if (track->bone >= doc->bone_count)
            continue;
        anim_track_sample_into(track, t, &local[track->bone]);
    }
}

void anim_pose_fk(const anim_doc *doc, const anim_trs *local, anim_mat4 *model, anim_quat *model_rot)
{
    for (uint32_t b = 0; b < doc->bone_count; b++) {
        uint32_t p = doc->bones[b].parent;
        bool has_parent = p != ANIM_NONE && p < b; /* parents come first */
        if (model) {
            anim_mat4 m = anim_mat4_from_trs(local[b].t, local[b].r, local[b].s);
            model[b] = has_parent ? anim_mat4_mul(&model[p], &m) : m;
        }
        if (model_rot)
            model_rot[b] = has_parent ? anim_quat_mul(model_rot[p], local[b].r) : local[b].r;
    }
}
