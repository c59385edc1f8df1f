/* src/generate/ holds the standalone generators: each reads one loaded
 * asset and prints its own versioned contract, never a lint envelope. This
 * header and addressability*.c are `generate addressability` (with
 * blake3.c and bevy_target_id.c for Bevy's target ids); import_advice*.c
 * are `generate import-advice`.
 *
 * generate addressability builds one typed value per input and renders it
 * three ways (JSON is the contract; text and Markdown are escaped views of
 * the same value):
 *   V1 urn:animsmith:schema:gltf-animation-addressability:1 -- the neutral
 *      animation inventory with its identity, plus the Bevy revision-1
 *      section (the engine-addressability check record) or null;
 *   V2 urn:animsmith:schema:gltf-addressability:2 -- for the exact Bevy
 *      revision-3 profile: the V1 inventory nested unchanged, the raw scene,
 *      node, skin, attachment and path domains, and the Bevy projection
 *      (labels, named maps, animation targets with their ids). */
#ifndef ANIMSMITH_GENERATE_ADDRESSABILITY_H
#define ANIMSMITH_GENERATE_ADDRESSABILITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/addressability.h"
#include "animsmith/arena.h"
#include "animsmith/engine.h"
#include "animsmith/error.h"
#include "animsmith/gltf.h"
#include "animsmith/json_write.h"
#include "animsmith/lint.h"
#include "animsmith/report.h"
#include "animsmith/strbuf.h"

#define ADDR_V1_SCHEMA "urn:animsmith:schema:gltf-animation-addressability:1"
#define ADDR_V2_SCHEMA "urn:animsmith:schema:gltf-addressability:2"

/* Bevy revision 1 records at most this many clips in its provenance: a
 * longer file is an operator error under that profile, not a prefix. */
#define ADDR_BEVY_R1_MAX_ANIMATIONS 4096u

/* V2 bounds of every new rich domain (scenes, nodes, skins, attachments,
 * paths, targets, named-map winners), and of all of them together. */
#define ADDR_V2_MAX_ROWS 4096u
#define ADDR_V2_MAX_REFS 65536u
#define ADDR_V2_MAX_TEXT (1024u * 1024u)
#define ADDR_V2_MAX_NAME 1024u

/* Source text: bytes as authored (may hold NUL), s NULL when absent. */
typedef struct addr_text {
    const char *s;
    size_t len;
} addr_text;

typedef enum { ADDR_COMPLETE = 0, ADDR_PARTIAL, ADDR_UNAVAILABLE } addr_coverage;
const char *addr_coverage_name(addr_coverage c);

/* ---- V1: the neutral animation inventory */

typedef struct addr_channel {
    uint32_t index;                 /* source channel index */
    uint32_t sampler;               /* ANIM_NONE when absent */
    uint32_t node;                  /* ANIM_NONE: no target node */
    addr_text path;                 /* target.path as authored */
    uint32_t input_accessor;        /* ANIM_NONE when unknown */
    uint32_t output_accessor;
    addr_text interpolation;        /* the sampler's, "LINEAR" when absent */
} addr_channel;

typedef struct addr_animation {
    uint32_t index;                 /* source animation index */
    addr_text name;
    addr_channel *channels;
    uint32_t channel_count;
} addr_animation;

typedef struct addr_closure_file {
    const char *role;               /* "primary", "buffer", "image" */
    uint32_t index;                 /* buffer or image index */
    const char *path;               /* the primary as given; NULL otherwise */
    const char *uri;                /* buffers and images: as declared */
    bool readable;                  /* sha256 and bytes are known */
    char sha256[65];
    uint64_t bytes;
} addr_closure_file;

typedef struct addr_closure {
    addr_coverage state;            /* complete: every file read */
    addr_closure_file *files;       /* primary first, then buffers, images */
    uint32_t count;
} addr_closure;

typedef struct addr_inventory {
    const char *path;               /* as given */
    char sha256[65];
    uint64_t bytes;
    addr_coverage coverage;
    const char *coverage_reason;    /* NULL when complete */
    uint32_t source_animation_count; /* the raw array's length */
    addr_animation *animations;     /* source order, the retained prefix */
    uint32_t animation_count;
    addr_closure closure;
    char identity[72];              /* "sha256:" + 64 hex */
} addr_inventory;

