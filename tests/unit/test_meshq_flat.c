/* Mesh quality, the flat (2-D) request: hand-computed cases of each of the
 * residual's two sums and of both together, every plant of the module as a
 * negative control (the planted variant answers differently from the real
 * code on a fixture built for it), every refusal by the shape of its
 * message, the three not-measurable cases, an undeclared bound, malformed
 * requests naming the file and the path, and the envelope helper: hand
 * cases, its refusals and its two plants.
 *
 * The fixtures are drawn in a 10 x 10 px frame on the UV square:
 *
 *   SQ2: vertices 0 (0,0) 1 (1,0) 2 (1,1) 3 (0,1), triangles 0-1-2, 0-2-3;
 *   SQ4: SQ2's corners and a centre vertex 4 (0.5,0.5), triangles 0-1-4,
 *        1-2-4, 2-3-4, 3-0-4.
 *
 * Points are uv * 10 exactly. One envelope bone "upper" against the
 * reference "root". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/json.h"
#include "animsmith/meshq.h"
#include "animsmith/strbuf.h"

/* ---- the request builder ------------------------------------------------ */

#define ATTACHMENT "{\"skin\":\"default\",\"slot\":\"arm\",\"attachment\":\"arm\"}"

#define SQ2_POINTS "[[0,0],[10,0],[10,10],[0,10]]"
#define SQ2_UVS "[0,0,1,0,1,1,0,1]"
#define SQ2_TRIS "[0,1,2,0,2,3]"
#define SQ4_POINTS "[[0,0],[10,0],[10,10],[0,10],[5,5]]"
#define SQ4_UVS "[0,0,1,0,1,1,0,1,0.5,0.5]"
#define SQ4_TRIS "[0,1,4,1,2,4,2,3,4,3,0,4]"

#define W_ROOT "[{\"bone\":\"root\",\"weight\":1}]"
#define W_UP "[{\"bone\":\"upper\",\"weight\":1}]"
#define W_HALF "[{\"bone\":\"upper\",\"weight\":0.5},{\"bone\":\"root\",\"weight\":0.5}]"
#define W_QUARTER "[{\"bone\":\"upper\",\"weight\":0.25},{\"bone\":\"root\",\"weight\":0.75}]"

/* Art: one pixel at the UV square's centre, or none (the hull's UVs are
 * then the only samples). */
#define ART_CENTRE "{\"width\":1,\"height\":1,\"alpha\":[1],\"threshold\":0.5,\"minArtSamples\":1}"
#define ART_NONE "{\"width\":1,\"height\":1,\"alpha\":[0],\"threshold\":0.5,\"minArtSamples\":0}"

#define ENV(linear, pivot, translation)                                                     \
    "{\"reference\":\"root\",\"bones\":[{\"bone\":\"upper\",\"linear\":" linear                \
    ",\"pivot\":" pivot ",\"translation\":" translation "}]}"

static char *mesh(const char *points, const char *uvs, const char *tris, const char *hull,
                  const char *weights)
{
    size_t n = strlen(points) + strlen(uvs) + strlen(tris) + strlen(hull) + strlen(weights) + 128;
    char *m = malloc(n);
    assert_non_null(m);
    snprintf(m, n, "{\"points\":%s,\"uvs\":%s,\"triangles\":%s,\"hull\":%s,\"weights\":%s}",
             points, uvs, tris, hull, weights);
    return m;
}

/* One request; the caller frees it. skinning NULL: the five fields below
 * it are built; else skinning is written as it stands ("null"). */
static char *request(const char *art, char *candidate, char *source, const char *envelope,
                     const char *bound, const char *deform)
{
    size_t n = strlen(art) + strlen(candidate) + strlen(source) + strlen(envelope) +
               strlen(bound) + strlen(deform) + 512;
    char *r = malloc(n);
    assert_non_null(r);
    snprintf(r, n,
             "{\"attachment\":" ATTACHMENT ",\"frame\":{\"width\":10,\"height\":10},"
             "\"art\":%s,\"candidate\":%s,\"skinning\":{\"source\":{\"id\":\"src\",\"mesh\":%s},"
             "\"envelope\":%s,\"maxResidual\":%s,\"deform\":%s}}",
             art, candidate, source, envelope, bound, deform);
    free(candidate);
    free(source);
    return r;
}

/* ---- the fixtures -------------------------------------------------------- */

/* (a) covariance only. At the centre sample (pixel 0,0, uv 0.5,0.5) the
 * source carries it on vertex 4 (b = 0,0,1 of triangle 0-1-4): p = (5,5),
 * upper share 0.5, s = 0 (every x_i - p is 0). The candidate carries it on
 * the shared edge 0-2, triangle 0 (the lowest): b = (0.5, 0, 0.5), upper
 * share 0.5 * 0 + 0.5 * 1 = 0.5, the same; s = 0.5 * 0 * ((0,0) - (5,5))
 * + 0.5 * 1 * ((10,10) - (5,5)) = (2.5, 2.5). So the lever sum is 0 and
 * covariance = 0.4 * |(2.5, 2.5)| = 0.4 * 2.5 * sqrt 2 = sqrt 2
 * = 1.41421356..., r6 1.414214. At the corners (hull samples) both meshes
 * carry the vertex itself with the same shares: 0. */
static char *covariance_only(const char *bound)
{
    return request(ART_CENTRE,
                   mesh(SQ2_POINTS, SQ2_UVS, SQ2_TRIS, "4",
                        "[" W_ROOT "," W_HALF "," W_UP "," W_HALF "]"),
                   mesh(SQ4_POINTS, SQ4_UVS, SQ4_TRIS, "4",
                        "[" W_ROOT "," W_HALF "," W_UP "," W_HALF "," W_HALF "]"),
                   ENV("0.4", "[0,0]", "0"), bound, "[]");
}

