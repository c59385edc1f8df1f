/* Lint SARIF (anim_render_lint_sarif) on hand-built results: the log is
 * parsed back with our own JSON reader and checked field by field -- the
 * rules are the catalog, each finding is one result on its file's
 * artifact (URI encoding, SRCROOT for relative paths, the whole-file
 * region), fingerprints tell same-identity findings apart, gaps and
 * required-unavailable facets are notifications, and the bytes are the
 * same on every render. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/json.h"
#include "animsmith/report.h"

static long catalog_index(const char *id)
{
    for (size_t c = 0; c < anim_check_count(); c++)
        if (strcmp(anim_check_at(c)->id, id) == 0)
            return (long)c;
    fail_msg("%s is not in the catalog", id);
    return -1;
}

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

static void record(anim_check_record *rec, const char *id)
{
    memset(rec, 0, sizeof *rec);
    rec->check_id = id;
    rec->selected = rec->enabled = rec->applicable = true;
    rec->evaluation = ANIM_EVAL_COMPLETE;
}

typedef struct {
    anim_check_record records[4];
    anim_finding nan_findings[1];
    anim_finding track_findings[3];
    anim_finding engine_findings[1];
    anim_gap gaps[2];
    anim_prediction_facet facets[2];
    anim_scope engine_scopes[1];
    anim_field result[1];
    anim_basis_row basis[1];
    const char *reasons[2];
    anim_lint_file files[2];
} sarif_fixture;

static void build(sarif_fixture *x)
{
    memset(x, 0, sizeof *x);
    record(&x->records[0], "nan");
    record(&x->records[1], "constant-track");
    record(&x->records[2], "bind-pose");
    record(&x->records[3], "engine-addressability");

    anim_finding *f = &x->nan_findings[0];
    *f = finding("nan", ANIM_SEVERITY_ERROR, "walk", "NaN rotation key");
    f->bone = "hips";
    f->has_time = true;
    f->time_s = 0.5;
    f->measured = anim_value_number(1.5);
    f->expected = anim_value_number(1.0);
    x->records[0].findings = x->nan_findings;
    x->records[0].finding_count = 1;

    /* Two findings of one identity (check, clip, bone) and a third on
     * another bone. */
    x->track_findings[0] = finding("constant-track", ANIM_SEVERITY_NOTE, "walk", "translation");
    x->track_findings[0].bone = "hips";
    x->track_findings[1] = finding("constant-track", ANIM_SEVERITY_NOTE, "walk", "scale");
    x->track_findings[1].bone = "hips";
    x->track_findings[2] = finding("constant-track", ANIM_SEVERITY_WARNING, "walk", "scale");
    x->track_findings[2].bone = "spine";
    x->track_findings[2].node = "nodes/3";
    x->track_findings[2].measured = anim_value_text("flat");
    x->records[1].findings = x->track_findings;
    x->records[1].finding_count = 3;

    x->gaps[0].code = "insufficient_rotation_evidence";
    x->gaps[0].message = "only 0 usable";
    x->gaps[0].has_scope = true;
    x->gaps[0].scope.code = "first_frame_rest_delta";
    x->gaps[0].scope.subject = "walk";
    x->gaps[1].code = "check_unavailable";
    x->gaps[1].message = "not evaluated";
    x->records[2].gaps = x->gaps;
    x->records[2].gap_count = 2;
    x->records[2].evaluation = ANIM_EVAL_NOT_EVALUATED;

    anim_check_record *eng = &x->records[3];
    x->result[0] = anim_field_text("label", "Animation0");
    x->basis[0].kind = ANIM_BASIS_RAW_SOURCE;
    x->basis[0].value = anim_field_int("/animations/0", 0);
    x->facets[0].scope.code = "animation_asset_label";
    x->facets[0].scope.subject = "Animation0";
    x->facets[0].state = ANIM_FACET_AVAILABLE;
    x->facets[0].result_kind = "animation_asset_label";
    x->facets[0].result = x->result;
    x->facets[0].result_count = 1;
    x->facets[0].basis = x->basis;
    x->facets[0].basis_count = 1;
    x->reasons[0] = "runtime_survival_unobservable";
    x->reasons[1] = "second_reason";
    x->facets[1].scope.code = "animation_asset_label";
    x->facets[1].scope.subject = "Animation1";
    x->facets[1].state = ANIM_FACET_REQUIRED_UNAVAILABLE;
    x->facets[1].reasons = x->reasons;
    x->facets[1].reason_count = 2;
    eng->prediction_schema = "urn:test";
    eng->facets = x->facets;
    eng->facet_count = 2;
    x->engine_scopes[0].code = "animation_asset_label";
    x->engine_scopes[0].subject = "Animation0";
    eng->scopes = x->engine_scopes;
    eng->scope_count = 1;
    eng->evaluation = ANIM_EVAL_PARTIAL;
    f = &x->engine_findings[0];
    *f = finding("engine-addressability", ANIM_SEVERITY_ERROR, "walk", "selector differs");
    f->prediction_scope_code = "animation_asset_label";
    f->prediction_scope_subject = "Animation0";
    eng->findings = x->engine_findings;
    eng->finding_count = 1;

    /* A relative path with "./", a space and a non-ASCII letter; an
     * absolute one whose ':' must not read as a scheme. */
    x->files[0].path = "./dir/my walk \xc3\xa9.glb";
    x->files[0].byte_count = 2344;
    strcpy(x->files[0].sha256_hex,
           "b30f97225ea168bc4b8c4b6fe3fe2677ea9fa135f852ae21bdd666a9f779981b");
    x->files[0].records = x->records;
    x->files[0].record_count = 4;
    x->files[1].path = "/abs/x:y.glb";
    x->files[1].byte_count = 7;
    strcpy(x->files[1].sha256_hex,
           "0a6f617105d70b897a668a566103a710aa72775fb4c8daba8759d8e8a3d0cad4");
}