/* Builds the inventory from the same load (raw glTF JSON, buffers already
 * read; image files of the closure hashed). Arrays live in arena. */
int addr_inventory_build(const anim_asset *asset, anim_arena *arena, addr_inventory *inv,
                         anim_error *err);
/* The animation and channel rows, coverage and source count (the first
 * part of addr_inventory_build), from the shared engine inventory. */
int addr_inventory_rows(const anim_asset *asset, anim_arena *arena, addr_inventory *inv,
                        anim_error *err);
/* The dependency closure alone (addr_inventory_build calls it). */
int addr_closure_build(const anim_asset *asset, anim_arena *arena, addr_closure *out,
                       anim_error *err);
/* The identity of the neutral fields (see docs/addressability.md):
 * "sha256:" + hex of the domain-separated canonical encoding. */
int addr_inventory_identity(addr_inventory *inv, anim_error *err);

void addr_write_inventory(anim_json_writer *w, const addr_inventory *inv);
void addr_write_input(anim_json_writer *w, const addr_inventory *inv);
void addr_json_text(anim_json_writer *w, addr_text t); /* string, or null */
void addr_json_index(anim_json_writer *w, uint32_t v); /* number, or null for ANIM_NONE */

/* ---- the Bevy check evaluation (both versions) */

/* One run of the lint machinery for engine-addressability alone, under
 * the config's exact profile: the record and the same-load engine facts. */
typedef struct addr_bevy_eval {
    anim_lint_file file;            /* owns its arena */
    const anim_check_record *record;
    uint32_t available, unavailable; /* facet counts */
} addr_bevy_eval;

int addr_bevy_evaluate(const anim_asset *asset, const anim_config *cfg, addr_bevy_eval *out,
                       anim_error *err);
void addr_bevy_eval_free(addr_bevy_eval *e);
/* {"prediction_provenance": ..., "evaluation": ...} members (the object is
 * open; the caller closes it). */
int addr_write_bevy_members(anim_json_writer *w, const addr_bevy_eval *e, anim_error *err);

/* ---- V2: raw domains */

typedef struct addr_domain {
    addr_coverage state;
    const char *reason;             /* NULL when complete */
    uint32_t source_rows;           /* rows the source has */
    uint32_t rows;                  /* rows retained (a prefix) */
} addr_domain;

typedef struct addr_scene {
    uint32_t index;
    addr_text name;
    const uint32_t *roots;
    uint32_t root_count;
} addr_scene;

typedef struct addr_node {
    uint32_t index;
    addr_text name;
    uint32_t parent;                /* ANIM_NONE for a root */
    const uint32_t *children;
    uint32_t child_count;
    uint32_t mesh, skin;            /* ANIM_NONE when absent */
} addr_node;

typedef struct addr_skin {
    uint32_t index;
    addr_text name;
    const uint32_t *joints;
    uint32_t joint_count;
    uint32_t skeleton;              /* explicit skin.skeleton, ANIM_NONE when absent */
    uint32_t inverse_bind_accessor; /* ANIM_NONE when absent */
} addr_skin;

typedef struct addr_attachment {
    uint32_t node, skin;
} addr_attachment;

typedef struct addr_path {
    uint32_t scene;
    uint32_t node;                  /* the last of nodes */
    uint32_t *nodes;                /* scene root .. node */
    uint32_t length;
} addr_path;

/* The shared V2 budget: structural references and text bytes retained by
 * the new domains and the projection, in emission order. */
typedef struct addr_budget {
    size_t refs, text;
} addr_budget;

bool addr_budget_take(addr_budget *b, size_t refs, size_t text);

typedef struct addr_raw {
    uint32_t default_scene;         /* ANIM_NONE when "scene" is absent */
    addr_scene *scenes;
    addr_domain scene_domain;
    addr_node *nodes;
    addr_domain node_domain;
    addr_skin *skins;
    addr_domain skin_domain;
    addr_attachment *attachments;
    addr_domain attachment_domain;
    addr_path *paths;
    addr_domain path_domain;
} addr_raw;

int addr_raw_build(const anim_asset *asset, anim_arena *arena, addr_budget *budget,
                   addr_raw *raw, anim_error *err);
