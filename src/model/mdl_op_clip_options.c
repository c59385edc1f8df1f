/* The clip_options operation: attaches authored metadata to an existing
 * clip (interpolation, a root-motion flag, timed events with payloads and
 * keyed morph-target weights), replacing whatever options it had. The
 * options are built and checked whole before the clip is touched, and
 * every time must fit the clip's duration (its latest key), so a game
 * never meets an event it can never reach. */
#include <stdlib.h>
#include <string.h>

#include "model/mdl_clip_time.h"
#include "model/mdl_ops.h"

static const char *const interpolations[] = {"linear", "step", "cubic", NULL};

static const mdl_field event_fields[] = {
    {.name = "time", .type = MDL_F_NUMBER, .required = true, .min = 0, .max = 1e9,
     .description = "seconds, 0 to the clip's duration, non-decreasing across events"},
    {.name = "name", .type = MDL_F_NAME, .required = true, .description = "event name"},
    {.name = "payload", .type = MDL_F_STRING, .required = false,
     .description = "application data, at most 4096 bytes, default empty"},
    {.name = NULL},
};

static const mdl_field morph_key_fields[] = {
    {.name = "time", .type = MDL_F_NUMBER, .required = true, .min = 0, .max = 1e9,
     .description = "seconds, strictly increasing, 0 to the clip's duration"},
    {.name = "weight", .type = MDL_F_NUMBER, .required = true, .min = -2, .max = 2,
     .description = "morph target influence, -2 to 2"},
    {.name = NULL},
};

static const mdl_field morph_track_fields[] = {
    {.name = "morph", .type = MDL_F_NAME, .required = true,
     .description = "an existing morph target, once per clip"},
    {.name = "keys", .type = MDL_F_OBJECTS, .required = true, .min_items = 1,
     .max_items = MDL_CLIP_KEYS_MAX, .fields = morph_key_fields,
     .description = "1-65536 keys {time, weight}"},
    {.name = NULL},
};

static const mdl_field clip_options_fields[] = {
    {.name = "name", .type = MDL_F_NAME, .required = true, .description = "an existing clip"},
    {.name = "interpolation", .type = MDL_F_ENUM, .required = false, .choices = interpolations,
     .description = "linear (default), step, or cubic (smoothstep easing between keys)"},
    {.name = "root_motion", .type = MDL_F_BOOL, .required = false,
     .description = "the root joint's motion drives the character, default false"},
    {.name = "events", .type = MDL_F_OBJECTS, .required = false, .fields = event_fields,
     .description = "at most 1024 events {time, name, payload?} in time order"},
    {.name = "morph_keys", .type = MDL_F_OBJECTS, .required = false,
     .max_items = MDL_MORPHS_MAX, .fields = morph_track_fields,
     .description = "keyed morph weights [{morph, keys}], each target at most once"},
    {.name = NULL},
};

static mdl_interp interp_of(const anim_json_value *v)
{
    if (v && anim_json_string_eq(v, "step"))
        return MDL_INTERP_STEP;
    if (v && anim_json_string_eq(v, "cubic"))
        return MDL_INTERP_CUBIC;
    return MDL_INTERP_LINEAR;
}

static int read_events(mdl_ctx *ctx, const anim_json_value *list, mdl_clip *o)
{
    size_t n = anim_json_count(list);
    if (n > MDL_EVENTS_MAX)
        return mdl_refuse(ctx, "limit_exceeded",
                          "field \"events\": %zu events, a clip holds at most %d", n,
                          MDL_EVENTS_MAX);
    if (mdl_spend(ctx, n))
        return -1;
    if (!n)
        return 0;
    o->events = calloc(n, sizeof *o->events);
    if (!o->events)
        return mdl_nomem(ctx);
    for (size_t i = 0; i < n; i++) {
        const anim_json_value *it = anim_json_item(list, i);
        const anim_json_value *pay = mdl_field_get(it, "payload");
        size_t len = pay ? anim_json_string_len(pay) : 0;
        mdl_event *e = &o->events[i];
        e->time = mdl_field_f64(it, "time", 0);
        if (i && e->time < o->events[i - 1].time)
            return mdl_refuse(ctx, "invalid_clip",
                              "field \"events[%zu].time\": %.17g precedes the previous event's "
                              "time %.17g (events are in time order)",
                              i, e->time, o->events[i - 1].time);
        if (len > MDL_EVENT_PAYLOAD_MAX)
            return mdl_refuse(ctx, "limit_exceeded",
                              "field \"events[%zu].payload\": %zu bytes, at most %d", i, len,
                              MDL_EVENT_PAYLOAD_MAX);
        e->name = mdl_field_name(it, "name");
        e->payload = malloc(len + 1);
        o->event_count = i + 1;
        if (!e->name || !e->payload)
            return mdl_nomem(ctx);
        if (len)
            memcpy(e->payload, anim_json_string(pay), len);
        e->payload[len] = '\0';
        e->payload_len = (uint32_t)len;
    }
    return 0;
}

