/* The edge_attributes operation: marks a UV seam and a subdivision
 * crease on an edge. Attributes are keyed by the unordered vertex pair
 * (edges are derived, never stored), so the pair must be consecutive
 * corners of some face; setting seam false and crease 0 removes them. */
#include "model/mdl_ops.h"

static int run_edge_attributes(mdl_ctx *ctx, const anim_json_value *op)
{
    bool seam = mdl_field_bool(op, "seam", false);
    double crease = mdl_field_f64(op, "crease", 0.0);
    mdl_object *o = mdl_target_object(ctx, op, false);
    if (!o)
        return -1;
    const anim_json_value *vs = mdl_field_get(op, "vertices");
    uint64_t ids[2] = {mdl_value_id(anim_json_item(vs, 0)), mdl_value_id(anim_json_item(vs, 1))};
    size_t idx[2];
    if (mdl_resolve_vertices(ctx, o, ids, 2, idx) != 0 ||
        mdl_spend(ctx, 1 + o->face_count + o->corner_count) != 0)
        return -1;
    bool found = false;
    for (size_t fi = 0; fi < o->face_count; fi++) {
        const mdl_face *f = &o->faces[fi];
        const mdl_corner *c = &o->corners[f->corner_first];
        for (uint32_t k = 0; k < f->corner_count; k++) {
            uint64_t a = c[k].vertex, b = c[(k + 1) % f->corner_count].vertex;
            if ((a == ids[0] && b == ids[1]) || (a == ids[1] && b == ids[0])) {
                found = true;
                if (mdl_select_face(ctx, f->id) != 0)
                    return -1;
                break;
            }
        }
    }
    if (!found)
        return mdl_refuse(ctx, "unknown_edge",
                          "vertices \"%llu\" and \"%llu\" of object \"%s\" are not an edge of "
                          "any face",
                          (unsigned long long)ids[0], (unsigned long long)ids[1], o->name);
    if (mdl_object_set_edge_attr(o, ids[0], ids[1], seam, crease) != 0)
        return mdl_nomem(ctx);
    if (mdl_select_vertex(ctx, ids[0]) != 0 || mdl_select_vertex(ctx, ids[1]) != 0)
        return -1;
    return 0;
}

static const mdl_field edge_attributes_fields[] = {
    {.name = "vertices", .type = MDL_F_IDS, .required = true, .min_items = 2, .max_items = 2,
     .description = "the two vertex ids of the edge, in either order"},
    {.name = "seam", .type = MDL_F_BOOL, .required = true,
     .description = "a UV seam: subdivision keeps the UVs on its sides apart"},
    {.name = "crease", .type = MDL_F_NUMBER, .required = true, .min = 0, .max = 1,
     .description = "subdivision crease sharpness 0-1"},
    {0},
};

const mdl_op_def mdl_op_edge_attributes = {
    .op = "edge_attributes",
    .mesh_edit = true,
    .fields = edge_attributes_fields,
    .description = "sets the seam flag and crease of an existing edge",
    .run = run_edge_attributes,
};
