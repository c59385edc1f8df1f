/* The Bevy 0.19.0 engine checks and the raw animation inventory they
 * share: engine-addressability (Animation{i} labels), engine-unit-scale
 * (unit mapping, scene entities, primitive children, selected nodes) and
 * engine-track-support (the two animation gates, runtime survival). Each
 * rule is pinned on small documents built here or in
 * tests/fixtures/gltf/; incomplete inventories are made by handing the
 * check a raw JSON tree the reader would refuse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/json.h"
#include "animsmith/lint.h"
#include "animsmith/strbuf.h"
#include "checks/engine_inventory.h"
#include "support/test_support.h"

/* ---- fixtures ---------------------------------------------------------- */

static anim_asset *load_fixture(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/fixtures/gltf/%s", test_support_source_dir(), name);
    anim_error err;
    anim_error_clear(&err);
    anim_asset *a = anim_asset_load(path, NULL, &err);
    if (!a)
        fail_msg("cannot load %s: %s", path, err.message);
    return a;
}

/* A Bevy 0.19.0 contract of one revision; settings and extra are TOML
 * lines under [engine.settings] and after it (either may be NULL). */
static anim_config *bevy(unsigned revision, const char *settings, const char *extra)
{
    char toml[2048];
    snprintf(toml, sizeof toml,
             "[engine]\nprofile = \"bevy\"\nprofile_revision = %u\nengine_version = \"0.19.0\"\n"
             "importer = \"gltf-asset-loader\"\n%s%s\n%s\n",
             revision, settings ? "[engine.settings]\n" : "", settings ? settings : "",
             extra ? extra : "");
    return test_support_config_text(toml);
}

#define ENV "extension_handler_environment = \"bare_empty\"\n"
#define R2_SETTINGS ENV "bevy_animation_feature = true\n"

/* A raw JSON tree standing in for the asset's own (the reader refuses
 * such files, so only the inventory can see them). The tree lives in the
 * asset's arena; the text is kept beside it. */
static void swap_root(anim_asset *a, const char *json)
{
    size_t len = strlen(json);
    char *text = anim_arena_alloc(a->arena, len + 1);
    assert_non_null(text);
    memcpy(text, json, len + 1);
    anim_error err;
    anim_error_clear(&err);
    anim_json_value *root = anim_json_parse(a->arena, text, len, NULL, &err);
    if (!root)
        fail_msg("bad test JSON: %s", err.message);
    a->source.root = root;
}

/* {"animations": [ item x count ]} plus members after it. */
static char *repeated(const char *item, uint32_t count, const char *tail)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_strbuf_puts(&sb, "{\"animations\":[");
    for (uint32_t i = 0; i < count; i++) {
        if (i)
            anim_strbuf_putc(&sb, ',');
        anim_strbuf_puts(&sb, item);
    }
    anim_strbuf_printf(&sb, "]%s}", tail ? tail : "");
    assert_false(sb.failed);
    return sb.data;
}

/* One animation with count channels over sampler 0. */
static char *wide_animation(uint32_t count)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_strbuf_puts(&sb, "{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[");
    for (uint32_t i = 0; i < count; i++)
        anim_strbuf_printf(&sb, "%s{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}}",
                           i ? "," : "");
    anim_strbuf_puts(&sb, "]}");
    assert_false(sb.failed);
    return sb.data;
}

/* ---- record helpers ---------------------------------------------------- */

static const anim_field *result_field(const anim_prediction_facet *f, const char *key)
{
    for (uint32_t i = 0; i < f->result_count; i++)
        if (strcmp(f->result[i].key, key) == 0)
            return &f->result[i];
    fail_msg("facet %s has no result field %s", f->scope.code, key);
    return NULL;
}

static void expect_text(const anim_prediction_facet *f, const char *key, const char *want)
{
    const anim_field *v = result_field(f, key);
    if (!want) {
        assert_int_equal(v->kind, ANIM_FIELD_NULL);
        return;
    }
    assert_int_equal(v->kind, ANIM_FIELD_TEXT);
    assert_string_equal(v->text, want);
}

static void expect_int(const anim_prediction_facet *f, const char *key, int64_t want)
{
    const anim_field *v = result_field(f, key);
    assert_int_equal(v->kind, ANIM_FIELD_INT);
    assert_int_equal(v->integer, want);
}

static void expect_bool(const anim_prediction_facet *f, const char *key, bool want)
{
    const anim_field *v = result_field(f, key);
    assert_int_equal(v->kind, ANIM_FIELD_BOOL);
    assert_int_equal(v->boolean, want);
}

static const anim_basis_row *basis_row(const anim_prediction_facet *f, const char *ref)
{
    for (uint32_t i = 0; i < f->basis_count; i++)
        if (strcmp(f->basis[i].value.key, ref) == 0)
            return &f->basis[i];
    fail_msg("facet %s has no basis row %s", f->scope.code, ref);
    return NULL;
}

