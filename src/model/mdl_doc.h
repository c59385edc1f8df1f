/* src/model/ owns the authoring engine: the editable document (this file),
 * its canonical encoding and head, the operation vocabulary and the batch
 * transaction, receipts, history, inspection pages, compile to GLB and the
 * host that serves open documents to the front ends (include/animsmith/
 * model.h). Nothing here reads files or talks to a transport.
 *
 * The document: metres, Y-up, f64 authoring coordinates. Objects hold flat
 * polygon meshes whose faces and corners are authoritative; edges and
 * radial (edge-to-face) queries are derived on demand (mdl_topo.h). Every
 * vertex, face and corner has a stable id from a per-object counter that is
 * never reused within the document's lineage (a deleted object's counters
 * are retired by name, so a recreated object continues them).
 *
 * Versions share structure: a document holds pointers to refcounted
 * objects and textures; a batch works on a shallow copy and clones an
 * object the first time it edits it (mdl_doc_edit_object), so a refused
 * batch costs only what it touched and the published version is never
 * written to. */
#ifndef ANIMSMITH_MDL_DOC_H
#define ANIMSMITH_MDL_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/error.h"

/* Document bounds that are not host limits (anim_model_limits). */
#define MDL_NAME_MAX 128          /* bytes of an object, joint or clip name */
#define MDL_MATERIAL_SLOTS 512    /* material ordinals 0..511 */
#define MDL_JOINTS_MAX 256
#define MDL_CLIP_CHANNELS_MAX 1024
#define MDL_CLIP_KEYS_MAX 65536   /* keys of one channel */
#define MDL_CLIPS_MAX 256
#define MDL_TEXTURE_SIDE_MAX 4096 /* texture width and height */
#define MDL_FACE_CORNERS_MAX 256  /* corners of one polygon */
#define MDL_NO_PARENT (-1)
#define MDL_POSES_MAX 64
#define MDL_CONSTRAINTS_MAX 128
#define MDL_MORPHS_MAX 32
#define MDL_EVENTS_MAX 1024        /* events of one clip */
#define MDL_EVENT_PAYLOAD_MAX 4096 /* bytes of one event payload */

typedef struct mdl_vertex {
    uint64_t id;
    double p[3];
} mdl_vertex;

typedef struct mdl_corner {
    uint64_t id;
    uint64_t vertex;   /* vertex id */
    double uv[2];      /* glTF convention: top-left origin */
    double normal[3];  /* explicit normal when has_normal, else derived */
    bool has_normal;
} mdl_corner;

typedef struct mdl_face {
    uint64_t id;
    uint32_t corner_first; /* index into the object's corner array */
    uint32_t corner_count; /* >= 3 */
    int32_t material;      /* ordinal 0..511 */
    bool smooth;           /* derived corner normals average smooth neighbours */
} mdl_face;

/* Attributes of the unordered vertex pair (a < b). */
typedef struct mdl_edge_attr {
    uint64_t a, b;
    bool seam;
    double crease; /* 0..1; 0 with seam false is never stored */
} mdl_edge_attr;

/* One influence; an object's weights are sorted by (vertex, joint). */
typedef struct mdl_weight {
    uint64_t vertex;
    uint32_t joint;
    double weight;
} mdl_weight;

/* A mesh object. vertices sorted by id, faces sorted by id, corners stored
 * face by face in face order (a face's corner_first indexes them), edge
 * attributes sorted by (a, b), weights by (vertex, joint). Arrays are
 * malloc'd; the object is shared between document versions by refcount
 * and is immutable once shared (refs > 1). */
typedef struct mdl_object {
    uint32_t refs;
    char *name;
    mdl_vertex *vertices;
    size_t vertex_count, vertex_cap;
    mdl_face *faces;
    size_t face_count, face_cap;
    mdl_corner *corners;
    size_t corner_count, corner_cap;
    mdl_edge_attr *edges;
    size_t edge_count, edge_cap;
    mdl_weight *weights;
    size_t weight_count, weight_cap;
    uint64_t next_vertex, next_face, next_corner; /* next ids to hand out (start at 1) */
    uint32_t *locks;   /* locked weight groups: joint ordinals, sorted, unique */
    size_t lock_count;
    /* Set when an operation makes the object editable (never on a shared
     * object); the batch clears it after checking the morph targets that
     * pin this object's topology. Not content. */
    bool touched;
} mdl_object;

