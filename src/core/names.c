/* Ordering names for duplicate detection (see animsmith/names.h). A sort,
 * not a pairwise scan, so a 10,000-bone skeleton costs n log n. */
#include "animsmith/names.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    uint32_t index;
} named_index;

static int by_name_then_index(const void *a, const void *b)
{
    const named_index *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

uint32_t *anim_names_order(const char *const *names, uint32_t n, uint32_t *count)
{
    named_index *refs = malloc((n ? n : 1) * sizeof *refs);
    uint32_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!refs || !order) {
        free(refs);
        free(order);
        return NULL;
    }
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (names[i])
            refs[m++] = (named_index){names[i], i};
    qsort(refs, m, sizeof *refs, by_name_then_index);
    for (uint32_t k = 0; k < m; k++)
        order[k] = refs[k].index;
    free(refs);
    *count = m;
    return order;
}