static void expect_available(const anim_prediction_facet *f, const char *code,
                             const char *subject, const char *kind)
{
    test_support_expect_str(f->scope.code, code);
    test_support_expect_str(f->scope.subject, subject);
    assert_int_equal(f->state, ANIM_FACET_AVAILABLE);
    test_support_expect_str(f->result_kind, kind);
    assert_true(f->basis_count > 0);
    assert_int_equal(f->reason_count, 0);
}

static void expect_unavailable(const anim_prediction_facet *f, const char *code,
                               const char *subject, const char *reason)
{
    test_support_expect_str(f->scope.code, code);
    test_support_expect_str(f->scope.subject, subject);
    assert_int_equal(f->state, ANIM_FACET_REQUIRED_UNAVAILABLE);
    assert_int_equal(f->result_count, 0);
    assert_int_equal(f->reason_count, 1);
    assert_string_equal(f->reasons[0], reason);
}

static void expect_setting(const anim_prediction_facet *f, const char *key, bool value,
                           const char *origin)
{
    const anim_basis_row *r = basis_row(f, key);
    assert_int_equal(r->kind, ANIM_BASIS_SETTING);
    assert_int_equal(r->value.kind, ANIM_FIELD_BOOL);
    assert_int_equal(r->value.boolean, value);
    char ref[96];
    snprintf(ref, sizeof ref, "%s/origin", key);
    r = basis_row(f, ref);
    assert_int_equal(r->kind, ANIM_BASIS_SETTING);
    assert_string_equal(r->value.text, origin);
}

static const anim_check_record *lint_one(const anim_asset *a, const anim_config *cfg,
                                         const char *id, anim_lint_file *file)
{
    const anim_check_record *rec = test_support_lint_only(a, cfg, id, file);
    assert_int_equal(rec->finding_count, 0); /* prediction only, ever */
    return rec;
}

/* ---- the inventory ----------------------------------------------------- */

static void test_inventory_rows(void **state)
{
    (void)state;
    anim_asset *a = load_fixture("bevy-animation-names.gltf");
    anim_arena *arena = anim_arena_new();
    anim_engine_inventory inv;
    anim_error err;
    assert_int_equal(anim_engine_inventory_build(a, arena, &inv, &err), 0);
    assert_int_equal(inv.coverage, ANIM_ENGINE_INVENTORY_COMPLETE);
    assert_int_equal(inv.channel_coverage, ANIM_ENGINE_INVENTORY_COMPLETE);
    assert_null(inv.reason);
    assert_null(inv.channel_reason);
    assert_int_equal(inv.source_animation_count, 3);
    assert_int_equal(inv.animation_count, 3);
    assert_int_equal(inv.channel_row_count, 4);
    assert_null(inv.animations[0].name.s);
    assert_string_equal(inv.animations[1].name.s, "idle");
    assert_string_equal(inv.animations[2].name.s, "idle");
    const anim_engine_inventory_animation *idle = &inv.animations[1];
    assert_true(idle->well_formed);
    assert_int_equal(idle->source_channel_count, 2);
    assert_int_equal(idle->channel_count, 2);
    const anim_engine_inventory_channel *ch = &idle->channels[1];
    assert_true(ch->well_formed);
    assert_int_equal(ch->index, 1);
    assert_int_equal(ch->sampler, 0);
    assert_int_equal(ch->target_node, 0);
    assert_string_equal(ch->target_path.s, "translation");
    assert_int_equal(ch->input_accessor, 0);
    assert_int_equal(ch->output_accessor, 1);
    assert_string_equal(ch->interpolation.s, "STEP");
    assert_null(inv.animations[0].channels[0].interpolation.s); /* absent: LINEAR */
    assert_false(anim_engine_inventory_complete_empty(a));
    anim_arena_free(arena);
    anim_asset_free(a);
}

