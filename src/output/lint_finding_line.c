/* One finding as a line of raw text, for the renderers that escape for
 * their own format (SARIF's message.text, JUnit's failure text): the same
 * fields in the same order as a text-output line, so a CI page reads like
 * the terminal. */
#include "animsmith/numfmt.h"
#include "animsmith/report.h"

void anim_lint_finding_context(anim_strbuf *out, const anim_finding *f)
{
    const char *sep = "";
    if (f->clip) {
        anim_strbuf_printf(out, "clip '%s'", f->clip);
        sep = " ";
    }
    if (f->bone) {
        anim_strbuf_printf(out, "%sbone '%s'", sep, f->bone);
        sep = " ";
    }
    if (f->node) {
        anim_strbuf_printf(out, "%snode '%s'", sep, f->node);
        sep = " ";
    }
    if (f->has_time) {
        anim_strbuf_printf(out, "%s@", sep);
        anim_strbuf_put_fixed(out, f->time_s, 3);
        anim_strbuf_putc(out, 's');
        sep = " ";
    }
    if (*sep)
        anim_strbuf_puts(out, ": ");
    anim_strbuf_puts(out, f->message ? f->message : "");
    /* An expected value without a measured one prints nothing (as text). */
    if (f->measured.kind != ANIM_VALUE_NONE) {
        anim_strbuf_puts(out, " (measured ");
        anim_lint_put_value(out, &f->measured);
        if (f->expected.kind != ANIM_VALUE_NONE) {
            anim_strbuf_puts(out, ", expected ");
            anim_lint_put_value(out, &f->expected);
        }
        anim_strbuf_putc(out, ')');
    }
}
