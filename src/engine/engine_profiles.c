/* The frozen engine profile tuples and the facts each one records in its
 * prediction provenance. A fact is what the profile knows about the
 * importer from its documentation or pinned source (a basis, a unit, a
 * label spelling), never something observed by running the engine. The
 * table is closed: exact tuples only, no nearest version, no fallback. */
#include <string.h>

#include "engine/engine_internal.h"

#define TEXT(k, v) {k, ANIM_ENGINE_FACT_TEXT, v, 0, false}
#define INT(k, v) {k, ANIM_ENGINE_FACT_INT, NULL, v, false}
#define BOOL(k, v) {k, ANIM_ENGINE_FACT_BOOL, NULL, 0, v}

/* Unity 6000.3: one imported unit is one metre; the FBX Model Importer's
 * Animation tab decides per clip whether root rotation, height and XZ
 * position stay in the pose (bake) or become root motion (extract). */
#define UNITY_FACTS(rig)                                                          \
    TEXT("coordinate_system", "left_handed_y_up_z_forward"),                      \
        TEXT("world_length_unit", "metre"), INT("world_units_per_metre", 1),      \
        TEXT("importer_class", "ModelImporter"), TEXT("rig_type", rig),           \
        TEXT("clip_setting_bake", "baked_into_pose"),                             \
        TEXT("clip_setting_extract", "stored_as_root_motion")

static const anim_engine_fact unity_generic_1[] = {
    UNITY_FACTS("generic"),
};
static const anim_engine_fact unity_generic_2[] = {
    UNITY_FACTS("generic"),
    TEXT("frozen_animation_type", "generic"),
    TEXT("frozen_avatar_setup", "create_from_this_model"),
    BOOL("frozen_import_animation", true),
    TEXT("root_motion_source_grammar", "raw_transform_path_v1"),
    TEXT("root_motion_source_role", "root"),
    TEXT("root_role_fallback", "none"),
};
static const anim_engine_fact unity_humanoid_1[] = {
    UNITY_FACTS("humanoid"),
};

/* Unreal 5.8: left-handed, Z up, +X forward, centimetres; the importer
 * exposes unit and axis conversion (what they yield is not claimed). */
#define UNREAL_FACTS                                                              \
    TEXT("coordinate_system", "left_handed_z_up_x_forward"),                      \
        TEXT("world_length_unit", "centimetre"), INT("world_units_per_metre", 100), \
        BOOL("importer_exposes_unit_conversion", true),                           \
        BOOL("importer_exposes_axis_conversion", true),                           \
        TEXT("documented_fbx_version", "2020.2"),                                 \
        BOOL("animation_only_import_requires_skeleton", true),                    \
        TEXT("animation_end_frame", "whole_frame_required")

static const anim_engine_fact unreal_1[] = {
    UNREAL_FACTS,
};
static const anim_engine_fact unreal_2[] = {
    UNREAL_FACTS,
    INT("default_sample_rate_hz", 30),
    INT("custom_sample_rate_min_hz", 1),
    INT("custom_sample_rate_max_hz", 48000),
};

/* Godot 4.7: right-handed, Y up, metres; nodes/root_scale is not modeled. */
#define GODOT_FACTS                                                               \
    TEXT("coordinate_system", "right_handed_y_up"),                               \
        TEXT("world_length_unit", "metre"), INT("world_units_per_metre", 1),      \
        BOOL("root_scale_modeled", false)

static const anim_engine_fact godot_1[] = {
    GODOT_FACTS,
};
static const anim_engine_fact godot_2[] = {
    GODOT_FACTS,
    INT("animation_fps_default", 30),
    INT("animation_fps_min", 1),
    INT("animation_fps_max", 120),
    BOOL("animation_trimming_default", false),
};

/* Bevy 0.19.0, pinned to its release tag: glTF metres map 1:1 to world
 * length units with no loader conversion, GltfAssetLabel::Animation(i)
 * displays as Animation{i}, and animation target ids hash name paths. */
