/* Lint as SARIF 2.1.0 (`lint --format sarif`), for code scanning.
 *
 * One run. tool.driver.rules is the whole check catalog, so a result's
 * ruleIndex is its check's catalog index whatever was selected. Every
 * finding is one result (the CLI refuses --allow, as for JSON: machine
 * evidence keeps every finding) on the input file's artifact; coverage
 * gaps and required-unavailable prediction facets are not results but
 * tool execution notifications (a gap never fails a run; an unavailable
 * facet at level "error" tells a consumer the results are incomplete).
 * Everything is written in argument, catalog and emission order, so the
 * log is byte-for-byte deterministic. */
#include <stdlib.h>
#include <string.h>

#include "animsmith/hash.h"
#include "animsmith/report.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define SRCROOT "SRCROOT"
/* partialFingerprints key: versioned, so a change of what the
 * fingerprint covers can never silently re-match old alerts. */
#define FINGERPRINT_KEY "animsmithFinding/v1"

static const char *level_of(anim_severity s)
{
    switch (s) {
    case ANIM_SEVERITY_ERROR: return "error";
    case ANIM_SEVERITY_WARNING: return "warning";
    default: return "note";
    }
}

/* The check's index in tool.driver.rules (the catalog), or -1. */
static long rule_index(const char *id)
{
    for (size_t c = 0; id && c < anim_check_count(); c++)
        if (strcmp(anim_check_at(c)->id, id) == 0)
            return (long)c;
    return -1;
}

static bool is_absolute(const char *path)
{
    return path[0] == '/';
}

/* A path as a URI reference: bytes outside the unreserved set and "/"
 * are percent-encoded (so a ':' in a first segment cannot read as a
 * scheme, and bytes that are not UTF-8 survive); an absolute path becomes
 * a file: URI, a relative one loses its leading "./" (code scanning keys
 * alerts by the path relative to the checkout). */
static void put_uri(anim_strbuf *out, const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    if (is_absolute(path))
        anim_strbuf_puts(out, "file://");
    else
        while (path[0] == '.' && path[1] == '/') {
            path += 2;
            while (*path == '/')
                path++;
        }
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        unsigned char c = *p;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
            anim_strbuf_putc(out, (char)c);
        } else {
            anim_strbuf_putc(out, '%');
            anim_strbuf_putc(out, hex[c >> 4]);
            anim_strbuf_putc(out, hex[c & 15]);
        }
    }
}

/* One file's artifactLocation: uri, uriBaseId when relative, index. */
static void write_artifact_location(anim_json_writer *w, const char *uri, bool relative,
                                    size_t index, bool with_index)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "uri");
    anim_json_writer_string(w, uri);
    if (relative) {
        anim_json_writer_key(w, "uriBaseId");
        anim_json_writer_string(w, SRCROOT);
    }
    if (with_index) {
        anim_json_writer_key(w, "index");
        anim_json_writer_uint(w, index);
    }
    anim_json_writer_end_object(w);
}

/* A finding is about the whole asset: its region is every byte of the
 * file (a binary artifact's region), and also line 1, because code
 * scanning places an alert only on a line (it shows a binary file's alert
 * without a preview). Notifications name the file alone. */
static void write_locations(anim_json_writer *w, const char *uri, bool relative, size_t index,
                            const uint64_t *whole_file_bytes)
{
    anim_json_writer_key(w, "locations");
    anim_json_writer_begin_array(w);
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "physicalLocation");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "artifactLocation");
    write_artifact_location(w, uri, relative, index, true);
    if (whole_file_bytes) {
        anim_json_writer_key(w, "region");
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "startLine", 1);
        anim_json_writer_key_uint(w, "byteOffset", 0);
        anim_json_writer_key_uint(w, "byteLength", *whole_file_bytes);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
    anim_json_writer_end_array(w);
}

static void write_scope(anim_json_writer *w, const char *code, const char *subject)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "code");
    anim_json_writer_string(w, code ? code : "");
    if (subject) {
        anim_json_writer_key(w, "subject");
        anim_json_writer_string(w, subject);
    }
    anim_json_writer_end_object(w);
}

