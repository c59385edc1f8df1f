/* Temporary file + fsync + rename (see atomic_write.h). */
#include "animsmith/atomic_write.h"
#include "animsmith/path.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdatomic.h>
#include <unistd.h>


static int write_all(int fd, const unsigned char *p, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Creates a fresh temporary file beside path with mode 0666: the kernel
 * applies the umask (and any default ACL), exactly as for fopen. Why not
 * mkstemp + fchmod: learning the umask means setting it, and umask() is
 * process-wide, so another thread creating a file meanwhile would get mode
 * 0666 unmasked. Names are unique per process (pid plus an atomic counter);
 * a leftover from an earlier process is skipped by O_EXCL. */
static int create_temp(const char *path, char **tmp_out)
{
    static atomic_uint counter;
    size_t plen = strlen(path);
    size_t cap = plen + 64;
    char *tmp = malloc(cap);
    if (!tmp) {
        errno = ENOMEM;
        return -1;
    }
    for (int attempt = 0; attempt < 1000; attempt++) {
        unsigned n = atomic_fetch_add(&counter, 1u);
        snprintf(tmp, cap, "%s.tmp-%ld-%u", path, (long)getpid(), n);
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            *tmp_out = tmp;
            return fd;
        }
        if (errno != EEXIST)
            break;
    }
    int e = errno;
    free(tmp);
    errno = e;
    return -1;
}

int anim_write_file_atomic(const char *path, const void *data, size_t len, anim_error *err)
{
    size_t plen = strlen(path);
    if (plen == 0)
        return anim_error_set(err, ANIM_ERR_USAGE, "cannot write file: empty path");
    char *tmp = NULL;
    int fd = create_temp(path, &tmp);
    if (fd < 0) {
        int e = errno;
        if (e == ENOMEM)
            return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", path);
        return anim_error_set(err, ANIM_ERR_IO, "%s: cannot create temporary file: %s", path,
                              strerror(e));
    }
    const char *step = NULL;
    int e = 0;
    if (write_all(fd, data, len) != 0)
        step = "write";
    else if (fsync(fd) != 0)
        step = "flush";
    if (step)
        e = errno;
    if (close(fd) != 0 && !step) {
        step = "close";
        e = errno;
    }
    if (!step && rename(tmp, path) != 0) {
        step = "rename into place";
        e = errno;
    }
    if (step) {
        unlink(tmp);
        free(tmp);
        return anim_error_set(err, ANIM_ERR_IO, "%s: cannot %s: %s", path, step, strerror(e));
    }
    free(tmp);

    /* Best effort: a directory that cannot be opened or synced does not
     * undo a rename that already happened. */
    char *dir = anim_path_dirname_dup(path);
    if (dir) {
        int dfd = open(dir, O_RDONLY);
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
        free(dir);
    }
    return 0;
}
