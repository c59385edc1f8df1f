/* Prediction facets for the text and Markdown views: runs of consecutive
 * facets of one check with the same scope code, state and reasons become
 * one line (an engine check can predict thousands of Animation{i}
 * selectors); JSON keeps every facet. */
#include <stdlib.h>
#include <string.h>

#include "animsmith/report.h"

static bool same_reasons(const anim_prediction_facet *a, const anim_prediction_facet *b)
{
    if (a->reason_count != b->reason_count)
        return false;
    for (uint32_t i = 0; i < a->reason_count; i++)
        if (strcmp(a->reasons[i], b->reasons[i]) != 0)
            return false;
    return true;
}

static bool same_group(const anim_prediction_facet *a, const anim_prediction_facet *b)
{
    return a->state == b->state && strcmp(a->scope.code, b->scope.code) == 0 &&
           same_reasons(a, b);
}

anim_facet_group *anim_lint_facet_groups(const anim_lint_file *file, size_t *group_count,
                                         size_t *available, size_t *unavailable, bool *failed)
{
    size_t n = 0;
    *group_count = 0;
    *available = *unavailable = 0;
    for (size_t r = 0; r < file->record_count; r++)
        n += file->records[r].facet_count;
    if (n == 0)
        return NULL;
    anim_facet_group *groups = calloc(n, sizeof *groups);
    if (!groups) {
        *failed = true;
        return NULL;
    }
    size_t ng = 0;
    for (size_t r = 0; r < file->record_count; r++) {
        const anim_check_record *rec = &file->records[r];
        for (uint32_t i = 0; i < rec->facet_count; i++) {
            const anim_prediction_facet *f = &rec->facets[i];
            if (f->state == ANIM_FACET_AVAILABLE)
                (*available)++;
            else
                (*unavailable)++;
            if (i > 0 && same_group(&rec->facets[i - 1], f)) {
                groups[ng - 1].count++;
                continue;
            }
            groups[ng].check_id = rec->check_id;
            groups[ng].first = f;
            groups[ng].count = 1;
            ng++;
        }
    }
    *group_count = ng;
    return groups;
}

#define SUBJECT_DISPLAY_LIMIT 5

size_t anim_facet_group_subjects(const anim_facet_group *g, anim_strbuf *out)
{
    size_t shown = 0, with_subject = 0;
    for (size_t i = 0; i < g->count; i++) {
        const char *s = g->first[i].scope.subject;
        if (!s)
            continue;
        if (shown < SUBJECT_DISPLAY_LIMIT) {
            if (shown)
                anim_strbuf_puts(out, ", ");
            anim_strbuf_puts(out, s);
            shown++;
        }
        with_subject++;
    }
    if (with_subject > shown)
        anim_strbuf_printf(out, ", \xe2\x80\xa6 +%zu more", with_subject - shown);
    return with_subject;
}

void anim_facet_group_reasons(const anim_facet_group *g, anim_strbuf *out)
{
    for (uint32_t i = 0; i < g->first->reason_count; i++) {
        if (i)
            anim_strbuf_puts(out, ", ");
        anim_strbuf_puts(out, g->first->reasons[i]);
    }
}