/* (b) lever only, with variants. Both meshes SQ2; only hull samples. At
 * vertex 0 (p = (0,0)) the source binds upper 1, the candidate upper 0.5 and
 * root 0.5: s = 0 in both (a vertex sample), dw_upper = 0.5, so
 * lever = 0.5 * (0.4 * |(0,0) - (3,4)| + 1) = 0.5 * (0.4 * 5 + 1) = 1.5.
 * The reference's terms are 0; the other vertices agree. weightField:
 * l1 = 0.5 + 0.5 (root's share too) = 1, lInf = 0.5. */
static const char *LEVER_CAND_W = "[" W_HALF "," W_UP "," W_UP "," W_UP "]";
static const char *LEVER_SRC_W = "[" W_UP "," W_UP "," W_UP "," W_UP "]";
#define LEVER_ENV ENV("0.4", "[3,4]", "1")

static char *lever_with(const char *cand_points, const char *cand_weights, const char *envelope,
                        const char *deform)
{
    return request(ART_NONE, mesh(cand_points, SQ2_UVS, SQ2_TRIS, "4", cand_weights),
                   mesh(SQ2_POINTS, SQ2_UVS, SQ2_TRIS, "4", LEVER_SRC_W), envelope, "5", deform);
}

static char *lever_only(void)
{
    return lever_with(SQ2_POINTS, LEVER_CAND_W, LEVER_ENV, "[]");
}

/* (c) both sums. (a) with the source's centre vertex at upper 0.25,
 * root 0.75: at the centre the covariance sum stays sqrt 2 (the source's
 * s is still 0, the candidate's (2.5, 2.5)), and dw_upper = 0.5 - 0.25 =
 * 0.25, so with translation 0.5 the lever sum is 0.25 * (0.4 * |(5,5)| +
 * 0.5) = 0.25 * (2 sqrt 2 + 0.5) = 0.83210678..., the total 2.24632034...
 * (r6 2.24632). l1 = 0.25 + 0.25, lInf = 0.25. */
static char *both_sums(const char *bound)
{
    return request(ART_CENTRE,
                   mesh(SQ2_POINTS, SQ2_UVS, SQ2_TRIS, "4",
                        "[" W_ROOT "," W_HALF "," W_UP "," W_HALF "]"),
                   mesh(SQ4_POINTS, SQ4_UVS, SQ4_TRIS, "4",
                        "[" W_ROOT "," W_HALF "," W_UP "," W_HALF "," W_QUARTER "]"),
                   ENV("0.4", "[0,0]", "0.5"), bound, "[]");
}

/* ---- running and reading ------------------------------------------------- */

typedef struct {
    int rc;
    anim_mq_outcome outcome;
    anim_error err;
    anim_strbuf out;
    anim_arena *arena;
    const anim_json_value *doc;
} run_result;

static run_result run(char *text, anim_mq_plant plant)
{
    run_result r;
    memset(&r, 0, sizeof r);
    anim_strbuf init = ANIM_STRBUF_INIT;
    r.out = init;
    anim_error_clear(&r.err);
    r.rc = anim_mq_flat_residual(text, strlen(text), "t.json", true, plant, &r.out, &r.outcome,
                                 &r.err);
    free(text);
    r.arena = anim_arena_new();
    assert_non_null(r.arena);
    if (r.rc == 0) {
        anim_error perr;
        anim_error_clear(&perr);
        assert_false(r.out.failed);
        r.doc = anim_json_parse(r.arena, r.out.data, r.out.len, NULL, &perr);
        if (!r.doc)
            fail_msg("the report is not JSON (%s):\n%s", perr.message, r.out.data);
    }
    return r;
}

static void done(run_result *r)
{
    anim_strbuf_free(&r->out);
    anim_arena_free(r->arena);
}

static const anim_json_value *at(const anim_json_value *v, const char *path)
{
    /* "a.b.0.c": members by key, items by index. */
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *part = strtok(buf, "."); part && v; part = strtok(NULL, ".")) {
        if (part[0] >= '0' && part[0] <= '9') {
            size_t i = (size_t)strtoul(part, NULL, 10);
            v = v->type == ANIM_JSON_ARRAY && i < anim_json_count(v) ? anim_json_item(v, i) : NULL;
        } else {
            v = v->type == ANIM_JSON_OBJECT ? anim_json_get(v, part) : NULL;
        }
    }
    return v;
}

static const anim_json_value *row0(const run_result *r)
{
    assert_int_equal(r->rc, 0);
    const anim_json_value *rows = at(r->doc, "rows");
    assert_non_null(rows);
    assert_int_equal(anim_json_count(rows), 1);
    return anim_json_item(rows, 0);
}

static double num(const anim_json_value *v, const char *path)
{
    const anim_json_value *x = at(v, path);
    if (!x || x->type != ANIM_JSON_NUMBER)
        fail_msg("%s is not a number", path);
    return anim_json_number(x);
}

static void expect_str(const anim_json_value *v, const char *path, const char *want)
{
    const anim_json_value *x = at(v, path);
    if (!x || x->type != ANIM_JSON_STRING)
        fail_msg("%s is not a string", path);
    if (!anim_json_string_eq(x, want))
        fail_msg("%s is \"%s\", expected \"%s\"", path, anim_json_string(x), want);
}

static void expect_num(const anim_json_value *v, const char *path, double want)
{
    double got = num(v, path);
    if (got != want)
        fail_msg("%s is %.17g, expected %.17g", path, got, want);
}

