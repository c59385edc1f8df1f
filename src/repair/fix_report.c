/* The fix command's stdout lines (spec 8.6), byte for byte as the seeds
 * print them. Names come from the asset, so they are terminal-escaped. */
#include <string.h>

#include "animsmith/text.h"
#include "repair/fix_internal.h"

static void put_atom(anim_strbuf *out, const char *s)
{
    anim_text_atom(out, s, strlen(s));
}

static void format_pass(const anim_fix_pass *pass, const char *destination, anim_strbuf *out)
{
    const char *id = anim_repair_name(pass->id);
    const char *action =
        pass->id == ANIM_REPAIR_QUAT_NORM ? "unit-normalized" : "hemisphere-normalized";
    for (uint32_t i = 0; i < pass->track_count; i++) {
        const anim_fix_track *t = &pass->tracks[i];
        anim_strbuf_printf(out, "  %s[%s] clip '", destination ? "fixed" : "would fix", id);
        put_atom(out, t->clip);
        anim_strbuf_puts(out, "' bone '");
        put_atom(out, t->bone);
        anim_strbuf_printf(out, "': %u key(s) %s\n", t->keys, action);
    }
    for (uint32_t i = 0; i < pass->skip_count; i++) {
        const anim_fix_skip *s = &pass->skips[i];
        anim_strbuf_printf(out, "  skipped[%s]: ", id);
        put_atom(out, s->clip);
        anim_strbuf_putc(out, '/');
        put_atom(out, s->bone);
        anim_strbuf_puts(out, ": ");
        put_atom(out, s->reason);
        anim_strbuf_putc(out, '\n');
    }
    anim_strbuf_printf(out, "%llu key(s) %s across %u track(s) -> ",
                       (unsigned long long)pass->keys, destination ? "fixed" : "would be fixed",
                       pass->track_count);
    put_atom(out, destination ? destination : "no output written");
    anim_strbuf_putc(out, '\n');
}

void anim_fix_format(const anim_fix *fix, const char *destination, anim_strbuf *out)
{
    for (uint32_t p = 0; p < fix->pass_count; p++)
        format_pass(&fix->passes[p], destination, out);
}
