/* Lint as JUnit XML (`lint --format junit`), for CI test reports (GitLab
 * artifacts:reports:junit, Jenkins' junit step).
 *
 * One <testsuite> per input file, one <testcase> per (check, clip) of
 * every selected, enabled and applicable check: the clips come from the
 * check's findings, evaluated scopes, gaps and unavailable facets, and a
 * check with none of them (or with whole-file findings) has a case named
 * by its id alone. A case fails on the findings that fail the run (errors;
 * warnings too with --deny-warnings) and on a required-unavailable
 * prediction facet; it is skipped when coverage gaps are all there is for
 * it (the check could not judge that clip); the other findings and gaps
 * are listed in its <system-out>. No timings: the report is deterministic.
 *
 * Every text is escaped for XML 1.0; characters XML 1.0 cannot carry at
 * all (most C0 controls, U+FFFE, U+FFFF) are written as visible `\uXXXX`
 * text and bytes that are not UTF-8 as `\x{hh}`, as the JSON writer does. */
#include <stdlib.h>
#include <string.h>

#include "animsmith/report.h"
#include "animsmith/utf8.h"

/* XML-escaped s: attr escapes quotes and the whitespace an attribute
 * value would otherwise normalise away. */
static void xml_escape(anim_strbuf *out, const char *str, bool attr)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = (const unsigned char *)(str ? str : "");
    size_t len = strlen((const char *)s);
    for (size_t i = 0; i < len;) {
        uint32_t cp = 0;
        size_t n = anim_utf8_decode(s + i, len - i, &cp);
        if (n == 0) {
            anim_strbuf_printf(out, "\\x{%c%c}", hex[s[i] >> 4], hex[s[i] & 15]);
            i++;
            continue;
        }
        switch (cp) {
        case '&': anim_strbuf_puts(out, "&amp;"); break;
        case '<': anim_strbuf_puts(out, "&lt;"); break;
        case '>': anim_strbuf_puts(out, "&gt;"); break;
        case '"':
            if (attr)
                anim_strbuf_puts(out, "&quot;");
            else
                anim_strbuf_putc(out, '"');
            break;
        case '\t':
        case '\n':
            if (attr)
                anim_strbuf_printf(out, "&#%u;", (unsigned)cp);
            else
                anim_strbuf_putc(out, (char)cp);
            break;
        case '\r': anim_strbuf_puts(out, "&#13;"); break; /* a parser would drop a bare CR */
        default:
            if (cp < 0x20 || cp == 0xFFFE || cp == 0xFFFF)
                anim_strbuf_printf(out, "\\u%04X", (unsigned)cp);
            else
                anim_strbuf_append(out, s + i, n);
            break;
        }
        i += n;
    }
}

/* What speaks for one (check, clip) case, sorted by clip. */
typedef enum { ITEM_FINDING, ITEM_FACET, ITEM_SCOPE, ITEM_GAP } item_kind;

typedef struct {
    const char *label; /* the clip (scope subject); NULL: the check as a whole */
    item_kind kind;
    uint32_t index;    /* into the record's array of that kind */
} case_item;

