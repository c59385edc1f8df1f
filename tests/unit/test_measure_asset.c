/* Static asset evidence: linear classification, a
 * built glTF with meshes, skins, materials and every image source kind,
 * the example assets (no meshes), and real corpus characters (skipped
 * without the corpus). The JSON is parsed back and read by path, so the
 * tests pin names, order-independent values and presence rules; member
 * order is pinned once on the full object. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "animsmith/gltf.h"
#include "animsmith/json.h"
#include "animsmith/json_write.h"
#include "animsmith/measure_asset.h"
#include "animsmith/strbuf.h"
#include "support/test_support.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#define STBI_WRITE_NO_STDIO
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include <stb/stb_image_write.h>

/* ---- helpers --------------------------------------------------------- */

typedef struct {
    uint8_t b[2048];
    size_t n;
} blob;

static size_t put(blob *bl, const void *p, size_t n)
{
    while (bl->n % 4)
        bl->b[bl->n++] = 0;
    assert_true(bl->n + n <= sizeof bl->b);
    size_t at = bl->n;
    memcpy(bl->b + at, p, n);
    bl->n += n;
    return at;
}

static void png_sink(void *ctx, void *data, int size)
{
    anim_strbuf *sb = ctx;
    anim_strbuf_append(sb, data, (size_t)size);
}

/* Measured asset written as one JSON object and parsed back. */
typedef struct {
    anim_asset *asset;
    anim_arena *arena;
    anim_asset_measurements m;
    anim_strbuf text;
    anim_json_value *root;
} measured;

static void measure_and_parse(anim_asset *asset, measured *out)
{
    anim_error err;
    anim_error_clear(&err);
    out->asset = asset;
    out->arena = anim_arena_new();
    assert_non_null(out->arena);
    int rc = anim_measure_asset(asset, out->arena, &out->m, &err);
    if (rc)
        fail_msg("%s", err.message);
    anim_strbuf text = ANIM_STRBUF_INIT;
    anim_json_writer w;
    anim_json_writer_init(&w, &text, false);
    anim_json_writer_begin_object(&w);
    rc = anim_asset_measurements_write_json(&out->m, &w, &err);
    if (rc)
        fail_msg("%s", err.message);
    anim_json_writer_end_object(&w);
    assert_true(anim_json_writer_ok(&w));
    out->text = text;
    out->root = anim_json_parse(out->arena, text.data, text.len, NULL, &err);
    if (!out->root)
        fail_msg("output is not JSON: %s\n%s", err.message, text.data);
}

static void measured_free(measured *m)
{
    anim_strbuf_free(&m->text);
    anim_arena_free(m->arena);
    anim_asset_free(m->asset);
}

/* Path lookup: "skins.0.joints.1.node_index" (numbers index arrays). */
static const anim_json_value *at(const anim_json_value *v, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *tok = strtok(buf, "."); tok && v; tok = strtok(NULL, ".")) {
        if (v->type == ANIM_JSON_ARRAY) {
            size_t i = (size_t)strtoul(tok, NULL, 10);
            v = i < anim_json_count(v) ? anim_json_item(v, i) : NULL;
        } else {
            v = anim_json_get(v, tok);
        }
    }
    return v;
}

static double num(const anim_json_value *root, const char *path)
{
    const anim_json_value *v = at(root, path);
    if (!v || v->type != ANIM_JSON_NUMBER)
        fail_msg("%s is not a number", path);
    return anim_json_number(v);
}

static void expect_str(const anim_json_value *root, const char *path, const char *want)
{
    const anim_json_value *v = at(root, path);
    if (!v || !anim_json_string_eq(v, want))
        fail_msg("%s: expected \"%s\"", path, want);
}

static void expect_absent(const anim_json_value *root, const char *path)
{
    if (at(root, path))
        fail_msg("%s should be absent", path);
}

static size_t count(const anim_json_value *root, const char *path)
{
    const anim_json_value *v = at(root, path);
    if (!v || v->type != ANIM_JSON_ARRAY)
        fail_msg("%s is not an array", path);
    return anim_json_count(v);
}

static void expect_vec(const anim_json_value *root, const char *path, const double *want,
                       size_t n, double tol)
{
    assert_int_equal(count(root, path), n);
    for (size_t i = 0; i < n; i++) {
        char p[256];
        snprintf(p, sizeof p, "%s.%zu", path, i);
        double got = num(root, p);
        if (fabs(got - want[i]) > tol)
            fail_msg("%s = %.17g, expected %.17g", p, got, want[i]);
    }
}

/* ---- linear classification ------------------------------------------- */

static void mat_diag(float *m, float x, float y, float z)
{
    memset(m, 0, 16 * sizeof *m);
    m[0] = x;
    m[5] = y;
    m[10] = z;
    m[15] = 1.0f;
}

