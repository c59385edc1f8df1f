/* The before/after comparison: one named clip of each of two documents,
 * side by side at one normalized phase. Each side keeps its own findings,
 * gaps, predictions, judged contexts and identity (content digests of the
 * file and of its whole dependency closure; no path). The role-trajectory,
 * gait and shared root panels are drawn here from the judged grids; an
 * evidence-only comparison replaces them with the omission notice, since
 * each is a drawing of the pose grid. */
#include <stdio.h>
#include <string.h>

#include "animsmith/hash.h"
#include "animsmith/resources.h"
#include "report/report_internal.h"

typedef struct compare_side {
    const char *label;          /* "before" / "after" */
    report_doc rd;
    bool open;
    char closure_hex[65];
    uint32_t closure_files;
} compare_side;

/* A name held by two bones cannot be matched across the two sides. */
static int check_skeleton_names(const compare_side *s, anim_error *err)
{
    const anim_doc *doc = s->rd.doc;
    for (uint32_t a = 0; a < doc->bone_count; a++)
        for (uint32_t b = a + 1; b < doc->bone_count; b++)
            if (strcmp(doc->bones[a].name, doc->bones[b].name) == 0)
                return anim_error_set(err, ANIM_ERR_INVALID,
                                      "%s: the %s skeleton names two bones '%s' (bones %u and "
                                      "%u); the comparison matches bones by name",
                                      s->rd.in->path, s->label, doc->bones[a].name, a, b);
    return 0;
}

static const char *parent_name(const anim_doc *doc, uint32_t b)
{
    uint32_t p = doc->bones[b].parent;
    return p == ANIM_NONE || p >= doc->bone_count ? NULL : doc->bones[p].name;
}

/* Both sides must hold the same named skeleton: every bone of one is in
 * the other under the same parent. */
static int check_compatible(const compare_side *bs, const compare_side *as, anim_error *err)
{
    const anim_doc *b = bs->rd.doc, *a = as->rd.doc;
    if (b->bone_count != a->bone_count)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s has %u bones and %s %u; the comparison needs the same named "
                              "skeleton on both sides",
                              bs->rd.in->path, b->bone_count, as->rd.in->path, a->bone_count);
    for (uint32_t i = 0; i < b->bone_count; i++) {
        uint32_t j = anim_doc_find_bone(a, b->bones[i].name);
        if (j == ANIM_NONE)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "bone '%s' (bone %u of %s) is not in %s; the comparison needs "
                                  "the same named skeleton on both sides",
                                  b->bones[i].name, i, bs->rd.in->path, as->rd.in->path);
        const char *pb = parent_name(b, i), *pa = parent_name(a, j);
        if ((pb == NULL) != (pa == NULL) || (pb && strcmp(pb, pa) != 0))
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "bone '%s' has parent '%s' in %s and '%s' in %s; the "
                                  "comparison needs the same named skeleton on both sides",
                                  b->bones[i].name, pb ? pb : "(none)", bs->rd.in->path,
                                  pa ? pa : "(none)", as->rd.in->path);
    }
    return 0;
}

/* The closure digest: SHA-256 over the file's digest, then each buffer and
 * image file's kind, URI and digest in resource order. A file that is
 * missing or unreadable makes the closure incomplete, which is refused:
 * the identity would not pin what the report shows. */
static int closure_identity(compare_side *s, anim_error *err)
{
    const anim_asset *asset = s->rd.in->asset;
    anim_resource *list = NULL;
    uint32_t n = 0;
    if (anim_asset_resources(asset, s->rd.arena, &list, &n, err))
        return -1;
    anim_strbuf text = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&text, "file %s\n", s->rd.lint.sha256_hex);
    uint64_t cap = anim_limits_get(&asset->doc.limits, ANIM_LIMIT_FILE);
    for (uint32_t i = 1; i < n; i++) {
        char hex[65];
        uint64_t bytes;
        if (anim_sha256_file_hex(list[i].path, cap, hex, &bytes)) {
            anim_strbuf_free(&text);
            return anim_error_set(err, ANIM_ERR_IO,
                                  "%s: the %s input's dependency closure is incomplete: %s %u "
                                  "file %s cannot be read",
                                  s->rd.in->path, s->label,
                                  list[i].kind == ANIM_RESOURCE_BUFFER ? "buffer" : "image",
                                  list[i].index, list[i].path);
        }
        anim_strbuf_printf(&text, "%s %s %s %llu\n",
                           list[i].kind == ANIM_RESOURCE_BUFFER ? "buffer" : "image", list[i].uri,
                           hex, (unsigned long long)bytes);
    }
    if (text.failed) {
        anim_strbuf_free(&text);
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    anim_sha256_hex(text.data, text.len, s->closure_hex);
    s->closure_files = n;
    anim_strbuf_free(&text);
    return 0;
}

