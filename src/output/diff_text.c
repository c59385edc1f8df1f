/* diff text view (spec 7.5): one line per significant change, then the
 * count. Clip names, metrics and notes carry names taken from assets or
 * reports, so each is escaped for the terminal. */
#include "animsmith/diff.h"
#include "animsmith/numfmt.h"
#include "animsmith/text.h"

void anim_render_diff_text(const anim_diff_result *r, anim_strbuf *out)
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
    anim_strbuf_printf(out, "%zu significant change(s)\n", r->count);
}
