/* diff JSON view (spec 7.5; seed 003 "diff"): the output-v19 envelope
 * with the two inputs as given, the delta count and one object per delta.
 * before/after are left out when a side has no value. */
#include "animsmith/diff.h"
#include "animsmith/json_write.h"
#include "animsmith/report.h"

int anim_render_diff_json(const anim_diff_result *r, const char *before_path,
                          const char *after_path, const anim_tool_info *tool, anim_strbuf *out,
                          anim_error *err)
{
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
    anim_json_writer_key(&w, "deltas");
    anim_json_writer_uint(&w, r->count);
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
    anim_json_writer_end_object(&w);
    anim_strbuf_putc(out, '\n');
    if (!anim_json_writer_ok(&w) || out->failed)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while rendering diff JSON");
    return 0;
}
