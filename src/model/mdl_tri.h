/* Polygon triangulation and planarity, shared by compile, inset,
 * validation and the solid checks. Planar convex faces fan from their
 * first corner; any other face is triangulated by ear clipping in the
 * plane of its Newell normal (deterministic: ears are taken in corner
 * order), and a nonplanar one is reported. */
#ifndef ANIMSMITH_MDL_TRI_H
#define ANIMSMITH_MDL_TRI_H

#include <stdbool.h>

#include "model/mdl_doc.h"

#define MDL_PLANAR_TOLERANCE 1e-6 /* metres from the best-fit plane, relative to size */

/* Largest distance of a corner from the face's plane through its centroid
 * with its Newell normal, divided by the face's diameter (0 for a
 * triangle). */
double mdl_face_nonplanarity(const mdl_object *o, const mdl_face *f);
bool mdl_face_is_planar(const mdl_object *o, const mdl_face *f);
bool mdl_face_is_convex(const mdl_object *o, const mdl_face *f); /* in its plane */

/* Writes 3 * (corner_count - 2) corner offsets within the face (0 ..
 * corner_count - 1) into tri; *nonplanar tells whether the projected
 * method was needed because the face is not planar. Returns the triangle
 * count, -1 on out of memory. */
int mdl_face_triangulate(const mdl_object *o, const mdl_face *f, uint32_t *tri, bool *nonplanar);


/* ---- Addition (topology slice): the same on a bare polygon of n points
 * (corner order; p holds x, y, z of each point, 3 * n doubles), for
 * callers holding positions that are not (yet) a face, e.g. inset's inner
 * polygon; the face functions above gather the corner positions and call
 * these. */
#include <stdint.h>
void mdl_poly_newell(const double *p, uint32_t n, double normal[3]); /* unit or zero */
double mdl_poly_nonplanarity(const double *p, uint32_t n);
bool mdl_poly_is_convex(const double *p, uint32_t n);
int mdl_poly_triangulate(const double *p, uint32_t n, uint32_t *tri, bool *nonplanar);
/* Projects onto a right-handed basis (u, v) of the plane of the unit
 * normal (u x v = normal): a polygon wound counter-clockwise about the
 * normal has positive signed area; convexity of such a projection. */
void mdl_poly_project(const double *p, uint32_t n, const double normal[3], double *q);
bool mdl_poly2_is_convex(const double *q, uint32_t n); /* q: 2 * n doubles */

#endif
