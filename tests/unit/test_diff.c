/* diff: measurement-record validation, report envelopes, the comparison
 * (floors, circular metrics, availability, rows, bone sets) and both
 * renderers. Measurement trees are written by hand so every rule is
 * pinned independently of the measurement code; one test measures a real
 * example asset to prove the writer and the validator agree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/diff.h"
#include "animsmith/gltf.h"
#include "animsmith/measure.h"
#include "animsmith/report.h"
#include "animsmith/rig.h"

#define ASSET_TAIL                                                                            \
    "\"mesh_definitions\":[],\"node_instances\":[],\"scenes\":[{\"scene_index\":0,"          \
    "\"instance_count\":0,\"excluded_instance_count\":0}],\"default_scene_index\":0,"        \
    "\"skeleton_source_coverage\":\"complete\",\"skeleton_nodes\":[],\"skins\":[],"          \
    "\"material_resource_coverage\":\"complete\",\"material_definitions\":[],\"textures\":[]," \
    "\"images\":[]"

/* Knobs of the hand-written "walk" clip. */
typedef struct clip_params {
    double duration, pos1, rot_range, phase, speed, net, unwrapped, travel, tx;
    int frames;
    const char *row1_avail;  /* "measured" / "unavailable" */
    const char *speed_avail; /* "measured" / "unavailable" */
    const char *foot_name;   /* display name of bone 1 */
    const char *axis;
    const char *role;
    bool scale_channel;      /* bone 1 also has a scale channel */
} clip_params;

static clip_params base(void)
{
    clip_params p = {1.0, 0.1581, 22.9183, 0.75, 0.0, 10.0, 10.0, 10.0, 0.0, 33,
                     "measured", "measured", "foot_l", "positive_z", "hips_fallback", false};
    return p;
}

static void clip_json(char *buf, size_t cap, const char *name, const clip_params *p)
{
    char row1[512];
    if (!strcmp(p->row1_avail, "measured"))
        snprintf(row1, sizeof row1,
                 "{\"bone_index\":1,\"bone_name\":\"%s\",\"availability\":\"measured\","
                 "\"position_delta_m\":%.15g,\"rotation_delta_deg\":0.0,"
                 "\"seam_velocity_delta_mps\":0.5,\"seam_angular_velocity_delta_degps\":0.0}",
                 p->foot_name, p->pos1);
    else
        snprintf(row1, sizeof row1,
                 "{\"bone_index\":1,\"bone_name\":\"%s\",\"availability\":\"unavailable\"}",
                 p->foot_name);
    char speed[128];
    if (!strcmp(p->speed_avail, "measured"))
        snprintf(speed, sizeof speed, "\"speed_mps\":%.15g,\"speed_mps_availability\":\"measured\"",
                 p->speed);
    else
        snprintf(speed, sizeof speed, "\"speed_mps_availability\":\"%s\"", p->speed_avail);
    snprintf(
        buf, cap,
        "\"%s\":{\"duration_s\":%.15g,\"frame_count\":%d,\"animated_bones\":[\"%s\"],"
        "\"bone_channels\":[{\"bone_index\":1,\"bone_name\":\"%s\",\"properties\":"
        "[\"rotation\"%s]}],"
        "\"bone_rotation_range_deg\":{\"%s\":%.15g},"
        "\"loop_continuity\":{\"bones\":[{\"bone_index\":0,\"bone_name\":\"pelvis\","
        "\"availability\":\"measured\",\"position_delta_m\":0.0,\"rotation_delta_deg\":0.0,"
        "\"seam_velocity_delta_mps\":0.0,\"seam_angular_velocity_delta_degps\":0.0},%s]},"
        "\"loop_continuity_availability\":\"measured\","
        "\"loop_endpoint_mode_availability\":\"not_applicable\","
        "\"frame_grid_availability\":\"not_applicable\","
        "\"loop_seam_ratio\":6.8152,\"loop_seam_ratio_availability\":\"measured\","
        "\"gait\":{\"phase\":%.15g,\"phase_availability\":\"measured\",\"lr_amplitude_m\":0.2},"
        "\"gait_availability\":\"measured\","
        "\"root_trajectory\":{\"bone_index\":0,\"bone_name\":\"pelvis\",\"source_role\":\"%s\","
        "\"translation\":{\"horizontal_displacement_x_m\":%.15g,\"horizontal_displacement_z_m\":0.0,"
        "\"horizontal_travel_m\":%.15g,\"vertical_displacement_m\":0.0,"
        "\"vertical_min_displacement_m\":0.0,\"vertical_max_displacement_m\":0.0},"
        "\"translation_availability\":\"measured\","
        "\"yaw\":{\"heading_axis\":\"%s\",\"net_yaw_deg\":%.15g,\"unwrapped_yaw_deg\":%.15g,"
        "\"yaw_travel_deg\":%.15g},\"yaw_availability\":\"measured\"},"
        "\"root_trajectory_availability\":\"measured\",%s}",
        name, p->duration, p->frames, p->foot_name, p->foot_name,
        p->scale_channel ? ",\"scale\"" : "", p->foot_name, p->rot_range, row1, p->phase, p->role,
        p->tx, p->tx < 0 ? -p->tx : p->tx, p->axis, p->net, p->unwrapped, p->travel, speed);
}

static char *measurements_text(const char *clips)
{
    size_t cap = strlen(clips) + 1024;
    char *s = malloc(cap);
    snprintf(s, cap,
             "{\"schema_version\":18,\"schema\":\"urn:animsmith:schema:measurements:18\","
             "\"clips\":{%s}," ASSET_TAIL "}",
             clips);
    return s;
}

/* Parses and validates; the text is kept in the arena. */
static const anim_json_value *tree_of(anim_arena *arena, const char *text, anim_error *err)
{
    char *copy = anim_arena_strdup(arena, text);
    const anim_json_value *v = anim_json_parse(arena, copy, strlen(copy), NULL, err);
    if (!v)
        return NULL;
    return anim_diff_validate_measurements(v, ANIM_MEASUREMENTS_SCHEMA_VERSION, err) ? NULL : v;
}

