/* The dependency closure of one load: every file the prediction rests on.
 * The primary file's identity is of the bytes parsed; an external buffer
 * is hashed from the bytes the loader read (nothing is opened twice); an
 * image file a URI names is read here for its digest, because the loader
 * never reads images. A file that cannot be read keeps its row without a
 * digest and makes the closure partial: evidence kept honestly, not a
 * claim about what an engine would do with it. FBX input is one file. */
#include <string.h>

#include "animsmith/hash.h"
#include "animsmith/resources.h"
#include "engine/engine_internal.h"

static void primary_row(const anim_source *src, engine_closure_file *f)
{
    f->role = "primary";
    f->path = src->path;
    anim_sha256_hex(src->input_bytes, src->input_byte_count, f->sha256);
    f->bytes = src->input_byte_count;
    f->readable = true;
}

int engine_closure_build(const anim_asset *asset, anim_arena *arena, engine_closure *out,
                         anim_error *err)
{
    const anim_source *src = &asset->source;
    memset(out, 0, sizeof *out);
    out->state = "complete";
    if (src->fbx) {
        out->files = anim_arena_calloc(arena, 1, sizeof *out->files);
        if (!out->files)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        primary_row(src, &out->files[0]);
        out->count = 1;
        return 0;
    }
    anim_resource *list = NULL;
    uint32_t n = 0;
    if (anim_asset_resources(asset, arena, &list, &n, err))
        return -1;
    /* Image URIs the resource list leaves out (they resolve to no path)
     * still belong to the closure, unread. */
    size_t cap_rows = (size_t)n + asset->doc.image_count + 1;
    out->files = anim_arena_calloc(arena, cap_rows, sizeof *out->files);
    if (!out->files)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    uint64_t cap = anim_limits_get(&asset->doc.limits, ANIM_LIMIT_FILE);
    bool partial = false;
    for (uint32_t i = 0; i < n; i++) {
        const anim_resource *r = &list[i];
        engine_closure_file *f = &out->files[out->count++];
        f->index = r->index;
        f->uri = r->uri;
        if (r->kind == ANIM_RESOURCE_FILE) {
            primary_row(src, f);
            f->uri = NULL;
        } else if (r->kind == ANIM_RESOURCE_BUFFER) {
            const anim_buffer *b = &src->buffers[r->index];
            f->role = "buffer";
            anim_sha256_hex(b->data, b->data_length, f->sha256);
            f->bytes = b->data_length;
            f->readable = true;
        } else {
            f->role = "image";
            f->readable = anim_sha256_file_hex(r->path, cap, f->sha256, &f->bytes) == 0;
            if (!f->readable) {
                f->sha256[0] = '\0';
                f->bytes = 0;
                partial = true;
            }
        }
    }
    if (out->count == 0 || strcmp(out->files[0].role, "primary") != 0) {
        /* The resource list always starts with the file itself; keep the
         * primary row first even if it ever does not. */
        memmove(out->files + 1, out->files, out->count * sizeof *out->files);
        memset(&out->files[0], 0, sizeof out->files[0]);
        primary_row(src, &out->files[0]);
        out->count++;
    }
    for (uint32_t i = 0; i < asset->doc.image_count; i++) {
        const anim_image *img = &asset->doc.images[i];
        if (img->source != ANIM_IMAGE_URI_FILE || !img->uri)
            continue;
        bool listed = false;
        for (uint32_t k = 0; k < n && !listed; k++)
            listed = list[k].kind == ANIM_RESOURCE_IMAGE && list[k].index == i;
        if (listed || out->count >= cap_rows)
            continue;
        engine_closure_file *f = &out->files[out->count++];
        f->role = "image";
        f->index = i;
        f->uri = img->uri;
        partial = true;
    }
    /* Rows by role (primary, buffers, images), each role by index: an
     * unresolved image joins the images in index order. */
    for (uint32_t i = 2; i < out->count; i++)
        for (uint32_t k = i; k > 1; k--) {
            engine_closure_file *a = &out->files[k - 1], *b = &out->files[k];
            if (strcmp(a->role, b->role) != 0 || a->index < b->index)
                break;
            engine_closure_file t = *a;
            *a = *b;
            *b = t;
        }
    if (partial)
        out->state = "partial";
    return 0;
}
