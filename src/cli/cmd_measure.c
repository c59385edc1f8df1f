/* animsmith measure FILE|DIR... [--format json|text]: the semantic metrics
 * the checks judge, per clip, plus the static asset evidence
 * (docs/measurements.md). JSON is the default. Files are measured on
 * every core (--jobs N) and printed in argument order once all are done; a
 * file that fails is named on stderr and nothing is printed (exit 2).
 * Each worker renders its file's output as soon as the file is measured
 * and releases the asset, so memory holds the files in flight plus the
 * rendered output, never the whole library. */
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
#include "shard.h"
#include "spool.h"

typedef struct {
    cli_list operands; /* as given: files and directories */
    cli_list files;    /* operands with directories expanded */
    bool text;
    int jobs;
    cli_shard shard;   /* --shard K/N */
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
        } else if ((v = cli_option_value(argc, argv, &i, "--shard", NULL))) {
            if (cli_shard_parse(v, &a->shard))
                return EXIT_OPERATOR;
        } else if (!strcmp(argv[i], "--format") || !strcmp(argv[i], "--jobs") ||
                   !strcmp(argv[i], "--shard")) {
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

/* Per-file outcome, filled by a worker: the rendered output only. */
typedef struct {
    anim_strbuf out;    /* the file's JSON record, or its text lines */
    bool ok;
    char *error;
} measured_file;

typedef struct {
    const measure_args *args;
    const anim_config *cfg;
    measured_file *files;
    anim_contract_usage *usages; /* per file: contract names it lacks */
    cli_spool *spool;            /* where finished records go (NULL: memory) */
} measure_job;

static void fail_with(measured_file *mf, const char *path, const char *msg)
{
    mf->error = cli_file_error(path, msg);
}

/* Measures the loaded asset and renders its output into mf->out. */
static int measure_and_render(const measure_job *job, size_t i, anim_asset *asset,
                              anim_arena *arena, measured_file *mf, anim_error *err,
                              bool *names_file)
{
    const char *path = job->args->files.items[i];
    char sha256[65];
    anim_sha256_hex(asset->source.input_bytes, asset->source.input_byte_count, sha256);
    anim_rig_config rig_cfg = anim_config_rig(job->cfg);
    anim_rig_resolution rig;
    anim_measurements m;
    if (anim_contract_usage_collect(job->cfg, &asset->doc, path, &job->usages[i], err) ||
        anim_rig_resolve(&asset->doc, &rig_cfg, &rig, err) ||
        anim_measure_asset_document(asset, &rig, job->cfg, arena, &m, err))
        return -1;
    anim_measure_file file = {path, sha256, asset->source.input_byte_count, &asset->doc, &rig, &m};
    if (job->args->text) {
        anim_render_measure_text(&file, 1, &mf->out);
        return mf->out.failed ? anim_error_set(err, ANIM_ERR_NOMEM, "out of memory") : 0;
    }
    *names_file = true; /* the renderer's errors already start with the path */
    return anim_render_measure_json_file(&file, &mf->out, err);
}

/* Loads, measures and renders one file on a worker thread, then releases
 * the asset (touches only its slot). */
static void measure_one(size_t i, void *arg)
{
    measure_job *job = arg;
    measured_file *mf = &job->files[i];
    const char *path = job->args->files.items[i];
    anim_error err;
    anim_error_clear(&err);
    anim_asset *asset = cli_load_asset(path, job->cfg, &err);
    if (!asset) {
        fail_with(mf, NULL, err.message); /* the loader names the file */
        return;
    }
    anim_arena *arena = anim_arena_new(); /* per file: workers never share an arena */
    bool names_file = false;
    if (!arena)
        fail_with(mf, path, "out of memory");
    else if (measure_and_render(job, i, asset, arena, mf, &err, &names_file))
        fail_with(mf, names_file ? NULL : path, err.message);
    else
        mf->ok = true;
    anim_arena_free(arena);
    anim_asset_free(asset);
    if (mf->ok)
        cli_spool_put(job->spool, i, &mf->out);
}

/* Prints every file's output, in argument order (all of them measured):
 * the files' records are written where they stand, never copied into one
 * buffer. */
static int deliver(const measure_args *a, measured_file *mfs, const cli_spool *spool)
{
    size_t n = a->files.count;
    anim_strbuf *fragments = calloc(n ? n : 1, sizeof *fragments);
    size_t *splice_at = calloc(n ? n : 1, sizeof *splice_at);
    int rc = fragments && splice_at ? 0 : cli_operator_error("out of memory");
    for (size_t f = 0; rc == 0 && f < n; f++)
        fragments[f] = mfs[f].out; /* borrowed, freed with the slot */
    anim_strbuf out = ANIM_STRBUF_INIT;
    if (rc == 0 && !a->text) {
        anim_tool_info tool;
        cli_tool_info(&tool);
        anim_error err;
        anim_error_clear(&err);
        if (anim_render_measure_json_assemble(fragments, n, &tool, &out, splice_at, &err))
            rc = cli_operator_error("%s", err.message);
    }
    /* Text is the files' blocks one after another: every splice_at is 0. */
    if (rc == 0 && cli_deliver_spliced(&out, fragments, splice_at, n, spool))
        rc = EXIT_OPERATOR;
    anim_strbuf_free(&out);
    free(fragments);
    free(splice_at);
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
    if (!rc)
        rc = cli_shard_apply(&a.shard, &a.files);
    anim_config *cfg = NULL;
    if (!rc)
        cfg = cli_config(globals, &rc);
    measured_file *mfs = NULL;
    anim_contract_usage *usages = NULL;
    if (!rc) {
        /* A shard may hold no file: its report is still printed. */
        mfs = calloc(a.files.count ? a.files.count : 1, sizeof *mfs);
        usages = calloc(a.files.count ? a.files.count : 1, sizeof *usages);
        if (!mfs || !usages)
            rc = cli_operator_error("out of memory");
    }
    if (!rc) {
        measure_job job = {&a, cfg, mfs, usages, cli_spool_open(a.files.count)};
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
        if (!any_failed && deliver(&a, mfs, job.spool))
            any_failed = true;
        cli_spool_close(job.spool);
        rc = any_failed ? EXIT_OPERATOR : EXIT_CLEAN;
    }
    for (size_t f = 0; mfs && f < a.files.count; f++) {
        anim_strbuf_free(&mfs[f].out);
        free(mfs[f].error);
    }
    free(mfs);
    cli_free_usages(usages, a.files.count);
    anim_config_free(cfg);
    cli_list_free(&a.operands);
    cli_list_free(&a.files);
    return rc;
}
