/* JSON for the static asset evidence: member order and optional-field
 * rules of the measurements-v18 contract (docs/measurements.md). Optional
 * members are omitted, never null, except a primitive's nullable
 * material_index. Every number is checked finite on the way out: the
 * measurement computations never store a non-finite value, so a failure
 * here is a bug that must not reach a consumer as invalid JSON. */
#include "measure/asset_internal.h"

#include <math.h>

typedef struct out_ctx {
    anim_json_writer *w;
    anim_error *err;
    bool failed;
} out_ctx;

static void fail_nonfinite(out_ctx *o, const char *path)
{
    if (!o->failed)
        anim_error_set(o->err, ANIM_ERR_INVALID, "measurement value %s must be finite", path);
    o->failed = true;
}

static void key(out_ctx *o, const char *k)
{
    anim_json_writer_key(o->w, k);
}

static void f64(out_ctx *o, const char *path, double v)
{
    if (!isfinite(v)) {
        fail_nonfinite(o, path);
        v = 0.0;
    }
    anim_json_writer_f64(o->w, v);
}

static void f32s(out_ctx *o, const char *path, const float *v, int n)
{
    anim_json_writer_begin_array(o->w);
    for (int i = 0; i < n; i++) {
        float x = v[i];
        if (!isfinite(x)) {
            fail_nonfinite(o, path);
            x = 0.0f;
        }
        anim_json_writer_f32(o->w, x);
    }
    anim_json_writer_end_array(o->w);
}

static void f64s(out_ctx *o, const char *path, const double *v, int n)
{
    anim_json_writer_begin_array(o->w);
    for (int i = 0; i < n; i++)
        f64(o, path, v[i]);
    anim_json_writer_end_array(o->w);
}

static void uint_member(out_ctx *o, const char *k, uint64_t v)
{
    key(o, k);
    anim_json_writer_uint(o->w, v);
}

static void string_member(out_ctx *o, const char *k, const char *v)
{
    if (!v)
        return;
    key(o, k);
    anim_json_writer_string(o->w, v);
}

static void aabb(out_ctx *o, const char *k, const anim_aabb *box)
{
    key(o, k);
    anim_json_writer_begin_object(o->w);
    key(o, "min");
    f32s(o, k, box->min, 3);
    key(o, "max");
    f32s(o, k, box->max, 3);
    anim_json_writer_end_object(o->w);
}

static void linear(out_ctx *o, const char *k, const anim_linear_facts *f)
{
    key(o, k);
    anim_json_writer_begin_object(o->w);
    key(o, "classification");
    anim_json_writer_string(o->w, anim_linear_class_name(f->classification));
    if (f->classification != ANIM_LINEAR_NON_FINITE) {
        key(o, "axis_lengths");
        f64s(o, "axis_lengths", f->axis_lengths, 3);
        key(o, "determinant");
        f64(o, "determinant", f->determinant);
        key(o, "orientation");
        anim_json_writer_string(o->w, anim_linear_orientation_name(f->orientation));
        if (f->has_rotation) {
            key(o, "rotation_xyzw");
            f64s(o, "rotation_xyzw", f->rotation_xyzw, 4);
        }
        if (f->has_uniform_scale) {
            key(o, "uniform_scale");
            f64(o, "uniform_scale", f->uniform_scale);
        }
    }
    anim_json_writer_end_object(o->w);
}

/* ---- meshes, instances, scenes */

