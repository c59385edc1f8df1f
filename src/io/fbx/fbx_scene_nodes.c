/* Stage 1 of the FBX scene: GlobalSettings (units, axes, frame rate), the
 * Model hierarchy and each Model's transform properties, then the rest
 * pose (fbx_xform.c).
 *
 * Every Model object is a node; its parent is the Model it is OO-connected
 * to as a source, else the implicit node 0 <fbx-root>. Nodes are numbered
 * depth-first, parents before children, siblings in file order, with an
 * explicit stack (no recursion, whatever the file's depth). */
#include <math.h>
#include <string.h>

#include "io/fbx/fbx_scene.h"

static int read_i64(const anim_fbx_node *props, const char *name, int64_t dflt, int64_t *out,
                    anim_error *err)
{
    if (!props) {
        *out = dflt;
        return 0;
    }
    return anim_fbx_props_i64(props, name, dflt, out, err);
}

static int read_f64(const anim_fbx_node *props, const char *name, double dflt, double *out,
                    anim_error *err)
{
    if (!props) {
        *out = dflt;
        return 0;
    }
    if (anim_fbx_props_f64(props, name, dflt, out, err) < 0)
        return -1;
    if (!isfinite(*out))
        return anim_error_set(err, ANIM_ERR_INVALID, "GlobalSettings property '%s': not finite",
                              name);
    return 0;
}

/* Axis indices and signs are small integers; anything else is refused by
 * anim_fbx_scene_axes, so out-of-range values are clamped to a value it
 * rejects rather than truncated into a valid one. */
static int small_int(int64_t v)
{
    return v < -1000 ? -1000 : v > 1000 ? 1000 : (int)v;
}

static int read_global_settings(anim_fbx_scene *scene, anim_error *err)
{
    const anim_fbx_node *gs = scene->objs->global_settings;
    int64_t up, up_sign, front, front_sign, coord, coord_sign, mode;
    double custom;
    if (read_f64(gs, "UnitScaleFactor", 1.0, &scene->unit_scale_factor, err) < 0 ||
        read_i64(gs, "UpAxis", 1, &up, err) < 0 || read_i64(gs, "UpAxisSign", 1, &up_sign, err) < 0 ||
        read_i64(gs, "FrontAxis", 2, &front, err) < 0 ||
        read_i64(gs, "FrontAxisSign", 1, &front_sign, err) < 0 ||
        read_i64(gs, "CoordAxis", 0, &coord, err) < 0 ||
        read_i64(gs, "CoordAxisSign", 1, &coord_sign, err) < 0 ||
        read_i64(gs, "TimeMode", 0, &mode, err) < 0 ||
        read_f64(gs, "CustomFrameRate", 0.0, &custom, err) < 0)
        return -1;
    scene->up_axis = small_int(up);
    scene->up_sign = small_int(up_sign);
    scene->front_axis = small_int(front);
    scene->front_sign = small_int(front_sign);
    scene->coord_axis = small_int(coord);
    scene->coord_sign = small_int(coord_sign);
    if (anim_fbx_scene_axes(scene, err) < 0)
        return -1;
    scene->frame_rate = anim_fbx_frame_rate(mode, custom);
    /* The exact integer period too, for checks that must not go through
     * seconds (a whole end frame is a question about integers). */
    scene->time_mode = mode;
    scene->frame_period_ktime = anim_fbx_frame_period_ktime(mode, custom);
    if (scene->frame_rate == 0.0 && mode != 0 &&
        anim_fbx_scene_note(scene, err,
                            "GlobalSettings TimeMode %lld (CustomFrameRate %g): frame rate unknown",
                            (long long)mode, custom) < 0)
        return -1;
    return 0;
}

/* ---- one Model's transform properties ------------------------------------ */

