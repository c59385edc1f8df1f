/* The derived-clip operations: bake_clip (a timeline of named poses
 * sampled, constraints solved, into a clip), blend_clip (two clips sampled
 * on one normalized timeline and mixed) and retarget_clip (a clip's channels moved
 * onto other joints through an explicit mapping). Both write ordinary TRS
 * channels, so a derived clip is edited, inspected and compiled like an
 * authored one, and both leave their sources unchanged. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/mdl_ops.h"
#include "model/mdl_clip_time.h"
#include "model/mdl_rig_eval.h"
#include "model/mdl_rig_solve.h"

/* A new clip named name with channel_count zeroed channels. */
static mdl_clip *clip_new(const anim_json_value *op, size_t channel_count)
{
    mdl_clip *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->refs = 1;
    c->name = mdl_field_name(op, "name");
    c->channels = channel_count ? calloc(channel_count, sizeof *c->channels) : NULL;
    if (!c->name || (channel_count && !c->channels)) {
        mdl_clip_release(c);
        return NULL;
    }
    c->channel_count = channel_count;
    return c;
}

/* Stores c (ownership taken), refusing a new name past MDL_CLIPS_MAX. */
static int store_clip(mdl_ctx *ctx, mdl_clip *c)
{
    if (mdl_doc_find_clip(ctx->doc, c->name) < 0 && ctx->doc->clip_count >= MDL_CLIPS_MAX) {
        int rc = mdl_refuse(ctx, "limit_exceeded",
                            "clip \"%s\": the document already holds the most clips (%d)",
                            c->name, MDL_CLIPS_MAX);
        mdl_clip_release(c);
        return rc;
    }
    if (mdl_doc_put_clip(ctx->doc, c)) {
        mdl_clip_release(c);
        return mdl_nomem(ctx);
    }
    return 0;
}

static int source_clip(mdl_ctx *ctx, const anim_json_value *op, const char *field,
                       const mdl_clip **out)
{
    char *name = mdl_field_name(op, field);
    if (!name)
        return mdl_nomem(ctx);
    ptrdiff_t i = mdl_doc_find_clip(ctx->doc, name);
    int rc = 0;
    if (i < 0)
        rc = mdl_refuse(ctx, "unknown_clip", "field \"%s\": clip \"%s\" does not exist", field,
                        name);
    else
        *out = ctx->doc->clips[i];
    free(name);
    return rc;
}

/* Samples k / fps below the duration, then the duration itself (one
 * sample for a zero duration). */
static double sample_count(double dur, int64_t fps)
{
    double lattice = ceil(dur * (double)fps);
    while (lattice > 0 && (lattice - 1) / (double)fps >= dur)
        lattice -= 1;
    while (lattice / (double)fps < dur)
        lattice += 1;
    return lattice + 1;
}

static double sample_time(size_t k, size_t n, double dur, int64_t fps)
{
    return k + 1 == n ? dur : (double)k / (double)fps;
}

static int refuse_samples(mdl_ctx *ctx, double samples, double dur, int64_t fps)
{
    return mdl_refuse(ctx, "limit_exceeded",
                      "field \"fps\": %.0f samples of %.17g s at %lld fps exceed %d keys per "
                      "channel",
                      samples, dur, (long long)fps, MDL_CLIP_KEYS_MAX);
}

/* ---- blend_clip */

static const mdl_field blend_fields[] = {
    {.name = "name", .type = MDL_F_NAME, .required = true,
     .description = "the blended clip, created or replaced"},
    {.name = "a", .type = MDL_F_NAME, .required = true, .description = "first source clip"},
    {.name = "b", .type = MDL_F_NAME, .required = true, .description = "second source clip"},
    {.name = "weight", .type = MDL_F_NUMBER, .required = true, .min = 0, .max = 1,
     .description = "0 gives a, 1 gives b"},
    {.name = "fps", .type = MDL_F_INTEGER, .required = false, .min = 1, .max = 120,
     .description = "samples per second, 1-120; default 30"},
    {.name = NULL},
};

/* Whether clip c animates (joint, path). */
static bool animates(const mdl_clip *c, uint32_t joint, mdl_path path)
{
    for (size_t i = 0; i < c->channel_count; i++)
        if (c->channels[i].joint == joint && c->channels[i].path == path)
            return true;
    return false;
}

