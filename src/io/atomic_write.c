/* Temporary file + fsync + rename (see atomic_write.h). */
#include "animsmith/atomic_write.h"
#include "animsmith/path.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* ---- temporaries removed on a catchable signal ----
 *
 * A write in progress registers its temporary's path in a fixed table
 * before the file exists, so the handler (which may only call
 * async-signal-safe functions) can unlink it without allocating. The
 * handlers are installed only while a write is in progress, and put the
 * previous disposition back before re-raising, so the process then dies
 * (or an embedding program's own handler runs) exactly as it would have. */

enum { TEMP_SLOTS = 32, TEMP_PATH_MAX = 4096 };

static char temp_paths[TEMP_SLOTS][TEMP_PATH_MAX];
/* 0 free, 1 claimed (path being filled), 2 registered. */
static atomic_int temp_state[TEMP_SLOTS];

static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
enum { SIGNAL_COUNT = sizeof cleanup_signals / sizeof cleanup_signals[0] };
static struct sigaction previous[SIGNAL_COUNT];
static bool installed[SIGNAL_COUNT];
static int writers;                       /* writes in progress, under the lock */
static atomic_flag handler_lock = ATOMIC_FLAG_INIT;

static void on_signal(int sig)
{
    int saved = errno;
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (atomic_load(&temp_state[i]) == 2)
            (void)unlink(temp_paths[i]);
    for (int k = 0; k < SIGNAL_COUNT; k++)
        if (cleanup_signals[k] == sig && installed[k])
            (void)sigaction(sig, &previous[k], NULL);
    /* Blocked while this handler runs: delivered, with the previous
     * disposition, as soon as it returns. */
    (void)raise(sig);
    errno = saved;
}

static void lock(void)
{
    while (atomic_flag_test_and_set(&handler_lock))
        ;
}

static void unlock(void)
{
    atomic_flag_clear(&handler_lock);
}

static void handlers_begin(void)
{
    lock();
    if (writers++ == 0)
        for (int k = 0; k < SIGNAL_COUNT; k++) {
            struct sigaction old, ours;
            installed[k] = false;
            /* An ignored signal (nohup, a parent ignoring SIGPIPE) stays
             * ignored: it will not end the process, so nothing to clean. */
            if (sigaction(cleanup_signals[k], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
                continue;
            memset(&ours, 0, sizeof ours);
            ours.sa_handler = on_signal;
            sigfillset(&ours.sa_mask);
            previous[k] = old;
            installed[k] = sigaction(cleanup_signals[k], &ours, NULL) == 0;
        }
    unlock();
}

static void handlers_end(void)
{
    lock();
    if (--writers == 0)
        for (int k = 0; k < SIGNAL_COUNT; k++)
            if (installed[k]) {
                (void)sigaction(cleanup_signals[k], &previous[k], NULL);
                installed[k] = false;
            }
    unlock();
}

/* Returns the slot, or -1 when the table is full or the path too long (the
 * write still works; only signal cleanup is lost for it). */
static int register_temp(const char *tmp)
{
    if (strlen(tmp) >= TEMP_PATH_MAX)
        return -1;
    for (int i = 0; i < TEMP_SLOTS; i++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&temp_state[i], &expected, 1)) {
            strcpy(temp_paths[i], tmp);
            atomic_store(&temp_state[i], 2);
            return i;
        }
    }
    return -1;
}

static void unregister_temp(int slot)
{
    if (slot >= 0)
        atomic_store(&temp_state[slot], 0);
}

/* ---- temporary names ----
 *
 * DIR/.BASE.animsmith-tmp-PID-N: hidden, beside the target (rename needs
 * the same file system), and carrying the writer's PID so a later write
 * into the directory can tell a leftover of a killed process (SIGKILL,
 * power loss) from a write still in progress. */

static const char temp_tag[] = ".animsmith-tmp-";

/* Longest BASE kept in a temporary's name, so the name stays under
 * NAME_MAX (255) for any target name. */
enum { TEMP_BASE_MAX = 160 };

/* The PID of a temporary's name, or 0 when the name is not one of ours. */
static long temp_owner(const char *name)
{
    if (name[0] != '.')
        return 0;
    const char *tag = strstr(name + 1, temp_tag);
    if (!tag || tag == name + 1)
        return 0;
    const char *p = tag + sizeof temp_tag - 1;
    long pid = 0;
    const char *digits = p;
    while (*p >= '0' && *p <= '9' && pid < 1000000000L)
        pid = pid * 10 + (*p++ - '0');
    if (p == digits || *p++ != '-' || !(*p >= '0' && *p <= '9'))
        return 0;
    while (*p >= '0' && *p <= '9')
        p++;
    return *p == '\0' ? pid : 0;
}

/* Removes the temporaries in dir whose writer no longer exists. A PID that
 * is alive (or that we may not signal) is left alone: it may be a write in
 * progress. Best effort: nothing here fails the write. */
static void remove_stale_temps(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long pid = temp_owner(e->d_name);
        if (pid <= 0 || pid == (long)getpid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
            (void)unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
}

static char *temp_name(const char *path, const char *dir, unsigned n)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t blen = strlen(base);
    if (blen > TEMP_BASE_MAX)
        blen = TEMP_BASE_MAX;
    size_t cap = strlen(dir) + blen + 64;
    char *tmp = malloc(cap);
    if (tmp)
        snprintf(tmp, cap, "%s/.%.*s%s%ld-%u", dir, (int)blen, base, temp_tag, (long)getpid(), n);
    return tmp;
}

/* Creates a fresh temporary beside path. A new file gets mode 0666: the
 * kernel applies the umask (and any default ACL), exactly as for fopen.
 * Why not mkstemp + fchmod: learning the umask means setting it, and
 * umask() is process-wide, so another thread creating a file meanwhile
 * would get mode 0666 unmasked. A replacement starts private (0600) and
 * gets the target's mode before any byte is written. */
static int create_temp(const char *path, const char *dir, mode_t mode, char **tmp_out,
                       int *slot_out)
{
    static atomic_uint counter;
    for (int attempt = 0; attempt < 1000; attempt++) {
        char *tmp = temp_name(path, dir, atomic_fetch_add(&counter, 1u));
        if (!tmp) {
            errno = ENOMEM;
            return -1;
        }
        /* Registered before it exists: a signal between open and
         * registration would otherwise leave it behind. */
        int slot = register_temp(tmp);
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd >= 0) {
            *tmp_out = tmp;
            *slot_out = slot;
            return fd;
        }
        int e = errno;
        unregister_temp(slot);
        free(tmp);
        errno = e;
        if (e != EEXIST)
            return -1;
    }
    return -1;
}

