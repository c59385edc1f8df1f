/* animsmith diff BEFORE AFTER [--format text|json]: which clip
 * measurements moved between two revisions. Each side is an asset,
 * measured now with the current config and roles, or a `.json`
 * measure/lint report of ours (current or a historical version diff
 * reads: docs/diff.md). Exit 0 when nothing moved beyond the significance
 * floors, 1 when something did, 2 for an unreadable, malformed or
 * mismatched input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/diff.h"
#include "animsmith/gltf.h"
#include "animsmith/measure.h"
#include "animsmith/path.h"
#include "animsmith/report.h"
#include "animsmith/rig.h"
#include "animsmith/strbuf.h"
#include "args.h"
#include "cli.h"

typedef struct {
    const char *paths[2];
    int path_count;
    bool json;
} diff_args;

static int parse_args(int argc, char **argv, diff_args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = cli_option_value(argc, argv, &i, "--format", NULL))) {
            if (cli_text_or_json(v, &a->json))
                return EXIT_OPERATOR;
        } else if (!strcmp(argv[i], "--format")) {
            return cli_operator_error("%s requires a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_operator_error("diff: unknown option '%s'", argv[i]);
        } else if (!argv[i][0]) {
            return cli_operator_error("diff: empty file argument");
        } else if (a->path_count == 2) {
            return cli_operator_error("diff: expected exactly two inputs (usage: animsmith diff "
                                      "<before> <after>)");
        } else {
            a->paths[a->path_count++] = argv[i];
        }
    }
    if (a->path_count != 2)
        return cli_operator_error("diff: expected exactly two inputs (usage: animsmith diff "
                                  "<before> <after>)");
    return 0;
}

typedef struct {
    const char *config_path;
    anim_config *cfg;
    bool cfg_loaded;
} config_cache;

/* An asset measured now, with the current config and roles, as the same
 * measurements tree a report of it would hold. */
static const anim_json_value *measure_asset(const char *path, config_cache *cc,
                                            anim_arena *arena, int *rc)
{
    anim_error err;
    anim_error_clear(&err);
    if (!cc->cfg_loaded) {
        cc->cfg = anim_config_resolve(cc->config_path, &err);
        if (!cc->cfg) {
            *rc = cli_operator_error("%s", err.message);
            return NULL;
        }
        cc->cfg_loaded = true;
    }
    anim_asset *asset = cli_load_asset(path, cc->cfg, &err);
    if (!asset) {
        *rc = cli_operator_error("%s", err.message);
        return NULL;
    }
    const anim_json_value *tree = NULL;
    anim_rig_config rig_cfg = anim_config_rig(cc->cfg);
    anim_rig_resolution rig;
    anim_measurements m;
    if (anim_rig_resolve(&asset->doc, &rig_cfg, &rig, &err) ||
        anim_measure_asset_document(asset, &rig, cc->cfg, arena, &m, &err) ||
        !(tree = anim_diff_measurements_tree(&m, arena, &err)))
        *rc = cli_operator_error("%s: %s", path, err.message);
    anim_asset_free(asset);
    return tree;
}

/* A side's measurements, and its findings when it is a lint report (an
 * asset is measured, not linted, so it has none). */
static const anim_json_value *load_side(const char *path, config_cache *cc, anim_arena *arena,
                                        anim_diff_findings *findings, int *rc)
{
    memset(findings, 0, sizeof *findings);
    findings->source = ANIM_DIFF_SOURCE_ASSET;
    if (!anim_path_has_extension(path, ".json"))
        return measure_asset(path, cc, arena, rc);
    size_t len = 0;
    char *text = cli_read_report(path, ANIM_DIFF_REPORT_MAX_BYTES, NULL, arena, &len);
    if (!text) {
        *rc = EXIT_OPERATOR;
        return NULL;
    }
    anim_error err;
    anim_error_clear(&err);
    const anim_json_value *root = NULL;
    const anim_json_value *m = anim_diff_read_report_root(path, text, len, arena, &root, &err);
    if (!m || anim_diff_report_findings(path, root, arena, findings, &err)) {
        *rc = cli_operator_error("%s", err.message);
        return NULL;
    }
    return m;
}

int cmd_diff(int argc, char **argv, const cli_globals *globals)
{
    diff_args a;
    memset(&a, 0, sizeof a);
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc;
    anim_arena *arena = anim_arena_new();
    if (!arena)
        return cli_operator_error("out of memory");
    config_cache cc = {globals->config_path, NULL, false};
    const anim_json_value *sides[2] = {NULL, NULL};
    anim_diff_findings findings[2];
    for (int s = 0; s < 2 && !rc; s++)
        sides[s] = load_side(a.paths[s], &cc, arena, &findings[s], &rc);
    anim_diff_result result = {NULL, 0};
    anim_diff_findings_result fresult;
    memset(&fresult, 0, sizeof fresult);
    anim_error err;
    anim_error_clear(&err);
    if (!rc && (anim_diff_compare(sides[0], sides[1], arena, &result, &err) ||
                anim_diff_compare_findings(&findings[0], &findings[1], arena, &fresult, &err)))
        rc = cli_operator_error("%s", err.message);
    if (!rc) {
        anim_strbuf out = ANIM_STRBUF_INIT;
        if (a.json) {
            anim_tool_info tool;
            cli_tool_info(&tool);
            if (anim_render_diff_json_findings(&result, &fresult, a.paths[0], a.paths[1], &tool,
                                               &out, &err))
                rc = cli_operator_error("%s", err.message);
        } else {
            anim_render_diff_text_findings(&result, &fresult, &out);
        }
        if (!rc) {
            cli_deliver(&out);
            rc = result.count || fresult.count ? EXIT_FINDINGS : EXIT_CLEAN;
        }
        anim_strbuf_free(&out);
    }
    anim_config_free(cc.cfg);
    anim_arena_free(arena);
    return rc;
}
