/* `mesh-quality residual INPUT.json`: the flat (2-D) request. Every field
 * is validated before any work, in the order the request is documented
 * (a malformed one is refused REDUCE_INPUT_MISSING naming its path), then
 * the samples are built (art pixel centres in row order, then the source
 * hull's UVs), the residual measured, and the mesh-quality-report/1
 * document written. Nothing has a default. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/json.h"
#include "animsmith/json_write.h"
#include "animsmith/text.h"
#include "meshq/mq_flat_input.h"

/* The measurement's own budget for its working memory (UV index). */
#define FLAT_MAX_BYTES ((size_t)1 << 30)

typedef struct flat_mesh {
    anim_mq_mesh mesh;
    double *points, *uvs;
    uint32_t *triangles, *bind_start;
    anim_mq_bind *binds;
} flat_mesh;

typedef struct flat_request {
    const char *who;
    double frame[2];
    uint32_t art_w, art_h;
    const anim_json_value *alpha;
    double threshold;
    uint64_t min_art;
    flat_mesh candidate, source;
    bool has_skinning;
    const char *source_id;
    const anim_json_value *envelope_json, *deform_json;
    anim_mq_envelope envelope;
    bool has_bound;
    double bound;
    const char *deform_refusal;
} flat_request;

static const anim_json_value *get(const anim_json_value *obj, const char *key)
{
    return obj && obj->type == ANIM_JSON_OBJECT ? anim_json_get(obj, key) : NULL;
}

static bool is_object(const anim_json_value *v) { return v && v->type == ANIM_JSON_OBJECT; }
static bool is_array(const anim_json_value *v) { return v && v->type == ANIM_JSON_ARRAY; }

