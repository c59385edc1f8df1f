/* libFuzzer entry for the glTF/GLB reader: any byte string, read both as a
 * GLB container and as .gltf JSON (no base directory, so external URIs are
 * refused), must load or be refused with a message, and everything a load
 * yields must be readable: every track time and value is touched so a bad
 * borrowed pointer or short decode shows under ASan. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/doc.h"
#include "animsmith/gltf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile float sink;

static void touch_track(const anim_track *t)
{
    float acc = 0.0f;
    for (uint32_t k = 0; k < t->key_count; k++)
        acc += t->times[k];
    size_t n = (size_t)t->value_count * t->components;
    for (size_t i = 0; i < n; i++)
        acc += t->values[i];
    if (t->key_count > 0 && t->value_count >= t->key_count)
        acc += anim_track_key_value(t, t->key_count - 1)[0];
    (void)anim_track_is_valid(t);
    sink = acc;
}

static void touch(const anim_asset *a)
{
    const anim_doc *d = &a->doc;
    for (uint32_t b = 0; b < d->bone_count; b++) {
        const anim_bone *bone = &d->bones[b];
        /* Parent-before-child order is an invariant the rest relies on. */
        if (bone->parent != ANIM_NONE && bone->parent >= b)
            __builtin_trap();
        if (d->node_to_bone[bone->node] != b || strlen(bone->name) > (size_t)1 << 30)
            __builtin_trap();
    }
    for (uint32_t c = 0; c < d->clip_count; c++) {
        const anim_clip *clip = &d->clips[c];
        if (!(clip->duration_s >= 0.0) || !clip->name)
            __builtin_trap();
        for (uint32_t t = 0; t < clip->track_count; t++) {
            if (clip->tracks[t].bone >= d->bone_count)
                __builtin_trap();
            touch_track(&clip->tracks[t]);
        }
        for (uint32_t t = 0; t < clip->morph_track_count; t++)
            touch_track(&clip->morph_tracks[t]);
    }
    /* The f64 reader over accessors the document already validated. */
    for (uint32_t c = 0; c < d->clip_count && c < 4; c++)
        for (uint32_t t = 0; t < d->clips[c].track_count && t < 4; t++) {
            const anim_track *tr = &d->clips[c].tracks[t];
            const anim_accessor *acc = &a->source.accessors[tr->output_accessor];
            size_t n = (size_t)acc->count * acc->components;
            if (n > 4096)
                continue;
            double *out = malloc((n ? n : 1) * sizeof *out);
            anim_error err;
            if (out && anim_accessor_read_f64(&a->source, tr->output_accessor, out, &err) != 0)
                __builtin_trap(); /* validated at load, so reading cannot fail */
            free(out);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    anim_load_options opts;
    anim_load_options_default(&opts);
    /* Keep declared sizes small so runs stay fast; limit paths get exercised. */
    opts.max_file_bytes = (size_t)64 << 20;
    for (int glb = 0; glb < 2; glb++) {
        anim_error err;
        anim_error_clear(&err);
        anim_asset *a = anim_asset_load_memory(data, size, glb == 1, NULL, "fuzz", &opts, &err);
        if (a) {
            touch(a);
            anim_asset_free(a);
        } else if (err.code == ANIM_OK || err.message[0] == '\0') {
            __builtin_trap(); /* every refusal says why */
        }
    }
    return 0;
}
