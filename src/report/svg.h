/* SVG building blocks shared by the report's charts: the figure shell,
 * linear axes with 1-2-5 ticks, legends, series polylines and playheads,
 * and the caption sentences every chart derives from a clip's
 * declarations. Private to src/report.
 *
 * Colours never appear here: every element carries a class and the
 * viewer's stylesheet colours it from its design tokens (the one literal
 * is fill="none" on lines). Coordinates are printed with two decimals, so
 * the same input always yields the same bytes. Text is composed as plain
 * text and escaped once where it is written. */
#ifndef ANIMSMITH_REPORT_SVG_H
#define ANIMSMITH_REPORT_SVG_H

#include <stdbool.h>
#include <stdint.h>

#include "animsmith/strbuf.h"
#include "report/chart.h"

/* A linear mapping of a data range onto a pixel range (p1 may be above or
 * left of p0), with the 1-2-5 tick step its labels use. */
typedef struct report_svg_axis {
    double lo, hi; /* data range */
    double p0, p1; /* pixel positions of lo and hi */
    double step;   /* tick step */
    int decimals;  /* tick label decimals (enough for the step) */
} report_svg_axis;

/* Maps a data value to its pixel position. */
double report_svg_map(const report_svg_axis *a, double v);

/* The 1-2-5 step that cuts span into about target pieces. */
double report_svg_nice_step(double span, int target);

/* Decimals that print every multiple of a 1-2-5 step exactly. */
int report_svg_step_decimals(double step);

/* An axis over exactly [lo, hi] (time axes: the ends are the first and
 * last frame, where the playhead runs). An empty or non-finite range is
 * widened so the mapping stays defined. */
void report_svg_axis_exact(report_svg_axis *a, double lo, double hi, double p0, double p1);

/* An axis over [lo, hi] widened to the nearest ticks (value axes). */
void report_svg_axis_nice(report_svg_axis *a, double lo, double hi, double p0, double p1);

/* Two axes at one scale (1 m is as long horizontally as vertically) for a
 * top view: [xlo, xhi] x [zlo, zhi] centred in the plot rectangle at
 * px_per_m pixels per metre, or at the largest scale that fits when
 * px_per_m <= 0. X runs left to right, Z top to bottom (seen from above,
 * Y up). Returns the scale used. */
double report_svg_axes_equal(report_svg_axis *ax, report_svg_axis *az, double xlo, double xhi,
                             double zlo, double zhi, double left, double top, double width,
                             double height, double px_per_m);

/* The largest pixels-per-metre at which a [span_x, span_z] extent fits a
 * width x height rectangle (spans below 0.1 m count as 0.1 m so a
 * standing clip is not magnified without bound). */
double report_svg_fit_scale(double span_x, double span_z, double width, double height);

/* Finite minimum and maximum of n values into *lo / *hi, starting from
 * their current values when merge. Returns whether *lo / *hi hold a range
 * (false, and both untouched, when nothing was merged and no value is
 * finite). */
bool report_svg_extent(const double *v, uint32_t n, bool merge, double *lo, double *hi);

/* A coordinate: "%.2f", never "-0.00". */
void report_svg_num(anim_strbuf *out, double v);
/* "%.Nf", never a negative zero. */
void report_svg_fixed(anim_strbuf *out, double v, int decimals);

/* ---- the figure shell ---- */

typedef struct report_svg_figure {
    const char *id;      /* figure id (an ASCII id the report chose) */
    const char *kind;    /* data-kind */
    int64_t clip;        /* data-clip; < 0 leaves it out */
    const char *side;    /* data-side, or NULL (single-clip report) */
    const char *members; /* data-members ("0,2,-1"), or NULL */
    double width, height; /* viewBox */
} report_svg_figure;

/* <figure ...><svg viewBox role="img" aria-label class="chart-svg">;
 * aria_label is plain text (escaped here). */
void report_svg_open(anim_strbuf *out, const report_svg_figure *f, const char *aria_label);
/* </svg><figcaption>caption</figcaption></figure>; caption is plain text. */
void report_svg_close(anim_strbuf *out, const char *caption);

/* Where an axis sits. */
typedef enum { REPORT_AXIS_BOTTOM, REPORT_AXIS_LEFT, REPORT_AXIS_RIGHT } report_axis_side;

