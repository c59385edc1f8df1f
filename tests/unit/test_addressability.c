/* generate addressability (src/generate/addressability*.c) on documents
 * built in memory: the neutral inventory's rows and identity (the same
 * with and without a profile, independent of the path typed, sensitive to
 * the rows); the V2 raw domains (scenes, nodes, skins, attachments, path
 * candidates); the Bevy projection -- labels (no fabricated Scene0, no
 * DefaultScene), named-map winners (last write wins, skins in first
 * reference order), target ids at both pointer widths (expected values
 * from tests/tools/blake3_reference.py), the typed reasons for every
 * missing prerequisite, duplicate paths, multiple scene paths, the domain
 * truncation and the path and reference bounds; the revision-1 refusal of
 * a 4,097-animation file; FBX refused; and the escaping of the text and
 * Markdown views. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/addressability.h"
#include "generate/addressability.h"
#include "generate/bevy_target_id.h"
#include "support/test_support.h"

/* Two float times and two VEC3 translations. */
#define DATA_URI "data:application/octet-stream;base64,AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAA="
#define BUFFERS                                                                                 \
    "\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":32,\"uri\":\"" DATA_URI "\"}],"  \
    "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":8},"                        \
    "{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24}],"                                       \
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\","  \
    "\"min\":[0],\"max\":[1]},{\"bufferView\":1,\"componentType\":5126,\"count\":2,"           \
    "\"type\":\"VEC3\"}]"
#define SAMPLER "\"samplers\":[{\"input\":0,\"output\":1}]"
#define CHANNEL(n) "{\"sampler\":0,\"target\":{\"node\":" #n ",\"path\":\"translation\"}}"

/* Armature/Hips with an unnamed and an empty-named child, a skinned body in
 * scene 0 only, a skinned node outside every scene; two scenes both named
 * World (the default is scene 1); skins Rig, Rig, Spare (unreferenced);
 * two animations both named Walk. */
static const char RICH[] =
    "{" BUFFERS ","
    "\"nodes\":[{\"name\":\"Armature\",\"children\":[1]},{\"name\":\"Hips\",\"children\":[2,3]},"
    "{},{\"name\":\"\"},{\"name\":\"Body\",\"skin\":1},{\"name\":\"Loose\",\"skin\":0}],"
    "\"scenes\":[{\"name\":\"World\",\"nodes\":[0,4]},{\"name\":\"World\",\"nodes\":[0]}],"
    "\"scene\":1,"
    "\"skins\":[{\"name\":\"Rig\",\"joints\":[1,2]},{\"name\":\"Rig\",\"joints\":[1],"
    "\"skeleton\":0},{\"name\":\"Spare\",\"joints\":[3]}],"
    "\"animations\":[{\"name\":\"Walk\"," SAMPLER ",\"channels\":[" CHANNEL(2) "," CHANNEL(3) ","
    CHANNEL(1) "]},{\"name\":\"Walk\"," SAMPLER ",\"channels\":[" CHANNEL(5) "," CHANNEL(2) "]}]}";

/* Two siblings with the same name, both animated. */
static const char TWINS[] =
    "{" BUFFERS ","
    "\"nodes\":[{\"name\":\"Root\",\"children\":[1,2]},{\"name\":\"Arm\"},{\"name\":\"Arm\"}],"
    "\"scenes\":[{\"nodes\":[0]}],"
    "\"animations\":[{" SAMPLER ",\"channels\":[" CHANNEL(1) "," CHANNEL(2) "]}]}";

/* No scene at all, and a name a terminal or a table must not obey. */
static const char SCENELESS[] =
    "{" BUFFERS ",\"nodes\":[{\"name\":\"a\\u001b[31m|`b\"}],"
    "\"animations\":[{\"name\":\"x\\u001b[2Jy|z`\"," SAMPLER ",\"channels\":[" CHANNEL(0) "]}]}";

static const char BEVY1[] = "[engine]\nprofile = \"bevy\"\nprofile_revision = 1\n"
                            "engine_version = \"0.19.0\"\nimporter = \"gltf-asset-loader\"\n";
static const char BEVY3[] = "[engine]\nprofile = \"bevy\"\nprofile_revision = 3\n"
                            "engine_version = \"0.19.0\"\nimporter = \"gltf-asset-loader\"\n"
                            "[engine.settings]\nextension_handler_environment = \"bare_empty\"\n"
                            "bevy_animation_feature = true\n";

static anim_asset *load(const char *json, const char *path)
{
    return test_support_load_gltf(json, strlen(json), path);
}

