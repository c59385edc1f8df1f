/* src/io/gltf: glTF 2.0 in and out. The reader (gltf_load.c and the
 * gltf_*.c stages it runs, docs/gltf-reader.md) turns a .glb or .gltf
 * into the normalized document; gltf_write.c writes bytes back.
 *
 * This file: whole-file input with a size cap checked before anything is allocated.
 *
 * Why map rather than read: on a warm page cache, read(2) into fresh arena
 * memory costs a copy plus a page fault per 4 KiB of new anonymous memory;
 * for a 140 MB GLB that was 65-95 ms, more than twice a `cat`. A read-only
 * private mapping shares the page-cache pages: only the bytes the loader
 * actually touches (the JSON chunk, key times) are faulted in, and the
 * float tracks borrowed from the BIN chunk cost nothing until a check reads
 * them. When mapping fails (empty files, file systems without mmap) the
 * file is read into the arena as before. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE 1 /* madvise and its MADV_ constants */
#endif
#include "io/gltf/gltf_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#define HAVE_MMAP 1
#else
#define HAVE_MMAP 0
#endif

struct anim_file_mapping {
    void *base;
    size_t length;
    struct anim_file_mapping *next;
};

/* Opens path and checks that it is a regular file within max_bytes. */
static int open_checked(const char *path, size_t max_bytes, int *fd_out, size_t *size_out,
                        anim_error *err)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return anim_error_set(err, ANIM_ERR_IO, "%s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return anim_error_set(err, ANIM_ERR_IO, "%s: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return anim_error_set(err, ANIM_ERR_IO, "%s: not a regular file", path);
    }
    if (st.st_size < 0 || (unsigned long long)st.st_size > max_bytes) {
        close(fd);
        char what[ANIM_ERROR_MESSAGE_MAX / 2];
        snprintf(what, sizeof what, "%.300s: the file is %lld bytes", path, (long long)st.st_size);
        anim_limits budget = {max_bytes ? max_bytes : 1, 0, 0};
        return anim_limit_error(err, &budget, ANIM_LIMIT_FILE, what);
    }
    *fd_out = fd;
    *size_out = (size_t)st.st_size;
    return 0;
}

/* Reads size bytes of fd into arena memory (NUL-terminated); closes fd. */
static int read_fd(int fd, const char *path, size_t size, anim_arena *arena, uint8_t **data,
                   anim_error *err)
{
    uint8_t *buf = anim_arena_alloc(arena, size + 1);
    if (!buf) {
        close(fd);
        return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", path);
    }
    size_t got = 0;
    int e = 0;
    while (got < size) {
        size_t want = size - got > ((size_t)1 << 30) ? ((size_t)1 << 30) : size - got;
        ssize_t n = read(fd, buf + got, want);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            e = errno;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (got != size || e)
        return anim_error_set(err, ANIM_ERR_IO, "%s: short read (%zu of %zu bytes)",
                              path, got, size);
    buf[size] = 0;
    *data = buf;
    return 0;
}

int anim_read_file(const char *path, size_t max_bytes, anim_arena *arena, uint8_t **data,
                   size_t *len, anim_error *err)
{
    int fd = -1;
    size_t size = 0;
    if (open_checked(path, max_bytes, &fd, &size, err))
        return -1;
    if (read_fd(fd, path, size, arena, data, err))
        return -1;
    *len = size;
    return 0;
}

int gltf_map_file(const char *path, size_t max_bytes, anim_arena *arena,
                  struct anim_file_mapping **maps, const uint8_t **data, size_t *len, anim_error *err)
{
    int fd = -1;
    size_t size = 0;
    if (open_checked(path, max_bytes, &fd, &size, err))
        return -1;
#if HAVE_MMAP
    if (size > 0) {
        struct anim_file_mapping *m = anim_arena_alloc(arena, sizeof *m);
        if (!m) {
            close(fd);
            return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", path);
        }
        void *base = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (base != MAP_FAILED) {
            close(fd);
            m->base = base;
            m->length = size;
            m->next = *maps;
            *maps = m;
            *data = base;
            *len = size;
            return 0;
        }
        /* Fall through: read it instead. */
    }
#else
    (void)maps;
#endif
    uint8_t *buf = NULL;
    if (read_fd(fd, path, size, arena, &buf, err))
        return -1;
    *data = buf;
    *len = size;
    return 0;
}

void gltf_prefetch(const void *data, size_t len)
{
#if HAVE_MMAP && defined(__linux__)
    /* Page-aligned start, as madvise requires; errors are ignored (the data
     * may be arena memory, or the kernel may not know the advice). */
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0 || len == 0)
        return;
    uintptr_t a = (uintptr_t)data & ~((uintptr_t)page - 1);
    size_t n = len + (size_t)((uintptr_t)data - a);
#if defined(MADV_POPULATE_READ)
    if (madvise((void *)a, n, MADV_POPULATE_READ) == 0)
        return;
#endif
    (void)madvise((void *)a, n, MADV_WILLNEED);
#else
    (void)data;
    (void)len;
#endif
}

void gltf_advise_huge(void *base, size_t size)
{
#if HAVE_MMAP && defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t a = ((uintptr_t)base + huge - 1) & ~(huge - 1);
    uintptr_t b = ((uintptr_t)base + size) & ~(huge - 1);
    if (b > a)
        (void)madvise((void *)a, (size_t)(b - a), MADV_HUGEPAGE);
#else
    (void)base;
    (void)size;
#endif
}

void *gltf_table_calloc(anim_arena *arena, size_t count, size_t size)
{
    size_t total;
    if (!anim_size_mul(count, size, &total))
        return NULL;
    void *p = anim_arena_alloc(arena, total);
    if (p) {
        gltf_advise_huge(p, total);
        memset(p, 0, total);
    }
    return p;
}

void gltf_unmap_all(struct anim_file_mapping *maps)
{
#if HAVE_MMAP
    for (struct anim_file_mapping *m = maps; m; m = m->next)
        munmap(m->base, m->length);
#else
    (void)maps;
#endif
}
