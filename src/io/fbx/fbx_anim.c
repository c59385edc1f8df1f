/* Stage 3: AnimationStacks (7.x) to clips. Every stack is a clip; its
 * first layer is applied, later ones are listed as not applied; each
 * curve node on a Model's Lcl Translation / Rotation / Scaling, or on a
 * BlendShapeChannel's DeformPercent, becomes one animated property that
 * the track builder (fbx_anim_sample.c) samples. 6.1 Takes are read by
 * fbx_takes61.c into the same properties. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/fbx/fbx_curve.h"

typedef struct {
    anim_fbx_scene *scene;
    const anim_fbx_objects *objs;
    anim_fbx_curve **cache; /* decoded curve per object index */
} reader;

static int read_i64s(anim_arena *arena, const anim_fbx_node *rec, const char *name,
                     const int64_t **out, uint32_t *count, anim_error *err)
{
    const anim_fbx_node *c = anim_fbx_child(rec, name);
    *out = NULL;
    *count = 0;
    if (!c || c->prop_count == 0)
        return 0;
    return anim_fbx_prop_array_i64(arena, c, 0, out, count, err);
}

static int read_f64s(anim_arena *arena, const anim_fbx_node *rec, const char *name,
                     const double **out, uint32_t *count, anim_error *err)
{
    const anim_fbx_node *c = anim_fbx_child(rec, name);
    *out = NULL;
    *count = 0;
    if (!c || c->prop_count == 0)
        return 0;
    return anim_fbx_prop_array_f64(arena, c, 0, out, count, err);
}

/* KeyAttrDataFloat as floats. Binary files store f32 (the weights and
 * velocities are bit patterns in two of the four). ASCII files written by
 * the FBX SDK print every entry as the integer value of its bits (0 for
 * 0.0f, -2147483648 for -0.0f, 218434821 = 0x0D050D05 for the default
 * weights): an array of integers only is read that way, whole. Otherwise
 * (a writer that prints floats) the slopes are floats and a whole number
 * in a weight or velocity slot is its bits. */
static int read_attr(anim_arena *arena, const anim_fbx_node *rec, const float **out,
                     uint32_t *count, anim_error *err)
{
    const anim_fbx_node *c = anim_fbx_child(rec, "KeyAttrDataFloat");
    *out = NULL;
    *count = 0;
    if (!c || c->prop_count == 0)
        return 0;
    if (c->props[0].type == ANIM_FBX_ARR_F32) {
        *out = c->props[0].array;
        *count = c->props[0].count;
        return 0;
    }
    const double *d;
    uint32_t n;
    if (anim_fbx_prop_array_f64(arena, c, 0, &d, &n, err) != 0)
        return -1;
    float *f = n ? anim_arena_alloc(arena, (size_t)n * sizeof *f) : NULL;
    if (n && !f)
        return anim_error_set(err, ANIM_ERR_NOMEM, "KeyAttrDataFloat: out of memory");
    bool all_bits = c->props[0].type == ANIM_FBX_ARR_I64;
    for (uint32_t i = 0; i < n; i++) {
        bool whole = d[i] >= -2147483648.0 && d[i] < 4294967296.0 && d[i] == floor(d[i]);
        if (whole && (all_bits || (i % 4u >= 2u && d[i] >= 0.0))) {
            uint32_t bits = d[i] < 0 ? (uint32_t)(int32_t)d[i] : (uint32_t)d[i];
            memcpy(&f[i], &bits, sizeof bits);
        } else {
            f[i] = (float)d[i];
        }
    }
    *out = f;
    *count = n;
    return 0;
}

static const anim_fbx_curve *curve_of(reader *r, uint32_t index, anim_error *err)
{
    if (r->cache[index])
        return r->cache[index];
    const anim_fbx_object *o = &r->objs->objects[index];
    anim_arena *arena = r->scene->arena;
    char label[256];
    anim_fbx_object_label(o, label, sizeof label);
    const int64_t *times = NULL, *flags = NULL, *refs = NULL;
    const double *values = NULL;
    const float *attr = NULL;
    uint32_t nt, nv, nf, na, nr;
    double dflt = 0.0;
    const anim_fbx_node *d = anim_fbx_child(o->node, "Default");
    anim_fbx_curve *c = anim_arena_calloc(arena, 1, sizeof *c);
    if (!c) {
        anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", label);
        return NULL;
    }
    if ((d && d->prop_count && anim_fbx_prop_f64(d, 0, &dflt, err) != 0) ||
        read_i64s(arena, o->node, "KeyTime", &times, &nt, err) != 0 ||
        read_f64s(arena, o->node, "KeyValueFloat", &values, &nv, err) != 0 ||
        read_i64s(arena, o->node, "KeyAttrFlags", &flags, &nf, err) != 0 ||
        read_attr(arena, o->node, &attr, &na, err) != 0 ||
        read_i64s(arena, o->node, "KeyAttrRefCount", &refs, &nr, err) != 0 ||
        anim_fbx_curve_decode(arena, label, times, nt, values, nv, flags, nf, attr, na, refs, nr,
                              dflt, c, err) != 0) {
        anim_error_prefix(err, "%s", label);
        return NULL;
    }
    r->cache[index] = c;
    return c;
}

