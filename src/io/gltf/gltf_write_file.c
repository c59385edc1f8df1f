/* Writing a document to a path: the file atomically, and for a .gltf the
 * images it names by URI beside it.
 *
 * A .gltf output keeps its images as files, so a copy written to another
 * directory must carry them along (creating the folders their URIs name).
 * The images and the .gltf are written all or nothing: when a later file
 * fails, the files and folders this write created are removed again. A
 * file already at an image's place is left alone when it is the same file
 * or holds the same bytes, and otherwise the write is refused before
 * anything is written: replacing a file the user did not name would lose
 * data. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "animsmith/atomic_write.h"
#include "animsmith/file_id.h"
#include "animsmith/gltf_write.h"
#include "animsmith/path.h"
#include "io/gltf/gltf_internal.h"
#include "io/gltf/gltf_write_internal.h"

typedef struct sidecar {
    const char *dest;
    const uint8_t *data;
    size_t len;
    bool skip; /* already there */
} sidecar;

static int plan_sidecar(const anim_asset *asset, uint32_t i, const char *in_dir,
                        const char *out_dir, anim_arena *arena, sidecar *sc, anim_error *err)
{
    const anim_image *img = &asset->doc.images[i];
    char ctx[32];
    snprintf(ctx, sizeof ctx, "image %u", i);
    char *from = gltf_resolve_uri_path(arena, in_dir, img->uri, true, ctx, err);
    sc->dest = from ? gltf_resolve_uri_path(arena, out_dir, img->uri, true, ctx, err) : NULL;
    if (!sc->dest)
        return -1;
    uint8_t *bytes;
    if (anim_same_file(arena, from, sc->dest)) {
        sc->skip = true;
        return 0;
    }
    size_t cap = anim_limits_get(&asset->source.limits, ANIM_LIMIT_FILE);
    if (anim_read_file(from, cap, arena, &bytes, &sc->len, err))
    {
        anim_error_prefix(err, "%s", ctx);
        return -1;
    }
    sc->data = bytes;
    struct stat st;
    if (stat(sc->dest, &st) != 0)
        return 0;
    uint8_t *there;
    size_t there_len;
    anim_error e;
    anim_error_clear(&e);
    if (anim_read_file(sc->dest, sc->len + 1, arena, &there, &there_len, &e) == 0 &&
        there_len == sc->len && memcmp(there, sc->data, sc->len) == 0) {
        sc->skip = true;
        return 0;
    }
    return anim_error_set(err, ANIM_ERR_IO,
                          "%s: %s already exists and differs from the image the document names; "
                          "refusing to replace it (write a .glb, or into another directory)",
                          ctx, sc->dest);
}

/* An image named like the output itself would be overwritten by it. */
static int check_not_output(anim_arena *arena, const sidecar *sc, uint32_t image,
                            const char *path, anim_error *err)
{
    if (anim_same_file(arena, sc->dest, path))
        return anim_error_set(err, ANIM_ERR_USAGE,
                              "image %u: its file %s is the output itself; choose another output "
                              "name",
                              image, sc->dest);
    return 0;
}

/* What a write created, undone when a later part of it fails, so a failed
 * write leaves no file behind (files that were there are never touched). */
typedef struct created {
    const char **paths; /* files and directories, in creation order */
    bool *is_dir;
    uint32_t count, cap;
} created;

static bool remember(anim_arena *arena, created *c, const char *path, bool dir)
{
    if (c->count == c->cap) {
        uint32_t cap = c->cap ? c->cap * 2 : 8;
        const char **paths = anim_arena_calloc(arena, cap, sizeof *paths);
        bool *is_dir = anim_arena_calloc(arena, cap, sizeof *is_dir);
        if (!paths || !is_dir)
            return false;
        if (c->count) {
            memcpy(paths, c->paths, c->count * sizeof *paths);
            memcpy(is_dir, c->is_dir, c->count * sizeof *is_dir);
        }
        c->paths = paths;
        c->is_dir = is_dir;
        c->cap = cap;
    }
    c->paths[c->count] = anim_arena_strdup(arena, path);
    c->is_dir[c->count] = dir;
    return c->paths[c->count++] != NULL;
}

static void undo(const created *c)
{
    for (uint32_t i = c->count; i-- > 0;) {
        if (c->is_dir[i])
            rmdir(c->paths[i]);
        else
            unlink(c->paths[i]);
    }
}

/* Creates the folders of dest below out_dir that do not exist yet (an
 * image URI may name a subfolder, "textures/skin.png"). */