static void lanes_of(const mdl_trs *t, mdl_path path, double v[4])
{
    v[3] = 0;
    if (path == MDL_PATH_ROTATION)
        memcpy(v, t->rotation, 4 * sizeof *v);
    else if (path == MDL_PATH_SCALE)
        memcpy(v, t->scale, 3 * sizeof *v);
    else
        memcpy(v, t->translation, 3 * sizeof *v);
}

static int run_blend_clip(mdl_ctx *ctx, const anim_json_value *op)
{
    const mdl_doc *d = ctx->doc;
    const mdl_clip *a = NULL, *b = NULL;
    if (source_clip(ctx, op, "a", &a) || source_clip(ctx, op, "b", &b))
        return -1;
    double w = mdl_field_f64(op, "weight", 0);
    int64_t fps = mdl_field_int(op, "fps", 30);
    double da = mdl_clip_duration(a), db = mdl_clip_duration(b), dur = da > db ? da : db;
    double samples = sample_count(dur, fps);
    if (samples > MDL_CLIP_KEYS_MAX)
        return refuse_samples(ctx, samples, dur, fps);
    size_t n = (size_t)samples;
    /* The channels: every (joint, path) either source animates. */
    size_t ch_n = 0;
    for (uint32_t j = 0; j < d->joint_count; j++)
        for (int p = 0; p < 3; p++)
            ch_n += animates(a, j, (mdl_path)p) || animates(b, j, (mdl_path)p);
    if (mdl_spend(ctx, 1 + (uint64_t)n * (d->joint_count + ch_n)))
        return -1;
    mdl_clip *c = clip_new(op, ch_n);
    mdl_trs *la = malloc((d->joint_count + 1) * sizeof *la);
    mdl_trs *lb = malloc((d->joint_count + 1) * sizeof *lb);
    int rc = 0;
    if (!c || !la || !lb)
        goto nomem;
    size_t at = 0;
    for (uint32_t j = 0; j < d->joint_count; j++)
        for (int p = 0; p < 3; p++)
            if (animates(a, j, (mdl_path)p) || animates(b, j, (mdl_path)p)) {
                mdl_channel *ch = &c->channels[at++];
                ch->joint = j;
                ch->path = (mdl_path)p;
                ch->keys = malloc(n * sizeof *ch->keys);
                if (!ch->keys)
                    goto nomem;
                ch->key_count = n;
            }
    for (size_t k = 0; k < n; k++) {
        double t = sample_time(k, n, dur, fps);
        mdl_rig_clip_locals(d, a, dur > 0 ? t * da / dur : 0, la);
        mdl_rig_clip_locals(d, b, dur > 0 ? t * db / dur : 0, lb);
        for (size_t i = 0; i < ch_n; i++) {
            mdl_channel *ch = &c->channels[i];
            mdl_trs mix;
            mdl_trs_blend(&la[ch->joint], &lb[ch->joint], w, &mix);
            ch->keys[k].time = t;
            lanes_of(&mix, ch->path, ch->keys[k].value);
        }
    }
    free(la);
    free(lb);
    return store_clip(ctx, c);
nomem:
    rc = mdl_nomem(ctx);
    mdl_clip_release(c);
    free(la);
    free(lb);
    return rc;
}

const mdl_op_def mdl_op_blend_clip = {
    .op = "blend_clip",
    .mesh_edit = false,
    .fields = blend_fields,
    .description = "Samples two clips on a timeline normalized to the longer one and blends "
                   "them into a new clip.",
    .run = run_blend_clip,
};

/* ---- retarget_clip */

static const mdl_field map_fields[] = {
    {.name = "source", .type = MDL_F_INTEGER, .required = true, .min = 0, .max = 2147483647.0,
     .description = "a joint ordinal the source clip animates; unique"},
    {.name = "target", .type = MDL_F_INTEGER, .required = true, .min = 0, .max = 2147483647.0,
     .description = "an existing joint ordinal; unique"},
    {.name = NULL},
};

