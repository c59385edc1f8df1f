/* duplicate-loop-endpoint: an inclusive DCC cycle export
 * copies frame 0 to the final key. That is not a motion defect (the seam
 * checks pass on it) but a representation an engine that wraps over the
 * duration plays as a held frame, and the one case `transform
 * --drop-duplicate-loop-endpoint` can trim losslessly. The judgement is on
 * authored keys only (no sampling), through the shared 9.4 analysis, so
 * the warning fires exactly when the transform would accept the clip.
 * When the analysis cannot classify the clip (mismatched timelines,
 * non-finite keys, ...) the reason becomes a coverage gap. */
#include <math.h>
#include <stdio.h>

#include "checks/loop_util.h"

/* "{v:.6}{unit}", or "n/a" when the clip has no track of that property. */
static const char *delta_text(char *buf, size_t cap, bool has, double v, const char *unit)
{
    if (!has)
        return "n/a";
    snprintf(buf, cap, "%.6f%s", v, unit);
    return buf;
}

static int endpoint_clip(anim_lint_context *ctx, anim_check_record *rec, uint32_t c)
{
    static const char scope[] = "duplicate_loop_endpoint";
    const anim_clip *clip = &ctx->doc->clips[c];
    anim_dup_endpoint d;
    anim_error aerr;
    if (anim_lint_dup_endpoint(ctx, c, &d, &aerr))
        return anim_check_gap(ctx, rec, "measurement_unavailable", scope, clip->name,
                              "authored endpoint analysis unavailable: %s", aerr.message);
    if (anim_check_scope(ctx, rec, scope, clip->name))
        return -1;
    if (!d.candidate)
        return 0;
    char t[64], r[64], s[64];
    anim_finding_fields f = {0};
    f.severity = ANIM_SEVERITY_WARNING;
    f.clip = clip->name;
    f.time_s = (double)(float)d.duration_before;
    f.has_time = true;
    f.measured = anim_value_number((double)d.removed_keys);
    f.expected = anim_value_number(0.0);
    return anim_check_finding(
        ctx, rec, &f,
        "declared loop repeats its first pose at the authored endpoint: %u redundant closing "
        "key(s) per track; `animsmith transform --drop-duplicate-loop-endpoint` can trim "
        "%.6fs -> %.6fs into an open-cycle representation (endpoint deltas: translation %s, "
        "rotation %s, scale %s)",
        (unsigned)d.removed_keys, d.duration_before, d.duration_after,
        delta_text(t, sizeof t, d.has_translation, d.translation_delta_m, " m"),
        delta_text(r, sizeof r, d.has_rotation, d.rotation_delta_rad, " rad"),
        delta_text(s, sizeof s, d.has_scale, d.scale_delta, ""));
}

CHECK_RUN(duplicate_loop_endpoint)
{
    for (uint32_t c = anim_lint_pass_begin(ctx); c < anim_lint_pass_end(ctx); c++)
        if (loop_declared(ctx, c) && endpoint_clip(ctx, rec, c))
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    return 0;
}
