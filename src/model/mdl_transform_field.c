/* The shared "transform" field: its spec and its reader (see the header
 * for why it is shared). The rotation is stored as given once it is known
 * to be unit, so a transform read back is exactly the one written. */
#include <math.h>

#include "model/mdl_transform_field.h"

#define ROTATION_UNIT_TOLERANCE 1e-6

const mdl_field mdl_transform_fields[] = {
    {.name = "translation", .type = MDL_F_VEC3, .required = false,
     .description = "parent-local translation in metres, default [0, 0, 0]"},
    {.name = "rotation", .type = MDL_F_VEC4, .required = false,
     .description = "unit quaternion x, y, z, w, default [0, 0, 0, 1]"},
    {.name = "scale", .type = MDL_F_VEC3, .required = false,
     .description = "nonzero scale per axis, default [1, 1, 1]"},
    {.name = NULL},
};

int mdl_read_transform(mdl_ctx *ctx, const anim_json_value *obj, const char *field_label,
                       mdl_trs *out)
{
    mdl_trs_identity(out);
    mdl_field_vec(obj, "translation", out->translation, 3);
    mdl_field_vec(obj, "rotation", out->rotation, 4);
    mdl_field_vec(obj, "scale", out->scale, 3);
    const double *q = out->rotation;
    double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (fabs(1 - len) > ROTATION_UNIT_TOLERANCE)
        return mdl_refuse(ctx, "invalid_transform",
                          "field \"%s.rotation\": [%.17g, %.17g, %.17g, %.17g] is not a unit "
                          "quaternion (length %.17g)",
                          field_label, q[0], q[1], q[2], q[3], len);
    for (int k = 0; k < 3; k++)
        if (out->scale[k] == 0)
            return mdl_refuse(ctx, "invalid_transform",
                              "field \"%s.scale[%d]\": a scale lane must be nonzero", field_label,
                              k);
    return 0;
}