static void write_text_object(anim_json_writer *w, const char *key, const char *text)
{
    anim_json_writer_key(w, key);
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "text");
    anim_json_writer_string(w, text);
    anim_json_writer_end_object(w);
}

/* "loop-seam-vel" -> "LoopSeamVel": SARIF's rule name is a readable
 * identifier, conventionally Pascal case. */
static void put_rule_name(anim_strbuf *out, const char *id)
{
    bool upper = true;
    for (const char *p = id; *p; p++) {
        if (*p == '-' || *p == '_') {
            upper = true;
            continue;
        }
        char c = *p;
        if (upper && c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        anim_strbuf_putc(out, c);
        upper = false;
    }
}

static bool same_ignoring_case(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
        if (x != y)
            return false;
    }
    return *a == *b;
}

static void write_rules(anim_json_writer *w, anim_strbuf *tmp)
{
    anim_json_writer_key(w, "rules");
    anim_json_writer_begin_array(w);
    for (size_t c = 0; c < anim_check_count(); c++) {
        const anim_check_def *def = anim_check_at(c);
        const char *summary = anim_check_summary(def->id);
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "id");
        anim_json_writer_string(w, def->id);
        anim_strbuf_reset(tmp);
        put_rule_name(tmp, def->id);
        /* A one-word id ("nan", "fps") would make a name equal to it but
         * for case, which SARIF says to omit. */
        if (!same_ignoring_case(tmp->data ? tmp->data : "", def->id)) {
            anim_json_writer_key(w, "name");
            anim_json_writer_string(w, tmp->data ? tmp->data : "");
        }
        anim_strbuf_reset(tmp);
        /* A description is a sentence: capitalised, ending in a period. */
        anim_strbuf_printf(tmp, "%c%s.", summary[0] >= 'a' && summary[0] <= 'z'
                                             ? summary[0] - 'a' + 'A' : summary[0],
                           summary[0] ? summary + 1 : "");
        write_text_object(w, "shortDescription", tmp->data ? tmp->data : "");
        anim_strbuf_reset(tmp);
        anim_strbuf_printf(tmp,
                           "The %s check (%s family) judges: %s. Its default severity is %s%s. "
                           "See docs/checks.md#%s.",
                           def->id, anim_check_family(def->id), summary,
                           anim_severity_name(def->default_severity),
                           def->opt_in ? "; it is opt-in (disabled unless a severity is "
                                         "configured)"
                                       : "",
                           def->id);
        write_text_object(w, "fullDescription", tmp->data ? tmp->data : "");
        anim_strbuf_reset(tmp);
        anim_strbuf_printf(tmp,
                           "See docs/checks.md#%s in the animsmith documentation for what the "
                           "check judges, when it applies and its evidence. [checks.%s] severity "
                           "in animsmith.toml re-grades it (\"off\" disables it).",
                           def->id, def->id);
        write_text_object(w, "help", tmp->data ? tmp->data : "");
        anim_json_writer_key(w, "defaultConfiguration");
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "enabled");
        anim_json_writer_bool(w, !def->opt_in);
        anim_json_writer_key(w, "level");
        anim_json_writer_string(w, level_of(def->default_severity));
        anim_json_writer_end_object(w);
        anim_json_writer_key(w, "properties");
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "tags");
        anim_json_writer_begin_array(w);
        anim_json_writer_string(w, "animation");
        anim_json_writer_string(w, anim_check_family(def->id));
        anim_json_writer_end_array(w);
        anim_json_writer_key(w, "family");
        anim_json_writer_string(w, anim_check_family(def->id));
        anim_json_writer_key(w, "opt_in");
        anim_json_writer_bool(w, def->opt_in);
        anim_json_writer_key(w, "per_clip");
        anim_json_writer_bool(w, def->per_clip);
        anim_json_writer_end_object(w);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}

