/* The "transform" field shared by every operation that takes a local
 * transform ({translation?, rotation?, scale?}): one field spec so world.api
 * describes it the same way everywhere, and one reader so the defaults
 * (zero, identity, one) and the checks the generic validator cannot make
 * (unit quaternion, nonzero scale) are applied the same way everywhere. */
#ifndef ANIMSMITH_MDL_TRANSFORM_FIELD_H
#define ANIMSMITH_MDL_TRANSFORM_FIELD_H

#include "model/mdl_ops.h"

/* The members of a transform object, for an MDL_F_OBJECT field. */
extern const mdl_field mdl_transform_fields[];

/* Reads a validated transform object into out, refusing "invalid_transform"
 * for a rotation that is not a unit quaternion (within 1e-6) or a zero
 * scale lane; field_label names the field in the message
 * ("joints[2].transform"). 0, or -1 after mdl_refuse. */
int mdl_read_transform(mdl_ctx *ctx, const anim_json_value *obj, const char *field_label,
                       mdl_trs *out);

#endif
