/* The material operations: material (define or replace a base colour,
 * dropping any texture), texture_solid (a new solid RGB8 texture on a
 * defined material) and paint_texture (a disc of colour in UV space).
 * They are document-level: their result row names no object. Textures
 * are shared between document versions, so painting edits a private copy
 * (mdl_material_edit_texture). */
#include <math.h>
#include <stdint.h>

#include "animsmith/model.h"
#include "model/mdl_ops.h"

static const mdl_field material_fields[] = {
    {.name = "material", .type = MDL_F_INTEGER, .required = true, .min = 0,
     .max = MDL_MATERIAL_SLOTS - 1, .description = "material ordinal 0-511"},
    {.name = "color", .type = MDL_F_VEC3, .required = true, .min = 0, .max = 1,
     .description = "linear RGB base colour, each 0-1"},
    {.name = NULL},
};

static int run_material(mdl_ctx *ctx, const anim_json_value *op)
{
    int32_t ord = (int32_t)mdl_field_int(op, "material", 0);
    mdl_material *m = &ctx->doc->materials[ord];
    if (!m->defined) {
        uint32_t defined = 0;
        for (size_t i = 0; i < MDL_MATERIAL_SLOTS; i++)
            defined += ctx->doc->materials[i].defined;
        if (defined >= ctx->limits->max_materials)
            return mdl_refuse(ctx, "limit_exceeded",
                              "material %d: the document already defines max_materials (%u) "
                              "materials",
                              (int)ord, ctx->limits->max_materials);
    }
    if (mdl_spend(ctx, 1))
        return -1;
    double c[3];
    mdl_field_vec(op, "color", c, 3);
    mdl_texture_release(m->texture);
    m->texture = NULL;
    m->defined = true;
    for (int k = 0; k < 3; k++)
        m->color[k] = c[k];
    return 0;
}

const mdl_op_def mdl_op_material = {
    .op = "material",
    .mesh_edit = false,
    .fields = material_fields,
    .description = "Defines or replaces a material's base colour; any texture is dropped.",
    .run = run_material,
};

/* ---- texture_solid */

static const mdl_field texture_solid_fields[] = {
    {.name = "material", .type = MDL_F_INTEGER, .required = true, .min = 0,
     .max = MDL_MATERIAL_SLOTS - 1, .description = "a defined material ordinal"},
    {.name = "width", .type = MDL_F_INTEGER, .required = true, .min = 1,
     .max = MDL_TEXTURE_SIDE_MAX, .description = "pixels, 1-4096"},
    {.name = "height", .type = MDL_F_INTEGER, .required = true, .min = 1,
     .max = MDL_TEXTURE_SIDE_MAX, .description = "pixels, 1-4096"},
    {.name = "color", .type = MDL_F_RGB8, .required = true,
     .description = "RGB byte triple (sRGB-encoded texels)"},
    {.name = NULL},
};

static void rgb8(const anim_json_value *op, uint8_t out[3])
{
    double c[3];
    mdl_field_vec(op, "color", c, 3);
    for (int k = 0; k < 3; k++)
        out[k] = (uint8_t)c[k];
}

static int run_texture_solid(mdl_ctx *ctx, const anim_json_value *op)
{
    int32_t ord = (int32_t)mdl_field_int(op, "material", 0);
    uint32_t w = (uint32_t)mdl_field_int(op, "width", 1);
    uint32_t h = (uint32_t)mdl_field_int(op, "height", 1);
    mdl_material *m = &ctx->doc->materials[ord];
    if (!m->defined)
        return mdl_refuse(ctx, "undefined_material",
                          "material %d is not defined (define it with the material operation)",
                          (int)ord);
    /* w, h <= 4096, so the product cannot overflow 64 bits. */
    uint64_t bytes = (uint64_t)w * h * 3;
    if (bytes > ctx->limits->max_memory_bytes)
        return mdl_refuse(ctx, "limit_exceeded",
                          "material %d: a %ux%u texture needs %llu bytes, over max_memory_bytes "
                          "(%llu)",
                          (int)ord, w, h, (unsigned long long)bytes,
                          (unsigned long long)ctx->limits->max_memory_bytes);
    uint64_t px = (uint64_t)w * h;
    if (mdl_spend(ctx, 1 + px / 64))
        return -1;
    mdl_texture *t = mdl_texture_new(w, h);
    if (!t)
        return mdl_nomem(ctx);
    uint8_t c[3];
    rgb8(op, c);
    for (uint64_t i = 0; i < px; i++) {
        t->rgb[i * 3] = c[0];
        t->rgb[i * 3 + 1] = c[1];
        t->rgb[i * 3 + 2] = c[2];
    }
    mdl_texture_release(m->texture);
    m->texture = t;
    return 0;
}

const mdl_op_def mdl_op_texture_solid = {
    .op = "texture_solid",
    .mesh_edit = false,
    .fields = texture_solid_fields,
    .description = "Gives a defined material a new solid-colour RGB8 texture.",
    .run = run_texture_solid,
};

/* ---- paint_texture */

static const mdl_field paint_fields[] = {
    {.name = "material", .type = MDL_F_INTEGER, .required = true, .min = 0,
     .max = MDL_MATERIAL_SLOTS - 1, .description = "a material ordinal with a texture"},
    {.name = "center", .type = MDL_F_VEC2, .required = true, .min = 0, .max = 1,
     .description = "normalized UV, top-left origin, each 0-1"},
    {.name = "radius", .type = MDL_F_NUMBER, .required = true, .min = 0, .max = 1,
     .min_open = true, .description = "normalized UV distance, (0, 1]"},
    {.name = "color", .type = MDL_F_RGB8, .required = true, .description = "RGB byte triple"},
    {.name = NULL},
};

static int run_paint_texture(mdl_ctx *ctx, const anim_json_value *op)
{
    int32_t ord = (int32_t)mdl_field_int(op, "material", 0);
    mdl_material *m = &ctx->doc->materials[ord];
    if (!m->defined || !m->texture)
        return mdl_refuse(ctx, "no_texture", "material %d has no texture to paint (use "
                          "texture_solid first)", (int)ord);
    double center[2];
    mdl_field_vec(op, "center", center, 2);
    double r = mdl_field_f64(op, "radius", 1);
    uint8_t c[3];
    rgb8(op, c);
    uint32_t w = m->texture->width, h = m->texture->height;
    if (mdl_spend(ctx, 1 + (uint64_t)w * h / 64))
        return -1;
    mdl_texture *t = mdl_material_edit_texture(m);
    if (!t)
        return mdl_nomem(ctx);
    double r2 = r * r;
    for (uint32_t y = 0; y < h; y++) {
        double dv = ((double)y + 0.5) / h - center[1];
        if (dv * dv > r2)
            continue;
        for (uint32_t x = 0; x < w; x++) {
            double du = ((double)x + 0.5) / w - center[0];
            if (du * du + dv * dv > r2)
                continue;
            uint8_t *p = t->rgb + ((size_t)y * w + x) * 3;
            p[0] = c[0];
            p[1] = c[1];
            p[2] = c[2];
        }
    }
    return 0;
}

const mdl_op_def mdl_op_paint_texture = {
    .op = "paint_texture",
    .mesh_edit = false,
    .fields = paint_fields,
    .description = "Paints every texel whose centre lies within radius of center (UV units).",
    .run = run_paint_texture,
};
