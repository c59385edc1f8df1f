/* The MQ_SKINNING_RESIDUAL row of a mesh-quality-report/1 document, shared
 * by the flat request and the glTF measurement: one shape, whatever the
 * input, so a pipeline reads both with one parser. Figures are written
 * rounded to 6 decimals, as the value is. */
#include <math.h>

#include "meshq/mq.h"

static const char *mq_verdict(const anim_mq_reading *reading, bool has_bound, double bound)
{
    if (!has_bound)
        return "undeclared";
    return reading->value <= bound ? "pass" : "fail";
}

const char *mq_count_row(anim_mq_outcome *outcome, const anim_mq_reading *reading,
                         bool has_bound, double bound)
{
    outcome->rows++;
    if (reading->state == ANIM_MQ_REFUSED) {
        outcome->refused++;
        return NULL;
    }
    if (reading->state != ANIM_MQ_MEASURED) {
        outcome->not_measurable++;
        return NULL;
    }
    const char *verdict = mq_verdict(reading, has_bound, bound);
    if (verdict[0] == 'p')
        outcome->passed++;
    else if (verdict[0] == 'f')
        outcome->failed++;
    else
        outcome->undeclared++;
    return verdict;
}

void mq_write_sample_at(anim_json_writer *w, const anim_mq_sample *s, const char *art_key)
{
    if (s->vertex == ANIM_MQ_NONE) {
        anim_json_writer_key(w, art_key);
        anim_json_writer_begin_array(w);
        anim_json_writer_int(w, s->pixel[0]);
        anim_json_writer_int(w, s->pixel[1]);
        anim_json_writer_end_array(w);
    } else {
        anim_json_writer_key_uint(w, "vertex", s->vertex);
    }
    anim_json_writer_key(w, "uv");
    anim_json_writer_f64_array(w, s->uv, 2);
}

static void key_r6(anim_json_writer *w, const char *key, double v)
{
    anim_json_writer_key(w, key);
    anim_json_writer_f64(w, anim_mq_r6(v));
}

static void write_uncarried(anim_json_writer *w, const mq_row_args *a, const uint32_t *list,
                            uint64_t count)
{
    anim_json_writer_begin_array(w);
    for (uint64_t i = 0; i < count && i < a->uncarried_limit; i++)
        a->uncarried(w, list[i], a->at_ctx);
    anim_json_writer_end_array(w);
}

static void write_detail(anim_json_writer *w, const mq_row_args *a)
{
    const anim_mq_reading *r = a->reading;
    const anim_mq_envelope *env = a->envelope;
    anim_json_writer_key(w, "skinning");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "reading");
    anim_json_writer_string(w, ANIM_MQ_READING);
    anim_json_writer_key(w, "source");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "id");
    anim_json_writer_string(w, a->source_id);
    anim_json_writer_key(w, "digest");
    anim_json_writer_string(w, a->source_digest);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "reference");
    anim_json_writer_string(w, a->bone_names[env->reference]);
    anim_json_writer_key(w, "samples");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "measured", r->measured);
    anim_json_writer_key(w, "uncarried");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "source");
    write_uncarried(w, a, r->uncarried_source, r->uncarried_source_count);
    anim_json_writer_key(w, "candidate");
    write_uncarried(w, a, r->uncarried_candidate, r->uncarried_candidate_count);
    if (a->uncarried_limit != UINT64_MAX) {
        /* A texture's worth of samples is too many to list: say how many. */
        anim_json_writer_key_uint(w, "sourceCount", r->uncarried_source_count);
        anim_json_writer_key_uint(w, "candidateCount", r->uncarried_candidate_count);
    }
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "worst");
    if (r->value == 0) {
        anim_json_writer_null(w);
    } else {
        anim_json_writer_begin_object(w);
        key_r6(w, "covariance", r->worst_covariance);
        key_r6(w, "lever", r->worst_lever);
        anim_json_writer_key(w, "bones");
        anim_json_writer_begin_array(w);
        for (uint32_t k = 0; k < env->bone_count; k++) {
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "bone");
            anim_json_writer_string(w, a->bone_names[env->bones[k].bone]);
            key_r6(w, "covariance", r->bone_covariance[k]);
            key_r6(w, "lever", r->bone_lever[k]);
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_key(w, "weightField");
    anim_json_writer_begin_object(w);
    key_r6(w, "l1", r->l1);
    key_r6(w, "lInf", r->linf);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "setup");
    anim_json_writer_begin_object(w);
    key_r6(w, "vertexGap", r->vertex_gap);
    anim_json_writer_key(w, "vertexSlack");
    anim_json_writer_f64_array(w, r->vertex_slack, 2);
    key_r6(w, "sampleGap", r->sample_gap);
    anim_json_writer_key(w, "weightSumGap");
    anim_json_writer_f64(w, r->weight_sum_gap);
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
}

void mq_write_row_body(anim_json_writer *w, const mq_row_args *a, anim_mq_outcome *outcome)
{
    const anim_mq_reading *r = a->reading;
    const char *verdict = mq_count_row(outcome, r, a->has_bound, a->bound);
    if (r->state != ANIM_MQ_MEASURED) {
        bool refused = r->state == ANIM_MQ_REFUSED;
        anim_json_writer_key(w, "state");
        anim_json_writer_string(w, refused ? "refused" : "not-measurable");
        if (refused) {
            anim_json_writer_key(w, "code");
            anim_json_writer_string(w, r->code);
        }
        anim_json_writer_key(w, "reason");
        anim_json_writer_string(w, r->reason);
        anim_json_writer_key_uint(w, "samples", r->samples);
        anim_json_writer_key_uint(w, "art", r->art);
        return;
    }
    anim_json_writer_key(w, "state");
    anim_json_writer_string(w, "measured");
    anim_json_writer_key(w, "value");
    anim_json_writer_f64(w, r->value);
    anim_json_writer_key(w, "bound");
    if (a->has_bound)
        anim_json_writer_f64(w, a->bound);
    else
        anim_json_writer_null(w);
    anim_json_writer_key(w, "verdict");
    anim_json_writer_string(w, verdict);
    anim_json_writer_key_uint(w, "samples", r->samples);
    anim_json_writer_key_uint(w, "art", r->art);
    anim_json_writer_key(w, "worst");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "at");
    anim_json_writer_begin_object(w);
    if (r->worst_sample != ANIM_MQ_NONE)
        a->at(w, r, a->at_ctx);
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
    write_detail(w, a);
}
