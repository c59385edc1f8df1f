/* The import-advice model (src/generate/import_advice*.c): the Unreal
 * sample-rate mapping, which profiles have a projection, and the V1
 * identity digest.
 *
 * The pinned identities were computed with a separate Python rendering
 * of the documented encoding (docs/import-advice.md): json.dumps(part,
 * separators=(",", ":"), ensure_ascii=False) of each part, then
 * hashlib.sha256(b"animsmith:engine-import-advice:1:identity\0" +
 * b"".join(struct.pack(">Q", len(p)) + p for p in parts)). A change of
 * the encoding, of a member name or of the member order fails them. The
 * identity must not depend on which Unity profile is selected except
 * through the provenance part, which names the profile. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "animsmith/engine.h"
#include "generate/import_advice.h"

static const char provenance[] = "{\"schema\":\"urn:animsmith:prediction-provenance:3\"}";

/* ---- Unreal sample rate ------------------------------------------------ */

static anim_engine_setting_value rate(const char *text, int64_t hz)
{
    anim_engine_setting_value v;
    memset(&v, 0, sizeof v);
    v.key = "sample_rate";
    v.type = ANIM_ENGINE_SETTING_SAMPLE_RATE;
    v.text = text;
    v.integer = hz;
    v.origin = ANIM_ENGINE_ORIGIN_EXPLICIT;
    return v;
}

static void test_sample_rate_mapping(void **state)
{
    (void)state;
    anim_advice_sample_rate r;
    anim_engine_setting_value v = rate("default_30", 0);
    assert_int_equal(anim_advice_unreal_sample_rate(&v, &r), 0);
    assert_true(r.use_default_sample_rate);
    assert_int_equal(r.custom_sample_rate, 0);

    v = rate("source_determined", 0);
    assert_int_equal(anim_advice_unreal_sample_rate(&v, &r), 0);
    assert_false(r.use_default_sample_rate);
    assert_int_equal(r.custom_sample_rate, 0);

    v = rate("custom_hz(60)", 60);
    assert_int_equal(anim_advice_unreal_sample_rate(&v, &r), 0);
    assert_false(r.use_default_sample_rate);
    assert_int_equal(r.custom_sample_rate, 60);

    v = rate("custom_hz(1)", 1);
    assert_int_equal(anim_advice_unreal_sample_rate(&v, &r), 0);
    assert_int_equal(r.custom_sample_rate, 1);
    v = rate("custom_hz(48000)", 48000);
    assert_int_equal(anim_advice_unreal_sample_rate(&v, &r), 0);
    assert_int_equal(r.custom_sample_rate, 48000);
}