static int vec3_prop(const anim_fbx_objects *objs, const anim_fbx_object *o, const char *name,
                     double dflt, double out[3], anim_error *err)
{
    const double d[3] = {dflt, dflt, dflt};
    if (anim_fbx_get_vec3(objs, o, name, d, out, err) < 0)
        return -1;
    if (!isfinite(out[0]) || !isfinite(out[1]) || !isfinite(out[2])) {
        char label[256];
        return anim_error_set(err, ANIM_ERR_INVALID, "%s property '%s': value is not finite",
                              anim_fbx_object_label(o, label, sizeof label), name);
    }
    return 0;
}

static int read_xform(const anim_fbx_objects *objs, const anim_fbx_object *o, anim_fbx_xform *x,
                      anim_error *err)
{
    if (vec3_prop(objs, o, "Lcl Translation", 0.0, x->translation, err) < 0 ||
        vec3_prop(objs, o, "Lcl Rotation", 0.0, x->rotation, err) < 0 ||
        vec3_prop(objs, o, "Lcl Scaling", 1.0, x->scaling, err) < 0 ||
        vec3_prop(objs, o, "PreRotation", 0.0, x->pre_rotation, err) < 0 ||
        vec3_prop(objs, o, "PostRotation", 0.0, x->post_rotation, err) < 0 ||
        vec3_prop(objs, o, "RotationOffset", 0.0, x->rotation_offset, err) < 0 ||
        vec3_prop(objs, o, "RotationPivot", 0.0, x->rotation_pivot, err) < 0 ||
        vec3_prop(objs, o, "ScalingOffset", 0.0, x->scaling_offset, err) < 0 ||
        vec3_prop(objs, o, "ScalingPivot", 0.0, x->scaling_pivot, err) < 0 ||
        vec3_prop(objs, o, "GeometricTranslation", 0.0, x->geometric_translation, err) < 0 ||
        vec3_prop(objs, o, "GeometricRotation", 0.0, x->geometric_rotation, err) < 0 ||
        vec3_prop(objs, o, "GeometricScaling", 1.0, x->geometric_scaling, err) < 0)
        return -1;
    int64_t active, limit_only, order, inherit;
    if (anim_fbx_get_i64(objs, o, "RotationActive", 0, &active, err) < 0 ||
        anim_fbx_get_i64(objs, o, "RotationSpaceForLimitOnly", 0, &limit_only, err) < 0 ||
        anim_fbx_get_i64(objs, o, "RotationOrder", 0, &order, err) < 0 ||
        anim_fbx_get_i64(objs, o, "InheritType", 0, &inherit, err) < 0)
        return -1;
    char label[256];
    if (order < 0 || order > 6)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s property 'RotationOrder': %lld is no rotation order (0-6)",
                              anim_fbx_object_label(o, label, sizeof label), (long long)order);
    if (inherit < 0 || inherit > 2)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s property 'InheritType': %lld is no inherit type (0-2)",
                              anim_fbx_object_label(o, label, sizeof label), (long long)inherit);
    x->inherit_type = (int)inherit;
    /* The FBX SDK applies PreRotation, PostRotation and RotationOrder only
     * while RotationActive is set, and not at all when they only define the
     * space of rotation limits (RotationSpaceForLimitOnly). */
    if (!active || limit_only) {
        memset(x->pre_rotation, 0, sizeof x->pre_rotation);
        memset(x->post_rotation, 0, sizeof x->post_rotation);
        order = 0;
    }
    if (order == 6)
        return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                              "%s property 'RotationOrder': spheric XYZ rotation is not supported",
                              anim_fbx_object_label(o, label, sizeof label));
    x->rotation_order = (int)order;
    return 0;
}

/* ---- hierarchy -------------------------------------------------------------- */

static bool is_model(const anim_fbx_object *o)
{
    return strcmp(o->cls, "Model") == 0;
}

/* The Model this one is OO-connected to as a source, ANIM_FBX_SCENE_ROOT
 * when none. */
