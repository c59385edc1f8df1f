/* animsmith model SUBCOMMAND: the model authoring engine's front ends.
 *   serve [--mcp] [--store PATH]                  JSON-RPC 2.0 / MCP on stdio (model_serve.c)
 *   apply DOC.json BATCH.json [--request-id ID]   append a batch to a journal
 *   inspect DOC.json [--object NAME] --domain D [--offset N] [--limit N]
 *   compile DOC.json -o OUT.glb [--preview]
 * (journals: model_journal.c). One option table serves every subcommand
 * (main.c's pre-check reads it); a subcommand refuses the options that
 * are not its own. Exit codes: 0 ok, 1 a compile refused by a lint error
 * finding, 2 operator errors and engine refusals. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/lint.h"
#include "animsmith/model.h"
#include "args.h"
#include "cli.h"
#include "model_cli.h"
#include "model_journal.h"

anim_model_host *model_host_start(const char *store_path)
{
    anim_model_host_options opts;
    memset(&opts, 0, sizeof opts);
    anim_model_limits_default(&opts.limits);
    /* Every GLB leaves the engine only after the linter's mechanical
     * checks: what `model compile` writes, `animsmith lint` accepts. */
    opts.verify = anim_lint_verify_glb;
    opts.verify_user = NULL;
    opts.store_path = store_path;
    anim_error err;
    anim_error_clear(&err);
    anim_model_host *host = anim_model_host_new(&opts, &err);
    if (!host)
        cli_operator_error("model: could not start the model host: %s", err.message);
    return host;
}

enum { OPT_MCP, OPT_REQUEST_ID, OPT_OBJECT, OPT_DOMAIN, OPT_OFFSET, OPT_LIMIT, OPT_OUTPUT,
       OPT_PREVIEW, OPT_STORE, OPT_COUNT };

typedef struct {
    const char *values[OPT_COUNT]; /* valued options; switches hold "" */
    const char *operands[2];
    int operand_count;
} model_args;

/* The valued options, in the order of the enum; "-o" is --output. */
static const char *const valued[] = {"--request-id", "--object", "--domain", "--offset",
                                     "--limit",      "--output", "-o",       "--store"};
static const int valued_slot[] = {OPT_REQUEST_ID, OPT_OBJECT, OPT_DOMAIN, OPT_OFFSET,
                                  OPT_LIMIT,      OPT_OUTPUT, OPT_OUTPUT, OPT_STORE};
static const char *const flag_name[OPT_COUNT] = {"--mcp",    "--request-id", "--object",
                                                 "--domain", "--offset",     "--limit",
                                                 "--output", "--preview",    "--store"};

/* Parses argv[1..] of subcommand sub, allowing only the options in
 * allowed (a bit per OPT_*) and at most max_operands operands. */
static int parse(int argc, char **argv, const char *sub, unsigned allowed, int max_operands,
                 model_args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        size_t which = 0;
        const char *value = NULL;
        int slot = -1;
        int got = cli_option_values(argc, argv, &i, valued, sizeof valued / sizeof *valued,
                                    &which, &value);
        if (got) {
            slot = valued_slot[which];
        } else if (!strcmp(argv[i], "--mcp")) {
            slot = OPT_MCP;
            value = "";
        } else if (!strcmp(argv[i], "--preview")) {
            slot = OPT_PREVIEW;
            value = "";
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_operator_error("model %s: unknown option '%s'", sub, argv[i]);
        }
        if (slot >= 0) {
            if (!(allowed & (1u << slot)))
                return cli_operator_error("model %s: %s is not an option of model %s", sub,
                                          flag_name[slot], sub);
            if (got < 0)
                return cli_operator_error("model %s: %s requires a value", sub,
                                          flag_name[slot]);
            if (a->values[slot])
                return cli_operator_error("model %s: %s given more than once", sub,
                                          flag_name[slot]);
            if (got > 0 && !value[0])
                return cli_operator_error("model %s: %s requires a value", sub,
                                          flag_name[slot]);
            a->values[slot] = value;
            continue;
        }
        if (!argv[i][0])
            return cli_operator_error("model %s: empty file argument", sub);
        if (a->operand_count >= max_operands)
            return cli_operator_error("model %s: unexpected argument '%s' (see 'animsmith model "
                                      "--help')",
                                      sub, argv[i]);
        a->operands[a->operand_count++] = argv[i];
    }
    return 0;
}

