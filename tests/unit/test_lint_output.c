/* Lint renderers (text, Markdown, the JSON envelope) and the embedded
 * measurements object.
 *
 * Two kinds of input: real runs of anim_lint_run over the example assets
 * (whose text is the documented example output, pinned byte for byte),
 * and hand-built results that exercise every optional field, the gap
 * grouping and the `, … +k more` rule, --allow and hostile names. JSON
 * output is parsed back with our own reader to check its structure and
 * that every summary partition sums to its total. The long exact JSON
 * expectations are golden files in tests/golden/ (see assert_golden). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/json.h"
#include "animsmith/measure.h"
#include "animsmith/measure_loop.h"
#include "animsmith/report.h"

/* ---- helpers ------------------------------------------------------------ */

static void assert_text(const anim_strbuf *sb, const char *expected)
{
    assert_false(sb->failed);
    const char *got = sb->data ? sb->data : "";
    if (strcmp(got, expected) != 0) {
        fprintf(stderr, "---- expected ----\n%s---- got ----\n%s---- end ----\n", expected, got);
        fail();
    }
}

/* ---- golden files --------------------------------------------------------
 *
 * Long exact expectations live in tests/golden/ so they can be diffed and
 * reviewed as files rather than as C string literals. They are found under
 * $ANIMSMITH_SOURCE_DIR (set by CTest), else under the working directory
 * (the tests run from the repository root). The comparison is exact, byte
 * for byte; every golden file ends with one newline, so writer output that
 * has none gets one before the comparison (see assert_golden's callers).
 *
 * ANIMSMITH_UPDATE_GOLDEN=1 rewrites a mismatching file with what was
 * produced and still fails the test: every regenerated value must be
 * reviewed (git diff) against the documented behaviour before it is
 * accepted. */

static void golden_path(const char *name, char *buf, size_t cap)
{
    const char *root = getenv("ANIMSMITH_SOURCE_DIR");
    snprintf(buf, cap, "%s/tests/golden/%s", root && *root ? root : ".", name);
}

/* The whole file, NUL-terminated (malloc'd; the caller frees), or NULL. */
static char *read_file_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        char *grown = realloc(buf, cap * 2);
        if (!grown) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

static void assert_golden(const anim_strbuf *sb, const char *name)
{
    assert_false(sb->failed);
    const char *got = sb->data ? sb->data : "";
    size_t got_len = sb->data ? sb->len : 0;
    char path[1024];
    golden_path(name, path, sizeof path);
    size_t want_len = 0;
    char *want = read_file_all(path, &want_len);
    if (want && want_len == got_len && memcmp(want, got, got_len) == 0) {
        free(want);
        return;
    }
    if (!want)
        fprintf(stderr, "cannot read golden file %s\n", path);
    else
        fprintf(stderr, "---- expected (%s) ----\n%s---- got ----\n%s---- end ----\n", path,
                want, got);
    free(want);
    const char *update = getenv("ANIMSMITH_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        FILE *f = fopen(path, "wb");
        bool ok = f && fwrite(got, 1, got_len, f) == got_len;
        if (f && fclose(f) != 0)
            ok = false;
        fprintf(stderr, ok ? "rewrote %s: review the diff, then rerun\n"
                           : "could not rewrite %s\n",
                path);
    }
    fail();
}

/* For writer output that does not end in a newline. */
static void assert_golden_line(anim_strbuf *sb, const char *name)
{
    anim_strbuf_putc(sb, '\n');
    assert_golden(sb, name);
}

static const anim_json_value *get(const anim_json_value *obj, const char *key)
{
    const anim_json_value *v = anim_json_get(obj, key);
    if (!v)
        fprintf(stderr, "missing key %s\n", key);
    assert_non_null(v);
    return v;
}

static int64_t get_int(const anim_json_value *obj, const char *key)
{
    const anim_json_value *v = get(obj, key);
    assert_int_equal(v->type, ANIM_JSON_NUMBER);
    assert_true(anim_json_is_integer(v));
    return anim_json_integer(v);
}

/* Strings are copied into this arena to get C strings (freed at exit of
 * each test through release_strings). */
static anim_arena *g_strings;

static const char *get_str(const anim_json_value *obj, const char *key)
{
    const anim_json_value *v = get(obj, key);
    assert_int_equal(v->type, ANIM_JSON_STRING);
    if (!g_strings)
        g_strings = anim_arena_new();
    const char *s = anim_json_strdup(g_strings, v);
    assert_non_null(s);
    return s;
}

static int release_strings(void **state)
{
    (void)state;
    anim_arena_free(g_strings);
    g_strings = NULL;
    return 0;
}

/* The member keys of an object, in order, joined by ",". */
static void keys_of(const anim_json_value *obj, char *buf, size_t cap)
{
    assert_int_equal(obj->type, ANIM_JSON_OBJECT);
    buf[0] = 0;
    for (size_t i = 0; i < anim_json_count(obj); i++) {
        const anim_json_member *m = anim_json_member_at(obj, i);
        size_t room = cap - strlen(buf) - 1;
        if (i)
            strncat(buf, ",", room--);
        strncat(buf, m->key, anim_json_key_len(m) < room ? anim_json_key_len(m) : room);
    }
}

static void assert_keys(const anim_json_value *obj, const char *expected)
{
    char buf[1024];
    keys_of(obj, buf, sizeof buf);
    assert_string_equal(buf, expected);
}

/* Every summary partition sums to its total and matches the records. */
static void assert_summary_consistent(const anim_json_value *root)
{
    const anim_json_value *summary = get(root, "summary");
    const anim_json_value *files = get(root, "files");
    assert_int_equal(get_int(summary, "files"), (int64_t)anim_json_count(files));
    const anim_json_value *checks = get(summary, "checks");
    int64_t total = get_int(checks, "total");
    const anim_json_value *sel = get(checks, "selection");
    assert_int_equal(get_int(sel, "selected") + get_int(sel, "unselected"), total);
    const anim_json_value *conf = get(checks, "configuration");
    assert_int_equal(get_int(conf, "enabled") + get_int(conf, "disabled"), total);
    const anim_json_value *app = get(checks, "applicability");
    assert_int_equal(get_int(app, "applicable") + get_int(app, "not_applicable"), total);
    const anim_json_value *ev = get(checks, "evaluation");
    assert_int_equal(get_int(ev, "complete") + get_int(ev, "partial") +
                         get_int(ev, "not_evaluated"),
                     total);
    const anim_json_value *pf = get(summary, "prediction_facets");
    assert_int_equal(get_int(pf, "available"), 0);
    assert_int_equal(get_int(pf, "required_prediction_unavailable"), 0);

    /* Recount from the records. */
    int64_t records = 0, selected = 0, enabled = 0, applicable = 0, complete = 0, partial = 0,
            gaps = 0, errors = 0, warnings = 0, notes = 0;
    for (size_t f = 0; f < anim_json_count(files); f++) {
        const anim_json_value *file = anim_json_item(files, f);
        assert_keys(file, "path,input,rig,measurements,prediction_provenance,checks");
        assert_int_equal(get(file, "prediction_provenance")->type, ANIM_JSON_NULL);
        const anim_json_value *recs = get(file, "checks");
        for (size_t r = 0; r < anim_json_count(recs); r++) {
            const anim_json_value *rec = anim_json_item(recs, r);
            records++;
            selected += strcmp(get_str(rec, "selection"), "selected") == 0;
            enabled += strcmp(get_str(rec, "configuration"), "enabled") == 0;
            applicable += strcmp(get_str(rec, "applicability"), "applicable") == 0;
            complete += strcmp(get_str(rec, "evaluation"), "complete") == 0;
            partial += strcmp(get_str(rec, "evaluation"), "partial") == 0;
            const anim_json_value *fs = get(rec, "findings");
            assert_int_equal(fs->type, ANIM_JSON_ARRAY);
            for (size_t i = 0; i < anim_json_count(fs); i++) {
                const char *sev = get_str(anim_json_item(fs, i), "severity");
                errors += strcmp(sev, "error") == 0;
                warnings += strcmp(sev, "warning") == 0;
                notes += strcmp(sev, "note") == 0;
                assert_string_equal(get_str(anim_json_item(fs, i), "check_id"),
                                    get_str(rec, "check_id"));
            }
            const anim_json_value *g = anim_json_get(rec, "gaps");
            if (g) {
                assert_true(anim_json_count(g) > 0); /* omitted when empty */
                gaps += (int64_t)anim_json_count(g);
            }
            const anim_json_value *s = anim_json_get(rec, "evaluated_scopes");
            if (s)
                assert_true(anim_json_count(s) > 0);
        }
    }
    assert_int_equal(records, total);
    assert_int_equal(selected, get_int(sel, "selected"));
    assert_int_equal(enabled, get_int(conf, "enabled"));
    assert_int_equal(applicable, get_int(app, "applicable"));
    assert_int_equal(complete, get_int(ev, "complete"));
    assert_int_equal(partial, get_int(ev, "partial"));
    assert_int_equal(gaps, get_int(checks, "gaps"));
    const anim_json_value *fc = get(summary, "findings");
    assert_keys(fc, "error,warning,note");
    assert_int_equal(get_int(fc, "error"), errors);
    assert_int_equal(get_int(fc, "warning"), warnings);
    assert_int_equal(get_int(fc, "note"), notes);
}

