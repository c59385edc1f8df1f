/* Engine profiles (docs/engine-profiles.md): the ten frozen tuples and
 * their facts; every refusal of the settings validation (revision-1
 * profiles, unknown keys, values, types, ranges, frozen values, scope,
 * missing required settings, the source-path grammar) with its exact
 * message and position; every default with its origin; and the same-load
 * run: format refusal, clip settings resolved field by field, required
 * clip settings, duplicate names, the 4,096-clip bound, the dependency
 * closure and a deterministic provenance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "animsmith/config.h"
#include "animsmith/engine.h"
#include "animsmith/fbx.h"
#include "animsmith/gltf.h"
#include "animsmith/json.h"
#include "animsmith/json_write.h"
#include "animsmith/strbuf.h"
#include "support/test_support.h"

/* ---- helpers -------------------------------------------------------- */

#define BEVY(rev)                                                                  \
    "[engine]\nprofile = \"bevy\"\nprofile_revision = " rev "\n"                   \
    "engine_version = \"0.19.0\"\nimporter = \"gltf-asset-loader\"\n"
#define UNITY_GENERIC(rev)                                                         \
    "[engine]\nprofile = \"unity-generic\"\nprofile_revision = " rev "\n"          \
    "engine_version = \"6000.3\"\nimporter = \"fbx-model-importer\"\n"
#define UNITY_HUMANOID                                                             \
    "[engine]\nprofile = \"unity-humanoid\"\nprofile_revision = 1\n"               \
    "engine_version = \"6000.3\"\nimporter = \"fbx-model-importer\"\n"
#define UNREAL(rev)                                                                \
    "[engine]\nprofile = \"unreal\"\nprofile_revision = " rev "\n"                 \
    "engine_version = \"5.8\"\nimporter = \"fbx-importer\"\n"
#define GODOT(rev)                                                                 \
    "[engine]\nprofile = \"godot\"\nprofile_revision = " rev "\n"                  \
    "engine_version = \"4.7\"\nimporter = \"resource-importer-scene\"\n"

/* Both Bevy environment facts (line 7 and 8 after a five-line [engine]). */
#define BEVY_REQUIRED                                                              \
    "[engine.settings]\nextension_handler_environment = \"bare_empty\"\n"          \
    "bevy_animation_feature = true\n"
#define UNITY2_DOC(source)                                                         \
    "[engine.settings]\nanimation_type = \"generic\"\n"                            \
    "avatar_setup = \"create_from_this_model\"\nimport_animation = true\n"         \
    "root_motion_source = \"" source "\"\n"
#define UNITY_CLIPS                                                                \
    "[clips.\"*\".engine_settings]\nroot_rotation = \"extract\"\n"                 \
    "root_position_y = \"bake\"\nroot_position_xz = \"extract\"\n"

static anim_config *load(const char *text)
{
    anim_error err;
    anim_error_clear(&err);
    anim_config *cfg = anim_config_load_bytes("e.toml", text, strlen(text), &err);
    if (!cfg)
        print_message("unexpected error: %s\n", err.message);
    assert_non_null(cfg);
    return cfg;
}

/* The load must fail with exactly "bad config e.toml: " + want. */
static void fails(const char *text, const char *want)
{
    anim_error err;
    anim_error_clear(&err);
    anim_config *cfg = anim_config_load_bytes("e.toml", text, strlen(text), &err);
    if (cfg) {
        anim_config_free(cfg);
        fail_msg("expected failure: %s", want);
    }
    char full[ANIM_ERROR_MESSAGE_MAX];
    snprintf(full, sizeof full, "bad config e.toml: %s", want);
    assert_string_equal(err.message, full);
    assert_int_equal(err.code, ANIM_ERR_INVALID);
}

static const anim_engine_setting_value *resolved(const anim_config *cfg, const char *key)
{
    for (uint32_t i = 0; i < cfg->engine.settings_resolved_count; i++)
        if (strcmp(cfg->engine.settings_resolved[i].key, key) == 0)
            return &cfg->engine.settings_resolved[i];
    return NULL;
}

static anim_asset *load_asset(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/examples/assets/%s", test_support_source_dir(), name);
    anim_error err;
    anim_error_clear(&err);
    anim_asset *a = anim_asset_load(path, NULL, &err);
    if (!a)
        print_message("cannot load %s: %s\n", path, err.message);
    assert_non_null(a);
    return a;
}

/* The provenance as compact JSON (caller frees). */
static char *provenance(const anim_engine_run *run)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &sb, false);
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(anim_engine_write_provenance(&w, run, &err), 0);
    assert_true(anim_json_writer_ok(&w));
    assert_false(sb.failed);
    char *s = strdup(sb.data);
    anim_strbuf_free(&sb);
    return s;
}

static const anim_json_value *parse(anim_arena *arena, const char *json)
{
    anim_error err;
    anim_error_clear(&err);
    const anim_json_value *v = anim_json_parse(arena, json, strlen(json), NULL, &err);
    if (!v)
        print_message("bad JSON: %s\n%s\n", err.message, json);
    assert_non_null(v);
    return v;
}

/* ---- profiles ------------------------------------------------------- */

