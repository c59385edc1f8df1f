/* Meshes, skins, materials, textures, images and scenes. Mesh accessors are
 * validated here, at load, so that a measurement never presents bytes we
 * would have to reinterpret: an accessor we cannot decode exactly as
 * declared is refused naming its mesh, primitive, semantic and index. */
#include "io/gltf/gltf_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a semantic may hold: a type and a set of component encodings. */
typedef struct {
    const char *type;
    bool float_ok;
    bool norm_u8_u16;   /* normalized UNSIGNED_BYTE / UNSIGNED_SHORT */
    bool u8_u16;        /* plain UNSIGNED_BYTE / UNSIGNED_SHORT (JOINTS) */
    bool color_vec3;    /* COLOR_n may also be VEC3 */
} semantic_rule;

static bool semantic_rule_for(const char *sem, bool morph_target, semantic_rule *rule)
{
    memset(rule, 0, sizeof *rule);
    if (!strcmp(sem, "POSITION") || !strcmp(sem, "NORMAL")) {
        rule->type = "VEC3";
        rule->float_ok = true;
    } else if (!strcmp(sem, "TANGENT")) {
        rule->type = morph_target ? "VEC3" : "VEC4";
        rule->float_ok = true;
    } else if (!strncmp(sem, "TEXCOORD_", 9)) {
        rule->type = "VEC2";
        rule->float_ok = rule->norm_u8_u16 = true;
    } else if (!strncmp(sem, "COLOR_", 6)) {
        rule->type = "VEC4";
        rule->color_vec3 = true;
        rule->float_ok = rule->norm_u8_u16 = true;
    } else if (!strncmp(sem, "JOINTS_", 7)) {
        rule->type = "VEC4";
        rule->u8_u16 = true;
    } else if (!strncmp(sem, "WEIGHTS_", 8)) {
        rule->type = "VEC4";
        rule->float_ok = rule->norm_u8_u16 = true;
    } else {
        return false; /* application-specific (_FOO) or unknown: not decoded */
    }
    return true;
}

static const char *expected_text(const semantic_rule *r, char *buf, size_t n)
{
    if (r->u8_u16)
        snprintf(buf, n, "%s of UNSIGNED_BYTE or UNSIGNED_SHORT", r->type);
    else if (r->norm_u8_u16)
        snprintf(buf, n, "%s of FLOAT or normalized UNSIGNED_BYTE/UNSIGNED_SHORT", r->type);
    else
        snprintf(buf, n, "%s of FLOAT", r->type);
    return buf;
}

/* Mesh accessors are read as f64 by the measurements (8 bytes a value):
 * one without a buffer view is bounded by the implicit-accessor budget at
 * load, before any command decodes it. */
static int check_mesh_accessor(const anim_source *src, uint32_t acc, const char *ctx,
                               anim_error *err)
{
    return gltf_accessor_check_implicit(src, acc, sizeof(double), ctx, err) ||
           gltf_accessor_check_layout(src, acc, ctx, err);
}

static int check_attribute(const anim_source *src, uint32_t acc, const char *sem,
                           bool morph_target, const char *ctx, anim_error *err)
{
    semantic_rule rule;
    if (!semantic_rule_for(sem, morph_target, &rule))
        return check_mesh_accessor(src, acc, ctx, err);
    const anim_accessor *a = &src->accessors[acc];
    const char *cname = anim_gltf_component_name(a->component_type);
    bool small_unsigned = a->component_type == ANIM_GLTF_UNSIGNED_BYTE ||
                          a->component_type == ANIM_GLTF_UNSIGNED_SHORT;
    bool type_ok = !strcmp(a->type, rule.type) || (rule.color_vec3 && !strcmp(a->type, "VEC3"));
    bool comp_ok = (rule.float_ok && a->component_type == ANIM_GLTF_FLOAT) ||
                   (rule.norm_u8_u16 && small_unsigned && a->normalized) ||
                   (rule.u8_u16 && small_unsigned && !a->normalized);
    char want[96];
    if (type_ok && !comp_ok && rule.norm_u8_u16 && small_unsigned && !a->normalized)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: accessor %u is %s of %s without \"normalized\": true, but the loader reads %s",
                              ctx, acc, a->type, cname, expected_text(&rule, want, sizeof want));
    if (!type_ok || !comp_ok) {
        if (!rule.norm_u8_u16 && !rule.u8_u16)
            snprintf(want, sizeof want, "%s of FLOAT", type_ok ? a->type : rule.type);
        else
            expected_text(&rule, want, sizeof want);
        return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                              "%s: accessor %u is %s of %s%s, but the loader reads %s", ctx, acc,
                              a->type, cname, a->normalized ? " (normalized)" : "", want);
    }
    return check_mesh_accessor(src, acc, ctx, err);
}

