/* inset: shrinks one planar convex face inward by a distance in its own
 * plane and joins the outer and inner outlines with a ring of quads. It is
 * deliberately conservative: only planar convex faces, and any inset that
 * would invert, collapse or leave the face is refused rather than
 * repaired, so the result is always a valid nested outline. The face keeps
 * its id and corners (moved onto the inner vertices). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/mdl_ops.h"
#include "model/mdl_topo.h"
#include "model/mdl_tri.h"

static const mdl_field inset_fields[] = {
    {.name = "face", .type = MDL_F_ID, .required = true, .description = "face ID string"},
    {.name = "distance", .type = MDL_F_NUMBER, .required = true, .min = 0, .max = INFINITY,
     .min_open = true, .description = "metres each edge moves inward, > 0"},
    {.name = NULL},
};

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double a[3], const double b[3], double r[3])
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}

static double area2(const double *q, uint32_t n)
{
    double s = 0;
    for (uint32_t i = 0; i < n; i++) {
        const double *a = q + 2 * i, *b = q + 2 * ((i + 1) % n);
        s += a[0] * b[1] - a[1] * b[0];
    }
    return s;
}

/* Inner corners: each edge's line moved inward by d within the plane of
 * the unit normal nrm; corner k at the meeting of the lines of edges k-1
 * and k (p + d (m1 + m2) / (1 + m1.m2) for unit inward normals m1, m2).
 * False when an edge has no length. */
static bool inner_corners(const double *p, uint32_t n, const double nrm[3], double d,
                          double *in)
{
    for (uint32_t k = 0; k < n; k++) {
        const double *a = p + 3 * ((k + n - 1) % n), *b = p + 3 * k, *c = p + 3 * ((k + 1) % n);
        double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double e2[3] = {c[0] - b[0], c[1] - b[1], c[2] - b[2]};
        double m1[3], m2[3];
        cross3(nrm, e1, m1);
        cross3(nrm, e2, m2);
        double l1 = sqrt(dot3(m1, m1)), l2 = sqrt(dot3(m2, m2));
        if (!(l1 > 0) || !(l2 > 0))
            return false;
        for (int i = 0; i < 3; i++) {
            m1[i] /= l1;
            m2[i] /= l2;
        }
        double den = 1 + dot3(m1, m2);
        if (!(den > 1e-12))
            return false;
        for (int i = 0; i < 3; i++)
            in[3 * k + i] = b[i] + d * (m1[i] + m2[i]) / den;
    }
    return true;
}

/* Whether the inner outline is a strictly smaller copy: convex with the
 * face's orientation, each inner edge running the same way as its outer
 * edge with a length, and every inner corner strictly inside the face. */
static bool inner_valid(const double *q, const double *qi, uint32_t n)
{
    if (!mdl_poly2_is_convex(qi, n) || !(area2(qi, n) > 0))
        return false;
    double ext = 0;
    for (uint32_t k = 0; k < n; k++) {
        double dx = q[2 * k] - q[0], dy = q[2 * k + 1] - q[1];
        ext = fmax(ext, dx * dx + dy * dy);
    }
    double eps = 1e-12 * ext;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t k1 = (k + 1) % n;
        double ex = q[2 * k1] - q[2 * k], ey = q[2 * k1 + 1] - q[2 * k + 1];
        double ix = qi[2 * k1] - qi[2 * k], iy = qi[2 * k1 + 1] - qi[2 * k + 1];
        if (!(ex * ix + ey * iy > eps))
            return false;
        for (uint32_t j = 0; j < n; j++) {
            double px = qi[2 * j] - q[2 * k], py = qi[2 * j + 1] - q[2 * k + 1];
            if (!(ex * py - ey * px > eps))
                return false;
        }
    }
    return true;
}

/* The affine map uv = A (x, y) + t fitted to the face's projected corners
 * by least squares; false when the corners do not determine one or the
 * face's UVs are not affine in its positions (then no map is "the" map). */
