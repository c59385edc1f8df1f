/* brush: a smooth grab. Listed vertices within radius of the centre move
 * by delta scaled by the falloff w = (1 - (d/r)^2)^2, which is 1 at the
 * centre and reaches 0 with zero slope at the rim, so the edit leaves no
 * crease at the brush border; each displacement is clamped in length. */
#include <math.h>
#include <stdlib.h>

#include "model/mdl_ops.h"

static const mdl_field brush_fields[] = {
    {.name = "vertices", .type = MDL_F_IDS, .required = true, .min_items = 1,
     .description = "vertex ID strings the brush may move"},
    {.name = "center", .type = MDL_F_VEC3, .required = true, .description = "XYZ metres"},
    {.name = "radius", .type = MDL_F_NUMBER, .required = true, .min = 0, .max = INFINITY,
     .min_open = true, .description = "metres, > 0"},
    {.name = "delta", .type = MDL_F_VEC3, .required = true,
     .description = "XYZ metres a vertex at the centre moves"},
    {.name = "max_displacement", .type = MDL_F_NUMBER, .required = true, .min = 0,
     .max = INFINITY, .description = "metres, >= 0: longest move of any vertex"},
    {.name = NULL},
};

static int run_brush(mdl_ctx *ctx, const anim_json_value *op)
{
    mdl_object *o = mdl_target_object(ctx, op, false);
    if (!o)
        return -1;
    size_t n;
    uint64_t *ids = mdl_field_ids(ctx, op, "vertices", &n);
    if (!ids)
        return -1;
    double c[3], delta[3];
    mdl_field_vec(op, "center", c, 3);
    mdl_field_vec(op, "delta", delta, 3);
    double r = mdl_field_f64(op, "radius", 1);
    double cap = mdl_field_f64(op, "max_displacement", 0);
    int rc = -1;
    size_t *idx = malloc(n * sizeof *idx);
    if (!idx) {
        mdl_nomem(ctx);
        goto done;
    }
    if (mdl_resolve_vertices(ctx, o, ids, n, idx) != 0 || mdl_spend(ctx, 1 + n) != 0)
        goto done;
    for (size_t i = 0; i < n; i++) {
        mdl_vertex *v = &o->vertices[idx[i]];
        double dx = v->p[0] - c[0], dy = v->p[1] - c[1], dz = v->p[2] - c[2];
        double d = sqrt(dx * dx + dy * dy + dz * dz);
        if (!(d < r))
            continue;
        double s = 1 - (d / r) * (d / r);
        double wgt = s * s;
        double m[3] = {delta[0] * wgt, delta[1] * wgt, delta[2] * wgt};
        double len = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
        if (len > cap) {
            double k = len > 0 ? cap / len : 0;
            m[0] *= k;
            m[1] *= k;
            m[2] *= k;
        }
        if (m[0] == 0 && m[1] == 0 && m[2] == 0)
            continue;
        if (!isfinite(v->p[0] + m[0]) || !isfinite(v->p[1] + m[1]) ||
            !isfinite(v->p[2] + m[2]) || !isfinite(wgt)) {
            mdl_refuse(ctx, "not_finite", "vertex \"%llu\" of object \"%s\" would move out of "
                       "range", (unsigned long long)v->id, o->name);
            goto done;
        }
        v->p[0] += m[0];
        v->p[1] += m[1];
        v->p[2] += m[2];
        if (mdl_select_vertex(ctx, v->id) != 0)
            goto done;
    }
    rc = 0;
done:
    free(ids);
    free(idx);
    return rc;
}

const mdl_op_def mdl_op_brush = {
    .op = "brush",
    .mesh_edit = true,
    .fields = brush_fields,
    .description = "smooth grab: listed vertices within radius move by delta with falloff "
                   "(1 - (d/r)^2)^2, clamped to max_displacement",
    .run = run_brush,
};
