/* The skeleton part of a compile: one node per joint (node index = joint
 * ordinal, rest TRS) and one skin over every joint with inverse bind
 * matrices from the world rest pose. Not in the preview. */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/math.h"
#include "model/mdl_compile_internal.h"

int cm_build_skin(cm_ctx *c)
{
    const mdl_doc *d = c->d;
    size_t n = d->joint_count;
    anim_mat4 *world = malloc(n * sizeof *world);
    float *ibm = malloc(n * 16 * sizeof *ibm);
    int rc = 0;
    if (!world || !ibm) {
        rc = cm_nomem(c);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        const mdl_joint *j = &d->joints[i];
        anim_mat4 local = anim_mat4_from_trs(anim_vec3_from_array(j->translation),
                                             anim_quat_from_array(j->rotation),
                                             anim_vec3_from_array(j->scale));
        world[i] = j->parent < 0 ? local : anim_mat4_mul(&world[j->parent], &local);
        double inv[16];
        if (!anim_mat4_invert(world[i].m, inv)) {
            rc = cm_refuse(c, ANIM_MODEL_E_REFUSED, "invalid_skin",
                           "joint %zu (\"%s\"): its world rest transform is not invertible", i,
                           j->name);
            goto done;
        }
        /* An affine inverse: the bottom row is exactly 0 0 0 1. */
        inv[3] = inv[7] = inv[11] = 0;
        inv[15] = 1;
        for (int k = 0; k < 16; k++) {
            if (!(inv[k] >= -FLT_MAX && inv[k] <= FLT_MAX)) {
                rc = cm_refuse(c, ANIM_MODEL_E_REFUSED, "f32_range",
                               "joint %zu (\"%s\"): its inverse bind matrix is outside binary32 "
                               "range",
                               i, j->name);
                goto done;
            }
            ibm[16 * i + (size_t)k] = (float)inv[k];
        }
    }
    c->ibm = glb_add_accessor(&c->b, ibm, (uint32_t)n, ANIM_GLTF_FLOAT, 16, GLB_TARGET_NONE,
                              false);
done:
    free(world);
    free(ibm);
    return rc;
}

void cm_write_joint_nodes(cm_ctx *c, anim_json_writer *w)
{
    const mdl_doc *d = c->d;
    for (size_t i = 0; i < d->joint_count; i++) {
        const mdl_joint *j = &d->joints[i];
        anim_json_writer_begin_object(w);
        bool any = false;
        for (size_t k = i + 1; k < d->joint_count; k++) {
            if (d->joints[k].parent != (int32_t)i)
                continue;
            if (!any) {
                anim_json_writer_key(w, "children");
                anim_json_writer_begin_array(w);
                any = true;
            }
            anim_json_writer_uint(w, k);
        }
        if (any)
            anim_json_writer_end_array(w);
        anim_json_writer_key(w, "name");
        anim_json_writer_string(w, j->name);
        double r[4], s[3], t[3];
        anim_quat q = anim_quat_normalize(anim_quat_from_array(j->rotation));
        r[0] = (float)q.x;
        r[1] = (float)q.y;
        r[2] = (float)q.z;
        r[3] = (float)q.w;
        for (int k = 0; k < 3; k++) {
            s[k] = (float)j->scale[k];
            t[k] = (float)j->translation[k];
        }
        anim_json_writer_key(w, "rotation");
        anim_json_writer_f64_array(w, r, 4);
        anim_json_writer_key(w, "scale");
        anim_json_writer_f64_array(w, s, 3);
        anim_json_writer_key(w, "translation");
        anim_json_writer_f64_array(w, t, 3);
        anim_json_writer_end_object(w);
    }
}

void cm_write_skin(cm_ctx *c, anim_json_writer *w)
{
    anim_json_writer_key(w, "skins");
    anim_json_writer_begin_array(w);
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "inverseBindMatrices", c->ibm);
    anim_json_writer_key(w, "joints");
    anim_json_writer_begin_array(w);
    for (size_t i = 0; i < c->d->joint_count; i++)
        anim_json_writer_uint(w, i);
    anim_json_writer_end_array(w);
    anim_json_writer_key_uint(w, "skeleton", 0);
    anim_json_writer_end_object(w);
    anim_json_writer_end_array(w);
}