#define BEVY_FACTS                                                                \
    TEXT("coordinate_system", "right_handed_y_up"),                               \
        TEXT("gltf_length_unit", "metre"),                                        \
        INT("bevy_world_length_units_per_metre", 1),                              \
        TEXT("loader_scale_conversion", "none"),                                  \
        TEXT("gltf_asset_label_animation_format", "Animation{index}"),            \
        TEXT("gltf_asset_label_scene_format", "Scene{index}"),                    \
        TEXT("gltf_asset_label_primitive_format", "Mesh{mesh}/Primitive{primitive}"), \
        TEXT("animation_target_id_source", "name_path"),                          \
        TEXT("source_tag", "v0.19.0"),                                            \
        TEXT("source_commit", "c6f634ca9f406d68ba5109d921247b654cb42c10"),        \
        TEXT("bevy_gltf_version", "0.19.0"), TEXT("gltf_crate_version", "1.4.1")

static const anim_engine_fact bevy_1[] = {
    BEVY_FACTS,
};
static const anim_engine_fact bevy_2[] = {
    BEVY_FACTS,
};
static const anim_engine_fact bevy_3[] = {
    BEVY_FACTS,
    /* The compiled feature gate first, then the loader setting. */
    TEXT("animation_gate_precedence", "bevy_animation_feature,load_animations"),
    BOOL("target_id_hash_uses_target_pointer_width", true),
};

typedef struct {
    anim_engine_profile p;
    const anim_engine_fact *facts;
    size_t fact_count;
} profile_entry;

#define N(a) (sizeof a / sizeof a[0])

static const profile_entry profiles[] = {
    {{"unity-generic", 1, "6000.3", "fbx-model-importer", ANIM_ENGINE_UNITY_GENERIC,
      ANIM_ENGINE_FORMAT_FBX, "urn:animsmith:prediction-provenance:3",
      "urn:animsmith:engine-prediction:3"},
     unity_generic_1, N(unity_generic_1)},
    {{"unity-generic", 2, "6000.3", "fbx-model-importer", ANIM_ENGINE_UNITY_GENERIC,
      ANIM_ENGINE_FORMAT_FBX, "urn:animsmith:prediction-provenance:6",
      "urn:animsmith:engine-prediction:6"},
     unity_generic_2, N(unity_generic_2)},
    {{"unity-humanoid", 1, "6000.3", "fbx-model-importer", ANIM_ENGINE_UNITY_HUMANOID,
      ANIM_ENGINE_FORMAT_FBX, "urn:animsmith:prediction-provenance:3",
      "urn:animsmith:engine-prediction:3"},
     unity_humanoid_1, N(unity_humanoid_1)},
    {{"unreal", 1, "5.8", "fbx-importer", ANIM_ENGINE_UNREAL, ANIM_ENGINE_FORMAT_FBX,
      "urn:animsmith:prediction-provenance:3", "urn:animsmith:engine-prediction:3"},
     unreal_1, N(unreal_1)},
    {{"unreal", 2, "5.8", "fbx-importer", ANIM_ENGINE_UNREAL, ANIM_ENGINE_FORMAT_FBX,
      "urn:animsmith:prediction-provenance:4", "urn:animsmith:engine-prediction:4"},
     unreal_2, N(unreal_2)},
    {{"godot", 1, "4.7", "resource-importer-scene", ANIM_ENGINE_GODOT,
      ANIM_ENGINE_FORMAT_GLTF | ANIM_ENGINE_FORMAT_GLB | ANIM_ENGINE_FORMAT_FBX,
      "urn:animsmith:prediction-provenance:3", "urn:animsmith:engine-prediction:3"},
     godot_1, N(godot_1)},
    {{"godot", 2, "4.7", "resource-importer-scene", ANIM_ENGINE_GODOT,
      ANIM_ENGINE_FORMAT_GLTF | ANIM_ENGINE_FORMAT_GLB, "urn:animsmith:prediction-provenance:4",
      "urn:animsmith:engine-prediction:4"},
     godot_2, N(godot_2)},
    {{"bevy", 1, "0.19.0", "gltf-asset-loader", ANIM_ENGINE_BEVY,
      ANIM_ENGINE_FORMAT_GLTF | ANIM_ENGINE_FORMAT_GLB, "urn:animsmith:prediction-provenance:3",
      "urn:animsmith:engine-prediction:3"},
     bevy_1, N(bevy_1)},
    {{"bevy", 2, "0.19.0", "gltf-asset-loader", ANIM_ENGINE_BEVY,
      ANIM_ENGINE_FORMAT_GLTF | ANIM_ENGINE_FORMAT_GLB, "urn:animsmith:prediction-provenance:4",
      "urn:animsmith:engine-prediction:4"},
     bevy_2, N(bevy_2)},
    {{"bevy", 3, "0.19.0", "gltf-asset-loader", ANIM_ENGINE_BEVY,
      ANIM_ENGINE_FORMAT_GLTF | ANIM_ENGINE_FORMAT_GLB, "urn:animsmith:prediction-provenance:5",
      "urn:animsmith:engine-prediction:5"},
     bevy_3, N(bevy_3)},
};

