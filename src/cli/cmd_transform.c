/* animsmith transform FILE -o OUT [steps] [--clip NAME] [--fps N]:
 * mechanical clip edits, written as a whole new document.
 *
 * Every selected clip goes through the steps in one fixed order (slice,
 * hold-extend, drop-duplicate-loop-endpoint, resample, gait-anchor,
 * reduce-keys, prune-constant-tracks), whatever order the flags were
 * given in. The report lines are buffered: a refusal in any clip, or a
 * failed write, prints nothing but the error and leaves an existing
 * output untouched. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/gltf_write.h"
#include "animsmith/path.h"
#include "animsmith/transform.h"
#include "args.h"
#include "cli.h"

typedef struct transform_args {
    const char *path;
    const char *output;
    const char *clip;
    bool slice, hold, drop_endpoint, gait_anchor, prune, resample, reduce;
    const char *slice_text;
    double slice_start, slice_end;
    double hold_s, fps, resample_fps, reduce_m;
} transform_args;

/* A number as a whole argument; false for trailing text, overflow, "". */
static bool parse_f64(const char *s, double *out)
{
    if (!s[0])
        return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || errno == ERANGE)
        return false;
    *out = v;
    return true;
}

static int parse_slice(transform_args *a, const char *spec)
{
    const char *colon = strchr(spec, ':');
    if (!colon)
        return cli_operator_error("--slice wants START:END, got %s", spec);
    char start[64], end[64];
    size_t n = (size_t)(colon - spec);
    if (n >= sizeof start || strlen(colon + 1) >= sizeof end)
        return cli_operator_error("--slice wants START:END, got %s", spec);
    memcpy(start, spec, n);
    start[n] = '\0';
    strcpy(end, colon + 1);
    if (!parse_f64(start, &a->slice_start))
        return cli_operator_error("--slice start: invalid float literal");
    if (!parse_f64(end, &a->slice_end))
        return cli_operator_error("--slice end: invalid float literal");
    if (!isfinite(a->slice_start) || !isfinite(a->slice_end))
        return cli_operator_error("--slice wants finite seconds, got %s", spec);
    if (!(a->slice_end > a->slice_start))
        return cli_operator_error("--slice end must be after start (%s)", spec);
    a->slice = true;
    a->slice_text = spec;
    return 0;
}

/* A finite number in (lo, hi] (lo excluded when open) for flag. */
static int parse_number(const char *flag, const char *v, double lo, bool open, double hi,
                        const char *what, double *out)
{
    double d;
    if (!parse_f64(v, &d) || !isfinite(d) || (open ? d <= lo : d < lo) || d > hi)
        return cli_operator_error("transform: %s wants %s, got '%s'", flag, what, v);
    *out = d;
    return 0;
}

static int parse_value(transform_args *a, const char *flag, const char *v)
{
    if (!strcmp(flag, "--output") || !strcmp(flag, "-o"))
        return cli_set_once("transform", "--output", "a path", &a->output, v);
    if (!strcmp(flag, "--clip")) {
        a->clip = v;
        return 0;
    }
    if (!strcmp(flag, "--slice"))
        return parse_slice(a, v);
    if (!strcmp(flag, "--hold-extend")) {
        a->hold = true;
        return parse_number(flag, v, 0.0, true, 1e6, "seconds in (0, 1000000]", &a->hold_s);
    }
    if (!strcmp(flag, "--fps"))
        return parse_number(flag, v, 0.0, true, 1000.0, "a frame rate in (0, 1000]", &a->fps);
    if (!strcmp(flag, "--resample")) {
        a->resample = true;
        return parse_number(flag, v, 0.0, true, 1000.0, "a frame rate in (0, 1000]",
                            &a->resample_fps);
    }
    a->reduce = true;
    return parse_number(flag, v, 0.0, false, 1e6, "a distance in metres in [0, 1000000]",
                        &a->reduce_m);
}

static int parse_args(int argc, char **argv, transform_args *a)
{
    static const char *const valued[] = {"--output", "-o",    "--clip",     "--slice", "--hold-extend",
                                         "--fps",    "--resample", "--reduce-keys"};
    a->fps = 30.0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        size_t k;
        const char *v;
        int got = cli_option_values(argc, argv, &i, valued, sizeof valued / sizeof *valued, &k, &v);
        if (got < 0)
            return cli_operator_error("transform: %s requires a value", valued[k]);
        if (got > 0) {
            if (parse_value(a, valued[k], v))
                return EXIT_OPERATOR;
            continue;
        }
        if (!strcmp(arg, "--drop-duplicate-loop-endpoint"))
            a->drop_endpoint = true;
        else if (!strcmp(arg, "--gait-anchor"))
            a->gait_anchor = true;
        else if (!strcmp(arg, "--prune-constant-tracks"))
            a->prune = true;
        else if (arg[0] == '-' && arg[1] != '\0')
            return cli_operator_error("transform: unknown option '%s'", arg);
        else if (a->path)
            return cli_operator_error("transform takes exactly one file (got '%s' and '%s')",
                                      a->path, arg);
        else
            a->path = arg;
    }
    if (!a->path)
        return cli_operator_error("transform: missing <file> (usage: animsmith transform <file> "
                                  "-o <out> [--slice START:END] [--hold-extend SECONDS] ...)");
    if (!a->output)
        return cli_operator_error("transform requires --output <PATH>");
    if (a->drop_endpoint && a->hold)
        return cli_operator_error(
            "transform: --drop-duplicate-loop-endpoint cannot be used with --hold-extend");
    if (!anim_path_has_extension(a->path, ".glb") && !anim_path_has_extension(a->path, ".gltf"))
        return cli_operator_error("%s: transform operates on .glb/.gltf (convert FBX first)",
                                  a->path);
    return 0;
}

