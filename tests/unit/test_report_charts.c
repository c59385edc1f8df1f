/* The report's SVG charts on small hand-built series: every figure is
 * well formed (balanced tags, quoted attributes, nothing unescaped), carries
 * its viewBox, role, aria-label, legend, axis labels, series classes and
 * caption; playheads carry the frame mapping the viewer reads; the root
 * path's markers sit on its first and last samples at one scale on both
 * axes; captions follow the declarations; non-finite samples break lines
 * instead of printing "nan"; stance intervals follow foot-slide's rule;
 * the gait band wraps around the phase circle and names the members
 * outside it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart.h"

/* ---- reading the output ------------------------------------------------ */

/* Balanced tags: every <name ...> is closed by </name> or "/>", attribute
 * values are double-quoted and hold no '<', and text holds no raw '>'. */
static void expect_well_formed(const char *s)
{
    char stack[64][32];
    int depth = 0;
    const char *p = s;
    while (*p) {
        if (*p == '>')
            fail_msg("raw '>' in text at %.40s", p);
        if (*p != '<') {
            p++;
            continue;
        }
        bool closing = p[1] == '/';
        const char *name = p + (closing ? 2 : 1);
        size_t len = strcspn(name, " />");
        assert_true(len > 0 && len < 32);
        const char *q = name + len;
        bool in_quote = false;
        while (*q && (in_quote || *q != '>')) {
            if (*q == '"')
                in_quote = !in_quote;
            else if (*q == '<')
                fail_msg("'<' inside a tag at %.40s", p);
            else if (*q == '\'' && !in_quote)
                fail_msg("single-quoted attribute at %.40s", p);
            q++;
        }
        assert_int_equal(*q, '>');
        bool self = q[-1] == '/';
        if (closing) {
            assert_true(depth > 0);
            depth--;
            if (strncmp(stack[depth], name, len) || stack[depth][len])
                fail_msg("</%.*s> closes <%s>", (int)len, name, stack[depth]);
        } else if (!self) {
            assert_true(depth < 64);
            memcpy(stack[depth], name, len);
            stack[depth][len] = '\0';
            depth++;
        }
        p = q + 1;
    }
    assert_int_equal(depth, 0);
}

