/* Writing a repaired asset (spec 8.5) without re-serializing anything:
 * the input's bytes are copied and only the patched buffer payloads are
 * swapped in, so every byte outside the repaired key values is the
 * input's. External buffers are written beside the output under their
 * URI, because the copied JSON still names them by that relative URI.
 *
 * Every refusal is decided before the first byte is written, and each
 * file goes through the atomic writer, so a refusal leaves existing files
 * untouched. An output beside the input must never overwrite the input's
 * own .bin (the peer would): that would silently change the input too. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "animsmith/atomic_write.h"
#include "animsmith/path.h"
#include "repair/fix_internal.h"



/* Same path, or two names of one existing file (hard links, "./x"). */
static bool same_file(const char *a, const char *b)
{
    if (strcmp(a, b) == 0)
        return true;
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

static bool is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Where external buffer b goes for this output: the output's directory
 * plus the buffer's (percent-decoded) URI, recovered from the path the
 * loader resolved as "{input dir}/{decoded uri}". */
static const char *sidecar_path(const anim_fix *fix, uint32_t b, const char *out_dir,
                                anim_error *err)
{
    const anim_buffer *buf = &fix->asset->source.buffers[b];
    const char *in_dir = anim_path_dirname(fix->arena, fix->asset->source.path);
    if (!in_dir) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    size_t n = strlen(in_dir);
    if (!buf->path || strncmp(buf->path, in_dir, n) != 0 || buf->path[n] != '/') {
        anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                       "buffer %u (uri \"%s\"): cannot tell where to write it beside the output", b,
                       buf->uri ? buf->uri : "");
        return NULL;
    }
    const char *dest = anim_arena_printf(fix->arena, "%s/%s", out_dir, buf->path + n + 1);
    if (!dest)
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    return dest;
}

static int check_sidecar(const anim_fix *fix, uint32_t b, const char *dest, const char *out_path,
                         bool in_place, anim_error *err)
{
    const anim_source *src = &fix->asset->source;
    const anim_buffer *buf = &src->buffers[b];
    if (!in_place) {
        for (uint32_t i = 0; i < src->buffer_count; i++)
            if (src->buffers[i].kind == ANIM_BUFFER_EXTERNAL &&
                same_file(dest, src->buffers[i].path))
                return anim_error_set(
                    err, ANIM_ERR_USAGE,
                    "%s: writing buffer %u (uri \"%s\") beside the output would overwrite the "
                    "input's buffer file %s; choose an output in another directory or use "
                    "--in-place",
                    out_path, b, buf->uri, src->buffers[i].path);
        if (same_file(dest, out_path) || same_file(dest, src->path))
            return anim_error_set(err, ANIM_ERR_USAGE,
                                  "%s: buffer %u (uri \"%s\") would be written over %s", out_path,
                                  b, buf->uri, dest);
    }
    char *dir = anim_path_dirname(fix->arena, dest);
    if (!dir)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    if (!is_directory(dir))
        return anim_error_set(err, ANIM_ERR_IO,
                              "%s: buffer %u (uri \"%s\") is written beside the output, but the "
                              "directory %s does not exist",
                              out_path, b, buf->uri, dir);
    return 0;
}

/* Two buffers naming one file can only both be written if they agree. */
static int check_shared_files(const anim_fix *fix, const char **dests, anim_error *err)
{
    const anim_source *src = &fix->asset->source;
    for (uint32_t a = 0; a < src->buffer_count; a++)
        for (uint32_t b = a + 1; dests[a] && b < src->buffer_count; b++)
            if (dests[b] && strcmp(dests[a], dests[b]) == 0 &&
                (src->buffers[a].data_length != src->buffers[b].data_length ||
                 memcmp(fix->buffers[a], fix->buffers[b], src->buffers[a].data_length) != 0))
                return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                                      "buffers %u and %u name the same file %s but were repaired "
                                      "differently",
                                      a, b, dests[a]);
    return 0;
}

