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
} anim_fbx_take;

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
} anim_fbx_facts;

#ifdef __cplusplus
}
#endif
#endif
