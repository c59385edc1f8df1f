/* The mesh-quality-report/1 document of a glTF measurement (one row per
 * mesh), as JSON or as one text line per row. Nothing here measures: the
 * rows come from anim_mq_gltf_residual. */
#include <string.h>

#include "animsmith/json_write.h"
#include "animsmith/numfmt.h"
#include "meshq/mq_gltf_internal.h"

static void uv_list(anim_json_writer *w, const uint32_t *idx, uint64_t n,
                    const anim_mq_sample *samples)
{
    anim_json_writer_begin_array(w);
    for (uint64_t i = 0; i < n && samples; i++)
        anim_json_writer_f64_array(w, samples[idx[i]].uv, 2);
    anim_json_writer_end_array(w);
}

static void envelope_json(anim_json_writer *w, const anim_mq_envelope *env,
                          const char *const *names)
{
    if (!env) {
        anim_json_writer_null(w);
        return;
    }
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "reference");
    anim_json_writer_string(w, names[env->reference]);
    anim_json_writer_key(w, "bones");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < env->bone_count; i++) {
        const anim_mq_envelope_bone *b = &env->bones[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "bone");
        anim_json_writer_string(w, names[b->bone]);
        anim_json_writer_key(w, "linear");
        anim_json_writer_f64(w, b->linear);
        anim_json_writer_key(w, "pivot");
        anim_json_writer_f64_array(w, b->pivot, 3);
        anim_json_writer_key(w, "translation");
        anim_json_writer_f64(w, b->translation);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);
}

void mq_row_body_json(anim_json_writer *w, const anim_mq_reading *r,
                      const char *const *bone_names, const anim_mq_envelope *envelope,
                      const char *source_id, const char *source_digest,
                      const anim_mq_sample *samples)
{
    anim_json_writer_key(w, "state");
    if (r->state != ANIM_MQ_MEASURED) {
        anim_json_writer_string(w, r->state == ANIM_MQ_REFUSED ? "refused" : "not-measurable");
        if (r->state == ANIM_MQ_REFUSED) {
            anim_json_writer_key(w, "code");
            anim_json_writer_string(w, r->code);
        }
        anim_json_writer_key(w, "reason");
        anim_json_writer_string(w, r->reason);
        return;
    }
    anim_json_writer_string(w, "measured");
    anim_json_writer_key(w, "value");
    anim_json_writer_f64(w, r->value);
    anim_json_writer_key(w, "skinning");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "reading");
    anim_json_writer_string(w, ANIM_MQ_READING);
    anim_json_writer_key(w, "source");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_string_or_null(w, "id", source_id);
    anim_json_writer_key_string_or_null(w, "digest", source_digest);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "reference");
    anim_json_writer_string(w, envelope ? bone_names[envelope->reference] : "");
    anim_json_writer_key(w, "samples");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "measured", r->measured);
    anim_json_writer_key(w, "uncarried");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "source");
    uv_list(w, r->uncarried_source, r->uncarried_source_count, samples);
    anim_json_writer_key(w, "candidate");
    uv_list(w, r->uncarried_candidate, r->uncarried_candidate_count, samples);
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "worst");
    if (r->value == 0 || !envelope) {
        anim_json_writer_null(w);
    } else {
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "covariance");
        anim_json_writer_f64(w, r->worst_covariance);
        anim_json_writer_key(w, "lever");
        anim_json_writer_f64(w, r->worst_lever);
        anim_json_writer_key(w, "bones");
        anim_json_writer_begin_array(w);
        for (uint32_t i = 0; i < envelope->bone_count; i++) {
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "bone");
            anim_json_writer_string(w, bone_names[envelope->bones[i].bone]);
            anim_json_writer_key(w, "covariance");
            anim_json_writer_f64(w, r->bone_covariance ? r->bone_covariance[i] : 0);
            anim_json_writer_key(w, "lever");
            anim_json_writer_f64(w, r->bone_lever ? r->bone_lever[i] : 0);
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_key(w, "weightField");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "l1");
    anim_json_writer_f64(w, r->l1);
    anim_json_writer_key(w, "lInf");
    anim_json_writer_f64(w, r->linf);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "setup");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "vertexGap");
    anim_json_writer_f64(w, r->vertex_gap);
    anim_json_writer_key(w, "vertexSlack");
    anim_json_writer_f64_array(w, r->vertex_slack, 2);
    anim_json_writer_key(w, "sampleGap");
    anim_json_writer_f64(w, r->sample_gap);
    anim_json_writer_key(w, "weightSumGap");
    anim_json_writer_f64(w, r->weight_sum_gap);
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
}

