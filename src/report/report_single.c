/* The single-document report: every clip with a judged grid (or the one
 * --clip names), its findings, gaps and predictions, its two charts, one
 * figure per declared gait group a shown clip belongs to, the skinned mesh,
 * the blend's local streams and, with a LOD, its mesh quality. */
#include <stdio.h>
#include <string.h>

#include "report/report_internal.h"

/* Frames over the shown clips: what each per-frame stream is multiplied by. */
static uint64_t shown_frames(const report_doc *rd)
{
    uint64_t frames = 0;
    for (uint32_t i = 0; i < rd->clip_count; i++)
        frames += rd->series[rd->clips[i]].frame_count;
    return frames;
}

/* The gait groups drawn: those with a shown member. */
static int draw_groups(anim_strbuf *charts, anim_json_writer *w, const report_doc *rd,
                       anim_error *err)
{
    const anim_config *cfg = rd->in->config;
    anim_json_writer_key(w, "gait_groups");
    anim_json_writer_begin_array(w);
    uint32_t drawn = 0;
    for (uint32_t g = 0; cfg && g < cfg->gait_group_count; g++) {
        const anim_gait_group *grp = &cfg->gait_groups[g];
        bool shown = false;
        report_gait_member *members =
            anim_arena_calloc(rd->arena, grp->clips.count ? grp->clips.count : 1, sizeof *members);
        if (!members)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        for (uint32_t m = 0; m < grp->clips.count; m++) {
            bool amb;
            uint32_t c = report_doc_find_clip(rd->doc, grp->clips.items[m], &amb);
            const report_series *s = c != ANIM_NONE ? &rd->series[c] : NULL;
            members[m].name = grp->clips.items[m];
            members[m].clip_index = s && s->frame_count ? s->report_clip : -1;
            members[m].clip = s && s->frame_count ? &s->chart : NULL;
            members[m].has_anchor = s && s->has_anchor;
            members[m].anchor = s ? s->anchor : 0.0;
            shown = shown || members[m].clip_index >= 0;
        }
        if (!shown)
            continue;
        char id[32];
        snprintf(id, sizeof id, "gait-group-%u", drawn++);
        if (report_chart_gait_group(charts, grp->name, members, grp->clips.count,
                                    grp->max_gait_phase_spread, id, err))
            return -1;
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "name");
        anim_json_writer_string(w, grp->name);
        anim_json_writer_key(w, "members");
        anim_json_writer_begin_array(w);
        for (uint32_t m = 0; m < grp->clips.count; m++)
            anim_json_writer_string(w, grp->clips.items[m]);
        anim_json_writer_end_array(w);
        anim_json_writer_key(w, "figure");
        anim_json_writer_string(w, id);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    return 0;
}

static void write_document(anim_json_writer *w, const report_doc *rd)
{
    const anim_lint_file *lf = &rd->lint;
    anim_json_writer_key(w, "document");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "path");
    if (rd->in->path)
        anim_json_writer_string(w, rd->in->path);
    else
        anim_json_writer_null(w);
    anim_json_writer_key(w, "sha256");
    anim_json_writer_string(w, lf->sha256_hex);
    anim_json_writer_key(w, "bytes");
    anim_json_writer_uint(w, lf->byte_count);
    anim_json_writer_key(w, "profile");
    anim_json_writer_string(w, rd->rig.label);
    anim_json_writer_end_object(w);
}

void report_write_head(anim_json_writer *w, const char *form, bool evidence_only,
                       const anim_html_report_options *opts)
{
    anim_json_writer_key(w, "schema");
    anim_json_writer_string(w, "urn:animsmith:schema:html-report:1");
    anim_json_writer_key(w, "form");
    anim_json_writer_string(w, form);
    anim_json_writer_key(w, "evidence_only");
    anim_json_writer_bool(w, evidence_only);
    anim_json_writer_key(w, "tool");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "name");
    anim_json_writer_string(w, "animsmith");
    anim_json_writer_key(w, "version");
    anim_json_writer_string(w, opts && opts->tool_version ? opts->tool_version : "");
    anim_json_writer_end_object(w);
}

/* The clips, one grid at a time, with their figures drawn on the way. */
static int write_clips(anim_json_writer *w, anim_strbuf *charts, const report_doc *rd,
                       const report_clip_streams *streams, anim_error *err)
{
    anim_json_writer_key(w, "clips");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < rd->clip_count; i++) {
        const report_series *s = &rd->series[rd->clips[i]];
        char ids[2][32];
        snprintf(ids[0], sizeof ids[0], "root-path-%u", i);
        snprintf(ids[1], sizeof ids[1], "foot-heights-%u", i);
        if (report_chart_root_path(charts, &s->chart, ids[0], err) ||
            report_chart_foot_heights(charts, &s->chart, ids[1], err))
            return -1;
        const char *figures[2] = {ids[0], ids[1]};
        if (report_write_clip(w, rd, i, streams, figures, 2, err))
            return -1;
    }
    anim_json_writer_end_array(w);
    return 0;
}

