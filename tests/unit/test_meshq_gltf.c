/* Mesh quality on glTF (src/meshq/mq_gltf*.c) on a strip built here: two
 * joints, "root" at the origin and "child" at (1, 0, 0), and a 2 x 1
 * strip of six vertices at x = 0, 1, 2 (UV (x / 2, y)) weighted root 1,
 * half and half, child 1. The clip "bend" turns the child a quarter turn
 * about z.
 *
 * - the strip against itself: value 0, worst null;
 * - the strip against its four corners (the middle column removed): the
 *   weights agree at every sample (the candidate's field is linear too)
 *   but the moment does not: at vertex 1, p = (1, 0, 0), the source's
 *   s_child = 0.5 (x1 - p) = 0 and the candidate's (bary 0.5, 0.5 on the
 *   bottom edge) 0.5 * 1 * ((2, 0, 0) - p) = (0.5, 0, 0); with
 *   eps_child = 2 sin(45 deg) = sqrt 2 the value is sqrt 2 / 2;
 * - an animated morph target refuses the row;
 * - the envelope from the clip is linear = 2 sin(45 deg) (1e-12);
 * - the TOML envelope is strict, and errors name the table and key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "animsmith/base64.h"
#include "animsmith/gltf.h"
#include "animsmith/meshq.h"
#include "animsmith/strbuf.h"
#include "meshq/mq_gltf_internal.h"
#include "meshq/mq_gltf_mesh.h"

/* Little-endian byte sink for the buffer. */
typedef struct sink {
    uint8_t bytes[4096];
    size_t len;
} sink;

static size_t put_floats(sink *s, const float *v, size_t n)
{
    size_t at = s->len;
    memcpy(s->bytes + s->len, v, n * sizeof *v);
    s->len += n * sizeof *v;
    return at;
}

static size_t put_u16(sink *s, const uint16_t *v, size_t n)
{
    size_t at = s->len;
    memcpy(s->bytes + s->len, v, n * sizeof *v);
    s->len += (n * sizeof *v + 3) & ~(size_t)3;
    return at;
}

/* Extra members of the child node (a rest scale for the range test). */
static const char *child_extra = "";
/* The strip's TEXCOORD_0 attribute ("" for a mesh without UVs) and the
 * factor on its U (0.5 squeezes the layout into the left half). */
static const char *uv_attribute = "\"TEXCOORD_0\":1,";
static float uv_u_factor = 1;
/* The skin's joints and the clip's last key time. */
static const char *skin_joints = "[0,1]";
static float clip_end = 1;

