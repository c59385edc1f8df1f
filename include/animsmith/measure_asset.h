/* Static asset evidence (docs/measurements.md): the mesh, node-instance,
 * scene, source-skeleton, skin, material, texture and image records that
 * sit beside the clips in the measurements-v18 object.
 *
 * Everything here describes the file at rest: no animation, skinning or
 * morph deformation is applied. Source indices are identities; names are
 * display data. Values that the wire format carries as binary32 (matrices,
 * boxes, authored TRS) are kept as float; derived facts (axis lengths,
 * determinants, weight sums, condition numbers) are double. Every value
 * stored here is finite: what could not be derived carries a reason
 * instead of a number. See docs/measurements.md ("Static asset evidence")
 * for the field-by-field contract and the reason codes. */
#ifndef ANIMSMITH_MEASURE_ASSET_H
#define ANIMSMITH_MEASURE_ASSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/gltf.h"
#include "animsmith/json_write.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- linear 3x3 classification (rest_world_linear, derived skin matrices) */

/* Relative tolerance for orthogonality, equal axis lengths and "unit". */
#define ANIM_LINEAR_RELATIVE_TOLERANCE 1e-5
/* |det| <= this * (product of axis lengths) is singular. */
#define ANIM_LINEAR_SINGULAR_TOLERANCE 1e-6

typedef enum {
    ANIM_LINEAR_NON_FINITE = 0,
    ANIM_LINEAR_UNIT_ORTHONORMAL,
    ANIM_LINEAR_UNIFORM_SCALED,
    ANIM_LINEAR_NON_UNIFORM,
    ANIM_LINEAR_SHEARED,
    ANIM_LINEAR_REFLECTED,
    ANIM_LINEAR_SINGULAR
} anim_linear_class;

typedef enum {
    ANIM_ORIENTATION_POSITIVE = 0,
    ANIM_ORIENTATION_NEGATIVE,
    ANIM_ORIENTATION_ZERO
} anim_linear_orientation;

typedef struct anim_linear_facts {
    anim_linear_class classification;
    /* The rest only when classification != ANIM_LINEAR_NON_FINITE. */
    double axis_lengths[3];
    double determinant;
    anim_linear_orientation orientation;
    /* v18: canonical quaternion of the nearest proper rotation, only for
     * unit_orthonormal; largest |component| (x, y, z, w tie order) >= 0. */
    bool has_rotation;
    double rotation_xyzw[4];
    /* Common length of orthogonal equal-length axes. */
    bool has_uniform_scale;
    double uniform_scale;
} anim_linear_facts;

/* Classifies the upper 3x3 of a column-major 4x4 (the linear-fact rules
 * of docs/measurements.md). */
void anim_linear_facts_classify(const float m[16], anim_linear_facts *out);
/* "unit_orthonormal", "uniform_scaled", ..., "non_finite". */
const char *anim_linear_class_name(anim_linear_class c);
const char *anim_linear_orientation_name(anim_linear_orientation o);

/* ---- mesh definitions */

typedef struct anim_aabb {
    float min[3];
    float max[3];
} anim_aabb;

typedef struct anim_primitive_measurements {
    uint32_t primitive_index;      /* source slot; gaps where skipped */
    uint32_t material_index;       /* ANIM_NONE: JSON null */
    uint64_t vertex_count;         /* POSITION rows */
    uint64_t finite_vertex_count;
    bool has_geometry;             /* finite_vertex_count > 0 */
    anim_aabb geometry_aabb;
    float geometry_centroid[3];
} anim_primitive_measurements;

typedef struct anim_influence_set_measurements {
    uint32_t set_index;            /* >= 1 */
    bool joints_present;
    bool weights_present;
    bool joints_without_weights_present;
    bool weights_without_joints_present;
} anim_influence_set_measurements;

typedef struct anim_mesh_measurements {
    uint32_t mesh_index;
    const char *name;              /* authored, or "mesh" */
    uint64_t vertex_count;
    bool has_geometry;
    anim_aabb geometry_aabb;
    float geometry_centroid[3];
    uint32_t max_joints_per_vertex;
    bool has_weight_sums;
    double weight_sum_min;
    double weight_sum_max;
    anim_influence_set_measurements *additional_influence_sets;
    uint32_t additional_influence_set_count;
    anim_primitive_measurements *primitives;
    uint32_t primitive_count;
} anim_mesh_measurements;

