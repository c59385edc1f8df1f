/* Atomic file replacement: every output file (fix, transform, report,
 * generated fixtures) is written to a temporary file in the destination's
 * directory, flushed to disk and renamed into place. A reader never sees a
 * half-written file, and on any failure the temporary file is removed and
 * an existing destination is left byte-for-byte untouched. */
#ifndef ANIMSMITH_ATOMIC_WRITE_H
#define ANIMSMITH_ATOMIC_WRITE_H

#include <stddef.h>

#include "animsmith/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes len bytes to path atomically.
 *
 * A new file gets mode 0666 minus the process umask (like fopen). A file
 * that is replaced keeps its permission bits, and its owner and group
 * where the process may set them; a file the user cannot write
 * (access(W_OK)) is refused, as cp would, and left untouched.
 *
 * The temporary is DIR/.NAME.animsmith-tmp-PID-N. It is removed on any
 * failure and on SIGINT, SIGTERM, SIGHUP and SIGPIPE (handlers are
 * installed only for the duration of the write; the previous disposition
 * is restored and the signal re-raised). A temporary left by a process
 * that no longer exists (SIGKILL, power loss) is removed by the next write
 * into the same directory; one whose PID is alive is left alone.
 *
 * Returns 0, or -1 with ANIM_ERR_IO (or ANIM_ERR_NOMEM) naming the path
 * and the failing step. */
int anim_write_file_atomic(const char *path, const void *data, size_t len, anim_error *err);

/* One piece of a file written from several buffers. */
typedef struct anim_write_part {
    const void *data;
    size_t len;
} anim_write_part;

/* anim_write_file_atomic of the parts' bytes one after another, without
 * first joining them in memory (a large GLB is its JSON and a binary
 * chunk of many megabytes). */
int anim_write_file_atomic_parts(const char *path, const anim_write_part *parts, size_t count,
                                 anim_error *err);

#ifdef __cplusplus
}
#endif
#endif
