/* Unit tests of the animsmith.toml loader (docs/config.md): every example
 * contract loads; each table's type and domain errors name the file, line,
 * column and key; glob precedence; the in_place alias; runtime-node selectors; [engine]; transition families; dates. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/hash.h"
#include "animsmith/lint.h"
#include "animsmith/toml.h"
#include "support/test_support.h"

/* ---- helpers -------------------------------------------------------- */

/* Exact (or within eps) f64 comparison; cmocka's float helpers vary by
 * version. */
#define assert_f64(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (double)(eps))

static anim_config *load(const char *text)
{
    anim_error err;
    anim_error_clear(&err);
    anim_config *cfg = anim_config_load_bytes("t.toml", text, strlen(text), &err);
    if (!cfg)
        print_message("unexpected error: %s\n", err.message);
    assert_non_null(cfg);
    return cfg;
}

/* The load must fail with exactly "bad config t.toml: " + want. */
static void fails(const char *text, const char *want)
{
    anim_error err;
    anim_error_clear(&err);
    anim_config *cfg = anim_config_load_bytes("t.toml", text, strlen(text), &err);
    if (cfg) {
        anim_config_free(cfg);
        fail_msg("expected failure: %s", want);
    }
    char full[ANIM_ERROR_MESSAGE_MAX];
    snprintf(full, sizeof full, "bad config t.toml: %s", want);
    assert_string_equal(err.message, full);
}

/* The load must fail with a message containing want. */
static void fails_with(const char *text, const char *want)
{
    anim_error err;
    anim_error_clear(&err);
    anim_config *cfg = anim_config_load_bytes("t.toml", text, strlen(text), &err);
    if (cfg) {
        anim_config_free(cfg);
        fail_msg("expected failure containing: %s", want);
    }
    if (!strstr(err.message, want))
        fail_msg("message \"%s\" lacks \"%s\"", err.message, want);
    assert_true(strncmp(err.message, "bad config t.toml: ", 19) == 0);
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Loads every *.toml in dir; returns how many were found. */
static int load_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0, bad = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!has_suffix(de->d_name, ".toml"))
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        anim_error err;
        anim_error_clear(&err);
        anim_config *cfg = anim_config_load(path, &err);
        if (!cfg) {
            print_error("%s does not load: %s\n", path, err.message);
            bad++;
        } else if (strcmp(cfg->path, path) != 0) {
            bad++;
        }
        anim_config_free(cfg);
        n++;
    }
    closedir(d);
    assert_int_equal(bad, 0);
    return n;
}

/* ---- examples and defaults ------------------------------------------ */

static void test_examples_load(void **state)
{
    (void)state;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/examples", test_support_source_dir());
    assert_true(load_dir(dir) >= 10);
}

static void test_peer_corpus_contracts_load(void **state)
{
    (void)state;
    char dir[PATH_MAX];
    const char *corpus = getenv("ANIMSMITH_CORPUS");
    if (corpus)
        snprintf(dir, sizeof dir, "%s/peer", corpus);
    else
        snprintf(dir, sizeof dir, "%s/../shared/corpus/peer", test_support_source_dir());
    int n = load_dir(dir);
    if (n < 0)
        skip(); /* corpus absent */
    assert_true(n >= 1);
}

static void test_character_example_contents(void **state)
{
    (void)state;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/examples/character.animsmith.toml", test_support_source_dir());
    anim_error err;
    anim_config *cfg = anim_config_load(path, &err);
    assert_non_null(cfg);
    assert_string_equal(cfg->rig_profile, "auto");
    assert_f64(anim_config_check_setting(cfg, "loop-seam", ANIM_CHECK_MAX_RATIO), 1.6, 0);
    assert_f64(anim_config_check_setting(cfg, "frozen-bone", ANIM_CHECK_MIN_ROTATION_DEG),
                        0.5, 0);
    assert_int_equal(anim_config_check(cfg, "quat-flip")->severity, ANIM_SEVERITY_NOTE);
    assert_int_equal(cfg->runtime_selectors.count, 2);
    assert_string_equal(cfg->runtime_selectors.items[1], "ik_*_target");
    anim_clip_expect x;
    anim_config_clip_expect(cfg, "run_forward", &x);
    assert_true(x.loop.set && x.loop.value);
    assert_f64(x.max_loop_rotation_delta_deg.value, 0.5, 0);  /* exact */
    assert_f64(x.max_loop_position_delta_m.value, 0.04, 0);   /* glob */
    assert_int_equal(x.movement_owner_y, ANIM_OWNER_GAMEPLAY);
    assert_true(x.duration_s.set);
    assert_f64(x.duration_s.value, 1.033, 0);
    assert_f64(x.speed_mps.tolerance, 0.25, 0);
    assert_int_equal(cfg->sync_group_count, 1);
    assert_true(cfg->sync_groups[0].has_time_complement);
    assert_f64(cfg->sync_groups[0].min_reflected_time_advantage, 0.25, 0);
    assert_int_equal(cfg->sync_groups[0].max_frame_count_delta, 0);
    assert_int_equal(cfg->gait_groups[0].clips.count, 4);
    anim_config_free(cfg);
}

static void test_empty_file_is_defaults(void **state)
{
    (void)state;
    anim_config *cfg = load("");
    assert_string_equal(cfg->rig_profile, "auto");
    assert_string_equal(cfg->path, "t.toml");
    assert_int_equal(cfg->check_count + cfg->clip_count + cfg->gait_group_count +
                         cfg->sync_group_count,
                     0);
    assert_false(cfg->runtime_selectors.set);
    assert_false(cfg->engine.present);
    assert_null(cfg->transition_families);
    uint8_t want[32];
    anim_sha256("", 0, want);
    assert_memory_equal(cfg->sha256, want, 32);
    anim_config_free(cfg);
}

static void test_sha256_of_bytes(void **state)
{
    (void)state;
    const char *text = "[clips.walk]\nloop = true\n";
    anim_config *cfg = load(text);
    uint8_t want[32];
    anim_sha256(text, strlen(text), want);
    assert_memory_equal(cfg->sha256, want, 32);
    anim_config_free(cfg);
}

/* ---- syntax, unknown keys, dates, I/O ------------------------------- */

static void test_parse_error_is_positioned(void **state)
{
    (void)state;
    fails_with("[clips.walk]\nloop = \n", "bad config t.toml: line 2 column ");
    fails_with("a = 1\na = 2\n", "line 2 column 1:");
}

