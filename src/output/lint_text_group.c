/* Runs of repeated findings and the subject list of a grouped line (see
 * lint_text_group.h). The distinct count sorts a copy of the names, so a
 * hostile file with a million findings in one clip costs n log n, not n². */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/text.h"
#include "output/lint_text_group.h"

static bool same_str(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

size_t anim_lint_group_run(const anim_finding *const *v, size_t n, size_t i)
{
    const anim_finding *first = v[i];
    if (first->member_count)
        return 1;
    size_t j = i + 1;
    while (j < n && v[j]->member_count == 0 && v[j]->severity == first->severity &&
           same_str(v[j]->check_id, first->check_id) && same_str(v[j]->clip, first->clip))
        j++;
    return j - i;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The subject of a member: its bone, else (when nodes is set) its node. */
static const char *subject(const anim_finding *f, bool nodes)
{
    return nodes ? f->node : f->bone;
}

bool anim_lint_group_subjects(anim_strbuf *out, const anim_finding *const *run, size_t count)
{
    bool any_bone = false, any_node = false;
    for (size_t i = 0; i < count; i++) {
        any_bone = any_bone || run[i]->bone;
        any_node = any_node || run[i]->node;
    }
    if (!any_bone && !any_node)
        return false;
    bool nodes = !any_bone;
    const char **names = calloc(count, sizeof *names);
    if (!names) {
        out->failed = true;
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < count; i++)
        if (subject(run[i], nodes))
            names[n++] = subject(run[i], nodes);
    qsort(names, n, sizeof *names, cmp_name);
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++)
        distinct += i == 0 || strcmp(names[i - 1], names[i]) != 0;
    /* The first subjects in report order: each compared with at most
     * ANIM_LINT_GROUP_SHOWN already shown. */
    const char *shown[ANIM_LINT_GROUP_SHOWN];
    size_t ns = 0;
    anim_strbuf_puts(out, nodes ? "nodes: " : "bones: ");
    for (size_t i = 0; i < count && ns < ANIM_LINT_GROUP_SHOWN; i++) {
        const char *s = subject(run[i], nodes);
        bool seen = !s;
        for (size_t k = 0; k < ns && !seen; k++)
            seen = strcmp(shown[k], s) == 0;
        if (seen)
            continue;
        if (ns)
            anim_strbuf_puts(out, ", ");
        anim_text_atom(out, s, strlen(s));
        shown[ns++] = s;
    }
    if (distinct > ns)
        anim_strbuf_printf(out, ", \xe2\x80\xa6 +%zu more", distinct - ns);
    free(names);
    return true;
}
