/* animsmith generate import-advice FILE [--format json|text|markdown]:
 * the engine import-advice document of one input under the contract's
 * exact [engine] profile (docs/import-advice.md). Exit 0 when the advice
 * is available, 1 for a typed refusal (a document is still printed), 2
 * for a contract, profile, format or input error (nothing is printed).
 *
 * The profile is checked before the input is read: a contract that
 * cannot yield advice fails the same way whatever the file holds. */
#include <stdio.h>
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/engine.h"
#include "animsmith/gltf.h"
#include "animsmith/hash.h"
#include "animsmith/measure.h"
#include "animsmith/rig.h"
#include "args.h"
#include "cli.h"
#include "../generate/import_advice.h" /* src/ is not on the CLI include path */

typedef enum { ADVICE_JSON, ADVICE_TEXT, ADVICE_MARKDOWN } advice_format;

typedef struct {
    const char *file;
    advice_format format;
} advice_args;

static int parse_args(int argc, char **argv, advice_args *a)
{
    for (int i = 1; i < argc; i++) {
        bool missing = false;
        const char *v = cli_option_value(argc, argv, &i, "--format", &missing);
        if (v) {
            if (!strcmp(v, "json"))
                a->format = ADVICE_JSON;
            else if (!strcmp(v, "text"))
                a->format = ADVICE_TEXT;
            else if (!strcmp(v, "markdown"))
                a->format = ADVICE_MARKDOWN;
            else
                return cli_operator_error(
                    "--format: unknown format '%s' (expected json, text or markdown)", v);
        } else if (missing) {
            return cli_operator_error("--format requires a value");
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_operator_error("generate import-advice: unknown option '%s'", argv[i]);
        } else if (!argv[i][0]) {
            return cli_operator_error("generate import-advice: empty file argument");
        } else if (a->file) {
            return cli_operator_error("generate import-advice: one input file only (got '%s' "
                                      "and '%s')",
                                      a->file, argv[i]);
        } else {
            a->file = argv[i];
        }
    }
    if (!a->file)
        return cli_operator_error("generate import-advice: no input file (usage: animsmith "
                                  "--config <FILE> generate import-advice <file>)");
    return 0;
}

/* The selected profile has an advice projection; otherwise prints why
 * (naming the contract and the profile) and returns 2. */
static int check_profile(const anim_config *cfg)
{
    const anim_engine_profile *p = cfg->engine.present ? cfg->engine.def : NULL;
    if (!p) {
        if (cfg->path)
            return cli_operator_error("generate import-advice needs an [engine] profile: %s "
                                      "selects none",
                                      cfg->path);
        return cli_operator_error("generate import-advice needs an [engine] profile: no "
                                  "contract was found (pass --config FILE)");
    }
    const char *why = NULL;
    if (anim_advice_route_of(p, &why) == ANIM_ADVICE_ROUTE_NONE)
        return cli_operator_error("%s: [engine] profile %s revision %u %s",
                                  cfg->path ? cfg->path : "animsmith.toml", p->profile,
                                  p->revision, why);
    return 0;
}

/* The clip measurements the Unity clip rows carry: clips only, on the
 * contract's rig (the static asset evidence is not part of the advice). */
static int measure_clips(const anim_config *cfg, const anim_asset *asset, anim_arena *arena,
                         anim_measurements *m, anim_error *err)
{
    anim_rig_config rig_cfg = anim_config_rig(cfg);
    anim_rig_resolution *rig = anim_arena_calloc(arena, 1, sizeof *rig);
    if (!rig)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    if (anim_rig_resolve(&asset->doc, &rig_cfg, rig, err) ||
        anim_measure_document(&asset->doc, rig, cfg, arena, m, err)) {
        anim_error_prefix(err, "%s", asset->source.path);
        return -1;
    }
    return 0;
}

static int render(const anim_import_advice *advice, const anim_asset *asset,
                  advice_format format, anim_strbuf *out, anim_error *err)
{
    char sha256[65];
    anim_sha256_hex(asset->source.input_bytes, asset->source.input_byte_count, sha256);
    anim_advice_input in = {asset->source.path, sha256, asset->source.input_byte_count};
    if (format == ADVICE_TEXT)
        return anim_import_advice_write_text(advice, &in, out, err);
    if (format == ADVICE_MARKDOWN)
        return anim_import_advice_write_markdown(advice, &in, out, err);
    anim_tool_info tool;
    cli_tool_info(&tool);
    return anim_import_advice_write_json(advice, &in, &tool, out, err);
}

static int advise(const anim_config *cfg, const anim_asset *asset, advice_format format,
                  anim_arena *arena)
{
    anim_error err;
    anim_error_clear(&err);
    anim_engine_run *run = NULL;
    if (anim_engine_prepare(cfg, asset, arena, &run, &err))
        return cli_operator_error("%s", err.message);
    if (!run)
        return cli_operator_error("generate import-advice needs an [engine] profile");
    anim_measurements m;
    memset(&m, 0, sizeof m);
    const anim_measurements *measured = NULL;
    if (anim_advice_route_of(anim_engine_run_profile(run), NULL) == ANIM_ADVICE_ROUTE_UNITY_V1) {
        if (measure_clips(cfg, asset, arena, &m, &err))
            return cli_operator_error("%s", err.message);
        measured = &m;
    }
    anim_import_advice advice;
    if (anim_import_advice_build(cfg, asset, run, measured, arena, &advice, &err))
        return cli_operator_error("%s", err.message);
    anim_strbuf out = ANIM_STRBUF_INIT;
    int rc = render(&advice, asset, format, &out, &err);
    if (rc == 0)
        cli_deliver(&out);
    else
        rc = cli_operator_error("%s: %s", asset->source.path, err.message);
    anim_strbuf_free(&out);
    if (rc)
        return EXIT_OPERATOR;
    return advice.state == ANIM_ADVICE_AVAILABLE ? EXIT_CLEAN : EXIT_FINDINGS;
}

int cmd_generate_import_advice(int argc, char **argv, const cli_globals *globals)
{
    advice_args a = {NULL, ADVICE_JSON};
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc;
    anim_config *cfg = cli_config(globals, &rc);
    if (!cfg)
        return rc;
    if ((rc = check_profile(cfg)) != 0) {
        anim_config_free(cfg);
        return rc;
    }
    anim_error err;
    anim_error_clear(&err);
    anim_asset *asset = cli_load_asset(a.file, cfg, &err);
    anim_arena *arena = asset ? anim_arena_new() : NULL;
    if (!asset)
        rc = cli_operator_error("%s", err.message); /* the loader names the file */
    else if (!arena)
        rc = cli_operator_error("out of memory");
    else
        rc = advise(cfg, asset, a.format, arena);
    anim_arena_free(arena);
    anim_asset_free(asset);
    anim_config_free(cfg);
    return rc;
}