/* The strip: full (six vertices) or coarse (the four corners). */
static char *strip_gltf(bool coarse, bool morph)
{
    static const float xs_full[3] = {0, 1, 2}, xs_coarse[2] = {0, 2};
    const float *xs = coarse ? xs_coarse : xs_full;
    uint32_t cols = coarse ? 2 : 3, nv = 2 * cols;
    float pos[18], uv[12], w[24], zero3[18];
    uint16_t jt[24];
    for (uint32_t row = 0; row < 2; row++)
        for (uint32_t c = 0; c < cols; c++) {
            uint32_t v = row * cols + c;
            pos[3 * v] = xs[c];
            pos[3 * v + 1] = (float)row;
            pos[3 * v + 2] = 0;
            uv[2 * v] = xs[c] / 2 * uv_u_factor;
            uv[2 * v + 1] = (float)row;
            float wc = xs[c] / 2; /* root 1 - x/2, child x/2 */
            jt[4 * v] = 0;
            jt[4 * v + 1] = 1;
            jt[4 * v + 2] = jt[4 * v + 3] = 0;
            w[4 * v] = 1 - wc;
            w[4 * v + 1] = wc;
            w[4 * v + 2] = w[4 * v + 3] = 0;
            zero3[3 * v] = 0;
            zero3[3 * v + 1] = 0;
            zero3[3 * v + 2] = 0.1f;
        }
    uint16_t idx[12];
    uint32_t nt = 0;
    for (uint32_t c = 0; c + 1 < cols; c++) {
        uint16_t a = (uint16_t)c, b = (uint16_t)(c + 1), d = (uint16_t)(cols + c + 1),
                 e = (uint16_t)(cols + c);
        idx[3 * nt] = a, idx[3 * nt + 1] = b, idx[3 * nt + 2] = d, nt++;
        idx[3 * nt] = a, idx[3 * nt + 1] = d, idx[3 * nt + 2] = e, nt++;
    }
    const float ibm[32] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
                           1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -1, 0, 0, 1};
    const float times[2] = {0, clip_end};
    const float s45 = (float)sqrt(0.5);
    const float rots[8] = {0, 0, 0, 1, 0, 0, s45, s45};
    const float mw[2] = {0, 1};
    sink s = {.len = 0};
    size_t o_pos = put_floats(&s, pos, 3 * nv);
    size_t o_uv = put_floats(&s, uv, 2 * nv);
    size_t o_w = put_floats(&s, w, 4 * nv);
    size_t o_j = put_u16(&s, jt, 4 * nv);
    size_t o_i = put_u16(&s, idx, 3 * nt);
    size_t o_ibm = put_floats(&s, ibm, 32);
    size_t o_t = put_floats(&s, times, 2);
    size_t o_r = put_floats(&s, rots, 8);
    size_t o_mt = put_floats(&s, zero3, 3 * nv);
    size_t o_mw = put_floats(&s, mw, 2);
    anim_strbuf b64 = ANIM_STRBUF_INIT;
    anim_base64_append(&b64, s.bytes, s.len);
    char *json = malloc(16384);
    snprintf(
        json, 16384,
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,2]}],"
        "\"nodes\":[{\"name\":\"root\",\"children\":[1]},"
        "{\"name\":\"child\",\"translation\":[1,0,0]%s},"
        "{\"name\":\"strip\",\"mesh\":0,\"skin\":0}],"
        "\"skins\":[{\"joints\":%s,\"inverseBindMatrices\":5}],"
        "\"meshes\":[{\"name\":\"Strip\",\"primitives\":[{\"attributes\":{\"POSITION\":0,"
        "%s\"WEIGHTS_0\":2,\"JOINTS_0\":3},\"indices\":4%s}]}],"
        "\"animations\":[{\"name\":\"bend\",\"samplers\":[{\"input\":6,\"output\":7}%s],"
        "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"rotation\"}}%s]}],"
        "\"accessors\":["
        "{\"bufferView\":0,\"componentType\":5126,\"count\":%u,\"type\":\"VEC3\","
        "\"min\":[0,0,0],\"max\":[2,1,0]},"
        "{\"bufferView\":1,\"componentType\":5126,\"count\":%u,\"type\":\"VEC2\"},"
        "{\"bufferView\":2,\"componentType\":5126,\"count\":%u,\"type\":\"VEC4\"},"
        "{\"bufferView\":3,\"componentType\":5123,\"count\":%u,\"type\":\"VEC4\"},"
        "{\"bufferView\":4,\"componentType\":5123,\"count\":%u,\"type\":\"SCALAR\"},"
        "{\"bufferView\":5,\"componentType\":5126,\"count\":2,\"type\":\"MAT4\"},"
        "{\"bufferView\":6,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\","
        "\"min\":[0],\"max\":[1]},"
        "{\"bufferView\":7,\"componentType\":5126,\"count\":2,\"type\":\"VEC4\"},"
        "{\"bufferView\":8,\"componentType\":5126,\"count\":%u,\"type\":\"VEC3\","
        "\"min\":[0,0,0.1],\"max\":[0,0,0.1]},"
        "{\"bufferView\":9,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"}],"
        "\"bufferViews\":["
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%u},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%u},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%u},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%u},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%u},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":128},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":8},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":32},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%u},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":8}],"
        "\"buffers\":[{\"byteLength\":%zu,"
        "\"uri\":\"data:application/octet-stream;base64,%s\"}]}",
        child_extra, skin_joints, uv_attribute, morph ? ",\"targets\":[{\"POSITION\":8}]" : "",
        morph ? ",{\"input\":6,\"output\":9}" : "",
        morph ? ",{\"sampler\":1,\"target\":{\"node\":2,\"path\":\"weights\"}}" : "", nv, nv, nv,
        nv, 3 * nt, nv, o_pos, 12 * nv, o_uv, 8 * nv, o_w, 16 * nv, o_j, 8 * nv, o_i, 6 * nt,
        o_ibm, o_t, o_r, o_mt, 12 * nv, o_mw, s.len, b64.data);
    anim_strbuf_free(&b64);
    return json;
}

