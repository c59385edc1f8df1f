/* Animations to clips. Sampler encodings are checked before any
 * byte is read, then the layout, then the key/value counts; values are kept
 * exactly as authored (no normalization, no hemisphere fixing, no sorting),
 * because judging the authored data is the point. */
#include "io/gltf/gltf_internal.h"
#include "io/json/json_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *path_names[] = {"translation", "rotation", "scale", "weights"};

/* "animation 0 sampler 0 input for node 0 translation: accessor 0 is VEC3
 * of FLOAT, but the loader reads SCALAR of FLOAT" */
static int check_encoding(const anim_source *src, uint32_t anim, uint32_t sampler,
                          bool input, uint32_t node, anim_path path, uint32_t acc,
                          anim_error *err)
{
    const anim_accessor *a = &src->accessors[acc];
    const char *want_type;
    bool ok;
    const char *want;
    if (input) {
        want_type = "SCALAR";
        ok = a->component_type == ANIM_GLTF_FLOAT;
        want = "SCALAR of FLOAT";
    } else if (path == ANIM_PATH_TRANSLATION || path == ANIM_PATH_SCALE) {
        want_type = "VEC3";
        ok = a->component_type == ANIM_GLTF_FLOAT;
        want = "VEC3 of FLOAT";
    } else {
        want_type = path == ANIM_PATH_ROTATION ? "VEC4" : "SCALAR";
        bool small_int = a->component_type == ANIM_GLTF_BYTE ||
                         a->component_type == ANIM_GLTF_UNSIGNED_BYTE ||
                         a->component_type == ANIM_GLTF_SHORT ||
                         a->component_type == ANIM_GLTF_UNSIGNED_SHORT;
        ok = a->component_type == ANIM_GLTF_FLOAT || (small_int && a->normalized);
        want = path == ANIM_PATH_ROTATION
                   ? "VEC4 of FLOAT or normalized BYTE/UNSIGNED_BYTE/SHORT/UNSIGNED_SHORT"
                   : "SCALAR of FLOAT or normalized BYTE/UNSIGNED_BYTE/SHORT/UNSIGNED_SHORT";
    }
    if (ok && !strcmp(a->type, want_type))
        return 0;
    const char *cname = anim_gltf_component_name(a->component_type);
    bool unflagged = strcmp(a->type, want_type) == 0 && !input &&
                     (path == ANIM_PATH_ROTATION || path == ANIM_PATH_WEIGHTS) &&
                     a->component_type != ANIM_GLTF_FLOAT &&
                     a->component_type != ANIM_GLTF_UNSIGNED_INT && !a->normalized;
    return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                          "animation %u sampler %u %s for node %u %s: accessor %u is %s of %s%s, but the loader reads %s",
                          anim, sampler, input ? "input" : "output", node, path_names[path], acc,
                          a->type, cname, unflagged ? " without \"normalized\": true" : "", want);
}

typedef struct {
    uint32_t input, output;
    anim_interp interp;
} sampler_def;

#define KEY_IS(m, lit)                                                                         \
    ((m)->value.key_len == sizeof lit - 1 && memcmp((m)->key, lit, sizeof lit - 1) == 0)

/* "animation 3 sampler 7" / "animation 3 channel 7". */
static const char *anim_ctx(char *out, size_t cap, uint32_t anim, const char *what,
                            uint32_t index)
{
    gltf_format_ctx(out, cap, "animation ", anim);
    size_t at = strlen(out);
    gltf_format_ctx(out + at, cap - at, what, index);
    return out;
}

