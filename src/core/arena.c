/* Bump allocator: a chain of blocks, freed all at once with the document.
 * Large requests get a block of their own so small ones keep packing. */
#include "animsmith/arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_ALIGN 16u
#define ARENA_BLOCK_MIN (64u * 1024u)

typedef struct arena_block {
    struct arena_block *next;
    size_t size; /* usable bytes after the header */
    size_t used;
    /* data follows, aligned */
} arena_block;

struct anim_arena {
    arena_block *head;
    size_t reserved;
};

#define BLOCK_HEADER ((sizeof(arena_block) + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1))

bool anim_size_mul(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a)
        return false;
    *out = a * b;
    return true;
}

bool anim_size_add(size_t a, size_t b, size_t *out)
{
    if (b > SIZE_MAX - a)
        return false;
    *out = a + b;
    return true;
}

anim_arena *anim_arena_new(void)
{
    return calloc(1, sizeof(anim_arena));
}

void anim_arena_free(anim_arena *arena)
{
    if (!arena)
        return;
    arena_block *b = arena->head;
    while (b) {
        arena_block *next = b->next;
        free(b);
        b = next;
    }
    free(arena);
}

static arena_block *arena_grow(anim_arena *arena, size_t need)
{
    size_t size = need > ARENA_BLOCK_MIN ? need : ARENA_BLOCK_MIN;
    size_t total;
    if (!anim_size_add(size, BLOCK_HEADER, &total))
        return NULL;
    arena_block *b = malloc(total);
    if (!b)
        return NULL;
    b->size = size;
    b->used = 0;
    arena->reserved += total;
    if (need > ARENA_BLOCK_MIN / 4 && arena->head) {
        /* A big dedicated block goes behind the current one so the current
         * block's free tail stays available for small allocations. */
        b->next = arena->head->next;
        arena->head->next = b;
    } else {
        b->next = arena->head;
        arena->head = b;
    }
    return b;
}

void *anim_arena_alloc(anim_arena *arena, size_t size)
{
    if (!arena)
        return NULL;
    size_t rounded;
    if (!anim_size_add(size, ARENA_ALIGN - 1, &rounded))
        return NULL;
    rounded &= ~(size_t)(ARENA_ALIGN - 1);
    if (rounded == 0)
        rounded = ARENA_ALIGN;
    arena_block *b = arena->head;
    if (!b || b->size - b->used < rounded) {
        b = arena_grow(arena, rounded);
        if (!b)
            return NULL;
    }
    uint8_t *base = (uint8_t *)b + BLOCK_HEADER;
    void *p = base + b->used;
    b->used += rounded;
    return p;
}

void *anim_arena_calloc(anim_arena *arena, size_t count, size_t size)
{
    size_t total;
    if (!anim_size_mul(count, size, &total))
        return NULL;
    void *p = anim_arena_alloc(arena, total);
    if (p)
        memset(p, 0, total);
    return p;
}

char *anim_arena_strndup(anim_arena *arena, const char *s, size_t len)
{
    size_t total;
    if (!anim_size_add(len, 1, &total))
        return NULL;
    char *p = anim_arena_alloc(arena, total);
    if (!p)
        return NULL;
    if (len)
        memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

char *anim_arena_strdup(anim_arena *arena, const char *s)
{
    return anim_arena_strndup(arena, s, strlen(s));
}

char *anim_arena_printf(anim_arena *arena, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *p = anim_arena_alloc(arena, (size_t)n + 1);
    if (!p)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

size_t anim_arena_bytes(const anim_arena *arena)
{
    return arena ? arena->reserved : 0;
}