static void test_linear_classes(void **state)
{
    (void)state;
    float m[16];
    anim_linear_facts f;

    mat_diag(m, 1, 1, 1);
    m[12] = 4.0f; /* translation is not part of the linear facts */
    anim_linear_facts_classify(m, &f);
    assert_int_equal(f.classification, ANIM_LINEAR_UNIT_ORTHONORMAL);
    assert_true(f.has_rotation && f.has_uniform_scale);
    assert_true(f.rotation_xyzw[3] == 1.0 && f.rotation_xyzw[0] == 0.0);
    assert_string_equal(anim_linear_orientation_name(f.orientation), "positive");

    mat_diag(m, 2, 2, 2);
    anim_linear_facts_classify(m, &f);
    assert_int_equal(f.classification, ANIM_LINEAR_UNIFORM_SCALED);
    assert_false(f.has_rotation);
    assert_true(f.uniform_scale == 2.0 && f.determinant == 8.0);

    /* The 1.0, 1.0, 1.000012 case: within the relative 1e-5 band of the
     * mean, in any axis order. */
    mat_diag(m, 1.0f, 1.000012f, 1.0f);
    anim_linear_facts_classify(m, &f);
    assert_int_equal(f.classification, ANIM_LINEAR_UNIT_ORTHONORMAL);

    mat_diag(m, 1, 2, 3);
    anim_linear_facts_classify(m, &f);
    assert_int_equal(f.classification, ANIM_LINEAR_NON_UNIFORM);
    assert_false(f.has_uniform_scale);

    mat_diag(m, 1, 1, 1);
    m[4] = 0.5f; /* y axis leans on x */
    anim_linear_facts_classify(m, &f);
    assert_int_equal(f.classification, ANIM_LINEAR_SHEARED);

    mat_diag(m, -1, 1, 1);
    anim_linear_facts_classify(m, &f);
    assert_int_equal(f.classification, ANIM_LINEAR_REFLECTED);
    assert_string_equal(anim_linear_orientation_name(f.orientation), "negative");
    assert_true(f.has_uniform_scale && f.uniform_scale == 1.0);
    assert_false(f.has_rotation);

    mat_diag(m, 1, 1, 0);
    anim_linear_facts_classify(m, &f);
    assert_int_equal(f.classification, ANIM_LINEAR_SINGULAR);
    assert_string_equal(anim_linear_orientation_name(f.orientation), "zero");

    mat_diag(m, 1, 1, 1);
    m[9] = NAN;
    anim_linear_facts_classify(m, &f);
    assert_int_equal(f.classification, ANIM_LINEAR_NON_FINITE);
    assert_string_equal(anim_linear_class_name(f.classification), "non_finite");

    /* 90 degrees about +Y: x -> -z, z -> x. */
    mat_diag(m, 0, 1, 0);
    m[2] = -1.0f;
    m[8] = 1.0f;
    anim_linear_facts_classify(m, &f);
    assert_int_equal(f.classification, ANIM_LINEAR_UNIT_ORTHONORMAL);
    assert_true(fabs(f.rotation_xyzw[1] - sqrt(0.5)) < 1e-12);
    assert_true(fabs(f.rotation_xyzw[3] - sqrt(0.5)) < 1e-12);

    /* Half turn about X: w = 0, the largest component (x) is made
     * non-negative whatever branch produced it. */
    mat_diag(m, 1, -1, -1);
    anim_linear_facts_classify(m, &f);
    assert_int_equal(f.classification, ANIM_LINEAR_UNIT_ORTHONORMAL);
    assert_true(f.rotation_xyzw[0] == 1.0);
    assert_true(f.rotation_xyzw[1] == 0.0 && f.rotation_xyzw[2] == 0.0 &&
                f.rotation_xyzw[3] == 0.0);

    /* A slightly scaled rotation still yields the nearest rotation. */
    mat_diag(m, 0, 1.000001f, 0);
    m[2] = -1.0f;
    m[8] = 1.0f;
    anim_linear_facts_classify(m, &f);
    assert_int_equal(f.classification, ANIM_LINEAR_UNIT_ORTHONORMAL);
    assert_true(fabs(f.rotation_xyzw[1] - sqrt(0.5)) < 1e-9);
}

/* ---- a built document with everything --------------------------------- */

static void matrix_identity(float *m)
{
    mat_diag(m, 1, 1, 1);
}

static char *tmpdir_path;

static void make_tmpdir(void)
{
    static char tmpl[] = "/tmp/animsmith-measure-asset-XXXXXX";
    if (!tmpdir_path) {
        tmpdir_path = mkdtemp(tmpl);
        assert_non_null(tmpdir_path);
    }
}

static void write_file(const char *dir, const char *name, const void *p, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    fclose(f);
}

