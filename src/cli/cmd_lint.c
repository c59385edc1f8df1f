/* animsmith lint FILE... : judge each asset against the contract
 * (animsmith.toml) and print findings and coverage gaps as text, JSON or a
 * Markdown CI comment. Exit 1 iff a shown finding reaches the fail level
 * (error; warning with --deny-warnings); coverage gaps never fail. */
#include <stdlib.h>
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/lint.h"
#include "animsmith/measure.h"
#include "animsmith/report.h"
#include "animsmith/strbuf.h"
#include "args.h"
#include "cli.h"

typedef enum { FORMAT_TEXT, FORMAT_JSON, FORMAT_MARKDOWN } lint_format;

typedef struct {
    cli_list files;
    cli_list select;
    cli_list allow;
    bool select_given;
    bool deny_warnings;
    lint_format format;
} lint_args;

static int parse_args(int argc, char **argv, lint_args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = cli_option_value(argc, argv, &i, "--format"))) {
            if (!strcmp(v, "text"))
                a->format = FORMAT_TEXT;
            else if (!strcmp(v, "json"))
                a->format = FORMAT_JSON;
            else if (!strcmp(v, "markdown"))
                a->format = FORMAT_MARKDOWN;
            else
                return cli_operator_error("--format: unknown format '%s' (expected text, json or markdown)", v);
        } else if ((v = cli_option_value(argc, argv, &i, "--select"))) {
            a->select_given = true;
            if (cli_list_add_csv(&a->select, v))
                return cli_operator_error("out of memory");
        } else if ((v = cli_option_value(argc, argv, &i, "--allow"))) {
            if (cli_list_add_csv(&a->allow, v))
                return cli_operator_error("out of memory");
        } else if (!strcmp(argv[i], "--deny-warnings")) {
            a->deny_warnings = true;
        } else if (!strcmp(argv[i], "--format") || !strcmp(argv[i], "--select") ||
                   !strcmp(argv[i], "--allow")) {
            return cli_operator_error("%s requires a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_operator_error("lint: unknown option '%s'", argv[i]);
        } else if (!argv[i][0]) {
            return cli_operator_error("lint: empty file argument");
        } else if (cli_list_add(&a->files, argv[i])) {
            return cli_operator_error("out of memory");
        }
    }
    return 0;
}

/* Spec 7.4: an unknown --select id is named with the whole catalog. */
static int check_selected_ids(const lint_args *a)
{
    for (size_t i = 0; i < a->select.count; i++) {
        if (anim_check_find(a->select.items[i]))
            continue;
        anim_strbuf known = ANIM_STRBUF_INIT;
        for (size_t c = 0; c < anim_check_count(); c++) {
            if (c)
                anim_strbuf_puts(&known, ", ");
            anim_strbuf_puts(&known, anim_check_at(c)->id);
        }
        int rc = cli_operator_error("--select: unknown check '%s' (known: %s)", a->select.items[i],
                                    known.data ? known.data : "");
        anim_strbuf_free(&known);
        return rc;
    }
    return 0;
}

/* Exit 1 iff a finding not hidden by --allow reaches the fail level. */
static bool run_fails(const anim_lint_file *files, size_t n, const lint_args *a)
{
    anim_severity fail_at = a->deny_warnings ? ANIM_SEVERITY_WARNING : ANIM_SEVERITY_ERROR;
    for (size_t f = 0; f < n; f++)
        for (size_t r = 0; r < files[f].record_count; r++) {
            const anim_check_record *rec = &files[f].records[r];
            if (cli_list_contains(&a->allow, rec->check_id))
                continue;
            for (uint32_t k = 0; k < rec->finding_count; k++)
                if (rec->findings[k].severity >= fail_at)
                    return true;
        }
    return false;
}

/* Loads and lints every file before anything is printed: a failure on
 * any file is an operator error with no partial output (spec 7.1). The
 * assets stay loaded because JSON output embeds their measurements. */
