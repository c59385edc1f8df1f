/* Reading a stored JSON report (diff, merge): the bytes of a regular file,
 * size-capped before anything is allocated, NUL-terminated in the arena. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "animsmith/arena.h"
#include "cli.h"

char *cli_read_report(const char *path, size_t max_bytes, const char *over_hint,
                      anim_arena *arena, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_operator_error("%s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        cli_operator_error("%s: not a regular file", path);
        return NULL;
    }
    if (st.st_size < 0 || (unsigned long long)st.st_size > max_bytes) {
        fclose(f);
        cli_operator_error("%s: %lld bytes exceeds the %zu-byte report limit%s", path,
                           (long long)st.st_size, max_bytes, over_hint ? over_hint : "");
        return NULL;
    }
    size_t size = (size_t)st.st_size;
    char *text = anim_arena_alloc(arena, size + 1);
    if (!text) {
        fclose(f);
        cli_operator_error("out of memory");
        return NULL;
    }
    size_t got = size ? fread(text, 1, size, f) : 0;
    int bad = ferror(f);
    fclose(f);
    if (bad || got != size) {
        cli_operator_error("%s: short read", path);
        return NULL;
    }
    text[size] = '\0';
    *len = size;
    return text;
}
