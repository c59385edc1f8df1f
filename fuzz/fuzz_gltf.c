/* libFuzzer entry for the glTF/GLB reader: any byte string, read both as a
 * GLB container and as .gltf JSON (no base directory, so external URIs are
 * refused), must load or be refused with a message, and everything a load
 * yields must be readable: every track time and value is touched so a bad
 * borrowed pointer or short decode shows under ASan.
 *
 * Each input is also loaded a second time with the large arrays read from
 * the JSON tree (gltf_tree_only) instead of the scanner's records: both
 * must succeed or fail together, with the same message, and yield the same
 * tables and clips. The deferred arrays are then expanded and checked.
 *
 * Whatever loads is then written back by the whole-document writer (GLB
 * and .gltf): the writer either refuses with a message or writes a file
 * that loads again with the same bones and clip count. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/doc.h"
#include "animsmith/gltf.h"
#include "animsmith/gltf_write.h"
#include "io/gltf/gltf_internal.h"

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

static bool same_track(const anim_track *x, const anim_track *y)
{
    if (x->bone != y->bone || x->node != y->node || x->path != y->path ||
        x->interp != y->interp || x->key_count != y->key_count ||
        x->components != y->components || x->value_count != y->value_count ||
        x->channel != y->channel || x->sampler != y->sampler ||
        x->input_accessor != y->input_accessor || x->output_accessor != y->output_accessor ||
        x->quantized != y->quantized || x->borrowed != y->borrowed)
        return false;
    size_t n = (size_t)x->value_count * x->components;
    return memcmp(x->times, y->times, x->key_count * sizeof(float)) == 0 &&
           memcmp(x->values, y->values, n * sizeof(float)) == 0;
}

static bool same_bounds(const double *x, const double *y, uint32_t n)
{
    return (!x && !y) || (x && y && memcmp(x, y, n * sizeof *x) == 0);
}

/* The scanner's load (a) against the tree's (b). */
static void compare(const anim_asset *a, const anim_asset *b)
{
    const anim_source *s = &a->source, *t = &b->source;
    if (s->view_count != t->view_count || s->accessor_count != t->accessor_count ||
        memcmp(s->views, t->views, s->view_count * sizeof *s->views) != 0)
        __builtin_trap();
    for (uint32_t i = 0; i < s->accessor_count; i++) {
        anim_accessor x = s->accessors[i], y = t->accessors[i];
        if (!same_bounds(x.min, y.min, x.components) || !same_bounds(x.max, y.max, x.components) ||
            strcmp(x.type, y.type) != 0)
            __builtin_trap();
        x.min = x.max = y.min = y.max = NULL;
        x.type = y.type = NULL;
        if (memcmp(&x, &y, sizeof x) != 0)
            __builtin_trap();
    }
    const anim_doc *d = &a->doc, *e = &b->doc;
    if (d->clip_count != e->clip_count)
        __builtin_trap();
    for (uint32_t c = 0; c < d->clip_count; c++) {
        const anim_clip *x = &d->clips[c], *y = &e->clips[c];
        if (strcmp(x->name, y->name) != 0 || x->has_name != y->has_name ||
            x->track_count != y->track_count || x->morph_track_count != y->morph_track_count ||
            x->max_keys != y->max_keys ||
            memcmp(&x->duration_s, &y->duration_s, sizeof x->duration_s) != 0)
            __builtin_trap();
        for (uint32_t k = 0; k < x->track_count; k++)
            if (!same_track(&x->tracks[k], &y->tracks[k]))
                __builtin_trap();
        for (uint32_t k = 0; k < x->morph_track_count; k++)
            if (!same_track(&x->morph_tracks[k], &y->morph_tracks[k]))
                __builtin_trap();
    }
    /* Expanding the deferred arrays gives what the tree load holds. */
    static const char *const keys[] = {"bufferViews", "accessors", "animations"};
    for (int k = 0; k < 3; k++) {
        const anim_json_value *x = anim_json_get(s->root, keys[k]);
        const anim_json_value *y = anim_json_get(t->root, keys[k]);
        if (!x != !y || (x && (x->type != y->type || anim_json_count(x) != anim_json_count(y) ||
                               (x->flags & ANIM_JSON_F_DEFERRED))))
            __builtin_trap();
        for (size_t i = 0; x && i < anim_json_count(x); i++)
            if (anim_json_item(x, i)->type != anim_json_item(y, i)->type ||
                anim_json_item(x, i)->offset != anim_json_item(y, i)->offset ||
                anim_json_count(anim_json_item(x, i)) != anim_json_count(anim_json_item(y, i)))
                __builtin_trap();
    }
}

static void write_back(const anim_asset *a, const anim_load_options *opts)
{
    for (int f = 0; f < 2; f++) {
        anim_gltf_format format = f ? ANIM_GLTF_FORMAT_GLTF : ANIM_GLTF_FORMAT_GLB;
        anim_strbuf out = ANIM_STRBUF_INIT;
        anim_error err;
        anim_error_clear(&err);
        if (anim_gltf_write_asset_mem(a, NULL, format, "fuzz", &out, NULL, &err) != 0) {
            if (err.message[0] == '\0')
                __builtin_trap(); /* every refusal says why */
        } else {
            anim_asset *back = anim_asset_load_memory(out.data, out.len, f == 0, NULL, "written",
                                                      opts, &err);
            if (!back || back->doc.bone_count != a->doc.bone_count ||
                back->doc.clip_count > a->doc.clip_count)
                __builtin_trap(); /* the writer wrote a file we cannot read back */
            anim_asset_free(back);
        }
        anim_strbuf_free(&out);
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
            write_back(a, &opts);
        } else if (err.code == ANIM_OK || err.message[0] == '\0')
            __builtin_trap(); /* every refusal says why */
        anim_error terr;
        anim_error_clear(&terr);
        gltf_tree_only = true;
        anim_asset *b = anim_asset_load_memory(data, size, glb == 1, NULL, "fuzz", &opts, &terr);
        gltf_tree_only = false;
        if (!a != !b || (!a && (err.code != terr.code || strcmp(err.message, terr.message) != 0)))
            __builtin_trap(); /* the scanner changed the verdict or the message */
        if (a)
            compare(a, b);
        anim_asset_free(a);
        anim_asset_free(b);
    }
    return 0;
}
