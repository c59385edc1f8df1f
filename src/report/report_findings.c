/* The report's skeleton, findings, coverage gaps and prediction facets,
 * taken from the same check records `lint --format json` prints. Each
 * finding also carries its target in the report: the clip it selects, the
 * grid frame its time falls on and the bone it highlights, or why it
 * selects nothing. */
#include <math.h>
#include <string.h>

#include "animsmith/base64.h"
#include "animsmith/report.h"
#include "report/report_internal.h"

void report_json_base64(anim_json_writer *w, const void *data, size_t n)
{
    anim_strbuf b64 = ANIM_STRBUF_INIT;
    anim_strbuf_putc(&b64, '"');
    anim_base64_append(&b64, data, n);
    anim_strbuf_putc(&b64, '"');
    if (b64.failed)
        w->out->failed = true;
    else
        anim_json_writer_raw(w, b64.data, b64.len);
    anim_strbuf_free(&b64);
}

void report_write_skeleton(anim_json_writer *w, const report_doc *rd)
{
    const anim_doc *doc = rd->doc;
    anim_json_writer_key(w, "skeleton");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "bones");
    anim_json_writer_begin_array(w);
    for (uint32_t b = 0; b < doc->bone_count; b++) {
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "name");
        anim_json_writer_string(w, doc->bones[b].name);
        anim_json_writer_key(w, "parent");
        uint32_t p = doc->bones[b].parent;
        anim_json_writer_int(w, p != ANIM_NONE && p < b ? (int64_t)p : -1);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "roles");
    anim_json_writer_begin_object(w);
    for (int r = 0; r < ANIM_ROLE_COUNT; r++) {
        if (rd->rig.bone[r] == ANIM_NONE)
            continue;
        anim_json_writer_key(w, anim_role_name((anim_role)r));
        anim_json_writer_uint(w, rd->rig.bone[r]);
    }
    anim_json_writer_end_object(w);
}

/* The position of a doc clip in the report's list, or -1. */
static int32_t report_index(const report_doc *rd, uint32_t doc_clip)
{
    for (uint32_t i = 0; i < rd->clip_count; i++)
        if (rd->clips[i] == doc_clip)
            return (int32_t)i;
    return -1;
}

static void write_target(anim_json_writer *w, const report_doc *rd, const anim_finding *f)
{
    const anim_doc *doc = rd->doc;
    const char *refusal = NULL;
    int32_t clip = -1;
    if (!f->clip) {
        refusal = "no_clip";
    } else {
        bool ambiguous;
        uint32_t c = report_doc_find_clip(doc, f->clip, &ambiguous);
        clip = c == ANIM_NONE ? -1 : report_index(rd, c);
        if (ambiguous)
            refusal = "ambiguous_clip";
        else if (clip < 0)
            refusal = "missing_clip";
    }
    anim_json_writer_key(w, "target");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "clip_index");
    if (refusal)
        anim_json_writer_null(w);
    else
        anim_json_writer_int(w, clip);
    anim_json_writer_key(w, "frame");
    const report_series *s = refusal ? NULL : &rd->series[rd->clips[clip]];
    if (s && f->has_time && s->frame_count >= 2 && isfinite(f->time_s)) {
        /* The grid frame nearest the judged time (the times are uniform). */
        double d = s->times[s->frame_count - 1];
        double u = d > 0.0 ? f->time_s / d : 0.0;
        double fr = floor(u * (double)(s->frame_count - 1) + 0.5);
        if (!(fr >= 0.0))
            fr = 0.0;
        if (fr > (double)(s->frame_count - 1))
            fr = (double)(s->frame_count - 1);
        anim_json_writer_uint(w, (uint64_t)fr);
    } else {
        anim_json_writer_null(w);
    }
    anim_json_writer_key(w, "bone_index");
    uint32_t bone = f->bone ? anim_doc_find_bone(doc, f->bone) : ANIM_NONE;
    if (!refusal && bone != ANIM_NONE)
        anim_json_writer_uint(w, bone);
    else
        anim_json_writer_null(w);
    anim_json_writer_key_string_or_null(w, "refusal", refusal);
    anim_json_writer_end_object(w);
}

