/* The skinning-envelope residual: the checks of its contract, in the order
 * a fix has to happen in (what moves the vertices, which bones bind, the
 * shares, the setup positions, the samples), then the two sums at every
 * sample both meshes carry. A refusal or a not-measurable reading is an
 * answer, never a value of 0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meshq/mq.h"

const char ANIM_MQ_READING[] =
    "the largest over the samples carried by both meshes of \xce\xa3k \xce\xb5k\xc2\xb7|\xce\x94sk| + "
    "\xce\xa3k |\xce\x94w\xcc\x84k|\xc2\xb7(\xce\xb5k\xc2\xb7|p \xe2\x88\x92 ck| + \xcf\x84k): a bound, "
    "under the declared envelope only, on how far the candidate draws a UV from where the source "
    "draws it \xe2\x80\x94 positions only; it certifies no orientation, stretch or squash, no motion "
    "outside the envelope, and replaces no motion comparison (docs/MESH_REDUCTION.md \xc2\xa7" "7)";

typedef struct run {
    const anim_mq_context *ctx;
    anim_mq_reading *out;
    anim_arena *arena;
    anim_strbuf msg;
} run;

static int finish(run *r, anim_mq_state state, const char *code, anim_error *err)
{
    if (r->msg.failed) {
        anim_strbuf_free(&r->msg);
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory writing the residual's reason");
    }
    r->out->state = state;
    r->out->code = code;
    r->out->reason = anim_arena_strndup(r->arena, r->msg.data ? r->msg.data : "", r->msg.len);
    anim_strbuf_free(&r->msg);
    if (!r->out->reason)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory keeping the residual's reason");
    return 0;
}

static void put(run *r, const char *s) { anim_strbuf_puts(&r->msg, s); }
static void num(run *r, double v) { mq_put_js_number(&r->msg, v); }

static const char *bone_name(const run *r, uint32_t bone)
{
    return bone < r->ctx->bone_name_count ? r->ctx->bone_names[bone] : "?";
}

/* "source \"id\"" or "candidate", as the messages name a mesh. */
static void put_label(run *r, bool is_source)
{
    if (is_source) {
        put(r, "source \"");
        put(r, r->ctx->source_id);
        put(r, "\"");
    } else {
        put(r, "candidate");
    }
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The envelope declares every bone either mesh binds, and binds every bone
 * it declares. Returns 1 when refused (reason written), 0 when fine. */
static int check_bones(run *r, const anim_mq_mesh *source, const anim_mq_mesh *candidate,
                       anim_mq_plant plant, anim_error *err, int *rc)
{
    const anim_mq_context *ctx = r->ctx;
    const anim_mq_envelope *env = ctx->envelope;
    uint32_t names = ctx->bone_name_count;
    uint8_t *declared = calloc(names ? names : 1, 1);
    uint8_t *bound = calloc(names ? names : 1, 1);
    if (!declared || !bound) {
        free(declared);
        free(bound);
        *rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory checking the envelope's bones");
        return 1;
    }
    for (uint32_t i = 0; i < env->bone_count; i++)
        if (env->bones[i].bone < names)
            declared[env->bones[i].bone] = 1;
    const anim_mq_mesh *meshes[2] = {source, candidate};
    for (int m = 0; m < 2; m++) {
        const anim_mq_mesh *mesh = meshes[m];
        for (uint32_t v = 0; v < mesh->vertex_count; v++) {
            for (uint32_t b = mesh->bind_start[v]; b < mesh->bind_start[v + 1]; b++) {
                uint32_t bone = mesh->binds[b].bone;
                if (m == 0 && bone < names)
                    bound[bone] = 1;
                if (bone == env->reference || (bone < names && declared[bone]) ||
                    plant == ANIM_MQ_PLANT_UNDECLARED_BONE_IGNORED)
                    continue;
                put(r, "SKINNING_BONE_NOT_DECLARED: ");
                put(r, ctx->who);
                put(r, ": ");
                put_label(r, m == 0);
                anim_strbuf_printf(&r->msg, " vertex %u binds bone ", v);
                mq_put_js_string(&r->msg, bone_name(r, bone));
                put(r, ", which skinning.envelope neither declares nor names as its reference ");
                mq_put_js_string(&r->msg, bone_name(r, env->reference));
                put(r, "; required an envelope entry for every bone either mesh binds \xe2\x80\x94 "
                       "an undeclared bone's motion is unbounded");
                free(declared);
                free(bound);
                *rc = finish(r, ANIM_MQ_REFUSED, "SKINNING_BONE_NOT_DECLARED", err);
                return 1;
            }
        }
    }
    if (plant != ANIM_MQ_PLANT_UNKNOWN_BONE_ACCEPTED) {
        for (uint32_t i = 0; i < env->bone_count; i++) {
            uint32_t bone = env->bones[i].bone;
            if (bone < names && bound[bone])
                continue;
            put(r, "SKINNING_BONE_UNKNOWN: ");
            put(r, ctx->who);
            anim_strbuf_printf(&r->msg, ": skinning.envelope.bones[%u] declares bone ", i);
            mq_put_js_string(&r->msg, bone_name(r, bone));
            put(r, ", which no vertex of the source \"");
            put(r, ctx->source_id);
            put(r, "\" binds; required envelope bones the source binds \xe2\x80\x94 the source binds ");
            uint32_t count = 0;
            for (uint32_t n = 0; n < names; n++)
                count += bound[n];
            const char **list = malloc((count ? count : 1) * sizeof *list);
            if (list) {
                uint32_t k = 0;
                for (uint32_t n = 0; n < names; n++)
                    if (bound[n])
                        list[k++] = ctx->bone_names[n];
                qsort(list, count, sizeof *list, cmp_names);
                for (uint32_t n = 0; n < count; n++) {
                    if (n)
                        put(r, ", ");
                    mq_put_js_string(&r->msg, list[n]);
                }
                free(list);
            } else {
                r->msg.failed = true;
            }
            free(declared);
            free(bound);
            *rc = finish(r, ANIM_MQ_REFUSED, "SKINNING_BONE_UNKNOWN", err);
            return 1;
        }
    }
    free(declared);
    free(bound);
    return 0;
}

/* Every vertex's shares sum to 1 on the weight grid. */
static int check_sums(run *r, const anim_mq_mesh *source, const anim_mq_mesh *candidate,
                      anim_error *err, int *rc)
{
    const anim_mq_mesh *meshes[2] = {source, candidate};
    double gap_max = 0;
    for (int m = 0; m < 2; m++) {
        const anim_mq_mesh *mesh = meshes[m];
        for (uint32_t v = 0; v < mesh->vertex_count; v++) {
            double sum = 0;
            for (uint32_t b = mesh->bind_start[v]; b < mesh->bind_start[v + 1]; b++)
                sum += mesh->binds[b].weight;
            double gap = fabs(sum - 1);
            gap_max = fmax(gap_max, gap);
            r->out->weight_sum_gap = gap_max;
            if (gap > ANIM_MQ_WEIGHT_SUM_SLACK) {
                put(r, "SKINNING_WEIGHT_SUM: ");
                put(r, r->ctx->who);
                put(r, ": ");
                put_label(r, m == 0);
                anim_strbuf_printf(&r->msg, " vertex %u's shares sum to ", v);
                num(r, sum);
                put(r, "; required 1 within ");
                num(r, ANIM_MQ_WEIGHT_SUM_SLACK);
                put(r, " (half a step of the 6-decimal weight grid) \xe2\x80\x94 a deficit moves the "
                       "vertex with the reference bone's own motion, which the envelope does not bound");
                *rc = finish(r, ANIM_MQ_REFUSED, "SKINNING_WEIGHT_SUM", err);
                return 1;
            }
        }
    }
    return 0;
}

/* Flat meshes: every vertex sits at its UV carried through the frame. */
static int check_setup(run *r, const anim_mq_mesh *source, const anim_mq_mesh *candidate,
                       anim_mq_plant plant, anim_error *err, int *rc)
{
    const double *frame = r->ctx->frame;
    double slack[2] = {2 * ANIM_MQ_R6_HALF_STEP * (1 + frame[0]),
                       2 * ANIM_MQ_R6_HALF_STEP * (1 + frame[1])};
    r->out->vertex_slack[0] = slack[0];
    r->out->vertex_slack[1] = slack[1];
    const anim_mq_mesh *meshes[2] = {source, candidate};
    for (int m = 0; m < 2; m++) {
        const anim_mq_mesh *mesh = meshes[m];
        for (uint32_t v = 0; v < mesh->vertex_count; v++) {
            const double *pt = mesh->points + 2 * (size_t)v;
            const double *uv = mesh->uvs + 2 * (size_t)v;
            double dx = fabs(pt[0] - uv[0] * frame[0]);
            double dy = fabs(pt[1] - uv[1] * frame[1]);
            r->out->vertex_gap = fmax(r->out->vertex_gap, hypot(dx, dy));
            if (!((dx > slack[0] || dy > slack[1]) && plant != ANIM_MQ_PLANT_SETUP_UNCHECKED))
                continue;
            put(r, "SKINNING_SETUP_MISMATCH: ");
            put(r, r->ctx->who);
            put(r, ": ");
            put_label(r, m == 0);
            anim_strbuf_printf(&r->msg, " vertex %u is at (", v);
            num(r, pt[0]);
            put(r, ", ");
            num(r, pt[1]);
            put(r, ") and its UV (");
            num(r, uv[0]);
            put(r, ", ");
            num(r, uv[1]);
            put(r, ") carried through the ");
            num(r, frame[0]);
            put(r, "x");
            num(r, frame[1]);
            put(r, " px frame is at (");
            num(r, anim_mq_r6(uv[0] * frame[0]));
            put(r, ", ");
            num(r, anim_mq_r6(uv[1] * frame[1]));
            put(r, "); required within (");
            num(r, slack[0]);
            put(r, ", ");
            num(r, slack[1]);
            put(r, ") px per axis (two r6 half-steps, of the point and of the UV) \xe2\x80\x94 both "
                   "meshes have to place one UV at one setup position");
            *rc = finish(r, ANIM_MQ_REFUSED, "SKINNING_SETUP_MISMATCH", err);
            return 1;
        }
    }
    return 0;
}

/* One mesh's terms at a carrier: p, and per envelope slot w and s. */
static void terms_at(const anim_mq_mesh *m, const anim_mq_carrier *c, const uint32_t *slot_of,
                     uint32_t names, uint32_t slots, double *p, double *wbar, double *moment)
{
    uint32_t d = m->dim;
    memset(wbar, 0, slots * sizeof *wbar);
    memset(moment, 0, (size_t)slots * d * sizeof *moment);
    for (uint32_t a = 0; a < d; a++)
        p[a] = 0;
    const uint32_t *tri = m->triangles + 3 * (size_t)c->triangle;
    for (int k = 0; k < 3; k++)
        for (uint32_t a = 0; a < d; a++)
            p[a] += c->bary[k] * m->points[(size_t)tri[k] * d + a];
    for (int k = 0; k < 3; k++) {
        uint32_t v = tri[k];
        double b = c->bary[k];
        const double *pt = m->points + (size_t)v * d;
        for (uint32_t i = m->bind_start[v]; i < m->bind_start[v + 1]; i++) {
            uint32_t bone = m->binds[i].bone;
            uint32_t j = bone < names ? slot_of[bone] : ANIM_MQ_NONE;
            if (j == ANIM_MQ_NONE)
                continue; /* only under a plant: the bone check refuses these */
            double bw = b * m->binds[i].weight;
            wbar[j] += bw;
            for (uint32_t a = 0; a < d; a++)
                moment[(size_t)j * d + a] += bw * (pt[a] - p[a]);
        }
    }
}

static double dist(const double *a, const double *b, uint32_t d)
{
    double s = 0;
    for (uint32_t i = 0; i < d; i++)
        s += (a[i] - b[i]) * (a[i] - b[i]);
    return sqrt(s);
}

/* Keeps the ANIM_MQ_WORST_KEPT largest sums, largest first, earlier sample
 * first among equals. */
static void keep_mark(anim_mq_reading *out, uint32_t sample, double value, const double *p,
                      uint32_t d)
{
    uint32_t n = out->mark_count;
    if (n == ANIM_MQ_WORST_KEPT && !(value > out->marks[n - 1].value))
        return;
    uint32_t at = n < ANIM_MQ_WORST_KEPT ? n : n - 1;
    while (at > 0 && value > out->marks[at - 1].value) {
        out->marks[at] = out->marks[at - 1];
        at--;
    }
    anim_mq_worst_mark *m = &out->marks[at];
    m->sample = sample;
    m->value = value;
    memset(m->position, 0, sizeof m->position);
    for (uint32_t a = 0; a < d && a < 3; a++)
        m->position[a] = p[a];
    if (n < ANIM_MQ_WORST_KEPT)
        out->mark_count = n + 1;
}

/* A growing list of sample indices, copied into the arena when done. */
typedef struct index_list {
    uint32_t *items;
    uint64_t count, cap;
    bool failed;
} index_list;

static void list_push(index_list *l, uint32_t v)
{
    if (l->failed)
        return;
    if (l->count == l->cap) {
        uint64_t cap = l->cap ? l->cap * 2 : 64;
        uint32_t *items = realloc(l->items, (size_t)cap * sizeof *items);
        if (!items) {
            l->failed = true;
            return;
        }
        l->items = items;
        l->cap = cap;
    }
    l->items[l->count++] = v;
}

static uint32_t *list_keep(index_list *l, anim_arena *arena)
{
    uint32_t *kept = anim_arena_alloc(arena, (size_t)(l->count ? l->count : 1) * sizeof *kept);
    if (kept && l->count)
        memcpy(kept, l->items, (size_t)l->count * sizeof *kept);
    free(l->items);
    l->items = NULL;
    return kept;
}

static void put_uv(run *r, const double uv[2])
{
    put(r, "(");
    num(r, uv[0]);
    put(r, ", ");
    num(r, uv[1]);
    put(r, ")");
}

int anim_mq_residual(const anim_mq_context *ctx, const anim_mq_mesh *source,
                     const anim_mq_mesh *candidate, const anim_mq_sample *samples,
                     uint64_t sample_count, const anim_mq_carrier *source_carriers,
                     anim_mq_plant plant, anim_arena *arena, size_t max_bytes,
                     anim_mq_reading *out, anim_error *err)
{
    memset(out, 0, sizeof *out);
    out->worst_sample = ANIM_MQ_NONE;
    out->samples = sample_count;
    for (uint64_t j = 0; j < sample_count; j++)
        out->art += samples[j].vertex == ANIM_MQ_NONE;
    run r = {ctx, out, arena, {0}};
    int rc = 0;

    /* What moves the vertices: skinning alone, or a deform besides it. */
    if (ctx->deform_refusal && plant != ANIM_MQ_PLANT_DEFORM_UNCHECKED) {
        put(&r, ctx->deform_refusal);
        return finish(&r, ANIM_MQ_REFUSED, "SKINNING_DEFORM_UNSUPPORTED", err);
    }

    /* Which bones bind, and that the envelope declares every one. */
    if (!source->bind_start || !candidate->bind_start) {
        if (!source->bind_start && !candidate->bind_start) {
            put(&r, ctx->who);
            put(&r, ": neither the source \"");
            put(&r, ctx->source_id);
            put(&r, "\" nor the candidate is weighted, so no vertex has a binding to compare "
                    "\xe2\x80\x94 an unweighted mesh rides the one bone it hangs from, which no "
                    "envelope entry describes");
            return finish(&r, ANIM_MQ_NOT_MEASURABLE, NULL, err);
        }
        bool src_unweighted = !source->bind_start;
        put(&r, "SKINNING_UNWEIGHTED: ");
        put(&r, ctx->who);
        put(&r, ": the ");
        put_label(&r, src_unweighted);
        put(&r, " is unweighted and the ");
        put(&r, src_unweighted ? "candidate" : "source");
        put(&r, " is weighted; required both weighted \xe2\x80\x94 the residual compares two "
                "bindings of one attachment");
        return finish(&r, ANIM_MQ_REFUSED, "SKINNING_UNWEIGHTED", err);
    }
    if (check_bones(&r, source, candidate, plant, err, &rc))
        return rc;
    if (check_sums(&r, source, candidate, err, &rc))
        return rc;
    if (ctx->frame[0] > 0 && ctx->frame[1] > 0 &&
        check_setup(&r, source, candidate, plant, err, &rc))
        return rc;

    /* The samples: under the floor is not a measurement. */
    if (out->art < ctx->min_art_samples) {
        anim_strbuf_printf(&r.msg, "%s has %llu art sample(s) at alpha >= ", ctx->who,
                           (unsigned long long)out->art);
        num(&r, ctx->art_threshold);
        anim_strbuf_printf(&r.msg,
                           "; required at least %llu (minArtSamples) \xe2\x80\x94 the source hull's "
                           "UVs are samples and do not count towards it",
                           (unsigned long long)ctx->min_art_samples);
        return finish(&r, ANIM_MQ_NOT_MEASURABLE, NULL, err);
    }

    anim_mq_uv_index *src_ix = NULL, *cand_ix;
    if (!source_carriers && !(src_ix = anim_mq_uv_index_build(source, arena, max_bytes, err)))
        return -1;
    if (!(cand_ix = anim_mq_uv_index_build(candidate, arena, max_bytes, err)))
        return -1;
    bool flat = ctx->frame[0] > 0 && ctx->frame[1] > 0;

    /* The envelope's slots: its bones in order, the reference last (its
     * linear part and lever are 0, so it enters only the weight field). */
    const anim_mq_envelope *env = ctx->envelope;
    uint32_t names = ctx->bone_name_count;
    uint32_t slots = env->bone_count + 1;
    uint32_t d = source->dim;
    uint32_t *slot_of = malloc((names ? names : 1) * sizeof *slot_of);
    double *scratch = malloc((size_t)slots * (2 + 2 * d + 2) * sizeof *scratch);
    double *eps = malloc((size_t)slots * (2 + 3) * sizeof *eps);
    if (!slot_of || !scratch || !eps) {
        free(slot_of);
        free(scratch);
        free(eps);
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory measuring %u bones", slots);
    }
    for (uint32_t n = 0; n < names; n++)
        slot_of[n] = ANIM_MQ_NONE;
    double *tau = eps + slots, *pivot = tau + slots;
    for (uint32_t k = 0; k < env->bone_count; k++) {
        if (env->bones[k].bone < names && slot_of[env->bones[k].bone] == ANIM_MQ_NONE)
            slot_of[env->bones[k].bone] = k;
        eps[k] = env->bones[k].linear;
        tau[k] = env->bones[k].translation;
        for (uint32_t a = 0; a < 3; a++)
            pivot[(size_t)k * 3 + a] = env->bones[k].pivot[a];
    }
    if (env->reference < names)
        slot_of[env->reference] = env->bone_count;
    eps[env->bone_count] = tau[env->bone_count] = 0;
    for (uint32_t a = 0; a < 3; a++)
        pivot[(size_t)env->bone_count * 3 + a] = 0;
    double *wr = scratch, *wc = wr + slots, *sr = wc + slots, *sc = sr + (size_t)slots * d;
    double *cov = sc + (size_t)slots * d, *lev = cov + slots;
    out->bone_covariance = anim_arena_calloc(arena, slots, sizeof(double));
    out->bone_lever = anim_arena_calloc(arena, slots, sizeof(double));
    index_list unc_src = {0}, unc_cand = {0};
    double worst = -1;
    double l1_max = 0, linf_max = 0, gap_max = 0;
    double pr[3], pc[3];
    if (!out->bone_covariance || !out->bone_lever) {
        rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory measuring %u bones", slots);
        goto done;
    }
    for (uint64_t j = 0; j < sample_count; j++) {
        const anim_mq_sample *s = &samples[j];
        anim_mq_carrier cs, cc;
        uint32_t other = ANIM_MQ_NONE;
        bool is_source = true;
        if (source_carriers) {
            cs = source_carriers[j];
        } else if (anim_mq_carrier_flat(src_ix, s->uv, s->group, &cs, &other)) {
            goto not_unique;
        }
        if (flat) {
            is_source = false;
            if (anim_mq_carrier_flat(cand_ix, s->uv, s->group, &cc, &other))
                goto not_unique;
        } else {
            cc.triangle = ANIM_MQ_NONE;
            if (cs.triangle != ANIM_MQ_NONE) {
                terms_at(source, &cs, slot_of, names, slots, pr, wr, sr);
                anim_mq_carrier_nearest(cand_ix, s->uv, s->group, pr, &cc);
            }
        }
        if (cs.triangle == ANIM_MQ_NONE)
            list_push(&unc_src, (uint32_t)j);
        if (cc.triangle == ANIM_MQ_NONE)
            list_push(&unc_cand, (uint32_t)j);
        if (cs.triangle == ANIM_MQ_NONE || cc.triangle == ANIM_MQ_NONE)
            continue;
        out->measured++;
        if (flat)
            terms_at(source, &cs, slot_of, names, slots, pr, wr, sr);
        terms_at(candidate, &cc, slot_of, names, slots, pc, wc, sc);
        gap_max = fmax(gap_max, dist(pc, pr, d));
        double total = 0, l1 = 0, linf = 0;
        for (uint32_t k = 0; k < slots; k++) {
            double dw = fabs(wc[k] - wr[k]);
            l1 += dw;
            linf = fmax(linf, dw);
            cov[k] = plant == ANIM_MQ_PLANT_DROP_COVARIANCE
                         ? 0
                         : eps[k] * dist(sc + (size_t)k * d, sr + (size_t)k * d, d);
            lev[k] = plant == ANIM_MQ_PLANT_DROP_LEVER
                         ? 0
                         : dw * (eps[k] * dist(pr, pivot + (size_t)k * 3, d) + tau[k]);
            total += cov[k] + lev[k];
        }
        l1_max = fmax(l1_max, l1);
        linf_max = fmax(linf_max, linf);
        keep_mark(out, (uint32_t)j, total, pr, d);
        if (total > worst) {
            worst = total;
            out->worst_sample = (uint32_t)j;
            memcpy(out->bone_covariance, cov, slots * sizeof *cov);
            memcpy(out->bone_lever, lev, slots * sizeof *lev);
        }
        continue;
    not_unique:
        put(&r, "SKINNING_UV_CARRIER_NOT_UNIQUE: ");
        if (is_source) {
            put(&r, "source \"");
            put(&r, ctx->source_id);
            put(&r, "\", ");
        } else {
            put(&r, "candidate, ");
        }
        put(&r, ctx->who);
        anim_strbuf_printf(&r.msg, ": sample %llu at UV ", (unsigned long long)j);
        put_uv(&r, s->uv);
        anim_strbuf_printf(&r.msg, " lies in triangles %u and %u, one of them holding it inside; "
                           "required one UV triangle per sample \xe2\x80\x94 overlapping UV triangles "
                           "give one UV two setup positions",
                           (is_source ? cs : cc).triangle, other);
        rc = finish(&r, ANIM_MQ_REFUSED, "SKINNING_UV_CARRIER_NOT_UNIQUE", err);
        goto done;
    }
    if (unc_src.failed || unc_cand.failed) {
        rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory listing uncarried samples");
        goto done;
    }
    out->uncarried_source_count = unc_src.count;
    out->uncarried_candidate_count = unc_cand.count;
    out->uncarried_source = list_keep(&unc_src, arena);
    out->uncarried_candidate = list_keep(&unc_cand, arena);
    if (!out->uncarried_source || !out->uncarried_candidate) {
        rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory listing uncarried samples");
        goto done;
    }
    if (out->measured == 0 && plant != ANIM_MQ_PLANT_UNCARRIED_READ_AS_ZERO) {
        put(&r, ctx->who);
        put(&r, ": no sample is carried by both the source \"");
        put(&r, ctx->source_id);
        anim_strbuf_printf(&r.msg,
                           "\"'s and the candidate's UV triangles, so there is nothing to bound "
                           "\xe2\x80\x94 %llu uncarried by the source, %llu by the candidate",
                           (unsigned long long)out->uncarried_source_count,
                           (unsigned long long)out->uncarried_candidate_count);
        rc = finish(&r, ANIM_MQ_NOT_MEASURABLE, NULL, err);
        goto done;
    }
    out->state = ANIM_MQ_MEASURED;
    out->value = out->measured == 0 ? 0 : anim_mq_r6(worst);
    if (out->value == 0) {
        out->worst_sample = ANIM_MQ_NONE;
    } else {
        for (uint32_t k = 0; k < slots; k++) {
            out->worst_covariance += out->bone_covariance[k];
            out->worst_lever += out->bone_lever[k];
        }
    }
    out->l1 = l1_max;
    out->linf = linf_max;
    out->sample_gap = gap_max;
    anim_strbuf_free(&r.msg);
done:
    free(unc_src.items);
    free(unc_cand.items);
    free(slot_of);
    free(scratch);
    free(eps);
    return rc;
}