static int path_of(const char *prop)
{
    if (strcmp(prop, "Lcl Translation") == 0)
        return ANIM_PATH_TRANSLATION;
    if (strcmp(prop, "Lcl Rotation") == 0)
        return ANIM_PATH_ROTATION;
    if (strcmp(prop, "Lcl Scaling") == 0)
        return ANIM_PATH_SCALE;
    if (strcmp(prop, "DeformPercent") == 0)
        return ANIM_PATH_WEIGHTS;
    return -1;
}

/* The curves of a curve node (d|X, d|Y, d|Z or d|DeformPercent) and the
 * node's own defaults over the given statics. */
static int read_curve_node(reader *r, const anim_fbx_object *cn, anim_fbx_anim_prop *p,
                           anim_fbx_clip_src *src, anim_error *err)
{
    static const char *const axis[3] = {"d|X", "d|Y", "d|Z"};
    const anim_fbx_objects *objs = r->objs;
    bool weights = p->path == ANIM_PATH_WEIGHTS;
    /* The node's own value only: a template default is no statement. */
    for (int a = 0; cn->props && a < (weights ? 1 : 3); a++) {
        const char *name = weights ? "d|DeformPercent" : axis[a];
        uint32_t vi;
        if (anim_fbx_find_prop_in(cn->props, name, &vi) &&
            anim_fbx_props_f64(cn->props, name, p->statics[a], &p->statics[a], err) != 0)
            return -1;
    }
    const char *prop;
    for (uint32_t cursor = 0;;) {
        uint32_t ci = anim_fbx_next_child(objs, cn, "AnimationCurve", &cursor, &prop);
        if (ci == ANIM_FBX_SCENE_ROOT)
            break;
        int slot = -1;
        if (prop && weights && strcmp(prop, "d|DeformPercent") == 0)
            slot = 0;
        for (int a = 0; !weights && prop && a < 3; a++)
            if (strcmp(prop, axis[a]) == 0)
                slot = a;
        if (slot < 0 || p->curves[slot])
            continue;
        if (!(p->curves[slot] = curve_of(r, ci, err)))
            return -1;
    }
    return 0;
}

/* Every Model / BlendShapeChannel property the curve node drives. */
static int add_curve_node(reader *r, const anim_fbx_object *cn, anim_fbx_clip_src *src,
                          anim_error *err)
{
    anim_fbx_scene *scene = r->scene;
    const char *prop;
    for (uint32_t cursor = 0;;) {
        uint32_t ti = anim_fbx_next_parent(r->objs, cn, NULL, &cursor, &prop);
        if (ti == ANIM_FBX_SCENE_ROOT)
            break;
        int path = prop ? path_of(prop) : -1;
        if (path < 0)
            continue; /* the layer (OO), or Visibility and other properties */
        anim_fbx_anim_prop p = {.path = (anim_path)path, .mesh = ANIM_NONE, .target = ANIM_NONE};
        if (path != ANIM_PATH_WEIGHTS) {
            uint32_t n = anim_fbx_node_of_object(scene, ti);
            if (n == ANIM_NONE || n == 0)
                continue;
            const anim_fbx_xform *x = &scene->nodes[n].xform;
            const double *st = path == ANIM_PATH_TRANSLATION ? x->translation
                               : path == ANIM_PATH_ROTATION  ? x->rotation
                                                             : x->scaling;
            p.node = n;
            memcpy(p.statics, st, sizeof p.statics);
            if (read_curve_node(r, cn, &p, src, err) != 0 || anim_fbx_clip_src_add(scene->arena, src, &p, err) != 0)
                return -1;
            continue;
        }
        /* A blend-shape channel: every mesh target it is. */
        bool read = false;
        for (uint32_t m = 0; m < scene->mesh_count; m++) {
            const anim_fbx_mesh *mesh = &scene->meshes[m];
            for (uint32_t t = 0; mesh->target_objects && t < mesh->target_count; t++) {
                if (mesh->target_objects[t] != ti || mesh->node == ANIM_NONE)
                    continue;
                anim_fbx_anim_prop w = p;
                w.node = mesh->node;
                w.mesh = m;
                w.target = t;
                w.statics[0] = mesh->targets[t].default_weight * 100.0;
                if (read) { /* the curves once; the copies share them */
                    w.curves[0] = src->props[src->prop_count - 1].curves[0];
                } else if (read_curve_node(r, cn, &w, src, err) != 0) {
                    return -1;
                }
                read = true;
                if (anim_fbx_clip_src_add(scene->arena, src, &w, err) != 0)
                    return -1;
            }
        }
    }
    return 0;
}