static void write_finding(anim_json_writer *w, const report_doc *rd, const anim_finding *f,
                          uint64_t index)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "index");
    anim_json_writer_uint(w, index);
    anim_json_writer_key(w, "check_id");
    anim_json_writer_string(w, f->check_id);
    anim_json_writer_key(w, "severity");
    anim_json_writer_string(w, anim_severity_name(f->severity));
    anim_json_writer_key_string_or_null(w, "clip", f->clip);
    anim_json_writer_key_string_or_null(w, "bone", f->bone);
    anim_json_writer_key_string_or_null(w, "node", f->node);
    anim_json_writer_key(w, "time_s");
    if (f->has_time)
        anim_json_writer_f32(w, (float)f->time_s); /* an f32 value, as lint JSON writes it */
    else
        anim_json_writer_null(w);
    anim_json_writer_key(w, "measured");
    anim_lint_json_value(w, &f->measured);
    anim_json_writer_key(w, "expected");
    anim_lint_json_value(w, &f->expected);
    anim_json_writer_key(w, "message");
    anim_json_writer_string(w, f->message);
    write_target(w, rd, f);
    anim_json_writer_end_object(w);
}

static void write_gap(anim_json_writer *w, const char *check_id, const anim_gap *g)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "check_id");
    anim_json_writer_string(w, check_id);
    anim_json_writer_key(w, "code");
    anim_json_writer_string(w, g->code);
    anim_json_writer_key(w, "message");
    anim_json_writer_string(w, g->message);
    anim_json_writer_key(w, "scope");
    if (g->has_scope) {
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "code");
        anim_json_writer_string(w, g->scope.code);
        anim_json_writer_key_string_or_null(w, "subject", g->scope.subject);
        anim_json_writer_end_object(w);
    } else {
        anim_json_writer_null(w);
    }
    anim_json_writer_end_object(w);
}

/* One prediction facet as the lists show it: the check, the scope, the
 * state, the typed result (available) or the reasons (unavailable). */
static void write_facet(anim_json_writer *w, const char *check_id,
                        const anim_prediction_facet *f)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "check_id");
    anim_json_writer_string(w, check_id);
    anim_json_writer_key(w, "scope");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "code");
    anim_json_writer_string(w, f->scope.code);
    anim_json_writer_key_string_or_null(w, "subject", f->scope.subject);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "state");
    anim_json_writer_string(w, anim_facet_state_name(f->state));
    anim_json_writer_key(w, "result");
    if (f->state == ANIM_FACET_AVAILABLE) {
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "kind");
        anim_json_writer_string(w, f->result_kind ? f->result_kind : "");
        for (uint32_t k = 0; k < f->result_count; k++) {
            anim_json_writer_key(w, f->result[k].key);
            anim_lint_json_field(w, &f->result[k]);
        }
        anim_json_writer_end_object(w);
    } else {
        anim_json_writer_null(w);
    }
    anim_json_writer_key(w, "reasons");
    anim_json_writer_begin_array(w);
    for (uint32_t k = 0; k < f->reason_count; k++)
        anim_json_writer_string(w, f->reasons[k]);
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);
}

/* A gap belongs in a one-clip report unless its subject is another clip
 * of the document. */
static bool keeps_gap(const report_doc *rd, const anim_gap *g)
{
    if (!rd->in->clip || !g->has_scope || !g->scope.subject)
        return true;
    bool ambiguous;
    if (report_doc_find_clip(rd->doc, g->scope.subject, &ambiguous) == ANIM_NONE && !ambiguous)
        return true;
    return strcmp(g->scope.subject, rd->in->clip) == 0;
}

void report_write_findings(anim_json_writer *w, const report_doc *rd, uint64_t *finding_count)
{
    const anim_lint_file *lf = &rd->lint;
    uint64_t n = 0;
    anim_json_writer_key(w, "findings");
    anim_json_writer_begin_array(w);
    for (size_t r = 0; r < lf->record_count; r++)
        for (uint32_t i = 0; i < lf->records[r].finding_count; i++) {
            const anim_finding *f = &lf->records[r].findings[i];
            if (report_doc_keeps_clip_name(rd, f->clip))
                write_finding(w, rd, f, n++);
        }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "gaps");
    anim_json_writer_begin_array(w);
    for (size_t r = 0; r < lf->record_count; r++)
        for (uint32_t i = 0; i < lf->records[r].gap_count; i++)
            if (keeps_gap(rd, &lf->records[r].gaps[i]))
                write_gap(w, lf->records[r].check_id, &lf->records[r].gaps[i]);
    anim_json_writer_end_array(w);
    /* Engine prediction facets come from an [engine] profile; without one
     * the list is empty and says so rather than being left out. */
    anim_json_writer_key(w, "predictions");
    anim_json_writer_begin_array(w);
    for (size_t r = 0; r < lf->record_count; r++)
        for (uint32_t i = 0; i < lf->records[r].facet_count; i++)
            write_facet(w, lf->records[r].check_id, &lf->records[r].facets[i]);
    anim_json_writer_end_array(w);
    *finding_count = n;
}
