/* Data URIs and relative URI references of glTF buffers and images. A URI
 * is a reference, not a path: it is percent-decoded, and one that names an
 * absolute location or climbs out of the asset's directory is refused so a
 * downloaded asset cannot make us read arbitrary files. The climb is judged
 * twice: on the text of the reference, and on the resolved real path, so a
 * symbolic link (a file or a directory on the way) cannot lead outside. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "io/gltf/gltf_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/path.h"

bool gltf_data_uri_payload(const char *uri, const char **payload, size_t *payload_len,
                           const char **mime, size_t *mime_len)
{
    if (strncmp(uri, "data:", 5) != 0)
        return false;
    const char *comma = strchr(uri, ',');
    if (!comma)
        return false;
    const char *meta = uri + 5;
    size_t meta_len = (size_t)(comma - meta);
    if (meta_len < 7 || memcmp(comma - 7, ";base64", 7) != 0)
        return false;
    *mime = meta;
    const char *semi = memchr(meta, ';', meta_len);
    *mime_len = semi ? (size_t)(semi - meta) : meta_len;
    *payload = comma + 1;
    *payload_len = strlen(comma + 1);
    return true;
}

static int confine_real_path(const char *base_dir, const char *path, const char *uri,
                           const char *ctx, anim_error *err)
{
    char real_base[PATH_MAX], real_path[PATH_MAX];
    if (!realpath(base_dir, real_base))
        return anim_error_set(err, ANIM_ERR_IO, "%s: uri \"%s\": cannot resolve the asset's "
                              "directory: %s", ctx, uri, strerror(errno));
    if (!realpath(path, real_path)) {
        /* A missing target is not an escape: opening it reports the
         * ordinary "No such file" error. A dangling link is refused by the
         * same open. */
        if (errno == ENOENT || errno == ENOTDIR)
            return 0;
        return anim_error_set(err, ANIM_ERR_IO, "%s: uri \"%s\": cannot resolve: %s", ctx, uri,
                              strerror(errno));
    }
    if (!anim_path_within(real_base, real_path))
        return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                              "%s: uri \"%s\" resolves through a symbolic link to %s, outside the "
                              "asset's directory %s",
                              ctx, uri, real_path, real_base);
    return 0;
}

char *gltf_resolve_uri_path(anim_arena *arena, const char *base_dir, const char *uri,
                            bool confine, const char *ctx, anim_error *err)
{
    size_t n = strlen(uri);
    if (n == 0) {
        anim_error_set(err, ANIM_ERR_INVALID, "%s: empty uri", ctx);
        return NULL;
    }
    /* A scheme ("http:", "file:", "C:") is not a relative reference. */
    for (size_t i = 0; i < n; i++) {
        char c = uri[i];
        if (c == ':') {
            anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                           "%s: uri \"%s\" is not a relative file reference", ctx, uri);
            return NULL;
        }
        if (c == '/' || c == '?' || c == '#')
            break;
    }
    char *decoded = anim_arena_alloc(arena, n + 1);
    if (!decoded) {
        anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", ctx);
        return NULL;
    }
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (uri[i] == '%') {
            int hi = i + 2 < n ? anim_hex_digit_value(uri[i + 1]) : -1;
            int lo = i + 2 < n ? anim_hex_digit_value(uri[i + 2]) : -1;
            if (hi < 0 || lo < 0) {
                anim_error_set(err, ANIM_ERR_INVALID, "%s: uri \"%s\" has a malformed %%-escape",
                               ctx, uri);
                return NULL;
            }
            decoded[o++] = (char)(hi * 16 + lo);
            i += 2;
        } else if (uri[i] == '?' || uri[i] == '#') {
            break;
        } else {
            decoded[o++] = uri[i];
        }
    }
    decoded[o] = '\0';
    if (o == 0 || strlen(decoded) != o) {
        anim_error_set(err, ANIM_ERR_INVALID, "%s: uri \"%s\" decodes to an empty or NUL-bearing path",
                       ctx, uri);
        return NULL;
    }
    if (decoded[0] == '/' || decoded[0] == '\\') {
        anim_error_set(err, ANIM_ERR_UNSUPPORTED, "%s: uri \"%s\" is an absolute path", ctx, uri);
        return NULL;
    }
    if (confine) {
        /* Walk the segments: the depth below base_dir must never go negative. */
        long depth = 0;
        const char *seg = decoded;
        while (*seg) {
            const char *end = seg;
            while (*end && *end != '/' && *end != '\\')
                end++;
            size_t len = (size_t)(end - seg);
            if (len == 2 && seg[0] == '.' && seg[1] == '.')
                depth--;
            else if (len > 0 && !(len == 1 && seg[0] == '.'))
                depth++;
            if (depth < 0) {
                anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                               "%s: uri \"%s\" leaves the asset's directory", ctx, uri);
                return NULL;
            }
            seg = *end ? end + 1 : end;
        }
    }
    if (!base_dir) {
        anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                       "%s: uri \"%s\" names an external file, but the asset has no directory", ctx,
                       uri);
        return NULL;
    }
    char *path = anim_arena_printf(arena, "%s/%s", base_dir, decoded);
    if (!path) {
        anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", ctx);
        return NULL;
    }
    if (confine && confine_real_path(base_dir, path, uri, ctx, err))
        return NULL;
    return path;
}
