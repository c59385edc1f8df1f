/* engine-clip-boundary: Unreal (profile revision 1) needs every animation
 * to end on a whole frame. For each FBX animation stack the reader keeps
 * the stack's absolute end in KTime ticks and the exact tick period of the
 * file's frame rate; the end is on the frame lattice exactly when the
 * period divides it. Integers only: going through seconds or a decimal
 * rate would round a near miss onto the lattice (or off it).
 *
 * Missing evidence (a stack with neither a stated span nor a key, a time
 * mode without an exact integer period) is a required-unavailable facet,
 * never a guessed frame number. This predicts nothing else about Unreal's
 * import (frame range, resampling, root motion). */
#include <string.h>

#include "animsmith/engine.h"
#include "animsmith/fbx.h"
#include "checks/checks.h"
#include "checks/engine_clip_names.h"

#define SCOPE "clip_boundary"

CHECK_APPLIES(engine_clip_boundary)
{
    const anim_engine_profile *p = ctx->engine ? anim_engine_run_profile(ctx->engine) : NULL;
    return p && p->family == ANIM_ENGINE_UNREAL && p->revision == 1 &&
           anim_engine_run_format(ctx->engine) == ANIM_ENGINE_FORMAT_FBX && ctx->asset &&
           ctx->asset->source.fbx && ctx->asset->source.fbx->take_count > 0;
}

static int take_facet(anim_lint_context *ctx, anim_check_record *rec, const anim_fbx_take *t,
                      uint32_t index, const char *clip, bool duplicate)
{
    anim_arena *a = ctx->arena;
    const char *reasons[3];
    uint32_t reason_count = 0;
    /* Two stacks of one name share a subject: a finding could not say
     * which of them it is about. */
    if (duplicate)
        reasons[reason_count++] = "duplicate_clip_name";
    anim_basis_row basis[5];
    uint32_t basis_count = 0;
    /* The requirement itself, as the frozen profile states it. */
    const anim_engine_fact *req =
        anim_engine_profile_fact(anim_engine_run_profile(ctx->engine), "animation_end_frame");
    if (req && req->kind == ANIM_ENGINE_FACT_TEXT) {
        basis[basis_count].kind = ANIM_BASIS_PROFILE_FACT;
        basis[basis_count++].value = anim_field_text(req->key, req->text);
    }
    basis[basis_count].kind = ANIM_BASIS_RAW_SOURCE;
    basis[basis_count++].value =
        anim_field_text(anim_arena_printf(a, "/takes/%u/span_source", index),
                        anim_fbx_span_source_name(t->span_source));
    if (t->span_source == ANIM_FBX_SPAN_NONE) {
        reasons[reason_count++] = "stack_end_unavailable";
    } else {
        basis[basis_count].kind = ANIM_BASIS_RAW_SOURCE;
        basis[basis_count++].value =
            anim_field_int(anim_arena_printf(a, "/takes/%u/stop_ktime", index), t->stop_ktime);
    }
    basis[basis_count].kind = ANIM_BASIS_RAW_SOURCE;
    basis[basis_count++].value =
        anim_field_int(anim_arena_printf(a, "/takes/%u/time_mode", index), t->time_mode);
    if (t->frame_period_ktime <= 0) {
        reasons[reason_count++] = "frame_period_unavailable";
    } else {
        basis[basis_count].kind = ANIM_BASIS_RAW_SOURCE;
        basis[basis_count++].value = anim_field_int(
            anim_arena_printf(a, "/takes/%u/frame_period_ktime", index), t->frame_period_ktime);
    }
    for (uint32_t i = 0; i < basis_count; i++)
        if (!basis[i].value.key)
            return -1;

    anim_prediction_facet facet;
    memset(&facet, 0, sizeof facet);
    facet.scope.code = SCOPE;
    facet.scope.subject = clip;
    facet.basis = basis;
    facet.basis_count = basis_count;
    if (reason_count) {
        facet.state = ANIM_FACET_REQUIRED_UNAVAILABLE;
        facet.reasons = reasons;
        facet.reason_count = reason_count;
        return anim_check_facet(ctx, rec, &facet);
    }
    int64_t end = t->stop_ktime, period = t->frame_period_ktime, frame, rest;
    bool on = anim_fbx_frame_lattice(end, period, &frame, &rest);
    const anim_field result[] = {
        anim_field_int("end_ktime", end),
        anim_field_int("frame_period_ktime", period),
        anim_field_number("frame_rate", t->frame_rate),
        anim_field_bool("on_frame_lattice", on),
        on ? anim_field_int("end_frame", frame) : anim_field_text("end_frame", NULL),
    };
    facet.state = ANIM_FACET_AVAILABLE;
    facet.result_kind = "clip_boundary";
    facet.result = result;
    facet.result_count = (uint32_t)(sizeof result / sizeof result[0]);
    uint32_t omitted = rec->facets_omitted;
    if (anim_check_facet(ctx, rec, &facet))
        return -1;
    if (on || rec->facets_omitted != omitted)
        return 0;
    anim_finding_fields f = {0};
    f.severity = ANIM_SEVERITY_ERROR;
    f.clip = clip;
    f.has_time = true;
    f.time_s = t->stop_s;
    f.prediction_scope_code = SCOPE;
    f.prediction_scope_subject = clip;
    return anim_check_finding(ctx, rec, &f,
                              "animation stack ends at KTime %lld, between frames %lld and %lld "
                              "of the %g fps lattice: Unreal requires a whole end frame",
                              (long long)end, (long long)frame, (long long)frame + 1,
                              t->frame_rate);
}

CHECK_RUN(engine_clip_boundary)
{
    const anim_fbx_facts *fbx = ctx->asset->source.fbx;
    bool *duplicate = NULL;
    if (engine_duplicate_clip_names(ctx, &duplicate))
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < fbx->take_count; i++) {
        /* Takes are the document's clips in order; the clip's (UTF-8)
         * name is the subject, as everywhere else in the record. */
        const char *clip = i < ctx->doc->clip_count && ctx->doc->clips[i].name
                               ? ctx->doc->clips[i].name
                               : fbx->takes[i].name;
        bool dup = i < ctx->doc->clip_count && duplicate[i];
        if (take_facet(ctx, rec, &fbx->takes[i], i, clip ? clip : "", dup))
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    return 0;
}