static void test_profile_table(void **state)
{
    (void)state;
    assert_int_equal(anim_engine_profile_count(), 10);
    assert_null(anim_engine_profile_at(10));
    const anim_engine_profile *p =
        anim_engine_profile_find("bevy", 3, "0.19.0", "gltf-asset-loader");
    assert_non_null(p);
    assert_string_equal(p->provenance_schema, "urn:animsmith:prediction-provenance:5");
    assert_int_equal(p->formats, ANIM_ENGINE_FORMAT_GLTF | ANIM_ENGINE_FORMAT_GLB);
    /* No nearest version, no fallback. */
    assert_null(anim_engine_profile_find("bevy", 4, "0.19.0", "gltf-asset-loader"));
    assert_null(anim_engine_profile_find("bevy", 1, "0.19", "gltf-asset-loader"));
    assert_null(anim_engine_profile_find("Bevy", 1, "0.19.0", "gltf-asset-loader"));
    assert_null(anim_engine_profile_find(NULL, 1, "0.19.0", "gltf-asset-loader"));

    p = anim_engine_profile_find("unity-generic", 2, "6000.3", "fbx-model-importer");
    assert_non_null(p);
    assert_string_equal(p->provenance_schema, "urn:animsmith:prediction-provenance:6");
    assert_int_equal(p->formats, ANIM_ENGINE_FORMAT_FBX);
    p = anim_engine_profile_find("godot", 1, "4.7", "resource-importer-scene");
    assert_int_equal(p->formats,
                     ANIM_ENGINE_FORMAT_GLTF | ANIM_ENGINE_FORMAT_GLB | ANIM_ENGINE_FORMAT_FBX);

    /* Every profile has facts, with unique keys. */
    for (size_t i = 0; i < anim_engine_profile_count(); i++) {
        size_t n = 0;
        const anim_engine_fact *f = anim_engine_profile_facts(anim_engine_profile_at(i), &n);
        assert_true(n > 0);
        for (size_t a = 0; a < n; a++)
            for (size_t b = a + 1; b < n; b++)
                assert_string_not_equal(f[a].key, f[b].key);
    }
    p = anim_engine_profile_find("bevy", 1, "0.19.0", "gltf-asset-loader");
    const anim_engine_fact *f = anim_engine_profile_fact(p, "gltf_asset_label_animation_format");
    assert_non_null(f);
    assert_string_equal(f->text, "Animation{index}");
    f = anim_engine_profile_fact(p, "source_commit");
    assert_string_equal(f->text, "c6f634ca9f406d68ba5109d921247b654cb42c10");
    assert_string_equal(anim_engine_profile_fact(p, "gltf_crate_version")->text, "1.4.1");
    assert_int_equal(anim_engine_profile_fact(p, "bevy_world_length_units_per_metre")->integer, 1);
    p = anim_engine_profile_find("unreal", 1, "5.8", "fbx-importer");
    assert_string_equal(anim_engine_profile_fact(p, "coordinate_system")->text,
                        "left_handed_z_up_x_forward");
    assert_string_equal(anim_engine_profile_fact(p, "world_length_unit")->text, "centimetre");
    assert_null(anim_engine_profile_fact(p, "gltf_asset_label_animation_format"));

    assert_string_equal(anim_engine_format_name(ANIM_ENGINE_FORMAT_GLB), "glb");
    assert_null(anim_engine_format_name(3));
    assert_string_equal(anim_engine_origin_name(ANIM_ENGINE_ORIGIN_DEFAULT), "profile_default");
}

/* ---- validation: refusals ------------------------------------------- */

static void test_revision_one_has_no_settings(void **state)
{
    (void)state;
    fails(BEVY("1") "[engine.settings]\nload_animations = true\n",
          "line 7 column 1: engine.settings.load_animations: bevy revision 1 has no engine "
          "settings");
    fails(BEVY("1") "[engine.settings]\n",
          "line 6 column 1: engine.settings: bevy revision 1 has no engine settings");
    fails(UNREAL("1") "[engine.settings]\nsample_rate = \"default_30\"\n",
          "line 7 column 1: engine.settings.sample_rate: unreal revision 1 has no engine "
          "settings");
    fails(GODOT("1") "[engine.settings]\nanimation_fps = 30\n",
          "line 7 column 1: engine.settings.animation_fps: godot revision 1 has no engine "
          "settings");
    fails(BEVY("1") "[clips.walk.engine_settings]\nroot_rotation = \"bake\"\n",
          "line 7 column 1: clips.\"walk\".engine_settings.root_rotation: bevy revision 1 has "
          "no engine settings");
    fails(UNREAL("1") "[clips.\"*\".engine_settings]\n",
          "line 6 column 1: clips.\"*\".engine_settings: unreal revision 1 has no engine "
          "settings");
    /* Either order in the file. */
    fails("[clips.walk.engine_settings]\nroot_rotation = \"bake\"\n" GODOT("1"),
          "line 2 column 1: clips.\"walk\".engine_settings.root_rotation: godot revision 1 has "
          "no engine settings");
}

static void test_unknown_keys_and_values(void **state)
{
    (void)state;
    fails(BEVY("2") BEVY_REQUIRED "load_mesh = \"empty\"\n",
          "line 9 column 1: unknown engine setting \"load_mesh\" in [engine.settings] of bevy "
          "revision 2 (did you mean \"load_meshes\"?)");
    fails(BEVY("2") BEVY_REQUIRED "frobnicate = 1\n",
          "line 9 column 1: unknown engine setting \"frobnicate\" in [engine.settings] of bevy "
          "revision 2 (known engine settings: extension_handler_environment, "
          "bevy_animation_feature, rotate_scene_entity, rotate_meshes, load_meshes, "
          "load_animations)");
    /* A key of another revision says which. */
    fails(BEVY("2") BEVY_REQUIRED "target_pointer_width = \"bits64\"\n",
          "line 9 column 1: engine.settings.target_pointer_width is a setting of bevy revision "
          "3, not of revision 2");
    fails(UNITY_GENERIC("2") UNITY2_DOC("Reference/Root") "convert_units = true\n",
          "line 11 column 1: engine.settings.convert_units is a setting of unity-generic "
          "revision 1, not of revision 2");
    fails(BEVY("2") BEVY_REQUIRED "load_meshes = \"some\"\n",
          "line 9 column 15: engine.settings.load_meshes must be \"nonempty\" or \"empty\" (got "
          "\"some\")");
    fails(BEVY("3") BEVY_REQUIRED "target_pointer_width = \"bits16\"\n",
          "line 9 column 24: engine.settings.target_pointer_width must be \"bits32\" or "
          "\"bits64\" (got \"bits16\")");
    fails(BEVY("2") "[engine.settings]\nextension_handler_environment = \"custom\"\n",
          "line 7 column 33: engine.settings.extension_handler_environment must be "
          "\"bare_empty\" or \"bevy_pbr_stock_0_19\" (got \"custom\")");
    fails(UNITY_GENERIC("2") UNITY2_DOC("R") "[clips.\"*\".engine_settings]\n"
                                             "root_rotation = \"keep\"\n",
          "line 12 column 17: clips.\"*\".engine_settings.root_rotation must be \"bake\" or "
          "\"extract\" (got \"keep\")");
    fails(UNITY_GENERIC("2") UNITY2_DOC("R") "[clips.\"*\".engine_settings]\n"
                                             "root_rotatoin = \"bake\"\n",
          "line 12 column 1: unknown engine setting \"root_rotatoin\" in "
          "[clips.\"*\".engine_settings] of unity-generic revision 2 (did you mean "
          "\"root_rotation\"?)");
    /* The value is quoted so it is safe in a terminal. */
    fails(BEVY("2") BEVY_REQUIRED "load_meshes = \"\\u001b[2J\"\n",
          "line 9 column 15: engine.settings.load_meshes must be \"nonempty\" or \"empty\" (got "
          "\"\\u001B[2J\")");
}

