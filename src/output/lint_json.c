/* Lint JSON: the output-v19 envelope with one record per file. Machine
 * evidence keeps every finding: --allow never applies here. */
#include <stdlib.h>
#include <string.h>

#include "animsmith/engine.h"
#include "animsmith/report.h"

void anim_lint_json_summary_add(anim_lint_json_summary *s, const anim_lint_file *file)
{
    s->files++;
    for (size_t r = 0; r < file->record_count; r++) {
        const anim_check_record *rec = &file->records[r];
        s->checks++;
        s->selected += rec->selected;
        s->enabled += rec->enabled;
        s->applicable += rec->applicable;
        if (rec->evaluation <= ANIM_EVAL_COMPLETE)
            s->eval[rec->evaluation]++;
        s->gaps += rec->gap_count;
        uint32_t available = 0, unavailable = 0;
        anim_check_facet_counts(rec, &available, &unavailable);
        s->facets_available += available;
        s->facets_unavailable += unavailable;
        for (uint32_t f = 0; f < rec->finding_count; f++)
            if (rec->findings[f].severity <= ANIM_SEVERITY_ERROR)
                s->findings[rec->findings[f].severity]++;
    }
}

void anim_lint_json_summary_merge(anim_lint_json_summary *to, const anim_lint_json_summary *s)
{
    to->files += s->files;
    for (int i = 0; i <= ANIM_SEVERITY_ERROR; i++)
        to->findings[i] += s->findings[i];
    to->checks += s->checks;
    to->selected += s->selected;
    to->enabled += s->enabled;
    to->applicable += s->applicable;
    for (int i = 0; i <= ANIM_EVAL_COMPLETE; i++)
        to->eval[i] += s->eval[i];
    to->gaps += s->gaps;
    to->facets_available += s->facets_available;
    to->facets_unavailable += s->facets_unavailable;
}

static void write_summary(anim_json_writer *w, const anim_lint_json_summary *s)
{
    anim_json_writer_key(w, "summary");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "files", s->files);
    anim_json_writer_key(w, "findings");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "error", s->findings[ANIM_SEVERITY_ERROR]);
    anim_json_writer_key_uint(w, "warning", s->findings[ANIM_SEVERITY_WARNING]);
    anim_json_writer_key_uint(w, "note", s->findings[ANIM_SEVERITY_NOTE]);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "checks");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "total", s->checks);
    anim_json_writer_key(w, "selection");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "selected", s->selected);
    anim_json_writer_key_uint(w, "unselected", s->checks - s->selected);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "configuration");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "enabled", s->enabled);
    anim_json_writer_key_uint(w, "disabled", s->checks - s->enabled);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "applicability");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "applicable", s->applicable);
    anim_json_writer_key_uint(w, "not_applicable", s->checks - s->applicable);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "evaluation");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "complete", s->eval[ANIM_EVAL_COMPLETE]);
    anim_json_writer_key_uint(w, "partial", s->eval[ANIM_EVAL_PARTIAL]);
    anim_json_writer_key_uint(w, "not_evaluated", s->eval[ANIM_EVAL_NOT_EVALUATED]);
    anim_json_writer_end_object(w);
    anim_json_writer_key_uint(w, "gaps", s->gaps);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "prediction_facets");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "available", s->facets_available);
    anim_json_writer_key_uint(w, "required_prediction_unavailable", s->facets_unavailable);
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
}

void anim_lint_json_value(anim_json_writer *w, const anim_value *v)
{
    if (v->kind == ANIM_VALUE_NUMBER)
        anim_json_writer_f64(w, v->number);
    else if (v->kind == ANIM_VALUE_TEXT && v->text)
        anim_json_writer_string(w, v->text);
    else
        anim_json_writer_null(w); /* member rows keep missing evidence explicit */
}

static void opt_string(anim_json_writer *w, const char *key, const char *s)
{
    if (!s)
        return;
    anim_json_writer_key(w, key);
    anim_json_writer_string(w, s);
}

static void write_scope(anim_json_writer *w, const anim_scope *s)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "code");
    anim_json_writer_string(w, s->code);
    opt_string(w, "subject", s->subject);
    anim_json_writer_end_object(w);
}

