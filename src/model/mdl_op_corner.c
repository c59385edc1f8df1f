/* The per-corner edits uv and corner_normal. Corners, not vertices, carry
 * UVs and explicit normals so that seams and hard edges can split them;
 * these operations set one corner at a time. A null normal returns the
 * corner to the derived normal (from the face and its smoothing). */
#include <math.h>

#include "model/mdl_ops.h"

/* The corner a field names, with the face it belongs to selected. */
static mdl_corner *target_corner(mdl_ctx *ctx, mdl_object *o, const anim_json_value *op)
{
    uint64_t id = mdl_value_id(mdl_field_get(op, "corner"));
    if (mdl_spend(ctx, 1 + o->corner_count) != 0)
        return NULL;
    ptrdiff_t ci = mdl_object_corner_index(o, id);
    if (ci < 0) {
        mdl_refuse(ctx, "unknown_corner", "corner \"%llu\" of object \"%s\" does not exist",
                   (unsigned long long)id, o->name);
        return NULL;
    }
    mdl_corner *c = &o->corners[ci];
    size_t fi = mdl_object_corner_face(o, (size_t)ci);
    if (mdl_select_face(ctx, o->faces[fi].id) != 0 || mdl_select_vertex(ctx, c->vertex) != 0)
        return NULL;
    return c;
}

static int run_uv(mdl_ctx *ctx, const anim_json_value *op)
{
    double uv[2];
    mdl_field_vec(op, "uv", uv, 2);
    mdl_object *o = mdl_target_object(ctx, op, false);
    mdl_corner *c = o ? target_corner(ctx, o, op) : NULL;
    if (!c)
        return -1;
    c->uv[0] = uv[0];
    c->uv[1] = uv[1];
    return 0;
}

static const mdl_field uv_fields[] = {
    {.name = "corner", .type = MDL_F_ID, .required = true, .description = "corner id"},
    {.name = "uv", .type = MDL_F_VEC2, .required = true,
     .description = "texture coordinate, top-left origin, v down"},
    {0},
};

const mdl_op_def mdl_op_uv = {
    .op = "uv",
    .mesh_edit = true,
    .fields = uv_fields,
    .description = "sets the UV of one face corner",
    .run = run_uv,
};

static int run_corner_normal(mdl_ctx *ctx, const anim_json_value *op)
{
    double n[3];
    bool set = mdl_field_vec(op, "normal", n, 3);
    if (set) {
        /* Scaled by the largest lane first so tiny or huge inputs neither
         * underflow to zero nor overflow. */
        double m = fmax(fabs(n[0]), fmax(fabs(n[1]), fabs(n[2])));
        if (!(m > 0.0))
            return mdl_refuse(ctx, "invalid_operation", "field \"normal\": must not be zero");
        double x = n[0] / m, y = n[1] / m, z = n[2] / m, len = sqrt(x * x + y * y + z * z);
        n[0] = x / len, n[1] = y / len, n[2] = z / len;
    }
    mdl_object *o = mdl_target_object(ctx, op, false);
    mdl_corner *c = o ? target_corner(ctx, o, op) : NULL;
    if (!c)
        return -1;
    c->has_normal = set;
    for (int a = 0; a < 3; a++)
        c->normal[a] = set ? n[a] : 0.0;
    return 0;
}

static const mdl_field corner_normal_fields[] = {
    {.name = "corner", .type = MDL_F_ID, .required = true, .description = "corner id"},
    {.name = "normal", .type = MDL_F_VEC3_OR_NULL, .required = true,
     .description = "explicit normal (nonzero, stored normalized), or null to derive it"},
    {0},
};

const mdl_op_def mdl_op_corner_normal = {
    .op = "corner_normal",
    .mesh_edit = true,
    .fields = corner_normal_fields,
    .description = "sets or clears the explicit normal of one face corner",
    .run = run_corner_normal,
};
