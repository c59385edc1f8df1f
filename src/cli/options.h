/* The one table of commands and options. The --help printer, the option
 * pre-check in main.c and the generated man page and shell completions
 * (tools/gendocs) all read it, so what a command accepts and what its
 * documentation says cannot drift apart. Pure data plus a printer: it links
 * into the generator without the rest of the CLI. */
#ifndef ANIMSMITH_CLI_OPTIONS_H
#define ANIMSMITH_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What an option's value is, for the completions. */
typedef enum {
    CLI_VALUE_NONE = 0, /* a switch */
    CLI_VALUE_FILE,     /* a path */
    CLI_VALUE_CHOICE,   /* one of `choices` (space-separated) */
    CLI_VALUE_CHECKS,   /* comma-separated check ids */
    CLI_VALUE_REPAIRS,  /* comma-separated repair ids (`choices`) */
    CLI_VALUE_NUMBER,
    CLI_VALUE_TEXT      /* free text (a clip name, a time window) */
} cli_value_kind;

typedef struct cli_option {
    const char *flag;        /* "--format" */
    const char *short_flag;  /* "-o", or NULL */
    const char *value_name;  /* "FORMAT" (NULL for a switch) */
    cli_value_kind kind;
    const char *choices;     /* CHOICE/REPAIRS: "text json markdown" */
    const char *default_text; /* "text"; NULL when there is no default */
    const char *help;        /* one line, no trailing period */
} cli_option;

typedef struct cli_command_doc {
    const char *name;
    const char *summary;
    const char *usage;       /* "animsmith lint <file|dir...> [options]" */
    const char *operands;    /* one line about the positional arguments */
    const cli_option *options; /* command options, NULL-flag terminated */
    const char *const *examples; /* NULL-terminated shell lines */
} cli_command_doc;

/* Commands in the order `animsmith --help` lists them. */
size_t cli_command_doc_count(void);
const cli_command_doc *cli_command_doc_at(size_t index);
const cli_command_doc *cli_command_doc_find(const char *name);

/* Options every command takes (--config, --help), NULL-flag terminated;
 * and the top-level ones (--config, --help, --version). */
const cli_option *cli_common_options(void);
const cli_option *cli_global_options(void);

/* The option of cmd (or the common ones) that arg spells, as `--flag`,
 * `--flag=value` or the short form; NULL when none. */
const cli_option *cli_option_lookup(const cli_command_doc *cmd, const char *arg);

/* `animsmith CMD --help`, and the left column of an option line
 * ("-o, --output <PATH>"). */
void cli_print_command_help(const cli_command_doc *cmd, FILE *out);
void cli_print_top_help(const char *version, FILE *out);
void cli_option_spelling(const cli_option *opt, char *buf, size_t size);

#endif
