/* Private to diff: clip and member names (with the member's value) as (pointer, length) pairs (JSON
 * strings may hold NUL), ordered byte-wise, shorter first on a tie. */
#ifndef ANIMSMITH_DIFF_INTERNAL_H
#define ANIMSMITH_DIFF_INTERNAL_H

#include <stddef.h>

#include "animsmith/json.h"

typedef struct name_ref {
    const char *s;
    size_t len;
    const anim_json_value *value; /* the member's value, when from an object */
} name_ref;

int diff_name_cmp(const name_ref *a, const name_ref *b);
/* qsort comparator over name_ref. */
int diff_name_qsort(const void *a, const void *b);

#endif
