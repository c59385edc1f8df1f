/* material_definitions and textures: source-indexed records with
 * the five core material-texture slots (base_color, normal,
 * metallic_roughness, occlusion, emissive) in that fixed order, and each
 * texture's image reference. Extension-defined slots are not modeled. */
#include "measure/asset_internal.h"

/* The reader keeps the slots in this enum's order and has refused every
 * reference that names no texture, so each slot is a binding or absent. */
_Static_assert(ANIM_SLOT_COUNT == ANIM_MATERIAL_TEXTURE_SLOTS, "material texture slots");

int asset_measure_materials(const anim_asset *asset, anim_arena *arena,
                            anim_asset_measurements *out, anim_error *err)
{
    const anim_doc *doc = &asset->doc;
    out->material_resources_complete = true;
    out->material_count = doc->material_count;
    out->materials = anim_arena_calloc(arena, doc->material_count ? doc->material_count : 1,
                                       sizeof *out->materials);
    out->texture_count = doc->texture_count;
    out->textures = anim_arena_calloc(arena, doc->texture_count ? doc->texture_count : 1,
                                      sizeof *out->textures);
    if (!out->materials || !out->textures)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < doc->material_count; i++) {
        anim_material_measurements *mm = &out->materials[i];
        mm->material_index = i;
        mm->name = doc->materials[i].name;
        const uint32_t *slot_texture = doc->materials[i].textures;
        for (int s = 0; s < ANIM_SLOT_COUNT; s++) {
            if (slot_texture[s] == ANIM_NONE)
                continue;
            mm->bindings[mm->binding_count].slot = (anim_material_slot)s;
            mm->bindings[mm->binding_count].texture_index = slot_texture[s];
            mm->binding_count++;
        }
    }
    for (uint32_t i = 0; i < doc->texture_count; i++) {
        out->textures[i].texture_index = i;
        out->textures[i].name = doc->textures[i].name;
        out->textures[i].image_index = doc->textures[i].source;
    }
    return 0;
}

const char *anim_material_slot_name(anim_material_slot slot)
{
    switch (slot) {
    case ANIM_SLOT_BASE_COLOR: return "base_color";
    case ANIM_SLOT_NORMAL: return "normal";
    case ANIM_SLOT_METALLIC_ROUGHNESS: return "metallic_roughness";
    case ANIM_SLOT_OCCLUSION: return "occlusion";
    case ANIM_SLOT_EMISSIVE: return "emissive";
    case ANIM_SLOT_COUNT: break;
    }
    return "unknown";
}
