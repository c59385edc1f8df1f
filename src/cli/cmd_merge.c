/* animsmith merge REPORT.json...: joins the JSON reports of the shards of
 * one lint or measure run (--shard K/N) into the report that run would have
 * printed unsharded. File records are copied byte for byte from the shard
 * reports (never re-rendered, so no number passes through a printer
 * again), ordered by path; the summary is recomputed from the records.
 * Every report must be exactly as animsmith printed it: re-assembling a
 * report from its own records must give back its bytes, which proves both
 * that its summary matches its files and that its records were cut out
 * exactly. Reports of different commands or builds, of different
 * contracts or --select, a file in two reports, or anything malformed are
 * refused (exit 2, one line naming the report) and nothing is printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/json.h"
#include "animsmith/report.h"
#include "animsmith/strbuf.h"
#include "cli.h"
#include "shard.h"

/* A shard report is read whole; the JSON reader's own default ceiling. */
#define MERGE_REPORT_MAX_BYTES ((size_t)1 << 30)

/* One file record of some shard. */
typedef struct {
    const char *report;  /* the report it came from (an argument) */
    char *path;          /* decoded path, path_len bytes (may hold NUL) */
    size_t path_len;
    size_t order;        /* position over all reports: keeps the sort stable */
    anim_strbuf record;  /* its bytes as printed, separator excluded */
} merge_file;

/* What every report must share with the first. */
typedef struct {
    const char *report;
    bool lint;
    char *version, *revision;  /* revision NULL: null */
    anim_source_dirty dirty;
    anim_strbuf checks;        /* lint: the check id/selection/configuration list */
    const char *checks_path;   /* ... and the file it was first seen in */
} merge_identity;

typedef struct {
    merge_identity first;
    bool have_first;
    anim_lint_json_summary summary;
    merge_file *files;
    size_t count, cap;
} merge_state;

/* ---- shape checks: each names the report and the member */

static int malformed(const char *report, const char *what)
{
    return cli_operator_error("%s: not an animsmith lint or measure report: %s", report, what);
}

static bool is_type(const anim_json_value *v, anim_json_type t)
{
    return v && v->type == t;
}

static bool key_is(const anim_json_member *m, const char *key)
{
    size_t n = strlen(key);
    return anim_json_key_len(m) == n && memcmp(m->key, key, n) == 0;
}

/* The root's members, exactly in the order animsmith writes them (any
 * other shape cannot be re-assembled byte for byte). */
static const char *const envelope_keys[] = {"schema_version", "schema", "tool",
                                            "command",        "summary", "files"};
#define ENVELOPE_KEYS (sizeof envelope_keys / sizeof *envelope_keys)

static char *string_copy(const anim_json_value *v)
{
    char *s = malloc(v->len + 1);
    if (s) {
        memcpy(s, anim_json_string(v), v->len);
        s[v->len] = '\0';
    }
    return s;
}

/* tool {name, version, source {revision, dirty}} into id. */
static int read_tool(const char *report, const anim_json_value *tool, merge_identity *id)
{
    const anim_json_value *name = anim_json_get(tool, "name");
    const anim_json_value *version = anim_json_get(tool, "version");
    const anim_json_value *source = anim_json_get(tool, "source");
    const anim_json_value *revision = anim_json_get(source, "revision");
    const anim_json_value *dirty = anim_json_get(source, "dirty");
    if (!is_type(tool, ANIM_JSON_OBJECT) || !anim_json_string_eq(name, "animsmith") ||
        !is_type(version, ANIM_JSON_STRING) || !revision || !dirty ||
        !(is_type(revision, ANIM_JSON_STRING) || is_type(revision, ANIM_JSON_NULL)) ||
        !(is_type(dirty, ANIM_JSON_TRUE) || is_type(dirty, ANIM_JSON_FALSE) ||
          is_type(dirty, ANIM_JSON_NULL)))
        return malformed(report, "tool: expected {name: \"animsmith\", version, source "
                                 "{revision, dirty}}");
    id->version = string_copy(version);
    id->revision = is_type(revision, ANIM_JSON_STRING) ? string_copy(revision) : NULL;
    id->dirty = is_type(dirty, ANIM_JSON_NULL)   ? ANIM_SOURCE_DIRTY_UNKNOWN
                : is_type(dirty, ANIM_JSON_TRUE) ? ANIM_SOURCE_DIRTY
                                                 : ANIM_SOURCE_CLEAN;
    if (!id->version || (is_type(revision, ANIM_JSON_STRING) && !id->revision))
        return cli_operator_error("out of memory");
    return 0;
}

