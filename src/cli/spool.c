/* Spooled file records (spool.h). The file is created without a name
 * where the kernel allows it (O_TMPFILE), else created under a random
 * name and unlinked at once, so nothing is left behind by a crash and no
 * other user can open it. Each put reserves its byte range under a lock
 * and writes it outside the lock, so workers never wait on each other's
 * writes. */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE 1 /* O_TMPFILE */
#endif
#include "spool.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/sendfile.h>
#endif

typedef struct {
    uint64_t at;     /* byte offset in the spool file */
    size_t len;
    bool stored;
} spool_record;

struct cli_spool {
    int fd;
    pthread_mutex_t lock;
    uint64_t end;    /* the next free byte */
    spool_record *records;
    size_t n;
};

/* A descriptor above stderr: with stdout closed (`>&-`) the kernel hands
 * out 1 for the new file, and the report would then be written into the
 * spool itself instead of failing with its message. */
static int above_stdio(int fd)
{
    if (fd < 0 || fd > 2)
        return fd;
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    close(fd);
    return moved;
}

static int open_unnamed(const char *dir)
{
#ifdef O_TMPFILE
    int unnamed = open(dir, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
    if (unnamed >= 0)
        return above_stdio(unnamed);
#endif
    size_t len = strlen(dir);
    static const char name[] = "/animsmith-spool-XXXXXX";
    char *path = malloc(len + sizeof name);
    if (!path)
        return -1;
    memcpy(path, dir, len);
    memcpy(path + len, name, sizeof name);
    int fd = mkstemp(path); /* mode 0600; POSIX, unlike mkostemp */
    if (fd >= 0)
        (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
    if (fd >= 0 && unlink(path) != 0) {
        /* A name that cannot be removed would outlive the run: no spool. */
        close(fd);
        fd = -1;
    }
    free(path);
    return above_stdio(fd);
}

cli_spool *cli_spool_open(size_t n)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !dir[0])
        dir = "/tmp";
    cli_spool *sp = calloc(1, sizeof *sp);
    if (!sp)
        return NULL;
    sp->records = calloc(n ? n : 1, sizeof *sp->records);
    sp->n = n;
    sp->fd = sp->records ? open_unnamed(dir) : -1;
    if (sp->fd < 0 || pthread_mutex_init(&sp->lock, NULL) != 0) {
        if (sp->fd >= 0)
            close(sp->fd);
        free(sp->records);
        free(sp);
        return NULL;
    }
    return sp;
}

static bool write_all(int fd, const char *data, size_t len, uint64_t at)
{
    while (len) {
        ssize_t w = pwrite(fd, data, len, (off_t)at);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        data += w;
        len -= (size_t)w;
        at += (uint64_t)w;
    }
    return true;
}

bool cli_spool_put(cli_spool *sp, size_t i, anim_strbuf *record)
{
    if (!sp || i >= sp->n || record->failed || !record->data)
        return false;
    pthread_mutex_lock(&sp->lock);
    uint64_t at = sp->end;
    bool fits = (uint64_t)INT64_MAX - at >= record->len;
    if (fits)
        sp->end += record->len;
    pthread_mutex_unlock(&sp->lock);
    /* A failed write leaves a hole in the file, never a wrong record: the
     * record stays in memory and is printed from there. */
    if (!fits || !write_all(sp->fd, record->data, record->len, at))
        return false;
    sp->records[i] = (spool_record){at, record->len, true};
    anim_strbuf_free(record);
    return true;
}

/* Sends what it can of the range straight from the spool to out's
 * descriptor (the kernel copies, never through user memory) and returns
 * how many bytes went; the caller copies the rest itself, which is all of
 * it where sendfile cannot (an O_APPEND file, a system without it), and
 * finds there whether the spool or out is at fault. false when out's own
 * buffered bytes could not be written. */
static bool send_range(const cli_spool *sp, uint64_t at, size_t len, FILE *out, size_t *sent)
{
    *sent = 0;
#if defined(__linux__)
    if (fflush(out) != 0)
        return false;
    int fd = fileno(out);
    off_t off = (off_t)at;
    while (*sent < len) {
        ssize_t w = sendfile(fd, sp->fd, &off, len - *sent);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        *sent += (size_t)w;
    }
#else
    (void)sp;
    (void)at;
    (void)len;
#endif
    return true;
}

cli_spool_result cli_spool_write(const cli_spool *sp, size_t i, const anim_strbuf *in_memory,
                                 FILE *out)
{
    if (!sp || i >= sp->n || !sp->records[i].stored)
        return in_memory->len == 0 ||
                       fwrite(in_memory->data, 1, in_memory->len, out) == in_memory->len
                   ? CLI_SPOOL_WRITTEN
                   : CLI_SPOOL_OUT_FAILED;
    size_t sent;
    if (!send_range(sp, sp->records[i].at, sp->records[i].len, out, &sent))
        return CLI_SPOOL_OUT_FAILED;
    if (sent == sp->records[i].len)
        return CLI_SPOOL_WRITTEN;
    enum { CHUNK = 1 << 18 };
    char *buf = malloc(CHUNK);
    if (!buf) {
        errno = ENOMEM;
        return CLI_SPOOL_READ_FAILED;
    }
    uint64_t at = sp->records[i].at + sent;
    size_t left = sp->records[i].len - sent;
    cli_spool_result result = CLI_SPOOL_WRITTEN;
    while (result == CLI_SPOOL_WRITTEN && left) {
        size_t want = left < CHUNK ? left : CHUNK;
        ssize_t r = pread(sp->fd, buf, want, (off_t)at);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0)
                errno = EIO; /* the file is shorter than what was written */
            result = CLI_SPOOL_READ_FAILED;
        } else if (fwrite(buf, 1, (size_t)r, out) != (size_t)r) {
            result = CLI_SPOOL_OUT_FAILED;
        } else {
            at += (uint64_t)r;
            left -= (size_t)r;
        }
    }
    int saved = errno;
    free(buf);
    errno = saved;
    return result;
}

void cli_spool_close(cli_spool *sp)
{
    if (!sp)
        return;
    close(sp->fd);
    pthread_mutex_destroy(&sp->lock);
    free(sp->records);
    free(sp);
}
