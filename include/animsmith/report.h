/* Lint output renderers and the output-v19 JSON envelope shared by
 * measure, lint and diff.
 *
 * Renderers only append to an anim_strbuf; the CLI prints the buffer at
 * once (after every file was evaluated), so a failure never leaves partial
 * output. Text and Markdown are presentation views: `--allow` ids hide
 * their findings there (and from the severity counts) but coverage gaps
 * are always shown and counted. JSON keeps every finding. */
#ifndef ANIMSMITH_REPORT_H
#define ANIMSMITH_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/doc.h"
#include "animsmith/error.h"
#include "animsmith/json_write.h"
#include "animsmith/lint.h"
#include "animsmith/measure.h"
#include "animsmith/rig.h"
#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ANIM_OUTPUT_SCHEMA_VERSION 19
#define ANIM_OUTPUT_SCHEMA "urn:animsmith:schema:output:19"

/* tool.source.dirty: null when the build cannot tell. */
typedef enum {
    ANIM_SOURCE_DIRTY_UNKNOWN = -1,
    ANIM_SOURCE_CLEAN = 0,
    ANIM_SOURCE_DIRTY = 1
} anim_source_dirty;

/* The tool identity of the envelope. The library cannot see the CLI's
 * generated version header, so the CLI passes ANIMSMITH_VERSION_STRING and
 * ANIMSMITH_REVISION_STRING here. */
typedef struct anim_tool_info {
    const char *version;        /* plain semantic version, e.g. "0.4.3" */
    const char *revision;       /* 40-hex commit, or NULL -> null */
    anim_source_dirty dirty;
} anim_tool_info;

/* The "tool" member: name, version and source {revision, dirty}, as every
 * JSON record of ours carries it. */
void anim_output_write_tool(anim_json_writer *w, const anim_tool_info *tool);

/* Opens the envelope object and writes schema_version, schema, tool and
 * command; the caller continues with summary/files and closes the object.
 * tool NULL writes version "" with a null source. */
void anim_output_envelope_begin(anim_json_writer *w, const anim_tool_info *tool,
                                const char *command);

/* The n file records as the elements of the open files[] array: copied
 * in, or (splice_at non-NULL) only their places marked (splice_at[i], see
 * anim_json_writer_splice_mark). */
void anim_output_splice_records(anim_json_writer *w, const anim_strbuf *fragments, size_t n,
                                size_t *splice_at);

/* "path": ..., "input": {"sha256", "bytes"} members of a file record. */
void anim_output_write_file_identity(anim_json_writer *w, const char *path,
                                     const char *sha256_hex, uint64_t bytes);

/* "rig": {profile, resolution_outcome, resolved_roles,
 * resolved_role_policies}, role keys sorted by role name; bone names are
 * taken from doc (a role whose bone is out of range is left out). */
void anim_output_write_rig(anim_json_writer *w, const anim_doc *doc,
                           const anim_rig_resolution *rig);

typedef struct anim_lint_render_options {
    /* --allow ids: hidden from text/Markdown findings and their counts
     * (ignored by JSON, which the CLI refuses to combine with --allow). */
    const char *const *allow;
    size_t allow_count;
    anim_tool_info tool;        /* JSON only */
    /* Text only: list every member of a repeated finding (--expand)
     * instead of one grouped line per check and clip. */
    bool expand;
    /* Text only: ANSI colour on severity words (--color). */
    bool color;
} anim_lint_render_options;

/* Text: per file the sorted findings and grouped
 * coverage lines, or `{path}: clean`, then one summary line. opts may be
 * NULL. Allocation failure is sticky in out->failed. */
void anim_render_lint_text(const anim_lint_file *files, size_t n,
                           const anim_lint_render_options *opts, anim_strbuf *out);

/* Markdown for CI comments, same grouping as text. */
void anim_render_lint_markdown(const anim_lint_file *files, size_t n,
                               const anim_lint_render_options *opts, anim_strbuf *out);

/* One file of a JSON run: the lint result, the document it was run on
 * (bone names for rig.resolved_roles) and its measurements. */