static int read_mesh(mq_flat_reader *rd, const anim_json_value *m, const char *at, flat_mesh *out)
{
    const anim_json_value *points = get(m, "points"), *uvs = get(m, "uvs");
    const anim_json_value *tris = get(m, "triangles");
    if (!is_object(m) || !is_array(points) || !is_array(uvs) || !is_array(tris))
        return mq_flat_refuse(rd, "%s is not { points, uvs, triangles, hull, weights } with three "
                                  "arrays; required a SourceMesh", at);
    size_t n = anim_json_count(points);
    if (n > UINT32_MAX / 4)
        return mq_flat_refuse(rd, "%s.points holds %zu points; required fewer than %u", at, n,
                              UINT32_MAX / 4);
    out->points = anim_arena_alloc(rd->arena, (n ? n : 1) * 2 * sizeof(double));
    out->uvs = anim_arena_alloc(rd->arena, (n ? n : 1) * 2 * sizeof(double));
    if (!out->points || !out->uvs)
        goto nomem;
    for (size_t i = 0; i < n; i++) {
        const anim_json_value *p = anim_json_item(points, i);
        if (!mq_flat_is_point(p, 2))
            return mq_flat_refuse(rd, "%s.points[%zu] is %s; required a pair of finite numbers", at,
                                  i, mq_flat_shown(rd, p));
        out->points[2 * i] = anim_json_number(anim_json_item(p, 0));
        out->points[2 * i + 1] = anim_json_number(anim_json_item(p, 1));
    }
    bool uvs_ok = anim_json_count(uvs) == 2 * n;
    for (size_t i = 0; uvs_ok && i < 2 * n; i++) {
        const anim_json_value *u = anim_json_item(uvs, i);
        uvs_ok = mq_flat_is_number(u);
        if (uvs_ok)
            out->uvs[i] = anim_json_number(u);
    }
    if (!uvs_ok)
        return mq_flat_refuse(rd, "%s.uvs holds %zu numbers for %zu points; required one finite u, "
                                  "v pair per point (%zu)", at, anim_json_count(uvs), n, 2 * n);
    size_t tn = anim_json_count(tris);
    bool tris_ok = tn % 3 == 0 && tn / 3 <= UINT32_MAX / 4;
    out->triangles = anim_arena_alloc(rd->arena, (tn ? tn : 1) * sizeof(uint32_t));
    if (!out->triangles)
        goto nomem;
    for (size_t i = 0; tris_ok && i < tn; i++) {
        const anim_json_value *t = anim_json_item(tris, i);
        double x = mq_flat_is_whole(t) ? anim_json_number(t) : -1;
        tris_ok = x >= 0 && x < (double)n;
        if (tris_ok)
            out->triangles[i] = (uint32_t)x;
    }
    if (!tris_ok)
        return mq_flat_refuse(rd, "%s.triangles is not a list of vertex index triples into %zu "
                                  "points; required that", at, n);
    const anim_json_value *hull = get(m, "hull");
    double h = mq_flat_is_whole(hull) ? anim_json_number(hull) : -1;
    if (h < 3 || h > (double)n)
        return mq_flat_refuse(rd, "%s.hull is %s; required the whole number of hull vertices, 3 to "
                                  "%zu", at, mq_flat_shown(rd, hull), n);
    const anim_json_value *weights = get(m, "weights");
    out->mesh = (anim_mq_mesh){.dim = 2, .vertex_count = (uint32_t)n, .points = out->points,
                               .uvs = out->uvs, .triangle_count = (uint32_t)(tn / 3),
                               .triangles = out->triangles, .hull = (uint32_t)h};
    if (weights && weights->type == ANIM_JSON_NULL)
        return 0;
    if (!is_array(weights) || anim_json_count(weights) != n)
        return mq_flat_refuse(rd, "%s.weights is not one binding list per point (%zu); required "
                                  "that, or null for an unweighted mesh", at, n);
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        const anim_json_value *vw = anim_json_item(weights, i);
        bool ok = is_array(vw);
        for (size_t b = 0; ok && b < anim_json_count(vw); b++) {
            const anim_json_value *e = anim_json_item(vw, b);
            const anim_json_value *w = get(e, "weight");
            ok = is_object(e) && mq_flat_name(rd, get(e, "bone")) && mq_flat_is_number(w) &&
                 anim_json_number(w) >= 0;
        }
        if (!ok)
            return mq_flat_refuse(rd, "%s.weights[%zu] is not a list of { bone, weight } with "
                                      "finite shares, 0 or more; required that", at, i);
        total += anim_json_count(vw);
    }
    out->bind_start = anim_arena_alloc(rd->arena, (n + 1) * sizeof(uint32_t));
    out->binds = anim_arena_alloc(rd->arena, (total ? total : 1) * sizeof(anim_mq_bind));
    if (!out->bind_start || !out->binds || total > UINT32_MAX)
        goto nomem;
    uint32_t k = 0;
    for (size_t i = 0; i < n; i++) {
        out->bind_start[i] = k;
        const anim_json_value *vw = anim_json_item(weights, i);
        for (size_t b = 0; b < anim_json_count(vw); b++, k++) {
            const anim_json_value *e = anim_json_item(vw, b);
            uint32_t bone = mq_names_intern(rd, mq_flat_name(rd, get(e, "bone")));
            if (bone == ANIM_MQ_NONE)
                return -1;
            out->binds[k] = (anim_mq_bind){bone, anim_json_number(get(e, "weight"))};
        }
    }
    out->bind_start[n] = k;
    out->mesh.bind_start = out->bind_start;
    out->mesh.binds = out->binds;
    return 0;
nomem:
    return anim_error_set(rd->err, ANIM_ERR_NOMEM, "%s: out of memory reading %s", rd->path, at);
}

static const char *attachment_name(mq_flat_reader *rd, const anim_json_value *a, const char *at,
                                   int *rc)
{
    const anim_json_value *skin = get(a, "skin");
    const char *slot = mq_flat_name(rd, get(a, "slot"));
    const char *att = mq_flat_name(rd, get(a, "attachment"));
    const char *skin_name = skin && skin->type == ANIM_JSON_NULL ? "(no skin)"
                                                                 : mq_flat_name(rd, skin);
    if (!is_object(a) || !slot || !att || !skin_name) {
        *rc = mq_flat_refuse(rd, "%s is %s; required { skin: a name or null, slot, attachment } "
                                 "naming the mesh", at, mq_flat_shown(rd, a));
        return NULL;
    }
    return anim_arena_printf(rd->arena, "%s/%s/%s", skin_name, slot, att);
}

