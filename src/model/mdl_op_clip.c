/* The clip operations: clip (define or replace a named clip of joint
 * channels, each a list of four-lane keys) and delete_clip. A clip is
 * checked whole before it replaces anything: existing joints, strictly
 * increasing times, unit rotation keys, xyz0 translation and scale keys
 * with nonzero scales, and each (joint, path) animated at most once. A
 * replaced clip's options carry over while they fit the new keys. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/mdl_clip_time.h"
#include "model/mdl_ops.h"

#define ROTATION_UNIT_TOLERANCE 1e-6

static const mdl_field key_fields[] = {
    {.name = "time", .type = MDL_F_NUMBER, .required = true, .min = 0, .max = 1e9,
     .description = "seconds, 0 to 1e9, strictly increasing within the channel"},
    {.name = "value", .type = MDL_F_VEC4, .required = true,
     .description = "xyz0 for translation/scale, unit xyzw quaternion for rotation"},
    {.name = NULL},
};

static const mdl_field channel_fields[] = {
    {.name = "joint", .type = MDL_F_INTEGER, .required = true, .min = 0, .max = 2147483647.0,
     .description = "an existing joint ordinal"},
    {.name = "path", .type = MDL_F_PATH, .required = true,
     .description = "translation, rotation or scale"},
    {.name = "keys", .type = MDL_F_OBJECTS, .required = true, .min_items = 1,
     .max_items = MDL_CLIP_KEYS_MAX, .fields = key_fields, .description = "1-65536 keys"},
    {.name = NULL},
};

static const mdl_field clip_fields[] = {
    {.name = "name", .type = MDL_F_NAME, .required = true, .description = "clip name"},
    {.name = "channels", .type = MDL_F_OBJECTS, .required = true, .min_items = 1,
     .max_items = MDL_CLIP_CHANNELS_MAX, .fields = channel_fields,
     .description = "1-1024 channels {joint, path, keys}"},
    {.name = NULL},
};

static mdl_path path_of(const anim_json_value *v)
{
    if (anim_json_string_eq(v, "rotation"))
        return MDL_PATH_ROTATION;
    if (anim_json_string_eq(v, "scale"))
        return MDL_PATH_SCALE;
    return MDL_PATH_TRANSLATION;
}

static const char *path_name(mdl_path p)
{
    return p == MDL_PATH_ROTATION ? "rotation" : p == MDL_PATH_SCALE ? "scale" : "translation";
}

/* One key's value against its path; NULL when acceptable. */
static const char *bad_value(mdl_path p, const double v[4])
{
    if (p == MDL_PATH_ROTATION) {
        double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
        return fabs(1 - len) <= ROTATION_UNIT_TOLERANCE ? NULL
                                                        : "is not a unit quaternion";
    }
    if (v[3] != 0)
        return "must have 0 as its fourth lane";
    if (p == MDL_PATH_SCALE && (v[0] == 0 || v[1] == 0 || v[2] == 0))
        return "has a zero scale lane";
    return NULL;
}

static int fill_channel(mdl_ctx *ctx, const char *clip, size_t ci, const anim_json_value *ch,
                        mdl_channel *out)
{
    const anim_json_value *keys = mdl_field_get(ch, "keys");
    size_t n = anim_json_count(keys);
    out->keys = malloc(n * sizeof *out->keys);
    if (!out->keys)
        return mdl_nomem(ctx);
    out->key_count = n;
    for (size_t k = 0; k < n; k++) {
        const anim_json_value *key = anim_json_item(keys, k);
        mdl_key *dst = &out->keys[k];
        dst->time = mdl_field_f64(key, "time", 0);
        mdl_field_vec(key, "value", dst->value, 4);
        if (k && !(dst->time > out->keys[k - 1].time))
            return mdl_refuse(ctx, "invalid_clip",
                              "clip \"%s\" field \"channels[%zu].keys[%zu].time\": %.17g does "
                              "not follow the previous key's time %.17g",
                              clip, ci, k, dst->time, out->keys[k - 1].time);
        const char *why = bad_value(out->path, dst->value);
        if (why)
            return mdl_refuse(ctx, "invalid_clip",
                              "clip \"%s\" field \"channels[%zu].keys[%zu].value\": a %s key %s",
                              clip, ci, k, path_name(out->path), why);
    }
    return 0;
}

/* A clip replacing one with options keeps them (a re-keyed walk keeps its
 * footstep events) when every option time fits the new duration; an
 * option the new keys no longer reach is refused, not dropped. */
