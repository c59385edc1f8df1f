/* src/report/ owns the offline HTML report: the lint run and grids of the
 * clips it shows (report_doc.c), the embedded data (report_data.c,
 * report_findings.c, report_local.c, report_mesh.c), the SVG charts
 * (chart_*.c, svg.c), the page (report_page.c), the two forms
 * (report_single.c, report_compare.c), the viewer's CSS and JS (viewer/,
 * embedded at build time) and, here, the illustrative blend in binary64
 * (see blend.h): the reference the viewer's blend is checked against. */
#include "report/blend.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "animsmith/math.h"

/* Shortest-hemisphere nlerp of two stored rotations. Both are normalized
 * first so the hemisphere test and the weights see unit rotations; an
 * exact zero dot is not a reason to flip. A zero-length input gives NaN,
 * which the caller's finiteness check refuses. */
static anim_quat blend_rotation(const float *qa, const float *qb, double w)
{
    anim_quat a = anim_quat_normalize(anim_quat_from_f32(qa));
    anim_quat b = anim_quat_normalize(anim_quat_from_f32(qb));
    if (anim_quat_dot(a, b) < 0.0)
        b = anim_quat_neg(b);
    return anim_quat_normalize(anim_quat_add(anim_quat_scale(a, 1.0 - w), anim_quat_scale(b, w)));
}

static anim_mat4 blend_local(const float *ra, const float *rb, double w)
{
    anim_vec3 t = anim_vec3_lerp(anim_vec3_from_f32(ra), anim_vec3_from_f32(rb), w);
    anim_quat q = blend_rotation(ra + 3, rb + 3, w);
    anim_vec3 s = anim_vec3_lerp(anim_vec3_from_f32(ra + 7), anim_vec3_from_f32(rb + 7), w);
    return anim_mat4_from_trs(t, q, s);
}

static bool drawable(double x)
{
    return isfinite(x) && fabs(x) <= FLT_MAX;
}

int report_blend_positions(const int32_t *parents, uint32_t bone_count, const float *a,
                           const float *b, double w, double *out_xyz)
{
    if (!(w >= 0.0 && w <= 1.0))
        return -1;
    for (uint32_t i = 0; i < bone_count; i++)
        if (parents[i] != -1 && (parents[i] < 0 || (uint32_t)parents[i] >= i))
            return -1;
    if (bone_count == 0)
        return 0;
    anim_mat4 *world = malloc((size_t)bone_count * sizeof *world);
    if (!world)
        return -1;
    int rc = 0;
    for (uint32_t i = 0; i < bone_count; i++) {
        size_t off = (size_t)i * REPORT_BLEND_RECORD_FLOATS;
        anim_mat4 local = blend_local(a + off, b + off, w);
        world[i] = parents[i] < 0 ? local : anim_mat4_mul(&world[parents[i]], &local);
        anim_vec3 p = anim_mat4_translation(&world[i]);
        if (!drawable(p.x) || !drawable(p.y) || !drawable(p.z)) {
            rc = -1;
            break;
        }
        out_xyz[3 * (size_t)i] = p.x;
        out_xyz[3 * (size_t)i + 1] = p.y;
        out_xyz[3 * (size_t)i + 2] = p.z;
    }
    free(world);
    return rc;
}

bool report_blend_stream_valid(const float *recs, uint64_t count, const char **reason)
{
    for (uint64_t r = 0; r < count; r++) {
        const float *v = recs + r * REPORT_BLEND_RECORD_FLOATS;
        for (int c = 0; c < REPORT_BLEND_RECORD_FLOATS; c++)
            if (!isfinite(v[c])) {
                if (reason)
                    *reason = "a sampled local transform component is not finite";
                return false;
            }
        double len = anim_quat_len(anim_quat_from_f32(v + 3));
        if (!(fabs(len - 1.0) <= REPORT_BLEND_QUAT_LEN_TOLERANCE)) {
            if (reason)
                *reason = "a sampled rotation's length is outside 1 +/- 1e-4";
            return false;
        }
    }
    return true;
}