static int read_envelope(mq_flat_reader *rd, const anim_json_value *env, flat_request *rq)
{
    if (!is_object(env) || !is_array(get(env, "bones")))
        return mq_flat_refuse(rd, "skinning.envelope is %s; required { reference, bones: [{ bone, "
                                  "linear, pivot, translation }] }", mq_flat_shown(rd, env));
    const char *reference = mq_flat_name(rd, get(env, "reference"));
    if (!reference)
        return mq_flat_refuse(rd, "skinning.envelope.reference is %s; required a non-empty bone "
                                  "name (the slot's bone)", mq_flat_shown(rd, get(env, "reference")));
    rq->envelope.reference = mq_names_intern(rd, reference);
    if (rq->envelope.reference == ANIM_MQ_NONE)
        return -1;
    const anim_json_value *bones = get(env, "bones");
    size_t n = anim_json_count(bones);
    anim_mq_envelope_bone *out = anim_arena_calloc(rd->arena, n ? n : 1, sizeof *out);
    if (!out)
        return anim_error_set(rd->err, ANIM_ERR_NOMEM, "%s: out of memory", rd->path);
    /* Name every entry up to the first malformed one first, so duplicates
     * are found with one table; the checks then run entry by entry. */
    size_t named = 0;
    for (; named < n; named++) {
        const anim_json_value *e = anim_json_item(bones, named);
        const char *bone = mq_flat_name(rd, get(e, "bone"));
        if (!is_object(e) || !bone)
            break;
        if ((out[named].bone = mq_names_intern(rd, bone)) == ANIM_MQ_NONE)
            return -1;
    }
    uint8_t *seen = calloc(rd->names.count ? rd->names.count : 1, 1);
    if (!seen)
        return anim_error_set(rd->err, ANIM_ERR_NOMEM, "%s: out of memory", rd->path);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const anim_json_value *e = anim_json_item(bones, i);
        if (i == named) {
            rc = mq_flat_refuse(rd, "skinning.envelope.bones[%zu] is %s; required { bone: a "
                                    "non-empty name, linear, pivot, translation }", i,
                                mq_flat_shown(rd, e));
            break;
        }
        uint32_t index = out[i].bone;
        const char *bone = rd->names.names[index];
        const anim_json_value *linear = get(e, "linear"), *pivot = get(e, "pivot");
        const anim_json_value *tr = get(e, "translation");
        if (index == rq->envelope.reference)
            rc = mq_flat_refuse(rd, "skinning.envelope.bones[%zu].bone is \"%s\", the envelope's "
                                    "reference; required every bone but the reference (the "
                                    "reference's own terms are 0 by definition)", i, bone);
        else if (seen[index])
            rc = mq_flat_refuse(rd, "skinning.envelope.bones[%zu].bone \"%s\" is declared twice; "
                                    "required one entry per bone", i, bone);
        else if (!mq_flat_is_number(linear) || anim_json_number(linear) < 0)
            rc = mq_flat_refuse(rd, "skinning.envelope.bones[%zu].linear is %s; required a finite "
                                    "number, 0 or more (dimensionless)", i,
                                mq_flat_shown(rd, linear));
        else if (!mq_flat_is_point(pivot, 2))
            rc = mq_flat_refuse(rd, "skinning.envelope.bones[%zu].pivot is %s; required a pair of "
                                    "finite drawing px", i, mq_flat_shown(rd, pivot));
        else if (!mq_flat_is_number(tr) || anim_json_number(tr) < 0)
            rc = mq_flat_refuse(rd, "skinning.envelope.bones[%zu].translation is %s; required a "
                                    "finite number of drawing px, 0 or more", i,
                                mq_flat_shown(rd, tr));
        if (rc)
            break;
        seen[index] = 1;
        out[i].linear = anim_json_number(linear);
        out[i].pivot[0] = anim_json_number(anim_json_item(pivot, 0));
        out[i].pivot[1] = anim_json_number(anim_json_item(pivot, 1));
        out[i].translation = anim_json_number(tr);
    }
    free(seen);
    if (rc)
        return rc;
    rq->envelope.bones = out;
    rq->envelope.bone_count = (uint32_t)n;
    return 0;
}