static int parse_sampler(const anim_json_value *obj, const anim_source *src, uint32_t anim,
                         uint32_t s, const char *ctx, sampler_def *out, anim_error *err)
{
    const anim_json_value *input = NULL, *output = NULL, *interp = NULL;
    for (uint32_t i = 0; i < obj->len; i++) {
        const anim_json_member *m = &obj->u.members[i];
        if (KEY_IS(m, "input"))
            input = &m->value;
        else if (KEY_IS(m, "output"))
            output = &m->value;
        else if (KEY_IS(m, "interpolation"))
            interp = &m->value;
    }
    if (gltf_value_index(src->json_text, input, "input", ctx, true, src->accessor_count,
                         "accessor", &out->input, err) ||
        gltf_value_index(src->json_text, output, "output", ctx, true, src->accessor_count,
                         "accessor", &out->output, err) ||
        (interp && gltf_value_string(interp, "interpolation", ctx, err)))
        return -1;
    if (!interp || gltf_str_eq(interp, "LINEAR", 6))
        out->interp = ANIM_INTERP_LINEAR;
    else if (gltf_str_eq(interp, "STEP", 4))
        out->interp = ANIM_INTERP_STEP;
    else if (gltf_str_eq(interp, "CUBICSPLINE", 11))
        out->interp = ANIM_INTERP_CUBICSPLINE;
    else {
        char buf[64];
        if (!*ctx)
            ctx = anim_ctx(buf, sizeof buf, anim, " sampler ", s);
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: interpolation \"%.*s\" is not LINEAR, STEP or CUBICSPLINE", ctx,
                              (int)interp->len, interp->u.string);
    }
    return 0;
}

static int parse_samplers(const anim_json_value *samplers, const anim_source *src,
                          uint32_t anim, sampler_def *out, anim_error *err)
{
    for (uint32_t s = 0; s < samplers->len; s++) {
        const anim_json_value *obj = &samplers->u.items[s];
        char ctx[64];
        if (obj->type != ANIM_JSON_OBJECT)
            return gltf_require_object(obj, anim_ctx(ctx, sizeof ctx, anim, " sampler ", s), err);
        /* The message context is formatted only when something is wrong. */
        if (parse_sampler(obj, src, anim, s, "", &out[s], NULL) &&
            parse_sampler(obj, src, anim, s, anim_ctx(ctx, sizeof ctx, anim, " sampler ", s),
                          &out[s], err))
            return -1;
    }
    return 0;
}

static bool parse_path_value(const anim_json_value *v, anim_path *out)
{
    for (int i = 0; i < 4; i++)
        if (gltf_str_eq(v, path_names[i], strlen(path_names[i]))) {
            *out = (anim_path)i;
            return true;
        }
    return false;
}

/* Number of morph targets the node's mesh declares (0 when unknown). */
static uint32_t morph_target_count(const anim_doc *doc, uint32_t node)
{
    const anim_bone *bone = &doc->bones[doc->node_to_bone[node]];
    if (bone->mesh == ANIM_NONE || doc->meshes[bone->mesh].primitive_count == 0)
        return 0;
    return doc->meshes[bone->mesh].primitives[0].target_count;
}

/* Decoded accessors, shared by every channel that names them: each one is
 * decoded once, and the bytes copied in total are bounded by the size of
 * the buffers, so many accessors over the same bytes (or many channels over
 * one implicit accessor) cannot multiply a small file into huge memory. */
typedef struct {
    const float **floats; /* per accessor, NULL until decoded */
    bool *borrowed;
    size_t copied;        /* bytes decoded into the arena so far */
    size_t budget;
    /* Largest finite key time per key-time accessor (-inf when none),
     * valid where tmax_done: clips whose tracks share one time accessor
     * scan it once for the duration. */
    double *tmax;
    bool *tmax_done;
} decode_cache;

/* Reads ahead of the duration scan: the key times of a large library are
 * short runs scattered through the buffer (one per sampler), so without
 * hints each run waits for memory in turn; this scan was ~20 ms of a
 * 90 ms load of the benchmark file, and the hints take most of that. */