static const anim_json_value *walk_tree(anim_arena *arena, const clip_params *p)
{
    char clip[8192];
    clip_json(clip, sizeof clip, "walk", p);
    char *text = measurements_text(clip);
    anim_error err;
    anim_error_clear(&err);
    const anim_json_value *v = tree_of(arena, text, &err);
    if (!v)
        fail_msg("measurements rejected: %s", err.message);
    free(text);
    return v;
}

static anim_diff_result diff_of(anim_arena *arena, const clip_params *b, const clip_params *a)
{
    anim_diff_result r;
    anim_error err;
    assert_int_equal(anim_diff_compare(walk_tree(arena, b), walk_tree(arena, a), arena, &r, &err),
                     0);
    return r;
}

static char *text_of(const anim_diff_result *r)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_render_diff_text(r, &sb);
    assert_false(sb.failed);
    return sb.data;
}

static void assert_text(const anim_diff_result *r, const char *expected)
{
    char *t = text_of(r);
    assert_string_equal(t, expected);
    free(t);
}

/* ---- comparison ---- */

static void test_identical_is_quiet(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    clip_params p = base();
    anim_diff_result r = diff_of(arena, &p, &p);
    assert_int_equal(r.count, 0);
    assert_text(&r, "no significant movement\n0 significant change(s)\n");
    anim_arena_free(arena);
}

static void test_below_floors_is_quiet(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    clip_params b = base(), a = base();
    a.duration += 0.016;
    a.pos1 += 0.0009;
    a.rot_range += 0.99;
    a.phase += 0.04;
    a.speed += 0.09;
    a.tx = 0.0009;
    a.net += 0.05;
    a.unwrapped += 0.05;
    a.travel += 0.05;
    anim_diff_result r = diff_of(arena, &b, &a);
    char *t = text_of(&r);
    assert_int_equal(r.count, 0);
    free(t);
    anim_arena_free(arena);
}

static void test_moves_in_spec_order(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    clip_params b = base(), a = base();
    a.duration = 0.5;
    a.frames = 17;
    a.phase = 0.9;
    a.speed = 1.2;
    a.tx = 0.5;
    a.pos1 = 0.05;
    a.rot_range = 11.4591;
    anim_diff_result r = diff_of(arena, &b, &a);
    assert_text(&r, "  walk duration_s: moved 1.0000 -> 0.5000\n"
                    "  walk frame_count: moved 33.0000 -> 17.0000\n"
                    "  walk gait.phase: moved 0.7500 -> 0.9000\n"
                    "  walk speed_mps: moved 0.0000 -> 1.2000\n"
                    "  walk root_trajectory.translation.horizontal_displacement_x_m: moved "
                    "0.0000 -> 0.5000\n"
                    "  walk root_trajectory.translation.horizontal_travel_m: moved 0.0000 -> "
                    "0.5000\n"
                    "  walk loop_continuity.bones[1].position_delta_m: moved 0.1581 -> 0.0500\n"
                    "  walk bone_rotation_range_deg[foot_l]: moved 22.9183 -> 11.4591\n"
                    "8 significant change(s)\n");
    anim_arena_free(arena);
}

static void test_circular_metrics(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    clip_params b = base(), a = base();
    b.phase = 0.98;
    a.phase = 0.01; /* 0.03 apart around the cycle */
    b.net = 179.95;
    a.net = -179.99; /* 0.06 degrees apart around the circle */
    b.unwrapped = 179.95;
    a.unwrapped = 180.01;
    b.travel = a.travel = 200.0;
    anim_diff_result r = diff_of(arena, &b, &a);
    assert_int_equal(r.count, 0);

    /* Unwrapped yaw is ordinary: a full turn stays visible although the
     * net yaw is unchanged. */
    clip_params c = base(), d = base();
    c.net = d.net = 0.0;
    c.unwrapped = 0.0;
    d.unwrapped = 360.0;
    c.travel = 0.0;
    d.travel = 360.0;
    r = diff_of(arena, &c, &d);
    assert_text(&r, "  walk root_trajectory.yaw.unwrapped_yaw_deg: moved 0.0000 -> 360.0000\n"
                    "  walk root_trajectory.yaw.yaw_travel_deg: moved 0.0000 -> 360.0000\n"
                    "2 significant change(s)\n");
    anim_arena_free(arena);
}

static void test_availability_changes(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    clip_params b = base(), a = base();
    a.speed_avail = "unavailable";
    a.row1_avail = "unavailable";
    anim_diff_result r = diff_of(arena, &b, &a);
    assert_text(&r, "  walk speed_mps: disappeared 0.0000 -> (gone)\n"
                    "  walk loop_continuity.bones[1].availability: became unavailable\n"
                    "  walk speed_mps_availability: became unavailable\n"
                    "3 significant change(s)\n");
    r = diff_of(arena, &a, &b);
    assert_text(&r, "  walk speed_mps: appeared (none) -> 0.0000\n"
                    "  walk loop_continuity.bones[1].availability: became measured\n"
                    "  walk speed_mps_availability: became measured\n"
                    "3 significant change(s)\n");
    /* not_applicable <-> unavailable: both absent values, still a change. */
    clip_params c = base(), d = base();
    c.speed_avail = "not_applicable";
    d.speed_avail = "unavailable";
    r = diff_of(arena, &c, &d);
    assert_text(&r, "  walk speed_mps_availability: became unavailable\n"
                    "1 significant change(s)\n");
    r = diff_of(arena, &d, &c);
    assert_text(&r, "  walk speed_mps_availability: no longer applicable\n"
                    "1 significant change(s)\n");
    anim_arena_free(arena);
}

static void test_identity_changes(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    clip_params b = base(), a = base();
    a.role = "root";
    a.axis = "positive_x";
    anim_diff_result r = diff_of(arena, &b, &a);
    assert_text(&r, "  walk root_trajectory.selected_bone: changed from #0:\"pelvis\" "
                    "(hips_fallback) to #0:\"pelvis\" (root) 0.0000 -> 0.0000\n"
                    "  walk root_trajectory.yaw.heading_axis: changed from +Z to +X\n"
                    "2 significant change(s)\n");
    anim_arena_free(arena);
}