static const anim_json_value *get(const anim_json_value *v, const char *key)
{
    const anim_json_value *m = anim_json_get(v, key);
    if (!m)
        fail_msg("missing key %s", key);
    return m;
}

static const anim_json_value *at(const anim_json_value *v, size_t i)
{
    assert_true(i < anim_json_count(v));
    return anim_json_item(v, i);
}

/* A string value as a C string (values point into the text unterminated). */
static const char *text_of(anim_arena *arena, const anim_json_value *v)
{
    assert_int_equal(v->type, ANIM_JSON_STRING);
    char *s = anim_json_strdup(arena, v);
    assert_non_null(s);
    return s;
}

static void assert_str(const anim_json_value *v, const char *want)
{
    assert_int_equal(v->type, ANIM_JSON_STRING);
    if (!anim_json_string_eq(v, want))
        fail_msg("got \"%s\", want \"%s\"", anim_json_string(v), want);
}

static anim_json_value *render_parse(anim_arena *arena, const anim_lint_file *files, size_t n,
                                     anim_strbuf *sb)
{
    anim_lint_render_options opts;
    memset(&opts, 0, sizeof opts);
    opts.tool.version = "0.4.3";
    opts.tool.revision = NULL;
    opts.tool.dirty = ANIM_SOURCE_DIRTY_UNKNOWN;
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(anim_render_lint_sarif(files, n, &opts, sb, &err), 0);
    assert_false(sb->failed);
    assert_true(sb->len > 0 && sb->data[sb->len - 1] == '\n');
    anim_json_value *root = anim_json_parse(arena, sb->data, sb->len, NULL, &err);
    if (!root)
        fail_msg("SARIF does not parse: %s", err.message);
    return root;
}

