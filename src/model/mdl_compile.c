/* Compile a document version to GLB (mdl_compile.h).
 *
 * The document is checked whole first (something to compile, the
 * triangle limit, every coordinate within binary32), then built as a glTF
 * document in memory (glb_build.h) and handed to the strict reader
 * (anim_asset_load_memory) and the shared writer, so what leaves here has
 * passed the same validation as any file the linter reads and is written
 * with sorted keys, byte for byte the same for the same document.
 *
 * Layout: the joint nodes first (node index = joint ordinal, skipped in
 * the preview), then one node per object with faces, in name order, each
 * a root of the scene; one mesh per such object. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/gltf_write.h"
#include "animsmith/json_write.h"
#include "model/mdl_compile_internal.h"

int cm_refuse(cm_ctx *c, int code, const char *kind, const char *fmt, ...)
{
    if (c->fault) {
        c->fault->code = code;
        snprintf(c->fault->kind, sizeof c->fault->kind, "%s", kind);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->fault->message, sizeof c->fault->message, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int cm_nomem(cm_ctx *c)
{
    return cm_refuse(c, ANIM_MODEL_E_INTERNAL, "out_of_memory", "compile: out of memory");
}

static bool f32_ok(double x)
{
    return x >= -FLT_MAX && x <= FLT_MAX;
}

static bool vec_ok(const double *v, int n)
{
    for (int i = 0; i < n; i++)
        if (!f32_ok(v[i]))
            return false;
    return true;
}

static int check_f32(cm_ctx *c)
{
    const mdl_doc *d = c->d;
    for (size_t i = 0; i < d->object_count; i++) {
        const mdl_object *o = d->objects[i];
        if (!o->face_count)
            continue;
        for (size_t v = 0; v < o->vertex_count; v++)
            if (!vec_ok(o->vertices[v].p, 3))
                return cm_refuse(c, ANIM_MODEL_E_REFUSED, "f32_range",
                                 "object \"%s\" vertex \"%llu\": position outside binary32 range",
                                 o->name, (unsigned long long)o->vertices[v].id);
        for (size_t k = 0; k < o->corner_count; k++) {
            const mdl_corner *cr = &o->corners[k];
            if (!vec_ok(cr->uv, 2) || (cr->has_normal && !vec_ok(cr->normal, 3)))
                return cm_refuse(c, ANIM_MODEL_E_REFUSED, "f32_range",
                                 "object \"%s\" corner \"%llu\": uv or normal outside binary32 "
                                 "range",
                                 o->name, (unsigned long long)cr->id);
        }
    }
    if (!c->with_joints)
        return 0;
    for (size_t j = 0; j < d->joint_count; j++)
        if (!vec_ok(d->joints[j].translation, 3) || !vec_ok(d->joints[j].scale, 3))
            return cm_refuse(c, ANIM_MODEL_E_REFUSED, "f32_range",
                             "joint %zu (\"%s\"): rest transform outside binary32 range", j,
                             d->joints[j].name);
    for (size_t ci = 0; ci < d->clip_count; ci++) {
        const mdl_clip *clip = d->clips[ci];
        for (size_t k = 0; k < clip->channel_count; k++)
            for (size_t i = 0; i < clip->channels[k].key_count; i++) {
                const mdl_key *key = &clip->channels[k].keys[i];
                if (!f32_ok(key->time) || !vec_ok(key->value, 4))
                    return cm_refuse(c, ANIM_MODEL_E_REFUSED, "f32_range",
                                     "clip \"%s\" channel %zu key %zu: outside binary32 range",
                                     clip->name, k, i);
            }
    }
    return 0;
}

static int check_document(cm_ctx *c)
{
    const mdl_doc *d = c->d;
    uint64_t tris = 0;
    bool faces = false;
    for (size_t i = 0; i < d->object_count; i++) {
        const mdl_object *o = d->objects[i];
        faces = faces || o->face_count > 0;
        for (size_t f = 0; f < o->face_count; f++)
            tris += o->faces[f].corner_count - 2;
    }
    if (!faces && !c->with_joints)
        return cm_refuse(c, ANIM_MODEL_E_REFUSED, "nothing_to_compile",
                         c->preview ? "compile_preview: the document has no faces"
                                    : "compile: the document has no faces and no joints");
    if (tris > c->limits->max_compiled_triangles)
        return cm_refuse(c, ANIM_MODEL_E_LIMIT, "limit_exceeded",
                         "compile: %llu triangles exceed max_compiled_triangles (%llu)",
                         (unsigned long long)tris,
                         (unsigned long long)c->limits->max_compiled_triangles);
    return check_f32(c);
}

static void write_nodes_and_scene(cm_ctx *c, anim_json_writer *w)
{
    size_t joints = c->with_joints ? c->d->joint_count : 0;
    anim_json_writer_key(w, "nodes");
    anim_json_writer_begin_array(w);
    if (joints)
        cm_write_joint_nodes(c, w);
    for (size_t i = 0; i < c->mesh_count; i++) {
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "mesh", i);
        anim_json_writer_key(w, "name");
        anim_json_writer_string(w, c->meshes[i].o->name);
        if (c->meshes[i].skinned)
            anim_json_writer_key_uint(w, "skin", 0);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key_uint(w, "scene", 0);
    anim_json_writer_key(w, "scenes");
    anim_json_writer_begin_array(w);
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "nodes");
    anim_json_writer_begin_array(w);
    if (joints)
        anim_json_writer_uint(w, 0);
    for (size_t i = 0; i < c->mesh_count; i++)
        anim_json_writer_uint(w, joints + i);
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);
    anim_json_writer_end_array(w);
}

static int build(cm_ctx *c, const volatile int *cancel, anim_strbuf *raw)
{
    const mdl_doc *d = c->d;
    c->meshes = calloc(d->object_count + 1, sizeof *c->meshes);
    if (!c->meshes)
        return cm_nomem(c);
    bool any_skin = false;
    for (size_t i = 0; i < d->object_count; i++) {
        if (cancel && *cancel)
            return cm_refuse(c, ANIM_MODEL_E_REFUSED, "cancelled",
                             "compile: cancelled before object \"%s\"", d->objects[i]->name);
        const mdl_object *o = d->objects[i];
        if (!o->face_count)
            continue;
        bool skinned = c->with_joints && o->weight_count > 0;
        any_skin = any_skin || skinned;
        cm_mesh *m = &c->meshes[c->mesh_count++];
        if (cm_build_mesh(c, o, skinned, m))
            return -1;
        c->info->objects++;
    }
    c->info->skinned = any_skin;
    if (c->with_joints) {
        c->info->joints = d->joint_count;
        c->info->clips = d->clip_count;
        if ((any_skin && cm_build_skin(c)) || cm_build_animations(c))
            return -1;
    }
    if (cm_build_images(c))
        return -1;
    if (c->b.nomem)
        return cm_nomem(c);

    anim_strbuf json = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &json, false);
    anim_json_writer_begin_object(&w);
    glb_write_buffers(&c->b, &w);
    if (c->with_joints)
        cm_write_animations(c, &w);
    anim_json_writer_key(&w, "asset");
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "version");
    anim_json_writer_string(&w, "2.0");
    anim_json_writer_end_object(&w);
    cm_write_materials(c, &w);
    cm_write_meshes(c, &w);
    write_nodes_and_scene(c, &w);
    if (any_skin)
        cm_write_skin(c, &w);
    anim_json_writer_end_object(&w);
    int rc = 0;
    anim_error err;
    memset(&err, 0, sizeof err);
    if (!anim_json_writer_ok(&w) || json.failed)
        rc = cm_nomem(c);
    else if (glb_assemble(&c->b, &json, raw, &err))
        rc = err.code == ANIM_ERR_LIMIT
                 ? cm_refuse(c, ANIM_MODEL_E_LIMIT, "limit_exceeded", "compile: %s", err.message)
                 : cm_nomem(c);
    anim_strbuf_free(&json);
    return rc;
}

/* The built bytes through the strict reader and the shared writer. */
static int reemit(cm_ctx *c, const anim_strbuf *raw, anim_strbuf *glb)
{
    anim_error err;
    memset(&err, 0, sizeof err);
    anim_asset *asset =
        anim_asset_load_memory(raw->data, raw->len, true, NULL, "compiled model", NULL, &err);
    if (!asset)
        return err.code == ANIM_ERR_NOMEM
                   ? cm_nomem(c)
                   : cm_refuse(c, ANIM_MODEL_E_INTERNAL, "internal_error",
                               "compile: the built GLB did not load back: %s", err.message);
    size_t before = glb->len;
    int rc = anim_gltf_write_asset_mem(asset, NULL, ANIM_GLTF_FORMAT_GLB, NULL, glb, NULL, &err);
    anim_asset_free(asset);
    if (rc != 0) {
        glb->len = before;
        if (glb->data)
            glb->data[before] = '\0';
        return err.code == ANIM_ERR_NOMEM
                   ? cm_nomem(c)
                   : cm_refuse(c, ANIM_MODEL_E_INTERNAL, "internal_error",
                               "compile: the GLB writer refused the built document: %s",
                               err.message);
    }
    return 0;
}