#define PREFETCH_TRACKS 8
static inline void prefetch_times(const anim_track *t)
{
#if defined(__GNUC__)
    const char *p = (const char *)t->times;
    size_t bytes = (size_t)t->key_count * sizeof(float);
    for (size_t off = 0; off < bytes; off += 64)
        __builtin_prefetch(p + off);
#else
    (void)t;
#endif
}

/* The largest finite value of a key-time accessor, once per accessor. */
static double max_key_time(decode_cache *cache, uint32_t acc, const float *times,
                           uint32_t count)
{
    if (cache->tmax_done[acc])
        return cache->tmax[acc];
    double m = -INFINITY;
    for (uint32_t k = 0; k < count; k++)
        if (isfinite(times[k]) && (double)times[k] > m)
            m = times[k];
    cache->tmax[acc] = m;
    cache->tmax_done[acc] = true;
    return m;
}

/* "clip 'walk' node 3 sampler input", formatted only when a message needs
 * it (a clip has tens of thousands of channels on a large library). */
static const char *sampler_ctx(char *out, size_t cap, const anim_clip *clip, uint32_t node,
                               bool input)
{
    snprintf(out, cap, "clip '%s' node %u sampler %s", clip->name, node,
             input ? "input" : "output");
    return out;
}

static int check_sampler_layout(const anim_source *src, const anim_clip *clip, uint32_t node,
                                uint32_t acc, bool input, anim_error *err)
{
    if (gltf_accessor_check_layout(src, acc, "", NULL) == 0)
        return 0;
    char ctx[512];
    return gltf_accessor_check_layout(src, acc, sampler_ctx(ctx, sizeof ctx, clip, node, input),
                                      err);
}

static const float *decode(const anim_source *src, anim_arena *arena, decode_cache *cache,
                           uint32_t acc, bool *borrowed, const anim_clip *clip, uint32_t node,
                           bool input, anim_error *err)
{
    if (cache->floats[acc]) {
        *borrowed = cache->borrowed[acc];
        return cache->floats[acc];
    }
    char ctx[512];
    const float *f = gltf_accessor_floats(src, arena, acc, borrowed, err);
    if (!f) {
        anim_error_prefix(err, "%s", sampler_ctx(ctx, sizeof ctx, clip, node, input));
        return NULL;
    }
    if (!*borrowed) {
        const anim_accessor *a = &src->accessors[acc];
        size_t bytes = (size_t)a->count * a->components * sizeof(float);
        if (!anim_size_add(cache->copied, bytes, &cache->copied) ||
            cache->copied > cache->budget) {
            char v[48];
            anim_error_set(err, ANIM_ERR_LIMIT,
                           "%s: accessor %u: decoded animation data exceeds %zu bytes, the "
                           "decoded-track budget (4 times the buffers' bytes plus the %s "
                           "implicit-accessor budget; raise with [limits] implicit_accessor_mib "
                           "in animsmith.toml)",
                           sampler_ctx(ctx, sizeof ctx, clip, node, input), acc, cache->budget,
                           anim_limit_format(anim_limits_get(&src->limits,
                                                             ANIM_LIMIT_IMPLICIT_ACCESSOR),
                                             v, sizeof v));
            return NULL;
        }
    }
    cache->floats[acc] = f;
    cache->borrowed[acc] = *borrowed;
    return f;
}

