/* Private helpers shared by the per-track mechanical checks (nan,
 * time-monotonic, quat-norm, quat-flip, duration-sanity): finding fields
 * for a track, finiteness scans, and message number formatting with the
 * report's number spellings. */
#ifndef ANIMSMITH_CHECKS_TRACK_UTIL_H
#define ANIMSMITH_CHECKS_TRACK_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "checks/checks.h"

/* Large enough for "%.4f" of any finite double (DBL_MAX has 309 integer
 * digits) and for plain display (ANIM_FMT_PLAIN_MAX). */
#define TRACK_FMT_MAX 400

/* One per-track check: records what it finds on one track; -1 only when
 * out of memory. */
typedef int (*track_check_fn)(anim_lint_context *ctx, anim_check_record *rec,
                              const anim_clip *clip, const anim_track *track);

/* Runs fn over every track of every clip, in document order; the first
 * failure stops the run as ANIM_ERR_NOMEM (the CHECK_RUN result). */
int track_check_each(anim_lint_context *ctx, anim_check_record *rec, track_check_fn fn,
                     anim_error *err);

/* Fields every per-track finding carries: severity, clip name and the
 * track's bone name (`<unknown>` out of range); no time, no values. */
anim_finding_fields track_fields(const anim_lint_context *ctx, const anim_clip *clip,
                                 const anim_track *track, anim_severity severity);

/* The {property} word of the messages: translation / rotation / scale. */
const char *track_property(const anim_track *track);

/* Number of floats the track stores (value_count * components), 0 when
 * the track has no value storage. */
uint64_t track_float_count(const anim_track *track);

/* Whether all n floats are finite. */
bool track_floats_finite(const float *v, uint32_t n);

/* Whether the track has values and every one of its floats (tangents
 * included) is finite: one scan, after which no key needs its own test. */
bool track_values_finite(const anim_track *track);

/* Key k's quaternion value element (cubic: the middle of the triplet), or
 * NULL when the track does not store 4-wide values or k is out of range. */
const float *track_key_quat(const anim_track *track, uint32_t k);

/* `{:.N}` (NaN / inf / -inf spelled as `NaN`, `inf`, `-inf`) and plain
 * display `{x}`, into buf (TRACK_FMT_MAX bytes); returns buf. */
const char *track_fmt_fixed(double v, int decimals, char buf[TRACK_FMT_MAX]);
const char *track_fmt_plain(double v, char buf[TRACK_FMT_MAX]);

#endif
