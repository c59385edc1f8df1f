/* Foot heights relative to the hips over time, and their difference on a
 * right-hand axis of its own (see chart.h). Relative to the hips, a foot
 * curve shows the stride itself rather than the body rising and falling;
 * the difference is the signal the gait-phase measurement reads, so it is
 * drawn even when the hips role is missing (the hips cancel in it). */
#include <math.h>
#include <stdlib.h>

#include "report/svg.h"

#define WIDTH 640.0
#define HEIGHT 360.0
#define LEFT 72.0
#define RIGHT 72.0
#define TOP 44.0
#define BOTTOM 56.0

/* "the hips and left foot roles do not resolve" into caption. */
static void unresolved(anim_strbuf *caption, const report_chart_clip *c)
{
    const char *names[3];
    uint32_t k = 0;
    if (!c->hips)
        names[k++] = "hips";
    if (!c->left_foot)
        names[k++] = "left foot";
    if (!c->right_foot)
        names[k++] = "right foot";
    if (!k)
        return;
    anim_strbuf_puts(caption, " The ");
    for (uint32_t i = 0; i < k; i++)
        anim_strbuf_printf(caption, "%s%s", i == 0 ? "" : i + 1 == k ? " and " : ", ", names[i]);
    anim_strbuf_puts(caption, k == 1 ? " role did not resolve" : " roles did not resolve");
    bool l = c->left_foot && c->hips, r = c->right_foot && c->hips;
    bool d = c->left_foot && c->right_foot;
    if (!l && !r && !d)
        anim_strbuf_puts(caption, ", so no series is drawn.");
    else if (!d)
        anim_strbuf_printf(caption, ", so only the %s foot height is drawn.", l ? "left" : "right");
    else if (!l)
        anim_strbuf_puts(caption, ", so only left minus right is drawn.");
    else
        anim_strbuf_putc(caption, '.');
}

int report_chart_foot_heights(anim_strbuf *out, const report_chart_clip *c, const char *id,
                              anim_error *err)
{
    uint32_t n = c->frame_count;
    double *left = malloc(3 * (size_t)n * sizeof *left);
    if (!left)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    double *right = left + n, *diff = right + n;
    bool has_l = c->left_foot && c->hips, has_r = c->right_foot && c->hips;
    bool has_d = c->left_foot && c->right_foot;
    report_chart_component(has_l ? c->left_foot : NULL, c->hips, n, 'y', left);
    report_chart_component(has_r ? c->right_foot : NULL, c->hips, n, 'y', right);
    report_chart_component(has_d ? c->left_foot : NULL, c->right_foot, n, 'y', diff);

    double lo = 0.0, hi = 0.0, dlo = 0.0, dhi = 0.0;
    bool any = report_svg_extent(left, n, false, &lo, &hi);
    any = report_svg_extent(right, n, any, &lo, &hi) || any;
    if (!any)
        lo = hi = NAN;
    if (!report_svg_extent(diff, n, false, &dlo, &dhi))
        dlo = dhi = NAN;
    report_svg_axis t, y, yd;
    report_svg_axis_exact(&t, c->times[0], c->times[n - 1], LEFT, WIDTH - RIGHT);
    report_svg_axis_nice(&y, lo, hi, HEIGHT - BOTTOM, TOP);
    report_svg_axis_nice(&yd, dlo, dhi, HEIGHT - BOTTOM, TOP);

    anim_strbuf aria = ANIM_STRBUF_INIT, caption = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&aria, "Foot heights of clip %s over time in seconds: left foot and right "
                              "foot height minus hips height in metres (left axis), left minus "
                              "right in metres (right axis)", c->name);
    anim_strbuf_printf(&caption, "Foot heights of clip %s relative to the hips (left axis) and "
                                 "left minus right (right-hand axis), over time.", c->name);
    unresolved(&caption, c);
    report_chart_caption_declared(&caption, c);

    report_svg_figure fig = {id, "foot-heights", c->index, NULL, NULL, WIDTH, HEIGHT};
    report_svg_open(out, &fig, aria.data ? aria.data : "");
    report_legend_item legend[3];
    uint32_t k = 0;
    if (has_l)
        legend[k++] = (report_legend_item){"series series-left", "left foot \xe2\x88\x92 hips (m)",
                                           REPORT_SWATCH_LINE};
    if (has_r)
        legend[k++] = (report_legend_item){"series series-right",
                                           "right foot \xe2\x88\x92 hips (m)", REPORT_SWATCH_LINE};
    if (has_d)
        legend[k++] = (report_legend_item){"series series-diff",
                                           "left \xe2\x88\x92 right (m, right axis)",
                                           REPORT_SWATCH_LINE};
    report_svg_legend(out, legend, k, LEFT, 20.0, WIDTH - LEFT - RIGHT);
    report_svg_axis_draw(out, &t, REPORT_AXIS_BOTTOM, HEIGHT - BOTTOM, TOP, "time (s)", NULL);
    report_svg_axis_draw(out, &y, REPORT_AXIS_LEFT, LEFT, WIDTH - RIGHT,
                         "foot height \xe2\x88\x92 hips height (m)", NULL);
    report_svg_axis_draw(out, &yd, REPORT_AXIS_RIGHT, WIDTH - RIGHT, NAN,
                         "left \xe2\x88\x92 right (m)", "axis-diff");
    if (has_l)
        report_svg_polyline(out, "series-left", c->times, left, n, &t, &y);
    if (has_r)
        report_svg_polyline(out, "series-right", c->times, right, n, &t, &y);
    if (has_d)
        report_svg_polyline(out, "series-diff", c->times, diff, n, &t, &yd);
    report_svg_playhead(out, NULL, -1, report_svg_map(&t, c->times[0]),
                        report_svg_map(&t, c->times[n - 1]), n, TOP, HEIGHT - BOTTOM);
    report_svg_close(out, caption.data ? caption.data : "");
    return report_chart_done(out, &aria, &caption, left, err);
}
