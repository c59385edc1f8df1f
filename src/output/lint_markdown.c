/* Lint Markdown for CI comments (`lint --format markdown`).
 *
 * The comment is pasted into a trusted review thread, so every
 * asset-derived cell is flattened to one line and cannot close the code
 * span or the table cell it sits in (md_cell). Presentation only: the
 * layout carries no stability promise, JSON is the contract. */
#include <stdlib.h>
#include <string.h>

#include "animsmith/numfmt.h"
#include "animsmith/report.h"
#include "animsmith/text.h"

#define COLLAPSE_AFTER 10 /* findings; more collapse the <details> */

#define BADGE_ERROR "\xe2\x9d\x8c"                /* U+274C */
#define BADGE_WARNING "\xe2\x9a\xa0\xef\xb8\x8f"  /* U+26A0 U+FE0F */
#define BADGE_NOTE "\xe2\x84\xb9\xef\xb8\x8f"     /* U+2139 U+FE0F */
#define EM_DASH "\xe2\x80\x94"

/* A cell's text, escaped so asset names cannot break the table. */
static void md_cell(anim_strbuf *out, const char *str)
{
    anim_text_markdown_cell(out, str ? str : "", str ? strlen(str) : 0);
}

static void md_cell_n(anim_strbuf *out, const anim_strbuf *raw)
{
    md_cell(out, raw->data ? raw->data : "");
}

static const char *badge(anim_severity s)
{
    return s == ANIM_SEVERITY_ERROR ? BADGE_ERROR : s == ANIM_SEVERITY_WARNING ? BADGE_WARNING
                                                                               : BADGE_NOTE;
}

static void severity_line(anim_strbuf *out, const size_t *counts)
{
    anim_strbuf_printf(out, BADGE_ERROR " %zu error(s) \xc2\xb7 " BADGE_WARNING
                            " %zu warning(s) \xc2\xb7 " BADGE_NOTE " %zu note(s)",
                       counts[ANIM_SEVERITY_ERROR], counts[ANIM_SEVERITY_WARNING],
                       counts[ANIM_SEVERITY_NOTE]);
}

static void value_cell(anim_strbuf *out, const anim_value *v)
{
    if (v->kind == ANIM_VALUE_NONE) {
        anim_strbuf_puts(out, EM_DASH);
        return;
    }
    anim_strbuf raw = ANIM_STRBUF_INIT;
    anim_lint_put_value(&raw, v);
    if (raw.failed)
        out->failed = true;
    anim_strbuf_putc(out, '`');
    md_cell_n(out, &raw);
    anim_strbuf_putc(out, '`');
    anim_strbuf_free(&raw);
}

static void table_header(anim_strbuf *out)
{
    anim_strbuf_puts(out, "| Severity | Check | Location | Measured | Expected | Message |\n"
                          "| --- | --- | --- | --- | --- | --- |\n");
}

static void finding_row(anim_strbuf *out, const anim_finding *f)
{
    anim_strbuf_printf(out, "| %s %s | `%s` | ", badge(f->severity),
                       anim_severity_name(f->severity), f->check_id);
    bool any = false;
    if (f->bone) {
        anim_strbuf_puts(out, "bone `");
        md_cell(out, f->bone);
        anim_strbuf_putc(out, '`');
        any = true;
    }
    if (f->node) {
        if (any)
            anim_strbuf_putc(out, ' ');
        anim_strbuf_puts(out, "node `");
        md_cell(out, f->node);
        anim_strbuf_putc(out, '`');
        any = true;
    }
    if (f->has_time) {
        if (any)
            anim_strbuf_putc(out, ' ');
        anim_strbuf_putc(out, '@');
        anim_strbuf_put_fixed(out, f->time_s, 3);
        anim_strbuf_putc(out, 's');
        any = true;
    }
    if (!any)
        anim_strbuf_puts(out, EM_DASH);
    anim_strbuf_puts(out, " | ");
    value_cell(out, &f->measured);
    anim_strbuf_puts(out, " | ");
    value_cell(out, &f->expected);
    anim_strbuf_puts(out, " | `");
    md_cell(out, f->message);
    anim_strbuf_puts(out, "` |\n");
}

/* Group member rows cannot nest inside the finding table, so they follow
 * it as their own small table (and the finding table restarts after it
 * when the clip group has more rows). */