static void write_tool(anim_json_writer *w, const anim_tool_info *tool, anim_strbuf *tmp)
{
    const char *version = tool && tool->version ? tool->version : "";
    anim_json_writer_key(w, "tool");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "driver");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "name");
    anim_json_writer_string(w, "animsmith");
    if (version[0]) {
        anim_json_writer_key(w, "version");
        anim_json_writer_string(w, version);
        anim_json_writer_key(w, "semanticVersion");
        anim_json_writer_string(w, version);
    }
    write_rules(w, tmp);
    /* The build's source identity, as every JSON record of ours has it. */
    anim_json_writer_key(w, "properties");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_string_or_null(w, "revision", tool ? tool->revision : NULL);
    anim_json_writer_key(w, "dirty");
    if (tool && tool->dirty != ANIM_SOURCE_DIRTY_UNKNOWN)
        anim_json_writer_bool(w, tool->dirty == ANIM_SOURCE_DIRTY);
    else
        anim_json_writer_null(w);
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
}

/* A finding's identity within its file, for partialFingerprints: the
 * check, clip, bone, node and prediction scope, plus its rank among the
 * record's findings with that same identity (so two constant tracks of
 * one bone stay two alerts). Measured values, times and wording are left
 * out: a re-export that moves a number keeps the alert. */
typedef struct {
    const anim_finding *f;
    uint32_t index;
} finding_ref;

static int cmp_opt(const char *a, const char *b)
{
    if (!a || !b)
        return (a != NULL) - (b != NULL);
    return strcmp(a, b);
}

static int cmp_identity(const anim_finding *a, const anim_finding *b)
{
    int c;
    if ((c = cmp_opt(a->clip, b->clip)) || (c = cmp_opt(a->bone, b->bone)) ||
        (c = cmp_opt(a->node, b->node)) ||
        (c = cmp_opt(a->prediction_scope_code, b->prediction_scope_code)) ||
        (c = cmp_opt(a->prediction_scope_subject, b->prediction_scope_subject)))
        return c;
    return 0;
}

static int cmp_ref(const void *pa, const void *pb)
{
    const finding_ref *a = pa, *b = pb;
    int c = cmp_identity(a->f, b->f);
    if (c)
        return c;
    return (a->index > b->index) - (a->index < b->index);
}

/* rank[i]: finding i's rank among the record's findings of its identity.
 * Returns a malloc'd array (NULL when the record has none or on
 * allocation failure, *failed then set). */
static uint32_t *identity_ranks(const anim_check_record *rec, bool *failed)
{
    if (!rec->finding_count)
        return NULL;
    finding_ref *refs = malloc(rec->finding_count * sizeof *refs);
    uint32_t *rank = malloc(rec->finding_count * sizeof *rank);
    if (!refs || !rank) {
        free(refs);
        free(rank);
        *failed = true;
        return NULL;
    }
    for (uint32_t i = 0; i < rec->finding_count; i++) {
        refs[i].f = &rec->findings[i];
        refs[i].index = i;
    }
    qsort(refs, rec->finding_count, sizeof *refs, cmp_ref);
    for (uint32_t i = 0; i < rec->finding_count; i++)
        rank[refs[i].index] =
            i && cmp_identity(refs[i - 1].f, refs[i].f) == 0 ? rank[refs[i - 1].index] + 1 : 0;
    free(refs);
    return rank;
}

static void fingerprint_field(anim_strbuf *key, const char *s)
{
    /* A unit separator ends each present field; absent ones are marked
     * apart, so "no bone" and "bone ''" never collide. */
    if (s) {
        anim_strbuf_puts(key, s);
        anim_strbuf_putc(key, '\x1f');
    } else {
        anim_strbuf_putc(key, '\x1e');
    }
}

