/* The assign_material operation: sets the material ordinal of faces. The
 * ordinal need not be defined yet; compile uses a default material for an
 * undefined one, so materials and assignments can come in either order. */
#include <stdlib.h>

#include "model/mdl_ops.h"

static int run_assign_material(mdl_ctx *ctx, const anim_json_value *op)
{
    int32_t material = (int32_t)mdl_field_int(op, "material", 0);
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
    else if (mdl_resolve_faces(ctx, o, ids, n, idx) == 0 && mdl_spend(ctx, 1 + n) == 0) {
        rc = 0;
        for (size_t i = 0; i < n && rc == 0; i++) {
            o->faces[idx[i]].material = material;
            rc = mdl_select_face(ctx, ids[i]);
        }
    }
    free(ids);
    free(idx);
    return rc;
}

static const mdl_field assign_material_fields[] = {
    {.name = "faces", .type = MDL_F_IDS, .required = true, .min_items = 1,
     .description = "face ids"},
    {.name = "material", .type = MDL_F_INTEGER, .required = true, .min = 0,
     .max = MDL_MATERIAL_SLOTS - 1, .description = "material ordinal 0-511"},
    {0},
};

const mdl_op_def mdl_op_assign_material = {
    .op = "assign_material",
    .mesh_edit = true,
    .fields = assign_material_fields,
    .description = "sets the material ordinal of faces",
    .run = run_assign_material,
};
