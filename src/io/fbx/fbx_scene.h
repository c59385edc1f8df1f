/* The FBX scene: what the reader makes of a file, in glTF's space (metres,
 * Y-up, right-handed, +Z front) and glTF's terms (nodes with local TRS,
 * clips of sampled tracks, triangle meshes with per-vertex attributes,
 * skins with inverse bind matrices, materials, textures, images). The
 * projection into a glTF document (fbx_to_gltf.c) reads only this.
 *
 * Built in stages, each in its own file, run by fbx_load.c in this order:
 *   fbx_scene_nodes.c  GlobalSettings (units, axes), Model nodes, the
 *                      transform chain evaluated to local TRS (fbx_xform.c)
 *   fbx_mesh*.c etc.   geometry, skin, blend shapes, materials, textures
 *   fbx_anim*.c        AnimationStacks / 6.1 Takes to clips of tracks
 *                      (after geometry: morph weight tracks need the
 *                      mesh targets). */
#ifndef ANIMSMITH_FBX_SCENE_H
#define ANIMSMITH_FBX_SCENE_H

#include "animsmith/doc.h"
#include "animsmith/fbx.h"
#include "io/fbx/fbx_objects.h"

/* The transform chain of one Model, as stored (FBX units and axes,
 * degrees); the animatable channels are the T/R/S members, whose values
 * here are the static (rest) values. */
typedef struct anim_fbx_xform {
    double translation[3];       /* Lcl Translation */
    double rotation[3];          /* Lcl Rotation, degrees */
    double scaling[3];           /* Lcl Scaling */
    double pre_rotation[3];      /* PreRotation, degrees (only when RotationActive) */
    double post_rotation[3];     /* PostRotation, degrees (only when RotationActive) */
    double rotation_offset[3];
    double rotation_pivot[3];
    double scaling_offset[3];
    double scaling_pivot[3];
    double geometric_translation[3];
    double geometric_rotation[3];
    double geometric_scaling[3];
    int rotation_order;          /* 0 XYZ .. 5 ZYX, 6 spheric (refused) */
    int inherit_type;            /* 0 RrSs, 1 RSrs, 2 Rrs */
    /* Effective values: with RotationActive 0 (or RotationSpaceForLimitOnly
     * 1) the file's PreRotation, PostRotation and RotationOrder do not
     * affect the transform, so they are stored as zero / 0 (XYZ) here. */
} anim_fbx_xform;

/* The animatable channels of one node at one time (FBX units, degrees). */
typedef struct anim_fbx_channels {
    double t[3], r[3], s[3];
} anim_fbx_channels;

typedef struct anim_fbx_node_rec {
    const char *name;            /* Model name; "<fbx-root>" for node 0 */
    uint32_t object;             /* object index, ANIM_FBX_SCENE_ROOT for node 0 */
    int64_t id;                  /* object id, 0 for node 0 */
    const char *subclass;        /* "LimbNode", "Null", "Mesh", "Root", "" (node 0) */
    uint32_t parent;             /* node index, ANIM_NONE for node 0 */
    bool is_joint;               /* LimbNode/Root, or a skin cluster's link */
    anim_fbx_xform xform;
    /* Rest local TRS in glTF space, from the static channels, with the
     * inherit-type compensation applied (see fbx_xform.c). */
    double t[3], r[4], s[3];
    uint32_t mesh;               /* index into meshes, ANIM_NONE */
    uint32_t skin;               /* index into skins, ANIM_NONE */
    uint32_t *materials;         /* material index per material slot of the Model */
    uint32_t material_count;
} anim_fbx_node_rec;

/* One sampled track: key times in seconds, values in glTF space
 * (translation metres xyz, rotation quaternion xyzw with continuous
 * signs, scale xyz, weights: one per morph target of the node's mesh). */
typedef struct anim_fbx_track {
    uint32_t node;
    anim_path path;
    anim_interp interp;          /* LINEAR or STEP (all keys constant) */
    uint32_t key_count;
    double *times;
    uint32_t components;         /* 3, 4 or the target count */
    double *values;              /* key_count * components */
} anim_fbx_track;

