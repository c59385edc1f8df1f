/* FBX scene -> GLB bytes. One accessor per buffer view, data in the order
 * animation, meshes, skins, images; names made valid UTF-8. Key times and
 * values are rounded to binary32 here, once, exactly as a converted file
 * stores them. This file holds the buffers, the nodes and the assembly;
 * fbx_gltf_mesh.c and fbx_gltf_material.c the rest. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/json_write.h"
#include "animsmith/utf8.h"
#include "core/grow.h"
#include "io/fbx/fbx_gltf_internal.h"

uint32_t gl_add_view(gl_ctx *c, const void *data, size_t len)
{
    while (c->bin.len % 4)
        anim_strbuf_putc(&c->bin, 0);
    if (!anim_grow((void **)&c->views, &c->view_cap, c->view_count + 1, sizeof(gl_view))) {
        c->nomem = true;
        return 0;
    }
    c->views[c->view_count] = (gl_view){c->bin.len, len};
    anim_strbuf_append(&c->bin, data, len);
    return c->view_count++;
}

uint32_t gl_add_accessor(gl_ctx *c, const void *data, size_t elem_bytes, uint32_t count,
                         uint32_t component_type, const char *type, uint32_t components)
{
    if (!anim_grow((void **)&c->accessors, &c->accessor_cap, c->accessor_count + 1,
                   sizeof(gl_accessor))) {
        c->nomem = true;
        return 0;
    }
    gl_accessor *a = &c->accessors[c->accessor_count];
    memset(a, 0, sizeof *a);
    a->view = gl_add_view(c, data, elem_bytes * count);
    a->component_type = component_type;
    a->count = count;
    a->type = type;
    a->components = components;
    return c->accessor_count++;
}

static const char *vec_type(uint32_t n)
{
    switch (n) {
    case 1: return "SCALAR";
    case 2: return "VEC2";
    case 3: return "VEC3";
    case 4: return "VEC4";
    default: return "MAT4";
    }
}

/* A float accessor; with_bounds records min/max (required for positions
 * and animation inputs). */
uint32_t gl_add_floats(gl_ctx *c, const float *v, uint32_t count, uint32_t n, bool with_bounds)
{
    uint32_t a = gl_add_accessor(c, v, sizeof(float) * n, count, ANIM_GLTF_FLOAT, vec_type(n), n);
    if (c->nomem || !with_bounds || count == 0)
        return a;
    gl_accessor *acc = &c->accessors[a];
    acc->minmax = true;
    for (uint32_t k = 0; k < n; k++)
        acc->min[k] = acc->max[k] = v[k];
    for (uint32_t i = 1; i < count; i++)
        for (uint32_t k = 0; k < n; k++) {
            double x = v[(size_t)i * n + k];
            if (x < acc->min[k])
                acc->min[k] = x;
            if (x > acc->max[k])
                acc->max[k] = x;
        }
    return a;
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

static void write_buffers(gl_ctx *c, anim_json_writer *w)
{
    anim_json_writer_key(w, "accessors");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < c->accessor_count; i++) {
        const gl_accessor *a = &c->accessors[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "bufferView", a->view);
        anim_json_writer_key_uint(w, "componentType", a->component_type);
        anim_json_writer_key_uint(w, "count", a->count);
        if (a->minmax) {
            anim_json_writer_key(w, "max");
            anim_json_writer_f64_array(w, a->max, a->components);
            anim_json_writer_key(w, "min");
            anim_json_writer_f64_array(w, a->min, a->components);
        }
        anim_json_writer_key(w, "type");
        anim_json_writer_string(w, a->type);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "bufferViews");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < c->view_count; i++) {
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "buffer", 0);
        anim_json_writer_key_uint(w, "byteLength", c->views[i].length);
        if (c->views[i].offset) {
            anim_json_writer_key_uint(w, "byteOffset", c->views[i].offset);
        }
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    if (c->bin.len) {
        anim_json_writer_key(w, "buffers");
        anim_json_writer_begin_array(w);
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "byteLength", c->bin.len);
        anim_json_writer_end_object(w);
        anim_json_writer_end_array(w);
    }
}

static void put_u32le(anim_strbuf *sb, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    anim_strbuf_append(sb, b, 4);
}

static int assemble_glb(gl_ctx *c, const anim_strbuf *json, anim_strbuf *glb, anim_error *err)
{
    size_t jlen = (json->len + 3) & ~(size_t)3;
    size_t blen = (c->bin.len + 3) & ~(size_t)3;
    size_t total = 12 + 8 + jlen + (blen ? 8 + blen : 0);
    if (total > UINT32_MAX)
        return anim_error_set(err, ANIM_ERR_LIMIT,
                              "the converted document would be %zu bytes, over the 4 GiB GLB limit",
                              total);
    anim_strbuf_append(glb, "glTF", 4);
    put_u32le(glb, 2);
    put_u32le(glb, (uint32_t)total);
    put_u32le(glb, (uint32_t)jlen);
    anim_strbuf_append(glb, "JSON", 4);
    anim_strbuf_append(glb, json->data, json->len);
    for (size_t i = json->len; i < jlen; i++)
        anim_strbuf_putc(glb, ' ');
    if (blen) {
        put_u32le(glb, (uint32_t)blen);
        anim_strbuf_append(glb, "BIN\0", 4);
        anim_strbuf_append(glb, c->bin.data, c->bin.len);
        for (size_t i = c->bin.len; i < blen; i++)
            anim_strbuf_putc(glb, 0);
    }
    return glb->failed ? anim_error_set(err, ANIM_ERR_NOMEM, "out of memory") : 0;
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
    if (c->nomem || c->bin.failed)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");

    anim_strbuf json = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &json, false);
    anim_json_writer_begin_object(&w);
    write_buffers(c, &w);
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
    if (!anim_json_writer_ok(&w) || json.failed || c->nomem)
        rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    else
        rc = assemble_glb(c, &json, glb, err);
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
    int rc = build(&c, glb, err);
    anim_strbuf_free(&c.bin);
    free(c.views);
    free(c.accessors);
    return rc;
}
