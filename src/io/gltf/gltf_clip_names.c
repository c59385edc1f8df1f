/* Clip names: every clip of a document gets a distinct name, because
 * everything downstream (measure rows, lint findings, diff pairing, config
 * [clips.*] tables) keys clips by name and would otherwise merge or drop
 * one silently.
 *
 * The rule, deterministic in file order:
 *   1. The base name is the authored name, or "animation{index}".
 *   2. The first clip with a base name keeps it.
 *   3. A later clip with the same base becomes "{base}#n": n counts that
 *      base's repeats (1, 2, ...) and skips every candidate already taken,
 *      whether it is another clip's base name (authored or generated, even
 *      one later in the file) or an earlier "#n" result.
 * Without such collisions this is the plain counter ("walk", "walk#1",
 * "walk#2"); with them, authored names always win: "Walk", "Walk",
 * "Walk#1" become "Walk", "Walk#2", "Walk#1". */
#include "io/gltf/gltf_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name; /* NULL: free slot */
    uint32_t repeats; /* the last n used for "{name}#n" */
} name_slot;

typedef struct {
    name_slot *slots;
    size_t mask;
} name_set;

static size_t hash_name(const char *s)
{
    size_t h = (size_t)14695981039346656037ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * (size_t)1099511628211ull;
    return h;
}

/* The slot holding name, or the free slot where it would go. */
static name_slot *find_slot(const name_set *set, const char *name)
{
    size_t i = hash_name(name) & set->mask;
    while (set->slots[i].name && strcmp(set->slots[i].name, name) != 0)
        i = (i + 1) & set->mask;
    return &set->slots[i];
}

int gltf_name_clips(anim_arena *arena, anim_doc *doc, anim_error *err)
{
    /* Each clip adds one name (its base or its "#n"): load factor <= 1/2. */
    size_t cap = 4;
    while (cap < 2 * (size_t)doc->clip_count)
        cap *= 2;
    name_set set = {calloc(cap, sizeof(name_slot)), cap - 1};
    bool *repeat = calloc(doc->clip_count ? doc->clip_count : 1, sizeof *repeat);
    int rc = 0;
    if (!set.slots || !repeat) {
        rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        goto done;
    }
    /* Every base is reserved first, so no "#n" can take a later clip's. */
    for (uint32_t c = 0; c < doc->clip_count; c++) {
        name_slot *slot = find_slot(&set, doc->clips[c].base_name);
        repeat[c] = slot->name != NULL;
        slot->name = doc->clips[c].base_name;
        doc->clips[c].name = doc->clips[c].base_name;
    }
    for (uint32_t c = 0; c < doc->clip_count; c++) {
        if (!repeat[c])
            continue;
        name_slot *base = find_slot(&set, doc->clips[c].base_name);
        for (;;) {
            char *candidate = anim_arena_printf(arena, "%s#%u", base->name, ++base->repeats);
            if (!candidate) {
                rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
                goto done;
            }
            name_slot *slot = find_slot(&set, candidate);
            if (!slot->name) {
                slot->name = candidate;
                doc->clips[c].name = candidate;
                break;
            }
        }
    }
done:
    free(set.slots);
    free(repeat);
    return rc;
}
