/* Blend shapes: a BlendShape deformer on the Geometry, its
 * BlendShapeChannel children, and each channel's Shape geometries (sparse
 * control point Indexes with Vertices deltas and optional Normals deltas).
 *
 * One morph target per channel, from its full-weight shape (the one with
 * the largest FullWeights entry, else the last connected): glTF has no
 * in-between targets, so those are noted and left out. Deltas are
 * directions, so they take the linear part of the mesh transform only,
 * and are routed to the split vertices through their control points. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/fbx/fbx_geometry_internal.h"

/* The next child of o (from connection *k on) of class cls and the given
 * subclass; *k moves past it. ANIM_FBX_SCENE_ROOT when there is none. */
static uint32_t deformer(const anim_fbx_objects *objs, uint32_t o, const char *cls,
                         const char *subclass, uint32_t *k)
{
    const anim_fbx_object *obj = &objs->objects[o];
    while (*k < obj->dst_conn_count) {
        uint32_t d = anim_fbx_conn_child(objs, obj, (*k)++, cls, NULL);
        if (d != ANIM_FBX_SCENE_ROOT && strcmp(objs->objects[d].subclass, subclass) == 0)
            return d;
    }
    return ANIM_FBX_SCENE_ROOT;
}

/* The channel's full-weight shape, ANIM_FBX_SCENE_ROOT when it has none:
 * the last connected, unless FullWeights ranks another higher. */
static uint32_t full_shape(anim_fbx_scene *scene, uint32_t ch, uint32_t *shapes)
{
    const anim_fbx_objects *objs = scene->objs;
    const double *fw = NULL;
    uint32_t nfw = 0, n = 0, best = ANIM_FBX_SCENE_ROOT, best_at = 0;
    const anim_fbx_node *fwn = anim_fbx_child(objs->objects[ch].node, "FullWeights");
    if (fwn && anim_fbx_prop_array_f64(scene->arena, fwn, 0, &fw, &nfw, NULL) != 0)
        fw = NULL, nfw = 0;
    for (uint32_t i = 0;; n++) {
        uint32_t so = deformer(objs, ch, "Geometry", "Shape", &i);
        if (so == ANIM_FBX_SCENE_ROOT)
            break;
        if (best == ANIM_FBX_SCENE_ROOT || n >= nfw || !(fw[n] < fw[best_at]))
            best = so, best_at = n;
    }
    *shapes = n;
    return best;
}

typedef struct shape_data {
    const int64_t *indexes;
    const double *vertices, *normals;
    uint32_t count;
} shape_data;

static int read_shape(anim_fbx_scene *scene, const anim_fbx_mesh_ctx *ctx, uint32_t so,
                      shape_data *s, anim_error *err)
{
    const anim_fbx_object *o = &scene->objs->objects[so];
    char buf[256];
    const char *label = anim_fbx_object_label(o, buf, sizeof buf);
    memset(s, 0, sizeof *s);
    const anim_fbx_node *in = anim_fbx_child(o->node, "Indexes");
    const anim_fbx_node *vn = anim_fbx_child(o->node, "Vertices");
    const anim_fbx_node *nn = anim_fbx_child(o->node, "Normals");
    if (!in || !vn)
        return 0;
    uint32_t ni = 0, nv = 0, nn_count = 0;
    if (anim_fbx_prop_array_i64(scene->arena, in, 0, &s->indexes, &ni, err) != 0 ||
        anim_fbx_prop_array_f64(scene->arena, vn, 0, &s->vertices, &nv, err) != 0 ||
        (nn && anim_fbx_prop_array_f64(scene->arena, nn, 0, &s->normals, &nn_count, err) != 0)) {
        anim_error_prefix(err, "%s", label);
        return -1;
    }
    if ((size_t)nv != 3 * (size_t)ni)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: %u Indexes but %u Vertices values",
                              label, ni, nv);
    if (s->normals && (size_t)nn_count != 3 * (size_t)ni)
        s->normals = NULL; /* normals not per index: positions still usable */
    for (uint32_t i = 0; i < ni; i++)
        if (s->indexes[i] < 0 || s->indexes[i] >= ctx->geom->cp_count)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s Indexes[%u]: index %lld outside %u control points", label, i,
                                  (long long)s->indexes[i], ctx->geom->cp_count);
    s->count = ni;
    return 0;
}