static void write_fingerprint(anim_json_writer *w, const anim_finding *f, uint32_t rank,
                              anim_strbuf *key)
{
    anim_strbuf_reset(key);
    fingerprint_field(key, f->check_id);
    fingerprint_field(key, f->clip);
    fingerprint_field(key, f->bone);
    fingerprint_field(key, f->node);
    fingerprint_field(key, f->prediction_scope_code);
    fingerprint_field(key, f->prediction_scope_subject);
    anim_strbuf_printf(key, "%u", (unsigned)rank);
    char hex[65];
    anim_sha256_hex(key->data ? key->data : "", key->len, hex);
    anim_json_writer_key(w, "partialFingerprints");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, FINGERPRINT_KEY);
    anim_json_writer_string(w, hex);
    anim_json_writer_end_object(w);
}

static void write_finding_properties(anim_json_writer *w, const anim_finding *f)
{
    anim_json_writer_key(w, "properties");
    anim_json_writer_begin_object(w);
    if (f->clip) {
        anim_json_writer_key(w, "clip");
        anim_json_writer_string(w, f->clip);
    }
    if (f->bone) {
        anim_json_writer_key(w, "bone");
        anim_json_writer_string(w, f->bone);
    }
    if (f->node) {
        anim_json_writer_key(w, "node");
        anim_json_writer_string(w, f->node);
    }
    if (f->has_time) {
        anim_json_writer_key(w, "time_s");
        anim_json_writer_f32(w, (float)f->time_s); /* an f32 value, as lint JSON */
    }
    if (f->measured.kind != ANIM_VALUE_NONE) {
        anim_json_writer_key(w, "measured");
        anim_lint_json_value(w, &f->measured);
    }
    if (f->expected.kind != ANIM_VALUE_NONE) {
        anim_json_writer_key(w, "expected");
        anim_lint_json_value(w, &f->expected);
    }
    if (f->prediction_scope_code) {
        anim_json_writer_key(w, "prediction_scope");
        write_scope(w, f->prediction_scope_code, f->prediction_scope_subject);
    }
    if (f->member_count) {
        anim_json_writer_key(w, "members");
        anim_json_writer_begin_array(w);
        for (uint32_t m = 0; m < f->member_count; m++) {
            const anim_member_row *row = &f->members[m];
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "member");
            anim_json_writer_string(w, row->member ? row->member : "");
            anim_json_writer_key(w, "measurements");
            anim_json_writer_begin_object(w);
            for (uint32_t k = 0; k < row->measurement_count; k++) {
                anim_json_writer_key(w, row->measurements[k].key ? row->measurements[k].key : "");
                anim_lint_json_value(w, &row->measurements[k].value);
            }
            anim_json_writer_end_object(w);
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
    }
    anim_json_writer_end_object(w);
}

/* The per-file URIs (uris[i], relative[i]) every section refers to. */
typedef struct {
    anim_strbuf *uris;
    bool *relative;
    anim_strbuf tmp, key;
    bool failed;
} sarif_state;

static void write_results(anim_json_writer *w, const anim_lint_file *files, size_t n,
                          sarif_state *st)
{
    anim_json_writer_key(w, "results");
    anim_json_writer_begin_array(w);
    for (size_t i = 0; i < n; i++) {
        const char *uri = st->uris[i].data ? st->uris[i].data : "";
        for (size_t r = 0; r < files[i].record_count; r++) {
            const anim_check_record *rec = &files[i].records[r];
            uint32_t *rank = identity_ranks(rec, &st->failed);
            if (rec->finding_count && !rank)
                continue;
            for (uint32_t k = 0; k < rec->finding_count; k++) {
                const anim_finding *f = &rec->findings[k];
                const char *id = f->check_id ? f->check_id : rec->check_id;
                long index = rule_index(id);
                anim_json_writer_begin_object(w);
                anim_json_writer_key(w, "ruleId");
                anim_json_writer_string(w, id);
                if (index >= 0) {
                    anim_json_writer_key(w, "ruleIndex");
                    anim_json_writer_uint(w, (uint64_t)index);
                }
                anim_json_writer_key(w, "level");
                anim_json_writer_string(w, level_of(f->severity));
                anim_strbuf_reset(&st->tmp);
                anim_lint_finding_context(&st->tmp, f);
                write_text_object(w, "message", st->tmp.data ? st->tmp.data : "");
                write_locations(w, uri, st->relative[i], i, &files[i].byte_count);
                write_fingerprint(w, f, rank[k], &st->key);
                write_finding_properties(w, f);
                anim_json_writer_end_object(w);
            }
            free(rank);
        }
    }
    anim_json_writer_end_array(w);
}