static anim_asset *built_asset(void)
{
    make_tmpdir();
    blob bl = {{0}, 0};
    float nan = NAN;
    float pos[12] = {0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0};
    pos[9] = nan;
    size_t o_pos = put(&bl, pos, sizeof pos);
    uint8_t joints[16] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};
    size_t o_joints = put(&bl, joints, sizeof joints);
    float weights[16] = {1, 0, 0, 0, 0.5f, 0.5f, 0, 0, 0.25f, 0.25f, 0.25f, 0.25f, 0.5f, 0.4f, 0, 0};
    size_t o_weights = put(&bl, weights, sizeof weights);
    uint16_t idx[3] = {0, 1, 2};
    size_t o_idx = put(&bl, idx, sizeof idx);
    float ibm[64];
    matrix_identity(ibm);
    ibm[13] = -3.0f; /* T(0, -3, 0) */
    mat_diag(ibm + 16, 1, 1, 0);     /* singular */
    mat_diag(ibm + 32, 1, 1, 1e-7f); /* ill-conditioned */
    matrix_identity(ibm + 48);
    ibm[48 + 3] = 0.5f; /* projective bottom row */
    size_t o_ibm = put(&bl, ibm, sizeof ibm);
    static const uint8_t gif[20] = "GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!";
    size_t o_gif = put(&bl, gif, sizeof gif);
    char *buf64 = test_support_base64(bl.b, bl.n);

    /* A real 2x1 RGBA PNG. */
    anim_strbuf png = ANIM_STRBUF_INIT;
    const uint8_t px[8] = {255, 0, 0, 255, 0, 255, 0, 128};
    assert_true(stbi_write_png_to_func(png_sink, &png, 2, 1, 4, px, 8) != 0);
    char *png64 = test_support_base64(png.data, png.len);
    anim_strbuf_free(&png);

    /* External: a 3x5 16-bit greyscale PNG header (only the header is
     * decoded, so the IHDR is all the file needs). */
    const uint8_t grey16[33] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13,
                                'I', 'H', 'D', 'R', 0, 0, 0, 3, 0, 0, 0, 5, 16, 0, 0, 0, 0,
                                0, 0, 0, 0};
    write_file(tmpdir_path, "tex.png", grey16, sizeof grey16);
    const uint8_t jpeg_junk[8] = {0xff, 0xd8, 0xff, 0xe0, 0x00, 0x02, 0x00, 0x00};
    char *jpeg64 = test_support_base64(jpeg_junk, sizeof jpeg_junk);
    /* A Huffman table declaring 16 x 255 codes: stb_image 2.27 would write
     * them past its 257-entry tables (the guard must refuse it first). */
    uint8_t jpeg_dht[4 + 2 + 1 + 16 + 8] = {0xff, 0xd8, 0xff, 0xc4, 0x00, 0x13, 0x00};
    memset(jpeg_dht + 7, 0xff, 16);
    char *dht64 = test_support_base64(jpeg_dht, sizeof jpeg_dht);

    anim_strbuf j = ANIM_STRBUF_INIT;
    anim_strbuf_printf(&j,
        "{\"asset\":{\"version\":\"2.0\"},"
        "\"buffers\":[{\"byteLength\":%zu,\"uri\":\"data:application/octet-stream;base64,%s\"}],"
        "\"bufferViews\":["
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":16},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":64},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":6},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":256},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":20}],",
        bl.n, buf64, o_pos, o_joints, o_weights, o_idx, o_ibm, o_gif);
    anim_strbuf_puts(&j,
        "\"accessors\":["
        "{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
        "{\"bufferView\":1,\"componentType\":5121,\"count\":4,\"type\":\"VEC4\"},"
        "{\"bufferView\":2,\"componentType\":5126,\"count\":4,\"type\":\"VEC4\"},"
        "{\"bufferView\":3,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"},"
        "{\"bufferView\":4,\"componentType\":5126,\"count\":4,\"type\":\"MAT4\"},"
        "{\"bufferView\":1,\"componentType\":5121,\"count\":4,\"type\":\"VEC4\"}],"
        "\"meshes\":["
        "{\"name\":\"body\",\"primitives\":["
        "{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":1,\"WEIGHTS_0\":2,\"JOINTS_1\":5},"
        "\"indices\":3,\"material\":0},"
        "{\"attributes\":{\"POSITION\":0},\"mode\":1},"
        "{\"attributes\":{\"POSITION\":0,\"WEIGHTS_2\":2}}]},"
        "{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"material\":1}]},"
        "{\"name\":\"lines\",\"primitives\":[{\"attributes\":{\"POSITION\":0},\"mode\":1}]}],"
        "\"nodes\":["
        "{\"name\":\"root\",\"translation\":[10,0,0],\"scale\":[2,2,2],\"children\":[1,2,3,5,6,7]},"
        "{\"name\":\"body\",\"mesh\":0,\"skin\":0},"
        "{\"name\":\"prop\",\"mesh\":1,\"translation\":[0,0,1]},"
        "{\"name\":\"joint_a\",\"translation\":[0,3,0]},"
        "{\"mesh\":1,\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,5,0,0,1]},"
        "{\"name\":\"joint_b\"},{\"name\":\"joint_c\"},{\"name\":\"joint_d\"},"
        "{\"name\":\"wire\",\"mesh\":2}],"
        "\"skins\":[{\"name\":\"main\",\"joints\":[3,5,6,7],\"inverseBindMatrices\":4,"
        "\"skeleton\":0},{\"joints\":[3]}],"
        "\"scenes\":[{\"name\":\"main\",\"nodes\":[0]},{\"nodes\":[0,4]}],\"scene\":0,"
        "\"materials\":["
        "{\"name\":\"skin_mat\",\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}},"
        "\"normalTexture\":{\"index\":1},\"emissiveTexture\":{\"index\":1}},"
        "{\"emissiveTexture\":{\"index\":0}}],"
        "\"textures\":[{\"source\":0},{\"source\":2},{\"name\":\"t2\",\"source\":1},"
        "{\"source\":3},{\"source\":4},{\"source\":5}],");
    anim_strbuf_printf(&j,
        "\"images\":["
        "{\"name\":\"albedo\",\"uri\":\"data:image/png;base64,%s\"},"
        "{\"bufferView\":5,\"mimeType\":\"image/gif\"},"
        "{\"uri\":\"tex.png\",\"mimeType\":\"image/png\"},"
        "{\"uri\":\"../escape.png\"},"
        "{\"uri\":\"data:image/png;base64,@@@@\"},"
        "{\"uri\":\"data:image/jpeg;base64,%s\"},"
        "{\"uri\":\"data:image/jpeg;base64,%s\"}]}",
        png64, jpeg64, dht64);
    free(buf64);
    free(png64);
    free(jpeg64);
    free(dht64);
    char display[512];
    snprintf(display, sizeof display, "%s/model.gltf", tmpdir_path);
    anim_error err;
    anim_error_clear(&err);
    anim_asset *asset = anim_asset_load_memory(j.data, j.len, false, tmpdir_path, display, NULL,
                                               &err);
    anim_strbuf_free(&j);
    if (!asset)
        fail_msg("load: %s", err.message);
    return asset;
}