typedef struct {
    anim_arena *arena;
    addr_inventory inv;
    addr_raw raw;
    addr_projection proj;
    addr_budget budget;
} built;

static addr_setting on(bool v)
{
    addr_setting s = {true, v, NULL, "explicit_config"};
    return s;
}

static addr_setting width(const char *w)
{
    addr_setting s = {w != NULL, false, w, w ? "explicit_config" : NULL};
    return s;
}

static addr_bevy_settings settings(bool feature, bool load_animations, const char *w)
{
    addr_bevy_settings s = {on(feature), on(load_animations), width(w)};
    return s;
}

static void build_all(const anim_asset *a, const addr_bevy_settings *s, built *b)
{
    memset(b, 0, sizeof *b);
    b->arena = anim_arena_new();
    assert_non_null(b->arena);
    anim_error err;
    anim_error_clear(&err);
    assert_int_equal(addr_inventory_build(a, b->arena, &b->inv, &err), 0);
    assert_int_equal(addr_raw_build(a, b->arena, &b->budget, &b->raw, &err), 0);
    assert_int_equal(
        addr_projection_build(&b->inv, &b->raw, s, b->arena, &b->budget, &b->proj, &err), 0);
}

static const addr_target *target(const built *b, uint32_t node)
{
    for (uint32_t i = 0; i < b->proj.target_count; i++)
        if (b->proj.targets[i].node == node)
            return &b->proj.targets[i];
    fail_msg("no target row for node %u", node);
    return NULL;
}

static bool has_reason(const addr_reasons *r, const char *code)
{
    for (uint32_t i = 0; i < r->count; i++)
        if (strcmp(r->codes[i], code) == 0)
            return true;
    return false;
}

static void expect_reasons(const addr_reasons *r, const char *const *codes, uint32_t n)
{
    assert_int_equal(r->count, n);
    for (uint32_t i = 0; i < n; i++)
        assert_string_equal(r->codes[i], codes[i]);
}

static char *render(const anim_asset *a, const anim_config *cfg, anim_addressability_format f,
                    bool *blocking)
{
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_error err;
    anim_error_clear(&err);
    anim_tool_info tool = {"0.0.0", NULL, ANIM_SOURCE_DIRTY_UNKNOWN};
    if (anim_addressability_render(a, cfg, &tool, f, &out, blocking, &err))
        fail_msg("render failed: %s", err.message);
    assert_false(out.failed);
    return out.data;
}

/* The value of the first "identity" key of a JSON document. */
static void identity_of(const char *json, char out[72])
{
    const char *p = strstr(json, "\"identity\": \"");
    assert_non_null(p);
    p += strlen("\"identity\": \"");
    memcpy(out, p, 71);
    out[71] = '\0';
    assert_memory_equal(out, "sha256:", 7);
}

static void test_inventory_rows(void **state)
{
    (void)state;
    anim_asset *a = load(RICH, "rich.gltf");
    anim_arena *arena = anim_arena_new();
    addr_inventory inv;
    anim_error err;
    assert_int_equal(addr_inventory_build(a, arena, &inv, &err), 0);
    assert_int_equal(inv.coverage, ADDR_COMPLETE);
    assert_null(inv.coverage_reason);
    assert_int_equal(inv.source_animation_count, 2);
    assert_int_equal(inv.animation_count, 2);
    /* Duplicate names stay distinct rows: the index is the authority. */
    assert_int_equal(inv.animations[1].index, 1);
    assert_int_equal(inv.animations[1].name.len, 4);
    assert_memory_equal(inv.animations[1].name.s, "Walk", 4);
    assert_int_equal(inv.animations[0].channel_count, 3);
    const addr_channel *ch = &inv.animations[0].channels[2];
    assert_int_equal(ch->index, 2);
    assert_int_equal(ch->sampler, 0);
    assert_int_equal(ch->node, 1);
    assert_memory_equal(ch->path.s, "translation", 11);
    assert_int_equal(ch->input_accessor, 0);
    assert_int_equal(ch->output_accessor, 1);
    assert_memory_equal(ch->interpolation.s, "LINEAR", 6); /* the glTF default */
    assert_int_equal(inv.closure.state, ADDR_COMPLETE);
    assert_int_equal(inv.closure.count, 1); /* a data URI is not a file */
    assert_string_equal(inv.closure.files[0].role, "primary");
    assert_int_equal(strlen(inv.identity), 71);
    anim_arena_free(arena);
    anim_asset_free(a);
}