/* The destinations of every external buffer (NULL for the others). */
static const char **plan_sidecars(const anim_fix *fix, const char *out_path, bool in_place,
                                  anim_error *err)
{
    const anim_source *src = &fix->asset->source;
    const char **dests =
        anim_arena_calloc(fix->arena, src->buffer_count ? src->buffer_count : 1, sizeof *dests);
    char *out_dir = anim_path_dirname(fix->arena, out_path);
    if (!dests || !out_dir) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    for (uint32_t b = 0; b < src->buffer_count; b++) {
        if (src->buffers[b].kind != ANIM_BUFFER_EXTERNAL)
            continue;
        dests[b] = sidecar_path(fix, b, out_dir, err);
        if (!dests[b] || check_sidecar(fix, b, dests[b], out_path, in_place, err))
            return NULL;
    }
    return check_shared_files(fix, dests, err) ? NULL : dests;
}

int anim_fix_check_destination(const anim_fix *fix, const char *out_path, bool in_place,
                               anim_error *err)
{
    const anim_source *src = &fix->asset->source;
    if (in_place && !same_file(out_path, src->path))
        return anim_error_set(err, ANIM_ERR_USAGE, "%s: an in-place fix must write to the input %s",
                              out_path, src->path);
    if (!in_place && same_file(out_path, src->path))
        return anim_error_set(err, ANIM_ERR_USAGE,
                              "%s: the output is the input file; use --in-place to rewrite it",
                              out_path);
    /* The container is copied, not converted: a .gltf's JSON written to a
     * .glb name would be a file no reader accepts. */
    const char *ext = src->is_glb ? ".glb" : ".gltf";
    if (!anim_path_has_extension(out_path, ext))
        return anim_error_set(err, ANIM_ERR_USAGE,
                              "%s: the output must keep the input's container (%s)", out_path, ext);
    return plan_sidecars(fix, out_path, in_place, err) ? 0 : -1;
}

/* The GLB as read, with each BIN-chunk payload replaced by its patched
 * copy (same length, same place): header, JSON chunk, chunk headers,
 * padding and any further chunks stay the input's bytes. */
static uint8_t *render_glb(const anim_fix *fix, bool *changed, anim_error *err)
{
    const anim_source *src = &fix->asset->source;
    uint8_t *bytes = malloc(src->byte_count ? src->byte_count : 1);
    if (!bytes) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    memcpy(bytes, src->bytes, src->byte_count);
    *changed = false;
    for (uint32_t b = 0; b < src->buffer_count; b++) {
        const anim_buffer *buf = &src->buffers[b];
        if (buf->kind != ANIM_BUFFER_GLB_BIN || buf->data_length == 0)
            continue;
        size_t end;
        if (!anim_size_add(buf->file_offset, buf->data_length, &end) || end > src->byte_count) {
            free(bytes);
            anim_error_set(err, ANIM_ERR_INVALID, "%s: BIN chunk lies outside the file", src->path);
            return NULL;
        }
        memcpy(bytes + buf->file_offset, fix->buffers[b], buf->data_length);
        *changed = *changed || fix->buffer_changed[b];
    }
    return bytes;
}

int anim_fix_write(const anim_fix *fix, const char *out_path, bool in_place, anim_error *err)
{
    const anim_source *src = &fix->asset->source;
    if (anim_fix_check_destination(fix, out_path, in_place, err))
        return -1;
    const char **dests = plan_sidecars(fix, out_path, in_place, err);
    if (!dests)
        return -1;
    uint8_t *glb = NULL;
    bool main_changed = false;
    if (src->is_glb && !(glb = render_glb(fix, &main_changed, err)))
        return -1;
    /* Buffers first: a new .gltf never names a file that is not there yet. */
    int rc = 0;
    for (uint32_t b = 0; rc == 0 && b < src->buffer_count; b++) {
        /* In place, an unchanged buffer file is already the right bytes. */
        if (!dests[b] || (in_place && !fix->buffer_changed[b]))
            continue;
        rc = anim_write_file_atomic(dests[b], fix->buffers[b], src->buffers[b].data_length, err);
    }
    /* A .gltf's JSON never changes; in place it is left alone entirely. */
    if (rc == 0 && !(in_place && (!src->is_glb || !main_changed)))
        rc = anim_write_file_atomic(out_path, glb ? glb : src->bytes, src->byte_count, err);
    free(glb);
    return rc;
}