static anim_asset *load(const char *json, const char *name)
{
    anim_error err;
    anim_error_clear(&err);
    anim_asset *a = anim_asset_load_memory(json, strlen(json), false, NULL, name, NULL, &err);
    if (!a)
        fprintf(stderr, "load %s: %s\n", name, err.message);
    assert_non_null(a);
    return a;
}

typedef struct run {
    anim_asset *source, *candidate;
    anim_arena *arena;
    anim_mq_gltf_result result;
    anim_mq_gltf_options options;
    int rc;
    anim_error err;
} run;

static void measure(run *r, bool coarse, bool morph, const char *envelope_path)
{
    char *sj = strip_gltf(false, morph), *cj = strip_gltf(coarse, false);
    r->source = load(sj, "strip.gltf");
    r->candidate = load(cj, "lod.gltf");
    free(sj);
    free(cj);
    r->arena = anim_arena_new();
    memset(&r->options, 0, sizeof r->options);
    r->options.source_path = "strip.gltf";
    r->options.candidate_path = "lod.gltf";
    r->options.envelope_path = envelope_path;
    r->options.envelope_from_clips = envelope_path == NULL;
    anim_error_clear(&r->err);
    r->rc = anim_mq_gltf_residual(r->source, r->candidate, &r->options, r->arena, &r->result,
                                  &r->err);
}

static void done(run *r)
{
    anim_arena_free(r->arena);
    anim_asset_free(r->source);
    anim_asset_free(r->candidate);
}

static void test_identical_reads_zero(void **state)
{
    (void)state;
    run r;
    measure(&r, false, false, NULL);
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.result.row_count, 1);
    const anim_mq_gltf_row *row = &r.result.rows[0];
    assert_string_equal(row->mesh_name, "Strip");
    assert_string_equal(row->reference, "root");
    assert_int_equal(row->reading.state, ANIM_MQ_MEASURED);
    assert_true(row->reading.value == 0);
    assert_int_equal(row->reading.worst_sample, ANIM_MQ_NONE);
    assert_int_equal(row->reading.samples, 6);
    assert_int_equal(row->source_triangles, 4);
    assert_int_equal(row->candidate_triangles, 4);
    assert_non_null(row->source_digest);
    assert_int_equal(strncmp(row->source_digest, "sha256:", 7), 0);
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_mq_outcome oc;
    anim_mq_gltf_report(&r.options, &r.result, true, &out, &oc);
    assert_non_null(strstr(out.data, "\"schema\": \"mesh-quality-report/1\""));
    assert_non_null(strstr(out.data, "\"worst\": null"));
    assert_non_null(strstr(out.data, "\"at\": {}"));
    assert_non_null(strstr(out.data, "\"envelopeFrom\": \"clips\""));
    assert_int_equal(oc.undeclared, 1);
    anim_strbuf_free(&out);
    done(&r);
}

static void test_coarse_strip_reads_the_moment(void **state)
{
    (void)state;
    run r;
    measure(&r, true, false, NULL);
    assert_int_equal(r.rc, 0);
    const anim_mq_gltf_row *row = &r.result.rows[0];
    assert_int_equal(row->reading.state, ANIM_MQ_MEASURED);
    assert_int_equal(row->candidate_triangles, 2);
    /* sqrt 2 * |(0.5, 0, 0)|, rounded to 6 decimals. */
    assert_true(fabs(row->reading.value - anim_mq_r6(sqrt(2.0) * 0.5)) < 1e-12);
    assert_true(fabs(row->reading.value - 0.707107) < 1e-12);
    assert_true(fabs(row->reading.worst_lever) < 1e-12);
    assert_int_equal(row->samples[row->reading.worst_sample].vertex, 1);
    r.options.has_max_residual = true;
    r.options.max_residual = 0.5;
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_mq_outcome oc;
    anim_mq_gltf_report(&r.options, &r.result, false, &out, &oc);
    assert_string_equal(out.data, "mesh 'Strip': 0.707107 m (covariance 0.707107, lever 0) at "
                                  "vertex 1 of 6 samples; bound 0.5 m: fail\n");
    assert_int_equal(oc.failed, 1);
    anim_strbuf_reset(&out);
    anim_mq_gltf_report(&r.options, &r.result, true, &out, &oc);
    assert_non_null(strstr(out.data, "\"vertex\": 1"));
    anim_strbuf_free(&out);
    done(&r);
}

/* A 4 x 4 grid: every texel centre lies inside exactly one triangle of
 * the strip (none is on an edge), so 16 art samples beside the 6
 * vertices, and the strip against itself still reads 0. */