static anim_json_value *parse(anim_arena *arena, const anim_strbuf *sb)
{
    anim_error err;
    anim_json_value *root = anim_json_parse(arena, sb->data, sb->len, NULL, &err);
    if (!root)
        fprintf(stderr, "JSON does not parse: %s\n", err.message);
    assert_non_null(root);
    return root;
}

/* ---- example assets ---------------------------------------------------- */

typedef struct {
    anim_asset *asset;
    anim_lint_file file;
    anim_measurements measurements;
} linted;

static void lint_example(const char *name, const anim_config *cfg, anim_arena *arena,
                         linted *out)
{
    char path[512];
    snprintf(path, sizeof path, "examples/assets/%s", name);
    anim_error err;
    out->asset = anim_asset_load(path, NULL, &err);
    if (!out->asset)
        fprintf(stderr, "%s\n", err.message);
    assert_non_null(out->asset);
    assert_int_equal(anim_lint_run(out->asset, cfg, NULL, &out->file, &err), 0);
    /* What `lint` embeds (cmd_lint.c): the clip facts plus the static
     * asset evidence of the loaded file. */
    assert_int_equal(anim_measure_asset_document(out->asset, &out->file.rig, cfg, arena,
                                                 &out->measurements, &err),
                     0);
}

static void release(linted *l)
{
    anim_lint_file_free(&l->file);
    anim_asset_free(l->asset);
}

static const char CLIP_TEXT[] =
    "examples/assets/clip.glb:\n"
    "  coverage[bind-pose] insufficient_rotation_evidence \xc3\x97" "1 (scopes: "
    "first_frame_rest_delta; subjects: swing): only 1 usable first-frame rotation track(s); at "
    "least three are required\n";
static const char CLIP_DIRTY_TEXT[] =
    "examples/assets/clip-dirty.glb:\n"
    "  error[quat-norm] clip 'swing' bone 'spine' @0.500s: non-unit rotation key (worst at key "
    "2) (measured 1.0500, expected 1.0000)\n"
    "  warning[quat-flip] clip 'swing' bone 'spine' @0.750s: 2 hemisphere flip(s) between "
    "adjacent rotation keys (first between keys 2 and 3) \xe2\x80\x94 engines without "
    "neighborhood correction will spin the long way (measured 2.0000)\n"
    "  coverage[bind-pose] insufficient_rotation_evidence \xc3\x97" "1 (scopes: "
    "first_frame_rest_delta; subjects: swing): only 1 usable first-frame rotation track(s); at "
    "least three are required\n";
static const char WALK_DIRTY_TEXT[] =
    "examples/assets/walk-dirty.glb:\n"
    "  coverage[bind-pose] insufficient_rotation_evidence \xc3\x97" "1 (scopes: "
    "first_frame_rest_delta; subjects: walk): only 0 usable first-frame rotation track(s); at "
    "least three are required\n";

/* The documented lint text of the examples, all three default-config runs
 * in one invocation. */
static void test_text_examples(void **state)
{
    (void)state;
    anim_error err;
    anim_config *cfg = anim_config_default(&err);
    assert_non_null(cfg);
    anim_arena *arena = anim_arena_new();
    linted l[3];
    lint_example("clip.glb", cfg, arena, &l[0]);
    lint_example("clip-dirty.glb", cfg, arena, &l[1]);
    lint_example("walk-dirty.glb", cfg, arena, &l[2]);
    anim_lint_file files[3] = {l[0].file, l[1].file, l[2].file};

    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_render_lint_text(&files[1], 1, NULL, &sb);
    char want[4096];
    snprintf(want, sizeof want, "%s%s", CLIP_DIRTY_TEXT,
             "1 error(s), 1 warning(s), 0 note(s), 1 coverage gap(s), 0 available prediction "
             "facet(s), 0 required-unavailable prediction facet(s)\n");
    assert_text(&sb, want);

    anim_strbuf_reset(&sb);
    anim_render_lint_text(files, 3, NULL, &sb);
    snprintf(want, sizeof want, "%s%s%s%s", CLIP_TEXT, CLIP_DIRTY_TEXT, WALK_DIRTY_TEXT,
             "1 error(s), 1 warning(s), 0 note(s), 3 coverage gap(s), 0 available prediction "
             "facet(s), 0 required-unavailable prediction facet(s)\n");
    assert_text(&sb, want);

    /* --allow hides the findings (and their counts), never the gaps. */
    const char *allow[] = {"quat-norm", "quat-flip"};
    anim_lint_render_options opts = {allow, 2, {NULL, NULL, ANIM_SOURCE_DIRTY_UNKNOWN},
                                     false, false};
    anim_strbuf_reset(&sb);
    anim_render_lint_text(&files[1], 1, &opts, &sb);
    assert_text(&sb,
                "examples/assets/clip-dirty.glb:\n"
                "  coverage[bind-pose] insufficient_rotation_evidence \xc3\x97" "1 (scopes: "
                "first_frame_rest_delta; subjects: swing): only 1 usable first-frame rotation "
                "track(s); at least three are required\n"
                "0 error(s), 0 warning(s), 0 note(s), 1 coverage gap(s), 0 available prediction "
                "facet(s), 0 required-unavailable prediction facet(s)\n");

    anim_strbuf_free(&sb);
    for (int i = 0; i < 3; i++)
        release(&l[i]);
    anim_arena_free(arena);
    anim_config_free(cfg);
}