static bool fit_uv_map(const double *q, const double (*uv)[2], uint32_t n, double m[2][3])
{
    double cx = 0, cy = 0, cu = 0, cv = 0;
    for (uint32_t k = 0; k < n; k++) {
        cx += q[2 * k];
        cy += q[2 * k + 1];
        cu += uv[k][0];
        cv += uv[k][1];
    }
    cx /= n;
    cy /= n;
    cu /= n;
    cv /= n;
    double sxx = 0, sxy = 0, syy = 0, sxu = 0, syu = 0, sxv = 0, syv = 0, ext = 0, uext = 0;
    for (uint32_t k = 0; k < n; k++) {
        double x = q[2 * k] - cx, y = q[2 * k + 1] - cy;
        double u = uv[k][0] - cu, v = uv[k][1] - cv;
        sxx += x * x;
        sxy += x * y;
        syy += y * y;
        sxu += x * u;
        syu += y * u;
        sxv += x * v;
        syv += y * v;
        ext = fmax(ext, x * x + y * y);
        uext = fmax(uext, u * u + v * v);
    }
    double det = sxx * syy - sxy * sxy;
    if (!(det > 1e-12 * (sxx + syy) * (sxx + syy)))
        return false;
    m[0][0] = (sxu * syy - syu * sxy) / det;
    m[0][1] = (syu * sxx - sxu * sxy) / det;
    m[1][0] = (sxv * syy - syv * sxy) / det;
    m[1][1] = (syv * sxx - sxv * sxy) / det;
    m[0][2] = cu - m[0][0] * cx - m[0][1] * cy;
    m[1][2] = cv - m[1][0] * cx - m[1][1] * cy;
    double tol = 1e-9 * (sqrt(uext) + 1e-300);
    for (uint32_t k = 0; k < n; k++) {
        double u = m[0][0] * q[2 * k] + m[0][1] * q[2 * k + 1] + m[0][2];
        double v = m[1][0] * q[2 * k] + m[1][1] * q[2 * k + 1] + m[1][2];
        if (fabs(u - uv[k][0]) > tol || fabs(v - uv[k][1]) > tol)
            return false;
    }
    (void)ext;
    return true;
}

typedef struct {
    uint32_t n;
    double *p, *in, *q, *qi;
    double (*uv)[2], (*inuv)[2];
    uint64_t *outv, *inv;
} work_arrays;

static void work_free(work_arrays *w)
{
    free(w->p);
    free(w->in);
    free(w->q);
    free(w->qi);
    free(w->uv);
    free(w->inuv);
    free(w->outv);
    free(w->inv);
}

static bool work_alloc(work_arrays *w, uint32_t n)
{
    memset(w, 0, sizeof *w);
    w->n = n;
    w->p = malloc(3 * n * sizeof *w->p);
    w->in = malloc(3 * n * sizeof *w->in);
    w->q = malloc(2 * n * sizeof *w->q);
    w->qi = malloc(2 * n * sizeof *w->qi);
    w->uv = malloc(n * sizeof *w->uv);
    w->inuv = malloc(n * sizeof *w->inuv);
    w->outv = malloc(n * sizeof *w->outv);
    w->inv = malloc(n * sizeof *w->inv);
    return w->p && w->in && w->q && w->qi && w->uv && w->inuv && w->outv && w->inv;
}