/* The worst sample and the source's position of it. */
static const anim_mq_sample *worst_of(const anim_mq_gltf_row *row, const double **position)
{
    const anim_mq_reading *r = &row->reading;
    *position = NULL;
    if (r->state != ANIM_MQ_MEASURED || r->value == 0 || r->worst_sample == ANIM_MQ_NONE ||
        !row->samples || r->worst_sample >= r->samples)
        return NULL;
    for (uint32_t i = 0; i < r->mark_count; i++)
        if (r->marks[i].sample == r->worst_sample)
            *position = r->marks[i].position;
    return &row->samples[r->worst_sample];
}

typedef enum { VERDICT_NONE, VERDICT_PASS, VERDICT_FAIL, VERDICT_UNDECLARED } verdict;

static verdict verdict_of(const anim_mq_gltf_options *o, const anim_mq_reading *r)
{
    if (r->state != ANIM_MQ_MEASURED)
        return VERDICT_NONE;
    if (!o->has_max_residual)
        return VERDICT_UNDECLARED;
    return r->value <= o->max_residual ? VERDICT_PASS : VERDICT_FAIL;
}

static const char *verdict_name(verdict v)
{
    return v == VERDICT_PASS ? "pass" : v == VERDICT_FAIL ? "fail" : "undeclared";
}

static void row_json(anim_json_writer *w, const anim_mq_gltf_options *o,
                     const anim_mq_gltf_row *row)
{
    const anim_mq_reading *r = &row->reading;
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "id");
    anim_json_writer_string(w, ANIM_MQ_ROW_ID);
    anim_json_writer_key(w, "mesh");
    anim_json_writer_string(w, row->mesh_name);
    anim_json_writer_key(w, "triangles");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "source", row->source_triangles);
    anim_json_writer_key_uint(w, "candidate", row->candidate_triangles);
    anim_json_writer_end_object(w);
    mq_row_body_json(w, r, row->bone_names, row->envelope, o->source_path, row->source_digest,
                     row->samples);
    anim_json_writer_key(w, "bound");
    if (o->has_max_residual)
        anim_json_writer_f64(w, o->max_residual);
    else
        anim_json_writer_null(w);
    verdict v = verdict_of(o, r);
    if (v != VERDICT_NONE) {
        anim_json_writer_key(w, "verdict");
        anim_json_writer_string(w, verdict_name(v));
    }
    anim_json_writer_key_uint(w, "samples", r->samples);
    anim_json_writer_key_uint(w, "art", r->art);
    if (r->state == ANIM_MQ_MEASURED) {
        anim_json_writer_key(w, "worst");
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "at");
        anim_json_writer_begin_object(w);
        const double *pos;
        const anim_mq_sample *s = worst_of(row, &pos);
        if (s) {
            if (s->pixel[0] >= 0) {
                anim_json_writer_key(w, "texel");
                anim_json_writer_begin_array(w);
                anim_json_writer_int(w, s->pixel[0]);
                anim_json_writer_int(w, s->pixel[1]);
                anim_json_writer_end_array(w);
            } else {
                anim_json_writer_key_uint(w, "vertex", s->vertex);
            }
            anim_json_writer_key(w, "uv");
            anim_json_writer_f64_array(w, s->uv, 2);
            if (pos) {
                anim_json_writer_key(w, "position");
                anim_json_writer_f64_array(w, pos, 3);
            }
        }
        anim_json_writer_end_object(w);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_object(w);
}

static void effective_json(anim_json_writer *w, const anim_mq_gltf_options *o,
                           const anim_mq_gltf_result *res)
{
    anim_json_writer_key(w, "effective");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "skinning");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "source");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_string_or_null(w, "id", o->source_path);
    anim_json_writer_end_object(w);
    anim_json_writer_key_string_or_null(w, "candidate", o->candidate_path);
    anim_json_writer_key(w, "envelopeFrom");
    anim_json_writer_string(w, o->envelope_path ? "file" : "clips");
    if (o->envelope_path)
        anim_json_writer_key_string_or_null(w, "envelopeFile", o->envelope_path);
    anim_json_writer_key(w, "maxResidual");
    if (o->has_max_residual)
        anim_json_writer_f64(w, o->max_residual);
    else
        anim_json_writer_null(w);
    anim_json_writer_key(w, "uvGrid");
    if (o->uv_grid)
        anim_json_writer_uint(w, o->uv_grid);
    else
        anim_json_writer_null(w);
    /* Per mesh: the digest of the bytes measured against and the
     * envelope as used (from clips it differs per mesh). */
    anim_json_writer_key(w, "meshes");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < res->row_count; i++) {
        const anim_mq_gltf_row *row = &res->rows[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "mesh");
        anim_json_writer_string(w, row->mesh_name);
        anim_json_writer_key(w, "source");
        anim_json_writer_begin_object(w);
        anim_json_writer_key_string_or_null(w, "id", o->source_path);
        anim_json_writer_key_string_or_null(w, "digest", row->source_digest);
        anim_json_writer_end_object(w);
        anim_json_writer_key(w, "envelope");
        envelope_json(w, row->envelope, row->bone_names);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
}

