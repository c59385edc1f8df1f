/* The material_texture_recipe object of conversion evidence: the recipe's
 * identity and declared paths (as written, never the canonical host
 * paths), the dimension cap, what processed the images, and one consumed
 * and one emitted record per image in source-material and slot order. The
 * processor names this tool's own resampler and the image libraries
 * actually linked; the algorithm strings are the contract's. */
#include "animsmith/json_write.h"
#include "convert/texture_internal.h"

static void dimensions(anim_json_writer *w, uint32_t width, uint32_t height)
{
    anim_json_writer_key(w, "dimensions");
    anim_json_writer_begin_array(w);
    anim_json_writer_uint(w, width);
    anim_json_writer_uint(w, height);
    anim_json_writer_end_array(w);
}

static void identity(anim_json_writer *w, const anim_texture_recipe_image *img, const char *mime)
{
    anim_json_writer_key_uint(w, "material_index", img->material_index);
    anim_json_writer_key(w, "material_name");
    if (img->material_name)
        anim_json_writer_string(w, img->material_name);
    else
        anim_json_writer_null(w);
    anim_json_writer_key(w, "slot");
    anim_json_writer_string(w, anim_texture_slot_name(img->slot));
    anim_json_writer_key(w, "declared_path");
    anim_json_writer_string(w, img->declared_path);
    anim_json_writer_key(w, "mime");
    anim_json_writer_string(w, mime);
}

static void processor(anim_json_writer *w)
{
    char png[64];
    anim_texture_png_library(png, sizeof png);
    anim_json_writer_key(w, "processor");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "image_crate");
    anim_json_writer_string(w, anim_texture_processor_name());
    anim_json_writer_key(w, "png_crate");
    anim_json_writer_string(w, png);
    anim_json_writer_key(w, "jpeg_crate");
    anim_json_writer_string(w, anim_texture_jpeg_library());
    anim_json_writer_key(w, "base_color_algorithm");
    anim_json_writer_string(w, "sRGB-to-linear premultiplied-alpha Lanczos3");
    anim_json_writer_key(w, "normal_algorithm");
    anim_json_writer_string(w, "tangent-vector Triangle renormalize +Z fallback");
    anim_json_writer_key(w, "data_algorithm");
    anim_json_writer_string(w, "linear-channel Triangle");
    anim_json_writer_key(w, "output_encoding");
    anim_json_writer_string(w, "PNG RGBA8 compression=Best filter=NoFilter");
    anim_json_writer_end_object(w);
}

void anim_texture_recipe_evidence_json(const anim_texture_recipe *r,
                                       const anim_texture_recipe_image *imgs, uint32_t count,
                                       anim_json_writer *w)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "schema_version", 1);
    anim_json_writer_key(w, "schema");
    anim_json_writer_string(w, ANIM_TEXTURE_RECIPE_SCHEMA);
    anim_json_writer_key(w, "path");
    anim_json_writer_string(w, r->path);
    anim_json_writer_key(w, "texture_root");
    if (r->texture_root)
        anim_json_writer_string(w, r->texture_root);
    else
        anim_json_writer_null(w);
    anim_json_writer_key_uint(w, "max_dimension", r->max_dimension);
    processor(w);
    anim_json_writer_key(w, "consumed_inputs");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < count; i++) {
        anim_json_writer_begin_object(w);
        identity(w, &imgs[i], imgs[i].src_mime);
        dimensions(w, imgs[i].src_width, imgs[i].src_height);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "emitted_textures");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < count; i++) {
        anim_json_writer_begin_object(w);
        identity(w, &imgs[i], imgs[i].mime);
        dimensions(w, imgs[i].width, imgs[i].height);
        anim_json_writer_key(w, "resized");
        anim_json_writer_bool(w, imgs[i].resized);
        anim_json_writer_key_uint(w, "emitted_bytes", imgs[i].byte_count);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);
}