static void test_built_meshes(void **state)
{
    (void)state;
    measured mz;
    measure_and_parse(built_asset(), &mz);
    const anim_json_value *r = mz.root;

    /* Mesh 2 has only a line primitive: no definition, no instance. */
    assert_int_equal(count(r, "mesh_definitions"), 2);
    assert_int_equal(num(r, "mesh_definitions.0.mesh_index"), 0);
    expect_str(r, "mesh_definitions.0.name", "body");
    expect_str(r, "mesh_definitions.1.name", "mesh");
    assert_int_equal(num(r, "mesh_definitions.0.vertex_count"), 8);
    const double bmin[3] = {0, 0, 0}, bmax[3] = {1, 2, 0};
    expect_vec(r, "mesh_definitions.0.geometry_aabb.min", bmin, 3, 0);
    expect_vec(r, "mesh_definitions.0.geometry_aabb.max", bmax, 3, 0);
    const double centroid[3] = {(double)(float)(1.0 / 3.0), (double)(float)(2.0 / 3.0), 0};
    expect_vec(r, "mesh_definitions.0.geometry_centroid", centroid, 3, 1e-7);
    assert_int_equal(num(r, "mesh_definitions.0.max_joints_per_vertex"), 4);
    assert_true(num(r, "mesh_definitions.0.weight_sum_min") == 0.5 + (double)0.4f);
    assert_true(num(r, "mesh_definitions.0.weight_sum_max") == 1.0);
    expect_absent(r, "mesh_definitions.1.weight_sum_min");
    assert_int_equal(num(r, "mesh_definitions.1.max_joints_per_vertex"), 0);

    assert_int_equal(count(r, "mesh_definitions.0.additional_influence_sets"), 2);
    assert_int_equal(num(r, "mesh_definitions.0.additional_influence_sets.0.set_index"), 1);
    assert_true(at(r, "mesh_definitions.0.additional_influence_sets.0.joints_present")->type ==
                ANIM_JSON_TRUE);
    assert_true(at(r, "mesh_definitions.0.additional_influence_sets.0.weights_present")->type ==
                ANIM_JSON_FALSE);
    assert_true(at(r, "mesh_definitions.0.additional_influence_sets.0."
                      "joints_without_weights_present")->type == ANIM_JSON_TRUE);
    assert_int_equal(num(r, "mesh_definitions.0.additional_influence_sets.1.set_index"), 2);
    assert_true(at(r, "mesh_definitions.0.additional_influence_sets.1."
                      "weights_without_joints_present")->type == ANIM_JSON_TRUE);
    assert_int_equal(count(r, "mesh_definitions.1.additional_influence_sets"), 0);

    /* Primitive 1 (lines) is a gap in primitive_index. */
    assert_int_equal(count(r, "mesh_definitions.0.primitives"), 2);
    assert_int_equal(num(r, "mesh_definitions.0.primitives.0.primitive_index"), 0);
    assert_int_equal(num(r, "mesh_definitions.0.primitives.0.material_index"), 0);
    assert_int_equal(num(r, "mesh_definitions.0.primitives.1.primitive_index"), 2);
    assert_true(at(r, "mesh_definitions.0.primitives.1.material_index")->type == ANIM_JSON_NULL);
    assert_int_equal(num(r, "mesh_definitions.0.primitives.1.vertex_count"), 4);
    assert_int_equal(num(r, "mesh_definitions.0.primitives.1.finite_vertex_count"), 3);

    /* Instances: skinned body excluded; prop under T(10,0,0)S(2)T(0,0,1);
     * the unnamed matrix node at x = 5, outside scene 0. */
    assert_int_equal(count(r, "node_instances"), 3);
    assert_int_equal(num(r, "node_instances.0.node_index"), 1);
    expect_str(r, "node_instances.0.static_node_world_aabb_unavailable_reason",
               "skinned_deformation_excluded");
    expect_absent(r, "node_instances.0.static_node_world_aabb");
    expect_str(r, "node_instances.1.node_name", "prop");
    const double pmin[3] = {10, 0, 2}, pmax[3] = {12, 4, 2};
    expect_vec(r, "node_instances.1.static_node_world_aabb.min", pmin, 3, 0);
    expect_vec(r, "node_instances.1.static_node_world_aabb.max", pmax, 3, 0);
    expect_absent(r, "node_instances.1.static_node_world_aabb_unavailable_reason");
    expect_str(r, "node_instances.2.node_name", "node4");
    assert_int_equal(num(r, "node_instances.2.mesh_index"), 1);

    assert_int_equal(count(r, "scenes"), 2);
    expect_str(r, "scenes.0.name", "main");
    assert_int_equal(num(r, "scenes.0.instance_count"), 2);
    assert_int_equal(num(r, "scenes.0.excluded_instance_count"), 1);
    expect_vec(r, "scenes.0.static_scene_world_aabb.min", pmin, 3, 0);
    expect_absent(r, "scenes.1.name");
    assert_int_equal(num(r, "scenes.1.instance_count"), 3);
    const double smin[3] = {5, 0, 0};
    expect_vec(r, "scenes.1.static_scene_world_aabb.min", smin, 3, 0);
    expect_vec(r, "scenes.1.static_scene_world_aabb.max", pmax, 3, 0);
    assert_int_equal(num(r, "default_scene_index"), 0);
    measured_free(&mz);
}