static int read_deform(mq_flat_reader *rd, const anim_json_value *deform, flat_request *rq)
{
    if (!is_array(deform))
        return mq_flat_refuse(rd, "skinning.deform is %s; required the deform timelines keyed on "
                                  "the attachment or its linked meshes (empty when none)",
                              mq_flat_shown(rd, deform));
    for (size_t i = 0; i < anim_json_count(deform); i++) {
        const anim_json_value *t = anim_json_item(deform, i);
        const anim_json_value *anim = get(t, "animation"), *keys = get(t, "keys");
        bool ok = is_object(t) && anim && anim->type == ANIM_JSON_STRING &&
                  is_object(get(t, "attachment")) && is_array(keys);
        for (size_t k = 0; ok && k < anim_json_count(keys); k++) {
            const anim_json_value *key = anim_json_item(keys, k);
            const anim_json_value *kind = get(key, "kind");
            ok = is_object(key) && kind && kind->type == ANIM_JSON_STRING;
        }
        if (!ok)
            return mq_flat_refuse(rd, "skinning.deform[%zu] is not { animation, attachment, keys: "
                                      "[{ time, kind }] }; required a deform timeline", i);
        char at[64];
        snprintf(at, sizeof at, "skinning.deform[%zu].attachment", i);
        int rc = 0;
        const char *keyed_on = attachment_name(rd, get(t, "attachment"), at, &rc);
        if (!keyed_on)
            return rc ? rc : -1;
        if (rq->deform_refusal)
            continue; /* the first non-setup key is the one named */
        for (size_t k = 0; k < anim_json_count(keys); k++) {
            const anim_json_value *kind = get(anim_json_item(keys, k), "kind");
            if (anim_json_string_eq(kind, "setup"))
                continue;
            anim_strbuf sb = {0};
            anim_strbuf_printf(&sb, "SKINNING_DEFORM_UNSUPPORTED: %s: skinning.deform names "
                                    "animation ", rq->who);
            char *name = anim_json_strdup(rd->arena, anim);
            char *kind_s = anim_json_strdup(rd->arena, kind);
            mq_put_js_string(&sb, name ? name : "");
            anim_strbuf_printf(&sb, " keyed on %s, whose key %zu is a ", keyed_on, k);
            mq_put_js_string(&sb, kind_s ? kind_s : "");
            anim_strbuf_puts(&sb, " key; required setup keys only \xe2\x80\x94 a vertices or "
                                  "transform deform moves vertices outside skinning, which the "
                                  "envelope does not bound");
            rq->deform_refusal = sb.failed ? NULL : anim_arena_strdup(rd->arena, sb.data);
            anim_strbuf_free(&sb);
            if (!rq->deform_refusal)
                return anim_error_set(rd->err, ANIM_ERR_NOMEM, "%s: out of memory", rd->path);
            break;
        }
    }
    return 0;
}

