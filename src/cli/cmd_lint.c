/* animsmith lint FILE|DIR... : judge each asset against the contract
 * (animsmith.toml) and print findings and coverage gaps as text, JSON, a
 * Markdown CI comment, SARIF (code scanning) or JUnit XML (CI test
 * reports). Exit 1 iff a shown finding reaches the fail level
 * (error; warning with --deny-warnings) or a required-unavailable
 * prediction facet; coverage gaps never fail. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/lint.h"
#include "animsmith/measure.h"
#include "animsmith/report.h"
#include "animsmith/strbuf.h"
#include "args.h"
#include "cli.h"
#include "jobs.h"
#include "shard.h"
#include "spool.h"

typedef enum { FORMAT_TEXT, FORMAT_JSON, FORMAT_MARKDOWN, FORMAT_SARIF, FORMAT_JUNIT } lint_format;

typedef enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER } lint_color;

typedef struct {
    cli_list operands;          /* as given: files and directories */
    cli_list files;             /* operands with directories expanded */
    cli_list select;
    cli_list allow;
    bool select_given;
    bool deny_warnings;
    bool expand;
    lint_color color;
    lint_format format;
    int jobs;
    cli_shard shard;            /* --shard K/N */
} lint_args;

static int parse_args(int argc, char **argv, lint_args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = cli_option_value(argc, argv, &i, "--format", NULL))) {
            if (!strcmp(v, "text"))
                a->format = FORMAT_TEXT;
            else if (!strcmp(v, "json"))
                a->format = FORMAT_JSON;
            else if (!strcmp(v, "markdown"))
                a->format = FORMAT_MARKDOWN;
            else if (!strcmp(v, "sarif"))
                a->format = FORMAT_SARIF;
            else if (!strcmp(v, "junit"))
                a->format = FORMAT_JUNIT;
            else
                return cli_operator_error("--format: unknown format '%s' (expected text, json, "
                                          "markdown, sarif or junit)", v);
        } else if ((v = cli_option_value(argc, argv, &i, "--select", NULL))) {
            a->select_given = true;
            if (cli_list_add_csv(&a->select, v))
                return cli_operator_error("out of memory");
        } else if ((v = cli_option_value(argc, argv, &i, "--allow", NULL))) {
            if (cli_list_add_csv(&a->allow, v))
                return cli_operator_error("out of memory");
        } else if ((v = cli_option_value(argc, argv, &i, "--jobs", NULL))) {
            if (cli_parse_jobs(v, &a->jobs))
                return EXIT_OPERATOR;
        } else if ((v = cli_option_value(argc, argv, &i, "--shard", NULL))) {
            if (cli_shard_parse(v, &a->shard))
                return EXIT_OPERATOR;
        } else if ((v = cli_option_value(argc, argv, &i, "--color", NULL))) {
            if (!strcmp(v, "auto"))
                a->color = COLOR_AUTO;
            else if (!strcmp(v, "always"))
                a->color = COLOR_ALWAYS;
            else if (!strcmp(v, "never"))
                a->color = COLOR_NEVER;
            else
                return cli_operator_error("--color: unknown value '%s' (expected auto, always or never)", v);
        } else if (!strcmp(argv[i], "--deny-warnings")) {
            a->deny_warnings = true;
        } else if (!strcmp(argv[i], "--expand")) {
            a->expand = true;
        } else if (!strcmp(argv[i], "--format") || !strcmp(argv[i], "--select") ||
                   !strcmp(argv[i], "--allow") || !strcmp(argv[i], "--jobs") ||
                   !strcmp(argv[i], "--color") || !strcmp(argv[i], "--shard")) {
            return cli_operator_error("%s requires a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_operator_error("lint: unknown option '%s'", argv[i]);
        } else if (!argv[i][0]) {
            return cli_operator_error("lint: empty file argument");
        } else if (cli_list_add(&a->operands, argv[i])) {
            return cli_operator_error("out of memory");
        }
    }
    return 0;
}

