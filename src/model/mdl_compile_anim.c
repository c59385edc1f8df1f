/* The clips of a compile: one animation per clip, one LINEAR sampler per
 * channel on its joint's node, key times in binary32 (which must still
 * increase once rounded), rotations renormalized before rounding. Not in
 * the preview. */
#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/math.h"
#include "model/mdl_compile_internal.h"

int cm_build_animations(cm_ctx *c)
{
    const mdl_doc *d = c->d;
    c->anim_inputs = calloc(d->clip_count + 1, sizeof *c->anim_inputs);
    c->anim_outputs = calloc(d->clip_count + 1, sizeof *c->anim_outputs);
    if (!c->anim_inputs || !c->anim_outputs)
        return cm_nomem(c);
    for (size_t ci = 0; ci < d->clip_count; ci++) {
        const mdl_clip *clip = d->clips[ci];
        c->anim_inputs[ci] = calloc(clip->channel_count + 1, sizeof(uint32_t));
        c->anim_outputs[ci] = calloc(clip->channel_count + 1, sizeof(uint32_t));
        if (!c->anim_inputs[ci] || !c->anim_outputs[ci])
            return cm_nomem(c);
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
            if (rc == 0) {
                c->anim_inputs[ci][k] = glb_add_accessor(&c->b, t, (uint32_t)ch->key_count,
                                                         ANIM_GLTF_FLOAT, 1, GLB_TARGET_NONE,
                                                         true);
                c->anim_outputs[ci][k] = glb_add_accessor(&c->b, v, (uint32_t)ch->key_count,
                                                          ANIM_GLTF_FLOAT, lanes,
                                                          GLB_TARGET_NONE, false);
            }
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
    }
    free(c->anim_inputs);
    free(c->anim_outputs);
    c->anim_inputs = c->anim_outputs = NULL;
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
        anim_json_writer_end_array(w);
        anim_json_writer_key(w, "name");
        anim_json_writer_string(w, clip->name);
        anim_json_writer_key(w, "samplers");
        anim_json_writer_begin_array(w);
        for (size_t k = 0; k < clip->channel_count; k++) {
            anim_json_writer_begin_object(w);
            anim_json_writer_key_uint(w, "input", c->anim_inputs[ci][k]);
            anim_json_writer_key(w, "interpolation");
            anim_json_writer_string(w, "LINEAR");
            anim_json_writer_key_uint(w, "output", c->anim_outputs[ci][k]);
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}