static int attribute_index(const anim_source *src, const anim_json_value *member,
                           const char *ctx, uint32_t *out, anim_error *err)
{
    if (!gltf_small_index(member, src->accessor_count, out))
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: is not the index of one of the file's %u accessors", ctx,
                              src->accessor_count);
    return 0;
}

/* A member's key as a C string (keys are not NUL-terminated in the tree).
 * Cut at cap - 1 bytes: semantics are matched on their first few bytes or
 * exactly against short names, and messages were cut shorter anyway. */
static const char *key_cstr(const anim_json_member *m, char *buf, size_t cap)
{
    size_t n = anim_json_key_len(m);
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, m->key, n);
    buf[n] = '\0';
    return buf;
}

static int build_primitive(const anim_source *src, uint32_t m, uint32_t p,
                           const anim_json_value *obj, uint32_t material_count,
                           anim_primitive *prim, anim_error *err)
{
    char ctx[160];
    snprintf(ctx, sizeof ctx, "mesh %u primitive %u", m, p);
    uint64_t mode;
    if (gltf_require_object(obj, ctx, err) ||
        gltf_get_index(src->json_text, obj, "material", ctx, false, material_count, "material", &prim->material,
                       err) ||
        gltf_get_index(src->json_text, obj, "indices", ctx, false, src->accessor_count, "accessor",
                       &prim->indices, err) ||
        gltf_get_u64(src->json_text, obj, "mode", ctx, false, 4, &mode, err))
        return -1;
    if (mode > 6)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: mode %llu is not a glTF primitive mode",
                              ctx, (unsigned long long)mode);
    prim->mode = (uint32_t)mode;
    prim->position = prim->normal = prim->joints0 = prim->weights0 = ANIM_NONE;
    const anim_json_value *attrs = anim_json_get(obj, "attributes");
    if (!attrs || attrs->type != ANIM_JSON_OBJECT)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: \"attributes\" must be an object", ctx);
    for (size_t i = 0; i < attrs->len; i++) {
        const anim_json_member *mem = &attrs->u.members[i];
        char key[256];
        const char *sem = key_cstr(mem, key, sizeof key);
        char actx[420];
        snprintf(actx, sizeof actx, "%s %s", ctx, sem);
        actx[199] = '\0'; /* the context's length before keys were borrowed */
        uint32_t acc = 0;
        if (attribute_index(src, &mem->value, actx, &acc, err) ||
            check_attribute(src, acc, sem, false, actx, err))
            return -1;
        if (!strcmp(sem, "POSITION")) {
            prim->position = acc;
            prim->vertex_count = src->accessors[acc].count;
        } else if (!strcmp(sem, "NORMAL")) {
            prim->normal = acc;
        } else if (!strncmp(sem, "JOINTS_", 7)) {
            prim->joint_sets++;
            if (!strcmp(sem, "JOINTS_0"))
                prim->joints0 = acc;
        } else if (!strncmp(sem, "WEIGHTS_", 8)) {
            prim->weight_sets++;
            if (!strcmp(sem, "WEIGHTS_0"))
                prim->weights0 = acc;
        }
    }
    if (prim->indices != ANIM_NONE) {
        const anim_accessor *a = &src->accessors[prim->indices];
        char ictx[200];
        snprintf(ictx, sizeof ictx, "%s indices", ctx);
        if (strcmp(a->type, "SCALAR") != 0 || a->normalized ||
            (a->component_type != ANIM_GLTF_UNSIGNED_BYTE &&
             a->component_type != ANIM_GLTF_UNSIGNED_SHORT &&
             a->component_type != ANIM_GLTF_UNSIGNED_INT))
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: accessor %u is %s of %s, but the loader reads SCALAR of UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT",
                                  ictx, prim->indices, a->type,
                                  anim_gltf_component_name(a->component_type));
        if (check_mesh_accessor(src, prim->indices, ictx, err))
            return -1;
    }
    const anim_json_value *targets;
    if (gltf_get_array(obj, "targets", ctx, &targets, err))
        return -1;
    prim->target_count = targets ? (uint32_t)targets->len : 0;
    for (uint32_t t = 0; t < prim->target_count; t++) {
        const anim_json_value *target = &targets->u.items[t];
        char tctx[200];
        snprintf(tctx, sizeof tctx, "%s target %u", ctx, t);
        if (gltf_require_object(target, tctx, err))
            return -1;
        for (size_t i = 0; i < target->len; i++) {
            const anim_json_member *mem = &target->u.members[i];
            char key[256];
            const char *sem = key_cstr(mem, key, sizeof key);
            char actx[460];
            snprintf(actx, sizeof actx, "%s %s", tctx, sem);
            actx[239] = '\0';
            uint32_t acc = 0;
            if (attribute_index(src, &mem->value, actx, &acc, err) ||
                check_attribute(src, acc, sem, true, actx, err))
                return -1;
        }
    }
    return 0;
}

