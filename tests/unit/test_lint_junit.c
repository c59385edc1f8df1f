/* Lint JUnit XML (anim_render_lint_junit) on hand-built results: one case
 * per (check, clip) of every selected, enabled and applicable check, the
 * fail threshold (errors; warnings too with --deny-warnings), unavailable
 * facets as failures of their own type, gap-only cases skipped, the
 * counts, and XML 1.0 escaping of hostile names (the schema check with
 * xmllint is tests/scripts/lint_junit_validate.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/report.h"

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
    anim_check_record records[7];
    anim_finding nan_findings[2];
    anim_finding flip_findings[2];
    anim_scope loop_scopes[2];
    anim_gap gaps[2];
    anim_prediction_facet facets[1];
    const char *reasons[1];
    anim_lint_file file;
} junit_fixture;

static void build(junit_fixture *x)
{
    memset(x, 0, sizeof *x);
    record(&x->records[0], "nan");
    record(&x->records[1], "quat-flip");
    record(&x->records[2], "loop-closure");
    record(&x->records[3], "bind-pose");
    record(&x->records[4], "engine-addressability");
    record(&x->records[5], "fps");
    x->records[5].applicable = false; /* no case */
    record(&x->records[6], "constant-nonunit-scale");
    x->records[6].enabled = false;    /* no case */

    /* nan: a whole-file error and a note on a clip. */
    x->nan_findings[0] = finding("nan", ANIM_SEVERITY_ERROR, NULL, "file <level> & \"all\"");
    x->nan_findings[1] = finding("nan", ANIM_SEVERITY_NOTE, "walk", "a note");
    x->records[0].findings = x->nan_findings;
    x->records[0].finding_count = 2;

    /* quat-flip: two warnings on one clip with a hostile name. */
    static const char hostile[] = "<run>&'\"\x01\t\xff\xef\xbf\xbe";
    x->flip_findings[0] = finding("quat-flip", ANIM_SEVERITY_WARNING, hostile, "flips");
    x->flip_findings[0].has_time = true;
    x->flip_findings[0].time_s = 1.0;
    x->flip_findings[1] = finding("quat-flip", ANIM_SEVERITY_WARNING, hostile, "flips again");
    x->records[1].findings = x->flip_findings;
    x->records[1].finding_count = 2;

    /* loop-closure: two clean evaluated clips. */
    x->loop_scopes[0].code = "loop_closure";
    x->loop_scopes[0].subject = "walk";
    x->loop_scopes[1].code = "loop_closure";
    x->loop_scopes[1].subject = "idle";
    x->records[2].scopes = x->loop_scopes;
    x->records[2].scope_count = 2;

    /* bind-pose: gaps only. */
    x->gaps[0].code = "insufficient_rotation_evidence";
    x->gaps[0].message = "only 0 usable";
    x->gaps[0].has_scope = true;
    x->gaps[0].scope.code = "first_frame_rest_delta";
    x->gaps[0].scope.subject = "walk";
    x->gaps[1] = x->gaps[0];
    x->gaps[1].message = "only 1 usable";
    x->records[3].gaps = x->gaps;
    x->records[3].gap_count = 2;
    x->records[3].evaluation = ANIM_EVAL_NOT_EVALUATED;

    /* engine-addressability: one unavailable facet. */
    x->reasons[0] = "runtime_survival_unobservable";
    x->facets[0].scope.code = "animation_asset_label";
    x->facets[0].scope.subject = "Animation1";
    x->facets[0].state = ANIM_FACET_REQUIRED_UNAVAILABLE;
    x->facets[0].reasons = x->reasons;
    x->facets[0].reason_count = 1;
    x->records[4].prediction_schema = "urn:test";
    x->records[4].facets = x->facets;
    x->records[4].facet_count = 1;
    x->records[4].evaluation = ANIM_EVAL_NOT_EVALUATED;

    x->file.path = "assets/a&b.glb";
    x->file.byte_count = 12;
    strcpy(x->file.sha256_hex, "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae");
    x->file.records = x->records;
    x->file.record_count = 7;
}

static char *render(const anim_lint_file *files, size_t n, bool deny_warnings)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(anim_render_lint_junit(files, n, deny_warnings, &sb, &err), 0);
    assert_false(sb.failed);
    assert_non_null(sb.data);
    return sb.data; /* the caller frees it */
}

static void assert_has(const char *xml, const char *want)
{
    if (!strstr(xml, want))
        fail_msg("missing:\n%s\n---- in ----\n%s", want, xml);
}