static unsigned count(const char *s, const char *needle)
{
    unsigned n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The value of attribute attr in the k-th tag (0-based) containing
 * marker; static storage, NULL when absent. */
static const char *attr_in(const char *s, const char *marker, unsigned k, const char *attr)
{
    static char value[8192];
    const char *m = strstr(s, marker);
    while (m && k--)
        m = strstr(m + 1, marker);
    if (!m)
        return NULL;
    const char *start = m;
    while (start > s && *start != '<')
        start--;
    const char *end = strchr(m, '>');
    char key[64];
    snprintf(key, sizeof key, " %s=\"", attr);
    const char *a = strstr(start, key);
    if (!a || a > end)
        return NULL;
    a += strlen(key);
    size_t len = strcspn(a, "\"");
    assert_true(len < sizeof value);
    memcpy(value, a, len);
    value[len] = '\0';
    return value;
}

static double attr_num(const char *s, const char *marker, unsigned k, const char *attr)
{
    const char *v = attr_in(s, marker, k, attr);
    assert_non_null(v);
    return strtod(v, NULL);
}

/* The figcaption text (static storage). */
static const char *caption_of(const char *s)
{
    static char text[8192];
    const char *a = strstr(s, "<figcaption>");
    assert_non_null(a);
    a += strlen("<figcaption>");
    const char *b = strstr(a, "</figcaption>");
    assert_non_null(b);
    assert_true((size_t)(b - a) < sizeof text);
    memcpy(text, a, (size_t)(b - a));
    text[b - a] = '\0';
    return text;
}

/* Point k of a "x,y x,y" list. */
static void point_at(const char *list, unsigned k, double *x, double *y)
{
    const char *p = list;
    while (k--) {
        p = strchr(p, ' ');
        assert_non_null(p);
        p++;
    }
    char *end;
    *x = strtod(p, &end);
    assert_int_equal(*end, ',');
    *y = strtod(end + 1, NULL);
}

static unsigned points_in(const char *list)
{
    assert_non_null(list);
    return *list ? count(list, " ") + 1 : 0;
}

/* Common to every figure. */
static void expect_figure(const char *s, const char *id, const char *kind)
{
    expect_well_formed(s);
    assert_non_null(strstr(s, "<figure class=\"chart\""));
    assert_string_equal(attr_in(s, "<figure", 0, "id"), id);
    assert_string_equal(attr_in(s, "<figure", 0, "data-kind"), kind);
    assert_string_equal(attr_in(s, "<svg", 0, "role"), "img");
    assert_non_null(attr_in(s, "<svg", 0, "viewBox"));
    assert_true(strlen(attr_in(s, "<svg", 0, "aria-label")) > 20);
    assert_non_null(strstr(s, "class=\"legend\""));
    assert_non_null(strstr(s, "class=\"axis-label\""));
    assert_non_null(strstr(s, "<figcaption>"));
    /* Colours come from classes only. */
    assert_null(strstr(s, "stroke=\""));
    assert_int_equal(count(s, "fill=\""), count(s, "fill=\"none\""));
    assert_null(strstr(s, "nan"));
    assert_null(strstr(s, "inf"));
    assert_null(strstr(s, "\"-0.00\""));
    assert_null(strstr(s, ">-0.00<"));
}

/* ---- a small clip ------------------------------------------------------ */

enum { N = 5 };

static const double times5[N] = {0.0, 0.25, 0.5, 0.75, 1.0};

typedef struct {
    anim_vec3 root[N], hips[N], left[N], right[N];
    report_chart_clip c;
} fixture;

static void make(fixture *fx)
{
    memset(fx, 0, sizeof *fx);
    for (int f = 0; f < N; f++) {
        fx->root[f] = (anim_vec3){0.25 * f, 0.0, 0.5 * f};
        fx->hips[f] = (anim_vec3){0.25 * f, 0.9, 0.5 * f};
        fx->left[f] = (anim_vec3){0.1, 0.1 * (f % 2), 0.5 * f};
        fx->right[f] = (anim_vec3){-0.1, 0.1 * ((f + 1) % 2), 0.5 * f};
    }
    fx->c.name = "walk";
    fx->c.index = 3;
    fx->c.frame_count = N;
    fx->c.times = times5;
    fx->c.root = fx->root;
    fx->c.root_bone = "pelvis";
    fx->c.hips = fx->hips;
    fx->c.left_foot = fx->left;
    fx->c.right_foot = fx->right;
    fx->c.contact_height_m = 0.02;
}

typedef int (*single_chart)(anim_strbuf *, const report_chart_clip *, const char *, anim_error *);

static char *draw(single_chart fn, const report_chart_clip *c, const char *id)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_error err = {0};
    assert_int_equal(fn(&sb, c, id, &err), 0);
    assert_false(sb.failed);
    return sb.data;
}

/* ---- root path ---------------------------------------------------------- */

