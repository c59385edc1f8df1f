/* The mirror operation: duplicates an object's whole mesh reflected
 * across an axis-aligned plane, the usual way to build a symmetric model
 * from one half. The copy is a second shell: vertices on the plane are
 * duplicated too (weld them to join the halves). Reflection turns winding
 * inside out, so the copy's corners are listed in reverse to keep its faces
 * facing outward; everything attached to vertices and corners (UVs,
 * explicit normals, weights, seams and creases) is carried to the copy. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/mdl_ops.h"

static int copy_vertices(mdl_ctx *ctx, mdl_object *o, int axis, double offset, size_t nv,
                         uint64_t *map)
{
    for (size_t i = 0; i < nv; i++) {
        double p[3];
        memcpy(p, o->vertices[i].p, sizeof p);
        p[axis] = 2.0 * offset - p[axis];
        if (!isfinite(p[axis]))
            return mdl_refuse(ctx, "not_finite",
                              "vertex \"%llu\" of object \"%s\" reflects to a non-finite position",
                              (unsigned long long)o->vertices[i].id, o->name);
        map[i] = mdl_object_add_vertex(o, p);
        if (map[i] == 0)
            return mdl_nomem(ctx);
        if (mdl_select_vertex(ctx, map[i]) != 0)
            return -1;
    }
    return 0;
}

/* The copy of vertex id (map indexed like the original vertices). */
static uint64_t mapped(const mdl_object *o, const uint64_t *map, uint64_t id)
{
    ptrdiff_t i = mdl_object_vertex_index(o, id);
    return i < 0 ? 0 : map[i];
}

static int copy_faces(mdl_ctx *ctx, mdl_object *o, int axis, size_t nf, const uint64_t *map)
{
    uint64_t vids[MDL_FACE_CORNERS_MAX];
    double uvs[MDL_FACE_CORNERS_MAX][2];
    mdl_corner src[MDL_FACE_CORNERS_MAX];
    for (size_t fi = 0; fi < nf; fi++) {
        /* Copied out first: adding the face may move the arrays. */
        mdl_face f = o->faces[fi];
        uint32_t n = f.corner_count;
        for (uint32_t k = 0; k < n; k++) {
            /* The first corner stays first; the rest run backwards. */
            src[k] = o->corners[f.corner_first + (k == 0 ? 0 : n - k)];
            vids[k] = mapped(o, map, src[k].vertex);
            uvs[k][0] = src[k].uv[0];
            uvs[k][1] = src[k].uv[1];
        }
        uint64_t fid = mdl_object_add_face(o, vids, (const double(*)[2])uvs, n, f.material,
                                           f.smooth);
        if (fid == 0)
            return mdl_nomem(ctx);
        const mdl_face *added = &o->faces[o->face_count - 1];
        for (uint32_t k = 0; k < n; k++) {
            mdl_corner *c = &o->corners[added->corner_first + k];
            if (!src[k].has_normal)
                continue;
            memcpy(c->normal, src[k].normal, sizeof c->normal);
            c->normal[axis] = -c->normal[axis];
            c->has_normal = true;
        }
        if (mdl_select_face(ctx, fid) != 0)
            return -1;
    }
    return 0;
}

/* Weights and edge attributes are copied out before writing, since
 * setting them reorders and may move the arrays. */
static int copy_attributes(mdl_ctx *ctx, mdl_object *o, const uint64_t *map)
{
    size_t ne = o->edge_count, nw = o->weight_count;
    mdl_edge_attr *edges = malloc((ne ? ne : 1) * sizeof *edges);
    mdl_weight *weights = malloc((nw ? nw : 1) * sizeof *weights);
    uint32_t *joints = malloc((nw ? nw : 1) * sizeof *joints);
    double *values = malloc((nw ? nw : 1) * sizeof *values);
    int rc = -1;
    if (!edges || !weights || !joints || !values) {
        mdl_nomem(ctx);
        goto out;
    }
    if (ne)
        memcpy(edges, o->edges, ne * sizeof *edges);
    if (nw)
        memcpy(weights, o->weights, nw * sizeof *weights);
    for (size_t e = 0; e < ne; e++) {
        if (mdl_object_set_edge_attr(o, mapped(o, map, edges[e].a), mapped(o, map, edges[e].b),
                                     edges[e].seam, edges[e].crease) != 0) {
            mdl_nomem(ctx);
            goto out;
        }
    }
    /* Weights are sorted by vertex: each run is one vertex's list. */
    for (size_t w = 0; w < nw;) {
        size_t end = w;
        while (end < nw && weights[end].vertex == weights[w].vertex) {
            joints[end - w] = weights[end].joint;
            values[end - w] = weights[end].weight;
            end++;
        }
        uint64_t copy = mapped(o, map, weights[w].vertex);
        if (copy != 0 && mdl_object_set_vertex_weights(o, copy, joints, values, end - w) != 0) {
            mdl_nomem(ctx);
            goto out;
        }
        w = end;
    }
    rc = 0;
out:
    free(edges);
    free(weights);
    free(joints);
    free(values);
    return rc;
}

static int run_mirror(mdl_ctx *ctx, const anim_json_value *op)
{
    int axis = (int)mdl_field_int(op, "axis", 0);
    double offset = mdl_field_f64(op, "offset", 0.0);
    mdl_object *o = mdl_target_object(ctx, op, false);
    if (!o)
        return -1;
    size_t nv = o->vertex_count, nf = o->face_count;
    if (mdl_spend(ctx, 1 + 2 * nv + 2 * nf + 2 * o->corner_count + o->weight_count +
                           o->edge_count) != 0)
        return -1;
    uint64_t *map = malloc((nv ? nv : 1) * sizeof *map);
    if (!map)
        return mdl_nomem(ctx);
    int rc = -1;
    if (copy_vertices(ctx, o, axis, offset, nv, map) == 0 && copy_faces(ctx, o, axis, nf, map) == 0 &&
        copy_attributes(ctx, o, map) == 0)
        rc = 0;
    free(map);
    return rc;
}

static const mdl_field mirror_fields[] = {
    {.name = "axis", .type = MDL_F_INTEGER, .required = true, .min = 0, .max = 2,
     .description = "axis normal to the mirror plane: 0 X, 1 Y, 2 Z"},
    {.name = "offset", .type = MDL_F_NUMBER, .required = true,
     .description = "coordinate of the mirror plane on that axis, in metres"},
    {0},
};

const mdl_op_def mdl_op_mirror = {
    .op = "mirror",
    .mesh_edit = true,
    .fields = mirror_fields,
    .description = "adds a reflected copy of the object's whole mesh across an axis plane",
    .run = run_mirror,
};