static void test_identity_is_neutral(void **state)
{
    (void)state;
    anim_asset *a = load(RICH, "rich.gltf");
    anim_asset *b = load(RICH, "elsewhere/renamed.gltf");
    anim_config *r1 = test_support_config_text(BEVY1);
    anim_config *r3 = test_support_config_text(BEVY3);
    bool blocking = false;
    char id_none[72], id_path[72], id_r1[72], id_r3[72];
    char *doc = render(a, NULL, ANIM_ADDRESSABILITY_JSON, &blocking);
    identity_of(doc, id_none);
    assert_false(blocking); /* no adapter: neutral evidence never blocks */
    assert_non_null(strstr(doc, "\"bevy\": null"));
    free(doc);
    doc = render(b, NULL, ANIM_ADDRESSABILITY_JSON, &blocking);
    identity_of(doc, id_path);
    free(doc);
    doc = render(a, r1, ANIM_ADDRESSABILITY_JSON, &blocking);
    identity_of(doc, id_r1);
    assert_non_null(strstr(doc, ADDR_V1_SCHEMA));
    assert_non_null(strstr(doc, "\"evaluation\": {"));
    free(doc);
    doc = render(a, r3, ANIM_ADDRESSABILITY_JSON, &blocking);
    identity_of(doc, id_r3);
    assert_non_null(strstr(doc, ADDR_V2_SCHEMA));
    assert_non_null(strstr(doc, "\"animation_inventory\": {"));
    free(doc);
    assert_string_equal(id_none, id_path);
    assert_string_equal(id_none, id_r1);
    assert_string_equal(id_none, id_r3);
    /* Any neutral field moves it: here one channel's target node. */
    anim_asset *c = load(TWINS, "rich.gltf");
    char id_other[72];
    doc = render(c, NULL, ANIM_ADDRESSABILITY_JSON, &blocking);
    identity_of(doc, id_other);
    free(doc);
    assert_string_not_equal(id_none, id_other);
    anim_config_free(r1);
    anim_config_free(r3);
    anim_asset_free(a);
    anim_asset_free(b);
    anim_asset_free(c);
}

static void test_raw_domains(void **state)
{
    (void)state;
    anim_asset *a = load(RICH, "rich.gltf");
    addr_bevy_settings s = settings(true, true, "bits64");
    built b;
    build_all(a, &s, &b);
    const addr_raw *raw = &b.raw;
    assert_int_equal(raw->default_scene, 1);
    assert_int_equal(raw->scene_domain.state, ADDR_COMPLETE);
    assert_int_equal(raw->scene_domain.rows, 2);
    assert_int_equal(raw->scenes[0].root_count, 2);
    assert_int_equal(raw->scenes[0].roots[1], 4);
    assert_int_equal(raw->node_domain.rows, 6);
    assert_int_equal(raw->nodes[2].parent, 1);
    assert_null(raw->nodes[2].name.s);       /* unnamed */
    assert_non_null(raw->nodes[3].name.s);   /* authored "" */
    assert_int_equal(raw->nodes[3].name.len, 0);
    assert_int_equal(raw->nodes[1].child_count, 2);
    assert_int_equal(raw->nodes[1].children[1], 3);
    assert_int_equal(raw->nodes[4].skin, 1);
    assert_int_equal(raw->skin_domain.rows, 3);
    assert_int_equal(raw->skins[1].skeleton, 0); /* kept as authored */
    assert_int_equal(raw->skins[0].skeleton, ANIM_NONE);
    assert_int_equal(raw->attachment_domain.rows, 2);
    assert_int_equal(raw->attachments[0].node, 4);
    assert_int_equal(raw->attachments[0].skin, 1);
    /* Scene 0: 0, 0/1, 0/1/2, 0/1/3, 4; scene 1: the first four again. */
    assert_int_equal(raw->path_domain.state, ADDR_COMPLETE);
    assert_int_equal(raw->path_domain.rows, 9);
    assert_int_equal(raw->paths[3].node, 3);
    assert_int_equal(raw->paths[3].length, 3);
    assert_int_equal(raw->paths[3].nodes[1], 1);
    assert_int_equal(raw->paths[4].node, 4);
    assert_int_equal(raw->paths[8].scene, 1);
    anim_arena_free(b.arena);
    anim_asset_free(a);
}

