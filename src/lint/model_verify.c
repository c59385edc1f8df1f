/* The model engine's verifier of compiled GLBs: the same load and the same
 * mechanical checks `animsmith lint` runs with no configuration, so a
 * document the engine compiles is one the linter accepts. It reports the
 * first error-severity finding in catalog order (records) and finding
 * order, which is deterministic for the same bytes. */
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/json_write.h"
#include "animsmith/lint.h"

static void write_finding(anim_strbuf *out, const anim_finding *f)
{
    anim_json_writer w;
    anim_json_writer_init(&w, out, false);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "check");
    anim_json_writer_string(&w, f->check_id);
    anim_json_writer_key(&w, "severity");
    anim_json_writer_string(&w, anim_severity_name(f->severity));
    anim_json_writer_key(&w, "message");
    anim_json_writer_string(&w, f->message ? f->message : "");
    if (f->clip) {
        anim_json_writer_key(&w, "clip");
        anim_json_writer_string(&w, f->clip);
    }
    if (f->bone) {
        anim_json_writer_key(&w, "bone");
        anim_json_writer_string(&w, f->bone);
    }
    if (f->node) {
        anim_json_writer_key(&w, "node");
        anim_json_writer_string(&w, f->node);
    }
    if (f->has_time) {
        anim_json_writer_key(&w, "time");
        anim_json_writer_f64(&w, f->time_s);
    }
    anim_json_writer_end_object(&w);
}

int anim_lint_verify_glb(const void *glb, size_t len, void *user, anim_strbuf *finding,
                         anim_error *err)
{
    (void)user;
    anim_config *cfg = anim_config_default(err);
    if (!cfg)
        return -1;
    anim_load_options opts;
    anim_config_load_options(cfg, &opts);
    anim_asset *asset = anim_asset_load_memory(glb, len, true, NULL, "compiled model", &opts, err);
    if (!asset) {
        anim_config_free(cfg);
        return -1;
    }
    anim_lint_file file;
    memset(&file, 0, sizeof file);
    int rc = anim_lint_run(asset, cfg, NULL, &file, err) ? -1 : 0;
    for (size_t r = 0; rc == 0 && r < file.record_count; r++) {
        const anim_check_record *rec = &file.records[r];
        for (uint32_t i = 0; i < rec->finding_count; i++)
            if (rec->findings[i].severity == ANIM_SEVERITY_ERROR) {
                write_finding(finding, &rec->findings[i]);
                rc = 1;
                break;
            }
    }
    if (rc == 1 && finding->failed)
        rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    if (file.arena)
        anim_lint_file_free(&file);
    anim_asset_free(asset);
    anim_config_free(cfg);
    return rc;
}
