/* embed: animsmith as a library step inside a studio's own asset gate.
 *
 * A pipeline that already owns an importer and its own asset rules can run
 * animsmith's checks in-process instead of shelling out to the binary:
 *
 *   1. load the asset once (anim_asset_load);
 *   2. build the contract in code from the studio's own rule table
 *      (an anim_config, the same structure animsmith.toml loads into);
 *   3. run the checks (anim_lint_run: rig roles are resolved, every clip
 *      is measured and judged, each check says what it could not judge);
 *   4. map each finding's severity to the gate's own verdicts and decide.
 *
 * The studio table below declares a deliberately wrong expectation (clip
 * 'swing' is pinned to 1.25 s; the bundled clip lasts 1 s), so the gate
 * fails on purpose and exits 1 even on a clean clip: that is the failing
 * gate being demonstrated, not an accidental error. Exit 0: the gate
 * passes; 1: a blocking finding; 2: the asset or the contract could not be
 * used (the message names the file and the object at fault).
 *
 * Build against an installed animsmith (see docs/embedding.md):
 *   cc -std=c11 examples/embed.c $(pkg-config --cflags --libs --static animsmith) -o embed
 *   ./embed examples/assets/clip-dirty.glb
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <animsmith/config.h>
#include <animsmith/error.h>
#include <animsmith/gltf.h>
#include <animsmith/lint.h>
#include <animsmith/strbuf.h>
#include <animsmith/text.h>

/* The studio's own contract, as its asset database might hand it over: one
 * row per clip name (a `*` glob is allowed, as in animsmith.toml). */
typedef struct {
    const char *clip;
    double duration_s;  /* the length the game's state machine assumes */
    double tolerance_s;
} studio_clip_rule;

static const studio_clip_rule studio_clips[] = {
    {"swing", 1.25, 0.01}, /* deliberately wrong: the bundled clip lasts 1 s */
};

/* Studio-wide check policy: our engine does no neighbourhood correction of
 * quaternions, so a hemisphere flip is as bad as a broken key. */
typedef struct {
    const char *check_id;
    anim_severity severity;
} studio_check_rule;