static void test_sample_rate_refusals(void **state)
{
    (void)state;
    anim_advice_sample_rate r = {true, 7};
    /* Out of the closed domain, spelling and hertz disagreeing, a
     * default carrying a rate, another type, nothing. */
    const anim_engine_setting_value bad[] = {
        rate("custom_hz(0)", 0),      rate("custom_hz(48001)", 48001),
        rate("custom_hz(60)", 59),    rate("custom_hz(060)", 60),
        rate("default_30", 30),       rate("source_determined", 24),
        rate("default_60", 0),        rate("", 0),
        rate(NULL, 0),
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(anim_advice_unreal_sample_rate(&bad[i], &r), -1);
    anim_engine_setting_value word = rate("default_30", 0);
    word.type = ANIM_ENGINE_SETTING_WORD;
    assert_int_equal(anim_advice_unreal_sample_rate(&word, &r), -1);
    assert_int_equal(anim_advice_unreal_sample_rate(NULL, &r), -1);
    /* A refusal leaves the output alone. */
    assert_true(r.use_default_sample_rate);
    assert_int_equal(r.custom_sample_rate, 7);
}

/* ---- routes ------------------------------------------------------------- */

static const anim_engine_profile *profile(const char *name, uint32_t rev, const char *version,
                                          const char *importer)
{
    const anim_engine_profile *p = anim_engine_profile_find(name, rev, version, importer);
    assert_non_null(p);
    return p;
}

static void test_routes(void **state)
{
    (void)state;
    const char *why = "unchanged";
    assert_int_equal(anim_advice_route_of(profile("unity-generic", 1, "6000.3",
                                                  "fbx-model-importer"), &why),
                     ANIM_ADVICE_ROUTE_UNITY_V1);
    assert_null(why);
    assert_int_equal(anim_advice_route_of(profile("unity-humanoid", 1, "6000.3",
                                                  "fbx-model-importer"), NULL),
                     ANIM_ADVICE_ROUTE_UNITY_V1);
    assert_int_equal(anim_advice_route_of(profile("unreal", 1, "5.8", "fbx-importer"), NULL),
                     ANIM_ADVICE_ROUTE_UNMODELED_V1);
    assert_int_equal(anim_advice_route_of(profile("godot", 1, "4.7", "resource-importer-scene"),
                                          NULL),
                     ANIM_ADVICE_ROUTE_UNMODELED_V1);
    assert_int_equal(anim_advice_route_of(profile("unreal", 2, "5.8", "fbx-importer"), NULL),
                     ANIM_ADVICE_ROUTE_UNREAL_V2);
    assert_int_equal(anim_advice_route_of(profile("godot", 2, "4.7", "resource-importer-scene"),
                                          NULL),
                     ANIM_ADVICE_ROUTE_GODOT_V2);
    assert_int_equal(anim_advice_route_of(profile("unity-generic", 2, "6000.3",
                                                  "fbx-model-importer"), &why),
                     ANIM_ADVICE_ROUTE_NONE);
    assert_non_null(strstr(why, "select revision 1 for import advice"));
    for (uint32_t rev = 1; rev <= 3; rev++) {
        why = NULL;
        assert_int_equal(anim_advice_route_of(profile("bevy", rev, "0.19.0",
                                                      "gltf-asset-loader"), &why),
                         ANIM_ADVICE_ROUTE_NONE);
        assert_non_null(strstr(why, "no import-advice projection"));
    }
    assert_int_equal(anim_advice_route_of(NULL, &why), ANIM_ADVICE_ROUTE_NONE);
    assert_non_null(why);
}

/* ---- identity ----------------------------------------------------------- */

static anim_advice_clip clips[2];

/* Two clips: one empty take with nothing declared, one declared looping
 * clip with every measurement available. */
static void sample_advice(anim_import_advice *a, const anim_engine_profile *p)
{
    memset(a, 0, sizeof *a);
    memset(clips, 0, sizeof clips);
    a->schema_version = 1;
    a->profile = p;
    a->state = ANIM_ADVICE_AVAILABLE;
    a->provenance_json = provenance;
    a->provenance_len = strlen(provenance);
    a->closure_state = "complete";

    anim_advice_clip *c = &clips[0];
    c->source_clip_index = c->normalized_clip_index = 0;
    c->source_name = c->normalized_name = "Take 001";
    c->measured.duration = ANIM_AVAIL_MEASURED;
    c->measured.duration_s = 0.0;
    c->measured.speed = ANIM_AVAIL_UNAVAILABLE;
    c->measured.loop_endpoint = ANIM_AVAIL_NOT_APPLICABLE;
    c->measured.frame_grid = ANIM_AVAIL_NOT_APPLICABLE;
    c->lock_root_rotation = c->lock_root_height_y = true;

    c = &clips[1];
    c->source_clip_index = c->normalized_clip_index = 1;
    c->source_name = c->normalized_name = "mixamo.com";
    c->loop.set = c->loop.value = true;
    c->owner_xz = ANIM_OWNER_ANIMATION;
    c->owner_y = ANIM_OWNER_GAMEPLAY;
    c->measured.duration = ANIM_AVAIL_MEASURED;
    c->measured.duration_s = 1.0;
    c->measured.speed = ANIM_AVAIL_MEASURED;
    c->measured.speed_mps = 0.5;
    c->measured.loop_endpoint = ANIM_AVAIL_MEASURED;
    c->measured.loop_endpoint_mode = "unique_cycle";
    c->measured.frame_grid = ANIM_AVAIL_MEASURED;
    c->measured.frame_grid_fps = 30.0;
    c->measured.frame_grid_intervals = 30;
    c->lock_root_height_y = true;

    a->clips = clips;
    a->clip_count = 2;
    a->has_importer = true;
    a->convert_units = true;
    a->bake_axis_conversion = false;
    a->root_motion_source = "Reference/Root";
}

static void identify(anim_import_advice *a)
{
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(anim_import_advice_identify(a, &err), 0);
    assert_int_equal(strlen(a->identity), 71);
    assert_memory_equal(a->identity, "sha256:", 7);
}

static void test_identity_pinned(void **state)
{
    (void)state;
    anim_import_advice a;
    sample_advice(&a, profile("unity-generic", 1, "6000.3", "fbx-model-importer"));
    identify(&a);
    assert_string_equal(a.identity,
                        "sha256:efbb5cfe86127029bbcac544adbffd56b9c8973f6226d950d85d881745522ed7");
    /* Again: nothing but the value goes in. */
    char first[72];
    memcpy(first, a.identity, sizeof first);
    identify(&a);
    assert_string_equal(a.identity, first);

    /* A typed refusal has its own identity over the empty clip rows and
     * the null importer. */
    anim_import_advice r;
    sample_advice(&r, a.profile);
    r.state = ANIM_ADVICE_REFUSED;
    r.refusal_reason = ANIM_ADVICE_REFUSE_UNMODELED;
    r.clips = NULL;
    r.clip_count = 0;
    r.has_importer = false;
    identify(&r);
    assert_string_equal(r.identity,
                        "sha256:277ee0e1a4ea3d9d56372b35f0502ab1992bab228829297a9b14bc869611ef4b");
}

/* The profile reaches the identity only through the provenance part: the
 * lifecycle, clip rows and importer parts read no profile fact. */
static void test_identity_profile_independent_parts(void **state)
{
    (void)state;
    anim_import_advice g, h;
    sample_advice(&g, profile("unity-generic", 1, "6000.3", "fbx-model-importer"));
    identify(&g);
    char generic[72];
    memcpy(generic, g.identity, sizeof generic);
    sample_advice(&h, profile("unity-humanoid", 1, "6000.3", "fbx-model-importer"));
    identify(&h);
    assert_string_equal(h.identity, generic);

    anim_strbuf pg[4] = {ANIM_STRBUF_INIT, ANIM_STRBUF_INIT, ANIM_STRBUF_INIT, ANIM_STRBUF_INIT};
    anim_strbuf ph[4] = {ANIM_STRBUF_INIT, ANIM_STRBUF_INIT, ANIM_STRBUF_INIT, ANIM_STRBUF_INIT};
    anim_error err;
    anim_error_clear(&err);
    sample_advice(&g, profile("unity-generic", 1, "6000.3", "fbx-model-importer"));
    assert_int_equal(anim_import_advice_identity_parts(&g, pg, &err), 0);
    /* Humanoid has no Generic Root Motion Source: only the importer part
     * changes, and only by that member. */
    sample_advice(&h, profile("unity-humanoid", 1, "6000.3", "fbx-model-importer"));
    h.root_motion_source = NULL;
    assert_int_equal(anim_import_advice_identity_parts(&h, ph, &err), 0);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(pg[i].len, ph[i].len);
        assert_memory_equal(pg[i].data, ph[i].data, pg[i].len);
    }
    assert_non_null(strstr(pg[3].data, "\"generic_root_motion_source\":\"Reference/Root\""));
    assert_null(strstr(ph[3].data, "generic_root_motion_source"));
    assert_string_equal(pg[1].data, "{\"state\":\"available\"}");
    for (int i = 0; i < 4; i++) {
        anim_strbuf_free(&pg[i]);
        anim_strbuf_free(&ph[i]);
    }
}

