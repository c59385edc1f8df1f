/* Engine import advice (`animsmith generate import-advice`): a separate
 * one-file contract that maps the settings a frozen engine profile has
 * already materialized onto that engine's importer vocabulary, bound to
 * the same-load prediction provenance of one input. Nothing is inferred:
 * no frame ranges, sample rates beyond the declared one, unit
 * conversions or root-motion outcomes (docs/import-advice.md).
 *
 * Two immutable shapes:
 *   V1 (urn:animsmith:schema:engine-import-advice:1): Unity 6000.3
 *      Generic/Humanoid revision 1 project the Model Importer settings and
 *      each clip's lockRoot* booleans; Unreal 5.8 and Godot 4.7 revision
 *      1 are a typed profile_settings_unmodeled refusal.
 *   V2 (urn:animsmith:schema:engine-import-advice:2): Godot and Unreal
 *      revision 2 project their document import settings, available only
 *      when the same-load dependency closure is complete.
 *
 * The model is built once (import_advice_build.c) and rendered as JSON
 * (the contract), text or Markdown (escaped views of the same value). */
#ifndef ANIMSMITH_GENERATE_IMPORT_ADVICE_H
#define ANIMSMITH_GENERATE_IMPORT_ADVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/availability.h"
#include "animsmith/config.h"
#include "animsmith/engine.h"
#include "animsmith/error.h"
#include "animsmith/report.h"
#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

struct anim_asset;
struct anim_measurements;

#define ANIM_ADVICE_V1_SCHEMA "urn:animsmith:schema:engine-import-advice:1"
#define ANIM_ADVICE_V2_SCHEMA "urn:animsmith:schema:engine-import-advice:2"
/* The prefix of the V1 identity's canonical encoding (import_advice_identity.c). */
#define ANIM_ADVICE_IDENTITY_DOMAIN "animsmith:engine-import-advice:1:identity"

/* Which projection a profile has. */
typedef enum {
    ANIM_ADVICE_ROUTE_NONE = 0,    /* no advice for this profile: exit 2 */
    ANIM_ADVICE_ROUTE_UNITY_V1,    /* Unity Generic/Humanoid revision 1 */
    ANIM_ADVICE_ROUTE_UNMODELED_V1, /* Unreal / Godot revision 1: typed refusal */
    ANIM_ADVICE_ROUTE_GODOT_V2,
    ANIM_ADVICE_ROUTE_UNREAL_V2
} anim_advice_route;

/* The route of a profile; for ROUTE_NONE *why (when not NULL) says why
 * ("... select revision 1 for import advice"). */
anim_advice_route anim_advice_route_of(const anim_engine_profile *p, const char **why);

typedef enum { ANIM_ADVICE_AVAILABLE, ANIM_ADVICE_REFUSED } anim_advice_state;

const char *anim_advice_state_name(anim_advice_state s); /* "available", "refused" */

/* Typed refusal reasons. */
#define ANIM_ADVICE_REFUSE_UNMODELED "profile_settings_unmodeled"
#define ANIM_ADVICE_REFUSE_INVENTORY "clip_inventory_incomplete"
#define ANIM_ADVICE_REFUSE_LINK "source_clip_link_missing"
#define ANIM_ADVICE_REFUSE_EVIDENCE "evidence_mismatch"
#define ANIM_ADVICE_REFUSE_CLOSURE "dependency_closure_incomplete"

/* One measurement/status pair of a clip row, copied from the normalized
 * clip measurements (measure.h) without reinterpretation. */
typedef struct anim_advice_measurements {
    anim_availability duration;
    double duration_s;
    anim_availability speed;
    double speed_mps;
    anim_availability loop_endpoint;
    const char *loop_endpoint_mode;  /* when MEASURED */
    anim_availability frame_grid;
    double frame_grid_fps;           /* when MEASURED */
    uint64_t frame_grid_intervals;
} anim_advice_measurements;

/* One V1 clip row: the source take bound to its normalized clip, the
 * project's declared intent, the measurements and the importer booleans. */
typedef struct anim_advice_clip {
    uint32_t source_clip_index;      /* the FBX animation stack, source order */
    uint32_t normalized_clip_index;  /* the document clip it became */
    const char *source_name;         /* the take name as the file spells it */
    const char *normalized_name;     /* the document's (unique) clip name */
    anim_opt_bool loop;              /* unset: undeclared (null) */
    anim_movement_owner owner_xz, owner_y, owner_yaw;
    anim_advice_measurements measured;
    /* ModelImporterClipAnimation.lockRoot*: bake -> true, extract -> false. */
    bool lock_root_rotation, lock_root_height_y, lock_root_position_xz;
} anim_advice_clip;