static int read_skinning(mq_flat_reader *rd, const anim_json_value *sk, flat_request *rq)
{
    if (!is_object(sk))
        return mq_flat_refuse(rd, "skinning is %s; required { source: { id, mesh }, envelope: { "
                                  "reference, bones }, maxResidual, deform }, null, or the field "
                                  "left out", mq_flat_shown(rd, sk));
    const anim_json_value *source = get(sk, "source");
    if (!is_object(source))
        return mq_flat_refuse(rd, "skinning.source is %s; required { id, mesh } (the original "
                                  "supplied mesh and the caller's id for it)",
                              mq_flat_shown(rd, source));
    rq->source_id = mq_flat_name(rd, get(source, "id"));
    if (!rq->source_id)
        return mq_flat_refuse(rd, "skinning.source.id is %s; required a non-empty string naming "
                                  "the source", mq_flat_shown(rd, get(source, "id")));
    if (read_mesh(rd, get(source, "mesh"), "skinning.source.mesh", &rq->source))
        return -1;
    rq->envelope_json = get(sk, "envelope");
    if (read_envelope(rd, rq->envelope_json, rq))
        return -1;
    const anim_json_value *bound = get(sk, "maxResidual");
    if (!bound)
        return mq_flat_refuse(rd, "skinning.maxResidual is missing; required a finite number of "
                                  "drawing px, 0 or more, or null (declared absent: measured, "
                                  "reported undeclared) \xe2\x80\x94 no field has a default");
    if (bound->type != ANIM_JSON_NULL) {
        if (!mq_flat_is_number(bound) || anim_json_number(bound) < 0)
            return mq_flat_refuse(rd, "skinning.maxResidual is %s; required a finite number of "
                                      "drawing px, 0 or more, or null", mq_flat_shown(rd, bound));
        rq->has_bound = true;
        rq->bound = anim_json_number(bound);
    }
    rq->deform_json = get(sk, "deform");
    return read_deform(rd, rq->deform_json, rq);
}

static int read_request(mq_flat_reader *rd, const anim_json_value *root, flat_request *rq)
{
    if (!is_object(root))
        return mq_flat_refuse(rd, "the request is %s; required an object { attachment, frame, art, "
                                  "candidate, skinning }", mq_flat_shown(rd, root));
    int rc = 0;
    const char *name = attachment_name(rd, get(root, "attachment"), "attachment", &rc);
    if (!name)
        return rc ? rc : -1;
    rq->who = anim_arena_printf(rd->arena, "attachment %s", name);
    const anim_json_value *frame = get(root, "frame");
    const anim_json_value *fw = get(frame, "width"), *fh = get(frame, "height");
    if (!is_object(frame) || !mq_flat_is_number(fw) || !mq_flat_is_number(fh) ||
        !(anim_json_number(fw) > 0) || !(anim_json_number(fh) > 0))
        return mq_flat_refuse(rd, "frame is %s; required { width, height } in drawing px, both "
                                  "above 0", mq_flat_shown(rd, frame));
    rq->frame[0] = anim_json_number(fw);
    rq->frame[1] = anim_json_number(fh);
    const anim_json_value *art = get(root, "art");
    const anim_json_value *aw = get(art, "width"), *ah = get(art, "height");
    if (!is_object(art) || !mq_flat_is_whole(aw) || !mq_flat_is_whole(ah) ||
        anim_json_number(aw) < 1 || anim_json_number(ah) < 1 ||
        anim_json_number(aw) * anim_json_number(ah) > (double)UINT32_MAX)
        return mq_flat_refuse(rd, "art is %s; required { width, height, alpha, threshold, "
                                  "minArtSamples } with a whole width and height of 1 or more",
                              mq_flat_shown(rd, art));
    rq->art_w = (uint32_t)anim_json_number(aw);
    rq->art_h = (uint32_t)anim_json_number(ah);
    rq->alpha = get(art, "alpha");
    size_t cells = (size_t)rq->art_w * rq->art_h;
    if (!is_array(rq->alpha) || anim_json_count(rq->alpha) != cells)
        return mq_flat_refuse(rd, "art.alpha is %s; required %zu values in [0, 1], row by row",
                              mq_flat_shown(rd, rq->alpha), cells);
    for (size_t i = 0; i < cells; i++) {
        const anim_json_value *a = anim_json_item(rq->alpha, i);
        if (!mq_flat_is_number(a) || anim_json_number(a) < 0 || anim_json_number(a) > 1)
            return mq_flat_refuse(rd, "art.alpha[%zu] is %s; required a number in [0, 1]", i,
                                  mq_flat_shown(rd, a));
    }
    const anim_json_value *th = get(art, "threshold"), *floor_v = get(art, "minArtSamples");
    if (!mq_flat_is_number(th) || !(anim_json_number(th) > 0) || anim_json_number(th) > 1)
        return mq_flat_refuse(rd, "art.threshold is %s; required a number above 0, at most 1",
                              mq_flat_shown(rd, th));
    rq->threshold = anim_json_number(th);
    if (!mq_flat_is_whole(floor_v) || anim_json_number(floor_v) < 0 ||
        anim_json_number(floor_v) > 9007199254740992.0)
        return mq_flat_refuse(rd, "art.minArtSamples is %s; required a whole number, 0 or more",
                              mq_flat_shown(rd, floor_v));
    rq->min_art = (uint64_t)anim_json_number(floor_v);
    if (read_mesh(rd, get(root, "candidate"), "candidate", &rq->candidate))
        return -1;
    const anim_json_value *sk = get(root, "skinning");
    if (!sk || sk->type == ANIM_JSON_NULL)
        return 0;
    rq->has_skinning = true;
    return read_skinning(rd, sk, rq);
}

