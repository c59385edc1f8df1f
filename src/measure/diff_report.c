/* The two ways a diff side becomes a measurements tree: reading one of our
 * own `measure`/`lint` JSON reports, or writing an asset's measurements
 * with the `measure` writer and reading them back. Both end in
 * anim_diff_validate_measurements, so the comparison only ever sees
 * records that satisfy the contract. */
#include <stdio.h>
#include <string.h>

#include "animsmith/diff.h"
#include "animsmith/json_write.h"
#include "animsmith/report.h"

#define REGENERATE                                                                          \
    "regenerate a current output-v19 report from the original asset with animsmith measure " \
    "--format json"

static bool small_uint(const anim_json_value *x, int64_t *out)
{
    if (!x || !anim_json_is_integer(x) || anim_json_integer(x) < 0)
        return false;
    *out = anim_json_integer(x);
    return true;
}

/* Envelope identity: output-v19 only; anything older or unknown gets the
 * regeneration guidance (this build keeps no historical readers). */
static int check_envelope(const char *path, const anim_json_value *root, anim_error *err)
{
    if (root->type != ANIM_JSON_OBJECT)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: not an animsmith measure/lint report (expected a JSON object)",
                              path);
    int64_t version = 0;
    const anim_json_value *schema = anim_json_get(root, "schema");
    if (!small_uint(anim_json_get(root, "schema_version"), &version) || !schema ||
        schema->type != ANIM_JSON_STRING)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: not an animsmith measure/lint report (schema_version and "
                              "schema are required)",
                              path);
    if (version != ANIM_OUTPUT_SCHEMA_VERSION)
        return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                              "%s: unsupported report contract output-v%lld (diff reads output-v%d "
                              "measure/lint reports with measurements-v%d); " REGENERATE,
                              path, (long long)version, ANIM_OUTPUT_SCHEMA_VERSION,
                              ANIM_MEASUREMENTS_SCHEMA_VERSION);
    if (!anim_json_string_eq(schema, ANIM_OUTPUT_SCHEMA))
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: schema does not match schema_version %d (expected \"%s\")", path,
                              ANIM_OUTPUT_SCHEMA_VERSION, ANIM_OUTPUT_SCHEMA);
    const anim_json_value *tool = anim_json_get(root, "tool");
    if (!tool || tool->type != ANIM_JSON_OBJECT)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: report field tool must be an object",
                              path);
    const anim_json_value *cmd = anim_json_get(root, "command");
    if (!cmd || cmd->type != ANIM_JSON_STRING)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: report field command must be a string",
                              path);
    if (!anim_json_string_eq(cmd, "measure") && !anim_json_string_eq(cmd, "lint"))
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: diff expects a measure or lint report, not a %.*s report", path,
                              (int)(anim_json_string_len(cmd) > 64 ? 64 : anim_json_string_len(cmd)),
                              anim_json_string(cmd));
    return 0;
}

const anim_json_value *anim_diff_read_report(const char *path, const char *text, size_t len,
                                             anim_arena *arena, anim_error *err)
{
    if (len > ANIM_DIFF_REPORT_MAX_BYTES) {
        anim_error_set(err, ANIM_ERR_LIMIT, "%s: %zu bytes exceeds the %zu-byte report limit", path,
                       len, ANIM_DIFF_REPORT_MAX_BYTES);
        return NULL;
    }
    anim_json_limits limits = {0, ANIM_DIFF_REPORT_MAX_BYTES};
    anim_json_value *root = anim_json_parse(arena, text, len, &limits, err);
    if (!root) {
        anim_error_prefix(err, "%s", path);
        return NULL;
    }
    if (check_envelope(path, root, err))
        return NULL;
    const anim_json_value *files = anim_json_get(root, "files");
    if (!files || files->type != ANIM_JSON_ARRAY) {
        anim_error_set(err, ANIM_ERR_INVALID, "%s: report field files must be an array", path);
        return NULL;
    }
    size_t n = anim_json_count(files);
    if (n != 1) {
        anim_error_set(err, ANIM_ERR_INVALID,
                       "%s contains %zu file records; diff expects a single-file measurement "
                       "report",
                       path, n);
        return NULL;
    }
    const anim_json_value *summary = anim_json_get(root, "summary");
    int64_t count = 0;
    if (!summary || summary->type != ANIM_JSON_OBJECT ||
        !small_uint(anim_json_get(summary, "files"), &count) || count != 1) {
        anim_error_set(err, ANIM_ERR_INVALID,
                       "%s: report field summary.files must be 1 for a single-file report", path);
        return NULL;
    }
    const anim_json_value *file = anim_json_item(files, 0);
    const anim_json_value *m = file->type == ANIM_JSON_OBJECT ? anim_json_get(file, "measurements")
                                                              : NULL;
    if (!m || m->type != ANIM_JSON_OBJECT) {
        anim_error_set(err, ANIM_ERR_INVALID,
                       "%s: report field files[0].measurements must be an object", path);
        return NULL;
    }
    /* A v19 envelope around another measurements version is a mismatched
     * (or hand-edited) report: the pairing is fixed per contract. */
    int64_t mv = 0;
    if (small_uint(anim_json_get(m, "schema_version"), &mv) &&
        mv != ANIM_MEASUREMENTS_SCHEMA_VERSION) {
        anim_error_set(err, ANIM_ERR_INVALID,
                       "%s: output-v%d report carries measurements-v%lld; output-v%d pairs only "
                       "with measurements-v%d; " REGENERATE,
                       path, ANIM_OUTPUT_SCHEMA_VERSION, (long long)mv, ANIM_OUTPUT_SCHEMA_VERSION,
                       ANIM_MEASUREMENTS_SCHEMA_VERSION);
        return NULL;
    }
    if (anim_diff_validate_measurements(m, err)) {
        anim_error_prefix(err, "%s", path);
        return NULL;
    }
    return m;
}

const anim_json_value *anim_diff_measurements_tree(const anim_measurements *m,
                                                   anim_arena *arena, anim_error *err)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &sb, false);
    const anim_json_value *tree = NULL;
    if (anim_measurements_write_json(m, &w, err))
        goto done;
    if (!anim_json_writer_ok(&w) || sb.failed || !sb.data) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing measurements");
        goto done;
    }
    /* The tree points into its text: keep the text as long as the arena. */
    char *text = anim_arena_strndup(arena, sb.data, sb.len);
    if (!text) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        goto done;
    }
    const anim_json_value *parsed = anim_json_parse(arena, text, sb.len, NULL, err);
    if (!parsed) {
        anim_error_prefix(err, "measurements written for diff");
        goto done;
    }
    if (anim_diff_validate_measurements(parsed, err))
        goto done;
    tree = parsed;
done:
    anim_strbuf_free(&sb);
    return tree;
}