static void test_labels_and_maps(void **state)
{
    (void)state;
    anim_asset *a = load(RICH, "rich.gltf");
    addr_bevy_settings s = settings(true, true, "bits64");
    built b;
    build_all(a, &s, &b);
    const addr_projection *p = &b.proj;
    assert_int_equal(p->label_coverage, ADDR_AVAILABLE);
    assert_int_equal(p->default_route, ADDR_AVAILABLE); /* a route to Scene1 */
    assert_int_equal(p->skin_count, 3);
    assert_int_equal(p->skins[0].skin_state, ADDR_AVAILABLE);
    assert_int_equal(p->skins[1].skin_state, ADDR_AVAILABLE);
    assert_int_equal(p->skins[2].skin_state, ADDR_ABSENT); /* never referenced */
    assert_true(p->skins[2].identity_fallback);
    /* Scene names: the later World wins. */
    assert_int_equal(p->scene_map.state, ADDR_AVAILABLE);
    assert_int_equal(p->scene_map.count, 1);
    assert_int_equal(p->scene_map.winners[0].index, 1);
    /* Animations: the later Walk wins. */
    assert_int_equal(p->animation_map.state, ADDR_AVAILABLE);
    assert_int_equal(p->animation_map.count, 1);
    assert_int_equal(p->animation_map.winners[0].index, 1);
    /* Skins in first-reference order: node 4 makes skin 1, node 5 skin 0,
     * so Rig ends as skin 0; Spare is never created. */
    assert_int_equal(p->skin_map.state, ADDR_AVAILABLE);
    assert_int_equal(p->skin_map.count, 1);
    assert_int_equal(p->skin_map.winners[0].index, 0);
    anim_arena_free(b.arena);
    /* Without the feature no animation map is predicted. */
    s = settings(false, true, "bits64");
    build_all(a, &s, &b);
    assert_int_equal(b.proj.animation_map.state, ADDR_REQUIRED_UNAVAILABLE);
    static const char *const feature[] = {"bevy_animation_disabled"};
    expect_reasons(&b.proj.animation_map.reasons, feature, 1);
    anim_arena_free(b.arena);
    anim_asset_free(a);

    /* No scene: no scene label, no route, and no fabricated Scene0. */
    anim_asset *c = load(SCENELESS, "x.gltf");
    s = settings(true, true, "bits64");
    build_all(c, &s, &b);
    assert_int_equal(b.raw.scene_domain.rows, 0);
    assert_int_equal(b.raw.scene_domain.state, ADDR_COMPLETE);
    assert_int_equal(b.proj.default_route, ADDR_ABSENT);
    bool blocking;
    anim_config *r3 = test_support_config_text(BEVY3);
    char *doc = render(c, r3, ANIM_ADDRESSABILITY_JSON, &blocking);
    assert_null(strstr(doc, "Scene0"));
    assert_null(strstr(doc, "DefaultScene"));
    free(doc);
    anim_config_free(r3);
    anim_arena_free(b.arena);
    anim_asset_free(c);
}

static void test_target_ids(void **state)
{
    (void)state;
    anim_asset *a = load(RICH, "rich.gltf");
    static const struct {
        const char *width;
        const char *hips, *unnamed, *empty;
    } widths[] = {
        {"bits64", "6dc1e1b0-b376-5759-90a0-0c61b051f1d5", "37703ebb-5848-5d33-bed9-d2ed935958f6",
         "7d1dfa60-2017-57a9-82b5-6a8707698c0d"},
        {"bits32", "596c7f84-f734-5dee-844d-083b187a0044", "1a213cf7-6856-5515-a518-cfd0f8ddff43",
         "bf06485a-b427-5f62-9717-6f244be95158"},
    };
    for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
        addr_bevy_settings s = settings(true, true, widths[w].width);
        built b;
        build_all(a, &s, &b);
        assert_int_equal(b.proj.target_count, 4);
        assert_int_equal(b.proj.target_coverage, ADDR_AVAILABLE);
        const addr_target *hips = target(&b, 1), *unnamed = target(&b, 2), *empty = target(&b, 3);
        assert_int_equal(hips->state, ADDR_AVAILABLE);
        assert_string_equal(hips->id, widths[w].hips);
        assert_int_equal(hips->segment_count, 2);
        assert_string_equal(unnamed->id, widths[w].unnamed);
        assert_memory_equal(unnamed->segments[2].s, "GltfNode2", 9);
        assert_string_equal(empty->id, widths[w].empty);
        assert_int_equal(empty->segments[2].len, 0); /* "" exactly, no fallback */
        /* Node 2 is animated by both clips: one row, two contributions. */
        assert_int_equal(unnamed->contrib_count, 2);
        assert_int_equal(unnamed->contrib[1].animation, 1);
        assert_int_equal(unnamed->contrib[1].channel, 1);
        /* Node 5 is in no scene. */
        const addr_target *loose = target(&b, 5);
        assert_int_equal(loose->state, ADDR_REQUIRED_UNAVAILABLE);
        static const char *const unreachable[] = {"unreachable_target"};
        expect_reasons(&loose->reasons, unreachable, 1);
        assert_true(addr_projection_blocking(&b.proj));
        anim_arena_free(b.arena);
    }
    anim_asset_free(a);
}

