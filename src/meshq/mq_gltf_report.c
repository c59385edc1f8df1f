/* The mesh-quality-report/1 document of a glTF measurement (one row per
 * mesh), as JSON or as one text line per row. Nothing here measures: the
 * rows come from anim_mq_gltf_residual. */
#include <string.h>

#include "animsmith/json_write.h"
#include "meshq/mq.h"
#include "meshq/mq_gltf_internal.h"

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

/* A texture's worth of uncarried samples is too many to list in full:
 * the row lists the first ones and counts them all. */
#define MQ_GLTF_UNCARRIED_LISTED 32

static void write_at(anim_json_writer *w, const anim_mq_reading *r, void *ctx)
{
    (void)r;
    const anim_mq_gltf_row *row = ctx;
    const double *pos;
    const anim_mq_sample *s = worst_of(row, &pos);
    if (!s)
        return;
    mq_write_sample_at(w, s, "texel");
    if (pos) {
        anim_json_writer_key(w, "position");
        anim_json_writer_f64_array(w, pos, 3);
    }
}

static void write_uncarried(anim_json_writer *w, uint32_t sample, void *ctx)
{
    anim_json_writer_f64_array(w, ((const anim_mq_gltf_row *)ctx)->samples[sample].uv, 2);
}

static void row_json(anim_json_writer *w, const anim_mq_gltf_options *o,
                     const anim_mq_gltf_row *row, anim_mq_outcome *outcome)
{
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
    mq_row_args a = {.reading = &row->reading, .bone_names = row->bone_names,
                     .envelope = row->envelope, .source_id = o->source_path,
                     .source_digest = row->source_digest, .has_bound = o->has_max_residual,
                     .bound = o->max_residual, .at = write_at, .at_ctx = (void *)row,
                     .uncarried = write_uncarried, .uncarried_limit = MQ_GLTF_UNCARRIED_LISTED};
    mq_write_row_body(w, &a, outcome);
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

static void put_num(anim_strbuf *out, double v) { mq_put_js_number(out, anim_mq_r6(v)); }

static void row_text(anim_strbuf *out, const anim_mq_gltf_options *o,
                     const anim_mq_gltf_row *row, anim_mq_outcome *outcome)
{
    const anim_mq_reading *r = &row->reading;
    const char *verdict = mq_count_row(outcome, r, o->has_max_residual, o->max_residual);
    anim_strbuf_printf(out, "mesh '%s': ", row->mesh_name);
    if (r->state == ANIM_MQ_REFUSED) {
        anim_strbuf_printf(out, "refused: %s\n", r->reason);
        return;
    }
    if (r->state == ANIM_MQ_NOT_MEASURABLE) {
        anim_strbuf_printf(out, "not measurable: %s\n", r->reason);
        return;
    }
    mq_put_js_number(out, r->value);
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
    if (!o->has_max_residual) {
        anim_strbuf_puts(out, "; no bound declared: undeclared\n");
    } else {
        anim_strbuf_puts(out, "; bound ");
        mq_put_js_number(out, o->max_residual);
        anim_strbuf_printf(out, " m: %s\n", verdict);
    }
}

void anim_mq_gltf_report(const anim_mq_gltf_options *options, const anim_mq_gltf_result *result,
                         bool json, anim_strbuf *out, anim_mq_outcome *outcome)
{
    anim_mq_outcome oc;
    memset(&oc, 0, sizeof oc);
    if (!json) {
        for (uint32_t i = 0; i < result->row_count; i++)
            row_text(out, options, &result->rows[i], &oc);
        if (outcome)
            *outcome = oc;
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
        row_json(&w, options, &result->rows[i], &oc);
    anim_json_writer_end_array(&w);
    anim_json_writer_end_object(&w);
    anim_strbuf_putc(out, '\n');
    if (outcome)
        *outcome = oc;
}
