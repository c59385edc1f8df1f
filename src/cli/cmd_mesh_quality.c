/* animsmith mesh-quality residual|envelope: the skinning-envelope residual
 * of a reduced skinned mesh, from a flat (2-D) JSON request or from a
 * source glTF and a candidate glTF, and the envelope helper. The
 * measurement is the library's (meshq.h); this file reads the arguments,
 * chooses the form by its operands and turns the outcome into the exit
 * code: 0 when every row is measured and passes (or declares no bound),
 * 1 when a row fails, is refused or is not measurable, 2 for an operator
 * error. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/meshq.h"
#include "animsmith/path.h"
#include "args.h"
#include "cli.h"

/* A request or range file is read whole; this bounds it. */
#define MQ_REQUEST_MAX_BYTES ((size_t)256 << 20)

typedef struct mq_args {
    const char *action;
    const char *operands[2];
    int operand_count;
    bool json;
    const char *mesh, *envelope, *max_residual, *uv_grid;
    bool from_clips;
} mq_args;

static int parse_value(mq_args *a, size_t which, const char *v)
{
    switch (which) {
    case 0: return cli_set_once("mesh-quality", "--mesh", "a mesh name", &a->mesh, v);
    case 1: return cli_set_once("mesh-quality", "--envelope", "a path", &a->envelope, v);
    case 2: return cli_set_once("mesh-quality", "--max-residual", "a number", &a->max_residual, v);
    case 3: return cli_set_once("mesh-quality", "--uv-grid", "a number", &a->uv_grid, v);
    default: return cli_text_or_json(v, &a->json) ? EXIT_OPERATOR : 0;
    }
}

static int parse_args(int argc, char **argv, mq_args *a)
{
    static const char *const valued[] = {"--mesh", "--envelope", "--max-residual", "--uv-grid",
                                         "--format"};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        size_t k;
        const char *v;
        int got = cli_option_values(argc, argv, &i, valued, sizeof valued / sizeof *valued, &k, &v);
        if (got < 0)
            return cli_operator_error("mesh-quality: %s requires a value", valued[k]);
        if (got > 0) {
            if (parse_value(a, k, v))
                return EXIT_OPERATOR;
        } else if (!strcmp(arg, "--envelope-from-clips")) {
            a->from_clips = true;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return cli_operator_error("mesh-quality: unknown option '%s'", arg);
        } else if (!a->action) {
            a->action = arg;
        } else if (a->operand_count < 2) {
            a->operands[a->operand_count++] = arg;
        } else {
            return cli_operator_error("mesh-quality %s: too many operands (got '%s')", a->action,
                                      arg);
        }
    }
    if (!a->action)
        return cli_operator_error("mesh-quality: missing action (usage: animsmith mesh-quality "
                                  "residual|envelope ...)");
    if (strcmp(a->action, "residual") && strcmp(a->action, "envelope"))
        return cli_operator_error("mesh-quality: unknown action '%s' (expected residual or "
                                  "envelope)", a->action);
    bool gltf_form = !strcmp(a->action, "residual") && a->operand_count == 2;
    if (a->operand_count == 0 || (a->operand_count == 2 && !gltf_form))
        return cli_operator_error("mesh-quality %s: expected %s", a->action,
                                  !strcmp(a->action, "residual")
                                      ? "<request.json>, or <source.glb> <candidate.glb>"
                                      : "one <ranges.json>");
    if (!gltf_form && (a->mesh || a->envelope || a->from_clips || a->max_residual || a->uv_grid))
        return cli_operator_error("mesh-quality %s: --mesh, --envelope, --envelope-from-clips, "
                                  "--max-residual and --uv-grid apply to the glTF form "
                                  "(<source.glb> <candidate.glb>)", a->action);
    if (gltf_form && !!a->envelope == a->from_clips)
        return cli_operator_error("mesh-quality residual: give exactly one of --envelope "
                                  "ENVELOPE.toml and --envelope-from-clips");
    return 0;
}

static int read_request(const char *path, anim_arena *arena, char **text, size_t *len)
{
    *text = cli_read_report(path, MQ_REQUEST_MAX_BYTES, NULL, arena, len);
    return *text ? 0 : EXIT_OPERATOR;
}

static int exit_of(const anim_mq_outcome *o)
{
    return o->failed || o->refused || o->not_measurable ? EXIT_FINDINGS : EXIT_CLEAN;
}