static void test_types_ranges_frozen(void **state)
{
    (void)state;
    fails(BEVY("3") "[engine.settings]\nextension_handler_environment = \"bare_empty\"\n"
                    "bevy_animation_feature = 1\n",
          "line 8 column 26: engine.settings.bevy_animation_feature must be a boolean, found "
          "integer");
    fails(GODOT("2") "[engine.settings]\nanimation_fps = 500\n",
          "line 7 column 17: engine.settings.animation_fps must be an integer in [1, 120] (got "
          "500)");
    fails(GODOT("2") "[engine.settings]\nanimation_fps = 0\n",
          "line 7 column 17: engine.settings.animation_fps must be an integer in [1, 120] (got "
          "0)");
    fails(GODOT("2") "[engine.settings]\nanimation_fps = 30.0\n",
          "line 7 column 17: engine.settings.animation_fps must be an integer, found float");
    fails(GODOT("2") "[engine.settings]\nanimation_trimming = \"no\"\n",
          "line 7 column 22: engine.settings.animation_trimming must be a boolean, found string");
    static const char *const bad_rates[] = {"custom_hz(99999)", "custom_hz(0)",
                                            "custom_hz(48001)", "custom_hz(060)",
                                            "custom_hz(+60)",   "custom_hz()",
                                            "custom_hz(60",     "default_60",
                                            "Default_30",       ""};
    for (size_t i = 0; i < sizeof bad_rates / sizeof bad_rates[0]; i++) {
        char text[512], want[512];
        snprintf(text, sizeof text, UNREAL("2") "[engine.settings]\nsample_rate = \"%s\"\n",
                 bad_rates[i]);
        snprintf(want, sizeof want,
                 "line 7 column 15: engine.settings.sample_rate must be \"default_30\", "
                 "\"source_determined\" or \"custom_hz(N)\" with N an integer in [1, 48000] "
                 "(got \"%s\")",
                 bad_rates[i]);
        fails(text, want);
    }
    fails(UNREAL("2") "[engine.settings]\nsample_rate = 30\n",
          "line 7 column 15: engine.settings.sample_rate must be a string, found integer");
    fails(UNITY_GENERIC("2") "[engine.settings]\nanimation_type = \"humanoid\"\n",
          "line 7 column 18: engine.settings.animation_type is frozen to \"generic\" by "
          "unity-generic revision 2 (got \"humanoid\")");
    fails(UNITY_GENERIC("2") "[engine.settings]\nanimation_type = \"animator\"\n",
          "line 7 column 18: engine.settings.animation_type must be one of \"generic\", "
          "\"humanoid\", \"legacy\" (got \"animator\")");
    fails(UNITY_GENERIC("2") "[engine.settings]\navatar_setup = \"copy_from_other_avatar\"\n",
          "line 7 column 16: engine.settings.avatar_setup is frozen to "
          "\"create_from_this_model\" by unity-generic revision 2 (got "
          "\"copy_from_other_avatar\")");
    fails(UNITY_GENERIC("2") "[engine.settings]\nimport_animation = false\n",
          "line 7 column 20: engine.settings.import_animation is frozen to true by "
          "unity-generic revision 2 (got false)");
}

static void test_scope_and_applicability(void **state)
{
    (void)state;
    fails(UNITY_GENERIC("2") UNITY2_DOC("R") "root_rotation = \"bake\"\n",
          "line 11 column 1: engine.settings.root_rotation is a clip-scoped setting of "
          "unity-generic revision 2: set it in [clips.\"<selector>\".engine_settings]");
    fails(UNITY_GENERIC("2") UNITY2_DOC("R") "[clips.walk.engine_settings]\n"
                                             "root_motion_source = \"R\"\n",
          "line 12 column 1: clips.\"walk\".engine_settings.root_motion_source is a "
          "document-scoped setting of unity-generic revision 2: set it in [engine.settings]");
    fails(UNREAL("2") "[engine.settings]\nsample_rate = \"default_30\"\n"
                      "[clips.a.engine_settings]\nsample_rate = \"default_30\"\n",
          "line 9 column 1: clips.\"a\".engine_settings.sample_rate is a document-scoped "
          "setting of unreal revision 2: set it in [engine.settings]");
    fails(BEVY("2") BEVY_REQUIRED "[clips.\"*\".engine_settings]\nroot_rotation = \"bake\"\n",
          "line 10 column 1: clips.\"*\".engine_settings.root_rotation: bevy revision 2 has no "
          "clip-scoped engine settings (its settings are document-scoped: [engine.settings])");
    fails(BEVY("3") BEVY_REQUIRED "[clips.\"*\".engine_settings]\n",
          "line 9 column 1: clips.\"*\".engine_settings: bevy revision 3 has no clip-scoped "
          "engine settings (its settings are document-scoped: [engine.settings])");
    fails(GODOT("2") "[clips.w]\nengine_settings = { animation_fps = 24 }\n",
          "line 7 column 21: clips.\"w\".engine_settings.animation_fps is a document-scoped "
          "setting of godot revision 2: set it in [engine.settings]");
    fails(UNITY_HUMANOID "[engine.settings]\nconvert_units = true\nbake_axis_conversion = false\n"
                         "root_motion_source = \"Root\"\n",
          "line 9 column 1: engine.settings.root_motion_source is not applicable to "
          "unity-humanoid");
}

static void test_missing_required(void **state)
{
    (void)state;
    fails(UNITY_GENERIC("2") "[engine.settings]\nanimation_type = \"generic\"\n"
                             "avatar_setup = \"create_from_this_model\"\n"
                             "import_animation = true\n",
          "line 6 column 1: engine.settings is missing required key \"root_motion_source\" "
          "(unity-generic revision 2 has no default for it)");
    /* Without [engine.settings], at [engine]. */
    fails("\n" UNREAL("2"), "line 2 column 1: engine.settings is missing required key "
                            "\"sample_rate\" (unreal revision 2 has no default for it)");
    fails(BEVY("2") "[engine.settings]\nbevy_animation_feature = true\n",
          "line 6 column 1: engine.settings is missing required key "
          "\"extension_handler_environment\" (bevy revision 2 has no default for it)");
    fails(BEVY("3") "[engine.settings]\nextension_handler_environment = \"bare_empty\"\n",
          "line 6 column 1: engine.settings is missing required key \"bevy_animation_feature\" "
          "(bevy revision 3 has no default for it)");
    fails(UNITY_GENERIC("1") "[engine.settings]\nconvert_units = true\n"
                             "root_motion_source = \"Hips\"\n",
          "line 6 column 1: engine.settings is missing required key \"bake_axis_conversion\" "
          "(unity-generic revision 1 has no default for it)");
    fails(UNITY_HUMANOID "[engine.settings]\nbake_axis_conversion = true\n",
          "line 6 column 1: engine.settings is missing required key \"convert_units\" "
          "(unity-humanoid revision 1 has no default for it)");
    /* A frozen setting is still stated, never assumed. */
    fails(UNITY_GENERIC("2") "[engine.settings]\navatar_setup = \"create_from_this_model\"\n"
                             "import_animation = true\nroot_motion_source = \"R\"\n",
          "line 6 column 1: engine.settings is missing required key \"animation_type\" "
          "(unity-generic revision 2 has no default for it)");
}

