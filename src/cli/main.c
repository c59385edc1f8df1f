/* animsmith: a small dispatcher over one file per subcommand. Global flags
 * (--config) may appear anywhere on the command line, as documented
 * examples put them before the command. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/text.h"
#include "animsmith_version.h"
#include "args.h"
#include "cli.h"
#include "model_cli.h"
#include "options.h"
#include "shard.h"
#include "spool.h"

/* The runner of each command of the option table (options.c). */
typedef struct {
    const char *name;
    int (*run)(int argc, char **argv, const cli_globals *globals);
} cli_runner;

static const cli_runner runners[] = {
    {"inspect", cmd_inspect}, {"measure", cmd_measure}, {"lint", cmd_lint},
    {"fix", cmd_fix},         {"diff", cmd_diff},       {"checks", cmd_checks},
    {"merge", cmd_merge},     {"transform", cmd_transform}, {"report", cmd_report},
    {"convert", cmd_convert},     {"generate", cmd_generate},
    {"model", cmd_model},     {"mesh-quality", cmd_mesh_quality},
};
#define RUNNER_COUNT (sizeof runners / sizeof *runners)

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

int cli_text_or_json(const char *value, bool *json)
{
    if (strcmp(value, "text") && strcmp(value, "json"))
        return cli_operator_error("--format: unknown format '%s' (expected text or json)", value);
    *json = strcmp(value, "json") == 0;
    return 0;
}

anim_asset *cli_load_asset(const char *path, const anim_config *cfg, anim_error *err)
{
    anim_load_options opts;
    anim_config_load_options(cfg, &opts);
    return anim_asset_load(path, &opts, err);
}

void cli_deliver(const anim_strbuf *out)
{
    /* Without a spool only a failed render can fail, and that is said on
     * stderr; these commands keep the exit code of the work they did. */
    (void)cli_deliver_spliced(out, NULL, NULL, 0, NULL);
}

static bool put_stdout(const char *data, size_t len)
{
    return len == 0 || fwrite(data, 1, len, stdout) == len;
}

