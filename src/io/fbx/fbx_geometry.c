/* Stage 2 of the FBX scene: every Mesh Model with polygon geometry
 * becomes one mesh (a Geometry instanced by two Models gives two meshes),
 * its vertices split per attribute tuple and its polygons triangulated
 * into one primitive per material slot, then its skin and blend shapes.
 *
 * Space: control points go through the axis/unit conversion first and
 * then the node's geometric transform (which is already a glTF-space
 * matrix), so positions are in the mesh node's space in metres. Normals
 * take the inverse-transpose of the geometric linear part, tangents the
 * linear part itself (they are surface directions, not normals). A
 * reflection anywhere in that chain (a left-handed file, a negative
 * geometric scale) flips every triangle's winding so faces keep facing
 * out. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/math.h"
#include "io/fbx/fbx_geometry_internal.h"

uint32_t anim_fbx_conn_child(const anim_fbx_objects *objs, const anim_fbx_object *o, uint32_t k,
                             const char *cls, const char **prop)
{
    const anim_fbx_conn *c = &objs->conns[o->dst_conns[k]];
    if (prop)
        *prop = c->property;
    if (c->src >= objs->object_count || (cls && strcmp(objs->objects[c->src].cls, cls) != 0))
        return ANIM_FBX_SCENE_ROOT;
    return c->src;
}

void anim_fbx_normal_matrix(const double m[16], double out[9])
{
    /* inverse-transpose of A = cofactor matrix / det. */
    double a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6],
           i = m[10];
    double det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    if (!isfinite(det) || det == 0.0) {
        static const double id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        memcpy(out, id, sizeof id);
        return;
    }
    /* Cofactors C[r][c]; the inverse-transpose is C / det, stored
     * column-major as out[c * 3 + r]. */
    double C[3][3] = {{e * i - f * h, -(d * i - f * g), d * h - e * g},
                      {-(b * i - c * h), a * i - c * g, -(a * h - b * g)},
                      {b * f - c * e, -(a * f - c * d), a * e - b * d}};
    for (int r = 0; r < 3; r++)
        for (int col = 0; col < 3; col++)
            out[col * 3 + r] = C[r][col] / det;
}

void anim_fbx_mesh_point(const anim_fbx_scene *scene, const anim_fbx_mesh_ctx *ctx,
                         const double in[3], double out[3])
{
    double p[3];
    anim_fbx_convert_point(scene, in, p);
    const double *g = ctx->geometric;
    for (int r = 0; r < 3; r++)
        out[r] = g[r] * p[0] + g[4 + r] * p[1] + g[8 + r] * p[2] + g[12 + r];
}

void anim_fbx_mesh_delta(const anim_fbx_scene *scene, const anim_fbx_mesh_ctx *ctx,
                         const double in[3], double out[3])
{
    double p[3];
    anim_fbx_convert_point(scene, in, p); /* linear: axis change and unit scale */
    const double *g = ctx->geometric;
    for (int r = 0; r < 3; r++)
        out[r] = g[r] * p[0] + g[4 + r] * p[1] + g[8 + r] * p[2];
}

void anim_fbx_mesh_normal(const anim_fbx_scene *scene, const anim_fbx_mesh_ctx *ctx,
                          const double in[3], double out[3])
{
    double p[3];
    anim_fbx_convert_direction(scene, in, p);
    const double *n = ctx->normal_matrix;
    for (int r = 0; r < 3; r++)
        out[r] = n[r] * p[0] + n[3 + r] * p[1] + n[6 + r] * p[2];
}

/* Per-corner attribute floats in glTF terms, compared bit-exactly by the
 * split. */
typedef struct corner_attrs {
    float *normals, *tangents, *uv, *colors;
    uint32_t fixed_normals;      /* zero or non-finite normals replaced */
} corner_attrs;

static void free_attrs(corner_attrs *a)
{
    free(a->normals), free(a->tangents), free(a->uv), free(a->colors);
    memset(a, 0, sizeof *a);
}

static const double *tuple(const anim_fbx_layer *l, uint32_t corner)
{
    return l->data + (size_t)l->width * l->corner_tuple[corner];
}

