/* The comparison's top views (see chart.h): each side's role trajectories
 * at one fixed scale, so the two panels compare as drawn, and the shared
 * root panel fitted to the root paths alone with a scale bar, so a sway
 * of a few centimetres is legible and still reads at its true size. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "animsmith/numfmt.h"
#include "report/svg.h"

#define WIDTH 420.0
#define HEIGHT 460.0
#define LEFT 72.0
#define RIGHT 24.0
#define TOP 64.0
#define BOTTOM 56.0
#define PLOT_W (WIDTH - LEFT - RIGHT)
#define PLOT_H (HEIGHT - TOP - BOTTOM)

enum { ROLES = 4 };

typedef struct {
    const char *cls;
    const char *label;
} role_def;

static const role_def roles[ROLES] = {
    {"series-root", "root"},
    {"series-hips", "hips"},
    {"series-left", "left foot"},
    {"series-right", "right foot"},
};

static const anim_vec3 *role_series(const report_chart_clip *c, int r)
{
    const anim_vec3 *const v[ROLES] = {c->root, c->hips, c->left_foot, c->right_foot};
    return v[r];
}

/* X/Z extent of the first count roles of c, merged into the box (any:
 * whether the box holds a point yet). */
static bool extent(const report_chart_clip *c, int count, bool any, double box[4])
{
    for (int r = 0; r < count; r++) {
        const anim_vec3 *v = role_series(c, r);
        if (!v)
            continue;
        for (uint32_t f = 0; f < c->frame_count; f++) {
            if (!isfinite(v[f].x) || !isfinite(v[f].z))
                continue;
            if (!any || v[f].x < box[0])
                box[0] = v[f].x;
            if (!any || v[f].x > box[1])
                box[1] = v[f].x;
            if (!any || v[f].z < box[2])
                box[2] = v[f].z;
            if (!any || v[f].z > box[3])
                box[3] = v[f].z;
            any = true;
        }
    }
    return any;
}

double report_chart_trails_scale(const report_chart_clip *before, const report_chart_clip *after)
{
    double scale = INFINITY;
    const report_chart_clip *sides[2] = {before, after};
    for (int s = 0; s < 2; s++) {
        double box[4] = {0.0, 0.0, 0.0, 0.0};
        extent(sides[s], ROLES, false, box);
        /* Each side is centred in its own panel, so its own span is what
         * has to fit. */
        scale = fmin(scale, report_svg_fit_scale(box[1] - box[0], box[3] - box[2], PLOT_W, PLOT_H));
    }
    return scale;
}

/* xs/zs of role r (NaN when the role is missing). */
static void role_xz(const report_chart_clip *c, int r, double *xs, double *zs)
{
    report_chart_component(role_series(c, r), NULL, c->frame_count, 'x', xs);
    report_chart_component(role_series(c, r), NULL, c->frame_count, 'z', zs);
}

int report_chart_trails(anim_strbuf *out, const report_chart_clip *c, const char *side,
                        double px_per_m, const char *id, anim_error *err)
{
    uint32_t n = c->frame_count;
    double *xs = malloc(2 * (size_t)n * sizeof *xs);
    if (!xs)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    double *zs = xs + n;
    double box[4] = {0.0, 0.0, 0.0, 0.0};
    extent(c, ROLES, false, box);
    report_svg_axis ax, az;
    double scale = report_svg_axes_equal(&ax, &az, box[0], box[1], box[2], box[3], LEFT, TOP,
                                         PLOT_W, PLOT_H, px_per_m);

    anim_strbuf aria = ANIM_STRBUF_INIT, caption = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&aria, "Role trajectories of clip %s (%s) seen from above, metres: X "
                              "horizontal, Z vertical (increasing downward); root, hips, left "
                              "foot and right foot",
                       c->name, side);
    anim_strbuf_printf(&caption, "Role trajectories of clip %s (%s) seen from above: root, hips, "
                                 "left and right foot, drawn at ",
                       c->name, side);
    report_svg_fixed(&caption, scale, 1);
    anim_strbuf_puts(&caption, " px per metre, the scale of the other side's panel, so the two "
                               "compare as drawn.");
    for (int r = 0; r < ROLES; r++)
        if (!role_series(c, r))
            anim_strbuf_printf(&caption, " The %s role did not resolve.", roles[r].label);
    report_chart_caption_declared(&caption, c);

    report_svg_figure fig = {id, "trails", c->index, side, NULL, WIDTH, HEIGHT};
    report_svg_open(out, &fig, aria.data ? aria.data : "");
    report_legend_item legend[ROLES];
    char cls[ROLES][32];
    uint32_t k = 0;
    for (int r = 0; r < ROLES; r++) {
        if (!role_series(c, r))
            continue;
        snprintf(cls[k], sizeof cls[k], "series %s", roles[r].cls);
        legend[k] = (report_legend_item){cls[k], roles[r].label, REPORT_SWATCH_LINE};
        k++;
    }
    report_svg_legend(out, legend, k, LEFT, 20.0, PLOT_W);
    report_chart_topview_axes(out, &ax, &az);
    for (int r = 0; r < ROLES; r++) {
        if (!role_series(c, r))
            continue;
        role_xz(c, r, xs, zs);
        report_svg_polyline(out, roles[r].cls, xs, zs, n, &ax, &az);
    }
    for (int r = 0; r < ROLES; r++) {
        if (!role_series(c, r))
            continue;
        role_xz(c, r, xs, zs);
        report_svg_playhead_dot(out, roles[r].cls, NULL, xs, zs, n, &ax, &az);
    }
    report_svg_close(out, caption.data ? caption.data : "");
    return report_chart_done(out, &aria, &caption, xs, err);
}

