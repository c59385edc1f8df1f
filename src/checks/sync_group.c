/* sync-group: clips that a runtime plays on one shared clock
 * (same-time or absolute-sync blends) must agree on the timing surfaces
 * that clock assumes: duration, longest-channel key count, the declared
 * frame grid and how the loop closes. Role-independent.
 *
 * Every incompatibility finding carries one row per configured member
 * (missing members included, marked "missing"), so automation sees the
 * whole comparison table without parsing the message. Evidence a
 * comparison needs but a member lacks (a non-finite duration, an undeclared
 * or off-grid frame rate, an undeclared or undecidable loop) is a coverage
 * gap for that comparison, never a silent pass. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/math.h"
#include "animsmith/measure.h"
#include "checks/checks.h"
#include "checks/group_util.h"

#define SCOPE_EXISTENCE "member_existence"
#define SCOPE_MEMBER "sync_member_measurement"
#define SCOPE_COMPAT "sync_compatibility"

/* What one present member contributes to the comparisons. */
typedef struct {
    bool present;
    bool has_duration;
    double duration_s;
    uint64_t frame_count;
    bool has_grid;
    double fps;
    uint64_t frame_intervals;
    const char *grid_problem;  /* row text when !has_grid */
    const char *endpoint_mode; /* NULL when unavailable */
} member_facts;

/* The declared frame grid of the clip under its declared fps, as the
 * frame_grid measurement judges it; the row names why a grid is
 * unusable. */
static void frame_grid(const anim_clip *clip, const anim_clip_expect *ex, member_facts *m)
{
    if (!ex->fps.set) {
        m->grid_problem = "undeclared_fps";
        return;
    }
    double fps = ex->fps.value;
    if (!(isfinite(fps) && fps > 0.0)) {
        m->grid_problem = "invalid_fps";
        return;
    }
    if (!anim_clip_on_frame_grid(clip, fps, &m->frame_intervals)) {
        m->grid_problem = "off_grid";
        return;
    }
    m->grid_problem = NULL;
    m->has_grid = true;
    m->fps = fps;
}

/* The loop endpoint mode, only for a clip declared loop = true. */
static int endpoint_mode(anim_lint_context *ctx, uint32_t clip, member_facts *m,
                         anim_error *err)
{
    const anim_clip_expect *ex = &ctx->expect[clip];
    if (!(ex->loop.set && ex->loop.value))
        return 0;
    return group_endpoint_mode(ctx, clip, &m->endpoint_mode, err);
}

static int measure_member(anim_lint_context *ctx, uint32_t clip, member_facts *m,
                          anim_error *err)
{
    const anim_clip *c = &ctx->doc->clips[clip];
    m->present = true;
    m->has_duration = isfinite(c->duration_s);
    m->duration_s = c->duration_s;
    for (uint32_t i = 0; i < c->track_count; i++)
        if (c->tracks[i].key_count > m->frame_count)
            m->frame_count = c->tracks[i].key_count;
    frame_grid(c, &ctx->expect[clip], m);
    return endpoint_mode(ctx, clip, m, err);
}

static int member_row(anim_lint_context *ctx, anim_member_row *row, const char *member,
                      const member_facts *m)
{
    anim_member_measurement items[6];
    uint32_t n = 0;
    items[n].key = "availability";
    items[n++].value = anim_value_text(m->present ? "present" : "missing");
    if (m->present) {
        if (m->has_duration) {
            items[n].key = "duration_s";
            items[n++].value = anim_value_number(m->duration_s);
        }
        items[n].key = "frame_count";
        items[n++].value = anim_value_number((double)m->frame_count);
        if (m->has_grid) {
            items[n].key = "fps";
            items[n++].value = anim_value_number(m->fps);
            items[n].key = "frame_intervals";
            items[n++].value = anim_value_number((double)m->frame_intervals);
        } else {
            items[n].key = "frame_grid";
            items[n++].value = anim_value_text(m->grid_problem);
        }
        items[n].key = "loop_endpoint_mode";
        items[n++].value = anim_value_text(m->endpoint_mode ? m->endpoint_mode : "unavailable");
    }
    return group_member_row(ctx, row, member, items, n);
}

/* One comparison: max - min over the present members' values. */
static int spread_check(anim_lint_context *ctx, anim_check_record *rec, const anim_sync_group *g,
                        const char *label, const double *values, uint32_t n, double cap,
                        anim_member_row *rows)
{
    if (n == 0)
        return 0;
    double lo = values[0], hi = values[0];
    for (uint32_t i = 1; i < n; i++) {
        lo = values[i] < lo ? values[i] : lo;
        hi = values[i] > hi ? values[i] : hi;
    }
    double spread = hi - lo;
    if (!isfinite(spread) || !(spread > cap))
        return 0;
    anim_finding_fields f = {0};
    f.severity = ANIM_SEVERITY_ERROR;
    f.measured = anim_value_number(spread);
    f.expected = anim_value_number(cap);
    f.members = rows;
    f.member_count = g->clips.count;
    return anim_check_finding(ctx, rec, &f, "sync group '%s' %s spread %.6f exceeds cap %.6f",
                              g->name, label, spread, cap);
}