static const mdl_field retarget_fields[] = {
    {.name = "name", .type = MDL_F_NAME, .required = true,
     .description = "the retargeted clip, created or replaced"},
    {.name = "source", .type = MDL_F_NAME, .required = true, .description = "source clip"},
    {.name = "joints", .type = MDL_F_OBJECTS, .required = true, .min_items = 1,
     .max_items = MDL_JOINTS_MAX, .fields = map_fields,
     .description = "rows {source, target} mapping every animated joint"},
    {.name = "translation_scale", .type = MDL_F_NUMBER, .required = false, .min = 0,
     .min_open = true, .max = 1e6,
     .description = "factor on translation keys, positive; default 1"},
    {.name = NULL},
};

static int run_retarget_clip(mdl_ctx *ctx, const anim_json_value *op)
{
    const mdl_doc *d = ctx->doc;
    const mdl_clip *src = NULL;
    if (source_clip(ctx, op, "source", &src))
        return -1;
    const anim_json_value *rows = mdl_field_get(op, "joints");
    size_t n = anim_json_count(rows);
    int64_t from[MDL_JOINTS_MAX], to[MDL_JOINTS_MAX];
    for (size_t i = 0; i < n; i++) {
        const anim_json_value *it = anim_json_item(rows, i);
        from[i] = mdl_field_int(it, "source", -1);
        to[i] = mdl_field_int(it, "target", -1);
        if (to[i] < 0 || (uint64_t)to[i] >= d->joint_count)
            return mdl_refuse(ctx, "unknown_joint",
                              "field \"joints[%zu].target\": joint %lld does not exist (the "
                              "skeleton has %zu joints)",
                              i, (long long)to[i], d->joint_count);
        for (size_t k = 0; k < i; k++) {
            if (from[k] == from[i])
                return mdl_refuse(ctx, "invalid_operation",
                                  "field \"joints[%zu].source\": joint %lld is already "
                                  "joints[%zu]",
                                  i, (long long)from[i], k);
            if (to[k] == to[i])
                return mdl_refuse(ctx, "invalid_operation",
                                  "field \"joints[%zu].target\": joint %lld is already the "
                                  "target of joints[%zu]",
                                  i, (long long)to[i], k);
        }
    }
    uint64_t keys = 0;
    for (size_t i = 0; i < src->channel_count; i++)
        keys += src->channels[i].key_count;
    if (mdl_spend(ctx, 1 + n + src->channel_count * n + keys))
        return -1;
    double scale = mdl_field_f64(op, "translation_scale", 1);
    mdl_clip *c = clip_new(op, src->channel_count);
    if (!c)
        return mdl_nomem(ctx);
    for (size_t i = 0; i < src->channel_count; i++) {
        const mdl_channel *sc = &src->channels[i];
        size_t row = n;
        for (size_t k = 0; k < n && row == n; k++)
            if (from[k] == (int64_t)sc->joint)
                row = k;
        if (row == n) {
            int rc = mdl_refuse(ctx, "unmapped_joint",
                                "field \"joints\": joint %u, animated by clip \"%s\" (channels[%zu]"
                                "), has no row",
                                sc->joint, src->name, i);
            mdl_clip_release(c);
            return rc;
        }
        mdl_channel *ch = &c->channels[i];
        ch->joint = (uint32_t)to[row];
        ch->path = sc->path;
        ch->keys = malloc(sc->key_count * sizeof *ch->keys);
        if (!ch->keys) {
            mdl_clip_release(c);
            return mdl_nomem(ctx);
        }
        ch->key_count = sc->key_count;
        memcpy(ch->keys, sc->keys, sc->key_count * sizeof *ch->keys);
        if (sc->path == MDL_PATH_TRANSLATION)
            for (size_t k = 0; k < ch->key_count; k++)
                for (int l = 0; l < 3; l++)
                    ch->keys[k].value[l] *= scale;
    }
    return store_clip(ctx, c);
}

const mdl_op_def mdl_op_retarget_clip = {
    .op = "retarget_clip",
    .mesh_edit = false,
    .fields = retarget_fields,
    .description = "Copies a clip onto other joints through an explicit joint mapping, scaling "
                   "translations.",
    .run = run_retarget_clip,
};

/* ---- bake_clip */

