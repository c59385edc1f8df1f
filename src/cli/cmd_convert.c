/* animsmith convert IN.fbx|IN.glb|IN.gltf -o OUT.glb|OUT.gltf
 *   [--animation-only | --bake-static-mesh-transforms]
 *   [--material-texture-recipe RECIPE.toml] [--format text|json]
 *
 * The conversion itself is the library's (convert.h); this file reads the
 * arguments, refuses an output that is one of the files read, and prints
 * the write summary, the evidence or the refusal. Nothing is written on
 * any error: an existing output stays as it was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/convert.h"
#include "animsmith/path.h"
#include "args.h"
#include "cli.h"

typedef struct {
    const char *path, *output;
    anim_convert_options opts;
    bool json;
} convert_args;

static int parse_value(convert_args *a, size_t which, const char *v)
{
    if (which <= 1)
        return cli_set_once("convert", "--output", "a path", &a->output, v);
    if (which == 2)
        return cli_text_or_json(v, &a->json) ? EXIT_OPERATOR : 0;
    return cli_set_once("convert", "--material-texture-recipe", "a path",
                        &a->opts.material_texture_recipe, v);
}

static int check_args(const convert_args *a)
{
    if (!a->path)
        return cli_operator_error("convert: missing <file> (usage: animsmith convert <in.fbx|"
                                  "in.glb|in.gltf> -o <out.glb|out.gltf> ...)");
    if (!a->output)
        return cli_operator_error("convert requires --output <PATH>");
    if (a->opts.animation_only && a->opts.bake_static_mesh_transforms)
        return cli_operator_error("convert: --animation-only cannot be used with "
                                  "--bake-static-mesh-transforms");
    if (a->opts.animation_only && a->opts.material_texture_recipe)
        return cli_operator_error("convert: --material-texture-recipe cannot be used with "
                                  "--animation-only (which removes materials)");
    if (!anim_path_has_extension(a->path, ".fbx") && !anim_path_has_extension(a->path, ".glb") &&
        !anim_path_has_extension(a->path, ".gltf"))
        return cli_operator_error("%s: unsupported input (expected .glb, .gltf, or .fbx)",
                                  a->path);
    if (!anim_path_has_extension(a->output, ".glb") &&
        !anim_path_has_extension(a->output, ".gltf"))
        return cli_operator_error("%s: convert writes .glb or .gltf", a->output);
    return 0;
}

static int parse_args(int argc, char **argv, convert_args *a)
{
    static const char *const valued[] = {"--output", "-o", "--format",
                                         "--material-texture-recipe"};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        size_t k;
        const char *v;
        int got = cli_option_values(argc, argv, &i, valued, sizeof valued / sizeof *valued, &k, &v);
        if (got < 0)
            return cli_operator_error("convert: %s requires a value", valued[k]);
        if (got > 0) {
            if (parse_value(a, k, v))
                return EXIT_OPERATOR;
        } else if (!strcmp(arg, "--animation-only")) {
            a->opts.animation_only = true;
        } else if (!strcmp(arg, "--bake-static-mesh-transforms")) {
            a->opts.bake_static_mesh_transforms = true;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return cli_operator_error("convert: unknown option '%s'", arg);
        } else if (a->path) {
            return cli_operator_error("convert takes exactly one file (got '%s' and '%s')",
                                      a->path, arg);
        } else {
            a->path = arg;
        }
    }
    return check_args(a);
}

/* An asset refusal: the record on stdout (JSON) or its kind on stderr. */
static int refusal(const convert_args *a, const anim_error *err)
{
    if (!a->json) {
        fprintf(stderr, "animsmith: %s: %s: %s\n", a->path, anim_convert_refusal_kind(),
                err->message);
        return EXIT_FINDINGS;
    }
    anim_tool_info tool;
    cli_tool_info(&tool);
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &out, true);
    anim_convert_refusal_json(err->message, &tool, &w);
    anim_strbuf_putc(&out, '\n');
    cli_deliver(&out);
    anim_strbuf_free(&out);
    return EXIT_FINDINGS;
}

static void report(const convert_args *a, const anim_convert *c,
                   const anim_gltf_write_summary *summary)
{
    anim_strbuf out = ANIM_STRBUF_INIT;
    if (a->json) {
        anim_tool_info tool;
        cli_tool_info(&tool);
        anim_json_writer w;
        anim_json_writer_init(&w, &out, true);
        anim_convert_evidence_json(c, a->path, a->output, summary, &tool, &w);
        anim_strbuf_putc(&out, '\n');
    } else {
        cli_write_summary_line(a->output, summary, &out);
    }
    cli_deliver(&out);
    anim_strbuf_free(&out);
}

int cmd_convert(int argc, char **argv, const cli_globals *globals)
{
    convert_args a;
    memset(&a, 0, sizeof a);
    if (parse_args(argc, argv, &a))
        return EXIT_OPERATOR;
    int rc = EXIT_CLEAN;
    anim_config *cfg = cli_config(globals, &rc);
    if (!cfg)
        return rc;
    anim_load_options load;
    anim_config_load_options(cfg, &load);
    anim_error err;
    anim_error_clear(&err);
    bool refused = false;
    anim_convert *c = anim_convert_prepare(a.path, &a.opts, &load, &refused, &err);
    if (!c) {
        rc = refused ? refusal(&a, &err) : cli_operator_error("%s", err.message);
    } else {
        const anim_asset *inputs[1] = {anim_convert_asset(c)};
        const char *labels[1] = {"input"};
        rc = cli_check_destination(inputs, labels, 1, cfg, a.output);
        const char *read = rc == EXIT_CLEAN ? anim_convert_reads_file(c, a.output) : NULL;
        if (read)
            rc = cli_operator_error("%s: the output is %s; nothing written", a.output, read);
        anim_gltf_write_summary summary;
        if (rc == EXIT_CLEAN && anim_convert_write(c, a.output, &summary, &err))
            rc = cli_operator_error("%s", err.message);
        else if (rc == EXIT_CLEAN)
            report(&a, c, &summary);
    }
    anim_convert_free(c);
    anim_config_free(cfg);
    return rc;
}
