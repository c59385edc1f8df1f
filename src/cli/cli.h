/* The CLI's shared pieces: the command table, output delivery and the
 * operator-error convention (animsmith: <message> on stderr, exit 2). */
#ifndef ANIMSMITH_CLI_H
#define ANIMSMITH_CLI_H

#include <stdbool.h>

#include "animsmith/report.h"
#include "animsmith/strbuf.h"

enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_OPERATOR = 2 };

typedef struct cli_globals {
    const char *config_path; /* --config FILE, wherever it appeared */
} cli_globals;

typedef struct cli_command {
    const char *name;
    const char *summary;
    const char *usage;
    int (*run)(int argc, char **argv, const cli_globals *globals);
} cli_command;

/* Prints "animsmith: <message>" (escaped for the terminal) and returns 2. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
int cli_operator_error(const char *fmt, ...);

/* The contract for a command: --config FILE, else ./animsmith.toml when
 * present, else the defaults. On failure prints the operator error, sets
 * *rc to 2 and returns NULL. */
struct anim_config *cli_config(const cli_globals *globals, int *rc);

/* Writes the buffer to stdout in one go. A closed or full stdout does not
 * change the exit code of work that was done (seed: Exit Codes). */
void cli_deliver(const anim_strbuf *out);

/* True when argv[i] is -h or --help. */
bool cli_is_help(const char *arg);
void cli_print_command_help(const cli_command *cmd);

/* The tool identity JSON envelopes carry (version, revision, dirty). */
void cli_tool_info(anim_tool_info *tool);

int cmd_inspect(int argc, char **argv, const cli_globals *globals);
int cmd_fix(int argc, char **argv, const cli_globals *globals);
int cmd_lint(int argc, char **argv, const cli_globals *globals);
int cmd_measure(int argc, char **argv, const cli_globals *globals);
int cmd_diff(int argc, char **argv, const cli_globals *globals);

#endif
