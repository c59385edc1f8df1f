/* Constraint solving inside an operation: orders and applies the
 * document's enabled constraints to a set of locals, turning a failed
 * order or IK solve into the operation's refusal. solve_pose and
 * bake_clip share it so they refuse alike. */
#ifndef ANIMSMITH_MDL_RIG_SOLVE_H
#define ANIMSMITH_MDL_RIG_SOLVE_H

#include <stdbool.h>

#include "model/mdl_ops.h"

/* Applies the enabled constraints to locals (d->joint_count entries);
 * written (may be NULL) gets true for each joint a constraint wrote. 0, or
 * -1 after refusing constraint_conflict / constraint_cycle / ik_*; `what`
 * names the pose or sample for the message. */
int mdl_solve_constraints(mdl_ctx *ctx, mdl_trs *locals, bool *written, const char *what);

#endif