static void test_unknown_tables_and_keys(void **state)
{
    (void)state;
    fails("[rigs]\nprofile = \"auto\"\n",
          "line 1 column 2: unknown key \"rigs\" in the top level (did you mean \"rig\"?)");
    fails("\n\n\n[checks.loop-seam]\nmax_ratoi = 1.0\n",
          "line 5 column 1: unknown key \"max_ratoi\" in [checks.loop-seam] (did you mean "
          "\"max_ratio\"?)");
    fails_with("[rig]\ncolour = 1\n", "line 2 column 1: unknown key \"colour\" in [rig] (known "
                                      "keys: profile, roles, required_bones)");
    fails_with("[clips.walk]\nlooping = true\n", "unknown key \"looping\" in [clips.\"walk\"]");
    fails_with("[runtime_nodes]\nselector = []\n", "unknown key \"selector\" in [runtime_nodes]");
    fails_with("[gait_groups.g]\nclips=[]\nmax_gait_phase_spread=1\nfoo=1\n",
               "unknown key \"foo\" in [gait_groups.g]");
    fails_with("[sync_groups.g.time_complement]\nbar=1\n",
               "unknown key \"bar\" in [sync_groups.g.time_complement]");
    fails_with("[engine]\nprofiles = \"bevy\"\n", "unknown key \"profiles\" in [engine]");
    fails_with("[clips.walk]\nduration_s = { value = 1.0, tolerance = 0.1, tol = 2 }\n",
               "unknown key \"tol\" in clips.\"walk\".duration_s");
}

static void test_datetimes_refused(void **state)
{
    (void)state;
    fails("[clips.walk]\nloop = 1979-05-27\n",
          "line 2 column 8: clips.walk.loop is a date/time (1979-05-27); animsmith.toml has no "
          "date or time settings");
    /* Even inside raw tables that are otherwise kept unvalidated. */
    fails_with("[engine.settings]\nwhen = 07:32:00\n",
               "line 2 column 8: engine.settings.when is a date/time (07:32:00)");
    fails_with("[clips.walk.engine_settings]\nx = [1, [1979-05-27T07:32:00Z]]\n",
               "clips.walk.engine_settings.x[1][0] is a date/time");
}

static void test_io_errors(void **state)
{
    (void)state;
    anim_error err;
    anim_error_clear(&err);
    assert_null(anim_config_load("/nonexistent/dir/animsmith.toml", &err));
    assert_string_equal(err.message,
                        "cannot read config /nonexistent/dir/animsmith.toml: No such file or "
                        "directory");
    assert_int_equal(err.code, ANIM_ERR_IO);
    anim_error_clear(&err);
    assert_null(anim_config_load("/tmp", &err));
    assert_string_equal(err.message, "cannot read config /tmp: Is a directory");
}

/* ---- [rig] ---------------------------------------------------------- */

static void test_rig(void **state)
{
    (void)state;
    anim_config *cfg = load("[rig]\nprofile = \"mixamo\"\nroles = { hips = \"pelvis\", left_foot "
                            "= \"foot_l\" }\nrequired_bones = [\"pelvis\", \"spine\"]\n");
    assert_string_equal(cfg->rig_profile, "mixamo");
    assert_string_equal(cfg->rig_roles[ANIM_ROLE_HIPS], "pelvis");
    assert_string_equal(cfg->rig_roles[ANIM_ROLE_LEFT_FOOT], "foot_l");
    assert_null(cfg->rig_roles[ANIM_ROLE_ROOT]);
    assert_true(cfg->required_bones.set);
    assert_int_equal(cfg->required_bones.count, 2);
    assert_string_equal(cfg->required_bones.items[1], "spine");
    anim_rig_config rc = anim_config_rig(cfg);
    assert_non_null(rc.inline_bones);
    anim_config_free(cfg);

    cfg = load("[rig]\nrequired_bones = []\n");
    assert_true(cfg->required_bones.set);
    assert_int_equal(cfg->required_bones.count, 0);
    anim_config_free(cfg);

    fails_with("[rig]\nprofile = \"unreal\"\n",
               "line 2 column 11: rig.profile \"unreal\" is not a known rig profile (known: auto, ");
    fails("[rig]\nprofile = 3\n", "line 2 column 11: rig.profile must be a string, found integer");
    fails_with("[rig.roles]\nleft_heel = \"x\"\n",
               "line 2 column 1: unknown role \"left_heel\" in [rig.roles] (roles: root, hips, "
               "spine, head, left_foot, right_foot, left_toe, right_toe, left_hand, right_hand)");
    fails("[rig]\nroles = { hips = 1 }\n",
          "line 2 column 18: rig.roles.hips must be a string, found integer");
    fails("[rig]\nroles = \"hips\"\n", "line 2 column 9: rig.roles must be a table, found string");
    fails("[rig]\nrequired_bones = [\"a\", 2]\n",
          "line 2 column 24: rig.required_bones[1] must be a string, found integer");
    fails("rig = 5\n", "line 1 column 7: rig must be a table, found integer");
}

/* ---- [checks.<id>] -------------------------------------------------- */

static void test_check_severity(void **state)
{
    (void)state;
    anim_config *cfg =
        load("[checks.quat-norm]\nseverity = \"off\"\n[checks.fps]\nseverity = \"note\"\n"
             "[checks.nan]\nseverity = \"warn\"\n[checks.bind-pose]\nseverity = \"warning\"\n"
             "[checks.in-place]\nseverity = \"error\"\n[checks.loop-seam]\nmax_ratio = 2\n");
    assert_int_equal(anim_config_check(cfg, "quat-norm")->severity, ANIM_SEVERITY_OFF);
    assert_int_equal(anim_config_check(cfg, "fps")->severity, ANIM_SEVERITY_NOTE);
    assert_int_equal(anim_config_check(cfg, "nan")->severity, ANIM_SEVERITY_WARNING);
    assert_int_equal(anim_config_check(cfg, "bind-pose")->severity, ANIM_SEVERITY_WARNING);
    assert_int_equal(anim_config_check(cfg, "in-place")->severity, ANIM_SEVERITY_ERROR);
    assert_int_equal(anim_config_check(cfg, "loop-seam")->severity, ANIM_SEVERITY_UNSET);
    assert_string_equal(cfg->checks[0].id, "quat-norm"); /* source order */
    assert_string_equal(cfg->checks[5].id, "loop-seam");
    anim_config_free(cfg);
    fails("[checks.nan]\nseverity = \"fatal\"\n",
          "line 2 column 12: checks.nan.severity must be one of \"off\", \"note\", \"warn\", "
          "\"warning\", \"error\" (got \"fatal\")");
    fails("[checks.nan]\nseverity = \"Error\"\n",
          "line 2 column 12: checks.nan.severity must be one of \"off\", \"note\", \"warn\", "
          "\"warning\", \"error\" (got \"Error\")");
    fails("[checks.nan]\nseverity = true\n",
          "line 2 column 12: checks.nan.severity must be a string, found boolean");
}

