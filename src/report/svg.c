/* SVG building blocks for the report's charts (see svg.h). */
#include "report/svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void report_xml_escape(anim_strbuf *out, const char *s)
{
    if (!s)
        return;
    const char *run = s;
    for (const char *p = s; *p; p++) {
        const char *rep = NULL;
        unsigned char ch = (unsigned char)*p;
        switch (ch) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = "&quot;"; break;
        case '\'': rep = "&#39;"; break;
        default:
            /* C0 controls other than tab, LF and CR are not allowed in XML
             * at all, not even as references: show the replacement
             * character rather than break the document. */
            if (ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r')
                rep = "\xef\xbf\xbd";
        }
        if (rep) {
            anim_strbuf_append(out, run, (size_t)(p - run));
            anim_strbuf_puts(out, rep);
            run = p + 1;
        }
    }
    anim_strbuf_puts(out, run);
}

/* ---- numbers ---- */

void report_svg_fixed(anim_strbuf *out, double v, int decimals)
{
    char buf[64];
    int n = snprintf(buf, sizeof buf, "%.*f", decimals, v);
    if (n < 0 || (size_t)n >= sizeof buf) {
        /* Callers map onto a viewBox of a few hundred pixels; a value this
         * large is a bug upstream, but the output must stay a number. */
        anim_strbuf_puts(out, "0");
        return;
    }
    const char *p = buf;
    /* "-0.00" reads as a different number from "0.00" and would make the
     * output depend on the sign of a rounding residue. */
    if (*p == '-' && strspn(p + 1, "0.") == strlen(p + 1))
        p++;
    anim_strbuf_puts(out, p);
}

void report_svg_num(anim_strbuf *out, double v)
{
    report_svg_fixed(out, v, 2);
}

/* ---- axes ---- */

double report_svg_map(const report_svg_axis *a, double v)
{
    return a->p0 + (v - a->lo) * (a->p1 - a->p0) / (a->hi - a->lo);
}

double report_svg_nice_step(double span, int target)
{
    if (!(span > 0.0) || !isfinite(span))
        return 1.0;
    double raw = span / (double)target;
    double mag = pow(10.0, floor(log10(raw)));
    double r = raw / mag;
    double k = r < 1.5 ? 1.0 : r < 3.5 ? 2.0 : r < 7.5 ? 5.0 : 10.0;
    return k * mag;
}

int report_svg_step_decimals(double step)
{
    if (step >= 1.0)
        return 0;
    /* The tolerance keeps 0.1 at one decimal despite log10's rounding. */
    return (int)ceil(-log10(step) - 1e-9);
}

/* A range the mapping can divide by. */
static void widen(double *lo, double *hi)
{
    if (!isfinite(*lo) || !isfinite(*hi)) {
        *lo = 0.0;
        *hi = 1.0;
    } else if (!(*hi > *lo)) {
        double pad = fmax(fabs(*lo) * 0.1, 0.05);
        *lo -= pad;
        *hi += pad;
    }
}

void report_svg_axis_exact(report_svg_axis *a, double lo, double hi, double p0, double p1)
{
    widen(&lo, &hi);
    a->lo = lo;
    a->hi = hi;
    a->p0 = p0;
    a->p1 = p1;
    a->step = report_svg_nice_step(hi - lo, 5);
    a->decimals = report_svg_step_decimals(a->step);
}

void report_svg_axis_nice(report_svg_axis *a, double lo, double hi, double p0, double p1)
{
    widen(&lo, &hi);
    double step = report_svg_nice_step(hi - lo, 5);
    report_svg_axis_exact(a, floor(lo / step) * step, ceil(hi / step) * step, p0, p1);
    a->step = step;
    a->decimals = report_svg_step_decimals(step);
}

double report_svg_fit_scale(double span_x, double span_z, double width, double height)
{
    /* 0.9: the path keeps a margin inside the plot instead of touching the
     * frame. */
    return 0.9 * fmin(width / fmax(span_x, 0.1), height / fmax(span_z, 0.1));
}

