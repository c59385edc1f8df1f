/* Repair ids: stable names scripts pin with --repair. */
#include <string.h>

#include "repair/fix_internal.h"

static const char *const names[ANIM_REPAIR_COUNT] = {"quat-norm", "quat-flip"};

const char *anim_repair_name(anim_repair_id id)
{
    return (unsigned)id < ANIM_REPAIR_COUNT ? names[id] : "?";
}

int anim_repair_parse(const char *name, anim_repair_id *out)
{
    for (int i = 0; i < ANIM_REPAIR_COUNT; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (anim_repair_id)i;
            return 0;
        }
    return -1;
}

int anim_repair_parse_list(const char *csv, anim_repair_id *ids, uint32_t *count,
                           anim_error *err)
{
    const char *p = csv;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char one[32];
        anim_repair_id id;
        bool known = len < sizeof one;
        if (known) {
            memcpy(one, p, len);
            one[len] = '\0';
            known = anim_repair_parse(one, &id) == 0;
        }
        if (!known)
            return anim_error_set(err, ANIM_ERR_USAGE,
                                  "unknown repair id '%.*s' (valid: quat-norm, quat-flip)",
                                  (int)(len > 64 ? 64 : len), p);
        /* Duplicates keep the first occurrence, so the user's order holds. */
        bool seen = false;
        for (uint32_t i = 0; i < *count; i++)
            seen = seen || ids[i] == id;
        if (!seen && *count < ANIM_REPAIR_COUNT)
            ids[(*count)++] = id;
        if (!end)
            return 0;
        p = end + 1;
    }
}
