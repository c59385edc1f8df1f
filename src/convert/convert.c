/* anim_convert: read, edit the scene, project, write (convert.h). */
#include "animsmith/convert.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "animsmith/path.h"
#include "convert/convert_internal.h"

/* The source material names in material order (what a recipe matches). */
static const char **material_names(const anim_fbx_scene *scene)
{
    const char **names = anim_arena_calloc(scene->arena, scene->material_count + 1,
                                           sizeof(char *));
    if (names)
        for (uint32_t i = 0; i < scene->material_count; i++)
            names[i] = scene->materials[i].name;
    return names;
}

/* Attaches the recipe's images to the scene's materials, replacing what
 * the slots held. */
static int apply_recipe(anim_convert *c, bool *refusal, anim_error *err)
{
    anim_fbx_scene *sc = &c->fbx->scene;
    const char **names = material_names(sc);
    if (!names)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    if (anim_texture_recipe_apply(c->recipe, names, sc->material_count, sc->arena,
                                  &c->recipe_images, &c->recipe_image_count, err, refusal))
        return -1;
    uint32_t n = c->recipe_image_count;
    anim_fbx_image *images = anim_arena_calloc(sc->arena, sc->image_count + n + 1,
                                               sizeof *images);
    anim_fbx_texture *textures = anim_arena_calloc(sc->arena, sc->texture_count + n + 1,
                                                   sizeof *textures);
    if (!images || !textures)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    if (sc->image_count)
        memcpy(images, sc->images, sizeof *images * sc->image_count);
    if (sc->texture_count)
        memcpy(textures, sc->textures, sizeof *textures * sc->texture_count);
    for (uint32_t i = 0; i < n; i++) {
        const anim_texture_recipe_image *ri = &c->recipe_images[i];
        anim_fbx_image *im = &images[sc->image_count];
        im->name = ri->declared_path;
        im->bytes = ri->bytes;
        im->byte_count = ri->byte_count;
        im->mime_type = ri->mime;
        im->declared = ri->declared_path;
        anim_fbx_texture *tx = &textures[sc->texture_count];
        tx->name = ri->declared_path;
        tx->image = sc->image_count;
        /* Recipe slots are the first four material slots, in order. */
        anim_fbx_material *m = &sc->materials[ri->material_index];
        m->textures[ri->slot] = sc->texture_count;
        if (ri->slot == ANIM_TEXTURE_SLOT_NORMAL)
            m->normal_scale = 1.0;
        sc->image_count++;
        sc->texture_count++;
    }
    sc->images = images;
    sc->textures = textures;
    return 0;
}

static int prepare_fbx(anim_convert *c, const anim_load_options *load, bool *refusal,
                       anim_error *err)
{
    c->fbx = anim_fbx_read(c->input, load, err);
    if (!c->fbx)
        return -1;
    anim_fbx_scene *sc = &c->fbx->scene;
    if (c->opts.animation_only)
        anim_convert_animation_only(sc);
    if (c->opts.bake_static_mesh_transforms &&
        anim_convert_bake_static(sc, &c->bake, &c->bake_count, err)) {
        anim_error_prefix(err, "%s", c->input);
        return -1;
    }
    if (c->recipe && apply_recipe(c, refusal, err))
        return -1;
    c->asset = anim_fbx_to_asset(c->fbx, load, err);
    return c->asset ? 0 : -1;
}

anim_convert *anim_convert_prepare(const char *input, const anim_convert_options *opts,
                                   const anim_load_options *load, bool *asset_refusal,
                                   anim_error *err)
{
    *asset_refusal = false;
    anim_convert *c = calloc(1, sizeof *c);
    if (c)
        c->arena = anim_arena_new();
    if (!c || !c->arena) {
        free(c);
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    c->opts = *opts;
    c->input = anim_arena_strdup(c->arena, input);
    bool fbx = anim_path_has_extension(input, ".fbx");
    int rc = c->input ? 0 : anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    if (rc == 0 && !fbx && (opts->bake_static_mesh_transforms || opts->material_texture_recipe))
        rc = anim_error_set(err, ANIM_ERR_USAGE,
                            "%s: --bake-static-mesh-transforms and --material-texture-recipe "
                            "apply to FBX input; a glTF input is re-emitted as it is "
                            "(--animation-only applies to both)",
                            input);
    /* The recipe is the operator's own file: judged before the input. */
    if (rc == 0 && opts->material_texture_recipe)
        rc = anim_texture_recipe_load(opts->material_texture_recipe, c->arena, &c->recipe, err);
    if (rc == 0)
        rc = fbx ? prepare_fbx(c, load, asset_refusal, err)
                 : ((c->asset = anim_asset_load(input, load, err)) ? 0 : -1);
    if (rc) {
        anim_convert_free(c);
        return NULL;
    }
    return c;
}

const anim_asset *anim_convert_asset(const anim_convert *c)
{
    return c->asset;
}

static bool same_file(const struct stat *a, const char *path)
{
    struct stat b;
    return path && stat(path, &b) == 0 && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

const char *anim_convert_reads_file(const anim_convert *c, const char *path)
{
    struct stat st;
    if (!c->recipe || stat(path, &st) != 0)
        return NULL;
    if (same_file(&st, c->recipe->path))
        return "the material texture recipe";
    for (uint32_t e = 0; e < c->recipe->entry_count; e++)
        for (int k = 0; k < ANIM_TEXTURE_SLOT_COUNT; k++)
            if (same_file(&st, c->recipe->entries[e].resolved[k]))
                return "an image of the material texture recipe";
    return NULL;
}

/* A glTF input's skeleton and clips alone: a copy of its document without
 * meshes, skins, materials, textures, images or morph weight tracks, which
 * the document writer serializes on its own. */
static int write_gltf_animation_only(const anim_convert *c, const char *output,
                                     anim_gltf_write_summary *summary, anim_error *err)
{
    const anim_doc *src = &c->asset->doc;
    anim_doc doc = *src;
    doc.bones = anim_arena_calloc(c->arena, src->bone_count + 1, sizeof *doc.bones);
    doc.clips = anim_arena_calloc(c->arena, src->clip_count + 1, sizeof *doc.clips);
    if (!doc.bones || !doc.clips)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t b = 0; b < src->bone_count; b++) {
        doc.bones[b] = src->bones[b];
        doc.bones[b].mesh = doc.bones[b].skin = ANIM_NONE;
        doc.bones[b].has_inverse_bind = false;
    }
    for (uint32_t k = 0; k < src->clip_count; k++) {
        doc.clips[k] = src->clips[k];
        doc.clips[k].morph_track_count = 0;
    }
    doc.mesh_count = doc.skin_count = doc.material_count = 0;
    doc.texture_count = doc.image_count = 0;
    return anim_gltf_write_file(&doc, output, NULL, summary, err);
}

int anim_convert_write(anim_convert *c, const char *output, anim_gltf_write_summary *summary,
                       anim_error *err)
{
    if (!c->fbx && c->opts.animation_only)
        return write_gltf_animation_only(c, output, summary, err);
    return anim_gltf_write_asset_file(c->asset, NULL, output, NULL, summary, err);
}

void anim_convert_free(anim_convert *c)
{
    if (!c)
        return;
    anim_asset_free(c->asset);
    anim_fbx_loaded_free(c->fbx);
    anim_arena_free(c->arena);
    free(c);
}