static void test_target_prerequisites(void **state)
{
    (void)state;
    anim_asset *a = load(RICH, "rich.gltf");
    built b;
    addr_bevy_settings s = settings(true, true, NULL);
    build_all(a, &s, &b);
    static const char *const width_only[] = {"missing_pointer_width"};
    expect_reasons(&target(&b, 1)->reasons, width_only, 1);
    anim_arena_free(b.arena);
    s = settings(false, false, "bits64");
    build_all(a, &s, &b);
    static const char *const gates[] = {"bevy_animation_disabled", "load_animations_disabled"};
    expect_reasons(&target(&b, 1)->reasons, gates, 2);
    assert_int_equal(target(&b, 1)->segment_count, 0);
    anim_arena_free(b.arena);
    s = settings(true, false, "bits64");
    build_all(a, &s, &b);
    static const char *const load_only[] = {"load_animations_disabled"};
    expect_reasons(&target(&b, 2)->reasons, load_only, 1);
    anim_arena_free(b.arena);
    /* A setting the profile did not resolve is missing evidence. */
    addr_bevy_settings unresolved;
    memset(&unresolved, 0, sizeof unresolved);
    build_all(a, &unresolved, &b);
    assert_true(has_reason(&target(&b, 1)->reasons, "evidence_incomplete"));
    assert_true(has_reason(&target(&b, 1)->reasons, "missing_pointer_width"));
    anim_arena_free(b.arena);
    anim_asset_free(a);
}

static void test_duplicate_and_multiple_paths(void **state)
{
    (void)state;
    anim_asset *a = load(TWINS, "twins.gltf");
    addr_bevy_settings s = settings(true, true, "bits64");
    built b;
    build_all(a, &s, &b);
    static const char *const dup[] = {"duplicate_path"};
    expect_reasons(&target(&b, 1)->reasons, dup, 1);
    expect_reasons(&target(&b, 2)->reasons, dup, 1);
    assert_int_equal(b.proj.target_coverage, ADDR_AVAILABLE); /* the domain is complete */
    anim_arena_free(b.arena);
    anim_asset_free(a);

    /* A second, different candidate sequence for a node (a scene listing an
     * inner node as a root, which the loader refuses but raw evidence may
     * hold): no path is chosen. */
    a = load(RICH, "rich.gltf");
    build_all(a, &s, &b);
    addr_raw raw = b.raw;
    addr_path *paths = anim_arena_calloc(b.arena, raw.path_domain.rows + 1, sizeof *paths);
    memcpy(paths, raw.paths, raw.path_domain.rows * sizeof *paths);
    static uint32_t inner[] = {1, 2};
    paths[raw.path_domain.rows] = (addr_path){1, 2, inner, 2};
    raw.paths = paths;
    raw.path_domain.rows++;
    raw.path_domain.source_rows++;
    addr_projection p;
    addr_budget budget = {0, 0};
    anim_error err;
    assert_int_equal(addr_projection_build(&b.inv, &raw, &s, b.arena, &budget, &p, &err), 0);
    for (uint32_t i = 0; i < p.target_count; i++)
        if (p.targets[i].node == 2) {
            static const char *const multiple[] = {"multiple_scene_paths"};
            expect_reasons(&p.targets[i].reasons, multiple, 1);
        } else if (p.targets[i].node == 1) {
            assert_int_equal(p.targets[i].state, ADDR_AVAILABLE);
        }
    anim_arena_free(b.arena);
    anim_asset_free(a);
}

/* count root nodes, each animated by one channel, spread over animations
 * of at most 2,000 channels. */
static char *many_targets(uint32_t count)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_strbuf_puts(&sb, "{" BUFFERS ",\"nodes\":[");
    for (uint32_t i = 0; i < count; i++)
        anim_strbuf_printf(&sb, "%s{\"name\":\"n%u\"}", i ? "," : "", i);
    anim_strbuf_puts(&sb, "],\"scenes\":[{\"nodes\":[");
    for (uint32_t i = 0; i < count; i++)
        anim_strbuf_printf(&sb, "%s%u", i ? "," : "", i);
    anim_strbuf_puts(&sb, "]}],\"animations\":[");
    for (uint32_t i = 0; i < count; i++) {
        if (i % 2000 == 0)
            anim_strbuf_printf(&sb, "%s{" SAMPLER ",\"channels\":[", i ? "]}," : "");
        else
            anim_strbuf_putc(&sb, ',');
        anim_strbuf_printf(&sb, "{\"sampler\":0,\"target\":{\"node\":%u,\"path\":\"translation\"}}",
                           i);
    }
    anim_strbuf_puts(&sb, "]}]}");
    assert_false(sb.failed);
    return sb.data;
}

