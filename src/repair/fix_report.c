/* The fix command's stdout lines: per pass, one line per repaired track
 * and one per skipped track, then one summary line for the whole run.
 * Names come from the asset, so they are terminal-escaped. */
#include <string.h>

#include "animsmith/text.h"
#include "repair/fix_internal.h"

static void put_atom(anim_strbuf *out, const char *s)
{
    anim_text_atom(out, s, strlen(s));
}

static void format_pass(const anim_fix_pass *pass, bool dry_run, anim_strbuf *out)
{
    const char *id = anim_repair_name(pass->id);
    const char *action =
        pass->id == ANIM_REPAIR_QUAT_NORM ? "unit-normalized" : "hemisphere-normalized";
    for (uint32_t i = 0; i < pass->track_count; i++) {
        const anim_fix_track *t = &pass->tracks[i];
        anim_strbuf_printf(out, "  %s[%s] clip '", dry_run ? "would fix" : "fixed", id);
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
}

static uint64_t track_key(const anim_fix_track *t)
{
    return (uint64_t)t->clip_index << 32 | t->track_index;
}

/* Each track once however many repairs touched it: every pass lists its
 * tracks in file order, so this is the size of a sorted union. */
uint32_t anim_fix_track_count(const anim_fix *fix)
{
    uint32_t at[ANIM_REPAIR_COUNT] = {0};
    uint32_t n = 0;
    for (;;) {
        bool any = false;
        uint64_t min = 0;
        for (uint32_t p = 0; p < fix->pass_count; p++) {
            const anim_fix_pass *pass = &fix->passes[p];
            if (at[p] < pass->track_count && (!any || track_key(&pass->tracks[at[p]]) < min)) {
                min = track_key(&pass->tracks[at[p]]);
                any = true;
            }
        }
        if (!any)
            return n;
        n++;
        for (uint32_t p = 0; p < fix->pass_count; p++)
            if (at[p] < fix->passes[p].track_count && track_key(&fix->passes[p].tracks[at[p]]) == min)
                at[p]++;
    }
}

void anim_fix_format(const anim_fix *fix, bool dry_run, const char *written, anim_strbuf *out)
{
    for (uint32_t p = 0; p < fix->pass_count; p++)
        format_pass(&fix->passes[p], dry_run, out);
    anim_strbuf_printf(out, "%llu key(s) %s across %u track(s) -> ",
                       (unsigned long long)fix->keys, dry_run ? "would be fixed" : "fixed",
                       anim_fix_track_count(fix));
    put_atom(out, written && !dry_run ? written : "no output written");
    anim_strbuf_putc(out, '\n');
}
