/* animsmith generate GENERATOR ...: the standalone generators, each with
 * its own versioned contract (not the lint envelope).
 *   addressability FILE [--format json|text|markdown]  (this file)
 *   import-advice FILE [...]                           (cmd_generate_advice.c)
 *   contact-fragment                                   not in this build yet
 * A generator is called with argv[0] its own name, the rest its arguments.
 *
 * generate addressability exits 0 with the document, 1 when the document
 * holds a required prediction that is unavailable (the document is still
 * printed), 2 for an operator error (nothing printed). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "animsmith/addressability.h"
#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/strbuf.h"
#include "args.h"
#include "cli.h"

static bool has_suffix(const char *path, const char *suffix)
{
    size_t n = strlen(path), m = strlen(suffix);
    return n >= m && strcasecmp(path + n - m, suffix) == 0;
}

static int parse_format(const char *v, anim_addressability_format *format)
{
    if (!strcmp(v, "json"))
        *format = ANIM_ADDRESSABILITY_JSON;
    else if (!strcmp(v, "text"))
        *format = ANIM_ADDRESSABILITY_TEXT;
    else if (!strcmp(v, "markdown"))
        *format = ANIM_ADDRESSABILITY_MARKDOWN;
    else
        return cli_operator_error("generate addressability: --format: unknown format '%s' "
                                  "(expected json, text or markdown)",
                                  v);
    return 0;
}

static int cmd_addressability(int argc, char **argv, const cli_globals *globals)
{
    const char *file = NULL;
    anim_addressability_format format = ANIM_ADDRESSABILITY_JSON;
    bool format_seen = false;
    for (int i = 1; i < argc; i++) {
        bool missing = false;
        const char *v = cli_option_value(argc, argv, &i, "--format", &missing);
        if (v) {
            if (format_seen)
                return cli_operator_error("generate addressability: --format given more than "
                                          "once");
            format_seen = true;
            int rc = parse_format(v, &format);
            if (rc)
                return rc;
        } else if (missing) {
            return cli_operator_error("generate addressability: --format requires a value "
                                      "(json, text or markdown)");
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_operator_error("generate addressability: unknown option '%s'", argv[i]);
        } else if (!argv[i][0]) {
            return cli_operator_error("generate addressability: empty file argument");
        } else if (file) {
            return cli_operator_error("generate addressability: one input file only ('%s' and "
                                      "'%s' given)",
                                      file, argv[i]);
        } else {
            file = argv[i];
        }
    }
    if (!file)
        return cli_operator_error("generate addressability: name one .glb or .gltf file");
    /* Before any input is read: the contract, then the input's format. */
    int rc = 0;
    anim_config *cfg = cli_config(globals, &rc);
    if (!cfg)
        return rc;
    if (has_suffix(file, ".fbx")) {
        anim_config_free(cfg);
        return cli_operator_error("generate addressability: %s is FBX; addressability reads "
                                  "glTF and GLB only, so convert FBX first (animsmith convert "
                                  "%s -o out.glb)",
                                  file, file);
    }
    anim_error err;
    anim_error_clear(&err);
    anim_asset *asset = cli_load_asset(file, cfg, &err);
    if (!asset) {
        anim_config_free(cfg);
        return cli_operator_error("%s", err.message);
    }
    anim_tool_info tool;
    cli_tool_info(&tool);
    anim_strbuf out = ANIM_STRBUF_INIT;
    bool blocking = false;
    if (anim_addressability_render(asset, cfg, &tool, format, &out, &blocking, &err)) {
        rc = cli_operator_error("%s", err.message);
    } else {
        cli_deliver(&out);
        rc = blocking ? EXIT_FINDINGS : EXIT_CLEAN;
    }
    anim_strbuf_free(&out);
    anim_asset_free(asset);
    anim_config_free(cfg);
    return rc;
}

int cmd_generate(int argc, char **argv, const cli_globals *globals)
{
    if (argc < 2)
        return cli_operator_error("generate: name a generator: addressability, import-advice "
                                  "or contact-fragment (see 'animsmith generate --help')");
    const char *name = argv[1];
    if (!strcmp(name, "addressability"))
        return cmd_addressability(argc - 1, argv + 1, globals);
    if (!strcmp(name, "import-advice"))
        return cmd_generate_import_advice(argc - 1, argv + 1, globals);
    if (!strcmp(name, "contact-fragment"))
        return cli_operator_error("generate contact-fragment: not available in this build: it "
                                  "waits for the collection contracts");
    return cli_operator_error("generate: unknown generator '%s' (expected addressability, "
                              "import-advice or contact-fragment)",
                              name);
}
