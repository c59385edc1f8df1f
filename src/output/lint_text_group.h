/* Grouping of repeated findings in the lint text view. A run of sorted
 * findings of one check, clip and severity (constant-track on every bone
 * of a Mixamo clip, time-monotonic on every track) is shown as one line
 * with its count, its first subjects and the first member's message,
 * when the run has at least ANIM_LINT_GROUP_MIN members; --expand prints
 * every member instead. JSON and Markdown never group. */
#ifndef ANIMSMITH_OUTPUT_LINT_TEXT_GROUP_H
#define ANIMSMITH_OUTPUT_LINT_TEXT_GROUP_H

#include <stdbool.h>
#include <stddef.h>

#include "animsmith/lint.h"
#include "animsmith/strbuf.h"

/* How many subjects a grouped line names before "… +N more". */
#define ANIM_LINT_GROUP_SHOWN 3
/* Shorter runs are printed finding by finding: a group of up to three
 * would save a line or two and drop their messages and times. */
#define ANIM_LINT_GROUP_MIN 4

/* The length (>= 1) of the run that starts at v[i]: the following
 * findings of the same check id, clip and severity. A finding with member
 * rows is never grouped (its table is the point of it), so it is a run of
 * one, and it ends the run before it. */
size_t anim_lint_group_run(const anim_finding *const *v, size_t n, size_t i);

/* "bones: a, b, c, … +N more" for the distinct bones of the run in
 * first-report order ("nodes: ..." when the members carry no bone);
 * false, with nothing written, when they carry neither. Names pass
 * through anim_text_atom. Allocation failure is sticky in out->failed. */
bool anim_lint_group_subjects(anim_strbuf *out, const anim_finding *const *run, size_t count);

#endif