/* Art pixel centres at alpha >= threshold in row order, then the source
 * hull's UVs. */
static anim_mq_sample *samples_of(mq_flat_reader *rd, const flat_request *rq, uint64_t *count)
{
    size_t cells = (size_t)rq->art_w * rq->art_h;
    size_t art = 0;
    for (size_t i = 0; i < cells; i++)
        art += anim_json_number(anim_json_item(rq->alpha, i)) >= rq->threshold;
    size_t n = art + rq->source.mesh.hull;
    anim_mq_sample *s = anim_arena_alloc(rd->arena, (n ? n : 1) * sizeof *s);
    if (!s) {
        anim_error_set(rd->err, ANIM_ERR_NOMEM, "%s: out of memory for %zu samples", rd->path, n);
        return NULL;
    }
    size_t k = 0;
    for (uint32_t y = 0; y < rq->art_h; y++)
        for (uint32_t x = 0; x < rq->art_w; x++) {
            if (anim_json_number(anim_json_item(rq->alpha, (size_t)y * rq->art_w + x)) <
                rq->threshold)
                continue;
            s[k++] = (anim_mq_sample){{(x + 0.5) / rq->art_w, (y + 0.5) / rq->art_h},
                                      {(int32_t)x, (int32_t)y}, ANIM_MQ_NONE, 0};
        }
    for (uint32_t v = 0; v < rq->source.mesh.hull; v++)
        s[k++] = (anim_mq_sample){{rq->source.mesh.uvs[2 * v], rq->source.mesh.uvs[2 * v + 1]},
                                  {-1, -1}, v, 0};
    *count = n;
    return s;
}

typedef struct flat_out {
    const anim_mq_sample *samples;
} flat_out;

static void write_at(anim_json_writer *w, const anim_mq_reading *r, void *ctx)
{
    mq_write_sample_at(w, &((const flat_out *)ctx)->samples[r->worst_sample], "pixel");
}

static void write_uncarried(anim_json_writer *w, uint32_t sample, void *ctx)
{
    anim_json_writer_f64_array(w, ((const flat_out *)ctx)->samples[sample].uv, 2);
}