static uint32_t keyed_tracks(const anim_clip *clip)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < clip->track_count; i++)
        n += clip->tracks[i].key_count > 0;
    for (uint32_t i = 0; i < clip->morph_track_count; i++)
        n += clip->morph_tracks[i].key_count > 0;
    return n;
}

static int edit_clip(const transform_args *a, anim_asset *asset, anim_doc *doc, anim_clip *clip,
                     const anim_config *cfg, const anim_rig_resolution *rig, anim_strbuf *msg,
                     anim_error *err)
{
    anim_arena *arena = asset->arena;
    anim_clip_expect ex;
    anim_config_clip_expect(cfg, clip->name, &ex);
    bool loop = ex.loop.set && ex.loop.value;
    /* Without a step the clip is written as loaded: no copy of its keys
     * (a plain rewrite, .gltf to .glb say, of a large file). */
    if (!(a->slice || a->hold || a->drop_endpoint || a->resample || a->gait_anchor ||
          a->reduce || a->prune))
        return 0;
    if (anim_clip_detach(arena, clip, err))
        return -1;
    if (a->slice &&
        anim_transform_slice(arena, clip, a->slice_start, a->slice_end, a->fps, msg, err))
        return -1;
    if (a->hold && anim_transform_hold_extend(arena, clip, a->hold_s, msg, err))
        return -1;
    if (a->drop_endpoint && anim_transform_drop_endpoint(arena, clip, loop, msg, err))
        return -1;
    if (a->resample && anim_transform_resample(arena, doc, clip, a->resample_fps, msg, err))
        return -1;
    if (a->gait_anchor && anim_transform_gait_anchor(arena, doc, clip, rig, a->fps, msg, err))
        return -1;
    if (a->reduce &&
        anim_transform_reduce_keys(arena, doc, clip, a->reduce_m, NULL, msg, err))
        return -1;
    if (a->prune && anim_transform_prune_constant(arena, doc, clip, &ex.animates_bones, msg, err))
        return -1;
    return 0;
}

/* The selected clips edited in a copy of the document's clip list (the
 * loaded document stays as read). Returns the count edited, -1 on error
 * (printed). */
static int edit_clips(const transform_args *a, anim_asset *asset, anim_doc *doc,
                      const anim_config *cfg, anim_strbuf *msg)
{
    anim_error err;
    anim_error_clear(&err);
    anim_rig_resolution rig;
    anim_rig_config rig_cfg = anim_config_rig(cfg);
    if (anim_rig_resolve(doc, &rig_cfg, &rig, &err))
        return cli_operator_error("%s: %s", a->path, err.message), -1;
    anim_clip *clips = anim_arena_calloc(asset->arena, doc->clip_count ? doc->clip_count : 1,
                                         sizeof *clips);
    if (!clips)
        return cli_operator_error("out of memory"), -1;
    if (doc->clip_count)
        memcpy(clips, doc->clips, (size_t)doc->clip_count * sizeof *clips);
    doc->clips = clips;
    int edited = 0;
    for (uint32_t c = 0; c < doc->clip_count; c++) {
        if (a->clip && strcmp(clips[c].name, a->clip) != 0)
            continue;
        uint32_t keyed = keyed_tracks(&clips[c]);
        if (edit_clip(a, asset, doc, &clips[c], cfg, &rig, msg, &err))
            return cli_operator_error("%s", err.message), -1;
        /* An edit that empties a clip the user chose would drop it from
         * the file: refused, not written. */
        if (keyed > 0 && keyed_tracks(&clips[c]) == 0)
            return cli_operator_error("clip '%s': the edit leaves no key (a --slice window "
                                      "holding none?); nothing written",
                                      clips[c].name),
                   -1;
        edited++;
    }
    return edited;
}

int cmd_transform(int argc, char **argv, const cli_globals *globals)
{
    transform_args a;
    memset(&a, 0, sizeof a);
    if (parse_args(argc, argv, &a))
        return EXIT_OPERATOR;
    int rc = EXIT_CLEAN;
    anim_config *cfg = cli_config(globals, &rc);
    if (!cfg)
        return rc;
    anim_error err;
    anim_error_clear(&err);
    anim_asset *asset = cli_load_asset(a.path, cfg, &err);
    if (!asset) {
        anim_config_free(cfg);
        return cli_operator_error("%s", err.message);
    }
    anim_strbuf msg = ANIM_STRBUF_INIT;
    anim_doc doc = asset->doc;
    const anim_asset *inputs[1] = {asset};
    const char *labels[1] = {"input"};
    rc = cli_check_destination(inputs, labels, 1, cfg, a.output);
    int edited = rc ? -1 : edit_clips(&a, asset, &doc, cfg, &msg);
    if (edited == 0)
        rc = a.clip ? cli_operator_error("clip '%s' not found in %s", a.clip, a.path)
                    : cli_operator_error("%s has no clips", a.path);
    else if (edited < 0)
        rc = EXIT_OPERATOR;
    anim_gltf_write_summary summary;
    if (rc == EXIT_CLEAN) {
        if (anim_gltf_write_asset_file(asset, &doc, a.output, NULL, &summary, &err)) {
            rc = cli_operator_error("%s", err.message);
        } else {
            cli_write_summary_line(a.output, &summary, &msg);
            cli_deliver(&msg);
        }
    }
    anim_strbuf_free(&msg);
    anim_asset_free(asset);
    anim_config_free(cfg);
    return rc;
}