double report_svg_axes_equal(report_svg_axis *ax, report_svg_axis *az, double xlo, double xhi,
                             double zlo, double zhi, double left, double top, double width,
                             double height, double px_per_m)
{
    double scale = px_per_m > 0.0 ? px_per_m
                                  : report_svg_fit_scale(xhi - xlo, zhi - zlo, width, height);
    double cx = 0.5 * (xlo + xhi), cz = 0.5 * (zlo + zhi);
    double hx = 0.5 * width / scale, hz = 0.5 * height / scale;
    ax->lo = cx - hx;
    ax->hi = cx + hx;
    ax->p0 = left;
    ax->p1 = left + width;
    az->lo = cz - hz;
    az->hi = cz + hz;
    az->p0 = top; /* Z grows downward: the view from above with Y up */
    az->p1 = top + height;
    /* One step for both axes keeps the grid square. */
    double step = report_svg_nice_step(fmax(2.0 * hx, 2.0 * hz), 6);
    ax->step = az->step = step;
    ax->decimals = az->decimals = report_svg_step_decimals(step);
    return scale;
}

bool report_svg_extent(const double *v, uint32_t n, bool merge, double *lo, double *hi)
{
    bool any = merge;
    double a = merge ? *lo : 0.0, b = merge ? *hi : 0.0;
    for (uint32_t i = 0; i < n; i++) {
        if (!isfinite(v[i]))
            continue;
        if (!any || v[i] < a)
            a = v[i];
        if (!any || v[i] > b)
            b = v[i];
        any = true;
    }
    if (!any)
        return false;
    *lo = a;
    *hi = b;
    return true;
}

/* ---- elements ---- */

static void attr_num(anim_strbuf *out, const char *name, double v)
{
    anim_strbuf_printf(out, " %s=\"", name);
    report_svg_num(out, v);
    anim_strbuf_putc(out, '"');
}

static void line(anim_strbuf *out, const char *cls, double x1, double y1, double x2, double y2)
{
    anim_strbuf_printf(out, "<line class=\"%s\"", cls);
    attr_num(out, "x1", x1);
    attr_num(out, "y1", y1);
    attr_num(out, "x2", x2);
    attr_num(out, "y2", y2);
    anim_strbuf_puts(out, "/>");
}

/* <text class="cls" x y [text-anchor]>text</text>; rotate: about (x, y). */
static void text(anim_strbuf *out, const char *cls, double x, double y, const char *anchor,
                 bool rotate, const char *s)
{
    anim_strbuf_printf(out, "<text class=\"%s\"", cls);
    attr_num(out, "x", x);
    attr_num(out, "y", y);
    if (anchor)
        anim_strbuf_printf(out, " text-anchor=\"%s\"", anchor);
    if (rotate) {
        anim_strbuf_puts(out, " transform=\"rotate(-90 ");
        report_svg_num(out, x);
        anim_strbuf_putc(out, ' ');
        report_svg_num(out, y);
        anim_strbuf_puts(out, ")\"");
    }
    anim_strbuf_putc(out, '>');
    report_xml_escape(out, s);
    anim_strbuf_puts(out, "</text>");
}

void report_svg_open(anim_strbuf *out, const report_svg_figure *f, const char *aria_label)
{
    anim_strbuf_puts(out, "<figure class=\"chart\" id=\"");
    report_xml_escape(out, f->id);
    anim_strbuf_putc(out, '"');
    if (f->clip >= 0)
        anim_strbuf_printf(out, " data-clip=\"%lld\"", (long long)f->clip);
    anim_strbuf_printf(out, " data-kind=\"%s\"", f->kind);
    if (f->side)
        anim_strbuf_printf(out, " data-side=\"%s\"", f->side);
    if (f->members)
        anim_strbuf_printf(out, " data-members=\"%s\"", f->members);
    anim_strbuf_puts(out, "><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ");
    report_svg_num(out, f->width);
    anim_strbuf_putc(out, ' ');
    report_svg_num(out, f->height);
    anim_strbuf_puts(out, "\" role=\"img\" aria-label=\"");
    report_xml_escape(out, aria_label);
    anim_strbuf_puts(out, "\" class=\"chart-svg\">");
}

void report_svg_close(anim_strbuf *out, const char *caption)
{
    anim_strbuf_puts(out, "</svg><figcaption>");
    report_xml_escape(out, caption);
    anim_strbuf_puts(out, "</figcaption></figure>\n");
}

