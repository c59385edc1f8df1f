/* `measure --format json`: the output-v19 envelope around one
 * measurements-v18 object per file, in argument order. */
#include "animsmith/measure.h"
#include "animsmith/report.h"

int anim_render_measure_json(const anim_measure_file *files, size_t n,
                             const struct anim_tool_info *tool, anim_strbuf *out, anim_error *err)
{
    for (size_t i = 0; i < n; i++)
        if (!files[i].doc || !files[i].rig || !files[i].measurements)
            return anim_error_set(err, ANIM_ERR_USAGE,
                                  "measure JSON: file %zu lacks its document, roles or "
                                  "measurements",
                                  i);
    anim_json_writer w;
    anim_json_writer_init(&w, out, true);
    anim_output_envelope_begin(&w, tool, "measure");
    anim_json_writer_key(&w, "summary");
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "files");
    anim_json_writer_uint(&w, n);
    anim_json_writer_end_object(&w);
    anim_json_writer_key(&w, "files");
    anim_json_writer_begin_array(&w);
    for (size_t i = 0; i < n; i++) {
        const anim_measure_file *f = &files[i];
        anim_json_writer_begin_object(&w);
        anim_output_write_file_identity(&w, f->path, f->sha256_hex ? f->sha256_hex : "",
                                        f->bytes);
        anim_output_write_rig(&w, f->doc, f->rig);
        anim_json_writer_key(&w, "measurements");
        if (anim_measurements_write_json(f->measurements, &w, err)) {
            anim_error_prefix(err, "%s", f->path ? f->path : "");
            return -1;
        }
        anim_json_writer_end_object(&w);
    }
    anim_json_writer_end_array(&w);
    anim_json_writer_end_object(&w);
    anim_strbuf_putc(out, '\n');
    if (!anim_json_writer_ok(&w) || out->failed)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing measure JSON");
    return 0;
}