static void mesh_definitions(out_ctx *o, const anim_asset_measurements *m)
{
    key(o, "mesh_definitions");
    anim_json_writer_begin_array(o->w);
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        const anim_mesh_measurements *mm = &m->meshes[i];
        anim_json_writer_begin_object(o->w);
        uint_member(o, "mesh_index", mm->mesh_index);
        string_member(o, "name", mm->name);
        uint_member(o, "vertex_count", mm->vertex_count);
        if (mm->has_geometry) {
            aabb(o, "geometry_aabb", &mm->geometry_aabb);
            key(o, "geometry_centroid");
            f32s(o, "geometry_centroid", mm->geometry_centroid, 3);
        }
        uint_member(o, "max_joints_per_vertex", mm->max_joints_per_vertex);
        if (mm->has_weight_sums) {
            key(o, "weight_sum_min");
            f64(o, "weight_sum_min", mm->weight_sum_min);
            key(o, "weight_sum_max");
            f64(o, "weight_sum_max", mm->weight_sum_max);
        }
        key(o, "additional_influence_sets");
        anim_json_writer_begin_array(o->w);
        for (uint32_t s = 0; s < mm->additional_influence_set_count; s++) {
            const anim_influence_set_measurements *is = &mm->additional_influence_sets[s];
            anim_json_writer_begin_object(o->w);
            uint_member(o, "set_index", is->set_index);
            key(o, "joints_present");
            anim_json_writer_bool(o->w, is->joints_present);
            key(o, "weights_present");
            anim_json_writer_bool(o->w, is->weights_present);
            key(o, "joints_without_weights_present");
            anim_json_writer_bool(o->w, is->joints_without_weights_present);
            key(o, "weights_without_joints_present");
            anim_json_writer_bool(o->w, is->weights_without_joints_present);
            anim_json_writer_end_object(o->w);
        }
        anim_json_writer_end_array(o->w);
        key(o, "primitives");
        anim_json_writer_begin_array(o->w);
        for (uint32_t p = 0; p < mm->primitive_count; p++) {
            const anim_primitive_measurements *pm = &mm->primitives[p];
            anim_json_writer_begin_object(o->w);
            uint_member(o, "primitive_index", pm->primitive_index);
            key(o, "material_index");
            if (pm->material_index == ANIM_NONE)
                anim_json_writer_null(o->w);
            else
                anim_json_writer_uint(o->w, pm->material_index);
            uint_member(o, "vertex_count", pm->vertex_count);
            uint_member(o, "finite_vertex_count", pm->finite_vertex_count);
            if (pm->has_geometry) {
                aabb(o, "geometry_aabb", &pm->geometry_aabb);
                key(o, "geometry_centroid");
                f32s(o, "geometry_centroid", pm->geometry_centroid, 3);
            }
            anim_json_writer_end_object(o->w);
        }
        anim_json_writer_end_array(o->w);
        anim_json_writer_end_object(o->w);
    }
    anim_json_writer_end_array(o->w);
}

static const char *node_aabb_reason(anim_node_aabb_status s)
{
    switch (s) {
    case ANIM_NODE_AABB_NO_FINITE_POSITIONS: return "no_finite_positions";
    case ANIM_NODE_AABB_SKINNED_DEFORMATION_EXCLUDED: return "skinned_deformation_excluded";
    case ANIM_NODE_AABB_NON_FINITE_TRANSFORM: return "non_finite_transform";
    case ANIM_NODE_AABB_AVAILABLE: break;
    }
    return NULL;
}

static void node_instances(out_ctx *o, const anim_asset_measurements *m)
{
    key(o, "node_instances");
    anim_json_writer_begin_array(o->w);
    for (uint32_t i = 0; i < m->node_instance_count; i++) {
        const anim_node_instance_measurements *ni = &m->node_instances[i];
        anim_json_writer_begin_object(o->w);
        uint_member(o, "node_index", ni->node_index);
        string_member(o, "node_name", ni->node_name ? ni->node_name : "");
        uint_member(o, "mesh_index", ni->mesh_index);
        if (ni->status == ANIM_NODE_AABB_AVAILABLE)
            aabb(o, "static_node_world_aabb", &ni->static_node_world_aabb);
        else
            string_member(o, "static_node_world_aabb_unavailable_reason",
                          node_aabb_reason(ni->status));
        anim_json_writer_end_object(o->w);
    }
    anim_json_writer_end_array(o->w);
}

static void scenes(out_ctx *o, const anim_asset_measurements *m)
{
    key(o, "scenes");
    anim_json_writer_begin_array(o->w);
    for (uint32_t i = 0; i < m->scene_count; i++) {
        const anim_scene_measurements *sm = &m->scenes[i];
        anim_json_writer_begin_object(o->w);
        uint_member(o, "scene_index", sm->scene_index);
        string_member(o, "name", sm->name);
        uint_member(o, "instance_count", sm->instance_count);
        if (sm->has_aabb)
            aabb(o, "static_scene_world_aabb", &sm->static_scene_world_aabb);
        uint_member(o, "excluded_instance_count", sm->excluded_instance_count);
        anim_json_writer_end_object(o->w);
    }
    anim_json_writer_end_array(o->w);
    if (m->default_scene_index != ANIM_NONE)
        uint_member(o, "default_scene_index", m->default_scene_index);
}

/* ---- skeleton and skins */

static const char *rest_world_reason(anim_rest_world_status s)
{
    switch (s) {
    case ANIM_REST_WORLD_NON_FINITE_LOCAL_REST: return "non_finite_local_rest";
    case ANIM_REST_WORLD_PARENT_UNAVAILABLE: return "parent_rest_world_unavailable";
    case ANIM_REST_WORLD_NON_FINITE_WORLD_MATRIX: return "non_finite_world_matrix";
    case ANIM_REST_WORLD_AVAILABLE: break;
    }
    return NULL;
}

