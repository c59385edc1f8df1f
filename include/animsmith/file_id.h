/* File identity: whether two names denote one file. Writers use it to
 * refuse an output that would land on one of their inputs under any
 * spelling (hard links, symbolic links, "./x", "a/../x", absolute and
 * relative names), so compare files, not path strings. */
#ifndef ANIMSMITH_FILE_ID_H
#define ANIMSMITH_FILE_ID_H

#include <stdbool.h>
#include <sys/types.h>

#include "animsmith/arena.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct anim_file_id {
    bool exists;
    dev_t dev;
    ino_t ino;
} anim_file_id;

/* The device and inode path names (exists false when it names nothing). */
anim_file_id anim_file_identify(const char *path);

/* Both exist and are one file. */
bool anim_file_id_same(anim_file_id a, anim_file_id b);

/* The same path, one existing file, or, for names that do not exist yet,
 * the same file name in the same real directory. */
bool anim_same_file(anim_arena *arena, const char *a, const char *b);

#ifdef __cplusplus
}
#endif
#endif