static const mdl_field bake_key_fields[] = {
    {.name = "time", .type = MDL_F_NUMBER, .required = true, .min = 0, .max = 1e9,
     .description = "seconds; the first is 0, then strictly increasing"},
    {.name = "pose", .type = MDL_F_NAME, .required = true, .description = "an existing pose"},
    {.name = NULL},
};

static const mdl_field bake_fields[] = {
    {.name = "name", .type = MDL_F_NAME, .required = true,
     .description = "the baked clip, created or replaced"},
    {.name = "poses", .type = MDL_F_OBJECTS, .required = true, .min_items = 2,
     .max_items = MDL_CLIP_KEYS_MAX, .fields = bake_key_fields,
     .description = "at least two pose keys {time, pose}"},
    {.name = "fps", .type = MDL_F_INTEGER, .required = false, .min = 1, .max = 120,
     .description = "samples per second, 1-120; default 30"},
    {.name = "solve_constraints", .type = MDL_F_BOOL, .required = false,
     .description = "apply the enabled constraints at every sample; default true"},
    {.name = NULL},
};

typedef struct bake_keys {
    const mdl_pose **poses;
    double *times;
    size_t count;
    bool solve;
} bake_keys;

/* The locals at time t: the two surrounding pose keys blended. */
static int bake_sample(mdl_ctx *ctx, const bake_keys *bk, double t, mdl_trs *out, mdl_trs *tmp)
{
    const mdl_doc *d = ctx->doc;
    size_t k = 0;
    while (k + 2 < bk->count && bk->times[k + 1] <= t)
        k++;
    double u = (t - bk->times[k]) / (bk->times[k + 1] - bk->times[k]);
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    mdl_rig_pose_locals(d, bk->poses[k], out);
    mdl_rig_pose_locals(d, bk->poses[k + 1], tmp);
    for (size_t j = 0; j < d->joint_count; j++)
        mdl_trs_blend(&out[j], &tmp[j], u, &out[j]);
    if (!bk->solve)
        return 0;
    char what[64];
    snprintf(what, sizeof what, "sample at %.17g s", t);
    return mdl_solve_constraints(ctx, out, NULL, what);
}

static bool differs(const mdl_trs *t, const mdl_trs *rest, mdl_path p)
{
    const double *a = p == MDL_PATH_ROTATION ? t->rotation
                      : p == MDL_PATH_SCALE  ? t->scale
                                             : t->translation;
    const double *b = p == MDL_PATH_ROTATION ? rest->rotation
                      : p == MDL_PATH_SCALE  ? rest->scale
                                             : rest->translation;
    for (int k = 0; k < (p == MDL_PATH_ROTATION ? 4 : 3); k++)
        if (a[k] != b[k])
            return true;
    return false;
}

static int read_bake_keys(mdl_ctx *ctx, const anim_json_value *op, bake_keys *bk)
{
    const anim_json_value *rows = mdl_field_get(op, "poses");
    for (size_t i = 0; i < bk->count; i++) {
        const anim_json_value *it = anim_json_item(rows, i);
        bk->times[i] = mdl_field_f64(it, "time", 0);
        if (i == 0 && bk->times[0] != 0)
            return mdl_refuse(ctx, "invalid_clip",
                              "field \"poses[0].time\": %.17g (the first pose key is at 0)",
                              bk->times[0]);
        if (i > 0 && !(bk->times[i] > bk->times[i - 1]))
            return mdl_refuse(ctx, "invalid_clip",
                              "field \"poses[%zu].time\": %.17g does not follow %.17g", i,
                              bk->times[i], bk->times[i - 1]);
        const anim_json_value *pn = mdl_field_get(it, "pose");
        char *name = mdl_field_name(it, "pose");
        if (!name)
            return mdl_nomem(ctx);
        ptrdiff_t pi = mdl_doc_find_pose(ctx->doc, name);
        free(name);
        if (pi < 0)
            return mdl_refuse(ctx, "unknown_pose",
                              "field \"poses[%zu].pose\": pose \"%s\" does not exist", i,
                              anim_json_string(pn));
        bk->poses[i] = ctx->doc->poses[pi];
    }
    return 0;
}

