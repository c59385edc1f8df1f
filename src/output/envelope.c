/* The output-v19 JSON envelope header and the per-file identity and rig
 * records shared by measure and lint. */
#include <stdlib.h>
#include <string.h>

#include "animsmith/report.h"

void anim_output_write_tool(anim_json_writer *w, const anim_tool_info *tool)
{
    anim_json_writer_key(w, "tool");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "name");
    anim_json_writer_string(w, "animsmith");
    anim_json_writer_key(w, "version");
    anim_json_writer_string(w, tool && tool->version ? tool->version : "");
    anim_json_writer_key(w, "source");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "revision");
    if (tool && tool->revision)
        anim_json_writer_string(w, tool->revision);
    else
        anim_json_writer_null(w);
    anim_json_writer_key(w, "dirty");
    if (tool && tool->dirty != ANIM_SOURCE_DIRTY_UNKNOWN)
        anim_json_writer_bool(w, tool->dirty == ANIM_SOURCE_DIRTY);
    else
        anim_json_writer_null(w);
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
}

void anim_output_envelope_begin(anim_json_writer *w, const anim_tool_info *tool,
                                const char *command)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "schema_version");
    anim_json_writer_uint(w, ANIM_OUTPUT_SCHEMA_VERSION);
    anim_json_writer_key(w, "schema");
    anim_json_writer_string(w, ANIM_OUTPUT_SCHEMA);
    anim_output_write_tool(w, tool);
    anim_json_writer_key(w, "command");
    anim_json_writer_string(w, command);
}

void anim_output_write_file_identity(anim_json_writer *w, const char *path,
                                     const char *sha256_hex, uint64_t bytes)
{
    anim_json_writer_key(w, "path");
    anim_json_writer_string(w, path ? path : "");
    anim_json_writer_key(w, "input");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "sha256");
    anim_json_writer_string(w, sha256_hex);
    anim_json_writer_key(w, "bytes");
    anim_json_writer_uint(w, bytes);
    anim_json_writer_end_object(w);
}

/* Role names sorted byte-wise: these maps are keyed by the role's name
 * string, so "left_foot" precedes "spine". */
static size_t roles_by_name(anim_role order[ANIM_ROLE_COUNT])
{
    size_t n = 0;
    for (int r = 0; r < ANIM_ROLE_COUNT; r++) {
        size_t i = n++;
        while (i > 0 && strcmp(anim_role_name(order[i - 1]), anim_role_name((anim_role)r)) > 0) {
            order[i] = order[i - 1];
            i--;
        }
        order[i] = (anim_role)r;
    }
    return n;
}

static bool role_bound(const anim_doc *doc, const anim_rig_resolution *rig, anim_role r)
{
    return rig->bone[r] != ANIM_NONE && doc && rig->bone[r] < doc->bone_count;
}

void anim_output_write_rig(anim_json_writer *w, const anim_doc *doc,
                           const anim_rig_resolution *rig)
{
    anim_role order[ANIM_ROLE_COUNT];
    size_t n = roles_by_name(order);
    anim_json_writer_key(w, "rig");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "profile");
    anim_json_writer_string(w, rig->label);
    anim_json_writer_key(w, "resolution_outcome");
    anim_json_writer_string(w, rig->outcome ? rig->outcome : ANIM_RIG_OUTCOME_COVERAGE);
    anim_json_writer_key(w, "resolved_roles");
    anim_json_writer_begin_object(w);
    for (size_t i = 0; i < n; i++)
        if (role_bound(doc, rig, order[i])) {
            anim_json_writer_key(w, anim_role_name(order[i]));
            anim_json_writer_string(w, doc->bones[rig->bone[order[i]]].name);
        }
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "resolved_role_policies");
    anim_json_writer_begin_object(w);
    for (size_t i = 0; i < n; i++)
        if (role_bound(doc, rig, order[i])) {
            anim_json_writer_key(w, anim_role_name(order[i]));
            anim_json_writer_string(w, rig->policy[order[i]] ? rig->policy[order[i]]
                                                              : ANIM_RIG_POLICY_EXACT);
        }
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
}

void anim_output_splice_records(anim_json_writer *w, const anim_strbuf *fragments, size_t n,
                                size_t *splice_at)
{
    for (size_t i = 0; i < n; i++) {
        if (splice_at)
            splice_at[i] = anim_json_writer_splice_mark(w);
        else
            anim_json_writer_splice(w, fragments[i].data ? fragments[i].data : "",
                                    fragments[i].len);
    }
}
