/* ANSI colour for the text views: only the severity word of a finding or
 * coverage line is coloured, so a coloured line still reads the same when
 * the escapes are stripped, and nothing taken from an asset is ever
 * wrapped in an escape of ours. Whether to colour at all (--color,
 * NO_COLOR, a terminal) is the caller's decision. */
#ifndef ANIMSMITH_OUTPUT_COLOR_H
#define ANIMSMITH_OUTPUT_COLOR_H

#include <stdbool.h>

#include "animsmith/lint.h"
#include "animsmith/strbuf.h"

/* Appends word, wrapped in the SGR colour of severity when color is set:
 * error red, warning yellow, note cyan. */
void anim_color_severity(anim_strbuf *out, bool color, anim_severity severity, const char *word);

/* Appends "coverage", magenta when color is set. */
void anim_color_coverage(anim_strbuf *out, bool color);

#endif
