/* What every chart says about its clip's declarations, and the role
 * series the charts draw (see svg.h). A caption states only what the
 * contract declares or what the checks judged: a chart never guesses what
 * kind of clip it is looking at. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/numfmt.h"
#include "report/svg.h"

static bool declares_loop(const report_chart_clip *c)
{
    return c->loop.set && c->loop.value;
}

static bool declares_travel(const report_chart_clip *c)
{
    return c->speed_mps.set && c->movement_owner_xz == ANIM_OWNER_ANIMATION;
}

void report_chart_caption_declared(anim_strbuf *caption, const report_chart_clip *c)
{
    if (caption->len)
        anim_strbuf_putc(caption, ' ');
    if (declares_loop(c))
        anim_strbuf_puts(caption, "The clip is declared loop = true, so its curves should end "
                                  "where they began.");
    if (declares_travel(c)) {
        if (declares_loop(c))
            anim_strbuf_putc(caption, ' ');
        anim_strbuf_puts(caption, "It pins speed_mps = ");
        anim_strbuf_put_f64_plain(caption, c->speed_mps.value);
        if (c->speed_mps.tolerance > 0.0) {
            anim_strbuf_puts(caption, " \xc2\xb1 ");
            anim_strbuf_put_f64_plain(caption, c->speed_mps.tolerance);
        }
        anim_strbuf_puts(caption, " m/s with animation-owned X/Z travel, so the root should keep "
                                  "travelling at ");
        anim_strbuf_put_f64_plain(caption, c->speed_mps.value);
        anim_strbuf_puts(caption, " m/s; that declaration makes no claim about the shape of "
                                  "the path.");
    }
    if (declares_loop(c) || declares_travel(c))
        return;
    anim_strbuf_puts(caption, "The clip declares neither loop = true nor a speed_mps pin with "
                              "animation-owned travel, so there is no declared shape to look "
                              "for; ");
    if (!c->judged_count) {
        anim_strbuf_puts(caption, "no check judged it.");
        return;
    }
    anim_strbuf_puts(caption, c->judged_count == 1 ? "the check that judged it: "
                                                   : "the checks that judged it: ");
    for (uint32_t i = 0; i < c->judged_count; i++) {
        if (i)
            anim_strbuf_puts(caption, ", ");
        anim_strbuf_puts(caption, c->judged_checks[i]);
    }
    anim_strbuf_putc(caption, '.');
}

bool report_chart_same_declarations(const report_chart_clip *a, const report_chart_clip *b)
{
    if (declares_loop(a) != declares_loop(b) || declares_travel(a) != declares_travel(b))
        return false;
    if (declares_travel(a) && (a->speed_mps.value != b->speed_mps.value ||
                               a->speed_mps.tolerance != b->speed_mps.tolerance))
        return false;
    if (declares_loop(a) || declares_travel(a))
        return true;
    /* Neither: the sentence names the judged checks. */
    if (a->judged_count != b->judged_count)
        return false;
    for (uint32_t i = 0; i < a->judged_count; i++)
        if (strcmp(a->judged_checks[i], b->judged_checks[i]))
            return false;
    return true;
}

static double component(anim_vec3 v, char comp)
{
    return comp == 'x' ? v.x : comp == 'y' ? v.y : v.z;
}

void report_chart_component(const anim_vec3 *v, const anim_vec3 *minus, uint32_t n, char comp,
                            double *dst)
{
    for (uint32_t i = 0; i < n; i++)
        dst[i] = !v ? NAN : component(v[i], comp) - (minus ? component(minus[i], comp) : 0.0);
}

void report_chart_topview_axes(anim_strbuf *out, const report_svg_axis *ax,
                               const report_svg_axis *az)
{
    report_svg_axis_draw(out, ax, REPORT_AXIS_BOTTOM, az->p1, az->p0,
                         "X (m), increasing to the right", NULL);
    report_svg_axis_draw(out, az, REPORT_AXIS_LEFT, ax->p0, ax->p1,
                         "Z (m), increasing downward (seen from above)", NULL);
}

int report_chart_done(anim_strbuf *out, anim_strbuf *aria, anim_strbuf *caption, void *scratch,
                      anim_error *err)
{
    bool failed = out->failed || aria->failed || caption->failed;
    anim_strbuf_free(aria);
    anim_strbuf_free(caption);
    free(scratch);
    return failed ? anim_error_set(err, ANIM_ERR_NOMEM, "out of memory") : 0;
}