static void test_root_path(void **state)
{
    (void)state;
    fixture fx;
    make(&fx);
    char *s = draw(report_chart_root_path, &fx.c, "root-path-3");
    expect_figure(s, "root-path-3", "root-path");
    assert_string_equal(attr_in(s, "<figure", 0, "data-clip"), "3");
    assert_non_null(strstr(attr_in(s, "<svg", 0, "aria-label"),
                           "Root X/Z path of clip walk, metres: X horizontal, Z vertical"));
    assert_non_null(strstr(s, "class=\"series series-root\""));
    assert_non_null(strstr(s, "increasing downward (seen from above)"));
    assert_non_null(strstr(caption_of(s), "start and end are 2.236 m apart"));

    const char *pts = attr_in(s, "class=\"playhead-dot", 0, "data-points");
    assert_int_equal(points_in(pts), N);
    double x0, y0, x1, y1, xl, yl;
    point_at(pts, 0, &x0, &y0);
    point_at(pts, 1, &x1, &y1);
    point_at(pts, N - 1, &xl, &yl);
    /* One metre is as long across as down: frame 1 is 0.25 m right and
     * 0.5 m down of frame 0. */
    assert_true(x1 > x0 && y1 > y0);
    assert_true(fabs((x1 - x0) / 0.25 - (y1 - y0) / 0.5) < 0.05);
    /* Start circle on frame 0, end square centred on the last frame (the
     * first of each is the legend's swatch). */
    assert_int_equal(count(s, "class=\"start-marker\""), 2);
    assert_int_equal(count(s, "class=\"end-marker\""), 2);
    assert_true(fabs(attr_num(s, "class=\"start-marker\"", 1, "cx") - x0) < 0.006);
    assert_true(fabs(attr_num(s, "class=\"start-marker\"", 1, "cy") - y0) < 0.006);
    assert_string_equal(attr_in(s, "class=\"start-marker\"", 1, "fill"), "none");
    assert_true(fabs(attr_num(s, "class=\"end-marker\"", 1, "x") + 4.0 - xl) < 0.006);
    assert_true(fabs(attr_num(s, "class=\"end-marker\"", 1, "y") + 4.0 - yl) < 0.006);
    /* The dot starts on frame 0. */
    assert_true(fabs(attr_num(s, "playhead-marker", 0, "cx") - x0) < 0.006);
    free(s);

    /* Deterministic. */
    char *a = draw(report_chart_root_path, &fx.c, "r");
    char *b = draw(report_chart_root_path, &fx.c, "r");
    assert_string_equal(a, b);
    free(a);
    free(b);
}

static void test_root_path_unresolved_and_nan(void **state)
{
    (void)state;
    fixture fx;
    make(&fx);
    fx.c.root = NULL;
    char *s = draw(report_chart_root_path, &fx.c, "root-path-0");
    expect_figure(s, "root-path-0", "root-path");
    assert_null(strstr(s, "series-root"));
    assert_null(strstr(s, "playhead-dot"));
    assert_null(strstr(s, "start-marker"));
    assert_non_null(strstr(caption_of(s), "the root role did not resolve"));
    free(s);

    /* A NaN sample breaks the path in two and keeps one dot point per
     * frame (the earlier point repeated). */
    make(&fx);
    fx.root[2].x = NAN;
    s = draw(report_chart_root_path, &fx.c, "root-path-0");
    expect_figure(s, "root-path-0", "root-path");
    assert_int_equal(count(s, "<polyline"), 2);
    const char *pts = attr_in(s, "class=\"playhead-dot", 0, "data-points");
    assert_int_equal(points_in(pts), N);
    double x1, y1, x2, y2;
    point_at(pts, 1, &x1, &y1);
    point_at(pts, 2, &x2, &y2);
    assert_true(x1 == x2 && y1 == y2);
    free(s);
}

/* ---- foot heights -------------------------------------------------------- */

static void test_foot_heights(void **state)
{
    (void)state;
    fixture fx;
    make(&fx);
    char *s = draw(report_chart_foot_heights, &fx.c, "foot-heights-3");
    expect_figure(s, "foot-heights-3", "foot-heights");
    assert_non_null(strstr(s, "class=\"series series-left\""));
    assert_non_null(strstr(s, "class=\"series series-right\""));
    assert_non_null(strstr(s, "class=\"series series-diff\""));
    assert_non_null(strstr(s, "class=\"axis axis-y2 axis-diff\""));
    assert_non_null(strstr(s, "time (s)"));
    const char *aria = attr_in(s, "<svg", 0, "aria-label");
    assert_non_null(strstr(aria, "metres"));
    assert_non_null(strstr(aria, "seconds"));
    /* The playhead spans the time axis from frame 0 to the last frame. */
    assert_string_equal(attr_in(s, "class=\"playhead\"", 0, "data-x0"), "72.00");
    assert_string_equal(attr_in(s, "class=\"playhead\"", 0, "data-x1"), "568.00");
    assert_string_equal(attr_in(s, "class=\"playhead\"", 0, "data-frames"), "5");
    /* The left series' first point: frame 0 at x0. */
    const char *pts = attr_in(s, "<polyline", 0, "points");
    double x, y;
    point_at(pts, 0, &x, &y);
    assert_true(fabs(x - 72.0) < 0.006);
    free(s);

    make(&fx);
    fx.c.hips = NULL;
    s = draw(report_chart_foot_heights, &fx.c, "f");
    expect_figure(s, "f", "foot-heights");
    assert_null(strstr(s, "series-left"));
    assert_null(strstr(s, "series-right"));
    assert_non_null(strstr(s, "series-diff"));
    assert_non_null(strstr(caption_of(s),
                           "The hips role did not resolve, so only left minus right is drawn."));
    free(s);

    make(&fx);
    fx.c.left_foot = NULL;
    fx.c.hips = NULL;
    s = draw(report_chart_foot_heights, &fx.c, "f");
    expect_figure(s, "f", "foot-heights");
    assert_non_null(strstr(caption_of(s), "The hips and left foot roles did not resolve, so no "
                                          "series is drawn."));
    assert_null(strstr(s, "series-"));
    free(s);
}