static void expect_contains(const char *text, const char *part)
{
    if (!text || !strstr(text, part))
        fail_msg("expected \"%s\" in:\n%s", part, text ? text : "(null)");
}

/* ---- the two sums ---------------------------------------------------------- */

static void test_covariance_only(void **state)
{
    (void)state;
    run_result r = run(covariance_only("2"), ANIM_MQ_PLANT_NONE);
    const anim_json_value *row = row0(&r);
    expect_str(row, "id", ANIM_MQ_ROW_ID);
    expect_str(row, "state", "measured");
    expect_num(row, "value", 1.414214);
    expect_num(row, "bound", 2);
    expect_str(row, "verdict", "pass");
    expect_num(row, "samples", 5);
    expect_num(row, "art", 1);
    expect_num(row, "worst.at.pixel.0", 0);
    expect_num(row, "worst.at.pixel.1", 0);
    expect_num(row, "worst.at.uv.0", 0.5);
    expect_num(row, "worst.at.uv.1", 0.5);
    expect_num(row, "skinning.worst.covariance", 1.414214);
    expect_num(row, "skinning.worst.lever", 0);
    expect_str(row, "skinning.worst.bones.0.bone", "upper");
    expect_num(row, "skinning.worst.bones.0.covariance", 1.414214);
    expect_num(row, "skinning.worst.bones.0.lever", 0);
    /* The weight fields agree everywhere: the diagnostic reads 0 while the
     * meshes draw the centre sqrt 2 px apart under the envelope. */
    expect_num(row, "skinning.weightField.l1", 0);
    expect_num(row, "skinning.weightField.lInf", 0);
    expect_num(row, "skinning.samples.measured", 5);
    expect_num(row, "skinning.setup.sampleGap", 0);
    expect_num(row, "skinning.setup.vertexGap", 0);
    expect_str(row, "skinning.reference", "root");
    expect_str(row, "skinning.source.id", "src");
    expect_str(row, "skinning.reading", ANIM_MQ_READING);
    expect_str(r.doc, "schema", ANIM_MQ_SCHEMA);
    assert_int_equal(r.outcome.rows, 1);
    assert_int_equal(r.outcome.passed, 1);
    done(&r);
}

static void test_lever_only(void **state)
{
    (void)state;
    run_result r = run(lever_only(), ANIM_MQ_PLANT_NONE);
    const anim_json_value *row = row0(&r);
    expect_str(row, "state", "measured");
    expect_num(row, "value", 1.5);
    expect_num(row, "samples", 4);
    expect_num(row, "art", 0);
    expect_num(row, "worst.at.vertex", 0);
    expect_num(row, "worst.at.uv.0", 0);
    expect_num(row, "worst.at.uv.1", 0);
    expect_num(row, "skinning.worst.covariance", 0);
    expect_num(row, "skinning.worst.lever", 1.5);
    expect_num(row, "skinning.worst.bones.0.lever", 1.5);
    expect_num(row, "skinning.weightField.l1", 1);
    expect_num(row, "skinning.weightField.lInf", 0.5);
    done(&r);
}

static void test_both_sums(void **state)
{
    (void)state;
    run_result r = run(both_sums("2"), ANIM_MQ_PLANT_NONE);
    const anim_json_value *row = row0(&r);
    expect_num(row, "value", 2.24632);
    expect_str(row, "verdict", "fail");
    expect_num(row, "skinning.worst.covariance", 1.414214);
    expect_num(row, "skinning.worst.lever", 0.832107);
    expect_num(row, "skinning.weightField.l1", 0.5);
    expect_num(row, "skinning.weightField.lInf", 0.25);
    assert_int_equal(r.outcome.failed, 1);
    assert_int_equal(r.outcome.passed, 0);
    done(&r);
}

static void test_undeclared_bound(void **state)
{
    (void)state;
    run_result r = run(both_sums("null"), ANIM_MQ_PLANT_NONE);
    const anim_json_value *row = row0(&r);
    expect_num(row, "value", 2.24632);
    expect_str(row, "verdict", "undeclared");
    const anim_json_value *b = at(row, "bound");
    assert_true(b == NULL || b->type == ANIM_JSON_NULL);
    const anim_json_value *echo = at(r.doc, "effective.skinning.maxResidual");
    assert_non_null(echo);
    assert_int_equal(echo->type, ANIM_JSON_NULL);
    assert_int_equal(r.outcome.undeclared, 1);
    assert_int_equal(r.outcome.failed + r.outcome.passed, 0);
    done(&r);
}

/* ---- plants: the planted variant answers differently --------------------- */

static void test_plant_drop_covariance(void **state)
{
    (void)state;
    run_result real = run(covariance_only("2"), ANIM_MQ_PLANT_NONE);
    run_result planted = run(covariance_only("2"), ANIM_MQ_PLANT_DROP_COVARIANCE);
    expect_num(row0(&real), "value", 1.414214);
    expect_num(row0(&planted), "value", 0);
    done(&real);
    done(&planted);
}

static void test_plant_drop_lever(void **state)
{
    (void)state;
    run_result real = run(lever_only(), ANIM_MQ_PLANT_NONE);
    run_result planted = run(lever_only(), ANIM_MQ_PLANT_DROP_LEVER);
    expect_num(row0(&real), "value", 1.5);
    expect_num(row0(&planted), "value", 0);
    done(&real);
    done(&planted);
}

/* A candidate over UV (0.1..0.3)^2 only: none of the samples (the centre and
 * the four corners) lies in it. */
static char *disjoint(void)
{
    return request(ART_CENTRE,
                   mesh("[[1,1],[3,1],[1,3]]", "[0.1,0.1,0.3,0.1,0.1,0.3]", "[0,1,2]", "3",
                        "[" W_UP "," W_UP "," W_UP "]"),
                   mesh(SQ2_POINTS, SQ2_UVS, SQ2_TRIS, "4", LEVER_SRC_W), LEVER_ENV, "5", "[]");
}

