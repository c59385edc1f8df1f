/* A comparison side's gait panel: both foot heights over time with the
 * stance intervals foot-slide samples shaded (see chart.h). Heights are
 * raw model space here, not hips-relative, because that is what the stance
 * threshold is measured against: the shading must line up with the curve
 * it was derived from. */
#include <math.h>
#include <stdlib.h>

#include "animsmith/numfmt.h"
#include "report/svg.h"

#define WIDTH 640.0
#define HEIGHT 340.0
#define LEFT 72.0
#define RIGHT 24.0
#define TOP 44.0
#define BOTTOM 56.0

uint32_t report_stance_intervals(const anim_vec3 *foot, uint32_t frame_count,
                                 double contact_height_m, uint32_t *ranges, uint32_t cap)
{
    if (!foot || frame_count < 2)
        return 0;
    /* The same rule as foot-slide: NaN never compares below the ground
     * nor within the level, so a NaN frame is never stance. */
    double ground = INFINITY;
    for (uint32_t f = 0; f < frame_count; f++)
        if (foot[f].y < ground)
            ground = foot[f].y;
    double level = ground + contact_height_m;
    uint32_t count = 0, start = 0;
    bool open = false;
    for (uint32_t f = 1; f <= frame_count; f++) {
        bool stance = f < frame_count && foot[f].y <= level && foot[f - 1].y <= level;
        if (stance && !open) {
            open = true;
            start = f - 1;
        } else if (!stance && open) {
            open = false;
            if (count < cap) {
                ranges[2 * count] = start;
                ranges[2 * count + 1] = f - 1;
            }
            count++;
        }
    }
    return count;
}

/* The shaded intervals of one foot; false when out of memory. */
static bool shade(anim_strbuf *out, const report_chart_clip *c, const anim_vec3 *foot,
                  const char *cls, const report_svg_axis *t)
{
    uint32_t n = report_stance_intervals(foot, c->frame_count, c->contact_height_m, NULL, 0);
    if (!n)
        return true;
    uint32_t *r = malloc(2 * (size_t)n * sizeof *r);
    if (!r)
        return false;
    report_stance_intervals(foot, c->frame_count, c->contact_height_m, r, n);
    anim_strbuf_printf(out, "<g class=\"stance %s\">", cls);
    for (uint32_t i = 0; i < n; i++) {
        double x0 = report_svg_map(t, c->times[r[2 * i]]);
        double x1 = report_svg_map(t, c->times[r[2 * i + 1]]);
        anim_strbuf_printf(out, "<rect data-range=\"%u-%u\" x=\"", (unsigned)r[2 * i],
                           (unsigned)r[2 * i + 1]);
        report_svg_num(out, x0);
        anim_strbuf_puts(out, "\" y=\"");
        report_svg_num(out, TOP);
        anim_strbuf_puts(out, "\" width=\"");
        report_svg_num(out, x1 - x0);
        anim_strbuf_puts(out, "\" height=\"");
        report_svg_num(out, HEIGHT - TOP - BOTTOM);
        anim_strbuf_puts(out, "\"/>");
    }
    anim_strbuf_puts(out, "</g>");
    free(r);
    return true;
}

int report_chart_stance(anim_strbuf *out, const report_chart_clip *c, const char *side,
                        const char *id, anim_error *err)
{
    uint32_t n = c->frame_count;
    double *left = malloc(2 * (size_t)n * sizeof *left);
    if (!left)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    double *right = left + n;
    report_chart_component(c->left_foot, NULL, n, 'y', left);
    report_chart_component(c->right_foot, NULL, n, 'y', right);
    double lo = NAN, hi = NAN;
    bool any = report_svg_extent(left, n, false, &lo, &hi);
    report_svg_extent(right, n, any, &lo, &hi);
    report_svg_axis t, y;
    report_svg_axis_exact(&t, c->times[0], c->times[n - 1], LEFT, WIDTH - RIGHT);
    report_svg_axis_nice(&y, lo, hi, HEIGHT - BOTTOM, TOP);

    anim_strbuf aria = ANIM_STRBUF_INIT, caption = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&aria, "Gait panel of clip %s (%s): left and right foot height in metres "
                              "over time in seconds, stance intervals shaded", c->name, side);
    anim_strbuf_printf(&caption, "Foot heights of clip %s (%s) over time, model space. The shaded "
                                 "bands are the stance intervals foot-slide judged (within ",
                       c->name, side);
    anim_strbuf_put_f64_plain(&caption, c->contact_height_m);
    anim_strbuf_puts(&caption, " m of the foot's lowest sampled height): a foot that moves "
                               "horizontally inside its band is the slide.");
    if (!c->left_foot && !c->right_foot)
        anim_strbuf_puts(&caption, " The left and right foot roles did not resolve, so neither "
                                   "is drawn.");
    else if (!c->left_foot || !c->right_foot)
        anim_strbuf_printf(&caption, " The %s foot role did not resolve, so it is not drawn.",
                           c->left_foot ? "right" : "left");
    report_chart_caption_declared(&caption, c);

    report_svg_figure fig = {id, "stance", c->index, side, NULL, WIDTH, HEIGHT};
    report_svg_open(out, &fig, aria.data ? aria.data : "");
    report_legend_item legend[4];
    uint32_t k = 0;
    if (c->left_foot) {
        legend[k++] = (report_legend_item){"series series-left", "left foot (m)",
                                           REPORT_SWATCH_LINE};
        legend[k++] = (report_legend_item){"stance stance-left", "left stance",
                                           REPORT_SWATCH_RECT};
    }
    if (c->right_foot) {
        legend[k++] = (report_legend_item){"series series-right", "right foot (m)",
                                           REPORT_SWATCH_LINE};
        legend[k++] = (report_legend_item){"stance stance-right", "right stance",
                                           REPORT_SWATCH_RECT};
    }
    report_svg_legend(out, legend, k, LEFT, 20.0, WIDTH - LEFT - RIGHT);
    bool ok = shade(out, c, c->left_foot, "stance-left", &t) &&
              shade(out, c, c->right_foot, "stance-right", &t);
    report_svg_axis_draw(out, &t, REPORT_AXIS_BOTTOM, HEIGHT - BOTTOM, TOP, "time (s)", NULL);
    report_svg_axis_draw(out, &y, REPORT_AXIS_LEFT, LEFT, WIDTH - RIGHT, "foot height (m)", NULL);
    if (c->left_foot)
        report_svg_polyline(out, "series-left", c->times, left, n, &t, &y);
    if (c->right_foot)
        report_svg_polyline(out, "series-right", c->times, right, n, &t, &y);
    report_svg_playhead(out, NULL, -1, report_svg_map(&t, c->times[0]),
                        report_svg_map(&t, c->times[n - 1]), n, TOP, HEIGHT - BOTTOM);
    report_svg_close(out, caption.data ? caption.data : "");
    int rc = report_chart_done(out, &aria, &caption, left, err);
    return rc == 0 && !ok ? anim_error_set(err, ANIM_ERR_NOMEM, "out of memory") : rc;
}