/* An unknown --select or --allow id is named with the whole catalog: an
 * --allow typo would otherwise silently let the findings fail the run. */
static int check_ids(const cli_list *ids, const char *flag)
{
    for (size_t i = 0; i < ids->count; i++) {
        if (anim_check_find(ids->items[i]))
            continue;
        anim_strbuf known = ANIM_STRBUF_INIT;
        for (size_t c = 0; c < anim_check_count(); c++) {
            if (c)
                anim_strbuf_puts(&known, ", ");
            anim_strbuf_puts(&known, anim_check_at(c)->id);
        }
        int rc = cli_operator_error("%s: unknown check '%s' (known: %s)", flag, ids->items[i],
                                    known.data ? known.data : "");
        anim_strbuf_free(&known);
        return rc;
    }
    return 0;
}

/* --color auto: colour only on a terminal, and never when NO_COLOR is set
 * to anything non-empty (no-color.org). */
static bool use_color(lint_color color)
{
    if (color != COLOR_AUTO)
        return color == COLOR_ALWAYS;
    const char *no_color = getenv("NO_COLOR");
    return isatty(STDOUT_FILENO) && !(no_color && no_color[0]);
}

/* Per-file outcome, filled by a worker. */
typedef struct {
    /* The findings, for text and Markdown, rendered once every file is
     * done. JSON renders each file in its worker and keeps only the
     * summary counts, so a run's memory does not grow with the library. */
    anim_lint_file result;
    anim_lint_json_summary summary; /* JSON format only */
    anim_strbuf json;           /* the file's JSON record (JSON format only) */
    bool fails;                 /* a shown finding reaches the fail level */
    bool ok;
    char *error;                /* operator error message when !ok */
} lint_slot;

typedef struct {
    const lint_args *args;
    const anim_config *cfg;
    anim_lint_options opts;
    lint_slot *slots;
    anim_contract_usage *usages; /* per file: contract names it lacks */
    cli_spool *spool;            /* where finished JSON records go (NULL: memory) */
} lint_job;

static void set_slot_error(lint_slot *slot, const char *path, const char *msg)
{
    slot->error = cli_file_error(path, msg);
}

/* JSON lint of one file: measurements are taken clip by clip inside the
 * lint run, on the grid its checks just used (nothing sampled twice, one
 * grid alive per clip worker), and the file's record is rendered as soon
 * as the run ends, so the asset can be released before the next file is
 * loaded. Each clip worker of a parallel clip pass measures through a
 * collector of its own (its arena and scratch), all filling the same
 * rows. */
typedef struct {
    lint_slot *slot;
    anim_arena *arena;          /* the measurements */
    anim_measurements m;
    anim_measure_collector mc;  /* clip worker 0's, completed at the end */
    anim_measure_collector *forks; /* clip workers 1.. */
    anim_arena **fork_arenas;
    uint32_t fork_count;
    bool error_names_file;      /* the renderer's error already starts with the path */
} json_measure;

/* Collectors for clip workers 1..workers-1. Returns 0, or -1 with err
 * set. */
static int json_measure_fork(json_measure *jm, uint32_t workers, anim_error *err)
{
    if (workers < 2)
        return 0;
    jm->forks = calloc(workers - 1, sizeof *jm->forks);
    jm->fork_arenas = calloc(workers - 1, sizeof *jm->fork_arenas);
    if (!jm->forks || !jm->fork_arenas)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t w = 0; w + 1 < workers; w++) {
        jm->fork_arenas[w] = anim_arena_new();
        if (!jm->fork_arenas[w])
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        jm->fork_count++;
        if (anim_measure_fork(&jm->mc, jm->fork_arenas[w], &jm->forks[w], err))
            return -1;
    }
    return 0;
}

static void json_measure_free(json_measure *jm)
{
    for (uint32_t w = 0; w < jm->fork_count; w++)
        anim_arena_free(jm->fork_arenas[w]);
    free(jm->fork_arenas);
    free(jm->forks);
    anim_arena_free(jm->arena);
}