static int make_attrs(anim_fbx_scene *scene, const anim_fbx_mesh_ctx *ctx, double handed,
                      corner_attrs *a, anim_error *err)
{
    const anim_fbx_geom *g = ctx->geom;
    size_t n = g->corner_count ? g->corner_count : 1;
    memset(a, 0, sizeof *a);
    /* Scratch for the split only (malloc: the primitives keep copies). */
    if (g->normal.present && !(a->normals = calloc(3 * n, sizeof(float))))
        goto nomem;
    if (g->tangent.present && !(a->tangents = calloc(4 * n, sizeof(float))))
        goto nomem;
    if (g->uv.present && !(a->uv = calloc(2 * n, sizeof(float))))
        goto nomem;
    if (g->color.present && !(a->colors = calloc(4 * n, sizeof(float))))
        goto nomem;
    for (uint32_t c = 0; c < g->corner_count; c++) {
        double v[3];
        if (a->normals) {
            anim_fbx_mesh_normal(scene, ctx, tuple(&g->normal, c), v);
            anim_vec3 u = anim_vec3_normalize(anim_vec3_from_array(v));
            if (!anim_vec3_is_finite(u) || anim_vec3_len(u) == 0.0)
                u = anim_vec3_make(0, 1, 0), a->fixed_normals++;
            a->normals[3 * c] = (float)u.x, a->normals[3 * c + 1] = (float)u.y,
                           a->normals[3 * c + 2] = (float)u.z;
        }
        if (a->tangents) {
            anim_fbx_mesh_delta(scene, ctx, tuple(&g->tangent, c), v);
            anim_vec3 u = anim_vec3_normalize(anim_vec3_from_array(v));
            if (!anim_vec3_is_finite(u) || anim_vec3_len(u) == 0.0)
                u = anim_vec3_make(1, 0, 0);
            a->tangents[4 * c] = (float)u.x, a->tangents[4 * c + 1] = (float)u.y,
                            a->tangents[4 * c + 2] = (float)u.z;
            a->tangents[4 * c + 3] = (float)handed;
        }
        if (a->uv) {
            const double *t = tuple(&g->uv, c);
            a->uv[2 * c] = (float)t[0];
            a->uv[2 * c + 1] = (float)(1.0 - t[1]);
        }
        if (a->colors) {
            const double *t = tuple(&g->color, c);
            for (int k = 0; k < 4; k++)
                a->colors[4 * c + k] = (float)t[k];
        }
    }
    return 0;
nomem:
    return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory for corner attributes",
                          g->label);
}

static int fill_primitive(anim_fbx_scene *scene, const anim_fbx_mesh_ctx *ctx,
                          const double *pos, const corner_attrs *a, const anim_fbx_split_prim *sp,
                          anim_fbx_primitive *out, anim_error *err)
{
    const anim_fbx_geom *g = ctx->geom;
    const anim_fbx_node_rec *node = &scene->nodes[ctx->node];
    size_t nv = sp->vertex_count ? sp->vertex_count : 1;
    memset(out, 0, sizeof *out);
    out->material = sp->slot < node->material_count ? node->materials[sp->slot] : ANIM_NONE;
    out->vertex_count = sp->vertex_count;
    out->indices = sp->indices;
    out->index_count = sp->index_count;
    out->positions = anim_arena_calloc(scene->arena, 3 * nv, sizeof(float));
    if (!out->positions ||
        (a->normals && !(out->normals = anim_arena_calloc(scene->arena, 3 * nv, sizeof(float)))) ||
        (a->tangents &&
         !(out->tangents = anim_arena_calloc(scene->arena, 4 * nv, sizeof(float)))) ||
        (a->uv && !(out->uv0 = anim_arena_calloc(scene->arena, 2 * nv, sizeof(float)))) ||
        (a->colors && !(out->colors = anim_arena_calloc(scene->arena, 4 * nv, sizeof(float)))))
        return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory for %u vertices", g->label,
                              sp->vertex_count);
    for (uint32_t v = 0; v < sp->vertex_count; v++) {
        uint32_t c = sp->vertex_corner[v], cp = g->corner_cp[c];
        for (int k = 0; k < 3; k++)
            out->positions[3 * v + k] = (float)pos[3 * (size_t)cp + k];
        if (a->normals)
            memcpy(out->normals + 3 * (size_t)v, a->normals + 3 * (size_t)c, 3 * sizeof(float));
        if (a->tangents)
            memcpy(out->tangents + 4 * (size_t)v, a->tangents + 4 * (size_t)c, 4 * sizeof(float));
        if (a->uv)
            memcpy(out->uv0 + 2 * (size_t)v, a->uv + 2 * (size_t)c, 2 * sizeof(float));
        if (a->colors)
            memcpy(out->colors + 4 * (size_t)v, a->colors + 4 * (size_t)c, 4 * sizeof(float));
    }
    return 0;
}

