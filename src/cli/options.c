/* The command and option table (see options.h) and the --help printer. */
#include "options.h"

#include <string.h>

#define END {NULL, NULL, NULL, CLI_VALUE_NONE, NULL, NULL, NULL}

/* lint and measure split a library the same way (shard.c). */
#define SHARD_OPTION                                                                           \
    {"--shard", NULL, "K/N", CLI_VALUE_NUMBER, NULL, "every input",                            \
     "only part K of N of the inputs, split by sorted path (1 <= K <= N <= 100000); "          \
     "`animsmith merge` joins the parts' JSON reports"},

static const cli_option common_options[] = {
    {"--config", NULL, "FILE", CLI_VALUE_FILE, NULL, "./animsmith.toml when present",
     "project contract (may also come before the command)"},
    {"--help", "-h", NULL, CLI_VALUE_NONE, NULL, NULL, "print this help"},
    END,
};

static const cli_option global_options[] = {
    {"--config", NULL, "FILE", CLI_VALUE_FILE, NULL, "./animsmith.toml when present",
     "project contract"},
    {"--help", "-h", NULL, CLI_VALUE_NONE, NULL, NULL,
     "print help (also `animsmith <command> --help`)"},
    {"--version", "-V", NULL, CLI_VALUE_NONE, NULL, NULL,
     "print the version and compiled-in features"},
    END,
};

static const cli_option inspect_options[] = {
    {"--format", NULL, "FORMAT", CLI_VALUE_CHOICE, "text json", "text",
     "output format: text (for reading) or json (for scripts)"},
    END,
};
static const char *const inspect_examples[] = {
    "animsmith inspect examples/assets/walk.glb",
    "animsmith inspect character.glb --format json > character.inspect.json",
    NULL,
};

static const cli_option measure_options[] = {
    {"--format", NULL, "FORMAT", CLI_VALUE_CHOICE, "json text", "json", "output format"},
    {"--jobs", NULL, "N", CLI_VALUE_NUMBER, NULL, "the number of online cores",
     "files measured at once (1 to 1024); output order never changes"},
    SHARD_OPTION
    END,
};
static const char *const measure_examples[] = {
    "animsmith measure examples/assets/walk.glb --format text",
    "animsmith measure assets/ > baseline.json",
    NULL,
};

static const cli_option lint_options[] = {
    {"--format", NULL, "FORMAT", CLI_VALUE_CHOICE, "text json markdown sarif junit", "text",
     "output format: text, json (every finding, for CI), markdown (a CI comment), sarif "
     "(code scanning) or junit (CI test reports)"},
    {"--select", NULL, "IDS", CLI_VALUE_CHECKS, NULL, "every check",
     "run only these checks (comma-separated ids, repeatable; see `animsmith checks`)"},
    {"--allow", NULL, "IDS", CLI_VALUE_CHECKS, NULL, "none",
     "hide these checks' findings from text and markdown and from the exit code"},
    {"--deny-warnings", NULL, NULL, CLI_VALUE_NONE, NULL, "off",
     "warnings fail the run too (exit 1), not only errors"},
    {"--expand", NULL, NULL, CLI_VALUE_NONE, NULL, "off",
     "text: list every finding of a repeated check instead of one grouped line per clip"},
    {"--color", NULL, "WHEN", CLI_VALUE_CHOICE, "auto always never", "auto",
     "text: colour severities (auto: only on a terminal and when NO_COLOR is unset)"},
    {"--jobs", NULL, "N", CLI_VALUE_NUMBER, NULL, "the number of online cores",
     "workers (1 to 1024): files at once, and a file's clips when there are fewer files; "
     "output order never changes"},
    SHARD_OPTION
    END,
};
static const char *const lint_examples[] = {
    "animsmith lint examples/assets/walk.glb",
    "animsmith lint assets/ --deny-warnings --format markdown > lint.md",
    "animsmith lint assets/ --format sarif > animsmith.sarif",
    NULL,
};