/* ---- captions ------------------------------------------------------------ */

static void test_captions_follow_declarations(void **state)
{
    (void)state;
    fixture fx;
    make(&fx);
    static const char *const judged[] = {"foot-slide", "root-motion"};
    fx.c.judged_checks = judged;
    fx.c.judged_count = 2;
    single_chart charts[] = {report_chart_root_path, report_chart_foot_heights};
    for (int k = 0; k < 2; k++) {
        /* Neither. */
        fx.c.loop = (anim_opt_bool){false, false};
        fx.c.speed_mps = (anim_pin){false, 0.0, 0.0};
        fx.c.movement_owner_xz = ANIM_OWNER_UNSET;
        char *s = draw(charts[k], &fx.c, "c");
        const char *cap = caption_of(s);
        assert_non_null(strstr(cap, "declares neither loop = true nor a speed_mps pin"));
        assert_non_null(strstr(cap, "the checks that judged it: foot-slide, root-motion."));
        assert_null(strstr(cap, "end where they began"));
        free(s);

        /* A speed pin with gameplay-owned travel is still neither. */
        fx.c.speed_mps = (anim_pin){true, 1.5, 0.1};
        fx.c.movement_owner_xz = ANIM_OWNER_GAMEPLAY;
        s = draw(charts[k], &fx.c, "c");
        assert_non_null(strstr(caption_of(s), "declares neither"));
        free(s);

        /* Loop only. */
        fx.c.loop = (anim_opt_bool){true, true};
        s = draw(charts[k], &fx.c, "c");
        cap = caption_of(s);
        assert_non_null(strstr(cap, "declared loop = true, so its curves should end where they "
                                    "began."));
        assert_null(strstr(cap, "declares neither"));
        assert_null(strstr(cap, "keep travelling"));
        free(s);

        /* Both. */
        fx.c.movement_owner_xz = ANIM_OWNER_ANIMATION;
        s = draw(charts[k], &fx.c, "c");
        cap = caption_of(s);
        assert_non_null(strstr(cap, "end where they began"));
        assert_non_null(strstr(cap, "the root should keep travelling at 1.5 m/s"));
        assert_non_null(strstr(cap, "no claim about the shape of the path"));
        free(s);

        /* Speed with animation-owned travel only. */
        fx.c.loop = (anim_opt_bool){true, false};
        s = draw(charts[k], &fx.c, "c");
        cap = caption_of(s);
        assert_non_null(strstr(cap, "speed_mps = 1.5 \xc2\xb1 0.1 m/s"));
        assert_null(strstr(cap, "end where they began"));
        assert_null(strstr(cap, "declares neither"));
        free(s);
    }

    /* Neither, judged by no check. */
    make(&fx);
    char *s = draw(report_chart_root_path, &fx.c, "c");
    assert_non_null(strstr(caption_of(s), "no check judged it."));
    free(s);
}

