/* Lint text output and the finding order and
 * coverage grouping it shares with Markdown. Runs of repeated findings are
 * one line each unless opts->expand (lint_text_group.c); opts->color
 * colours the severity words (color.c).
 *
 * Every asset-derived string (path, clip/bone/node names, messages, text
 * values, gap subjects) passes through anim_text_atom so a hostile name
 * cannot move the cursor or reorder a terminal line. */
#include <stdlib.h>
#include <string.h>

#include "animsmith/numfmt.h"
#include "animsmith/report.h"
#include "animsmith/text.h"
#include "output/color.h"
#include "output/lint_text_group.h"

bool anim_lint_is_allowed(const anim_lint_render_options *opts, const char *id)
{
    if (!opts || !opts->allow || !id)
        return false;
    for (size_t i = 0; i < opts->allow_count; i++)
        if (opts->allow[i] && strcmp(opts->allow[i], id) == 0)
            return true;
    return false;
}

/* "No clip" sorts before any clip name; names byte-wise; then the more
 * severe first. */
static int cmp_finding(const anim_finding *a, const anim_finding *b)
{
    if (!a->clip != !b->clip)
        return a->clip ? 1 : -1;
    if (a->clip) {
        int c = strcmp(a->clip, b->clip);
        if (c)
            return c;
    }
    return (int)b->severity - (int)a->severity;
}

/* Stable merge sort: equal keys keep catalog then emission order. */
static void sort_findings(const anim_finding **v, const anim_finding **tmp, size_t n)
{
    if (n < 2)
        return;
    size_t h = n / 2, i = 0, j = h, k = 0;
    sort_findings(v, tmp, h);
    sort_findings(v + h, tmp, n - h);
    while (i < h && j < n)
        tmp[k++] = cmp_finding(v[j], v[i]) < 0 ? v[j++] : v[i++];
    while (i < h)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

const anim_finding **anim_lint_sorted_findings(const anim_lint_file *file,
                                               const anim_lint_render_options *opts,
                                               size_t *count, bool *failed)
{
    size_t n = 0;
    *count = 0;
    for (size_t r = 0; r < file->record_count; r++)
        if (!anim_lint_is_allowed(opts, file->records[r].check_id))
            n += file->records[r].finding_count;
    if (n == 0)
        return NULL;
    const anim_finding **v = calloc(n, sizeof *v);
    const anim_finding **tmp = calloc(n, sizeof *tmp);
    if (!v || !tmp) {
        free(v);
        free(tmp);
        *failed = true;
        return NULL;
    }
    size_t k = 0;
    for (size_t r = 0; r < file->record_count; r++) {
        const anim_check_record *rec = &file->records[r];
        if (anim_lint_is_allowed(opts, rec->check_id))
            continue;
        for (uint32_t f = 0; f < rec->finding_count; f++)
            v[k++] = &rec->findings[f];
    }
    sort_findings(v, tmp, n);
    free(tmp);
    *count = n;
    return v;
}

typedef struct {
    const char *check_id;
    const anim_gap *gap;
} gap_ref;

static int cmp_gap_ref(const gap_ref *a, const gap_ref *b)
{
    int c = strcmp(a->check_id, b->check_id);
    return c ? c : strcmp(a->gap->code, b->gap->code);
}

static void sort_gap_refs(gap_ref *v, gap_ref *tmp, size_t n)
{
    if (n < 2)
        return;
    size_t h = n / 2, i = 0, j = h, k = 0;
    sort_gap_refs(v, tmp, h);
    sort_gap_refs(v + h, tmp, n - h);
    while (i < h && j < n)
        tmp[k++] = cmp_gap_ref(&v[j], &v[i]) < 0 ? v[j++] : v[i++];
    while (i < h)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

void anim_gap_groups_free(anim_gap_group *groups, size_t count)
{
    if (!groups)
        return;
    for (size_t i = 0; i < count; i++)
        free(groups[i].gaps);
    free(groups);
}

anim_gap_group *anim_lint_gap_groups(const anim_lint_file *file, size_t *group_count,
                                     size_t *total, bool *failed)
{
    size_t n = 0;
    *group_count = 0;
    *total = 0;
    for (size_t r = 0; r < file->record_count; r++)
        n += file->records[r].gap_count;
    if (n == 0)
        return NULL;
    gap_ref *refs = calloc(n, sizeof *refs);
    gap_ref *tmp = calloc(n, sizeof *tmp);
    anim_gap_group *groups = calloc(n, sizeof *groups);
    if (!refs || !tmp || !groups)
        goto oom;
    size_t k = 0;
    for (size_t r = 0; r < file->record_count; r++)
        for (uint32_t g = 0; g < file->records[r].gap_count; g++) {
            refs[k].check_id = file->records[r].check_id;
            refs[k].gap = &file->records[r].gaps[g];
            k++;
        }
    sort_gap_refs(refs, tmp, n);
    size_t ng = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && cmp_gap_ref(&refs[i], &refs[j]) == 0)
            j++;
        anim_gap_group *grp = &groups[ng++];
        grp->check_id = refs[i].check_id;
        grp->code = refs[i].gap->code;
        grp->gaps = calloc(j - i, sizeof *grp->gaps);
        if (!grp->gaps)
            goto oom;
        for (size_t m = i; m < j; m++)
            grp->gaps[grp->count++] = refs[m].gap;
        i = j;
    }
    free(refs);
    free(tmp);
    *group_count = ng;
    *total = n;
    return groups;
oom:
    free(refs);
    free(tmp);
    anim_gap_groups_free(groups, n);
    *failed = true;
    return NULL;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

#define GAP_DISPLAY_LIMIT 5

size_t anim_gap_group_summary(const anim_gap_group *g, anim_gap_field field, anim_strbuf *out)
{
    const char **vals = calloc(g->count ? g->count : 1, sizeof *vals);
    if (!vals) {
        out->failed = true;
        return 0;
    }
    size_t n = 0;
    for (size_t i = 0; i < g->count; i++) {
        const anim_gap *gap = g->gaps[i];
        const char *s = field == ANIM_GAP_MESSAGES ? gap->message
                        : !gap->has_scope          ? NULL
                        : field == ANIM_GAP_SCOPES ? gap->scope.code
                                                   : gap->scope.subject;
        if (s)
            vals[n++] = s;
    }
    qsort(vals, n, sizeof *vals, cmp_str);
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && strcmp(vals[i - 1], vals[i]) == 0)
            continue;
        if (distinct < GAP_DISPLAY_LIMIT) {
            if (distinct)
                anim_strbuf_puts(out, ", ");
            anim_strbuf_puts(out, vals[i]);
        }
        distinct++;
    }
    if (distinct > GAP_DISPLAY_LIMIT)
        anim_strbuf_printf(out, ", \xe2\x80\xa6 +%zu more", distinct - GAP_DISPLAY_LIMIT);
    free(vals);
    return distinct;
}