static int read_envelope(const char *report, const anim_json_value *root, merge_identity *id,
                         const anim_json_value **files)
{
    if (!is_type(root, ANIM_JSON_OBJECT) || anim_json_count(root) != ENVELOPE_KEYS)
        return malformed(report, "expected an object of schema_version, schema, tool, command, "
                                 "summary and files");
    for (size_t i = 0; i < ENVELOPE_KEYS; i++)
        if (!key_is(anim_json_member_at(root, i), envelope_keys[i]))
            return malformed(report, "expected an object of schema_version, schema, tool, "
                                     "command, summary and files, in that order");
    const anim_json_value *version = anim_json_get(root, "schema_version");
    if (!anim_json_is_integer(version) ||
        anim_json_integer(version) != ANIM_OUTPUT_SCHEMA_VERSION ||
        !anim_json_string_eq(anim_json_get(root, "schema"), ANIM_OUTPUT_SCHEMA))
        return cli_operator_error("%s: not an output-v%d report (%s); merge joins reports of "
                                  "this version",
                                  report, ANIM_OUTPUT_SCHEMA_VERSION, ANIM_OUTPUT_SCHEMA);
    const anim_json_value *command = anim_json_get(root, "command");
    if (anim_json_string_eq(command, "lint"))
        id->lint = true;
    else if (!anim_json_string_eq(command, "measure"))
        return malformed(report, "command: expected \"lint\" or \"measure\"");
    *files = anim_json_get(root, "files");
    if (!is_type(*files, ANIM_JSON_ARRAY))
        return malformed(report, "files: expected an array");
    return read_tool(report, anim_json_get(root, "tool"), id);
}

static void describe_tool(const merge_identity *id, char *buf, size_t size)
{
    snprintf(buf, size, "%s %s (revision %s, %s)", id->lint ? "lint" : "measure", id->version,
             id->revision ? id->revision : "unknown",
             id->dirty == ANIM_SOURCE_DIRTY   ? "dirty"
             : id->dirty == ANIM_SOURCE_CLEAN ? "clean"
                                              : "dirty state unknown");
}

/* The shards of one run come from one command of one build. */
static int same_run(const merge_identity *first, const merge_identity *id)
{
    bool same = first->lint == id->lint && strcmp(first->version, id->version) == 0 &&
                (first->revision && id->revision ? strcmp(first->revision, id->revision) == 0
                                                 : first->revision == id->revision) &&
                first->dirty == id->dirty;
    if (same)
        return 0;
    char a[256], b[256];
    describe_tool(id, a, sizeof a);
    describe_tool(first, b, sizeof b);
    return cli_operator_error("%s: a report of %s, but %s is of %s: merge joins the shards of "
                              "one run of one build",
                              id->report, a, first->report, b);
}

/* ---- lint records: the summary counts, and the contract's fingerprint */

static int enum_index(const anim_json_value *v, const char *const *names, size_t count)
{
    for (size_t i = 0; v && i < count; i++)
        if (names[i] && anim_json_string_eq(v, names[i]))
            return (int)i;
    return -1;
}

static const char *const selection_names[] = {"unselected", "selected"};
static const char *const configuration_names[] = {"disabled", "enabled"};
static const char *const applicability_names[] = {"not_applicable", "applicable"};

/* Adds one lint file record's checks to s and appends its
 * (check_id, selection, configuration) list, which the contract and the
 * command line alone decide, to sig. what receives the failing member. */