static int build_meshes(const anim_source *src, anim_arena *arena, anim_doc *doc,
                        anim_error *err)
{
    const anim_json_value *meshes;
    if (gltf_get_array(src->root, "meshes", "glTF root", &meshes, err))
        return -1;
    doc->mesh_count = meshes ? (uint32_t)meshes->len : 0;
    doc->meshes = anim_arena_calloc(arena, doc->mesh_count ? doc->mesh_count : 1,
                                    sizeof *doc->meshes);
    if (!doc->meshes)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t m = 0; m < doc->mesh_count; m++) {
        const anim_json_value *obj = &meshes->u.items[m];
        anim_mesh *mesh = &doc->meshes[m];
        char ctx[32];
        snprintf(ctx, sizeof ctx, "mesh %u", m);
        const anim_json_value *prims, *weights;
        if (gltf_require_object(obj, ctx, err) ||
            gltf_get_string(arena, obj, "name", ctx, &mesh->name, err) ||
            gltf_get_array(obj, "primitives", ctx, &prims, err) ||
            gltf_get_array(obj, "weights", ctx, &weights, err))
            return -1;
        if (!prims || prims->len == 0)
            return anim_error_set(err, ANIM_ERR_INVALID, "%s: \"primitives\" must be a non-empty array",
                                  ctx);
        mesh->weight_count = weights ? (uint32_t)weights->len : 0;
        mesh->primitive_count = (uint32_t)prims->len;
        mesh->primitives = anim_arena_calloc(arena, mesh->primitive_count, sizeof *mesh->primitives);
        if (!mesh->primitives)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        for (uint32_t p = 0; p < mesh->primitive_count; p++)
            if (build_primitive(src, m, p, &prims->u.items[p], doc->material_count,
                                &mesh->primitives[p], err))
                return -1;
    }
    return 0;
}