void anim_lint_put_value(anim_strbuf *out, const anim_value *v)
{
    if (v->kind == ANIM_VALUE_NUMBER)
        anim_strbuf_put_fixed(out, v->number, 4);
    else if (v->kind == ANIM_VALUE_TEXT && v->text)
        anim_strbuf_puts(out, v->text);
}

static void atom(anim_strbuf *out, const char *s)
{
    anim_text_atom(out, s, strlen(s));
}

/* A value through text_atom (text values come from assets and configs). */
static void atom_value(anim_strbuf *out, const anim_value *v)
{
    anim_strbuf tmp = ANIM_STRBUF_INIT;
    anim_lint_put_value(&tmp, v);
    if (tmp.failed)
        out->failed = true;
    anim_text_atom(out, tmp.data ? tmp.data : "", tmp.len);
    anim_strbuf_free(&tmp);
}

/* "  {severity}[{check}]", the severity word coloured when asked. */
static void severity_tag(anim_strbuf *out, const anim_finding *f, bool color)
{
    anim_strbuf_puts(out, "  ");
    anim_color_severity(out, color, f->severity, anim_severity_name(f->severity));
    anim_strbuf_printf(out, "[%s]", f->check_id);
}

static void clip_part(anim_strbuf *out, const anim_finding *f)
{
    if (f->clip) {
        anim_strbuf_puts(out, " clip '");
        atom(out, f->clip);
        anim_strbuf_putc(out, '\'');
    }
}