static int run_bake_clip(mdl_ctx *ctx, const anim_json_value *op)
{
    const mdl_doc *d = ctx->doc;
    size_t jn = d->joint_count;
    bake_keys bk = {0};
    bk.count = anim_json_count(mdl_field_get(op, "poses"));
    bk.solve = mdl_field_bool(op, "solve_constraints", true);
    int64_t fps = mdl_field_int(op, "fps", 30);
    bk.poses = malloc(bk.count * sizeof *bk.poses);
    bk.times = malloc(bk.count * sizeof *bk.times);
    mdl_trs *cur = malloc((jn + 1) * sizeof *cur), *tmp = malloc((jn + 1) * sizeof *tmp);
    mdl_trs *rest = malloc((jn + 1) * sizeof *rest);
    bool *animated = calloc(jn * 3 + 1, sizeof *animated);
    mdl_clip *c = NULL;
    int rc = 0;
    if (!bk.poses || !bk.times || !cur || !tmp || !rest || !animated) {
        rc = mdl_nomem(ctx);
        goto done;
    }
    if ((rc = read_bake_keys(ctx, op, &bk)) != 0)
        goto done;
    double dur = bk.times[bk.count - 1], samples = sample_count(dur, fps);
    if (samples > MDL_CLIP_KEYS_MAX) {
        rc = refuse_samples(ctx, samples, dur, fps);
        goto done;
    }
    size_t n = (size_t)samples;
    mdl_rig_pose_locals(d, NULL, rest);
    /* Pass one finds the (joint, path) pairs that leave the rest; pass two
     * writes them, so memory stays one sample wide. */
    for (size_t k = 0; k < n && rc == 0; k++) {
        if ((rc = mdl_spend(ctx, 1 + 2 * jn)) != 0 ||
            (rc = bake_sample(ctx, &bk, sample_time(k, n, dur, fps), cur, tmp)) != 0)
            break;
        for (size_t j = 0; j < jn; j++)
            for (int p = 0; p < 3; p++)
                animated[j * 3 + p] |= differs(&cur[j], &rest[j], (mdl_path)p);
    }
    if (rc)
        goto done;
    size_t ch_n = 0;
    for (size_t i = 0; i < jn * 3; i++)
        ch_n += animated[i];
    if (ch_n == 0) {
        rc = mdl_refuse(ctx, "invalid_clip",
                        "clip \"%s\": every sample equals the rest pose, so no channel "
                        "would be written",
                        anim_json_string(mdl_field_get(op, "name")));
        goto done;
    }
    c = clip_new(op, ch_n);
    if (!c) {
        rc = mdl_nomem(ctx);
        goto done;
    }
    size_t at = 0;
    for (size_t i = 0; i < jn * 3; i++)
        if (animated[i]) {
            mdl_channel *ch = &c->channels[at++];
            ch->joint = (uint32_t)(i / 3);
            ch->path = (mdl_path)(i % 3);
            ch->keys = malloc(n * sizeof *ch->keys);
            if (!ch->keys) {
                rc = mdl_nomem(ctx);
                goto done;
            }
            ch->key_count = n;
        }
    for (size_t k = 0; k < n && rc == 0; k++) {
        double t = sample_time(k, n, dur, fps);
        if ((rc = mdl_spend(ctx, 1 + jn + ch_n)) != 0 ||
            (rc = bake_sample(ctx, &bk, t, cur, tmp)) != 0)
            break;
        for (size_t i = 0; i < ch_n; i++) {
            mdl_channel *ch = &c->channels[i];
            ch->keys[k].time = t;
            lanes_of(&cur[ch->joint], ch->path, ch->keys[k].value);
        }
    }
    if (rc == 0) {
        rc = store_clip(ctx, c);
        c = NULL;
    }
done:
    mdl_clip_release(c);
    free(bk.poses);
    free(bk.times);
    free(cur);
    free(tmp);
    free(rest);
    free(animated);
    return rc;
}

const mdl_op_def mdl_op_bake_clip = {
    .op = "bake_clip",
    .mesh_edit = false,
    .fields = bake_fields,
    .description = "Samples a timeline of named poses (constraints solved) into a clip of TRS "
                   "channels.",
    .run = run_bake_clip,
};