static void member_table(anim_strbuf *out, const anim_finding *f)
{
    anim_strbuf_puts(out, "\n| Member | Measurements |\n| --- | --- |\n");
    for (uint32_t m = 0; m < f->member_count; m++) {
        const anim_member_row *row = &f->members[m];
        anim_strbuf raw = ANIM_STRBUF_INIT;
        for (uint32_t k = 0; k < row->measurement_count; k++) {
            const anim_member_measurement *mm = &row->measurements[k];
            if (k)
                anim_strbuf_puts(&raw, ", ");
            anim_strbuf_puts(&raw, mm->key ? mm->key : "");
            anim_strbuf_putc(&raw, '=');
            if (mm->value.kind == ANIM_VALUE_NONE)
                anim_strbuf_puts(&raw, "n/a");
            else
                anim_lint_put_value(&raw, &mm->value);
        }
        if (raw.failed)
            out->failed = true;
        anim_strbuf_puts(out, "| `");
        md_cell(out, row->member);
        anim_strbuf_puts(out, "` | ");
        if (raw.len) {
            anim_strbuf_putc(out, '`');
            md_cell_n(out, &raw);
            anim_strbuf_putc(out, '`');
        } else {
            anim_strbuf_puts(out, EM_DASH);
        }
        anim_strbuf_puts(out, " |\n");
        anim_strbuf_free(&raw);
    }
}

static bool same_clip(const anim_finding *a, const anim_finding *b)
{
    if (!a->clip || !b->clip)
        return !a->clip && !b->clip;
    return strcmp(a->clip, b->clip) == 0;
}

static void findings_section(anim_strbuf *out, const anim_finding **findings, size_t nf)
{
    anim_strbuf_puts(out, nf <= COLLAPSE_AFTER ? "<details open>\n" : "<details>\n");
    anim_strbuf_printf(out, "<summary><strong>%zu %s</strong></summary>\n\n", nf,
                       nf == 1 ? "finding" : "findings");
    for (size_t i = 0; i < nf; i++) {
        const anim_finding *f = findings[i];
        if (i == 0 || !same_clip(findings[i - 1], f)) {
            if (f->clip) {
                anim_strbuf_puts(out, "\n#### clip `");
                md_cell(out, f->clip);
                anim_strbuf_puts(out, "`\n\n");
            } else {
                anim_strbuf_puts(out, "\n#### file-level\n\n");
            }
            table_header(out);
        } else if (findings[i - 1]->member_count) {
            anim_strbuf_putc(out, '\n');
            table_header(out);
        }
        finding_row(out, f);
        if (f->member_count)
            member_table(out, f);
    }
    anim_strbuf_puts(out, "\n</details>\n\n");
}

static void gaps_section(anim_strbuf *out, const anim_gap_group *groups, size_t ng,
                         size_t total)
{
    anim_strbuf_puts(out, "<details open>\n");
    anim_strbuf_printf(out, "<summary><strong>%zu coverage gap(s)</strong></summary>\n\n", total);
    anim_strbuf_puts(out, "| Check | Code | Count | Scopes | Subjects | Messages |\n"
                          "| --- | --- | ---: | --- | --- | --- |\n");
    for (size_t g = 0; g < ng; g++) {
        anim_strbuf scopes = ANIM_STRBUF_INIT, subjects = ANIM_STRBUF_INIT,
                    messages = ANIM_STRBUF_INIT;
        size_t ns = anim_gap_group_summary(&groups[g], ANIM_GAP_SCOPES, &scopes);
        size_t nu = anim_gap_group_summary(&groups[g], ANIM_GAP_SUBJECTS, &subjects);
        anim_gap_group_summary(&groups[g], ANIM_GAP_MESSAGES, &messages);
        if (scopes.failed || subjects.failed || messages.failed)
            out->failed = true;
        anim_strbuf_printf(out, "| `%s` | `%s` | %zu | `", groups[g].check_id, groups[g].code,
                           groups[g].count);
        if (ns)
            md_cell_n(out, &scopes);
        else
            anim_strbuf_puts(out, EM_DASH);
        anim_strbuf_puts(out, "` | `");
        if (nu)
            md_cell_n(out, &subjects);
        else
            anim_strbuf_puts(out, EM_DASH);
        anim_strbuf_puts(out, "` | `");
        md_cell_n(out, &messages);
        anim_strbuf_puts(out, "` |\n");
        anim_strbuf_free(&scopes);
        anim_strbuf_free(&subjects);
        anim_strbuf_free(&messages);
    }
    anim_strbuf_puts(out, "\n</details>\n\n");
}