static void test_bone_sets(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    /* A display-name-only change is not lost/gained channel coverage, but
     * the name projection and the name-keyed rotation ranges do move. */
    clip_params b = base(), a = base();
    a.foot_name = "LeftFoot";
    anim_diff_result r = diff_of(arena, &b, &a);
    assert_text(&r, "  walk bone_rotation_range_deg[LeftFoot]: bone now animated (none) -> "
                    "22.9183\n"
                    "  walk bone_rotation_range_deg[foot_l]: bone no longer animated 22.9183 -> "
                    "(gone)\n"
                    "  walk animated_bones: gained [LeftFoot], lost [foot_l] 1.0000 -> 1.0000\n"
                    "3 significant change(s)\n");
    assert_int_equal(r.count, 3);
    assert_string_equal(r.deltas[2].metric, "animated_bones");
    assert_string_equal(r.deltas[2].note, "gained [LeftFoot], lost [foot_l]");

    clip_params c = base(), d = base();
    d.scale_channel = true;
    r = diff_of(arena, &c, &d);
    assert_text(&r, "  walk bone_channels: gained [#1:\"foot_l\".scale], lost [] 1.0000 -> "
                    "2.0000\n"
                    "1 significant change(s)\n");
    anim_arena_free(arena);
}

static void test_clips_added_and_removed(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    clip_params p = base();
    char c1[8192], c2[8192], both[16500];
    clip_json(c1, sizeof c1, "idle", &p);
    clip_json(c2, sizeof c2, "walk", &p);
    snprintf(both, sizeof both, "%s,%s", c2, c1);
    anim_error err;
    char *tb = measurements_text(both), *ta = measurements_text(c2);
    clip_json(c1, sizeof c1, "run", &p);
    snprintf(both, sizeof both, "%s,%s", c2, c1);
    char *tc = measurements_text(both);
    const anim_json_value *mb = tree_of(arena, tb, &err), *ma = tree_of(arena, tc, &err);
    assert_non_null(mb);
    assert_non_null(ma);
    anim_diff_result r;
    assert_int_equal(anim_diff_compare(mb, ma, arena, &r, &err), 0);
    assert_text(&r, "  idle clip: clip removed\n  run clip: clip added\n2 significant change(s)\n");
    (void)ta;
    free(tb);
    free(ta);
    free(tc);
    anim_arena_free(arena);
}

static void test_json_render(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    clip_params b = base(), a = base();
    a.speed = 1.2;
    a.row1_avail = "unavailable";
    anim_diff_result r = diff_of(arena, &b, &a);
    anim_tool_info tool = {"0.1.0", NULL, ANIM_SOURCE_DIRTY_UNKNOWN};
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_error err;
    assert_int_equal(anim_render_diff_json(&r, "old.glb", "new.glb", &tool, &sb, &err), 0);
    const char *expected =
        "{\n"
        "  \"schema_version\": 19,\n"
        "  \"schema\": \"urn:animsmith:schema:output:19\",\n"
        "  \"tool\": {\n"
        "    \"name\": \"animsmith\",\n"
        "    \"version\": \"0.1.0\",\n"
        "    \"source\": {\n"
        "      \"revision\": null,\n"
        "      \"dirty\": null\n"
        "    }\n"
        "  },\n"
        "  \"command\": \"diff\",\n"
        "  \"inputs\": {\n"
        "    \"before\": \"old.glb\",\n"
        "    \"after\": \"new.glb\"\n"
        "  },\n"
        "  \"summary\": {\n"
        "    \"deltas\": 2\n"
        "  },\n"
        "  \"deltas\": [\n"
        "    {\n"
        "      \"clip\": \"walk\",\n"
        "      \"metric\": \"speed_mps\",\n"
        "      \"before\": 0.0,\n"
        "      \"after\": 1.2,\n"
        "      \"note\": \"moved\"\n"
        "    },\n"
        "    {\n"
        "      \"clip\": \"walk\",\n"
        "      \"metric\": \"loop_continuity.bones[1].availability\",\n"
        "      \"note\": \"became unavailable\"\n"
        "    }\n"
        "  ]\n"
        "}\n";
    assert_string_equal(sb.data, expected);
    anim_strbuf_free(&sb);
    anim_arena_free(arena);
}

/* ---- validation ---- */

/* Applies one textual edit (first occurrence of from -> to) to the base
 * clip and expects validation to fail with a message containing want. */
static void expect_invalid(const char *from, const char *to, const char *want)
{
    anim_arena *arena = anim_arena_new();
    clip_params p = base();
    char clip[8192], edited[8192];
    clip_json(clip, sizeof clip, "walk", &p);
    const char *at = strstr(clip, from);
    if (!at)
        fail_msg("edit anchor %s not found", from);
    snprintf(edited, sizeof edited, "%.*s%s%s", (int)(at - clip), clip, to, at + strlen(from));
    char *text = measurements_text(edited);
    anim_error err;
    anim_error_clear(&err);
    const anim_json_value *v = tree_of(arena, text, &err);
    if (v)
        fail_msg("accepted after %s -> %s", from, to);
    if (!strstr(err.message, want))
        fail_msg("message '%s' lacks '%s'", err.message, want);
    free(text);
    anim_arena_free(arena);
}

