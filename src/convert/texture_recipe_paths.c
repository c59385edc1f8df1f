/* Recipe paths: spelling rules, canonical resolution, containment, and
 * the regular-file and size checks made before anything is read.
 *
 * Spellings are judged on the text first (empty, absolute, "C:"-style
 * drive prefixes and backslashes are refused everywhere) so a recipe means
 * the same on every platform. Resolution then goes through realpath, and
 * containment is judged on the canonical result, so neither ".." nor a
 * symbolic link (on a file or on any directory of the way) can leave a
 * texture_root. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "animsmith/path.h"
#include "convert/texture_internal.h"

const char *anim_texture_path_spelling_problem(const char *p, size_t len)
{
    if (len == 0)
        return "is empty";
    if (strlen(p) != len)
        return "contains a NUL character";
    if (p[0] == '/')
        return "is absolute";
    if (len >= 2 && p[1] == ':' &&
        ((p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z')))
        return "has a drive prefix";
    if (memchr(p, '\\', len))
        return "contains a backslash (use '/')";
    return NULL;
}

char *anim_texture_path_resolve(anim_arena *arena, const char *base, const char *rel)
{
    char *joined = anim_arena_printf(arena, "%s/%s", base, rel);
    if (!joined) {
        errno = ENOMEM;
        return NULL;
    }
    char *real = realpath(joined, NULL);
    if (!real)
        return NULL;
    char *copy = anim_arena_strdup(arena, real);
    free(real);
    if (!copy)
        errno = ENOMEM;
    return copy;
}

bool anim_texture_path_within(const char *outer, const char *inner)
{
    size_t n = strlen(outer);
    /* The canonical root "/" contains everything. */
    if (n == 1 && outer[0] == '/')
        return inner[0] == '/';
    return strncmp(outer, inner, n) == 0 && (inner[n] == '\0' || inner[n] == '/');
}

static const char *resolve_reason(int e)
{
    return e == ENOENT ? "does not exist" : strerror(e);
}

/* With texture_root, image paths are relative to the root (itself
 * relative to the recipe file) and must stay inside it once canonical;
 * without it they are relative to the recipe's directory, ".." included. */
int anim_texture_recipe_resolve(anim_texture_recipe *r, anim_arena *arena, anim_error *err)
{
    char *dir = anim_path_dirname(arena, r->path);
    if (!dir)
        return anim_error_set(err, ANIM_ERR_NOMEM, "bad recipe %s: out of memory", r->path);
    const char *base = dir;
    struct stat st;
    if (r->texture_root) {
        char *root = anim_texture_path_resolve(arena, dir, r->texture_root);
        if (!root)
            return anim_texture_recipe_fail(err, ANIM_ERR_IO, r->path, r->root_line,
                                            r->root_column, "texture_root \"%s\" %s",
                                            r->texture_root, resolve_reason(errno));
        if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode))
            return anim_texture_recipe_fail(err, ANIM_ERR_IO, r->path, r->root_line,
                                            r->root_column, "texture_root \"%s\" is not a directory",
                                            r->texture_root);
        r->root_real = root;
        base = root;
    }
    for (uint32_t i = 0; i < r->entry_count; i++) {
        anim_texture_recipe_entry *e = &r->entries[i];
        for (int s = 0; s < ANIM_TEXTURE_SLOT_COUNT; s++) {
            if (!e->declared[s])
                continue;
            const char *slot = anim_texture_slot_name(s);
            char *real = anim_texture_path_resolve(arena, base, e->declared[s]);
            if (!real)
                return anim_texture_recipe_fail(err, ANIM_ERR_IO, r->path, e->slot_line[s],
                                                e->slot_column[s], "materials[%u].%s \"%s\" %s",
                                                (unsigned)i, slot, e->declared[s],
                                                resolve_reason(errno));
            if (r->root_real && !anim_texture_path_within(r->root_real, real))
                return anim_texture_recipe_fail(
                    err, ANIM_ERR_INVALID, r->path, e->slot_line[s], e->slot_column[s],
                    "materials[%u].%s \"%s\" resolves outside texture_root \"%s\"", (unsigned)i,
                    slot, e->declared[s], r->texture_root);
            if (stat(real, &st) != 0 || !S_ISREG(st.st_mode))
                return anim_texture_recipe_fail(err, ANIM_ERR_IO, r->path, e->slot_line[s],
                                                e->slot_column[s],
                                                "materials[%u].%s \"%s\" is not a regular file",
                                                (unsigned)i, slot, e->declared[s]);
            if ((uint64_t)st.st_size > ANIM_TEXTURE_MAX_FILE_BYTES)
                return anim_texture_recipe_fail(
                    err, ANIM_ERR_LIMIT, r->path, e->slot_line[s], e->slot_column[s],
                    "materials[%u].%s \"%s\" is %lld bytes, more than the %zu-byte (64 MiB) "
                    "limit for recipe images",
                    (unsigned)i, slot, e->declared[s], (long long)st.st_size,
                    ANIM_TEXTURE_MAX_FILE_BYTES);
            e->resolved[s] = real;
        }
    }
    return 0;
}
