/* `measure --format json`: the output-v19 envelope around one
 * measurements-v18 object per file, in argument order. A file's record can
 * be rendered on its own (as soon as the file is measured, so its asset is
 * released before the next one is loaded) and the envelope assembled
 * around the records afterwards. */
#include <stdlib.h>

#include "animsmith/measure.h"
#include "animsmith/report.h"

/* files[] sits two containers deep: the envelope object, the array. */
#define FILE_RECORD_DEPTH 2

int anim_render_measure_json_file(const anim_measure_file *f, anim_strbuf *fragment,
                                  anim_error *err)
{
    if (!f->doc || !f->rig || !f->measurements)
        return anim_error_set(err, ANIM_ERR_USAGE,
                              "measure JSON: %s lacks its document, roles or measurements",
                              f->path ? f->path : "a file");
    anim_json_writer w;
    anim_json_writer_init_nested(&w, fragment, true, FILE_RECORD_DEPTH);
    anim_json_writer_begin_object(&w);
    anim_output_write_file_identity(&w, f->path, f->sha256_hex ? f->sha256_hex : "", f->bytes);
    anim_output_write_rig(&w, f->doc, f->rig);
    anim_json_writer_key(&w, "measurements");
    if (anim_measurements_write_json(f->measurements, &w, err)) {
        anim_error_prefix(err, "%s", f->path ? f->path : "");
        return -1;
    }
    anim_json_writer_end_object(&w);
    if (!anim_json_writer_ok(&w) || fragment->failed)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing measure JSON");
    return 0;
}

int anim_render_measure_json_assemble(const anim_strbuf *fragments, size_t n,
                                      const struct anim_tool_info *tool, anim_strbuf *out,
                                      size_t *splice_at, anim_error *err)
{
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
    anim_output_splice_records(&w, fragments, n, splice_at);
    anim_json_writer_end_array(&w);
    anim_json_writer_end_object(&w);
    anim_strbuf_putc(out, '\n');
    if (!anim_json_writer_ok(&w) || out->failed)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing measure JSON");
    return 0;
}

int anim_render_measure_json(const anim_measure_file *files, size_t n,
                             const struct anim_tool_info *tool, anim_strbuf *out, anim_error *err)
{
    anim_strbuf *fragments = calloc(n ? n : 1, sizeof *fragments);
    int rc = fragments ? 0 : anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = anim_render_measure_json_file(&files[i], &fragments[i], err);
    if (rc == 0)
        rc = anim_render_measure_json_assemble(fragments, n, tool, out, NULL, err);
    for (size_t i = 0; fragments && i < n; i++)
        anim_strbuf_free(&fragments[i]);
    free(fragments);
    return rc;
}
