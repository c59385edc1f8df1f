/* --envelope-from-clips: the envelope a character's own clips declare.
 *
 * Each bone's motion range is read off every clip of the source, sampled
 * at every key time of its tracks and on a uniform 60 fps grid (a key
 * time is where a LINEAR or STEP track reaches its extremes; the grid
 * catches a CUBICSPLINE overshoot between keys): the largest rotation
 * away from rest, the per-axis scale ratios to rest, and the largest
 * joint translation away from rest in the parent's world units. The
 * entry for joint k composes the chain from the reference's child down
 * to k with anim_mq_envelope_bone_of, so the bound is the helper's,
 * conservative for any motion inside the ranges sampled. What sampling
 * cannot see (a cubic overshoot narrower than a 60 fps frame) is outside
 * it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/math.h"
#include "animsmith/sample.h"
#include "meshq/mq_gltf_internal.h"

#define MQ_CLIP_FPS 60.0
/* A rest scale whose axes differ by more than this (relative) is not
 * uniform: the bone's motion is then no rotation and scale of bind space.
 * Exporters store a decomposed rest scale in float32, and a Mixamo rig's
 * "1" comes out as 1.0000049 (about 40 ulps); reading that as uniform
 * leaves unproven at most this fraction of the bone's reach (20 microns
 * on a 2 m character, under a hundredth of a 5 mm budget), which a
 * refusal of every such rig would not serve. */
#define MQ_UNIFORM_SCALE_TOLERANCE 1e-5

typedef struct bone_motion {
    double rotate_max;
    double scale_min[3], scale_max[3];
    double translate; /* local units */
} bone_motion;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The angle of rest^-1 rot, in [0, pi]; atan2 rather than acos keeps it
 * exact near 0 and for float-stored quarter turns. */
static double angle_from_rest(anim_quat rest, anim_quat rot)
{
    anim_quat d = anim_quat_mul(anim_quat_conj(rest), rot);
    double v = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    double a = 2 * atan2(v, fabs(d.w));
    return a > ANIM_PI ? ANIM_PI : a;
}

static void observe(const anim_doc *doc, const anim_trs *local, bone_motion *motion)
{
    for (uint32_t b = 0; b < doc->bone_count; b++) {
        const anim_bone *bone = &doc->bones[b];
        bone_motion *m = &motion[b];
        anim_quat rest = anim_quat_from_array(bone->rest_rotation);
        double a = angle_from_rest(rest, local[b].r);
        if (a > m->rotate_max || isnan(a))
            m->rotate_max = isnan(a) ? ANIM_PI : a;
        const double s[3] = {local[b].s.x, local[b].s.y, local[b].s.z};
        for (int k = 0; k < 3; k++) {
            double r = bone->rest_scale[k] != 0 ? s[k] / bone->rest_scale[k] : 1;
            if (r < m->scale_min[k])
                m->scale_min[k] = r;
            if (r > m->scale_max[k])
                m->scale_max[k] = r;
        }
        anim_vec3 rt = anim_vec3_from_array(bone->rest_translation);
        double t = anim_vec3_dist(local[b].t, rt);
        if (t > m->translate)
            m->translate = t;
    }
}

/* Samples one clip into motion. */
static int sample_clip(const anim_doc *doc, const anim_clip *clip, anim_trs *local,
                       bone_motion *motion, anim_error *err)
{
    double d = isfinite(clip->duration_s) && clip->duration_s > 0 ? clip->duration_s : 0;
    /* The budget is checked in double before any conversion: a duration
     * read from a file can be far past what a 64-bit count holds. */
    double grid_f = floor(d * MQ_CLIP_FPS) + 2;
    double bytes_f = (grid_f + (double)anim_clip_trs_key_count(clip)) * (double)sizeof(double);
    if (!(bytes_f <= (double)anim_limits_get(&doc->limits, ANIM_LIMIT_GRID)))
        return anim_limit_error(err, &doc->limits, ANIM_LIMIT_GRID,
                                "the sample times of a clip for --envelope-from-clips");
    /* Within the budget, so the count and its bytes fit a size_t. */
    uint64_t grid = (uint64_t)grid_f;
    size_t bytes = (size_t)(grid + anim_clip_trs_key_count(clip)) * sizeof(double);
    double *times = malloc(bytes ? bytes : 1);
    if (!times)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    size_t k = 0;
    for (uint64_t i = 0; i + 1 < grid; i++)
        times[k++] = (double)i / MQ_CLIP_FPS;
    times[k++] = d;
    for (uint32_t t = 0; t < clip->track_count; t++)
        for (uint32_t j = 0; j < clip->tracks[t].key_count; j++)
            if (isfinite(clip->tracks[t].times[j]))
                times[k++] = clip->tracks[t].times[j];
    qsort(times, k, sizeof *times, cmp_double);
    for (size_t i = 0; i < k; i++) {
        if (i > 0 && times[i] == times[i - 1])
            continue;
        anim_pose_sample(doc, clip, times[i], local);
        observe(doc, local, motion);
    }
    free(times);
    return 0;
}

