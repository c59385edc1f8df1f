/* Shared pieces of the group checks (spec 5.24-5.26). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/math.h"
#include "checks/group_util.h"

uint32_t group_find_clip(const anim_doc *doc, const char *name)
{
    uint32_t found = ANIM_NONE;
    for (uint32_t c = 0; c < doc->clip_count; c++)
        if (doc->clips[c].name && strcmp(doc->clips[c].name, name) == 0)
            found = c;
    return found;
}

void group_phase_measure(anim_lint_context *ctx, uint32_t clip, double min_lr_amplitude_m,
                         group_phase *out)
{
    memset(out, 0, sizeof *out);
    anim_foot_cycle fc;
    const anim_metric_grid *grid = anim_lint_grid(ctx, clip);
    anim_foot_cycle_compute(ctx->doc, grid, ctx->rig, ANIM_MIN_STRIDE_STEP_M, &fc);
    if (fc.status != ANIM_FOOT_CYCLE_OK) {
        out->status = GROUP_PHASE_UNMEASURED;
        return;
    }
    out->lr_amplitude_m = fc.lr_amplitude_m;
    switch (fc.phase_outcome) {
    case ANIM_GAIT_PHASE_NOT_BILATERAL: out->status = GROUP_PHASE_NOT_BILATERAL; return;
    case ANIM_GAIT_PHASE_NO_SWING: out->status = GROUP_PHASE_NO_SWING; return;
    case ANIM_GAIT_PHASE_FAILED: out->status = GROUP_PHASE_UNFITTED; return;
    case ANIM_GAIT_PHASE_MEASURED: break;
    }
    /* A phase fitted to near-flat evidence is noise; the floor excludes it
     * rather than letting it pull the group's mean. */
    if (fc.lr_amplitude_m < min_lr_amplitude_m) {
        out->status = GROUP_PHASE_BELOW_FLOOR;
        return;
    }
    out->status = GROUP_PHASE_MEASURED;
    out->phase = fc.phase;
}

double group_circular_spread(const double *phases, uint32_t n)
{
    const double two_pi = 2.0 * ANIM_PI;
    double s = 0.0, c = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        s += sin(two_pi * phases[i]);
        c += cos(two_pi * phases[i]);
    }
    double mean = atan2(s, c);
    double spread = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        /* fmod truncates, like the reference's `%` on f64. */
        double d = fmod(fabs(two_pi * phases[i] - mean), two_pi);
        if (d > ANIM_PI)
            d = two_pi - d;
        if (d / two_pi > spread)
            spread = d / two_pi;
    }
    return spread;
}

int group_scope_first(anim_lint_context *ctx, anim_check_record *rec, const char *code,
                      const char *subject)
{
    if (anim_check_scope(ctx, rec, code, subject))
        return -1;
    anim_scope first = rec->scopes[rec->scope_count - 1];
    memmove(rec->scopes + 1, rec->scopes, (size_t)(rec->scope_count - 1) * sizeof *rec->scopes);
    rec->scopes[0] = first;
    return 0;
}

static int cmp_measurement(const void *a, const void *b)
{
    const anim_member_measurement *x = a, *y = b;
    return strcmp(x->key, y->key);
}

int group_member_row(anim_lint_context *ctx, anim_member_row *row, const char *member,
                     const anim_member_measurement *items, uint32_t n)
{
    row->member = anim_arena_strdup(ctx->arena, member);
    row->measurements = anim_arena_calloc(ctx->arena, n ? n : 1, sizeof *row->measurements);
    if (!row->member || !row->measurements)
        return -1;
    if (n)
        memcpy(row->measurements, items, (size_t)n * sizeof *items);
    qsort(row->measurements, n, sizeof *row->measurements, cmp_measurement);
    row->measurement_count = n;
    return 0;
}
