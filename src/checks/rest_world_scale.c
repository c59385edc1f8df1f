/* rest-world-scale: the effective rest-world linear
 * transform of each explicitly selected source node, judged against a
 * uniform-scale policy. A node's local scale is not what an attachment
 * inherits, so the check composes the authored rest transforms down the
 * source hierarchy (world = parent world · local, where local is the TRS
 * matrix or the authored matrix, never its decomposition, so shear
 * survives) and classifies the upper 3x3.
 *
 * A selector must resolve to exactly one named node; a miss, several
 * matches, or a non-finite transform are coverage gaps, not guesses.
 * (A "source coverage unavailable" gap only arises for FBX input; glTF
 * source-node evidence is always complete.) The composition and the
 * classification are shared with engine-unit-scale (rest_world.h). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/numfmt.h"
#include "animsmith/text.h"
#include "checks/checks.h"
#include "checks/node_selector.h"
#include "checks/rest_world.h"

#define CHECK_ID "rest-world-scale"
#define SCOPE "selected_node_rest_scale"

/* Rest-world values are judged as binary32 (the precision an engine holds
 * them in). */
static bool fits_f32(double v)
{
    return isfinite(v) && fabs(v) <= FLT_MAX;
}

static const char *class_words(rest_lin_class c)
{
    switch (c) {
    case REST_LIN_SINGULAR: return "singular";
    case REST_LIN_REFLECTED: return "reflected";
    case REST_LIN_SHEARED: return "sheared";
    default: return "non-uniform";
    }
}

static const char *status_reason(rest_world_status s)
{
    switch (s) {
    case REST_WORLD_NON_FINITE_LOCAL: return "NonFiniteLocalRest";
    case REST_WORLD_PARENT_UNAVAILABLE: return "ParentRestWorldUnavailable";
    case REST_WORLD_NON_FINITE_MATRIX: return "NonFiniteWorldMatrix";
    default: return "unclassified source evidence";
    }
}

/* Inclusive [expected - tol, expected + tol], decided in binary32 when all
 * three values are representable there (the precision of the data),
 * otherwise in f64. */
static bool outside_policy(double measured, double expected, double tol)
{
    if (fits_f32(measured) && fits_f32(expected) && fits_f32(tol)) {
        float m = (float)measured, e = (float)expected, t = (float)tol;
        float lo = e - t, hi = e + t;
        return m < lo || m > hi;
    }
    return measured < expected - tol || measured > expected + tol;
}

typedef struct {
    anim_lint_context *ctx;
    anim_check_record *rec;
    anim_error *err;
    double expected, tolerance;
    anim_mat4 *world;       /* built on first resolved selector */
    rest_world_status *status;
    bool *judged;           /* per bone: a finding was already considered */
    uint32_t *matches;
} rws_state;

static int nomem(rws_state *st)
{
    return anim_error_set(st->err, ANIM_ERR_NOMEM, "out of memory");
}

static int judge_node(rws_state *st, const char *path, const rest_lin_facts *lf)
{
    anim_finding_fields f = {0};
    f.severity = ANIM_SEVERITY_WARNING;
    f.node = path;
    if (lf->cls == REST_LIN_UNIT_ORTHONORMAL || lf->cls == REST_LIN_UNIFORM_SCALED) {
        if (!outside_policy(lf->uniform_scale, st->expected, st->tolerance))
            return 0;
        f.measured = anim_value_number(lf->uniform_scale);
        f.expected = anim_value_number(st->expected);
        return anim_check_finding(st->ctx, st->rec, &f,
                                  "effective rest-world uniform scale differs from "
                                  "selected-node policy");
    }
    const char *cls = class_words(lf->cls);
    anim_strbuf measured = ANIM_STRBUF_INIT, expected = ANIM_STRBUF_INIT,
                exp_plain = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&measured, "%s axes=", cls);
    bool axes_ok = true;
    for (int i = 0; i < 3; i++)
        if (!isfinite(lf->axes[i]))
            axes_ok = false;
    if (axes_ok) {
        anim_strbuf_putc(&measured, '(');
        for (int i = 0; i < 3; i++) {
            if (i)
                anim_strbuf_putc(&measured, ',');
            anim_strbuf_put_fixed(&measured, lf->axes[i], 6);
        }
        anim_strbuf_putc(&measured, ')');
    } else {
        anim_strbuf_puts(&measured, "unavailable");
    }
    anim_strbuf_put_f64_plain(&exp_plain, st->expected);
    anim_strbuf_puts(&expected, "uniform=");
    anim_strbuf_put_f64_plain(&expected, st->expected);
    anim_strbuf_puts(&expected, " tolerance=");
    anim_strbuf_put_f64_plain(&expected, st->tolerance);
    int rc = -1;
    if (!measured.failed && !expected.failed && !exp_plain.failed && measured.data &&
        expected.data && exp_plain.data) {
        f.measured = anim_value_text(measured.data);
        f.expected = anim_value_text(expected.data);
        rc = anim_check_finding(st->ctx, st->rec, &f,
                                "effective rest-world transform is %s; selected-node policy "
                                "requires a uniform factor near %s",
                                cls, exp_plain.data);
    }
    anim_strbuf_free(&measured);
    anim_strbuf_free(&expected);
    anim_strbuf_free(&exp_plain);
    return rc;
}