static void test_check_settings_domains(void **state)
{
    (void)state;
    /* Every numeric setting is accepted in every table, integers included. */
    for (int s = 0; s < ANIM_CHECK_SETTING_COUNT; s++) {
        char text[256];
        snprintf(text, sizeof text, "[checks.nan]\n%s = 2\n", anim_check_setting_name(s));
        anim_config *cfg = load(text);
        assert_f64(anim_config_check_setting(cfg, "nan", (anim_check_setting)s), 2.0, 0);
        assert_f64(anim_config_check_setting(cfg, "fps", (anim_check_setting)s),
                            anim_check_setting_default((anim_check_setting)s), 0);
        anim_config_free(cfg);
        /* Negative, nan and inf are out of every domain. */
        const char *bad[] = {"-1", "nan", "-inf", "inf", "-0.5"};
        const char *shown[] = {"-1", "nan", "-inf", "inf", "-0.5"};
        for (size_t b = 0; b < 5; b++) {
            char want[512];
            snprintf(text, sizeof text, "[checks.nan]\n%s = %s\n", anim_check_setting_name(s),
                     bad[b]);
            snprintf(want, sizeof want, "line 2 column %zu: checks.nan.%s must be %s (got %s)",
                     strlen(anim_check_setting_name(s)) + 4, anim_check_setting_name(s),
                     s == ANIM_CHECK_EXPECTED_UNIFORM_SCALE || s == ANIM_CHECK_MAX_DURATION_S
                         ? "a finite number greater than zero"
                         : "a finite non-negative number",
                     shown[b]);
            fails(text, want);
        }
    }
    fails("\n\n\n\n\n\n[checks.loop-seam]\nmax_ratio = -1\n",
          "line 8 column 13: checks.loop-seam.max_ratio must be a finite non-negative number "
          "(got -1)");
    fails("[checks.rest-world-scale]\nexpected_uniform_scale = 0\n",
          "line 2 column 26: checks.rest-world-scale.expected_uniform_scale must be a finite "
          "number greater than zero (got 0)");
    fails("[checks.loop-seam]\nmax_ratio = \"1.5\"\n",
          "line 2 column 13: checks.loop-seam.max_ratio must be a number, found string");
    anim_config *cfg = load("[checks.loop-seam]\nmax_ratio = 0\n"); /* zero is non-negative */
    assert_f64(anim_config_check_setting(cfg, "loop-seam", ANIM_CHECK_MAX_RATIO), 0, 0);
    anim_config_free(cfg);
    fails("[checks]\nloop-seam = 1\n",
          "line 2 column 13: checks.loop-seam must be a table, found integer");
    /* A quoted id that TOML would allow bare is spelled bare. */
    fails("[checks.\"loop-seam\"]\nmax_ratio = -2.5\n",
          "line 2 column 13: checks.loop-seam.max_ratio must be a finite non-negative number "
          "(got -2.5)");
}

/* Every catalog id names a table; anything else is refused at the id,
 * with a suggestion or the whole catalog, before the table's keys. */
static void test_check_ids(void **state)
{
    (void)state;
    for (size_t i = 0; i < anim_check_count(); i++) {
        char text[256];
        snprintf(text, sizeof text, "[checks.%s]\nseverity = \"note\"\n", anim_check_at(i)->id);
        anim_config *cfg = load(text);
        assert_int_equal(anim_config_check(cfg, anim_check_at(i)->id)->severity,
                         ANIM_SEVERITY_NOTE);
        anim_config_free(cfg);
    }
    fails("\n[checks.loop-seem]\nmax_ratio = 2\n",
          "line 2 column 9: unknown check \"loop-seem\" in [checks.loop-seem] (did you mean "
          "\"loop-seam\"?)");
    fails("[checks.loop-seam]\nmax_ratoi = 2\n[checks.quat_flip]\nseverity = \"off\"\n",
          "line 2 column 1: unknown key \"max_ratoi\" in [checks.loop-seam] (did you mean "
          "\"max_ratio\"?)");
    fails("[checks.rest-world-scale]\n[checks.quat_flip]\nnosuch = 1\n",
          "line 2 column 9: unknown check \"quat_flip\" in [checks.quat_flip] (did you mean "
          "\"quat-flip\"?)");
    fails("[checks]\nfrozen-bones = { severity = \"off\" }\n",
          "line 2 column 1: unknown check \"frozen-bones\" in [checks.frozen-bones] (did you "
          "mean \"frozen-bone\"?)");
    fails_with("[checks.\"a.b\"]\nmax_ratio = 1\n",
               "line 1 column 9: unknown check \"a.b\" in [checks.\"a.b\"] (known checks: nan, "
               "time-monotonic, quat-norm, ");
    fails_with("[checks.no-such-check]\nseverity = \"off\"\n",
               "unknown check \"no-such-check\" in [checks.no-such-check] (known checks: nan, ");
    fails_with("[checks.nan]\n[checks.Nan]\n", "line 2 column 9: unknown check \"Nan\" in "
                                               "[checks.Nan] (did you mean \"nan\"?)");
}

/* ---- runtime nodes -------------------------------------------------- */

static void test_runtime_nodes(void **state)
{
    (void)state;
    anim_config *cfg =
        load("[runtime_nodes]\nselectors = [\"b\", \"a*\", \"b\", \"c\", \"a*\"]\n");
    assert_true(cfg->runtime_selectors.set);
    assert_int_equal(cfg->runtime_selectors.count, 3);
    assert_string_equal(cfg->runtime_selectors.items[0], "b");
    assert_string_equal(cfg->runtime_selectors.items[1], "a*");
    assert_string_equal(cfg->runtime_selectors.items[2], "c");
    anim_config_free(cfg);

    /* The legacy spelling is used when it is the only one. */
    cfg = load("[checks.rest-world-scale]\nnode_selectors = [\"x\", \"x\", \"y\"]\n");
    assert_int_equal(cfg->runtime_selectors.count, 2);
    assert_string_equal(cfg->runtime_selectors.items[1], "y");
    anim_config_free(cfg);

    /* Only the rest-world-scale table's node_selectors is the alias. */
    cfg = load("[checks.loop-seam]\nnode_selectors = [\"x\"]\n[runtime_nodes]\nselectors = []\n");
    assert_true(cfg->runtime_selectors.set);
    assert_int_equal(cfg->runtime_selectors.count, 0);
    anim_config_free(cfg);

    fails("[runtime_nodes]\nselectors = [\"a\"]\n[checks.rest-world-scale]\nnode_selectors = "
          "[\"a\"]\n",
          "line 4 column 1: cannot declare both \"runtime_nodes.selectors\" and "
          "\"checks.rest-world-scale.node_selectors\"");
    fails("[checks.rest-world-scale]\nnode_selectors = []\n[runtime_nodes]\nselectors = []\n",
          "line 4 column 1: cannot declare both \"runtime_nodes.selectors\" and "
          "\"checks.rest-world-scale.node_selectors\"");
    fails("[runtime_nodes]\nselectors = \"a\"\n",
          "line 2 column 13: runtime_nodes.selectors must be an array of strings, found string");
}

