/* animsmith report FILE -o OUT.html [--clip NAME] [--evidence-only]
 *     [--lod CANDIDATE]
 * animsmith report BEFORE -o OUT.html --compare-after AFTER
 *     --before-clip NAME --after-clip NAME [--evidence-only]
 *
 * One offline HTML file, written atomically: a refusal or a failed write
 * leaves an existing output (and its permissions) as they were. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "animsmith/atomic_write.h"
#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/html_report.h"
#include "animsmith/path.h"
#include "args.h"
#include "cli.h"
#include "animsmith_version.h"

typedef struct report_args {
    const char *path, *output, *clip, *after, *before_clip, *after_clip, *lod;
    bool evidence_only;
} report_args;

static int check_combination(const report_args *a)
{
    if (!a->path)
        return cli_operator_error("report: missing <file> (usage: animsmith report <file> -o "
                                  "<report.html> [--clip NAME] [--evidence-only] [--lod "
                                  "CANDIDATE.glb])");
    if (!a->output)
        return cli_operator_error("report requires --output <report.html>");
    if (a->after && a->lod)
        return cli_operator_error("report: --lod measures a LOD against a single document; it "
                                  "does not go with --compare-after");
    if (a->after) {
        if (a->clip)
            return cli_operator_error("report: --clip is for a single-document report; a "
                                      "comparison names its clips with --before-clip and "
                                      "--after-clip");
        if (!a->before_clip || !a->after_clip)
            return cli_operator_error("report: --compare-after needs both --before-clip NAME "
                                      "and --after-clip NAME");
    } else if (a->before_clip || a->after_clip) {
        return cli_operator_error("report: --before-clip and --after-clip need --compare-after "
                                  "<after>");
    }
    if (a->lod && !anim_path_has_extension(a->lod, ".glb") &&
        !anim_path_has_extension(a->lod, ".gltf"))
        return cli_operator_error("%s: report --lod reads a .glb or .gltf LOD", a->lod);
    const char *inputs[2] = {a->path, a->after};
    for (int i = 0; i < 2; i++)
        if (inputs[i] && !anim_path_has_extension(inputs[i], ".glb") &&
            !anim_path_has_extension(inputs[i], ".gltf") &&
            !anim_path_has_extension(inputs[i], ".fbx"))
            return cli_operator_error("%s: report reads .glb, .gltf or .fbx", inputs[i]);
    return 0;
}

static int parse_args(int argc, char **argv, report_args *a)
{
    static const char *const valued[] = {"--output", "-o", "--clip", "--compare-after",
                                         "--before-clip", "--after-clip", "--lod"};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        size_t k;
        const char *v;
        int got = cli_option_values(argc, argv, &i, valued, sizeof valued / sizeof *valued, &k, &v);
        if (got < 0)
            return cli_operator_error("report: %s requires a value", valued[k]);
        if (got > 0) {
            const char **slot = k < 2 ? &a->output : k == 2 ? &a->clip : k == 3 ? &a->after
                              : k == 4 ? &a->before_clip : k == 5 ? &a->after_clip : &a->lod;
            if (cli_set_once("report", k < 2 ? "--output" : valued[k], "a value", slot, v))
                return EXIT_OPERATOR;
            continue;
        }
        if (!strcmp(arg, "--evidence-only"))
            a->evidence_only = true;
        else if (arg[0] == '-' && arg[1] != '\0')
            return cli_operator_error("report: unknown option '%s'", arg);
        else if (a->path)
            return cli_operator_error("report takes exactly one file (got '%s' and '%s'); "
                                      "compare two with --compare-after",
                                      a->path, arg);
        else
            a->path = arg;
    }
    return check_combination(a) ? EXIT_OPERATOR : 0;
}

/* "0.1 MB": the size the summary line gives, in MiB to one decimal. */
static void summary_line(const char *out, const char *lod, const anim_html_report_summary *s,
                         size_t bytes, anim_strbuf *msg)
{
    anim_strbuf_printf(msg, "wrote %s (%u clip(s), %llu finding(s), %.1f MB)\n", out, s->clips,
                       (unsigned long long)s->findings, (double)bytes / 1048576.0);
    if (s->mesh_omission)
        anim_strbuf_printf(msg, "  note: the skinned mesh is not drawn: %s\n", s->mesh_omission);
    if (lod && s->lod_measured)
        anim_strbuf_printf(msg, "  mesh quality of %s: %u of %u mesh(es) measured, largest residual "
                                "%.6f m\n", lod, s->lod_measured, s->lod_rows, s->lod_residual);
    else if (lod)
        anim_strbuf_printf(msg, "  mesh quality of %s: none of %u mesh(es) measured (the page says "
                                "why)\n", lod, s->lod_rows);
}

