/* The project_uv operation: a planar UV projection along a coordinate
 * axis, the quick way to texture flat or boxy parts. The dropped axis
 * picks the plane: 0 projects onto (y, z), 1 onto (z, x), 2 onto (x, y);
 * each corner of the faces gets uv = (a * scale.x + offset.x,
 * b * scale.y + offset.y) from its vertex's coordinates (a, b). */
#include <math.h>
#include <stdlib.h>

#include "model/mdl_ops.h"

static int project(mdl_ctx *ctx, mdl_object *o, const size_t *idx, size_t n, int axis,
                   const double scale[2], const double offset[2])
{
    int a = (axis + 1) % 3, b = (axis + 2) % 3;
    for (size_t i = 0; i < n; i++) {
        const mdl_face *f = &o->faces[idx[i]];
        for (uint32_t k = 0; k < f->corner_count; k++) {
            mdl_corner *c = &o->corners[f->corner_first + k];
            const double *p = mdl_object_position(o, c->vertex);
            double u = p[a] * scale[0] + offset[0], v = p[b] * scale[1] + offset[1];
            if (!isfinite(u) || !isfinite(v))
                return mdl_refuse(ctx, "not_finite",
                                  "corner \"%llu\" of object \"%s\" would get a non-finite UV",
                                  (unsigned long long)c->id, o->name);
            c->uv[0] = u;
            c->uv[1] = v;
        }
        if (mdl_spend(ctx, f->corner_count) != 0 || mdl_select_face(ctx, f->id) != 0)
            return -1;
    }
    return 0;
}

static int run_project_uv(mdl_ctx *ctx, const anim_json_value *op)
{
    int axis = (int)mdl_field_int(op, "axis", 2);
    double scale[2], offset[2];
    mdl_field_vec(op, "scale", scale, 2);
    mdl_field_vec(op, "offset", offset, 2);
    mdl_object *o = mdl_target_object(ctx, op, false);
    if (!o)
        return -1;
    size_t n = 0;
    uint64_t *ids = mdl_field_ids(ctx, op, "faces", &n);
    if (!ids && ctx->nomem)
        return -1;
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    int rc = -1;
    if (!idx)
        mdl_nomem(ctx);
    else if (mdl_resolve_faces(ctx, o, ids, n, idx) == 0 && mdl_spend(ctx, 1 + n) == 0)
        rc = project(ctx, o, idx, n, axis, scale, offset);
    free(ids);
    free(idx);
    return rc;
}

static const mdl_field project_uv_fields[] = {
    {.name = "faces", .type = MDL_F_IDS, .required = true, .min_items = 1,
     .description = "face ids whose corners get projected UVs"},
    {.name = "axis", .type = MDL_F_INTEGER, .required = true, .min = 0, .max = 2,
     .description = "dropped axis: 0 projects onto YZ, 1 onto ZX, 2 onto XY"},
    {.name = "scale", .type = MDL_F_VEC2, .required = true,
     .description = "UV units per metre along the two remaining axes"},
    {.name = "offset", .type = MDL_F_VEC2, .required = true,
     .description = "added to the scaled coordinates"},
    {0},
};

const mdl_op_def mdl_op_project_uv = {
    .op = "project_uv",
    .mesh_edit = true,
    .fields = project_uv_fields,
    .description = "sets the UVs of faces by planar projection along an axis",
    .run = run_project_uv,
};
