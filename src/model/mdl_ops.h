/* The operation vocabulary: one table of operation definitions, each with
 * its field specifications, that the batch validator, the executor and the
 * world.api JSON Schema generator all read, so the contract an agent sees
 * cannot drift from what is enforced.
 *
 * Validation is in two steps. The generic step (mdl_validate.c) checks an
 * operation object against its field specs: known op, no unknown field,
 * required fields present, types, finite numbers, ranges, array lengths,
 * name lengths and UTF-8. The operation's own run function then reads its
 * fields with the mdl_field_* accessors (which may assume the generic step
 * passed) and refuses what depends on the document (unknown ids, a face
 * that is not planar, ...) with mdl_refuse. */
#ifndef ANIMSMITH_MDL_OPS_H
#define ANIMSMITH_MDL_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/json.h"
#include "model/mdl_doc.h"

typedef enum {
    MDL_F_NUMBER,      /* finite number in [min, max] (min_open/max_open exclude) */
    MDL_F_INTEGER,     /* integer in [min, max] */
    MDL_F_INTEGER_OR_NULL, /* INTEGER or null */
    MDL_F_BOOL,
    MDL_F_NAME,        /* non-empty UTF-8 string, <= MDL_NAME_MAX bytes */
    MDL_F_ID,          /* decimal id string "1".."18446744073709551615" */
    MDL_F_IDS,         /* array of ID strings, count in [min_items, max_items] */
    MDL_F_VEC2,        /* [x, y] finite, each in [min, max] */
    MDL_F_VEC3,        /* [x, y, z] finite, each in [min, max] */
    MDL_F_VEC3_OR_NULL,/* VEC3 or null */
    MDL_F_RGB8,        /* [r, g, b] integers 0..255 */
    MDL_F_MATRIX,      /* four rows of four finite numbers, last row 0 0 0 1 */
    MDL_F_VEC3_ARRAY,  /* array of VEC3, count in [min_items, max_items] */
    MDL_F_INT_ARRAY,   /* array of INTEGER in [min, max], count in [min_items, max_items] */
    MDL_F_VEC2_ARRAY,  /* array of VEC2 */
    MDL_F_VEC4,        /* [x, y, z, w] finite */
    MDL_F_OBJECTS,     /* array of objects, each checked against `fields` */
    MDL_F_PATH,        /* "translation" | "rotation" | "scale" */
    MDL_F_OBJECT,      /* one object checked against `fields` */
    MDL_F_STRING,      /* any string (may be empty); byte bounds are the run's */
    MDL_F_ENUM,        /* one of the strings in `choices` */
    /* An object whose string member "type" picks one entry of `fields`
     * (each entry: name = the type value, fields = that variant's item
     * fields, description); the object is then checked against the
     * variant's fields, so each variant is as strict as an operation. */
    MDL_F_VARIANT
} mdl_field_type;

typedef struct mdl_field {
    const char *name;
    mdl_field_type type;
    bool required;
    double min, max;       /* numbers, integers, vector lanes */
    bool min_open, max_open;
    uint32_t min_items, max_items; /* arrays (max 0 = the batch budget) */
    const struct mdl_field *fields; /* MDL_F_OBJECTS: item fields, MDL_F_VARIANT: the variants;
                                     * NULL-name terminated */
    const char *description;       /* one line for world.api */
    const char *const *choices;    /* MDL_F_ENUM: NULL-terminated */
} mdl_field;

typedef struct mdl_ctx mdl_ctx;

typedef struct mdl_op_def {
    const char *op;           /* "cube" */
    bool mesh_edit;           /* takes a required "object" field */
    const mdl_field *fields;  /* without "op" and "object"; NULL-name terminated */
    const char *description;  /* one line for world.api */
    /* Applies the validated operation to ctx->doc. 0, or -1 after
     * mdl_refuse / mdl_nomem. */
    int (*run)(mdl_ctx *ctx, const anim_json_value *op);
} mdl_op_def;

/* Every operation, in world.api order (mdl_op_table.c). */
extern const mdl_op_def *const mdl_op_defs[];
extern const size_t mdl_op_def_count;
const mdl_op_def *mdl_op_find(const char *op, size_t len);

/* The result row of one operation: the object it edited (NULL for
 * document-level operations) and the faces and vertices it created or
 * changed, in id order. Arrays malloc'd, owned by the row. */
typedef struct mdl_result {
    const char *object; /* points at the object's name in the committed doc copy */
    uint64_t *faces;
    size_t face_count, face_cap;
    uint64_t *vertices;
    size_t vertex_count, vertex_cap;
    /* Notes the operation reports (e.g. "face 12 is nonplanar: triangulated
     * by projection"), at most a few; malloc'd strings. */
    char *notes[4];
    uint32_t note_count;
} mdl_result;

/* What an operation runs against. */
struct mdl_ctx {
    mdl_doc *doc;                /* the working copy */
    const struct anim_model_limits *limits;
    size_t index;                /* batch index of the running operation */
    const char *op;              /* its op name */
    mdl_result *result;          /* its result row (selections) */
    uint64_t work;               /* work units spent so far by the batch */
    uint64_t work_budget;        /* refuse above this */
    /* Set by mdl_refuse: the refusal kind (a stable snake_case token) and
     * message; the batch driver prefixes "operation I (op): ". */
    const char *refusal_kind;
    char refusal[512];
    bool nomem;
    /* Cancellation: polled at checkpoints by mdl_checkpoint. */
    const volatile int *cancel;
};

/* Records a refusal and returns -1. kind: "unknown_vertex", "nonplanar_face",
 * "limit_exceeded", ... (documented in docs/model.md). */
