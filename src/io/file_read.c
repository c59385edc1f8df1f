/* Whole-file reads with a size cap checked before allocation. */
#include "io/gltf_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int anim_read_file(const char *path, size_t max_bytes, anim_arena *arena, uint8_t **data,
                   size_t *len, anim_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return anim_error_set(err, ANIM_ERR_IO, "failed to read %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0) {
        int e = errno;
        fclose(f);
        return anim_error_set(err, ANIM_ERR_IO, "failed to read %s: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        fclose(f);
        return anim_error_set(err, ANIM_ERR_IO, "failed to read %s: not a regular file", path);
    }
    if (st.st_size < 0 || (unsigned long long)st.st_size > max_bytes) {
        fclose(f);
        return anim_error_set(err, ANIM_ERR_LIMIT, "failed to read %s: %lld bytes exceeds the %zu-byte limit",
                              path, (long long)st.st_size, max_bytes);
    }
    size_t size = (size_t)st.st_size;
    uint8_t *buf = anim_arena_alloc(arena, size + 1);
    if (!buf) {
        fclose(f);
        return anim_error_set(err, ANIM_ERR_NOMEM, "failed to read %s: out of memory", path);
    }
    size_t got = size ? fread(buf, 1, size, f) : 0;
    int read_error = ferror(f);
    fclose(f);
    if (got != size || read_error)
        return anim_error_set(err, ANIM_ERR_IO, "failed to read %s: short read (%zu of %zu bytes)",
                              path, got, size);
    buf[size] = 0;
    *data = buf;
    *len = size;
    return 0;
}