/* ": {message} (measured m, expected e)" and the line end. */
static void message_part(anim_strbuf *out, const anim_finding *f)
{
    anim_strbuf_puts(out, ": ");
    atom(out, f->message ? f->message : "");
    /* An expected value without a measured one prints nothing. */
    if (f->measured.kind != ANIM_VALUE_NONE) {
        anim_strbuf_puts(out, " (measured ");
        atom_value(out, &f->measured);
        if (f->expected.kind != ANIM_VALUE_NONE) {
            anim_strbuf_puts(out, ", expected ");
            atom_value(out, &f->expected);
        }
        anim_strbuf_putc(out, ')');
    }
    anim_strbuf_putc(out, '\n');
}

static void text_finding(anim_strbuf *out, const anim_finding *f, bool color)
{
    severity_tag(out, f, color);
    clip_part(out, f);
    if (f->bone) {
        anim_strbuf_puts(out, " bone '");
        atom(out, f->bone);
        anim_strbuf_putc(out, '\'');
    }
    if (f->node) {
        anim_strbuf_puts(out, " node '");
        atom(out, f->node);
        anim_strbuf_putc(out, '\'');
    }
    if (f->has_time) {
        anim_strbuf_puts(out, " @");
        anim_strbuf_put_fixed(out, f->time_s, 3);
        anim_strbuf_putc(out, 's');
    }
    message_part(out, f);
    for (uint32_t m = 0; m < f->member_count; m++) {
        const anim_member_row *row = &f->members[m];
        anim_strbuf_puts(out, "    member ");
        atom(out, row->member ? row->member : "");
        anim_strbuf_puts(out, ": ");
        for (uint32_t k = 0; k < row->measurement_count; k++) {
            const anim_member_measurement *mm = &row->measurements[k];
            if (k)
                anim_strbuf_puts(out, ", ");
            atom(out, mm->key ? mm->key : "");
            anim_strbuf_putc(out, '=');
            if (mm->value.kind == ANIM_VALUE_NONE)
                anim_strbuf_puts(out, "n/a");
            else
                atom_value(out, &mm->value);
        }
        anim_strbuf_putc(out, '\n');
    }
}

/* One line for a run of count >= ANIM_LINT_GROUP_MIN findings of one check, clip and
 * severity: "  note[constant-track] clip 'Run' ×479 (bones: Hips, Spine,
 * Spine1, … +121 more; --expand lists them): first: {first message}". */
static void text_finding_group(anim_strbuf *out, const anim_finding *const *run, size_t count,
                               bool color)
{
    severity_tag(out, run[0], color);
    clip_part(out, run[0]);
    anim_strbuf_printf(out, " \xc3\x97%zu (", count);
    if (anim_lint_group_subjects(out, run, count))
        anim_strbuf_puts(out, "; ");
    anim_strbuf_puts(out, "--expand lists them): first");
    message_part(out, run[0]);
}

static void text_gap_group(anim_strbuf *out, const anim_gap_group *g, bool color)
{
    anim_strbuf scopes = ANIM_STRBUF_INIT, subjects = ANIM_STRBUF_INIT,
                messages = ANIM_STRBUF_INIT;
    size_t ns = anim_gap_group_summary(g, ANIM_GAP_SCOPES, &scopes);
    size_t nu = anim_gap_group_summary(g, ANIM_GAP_SUBJECTS, &subjects);
    anim_gap_group_summary(g, ANIM_GAP_MESSAGES, &messages);
    if (scopes.failed || subjects.failed || messages.failed)
        out->failed = true;
    anim_strbuf_puts(out, "  ");
    anim_color_coverage(out, color);
    anim_strbuf_printf(out, "[%s] %s \xc3\x97%zu", g->check_id, g->code, g->count);
    if (ns || nu) {
        anim_strbuf_puts(out, " (");
        if (ns) {
            anim_strbuf_puts(out, "scopes: ");
            anim_text_atom(out, scopes.data, scopes.len);
        }
        if (ns && nu)
            anim_strbuf_puts(out, "; ");
        if (nu) {
            anim_strbuf_puts(out, "subjects: ");
            anim_text_atom(out, subjects.data, subjects.len);
        }
        anim_strbuf_putc(out, ')');
    }
    anim_strbuf_puts(out, ": ");
    anim_text_atom(out, messages.data ? messages.data : "", messages.len);
    anim_strbuf_putc(out, '\n');
    anim_strbuf_free(&scopes);
    anim_strbuf_free(&subjects);
    anim_strbuf_free(&messages);
}

