/* animsmith checks [--format text|json]: the check catalog as lint runs
 * it, in catalog order: id, family, default severity, whether it is opt-in
 * and a one-line summary, so a contract or a --select/--allow list can be
 * written without opening the docs. */
#include <stdio.h>
#include <string.h>

#include "animsmith/json_write.h"
#include "animsmith/lint.h"
#include "animsmith/report.h"
#include "animsmith/strbuf.h"
#include "args.h"
#include "cli.h"

/* The family and summary of each id come from the library
 * (anim_check_family, anim_check_summary), shared with the SARIF rules. */
static void render_text(anim_strbuf *out)
{
    anim_strbuf_printf(out, "%-24s %-7s %-8s %s\n", "id", "family", "default", "judges");
    for (size_t c = 0; c < anim_check_count(); c++) {
        const anim_check_def *def = anim_check_at(c);
        anim_strbuf_printf(out, "%-24s %-7s %-8s %s%s\n", def->id, anim_check_family(def->id),
                           anim_severity_name(def->default_severity),
                           def->opt_in ? "(opt-in) " : "", anim_check_summary(def->id));
    }
    anim_strbuf_printf(out,
                       "\n%zu checks. `[checks.<id>] severity` re-grades a check (\"off\" disables "
                       "it); `lint --select` and `--allow` take these ids.\n",
                       anim_check_count());
}

static int render_json(anim_strbuf *out)
{
    anim_json_writer w;
    anim_json_writer_init(&w, out, true);
    anim_tool_info tool;
    cli_tool_info(&tool);
    anim_output_envelope_begin(&w, &tool, "checks");
    anim_json_writer_key(&w, "checks");
    anim_json_writer_begin_array(&w);
    for (size_t c = 0; c < anim_check_count(); c++) {
        const anim_check_def *def = anim_check_at(c);
        anim_json_writer_begin_object(&w);
        anim_json_writer_key(&w, "id");
        anim_json_writer_string(&w, def->id);
        anim_json_writer_key(&w, "family");
        anim_json_writer_string(&w, anim_check_family(def->id));
        anim_json_writer_key(&w, "default_severity");
        anim_json_writer_string(&w, anim_severity_name(def->default_severity));
        anim_json_writer_key(&w, "opt_in");
        anim_json_writer_bool(&w, def->opt_in);
        anim_json_writer_key(&w, "per_clip");
        anim_json_writer_bool(&w, def->per_clip);
        anim_json_writer_key(&w, "summary");
        anim_json_writer_string(&w, anim_check_summary(def->id));
        anim_json_writer_end_object(&w);
    }
    anim_json_writer_end_array(&w);
    anim_json_writer_end_object(&w);
    anim_strbuf_putc(out, '\n');
    return anim_json_writer_ok(&w) ? 0 : -1;
}

int cmd_checks(int argc, char **argv, const cli_globals *globals)
{
    (void)globals; /* the catalog does not depend on the contract */
    bool json = false;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = cli_option_value(argc, argv, &i, "--format", NULL))) {
            if (cli_text_or_json(v, &json))
                return EXIT_OPERATOR;
        } else if (!strcmp(argv[i], "--format")) {
            return cli_operator_error("%s requires a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_operator_error("checks: unknown option '%s'", argv[i]);
        } else {
            return cli_operator_error("checks takes no arguments (got '%s')", argv[i]);
        }
    }
    anim_strbuf out = ANIM_STRBUF_INIT;
    int rc = EXIT_CLEAN;
    if (json) {
        if (render_json(&out))
            rc = cli_operator_error("out of memory while rendering output");
    } else {
        render_text(&out);
    }
    if (rc == EXIT_CLEAN)
        cli_deliver(&out);
    anim_strbuf_free(&out);
    return rc;
}