/* ---- [clips.<selector>] --------------------------------------------- */

static void test_clip_keys(void **state)
{
    (void)state;
    anim_config *cfg = load("[clips.walk]\nloop = true\nmax_loop_position_delta_m = 0.5\n"
                            "max_loop_rotation_delta_deg = 1\nmax_loop_velocity_delta_mps = 2\n"
                            "max_loop_angular_velocity_delta_degps = 3\n"
                            "duration_s = { value = 1.0, tolerance = 0.02 }\n"
                            "speed_mps = { value = 3, tolerance = 0.25 }\n"
                            "movement_owner_xz = \"animation\"\nmovement_owner_y = \"gameplay\"\n"
                            "movement_owner_yaw = \"animation\"\nfps = 30\n"
                            "animates_bones = [\"arm_l\"]\n"
                            "[clips.walk.engine_settings]\nroot_rotation = \"extract\"\n");
    assert_int_equal(cfg->clip_count, 1);
    assert_int_equal(cfg->clips[0].line, 1);
    const anim_clip_expect *x = &cfg->clips[0].expect;
    assert_true(x->loop.set && x->loop.value);
    assert_f64(x->max_loop_position_delta_m.value, 0.5, 0);
    assert_f64(x->max_loop_rotation_delta_deg.value, 1, 0);
    assert_f64(x->max_loop_velocity_delta_mps.value, 2, 0);
    assert_f64(x->max_loop_angular_velocity_delta_degps.value, 3, 0);
    assert_f64(x->duration_s.tolerance, 0.02, 0);
    assert_f64(x->speed_mps.value, 3, 0);
    assert_int_equal(x->movement_owner_xz, ANIM_OWNER_ANIMATION);
    assert_int_equal(x->movement_owner_y, ANIM_OWNER_GAMEPLAY);
    assert_int_equal(x->movement_owner_yaw, ANIM_OWNER_ANIMATION);
    assert_true(x->fps.set);
    assert_f64(x->fps.value, 30, 0);
    assert_string_equal(x->animates_bones.items[0], "arm_l");
    assert_non_null(x->engine_settings);
    const anim_toml_value *rr = anim_toml_get(x->engine_settings, "root_rotation");
    assert_non_null(rr);
    assert_string_equal(rr->u.string.data, "extract");
    anim_config_free(cfg);

    /* fps and pins are judged by their checks (duration-sanity, fps), not
     * here. */
    cfg = load("[clips.w]\nfps = -1\nduration_s = { value = nan, tolerance = -1 }\n");
    assert_f64(cfg->clips[0].expect.fps.value, -1, 0);
    assert_true(isnan(cfg->clips[0].expect.duration_s.value));
    anim_config_free(cfg);

    fails("[clips.walk]\nloop = \"yes\"\n",
          "line 2 column 8: clips.\"walk\".loop must be a boolean, found string");
    fails("[clips.\"run_*\"]\nmax_loop_position_delta_m = -0.01\n",
          "line 2 column 29: clips.\"run_*\".max_loop_position_delta_m must be a finite "
          "non-negative number (got -0.01)");
    fails("[clips.w]\nmax_loop_angular_velocity_delta_degps = inf\n",
          "line 2 column 41: clips.\"w\".max_loop_angular_velocity_delta_degps must be a finite "
          "non-negative number (got inf)");
    fails("[clips.w]\nmovement_owner_xz = \"controller\"\n",
          "line 2 column 21: clips.\"w\".movement_owner_xz must be \"gameplay\" or \"animation\" "
          "(got \"controller\")");
    fails("[clips.w]\nduration_s = 1.0\n",
          "line 2 column 14: clips.\"w\".duration_s must be a table { value = ..., tolerance = "
          "... }, found float");
    fails("[clips.w]\nspeed_mps = { value = 1.0 }\n",
          "line 2 column 13: clips.\"w\".speed_mps is missing required key \"tolerance\"");
    fails("[clips.w]\nspeed_mps = { value = \"1\", tolerance = 0 }\n",
          "line 2 column 23: clips.\"w\".speed_mps.value must be a number, found string");
    fails("[clips.w]\nanimates_bones = [1]\n",
          "line 2 column 19: clips.\"w\".animates_bones[0] must be a string, found integer");
    fails("[clips.w]\nengine_settings = 1\n",
          "line 2 column 19: clips.\"w\".engine_settings must be a table, found integer");
    fails("[clips]\nw = true\n", "line 2 column 5: clips.\"w\" must be a table, found boolean");
    fails("[clips.w]\nin_place = 1\n",
          "line 2 column 12: clips.\"w\".in_place must be a boolean, found integer");
}

static void test_in_place_alias(void **state)
{
    (void)state;
    anim_config *cfg = load("[clips.a]\nin_place = true\n[clips.b]\nin_place = false\n");
    assert_int_equal(cfg->clips[0].expect.movement_owner_xz, ANIM_OWNER_GAMEPLAY);
    assert_int_equal(cfg->clips[1].expect.movement_owner_xz, ANIM_OWNER_ANIMATION);
    anim_config_free(cfg);

    /* The alias of a glob entry is folded before merging, so an exact
     * movement_owner_xz still wins field by field. */
    cfg = load("[clips.\"w*\"]\nin_place = true\nloop = true\n[clips.walk]\nmovement_owner_xz = "
               "\"animation\"\n");
    anim_clip_expect x;
    anim_config_clip_expect(cfg, "walk", &x);
    assert_int_equal(x.movement_owner_xz, ANIM_OWNER_ANIMATION);
    assert_true(x.loop.value);
    anim_config_clip_expect(cfg, "wade", &x);
    assert_int_equal(x.movement_owner_xz, ANIM_OWNER_GAMEPLAY);
    anim_config_free(cfg);

    fails("\n[clips.walk]\nin_place = true\nmovement_owner_xz = \"gameplay\"\n",
          "line 2 column 1: clip selector \"walk\" cannot declare both \"movement_owner_xz\" and "
          "\"in_place\"");
    /* Rule 3 runs in key order: "a" is reported before "b". */
    fails("[clips.b]\nin_place = true\nmovement_owner_xz = \"gameplay\"\n"
          "[clips.a]\nin_place = true\nmovement_owner_xz = \"gameplay\"\n",
          "line 4 column 1: clip selector \"a\" cannot declare both \"movement_owner_xz\" and "
          "\"in_place\"");
    /* Rule 1 comes before rule 3. */
    fails("[clips.b]\nin_place = true\nmovement_owner_xz = \"gameplay\"\n"
          "[runtime_nodes]\nselectors = []\n[checks.rest-world-scale]\nnode_selectors = []\n",
          "line 7 column 1: cannot declare both \"runtime_nodes.selectors\" and "
          "\"checks.rest-world-scale.node_selectors\"");
    /* Parse-time domain errors come before the semantic rules. */
    fails("[clips.b]\nin_place = true\nmovement_owner_xz = \"gameplay\"\n[clips.c]\nfps = "
          "\"x\"\n",
          "line 5 column 7: clips.\"c\".fps must be a number, found string");
}

