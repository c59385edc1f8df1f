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
 * source-node evidence is always complete.) */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/math.h"
#include "animsmith/numfmt.h"
#include "animsmith/text.h"
#include "checks/checks.h"
#include "checks/node_selector.h"

#define CHECK_ID "rest-world-scale"
#define SCOPE "selected_node_rest_scale"

typedef enum {
    WORLD_OK = 0,
    WORLD_NON_FINITE_LOCAL,     /* the node's own rest transform */
    WORLD_PARENT_UNAVAILABLE,   /* an ancestor's world is unavailable */
    WORLD_NON_FINITE_MATRIX     /* the composed world overflowed */
} world_status;

typedef enum {
    LIN_NON_FINITE,
    LIN_SINGULAR,
    LIN_REFLECTED,
    LIN_SHEARED,
    LIN_UNIT_ORTHONORMAL,
    LIN_UNIFORM_SCALED,
    LIN_NON_UNIFORM
} lin_class;

typedef struct {
    lin_class cls;
    double axes[3];
    bool has_uniform;
    double uniform_scale;
} lin_facts;

/* Rest-world matrices are judged as binary32 values (the precision an
 * engine holds them in); a world element outside f32 range would be
 * infinite there, so it makes the node unavailable although we compose in
 * f64. */
static bool fits_f32(double v)
{
    return isfinite(v) && fabs(v) <= FLT_MAX;
}

static bool local_is_finite(const anim_bone *b)
{
    if (b->has_matrix) {
        for (int i = 0; i < 16; i++)
            if (!isfinite(b->matrix[i]))
                return false;
        return true;
    }
    for (int i = 0; i < 3; i++)
        if (!isfinite(b->rest_translation[i]) || !isfinite(b->rest_scale[i]))
            return false;
    for (int i = 0; i < 4; i++)
        if (!isfinite(b->rest_rotation[i]))
            return false;
    return true;
}

static anim_mat4 local_matrix(const anim_bone *b)
{
    anim_mat4 m;
    if (b->has_matrix) {
        memcpy(m.m, b->matrix, sizeof m.m);
        return m;
    }
    /* The rotation is used as authored (not normalized here): the rest
     * matrix is what the engine builds from the file. */
    return anim_mat4_from_trs(anim_vec3_from_array(b->rest_translation),
                              anim_quat_from_array(b->rest_rotation),
                              anim_vec3_from_array(b->rest_scale));
}

/* Rest-world matrices of every bone; bones are parent-first, so one pass. */
static void compose_rest_world(const anim_doc *doc, anim_mat4 *world, world_status *status)
{
    for (uint32_t b = 0; b < doc->bone_count; b++) {
        const anim_bone *bone = &doc->bones[b];
        uint32_t p = bone->parent < b ? bone->parent : ANIM_NONE;
        if (!local_is_finite(bone)) {
            status[b] = WORLD_NON_FINITE_LOCAL;
            continue;
        }
        if (p != ANIM_NONE && status[p] != WORLD_OK) {
            status[b] = WORLD_PARENT_UNAVAILABLE;
            continue;
        }
        anim_mat4 local = local_matrix(bone);
        world[b] = p == ANIM_NONE ? local : anim_mat4_mul(&world[p], &local);
        status[b] = WORLD_OK;
        for (int i = 0; i < 16; i++)
            if (!fits_f32(world[b].m[i]))
                status[b] = WORLD_NON_FINITE_MATRIX;
    }
}

/* The rest_world_linear classification of the upper 3x3 (the same one the
 * measurement reports). */
static void classify(const anim_mat4 *m, lin_facts *out)
{
    memset(out, 0, sizeof *out);
    out->cls = LIN_NON_FINITE;
    anim_vec3 c[3];
    for (int i = 0; i < 3; i++) {
        c[i] = anim_mat4_column(m, i);
        if (!anim_vec3_is_finite(c[i]))
            return;
    }
    double l[3];
    for (int i = 0; i < 3; i++)
        l[i] = anim_vec3_len(c[i]);
    double s[3] = {l[0], l[1], l[2]};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2 - i; j++)
            if (s[j] > s[j + 1]) {
                double t = s[j];
                s[j] = s[j + 1];
                s[j + 1] = t;
            }
    double mean = (s[0] + s[1] + s[2]) / 3.0;
    double det = anim_vec3_dot(c[2], anim_vec3_cross(c[0], c[1]));
    double product = l[0] * l[1] * l[2];
    if (!isfinite(mean) || !isfinite(det) || !isfinite(product))
        return;
    memcpy(out->axes, l, sizeof l);
    bool singular = product == 0.0 || fabs(det) <= 1e-6 * product;
    static const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    bool orthogonal = true;
    for (int k = 0; k < 3; k++) {
        int i = pairs[k][0], j = pairs[k][1];
        double lp = l[i] * l[j];
        if (lp != 0.0 && !(fabs(anim_vec3_dot(c[i], c[j])) <= 1e-5 * lp))
            orthogonal = false;
    }
    bool uniform = true;
    for (int i = 0; i < 3; i++)
        if (!(fabs(l[i] - mean) <= 1e-5 * fmax(fabs(mean), fabs(l[i]))))
            uniform = false;
    out->has_uniform = orthogonal && uniform;
    out->uniform_scale = mean;
    if (singular)
        out->cls = LIN_SINGULAR;
    else if (det < 0.0)
        out->cls = LIN_REFLECTED;
    else if (!orthogonal)
        out->cls = LIN_SHEARED;
    else if (out->has_uniform && fabs(mean - 1.0) <= 1e-5)
        out->cls = LIN_UNIT_ORTHONORMAL;
    else if (uniform)
        out->cls = LIN_UNIFORM_SCALED;
    else
        out->cls = LIN_NON_UNIFORM;
}

static const char *class_words(lin_class c)
{
    switch (c) {
    case LIN_SINGULAR: return "singular";
    case LIN_REFLECTED: return "reflected";
    case LIN_SHEARED: return "sheared";
    default: return "non-uniform";
    }
}

static const char *status_reason(world_status s)
{
    switch (s) {
    case WORLD_NON_FINITE_LOCAL: return "NonFiniteLocalRest";
    case WORLD_PARENT_UNAVAILABLE: return "ParentRestWorldUnavailable";
    case WORLD_NON_FINITE_MATRIX: return "NonFiniteWorldMatrix";
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
    world_status *status;
    bool *judged;           /* per bone: a finding was already considered */
    uint32_t *matches;
} rws_state;

static int nomem(rws_state *st)
{
    return anim_error_set(st->err, ANIM_ERR_NOMEM, "out of memory");
}

static int judge_node(rws_state *st, const char *path, const lin_facts *lf)
{
    anim_finding_fields f = {0};
    f.severity = ANIM_SEVERITY_WARNING;
    f.node = path;
    if (lf->cls == LIN_UNIT_ORTHONORMAL || lf->cls == LIN_UNIFORM_SCALED) {
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
    compose_rest_world(doc, st->world, st->status);
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
        lin_facts lf;
        if (msg.failed || !msg.data || ensure_world(st)) {
            rc = -1;
        } else {
            if (st->status[b] == WORLD_OK)
                classify(&st->world[b], &lf);
            else
                lf.cls = LIN_NON_FINITE;
            if (lf.cls == LIN_NON_FINITE) {
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