static void test_inventory_incomplete_rows(void **state)
{
    (void)state;
    anim_asset *a = load_fixture("bevy-animation-names.gltf");
    anim_arena *arena = anim_arena_new();
    anim_engine_inventory inv;
    anim_error err;
    /* Animation 1 is not an object, animation 2 has no channel array,
     * animation 3 has a channel without a target path. */
    swap_root(a, "{\"animations\":[{\"name\":\"a\\u0000b\",\"channels\":[],\"samplers\":[]},7,"
                 "{\"samplers\":[]},"
                 "{\"samplers\":[{\"input\":0,\"output\":1}],"
                 "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0}}]}]}");
    assert_int_equal(anim_engine_inventory_build(a, arena, &inv, &err), 0);
    assert_int_equal(inv.coverage, ANIM_ENGINE_INVENTORY_PARTIAL);
    assert_string_equal(inv.reason, ANIM_ENGINE_INVENTORY_ANIMATIONS_INCOMPLETE);
    assert_string_equal(inv.detail, "animation 1 is not a JSON object");
    assert_int_equal(inv.animation_count, 4); /* the index is kept */
    assert_int_equal(inv.animations[0].name.len, 3); /* U+0000 kept */
    assert_memory_equal(inv.animations[0].name.s, "a\0b", 3);
    assert_false(inv.animations[1].well_formed);
    assert_int_equal(inv.animations[2].channel_coverage, ANIM_ENGINE_INVENTORY_UNAVAILABLE);
    assert_int_equal(inv.animations[3].channel_coverage, ANIM_ENGINE_INVENTORY_PARTIAL);
    assert_string_equal(inv.animations[3].channel_detail, "animation 3 channel 0 is malformed");
    assert_false(inv.animations[3].channels[0].well_formed);
    /* The channel domain reports the first animation short of complete. */
    assert_int_equal(inv.channel_coverage, ANIM_ENGINE_INVENTORY_PARTIAL);
    assert_string_equal(inv.channel_reason, ANIM_ENGINE_INVENTORY_CHANNELS_INCOMPLETE);
    assert_string_equal(inv.channel_detail, "animation 1 is not a JSON object");

    swap_root(a, "{\"animations\":{}}");
    assert_int_equal(anim_engine_inventory_build(a, arena, &inv, &err), 0);
    assert_int_equal(inv.coverage, ANIM_ENGINE_INVENTORY_UNAVAILABLE);
    assert_int_equal(inv.channel_coverage, ANIM_ENGINE_INVENTORY_UNAVAILABLE);
    assert_false(anim_engine_inventory_complete_empty(a));

    swap_root(a, "{\"animations\":[]}");
    assert_true(anim_engine_inventory_complete_empty(a));
    assert_int_equal(anim_engine_inventory_build(a, arena, &inv, &err), 0);
    assert_int_equal(inv.coverage, ANIM_ENGINE_INVENTORY_COMPLETE);
    assert_int_equal(inv.animation_count, 0);
    swap_root(a, "{\"nodes\":[]}");
    assert_true(anim_engine_inventory_complete_empty(a));
    anim_arena_free(arena);
    anim_asset_free(a);
}

/* The bound plus its one overflow witness, for animations and for the
 * channels of one animation. */
static void test_inventory_overflow(void **state)
{
    (void)state;
    anim_asset *a = load_fixture("bevy-animation-names.gltf");
    anim_arena *arena = anim_arena_new();
    anim_engine_inventory inv;
    anim_error err;
    char *json = repeated("{\"channels\":[],\"samplers\":[]}", 4096, NULL);
    swap_root(a, json);
    free(json);
    assert_int_equal(anim_engine_inventory_build(a, arena, &inv, &err), 0);
    assert_int_equal(inv.coverage, ANIM_ENGINE_INVENTORY_COMPLETE); /* exactly the bound */
    json = repeated("{\"channels\":[],\"samplers\":[]}", 4097, NULL);
    swap_root(a, json);
    free(json);
    assert_int_equal(anim_engine_inventory_build(a, arena, &inv, &err), 0);
    assert_int_equal(inv.coverage, ANIM_ENGINE_INVENTORY_PARTIAL);
    assert_string_equal(inv.reason, ANIM_ENGINE_INVENTORY_ANIMATIONS_OVERFLOW);
    assert_int_equal(inv.source_animation_count, 4097);
    assert_int_equal(inv.animation_count, 4096);

    char *wide = wide_animation(4097);
    json = repeated(wide, 1, NULL);
    swap_root(a, json);
    free(json);
    free(wide);
    assert_int_equal(anim_engine_inventory_build(a, arena, &inv, &err), 0);
    assert_int_equal(inv.coverage, ANIM_ENGINE_INVENTORY_COMPLETE);
    assert_int_equal(inv.channel_coverage, ANIM_ENGINE_INVENTORY_PARTIAL);
    assert_string_equal(inv.channel_reason, ANIM_ENGINE_INVENTORY_CHANNELS_OVERFLOW);
    assert_int_equal(inv.animations[0].source_channel_count, 4097);
    assert_int_equal(inv.animations[0].channel_count, 4096);
    anim_arena_free(arena);
    anim_asset_free(a);
}

/* ---- engine-addressability --------------------------------------------- */