/* LocalStart/Stop when the stack states them, else ReferenceStart/Stop. */
static int stack_span(reader *r, const anim_fbx_object *o, anim_fbx_clip_src *src, anim_error *err)
{
    static const char *const names[2][2] = {{"LocalStart", "LocalStop"},
                                            {"ReferenceStart", "ReferenceStop"}};
    for (int s = 0; s < 2; s++) {
        uint32_t vi;
        if (!o->props || (!anim_fbx_find_prop_in(o->props, names[s][0], &vi) &&
                          !anim_fbx_find_prop_in(o->props, names[s][1], &vi)))
            continue;
        if (anim_fbx_get_i64(r->objs, o, names[s][0], 0, &src->start, err) != 0 ||
            anim_fbx_get_i64(r->objs, o, names[s][1], 0, &src->stop, err) != 0)
            return -1;
        src->has_span = true;
        return 0;
    }
    return 0;
}

static int read_stack(reader *r, const anim_fbx_object *o, anim_error *err)
{
    anim_fbx_scene *scene = r->scene;
    const anim_fbx_objects *objs = r->objs;
    anim_fbx_clip_src src = {.name = o->name};
    if (stack_span(r, o, &src, err) != 0)
        return -1;
    uint32_t layers = 0;
    for (uint32_t cursor = 0;
         anim_fbx_next_child(objs, o, "AnimationLayer", &cursor, NULL) != ANIM_FBX_SCENE_ROOT;)
        layers++;
    if (layers > 1) {
        src.ignored_layers = anim_arena_calloc(scene->arena, layers - 1, sizeof *src.ignored_layers);
        if (!src.ignored_layers)
            return anim_error_set(err, ANIM_ERR_NOMEM, "clip '%s': out of memory", o->name);
    }
    uint32_t layer_cursor = 0;
    for (uint32_t i = 0; i < layers; i++) {
        uint32_t li = anim_fbx_next_child(objs, o, "AnimationLayer", &layer_cursor, NULL);
        const anim_fbx_object *layer = &objs->objects[li];
        if (i > 0) {
            src.ignored_layers[src.ignored_layer_count++] = layer->name;
            if (anim_fbx_scene_note(scene, err, "clip '%s': animation layer '%s' not applied (only the base layer is read)",
                                    o->name, layer->name) != 0)
                return -1;
            continue;
        }
        for (uint32_t cursor = 0;;) {
            uint32_t ci = anim_fbx_next_child(objs, layer, "AnimationCurveNode", &cursor, NULL);
            if (ci == ANIM_FBX_SCENE_ROOT)
                break;
            if (add_curve_node(r, &objs->objects[ci], &src, err) != 0)
                return -1;
            /* Every curve of the base layer counts as read, including
             * those on properties that make no track (Visibility). */
            for (uint32_t k = 0; anim_fbx_next_child(objs, &objs->objects[ci], "AnimationCurve",
                                                     &k, NULL) != ANIM_FBX_SCENE_ROOT;)
                src.curve_count++;
        }
    }
    return anim_fbx_clip_build(scene, &src, err);
}

int anim_fbx_build_anim(anim_fbx_scene *scene, anim_error *err)
{
    const anim_fbx_objects *objs = scene->objs;
    reader r = {.scene = scene, .objs = objs};
    if (objs->object_count) {
        r.cache = anim_arena_calloc(scene->arena, objs->object_count, sizeof *r.cache);
        if (!r.cache)
            return anim_error_set(err, ANIM_ERR_NOMEM, "animation: out of memory");
    }
    for (uint32_t i = 0; i < objs->object_count; i++)
        if (strcmp(objs->objects[i].cls, "AnimationStack") == 0 && read_stack(&r, &objs->objects[i], err) != 0)
            return -1;
    return anim_fbx_takes61_build(scene, err);
}
