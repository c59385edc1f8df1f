/* The projection's images, textures and materials. A linked image is
 * read only inside the FBX file's directory (resolved through symbolic
 * links) and within the size budget; only PNG and JPEG are carried. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/path.h"
#include "io/fbx/fbx_gltf_internal.h"
#include "io/file_read.h"
#include "io/gltf/gltf_internal.h"

/* PNG or JPEG by the bytes' signature (the only image types carried). */
static const char *sniff_mime(const uint8_t *b, size_t n)
{
    const char *mime = gltf_image_sniff_mime(b, n);
    return mime && (!strcmp(mime, "image/png") || !strcmp(mime, "image/jpeg")) ? mime : NULL;
}

/* The bytes of a linked image, when it may be read: inside the FBX's
 * directory (when confined) and within the size budget. */
static int linked_image(gl_ctx *c, const anim_fbx_image *im, uint8_t **bytes, size_t *len,
                        anim_error *err)
{
    *bytes = NULL;
    *len = 0;
    if (!im->path)
        return 0;
    if (c->opts->confine_uris && c->scene->base_dir) {
        char base[PATH_MAX], real[PATH_MAX];
        if (!realpath(c->scene->base_dir, base) || !realpath(im->path, real) ||
            !anim_path_within(base, real))
            return anim_fbx_scene_note(c->scene, err,
                                       "texture file \"%s\" is outside the FBX file's directory "
                                       "and was not embedded",
                                       im->declared ? im->declared : im->path);
    }
    anim_error e;
    uint8_t *data;
    size_t n;
    if (anim_read_file(im->path, c->opts->max_image_bytes, c->scene->arena, &data, &n, &e))
        return anim_fbx_scene_note(c->scene, err, "texture file \"%s\" was not embedded: %s",
                                   im->declared ? im->declared : im->path, e.message);
    *bytes = data;
    *len = n;
    return 0;
}

int gl_image_views(gl_ctx *c, anim_error *err)
{
    anim_fbx_scene *sc = c->scene;
    uint32_t n = sc->image_count ? sc->image_count : 1;
    c->image_view = anim_arena_calloc(sc->arena, n, sizeof(uint32_t));
    c->image_mime = anim_arena_calloc(sc->arena, n, sizeof(char *));
    c->image_index = anim_arena_calloc(sc->arena, n, sizeof(uint32_t));
    uint32_t tn = sc->texture_count ? sc->texture_count : 1;
    c->texture_index = anim_arena_calloc(sc->arena, tn, sizeof(uint32_t));
    if (!c->image_view || !c->image_mime || !c->image_index || !c->texture_index)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < sc->image_count; i++) {
        const anim_fbx_image *im = &sc->images[i];
        const uint8_t *bytes = im->bytes;
        size_t len = im->byte_count;
        uint8_t *linked = NULL;
        if (!bytes) {
            if (linked_image(c, im, &linked, &len, err))
                return -1;
            bytes = linked;
        }
        const char *mime = bytes ? sniff_mime(bytes, len) : NULL;
        c->image_view[i] = c->image_index[i] = ANIM_NONE;
        if (bytes && !mime) {
            const char *shown = im->declared ? im->declared : gl_json_name(c, im->name);
            if (anim_fbx_scene_note(sc, err,
                                    "texture \"%s\" is neither PNG nor JPEG and was not carried",
                                    shown))
                return -1;
            continue;
        }
        if (!bytes)
            continue;
        c->image_view[i] = glb_add_view(&c->buf, bytes, len, GLB_TARGET_NONE);
        c->image_mime[i] = mime;
        c->image_index[i] = c->gltf_image_count++;
    }
    for (uint32_t t = 0; t < sc->texture_count; t++) {
        uint32_t im = sc->textures[t].image;
        c->texture_index[t] = im != ANIM_NONE && im < sc->image_count &&
                                      c->image_index[im] != ANIM_NONE
                                  ? c->gltf_texture_count++
                                  : ANIM_NONE;
    }
    return 0;
}