static void test_plant_uncarried_read_as_zero(void **state)
{
    (void)state;
    run_result real = run(disjoint(), ANIM_MQ_PLANT_NONE);
    expect_str(row0(&real), "state", "not-measurable");
    assert_null(at(row0(&real), "value"));
    const anim_json_value *reason = at(row0(&real), "reason");
    assert_non_null(reason);
    expect_contains(anim_json_string(reason), "no sample is carried by both");
    expect_contains(anim_json_string(reason), "0 uncarried by the source, 5 by the candidate");
    assert_int_equal(real.outcome.not_measurable, 1);
    run_result planted = run(disjoint(), ANIM_MQ_PLANT_UNCARRIED_READ_AS_ZERO);
    expect_str(row0(&planted), "state", "measured");
    expect_num(row0(&planted), "value", 0);
    done(&real);
    done(&planted);
}

/* A refusal of the real code that the plant lets through as a measurement. */
static void refused_unless_planted(char *(*make)(void), anim_mq_plant plant, const char *code,
                                   const char *const *phrases)
{
    run_result real = run(make(), ANIM_MQ_PLANT_NONE);
    const anim_json_value *row = row0(&real);
    expect_str(row, "state", "refused");
    expect_str(row, "code", code);
    assert_null(at(row, "value"));
    const anim_json_value *reason = at(row, "reason");
    assert_non_null(reason);
    const char *text = anim_json_string(reason);
    assert_int_equal(strncmp(text, code, strlen(code)), 0);
    assert_int_equal(text[strlen(code)], ':');
    for (const char *const *p = phrases; *p; p++)
        expect_contains(text, *p);
    assert_int_equal(real.outcome.refused, 1);
    done(&real);
    if (plant != ANIM_MQ_PLANT_NONE) {
        run_result planted = run(make(), plant);
        expect_str(row0(&planted), "state", "measured");
        done(&planted);
    }
}

static char *undeclared_bone(void)
{
    return lever_with(SQ2_POINTS, "[" W_HALF "," W_UP "," W_UP ",[{\"bone\":\"stranger\",\"weight\":1}]]",
                      LEVER_ENV, "[]");
}

static char *unknown_bone(void)
{
    return lever_with(SQ2_POINTS, LEVER_CAND_W,
                      "{\"reference\":\"root\",\"bones\":[{\"bone\":\"upper\",\"linear\":0.4,"
                      "\"pivot\":[3,4],\"translation\":1},{\"bone\":\"ghost\",\"linear\":0.1,"
                      "\"pivot\":[0,0],\"translation\":0}]}",
                      "[]");
}

static char *setup_off(void)
{
    return lever_with("[[0,0],[10.5,0],[10,10],[0,10]]", LEVER_CAND_W, LEVER_ENV, "[]");
}

static char *deform_key(void)
{
    return lever_with(SQ2_POINTS, LEVER_CAND_W, LEVER_ENV,
                      "[{\"animation\":\"wave\",\"attachment\":" ATTACHMENT ",\"keys\":["
                      "{\"time\":0,\"kind\":\"setup\"},{\"time\":1,\"kind\":\"vertices\"}]}]");
}

static void test_plant_undeclared_bone_ignored(void **state)
{
    (void)state;
    static const char *const p[] = {"attachment default/arm/arm", "candidate vertex 3",
                                    "binds bone \"stranger\"",
                                    "neither declares nor names as its reference \"root\"", NULL};
    refused_unless_planted(undeclared_bone, ANIM_MQ_PLANT_UNDECLARED_BONE_IGNORED,
                           "SKINNING_BONE_NOT_DECLARED", p);
}

static void test_plant_unknown_bone_accepted(void **state)
{
    (void)state;
    static const char *const p[] = {"skinning.envelope.bones[1] declares bone \"ghost\"",
                                    "no vertex of the source \"src\" binds",
                                    "the source binds \"upper\"", NULL};
    refused_unless_planted(unknown_bone, ANIM_MQ_PLANT_UNKNOWN_BONE_ACCEPTED,
                           "SKINNING_BONE_UNKNOWN", p);
}

static void test_plant_setup_unchecked(void **state)
{
    (void)state;
    static const char *const p[] = {"candidate vertex 1 is at (10.5, 0)", "its UV (1, 0)",
                                    "10x10 px frame is at (10, 0)", NULL};
    refused_unless_planted(setup_off, ANIM_MQ_PLANT_SETUP_UNCHECKED, "SKINNING_SETUP_MISMATCH",
                           p);
}

static void test_plant_deform_unchecked(void **state)
{
    (void)state;
    static const char *const p[] = {"skinning.deform names animation \"wave\"",
                                    "keyed on default/arm/arm", "key 1 is a \"vertices\" key",
                                    NULL};
    refused_unless_planted(deform_key, ANIM_MQ_PLANT_DEFORM_UNCHECKED,
                           "SKINNING_DEFORM_UNSUPPORTED", p);
}

static char *unset(void)
{
    char *c = mesh(SQ2_POINTS, SQ2_UVS, SQ2_TRIS, "4", LEVER_CAND_W);
    size_t n = strlen(c) + 512;
    char *r = malloc(n);
    assert_non_null(r);
    snprintf(r, n,
             "{\"attachment\":" ATTACHMENT ",\"frame\":{\"width\":10,\"height\":10},\"art\":" ART_NONE
             ",\"candidate\":%s,\"skinning\":null}",
             c);
    free(c);
    return r;
}