static void test_markdown_example(void **state)
{
    (void)state;
    anim_error err;
    anim_config *cfg = anim_config_default(&err);
    anim_arena *arena = anim_arena_new();
    linted l;
    lint_example("clip-dirty.glb", cfg, arena, &l);
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_render_lint_markdown(&l.file, 1, NULL, &sb);
    assert_text(
        &sb,
        "## animsmith lint\n"
        "\n"
        "### `examples/assets/clip-dirty.glb`\n"
        "\n"
        "\xe2\x9d\x8c 1 error(s) \xc2\xb7 \xe2\x9a\xa0\xef\xb8\x8f 1 warning(s) \xc2\xb7 "
        "\xe2\x84\xb9\xef\xb8\x8f 0 note(s)\n"
        "\n"
        "<details open>\n"
        "<summary><strong>2 findings</strong></summary>\n"
        "\n"
        "\n"
        "#### clip `swing`\n"
        "\n"
        "| Severity | Check | Location | Measured | Expected | Message |\n"
        "| --- | --- | --- | --- | --- | --- |\n"
        "| \xe2\x9d\x8c error | `quat-norm` | bone `spine` @0.500s | `1.0500` | `1.0000` | "
        "`non-unit rotation key (worst at key 2)` |\n"
        "| \xe2\x9a\xa0\xef\xb8\x8f warning | `quat-flip` | bone `spine` @0.750s | `2.0000` | "
        "\xe2\x80\x94 | `2 hemisphere flip(s) between adjacent rotation keys (first between "
        "keys 2 and 3) \xe2\x80\x94 engines without neighborhood correction will spin the long "
        "way` |\n"
        "\n"
        "</details>\n"
        "\n"
        "<details open>\n"
        "<summary><strong>1 coverage gap(s)</strong></summary>\n"
        "\n"
        "| Check | Code | Count | Scopes | Subjects | Messages |\n"
        "| --- | --- | ---: | --- | --- | --- |\n"
        "| `bind-pose` | `insufficient_rotation_evidence` | 1 | `first_frame_rest_delta` | "
        "`swing` | `only 1 usable first-frame rotation track(s); at least three are required` "
        "|\n"
        "\n"
        "</details>\n"
        "\n"
        "---\n"
        "\n"
        "**1 file** \xe2\x80\x94 \xe2\x9d\x8c 1 error(s) \xc2\xb7 \xe2\x9a\xa0\xef\xb8\x8f 1 "
        "warning(s) \xc2\xb7 \xe2\x84\xb9\xef\xb8\x8f 0 note(s) \xc2\xb7 1 coverage gap(s) "
        "\xc2\xb7 0 available prediction facet(s) \xc2\xb7 0 required-unavailable prediction "
        "facet(s)\n");
    anim_strbuf_free(&sb);
    release(&l);
    anim_arena_free(arena);
    anim_config_free(cfg);
}

static void test_json_example(void **state)
{
    (void)state;
    anim_error err;
    anim_config *cfg = anim_config_default(&err);
    anim_arena *arena = anim_arena_new();
    linted l[2];
    lint_example("clip-dirty.glb", cfg, arena, &l[0]);
    lint_example("walk.glb", cfg, arena, &l[1]);

    /* The embedded measurements, exactly. */
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &sb, true);
    assert_int_equal(anim_measurements_write_json(&l[0].measurements, &w, &err), 0);
    assert_true(anim_json_writer_ok(&w));
    assert_golden_line(&sb, "clip-dirty.measurements.json");

    anim_lint_json_input in[2] = {{&l[0].file, &l[0].asset->doc, &l[0].measurements},
                                  {&l[1].file, &l[1].asset->doc, &l[1].measurements}};
    anim_lint_render_options opts = {NULL, 0, {"0.4.3", NULL, ANIM_SOURCE_DIRTY_UNKNOWN},
                                     false, false};
    anim_strbuf_reset(&sb);
    assert_int_equal(anim_render_lint_json(in, 2, &opts, &sb, &err), 0);
    assert_true(sb.len > 0 && sb.data[sb.len - 1] == '\n');
    assert_true(sb.len < 2 || sb.data[sb.len - 2] == '}');

    /* Header bytes, exactly (serde_json pretty layout). */
    const char head[] = "{\n"
                        "  \"schema_version\": 19,\n"
                        "  \"schema\": \"urn:animsmith:schema:output:19\",\n"
                        "  \"tool\": {\n"
                        "    \"name\": \"animsmith\",\n"
                        "    \"version\": \"0.4.3\",\n"
                        "    \"source\": {\n"
                        "      \"revision\": null,\n"
                        "      \"dirty\": null\n"
                        "    }\n"
                        "  },\n"
                        "  \"command\": \"lint\",\n"
                        "  \"summary\": {\n"
                        "    \"files\": 2,\n";
    assert_memory_equal(sb.data, head, sizeof head - 1);
    /* The quat-norm finding: time_s as f32, measured the widened length. */
    assert_non_null(strstr(sb.data, "            {\n"
                                    "              \"check_id\": \"quat-norm\",\n"
                                    "              \"severity\": \"error\",\n"
                                    "              \"clip\": \"swing\",\n"
                                    "              \"bone\": \"spine\",\n"
                                    "              \"time_s\": 0.5,\n"
                                    "              \"measured\": 1.0500000"));
    assert_non_null(strstr(sb.data, "              \"expected\": 1.0,\n"
                                    "              \"message\": \"non-unit rotation key (worst "
                                    "at key 2)\"\n"));
    assert_non_null(strstr(sb.data, "      \"rig\": {\n"
                                    "        \"profile\": \"ue-mannequin\",\n"
                                    "        \"resolution_outcome\": \"coverage\",\n"
                                    "        \"resolved_roles\": {\n"
                                    "          \"hips\": \"pelvis\",\n"
                                    "          \"left_foot\": \"foot_l\",\n"
                                    "          \"right_foot\": \"foot_r\"\n"
                                    "        },\n"
                                    "        \"resolved_role_policies\": {\n"
                                    "          \"hips\": \"exact\",\n"));

    anim_arena *parse_arena = anim_arena_new();
    const anim_json_value *root = parse(parse_arena, &sb);
    assert_keys(root, "schema_version,schema,tool,command,summary,files");
    assert_keys(get(root, "summary"), "files,findings,checks,prediction_facets");
    assert_keys(get(get(root, "summary"), "checks"),
                "total,selection,configuration,applicability,evaluation,gaps");
    assert_summary_consistent(root);
    const anim_json_value *files = get(root, "files");
    assert_int_equal(anim_json_count(files), 2);
    const anim_json_value *f0 = anim_json_item(files, 0);
    assert_string_equal(get_str(f0, "path"), "examples/assets/clip-dirty.glb");
    const anim_json_value *input = get(f0, "input");
    assert_keys(input, "sha256,bytes");
    assert_int_equal(strlen(get_str(input, "sha256")), 64);
    assert_int_equal(get_int(input, "bytes"), (int64_t)l[0].asset->source.byte_count);
    assert_keys(get(f0, "rig"), "profile,resolution_outcome,resolved_roles,resolved_role_policies");
    assert_string_equal(get_str(get(f0, "rig"), "profile"), "unknown");
    const anim_json_value *checks = get(f0, "checks");
    assert_int_equal(anim_json_count(checks), anim_check_count());
    for (size_t i = 0; i < anim_json_count(checks); i++)
        assert_string_equal(get_str(anim_json_item(checks, i), "check_id"), anim_check_at(i)->id);
    /* quat-norm: measured decodes to the f32 length widened. */
    const anim_json_value *qn = NULL;
    for (size_t i = 0; i < anim_json_count(checks); i++)
        if (strcmp(get_str(anim_json_item(checks, i), "check_id"), "quat-norm") == 0)
            qn = anim_json_item(checks, i);
    assert_non_null(qn);
    assert_keys(qn, "check_id,selection,configuration,applicability,evaluation,findings");
    const anim_json_value *fnd = anim_json_item(get(qn, "findings"), 0);
    assert_keys(fnd, "check_id,severity,clip,bone,time_s,measured,expected,message");
    assert_true(anim_json_number(get(fnd, "measured")) > 1.05 &&
                anim_json_number(get(fnd, "measured")) < 1.0500001);
    /* The disabled opt-in check and a not-applicable one. */
    const anim_json_value *cns = anim_json_item(checks, 7);
    assert_string_equal(get_str(cns, "check_id"), "constant-nonunit-scale");
    assert_string_equal(get_str(cns, "configuration"), "disabled");
    assert_string_equal(get_str(cns, "evaluation"), "not_evaluated");
    const anim_json_value *bp = anim_json_item(checks, 24);
    assert_string_equal(get_str(bp, "check_id"), "bind-pose");
    assert_keys(bp, "check_id,selection,configuration,applicability,evaluation,findings,gaps");
    assert_keys(anim_json_item(get(bp, "gaps"), 0), "code,message,scope");
    assert_keys(get(anim_json_item(get(bp, "gaps"), 0), "scope"), "code,subject");

    /* walk.glb: Hips and both feet resolved, a grid exists -> every sampled
     * fact is measured (in per-clip field order); no loop or fps is
     * declared, so loop_endpoint_mode and frame_grid are only their
     * availabilities. */
    const anim_json_value *walk =
        get(get(get(anim_json_item(files, 1), "measurements"), "clips"), "walk");
    assert_keys(walk, "duration_s,frame_count,animated_bones,bone_channels,"
                      "bone_rotation_range_deg,loop_continuity,loop_continuity_availability,"
                      "loop_endpoint_mode_availability,frame_grid_availability,"
                      "loop_seam_ratio,loop_seam_ratio_availability,gait,gait_availability,"
                      "root_trajectory,root_trajectory_availability,speed_mps,"
                      "speed_mps_availability");

    anim_arena_free(parse_arena);
    anim_strbuf_free(&sb);
    release(&l[0]);
    release(&l[1]);
    anim_arena_free(arena);
    anim_config_free(cfg);
}

