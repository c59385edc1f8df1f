/* gait-group: every clip of a declared directional blend ring
 * should sit at the same point of its stride, or runtime crossfades put the
 * feet where no member authored them. Each member's stride anchor is the
 * trough phase of its left-minus-right foot-height signal; the
 * ring's phases are compared on the circle, so 0.95 and 0.05 are 0.1 apart.
 *
 * Members are judged only on evidence: a missing clip is an error (the
 * declared ring is broken), while members whose phase cannot be measured
 * or whose left/right swing is below the group's amplitude floor are
 * excluded with a coverage gap instead of being guessed. */
#include <stdlib.h>
#include <string.h>

#include "checks/checks.h"
#include "checks/group_util.h"

#define SCOPE_EXISTENCE "member_existence"
#define SCOPE_MEASUREMENT "phase_measurement"
#define SCOPE_COHERENCE "phase_coherence"

/* The gap for a present member whose phase is not usable. */
static int member_gap(anim_lint_context *ctx, anim_check_record *rec, const char *member,
                      const group_phase *gp, double floor)
{
    const char *code = "measurement_unavailable";
    switch (gp->status) {
    case GROUP_PHASE_UNMEASURED:
        return anim_check_gap(ctx, rec, code, SCOPE_MEASUREMENT, member,
                              "gait phase could not be measured");
    case GROUP_PHASE_NOT_BILATERAL:
        return anim_check_gap(ctx, rec, code, SCOPE_MEASUREMENT, member,
                              "gait phase has no bilateral foot-role subject");
    case GROUP_PHASE_NO_SWING:
        return anim_check_gap(ctx, rec, code, SCOPE_MEASUREMENT, member,
                              "gait phase has no left/right foot-height swing");
    case GROUP_PHASE_UNFITTED:
        return anim_check_gap(ctx, rec, code, SCOPE_MEASUREMENT, member,
                              "gait phase could not be fitted from the sampled cycle");
    case GROUP_PHASE_BELOW_FLOOR:
        return anim_check_gap(ctx, rec, code, SCOPE_MEASUREMENT, member,
                              "left/right gait amplitude %.3f m is below the %.3f m evidence "
                              "floor",
                              gp->lr_amplitude_m, floor);
    case GROUP_PHASE_MEASURED: break;
    }
    return 0;
}

/* "[run_forward=0.75, run_left=0.50]" in member order. */
static char *measured_list(anim_lint_context *ctx, const char *const *names, const double *phases,
                           uint32_t n)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_strbuf_putc(&sb, '[');
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            anim_strbuf_puts(&sb, ", ");
        anim_strbuf_printf(&sb, "%s=%.2f", names[i], phases[i]);
    }
    anim_strbuf_putc(&sb, ']');
    char *out = sb.failed || !sb.data ? NULL : anim_arena_strdup(ctx->arena, sb.data);
    anim_strbuf_free(&sb);
    return out;
}

static int check_group(anim_lint_context *ctx, anim_check_record *rec, const anim_gait_group *g,
                       const char **names, double *phases)
{
    bool roles = anim_foot_cycle_roles(ctx->rig);
    uint32_t existing = 0, measured = 0, n = g->clips.count;
    for (uint32_t i = 0; i < n; i++) {
        const char *member = g->clips.items[i];
        uint32_t clip = group_find_clip(ctx->doc, member);
        if (clip == ANIM_NONE) {
            anim_finding_fields f = {0};
            f.severity = ANIM_SEVERITY_ERROR;
            f.clip = member;
            if (anim_check_finding(ctx, rec, &f, "gait group '%s' member not found in file",
                                   g->name))
                return -1;
            continue;
        }
        existing++;
        if (!roles)
            continue;
        group_phase gp;
        group_phase_measure(ctx, clip, g->min_lr_amplitude_m, &gp);
        if (gp.status != GROUP_PHASE_MEASURED) {
            if (member_gap(ctx, rec, member, &gp, g->min_lr_amplitude_m))
                return -1;
            continue;
        }
        names[measured] = member;
        phases[measured] = gp.phase;
        measured++;
    }

    if (existing > 0 && !roles)
        return anim_check_gap_gait_roles(ctx, rec, SCOPE_COHERENCE, g->name);

    if (measured >= 2) {
        double spread = group_circular_spread(phases, measured);
        double cap = g->max_gait_phase_spread;
        if (spread > cap) {
            char *list = measured_list(ctx, names, phases, measured);
            anim_finding_fields f = {0};
            f.severity = ANIM_SEVERITY_ERROR;
            f.measured = anim_value_number(spread);
            f.expected = anim_value_number(cap);
            if (!list ||
                anim_check_finding(ctx, rec, &f,
                                   "gait group '%s': stride-anchor phases spread by %.2f cycle "
                                   "(cap %.2f) \xe2\x80\x94 directional blends between these "
                                   "clips will skate or pop. Measured: %s",
                                   g->name, spread, cap, list))
                return -1;
        }
        if (anim_check_scope(ctx, rec, SCOPE_COHERENCE, g->name))
            return -1;
    }
    if (n >= 1 && measured < 2)
        return anim_check_gap(ctx, rec, "insufficient_measurable_members", SCOPE_COHERENCE,
                              g->name,
                              "gait group '%s' has %u measurable phase member(s); at least two "
                              "are required",
                              g->name, (unsigned)measured);
    if (n >= 1 && measured < n)
        return anim_check_gap(ctx, rec, "members_not_evaluated", SCOPE_COHERENCE, g->name,
                              "gait group '%s' evaluated %u of %u configured member(s)", g->name,
                              (unsigned)measured, (unsigned)n);
    return 0;
}

CHECK_GATHER(gait_group)
{
    return group_gather_foot_cycle(ctx, clip, true, err);
}

CHECK_RUN(gait_group)
{
    const anim_config *cfg = ctx->config;
    uint32_t most = 1;
    for (uint32_t gi = 0; gi < cfg->gait_group_count; gi++)
        if (cfg->gait_groups[gi].clips.count > most)
            most = cfg->gait_groups[gi].clips.count;
    const char **names = calloc(most, sizeof *names);
    double *phases = calloc(most, sizeof *phases);
    int rc = 0;
    if (!names || !phases)
        rc = -1;
    for (uint32_t gi = 0; gi < cfg->gait_group_count && rc == 0; gi++)
        rc = check_group(ctx, rec, &cfg->gait_groups[gi], names, phases);
    if (rc == 0)
        rc = group_scope_first(ctx, rec, SCOPE_EXISTENCE, NULL);
    free(names);
    free(phases);
    if (rc)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    return 0;
}