static const cli_option fix_options[] = {
    {"--output", "-o", "PATH", CLI_VALUE_FILE, NULL, NULL,
     "write the repaired asset here (the input is left as it is)"},
    {"--in-place", NULL, NULL, CLI_VALUE_NONE, NULL, "off", "rewrite the input itself"},
    {"--dry-run", NULL, NULL, CLI_VALUE_NONE, NULL, "off",
     "write nothing; print what would be repaired and exit 1 when something would be"},
    {"--repair", NULL, "IDS", CLI_VALUE_REPAIRS, "quat-norm quat-flip", "quat-norm,quat-flip",
     "the repairs to run, in this order (comma-separated, repeatable)"},
    END,
};
static const char *const fix_examples[] = {
    "animsmith fix examples/assets/clip-dirty.glb --dry-run",
    "animsmith fix examples/assets/clip-dirty.glb -o fixed.glb",
    NULL,
};

static const cli_option transform_options[] = {
    {"--output", "-o", "PATH", CLI_VALUE_FILE, NULL, NULL,
     "write the edited asset here: .glb for GLB, anything else for .gltf (required)"},
    {"--clip", NULL, "NAME", CLI_VALUE_TEXT, NULL, NULL,
     "edit only this clip (default: every clip)"},
    {"--slice", NULL, "START:END", CLI_VALUE_TEXT, NULL, NULL,
     "keep the keys of this window, in seconds, retimed to start at 0"},
    {"--hold-extend", NULL, "SECONDS", CLI_VALUE_NUMBER, NULL, NULL,
     "append a hold of the final pose this long"},
    {"--drop-duplicate-loop-endpoint", NULL, NULL, CLI_VALUE_NONE, NULL, "off",
     "turn a declared loop whose last key repeats its first into an open cycle"},
    {"--resample", NULL, "FPS", CLI_VALUE_NUMBER, NULL, NULL,
     "resample every track onto a uniform grid at FPS (linear; rotations shortest-path)"},
    {"--gait-anchor", NULL, NULL, CLI_VALUE_NONE, NULL, "off",
     "declare each clip an in-place cycle and rotate it so its stride anchor is at t=0"},
    {"--reduce-keys", NULL, "MAX_ERROR_M", CLI_VALUE_NUMBER, NULL, NULL,
     "remove keys while every bone stays within MAX_ERROR_M metres of the original"},
    {"--prune-constant-tracks", NULL, NULL, CLI_VALUE_NONE, NULL, "off",
     "remove multi-key tracks that provably never move"},
    {"--fps", NULL, "N", CLI_VALUE_NUMBER, NULL, "30",
     "the frame rate of --slice's half-frame tolerance and --gait-anchor's grid"},
    END,
};
static const char *const transform_examples[] = {
    "animsmith transform examples/assets/clip.glb -o sliced.glb --slice 0.5:1.0",
    "animsmith transform examples/assets/walk-scaled.glb -o compact.glb --prune-constant-tracks",
    "animsmith transform character.glb -o small.glb --reduce-keys 0.001",
    NULL,
};

