/* One declared gait group: every member's left-minus-right foot height on
 * one shared normalized stride-phase axis (see chart.h). No member is
 * shifted onto another: aligning them would draw one curve several times
 * and hide the very offset the group is checked for. The band is centred
 * on the circular mean of the measured anchors, so no member is singled
 * out as the reference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "animsmith/numfmt.h"
#include "report/svg.h"

#define WIDTH 680.0
#define PLOT_HEIGHT 260.0
#define LEFT 72.0
#define RIGHT 24.0
#define BOTTOM 56.0
/* Member classes cycle through this many (the stylesheet defines
 * series-member-0 .. series-member-7). */
#define MEMBER_CLASSES 8u

static bool drawable(const report_gait_member *m)
{
    return m->clip && m->clip->left_foot && m->clip->right_foot;
}

/* Distance of two phases on the unit circle, in cycles ([0, 0.5]). */
static double circular_distance(double a, double b)
{
    double d = fmod(fabs(a - b), 1.0);
    return d > 0.5 ? 1.0 - d : d;
}

/* The circular mean of the measured anchors in [0, 1); false when none. */
static bool anchor_mean(const report_gait_member *members, uint32_t n, double *mean)
{
    double *phases = malloc((n ? n : 1) * sizeof *phases);
    uint32_t k = 0;
    for (uint32_t i = 0; phases && i < n; i++)
        if (members[i].has_anchor)
            phases[k++] = members[i].anchor;
    double m = k ? anim_circular_mean_rad(phases, k) / (2.0 * ANIM_PI) : 0.0;
    free(phases);
    if (!k)
        return false;
    *mean = m < 0.0 ? m + 1.0 : m;
    if (*mean >= 1.0) /* m + 1 rounded up from just below zero */
        *mean = 0.0;
    return true;
}

static void band_rect(anim_strbuf *out, const report_svg_axis *x, double from, double to,
                      double top, double height)
{
    double x0 = report_svg_map(x, from), x1 = report_svg_map(x, to);
    anim_strbuf_puts(out, "<rect class=\"tolerance-band\" x=\"");
    report_svg_num(out, x0);
    anim_strbuf_puts(out, "\" y=\"");
    report_svg_num(out, top);
    anim_strbuf_puts(out, "\" width=\"");
    report_svg_num(out, x1 - x0);
    anim_strbuf_puts(out, "\" height=\"");
    report_svg_num(out, height);
    anim_strbuf_puts(out, "\"/>");
}

/* The band [mean - spread, mean + spread] on the circle: one rect, or two
 * when it wraps past 0 or 1, or the whole axis when it covers the circle. */
static void band(anim_strbuf *out, const report_svg_axis *x, double mean, double spread,
                 double top, double height)
{
    double lo = mean - spread, hi = mean + spread;
    if (spread >= 0.5) {
        band_rect(out, x, 0.0, 1.0, top, height);
    } else if (lo < 0.0) {
        band_rect(out, x, 0.0, hi, top, height);
        band_rect(out, x, lo + 1.0, 1.0, top, height);
    } else if (hi > 1.0) {
        band_rect(out, x, 0.0, hi - 1.0, top, height);
        band_rect(out, x, lo, 1.0, top, height);
    } else {
        band_rect(out, x, lo, hi, top, height);
    }
}

/* ", a, b" style list of the members selected by keep into caption. */
static uint32_t name_list(anim_strbuf *caption, const report_gait_member *members, uint32_t n,
                          bool (*keep)(const report_gait_member *, const void *), const void *arg,
                          const char *lead)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!keep(&members[i], arg))
            continue;
        anim_strbuf_printf(caption, "%s%s", k ? ", " : lead, members[i].name);
        k++;
    }
    if (k)
        anim_strbuf_putc(caption, '.');
    return k;
}

typedef struct {
    double mean, spread;
} band_def;

static bool is_outside(const report_gait_member *m, const void *arg)
{
    const band_def *b = arg;
    return m->has_anchor && circular_distance(m->anchor, b->mean) > b->spread;
}

static bool is_absent(const report_gait_member *m, const void *arg)
{
    (void)arg;
    return !m->clip;
}

static bool is_unmeasured(const report_gait_member *m, const void *arg)
{
    (void)arg;
    return m->clip && !m->has_anchor;
}