int anim_html_report_render(const anim_html_report_input *in, const anim_html_report_options *opts,
                            anim_strbuf *out, anim_html_report_summary *summary, anim_error *err)
{
    bool evidence = opts && opts->evidence_only;
    memset(summary, 0, sizeof *summary);
    report_doc rd;
    const report_pose_bound bound = {ANIM_HTML_REPORT_POSE_BYTES, "report's 256 MiB bound",
                                     "narrow it with --clip NAME or use --evidence-only"};
    if (report_doc_open(&rd, in, true, evidence ? NULL : &bound, err)) {
        report_doc_close(&rd);
        return -1;
    }
    anim_strbuf data = ANIM_STRBUF_INIT, charts = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &data, false);
    anim_json_writer_begin_object(&w);
    report_write_head(&w, "single", evidence, opts);
    write_document(&w, &rd);
    report_write_skeleton(&w, &rd);
    report_write_findings(&w, &rd, &summary->findings);
    int rc = 0;
    report_clip_streams streams = {!evidence, false, NULL, 0, false};
    report_mesh_drawn drawn;
    memset(&drawn, 0, sizeof drawn);
    if (!evidence) {
        uint64_t frames = shown_frames(&rd);
        uint64_t positions = frames * rd.doc->bone_count * 12;
        report_mesh_room room = {frames, ANIM_HTML_REPORT_POSE_BYTES - positions};
        summary->mesh = report_write_mesh(&w, &rd, &room, &drawn, &summary->mesh_omission, err);
        streams.matrix_bones = summary->mesh ? drawn.matrix_bones : NULL;
        streams.matrix_bone_count = summary->mesh ? drawn.matrix_bone_count : 0;
        if (rc == 0)
            rc = report_write_rest_pose(&w, &rd, streams.matrix_bones, streams.matrix_bone_count, err);
        const char *why = report_local_admission(&rd);
        if (!why && !report_local_topology_ok(rd.doc))
            why = "the skeleton's parent order is not usable for forward kinematics";
        streams.local = why == NULL;
        summary->blend = why == NULL && rd.clip_count >= 2;
        anim_json_writer_key(&w, "blend");
        anim_json_writer_begin_object(&w);
        anim_json_writer_key(&w, "authority");
        anim_json_writer_string(&w, "sampled-local-trs-blend-v1");
        anim_json_writer_key(&w, "available");
        anim_json_writer_bool(&w, why == NULL);
        anim_json_writer_key(&w, "omission");
        if (why)
            anim_json_writer_string(&w, why);
        else
            anim_json_writer_null(&w);
        anim_json_writer_end_object(&w);
    } else if (rc == 0) {
        anim_json_writer_key(&w, "mesh");
        anim_json_writer_null(&w);
        anim_json_writer_key(&w, "mesh_omission");
        anim_json_writer_null(&w);
        anim_json_writer_key(&w, "blend");
        anim_json_writer_begin_object(&w);
        anim_json_writer_key(&w, "authority");
        anim_json_writer_string(&w, "sampled-local-trs-blend-v1");
        anim_json_writer_key(&w, "available");
        anim_json_writer_bool(&w, false);
        anim_json_writer_key(&w, "omission");
        anim_json_writer_string(&w, report_evidence_notice);
        anim_json_writer_end_object(&w);
    }
    if (rc == 0)
        rc = report_write_mesh_quality(&w, &rd, opts, summary->mesh ? &drawn : NULL, summary, err);
    if (rc == 0)
        rc = write_clips(&w, &charts, &rd, &streams, err);
    if (rc == 0)
        rc = draw_groups(&charts, &w, &rd, err);
    anim_json_writer_end_object(&w);
    if (rc == 0 && !anim_json_writer_ok(&w))
        rc = anim_error_set(err, ANIM_ERR_INVALID, "report data is not well-formed JSON");
    if (rc == 0) {
        const char *title = in->path ? in->path : "document";
        const char *slash = strrchr(title, '/');
        report_page page = {slash ? slash + 1 : title, false, evidence, &charts, &data};
        rc = report_page_render(&page, out, err);
    }
    if (rc == 0)
        summary->clips = rd.clip_count;
    anim_strbuf_free(&data);
    anim_strbuf_free(&charts);
    report_doc_close(&rd);
    return rc;
}