/* Dense per-control-point deltas of one shape, routed to every primitive. */
static int route(anim_fbx_scene *scene, const anim_fbx_mesh_ctx *ctx, const shape_data *s,
                 uint32_t t, bool want_normals, double *dp, double *dn, anim_error *err)
{
    const anim_fbx_geom *g = ctx->geom;
    memset(dp, 0, 3 * (size_t)g->cp_count * sizeof *dp);
    memset(dn, 0, 3 * (size_t)g->cp_count * sizeof *dn);
    for (uint32_t i = 0; i < s->count; i++) {
        size_t cp = (size_t)s->indexes[i];
        double v[3];
        anim_fbx_mesh_delta(scene, ctx, s->vertices + 3 * (size_t)i, v);
        for (int k = 0; k < 3; k++)
            dp[3 * cp + k] += v[k];
        if (s->normals) {
            anim_fbx_mesh_normal(scene, ctx, s->normals + 3 * (size_t)i, v);
            for (int k = 0; k < 3; k++)
                dn[3 * cp + k] += v[k];
        }
    }
    anim_fbx_mesh *mesh = &scene->meshes[ctx->mesh];
    for (uint32_t p = 0; p < mesh->primitive_count; p++) {
        anim_fbx_primitive *prim = &mesh->primitives[p];
        const anim_fbx_split_prim *sp = &ctx->split->prims[p];
        size_t nv = sp->vertex_count ? sp->vertex_count : 1;
        float *tp = anim_arena_calloc(scene->arena, 3 * nv, sizeof(float));
        float *tn = want_normals ? anim_arena_calloc(scene->arena, 3 * nv, sizeof(float)) : NULL;
        if (!tp || (want_normals && !tn))
            return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory for morph targets",
                                  g->label);
        for (uint32_t v = 0; v < sp->vertex_count; v++) {
            size_t cp = g->corner_cp[sp->vertex_corner[v]];
            for (int k = 0; k < 3; k++) {
                tp[3 * v + k] = (float)dp[3 * cp + k];
                if (tn)
                    tn[3 * v + k] = (float)dn[3 * cp + k];
            }
        }
        prim->target_positions[t] = tp;
        if (prim->target_normals)
            prim->target_normals[t] = tn;
    }
    return 0;
}

/* The channels of every BlendShape of the geometry, in connection order. */
static uint32_t list_channels(const anim_fbx_objects *objs, uint32_t geom, uint32_t *out,
                              uint32_t cap)
{
    uint32_t n = 0;
    for (uint32_t i = 0;;) {
        uint32_t bs = deformer(objs, geom, "Deformer", "BlendShape", &i);
        if (bs == ANIM_FBX_SCENE_ROOT)
            break;
        for (uint32_t j = 0;;) {
            uint32_t ch = deformer(objs, bs, "Deformer", "BlendShapeChannel", &j);
            if (ch == ANIM_FBX_SCENE_ROOT)
                break;
            if (out && n < cap)
                out[n] = ch;
            n++;
        }
    }
    return n;
}

static int morph_budget(anim_fbx_scene *scene, const anim_fbx_mesh_ctx *ctx, uint32_t targets,
                        bool normals, anim_error *err)
{
    size_t verts = 0, bytes = 0;
    for (uint32_t p = 0; p < ctx->split->prim_count; p++)
        verts += ctx->split->prims[p].vertex_count;
    size_t per = normals ? 24 : 12;
    if (!anim_size_mul(verts, per, &bytes) || !anim_size_mul(bytes, targets, &bytes) ||
        bytes > anim_limits_get(&scene->limits, ANIM_LIMIT_GRID)) {
        char what[320];
        snprintf(what, sizeof what, "%s: %u morph target(s) of %zu vertices", ctx->geom->label,
                 targets, verts);
        return anim_limit_error(err, &scene->limits, ANIM_LIMIT_GRID, what);
    }
    return 0;
}