static int compare(anim_lint_context *ctx, anim_check_record *rec, const anim_sync_group *g,
                   const member_facts *facts, anim_member_row *rows, double *values)
{
    uint32_t n = g->clips.count, present = 0, with_duration = 0, with_grid = 0, with_mode = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!facts[i].present)
            continue;
        present++;
        with_duration += facts[i].has_duration;
        with_grid += facts[i].has_grid;
        with_mode += facts[i].endpoint_mode != NULL;
    }
    uint32_t k;

    if (with_duration == present) {
        k = 0;
        for (uint32_t i = 0; i < n; i++)
            if (facts[i].present)
                values[k++] = facts[i].duration_s;
        if (spread_check(ctx, rec, g, "duration", values, k, g->max_duration_delta_s, rows))
            return -1;
    } else if (anim_check_gap(ctx, rec, "measurement_unavailable", SCOPE_COMPAT, g->name,
                              "sync group '%s' has %u of %u members with finite durations",
                              g->name, (unsigned)with_duration, (unsigned)present)) {
        return -1;
    }

    k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (facts[i].present)
            values[k++] = (double)facts[i].frame_count;
    if (spread_check(ctx, rec, g, "frame count", values, k, (double)g->max_frame_count_delta,
                     rows))
        return -1;

    if (with_grid == present) {
        k = 0;
        for (uint32_t i = 0; i < n; i++)
            if (facts[i].present)
                values[k++] = facts[i].fps;
        if (spread_check(ctx, rec, g, "FPS", values, k, g->max_fps_delta, rows))
            return -1;
        k = 0;
        for (uint32_t i = 0; i < n; i++)
            if (facts[i].present)
                values[k++] = (double)facts[i].frame_intervals;
        if (spread_check(ctx, rec, g, "frame intervals", values, k,
                         (double)g->max_frame_count_delta, rows))
            return -1;
    } else if (anim_check_gap(ctx, rec, "sync_frame_grid_unavailable", SCOPE_COMPAT, g->name,
                              "sync group '%s' has %u of %u members with usable declared frame "
                              "grids",
                              g->name, (unsigned)with_grid, (unsigned)present)) {
        return -1;
    }

    if (with_mode == present) {
        const char *prev = NULL;
        bool mixed = false;
        for (uint32_t i = 0; i < n; i++) {
            if (!facts[i].present)
                continue;
            if (prev && strcmp(prev, facts[i].endpoint_mode) != 0)
                mixed = true;
            prev = facts[i].endpoint_mode;
        }
        if (mixed) {
            anim_finding_fields f = {0};
            f.severity = ANIM_SEVERITY_ERROR;
            f.measured = anim_value_text("mixed");
            f.expected = anim_value_text("one shared endpoint mode");
            f.members = rows;
            f.member_count = n;
            if (anim_check_finding(ctx, rec, &f,
                                   "sync group '%s' has incompatible loop endpoint modes",
                                   g->name))
                return -1;
        }
    } else if (anim_check_gap(ctx, rec, "measurement_unavailable", SCOPE_COMPAT, g->name,
                              "sync group '%s' has %u of %u members with usable loop endpoint "
                              "evidence",
                              g->name, (unsigned)with_mode, (unsigned)present)) {
        return -1;
    }
    return anim_check_scope(ctx, rec, SCOPE_COMPAT, g->name);
}

static int check_group(anim_lint_context *ctx, anim_check_record *rec, const anim_sync_group *g,
                       anim_error *err)
{
    uint32_t n = g->clips.count;
    if (n == 0)
        return 0;
    member_facts *facts = anim_arena_calloc(ctx->arena, n, sizeof *facts);
    anim_member_row *rows = anim_arena_calloc(ctx->arena, n, sizeof *rows);
    double *values = anim_arena_calloc(ctx->arena, n, sizeof *values);
    if (!facts || !rows || !values)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");

    uint32_t missing = 0, present = 0;
    for (uint32_t i = 0; i < n; i++) {
        const char *member = g->clips.items[i];
        uint32_t clip = group_find_clip(ctx->doc, member);
        if (clip == ANIM_NONE) {
            missing++;
        } else {
            present++;
            if (anim_check_scope(ctx, rec, SCOPE_MEMBER, member) ||
                measure_member(ctx, clip, &facts[i], err))
                goto fail;
        }
        if (member_row(ctx, &rows[i], member, &facts[i]))
            goto fail;
    }

    for (uint32_t i = 0; i < n; i++) {
        if (facts[i].present)
            continue;
        anim_finding_fields f = {0};
        f.severity = ANIM_SEVERITY_ERROR;
        f.clip = g->clips.items[i];
        f.members = rows;
        f.member_count = n;
        if (anim_check_finding(ctx, rec, &f, "sync group '%s' member not found in file",
                               g->name))
            goto fail;
    }

    if (missing > 0 &&
        anim_check_gap(ctx, rec, "members_not_evaluated", SCOPE_COMPAT, g->name,
                       "sync group '%s' has %u configured member(s) absent from the file",
                       g->name, (unsigned)missing))
        goto fail;
    if (present < 2) {
        if (anim_check_gap(ctx, rec, "insufficient_measurable_members", SCOPE_COMPAT, g->name,
                           "sync group '%s' has %u present member(s); at least two are required",
                           g->name, (unsigned)present))
            goto fail;
        return 0;
    }
    if (compare(ctx, rec, g, facts, rows, values))
        goto fail;
    return 0;
fail:
    /* The runner names an unset error as out of memory. */
    return -1;
}

CHECK_GATHER(sync_group)
{
    return group_gather_endpoint_mode(ctx, clip, err);
}

CHECK_RUN(sync_group)
{
    if (anim_check_scope(ctx, rec, SCOPE_EXISTENCE, NULL))
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t gi = 0; gi < ctx->config->sync_group_count; gi++)
        if (check_group(ctx, rec, &ctx->config->sync_groups[gi], err))
            return -1;
    return 0;
}