static int build_skins(const anim_source *src, anim_arena *arena, anim_doc *doc,
                       anim_error *err)
{
    const anim_json_value *skins;
    if (gltf_get_array(src->root, "skins", "glTF root", &skins, err))
        return -1;
    doc->skin_count = skins ? (uint32_t)skins->len : 0;
    doc->skins = anim_arena_calloc(arena, doc->skin_count ? doc->skin_count : 1,
                                   sizeof *doc->skins);
    if (!doc->skins)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t s = 0; s < doc->skin_count; s++) {
        const anim_json_value *obj = &skins->u.items[s];
        anim_skin *skin = &doc->skins[s];
        char ctx[32];
        snprintf(ctx, sizeof ctx, "skin %u", s);
        const anim_json_value *joints;
        if (gltf_require_object(obj, ctx, err) ||
            gltf_get_string(arena, obj, "name", ctx, &skin->name, err) ||
            gltf_get_array(obj, "joints", ctx, &joints, err) ||
            gltf_get_index(src->json_text, obj, "skeleton", ctx, false, doc->node_count, "node", &skin->skeleton,
                           err) ||
            gltf_get_index(src->json_text, obj, "inverseBindMatrices", ctx, false, src->accessor_count,
                           "accessor", &skin->inverse_bind_accessor, err))
            return -1;
        if (!joints || joints->len == 0)
            return anim_error_set(err, ANIM_ERR_INVALID, "%s: \"joints\" must be a non-empty array",
                                  ctx);
        skin->joint_count = (uint32_t)joints->len;
        skin->joints = anim_arena_calloc(arena, skin->joint_count, sizeof *skin->joints);
        if (!skin->joints)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        for (uint32_t j = 0; j < skin->joint_count; j++) {
            const anim_json_value *jv = &joints->u.items[j];
            if (!gltf_small_index(jv, doc->node_count, &skin->joints[j]))
                return anim_error_set(err, ANIM_ERR_INVALID,
                                      "%s: joints[%u] is not the index of one of the file's %u nodes",
                                      ctx, j, doc->node_count);
        }
        if (skin->inverse_bind_accessor == ANIM_NONE)
            continue;
        const anim_accessor *a = &src->accessors[skin->inverse_bind_accessor];
        char ictx[64];
        snprintf(ictx, sizeof ictx, "skin %u inverseBindMatrices", s);
        if (strcmp(a->type, "MAT4") != 0 || a->component_type != ANIM_GLTF_FLOAT)
            return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                                  "%s: accessor %u is %s of %s, but the loader reads MAT4 of FLOAT",
                                  ictx, skin->inverse_bind_accessor, a->type,
                                  anim_gltf_component_name(a->component_type));
        if (a->count < skin->joint_count)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: accessor %u has %u matrices for %u joints", ictx,
                                  skin->inverse_bind_accessor, a->count, skin->joint_count);
        if (gltf_accessor_check_layout(src, skin->inverse_bind_accessor, ictx, err))
            return -1;
        bool borrowed;
        const float *f = gltf_accessor_floats(src, arena, skin->inverse_bind_accessor, &borrowed, err);
        if (!f)
            return -1;
        skin->inverse_bind = anim_arena_calloc(arena, (size_t)skin->joint_count * 16, sizeof(double));
        if (!skin->inverse_bind)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        for (size_t i = 0; i < (size_t)skin->joint_count * 16; i++)
            skin->inverse_bind[i] = f[i];
        /* Later skins overwrite earlier ones; inspect's [skinned]. */
        for (uint32_t j = 0; j < skin->joint_count; j++) {
            anim_bone *bone = &doc->bones[doc->node_to_bone[skin->joints[j]]];
            bone->has_inverse_bind = true;
            memcpy(bone->inverse_bind, skin->inverse_bind + (size_t)j * 16, 16 * sizeof(double));
        }
    }
    return 0;
}

static int build_named(const anim_source *src, anim_arena *arena, const char *key,
                       const char *label, size_t elem, uint32_t *count, void **out,
                       anim_error *err)
{
    const anim_json_value *arr;
    if (gltf_get_array(src->root, key, "glTF root", &arr, err))
        return -1;
    *count = arr ? (uint32_t)arr->len : 0;
    *out = anim_arena_calloc(arena, *count ? *count : 1, elem);
    if (!*out)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < *count; i++) {
        char ctx[48];
        snprintf(ctx, sizeof ctx, "%s %u", label, i);
        if (gltf_require_object(&arr->u.items[i], ctx, err))
            return -1;
    }
    return 0;
}

/* The core textureInfo slots, in ANIM_MATERIAL_TEXTURE_SLOTS order: which
 * object holds each (the material or its pbrMetallicRoughness) and its key. */