static uint32_t parent_model(const anim_fbx_objects *objs, const anim_fbx_object *o)
{
    for (uint32_t cursor = 0;;) {
        const char *prop = NULL;
        uint32_t p = anim_fbx_next_parent(objs, o, "Model", &cursor, &prop);
        if (p == ANIM_FBX_SCENE_ROOT)
            return p;
        if (!prop)
            return p;
    }
}

static bool subclass_is_joint(const char *sub)
{
    return strcmp(sub, "LimbNode") == 0 || strcmp(sub, "Limb") == 0 || strcmp(sub, "Root") == 0;
}

typedef struct {
    uint32_t model_count;
    uint32_t *model_object; /* object index per model, file order */
    uint32_t *parent;       /* model index of the parent, ANIM_NONE at top */
    uint32_t *first, *child_count, *children;
    uint32_t *order;        /* models in node order */
} hierarchy;

static int cycle_error(const anim_fbx_objects *objs, const hierarchy *h, const bool *placed,
                       anim_error *err)
{
    uint32_t m = 0;
    while (placed[m])
        m++;
    /* Climbing model_count parents from a model that was never placed
     * (so never reached from the top) ends inside the cycle above it. */
    for (uint32_t step = 0; step < h->model_count && h->parent[m] != ANIM_NONE; step++)
        m = h->parent[m];
    char label[256];
    return anim_error_set(err, ANIM_ERR_INVALID, "%s: parent connections form a cycle",
                          anim_fbx_object_label(&objs->objects[h->model_object[m]], label,
                                                sizeof label));
}

static int order_models(anim_arena *arena, const anim_fbx_objects *objs, hierarchy *h,
                        uint32_t *model_of_object, anim_error *err)
{
    uint32_t n = h->model_count;
    h->parent = anim_arena_calloc(arena, n, sizeof *h->parent);
    h->first = anim_arena_calloc(arena, n, sizeof *h->first);
    h->child_count = anim_arena_calloc(arena, n, sizeof *h->child_count);
    h->children = anim_arena_calloc(arena, n, sizeof *h->children);
    h->order = anim_arena_calloc(arena, n, sizeof *h->order);
    uint32_t *stack = anim_arena_calloc(arena, n, sizeof *stack);
    uint32_t *cursor = anim_arena_calloc(arena, n, sizeof *cursor);
    bool *placed = anim_arena_calloc(arena, n, sizeof *placed);
    if (!h->parent || !h->first || !h->child_count || !h->children || !h->order || !stack ||
        !cursor || !placed)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory ordering %u Models", n);
    for (uint32_t m = 0; m < n; m++) {
        const anim_fbx_object *o = &objs->objects[h->model_object[m]];
        uint32_t p = parent_model(objs, o);
        h->parent[m] = p == ANIM_FBX_SCENE_ROOT ? ANIM_NONE : model_of_object[p];
        if (h->parent[m] == m) {
            char label[256];
            return anim_error_set(err, ANIM_ERR_INVALID, "%s is connected to itself as its parent",
                                  anim_fbx_object_label(o, label, sizeof label));
        }
        if (h->parent[m] != ANIM_NONE)
            h->child_count[h->parent[m]]++;
    }
    /* Children grouped by parent, each group in model (file) order. */
    uint32_t at = 0;
    for (uint32_t m = 0; m < n; m++) {
        h->first[m] = at;
        at += h->child_count[m];
        h->child_count[m] = 0;
    }
    for (uint32_t m = 0; m < n; m++)
        if (h->parent[m] != ANIM_NONE) {
            uint32_t p = h->parent[m];
            h->children[h->first[p] + h->child_count[p]++] = m;
        }
    uint32_t emitted = 0;
    for (uint32_t top = 0; top < n; top++) {
        if (h->parent[top] != ANIM_NONE)
            continue;
        uint32_t sp = 0;
        stack[sp++] = top;
        placed[top] = true;
        h->order[emitted++] = top;
        while (sp) {
            uint32_t m = stack[sp - 1];
            if (cursor[m] == h->child_count[m]) {
                sp--;
                continue;
            }
            uint32_t c = h->children[h->first[m] + cursor[m]++];
            placed[c] = true;
            h->order[emitted++] = c;
            stack[sp++] = c;
        }
    }
    if (emitted < n)
        return cycle_error(objs, h, placed, err);
    return 0;
}

