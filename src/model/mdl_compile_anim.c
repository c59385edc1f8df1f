/* The clips of a compile: one animation per clip, one sampler per channel
 * on its joint's node, key times in binary32 (which must still increase
 * once rounded), rotations renormalized before rounding. Not in the
 * preview.
 *
 * Clip options: interpolation linear is LINEAR, step is STEP, and cubic
 * (smoothstep easing between keys) is CUBICSPLINE with zero in and out
 * tangents, which is exactly smoothstep per component (a runtime
 * renormalizes the rotation it interpolates). Root motion and events go
 * into the animation's extras.animsmith. Morph keys become one "weights"
 * channel per mesh whose targets the clip keys: its times are the union
 * of those targets' key times, a target without keys in the clip holds
 * its default weight, and a keyed target is evaluated at each time with
 * the clip's interpolation (held before its first and after its last
 * key). */
#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/math.h"
#include "model/mdl_compile_internal.h"

/* Float keys with zero tangents around each value (CUBICSPLINE layout)
 * when cubic, else the values as they are. *out is malloc'd. */
static float *spline_values(const float *v, size_t count, uint32_t lanes, bool cubic)
{
    size_t per = cubic ? 3 : 1;
    float *o = calloc(count * per * lanes + 1, sizeof *o);
    if (!o)
        return NULL;
    for (size_t i = 0; i < count; i++)
        memcpy(o + (i * per + (cubic ? 1 : 0)) * lanes, v + i * lanes, lanes * sizeof *o);
    return o;
}

/* A morph track's weight at time t under interpolation mode. */
static double track_at(const mdl_morph_track *tr, double t, mdl_interp mode)
{
    const mdl_morph_key *k = tr->keys;
    size_t n = tr->key_count;
    if (t <= k[0].time)
        return k[0].weight;
    if (t >= k[n - 1].time)
        return k[n - 1].weight;
    size_t i = 1;
    while (k[i].time < t)
        i++;
    if (k[i].time == t)
        return k[i].weight;
    if (mode == MDL_INTERP_STEP)
        return k[i - 1].weight;
    double u = (t - k[i - 1].time) / (k[i].time - k[i - 1].time);
    if (mode == MDL_INTERP_CUBIC)
        u = u * u * (3 - 2 * u);
    return k[i - 1].weight + (k[i].weight - k[i - 1].weight) * u;
}