typedef enum {
    ANIM_ADVICE_PROJECTION_NONE = 0,
    ANIM_ADVICE_PROJECTION_GODOT,    /* "godot_params" */
    ANIM_ADVICE_PROJECTION_UNREAL    /* "unreal_fbx_import_data" */
} anim_advice_projection_kind;

/* Unreal's FbxAnimSequenceImportData sample-rate pair. */
typedef struct anim_advice_sample_rate {
    bool use_default_sample_rate;    /* bUseDefaultSampleRate */
    int64_t custom_sample_rate;      /* CustomSampleRate, 0 unless custom_hz(n) */
} anim_advice_sample_rate;

/* default_30 -> (true, 0); source_determined -> (false, 0); custom_hz(n)
 * with 1 <= n <= 48000 -> (false, n). -1 for any other value. */
int anim_advice_unreal_sample_rate(const anim_engine_setting_value *v,
                                   anim_advice_sample_rate *out);

typedef struct anim_import_advice {
    uint32_t schema_version;         /* 1 or 2 */
    const anim_engine_profile *profile;
    const anim_engine_run *run;      /* writes the embedded provenance */
    /* The provenance as compact JSON, captured once: the identity's first
     * part. */
    const char *provenance_json;
    size_t provenance_len;
    anim_advice_state state;
    const char *refusal_reason;      /* NULL when available */
    /* The same-load dependency closure's state ("complete", "partial",
     * "unavailable"). */
    const char *closure_state;

    /* V1. clips are present only when available (never a prefix). */
    anim_advice_clip *clips;
    uint32_t clip_count;
    bool has_importer;               /* the model importer payload */
    bool convert_units, bake_axis_conversion;
    const char *root_motion_source;  /* Generic only; NULL for Humanoid */
    char identity[72];               /* "sha256:" + 64 hex */

    /* V2: the document settings the projection reads (basis), then the
     * projection itself when available. */
    const anim_engine_setting_value **basis;
    uint32_t basis_count;
    anim_advice_projection_kind projection;
    int64_t godot_fps;               /* "animation/fps" */
    bool godot_trimming;             /* "animation/trimming" */
    anim_engine_setting_origin godot_fps_origin, godot_trimming_origin;
    anim_advice_sample_rate unreal;
    anim_engine_setting_origin unreal_origin;
} anim_import_advice;

/* Builds the advice for one loaded input. run is the input's prepared
 * engine run (anim_engine_prepare) and must have an advice route;
 * measurements are the input's clip measurements (used by the Unity
 * route; may be NULL otherwise). A refusal is a built advice (state
 * REFUSED), not an error; -1 (err set, naming the input) is an operator
 * error: a format the profile does not accept, a setting missing or
 * outside the profile's domain, out of memory. */
int anim_import_advice_build(const anim_config *cfg, const struct anim_asset *asset,
                             const anim_engine_run *run,
                             const struct anim_measurements *measurements, anim_arena *arena,
                             anim_import_advice *out, anim_error *err);

/* The V1 identity: SHA-256 over ANIM_ADVICE_IDENTITY_DOMAIN, a NUL, then
 * the four parts (provenance, lifecycle, clips, importer), each as an
 * 8-byte big-endian length followed by that many bytes. Written as
 * "sha256:<hex>" into out (72 bytes). */
void anim_advice_identity_digest(const anim_strbuf parts[4], char out[72]);

/* Fills advice->identity from the compact canonical JSON of its parts
 * (import_advice_json.c writes them). -1 with err on out of memory. */
int anim_import_advice_identify(anim_import_advice *advice, anim_error *err);

/* The input of a rendered document. */
typedef struct anim_advice_input {
    const char *path;                /* as given */
    const char *sha256_hex;
    uint64_t bytes;
} anim_advice_input;

/* The JSON document (pretty, one trailing newline). */
int anim_import_advice_write_json(const anim_import_advice *advice,
                                  const anim_advice_input *input, const anim_tool_info *tool,
                                  anim_strbuf *out, anim_error *err);
/* Canonical compact JSON of the identity parts, for the digest. */
int anim_import_advice_identity_parts(const anim_import_advice *advice, anim_strbuf parts[4],
                                      anim_error *err);

/* Presentation views: every asset-derived string is escaped. */
int anim_import_advice_write_text(const anim_import_advice *advice,
                                  const anim_advice_input *input, anim_strbuf *out,
                                  anim_error *err);
int anim_import_advice_write_markdown(const anim_import_advice *advice,
                                      const anim_advice_input *input, anim_strbuf *out,
                                      anim_error *err);

#ifdef __cplusplus
}
#endif
#endif