static bool is_loop_seam_check(const char *id)
{
    return !strcmp(id, "loop-closure") || !strcmp(id, "loop-seam") ||
           !strcmp(id, "loop-seam-vel") || !strcmp(id, "loop-seam-rot");
}

/* The judged contexts: a loop-seam family finding was judged on the
 * clip's two endpoint frames. Indexes follow report_write_findings. */
static void write_contexts(anim_json_writer *w, const compare_side *s)
{
    const report_doc *rd = &s->rd;
    uint32_t last = rd->series[rd->clips[0]].frame_count - 1;
    anim_json_writer_key(w, "contexts");
    anim_json_writer_begin_array(w);
    uint64_t index = 0;
    for (size_t r = 0; r < rd->lint.record_count; r++)
        for (uint32_t i = 0; i < rd->lint.records[r].finding_count; i++) {
            const anim_finding *f = &rd->lint.records[r].findings[i];
            if (!report_doc_keeps_clip_name(rd, f->clip))
                continue;
            if (is_loop_seam_check(f->check_id) && f->clip) {
                anim_json_writer_begin_object(w);
                anim_json_writer_key(w, "finding");
                anim_json_writer_uint(w, index);
                anim_json_writer_key(w, "kind");
                anim_json_writer_string(w, "loop_seam");
                anim_json_writer_key(w, "frames");
                anim_json_writer_begin_array(w);
                anim_json_writer_uint(w, 0);
                anim_json_writer_uint(w, last);
                anim_json_writer_end_array(w);
                anim_json_writer_end_object(w);
            }
            index++;
        }
    anim_json_writer_end_array(w);
}

static void write_stance_side(anim_json_writer *w, const char *key, const anim_vec3 *foot,
                              uint32_t frames, double contact, anim_arena *arena)
{
    anim_json_writer_key(w, key);
    anim_json_writer_begin_array(w);
    uint32_t n = report_stance_intervals(foot, frames, contact, NULL, 0);
    uint32_t *ranges = n ? anim_arena_alloc(arena, (size_t)n * 2 * sizeof *ranges) : NULL;
    if (ranges)
        report_stance_intervals(foot, frames, contact, ranges, n);
    for (uint32_t i = 0; ranges && i < n; i++) {
        anim_json_writer_begin_array(w);
        anim_json_writer_uint(w, ranges[2 * i]);
        anim_json_writer_uint(w, ranges[2 * i + 1]);
        anim_json_writer_end_array(w);
    }
    if (n && !ranges)
        w->out->failed = true;
    anim_json_writer_end_array(w);
}

static int write_side(anim_json_writer *w, compare_side *s, bool evidence, uint64_t *findings,
                      anim_error *err)
{
    report_doc *rd = &s->rd;
    const report_series *ser = &rd->series[rd->clips[0]];
    anim_json_writer_key(w, s->label);
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "label");
    anim_json_writer_string(w, s->label);
    /* The prefix of this side's #finding-<side>-<index> links. */
    char anchor[32];
    snprintf(anchor, sizeof anchor, "finding-%s-", s->label);
    anim_json_writer_key(w, "anchor");
    anim_json_writer_string(w, anchor);
    anim_json_writer_key(w, "identity");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "sha256");
    anim_json_writer_string(w, rd->lint.sha256_hex);
    anim_json_writer_key(w, "bytes");
    anim_json_writer_uint(w, rd->lint.byte_count);
    anim_json_writer_key(w, "closure");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "sha256");
    anim_json_writer_string(w, s->closure_hex);
    anim_json_writer_key(w, "files");
    anim_json_writer_uint(w, s->closure_files);
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
    report_write_skeleton(w, rd);
    report_write_findings(w, rd, findings);
    write_contexts(w, s);
    anim_json_writer_key(w, "stance");
    if (ser->left_foot || ser->right_foot) {
        anim_json_writer_begin_object(w);
        write_stance_side(w, "left", ser->left_foot, ser->frame_count, rd->contact_height_m, rd->arena);
        write_stance_side(w, "right", ser->right_foot, ser->frame_count, rd->contact_height_m, rd->arena);
        anim_json_writer_end_object(w);
    } else {
        anim_json_writer_null(w);
    }
    anim_json_writer_key(w, "clip");
    char ids[2][40];
    snprintf(ids[0], sizeof ids[0], "trails-%s", s->label);
    snprintf(ids[1], sizeof ids[1], "stance-%s", s->label);
    const char *figures[3] = {"shared-root", ids[0], ids[1]};
    report_clip_streams streams = {!evidence, false, NULL, 0, true};
    if (report_write_clip(w, rd, 0, &streams, figures, evidence ? 0 : 3, err))
        return -1;
    anim_json_writer_end_object(w);
    return 0;
}

