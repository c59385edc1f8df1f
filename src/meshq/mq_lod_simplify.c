/* One primitive reduced at one fraction of its index count: meshoptimizer
 * simplifies the index buffer, the kept vertices are compacted in
 * first-use order (meshopt_optimizeVertexFetchRemap), and their influences
 * are cut to four and renormalized for the writer's JOINTS_0 / WEIGHTS_0.
 *
 * Seams (lod.h). meshoptimizer 0.18 finds seams by bit-equal positions:
 * twins at one position with different attributes collapse only together
 * and only along the seam. To keep them all (ANIM_LOD_SEAMS_LOCK) the
 * simplifier gets every twin but the first moved by a few ulps, so no
 * twins remain, every seam edge is an open border, and
 * meshopt_SimplifyLockBorder keeps its vertices where they are. Only the
 * simplifier's copy moves: the writer gathers the stored positions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <meshoptimizer.h>

#include "meshq/mq_lod_internal.h"

static const char *const joint_names[MQ_GLTF_MAX_INFLUENCE_SETS] = {
    "JOINTS_0", "JOINTS_1", "JOINTS_2", "JOINTS_3", "JOINTS_4", "JOINTS_5", "JOINTS_6", "JOINTS_7"};
static const char *const weight_names[MQ_GLTF_MAX_INFLUENCE_SETS] = {
    "WEIGHTS_0", "WEIGHTS_1", "WEIGHTS_2", "WEIGHTS_3",
    "WEIGHTS_4", "WEIGHTS_5", "WEIGHTS_6", "WEIGHTS_7"};

void mq_lod_influences(const mq_gltf_prim *p, uint32_t v, uint32_t joints[4], float weights[4])
{
    uint32_t j[4 * MQ_GLTF_MAX_INFLUENCE_SETS];
    double w[4 * MQ_GLTF_MAX_INFLUENCE_SETS];
    uint32_t n = 0;
    for (uint32_t s = 0; s < p->influence_sets; s++)
        for (uint32_t c = 0; c < 4; c++) {
            size_t at = (size_t)s * 4 * p->vertex_count + 4 * (size_t)v + c;
            double x = p->weights[at];
            if (!(x > 0))
                continue;
            uint32_t k = 0;
            while (k < n && j[k] != p->joints[at])
                k++;
            if (k == n) {
                j[n] = p->joints[at];
                w[n++] = 0;
            }
            w[k] += x;
        }
    /* Largest first, ties to the lower joint: one input, one order. */
    for (uint32_t a = 1; a < n; a++)
        for (uint32_t b = a; b > 0 && (w[b] > w[b - 1] || (w[b] == w[b - 1] && j[b] < j[b - 1]));
             b--) {
            double tw = w[b];
            w[b] = w[b - 1];
            w[b - 1] = tw;
            uint32_t tj = j[b];
            j[b] = j[b - 1];
            j[b - 1] = tj;
        }
    uint32_t keep = n < 4 ? n : 4;
    double sum = 0;
    for (uint32_t k = 0; k < keep; k++)
        sum += w[k];
    for (uint32_t k = 0; k < 4; k++) {
        joints[k] = k < keep ? j[k] : 0;
        weights[k] = k < keep && sum > 0 ? (float)(w[k] / sum) : 0.0f;
    }
    if (keep == 0 || !(sum > 0))
        return;
    double got = 0;
    for (uint32_t k = 0; k < keep; k++)
        got += (double)weights[k];
    weights[0] = (float)((double)weights[0] + (1.0 - got));
}

/* Sorts vertex ids by their position bits (then id). */
static const float *sort_positions;
static int by_position(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int c = memcmp(sort_positions + 3 * (size_t)x, sort_positions + 3 * (size_t)y,
                   3 * sizeof(float));
    return c ? c : (x > y) - (x < y);
}

/* Marks twins (vertices sharing bit-equal positions) in twin[] and, when
 * moved is non-NULL, writes the simplifier's positions: twin k of a group
 * moved by k ulps in x. Returns -1 on out of memory. */
static int find_twins(const mq_gltf_prim *p, bool *twin, float *moved)
{
    uint32_t n = p->vertex_count;
    uint32_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!order)
        return -1;
    for (uint32_t v = 0; v < n; v++)
        order[v] = v;
    /* qsort is not reentrant-safe, but the LOD runs on one thread. */
    sort_positions = p->positions;
    qsort(order, n, sizeof *order, by_position);
    for (uint32_t i = 0; i < n;) {
        uint32_t e = i + 1;
        while (e < n && !memcmp(p->positions + 3 * (size_t)order[i],
                                p->positions + 3 * (size_t)order[e], 3 * sizeof(float)))
            e++;
        for (uint32_t k = i; e - i > 1 && k < e; k++) {
            twin[order[k]] = true;
            if (moved) {
                float x = p->positions[3 * (size_t)order[k]];
                for (uint32_t s = 0; s < k - i; s++)
                    x = nextafterf(x, INFINITY);
                moved[3 * (size_t)order[k]] = x;
            }
        }
        i = e;
    }
    free(order);
    return 0;
}

