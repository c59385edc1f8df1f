/* The normalized document: every glTF node is a bone in
 * depth-first parent-first order, clips hold tracks over bones, meshes,
 * skins, materials, textures and images are kept for inspect/measure.
 *
 * Plain structs addressed by index, parsed once, no hidden state. Authored
 * key data stays binary32 exactly as the file holds it (float pointers may
 * point straight into the loaded buffer); everything derived is f64. */
#ifndef ANIMSMITH_DOC_H
#define ANIMSMITH_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ANIM_NONE UINT32_MAX /* "no index" for optional references */

/* Budgets for memory whose size comes from numbers in a file rather than
 * from its bytes (docs/limits.md). Each is checked before the allocation it
 * bounds; a zero field means the built-in default, so a zeroed struct is
 * the default set. animsmith.toml raises them in [limits]. */
#define ANIM_MIB ((size_t)1 << 20)
#define ANIM_LIMIT_FILE_DEFAULT ((size_t)2048 * ANIM_MIB)
#define ANIM_LIMIT_IMPLICIT_ACCESSOR_DEFAULT ((size_t)64 * ANIM_MIB)
#define ANIM_LIMIT_GRID_DEFAULT ((size_t)1024 * ANIM_MIB)

typedef enum {
    ANIM_LIMIT_FILE,              /* [limits] file_mib */
    ANIM_LIMIT_IMPLICIT_ACCESSOR, /* [limits] implicit_accessor_mib */
    ANIM_LIMIT_GRID,              /* [limits] grid_mib */
    ANIM_LIMIT_COUNT
} anim_limit;

typedef struct anim_limits {
    /* The input file, and its external buffers together. */
    size_t file_bytes;
    /* One accessor without a bufferView, decoded: no file bytes back its
     * count, so a few bytes of JSON could otherwise demand gigabytes. */
    size_t implicit_accessor_bytes;
    /* One clip's metric grid (frames x bones samples). */
    size_t grid_bytes;
} anim_limits;

/* The effective value of a budget (the default when the field is 0). */
size_t anim_limits_get(const anim_limits *limits, anim_limit which);
/* "implicit_accessor_mib": the [limits] key that raises the budget. */
const char *anim_limit_key(anim_limit which);
/* "implicit-accessor": the budget's name in messages. */
const char *anim_limit_name(anim_limit which);
/* "64 MiB" (whole MiB) or "1000-byte", into buf. */
const char *anim_limit_format(size_t bytes, char *buf, size_t cap);
/* Sets a message naming the budget, its value and how to raise it:
 * "{what}, over the 64 MiB implicit-accessor budget (raise with [limits]
 * implicit_accessor_mib in animsmith.toml)". Returns -1. */
struct anim_error;
int anim_limit_error(struct anim_error *err, const anim_limits *limits, anim_limit which,
                     const char *what);

typedef enum {
    ANIM_PATH_TRANSLATION = 0,
    ANIM_PATH_ROTATION = 1,
    ANIM_PATH_SCALE = 2,
    ANIM_PATH_WEIGHTS = 3
} anim_path;

typedef enum {
    ANIM_INTERP_LINEAR = 0,
    ANIM_INTERP_STEP = 1,
    ANIM_INTERP_CUBICSPLINE = 2
} anim_interp;

const char *anim_path_name(anim_path path);     /* "translation", ... */
const char *anim_interp_name(anim_interp interp); /* "LINEAR", ... */
/* "Linear", "Step" or "CubicSpline": how messages about a track (the
 * duplicate-endpoint analysis, constant-track pruning, the gait anchor)
 * spell an interpolation in prose; anim_interp_name is the glTF token. */
const char *anim_interp_label(anim_interp interp);

typedef struct anim_bone {
    const char *name;      /* node name, or "node{i}" when absent */
    bool has_name;
    uint32_t parent;       /* bone index, ANIM_NONE for roots */
    uint32_t depth;        /* 0 for roots */
    uint32_t node;         /* glTF node index */
    uint32_t first_child;  /* bone index of first child or ANIM_NONE */
    uint32_t next_sibling; /* bone index or ANIM_NONE */
    uint32_t child_count;
    /* Rest TRS (f32 in the file, widened exactly; matrix nodes decomposed). */
    double rest_translation[3];
    double rest_rotation[4]; /* x, y, z, w */
    double rest_scale[3];
    bool has_matrix;         /* authored as a 4x4 matrix */
    double matrix[16];       /* column-major, valid when has_matrix */
    uint32_t mesh;           /* glTF mesh index or ANIM_NONE */
    uint32_t skin;           /* glTF skin index or ANIM_NONE */
    /* Inverse bind matrix from the last skin naming this node as a joint,
     * column-major; only inspect's [skinned] uses it. */
    bool has_inverse_bind;
    double inverse_bind[16];
} anim_bone;

/* One animation channel turned into a track. For CUBICSPLINE, values hold
 * three elements per key (in-tangent, value, out-tangent). */
typedef struct anim_track {
    uint32_t bone;          /* bone index */
    uint32_t node;          /* glTF node index */
    anim_path path;
    anim_interp interp;
    uint32_t key_count;
    const float *times;     /* key_count entries */
    uint32_t components;    /* 3 (T, S), 4 (R), or morph target count */
    uint32_t value_count;   /* elements: key_count * (cubic ? 3 : 1) */
    const float *values;    /* value_count * components floats */
    /* Source identity for messages and byte-surgical repairs. */
    uint32_t channel;
    uint32_t sampler;
    uint32_t input_accessor;
    uint32_t output_accessor;
    /* Output was stored as normalized integers and has been dequantized. */
    bool quantized;
    /* times/values point into a loaded buffer (no copy was needed). */
    bool borrowed;
} anim_track;