static void facets_section(anim_strbuf *out, const anim_facet_group *groups, size_t ng,
                           size_t available, size_t unavailable)
{
    anim_strbuf_puts(out, "<details open>\n");
    anim_strbuf_printf(out,
                       "<summary><strong>%zu available, %zu required-unavailable prediction "
                       "facet(s)</strong></summary>\n\n",
                       available, unavailable);
    anim_strbuf_puts(out, "| Check | Scope | State | Count | Subjects | Reasons |\n"
                          "| --- | --- | --- | ---: | --- | --- |\n");
    for (size_t g = 0; g < ng; g++) {
        anim_strbuf subjects = ANIM_STRBUF_INIT, reasons = ANIM_STRBUF_INIT;
        size_t nu = anim_facet_group_subjects(&groups[g], &subjects);
        anim_facet_group_reasons(&groups[g], &reasons);
        if (subjects.failed || reasons.failed)
            out->failed = true;
        anim_strbuf_printf(out, "| `%s` | `", groups[g].check_id);
        md_cell(out, groups[g].first->scope.code);
        anim_strbuf_printf(out, "` | %s | %zu | `",
                           groups[g].first->state == ANIM_FACET_AVAILABLE
                               ? "available"
                               : "\xe2\x9d\x8c required_prediction_unavailable",
                           groups[g].count);
        if (nu)
            md_cell_n(out, &subjects);
        else
            anim_strbuf_puts(out, EM_DASH);
        anim_strbuf_puts(out, "` | `");
        if (reasons.len)
            md_cell_n(out, &reasons);
        else
            anim_strbuf_puts(out, EM_DASH);
        anim_strbuf_puts(out, "` |\n");
        anim_strbuf_free(&subjects);
        anim_strbuf_free(&reasons);
    }
    anim_strbuf_puts(out, "\n</details>\n\n");
}

void anim_render_lint_markdown(const anim_lint_file *files, size_t n,
                               const anim_lint_render_options *opts, anim_strbuf *out)
{
    size_t total[ANIM_SEVERITY_ERROR + 1] = {0};
    size_t total_gaps = 0, total_available = 0, total_unavailable = 0;
    anim_strbuf_puts(out, "## animsmith lint\n\n");
    for (size_t i = 0; i < n; i++) {
        const anim_lint_file *file = &files[i];
        bool failed = false;
        size_t nf = 0, ng = 0, gaps = 0;
        const anim_finding **findings = anim_lint_sorted_findings(file, opts, &nf, &failed);
        anim_gap_group *groups = anim_lint_gap_groups(file, &ng, &gaps, &failed);
        size_t nfg = 0, fa = 0, fu = 0;
        anim_facet_group *facet_groups = anim_lint_facet_groups(file, &nfg, &fa, &fu, &failed);
        total_available += fa;
        total_unavailable += fu;
        if (failed)
            out->failed = true;
        anim_strbuf_puts(out, "### `");
        md_cell(out, file->path);
        anim_strbuf_puts(out, "`\n\n");
        if (nf == 0 && ng == 0 && nfg == 0) {
            anim_strbuf_puts(out, "\xe2\x9c\x85 Clean " EM_DASH
                                  " no findings or coverage gaps.\n\n");
            free(findings);
            anim_gap_groups_free(groups, ng);
            continue;
        }
        size_t counts[ANIM_SEVERITY_ERROR + 1] = {0};
        for (size_t f = 0; f < nf; f++)
            if (findings[f]->severity <= ANIM_SEVERITY_ERROR)
                counts[findings[f]->severity]++;
        for (int s = ANIM_SEVERITY_NOTE; s <= ANIM_SEVERITY_ERROR; s++)
            total[s] += counts[s];
        total_gaps += gaps;
        severity_line(out, counts);
        anim_strbuf_puts(out, "\n\n");
        if (nf)
            findings_section(out, findings, nf);
        if (ng)
            gaps_section(out, groups, ng, gaps);
        if (nfg)
            facets_section(out, facet_groups, nfg, fa, fu);
        free(facet_groups);
        free(findings);
        anim_gap_groups_free(groups, ng);
    }
    anim_strbuf_puts(out, "---\n\n");
    anim_strbuf_printf(out, "**%zu %s** " EM_DASH " ", n, n == 1 ? "file" : "files");
    severity_line(out, total);
    anim_strbuf_printf(out,
                       " \xc2\xb7 %zu coverage gap(s) \xc2\xb7 %zu available prediction facet(s) "
                       "\xc2\xb7 %zu required-unavailable prediction facet(s)\n",
                       total_gaps, total_available, total_unavailable);
}
