/* The raw glTF animation inventory of one load: the source animation rows
 * and, independently, each animation's channel rows, read from the raw
 * JSON tree the loader parsed (asset->source.root) rather than from the
 * normalized document, because an engine addresses source indices: the
 * normalized clips rename duplicates and drop channels that target no
 * node.
 *
 * The inventory is bounded: at most ANIM_ENGINE_INVENTORY_MAX_ANIMATIONS
 * animation rows and ANIM_ENGINE_INVENTORY_MAX_CHANNELS channel rows per
 * animation are kept; one more row in the source (the overflow witness)
 * makes that coverage partial, never a complete prefix. Coverage is
 * complete only when every source row was inventoried. Consumers that
 * predict from the rows must refuse a partial or unavailable inventory as
 * a whole rather than predict from the retained prefix.
 *
 * Used by the engine checks (engine-addressability, engine-track-support)
 * and by `generate addressability`. */
#ifndef ANIMSMITH_CHECKS_ENGINE_INVENTORY_H
#define ANIMSMITH_CHECKS_ENGINE_INVENTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/gltf.h"

#define ANIM_ENGINE_INVENTORY_MAX_ANIMATIONS 4096u
#define ANIM_ENGINE_INVENTORY_MAX_CHANNELS 4096u

typedef enum {
    ANIM_ENGINE_INVENTORY_COMPLETE = 0,
    ANIM_ENGINE_INVENTORY_PARTIAL,     /* some rows retained, not all */
    ANIM_ENGINE_INVENTORY_UNAVAILABLE  /* nothing could be inventoried */
} anim_engine_inventory_coverage;

/* "complete", "partial", "unavailable". */
const char *anim_engine_inventory_coverage_name(anim_engine_inventory_coverage c);

/* Stable reason codes of an incomplete coverage (the facet reasons of the
 * engine checks use them unchanged). */
#define ANIM_ENGINE_INVENTORY_ANIMATIONS_INCOMPLETE "animation_inventory_incomplete"
#define ANIM_ENGINE_INVENTORY_ANIMATIONS_OVERFLOW "animation_inventory_overflow"
#define ANIM_ENGINE_INVENTORY_CHANNELS_INCOMPLETE "channel_inventory_incomplete"
#define ANIM_ENGINE_INVENTORY_CHANNELS_OVERFLOW "channel_inventory_overflow"

/* Source text as authored: an arena copy, NUL-terminated, len bytes (it
 * may itself hold U+0000); s is NULL when the member is absent or not a
 * string. */
typedef struct anim_engine_inventory_text {
    const char *s;
    size_t len;
} anim_engine_inventory_text;

typedef struct anim_engine_inventory_channel {
    uint32_t index;                 /* source channel index */
    /* False when the channel is not an object, or its sampler is not an
     * index into the animation's samplers, or its target is not an object
     * with a string path: the row is kept (its index is a fact) and the
     * animation's channel coverage is partial. */
    bool well_formed;
    uint32_t sampler;               /* ANIM_NONE when absent or invalid */
    uint32_t target_node;           /* ANIM_NONE when absent (extension targets) */
    anim_engine_inventory_text target_path;
    uint32_t input_accessor;        /* the sampler's; ANIM_NONE when unknown */
    uint32_t output_accessor;
    anim_engine_inventory_text interpolation; /* the sampler's; s NULL when absent */
} anim_engine_inventory_channel;

typedef struct anim_engine_inventory_animation {
    uint32_t index;                 /* source animation index */
    /* False when the animation is not a JSON object (then it has no name
     * and no channel rows, and the animation coverage is partial). */
    bool well_formed;
    anim_engine_inventory_text name;
    /* The channel rows of this animation, independent of the others. */
    anim_engine_inventory_coverage channel_coverage;
    const char *channel_reason;     /* NULL when complete */
    const char *channel_detail;     /* display text naming the object and index */
    uint32_t source_channel_count;  /* the raw array's length (0 when not an array) */
    anim_engine_inventory_channel *channels; /* source order, the retained prefix */
    uint32_t channel_count;
} anim_engine_inventory_animation;

typedef struct anim_engine_inventory {
    /* The animation rows. */
    anim_engine_inventory_coverage coverage;
    const char *reason;             /* NULL when complete: the first shortfall */
    const char *detail;             /* display text naming the object and index */
    uint32_t source_animation_count; /* the raw array's length */
    anim_engine_inventory_animation *animations; /* source order, the retained prefix */
    uint32_t animation_count;
    /* The channel rows of every retained animation together: complete
     * when each animation's are; otherwise the first shortfall in source
     * order (its reason and display text). */
    anim_engine_inventory_coverage channel_coverage;
    const char *channel_reason;
    const char *channel_detail;
    uint64_t channel_row_count;     /* rows retained over all animations */
} anim_engine_inventory;

/* Builds the inventory of a loaded asset (glTF or GLB; the raw tree of an
 * FBX projection is not source evidence, so FBX input is unavailable).
 * Everything lives in arena. Returns 0, or -1 with err set (out of
 * memory); a malformed source is coverage, never an error. */
int anim_engine_inventory_build(const anim_asset *asset, anim_arena *arena,
                                anim_engine_inventory *out, anim_error *err);

/* Whether the inventory would be complete and empty (no source animation,
 * exhaustively observed), decided without building it or allocating. */
bool anim_engine_inventory_complete_empty(const anim_asset *asset);

#endif
