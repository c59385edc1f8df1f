/* One arena per loaded document: everything the document points to lives
 * here and is released at once. */
#ifndef ANIMSMITH_ARENA_H
#define ANIMSMITH_ARENA_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct anim_arena anim_arena;

anim_arena *anim_arena_new(void);
void anim_arena_free(anim_arena *arena);

/* 16-byte aligned; NULL on overflow or out of memory. Zero-size requests
 * return a valid unique pointer. */
void *anim_arena_alloc(anim_arena *arena, size_t size);
void *anim_arena_calloc(anim_arena *arena, size_t count, size_t size);
/* Copies len bytes and appends a NUL. */
char *anim_arena_strndup(anim_arena *arena, const char *s, size_t len);
char *anim_arena_strdup(anim_arena *arena, const char *s);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
char *anim_arena_printf(anim_arena *arena, const char *fmt, ...);

/* Total bytes reserved from the system (for benchmarks). */
size_t anim_arena_bytes(const anim_arena *arena);

/* Overflow-checked size arithmetic: false when the result does not fit. */
bool anim_size_mul(size_t a, size_t b, size_t *out);
bool anim_size_add(size_t a, size_t b, size_t *out);

#ifdef __cplusplus
}
#endif
#endif