static int cmp_item(const void *pa, const void *pb)
{
    const case_item *a = pa, *b = pb;
    if (!a->label || !b->label) {
        if (a->label != b->label)
            return a->label ? 1 : -1; /* the check as a whole first */
    } else {
        int c = strcmp(a->label, b->label);
        if (c)
            return c;
    }
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

static bool same_label(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* The record's items, sorted (malloc'd; NULL with *count 0 when it has
 * none, or on allocation failure with *failed set). */
static case_item *record_items(const anim_check_record *rec, size_t *count, bool *failed)
{
    size_t n = (size_t)rec->finding_count + rec->facet_count + rec->scope_count + rec->gap_count;
    *count = 0;
    if (!n)
        return NULL;
    case_item *items = malloc(n * sizeof *items);
    if (!items) {
        *failed = true;
        return NULL;
    }
    size_t k = 0;
    for (uint32_t i = 0; i < rec->finding_count; i++)
        items[k++] = (case_item){rec->findings[i].clip, ITEM_FINDING, i};
    for (uint32_t i = 0; i < rec->facet_count; i++)
        if (rec->facets[i].state == ANIM_FACET_REQUIRED_UNAVAILABLE)
            items[k++] = (case_item){rec->facets[i].scope.subject, ITEM_FACET, i};
    for (uint32_t i = 0; i < rec->scope_count; i++)
        items[k++] = (case_item){rec->scopes[i].subject, ITEM_SCOPE, i};
    for (uint32_t i = 0; i < rec->gap_count; i++)
        items[k++] = (case_item){rec->gaps[i].has_scope ? rec->gaps[i].scope.subject : NULL,
                                 ITEM_GAP, i};
    qsort(items, k, sizeof *items, cmp_item);
    *count = k;
    return items;
}

typedef struct {
    anim_strbuf *out;
    anim_strbuf line;       /* one raw line before escaping */
    anim_severity fail_at;
    bool failed;
} junit_state;

typedef struct {
    size_t tests, failures, skipped;
} junit_counts;

static bool finding_fails(const junit_state *st, const anim_finding *f)
{
    return f->severity >= st->fail_at;
}

/* "error[loop-closure] clip 'walk' ...: message (measured m, expected e)" */
static void finding_line(anim_strbuf *line, const anim_finding *f, const char *check_id)
{
    anim_strbuf_reset(line);
    anim_strbuf_printf(line, "%s[%s] ", anim_severity_name(f->severity),
                       f->check_id ? f->check_id : check_id);
    anim_lint_finding_context(line, f);
}

static void facet_line(anim_strbuf *line, const anim_prediction_facet *f)
{
    anim_strbuf_reset(line);
    anim_strbuf_printf(line, "required prediction unavailable for %s",
                       f->scope.code ? f->scope.code : "");
    if (f->scope.subject)
        anim_strbuf_printf(line, " '%s'", f->scope.subject);
    for (uint32_t q = 0; q < f->reason_count; q++)
        anim_strbuf_printf(line, "%s%s", q ? ", " : ": ", f->reasons[q]);
}

static void gap_line(anim_strbuf *line, const anim_gap *g, const char *check_id)
{
    anim_strbuf_reset(line);
    anim_strbuf_printf(line, "coverage[%s] %s: %s", check_id, g->code ? g->code : "",
                       g->message ? g->message : "");
    if (g->has_scope) {
        anim_strbuf_printf(line, " (scope %s", g->scope.code ? g->scope.code : "");
        if (g->scope.subject)
            anim_strbuf_printf(line, " '%s'", g->scope.subject);
        anim_strbuf_putc(line, ')');
    }
}

/* Escaped st->line as element text, then a newline. */
static void put_line_text(junit_state *st)
{
    xml_escape(st->out, st->line.data ? st->line.data : "", false);
    anim_strbuf_putc(st->out, '\n');
}

/* message="<first line> (+k more)" */
static void put_message_attr(junit_state *st, size_t count)
{
    anim_strbuf_puts(st->out, " message=\"");
    xml_escape(st->out, st->line.data ? st->line.data : "", true);
    if (count > 1)
        anim_strbuf_printf(st->out, " (+%zu more)", count - 1);
    anim_strbuf_putc(st->out, '"');
}

/* One test case: items[0..n) share one label. */
static void write_case(junit_state *st, const anim_lint_file *file, const anim_check_record *rec,
                       const char *label, const case_item *items, size_t n, junit_counts *counts)
{
    size_t failing = 0, other = 0, facets = 0, scopes = 0, gaps = 0;
    anim_severity worst = ANIM_SEVERITY_NOTE;
    for (size_t i = 0; i < n; i++) {
        if (items[i].kind == ITEM_FINDING) {
            const anim_finding *f = &rec->findings[items[i].index];
            if (finding_fails(st, f)) {
                failing++;
                if (f->severity > worst)
                    worst = f->severity;
            } else {
                other++;
            }
        } else if (items[i].kind == ITEM_FACET) {
            facets++;
        } else if (items[i].kind == ITEM_SCOPE) {
            scopes++;
        } else {
            gaps++;
        }
    }
    bool skipped = !failing && !facets && !other && !scopes && gaps;
    counts->tests++;
    counts->failures += failing || facets;
    counts->skipped += skipped;

    const char *path = file->path ? file->path : "";
    anim_strbuf *out = st->out;
    anim_strbuf_puts(out, "    <testcase classname=\"");
    xml_escape(out, path, true);
    anim_strbuf_puts(out, "\" name=\"");
    xml_escape(out, rec->check_id, true);
    if (label) {
        anim_strbuf_puts(out, " [");
        xml_escape(out, label, true);
        anim_strbuf_putc(out, ']');
    }
    anim_strbuf_puts(out, "\" file=\"");
    xml_escape(out, path, true);
    anim_strbuf_putc(out, '"');
    if (!failing && !facets && !other && !gaps && !skipped) {
        anim_strbuf_puts(out, "/>\n");
        return;
    }
    anim_strbuf_puts(out, ">\n");
    if (skipped) {
        const case_item *first = &items[0]; /* gaps only */
        const anim_gap *g = &rec->gaps[first->index];
        anim_strbuf_reset(&st->line);
        anim_strbuf_printf(&st->line, "%s: %s", g->code ? g->code : "",
                           g->message ? g->message : "");
        anim_strbuf_puts(out, "      <skipped");
        put_message_attr(st, gaps);
        anim_strbuf_puts(out, "/>\n");
    }
    if (failing) {
        bool first = true;
        for (size_t i = 0; i < n; i++) {
            if (items[i].kind != ITEM_FINDING)
                continue;
            const anim_finding *f = &rec->findings[items[i].index];
            if (!finding_fails(st, f))
                continue;
            if (first) {
                anim_strbuf_reset(&st->line);
                anim_lint_finding_context(&st->line, f);
                anim_strbuf_printf(out, "      <failure type=\"%s\"",
                                   anim_severity_name(worst));
                put_message_attr(st, failing);
                anim_strbuf_puts(out, ">");
                first = false;
            }
            finding_line(&st->line, f, rec->check_id);
            put_line_text(st);
        }
        anim_strbuf_puts(out, "</failure>\n");
    }
    if (facets) {
        bool first = true;
        for (size_t i = 0; i < n; i++) {
            if (items[i].kind != ITEM_FACET)
                continue;
            facet_line(&st->line, &rec->facets[items[i].index]);
            if (first) {
                anim_strbuf_puts(out, "      <failure type=\"required_prediction_unavailable\"");
                put_message_attr(st, facets);
                anim_strbuf_puts(out, ">");
                first = false;
            }
            put_line_text(st);
        }
        anim_strbuf_puts(out, "</failure>\n");
    }
    if (other || gaps) {
        anim_strbuf_puts(out, "      <system-out>");
        for (size_t i = 0; i < n; i++) {
            if (items[i].kind == ITEM_FINDING) {
                const anim_finding *f = &rec->findings[items[i].index];
                if (finding_fails(st, f))
                    continue;
                finding_line(&st->line, f, rec->check_id);
            } else if (items[i].kind == ITEM_GAP) {
                gap_line(&st->line, &rec->gaps[items[i].index], rec->check_id);
            } else {
                continue;
            }
            put_line_text(st);
        }
        anim_strbuf_puts(out, "</system-out>\n");
    }
    anim_strbuf_puts(out, "    </testcase>\n");
}

/* One file's cases into body; its counts into *counts. */
static void write_cases(junit_state *st, const anim_lint_file *file, junit_counts *counts)
{
    for (size_t r = 0; r < file->record_count; r++) {
        const anim_check_record *rec = &file->records[r];
        if (!rec->selected || !rec->enabled || !rec->applicable)
            continue;
        size_t n = 0;
        case_item *items = record_items(rec, &n, &st->failed);
        if (st->failed)
            return;
        if (n == 0) {
            write_case(st, file, rec, NULL, NULL, 0, counts);
            free(items); /* available facets only: their scopes are items too */
            continue;
        }
        for (size_t b = 0; b < n;) {
            size_t e = b + 1;
            while (e < n && same_label(items[e].label, items[b].label))
                e++;
            write_case(st, file, rec, items[b].label, items + b, e - b, counts);
            b = e;
        }
        free(items);
    }
}

int anim_render_lint_junit(const anim_lint_file *files, size_t n, bool deny_warnings,
                           anim_strbuf *out, anim_error *err)
{
    junit_state st;
    memset(&st, 0, sizeof st);
    st.fail_at = deny_warnings ? ANIM_SEVERITY_WARNING : ANIM_SEVERITY_ERROR;
    /* The totals lead the document, so the suites are written first. */
    anim_strbuf body = ANIM_STRBUF_INIT;
    st.out = &body;
    junit_counts total = {0, 0, 0};
    for (size_t i = 0; i < n && !st.failed; i++) {
        anim_strbuf cases = ANIM_STRBUF_INIT;
        junit_counts c = {0, 0, 0};
        st.out = &cases;
        write_cases(&st, &files[i], &c);
        st.out = &body;
        const char *path = files[i].path ? files[i].path : "";
        anim_strbuf_puts(&body, "  <testsuite name=\"");
        xml_escape(&body, path, true);
        anim_strbuf_printf(&body,
                           "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n",
                           c.tests, c.failures, c.skipped);
        anim_strbuf_printf(&body,
                           "    <properties>\n"
                           "      <property name=\"sha256\" value=\"%s\"/>\n"
                           "      <property name=\"bytes\" value=\"%llu\"/>\n"
                           "    </properties>\n",
                           files[i].sha256_hex, (unsigned long long)files[i].byte_count);
        if (cases.data)
            anim_strbuf_append(&body, cases.data, cases.len);
        anim_strbuf_puts(&body, "  </testsuite>\n");
        if (cases.failed)
            st.failed = true;
        anim_strbuf_free(&cases);
        total.tests += c.tests;
        total.failures += c.failures;
        total.skipped += c.skipped;
    }
    anim_strbuf_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    anim_strbuf_printf(out,
                       "<testsuites name=\"animsmith lint\" tests=\"%zu\" failures=\"%zu\" "
                       "errors=\"0\">\n",
                       total.tests, total.failures);
    if (body.data)
        anim_strbuf_append(out, body.data, body.len);
    anim_strbuf_puts(out, "</testsuites>\n");
    bool ok = !st.failed && !body.failed && !st.line.failed && !out->failed;
    anim_strbuf_free(&body);
    anim_strbuf_free(&st.line);
    if (!ok)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing lint JUnit XML");
    return 0;
}