static void test_plants_when_unset(void **state)
{
    (void)state;
    run_result real = run(unset(), ANIM_MQ_PLANT_NONE);
    assert_int_equal(real.rc, 0);
    const anim_json_value *rows = at(real.doc, "rows");
    assert_true(rows == NULL || anim_json_count(rows) == 0);
    /* No echo: effective has no skinning member at all. */
    assert_non_null(at(real.doc, "effective"));
    const anim_json_value *echo = at(real.doc, "effective.skinning");
    assert_null(echo);
    assert_null(strstr(real.out.data, ANIM_MQ_ROW_ID));
    assert_int_equal(real.outcome.rows, 0);

    run_result echo_planted = run(unset(), ANIM_MQ_PLANT_ECHO_WHEN_UNSET);
    assert_int_equal(echo_planted.rc, 0);
    /* The planted report writes the member (null or not). */
    assert_non_null(at(echo_planted.doc, "effective.skinning"));

    run_result row_planted = run(unset(), ANIM_MQ_PLANT_ROW_WHEN_UNSET);
    assert_int_equal(row_planted.rc, 0);
    rows = at(row_planted.doc, "rows");
    assert_non_null(rows);
    assert_true(anim_json_count(rows) >= 1);
    assert_non_null(strstr(row_planted.out.data, ANIM_MQ_ROW_ID));
    done(&real);
    done(&echo_planted);
    done(&row_planted);
}

/* ---- the other refusals and not-measurable ---------------------------------- */

static char *unweighted_candidate(void)
{
    return lever_with(SQ2_POINTS, "null", LEVER_ENV, "[]");
}

static char *weight_sum(void)
{
    return lever_with(SQ2_POINTS,
                      "[" W_HALF "," W_UP ",[{\"bone\":\"upper\",\"weight\":0.9}]," W_UP "]",
                      LEVER_ENV, "[]");
}

/* The candidate has triangle 0-1-2 twice: the art pixel (1, 0) of a 2 x 2
 * mask, uv (0.75, 0.25), lies inside both. */
static char *overlap(void)
{
    return request("{\"width\":2,\"height\":2,\"alpha\":[0,1,0,0],\"threshold\":0.5,\"minArtSamples\":1}",
                   mesh(SQ2_POINTS, SQ2_UVS, "[0,1,2,0,2,3,0,1,2]", "4", LEVER_CAND_W),
                   mesh(SQ2_POINTS, SQ2_UVS, SQ2_TRIS, "4", LEVER_SRC_W), LEVER_ENV, "5", "[]");
}

static void test_refusals(void **state)
{
    (void)state;
    static const char *const unw[] = {"the candidate is unweighted and the source is weighted",
                                      "required both weighted", NULL};
    refused_unless_planted(unweighted_candidate, ANIM_MQ_PLANT_NONE, "SKINNING_UNWEIGHTED", unw);
    static const char *const ws[] = {"candidate vertex 2's shares sum to 0.9", "required 1 within",
                                     "half a step of the 6-decimal weight grid", NULL};
    refused_unless_planted(weight_sum, ANIM_MQ_PLANT_NONE, "SKINNING_WEIGHT_SUM", ws);
    static const char *const ov[] = {"attachment", NULL};
    refused_unless_planted(overlap, ANIM_MQ_PLANT_NONE, "SKINNING_UV_CARRIER_NOT_UNIQUE", ov);
}

/* The order of the checks is the order a fix has to happen in: a request
 * with a deform key, an undeclared bone and a bad sum is refused for the
 * deform. */
static char *everything_wrong(void)
{
    return lever_with("[[0,0],[10.5,0],[10,10],[0,10]]",
                      "[" W_HALF ",[{\"bone\":\"stranger\",\"weight\":0.9}]," W_UP "," W_UP "]",
                      LEVER_ENV,
                      "[{\"animation\":\"wave\",\"attachment\":" ATTACHMENT
                      ",\"keys\":[{\"time\":0,\"kind\":\"transform\"}]}]");
}

static void test_order_of_checks(void **state)
{
    (void)state;
    static const char *const p[] = {"key 0 is a \"transform\" key", NULL};
    refused_unless_planted(everything_wrong, ANIM_MQ_PLANT_NONE, "SKINNING_DEFORM_UNSUPPORTED", p);
}

static char *both_unweighted(void)
{
    return request(ART_NONE, mesh(SQ2_POINTS, SQ2_UVS, SQ2_TRIS, "4", "null"),
                   mesh(SQ2_POINTS, SQ2_UVS, SQ2_TRIS, "4", "null"),
                   "{\"reference\":\"root\",\"bones\":[]}", "5", "[]");
}

static char *under_floor(void)
{
    return request("{\"width\":1,\"height\":1,\"alpha\":[1],\"threshold\":0.5,\"minArtSamples\":2}",
                   mesh(SQ2_POINTS, SQ2_UVS, SQ2_TRIS, "4", LEVER_CAND_W),
                   mesh(SQ2_POINTS, SQ2_UVS, SQ2_TRIS, "4", LEVER_SRC_W), LEVER_ENV, "5", "[]");
}

static void expect_not_measurable(char *text, const char *phrase)
{
    run_result r = run(text, ANIM_MQ_PLANT_NONE);
    const anim_json_value *row = row0(&r);
    expect_str(row, "state", "not-measurable");
    assert_null(at(row, "value"));
    assert_null(at(row, "code"));
    const anim_json_value *reason = at(row, "reason");
    assert_non_null(reason);
    expect_contains(anim_json_string(reason), phrase);
    assert_int_equal(r.outcome.not_measurable, 1);
    done(&r);
}