static void write_json(mq_flat_reader *rd, const flat_request *rq, const anim_mq_reading *r,
                       const anim_mq_sample *samples, const char *digest, anim_mq_plant plant,
                       anim_strbuf *out, anim_mq_outcome *outcome)
{
    anim_json_writer w;
    anim_json_writer_init(&w, out, true);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "schema");
    anim_json_writer_string(&w, ANIM_MQ_SCHEMA);
    anim_json_writer_key(&w, "effective");
    anim_json_writer_begin_object(&w);
    if (rq->has_skinning) {
        anim_json_writer_key(&w, "skinning");
        anim_json_writer_begin_object(&w);
        anim_json_writer_key(&w, "source");
        anim_json_writer_begin_object(&w);
        anim_json_writer_key(&w, "id");
        anim_json_writer_string(&w, rq->source_id);
        anim_json_writer_key(&w, "digest");
        anim_json_writer_string(&w, digest);
        anim_json_writer_end_object(&w);
        anim_json_writer_key(&w, "envelope");
        mq_flat_write_value(&w, rq->envelope_json, rd->text);
        anim_json_writer_key(&w, "maxResidual");
        if (rq->has_bound)
            anim_json_writer_f64(&w, rq->bound);
        else
            anim_json_writer_null(&w);
        anim_json_writer_key(&w, "deform");
        mq_flat_write_value(&w, rq->deform_json, rd->text);
        anim_json_writer_end_object(&w);
    } else if (plant == ANIM_MQ_PLANT_ECHO_WHEN_UNSET) {
        anim_json_writer_key(&w, "skinning");
        anim_json_writer_null(&w);
    }
    anim_json_writer_end_object(&w);
    anim_json_writer_key(&w, "rows");
    anim_json_writer_begin_array(&w);
    flat_out ctx = {samples};
    if (rq->has_skinning) {
        anim_json_writer_begin_object(&w);
        anim_json_writer_key(&w, "id");
        anim_json_writer_string(&w, ANIM_MQ_ROW_ID);
        mq_row_args a = {.reading = r, .bone_names = rd->names.names, .envelope = &rq->envelope,
                         .source_id = rq->source_id, .source_digest = digest,
                         .has_bound = rq->has_bound, .bound = rq->bound, .at = write_at,
                         .at_ctx = &ctx, .uncarried = write_uncarried,
                         .uncarried_limit = UINT64_MAX};
        mq_write_row_body(&w, &a, outcome);
        anim_json_writer_end_object(&w);
    } else if (plant == ANIM_MQ_PLANT_ROW_WHEN_UNSET) {
        anim_json_writer_begin_object(&w);
        anim_json_writer_key(&w, "id");
        anim_json_writer_string(&w, ANIM_MQ_ROW_ID);
        anim_json_writer_key(&w, "state");
        anim_json_writer_string(&w, "not-measurable");
        anim_json_writer_key(&w, "reason");
        anim_json_writer_string(&w, "skinning is not set");
        anim_json_writer_end_object(&w);
        outcome->rows++;
        outcome->not_measurable++;
    }
    anim_json_writer_end_array(&w);
    anim_json_writer_end_object(&w);
    anim_strbuf_putc(out, '\n');
}

static void put_num(anim_strbuf *out, double v) { mq_put_js_number(out, anim_mq_r6(v)); }

static void write_text(mq_flat_reader *rd, const flat_request *rq, const anim_mq_reading *r,
                       const anim_mq_sample *samples, const char *digest, anim_strbuf *out,
                       anim_mq_outcome *outcome)
{
    if (!rq->has_skinning) {
        anim_strbuf_printf(out, "%s: no skinning declared; nothing measured\n", rq->who);
        return;
    }
    const char *verdict = mq_count_row(outcome, r, rq->has_bound, rq->bound);
    anim_strbuf_printf(out, "%s %s: ", ANIM_MQ_ROW_ID, rq->who);
    if (r->state != ANIM_MQ_MEASURED) {
        anim_strbuf_printf(out, "%s\n  %s\n",
                           r->state == ANIM_MQ_REFUSED ? "refused" : "not measurable", r->reason);
        return;
    }
    mq_put_js_number(out, r->value);
    anim_strbuf_puts(out, " px");
    if (r->worst_sample != ANIM_MQ_NONE) {
        const anim_mq_sample *s = &samples[r->worst_sample];
        anim_strbuf_puts(out, " (covariance ");
        put_num(out, r->worst_covariance);
        anim_strbuf_puts(out, ", lever ");
        put_num(out, r->worst_lever);
        if (s->vertex == ANIM_MQ_NONE)
            anim_strbuf_printf(out, ") at pixel (%d, %d)", s->pixel[0], s->pixel[1]);
        else
            anim_strbuf_printf(out, ") at source vertex %u", s->vertex);
    }
    if (rq->has_bound) {
        anim_strbuf_puts(out, "; bound ");
        mq_put_js_number(out, rq->bound);
        anim_strbuf_printf(out, " px: %s\n", verdict);
    } else {
        anim_strbuf_puts(out, "; no bound declared\n");
    }
    anim_strbuf_printf(out, "  source \"%s\" %s, reference \"%s\"\n", rq->source_id, digest,
                       rd->names.names[rq->envelope.reference]);
    anim_strbuf_printf(out, "  samples: %llu measured, %llu uncarried by the source, %llu by the "
                            "candidate\n", (unsigned long long)r->measured,
                       (unsigned long long)r->uncarried_source_count,
                       (unsigned long long)r->uncarried_candidate_count);
    if (r->worst_sample != ANIM_MQ_NONE)
        for (uint32_t k = 0; k < rq->envelope.bone_count; k++) {
            anim_strbuf_printf(out, "  bone \"%s\": covariance ",
                               rd->names.names[rq->envelope.bones[k].bone]);
            put_num(out, r->bone_covariance[k]);
            anim_strbuf_puts(out, ", lever ");
            put_num(out, r->bone_lever[k]);
            anim_strbuf_putc(out, '\n');
        }
    anim_strbuf_puts(out, "  weight field: l1 ");
    put_num(out, r->l1);
    anim_strbuf_puts(out, ", lInf ");
    put_num(out, r->linf);
    anim_strbuf_puts(out, " (a diagnostic, not a guard)\n  setup: vertexGap ");
    put_num(out, r->vertex_gap);
    anim_strbuf_puts(out, " (slack ");
    mq_put_js_number(out, r->vertex_slack[0]);
    anim_strbuf_puts(out, ", ");
    mq_put_js_number(out, r->vertex_slack[1]);
    anim_strbuf_puts(out, "), sampleGap ");
    put_num(out, r->sample_gap);
    anim_strbuf_puts(out, " (reported, not in the value), weightSumGap ");
    mq_put_js_number(out, r->weight_sum_gap);
    anim_strbuf_putc(out, '\n');
}