static int ensure_world(rws_state *st)
{
    if (st->world)
        return 0;
    const anim_doc *doc = st->ctx->doc;
    size_t n = doc->bone_count ? doc->bone_count : 1;
    st->world = calloc(n, sizeof *st->world);
    st->status = calloc(n, sizeof *st->status);
    if (!st->world || !st->status)
        return -1;
    rest_world_compose(doc, st->world, st->status);
    return 0;
}

/* One selector: resolve, then either a gap or an evaluated scope. */
static int run_selector(rws_state *st, const char *sel)
{
    const anim_doc *doc = st->ctx->doc;
    uint32_t n = node_selector_match(doc, sel, st->matches);
    anim_strbuf quoted = ANIM_STRBUF_INIT, msg = ANIM_STRBUF_INIT;
    int rc = 0;
    if (n != 1)
        anim_text_debug_quote(&quoted, sel, strlen(sel));
    if (n == 0) {
        if (quoted.failed || !quoted.data)
            rc = -1;
        else
            rc = anim_check_gap(st->ctx, st->rec, "node_selector_no_match", SCOPE, sel,
                                "source-node selector %s matched no named node", quoted.data);
    } else if (n > 1) {
        anim_strbuf_printf(&msg, "source-node selector %s matched %u nodes (",
                           quoted.data ? quoted.data : "", n);
        for (uint32_t i = 0; i < n; i++) {
            if (i)
                anim_strbuf_puts(&msg, ", ");
            node_selector_path(doc, st->matches[i], &msg);
        }
        anim_strbuf_puts(&msg, "); use a selector that resolves exactly once");
        if (quoted.failed || msg.failed || !msg.data)
            rc = -1;
        else
            rc = anim_check_gap(st->ctx, st->rec, "node_selector_ambiguous", SCOPE, sel, "%s",
                                msg.data);
    } else {
        uint32_t b = st->matches[0];
        node_selector_path(doc, b, &msg);
        rest_lin_facts lf;
        if (msg.failed || !msg.data || ensure_world(st)) {
            rc = -1;
        } else {
            if (st->status[b] == REST_WORLD_OK)
                rest_world_classify(&st->world[b], &lf);
            else
                lf.cls = REST_LIN_NON_FINITE;
            if (lf.cls == REST_LIN_NON_FINITE) {
                rc = anim_check_gap(st->ctx, st->rec, "measurement_unavailable", SCOPE, sel,
                                    "rest-world linear transform is unavailable for source node "
                                    "%s (%s)",
                                    msg.data, status_reason(st->status[b]));
            } else {
                rc = anim_check_scope(st->ctx, st->rec, SCOPE, sel);
                /* Several selectors may resolve to one node: judge it once. */
                if (rc == 0 && !st->judged[b]) {
                    st->judged[b] = true;
                    rc = judge_node(st, msg.data, &lf);
                }
            }
        }
    }
    anim_strbuf_free(&quoted);
    anim_strbuf_free(&msg);
    return rc;
}

static bool listed_earlier(const anim_string_list *list, uint32_t i)
{
    for (uint32_t j = 0; j < i; j++)
        if (strcmp(list->items[j], list->items[i]) == 0)
            return true;
    return false;
}

CHECK_RUN(rest_world_scale)
{
    const anim_doc *doc = ctx->doc;
    const anim_string_list *sels = &ctx->config->runtime_selectors;
    rws_state st;
    memset(&st, 0, sizeof st);
    st.ctx = ctx;
    st.rec = rec;
    st.err = err;
    st.expected = anim_config_check_setting(ctx->config, CHECK_ID,
                                            ANIM_CHECK_EXPECTED_UNIFORM_SCALE);
    st.tolerance = anim_config_check_setting(ctx->config, CHECK_ID,
                                             ANIM_CHECK_UNIFORM_SCALE_TOLERANCE);
    /* node_count == bone_count (every node is a bone); size for both. */
    size_t n = doc->node_count > doc->bone_count ? doc->node_count : doc->bone_count;
    n = n ? n : 1;
    st.matches = calloc(n, sizeof *st.matches);
    st.judged = calloc(n, sizeof *st.judged);
    int rc = 0;
    if (!st.matches || !st.judged)
        rc = -1;
    /* The config already de-duplicates; repeat it so a hand-built config
     * cannot produce two scopes for one spelling. */
    for (uint32_t i = 0; rc == 0 && i < sels->count; i++)
        if (!listed_earlier(sels, i))
            rc = run_selector(&st, sels->items[i]);
    free(st.matches);
    free(st.judged);
    free(st.world);
    free(st.status);
    return rc ? nomem(&st) : 0;
}
