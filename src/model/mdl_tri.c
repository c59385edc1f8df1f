/* Polygon planarity, convexity and triangulation (mdl_tri.h). One
 * implementation on bare point lists serves faces (gathered from their
 * corners), inset's inner polygon and the compile step, so every caller
 * agrees on what "planar", "convex" and the triangles of a face are.
 *
 * Projection: the Newell normal n of the polygon is its area vector, so in
 * a right-handed basis (u, v, n) the projected polygon of a face wound
 * counter-clockwise about n has positive signed area; turns of a convex
 * face are then all left turns, and ears are left-turning corners. */
#include "model/mdl_tri.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Below this (relative to the polygon's squared extent) a turn or an
 * area counts as zero: collinear corners are allowed in convex faces,
 * and zero-area ears are not taken while real ones remain. */
#define TURN_EPS 1e-12

/* Point i of a flat xyz list p / xy list q. */
#define P(i) (p + 3 * (size_t)(i))
#define Q(i) (q + 2 * (size_t)(i))

void mdl_poly_newell(const double *p, uint32_t n, double normal[3])
{
    double s[3] = {0, 0, 0};
    for (uint32_t i = 0; i < n; i++) {
        const double *a = P(i), *b = P((i + 1) % n);
        s[0] += (a[1] - b[1]) * (a[2] + b[2]);
        s[1] += (a[2] - b[2]) * (a[0] + b[0]);
        s[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    double len = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    if (!(len > 0) || !isfinite(len)) {
        normal[0] = normal[1] = normal[2] = 0;
        return;
    }
    for (int k = 0; k < 3; k++)
        normal[k] = s[k] / len;
}

static double diameter(const double *p, uint32_t n)
{
    double best = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++) {
            double d[3] = {P(j)[0] - P(i)[0], P(j)[1] - P(i)[1], P(j)[2] - P(i)[2]};
            double l = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            if (l > best)
                best = l;
        }
    return sqrt(best);
}

double mdl_poly_nonplanarity(const double *p, uint32_t n)
{
    if (n <= 3)
        return 0;
    double nrm[3];
    mdl_poly_newell(p, n, nrm);
    double dia = diameter(p, n);
    if (!(dia > 0) || (nrm[0] == 0 && nrm[1] == 0 && nrm[2] == 0))
        return 0;
    double c[3] = {0, 0, 0};
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            c[k] += P(i)[k];
    for (int k = 0; k < 3; k++)
        c[k] /= (double)n;
    double worst = 0;
    for (uint32_t i = 0; i < n; i++) {
        double d = fabs((P(i)[0] - c[0]) * nrm[0] + (P(i)[1] - c[1]) * nrm[1] +
                        (P(i)[2] - c[2]) * nrm[2]);
        if (d > worst)
            worst = d;
    }
    return worst / dia;
}

/* A right-handed in-plane basis for the unit normal n. */
static void plane_basis(const double n[3], double u[3], double v[3])
{
    /* Start from the world axis least aligned with n: deterministic and
     * well conditioned. */
    double ax[3] = {0, 0, 0};
    double fx = fabs(n[0]), fy = fabs(n[1]), fz = fabs(n[2]);
    if (fx <= fy && fx <= fz)
        ax[0] = 1;
    else if (fy <= fz)
        ax[1] = 1;
    else
        ax[2] = 1;
    /* u = ax x n, normalized; v = n x u. */
    u[0] = ax[1] * n[2] - ax[2] * n[1];
    u[1] = ax[2] * n[0] - ax[0] * n[2];
    u[2] = ax[0] * n[1] - ax[1] * n[0];
    double l = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int k = 0; k < 3; k++)
        u[k] /= l;
    v[0] = n[1] * u[2] - n[2] * u[1];
    v[1] = n[2] * u[0] - n[0] * u[2];
    v[2] = n[0] * u[1] - n[1] * u[0];
}

void mdl_poly_project(const double *p, uint32_t n, const double normal[3], double *q)
{
    double u[3], v[3];
    plane_basis(normal, u, v);
    for (uint32_t i = 0; i < n; i++) {
        q[2 * i] = P(i)[0] * u[0] + P(i)[1] * u[1] + P(i)[2] * u[2];
        q[2 * i + 1] = P(i)[0] * v[0] + P(i)[1] * v[1] + P(i)[2] * v[2];
    }
}