int mdl_refuse(mdl_ctx *ctx, const char *kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int mdl_nomem(mdl_ctx *ctx);
/* Spends units of work (elements touched); refuses with
 * "work_limit_exceeded" past the budget and with "cancelled" when
 * cancellation was requested. Call at least once per operation and inside
 * long loops. */
int mdl_spend(mdl_ctx *ctx, uint64_t units);

/* Selections of the running operation (deduplicated and sorted when the
 * batch assembles its reply). */
int mdl_select_face(mdl_ctx *ctx, uint64_t face);
int mdl_select_vertex(mdl_ctx *ctx, uint64_t vertex);
/* Selects a face and all of its vertices. */
int mdl_select_face_and_vertices(mdl_ctx *ctx, const mdl_object *o, uint64_t face);
int mdl_note(mdl_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The object a mesh edit names, made editable in the working copy; refuses
 * "unknown_object" when absent (create false) or creates it (create true).
 * Sets ctx->result->object. */
mdl_object *mdl_target_object(mdl_ctx *ctx, const anim_json_value *op, bool create);

/* ---- field accessors (the generic validation has passed) */
const anim_json_value *mdl_field_get(const anim_json_value *op, const char *name);
bool mdl_field_present(const anim_json_value *op, const char *name);
double mdl_field_f64(const anim_json_value *op, const char *name, double fallback);
int64_t mdl_field_int(const anim_json_value *op, const char *name, int64_t fallback);
bool mdl_field_bool(const anim_json_value *op, const char *name, bool fallback);
/* Vector fields into out (n lanes); false when absent (or null). */
bool mdl_field_vec(const anim_json_value *op, const char *name, double *out, int n);
/* Vector value v (an array of n numbers) into out. */
void mdl_value_vec(const anim_json_value *v, double *out, int n);
/* An ID string value as u64 (0 for a malformed one: never a valid id). */
uint64_t mdl_value_id(const anim_json_value *v);
/* The ID strings of an IDS field, malloc'd (*count set); NULL with
 * *count 0 when empty; ctx->nomem on failure. */
uint64_t *mdl_field_ids(mdl_ctx *ctx, const anim_json_value *op, const char *name, size_t *count);
/* A NAME field as a NUL-terminated malloc'd string. */
char *mdl_field_name(const anim_json_value *op, const char *name);

/* Vertex ids resolved to indices in field order, refusing "unknown_vertex"
 * naming the id and its position in the field (the validator has already
 * refused repeated ids). */
int mdl_resolve_vertices(mdl_ctx *ctx, const mdl_object *o, const uint64_t *ids, size_t n,
                         size_t *indices);
int mdl_resolve_faces(mdl_ctx *ctx, const mdl_object *o, const uint64_t *ids, size_t n,
                      size_t *indices);
/* The op's "face" ID field (already validated) as an index of o, with the
 * id in *id; -1 after refusing "unknown_face". */
ptrdiff_t mdl_target_face(mdl_ctx *ctx, const mdl_object *o, const anim_json_value *op,
                          uint64_t *id);

/* The generic validation of one operation object (batch index i); 0, or -1
 * with kind ("invalid_operation", "unknown_op", "unknown_field",
 * "missing_field", "out_of_range", ...) and message set in ctx. */
int mdl_validate_op(mdl_ctx *ctx, const anim_json_value *op);

/* ---- operation definitions (one file per operation or family) */
extern const mdl_op_def mdl_op_cube, mdl_op_plane, mdl_op_sphere, mdl_op_cylinder,
    mdl_op_polygon_mesh;                                          /* mdl_op_primitives.c, mdl_op_polygon_mesh.c */
extern const mdl_op_def mdl_op_transform, mdl_op_mirror, mdl_op_weld, mdl_op_delete_faces,
    mdl_op_delete_object;                                         /* mdl_op_transform.c ... */
extern const mdl_op_def mdl_op_uv, mdl_op_corner_normal, mdl_op_edge_attributes,
    mdl_op_assign_material, mdl_op_project_uv;
extern const mdl_op_def mdl_op_extrude, mdl_op_inset, mdl_op_subdivide, mdl_op_smooth,
    mdl_op_brush;
extern const mdl_op_def mdl_op_material, mdl_op_texture_solid, mdl_op_paint_texture,
    mdl_op_skeleton, mdl_op_weights, mdl_op_auto_weights, mdl_op_clip, mdl_op_delete_clip;
extern const mdl_op_def mdl_op_rig_rest, mdl_op_rig_rename, mdl_op_rig_parent,
    mdl_op_rig_roll;                                              /* mdl_op_rig.c */
extern const mdl_op_def mdl_op_clip_options;                      /* mdl_op_clip_options.c */
extern const mdl_op_def mdl_op_rig_mirror;                        /* mdl_op_rig_mirror.c */
extern const mdl_op_def mdl_op_weight_locks, mdl_op_weight_edit;  /* mdl_op_weight_edit.c */
extern const mdl_op_def mdl_op_morph, mdl_op_capture_morph, mdl_op_delete_morph,
    mdl_op_morph_weight;                                          /* mdl_op_morph.c */
extern const mdl_op_def mdl_op_pose, mdl_op_delete_pose, mdl_op_ik; /* mdl_op_pose.c */
extern const mdl_op_def mdl_op_blend_clip, mdl_op_retarget_clip,
    mdl_op_bake_clip; /* mdl_op_clip_derive.c */
extern const mdl_op_def mdl_op_constraint, mdl_op_delete_constraint, mdl_op_solve_pose;

#endif