static void test_not_measurable(void **state)
{
    (void)state;
    expect_not_measurable(disjoint(), "no sample is carried by both the source \"src\"");
    expect_not_measurable(under_floor(), "has 1 art sample(s) at alpha >= 0.5; required at least 2");
    expect_not_measurable(both_unweighted(),
                          "neither the source \"src\" nor the candidate is weighted");
}

/* ---- malformed requests ------------------------------------------------------- */

static void expect_malformed(char *text, const char *path_phrase)
{
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_mq_outcome outcome;
    memset(&outcome, 0, sizeof outcome);
    anim_error err;
    anim_error_clear(&err);
    int rc = anim_mq_flat_residual(text, strlen(text), "t.json", true, ANIM_MQ_PLANT_NONE, &out,
                                   &outcome, &err);
    if (rc != -1)
        fail_msg("expected a malformed request naming %s; got rc %d:\n%s", path_phrase, rc,
                 out.data ? out.data : "");
    expect_contains(err.message, "REDUCE_INPUT_MISSING");
    expect_contains(err.message, "t.json");
    expect_contains(err.message, path_phrase);
    assert_null(strchr(err.message, '\n'));
    free(text);
    anim_strbuf_free(&out);
}

static char *with_source(const char *points, const char *uvs, const char *tris, const char *hull)
{
    return request(ART_NONE, mesh(SQ2_POINTS, SQ2_UVS, SQ2_TRIS, "4", LEVER_CAND_W),
                   mesh(points, uvs, tris, hull, LEVER_SRC_W), LEVER_ENV, "5", "[]");
}

static char *with_envelope(const char *envelope)
{
    return lever_with(SQ2_POINTS, LEVER_CAND_W, envelope, "[]");
}

static char *replaced(char *text, const char *from, const char *to)
{
    char *hit = strstr(text, from);
    assert_non_null(hit);
    size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
    char *r = malloc(n);
    assert_non_null(r);
    snprintf(r, n, "%.*s%s%s", (int)(hit - text), text, to, hit + strlen(from));
    free(text);
    return r;
}

static void test_malformed(void **state)
{
    (void)state;
    expect_malformed(with_source("[[0,0],[10,0],[10,10],[0]]", SQ2_UVS, SQ2_TRIS, "4"),
                     "skinning.source.mesh.points[3]");
    expect_malformed(with_source(SQ2_POINTS, "[0,0,1,0,1,1]", SQ2_TRIS, "4"),
                     "skinning.source.mesh.uvs");
    expect_malformed(with_source(SQ2_POINTS, SQ2_UVS, "[0,1,2,0,2,4]", "4"),
                     "skinning.source.mesh.triangles");
    expect_malformed(with_source(SQ2_POINTS, SQ2_UVS, "[0,1,2,0,2]", "4"),
                     "skinning.source.mesh.triangles");
    expect_malformed(with_source(SQ2_POINTS, SQ2_UVS, SQ2_TRIS, "9"),
                     "skinning.source.mesh.hull");
    expect_malformed(with_source(SQ2_POINTS, SQ2_UVS, SQ2_TRIS, "2"),
                     "skinning.source.mesh.hull");
    expect_malformed(with_source(SQ2_POINTS, SQ2_UVS, SQ2_TRIS, "\"4\""),
                     "skinning.source.mesh.hull");
    /* A wrong type in the candidate. */
    expect_malformed(replaced(lever_only(), "[[0,0],[10,0]", "[[0,0],\"x\""),
                     "candidate.points[1]");
    expect_malformed(
        with_envelope("{\"reference\":\"root\",\"bones\":[{\"bone\":\"root\",\"linear\":0.4,"
                      "\"pivot\":[3,4],\"translation\":1}]}"),
        "skinning.envelope.bones[0].bone");
    expect_malformed(
        with_envelope("{\"reference\":\"root\",\"bones\":[{\"bone\":\"upper\",\"linear\":0.4,"
                      "\"pivot\":[3,4],\"translation\":1},{\"bone\":\"upper\",\"linear\":0.4,"
                      "\"pivot\":[3,4],\"translation\":1}]}"),
        "skinning.envelope.bones[1].bone");
    expect_malformed(with_envelope(ENV("-1", "[3,4]", "1")), "skinning.envelope.bones[0].linear");
    expect_malformed(with_envelope(ENV("0.4", "[3]", "1")), "skinning.envelope.bones[0].pivot");
    expect_malformed(with_envelope(ENV("0.4", "[3,4]", "-2")),
                     "skinning.envelope.bones[0].translation");
    expect_malformed(with_envelope("{\"reference\":\"\",\"bones\":[]}"),
                     "skinning.envelope.reference");
    expect_malformed(replaced(lever_only(), "\"maxResidual\":5,", ""), "skinning.maxResidual");
    expect_malformed(replaced(lever_only(), "\"maxResidual\":5", "\"maxResidual\":-1"),
                     "skinning.maxResidual");
    expect_malformed(replaced(lever_only(), "\"id\":\"src\",", ""), "skinning.source.id");
    expect_malformed(replaced(lever_only(), "\"deform\":[]", "\"deform\":{}"), "skinning.deform");
    expect_malformed(replaced(lever_only(), "\"deform\":[]", "\"deform\":[{\"animation\":1}]"),
                     "skinning.deform[0]");
    /* A negative share, in the source's weights. */
    expect_malformed(replaced(lever_only(), "\"weight\":1}]]}},\"envelope\"",
                              "\"weight\":-1}]]}},\"envelope\""),
                     "skinning.source.mesh.weights[3]");
}

/* ---- the envelope helper ------------------------------------------------------ */

#define SETUP_OK "{\"scaleX\":1,\"scaleY\":1,\"shearX\":0,\"shearY\":0,\"inherit\":\"normal\"}"

