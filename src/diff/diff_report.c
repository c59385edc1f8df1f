/* The two ways a diff side becomes a measurements tree: reading one of our
 * own `measure`/`lint` JSON reports (current or historical, each against
 * its own contract), or writing an asset's measurements with the
 * `measure` writer and reading them back. Both end in
 * anim_diff_validate_measurements with the version the contract pairs, so
 * the comparison only ever sees records that satisfy their contract. */
#include <stdio.h>
#include <string.h>

#include "animsmith/diff.h"
#include "animsmith/json_write.h"
#include "animsmith/report.h"
#include "diff/diff_internal.h"

#define REGENERATE                                                                          \
    "regenerate a current output-v19 report from the original asset with animsmith measure " \
    "--format json"

/* The contracts of anim_diff_paired_measurements, for refusals. */
#define DIFF_READS                                                                          \
    "diff reads output-v19 measure/lint reports with measurements-v18, output-v13 to "      \
    "output-v17 with measurements-v16 and output-v11/v12 with measurements-v15"

static bool small_uint(const anim_json_value *x, int64_t *out)
{
    if (!x || !anim_json_is_integer(x) || anim_json_integer(x) < 0)
        return false;
    *out = anim_json_integer(x);
    return true;
}

/* Envelope identity: one of the contracts diff reads, with the schema URN
 * of its own version. Older (output-v10 and earlier, from before role
 * provenance), unread (output-v18) and unknown versions get the
 * regeneration guidance. *mv receives the paired measurements version. */
static int check_envelope(const char *path, const anim_json_value *root, int *mv_out,
                          anim_error *err)
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
    int mv = anim_diff_paired_measurements(version);
    if (!mv)
        return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                              "%s: unsupported report contract output-v%lld (" DIFF_READS
                              "); " REGENERATE,
                              path, (long long)version);
    char urn[64];
    snprintf(urn, sizeof urn, "urn:animsmith:schema:output:%lld", (long long)version);
    if (!anim_json_string_eq(schema, urn))
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: schema does not match schema_version %lld (expected \"%s\")",
                              path, (long long)version, urn);
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
                              (int)(anim_json_string_len(cmd) > 64 ? 64
                                                                   : anim_json_string_len(cmd)),
                              anim_json_string(cmd));
    *mv_out = mv;
    return 0;
}

/* Every contract diff reads carries output-v11's role-resolution
 * provenance: a rig record names its outcome and, beside each resolved
 * role's bone, the policy that matched it. A rig without them is an
 * output-v10-or-earlier record under a later identity. */
static int check_rig(const char *path, const anim_json_value *file, anim_error *err)
{
    static const char *const OUTCOMES[] = {"resolved",       "coverage",
                                           "ambiguous_exact_match", "ambiguous_folded_match",
                                           "role_collision", "ambiguous_profile"};
    const anim_json_value *rig = anim_json_get(file, "rig");
    if (!rig)
        return 0;
    if (rig->type != ANIM_JSON_OBJECT)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: report field files[0].rig must be an object", path);
    const anim_json_value *outcome = anim_json_get(rig, "resolution_outcome");
    bool known = false;
    for (size_t i = 0; outcome && i < sizeof OUTCOMES / sizeof *OUTCOMES; i++)
        known = known || anim_json_string_eq(outcome, OUTCOMES[i]);
    if (!known)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: report field files[0].rig.resolution_outcome must be one of "
                              "resolved, coverage, ambiguous_exact_match, ambiguous_folded_match, "
                              "role_collision or ambiguous_profile",
                              path);
    const anim_json_value *roles = anim_json_get(rig, "resolved_roles");
    const anim_json_value *policies = anim_json_get(rig, "resolved_role_policies");
    if (!roles || roles->type != ANIM_JSON_OBJECT || !policies ||
        policies->type != ANIM_JSON_OBJECT)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: report fields files[0].rig.resolved_roles and "
                              "files[0].rig.resolved_role_policies must be objects",
                              path);
    bool same = anim_json_count(roles) == anim_json_count(policies);
    for (size_t i = 0; same && i < anim_json_count(roles); i++) {
        const anim_json_member *r = anim_json_member_at(roles, i);
        const anim_json_value *p = anim_json_get_n(policies, r->key, anim_json_key_len(r));
        same = r->value.type == ANIM_JSON_STRING && p && p->type == ANIM_JSON_STRING;
    }
    if (!same)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: report field files[0].rig.resolved_role_policies must give a "
                              "policy string for exactly the roles of files[0].rig.resolved_roles",
                              path);
    return 0;
}

const anim_json_value *anim_diff_read_report(const char *path, const char *text, size_t len,
                                             anim_arena *arena, anim_error *err)
{
    return anim_diff_read_report_root(path, text, len, arena, NULL, err);
}

const anim_json_value *anim_diff_read_report_root(const char *path, const char *text, size_t len,
                                                  anim_arena *arena,
                                                  const anim_json_value **root_out,
                                                  anim_error *err)
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
    int mv = 0;
    if (check_envelope(path, root, &mv, err))
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
    if (check_rig(path, file, err))
        return NULL;
    /* The nested measurements version is fixed per report contract: any
     * other pairing is a mismatched (or hand-edited) report. */
    int64_t got = 0;
    int64_t version = anim_json_integer(anim_json_get(root, "schema_version"));
    if (small_uint(anim_json_get(m, "schema_version"), &got) && got != mv) {
        /* Name the reports that do carry the record: a mislabelled
         * historical report is the usual cause. */
        char owners[64], hint[96] = "";
        if (got <= INT32_MAX && diff_outputs_for((int)got, owners, sizeof owners))
            snprintf(hint, sizeof hint, " (the record of %s reports)", owners);
        anim_error_set(err, ANIM_ERR_INVALID,
                       "%s: output-v%lld report carries measurements-v%lld%s; output-v%lld pairs "
                       "only with measurements-v%d; " REGENERATE,
                       path, (long long)version, (long long)got, hint, (long long)version, mv);
        return NULL;
    }
    if (anim_diff_validate_measurements(m, mv, err)) {
        anim_error_prefix(err, "%s", path);
        return NULL;
    }
    if (root_out)
        *root_out = root;
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
    if (anim_diff_validate_measurements(parsed, ANIM_MEASUREMENTS_SCHEMA_VERSION, err))
        goto done;
    tree = parsed;
done:
    anim_strbuf_free(&sb);
    return tree;
}
