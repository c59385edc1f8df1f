/* What the Bevy 0.19.0 engine checks (engine-addressability,
 * engine-unit-scale, engine-track-support) share: applicability by exact
 * profile revision and source format, the loader settings as the checks
 * read them (an optional setting the run did not materialize is its
 * documented default, marked as such), and the basis rows that cite the
 * settings and the frozen profile facts. Private to the checks layer. */
#ifndef ANIMSMITH_CHECKS_ENGINE_BEVY_H
#define ANIMSMITH_CHECKS_ENGINE_BEVY_H

#include <stdbool.h>
#include <stdint.h>

#include "animsmith/engine.h"
#include "animsmith/lint.h"

/* Revision bits for engine_bevy_applies. */
enum { ENGINE_BEVY_R1 = 1u, ENGINE_BEVY_R2 = 2u, ENGINE_BEVY_R3 = 4u };

/* The run's profile is Bevy 0.19.0 at one of the given revisions and the
 * input is glTF JSON or GLB. */
bool engine_bevy_applies(const anim_lint_context *ctx, unsigned revisions);

/* The frozen profile facts the Bevy checks cite (profile_fact basis
 * refs; the values are the profile's, see src/engine/). */
#define ENGINE_BEVY_FACT_ANIMATION_LABEL "gltf_asset_label_animation_format"
#define ENGINE_BEVY_FACT_SCENE_LABEL "gltf_asset_label_scene_format"
#define ENGINE_BEVY_FACT_PRIMITIVE_LABEL "gltf_asset_label_primitive_format"
#define ENGINE_BEVY_FACT_LENGTH_UNIT "gltf_length_unit"
#define ENGINE_BEVY_FACT_UNITS_PER_METRE "bevy_world_length_units_per_metre"
#define ENGINE_BEVY_FACT_SCALE_CONVERSION "loader_scale_conversion"
#define ENGINE_BEVY_FACT_GATE_PRECEDENCE "animation_gate_precedence"

/* One document setting as the checks read it. */
typedef struct {
    const char *key;
    const char *origin_ref;  /* "<key>/origin": the basis ref of its origin */
    bool resolved;           /* false: a required setting without a value */
    bool is_bool;            /* a boolean setting (else a word) */
    bool boolean;            /* boolean settings */
    const char *word;        /* word settings */
    anim_engine_setting_origin origin;
} engine_bevy_setting;

/* key is one of extension_handler_environment, bevy_animation_feature
 * (required), rotate_scene_entity, rotate_meshes, load_meshes,
 * load_animations (optional: false, false, "nonempty", true). */
engine_bevy_setting engine_bevy_setting_get(const anim_lint_context *ctx, const char *key);

/* Appends the setting's basis rows to rows[*n]: its value and its origin
 * (nothing for an unresolved setting). rows needs two free entries. */
void engine_bevy_setting_basis(const engine_bevy_setting *s, anim_basis_row *rows, uint32_t *n);

/* Appends the profile_fact row of the run's frozen fact key, with the
 * profile's value (null should the profile lack it). */
void engine_bevy_fact(const anim_lint_context *ctx, anim_basis_row *rows, uint32_t *n,
                      const char *key);

/* The reason of a facet that needs a required setting the run lacks. */
#define ENGINE_BEVY_SETTING_UNRESOLVED "setting_unresolved"

#endif