/* One axis: its line at pixel position at (y for the bottom axis, x for
 * left/right), a tick and label at every multiple of a->step in range,
 * grid lines across to grid_to unless it is NaN, and the axis label
 * (plain text). cls: an extra class for the group ("axis-diff"), or NULL. */
void report_svg_axis_draw(anim_strbuf *out, const report_svg_axis *a, report_axis_side side,
                          double at, double grid_to, const char *label, const char *cls);

/* Legend swatch shapes. */
typedef enum {
    REPORT_SWATCH_LINE,   /* a stroke in the series class */
    REPORT_SWATCH_RECT,   /* a filled band (tolerance, stance) */
    REPORT_SWATCH_CIRCLE, /* the hollow start marker */
    REPORT_SWATCH_SQUARE, /* the filled end marker */
    REPORT_SWATCH_NONE    /* text only (a member not in the file) */
} report_swatch;

typedef struct report_legend_item {
    const char *cls;   /* the class(es) of the swatch, e.g. "series series-left" */
    const char *label; /* plain text (may be asset text) */
    report_swatch swatch;
} report_legend_item;

/* How many rows a legend of width pixels takes (items wrap onto a new
 * row when they outgrow it). */
uint32_t report_svg_legend_rows(const report_legend_item *items, uint32_t n, double width);
/* The legend, its first row's baseline at y, starting at x. Rows are
 * REPORT_LEGEND_ROW_PX apart. */
void report_svg_legend(anim_strbuf *out, const report_legend_item *items, uint32_t n, double x,
                       double y, double width);
#define REPORT_LEGEND_ROW_PX 16.0

/* <g class="series CLS"> with one polyline per run of finite points
 * (a non-finite sample breaks the line rather than printing "nan"). */
void report_svg_polyline(anim_strbuf *out, const char *cls, const double *xs, const double *ys,
                         uint32_t n, const report_svg_axis *ax, const report_svg_axis *ay);

/* g.playhead for a time axis: the line is drawn at x0 and the viewer
 * translates it to x0 + (x1 - x0) * frame / (frames - 1). cls: extra
 * class or NULL; clip < 0 leaves data-clip out. */
void report_svg_playhead(anim_strbuf *out, const char *cls, int64_t clip, double x0, double x1,
                         uint32_t frames, double y_top, double y_bottom);

/* g.playhead-dot for a path: one data-points entry per frame; a frame
 * whose sample is not finite repeats the nearest earlier finite point (the
 * first finite one before any), so the list always has n entries. Nothing
 * is written when no sample is finite. cls / side: extra class and
 * data-side, or NULL. */
void report_svg_playhead_dot(anim_strbuf *out, const char *cls, const char *side, const double *xs,
                             const double *ys, uint32_t n, const report_svg_axis *ax,
                             const report_svg_axis *ay);

/* ---- shared chart text and series (chart_common.c) ---- */

/* Appends to caption (plain text) what the clip's declarations say to
 * look for: loop = true -> its curves should end where they began;
 * speed_mps with animation-owned X/Z travel -> the root should keep
 * travelling at that speed, with no claim about the path's shape; a clip
 * declaring both gets both; neither -> says so and names the checks that
 * judged it. Starts with a space when caption is not empty. */
void report_chart_caption_declared(anim_strbuf *caption, const report_chart_clip *c);

/* Whether two clips' declarations would read alike in a caption. */
bool report_chart_same_declarations(const report_chart_clip *a, const report_chart_clip *b);

/* dst[i] = component comp ('x', 'y' or 'z') of v[i] minus that of
 * minus[i] (minus may be NULL); all NaN when v is NULL. */
void report_chart_component(const anim_vec3 *v, const anim_vec3 *minus, uint32_t n, char comp,
                            double *dst);

/* The X axis below and the Z axis left of a top-view plot, labelled with
 * their orientation, with a square grid. */
void report_chart_topview_axes(anim_strbuf *out, const report_svg_axis *ax,
                               const report_svg_axis *az);

/* Frees a chart's text buffers and scratch memory; -1 with err set when
 * any of out, aria or caption ran out of memory. */
int report_chart_done(anim_strbuf *out, anim_strbuf *aria, anim_strbuf *caption, void *scratch,
                      anim_error *err);

#endif
