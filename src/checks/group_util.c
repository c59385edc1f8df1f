/* Shared pieces of the group checks. */
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

/* What the group checks keep of one clip between the clip pass and their
 * evaluation: a few numbers instead of the clip's metric grid. */
typedef struct {
    bool gait_member, complement_member, sync_member; /* whose gather wants it */
    bool has_cycle;
    anim_foot_cycle_status status;
    anim_gait_phase_outcome phase_outcome;
    double lr_amplitude_m, phase;
    bool has_mode;
    const char *endpoint_mode;
} clip_facts;

enum { MEMBER_GAIT, MEMBER_SYNC, MEMBER_COMPLEMENT };

static void mark_members(const anim_lint_context *ctx, const anim_string_list *names,
                         clip_facts *facts, int kind)
{
    for (uint32_t i = 0; i < names->count; i++) {
        uint32_t clip = group_find_clip(ctx->doc, names->items[i]);
        if (clip == ANIM_NONE)
            continue;
        if (kind == MEMBER_GAIT)
            facts[clip].gait_member = true;
        else if (kind == MEMBER_SYNC)
            facts[clip].sync_member = true;
        else
            facts[clip].complement_member = true;
    }
}

/* The facts table, allocated and marked with group membership on first
 * use; NULL on allocation failure. Each clip's gather writes only that
 * clip's entry, so clip workers may gather at once into one table made
 * beforehand (group_facts_prepare). */
static clip_facts *facts_table(anim_lint_context *ctx)
{
    if (ctx->group_facts)
        return ctx->group_facts;
    const anim_config *cfg = ctx->config;
    uint32_t n = ctx->doc->clip_count;
    clip_facts *facts = anim_arena_calloc(ctx->arena, n ? n : 1, sizeof *facts);
    if (!facts)
        return NULL;
    for (uint32_t g = 0; g < cfg->gait_group_count; g++)
        mark_members(ctx, &cfg->gait_groups[g].clips, facts, MEMBER_GAIT);
    for (uint32_t g = 0; g < cfg->sync_group_count; g++) {
        const anim_sync_group *sg = &cfg->sync_groups[g];
        mark_members(ctx, &sg->clips, facts, MEMBER_SYNC);
        if (sg->has_time_complement)
            mark_members(ctx, &sg->clips, facts, MEMBER_COMPLEMENT);
    }
    ctx->group_facts = facts;
    return facts;
}

int group_facts_prepare(anim_lint_context *ctx, anim_error *err)
{
    return facts_table(ctx) ? 0 : anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
}

static void foot_cycle_of(anim_lint_context *ctx, uint32_t clip, clip_facts *out)
{
    anim_foot_cycle fc;
    anim_lint_foot_cycle(ctx, clip, ANIM_MIN_STRIDE_STEP_M, &fc);
    out->has_cycle = true;
    out->status = fc.status;
    out->phase_outcome = fc.phase_outcome;
    out->lr_amplitude_m = fc.lr_amplitude_m;
    out->phase = fc.phase;
}

int group_gather_foot_cycle(anim_lint_context *ctx, uint32_t clip, bool gait, anim_error *err)
{
    clip_facts *facts = facts_table(ctx);
    if (!facts)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    clip_facts *f = &facts[clip];
    /* Without the gait roles no phase is ever asked for. */
    if ((gait ? f->gait_member : f->complement_member) && !f->has_cycle &&
        anim_foot_cycle_roles(ctx->rig))
        foot_cycle_of(ctx, clip, f);
    return 0;
}

void group_phase_measure(anim_lint_context *ctx, uint32_t clip, double min_lr_amplitude_m,
                         group_phase *out)
{
    memset(out, 0, sizeof *out);
    clip_facts local = {0};
    clip_facts *f = ctx->group_facts ? &((clip_facts *)ctx->group_facts)[clip] : &local;
    if (!f->has_cycle)
        foot_cycle_of(ctx, clip, f);
    if (f->status != ANIM_FOOT_CYCLE_OK) {
        out->status = GROUP_PHASE_UNMEASURED;
        return;
    }
    out->lr_amplitude_m = f->lr_amplitude_m;
    switch (f->phase_outcome) {
    case ANIM_GAIT_PHASE_NOT_BILATERAL: out->status = GROUP_PHASE_NOT_BILATERAL; return;
    case ANIM_GAIT_PHASE_NO_SWING: out->status = GROUP_PHASE_NO_SWING; return;
    case ANIM_GAIT_PHASE_FAILED: out->status = GROUP_PHASE_UNFITTED; return;
    case ANIM_GAIT_PHASE_MEASURED: break;
    }
    /* A phase fitted to near-flat evidence is noise; the floor excludes it
     * rather than letting it pull the group's mean. */
    if (f->lr_amplitude_m < min_lr_amplitude_m) {
        out->status = GROUP_PHASE_BELOW_FLOOR;
        return;
    }
    out->status = GROUP_PHASE_MEASURED;
    out->phase = f->phase;
}

/* The clip's loop endpoint mode (the clip's shared fact, so every group
 * check reads the same value). */
static int endpoint_mode_of(anim_lint_context *ctx, uint32_t clip, clip_facts *out,
                            anim_error *err)
{
    anim_loop_endpoint le;
    if (anim_lint_loop_endpoint(ctx, clip, &le, err))
        return -1;
    out->has_mode = true;
    out->endpoint_mode =
        le.availability == ANIM_AVAIL_MEASURED ? anim_loop_endpoint_mode_name(le.mode) : NULL;
    return 0;
}

static bool loop_declared(const anim_lint_context *ctx, uint32_t clip)
{
    return ctx->expect[clip].loop.set && ctx->expect[clip].loop.value;
}

int group_gather_endpoint_mode(anim_lint_context *ctx, uint32_t clip, anim_error *err)
{
    clip_facts *facts = facts_table(ctx);
    if (!facts)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    clip_facts *f = &facts[clip];
    if (f->sync_member && !f->has_mode && loop_declared(ctx, clip))
        return endpoint_mode_of(ctx, clip, f, err);
    return 0;
}

int group_endpoint_mode(anim_lint_context *ctx, uint32_t clip, const char **mode,
                        anim_error *err)
{
    clip_facts local = {0};
    clip_facts *f = ctx->group_facts ? &((clip_facts *)ctx->group_facts)[clip] : &local;
    if (!f->has_mode && endpoint_mode_of(ctx, clip, f, err))
        return -1;
    *mode = f->endpoint_mode;
    return 0;
}

double group_circular_spread(const double *phases, uint32_t n)
{
    const double two_pi = 2.0 * ANIM_PI;
    double mean = anim_circular_mean_rad(phases, n);
    double spread = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        /* fmod truncates (the sign follows the dividend); the argument is
         * non-negative, so the result lies in [0, 2π). */
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