static void test_built_skeleton_and_skins(void **state)
{
    (void)state;
    measured mz;
    measure_and_parse(built_asset(), &mz);
    const anim_json_value *r = mz.root;

    expect_str(r, "skeleton_source_coverage", "complete");
    assert_int_equal(count(r, "skeleton_nodes"), 9);
    const double roots0[2] = {0, 1}, roots4[1] = {1};
    expect_vec(r, "skeleton_nodes.0.scene_root_indices", roots0, 2, 0);
    expect_vec(r, "skeleton_nodes.4.scene_root_indices", roots4, 1, 0);
    assert_int_equal(count(r, "skeleton_nodes.3.scene_root_indices"), 0);
    expect_absent(r, "skeleton_nodes.0.parent_node_index");
    assert_int_equal(num(r, "skeleton_nodes.3.parent_node_index"), 0);
    expect_absent(r, "skeleton_nodes.4.name");
    expect_str(r, "skeleton_nodes.0.local_rest.kind", "trs");
    const double t0[3] = {10, 0, 0};
    expect_vec(r, "skeleton_nodes.0.local_rest.translation_parent_space_m", t0, 3, 0);
    expect_str(r, "skeleton_nodes.4.local_rest.kind", "matrix");
    assert_int_equal(num(r, "skeleton_nodes.4.local_rest.matrix.12"), 5);
    /* joint_a: T(10,0,0) S(2) T(0,3,0) -> world translation (10,6,0). */
    const double w3[3] = {10, 6, 0};
    expect_vec(r, "skeleton_nodes.3.rest_world_translation_m", w3, 3, 0);
    assert_int_equal(num(r, "skeleton_nodes.3.rest_world_matrix.13"), 6);
    expect_str(r, "skeleton_nodes.3.rest_world_linear.classification", "uniform_scaled");
    assert_true(num(r, "skeleton_nodes.3.rest_world_linear.uniform_scale") == 2.0);
    assert_true(num(r, "skeleton_nodes.3.rest_world_linear.determinant") == 8.0);
    expect_str(r, "skeleton_nodes.3.rest_world_linear.orientation", "positive");
    expect_absent(r, "skeleton_nodes.3.rest_world_linear.rotation_xyzw");
    expect_str(r, "skeleton_nodes.4.rest_world_linear.classification", "unit_orthonormal");
    const double qid[4] = {0, 0, 0, 1};
    expect_vec(r, "skeleton_nodes.4.rest_world_linear.rotation_xyzw", qid, 4, 0);
    expect_absent(r, "skeleton_nodes.4.rest_world_matrix_unavailable_reason");

    assert_int_equal(count(r, "skins"), 2);
    expect_str(r, "skins.0.name", "main");
    assert_int_equal(num(r, "skins.0.skeleton_root_node_index"), 0);
    expect_absent(r, "skins.1.skeleton_root_node_index");
    expect_str(r, "skins.0.inverse_bind_accessor.status", "available");
    assert_int_equal(num(r, "skins.0.inverse_bind_accessor.declared_count"), 4);
    assert_int_equal(count(r, "skins.0.inverse_bind_accessor.matrices"), 4);
    assert_int_equal(num(r, "skins.0.inverse_bind_accessor.matrices.0.13"), -3);

    /* Joint 0: inverse(T(0,-3,0)) = T(0,3,0); world(joint_a) * IBM =
     * T(10,0,0) S(2). */
    assert_int_equal(num(r, "skins.0.joints.0.node_index"), 3);
    assert_int_equal(num(r, "skins.0.joints.0.joint_bind_to_mesh.source_inverse_bind_matrix.13"),
                     -3);
    assert_true(num(r, "skins.0.joints.0.joint_bind_to_mesh.inversion_quality."
                       "reciprocal_condition_number_inf") == 1.0);
    assert_int_equal(num(r, "skins.0.joints.0.joint_bind_to_mesh.matrix.13"), 3);
    expect_str(r, "skins.0.joints.0.joint_bind_to_mesh.linear.classification", "unit_orthonormal");
    assert_int_equal(num(r, "skins.0.joints.0.mesh_bind_world.matrix.12"), 10);
    assert_int_equal(num(r, "skins.0.joints.0.mesh_bind_world.matrix.13"), 0);
    expect_str(r, "skins.0.joints.0.mesh_bind_world.linear.classification", "uniform_scaled");
    expect_absent(r, "skins.0.joints.0.mesh_bind_world.inversion_quality");
    expect_absent(r, "skins.0.joints.0.mesh_bind_world.unavailable_reason");

    /* Joint 1: singular. */
    expect_str(r, "skins.0.joints.1.joint_bind_to_mesh.unavailable_reason",
               "inverse_bind_matrix_non_invertible");
    assert_true(num(r, "skins.0.joints.1.joint_bind_to_mesh.inversion_quality."
                       "reciprocal_condition_number_inf") == 0.0);
    expect_absent(r, "skins.0.joints.1.joint_bind_to_mesh.matrix");
    expect_str(r, "skins.0.joints.1.mesh_bind_world.linear.classification", "singular");
    /* Joint 2: ill-conditioned, quality published. */
    expect_str(r, "skins.0.joints.2.joint_bind_to_mesh.unavailable_reason",
               "inverse_bind_matrix_ill_conditioned");
    double q = num(r, "skins.0.joints.2.joint_bind_to_mesh.inversion_quality."
                      "reciprocal_condition_number_inf");
    assert_true(fabs(q - (double)1e-7f) < 1e-15);
    /* Joint 3: projective bottom row, no quality. */
    expect_str(r, "skins.0.joints.3.joint_bind_to_mesh.unavailable_reason",
               "inverse_bind_matrix_non_affine");
    expect_absent(r, "skins.0.joints.3.joint_bind_to_mesh.inversion_quality");
    assert_non_null(at(r, "skins.0.joints.3.joint_bind_to_mesh.source_inverse_bind_matrix"));
    assert_non_null(at(r, "skins.0.joints.3.mesh_bind_world.matrix"));

    expect_str(r, "skins.0.joint_bind_linear_summary.classification", "partially_unavailable");
    assert_int_equal(num(r, "skins.0.joint_bind_linear_summary.joint_count"), 4);
    assert_int_equal(num(r, "skins.0.joint_bind_linear_summary.available_joint_count"), 1);
    assert_int_equal(num(r, "skins.0.joint_bind_linear_summary.unavailable_joint_count"), 3);
    assert_int_equal(count(r, "skins.0.attachments"), 1);
    assert_int_equal(num(r, "skins.0.attachments.0.node_index"), 1);
    assert_int_equal(num(r, "skins.0.attachments.0.mesh_index"), 0);

    /* Skin 1: no inverse binds; nothing is substituted from node rest. */
    expect_str(r, "skins.1.inverse_bind_accessor.status", "absent");
    expect_absent(r, "skins.1.inverse_bind_accessor.declared_count");
    assert_int_equal(count(r, "skins.1.inverse_bind_accessor.matrices"), 0);
    expect_str(r, "skins.1.joints.0.joint_bind_to_mesh.unavailable_reason",
               "inverse_bind_accessor_absent");
    expect_str(r, "skins.1.joints.0.mesh_bind_world.unavailable_reason",
               "inverse_bind_accessor_absent");
    expect_absent(r, "skins.1.joints.0.mesh_bind_world.source_inverse_bind_matrix");
    expect_str(r, "skins.1.joint_bind_linear_summary.classification", "unavailable");
    assert_int_equal(count(r, "skins.1.attachments"), 0);
    measured_free(&mz);
}

