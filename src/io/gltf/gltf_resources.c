/* The files an asset consists of (see resources.h). Buffers were resolved
 * by the loader; image URIs are resolved here the same way, without the
 * directory confinement, since an image is never read: the list only says
 * which files a writer must not replace. */
#include <stdio.h>

#include "animsmith/path.h"
#include "animsmith/resources.h"
#include "io/gltf/gltf_internal.h"

int anim_asset_resources(const anim_asset *asset, anim_arena *arena, anim_resource **out,
                         uint32_t *count, anim_error *err)
{
    const anim_source *src = &asset->source;
    const anim_doc *doc = &asset->doc;
    size_t cap = 1 + (size_t)src->buffer_count + doc->image_count;
    anim_resource *list = anim_arena_calloc(arena, cap, sizeof *list);
    const char *base_dir = src->base_dir;
    if (!list)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    uint32_t n = 0;
    list[n++] = (anim_resource){ANIM_RESOURCE_FILE, 0, NULL, src->path};
    for (uint32_t b = 0; b < src->buffer_count; b++)
        if (src->buffers[b].kind == ANIM_BUFFER_EXTERNAL && src->buffers[b].path)
            list[n++] = (anim_resource){ANIM_RESOURCE_BUFFER, b, src->buffers[b].uri,
                                        src->buffers[b].path};
    for (uint32_t i = 0; i < doc->image_count; i++) {
        const anim_image *img = &doc->images[i];
        if (img->source != ANIM_IMAGE_URI_FILE || !img->uri)
            continue;
        char ctx[32];
        snprintf(ctx, sizeof ctx, "image %u", i);
        anim_error ignored;
        anim_error_clear(&ignored);
        const char *path = gltf_resolve_uri_path(arena, base_dir, img->uri, false, ctx, &ignored);
        if (path)
            list[n++] = (anim_resource){ANIM_RESOURCE_IMAGE, i, img->uri, path};
        else if (ignored.code == ANIM_ERR_NOMEM)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    *out = list;
    *count = n;
    return 0;
}
