/* animsmith: a small dispatcher over one file per subcommand. Global flags
 * (--config) may appear anywhere on the command line, as the seeds' own
 * transcripts put them before the command. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/text.h"
#include "animsmith_version.h"
#include "args.h"
#include "cli.h"

static const cli_command commands[] = {
    {"inspect", "describe a glTF/GLB asset: rig roles, skeleton, materials, mesh instances, clips",
     "animsmith inspect <file>", cmd_inspect},
    {"measure", "print the semantic metrics the checks judge, per clip, plus static asset evidence",
     "animsmith measure <file...> [--format json|text] [--jobs N]", cmd_measure},
    {"lint", "judge assets against the contract (animsmith.toml): findings and coverage gaps",
     "animsmith lint <file...> [--format text|json|markdown] [--select id[,id]] "
     "[--allow id[,id]] [--deny-warnings] [--jobs N]",
     cmd_lint},
    {"fix", "repair rotation keys losslessly, byte-surgically (repairs: quat-norm, quat-flip)",
     "animsmith fix <file> (-o <out> | --in-place | --dry-run) [--repair quat-norm,quat-flip]",
     cmd_fix},
    {"diff", "compare the clip measurements of two revisions (assets or measure/lint JSON reports)",
     "animsmith diff <before> <after> [--format text|json]", cmd_diff},
};
#define COMMAND_COUNT (sizeof commands / sizeof *commands)

int cli_operator_error(const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_strbuf_puts(&sb, "animsmith: ");
    anim_text_atom(&sb, msg, strlen(msg));
    anim_strbuf_putc(&sb, '\n');
    if (sb.data)
        fputs(sb.data, stderr);
    anim_strbuf_free(&sb);
    return EXIT_OPERATOR;
}

anim_config *cli_config(const cli_globals *globals, int *rc)
{
    anim_error err;
    anim_error_clear(&err);
    anim_config *cfg = anim_config_resolve(globals->config_path, &err);
    if (!cfg)
        *rc = cli_operator_error("%s", err.message);
    return cfg;
}

void cli_deliver(const anim_strbuf *out)
{
    if (out->failed) {
        fputs("animsmith: out of memory while rendering output\n", stderr);
        return;
    }
    if (out->len && (fwrite(out->data, 1, out->len, stdout) != out->len || fflush(stdout) != 0))
        fputs("animsmith: could not write the output to stdout\n", stderr);
}

void cli_tool_info(anim_tool_info *tool)
{
    tool->version = ANIMSMITH_VERSION_STRING;
    tool->revision = ANIMSMITH_REVISION_STRING[0] ? ANIMSMITH_REVISION_STRING : NULL;
    tool->dirty = ANIMSMITH_SOURCE_DIRTY == 1   ? ANIM_SOURCE_DIRTY
                  : ANIMSMITH_SOURCE_DIRTY == 0 ? ANIM_SOURCE_CLEAN
                                                : ANIM_SOURCE_DIRTY_UNKNOWN;
}

bool cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

void cli_print_command_help(const cli_command *cmd)
{
    printf("%s\n\nUsage: %s\n", cmd->summary, cmd->usage);
    printf("\nOptions:\n  --config <FILE>  project contract (default ./animsmith.toml when present)\n"
           "  -h, --help       print this help\n");
}

static void print_version(void)
{
    /* [features: ...] names optional capabilities compiled in; none yet. */
    const char *rev = ANIMSMITH_DESCRIBE_STRING;
    if (rev[0])
        printf("animsmith %s (%s) [features: none]\n", ANIMSMITH_VERSION_STRING, rev);
    else
        printf("animsmith %s [features: none]\n", ANIMSMITH_VERSION_STRING);
}

static void print_help(void)
{
    printf("animsmith %s: is this animation clip game-ready?\n\n", ANIMSMITH_VERSION_STRING);
    printf("Usage: animsmith [--config <FILE>] <command> [args]\n\nCommands:\n");
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        printf("  %-10s %s\n", commands[i].name, commands[i].summary);
    printf("\nGlobal options:\n"
           "  --config <FILE>  project contract (default ./animsmith.toml when present)\n"
           "  -h, --help       print help (also `animsmith <command> --help`)\n"
           "  -V, --version    print the version and compiled-in features\n"
           "\nExit codes: 0 no failing findings, 1 failing findings, 2 operator error.\n");
}

int main(int argc, char **argv)
{
    cli_globals globals = {NULL};
    /* Pull global flags out of argv wherever they are; keep the rest. */
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    if (!rest)
        return cli_operator_error("out of memory");
    int n = 0;
    for (int i = 1; i < argc; i++) {
        bool missing = false;
        const char *v = cli_option_value(argc, argv, &i, "--config", &missing);
        if (v) {
            globals.config_path = v;
        } else if (missing) {
            free(rest);
            return cli_operator_error("--config requires a file argument");
        } else {
            rest[n++] = argv[i];
        }
    }
    int rc;
    if (n == 0) {
        print_help();
        rc = EXIT_OPERATOR;
    } else if (strcmp(rest[0], "--version") == 0 || strcmp(rest[0], "-V") == 0) {
        print_version();
        rc = EXIT_CLEAN;
    } else if (cli_is_help(rest[0]) || strcmp(rest[0], "help") == 0) {
        const cli_command *cmd = NULL;
        for (size_t c = 0; n > 1 && c < COMMAND_COUNT; c++)
            if (strcmp(rest[1], commands[c].name) == 0)
                cmd = &commands[c];
        if (cmd)
            cli_print_command_help(cmd);
        else
            print_help();
        rc = EXIT_CLEAN;
    } else {
        const cli_command *cmd = NULL;
        for (size_t c = 0; c < COMMAND_COUNT; c++)
            if (strcmp(rest[0], commands[c].name) == 0)
                cmd = &commands[c];
        if (!cmd) {
            rc = cli_operator_error("unknown command '%s' (see 'animsmith --help')", rest[0]);
        } else {
            bool help = false;
            for (int i = 1; i < n; i++)
                if (cli_is_help(rest[i]))
                    help = true;
            if (help) {
                cli_print_command_help(cmd);
                rc = EXIT_CLEAN;
            } else {
                rc = cmd->run(n, rest, &globals);
            }
        }
    }
    fflush(stdout);
    free(rest);
    return rc;
}
