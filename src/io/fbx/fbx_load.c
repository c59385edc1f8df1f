/* The FBX load pipeline: bytes -> node tree -> object graph -> scene
 * (nodes, geometry, animation) -> GLB in memory -> glTF asset. */
#include "io/fbx/fbx_load.h"

#include <stdlib.h>
#include <string.h>

#include "animsmith/fbx.h"
#include "animsmith/path.h"
#include "io/fbx/fbx_gltf.h"
#include "io/file_read.h"

/* Largest linked texture file the projection embeds. */
#define FBX_MAX_IMAGE_BYTES ((size_t)64 << 20)

static anim_fbx_loaded *loaded_new(anim_error *err)
{
    anim_fbx_loaded *l = calloc(1, sizeof *l);
    if (l)
        l->arena = anim_arena_new();
    if (!l || !l->arena) {
        free(l);
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    return l;
}

void anim_fbx_loaded_free(anim_fbx_loaded *l)
{
    if (!l)
        return;
    anim_arena_free(l->arena);
    free(l);
}

static int build(anim_fbx_loaded *l, const char *base_dir, const anim_load_options *opts,
                 anim_error *err)
{
    anim_fbx_parse_limits pl = {0};
    if (anim_fbx_parse(l->bytes, l->byte_count, l->arena, &pl, &l->tree, err))
        return -1;
    if (anim_fbx_objects_build(&l->tree, l->arena, &l->objs, NULL, err))
        return -1;
    anim_fbx_scene *sc = &l->scene;
    memset(sc, 0, sizeof *sc);
    sc->objs = &l->objs;
    sc->arena = l->arena;
    sc->version = l->tree.version;
    sc->limits = opts->limits;
    if (base_dir && !(sc->base_dir = anim_arena_strdup(l->arena, base_dir)))
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    if (anim_fbx_build_nodes(sc, err) || anim_fbx_build_raw_nodes(sc, err) ||
        anim_fbx_build_geometry(sc, err) ||
        anim_fbx_build_anim(sc, err) || anim_fbx_scene_check(sc, err))
        return -1;
    return 0;
}

static anim_fbx_loaded *read_finish(anim_fbx_loaded *l, const char *base_dir,
                                    const char *display, const anim_load_options *opts,
                                    anim_error *err)
{
    if (!(l->path = anim_arena_strdup(l->arena, display ? display : "<memory>"))) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        anim_fbx_loaded_free(l);
        return NULL;
    }
    if (build(l, base_dir, opts, err)) {
        anim_error_prefix(err, "%s", l->path);
        anim_fbx_loaded_free(l);
        return NULL;
    }
    return l;
}

static void default_options(const anim_load_options **opts, anim_load_options *storage)
{
    if (!*opts) {
        anim_load_options_default(storage);
        *opts = storage;
    }
}

anim_fbx_loaded *anim_fbx_read(const char *path, const anim_load_options *opts, anim_error *err)
{
    anim_load_options defaults;
    default_options(&opts, &defaults);
    anim_fbx_loaded *l = loaded_new(err);
    if (!l)
        return NULL;
    if (anim_read_file(path, opts->max_file_bytes, l->arena, &l->bytes, &l->byte_count, err)) {
        anim_error_prefix(err, "%s", path);
        anim_fbx_loaded_free(l);
        return NULL;
    }
    char *base = anim_path_dirname(l->arena, path);
    if (!base) {
        anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", path);
        anim_fbx_loaded_free(l);
        return NULL;
    }
    return read_finish(l, base, path, opts, err);
}

anim_fbx_loaded *anim_fbx_read_memory(const void *bytes, size_t len, const char *base_dir,
                                      const char *display_path, const anim_load_options *opts,
                                      anim_error *err)
{
    anim_load_options defaults;
    default_options(&opts, &defaults);
    if (len > opts->max_file_bytes) {
        anim_error_set(err, ANIM_ERR_LIMIT, "%s: input of %zu bytes exceeds the %zu-byte limit",
                       display_path ? display_path : "<memory>", len, opts->max_file_bytes);
        return NULL;
    }
    anim_fbx_loaded *l = loaded_new(err);
    if (!l)
        return NULL;
    l->bytes = anim_arena_alloc(l->arena, len + 1);
    if (!l->bytes) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        anim_fbx_loaded_free(l);
        return NULL;
    }
    if (len)
        memcpy(l->bytes, bytes, len);
    l->bytes[len] = 0;
    l->byte_count = len;
    return read_finish(l, base_dir, display_path, opts, err);
}

/* The raw inventory into f, each row's gltf_node mapped through the node
 * table the projection wrote (convert may have edited it since stage 1). */