static void test_escaping(void **state)
{
    (void)state;
    fixture fx;
    make(&fx);
    fx.c.name = "<b>&\"x'";
    fx.c.root_bone = "a<b";
    single_chart charts[] = {report_chart_root_path, report_chart_foot_heights};
    for (int k = 0; k < 2; k++) {
        char *s = draw(charts[k], &fx.c, "c");
        expect_well_formed(s);
        assert_null(strstr(s, "<b>"));
        assert_non_null(
            strstr(attr_in(s, "<svg", 0, "aria-label"), "&lt;b&gt;&amp;&quot;x&#39;"));
        assert_non_null(strstr(caption_of(s), "&lt;b&gt;&amp;&quot;x&#39;"));
        free(s);
    }
    anim_strbuf sb = ANIM_STRBUF_INIT;
    report_xml_escape(&sb, "a\x01<>&\"'z");
    assert_string_equal(sb.data, "a\xef\xbf\xbd&lt;&gt;&amp;&quot;&#39;z");
    anim_strbuf_free(&sb);
}

/* ---- stance ---------------------------------------------------------------- */

static void heights(anim_vec3 *v, const double *y, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        v[i] = (anim_vec3){0.0, y[i], 0.0};
}

static void test_stance_intervals(void **state)
{
    (void)state;
    anim_vec3 v[10];
    uint32_t r[8];
    /* Ground 0.1, level 0.12: frames 0-2, 5-6 and 8-9 are low runs. */
    const double y1[10] = {0.1, 0.11, 0.12, 0.3, 0.5, 0.1, 0.1, 0.3, 0.11, 0.1};
    heights(v, y1, 10);
    assert_int_equal(report_stance_intervals(v, 10, 0.02, r, 4), 3);
    uint32_t want1[] = {0, 2, 5, 6, 8, 9};
    assert_memory_equal(r, want1, sizeof want1);
    /* cap below the count: writes cap ranges, returns the count. */
    memset(r, 0xff, sizeof r);
    assert_int_equal(report_stance_intervals(v, 10, 0.02, r, 1), 3);
    assert_int_equal(r[0], 0);
    assert_int_equal(r[1], 2);
    assert_int_equal(r[2], 0xffffffffu);
    assert_int_equal(report_stance_intervals(v, 10, 0.02, NULL, 0), 3);

    /* A lone low frame between high ones is no stance step. */
    const double y2[6] = {0.0, 0.5, 0.0, 0.5, 0.0, 0.5};
    heights(v, y2, 6);
    assert_int_equal(report_stance_intervals(v, 6, 0.02, r, 4), 0);

    /* NaN is never stance and never the ground. */
    const double y3[6] = {NAN, 0.0, 0.0, NAN, 0.0, 0.0};
    heights(v, y3, 6);
    assert_int_equal(report_stance_intervals(v, 6, 0.02, r, 4), 2);
    uint32_t want3[] = {1, 2, 4, 5};
    assert_memory_equal(r, want3, sizeof want3);

    /* All stance. */
    const double y4[4] = {0.2, 0.21, 0.2, 0.2};
    heights(v, y4, 4);
    assert_int_equal(report_stance_intervals(v, 4, 0.02, r, 4), 1);
    assert_int_equal(r[0], 0);
    assert_int_equal(r[1], 3);

    /* All NaN, and a missing foot. */
    const double y5[3] = {NAN, NAN, NAN};
    heights(v, y5, 3);
    assert_int_equal(report_stance_intervals(v, 3, 0.02, r, 4), 0);
    assert_int_equal(report_stance_intervals(NULL, 3, 0.02, r, 4), 0);
}