typedef struct anim_lint_json_input {
    const anim_lint_file *file;
    const anim_doc *doc;
    const anim_measurements *measurements;
} anim_lint_json_input;

/* The output-v19 lint envelope, pretty-printed, followed by one "\n".
 * Fails (err set, out left with partial content the caller discards) on a
 * non-finite measurement, a missing input, or allocation failure. */
int anim_render_lint_json(const anim_lint_json_input *inputs, size_t n,
                          const anim_lint_render_options *opts, anim_strbuf *out,
                          anim_error *err);

/* The same JSON in two steps, so files can be rendered as soon as each is
 * linted (and its asset released): one file record as a fragment, then
 * the envelope and summary around the fragments, in order. */
int anim_render_lint_json_file(const anim_lint_json_input *in, anim_strbuf *fragment,
                               anim_error *err);
int anim_render_lint_json_assemble(const anim_lint_file *const *files,
                                   const anim_strbuf *fragments, size_t n,
                                   const anim_lint_render_options *opts, anim_strbuf *out,
                                   size_t *splice_at, anim_error *err);

/* SARIF 2.1.0 for code scanning (`lint --format sarif`), pretty-printed,
 * followed by one "\n": one run whose rules are the whole check catalog,
 * one result per finding (every finding: the CLI refuses --allow here),
 * one artifact per file (relative paths under uriBaseId SRCROOT), and the
 * coverage gaps and required-unavailable prediction facets as tool
 * execution notifications. Fails (err set) only on allocation failure. */
int anim_render_lint_sarif(const anim_lint_file *files, size_t n,
                           const anim_lint_render_options *opts, anim_strbuf *out,
                           anim_error *err);

/* JUnit XML for CI test reports (`lint --format junit`): one <testsuite>
 * per file, one <testcase> per selected, enabled and applicable check and
 * clip; a case fails on the findings that fail the run (errors, and
 * warnings too when deny_warnings, as --deny-warnings) and on a
 * required-unavailable prediction facet, is skipped when only coverage
 * gaps speak for it, and lists the other findings and gaps in
 * <system-out>. Fails (err set) only on allocation failure. */
int anim_render_lint_junit(const anim_lint_file *files, size_t n, bool deny_warnings,
                           anim_strbuf *out, anim_error *err);

/* The family (docs page) and one-line summary `animsmith checks` prints
 * for a check id, "?" for an id outside the catalog. */
const char *anim_check_family(const char *id);
const char *anim_check_summary(const char *id);

/* Internal helpers shared by the text and Markdown renderers. */

/* A facet field as its JSON scalar (lint JSON, SARIF, the report). */
void anim_lint_json_field(anim_json_writer *w, const anim_field *f);
/* One check record exactly as lint JSON writes it (generate addressability
 * embeds the engine-addressability record). */
void anim_lint_json_write_record(anim_json_writer *w, const anim_check_record *rec);

/* Whether id is one of the --allow ids. */
bool anim_lint_is_allowed(const anim_lint_render_options *opts, const char *id);

/* The file's displayed findings (allowed ids removed), stably sorted by
 * (clip, descending severity) with "no clip" first; *count receives the
 * number. Returns a malloc'd array (NULL when count is 0 or on allocation
 * failure, *count then 0 and *failed set). */
const anim_finding **anim_lint_sorted_findings(const anim_lint_file *file,
                                               const anim_lint_render_options *opts,
                                               size_t *count, bool *failed);

/* One coverage group: gaps of one (check id, code), in emission order. */
typedef struct anim_gap_group {
    const char *check_id;
    const char *code;
    const anim_gap **gaps;
    size_t count;
} anim_gap_group;

/* Coverage groups ordered by check id then code (byte-wise). Returns a
 * malloc'd array to release with anim_gap_groups_free; *total receives the
 * number of gaps. */
anim_gap_group *anim_lint_gap_groups(const anim_lint_file *file, size_t *group_count,
                                     size_t *total, bool *failed);
void anim_gap_groups_free(anim_gap_group *groups, size_t count);