static int make_parents(anim_arena *arena, const char *out_dir, const char *dest, created *c,
                        anim_error *err)
{
    size_t base = strlen(out_dir) + 1;
    char *p = anim_arena_strdup(arena, dest);
    if (!p)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (char *slash = strchr(p + base, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        struct stat st;
        if (stat(p, &st) != 0) {
            if (mkdir(p, 0777) != 0)
                return anim_error_set(err, ANIM_ERR_IO, "%s: cannot create the folder: %s", p,
                                      strerror(errno));
            if (!remember(arena, c, p, true))
                return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        } else if (!S_ISDIR(st.st_mode)) {
            return anim_error_set(err, ANIM_ERR_IO, "%s: not a folder", p);
        }
        *slash = '/';
    }
    return 0;
}

/* The image files beside a .gltf output, then the output itself; all or
 * nothing. */
static int write_gltf_with_images(const anim_asset *asset, const char *path, const char *bytes,
                                  size_t len, anim_error *err)
{
    const anim_doc *doc = &asset->doc;
    uint32_t n = 0;
    for (uint32_t i = 0; i < doc->image_count; i++)
        n += doc->images[i].source == ANIM_IMAGE_URI_FILE && doc->images[i].uri;
    anim_arena *arena = anim_arena_new();
    sidecar *list = arena ? anim_arena_calloc(arena, n + 1, sizeof *list) : NULL;
    /* NULL for a document from memory without a directory: resolving
     * its image URIs then fails, naming the image. */
    const char *in_dir = asset->source.base_dir;
    const char *out_dir = arena ? anim_path_dirname(arena, path) : NULL;
    created made = {NULL, NULL, 0, 0};
    int rc = -1;
    if (!list || !out_dir) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        goto done;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < doc->image_count; i++)
        if (doc->images[i].source == ANIM_IMAGE_URI_FILE && doc->images[i].uri) {
            if (plan_sidecar(asset, i, in_dir, out_dir, arena, &list[k], err) ||
                check_not_output(arena, &list[k], i, path, err))
                goto done;
            k++;
        }
    for (k = 0; k < n; k++) {
        if (list[k].skip)
            continue;
        if (make_parents(arena, out_dir, list[k].dest, &made, err) ||
            anim_write_file_atomic(list[k].dest, list[k].data, list[k].len, err))
            goto undo;
        if (!remember(arena, &made, list[k].dest, false)) {
            anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
            goto undo;
        }
    }
    if (anim_write_file_atomic(path, bytes, len, err) == 0) {
        rc = 0;
        goto done;
    }
undo:
    undo(&made);
done:
    anim_arena_free(arena);
    return rc;
}

static int write_out(const anim_asset *asset, const anim_doc *doc, const char *path,
                     const char *generator, const anim_gltf_prim_override *overrides,
                     uint32_t override_count, anim_gltf_write_summary *summary,
                     anim_error *err)
{
    anim_gltf_format format = anim_gltf_format_for_path(path);
    anim_strbuf head = ANIM_STRBUF_INIT, payload = ANIM_STRBUF_INIT;
    int rc = asset ? 0 : gw_check_built_doc(doc, err);
    if (rc == 0)
        rc = gw_render(asset, doc, format, generator, overrides, override_count, &head, &payload,
                       summary, err);
    if (rc != 0)
        anim_error_prefix(err, "%s", path);
    else if (asset && format == ANIM_GLTF_FORMAT_GLTF)
        rc = write_gltf_with_images(asset, path, head.data ? head.data : "", head.len, err);
    else {
        /* The GLB's head and payload go out as they are: joining them
         * would copy the whole binary chunk once more. */
        anim_write_part parts[2] = {{head.data ? head.data : "", head.len},
                                    {payload.data ? payload.data : "", payload.len}};
        rc = anim_write_file_atomic_parts(path, parts, 2, err);
    }
    anim_strbuf_free(&head);
    anim_strbuf_free(&payload);
    return rc;
}

int anim_gltf_write_file(const anim_doc *doc, const char *path, const char *generator,
                         anim_gltf_write_summary *summary, anim_error *err)
{
    return write_out(NULL, doc, path, generator, NULL, 0, summary, err);
}

int anim_gltf_write_asset_file(const anim_asset *asset, const anim_doc *doc, const char *path,
                               const char *generator, anim_gltf_write_summary *summary,
                               anim_error *err)
{
    return write_out(asset, doc ? doc : &asset->doc, path, generator, NULL, 0, summary, err);
}

int anim_gltf_write_asset_file_with(const anim_asset *asset, const anim_doc *doc,
                                    const char *path, const char *generator,
                                    const anim_gltf_prim_override *overrides,
                                    uint32_t override_count, anim_gltf_write_summary *summary,
                                    anim_error *err)
{
    return write_out(asset, doc ? doc : &asset->doc, path, generator, overrides, override_count,
                     summary, err);
}