static void test_validation(void **state)
{
    (void)state;
    expect_invalid("\"speed_mps\":0,", "\"speed_mps\":\"NaN\",",
                   "measurement value clips[\"walk\"].speed_mps must be finite");
    expect_invalid("\"duration_s\":1,", "\"duration_s\":\"x\",",
                   "measurement structure clips[\"walk\"].duration_s is invalid: expected a number");
    expect_invalid("\"speed_mps_availability\":\"measured\"",
                   "\"speed_mps_availability\":\"unavailable\"",
                   "clips[\"walk\"].speed_mps is invalid: present although");
    expect_invalid("\"loop_seam_ratio\":6.8152,", "",
                   "clips[\"walk\"].loop_seam_ratio is invalid: missing although");
    expect_invalid("\"bone_index\":1,\"bone_name\":\"foot_l\",\"availability\"",
                   "\"bone_index\":2,\"bone_name\":\"foot_l\",\"availability\"",
                   "clips[\"walk\"].loop_continuity.bones[1] is invalid: bone_index 2");
    expect_invalid("\"frame_count\":33", "\"frame_count\":33,\"extra\":1",
                   "clips[\"walk\"] is invalid: unknown field \"extra\"");
    expect_invalid("\"position_delta_m\":0.1581", "\"position_delta_m\":-0.1581",
                   "loop_continuity.bones[1].position_delta_m is invalid: must not be negative");
    expect_invalid("\"animated_bones\":[\"foot_l\"]", "\"animated_bones\":[\"foot_r\"]",
                   "animated_bones is invalid: must equal");
    expect_invalid("{\"foot_l\":22.9183", "{\"hand\":22.9183",
                   "bone_rotation_range_deg[\"hand\"] is invalid: bone is not in animated_bones");
    expect_invalid("\"heading_axis\":\"positive_z\"", "\"heading_axis\":\"up\"",
                   "heading_axis is invalid: unknown value \"up\"");
    expect_invalid("\"net_yaw_deg\":10,", "\"net_yaw_deg\":12,",
                   "net_yaw_deg does not match unwrapped_yaw_deg");
    expect_invalid("\"translation_availability\":\"measured\"",
                   "\"translation_availability\":\"not_applicable\"",
                   "translation_availability is invalid: not_applicable is not allowed here");
}

/* ---- historical measurement versions ---- */

/* s with every from replaced by to (malloc'd). */
static char *replace_all(const char *s, const char *from, const char *to)
{
    size_t nf = strlen(from), nt = strlen(to), count = 0;
    for (const char *at = strstr(s, from); at; at = strstr(at + nf, from))
        count++;
    char *out = malloc(strlen(s) + count * (nt > nf ? nt - nf : 0) + 1);
    char *w = out;
    for (const char *at; (at = strstr(s, from)); s = at + nf) {
        memcpy(w, s, (size_t)(at - s));
        w += at - s;
        memcpy(w, to, nt);
        w += nt;
    }
    strcpy(w, s);
    return out;
}

/* The measurements of p as the given version records them, with tail as
 * the static evidence: before v17 loop rows carry no status, and a clip
 * with an unavailable bone records the whole loop fact as unavailable. */
static char *measurements_at(int version, const clip_params *p, const char *tail)
{
    char clip[8192];
    clip_json(clip, sizeof clip, "walk", p);
    char *c = strdup(clip);
    if (version < 17) {
        const char *lo = strstr(c, "\"loop_continuity\":{");
        const char *hi = strstr(c, "\"loop_continuity_availability\":\"measured\",");
        if (!strcmp(p->row1_avail, "measured")) {
            char *t = replace_all(c, "\"availability\":\"measured\",", "");
            free(c);
            c = t;
        } else {
            char *t = malloc(strlen(c) + 64);
            sprintf(t, "%.*s\"loop_continuity_availability\":\"unavailable\",%s", (int)(lo - c),
                    c, hi + strlen("\"loop_continuity_availability\":\"measured\","));
            free(c);
            c = t;
        }
    }
    size_t cap = strlen(c) + strlen(tail) + 256;
    char *s = malloc(cap);
    snprintf(s, cap,
             "{\"schema_version\":%d,\"schema\":\"urn:animsmith:schema:measurements:%d\","
             "\"clips\":{%s},%s}",
             version, version, c, tail);
    free(c);
    return s;
}

/* Parses text and validates it as version; NULL with err set on refusal. */
static const anim_json_value *versioned_tree(anim_arena *arena, const char *text, int version,
                                             anim_error *err)
{
    char *copy = anim_arena_strdup(arena, text);
    const anim_json_value *v = anim_json_parse(arena, copy, strlen(copy), NULL, err);
    if (!v)
        return NULL;
    return anim_diff_validate_measurements(v, version, err) ? NULL : v;
}

static void expect_version(int version, const char *tail, const char *want)
{
    anim_arena *arena = anim_arena_new();
    clip_params p = base();
    char *text = measurements_at(version, &p, tail);
    anim_error err;
    anim_error_clear(&err);
    const anim_json_value *v = versioned_tree(arena, text, version, &err);
    if (!want && !v)
        fail_msg("v%d rejected: %s", version, err.message);
    if (want && v)
        fail_msg("v%d accepted, wanted '%s'", version, want);
    if (want && !strstr(err.message, want))
        fail_msg("message '%s' lacks '%s'", err.message, want);
    free(text);
    anim_arena_free(arena);
}

#define TAIL_WITH(meshes, nodes, images)                                                       \
    "\"mesh_definitions\":[" meshes "],\"node_instances\":[],\"scenes\":[],"                   \
    "\"skeleton_source_coverage\":\"complete\",\"skeleton_nodes\":[" nodes "],\"skins\":[],"   \
    "\"material_resource_coverage\":\"complete\",\"material_definitions\":[],\"textures\":[]," \
    "\"images\":[" images "]"
#define MESH_HEAD                                                                              \
    "{\"mesh_index\":0,\"vertex_count\":3,\"max_joints_per_vertex\":0,"                        \
    "\"additional_influence_sets\":[]"
#define PRIMS                                                                                  \
    ",\"primitives\":[{\"primitive_index\":0,\"material_index\":null,\"vertex_count\":3,"      \
    "\"finite_vertex_count\":3,\"geometry_aabb\":{\"min\":[0,0,0],\"max\":[1,1,0]},"           \
    "\"geometry_centroid\":[0.3,0.3,0]}]"
#define NODE_HEAD                                                                              \
    "{\"node_index\":0,\"name\":\"pelvis\",\"scene_root_indices\":[],\"local_rest\":"          \
    "{\"kind\":\"trs\"},\"rest_world_linear\":{\"classification\":\"unit_orthonormal\","       \
    "\"axis_lengths\":[1,1,1],\"determinant\":1,\"orientation\":\"positive\","                 \
    "\"uniform_scale\":1"
#define ROTATION ",\"rotation_xyzw\":[0,0,0,1]"
#define IMAGE_HEAD "{\"image_index\":0,\"source_kind\":\"embedded\""
#define MAGIC ",\"unavailable_reason\":\"unsupported_container\",\"leading_magic_hex\":\"47494638\""