static bool uniform(const double s[3])
{
    double lo = fmin(fabs(s[0]), fmin(fabs(s[1]), fabs(s[2])));
    double hi = fmax(fabs(s[0]), fmax(fabs(s[1]), fabs(s[2])));
    return hi > 0 && (hi - lo) <= MQ_UNIFORM_SCALE_TOLERANCE * hi;
}

/* The largest column norm of a world matrix: its scale when uniform. */
static double world_scale(const anim_mat4 *m)
{
    double s = 0;
    for (int c = 0; c < 3; c++) {
        anim_vec3 col = anim_mat4_column(m, c);
        s = fmax(s, anim_vec3_len(col));
    }
    return s;
}

static uint32_t joint_of(const anim_skin *skin, uint32_t node)
{
    for (uint32_t j = 0; j < skin->joint_count; j++)
        if (skin->joints[j] == node)
            return j;
    return ANIM_NONE;
}

/* A bone's range as the helper reads it: its bind pivot (the skin's
 * when it is a joint, else its world rest position), the motion sampled,
 * and the translation in its parent's world units (Mixamo's 0.01). */
static void range_of(const anim_doc *doc, const anim_skin *skin, const mq_gltf_mesh *mesh,
                     const anim_mat4 *world, const bone_motion *motion, uint32_t bone,
                     anim_mq_bone_range *dst)
{
    const anim_bone *b = &doc->bones[bone];
    dst->bone = b->name;
    uint32_t j = joint_of(skin, b->node);
    if (j != ANIM_NONE) {
        memcpy(dst->pivot, mesh->pivots + 3 * (size_t)j, sizeof dst->pivot);
    } else {
        anim_vec3 p = anim_mat4_translation(&world[bone]);
        dst->pivot[0] = p.x;
        dst->pivot[1] = p.y;
        dst->pivot[2] = p.z;
    }
    dst->rotate_max = motion[bone].rotate_max;
    memcpy(dst->scale_min, motion[bone].scale_min, sizeof dst->scale_min);
    memcpy(dst->scale_max, motion[bone].scale_max, sizeof dst->scale_max);
    double ps = b->parent != ANIM_NONE ? world_scale(&world[b->parent]) : 1;
    dst->translate = motion[bone].translate * ps;
}

