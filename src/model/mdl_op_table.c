/* The operation table: every operation in world.api order, so the
 * validator, the executor and the schema generator read one list. The
 * definitions live with their run functions (mdl_op_*.c). */
#include <string.h>

#include "model/mdl_ops.h"

const mdl_op_def *const mdl_op_defs[] = {
    &mdl_op_cube,           &mdl_op_plane,         &mdl_op_sphere,
    &mdl_op_cylinder,       &mdl_op_polygon_mesh,  &mdl_op_transform,
    &mdl_op_extrude,        &mdl_op_inset,         &mdl_op_mirror,
    &mdl_op_weld,           &mdl_op_delete_faces,  &mdl_op_delete_object,
    &mdl_op_uv,             &mdl_op_corner_normal, &mdl_op_edge_attributes,
    &mdl_op_weights,        &mdl_op_assign_material, &mdl_op_material,
    &mdl_op_texture_solid,  &mdl_op_paint_texture, &mdl_op_skeleton,
    &mdl_op_auto_weights,   &mdl_op_subdivide,     &mdl_op_smooth,
    &mdl_op_project_uv,     &mdl_op_brush,         &mdl_op_clip,
    &mdl_op_delete_clip,    &mdl_op_rig_rest,      &mdl_op_rig_rename,
    &mdl_op_rig_parent,     &mdl_op_rig_roll,      &mdl_op_clip_options,
    &mdl_op_rig_mirror,     &mdl_op_weight_locks,  &mdl_op_weight_edit,
    &mdl_op_morph,          &mdl_op_capture_morph, &mdl_op_delete_morph,
    &mdl_op_morph_weight,   &mdl_op_pose,          &mdl_op_delete_pose,
    &mdl_op_ik,             &mdl_op_blend_clip,    &mdl_op_retarget_clip,
    &mdl_op_constraint,     &mdl_op_delete_constraint, &mdl_op_solve_pose,
    &mdl_op_bake_clip,
};

const size_t mdl_op_def_count = sizeof mdl_op_defs / sizeof mdl_op_defs[0];

/* A few dozen entries: a linear scan costs less than keeping a sorted index in
 * step with the table. */
const mdl_op_def *mdl_op_find(const char *op, size_t len)
{
    for (size_t i = 0; i < mdl_op_def_count; i++) {
        const char *name = mdl_op_defs[i]->op;
        if (strlen(name) == len && memcmp(name, op, len) == 0)
            return mdl_op_defs[i];
    }
    return NULL;
}