static int build_track(const anim_source *src, anim_arena *arena, const anim_doc *doc,
                       const anim_clip *clip, uint32_t anim, uint32_t channel, uint32_t sampler,
                       const sampler_def *def, uint32_t node, anim_path path, decode_cache *cache,
                       anim_track *t, anim_error *err)
{
    if (check_encoding(src, anim, sampler, true, node, path, def->input, err) ||
        check_encoding(src, anim, sampler, false, node, path, def->output, err))
        return -1;
    if (check_sampler_layout(src, clip, node, def->input, true, err) ||
        check_sampler_layout(src, clip, node, def->output, false, err))
        return -1;
    const anim_accessor *in = &src->accessors[def->input];
    const anim_accessor *out = &src->accessors[def->output];
    if (in->count == 0 || out->count == 0)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "malformed animation data: clip '%s' node %u: animation channel with zero keyframes",
                              clip->name, node);
    uint32_t per_key = def->interp == ANIM_INTERP_CUBICSPLINE ? 3 : 1;
    uint64_t expected = (uint64_t)in->count * per_key;
    uint32_t components = out->components;
    uint64_t actual = out->count;
    if (path == ANIM_PATH_WEIGHTS) {
        /* A weights output holds one scalar per morph target per element. */
        uint32_t targets = morph_target_count(doc, node);
        if (targets == 0 && expected != 0 && out->count % expected == 0)
            targets = (uint32_t)(out->count / expected);
        if (targets == 0)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "malformed animation data: clip '%s' node %u: weights channel on a node without morph targets",
                                  clip->name, node);
        components = targets;
        expected *= targets;
    }
    if (actual != expected)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "malformed animation data: clip '%s' node %u: %u keyframe times but %llu output values (expected %llu)",
                              clip->name, node, in->count, (unsigned long long)actual,
                              (unsigned long long)expected);
    bool borrowed_t, borrowed_v;
    t->times = decode(src, arena, cache, def->input, &borrowed_t, clip, node, true, err);
    t->values =
        t->times ? decode(src, arena, cache, def->output, &borrowed_v, clip, node, false, err) : NULL;
    if (!t->values)
        return -1;
    t->bone = doc->node_to_bone[node];
    t->node = node;
    t->path = path;
    t->interp = def->interp;
    t->key_count = in->count;
    t->components = components;
    t->value_count = (uint32_t)(path == ANIM_PATH_WEIGHTS ? (uint64_t)in->count * per_key
                                                          : out->count);
    t->channel = channel;
    t->sampler = sampler;
    t->input_accessor = def->input;
    t->output_accessor = def->output;
    t->quantized = out->component_type != ANIM_GLTF_FLOAT;
    t->borrowed = borrowed_t && borrowed_v;
    return 0;
}

/* duration_s: the largest finite key time of the clip's bone tracks
 * (never negative: it starts at 0). */
static void clip_duration(anim_clip *clip, decode_cache *cache)
{
    uint32_t n = clip->track_count;
    for (uint32_t k = 0; k < n && k < PREFETCH_TRACKS; k++)
        if (!cache->tmax_done[clip->tracks[k].input_accessor])
            prefetch_times(&clip->tracks[k]);
    for (uint32_t k = 0; k < n; k++) {
        if (k + PREFETCH_TRACKS < n &&
            !cache->tmax_done[clip->tracks[k + PREFETCH_TRACKS].input_accessor])
            prefetch_times(&clip->tracks[k + PREFETCH_TRACKS]);
        const anim_track *t = &clip->tracks[k];
        double tmax = max_key_time(cache, t->input_accessor, t->times, t->key_count);
        if (tmax > clip->duration_s)
            clip->duration_s = tmax;
    }
}

/* Every clip's base name (authored, or "animation{i}") and then its
 * unique name (gltf_clip_names.c), before any track is read: the rule looks
 * at later clips too, and messages about a clip's tracks use its name. A
 * name the tree cannot give (not a string) counts as absent here; the clip
 * is refused when its turn comes. */