static int run_inset(mdl_ctx *ctx, const anim_json_value *op)
{
    mdl_object *o = mdl_target_object(ctx, op, false);
    if (!o)
        return -1;
    uint64_t fid;
    ptrdiff_t fi = mdl_target_face(ctx, o, op, &fid);
    if (fi < 0)
        return -1;
    double d = mdl_field_f64(op, "distance", 0);
    const mdl_face *f = &o->faces[fi];
    uint32_t n = f->corner_count;
    if (mdl_spend(ctx, 1 + 7 * (uint64_t)n))
        return -1;
    if (!mdl_face_is_planar(o, f))
        return mdl_refuse(ctx, "nonplanar_face",
                          "face \"%llu\" of object \"%s\" is not planar (nonplanarity %g > %g): "
                          "inset needs a planar face",
                          (unsigned long long)fid, o->name, mdl_face_nonplanarity(o, f),
                          MDL_PLANAR_TOLERANCE);
    if (!mdl_face_is_convex(o, f))
        return mdl_refuse(ctx, "nonconvex_face",
                          "face \"%llu\" of object \"%s\" is not convex: inset needs a convex "
                          "face",
                          (unsigned long long)fid, o->name);
    work_arrays w;
    int rc = -1;
    if (!work_alloc(&w, n)) {
        mdl_nomem(ctx);
        goto done;
    }
    uint32_t first = f->corner_first;
    for (uint32_t k = 0; k < n; k++) {
        const mdl_corner *c = &o->corners[first + k];
        const double *pos = mdl_object_position(o, c->vertex);
        memcpy(w.p + 3 * k, pos, 3 * sizeof(double));
        w.uv[k][0] = c->uv[0];
        w.uv[k][1] = c->uv[1];
        w.outv[k] = c->vertex;
    }
    double nrm[3];
    mdl_poly_newell(w.p, n, nrm);
    if (!inner_corners(w.p, n, nrm, d, w.in)) {
        rc = mdl_refuse(ctx, "degenerate_face",
                        "face \"%llu\" of object \"%s\" has an edge without length",
                        (unsigned long long)fid, o->name);
        goto done;
    }
    mdl_poly_project(w.p, n, nrm, w.q);
    mdl_poly_project(w.in, n, nrm, w.qi);
    if (!inner_valid(w.q, w.qi, n)) {
        rc = mdl_refuse(ctx, "inset_too_large",
                        "field \"distance\": insetting face \"%llu\" of object \"%s\" by %g "
                        "would invert or collapse it",
                        (unsigned long long)fid, o->name, d);
        goto done;
    }
    /* UVs: the face's own position-to-UV map where it has one; otherwise
     * each corner's UV moves toward the UV centroid by the fraction its
     * position moved toward the face centroid. */
    double m[2][3];
    if (fit_uv_map(w.q, (const double(*)[2])w.uv, n, m)) {
        for (uint32_t k = 0; k < n; k++)
            for (int i = 0; i < 2; i++)
                w.inuv[k][i] = m[i][0] * w.qi[2 * k] + m[i][1] * w.qi[2 * k + 1] + m[i][2];
    } else {
        double c[3] = {0, 0, 0}, cuv[2] = {0, 0};
        for (uint32_t k = 0; k < n; k++) {
            for (int i = 0; i < 3; i++)
                c[i] += w.p[3 * k + i] / n;
            cuv[0] += w.uv[k][0] / n;
            cuv[1] += w.uv[k][1] / n;
        }
        for (uint32_t k = 0; k < n; k++) {
            double a[3], b[3];
            for (int i = 0; i < 3; i++) {
                a[i] = w.p[3 * k + i] - c[i];
                b[i] = w.in[3 * k + i] - c[i];
            }
            double la = sqrt(dot3(a, a));
            double s = la > 0 ? sqrt(dot3(b, b)) / la : 1;
            for (int i = 0; i < 2; i++)
                w.inuv[k][i] = cuv[i] + (w.uv[k][i] - cuv[i]) * s;
        }
    }
    for (uint32_t k = 0; k < n; k++) {
        w.inv[k] = mdl_object_add_vertex(o, w.in + 3 * k);
        if (w.inv[k] == 0 || mdl_topo_copy_weights(o, w.outv[k], w.inv[k]) != 0) {
            mdl_nomem(ctx);
            goto done;
        }
        if (mdl_select_vertex(ctx, w.inv[k]) != 0)
            goto done;
    }
    f = &o->faces[fi];
    int32_t material = f->material;
    bool smooth = f->smooth;
    for (uint32_t k = 0; k < n; k++) {
        mdl_corner *c = &o->corners[first + k];
        c->vertex = w.inv[k];
        c->uv[0] = w.inuv[k][0];
        c->uv[1] = w.inuv[k][1];
    }
    if (mdl_select_face(ctx, fid) != 0)
        goto done;
    /* Ring quad k: outer k -> outer k+1 -> inner k+1 -> inner k, against
     * the face along the inner edge and against the old neighbour along
     * the outer one. */
    for (uint32_t k = 0; k < n; k++) {
        uint32_t k1 = (k + 1) % n;
        uint64_t ring[4] = {w.outv[k], w.outv[k1], w.inv[k1], w.inv[k]};
        double ruv[4][2] = {{w.uv[k][0], w.uv[k][1]},
                            {w.uv[k1][0], w.uv[k1][1]},
                            {w.inuv[k1][0], w.inuv[k1][1]},
                            {w.inuv[k][0], w.inuv[k][1]}};
        uint64_t rid = mdl_object_add_face(o, ring, (const double(*)[2])ruv, 4, material, smooth);
        if (rid == 0) {
            mdl_nomem(ctx);
            goto done;
        }
        if (mdl_select_face(ctx, rid) != 0)
            goto done;
    }
    rc = 0;
done:
    work_free(&w);
    return rc;
}

const mdl_op_def mdl_op_inset = {
    .op = "inset",
    .mesh_edit = true,
    .fields = inset_fields,
    .description = "conservative planar convex inset: shrinks a face in its plane and rings it "
                   "with quads",
    .run = run_inset,
};