static const studio_check_rule studio_checks[] = {
    {"quat-flip", ANIM_SEVERITY_ERROR},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int by_selector(const void *a, const void *b)
{
    const anim_clip_selector *x = a, *y = b;
    return strcmp(x->selector, y->selector);
}

/* Maps the studio tables into an anim_config. Everything starts from the
 * built-in defaults, so fields this program does not know stay at the
 * values animsmith would use without animsmith.toml. The arrays live in
 * the config's arena and go with it; the strings are this program's
 * constants, which outlive the config. */
static anim_config *studio_contract(anim_error *err)
{
    anim_config *cfg = anim_config_default(err);
    if (!cfg)
        return NULL;
    cfg->clips = anim_arena_calloc(cfg->arena, COUNT(studio_clips), sizeof *cfg->clips);
    cfg->checks = anim_arena_calloc(cfg->arena, COUNT(studio_checks), sizeof *cfg->checks);
    if (!cfg->clips || !cfg->checks) {
        anim_config_free(cfg);
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < COUNT(studio_clips); i++) {
        anim_clip_selector *sel = &cfg->clips[i];
        sel->selector = studio_clips[i].clip;
        sel->expect.duration_s.set = true;
        sel->expect.duration_s.value = studio_clips[i].duration_s;
        sel->expect.duration_s.tolerance = studio_clips[i].tolerance_s;
    }
    cfg->clip_count = (uint32_t)COUNT(studio_clips);
    /* The merge of per-clip expectations reads the selectors in byte-wise
     * order, as the loader leaves them. */
    qsort(cfg->clips, cfg->clip_count, sizeof *cfg->clips, by_selector);
    for (size_t i = 0; i < COUNT(studio_checks); i++) {
        /* The struct takes any id; a misspelt one would silently configure
         * nothing, so refuse it as animsmith.toml's loader does. */
        if (!anim_check_find(studio_checks[i].check_id)) {
            anim_error_set(err, ANIM_ERR_INVALID,
                           "studio contract: check rule %zu: unknown check id \"%s\"", i,
                           studio_checks[i].check_id);
            anim_config_free(cfg);
            return NULL;
        }
        cfg->checks[i].id = studio_checks[i].check_id;
        cfg->checks[i].severity = studio_checks[i].severity;
    }
    cfg->check_count = (uint32_t)COUNT(studio_checks);
    return cfg;
}

/* The gate's own verdicts: errors block the submission, warnings go to a
 * reviewer, notes are kept for information. */
static const char *gate_verdict(anim_severity s)
{
    switch (s) {
    case ANIM_SEVERITY_ERROR:
        return "BLOCK";
    case ANIM_SEVERITY_WARNING:
        return "REVIEW";
    default:
        return "INFO";
    }
}

/* Clip and bone names come from the asset: escape terminal controls before
 * they reach a log, as the animsmith CLI does. */
static void put_name(anim_strbuf *out, const char *label, const char *name)
{
    if (!name)
        return;
    anim_strbuf_printf(out, " %s '", label);
    anim_text_atom(out, name, strlen(name));
    anim_strbuf_putc(out, '\'');
}

static void put_finding(anim_strbuf *out, const anim_finding *f)
{
    anim_strbuf_printf(out, "  %-6s %s:", gate_verdict(f->severity), f->check_id);
    put_name(out, "clip", f->clip);
    put_name(out, "bone", f->bone);
    put_name(out, "node", f->node);
    if (f->has_time)
        anim_strbuf_printf(out, " @%.3fs", f->time_s);
    anim_strbuf_puts(out, ": ");
    anim_text_atom(out, f->message, strlen(f->message));
    anim_strbuf_putc(out, '\n');
}

int main(int argc, char **argv)
{
    /* --help (and -h) answers on stdout; any other flag is refused rather
     * than read as a file name. */
    bool help = argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);
    if (help || argc != 2 || argv[1][0] == '-') {
        fputs("usage: embed FILE.glb|FILE.gltf\n"
              "Runs animsmith's checks against a contract built in code and maps the\n"
              "findings to a studio gate (exit 0 pass, 1 blocked, 2 error).\n",
              help ? stdout : stderr);
        return help ? 0 : 2;
    }
    const char *path = argv[1];
    anim_error err;
    anim_error_clear(&err);

    /* The loader's messages name the file and the object at fault. */
    anim_config *cfg = studio_contract(&err);
    anim_asset *asset = cfg ? anim_asset_load(path, NULL, &err) : NULL;
    if (!asset) {
        fprintf(stderr, "embed: %s\n", err.message);
        anim_config_free(cfg);
        return 2;
    }
    /* NULL options: every check of the catalog, no callbacks. */
    anim_lint_file result;
    if (anim_lint_run(asset, cfg, NULL, &result, &err) != 0) {
        fprintf(stderr, "embed: %s: %s\n", path, err.message);
        anim_asset_free(asset);
        anim_config_free(cfg);
        return 2;
    }

    unsigned blocking = 0, review = 0, info = 0, not_judged = 0;
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_strbuf_puts(&out, "gate: ");
    anim_text_atom(&out, path, strlen(path));
    anim_strbuf_printf(&out, " (%u clip(s), rig profile %s)\n", asset->doc.clip_count,
                       result.rig.label);
    for (size_t r = 0; r < result.record_count; r++) {
        const anim_check_record *rec = &result.records[r];
        for (uint32_t i = 0; i < rec->finding_count; i++) {
            const anim_finding *f = &rec->findings[i];
            put_finding(&out, f);
            if (f->severity == ANIM_SEVERITY_ERROR)
                blocking++;
            else if (f->severity == ANIM_SEVERITY_WARNING)
                review++;
            else
                info++;
        }
        /* A gap is evidence the check lacked, never a pass or a failure:
         * the gate lists it so a reviewer knows what was not judged. */
        for (uint32_t i = 0; i < rec->gap_count; i++) {
            anim_strbuf_printf(&out, "  %-6s %s: %s\n", "GAP", rec->check_id,
                               rec->gaps[i].code);
            not_judged++;
        }
    }
    anim_strbuf_printf(&out, "gate: %s: %u blocking, %u to review, %u for information, "
                             "%u not judged\n",
                       blocking ? "FAIL" : "PASS", blocking, review, info, not_judged);

    int rc = blocking ? 1 : 0;
    if (out.failed) {
        fprintf(stderr, "embed: %s: out of memory\n", path);
        rc = 2;
    } else {
        fwrite(out.data, 1, out.len, stdout);
    }
    anim_strbuf_free(&out);
    anim_lint_file_free(&result);
    anim_asset_free(asset);
    anim_config_free(cfg);
    return rc;
}