static void test_target_domain_truncated(void **state)
{
    (void)state;
    char *json = many_targets(ADDR_V2_MAX_ROWS + 1);
    anim_asset *a = load(json, "many.gltf");
    addr_bevy_settings s = settings(true, true, "bits64");
    built b;
    build_all(a, &s, &b);
    assert_int_equal(b.raw.node_domain.state, ADDR_PARTIAL);
    assert_string_equal(b.raw.node_domain.reason, "row_limit_exceeded");
    assert_int_equal(b.raw.node_domain.rows, ADDR_V2_MAX_ROWS);
    assert_int_equal(b.raw.node_domain.source_rows, ADDR_V2_MAX_ROWS + 1);
    assert_int_equal(b.proj.target_count, ADDR_V2_MAX_ROWS);
    assert_int_equal(b.proj.target_coverage, ADDR_REQUIRED_UNAVAILABLE);
    assert_string_equal(b.proj.target_coverage_reason, "target_domain_truncated");
    static const char *const truncated[] = {"target_domain_truncated"};
    expect_reasons(&b.proj.targets[0].reasons, truncated, 1);
    anim_arena_free(b.arena);
    anim_asset_free(a);
    free(json);

    /* 4,096 targets exactly: complete. */
    json = many_targets(ADDR_V2_MAX_ROWS);
    a = load(json, "many.gltf");
    build_all(a, &s, &b);
    assert_int_equal(b.proj.target_coverage, ADDR_AVAILABLE);
    assert_int_equal(b.proj.targets[ADDR_V2_MAX_ROWS - 1].state, ADDR_AVAILABLE);
    anim_arena_free(b.arena);
    anim_asset_free(a);
    free(json);
}

/* A chain of depth nodes (c0 .. c{depth-1}); the last and node 1 animated. */
static char *chain(uint32_t depth)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_strbuf_puts(&sb, "{" BUFFERS ",\"nodes\":[");
    for (uint32_t i = 0; i < depth; i++) {
        anim_strbuf_printf(&sb, "%s{\"name\":\"c%u\"", i ? "," : "", i);
        if (i + 1 < depth)
            anim_strbuf_printf(&sb, ",\"children\":[%u]", i + 1);
        anim_strbuf_putc(&sb, '}');
    }
    anim_strbuf_printf(&sb, "],\"scenes\":[{\"nodes\":[0]}],\"animations\":[{" SAMPLER
                            ",\"channels\":[{\"sampler\":0,\"target\":{\"node\":%u,\"path\":"
                            "\"translation\"}}," CHANNEL(1) "]}]}",
                       depth - 1);
    assert_false(sb.failed);
    return sb.data;
}

static void test_path_and_reference_bounds(void **state)
{
    (void)state;
    addr_bevy_settings s = settings(true, true, "bits64");
    built b;
    /* 257 names: the deep target is past the path bound, and then no
     * other target can be shown collision-free. */
    char *json = chain((ANIM_BEVY_PATH_MAX_SEGMENTS + 1));
    anim_asset *a = load(json, "chain.gltf");
    build_all(a, &s, &b);
    assert_int_equal(b.raw.path_domain.state, ADDR_COMPLETE);
    static const char *const bounds[] = {"projection_bounds_exceeded"};
    expect_reasons(&target(&b, (ANIM_BEVY_PATH_MAX_SEGMENTS + 1) - 1)->reasons, bounds, 1);
    expect_reasons(&target(&b, 1)->reasons, bounds, 1);
    anim_arena_free(b.arena);
    anim_asset_free(a);
    free(json);
    /* 256 names fit. */
    json = chain((ANIM_BEVY_PATH_MAX_SEGMENTS + 1) - 1);
    a = load(json, "chain.gltf");
    build_all(a, &s, &b);
    assert_int_equal(target(&b, (ANIM_BEVY_PATH_MAX_SEGMENTS + 1) - 2)->state, ADDR_AVAILABLE);
    assert_int_equal(target(&b, 1)->state, ADDR_AVAILABLE);
    anim_arena_free(b.arena);
    anim_asset_free(a);
    free(json);
    /* 400 deep: the path candidates alone pass 65,536 references, so the
     * path domain is a prefix and no target path is published. */
    json = chain(400);
    a = load(json, "chain.gltf");
    build_all(a, &s, &b);
    assert_int_equal(b.raw.path_domain.state, ADDR_PARTIAL);
    assert_string_equal(b.raw.path_domain.reason, "projection_bounds_exceeded");
    assert_true(has_reason(&target(&b, 1)->reasons, "evidence_incomplete"));
    assert_int_equal(b.proj.target_coverage, ADDR_REQUIRED_UNAVAILABLE);
    assert_string_equal(b.proj.target_coverage_reason, "evidence_incomplete");
    assert_true(b.budget.refs <= ADDR_V2_MAX_REFS);
    anim_arena_free(b.arena);
    anim_asset_free(a);
    free(json);
}