static void test_built_materials_and_images(void **state)
{
    (void)state;
    measured mz;
    measure_and_parse(built_asset(), &mz);
    const anim_json_value *r = mz.root;

    expect_str(r, "material_resource_coverage", "complete");
    assert_int_equal(count(r, "material_definitions"), 2);
    expect_str(r, "material_definitions.0.name", "skin_mat");
    assert_int_equal(count(r, "material_definitions.0.texture_bindings"), 3);
    expect_str(r, "material_definitions.0.texture_bindings.0.slot", "base_color");
    expect_str(r, "material_definitions.0.texture_bindings.1.slot", "normal");
    expect_str(r, "material_definitions.0.texture_bindings.2.slot", "emissive");
    assert_int_equal(num(r, "material_definitions.0.texture_bindings.2.texture_index"), 1);
    expect_absent(r, "material_definitions.1.name");
    assert_int_equal(count(r, "material_definitions.1.texture_bindings"), 1);
    expect_str(r, "material_definitions.1.texture_bindings.0.slot", "emissive");

    assert_int_equal(count(r, "textures"), 6);
    expect_str(r, "textures.2.name", "t2");
    assert_int_equal(num(r, "textures.2.image_index"), 1);

    assert_int_equal(count(r, "images"), 7);
    expect_str(r, "images.0.name", "albedo");
    expect_str(r, "images.0.source_kind", "data_uri");
    expect_str(r, "images.0.declared_mime_type", "image/png");
    expect_str(r, "images.0.detected_container", "png");
    assert_int_equal(num(r, "images.0.width"), 2);
    assert_int_equal(num(r, "images.0.height"), 1);
    assert_int_equal(num(r, "images.0.channel_count"), 4);
    expect_str(r, "images.0.decoded_color_type", "rgba8");
    expect_absent(r, "images.0.unavailable_reason");

    expect_str(r, "images.1.source_kind", "embedded");
    expect_str(r, "images.1.declared_mime_type", "image/gif");
    expect_absent(r, "images.1.detected_container");
    expect_str(r, "images.1.unavailable_reason", "unsupported_container");
    expect_str(r, "images.1.leading_magic_hex", "47494638396101000100800000ffffff");
    expect_absent(r, "images.1.width");

    expect_str(r, "images.2.source_kind", "external");
    expect_str(r, "images.2.decoded_color_type", "l16");
    assert_int_equal(num(r, "images.2.channel_count"), 1);
    assert_int_equal(num(r, "images.2.width"), 3);
    assert_int_equal(num(r, "images.2.height"), 5);

    expect_str(r, "images.3.unavailable_reason", "source_unavailable");
    expect_absent(r, "images.3.leading_magic_hex");
    expect_str(r, "images.4.unavailable_reason", "invalid_data_uri");
    expect_str(r, "images.4.declared_mime_type", "image/png");
    expect_str(r, "images.5.detected_container", "jpeg");
    expect_str(r, "images.5.unavailable_reason", "decode_failed");
    expect_str(r, "images.6.detected_container", "jpeg");
    expect_str(r, "images.6.unavailable_reason", "decode_failed");
    measured_free(&mz);
}

/* Member order of the static fields and of representative records. */
static void expect_order(const char *text, const char *const *keys)
{
    const char *p = text;
    for (size_t i = 0; keys[i]; i++) {
        char marker[96];
        snprintf(marker, sizeof marker, "\"%s\":", keys[i]);
        const char *hit = strstr(p, marker);
        if (!hit)
            fail_msg("key %s missing or out of order", keys[i]);
        p = hit + strlen(marker);
    }
}

