/* required-bones: every distinct name in [rig] required_bones
 * must identify exactly one skeleton bone. A structural presence contract:
 * it needs no animation data, and duplicate skeleton names are reported as
 * ambiguous rather than silently matched. */
#include <string.h>

#include "checks/checks.h"

static bool declared_earlier(const anim_string_list *list, uint32_t i)
{
    for (uint32_t j = 0; j < i; j++)
        if (strcmp(list->items[j], list->items[i]) == 0)
            return true;
    return false;
}

static uint32_t count_named(const anim_doc *doc, const char *name)
{
    uint32_t n = 0;
    for (uint32_t b = 0; b < doc->bone_count; b++)
        if (doc->bones[b].name && strcmp(doc->bones[b].name, name) == 0)
            n++;
    return n;
}

CHECK_RUN(required_bones)
{
    const anim_doc *doc = ctx->doc;
    const anim_string_list *req = &ctx->config->required_bones;
    if (doc->bone_count == 0) {
        if (anim_check_gap(ctx, rec, "skeleton_unavailable", "required_bone_presence", NULL,
                           "required skeleton bones cannot be checked because the file has no "
                           "usable skeleton"))
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        return 0;
    }
    if (anim_check_scope(ctx, rec, "required_bone_presence", NULL))
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < req->count; i++) {
        const char *name = req->items[i];
        if (declared_earlier(req, i))
            continue;
        uint32_t count = count_named(doc, name);
        if (count == 1)
            continue;
        anim_finding_fields f = {0};
        f.severity = ANIM_SEVERITY_ERROR;
        f.bone = name;
        f.measured = anim_value_number((double)count);
        f.expected = anim_value_number(1.0);
        int rc = count == 0
                     ? anim_check_finding(ctx, rec, &f, "required bone does not exist in the skeleton")
                     : anim_check_finding(ctx, rec, &f,
                                          "required bone name is ambiguous: %u skeleton bones "
                                          "share this name",
                                          count);
        if (rc)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    return 0;
}