static int lint_files(const lint_args *a, const anim_config *cfg, anim_asset **assets,
                      anim_lint_file *results)
{
    anim_lint_options opts = {NULL, 0};
    if (a->select_given) {
        opts.select = (const char *const *)a->select.items;
        opts.select_count = a->select.count;
    }
    for (size_t f = 0; f < a->files.count; f++) {
        anim_error err;
        anim_error_clear(&err);
        assets[f] = anim_asset_load(a->files.items[f], NULL, &err);
        if (!assets[f])
            return cli_operator_error("%s", err.message);
        if (anim_lint_run(assets[f], cfg, &opts, &results[f], &err))
            return cli_operator_error("%s: %s", a->files.items[f], err.message);
    }
    return 0;
}

static int render_json(const lint_args *a, const anim_config *cfg, anim_asset **assets,
                       const anim_lint_file *results, const anim_lint_render_options *ro,
                       anim_strbuf *out)
{
    size_t n = a->files.count;
    anim_lint_json_input *inputs = calloc(n, sizeof *inputs);
    anim_measurements *measurements = calloc(n, sizeof *measurements);
    anim_arena *arena = anim_arena_new();
    int rc = 0;
    if (!inputs || !measurements || !arena)
        rc = cli_operator_error("out of memory");
    for (size_t f = 0; !rc && f < n; f++) {
        anim_error err;
        anim_error_clear(&err);
        if (anim_measure_document(&assets[f]->doc, &results[f].rig, cfg, arena, &measurements[f],
                                  &err))
            rc = cli_operator_error("%s: %s", a->files.items[f], err.message);
        inputs[f].file = &results[f];
        inputs[f].doc = &assets[f]->doc;
        inputs[f].measurements = &measurements[f];
    }
    if (!rc) {
        anim_error err;
        anim_error_clear(&err);
        if (anim_render_lint_json(inputs, n, ro, out, &err))
            rc = cli_operator_error("%s", err.message);
    }
    free(inputs);
    free(measurements);
    anim_arena_free(arena);
    return rc;
}

static int render(const lint_args *a, const anim_config *cfg, anim_asset **assets,
                  const anim_lint_file *results, anim_strbuf *out)
{
    anim_lint_render_options ro;
    memset(&ro, 0, sizeof ro);
    ro.allow = (const char *const *)a->allow.items;
    ro.allow_count = a->allow.count;
    cli_tool_info(&ro.tool);
    switch (a->format) {
    case FORMAT_JSON:
        return render_json(a, cfg, assets, results, &ro, out);
    case FORMAT_MARKDOWN:
        anim_render_lint_markdown(results, a->files.count, &ro, out);
        return 0;
    default:
        anim_render_lint_text(results, a->files.count, &ro, out);
        return 0;
    }
}

int cmd_lint(int argc, char **argv, const cli_globals *globals)
{
    lint_args a;
    memset(&a, 0, sizeof a);
    int rc = parse_args(argc, argv, &a);
    if (!rc && a.allow.count && a.format == FORMAT_JSON)
        rc = cli_operator_error("--allow is not supported with --format json; machine-readable "
                                "results retain every content finding");
    if (!rc)
        rc = check_selected_ids(&a);
    if (!rc && a.files.count == 0)
        rc = cli_operator_error("lint: no input files (usage: animsmith lint <file...>)");
    anim_config *cfg = NULL;
    anim_lint_file *results = NULL;
    anim_asset **assets = NULL;
    if (!rc) {
        anim_error err;
        anim_error_clear(&err);
        cfg = anim_config_resolve(globals->config_path, &err);
        if (!cfg)
            rc = cli_operator_error("%s", err.message);
    }
    if (!rc) {
        results = calloc(a.files.count, sizeof *results);
        assets = calloc(a.files.count, sizeof *assets);
        rc = results && assets ? lint_files(&a, cfg, assets, results)
                               : cli_operator_error("out of memory");
    }
    if (!rc) {
        anim_strbuf out = ANIM_STRBUF_INIT;
        rc = render(&a, cfg, assets, results, &out);
        if (!rc) {
            cli_deliver(&out);
            rc = run_fails(results, a.files.count, &a) ? EXIT_FINDINGS : EXIT_CLEAN;
        }
        anim_strbuf_free(&out);
    }
    for (size_t f = 0; results && f < a.files.count; f++) {
        anim_lint_file_free(&results[f]);
        anim_asset_free(assets[f]);
    }
    free(results);
    free(assets);
    anim_config_free(cfg);
    cli_list_free(&a.files);
    cli_list_free(&a.select);
    cli_list_free(&a.allow);
    return rc;
}
