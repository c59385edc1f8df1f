/* Duplicate clip names for the engine checks: sorted once (a merge sort
 * of clip indices, n log n for a library of thousands of clips), then
 * equal neighbours marked. */
#include "checks/engine_clip_names.h"

#include <stdlib.h>
#include <string.h>

static const char *name_of(const anim_doc *doc, uint32_t c)
{
    return doc->clips[c].name ? doc->clips[c].name : "";
}

/* Byte order of the names, then index order (a stable total order). */
static int cmp_clips(const anim_doc *doc, uint32_t x, uint32_t y)
{
    int c = strcmp(name_of(doc, x), name_of(doc, y));
    return c ? c : (x > y) - (x < y);
}

/* qsort has no context argument in C11: a bottom-up merge sort with one. */
static void sort_indices(uint32_t *v, uint32_t *tmp, uint32_t n, const anim_doc *doc)
{
    for (uint32_t width = 1; width < n; width = width > n / 2 ? n : width * 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = n - lo > width ? lo + width : n;
            uint32_t hi = n - mid > width ? mid + width : n;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = cmp_clips(doc, v[i], v[j]) <= 0 ? v[i++] : v[j++];
            while (i < mid)
                tmp[k++] = v[i++];
            while (j < hi)
                tmp[k++] = v[j++];
            if (hi == n)
                break;
        }
        memcpy(v, tmp, (size_t)n * sizeof *v);
    }
}

int engine_duplicate_clip_names(anim_lint_context *ctx, bool **out)
{
    uint32_t n = ctx->doc->clip_count;
    bool *dup = anim_arena_calloc(ctx->arena, (size_t)n + 1, sizeof *dup);
    uint32_t *order = malloc(((size_t)n + 1) * sizeof *order);
    uint32_t *tmp = malloc(((size_t)n + 1) * sizeof *tmp);
    if (!dup || !order || !tmp) {
        free(order);
        free(tmp);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        order[i] = i;
    sort_indices(order, tmp, n, ctx->doc);
    for (uint32_t i = 1; i < n; i++)
        if (strcmp(name_of(ctx->doc, order[i - 1]), name_of(ctx->doc, order[i])) == 0)
            dup[order[i - 1]] = dup[order[i]] = true;
    free(order);
    free(tmp);
    *out = dup;
    return 0;
}
