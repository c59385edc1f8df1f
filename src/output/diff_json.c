/* diff JSON view: the output-v19 envelope with the two inputs as given,
 * the delta count and one object per delta. before/after are left out
 * when a side has no value. With a findings comparison, summary.findings
 * and a top-level findings object follow (see diff.h); without one the
 * output is exactly the plain measurement-diff shape. */
#include "animsmith/diff.h"
#include "animsmith/json_write.h"
#include "animsmith/report.h"

int anim_render_diff_json(const anim_diff_result *r, const char *before_path,
                          const char *after_path, const anim_tool_info *tool, anim_strbuf *out,
                          anim_error *err)
{
    return anim_render_diff_json_findings(r, NULL, before_path, after_path, tool, out, err);
}

static void opt_string(anim_json_writer *w, const char *key, const char *s, size_t len)
{
    if (!s)
        return;
    anim_json_writer_key(w, key);
    anim_json_writer_string_n(w, s, len);
}

static void severity_counts(anim_json_writer *w, const char *key, const size_t *c)
{
    anim_json_writer_key(w, key);
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "error", c[ANIM_SEVERITY_ERROR]);
    anim_json_writer_key_uint(w, "warning", c[ANIM_SEVERITY_WARNING]);
    anim_json_writer_key_uint(w, "note", c[ANIM_SEVERITY_NOTE]);
    anim_json_writer_end_object(w);
}

static void write_change(anim_json_writer *w, const anim_diff_finding_change *ch)
{
    const anim_diff_finding *f = ch->finding;
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "change");
    anim_json_writer_string(w, ch->change == ANIM_DIFF_ADDED ? "added" : "removed");
    anim_json_writer_key(w, "check_id");
    anim_json_writer_string_n(w, f->check_id, f->check_id_len);
    anim_json_writer_key(w, "severity");
    anim_json_writer_string(w, anim_severity_name(f->severity));
    opt_string(w, "clip", f->clip, f->clip_len);
    opt_string(w, "bone", f->bone, f->bone_len);
    opt_string(w, "node", f->node, f->node_len);
    if (f->has_time) {
        anim_json_writer_key(w, "time_s");
        anim_json_writer_f64(w, f->time_s);
    }
    anim_json_writer_key(w, "message");
    anim_json_writer_string_n(w, f->message, f->message_len);
    anim_json_writer_end_object(w);
}

static void write_findings(anim_json_writer *w, const anim_diff_findings_result *f)
{
    anim_json_writer_key(w, "findings");
    anim_json_writer_begin_object(w);
    severity_counts(w, "before", f->before);
    severity_counts(w, "after", f->after);
    anim_json_writer_key(w, "changes");
    anim_json_writer_begin_array(w);
    for (size_t i = 0; i < f->count; i++)
        write_change(w, &f->changes[i]);
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);
}

int anim_render_diff_json_findings(const anim_diff_result *r, const anim_diff_findings_result *f,
                                   const char *before_path, const char *after_path,
                                   const anim_tool_info *tool, anim_strbuf *out, anim_error *err)
{
    /* Not two lint reports: nothing about findings to say. */
    if (f && !f->compared)
        f = NULL;
    anim_json_writer w;
    anim_json_writer_init(&w, out, true);
    anim_output_envelope_begin(&w, tool, "diff");
    anim_json_writer_key(&w, "inputs");
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "before");
    anim_json_writer_string(&w, before_path ? before_path : "");
    anim_json_writer_key(&w, "after");
    anim_json_writer_string(&w, after_path ? after_path : "");
    anim_json_writer_end_object(&w);
    anim_json_writer_key(&w, "summary");
    anim_json_writer_begin_object(&w);
    anim_json_writer_key_uint(&w, "deltas", r->count);
    if (f) {
        anim_json_writer_key(&w, "findings");
        anim_json_writer_begin_object(&w);
        anim_json_writer_key_uint(&w, "added", f->added);
        anim_json_writer_key_uint(&w, "removed", f->removed);
        anim_json_writer_end_object(&w);
    }
    anim_json_writer_end_object(&w);
    anim_json_writer_key(&w, "deltas");
    anim_json_writer_begin_array(&w);
    for (size_t i = 0; i < r->count; i++) {
        const anim_diff_delta *d = &r->deltas[i];
        anim_json_writer_begin_object(&w);
        anim_json_writer_key(&w, "clip");
        anim_json_writer_string_n(&w, d->clip, d->clip_len);
        anim_json_writer_key(&w, "metric");
        anim_json_writer_string_n(&w, d->metric, d->metric_len);
        if (d->has_before) {
            anim_json_writer_key(&w, "before");
            anim_json_writer_f64(&w, d->before);
        }
        if (d->has_after) {
            anim_json_writer_key(&w, "after");
            anim_json_writer_f64(&w, d->after);
        }
        anim_json_writer_key(&w, "note");
        anim_json_writer_string_n(&w, d->note, d->note_len);
        anim_json_writer_end_object(&w);
    }
    anim_json_writer_end_array(&w);
    if (f)
        write_findings(&w, f);
    anim_json_writer_end_object(&w);
    anim_strbuf_putc(out, '\n');
    if (!anim_json_writer_ok(&w) || out->failed)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while rendering diff JSON");
    return 0;
}