/* The scale bar in the plot's bottom-right corner: a 1-2-5 length about a
 * quarter of the plot wide, labelled in cm below a metre, else in m. */
static void scale_bar(anim_strbuf *out, double scale)
{
    double len = report_svg_nice_step(0.25 * PLOT_W / scale, 1);
    double x1 = LEFT + PLOT_W - 12.0, x0 = x1 - len * scale, y = TOP + PLOT_H - 14.0;
    anim_strbuf_puts(out, "<g class=\"scale-bar\"><polyline fill=\"none\" points=\"");
    double pts[4][2] = {{x0, y - 4.0}, {x0, y}, {x1, y}, {x1, y - 4.0}};
    for (int i = 0; i < 4; i++) {
        if (i)
            anim_strbuf_putc(out, ' ');
        report_svg_num(out, pts[i][0]);
        anim_strbuf_putc(out, ',');
        report_svg_num(out, pts[i][1]);
    }
    anim_strbuf_puts(out, "\"/><text class=\"scale-bar-label\" x=\"");
    report_svg_num(out, 0.5 * (x0 + x1));
    anim_strbuf_puts(out, "\" y=\"");
    report_svg_num(out, y - 7.0);
    anim_strbuf_puts(out, "\" text-anchor=\"middle\">");
    if (len >= 1.0) {
        report_svg_fixed(out, len, 0);
        anim_strbuf_puts(out, " m");
    } else {
        report_svg_fixed(out, len * 100.0, report_svg_step_decimals(len * 100.0));
        anim_strbuf_puts(out, " cm");
    }
    anim_strbuf_puts(out, "</text></g>");
}

/* What the two sides declare: once when alike, else per side. */
static void declared_both(anim_strbuf *caption, const report_chart_clip *before,
                          const report_chart_clip *after)
{
    if (report_chart_same_declarations(before, after)) {
        report_chart_caption_declared(caption, before);
        return;
    }
    anim_strbuf_puts(caption, " Before:");
    report_chart_caption_declared(caption, before);
    anim_strbuf_puts(caption, " After:");
    report_chart_caption_declared(caption, after);
}

int report_chart_shared_root(anim_strbuf *out, const report_chart_clip *before,
                             const report_chart_clip *after, double trails_px_per_m,
                             const char *id, anim_error *err)
{
    const report_chart_clip *sides[2] = {before, after};
    static const char *const names[2] = {"before", "after"};
    uint32_t most = before->frame_count > after->frame_count ? before->frame_count
                                                             : after->frame_count;
    double *xs = malloc(2 * (size_t)most * sizeof *xs);
    if (!xs)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    double *zs = xs + most;
    double box[4] = {0.0, 0.0, 0.0, 0.0};
    bool any = extent(before, 1, false, box);
    extent(after, 1, any, box);
    report_svg_axis ax, az;
    double scale = report_svg_axes_equal(&ax, &az, box[0], box[1], box[2], box[3], LEFT, TOP,
                                         PLOT_W, PLOT_H, 0.0);

    anim_strbuf aria = ANIM_STRBUF_INIT, caption = ANIM_STRBUF_INIT;
    anim_strbuf_puts(&aria, "Root X/Z paths of both sides seen from above, metres: X horizontal, "
                            "Z vertical (increasing downward); before solid, after dashed, with "
                            "a scale bar");
    anim_strbuf_printf(&caption, "Root X/Z paths seen from above, fitted to this panel: before "
                                 "(%s) solid, after (%s) dashed; the scale bar gives the size.",
                       before->name, after->name);
    if (trails_px_per_m > 0.0) {
        anim_strbuf_puts(&caption, " The panel is drawn at ");
        report_svg_fixed(&caption, scale / trails_px_per_m, 1);
        anim_strbuf_puts(&caption, "\xc3\x97 the scale of the trajectory panels.");
    }
    for (int s = 0; s < 2; s++)
        if (!sides[s]->root)
            anim_strbuf_printf(&caption, " The %s side's root role did not resolve, so its path "
                                         "is not drawn.",
                               names[s]);
    declared_both(&caption, before, after);

    report_svg_figure fig = {id, "shared-root", -1, "shared", NULL, WIDTH, HEIGHT};
    report_svg_open(out, &fig, aria.data ? aria.data : "");
    report_legend_item legend[2] = {
        {"series series-before", "before (solid)", REPORT_SWATCH_LINE},
        {"series series-after", "after (dashed)", REPORT_SWATCH_LINE},
    };
    report_svg_legend(out, legend, 2, LEFT, 20.0, PLOT_W);
    report_chart_topview_axes(out, &ax, &az);
    for (int s = 0; s < 2; s++) {
        if (!sides[s]->root)
            continue;
        role_xz(sides[s], 0, xs, zs);
        /* The dash is a line style, not a colour, so it is drawn here and
         * survives a stylesheet that only sets colours. */
        anim_strbuf_puts(out, s ? "<g stroke-dasharray=\"6 4\">" : "<g>");
        report_svg_polyline(out, s ? "series-after" : "series-before", xs, zs,
                            sides[s]->frame_count, &ax, &az);
        anim_strbuf_puts(out, "</g>");
    }
    for (int s = 0; s < 2; s++) {
        if (!sides[s]->root)
            continue;
        role_xz(sides[s], 0, xs, zs);
        report_svg_playhead_dot(out, s ? "series-after" : "series-before", names[s], xs, zs,
                                sides[s]->frame_count, &ax, &az);
    }
    scale_bar(out, scale);
    report_svg_close(out, caption.data ? caption.data : "");
    return report_chart_done(out, &aria, &caption, xs, err);
}
