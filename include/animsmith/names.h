/* Grouping equal names: the one ordering that both duplicate detection in
 * the contract loader and the ambiguity marks of inspect stand on. */
#ifndef ANIMSMITH_NAMES_H
#define ANIMSMITH_NAMES_H

#include <stdint.h>

/* The indices of names[0..n) ordered by name (byte-wise), equal names by
 * index, so each run of equal names starts at its first occurrence. NULL
 * names are left out; *count receives how many indices were written.
 * Malloc'd (free() it); NULL when out of memory. */
uint32_t *anim_names_order(const char *const *names, uint32_t n, uint32_t *count);

#endif