static const mdl_morph_track *find_track(const mdl_clip *clip, const char *morph)
{
    for (size_t i = 0; i < clip->morph_track_count; i++)
        if (strcmp(clip->morph_tracks[i].morph, morph) == 0)
            return &clip->morph_tracks[i];
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The weights sampler of mesh mi in clip ci, if the clip keys its targets. */
static int build_morph_channel(cm_ctx *c, size_t ci, size_t mi)
{
    const mdl_clip *clip = c->d->clips[ci];
    const cm_mesh *m = &c->meshes[mi];
    c->morph_inputs[ci][mi] = c->morph_outputs[ci][mi] = CM_NO_ACCESSOR;
    size_t total = 0;
    for (size_t k = 0; k < m->morph_count; k++) {
        const mdl_morph_track *tr = find_track(clip, m->morphs[k]->key.name);
        total += tr ? tr->key_count : 0;
    }
    if (!total)
        return 0;
    double *times = malloc(total * sizeof *times);
    if (!times)
        return cm_nomem(c);
    size_t n = 0;
    for (size_t k = 0; k < m->morph_count; k++) {
        const mdl_morph_track *tr = find_track(clip, m->morphs[k]->key.name);
        for (size_t i = 0; tr && i < tr->key_count; i++)
            times[n++] = tr->keys[i].time;
    }
    qsort(times, n, sizeof *times, cmp_double);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (u == 0 || times[i] != times[u - 1])
            times[u++] = times[i];
    float *t = malloc((u + 1) * sizeof *t);
    float *v = malloc((u * m->morph_count + 1) * sizeof *v);
    int rc = 0;
    if (!t || !v) {
        rc = cm_nomem(c);
        goto done;
    }
    for (size_t i = 0; i < u && rc == 0; i++) {
        t[i] = (float)times[i];
        if (i && !(t[i] > t[i - 1]))
            rc = cm_refuse(c, ANIM_MODEL_E_REFUSED, "f32_range",
                           "clip \"%s\" morph keys of object \"%s\": time %.17g is not after "
                           "the previous key's once rounded to binary32",
                           clip->name, m->o->name, times[i]);
        for (size_t k = 0; k < m->morph_count; k++) {
            const mdl_morph_track *tr = find_track(clip, m->morphs[k]->key.name);
            double w = tr ? track_at(tr, times[i], clip->interpolation) : m->morphs[k]->weight;
            v[i * m->morph_count + k] = (float)w;
        }
    }
    if (rc == 0) {
        bool cubic = clip->interpolation == MDL_INTERP_CUBIC;
        float *sv = spline_values(v, u, (uint32_t)m->morph_count, cubic);
        if (!sv) {
            rc = cm_nomem(c);
            goto done;
        }
        c->morph_inputs[ci][mi] = glb_add_accessor(&c->b, t, (uint32_t)u, ANIM_GLTF_FLOAT, 1,
                                                   GLB_TARGET_NONE, true);
        /* Weights are scalars: one per target per key (times three in a
         * cubic spline). */
        c->morph_outputs[ci][mi] =
            glb_add_accessor(&c->b, sv, (uint32_t)(u * m->morph_count * (cubic ? 3 : 1)),
                             ANIM_GLTF_FLOAT, 1, GLB_TARGET_NONE, false);
        free(sv);
    }
done:
    free(times);
    free(t);
    free(v);
    return rc;
}

int cm_build_animations(cm_ctx *c)
{
    const mdl_doc *d = c->d;
    c->anim_inputs = calloc(d->clip_count + 1, sizeof *c->anim_inputs);
    c->anim_outputs = calloc(d->clip_count + 1, sizeof *c->anim_outputs);
    c->morph_inputs = calloc(d->clip_count + 1, sizeof *c->morph_inputs);
    c->morph_outputs = calloc(d->clip_count + 1, sizeof *c->morph_outputs);
    if (!c->anim_inputs || !c->anim_outputs || !c->morph_inputs || !c->morph_outputs)
        return cm_nomem(c);
    for (size_t ci = 0; ci < d->clip_count; ci++) {
        const mdl_clip *clip = d->clips[ci];
        c->anim_inputs[ci] = calloc(clip->channel_count + 1, sizeof(uint32_t));
        c->anim_outputs[ci] = calloc(clip->channel_count + 1, sizeof(uint32_t));
        c->morph_inputs[ci] = malloc((c->mesh_count + 1) * sizeof(uint32_t));
        c->morph_outputs[ci] = malloc((c->mesh_count + 1) * sizeof(uint32_t));
        if (!c->anim_inputs[ci] || !c->anim_outputs[ci] || !c->morph_inputs[ci] ||
            !c->morph_outputs[ci])
            return cm_nomem(c);
        for (size_t mi = 0; mi < c->mesh_count; mi++)
            if (build_morph_channel(c, ci, mi))
                return -1;
        bool cubic = clip->interpolation == MDL_INTERP_CUBIC;
        for (size_t k = 0; k < clip->channel_count; k++) {
            const mdl_channel *ch = &clip->channels[k];
            uint32_t lanes = ch->path == MDL_PATH_ROTATION ? 4 : 3;
            float *t = malloc((ch->key_count + 1) * sizeof *t);
            float *v = malloc((ch->key_count + 1) * lanes * sizeof *v);
            if (!t || !v) {
                free(t);
                free(v);
                return cm_nomem(c);
            }
            int rc = 0;
            for (size_t i = 0; i < ch->key_count; i++) {
                t[i] = (float)ch->keys[i].time;
                if (i && !(t[i] > t[i - 1]))
                    rc = cm_refuse(c, ANIM_MODEL_E_REFUSED, "f32_range",
                                   "clip \"%s\" channel %zu key %zu: time %.17g is not after the "
                                   "previous key's once rounded to binary32",
                                   clip->name, k, i, ch->keys[i].time);
                double q[4];
                memcpy(q, ch->keys[i].value, sizeof q);
                if (ch->path == MDL_PATH_ROTATION) {
                    anim_quat u = anim_quat_normalize(anim_quat_from_array(q));
                    q[0] = u.x;
                    q[1] = u.y;
                    q[2] = u.z;
                    q[3] = u.w;
                }
                for (uint32_t a = 0; a < lanes; a++)
                    v[i * lanes + a] = (float)q[a];
            }
            float *sv = rc == 0 ? spline_values(v, ch->key_count, lanes, cubic) : NULL;
            if (rc == 0 && !sv)
                rc = cm_nomem(c);
            if (rc == 0) {
                c->anim_inputs[ci][k] = glb_add_accessor(&c->b, t, (uint32_t)ch->key_count,
                                                         ANIM_GLTF_FLOAT, 1, GLB_TARGET_NONE,
                                                         true);
                c->anim_outputs[ci][k] =
                    glb_add_accessor(&c->b, sv, (uint32_t)(ch->key_count * (cubic ? 3 : 1)),
                                     ANIM_GLTF_FLOAT, lanes, GLB_TARGET_NONE, false);
            }
            free(sv);
            free(t);
            free(v);
            if (rc)
                return rc;
        }
    }
    return 0;
}

void cm_free_animations(cm_ctx *c)
{
    for (size_t ci = 0; c->anim_inputs && ci < c->d->clip_count; ci++) {
        free(c->anim_inputs[ci]);
        free(c->anim_outputs ? c->anim_outputs[ci] : NULL);
        free(c->morph_inputs ? c->morph_inputs[ci] : NULL);
        free(c->morph_outputs ? c->morph_outputs[ci] : NULL);
    }
    free(c->anim_inputs);
    free(c->anim_outputs);
    free(c->morph_inputs);
    free(c->morph_outputs);
    c->anim_inputs = c->anim_outputs = NULL;
    c->morph_inputs = c->morph_outputs = NULL;
}

static const char *interp_name(mdl_interp i)
{
    return i == MDL_INTERP_STEP ? "STEP" : i == MDL_INTERP_CUBIC ? "CUBICSPLINE" : "LINEAR";
}

static void write_extras(const mdl_clip *clip, anim_json_writer *w)
{
    anim_json_writer_key(w, "extras");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "animsmith");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "events");
    anim_json_writer_begin_array(w);
    for (size_t i = 0; i < clip->event_count; i++) {
        const mdl_event *e = &clip->events[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "name");
        anim_json_writer_string(w, e->name);
        anim_json_writer_key(w, "payload");
        anim_json_writer_string_n(w, e->payload ? e->payload : "", e->payload_len);
        anim_json_writer_key(w, "time");
        anim_json_writer_f64(w, e->time);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "root_motion");
    anim_json_writer_bool(w, clip->root_motion);
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
}

