/* extrude: moves one face by an offset onto a new ring of vertices and
 * joins the old and new rings with one quad per face edge. The face keeps
 * its id, corner ids and UVs so selections and texture placement made on
 * it survive; what was under it becomes the side wall. */
#include <math.h>
#include <stdlib.h>

#include "model/mdl_ops.h"
#include "model/mdl_topo.h"

static const mdl_field extrude_fields[] = {
    {.name = "face", .type = MDL_F_ID, .required = true, .description = "face ID string"},
    {.name = "offset", .type = MDL_F_VEC3, .required = true,
     .description = "XYZ metres the face moves by; nonzero"},
    {.name = NULL},
};

static int run_extrude(mdl_ctx *ctx, const anim_json_value *op)
{
    mdl_object *o = mdl_target_object(ctx, op, false);
    if (!o)
        return -1;
    uint64_t fid;
    ptrdiff_t fi = mdl_target_face(ctx, o, op, &fid);
    if (fi < 0)
        return -1;
    double off[3];
    mdl_field_vec(op, "offset", off, 3);
    if (off[0] == 0 && off[1] == 0 && off[2] == 0)
        return mdl_refuse(ctx, "out_of_range",
                          "field \"offset\": extruding face \"%llu\" of object \"%s\" needs a "
                          "nonzero offset",
                          (unsigned long long)fid, o->name);
    uint32_t n = o->faces[fi].corner_count;
    if (mdl_spend(ctx, 1 + 7 * (uint64_t)n))
        return -1;

    uint64_t *oldv = malloc(n * sizeof *oldv);
    uint64_t *newv = malloc(n * sizeof *newv);
    double(*uv)[2] = malloc(n * sizeof *uv);
    int rc = -1;
    if (!oldv || !newv || !uv) {
        mdl_nomem(ctx);
        goto done;
    }
    uint32_t first = o->faces[fi].corner_first;
    for (uint32_t k = 0; k < n; k++) {
        oldv[k] = o->corners[first + k].vertex;
        uv[k][0] = o->corners[first + k].uv[0];
        uv[k][1] = o->corners[first + k].uv[1];
    }
    /* One new vertex per distinct old vertex (a face naming a vertex twice
     * keeps naming one vertex twice). */
    for (uint32_t k = 0; k < n; k++) {
        uint32_t j = 0;
        while (j < k && oldv[j] != oldv[k])
            j++;
        if (j < k) {
            newv[k] = newv[j];
            continue;
        }
        const double *p = mdl_object_position(o, oldv[k]);
        double q[3] = {p[0] + off[0], p[1] + off[1], p[2] + off[2]};
        if (!isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2])) {
            mdl_refuse(ctx, "not_finite",
                       "field \"offset\": moving vertex \"%llu\" of object \"%s\" overflows",
                       (unsigned long long)oldv[k], o->name);
            goto done;
        }
        newv[k] = mdl_object_add_vertex(o, q);
        if (newv[k] == 0 || mdl_topo_copy_weights(o, oldv[k], newv[k]) != 0 ||
            mdl_select_vertex(ctx, newv[k]) != 0) {
            if (!ctx->refusal_kind)
                mdl_nomem(ctx);
            goto done;
        }
    }
    for (uint32_t k = 0; k < n; k++)
        o->corners[first + k].vertex = newv[k];
    int32_t material = o->faces[fi].material;
    bool smooth = o->faces[fi].smooth;
    if (mdl_select_face(ctx, fid) != 0)
        goto done;
    /* Side k runs old k -> old k+1 -> new k+1 -> new k: the opposite of the
     * moved face along the new ring and of the neighbour that shared the
     * old edge, so orientation stays consistent whichever way it moves. */
    for (uint32_t k = 0; k < n; k++) {
        uint32_t k1 = (k + 1) % n;
        if (oldv[k] == oldv[k1])
            continue; /* a repeated corner has no side */
        uint64_t ring[4] = {oldv[k], oldv[k1], newv[k1], newv[k]};
        double suv[4][2] = {{uv[k][0], 0}, {uv[k1][0], 0}, {uv[k1][0], 1}, {uv[k][0], 1}};
        uint64_t sid = mdl_object_add_face(o, ring, (const double(*)[2])suv, 4, material, smooth);
        if (sid == 0) {
            mdl_nomem(ctx);
            goto done;
        }
        if (mdl_select_face(ctx, sid) != 0)
            goto done;
        const mdl_edge_attr *ea = mdl_object_edge_attr(o, oldv[k], oldv[k1]);
        if (ea && ea->seam &&
            mdl_object_set_edge_attr(o, newv[k], newv[k1], true, 0) != 0) {
            mdl_nomem(ctx);
            goto done;
        }
    }
    rc = 0;
done:
    free(oldv);
    free(newv);
    free(uv);
    return rc;
}

const mdl_op_def mdl_op_extrude = {
    .op = "extrude",
    .mesh_edit = true,
    .fields = extrude_fields,
    .description = "moves a face by offset onto new vertices and joins old and new rings with "
                   "side quads",
    .run = run_extrude,
};