static int name_all_clips(anim_arena *arena, anim_doc *doc, const anim_json_value *anims,
                          const gltf_scan *scan, anim_error *err)
{
    for (uint32_t a = 0; a < doc->clip_count; a++) {
        anim_clip *clip = &doc->clips[a];
        const char *name = NULL;
        if (scan) {
            const gltf_anim_rec *rec = &scan->anims[a];
            if ((rec->has & AN_NAME) && !(name = anim_arena_strndup(arena, rec->name, rec->name_len)))
                return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        } else {
            const anim_json_value *obj = &anims->u.items[a];
            if (obj->type == ANIM_JSON_OBJECT &&
                gltf_get_string(arena, obj, "name", "animation", &name, NULL))
                name = NULL;
        }
        clip->animation = a;
        clip->has_name = name != NULL;
        clip->base_name = name ? name : anim_arena_printf(arena, "animation%u", a);
        if (!clip->base_name)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    return gltf_name_clips(arena, doc, err);
}

static int build_all_clips(const anim_source *src, anim_arena *arena, anim_doc *doc,
                           const anim_json_value *anims, const gltf_scan *scan,
                           decode_cache *cache, anim_error *err);

/* One channel's sampler, node and path, checked in message order; skip
 * when the target has no node (an extension's target). ctx "" with err
 * NULL is the fast first try; the caller retries with a context. */
static int parse_channel(const anim_json_value *ch, const anim_source *src, const anim_doc *doc,
                         uint32_t sampler_count, const char *ctx, uint32_t *sampler,
                         uint32_t *node, anim_path *path, bool *skip, anim_error *err)
{
    *skip = false;
    if (ch->type != ANIM_JSON_OBJECT)
        return gltf_require_object(ch, ctx, err);
    const anim_json_value *sv = NULL, *target = NULL;
    for (uint32_t i = 0; i < ch->len; i++) {
        const anim_json_member *m = &ch->u.members[i];
        if (KEY_IS(m, "sampler"))
            sv = &m->value;
        else if (KEY_IS(m, "target"))
            target = &m->value;
    }
    if (gltf_value_index(src->json_text, sv, "sampler", ctx, true, sampler_count, "sampler",
                         sampler, err))
        return -1;
    if (!target || target->type != ANIM_JSON_OBJECT)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: missing required \"target\"", ctx);
    const anim_json_value *pv = NULL, *nv = NULL;
    for (uint32_t i = 0; i < target->len; i++) {
        const anim_json_member *m = &target->u.members[i];
        if (KEY_IS(m, "path"))
            pv = &m->value;
        else if (KEY_IS(m, "node"))
            nv = &m->value;
    }
    if (pv && gltf_value_string(pv, "path", ctx, err))
        return -1;
    if (!pv)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: target has no \"path\"", ctx);
    if (!nv) {
        *skip = true;
        return 0;
    }
    uint64_t node64;
    if (gltf_value_u64(src->json_text, nv, "node", ctx, true, 0, &node64, err))
        return -1;
    if (node64 >= doc->node_count)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "malformed animation data: %s: target node %llu does not exist (the file has %u nodes)",
                              ctx, (unsigned long long)node64, doc->node_count);
    *node = (uint32_t)node64;
    if (!parse_path_value(pv, path))
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "malformed animation data: %s: unknown target path \"%.*s\"", ctx,
                              (int)pv->len, pv->u.string);
    return 0;
}

/* Sampler definitions from the scan records: the checks of parse_sampler;
 * false at the first fault (the tree path then reports it). */
static bool samplers_from_scan(const anim_source *src, const gltf_scan *scan,
                               const gltf_anim_rec *r, sampler_def *out)
{
    for (size_t s = 0; s < r->sampler_count; s++) {
        const gltf_sampler_rec *sr = &scan->samplers[r->first_sampler + s];
        if (!(sr->has & SR_INPUT) || !(sr->has & SR_OUTPUT) ||
            sr->input >= src->accessor_count || sr->output >= src->accessor_count)
            return false;
        out[s].input = (uint32_t)sr->input;
        out[s].output = (uint32_t)sr->output;
        out[s].interp = sr->interp ? (anim_interp)(sr->interp - 1) : ANIM_INTERP_LINEAR;
    }
    return true;
}

/* One channel from its scan record: the checks of parse_channel; false at
 * the first fault. */
