/* Shared skeleton of the per-bone loop checks; see loop_util.h. */
#include <math.h>

#include "animsmith/strbuf.h"
#include "checks/loop_util.h"

/* How many unavailable bones the partial-coverage gap names before it
 * summarizes the rest: enough to find the bad subtree, short enough for
 * a one-line text report. */
#define NAMED_BONES_MAX 5u

bool loop_declared(const anim_lint_context *ctx, uint32_t clip)
{
    return ctx->expect && clip < ctx->doc->clip_count && ctx->expect[clip].loop.set &&
           ctx->expect[clip].loop.value;
}

double loop_seam_time(const anim_clip *clip)
{
    return (double)(float)clip->duration_s;
}

/* One bone's bad evidence must not hide the others, so the check judges
 * the measured rows and says which bones it could not. */
static int gap_unavailable_rows(anim_lint_context *ctx, anim_check_record *rec,
                                const char *scope_code, const anim_clip *clip,
                                const anim_loop_continuity *lc)
{
    anim_strbuf names = ANIM_STRBUF_INIT;
    uint32_t missing = lc->bone_count - lc->measured_bone_count, named = 0;
    for (uint32_t i = 0; i < lc->bone_count && named < NAMED_BONES_MAX; i++) {
        if (lc->bones[i].availability == ANIM_AVAIL_MEASURED)
            continue;
        anim_strbuf_printf(&names, "%s'%s'", named ? ", " : "",
                           check_bone_name(ctx, lc->bones[i].bone_index));
        named++;
    }
    if (missing > named)
        anim_strbuf_printf(&names, ", \xe2\x80\xa6 +%u more", (unsigned)(missing - named));
    int rc = names.failed ? -1
                          : anim_check_gap(ctx, rec, "measurement_unavailable", scope_code,
                                           clip->name,
                                           "%u of %u bone(s) have no usable loop-continuity "
                                           "sample (%s); the other bones were judged",
                                           (unsigned)missing, (unsigned)lc->bone_count,
                                           names.data ? names.data : "");
    anim_strbuf_free(&names);
    return rc;
}

int loop_continuity_each(anim_lint_context *ctx, anim_check_record *rec, const char *scope_code,
                         loop_judge_fn judge, anim_error *err)
{
    for (uint32_t c = anim_lint_pass_begin(ctx); c < anim_lint_pass_end(ctx); c++) {
        if (!loop_declared(ctx, c))
            continue;
        const anim_clip *clip = &ctx->doc->clips[c];
        /* The clip's shared rows (scratch, not the result). */
        anim_loop_continuity lc;
        if (anim_lint_loop_continuity(ctx, c, &lc, err))
            return -1;
        anim_loop_caps caps;
        anim_loop_caps_resolve(ctx->config, &ctx->expect[c], &caps);
        int rc;
        if (lc.availability != ANIM_AVAIL_MEASURED || lc.measured_bone_count == 0) {
            rc = anim_check_gap(ctx, rec, "measurement_unavailable", scope_code, clip->name,
                                "clip has no usable per-bone loop-continuity sample");
        } else {
            rc = anim_check_scope(ctx, rec, scope_code, clip->name);
            if (rc == 0 && lc.measured_bone_count < lc.bone_count)
                rc = gap_unavailable_rows(ctx, rec, scope_code, clip, &lc);
            if (rc == 0)
                rc = judge(ctx, rec, clip, &lc, &caps);
        }
        if (rc)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    return 0;
}

const anim_loop_bone *loop_worst_exceeding(const anim_loop_continuity *lc, anim_loop_metric m,
                                           double cap)
{
    uint32_t worst = anim_loop_continuity_worst(lc, m);
    if (worst == ANIM_NONE)
        return NULL;
    const anim_loop_bone *row = &lc->bones[worst];
    return anim_loop_exceeds_cap(anim_loop_bone_metric(row, m), cap) ? row : NULL;
}

anim_finding_fields loop_bone_finding(const anim_lint_context *ctx, const anim_clip *clip,
                                      const anim_loop_bone *row, anim_loop_metric m, double cap)
{
    anim_finding_fields f = {0};
    f.severity = ANIM_SEVERITY_ERROR;
    f.clip = clip->name;
    f.bone = check_bone_name(ctx, row->bone_index);
    f.time_s = loop_seam_time(clip);
    f.has_time = isfinite(f.time_s);
    f.measured = anim_value_number(anim_loop_bone_metric(row, m));
    f.expected = anim_value_number(cap);
    return f;
}
