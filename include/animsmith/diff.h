/* `diff BEFORE AFTER`: which clip measurements moved between two revisions
 * (docs/diff.md).
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
 * (a malformed report is refused) but never diffed. Two lint reports also
 * have their findings compared (anim_diff_compare_findings below). */
#ifndef ANIMSMITH_DIFF_H
#define ANIMSMITH_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/config.h"
#include "animsmith/error.h"
#include "animsmith/json.h"
#include "animsmith/measure.h"
#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reports are capped at this size before UTF-8 or JSON parsing. */
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
    anim_diff_delta *deltas; /* clips of BEFORE by name, then added clips */
    size_t count;
} anim_diff_result;

/* The measurements version a report contract pairs with, for the report
 * contracts diff reads: output-v19 -> 18, output-v13..v17 -> 16,
 * output-v11/v12 -> 15. 0 for any other output version (output-v18,
 * output-v10 and older, unknown), which diff refuses. */
int anim_diff_paired_measurements(int64_t output_version);

/* Validates a measurements object of the given version (15 to current):
 * schema identity, every clip record (types, availability/value pairing,
 * the output-contract invariants of each clip record) and the static asset
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

/* Compares two validated measurements objects (the metrics, floors and
 * notes of docs/diff.md, with its row-availability and channel-identity
 * rules). When their versions differ, both are read in the older
 * version's view, so a fact the older version cannot express never shows
 * as a change: against a record without per-row loop availability
 * (before measurements-v17), a newer table with an unavailable row reads
 * as an unavailable loop_continuity fact, as that older contract would
 * have recorded it. Deltas live in arena.
 * Returns 0, or -1 with err set (out of memory). */
int anim_diff_compare(const anim_json_value *before, const anim_json_value *after,
                      anim_arena *arena, anim_diff_result *out, anim_error *err);

/* Text: one "  {clip} {metric}: {note}{values}" line per delta
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

/* ---- findings: a second comparison between two lint reports ----
 *
 * Only a `lint` report carries content findings; an asset (measured, not
 * linted, by diff) and a `measure` report do not. When both sides are lint
 * reports their findings are compared as multisets keyed by identity:
 * check id, severity, clip, bone, node and key time (each when present).
 * The message and the measured/expected values are display data, not
 * identity: a finding whose number moved is the same finding (the
 * measurement deltas show the movement). */

typedef enum anim_diff_source {
    ANIM_DIFF_SOURCE_ASSET = 0,
    ANIM_DIFF_SOURCE_MEASURE_REPORT,
    ANIM_DIFF_SOURCE_LINT_REPORT
} anim_diff_source;

/* One content finding read from a lint report. Strings point into the
 * report's text or its arena, are NOT NUL-terminated, and may hold U+0000:
 * use the lengths. A NULL clip/bone/node is an absent field. */
typedef struct anim_diff_finding {
    const char *check_id;
    size_t check_id_len;
    anim_severity severity; /* NOTE, WARNING or ERROR */
    const char *clip, *bone, *node;
    size_t clip_len, bone_len, node_len;
    bool has_time;
    double time_s; /* finite when has_time */
    const char *message;
    size_t message_len;
} anim_diff_finding;

/* The findings of one diff side. An asset or a measure report has none
 * (and source says which it was). */
typedef struct anim_diff_findings {
    anim_diff_source source;
    anim_diff_finding *items; /* in report order */
    size_t count;
} anim_diff_findings;

/* Reads files[0].checks[].findings[] of a parsed report root (a report
 * anim_diff_read_report accepted). A `measure` report gives source
 * MEASURE_REPORT and no findings. Each finding must carry a check_id equal
 * to its record's, a severity of error, warning or note, string clip,
 * bone, node and message fields, and a finite time_s; anything else is
 * refused naming the field ("{path}: report field
 * files[0].checks[2].findings[0].severity must be ..."). Returns 0, or -1
 * with err set. */
int anim_diff_report_findings(const char *path, const anim_json_value *root, anim_arena *arena,
                              anim_diff_findings *out, anim_error *err);

typedef enum anim_diff_change { ANIM_DIFF_REMOVED = 0, ANIM_DIFF_ADDED = 1 } anim_diff_change;

typedef struct anim_diff_finding_change {
    anim_diff_change change;
    const anim_diff_finding *finding; /* the before side's when removed */
} anim_diff_finding_change;

typedef struct anim_diff_findings_result {
    /* Both sides were lint reports. Otherwise nothing is compared and
     * the renderers say nothing about findings: an asset is measured, not
     * linted, by diff, and a measure report carries no findings. */
    bool compared;
    anim_diff_finding_change *changes; /* by identity: clip, check, bone, node, time, severity */
    size_t count;
    size_t added, removed;
    /* Findings per severity on each side, indexed by anim_severity. */
    size_t before[ANIM_SEVERITY_ERROR + 1], after[ANIM_SEVERITY_ERROR + 1];
} anim_diff_findings_result;

/* Compares the findings of two sides (see above). Changes live in arena.
 * Returns 0, or -1 with err set (out of memory). */
int anim_diff_compare_findings(const anim_diff_findings *before, const anim_diff_findings *after,
                               anim_arena *arena, anim_diff_findings_result *out,
                               anim_error *err);

/* anim_render_diff_text with the findings comparison: after the delta
 * lines, one "  finding removed: ..." / "  finding added: ..." line per
 * change in lint text's finding shape, and after the count line
 * "findings: {r} removed, {a} added (errors B -> A, warnings B -> A,
 * notes B -> A)". With f NULL or not compared, exactly
 * anim_render_diff_text. */
void anim_render_diff_text_findings(const anim_diff_result *r,
                                    const anim_diff_findings_result *f, anim_strbuf *out);

/* anim_render_diff_json with the findings comparison: summary.findings
 * {added, removed} and a top-level "findings" object {before: {error,
 * warning, note}, after: {...}, changes: [{change, check_id, severity,
 * clip?, bone?, node?, time_s?, message}]}. Neither key appears when f is
 * NULL or not compared (the plain measurement-diff shape). */
int anim_render_diff_json_findings(const anim_diff_result *r, const anim_diff_findings_result *f,
                                   const char *before_path, const char *after_path,
                                   const struct anim_tool_info *tool, anim_strbuf *out,
                                   anim_error *err);

/* anim_diff_read_report that also hands back the parsed report root (for
 * anim_diff_report_findings); root may be NULL. */
const anim_json_value *anim_diff_read_report_root(const char *path, const char *text, size_t len,
                                                  anim_arena *arena,
                                                  const anim_json_value **root,
                                                  anim_error *err);

#ifdef __cplusplus
}
#endif
#endif