static const cli_option report_options[] = {
    {"--output", "-o", "PATH", CLI_VALUE_FILE, NULL, NULL,
     "write the HTML report here (required; written atomically)"},
    {"--clip", NULL, "NAME", CLI_VALUE_TEXT, NULL, NULL,
     "show only this clip, its findings and charts (default: every clip)"},
    {"--evidence-only", NULL, NULL, CLI_VALUE_NONE, NULL, "off",
     "leave out every pose, local transform and mesh: findings, gaps and charts only"},
    {"--compare-after", NULL, "AFTER", CLI_VALUE_FILE, NULL, NULL,
     "render a before/after comparison of <file> and AFTER"},
    {"--before-clip", NULL, "NAME", CLI_VALUE_TEXT, NULL, NULL,
     "the compared clip in <file> (required with --compare-after)"},
    {"--after-clip", NULL, "NAME", CLI_VALUE_TEXT, NULL, NULL,
     "the compared clip in AFTER (required with --compare-after)"},
    {"--lod", NULL, "CANDIDATE", CLI_VALUE_FILE, NULL, NULL,
     "add the mesh quality of a reduced (LOD) .glb/.gltf of <file>: its residual under the "
     "clips' motion and its worst samples marked on the mesh (not with --compare-after)"},
    END,
};
static const char *const report_examples[] = {
    "animsmith --config examples/walk.animsmith.toml report examples/assets/walk-dirty.glb -o "
    "report.html",
    "animsmith report character.glb -o evidence.html --evidence-only",
    "animsmith report character.glb -o lod.html --lod character.lod.glb",
    "animsmith report before.glb --compare-after after.glb --before-clip walk --after-clip walk "
    "-o comparison.html",
    NULL,
};

static const cli_option convert_options[] = {
    {"--output", "-o", "PATH", CLI_VALUE_FILE, NULL, NULL,
     "write the converted asset here: .glb, or .gltf with its images beside it (required)"},
    {"--animation-only", NULL, NULL, CLI_VALUE_NONE, NULL, "off",
     "write the skeleton and its clips only: no mesh, skin, material or texture"},
    {"--bake-static-mesh-transforms", NULL, NULL, CLI_VALUE_NONE, NULL, "off",
     "bake each unskinned, unanimated mesh's placement into its vertices under an identity "
     "root"},
    {"--material-texture-recipe", NULL, "RECIPE", CLI_VALUE_FILE, NULL, NULL,
     "attach the base colour, normal, metallic-roughness and occlusion images a recipe names "
     "to the source materials"},
    {"--format", NULL, "FORMAT", CLI_VALUE_CHOICE, "text json", "text",
     "output format: the write summary, or the conversion evidence as JSON"},
    END,
};
static const char *const convert_examples[] = {
    "animsmith convert Walking.fbx -o walking.glb",
    "animsmith convert examples/assets/mixamo-walk.fbx -o walk.glb --format json",
    "animsmith convert prop.fbx -o prop.glb --bake-static-mesh-transforms",
    NULL,
};

static const cli_option mesh_quality_options[] = {
    {"--mesh", NULL, "NAME", CLI_VALUE_TEXT, NULL, NULL,
     "glTF: measure this mesh (a name as inspect prints it); default every skinned mesh, "
     "against the candidate's mesh of the same index"},
    {"--envelope", NULL, "ENVELOPE", CLI_VALUE_FILE, NULL, NULL,
     "glTF: the declared motion as TOML (reference and one [[bone]] per other bound joint)"},
    {"--envelope-from-clips", NULL, NULL, CLI_VALUE_NONE, NULL, "off",
     "glTF: derive the envelope from the rotation, scale and translation ranges the source's "
     "clips reach"},
    {"--max-residual", NULL, "METRES", CLI_VALUE_NUMBER, NULL, NULL,
     "glTF: the bound, inclusive; without it the row is measured and undeclared"},
    {"--uv-grid", NULL, "N", CLI_VALUE_NUMBER, NULL, NULL,
     "glTF: sample the texel centres of an N x N grid instead of the base-colour texture's"},
    {"--format", NULL, "FORMAT", CLI_VALUE_CHOICE, "text json", "text",
     "output format: a reading per row, or the mesh-quality-report/1 document"},
    END,
};
static const char *const mesh_quality_examples[] = {
    "animsmith mesh-quality residual request.json --format json",
    "animsmith mesh-quality envelope ranges.json",
    "animsmith mesh-quality residual hero.glb hero_lod1.glb --envelope-from-clips "
    "--max-residual 0.005",
    NULL,
};