static void test_clips_sorted_bytewise(void **state)
{
    (void)state;
    anim_config *cfg = load("[clips.\"b\"]\n[clips.\"a*\"]\n[clips.\"B\"]\n[clips.\"*\"]\n"
                            "[clips.\"\xc3\xa9\"]\n[clips.\"a\"]\n");
    const char *want[] = {"*", "B", "a", "a*", "b", "\xc3\xa9"};
    assert_int_equal(cfg->clip_count, 6);
    for (int i = 0; i < 6; i++)
        assert_string_equal(cfg->clips[i].selector, want[i]);
    anim_config_free(cfg);
}

static void test_glob_precedence(void **state)
{
    (void)state;
    /* Written in reverse key order to show that file order does not count. */
    anim_config *cfg = load("[clips.run_fast]\nmax_loop_rotation_delta_deg = 0.5\n"
                            "[clips.\"run_f*\"]\nmax_loop_position_delta_m = 0.2\nfps = 60\n"
                            "[clips.\"run_*\"]\nloop = true\nmax_loop_position_delta_m = 0.1\n"
                            "max_loop_rotation_delta_deg = 2.0\nfps = 30\n"
                            "[clips.\"*\"]\nloop = false\nmovement_owner_y = \"gameplay\"\n");
    anim_clip_expect x;
    anim_config_clip_expect(cfg, "run_fast", &x);
    assert_true(x.loop.set && x.loop.value);                           /* "run_*" > "*" */
    assert_f64(x.max_loop_position_delta_m.value, 0.2, 0);    /* "run_f*" > "run_*" */
    assert_f64(x.fps.value, 60, 0);
    assert_f64(x.max_loop_rotation_delta_deg.value, 0.5, 0);  /* exact beats globs */
    assert_int_equal(x.movement_owner_y, ANIM_OWNER_GAMEPLAY);         /* only "*" sets it */
    assert_false(x.duration_s.set);

    anim_config_clip_expect(cfg, "run_slow", &x);
    assert_f64(x.max_loop_position_delta_m.value, 0.1, 0);
    assert_f64(x.max_loop_rotation_delta_deg.value, 2.0, 0);
    assert_f64(x.fps.value, 30, 0);

    anim_config_clip_expect(cfg, "idle", &x);
    assert_true(x.loop.set);
    assert_false(x.loop.value);
    assert_false(x.fps.set);
    anim_config_free(cfg);

    /* An exact key that is also a glob pattern is still the exact entry
     * for the clip of that name. */
    cfg = load("[clips.\"a*\"]\nfps = 1\n[clips.\"*\"]\nfps = 2\n");
    anim_config_clip_expect(cfg, "a*", &x);
    assert_f64(x.fps.value, 1, 0);
    anim_config_clip_expect(cfg, "ab", &x);
    assert_f64(x.fps.value, 1, 0);
    anim_config_clip_expect(cfg, "b", &x);
    assert_f64(x.fps.value, 2, 0);
    anim_config_free(cfg);
}

/* ---- groups --------------------------------------------------------- */

static void test_gait_groups(void **state)
{
    (void)state;
    anim_config *cfg = load("[gait_groups.zeta]\nclips = [\"a\", \"a\"]\nmax_gait_phase_spread = "
                            "0.2\n[gait_groups.alpha]\nclips = []\nmax_gait_phase_spread = 1\n"
                            "min_lr_amplitude_m = 0.03\n");
    assert_int_equal(cfg->gait_group_count, 2);
    assert_string_equal(cfg->gait_groups[0].name, "alpha");
    assert_f64(cfg->gait_groups[0].min_lr_amplitude_m, 0.03, 0);
    assert_string_equal(cfg->gait_groups[1].name, "zeta");
    assert_int_equal(cfg->gait_groups[1].clips.count, 2); /* duplicates kept */
    assert_f64(cfg->gait_groups[1].min_lr_amplitude_m, 0, 0);
    anim_config_free(cfg);
    fails("\n[gait_groups.g]\nmax_gait_phase_spread = 0.1\n",
          "line 2 column 1: gait_groups.g is missing required key \"clips\"");
    fails("[gait_groups.g]\nclips = []\n",
          "line 1 column 1: gait_groups.g is missing required key \"max_gait_phase_spread\"");
    fails("[gait_groups.g]\nclips = []\nmax_gait_phase_spread = -0.1\n",
          "line 3 column 25: gait_groups.g.max_gait_phase_spread must be a finite non-negative "
          "number (got -0.1)");
    fails("[gait_groups.g]\nclips = []\nmax_gait_phase_spread = 1\nmin_lr_amplitude_m = nan\n",
          "line 4 column 22: gait_groups.g.min_lr_amplitude_m must be a finite non-negative "
          "number (got nan)");
    fails("[gait_groups.g]\nclips = \"a\"\nmax_gait_phase_spread = 1\n",
          "line 2 column 9: gait_groups.g.clips must be an array of strings, found string");
}