static void test_stance_chart(void **state)
{
    (void)state;
    fixture fx;
    make(&fx);
    /* Left: 0, 0, 0.1, 0, 0 -> stance [0,1] and [3,4]; right alternates
     * 0.1, 0, 0.1, 0, 0.1 -> no two neighbouring low frames, no stance. */
    const double ly[N] = {0.0, 0.0, 0.1, 0.0, 0.0};
    const double ry[N] = {0.1, 0.0, 0.1, 0.0, 0.1};
    heights(fx.left, ly, N);
    heights(fx.right, ry, N);
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_error err = {0};
    assert_int_equal(report_chart_stance(&sb, &fx.c, "before", "stance-before", &err), 0);
    const char *s = sb.data;
    expect_figure(s, "stance-before", "stance");
    assert_string_equal(attr_in(s, "<figure", 0, "data-side"), "before");
    assert_non_null(strstr(s, "<g class=\"stance stance-left\">"));
    assert_null(strstr(s, "<g class=\"stance stance-right\">"));
    assert_int_equal(count(s, "data-range="), 2);
    assert_string_equal(attr_in(s, "data-range=", 1, "data-range"), "3-4");
    /* [3,4] spans times 0.75..1.0 on a 72..616 axis. */
    assert_true(fabs(attr_num(s, "data-range=", 1, "x") - (72.0 + 0.75 * 544.0)) < 0.006);
    assert_true(fabs(attr_num(s, "data-range=", 1, "width") - 0.25 * 544.0) < 0.006);
    assert_string_equal(attr_in(s, "class=\"playhead\"", 0, "data-frames"), "5");
    assert_non_null(strstr(caption_of(s), "stance intervals foot-slide judged (within 0.02 m"));
    anim_strbuf_free(&sb);
}

/* ---- gait group -------------------------------------------------------------- */

/* x of phase u on the gait axis (72..656). */
static double phase_x(double u)
{
    return 72.0 + u * 584.0;
}

static void test_gait_group_wraps(void **state)
{
    (void)state;
    fixture a, b, c;
    make(&a);
    make(&b);
    make(&c);
    a.c.index = 0;
    b.c.index = 1;
    c.c.index = 2;
    report_gait_member m[4] = {
        {"run_a", 0, &a.c, true, 0.95},
        {"run_b", 1, &b.c, true, 0.05},
        {"run_<c>", 2, &c.c, true, 0.5},
        {"run_d", -1, NULL, false, 0.0},
    };
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_error err = {0};
    assert_int_equal(report_chart_gait_group(&sb, "ring", m, 4, 0.1, "gait-group-0", &err), 0);
    const char *s = sb.data;
    expect_figure(s, "gait-group-0", "gait-group");
    assert_string_equal(attr_in(s, "<figure", 0, "data-members"), "0,1,2,-1");
    /* The mean of 0.95, 0.05 and 0.5 is 0: the band [-0.1, 0.1] wraps into
     * two rects, [0, 0.1] and [0.9, 1] (after the legend's swatch). */
    const char *band = "<rect class=\"tolerance-band\"";
    assert_int_equal(count(s, band), 3);
    assert_true(fabs(attr_num(s, band, 1, "x") - phase_x(0.0)) < 0.006);
    assert_true(fabs(attr_num(s, band, 1, "width") - 58.4) < 0.006);
    assert_true(fabs(attr_num(s, band, 2, "x") - phase_x(0.9)) < 0.006);
    assert_true(fabs(attr_num(s, band, 2, "width") - 58.4) < 0.006);
    const char *cap = caption_of(s);
    assert_non_null(strstr(cap, "Anchors outside the band: run_&lt;c&gt;."));
    assert_null(strstr(cap, "run_a."));
    assert_non_null(strstr(cap, "No member is nominated as the reference"));
    assert_non_null(strstr(cap, "Not in the file: run_d."));
    assert_non_null(strstr(cap, "circular mean 0.000"));
    assert_non_null(strstr(s, "run_d (not in the file)"));
    /* Every present member drawn on the shared [0, 1] axis, none shifted:
     * each series starts at phase 0 and ends at phase 1. */
    for (unsigned k = 0; k < 3; k++) {
        char cls[64];
        snprintf(cls, sizeof cls, "<g class=\"series series-member-%u\"><polyline", k);
        const char *series = strstr(s, cls);
        assert_non_null(series);
        const char *pts = attr_in(series, "<polyline", 0, "points");
        assert_int_equal(points_in(pts), N);
        double x, y;
        point_at(pts, 0, &x, &y);
        assert_true(fabs(x - phase_x(0.0)) < 0.006);
        point_at(pts, N - 1, &x, &y);
        assert_true(fabs(x - phase_x(1.0)) < 0.006);
    }
    assert_null(strstr(s, "series-member-3\"><polyline"));
    /* Anchor marks in the member's class at the anchor's phase. */
    assert_true(fabs(attr_num(s, "class=\"anchor series-member-2\"", 0, "x1") - phase_x(0.5)) <
                0.006);
    assert_true(fabs(attr_num(s, "class=\"anchor series-member-0\"", 0, "x1") - phase_x(0.95)) <
                0.006);
    /* One playhead per included member, mapping its frames onto [0, 1]. */
    assert_int_equal(count(s, "<g class=\"playhead "), 3);
    for (unsigned k = 0; k < 3; k++) {
        char want[8];
        snprintf(want, sizeof want, "%u", k);
        assert_string_equal(attr_in(s, "<g class=\"playhead ", k, "data-clip"), want);
        assert_string_equal(attr_in(s, "<g class=\"playhead ", k, "data-x0"), "72.00");
        assert_string_equal(attr_in(s, "<g class=\"playhead ", k, "data-x1"), "656.00");
        assert_string_equal(attr_in(s, "<g class=\"playhead ", k, "data-frames"), "5");
    }
    anim_strbuf_free(&sb);
}