static bool channel_from_scan(const gltf_channel_rec *cr, const anim_doc *doc,
                              size_t sampler_count, uint32_t *sampler, uint32_t *node,
                              anim_path *path, bool *skip)
{
    *skip = false;
    if (!(cr->has & CR_SAMPLER) || cr->sampler >= sampler_count || !(cr->has & CR_TARGET) ||
        !(cr->has & CR_PATH))
        return false;
    *sampler = (uint32_t)cr->sampler;
    if (!(cr->has & CR_NODE)) {
        *skip = true;
        return true;
    }
    if (cr->node >= doc->node_count)
        return false;
    *node = (uint32_t)cr->node;
    *path = (anim_path)(cr->path - 1);
    return true;
}

int gltf_build_clips(const anim_source *src, anim_arena *arena, anim_doc *doc,
                     const gltf_scan *scan, anim_error *err)
{
    const anim_json_value *anims = NULL;
    const anim_json_value *raw = json_get_raw(src->root, "animations", 10);
    /* The records when the scanner consumed the array; else the tree. */
    if (!scan || !raw || !(raw->flags & ANIM_JSON_F_DEFERRED) || !scan->anims_done ||
        scan->anims_count > GLTF_MAX_ARRAY)
        scan = NULL;
    if (!scan && gltf_get_array(src->root, "animations", "glTF root", &anims, err))
        return -1;
    decode_cache cache = {NULL, NULL, 0,
                          anim_limits_get(&src->limits, ANIM_LIMIT_IMPLICIT_ACCESSOR), NULL, NULL};
    for (uint32_t b = 0; b < src->buffer_count; b++) {
        size_t four;
        if (!anim_size_mul(src->buffers[b].data_length, 4, &four) ||
            !anim_size_add(cache.budget, four, &cache.budget))
            cache.budget = SIZE_MAX;
    }
    size_t n = src->accessor_count ? src->accessor_count : 1;
    cache.floats = calloc(n, sizeof *cache.floats);
    cache.borrowed = calloc(n, sizeof *cache.borrowed);
    cache.tmax = malloc(n * sizeof *cache.tmax);
    cache.tmax_done = calloc(n, sizeof *cache.tmax_done);
    int rc;
    if (!cache.floats || !cache.borrowed || !cache.tmax || !cache.tmax_done) {
        rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    } else {
        rc = build_all_clips(src, arena, doc, anims, scan, &cache, scan ? NULL : err);
        if (scan && rc != 0) {
            /* A fault somewhere: redo everything from the tree, which
             * names it as it always did (decoding restarts, so the
             * decoded-bytes budget trips at the same point). */
            cache.copied = 0;
            memset(cache.floats, 0, n * sizeof *cache.floats);
            rc = gltf_get_array(src->root, "animations", "glTF root", &anims, err);
            if (rc == 0)
                rc = build_all_clips(src, arena, doc, anims, NULL, &cache, err);
        }
    }
    free(cache.floats);
    free(cache.borrowed);
    free(cache.tmax);
    free(cache.tmax_done);
    return rc;
}

/* Every clip, from the tree (anims; scan NULL) or from the scan records.
 * From the records, err is NULL and any fault returns -1 at once: the
 * caller then reruns from the tree for the message. */