static void test_source_path_grammar(void **state)
{
    (void)state;
    static const struct {
        const char *toml; /* the TOML string body */
        const char *why;
    } bad[] = {
        {"Reference//Root", "empty segment (\"//\")"},
        {"../Root", "\"..\" segment"},
        {"a/./b", "\".\" segment"},
        {"/Root", "it starts with \"/\""},
        {"Root/", "it ends with \"/\""},
        {"", "the path is empty"},
        {"Ref\\\\Root", "backslash (\"/\" is the only separator)"},
        {"Ref\\tRoot", "control character U+0009"},
        {"Ref\\u007FRoot", "control character U+007F"},
        {"Ref\\u0085Root", "control character U+0085"},
        {"Ref\\u200BRoot", "Unicode format character U+200B"},
        {"Ref\\u202ERoot", "Unicode format character U+202E"},
        {"Ref\\u2060Root", "Unicode format character U+2060"},
        {"\\uFEFFRoot", "Unicode format character U+FEFF"},
        {"Ref\\u00ADRoot", "Unicode format character U+00AD"},
        {"Ref\\U000E0001Root", "Unicode format character U+E0001"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512], want[512];
        snprintf(text, sizeof text, UNITY_GENERIC("2") UNITY2_DOC("%s"), bad[i].toml);
        /* The quoted value that follows is TOML-escaped (tested with the
         * quoting itself); the reason is the part that matters here. */
        snprintf(want, sizeof want,
                 "bad config e.toml: line 10 column 22: engine.settings.root_motion_source is "
                 "not a valid source-transform path: %s (got \"",
                 bad[i].why);
        anim_error err;
        anim_error_clear(&err);
        anim_config *cfg = anim_config_load_bytes("e.toml", text, strlen(text), &err);
        assert_null(cfg);
        if (strncmp(err.message, want, strlen(want)) != 0)
            fail_msg("case %zu: got \"%s\", want prefix \"%s\"", i, err.message, want);
    }
    fails(UNITY_GENERIC("2") UNITY2_DOC("Reference//Root"),
          "line 10 column 22: engine.settings.root_motion_source is not a valid "
          "source-transform path: empty segment (\"//\") (got \"Reference//Root\")");
    fails(UNITY_GENERIC("1") "[engine.settings]\nconvert_units = true\n"
                             "bake_axis_conversion = true\nroot_motion_source = \"../Root\"\n",
          "line 9 column 22: engine.settings.root_motion_source is not a valid "
          "source-transform path: \"..\" segment (got \"../Root\")");
    fails(UNITY_GENERIC("2") "[engine.settings]\nroot_motion_source = 3\n",
          "line 7 column 22: engine.settings.root_motion_source must be a string, found "
          "integer");

    /* The limits, through the public predicate. */
    char *buf = malloc(8192);
    assert_non_null(buf);
    memset(buf, 'a', 1024);
    assert_true(anim_engine_path_valid(buf, 1024));
    memset(buf, 'a', 1025);
    assert_false(anim_engine_path_valid(buf, 1025));
    /* 4,096 bytes pass, 4,097 do not (five segments, none too long). */
    size_t n = 0;
    for (int s = 0; s < 4; s++) {
        memset(buf + n, 'b', 1000);
        n += 1000;
        buf[n++] = '/';
    }
    memset(buf + n, 'c', 92);
    n += 92;
    assert_int_equal(n, 4096);
    assert_true(anim_engine_path_valid(buf, n));
    buf[n++] = 'c';
    assert_false(anim_engine_path_valid(buf, n));
    /* 256 segments pass, 257 do not. */
    n = 0;
    for (int s = 0; s < 257; s++) {
        if (s)
            buf[n++] = '/';
        buf[n++] = 'x';
    }
    assert_false(anim_engine_path_valid(buf, n));
    assert_true(anim_engine_path_valid(buf, n - 2));
    free(buf);
    assert_true(anim_engine_path_valid("Reference/Root", 14));
    assert_true(anim_engine_path_valid("mixamorig:Hips", 14));
    assert_true(anim_engine_path_valid("Armature/\xC3\xA9paule", 16)); /* é: UTF-8 */
    assert_false(anim_engine_path_valid("Armature/\xC3", 10));          /* truncated */
    assert_false(anim_engine_path_valid("A\xC0\xAF", 3));               /* overlong "/" */
    assert_false(anim_engine_path_valid("A\0B", 3));
    assert_false(anim_engine_path_valid("..", 2));
    assert_true(anim_engine_path_valid("...", 3)); /* only "." and ".." are reserved */
    assert_true(anim_engine_path_valid(".a", 2));
    assert_false(anim_engine_path_valid(NULL, 0));
}

/* ---- validation: accepted, defaults and origins ---------------------- */