static void test_rules_are_the_catalog(void **state)
{
    (void)state;
    sarif_fixture x;
    build(&x);
    anim_arena *arena = anim_arena_new();
    anim_strbuf sb = ANIM_STRBUF_INIT;
    const anim_json_value *root = render_parse(arena, x.files, 2, &sb);
    assert_str(get(root, "version"), "2.1.0");
    assert_str(get(root, "$schema"), "https://json.schemastore.org/sarif-2.1.0.json");
    const anim_json_value *runs = get(root, "runs");
    assert_int_equal(anim_json_count(runs), 1);
    const anim_json_value *driver = get(get(at(runs, 0), "tool"), "driver");
    assert_str(get(driver, "name"), "animsmith");
    assert_str(get(driver, "version"), "0.4.3");
    assert_str(get(driver, "semanticVersion"), "0.4.3");
    assert_null(anim_json_get(driver, "informationUri"));
    const anim_json_value *rules = get(driver, "rules");
    assert_int_equal(anim_json_count(rules), anim_check_count());
    for (size_t c = 0; c < anim_check_count(); c++) {
        const anim_check_def *def = anim_check_at(c);
        const anim_json_value *rule = at(rules, c);
        assert_str(get(rule, "id"), def->id);
        const char *level = def->default_severity == ANIM_SEVERITY_ERROR     ? "error"
                            : def->default_severity == ANIM_SEVERITY_WARNING ? "warning"
                                                                             : "note";
        const anim_json_value *cfg = get(rule, "defaultConfiguration");
        assert_str(get(cfg, "level"), level);
        assert_int_equal(get(cfg, "enabled")->type, def->opt_in ? ANIM_JSON_FALSE : ANIM_JSON_TRUE);
        char want[256];
        snprintf(want, sizeof want, "docs/checks.md#%s", def->id);
        assert_non_null(strstr(text_of(arena, get(get(rule, "help"), "text")), want));
        assert_non_null(strstr(text_of(arena, get(get(rule, "fullDescription"), "text")),
                               anim_check_summary(def->id)));
        const char *short_text = text_of(arena, get(get(rule, "shortDescription"), "text"));
        assert_true(strlen(short_text) > 1 && short_text[strlen(short_text) - 1] == '.');
    }
    /* A one-word id has no separate name; others are Pascal case. */
    assert_null(anim_json_get(at(rules, (size_t)catalog_index("nan")), "name"));
    assert_str(get(at(rules, (size_t)catalog_index("loop-seam-vel")), "name"), "LoopSeamVel");
    assert_str(get(get(at(rules, (size_t)catalog_index("nan")), "shortDescription"), "text"),
               "Non-finite key times or values (cubic tangents included).");
    anim_strbuf_free(&sb);
    anim_arena_free(arena);
}