static void test_historical_validation(void **state)
{
    (void)state;
    /* Each version's own shape is accepted... */
    expect_version(15, TAIL_WITH(MESH_HEAD "}", NODE_HEAD "}}", IMAGE_HEAD "}"), NULL);
    expect_version(16, TAIL_WITH(MESH_HEAD PRIMS "}", NODE_HEAD "}}", IMAGE_HEAD MAGIC "}"), NULL);
    expect_version(18, TAIL_WITH(MESH_HEAD PRIMS "}", NODE_HEAD ROTATION "}}",
                                 IMAGE_HEAD MAGIC "}"),
                   NULL);
    /* ...a later version's field in an earlier record is refused... */
    expect_version(15, TAIL_WITH(MESH_HEAD PRIMS "}", "", ""),
                   "mesh_definitions[0] is invalid: unknown field \"primitives\" (first carried "
                   "by measurements-v16)");
    expect_version(15, TAIL_WITH("", "", IMAGE_HEAD MAGIC "}"),
                   "images[0] is invalid: unknown field \"leading_magic_hex\"");
    expect_version(16, TAIL_WITH("", NODE_HEAD ROTATION "}}", ""),
                   "skeleton_nodes[0].rest_world_linear is invalid: unknown field "
                   "\"rotation_xyzw\" (first carried by measurements-v18)");
    /* ...and so is a record missing what its version requires. */
    expect_version(16, TAIL_WITH(MESH_HEAD "}", "", ""),
                   "mesh_definitions[0].primitives is invalid: missing");
    expect_version(18, TAIL_WITH("", NODE_HEAD "}}", ""),
                   "rotation_xyzw is required for a unit_orthonormal classification");
    /* Mesh and image evidence is checked in full. */
    expect_version(16,
                   TAIL_WITH(MESH_HEAD ",\"primitives\":[{\"primitive_index\":0,"
                                       "\"material_index\":null,\"vertex_count\":3,"
                                       "\"finite_vertex_count\":4}]}",
                             "", ""),
                   "finite_vertex_count exceeds vertex_count");
    expect_version(16,
                   TAIL_WITH(MESH_HEAD ",\"primitives\":[{\"primitive_index\":0,"
                                       "\"material_index\":null,\"vertex_count\":3,"
                                       "\"finite_vertex_count\":0,\"geometry_centroid\":[0,0,0]}]}",
                             "", ""),
                   "present exactly when finite_vertex_count is positive");
    expect_version(16,
                   TAIL_WITH("", "",
                             IMAGE_HEAD ",\"unavailable_reason\":\"decode_failed\","
                                        "\"leading_magic_hex\":\"4749463G\"}"),
                   "leading_magic_hex is invalid: expected 1 to 16 bytes of lowercase hex");

    /* Loop rows: no per-row status before v17, so all four numbers. */
    anim_arena *arena = anim_arena_new();
    anim_error err;
    clip_params p = base();
    char *v18 = measurements_at(18, &p, ASSET_TAIL);
    char *relabelled = replace_all(v18, "measurements:18\"", "measurements:16\"");
    char *v16 = replace_all(relabelled, "\"schema_version\":18", "\"schema_version\":16");
    assert_null(versioned_tree(arena, v16, 16, &err));
    assert_non_null(strstr(err.message, "loop_continuity.bones[0] is invalid: unknown field "
                                        "\"availability\" (first carried by measurements-v17)"));
    char *rows = measurements_at(16, &p, ASSET_TAIL);
    char *short_row = replace_all(rows, "\"seam_velocity_delta_mps\":0.5,", "");
    assert_null(versioned_tree(arena, short_row, 16, &err));
    assert_non_null(strstr(err.message, "loop_continuity.bones[1].seam_velocity_delta_mps is "
                                        "invalid: missing"));
    /* A record is validated as the version its report pairs with. */
    assert_null(versioned_tree(arena, rows, 18, &err));
    assert_non_null(strstr(err.message, "expected measurements-v18"));
    free(v18);
    free(relabelled);
    free(v16);
    free(rows);
    free(short_row);
    anim_arena_free(arena);
}

static anim_diff_result cross_diff(anim_arena *arena, int vb, const clip_params *b, int va,
                                   const clip_params *a)
{
    anim_error err;
    char *tb = measurements_at(vb, b, ASSET_TAIL), *ta = measurements_at(va, a, ASSET_TAIL);
    const anim_json_value *mb = versioned_tree(arena, tb, vb, &err);
    if (!mb)
        fail_msg("before rejected: %s", err.message);
    const anim_json_value *ma = versioned_tree(arena, ta, va, &err);
    if (!ma)
        fail_msg("after rejected: %s", err.message);
    anim_diff_result r;
    assert_int_equal(anim_diff_compare(mb, ma, arena, &r, &err), 0);
    free(tb);
    free(ta);
    return r;
}

static void test_cross_version_compare(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    clip_params b = base(), a = base();
    /* The same clip in two versions: nothing moved. */
    anim_diff_result r = cross_diff(arena, 16, &b, 18, &a);
    assert_text(&r, "no significant movement\n0 significant change(s)\n");
    r = cross_diff(arena, 18, &b, 15, &a);
    assert_text(&r, "no significant movement\n0 significant change(s)\n");
    /* Rows compare when both sides have them. */
    a.pos1 = 0.2;
    r = cross_diff(arena, 16, &b, 18, &a);
    assert_text(&r, "  walk loop_continuity.bones[1].position_delta_m: moved 0.1581 -> 0.2000\n"
                    "1 significant change(s)\n");
    /* An unavailable bone: v16 records the whole fact unavailable, which
     * is what the v18 table reads as in the v16 view -- no spurious
     * availability change for the same clip... */
    clip_params u = base();
    u.row1_avail = "unavailable";
    r = cross_diff(arena, 16, &u, 18, &u);
    assert_text(&r, "no significant movement\n0 significant change(s)\n");
    r = cross_diff(arena, 18, &u, 16, &u);
    assert_text(&r, "no significant movement\n0 significant change(s)\n");
    /* ...while a bone that stopped being measurable is a change v16 can
     * express, as the fact becoming unavailable. */
    r = cross_diff(arena, 16, &b, 18, &u);
    assert_text(&r, "  walk loop_continuity_availability: became unavailable\n"
                    "1 significant change(s)\n");
    /* Between two current records the row itself says so. */
    r = cross_diff(arena, 18, &b, 18, &u);
    assert_text(&r, "  walk loop_continuity.bones[1].availability: became unavailable\n"
                    "1 significant change(s)\n");
    anim_arena_free(arena);
}