/* ---- node instances and scenes */

typedef enum {
    ANIM_NODE_AABB_AVAILABLE = 0,
    ANIM_NODE_AABB_NO_FINITE_POSITIONS,
    ANIM_NODE_AABB_SKINNED_DEFORMATION_EXCLUDED,
    ANIM_NODE_AABB_NON_FINITE_TRANSFORM
} anim_node_aabb_status;

typedef struct anim_node_instance_measurements {
    uint32_t node_index;
    const char *node_name;         /* display name (bone name) */
    uint32_t mesh_index;
    anim_node_aabb_status status;
    anim_aabb static_node_world_aabb; /* when AVAILABLE */
} anim_node_instance_measurements;

typedef struct anim_scene_measurements {
    uint32_t scene_index;
    const char *name;              /* NULL when absent */
    uint64_t instance_count;
    bool has_aabb;
    anim_aabb static_scene_world_aabb;
    uint64_t excluded_instance_count;
} anim_scene_measurements;

/* ---- source skeleton */

typedef enum {
    ANIM_LOCAL_REST_TRS = 0,
    ANIM_LOCAL_REST_MATRIX,
    ANIM_LOCAL_REST_UNAVAILABLE    /* reason: non_finite_transform */
} anim_local_rest_kind;

typedef enum {
    ANIM_REST_WORLD_AVAILABLE = 0,
    ANIM_REST_WORLD_NON_FINITE_LOCAL_REST,
    ANIM_REST_WORLD_PARENT_UNAVAILABLE,
    ANIM_REST_WORLD_NON_FINITE_WORLD_MATRIX
} anim_rest_world_status;

typedef struct anim_skeleton_node_measurements {
    uint32_t node_index;
    const char *name;              /* NULL when absent */
    uint32_t parent_node_index;    /* ANIM_NONE for roots */
    uint32_t *scene_root_indices;  /* ascending */
    uint32_t scene_root_count;
    anim_local_rest_kind local_kind;
    float translation[3];          /* TRS */
    float rotation_xyzw[4];
    float scale[3];
    float matrix[16];              /* MATRIX, column-major */
    anim_rest_world_status world_status;
    float rest_world_matrix[16];   /* when AVAILABLE */
    anim_linear_facts rest_world_linear; /* NON_FINITE when unavailable */
} anim_skeleton_node_measurements;

/* ---- skins */

typedef enum {
    ANIM_IBM_ABSENT = 0,
    ANIM_IBM_AVAILABLE,
    ANIM_IBM_EMPTY_ACCESSOR,
    ANIM_IBM_COUNT_MISMATCH,
    ANIM_IBM_UNREADABLE
} anim_ibm_status;

typedef enum {
    ANIM_DERIVED_AVAILABLE = 0,
    ANIM_DERIVED_IBM_ACCESSOR_ABSENT,
    ANIM_DERIVED_IBM_ACCESSOR_EMPTY,
    ANIM_DERIVED_IBM_ACCESSOR_COUNT_MISMATCH,
    ANIM_DERIVED_IBM_ACCESSOR_UNREADABLE,
    ANIM_DERIVED_JOINT_REST_WORLD_UNAVAILABLE,
    ANIM_DERIVED_IBM_NON_INVERTIBLE,
    ANIM_DERIVED_IBM_ILL_CONDITIONED,
    ANIM_DERIVED_IBM_NON_AFFINE,
    ANIM_DERIVED_NON_FINITE_DERIVED_MATRIX
} anim_derived_status;

/* Inversion quality at or below this refuses the inverse. */
#define ANIM_INVERSION_QUALITY_MIN 1e-6
/* Allowed distance of an inverse bind's bottom row from [0, 0, 0, 1]. */
#define ANIM_AFFINE_ROW_TOLERANCE 1e-6