static int build_all_clips(const anim_source *src, anim_arena *arena, anim_doc *doc,
                           const anim_json_value *anims, const gltf_scan *scan,
                           decode_cache *cache, anim_error *err)
{
    doc->clip_count = scan ? (uint32_t)scan->anims_count : anims ? (uint32_t)anims->len : 0;
    doc->clips = anim_arena_calloc(arena, doc->clip_count ? doc->clip_count : 1, sizeof *doc->clips);
    if (!doc->clips)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    /* From the records, every clip's tracks come from one table (the
     * channel count is known): one huge-page block instead of thousands of
     * small ones, whose 4 KiB page faults showed in profiles. */
    anim_track *track_pool = NULL;
    if (scan && !(track_pool = gltf_table_calloc(arena, scan->channels_count ? scan->channels_count : 1,
                                                 sizeof *track_pool)))
        return -1;
    if (name_all_clips(arena, doc, anims, scan, err))
        return -1;
    for (uint32_t a = 0; a < doc->clip_count; a++) {
        anim_clip *clip = &doc->clips[a];
        const anim_json_value *channels = NULL, *samplers = NULL;
        const gltf_anim_rec *rec = NULL;
        size_t sc, cc;
        if (scan) {
            rec = &scan->anims[a];
            if (!(rec->has & AN_CHANNELS) || !(rec->has & AN_SAMPLERS) ||
                rec->channel_count > GLTF_MAX_ARRAY || rec->sampler_count > GLTF_MAX_ARRAY)
                return -1;
            sc = rec->sampler_count;
            cc = rec->channel_count;
        } else {
            const anim_json_value *obj = &anims->u.items[a];
            const anim_json_value *name;
            char ctx[48];
            snprintf(ctx, sizeof ctx, "animation %u", a);
            if (gltf_require_object(obj, ctx, err) ||
                gltf_get_string_value(obj, "name", ctx, &name, err) ||
                gltf_get_array(obj, "channels", ctx, &channels, err) ||
                gltf_get_array(obj, "samplers", ctx, &samplers, err))
                return -1;
            if (!channels || !samplers)
                return anim_error_set(err, ANIM_ERR_INVALID, "%s: missing required \"%s\"", ctx,
                                      channels ? "samplers" : "channels");
            sc = samplers->len;
            cc = channels->len;
        }
        sampler_def *defs = anim_arena_calloc(arena, sc ? sc : 1, sizeof *defs);
        clip->tracks = rec ? track_pool + rec->first_channel
                           : anim_arena_calloc(arena, cc ? cc : 1, sizeof *clip->tracks);
        /* morph_tracks: allocated at the first weights channel. */
        if (!defs || !clip->tracks)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        if (rec ? !samplers_from_scan(src, scan, rec, defs)
                : parse_samplers(samplers, src, a, defs, err) != 0)
            return -1;
        for (uint32_t c = 0; c < cc; c++) {
            uint32_t sampler = 0, node = 0;
            anim_path path = ANIM_PATH_TRANSLATION;
            bool skip;
            if (rec) {
                if (!channel_from_scan(&scan->channels[rec->first_channel + c], doc, sc, &sampler,
                                       &node, &path, &skip))
                    return -1;
            } else {
                const anim_json_value *ch = &channels->u.items[c];
                if (parse_channel(ch, src, doc, (uint32_t)sc, "", &sampler, &node, &path, &skip,
                                  NULL)) {
                    char cctx[64];
                    anim_ctx(cctx, sizeof cctx, a, " channel ", c);
                    if (parse_channel(ch, src, doc, (uint32_t)sc, cctx, &sampler, &node, &path,
                                      &skip, err))
                        return -1;
                }
            }
            if (skip)
                continue; /* targets something an extension defines; not a bone */
            if (!clip->morph_tracks && path == ANIM_PATH_WEIGHTS) {
                clip->morph_tracks = anim_arena_calloc(arena, cc, sizeof *clip->morph_tracks);
                if (!clip->morph_tracks)
                    return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
            }
            anim_track *t = path == ANIM_PATH_WEIGHTS ? &clip->morph_tracks[clip->morph_track_count]
                                                      : &clip->tracks[clip->track_count];
            if (build_track(src, arena, doc, clip, a, c, sampler, &defs[sampler], node, path,
                            cache, t, err))
                return -1;
            if (path == ANIM_PATH_WEIGHTS) {
                clip->morph_track_count++;
                continue;
            }
            clip->track_count++;
            if (t->key_count > clip->max_keys)
                clip->max_keys = t->key_count;
        }
        clip_duration(clip, cache);
    }
    return 0;
}