/* count root nodes whose names are name_len bytes, node 0 animated. */
static char *long_names(uint32_t count, size_t name_len)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_strbuf_puts(&sb, "{" BUFFERS ",\"nodes\":[");
    for (uint32_t i = 0; i < count; i++) {
        anim_strbuf_printf(&sb, "%s{\"name\":\"%08u", i ? "," : "", i);
        for (size_t k = 8; k < name_len; k++)
            anim_strbuf_putc(&sb, 'n');
        anim_strbuf_puts(&sb, "\"}");
    }
    anim_strbuf_puts(&sb, "],\"scenes\":[{\"nodes\":[0]}],\"animations\":[{" SAMPLER
                          ",\"channels\":[" CHANNEL(0) "]}]}");
    assert_false(sb.failed);
    return sb.data;
}

static void test_name_and_text_bounds(void **state)
{
    (void)state;
    addr_bevy_settings s = settings(true, true, "bits64");
    built b;
    /* A 1,025-byte name ends the node domain before that row. */
    char *json = long_names(2, ADDR_V2_MAX_NAME + 1);
    anim_asset *a = load(json, "names.gltf");
    build_all(a, &s, &b);
    assert_int_equal(b.raw.node_domain.state, ADDR_PARTIAL);
    assert_string_equal(b.raw.node_domain.reason, "projection_bounds_exceeded");
    assert_int_equal(b.raw.node_domain.rows, 0);
    assert_true(has_reason(&target(&b, 0)->reasons, "evidence_incomplete"));
    anim_arena_free(b.arena);
    anim_asset_free(a);
    free(json);
    /* 1,024 bytes fit. */
    json = long_names(2, ADDR_V2_MAX_NAME);
    a = load(json, "names.gltf");
    build_all(a, &s, &b);
    assert_int_equal(b.raw.node_domain.state, ADDR_COMPLETE);
    assert_int_equal(target(&b, 0)->state, ADDR_AVAILABLE);
    anim_arena_free(b.arena);
    anim_asset_free(a);
    free(json);
    /* 1,100 names of 1,000 bytes pass 1 MiB of text: a prefix. */
    json = long_names(1100, 1000);
    a = load(json, "names.gltf");
    build_all(a, &s, &b);
    assert_int_equal(b.raw.node_domain.state, ADDR_PARTIAL);
    assert_string_equal(b.raw.node_domain.reason, "projection_bounds_exceeded");
    assert_int_equal(b.raw.node_domain.rows, ADDR_V2_MAX_TEXT / 1000);
    assert_true(b.budget.text <= ADDR_V2_MAX_TEXT);
    anim_arena_free(b.arena);
    anim_asset_free(a);
    free(json);
}

static char *many_animations(uint32_t count)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_strbuf_puts(&sb, "{" BUFFERS ",\"nodes\":[{\"name\":\"n\"}],\"animations\":[");
    for (uint32_t i = 0; i < count; i++)
        anim_strbuf_printf(&sb, "%s{" SAMPLER ",\"channels\":[" CHANNEL(0) "]}", i ? "," : "");
    anim_strbuf_puts(&sb, "]}");
    assert_false(sb.failed);
    return sb.data;
}

