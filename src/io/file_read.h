/* Reading a whole input file with a size cap, shared by the readers of
 * every format (the implementation sits beside the glTF reader's file
 * mapping, src/io/gltf/file_read.c). */
#ifndef ANIMSMITH_IO_FILE_READ_H
#define ANIMSMITH_IO_FILE_READ_H

#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"

/* Reads a whole file with a size cap into arena memory (NUL-terminated). */
int anim_read_file(const char *path, size_t max_bytes, anim_arena *arena, uint8_t **data,
                   size_t *len, anim_error *err);

#endif