static int measure_clip_done(anim_lint_context *ctx, uint32_t clip, void *user, anim_error *err)
{
    json_measure *jm = user;
    anim_measure_collector *mc = ctx->worker == 0 ? &jm->mc : &jm->forks[ctx->worker - 1];
    if (!anim_measure_wants_clip(mc, clip))
        return 0;
    /* The loop, endpoint, foot-cycle and speed facts the checks already
     * derived for this clip (same grid, rig and contract) are reused. */
    anim_loop_continuity lc;
    anim_loop_endpoint le;
    anim_foot_cycle fc;
    anim_root_speed speed;
    if (anim_lint_loop_continuity(ctx, clip, &lc, err) ||
        anim_lint_loop_endpoint(ctx, clip, &le, err))
        return -1;
    anim_lint_foot_cycle(ctx, clip, anim_foot_cycle_min_stride(ctx->config), &fc);
    anim_lint_root_speed(ctx, clip, &speed);
    anim_measure_clip_facts facts = {&lc, &le, &fc, &speed};
    return anim_measure_clip_with(mc, clip, ctx->rig, ctx->config, anim_lint_grid(ctx, clip),
                                  &facts, err);
}

static int measure_finish_render(anim_lint_context *ctx, void *user, anim_error *err)
{
    json_measure *jm = user;
    if (anim_measure_end(&jm->mc, ctx->asset, err))
        return -1;
    /* The record is complete: every check has run. */
    anim_lint_file view = jm->slot->result;
    view.rig = *ctx->rig;
    anim_lint_json_input in = {&view, ctx->doc, &jm->m};
    int rc = anim_render_lint_json_file(&in, &jm->slot->json, err);
    jm->error_names_file = rc != 0;
    return rc;
}

/* Clip workers for file i. With fewer files than jobs the spare jobs go to
 * the files' clip passes (jobs / files each, the first jobs % files files
 * one more), so the run keeps exactly `jobs` threads busy; otherwise the
 * files alone fill the jobs. A file with fewer clips uses fewer. */
static uint32_t clip_workers(const lint_job *job, size_t i, uint32_t clip_count)
{
    size_t files = job->args->files.count;
    size_t jobs = job->args->jobs < 1 ? 1 : (size_t)job->args->jobs;
    size_t n = files >= jobs ? 1 : jobs / files + (i < jobs % files ? 1 : 0);
    return n < clip_count ? (uint32_t)n : clip_count ? clip_count : 1;
}

/* Exit 1 iff a finding not hidden by --allow reaches the fail level, or
 * any prediction facet is required-unavailable: prediction work that could
 * not be done blocks whatever --allow says. */
static bool file_fails(const anim_lint_file *file, const lint_args *a)
{
    anim_severity fail_at = a->deny_warnings ? ANIM_SEVERITY_WARNING : ANIM_SEVERITY_ERROR;
    for (size_t r = 0; r < file->record_count; r++) {
        const anim_check_record *rec = &file->records[r];
        uint32_t available = 0, unavailable = 0;
        anim_check_facet_counts(rec, &available, &unavailable);
        if (unavailable)
            return true;
        if (cli_list_contains(&a->allow, rec->check_id))
            continue;
        for (uint32_t k = 0; k < rec->finding_count; k++)
            if (rec->findings[k].severity >= fail_at)
                return true;
    }
    return false;
}

/* Loads, lints and (for JSON) measures and renders one file. Runs on a
 * worker thread: it touches only its own slot (its clip workers, only
 * their own clips' state). */