static const char *path_name(mdl_path p)
{
    return p == MDL_PATH_ROTATION ? "rotation" : p == MDL_PATH_SCALE ? "scale" : "translation";
}

void cm_write_animations(cm_ctx *c, anim_json_writer *w)
{
    const mdl_doc *d = c->d;
    if (!d->clip_count)
        return;
    anim_json_writer_key(w, "animations");
    anim_json_writer_begin_array(w);
    for (size_t ci = 0; ci < d->clip_count; ci++) {
        const mdl_clip *clip = d->clips[ci];
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "channels");
        anim_json_writer_begin_array(w);
        for (size_t k = 0; k < clip->channel_count; k++) {
            anim_json_writer_begin_object(w);
            anim_json_writer_key_uint(w, "sampler", k);
            anim_json_writer_key(w, "target");
            anim_json_writer_begin_object(w);
            anim_json_writer_key_uint(w, "node", clip->channels[k].joint);
            anim_json_writer_key(w, "path");
            anim_json_writer_string(w, path_name(clip->channels[k].path));
            anim_json_writer_end_object(w);
            anim_json_writer_end_object(w);
        }
        /* Morph weights samplers follow the joint channels' samplers. */
        size_t next = clip->channel_count;
        size_t joints = c->with_joints ? d->joint_count : 0;
        for (size_t mi = 0; mi < c->mesh_count; mi++) {
            if (c->morph_inputs[ci][mi] == CM_NO_ACCESSOR)
                continue;
            anim_json_writer_begin_object(w);
            anim_json_writer_key_uint(w, "sampler", next++);
            anim_json_writer_key(w, "target");
            anim_json_writer_begin_object(w);
            anim_json_writer_key_uint(w, "node", joints + mi);
            anim_json_writer_key(w, "path");
            anim_json_writer_string(w, "weights");
            anim_json_writer_end_object(w);
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
        if (clip->has_options)
            write_extras(clip, w);
        anim_json_writer_key(w, "name");
        anim_json_writer_string(w, clip->name);
        anim_json_writer_key(w, "samplers");
        anim_json_writer_begin_array(w);
        for (size_t k = 0; k < clip->channel_count; k++) {
            anim_json_writer_begin_object(w);
            anim_json_writer_key_uint(w, "input", c->anim_inputs[ci][k]);
            anim_json_writer_key(w, "interpolation");
            anim_json_writer_string(w, interp_name(clip->interpolation));
            anim_json_writer_key_uint(w, "output", c->anim_outputs[ci][k]);
            anim_json_writer_end_object(w);
        }
        for (size_t mi = 0; mi < c->mesh_count; mi++) {
            if (c->morph_inputs[ci][mi] == CM_NO_ACCESSOR)
                continue;
            anim_json_writer_begin_object(w);
            anim_json_writer_key_uint(w, "input", c->morph_inputs[ci][mi]);
            anim_json_writer_key(w, "interpolation");
            anim_json_writer_string(w, interp_name(clip->interpolation));
            anim_json_writer_key_uint(w, "output", c->morph_outputs[ci][mi]);
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}
