/* Applying a loaded recipe to an asset: the exact-name match of recipe
 * entries to source materials (a one-to-one fit or an asset refusal), then
 * the images in source-material and slot order, each either its original
 * bytes (within max_dimension: never decoded) or a role-aware resize
 * encoded as PNG. The same file used twice in the same role is processed
 * once, which also keeps both uses identical if the file changes under us. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/names.h"
#include "convert/texture_internal.h"
#include "io/file_read.h"

#define NO_ENTRY UINT32_MAX

static int refuse(anim_error *err, bool *asset_refusal, const anim_texture_recipe *r,
                  const char *what)
{
    *asset_refusal = true;
    return anim_error_set(err, ANIM_ERR_INVALID, "recipe %s does not fit the asset: %s", r->path,
                          what);
}

/* First position in the name-ordered index whose name is >= key. */
static uint32_t lower_bound(const char *const *names, const uint32_t *order, uint32_t n,
                            const char *key)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (strcmp(names[order[mid]], key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* match[i] = the recipe entry of source material i. */
static int fit(const anim_texture_recipe *r, const char *const *names, uint32_t n,
               uint32_t *match, anim_error *err, bool *asset_refusal)
{
    uint32_t named = 0;
    uint32_t *order = n ? anim_names_order(names, n, &named) : NULL;
    if (n && !order)
        return anim_error_set(err, ANIM_ERR_NOMEM, "recipe %s: out of memory", r->path);
    char what[ANIM_ERROR_MESSAGE_MAX / 2];
    int rc = 0;
    for (uint32_t i = 0; i < n; i++)
        match[i] = NO_ENTRY;
    for (uint32_t e = 0; e < r->entry_count && rc == 0; e++) {
        const char *name = r->entries[e].name;
        uint32_t at = lower_bound(names, order, named, name);
        if (at == named || strcmp(names[order[at]], name) != 0) {
            snprintf(what, sizeof what, "materials[%u].name \"%s\" matches no source material",
                     (unsigned)e, name);
            rc = refuse(err, asset_refusal, r, what);
        } else if (at + 1 < named && strcmp(names[order[at + 1]], name) == 0) {
            snprintf(what, sizeof what,
                     "materials[%u].name \"%s\" is ambiguous: source materials %u and %u are "
                     "both named so",
                     (unsigned)e, name, (unsigned)order[at], (unsigned)order[at + 1]);
            rc = refuse(err, asset_refusal, r, what);
        } else {
            match[order[at]] = e;
        }
    }
    free(order);
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        if (match[i] != NO_ENTRY)
            continue;
        if (names[i])
            snprintf(what, sizeof what, "source material %u \"%s\" is missing from the recipe",
                     (unsigned)i, names[i]);
        else
            snprintf(what, sizeof what,
                     "source material %u has no name, so the recipe cannot name it", (unsigned)i);
        rc = refuse(err, asset_refusal, r, what);
    }
    return rc;
}

/* Resizes decoded pixels and encodes the result, into the arena. */
static int resize_encode(const uint8_t *bytes, size_t len, const anim_texture_info *info,
                         int slot, uint32_t max_dim, const char *what, anim_arena *arena,
                         anim_texture_recipe_image *img, anim_error *err)
{
    uint8_t *src = NULL, *dst = NULL, *png = NULL;
    size_t png_len = 0, dst_len = 0;
    uint32_t dw, dh;
    anim_texture_fit_size(info->width, info->height, max_dim, &dw, &dh);
    int rc = anim_texture_decode(bytes, len, info, what, &src, err);
    if (rc == 0 && (!anim_size_mul((size_t)dw * 4, dh, &dst_len) || !(dst = malloc(dst_len))))
        rc = anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", what);
    if (rc == 0)
        rc = anim_texture_resize(src, info->width, info->height, dst, dw, dh,
                                 anim_texture_slot_role(slot), err);
    if (rc == 0)
        rc = anim_texture_png_encode(dst, dw, dh, &png, &png_len, err);
    uint8_t *copy = NULL;
    if (rc == 0 && !(copy = anim_arena_alloc(arena, png_len)))
        rc = anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", what);
    if (rc == 0) {
        memcpy(copy, png, png_len);
        img->bytes = copy;
        img->byte_count = png_len;
        img->mime = "image/png";
        img->width = dw;
        img->height = dh;
        img->resized = true;
    }
    free(src);
    free(dst);
    free(png);
    return rc;
}

static int produce(const anim_texture_recipe *r, uint32_t e, int slot, anim_arena *arena,
                   anim_texture_recipe_image *img, anim_error *err)
{
    const anim_texture_recipe_entry *en = &r->entries[e];
    char what[ANIM_ERROR_MESSAGE_MAX / 2];
    snprintf(what, sizeof what, "materials[%u].%s \"%s\"", (unsigned)e,
             anim_texture_slot_name(slot), en->declared[slot]);
    /* The source lives in a scratch arena: only what is emitted stays. */
    anim_arena *scratch = anim_arena_new();
    uint8_t *bytes = NULL;
    size_t len = 0;
    anim_texture_info info;
    int rc = scratch ? anim_read_file(en->resolved[slot], ANIM_TEXTURE_MAX_FILE_BYTES, scratch,
                                      &bytes, &len, err)
                     : anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", what);
    if (rc == 0)
        rc = anim_texture_probe(bytes, len, what, &info, err);
    if (rc == 0) {
        img->src_width = info.width;
        img->src_height = info.height;
        img->src_mime = info.mime;
    }
    if (rc == 0 && info.width <= r->max_dimension && info.height <= r->max_dimension) {
        uint8_t *copy = anim_arena_alloc(arena, len);
        if (!copy) {
            rc = anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", what);
        } else {
            memcpy(copy, bytes, len);
            img->bytes = copy;
            img->byte_count = len;
            img->mime = info.mime;
            img->width = info.width;
            img->height = info.height;
            img->resized = false;
        }
    } else if (rc == 0) {
        rc = resize_encode(bytes, len, &info, slot, r->max_dimension, what, arena, img, err);
    }
    anim_arena_free(scratch);
    if (rc < 0)
        anim_error_prefix(err, "bad recipe %s: line %u column %u", r->path,
                          (unsigned)en->slot_line[slot], (unsigned)en->slot_column[slot]);
    return rc;
}

/* An earlier image of the same file in the same role, or NULL. */
static const anim_texture_recipe_image *
same_work(const anim_texture_recipe *r, const anim_texture_recipe_image *imgs,
          const uint32_t *img_entry, uint32_t n, uint32_t e, int slot)
{
    const char *path = r->entries[e].resolved[slot];
    anim_resize_role role = anim_texture_slot_role(slot);
    for (uint32_t k = 0; k < n; k++)
        if (anim_texture_slot_role(imgs[k].slot) == role &&
            strcmp(r->entries[img_entry[k]].resolved[imgs[k].slot], path) == 0)
            return &imgs[k];
    return NULL;
}

int anim_texture_recipe_apply(const anim_texture_recipe *r, const char *const *material_names,
                              uint32_t material_count, anim_arena *arena,
                              anim_texture_recipe_image **out, uint32_t *count, anim_error *err,
                              bool *asset_refusal)
{
    *out = NULL;
    *count = 0;
    *asset_refusal = false;
    uint32_t *match = malloc(sizeof *match * (material_count ? material_count : 1));
    if (!match)
        return anim_error_set(err, ANIM_ERR_NOMEM, "recipe %s: out of memory", r->path);
    if (fit(r, material_names, material_count, match, err, asset_refusal) < 0) {
        free(match);
        return -1;
    }
    /* The fit is one-to-one, so the images number at most four per entry. */
    size_t cap = (size_t)r->entry_count * ANIM_TEXTURE_SLOT_COUNT;
    anim_texture_recipe_image *imgs = anim_arena_calloc(arena, cap, sizeof *imgs);
    uint32_t *img_entry = malloc(sizeof *img_entry * cap);
    uint32_t n = 0;
    int rc = 0;
    if (!imgs || !img_entry)
        rc = anim_error_set(err, ANIM_ERR_NOMEM, "recipe %s: out of memory", r->path);
    for (uint32_t i = 0; i < material_count && rc == 0; i++) {
        uint32_t e = match[i];
        for (int s = 0; s < ANIM_TEXTURE_SLOT_COUNT && rc == 0; s++) {
            if (!r->entries[e].resolved[s])
                continue;
            anim_texture_recipe_image *img = &imgs[n];
            const anim_texture_recipe_image *prev = same_work(r, imgs, img_entry, n, e, s);
            if (prev)
                *img = *prev;
            else
                rc = produce(r, e, s, arena, img, err);
            img->material_index = i;
            img->material_name = material_names[i];
            img->slot = s;
            img->declared_path = r->entries[e].declared[s];
            img_entry[n++] = e;
        }
    }
    free(match);
    free(img_entry);
    if (rc < 0)
        return -1;
    *out = imgs;
    *count = n;
    return 0;
}
