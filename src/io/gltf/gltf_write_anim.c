/* The writer's animations: one per clip with a writable track, its TRS
 * tracks in order and then its morph-weight tracks, each track an input
 * accessor (key times, with min/max) and an output accessor in views of
 * their own. Times and values are written exactly as held, cubic
 * triplets included. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/gltf/gltf_write_internal.h"

#define COMPONENT_FLOAT 5126u

static bool track_writable(const anim_doc *doc, const anim_track *t)
{
    return t->key_count >= 1 && t->bone < doc->bone_count;
}

uint32_t gw_clip_writable_tracks(const anim_doc *doc, const anim_clip *c)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->track_count; i++)
        n += track_writable(doc, &c->tracks[i]);
    for (uint32_t i = 0; i < c->morph_track_count; i++)
        n += track_writable(doc, &c->morph_tracks[i]);
    return n;
}

static int check_track(gw *g, const anim_clip *clip, const anim_track *t, uint32_t i)
{
    uint32_t per_key = t->interp == ANIM_INTERP_CUBICSPLINE ? 3 : 1;
    bool morph = t->path == ANIM_PATH_WEIGHTS;
    uint32_t want = t->path == ANIM_PATH_ROTATION ? 4 : 3;
    if (morph ? t->components == 0 : t->components != want)
        return gw_fail(g, ANIM_ERR_INVALID, "clip '%s' %strack %u: %u components for %s",
                       clip->name, morph ? "morph " : "", i, t->components,
                       anim_path_name(t->path));
    if (t->value_count != (uint64_t)t->key_count * per_key)
        return gw_fail(g, ANIM_ERR_INVALID,
                       "clip '%s' %strack %u: %u value elements for %u key(s)", clip->name,
                       morph ? "morph " : "", i, t->value_count, t->key_count);
    for (uint32_t k = 0; k < t->key_count; k++)
        if (!isfinite(t->times[k]))
            return gw_fail(g, ANIM_ERR_INVALID, "clip '%s' %strack %u: key %u time is not finite",
                           clip->name, morph ? "morph " : "", i, k);
    return 0;
}

/* Binary32 little-endian regardless of host order, for the payload. */
static void *le_floats(const float *v, size_t n)
{
    uint8_t *out = malloc(n ? n * 4 : 1);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &v[i], 4);
        out[4 * i] = (uint8_t)u;
        out[4 * i + 1] = (uint8_t)(u >> 8);
        out[4 * i + 2] = (uint8_t)(u >> 16);
        out[4 * i + 3] = (uint8_t)(u >> 24);
    }
    return out;
}

static int64_t float_view(gw *g, const float *v, size_t n, const anim_clip *clip)
{
    if (n > SIZE_MAX / 4)
        return gw_fail(g, ANIM_ERR_LIMIT, "clip '%s': animation data exceeds the 4 GiB glTF limit",
                       clip->name);
    void *bytes = le_floats(v, n);
    if (!bytes)
        return gw_fail(g, ANIM_ERR_NOMEM, "out of memory");
    int64_t view = gw_add_view(g, bytes, n * 4, 0, 0);
    free(bytes);
    return view;
}

static gout *float_accessor(gw *g, int64_t view, uint64_t count, const char *type)
{
    gout *a = gout_object(&g->b);
    gout_set(&g->b, a, "bufferView", gout_uint(&g->b, (uint64_t)view));
    gout_set(&g->b, a, "componentType", gout_uint(&g->b, COMPONENT_FLOAT));
    gout_set(&g->b, a, "count", gout_uint(&g->b, count));
    gout_set(&g->b, a, "type", gout_string(&g->b, type));
    return a;
}

/* The key times already written for this clip, so tracks on one timeline
 * share one input accessor (exporters key every channel of a clip at the
 * same times; a copy per channel would grow the file for nothing). Only
 * for loaded documents: a document built in memory is written in the
 * fixed one-input-per-track layout its reference files have. */
typedef struct time_key {
    uint64_t hash;
    const anim_track *track;
    uint32_t accessor;
} time_key;

typedef struct time_set {
    time_key *keys;
    uint32_t count, cap;
} time_set;

