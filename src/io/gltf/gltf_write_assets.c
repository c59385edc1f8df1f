/* The writer's document structure: nodes (one per bone, node index = bone
 * index), scenes, and everything a loaded source held beside its
 * animations: meshes, skins, materials, textures, samplers, images,
 * cameras, and the root's extensions and extras.
 *
 * Objects are carried over from the source JSON, and only the references
 * that change are rewritten: node indices (bones are in depth-first
 * order, which may differ from the file's node order) and accessor and
 * buffer-view indices (all data is repacked). Meshes, materials, textures,
 * images, samplers, skins and cameras keep their indices, so references to
 * them (including those inside extensions) stay valid. An extension whose
 * data could hold accessor, view or node references we do not rewrite is
 * refused instead of being written wrong. */
#include <stdio.h>
#include <string.h>

#include "io/gltf/gltf_write_internal.h"

/* Extensions whose content refers only to objects that keep their index
 * (textures, images, materials, lights, variants) or to nothing. */
static bool extension_carried(const char *name, size_t len)
{
    static const char *const exact[] = {
        "KHR_texture_transform", "KHR_texture_basisu", "EXT_texture_webp", "EXT_texture_avif",
        "KHR_lights_punctual",   "KHR_xmp_json_ld",    "KHR_mesh_quantization",
    };
    if (len > 14 && memcmp(name, "KHR_materials_", 14) == 0)
        return true;
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        if (strlen(exact[i]) == len && memcmp(exact[i], name, len) == 0)
            return true;
    return false;
}

static int refuse_extension(gw *g, const char *where, const char *name, size_t len)
{
    return gw_fail(g, ANIM_ERR_UNSUPPORTED,
                   "%s \"%.*s\": writing this extension is not supported (its data could refer "
                   "to nodes, accessors or buffer views the writer renumbers)",
                   where, (int)len, name);
}

/* Every "extensions" object inside v (extras excepted: user data may use
 * the word) names only carried extensions, declared or not: a file that
 * uses one without declaring it is still read, and its data copied. */
static int check_used_in(gw *g, const anim_json_value *v, const char *where, int depth)
{
    if (depth > GOUT_MAX_COPY_DEPTH)
        return 0; /* the copy refuses such nesting itself */
    if (v->type == ANIM_JSON_ARRAY) {
        for (size_t i = 0; i < anim_json_count(v); i++)
            if (check_used_in(g, anim_json_item(v, i), where, depth + 1))
                return -1;
        return 0;
    }
    if (v->type != ANIM_JSON_OBJECT)
        return 0;
    for (size_t i = 0; i < anim_json_count(v); i++) {
        const anim_json_member *m = anim_json_member_at(v, i);
        size_t n = anim_json_key_len(m);
        if (n == 6 && memcmp(m->key, "extras", 6) == 0)
            continue;
        if (n == 10 && memcmp(m->key, "extensions", 10) == 0 &&
            m->value.type == ANIM_JSON_OBJECT) {
            for (size_t e = 0; e < anim_json_count(&m->value); e++) {
                const anim_json_member *x = anim_json_member_at(&m->value, e);
                if (!extension_carried(x->key, anim_json_key_len(x)))
                    return refuse_extension(g, where, x->key, anim_json_key_len(x));
            }
        }
        if (check_used_in(g, &m->value, where, depth + 1))
            return -1;
    }
    return 0;
}