void gl_write_images(gl_ctx *c, anim_json_writer *w)
{
    const anim_fbx_scene *sc = c->scene;
    if (!c->gltf_image_count)
        return;
    anim_json_writer_key(w, "images");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < sc->image_count; i++) {
        if (c->image_index[i] == ANIM_NONE)
            continue;
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "bufferView", c->image_view[i]);
        anim_json_writer_key(w, "mimeType");
        anim_json_writer_string(w, c->image_mime[i]);
        if (sc->images[i].name && *sc->images[i].name) {
            anim_json_writer_key(w, "name");
            anim_json_writer_string(w, gl_json_name(c, sc->images[i].name));
        }
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "samplers");
    anim_json_writer_begin_array(w);
    anim_json_writer_begin_object(w);
    anim_json_writer_end_object(w);
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "textures");
    anim_json_writer_begin_array(w);
    for (uint32_t t = 0; t < sc->texture_count; t++) {
        if (c->texture_index[t] == ANIM_NONE)
            continue;
        anim_json_writer_begin_object(w);
        if (sc->textures[t].name && *sc->textures[t].name) {
            anim_json_writer_key(w, "name");
            anim_json_writer_string(w, gl_json_name(c, sc->textures[t].name));
        }
        anim_json_writer_key_uint(w, "sampler", 0);
        anim_json_writer_key_uint(w, "source", c->image_index[sc->textures[t].image]);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}

static void texture_ref(gl_ctx *c, anim_json_writer *w, const char *key, uint32_t texture,
                        const char *scale_key, double scale)
{
    if (texture == ANIM_NONE || texture >= c->scene->texture_count ||
        c->texture_index[texture] == ANIM_NONE)
        return;
    anim_json_writer_key(w, key);
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "index", c->texture_index[texture]);
    if (scale_key && scale != 1.0) {
        anim_json_writer_key(w, scale_key);
        anim_json_writer_f64(w, scale);
    }
    anim_json_writer_end_object(w);
}

static double clamp01(double v)
{
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

void gl_write_materials(gl_ctx *c, anim_json_writer *w)
{
    const anim_fbx_scene *sc = c->scene;
    if (!sc->material_count)
        return;
    anim_json_writer_key(w, "materials");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < sc->material_count; i++) {
        const anim_fbx_material *m = &sc->materials[i];
        anim_json_writer_begin_object(w);
        double emissive[3];
        for (int k = 0; k < 3; k++)
            emissive[k] = clamp01(m->emissive[k]);
        if (!gl_is_default(emissive, 3, 0.0, 99)) {
            anim_json_writer_key(w, "emissiveFactor");
            anim_json_writer_f64_array(w, emissive, 3);
        }
        texture_ref(c, w, "emissiveTexture", m->textures[4], NULL, 1.0);
        anim_json_writer_key(w, "name");
        anim_json_writer_string(w, gl_json_name(c, m->name));
        texture_ref(c, w, "normalTexture", m->textures[1], "scale", m->normal_scale);
        texture_ref(c, w, "occlusionTexture", m->textures[3], NULL, 1.0);
        anim_json_writer_key(w, "pbrMetallicRoughness");
        anim_json_writer_begin_object(w);
        double base[4];
        for (int k = 0; k < 4; k++)
            base[k] = clamp01(m->base_color[k]);
        anim_json_writer_key(w, "baseColorFactor");
        anim_json_writer_f64_array(w, base, 4);
        texture_ref(c, w, "baseColorTexture", m->textures[0], NULL, 1.0);
        anim_json_writer_key(w, "metallicFactor");
        anim_json_writer_f64(w, clamp01(m->metallic));
        texture_ref(c, w, "metallicRoughnessTexture", m->textures[2], NULL, 1.0);
        anim_json_writer_key(w, "roughnessFactor");
        anim_json_writer_f64(w, clamp01(m->roughness));
        anim_json_writer_end_object(w);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}

