/* Small argument helpers shared by subcommands: comma-separated id lists
 * (repeatable flags) and option values. */
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cli.h"

static int list_add_n(cli_list *list, const char *s, size_t len)
{
    if (list->count == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 8;
        char **items = realloc(list->items, cap * sizeof *items);
        if (!items)
            return -1;
        list->items = items;
        list->cap = cap;
    }
    char *item = malloc(len + 1);
    if (!item)
        return -1;
    memcpy(item, s, len);
    item[len] = '\0';
    list->items[list->count++] = item;
    return 0;
}

int cli_list_add(cli_list *list, const char *s)
{
    return list_add_n(list, s, strlen(s));
}

int cli_list_add_csv(cli_list *list, const char *csv)
{
    const char *p = csv;
    while (1) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len > 0 && list_add_n(list, p, len))
            return -1;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

bool cli_list_contains(const cli_list *list, const char *s)
{
    for (size_t i = 0; i < list->count; i++)
        if (strcmp(list->items[i], s) == 0)
            return true;
    return false;
}

void cli_list_free(cli_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->items[i]);
    free(list->items);
    memset(list, 0, sizeof *list);
}

const char *cli_option_value(int argc, char **argv, int *i, const char *name, bool *missing)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) == 0 && argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (strcmp(argv[*i], name) != 0)
        return NULL;
    /* A separate value that looks like an option is the user forgetting
     * the value (`-o --dry-run`), never a file named "--dry-run"; such a
     * value can still be given as `--name=-x` or `./-x`. */
    if (*i + 1 < argc && !(argv[*i + 1][0] == '-' && argv[*i + 1][1] != '\0'))
        return argv[++*i];
    if (missing)
        *missing = true;
    return NULL;
}

int cli_option_values(int argc, char **argv, int *i, const char *const *names, size_t count,
                      size_t *which, const char **value)
{
    for (size_t k = 0; k < count; k++) {
        bool missing = false;
        const char *v = cli_option_value(argc, argv, i, names[k], &missing);
        if (missing || v) {
            *which = k;
            *value = v;
            return missing ? -1 : 1;
        }
    }
    return 0;
}

int cli_set_once(const char *command, const char *flag, const char *what, const char **slot,
                 const char *value)
{
    if (*slot)
        return cli_operator_error("%s: %s given more than once", command, flag);
    if (!value[0])
        return cli_operator_error("%s: %s requires %s", command, flag, what);
    *slot = value;
    return 0;
}