/* ---- hand-built results -------------------------------------------------- */

#define NREC 5

typedef struct {
    anim_check_record records[NREC];
    anim_finding nan_findings[2];
    anim_finding flip_findings[2];
    anim_finding gait_findings[1];
    anim_finding seam_findings[1];
    anim_member_measurement walk_mm[2];
    anim_member_measurement run_mm[1];
    anim_member_row rows[2];
    anim_gap bind_gaps[9];
    anim_gap nan_gaps[1];
    anim_scope nan_scopes[1];
    anim_lint_file file;
} hand_result;

static anim_finding finding(const char *id, anim_severity sev, const char *clip, const char *msg)
{
    anim_finding f;
    memset(&f, 0, sizeof f);
    f.check_id = id;
    f.severity = sev;
    f.clip = clip;
    f.message = msg;
    return f;
}

static void init_rig(anim_rig_resolution *rig)
{
    memset(rig, 0, sizeof *rig);
    strcpy(rig->label, "unknown");
    rig->outcome = ANIM_RIG_OUTCOME_COVERAGE;
    for (int r = 0; r < ANIM_ROLE_COUNT; r++) {
        rig->bone[r] = ANIM_NONE;
        rig->ambiguous_bone[r][0] = rig->ambiguous_bone[r][1] = ANIM_NONE;
    }
}

static void record(anim_check_record *rec, const char *id)
{
    memset(rec, 0, sizeof *rec);
    rec->check_id = id;
    rec->selected = rec->enabled = rec->applicable = true;
    rec->evaluation = ANIM_EVAL_COMPLETE;
}

/* Records in this (catalog-like) order: nan, quat-flip, gait-group,
 * loop-seam, bind-pose. */
static void build_hand(hand_result *h, const char *path)
{
    memset(h, 0, sizeof *h);
    record(&h->records[0], "nan");
    record(&h->records[1], "quat-flip");
    record(&h->records[2], "gait-group");
    record(&h->records[3], "loop-seam");
    record(&h->records[4], "bind-pose");

    h->nan_findings[0] = finding("nan", ANIM_SEVERITY_ERROR, NULL, "file-level problem");
    anim_finding *n = &h->nan_findings[1];
    *n = finding("nan", ANIM_SEVERITY_NOTE, "b\x1b" "clip", "tab\there");
    n->bone = "bo|ne`";
    n->node = "nodes/0:root";
    n->has_time = true;
    n->time_s = (double)0.25f;
    n->measured = anim_value_number(0.123456);
    n->expected = anim_value_text("1.0 m");
    h->records[0].findings = h->nan_findings;
    h->records[0].finding_count = 2;
    h->nan_scopes[0].code = "nan_scope";
    h->records[0].scopes = h->nan_scopes;
    h->records[0].scope_count = 1;
    h->nan_gaps[0].code = "zzz_code";
    h->nan_gaps[0].message = "gap message";
    h->nan_gaps[0].has_scope = true;
    h->nan_gaps[0].scope.code = "nan_scope";
    h->records[0].gaps = h->nan_gaps;
    h->records[0].gap_count = 1;
    h->records[0].evaluation = ANIM_EVAL_PARTIAL;

    anim_finding *f = &h->flip_findings[0];
    *f = finding("quat-flip", ANIM_SEVERITY_WARNING, "a", "flips");
    f->has_time = true;
    f->time_s = 1.0;
    f->measured = anim_value_number(2.0);
    f = &h->flip_findings[1];
    *f = finding("quat-flip", ANIM_SEVERITY_WARNING, "a", "expected only");
    f->expected = anim_value_number(3.0);
    h->records[1].findings = h->flip_findings;
    h->records[1].finding_count = 2;

    h->walk_mm[0].key = "note";
    h->walk_mm[0].value = anim_value_text("late");
    h->walk_mm[1].key = "phase";
    h->walk_mm[1].value = anim_value_number(0.5);
    h->run_mm[0].key = "phase";
    h->run_mm[0].value = anim_value_none();
    h->rows[0].member = "walk";
    h->rows[0].measurements = h->walk_mm;
    h->rows[0].measurement_count = 2;
    h->rows[1].member = "run";
    h->rows[1].measurements = h->run_mm;
    h->rows[1].measurement_count = 1;
    f = &h->gait_findings[0];
    *f = finding("gait-group", ANIM_SEVERITY_ERROR, NULL, "members disagree");
    f->measured = anim_value_number(0.3);
    f->expected = anim_value_number(0.1);
    f->members = h->rows;
    f->member_count = 2;
    h->records[2].findings = h->gait_findings;
    h->records[2].finding_count = 1;

    h->seam_findings[0] = finding("loop-seam", ANIM_SEVERITY_ERROR, "a", "seam pops");
    h->records[3].findings = h->seam_findings;
    h->records[3].finding_count = 1;

    /* 8 gaps over 7 distinct subjects (one repeated), 2 messages, plus one
     * scopeless gap of another code. */
    static const char *const subjects[8] = {"walk_7", "walk_1", "walk_3", "walk_2",
                                            "walk_6", "walk_3", "walk_5", "walk_4"};
    for (int i = 0; i < 8; i++) {
        anim_gap *g = &h->bind_gaps[i];
        g->code = "insufficient_rotation_evidence";
        g->message = i % 2 ? "only 0 usable" : "only 1 usable";
        g->has_scope = true;
        g->scope.code = "first_frame_rest_delta";
        g->scope.subject = subjects[i];
    }
    h->bind_gaps[8].code = "check_unavailable";
    h->bind_gaps[8].message = "this build of animsmith does not evaluate bind-pose yet";
    h->records[4].gaps = h->bind_gaps;
    h->records[4].gap_count = 9;
    h->records[4].evaluation = ANIM_EVAL_NOT_EVALUATED;

    h->file.path = path;
    h->file.byte_count = 3;
    strcpy(h->file.sha256_hex, "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae");
    init_rig(&h->file.rig);
    h->file.records = h->records;
    h->file.record_count = NREC;
}