static void write_finding(anim_json_writer *w, const anim_finding *f)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "check_id");
    anim_json_writer_string(w, f->check_id);
    anim_json_writer_key(w, "severity");
    anim_json_writer_string(w, anim_severity_name(f->severity));
    opt_string(w, "clip", f->clip);
    opt_string(w, "bone", f->bone);
    opt_string(w, "node", f->node);
    if (f->prediction_scope_code) {
        anim_json_writer_key(w, "prediction_scope");
        const anim_scope scope = {f->prediction_scope_code, f->prediction_scope_subject};
        write_scope(w, &scope);
    }
    if (f->has_time) {
        anim_json_writer_key(w, "time_s");
        anim_json_writer_f32(w, (float)f->time_s); /* an f32 value */
    }
    if (f->measured.kind != ANIM_VALUE_NONE) {
        anim_json_writer_key(w, "measured");
        anim_lint_json_value(w, &f->measured);
    }
    if (f->expected.kind != ANIM_VALUE_NONE) {
        anim_json_writer_key(w, "expected");
        anim_lint_json_value(w, &f->expected);
    }
    if (f->member_count) {
        anim_json_writer_key(w, "members");
        anim_json_writer_begin_array(w);
        for (uint32_t m = 0; m < f->member_count; m++) {
            const anim_member_row *row = &f->members[m];
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "member");
            anim_json_writer_string(w, row->member ? row->member : "");
            anim_json_writer_key(w, "measurements");
            anim_json_writer_begin_object(w);
            for (uint32_t k = 0; k < row->measurement_count; k++) {
                anim_json_writer_key(w, row->measurements[k].key);
                anim_lint_json_value(w, &row->measurements[k].value);
            }
            anim_json_writer_end_object(w);
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
    }
    anim_json_writer_key(w, "message");
    anim_json_writer_string(w, f->message ? f->message : "");
    anim_json_writer_end_object(w);
}

void anim_lint_json_field(anim_json_writer *w, const anim_field *f)
{
    switch (f->kind) {
    case ANIM_FIELD_TEXT: anim_json_writer_string(w, f->text ? f->text : ""); break;
    case ANIM_FIELD_NUMBER: anim_json_writer_f64(w, f->number); break;
    case ANIM_FIELD_INT: anim_json_writer_int(w, f->integer); break;
    case ANIM_FIELD_BOOL: anim_json_writer_bool(w, f->boolean); break;
    default: anim_json_writer_null(w); break;
    }
}

/* The prediction object of an engine-backed check: its schema identity
 * and every facet, keyed by its scope. */
static void write_prediction(anim_json_writer *w, const anim_check_record *rec)
{
    anim_json_writer_key(w, "prediction");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "schema");
    anim_json_writer_string(w, rec->prediction_schema);
    anim_json_writer_key(w, "facets");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < rec->facet_count; i++) {
        const anim_prediction_facet *f = &rec->facets[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "scope");
        write_scope(w, &f->scope);
        anim_json_writer_key(w, "state");
        anim_json_writer_string(w, anim_facet_state_name(f->state));
        if (f->state == ANIM_FACET_AVAILABLE) {
            anim_json_writer_key(w, "result");
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "kind");
            anim_json_writer_string(w, f->result_kind ? f->result_kind : "");
            for (uint32_t r = 0; r < f->result_count; r++) {
                anim_json_writer_key(w, f->result[r].key);
                anim_lint_json_field(w, &f->result[r]);
            }
            anim_json_writer_end_object(w);
        }
        anim_json_writer_key(w, "basis");
        anim_json_writer_begin_array(w);
        for (uint32_t b = 0; b < f->basis_count; b++) {
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "kind");
            anim_json_writer_string(w, anim_basis_kind_name(f->basis[b].kind));
            anim_json_writer_key(w, "ref");
            anim_json_writer_string(w, f->basis[b].value.key ? f->basis[b].value.key : "");
            anim_json_writer_key(w, "value");
            anim_lint_json_field(w, &f->basis[b].value);
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
        if (f->state != ANIM_FACET_AVAILABLE) {
            anim_json_writer_key(w, "reasons");
            anim_json_writer_begin_array(w);
            for (uint32_t r = 0; r < f->reason_count; r++)
                anim_json_writer_string(w, f->reasons[r]);
            anim_json_writer_end_array(w);
        }
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);
}

void anim_lint_json_write_record(anim_json_writer *w, const anim_check_record *rec)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "check_id");
    anim_json_writer_string(w, rec->check_id);
    anim_json_writer_key(w, "selection");
    anim_json_writer_string(w, rec->selected ? "selected" : "unselected");
    anim_json_writer_key(w, "configuration");
    anim_json_writer_string(w, rec->enabled ? "enabled" : "disabled");
    anim_json_writer_key(w, "applicability");
    anim_json_writer_string(w, rec->applicable ? "applicable" : "not_applicable");
    anim_json_writer_key(w, "evaluation");
    anim_json_writer_string(w, anim_evaluation_name(rec->evaluation));
    anim_json_writer_key(w, "findings");
    anim_json_writer_begin_array(w);
    for (uint32_t f = 0; f < rec->finding_count; f++)
        write_finding(w, &rec->findings[f]);
    anim_json_writer_end_array(w);
    if (rec->scope_count) {
        anim_json_writer_key(w, "evaluated_scopes");
        anim_json_writer_begin_array(w);
        for (uint32_t s = 0; s < rec->scope_count; s++)
            write_scope(w, &rec->scopes[s]);
        anim_json_writer_end_array(w);
    }
    if (rec->prediction_schema)
        write_prediction(w, rec);
    if (rec->gap_count) {
        anim_json_writer_key(w, "gaps");
        anim_json_writer_begin_array(w);
        for (uint32_t g = 0; g < rec->gap_count; g++) {
            const anim_gap *gap = &rec->gaps[g];
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "code");
            anim_json_writer_string(w, gap->code);
            anim_json_writer_key(w, "message");
            anim_json_writer_string(w, gap->message ? gap->message : "");
            if (gap->has_scope) {
                anim_json_writer_key(w, "scope");
                write_scope(w, &gap->scope);
            }
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
    }
    anim_json_writer_end_object(w);
}