static void test_defaults_and_origins(void **state)
{
    (void)state;
    anim_config *cfg = load(GODOT("2"));
    assert_int_equal(cfg->engine.settings_resolved_count, 2);
    const anim_engine_setting_value *v = resolved(cfg, "animation_fps");
    assert_int_equal(v->type, ANIM_ENGINE_SETTING_INT);
    assert_int_equal(v->integer, 30);
    assert_int_equal(v->origin, ANIM_ENGINE_ORIGIN_DEFAULT);
    v = resolved(cfg, "animation_trimming");
    assert_false(v->boolean);
    assert_int_equal(v->origin, ANIM_ENGINE_ORIGIN_DEFAULT);
    anim_config_free(cfg);

    cfg = load(GODOT("2") "[engine.settings]\nanimation_trimming = true\nanimation_fps = 120\n");
    /* Vocabulary order, not file order. */
    assert_string_equal(cfg->engine.settings_resolved[0].key, "animation_fps");
    assert_int_equal(cfg->engine.settings_resolved[0].integer, 120);
    assert_int_equal(cfg->engine.settings_resolved[0].origin, ANIM_ENGINE_ORIGIN_EXPLICIT);
    assert_true(cfg->engine.settings_resolved[1].boolean);
    assert_int_equal(cfg->engine.settings_resolved[1].origin, ANIM_ENGINE_ORIGIN_EXPLICIT);
    anim_config_free(cfg);

    cfg = load(BEVY("2") BEVY_REQUIRED "load_meshes = \"empty\"\n");
    assert_int_equal(cfg->engine.settings_resolved_count, 6);
    static const struct {
        const char *key;
        anim_engine_setting_origin origin;
    } bevy[] = {
        {"extension_handler_environment", ANIM_ENGINE_ORIGIN_EXPLICIT},
        {"bevy_animation_feature", ANIM_ENGINE_ORIGIN_EXPLICIT},
        {"rotate_scene_entity", ANIM_ENGINE_ORIGIN_DEFAULT},
        {"rotate_meshes", ANIM_ENGINE_ORIGIN_DEFAULT},
        {"load_meshes", ANIM_ENGINE_ORIGIN_EXPLICIT},
        {"load_animations", ANIM_ENGINE_ORIGIN_DEFAULT},
    };
    for (size_t i = 0; i < 6; i++) {
        assert_string_equal(cfg->engine.settings_resolved[i].key, bevy[i].key);
        assert_int_equal(cfg->engine.settings_resolved[i].origin, bevy[i].origin);
    }
    assert_string_equal(resolved(cfg, "extension_handler_environment")->text, "bare_empty");
    assert_string_equal(resolved(cfg, "load_meshes")->text, "empty");
    assert_false(resolved(cfg, "rotate_scene_entity")->boolean);
    assert_false(resolved(cfg, "rotate_meshes")->boolean);
    assert_true(resolved(cfg, "load_animations")->boolean);
    anim_config_free(cfg);

    /* Revision 3: target_pointer_width has no default: absent stays absent. */
    cfg = load(BEVY("3") BEVY_REQUIRED);
    assert_int_equal(cfg->engine.settings_resolved_count, 6);
    assert_null(resolved(cfg, "target_pointer_width"));
    assert_string_equal(resolved(cfg, "load_meshes")->text, "nonempty");
    assert_int_equal(resolved(cfg, "load_meshes")->origin, ANIM_ENGINE_ORIGIN_DEFAULT);
    anim_config_free(cfg);
    cfg = load(BEVY("3") BEVY_REQUIRED "target_pointer_width = \"bits32\"\n");
    assert_string_equal(resolved(cfg, "target_pointer_width")->text, "bits32");
    anim_config_free(cfg);

    static const struct {
        const char *spelling;
        int64_t hz;
    } rates[] = {{"default_30", 0},     {"source_determined", 0}, {"custom_hz(1)", 1},
                 {"custom_hz(60)", 60}, {"custom_hz(48000)", 48000}};
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, UNREAL("2") "[engine.settings]\nsample_rate = \"%s\"\n",
                 rates[i].spelling);
        cfg = load(text);
        v = resolved(cfg, "sample_rate");
        assert_int_equal(v->type, ANIM_ENGINE_SETTING_SAMPLE_RATE);
        assert_string_equal(v->text, rates[i].spelling);
        assert_int_equal(v->integer, rates[i].hz);
        assert_int_equal(v->origin, ANIM_ENGINE_ORIGIN_EXPLICIT);
        anim_config_free(cfg);
    }

    cfg = load(UNITY_GENERIC("2") UNITY2_DOC("Reference/Root") UNITY_CLIPS);
    assert_int_equal(cfg->engine.settings_resolved_count, 4);
    assert_string_equal(resolved(cfg, "animation_type")->text, "generic");
    assert_true(resolved(cfg, "import_animation")->boolean);
    assert_int_equal(resolved(cfg, "root_motion_source")->type, ANIM_ENGINE_SETTING_PATH);
    assert_string_equal(resolved(cfg, "root_motion_source")->text, "Reference/Root");
    assert_null(resolved(cfg, "root_rotation")); /* clip-scoped */
    anim_config_free(cfg);

    /* Revision 1 profiles resolve nothing; no profile validates nothing. */
    cfg = load(UNREAL("1"));
    assert_int_equal(cfg->engine.settings_resolved_count, 0);
    anim_config_free(cfg);
    cfg = load("[engine.settings]\nanything = 1\n[clips.w.engine_settings]\nx = 1\n");
    assert_false(cfg->engine.present);
    anim_config_free(cfg);

    /* The public validator gives the same answer on a loaded config. */
    cfg = load(GODOT("2"));
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(anim_engine_validate_config(cfg, &err), 0);
    anim_config_free(cfg);
}

static void test_vocabulary_api(void **state)
{
    (void)state;
    const anim_engine_profile *p =
        anim_engine_profile_find("bevy", 3, "0.19.0", "gltf-asset-loader");
    size_t n = 0;
    const anim_engine_setting_def *defs = anim_engine_settings_of(p, &n);
    assert_int_equal(n, 7);
    assert_string_equal(defs[6].key, "target_pointer_width");
    assert_false(defs[6].required);
    assert_false(defs[6].has_default);
    const anim_engine_setting_def *d = anim_engine_setting_find(p, "load_meshes", 11);
    assert_non_null(d);
    assert_string_equal(d->default_text, "nonempty");
    assert_null(anim_engine_setting_find(p, "load_mesh", 9));
    p = anim_engine_profile_find("bevy", 1, "0.19.0", "gltf-asset-loader");
    assert_null(anim_engine_settings_of(p, &n));
    assert_int_equal(n, 0);
    p = anim_engine_profile_find("unity-humanoid", 1, "6000.3", "fbx-model-importer");
    assert_true(anim_engine_setting_not_applicable(p, "root_motion_source", 18));
    assert_false(anim_engine_setting_not_applicable(p, "convert_units", 13));
    d = anim_engine_setting_find(p, "root_position_xz", 16);
    assert_int_equal(d->scope, ANIM_ENGINE_SCOPE_CLIP);
    assert_true(d->required);
}

/* ---- the same-load run ------------------------------------------------ */

static void test_prepare_format_refusal(void **state)
{
    (void)state;
    anim_asset *glb = load_asset("walk.glb");
    anim_asset *fbx = load_asset("mixamo-walk.fbx");
    anim_arena *arena = anim_arena_new();
    anim_engine_run *run = (anim_engine_run *)1;
    anim_error err;

    anim_config *cfg = load(UNITY_GENERIC("2") UNITY2_DOC("R") UNITY_CLIPS);
    anim_error_clear(&err);
    assert_int_equal(anim_engine_prepare(cfg, glb, arena, &run, &err), -1);
    assert_null(run);
    char want[4200];
    snprintf(want, sizeof want, "%s: engine profile unity-generic revision 2 accepts FBX only",
             glb->source.path);
    assert_string_equal(err.message, want);
    assert_int_equal(anim_engine_prepare(cfg, fbx, arena, &run, &err), 0);
    assert_non_null(run);
    assert_int_equal(anim_engine_run_format(run), ANIM_ENGINE_FORMAT_FBX);
    anim_config_free(cfg);

    cfg = load(BEVY("1"));
    assert_int_equal(anim_engine_prepare(cfg, fbx, arena, &run, &err), -1);
    snprintf(want, sizeof want, "%s: engine profile bevy revision 1 accepts glTF JSON or GLB only",
             fbx->source.path);
    assert_string_equal(err.message, want);
    assert_int_equal(anim_engine_prepare(cfg, glb, arena, &run, &err), 0);
    assert_int_equal(anim_engine_run_format(run), ANIM_ENGINE_FORMAT_GLB);
    assert_string_equal(anim_engine_run_closure_state(run), "complete");
    anim_config_free(cfg);

    /* Godot revision 1 takes all three; no profile: no run. */
    cfg = load(GODOT("1"));
    assert_int_equal(anim_engine_prepare(cfg, fbx, arena, &run, &err), 0);
    assert_non_null(run);
    anim_config_free(cfg);
    cfg = load("");
    assert_int_equal(anim_engine_prepare(cfg, glb, arena, &run, &err), 0);
    assert_null(run);
    assert_null(anim_engine_run_profile(NULL));
    assert_null(anim_engine_run_setting(NULL, "x"));
    anim_config_free(cfg);

    anim_arena_free(arena);
    anim_asset_free(glb);
    anim_asset_free(fbx);
}

