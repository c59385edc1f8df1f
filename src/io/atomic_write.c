/* Temporary file + fsync + rename (see atomic_write.h). */
#include "animsmith/atomic_write.h"
#include "animsmith/path.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

int anim_write_file_atomic(const char *path, const void *data, size_t len, anim_error *err)
{
    static const char suffix[] = ".tmp-XXXXXX";
    size_t plen = strlen(path);
    if (plen == 0)
        return anim_error_set(err, ANIM_ERR_USAGE, "cannot write file: empty path");
    char *tmp = malloc(plen + sizeof suffix);
    if (!tmp)
        return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", path);
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, suffix, sizeof suffix);

    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return anim_error_set(err, ANIM_ERR_IO, "%s: cannot create temporary file: %s", path,
                              strerror(e));
    }
    /* mkstemp creates 0600; give the file the mode fopen would. */
    mode_t mask = umask(0);
    umask(mask);
    const char *step = NULL;
    int e = 0;
    if (fchmod(fd, 0666 & ~mask) != 0)
        step = "set permissions";
    else if (write_all(fd, data, len) != 0)
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
