/* The transform operation: an affine matrix applied to chosen vertices,
 * the way clients place primitives (which are created at the origin) and
 * pose parts of a mesh. Explicit corner normals of moved vertices follow
 * by the inverse-transpose so that shading survives non-uniform scale. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "model/mdl_ops.h"

/* Length of v without overflow or underflow of the squares. */
static double length(const double v[3])
{
    double m = fmax(fabs(v[0]), fmax(fabs(v[1]), fabs(v[2])));
    if (!(m > 0.0) || !isfinite(m))
        return m;
    double x = v[0] / m, y = v[1] / m, z = v[2] / m;
    return m * sqrt(x * x + y * y + z * z);
}

/* Rescales v to unit length; false when it is zero or not finite. */
static bool unit(double v[3])
{
    double m = fmax(fabs(v[0]), fmax(fabs(v[1]), fabs(v[2])));
    if (!(m > 0.0) || !isfinite(m))
        return false;
    double x = v[0] / m, y = v[1] / m, z = v[2] / m;
    double len = sqrt(x * x + y * y + z * z);
    v[0] = x / len, v[1] = y / len, v[2] = z / len;
    return true;
}

/* The matrix with what normals need. The linear part is M = D U with D
 * the row lengths and U unit rows, so the inverse-transpose is
 * D^-1 cof(U) / det(U): working on U keeps the cofactors and determinant
 * clear of overflow and underflow whatever the scale of each row. */
typedef struct xform {
    double m[4][4];
    double inv_len[3];  /* 1 / row length */
    double cof[3][3];   /* cofactor matrix of U */
    double det;         /* det(U): 1 for a rotation, -1 for a reflection */
} xform;

/* false when the linear part is singular, or so close to it that the
 * inverse is meaningless (|det(U)|, the volume spanned by the unit rows,
 * at most 1e-12). */
static bool xform_init(xform *x)
{
    double u[3][3];
    for (int r = 0; r < 3; r++) {
        double len = length(x->m[r]);
        x->inv_len[r] = 1.0 / len;
        if (!(len > 0.0) || !isfinite(len) || !isfinite(x->inv_len[r]))
            return false;
        for (int c = 0; c < 3; c++)
            u[r][c] = x->m[r][c] / len;
    }
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) {
            int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
            x->cof[r][c] = u[r1][c1] * u[r2][c2] - u[r1][c2] * u[r2][c1];
        }
    }
    x->det = u[0][0] * x->cof[0][0] + u[0][1] * x->cof[0][1] + u[0][2] * x->cof[0][2];
    return fabs(x->det) > 1e-12;
}

static int move_vertices(mdl_ctx *ctx, mdl_object *o, const xform *x, const bool *moved)
{
    for (size_t i = 0; i < o->vertex_count; i++) {
        if (!moved[i])
            continue;
        mdl_vertex *v = &o->vertices[i];
        double q[3];
        for (int r = 0; r < 3; r++)
            q[r] = x->m[r][0] * v->p[0] + x->m[r][1] * v->p[1] + x->m[r][2] * v->p[2] + x->m[r][3];
        if (!isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2]))
            return mdl_refuse(ctx, "not_finite",
                              "vertex \"%llu\" of object \"%s\" would move to a non-finite "
                              "position",
                              (unsigned long long)v->id, o->name);
        v->p[0] = q[0], v->p[1] = q[1], v->p[2] = q[2];
        if (mdl_select_vertex(ctx, v->id) != 0)
            return -1;
    }
    return 0;
}

static int fix_corners(mdl_ctx *ctx, mdl_object *o, const xform *x, const bool *moved)
{
    double sign = x->det < 0 ? -1.0 : 1.0;
    for (size_t fi = 0; fi < o->face_count; fi++) {
        const mdl_face *f = &o->faces[fi];
        bool touched = false;
        for (uint32_t k = 0; k < f->corner_count; k++) {
            mdl_corner *c = &o->corners[f->corner_first + k];
            ptrdiff_t vi = mdl_object_vertex_index(o, c->vertex);
            if (vi < 0 || !moved[vi])
                continue;
            touched = true;
            if (!c->has_normal)
                continue;
            double n[3];
            for (int r = 0; r < 3; r++)
                n[r] = sign * x->inv_len[r] *
                       (x->cof[r][0] * c->normal[0] + x->cof[r][1] * c->normal[1] +
                        x->cof[r][2] * c->normal[2]);
            if (!unit(n))
                return mdl_refuse(ctx, "not_finite",
                                  "corner \"%llu\" of object \"%s\": its normal cannot be "
                                  "transformed",
                                  (unsigned long long)c->id, o->name);
            c->normal[0] = n[0], c->normal[1] = n[1], c->normal[2] = n[2];
        }
        if (touched && mdl_select_face(ctx, f->id) != 0)
            return -1;
    }
    return 0;
}

static int run_transform(mdl_ctx *ctx, const anim_json_value *op)
{
    xform x;
    const anim_json_value *rows = mdl_field_get(op, "matrix");
    for (int r = 0; r < 4; r++)
        mdl_value_vec(anim_json_item(rows, (size_t)r), x.m[r], 4);
    if (!xform_init(&x))
        return mdl_refuse(ctx, "degenerate_matrix",
                          "field \"matrix\": its linear part is singular (not invertible)");
    mdl_object *o = mdl_target_object(ctx, op, false);
    if (!o)
        return -1;
    size_t n = 0;
    uint64_t *ids = mdl_field_ids(ctx, op, "vertices", &n);
    if (!ids && ctx->nomem)
        return -1;
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    bool *moved = calloc(o->vertex_count ? o->vertex_count : 1, sizeof *moved);
    int rc = -1;
    if (!idx || !moved) {
        mdl_nomem(ctx);
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        idx[i] = SIZE_MAX; /* entries a deduplicating resolver leaves unset */
    if (mdl_resolve_vertices(ctx, o, ids, n, idx) != 0)
        goto out;
    if (mdl_spend(ctx, 1 + n + o->vertex_count + o->corner_count) != 0)
        goto out;
    for (size_t i = 0; i < n; i++) {
        if (idx[i] < o->vertex_count)
            moved[idx[i]] = true;
    }
    if (move_vertices(ctx, o, &x, moved) == 0 && fix_corners(ctx, o, &x, moved) == 0)
        rc = 0;
out:
    free(ids);
    free(idx);
    free(moved);
    return rc;
}

static const mdl_field transform_fields[] = {
    {.name = "vertices", .type = MDL_F_IDS, .required = true, .min_items = 1,
     .description = "vertex ids to move"},
    {.name = "matrix", .type = MDL_F_MATRIX, .required = true,
     .description = "four row-major rows of an affine matrix, last row 0 0 0 1, invertible"},
    {0},
};

const mdl_op_def mdl_op_transform = {
    .op = "transform",
    .mesh_edit = true,
    .fields = transform_fields,
    .description = "applies an affine matrix to vertices; explicit normals follow",
    .run = run_transform,
};
