/* The projection's animation samplers, meshes and skins. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "io/fbx/fbx_gltf_internal.h"

/* ---- animation ---------------------------------------------------------- */

/* Times and values of one track as binary32; keys whose rounded time
 * does not advance are dropped (glTF inputs must strictly increase). */
int gl_track_accessors(gl_ctx *c, const anim_fbx_track *t, gl_sampler *s, anim_error *err)
{
    uint32_t n = t->components;
    float *times = malloc(sizeof(float) * (t->key_count ? t->key_count : 1));
    float *vals = malloc(sizeof(float) * ((size_t)t->key_count * n + 1));
    if (!times || !vals) {
        free(times);
        free(vals);
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < t->key_count; i++) {
        float ti = (float)t->times[i];
        if (k && !(ti > times[k - 1]))
            continue;
        times[k] = ti;
        const double *v = t->values + (size_t)i * n;
        double scale = 1.0;
        if (t->path == ANIM_PATH_ROTATION) {
            double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
            scale = len > 0 ? 1.0 / len : 1.0;
        }
        for (uint32_t j = 0; j < n; j++)
            vals[(size_t)k * n + j] = (float)(v[j] * scale);
        k++;
    }
    s->input = gl_add_floats(c, times, k, 1, true);
    if (t->path == ANIM_PATH_WEIGHTS)
        s->output = glb_add_accessor(&c->buf, vals, k * n, ANIM_GLTF_FLOAT, 1,
                                     GLB_TARGET_NONE, false);
    else
        s->output = gl_add_floats(c, vals, k, n, false);
    s->track = t;
    free(times);
    free(vals);
    return 0;
}