static int draw_panels(anim_strbuf *charts, compare_side *sides, bool evidence, anim_error *err)
{
    if (evidence) {
        anim_strbuf_puts(charts, "<p class=\"notice evidence-notice\">");
        anim_strbuf_puts(charts, report_evidence_notice);
        anim_strbuf_puts(charts, " The trajectory, gait and shared root panels draw the pose "
                                 "grid, so they are omitted too.</p>\n");
        return 0;
    }
    const report_chart_clip *b = &sides[0].rd.series[sides[0].rd.clips[0]].chart;
    const report_chart_clip *a = &sides[1].rd.series[sides[1].rd.clips[0]].chart;
    double scale = report_chart_trails_scale(b, a);
    if (report_chart_shared_root(charts, b, a, scale, "shared-root", err))
        return -1;
    for (int i = 0; i < 2; i++) {
        const report_chart_clip *c = i ? a : b;
        char id[40];
        snprintf(id, sizeof id, "trails-%s", sides[i].label);
        if (report_chart_trails(charts, c, sides[i].label, scale, id, err))
            return -1;
        snprintf(id, sizeof id, "stance-%s", sides[i].label);
        if (report_chart_stance(charts, c, sides[i].label, id, err))
            return -1;
    }
    return 0;
}

static int open_sides(compare_side *sides, const anim_html_report_input *before,
                      const anim_html_report_input *after, bool evidence, anim_error *err)
{
    const anim_html_report_input *in[2] = {before, after};
    for (int i = 0; i < 2; i++) {
        if (!in[i]->clip)
            return anim_error_set(err, ANIM_ERR_USAGE, "the comparison needs a clip on each side");
        sides[i].open = true;
        const report_pose_bound bound = {ANIM_HTML_REPORT_COMPARISON_POSE_BYTES,
                                         "comparison's 32 MiB bound per side",
                                         "use --evidence-only"};
        if (report_doc_open(&sides[i].rd, in[i], false, evidence ? NULL : &bound, err) ||
            check_skeleton_names(&sides[i], err) || closure_identity(&sides[i], err))
            return -1;
    }
    if (check_compatible(&sides[0], &sides[1], err))
        return -1;
    if (!strcmp(sides[0].closure_hex, sides[1].closure_hex))
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s and %s are the same document (identical bytes and dependency "
                              "closure); a comparison needs two revisions",
                              before->path, after->path);
    return 0;
}

int anim_html_report_render_comparison(const anim_html_report_input *before,
                                       const anim_html_report_input *after,
                                       const anim_html_report_options *opts, anim_strbuf *out,
                                       anim_html_report_summary *summary, anim_error *err)
{
    bool evidence = opts && opts->evidence_only;
    memset(summary, 0, sizeof *summary);
    /* A LOD is measured against one document; a comparison has two. */
    if (opts && opts->lod)
        return anim_error_set(err, ANIM_ERR_USAGE,
                              "report: a LOD's mesh quality is a single-document section; "
                              "required no LOD with a comparison");
    compare_side sides[2];
    memset(sides, 0, sizeof sides);
    sides[0].label = "before";
    sides[1].label = "after";
    anim_strbuf data = ANIM_STRBUF_INIT, charts = ANIM_STRBUF_INIT;
    int rc = open_sides(sides, before, after, evidence, err);
    if (rc == 0) {
        anim_json_writer w;
        anim_json_writer_init(&w, &data, false);
        anim_json_writer_begin_object(&w);
        report_write_head(&w, "comparison", evidence, opts);
        anim_json_writer_key(&w, "sides");
        anim_json_writer_begin_object(&w);
        uint64_t counts[2] = {0, 0};
        for (int i = 0; i < 2 && rc == 0; i++)
            rc = write_side(&w, &sides[i], evidence, &counts[i], err);
        anim_json_writer_end_object(&w);
        anim_json_writer_end_object(&w);
        summary->findings = counts[0] + counts[1];
        if (rc == 0)
            rc = draw_panels(&charts, sides, evidence, err);
        if (rc == 0 && !anim_json_writer_ok(&w))
            rc = anim_error_set(err, ANIM_ERR_INVALID, "report data is not well-formed JSON");
    }
    if (rc == 0) {
        char title[512];
        snprintf(title, sizeof title, "%s / %s", before->clip, after->clip);
        report_page page = {title, true, evidence, &charts, &data};
        rc = report_page_render(&page, out, err);
    }
    if (rc == 0)
        summary->clips = 1;
    anim_strbuf_free(&data);
    anim_strbuf_free(&charts);
    for (int i = 0; i < 2; i++)
        if (sides[i].open)
            report_doc_close(&sides[i].rd);
    return rc;
}
