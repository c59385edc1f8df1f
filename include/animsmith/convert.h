/* Conversion of an FBX (or glTF) export into a clean glTF document: the
 * full scene, or the animation only, or static meshes with their placement
 * baked into the vertices; optionally with a material texture recipe. The
 * result is written through the whole-document glTF writer (gltf_write.h).
 *
 * Two steps, so a caller can check the destination against everything the
 * conversion read before anything is written. */
#ifndef ANIMSMITH_CONVERT_H
#define ANIMSMITH_CONVERT_H

#include <stdbool.h>

#include "animsmith/gltf.h"
#include "animsmith/gltf_write.h"
#include "animsmith/json_write.h"
#include "animsmith/report.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct anim_convert_options {
    bool animation_only;              /* skeleton and clips only */
    bool bake_static_mesh_transforms; /* placement into vertices, identity nodes */
    const char *material_texture_recipe; /* recipe path, or NULL */
} anim_convert_options;

typedef struct anim_convert anim_convert;

/* Validates the recipe (before the input is read), reads the input and
 * applies the operations. NULL on failure with err set; *asset_refusal is
 * true when the asset does not fit the request (a recipe naming materials
 * the asset does not have, or the other way round: exit 1), false for an
 * operator error (exit 2). --animation-only applies to every input; the
 * static bake and recipes to FBX input (a glTF input with one is
 * refused). */
anim_convert *anim_convert_prepare(const char *input, const anim_convert_options *opts,
                                   const anim_load_options *load, bool *asset_refusal,
                                   anim_error *err);

/* The document that will be written (for destination checks). */
const anim_asset *anim_convert_asset(const anim_convert *c);

/* What the conversion read besides the input asset that path is (the
 * recipe, one of its images), or NULL: an output there is refused. */
const char *anim_convert_reads_file(const anim_convert *c, const char *path);

/* Writes it atomically to output (.glb or .gltf). */
int anim_convert_write(anim_convert *c, const char *output, anim_gltf_write_summary *summary,
                       anim_error *err);

/* The conversion evidence record (urn:animsmith:schema:conversion-evidence:2)
 * of a written conversion, as one JSON object. */
void anim_convert_evidence_json(const anim_convert *c, const char *input, const char *output,
                                const anim_gltf_write_summary *summary,
                                const anim_tool_info *tool, anim_json_writer *w);

/* The stable kind of an asset refusal, and its producer-refusal record
 * (urn:animsmith:schema:producer-refusal:1). */
const char *anim_convert_refusal_kind(void);
void anim_convert_refusal_json(const char *detail, const anim_tool_info *tool,
                               anim_json_writer *w);

void anim_convert_free(anim_convert *c);

#ifdef __cplusplus
}
#endif
#endif