void report_svg_axis_draw(anim_strbuf *out, const report_svg_axis *a, report_axis_side side,
                          double at, double grid_to, const char *label, const char *cls)
{
    static const char *const names[] = {"axis-x", "axis-y", "axis-y2"};
    anim_strbuf_printf(out, "<g class=\"axis %s%s%s\">", names[side], cls ? " " : "",
                       cls ? cls : "");
    bool horizontal = side == REPORT_AXIS_BOTTOM;
    double sign = side == REPORT_AXIS_LEFT ? -1.0 : 1.0; /* ticks point away from the plot */
    if (horizontal)
        line(out, "axis-line", a->p0, at, a->p1, at);
    else
        line(out, "axis-line", at, a->p0, at, a->p1);

    double first = ceil(a->lo / a->step - 1e-9), last = floor(a->hi / a->step + 1e-9);
    for (double k = first; k <= last; k++) {
        double v = k * a->step;
        double p = report_svg_map(a, v);
        anim_strbuf tick = ANIM_STRBUF_INIT;
        report_svg_fixed(&tick, v, a->decimals);
        if (horizontal) {
            if (!isnan(grid_to))
                line(out, "grid", p, at, p, grid_to);
            line(out, "tick", p, at, p, at + 5.0);
            text(out, "tick-label", p, at + 17.0, "middle", false, tick.data ? tick.data : "");
        } else {
            if (!isnan(grid_to))
                line(out, "grid", at, p, grid_to, p);
            line(out, "tick", at, p, at + 5.0 * sign, p);
            text(out, "tick-label", at + 8.0 * sign, p + 4.0, sign < 0 ? "end" : "start", false,
                 tick.data ? tick.data : "");
        }
        out->failed |= tick.failed;
        anim_strbuf_free(&tick);
    }
    double mid = 0.5 * (a->p0 + a->p1);
    if (horizontal)
        text(out, "axis-label", mid, at + 34.0, "middle", false, label);
    else
        text(out, "axis-label", at + 48.0 * sign, mid, "middle", true, label);
    anim_strbuf_puts(out, "</g>");
}

/* ---- legend ---- */

#define SWATCH_PX 22.0
#define CHAR_PX 6.5 /* an estimate of the label font's advance */
#define ITEM_GAP_PX 16.0

static double item_width(const report_legend_item *it)
{
    double sw = it->swatch == REPORT_SWATCH_NONE ? 0.0 : SWATCH_PX + 6.0;
    return sw + CHAR_PX * (double)strlen(it->label) + ITEM_GAP_PX;
}

/* Places an item of width w: moves to a new row when it would outgrow
 * width (unless it is the row's first). */
static void place(double *cx, uint32_t *row, double w, double width)
{
    if (*cx > 0.0 && *cx + w > width) {
        (*row)++;
        *cx = 0.0;
    }
}

uint32_t report_svg_legend_rows(const report_legend_item *items, uint32_t n, double width)
{
    uint32_t row = 0;
    double cx = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        double w = item_width(&items[i]);
        place(&cx, &row, w, width);
        cx += w;
    }
    return n ? row + 1 : 0;
}

void report_svg_legend(anim_strbuf *out, const report_legend_item *items, uint32_t n, double x,
                       double y, double width)
{
    anim_strbuf_puts(out, "<g class=\"legend\">");
    uint32_t row = 0;
    double cx = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        const report_legend_item *it = &items[i];
        double w = item_width(it);
        place(&cx, &row, w, width);
        double px = x + cx, py = y + REPORT_LEGEND_ROW_PX * row;
        anim_strbuf_puts(out, "<g class=\"legend-item\">");
        double tx = px + SWATCH_PX + 6.0;
        switch (it->swatch) {
        case REPORT_SWATCH_LINE:
            line(out, it->cls, px, py - 4.0, px + SWATCH_PX, py - 4.0);
            break;
        case REPORT_SWATCH_RECT:
            anim_strbuf_printf(out, "<rect class=\"%s\"", it->cls);
            attr_num(out, "x", px);
            attr_num(out, "y", py - 9.0);
            anim_strbuf_puts(out, " width=\"22.00\" height=\"10.00\"/>");
            break;
        case REPORT_SWATCH_CIRCLE:
            anim_strbuf_printf(out, "<circle class=\"%s\"", it->cls);
            attr_num(out, "cx", px + 0.5 * SWATCH_PX);
            attr_num(out, "cy", py - 4.0);
            anim_strbuf_puts(out, " r=\"4.00\" fill=\"none\"/>");
            break;
        case REPORT_SWATCH_SQUARE:
            anim_strbuf_printf(out, "<rect class=\"%s\"", it->cls);
            attr_num(out, "x", px + 0.5 * SWATCH_PX - 4.0);
            attr_num(out, "y", py - 8.0);
            anim_strbuf_puts(out, " width=\"8.00\" height=\"8.00\"/>");
            break;
        case REPORT_SWATCH_NONE:
            tx = px;
            break;
        }
        text(out, "legend-label", tx, py, NULL, false, it->label);
        anim_strbuf_puts(out, "</g>");
        cx += w;
    }
    anim_strbuf_puts(out, "</g>");
}

