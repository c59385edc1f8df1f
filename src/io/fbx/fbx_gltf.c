/* FBX scene -> GLB bytes. One accessor per buffer view, data in the order
 * animation, meshes, skins, images; names made valid UTF-8. Key times and
 * values are rounded to binary32 here, once, exactly as a converted file
 * stores them. This file holds the nodes and the assembly over the shared
 * GLB builder (io/gltf/glb_build.h);
 * fbx_gltf_mesh.c and fbx_gltf_material.c the rest. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/json_write.h"
#include "animsmith/utf8.h"
#include "io/fbx/fbx_gltf_internal.h"
#include "io/gltf/glb_build.h"

uint32_t gl_add_floats(gl_ctx *c, const float *v, uint32_t count, uint32_t n, bool with_bounds)
{
    return glb_add_accessor(&c->buf, v, count, ANIM_GLTF_FLOAT, n, GLB_TARGET_NONE, with_bounds);
}

/* Valid UTF-8 for JSON: each byte that starts no valid sequence becomes
 * U+FFFD; a NUL (which glTF names cannot hold) too. */
const char *gl_json_name(gl_ctx *c, const char *s)
{
    if (!s)
        return "";
    size_t n = strlen(s), i = 0;
    bool clean = true;
    while (i < n) {
        size_t k = anim_utf8_decode((const unsigned char *)s + i, n - i, NULL);
        if (!k) {
            clean = false;
            break;
        }
        i += k;
    }
    if (clean)
        return s;
    anim_strbuf sb = ANIM_STRBUF_INIT;
    for (i = 0; i < n;) {
        size_t k = anim_utf8_decode((const unsigned char *)s + i, n - i, NULL);
        if (k) {
            anim_strbuf_append(&sb, s + i, k);
            i += k;
        } else {
            anim_strbuf_puts(&sb, "\xEF\xBF\xBD");
            i++;
        }
    }
    const char *out = sb.failed ? NULL : anim_arena_strdup(c->scene->arena, sb.data ? sb.data : "");
    anim_strbuf_free(&sb);
    if (!out)
        c->nomem = true;
    return out ? out : "";
}

bool gl_is_default(const double *v, uint32_t n, double d, uint32_t last_one)
{
    for (uint32_t i = 0; i < n; i++)
        if (v[i] != (i == last_one ? 1.0 : d))
            return false;
    return true;
}

/* ---- nodes -------------------------------------------------------------- */

static void write_nodes(gl_ctx *c, anim_json_writer *w)
{
    const anim_fbx_scene *sc = c->scene;
    anim_json_writer_key(w, "nodes");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < sc->node_count; i++) {
        const anim_fbx_node_rec *n = &sc->nodes[i];
        anim_json_writer_begin_object(w);
        bool any_child = false;
        for (uint32_t j = i + 1; j < sc->node_count; j++) {
            if (sc->nodes[j].parent != i)
                continue;
            if (!any_child) {
                anim_json_writer_key(w, "children");
                anim_json_writer_begin_array(w);
                any_child = true;
            }
            anim_json_writer_uint(w, j);
        }
        if (any_child)
            anim_json_writer_end_array(w);
        if (n->mesh != ANIM_NONE) {
            anim_json_writer_key_uint(w, "mesh", n->mesh);
        }
        anim_json_writer_key(w, "name");
        anim_json_writer_string(w, gl_json_name(c, n->name));
        double q[4];
        double len = sqrt(n->r[0] * n->r[0] + n->r[1] * n->r[1] + n->r[2] * n->r[2] +
                          n->r[3] * n->r[3]);
        for (int k = 0; k < 4; k++)
            q[k] = len > 0 ? (double)(float)(n->r[k] / len) : (k == 3);
        if (!gl_is_default(q, 4, 0.0, 3)) {
            anim_json_writer_key(w, "rotation");
            anim_json_writer_f64_array(w, q, 4);
        }
        double s[3], t[3];
        for (int k = 0; k < 3; k++) {
            s[k] = (double)(float)n->s[k];
            t[k] = (double)(float)n->t[k];
        }
        if (!gl_is_default(s, 3, 1.0, 99)) {
            anim_json_writer_key(w, "scale");
            anim_json_writer_f64_array(w, s, 3);
        }
        if (n->skin != ANIM_NONE) {
            anim_json_writer_key_uint(w, "skin", n->skin);
        }
        if (!gl_is_default(t, 3, 0.0, 99)) {
            anim_json_writer_key(w, "translation");
            anim_json_writer_f64_array(w, t, 3);
        }
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}