/* Each covered member moves the digest; the closure state is read from
 * the provenance, which is covered. */
static void test_identity_covers_each_part(void **state)
{
    (void)state;
    const anim_engine_profile *p = profile("unity-generic", 1, "6000.3", "fbx-model-importer");
    anim_import_advice a;
    sample_advice(&a, p);
    identify(&a);
    char base[72];
    memcpy(base, a.identity, sizeof base);

    static const char other_provenance[] =
        "{\"schema\":\"urn:animsmith:prediction-provenance:3\",\"x\":1}";
    sample_advice(&a, p);
    a.provenance_json = other_provenance;
    a.provenance_len = strlen(other_provenance);
    identify(&a);
    assert_string_not_equal(a.identity, base);

    sample_advice(&a, p);
    a.state = ANIM_ADVICE_REFUSED;
    a.refusal_reason = ANIM_ADVICE_REFUSE_EVIDENCE;
    identify(&a);
    assert_string_not_equal(a.identity, base);

    sample_advice(&a, p);
    clips[1].measured.speed_mps = 0.25;
    identify(&a);
    assert_string_not_equal(a.identity, base);

    sample_advice(&a, p);
    clips[0].lock_root_position_xz = true;
    identify(&a);
    assert_string_not_equal(a.identity, base);

    sample_advice(&a, p);
    a.convert_units = false;
    identify(&a);
    assert_string_not_equal(a.identity, base);

    sample_advice(&a, p);
    a.clip_count = 1;
    identify(&a);
    assert_string_not_equal(a.identity, base);
}

/* The lengths frame the parts: a byte moved across a boundary is a
 * different input. */
static void test_identity_digest_framing(void **state)
{
    (void)state;
    anim_strbuf a[4] = {ANIM_STRBUF_INIT, ANIM_STRBUF_INIT, ANIM_STRBUF_INIT, ANIM_STRBUF_INIT};
    anim_strbuf b[4] = {ANIM_STRBUF_INIT, ANIM_STRBUF_INIT, ANIM_STRBUF_INIT, ANIM_STRBUF_INIT};
    anim_strbuf_puts(&a[0], "a");
    anim_strbuf_puts(&a[1], "bc");
    anim_strbuf_puts(&a[3], "d");
    anim_strbuf_puts(&b[0], "ab");
    anim_strbuf_puts(&b[1], "c");
    anim_strbuf_puts(&b[3], "d");
    char da[72], db[72];
    anim_advice_identity_digest(a, da);
    anim_advice_identity_digest(b, db);
    assert_string_equal(da,
                        "sha256:a5e08f65126c17e4570055ddfc83c03618047c58e5d9a41e6fc6575a96abd495");
    assert_string_equal(db,
                        "sha256:7ba502e852f6dc2bfab9116c7f294ee937501275ff676c7f16680f9555139fee");
    for (int i = 0; i < 4; i++) {
        anim_strbuf_free(&a[i]);
        anim_strbuf_free(&b[i]);
    }
}