/* A file whose only finding belongs to loop-seam, and a clean one. */
static void build_small(hand_result *h, const char *path, bool with_finding)
{
    memset(h, 0, sizeof *h);
    record(&h->records[0], "nan");
    record(&h->records[1], "loop-seam");
    record(&h->records[2], "engine-addressability");
    h->records[2].applicable = false;
    h->records[2].evaluation = ANIM_EVAL_NOT_EVALUATED;
    if (with_finding) {
        h->seam_findings[0] = finding("loop-seam", ANIM_SEVERITY_ERROR, "a", "seam pops");
        h->records[1].findings = h->seam_findings;
        h->records[1].finding_count = 1;
    }
    h->file.path = path;
    h->file.byte_count = 3;
    strcpy(h->file.sha256_hex, "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae");
    init_rig(&h->file.rig);
    h->file.records = h->records;
    h->file.record_count = 3;
}

static const char HAND_TEXT_FINDINGS[] =
    "  error[nan]: file-level problem\n"
    "  error[gait-group]: members disagree (measured 0.3000, expected 0.1000)\n"
    "    member walk: note=late, phase=0.5000\n"
    "    member run: phase=n/a\n";
static const char HAND_TEXT_SEAM[] = "  error[loop-seam] clip 'a': seam pops\n";
static const char HAND_TEXT_REST[] =
    "  warning[quat-flip] clip 'a' @1.000s: flips (measured 2.0000)\n"
    "  warning[quat-flip] clip 'a': expected only\n"
    "  note[nan] clip 'b\\u{1b}clip' bone 'bo|ne`' node 'nodes/0:root' @0.250s: tab\\there "
    "(measured 0.1235, expected 1.0 m)\n"
    "  coverage[bind-pose] check_unavailable \xc3\x97" "1: this build of animsmith does not "
    "evaluate bind-pose yet\n"
    "  coverage[bind-pose] insufficient_rotation_evidence \xc3\x97" "8 (scopes: "
    "first_frame_rest_delta; subjects: walk_1, walk_2, walk_3, walk_4, walk_5, \xe2\x80\xa6 +2 "
    "more): only 0 usable, only 1 usable\n"
    "  coverage[nan] zzz_code \xc3\x97" "1 (scopes: nan_scope): gap message\n";

static void test_text_hand_built(void **state)
{
    (void)state;
    hand_result *h = calloc(3, sizeof *h);
    build_hand(&h[0], "hand.glb");
    build_small(&h[1], "allowed-only.glb", true);
    build_small(&h[2], "clean.glb", false);
    anim_lint_file files[3] = {h[0].file, h[1].file, h[2].file};

    anim_strbuf sb = ANIM_STRBUF_INIT;
    char want[8192];
    anim_render_lint_text(files, 3, NULL, &sb);
    snprintf(want, sizeof want,
             "hand.glb:\n%s%s%sallowed-only.glb:\n%sclean.glb: clean\n"
             "4 error(s), 2 warning(s), 1 note(s), 10 coverage gap(s), 0 available prediction "
             "facet(s), 0 required-unavailable prediction facet(s)\n",
             HAND_TEXT_FINDINGS, HAND_TEXT_SEAM, HAND_TEXT_REST, HAND_TEXT_SEAM);
    assert_text(&sb, want);

    const char *allow[] = {"unknown-id", "loop-seam"};
    anim_lint_render_options opts = {allow, 2, {NULL, NULL, ANIM_SOURCE_DIRTY_UNKNOWN},
                                     false, false};
    anim_strbuf_reset(&sb);
    anim_render_lint_text(files, 3, &opts, &sb);
    snprintf(want, sizeof want,
             "hand.glb:\n%s%sallowed-only.glb: clean\nclean.glb: clean\n"
             "2 error(s), 2 warning(s), 1 note(s), 10 coverage gap(s), 0 available prediction "
             "facet(s), 0 required-unavailable prediction facet(s)\n",
             HAND_TEXT_FINDINGS, HAND_TEXT_REST);
    assert_text(&sb, want);

    /* No files: only the summary. */
    anim_strbuf_reset(&sb);
    anim_render_lint_text(NULL, 0, NULL, &sb);
    assert_text(&sb, "0 error(s), 0 warning(s), 0 note(s), 0 coverage gap(s), 0 available "
                     "prediction facet(s), 0 required-unavailable prediction facet(s)\n");
    anim_strbuf_free(&sb);
    free(h);
}

/* Repeated findings of one check, clip and severity: runs of four or
 * more become one line with the count, the first three distinct bones
 * and the first member's message; shorter runs, runs broken by another
 * clip or severity, and findings with member rows stay line by line;
 * --expand restores every line; colour wraps only the severity words. */
static void test_text_grouping(void **state)
{
    (void)state;
    anim_check_record rec[2];
    record(&rec[0], "constant-track");
    record(&rec[1], "loop-closure");
    static const char *const bones[7] = {"Hips", "Spine", "Hips", "Spine1", "Neck", "Head",
                                         "Neck"};
    anim_finding fs[10];
    for (int i = 0; i < 7; i++) {
        fs[i] = finding("constant-track", ANIM_SEVERITY_NOTE, "Run", i % 2 ? "scale" : "move");
        fs[i].bone = bones[i];
    }
    /* Three in clip 'Walk': under the group size. */
    for (int i = 7; i < 10; i++) {
        fs[i] = finding("constant-track", ANIM_SEVERITY_NOTE, "Walk", "walk bloat");
        fs[i].bone = bones[i - 7];
    }
    fs[0].measured = anim_value_number(1.0);
    rec[0].findings = fs;
    rec[0].finding_count = 10;
    /* Four node-only loop-closure warnings in 'Run'. */
    anim_finding lc[4];
    for (int i = 0; i < 4; i++) {
        lc[i] = finding("loop-closure", ANIM_SEVERITY_WARNING, "Run", "seam");
        lc[i].node = i < 2 ? "nodes/1:arm" : "nodes/2:leg";
        lc[i].has_time = true;
        lc[i].time_s = i;
    }
    rec[1].findings = lc;
    rec[1].finding_count = 4;
    anim_lint_file file;
    memset(&file, 0, sizeof file);
    file.path = "g.glb";
    file.records = rec;
    file.record_count = 2;

    static const char SUMMARY[] =
        "0 error(s), 4 warning(s), 10 note(s), 0 coverage gap(s), 0 available prediction "
        "facet(s), 0 required-unavailable prediction facet(s)\n";
    static const char WALK[] = "  note[constant-track] clip 'Walk' bone 'Hips': walk bloat\n"
                               "  note[constant-track] clip 'Walk' bone 'Spine': walk bloat\n"
                               "  note[constant-track] clip 'Walk' bone 'Hips': walk bloat\n";
    char want[4096];
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_render_lint_text(&file, 1, NULL, &sb);
    snprintf(want, sizeof want,
             "g.glb:\n"
             "  warning[loop-closure] clip 'Run' \xc3\x97" "4 (nodes: nodes/1:arm, nodes/2:leg; "
             "--expand lists them): first: seam\n"
             "  note[constant-track] clip 'Run' \xc3\x97" "7 (bones: Hips, Spine, Spine1, "
             "\xe2\x80\xa6 +2 more; --expand lists them): first: move (measured 1.0000)\n"
             "%s%s",
             WALK, SUMMARY);
    assert_text(&sb, want);

    anim_lint_render_options opts;
    memset(&opts, 0, sizeof opts);
    opts.expand = true;
    anim_strbuf_reset(&sb);
    anim_render_lint_text(&file, 1, &opts, &sb);
    assert_false(sb.failed);
    assert_null(strstr(sb.data, "\xc3\x97"));
    assert_non_null(strstr(sb.data, "  note[constant-track] clip 'Run' bone 'Head': scale\n"));
    assert_non_null(strstr(sb.data, "  warning[loop-closure] clip 'Run' node 'nodes/2:leg' "
                                    "@3.000s: seam\n"));
    size_t lines = 0;
    for (const char *c = sb.data; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 1 + 14 + 1);
    assert_non_null(strstr(sb.data, SUMMARY));

    /* Colour: the severity word only; the summary stays plain. */
    opts.expand = false;
    opts.color = true;
    anim_strbuf_reset(&sb);
    anim_render_lint_text(&file, 1, &opts, &sb);
    assert_false(sb.failed);
    assert_non_null(strstr(sb.data, "  \x1b[33mwarning\x1b[0m[loop-closure] clip 'Run' \xc3\x97"));
    assert_non_null(strstr(sb.data, "  \x1b[36mnote\x1b[0m[constant-track] clip 'Walk' bone "
                                    "'Hips': walk bloat\n"));
    assert_non_null(strstr(sb.data, SUMMARY));
    anim_strbuf_free(&sb);
}