typedef struct anim_fbx_clip {
    const char *name;            /* the take / stack name ("mixamo.com") */
    /* The stack's span: LocalStart/LocalStop (else ReferenceStart/Stop, else
     * the keys'), in KTime ticks and in seconds; key times are absolute,
     * never rebased. */
    int64_t start_ktime, stop_ktime;
    double start_s, stop_s;
    double frame_rate;           /* from TimeMode (GlobalSettings), 0 if unknown */
    anim_fbx_span_source span_source; /* where start/stop came from */
    anim_fbx_track *tracks;      /* node order, then translation, rotation, scale, weights */
    uint32_t track_count;
    uint32_t curve_count;        /* AnimationCurves (or 6.1 channels with keys) read */
    /* Layers beyond the base layer that were not applied (additive or
     * blended), by name, for the note inspect/lint print. */
    const char **ignored_layers;
    uint32_t ignored_layer_count;
} anim_fbx_clip;

typedef struct anim_fbx_morph_target {
    const char *name;            /* the BlendShapeChannel name */
    double default_weight;       /* DeformPercent / 100 */
} anim_fbx_morph_target;

/* One primitive: the triangles of one material slot, vertices split so
 * every attribute is per vertex. Positions and normals are in the mesh
 * node's space in glTF units (geometric transform and the axis/unit
 * conversion applied). */
typedef struct anim_fbx_primitive {
    uint32_t material;           /* scene material index, ANIM_NONE */
    uint32_t vertex_count;
    float *positions;            /* 3 * vertex_count */
    float *normals;              /* 3 * vertex_count, NULL when absent */
    float *tangents;             /* 4 * vertex_count, NULL when absent */
    float *uv0;                  /* 2 * vertex_count (v flipped to glTF), NULL */
    float *colors;               /* 4 * vertex_count, NULL */
    uint16_t *joints;            /* 4 * vertex_count (skin joint slots), NULL unskinned */
    float *weights;              /* 4 * vertex_count, normalized, NULL unskinned */
    uint32_t *indices;           /* triangle list */
    uint32_t index_count;
    float **target_positions;    /* target_count arrays of 3 * vertex_count deltas */
    float **target_normals;      /* target_count arrays or NULL */
} anim_fbx_primitive;

typedef struct anim_fbx_mesh {
    const char *name;            /* Geometry name, else the Model's */
    uint32_t node;               /* the node that instances it */
    anim_fbx_primitive *primitives;
    uint32_t primitive_count;
    anim_fbx_morph_target *targets;
    uint32_t target_count;
    /* The BlendShapeChannel object index of each target, so the animation
     * stage can route DeformPercent curves. */
    uint32_t *target_objects;
    uint32_t skin;               /* skin index or ANIM_NONE */
    /* Influences dropped because a vertex had more than four. */
    uint32_t dropped_influences;
} anim_fbx_mesh;

typedef struct anim_fbx_skin {
    const char *name;
    uint32_t mesh;
    uint32_t *joints;            /* node indices, cluster order */
    uint32_t joint_count;
    double *inverse_bind;        /* 16 * joint_count, column-major, glTF space */
} anim_fbx_skin;

/* glTF metallic-roughness terms of an FBX material (Lambert/Phong mapped,
 * or the common PBR properties when present). */
typedef struct anim_fbx_material {
    const char *name;
    double base_color[4];
    double emissive[3];
    double metallic, roughness;
    /* Texture index per slot: base color, normal, metallic-roughness,
     * occlusion, emissive (ANIM_MATERIAL_TEXTURE_SLOTS order); ANIM_NONE. */
    uint32_t textures[ANIM_MATERIAL_TEXTURE_SLOTS];
    double normal_scale;         /* 1 unless the source says otherwise */
} anim_fbx_material;