static const cli_option lod_options[] = {
    {"--output", "-o", "PATH", CLI_VALUE_FILE, NULL, NULL,
     "write the certified LOD here, a .glb (required); an existing file is replaced only on "
     "success"},
    {"--max-residual", NULL, "METRES", CLI_VALUE_NUMBER, NULL, NULL,
     "the bound on the skinning-envelope residual under the source's clips, inclusive "
     "(required unless --ratio)"},
    {"--mesh", NULL, "NAME", CLI_VALUE_TEXT, NULL, NULL,
     "reduce this mesh only (a name as inspect prints it); default every skinned mesh"},
    {"--ratio", NULL, "R", CLI_VALUE_NUMBER, NULL, NULL,
     "no search: write meshoptimizer's simplification at R (0 < R <= 1) of each primitive's "
     "index count and print its residual (with --max-residual, written only within it)"},
    {"--seams", NULL, "SEAMS", CLI_VALUE_CHOICE, "lock meshopt", "lock",
     "lock: UV and normal seams and open borders keep every vertex; meshopt: meshoptimizer's "
     "own seam handling (seams stay closed but get shorter)"},
    {"--format", NULL, "FORMAT", CLI_VALUE_CHOICE, "text json", "text",
     "output format: a line per mesh, or the animsmith-lod/1 object"},
    END,
};
static const char *const lod_examples[] = {
    "animsmith lod hero.glb -o hero_lod1.glb --max-residual 0.005",
    "animsmith lod hero.glb -o hero_half.glb --ratio 0.5 --seams meshopt --format json",
    NULL,
};

static const cli_option diff_options[] = {
    {"--format", NULL, "FORMAT", CLI_VALUE_CHOICE, "text json", "text", "output format"},
    END,
};
static const char *const diff_examples[] = {
    "animsmith diff before.glb after.glb",
    "animsmith diff baseline.json examples/assets/walk.glb --format json",
    NULL,
};

static const cli_option checks_options[] = {
    {"--format", NULL, "FORMAT", CLI_VALUE_CHOICE, "text json", "text", "output format"},
    END,
};
static const char *const checks_examples[] = {
    "animsmith checks",
    "animsmith checks --format json",
    NULL,
};

/* merge takes no option of its own: its reports carry everything. */
static const cli_option merge_options[] = {
    END,
};
static const char *const merge_examples[] = {
    "animsmith merge shard-1.json shard-2.json shard-3.json > lint.json",
    "animsmith merge measure-*.json > baseline.json",
    NULL,
};

/* generate: one table for every generator (the option pre-check reads the
 * command's table); a generator refuses an option it does not take. */
static const cli_option generate_options[] = {
    {"--format", NULL, "FORMAT", CLI_VALUE_CHOICE, "json text markdown", "json",
     "output format: json (the contract) or text/markdown (escaped views of the same value)"},
    END,
};
static const char *const generate_examples[] = {
    "animsmith generate addressability examples/assets/walk.glb > walk.addressability.json",
    "animsmith --config examples/bevy.animsmith.toml generate addressability "
    "examples/assets/walk.glb --format markdown",
    "animsmith --config examples/unity-advice.animsmith.toml generate import-advice "
    "examples/assets/mixamo-walk.fbx > walk.import-advice.json",
    NULL,
};

/* model: one table for every subcommand; a subcommand refuses the options
 * that are not its own. */