static int check_extensions(gw *g)
{
    static const char *const keys[] = {"extensionsUsed", "extensionsRequired"};
    for (size_t k = 0; k < 2; k++) {
        const anim_json_value *list = gw_source_array(g, keys[k]);
        for (size_t i = 0; list && i < anim_json_count(list); i++) {
            const anim_json_value *v = anim_json_item(list, i);
            char where[48];
            snprintf(where, sizeof where, "%s[%zu] =", keys[k], i);
            if (v->type == ANIM_JSON_STRING &&
                !extension_carried(anim_json_string(v), anim_json_string_len(v)))
                return refuse_extension(g, where, anim_json_string(v), anim_json_string_len(v));
        }
    }
    /* The objects the writer copies (accessors and views are rebuilt, and
     * animations keep only extras and extensions of their own). */
    static const char *const copied[] = {"nodes",    "meshes",  "skins",   "materials",
                                         "textures", "images",  "samplers", "cameras",
                                         "scenes",   "animations"};
    for (size_t k = 0; k < sizeof copied / sizeof *copied; k++) {
        const anim_json_value *list = gw_source_array(g, copied[k]);
        for (size_t i = 0; list && i < anim_json_count(list); i++) {
            char where[64];
            snprintf(where, sizeof where, "%s %zu: extension", copied[k], i);
            if (check_used_in(g, anim_json_item(list, i), where, 0))
                return -1;
        }
    }
    const anim_json_value *root_ext = anim_json_get(g->src->root, "extensions");
    if (root_ext && root_ext->type == ANIM_JSON_OBJECT)
        for (size_t e = 0; e < anim_json_count(root_ext); e++) {
            const anim_json_member *x = anim_json_member_at(root_ext, e);
            if (!extension_carried(x->key, anim_json_key_len(x)))
                return refuse_extension(g, "root extension", x->key, anim_json_key_len(x));
        }
    return 0;
}

gout *gw_f32_vec(gw *g, const double *v, int n)
{
    gout *arr = gout_array(&g->b);
    for (int i = 0; i < n; i++)
        gout_push(&g->b, arr, gout_f64(&g->b, (double)(float)v[i]));
    return arr;
}

static gout *uint_of(gw *g, uint64_t v) { return gout_uint(&g->b, v); }

/* Source node n's object as written for bone b. */
static gout *node_object(gw *g, uint32_t b)
{
    const anim_bone *bone = &g->doc->bones[b];
    const anim_json_value *nodes = gw_source_array(g, "nodes");
    gout *node = NULL;
    if (nodes && bone->node < anim_json_count(nodes)) {
        node = gout_copy(&g->b, anim_json_item(nodes, bone->node));
        gout_remove(node, "matrix");
        gout_remove(node, "children");
    } else {
        node = gout_object(&g->b);
    }
    gout *children = NULL;
    /* Parents precede children, so only later bones can be children. */
    for (uint32_t j = b + 1; j < g->doc->bone_count; j++) {
        if (g->doc->bones[j].parent != b)
            continue;
        if (!children)
            children = gout_array(&g->b);
        gout_push(&g->b, children, uint_of(g, j));
    }
    if (children)
        gout_set(&g->b, node, "children", children);
    gout_set(&g->b, node, "name", gout_string(&g->b, bone->name ? bone->name : ""));
    gout_set(&g->b, node, "rotation", gw_f32_vec(g, bone->rest_rotation, 4));
    gout_set(&g->b, node, "scale", gw_f32_vec(g, bone->rest_scale, 3));
    gout_set(&g->b, node, "translation", gw_f32_vec(g, bone->rest_translation, 3));
    return node;
}

/* A node reference of the source as a bone index. */
static gout *node_ref(gw *g, const anim_json_value *v, const char *ctx)
{
    const anim_doc *sd = g->src_doc;
    if (!anim_json_is_integer(v) || anim_json_integer(v) < 0 ||
        (uint64_t)anim_json_integer(v) >= sd->node_count) {
        gw_fail(g, ANIM_ERR_INVALID, "%s: node reference is not a node index", ctx);
        return NULL;
    }
    return uint_of(g, sd->node_to_bone[anim_json_integer(v)]);
}

static gout *node_list(gw *g, const anim_json_value *list, const char *ctx)
{
    gout *out = gout_array(&g->b);
    for (size_t i = 0; list && i < anim_json_count(list); i++) {
        gout *ref = node_ref(g, anim_json_item(list, i), ctx);
        if (!ref)
            return NULL;
        gout_push(&g->b, out, ref);
    }
    return out;
}