typedef struct anim_derived_matrix {
    bool has_source;               /* the retained finite source IBM */
    float source_inverse_bind_matrix[16];
    bool has_inversion_quality;    /* joint_bind_to_mesh only */
    double inversion_quality;      /* 1 / (||A||inf * ||A^-1||inf), 0 if singular */
    anim_derived_status status;
    float matrix[16];              /* when AVAILABLE */
    anim_linear_facts linear;      /* when AVAILABLE */
} anim_derived_matrix;

typedef struct anim_skin_joint_measurements {
    uint32_t joint_index;
    uint32_t node_index;
    anim_derived_matrix joint_bind_to_mesh; /* inverse(IBM) */
    anim_derived_matrix mesh_bind_world;    /* joint rest world * IBM */
} anim_skin_joint_measurements;

typedef enum {
    ANIM_BIND_SUMMARY_NO_JOINTS = 0,
    ANIM_BIND_SUMMARY_UNAVAILABLE,
    ANIM_BIND_SUMMARY_PARTIALLY_UNAVAILABLE,
    ANIM_BIND_SUMMARY_CONSISTENT_UNIFORM,
    ANIM_BIND_SUMMARY_MIXED_UNIFORM,
    ANIM_BIND_SUMMARY_NON_UNIFORM_OR_SHEARED,
    ANIM_BIND_SUMMARY_REFLECTED_OR_SINGULAR,
    ANIM_BIND_SUMMARY_MIXED
} anim_bind_summary_class;

typedef struct anim_skin_attachment {
    uint32_t node_index;
    uint32_t mesh_index;           /* ANIM_NONE when the node has no mesh */
} anim_skin_attachment;

typedef struct anim_skin_measurements {
    uint32_t skin_index;
    const char *name;              /* NULL when absent */
    uint32_t skeleton_root_node_index; /* ANIM_NONE when not declared */
    anim_skin_joint_measurements *joints;
    uint32_t joint_count;
    anim_bind_summary_class summary;
    uint32_t available_joint_count;
    uint32_t unavailable_joint_count;
    bool has_consistent_uniform_scale;
    double consistent_uniform_scale;
    anim_ibm_status ibm_status;
    bool has_declared_count;
    uint64_t declared_count;
    float *matrices;               /* 16 per matrix, every readable one */
    uint32_t matrix_count;
    anim_skin_attachment *attachments; /* source-node order */
    uint32_t attachment_count;
} anim_skin_measurements;

/* ---- materials, textures, images */

typedef enum {
    ANIM_SLOT_BASE_COLOR = 0,
    ANIM_SLOT_NORMAL,
    ANIM_SLOT_METALLIC_ROUGHNESS,
    ANIM_SLOT_OCCLUSION,
    ANIM_SLOT_EMISSIVE,
    ANIM_SLOT_COUNT
} anim_material_slot;

typedef struct anim_material_binding {
    anim_material_slot slot;
    uint32_t texture_index;
} anim_material_binding;

typedef struct anim_material_measurements {
    uint32_t material_index;
    const char *name;              /* NULL when absent */
    anim_material_binding bindings[ANIM_SLOT_COUNT]; /* slot order */
    uint32_t binding_count;
} anim_material_measurements;

typedef struct anim_texture_measurements {
    uint32_t texture_index;
    const char *name;              /* NULL when absent */
    uint32_t image_index;          /* ANIM_NONE when the texture has no source */
} anim_texture_measurements;

typedef enum {
    ANIM_IMAGE_KIND_EMBEDDED = 0,  /* bufferView */
    ANIM_IMAGE_KIND_DATA_URI,
    ANIM_IMAGE_KIND_EXTERNAL
} anim_image_source_kind;

typedef enum {
    ANIM_CONTAINER_NONE = 0,
    ANIM_CONTAINER_PNG,
    ANIM_CONTAINER_JPEG
} anim_image_container;

typedef enum {
    ANIM_IMAGE_AVAILABLE = 0,
    ANIM_IMAGE_SOURCE_UNAVAILABLE,
    ANIM_IMAGE_INVALID_DATA_URI,
    ANIM_IMAGE_UNSUPPORTED_CONTAINER,
    ANIM_IMAGE_DECODE_FAILED,
    ANIM_IMAGE_RESOURCE_LIMIT
} anim_image_status;