static int run_flat(const mq_args *a)
{
    anim_arena *arena = anim_arena_new();
    char *text;
    size_t len;
    if (!arena)
        return cli_operator_error("out of memory");
    if (read_request(a->operands[0], arena, &text, &len)) {
        anim_arena_free(arena);
        return EXIT_OPERATOR;
    }
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_error err;
    anim_error_clear(&err);
    anim_mq_outcome outcome;
    int rc;
    if (!strcmp(a->action, "envelope")) {
        rc = anim_mq_flat_envelope(text, len, a->operands[0], a->json, ANIM_MQ_ENVELOPE_PLANT_NONE,
                                   &out, &err);
        if (rc)
            /* A helper refusal is an answer about the ranges, not a mistake
             * in the command: exit 1; a malformed file is exit 2. */
            rc = err.code == ANIM_ERR_UNSUPPORTED ? (cli_operator_error("%s", err.message), 1)
                                                  : cli_operator_error("%s", err.message);
    } else {
        rc = anim_mq_flat_residual(text, len, a->operands[0], a->json, ANIM_MQ_PLANT_NONE, &out,
                                   &outcome, &err);
        rc = rc ? cli_operator_error("%s", err.message) : exit_of(&outcome);
    }
    if (rc != EXIT_OPERATOR && out.len)
        cli_deliver(&out);
    anim_strbuf_free(&out);
    anim_arena_free(arena);
    return rc;
}

static int parse_number(const char *flag, const char *v, double lo, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || end == v || *end || !isfinite(x) || x < lo)
        return cli_operator_error("mesh-quality residual: %s '%s' is not a finite number of %g or "
                                  "more", flag, v, lo);
    *out = x;
    return 0;
}

static int run_gltf(const mq_args *a, const cli_globals *globals)
{
    anim_mq_gltf_options opt;
    memset(&opt, 0, sizeof opt);
    opt.mesh = a->mesh;
    opt.envelope_path = a->envelope;
    opt.envelope_from_clips = a->from_clips;
    opt.source_path = a->operands[0];
    opt.candidate_path = a->operands[1];
    if (a->max_residual) {
        if (parse_number("--max-residual", a->max_residual, 0, &opt.max_residual))
            return EXIT_OPERATOR;
        opt.has_max_residual = true;
    }
    if (a->uv_grid) {
        double n;
        if (parse_number("--uv-grid", a->uv_grid, 1, &n))
            return EXIT_OPERATOR;
        if (n != floor(n) || n > 16384)
            return cli_operator_error("mesh-quality residual: --uv-grid '%s' is not a whole "
                                      "number from 1 to 16384", a->uv_grid);
        opt.uv_grid = (uint32_t)n;
    }
    int rc = EXIT_CLEAN;
    anim_config *cfg = cli_config(globals, &rc);
    if (!cfg)
        return rc;
    anim_error err;
    anim_error_clear(&err);
    anim_asset *source = cli_load_asset(a->operands[0], cfg, &err);
    anim_asset *candidate = source ? cli_load_asset(a->operands[1], cfg, &err) : NULL;
    anim_arena *arena = anim_arena_new();
    anim_mq_gltf_result result;
    memset(&result, 0, sizeof result);
    if (!source || !candidate || !arena) {
        rc = cli_operator_error("%s", arena ? err.message : "out of memory");
    } else if (anim_mq_gltf_residual(source, candidate, &opt, arena, &result, &err)) {
        rc = cli_operator_error("%s", err.message);
    } else {
        anim_strbuf out = ANIM_STRBUF_INIT;
        anim_mq_outcome outcome;
        anim_mq_gltf_report(&opt, &result, a->json, &out, &outcome);
        if (out.failed) {
            rc = cli_operator_error("out of memory writing the report");
        } else {
            cli_deliver(&out);
            rc = exit_of(&outcome);
        }
        anim_strbuf_free(&out);
    }
    anim_arena_free(arena);
    anim_asset_free(candidate);
    anim_asset_free(source);
    anim_config_free(cfg);
    return rc;
}

int cmd_mesh_quality(int argc, char **argv, const cli_globals *globals)
{
    mq_args a;
    memset(&a, 0, sizeof a);
    if (parse_args(argc, argv, &a))
        return EXIT_OPERATOR;
    if (a.operand_count == 2)
        return run_gltf(&a, globals);
    return run_flat(&a);
}
