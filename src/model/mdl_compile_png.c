/* Materials, textures and images of a compile: one glTF material per
 * material ordinal the compiled faces use (in ordinal order; an undefined
 * ordinal gets the default 0.8 grey), base colour factor with metallic 0
 * and roughness 1, and a texture's pixels as an embedded PNG with one
 * shared linear sampler. The PNG comes from the deterministic encoder of
 * the texture recipes, so equal pixels give equal bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert/png_encode.h"
#include "model/mdl_compile_internal.h"

#define DEFAULT_GREY 0.8

#define GL_LINEAR 9729u

static int encode_png(cm_ctx *c, const mdl_texture *t, int32_t ord)
{
    size_t px = (size_t)t->width * t->height; /* sides <= 4096: no overflow */
    uint8_t *rgba = malloc(px * 4);
    if (!rgba)
        return cm_nomem(c);
    for (size_t i = 0; i < px; i++) {
        memcpy(rgba + 4 * i, t->rgb + 3 * i, 3);
        rgba[4 * i + 3] = 255;
    }
    uint8_t *png = NULL;
    size_t len = 0;
    anim_error err;
    memset(&err, 0, sizeof err);
    int rc = anim_texture_png_encode(rgba, t->width, t->height, &png, &len, &err);
    free(rgba);
    if (rc != 0)
        return cm_refuse(c, ANIM_MODEL_E_INTERNAL, "internal_error",
                         "material %d: the texture could not be encoded as PNG: %s", (int)ord,
                         err.message);
    uint32_t tex = (uint32_t)c->texture_index[ord];
    c->image_views[tex] = glb_add_view(&c->b, png, len, GLB_TARGET_NONE);
    free(png);
    return 0;
}

int cm_build_images(cm_ctx *c)
{
    uint32_t mats = 0, texs = 0;
    for (int32_t i = 0; i < MDL_MATERIAL_SLOTS; i++) {
        c->material_index[i] = -1;
        c->texture_index[i] = -1;
        if (!c->material_used[i])
            continue;
        c->material_index[i] = (int32_t)mats++;
        const mdl_material *m = &c->d->materials[i];
        if (m->defined && m->texture)
            c->texture_index[i] = (int32_t)texs++;
    }
    c->info->materials = mats;
    c->info->textures = texs;
    c->image_views = calloc(texs + 1, sizeof *c->image_views);
    if (!c->image_views)
        return cm_nomem(c);
    for (int32_t i = 0; i < MDL_MATERIAL_SLOTS; i++)
        if (c->texture_index[i] >= 0 && encode_png(c, c->d->materials[i].texture, i))
            return -1;
    return 0;
}

void cm_write_materials(cm_ctx *c, anim_json_writer *w)
{
    if (c->info->textures) {
        anim_json_writer_key(w, "images");
        anim_json_writer_begin_array(w);
        for (uint64_t t = 0; t < c->info->textures; t++) {
            anim_json_writer_begin_object(w);
            anim_json_writer_key_uint(w, "bufferView", c->image_views[t]);
            anim_json_writer_key(w, "mimeType");
            anim_json_writer_string(w, "image/png");
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
    }
    if (c->info->materials) {
        anim_json_writer_key(w, "materials");
        anim_json_writer_begin_array(w);
        for (int32_t i = 0; i < MDL_MATERIAL_SLOTS; i++) {
            if (c->material_index[i] < 0)
                continue;
            const mdl_material *m = &c->d->materials[i];
            char name[48];
            snprintf(name, sizeof name, m->defined ? "material %d" : "material %d (default)",
                     (int)i);
            double f[4] = {DEFAULT_GREY, DEFAULT_GREY, DEFAULT_GREY, 1};
            if (m->defined)
                for (int k = 0; k < 3; k++)
                    f[k] = m->color[k];
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "name");
            anim_json_writer_string(w, name);
            anim_json_writer_key(w, "pbrMetallicRoughness");
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "baseColorFactor");
            anim_json_writer_f64_array(w, f, 4);
            if (c->texture_index[i] >= 0) {
                anim_json_writer_key(w, "baseColorTexture");
                anim_json_writer_begin_object(w);
                anim_json_writer_key_uint(w, "index", (uint64_t)c->texture_index[i]);
                anim_json_writer_end_object(w);
            }
            anim_json_writer_key(w, "metallicFactor");
            anim_json_writer_uint(w, 0);
            anim_json_writer_key(w, "roughnessFactor");
            anim_json_writer_uint(w, 1);
            anim_json_writer_end_object(w);
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
    }
    if (c->info->textures) {
        anim_json_writer_key(w, "samplers");
        anim_json_writer_begin_array(w);
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "magFilter", GL_LINEAR);
        anim_json_writer_key_uint(w, "minFilter", GL_LINEAR);
        anim_json_writer_end_object(w);
        anim_json_writer_end_array(w);
        anim_json_writer_key(w, "textures");
        anim_json_writer_begin_array(w);
        for (uint64_t t = 0; t < c->info->textures; t++) {
            anim_json_writer_begin_object(w);
            anim_json_writer_key_uint(w, "sampler", 0);
            anim_json_writer_key_uint(w, "source", t);
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
    }
}