/* ---- report envelopes ---- */

static char *report_text(int output_version, const char *command, int files, int mversion)
{
    clip_params p = base();
    char *mm = measurements_at(mversion, &p, ASSET_TAIL);
    size_t cap = (strlen(mm) + 256) * 3;
    char *s = malloc(cap);
    int n = snprintf(s, cap,
                     "{\"schema_version\":%d,\"schema\":\"urn:animsmith:schema:output:%d\","
                     "\"tool\":{\"name\":\"animsmith\",\"version\":\"0.1.0\",\"source\":"
                     "{\"revision\":null,\"dirty\":null}},\"command\":\"%s\","
                     "\"summary\":{\"files\":%d},\"files\":[",
                     output_version, output_version, command, files);
    for (int f = 0; f < files; f++)
        n += snprintf(s + n, cap - (size_t)n,
                      "%s{\"path\":\"a.glb\",\"input\":{\"sha256\":\"00\",\"bytes\":1},"
                      "\"rig\":{\"profile\":\"ue-mannequin\",\"resolution_outcome\":"
                      "\"coverage\",\"resolved_roles\":{\"hips\":\"pelvis\"},"
                      "\"resolved_role_policies\":{\"hips\":\"exact\"}},"
                      "\"measurements\":%s}",
                      f ? "," : "", mm);
    snprintf(s + n, cap - (size_t)n, "]}");
    free(mm);
    return s;
}

static const anim_json_value *read_report(anim_arena *arena, const char *text, anim_error *err)
{
    char *copy = anim_arena_strdup(arena, text);
    return anim_diff_read_report("r.json", copy, strlen(copy), arena, err);
}

static void test_reports(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    anim_error err;
    char *ok = report_text(19, "lint", 1, 18);
    const anim_json_value *m = read_report(arena, ok, &err);
    if (!m)
        fail_msg("%s", err.message);
    anim_diff_result r;
    clip_params p = base();
    assert_int_equal(anim_diff_compare(m, walk_tree(arena, &p), arena, &r, &err), 0);
    assert_int_equal(r.count, 0);
    free(ok);

    char *two = report_text(19, "measure", 2, 18);
    assert_null(read_report(arena, two, &err));
    assert_string_equal(err.message, "r.json contains 2 file records; diff expects a "
                                     "single-file measurement report");
    free(two);

    char *old = report_text(10, "measure", 1, 15);
    assert_null(read_report(arena, old, &err));
    assert_non_null(strstr(err.message, "r.json: unsupported report contract output-v10"));
    assert_non_null(strstr(err.message, "regenerate a current output-v19 report from the "
                                        "original asset with animsmith measure --format json"));
    free(old);

    char *mismatched = report_text(19, "measure", 1, 16);
    assert_null(read_report(arena, mismatched, &err));
    assert_non_null(strstr(err.message, "output-v19 report carries measurements-v16"));
    free(mismatched);

    char *wrong_cmd = report_text(19, "fix", 1, 18);
    assert_null(read_report(arena, wrong_cmd, &err));
    assert_non_null(strstr(err.message, "diff expects a measure or lint report"));
    free(wrong_cmd);

    assert_null(read_report(arena, "{\"schema_version\":19", &err));
    assert_non_null(strstr(err.message, "r.json: "));
    assert_null(read_report(arena, "[1]", &err));
    assert_non_null(strstr(err.message, "not an animsmith measure/lint report"));
    anim_arena_free(arena);
}

static void expect_report(const char *text, const char *want)
{
    anim_arena *arena = anim_arena_new();
    anim_error err;
    anim_error_clear(&err);
    const anim_json_value *m = read_report(arena, text, &err);
    if (!want && !m)
        fail_msg("rejected: %s", err.message);
    if (want && m)
        fail_msg("accepted, wanted '%s'", want);
    if (want && !strstr(err.message, want))
        fail_msg("message '%s' lacks '%s'", err.message, want);
    anim_arena_free(arena);
}

static void test_historical_reports(void **state)
{
    (void)state;
    static const struct {
        int output, measurements;
    } READ[] = {{19, 18}, {17, 16}, {16, 16}, {15, 16}, {14, 16}, {13, 16}, {12, 15}, {11, 15}};
    for (size_t i = 0; i < sizeof READ / sizeof *READ; i++) {
        assert_int_equal(anim_diff_paired_measurements(READ[i].output), READ[i].measurements);
        char *ok = report_text(READ[i].output, i % 2 ? "lint" : "measure", 1,
                               READ[i].measurements);
        expect_report(ok, NULL);
        free(ok);
    }
    assert_int_equal(anim_diff_paired_measurements(18), 0);
    assert_int_equal(anim_diff_paired_measurements(10), 0);
    assert_int_equal(anim_diff_paired_measurements(20), 0);

    /* output-v18 is not among the contracts diff reads. */
    char *v18 = report_text(18, "measure", 1, 17);
    expect_report(v18, "r.json: unsupported report contract output-v18 (diff reads output-v19 "
                       "measure/lint reports with measurements-v18, output-v13 to output-v17 "
                       "with measurements-v16 and output-v11/v12 with measurements-v15); "
                       "regenerate a current output-v19 report");
    free(v18);
    /* The pairing is fixed per contract; the refusal names where the
     * record belongs. */
    char *v12 = report_text(12, "measure", 1, 16);
    expect_report(v12, "r.json: output-v12 report carries measurements-v16 (the record of "
                       "output-v13 to output-v17 reports); output-v12 pairs only with "
                       "measurements-v15");
    free(v12);
    char *v17 = report_text(17, "measure", 1, 18);
    expect_report(v17, "output-v17 report carries measurements-v18 (the record of output-v19 "
                       "reports)");
    free(v17);
    /* The schema URN must be the version's own. */
    char *v16 = report_text(16, "measure", 1, 16);
    char *urn = replace_all(v16, "output:16", "output:19");
    expect_report(urn, "schema does not match schema_version 16 (expected "
                       "\"urn:animsmith:schema:output:16\")");
    /* Every contract read carries output-v11's role provenance. */
    char *no_policies = replace_all(v16, ",\"resolved_role_policies\":{\"hips\":\"exact\"}", "");
    expect_report(no_policies, "files[0].rig.resolved_role_policies must be objects");
    char *other_roles = replace_all(v16, "{\"hips\":\"exact\"}", "{\"root\":\"exact\"}");
    expect_report(other_roles, "policy string for exactly the roles");
    char *outcome = replace_all(v16, "\"coverage\"", "\"guessed\"");
    expect_report(outcome, "files[0].rig.resolution_outcome must be one of");
    free(v16);
    free(urn);
    free(no_policies);
    free(other_roles);
    free(outcome);
}

