/* Which report contracts diff reads, and how their measurement records
 * differ. Kept in one table so the envelope reader, the validators and the
 * comparison agree on every version boundary.
 *
 * Report contracts and their fixed measurements pairing: output-v19 with
 * measurements-v18 (current), output-v13..v17 with measurements-v16, and
 * output-v11/v12 with measurements-v15. output-v18 (measurements-v17) is
 * not among the reports diff reads, and output-v10 and older predate the
 * role-resolution provenance and are refused with regeneration guidance. */
#include <stdio.h>
#include <string.h>

#include "animsmith/diff.h"
#include "animsmith/measure.h"
#include "animsmith/report.h"
#include "diff/diff_internal.h"

static const struct {
    int output, measurements;
} PAIRS[] = {
    {ANIM_OUTPUT_SCHEMA_VERSION, ANIM_MEASUREMENTS_SCHEMA_VERSION},
    {17, 16}, {16, 16}, {15, 16}, {14, 16}, {13, 16},
    {12, 15}, {11, 15},
};

int anim_diff_paired_measurements(int64_t output_version)
{
    for (size_t i = 0; i < sizeof PAIRS / sizeof *PAIRS; i++)
        if (PAIRS[i].output == output_version)
            return PAIRS[i].measurements;
    return 0;
}

/* The measurements version that introduced each feature, and the field
 * name it added (for wording "unknown field" refusals). */
static const struct {
    int since;
    const char *field;
} FEATURES[DIFF_F_COUNT] = {
    [DIFF_F_PRIMITIVES] = {16, "primitives"},
    [DIFF_F_LEADING_MAGIC] = {16, "leading_magic_hex"},
    [DIFF_F_LOOP_ROW_AVAILABILITY] = {17, "availability"},
    [DIFF_F_LINEAR_ROTATION] = {18, "rotation_xyzw"},
};

bool diff_has(int mv, diff_feature f)
{
    return mv >= FEATURES[f].since;
}

int diff_field_since(const char *key, size_t len)
{
    for (size_t i = 0; i < DIFF_F_COUNT; i++)
        if (strlen(FEATURES[i].field) == len && memcmp(FEATURES[i].field, key, len) == 0)
            return FEATURES[i].since;
    return 0;
}

bool diff_outputs_for(int mv, char *buf, size_t cap)
{
    int lo = 0, hi = 0;
    for (size_t i = 0; i < sizeof PAIRS / sizeof *PAIRS; i++) {
        if (PAIRS[i].measurements != mv)
            continue;
        if (!lo || PAIRS[i].output < lo)
            lo = PAIRS[i].output;
        if (PAIRS[i].output > hi)
            hi = PAIRS[i].output;
    }
    if (!lo)
        return false;
    /* The pairings are contiguous version ranges (see PAIRS). */
    if (lo == hi)
        snprintf(buf, cap, "output-v%d", lo);
    else if (hi == lo + 1)
        snprintf(buf, cap, "output-v%d/v%d", lo, hi);
    else
        snprintf(buf, cap, "output-v%d to output-v%d", lo, hi);
    return true;
}
