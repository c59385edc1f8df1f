/* The one-line write summary of transform and convert. */
#include "animsmith/gltf_write.h"
#include "animsmith/strbuf.h"
#include "cli.h"

void cli_write_summary_line(const char *out, const anim_gltf_write_summary *s, anim_strbuf *msg)
{
    anim_strbuf_printf(msg,
                       "wrote %s (%u node(s), %u clip(s), %u mesh(es) / %llu position(s), %u "
                       "material(s))",
                       out, s->nodes, s->animations, s->meshes, (unsigned long long)s->positions,
                       s->materials);
    if (s->dropped_clips)
        anim_strbuf_printf(msg, "; dropped %u clip(s) with no writable tracks", s->dropped_clips);
    anim_strbuf_putc(msg, '\n');
}
