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

/* What the catalog does not carry: the family (the docs page a check is
 * described on) and the summary line. Keyed by id; a catalog entry missing
 * here is a build defect the checks_* tests catch ("?"). */
typedef struct {
    const char *id, *family, *summary;
} check_blurb;

static const check_blurb blurbs[] = {
    {"nan", "track", "non-finite key times or values (cubic tangents included)"},
    {"time-monotonic", "track", "negative or non-increasing key times; a late first key (note)"},
    {"quat-norm", "track", "rotation keys whose length is off 1 by more than 1e-3 (fix repairs)"},
    {"quat-flip", "track", "adjacent rotation keys in opposite hemispheres (fix repairs)"},
    {"duration-sanity", "track", "empty or degenerate clips, a missed duration_s pin, ragged ends"},
    {"scale-keys", "scale", "animated scale"},
    {"non-uniform-scale", "scale", "scale axes that differ"},
    {"constant-nonunit-scale", "scale", "a scale track pinned away from 1"},
    {"constant-track", "track", "tracks with several keys that never move (export bloat)"},
    {"required-bones", "bones", "[rig] required_bones missing or ambiguous in the skeleton"},
    {"rest-world-scale", "scale", "rest-world scale of attachment/socket nodes"},
    {"missing-bones", "bones", "animates_bones entries without keys in the clip"},
    {"frozen-bone", "bones", "animates_bones entries that are keyed but barely rotate"},
    {"duplicate-loop-endpoint", "loop", "a loop whose last key repeats its first pose"},
    {"loop-closure", "loop", "a loop's last frame far from its first"},
    {"loop-seam", "loop", "the wrap step of the feet against the in-clip stride"},
    {"loop-seam-vel", "loop", "linear velocity jump across the loop seam"},
    {"loop-seam-rot", "loop", "angular velocity jump across the loop seam"},
    {"root-motion-speed", "travel", "measured root speed against the speed_mps pin"},
    {"gait-group", "group", "stride-phase spread of a blend ring"},
    {"sync-group", "group", "duration, frame count, fps and endpoint agreement of a set"},
    {"time-complement", "group", "mirrored members that do not cover each other's phase"},
    {"in-place", "travel", "travel that contradicts movement_owner_xz"},
    {"fps", "travel", "keys and duration off the declared frame grid"},
    {"bind-pose", "pose", "first frame far from the rest pose"},
    {"foot-slide", "travel", "feet moving during stance against the expected ground speed"},
    {"engine-addressability", "engine", "Bevy Animation{i} selectors for every source animation"},
    {"engine-unit-scale", "engine", "Bevy glTF metre mapping, scene, primitive and selected nodes"},
    {"engine-track-support", "engine", "Bevy animation feature and load gates per animation"},
    {"engine-root-motion", "engine", "Unity Generic root-motion routing against movement owners"},
    {"engine-clip-boundary", "engine", "Unreal whole end frame of each FBX animation stack"},
};

static const check_blurb *blurb_of(const char *id)
{
    static const check_blurb unknown = {NULL, "?", "?"};
    for (size_t i = 0; i < sizeof blurbs / sizeof *blurbs; i++)
        if (strcmp(blurbs[i].id, id) == 0)
            return &blurbs[i];
    return &unknown;
}

static void render_text(anim_strbuf *out)
{
    anim_strbuf_printf(out, "%-24s %-7s %-8s %s\n", "id", "family", "default", "judges");
    for (size_t c = 0; c < anim_check_count(); c++) {
        const anim_check_def *def = anim_check_at(c);
        const check_blurb *b = blurb_of(def->id);
        anim_strbuf_printf(out, "%-24s %-7s %-8s %s%s\n", def->id, b->family,
                           anim_severity_name(def->default_severity),
                           def->opt_in ? "(opt-in) " : "", b->summary);
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
        const check_blurb *b = blurb_of(def->id);
        anim_json_writer_begin_object(&w);
        anim_json_writer_key(&w, "id");
        anim_json_writer_string(&w, def->id);
        anim_json_writer_key(&w, "family");
        anim_json_writer_string(&w, b->family);
        anim_json_writer_key(&w, "default_severity");
        anim_json_writer_string(&w, anim_severity_name(def->default_severity));
        anim_json_writer_key(&w, "opt_in");
        anim_json_writer_bool(&w, def->opt_in);
        anim_json_writer_key(&w, "per_clip");
        anim_json_writer_bool(&w, def->per_clip);
        anim_json_writer_key(&w, "summary");
        anim_json_writer_string(&w, b->summary);
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