/* "  prediction[check] code available ×n (subjects: …)" or, for blocking
 * work, "… required_prediction_unavailable ×n (subjects: …): reasons". */
static void text_facet_group(anim_strbuf *out, const anim_facet_group *g, bool color)
{
    anim_strbuf subjects = ANIM_STRBUF_INIT, reasons = ANIM_STRBUF_INIT;
    size_t nu = anim_facet_group_subjects(g, &subjects);
    anim_facet_group_reasons(g, &reasons);
    if (subjects.failed || reasons.failed)
        out->failed = true;
    bool available = g->first->state == ANIM_FACET_AVAILABLE;
    anim_strbuf_puts(out, "  ");
    /* Blocking work reads red like an error; available evidence cyan. */
    anim_color_severity(out, color, available ? ANIM_SEVERITY_NOTE : ANIM_SEVERITY_ERROR,
                        "prediction");
    anim_strbuf_printf(out, "[%s] ", g->check_id);
    atom(out, g->first->scope.code);
    anim_strbuf_printf(out, " %s", anim_facet_state_name(g->first->state));
    if (g->count > 1)
        anim_strbuf_printf(out, " \xc3\x97%zu", g->count);
    if (nu) {
        anim_strbuf_puts(out, " (subjects: ");
        anim_text_atom(out, subjects.data, subjects.len);
        anim_strbuf_putc(out, ')');
    }
    if (!available) {
        anim_strbuf_puts(out, ": ");
        anim_text_atom(out, reasons.data ? reasons.data : "", reasons.len);
    }
    anim_strbuf_putc(out, '\n');
    anim_strbuf_free(&subjects);
    anim_strbuf_free(&reasons);
}

void anim_render_lint_text(const anim_lint_file *files, size_t n,
                           const anim_lint_render_options *opts, anim_strbuf *out)
{
    size_t counts[ANIM_SEVERITY_ERROR + 1] = {0};
    size_t gaps = 0, facets_available = 0, facets_unavailable = 0;
    bool expand = opts && opts->expand, color = opts && opts->color;
    for (size_t i = 0; i < n; i++) {
        const anim_lint_file *file = &files[i];
        bool failed = false;
        size_t nf = 0, ng = 0, file_gaps = 0;
        const anim_finding **findings = anim_lint_sorted_findings(file, opts, &nf, &failed);
        anim_gap_group *groups = anim_lint_gap_groups(file, &ng, &file_gaps, &failed);
        size_t nfg = 0, fa = 0, fu = 0;
        anim_facet_group *facet_groups = anim_lint_facet_groups(file, &nfg, &fa, &fu, &failed);
        facets_available += fa;
        facets_unavailable += fu;
        if (failed)
            out->failed = true;
        atom(out, file->path ? file->path : "");
        if (nf == 0 && ng == 0 && nfg == 0) {
            anim_strbuf_puts(out, ": clean\n");
            free(findings);
            anim_gap_groups_free(groups, ng);
            continue;
        }
        anim_strbuf_puts(out, ":\n");
        for (size_t f = 0; f < nf; f++)
            if (findings[f]->severity <= ANIM_SEVERITY_ERROR)
                counts[findings[f]->severity]++;
        for (size_t f = 0; f < nf;) {
            size_t run = expand ? 1 : anim_lint_group_run(findings, nf, f);
            if (run >= ANIM_LINT_GROUP_MIN)
                text_finding_group(out, findings + f, run, color);
            else
                for (size_t k = 0; k < run; k++)
                    text_finding(out, findings[f + k], color);
            f += run;
        }
        gaps += file_gaps;
        for (size_t g = 0; g < ng; g++)
            text_gap_group(out, &groups[g], color);
        for (size_t g = 0; g < nfg; g++)
            text_facet_group(out, &facet_groups[g], color);
        free(findings);
        free(facet_groups);
        anim_gap_groups_free(groups, ng);
    }
    anim_strbuf_printf(out,
                       "%zu error(s), %zu warning(s), %zu note(s), %zu coverage gap(s), "
                       "%zu available prediction facet(s), %zu required-unavailable "
                       "prediction facet(s)\n",
                       counts[ANIM_SEVERITY_ERROR], counts[ANIM_SEVERITY_WARNING],
                       counts[ANIM_SEVERITY_NOTE], gaps, facets_available, facets_unavailable);
}