static void expect_clip_value(const anim_engine_run *run, uint32_t clip, const char *key,
                              const char *text, const char *selector)
{
    const anim_engine_setting_value *v = anim_engine_run_clip_setting(run, clip, key);
    assert_non_null(v);
    assert_string_equal(v->text, text);
    assert_string_equal(v->selector, selector);
    assert_int_equal(v->origin, ANIM_ENGINE_ORIGIN_EXPLICIT);
}

static void test_clip_settings_field_by_field(void **state)
{
    (void)state;
    /* mixamo-walk.fbx has clips "Take 001" and "mixamo.com". Selector byte
     * order: "*" < "m*" < "mix*"; the exact name applies last. */
    anim_asset *fbx = load_asset("mixamo-walk.fbx");
    assert_int_equal(fbx->doc.clip_count, 2);
    assert_string_equal(fbx->doc.clips[1].name, "mixamo.com");
    anim_config *cfg = load(UNITY_GENERIC("2") UNITY2_DOC("mixamorig:Hips")
                            "[clips.\"mixamo.com\".engine_settings]\n"
                            "root_position_y = \"extract\"\n"
                            "[clips.\"mix*\".engine_settings]\nroot_rotation = \"extract\"\n"
                            "root_position_y = \"bake\"\n"
                            "[clips.\"m*\".engine_settings]\nroot_rotation = \"bake\"\n"
                            "root_position_xz = \"extract\"\n"
                            "[clips.\"*\".engine_settings]\nroot_rotation = \"bake\"\n"
                            "root_position_y = \"bake\"\nroot_position_xz = \"bake\"\n");
    anim_arena *arena = anim_arena_new();
    anim_engine_run *run = NULL;
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(anim_engine_prepare(cfg, fbx, arena, &run, &err), 0);
    uint32_t count = 0;
    bool overflow = true;
    const anim_engine_clip_settings *rows = anim_engine_run_clips(run, &count, &overflow);
    assert_int_equal(count, 2);
    assert_false(overflow);
    assert_string_equal(rows[0].clip, "Take 001");
    assert_true(rows[0].complete);
    assert_false(rows[0].duplicate_name);
    assert_int_equal(rows[0].value_count, 3);
    /* Vocabulary order. */
    assert_string_equal(rows[0].values[0].key, "root_rotation");
    assert_string_equal(rows[0].values[2].key, "root_position_xz");
    expect_clip_value(run, 0, "root_rotation", "bake", "*");
    expect_clip_value(run, 0, "root_position_y", "bake", "*");
    expect_clip_value(run, 0, "root_position_xz", "bake", "*");
    expect_clip_value(run, 1, "root_rotation", "extract", "mix*");
    expect_clip_value(run, 1, "root_position_y", "extract", "mixamo.com");
    expect_clip_value(run, 1, "root_position_xz", "extract", "m*");
    assert_null(anim_engine_run_clip_setting(run, 2, "root_rotation"));
    assert_null(anim_engine_run_clip_setting(run, 0, "sample_rate"));
    assert_string_equal(anim_engine_run_setting(run, "root_motion_source")->text,
                        "mixamorig:Hips");
    anim_config_free(cfg);

    /* A real clip that resolves no value for a key: exit-2 error naming
     * the file, the clip and the key. */
    cfg = load(UNITY_GENERIC("2") UNITY2_DOC("R")
               "[clips.\"Take*\".engine_settings]\nroot_rotation = \"bake\"\n"
               "root_position_y = \"bake\"\nroot_position_xz = \"bake\"\n"
               "[clips.\"mixamo.com\".engine_settings]\nroot_rotation = \"bake\"\n"
               "root_position_y = \"bake\"\n");
    anim_error_clear(&err);
    assert_int_equal(anim_engine_prepare(cfg, fbx, arena, &run, &err), -1);
    char want[4200];
    snprintf(want, sizeof want,
             "%s: clip \"mixamo.com\": clips.\"mixamo.com\".engine_settings.root_position_xz is "
             "required by engine profile unity-generic revision 2 on every clip, and no [clips] "
             "selector matching the clip sets it",
             fbx->source.path);
    assert_string_equal(err.message, want);
    anim_config_free(cfg);

    /* The same for the revision-1 advice profile and Humanoid. */
    cfg = load(UNITY_HUMANOID "[engine.settings]\nconvert_units = true\n"
                              "bake_axis_conversion = true\n");
    assert_int_equal(anim_engine_prepare(cfg, fbx, arena, &run, &err), -1);
    assert_non_null(strstr(err.message, "clip \"Take 001\": clips.\"Take 001\".engine_settings."
                                        "root_rotation is required by engine profile "
                                        "unity-humanoid revision 1"));
    anim_config_free(cfg);

    anim_arena_free(arena);
    anim_asset_free(fbx);
}

/* A .gltf of n animations, each one channel on node 0 (shared accessors);
 * names[i % name_count] names animation i. */
static char *many_animations(uint32_t n, const char *const *names, size_t name_count)
{
    static const float data[2 + 6] = {0.0f, 1.0f, 0, 0, 0, 1, 0, 0};
    char *b64 = test_support_base64(data, sizeof data);
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&sb,
                       "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
                       "\"nodes\":[{\"name\":\"root\"}],"
                       "\"buffers\":[{\"byteLength\":32,\"uri\":"
                       "\"data:application/octet-stream;base64,%s\"}],"
                       "\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},"
                       "{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24}],"
                       "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,"
                       "\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"
                       "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
                       "\"animations\":[",
                       b64);
    for (uint32_t i = 0; i < n; i++)
        anim_strbuf_printf(&sb,
                           "%s{\"name\":\"%s\",\"samplers\":[{\"input\":0,\"output\":1}],"
                           "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,"
                           "\"path\":\"translation\"}}]}",
                           i ? "," : "", names[i % name_count]);
    anim_strbuf_puts(&sb, "]}");
    free(b64);
    assert_false(sb.failed);
    return sb.data;
}