/* Colour on the hand-built file: error red, coverage magenta; with
 * colour off the bytes are exactly the plain rendering. */
static void test_text_color_words(void **state)
{
    (void)state;
    hand_result *h = calloc(1, sizeof *h);
    build_hand(h, "hand.glb");
    anim_lint_render_options opts;
    memset(&opts, 0, sizeof opts);
    anim_strbuf plain = ANIM_STRBUF_INIT, sb = ANIM_STRBUF_INIT;
    anim_render_lint_text(&h->file, 1, NULL, &plain);
    anim_render_lint_text(&h->file, 1, &opts, &sb);
    assert_text(&sb, plain.data);
    opts.color = true;
    anim_strbuf_reset(&sb);
    anim_render_lint_text(&h->file, 1, &opts, &sb);
    assert_false(sb.failed);
    assert_non_null(strstr(sb.data, "  \x1b[31merror\x1b[0m[nan]: file-level problem\n"));
    assert_non_null(strstr(sb.data, "  \x1b[35mcoverage\x1b[0m[nan] zzz_code \xc3\x97" "1"));
    /* Markdown never colours. */
    anim_strbuf md = ANIM_STRBUF_INIT;
    anim_render_lint_markdown(&h->file, 1, &opts, &md);
    assert_false(md.failed);
    assert_null(strchr(md.data, '\x1b'));
    anim_strbuf_free(&md);
    anim_strbuf_free(&plain);
    anim_strbuf_free(&sb);
    free(h);
}

static void test_markdown_hand_built(void **state)
{
    (void)state;
    hand_result *h = calloc(3, sizeof *h);
    build_hand(&h[0], "dir/ha`nd|.glb");
    build_small(&h[1], "allowed-only.glb", true);
    build_small(&h[2], "clean.glb", false);
    anim_lint_file files[3] = {h[0].file, h[1].file, h[2].file};
    const char *allow[] = {"loop-seam"};
    anim_lint_render_options opts = {allow, 1, {NULL, NULL, ANIM_SOURCE_DIRTY_UNKNOWN},
                                     false, false};
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_render_lint_markdown(files, 3, &opts, &sb);
    assert_text(
        &sb,
        "## animsmith lint\n"
        "\n"
        "### `dir/ha'nd\\|.glb`\n"
        "\n"
        "\xe2\x9d\x8c 2 error(s) \xc2\xb7 \xe2\x9a\xa0\xef\xb8\x8f 2 warning(s) \xc2\xb7 "
        "\xe2\x84\xb9\xef\xb8\x8f 1 note(s)\n"
        "\n"
        "<details open>\n"
        "<summary><strong>5 findings</strong></summary>\n"
        "\n"
        "\n"
        "#### file-level\n"
        "\n"
        "| Severity | Check | Location | Measured | Expected | Message |\n"
        "| --- | --- | --- | --- | --- | --- |\n"
        "| \xe2\x9d\x8c error | `nan` | \xe2\x80\x94 | \xe2\x80\x94 | \xe2\x80\x94 | "
        "`file-level problem` |\n"
        "| \xe2\x9d\x8c error | `gait-group` | \xe2\x80\x94 | `0.3000` | `0.1000` | "
        "`members disagree` |\n"
        "\n"
        "| Member | Measurements |\n"
        "| --- | --- |\n"
        "| `walk` | `note=late, phase=0.5000` |\n"
        "| `run` | `phase=n/a` |\n"
        "\n"
        "#### clip `a`\n"
        "\n"
        "| Severity | Check | Location | Measured | Expected | Message |\n"
        "| --- | --- | --- | --- | --- | --- |\n"
        "| \xe2\x9a\xa0\xef\xb8\x8f warning | `quat-flip` | @1.000s | `2.0000` | \xe2\x80\x94 | "
        "`flips` |\n"
        "| \xe2\x9a\xa0\xef\xb8\x8f warning | `quat-flip` | \xe2\x80\x94 | \xe2\x80\x94 | "
        "`3.0000` | `expected only` |\n"
        "\n"
        "#### clip `b\\u{1b}clip`\n"
        "\n"
        "| Severity | Check | Location | Measured | Expected | Message |\n"
        "| --- | --- | --- | --- | --- | --- |\n"
        "| \xe2\x84\xb9\xef\xb8\x8f note | `nan` | bone `bo\\|ne'` node `nodes/0:root` @0.250s | "
        "`0.1235` | `1.0 m` | `tab\\there` |\n"
        "\n"
        "</details>\n"
        "\n"
        "<details open>\n"
        "<summary><strong>10 coverage gap(s)</strong></summary>\n"
        "\n"
        "| Check | Code | Count | Scopes | Subjects | Messages |\n"
        "| --- | --- | ---: | --- | --- | --- |\n"
        "| `bind-pose` | `check_unavailable` | 1 | `\xe2\x80\x94` | `\xe2\x80\x94` | `this "
        "build of animsmith does not evaluate bind-pose yet` |\n"
        "| `bind-pose` | `insufficient_rotation_evidence` | 8 | `first_frame_rest_delta` | "
        "`walk_1, walk_2, walk_3, walk_4, walk_5, \xe2\x80\xa6 +2 more` | `only 0 usable, only "
        "1 usable` |\n"
        "| `nan` | `zzz_code` | 1 | `nan_scope` | `\xe2\x80\x94` | `gap message` |\n"
        "\n"
        "</details>\n"
        "\n"
        "### `allowed-only.glb`\n"
        "\n"
        "\xe2\x9c\x85 Clean \xe2\x80\x94 no findings or coverage gaps.\n"
        "\n"
        "### `clean.glb`\n"
        "\n"
        "\xe2\x9c\x85 Clean \xe2\x80\x94 no findings or coverage gaps.\n"
        "\n"
        "---\n"
        "\n"
        "**3 files** \xe2\x80\x94 \xe2\x9d\x8c 2 error(s) \xc2\xb7 \xe2\x9a\xa0\xef\xb8\x8f 2 "
        "warning(s) \xc2\xb7 \xe2\x84\xb9\xef\xb8\x8f 1 note(s) \xc2\xb7 10 coverage gap(s) "
        "\xc2\xb7 0 available prediction facet(s) \xc2\xb7 0 required-unavailable prediction "
        "facet(s)\n");
    anim_strbuf_free(&sb);
    free(h);
}

/* More than ten findings collapse the section; line breaks and bidi
 * controls in cells are neutralized. */
