/* Private pieces shared by the fix_*.c files. */
#ifndef ANIMSMITH_FIX_INTERNAL_H
#define ANIMSMITH_FIX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/repair.h"

/* Where a rotation track's output elements live inside a patchable buffer
 * copy: element e is the 16 bytes at base + e * stride (xyzw, f32 LE). */
typedef struct fix_span {
    uint32_t buffer;    /* index into fix->buffers */
    uint8_t *base;
    size_t stride;
    uint32_t per_key;   /* 3 for CUBICSPLINE (in, value, out), else 1 */
    uint32_t keys;
    bool cubic;
} fix_span;

/* The pre-checks for one rotation track. Returns NULL and fills span
 * when the track can be patched, else the skip reason (static text, or
 * formatted into the fix's arena; NULL reason with *oom set on failure). */
const char *fix_locate(anim_fix *fix, const anim_track *track, fix_span *span, bool *oom);

/* Whether writing the located track's elements would change bytes some
 * other accessor, sparse section or opaque buffer view reads. NULL when
 * the bytes are the track's alone, else the skip reason (arena text; NULL
 * with *oom set on failure). */
const char *fix_overlap(anim_fix *fix, const anim_track *track, const fix_span *span, bool *oom);

/* Little-endian f32 xyzw access (the buffers are bytes, not floats: the
 * elements may be unaligned). */
void fix_quat_load(const uint8_t *p, float q[4]);
void fix_quat_store(uint8_t *p, const float q[4]);

/* The fix command's arithmetic: f64, scaled by the largest component, so
 * no finite f32 key overflows or underflows. NaN for non-finite keys. */
double fix_quat_dot(const float a[4], const float b[4]);
double fix_quat_length(const float q[4]);

/* One pass over one located track. Returns the keys changed; *skip gets
 * the pass's skip reason for the track, or NULL. */
uint32_t fix_quat_norm_track(const fix_span *span, const char **skip);
uint32_t fix_quat_flip_track(const fix_span *span);

#endif