/* ---- a real asset through the writer and back ---- */

static void test_asset_roundtrip(void **state)
{
    (void)state;
    const char *root = getenv("ANIMSMITH_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/assets/walk-dirty.glb", root ? root : ".");
    anim_error err;
    anim_error_clear(&err);
    anim_asset *asset = anim_asset_load(path, NULL, &err);
    if (!asset)
        fail_msg("cannot load %s: %s", path, err.message);
    anim_arena *arena = anim_arena_new();
    anim_rig_config rc = {NULL, NULL}; /* auto-detect, no inline roles */
    anim_rig_resolution rig;
    anim_measurements m;
    assert_int_equal(anim_rig_resolve(&asset->doc, &rc, &rig, &err), 0);
    assert_int_equal(anim_measure_asset_document(asset, &rig, NULL, arena, &m, &err), 0);
    const anim_json_value *t1 = anim_diff_measurements_tree(&m, arena, &err);
    if (!t1)
        fail_msg("%s", err.message);
    const anim_json_value *t2 = anim_diff_measurements_tree(&m, arena, &err);
    assert_non_null(t2);
    anim_diff_result r;
    assert_int_equal(anim_diff_compare(t1, t2, arena, &r, &err), 0);
    assert_int_equal(r.count, 0);
    anim_arena_free(arena);
    anim_asset_free(asset);
}

/* ---- findings of two lint reports ---- */

/* A lint report root holding only what anim_diff_report_findings reads. */
static const anim_json_value *lint_root(anim_arena *arena, const char *command,
                                        const char *findings_json)
{
    char *text = anim_arena_printf(arena,
                                   "{\"command\":\"%s\",\"files\":[{\"checks\":["
                                   "{\"check_id\":\"quat-flip\",\"findings\":[%s]},"
                                   "{\"check_id\":\"nan\",\"findings\":[]}]}]}",
                                   command, findings_json);
    anim_error err;
    anim_error_clear(&err);
    const anim_json_value *root = anim_json_parse(arena, text, strlen(text), NULL, &err);
    assert_non_null(root);
    return root;
}

#define FLIP(sev, bone, t)                                                                    \
    "{\"check_id\":\"quat-flip\",\"severity\":\"" sev "\",\"clip\":\"walk\",\"bone\":\"" bone \
    "\",\"time_s\":" t ",\"message\":\"flips\"}"

static void test_findings_compare(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    anim_error err;
    anim_error_clear(&err);
    /* before: hips twice at 0.5, spine; after: hips once at 0.5, spine as
     * an error now, a new foot finding. The message is not identity. */
    const anim_json_value *rb = lint_root(arena, "lint",
                                          FLIP("warning", "hips", "0.5") ","
                                          FLIP("warning", "hips", "0.5") ","
                                          FLIP("warning", "spine", "0.25"));
    const anim_json_value *ra = lint_root(
        arena, "lint",
        "{\"check_id\":\"quat-flip\",\"severity\":\"warning\",\"clip\":\"walk\",\"bone\":"
        "\"hips\",\"time_s\":0.5,\"message\":\"reworded\"},"
        FLIP("error", "spine", "0.25") "," FLIP("warning", "foot", "1"));
    anim_diff_findings fb, fa;
    assert_int_equal(anim_diff_report_findings("b.json", rb, arena, &fb, &err), 0);
    assert_int_equal(anim_diff_report_findings("a.json", ra, arena, &fa, &err), 0);
    assert_int_equal(fb.source, ANIM_DIFF_SOURCE_LINT_REPORT);
    assert_int_equal(fb.count, 3);
    assert_int_equal(fa.count, 3);
    anim_diff_findings_result fr;
    assert_int_equal(anim_diff_compare_findings(&fb, &fa, arena, &fr, &err), 0);
    assert_true(fr.compared);
    assert_int_equal(fr.added, 2);
    assert_int_equal(fr.removed, 2);
    assert_int_equal(fr.before[ANIM_SEVERITY_WARNING], 3);
    assert_int_equal(fr.after[ANIM_SEVERITY_WARNING], 2);
    assert_int_equal(fr.after[ANIM_SEVERITY_ERROR], 1);

    anim_diff_result none = {NULL, 0};
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_render_diff_text_findings(&none, &fr, &sb);
    assert_false(sb.failed);
    assert_string_equal(
        sb.data,
        "no significant movement\n"
        "  finding added: warning[quat-flip] clip 'walk' bone 'foot' @1.000s: flips\n"
        "  finding removed: warning[quat-flip] clip 'walk' bone 'hips' @0.500s: flips\n"
        "  finding added: error[quat-flip] clip 'walk' bone 'spine' @0.250s: flips\n"
        "  finding removed: warning[quat-flip] clip 'walk' bone 'spine' @0.250s: flips\n"
        "0 significant change(s)\n"
        "findings: 2 removed, 2 added (errors 0 -> 1, warnings 3 -> 2, notes 0 -> 0)\n");

    /* Without a findings result the text is exactly the plain view. */
    anim_strbuf plain = ANIM_STRBUF_INIT, same = ANIM_STRBUF_INIT;
    anim_render_diff_text(&none, &plain);
    anim_render_diff_text_findings(&none, NULL, &same);
    assert_string_equal(plain.data, same.data);

    anim_strbuf js = ANIM_STRBUF_INIT;
    assert_int_equal(anim_render_diff_json_findings(&none, &fr, "b.json", "a.json", NULL, &js,
                                                    &err),
                     0);
    const anim_json_value *doc = anim_json_parse(arena, js.data, js.len, NULL, &err);
    assert_non_null(doc);
    const anim_json_value *sum = anim_json_get(anim_json_get(doc, "summary"), "findings");
    assert_int_equal(anim_json_integer(anim_json_get(sum, "added")), 2);
    assert_int_equal(anim_json_integer(anim_json_get(sum, "removed")), 2);
    const anim_json_value *f = anim_json_get(doc, "findings");
    const anim_json_value *changes = anim_json_get(f, "changes");
    assert_int_equal(anim_json_count(changes), 4);
    const anim_json_value *c0 = anim_json_item(changes, 0);
    assert_true(anim_json_string_eq(anim_json_get(c0, "change"), "added"));
    assert_true(anim_json_string_eq(anim_json_get(c0, "bone"), "foot"));
    assert_null(anim_json_get(c0, "node"));
    assert_int_equal(anim_json_integer(anim_json_get(anim_json_get(f, "before"), "warning")), 3);

    /* Identical sides: compared, nothing changed. */
    assert_int_equal(anim_diff_compare_findings(&fb, &fb, arena, &fr, &err), 0);
    assert_true(fr.compared);
    assert_int_equal(fr.count, 0);

    anim_strbuf_free(&sb);
    anim_strbuf_free(&plain);
    anim_strbuf_free(&same);
    anim_strbuf_free(&js);
    anim_arena_free(arena);
}

