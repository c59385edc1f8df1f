/* The state of one conversion (convert.h), shared by the conversion and
 * its evidence writer. */
#ifndef ANIMSMITH_CONVERT_INTERNAL_H
#define ANIMSMITH_CONVERT_INTERNAL_H

#include "animsmith/convert.h"
#include "convert/convert_scene.h"
#include "convert/texture_recipe.h"
#include "io/fbx/fbx_load.h"

struct anim_convert {
    anim_arena *arena;           /* the recipe and its images */
    anim_convert_options opts;
    const char *input;
    anim_fbx_loaded *fbx;        /* FBX input, NULL for glTF */
    anim_asset *asset;           /* what is written */
    anim_convert_bake_entry *bake;
    uint32_t bake_count;
    anim_texture_recipe *recipe;
    anim_texture_recipe_image *recipe_images;
    uint32_t recipe_image_count;
};

#endif