static const cli_option model_options[] = {
    {"--mcp", NULL, NULL, CLI_VALUE_NONE, NULL, "off",
     "serve: speak the Model Context Protocol (tools/list, tools/call) instead of plain "
     "JSON-RPC"},
    {"--store", NULL, "PATH", CLI_VALUE_TEXT, NULL, "none",
     "serve: the SQLite asset store behind model.publish, model.revisions and model.open by "
     "alias (created when absent)"},
    {"--request-id", NULL, "ID", CLI_VALUE_TEXT, NULL, "batch-N for the N-th batch",
     "apply: the batch's request id (repeating an id with the same batch replays it)"},
    {"--object", NULL, "NAME", CLI_VALUE_TEXT, NULL, NULL,
     "inspect: page a domain of this object instead of the document"},
    {"--domain", NULL, "DOMAIN", CLI_VALUE_TEXT, NULL, NULL,
     "inspect: the domain to page (required): overview, objects, materials, joints, clips, "
     "clip_keys; with --object: overview, vertices, faces, corners, edges, weights, solid"},
    {"--offset", NULL, "N", CLI_VALUE_NUMBER, NULL, "0", "inspect: the first row of the page"},
    {"--limit", NULL, "N", CLI_VALUE_NUMBER, NULL, "the engine's default",
     "inspect: rows per page (1 to 128)"},
    {"--output", "-o", "PATH", CLI_VALUE_FILE, NULL, NULL,
     "compile: write the GLB here (required; written atomically)"},
    {"--preview", NULL, NULL, CLI_VALUE_NONE, NULL, "off",
     "compile: the static draft: meshes, materials and textures at rest, no skin or animation"},
    END,
};
static const char *const model_examples[] = {
    "animsmith model serve < requests.jsonl",
    "animsmith model serve --mcp",
    "echo '[{\"op\":\"cube\",\"object\":\"body\",\"size\":[0.7,1,0.4]}]' | animsmith model "
    "apply robot.json -",
    "animsmith model inspect robot.json --object body --domain faces --limit 16",
    "animsmith model compile robot.json -o robot.glb",
    NULL,
};