static const struct {
    bool in_pbr;
    const char *key;
} texture_slots[ANIM_MATERIAL_TEXTURE_SLOTS] = {
    {true, "baseColorTexture"}, {false, "normalTexture"}, {true, "metallicRoughnessTexture"},
    {false, "occlusionTexture"}, {false, "emissiveTexture"},
};

/* A material's name and texture references. A textureInfo must be an
 * object whose required "index" names one of the file's textures; anything
 * else is refused naming the material and slot, as every other reference
 * is, rather than measured as if the slot were empty. */
static int build_material(const anim_source *src, anim_arena *arena, const anim_json_value *obj,
                          uint32_t m, uint32_t texture_count, anim_material *mat,
                          anim_error *err)
{
    char ctx[48], pctx[80], sctx[120];
    gltf_format_ctx(ctx, sizeof ctx, "material ", m);
    snprintf(pctx, sizeof pctx, "%s pbrMetallicRoughness", ctx);
    const anim_json_value *pbr = anim_json_get(obj, "pbrMetallicRoughness");
    if (gltf_get_string(arena, obj, "name", ctx, &mat->name, err) ||
        (pbr && gltf_require_object(pbr, pctx, err)))
        return -1;
    for (int s = 0; s < ANIM_MATERIAL_TEXTURE_SLOTS; s++) {
        const anim_json_value *parent = texture_slots[s].in_pbr ? pbr : obj;
        const anim_json_value *info = parent ? anim_json_get(parent, texture_slots[s].key) : NULL;
        mat->textures[s] = ANIM_NONE;
        if (!info)
            continue;
        snprintf(sctx, sizeof sctx, "%s %s%s", ctx,
                 texture_slots[s].in_pbr ? "pbrMetallicRoughness." : "", texture_slots[s].key);
        if (gltf_require_object(info, sctx, err) ||
            gltf_get_index(src->json_text, info, "index", sctx, true, texture_count, "texture",
                           &mat->textures[s], err))
            return -1;
    }
    return 0;
}

/* glTF lists each root of a scene once, and only roots: a repeated or
 * non-root entry would count a subtree twice in the scene's evidence. */
static int check_scene_roots(const anim_doc *doc, anim_error *err)
{
    /* scene_of[node] = 1 + the last scene that listed it, entry_of[node]
     * the entry there: one pass, no per-scene clearing. */
    size_t n = doc->node_count ? doc->node_count : 1;
    uint32_t *scene_of = calloc(n, sizeof *scene_of);
    uint32_t *entry_of = calloc(n, sizeof *entry_of);
    int rc = scene_of && entry_of ? 0 : anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t s = 0; s < doc->scene_count && rc == 0; s++) {
        const anim_scene *scene = &doc->scenes[s];
        for (uint32_t k = 0; k < scene->node_count && rc == 0; k++) {
            uint32_t node = scene->nodes[k];
            const anim_bone *bone = &doc->bones[doc->node_to_bone[node]];
            if (scene_of[node] == s + 1)
                rc = anim_error_set(err, ANIM_ERR_INVALID,
                                    "scene %u: nodes[%u] lists node %u a second time (nodes[%u])",
                                    s, k, node, entry_of[node]);
            else if (bone->parent != ANIM_NONE)
                rc = anim_error_set(err, ANIM_ERR_INVALID,
                                    "scene %u: nodes[%u] is node %u, which is not a root (node %u "
                                    "lists it as a child)",
                                    s, k, node, doc->bones[bone->parent].node);
            scene_of[node] = s + 1;
            entry_of[node] = k;
        }
    }
    free(scene_of);
    free(entry_of);
    return rc;
}