static void test_uv_grid_texels(void **state)
{
    (void)state;
    char *json = strip_gltf(false, false);
    anim_asset *a = load(json, "strip.gltf");
    anim_asset *b = load(json, "lod.gltf");
    free(json);
    anim_arena *arena = anim_arena_new();
    anim_mq_gltf_options o;
    memset(&o, 0, sizeof o);
    o.envelope_from_clips = true;
    o.uv_grid = 4;
    anim_mq_gltf_result res;
    anim_error err;
    assert_int_equal(anim_mq_gltf_residual(a, b, &o, arena, &res, &err), 0);
    assert_int_equal(res.rows[0].reading.art, 16);
    assert_int_equal(res.rows[0].reading.samples, 22);
    assert_true(res.rows[0].reading.value == 0);
    /* A budget below the samples is refused before they are allocated. */
    o.max_samples = 10;
    assert_int_equal(anim_mq_gltf_residual(a, b, &o, arena, &res, &err), -1);
    assert_int_equal(err.code, ANIM_ERR_LIMIT);
    assert_non_null(strstr(err.message, "--uv-grid"));
    anim_arena_free(arena);
    anim_asset_free(a);
    anim_asset_free(b);
}

static void test_animated_morph_refuses(void **state)
{
    (void)state;
    run r;
    measure(&r, false, true, NULL);
    assert_int_equal(r.rc, 0);
    const anim_mq_gltf_row *row = &r.result.rows[0];
    assert_int_equal(row->reading.state, ANIM_MQ_REFUSED);
    assert_string_equal(row->reading.code, "SKINNING_DEFORM_UNSUPPORTED");
    assert_non_null(strstr(row->reading.reason, "clip 'bend'"));
    assert_non_null(strstr(row->reading.reason, "mesh 'Strip'"));
    done(&r);
}

static void test_envelope_from_clip_quarter_turn(void **state)
{
    (void)state;
    char *json = strip_gltf(false, false);
    anim_asset *a = load(json, "strip.gltf");
    free(json);
    anim_arena *arena = anim_arena_new();
    anim_error err;
    anim_error_clear(&err);
    mq_gltf_mesh mesh;
    assert_int_equal(mq_gltf_mesh_build(a, 0, ANIM_NONE, "strip.gltf", arena, &mesh, &err), 0);
    /* The child's pivot is its joint at bind. */
    assert_true(fabs(mesh.pivots[3] - 1) < 1e-12 && fabs(mesh.pivots[4]) < 1e-12);
    mq_named_envelope env;
    const char *refusal = NULL;
    assert_int_equal(
        mq_gltf_envelope_from_clips(a, &mesh, "mesh 'Strip'", arena, &env, &refusal, &err), 0);
    assert_null(refusal);
    assert_string_equal(env.reference, "root");
    assert_int_equal(env.bone_count, 1);
    assert_string_equal(env.bones[0].bone, "child");
    assert_true(fabs(env.bones[0].linear - 2 * sin(3.14159265358979323846 / 4)) < 1e-12);
    assert_true(fabs(env.bones[0].pivot[0] - 1) < 1e-12);
    assert_true(fabs(env.bones[0].translation) < 1e-12);
    anim_arena_free(arena);
    anim_asset_free(a);
}

/* A non-uniform rest scale on the chain refuses the row by the bone's
 * name: the bone's motion is then no rotation and scale of bind space. */
static void test_nonuniform_rest_scale_refuses(void **state)
{
    (void)state;
    child_extra = ",\"scale\":[1,1,1.5]";
    run r;
    measure(&r, true, false, NULL);
    child_extra = "";
    assert_int_equal(r.rc, 0);
    const anim_mq_gltf_row *row = &r.result.rows[0];
    assert_int_equal(row->reading.state, ANIM_MQ_REFUSED);
    assert_string_equal(row->reading.code, "SKINNING_RANGE_UNSUPPORTED");
    assert_non_null(strstr(row->reading.reason, "bone 'child'"));
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_mq_outcome oc;
    anim_mq_gltf_report(&r.options, &r.result, false, &out, &oc);
    assert_int_equal(strncmp(out.data, "mesh 'Strip': refused: SKINNING_RANGE_UNSUPPORTED: ", 51), 0);
    assert_int_equal(oc.refused, 1);
    anim_strbuf_free(&out);
    done(&r);
}

