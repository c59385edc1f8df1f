/* Argument helpers shared by subcommands. */
#ifndef ANIMSMITH_CLI_ARGS_H
#define ANIMSMITH_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char **items;
    size_t count, cap;
} cli_list;

int cli_list_add(cli_list *list, const char *s);
/* Appends the non-empty comma-separated items of csv. -1 on OOM. */
int cli_list_add_csv(cli_list *list, const char *csv);
bool cli_list_contains(const cli_list *list, const char *s);
void cli_list_free(cli_list *list);

/* For `--name VALUE` or `--name=VALUE` at argv[*i]: the value (advancing *i
 * past a separate value), or NULL when argv[*i] is not that option or the
 * value is missing (a separate value starting with '-' counts as missing);
 * in the latter case *missing is set (missing may be NULL). */
const char *cli_option_value(int argc, char **argv, int *i, const char *name, bool *missing);

/* cli_option_value over a command's table of valued options: 1 when
 * argv[*i] is names[*which] with its value in *value (advancing *i as
 * cli_option_value does), -1 when it is names[*which] without a value, 0
 * when it is none of them. */
int cli_option_values(int argc, char **argv, int *i, const char *const *names, size_t count,
                      size_t *which, const char **value);

/* Stores an option's value in *slot, once: an operator error (printed,
 * 2 returned) when the option was already given ("fix: --output given
 * more than once") or its value is empty ("fix: --output requires a
 * path"; what names the kind of value). 0 when stored. */
int cli_set_once(const char *command, const char *flag, const char *what, const char **slot,
                 const char *value);

/* lint/measure operands to input files (paths.c): a file is kept as
 * given; a directory becomes the .glb/.gltf files under it, recursively,
 * sorted byte-wise by path. A directory holding none is an operator error
 * naming it. Returns 0, or 2 after printing the error. */
int cli_expand_inputs(const cli_list *operands, cli_list *files);

#endif