static size_t count_of(const char *xml, const char *what)
{
    size_t n = 0;
    for (const char *p = xml; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

static void test_cases_and_counts(void **state)
{
    (void)state;
    junit_fixture x;
    build(&x);
    char *xml = render(&x.file, 1, false);
    /* nan, nan [walk], quat-flip [<hostile>], loop-closure [idle], [walk],
     * bind-pose [walk], engine-addressability [Animation1]: 7 cases; nan
     * and the facet fail, bind-pose is skipped. */
    assert_has(xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    "<testsuites name=\"animsmith lint\" tests=\"7\" failures=\"2\" errors=\"0\">\n"
                    "  <testsuite name=\"assets/a&amp;b.glb\" tests=\"7\" failures=\"2\" "
                    "errors=\"0\" skipped=\"1\">\n"
                    "    <properties>\n"
                    "      <property name=\"sha256\" value=\"2c26b46b68ffc68ff99b453c1d30413413422d"
                    "706483bfa0f98a5e886266e7ae\"/>\n"
                    "      <property name=\"bytes\" value=\"12\"/>\n"
                    "    </properties>\n");
    assert_int_equal(count_of(xml, "<testcase "), 7);
    assert_null(strstr(xml, "name=\"fps"));
    assert_null(strstr(xml, "constant-nonunit-scale"));
    /* The whole-file case first, then clips byte-wise. */
    const char *bare = strstr(xml, "name=\"nan\"");
    const char *walk = strstr(xml, "name=\"nan [walk]\"");
    assert_non_null(bare);
    assert_non_null(walk);
    assert_true(bare < walk);
    assert_true(strstr(xml, "name=\"loop-closure [idle]\"") <
                strstr(xml, "name=\"loop-closure [walk]\""));
    assert_has(xml, "<testcase classname=\"assets/a&amp;b.glb\" name=\"nan\" "
                    "file=\"assets/a&amp;b.glb\">\n"
                    "      <failure type=\"error\" message=\"file &lt;level&gt; &amp; "
                    "&quot;all&quot;\">error[nan] file &lt;level&gt; &amp; \"all\"\n"
                    "</failure>\n"
                    "    </testcase>\n");
    /* A note passes and is listed. */
    assert_has(xml, "name=\"nan [walk]\" file=\"assets/a&amp;b.glb\">\n"
                    "      <system-out>note[nan] clip 'walk': a note\n"
                    "</system-out>\n");
    assert_has(xml, "name=\"loop-closure [walk]\" file=\"assets/a&amp;b.glb\"/>\n");
    assert_has(xml, "name=\"bind-pose [walk]\" file=\"assets/a&amp;b.glb\">\n"
                    "      <skipped message=\"insufficient_rotation_evidence: only 0 usable "
                    "(+1 more)\"/>\n"
                    "      <system-out>coverage[bind-pose] insufficient_rotation_evidence: only 0 "
                    "usable (scope first_frame_rest_delta 'walk')\n"
                    "coverage[bind-pose] insufficient_rotation_evidence: only 1 usable (scope "
                    "first_frame_rest_delta 'walk')\n"
                    "</system-out>\n");
    assert_has(xml, "name=\"engine-addressability [Animation1]\" file=\"assets/a&amp;b.glb\">\n"
                    "      <failure type=\"required_prediction_unavailable\" message=\"required "
                    "prediction unavailable for animation_asset_label 'Animation1': "
                    "runtime_survival_unobservable\">required prediction unavailable for "
                    "animation_asset_label 'Animation1': runtime_survival_unobservable\n"
                    "</failure>\n");
    assert_has(xml, "</testsuite>\n</testsuites>\n");
    free(xml);
}

/* Warnings fail only with --deny-warnings; the message names the first
 * and counts the rest. */
static void test_deny_warnings(void **state)
{
    (void)state;
    junit_fixture x;
    build(&x);
    char *plain = render(&x.file, 1, false);
    char *deny = render(&x.file, 1, true);
    assert_int_equal(count_of(plain, "<failure type=\"warning\""), 0);
    assert_int_equal(count_of(deny, "<failure type=\"warning\""), 1);
    assert_has(deny, "tests=\"7\" failures=\"3\" errors=\"0\">\n");
    assert_has(deny, "<failure type=\"warning\" message=\"clip '&lt;run&gt;&amp;'&quot;\\u0001"
                     "&#9;\\x{ff}\\uFFFE' @1.000s: flips (+1 more)\">");
    free(plain);
    free(deny);
}

/* Text of XML 1.0: markup characters escaped, tab kept in text and
 * escaped in attributes, C0 controls and U+FFFE as visible \uXXXX, a
 * byte that is not UTF-8 as \x{hh}. */
static void test_escaping(void **state)
{
    (void)state;
    junit_fixture x;
    build(&x);
    char *xml = render(&x.file, 1, false);
    assert_has(xml, "name=\"quat-flip [&lt;run&gt;&amp;'&quot;\\u0001&#9;\\x{ff}\\uFFFE]\"");
    assert_has(xml, "<system-out>warning[quat-flip] clip '&lt;run&gt;&amp;'\"\\u0001\t\\x{ff}"
                    "\\uFFFE' @1.000s: flips\n");
    /* Nothing XML 1.0 forbids reaches the document. */
    for (const unsigned char *p = (const unsigned char *)xml; *p; p++)
        assert_false(*p < 0x20 && *p != '\n' && *p != '\t');
    assert_null(strstr(xml, "\xef\xbf\xbe"));
    assert_null(strstr(xml, "\xff"));
    free(xml);
}

static void test_many_files_and_none(void **state)
{
    (void)state;
    junit_fixture x, y;
    build(&x);
    build(&y);
    y.file.path = "b.glb";
    anim_lint_file files[2] = {x.file, y.file};
    char *xml = render(files, 2, false);
    assert_has(xml, "<testsuites name=\"animsmith lint\" tests=\"14\" failures=\"4\" "
                    "errors=\"0\">\n");
    assert_int_equal(count_of(xml, "<testsuite "), 2);
    assert_true(strstr(xml, "<testsuite name=\"assets/a&amp;b.glb\"") <
                strstr(xml, "<testsuite name=\"b.glb\""));
    free(xml);

    char *none = render(NULL, 0, false);
    assert_string_equal(none, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                              "<testsuites name=\"animsmith lint\" tests=\"0\" failures=\"0\" "
                              "errors=\"0\">\n"
                              "</testsuites>\n");
    free(none);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases_and_counts),
        cmocka_unit_test(test_deny_warnings),
        cmocka_unit_test(test_escaping),
        cmocka_unit_test(test_many_files_and_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