/* Exporters store a rest scale of 1 as 1.0000049 (float32 noise of a
 * decomposed matrix): that reads as uniform; 1.0001 does not. */
static void test_rest_scale_noise_reads_uniform(void **state)
{
    (void)state;
    child_extra = ",\"scale\":[1.0000049,1,1.0000002]";
    run r;
    measure(&r, true, false, NULL);
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.result.rows[0].reading.state, ANIM_MQ_MEASURED);
    done(&r);
    child_extra = ",\"scale\":[1.0001,1,1]";
    measure(&r, true, false, NULL);
    child_extra = "";
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.result.rows[0].reading.state, ANIM_MQ_REFUSED);
    assert_string_equal(r.result.rows[0].reading.code, "SKINNING_RANGE_UNSUPPORTED");
    done(&r);
}

/* A skin listing one node twice (here the reference, so the chain of
 * the second joint to it is empty) is refused by name, not read past. */
static void test_joint_listed_twice_refuses(void **state)
{
    (void)state;
    skin_joints = "[0,0]";
    run r;
    measure(&r, true, false, NULL);
    skin_joints = "[0,1]";
    assert_int_equal(r.rc, 0);
    const anim_mq_gltf_row *row = &r.result.rows[0];
    assert_int_equal(row->reading.state, ANIM_MQ_REFUSED);
    assert_string_equal(row->reading.code, "SKINNING_RANGE_UNSUPPORTED");
    assert_non_null(strstr(row->reading.reason, "joint 1 ('root') lists a node the skin already"));
    done(&r);
}

/* A clip lasting 1e30 s asks for more sample times than the budget: an
 * error naming the budget, checked before the count is converted. */
static void test_endless_clip_is_over_budget(void **state)
{
    (void)state;
    clip_end = 1e30f;
    run r;
    measure(&r, true, false, NULL);
    clip_end = 1;
    assert_int_equal(r.rc, -1);
    assert_non_null(strstr(r.err.message, "the sample times of a clip for --envelope-from-clips"));
    done(&r);
}

/* A mesh without TEXCOORD_0 has nothing to sample: its row is not
 * measurable, named, and the others (here none) are still measured. */
static void test_uvless_mesh_is_not_measurable(void **state)
{
    (void)state;
    uv_attribute = "";
    run r;
    measure(&r, false, false, NULL);
    uv_attribute = "\"TEXCOORD_0\":1,";
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.result.row_count, 1);
    const anim_mq_gltf_row *row = &r.result.rows[0];
    assert_int_equal(row->reading.state, ANIM_MQ_NOT_MEASURABLE);
    assert_non_null(strstr(row->reading.reason, "mesh 'Strip': primitive 0 has no TEXCOORD_0"));
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_mq_outcome oc;
    anim_mq_gltf_report(&r.options, &r.result, false, &out, &oc);
    assert_int_equal(strncmp(out.data, "mesh 'Strip': not measurable: ", 30), 0);
    assert_int_equal(oc.not_measurable, 1);
    anim_strbuf_reset(&out);
    anim_mq_gltf_report(&r.options, &r.result, true, &out, &oc);
    assert_non_null(strstr(out.data, "\"state\": \"not-measurable\""));
    anim_strbuf_free(&out);
    done(&r);
}

static size_t count_of(const char *text, const char *part)
{
    size_t n = 0;
    for (const char *p = strstr(text, part); p; p = strstr(p + 1, part))
        n++;
    return n;
}

/* A candidate whose layout covers half the texture leaves a texture's
 * worth of samples uncarried: the row lists the first 32 and counts all. */