static void test_sync_groups(void **state)
{
    (void)state;
    const char *base = "[sync_groups.%s]\nclips = [\"a\", \"b\"]\nmax_duration_delta_s = 0.001\n"
                       "max_frame_count_delta = 2\nmax_fps_delta = 0\n";
    char text[1024];
    snprintf(text, sizeof text, base, "z");
    size_t n = strlen(text);
    snprintf(text + n, sizeof text - n, base, "m");
    n = strlen(text);
    snprintf(text + n, sizeof text - n,
             "[sync_groups.m.time_complement]\nmin_reflected_time_advantage = 1\n"
             "min_lr_amplitude_m = 0\n");
    anim_config *cfg = load(text);
    assert_int_equal(cfg->sync_group_count, 2);
    assert_string_equal(cfg->sync_groups[0].name, "m");
    assert_true(cfg->sync_groups[0].has_time_complement);
    assert_f64(cfg->sync_groups[0].min_reflected_time_advantage, 1, 0);
    assert_string_equal(cfg->sync_groups[1].name, "z");
    assert_false(cfg->sync_groups[1].has_time_complement);
    assert_int_equal(cfg->sync_groups[1].max_frame_count_delta, 2);
    assert_f64(cfg->sync_groups[1].max_duration_delta_s, 0.001, 0);
    anim_config_free(cfg);

    fails("[sync_groups.g]\nclips = []\nmax_duration_delta_s = 0\nmax_fps_delta = 0\n",
          "line 1 column 1: sync_groups.g is missing required key \"max_frame_count_delta\"");
    fails("[sync_groups.g]\nclips = []\nmax_duration_delta_s = 0\nmax_frame_count_delta = 0\n",
          "line 1 column 1: sync_groups.g is missing required key \"max_fps_delta\"");
    fails("[sync_groups.g]\nclips = []\nmax_duration_delta_s = 0\nmax_frame_count_delta = "
          "0.0\nmax_fps_delta = 0\n",
          "line 4 column 25: sync_groups.g.max_frame_count_delta must be a non-negative integer, "
          "found float");
    fails("[sync_groups.g]\nclips = []\nmax_duration_delta_s = 0\nmax_frame_count_delta = "
          "-1\nmax_fps_delta = 0\n",
          "line 4 column 25: sync_groups.g.max_frame_count_delta must be a non-negative integer "
          "(got -1)");
    fails("[sync_groups.g]\nclips = []\nmax_duration_delta_s = -0.1\n",
          "line 3 column 24: sync_groups.g.max_duration_delta_s must be a finite non-negative "
          "number (got -0.1)");
    fails("[sync_groups.g]\nclips = []\nmax_duration_delta_s = 0\nmax_frame_count_delta = "
          "0\nmax_fps_delta = 0\n[sync_groups.g.time_complement]\nmin_reflected_time_advantage "
          "= 1.5\nmin_lr_amplitude_m = 0\n",
          "line 7 column 32: sync_groups.g.time_complement.min_reflected_time_advantage must be "
          "a finite number in [0, 1] (got 1.5)");
    fails("[sync_groups.g]\nclips = []\nmax_duration_delta_s = 0\nmax_frame_count_delta = "
          "0\nmax_fps_delta = 0\n[sync_groups.g.time_complement]\nmin_reflected_time_advantage "
          "= 0.5\n",
          "line 6 column 1: sync_groups.g.time_complement is missing required key "
          "\"min_lr_amplitude_m\"");
    fails("[sync_groups.g]\nclips = []\nmax_duration_delta_s = 0\nmax_frame_count_delta = "
          "0\nmax_fps_delta = 0\ntime_complement = { min_reflected_time_advantage = 0.5, "
          "min_lr_amplitude_m = -1 }\n",
          "line 6 column 78: sync_groups.g.time_complement.min_lr_amplitude_m must be a finite "
          "non-negative number (got -1)");
}

/* ---- [engine] ------------------------------------------------------- */

static void test_engine(void **state)
{
    (void)state;
    anim_config *cfg = load("[engine]\nprofile = \"bevy\"\nprofile_revision = 3\nengine_version = "
                            "\"0.19.0\"\nimporter = \"gltf-asset-loader\"\n[engine.settings]\n"
                            "extension_handler_environment = \"bare_empty\"\n"
                            "bevy_animation_feature = true\nload_animations = true\n");
    assert_true(cfg->engine.present);
    assert_string_equal(cfg->engine.profile, "bevy");
    assert_string_equal(cfg->engine.profile_revision, "3");
    assert_string_equal(cfg->engine.engine_version, "0.19.0");
    assert_string_equal(cfg->engine.importer, "gltf-asset-loader");
    assert_non_null(anim_toml_get(cfg->engine.settings, "load_animations"));
    anim_config_free(cfg);

    /* Each tuple with the required settings of its vocabulary (the
     * vocabularies themselves are tested in test_engine_settings.c). */
    const char *tuples[][5] = {
        {"unity-generic", "1", "6000.3", "fbx-model-importer",
         "[engine.settings]\nconvert_units = true\nbake_axis_conversion = false\n"
         "root_motion_source = \"Hips\"\n"},
        {"unity-generic", "2", "6000.3", "fbx-model-importer",
         "[engine.settings]\nanimation_type = \"generic\"\n"
         "avatar_setup = \"create_from_this_model\"\nimport_animation = true\n"
         "root_motion_source = \"Reference/Root\"\n"},
        {"unity-humanoid", "1", "6000.3", "fbx-model-importer",
         "[engine.settings]\nconvert_units = true\nbake_axis_conversion = false\n"},
        {"unreal", "1", "5.8", "fbx-importer", ""},
        {"unreal", "2", "5.8", "fbx-importer", "[engine.settings]\nsample_rate = \"default_30\"\n"},
        {"godot", "1", "4.7", "resource-importer-scene", ""},
        {"godot", "2", "4.7", "resource-importer-scene", ""},
        {"bevy", "1", "0.19.0", "gltf-asset-loader", ""},
        {"bevy", "2", "0.19.0", "gltf-asset-loader",
         "[engine.settings]\nextension_handler_environment = \"bare_empty\"\n"
         "bevy_animation_feature = false\n"},
    };
    for (size_t i = 0; i < sizeof tuples / sizeof tuples[0]; i++) {
        char text[768];
        snprintf(text, sizeof text,
                 "[engine]\nprofile = \"%s\"\nprofile_revision = %s\nengine_version = \"%s\"\n"
                 "importer = \"%s\"\n%s",
                 tuples[i][0], tuples[i][1], tuples[i][2], tuples[i][3], tuples[i][4]);
        cfg = load(text);
        assert_true(cfg->engine.present);
        anim_config_free(cfg);
    }

    /* Settings alone are accepted; an empty table selects none. */
    cfg = load("[engine.settings]\nconvert_units = true\n");
    assert_false(cfg->engine.present);
    assert_non_null(cfg->engine.settings);
    anim_config_free(cfg);
    cfg = load("[engine]\n");
    assert_false(cfg->engine.present);
    anim_config_free(cfg);

    fails("\n[engine]\nprofile = \"bevy\"\nprofile_revision = 1\nengine_version = \"0.19.0\"\n",
          "line 2 column 1: [engine] requires profile, profile_revision, engine_version, and "
          "importer (missing \"importer\")");
    fails("[engine]\nimporter = \"x\"\n",
          "line 1 column 1: [engine] requires profile, profile_revision, engine_version, and "
          "importer (missing \"profile\")");
    fails_with("[engine]\nprofile = \"bevy\"\nprofile_revision = 4\nengine_version = "
               "\"0.19.0\"\nimporter = \"gltf-asset-loader\"\n",
               "line 1 column 1: [engine] profile \"bevy\" profile_revision 4 engine_version "
               "\"0.19.0\" importer \"gltf-asset-loader\" is not a supported engine profile "
               "(supported: unity-generic/1/6000.3/fbx-model-importer, ");
    fails_with("[engine]\nprofile = \"generic-gltf\"\nprofile_revision = 1\nengine_version = "
               "\"1\"\nimporter = \"x\"\n",
               "bevy/3/0.19.0/gltf-asset-loader)");
    fails("[engine]\nprofile = \"bevy\"\nprofile_revision = \"1\"\n",
          "line 3 column 20: engine.profile_revision must be a non-negative integer, found "
          "string");
    fails("[engine]\nsettings = 1\n",
          "line 2 column 12: engine.settings must be a table, found integer");
}

