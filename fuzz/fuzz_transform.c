/* libFuzzer entry for the transform steps on untrusted documents: any byte
 * string that loads (as GLB or .gltf) goes through every step of
 * `animsmith transform` on every clip, each step on a fresh detached copy
 * and then all of them in the command's order, and the result is written
 * back. A step either refuses with a message or leaves a clip the writer
 * accepts; nothing may crash, leak or read outside its arrays. A checksum
 * of the input picks the steps' parameters, so windows, holds and frame
 * rates vary with it while plain asset files still serve as seeds. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/gltf_write.h"
#include "animsmith/rig.h"
#include "animsmith/transform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef enum { SLICE, HOLD, DROP, RESAMPLE, GAIT, REDUCE, PRUNE, STEP_COUNT } step;

typedef struct params {
    double start, end, hold, fps, resample_fps, bound;
} params;

static params params_of(uint8_t b)
{
    params p;
    p.start = (b & 3) * 0.25;
    p.end = p.start + 0.25 + ((b >> 2) & 3) * 0.25;
    p.hold = ((b >> 4) & 1) ? 0.5 : 0.0;
    p.fps = ((b >> 5) & 1) ? 32.0 : 30.0;
    p.resample_fps = ((b >> 6) & 1) ? 7.0 : 24.0;
    p.bound = (b >> 7) ? 0.0 : 0.001;
    return p;
}

static int run_step(step s, const params *p, anim_asset *a, anim_clip *clip,
                    const anim_rig_resolution *rig, anim_strbuf *msg, anim_error *err)
{
    anim_arena *arena = a->arena;
    switch (s) {
    case SLICE: return anim_transform_slice(arena, clip, p->start, p->end, p->fps, msg, err);
    case HOLD: return anim_transform_hold_extend(arena, clip, p->hold, msg, err);
    case DROP: return anim_transform_drop_endpoint(arena, clip, true, msg, err);
    case RESAMPLE: return anim_transform_resample(arena, &a->doc, clip, p->resample_fps, msg, err);
    case GAIT: return anim_transform_gait_anchor(arena, &a->doc, clip, rig, p->fps, msg, err);
    case REDUCE:
        return anim_transform_reduce_keys(arena, &a->doc, clip, p->bound, NULL, msg, err);
    default: return anim_transform_prune_constant(arena, &a->doc, clip, NULL, msg, err);
    }
}

/* Runs steps [first, last] on a detached copy of every clip, then writes
 * the edited document. */
static void run_steps(anim_asset *a, const params *p, const anim_rig_resolution *rig, step first,
                      step last)
{
    anim_doc doc = a->doc;
    anim_clip *clips = anim_arena_calloc(a->arena, doc.clip_count + 1, sizeof *clips);
    if (!clips)
        return;
    memcpy(clips, a->doc.clips, (size_t)doc.clip_count * sizeof *clips);
    doc.clips = clips;
    anim_strbuf msg = ANIM_STRBUF_INIT;
    bool refused = false;
    for (uint32_t c = 0; c < doc.clip_count && !refused; c++) {
        anim_error err;
        anim_error_clear(&err);
        if (anim_clip_detach(a->arena, &clips[c], &err))
            return;
        for (step s = first; s <= last && !refused; s++) {
            if (run_step(s, p, a, &clips[c], rig, &msg, &err) != 0) {
                if (err.message[0] == '\0')
                    __builtin_trap(); /* every refusal says why */
                refused = true;
            }
        }
    }
    if (!refused) {
        anim_strbuf out = ANIM_STRBUF_INIT;
        anim_error err;
        anim_error_clear(&err);
        if (anim_gltf_write_asset_mem(a, &doc, ANIM_GLTF_FORMAT_GLB, "fuzz", &out, NULL, &err) !=
                0 &&
            err.message[0] == '\0')
            __builtin_trap();
        anim_strbuf_free(&out);
    }
    anim_strbuf_free(&msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t sum = (uint8_t)size;
    for (size_t i = 0; i < size; i++)
        sum = (uint8_t)(sum * 31u + data[i]);
    params p = params_of(sum);
    anim_load_options opts;
    anim_load_options_default(&opts);
    opts.max_file_bytes = (size_t)16 << 20;
    opts.limits.grid_bytes = (size_t)8 << 20; /* keeps sampled steps small */
    for (int glb = 0; glb < 2; glb++) {
        anim_error err;
        anim_error_clear(&err);
        anim_asset *a =
            anim_asset_load_memory(data, size, glb == 1, NULL, "fuzz", &opts, &err);
        if (!a)
            continue;
        anim_rig_resolution rig;
        if (anim_rig_resolve(&a->doc, NULL, &rig, &err) == 0) {
            for (step s = SLICE; s < STEP_COUNT; s++)
                run_steps(a, &p, &rig, s, s);
            run_steps(a, &p, &rig, SLICE, PRUNE);
        }
        anim_asset_free(a);
    }
    return 0;
}