static void test_uncarried_listed_up_to_a_cap(void **state)
{
    (void)state;
    char *sj = strip_gltf(false, false);
    uv_u_factor = 0.5f;
    char *cj = strip_gltf(false, false);
    uv_u_factor = 1;
    anim_asset *a = load(sj, "strip.gltf");
    anim_asset *b = load(cj, "lod.gltf");
    free(sj);
    free(cj);
    anim_arena *arena = anim_arena_new();
    anim_mq_gltf_options o;
    memset(&o, 0, sizeof o);
    o.envelope_from_clips = true;
    o.uv_grid = 32;
    o.source_path = "strip.gltf";
    anim_mq_gltf_result res;
    anim_error err;
    assert_int_equal(anim_mq_gltf_residual(a, b, &o, arena, &res, &err), 0);
    const anim_mq_reading *rd = &res.rows[0].reading;
    assert_int_equal(rd->state, ANIM_MQ_MEASURED);
    assert_true(rd->uncarried_candidate_count > 32);
    anim_strbuf out = ANIM_STRBUF_INIT;
    anim_mq_outcome oc;
    anim_mq_gltf_report(&o, &res, true, &out, &oc);
    char expect[64];
    snprintf(expect, sizeof expect, "\"candidateCount\": %llu",
             (unsigned long long)rd->uncarried_candidate_count);
    assert_non_null(strstr(out.data, expect));
    assert_non_null(strstr(out.data, "\"sourceCount\": 0"));
    /* The candidate list: from its key to the closing of "uncarried". */
    const char *list = strstr(out.data, "\"candidate\": [");
    assert_non_null(list);
    const char *end = strstr(list, "\"sourceCount\"");
    assert_non_null(end);
    size_t len = (size_t)(end - list);
    char *slice = strndup(list, len);
    /* Each listed UV is a two-number array: count their openings. */
    assert_int_equal(count_of(slice, "[") - 1, 32);
    free(slice);
    anim_strbuf_free(&out);
    anim_arena_free(arena);
    anim_asset_free(a);
    anim_asset_free(b);
}

static char *write_temp(const char *text)
{
    char *path = strdup("/tmp/meshq_envelope_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

static void test_toml_envelope(void **state)
{
    (void)state;
    char *path = write_temp("reference = \"root\"\n[[bone]]\nbone = \"child\"\nlinear = 1.4142135623730951\n"
                            "pivot = [1, 0, 0]\ntranslation = 0\n");
    run r;
    measure(&r, true, false, path);
    assert_int_equal(r.rc, 0);
    assert_true(fabs(r.result.rows[0].reading.value - 0.707107) < 1e-12);
    done(&r);
    unlink(path);
    free(path);

    path = write_temp("reference = \"root\"\n[[bone]]\nbone = \"child\"\nlinear = 1\n"
                      "pivot = [1, 0, 0]\n");
    measure(&r, true, false, path);
    assert_int_equal(r.rc, -1);
    assert_non_null(strstr(r.err.message, path));
    assert_non_null(strstr(r.err.message, "[[bone]] 0"));
    assert_non_null(strstr(r.err.message, "'translation'"));
    done(&r);
    unlink(path);
    free(path);

    path = write_temp("reference = \"root\"\n[[bone]]\nbone = \"child\"\nlinear = 1\n"
                      "pivot = [1, 0, 0]\ntranslation = 0\ntranslate = 0\n");
    measure(&r, true, false, path);
    assert_int_equal(r.rc, -1);
    assert_non_null(strstr(r.err.message, "'translate'"));
    done(&r);
    unlink(path);
    free(path);
}

static void test_image_size_headers(void **state)
{
    (void)state;
    static const uint8_t png[24] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13,
                                    'I', 'H', 'D', 'R', 0, 0, 2, 0, 0, 0, 1, 0};
    uint32_t w = 0, h = 0;
    assert_true(mq_image_size(png, sizeof png, &w, &h));
    assert_int_equal(w, 512);
    assert_int_equal(h, 256);
    static const uint8_t jpeg[] = {0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc2, 0, 17,
                                   8,    0x01, 0x2c, 0x02, 0x00};
    assert_true(mq_image_size(jpeg, sizeof jpeg, &w, &h));
    assert_int_equal(w, 512);
    assert_int_equal(h, 300);
    assert_false(mq_image_size(jpeg, 10, &w, &h));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identical_reads_zero),
        cmocka_unit_test(test_coarse_strip_reads_the_moment),
        cmocka_unit_test(test_uv_grid_texels),
        cmocka_unit_test(test_animated_morph_refuses),
        cmocka_unit_test(test_envelope_from_clip_quarter_turn),
        cmocka_unit_test(test_nonuniform_rest_scale_refuses),
        cmocka_unit_test(test_rest_scale_noise_reads_uniform),
        cmocka_unit_test(test_uvless_mesh_is_not_measurable),
        cmocka_unit_test(test_joint_listed_twice_refuses),
        cmocka_unit_test(test_endless_clip_is_over_budget),
        cmocka_unit_test(test_uncarried_listed_up_to_a_cap),
        cmocka_unit_test(test_toml_envelope),
        cmocka_unit_test(test_image_size_headers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