static void test_duplicate_names(void **state)
{
    (void)state;
    static const char *const names[] = {"walk", "run", "walk"};
    char *json = many_animations(3, names, 3);
    anim_asset *a = test_support_load_gltf(json, strlen(json), "dup.gltf");
    anim_config *cfg = load(BEVY("1"));
    anim_arena *arena = anim_arena_new();
    anim_engine_run *run = NULL;
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(anim_engine_prepare(cfg, a, arena, &run, &err), 0);
    uint32_t count = 0;
    bool overflow = true;
    const anim_engine_clip_settings *rows = anim_engine_run_clips(run, &count, &overflow);
    assert_int_equal(count, 3);
    assert_true(rows[0].duplicate_name);
    assert_false(rows[1].duplicate_name);
    assert_true(rows[2].duplicate_name);
    assert_string_equal(rows[2].clip, "walk#1"); /* the document's distinct name */
    assert_int_equal(rows[2].clip_index, 2);
    assert_true(rows[2].complete);
    assert_int_equal(rows[2].value_count, 0);
    char *p = provenance(run);
    assert_non_null(strstr(p, "\"clip\":\"walk#1\",\"duplicate_name\":true"));
    assert_non_null(strstr(p, "\"raw_source\":{\"format\":\"gltf\",\"animations\":3,"
                              "\"channels\":3,\"channels_coverage\":\"complete\",\"scenes\":1,"
                              "\"default_scene\":0,\"nodes\":1,\"meshes\":0,\"skins\":0}"));
    free(p);
    anim_config_free(cfg);
    anim_arena_free(arena);
    anim_asset_free(a);
    free(json);
}

static void test_clip_bound(void **state)
{
    (void)state;
    static const char *const names[] = {"clip"};
    char *json = many_animations(ANIM_ENGINE_MAX_SETTING_CLIPS + 1, names, 1);
    anim_asset *a = test_support_load_gltf(json, strlen(json), "many.gltf");
    assert_int_equal(a->doc.clip_count, ANIM_ENGINE_MAX_SETTING_CLIPS + 1);
    anim_config *cfg = load(GODOT("2"));
    anim_arena *arena = anim_arena_new();
    anim_engine_run *run = NULL;
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(anim_engine_prepare(cfg, a, arena, &run, &err), 0);
    uint32_t count = 0;
    bool overflow = false;
    anim_engine_run_clips(run, &count, &overflow);
    assert_int_equal(count, ANIM_ENGINE_MAX_SETTING_CLIPS);
    assert_true(overflow);
    assert_null(anim_engine_run_clip_setting(run, ANIM_ENGINE_MAX_SETTING_CLIPS, "x"));
    char *p = provenance(run);
    assert_non_null(strstr(p, "\"clips\":{\"coverage\":\"partial\",\"count\":4097,"
                              "\"retained\":4096,"));
    free(p);
    anim_config_free(cfg);

    /* Exactly 4,096 is complete. */
    free(json);
    anim_asset_free(a);
    json = many_animations(ANIM_ENGINE_MAX_SETTING_CLIPS, names, 1);
    a = test_support_load_gltf(json, strlen(json), "many.gltf");
    cfg = load(GODOT("2"));
    assert_int_equal(anim_engine_prepare(cfg, a, arena, &run, &err), 0);
    anim_engine_run_clips(run, &count, &overflow);
    assert_int_equal(count, ANIM_ENGINE_MAX_SETTING_CLIPS);
    assert_false(overflow);
    anim_config_free(cfg);
    anim_arena_free(arena);
    anim_asset_free(a);
    free(json);
}