static void test_artifacts_and_results(void **state)
{
    (void)state;
    sarif_fixture x;
    build(&x);
    anim_arena *arena = anim_arena_new();
    anim_strbuf sb = ANIM_STRBUF_INIT;
    const anim_json_value *run = at(get(render_parse(arena, x.files, 2, &sb), "runs"), 0);

    const anim_json_value *base = get(get(run, "originalUriBaseIds"), "SRCROOT");
    assert_non_null(anim_json_get(base, "description"));
    assert_null(anim_json_get(base, "uri"));

    const anim_json_value *artifacts = get(run, "artifacts");
    assert_int_equal(anim_json_count(artifacts), 2);
    const anim_json_value *loc0 = get(at(artifacts, 0), "location");
    assert_str(get(loc0, "uri"), "dir/my%20walk%20%C3%A9.glb");
    assert_str(get(loc0, "uriBaseId"), "SRCROOT");
    assert_int_equal(anim_json_integer(get(at(artifacts, 0), "length")), 2344);
    assert_str(get(get(at(artifacts, 0), "hashes"), "sha-256"), x.files[0].sha256_hex);
    const anim_json_value *loc1 = get(at(artifacts, 1), "location");
    assert_str(get(loc1, "uri"), "file:///abs/x%3Ay.glb");
    assert_null(anim_json_get(loc1, "uriBaseId"));

    const anim_json_value *results = get(run, "results");
    assert_int_equal(anim_json_count(results), 5); /* 1 + 3 + 1, file order then catalog */
    const anim_json_value *r0 = at(results, 0);
    assert_str(get(r0, "ruleId"), "nan");
    assert_int_equal(anim_json_integer(get(r0, "ruleIndex")), catalog_index("nan"));
    assert_str(get(r0, "level"), "error");
    assert_str(get(get(r0, "message"), "text"),
               "clip 'walk' bone 'hips' @0.500s: NaN rotation key (measured 1.5000, expected "
               "1.0000)");
    const anim_json_value *phys = get(at(get(r0, "locations"), 0), "physicalLocation");
    const anim_json_value *aloc = get(phys, "artifactLocation");
    assert_str(get(aloc, "uri"), "dir/my%20walk%20%C3%A9.glb");
    assert_str(get(aloc, "uriBaseId"), "SRCROOT");
    assert_int_equal(anim_json_integer(get(aloc, "index")), 0);
    const anim_json_value *region = get(phys, "region");
    assert_int_equal(anim_json_integer(get(region, "startLine")), 1);
    assert_int_equal(anim_json_integer(get(region, "byteOffset")), 0);
    assert_int_equal(anim_json_integer(get(region, "byteLength")), 2344);
    const anim_json_value *props = get(r0, "properties");
    assert_str(get(props, "clip"), "walk");
    assert_str(get(props, "bone"), "hips");
    assert_null(anim_json_get(props, "node"));
    assert_true(anim_json_number(get(props, "time_s")) == 0.5);
    assert_true(anim_json_number(get(props, "measured")) == 1.5);
    assert_true(anim_json_number(get(props, "expected")) == 1.0);
    assert_null(anim_json_get(props, "prediction_scope"));

    /* Same identity, two alerts; another bone, a third; all stable. */
    const char *fp[3];
    for (int i = 0; i < 3; i++) {
        const anim_json_value *r = at(results, 1 + (size_t)i);
        assert_str(get(r, "ruleId"), "constant-track");
        const anim_json_value *v = get(get(r, "partialFingerprints"), "animsmithFinding/v1");
        assert_int_equal(anim_json_string_len(v), 64);
        fp[i] = text_of(arena, v);
    }
    assert_string_not_equal(fp[0], fp[1]);
    assert_string_not_equal(fp[0], fp[2]);
    assert_string_not_equal(fp[1], fp[2]);
    const anim_json_value *r3 = at(results, 3);
    assert_str(get(r3, "level"), "warning");
    assert_str(get(get(r3, "properties"), "node"), "nodes/3");
    assert_str(get(get(r3, "properties"), "measured"), "flat");
    assert_str(get(get(r3, "message"), "text"),
               "clip 'walk' bone 'spine' node 'nodes/3': scale (measured flat)");

    const anim_json_value *r4 = at(results, 4);
    assert_int_equal(anim_json_integer(get(r4, "ruleIndex")),
                     catalog_index("engine-addressability"));
    const anim_json_value *ps = get(get(r4, "properties"), "prediction_scope");
    assert_str(get(ps, "code"), "animation_asset_label");
    assert_str(get(ps, "subject"), "Animation0");

    anim_strbuf_free(&sb);
    anim_arena_free(arena);
}

