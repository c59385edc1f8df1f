/* Raw transform paths over the FBX inventory (animsmith/fbx.h): the path
 * of a Model is the stored names from its top-level ancestor (a child of
 * the implicit root) down to it, joined by "/". Matching is byte-exact
 * and case-sensitive, with no escaping and no normalization: a configured
 * path names a node exactly as the file spells it, or it names none.
 *
 * Each row is compared from its own name upward, one name per step and
 * each step consuming path bytes, so a row costs at most the path's length
 * whatever the file's depth. A name containing "/" matches the bytes it
 * spells: two rows that spell the same path are ambiguous, never silently
 * the first one. */
#include <string.h>

#include "animsmith/doc.h"
#include "animsmith/fbx.h"

const char *anim_fbx_path_outcome_name(anim_fbx_path_outcome o)
{
    switch (o) {
    case ANIM_FBX_PATH_MATCH: return "match";
    case ANIM_FBX_PATH_NO_MATCH: return "no_match";
    case ANIM_FBX_PATH_AMBIGUOUS: return "ambiguous";
    default: return "incomplete";
    }
}

/* The length of name when it is at most cap bytes, else cap + 1: a name
 * longer than what is left of the path never needs counting to its end. */
static size_t bounded_len(const char *name, size_t cap)
{
    size_t n = 0;
    while (n <= cap && name[n])
        n++;
    return n;
}

/* Whether row r's raw path is path[0, len): its name ends the path, a "/"
 * comes before it, and the rest is its parent's path, up to a top-level
 * Model whose name starts the path. Names are compared whole, so a name
 * holding "/" matches the bytes it spells. An unnamed Model is not
 * addressable (the grammar has no empty segment). */
static bool row_has_path(const anim_fbx_facts *f, uint32_t r, const char *path, size_t len)
{
    size_t end = len;
    for (;;) {
        const char *name = f->raw_nodes[r].name ? f->raw_nodes[r].name : "";
        size_t n = bounded_len(name, end);
        if (n == 0 || n > end || memcmp(path + end - n, name, n) != 0)
            return false;
        size_t start = end - n;
        uint32_t p = f->raw_nodes[r].parent;
        if (p == 0) /* a top-level Model: its name must start the path */
            return start == 0;
        /* Rows put parents first: p >= r is no chain. */
        if (start < 2 || path[start - 1] != '/' || p == ANIM_NONE || p >= r)
            return false;
        r = p;
        end = start - 1;
    }
}

anim_fbx_path_outcome anim_fbx_raw_path_match(const anim_fbx_facts *f, const char *path,
                                              uint32_t *node, uint32_t *second)
{
    uint32_t first = ANIM_NONE, next = ANIM_NONE;
    if (node)
        *node = ANIM_NONE;
    if (second)
        *second = ANIM_NONE;
    if (!f || !path || f->raw_coverage != ANIM_FBX_COVERAGE_COMPLETE || !f->raw_nodes)
        return ANIM_FBX_PATH_INCOMPLETE;
    size_t len = strlen(path);
    for (uint32_t r = 0; r < f->raw_node_count && next == ANIM_NONE; r++) {
        if (!f->raw_nodes[r].matchable || !row_has_path(f, r, path, len))
            continue;
        if (first == ANIM_NONE)
            first = r;
        else
            next = r;
    }
    if (node)
        *node = first;
    if (second)
        *second = next;
    return first == ANIM_NONE   ? ANIM_FBX_PATH_NO_MATCH
           : next == ANIM_NONE ? ANIM_FBX_PATH_MATCH
                                : ANIM_FBX_PATH_AMBIGUOUS;
}

size_t anim_fbx_raw_path(const anim_fbx_facts *f, uint32_t n, char *buf, size_t cap)
{
    if (cap)
        buf[0] = '\0';
    if (!f || n == 0 || n >= f->raw_node_count)
        return 0;
    /* The length first (walking up: names plus one "/" between two), then
     * the names from the end. Rows put parents first, so a chain has at
     * most n steps. */
    size_t total = 0;
    uint32_t steps = 0;
    for (uint32_t r = n; r != 0 && r < f->raw_node_count && steps <= n;
         r = f->raw_nodes[r].parent, steps++)
        total += strlen(f->raw_nodes[r].name) + (steps ? 1 : 0);
    if (cap == 0)
        return total;
    size_t at = total;
    steps = 0;
    for (uint32_t r = n; r != 0 && r < f->raw_node_count && steps <= n;
         r = f->raw_nodes[r].parent, steps++) {
        if (steps) {
            at--;
            if (at < cap - 1)
                buf[at] = '/';
        }
        size_t k = strlen(f->raw_nodes[r].name);
        at -= k;
        for (size_t i = 0; i < k; i++)
            if (at + i < cap - 1)
                buf[at + i] = f->raw_nodes[r].name[i];
    }
    buf[total < cap - 1 ? total : cap - 1] = '\0';
    return total;
}
