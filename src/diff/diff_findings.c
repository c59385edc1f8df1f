/* The findings half of `diff`: reading the content findings of a lint
 * report and comparing two sides' findings as multisets (see diff.h).
 *
 * Identity is (clip, check id, bone, node, key time, severity): what a
 * user would call "the same problem in the same place". Both sides are
 * sorted by it and walked once together, so a finding reported twice
 * before and once after is one removal, and the cost is n log n however
 * many findings a report holds. A changed message or measured value is
 * not a change of finding: the measurement deltas already report the
 * numbers, and comparing display text would flag every rewording. */
#include <stdlib.h>
#include <string.h>

#include "animsmith/diff.h"
#include "diff/diff_internal.h"

/* ---- reading ---- */

typedef struct {
    const char *path;
    anim_error *err;
    size_t check, finding; /* indices for messages */
} reader;

static int bad_field(reader *r, const char *field, const char *rule)
{
    return anim_error_set(r->err, ANIM_ERR_INVALID,
                          "%s: report field files[0].checks[%zu].findings[%zu].%s %s", r->path,
                          r->check, r->finding, field, rule);
}

/* An optional string member: absent (NULL) or a string. */
static int opt_string(reader *r, const anim_json_value *obj, const char *key, const char **s,
                      size_t *len)
{
    const anim_json_value *v = anim_json_get(obj, key);
    *s = NULL;
    *len = 0;
    if (!v)
        return 0;
    if (v->type != ANIM_JSON_STRING)
        return bad_field(r, key, "must be a string");
    *s = anim_json_string(v);
    *len = anim_json_string_len(v);
    return 0;
}

static int read_severity(reader *r, const anim_json_value *obj, anim_severity *out)
{
    static const anim_severity SEV[] = {ANIM_SEVERITY_ERROR, ANIM_SEVERITY_WARNING,
                                        ANIM_SEVERITY_NOTE};
    const anim_json_value *v = anim_json_get(obj, "severity");
    for (size_t i = 0; v && i < sizeof SEV / sizeof *SEV; i++)
        if (anim_json_string_eq(v, anim_severity_name(SEV[i]))) {
            *out = SEV[i];
            return 0;
        }
    return bad_field(r, "severity", "must be error, warning or note");
}

static int read_finding(reader *r, const anim_json_value *obj, const anim_json_value *record_id,
                        anim_diff_finding *f)
{
    if (obj->type != ANIM_JSON_OBJECT)
        return anim_error_set(r->err, ANIM_ERR_INVALID,
                              "%s: report field files[0].checks[%zu].findings[%zu] must be an "
                              "object",
                              r->path, r->check, r->finding);
    memset(f, 0, sizeof *f);
    const anim_json_value *id = anim_json_get(obj, "check_id");
    size_t id_len = id && id->type == ANIM_JSON_STRING ? anim_json_string_len(id) : 0;
    if (!id || id->type != ANIM_JSON_STRING || id_len != anim_json_string_len(record_id) ||
        memcmp(anim_json_string(id), anim_json_string(record_id), id_len) != 0)
        return bad_field(r, "check_id", "must repeat its check record's check_id");
    f->check_id = anim_json_string(id);
    f->check_id_len = anim_json_string_len(id);
    if (read_severity(r, obj, &f->severity) || opt_string(r, obj, "clip", &f->clip, &f->clip_len) ||
        opt_string(r, obj, "bone", &f->bone, &f->bone_len) ||
        opt_string(r, obj, "node", &f->node, &f->node_len) ||
        opt_string(r, obj, "message", &f->message, &f->message_len))
        return -1;
    if (!f->message)
        return bad_field(r, "message", "must be a string");
    const anim_json_value *t = anim_json_get(obj, "time_s");
    if (t) {
        /* The reader refuses non-finite literals, so a number is finite. */
        if (t->type != ANIM_JSON_NUMBER)
            return bad_field(r, "time_s", "must be a number");
        f->has_time = true;
        f->time_s = anim_json_number(t);
    }
    return 0;
}

static int bad_record(reader *r, const char *rule)
{
    return anim_error_set(r->err, ANIM_ERR_INVALID, "%s: report field files[0].checks[%zu] %s",
                          r->path, r->check, rule);
}

