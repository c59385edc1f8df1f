/* src/convert/ owns what `animsmith convert` adds on top of the readers and
 * the glTF writer. Today that is the material texture recipe: a strict TOML
 * document naming BaseColor, normal, metallic-roughness and occlusion
 * images for exact source-material names, the containment rules for its
 * paths, and the deterministic role-aware downscale that keeps every
 * emitted image within the recipe's max_dimension.
 *
 * Two steps, so the caller can tell the two kinds of failure apart:
 * anim_texture_recipe_load checks everything the operator wrote (syntax,
 * schema, paths, containment, image files, types and sizes) and fails with
 * operator errors only (exit 2); anim_texture_recipe_apply fits the recipe
 * to the loaded asset's materials (asset refusals, exit 1, flagged by
 * *asset_refusal) and then produces the image bytes to embed. */
#ifndef ANIMSMITH_CONVERT_TEXTURE_RECIPE_H
#define ANIMSMITH_CONVERT_TEXTURE_RECIPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/json_write.h"

#define ANIM_TEXTURE_RECIPE_SCHEMA "urn:animsmith:schema:material-texture-recipe:1"
#define ANIM_TEXTURE_RECIPE_MAX_DIMENSION 4096u
/* Source image files larger than this are refused before they are read. */
#define ANIM_TEXTURE_MAX_FILE_BYTES ((size_t)64 << 20)
/* Decode bound: a source whose header declares more pixels (or a longer
 * side) is refused before decoding, so a small file cannot make us
 * allocate gigabytes. 4096 x 4096 is the largest max_dimension squared. */
#define ANIM_TEXTURE_MAX_SOURCE_PIXELS ((uint64_t)4096 * 4096)
#define ANIM_TEXTURE_MAX_SOURCE_SIDE 16384u

/* Slots, in processing and evidence order. */
typedef enum {
    ANIM_TEXTURE_SLOT_BASE_COLOR = 0,
    ANIM_TEXTURE_SLOT_NORMAL = 1,
    ANIM_TEXTURE_SLOT_METALLIC_ROUGHNESS = 2,
    ANIM_TEXTURE_SLOT_OCCLUSION = 3,
    ANIM_TEXTURE_SLOT_COUNT = 4
} anim_texture_slot;

/* "base_color", "normal", "metallic_roughness", "occlusion". */
const char *anim_texture_slot_name(int slot);

typedef struct {
    const char *name;                              /* exact source-material name */
    uint32_t line, column;                         /* of the [[materials]] entry */
    const char *declared[ANIM_TEXTURE_SLOT_COUNT]; /* as written; NULL when absent */
    const char *resolved[ANIM_TEXTURE_SLOT_COUNT]; /* canonical host path; NULL when absent */
    uint32_t slot_line[ANIM_TEXTURE_SLOT_COUNT], slot_column[ANIM_TEXTURE_SLOT_COUNT];
} anim_texture_recipe_entry;

typedef struct anim_texture_recipe {
    const char *path;         /* the recipe path as given */
    const char *texture_root; /* as declared, or NULL */
    const char *root_real;    /* canonical root, or NULL (never serialized) */
    uint32_t root_line, root_column;
    uint32_t max_dimension;
    anim_texture_recipe_entry *entries; /* declaration order */
    uint32_t entry_count;
} anim_texture_recipe;

/* Reads, parses and validates the recipe: strict schema, path spellings,
 * resolution and containment, and every image file (regular, at most
 * 64 MiB, PNG or JPEG by magic, a readable header within the decode
 * bound). All memory from arena. Every failure is an operator error with a
 * one-line message naming the recipe file and the key. */
int anim_texture_recipe_load(const char *path, anim_arena *arena, anim_texture_recipe **out,
                             anim_error *err);

typedef struct {
    uint32_t material_index;   /* source-material index */
    const char *material_name; /* display data */
    int slot;                  /* anim_texture_slot */
    const char *declared_path; /* as written in the recipe */
    const char *mime;          /* of the emitted bytes */
    uint32_t width, height;    /* of the emitted image */
    bool resized;              /* false: the original bytes pass through */
    const uint8_t *bytes;      /* emitted bytes (arena) */
    size_t byte_count;
    uint32_t src_width, src_height; /* of the consumed source */
    const char *src_mime;           /* from the source's magic */
} anim_texture_recipe_image;

/* Fits the recipe to the source materials (material_names[i] may be NULL
 * for an unnamed material, which no recipe entry can name) and produces
 * the images: for every source material in index order, its slots in
 * BaseColor, normal, metallic-roughness, occlusion order. Within
 * max_dimension an image keeps its original bytes and MIME type; larger
 * ones are resized by role and emitted as PNG RGBA8.
 *
 * A recipe entry matching no source material, a source material missing
 * from the recipe, or a recipe name shared by several source materials is
 * an asset refusal: returns -1 with *asset_refusal set. Any other failure
 * (an image that changed or fails to decode, memory) returns -1 with
 * *asset_refusal false. */
int anim_texture_recipe_apply(const anim_texture_recipe *r, const char *const *material_names,
                              uint32_t material_count, anim_arena *arena,
                              anim_texture_recipe_image **out, uint32_t *count, anim_error *err,
                              bool *asset_refusal);

/* Writes the conversion evidence's material_texture_recipe object (the
 * value only: the caller writes the key) for the images apply returned. */
void anim_texture_recipe_evidence_json(const anim_texture_recipe *r,
                                       const anim_texture_recipe_image *imgs, uint32_t count,
                                       anim_json_writer *w);

#endif