static char *range(const char *bone, const char *source, const char *pivot, const char *rotate,
                   const char *sx, const char *sy, const char *translate, const char *setup)
{
    char *r = malloc(1024);
    assert_non_null(r);
    snprintf(r, 1024,
             "{\"bone\":\"%s\",\"source\":\"%s\",\"pivot\":%s,\"rotate\":%s,\"scaleX\":%s,"
             "\"scaleY\":%s,\"translate\":%s,\"setup\":%s}",
             bone, source, pivot, rotate, sx, sy, translate, setup);
    return r;
}

static char *ranges(char *reference, char *a, char *b)
{
    char *r = malloc(4096);
    assert_non_null(r);
    if (b)
        snprintf(r, 4096, "{\"referenceChain\":[%s],\"chain\":[%s,%s]}", reference, a, b);
    else
        snprintf(r, 4096, "{\"referenceChain\":[%s],\"chain\":[%s]}", reference, a);
    free(reference);
    free(a);
    free(b);
    return r;
}

static char *still_root(void)
{
    return range("root", "keys", "[0,0]", "[0,0]", "[1,1]", "[1,1]", "0", SETUP_OK);
}

/* The first object with a "linear" member, depth first. */
static const anim_json_value *entry_of(const anim_json_value *v)
{
    if (!v)
        return NULL;
    if (v->type == ANIM_JSON_OBJECT) {
        if (anim_json_get(v, "linear"))
            return v;
        for (size_t i = 0; i < anim_json_count(v); i++) {
            const anim_json_value *e = entry_of(&anim_json_member_at(v, i)->value);
            if (e)
                return e;
        }
    } else if (v->type == ANIM_JSON_ARRAY) {
        for (size_t i = 0; i < anim_json_count(v); i++) {
            const anim_json_value *e = entry_of(anim_json_item(v, i));
            if (e)
                return e;
        }
    }
    return NULL;
}

typedef struct {
    double linear, pivot[2], translation;
} entry;

static entry envelope_of(char *text, anim_mq_envelope_plant plant, const char *bone)
{
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_error err;
    anim_error_clear(&err);
    int rc = anim_mq_flat_envelope(text, strlen(text), "r.json", true, plant, &out, &err);
    if (rc != 0)
        fail_msg("envelope refused: %s\n%s", err.message, text);
    free(text);
    anim_arena *arena = anim_arena_new();
    anim_error perr;
    anim_error_clear(&perr);
    const anim_json_value *doc = anim_json_parse(arena, out.data, out.len, NULL, &perr);
    if (!doc)
        fail_msg("the envelope is not JSON (%s):\n%s", perr.message, out.data);
    const anim_json_value *e = entry_of(doc);
    if (!e)
        fail_msg("no envelope entry in:\n%s", out.data);
    expect_str(e, "bone", bone);
    entry x = {num(e, "linear"), {num(e, "pivot.0"), num(e, "pivot.1")}, num(e, "translation")};
    anim_arena_free(arena);
    anim_strbuf_free(&out);
    return x;
}

/* Written figures may be r6-rounded: within 1e-6 of the hand value. */
static void near(double got, double want, const char *what)
{
    if (fabs(got - want) > 1e-6)
        fail_msg("%s is %.17g, expected %.17g", what, got, want);
}

static void test_envelope_one_bone(void **state)
{
    (void)state;
    /* One bone rotating +-60 degrees against a still reference:
     * linear = 2 sin(30 deg) = 1, pivot its joint, no translation. */
    entry e = envelope_of(ranges(still_root(),
                                 range("upper", "keys", "[10,16]", "[-60,60]", "[1,1]", "[1,1]",
                                       "0", SETUP_OK),
                                 NULL),
                          ANIM_MQ_ENVELOPE_PLANT_NONE, "upper");
    near(e.linear, 1, "linear");
    near(e.pivot[0], 10, "pivot x");
    near(e.pivot[1], 16, "pivot y");
    near(e.translation, 0, "translation");
    /* The rotation is capped at 180 degrees: 2 sin(90 deg) = 2. */
    e = envelope_of(ranges(still_root(),
                           range("upper", "keys", "[0,0]", "[-270,10]", "[1,1]", "[1,1]", "3",
                                 SETUP_OK),
                           NULL),
                    ANIM_MQ_ENVELOPE_PLANT_NONE, "upper");
    near(e.linear, 2, "capped linear");
    near(e.translation, 3, "translation of the one bone");
}

/* A chain of two bones under a reference that scales up to 2 (S = 2):
 * upper at (0,0) rotates +-60 (2 sin 30 = 1) and scales x in [0.5, 1]
 * (0.5): e1 = 1.5, translate 1; lower at (3,4) scales x in [1, 1.25]:
 * e2 = 0.25, translate 2.
 *   linear = 2 ((1 + 1.5)(1 + 0.25) - 1) = 2 (3.125 - 1) = 4.25
 *   delta2 = 2; delta1 = 1.5 |(3,4) - (0,0)| + 2.5 * 2 + 1 = 7.5 + 5 + 1 = 13.5
 *   translation = 2 * 13.5 = 27, pivot (3, 4).
 * scale-ignored: S = 1, e1 = 1, e2 = 0: linear = 2 * 1 - 1 = 1,
 *   delta1 = 1 * 5 + 2 * 2 + 1 = 10. translation-ignored: translation 0. */
static char *two_bone_chain(void)
{
    return ranges(range("root", "keys", "[0,0]", "[-5,5]", "[1,2]", "[1,1]", "4", SETUP_OK),
                  range("upper", "keys", "[0,0]", "[-60,60]", "[0.5,1]", "[1,1]", "1", SETUP_OK),
                  range("lower", "keys", "[3,4]", "[0,0]", "[1,1.25]", "[1,1]", "2", SETUP_OK));
}

