/* animsmith fix FILE (-o OUT | --in-place | --dry-run) [--repair ids]:
 * lossless byte-surgical quaternion repairs. The repairs
 * run in memory, the output is written (unless --dry-run), and only then
 * are the report lines printed, so a failed write prints no success. */
#include <string.h>
#include <strings.h>

#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/repair.h"
#include "animsmith/path.h"
#include "args.h"
#include "cli.h"

typedef struct fix_args {
    const char *path;
    const char *output;
    bool in_place;
    bool dry_run;
    anim_repair_id repairs[ANIM_REPAIR_COUNT];
    uint32_t repair_count;
} fix_args;


static int parse_args(int argc, char **argv, fix_args *a)
{
    bool repair_given = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        bool missing = false;
        const char *v;
        if ((v = cli_option_value(argc, argv, &i, "--output", &missing)) ||
            (v = cli_option_value(argc, argv, &i, "-o", &missing))) {
            if (cli_set_once("fix", "--output", "a path", &a->output, v))
                return EXIT_OPERATOR;
        } else if ((v = cli_option_value(argc, argv, &i, "--repair", &missing))) {
            anim_error err;
            anim_error_clear(&err);
            repair_given = true;
            if (anim_repair_parse_list(v, a->repairs, &a->repair_count, &err))
                return cli_operator_error("fix: %s", err.message);
        } else if (missing) {
            return cli_operator_error("fix: %s requires a value", arg);
        } else if (strcmp(arg, "--in-place") == 0) {
            a->in_place = true;
        } else if (strcmp(arg, "--dry-run") == 0) {
            a->dry_run = true;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return cli_operator_error("fix: unknown option '%s'", arg);
        } else if (a->path) {
            return cli_operator_error("fix takes exactly one file (got '%s' and '%s')", a->path,
                                      arg);
        } else {
            a->path = arg;
        }
    }
    if (!repair_given) {
        a->repairs[0] = ANIM_REPAIR_QUAT_NORM;
        a->repairs[1] = ANIM_REPAIR_QUAT_FLIP;
        a->repair_count = 2;
    }
    return 0;
}

static int check_args(const fix_args *a)
{
    if (a->dry_run && (a->output || a->in_place))
        return cli_operator_error("fix: --dry-run cannot be used with %s",
                                  a->output ? "--output" : "--in-place");
    if (a->in_place && a->output)
        return cli_operator_error("fix: --in-place cannot be used with --output");
    if (!a->path)
        return cli_operator_error("fix: missing <file> (usage: animsmith fix <file> (-o <out> | "
                                  "--in-place | --dry-run) [--repair quat-norm,quat-flip])");
    if (!a->output && !a->in_place && !a->dry_run)
        return cli_operator_error(
            "fix requires --output <PATH> or --in-place (use --dry-run to inspect only)");
    if (!anim_path_has_extension(a->path, ".glb") && !anim_path_has_extension(a->path, ".gltf"))
        return cli_operator_error("%s: fix operates on .glb/.gltf (convert FBX first)", a->path);
    return 0;
}

int cmd_fix(int argc, char **argv, const cli_globals *globals)
{
    fix_args a;
    memset(&a, 0, sizeof a);
    if (parse_args(argc, argv, &a) || check_args(&a))
        return EXIT_OPERATOR;
    /* The repairs are lossless and take nothing from the contract, but a
     * missing or malformed one is the same operator error as for every
     * other command, reported before anything is written. */
    int rc = EXIT_CLEAN;
    anim_config *cfg = cli_config(globals, &rc);
    if (!cfg)
        return rc;
    anim_error err;
    anim_error_clear(&err);
    anim_asset *asset = cli_load_asset(a.path, cfg, &err);
    anim_config_free(cfg);
    if (!asset)
        return cli_operator_error("%s", err.message);
    anim_fix *fix = anim_fix_apply(asset, a.repairs, a.repair_count, &err);
    const char *destination = a.dry_run ? NULL : a.in_place ? a.path : a.output;
    /* Checked even when nothing will be written, so --in-place on a file
     * it could never rewrite is refused whether or not it is clean. */
    if (!fix || (destination && (anim_fix_check_destination(fix, destination, a.in_place, &err) ||
                                 (anim_fix_writes(fix, a.in_place) &&
                                  anim_fix_write(fix, destination, a.in_place, &err))))) {
        rc = cli_operator_error("%s", err.message);
    } else {
        anim_strbuf out = ANIM_STRBUF_INIT;
        bool wrote = destination && anim_fix_writes(fix, a.in_place);
        anim_fix_format(fix, a.dry_run, wrote ? destination : NULL, &out);
        cli_deliver(&out);
        anim_strbuf_free(&out);
        /* --dry-run is the repair check mode: pending repairs fail it;
         * skipped tracks do not (gate on lint for detection). */
        if (a.dry_run && anim_fix_pending(fix))
            rc = EXIT_FINDINGS;
    }
    anim_fix_free(fix);
    anim_asset_free(asset);
    return rc;
}