/* Writes bytes to dir/name. */
static void put_file(const char *dir, const char *name, const void *data, size_t len)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void test_dependency_closure(void **state)
{
    (void)state;
    char dir[] = "/tmp/animsmith-engine-XXXXXX";
    assert_non_null(mkdtemp(dir));
    static const float data[2 + 6] = {0.0f, 1.0f, 0, 0, 0, 1, 0, 0};
    put_file(dir, "walk.bin", data, sizeof data);
    put_file(dir, "albedo.png", "not really a png", 16);
    const char *json =
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
        "\"nodes\":[{\"name\":\"root\"}],"
        "\"images\":[{\"uri\":\"missing.png\"},{\"uri\":\"albedo.png\"}],"
        "\"buffers\":[{\"byteLength\":32,\"uri\":\"walk.bin\"}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},"
        "{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,"
        "\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"
        "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
        "\"animations\":[{\"name\":\"walk\",\"samplers\":[{\"input\":0,\"output\":1}],"
        "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]}";
    put_file(dir, "walk.gltf", json, strlen(json));
    char path[4200];
    snprintf(path, sizeof path, "%s/walk.gltf", dir);
    anim_error err;
    anim_error_clear(&err);
    anim_asset *a = anim_asset_load(path, NULL, &err);
    if (!a)
        fail_msg("%s", err.message);
    anim_config *cfg = load(BEVY("3") BEVY_REQUIRED);
    anim_arena *arena = anim_arena_new();
    anim_engine_run *run = NULL;
    assert_int_equal(anim_engine_prepare(cfg, a, arena, &run, &err), 0);
    /* missing.png cannot be read: partial, its row kept without digest. */
    assert_string_equal(anim_engine_run_closure_state(run), "partial");
    char *p = provenance(run);
    anim_arena *ja = anim_arena_new();
    const anim_json_value *root = parse(ja, p);
    const anim_json_value *closure = anim_json_get(root, "dependency_closure");
    assert_true(anim_json_string_eq(anim_json_get(closure, "state"), "partial"));
    const anim_json_value *files = anim_json_get(closure, "files");
    assert_int_equal(anim_json_count(files), 4);
    const anim_json_value *f0 = anim_json_item(files, 0);
    assert_true(anim_json_string_eq(anim_json_get(f0, "role"), "primary"));
    assert_true(anim_json_string_eq(anim_json_get(f0, "path"), path));
    assert_int_equal(anim_json_integer(anim_json_get(f0, "bytes")), strlen(json));
    const anim_json_value *f1 = anim_json_item(files, 1);
    assert_true(anim_json_string_eq(anim_json_get(f1, "role"), "buffer"));
    assert_true(anim_json_string_eq(anim_json_get(f1, "uri"), "walk.bin"));
    assert_int_equal(anim_json_integer(anim_json_get(f1, "bytes")), sizeof data);
    const anim_json_value *f2 = anim_json_item(files, 2);
    assert_true(anim_json_string_eq(anim_json_get(f2, "uri"), "missing.png"));
    assert_int_equal(anim_json_get(f2, "sha256")->type, ANIM_JSON_NULL);
    const anim_json_value *f3 = anim_json_item(files, 3);
    assert_true(anim_json_string_eq(anim_json_get(f3, "role"), "image"));
    assert_true(anim_json_string_eq(anim_json_get(f3, "uri"), "albedo.png"));
    /* sha256("not really a png") */
    assert_int_equal(anim_json_integer(anim_json_get(f3, "bytes")), 16);
    assert_int_equal(anim_json_string_len(anim_json_get(f3, "sha256")), 64);
    anim_arena_free(ja);
    free(p);
    anim_asset_free(a);

    /* With every file present the closure is complete. */
    put_file(dir, "missing.png", "x", 1);
    a = anim_asset_load(path, NULL, &err);
    assert_non_null(a);
    assert_int_equal(anim_engine_prepare(cfg, a, arena, &run, &err), 0);
    assert_string_equal(anim_engine_run_closure_state(run), "complete");
    anim_asset_free(a);

    anim_config_free(cfg);
    anim_arena_free(arena);
    static const char *const names[] = {"walk.gltf", "walk.bin", "albedo.png", "missing.png"};
    for (size_t i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

static void test_provenance_document(void **state)
{
    (void)state;
    anim_asset *fbx = load_asset("mixamo-walk.fbx");
    anim_config *cfg = load(UNITY_GENERIC("2") UNITY2_DOC("mixamorig:Hips") UNITY_CLIPS);
    anim_arena *arena = anim_arena_new();
    anim_engine_run *run = NULL;
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(anim_engine_prepare(cfg, fbx, arena, &run, &err), 0);
    char *a = provenance(run);
    char *b = provenance(run);
    assert_string_equal(a, b); /* deterministic */
    anim_arena *ja = anim_arena_new();
    const anim_json_value *root = parse(ja, a);
    assert_true(anim_json_string_eq(anim_json_get(root, "schema"),
                                    "urn:animsmith:prediction-provenance:6"));
    const anim_json_value *profile = anim_json_get(root, "profile");
    assert_true(anim_json_string_eq(anim_json_get(profile, "profile"), "unity-generic"));
    assert_int_equal(anim_json_integer(anim_json_get(profile, "profile_revision")), 2);
    const anim_json_value *facts = anim_json_get(profile, "facts");
    assert_true(anim_json_string_eq(anim_json_get(facts, "world_length_unit"), "metre"));
    assert_true(anim_json_string_eq(anim_json_get(facts, "clip_setting_extract"),
                                    "stored_as_root_motion"));
    assert_true(anim_json_string_eq(anim_json_get(root, "input_format"), "fbx"));
    const anim_json_value *doc = anim_json_get(anim_json_get(root, "settings"), "document");
    assert_int_equal(anim_json_count(doc), 4);
    const anim_json_value *rms = anim_json_item(doc, 3);
    assert_true(anim_json_string_eq(anim_json_get(rms, "key"), "root_motion_source"));
    assert_true(anim_json_string_eq(anim_json_get(rms, "value"), "mixamorig:Hips"));
    assert_true(anim_json_string_eq(anim_json_get(rms, "origin"), "explicit_config"));
    const anim_json_value *clips = anim_json_get(anim_json_get(root, "settings"), "clips");
    assert_true(anim_json_string_eq(anim_json_get(clips, "coverage"), "complete"));
    assert_int_equal(anim_json_integer(anim_json_get(clips, "count")), 2);
    const anim_json_value *row = anim_json_item(anim_json_get(clips, "rows"), 1);
    assert_true(anim_json_string_eq(anim_json_get(row, "clip"), "mixamo.com"));
    const anim_json_value *v0 = anim_json_item(anim_json_get(row, "values"), 0);
    assert_true(anim_json_string_eq(anim_json_get(v0, "selector"), "*"));
    const anim_json_value *raw = anim_json_get(root, "raw_source");
    assert_true(anim_json_string_eq(anim_json_get(raw, "format"), "fbx"));
    assert_int_equal(anim_json_integer(anim_json_get(raw, "take_count")), 2);
    const anim_json_value *take = anim_json_item(anim_json_get(raw, "takes"), 1);
    assert_int_equal(anim_json_integer(anim_json_get(take, "stop_ktime")),
                     fbx->source.fbx->takes[1].stop_ktime);
    assert_true(anim_json_string_eq(anim_json_get(raw, "raw_coverage"), "complete"));
    const anim_json_value *closure = anim_json_get(root, "dependency_closure");
    assert_true(anim_json_string_eq(anim_json_get(closure, "state"), "complete"));
    assert_int_equal(anim_json_count(anim_json_get(closure, "files")), 1);
    const anim_json_value *primary = anim_json_get(root, "primary");
    assert_int_equal(anim_json_integer(anim_json_get(primary, "bytes")),
                     fbx->source.input_byte_count);
    const anim_json_value *contracts = anim_json_get(root, "contracts");
    assert_true(anim_json_string_eq(anim_json_item(contracts, 0),
                                    "urn:animsmith:engine-prediction:6"));
    assert_true(anim_json_string_eq(anim_json_item(contracts, 1),
                                    "urn:animsmith:schema:measurements:18"));
    anim_arena_free(ja);
    free(a);
    free(b);
    anim_config_free(cfg);

    /* An unset optional setting is listed as unset. */
    anim_asset *glb = load_asset("walk.glb");
    cfg = load(BEVY("3") BEVY_REQUIRED);
    assert_int_equal(anim_engine_prepare(cfg, glb, arena, &run, &err), 0);
    a = provenance(run);
    assert_non_null(strstr(a, "{\"key\":\"target_pointer_width\",\"value\":null,"
                              "\"origin\":\"unset\"}"));
    assert_non_null(strstr(a, "{\"key\":\"rotate_meshes\",\"value\":false,"
                              "\"origin\":\"profile_default\"}"));
    free(a);
    anim_config_free(cfg);
    anim_asset_free(glb);
    anim_arena_free(arena);
    anim_asset_free(fbx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profile_table),
        cmocka_unit_test(test_revision_one_has_no_settings),
        cmocka_unit_test(test_unknown_keys_and_values),
        cmocka_unit_test(test_types_ranges_frozen),
        cmocka_unit_test(test_scope_and_applicability),
        cmocka_unit_test(test_missing_required),
        cmocka_unit_test(test_source_path_grammar),
        cmocka_unit_test(test_defaults_and_origins),
        cmocka_unit_test(test_vocabulary_api),
        cmocka_unit_test(test_prepare_format_refusal),
        cmocka_unit_test(test_clip_settings_field_by_field),
        cmocka_unit_test(test_duplicate_names),
        cmocka_unit_test(test_clip_bound),
        cmocka_unit_test(test_dependency_closure),
        cmocka_unit_test(test_provenance_document),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