int mdl_compile(const mdl_doc *d, bool preview, const anim_model_limits *limits,
                const volatile int *cancel, anim_strbuf *glb, mdl_compile_info *info,
                anim_model_fault *fault)
{
    mdl_compile_info scratch;
    if (!info)
        info = &scratch;
    memset(info, 0, sizeof *info);
    cm_ctx c;
    memset(&c, 0, sizeof c);
    c.d = d;
    c.preview = preview;
    c.with_joints = !preview && d->joint_count > 0;
    c.limits = limits;
    c.info = info;
    c.fault = fault;
    glb_builder_init(&c.b);
    anim_strbuf raw = ANIM_STRBUF_INIT;
    int rc = check_document(&c);
    if (rc == 0)
        rc = build(&c, cancel, &raw);
    if (rc == 0 && cancel && *cancel)
        rc = cm_refuse(&c, ANIM_MODEL_E_REFUSED, "cancelled", "compile: cancelled");
    if (rc == 0)
        rc = reemit(&c, &raw, glb);
    for (size_t i = 0; i < c.mesh_count; i++)
        cm_mesh_free(&c.meshes[i]);
    free(c.meshes);
    free(c.image_views);
    cm_free_animations(&c);
    glb_builder_free(&c.b);
    anim_strbuf_free(&raw);
    if (rc != 0)
        memset(info, 0, sizeof *info);
    return rc;
}

void mdl_compile_info_write(const mdl_compile_info *info, struct anim_json_writer *w)
{
    anim_json_writer_key(w, "bounds");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "min");
    anim_json_writer_f64_array(w, info->min, 3);
    anim_json_writer_key(w, "max");
    anim_json_writer_f64_array(w, info->max, 3);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "counts");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "objects", info->objects);
    anim_json_writer_key_uint(w, "primitives", info->primitives);
    anim_json_writer_key_uint(w, "vertices", info->vertices);
    anim_json_writer_key_uint(w, "triangles", info->triangles);
    anim_json_writer_key_uint(w, "materials", info->materials);
    anim_json_writer_key_uint(w, "textures", info->textures);
    anim_json_writer_key_uint(w, "joints", info->joints);
    anim_json_writer_key_uint(w, "clips", info->clips);
    anim_json_writer_key_uint(w, "nonplanar_faces", info->nonplanar_faces);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "skinned");
    anim_json_writer_bool(w, info->skinned);
}