int gltf_build_assets(const anim_source *src, anim_arena *arena, anim_doc *doc,
                      anim_error *err)
{
    const anim_json_value *arr;
    if (build_named(src, arena, "materials", "material", sizeof(anim_material),
                    &doc->material_count, (void **)&doc->materials, err) ||
        build_named(src, arena, "images", "image", sizeof(anim_image), &doc->image_count,
                    (void **)&doc->images, err) ||
        build_named(src, arena, "textures", "texture", sizeof(anim_texture),
                    &doc->texture_count, (void **)&doc->textures, err) ||
        build_named(src, arena, "scenes", "scene", sizeof(anim_scene), &doc->scene_count,
                    (void **)&doc->scenes, err))
        return -1;
    arr = anim_json_get(src->root, "materials");
    for (uint32_t i = 0; i < doc->material_count; i++)
        if (build_material(src, arena, &arr->u.items[i], i, doc->texture_count,
                           &doc->materials[i], err))
            return -1;
    for (uint32_t i = 0; i < doc->image_count; i++) {
        char ctx[48];
        snprintf(ctx, sizeof ctx, "image %u", i);
        anim_image *img = &doc->images[i];
        const anim_json_value *obj = &anim_json_get(src->root, "images")->u.items[i];
        const char *uri;
        if (gltf_get_string(arena, obj, "name", ctx, &img->name, err) ||
            gltf_get_string(arena, obj, "uri", ctx, &uri, err) ||
            gltf_get_string(arena, obj, "mimeType", ctx, &img->mime_type, err) ||
            gltf_get_index(src->json_text, obj, "bufferView", ctx, false, src->view_count, "buffer view",
                           &img->buffer_view, err))
            return -1;
        if (uri && img->buffer_view != ANIM_NONE)
            return anim_error_set(err, ANIM_ERR_INVALID, "%s: has both \"uri\" and \"bufferView\"",
                                  ctx);
        if (uri)
            img->source = strncmp(uri, "data:", 5) == 0 ? ANIM_IMAGE_DATA_URI : ANIM_IMAGE_URI_FILE;
        else
            img->source = img->buffer_view != ANIM_NONE ? ANIM_IMAGE_BUFFER_VIEW : ANIM_IMAGE_NONE;
        img->uri = img->source == ANIM_IMAGE_URI_FILE ? uri : NULL;
    }
    for (uint32_t i = 0; i < doc->texture_count; i++) {
        char ctx[48];
        snprintf(ctx, sizeof ctx, "texture %u", i);
        const anim_json_value *obj = &anim_json_get(src->root, "textures")->u.items[i];
        const anim_json_value *samplers = anim_json_get(src->root, "samplers");
        uint32_t sampler_count = samplers && samplers->type == ANIM_JSON_ARRAY ? (uint32_t)samplers->len : 0;
        if (gltf_get_string(arena, obj, "name", ctx, &doc->textures[i].name, err) ||
            gltf_get_index(src->json_text, obj, "source", ctx, false, doc->image_count, "image",
                           &doc->textures[i].source, err) ||
            gltf_get_index(src->json_text, obj, "sampler", ctx, false, sampler_count, "sampler",
                           &doc->textures[i].sampler, err))
            return -1;
    }
    for (uint32_t i = 0; i < doc->scene_count; i++) {
        char ctx[48];
        snprintf(ctx, sizeof ctx, "scene %u", i);
        anim_scene *scene = &doc->scenes[i];
        const anim_json_value *obj = &anim_json_get(src->root, "scenes")->u.items[i];
        const anim_json_value *nodes;
        if (gltf_get_string(arena, obj, "name", ctx, &scene->name, err) ||
            gltf_get_array(obj, "nodes", ctx, &nodes, err))
            return -1;
        scene->node_count = nodes ? (uint32_t)nodes->len : 0;
        scene->nodes = anim_arena_calloc(arena, scene->node_count ? scene->node_count : 1,
                                         sizeof *scene->nodes);
        if (!scene->nodes)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        for (uint32_t k = 0; k < scene->node_count; k++) {
            const anim_json_value *nv = &nodes->u.items[k];
            if (!gltf_small_index(nv, doc->node_count, &scene->nodes[k]))
                return anim_error_set(err, ANIM_ERR_INVALID,
                                      "%s: nodes[%u] is not the index of one of the file's %u nodes",
                                      ctx, k, doc->node_count);
        }
    }
    if (check_scene_roots(doc, err))
        return -1;
    if (gltf_get_index(src->json_text, src->root, "scene", "glTF root", false, doc->scene_count, "scene",
                       &doc->default_scene, err))
        return -1;
    return build_meshes(src, arena, doc, err) || build_skins(src, arena, doc, err) ? -1 : 0;
}