static void test_gait_group_band_inside(void **state)
{
    (void)state;
    fixture a, b;
    make(&a);
    make(&b);
    b.right[1].y = NAN; /* breaks b's line */
    report_gait_member m[3] = {
        {"one", 0, &a.c, true, 0.5},
        {"two", -1, &b.c, true, 0.6}, /* in the file, excluded from the report */
        {"three", 1, &a.c, false, 0.0},
    };
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_error err = {0};
    assert_int_equal(report_chart_gait_group(&sb, "g", m, 3, 0.1, "gait-group-1", &err), 0);
    const char *s = sb.data;
    expect_figure(s, "gait-group-1", "gait-group");
    const char *band = "<rect class=\"tolerance-band\"";
    assert_int_equal(count(s, band), 2); /* the legend's swatch and the band */
    /* Mean 0.55, band [0.45, 0.65]. */
    assert_true(fabs(attr_num(s, band, 1, "x") - phase_x(0.45)) < 0.006);
    assert_true(fabs(attr_num(s, band, 1, "width") - 0.2 * 584.0) < 0.006);
    const char *cap = caption_of(s);
    assert_non_null(strstr(cap, "Every measured anchor lies inside the band."));
    assert_non_null(strstr(cap, "No anchor measured for: three."));
    assert_null(strstr(cap, "Not in the file"));
    assert_int_equal(count(s, "<g class=\"playhead "), 2);
    assert_string_equal(attr_in(s, "<g class=\"playhead ", 1, "data-clip"), "1");
    assert_int_equal(count(s, "<g class=\"series series-member-1\"><polyline"), 1);
    assert_int_equal(count(s, "<polyline"), 4); /* one, two (broken in two), three */
    anim_strbuf_free(&sb);
}

/* ---- comparison ------------------------------------------------------------------ */