/* ---- the stage -------------------------------------------------------------- */

static void root_node(anim_fbx_node_rec *r)
{
    memset(r, 0, sizeof *r);
    r->name = "<fbx-root>";
    r->object = ANIM_FBX_SCENE_ROOT;
    r->subclass = "";
    r->parent = ANIM_NONE;
    r->mesh = ANIM_NONE;
    r->skin = ANIM_NONE;
    for (int i = 0; i < 3; i++) {
        r->xform.scaling[i] = 1.0;
        r->xform.geometric_scaling[i] = 1.0;
        r->s[i] = 1.0;
    }
    r->xform.inherit_type = 1;
    r->r[3] = 1.0;
}

int anim_fbx_build_nodes(anim_fbx_scene *scene, anim_error *err)
{
    const anim_fbx_objects *objs = scene->objs;
    if (read_global_settings(scene, err) < 0)
        return -1;
    uint32_t count = objs->object_count;
    uint32_t *model_of_object = anim_arena_calloc(scene->arena, count, sizeof *model_of_object);
    if (!model_of_object)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory indexing %u objects", count);
    hierarchy h = {0};
    for (uint32_t i = 0; i < count; i++)
        model_of_object[i] = is_model(&objs->objects[i]) ? h.model_count++ : ANIM_NONE;
    if (h.model_count == UINT32_MAX)
        return anim_error_set(err, ANIM_ERR_LIMIT, "too many Models");
    h.model_object = anim_arena_calloc(scene->arena, h.model_count, sizeof *h.model_object);
    if (!h.model_object)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory listing %u Models",
                              h.model_count);
    for (uint32_t i = 0; i < count; i++)
        if (model_of_object[i] != ANIM_NONE)
            h.model_object[model_of_object[i]] = i;
    if (order_models(scene->arena, objs, &h, model_of_object, err) < 0)
        return -1;

    uint32_t node_count = h.model_count + 1;
    anim_fbx_node_rec *nodes = anim_arena_calloc(scene->arena, node_count, sizeof *nodes);
    /* Reused: model index -> node index, then object index -> node index. */
    uint32_t *node_of_model = anim_arena_calloc(scene->arena, h.model_count, sizeof *node_of_model);
    if (!nodes || !node_of_model)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory for %u nodes", node_count);
    root_node(&nodes[0]);
    for (uint32_t k = 0; k < h.model_count; k++)
        node_of_model[h.order[k]] = k + 1;
    for (uint32_t k = 0; k < h.model_count; k++) {
        uint32_t m = h.order[k];
        const anim_fbx_object *o = &objs->objects[h.model_object[m]];
        anim_fbx_node_rec *r = &nodes[k + 1];
        r->name = o->name;
        r->object = h.model_object[m];
        r->id = o->id;
        r->subclass = o->subclass;
        r->parent = h.parent[m] == ANIM_NONE ? 0 : node_of_model[h.parent[m]];
        r->is_joint = subclass_is_joint(o->subclass);
        r->mesh = ANIM_NONE;
        r->skin = ANIM_NONE;
        if (read_xform(objs, o, &r->xform, err) < 0)
            return -1;
    }
    for (uint32_t i = 0; i < count; i++)
        if (model_of_object[i] != ANIM_NONE)
            model_of_object[i] = node_of_model[model_of_object[i]];
    scene->nodes = nodes;
    scene->node_count = node_count;
    scene->node_of_object = model_of_object;
    scene->node_of_object_count = count;
    return anim_fbx_scene_rest(scene, err);
}