void gl_write_animations(gl_ctx *c, anim_json_writer *w, gl_sampler **samplers)
{
    const anim_fbx_scene *sc = c->scene;
    anim_json_writer_key(w, "animations");
    anim_json_writer_begin_array(w);
    for (uint32_t ci = 0; ci < sc->clip_count; ci++) {
        const anim_fbx_clip *clip = &sc->clips[ci];
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "name");
        anim_json_writer_string(w, gl_json_name(c, clip->name));
        anim_json_writer_key(w, "channels");
        anim_json_writer_begin_array(w);
        for (uint32_t ti = 0; ti < clip->track_count; ti++) {
            anim_json_writer_begin_object(w);
            anim_json_writer_key_uint(w, "sampler", ti);
            anim_json_writer_key(w, "target");
            anim_json_writer_begin_object(w);
            anim_json_writer_key_uint(w, "node", clip->tracks[ti].node);
            anim_json_writer_key(w, "path");
            anim_json_writer_string(w, anim_path_name(clip->tracks[ti].path));
            anim_json_writer_end_object(w);
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
        anim_json_writer_key(w, "samplers");
        anim_json_writer_begin_array(w);
        for (uint32_t ti = 0; ti < clip->track_count; ti++) {
            const gl_sampler *s = &samplers[ci][ti];
            anim_json_writer_begin_object(w);
            anim_json_writer_key_uint(w, "input", s->input);
            anim_json_writer_key(w, "interpolation");
            anim_json_writer_string(w, anim_interp_name(s->track->interp));
            anim_json_writer_key_uint(w, "output", s->output);
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}

/* ---- meshes ------------------------------------------------------------- */

int gl_mesh_accessors(gl_ctx *c, const anim_fbx_mesh *m, gl_prim *out, anim_error *err)
{
    for (uint32_t p = 0; p < m->primitive_count; p++) {
        const anim_fbx_primitive *pr = &m->primitives[p];
        gl_prim *g = &out[p];
        uint32_t vc = pr->vertex_count;
        g->position = gl_add_floats(c, pr->positions, vc, 3, true);
        g->normal = pr->normals ? gl_add_floats(c, pr->normals, vc, 3, false) : ANIM_NONE;
        g->tangent = pr->tangents ? gl_add_floats(c, pr->tangents, vc, 4, false) : ANIM_NONE;
        g->uv0 = pr->uv0 ? gl_add_floats(c, pr->uv0, vc, 2, false) : ANIM_NONE;
        g->color = pr->colors ? gl_add_floats(c, pr->colors, vc, 4, false) : ANIM_NONE;
        g->joints = pr->joints ? glb_add_accessor(&c->buf, pr->joints, vc, ANIM_GLTF_UNSIGNED_SHORT,
                                               4, GLB_TARGET_NONE, false)
                               : ANIM_NONE;
        g->weights = pr->weights ? gl_add_floats(c, pr->weights, vc, 4, false) : ANIM_NONE;
        g->indices = glb_add_accessor(&c->buf, pr->indices, pr->index_count,
                                     ANIM_GLTF_UNSIGNED_INT, 1, GLB_TARGET_NONE, false);
        g->target_position = NULL;
        g->target_normal = NULL;
        if (m->target_count) {
            g->target_position = anim_arena_calloc(c->scene->arena, m->target_count,
                                                   sizeof(uint32_t));
            g->target_normal = anim_arena_calloc(c->scene->arena, m->target_count,
                                                 sizeof(uint32_t));
            if (!g->target_position || !g->target_normal)
                return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
            for (uint32_t t = 0; t < m->target_count; t++) {
                g->target_position[t] = gl_add_floats(c, pr->target_positions[t], vc, 3, true);
                g->target_normal[t] = pr->normals && pr->target_normals && pr->target_normals[t]
                                          ? gl_add_floats(c, pr->target_normals[t], vc, 3, false)
                                          : ANIM_NONE;
            }
        }
    }
    return c->nomem || c->buf.nomem ? anim_error_set(err, ANIM_ERR_NOMEM, "out of memory") : 0;
}

static void attr(anim_json_writer *w, const char *name, uint32_t accessor)
{
    if (accessor == ANIM_NONE)
        return;
    anim_json_writer_key(w, name);
    anim_json_writer_uint(w, accessor);
}

void gl_write_meshes(gl_ctx *c, anim_json_writer *w, gl_prim **prims)
{
    const anim_fbx_scene *sc = c->scene;
    anim_json_writer_key(w, "meshes");
    anim_json_writer_begin_array(w);
    for (uint32_t mi = 0; mi < sc->mesh_count; mi++) {
        const anim_fbx_mesh *m = &sc->meshes[mi];
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "name");
        anim_json_writer_string(w, gl_json_name(c, m->name));
        anim_json_writer_key(w, "primitives");
        anim_json_writer_begin_array(w);
        for (uint32_t p = 0; p < m->primitive_count; p++) {
            const gl_prim *g = &prims[mi][p];
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "attributes");
            anim_json_writer_begin_object(w);
            attr(w, "POSITION", g->position);
            attr(w, "NORMAL", g->normal);
            attr(w, "TANGENT", g->tangent);
            attr(w, "TEXCOORD_0", g->uv0);
            attr(w, "COLOR_0", g->color);
            attr(w, "JOINTS_0", g->joints);
            attr(w, "WEIGHTS_0", g->weights);
            anim_json_writer_end_object(w);
            anim_json_writer_key_uint(w, "indices", g->indices);
            if (m->primitives[p].material != ANIM_NONE) {
                anim_json_writer_key_uint(w, "material", m->primitives[p].material);
            }
            anim_json_writer_key_uint(w, "mode", 4);
            if (m->target_count) {
                anim_json_writer_key(w, "targets");
                anim_json_writer_begin_array(w);
                for (uint32_t t = 0; t < m->target_count; t++) {
                    anim_json_writer_begin_object(w);
                    attr(w, "NORMAL", g->target_normal[t]);
                    attr(w, "POSITION", g->target_position[t]);
                    anim_json_writer_end_object(w);
                }
                anim_json_writer_end_array(w);
            }
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
        if (m->target_count) {
            anim_json_writer_key(w, "weights");
            anim_json_writer_begin_array(w);
            for (uint32_t t = 0; t < m->target_count; t++)
                anim_json_writer_f64(w, (double)(float)m->targets[t].default_weight);
            anim_json_writer_end_array(w);
            anim_json_writer_key(w, "extras");
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "targetNames");
            anim_json_writer_begin_array(w);
            for (uint32_t t = 0; t < m->target_count; t++)
                anim_json_writer_string(w, gl_json_name(c, m->targets[t].name));
            anim_json_writer_end_array(w);
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}

/* ---- skins -------------------------------------------------------------- */

uint32_t gl_skin_accessor(gl_ctx *c, const anim_fbx_skin *s, anim_error *err)
{
    float *m = malloc(sizeof(float) * 16 * (s->joint_count ? s->joint_count : 1));
    if (!m) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        return ANIM_NONE;
    }
    for (size_t i = 0; i < (size_t)16 * s->joint_count; i++)
        m[i] = (float)s->inverse_bind[i];
    /* glTF requires the last row of an inverse bind matrix to be exactly
     * (0, 0, 0, 1); binary32 rounding must not disturb it. */
    for (uint32_t j = 0; j < s->joint_count; j++) {
        m[j * 16 + 3] = m[j * 16 + 7] = m[j * 16 + 11] = 0.0f;
        m[j * 16 + 15] = 1.0f;
    }
    uint32_t a = glb_add_accessor(&c->buf, m, s->joint_count, ANIM_GLTF_FLOAT, 16, GLB_TARGET_NONE,
                                  false);
    free(m);
    return a;
}