static int write_scenes(gw *g)
{
    const anim_json_value *scenes = gw_source_array(g, "scenes");
    gout *out = gout_array(&g->b);
    if (scenes) {
        for (size_t s = 0; s < anim_json_count(scenes); s++) {
            const anim_json_value *obj = anim_json_item(scenes, s);
            char ctx[32];
            snprintf(ctx, sizeof ctx, "scene %zu", s);
            gout *scene = gout_copy(&g->b, obj);
            const anim_json_value *nodes = anim_json_get(obj, "nodes");
            if (nodes) {
                gout *list = node_list(g, nodes, ctx);
                if (!list)
                    return -1;
                gout_set(&g->b, scene, "nodes", list);
            }
            gout_push(&g->b, out, scene);
        }
        if (g->src_doc->default_scene != ANIM_NONE)
            gout_set(&g->b, g->root, "scene", uint_of(g, g->src_doc->default_scene));
    } else {
        /* A document without scenes gets one holding its roots. */
        gout *scene = gout_object(&g->b), *roots = gout_array(&g->b);
        for (uint32_t b = 0; b < g->doc->bone_count; b++)
            if (g->doc->bones[b].parent == ANIM_NONE)
                gout_push(&g->b, roots, uint_of(g, b));
        gout_set(&g->b, scene, "nodes", roots);
        gout_push(&g->b, out, scene);
        gout_set(&g->b, g->root, "scene", uint_of(g, 0));
    }
    gout_set(&g->b, g->root, "scenes", out);
    return 0;
}

int gw_write_nodes_and_scenes(gw *g)
{
    gout *nodes = gout_array(&g->b);
    for (uint32_t b = 0; b < g->doc->bone_count; b++)
        gout_push(&g->b, nodes, node_object(g, b));
    if (g->doc->bone_count)
        gout_set(&g->b, g->root, "nodes", nodes);
    if (write_scenes(g))
        return -1;
    return g->b.failed ? gw_fail(g, ANIM_ERR_NOMEM, "out of memory") : 0;
}

/* Rewrites every accessor index of an attribute map ({"POSITION": 3}). */
static int map_attributes(gw *g, gout *map, gw_use use, const char *ctx)
{
    /* Sorted, so the data's order in the buffer does not depend on the
     * source's key order and a written file writes back unchanged. */
    gout_sort_members(map);
    for (uint32_t i = 0; map && map->type == GOUT_OBJECT && i < map->count; i++) {
        gout_member *m = &map->v.members[i];
        char actx[128];
        snprintf(actx, sizeof actx, "%s %.*s", ctx, (int)m->key_len, m->key);
        if (m->value->type != GOUT_INT || m->value->v.i < 0)
            return gw_fail(g, ANIM_ERR_INVALID, "%s: not an accessor index", actx);
        int64_t a = gw_accessor(g, (uint32_t)m->value->v.i, use, actx);
        if (a < 0)
            return -1;
        m->value = uint_of(g, (uint64_t)a);
    }
    return 0;
}

static int write_meshes(gw *g)
{
    const anim_json_value *meshes = gw_source_array(g, "meshes");
    if (!meshes)
        return 0;
    gout *out = gout_array(&g->b);
    for (size_t m = 0; m < anim_json_count(meshes); m++) {
        gout *mesh = gout_copy(&g->b, anim_json_item(meshes, m));
        gout *prims = gout_get(mesh, "primitives");
        for (uint32_t p = 0; prims && prims->type == GOUT_ARRAY && p < prims->count; p++) {
            gout *prim = prims->v.items[p];
            char ctx[64];
            snprintf(ctx, sizeof ctx, "mesh %zu primitive %u", m, p);
            const anim_gltf_prim_override *o = gw_override_of(g, (uint32_t)m, p);
            if (o) {
                if (gw_write_override(g, prim, o, ctx))
                    return -1;
                continue;
            }
            if (map_attributes(g, gout_get(prim, "attributes"), GW_USE_VERTEX, ctx))
                return -1;
            gout *targets = gout_get(prim, "targets");
            for (uint32_t t = 0; targets && targets->type == GOUT_ARRAY && t < targets->count;
                 t++) {
                char tctx[96];
                snprintf(tctx, sizeof tctx, "%s target %u", ctx, t);
                if (map_attributes(g, targets->v.items[t], GW_USE_VERTEX, tctx))
                    return -1;
            }
            gout *indices = gout_get(prim, "indices");
            if (indices) {
                char ictx[96];
                snprintf(ictx, sizeof ictx, "%s indices", ctx);
                if (indices->type != GOUT_INT || indices->v.i < 0)
                    return gw_fail(g, ANIM_ERR_INVALID, "%s: not an accessor index", ictx);
                int64_t a = gw_accessor(g, (uint32_t)indices->v.i, GW_USE_INDEX, ictx);
                if (a < 0)
                    return -1;
                gout_set(&g->b, prim, "indices", uint_of(g, (uint64_t)a));
            }
        }
        gout_push(&g->b, out, mesh);
    }
    gout_set(&g->b, g->root, "meshes", out);
    return 0;
}