static void lint_one(size_t i, void *arg)
{
    lint_job *job = arg;
    lint_slot *slot = &job->slots[i];
    const char *path = job->args->files.items[i];
    anim_error err;
    anim_error_clear(&err);
    anim_asset *asset = cli_load_asset(path, job->cfg, &err);
    if (!asset) {
        set_slot_error(slot, NULL, err.message); /* the loader names the file */
        return;
    }
    if (anim_contract_usage_collect(job->cfg, &asset->doc, path, &job->usages[i], &err)) {
        set_slot_error(slot, path, err.message);
        anim_asset_free(asset);
        return;
    }
    anim_lint_options opts = job->opts;
    anim_lint_parallel par = {clip_workers(job, i, asset->doc.clip_count), cli_run_workers};
    json_measure jm;
    memset(&jm, 0, sizeof jm);
    int rc = 0;
    if (job->args->format == FORMAT_JSON) {
        jm.slot = slot;
        jm.arena = anim_arena_new();
        if (!jm.arena)
            rc = anim_error_set(&err, ANIM_ERR_NOMEM, "out of memory");
        else
            rc = anim_measure_begin(&asset->doc, jm.arena, &jm.mc, &jm.m, &err);
        if (rc == 0)
            rc = json_measure_fork(&jm, par.workers, &err);
        opts.clip_done = measure_clip_done;
        opts.finish = measure_finish_render;
        opts.user = &jm;
    }
    if (rc == 0)
        rc = anim_lint_run_parallel(asset, job->cfg, &opts, &par, &slot->result, &err);
    if (rc)
        set_slot_error(slot, jm.error_names_file ? NULL : path, err.message);
    else
        slot->ok = true;
    json_measure_free(&jm);
    anim_asset_free(asset);
    if (!slot->ok)
        return;
    slot->fails = file_fails(&slot->result, job->args);
    if (job->args->format == FORMAT_JSON) {
        anim_lint_json_summary_add(&slot->summary, &slot->result);
        anim_lint_file_free(&slot->result);
        cli_spool_put(job->spool, i, &slot->json);
    }
}


/* Renders and prints every file, in argument order (all of them linted).
 * JSON file records are written where they stand, never copied into one
 * buffer. */
static int render(const lint_args *a, const lint_slot *slots, const cli_spool *spool,
                  bool *fails)
{
    size_t n = a->files.count;
    /* A shard may hold no file: its report is still printed. */
    size_t cap = n ? n : 1;
    anim_lint_file *files = calloc(cap, sizeof *files);
    anim_strbuf *fragments = calloc(cap, sizeof *fragments);
    size_t *splice_at = calloc(cap, sizeof *splice_at);
    anim_strbuf text = ANIM_STRBUF_INIT, *out = &text;
    anim_lint_json_summary summary;
    memset(&summary, 0, sizeof summary);
    size_t spliced = 0;
    int rc = 0;
    if (!files || !fragments || !splice_at)
        rc = cli_operator_error("out of memory");
    *fails = false;
    for (size_t f = 0; rc == 0 && f < n; f++) {
        files[f] = slots[f].result;
        fragments[f] = slots[f].json; /* borrowed, freed with the slot */
        anim_lint_json_summary_merge(&summary, &slots[f].summary);
        *fails = *fails || slots[f].fails;
    }
    anim_lint_render_options ro;
    memset(&ro, 0, sizeof ro);
    ro.allow = (const char *const *)a->allow.items;
    ro.allow_count = a->allow.count;
    ro.expand = a->expand;
    ro.color = a->format == FORMAT_TEXT && use_color(a->color);
    cli_tool_info(&ro.tool);
    if (rc == 0 && a->format == FORMAT_JSON) {
        anim_error err;
        anim_error_clear(&err);
        if (anim_render_lint_json_envelope(&summary, fragments, n, &ro.tool, out, splice_at, &err))
            rc = cli_operator_error("%s", err.message);
        spliced = n;
    } else if (rc == 0 && (a->format == FORMAT_SARIF || a->format == FORMAT_JUNIT)) {
        /* From the results kept in memory, like text and Markdown. */
        anim_error err;
        anim_error_clear(&err);
        if (a->format == FORMAT_SARIF ? anim_render_lint_sarif(files, n, &ro, out, &err)
                                      : anim_render_lint_junit(files, n, a->deny_warnings, out,
                                                               &err))
            rc = cli_operator_error("%s", err.message);
    } else if (rc == 0 && a->format == FORMAT_MARKDOWN) {
        anim_render_lint_markdown(files, n, &ro, out);
    } else if (rc == 0) {
        anim_render_lint_text(files, n, &ro, out);
    }
    if (rc == 0 && cli_deliver_spliced(out, fragments, splice_at, spliced, spool))
        rc = EXIT_OPERATOR;
    anim_strbuf_free(&text);
    free(files);
    free(fragments);
    free(splice_at);
    return rc;
}

