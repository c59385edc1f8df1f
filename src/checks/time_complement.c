/* time-complement: a sync-diagnostic for same-time groups. Two
 * members played on one clock should stride together; when one member's
 * gait matches the other's far better with its normalized time reflected
 * (t -> 1 - t, e.g. a backward clip authored as a time-reversed forward
 * one), same-time pairing is working against the measured evidence. The
 * similarity of two phases is (1 + cos 2π·Δ)/2; the warning fires when the
 * reflected similarity beats the same-time one by more than the group's
 * threshold. It reports, it does not prescribe reflection as the fix. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/math.h"
#include "checks/checks.h"
#include "checks/group_util.h"

#define SCOPE_EXISTENCE "member_existence"
#define SCOPE_MEASUREMENT "phase_measurement"
#define SCOPE_COHERENCE "phase_coherence"

typedef struct {
    const char *name;
    double phase, amplitude;
} measured_member;

static int member_gap(anim_lint_context *ctx, anim_check_record *rec, const char *member,
                      const group_phase *gp, double floor)
{
    const char *code = "measurement_unavailable";
    switch (gp->status) {
    case GROUP_PHASE_UNMEASURED:
        return anim_check_gap(ctx, rec, code, SCOPE_MEASUREMENT, member,
                              "gait phase could not be measured for time-complement comparison");
    case GROUP_PHASE_NOT_BILATERAL:
        return anim_check_gap(ctx, rec, code, SCOPE_MEASUREMENT, member,
                              "gait phase has no bilateral foot-role subject for time-complement "
                              "comparison");
    case GROUP_PHASE_NO_SWING:
        return anim_check_gap(ctx, rec, code, SCOPE_MEASUREMENT, member,
                              "gait phase has no left/right foot-height swing for "
                              "time-complement comparison");
    case GROUP_PHASE_UNFITTED:
        return anim_check_gap(ctx, rec, code, SCOPE_MEASUREMENT, member,
                              "gait phase could not be fitted for time-complement comparison");
    case GROUP_PHASE_BELOW_FLOOR:
        return anim_check_gap(ctx, rec, code, SCOPE_MEASUREMENT, member,
                              "left/right gait amplitude %.3f m is below the %.3f m "
                              "time-complement evidence floor",
                              gp->lr_amplitude_m, floor);
    case GROUP_PHASE_MEASURED: break;
    }
    return 0;
}

static double similarity(double a, double b)
{
    return (1.0 + cos(2.0 * ANIM_PI * (a - b))) / 2.0;
}

static int pair_row(anim_lint_context *ctx, anim_member_row *row, const measured_member *m,
                    double advantage, double reflected, double same)
{
    anim_member_measurement items[5] = {
        {"gait_phase", anim_value_number(m->phase)},
        {"lr_amplitude_m", anim_value_number(m->amplitude)},
        {"reflected_time_advantage", anim_value_number(advantage)},
        {"reflected_time_similarity", anim_value_number(reflected)},
        {"same_time_similarity", anim_value_number(same)},
    };
    return group_member_row(ctx, row, m->name, items, 5);
}

static int compare_pairs(anim_lint_context *ctx, anim_check_record *rec,
                         const anim_sync_group *g, const measured_member *ms, uint32_t m)
{
    double thr = g->min_reflected_time_advantage;
    for (uint32_t i = 0; i < m; i++) {
        for (uint32_t j = i + 1; j < m; j++) {
            double same = similarity(ms[i].phase, ms[j].phase);
            double reflected = similarity(ms[i].phase, 1.0 - ms[j].phase);
            double adv = reflected - same;
            if (!(adv > thr))
                continue;
            anim_member_row *rows = anim_arena_calloc(ctx->arena, 2, sizeof *rows);
            if (!rows || pair_row(ctx, &rows[0], &ms[i], adv, reflected, same) ||
                pair_row(ctx, &rows[1], &ms[j], adv, reflected, same))
                return -1;
            anim_finding_fields f = {0};
            f.severity = ANIM_SEVERITY_WARNING;
            f.measured = anim_value_number(adv);
            f.expected = anim_value_number(thr);
            f.members = rows;
            f.member_count = 2;
            if (anim_check_finding(ctx, rec, &f,
                                   "same-time / absolute-sync group '%s' pair '%s' and '%s' has "
                                   "reflected-time gait similarity %.3f versus same-time %.3f "
                                   "(advantage %.3f; threshold %.3f); this is a "
                                   "sync-compatibility diagnostic for the declared group",
                                   g->name, ms[i].name, ms[j].name, reflected, same, adv, thr))
                return -1;
        }
    }
    return 0;
}

static bool seen_before(const anim_string_list *l, uint32_t i)
{
    for (uint32_t k = 0; k < i; k++)
        if (strcmp(l->items[k], l->items[i]) == 0)
            return true;
    return false;
}

static int absent_gap(anim_lint_context *ctx, anim_check_record *rec, const anim_sync_group *g,
                      uint32_t missing)
{
    return anim_check_gap(ctx, rec, "members_not_evaluated", SCOPE_COHERENCE, g->name,
                          "same-time sync group '%s' has %u configured member(s) absent from "
                          "the file",
                          g->name, (unsigned)missing);
}

static int check_group(anim_lint_context *ctx, anim_check_record *rec, const anim_sync_group *g,
                       measured_member *ms)
{
    bool roles = anim_foot_cycle_roles(ctx->rig);
    double floor = g->time_complement_min_lr_amplitude_m;
    uint32_t distinct = 0, missing = 0, present = 0, m = 0;
    for (uint32_t i = 0; i < g->clips.count; i++) {
        if (seen_before(&g->clips, i))
            continue;
        distinct++;
        const char *member = g->clips.items[i];
        uint32_t clip = group_find_clip(ctx->doc, member);
        if (clip == ANIM_NONE) {
            missing++;
            continue;
        }
        present++;
        if (!roles)
            continue;
        group_phase gp;
        group_phase_measure(ctx, clip, floor, &gp);
        if (gp.status != GROUP_PHASE_MEASURED) {
            if (member_gap(ctx, rec, member, &gp, floor))
                return -1;
            continue;
        }
        ms[m].name = member;
        ms[m].phase = gp.phase;
        ms[m].amplitude = gp.lr_amplitude_m;
        m++;
    }

    if (present > 0 && !roles) {
        if (missing > 0 && absent_gap(ctx, rec, g, missing))
            return -1;
        return anim_check_gap_gait_roles(ctx, rec, SCOPE_COHERENCE, g->name);
    }

    if (compare_pairs(ctx, rec, g, ms, m))
        return -1;
    if (m >= 2 && anim_check_scope(ctx, rec, SCOPE_COHERENCE, g->name))
        return -1;
    if (missing > 0 && absent_gap(ctx, rec, g, missing))
        return -1;
    if (m < 2)
        return anim_check_gap(ctx, rec, "insufficient_measurable_members", SCOPE_COHERENCE,
                              g->name,
                              "same-time sync group '%s' has %u measurable phase member(s); at "
                              "least two are required",
                              g->name, (unsigned)m);
    if (missing == 0 && m < distinct)
        return anim_check_gap(ctx, rec, "members_not_evaluated", SCOPE_COHERENCE, g->name,
                              "same-time sync group '%s' evaluated %u of %u configured "
                              "member(s)",
                              g->name, (unsigned)m, (unsigned)distinct);
    return 0;
}

CHECK_GATHER(time_complement)
{
    return group_gather_foot_cycle(ctx, clip, false, err);
}

CHECK_RUN(time_complement)
{
    const anim_config *cfg = ctx->config;
    uint32_t most = 1;
    for (uint32_t gi = 0; gi < cfg->sync_group_count; gi++)
        if (cfg->sync_groups[gi].clips.count > most)
            most = cfg->sync_groups[gi].clips.count;
    measured_member *ms = calloc(most, sizeof *ms);
    int rc = ms ? anim_check_scope(ctx, rec, SCOPE_EXISTENCE, NULL) : -1;
    for (uint32_t gi = 0; gi < cfg->sync_group_count && rc == 0; gi++)
        if (cfg->sync_groups[gi].has_time_complement)
            rc = check_group(ctx, rec, &cfg->sync_groups[gi], ms);
    free(ms);
    if (rc)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    return 0;
}
