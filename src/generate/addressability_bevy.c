/* The Bevy section: one run of the ordinary lint machinery with only
 * engine-addressability selected, so the document embeds the same check
 * record (lifecycle, facets, budget marker) lint would write, next to the
 * same-load prediction provenance. There is no second evaluation of the
 * selector rule here: its facets' subjects (Animation{i}) are the
 * authoritative display selectors. */
#include <string.h>

#include "generate/addressability.h"

#define CHECK_ID "engine-addressability"

int addr_bevy_evaluate(const anim_asset *asset, const anim_config *cfg, addr_bevy_eval *out,
                       anim_error *err)
{
    memset(out, 0, sizeof *out);
    static const char *const select[] = {CHECK_ID};
    anim_lint_options opts;
    memset(&opts, 0, sizeof opts);
    opts.select = select;
    opts.select_count = 1;
    if (anim_lint_run(asset, cfg, &opts, &out->file, err))
        return -1;
    for (size_t r = 0; r < out->file.record_count; r++)
        if (strcmp(out->file.records[r].check_id, CHECK_ID) == 0)
            out->record = &out->file.records[r];
    if (!out->record || !out->file.engine) {
        addr_bevy_eval_free(out);
        return anim_error_set(err, ANIM_ERR_USAGE,
                              "%s: the engine-addressability check or the engine profile's "
                              "run facts are missing from this build",
                              asset->source.path);
    }
    anim_check_facet_counts(out->record, &out->available, &out->unavailable);
    return 0;
}

void addr_bevy_eval_free(addr_bevy_eval *e)
{
    if (e->file.arena)
        anim_lint_file_free(&e->file);
    memset(e, 0, sizeof *e);
}

int addr_write_bevy_members(anim_json_writer *w, const addr_bevy_eval *e, anim_error *err)
{
    anim_json_writer_key(w, "prediction_provenance");
    if (anim_engine_write_provenance(w, e->file.engine, err))
        return -1;
    anim_json_writer_key(w, "evaluation");
    anim_lint_json_write_record(w, e->record);
    return 0;
}