static bool lint_record(const anim_json_value *file, anim_lint_json_summary *s, anim_strbuf *sig,
                        char *what, size_t size)
{
    const char *eval_names[ANIM_EVAL_COMPLETE + 1];
    for (int e = 0; e <= ANIM_EVAL_COMPLETE; e++)
        eval_names[e] = anim_evaluation_name((anim_evaluation)e);
    const char *severity_names[ANIM_SEVERITY_ERROR + 1] = {NULL};
    for (int v = ANIM_SEVERITY_NOTE; v <= ANIM_SEVERITY_ERROR; v++)
        severity_names[v] = anim_severity_name((anim_severity)v);
    const anim_json_value *checks = anim_json_get(file, "checks");
    if (!is_type(checks, ANIM_JSON_ARRAY)) {
        snprintf(what, size, "checks: expected an array");
        return false;
    }
    s->files++;
    for (size_t c = 0; c < anim_json_count(checks); c++) {
        const anim_json_value *rec = anim_json_item(checks, c);
        const anim_json_value *id = anim_json_get(rec, "check_id");
        int sel = enum_index(anim_json_get(rec, "selection"), selection_names, 2);
        int conf = enum_index(anim_json_get(rec, "configuration"), configuration_names, 2);
        int app = enum_index(anim_json_get(rec, "applicability"), applicability_names, 2);
        int eval = enum_index(anim_json_get(rec, "evaluation"), eval_names,
                              ANIM_EVAL_COMPLETE + 1);
        const anim_json_value *findings = anim_json_get(rec, "findings");
        const anim_json_value *gaps = anim_json_get(rec, "gaps");
        if (!is_type(id, ANIM_JSON_STRING) || sel < 0 || conf < 0 || app < 0 || eval < 0 ||
            !is_type(findings, ANIM_JSON_ARRAY) || (gaps && !is_type(gaps, ANIM_JSON_ARRAY))) {
            snprintf(what, size, "checks[%zu]: expected check_id, selection, configuration, "
                                 "applicability, evaluation and findings",
                     c);
            return false;
        }
        s->checks++;
        s->selected += (size_t)sel;
        s->enabled += (size_t)conf;
        s->applicable += (size_t)app;
        s->eval[eval]++;
        if (gaps)
            s->gaps += anim_json_count(gaps);
        for (size_t f = 0; f < anim_json_count(findings); f++) {
            int sev = enum_index(anim_json_get(anim_json_item(findings, f), "severity"),
                                 severity_names, ANIM_SEVERITY_ERROR + 1);
            if (sev < 0) {
                snprintf(what, size, "checks[%zu].findings[%zu].severity: expected note, "
                                     "warning or error",
                         c, f);
                return false;
            }
            s->findings[sev]++;
        }
        anim_strbuf_append(sig, anim_json_string(id), id->len);
        anim_strbuf_printf(sig, "%c%d%d%c", '\0', sel, conf, '\0');
    }
    return true;
}

/* ---- cutting the records out of the text */

/* One past the bracket closing the container that opens at text[at]. The
 * text was already accepted by the JSON reader, so only strings (which may
 * hold brackets and escaped quotes) need care. */
static size_t container_end(const char *text, size_t len, size_t at)
{
    size_t depth = 0;
    for (size_t i = at; i < len; i++) {
        char c = text[i];
        if (c == '"') {
            for (i++; i < len && text[i] != '"'; i++)
                if (text[i] == '\\')
                    i++;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return i + 1;
        }
    }
    return len;
}

static merge_file *add_file(merge_state *st)
{
    if (st->count == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 64;
        merge_file *grown = realloc(st->files, cap * sizeof *grown);
        if (!grown)
            return NULL;
        st->files = grown;
        st->cap = cap;
    }
    merge_file *f = &st->files[st->count++];
    memset(f, 0, sizeof *f);
    return f;
}

static void free_identity(merge_identity *id)
{
    free(id->version);
    free(id->revision);
    anim_strbuf_free(&id->checks);
}