/* Notes of one mesh that the reader cannot show otherwise. */
static int mesh_notes(anim_fbx_scene *scene, const anim_fbx_geom *g, const anim_fbx_split *sp,
                      const corner_attrs *a, anim_error *err)
{
    if (sp->skipped_polygons &&
        anim_fbx_scene_note(scene, err, "%s: %u polygon(s) with fewer than 3 corners skipped",
                            g->label, sp->skipped_polygons) != 0)
        return -1;
    if (sp->fanned_polygons &&
        anim_fbx_scene_note(scene, err,
                            "%s: %u non-convex polygon(s) over %u corners fan-triangulated",
                            g->label, sp->fanned_polygons, ANIM_FBX_EAR_CLIP_MAX) != 0)
        return -1;
    if (g->extra_uv_sets &&
        anim_fbx_scene_note(scene, err, "%s: %u extra UV set(s) ignored (the first, '%s', is kept)",
                            g->label, g->extra_uv_sets, g->uv.name ? g->uv.name : "") != 0)
        return -1;
    if (a->fixed_normals &&
        anim_fbx_scene_note(scene, err, "%s: %u zero or non-finite normal(s) replaced by +Y",
                            g->label, a->fixed_normals) != 0)
        return -1;
    return 0;
}

/* Builds mesh m of node n from the geometry record rec. *built is false
 * when the geometry has no polygons (no mesh then). */
static int build_mesh(anim_fbx_scene *scene, uint32_t n, uint32_t geom_object,
                      const anim_fbx_node *rec, const char *label, const char *name,
                      anim_error *err)
{
    anim_fbx_node_rec *node = &scene->nodes[n];
    anim_fbx_geom *g = anim_arena_calloc(scene->arena, 1, sizeof *g);
    anim_fbx_split *sp = anim_arena_calloc(scene->arena, 1, sizeof *sp);
    if (!g || !sp)
        return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", label);
    if (anim_fbx_geom_read(rec, label, node->material_count, scene->arena, g, err) != 0)
        return -1;
    if (g->poly_count == 0)
        return anim_fbx_scene_note(scene, err, "%s: no polygons, no mesh", label);
    anim_fbx_mesh_ctx ctx = {.mesh = scene->mesh_count, .node = n, .model_object = node->object,
                             .geom_object = geom_object, .geom = g, .split = sp};
    anim_fbx_geometric_matrix(scene, n, ctx.geometric);
    anim_fbx_normal_matrix(ctx.geometric, ctx.normal_matrix);
    anim_mat4 gm;
    memcpy(gm.m, ctx.geometric, sizeof gm.m);
    bool geo_mirror = anim_mat4_det3(&gm) < 0.0;
    bool mirror = anim_fbx_axis_mirrors(scene) != geo_mirror;
    corner_attrs a = {0};
    double *pos = malloc(3 * ((size_t)g->cp_count + 1) * sizeof(double));
    if (!pos)
        return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory for %u control points",
                              label, g->cp_count);
    int rc = -1;
    for (uint32_t i = 0; i < g->cp_count; i++) {
        anim_fbx_mesh_point(scene, &ctx, g->cp + 3 * (size_t)i, pos + 3 * (size_t)i);
        for (int k = 0; k < 3; k++)
            if (!isfinite((float)pos[3 * (size_t)i + k])) {
                anim_error_set(err, ANIM_ERR_INVALID, "%s Vertices[%u]: not a finite position",
                               label, i);
                goto done;
            }
    }
    /* Handedness of tangent frames flips with a reflection. */
    if (make_attrs(scene, &ctx, mirror ? -1.0 : 1.0, &a, err) != 0)
        goto done;
    anim_fbx_split_input in = {.cp_count = g->cp_count, .positions = pos,
                               .corner_count = g->corner_count, .corner_cp = g->corner_cp,
                               .poly_count = g->poly_count, .poly_start = g->poly_start,
                               .poly_slot = g->poly_slot, .slot_count = node->material_count,
                               .normals = a.normals, .tangents = a.tangents, .uv = a.uv,
                               .colors = a.colors, .flip_winding = mirror};
    if (anim_fbx_split_mesh(&in, scene->arena, sp, err) != 0) {
        anim_error_prefix(err, "%s", label);
        goto done;
    }
    anim_fbx_mesh *mesh = &scene->meshes[scene->mesh_count];
    memset(mesh, 0, sizeof *mesh);
    mesh->name = name;
    mesh->node = n;
    mesh->skin = ANIM_NONE;
    mesh->primitives = anim_arena_calloc(scene->arena, sp->prim_count ? sp->prim_count : 1,
                                         sizeof *mesh->primitives);
    if (!mesh->primitives) {
        anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", label);
        goto done;
    }
    mesh->primitive_count = sp->prim_count;
    for (uint32_t p = 0; p < sp->prim_count; p++)
        if (fill_primitive(scene, &ctx, pos, &a, &sp->prims[p], &mesh->primitives[p], err) != 0)
            goto done;
    scene->mesh_count++;
    node->mesh = ctx.mesh;
    if (mesh_notes(scene, g, sp, &a, err) != 0 || anim_fbx_build_skin(scene, &ctx, err) != 0 ||
        anim_fbx_build_blendshapes(scene, &ctx, err) != 0)
        goto done;
    rc = 0;
