/* animsmith measure FILE|DIR... [--format json|text]: the semantic metrics
 * the checks judge, per clip, plus the static asset evidence
 * (docs/measurements.md). JSON is the default. Files are measured on
 * every core (--jobs N) and printed in argument order once all are done; a
 * file that fails is named on stderr and nothing is printed (exit 2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/hash.h"
#include "animsmith/measure.h"
#include "animsmith/report.h"
#include "animsmith/rig.h"
#include "animsmith/strbuf.h"
#include "args.h"
#include "cli.h"
#include "jobs.h"

typedef struct {
    cli_list operands; /* as given: files and directories */
    cli_list files;    /* operands with directories expanded */
    bool text;
    int jobs;
} measure_args;

static int parse_args(int argc, char **argv, measure_args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = cli_option_value(argc, argv, &i, "--format", NULL))) {
            if (!strcmp(v, "json"))
                a->text = false;
            else if (!strcmp(v, "text"))
                a->text = true;
            else
                return cli_operator_error("--format: unknown format '%s' (expected json or text)",
                                          v);
        } else if ((v = cli_option_value(argc, argv, &i, "--jobs", NULL))) {
            if (cli_parse_jobs(v, &a->jobs))
                return EXIT_OPERATOR;
        } else if (!strcmp(argv[i], "--format") || !strcmp(argv[i], "--jobs")) {
            return cli_operator_error("%s requires a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_operator_error("measure: unknown option '%s'", argv[i]);
        } else if (!argv[i][0]) {
            return cli_operator_error("measure: empty file argument");
        } else if (cli_list_add(&a->operands, argv[i])) {
            return cli_operator_error("out of memory");
        }
    }
    return 0;
}

typedef struct {
    anim_asset *asset;
    anim_rig_resolution rig;
    char sha256[65];
    anim_measurements m;
    anim_arena *arena;  /* per file: workers never share an arena */
    bool ok;
    char *error;
} measured_file;

typedef struct {
    const measure_args *args;
    const anim_config *cfg;
    measured_file *files;
    anim_contract_usage *usages; /* per file: contract names it lacks */
} measure_job;

static void fail_with(measured_file *mf, const char *path, const char *msg)
{
    mf->error = cli_file_error(path, msg);
}

/* Loads and measures one file on a worker thread (touches only its slot). */
static void measure_one(size_t i, void *arg)
{
    measure_job *job = arg;
    measured_file *mf = &job->files[i];
    const char *path = job->args->files.items[i];
    anim_error err;
    anim_error_clear(&err);
    mf->asset = cli_load_asset(path, job->cfg, &err);
    if (!mf->asset) {
        fail_with(mf, NULL, err.message); /* the loader names the file */
        return;
    }
    mf->arena = anim_arena_new();
    if (!mf->arena) {
        fail_with(mf, path, "out of memory");
        return;
    }
    anim_sha256_hex(mf->asset->source.bytes, mf->asset->source.byte_count, mf->sha256);
    anim_rig_config rig_cfg = anim_config_rig(job->cfg);
    if (anim_contract_usage_collect(job->cfg, &mf->asset->doc, path, &job->usages[i], &err) ||
        anim_rig_resolve(&mf->asset->doc, &rig_cfg, &mf->rig, &err) ||
        anim_measure_asset_document(mf->asset, &mf->rig, job->cfg, mf->arena, &mf->m, &err)) {
        fail_with(mf, path, err.message);
        return;
    }
    mf->ok = true;
}

/* Renders every file, in argument order (all of them measured). */
static int render(const measure_args *a, measured_file *mfs, anim_strbuf *out)
{
    size_t n = a->files.count;
    anim_measure_file *files = calloc(n, sizeof *files);
    if (!files)
        return cli_operator_error("out of memory");
    for (size_t f = 0; f < n; f++) {
        files[f].path = a->files.items[f];
        files[f].sha256_hex = mfs[f].sha256;
        files[f].bytes = mfs[f].asset->source.byte_count;
        files[f].doc = &mfs[f].asset->doc;
        files[f].rig = &mfs[f].rig;
        files[f].measurements = &mfs[f].m;
    }
    int rc = 0;
    if (a->text) {
        anim_render_measure_text(files, n, out);
    } else {
        anim_tool_info tool;
        cli_tool_info(&tool);
        anim_error err;
        anim_error_clear(&err);
        if (anim_render_measure_json(files, n, &tool, out, &err))
            rc = cli_operator_error("%s", err.message);
    }
    free(files);
    return rc;
}

int cmd_measure(int argc, char **argv, const cli_globals *globals)
{
    measure_args a;
    memset(&a, 0, sizeof a);
    a.jobs = cli_default_jobs();
    int rc = parse_args(argc, argv, &a);
    if (!rc && a.operands.count == 0)
        rc = cli_operator_error("measure: no input files (usage: animsmith measure <file...>)");
    if (!rc)
        rc = cli_expand_inputs(&a.operands, &a.files);
    anim_config *cfg = NULL;
    if (!rc)
        cfg = cli_config(globals, &rc);
    measured_file *mfs = NULL;
    anim_contract_usage *usages = NULL;
    if (!rc) {
        mfs = calloc(a.files.count, sizeof *mfs);
        usages = calloc(a.files.count, sizeof *usages);
        if (!mfs || !usages)
            rc = cli_operator_error("out of memory");
    }
    if (!rc) {
        measure_job job = {&a, cfg, mfs, usages};
        cli_run_jobs(a.files.count, a.jobs, measure_one, &job, "measuring");
        cli_warn_contract(cfg, &a.files, usages);
        /* As for lint: an operator failure on any file leaves stdout
         * empty (an envelope without that file would look complete), and
         * every failing file is named in argument order. */
        bool any_failed = false;
        for (size_t f = 0; f < a.files.count; f++)
            if (!mfs[f].ok) {
                any_failed = true;
                cli_operator_error("%s", mfs[f].error ? mfs[f].error : "out of memory");
            }
        if (!any_failed) {
            anim_strbuf out = ANIM_STRBUF_INIT;
            if (render(&a, mfs, &out) == 0)
                cli_deliver(&out);
            else
                any_failed = true;
            anim_strbuf_free(&out);
        }
        rc = any_failed ? EXIT_OPERATOR : EXIT_CLEAN;
    }
    for (size_t f = 0; mfs && f < a.files.count; f++) {
        anim_asset_free(mfs[f].asset);
        anim_arena_free(mfs[f].arena);
        free(mfs[f].error);
    }
    free(mfs);
    cli_free_usages(usages, a.files.count);
    anim_config_free(cfg);
    cli_list_free(&a.operands);
    cli_list_free(&a.files);
    return rc;
}