void addr_write_raw(anim_json_writer *w, const addr_raw *raw);

/* ---- V2: the Bevy projection */

typedef enum { ADDR_AVAILABLE = 0, ADDR_ABSENT, ADDR_REQUIRED_UNAVAILABLE } addr_state;
const char *addr_state_name(addr_state s);

#define ADDR_MAX_REASONS 8
typedef struct addr_reasons {
    const char *codes[ADDR_MAX_REASONS]; /* byte-wise sorted, distinct */
    uint32_t count;
} addr_reasons;

void addr_reasons_add(addr_reasons *r, const char *code);

typedef struct addr_skin_labels {
    uint32_t skin;
    bool identity_fallback;         /* no inverseBindMatrices: identity */
    addr_state skin_state;          /* Skin{i}: referenced by a node or not */
    addr_reasons reasons;
} addr_skin_labels;

typedef struct addr_winner {
    addr_text name;
    uint32_t index;                 /* source index of the winning row */
} addr_winner;

typedef struct addr_named_map {
    addr_state state;
    addr_reasons reasons;
    addr_winner *winners;           /* sorted by name bytes */
    uint32_t count;
} addr_named_map;

typedef struct addr_contrib {
    uint32_t animation, channel;
} addr_contrib;

typedef struct addr_target {
    uint32_t node;
    addr_contrib *contrib;
    uint32_t contrib_count;
    addr_state state;
    addr_reasons reasons;
    const addr_text *segments;      /* available: the name path */
    uint32_t segment_count;
    size_t path_bytes;
    char id[40];                    /* available: the target id UUID */
} addr_target;

typedef struct addr_setting {
    bool known;                     /* resolved by the profile */
    bool value;
    const char *text;               /* word settings */
    const char *origin;             /* "explicit_config" / "profile_default" */
} addr_setting;

/* The three settings the projection consumes (revision 3), as resolved by
 * the profile: unresolved settings make targets evidence_incomplete. */
typedef struct addr_bevy_settings {
    addr_setting feature;           /* bevy_animation_feature */
    addr_setting load_animations;
    addr_setting pointer_width;     /* target_pointer_width: bits32 | bits64 */
} addr_bevy_settings;

void addr_bevy_settings_read(const anim_engine_run *engine, addr_bevy_settings *out);

typedef struct addr_projection {
    addr_setting feature, load_animations, pointer_width;
    unsigned pointer_bytes;         /* 4, 8, or 0 when not declared */
    /* Whether the label rows cover every source scene and skin (the scene
     * and skin domains are complete): required_unavailable otherwise. */
    addr_state label_coverage;
    addr_state default_route;       /* available or absent */
    addr_skin_labels *skins;        /* one per retained skin row */
    uint32_t skin_count;
    addr_named_map scene_map, animation_map, skin_map;
    addr_target *targets;           /* by target node index */
    uint32_t target_count;
    addr_state target_coverage;     /* available (complete) or required_unavailable */
    const char *target_coverage_reason;
} addr_projection;

int addr_projection_build(const addr_inventory *inv, const addr_raw *raw,
                          const addr_bevy_settings *settings, anim_arena *arena,
                          addr_budget *budget, addr_projection *out, anim_error *err);
bool addr_projection_blocking(const addr_projection *p);
void addr_write_projection(anim_json_writer *w, const addr_raw *raw, const addr_projection *p);

/* ---- the whole document */

typedef struct addr_doc {
    int version;                    /* 1 or 2 */
    anim_tool_info tool;
    addr_inventory inventory;
    bool has_bevy;                  /* V1: the revision-1 section; V2: always */
    addr_bevy_eval bevy;
    addr_raw raw;                   /* V2 */
    addr_projection projection;     /* V2 */
    anim_arena *arena;
} addr_doc;

int addr_render_json(const addr_doc *d, anim_strbuf *out, anim_error *err);
void addr_render_text(const addr_doc *d, anim_strbuf *out);
void addr_render_markdown(const addr_doc *d, anim_strbuf *out);

/* Text helpers shared by the two presentation views. */
void addr_put_name(anim_strbuf *out, addr_text t); /* "name" quoted, or (none) */

#endif