int anim_mq_flat_residual(const char *text, size_t len, const char *path, bool json,
                          anim_mq_plant plant, anim_strbuf *out, anim_mq_outcome *outcome,
                          anim_error *err)
{
    memset(outcome, 0, sizeof *outcome);
    anim_arena *arena = anim_arena_new();
    if (!arena)
        return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", path);
    mq_flat_reader rd = {arena, path, text, err, {0}};
    flat_request rq = {0};
    anim_mq_reading reading = {0};
    anim_mq_sample *samples = NULL;
    char digest[ANIM_MQ_DIGEST_MAX] = "";
    int rc = -1;
    anim_error perr;
    anim_json_value *root = anim_json_parse(arena, text, len, NULL, &perr);
    if (!root) {
        anim_error_set(err, ANIM_ERR_PARSE, "REDUCE_INPUT_MISSING: %s: not JSON: %s", path,
                       perr.message);
        goto done;
    }
    if (read_request(&rd, root, &rq))
        goto done;
    if (rq.has_skinning) {
        uint64_t count = 0;
        if (!(samples = samples_of(&rd, &rq, &count)))
            goto done;
        if (anim_mq_mesh_digest(&rq.source.mesh, rd.names.names, digest, err))
            goto done;
        anim_mq_context ctx = {.who = rq.who, .source_id = rq.source_id,
                               .bone_names = rd.names.names, .bone_name_count = rd.names.count,
                               .envelope = &rq.envelope, .frame = {rq.frame[0], rq.frame[1]},
                               .deform_refusal = rq.deform_refusal, .min_art_samples = rq.min_art,
                               .art_threshold = rq.threshold};
        if (anim_mq_residual(&ctx, &rq.source.mesh, &rq.candidate.mesh, samples, count, NULL,
                             plant, arena, FLAT_MAX_BYTES, &reading, err)) {
            anim_error_prefix(err, "%s: ", path);
            goto done;
        }
    }
    if (json)
        write_json(&rd, &rq, &reading, samples, digest, plant, out, outcome);
    else {
        anim_strbuf raw = {0};
        write_text(&rd, &rq, &reading, samples, digest, &raw, outcome);
        mq_put_terminal_lines(out, &raw);
        if (raw.failed)
            out->failed = true;
        anim_strbuf_free(&raw);
    }
    rc = out->failed ? anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory writing the report",
                                      path)
                     : 0;
done:
    mq_names_free(&rd.names);
    anim_arena_free(arena);
    return rc;
}