int mq_gltf_envelope_from_clips(const anim_asset *asset, const mq_gltf_mesh *mesh,
                                const char *who, anim_arena *arena, mq_named_envelope *out,
                                const char **refusal, anim_error *err)
{
    const anim_doc *doc = &asset->doc;
    const anim_skin *skin = &doc->skins[mesh->skin];
    memset(out, 0, sizeof *out);
    *refusal = NULL;
    uint32_t nb = doc->bone_count;
    bone_motion *motion = calloc(nb ? nb : 1, sizeof *motion);
    anim_trs *local = malloc((size_t)(nb ? nb : 1) * sizeof *local);
    anim_mat4 *world = malloc((size_t)(nb ? nb : 1) * sizeof *world);
    anim_mq_bone_range *ranges = malloc((size_t)(nb ? nb : 1) * 2 * sizeof *ranges);
    bool *bound = calloc(mesh->bone_count ? mesh->bone_count : 1, 1);
    bool *listed = calloc(doc->node_count ? doc->node_count : 1, 1);
    int rc = 0;
    if (!motion || !local || !world || !ranges || !bound || !listed) {
        rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        goto done;
    }
    /* A node listed twice in the skin is two joints with one motion: the
     * chain between them is empty and the helper has no range for it. */
    for (uint32_t k = 0; k < skin->joint_count; k++) {
        if (listed[skin->joints[k]]) {
            *refusal = anim_arena_printf(
                arena,
                "SKINNING_RANGE_UNSUPPORTED: %s: joint %u ('%s') lists a node the skin already "
                "lists; required each joint once — two joints of one node have no chain between "
                "them",
                who, k, mesh->bone_names[k]);
            rc = 1;
            goto done;
        }
        listed[skin->joints[k]] = true;
    }
    for (uint32_t b = 0; b < nb; b++)
        for (int k = 0; k < 3; k++)
            motion[b].scale_min[k] = motion[b].scale_max[k] = 1;
    for (uint32_t c = 0; c < doc->clip_count && !rc; c++)
        rc = sample_clip(doc, &doc->clips[c], local, motion, err);
    if (rc)
        goto done;
    anim_pose_rest(doc, local);
    anim_pose_fk(doc, local, world, NULL);

    /* The bones the mesh binds: an envelope entry for any other would be
     * refused as bound by no vertex. */
    const anim_mq_mesh *m = &mesh->mesh;
    if (m->bind_start)
        for (size_t b = 0; b < m->bind_start[m->vertex_count]; b++)
            bound[m->binds[b].bone] = true;

    uint32_t ref_bone = doc->node_to_bone[skin->joints[mesh->reference_joint]];
    out->reference = mesh->bone_names[mesh->reference_joint];
    out->bones = anim_arena_calloc(arena, mesh->bone_count ? mesh->bone_count : 1,
                                   sizeof *out->bones);
    if (!out->bones) {
        rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        goto done;
    }

    /* The reference chain, root first. */
    uint32_t refs = 0;
    for (uint32_t b = ref_bone; b != ANIM_NONE; b = doc->bones[b].parent)
        refs++;
    anim_mq_bone_range *refchain = ranges;
    anim_mq_bone_range *chain = ranges + nb;
    {
        uint32_t i = refs;
        for (uint32_t b = ref_bone; b != ANIM_NONE; b = doc->bones[b].parent) {
            i--;
            if (!uniform(doc->bones[b].rest_scale)) {
                *refusal = anim_arena_printf(
                    arena,
                    "SKINNING_RANGE_UNSUPPORTED: %s: bone '%s' on the reference chain has the "
                    "rest scale (%.17g, %.17g, %.17g); required a uniform rest scale (axes within %g "
                    "relative) — under a non-uniform one a bone's motion is not a rotation and "
                    "scale of bind space, and the bound is not proven",
                    who, doc->bones[b].name, doc->bones[b].rest_scale[0],
                    doc->bones[b].rest_scale[1], doc->bones[b].rest_scale[2],
                    MQ_UNIFORM_SCALE_TOLERANCE);
                rc = 1;
                goto done;
            }
            range_of(doc, skin, mesh, world, motion, b, &refchain[i]);
        }
    }
    for (uint32_t k = 0; k < mesh->bone_count; k++) {
        if (k == mesh->reference_joint || !bound[k])
            continue;
        uint32_t kb = doc->node_to_bone[skin->joints[k]];
        uint32_t len = 0;
        uint32_t b = kb;
        while (b != ANIM_NONE && b != ref_bone) {
            len++;
            b = doc->bones[b].parent;
        }
        if (b == ANIM_NONE) {
            *refusal = anim_arena_printf(
                arena,
                "SKINNING_RANGE_UNSUPPORTED: %s: bone '%s' binds vertices and is not below the "
                "reference '%s'; required every bound joint below the reference — its motion "
                "relative to the reference is no chain of the helper's",
                who, mesh->bone_names[k], out->reference);
            rc = 1;
            goto done;
        }
        uint32_t i = len;
        for (b = kb; b != ref_bone; b = doc->bones[b].parent) {
            i--;
            if (!uniform(doc->bones[b].rest_scale)) {
                *refusal = anim_arena_printf(
                    arena,
                    "SKINNING_RANGE_UNSUPPORTED: %s: bone '%s' (on the chain to '%s') has the "
                    "rest scale (%.17g, %.17g, %.17g); required a uniform rest scale (axes within %g "
                    "relative) — under a non-uniform one a bone's motion is not a rotation and "
                    "scale of bind space, and the bound is not proven",
                    who, doc->bones[b].name, mesh->bone_names[k], doc->bones[b].rest_scale[0],
                    doc->bones[b].rest_scale[1], doc->bones[b].rest_scale[2],
                    MQ_UNIFORM_SCALE_TOLERANCE);
                rc = 1;
                goto done;
            }
            range_of(doc, skin, mesh, world, motion, b, &chain[i]);
        }
        mq_named_bone *e = &out->bones[out->bone_count++];
        e->bone = mesh->bone_names[k];
        anim_mq_envelope_bone_of(refchain, refs, chain, len, 3, ANIM_MQ_ENVELOPE_PLANT_NONE,
                                 &e->linear, e->pivot, &e->translation);
    }
done:
    free(motion);
    free(local);
    free(world);
    free(ranges);
    free(bound);
    free(listed);
    return rc;
}