static int write_skins(gw *g)
{
    const anim_json_value *skins = gw_source_array(g, "skins");
    if (!skins)
        return 0;
    gout *out = gout_array(&g->b);
    for (size_t s = 0; s < anim_json_count(skins); s++) {
        const anim_json_value *obj = anim_json_item(skins, s);
        char ctx[48];
        snprintf(ctx, sizeof ctx, "skin %zu", s);
        gout *skin = gout_copy(&g->b, obj);
        gout *joints = node_list(g, anim_json_get(obj, "joints"), ctx);
        if (!joints)
            return -1;
        gout_set(&g->b, skin, "joints", joints);
        const anim_json_value *skeleton = anim_json_get(obj, "skeleton");
        if (skeleton) {
            gout *ref = node_ref(g, skeleton, ctx);
            if (!ref)
                return -1;
            gout_set(&g->b, skin, "skeleton", ref);
        }
        const anim_json_value *ibm = anim_json_get(obj, "inverseBindMatrices");
        if (ibm) {
            char ictx[96];
            snprintf(ictx, sizeof ictx, "%s inverseBindMatrices", ctx);
            if (!anim_json_is_integer(ibm) || anim_json_integer(ibm) < 0)
                return gw_fail(g, ANIM_ERR_INVALID, "%s: not an accessor index", ictx);
            int64_t a = gw_accessor(g, (uint32_t)anim_json_integer(ibm), GW_USE_OTHER, ictx);
            if (a < 0)
                return -1;
            gout_set(&g->b, skin, "inverseBindMatrices", uint_of(g, (uint64_t)a));
        }
        gout_push(&g->b, out, skin);
    }
    gout_set(&g->b, g->root, "skins", out);
    return 0;
}

/* GLB output embeds every image in the BIN chunk; .gltf output keeps
 * URIs as they are (files beside it, data URIs) and embedded images in
 * its buffer. */
static int write_images(gw *g)
{
    const anim_json_value *images = gw_source_array(g, "images");
    if (!images)
        return 0;
    gout *out = gout_array(&g->b);
    for (size_t i = 0; i < anim_json_count(images); i++) {
        gout *img = gout_copy(&g->b, anim_json_item(images, i));
        bool embed = g->format == ANIM_GLTF_FORMAT_GLB ||
                     g->src_doc->images[i].source == ANIM_IMAGE_BUFFER_VIEW;
        if (embed) {
            int64_t view;
            const char *mime;
            if (gw_embed_image(g, (uint32_t)i, &view, &mime))
                return -1;
            gout_remove(img, "uri");
            gout_set(&g->b, img, "bufferView", uint_of(g, (uint64_t)view));
            gout_set(&g->b, img, "mimeType", gout_string(&g->b, mime));
        }
        gout_push(&g->b, out, img);
    }
    gout_set(&g->b, g->root, "images", out);
    return 0;
}

/* Arrays carried over unchanged: their indices and contents stay. */
static void copy_verbatim(gw *g)
{
    static const char *const keys[] = {"materials", "textures", "samplers", "cameras"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const anim_json_value *list = gw_source_array(g, keys[k]);
        if (list)
            gout_set(&g->b, g->root, keys[k], gout_copy(&g->b, list));
    }
    static const char *const root_keys[] = {"extensions", "extras", "extensionsUsed",
                                            "extensionsRequired"};
    for (size_t k = 0; k < sizeof root_keys / sizeof root_keys[0]; k++) {
        const anim_json_value *v = anim_json_get(g->src->root, root_keys[k]);
        if (v)
            gout_set(&g->b, g->root, root_keys[k], gout_copy(&g->b, v));
    }
}

int gw_write_assets(gw *g)
{
    if (!g->src)
        return 0;
    if (check_extensions(g) || write_meshes(g) || write_skins(g) || write_images(g))
        return -1;
    copy_verbatim(g);
    return g->b.failed ? gw_fail(g, ANIM_ERR_NOMEM, "out of memory") : 0;
}