/* RGB8 pixels, row 0 at the top (UV v = 0); shared by refcount. */
typedef struct mdl_texture {
    uint32_t refs;
    uint32_t width, height;
    uint8_t *rgb; /* width * height * 3 bytes */
} mdl_texture;

typedef struct mdl_material {
    bool defined;
    double color[3];      /* linear RGB 0..1 (base color factor) */
    mdl_texture *texture; /* NULL: none */
} mdl_material;

typedef struct mdl_joint {
    char *name;
    int32_t parent;        /* earlier ordinal, or MDL_NO_PARENT for the root */
    double translation[3]; /* parent-local rest */
    double rotation[4];    /* x y z w, identity unless set */
    double scale[3];
} mdl_joint;

typedef enum { MDL_PATH_TRANSLATION, MDL_PATH_ROTATION, MDL_PATH_SCALE } mdl_path;

typedef struct mdl_key {
    double time;     /* seconds, strictly increasing within a channel */
    double value[4]; /* xyz0 for translation/scale, normalized xyzw for rotation */
} mdl_key;

typedef struct mdl_channel {
    uint32_t joint;
    mdl_path path;
    mdl_key *keys;
    size_t key_count;
} mdl_channel;

typedef enum { MDL_INTERP_LINEAR, MDL_INTERP_STEP, MDL_INTERP_CUBIC } mdl_interp;

/* A clip event: payload is arbitrary bytes (a JSON string may hold NUL). */
typedef struct mdl_event {
    double time;
    char *name;
    char *payload;
    uint32_t payload_len; /* <= MDL_EVENT_PAYLOAD_MAX */
} mdl_event;

typedef struct mdl_morph_key {
    double time, weight;
} mdl_morph_key;

/* The keys of one morph target's weight within a clip. */
typedef struct mdl_morph_track {
    char *morph;          /* target name */
    mdl_morph_key *keys;  /* times strictly increasing, >= 0 */
    size_t key_count;
} mdl_morph_track;

/* A clip and its options (clip_options). Events are ordered by time (ties
 * keep their authored order); morph tracks are sorted by target name. */
typedef struct mdl_clip {
    uint32_t refs;
    char *name;
    mdl_channel *channels;
    size_t channel_count;
    bool has_options;      /* clip_options attached */
    mdl_interp interpolation;
    bool root_motion;
    mdl_event *events;
    size_t event_count;
    mdl_morph_track *morph_tracks;
    size_t morph_track_count;
} mdl_clip;

/* A local transform. */
typedef struct mdl_trs {
    double translation[3];
    double rotation[4]; /* x y z w */
    double scale[3];
} mdl_trs;

/* The first members of every refcounted, name-sorted table entry (poses,
 * morph targets): the table helpers of mdl_named.c read only these. */
typedef struct mdl_named {
    uint32_t refs;
    char *name;
} mdl_named;

typedef struct mdl_pose_joint {
    uint32_t joint;
    mdl_trs local; /* the joint's full local transform in this pose */
} mdl_pose_joint;

/* A sparse FK pose: joints sorted by ordinal, unique; an omitted joint
 * takes its local rest. */
typedef struct mdl_pose {
    mdl_named key;
    mdl_pose_joint *joints;
    size_t joint_count;
} mdl_pose;

typedef enum {
    MDL_CONSTRAINT_COPY,
    MDL_CONSTRAINT_AIM,
    MDL_CONSTRAINT_LIMIT,
    MDL_CONSTRAINT_IK
} mdl_constraint_type;

/* A constraint writes its joint (for ik: the chain root, middle and end).
 * Fields a type does not use are zero. */
typedef struct mdl_constraint {
    char name[MDL_NAME_MAX + 1];
    uint32_t joint;
    bool enabled;
    mdl_constraint_type type;
    uint32_t target;                               /* copy, aim, ik: joint ordinal */
    bool copy_translation, copy_rotation, copy_scale; /* copy */
    double influence;                              /* copy, aim: 0..1 */
    double axis[3];                                /* aim: local axis */
    double min_translation[3], max_translation[3]; /* limit */
    double min_scale[3], max_scale[3];
    double max_angle;                              /* limit: 0..pi, from rest */
    uint32_t middle, end;                          /* ik */
    double pole[3];                                /* ik: global position */
    bool clamp_reach;                              /* ik */
} mdl_constraint;

