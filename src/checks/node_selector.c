/* Runtime-node selector resolution and source-node paths. */
#include "checks/node_selector.h"

#include <stdbool.h>
#include <stdlib.h>

#include "animsmith/config.h"

uint32_t node_selector_match(const anim_doc *doc, const char *selector, uint32_t *out)
{
    uint32_t n = 0;
    /* Source order, not bone (DFS) order: the ambiguity message lists
     * paths the way the source-node table does. */
    for (uint32_t node = 0; node < doc->node_count; node++) {
        uint32_t b = doc->node_to_bone[node];
        if (b >= doc->bone_count || !doc->bones[b].has_name)
            continue;
        if (anim_glob_match(selector, doc->bones[b].name))
            out[n++] = b;
    }
    return n;
}

/* Parents always precede children, so walking up terminates;
 * the guard only protects against hand-built documents. */
static uint32_t parent_of(const anim_doc *doc, uint32_t b)
{
    uint32_t p = doc->bones[b].parent;
    return p < b ? p : ANIM_NONE;
}

void node_selector_path(const anim_doc *doc, uint32_t bone, anim_strbuf *out)
{
    if (bone >= doc->bone_count)
        return;
    /* A degenerate chain can be as deep as the file has nodes, so collect
     * the ancestry iteratively instead of recursing. */
    uint32_t depth = 0;
    for (uint32_t a = bone; a != ANIM_NONE; a = parent_of(doc, a))
        depth++;
    uint32_t *chain = malloc((size_t)depth * sizeof *chain);
    if (!chain) {
        out->failed = true;
        return;
    }
    uint32_t i = depth;
    for (uint32_t a = bone; a != ANIM_NONE; a = parent_of(doc, a))
        chain[--i] = a;
    for (i = 0; i < depth; i++) {
        const anim_bone *b = &doc->bones[chain[i]];
        if (i > 0)
            anim_strbuf_putc(out, '/');
        anim_strbuf_printf(out, "#%u(", b->node);
        anim_strbuf_puts(out, b->has_name ? b->name : "<unnamed>");
        anim_strbuf_putc(out, ')');
    }
    free(chain);
}
