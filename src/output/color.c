/* SGR colours of the severity words (see color.h). */
#include "output/color.h"

#define SGR_RESET "\x1b[0m"

static void wrap(anim_strbuf *out, bool color, const char *sgr, const char *word)
{
    if (color)
        anim_strbuf_puts(out, sgr);
    anim_strbuf_puts(out, word);
    if (color)
        anim_strbuf_puts(out, SGR_RESET);
}

void anim_color_severity(anim_strbuf *out, bool color, anim_severity severity, const char *word)
{
    const char *sgr = severity == ANIM_SEVERITY_ERROR     ? "\x1b[31m"
                      : severity == ANIM_SEVERITY_WARNING ? "\x1b[33m"
                                                          : "\x1b[36m";
    wrap(out, color, sgr, word);
}

void anim_color_coverage(anim_strbuf *out, bool color)
{
    wrap(out, color, "\x1b[35m", "coverage");
}