static void compose_caption(anim_strbuf *caption, const char *group,
                            const report_gait_member *members, uint32_t n, bool has_band,
                            band_def b)
{
    anim_strbuf_printf(caption, "Gait group %s: every member's left-minus-right foot height "
                                "(relative to the hips) on one shared normalized stride-phase "
                                "axis, frame f of N drawn at f/(N\xe2\x88\x92" "1); no curve is "
                                "shifted onto another, and each member's measured stride anchor "
                                "is a vertical mark in its colour.",
                       group);
    if (has_band) {
        anim_strbuf_puts(caption, " The shaded band is the declared max_phase_spread ");
        anim_strbuf_put_f64_plain(caption, b.spread);
        anim_strbuf_puts(caption, " either side of the circular mean ");
        report_svg_fixed(caption, b.mean, 3);
        anim_strbuf_puts(caption, " of the measured anchors.");
        if (!name_list(caption, members, n, is_outside, &b, " Anchors outside the band: "))
            anim_strbuf_puts(caption, " Every measured anchor lies inside the band.");
    } else {
        anim_strbuf_puts(caption, " No stride anchor was measured, so no band is drawn.");
    }
    anim_strbuf_puts(caption, " No member is nominated as the reference: the check judges the "
                              "set's spread, so which member to re-anchor is the project's "
                              "choice.");
    name_list(caption, members, n, is_absent, NULL, " Not in the file: ");
    name_list(caption, members, n, is_unmeasured, NULL, " No anchor measured for: ");
}

/* The member's legend entry; label points into labels (kept alive). */
static report_legend_item legend_item(const report_gait_member *m, uint32_t i, char *cls,
                                      size_t cls_cap, anim_strbuf *label)
{
    snprintf(cls, cls_cap, "series series-member-%u", i % MEMBER_CLASSES);
    anim_strbuf_puts(label, m->name);
    if (!m->clip)
        anim_strbuf_puts(label, " (not in the file)");
    else if (!drawable(m))
        anim_strbuf_puts(label, " (foot roles unresolved)");
    else if (!m->has_anchor)
        anim_strbuf_puts(label, " (anchor not measured)");
    else {
        anim_strbuf_puts(label, " (anchor ");
        report_svg_fixed(label, m->anchor, 2);
        anim_strbuf_putc(label, ')');
    }
    return (report_legend_item){cls, label->data ? label->data : "",
                                m->clip ? REPORT_SWATCH_LINE : REPORT_SWATCH_NONE};
}

/* Fills xs (phase) and ys (left minus right) for a drawable member. */
static void member_series(const report_chart_clip *c, double *xs, double *ys)
{
    uint32_t n = c->frame_count;
    for (uint32_t f = 0; f < n; f++)
        xs[f] = (double)f / (double)(n - 1);
    report_chart_component(c->left_foot, c->right_foot, n, 'y', ys);
}