done:
    free_attrs(&a);
    free(pos);
    return rc;
}

/* The polygon geometry of a Mesh Model: its first OO-connected Geometry
 * of subclass Mesh (7.x), else the Model record itself when it holds the
 * arrays (6.1). */
static uint32_t mesh_geometry(const anim_fbx_scene *scene, const anim_fbx_object *model,
                              const anim_fbx_node **rec)
{
    const anim_fbx_objects *objs = scene->objs;
    for (uint32_t k = 0; k < model->dst_conn_count; k++) {
        const char *prop = NULL;
        uint32_t o = anim_fbx_conn_child(objs, model, k, "Geometry", &prop);
        if (o == ANIM_FBX_SCENE_ROOT)
            continue;
        if (!prop && strcmp(objs->objects[o].subclass, "Mesh") == 0) {
            *rec = objs->objects[o].node;
            return o;
        }
    }
    *rec = anim_fbx_child(model->node, "Vertices") ? model->node : NULL;
    return ANIM_FBX_SCENE_ROOT;
}

int anim_fbx_build_geometry(anim_fbx_scene *scene, anim_error *err)
{
    if (anim_fbx_build_materials(scene, err) != 0)
        return -1;
    uint32_t cap = 0;
    for (uint32_t n = 1; n < scene->node_count; n++)
        if (strcmp(scene->nodes[n].subclass, "Mesh") == 0)
            cap++;
    scene->meshes = anim_arena_calloc(scene->arena, cap ? cap : 1, sizeof *scene->meshes);
    scene->skins = anim_arena_calloc(scene->arena, cap ? cap : 1, sizeof *scene->skins);
    if (!scene->meshes || !scene->skins)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory for %u meshes", cap);
    scene->mesh_count = scene->skin_count = 0;
    for (uint32_t n = 1; n < scene->node_count; n++) {
        anim_fbx_node_rec *node = &scene->nodes[n];
        if (strcmp(node->subclass, "Mesh") != 0 || node->object >= scene->objs->object_count)
            continue;
        const anim_fbx_object *model = &scene->objs->objects[node->object];
        const anim_fbx_node *rec = NULL;
        uint32_t go = mesh_geometry(scene, model, &rec);
        if (!rec)
            continue;
        char buf[256];
        const anim_fbx_object *labelled = go != ANIM_FBX_SCENE_ROOT ? &scene->objs->objects[go]
                                                                     : model;
        const char *label =
            anim_arena_strdup(scene->arena, anim_fbx_object_label(labelled, buf, sizeof buf));
        const char *name = labelled->name && labelled->name[0] ? labelled->name : model->name;
        if (!label)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        if (build_mesh(scene, n, go, rec, label, name, err) != 0)
            return -1;
    }
    return 0;
}
