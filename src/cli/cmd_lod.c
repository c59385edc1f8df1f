/* animsmith lod SOURCE.glb -o OUT.glb --max-residual METRES: the smallest
 * LOD of each skinned mesh whose skinning-envelope residual under the
 * source's clips stays within the bound (lod.h), written only once its
 * own bytes are certified. --ratio R writes a plain simplification at R of
 * each primitive's index count instead and prints its residual.
 *
 * Exit 0 when written; 1 when a residual is refused, not measurable or
 * over the bound (nothing written); 2 for an operator error. On every
 * failure an existing OUT.glb is left untouched: the file is written
 * atomically, after the certificate. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/atomic_write.h"
#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/lod.h"
#include "args.h"
#include "cli.h"

typedef struct lod_args {
    const char *input, *output, *mesh, *max_residual, *ratio, *seams;
    bool json;
} lod_args;

static int parse_value(lod_args *a, size_t which, const char *v)
{
    switch (which) {
    case 0:
    case 1: return cli_set_once("lod", "--output", "a path", &a->output, v);
    case 2: return cli_set_once("lod", "--mesh", "a mesh name", &a->mesh, v);
    case 3: return cli_set_once("lod", "--max-residual", "a number", &a->max_residual, v);
    case 4: return cli_set_once("lod", "--ratio", "a number", &a->ratio, v);
    case 5: return cli_set_once("lod", "--seams", "lock or meshopt", &a->seams, v);
    default: return cli_text_or_json(v, &a->json) ? EXIT_OPERATOR : 0;
    }
}

static int parse_args(int argc, char **argv, lod_args *a)
{
    static const char *const valued[] = {"--output", "-o",      "--mesh",  "--max-residual",
                                         "--ratio",  "--seams", "--format"};
    for (int i = 1; i < argc; i++) {
        size_t k;
        const char *v;
        int got = cli_option_values(argc, argv, &i, valued, sizeof valued / sizeof *valued, &k, &v);
        if (got < 0)
            return cli_operator_error("lod: %s requires a value", valued[k]);
        if (got > 0) {
            if (parse_value(a, k, v))
                return EXIT_OPERATOR;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_operator_error("lod: unknown option '%s'", argv[i]);
        } else if (!a->input) {
            a->input = argv[i];
        } else {
            return cli_operator_error("lod: too many operands (got '%s')", argv[i]);
        }
    }
    if (!a->input)
        return cli_operator_error("lod: missing <source.glb>");
    if (!a->output)
        return cli_operator_error("lod: -o OUT.glb is required");
    if (anim_gltf_format_for_path(a->output) != ANIM_GLTF_FORMAT_GLB)
        return cli_operator_error("lod: the output '%s' must be a .glb (the certificate is of "
                                  "the one file written)", a->output);
    if (!a->max_residual && !a->ratio)
        return cli_operator_error("lod: --max-residual METRES is required (or --ratio R for a "
                                  "plain simplification)");
    if (a->seams && strcmp(a->seams, "lock") && strcmp(a->seams, "meshopt"))
        return cli_operator_error("lod: --seams '%s' is not lock or meshopt", a->seams);
    return 0;
}

static int parse_number(const char *flag, const char *v, double lo, double hi, bool open_lo,
                        double *out)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || end == v || *end || !isfinite(x) || x < lo || x > hi || (open_lo && x == lo))
        return cli_operator_error("lod: %s '%s' is not a number in %s%g, %g]", flag, v,
                                  open_lo ? "(" : "[", lo, hi);
    *out = x;
    return 0;
}

int cmd_lod(int argc, char **argv, const cli_globals *globals)
{
    lod_args a;
    memset(&a, 0, sizeof a);
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc;
    anim_lod_options o;
    memset(&o, 0, sizeof o);
    o.mesh = a.mesh;
    o.source_path = a.input;
    o.seams = a.seams && !strcmp(a.seams, "meshopt") ? ANIM_LOD_SEAMS_MESHOPT : ANIM_LOD_SEAMS_LOCK;
    if (a.max_residual) {
        if (parse_number("--max-residual", a.max_residual, 0, 1e6, false, &o.max_residual))
            return EXIT_OPERATOR;
        o.has_max_residual = true;
    }
    if (a.ratio) {
        if (parse_number("--ratio", a.ratio, 0, 1, true, &o.ratio))
            return EXIT_OPERATOR;
        o.has_ratio = true;
    }
    rc = EXIT_CLEAN;
    anim_config *cfg = cli_config(globals, &rc);
    if (!cfg)
        return rc;
    anim_error err;
    anim_error_clear(&err);
    anim_asset *source = cli_load_asset(a.input, cfg, &err);
    anim_arena *arena = anim_arena_new();
    anim_lod_result result;
    memset(&result, 0, sizeof result);
    const anim_asset *inputs[1] = {source};
    const char *labels[1] = {"source"};
    if (!source || !arena) {
        rc = cli_operator_error("%s", arena ? err.message : "out of memory");
    } else if ((rc = cli_check_destination(inputs, labels, 1, cfg, a.output)) != 0) {
        /* refused: the LOD would replace what it certifies against */
    } else if (anim_lod_build(source, &o, arena, &result, &err)) {
        rc = cli_operator_error("%s", err.message);
    } else if (result.failure) {
        rc = EXIT_FINDINGS;
    } else if (anim_write_file_atomic(a.output, result.bytes.data, result.bytes.len, &err)) {
        rc = cli_operator_error("%s", err.message);
    }
    if (source && arena && rc != EXIT_OPERATOR) {
        anim_strbuf out = ANIM_STRBUF_INIT;
        anim_lod_report(&o, &result, rc == EXIT_CLEAN ? a.output : NULL, a.json, &out);
        cli_deliver(&out);
        anim_strbuf_free(&out);
    }
    anim_strbuf_free(&result.bytes);
    anim_arena_free(arena);
    if (source)
        anim_asset_free(source);
    anim_config_free(cfg);
    return rc;
}