int anim_fbx_build_blendshapes(anim_fbx_scene *scene, const anim_fbx_mesh_ctx *ctx,
                               anim_error *err)
{
    const anim_fbx_objects *objs = scene->objs;
    if (ctx->geom_object == ANIM_FBX_SCENE_ROOT)
        return 0; /* 6.1 shapes live inside the mesh record: not read */
    uint32_t count = list_channels(objs, ctx->geom_object, NULL, 0);
    if (count == 0)
        return 0;
    anim_fbx_mesh *mesh = &scene->meshes[ctx->mesh];
    bool normals = false;
    for (uint32_t p = 0; p < mesh->primitive_count; p++)
        normals = normals || mesh->primitives[p].normals;
    if (morph_budget(scene, ctx, count, normals, err) != 0)
        return -1;
    uint32_t *chans = anim_arena_calloc(scene->arena, count, sizeof *chans);
    mesh->targets = anim_arena_calloc(scene->arena, count, sizeof *mesh->targets);
    mesh->target_objects = anim_arena_calloc(scene->arena, count, sizeof(uint32_t));
    size_t cps = (size_t)ctx->geom->cp_count + 1;
    double *dp = malloc(3 * cps * sizeof *dp), *dn = malloc(3 * cps * sizeof *dn);
    int rc = -1;
    if (!chans || !mesh->targets || !mesh->target_objects || !dp || !dn)
        goto nomem;
    list_channels(objs, ctx->geom_object, chans, count);
    for (uint32_t p = 0; p < mesh->primitive_count; p++) {
        anim_fbx_primitive *prim = &mesh->primitives[p];
        prim->target_positions = anim_arena_calloc(scene->arena, count, sizeof(float *));
        if (!prim->target_positions ||
            (prim->normals &&
             !(prim->target_normals = anim_arena_calloc(scene->arena, count, sizeof(float *)))))
            goto nomem;
    }
    uint32_t inbetween = 0, empty = 0;
    for (uint32_t t = 0; t < count; t++) {
        const anim_fbx_object *ch = &objs->objects[chans[t]];
        uint32_t shapes = 0;
        uint32_t so = full_shape(scene, chans[t], &shapes);
        double pct = 0.0;
        if (anim_fbx_get_f64(objs, ch, "DeformPercent", 0.0, &pct, err) != 0)
            goto done;
        mesh->targets[t].name = ch->name;
        mesh->targets[t].default_weight = pct / 100.0;
        mesh->target_objects[t] = chans[t];
        inbetween += shapes > 1;
        shape_data s = {0};
        if (so == ANIM_FBX_SCENE_ROOT)
            empty++;
        else if (read_shape(scene, ctx, so, &s, err) != 0)
            goto done;
        if (route(scene, ctx, &s, t, normals, dp, dn, err) != 0)
            goto done;
    }
    mesh->target_count = count;
    if (inbetween && anim_fbx_scene_note(scene, err,
                                         "%s: %u blend shape channel(s) with in-between shapes "
                                         "(only the full-weight shape is kept)",
                                         ctx->geom->label, inbetween) != 0)
        goto done;
    if (empty && anim_fbx_scene_note(scene, err,
                                     "%s: %u blend shape channel(s) without a shape (zero target)",
                                     ctx->geom->label, empty) != 0)
        goto done;
    rc = 0;
    goto done;
nomem:
    anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory for %u morph targets",
                   ctx->geom->label, count);
done:
    free(dp), free(dn);
    return rc;
}