static void write_associated_rule(anim_json_writer *w, const char *id)
{
    long index = rule_index(id);
    anim_json_writer_key(w, "associatedRule");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "id");
    anim_json_writer_string(w, id);
    if (index >= 0) {
        anim_json_writer_key(w, "index");
        anim_json_writer_uint(w, (uint64_t)index);
    }
    anim_json_writer_end_object(w);
}

static void write_descriptor(anim_json_writer *w, const char *id)
{
    anim_json_writer_key(w, "descriptor");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "id");
    anim_json_writer_string(w, id);
    anim_json_writer_end_object(w);
}

/* Coverage gaps (level note: they never fail a run) and required-
 * unavailable facets (level error: prediction work that could not be
 * done, which fails the run), per file in catalog and emission order. */
static void write_notifications(anim_json_writer *w, const anim_lint_file *files, size_t n,
                                sarif_state *st)
{
    anim_json_writer_key(w, "toolExecutionNotifications");
    anim_json_writer_begin_array(w);
    for (size_t i = 0; i < n; i++) {
        const char *uri = st->uris[i].data ? st->uris[i].data : "";
        for (size_t r = 0; r < files[i].record_count; r++) {
            const anim_check_record *rec = &files[i].records[r];
            for (uint32_t g = 0; g < rec->gap_count; g++) {
                const anim_gap *gap = &rec->gaps[g];
                anim_json_writer_begin_object(w);
                anim_json_writer_key(w, "level");
                anim_json_writer_string(w, "note");
                write_text_object(w, "message", gap->message ? gap->message : "");
                write_descriptor(w, gap->code ? gap->code : "");
                write_associated_rule(w, rec->check_id);
                write_locations(w, uri, st->relative[i], i, NULL);
                anim_json_writer_key(w, "properties");
                anim_json_writer_begin_object(w);
                if (gap->has_scope) {
                    anim_json_writer_key(w, "scope");
                    write_scope(w, gap->scope.code, gap->scope.subject);
                }
                anim_json_writer_end_object(w);
                anim_json_writer_end_object(w);
            }
            for (uint32_t k = 0; k < rec->facet_count; k++) {
                const anim_prediction_facet *f = &rec->facets[k];
                if (f->state != ANIM_FACET_REQUIRED_UNAVAILABLE)
                    continue;
                anim_json_writer_begin_object(w);
                anim_json_writer_key(w, "level");
                anim_json_writer_string(w, "error");
                anim_strbuf_reset(&st->tmp);
                anim_strbuf_printf(&st->tmp, "required prediction unavailable for %s",
                                   f->scope.code ? f->scope.code : "");
                if (f->scope.subject)
                    anim_strbuf_printf(&st->tmp, " '%s'", f->scope.subject);
                for (uint32_t q = 0; q < f->reason_count; q++)
                    anim_strbuf_printf(&st->tmp, "%s%s", q ? ", " : ": ", f->reasons[q]);
                write_text_object(w, "message", st->tmp.data ? st->tmp.data : "");
                write_descriptor(w, "required_prediction_unavailable");
                write_associated_rule(w, rec->check_id);
                write_locations(w, uri, st->relative[i], i, NULL);
                anim_json_writer_key(w, "properties");
                anim_json_writer_begin_object(w);
                anim_json_writer_key(w, "scope");
                write_scope(w, f->scope.code, f->scope.subject);
                anim_json_writer_key(w, "reasons");
                anim_json_writer_begin_array(w);
                for (uint32_t q = 0; q < f->reason_count; q++)
                    anim_json_writer_string(w, f->reasons[q]);
                anim_json_writer_end_array(w);
                anim_json_writer_end_object(w);
                anim_json_writer_end_object(w);
            }
        }
    }
    anim_json_writer_end_array(w);
}