static void test_revision1_refuses_4097_animations(void **state)
{
    (void)state;
    char *json = many_animations(ADDR_BEVY_R1_MAX_ANIMATIONS + 1);
    anim_asset *a = load(json, "clips.gltf");
    anim_config *r1 = test_support_config_text(BEVY1);
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_error err;
    anim_error_clear(&err);
    bool blocking = false;
    assert_int_equal(anim_addressability_render(a, r1, NULL, ANIM_ADDRESSABILITY_JSON, &out,
                                                &blocking, &err),
                     -1);
    assert_non_null(strstr(err.message, "clips.gltf: 4097 animations"));
    anim_strbuf_free(&out);
    /* Without the profile the same file is neutral evidence: a partial
     * inventory, kept, and no exit 1. */
    char *doc = render(a, NULL, ANIM_ADDRESSABILITY_JSON, &blocking);
    assert_false(blocking);
    assert_non_null(strstr(doc, "\"coverage\": \"partial\""));
    assert_non_null(strstr(doc, "\"source_animation_count\": 4097"));
    free(doc);
    anim_config_free(r1);
    anim_asset_free(a);
    free(json);
}

/* Exit 1 follows the document: a required-unavailable facet or row. */
static void test_blocking(void **state)
{
    (void)state;
    anim_asset *a = load(RICH, "rich.gltf");
    anim_asset *walk = test_support_load_example("walk.glb");
    anim_config *r1 = test_support_config_text(BEVY1);
    anim_config *r3 = test_support_config_text(BEVY3);
    anim_config *r3w = test_support_config_text(
        "[engine]\nprofile = \"bevy\"\nprofile_revision = 3\nengine_version = \"0.19.0\"\n"
        "importer = \"gltf-asset-loader\"\n[engine.settings]\n"
        "extension_handler_environment = \"bare_empty\"\nbevy_animation_feature = true\n"
        "target_pointer_width = \"bits64\"\n");
    bool blocking = true;
    free(render(a, r1, ANIM_ADDRESSABILITY_JSON, &blocking));
    assert_false(blocking); /* three available Animation{i} facets */
    free(render(a, r3, ANIM_ADDRESSABILITY_TEXT, &blocking));
    assert_true(blocking); /* no pointer width: every target unavailable */
    free(render(walk, r3w, ANIM_ADDRESSABILITY_MARKDOWN, &blocking));
    assert_false(blocking); /* pelvis/foot_l and pelvis/foot_r */
    free(render(a, r3w, ANIM_ADDRESSABILITY_JSON, &blocking));
    assert_true(blocking); /* node 5 is in no scene */
    anim_config_free(r1);
    anim_config_free(r3);
    anim_config_free(r3w);
    anim_asset_free(walk);
    anim_asset_free(a);
}

static void test_fbx_refused(void **state)
{
    (void)state;
    anim_asset *a = test_support_load_example("mixamo-walk.fbx");
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_error err;
    anim_error_clear(&err);
    bool blocking = false;
    assert_int_equal(anim_addressability_render(a, NULL, NULL, ANIM_ADDRESSABILITY_JSON, &out,
                                                &blocking, &err),
                     -1);
    assert_non_null(strstr(err.message, "convert FBX first"));
    assert_int_equal(out.len, 0);
    anim_strbuf_free(&out);
    anim_asset_free(a);
}

static void test_views_escape(void **state)
{
    (void)state;
    anim_asset *a = load(SCENELESS, "x.gltf");
    bool blocking;
    char *text = render(a, NULL, ANIM_ADDRESSABILITY_TEXT, &blocking);
    assert_null(strchr(text, '\x1b'));
    assert_non_null(strstr(text, "\"x\\u{1b}[2Jy|z`\""));
    free(text);
    char *md = render(a, NULL, ANIM_ADDRESSABILITY_MARKDOWN, &blocking);
    assert_null(strchr(md, '\x1b'));
    assert_non_null(strstr(md, "`x\\u{1b}[2Jy\\|z'`"));
    free(md);
    /* The JSON keeps the authored bytes (escaped as JSON). */
    char *json = render(a, NULL, ANIM_ADDRESSABILITY_JSON, &blocking);
    assert_non_null(strstr(json, "\"name\": \"x\\u001b[2Jy|z`\""));
    free(json);
    anim_asset_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inventory_rows),
        cmocka_unit_test(test_identity_is_neutral),
        cmocka_unit_test(test_raw_domains),
        cmocka_unit_test(test_labels_and_maps),
        cmocka_unit_test(test_target_ids),
        cmocka_unit_test(test_target_prerequisites),
        cmocka_unit_test(test_duplicate_and_multiple_paths),
        cmocka_unit_test(test_target_domain_truncated),
        cmocka_unit_test(test_path_and_reference_bounds),
        cmocka_unit_test(test_name_and_text_bounds),
        cmocka_unit_test(test_revision1_refuses_4097_animations),
        cmocka_unit_test(test_blocking),
        cmocka_unit_test(test_fbx_refused),
        cmocka_unit_test(test_views_escape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