/* ---- transition families -------------------------------------------- */

#define FAMILY_TOP                                                                           \
    "[transition_families.\"walk_to_run\"]\n"                                                \
    "schema = \"urn:animsmith:schema:transition-family:1\"\n"                                \
    "schema_version = 1\n"                                                                   \
    "scope = \"document\"\n"                                                                 \
    "boundary = \"both\"\n"

#define FAMILY_SUBS                                                                          \
    "[transition_families.\"walk_to_run\".basis]\n"                                          \
    "translation = \"skeleton-local-metres\"\n"                                              \
    "rotation = \"skeleton-local-degrees\"\n"                                                \
    "time = \"normalized-clip\"\n"                                                           \
    "[transition_families.\"walk_to_run\".tolerances]\n"                                     \
    "translation_m = 0.05\n"                                                                 \
    "rotation_deg = 5\n"                                                                     \
    "time_normalized = 0.05\n"

#define FAMILY_HEAD FAMILY_TOP FAMILY_SUBS

#define MEMBER(i, name)                                                                      \
    "[[transition_families.\"walk_to_run\".members]]\ntake_index = " i "\ntake_name = \"" name \
    "\"\n"

static void test_transition_families_valid(void **state)
{
    (void)state;
    anim_config *cfg = load(FAMILY_HEAD MEMBER("0", "Walk") MEMBER("1", "Run"));
    assert_non_null(cfg->transition_families);
    const anim_toml_value *f = anim_toml_get(cfg->transition_families, "walk_to_run");
    assert_non_null(f);
    const anim_toml_value *m = anim_toml_get(f, "members");
    assert_int_equal(m->u.array.count, 2);
    anim_config_free(cfg);

    cfg = load("[transition_families]\n");
    assert_non_null(cfg->transition_families);
    assert_int_equal(cfg->transition_families->u.table.count, 0);
    anim_config_free(cfg);

    cfg = load("[transition_families.\"combat.entry.v1\"]\nschema = "
               "\"urn:animsmith:schema:transition-family:1\"\nschema_version = 1\nscope = "
               "\"document\"\nboundary = \"entry\"\nbasis = { translation = "
               "\"skeleton-local-metres\", rotation = \"skeleton-local-degrees\", time = "
               "\"normalized-clip\" }\ntolerances = { translation_m = 0, rotation_deg = 0, "
               "time_normalized = 0 }\nmembers = [{ take_index = 0, take_name = \"a\" }]\n");
    anim_config_free(cfg);
}

static void test_transition_families_invalid(void **state)
{
    (void)state;
    fails("[transition_families.\"Walk\"]\n",
          "line 1 column 22: transition family id \"Walk\" must be 1-255 bytes of [a-z0-9._-] "
          "starting with [a-z0-9]");
    fails_with("[transition_families.\"-x\"]\n", "transition family id \"-x\" must be");
    fails_with("[transition_families.\"\"]\n", "transition family id \"\" must be");
    fails(FAMILY_HEAD,
          "line 1 column 1: transition_families.\"walk_to_run\" is missing required key "
          "\"members\"");
    fails(FAMILY_HEAD "[transition_families.\"walk_to_run\".x]\n",
          "line 14 column 36: unknown key \"x\" in transition_families.\"walk_to_run\" (known "
          "keys: schema, schema_version, scope, boundary, basis, tolerances, members)");
    fails_with(FAMILY_TOP "members = []\n" FAMILY_SUBS, "members must list at least one member");
    fails(FAMILY_HEAD MEMBER("0", "Walk") MEMBER("0", "Walk"),
          "line 17 column 1: transition_families.\"walk_to_run\".members[1] repeats "
          "transition_families.\"walk_to_run\".members[0] (take_index 0)");
    fails(FAMILY_HEAD "[[transition_families.\"walk_to_run\".members]]\ntake_index = 0\n",
          "line 14 column 1: transition_families.\"walk_to_run\".members[0] is missing required "
          "key \"take_name\"");
    fails(FAMILY_HEAD MEMBER("-1", "Walk"),
          "line 15 column 14: transition_families.\"walk_to_run\".members[0].take_index must be "
          "a non-negative integer (got -1)");
    fails_with(FAMILY_HEAD "[[transition_families.\"walk_to_run\".members]]\ntake_index = "
                           "0\ntake_name = \"a\"\nlogical_id = \"x\"\n",
               "unknown key \"logical_id\" in transition_families.\"walk_to_run\".members[0]");

    const char *swaps[][3] = {
        {"boundary = \"both\"", "boundary = \"middle\"",
         "transition_families.\"walk_to_run\".boundary must be one of \"entry\", \"exit\", "
         "\"both\" (got \"middle\")"},
        {"scope = \"document\"", "scope = \"collection\"",
         "transition_families.\"walk_to_run\".scope must be \"document\" (got \"collection\"); "
         "collection families belong in a separate declaration envelope"},
        {"schema_version = 1", "schema_version = 2",
         "transition_families.\"walk_to_run\".schema_version must be 1 (got 2)"},
        {"transition-family:1\"", "transition-family:2\"",
         "transition_families.\"walk_to_run\".schema must be "
         "\"urn:animsmith:schema:transition-family:1\""},
        {"time = \"normalized-clip\"", "time = \"seconds\"",
         "transition_families.\"walk_to_run\".basis.time must be \"normalized-clip\" (got "
         "\"seconds\")"},
        {"rotation_deg = 5", "rotation_deg = -5",
         "transition_families.\"walk_to_run\".tolerances.rotation_deg must be a finite "
         "non-negative number (got -5)"},
        {"rotation_deg = 5\n", "",
         "transition_families.\"walk_to_run\".tolerances is missing required key "
         "\"rotation_deg\""},
        {"scope = \"document\"", "family_id = \"walk_to_run\"",
         "the table key is the family id; \"family_id\" is not a field"},
    };
    for (size_t i = 0; i < sizeof swaps / sizeof swaps[0]; i++) {
        char text[2048];
        const char *src = FAMILY_HEAD MEMBER("0", "Walk");
        const char *at = strstr(src, swaps[i][0]);
        assert_non_null(at);
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - src), src, swaps[i][1],
                 at + strlen(swaps[i][0]));
        fails_with(text, swaps[i][2]);
    }
    /* Families are read before the other tables, so their errors come
     * first. */
    fails_with("[rig]\nbad = 1\n[transition_families.\"X\"]\n", "transition family id \"X\"");
}