static void write_artifacts(anim_json_writer *w, const anim_lint_file *files, size_t n,
                            const sarif_state *st)
{
    anim_json_writer_key(w, "artifacts");
    anim_json_writer_begin_array(w);
    for (size_t i = 0; i < n; i++) {
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "location");
        write_artifact_location(w, st->uris[i].data ? st->uris[i].data : "", st->relative[i], i,
                                false);
        anim_json_writer_key(w, "length");
        anim_json_writer_uint(w, files[i].byte_count);
        anim_json_writer_key(w, "roles");
        anim_json_writer_begin_array(w);
        anim_json_writer_string(w, "analysisTarget");
        anim_json_writer_end_array(w);
        anim_json_writer_key(w, "hashes");
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "sha-256");
        anim_json_writer_string(w, files[i].sha256_hex);
        anim_json_writer_end_object(w);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}

int anim_render_lint_sarif(const anim_lint_file *files, size_t n,
                           const anim_lint_render_options *opts, anim_strbuf *out,
                           anim_error *err)
{
    sarif_state st;
    memset(&st, 0, sizeof st);
    st.uris = calloc(n ? n : 1, sizeof *st.uris);
    st.relative = calloc(n ? n : 1, sizeof *st.relative);
    bool any_relative = false;
    if (!st.uris || !st.relative)
        st.failed = true;
    for (size_t i = 0; !st.failed && i < n; i++) {
        const char *path = files[i].path ? files[i].path : "";
        st.relative[i] = !is_absolute(path);
        any_relative = any_relative || st.relative[i];
        put_uri(&st.uris[i], path);
        if (st.uris[i].failed)
            st.failed = true;
    }
    anim_json_writer w;
    anim_json_writer_init(&w, out, true);
    if (!st.failed) {
        anim_json_writer_begin_object(&w);
        anim_json_writer_key(&w, "$schema");
        anim_json_writer_string(&w, SARIF_SCHEMA);
        anim_json_writer_key(&w, "version");
        anim_json_writer_string(&w, "2.1.0");
        anim_json_writer_key(&w, "runs");
        anim_json_writer_begin_array(&w);
        anim_json_writer_begin_object(&w);
        write_tool(&w, opts ? &opts->tool : NULL, &st.tmp);
        anim_json_writer_key(&w, "invocations");
        anim_json_writer_begin_array(&w);
        anim_json_writer_begin_object(&w);
        /* Every file was linted (an operator failure prints no log at
         * all); error-level notifications mark what could not be. */
        anim_json_writer_key(&w, "executionSuccessful");
        anim_json_writer_bool(&w, true);
        write_notifications(&w, files, n, &st);
        anim_json_writer_end_object(&w);
        anim_json_writer_end_array(&w);
        if (any_relative) {
            anim_json_writer_key(&w, "originalUriBaseIds");
            anim_json_writer_begin_object(&w);
            anim_json_writer_key(&w, SRCROOT);
            anim_json_writer_begin_object(&w);
            write_text_object(&w, "description",
                              "The directory animsmith lint ran in: relative input paths are "
                              "relative to it.");
            anim_json_writer_end_object(&w);
            anim_json_writer_end_object(&w);
        }
        write_artifacts(&w, files, n, &st);
        write_results(&w, files, n, &st);
        anim_json_writer_end_object(&w);
        anim_json_writer_end_array(&w);
        anim_json_writer_end_object(&w);
        anim_strbuf_putc(out, '\n');
    }
    bool ok = !st.failed && anim_json_writer_ok(&w) && !out->failed && !st.tmp.failed &&
              !st.key.failed;
    for (size_t i = 0; st.uris && i < n; i++)
        anim_strbuf_free(&st.uris[i]);
    free(st.uris);
    free(st.relative);
    anim_strbuf_free(&st.tmp);
    anim_strbuf_free(&st.key);
    if (!ok)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing lint SARIF");
    return 0;
}
