/* FBX input. An FBX file loads into the same asset as a glTF file (see
 * gltf.h: anim_asset_load reads .fbx too): the reader projects the scene
 * into a glTF document, so every command and every number works the
 * same. What FBX says beyond that document is kept here. */
#ifndef ANIMSMITH_FBX_H
#define ANIMSMITH_FBX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* FBX time: 46186158000 ticks per second. */
#define ANIM_FBX_KTIME_PER_SECOND 46186158000LL

/* Where a take's span came from: the stack's own LocalStart/LocalStop
 * (else ReferenceStart/ReferenceStop; 6.1: LocalTime/ReferenceTime), the
 * first and last key of its curves when the stack states none, or neither
 * (no span and no key: start and stop are 0 and mean nothing). */
typedef enum {
    ANIM_FBX_SPAN_NONE = 0,
    ANIM_FBX_SPAN_STACK,
    ANIM_FBX_SPAN_KEYS
} anim_fbx_span_source;

/* "none", "stack", "keys". */
const char *anim_fbx_span_source_name(anim_fbx_span_source s);

/* One animation stack (take), in document clip order. */
typedef struct anim_fbx_take {
    const char *name;
    int64_t start_ktime, stop_ktime; /* the stack's span, absolute */
    double start_s, stop_s;
    double frame_rate;               /* the file's frame rate, 0 when unknown */
    uint32_t curve_count;            /* animation curves read */
    uint32_t track_count;            /* tracks it became */
    const char **ignored_layers;     /* layers beyond the base one, not applied */
    uint32_t ignored_layer_count;
    /* Exact timing evidence, in integers only. */
    anim_fbx_span_source span_source;
    int64_t time_mode;               /* GlobalSettings TimeMode as stored (0 when absent) */
    /* KTime ticks per frame of that time mode when a frame is a whole
     * number of ticks (30 fps: 1539538600), else 0: the default mode 0
     * (the file states no rate), unknown modes, and rates such as NTSC
     * 30000/1001 whose period is no integer (anim_fbx_frame_period_ktime). */
    int64_t frame_period_ktime;
} anim_fbx_take;

/* The exact frame period of an FBX TimeMode (custom_rate for mode 14, the
 * CustomFrameRate property), 0 when it has none (see frame_period_ktime).
 * A custom rate is taken as the exact binary fraction its double holds:
 * it has a period when one second of KTime divided by that value is a
 * whole number (24.0 and 12.5 do; 29.97 does not). */
int64_t anim_fbx_frame_period_ktime(int64_t time_mode, double custom_rate);

/* Where ktime falls on the frame lattice of period (> 0), in integers:
 * *frame = floor(ktime / period) and *rest = ktime - *frame * period, in
 * [0, period) also before time zero. True when ktime is on the lattice
 * (rest 0); false, with *frame and *rest 0, when period is not positive. */
bool anim_fbx_frame_lattice(int64_t ktime, int64_t period, int64_t *frame, int64_t *rest);

/* One Model of the file as the file spells it, before any projection:
 * the raw transform-path inventory that engine importers address nodes by
 * ("Reference/Root"). Row 0 is the implicit scene root; every other row is
 * one Model object, in the reader's depth-first order (parents first,
 * siblings in file order). */
typedef struct anim_fbx_raw_node {
    const char *name;                /* raw Model name, class part stripped
                                      * ("Model::Hips" and "Hips\0\1Model" give
                                      * "Hips"); "" for row 0 */
    uint32_t parent;                 /* raw row of the parent; ANIM_NONE for
                                      * row 0 (top-level Models have parent 0) */
    int64_t id;                      /* object id (6.1: synthetic), 0 for row 0 */
    const char *subclass;            /* "LimbNode", "Null", "Mesh", ... */
    /* false for the implicit root and for nodes the reader generates: they
     * are evidence but never satisfy a configured path. */
    bool matchable;
    /* The glTF node the projection made of it (what doc bones point at),
     * ANIM_NONE when the projection dropped or merged it. */
    uint32_t gltf_node;
} anim_fbx_raw_node;

typedef enum {
    ANIM_FBX_COVERAGE_COMPLETE = 0,  /* every Model is a row, names byte-exact */
    ANIM_FBX_COVERAGE_PARTIAL        /* some Model could not be represented */
} anim_fbx_coverage;

/* "complete", "partial". */
const char *anim_fbx_coverage_name(anim_fbx_coverage c);

/* Matching a configured raw transform path ("Reference/Root": names from a
 * top-level Model down, joined by "/", byte-exact and case-sensitive)
 * against the inventory. */
typedef enum {
    ANIM_FBX_PATH_MATCH = 0,         /* exactly one matchable row */
    ANIM_FBX_PATH_NO_MATCH,          /* complete inventory, no row */
    ANIM_FBX_PATH_AMBIGUOUS,         /* two or more rows */
    ANIM_FBX_PATH_INCOMPLETE         /* partial inventory: nothing is proven */
} anim_fbx_path_outcome;

typedef struct anim_fbx_facts {
    uint32_t version;                /* 7400, 7500, 6100, ... */
    bool ascii;
    double unit_scale_factor;        /* centimetres per file unit */
    int up_axis, up_sign, front_axis, front_sign, coord_axis, coord_sign;
    uint32_t joint_count;            /* LimbNodes and skin cluster links */
    anim_fbx_take *takes;
    uint32_t take_count;
    const char **notes;              /* what the reader could not carry exactly */
    uint32_t note_count;
    /* The raw transform-path inventory (see anim_fbx_raw_node). */
    anim_fbx_raw_node *raw_nodes;
    uint32_t raw_node_count;
    anim_fbx_coverage raw_coverage;
    const char *raw_coverage_reason; /* NULL when complete, else a stable code:
                                      * "raw_name_not_representable" (a stored
                                      * name holds a NUL byte), or
                                      * "raw_inventory_unavailable" (a scene
                                      * built without the inventory) */
} anim_fbx_facts;

/* The raw path of row n ("Reference/Root") into buf (NUL-terminated,
 * truncated to cap); "" for row 0. Returns the full length. */
size_t anim_fbx_raw_path(const anim_fbx_facts *f, uint32_t n, char *buf, size_t cap);

/* Resolves path against f's inventory. *node receives the matching row
 * (MATCH) or the first of the candidates (AMBIGUOUS; *second the next),
 * ANIM_NONE otherwise; node and second may be NULL. A partial inventory
 * is INCOMPLETE whatever it holds: a duplicate could hide in the part
 * not represented. Cost: each row is compared name by name from its own
 * upward, each step consuming path bytes (at most the path's length). */
anim_fbx_path_outcome anim_fbx_raw_path_match(const anim_fbx_facts *f, const char *path,
                                              uint32_t *node, uint32_t *second);
/* "match", "no_match", "ambiguous", "incomplete". */
const char *anim_fbx_path_outcome_name(anim_fbx_path_outcome o);

#ifdef __cplusplus
}
#endif
#endif