static void test_findings_sources(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    anim_error err;
    anim_error_clear(&err);
    anim_diff_findings lint, measure, asset;
    assert_int_equal(anim_diff_report_findings("l.json",
                                               lint_root(arena, "lint", FLIP("note", "hips", "0")),
                                               arena, &lint, &err),
                     0);
    assert_int_equal(anim_diff_report_findings("m.json", lint_root(arena, "measure", ""), arena,
                                               &measure, &err),
                     0);
    assert_int_equal(measure.source, ANIM_DIFF_SOURCE_MEASURE_REPORT);
    assert_int_equal(measure.count, 0);
    memset(&asset, 0, sizeof asset);
    /* A lint report against an asset or a measure report compares
     * nothing and the views say nothing about findings. */
    anim_diff_result none = {NULL, 0};
    anim_diff_findings_result fr;
    anim_strbuf a = ANIM_STRBUF_INIT, b = ANIM_STRBUF_INIT, sb = ANIM_STRBUF_INIT;
    assert_int_equal(anim_render_diff_json(&none, "x", "y", NULL, &b, &err), 0);
    anim_render_diff_text(&none, &sb);
    const anim_diff_findings *pairs[][2] = {
        {&lint, &asset}, {&measure, &lint}, {&measure, &asset}};
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(anim_diff_compare_findings(pairs[i][0], pairs[i][1], arena, &fr, &err),
                         0);
        assert_false(fr.compared);
        anim_strbuf_reset(&a);
        assert_int_equal(anim_render_diff_json_findings(&none, &fr, "x", "y", NULL, &a, &err), 0);
        assert_string_equal(a.data, b.data);
        anim_strbuf_reset(&a);
        anim_render_diff_text_findings(&none, &fr, &a);
        assert_string_equal(a.data, sb.data);
    }
    assert_null(strstr(b.data, "findings"));

    /* Malformed findings are refused naming the field. */
    static const char *const BAD[][2] = {
        {"{\"check_id\":\"quat-flip\",\"severity\":\"warn\",\"message\":\"m\"}",
         "l.json: report field files[0].checks[0].findings[0].severity must be error, warning "
         "or note"},
        {"{\"check_id\":\"nan\",\"severity\":\"note\",\"message\":\"m\"}",
         "l.json: report field files[0].checks[0].findings[0].check_id must repeat its check "
         "record's check_id"},
        {"{\"check_id\":\"quat-flip\",\"severity\":\"note\",\"bone\":3,\"message\":\"m\"}",
         "l.json: report field files[0].checks[0].findings[0].bone must be a string"},
        {"{\"check_id\":\"quat-flip\",\"severity\":\"note\",\"time_s\":\"0\",\"message\":\"m\"}",
         "l.json: report field files[0].checks[0].findings[0].time_s must be a number"},
        {"{\"check_id\":\"quat-flip\",\"severity\":\"note\"}",
         "l.json: report field files[0].checks[0].findings[0].message must be a string"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) {
        anim_error_clear(&err);
        assert_int_equal(anim_diff_report_findings("l.json", lint_root(arena, "lint", BAD[i][0]),
                                                   arena, &lint, &err),
                         -1);
        assert_string_equal(err.message, BAD[i][1]);
    }
    anim_strbuf_free(&sb);
    anim_strbuf_free(&a);
    anim_strbuf_free(&b);
    anim_arena_free(arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identical_is_quiet),
        cmocka_unit_test(test_below_floors_is_quiet),
        cmocka_unit_test(test_moves_in_spec_order),
        cmocka_unit_test(test_circular_metrics),
        cmocka_unit_test(test_availability_changes),
        cmocka_unit_test(test_identity_changes),
        cmocka_unit_test(test_bone_sets),
        cmocka_unit_test(test_clips_added_and_removed),
        cmocka_unit_test(test_json_render),
        cmocka_unit_test(test_validation),
        cmocka_unit_test(test_reports),
        cmocka_unit_test(test_historical_validation),
        cmocka_unit_test(test_cross_version_compare),
        cmocka_unit_test(test_historical_reports),
        cmocka_unit_test(test_asset_roundtrip),
        cmocka_unit_test(test_findings_compare),
        cmocka_unit_test(test_findings_sources),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