int mq_lod_prim_reduce(const mq_gltf_prim *p, uint32_t mesh, double ratio, anim_lod_seams seams,
                       anim_arena *arena, mq_lod_prim *out, anim_error *err)
{
    memset(out, 0, sizeof *out);
    size_t nidx = (size_t)p->triangle_count * 3;
    size_t nv = p->vertex_count;
    unsigned int *idx = anim_arena_alloc(arena, (nidx ? nidx : 1) * sizeof *idx);
    unsigned int *remap = anim_arena_alloc(arena, (nv ? nv : 1) * sizeof *remap);
    bool *twin = anim_arena_calloc(arena, nv ? nv : 1, sizeof *twin);
    float *moved = seams == ANIM_LOD_SEAMS_LOCK
                       ? anim_arena_alloc(arena, (nv ? nv : 1) * 3 * sizeof *moved)
                       : NULL;
    if (!idx || !remap || !twin || (seams == ANIM_LOD_SEAMS_LOCK && !moved))
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    if (moved)
        memcpy(moved, p->positions, nv * 3 * sizeof *moved);
    if (find_twins(p, twin, moved))
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    size_t kept = nidx;
    if (ratio >= 1) {
        memcpy(idx, p->indices, nidx * sizeof *idx);
    } else {
        size_t target = (size_t)floor(ratio * (double)(nidx / 3)) * 3;
        if (target < 3)
            target = 3;
        float result_error = 0;
        /* target_error 1: the whole extent, so the count alone decides. */
        kept = meshopt_simplify(idx, p->indices, nidx, moved ? moved : p->positions, nv,
                                3 * sizeof(float), target, 1.0f, meshopt_SimplifyLockBorder,
                                &result_error);
    }
    size_t unique = meshopt_optimizeVertexFetchRemap(remap, idx, kept, nv);
    uint32_t *source = anim_arena_alloc(arena, (unique ? unique : 1) * sizeof *source);
    uint32_t *indices = anim_arena_alloc(arena, (kept ? kept : 1) * sizeof *indices);
    if (!source || !indices)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (size_t v = 0; v < nv; v++)
        if (remap[v] != ~0u)
            source[remap[v]] = (uint32_t)v;
    for (size_t k = 0; k < kept; k++)
        indices[k] = remap[idx[k]];
    /* Seam vertices of the source's triangles, and those the candidate
     * left out (0 under the lock unless a whole piece vanished). */
    bool *used = anim_arena_calloc(arena, nv ? nv : 1, sizeof *used);
    if (!used)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (size_t k = 0; k < nidx; k++)
        used[p->indices[k]] = true;
    for (size_t v = 0; v < nv; v++)
        if (used[v] && twin[v]) {
            out->seam_vertices++;
            out->seam_dropped += remap[v] == ~0u;
        }
    out->o.mesh = mesh;
    out->o.primitive = p->primitive;
    out->o.vertex_count = (uint32_t)unique;
    out->o.vertex_source = source;
    out->o.indices = indices;
    out->o.index_count = (uint32_t)kept;
    if (p->influence_sets == 0)
        return 0;
    uint32_t top = 0;
    float *w = anim_arena_alloc(arena, (unique ? unique : 1) * 4 * sizeof *w);
    uint32_t *j = anim_arena_alloc(arena, (unique ? unique : 1) * 4 * sizeof *j);
    if (!w || !j)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (size_t v = 0; v < unique; v++) {
        mq_lod_influences(p, source[v], j + 4 * v, w + 4 * v);
        for (int c = 0; c < 4; c++)
            top = j[4 * v + c] > top ? j[4 * v + c] : top;
    }
    /* UNSIGNED_BYTE joints when every joint fits, as most files store. */
    void *jd;
    if (top <= 255) {
        uint8_t *b = anim_arena_alloc(arena, (unique ? unique : 1) * 4);
        if (!b)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        for (size_t k = 0; k < 4 * unique; k++)
            b[k] = (uint8_t)j[k];
        jd = b;
    } else {
        uint16_t *s = anim_arena_alloc(arena, (unique ? unique : 1) * 4 * sizeof *s);
        if (!s)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        for (size_t k = 0; k < 4 * unique; k++)
            s[k] = (uint16_t)j[k];
        jd = s;
    }
    out->attrs[0] = (anim_gltf_attribute_data){
        "JOINTS_0", top <= 255 ? ANIM_GLTF_UNSIGNED_BYTE : ANIM_GLTF_UNSIGNED_SHORT, 4, false, jd};
    out->attrs[1] = (anim_gltf_attribute_data){"WEIGHTS_0", ANIM_GLTF_FLOAT, 4, false, w};
    uint32_t na = 2;
    for (uint32_t s = 1; s < p->influence_sets; s++) {
        out->attrs[na++] = (anim_gltf_attribute_data){joint_names[s], 0, 0, false, NULL};
        out->attrs[na++] = (anim_gltf_attribute_data){weight_names[s], 0, 0, false, NULL};
    }
    out->o.attributes = out->attrs;
    out->o.attribute_count = na;
    return 0;
}