static void free_slots(lint_slot *slots, size_t n)
{
    for (size_t f = 0; slots && f < n; f++) {
        anim_lint_file_free(&slots[f].result);
        anim_strbuf_free(&slots[f].json);
        free(slots[f].error);
    }
    free(slots);
}

int cmd_lint(int argc, char **argv, const cli_globals *globals)
{
    lint_args a;
    memset(&a, 0, sizeof a);
    a.jobs = cli_default_jobs();
    int rc = parse_args(argc, argv, &a);
    /* Machine evidence (JSON, SARIF, JUnit) keeps every finding. */
    if (!rc && a.allow.count &&
        (a.format == FORMAT_JSON || a.format == FORMAT_SARIF || a.format == FORMAT_JUNIT))
        rc = cli_operator_error("--allow is not supported with --format %s; machine-readable "
                                "results retain every content finding",
                                a.format == FORMAT_JSON    ? "json"
                                : a.format == FORMAT_SARIF ? "sarif"
                                                           : "junit");
    if (!rc)
        rc = check_ids(&a.select, "--select");
    if (!rc)
        rc = check_ids(&a.allow, "--allow");
    if (!rc && a.operands.count == 0)
        rc = cli_operator_error("lint: no input files (usage: animsmith lint <file...>)");
    if (!rc)
        rc = cli_expand_inputs(&a.operands, &a.files);
    if (!rc)
        rc = cli_shard_apply(&a.shard, &a.files);
    anim_config *cfg = NULL;
    if (!rc)
        cfg = cli_config(globals, &rc);
    lint_slot *slots = NULL;
    anim_contract_usage *usages = NULL;
    if (!rc) {
        slots = calloc(a.files.count ? a.files.count : 1, sizeof *slots);
        usages = calloc(a.files.count ? a.files.count : 1, sizeof *usages);
        if (!slots || !usages)
            rc = cli_operator_error("out of memory");
    }
    if (!rc) {
        lint_job job = {&a, cfg, {NULL, 0, NULL, NULL, NULL}, slots, usages,
                        a.format == FORMAT_JSON ? cli_spool_open(a.files.count) : NULL};
        if (a.select_given) {
            job.opts.select = (const char *const *)a.select.items;
            job.opts.select_count = a.select.count;
        }
        cli_run_jobs(a.files.count, a.jobs, lint_one, &job, "linting");
        cli_warn_contract(cfg, &a.files, usages);
        /* Nothing has been written yet: every file is linted before any
         * output. An operator failure on any file leaves stdout empty -- a
         * report that silently drops a file would read as a clean run of
         * fewer files -- and every failing file is named, in argument
         * order, so one rerun can fix them all. */
        bool any_failed = false;
        for (size_t f = 0; f < a.files.count; f++)
            if (!slots[f].ok) {
                any_failed = true;
                cli_operator_error("%s", slots[f].error ? slots[f].error : "out of memory");
            }
        bool fails = false;
        if (!any_failed && render(&a, slots, job.spool, &fails))
            any_failed = true;
        cli_spool_close(job.spool);
        rc = any_failed ? EXIT_OPERATOR : fails ? EXIT_FINDINGS : EXIT_CLEAN;
    }
    free_slots(slots, a.files.count);
    cli_free_usages(usages, a.files.count);
    anim_config_free(cfg);
    cli_list_free(&a.operands);
    cli_list_free(&a.files);
    cli_list_free(&a.select);
    cli_list_free(&a.allow);
    return rc;
}