static void test_envelope_chain(void **state)
{
    (void)state;
    entry e = envelope_of(two_bone_chain(), ANIM_MQ_ENVELOPE_PLANT_NONE, "lower");
    near(e.linear, 4.25, "linear");
    near(e.pivot[0], 3, "pivot x");
    near(e.pivot[1], 4, "pivot y");
    near(e.translation, 27, "translation");
}

static void test_envelope_plants(void **state)
{
    (void)state;
    entry s = envelope_of(two_bone_chain(), ANIM_MQ_ENVELOPE_PLANT_SCALE_IGNORED, "lower");
    near(s.linear, 1, "scale-ignored linear");
    near(s.translation, 10, "scale-ignored translation");
    entry t = envelope_of(two_bone_chain(), ANIM_MQ_ENVELOPE_PLANT_TRANSLATION_IGNORED, "lower");
    near(t.linear, 4.25, "translation-ignored linear");
    near(t.translation, 0, "translation-ignored translation");
}

static void expect_envelope_refused(char *text, const char *code, const char *phrase)
{
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_error err;
    anim_error_clear(&err);
    int rc = anim_mq_flat_envelope(text, strlen(text), "r.json", true,
                                   ANIM_MQ_ENVELOPE_PLANT_NONE, &out, &err);
    if (rc != -1)
        fail_msg("expected %s (%s), got rc %d:\n%s", code, phrase, rc, out.data ? out.data : "");
    expect_contains(err.message, code);
    expect_contains(err.message, phrase);
    free(text);
    anim_strbuf_free(&out);
}

static void test_envelope_refusals(void **state)
{
    (void)state;
    expect_envelope_refused(
        ranges(still_root(),
               range("upper", "physics", "[0,0]", "[-60,60]", "[1,1]", "[1,1]", "0", SETUP_OK),
               NULL),
        "SKINNING_RANGE_UNSUPPORTED", "chain[0] (bone \"upper\").source is \"physics\"");
    expect_envelope_refused(
        ranges(still_root(),
               range("upper", "keys", "[0,0]", "[-60,60]", "[1,1]", "[1,1]", "0",
                     "{\"scaleX\":1,\"scaleY\":2,\"shearX\":0,\"shearY\":0,\"inherit\":\"normal\"}"),
               NULL),
        "SKINNING_RANGE_UNSUPPORTED", "setup scale is (1, 2)");
    expect_envelope_refused(
        ranges(still_root(),
               range("upper", "keys", "[0,0]", "[-60,60]", "[1,1]", "[1,1]", "0",
                     "{\"scaleX\":1,\"scaleY\":1,\"shearX\":5,\"shearY\":0,\"inherit\":\"normal\"}"),
               NULL),
        "SKINNING_RANGE_UNSUPPORTED", "setup shear is (5, 0)");
    expect_envelope_refused(
        ranges(range("root", "keys", "[0,0]", "[0,0]", "[1,1]", "[1,1]", "0",
                     "{\"scaleX\":1,\"scaleY\":1,\"shearX\":0,\"shearY\":0,\"inherit\":\"noScale\"}"),
               range("upper", "keys", "[0,0]", "[-60,60]", "[1,1]", "[1,1]", "0", SETUP_OK),
               NULL),
        "SKINNING_RANGE_UNSUPPORTED", "referenceChain[0] (bone \"root\").setup.inherit is \"noScale\"");
    /* Malformed ranges name their path. */
    expect_envelope_refused(
        ranges(still_root(),
               range("upper", "keys", "[0,0]", "[60,-60]", "[1,1]", "[1,1]", "0", SETUP_OK), NULL),
        "REDUCE_INPUT_MISSING", "chain[0] (bone \"upper\").rotate");
    expect_envelope_refused(
        ranges(still_root(),
               range("upper", "keys", "[0,0]", "[-60,60]", "[0,1]", "[1,1]", "0", SETUP_OK), NULL),
        "REDUCE_INPUT_MISSING", "chain[0] (bone \"upper\").scaleX");
    expect_envelope_refused(
        ranges(still_root(),
               range("upper", "keys", "[0,0]", "[-60,60]", "[1,1]", "[1,1]", "-1", SETUP_OK), NULL),
        "REDUCE_INPUT_MISSING", "chain[0] (bone \"upper\").translate");
    char *empty = malloc(64);
    assert_non_null(empty);
    snprintf(empty, 64, "{\"referenceChain\":[],\"chain\":[]}");
    expect_envelope_refused(empty, "REDUCE_INPUT_MISSING", "referenceChain");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_covariance_only),
        cmocka_unit_test(test_lever_only),
        cmocka_unit_test(test_both_sums),
        cmocka_unit_test(test_undeclared_bound),
        cmocka_unit_test(test_plant_drop_covariance),
        cmocka_unit_test(test_plant_drop_lever),
        cmocka_unit_test(test_plant_uncarried_read_as_zero),
        cmocka_unit_test(test_plant_undeclared_bone_ignored),
        cmocka_unit_test(test_plant_unknown_bone_accepted),
        cmocka_unit_test(test_plant_setup_unchecked),
        cmocka_unit_test(test_plant_deform_unchecked),
        cmocka_unit_test(test_plants_when_unset),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_order_of_checks),
        cmocka_unit_test(test_not_measurable),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_envelope_one_bone),
        cmocka_unit_test(test_envelope_chain),
        cmocka_unit_test(test_envelope_plants),
        cmocka_unit_test(test_envelope_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
