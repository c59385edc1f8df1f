/* Writing a document to a path: the file atomically, and for a .gltf the
 * images it names by URI beside it.
 *
 * A .gltf output keeps its images as files, so a copy written to another
 * directory must carry them along. A file already at an image's place is
 * left alone when it is the same file or holds the same bytes, and
 * otherwise the write is refused before anything is written: replacing a
 * file the user did not name would lose data. */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "animsmith/atomic_write.h"
#include "animsmith/file_id.h"
#include "animsmith/gltf_write.h"
#include "animsmith/path.h"
#include "io/gltf/gltf_internal.h"

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

static int write_sidecars(const anim_asset *asset, const char *path, anim_error *err)
{
    const anim_doc *doc = &asset->doc;
    uint32_t n = 0;
    for (uint32_t i = 0; i < doc->image_count; i++)
        n += doc->images[i].source == ANIM_IMAGE_URI_FILE && doc->images[i].uri;
    if (n == 0)
        return 0;
    anim_arena *arena = anim_arena_new();
    sidecar *list = arena ? anim_arena_calloc(arena, n, sizeof *list) : NULL;
    /* NULL for a document from memory without a directory: resolving
     * its image URIs then fails, naming the image. */
    const char *in_dir = asset->source.base_dir;
    const char *out_dir = arena ? anim_path_dirname(arena, path) : NULL;
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
    for (k = 0; k < n; k++)
        if (!list[k].skip && anim_write_file_atomic(list[k].dest, list[k].data, list[k].len, err))
            goto done;
    rc = 0;
done:
    anim_arena_free(arena);
    return rc;
}

static int write_out(const anim_asset *asset, const anim_doc *doc, const char *path,
                     const char *generator, anim_gltf_write_summary *summary, anim_error *err)
{
    anim_gltf_format format = anim_gltf_format_for_path(path);
    anim_strbuf out = ANIM_STRBUF_INIT;
    int rc = asset ? anim_gltf_write_asset_mem(asset, doc, format, generator, &out, summary, err)
                   : anim_gltf_write_mem(doc, format, generator, &out, summary, err);
    if (rc == 0 && asset && format == ANIM_GLTF_FORMAT_GLTF)
        rc = write_sidecars(asset, path, err);
    if (rc == 0)
        rc = anim_write_file_atomic(path, out.data ? out.data : "", out.len, err);
    else
        anim_error_prefix(err, "%s", path);
    anim_strbuf_free(&out);
    return rc;
}

int anim_gltf_write_file(const anim_doc *doc, const char *path, const char *generator,
                         anim_gltf_write_summary *summary, anim_error *err)
{
    return write_out(NULL, doc, path, generator, summary, err);
}

int anim_gltf_write_asset_file(const anim_asset *asset, const anim_doc *doc, const char *path,
                               const char *generator, anim_gltf_write_summary *summary,
                               anim_error *err)
{
    return write_out(asset, doc ? doc : &asset->doc, path, generator, summary, err);
}
