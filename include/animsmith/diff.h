/* `diff BEFORE AFTER`: which clip measurements moved between two revisions
 * (spec 7.5 and 10; seed 003 "diff").
 *
 * Both sides are compared as measurement JSON trees, whatever they came
 * from: a `measure`/`lint` report (current output-v19, or a historical
 * contract diff reads) is parsed and validated against its own contract,
 * and an asset is measured now and its measurements are written with the
 * same JSON writer `measure` uses and read back. One comparison path
 * therefore serves reports and assets alike, and an asset diffed against
 * its own report can only differ where the numbers do. Trees of two
 * measurements versions are compared in the older version's view.
 *
 * Only the `clips` map is compared. The static asset evidence is validated
 * (a malformed report is refused) but never diffed. */
#ifndef ANIMSMITH_DIFF_H
#define ANIMSMITH_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/json.h"
#include "animsmith/measure.h"
#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Seed 003: reports are capped before UTF-8 or JSON parsing. */
#define ANIM_DIFF_REPORT_MAX_BYTES ((size_t)256 * 1024 * 1024)

/* One significant change. Strings live in the result's arena; they are
 * NUL-terminated, and their lengths are kept because names read from a
 * report may hold U+0000. */
typedef struct anim_diff_delta {
    const char *clip;
    size_t clip_len;
    const char *metric;      /* e.g. "loop_continuity.bones[2].position_delta_m" */
    size_t metric_len;
    bool has_before, has_after;
    double before, after;    /* finite when present */
    const char *note;        /* "moved", "appeared", "became unavailable", ... */
    size_t note_len;
} anim_diff_delta;

typedef struct anim_diff_result {
    anim_diff_delta *deltas; /* in spec 10 order */
    size_t count;
} anim_diff_result;

/* The measurements version a report contract pairs with, for the report
 * contracts diff reads: output-v19 -> 18, output-v13..v17 -> 16,
 * output-v11/v12 -> 15. 0 for any other output version (output-v18,
 * output-v10 and older, unknown), which diff refuses. */
int anim_diff_paired_measurements(int64_t output_version);

/* Validates a measurements object of the given version (15 to current):
 * schema identity, every clip record (types, availability/value pairing,
 * the output-contract invariants of spec 3.12) and the static asset
 * evidence, each held to exactly that version's shape (a field a later
 * version introduced is refused). Errors name the field path:
 * "measurement value clips[\"walk\"].speed_mps must be finite" or
 * "measurement structure clips[\"walk\"].gait is invalid: ...". */
int anim_diff_validate_measurements(const anim_json_value *m, int version, anim_error *err);

/* Parses the text of a `measure`/`lint` JSON report and returns its
 * validated measurements object (in arena; text must outlive it). Accepts
 * exactly one file record of a report contract diff reads carrying the
 * measurements version that contract pairs with; anything else is
 * refused with a message naming path (output-v10 and older, output-v18
 * and unknown contracts get the regeneration guidance). */
const anim_json_value *anim_diff_read_report(const char *path, const char *text, size_t len,
                                             anim_arena *arena, anim_error *err);

/* The measurements of an asset as a validated JSON tree: written with
 * anim_measurements_write_json and parsed back (text and tree in arena). */
const anim_json_value *anim_diff_measurements_tree(const anim_measurements *m,
                                                   anim_arena *arena, anim_error *err);

/* Compares two validated measurements objects (spec 10 with the seed's
 * row-availability and channel-identity rules). When their versions
 * differ, both are read in the older version's view, so a fact the older
 * version cannot express never shows as a change: against a record
 * without per-row loop availability (before measurements-v17), a newer
 * table with an unavailable row reads as an unavailable loop_continuity
 * fact, as that older contract would have recorded it. Deltas live in
 * arena.
 * Returns 0, or -1 with err set (out of memory). */
int anim_diff_compare(const anim_json_value *before, const anim_json_value *after,
                      anim_arena *arena, anim_diff_result *out, anim_error *err);

/* Text (spec 7.5): one "  {clip} {metric}: {note}{values}" line per delta
 * (or "no significant movement"), then "{n} significant change(s)".
 * Allocation failure is sticky in out->failed. */
void anim_render_diff_text(const anim_diff_result *r, anim_strbuf *out);

struct anim_tool_info; /* report.h */

/* The output-v19 diff envelope: header (command "diff"), inputs {before,
 * after}, summary {deltas}, deltas [{clip, metric, before?, after?, note}],
 * pretty-printed and followed by "\n". Returns -1 with err set on
 * allocation failure. */
int anim_render_diff_json(const anim_diff_result *r, const char *before_path,
                          const char *after_path, const struct anim_tool_info *tool,
                          anim_strbuf *out, anim_error *err);

#ifdef __cplusplus
}
#endif
#endif