int report_chart_gait_group(anim_strbuf *out, const char *group, const report_gait_member *members,
                            uint32_t member_count, double max_phase_spread, const char *id,
                            anim_error *err)
{
    uint32_t most = 2;
    for (uint32_t i = 0; i < member_count; i++)
        if (drawable(&members[i]) && members[i].clip->frame_count > most)
            most = members[i].clip->frame_count;
    report_legend_item *legend = calloc(member_count + 1u, sizeof *legend);
    anim_strbuf *labels = calloc(member_count + 1u, sizeof *labels);
    char (*classes)[40] = calloc(member_count + 1u, sizeof *classes);
    double *xs = malloc(2 * (size_t)most * sizeof *xs);
    if (!legend || !labels || !classes || !xs) {
        free(legend);
        free(labels);
        free(classes);
        free(xs);
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    double *ys = xs + most;

    band_def b = {0.0, max_phase_spread};
    bool has_band = anchor_mean(members, member_count, &b.mean);
    double lo = NAN, hi = NAN;
    bool any = false;
    anim_strbuf members_attr = ANIM_STRBUF_INIT;
    for (uint32_t i = 0; i < member_count; i++) {
        anim_strbuf_printf(&members_attr, "%s%d", i ? "," : "", (int)members[i].clip_index);
        legend[i] = legend_item(&members[i], i, classes[i], sizeof classes[i], &labels[i]);
        if (!drawable(&members[i]))
            continue;
        member_series(members[i].clip, xs, ys);
        any = report_svg_extent(ys, members[i].clip->frame_count, any, &lo, &hi) || any;
    }
    uint32_t items = member_count;
    if (has_band) {
        anim_strbuf_puts(&labels[items], "tolerance band (\xc2\xb1");
        anim_strbuf_put_f64_plain(&labels[items], max_phase_spread);
        anim_strbuf_putc(&labels[items], ')');
        legend[items] = (report_legend_item){"tolerance-band",
                                             labels[items].data ? labels[items].data : "",
                                             REPORT_SWATCH_RECT};
        items++;
    }
    uint32_t rows = report_svg_legend_rows(legend, items, WIDTH - LEFT - RIGHT);
    double top = 28.0 + REPORT_LEGEND_ROW_PX * rows; /* the plot starts below the legend */
    double height = top + PLOT_HEIGHT + BOTTOM;
    report_svg_axis x, y;
    report_svg_axis_exact(&x, 0.0, 1.0, LEFT, WIDTH - RIGHT);
    report_svg_axis_nice(&y, lo, hi, top + PLOT_HEIGHT, top);

    anim_strbuf aria = ANIM_STRBUF_INIT, caption = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&aria, "Gait group %s: left minus right foot height in metres over "
                              "normalized stride phase from 0 to 1, one series per member (",
                       group);
    for (uint32_t i = 0; i < member_count; i++)
        anim_strbuf_printf(&aria, "%s%s", i ? ", " : "", members[i].name);
    anim_strbuf_puts(&aria, "), with each member's stride anchor and the tolerance band");
    compose_caption(&caption, group, members, member_count, has_band, b);

    report_svg_figure fig = {id, "gait-group", -1, NULL, members_attr.data ? members_attr.data : "",
                             WIDTH, height};
    report_svg_open(out, &fig, aria.data ? aria.data : "");
    report_svg_legend(out, legend, items, LEFT, 20.0, WIDTH - LEFT - RIGHT);
    if (has_band)
        band(out, &x, b.mean, max_phase_spread, top, PLOT_HEIGHT);
    report_svg_axis_draw(out, &x, REPORT_AXIS_BOTTOM, top + PLOT_HEIGHT, top,
                         "normalized stride phase, frame / (frames \xe2\x88\x92 1)", NULL);
    report_svg_axis_draw(out, &y, REPORT_AXIS_LEFT, LEFT, WIDTH - RIGHT,
                         "left \xe2\x88\x92 right foot height (m)", NULL);
    for (uint32_t i = 0; i < member_count; i++) {
        const report_gait_member *m = &members[i];
        const char *cls = classes[i] + sizeof "series"; /* "series-member-K" */
        if (drawable(m)) {
            member_series(m->clip, xs, ys);
            report_svg_polyline(out, cls, xs, ys, m->clip->frame_count, &x, &y);
        }
        if (m->has_anchor) {
            double ax = report_svg_map(&x, m->anchor);
            anim_strbuf_printf(out, "<line class=\"anchor %s\" x1=\"", cls);
            report_svg_num(out, ax);
            anim_strbuf_puts(out, "\" y1=\"");
            report_svg_num(out, top);
            anim_strbuf_puts(out, "\" x2=\"");
            report_svg_num(out, ax);
            anim_strbuf_puts(out, "\" y2=\"");
            report_svg_num(out, top + PLOT_HEIGHT);
            anim_strbuf_puts(out, "\"/>");
        }
    }
    for (uint32_t i = 0; i < member_count; i++) {
        const report_gait_member *m = &members[i];
        if (m->clip_index >= 0 && m->clip)
            report_svg_playhead(out, classes[i] + sizeof "series", m->clip_index,
                                report_svg_map(&x, 0.0), report_svg_map(&x, 1.0),
                                m->clip->frame_count, top, top + PLOT_HEIGHT);
    }
    report_svg_close(out, caption.data ? caption.data : "");

    bool failed = members_attr.failed;
    for (uint32_t i = 0; i <= member_count; i++) {
        failed |= labels[i].failed;
        anim_strbuf_free(&labels[i]);
    }
    anim_strbuf_free(&members_attr);
    free(labels);
    free(legend);
    free(classes);
    int rc = report_chart_done(out, &aria, &caption, xs, err);
    return rc == 0 && failed ? anim_error_set(err, ANIM_ERR_NOMEM, "out of memory") : rc;
}
