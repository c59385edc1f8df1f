/* Rig evaluation shared by the pose, IK and derived-clip operations (and
 * by compile when it needs evaluated rigs): quaternion helpers, TRS <->
 * matrix, global joint transforms from locals, the locals of a sparse pose,
 * a clip sampled at a time, and the analytic two-bone IK solver. Pure
 * functions over mdl_doc data: nothing here allocates a document or
 * refuses an operation. Quaternions are x y z w; matrices column-major. */
#ifndef ANIMSMITH_MDL_RIG_EVAL_H
#define ANIMSMITH_MDL_RIG_EVAL_H

#include <stdbool.h>
#include <stddef.h>

#include "model/mdl_doc.h"

/* a ⊗ b (rotates by b first, then a). */
void mdl_quat_mul(const double a[4], const double b[4], double out[4]);
/* q / |q|; the identity for a zero quaternion. */
void mdl_quat_normalize(const double q[4], double out[4]);
/* Shortest-path slerp of unit quaternions, u in 0..1. */
void mdl_quat_slerp(const double a[4], const double b[4], double u, double out[4]);
/* v rotated by unit q. */
void mdl_quat_rotate(const double q[4], const double v[3], double out[3]);

/* T · R · S as a column-major 4x4 (m[col * 4 + row]). */
void mdl_trs_to_matrix(const mdl_trs *t, double m[16]);
/* The TRS of a matrix without shear (scale from column lengths, a negative
 * determinant flips the x scale). */
void mdl_matrix_to_trs(const double m[16], mdl_trs *out);

/* Component-wise lerp of translation and scale, slerp of rotation. */
void mdl_trs_blend(const mdl_trs *a, const mdl_trs *b, double u, mdl_trs *out);

/* Globals (column-major 4x4) of every joint from its local transform, in
 * one forward pass (parents precede children). */
void mdl_rig_globals(const mdl_doc *d, const mdl_trs *locals, double (*globals)[16]);

/* The full locals of pose p: the rest for omitted joints, the pose rows
 * otherwise. p NULL gives the rest pose. out has d->joint_count entries. */
void mdl_rig_pose_locals(const mdl_doc *d, const mdl_pose *p, mdl_trs *out);

/* The locals of clip c at time t: each channel interpolated linearly (slerp
 * for rotation) and clamped to its first / last key; joints and paths
 * without a channel take the rest. */
void mdl_rig_clip_locals(const mdl_doc *d, const mdl_clip *c, double t, mdl_trs *out);

/* Why a two-bone solve failed. */
typedef enum {
    MDL_IK_OK,
    MDL_IK_UNREACHABLE,    /* target beyond a + b or inside |a - b| */
    MDL_IK_NONUNIFORM,     /* a chain joint or an ancestor lacks uniform positive scale */
    MDL_IK_DEGENERATE      /* zero-length bone, target at the root, pole on the line */
} mdl_ik_status;

/* The analytic two-bone solve of the chain root -> middle -> end (middle
 * the root's child, end the middle's child) toward a global target, the
 * global pole choosing the bend plane. Rewrites locals[root].rotation and
 * locals[middle].rotation so the end lands on the target (or, with
 * clamp_reach, on the nearest point of the reachable shell along the
 * root-target line); bone lengths are preserved. *bad receives the joint a
 * NONUNIFORM status names. locals are unchanged unless MDL_IK_OK. */
mdl_ik_status mdl_rig_two_bone(const mdl_doc *d, mdl_trs *locals, size_t root, size_t middle,
                               size_t end, const double target[3], const double pole[3],
                               bool clamp_reach, size_t *bad);

/* ---- constraints */

/* The joints constraint c writes (its joint; for ik the root and middle):
 * returns the count (1 or 2). */
size_t mdl_constraint_writes(const mdl_constraint *c, uint32_t out[2]);

/* Why an evaluation order does not exist. */
typedef enum {
    MDL_ORDER_OK,
    MDL_ORDER_TWO_WRITERS, /* *a and *b (constraint indices) both write *joint */
    MDL_ORDER_CYCLE        /* cycle[0..*cycle_n) are the constraints left in cycles */
} mdl_order_status;

/* The evaluation order of the document's enabled constraints: a constraint
 * follows every constraint that writes its target, an ancestor of its
 * target or an ancestor of its own joint (they change the globals it
 * reads); ready constraints go first by name. order receives constraint
 * indices (*n of them); arrays hold d->constraint_count entries. */
mdl_order_status mdl_constraint_order(const mdl_doc *d, size_t *order, size_t *n, size_t *a,
                                      size_t *b, uint32_t *joint);

/* Applies constraints order[0..n) to locals in turn. An ik constraint that
 * fails stops the solve: *failed is its index and the status says why. */
mdl_ik_status mdl_constraint_solve(const mdl_doc *d, mdl_trs *locals, const size_t *order,
                                   size_t n, size_t *failed, size_t *bad);

#endif