static void test_notifications(void **state)
{
    (void)state;
    sarif_fixture x;
    build(&x);
    anim_arena *arena = anim_arena_new();
    anim_strbuf sb = ANIM_STRBUF_INIT;
    const anim_json_value *run = at(get(render_parse(arena, x.files, 2, &sb), "runs"), 0);
    const anim_json_value *inv = get(run, "invocations");
    assert_int_equal(anim_json_count(inv), 1);
    assert_int_equal(get(at(inv, 0), "executionSuccessful")->type, ANIM_JSON_TRUE);
    const anim_json_value *notes = get(at(inv, 0), "toolExecutionNotifications");
    assert_int_equal(anim_json_count(notes), 3); /* two gaps, one unavailable facet */

    const anim_json_value *g0 = at(notes, 0);
    assert_str(get(g0, "level"), "note");
    assert_str(get(get(g0, "descriptor"), "id"), "insufficient_rotation_evidence");
    assert_str(get(get(g0, "associatedRule"), "id"), "bind-pose");
    assert_int_equal(anim_json_integer(get(get(g0, "associatedRule"), "index")),
                     catalog_index("bind-pose"));
    assert_str(get(get(g0, "message"), "text"), "only 0 usable");
    const anim_json_value *scope = get(get(g0, "properties"), "scope");
    assert_str(get(scope, "code"), "first_frame_rest_delta");
    assert_str(get(scope, "subject"), "walk");
    const anim_json_value *gl = get(get(at(get(g0, "locations"), 0), "physicalLocation"),
                                    "artifactLocation");
    assert_int_equal(anim_json_integer(get(gl, "index")), 0);
    assert_null(anim_json_get(get(at(get(g0, "locations"), 0), "physicalLocation"), "region"));
    /* A scopeless gap has no scope property. */
    assert_null(anim_json_get(get(at(notes, 1), "properties"), "scope"));

    const anim_json_value *u = at(notes, 2);
    assert_str(get(u, "level"), "error");
    assert_str(get(get(u, "descriptor"), "id"), "required_prediction_unavailable");
    assert_str(get(get(u, "associatedRule"), "id"), "engine-addressability");
    assert_str(get(get(u, "message"), "text"),
               "required prediction unavailable for animation_asset_label 'Animation1': "
               "runtime_survival_unobservable, second_reason");
    const anim_json_value *reasons = get(get(u, "properties"), "reasons");
    assert_int_equal(anim_json_count(reasons), 2);
    assert_str(at(reasons, 0), "runtime_survival_unobservable");
    assert_str(at(reasons, 1), "second_reason");
    assert_str(get(get(get(u, "properties"), "scope"), "subject"), "Animation1");
    anim_strbuf_free(&sb);
    anim_arena_free(arena);
}

static void test_deterministic_and_empty(void **state)
{
    (void)state;
    sarif_fixture x;
    build(&x);
    anim_arena *arena = anim_arena_new();
    anim_strbuf a = ANIM_STRBUF_INIT, b = ANIM_STRBUF_INIT, e = ANIM_STRBUF_INIT;
    render_parse(arena, x.files, 2, &a);
    render_parse(arena, x.files, 2, &b);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);

    /* A shard with no file: an empty run, no base id to describe. */
    const anim_json_value *run = at(get(render_parse(arena, NULL, 0, &e), "runs"), 0);
    assert_int_equal(anim_json_count(get(run, "results")), 0);
    assert_int_equal(anim_json_count(get(run, "artifacts")), 0);
    assert_null(anim_json_get(run, "originalUriBaseIds"));
    assert_int_equal(
        anim_json_count(get(at(get(run, "invocations"), 0), "toolExecutionNotifications")), 0);

    /* An absolute path alone needs no SRCROOT either. */
    anim_strbuf c = ANIM_STRBUF_INIT;
    run = at(get(render_parse(arena, &x.files[1], 1, &c), "runs"), 0);
    assert_null(anim_json_get(run, "originalUriBaseIds"));
    anim_strbuf_free(&a);
    anim_strbuf_free(&b);
    anim_strbuf_free(&c);
    anim_strbuf_free(&e);
    anim_arena_free(arena);
}

/* Hostile names stay one valid JSON string; a byte that is not UTF-8 is
 * the visible \x{hh} in text and percent-encoded in the URI. */
static void test_hostile_names(void **state)
{
    (void)state;
    sarif_fixture x;
    build(&x);
    x.nan_findings[0].clip = "a\"b\\c\n\x01\xff";
    x.files[0].path = "bad\xff name?#.glb";
    anim_arena *arena = anim_arena_new();
    anim_strbuf sb = ANIM_STRBUF_INIT;
    const anim_json_value *run = at(get(render_parse(arena, x.files, 1, &sb), "runs"), 0);
    assert_str(get(get(at(get(run, "artifacts"), 0), "location"), "uri"),
               "bad%FF%20name%3F%23.glb");
    assert_str(get(get(at(get(run, "results"), 0), "properties"), "clip"),
               "a\"b\\c\n\x01\\x{ff}");
    anim_strbuf_free(&sb);
    anim_arena_free(arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_are_the_catalog),
        cmocka_unit_test(test_artifacts_and_results),
        cmocka_unit_test(test_notifications),
        cmocka_unit_test(test_deterministic_and_empty),
        cmocka_unit_test(test_hostile_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