/* Cuts out the file records of one report (appended to st from index
 * first) and checks them; s receives the report's own lint summary. */
static int read_files(const char *report, const char *text, size_t len,
                      const anim_json_value *files, merge_state *st, merge_identity *id,
                      anim_lint_json_summary *s)
{
    size_t at = files->offset + 1; /* a record's bytes start after '[' or ',' */
    for (size_t i = 0; i < anim_json_count(files); i++) {
        const anim_json_value *file = anim_json_item(files, i);
        const anim_json_value *path = anim_json_get(file, "path");
        char what[192] = "";
        if (!is_type(file, ANIM_JSON_OBJECT) || !is_type(path, ANIM_JSON_STRING))
            snprintf(what, sizeof what, "expected an object with a path");
        else if (id->lint && !lint_record(file, s, &id->checks, what, sizeof what))
            ; /* what says why */
        else if (!id->lint)
            s->files++;
        if (what[0]) {
            char msg[256];
            snprintf(msg, sizeof msg, "files[%zu]: %s", i, what);
            return malformed(report, msg);
        }
        if (id->lint && st->have_first && st->first.checks_path &&
            (id->checks.len != st->first.checks.len ||
             memcmp(id->checks.data, st->first.checks.data, id->checks.len) != 0))
            return cli_operator_error(
                "%s: files[%zu] was linted with other checks selected or enabled than %s (a "
                "different contract or --select): the shards of one run share both",
                report, i, st->first.checks_path);
        if (id->lint && !st->first.checks_path) {
            /* The first lint file seen fixes the fingerprint every other
             * file (of this and every later report) must repeat. */
            st->first.checks = id->checks;
            id->checks = (anim_strbuf)ANIM_STRBUF_INIT;
            st->first.checks_path = report;
        }
        anim_strbuf_reset(&id->checks);
        size_t end = container_end(text, len, file->offset);
        merge_file *mf = add_file(st);
        if (!mf)
            return cli_operator_error("out of memory");
        mf->report = report;
        mf->order = st->count - 1;
        mf->path = string_copy(path);
        mf->path_len = path->len;
        anim_strbuf_append(&mf->record, text + at, end - at);
        if (!mf->path || mf->record.failed)
            return cli_operator_error("out of memory");
        at = end + 1; /* past the ',' the next record follows */
    }
    return 0;
}

/* ---- putting it together */

static int assemble(bool lint, const anim_lint_json_summary *s, const merge_file *files,
                    size_t n, const merge_identity *id, anim_strbuf *out)
{
    anim_strbuf *fragments = calloc(n ? n : 1, sizeof *fragments);
    if (!fragments)
        return cli_operator_error("out of memory");
    for (size_t i = 0; i < n; i++)
        fragments[i] = files[i].record; /* borrowed */
    anim_tool_info tool = {id->version, id->revision, id->dirty};
    anim_error err;
    anim_error_clear(&err);
    int rc = lint ? anim_render_lint_json_envelope(s, fragments, n, &tool, out, NULL, &err)
                  : anim_render_measure_json_assemble(fragments, n, &tool, out, NULL, &err);
    free(fragments);
    return rc ? cli_operator_error("%s", err.message) : 0;
}

