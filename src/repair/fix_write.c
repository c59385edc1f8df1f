/* Writing a repaired asset without re-serializing anything: the input's
 * bytes are copied and only the patched buffer payloads are swapped in,
 * so every byte outside the repaired key values is the input's. External
 * buffers are written beside the output under their URI, because the
 * copied JSON still names them by that relative URI.
 *
 * Every refusal is decided before the first byte is written, and each
 * file goes through the atomic writer, so a refusal leaves existing files
 * untouched. No write may land on one of the input's own files (compared
 * by device and inode, so every spelling and link is caught) other than
 * the one an in-place fix rewrites: an output beside the input must never
 * overwrite the input's .bin, which would silently change the input too. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "animsmith/atomic_write.h"
#include "animsmith/file_id.h"
#include "animsmith/path.h"
#include "animsmith/resources.h"
#include "repair/fix_internal.h"



static bool is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The input's own files, each with its identity. */
typedef struct input_files {
    anim_resource *list;
    anim_file_id *ids;
    uint32_t count;
} input_files;

static int list_input_files(const anim_fix *fix, input_files *in, anim_error *err)
{
    if (anim_asset_resources(fix->asset, fix->arena, &in->list, &in->count, err))
        return -1;
    in->ids = anim_arena_calloc(fix->arena, in->count ? in->count : 1, sizeof *in->ids);
    if (!in->ids)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < in->count; i++)
        in->ids[i] = anim_file_identify(in->list[i].path);
    return 0;
}

/* The buffer index that stands for the main file (not an enum: UINT32_MAX
 * is outside the range ISO C allows an enumerator). */
#define MAIN_FILE UINT32_MAX

/* Refuses a write of `target` (the main file, or external buffer b) that
 * would replace one of the input's own files, except in place, where the
 * main file may replace the input and a buffer its own file. Everything
 * else would change the input (or corrupt it: a buffer written over the
 * .gltf that names it puts binary into the JSON). */
static int check_overwrite(const input_files *in, const char *target, uint32_t b,
                           const char *uri, const char *out_path, bool in_place, anim_error *err)
{
    anim_file_id t = anim_file_identify(target);
    for (uint32_t i = 0; t.exists && i < in->count; i++) {
        const anim_resource *r = &in->list[i];
        if (!anim_file_id_same(t, in->ids[i]))
            continue;
        if (b == MAIN_FILE && r->kind == ANIM_RESOURCE_FILE) {
            if (in_place)
                continue;
            return anim_error_set(err, ANIM_ERR_USAGE,
                                  "%s: the output is the input file; use --in-place to rewrite it",
                                  out_path);
        }
        if (b != MAIN_FILE && r->kind == ANIM_RESOURCE_BUFFER) {
            if (in_place)
                continue;
            return anim_error_set(
                err, ANIM_ERR_USAGE,
                "%s: writing buffer %u (uri \"%s\") beside the output would overwrite the "
                "input's buffer file %s; choose an output in another directory or use "
                "--in-place",
                out_path, b, uri, r->path);
        }
        const char *what = r->kind == ANIM_RESOURCE_FILE     ? "the input file itself"
                           : r->kind == ANIM_RESOURCE_BUFFER ? "the input's buffer"
                                                             : "the input's image";
        if (b == MAIN_FILE)
            return anim_error_set(err, ANIM_ERR_USAGE,
                                  "%s: the output is %s %u file %s (uri \"%s\"); writing it would "
                                  "change the input",
                                  out_path, what, r->index, r->path, r->uri);
        if (r->kind == ANIM_RESOURCE_FILE)
            return anim_error_set(err, ANIM_ERR_USAGE,
                                  "%s: buffer %u (uri \"%s\") is the input file itself; writing the "
                                  "repaired buffer would corrupt it",
                                  out_path, b, uri);
        return anim_error_set(err, ANIM_ERR_USAGE,
                              "%s: writing buffer %u (uri \"%s\") would overwrite %s %u file %s",
                              out_path, b, uri, what, r->index, r->path);
    }
    return 0;
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

static int check_sidecar(const anim_fix *fix, const input_files *in, uint32_t b, const char *dest,
                         const char *out_path, bool in_place, anim_error *err)
{
    const anim_buffer *buf = &fix->asset->source.buffers[b];
    if (check_overwrite(in, dest, b, buf->uri, out_path, in_place, err))
        return -1;
    /* Not yet a file of the input, but about to be the output itself. */
    if (anim_same_file(fix->arena, dest, out_path))
        return anim_error_set(err, ANIM_ERR_USAGE,
                              "%s: buffer %u (uri \"%s\") would be written over %s", out_path, b,
                              buf->uri, dest);
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
            if (dests[b] && anim_same_file(fix->arena, dests[a], dests[b]) &&
                (src->buffers[a].data_length != src->buffers[b].data_length ||
                 memcmp(fix->buffers[a], fix->buffers[b], src->buffers[a].data_length) != 0))
                return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                                      "buffers %u and %u name the same file %s but were repaired "
                                      "differently",
                                      a, b, dests[a]);
    return 0;
}

/* The destinations of every external buffer (NULL for the others), each
 * checked against the input's files. */
static const char **plan_sidecars(const anim_fix *fix, const input_files *in,
                                  const char *out_path, bool in_place, anim_error *err)
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
        if (!dests[b] || check_sidecar(fix, in, b, dests[b], out_path, in_place, err))
            return NULL;
    }
    return check_shared_files(fix, dests, err) ? NULL : dests;
}

/* Every check of anim_fix_check_destination; the sidecar plan on success. */
static const char **plan_write(const anim_fix *fix, const char *out_path, bool in_place,
                               anim_error *err)
{
    const anim_source *src = &fix->asset->source;
    if (in_place && !anim_same_file(fix->arena, out_path, src->path)) {
        anim_error_set(err, ANIM_ERR_USAGE, "%s: an in-place fix must write to the input %s",
                       out_path, src->path);
        return NULL;
    }
    input_files in;
    if (list_input_files(fix, &in, err) ||
        check_overwrite(&in, out_path, MAIN_FILE, NULL, out_path, in_place, err))
        return NULL;
    /* The container is copied, not converted: a .gltf's JSON written to a
     * .glb name would be a file no reader accepts. */
    const char *ext = src->is_glb ? ".glb" : ".gltf";
    if (!anim_path_has_extension(out_path, ext)) {
        anim_error_set(err, ANIM_ERR_USAGE, "%s: the output must keep the input's container (%s)",
                       out_path, ext);
        return NULL;
    }
    return plan_sidecars(fix, &in, out_path, in_place, err);
}

int anim_fix_check_destination(const anim_fix *fix, const char *out_path, bool in_place,
                               anim_error *err)
{
    return plan_write(fix, out_path, in_place, err) ? 0 : -1;
}

bool anim_fix_writes(const anim_fix *fix, bool in_place)
{
    return !in_place || anim_fix_pending(fix);
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
    const char **dests = plan_write(fix, out_path, in_place, err);
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