typedef struct mdl_morph_delta {
    uint64_t vertex;
    double delta[3];
} mdl_morph_delta;

/* A sparse shape target of one object, pinned to the object's topology
 * signature (mdl_object_topology) when authored: deltas sorted by vertex
 * id, unique. */
typedef struct mdl_morph {
    mdl_named key;
    char *object;
    uint8_t topology[32];
    mdl_morph_delta *deltas;
    size_t delta_count;
    double weight; /* default influence, -2..2 */
} mdl_morph;

/* The per-object id counters of a deleted object, kept by name. */
typedef struct mdl_retired {
    char *name;
    uint64_t next_vertex, next_face, next_corner;
} mdl_retired;

/* One document version. objects and clips sorted by name (byte-wise). */
typedef struct mdl_doc {
    mdl_object **objects;
    size_t object_count, object_cap;
    mdl_material materials[MDL_MATERIAL_SLOTS];
    mdl_joint *joints;
    size_t joint_count;
    mdl_clip **clips;
    size_t clip_count, clip_cap;
    mdl_retired *retired;
    size_t retired_count, retired_cap;
    mdl_pose **poses;            /* sorted by name */
    size_t pose_count, pose_cap;
    mdl_constraint *constraints; /* sorted by name; copied with the version */
    size_t constraint_count, constraint_cap;
    mdl_morph **morphs;          /* sorted by name */
    size_t morph_count, morph_cap;
} mdl_doc;

/* ---- documents (mdl_doc.c) */

/* A malloc'd copy of s (NULL on out of memory). */
char *mdl_strdup(const char *s);
/* Drops one reference; frees the object and its arrays at the last. */
void mdl_object_release(mdl_object *o);

mdl_doc *mdl_doc_new(void);
/* A new version sharing every object, texture and clip with d (refs
 * taken); NULL on out of memory. */
mdl_doc *mdl_doc_share(const mdl_doc *d);
void mdl_doc_free(mdl_doc *d);

/* Index of the object named name, or -1. */
ptrdiff_t mdl_doc_find_object(const mdl_doc *d, const char *name);
/* The object named name made private to d (cloned when shared), so it may
 * be edited; NULL when absent or out of memory (*nomem tells which). */
mdl_object *mdl_doc_edit_object(mdl_doc *d, const char *name, bool *nomem);
/* A new empty object (continuing retired counters of that name); NULL when
 * one of that name exists or out of memory. */
mdl_object *mdl_doc_add_object(mdl_doc *d, const char *name);
/* Removes the object, retiring its counters. -1 when absent. */
int mdl_doc_delete_object(mdl_doc *d, const char *name);

/* Clip by name (index or -1); add replaces an existing clip of that name
 * (takes ownership of c); delete returns -1 when absent. */
ptrdiff_t mdl_doc_find_clip(const mdl_doc *d, const char *name);
int mdl_doc_put_clip(mdl_doc *d, mdl_clip *c);
int mdl_doc_delete_clip(mdl_doc *d, const char *name);
void mdl_clip_release(mdl_clip *c);

/* The clip at index i made private to d (cloned when shared, options
 * included), so it may be edited; NULL on out of memory. */
mdl_clip *mdl_doc_edit_clip(mdl_doc *d, size_t i);
/* A deep copy of c with refs 1 (NULL on out of memory). */
mdl_clip *mdl_clip_clone(const mdl_clip *c);
/* Frees the options of c (events, morph tracks) and clears has_options. */
void mdl_clip_clear_options(mdl_clip *c);

/* Material texture made private for painting (cloned when shared). */
mdl_texture *mdl_material_edit_texture(mdl_material *m);
mdl_texture *mdl_texture_new(uint32_t width, uint32_t height);
void mdl_texture_release(mdl_texture *t);

/* Replaces the skeleton (joints copied). */
int mdl_doc_set_joints(mdl_doc *d, const mdl_joint *joints, size_t count);

/* Sums for limits and the overview. */
uint64_t mdl_doc_triangle_estimate(const mdl_doc *d); /* sum of (corners - 2) */
uint64_t mdl_doc_memory_bytes(const mdl_doc *d);      /* bytes held by this version */

/* ---- poses, constraints and morph targets (mdl_doc_rig.c) */

ptrdiff_t mdl_doc_find_pose(const mdl_doc *d, const char *name);
/* Inserts or replaces by name (takes ownership of p); -1 on out of memory
 * (p released). */