static void count(anim_mq_outcome *oc, const anim_mq_gltf_options *o, const anim_mq_reading *r)
{
    oc->rows++;
    switch (verdict_of(o, r)) {
    case VERDICT_PASS: oc->passed++; break;
    case VERDICT_FAIL: oc->failed++; break;
    case VERDICT_UNDECLARED: oc->undeclared++; break;
    case VERDICT_NONE:
        if (r->state == ANIM_MQ_REFUSED)
            oc->refused++;
        else
            oc->not_measurable++;
        break;
    }
}

static void put_num(anim_strbuf *out, double v)
{
    anim_strbuf_put_f64_plain(out, v);
}

static void row_text(anim_strbuf *out, const anim_mq_gltf_options *o,
                     const anim_mq_gltf_row *row)
{
    const anim_mq_reading *r = &row->reading;
    anim_strbuf_printf(out, "mesh '%s': ", row->mesh_name);
    if (r->state == ANIM_MQ_REFUSED) {
        anim_strbuf_printf(out, "refused: %s\n", r->reason);
        return;
    }
    if (r->state == ANIM_MQ_NOT_MEASURABLE) {
        anim_strbuf_printf(out, "not measurable: %s\n", r->reason);
        return;
    }
    put_num(out, r->value);
    anim_strbuf_puts(out, " m");
    const double *pos;
    const anim_mq_sample *s = worst_of(row, &pos);
    if (s) {
        anim_strbuf_puts(out, " (covariance ");
        put_num(out, r->worst_covariance);
        anim_strbuf_puts(out, ", lever ");
        put_num(out, r->worst_lever);
        if (s->pixel[0] >= 0)
            anim_strbuf_printf(out, ") at texel (%d, %d)", s->pixel[0], s->pixel[1]);
        else
            anim_strbuf_printf(out, ") at vertex %u", s->vertex);
    } else {
        anim_strbuf_puts(out, " (the meshes agree at every sample)");
    }
    anim_strbuf_printf(out, " of %llu samples", (unsigned long long)r->samples);
    if (r->uncarried_source_count || r->uncarried_candidate_count)
        anim_strbuf_printf(out, " (%llu measured, %llu uncarried by the source, %llu by the "
                                "candidate)",
                           (unsigned long long)r->measured,
                           (unsigned long long)r->uncarried_source_count,
                           (unsigned long long)r->uncarried_candidate_count);
    verdict v = verdict_of(o, r);
    if (v == VERDICT_UNDECLARED) {
        anim_strbuf_puts(out, "; no bound declared: undeclared\n");
    } else {
        anim_strbuf_puts(out, "; bound ");
        put_num(out, o->max_residual);
        anim_strbuf_printf(out, " m: %s\n", verdict_name(v));
    }
}

void anim_mq_gltf_report(const anim_mq_gltf_options *options, const anim_mq_gltf_result *result,
                         bool json, anim_strbuf *out, anim_mq_outcome *outcome)
{
    anim_mq_outcome oc;
    memset(&oc, 0, sizeof oc);
    for (uint32_t i = 0; i < result->row_count; i++)
        count(&oc, options, &result->rows[i].reading);
    if (outcome)
        *outcome = oc;
    if (!json) {
        for (uint32_t i = 0; i < result->row_count; i++)
            row_text(out, options, &result->rows[i]);
        return;
    }
    anim_json_writer w;
    anim_json_writer_init(&w, out, true);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "schema");
    anim_json_writer_string(&w, ANIM_MQ_SCHEMA);
    effective_json(&w, options, result);
    anim_json_writer_key(&w, "rows");
    anim_json_writer_begin_array(&w);
    for (uint32_t i = 0; i < result->row_count; i++)
        row_json(&w, options, &result->rows[i]);
    anim_json_writer_end_array(&w);
    anim_json_writer_end_object(&w);
    anim_strbuf_putc(out, '\n');
}