/* Reads, checks and adds one report to st. */
static int merge_report(const char *report, merge_state *st)
{
    anim_arena *arena = anim_arena_new();
    if (!arena)
        return cli_operator_error("out of memory");
    size_t len = 0, first = st->count;
    const char *text = cli_read_report(report, MERGE_REPORT_MAX_BYTES, " (use more shards)", arena, &len);
    int rc = text ? 0 : EXIT_OPERATOR;
    anim_json_value *root = NULL;
    if (rc == 0) {
        anim_error err;
        anim_error_clear(&err);
        root = anim_json_parse(arena, text, len, NULL, &err);
        if (!root)
            rc = cli_operator_error("%s: not a JSON report: %s", report, err.message);
    }
    merge_identity id = {report, false, NULL, NULL, ANIM_SOURCE_DIRTY_UNKNOWN,
                         ANIM_STRBUF_INIT, NULL};
    const anim_json_value *files = NULL;
    if (rc == 0)
        rc = read_envelope(report, root, &id, &files);
    if (rc == 0 && st->have_first)
        rc = same_run(&st->first, &id);
    if (rc == 0 && !st->have_first) {
        st->first = id;
        st->have_first = true;
        id = (merge_identity){report, id.lint, NULL, NULL, id.dirty, ANIM_STRBUF_INIT, NULL};
    }
    anim_lint_json_summary s;
    memset(&s, 0, sizeof s);
    if (rc == 0)
        rc = read_files(report, text, len, files, st, &id, &s);
    if (rc == 0) {
        /* The report re-assembled from its own records must be its bytes. */
        anim_strbuf again = ANIM_STRBUF_INIT;
        rc = assemble(st->first.lint, &s, st->files + first, st->count - first, &st->first,
                      &again);
        if (rc == 0 && (again.len != len || memcmp(again.data, text, len) != 0))
            rc = cli_operator_error("%s: not a report as animsmith printed it (edited or "
                                    "reformatted, or its summary does not match its files)",
                                    report);
        anim_strbuf_free(&again);
    }
    if (rc == 0)
        anim_lint_json_summary_merge(&st->summary, &s);
    free_identity(&id);
    anim_arena_free(arena);
    return rc;
}

static int by_path(const void *pa, const void *pb)
{
    const merge_file *a = pa, *b = pb;
    size_t n = a->path_len < b->path_len ? a->path_len : b->path_len;
    int c = memcmp(a->path, b->path, n);
    if (c == 0 && a->path_len != b->path_len)
        c = a->path_len < b->path_len ? -1 : 1;
    if (c == 0)
        c = a->order < b->order ? -1 : a->order > b->order;
    return c;
}

int cmd_merge(int argc, char **argv, const cli_globals *globals)
{
    (void)globals; /* the reports carry their contract's results */
    merge_state st;
    memset(&st, 0, sizeof st);
    int rc = 0, reports = 0;
    for (int i = 1; rc == 0 && i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            rc = cli_operator_error("merge: unknown option '%s'", argv[i]);
        else if (!argv[i][0])
            rc = cli_operator_error("merge: empty file argument");
        else
            reports++;
    }
    if (rc == 0 && reports == 0)
        rc = cli_operator_error("merge: no reports (usage: animsmith merge <report.json...>)");
    for (int i = 1; rc == 0 && i < argc; i++)
        rc = merge_report(argv[i], &st);
    /* The files in byte-wise path order: the order of one run over a
     * directory (or a sorted list), whichever shard each went to. */
    if (rc == 0 && st.count)
        qsort(st.files, st.count, sizeof *st.files, by_path);
    for (size_t i = 1; rc == 0 && i < st.count; i++) {
        const merge_file *a = &st.files[i - 1], *b = &st.files[i];
        /* A file named twice in one run stays twice in its one shard. */
        if (a->report == b->report || a->path_len != b->path_len ||
            memcmp(a->path, b->path, a->path_len) != 0)
            continue;
        if (strcmp(a->report, b->report) == 0)
            rc = cli_operator_error("%s: given twice: every report is joined once", b->report);
        else
            rc = cli_operator_error("%s: %s is also in %s: every file belongs to one shard",
                                    b->report, b->path, a->report);
    }
    if (rc == 0) {
        anim_strbuf out = ANIM_STRBUF_INIT;
        rc = assemble(st.first.lint, &st.summary, st.files, st.count, &st.first, &out);
        if (rc == 0)
            cli_deliver(&out);
        anim_strbuf_free(&out);
    }
    for (size_t i = 0; i < st.count; i++) {
        free(st.files[i].path);
        anim_strbuf_free(&st.files[i].record);
    }
    free(st.files);
    free_identity(&st.first);
    return rc;
}