static void test_transition_family_limits(void **state)
{
    (void)state;
    /* 4,097 members in one family. */
    size_t cap = 200000;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t n = (size_t)snprintf(text, cap, "%s", FAMILY_TOP "members = [");
    for (int i = 0; i < 4097; i++)
        n += (size_t)snprintf(text + n, cap - n, "{take_index=%d,take_name=\"\"},", i);
    snprintf(text + n, cap - n, "]\n%s", FAMILY_SUBS);
    fails_with(text, "members has 4097 members (at most 4096)");
    free(text);
}

/* ---- resolve -------------------------------------------------------- */

static void test_resolve(void **state)
{
    (void)state;
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    char dir[] = "/tmp/animsmith-config-XXXXXX";
    assert_non_null(mkdtemp(dir));
    assert_int_equal(chdir(dir), 0);

    anim_error err;
    anim_error_clear(&err);
    anim_config *cfg = anim_config_resolve(NULL, &err);
    assert_non_null(cfg);
    assert_null(cfg->path); /* built-in defaults */
    assert_string_equal(cfg->rig_profile, "auto");
    anim_config_free(cfg);

    FILE *f = fopen("animsmith.toml", "wb");
    assert_non_null(f);
    fputs("[rig]\nprofile = \"humanoid\"\n", f);
    fclose(f);
    f = fopen("other.toml", "wb");
    assert_non_null(f);
    fputs("[rig]\nprofile = \"mixamo\"\n[engine.settings]\nkey = \"kept after the read buffer "
          "is gone\"\n",
          f);
    fclose(f);

    cfg = anim_config_resolve(NULL, &err);
    assert_non_null(cfg);
    assert_string_equal(cfg->path, "animsmith.toml");
    assert_string_equal(cfg->rig_profile, "humanoid");
    anim_config_free(cfg);

    cfg = anim_config_resolve("other.toml", &err);
    assert_non_null(cfg);
    assert_string_equal(cfg->path, "other.toml");
    assert_string_equal(cfg->rig_profile, "mixamo");
    /* Raw tables point into the config arena, not into the file buffer. */
    assert_string_equal(anim_toml_get(cfg->engine.settings, "key")->u.string.data,
                        "kept after the read buffer is gone");
    anim_config_free(cfg);

    assert_null(anim_config_resolve("missing.toml", &err));
    assert_string_equal(err.message,
                        "cannot read config missing.toml: No such file or directory");

    f = fopen("animsmith.toml", "wb");
    assert_non_null(f);
    fputs("[rig]\nprofile = 1\n", f);
    fclose(f);
    assert_null(anim_config_resolve(NULL, &err));
    assert_string_equal(err.message, "bad config animsmith.toml: line 2 column 11: rig.profile "
                                     "must be a string, found integer");

    remove("animsmith.toml");
    remove("other.toml");
    assert_int_equal(chdir(cwd), 0);
    rmdir(dir);
}

static void test_strings_with_nul_refused(void **state)
{
    (void)state;
    fails("[rig]\nrequired_bones = [\"a\\u0000b\"]\n",
          "line 2 column 19: rig.required_bones[0] must not contain U+0000");
    fails_with("[clips.\"a\\u0000\"]\nloop = true\n", "a name must not contain U+0000");
}

/* [limits]: whole MiB from 1, strict keys with a suggestion, and the load
 * options carry them (zero fields keep the defaults). */
static void test_limits(void **state)
{
    (void)state;
    anim_config *cfg = load("[limits]\nimplicit_accessor_mib = 512\ngrid_mib = 4096\n");
    assert_int_equal(cfg->limits.implicit_accessor_bytes, (size_t)512 << 20);
    assert_int_equal(cfg->limits.grid_bytes, (size_t)4096 << 20);
    assert_int_equal(cfg->limits.file_bytes, 0);
    anim_load_options opts;
    anim_config_load_options(cfg, &opts);
    assert_int_equal(opts.limits.grid_bytes, (size_t)4096 << 20);
    assert_int_equal(opts.max_file_bytes, ANIM_LIMIT_FILE_DEFAULT);
    assert_true(opts.confine_uris);
    anim_config_free(cfg);
    cfg = load("[limits]\nfile_mib = 100\n");
    anim_config_load_options(cfg, &opts);
    assert_int_equal(opts.max_file_bytes, (size_t)100 << 20);
    anim_config_free(cfg);
    anim_config_load_options(NULL, &opts);
    assert_int_equal(anim_limits_get(&opts.limits, ANIM_LIMIT_GRID), ANIM_LIMIT_GRID_DEFAULT);
    fails("[limits]\ngrid_mb = 2\n",
          "line 2 column 1: unknown key \"grid_mb\" in [limits] (did you mean \"grid_mib\"?)");
    fails("[limits]\ngrid_mib = 0\n",
          "line 2 column 12: limits.grid_mib must be a whole number of MiB from 1 to 1073741824 (got 0)");
    fails_with("[limits]\ngrid_mib = 1.5\n", "limits.grid_mib");
    fails_with("limits = 3\n", "limits");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_examples_load),
        cmocka_unit_test(test_peer_corpus_contracts_load),
        cmocka_unit_test(test_character_example_contents),
        cmocka_unit_test(test_empty_file_is_defaults),
        cmocka_unit_test(test_sha256_of_bytes),
        cmocka_unit_test(test_parse_error_is_positioned),
        cmocka_unit_test(test_unknown_tables_and_keys),
        cmocka_unit_test(test_datetimes_refused),
        cmocka_unit_test(test_io_errors),
        cmocka_unit_test(test_rig),
        cmocka_unit_test(test_check_severity),
        cmocka_unit_test(test_check_settings_domains),
        cmocka_unit_test(test_check_ids),
        cmocka_unit_test(test_runtime_nodes),
        cmocka_unit_test(test_clip_keys),
        cmocka_unit_test(test_in_place_alias),
        cmocka_unit_test(test_clips_sorted_bytewise),
        cmocka_unit_test(test_glob_precedence),
        cmocka_unit_test(test_gait_groups),
        cmocka_unit_test(test_sync_groups),
        cmocka_unit_test(test_engine),
        cmocka_unit_test(test_transition_families_valid),
        cmocka_unit_test(test_transition_families_invalid),
        cmocka_unit_test(test_transition_family_limits),
        cmocka_unit_test(test_resolve),
        cmocka_unit_test(test_strings_with_nul_refused),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