static const cli_command_doc commands[] = {
    {"inspect", "describe a glTF/GLB or FBX asset: rig roles, skeleton, materials, mesh instances, clips",
     "animsmith inspect <file> [--format text|json]", "<file>: one .glb, .gltf or .fbx asset",
     inspect_options, inspect_examples},
    {"measure", "print the semantic metrics the checks judge, per clip, plus static asset evidence",
     "animsmith measure <file|dir...> [--format json|text] [--jobs N]",
     "<file|dir...>: assets, or directories searched recursively for .glb, .gltf and .fbx "
     "files",
     measure_options, measure_examples},
    {"lint", "judge assets against the contract (animsmith.toml): findings and coverage gaps",
     "animsmith lint <file|dir...> [--format text|json|markdown|sarif|junit] [--select id[,id]] "
     "[--allow id[,id]] [options]",
     "<file|dir...>: assets, or directories searched recursively for .glb, .gltf and .fbx "
     "files",
     lint_options, lint_examples},
    {"fix", "repair rotation keys losslessly, byte-surgically (repairs: quat-norm, quat-flip)",
     "animsmith fix <file> (-o <out> | --in-place | --dry-run) [--repair quat-norm,quat-flip]",
     "<file>: one .glb or .gltf asset", fix_options, fix_examples},
    {"transform",
     "mechanical clip edits: slice, hold, open a loop, resample, re-anchor a gait, compact",
     "animsmith transform <file> -o <out> [--clip NAME] [--slice START:END] "
     "[--hold-extend SECONDS] [--drop-duplicate-loop-endpoint] [--resample FPS] "
     "[--gait-anchor] [--reduce-keys MAX_ERROR_M] [--prune-constant-tracks] [--fps N]",
     "<file>: one .glb or .gltf asset (convert FBX first)", transform_options, transform_examples},
    {"report",
     "an offline HTML report: judged poses played back beside the findings and charts",
     "animsmith report <file> -o <report.html> [--clip NAME] [--evidence-only] [--lod "
     "CANDIDATE] | animsmith report <before> -o <comparison.html> --compare-after <after> --before-clip NAME "
     "--after-clip NAME [--evidence-only]",
     "<file>, <before>, <after>: .glb, .gltf or .fbx assets; CANDIDATE: .glb or .gltf",
     report_options, report_examples},
    {"convert",
     "convert an FBX (or glTF) export into a clean glTF: full scene or animation only",
     "animsmith convert <in.fbx|in.glb|in.gltf> -o <out.glb|out.gltf> "
     "[--material-texture-recipe RECIPE] [--animation-only|--bake-static-mesh-transforms] "
     "[--format text|json]",
     "<in>: one .fbx, .glb or .gltf asset", convert_options, convert_examples},
    {"mesh-quality",
     "how far a reduced (LOD) skinned mesh can draw a surface point from where its source does",
     "animsmith mesh-quality residual <request.json> [--format text|json] | animsmith "
     "mesh-quality residual <source.glb> <candidate.glb> [--mesh NAME] [--envelope ENVELOPE | "
     "--envelope-from-clips] [--max-residual METRES] [--uv-grid N] [--format text|json] | "
     "animsmith mesh-quality envelope <ranges.json> [--format text|json]",
     "request.json: a flat (2-D) mesh-quality request; source.glb, candidate.glb: a skinned "
     "asset and a reduced version of it; ranges.json: declared bone-motion ranges. Exit 1 when "
     "a row fails its bound, is refused or is not measurable",
     mesh_quality_options, mesh_quality_examples},
    {"lod",
     "the smallest LOD of each skinned mesh whose residual under the clips stays in a bound",
     "animsmith lod <source.glb> -o <out.glb> --max-residual METRES [--mesh NAME] "
     "[--ratio R] [--seams lock|meshopt] [--format text|json]",
     "<source.glb>: a skinned glTF asset (.glb or .gltf). Exit 1 when a residual is refused, "
     "not measurable or over the bound; nothing is written then",
     lod_options, lod_examples},
    {"diff", "compare the clip measurements of two revisions (assets or measure/lint JSON reports)",
     "animsmith diff <before> <after> [--format text|json]",
     "<before> <after>: two assets, or measure/lint JSON reports of ours", diff_options,
     diff_examples},
    {"merge", "join the JSON reports of a run's shards (--shard K/N) into the report of one run",
     "animsmith merge <report.json...>",
     "<report.json...>: the lint or measure JSON reports of every shard of one run, any order",
     merge_options, merge_examples},
    {"checks", "list every check: id, family, default severity and what it judges",
     "animsmith checks [--format text|json]", NULL, checks_options, checks_examples},
    {"generate",
     "standalone evidence documents: glTF addressability, engine import advice",
     "animsmith generate addressability <file.glb|file.gltf> [--format json|text|markdown] | "
     "animsmith generate import-advice <file> [--format json|text|markdown] | animsmith generate "
     "contact-fragment",
     "addressability: the animation inventory and, under an exact Bevy profile, its selectors "
     "and target ids; import-advice: importer settings of an exact engine profile; "
     "contact-fragment: not available yet (it waits for the collection contracts)",
     generate_options, generate_examples},
    {"model",
     "author models: serve the engine over JSON-RPC or MCP, or apply, inspect and compile a "
     "journal",
     "animsmith model serve [--mcp] | animsmith model apply DOC.json BATCH.json|- "
     "[--request-id ID] | animsmith model inspect DOC.json [--object NAME] --domain DOMAIN "
     "[--offset N] [--limit N] | animsmith model compile DOC.json -o OUT.glb [--preview]",
     "serve: one JSON-RPC 2.0 request per line on stdin, one reply per line on stdout, until "
     "EOF; DOC.json: a model journal (the batches that built the document, created by the "
     "first apply); BATCH.json: a JSON array of operations, or - for stdin. Exit 1 when a "
     "compile is refused by a lint error finding, 2 for any other refusal",
     model_options, model_examples},
};
#define COMMAND_COUNT (sizeof commands / sizeof *commands)

size_t cli_command_doc_count(void)
{
    return COMMAND_COUNT;
}

const cli_command_doc *cli_command_doc_at(size_t index)
{
    return index < COMMAND_COUNT ? &commands[index] : NULL;
}

const cli_command_doc *cli_command_doc_find(const char *name)
{
    for (size_t c = 0; c < COMMAND_COUNT; c++)
        if (strcmp(commands[c].name, name) == 0)
            return &commands[c];
    return NULL;
}