/* The output's directory must exist before the run: a report of a large
 * library takes a while, and finding out at the write is too late. */
static int check_output_dir(const char *out)
{
    char *dir = anim_path_dirname_dup(out);
    if (!dir)
        return cli_operator_error("out of memory");
    struct stat st;
    int rc = 0;
    if (stat(dir, &st) != 0)
        rc = cli_operator_error("%s: the directory %s does not exist", out, dir);
    else if (!S_ISDIR(st.st_mode))
        rc = cli_operator_error("%s: %s is not a directory", out, dir);
    free(dir);
    return rc;
}

int cmd_report(int argc, char **argv, const cli_globals *globals)
{
    report_args a;
    memset(&a, 0, sizeof a);
    if (parse_args(argc, argv, &a) || check_output_dir(a.output))
        return EXIT_OPERATOR;
    int rc = EXIT_CLEAN;
    anim_config *cfg = cli_config(globals, &rc);
    if (!cfg)
        return rc;
    anim_error err;
    anim_error_clear(&err);
    anim_asset *assets[3] = {NULL, NULL, NULL};
    const char *paths[3] = {a.path, a.after, a.lod};
    for (int i = 0; i < 3 && rc == EXIT_CLEAN; i++) {
        if (!paths[i])
            continue;
        assets[i] = cli_load_asset(paths[i], cfg, &err);
        if (!assets[i])
            rc = cli_operator_error("%s", err.message);
    }
    if (rc == EXIT_CLEAN) {
        /* The second input is the after document or the LOD, never both. */
        const anim_asset *inputs[2] = {assets[0], a.after ? assets[1] : assets[2]};
        const char *labels[2] = {a.after ? "before input" : "input",
                                 a.after ? "after input" : "LOD input"};
        rc = cli_check_destination(inputs, labels, a.after || a.lod ? 2 : 1, cfg, a.output);
    }
    anim_strbuf html = ANIM_STRBUF_INIT;
    anim_html_report_summary summary;
    anim_html_report_options opts = {a.evidence_only, ANIMSMITH_VERSION_STRING, assets[2], a.lod};
    if (rc == EXIT_CLEAN) {
        int r;
        if (a.after) {
            anim_html_report_input before = {assets[0], cfg, a.path, a.before_clip};
            anim_html_report_input after = {assets[1], cfg, a.after, a.after_clip};
            r = anim_html_report_render_comparison(&before, &after, &opts, &html, &summary, &err);
        } else {
            anim_html_report_input in = {assets[0], cfg, a.path, a.clip};
            r = anim_html_report_render(&in, &opts, &html, &summary, &err);
        }
        if (r)
            rc = cli_operator_error("%s", err.message);
    }
    if (rc == EXIT_CLEAN && anim_write_file_atomic(a.output, html.data, html.len, &err))
        rc = cli_operator_error("%s", err.message);
    if (rc == EXIT_CLEAN) {
        anim_strbuf msg = ANIM_STRBUF_INIT;
        summary_line(a.output, a.lod, &summary, html.len, &msg);
        cli_deliver(&msg);
        anim_strbuf_free(&msg);
    }
    anim_strbuf_free(&html);
    for (int i = 0; i < 3; i++)
        anim_asset_free(assets[i]);
    anim_config_free(cfg);
    return rc;
}
