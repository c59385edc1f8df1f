/* File identity (file_id.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "animsmith/file_id.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "animsmith/path.h"

anim_file_id anim_file_identify(const char *path)
{
    struct stat st;
    anim_file_id id = {false, 0, 0};
    if (path && stat(path, &st) == 0)
        id = (anim_file_id){true, st.st_dev, st.st_ino};
    return id;
}

bool anim_file_id_same(anim_file_id a, anim_file_id b)
{
    return a.exists && b.exists && a.dev == b.dev && a.ino == b.ino;
}

/* The directory resolved to its real path plus the last component, so two
 * spellings of a file that does not exist yet still compare equal. NULL
 * when the directory does not resolve. */
static char *canonical_name(anim_arena *arena, const char *path)
{
    char *dir = anim_path_dirname(arena, path);
    char *real = dir ? realpath(dir, NULL) : NULL;
    if (!real)
        return NULL;
    const char *slash = strrchr(path, '/');
    char *name = anim_arena_printf(arena, "%s/%s", real, slash ? slash + 1 : path);
    free(real);
    return name;
}

bool anim_same_file(anim_arena *arena, const char *a, const char *b)
{
    if (strcmp(a, b) == 0 || anim_file_id_same(anim_file_identify(a), anim_file_identify(b)))
        return true;
    const char *ca = canonical_name(arena, a), *cb = canonical_name(arena, b);
    return ca && cb && strcmp(ca, cb) == 0;
}