const cli_option *cli_common_options(void)
{
    return common_options;
}

const cli_option *cli_global_options(void)
{
    return global_options;
}

static bool spells(const cli_option *opt, const char *arg)
{
    size_t n = strlen(opt->flag);
    if (strncmp(arg, opt->flag, n) == 0 && (arg[n] == '\0' || (arg[n] == '=' && opt->value_name)))
        return true;
    if (!opt->short_flag)
        return false;
    n = strlen(opt->short_flag);
    return strncmp(arg, opt->short_flag, n) == 0 &&
           (arg[n] == '\0' || (arg[n] == '=' && opt->value_name));
}

const cli_option *cli_option_lookup(const cli_command_doc *cmd, const char *arg)
{
    for (const cli_option *o = cmd->options; o && o->flag; o++)
        if (spells(o, arg))
            return o;
    for (const cli_option *o = common_options; o->flag; o++)
        if (spells(o, arg))
            return o;
    return NULL;
}

void cli_option_spelling(const cli_option *opt, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s%s%s%s%s", opt->short_flag ? opt->short_flag : "",
             opt->short_flag ? ", " : "", opt->flag, opt->value_name ? " <" : "",
             opt->value_name ? opt->value_name : "", opt->value_name ? ">" : "");
}

/* Writes text word-wrapped to 79 columns, continuation lines indented to
 * column `indent` (the first line starts at column `at`). */
static void put_wrapped(const char *text, size_t at, size_t indent, FILE *out)
{
    enum { WIDTH = 79 };
    const char *p = text;
    size_t col = at;
    while (*p) {
        size_t word = strcspn(p, " ");
        if (col > indent && col + 1 + word > WIDTH) {
            fprintf(out, "\n%*s", (int)indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, word, out);
        col += word;
        p += word;
        while (*p == ' ')
            p++;
    }
    fputc('\n', out);
}

static void print_options(const cli_option *opts, FILE *out)
{
    enum { LEFT = 24 };
    for (const cli_option *o = opts; o->flag; o++) {
        char left[64], text[512];
        cli_option_spelling(o, left, sizeof left);
        snprintf(text, sizeof text, "%s%s%s%s", o->help, o->default_text ? " (default: " : "",
                 o->default_text ? o->default_text : "", o->default_text ? ")" : "");
        int used = fprintf(out, "  %-*s", LEFT - 2, left);
        if (used > LEFT) {
            fprintf(out, "\n%*s", LEFT, "");
            used = LEFT;
        }
        put_wrapped(text, (size_t)used, LEFT, out);
    }
}

void cli_print_command_help(const cli_command_doc *cmd, FILE *out)
{
    fprintf(out, "%s\n\nUsage: %s\n", cmd->summary, cmd->usage);
    if (cmd->operands) {
        fputs("\n  ", out);
        put_wrapped(cmd->operands, 2, 4, out);
    }
    fputs("\nOptions:\n", out);
    print_options(cmd->options, out);
    print_options(common_options, out);
    fputs("\nExamples:\n", out);
    for (size_t e = 0; cmd->examples[e]; e++)
        fprintf(out, "  %s\n", cmd->examples[e]);
}

void cli_print_top_help(const char *version, FILE *out)
{
    fprintf(out, "animsmith %s: is this animation clip game-ready?\n\n", version);
    fputs("Usage: animsmith [--config <FILE>] <command> [args]\n\nCommands:\n", out);
    /* One column for the names, as wide as the longest. */
    int width = 0;
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if ((int)strlen(commands[i].name) > width)
            width = (int)strlen(commands[i].name);
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        fprintf(out, "  %-*s %s\n", width, commands[i].name, commands[i].summary);
    fputs("\nGlobal options:\n", out);
    print_options(global_options, out);
    fputs("\nExit codes: 0 no failing findings, 1 failing findings, 2 operator error.\n", out);
}