/* ---- presentation -------------------------------------------------------- */

/* A take name that tries to end a Markdown cell and code span, start a new
 * line and colour the terminal is shown, not obeyed. */
static void test_views_escape_names(void **state)
{
    (void)state;
    anim_import_advice a;
    sample_advice(&a, profile("unity-generic", 1, "6000.3", "fbx-model-importer"));
    clips[1].source_name = "Run|`x`\n\x1b[31m\xe2\x80\xae";
    identify(&a);
    anim_advice_input in = {"in|put.fbx", "00", 3};
    anim_error err;
    anim_error_clear(&err);

    anim_strbuf md = ANIM_STRBUF_INIT;
    assert_int_equal(anim_import_advice_write_markdown(&a, &in, &md, &err), 0);
    assert_non_null(strstr(md.data, "| `Run\\|'x' \\u{1b}[31m\\u{202e}` |"));
    assert_non_null(strstr(md.data, "| Input | `in\\|put.fbx` |"));
    assert_null(strchr(md.data, 0x1b));
    anim_strbuf_free(&md);

    anim_strbuf text = ANIM_STRBUF_INIT;
    assert_int_equal(anim_import_advice_write_text(&a, &in, &text, &err), 0);
    assert_non_null(strstr(text.data, "clip 1 \"Run|`x`\\n\\u{1b}[31m\\u{202e}\" -> normalized clip 1"));
    assert_null(strchr(text.data, 0x1b));
    assert_non_null(strstr(text.data, "frame_grid=30.0fps/30"));
    assert_non_null(strstr(text.data, "identity: sha256:"));
    anim_strbuf_free(&text);
}

/* The V2 views show the basis with origins, then the projection only when
 * available. */
static void test_views_v2(void **state)
{
    (void)state;
    anim_engine_setting_value v = rate("custom_hz(60)", 60);
    const anim_engine_setting_value *basis[1] = {&v};
    anim_import_advice a;
    memset(&a, 0, sizeof a);
    a.schema_version = 2;
    a.profile = profile("unreal", 2, "5.8", "fbx-importer");
    a.closure_state = "complete";
    a.basis = basis;
    a.basis_count = 1;
    a.state = ANIM_ADVICE_AVAILABLE;
    a.projection = ANIM_ADVICE_PROJECTION_UNREAL;
    assert_int_equal(anim_advice_unreal_sample_rate(&v, &a.unreal), 0);
    a.unreal_origin = v.origin;
    anim_advice_input in = {"walk.fbx", "00", 3};
    anim_error err;
    anim_error_clear(&err);
    anim_strbuf text = ANIM_STRBUF_INIT;
    assert_int_equal(anim_import_advice_write_text(&a, &in, &text, &err), 0);
    assert_non_null(strstr(text.data, "  sample_rate = \"custom_hz(60)\" (explicit_config)\n"
                                      "state: available\n"
                                      "projection: unreal_fbx_import_data\n"
                                      "  bUseDefaultSampleRate = false (explicit_config)\n"
                                      "  CustomSampleRate = 60 (explicit_config)\n"));
    anim_strbuf_free(&text);

    a.state = ANIM_ADVICE_REFUSED;
    a.refusal_reason = ANIM_ADVICE_REFUSE_CLOSURE;
    a.closure_state = "partial";
    anim_strbuf md = ANIM_STRBUF_INIT;
    assert_int_equal(anim_import_advice_write_markdown(&a, &in, &md, &err), 0);
    assert_non_null(strstr(md.data, "| Refusal reason | `dependency_closure_incomplete` |"));
    assert_null(strstr(md.data, "Projection"));
    anim_strbuf_free(&md);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sample_rate_mapping),
        cmocka_unit_test(test_sample_rate_refusals),
        cmocka_unit_test(test_routes),
        cmocka_unit_test(test_identity_pinned),
        cmocka_unit_test(test_identity_profile_independent_parts),
        cmocka_unit_test(test_identity_covers_each_part),
        cmocka_unit_test(test_identity_digest_framing),
        cmocka_unit_test(test_views_escape_names),
        cmocka_unit_test(test_views_v2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