static void skeleton_nodes(out_ctx *o, const anim_asset_measurements *m)
{
    key(o, "skeleton_nodes");
    anim_json_writer_begin_array(o->w);
    for (uint32_t i = 0; m->skeleton_source_complete && i < m->skeleton_node_count; i++) {
        const anim_skeleton_node_measurements *nm = &m->skeleton_nodes[i];
        anim_json_writer_begin_object(o->w);
        uint_member(o, "node_index", nm->node_index);
        string_member(o, "name", nm->name);
        if (nm->parent_node_index != ANIM_NONE)
            uint_member(o, "parent_node_index", nm->parent_node_index);
        key(o, "scene_root_indices");
        anim_json_writer_begin_array(o->w);
        for (uint32_t s = 0; s < nm->scene_root_count; s++)
            anim_json_writer_uint(o->w, nm->scene_root_indices[s]);
        anim_json_writer_end_array(o->w);
        key(o, "local_rest");
        anim_json_writer_begin_object(o->w);
        key(o, "kind");
        switch (nm->local_kind) {
        case ANIM_LOCAL_REST_TRS:
            anim_json_writer_string(o->w, "trs");
            key(o, "translation_parent_space_m");
            f32s(o, "local_rest.translation_parent_space_m", nm->translation, 3);
            key(o, "rotation_xyzw");
            f32s(o, "local_rest.rotation_xyzw", nm->rotation_xyzw, 4);
            key(o, "scale");
            f32s(o, "local_rest.scale", nm->scale, 3);
            break;
        case ANIM_LOCAL_REST_MATRIX:
            anim_json_writer_string(o->w, "matrix");
            key(o, "matrix");
            f32s(o, "local_rest.matrix", nm->matrix, 16);
            break;
        case ANIM_LOCAL_REST_UNAVAILABLE:
            anim_json_writer_string(o->w, "unavailable");
            key(o, "reason");
            anim_json_writer_string(o->w, "non_finite_transform");
            break;
        }
        anim_json_writer_end_object(o->w);
        if (nm->world_status == ANIM_REST_WORLD_AVAILABLE) {
            key(o, "rest_world_matrix");
            f32s(o, "rest_world_matrix", nm->rest_world_matrix, 16);
            key(o, "rest_world_translation_m");
            f32s(o, "rest_world_translation_m", nm->rest_world_matrix + 12, 3);
        }
        linear(o, "rest_world_linear", &nm->rest_world_linear);
        string_member(o, "rest_world_matrix_unavailable_reason",
                      rest_world_reason(nm->world_status));
        anim_json_writer_end_object(o->w);
    }
    anim_json_writer_end_array(o->w);
}

static void derived(out_ctx *o, const char *k, const anim_derived_matrix *d)
{
    key(o, k);
    anim_json_writer_begin_object(o->w);
    if (d->has_source) {
        key(o, "source_inverse_bind_matrix");
        f32s(o, "source_inverse_bind_matrix", d->source_inverse_bind_matrix, 16);
    }
    if (d->has_inversion_quality) {
        key(o, "inversion_quality");
        anim_json_writer_begin_object(o->w);
        key(o, "reciprocal_condition_number_inf");
        f64(o, "inversion_quality.reciprocal_condition_number_inf", d->inversion_quality);
        anim_json_writer_end_object(o->w);
    }
    if (d->status == ANIM_DERIVED_AVAILABLE) {
        key(o, "matrix");
        f32s(o, k, d->matrix, 16);
        linear(o, "linear", &d->linear);
    } else {
        string_member(o, "unavailable_reason", anim_derived_status_name(d->status));
    }
    anim_json_writer_end_object(o->w);
}

static const char *ibm_status_name(anim_ibm_status s)
{
    switch (s) {
    case ANIM_IBM_AVAILABLE: return "available";
    case ANIM_IBM_EMPTY_ACCESSOR: return "empty_accessor";
    case ANIM_IBM_COUNT_MISMATCH: return "count_mismatch";
    case ANIM_IBM_UNREADABLE: return "unreadable";
    case ANIM_IBM_ABSENT: break;
    }
    return "absent";
}