/* A decimal count within [min, max]; 2 after the error otherwise. */
static int parse_count(const char *sub, const char *flag, const char *text, uint64_t min,
                       uint64_t max, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = text[0] >= '0' && text[0] <= '9' ? strtoull(text, &end, 10) : 0;
    if (!end || *end || errno || v < min || v > max)
        return cli_operator_error("model %s: %s: expected a whole number from %" PRIu64
                                  " to %" PRIu64 ", got '%s'",
                                  sub, flag, min, max, text);
    *out = v;
    return 0;
}

static int run_serve(int argc, char **argv)
{
    model_args a;
    int rc = parse(argc, argv, "serve", 1u << OPT_MCP | 1u << OPT_STORE, 0, &a);
    if (rc)
        return rc;
    anim_model_host *host = model_host_start(a.values[OPT_STORE]);
    if (!host)
        return EXIT_OPERATOR;
    rc = model_serve(host, stdin, stdout, a.values[OPT_MCP] != NULL);
    anim_model_host_free(host);
    return rc;
}

static int run_apply(int argc, char **argv)
{
    model_args a;
    int rc = parse(argc, argv, "apply", 1u << OPT_REQUEST_ID, 2, &a);
    if (rc)
        return rc;
    if (a.operand_count != 2)
        return cli_operator_error("model apply: name the journal and the batch (usage: "
                                  "animsmith model apply DOC.json BATCH.json|- [--request-id "
                                  "ID])");
    return model_journal_apply(a.operands[0], a.operands[1], a.values[OPT_REQUEST_ID]);
}

static int run_inspect(int argc, char **argv)
{
    model_args a;
    unsigned allowed = 1u << OPT_OBJECT | 1u << OPT_DOMAIN | 1u << OPT_OFFSET | 1u << OPT_LIMIT;
    int rc = parse(argc, argv, "inspect", allowed, 1, &a);
    if (rc)
        return rc;
    if (a.operand_count != 1)
        return cli_operator_error("model inspect: name the journal (usage: animsmith model "
                                  "inspect DOC.json [--object NAME] --domain D [--offset N] "
                                  "[--limit N])");
    if (!a.values[OPT_DOMAIN])
        return cli_operator_error("model inspect: --domain is required (overview, objects, "
                                  "materials, joints, clips, clip_keys; with --object: "
                                  "overview, vertices, faces, corners, edges, weights, solid)");
    uint64_t offset = 0, limit = 0;
    if (a.values[OPT_OFFSET] &&
        (rc = parse_count("inspect", "--offset", a.values[OPT_OFFSET], 0, UINT64_MAX, &offset)))
        return rc;
    if (a.values[OPT_LIMIT] &&
        (rc = parse_count("inspect", "--limit", a.values[OPT_LIMIT], 1, 128, &limit)))
        return rc;
    return model_journal_inspect(a.operands[0], a.values[OPT_OBJECT], a.values[OPT_DOMAIN],
                                 a.values[OPT_OFFSET] != NULL, offset,
                                 a.values[OPT_LIMIT] != NULL, limit);
}

static int run_compile(int argc, char **argv)
{
    model_args a;
    int rc = parse(argc, argv, "compile", 1u << OPT_OUTPUT | 1u << OPT_PREVIEW, 1, &a);
    if (rc)
        return rc;
    if (a.operand_count != 1 || !a.values[OPT_OUTPUT])
        return cli_operator_error("model compile: name the journal and the output (usage: "
                                  "animsmith model compile DOC.json -o OUT.glb [--preview])");
    if (!strcmp(a.operands[0], a.values[OPT_OUTPUT]))
        return cli_operator_error("model compile: the output %s is the journal itself",
                                  a.operands[0]);
    return model_journal_compile(a.operands[0], a.values[OPT_OUTPUT],
                                 a.values[OPT_PREVIEW] != NULL);
}

int cmd_model(int argc, char **argv, const cli_globals *globals)
{
    (void)globals; /* the engine has no contract settings of its own yet */
    if (argc < 2)
        return cli_operator_error("model: name a subcommand: serve, apply, inspect or compile "
                                  "(see 'animsmith model --help')");
    const char *sub = argv[1];
    if (!strcmp(sub, "serve"))
        return run_serve(argc - 1, argv + 1);
    if (!strcmp(sub, "apply"))
        return run_apply(argc - 1, argv + 1);
    if (!strcmp(sub, "inspect"))
        return run_inspect(argc - 1, argv + 1);
    if (!strcmp(sub, "compile"))
        return run_compile(argc - 1, argv + 1);
    return cli_operator_error("model: unknown subcommand '%s' (expected serve, apply, inspect "
                              "or compile)",
                              sub);
}