static int build(gl_ctx *c, anim_strbuf *glb, anim_error *err)
{
    anim_fbx_scene *sc = c->scene;
    gl_sampler **samplers = anim_arena_calloc(sc->arena, sc->clip_count + 1, sizeof(*samplers));
    gl_prim **prims = anim_arena_calloc(sc->arena, sc->mesh_count + 1, sizeof(*prims));
    uint32_t *skin_acc = anim_arena_calloc(sc->arena, sc->skin_count + 1, sizeof(uint32_t));
    if (!samplers || !prims || !skin_acc)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t ci = 0; ci < sc->clip_count; ci++) {
        const anim_fbx_clip *clip = &sc->clips[ci];
        samplers[ci] = anim_arena_calloc(sc->arena, clip->track_count + 1, sizeof(gl_sampler));
        if (!samplers[ci])
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        for (uint32_t ti = 0; ti < clip->track_count; ti++)
            if (gl_track_accessors(c, &clip->tracks[ti], &samplers[ci][ti], err))
                return -1;
    }
    for (uint32_t mi = 0; mi < sc->mesh_count; mi++) {
        prims[mi] = anim_arena_calloc(sc->arena, sc->meshes[mi].primitive_count + 1,
                                      sizeof(gl_prim));
        if (!prims[mi] || gl_mesh_accessors(c, &sc->meshes[mi], prims[mi], err))
            return prims[mi] ? -1 : anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    for (uint32_t s = 0; s < sc->skin_count; s++)
        if ((skin_acc[s] = gl_skin_accessor(c, &sc->skins[s], err)) == ANIM_NONE)
            return -1;
    if (gl_image_views(c, err))
        return -1;
    if (c->nomem || c->buf.nomem)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");

    anim_strbuf json = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &json, false);
    anim_json_writer_begin_object(&w);
    glb_write_buffers(&c->buf, &w);
    if (sc->clip_count)
        gl_write_animations(c, &w, samplers);
    anim_json_writer_key(&w, "asset");
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "generator");
    anim_json_writer_string(&w, "animsmith FBX reader");
    anim_json_writer_key(&w, "version");
    anim_json_writer_string(&w, "2.0");
    anim_json_writer_end_object(&w);
    gl_write_images(c, &w);
    gl_write_materials(c, &w);
    if (sc->mesh_count)
        gl_write_meshes(c, &w, prims);
    write_nodes(c, &w);
    anim_json_writer_key(&w, "scene");
    anim_json_writer_uint(&w, 0);
    anim_json_writer_key(&w, "scenes");
    anim_json_writer_begin_array(&w);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "nodes");
    anim_json_writer_begin_array(&w);
    anim_json_writer_uint(&w, 0);
    anim_json_writer_end_array(&w);
    anim_json_writer_end_object(&w);
    anim_json_writer_end_array(&w);
    if (sc->skin_count) {
        anim_json_writer_key(&w, "skins");
        anim_json_writer_begin_array(&w);
        for (uint32_t s = 0; s < sc->skin_count; s++) {
            anim_json_writer_begin_object(&w);
            anim_json_writer_key(&w, "inverseBindMatrices");
            anim_json_writer_uint(&w, skin_acc[s]);
            anim_json_writer_key(&w, "joints");
            anim_json_writer_begin_array(&w);
            for (uint32_t j = 0; j < sc->skins[s].joint_count; j++)
                anim_json_writer_uint(&w, sc->skins[s].joints[j]);
            anim_json_writer_end_array(&w);
            if (sc->skins[s].name && *sc->skins[s].name) {
                anim_json_writer_key(&w, "name");
                anim_json_writer_string(&w, gl_json_name(c, sc->skins[s].name));
            }
            anim_json_writer_end_object(&w);
        }
        anim_json_writer_end_array(&w);
    }
    anim_json_writer_end_object(&w);
    int rc = 0;
    if (!anim_json_writer_ok(&w) || json.failed || c->nomem || c->buf.nomem)
        rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    else
        rc = glb_assemble(&c->buf, &json, glb, err);
    anim_strbuf_free(&json);
    return rc;
}

int anim_fbx_to_glb(anim_fbx_scene *scene, const anim_fbx_gltf_options *opts, anim_strbuf *glb,
                    anim_error *err)
{
    gl_ctx c;
    memset(&c, 0, sizeof c);
    c.scene = scene;
    c.opts = opts;
    glb_builder_init(&c.buf);
    int rc = build(&c, glb, err);
    glb_builder_free(&c.buf);
    return rc;
}
