/* The FBX object graph over the node tree: every object of Objects with
 * its id, class, subclass and name; the connections between them (OO
 * object-object and OP object-property); property lookup through
 * Properties70 (7.x) or Properties60 (6.x) with the inheritance from the
 * Definitions templates. FBX 6.1 objects have no numeric ids: they are
 * named "Model::joint1" and connected by name, so this layer gives each a
 * synthetic id (its 1-based index) and resolves connections by name; the
 * layers above never see the difference. */
#ifndef ANIMSMITH_FBX_OBJECTS_H
#define ANIMSMITH_FBX_OBJECTS_H

#include "io/fbx/fbx_tree.h"

/* One object of the Objects section. */
typedef struct anim_fbx_object {
    int64_t id;                  /* 7.x id; 6.1: synthetic (index + 1) */
    const char *cls;             /* record name: "Model", "Geometry", "Deformer", ... */
    const char *subclass;        /* "LimbNode", "Mesh", "Null", "Skin", "Cluster", ... ("" if none) */
    const char *name;            /* display name without the class part:
                                  * binary "Hips\0\1Model" and ASCII
                                  * "Model::Hips" both give "Hips" */
    const anim_fbx_node *node;   /* the object's record */
    const anim_fbx_node *props;  /* its Properties70/Properties60, NULL if none */
    const anim_fbx_node *templ;  /* the template's Properties70/60 for its class
                                  * (and subclass property type), NULL if none */
    /* Connections, indices into anim_fbx_objects.conns, in file order. */
    uint32_t *src_conns;         /* connections where this object is the child (source) */
    uint32_t src_conn_count;
    uint32_t *dst_conns;         /* connections where this object is the parent (destination) */
    uint32_t dst_conn_count;
} anim_fbx_object;

typedef struct anim_fbx_conn {
    uint32_t src;                /* object index (the child) */
    uint32_t dst;                /* object index (the parent); ANIM_FBX_SCENE_ROOT for id 0 */
    const char *property;        /* OP: the destination property name ("d|X", "DiffuseColor"); NULL for OO */
} anim_fbx_conn;

#define ANIM_FBX_SCENE_ROOT UINT32_MAX

typedef struct anim_fbx_objects {
    const anim_fbx_tree *tree;
    anim_fbx_object *objects;
    uint32_t object_count;
    anim_fbx_conn *conns;
    uint32_t conn_count;
    const anim_fbx_node *global_settings; /* GlobalSettings' property record, NULL if none */
    const anim_fbx_node *takes;           /* 6.1 "Takes" record, NULL if none */
    uint32_t *by_id;                      /* object indices sorted by id (for lookup) */
} anim_fbx_objects;

/* Builds the table. Unknown classes are kept (they are simply never
 * asked for); a connection naming an id that is not an object is
 * skipped, counted in *dangling when not NULL... it is reported by the
 * caller as a note, never an error. Duplicate ids are an error naming
 * both. */
int anim_fbx_objects_build(const anim_fbx_tree *tree, anim_arena *arena, anim_fbx_objects *out,
                           uint32_t *dangling, anim_error *err);

/* Object index by id (binary search over a sorted index), ANIM_FBX_SCENE_ROOT if absent. */
uint32_t anim_fbx_object_by_id(const anim_fbx_objects *objs, int64_t id);

/* The value of property name of object o: its own record first, then the
 * template's; NULL when neither has it. The returned record is the P
 * (7.x: name, type, label, flags, values...) or Property (6.x: name,
 * type, flags, values...) line; value_index is where its values start
 * (4 for P, 3 for Property). */
const anim_fbx_node *anim_fbx_find_prop(const anim_fbx_objects *objs, const anim_fbx_object *o,
                                        const char *name, uint32_t *value_index);
/* Typed property reads with a default when absent (never an error when
 * absent; an error naming the object and the property when present but
 * malformed: "Model 'Hips' (id 123) property 'Lcl Rotation': expected 3
 * numbers"). */
int anim_fbx_get_f64(const anim_fbx_objects *objs, const anim_fbx_object *o, const char *name,
                     double dflt, double *out, anim_error *err);
int anim_fbx_get_i64(const anim_fbx_objects *objs, const anim_fbx_object *o, const char *name,
                     int64_t dflt, int64_t *out, anim_error *err);
int anim_fbx_get_vec3(const anim_fbx_objects *objs, const anim_fbx_object *o, const char *name,
                      const double dflt[3], double out[3], anim_error *err);
/* String property (KString etc.); *out = dflt when absent. */
int anim_fbx_get_str(const anim_fbx_objects *objs, const anim_fbx_object *o, const char *name,
                     const char *dflt, const char **out, anim_error *err);
/* The same reads on a bare Properties70/60 record (GlobalSettings, an
 * AnimationStack's template-less properties). */
const anim_fbx_node *anim_fbx_find_prop_in(const anim_fbx_node *props, const char *name,
                                           uint32_t *value_index);
int anim_fbx_props_f64(const anim_fbx_node *props, const char *name, double dflt, double *out,
                       anim_error *err);
int anim_fbx_props_i64(const anim_fbx_node *props, const char *name, int64_t dflt, int64_t *out,
                       anim_error *err);

/* "Model 'Hips' (id 1234)": how messages name an object. */
const char *anim_fbx_object_label(const anim_fbx_object *o, char *buf, size_t cap);

/* Iteration helpers over connections: the i-th source (child) object of
 * o whose class is cls (NULL: any), ANIM_FBX_SCENE_ROOT past the end.
 * prop_out receives the OP property name or NULL. */
uint32_t anim_fbx_child_object(const anim_fbx_objects *objs, const anim_fbx_object *o,
                               const char *cls, uint32_t i, const char **prop_out);
/* The same as iterators, for loops over every match: *cursor starts at 0
 * and moves past each match returned (the indexed forms above rescan from
 * the start, which a loop over a hostile file's million connections must
 * not do). ANIM_FBX_SCENE_ROOT at the end. */
uint32_t anim_fbx_next_child(const anim_fbx_objects *objs, const anim_fbx_object *o,
                             const char *cls, uint32_t *cursor, const char **prop_out);
uint32_t anim_fbx_next_parent(const anim_fbx_objects *objs, const anim_fbx_object *o,
                              const char *cls, uint32_t *cursor, const char **prop_out);
/* The i-th destination (parent) object of o of class cls. */
uint32_t anim_fbx_parent_object(const anim_fbx_objects *objs, const anim_fbx_object *o,
                                const char *cls, uint32_t i, const char **prop_out);

#endif