typedef struct anim_clip {
    const char *name;       /* animation name, "animation{i}", or "name#n" */
    const char *base_name;  /* the name before "#n" disambiguation */
    bool has_name;
    uint32_t animation;     /* glTF animation index */
    double duration_s;      /* max finite key time over kept TRS tracks, >= 0 */
    anim_track *tracks;     /* translation/rotation/scale, channel order */
    uint32_t track_count;
    anim_track *morph_tracks; /* "weights" channels, kept apart */
    uint32_t morph_track_count;
    uint32_t max_keys;      /* largest key_count over TRS tracks */
} anim_clip;

typedef struct anim_primitive {
    uint32_t material;      /* ANIM_NONE when absent */
    uint32_t mode;          /* glTF primitive mode, default 4 */
    uint32_t position;      /* accessor index or ANIM_NONE */
    uint32_t normal;
    uint32_t indices;
    uint32_t joint_sets;    /* count of JOINTS_n attributes */
    uint32_t weight_sets;   /* count of WEIGHTS_n attributes */
    uint32_t joints0;       /* accessor of JOINTS_0 or ANIM_NONE */
    uint32_t weights0;
    uint32_t target_count;  /* morph targets */
    uint32_t vertex_count;  /* POSITION count, 0 when absent */
} anim_primitive;

typedef struct anim_mesh {
    const char *name;       /* NULL when absent */
    anim_primitive *primitives;
    uint32_t primitive_count;
    uint32_t weight_count;  /* default morph weights */
} anim_mesh;

typedef struct anim_skin {
    const char *name;       /* NULL when absent */
    uint32_t *joints;       /* glTF node indices */
    uint32_t joint_count;
    uint32_t skeleton;      /* node index or ANIM_NONE */
    uint32_t inverse_bind_accessor; /* ANIM_NONE when absent */
    double *inverse_bind;   /* 16 * joint_count, column-major, NULL if absent */
} anim_skin;

/* The core textureInfo slots of a material, in this order: base color,
 * normal, metallic-roughness, occlusion, emissive (extension slots are not
 * read). */
#define ANIM_MATERIAL_TEXTURE_SLOTS 5

typedef struct anim_material {
    const char *name;       /* NULL when absent */
    /* Texture index per core slot, ANIM_NONE when the slot is absent. */
    uint32_t textures[ANIM_MATERIAL_TEXTURE_SLOTS];
} anim_material;

typedef enum {
    ANIM_IMAGE_URI_FILE,
    ANIM_IMAGE_DATA_URI,
    ANIM_IMAGE_BUFFER_VIEW,
    ANIM_IMAGE_NONE
} anim_image_source;

typedef struct anim_image {
    const char *name;       /* NULL when absent */
    anim_image_source source;
    const char *uri;        /* file URIs only (data URIs are not copied) */
    const char *mime_type;  /* declared, NULL when absent */
    uint32_t buffer_view;   /* ANIM_NONE unless ANIM_IMAGE_BUFFER_VIEW */
} anim_image;

typedef struct anim_texture {
    const char *name;
    uint32_t source;        /* image index or ANIM_NONE */
    uint32_t sampler;
} anim_texture;

typedef struct anim_scene {
    const char *name;
    uint32_t *nodes;
    uint32_t node_count;
} anim_scene;

typedef struct anim_doc {
    anim_bone *bones;           /* depth-first, parents before children */
    uint32_t bone_count;
    uint32_t *node_to_bone;     /* glTF node index -> bone index */
    uint32_t node_count;        /* == bone_count */
    anim_clip *clips;           /* animation order */
    uint32_t clip_count;
    anim_mesh *meshes;
    uint32_t mesh_count;
    anim_skin *skins;
    uint32_t skin_count;
    anim_material *materials;
    uint32_t material_count;
    anim_texture *textures;
    uint32_t texture_count;
    anim_image *images;
    uint32_t image_count;
    anim_scene *scenes;
    uint32_t scene_count;
    uint32_t default_scene;     /* ANIM_NONE when "scene" is absent */
    anim_limits limits;         /* budgets of work derived from the doc */
} anim_doc;

/* Bone lookup by exact name: first in bone order, ANIM_NONE if absent. */
uint32_t anim_doc_find_bone(const anim_doc *doc, const char *name);

/* Whether the track is structurally valid: >= 1 key, finite and
 * strictly increasing times, matching value count and width, finite values. */
bool anim_track_is_valid(const anim_track *track);

/* Key k's value element (for cubic, the middle element of the triplet). */
const float *anim_track_key_value(const anim_track *track, uint32_t k);

/* The clip's name as messages print it: "" for a hand-built clip that
 * has none (loaded clips always have one). */
const char *anim_clip_message_name(const anim_clip *clip);

/* Keys over the clip's translation, rotation and scale tracks (morph
 * weights not counted): the key totals the transform steps report. */
uint64_t anim_clip_trs_key_count(const anim_clip *clip);

#ifdef __cplusplus
}
#endif
#endif