static void test_markdown_collapse_and_cells(void **state)
{
    (void)state;
    anim_check_record rec;
    record(&rec, "quat-norm");
    anim_finding fs[11];
    for (int i = 0; i < 11; i++)
        fs[i] = finding("quat-norm", ANIM_SEVERITY_ERROR, "c", "m");
    fs[0].message = "line\nbreak\r\xe2\x80\xa8sep\xe2\x80\xae" "bidi\\x";
    rec.findings = fs;
    rec.finding_count = 11;
    anim_lint_file file;
    memset(&file, 0, sizeof file);
    file.path = "p.glb";
    file.records = &rec;
    file.record_count = 1;
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_render_lint_markdown(&file, 1, NULL, &sb);
    assert_false(sb.failed);
    assert_non_null(strstr(sb.data, "<details>\n<summary><strong>11 findings</strong></summary>"));
    assert_null(strstr(sb.data, "<details open>"));
    assert_non_null(strstr(sb.data, "`line break  sep\\u{202e}bidi\\\\x` |\n"));
    assert_non_null(strstr(sb.data, "**1 file** \xe2\x80\x94 \xe2\x9d\x8c 11 error(s)"));
    anim_strbuf_free(&sb);
}

static void test_json_hand_built(void **state)
{
    (void)state;
    anim_error err;
    anim_doc empty;
    memset(&empty, 0, sizeof empty);
    empty.default_scene = ANIM_NONE;
    anim_arena *arena = anim_arena_new();
    anim_measurements m;
    assert_int_equal(anim_measure_document(&empty, NULL, NULL, arena, &m, &err), 0);

    hand_result *h = calloc(2, sizeof *h);
    build_small(&h[0], "allowed-only.glb", true);
    anim_lint_render_options opts = {
        NULL, 0, {"0.4.3", "0123456789abcdef0123456789abcdef01234567", ANIM_SOURCE_CLEAN},
        false, false};
    anim_lint_json_input in = {&h[0].file, &empty, &m};
    anim_strbuf sb = ANIM_STRBUF_INIT;
    assert_int_equal(anim_render_lint_json(&in, 1, &opts, &sb, &err), 0);
    assert_golden(&sb, "hand-built.lint.json");

    /* The full hand-built record: every optional field, members, scopes,
     * gaps with and without scope; --allow does not apply to JSON. */
    build_hand(&h[1], "hand\n.glb");
    anim_lint_json_input in2[2] = {{&h[1].file, &empty, &m}, {&h[0].file, &empty, &m}};
    const char *allow[] = {"loop-seam"};
    opts.allow = allow;
    opts.allow_count = 1;
    opts.tool.dirty = ANIM_SOURCE_DIRTY;
    anim_strbuf_reset(&sb);
    assert_int_equal(anim_render_lint_json(in2, 2, &opts, &sb, &err), 0);
    assert_non_null(strstr(sb.data, "\"path\": \"hand\\n.glb\""));
    assert_non_null(strstr(sb.data, "\"dirty\": true"));
    anim_arena *pa = anim_arena_new();
    const anim_json_value *root = parse(pa, &sb);
    assert_summary_consistent(root);
    const anim_json_value *sum = get(root, "summary");
    assert_int_equal(get_int(get(sum, "findings"), "error"), 4); /* loop-seam kept */
    assert_int_equal(get_int(get(sum, "checks"), "gaps"), 10);
    assert_int_equal(get_int(get(get(sum, "checks"), "evaluation"), "partial"), 1);

    const anim_json_value *recs = get(anim_json_item(get(root, "files"), 0), "checks");
    const anim_json_value *nan = anim_json_item(recs, 0);
    assert_keys(nan, "check_id,selection,configuration,applicability,evaluation,findings,"
                     "evaluated_scopes,gaps");
    assert_keys(anim_json_item(get(nan, "evaluated_scopes"), 0), "code");
    const anim_json_value *note = anim_json_item(get(nan, "findings"), 1);
    assert_keys(note, "check_id,severity,clip,bone,node,time_s,measured,expected,message");
    assert_string_equal(get_str(note, "clip"), "b\x1b" "clip"); /* raw in JSON */
    assert_string_equal(get_str(note, "expected"), "1.0 m");
    assert_int_equal(get(note, "time_s")->len, 4); /* "0.25" */
    const anim_json_value *gait = anim_json_item(get(anim_json_item(recs, 2), "findings"), 0);
    assert_keys(gait, "check_id,severity,measured,expected,members,message");
    const anim_json_value *row0 = anim_json_item(get(gait, "members"), 0);
    assert_keys(row0, "member,measurements");
    assert_keys(get(row0, "measurements"), "note,phase");
    const anim_json_value *row1 = anim_json_item(get(gait, "members"), 1);
    assert_int_equal(get(get(row1, "measurements"), "phase")->type, ANIM_JSON_NULL);
    const anim_json_value *bind = anim_json_item(recs, 4);
    assert_keys(bind, "check_id,selection,configuration,applicability,evaluation,findings,gaps");
    const anim_json_value *gaps = get(bind, "gaps");
    assert_int_equal(anim_json_count(gaps), 9); /* every per-scope gap */
    assert_keys(anim_json_item(gaps, 8), "code,message");

    anim_arena_free(pa);
    anim_strbuf_free(&sb);
    free(h);
    anim_arena_free(arena);
}

/* ---- measurements on a hand-built document ----------------------------- */

static const float T3[] = {0.0f, 0.5f, 1.0f};
static const float T_BAD[] = {0.0f, 0.5f, 0.5f, 1.0f};
/* Rotation about Z by 0, 30 and 90 degrees (xyzw). */
static const float R_BIG[] = {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.25881904f, 0.96592583f,
                              0.0f, 0.0f, 0.70710677f, 0.70710677f};
/* 0.05 degrees at most: below the 0.1 degree recording floor. */
static const float R_SMALL[] = {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.00043633f, 1.0f,
                                0.0f, 0.0f, 0.0f, 1.0f};
/* Duplicate bone name "arm": 10 degrees; key 1 is a zero quaternion. */
static const float R_ARM[] = {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f,
                              0.0f, 0.0f, 0.08715574f, 0.9961947f};
static const float V3[] = {0, 0, 0, 1, 1, 1, 2, 2, 2};
static const float V4[] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};

static anim_track track(uint32_t bone, anim_path path, const float *times, uint32_t keys,
                        const float *values)
{
    anim_track t;
    memset(&t, 0, sizeof t);
    t.bone = bone;
    t.node = bone;
    t.path = path;
    t.interp = ANIM_INTERP_LINEAR;
    t.key_count = keys;
    t.times = times;
    t.components = path == ANIM_PATH_ROTATION ? 4 : 3;
    t.value_count = keys;
    t.values = values;
    return t;
}