typedef enum {
    ANIM_COLOR_L8 = 0,
    ANIM_COLOR_LA8,
    ANIM_COLOR_RGB8,
    ANIM_COLOR_RGBA8,
    ANIM_COLOR_L16,
    ANIM_COLOR_LA16,
    ANIM_COLOR_RGB16,
    ANIM_COLOR_RGBA16
} anim_image_color_type;

/* Encoded payloads above this are not inspected (resource_limit), nor is
 * an image whose decoded pixels would exceed ANIM_IMAGE_MAX_DECODED_BYTES. */
#define ANIM_IMAGE_MAX_ENCODED_BYTES ((size_t)64 * 1024 * 1024)
#define ANIM_IMAGE_MAX_DECODED_BYTES ((uint64_t)192 * 1024 * 1024)

typedef struct anim_image_measurements {
    uint32_t image_index;
    const char *name;              /* NULL when absent */
    anim_image_source_kind source_kind;
    const char *declared_mime_type; /* NULL when absent */
    anim_image_container detected_container;
    anim_image_status status;
    /* When AVAILABLE (decoded header facts). */
    uint32_t width;
    uint32_t height;
    uint32_t channel_count;
    anim_image_color_type color_type;
    /* Only for UNSUPPORTED_CONTAINER with a nonempty payload: first <= 16
     * bytes, lowercase hex. */
    const char *leading_magic_hex;
} anim_image_measurements;

/* ---- the whole static evidence */

typedef struct anim_asset_measurements {
    bool material_resources_complete;   /* true for glTF/GLB */
    anim_material_measurements *materials;
    uint32_t material_count;
    anim_texture_measurements *textures;
    uint32_t texture_count;
    anim_image_measurements *images;
    uint32_t image_count;

    bool skeleton_source_complete;      /* true for glTF/GLB */
    anim_skeleton_node_measurements *skeleton_nodes; /* source node order */
    uint32_t skeleton_node_count;
    anim_skin_measurements *skins;
    uint32_t skin_count;

    anim_mesh_measurements *meshes;     /* kept definitions, source order */
    uint32_t mesh_count;
    anim_node_instance_measurements *node_instances; /* source node order */
    uint32_t node_instance_count;
    anim_scene_measurements *scenes;
    uint32_t scene_count;
    uint32_t default_scene_index;       /* ANIM_NONE when not declared */
} anim_asset_measurements;

/* Measures the static evidence of a loaded asset. Image payloads are read
 * from buffers, data URIs, or files beside the asset (confined like
 * buffers, at most ANIM_IMAGE_MAX_ENCODED_BYTES); an image that cannot be
 * read or inspected is a record with a reason, never an error. All output
 * lives in arena. Returns 0, or -1 with err set (out of memory, or an
 * accessor the loader accepted but that cannot be decoded). */
int anim_measure_asset(const anim_asset *asset, anim_arena *arena, anim_asset_measurements *out,
                       anim_error *err);

/* Writes the static fields as members of the object the writer is in
 * (the caller has written the clips): mesh_definitions, node_instances,
 * scenes, default_scene_index (when declared), skeleton_source_coverage,
 * skeleton_nodes, skins, material_resource_coverage, material_definitions,
 * textures, images. Fails with "measurement value {path} must be finite"
 * should a value not be finite. */
int anim_asset_measurements_write_json(const anim_asset_measurements *m, anim_json_writer *w,
                                       anim_error *err);

const char *anim_material_slot_name(anim_material_slot slot);  /* "base_color", ... */
const char *anim_image_status_name(anim_image_status status);  /* NULL for AVAILABLE */
const char *anim_image_color_type_name(anim_image_color_type t); /* "rgba8", ... */
const char *anim_derived_status_name(anim_derived_status s);   /* NULL for AVAILABLE */
const char *anim_bind_summary_class_name(anim_bind_summary_class c);

#ifdef __cplusplus
}
#endif
#endif