typedef enum { ANIM_GAP_SCOPES, ANIM_GAP_SUBJECTS, ANIM_GAP_MESSAGES } anim_gap_field;

/* The distinct values of one field over the group's gaps, sorted
 * byte-wise, first 5 joined by ", " plus ", … +k more"; raw (unescaped)
 * text appended to out. Returns the number of distinct values. */
size_t anim_gap_group_summary(const anim_gap_group *g, anim_gap_field field, anim_strbuf *out);

/* A run of consecutive facets of one check record with the same scope
 * code, state and reasons (first points at the first of count facets). */
typedef struct anim_facet_group {
    const char *check_id;
    const anim_prediction_facet *first;
    size_t count;
} anim_facet_group;

/* The file's facet runs in catalog order (malloc'd, free() it; NULL when
 * the file has none); *available and *unavailable count every facet. */
anim_facet_group *anim_lint_facet_groups(const anim_lint_file *file, size_t *group_count,
                                         size_t *available, size_t *unavailable, bool *failed);
/* The run's scope subjects, first 5 joined by ", " plus ", … +k more"
 * (raw text); returns how many facets have a subject. */
size_t anim_facet_group_subjects(const anim_facet_group *g, anim_strbuf *out);
/* The run's reason codes joined by ", " (raw text). */
void anim_facet_group_reasons(const anim_facet_group *g, anim_strbuf *out);

/* A finding value for display: numbers "{:.4}", text verbatim. */
void anim_lint_put_value(anim_strbuf *out, const anim_value *v);
/* A finding as raw (unescaped) text, the fields of a text line after its
 * severity tag: "clip 'c' bone 'b' @1.000s: message (measured m, expected
 * e)" (SARIF messages, JUnit failures). */
void anim_lint_finding_context(anim_strbuf *out, const anim_finding *f);
/* A finding's measured/expected as lint JSON writes it: a number, a text,
 * or null. */
void anim_lint_json_value(anim_json_writer *w, const anim_value *v);

/* ---- Records first, envelope after (measure; lint's summary counts), so
 * a worker renders each file as soon as it is done and `animsmith merge`
 * can join the records of shard reports without re-rendering them. */

/* One measure file record, as a fragment for
 * anim_render_measure_json_assemble (the same bytes anim_render_measure_json
 * writes for that file). */
int anim_render_measure_json_file(const anim_measure_file *file, anim_strbuf *fragment,
                                  anim_error *err);

/* The measure envelope (summary.files = n) around n fragments, in order.
 * With splice_at (n entries) the fragments are not copied: out holds
 * everything else and splice_at[i] is the offset in out where fragment i
 * belongs (anim_json_writer_splice_mark); NULL copies them into out. */
int anim_render_measure_json_assemble(const anim_strbuf *fragments, size_t n,
                                      const anim_tool_info *tool, anim_strbuf *out,
                                      size_t *splice_at, anim_error *err);

/* The counts of the lint envelope's summary, accumulated file by file
 * (zero-initialise it first). */
typedef struct anim_lint_json_summary {
    size_t files;
    size_t findings[ANIM_SEVERITY_ERROR + 1]; /* by anim_severity */
    size_t checks, selected, enabled, applicable;
    size_t eval[ANIM_EVAL_COMPLETE + 1];      /* by anim_evaluation */
    size_t gaps;
    size_t facets_available, facets_unavailable; /* prediction facets */
} anim_lint_json_summary;

void anim_lint_json_summary_add(anim_lint_json_summary *s, const anim_lint_file *file);
/* Adds the counts of s (another file or another report) to *to. */
void anim_lint_json_summary_merge(anim_lint_json_summary *to, const anim_lint_json_summary *s);

/* The lint envelope with summary s around n file-record fragments, in
 * order (anim_render_lint_json_assemble is this after summing its files);
 * splice_at as for anim_render_measure_json_assemble. */
int anim_render_lint_json_envelope(const anim_lint_json_summary *s, const anim_strbuf *fragments,
                                   size_t n, const anim_tool_info *tool, anim_strbuf *out,
                                   size_t *splice_at, anim_error *err);

#ifdef __cplusplus
}
#endif
#endif