static void test_built_member_order(void **state)
{
    (void)state;
    measured mz;
    measure_and_parse(built_asset(), &mz);
    static const char *const top[] = {"mesh_definitions", "node_instances", "scenes",
                                      "default_scene_index", "skeleton_source_coverage",
                                      "skeleton_nodes", "skins", "material_resource_coverage",
                                      "material_definitions", "textures", "images", NULL};
    expect_order(mz.text.data, top);
    static const char *const mesh[] = {"mesh_index", "name", "vertex_count", "geometry_aabb",
                                       "geometry_centroid", "max_joints_per_vertex",
                                       "weight_sum_min", "weight_sum_max",
                                       "additional_influence_sets", "primitives",
                                       "primitive_index", "material_index", "vertex_count",
                                       "finite_vertex_count", "geometry_aabb", NULL};
    expect_order(strstr(mz.text.data, "\"mesh_definitions\":"), mesh);
    static const char *const node[] = {"node_index", "name", "scene_root_indices", "local_rest",
                                       "kind", "translation_parent_space_m", "rotation_xyzw",
                                       "scale", "rest_world_matrix", "rest_world_translation_m",
                                       "rest_world_linear", "classification", "axis_lengths",
                                       "determinant", "orientation", "rotation_xyzw",
                                       "uniform_scale", NULL};
    expect_order(strstr(mz.text.data, "\"skeleton_nodes\":"), node);
    static const char *const skin[] = {"skin_index", "name", "skeleton_root_node_index", "joints",
                                       "joint_index", "node_index", "joint_bind_to_mesh",
                                       "source_inverse_bind_matrix", "inversion_quality",
                                       "matrix", "linear", "mesh_bind_world",
                                       "source_inverse_bind_matrix", "matrix", "linear",
                                       "joint_bind_linear_summary", "inverse_bind_accessor",
                                       "status", "declared_count", "matrices", "attachments",
                                       NULL};
    expect_order(strstr(mz.text.data, "\"skins\":"), skin);
    static const char *const image[] = {"image_index", "name", "source_kind",
                                        "declared_mime_type", "detected_container", "width",
                                        "height", "channel_count", "decoded_color_type", NULL};
    expect_order(strstr(mz.text.data, "\"images\":"), image);
    measured_free(&mz);
}

/* ---- example assets: no meshes ----------------------------------------- */

static anim_asset *load(const char *path)
{
    anim_error err;
    anim_error_clear(&err);
    anim_asset *a = anim_asset_load(path, NULL, &err);
    if (!a)
        fail_msg("%s: %s", path, err.message);
    return a;
}

static void test_example_walk(void **state)
{
    (void)state;
    measured mz;
    measure_and_parse(load("examples/assets/walk.glb"), &mz);
    const anim_json_value *r = mz.root;
    assert_int_equal(count(r, "mesh_definitions"), 0);
    assert_int_equal(count(r, "node_instances"), 0);
    assert_int_equal(count(r, "scenes"), 1);
    assert_int_equal(num(r, "scenes.0.instance_count"), 0);
    assert_int_equal(num(r, "scenes.0.excluded_instance_count"), 0);
    expect_absent(r, "scenes.0.static_scene_world_aabb");
    assert_int_equal(num(r, "default_scene_index"), 0);
    expect_str(r, "skeleton_source_coverage", "complete");
    assert_int_equal(count(r, "skeleton_nodes"), mz.asset->doc.node_count);
    expect_str(r, "skeleton_nodes.0.name", "pelvis");
    const double t[3] = {0, 1, 0};
    expect_vec(r, "skeleton_nodes.0.rest_world_translation_m", t, 3, 0);
    expect_str(r, "skeleton_nodes.0.rest_world_linear.classification", "unit_orthonormal");
    assert_true(num(r, "skeleton_nodes.0.rest_world_linear.uniform_scale") == 1.0);
    expect_str(r, "material_resource_coverage", "complete");
    assert_int_equal(count(r, "material_definitions"), 0);
    assert_int_equal(count(r, "images"), 0);
    assert_int_equal(count(r, "skins"), 0);
    measured_free(&mz);
}

static void test_example_assets_all(void **state)
{
    (void)state;
    static const char *const names[] = {"clip.glb", "clip-dirty.glb", "walk-dirty.glb",
                                        "walk-scaled.glb", "run-ring.glb", "walk-travel.glb"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char path[256];
        snprintf(path, sizeof path, "examples/assets/%s", names[i]);
        if (access(path, R_OK) != 0)
            continue;
        measured mz;
        measure_and_parse(load(path), &mz);
        assert_int_equal(count(mz.root, "skeleton_nodes"), mz.asset->doc.node_count);
        measured_free(&mz);
    }
}

/* ---- corpus ------------------------------------------------------------ */

static const char *corpus_dir(void)
{
    static char dir[512];
    const char *env = getenv("ANIMSMITH_CORPUS");
    if (env && *env)
        snprintf(dir, sizeof dir, "%s", env);
    else
        snprintf(dir, sizeof dir, "../shared/corpus");
    char probe[600];
    snprintf(probe, sizeof probe, "%s/gltf/Fox.glb", dir);
    return access(probe, R_OK) == 0 ? dir : NULL;
}