static int cmp_track(const void *a, const void *b)
{
    return strcmp(((const mdl_morph_track *)a)->morph, ((const mdl_morph_track *)b)->morph);
}

static int read_track(mdl_ctx *ctx, size_t i, const anim_json_value *it, mdl_morph_track *t)
{
    const anim_json_value *keys = mdl_field_get(it, "keys");
    size_t n = anim_json_count(keys);
    if (mdl_spend(ctx, 1 + n))
        return -1;
    if (mdl_doc_find_morph(ctx->doc, t->morph) < 0)
        return mdl_refuse(ctx, "unknown_morph",
                          "field \"morph_keys[%zu].morph\": morph target \"%s\" does not exist",
                          i, t->morph);
    t->keys = malloc(n * sizeof *t->keys);
    if (!t->keys)
        return mdl_nomem(ctx);
    t->key_count = n;
    for (size_t k = 0; k < n; k++) {
        const anim_json_value *key = anim_json_item(keys, k);
        t->keys[k].time = mdl_field_f64(key, "time", 0);
        t->keys[k].weight = mdl_field_f64(key, "weight", 0);
        if (k && !(t->keys[k].time > t->keys[k - 1].time))
            return mdl_refuse(ctx, "invalid_clip",
                              "field \"morph_keys[%zu].keys[%zu].time\": %.17g does not follow "
                              "the previous key's time %.17g",
                              i, k, t->keys[k].time, t->keys[k - 1].time);
    }
    return 0;
}

static int read_morph_keys(mdl_ctx *ctx, const anim_json_value *list, mdl_clip *o)
{
    size_t n = anim_json_count(list);
    if (!n)
        return 0;
    o->morph_tracks = calloc(n, sizeof *o->morph_tracks);
    if (!o->morph_tracks)
        return mdl_nomem(ctx);
    for (size_t i = 0; i < n; i++) {
        const anim_json_value *it = anim_json_item(list, i);
        mdl_morph_track *t = &o->morph_tracks[i];
        t->morph = mdl_field_name(it, "morph");
        o->morph_track_count = i + 1;
        if (!t->morph)
            return mdl_nomem(ctx);
        for (size_t k = 0; k < i; k++)
            if (strcmp(o->morph_tracks[k].morph, t->morph) == 0)
                return mdl_refuse(ctx, "invalid_clip",
                                  "field \"morph_keys[%zu].morph\": \"%s\" is already "
                                  "morph_keys[%zu]",
                                  i, t->morph, k);
        if (read_track(ctx, i, it, t))
            return -1;
    }
    if (n)
        qsort(o->morph_tracks, n, sizeof *o->morph_tracks, cmp_track);
    return 0;
}

static int run_clip_options(mdl_ctx *ctx, const anim_json_value *op)
{
    char *name = mdl_field_name(op, "name");
    if (!name)
        return mdl_nomem(ctx);
    ptrdiff_t ci = mdl_doc_find_clip(ctx->doc, name);
    if (ci < 0) {
        int rc = mdl_refuse(ctx, "unknown_clip", "field \"name\": clip \"%s\" does not exist",
                            name);
        free(name);
        return rc;
    }
    free(name);
    /* The options are built in a scratch clip and moved in once whole. */
    mdl_clip opt;
    memset(&opt, 0, sizeof opt);
    opt.name = ctx->doc->clips[ci]->name;
    opt.has_options = true;
    opt.interpolation = interp_of(mdl_field_get(op, "interpolation"));
    opt.root_motion = mdl_field_bool(op, "root_motion", false);
    int rc = mdl_spend(ctx, 1);
    if (rc == 0 && mdl_field_present(op, "events"))
        rc = read_events(ctx, mdl_field_get(op, "events"), &opt);
    if (rc == 0 && mdl_field_present(op, "morph_keys"))
        rc = read_morph_keys(ctx, mdl_field_get(op, "morph_keys"), &opt);
    if (rc == 0)
        rc = mdl_clip_options_fit(ctx, &opt, mdl_clip_duration(ctx->doc->clips[ci]));
    mdl_clip *c = rc == 0 ? mdl_doc_edit_clip(ctx->doc, (size_t)ci) : NULL;
    if (rc == 0 && !c)
        rc = mdl_nomem(ctx);
    if (rc) {
        mdl_clip_clear_options(&opt);
        return rc;
    }
    mdl_clip_clear_options(c);
    c->has_options = true;
    c->interpolation = opt.interpolation;
    c->root_motion = opt.root_motion;
    c->events = opt.events;
    c->event_count = opt.event_count;
    c->morph_tracks = opt.morph_tracks;
    c->morph_track_count = opt.morph_track_count;
    return 0;
}

const mdl_op_def mdl_op_clip_options = {
    .op = "clip_options",
    .mesh_edit = false,
    .fields = clip_options_fields,
    .description = "Attaches interpolation, root motion, events and morph keys to a clip.",
    .run = run_clip_options,
};
