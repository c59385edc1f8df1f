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

/* Appends the track's two accessors; returns the input accessor index. */
static int64_t track_accessors(gw *g, const anim_clip *clip, const anim_track *t)
{
    size_t values = (size_t)t->value_count * t->components;
    int64_t tv = float_view(g, t->times, t->key_count, clip);
    int64_t vv = tv < 0 ? -1 : float_view(g, t->values, values, clip);
    if (vv < 0)
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
    const char *type = t->path == ANIM_PATH_WEIGHTS    ? "SCALAR"
                       : t->path == ANIM_PATH_ROTATION ? "VEC4"
                                                       : "VEC3";
    uint64_t count = t->path == ANIM_PATH_WEIGHTS ? values : t->value_count;
    gout_push(&g->b, g->accessors, in);
    gout_push(&g->b, g->accessors, float_accessor(g, vv, count, type));
    if (g->b.failed)
        return gw_fail(g, ANIM_ERR_NOMEM, "out of memory");
    return (int64_t)g->accessors->count - 2;
}

static int add_track(gw *g, const anim_clip *clip, const anim_track *t, gout *channels,
                     gout *samplers)
{
    int64_t input = track_accessors(g, clip, t);
    if (input < 0)
        return -1;
    gout *sampler = gout_object(&g->b);
    gout_set(&g->b, sampler, "input", gout_uint(&g->b, (uint64_t)input));
    gout_set(&g->b, sampler, "interpolation", gout_string(&g->b, anim_interp_name(t->interp)));
    gout_set(&g->b, sampler, "output", gout_uint(&g->b, (uint64_t)input + 1));
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
        for (int morph = 0; morph < 2; morph++) {
            const anim_track *tracks = morph ? clip->morph_tracks : clip->tracks;
            uint32_t n = morph ? clip->morph_track_count : clip->track_count;
            for (uint32_t i = 0; i < n; i++) {
                if (!track_writable(doc, &tracks[i]))
                    continue;
                if (check_track(g, clip, &tracks[i], i) ||
                    add_track(g, clip, &tracks[i], channels, samplers))
                    return -1;
            }
        }
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