size_t anim_engine_profile_count(void)
{
    return N(profiles);
}

const anim_engine_profile *anim_engine_profile_at(size_t i)
{
    return i < anim_engine_profile_count() ? &profiles[i].p : NULL;
}

const anim_engine_profile *anim_engine_profile_find(const char *profile, uint32_t revision,
                                                    const char *engine_version,
                                                    const char *importer)
{
    if (!profile || !engine_version || !importer)
        return NULL;
    for (size_t i = 0; i < anim_engine_profile_count(); i++) {
        const anim_engine_profile *p = &profiles[i].p;
        if (strcmp(p->profile, profile) == 0 && p->revision == revision &&
            strcmp(p->engine_version, engine_version) == 0 &&
            strcmp(p->importer, importer) == 0)
            return p;
    }
    return NULL;
}

static const profile_entry *entry_of(const anim_engine_profile *p)
{
    for (size_t i = 0; i < N(profiles); i++)
        if (&profiles[i].p == p)
            return &profiles[i];
    return NULL;
}

const anim_engine_fact *anim_engine_profile_facts(const anim_engine_profile *p, size_t *count)
{
    const profile_entry *e = entry_of(p);
    *count = e ? e->fact_count : 0;
    return e ? e->facts : NULL;
}

const anim_engine_fact *anim_engine_profile_fact(const anim_engine_profile *p, const char *key)
{
    size_t n = 0;
    const anim_engine_fact *f = anim_engine_profile_facts(p, &n);
    for (size_t i = 0; key && i < n; i++)
        if (strcmp(f[i].key, key) == 0)
            return &f[i];
    return NULL;
}

void anim_engine_fact_write(anim_json_writer *w, const anim_engine_fact *f)
{
    if (f->kind == ANIM_ENGINE_FACT_TEXT)
        anim_json_writer_string(w, f->text);
    else if (f->kind == ANIM_ENGINE_FACT_INT)
        anim_json_writer_int(w, f->integer);
    else
        anim_json_writer_bool(w, f->boolean);
}

const char *anim_engine_origin_name(anim_engine_setting_origin o)
{
    return o == ANIM_ENGINE_ORIGIN_EXPLICIT ? "explicit_config" : "profile_default";
}

const char *anim_engine_format_name(unsigned format)
{
    switch (format) {
    case ANIM_ENGINE_FORMAT_GLTF:
        return "gltf";
    case ANIM_ENGINE_FORMAT_GLB:
        return "glb";
    case ANIM_ENGINE_FORMAT_FBX:
        return "fbx";
    default:
        return NULL;
    }
}

const char *engine_format_name(unsigned format)
{
    const char *s = anim_engine_format_name(format);
    return s ? s : "unknown";
}