/* ---- series and playheads ---- */

static void point(anim_strbuf *out, double x, double y)
{
    report_svg_num(out, x);
    anim_strbuf_putc(out, ',');
    report_svg_num(out, y);
}

void report_svg_polyline(anim_strbuf *out, const char *cls, const double *xs, const double *ys,
                         uint32_t n, const report_svg_axis *ax, const report_svg_axis *ay)
{
    anim_strbuf_printf(out, "<g class=\"series %s\">", cls);
    bool open = false;
    for (uint32_t i = 0; i < n; i++) {
        bool ok = isfinite(xs[i]) && isfinite(ys[i]);
        if (!ok) {
            if (open)
                anim_strbuf_puts(out, "\"/>");
            open = false;
            continue;
        }
        anim_strbuf_puts(out, open ? " " : "<polyline fill=\"none\" points=\"");
        open = true;
        point(out, report_svg_map(ax, xs[i]), report_svg_map(ay, ys[i]));
    }
    if (open)
        anim_strbuf_puts(out, "\"/>");
    anim_strbuf_puts(out, "</g>");
}

void report_svg_playhead(anim_strbuf *out, const char *cls, int64_t clip, double x0, double x1,
                         uint32_t frames, double y_top, double y_bottom)
{
    anim_strbuf_printf(out, "<g class=\"playhead%s%s\"", cls ? " " : "", cls ? cls : "");
    if (clip >= 0)
        anim_strbuf_printf(out, " data-clip=\"%lld\"", (long long)clip);
    attr_num(out, "data-x0", x0);
    attr_num(out, "data-x1", x1);
    anim_strbuf_printf(out, " data-frames=\"%u\">", (unsigned)frames);
    line(out, "playhead-line", x0, y_top, x0, y_bottom);
    anim_strbuf_puts(out, "</g>");
}

void report_svg_playhead_dot(anim_strbuf *out, const char *cls, const char *side, const double *xs,
                             const double *ys, uint32_t n, const report_svg_axis *ax,
                             const report_svg_axis *ay)
{
    uint32_t first = 0;
    while (first < n && !(isfinite(xs[first]) && isfinite(ys[first])))
        first++;
    if (first == n)
        return;
    double px = report_svg_map(ax, xs[first]), py = report_svg_map(ay, ys[first]);
    double x0 = px, y0 = py;
    anim_strbuf_printf(out, "<g class=\"playhead-dot%s%s\"", cls ? " " : "", cls ? cls : "");
    if (side)
        anim_strbuf_printf(out, " data-side=\"%s\"", side);
    anim_strbuf_puts(out, " data-points=\"");
    for (uint32_t i = 0; i < n; i++) {
        if (isfinite(xs[i]) && isfinite(ys[i])) {
            px = report_svg_map(ax, xs[i]);
            py = report_svg_map(ay, ys[i]);
        }
        if (i)
            anim_strbuf_putc(out, ' ');
        point(out, px, py);
    }
    anim_strbuf_puts(out, "\"><circle class=\"playhead-marker\"");
    attr_num(out, "cx", x0);
    attr_num(out, "cy", y0);
    anim_strbuf_puts(out, " r=\"4.00\"/></g>");
}