static void test_measure_hand_built(void **state)
{
    (void)state;
    anim_bone bones[4];
    memset(bones, 0, sizeof bones);
    const char *names[4] = {"hips", "arm", "arm", "leg"};
    for (int i = 0; i < 4; i++) {
        bones[i].name = names[i];
        bones[i].parent = i ? 0 : ANIM_NONE;
    }
    anim_track a_tracks[7] = {
        track(3, ANIM_PATH_SCALE, T3, 3, V3),
        track(0, ANIM_PATH_ROTATION, T3, 3, R_BIG),
        track(0, ANIM_PATH_TRANSLATION, T3, 3, V3),
        track(2, ANIM_PATH_ROTATION, T3, 3, R_ARM),
        track(1, ANIM_PATH_ROTATION, T3, 3, R_SMALL),
        track(9, ANIM_PATH_TRANSLATION, T_BAD, 4, V4), /* bone out of range: skipped */
        track(3, ANIM_PATH_TRANSLATION, T_BAD, 4, V4), /* invalid: only frame_count */
    };
    anim_track b_tracks[1] = {track(0, ANIM_PATH_TRANSLATION, T3, 2, V3)};
    anim_clip clips[3];
    memset(clips, 0, sizeof clips);
    clips[0].name = "zeta";
    clips[0].tracks = a_tracks;
    clips[0].track_count = 7;
    clips[0].duration_s = 1.0;
    clips[1].name = "alpha"; /* two keys: no metric grid */
    clips[1].tracks = b_tracks;
    clips[1].track_count = 1;
    clips[1].duration_s = 0.5;
    clips[2].name = "zeta"; /* same name later: replaces the first */
    clips[2].tracks = a_tracks;
    clips[2].track_count = 5;
    clips[2].duration_s = 1.0;
    anim_doc doc;
    memset(&doc, 0, sizeof doc);
    doc.bones = bones;
    doc.bone_count = 4;
    doc.clips = clips;
    doc.clip_count = 3;
    doc.meshes = (anim_mesh *)bones; /* any non-NULL: the document has a mesh */
    doc.mesh_count = 1;
    doc.default_scene = ANIM_NONE;

    anim_rig_resolution rig;
    init_rig(&rig);
    rig.bone[ANIM_ROLE_HIPS] = 0;
    rig.bone[ANIM_ROLE_LEFT_FOOT] = 3;

    anim_error err;
    anim_arena *arena = anim_arena_new();
    anim_measurements m;
    assert_int_equal(anim_measure_document(&doc, &rig, NULL, arena, &m, &err), 0);
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &sb, false);
    assert_int_equal(anim_measurements_write_json(&m, &w, &err), 0);
    assert_golden_line(&sb, "hand-built.measurements.json");

    /* The first "zeta" (with the invalid track) was replaced; measured on
     * its own, frame_count counts the invalid 4-key track. */
    clips[2].track_count = 7;
    assert_int_equal(anim_measure_document(&doc, &rig, NULL, arena, &m, &err), 0);
    assert_int_equal(m.clip_count, 2);
    assert_int_equal(m.clips[1].frame_count, 4);
    assert_int_equal(m.clips[1].bone_channel_count, 4);
    anim_strbuf_free(&sb);
    anim_arena_free(arena);
}

/* frame_grid and loop declarations come from the contract. */
static void test_measure_frame_grid(void **state)
{
    (void)state;
    /* [clips.off] fps = 3 and [clips.on] fps = 4, loop = true (selectors
     * sorted byte-wise, as the loader keeps them). */
    anim_clip_selector sel[2];
    memset(sel, 0, sizeof sel);
    sel[0].selector = "off";
    sel[0].expect.fps.set = true;
    sel[0].expect.fps.value = 3.0;
    sel[1].selector = "on";
    sel[1].expect.fps.set = true;
    sel[1].expect.fps.value = 4.0;
    sel[1].expect.loop.set = true;
    sel[1].expect.loop.value = true;
    anim_config config;
    memset(&config, 0, sizeof config);
    config.rig_profile = "auto";
    config.clips = sel;
    config.clip_count = 2;
    const anim_config *cfg = &config;
    anim_error err;

    anim_bone bone;
    memset(&bone, 0, sizeof bone);
    bone.name = "b";
    bone.parent = ANIM_NONE;
    anim_track t[1] = {track(0, ANIM_PATH_TRANSLATION, T3, 3, V3)};
    anim_clip clips[2];
    memset(clips, 0, sizeof clips);
    clips[0].name = "on";
    clips[1].name = "off";
    for (int i = 0; i < 2; i++) {
        clips[i].tracks = t;
        clips[i].track_count = 1;
        clips[i].duration_s = 1.0;
    }
    anim_doc doc;
    memset(&doc, 0, sizeof doc);
    doc.bones = &bone;
    doc.bone_count = 1;
    doc.clips = clips;
    doc.clip_count = 2;
    doc.default_scene = ANIM_NONE;
    anim_rig_resolution rig;
    init_rig(&rig);
    anim_arena *arena = anim_arena_new();
    anim_measurements m;
    assert_int_equal(anim_measure_document(&doc, &rig, cfg, arena, &m, &err), 0);
    assert_string_equal(m.clips[0].name, "off");
    assert_int_equal(m.clips[0].frame_grid, ANIM_AVAIL_UNAVAILABLE); /* 0.5 s * 3 fps */
    assert_int_equal(m.clips[0].loop_endpoint_mode, ANIM_AVAIL_NOT_APPLICABLE);
    assert_int_equal(m.clips[1].frame_grid, ANIM_AVAIL_MEASURED);
    assert_true(m.clips[1].frame_grid_fps == 4.0);
    assert_int_equal(m.clips[1].frame_grid_intervals, 4);
    /* The bone's rest rotation is the zero quaternion (memset) and the clip
     * only animates translation, so its model rotation has zero length:
     * the grid exists, so loop_continuity is measured with that row
     * unavailable (rows carry their own availability), and the
     * declared loop cannot be judged without it -> loop_endpoint_mode
     * unavailable (loops without enough finite evidence report
     * unavailable). */
    assert_int_equal(m.clips[1].loop_endpoint_mode, ANIM_AVAIL_UNAVAILABLE);
    assert_int_equal(m.clips[1].loop_continuity, ANIM_AVAIL_MEASURED);
    assert_non_null(m.clips[1].loop);
    assert_int_equal(m.clips[1].loop->bone_count, 1);
    assert_int_equal(m.clips[1].loop->measured_bone_count, 0);
    assert_int_equal(m.clips[1].loop->bones[0].availability, ANIM_AVAIL_UNAVAILABLE);
    /* No roles: nothing role-dependent applies (loop_seam_ratio, gait,
     * root_trajectory, speed_mps). */
    assert_int_equal(m.clips[1].loop_seam_ratio, ANIM_AVAIL_NOT_APPLICABLE);
    assert_int_equal(m.clips[1].gait, ANIM_AVAIL_NOT_APPLICABLE);
    assert_int_equal(m.clips[1].root_trajectory, ANIM_AVAIL_NOT_APPLICABLE);
    assert_int_equal(m.clips[1].speed_mps, ANIM_AVAIL_NOT_APPLICABLE);

    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &sb, false);
    assert_int_equal(anim_measurements_write_json(&m, &w, &err), 0);
    assert_non_null(strstr(sb.data, "\"frame_grid\":{\"fps\":4.0,\"frame_intervals\":4},"
                                    "\"frame_grid_availability\":\"measured\","
                                    "\"loop_seam_ratio_availability\":\"not_applicable\""));

    /* A non-finite value refuses the whole object. */
    m.clips[1].duration_s = 0.0 / 0.0;
    anim_strbuf_reset(&sb);
    anim_json_writer_init(&w, &sb, false);
    assert_int_equal(anim_measurements_write_json(&m, &w, &err), -1);
    assert_string_equal(err.message, "measurement value clips[\"on\"].duration_s must be finite");
    anim_strbuf_free(&sb);
    anim_arena_free(arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_text_examples, release_strings),
        cmocka_unit_test_teardown(test_markdown_example, release_strings),
        cmocka_unit_test_teardown(test_json_example, release_strings),
        cmocka_unit_test_teardown(test_text_hand_built, release_strings),
        cmocka_unit_test_teardown(test_text_grouping, release_strings),
        cmocka_unit_test_teardown(test_text_color_words, release_strings),
        cmocka_unit_test_teardown(test_markdown_hand_built, release_strings),
        cmocka_unit_test_teardown(test_markdown_collapse_and_cells, release_strings),
        cmocka_unit_test_teardown(test_json_hand_built, release_strings),
        cmocka_unit_test_teardown(test_measure_hand_built, release_strings),
        cmocka_unit_test_teardown(test_measure_frame_grid, release_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
