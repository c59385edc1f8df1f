/* anim_html_report_render on the walk-dirty example under the walk
 * contract: the summary (one clip, the three loop findings), the page's
 * frame (doctype, the Content-Security-Policy that forbids every request,
 * exactly one embedded data script), and the refusals (a missing, an
 * ambiguous and a grid-less --clip) that leave the output buffer as it
 * was. The page's content is checked end to end by
 * tests/scripts/report_html.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "animsmith/html_report.h"
#include "support/test_support.h"

static const char csp[] =
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src "
    "'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">";

/* Occurrences of needle in the buffer (not overlapping). */
static size_t count(const anim_strbuf *sb, const char *needle)
{
    size_t n = 0, len = strlen(needle);
    for (size_t i = 0; i + len <= sb->len; i++)
        if (memcmp(sb->data + i, needle, len) == 0) {
            n++;
            i += len - 1;
        }
    return n;
}

static void test_walk_dirty(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk-dirty.glb");
    anim_config *cfg = test_support_config_example("walk.animsmith.toml");
    anim_html_report_input in = {a, cfg, "examples/assets/walk-dirty.glb", NULL};
    anim_html_report_options opts = {false, "0.0.0-test", NULL, NULL};
    anim_html_report_summary sum;
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_error err;
    anim_error_clear(&err);
    int rc = anim_html_report_render(&in, &opts, &out, &sum, &err);
    if (rc)
        fail_msg("render: %s", err.message);
    assert_int_equal(sum.clips, 1);
    assert_int_equal(sum.findings, 3);
    assert_false(sum.mesh);
    assert_null(sum.mesh_omission);
    assert_false(out.failed);
    assert_true(out.len > 15 && memcmp(out.data, "<!doctype html>", 15) == 0);
    assert_int_equal(count(&out, csp), 1);
    assert_int_equal(count(&out, "id=\"animsmith-report-data\""), 1);
    assert_int_equal(count(&out, "<script type=\"application/json\""), 1);
    assert_int_equal(count(&out, "\"version\":\"0.0.0-test\""), 1);
    assert_true(out.len > 16 && memcmp(out.data + out.len - 8, "</html>\n", 8) == 0);
    anim_strbuf_free(&out);

    /* Evidence only: the same findings, no positions. */
    opts.evidence_only = true;
    rc = anim_html_report_render(&in, &opts, &out, &sum, &err);
    if (rc)
        fail_msg("render: %s", err.message);
    assert_int_equal(sum.clips, 1);
    assert_int_equal(sum.findings, 3);
    assert_int_equal(count(&out, "\"positions\""), 0);
    assert_int_equal(count(&out, "\"evidence_only\":true"), 1);
    anim_strbuf_free(&out);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* A refused render leaves out exactly as it was. */
static void expect_refusal(const anim_asset *a, const anim_config *cfg, const char *clip,
                           const char *message_part)
{
    anim_html_report_input in = {a, cfg, "doc.gltf", clip};
    anim_html_report_options opts = {false, NULL, NULL, NULL};
    anim_html_report_summary sum;
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_strbuf_puts(&out, "kept");
    size_t cap = out.cap;
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(anim_html_report_render(&in, &opts, &out, &sum, &err), -1);
    assert_int_equal(out.len, 4);
    assert_memory_equal(out.data, "kept", 4);
    assert_int_equal(out.cap, cap);
    if (!strstr(err.message, message_part))
        fail_msg("message '%s' lacks '%s'", err.message, message_part);
    anim_strbuf_free(&out);
}

static void test_missing_clip(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk-dirty.glb");
    anim_config *cfg = test_support_config_example("walk.animsmith.toml");
    expect_refusal(a, cfg, "run", "clip 'run' not found");
    expect_refusal(a, cfg, "", "not found");
    expect_refusal(a, cfg, "Walk", "not found");
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* Two takes named "walk" (one three-key translation track each), and a
 * two-key clip "pose" that has no judged grid. */
static anim_asset *two_takes(void)
{
    static const float t3[] = {0.0f, 0.5f, 1.0f}, v3[] = {0, 0, 0, 0, 0.1f, 0, 0, 0, 0};
    static const float t2[] = {0.0f, 1.0f}, v2[] = {0, 0, 0, 0, 0.1f, 0};
    test_support_gltf *g = test_support_gltf_new();
    test_support_node n = {"pelvis", -1, TEST_SUPPORT_T, {0, 1, 0}, {0, 0, 0, 1}, {1, 1, 1}};
    test_support_gltf_node(g, &n);
    for (int k = 0; k < 2; k++) {
        test_support_gltf_animation(g, "walk");
        test_support_gltf_track(g, 0, "translation", "LINEAR", 3, t3, v3, 0);
    }
    test_support_gltf_animation(g, "pose");
    test_support_gltf_track(g, 0, "translation", "LINEAR", 2, t2, v2, 0);
    anim_asset *a = test_support_gltf_load(g, "doc.gltf");
    test_support_gltf_free(g);
    return a;
}

static void test_ambiguous_and_gridless_clip(void **state)
{
    (void)state;
    anim_asset *a = two_takes();
    anim_config *cfg = test_support_config_default();
    expect_refusal(a, cfg, "walk", "clip 'walk' is ambiguous");
    expect_refusal(a, cfg, "pose", "has no judged pose grid");
    anim_config_free(cfg);
    anim_asset_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_dirty),
        cmocka_unit_test(test_missing_clip),
        cmocka_unit_test(test_ambiguous_and_gridless_clip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