static int copy_raw_nodes(const anim_fbx_loaded *l, anim_arena *a, anim_fbx_facts *f)
{
    const anim_fbx_scene *sc = &l->scene;
    uint32_t objects = l->objs.object_count;
    f->raw_coverage = sc->raw_coverage;
    f->raw_coverage_reason = sc->raw_coverage_reason;
    if (!sc->raw_nodes && sc->node_count) {
        /* A scene built without stage 1's inventory: nothing is proven. */
        f->raw_coverage = ANIM_FBX_COVERAGE_PARTIAL;
        f->raw_coverage_reason = "raw_inventory_unavailable";
    }
    f->raw_nodes = anim_arena_calloc(a, sc->raw_node_count + 1, sizeof *f->raw_nodes);
    uint32_t *node_of = anim_arena_calloc(l->arena, (size_t)objects + 1, sizeof *node_of);
    if (!f->raw_nodes || !node_of)
        return -1;
    for (uint32_t i = 0; i < objects; i++)
        node_of[i] = ANIM_NONE;
    uint32_t root = ANIM_NONE;
    for (uint32_t i = 0; i < sc->node_count; i++) {
        uint32_t o = sc->nodes[i].object;
        if (o < objects && node_of[o] == ANIM_NONE)
            node_of[o] = i;
        else if (o == ANIM_FBX_SCENE_ROOT && root == ANIM_NONE)
            root = i;
    }
    f->raw_node_count = sc->raw_node_count;
    for (uint32_t i = 0; i < sc->raw_node_count; i++) {
        anim_fbx_raw_node *dst = &f->raw_nodes[i];
        *dst = sc->raw_nodes[i];
        uint32_t o = sc->raw_objects[i];
        dst->gltf_node = o == ANIM_FBX_SCENE_ROOT ? root : o < objects ? node_of[o] : ANIM_NONE;
        dst->name = anim_arena_strdup(a, sc->raw_nodes[i].name);
        dst->subclass = anim_arena_strdup(a, sc->raw_nodes[i].subclass);
        if (!dst->name || !dst->subclass)
            return -1;
    }
    return 0;
}

/* The FBX facts, copied into the asset's arena (the scene's arena is
 * released after the projection). */
static const anim_fbx_facts *copy_facts(const anim_fbx_loaded *l, anim_arena *a)
{
    const anim_fbx_scene *sc = &l->scene;
    anim_fbx_facts *f = anim_arena_calloc(a, 1, sizeof *f);
    if (!f)
        return NULL;
    f->version = l->tree.version;
    f->ascii = l->tree.ascii;
    f->unit_scale_factor = sc->unit_scale_factor;
    f->up_axis = sc->up_axis;
    f->up_sign = sc->up_sign;
    f->front_axis = sc->front_axis;
    f->front_sign = sc->front_sign;
    f->coord_axis = sc->coord_axis;
    f->coord_sign = sc->coord_sign;
    for (uint32_t i = 0; i < sc->node_count; i++)
        f->joint_count += sc->nodes[i].is_joint;
    f->takes = anim_arena_calloc(a, sc->clip_count + 1, sizeof *f->takes);
    f->notes = anim_arena_calloc(a, sc->note_count + 1, sizeof *f->notes);
    if (!f->takes || !f->notes)
        return NULL;
    f->take_count = sc->clip_count;
    for (uint32_t i = 0; i < sc->clip_count; i++) {
        const anim_fbx_clip *c = &sc->clips[i];
        anim_fbx_take *t = &f->takes[i];
        t->name = anim_arena_strdup(a, c->name ? c->name : "");
        t->start_ktime = c->start_ktime;
        t->stop_ktime = c->stop_ktime;
        t->start_s = c->start_s;
        t->stop_s = c->stop_s;
        t->frame_rate = c->frame_rate;
        t->span_source = c->span_source;
        t->time_mode = sc->time_mode;
        t->frame_period_ktime = sc->frame_period_ktime;
        t->curve_count = c->curve_count;
        t->track_count = c->track_count;
        t->ignored_layer_count = c->ignored_layer_count;
        t->ignored_layers = anim_arena_calloc(a, c->ignored_layer_count + 1, sizeof(char *));
        if (!t->name || !t->ignored_layers)
            return NULL;
        for (uint32_t k = 0; k < c->ignored_layer_count; k++)
            if (!(t->ignored_layers[k] = anim_arena_strdup(a, c->ignored_layers[k])))
                return NULL;
    }
    f->note_count = sc->note_count;
    for (uint32_t i = 0; i < sc->note_count; i++)
        if (!(f->notes[i] = anim_arena_strdup(a, sc->notes[i])))
            return NULL;
    if (copy_raw_nodes(l, a, f))
        return NULL;
    return f;
}

anim_asset *anim_fbx_to_asset(anim_fbx_loaded *l, const anim_load_options *opts, anim_error *err)
{
    anim_load_options defaults;
    default_options(&opts, &defaults);
    anim_fbx_gltf_options go = {opts->confine_uris, FBX_MAX_IMAGE_BYTES};
    anim_strbuf glb = ANIM_STRBUF_INIT;
    if (anim_fbx_to_glb(&l->scene, &go, &glb, err)) {
        anim_strbuf_free(&glb);
        anim_error_prefix(err, "%s", l->path);
        return NULL;
    }
    /* The projected document holds every byte it needs (images embedded):
     * no base directory, so it can name no external file. */
    anim_load_options inner = *opts;
    inner.max_file_bytes = (size_t)-1;
    anim_asset *asset = anim_asset_load_memory(glb.data, glb.len, true, NULL, l->path, &inner,
                                               err);
    anim_strbuf_free(&glb);
    if (!asset)
        return NULL;
    asset->source.path = anim_arena_strdup(asset->arena, l->path);
    uint8_t *input = anim_arena_alloc(asset->arena, l->byte_count + 1);
    const anim_fbx_facts *facts = copy_facts(l, asset->arena);
    if (!asset->source.path || !input || !facts) {
        anim_asset_free(asset);
        anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", l->path);
        return NULL;
    }
    memcpy(input, l->bytes, l->byte_count);
    asset->source.input_bytes = input;
    asset->source.input_byte_count = l->byte_count;
    asset->source.fbx = facts;
    return asset;
}

anim_asset *anim_fbx_asset_load(const char *path, const anim_load_options *opts, anim_error *err)
{
    anim_fbx_loaded *l = anim_fbx_read(path, opts, err);
    if (!l)
        return NULL;
    anim_asset *asset = anim_fbx_to_asset(l, opts, err);
    anim_fbx_loaded_free(l);
    return asset;
}