typedef struct anim_fbx_image {
    const char *name;
    /* Embedded Video Content bytes (PNG/JPEG by magic), or NULL. */
    const uint8_t *bytes;
    size_t byte_count;
    const char *mime_type;       /* "image/png" / "image/jpeg" for embedded */
    /* A linked file: RelativeFilename resolved against the FBX directory
     * when it exists there, else the absolute FileName; NULL if neither. */
    const char *path;
    const char *declared;        /* the file name as the FBX spells it */
} anim_fbx_image;

typedef struct anim_fbx_texture {
    const char *name;
    uint32_t image;              /* ANIM_NONE when the image is missing */
} anim_fbx_texture;

typedef struct anim_fbx_scene {
    const anim_fbx_objects *objs;
    anim_arena *arena;
    const char *base_dir;        /* the FBX file's directory, NULL from memory */
    uint32_t version;
    /* Budgets: grid_bytes bounds the animation stage's sampling work
     * (sample times x nodes x 16 doubles per clip), as it bounds a clip's
     * metric grid. */
    anim_limits limits;
    /* GlobalSettings. */
    double unit_scale_factor;    /* centimetres per file unit */
    double metres_per_unit;      /* unit_scale_factor / 100 */
    int up_axis, up_sign, front_axis, front_sign, coord_axis, coord_sign;
    /* The axis change into glTF space, a rotation (column-major 3x3):
     * v_gltf = axis * v_file * metres_per_unit. */
    double axis[9];
    double frame_rate;           /* TimeMode / CustomFrameRate, 0 if unknown */
    int64_t time_mode;           /* TimeMode as stored, 0 when absent */
    int64_t frame_period_ktime;  /* exact ticks per frame, 0 when none */
    anim_fbx_node_rec *nodes;    /* parents before children; node 0 is <fbx-root> */
    uint32_t node_count;
    anim_fbx_clip *clips;        /* stack order */
    uint32_t clip_count;
    anim_fbx_mesh *meshes;
    uint32_t mesh_count;
    anim_fbx_skin *skins;
    uint32_t skin_count;
    anim_fbx_material *materials;
    uint32_t material_count;
    anim_fbx_texture *textures;
    uint32_t texture_count;
    anim_fbx_image *images;
    uint32_t image_count;
    /* Notes for inspect (unsupported layers, dropped influences, shear
     * approximated, ...), one line each. */
    const char **notes;
    uint32_t note_count;
    uint32_t note_capacity;      /* slots of notes (anim_fbx_scene_note grows it) */
    /* Node index by object index (object_count entries, ANIM_NONE for
     * objects that are no node), filled by anim_fbx_build_nodes; NULL in
     * a hand-built scene, where anim_fbx_node_of_object searches. */
    uint32_t *node_of_object;
    uint32_t node_of_object_count;
    /* The raw transform-path inventory (animsmith/fbx.h), captured right
     * after stage 1, before convert may edit the node table: row i's
     * gltf_node is i until the facts are copied, which map raw_objects[i]
     * (the row's object index, ANIM_FBX_SCENE_ROOT for row 0) to the node
     * the projection really writes. */
    anim_fbx_raw_node *raw_nodes;
    uint32_t *raw_objects;
    uint32_t raw_node_count;
    anim_fbx_coverage raw_coverage;
    const char *raw_coverage_reason;
} anim_fbx_scene;