static void test_trails_and_shared_root(void **state)
{
    (void)state;
    fixture before, after;
    make(&before);
    make(&after);
    /* The after side treads in place: its root sways 2 cm, its hips and
     * feet stay within 0.3 m. */
    for (int f = 0; f < N; f++) {
        after.root[f] = (anim_vec3){0.02 * (f % 2), 0.0, 0.01 * f};
        after.hips[f].x = 0.0;
        after.hips[f].z = after.left[f].z = after.right[f].z = 0.075 * f;
    }
    /* The before side spans 2 m of Z (feet and root) on a 340 px tall
     * panel (1.1 m of X on 324 px fits more loosely); it bounds the scale
     * whichever side it is. */
    double scale = report_chart_trails_scale(&before.c, &after.c);
    assert_true(fabs(scale - 0.9 * 340.0 / 2.0) < 1e-9);
    assert_true(report_chart_trails_scale(&after.c, &before.c) == scale);
    assert_true(fabs(report_chart_trails_scale(&after.c, &after.c) - 0.9 * 340.0 / 0.3) < 1e-9);

    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_error err = {0};
    assert_int_equal(report_chart_trails(&sb, &before.c, "before", scale, "trails-before", &err),
                     0);
    const char *s = sb.data;
    expect_figure(s, "trails-before", "trails");
    assert_string_equal(attr_in(s, "<figure", 0, "data-side"), "before");
    static const char *const cls[] = {"series-root", "series-hips", "series-left",
                                      "series-right"};
    for (int k = 0; k < 4; k++) {
        char marker[64];
        snprintf(marker, sizeof marker, "class=\"playhead-dot %s\"", cls[k]);
        assert_int_equal(points_in(attr_in(s, marker, 0, "data-points")), N);
        snprintf(marker, sizeof marker, "<g class=\"series %s\">", cls[k]);
        assert_non_null(strstr(s, marker));
    }
    /* At the fixed scale, the hips' 0.5 m step in Z is 0.5 * scale px. */
    const char *hips = "class=\"playhead-dot series-hips\"";
    double x0, y0, x1, y1;
    point_at(attr_in(s, hips, 0, "data-points"), 0, &x0, &y0);
    point_at(attr_in(s, hips, 0, "data-points"), 1, &x1, &y1);
    assert_true(fabs((y1 - y0) - 0.5 * scale) < 0.01);
    anim_strbuf_free(&sb);

    assert_int_equal(
        report_chart_shared_root(&sb, &before.c, &after.c, scale, "shared-root", &err), 0);
    s = sb.data;
    expect_figure(s, "shared-root", "shared-root");
    assert_string_equal(attr_in(s, "<figure", 0, "data-side"), "shared");
    assert_non_null(strstr(s, "<g><g class=\"series series-before\">"));
    assert_non_null(strstr(s, "<g stroke-dasharray=\"6 4\"><g class=\"series series-after\">"));
    assert_string_equal(attr_in(s, "class=\"playhead-dot series-before\"", 0, "data-side"),
                        "before");
    assert_string_equal(attr_in(s, "class=\"playhead-dot series-after\"", 0, "data-side"),
                        "after");
    assert_non_null(strstr(s, "class=\"scale-bar\""));
    /* Both roots fit 2 m of Z: the panel scale equals the trails scale. */
    assert_non_null(
        strstr(caption_of(s), "drawn at 1.0\xc3\x97 the scale of the trajectory panels"));
    assert_non_null(strstr(s, "\">50 cm</text>"));
    anim_strbuf_free(&sb);

    /* Only the after side's 2 cm sway: magnified, bar in centimetres. */
    before.c.root = NULL;
    assert_int_equal(
        report_chart_shared_root(&sb, &before.c, &after.c, scale, "shared-root", &err), 0);
    s = sb.data;
    expect_figure(s, "shared-root", "shared-root");
    assert_null(strstr(s, "series-before\"><polyline"));
    assert_non_null(strstr(caption_of(s), "The before side&#39;s root role did not resolve"));
    /* The sway spans 0.04 m of Z, under the 0.1 m floor: 0.9*324/0.1. */
    char want[64];
    snprintf(want, sizeof want, "drawn at %.1f\xc3\x97", (0.9 * 324.0 / 0.1) / scale);
    assert_non_null(strstr(caption_of(s), want));
    assert_non_null(strstr(s, "\">2 cm</text>"));
    anim_strbuf_free(&sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_root_path),
        cmocka_unit_test(test_root_path_unresolved_and_nan),
        cmocka_unit_test(test_foot_heights),
        cmocka_unit_test(test_captions_follow_declarations),
        cmocka_unit_test(test_escaping),
        cmocka_unit_test(test_stance_intervals),
        cmocka_unit_test(test_stance_chart),
        cmocka_unit_test(test_gait_group_wraps),
        cmocka_unit_test(test_gait_group_band_inside),
        cmocka_unit_test(test_trails_and_shared_root),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
