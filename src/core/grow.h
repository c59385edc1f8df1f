/* Growing a malloc'd array by doubling, overflow-checked: the one helper
 * the readers and builders share (inline: the JSON reader's hot path
 * calls it). */
#ifndef ANIMSMITH_CORE_GROW_H
#define ANIMSMITH_CORE_GROW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "animsmith/arena.h"

/* Makes *ptr hold at least need elements of elem bytes (capacity doubling
 * from 64); false, with *ptr and *cap unchanged, when that overflows or
 * memory runs out. */
static inline bool anim_grow(void **ptr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t ncap = *cap ? *cap : 64;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return false;
        ncap *= 2;
    }
    size_t bytes;
    if (!anim_size_mul(ncap, elem, &bytes))
        return false;
    void *np = realloc(*ptr, bytes);
    if (!np)
        return false;
    *ptr = np;
    *cap = ncap;
    return true;
}

#endif