int anim_diff_report_findings(const char *path, const anim_json_value *root, anim_arena *arena,
                              anim_diff_findings *out, anim_error *err)
{
    memset(out, 0, sizeof *out);
    out->source = ANIM_DIFF_SOURCE_MEASURE_REPORT;
    const anim_json_value *cmd = root ? anim_json_get(root, "command") : NULL;
    if (!cmd || !anim_json_string_eq(cmd, "lint"))
        return 0;
    out->source = ANIM_DIFF_SOURCE_LINT_REPORT;
    reader r = {path, err, 0, 0};
    const anim_json_value *files = anim_json_get(root, "files");
    const anim_json_value *file = files && anim_json_count(files) == 1 ? anim_json_item(files, 0)
                                                                        : NULL;
    const anim_json_value *checks = file && file->type == ANIM_JSON_OBJECT
                                        ? anim_json_get(file, "checks")
                                        : NULL;
    if (!checks || checks->type != ANIM_JSON_ARRAY)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: report field files[0].checks must be an array in a lint report",
                              path);
    /* Count first: one arena block, sized by what the report holds (the
     * report itself is under the 256 MiB cap). */
    size_t total = 0;
    for (r.check = 0; r.check < anim_json_count(checks); r.check++) {
        const anim_json_value *rec = anim_json_item(checks, r.check);
        const anim_json_value *fs = rec->type == ANIM_JSON_OBJECT ? anim_json_get(rec, "findings")
                                                                  : NULL;
        const anim_json_value *id = rec->type == ANIM_JSON_OBJECT ? anim_json_get(rec, "check_id")
                                                                  : NULL;
        if (!id || id->type != ANIM_JSON_STRING)
            return bad_record(&r, "must be an object with a string check_id");
        if (!fs || fs->type != ANIM_JSON_ARRAY)
            return bad_record(&r, "findings must be an array");
        total += anim_json_count(fs);
    }
    if (total == 0)
        return 0;
    size_t bytes = 0;
    if (!anim_size_mul(total, sizeof *out->items, &bytes) ||
        !(out->items = anim_arena_alloc(arena, bytes)))
        return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory reading %zu findings", path,
                              total);
    for (r.check = 0; r.check < anim_json_count(checks); r.check++) {
        const anim_json_value *rec = anim_json_item(checks, r.check);
        const anim_json_value *id = anim_json_get(rec, "check_id");
        const anim_json_value *fs = anim_json_get(rec, "findings");
        for (r.finding = 0; r.finding < anim_json_count(fs); r.finding++)
            if (read_finding(&r, anim_json_item(fs, r.finding), id, &out->items[out->count++]))
                return -1;
    }
    return 0;
}

/* ---- comparing ---- */

/* Absent sorts first, then byte-wise with the shorter first on a tie. */
static int cmp_opt(const char *a, size_t al, const char *b, size_t bl)
{
    if (!a || !b)
        return (a != NULL) - (b != NULL);
    name_ref x = {a, al, NULL}, y = {b, bl, NULL};
    return diff_name_cmp(&x, &y);
}

static int cmp_identity(const anim_diff_finding *a, const anim_diff_finding *b)
{
    int c = cmp_opt(a->clip, a->clip_len, b->clip, b->clip_len);
    if (!c)
        c = cmp_opt(a->check_id, a->check_id_len, b->check_id, b->check_id_len);
    if (!c)
        c = cmp_opt(a->bone, a->bone_len, b->bone, b->bone_len);
    if (!c)
        c = cmp_opt(a->node, a->node_len, b->node, b->node_len);
    if (!c && a->has_time != b->has_time)
        c = a->has_time ? 1 : -1;
    if (!c && a->has_time && a->time_s != b->time_s)
        c = a->time_s < b->time_s ? -1 : 1;
    if (!c && a->severity != b->severity)
        c = (int)b->severity - (int)a->severity; /* the more severe first */
    return c;
}

static int qsort_identity(const void *a, const void *b)
{
    const anim_diff_finding *x = *(const anim_diff_finding *const *)a;
    const anim_diff_finding *y = *(const anim_diff_finding *const *)b;
    int c = cmp_identity(x, y);
    /* Equal identities keep report order, so output is deterministic. */
    return c ? c : (x < y ? -1 : x > y);
}

/* The side's findings as pointers sorted by identity (NULL when empty or
 * on allocation failure, *oom then set). */
static const anim_diff_finding **sorted(const anim_diff_findings *s, anim_arena *arena, bool *oom)
{
    if (!s->count)
        return NULL;
    const anim_diff_finding **v = anim_arena_calloc(arena, s->count, sizeof *v);
    if (!v) {
        *oom = true;
        return NULL;
    }
    for (size_t i = 0; i < s->count; i++)
        v[i] = &s->items[i];
    qsort(v, s->count, sizeof *v, qsort_identity);
    return v;
}

static void count_severities(const anim_diff_findings *s, size_t *out)
{
    for (size_t i = 0; i < s->count; i++)
        if (s->items[i].severity <= ANIM_SEVERITY_ERROR)
            out[s->items[i].severity]++;
}

int anim_diff_compare_findings(const anim_diff_findings *before, const anim_diff_findings *after,
                               anim_arena *arena, anim_diff_findings_result *out,
                               anim_error *err)
{
    memset(out, 0, sizeof *out);
    /* Only lint reports carry findings: anything else compares nothing. */
    if (before->source != ANIM_DIFF_SOURCE_LINT_REPORT ||
        after->source != ANIM_DIFF_SOURCE_LINT_REPORT)
        return 0;
    out->compared = true;
    count_severities(before, out->before);
    count_severities(after, out->after);
    bool oom = false;
    const anim_diff_finding **b = sorted(before, arena, &oom), **a = sorted(after, arena, &oom);
    size_t cap = 0;
    if (!oom && anim_size_add(before->count, after->count, &cap) && cap)
        out->changes = anim_arena_calloc(arena, cap, sizeof *out->changes);
    if (oom || (cap && !out->changes))
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory comparing findings");
    size_t i = 0, j = 0;
    while (i < before->count || j < after->count) {
        int c = i == before->count ? 1 : j == after->count ? -1 : cmp_identity(b[i], a[j]);
        if (c == 0) {
            i++;
            j++;
            continue;
        }
        anim_diff_finding_change *ch = &out->changes[out->count++];
        ch->change = c < 0 ? ANIM_DIFF_REMOVED : ANIM_DIFF_ADDED;
        ch->finding = c < 0 ? b[i++] : a[j++];
        if (c < 0)
            out->removed++;
        else
            out->added++;
    }
    return 0;
}