/* Node lookup by object index (ANIM_NONE when that object is no node). */
uint32_t anim_fbx_node_of_object(const anim_fbx_scene *scene, uint32_t object);
/* Appends a note (arena copy). Returns -1 only on out of memory. */
int anim_fbx_scene_note(anim_fbx_scene *scene, anim_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Stage 1 (fbx_scene_nodes.c): units, axes, frame rate, nodes and rest. */
int anim_fbx_build_nodes(anim_fbx_scene *scene, anim_error *err);

/* The parts of stage 1 that need no object graph (fbx_axes.c, fbx_xform.c),
 * usable on a hand-built scene:
 * anim_fbx_scene_axes: scene->axis and metres_per_unit from
 * unit_scale_factor and the six axis fields (errors name GlobalSettings);
 * anim_fbx_frame_rate: frames per second of an FBX TimeMode (14 custom
 * takes custom_rate), 0 for the default mode 0 (the file states no rate)
 * and for unknown modes;
 * anim_fbx_scene_rest: every node's rest t/r/s from its xform, with one
 * note per node whose rest local transform is not a TRS (shear). */
int anim_fbx_scene_axes(anim_fbx_scene *scene, anim_error *err);
double anim_fbx_frame_rate(int64_t time_mode, double custom_rate);
int anim_fbx_scene_rest(anim_fbx_scene *scene, anim_error *err);
/* The local matrix of one node in file space (column-major):
 * T * Roff * Rp * Rpre * R * Rpost^-1 * Rp^-1 * Soff * Sp * S * Sp^-1, with
 * R from ch->r in xform->rotation_order and Rpre/Rpost in XYZ order. */
void anim_fbx_local_matrix(const anim_fbx_xform *xform, const anim_fbx_channels *ch,
                           double out[16]);
/* Rotation matrix (column-major 4x4) of Euler angles in degrees applied in
 * the given FBX order (0 XYZ: X first, R = Rz * Ry * Rx; .. 5 ZYX). */
void anim_fbx_euler_matrix(const double deg[3], int order, double out[16]);

/* The transform chain (fbx_xform.c). World matrices in glTF space
 * (column-major 4x4) of every node for the given channels (one per node;
 * node 0's are ignored); world must hold node_count matrices. */
void anim_fbx_eval_worlds(const anim_fbx_scene *scene, const anim_fbx_channels *channels,
                          double (*world)[16]);
/* Local TRS of node n (n > 0) in glTF space from world matrices computed
 * by anim_fbx_eval_worlds: inverse(parent world) * world, decomposed.
 * Returns the largest shear residual (0 for an exact TRS). */
double anim_fbx_local_trs(const anim_fbx_scene *scene, const double (*world)[16], uint32_t n,
                          double t[3], double r[4], double s[3]);
/* The static channels of every node (from xform), into channels. */
void anim_fbx_rest_channels(const anim_fbx_scene *scene, anim_fbx_channels *channels);
/* File space to glTF space: a point (v' = axis * v * metres_per_unit), a
 * direction (axis * v, not scaled), and an affine matrix given in file
 * space (C * M * C^-1 with C the axis change and unit scale), all
 * column-major. */
void anim_fbx_convert_point(const anim_fbx_scene *scene, const double in[3], double out[3]);
void anim_fbx_convert_direction(const anim_fbx_scene *scene, const double in[3], double out[3]);
void anim_fbx_convert_matrix(const anim_fbx_scene *scene, const double in[16], double out[16]);
/* The node's geometric transform (GeometricTranslation/Rotation/Scaling)
 * as a glTF-space matrix: it applies to the node's geometry only. */
void anim_fbx_geometric_matrix(const anim_fbx_scene *scene, uint32_t node, double out[16]);
/* True when the axis change is a reflection (a left-handed file): the
 * geometry stage flips triangle winding then. */
bool anim_fbx_axis_mirrors(const anim_fbx_scene *scene);

/* Right after stage 1 (fbx_raw_nodes.c): the raw inventory from the node
 * table and the Model objects' stored names. */
int anim_fbx_build_raw_nodes(anim_fbx_scene *scene, anim_error *err);

/* Stage 2 (fbx_mesh*.c, fbx_skin.c, fbx_blendshape.c, fbx_material.c):
 * meshes, skins (marking cluster links is_joint), materials, textures,
 * images. */
int anim_fbx_build_geometry(anim_fbx_scene *scene, anim_error *err);

/* Stage 3 (fbx_anim*.c): clips. */
int anim_fbx_build_anim(anim_fbx_scene *scene, anim_error *err);

/* Last (fbx_scene_check.c): every number the projection writes is finite;
 * otherwise a refusal naming the object. */
int anim_fbx_scene_check(const anim_fbx_scene *scene, anim_error *err);

#endif