static void test_addressability_labels(void **state)
{
    (void)state;
    anim_asset *a = load_fixture("bevy-animation-names.gltf");
    anim_config *cfg = bevy(1, NULL, NULL);
    anim_lint_file file;
    const anim_check_record *rec = lint_one(a, cfg, "engine-addressability", &file);
    test_support_expect_state(rec, true, ANIM_EVAL_COMPLETE, 0, 3, 0);
    assert_string_equal(rec->prediction_schema, "urn:animsmith:engine-prediction:3");
    assert_int_equal(rec->facet_count, 3);
    /* Names never matter: unnamed and duplicate-named keep their index. */
    static const char *const names[3] = {NULL, "idle", "idle"};
    for (uint32_t i = 0; i < 3; i++) {
        const anim_prediction_facet *f = &rec->facets[i];
        char label[16], ptr[32];
        snprintf(label, sizeof label, "Animation%u", i);
        snprintf(ptr, sizeof ptr, "/animations/%u", i);
        expect_available(f, "animation_asset_label", label, "animation_asset_label");
        expect_text(f, "label", label);
        expect_int(f, "source_animation_index", i);
        expect_text(f, "source_name", names[i]);
        test_support_expect_scope(&rec->scopes[i], "animation_asset_label", label);
        assert_int_equal(f->basis_count, 2);
        assert_int_equal(f->basis[0].kind, ANIM_BASIS_RAW_SOURCE);
        assert_string_equal(f->basis[0].value.key, ptr);
        if (names[i])
            assert_string_equal(f->basis[0].value.text, names[i]);
        else
            assert_int_equal(f->basis[0].value.kind, ANIM_FIELD_NULL);
        assert_int_equal(f->basis[1].kind, ANIM_BASIS_PROFILE_FACT);
        assert_string_equal(f->basis[1].value.key, "gltf_asset_label_animation_format");
        assert_string_equal(f->basis[1].value.text, "Animation{index}");
    }
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* Every Bevy revision runs it; no other profile, and no profile, does. */
static void test_addressability_applicability(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk.glb");
    anim_lint_file file;
    for (unsigned r = 1; r <= 3; r++) {
        anim_config *cfg = bevy(r, r == 1 ? NULL : R2_SETTINGS, NULL);
        const anim_check_record *rec = lint_one(a, cfg, "engine-addressability", &file);
        test_support_expect_state(rec, true, ANIM_EVAL_COMPLETE, 0, 1, 0);
        expect_text(&rec->facets[0], "source_name", "walk");
        anim_lint_file_free(&file);
        anim_config_free(cfg);
    }
    anim_config *godot = test_support_config_text(
        "[engine]\nprofile = \"godot\"\nprofile_revision = 1\nengine_version = \"4.7\"\n"
        "importer = \"resource-importer-scene\"\n");
    anim_config *none = test_support_config_default();
    const anim_config *others[2] = {godot, none};
    for (int i = 0; i < 2; i++) {
        const anim_check_record *rec = lint_one(a, others[i], "engine-addressability", &file);
        test_support_expect_state(rec, false, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
        assert_int_equal(rec->facet_count, 0);
        assert_null(rec->prediction_schema);
        anim_lint_file_free(&file);
    }
    anim_config_free(godot);
    anim_config_free(none);
    anim_asset_free(a);
}

static void test_addressability_empty(void **state)
{
    (void)state;
    anim_asset *a = load_fixture("bevy-no-animations.gltf");
    anim_config *cfg = bevy(1, NULL, NULL);
    anim_lint_file file;
    const anim_check_record *rec = lint_one(a, cfg, "engine-addressability", &file);
    test_support_expect_state(rec, false, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
    assert_int_equal(rec->facet_count, 0);
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* A partial inventory is one blocking subjectless facet: no prefix. */
static void test_addressability_partial(void **state)
{
    (void)state;
    anim_asset *a = load_fixture("bevy-animation-names.gltf");
    anim_config *cfg = bevy(1, NULL, NULL);
    anim_lint_file file;
    swap_root(a, "{\"animations\":[{\"name\":\"walk\",\"channels\":[],\"samplers\":[]},\"x\"]}");
    const anim_check_record *rec = lint_one(a, cfg, "engine-addressability", &file);
    test_support_expect_state(rec, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
    assert_int_equal(rec->facet_count, 1);
    expect_unavailable(&rec->facets[0], "animation_asset_label_inventory", NULL,
                       "animation_inventory_incomplete");
    anim_lint_file_free(&file);

    char *json = repeated("{\"channels\":[],\"samplers\":[]}", 4097, NULL);
    swap_root(a, json);
    free(json);
    rec = lint_one(a, cfg, "engine-addressability", &file);
    test_support_expect_state(rec, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
    assert_int_equal(rec->facet_count, 1);
    expect_unavailable(&rec->facets[0], "animation_asset_label_inventory", NULL,
                       "animation_inventory_overflow");
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* ---- engine-unit-scale ------------------------------------------------- */

static void test_unit_scale_defaults(void **state)
{
    (void)state;
    anim_asset *a = load_fixture("bevy-mesh-sockets.gltf");
    anim_config *cfg = bevy(2, R2_SETTINGS,
                            "[runtime_nodes]\nselectors = [\"socket\", \"sheared_socket\"]\n");
    anim_lint_file file;
    const anim_check_record *rec = lint_one(a, cfg, "engine-unit-scale", &file);
    /* unit mapping, Scene0, 2 + 2 primitive children, socket available;
     * sheared_socket blocked. */
    assert_int_equal(rec->facet_count, 8);
    test_support_expect_state(rec, true, ANIM_EVAL_PARTIAL, 0, 7, 0);
    assert_string_equal(rec->prediction_schema, "urn:animsmith:engine-prediction:4");

    const anim_prediction_facet *f = &rec->facets[0];
    expect_available(f, "unit_mapping", NULL, "unit_mapping");
    expect_text(f, "gltf_length_unit", "metre");
    expect_int(f, "bevy_world_length_units_per_metre", 1);
    expect_text(f, "loader_scale_conversion", "none");
    expect_bool(f, "rotate_scene_entity", false);
    expect_bool(f, "rotate_meshes", false);
    expect_setting(f, "rotate_scene_entity", false, "profile_default");
    expect_setting(f, "rotate_meshes", false, "profile_default");
    assert_string_equal(basis_row(f, "extension_handler_environment")->value.text, "bare_empty");
    assert_string_equal(basis_row(f, "extension_handler_environment/origin")->value.text,
                        "explicit_config");
    assert_int_equal(basis_row(f, "bevy_world_length_units_per_metre")->kind,
                     ANIM_BASIS_PROFILE_FACT);

    f = &rec->facets[1];
    expect_available(f, "scene_entity", "Scene0", "scene_entity");
    expect_text(f, "entity", "created");
    expect_int(f, "scene_root_count", 2);
    expect_bool(f, "rotation_applied", false);
    assert_string_equal(basis_row(f, "/scenes/0")->value.text, "main");

    /* Node 2 is in the scene (under hips); node 5 is in none. */
    static const char *const subjects[4] = {
        "GltfNode2/Mesh0/Primitive0", "GltfNode2/Mesh0/Primitive1",
        "GltfNode5/Mesh0/Primitive0", "GltfNode5/Mesh0/Primitive1"};
    for (int i = 0; i < 4; i++) {
        f = &rec->facets[2 + i];
        expect_available(f, "primitive_child", subjects[i], "primitive_child");
        expect_text(f, "outcome", i < 2 ? "created" : "not_instantiated");
        expect_text(f, "node_entity", i < 2 ? "created" : "not_instantiated");
        expect_int(f, "node_index", i < 2 ? 2 : 5);
        expect_int(f, "mesh_index", 0);
        expect_int(f, "primitive_index", i % 2);
        expect_int(f, "scene_instance_count", i < 2 ? 1 : 0);
        assert_string_equal(basis_row(f, "load_meshes")->value.text, "nonempty");
        assert_string_equal(basis_row(f, "load_meshes/origin")->value.text, "profile_default");
    }

    /* The socket inherits hips' 0.01: one metre is 0.01 world units. */
    const anim_prediction_facet *socket = &rec->facets[6];
    expect_available(socket, "selected_node", "#0(hips)/#1(socket)", "selected_node");
    expect_int(socket, "node_index", 1);
    expect_text(socket, "classification", "uniform_scaled");
    assert_true(fabs(result_field(socket, "world_uniform_scale")->number - 0.01) < 1e-9);
    assert_true(fabs(result_field(socket, "world_length_units_per_metre")->number - 0.01) <
                1e-9);
    assert_string_equal(basis_row(socket, "runtime_nodes.selectors")->value.text, "socket");
    expect_unavailable(&rec->facets[7], "selected_node", "#3(shear_parent)/#4(sheared_socket)",
                       "unsupported_matrix_ancestry");
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* The selected-node facets: a sheared matrix ancestor blocks, like a
 * selector that resolves to no node or to several; two selectors naming
 * one node give one facet. */
static void test_unit_scale_selectors(void **state)
{
    (void)state;
    anim_asset *a = load_fixture("bevy-mesh-sockets.gltf");
    anim_config *cfg = bevy(3, R2_SETTINGS,
                            "[runtime_nodes]\nselectors = [\"sheared_socket\", \"nothing\", "
                            "\"*socket\", \"hips\", \"hi*\"]\n");
    anim_lint_file file;
    const anim_check_record *rec = lint_one(a, cfg, "engine-unit-scale", &file);
    assert_int_equal(rec->facet_count, 6 + 4);
    expect_unavailable(&rec->facets[6], "selected_node", "#3(shear_parent)/#4(sheared_socket)",
                       "unsupported_matrix_ancestry");
    expect_unavailable(&rec->facets[7], "selected_node", "nothing", "selector_no_match");
    expect_unavailable(&rec->facets[8], "selected_node", "*socket", "selector_ambiguous");
    const anim_prediction_facet *hips = &rec->facets[9];
    expect_available(hips, "selected_node", "#0(hips)", "selected_node");
    expect_text(hips, "classification", "uniform_scaled");
    test_support_expect_state(rec, true, ANIM_EVAL_PARTIAL, 0, 7, 0);
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* A non-uniform world keeps its classification and no scale. */
static void test_unit_scale_selectors_non_uniform(void **state)
{
    (void)state;
    test_support_gltf *g = test_support_gltf_new();
    test_support_node root = {"root", -1, TEST_SUPPORT_S, {0}, {0, 0, 0, 1}, {1, 2, 1}};
    test_support_node tip = {"tip", 0, 0, {0}, {0, 0, 0, 1}, {1, 1, 1}};
    test_support_gltf_node(g, &root);
    test_support_gltf_node(g, &tip);
    anim_asset *a = test_support_gltf_load(g, "t.gltf");
    test_support_gltf_free(g);
    anim_config *cfg = bevy(2, R2_SETTINGS, "[runtime_nodes]\nselectors = [\"tip\"]\n");
    anim_lint_file file;
    const anim_check_record *rec = lint_one(a, cfg, "engine-unit-scale", &file);
    const anim_prediction_facet *f = &rec->facets[rec->facet_count - 1];
    expect_available(f, "selected_node", "#0(root)/#1(tip)", "selected_node");
    expect_text(f, "classification", "non_uniform");
    expect_text(f, "world_uniform_scale", NULL);
    expect_text(f, "world_length_units_per_metre", NULL);
    test_support_expect_state(rec, true, ANIM_EVAL_COMPLETE, 0, rec->facet_count, 0);
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* load_meshes = "empty" suppresses the primitive children; the node
 * entities stay. Explicit settings carry their origin. */
static void test_unit_scale_empty_meshes(void **state)
{
    (void)state;
    anim_asset *a = load_fixture("bevy-mesh-sockets.gltf");
    anim_config *cfg = bevy(2,
                            "extension_handler_environment = \"bevy_pbr_stock_0_19\"\n"
                            "bevy_animation_feature = true\nrotate_scene_entity = true\n"
                            "rotate_meshes = true\nload_meshes = \"empty\"\n",
                            NULL);
    anim_lint_file file;
    const anim_check_record *rec = lint_one(a, cfg, "engine-unit-scale", &file);
    assert_int_equal(rec->facet_count, 6);
    test_support_expect_state(rec, true, ANIM_EVAL_COMPLETE, 0, 6, 0);
    expect_bool(&rec->facets[0], "rotate_scene_entity", true);
    expect_bool(&rec->facets[0], "rotate_meshes", true);
    expect_setting(&rec->facets[0], "rotate_meshes", true, "explicit_config");
    expect_bool(&rec->facets[1], "rotation_applied", true);
    expect_text(&rec->facets[2], "outcome", "suppressed");
    expect_text(&rec->facets[2], "node_entity", "created");
    expect_text(&rec->facets[3], "outcome", "suppressed");
    expect_text(&rec->facets[4], "outcome", "not_instantiated");
    assert_string_equal(basis_row(&rec->facets[2], "load_meshes")->value.text, "empty");
    assert_string_equal(basis_row(&rec->facets[2], "load_meshes/origin")->value.text,
                        "explicit_config");
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* rest-world-scale keeps its own findings for the same selectors, with
 * or without the profile and its prediction beside it. */
static void test_unit_scale_interplay(void **state)
{
    (void)state;
    anim_asset *a = load_fixture("bevy-mesh-sockets.gltf");
    const char *nodes = "[runtime_nodes]\nselectors = [\"socket\", \"sheared_socket\"]\n";
    anim_config *plain = test_support_config_text(nodes);
    anim_config *profiled = bevy(2, R2_SETTINGS, nodes);
    static const char *const ids[2] = {"rest-world-scale", "engine-unit-scale"};
    anim_lint_file alone, both;
    const anim_check_record *ref = test_support_lint_only(a, plain, "rest-world-scale", &alone);
    test_support_lint(a, profiled, ids, 2, &both);
    const anim_check_record *rws = test_support_record(&both, "rest-world-scale");
    assert_int_equal(ref->finding_count, 2); /* 0.01 and sheared */
    assert_int_equal(rws->finding_count, ref->finding_count);
    for (uint32_t i = 0; i < ref->finding_count; i++) {
        assert_string_equal(rws->findings[i].message, ref->findings[i].message);
        assert_string_equal(rws->findings[i].node, ref->findings[i].node);
        assert_null(rws->findings[i].prediction_scope_code);
    }
    assert_null(rws->prediction_schema);
    assert_int_equal(test_support_record(&both, "engine-unit-scale")->finding_count, 0);
    anim_lint_file_free(&alone);
    anim_lint_file_free(&both);
    anim_config_free(plain);
    anim_config_free(profiled);
    anim_asset_free(a);
}

static void test_unit_scale_applicability(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk.glb");
    anim_lint_file file;
    anim_config *cfg = bevy(1, NULL, NULL);
    const anim_check_record *rec = lint_one(a, cfg, "engine-unit-scale", &file);
    test_support_expect_state(rec, false, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    /* No animation needed: the file alone is the subject. */
    anim_asset *still = load_fixture("bevy-no-animations.gltf");
    cfg = bevy(3, R2_SETTINGS, NULL);
    rec = lint_one(still, cfg, "engine-unit-scale", &file);
    test_support_expect_state(rec, true, ANIM_EVAL_COMPLETE, 0, 2, 0);
    expect_available(&rec->facets[1], "scene_entity", "Scene0", "scene_entity");
    expect_int(&rec->facets[1], "scene_root_count", 1);
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(still);
    anim_asset_free(a);
}

/* ---- engine-track-support ---------------------------------------------- */

static void test_track_support_runtime_survival(void **state)
{
    (void)state;
    anim_asset *a = load_fixture("bevy-animation-names.gltf");
    anim_config *cfg = bevy(3, R2_SETTINGS "load_animations = true\n", NULL);
    anim_lint_file file;
    const anim_check_record *rec = lint_one(a, cfg, "engine-track-support", &file);
    test_support_expect_state(rec, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
    assert_string_equal(rec->prediction_schema, "urn:animsmith:engine-prediction:5");
    assert_int_equal(rec->facet_count, 1);
    const anim_prediction_facet *f = &rec->facets[0];
    expect_unavailable(f, "runtime_survival", NULL, "runtime_survival_unobservable");
    expect_setting(f, "bevy_animation_feature", true, "explicit_config");
    expect_setting(f, "load_animations", true, "explicit_config");
    anim_lint_file_free(&file);
    anim_config_free(cfg);

    /* The load_animations default is open too. */
    cfg = bevy(3, R2_SETTINGS, NULL);
    rec = lint_one(a, cfg, "engine-track-support", &file);
    assert_int_equal(rec->facet_count, 1);
    expect_unavailable(&rec->facets[0], "runtime_survival", NULL,
                       "runtime_survival_unobservable");
    expect_setting(&rec->facets[0], "load_animations", true, "profile_default");
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* One dropped facet per animation, each followed by its channels'. */
static void expect_dropped(const anim_check_record *rec, const char *gate)
{
    static const uint32_t channels[3] = {1, 2, 1};
    static const char *const names[3] = {NULL, "idle", "idle"};
    assert_int_equal(rec->facet_count, 7);
    test_support_expect_state(rec, true, ANIM_EVAL_COMPLETE, 0, 7, 0);
    uint32_t i = 0;
    for (uint32_t an = 0; an < 3; an++) {
        char subject[48];
        snprintf(subject, sizeof subject, "Animation%u", an);
        const anim_prediction_facet *f = &rec->facets[i++];
        expect_available(f, "animation_load", subject, "animation_gate");
        expect_text(f, "outcome", "dropped");
        expect_text(f, "gate", gate);
        expect_int(f, "source_animation_index", an);
        expect_text(f, "source_name", names[an]);
        expect_int(f, "channel_count", channels[an]);
        for (uint32_t c = 0; c < channels[an]; c++) {
            snprintf(subject, sizeof subject, "Animation%u/Channel%u", an, c);
            f = &rec->facets[i++];
            expect_available(f, "channel_load", subject, "channel_gate");
            expect_text(f, "outcome", "dropped");
            expect_text(f, "gate", gate);
            expect_int(f, "source_channel_index", c);
            expect_text(f, "target_path", "translation");
        }
    }
    expect_int(&rec->facets[3], "target_node", 1); /* Animation1/Channel0 */
    expect_int(&rec->facets[4], "target_node", 0); /* Animation1/Channel1 */
}

static void test_track_support_gates(void **state)
{
    (void)state;
    anim_asset *a = load_fixture("bevy-animation-names.gltf");
    anim_lint_file file;
    /* The feature gate takes precedence, whatever load_animations says. */
    static const char *const feature_off[2] = {
        ENV "bevy_animation_feature = false\nload_animations = true\n",
        ENV "bevy_animation_feature = false\nload_animations = false\n"};
    for (int i = 0; i < 2; i++) {
        anim_config *cfg = bevy(3, feature_off[i], NULL);
        const anim_check_record *rec = lint_one(a, cfg, "engine-track-support", &file);
        expect_dropped(rec, "bevy_animation_feature");
        expect_setting(&rec->facets[0], "bevy_animation_feature", false, "explicit_config");
        expect_setting(&rec->facets[0], "load_animations", i == 0, "explicit_config");
        anim_lint_file_free(&file);
        anim_config_free(cfg);
    }
    anim_config *cfg = bevy(3, ENV "bevy_animation_feature = true\nload_animations = false\n",
                            NULL);
    const anim_check_record *rec = lint_one(a, cfg, "engine-track-support", &file);
    expect_dropped(rec, "load_animations");
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

static void test_track_support_inventory(void **state)
{
    (void)state;
    anim_asset *a = load_fixture("bevy-animation-names.gltf");
    anim_config *cfg = bevy(3, ENV "bevy_animation_feature = false\n", NULL);
    anim_lint_file file;
    static const struct {
        const char *json, *reason;
    } cases[] = {
        {"{\"animations\":[{\"channels\":[],\"samplers\":[]},null]}",
         "animation_inventory_incomplete"},
        {"{\"animations\":[{\"channels\":[],\"samplers\":[]},{\"samplers\":[]}]}",
         "channel_inventory_incomplete"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        swap_root(a, cases[i].json);
        const anim_check_record *rec = lint_one(a, cfg, "engine-track-support", &file);
        test_support_expect_state(rec, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
        assert_int_equal(rec->facet_count, 1);
        expect_unavailable(&rec->facets[0], "animation_inventory", NULL, cases[i].reason);
        anim_lint_file_free(&file);
    }
    char *wide = wide_animation(4097);
    char *json = repeated(wide, 1, NULL);
    swap_root(a, json);
    free(wide);
    free(json);
    const anim_check_record *rec = lint_one(a, cfg, "engine-track-support", &file);
    assert_int_equal(rec->facet_count, 1);
    expect_unavailable(&rec->facets[0], "animation_inventory", NULL,
                       "channel_inventory_overflow");
    anim_lint_file_free(&file);

    /* Complete but empty: not applicable. */
    swap_root(a, "{\"animations\":[]}");
    rec = lint_one(a, cfg, "engine-track-support", &file);
    test_support_expect_state(rec, false, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

/* Complete source evidence beyond the shared budget: the authorized
 * prefix stays available and one marker names the omitted rest. */
static void test_track_support_budget(void **state)
{
    (void)state;
    anim_asset *a = load_fixture("bevy-animation-names.gltf");
    /* The third animation starts past the budget: counted as a whole. */
    char *wide = wide_animation(3000);
    char *json = repeated(wide, 3, NULL);
    swap_root(a, json);
    free(wide);
    free(json);
    anim_config *cfg = bevy(3, ENV "bevy_animation_feature = false\n", NULL);
    anim_lint_file file;
    const anim_check_record *rec = lint_one(a, cfg, "engine-track-support", &file);
    assert_int_equal(rec->facet_count, 4096);
    assert_int_equal(rec->facets_omitted, 9003 - 4095);
    expect_unavailable(&rec->facets[4095], "facet_budget", NULL, "facet_budget_exceeded");
    test_support_expect_state(rec, true, ANIM_EVAL_PARTIAL, 0, 4095, 0);
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

static void test_track_support_applicability(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("walk.glb");
    anim_lint_file file;
    anim_config *cfg = bevy(2, R2_SETTINGS, NULL);
    const anim_check_record *rec = lint_one(a, cfg, "engine-track-support", &file);
    test_support_expect_state(rec, false, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset *still = load_fixture("bevy-no-animations.gltf");
    cfg = bevy(3, R2_SETTINGS, NULL);
    rec = lint_one(still, cfg, "engine-track-support", &file);
    test_support_expect_state(rec, false, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(still);
    anim_asset_free(a);
}

/* A required setting the run lacks (validation makes it impossible from a
 * file; a hand-built contract can still do it) blocks the work that needs
 * it instead of being guessed; optional ones fall back to their default. */
static void test_unresolved_settings(void **state)
{
    (void)state;
    anim_asset *a = load_fixture("bevy-animation-names.gltf");
    anim_config *cfg = bevy(3, R2_SETTINGS, NULL);
    cfg->engine.settings_resolved_count = 0;
    anim_lint_file file;
    const anim_check_record *rec = lint_one(a, cfg, "engine-unit-scale", &file);
    assert_int_equal(rec->facet_count, 2);
    test_support_expect_state(rec, true, ANIM_EVAL_NOT_EVALUATED, 0, 0, 0);
    expect_unavailable(&rec->facets[0], "unit_mapping", NULL, "setting_unresolved");
    expect_setting(&rec->facets[0], "rotate_meshes", false, "profile_default");
    expect_unavailable(&rec->facets[1], "scene_entity", "Scene0", "setting_unresolved");
    anim_lint_file_free(&file);
    rec = lint_one(a, cfg, "engine-track-support", &file);
    assert_int_equal(rec->facet_count, 1);
    expect_unavailable(&rec->facets[0], "animation_gate", NULL, "setting_unresolved");
    expect_setting(&rec->facets[0], "load_animations", true, "profile_default");
    anim_lint_file_free(&file);
    anim_config_free(cfg);
    anim_asset_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inventory_rows),
        cmocka_unit_test(test_inventory_incomplete_rows),
        cmocka_unit_test(test_inventory_overflow),
        cmocka_unit_test(test_addressability_labels),
        cmocka_unit_test(test_addressability_applicability),
        cmocka_unit_test(test_addressability_empty),
        cmocka_unit_test(test_addressability_partial),
        cmocka_unit_test(test_unit_scale_defaults),
        cmocka_unit_test(test_unit_scale_selectors),
        cmocka_unit_test(test_unit_scale_selectors_non_uniform),
        cmocka_unit_test(test_unit_scale_empty_meshes),
        cmocka_unit_test(test_unit_scale_interplay),
        cmocka_unit_test(test_unit_scale_applicability),
        cmocka_unit_test(test_track_support_runtime_survival),
        cmocka_unit_test(test_track_support_gates),
        cmocka_unit_test(test_track_support_inventory),
        cmocka_unit_test(test_track_support_budget),
        cmocka_unit_test(test_track_support_applicability),
        cmocka_unit_test(test_unresolved_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