static void skins(out_ctx *o, const anim_asset_measurements *m)
{
    key(o, "skins");
    anim_json_writer_begin_array(o->w);
    for (uint32_t i = 0; m->skeleton_source_complete && i < m->skin_count; i++) {
        const anim_skin_measurements *sm = &m->skins[i];
        anim_json_writer_begin_object(o->w);
        uint_member(o, "skin_index", sm->skin_index);
        string_member(o, "name", sm->name);
        if (sm->skeleton_root_node_index != ANIM_NONE)
            uint_member(o, "skeleton_root_node_index", sm->skeleton_root_node_index);
        key(o, "joints");
        anim_json_writer_begin_array(o->w);
        for (uint32_t j = 0; j < sm->joint_count; j++) {
            const anim_skin_joint_measurements *jm = &sm->joints[j];
            anim_json_writer_begin_object(o->w);
            uint_member(o, "joint_index", jm->joint_index);
            uint_member(o, "node_index", jm->node_index);
            derived(o, "joint_bind_to_mesh", &jm->joint_bind_to_mesh);
            derived(o, "mesh_bind_world", &jm->mesh_bind_world);
            anim_json_writer_end_object(o->w);
        }
        anim_json_writer_end_array(o->w);
        key(o, "joint_bind_linear_summary");
        anim_json_writer_begin_object(o->w);
        key(o, "classification");
        anim_json_writer_string(o->w, anim_bind_summary_class_name(sm->summary));
        uint_member(o, "joint_count", sm->joint_count);
        uint_member(o, "available_joint_count", sm->available_joint_count);
        uint_member(o, "unavailable_joint_count", sm->unavailable_joint_count);
        if (sm->has_consistent_uniform_scale) {
            key(o, "consistent_uniform_scale");
            f64(o, "joint_bind_linear_summary.consistent_uniform_scale",
                sm->consistent_uniform_scale);
        }
        anim_json_writer_end_object(o->w);
        key(o, "inverse_bind_accessor");
        anim_json_writer_begin_object(o->w);
        key(o, "status");
        anim_json_writer_string(o->w, ibm_status_name(sm->ibm_status));
        if (sm->has_declared_count)
            uint_member(o, "declared_count", sm->declared_count);
        key(o, "matrices");
        anim_json_writer_begin_array(o->w);
        for (uint32_t k = 0; k < sm->matrix_count; k++)
            f32s(o, "inverse_bind_accessor.matrices", sm->matrices + (size_t)k * 16, 16);
        anim_json_writer_end_array(o->w);
        anim_json_writer_end_object(o->w);
        key(o, "attachments");
        anim_json_writer_begin_array(o->w);
        for (uint32_t a = 0; a < sm->attachment_count; a++) {
            anim_json_writer_begin_object(o->w);
            uint_member(o, "node_index", sm->attachments[a].node_index);
            if (sm->attachments[a].mesh_index != ANIM_NONE)
                uint_member(o, "mesh_index", sm->attachments[a].mesh_index);
            anim_json_writer_end_object(o->w);
        }
        anim_json_writer_end_array(o->w);
        anim_json_writer_end_object(o->w);
    }
    anim_json_writer_end_array(o->w);
}

/* ---- materials, textures, images */

static const char *container_name(anim_image_container c)
{
    return c == ANIM_CONTAINER_PNG ? "png" : c == ANIM_CONTAINER_JPEG ? "jpeg" : NULL;
}

static const char *source_kind_name(anim_image_source_kind k)
{
    return k == ANIM_IMAGE_KIND_EMBEDDED   ? "embedded"
           : k == ANIM_IMAGE_KIND_DATA_URI ? "data_uri"
                                           : "external";
}