static uint64_t hash_times(const float *t, uint32_t n)
{
    uint64_t h = 1469598103934665603ull ^ n;
    const unsigned char *p = (const unsigned char *)t;
    for (size_t i = 0; i < (size_t)n * 4; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static int64_t shared_input(const time_set *set, const anim_track *t, uint64_t hash)
{
    for (uint32_t i = 0; set && i < set->count; i++) {
        const anim_track *o = set->keys[i].track;
        if (set->keys[i].hash == hash && o->key_count == t->key_count &&
            memcmp(o->times, t->times, (size_t)t->key_count * 4) == 0)
            return set->keys[i].accessor;
    }
    return -1;
}

static int remember_input(gw *g, time_set *set, const anim_track *t, uint64_t hash,
                          uint32_t accessor)
{
    if (set->count == set->cap) {
        uint32_t cap = set->cap ? set->cap * 2 : 16;
        time_key *grown = realloc(set->keys, (size_t)cap * sizeof *grown);
        if (!grown)
            return gw_fail(g, ANIM_ERR_NOMEM, "out of memory");
        set->keys = grown;
        set->cap = cap;
    }
    set->keys[set->count++] = (time_key){hash, t, accessor};
    return 0;
}

static int64_t input_accessor(gw *g, const anim_clip *clip, const anim_track *t)
{
    int64_t tv = float_view(g, t->times, t->key_count, clip);
    if (tv < 0)
        return -1;
    float lo = t->times[0], hi = t->times[0];
    for (uint32_t k = 1; k < t->key_count; k++) {
        lo = t->times[k] < lo ? t->times[k] : lo;
        hi = t->times[k] > hi ? t->times[k] : hi;
    }
    gout *in = float_accessor(g, tv, t->key_count, "SCALAR");
    gout *mx = gout_array(&g->b), *mn = gout_array(&g->b);
    gout_push(&g->b, mx, gout_f64(&g->b, (double)hi));
    gout_push(&g->b, mn, gout_f64(&g->b, (double)lo));
    gout_set(&g->b, in, "max", mx);
    gout_set(&g->b, in, "min", mn);
    gout_push(&g->b, g->accessors, in);
    if (g->b.failed)
        return gw_fail(g, ANIM_ERR_NOMEM, "out of memory");
    return (int64_t)g->accessors->count - 1;
}

/* Appends the track's accessors (its input unless set already holds its
 * timeline); returns the input and output accessor indices. */
static int track_accessors(gw *g, const anim_clip *clip, const anim_track *t, time_set *set,
                           int64_t *input, int64_t *output)
{
    size_t values = (size_t)t->value_count * t->components;
    uint64_t hash = set ? hash_times(t->times, t->key_count) : 0;
    *input = shared_input(set, t, hash);
    if (*input < 0) {
        *input = input_accessor(g, clip, t);
        if (*input < 0 || (set && remember_input(g, set, t, hash, (uint32_t)*input)))
            return -1;
    }
    int64_t vv = float_view(g, t->values, values, clip);
    if (vv < 0)
        return -1;
    const char *type = t->path == ANIM_PATH_WEIGHTS    ? "SCALAR"
                       : t->path == ANIM_PATH_ROTATION ? "VEC4"
                                                       : "VEC3";
    uint64_t count = t->path == ANIM_PATH_WEIGHTS ? values : t->value_count;
    gout_push(&g->b, g->accessors, float_accessor(g, vv, count, type));
    if (g->b.failed)
        return gw_fail(g, ANIM_ERR_NOMEM, "out of memory");
    *output = (int64_t)g->accessors->count - 1;
    return 0;
}

static int add_track(gw *g, const anim_clip *clip, const anim_track *t, gout *channels,
                     gout *samplers, time_set *set)
{
    int64_t input = -1, output = -1;
    if (track_accessors(g, clip, t, set, &input, &output))
        return -1;
    gout *sampler = gout_object(&g->b);
    gout_set(&g->b, sampler, "input", gout_uint(&g->b, (uint64_t)input));
    gout_set(&g->b, sampler, "interpolation", gout_string(&g->b, anim_interp_name(t->interp)));
    gout_set(&g->b, sampler, "output", gout_uint(&g->b, (uint64_t)output));
    gout *target = gout_object(&g->b);
    gout_set(&g->b, target, "node", gout_uint(&g->b, t->bone));
    gout_set(&g->b, target, "path", gout_string(&g->b, anim_path_name(t->path)));
    gout *channel = gout_object(&g->b);
    gout_set(&g->b, channel, "sampler", gout_uint(&g->b, samplers->count));
    gout_set(&g->b, channel, "target", target);
    gout_push(&g->b, samplers, sampler);
    gout_push(&g->b, channels, channel);
    return 0;
}

/* The source animation's extras and extensions travel with the clip. */
static void copy_clip_extras(gw *g, const anim_clip *clip, gout *anim)
{
    const anim_json_value *list = gw_source_array(g, "animations");
    if (!list || clip->animation >= anim_json_count(list))
        return;
    const anim_json_value *obj = anim_json_item(list, clip->animation);
    static const char *const keys[] = {"extras", "extensions"};
    for (size_t i = 0; i < 2; i++) {
        const anim_json_value *v = anim_json_get(obj, keys[i]);
        if (v)
            gout_set(&g->b, anim, keys[i], gout_copy(&g->b, v));
    }
}

int gw_write_animations(gw *g)
{
    const anim_doc *doc = g->doc;
    gout *animations = gout_array(&g->b);
    for (uint32_t c = 0; c < doc->clip_count; c++) {
        const anim_clip *clip = &doc->clips[c];
        if (gw_clip_writable_tracks(doc, clip) == 0)
            continue;
        gout *channels = gout_array(&g->b), *samplers = gout_array(&g->b);
        time_set set = {NULL, 0, 0};
        int rc = 0;
        for (int morph = 0; morph < 2 && rc == 0; morph++) {
            const anim_track *tracks = morph ? clip->morph_tracks : clip->tracks;
            uint32_t n = morph ? clip->morph_track_count : clip->track_count;
            for (uint32_t i = 0; i < n && rc == 0; i++)
                if (track_writable(doc, &tracks[i]))
                    rc = check_track(g, clip, &tracks[i], i) ||
                         add_track(g, clip, &tracks[i], channels, samplers, g->src ? &set : NULL);
        }
        free(set.keys);
        if (rc)
            return -1;
        gout *anim = gout_object(&g->b);
        if (g->src)
            copy_clip_extras(g, clip, anim);
        gout_set(&g->b, anim, "channels", channels);
        /* A loaded clip without a name stays unnamed: the names the
         * loader makes up ("animation2", "walk#2") are not the file's. */
        const char *name = clip->has_name && clip->base_name ? clip->base_name : clip->name;
        if (clip->has_name || !g->src)
            gout_set(&g->b, anim, "name", gout_string(&g->b, name ? name : ""));
        gout_set(&g->b, anim, "samplers", samplers);
        gout_push(&g->b, animations, anim);
    }
    if (animations->count)
        gout_set(&g->b, g->root, "animations", animations);
    return g->b.failed ? gw_fail(g, ANIM_ERR_NOMEM, "out of memory") : 0;
}
