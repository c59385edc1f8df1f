/* The conversion evidence (success only) and the producer refusal record
 * of convert. */
#include "convert/convert_internal.h"

#define CONVERSION_EVIDENCE_SCHEMA "urn:animsmith:schema:conversion-evidence:2"
#define PRODUCER_REFUSAL_SCHEMA "urn:animsmith:schema:producer-refusal:1"

static void write_bake(anim_json_writer *w, const anim_convert *st)
{
    anim_json_writer_key(w, "static_mesh_bake");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "entries");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < st->bake_count; i++) {
        const anim_convert_bake_entry *e = &st->bake[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "source_node_index", e->source_node_index);
        anim_json_writer_key_string_or_null(w, "source_node_name", e->source_node_name);
        anim_json_writer_key_uint(w, "source_mesh_ordinal", e->source_mesh_ordinal);
        anim_json_writer_key_uint(w, "source_mesh_index", e->source_mesh_index);
        anim_json_writer_key_string_or_null(w, "source_mesh_name", e->source_mesh_name);
        anim_json_writer_key_uint(w, "output_node_index", e->output_node_index);
        anim_json_writer_key_uint(w, "output_mesh_index", e->output_mesh_index);
        anim_json_writer_key(w, "world_transform");
        anim_json_writer_f64_array(w, e->world_transform, 16);
        anim_json_writer_key(w, "linear_determinant");
        anim_json_writer_f64(w, e->linear_determinant);
        anim_json_writer_key_uint(w, "primitive_count", e->primitive_count);
        anim_json_writer_key_uint(w, "position_count", e->position_count);
        anim_json_writer_key_uint(w, "normal_count", e->normal_count);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);
}

void anim_convert_evidence_json(const anim_convert *st, const char *input, const char *output,
                                const anim_gltf_write_summary *s, const anim_tool_info *tool,
                                anim_json_writer *w)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "schema_version", 2);
    anim_json_writer_key_string_or_null(w, "schema", CONVERSION_EVIDENCE_SCHEMA);
    anim_output_write_tool(w, tool);
    anim_json_writer_key_string_or_null(w, "command", "convert");
    anim_json_writer_key_string_or_null(w, "input", input);
    anim_json_writer_key_string_or_null(w, "output", output);
    anim_json_writer_key(w, "options");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "animation_only");
    anim_json_writer_bool(w, st->opts.animation_only);
    anim_json_writer_key(w, "bake_static_mesh_transforms");
    anim_json_writer_bool(w, st->opts.bake_static_mesh_transforms);
    anim_json_writer_key_string_or_null(w, "material_texture_recipe",
                                        st->opts.material_texture_recipe);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "artifact");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "nodes", s->nodes);
    anim_json_writer_key_uint(w, "animations", s->animations);
    anim_json_writer_key_uint(w, "meshes", s->meshes);
    anim_json_writer_key_uint(w, "primitive_positions", s->positions);
    anim_json_writer_key_uint(w, "materials", s->materials);
    anim_json_writer_key_uint(w, "clips_without_writable_tracks", s->dropped_clips);
    anim_json_writer_end_object(w);
    if (st->opts.bake_static_mesh_transforms)
        write_bake(w, st);
    if (st->recipe) {
        anim_json_writer_key(w, "material_texture_recipe");
        anim_texture_recipe_evidence_json(st->recipe, st->recipe_images, st->recipe_image_count,
                                          w);
    }
    anim_json_writer_end_object(w);
}

/* Recipes are the one source of an asset refusal today: a recipe that
 * does not fit the asset's materials. */
const char *anim_convert_refusal_kind(void)
{
    return "asset-recipe-mismatch";
}

void anim_convert_refusal_json(const char *detail, const anim_tool_info *tool,
                               anim_json_writer *w)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "schema_version", 1);
    anim_json_writer_key_string_or_null(w, "schema", PRODUCER_REFUSAL_SCHEMA);
    anim_output_write_tool(w, tool);
    anim_json_writer_key_string_or_null(w, "command", "convert");
    anim_json_writer_key_string_or_null(w, "outcome", "rejected");
    anim_json_writer_key(w, "result");
    anim_json_writer_null(w);
    anim_json_writer_key(w, "rejection");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_string_or_null(w, "stage", "analysis");
    anim_json_writer_key_string_or_null(w, "kind", anim_convert_refusal_kind());
    anim_json_writer_key_string_or_null(w, "detail", detail);
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
}