static bool load_corpus(const char *name, measured *mz)
{
    const char *dir = corpus_dir();
    if (!dir) {
        print_message("corpus not found (../shared/corpus or $ANIMSMITH_CORPUS): skipped\n");
        return false;
    }
    char path[700];
    snprintf(path, sizeof path, "%s/gltf/%s", dir, name);
    measure_and_parse(load(path), mz);
    return true;
}

/* Structural invariants every measured asset satisfies. */
static void check_invariants(const measured *mz)
{
    const anim_asset_measurements *m = &mz->m;
    for (uint32_t i = 0; i < m->node_instance_count; i++) {
        const anim_node_instance_measurements *ni = &m->node_instances[i];
        const anim_bone *b = &mz->asset->doc.bones[mz->asset->doc.node_to_bone[ni->node_index]];
        if (b->skin != ANIM_NONE)
            assert_int_equal(ni->status, ANIM_NODE_AABB_SKINNED_DEFORMATION_EXCLUDED);
    }
    for (uint32_t s = 0; s < m->skin_count; s++) {
        const anim_skin_measurements *sm = &m->skins[s];
        assert_int_equal(sm->available_joint_count + sm->unavailable_joint_count, sm->joint_count);
    }
    for (uint32_t i = 0; i < m->mesh_count; i++)
        for (uint32_t p = 0; p < m->meshes[i].primitive_count; p++)
            assert_true(m->meshes[i].primitives[p].finite_vertex_count <=
                        m->meshes[i].primitives[p].vertex_count);
}

static void test_corpus_fox(void **state)
{
    (void)state;
    measured mz;
    if (!load_corpus("Fox.glb", &mz))
        skip();
    check_invariants(&mz);
    assert_int_equal(mz.m.mesh_count, 1);
    assert_int_equal(mz.m.skin_count, 1);
    assert_true(mz.m.meshes[0].max_joints_per_vertex >= 1);
    assert_true(mz.m.meshes[0].has_weight_sums);
    assert_true(fabs(mz.m.meshes[0].weight_sum_max - 1.0) < 1e-3);
    assert_int_equal(mz.m.skins[0].ibm_status, ANIM_IBM_AVAILABLE);
    assert_true(mz.m.image_count >= 1);
    assert_int_equal(mz.m.images[0].status, ANIM_IMAGE_AVAILABLE);
    measured_free(&mz);
}

static void test_corpus_cesium_man(void **state)
{
    (void)state;
    measured mz;
    if (!load_corpus("CesiumMan.glb", &mz))
        skip();
    check_invariants(&mz);
    assert_int_equal(mz.m.image_count, 1);
    const anim_image_measurements *im = &mz.m.images[0];
    assert_int_equal(im->source_kind, ANIM_IMAGE_KIND_EMBEDDED);
    assert_int_equal(im->status, ANIM_IMAGE_AVAILABLE);
    assert_true(im->width > 0 && im->height > 0);
    assert_true(im->detected_container == ANIM_CONTAINER_JPEG ||
                im->detected_container == ANIM_CONTAINER_PNG);
    assert_int_equal(mz.m.material_count, 1);
    assert_true(mz.m.materials[0].binding_count >= 1);
    assert_int_equal(mz.m.materials[0].bindings[0].slot, ANIM_SLOT_BASE_COLOR);
    assert_int_equal(mz.m.skin_count, 1);
    assert_int_equal(mz.m.skins[0].summary != ANIM_BIND_SUMMARY_UNAVAILABLE, 1);
    measured_free(&mz);
}

static void test_corpus_soldier(void **state)
{
    (void)state;
    measured mz;
    if (!load_corpus("Soldier.glb", &mz))
        skip();
    check_invariants(&mz);
    assert_int_equal(mz.m.skin_count, 2);
    for (uint32_t s = 0; s < 2; s++) {
        assert_true(mz.m.skins[s].attachment_count >= 1);
        assert_int_equal(mz.m.skins[s].ibm_status, ANIM_IBM_AVAILABLE);
    }
    measured_free(&mz);
}

static void test_corpus_monster_scaled(void **state)
{
    (void)state;
    measured mz;
    if (!load_corpus("MonsterScaled.glb", &mz))
        skip();
    check_invariants(&mz);
    assert_true(mz.m.skeleton_node_count > 0);
    assert_true(mz.m.mesh_count >= 1);
    /* A scaled character: some rest-world linear part is not unit. */
    bool any_scaled = false;
    for (uint32_t i = 0; i < mz.m.skeleton_node_count; i++)
        if (mz.m.skeleton_nodes[i].rest_world_linear.classification !=
            ANIM_LINEAR_UNIT_ORTHONORMAL)
            any_scaled = true;
    assert_true(any_scaled);
    measured_free(&mz);
}

static int teardown_tmpdir(void **state)
{
    (void)state;
    if (tmpdir_path) {
        char path[512];
        snprintf(path, sizeof path, "%s/tex.png", tmpdir_path);
        unlink(path);
        rmdir(tmpdir_path);
    }
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear_classes),
        cmocka_unit_test(test_built_meshes),
        cmocka_unit_test(test_built_skeleton_and_skins),
        cmocka_unit_test(test_built_materials_and_images),
        cmocka_unit_test(test_built_member_order),
        cmocka_unit_test(test_example_walk),
        cmocka_unit_test(test_example_assets_all),
        cmocka_unit_test(test_corpus_fox),
        cmocka_unit_test(test_corpus_cesium_man),
        cmocka_unit_test(test_corpus_soldier),
        cmocka_unit_test(test_corpus_monster_scaled),
    };
    return cmocka_run_group_tests(tests, NULL, teardown_tmpdir);
}