static void materials(out_ctx *o, const anim_asset_measurements *m)
{
    bool complete = m->material_resources_complete;
    key(o, "material_definitions");
    anim_json_writer_begin_array(o->w);
    for (uint32_t i = 0; complete && i < m->material_count; i++) {
        const anim_material_measurements *mm = &m->materials[i];
        anim_json_writer_begin_object(o->w);
        uint_member(o, "material_index", mm->material_index);
        string_member(o, "name", mm->name);
        key(o, "texture_bindings");
        anim_json_writer_begin_array(o->w);
        for (uint32_t b = 0; b < mm->binding_count; b++) {
            anim_json_writer_begin_object(o->w);
            key(o, "slot");
            anim_json_writer_string(o->w, anim_material_slot_name(mm->bindings[b].slot));
            uint_member(o, "texture_index", mm->bindings[b].texture_index);
            anim_json_writer_end_object(o->w);
        }
        anim_json_writer_end_array(o->w);
        anim_json_writer_end_object(o->w);
    }
    anim_json_writer_end_array(o->w);
    key(o, "textures");
    anim_json_writer_begin_array(o->w);
    for (uint32_t i = 0; complete && i < m->texture_count; i++) {
        const anim_texture_measurements *t = &m->textures[i];
        anim_json_writer_begin_object(o->w);
        uint_member(o, "texture_index", t->texture_index);
        string_member(o, "name", t->name);
        if (t->image_index != ANIM_NONE)
            uint_member(o, "image_index", t->image_index);
        anim_json_writer_end_object(o->w);
    }
    anim_json_writer_end_array(o->w);
    key(o, "images");
    anim_json_writer_begin_array(o->w);
    for (uint32_t i = 0; complete && i < m->image_count; i++) {
        const anim_image_measurements *im = &m->images[i];
        anim_json_writer_begin_object(o->w);
        uint_member(o, "image_index", im->image_index);
        string_member(o, "name", im->name);
        key(o, "source_kind");
        anim_json_writer_string(o->w, source_kind_name(im->source_kind));
        string_member(o, "declared_mime_type", im->declared_mime_type);
        string_member(o, "detected_container", container_name(im->detected_container));
        if (im->status == ANIM_IMAGE_AVAILABLE) {
            uint_member(o, "width", im->width);
            uint_member(o, "height", im->height);
            uint_member(o, "channel_count", im->channel_count);
            key(o, "decoded_color_type");
            anim_json_writer_string(o->w, anim_image_color_type_name(im->color_type));
        } else {
            string_member(o, "unavailable_reason", anim_image_status_name(im->status));
            string_member(o, "leading_magic_hex", im->leading_magic_hex);
        }
        anim_json_writer_end_object(o->w);
    }
    anim_json_writer_end_array(o->w);
}

int anim_asset_measurements_write_json(const anim_asset_measurements *m, anim_json_writer *w,
                                       anim_error *err)
{
    out_ctx o = {w, err, false};
    mesh_definitions(&o, m);
    node_instances(&o, m);
    scenes(&o, m);
    key(&o, "skeleton_source_coverage");
    anim_json_writer_string(w, m->skeleton_source_complete ? "complete" : "unavailable");
    skeleton_nodes(&o, m);
    skins(&o, m);
    key(&o, "material_resource_coverage");
    anim_json_writer_string(w, m->material_resources_complete ? "complete" : "unavailable");
    materials(&o, m);
    return o.failed ? -1 : 0;
}

const char *anim_derived_status_name(anim_derived_status s)
{
    switch (s) {
    case ANIM_DERIVED_IBM_ACCESSOR_ABSENT: return "inverse_bind_accessor_absent";
    case ANIM_DERIVED_IBM_ACCESSOR_EMPTY: return "inverse_bind_accessor_empty";
    case ANIM_DERIVED_IBM_ACCESSOR_COUNT_MISMATCH: return "inverse_bind_accessor_count_mismatch";
    case ANIM_DERIVED_IBM_ACCESSOR_UNREADABLE: return "inverse_bind_accessor_unreadable";
    case ANIM_DERIVED_JOINT_REST_WORLD_UNAVAILABLE: return "joint_rest_world_unavailable";
    case ANIM_DERIVED_IBM_NON_INVERTIBLE: return "inverse_bind_matrix_non_invertible";
    case ANIM_DERIVED_IBM_ILL_CONDITIONED: return "inverse_bind_matrix_ill_conditioned";
    case ANIM_DERIVED_IBM_NON_AFFINE: return "inverse_bind_matrix_non_affine";
    case ANIM_DERIVED_NON_FINITE_DERIVED_MATRIX: return "non_finite_derived_matrix";
    case ANIM_DERIVED_AVAILABLE: break;
    }
    return NULL;
}

const char *anim_bind_summary_class_name(anim_bind_summary_class c)
{
    switch (c) {
    case ANIM_BIND_SUMMARY_NO_JOINTS: return "no_joints";
    case ANIM_BIND_SUMMARY_UNAVAILABLE: return "unavailable";
    case ANIM_BIND_SUMMARY_PARTIALLY_UNAVAILABLE: return "partially_unavailable";
    case ANIM_BIND_SUMMARY_CONSISTENT_UNIFORM: return "consistent_uniform";
    case ANIM_BIND_SUMMARY_MIXED_UNIFORM: return "mixed_uniform";
    case ANIM_BIND_SUMMARY_NON_UNIFORM_OR_SHEARED: return "non_uniform_or_sheared";
    case ANIM_BIND_SUMMARY_REFLECTED_OR_SINGULAR: return "reflected_or_singular";
    case ANIM_BIND_SUMMARY_MIXED: break;
    }
    return "mixed";
}