/* files[] sits two containers deep: the envelope object, the array. */
#define FILE_RECORD_DEPTH 2

int anim_render_lint_json_file(const anim_lint_json_input *in, anim_strbuf *fragment,
                               anim_error *err)
{
    if (!in->file || !in->doc || !in->measurements)
        return anim_error_set(err, ANIM_ERR_USAGE,
                              "lint JSON: a file lacks its result, document or measurements");
    const anim_lint_file *file = in->file;
    anim_json_writer w;
    anim_json_writer_init_nested(&w, fragment, true, FILE_RECORD_DEPTH);
    anim_json_writer_begin_object(&w);
    anim_output_write_file_identity(&w, file->path, file->sha256_hex, file->byte_count);
    anim_output_write_rig(&w, in->doc, &file->rig);
    anim_json_writer_key(&w, "measurements");
    if (anim_measurements_write_json(in->measurements, &w, err)) {
        anim_error_prefix(err, "%s", file->path ? file->path : "");
        return -1;
    }
    anim_json_writer_key(&w, "prediction_provenance");
    if (file->engine) {
        if (anim_engine_write_provenance(&w, file->engine, err)) {
            anim_error_prefix(err, "%s", file->path ? file->path : "");
            return -1;
        }
    } else {
        anim_json_writer_null(&w);
    }
    anim_json_writer_key(&w, "checks");
    anim_json_writer_begin_array(&w);
    for (size_t r = 0; r < file->record_count; r++)
        anim_lint_json_write_record(&w, &file->records[r]);
    anim_json_writer_end_array(&w);
    anim_json_writer_end_object(&w);
    if (!anim_json_writer_ok(&w) || fragment->failed)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing lint JSON");
    return 0;
}

int anim_render_lint_json_assemble(const anim_lint_file *const *files,
                                   const anim_strbuf *fragments, size_t n,
                                   const anim_lint_render_options *opts, anim_strbuf *out,
                                   size_t *splice_at, anim_error *err)
{
    anim_lint_json_summary s;
    memset(&s, 0, sizeof s);
    for (size_t i = 0; i < n; i++)
        anim_lint_json_summary_add(&s, files[i]);
    return anim_render_lint_json_envelope(&s, fragments, n, opts ? &opts->tool : NULL, out,
                                          splice_at, err);
}

int anim_render_lint_json_envelope(const anim_lint_json_summary *s, const anim_strbuf *fragments,
                                   size_t n, const anim_tool_info *tool, anim_strbuf *out,
                                   size_t *splice_at, anim_error *err)
{
    anim_json_writer w;
    anim_json_writer_init(&w, out, true);
    anim_output_envelope_begin(&w, tool, "lint");
    write_summary(&w, s);
    anim_json_writer_key(&w, "files");
    anim_json_writer_begin_array(&w);
    anim_output_splice_records(&w, fragments, n, splice_at);
    anim_json_writer_end_array(&w);
    anim_json_writer_end_object(&w);
    anim_strbuf_putc(out, '\n');
    if (!anim_json_writer_ok(&w) || out->failed)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing lint JSON");
    return 0;
}

int anim_render_lint_json(const anim_lint_json_input *inputs, size_t n,
                          const anim_lint_render_options *opts, anim_strbuf *out,
                          anim_error *err)
{
    const anim_lint_file **files = calloc(n ? n : 1, sizeof *files);
    anim_strbuf *fragments = calloc(n ? n : 1, sizeof *fragments);
    int rc = files && fragments ? 0 : anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (size_t i = 0; rc == 0 && i < n; i++) {
        files[i] = inputs[i].file;
        rc = anim_render_lint_json_file(&inputs[i], &fragments[i], err);
    }
    if (rc == 0)
        rc = anim_render_lint_json_assemble(files, fragments, n, opts, out, NULL, err);
    for (size_t i = 0; fragments && i < n; i++)
        anim_strbuf_free(&fragments[i]);
    free(fragments);
    free((void *)files);
    return rc;
}