int cli_deliver_spliced(const anim_strbuf *out, const anim_strbuf *fragments,
                        const size_t *splice_at, size_t n, const cli_spool *spool)
{
    bool failed = out->failed;
    for (size_t i = 0; i < n; i++)
        failed = failed || fragments[i].failed || splice_at[i] > out->len ||
                 (i && splice_at[i] < splice_at[i - 1]);
    if (failed) {
        /* Nothing is printed: an empty report must not pass for a run. */
        cli_operator_error("out of memory while rendering output");
        return -1;
    }
    /* Large blocks bypass stdio's buffer, so nothing is copied again. */
    const char *text = out->data ? out->data : "";
    cli_spool_result result = CLI_SPOOL_WRITTEN;
    /* The text up to record i's place, then record i; after the last
     * record, the rest of the text. */
    size_t at = 0;
    for (size_t i = 0; result == CLI_SPOOL_WRITTEN && i <= n; i++) {
        size_t end = i < n ? splice_at[i] : out->len;
        if (!put_stdout(text + at, end - at))
            result = CLI_SPOOL_OUT_FAILED;
        else if (i < n)
            result = cli_spool_write(spool, i, &fragments[i], stdout);
        at = end;
    }
    if (result == CLI_SPOOL_READ_FAILED) {
        /* Not the reader's stdout but our own temporary file: the report
         * is cut short, so the run fails. */
        cli_operator_error("could not read the finished file records back from the temporary "
                           "file in $TMPDIR: %s; the report printed is incomplete",
                           strerror(errno));
        return -1;
    }
    if (result != CLI_SPOOL_WRITTEN || fflush(stdout) != 0)
        fputs("animsmith: could not write the output to stdout\n", stderr);
    return 0;
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

void cli_warn_contract(const anim_config *cfg, const cli_list *files,
                       const anim_contract_usage *usages)
{
    anim_strbuf text = ANIM_STRBUF_INIT;
    anim_contract_warnings(cfg, usages, (const char *const *)files->items, files->count, &text);
    /* Advice only: without memory it is dropped, the run stands. */
    for (const char *p = text.failed ? NULL : text.data; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        fprintf(stderr, "animsmith: warning: %.*s\n", (int)len, p);
        p += len + (nl ? 1 : 0);
    }
    anim_strbuf_free(&text);
}

void cli_free_usages(anim_contract_usage *usages, size_t n)
{
    for (size_t f = 0; usages && f < n; f++)
        anim_contract_usage_free(&usages[f]);
    free(usages);
}

/* Every flag must be one the option table documents: a parser cannot
 * accept an option its --help, man page and completions do not show. */
static int check_options(const cli_command_doc *doc, int n, char **args)
{
    for (int i = 1; i < n; i++) {
        const char *arg = args[i];
        if (arg[0] != '-' || arg[1] == '\0')
            continue;
        const cli_option *opt = cli_option_lookup(doc, arg);
        if (!opt)
            return cli_operator_error("%s: unknown option '%s'", doc->name, arg);
        if (!opt->value_name || strchr(arg, '='))
            continue;
        /* A value that looks like an option is a missing value: the
         * command's own parser reports that first. */
        if (i + 1 >= n || (args[i + 1][0] == '-' && args[i + 1][1] != '\0'))
            return 0;
        i++;
    }
    return 0;
}

static void print_version(void)
{
    /* [features: ...] names the optional capabilities compiled in,
     * alphabetically: fbx (FBX input and convert), report (HTML reports).
     * Both are always built here; the label keeps the form scripts
     * parse. */
    const char *rev = ANIMSMITH_DESCRIBE_STRING;
    if (rev[0])
        printf("animsmith %s (%s) [features: fbx, report]\n", ANIMSMITH_VERSION_STRING, rev);
    else
        printf("animsmith %s [features: fbx, report]\n", ANIMSMITH_VERSION_STRING);
}

/* Memory a finished file frees stays with the process for the next file.
 * glibc otherwise hands it back to the kernel as soon as a large block at
 * the top of the heap is freed, and the next file's tables, grids and
 * report pages are faulted in again, zeroed, page by page: up to 20,000
 * faults and a tenth of a library run. Kept memory is reused, never added
 * to the peak, and padding that is never touched costs nothing. */
static void keep_freed_memory(void)
{
#if defined(__GLIBC__) && defined(M_TOP_PAD) && defined(M_TRIM_THRESHOLD)
    mallopt(M_TOP_PAD, 16 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

int main(int argc, char **argv)
{
    keep_freed_memory();
#ifdef SIGXFSZ
    /* A write past a file-size limit (ulimit -f) then fails with EFBIG
     * and is handled like a full disk (an output file is left untouched,
     * a spooled record stays in memory) instead of killing the run. */
    signal(SIGXFSZ, SIG_IGN);
#endif
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
        cli_print_top_help(ANIMSMITH_VERSION_STRING, stdout);
        rc = EXIT_OPERATOR;
    } else if (strcmp(rest[0], "--version") == 0 || strcmp(rest[0], "-V") == 0) {
        print_version();
        rc = EXIT_CLEAN;
    } else if (cli_is_help(rest[0]) || strcmp(rest[0], "help") == 0) {
        const cli_command_doc *cmd = n > 1 ? cli_command_doc_find(rest[1]) : NULL;
        if (cmd)
            cli_print_command_help(cmd, stdout);
        else
            cli_print_top_help(ANIMSMITH_VERSION_STRING, stdout);
        rc = EXIT_CLEAN;
    } else {
        const cli_command_doc *cmd = cli_command_doc_find(rest[0]);
        const cli_runner *runner = NULL;
        for (size_t c = 0; cmd && c < RUNNER_COUNT; c++)
            if (strcmp(rest[0], runners[c].name) == 0)
                runner = &runners[c];
        if (!runner) {
            rc = cli_operator_error("unknown command '%s' (see 'animsmith --help')", rest[0]);
        } else {
            bool help = false;
            for (int i = 1; i < n; i++)
                if (cli_is_help(rest[i]))
                    help = true;
            if (help) {
                cli_print_command_help(cmd, stdout);
                rc = EXIT_CLEAN;
            } else if ((rc = check_options(cmd, n, rest)) == 0) {
                rc = runner->run(n, rest, &globals);
            }
        }
    }
    fflush(stdout);
    free(rest);
    return rc;
}
