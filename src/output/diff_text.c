/* diff text view: one line per significant change, then the
 * count; with two lint reports, one line per added or removed finding and
 * a findings summary. Clip names, metrics, notes and finding fields carry
 * names taken from assets or reports, so each is escaped for the
 * terminal. */
#include "animsmith/diff.h"
#include "animsmith/numfmt.h"
#include "animsmith/text.h"

void anim_render_diff_text(const anim_diff_result *r, anim_strbuf *out)
{
    anim_render_diff_text_findings(r, NULL, out);
}

static void quoted(anim_strbuf *out, const char *label, const char *s, size_t len)
{
    if (!s)
        return;
    anim_strbuf_printf(out, " %s '", label);
    anim_text_atom(out, s, len);
    anim_strbuf_putc(out, '\'');
}

/* The lint text shape of a finding, without measured/expected values
 * (the deltas carry the numbers): "error[check] clip 'c' bone 'b' node
 * 'n' @t: message". */
static void finding_line(anim_strbuf *out, const anim_diff_finding_change *ch)
{
    const anim_diff_finding *f = ch->finding;
    anim_strbuf_puts(out, ch->change == ANIM_DIFF_ADDED ? "  finding added: "
                                                        : "  finding removed: ");
    anim_strbuf_puts(out, anim_severity_name(f->severity));
    anim_strbuf_putc(out, '[');
    anim_text_atom(out, f->check_id, f->check_id_len);
    anim_strbuf_putc(out, ']');
    quoted(out, "clip", f->clip, f->clip_len);
    quoted(out, "bone", f->bone, f->bone_len);
    quoted(out, "node", f->node, f->node_len);
    if (f->has_time) {
        anim_strbuf_puts(out, " @");
        anim_strbuf_put_fixed(out, f->time_s, 3);
        anim_strbuf_putc(out, 's');
    }
    anim_strbuf_puts(out, ": ");
    anim_text_atom(out, f->message, f->message_len);
    anim_strbuf_putc(out, '\n');
}

static void findings_summary(anim_strbuf *out, const anim_diff_findings_result *f)
{
    anim_strbuf_printf(out,
                       "findings: %zu removed, %zu added (errors %zu -> %zu, warnings %zu -> "
                       "%zu, notes %zu -> %zu)\n",
                       f->removed, f->added, f->before[ANIM_SEVERITY_ERROR],
                       f->after[ANIM_SEVERITY_ERROR], f->before[ANIM_SEVERITY_WARNING],
                       f->after[ANIM_SEVERITY_WARNING], f->before[ANIM_SEVERITY_NOTE],
                       f->after[ANIM_SEVERITY_NOTE]);
}

void anim_render_diff_text_findings(const anim_diff_result *r,
                                    const anim_diff_findings_result *f, anim_strbuf *out)
{
    if (r->count == 0)
        anim_strbuf_puts(out, "no significant movement\n");
    for (size_t i = 0; i < r->count; i++) {
        const anim_diff_delta *d = &r->deltas[i];
        anim_strbuf_puts(out, "  ");
        anim_text_atom(out, d->clip, d->clip_len);
        anim_strbuf_putc(out, ' ');
        anim_text_atom(out, d->metric, d->metric_len);
        anim_strbuf_puts(out, ": ");
        anim_text_atom(out, d->note, d->note_len);
        if (d->has_before || d->has_after) {
            anim_strbuf_putc(out, ' ');
            if (d->has_before)
                anim_strbuf_put_fixed(out, d->before, 4);
            else
                anim_strbuf_puts(out, "(none)");
            anim_strbuf_puts(out, " -> ");
            if (d->has_after)
                anim_strbuf_put_fixed(out, d->after, 4);
            else
                anim_strbuf_puts(out, "(gone)");
        }
        anim_strbuf_putc(out, '\n');
    }
    if (f && !f->compared)
        f = NULL;
    for (size_t i = 0; f && i < f->count; i++)
        finding_line(out, &f->changes[i]);
    anim_strbuf_printf(out, "%zu significant change(s)\n", r->count);
    if (f)
        findings_summary(out, f);
}