/* ---- the target ---- */

typedef struct target_info {
    bool exists;
    struct stat st;
} target_info;

/* Refuses what cp would refuse: replacing a file the user cannot write
 * (rename only needs the directory to be writable, so without this a
 * read-only file would be replaced silently). */
static int inspect_target(const char *path, target_info *t, anim_error *err)
{
    memset(t, 0, sizeof *t);
    if (stat(path, &t->st) != 0)
        return 0;
    t->exists = true;
    if (S_ISDIR(t->st.st_mode))
        return anim_error_set(err, ANIM_ERR_IO, "%s: cannot replace: Is a directory", path);
    if (access(path, W_OK) != 0 && (errno == EACCES || errno == EROFS || errno == EPERM))
        return anim_error_set(err, ANIM_ERR_IO,
                              "%s: cannot replace: %s (the file is not writable; change its "
                              "permissions or write elsewhere)",
                              path, strerror(errno));
    return 0;
}

/* The replacement keeps the target's permission bits, and its owner and
 * group where we may set them (root, or our own file: a group we are not
 * in is refused with EPERM, and then the group stays ours). */
static int keep_target_mode(int fd, const target_info *t)
{
    if (!t->exists)
        return 0;
    if (geteuid() == 0 || t->st.st_uid == geteuid())
        (void)!fchown(fd, t->st.st_uid, t->st.st_gid);
    return fchmod(fd, t->st.st_mode & 07777);
}

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

/* Best effort: a directory that cannot be opened or synced does not undo a
 * rename that already happened. */
static void sync_dir(const char *dir)
{
    int dfd = open(dir, O_RDONLY);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
}

static int write_parts(int fd, const anim_write_part *parts, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (write_all(fd, parts[i].data, parts[i].len) != 0)
            return -1;
    return 0;
}

static int write_temp(const char *path, const char *dir, const anim_write_part *parts,
                      size_t count, const target_info *t, anim_error *err)
{
    char *tmp = NULL;
    int slot = -1;
    int fd = create_temp(path, dir, t->exists ? 0600 : 0666, &tmp, &slot);
    if (fd < 0) {
        int e = errno;
        if (e == ENOMEM)
            return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", path);
        return anim_error_set(err, ANIM_ERR_IO, "%s: cannot create temporary file: %s", path,
                              strerror(e));
    }
    const char *step = NULL;
    int e = 0;
    if (keep_target_mode(fd, t) != 0)
        step = "keep the file's permissions";
    else if (write_parts(fd, parts, count) != 0)
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
    if (step)
        unlink(tmp);
    unregister_temp(slot);
    free(tmp);
    if (step)
        return anim_error_set(err, ANIM_ERR_IO, "%s: cannot %s: %s", path, step, strerror(e));
    return 0;
}

int anim_write_file_atomic(const char *path, const void *data, size_t len, anim_error *err)
{
    anim_write_part part = {data, len};
    return anim_write_file_atomic_parts(path, &part, 1, err);
}

int anim_write_file_atomic_parts(const char *path, const anim_write_part *parts, size_t count,
                                 anim_error *err)
{
    if (!path[0])
        return anim_error_set(err, ANIM_ERR_USAGE, "cannot write file: empty path");
    target_info t;
    if (inspect_target(path, &t, err))
        return -1;
    char *dir = anim_path_dirname_dup(path);
    if (!dir)
        return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", path);
    remove_stale_temps(dir);
    handlers_begin();
    int rc = write_temp(path, dir, parts, count, &t, err);
    handlers_end();
    if (rc == 0)
        sync_dir(dir);
    free(dir);
    return rc;
}
