/* --shard K/N: which inputs a shard keeps (see shard.h). */
#include "shard.h"

#include <stdlib.h>
#include <string.h>

int cli_shard_parse(const char *text, cli_shard *shard)
{
    char *end;
    unsigned long k = 0, n = 0;
    bool ok = text[0] >= '0' && text[0] <= '9';
    if (ok) {
        k = strtoul(text, &end, 10);
        ok = *end == '/' && end[1] >= '0' && end[1] <= '9';
    }
    if (ok) {
        n = strtoul(end + 1, &end, 10);
        ok = *end == '\0' && k >= 1 && k <= n && n <= CLI_SHARD_MAX;
    }
    if (!ok)
        return cli_operator_error("--shard: expected K/N with 1 <= K <= N <= %u, got '%s'",
                                  CLI_SHARD_MAX, text);
    shard->given = true;
    shard->k = (uint32_t)k;
    shard->n = (uint32_t)n;
    return 0;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(**(char **const *)a, **(char **const *)b);
}

int cli_shard_apply(const cli_shard *shard, cli_list *files)
{
    if (!shard->given || files->count == 0)
        return 0;
    size_t count = files->count;
    /* Sort pointers to the slots, so the rank found for each path can be
     * written back by position. */
    char ***order = malloc(count * sizeof *order);
    bool *keep = calloc(count, sizeof *keep);
    if (!order || !keep) {
        free(order);
        free(keep);
        return cli_operator_error("out of memory");
    }
    for (size_t i = 0; i < count; i++)
        order[i] = &files->items[i];
    qsort(order, count, sizeof *order, by_path);
    size_t rank = 0;
    for (size_t i = 0; i < count; i++) {
        if (i > 0 && strcmp(*order[i - 1], *order[i]) != 0)
            rank++;
        keep[order[i] - files->items] = rank % shard->n == shard->k - 1;
    }
    size_t kept = 0;
    for (size_t i = 0; i < count; i++) {
        if (keep[i])
            files->items[kept++] = files->items[i];
        else
            free(files->items[i]);
    }
    files->count = kept;
    free(order);
    free(keep);
    return 0;
}
