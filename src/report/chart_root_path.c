/* The root's X/Z path seen from above (see chart.h). Both axes share one
 * scale so a curve's shape is not distorted: a path that bends by a
 * centimetre sideways looks like a centimetre against a metre of travel. */
#include <math.h>
#include <stdlib.h>

#include "report/svg.h"

#define WIDTH 520.0
#define HEIGHT 500.0
#define LEFT 72.0
#define RIGHT 24.0
#define TOP 44.0
#define BOTTOM 56.0

/* The first (dir > 0) or last finite sample, or n when none is. */
static uint32_t finite_end(const double *xs, const double *zs, uint32_t n, int dir)
{
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = dir > 0 ? k : n - 1 - k;
        if (isfinite(xs[i]) && isfinite(zs[i]))
            return i;
    }
    return n;
}

static void markers(anim_strbuf *out, double sx, double sy, double ex, double ey)
{
    anim_strbuf_puts(out, "<circle class=\"start-marker\" cx=\"");
    report_svg_num(out, sx);
    anim_strbuf_puts(out, "\" cy=\"");
    report_svg_num(out, sy);
    anim_strbuf_puts(out, "\" r=\"5.00\" fill=\"none\"/><rect class=\"end-marker\" x=\"");
    report_svg_num(out, ex - 4.0);
    anim_strbuf_puts(out, "\" y=\"");
    report_svg_num(out, ey - 4.0);
    anim_strbuf_puts(out, "\" width=\"8.00\" height=\"8.00\"/>");
}

int report_chart_root_path(anim_strbuf *out, const report_chart_clip *c, const char *id,
                           anim_error *err)
{
    uint32_t n = c->frame_count;
    double *xs = malloc(2 * (size_t)n * sizeof *xs);
    if (!xs)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    double *zs = xs + n;
    report_chart_component(c->root, NULL, n, 'x', xs);
    report_chart_component(c->root, NULL, n, 'z', zs);

    double xlo = 0.0, xhi = 0.0, zlo = 0.0, zhi = 0.0;
    bool any = report_svg_extent(xs, n, false, &xlo, &xhi) &&
               report_svg_extent(zs, n, false, &zlo, &zhi);
    uint32_t first = finite_end(xs, zs, n, 1), last = finite_end(xs, zs, n, -1);
    any = any && first < n;
    report_svg_axis ax, az;
    report_svg_axes_equal(&ax, &az, xlo, xhi, zlo, zhi, LEFT, TOP, WIDTH - LEFT - RIGHT,
                          HEIGHT - TOP - BOTTOM, 0.0);

    anim_strbuf aria = ANIM_STRBUF_INIT, caption = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&aria, "Root X/Z path of clip %s, metres: X horizontal, Z vertical "
                              "(increasing downward, seen from above)", c->name);
    anim_strbuf_printf(&caption, "Root X/Z path of clip %s", c->name);
    if (!c->root) {
        anim_strbuf_puts(&caption, ": the root role did not resolve (nor its hips fallback), "
                                   "so no path is drawn.");
    } else if (!any) {
        anim_strbuf_printf(&caption, " (bone %s): no sample of it is finite, so no path is drawn.",
                           c->root_bone ? c->root_bone : "?");
    } else {
        /* The distance is always in metres with three decimals, whatever
         * its size, so captions compare at a glance across clips. */
        double d = hypot(xs[last] - xs[first], zs[last] - zs[first]);
        anim_strbuf_printf(&caption, " (bone %s) seen from above, one scale on both axes. The "
                                     "hollow circle marks where it starts and the filled square "
                                     "where it ends; start and end are %.3f m apart.",
                           c->root_bone ? c->root_bone : "?", d);
    }
    report_chart_caption_declared(&caption, c);

    report_svg_figure fig = {id, "root-path", c->index, NULL, NULL, WIDTH, HEIGHT};
    report_svg_open(out, &fig, aria.data ? aria.data : "");
    report_legend_item legend[] = {
        {"series series-root", "root path", REPORT_SWATCH_LINE},
        {"start-marker", "start", REPORT_SWATCH_CIRCLE},
        {"end-marker", "end", REPORT_SWATCH_SQUARE},
    };
    report_svg_legend(out, legend, any ? 3 : 0, LEFT, 20.0, WIDTH - LEFT - RIGHT);
    report_chart_topview_axes(out, &ax, &az);
    if (any) {
        report_svg_polyline(out, "series-root", xs, zs, n, &ax, &az);
        markers(out, report_svg_map(&ax, xs[first]), report_svg_map(&az, zs[first]),
                report_svg_map(&ax, xs[last]), report_svg_map(&az, zs[last]));
        report_svg_playhead_dot(out, "series-root", NULL, xs, zs, n, &ax, &az);
    }
    report_svg_close(out, caption.data ? caption.data : "");
    return report_chart_done(out, &aria, &caption, xs, err);
}