static int keep_options(mdl_ctx *ctx, mdl_clip *c)
{
    ptrdiff_t i = mdl_doc_find_clip(ctx->doc, c->name);
    if (i < 0 || !ctx->doc->clips[i]->has_options)
        return 0;
    const mdl_clip *old = ctx->doc->clips[i];
    if (mdl_clip_options_fit(ctx, old, mdl_clip_duration(c)))
        return -1;
    mdl_clip *copy = mdl_clip_clone(old);
    if (!copy)
        return mdl_nomem(ctx);
    c->has_options = true;
    c->interpolation = copy->interpolation;
    c->root_motion = copy->root_motion;
    c->events = copy->events;
    c->event_count = copy->event_count;
    c->morph_tracks = copy->morph_tracks;
    c->morph_track_count = copy->morph_track_count;
    copy->events = NULL;
    copy->event_count = 0;
    copy->morph_tracks = NULL;
    copy->morph_track_count = 0;
    mdl_clip_release(copy);
    return 0;
}

static int run_clip(mdl_ctx *ctx, const anim_json_value *op)
{
    const mdl_doc *d = ctx->doc;
    const anim_json_value *chs = mdl_field_get(op, "channels");
    size_t n = anim_json_count(chs);
    uint64_t keys = 0;
    for (size_t i = 0; i < n; i++)
        keys += anim_json_count(mdl_field_get(anim_json_item(chs, i), "keys"));
    if (mdl_spend(ctx, 1 + n + keys))
        return -1;
    mdl_clip *c = calloc(1, sizeof *c);
    if (!c)
        return mdl_nomem(ctx);
    c->refs = 1;
    c->name = mdl_field_name(op, "name");
    c->channels = calloc(n, sizeof *c->channels);
    if (!c->name || !c->channels) {
        mdl_clip_release(c);
        return mdl_nomem(ctx);
    }
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const anim_json_value *ch = anim_json_item(chs, i);
        int64_t j = mdl_field_int(ch, "joint", -1);
        mdl_channel *dst = &c->channels[i];
        c->channel_count = i + 1;
        dst->path = path_of(mdl_field_get(ch, "path"));
        if (j < 0 || (uint64_t)j >= d->joint_count) {
            rc = mdl_refuse(ctx, "unknown_joint",
                            "clip \"%s\" field \"channels[%zu].joint\": joint %lld does not "
                            "exist (the skeleton has %zu joints)",
                            c->name, i, (long long)j, d->joint_count);
            break;
        }
        dst->joint = (uint32_t)j;
        for (size_t k = 0; k < i; k++)
            if (c->channels[k].joint == dst->joint && c->channels[k].path == dst->path) {
                rc = mdl_refuse(ctx, "invalid_clip",
                                "clip \"%s\" field \"channels[%zu]\": joint %u %s is already "
                                "channels[%zu]",
                                c->name, i, dst->joint, path_name(dst->path), k);
                break;
            }
        if (rc == 0)
            rc = fill_channel(ctx, c->name, i, ch, dst);
    }
    if (rc == 0 && mdl_doc_find_clip(d, c->name) < 0 && d->clip_count >= MDL_CLIPS_MAX)
        rc = mdl_refuse(ctx, "limit_exceeded",
                        "clip \"%s\": the document already holds the most clips (%d)", c->name,
                        MDL_CLIPS_MAX);
    if (rc == 0)
        rc = keep_options(ctx, c);
    if (rc == 0 && mdl_doc_put_clip(ctx->doc, c))
        rc = mdl_nomem(ctx);
    else if (rc == 0)
        return 0;
    mdl_clip_release(c);
    return rc;
}

const mdl_op_def mdl_op_clip = {
    .op = "clip",
    .mesh_edit = false,
    .fields = clip_fields,
    .description = "Defines or replaces a named clip of joint translation/rotation/scale keys.",
    .run = run_clip,
};

/* ---- delete_clip */

static const mdl_field delete_clip_fields[] = {
    {.name = "name", .type = MDL_F_NAME, .required = true, .description = "clip name"},
    {.name = NULL},
};

static int run_delete_clip(mdl_ctx *ctx, const anim_json_value *op)
{
    char *name = mdl_field_name(op, "name");
    if (!name)
        return mdl_nomem(ctx);
    int rc = mdl_spend(ctx, 1);
    if (rc == 0 && mdl_doc_delete_clip(ctx->doc, name))
        rc = mdl_refuse(ctx, "unknown_clip", "field \"name\": clip \"%s\" does not exist", name);
    free(name);
    return rc;
}

const mdl_op_def mdl_op_delete_clip = {
    .op = "delete_clip",
    .mesh_edit = false,
    .fields = delete_clip_fields,
    .description = "Deletes the named clip.",
    .run = run_delete_clip,
};
