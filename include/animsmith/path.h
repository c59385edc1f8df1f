/* Small path and character helpers shared by the reader, the writers and
 * the CLI, so every place agrees on what "the directory of a file" and "a
 * .glb path" mean. */
#ifndef ANIMSMITH_PATH_H
#define ANIMSMITH_PATH_H

#include <stdbool.h>

#include "animsmith/arena.h"

/* The directory part of path: "." when it has none, "/" for a file in the
 * root. Arena copy (NULL on allocation failure). */
char *anim_path_dirname(anim_arena *arena, const char *path);
/* The same, malloc'ed (the caller frees). */
char *anim_path_dirname_dup(const char *path);

/* True when `inner` is `outer` or lies below it: a prefix that ends on a
 * path-component boundary ("/a/bc" is not inside "/a/b"). Both are
 * canonical absolute paths (realpath). */
bool anim_path_within(const char *outer, const char *inner);

/* Whether path ends with ext (".glb"), ASCII case-insensitively. */
bool anim_path_has_extension(const char *path, const char *ext);

/* Value of an ASCII hexadecimal digit, -1 for any other character. */
int anim_hex_digit_value(int c);

#endif