int mdl_doc_put_pose(mdl_doc *d, mdl_pose *p);
int mdl_doc_delete_pose(mdl_doc *d, const char *name); /* -1 when absent */
mdl_pose *mdl_pose_new(const char *name, size_t joint_count); /* refs 1, joints zeroed */
void mdl_pose_release(mdl_pose *p);

ptrdiff_t mdl_doc_find_constraint(const mdl_doc *d, const char *name);
/* Inserts or replaces by name (copied); -1 on out of memory. */
int mdl_doc_put_constraint(mdl_doc *d, const mdl_constraint *c);
int mdl_doc_delete_constraint(mdl_doc *d, const char *name);

ptrdiff_t mdl_doc_find_morph(const mdl_doc *d, const char *name);
int mdl_doc_put_morph(mdl_doc *d, mdl_morph *m);  /* as mdl_doc_put_pose */
int mdl_doc_delete_morph(mdl_doc *d, const char *name);
/* The morph at index i made private to d; NULL on out of memory. */
mdl_morph *mdl_doc_edit_morph(mdl_doc *d, size_t i);
mdl_morph *mdl_morph_new(const char *name, const char *object, size_t delta_count);
void mdl_morph_release(mdl_morph *m);

/* SHA-256 of what a morph target's deltas depend on: the vertex ids in
 * order and every face's id, material-free corner vertex sequence. Moving
 * vertices keeps it; adding, removing or reconnecting elements changes it.
 * 0, -1 on out of memory. */
int mdl_object_topology(const mdl_object *o, uint8_t out[32]);

/* The rest of joint j as a transform. */
void mdl_joint_rest(const mdl_joint *j, mdl_trs *out);
void mdl_trs_identity(mdl_trs *t);

/* ---- objects (mdl_object.c) */

/* Index of a vertex / face by id (binary search), or -1. */
ptrdiff_t mdl_object_vertex_index(const mdl_object *o, uint64_t id);
ptrdiff_t mdl_object_face_index(const mdl_object *o, uint64_t id);
/* Corner index by id (linear over faces: corners are not sorted by id). */
ptrdiff_t mdl_object_corner_index(const mdl_object *o, uint64_t id);
/* Face owning corner index ci (binary search over corner_first). */
size_t mdl_object_corner_face(const mdl_object *o, size_t ci);

/* Appends a vertex with the next id; returns the id, 0 on out of memory. */
uint64_t mdl_object_add_vertex(mdl_object *o, const double p[3]);
/* Appends a face over count existing vertex ids (uvs may be NULL: zeros),
 * creating its corners; returns the face id, 0 on out of memory. */
uint64_t mdl_object_add_face(mdl_object *o, const uint64_t *vertex_ids, const double (*uvs)[2],
                             uint32_t count, int32_t material, bool smooth);
/* Removes the faces whose flag is set (flags indexed like o->faces), then
 * every vertex no remaining face uses, with its weights and edge
 * attributes. Returns 0, -1 on out of memory. */
int mdl_object_remove_faces(mdl_object *o, const bool *remove_face);
/* Drops vertices no face uses (and their weights / edge attributes). */
int mdl_object_drop_unused_vertices(mdl_object *o);

/* Edge attribute of the unordered pair (NULL when none); set stores or
 * (seam false, crease 0) removes. */
const mdl_edge_attr *mdl_object_edge_attr(const mdl_object *o, uint64_t a, uint64_t b);
int mdl_object_set_edge_attr(mdl_object *o, uint64_t a, uint64_t b, bool seam, double crease);

/* The weights of a vertex: [*first, *first + return) in o->weights. */
size_t mdl_object_vertex_weights(const mdl_object *o, uint64_t vertex, size_t *first);
/* Replaces a vertex's weights (sorted by joint on the way in). */
int mdl_object_set_vertex_weights(mdl_object *o, uint64_t vertex, const uint32_t *joints,
                                  const double *weights, size_t count);

/* Face normal by Newell's method over the face's corners (unit, or zero
 * for a degenerate face) and the face's centroid. */
void mdl_face_normal(const mdl_object *o, const mdl_face *f, double n[3]);
void mdl_face_centroid(const mdl_object *o, const mdl_face *f, double c[3]);

/* Position of a vertex id (must exist). */
const double *mdl_object_position(const mdl_object *o, uint64_t vertex);

#endif