static double cross2(const double a[2], const double b[2], const double c[2])
{
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

/* Squared extent of a projected polygon: the scale for TURN_EPS. */
static double extent2(const double *q, uint32_t n)
{
    double lo[2] = {q[0], q[1]}, hi[2] = {q[0], q[1]};
    for (uint32_t i = 1; i < n; i++)
        for (int k = 0; k < 2; k++) {
            if (Q(i)[k] < lo[k])
                lo[k] = Q(i)[k];
            if (Q(i)[k] > hi[k])
                hi[k] = Q(i)[k];
        }
    double dx = hi[0] - lo[0], dy = hi[1] - lo[1];
    return dx * dx + dy * dy;
}

bool mdl_poly2_is_convex(const double *q, uint32_t n)
{
    if (n < 3)
        return false;
    double eps = TURN_EPS * extent2(q, n);
    if (!(eps > 0))
        return false;
    double total = 0;
    int sign = 0;
    for (uint32_t i = 0; i < n; i++) {
        const double *a = Q(i), *b = Q((i + 1) % n), *c = Q((i + 2) % n);
        double e1[2] = {b[0] - a[0], b[1] - a[1]}, e2[2] = {c[0] - b[0], c[1] - b[1]};
        if (e1[0] * e1[0] + e1[1] * e1[1] <= eps)
            return false; /* repeated corner */
        double cr = e1[0] * e2[1] - e1[1] * e2[0];
        double dt = e1[0] * e2[0] + e1[1] * e2[1];
        if (fabs(cr) <= eps) {
            if (dt < 0)
                return false; /* the outline doubles back on itself */
            continue;         /* collinear: allowed */
        }
        int s = cr > 0 ? 1 : -1;
        if (sign && s != sign)
            return false;
        sign = s;
        total += atan2(cr, dt);
    }
    /* Same-sign turns summing to one full turn: simple (a pentagram
     * turns twice). */
    return sign != 0 && fabs(fabs(total) - 2 * 3.14159265358979323846) < 1e-6;
}

bool mdl_poly_is_convex(const double *p, uint32_t n)
{
    if (n < 3)
        return false;
    double nrm[3];
    mdl_poly_newell(p, n, nrm);
    if (nrm[0] == 0 && nrm[1] == 0 && nrm[2] == 0)
        return false;
    double stackq[2 * 64];
    double *q = n <= 64 ? stackq : malloc((size_t)n * 2 * sizeof *q);
    if (!q)
        return false;
    mdl_poly_project(p, n, nrm, q);
    bool r = mdl_poly2_is_convex(q, n);
    if (q != stackq)
        free(q);
    return r;
}

static void fan(const uint32_t *idx, uint32_t m, uint32_t *tri)
{
    for (uint32_t i = 1; i + 1 < m; i++) {
        tri[0] = idx[0];
        tri[1] = idx[i];
        tri[2] = idx[i + 1];
        tri += 3;
    }
}

/* Whether the corner at position i of the remaining list is an ear: a
 * strict left turn whose triangle holds no other remaining corner (on
 * its boundary counts as inside, except a copy of one of its corners). */
static bool is_ear(const double *q, const uint32_t *idx, uint32_t m, uint32_t i, double eps)
{
    const double *a = Q(idx[(i + m - 1) % m]), *b = Q(idx[i]), *c = Q(idx[(i + 1) % m]);
    if (!(cross2(a, b, c) > eps))
        return false;
    for (uint32_t k = 0; k < m; k++) {
        if (k == i || k == (i + m - 1) % m || k == (i + 1) % m)
            continue;
        const double *p = Q(idx[k]);
        if ((p[0] == a[0] && p[1] == a[1]) || (p[0] == b[0] && p[1] == b[1]) ||
            (p[0] == c[0] && p[1] == c[1]))
            continue;
        if (cross2(a, b, p) >= -eps && cross2(b, c, p) >= -eps && cross2(c, a, p) >= -eps)
            return false;
    }
    return true;
}

int mdl_poly_triangulate(const double *p, uint32_t n, uint32_t *tri, bool *nonplanar)
{
    bool np = mdl_poly_nonplanarity(p, n) > MDL_PLANAR_TOLERANCE;
    if (nonplanar)
        *nonplanar = np;
    if (n < 3)
        return 0;
    uint32_t stackidx[MDL_FACE_CORNERS_MAX];
    double stackq[2 * MDL_FACE_CORNERS_MAX];
    uint32_t *idx = stackidx;
    double *q = stackq;
    if (n > MDL_FACE_CORNERS_MAX) {
        idx = malloc((size_t)n * sizeof *idx);
        q = malloc((size_t)n * 2 * sizeof *q);
        if (!idx || !q) {
            free(idx == stackidx ? NULL : idx);
            free(q == stackq ? NULL : q);
            return -1;
        }
    }
    for (uint32_t i = 0; i < n; i++)
        idx[i] = i;
    double nrm[3];
    mdl_poly_newell(p, n, nrm);
    bool flat = nrm[0] == 0 && nrm[1] == 0 && nrm[2] == 0;
    if (flat) {
        fan(idx, n, tri); /* no plane to project onto: nothing better exists */
    } else {
        mdl_poly_project(p, n, nrm, q);
        if (!np && mdl_poly2_is_convex(q, n)) {
            fan(idx, n, tri);
        } else {
            double eps = TURN_EPS * extent2(q, n);
            uint32_t m = n;
            uint32_t *out = tri;
            while (m > 3) {
                uint32_t i = 0;
                while (i < m && !is_ear(q, idx, m, i, eps))
                    i++;
                if (i == m)
                    break; /* degenerate remainder: fan it below */
                out[0] = idx[(i + m - 1) % m];
                out[1] = idx[i];
                out[2] = idx[(i + 1) % m];
                out += 3;
                memmove(idx + i, idx + i + 1, (size_t)(m - i - 1) * sizeof *idx);
                m--;
            }
            fan(idx, m, out);
        }
    }
    if (idx != stackidx) {
        free(idx);
        free(q);
    }
    return (int)(n - 2);
}

/* A face's corner positions, in corner order, into p (room for
 * corner_count points). */
static void gather(const mdl_object *o, const mdl_face *f, double *p)
{
    for (uint32_t i = 0; i < f->corner_count; i++) {
        const double *v = mdl_object_position(o, o->corners[f->corner_first + i].vertex);
        static const double origin[3] = {0, 0, 0};
        if (!v)
            v = origin; /* a dangling corner (never in a valid document): do not crash */
        p[3 * i] = v[0];
        p[3 * i + 1] = v[1];
        p[3 * i + 2] = v[2];
    }
}

/* Points of a face: on the stack up to the face corner bound. */
typedef struct {
    double stack[3 * MDL_FACE_CORNERS_MAX];
    double *p;
} face_points;

static bool face_points_get(face_points *fp, const mdl_object *o, const mdl_face *f)
{
    fp->p = fp->stack;
    if (f->corner_count > MDL_FACE_CORNERS_MAX) {
        fp->p = malloc((size_t)f->corner_count * 3 * sizeof *fp->p);
        if (!fp->p)
            return false;
    }
    gather(o, f, fp->p);
    return true;
}

static void face_points_free(face_points *fp)
{
    if (fp->p != fp->stack)
        free(fp->p);
}

double mdl_face_nonplanarity(const mdl_object *o, const mdl_face *f)
{
    face_points fp;
    if (!face_points_get(&fp, o, f))
        return INFINITY; /* out of memory: never call it planar */
    double r = mdl_poly_nonplanarity(fp.p, f->corner_count);
    face_points_free(&fp);
    return r;
}

bool mdl_face_is_planar(const mdl_object *o, const mdl_face *f)
{
    return mdl_face_nonplanarity(o, f) <= MDL_PLANAR_TOLERANCE;
}

bool mdl_face_is_convex(const mdl_object *o, const mdl_face *f)
{
    face_points fp;
    if (!face_points_get(&fp, o, f))
        return false;
    bool r = mdl_poly_is_convex(fp.p, f->corner_count);
    face_points_free(&fp);
    return r;
}

int mdl_face_triangulate(const mdl_object *o, const mdl_face *f, uint32_t *tri, bool *nonplanar)
{
    face_points fp;
    if (!face_points_get(&fp, o, f))
        return -1;
    int r = mdl_poly_triangulate(fp.p, f->corner_count, tri, nonplanar);
    face_points_free(&fp);
    return r;
}
