/* Path and character helpers (see path.h). */
#include "animsmith/path.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The directory part as a span of path, or a literal when there is none. */
static const char *dir_span(const char *path, size_t *len)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        *len = 1;
        return ".";
    }
    if (slash == path) {
        *len = 1;
        return "/";
    }
    *len = (size_t)(slash - path);
    return path;
}

char *anim_path_dirname(anim_arena *arena, const char *path)
{
    size_t len;
    const char *start = dir_span(path, &len);
    return anim_arena_strndup(arena, start, len);
}

char *anim_path_dirname_dup(const char *path)
{
    size_t len;
    const char *start = dir_span(path, &len);
    char *d = malloc(len + 1);
    if (d) {
        memcpy(d, start, len);
        d[len] = '\0';
    }
    return d;
}

bool anim_path_has_extension(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n >= e && strcasecmp(path + n - e, ext) == 0;
}

int anim_hex_digit_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool anim_path_within(const char *outer, const char *inner)
{
    size_t n = strlen(outer);
    if (n > 0 && outer[n - 1] == '/')
        n--; /* the root directory "/" */
    return strncmp(outer, inner, n) == 0 && (inner[n] == '\0' || inner[n] == '/');
}
