#define _XOPEN_SOURCE 700 /* realpath, symlink */
/* The glTF/GLB reader: documents are assembled in memory
 * (JSON with base64 data-URI buffers, GLB bytes framed here), so every
 * accepted shape and every refusal message is pinned exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "animsmith/doc.h"
#include "animsmith/gltf.h"
#include "animsmith/strbuf.h"
#include "io/gltf/gltf_internal.h"
#include "io/json/json_internal.h"

/* ---- building documents ---------------------------------------------- */

typedef struct {
    uint8_t b[4096];
    size_t n;
} blob;

/* Appends bytes at the next 4-byte boundary; returns their offset. */
static size_t put_bytes(blob *bl, const void *p, size_t n)
{
    while (bl->n % 4)
        bl->b[bl->n++] = 0;
    assert_true(bl->n + n <= sizeof bl->b);
    size_t at = bl->n;
    memcpy(bl->b + at, p, n);
    bl->n += n;
    return at;
}

static char *base64(const uint8_t *p, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc(n / 3 * 4 + 8);
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < n)
            v |= p[i + 2];
        out[o++] = tab[v >> 18 & 63];
        out[o++] = tab[v >> 12 & 63];
        out[o++] = i + 1 < n ? tab[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? tab[v & 63] : '=';
    }
    out[o] = 0;
    return out;
}

/* Expands a template: ' becomes ", @URI@ the blob as a data URI, @LEN@ its
 * length. Templates use single quotes so they stay readable in C. */
static char *expand(const char *tmpl, const blob *bl)
{
    char *b64 = base64(bl ? bl->b : (const uint8_t *)"", bl ? bl->n : 0);
    char uri[8192 + 64];
    snprintf(uri, sizeof uri, "data:application/octet-stream;base64,%s", b64);
    free(b64);
    char len[32];
    snprintf(len, sizeof len, "%zu", bl ? bl->n : 0);
    size_t cap = strlen(tmpl) * 2 + strlen(uri) * 4 + 64, o = 0;
    char *out = malloc(cap);
    for (const char *p = tmpl; *p;) {
        const char *rep = NULL;
        size_t skip = 1;
        if (!strncmp(p, "@URI@", 5))
            rep = uri, skip = 5;
        else if (!strncmp(p, "@LEN@", 5))
            rep = len, skip = 5;
        if (rep) {
            size_t k = strlen(rep);
            assert_true(o + k < cap);
            memcpy(out + o, rep, k);
            o += k;
        } else {
            assert_true(o + 1 < cap);
            out[o++] = *p == '\'' ? '"' : *p;
        }
        p += skip;
    }
    out[o] = 0;
    return out;
}

static anim_asset *load_json_dir(const char *tmpl, const blob *bl, const char *base_dir,
                                 anim_error *err)
{
    char *json = expand(tmpl, bl);
    anim_error_clear(err);
    anim_asset *a = anim_asset_load_memory(json, strlen(json), false, base_dir, "t.gltf", NULL,
                                           err);
    free(json);
    return a;
}

static anim_asset *load_json(const char *tmpl, const blob *bl, anim_error *err)
{
    return load_json_dir(tmpl, bl, NULL, err);
}

static anim_asset *must_load(const char *tmpl, const blob *bl)
{
    anim_error err;
    anim_asset *a = load_json(tmpl, bl, &err);
    if (!a)
        fail_msg("load failed: %s", err.message);
    return a;
}

static void expect_refusal_dir(const char *tmpl, const blob *bl, const char *base_dir,
                               const char *msg)
{
    anim_error err;
    anim_asset *a = load_json_dir(tmpl, bl, base_dir, &err);
    if (a) {
        anim_asset_free(a);
        fail_msg("loaded, but expected the refusal: %s", msg);
    }
    /* Every load error starts with the file it is about. */
    char want[ANIM_ERROR_MESSAGE_MAX + 16];
    snprintf(want, sizeof want, "t.gltf: %s", msg);
    assert_string_equal(err.message, want);
    assert_int_not_equal(err.code, ANIM_OK);
}

static void expect_refusal(const char *tmpl, const blob *bl, const char *msg)
{
    expect_refusal_dir(tmpl, bl, NULL, msg);
}

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* A well-formed GLB: header, JSON chunk (space-padded), BIN chunk when
 * bin != NULL (zero-padded). */
static uint8_t *make_glb(const char *json, const uint8_t *bin, size_t bin_len, size_t *out_len)
{
    size_t jl = strlen(json), jp = (jl + 3) & ~(size_t)3, bp = (bin_len + 3) & ~(size_t)3;
    size_t total = 12 + 8 + jp + (bin ? 8 + bp : 0);
    uint8_t *g = calloc(1, total);
    put_u32(g, 0x46546C67u);
    put_u32(g + 4, 2);
    put_u32(g + 8, (uint32_t)total);
    put_u32(g + 12, (uint32_t)jp);
    put_u32(g + 16, 0x4E4F534Au);
    memset(g + 20, ' ', jp);
    memcpy(g + 20, json, jl);
    if (bin) {
        put_u32(g + 20 + jp, (uint32_t)bp);
        put_u32(g + 24 + jp, 0x004E4942u);
        memcpy(g + 28 + jp, bin, bin_len);
    }
    *out_len = total;
    return g;
}

static void expect_glb_refusal(const uint8_t *bytes, size_t len, const char *msg)
{
    anim_error err;
    anim_error_clear(&err);
    anim_asset *a = anim_asset_load_memory(bytes, len, true, NULL, "t.glb", NULL, &err);
    if (a) {
        anim_asset_free(a);
        fail_msg("loaded, but expected the refusal: %s", msg);
    }
    char want[ANIM_ERROR_MESSAGE_MAX + 16];
    snprintf(want, sizeof want, "t.glb: %s", msg);
    assert_string_equal(err.message, want);
}

/* ---- the standard animation buffer ------------------------------------ */

/* view 0: times {0, 0.5, 1}; view 1: 3 translations; view 2: 3 rotations;
 * view 3: 3 scales; view 4: 9 VEC3 (cubic triplets for 3 keys). Accessor i
 * reads view i. */
static void std_blob(blob *bl)
{
    memset(bl, 0, sizeof *bl);
    const float t[3] = {0.0f, 0.5f, 1.0f};
    float tr[9], ro[12], sc[9], cu[27];
    for (int i = 0; i < 9; i++) {
        tr[i] = (float)i * 0.25f;
        sc[i] = 1.0f + (float)i;
    }
    for (int k = 0; k < 3; k++) {
        ro[4 * k + 0] = 0.0f;
        ro[4 * k + 1] = 0.0f;
        ro[4 * k + 2] = (float)sin(0.1 * k);
        ro[4 * k + 3] = (float)cos(0.1 * k);
    }
    for (int i = 0; i < 27; i++)
        cu[i] = (float)i;
    assert_int_equal(put_bytes(bl, t, sizeof t), 0);
    assert_int_equal(put_bytes(bl, tr, sizeof tr), 12);
    assert_int_equal(put_bytes(bl, ro, sizeof ro), 48);
    assert_int_equal(put_bytes(bl, sc, sizeof sc), 96);
    assert_int_equal(put_bytes(bl, cu, sizeof cu), 132);
}

#define HEAD "{'asset':{'version':'2.0'},'buffers':[{'byteLength':@LEN@,'uri':'@URI@'}],"
#define STD_VIEWS                                                                          \
    "'bufferViews':[{'buffer':0,'byteOffset':0,'byteLength':12},"                          \
    "{'buffer':0,'byteOffset':12,'byteLength':36},{'buffer':0,'byteOffset':48,'byteLength':48}," \
    "{'buffer':0,'byteOffset':96,'byteLength':36},{'buffer':0,'byteOffset':132,'byteLength':108}],"
#define STD_ACC                                                                       \
    "{'bufferView':0,'componentType':5126,'count':3,'type':'SCALAR'},"                \
    "{'bufferView':1,'componentType':5126,'count':3,'type':'VEC3'},"                  \
    "{'bufferView':2,'componentType':5126,'count':3,'type':'VEC4'},"                  \
    "{'bufferView':3,'componentType':5126,'count':3,'type':'VEC3'},"                  \
    "{'bufferView':4,'componentType':5126,'count':9,'type':'VEC3'}"
/* Just the times and translations of STD_ACC. */
#define ACC2                                                                          \
    "{'bufferView':0,'componentType':5126,'count':3,'type':'SCALAR'},"                \
    "{'bufferView':1,'componentType':5126,'count':3,'type':'VEC3'}"
#define STD HEAD STD_VIEWS "'accessors':[" STD_ACC "],"
/* One clip 'walk' animating node 0's translation with sampler 0. */
#define WALK(sampler) \
    "'animations':[{'name':'walk','channels':[{'sampler':0,'target':{'node':0,'path':'translation'}}],'samplers':[" sampler "]}]}"

/* ---- skeleton ---------------------------------------------------------- */

static void test_dfs_order(void **state)
{
    (void)state;
    /* Roots 0 and 2; node 0 lists children 3 then 1; node 1 has child 4. */
    anim_asset *a = must_load("{'asset':{'version':'2.0'},'nodes':["
                              "{'name':'hips','children':[3,1]},{'children':[4]},"
                              "{'name':'root2'},{'name':'c'},{'name':'d'}]}",
                              NULL);
    const anim_doc *d = &a->doc;
    assert_int_equal(d->bone_count, 5);
    const uint32_t nodes[5] = {0, 3, 1, 4, 2};
    const char *names[5] = {"hips", "c", "node1", "d", "root2"};
    const uint32_t parents[5] = {ANIM_NONE, 0, 0, 2, ANIM_NONE};
    const uint32_t depths[5] = {0, 1, 1, 2, 0};
    for (uint32_t b = 0; b < 5; b++) {
        assert_int_equal(d->bones[b].node, nodes[b]);
        assert_string_equal(d->bones[b].name, names[b]);
        assert_int_equal(d->bones[b].parent, parents[b]);
        assert_int_equal(d->bones[b].depth, depths[b]);
        assert_int_equal(d->node_to_bone[nodes[b]], b);
    }
    assert_false(d->bones[2].has_name);
    assert_true(d->bones[1].has_name);
    /* Child links follow the children array order. */
    assert_int_equal(d->bones[0].child_count, 2);
    assert_int_equal(d->bones[0].first_child, 1);
    assert_int_equal(d->bones[1].next_sibling, 2);
    assert_int_equal(d->bones[2].next_sibling, ANIM_NONE);
    assert_int_equal(d->bones[2].first_child, 3);
    assert_int_equal(d->bones[4].first_child, ANIM_NONE);
    assert_int_equal(anim_doc_find_bone(d, "d"), 3);
    assert_int_equal(anim_doc_find_bone(d, "zz"), ANIM_NONE);
    assert_int_equal(d->clip_count, 0);
    anim_asset_free(a);
}

static void test_no_nodes(void **state)
{
    (void)state;
    anim_asset *a = must_load("{'asset':{'version':'2.0'}}", NULL);
    assert_int_equal(a->doc.bone_count, 0);
    assert_int_equal(a->doc.clip_count, 0);
    assert_int_equal(a->doc.default_scene, ANIM_NONE);
    anim_asset_free(a);
}

static void test_rest_trs(void **state)
{
    (void)state;
    anim_asset *a = must_load(
        "{'asset':{'version':'2.0'},'nodes':["
        "{'translation':[0.1,2,3],'rotation':[0,0,0.7071068,0.7071068],'scale':[2,2,0.3]},"
        "{},"
        /* 90 degrees about Z, scale (2,3,4), translation (4,5,6). */
        "{'matrix':[0,2,0,0, -3,0,0,0, 0,0,4,0, 4,5,6,1]},"
        /* Mirrored: negative determinant puts the sign on z. */
        "{'matrix':[1,0,0,0, 0,1,0,0, 0,0,-2,0, 0,0,0,1]}]}",
        NULL);
    const anim_bone *b = a->doc.bones;
    assert_true(b[0].rest_translation[0] == (double)0.1f);
    assert_true(b[0].rest_translation[1] == 2.0 && b[0].rest_translation[2] == 3.0);
    assert_true(b[0].rest_rotation[2] == (double)0.7071068f);
    assert_true(b[0].rest_rotation[3] == (double)0.7071068f);
    assert_true(b[0].rest_scale[2] == (double)0.3f);
    assert_false(b[0].has_matrix);
    /* Defaults. */
    assert_true(b[1].rest_translation[0] == 0 && b[1].rest_rotation[3] == 1 &&
                b[1].rest_scale[1] == 1);
    assert_true(b[2].has_matrix);
    assert_true(b[2].matrix[4] == -3.0);
    const double eps = 1e-6;
    assert_true(fabs(b[2].rest_translation[0] - 4) < eps);
    assert_true(fabs(b[2].rest_translation[1] - 5) < eps);
    assert_true(fabs(b[2].rest_translation[2] - 6) < eps);
    assert_true(fabs(b[2].rest_scale[0] - 2) < eps);
    assert_true(fabs(b[2].rest_scale[1] - 3) < eps);
    assert_true(fabs(b[2].rest_scale[2] - 4) < eps);
    double s = sqrt(0.5);
    double sign = b[2].rest_rotation[3] < 0 ? -1 : 1;
    assert_true(fabs(sign * b[2].rest_rotation[0]) < eps);
    assert_true(fabs(sign * b[2].rest_rotation[1]) < eps);
    assert_true(fabs(sign * b[2].rest_rotation[2] - s) < eps);
    assert_true(fabs(sign * b[2].rest_rotation[3] - s) < eps);
    assert_true(fabs(b[3].rest_scale[2] + 2) < eps);
    assert_true(fabs(b[3].rest_scale[0] - 1) < eps);
    assert_true(fabs(fabs(b[3].rest_rotation[3]) - 1) < eps);
    anim_asset_free(a);
}

static void test_forest_errors(void **state)
{
    (void)state;
    expect_refusal("{'asset':{'version':'2.0'},'nodes':[{'children':[2]},{'children':[2]},{}]}",
                   NULL,
                   "malformed node graph: node 2 is a child of 2 nodes; glTF requires a forest "
                   "(one parent per node)");
    /* The first multiply-claimed node in index order is named. */
    expect_refusal("{'asset':{'version':'2.0'},'nodes':[{'children':[2,1]},{},{}, {'children':[2,1]},"
                   "{'children':[1]}]}",
                   NULL,
                   "malformed node graph: node 1 is a child of 3 nodes; glTF requires a forest "
                   "(one parent per node)");
    expect_refusal("{'asset':{'version':'2.0'},'nodes':[{'children':[1]},{'children':[0]}]}", NULL,
                   "malformed node graph: node 0 is unreachable from any root; the node graph "
                   "contains a cycle");
    /* A cycle beside a valid root: the lowest unreached node is named. */
    expect_refusal("{'asset':{'version':'2.0'},'nodes':[{},{'children':[2]},{'children':[1]}]}",
                   NULL,
                   "malformed node graph: node 1 is unreachable from any root; the node graph "
                   "contains a cycle");
    expect_refusal("{'asset':{'version':'2.0'},'nodes':[{'children':[0]}]}", NULL,
                   "malformed node graph: node 0 is unreachable from any root; the node graph "
                   "contains a cycle");
    expect_refusal("{'asset':{'version':'2.0'},'nodes':[{'children':[1]}]}", NULL,
                   "node 0: children[0] is not the index of one of the file's 1 nodes");
    expect_refusal("{'asset':{'version':'2.0'},'nodes':[{'matrix':[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1],"
                   "'scale':[1,1,1]}]}",
                   NULL, "node 0: has both \"matrix\" and translation/rotation/scale");
}

/* ---- references in materials, textures, images and scenes ------------- */

/* Every reference the glTF schema defines is read and checked at load, so
 * measure's evidence never shows an invalid one as an empty slot: the
 * document is refused naming the object, the property and the index. */
static void test_asset_references(void **state)
{
    (void)state;
    anim_asset *a = must_load(
        "{'asset':{'version':'2.0'},'images':[{'uri':'a.png'},{'uri':'b.png'}],"
        "'samplers':[{}],'textures':[{'source':1,'sampler':0},{'source':0}],"
        "'materials':[{'name':'Body','pbrMetallicRoughness':{'baseColorTexture':{'index':1},"
        "'metallicRoughnessTexture':{'index':0,'texCoord':1}},'emissiveTexture':{'index':1}},"
        "{'pbrMetallicRoughness':{}}],'nodes':[{'children':[1]},{},{}],"
        "'scenes':[{'nodes':[0,2]},{'nodes':[2]}]}",
        NULL);
    const anim_material *m = a->doc.materials;
    const uint32_t want0[ANIM_MATERIAL_TEXTURE_SLOTS] = {1, ANIM_NONE, 0, ANIM_NONE, 1};
    for (int s = 0; s < ANIM_MATERIAL_TEXTURE_SLOTS; s++) {
        assert_int_equal(m[0].textures[s], want0[s]);
        assert_int_equal(m[1].textures[s], ANIM_NONE);
    }
    assert_int_equal(a->doc.textures[0].source, 1);
    assert_int_equal(a->doc.scenes[1].nodes[0], 2);
    anim_asset_free(a);

#define TEX "{'asset':{'version':'2.0'},'textures':[{}],'materials':[{'name':'Body',"
    expect_refusal(TEX "'pbrMetallicRoughness':{'baseColorTexture':{'index':-1}}}]}", NULL,
                   "material 0 pbrMetallicRoughness.baseColorTexture: \"index\" must be a "
                   "non-negative integer, found -1");
    expect_refusal(TEX "'normalTexture':{'index':1}}]}", NULL,
                   "material 0 normalTexture: \"index\" refers to texture 1, but the file has 1");
    expect_refusal(TEX "'occlusionTexture':{'index':0.5}}]}", NULL,
                   "material 0 occlusionTexture: \"index\" must be a non-negative integer, found 0.5");
    expect_refusal(TEX "'emissiveTexture':{'texCoord':0}}]}", NULL,
                   "material 0 emissiveTexture: missing required \"index\"");
    expect_refusal(TEX "'normalTexture':0}]}", NULL,
                   "material 0 normalTexture: expected a JSON object, found number");
    expect_refusal(TEX "'pbrMetallicRoughness':[]}]}", NULL,
                   "material 0 pbrMetallicRoughness: expected a JSON object, found array");
    expect_refusal(TEX "'pbrMetallicRoughness':{'metallicRoughnessTexture':{'index':'0'}}}]}", NULL,
                   "material 0 pbrMetallicRoughness.metallicRoughnessTexture: \"index\" must be a "
                   "non-negative integer, found string");
#undef TEX
    expect_refusal("{'asset':{'version':'2.0'},'materials':[{'name':7}]}", NULL,
                   "material 0: \"name\" must be a string, found number");
    expect_refusal("{'asset':{'version':'2.0'},'textures':[{'source':1}],'images':[{'uri':'a.png'}]}",
                   NULL, "texture 0: \"source\" refers to image 1, but the file has 1");
    expect_refusal("{'asset':{'version':'2.0'},'textures':[{'sampler':-1}]}", NULL,
                   "texture 0: \"sampler\" must be a non-negative integer, found -1");
    expect_refusal("{'asset':{'version':'2.0'},'images':[{'bufferView':0}]}", NULL,
                   "image 0: \"bufferView\" refers to buffer view 0, but the file has 0");
#define SCENE "{'asset':{'version':'2.0'},'nodes':[{'children':[1]},{},{}],'scenes':[{'nodes':[0]},"
    expect_refusal(SCENE "{'nodes':[2,3]}]}", NULL,
                   "scene 1: nodes[1] is not the index of one of the file's 3 nodes");
    expect_refusal(SCENE "{'nodes':[2,0,2]}]}", NULL,
                   "scene 1: nodes[2] lists node 2 a second time (nodes[0])");
    expect_refusal(SCENE "{'nodes':[2,1]}]}", NULL,
                   "scene 1: nodes[1] is node 1, which is not a root (node 0 lists it as a child)");
    expect_refusal(SCENE "{'name':1}]}", NULL, "scene 1: \"name\" must be a string, found number");
#undef SCENE
}

/* ---- clips and tracks -------------------------------------------------- */

static void test_clip_names(void **state)
{
    (void)state;
    anim_asset *a = must_load(
        "{'asset':{'version':'2.0'},'animations':["
        "{'name':'walk','channels':[],'samplers':[]},{'channels':[],'samplers':[]},"
        "{'name':'walk','channels':[],'samplers':[]},{'name':'walk','channels':[],'samplers':[]},"
        "{'name':'','channels':[],'samplers':[]},{'name':'walk#1','channels':[],'samplers':[]}]}",
        NULL);
    const anim_doc *d = &a->doc;
    assert_int_equal(d->clip_count, 6);
    /* The authored "walk#1" keeps its name; the repeats skip it. */
    const char *names[6] = {"walk", "animation1", "walk#2", "walk#3", "", "walk#1"};
    for (uint32_t i = 0; i < 6; i++) {
        assert_string_equal(d->clips[i].name, names[i]);
        assert_int_equal(d->clips[i].animation, i);
        assert_true(d->clips[i].duration_s == 0.0);
        assert_int_equal(d->clips[i].track_count, 0);
    }
    assert_false(d->clips[1].has_name);
    assert_string_equal(d->clips[3].base_name, "walk");
    assert_true(d->clips[4].has_name);
    anim_asset_free(a);
}

static anim_asset *load_both(const void *bytes, size_t len, bool glb, anim_error *err);

/* Every clip keeps a distinct name, whichever names are authored: a
 * suffix never takes a name another clip has (earlier or later, authored
 * or generated), and a repeat of a suffixed name is suffixed again. Both
 * reading paths agree. */
static void test_clip_names_unique(void **state)
{
    (void)state;
    static const struct {
        const char *names; /* JSON members for each animation, "" = unnamed */
        const char *expect[6];
        uint32_t n;
    } cases[] = {
        {"'Walk'|'Walk'|'Walk#1'", {"Walk", "Walk#2", "Walk#1"}, 3},
        {"'Walk#1'|'Walk'|'Walk'", {"Walk#1", "Walk", "Walk#2"}, 3},
        {"'Walk'|'Walk#1'|'Walk'|'Walk#1'", {"Walk", "Walk#1", "Walk#2", "Walk#1#1"}, 4},
        {"'animation1'||'animation1'", {"animation1", "animation1#1", "animation1#2"}, 3},
        {"'a'|'a'|'a#2'|'a'|'a#1'|'a'", {"a", "a#3", "a#2", "a#4", "a#1", "a#5"}, 6},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char json[1024];
        size_t o = (size_t)snprintf(json, sizeof json, "{'asset':{'version':'2.0'},'animations':[");
        const char *p = cases[i].names;
        for (uint32_t c = 0; c < cases[i].n; c++) {
            const char *bar = strchr(p, '|');
            size_t len = bar ? (size_t)(bar - p) : strlen(p);
            o += (size_t)snprintf(json + o, sizeof json - o, "%s{%s%.*s%s'channels':[],'samplers':[]}",
                                  c ? "," : "", len ? "'name':" : "", (int)len, p, len ? "," : "");
            p += len + (bar ? 1 : 0);
        }
        snprintf(json + o, sizeof json - o, "]}");
        char *text = expand(json, NULL);
        anim_error err;
        anim_asset *a = load_both(text, strlen(text), false, &err);
        free(text);
        if (!a)
            fail_msg("load failed: %s", err.message);
        assert_int_equal(a->doc.clip_count, cases[i].n);
        for (uint32_t c = 0; c < cases[i].n; c++)
            assert_string_equal(a->doc.clips[c].name, cases[i].expect[c]);
        anim_asset_free(a);
    }
}

static void test_tracks(void **state)
{
    (void)state;
    blob bl;
    std_blob(&bl);
    anim_asset *a = must_load(
        STD "'nodes':[{'name':'root','children':[1]},{'name':'arm'}],"
        "'animations':[{'name':'walk','channels':["
        "{'sampler':0,'target':{'node':1,'path':'translation'}},"
        "{'sampler':1,'target':{'node':1,'path':'rotation'}},"
        "{'sampler':2,'target':{'path':'translation'}},"
        "{'sampler':3,'target':{'node':0,'path':'scale'}},"
        "{'sampler':4,'target':{'node':0,'path':'translation'}}],"
        "'samplers':[{'input':0,'output':1},{'input':0,'output':2,'interpolation':'STEP'},"
        "{'input':0,'output':1},{'input':0,'output':3,'interpolation':'LINEAR'},"
        "{'input':0,'output':4,'interpolation':'CUBICSPLINE'}]}]}",
        &bl);
    const anim_clip *c = &a->doc.clips[0];
    assert_string_equal(c->name, "walk");
    /* The channel without a target node is skipped. */
    assert_int_equal(c->track_count, 4);
    assert_int_equal(c->morph_track_count, 0);
    assert_true(c->duration_s == 1.0);
    assert_int_equal(c->max_keys, 3);

    const anim_track *t = &c->tracks[0];
    assert_int_equal(t->path, ANIM_PATH_TRANSLATION);
    assert_int_equal(t->interp, ANIM_INTERP_LINEAR);
    assert_int_equal(t->bone, 1);
    assert_int_equal(t->node, 1);
    assert_int_equal(t->key_count, 3);
    assert_int_equal(t->value_count, 3);
    assert_int_equal(t->components, 3);
    assert_int_equal(t->channel, 0);
    assert_int_equal(t->input_accessor, 0);
    assert_int_equal(t->output_accessor, 1);
    assert_true(t->times[1] == 0.5f && t->values[8] == 2.0f);
    assert_false(t->quantized);
    /* Packed aligned floats are borrowed from the buffer, not copied. */
    assert_true(t->borrowed);
    assert_true(anim_track_is_valid(t));

    t = &c->tracks[1];
    assert_int_equal(t->path, ANIM_PATH_ROTATION);
    assert_int_equal(t->interp, ANIM_INTERP_STEP);
    assert_int_equal(t->components, 4);
    assert_true(t->values[6] == (float)sin(0.1) && t->values[7] == (float)cos(0.1));

    t = &c->tracks[2];
    assert_int_equal(t->path, ANIM_PATH_SCALE);
    assert_int_equal(t->channel, 3);
    assert_int_equal(t->bone, 0);

    t = &c->tracks[3];
    assert_int_equal(t->interp, ANIM_INTERP_CUBICSPLINE);
    assert_int_equal(t->key_count, 3);
    assert_int_equal(t->value_count, 9);
    assert_int_equal(t->channel, 4);
    assert_int_equal(t->sampler, 4);
    /* Key k's value element is the middle of its triplet: element 3k+1. */
    for (uint32_t k = 0; k < 3; k++) {
        const float *v = anim_track_key_value(t, k);
        assert_true(v[0] == (float)((3 * k + 1) * 3));
        assert_true(v[2] == (float)((3 * k + 1) * 3 + 2));
    }
    assert_true(anim_track_is_valid(t));
    anim_asset_free(a);
}

static void test_duration_finite_max(void **state)
{
    (void)state;
    blob bl;
    memset(&bl, 0, sizeof bl);
    const float t1[3] = {-1.0f, 2.5f, INFINITY};
    const float t2[3] = {-3.0f, -2.0f, NAN};
    float v[9] = {0};
    put_bytes(&bl, t1, sizeof t1);
    put_bytes(&bl, t2, sizeof t2);
    put_bytes(&bl, v, sizeof v);
    anim_asset *a = must_load(
        HEAD "'bufferViews':[{'buffer':0,'byteLength':@LEN@}],"
        "'accessors':[{'bufferView':0,'componentType':5126,'count':3,'type':'SCALAR'},"
        "{'bufferView':0,'byteOffset':12,'componentType':5126,'count':3,'type':'SCALAR'},"
        "{'bufferView':0,'byteOffset':24,'componentType':5126,'count':3,'type':'VEC3'}],"
        "'nodes':[{}],'animations':["
        "{'channels':[{'sampler':0,'target':{'node':0,'path':'translation'}}],"
        "'samplers':[{'input':0,'output':2}]},"
        "{'channels':[{'sampler':0,'target':{'node':0,'path':'translation'}}],"
        "'samplers':[{'input':1,'output':2}]}]}",
        &bl);
    assert_true(a->doc.clips[0].duration_s == 2.5);
    assert_true(a->doc.clips[1].duration_s == 0.0);
    assert_string_equal(a->doc.clips[1].name, "animation1");
    /* Loading keeps structurally invalid tracks; validity is judged later. */
    assert_int_equal(a->doc.clips[0].track_count, 1);
    assert_false(anim_track_is_valid(&a->doc.clips[0].tracks[0]));
    anim_asset_free(a);
}

static void test_morph_weights_kept_apart(void **state)
{
    (void)state;
    blob bl;
    memset(&bl, 0, sizeof bl);
    const float times[2] = {0.0f, 4.0f};
    const float w[4] = {0.0f, 1.0f, 0.5f, 0.25f};
    const float pos[3] = {0};
    const float t[2] = {0.0f, 0.5f};
    const float tr[6] = {0};
    put_bytes(&bl, times, sizeof times); /* 0 */
    put_bytes(&bl, w, sizeof w);         /* 8 */
    put_bytes(&bl, pos, sizeof pos);     /* 24 */
    put_bytes(&bl, t, sizeof t);         /* 36 */
    put_bytes(&bl, tr, sizeof tr);       /* 44 */
    anim_asset *a = must_load(
        HEAD "'bufferViews':[{'buffer':0,'byteLength':@LEN@}],"
        "'accessors':[{'bufferView':0,'componentType':5126,'count':2,'type':'SCALAR'},"
        "{'bufferView':0,'byteOffset':8,'componentType':5126,'count':4,'type':'SCALAR'},"
        "{'bufferView':0,'byteOffset':24,'componentType':5126,'count':1,'type':'VEC3'},"
        "{'bufferView':0,'byteOffset':36,'componentType':5126,'count':2,'type':'SCALAR'},"
        "{'bufferView':0,'byteOffset':44,'componentType':5126,'count':2,'type':'VEC3'}],"
        "'meshes':[{'primitives':[{'attributes':{'POSITION':2},'targets':[{'POSITION':2},{'POSITION':2}]}],"
        "'weights':[0,0]}],"
        "'nodes':[{'mesh':0}],'animations':[{'channels':["
        "{'sampler':0,'target':{'node':0,'path':'weights'}},"
        "{'sampler':1,'target':{'node':0,'path':'translation'}}],"
        "'samplers':[{'input':0,'output':1},{'input':3,'output':4}]}]}",
        &bl);
    const anim_clip *c = &a->doc.clips[0];
    assert_int_equal(c->track_count, 1);
    assert_int_equal(c->morph_track_count, 1);
    assert_int_equal(c->tracks[0].path, ANIM_PATH_TRANSLATION);
    const anim_track *m = &c->morph_tracks[0];
    assert_int_equal(m->path, ANIM_PATH_WEIGHTS);
    assert_int_equal(m->components, 2);
    assert_int_equal(m->key_count, 2);
    assert_int_equal(m->value_count, 2);
    assert_true(m->values[3] == 0.25f);
    /* Weights key times do not stretch the clip. */
    assert_true(c->duration_s == 0.5);
    assert_int_equal(c->max_keys, 2);
    assert_int_equal(a->doc.meshes[0].primitives[0].target_count, 2);
    assert_int_equal(a->doc.meshes[0].weight_count, 2);
    anim_asset_free(a);
}

/* Rotations stored as normalized integers of each type, dequantized by the
 * glTF rules with the signed forms clamped at -1. */
static void test_normalized_rotations(void **state)
{
    (void)state;
    blob bl;
    memset(&bl, 0, sizeof bl);
    const float times[2] = {0.0f, 1.0f};
    const int8_t i8[8] = {-128, -127, 0, 127, 64, -64, 1, 0};
    const uint8_t u8[8] = {0, 255, 128, 1, 255, 0, 0, 0};
    const int16_t i16[8] = {-32768, -32767, 0, 32767, 16384, -1, 0, 0};
    const uint16_t u16[8] = {0, 65535, 32768, 1, 0, 0, 65535, 0};
    put_bytes(&bl, times, sizeof times); /* 0 */
    put_bytes(&bl, i8, sizeof i8);       /* 8 */
    put_bytes(&bl, u8, sizeof u8);       /* 16 */
    put_bytes(&bl, i16, sizeof i16);     /* 24 */
    put_bytes(&bl, u16, sizeof u16);     /* 40 */
    anim_asset *a = must_load(
        HEAD "'bufferViews':[{'buffer':0,'byteLength':@LEN@}],"
        "'accessors':[{'bufferView':0,'componentType':5126,'count':2,'type':'SCALAR'},"
        "{'bufferView':0,'byteOffset':8,'componentType':5120,'normalized':true,'count':2,'type':'VEC4'},"
        "{'bufferView':0,'byteOffset':16,'componentType':5121,'normalized':true,'count':2,'type':'VEC4'},"
        "{'bufferView':0,'byteOffset':24,'componentType':5122,'normalized':true,'count':2,'type':'VEC4'},"
        "{'bufferView':0,'byteOffset':40,'componentType':5123,'normalized':true,'count':2,'type':'VEC4'}],"
        "'nodes':[{}],'animations':[{'channels':["
        "{'sampler':0,'target':{'node':0,'path':'rotation'}},"
        "{'sampler':1,'target':{'node':0,'path':'rotation'}},"
        "{'sampler':2,'target':{'node':0,'path':'rotation'}},"
        "{'sampler':3,'target':{'node':0,'path':'rotation'}},"
        "{'sampler':0,'target':{'node':0,'path':'rotation'}}],"
        "'samplers':[{'input':0,'output':1},{'input':0,'output':2},{'input':0,'output':3},"
        "{'input':0,'output':4}]}]}",
        &bl);
    const anim_clip *c = &a->doc.clips[0];
    assert_int_equal(c->track_count, 5);
    /* An accessor named by two channels is decoded once. */
    assert_ptr_equal(c->tracks[0].values, c->tracks[4].values);
    for (uint32_t i = 0; i < 4; i++) {
        assert_true(c->tracks[i].quantized);
        assert_false(c->tracks[i].borrowed);
        assert_int_equal(c->tracks[i].components, 4);
    }
    const float *v = c->tracks[0].values;
    assert_true(v[0] == -1.0f && v[1] == -1.0f && v[2] == 0.0f && v[3] == 1.0f);
    assert_true(v[4] == 64.0f / 127.0f && v[5] == -64.0f / 127.0f && v[6] == 1.0f / 127.0f);
    v = c->tracks[1].values;
    assert_true(v[0] == 0.0f && v[1] == 1.0f && v[2] == 128.0f / 255.0f && v[3] == 1.0f / 255.0f);
    v = c->tracks[2].values;
    assert_true(v[0] == -1.0f && v[1] == -1.0f && v[2] == 0.0f && v[3] == 1.0f);
    assert_true(v[4] == 16384.0f / 32767.0f && v[5] == -1.0f / 32767.0f);
    v = c->tracks[3].values;
    assert_true(v[0] == 0.0f && v[1] == 1.0f && v[2] == 32768.0f / 65535.0f);
    assert_true(v[3] == 1.0f / 65535.0f && v[6] == 1.0f);
    /* anim_accessor_read_f64 agrees with the track values. */
    double f[8];
    anim_error err;
    assert_int_equal(anim_accessor_read_f64(&a->source, 1, f, &err), 0);
    assert_true(f[0] == -1.0 && f[4] == (double)(64.0f / 127.0f));
    anim_asset_free(a);
}

static void test_sparse_output(void **state)
{
    (void)state;
    blob bl;
    memset(&bl, 0, sizeof bl);
    const float times[3] = {0.0f, 1.0f, 2.0f};
    const uint16_t idx[2] = {0, 2};
    const float vals[6] = {1, 2, 3, 7, 8, 9};
    put_bytes(&bl, times, sizeof times); /* 0 */
    put_bytes(&bl, idx, sizeof idx);     /* 12 */
    put_bytes(&bl, vals, sizeof vals);   /* 16 */
    anim_asset *a = must_load(
        HEAD "'bufferViews':[{'buffer':0,'byteLength':12},{'buffer':0,'byteOffset':12,'byteLength':4},"
        "{'buffer':0,'byteOffset':16,'byteLength':24}],"
        "'accessors':[{'bufferView':0,'componentType':5126,'count':3,'type':'SCALAR'},"
        "{'componentType':5126,'count':3,'type':'VEC3','sparse':{'count':2,"
        "'indices':{'bufferView':1,'componentType':5123},'values':{'bufferView':2}}}],"
        "'nodes':[{}]," WALK("{'input':0,'output':1}"),
        &bl);
    const anim_track *t = &a->doc.clips[0].tracks[0];
    assert_false(t->borrowed);
    const float want[9] = {1, 2, 3, 0, 0, 0, 7, 8, 9};
    for (int i = 0; i < 9; i++)
        assert_true(t->values[i] == want[i]);
    assert_true(a->doc.clips[0].duration_s == 2.0);
    anim_asset_free(a);
}

/* ---- GLB --------------------------------------------------------------- */

static const char glb_json[] =
    "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":20}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":12}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"},"
    "{\"bufferView\":1,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}],"
    "\"nodes\":[{\"name\":\"n\"}],\"animations\":[{\"channels\":[{\"sampler\":0,"
    "\"target\":{\"node\":0,\"path\":\"translation\"}}],\"samplers\":[{\"input\":0,\"output\":1}]}]}";

static void test_glb_loads(void **state)
{
    (void)state;
    const float bin[5] = {0.25f, 0.0f, 1.0f, 2.0f, 3.0f};
    size_t n;
    uint8_t *g = make_glb(glb_json, (const uint8_t *)bin, sizeof bin, &n);
    anim_error err;
    anim_asset *a = anim_asset_load_memory(g, n, true, NULL, "t.glb", NULL, &err);
    if (!a)
        fail_msg("%s", err.message);
    assert_true(a->source.is_glb && a->source.has_bin);
    assert_int_equal(a->source.buffers[0].kind, ANIM_BUFFER_GLB_BIN);
    assert_int_equal(a->source.bin_length, 20);
    assert_int_equal(a->source.json_offset, 20);
    const anim_track *t = &a->doc.clips[0].tracks[0];
    assert_true(t->borrowed);
    assert_true(t->times[0] == 0.25f && t->values[2] == 3.0f);
    assert_true(a->doc.clips[0].duration_s == 0.25);
    anim_asset_free(a);
    free(g);

    /* Unknown chunk types after BIN are ignored. */
    uint8_t *g2 = calloc(1, n + 12);
    memcpy(g2, g = make_glb(glb_json, (const uint8_t *)bin, sizeof bin, &n), n);
    put_u32(g2 + 8, (uint32_t)(n + 12));
    put_u32(g2 + n, 4);
    put_u32(g2 + n + 4, 0x12345678u);
    a = anim_asset_load_memory(g2, n + 12, true, NULL, "t.glb", NULL, &err);
    if (!a)
        fail_msg("%s", err.message);
    anim_asset_free(a);
    free(g);
    free(g2);
}

static void test_glb_framing(void **state)
{
    (void)state;
    const float bin[5] = {0.25f, 0.0f, 1.0f, 2.0f, 3.0f};
    size_t n;
    uint8_t *good = make_glb(glb_json, (const uint8_t *)bin, sizeof bin, &n);
    size_t jp = n - 12 - 8 - 8 - 20; /* padded JSON length */
    uint8_t *g = malloc(n + 16);

    expect_glb_refusal(good, 8, "GLB header: the file is 8 bytes, shorter than the 12-byte header");
    expect_glb_refusal(good, 0, "GLB header: the file is 0 bytes, shorter than the 12-byte header");

    memcpy(g, good, n);
    g[0] = 'x';
    expect_glb_refusal(g, n, "GLB header: magic is not \"glTF\"");

    memcpy(g, good, n);
    put_u32(g + 4, 1);
    expect_glb_refusal(g, n, "GLB header: container version 1 is not 2");

    memcpy(g, good, n);
    char msg[256];
    snprintf(msg, sizeof msg, "GLB header: declares a length of %zu bytes, but the file is %zu bytes",
             n, n - 4);
    expect_glb_refusal(g, n - 4, msg);

    /* JSON chunk declared longer than what is left of the file. */
    memcpy(g, good, n);
    put_u32(g + 12, (uint32_t)(n));
    snprintf(msg, sizeof msg, "GLB chunk 0: declares %zu bytes at byte 20, past the end of the file", n);
    expect_glb_refusal(g, n, msg);

    /* BIN chunk overrunning the end. */
    memcpy(g, good, n);
    put_u32(g + 20 + jp, 24);
    snprintf(msg, sizeof msg, "GLB chunk 1: declares 24 bytes at byte %zu, past the end of the file",
             28 + jp);
    expect_glb_refusal(g, n, msg);

    memcpy(g, good, n);
    put_u32(g + 12, (uint32_t)(jp - 2));
    snprintf(msg, sizeof msg, "GLB chunk 0: length %zu is not a multiple of 4", jp - 2);
    expect_glb_refusal(g, n, msg);

    memcpy(g, good, n);
    put_u32(g + 16, 0x004E4942u);
    expect_glb_refusal(g, n, "GLB chunk 0: type 0x004e4942 is not JSON");

    /* JSON, then an unknown chunk, then BIN. */
    {
        size_t m = 12 + 8 + jp + 8 + 4 + 8 + 20;
        uint8_t *h = calloc(1, m);
        memcpy(h, good, 20 + jp);
        put_u32(h + 8, (uint32_t)m);
        put_u32(h + 20 + jp, 4);
        put_u32(h + 24 + jp, 0x5453494Cu);
        memcpy(h + 32 + jp, good + 20 + jp, 28);
        expect_glb_refusal(h, m, "GLB chunk 2: a BIN chunk must directly follow the JSON chunk");
        free(h);
    }

    /* A second JSON chunk. */
    memcpy(g, good, n);
    put_u32(g + 24 + jp, 0x4E4F534Au);
    expect_glb_refusal(g, n, "GLB chunk 1: a second JSON chunk");

    /* Four stray bytes after the last chunk: a truncated chunk header. */
    memcpy(g, good, n);
    memset(g + n, 0, 4);
    put_u32(g + 8, (uint32_t)(n + 4));
    snprintf(msg, sizeof msg, "GLB chunk 2: header at byte %zu is truncated", n);
    expect_glb_refusal(g, n + 4, msg);

    /* Header only, and an empty JSON chunk. */
    memcpy(g, good, 12);
    put_u32(g + 8, 12);
    expect_glb_refusal(g, 12, "GLB: no JSON chunk");
    put_u32(g + 8, 20);
    put_u32(g + 12, 0);
    put_u32(g + 16, 0x4E4F534Au);
    expect_glb_refusal(g, 20, "GLB chunk 0: the JSON chunk is empty");

    /* BIN chunk shorter than the buffer's byteLength. */
    free(good);
    good = make_glb(glb_json, (const uint8_t *)bin, 8, &n);
    expect_glb_refusal(good, n,
                       "clip 'animation0' node 0 sampler output: accessor 1 reads its elements from "
                       "buffer view 1, whose byte extent 8..20 exceeds the 8 bytes that resolved for "
                       "buffer 0");
    free(good);
    /* No BIN chunk at all. */
    good = make_glb(glb_json, NULL, 0, &n);
    expect_glb_refusal(good, n,
                       "clip 'animation0' node 0 sampler input: accessor 0 reads its elements from "
                       "buffer view 0, whose byte extent 0..8 exceeds the 0 bytes that resolved for "
                       "buffer 0");
    free(good);
    free(g);
}

/* ---- document-level refusals ------------------------------------------- */

static void test_json_and_extension_refusals(void **state)
{
    (void)state;
    expect_refusal("{'asset':{'version':'2.0'},'nodes':[],'nodes':[]}", NULL,
                   "glTF parse error: JSON: line 1 column 39 (byte 38): duplicate key \"nodes\"");
    expect_refusal("{'nodes':[]}", NULL, "glTF root: missing required \"asset\"");
    expect_refusal("{'asset':{'version':'1.0'}}", NULL, "asset: glTF version \"1.0\" is not 2.x");
    expect_refusal("[]", NULL, "glTF root: expected a JSON object, found array");
    expect_refusal("{'asset':{'version':'2.0'},'extensionsUsed':['KHR_mesh_quantization'],"
                   "'extensionsRequired':['KHR_mesh_quantization']}",
                   NULL,
                   "extensionsRequired[0] = \"KHR_mesh_quantization\": unsupported extension "
                   "(quantized attributes are not decoded; re-export without mesh quantization, "
                   "e.g. gltf-transform dequantize)");
    expect_refusal("{'asset':{'version':'2.0'},'extensionsRequired':['KHR_texture_transform',"
                   "'EXT_meshopt_compression']}",
                   NULL,
                   "extensionsRequired[1] = \"EXT_meshopt_compression\": unsupported extension "
                   "(compressed buffers are not decoded; re-export without geometry compression)");
    /* Required extensions that do not change decoded data are accepted. */
    anim_asset *a = must_load("{'asset':{'version':'2.0'},'extensionsUsed':['KHR_materials_unlit'],"
                              "'extensionsRequired':['KHR_materials_unlit']}",
                              NULL);
    assert_int_equal(a->source.extensions_required_count, 1);
    anim_asset_free(a);
}

/* A mesh whose POSITION is accessor 0 and TEXCOORD_0/WEIGHTS_0 accessor 1. */
#define MESH_DOC(pos_acc, attr_acc, attrs)                                                   \
    HEAD "'bufferViews':[{'buffer':0,'byteLength':@LEN@}],'accessors':[" pos_acc "," attr_acc \
         "],'meshes':[{'primitives':[{'attributes':" attrs "}]}],'nodes':[{'mesh':0}]}"
#define POS_F "{'bufferView':0,'componentType':5126,'count':2,'type':'VEC3'}"

static void test_mesh_refusals(void **state)
{
    (void)state;
    blob bl;
    memset(&bl, 0, sizeof bl);
    uint8_t zeros[64] = {0};
    put_bytes(&bl, zeros, sizeof zeros);

    expect_refusal("{'asset':{'version':'2.0'},'extensionsUsed':['KHR_mesh_quantization'],"
                   "'buffers':[{'byteLength':@LEN@,'uri':'@URI@'}],"
                   "'bufferViews':[{'buffer':0,'byteLength':@LEN@}],"
                   "'accessors':[{'bufferView':0,'componentType':5122,'count':2,'type':'VEC3'}],"
                   "'meshes':[{'primitives':[{'attributes':{'POSITION':0}}]}],'nodes':[{'mesh':0}]}",
                   &bl,
                   "mesh 0 primitive 0 POSITION: accessor 0 is VEC3 of SHORT, but the loader reads "
                   "VEC3 of FLOAT");
    expect_refusal(MESH_DOC(POS_F, "{'bufferView':0,'componentType':5123,'count':2,'type':'VEC2'}",
                            "{'POSITION':0,'TEXCOORD_0':1}"),
                   &bl,
                   "mesh 0 primitive 0 TEXCOORD_0: accessor 1 is VEC2 of UNSIGNED_SHORT without "
                   "\"normalized\": true, but the loader reads VEC2 of FLOAT or normalized "
                   "UNSIGNED_BYTE/UNSIGNED_SHORT");
    expect_refusal(MESH_DOC(POS_F, "{'bufferView':0,'componentType':5121,'count':2,'type':'VEC4'}",
                            "{'POSITION':0,'WEIGHTS_0':1}"),
                   &bl,
                   "mesh 0 primitive 0 WEIGHTS_0: accessor 1 is VEC4 of UNSIGNED_BYTE without "
                   "\"normalized\": true, but the loader reads VEC4 of FLOAT or normalized "
                   "UNSIGNED_BYTE/UNSIGNED_SHORT");
    expect_refusal(MESH_DOC(POS_F, "{'bufferView':0,'componentType':5126,'count':2,'type':'VEC3'}",
                            "{'POSITION':0,'TEXCOORD_0':1}"),
                   &bl,
                   "mesh 0 primitive 0 TEXCOORD_0: accessor 1 is VEC3 of FLOAT, but the loader reads "
                   "VEC2 of FLOAT or normalized UNSIGNED_BYTE/UNSIGNED_SHORT");
    /* The flagged integer forms load. */
    anim_asset *a = must_load(
        MESH_DOC(POS_F,
                 "{'bufferView':0,'componentType':5123,'normalized':true,'count':2,'type':'VEC2'}",
                 "{'POSITION':0,'TEXCOORD_0':1}"),
        &bl);
    assert_int_equal(a->doc.meshes[0].primitives[0].vertex_count, 2);
    assert_int_equal(a->doc.meshes[0].primitives[0].position, 0);
    anim_asset_free(a);

    /* Layouts the reader cannot walk. */
    expect_refusal(HEAD "'bufferViews':[{'buffer':0,'byteLength':@LEN@,'byteStride':8}],"
                        "'accessors':[" POS_F "],"
                        "'meshes':[{'primitives':[{'attributes':{'POSITION':0}}]}]}",
                   &bl,
                   "mesh 0 primitive 0 POSITION: accessor 0 reads its elements from buffer view 0, "
                   "whose byteStride 8 is shorter than its 12-byte element");
    expect_refusal(HEAD "'bufferViews':[{'buffer':0,'byteLength':@LEN@}],"
                        "'accessors':[{'componentType':5126,'count':2,'type':'VEC3','sparse':{'count':0,"
                        "'indices':{'bufferView':0,'componentType':5125},'values':{'bufferView':0}}}],"
                        "'meshes':[{'primitives':[{'attributes':{'POSITION':0}}]}]}",
                   &bl, "mesh 0 primitive 0 POSITION: accessor 0 has a sparse block of count 0");
    expect_refusal(HEAD "'bufferViews':[{'buffer':0,'byteLength':16}],"
                        "'accessors':[" POS_F "],"
                        "'meshes':[{'primitives':[{'attributes':{'POSITION':0}}]}]}",
                   &bl,
                   "mesh 0 primitive 0 POSITION: accessor 0 needs 24 bytes of elements at byteOffset "
                   "0 of buffer view 0, which is 16 bytes long");
    expect_refusal(HEAD "'bufferViews':[{'buffer':0,'byteLength':@LEN@},{'buffer':0,'byteLength':4}],"
                        "'accessors':[{'componentType':5126,'count':4,'type':'VEC3','sparse':{'count':2,"
                        "'indices':{'bufferView':0,'componentType':5125},'values':{'bufferView':1}}}],"
                        "'meshes':[{'primitives':[{'attributes':{'POSITION':0}}]}]}",
                   &bl,
                   "mesh 0 primitive 0 POSITION: accessor 0 needs 24 bytes of sparse values at "
                   "byteOffset 0 of buffer view 1, which is 4 bytes long");
    expect_refusal(HEAD "'bufferViews':[{'buffer':0,'byteLength':4},{'buffer':0,'byteLength':@LEN@}],"
                        "'accessors':[{'componentType':5126,'count':4,'type':'VEC3','sparse':{'count':2,"
                        "'indices':{'bufferView':0,'byteOffset':2,'componentType':5123},"
                        "'values':{'bufferView':1}}}],"
                        "'meshes':[{'primitives':[{'attributes':{'POSITION':0}}]}]}",
                   &bl,
                   "mesh 0 primitive 0 POSITION: accessor 0 needs 4 bytes of sparse indices at "
                   "byteOffset 2 of buffer view 0, which is 4 bytes long");
    /* Sparse indices must be strictly increasing and inside the accessor. */
    expect_refusal(HEAD "'bufferViews':[{'buffer':0,'byteLength':@LEN@}],"
                        "'accessors':[{'componentType':5126,'count':4,'type':'VEC3','sparse':{'count':2,"
                        "'indices':{'bufferView':0,'componentType':5123},'values':{'bufferView':0}}}],"
                        "'meshes':[{'primitives':[{'attributes':{'POSITION':0}}]}]}",
                   &bl,
                   "mesh 0 primitive 0 POSITION: accessor 0 sparse index 1 is 0, which is not "
                   "strictly increasing");
    /* The view beyond the buffer's byteLength, and beyond the resolved bytes. */
    expect_refusal(HEAD "'bufferViews':[{'buffer':0,'byteOffset':60,'byteLength':24}],"
                        "'accessors':[" POS_F "],"
                        "'meshes':[{'primitives':[{'attributes':{'POSITION':0}}]}]}",
                   &bl,
                   "mesh 0 primitive 0 POSITION: accessor 0 reads its elements from buffer view 0, "
                   "whose byte extent 60..84 exceeds buffer 0's byteLength 64");
    expect_refusal("{'asset':{'version':'2.0'},'buffers':[{'byteLength':100,'uri':'@URI@'}],"
                   "'bufferViews':[{'buffer':0,'byteOffset':60,'byteLength':24}],"
                   "'accessors':[" POS_F "],"
                   "'meshes':[{'primitives':[{'attributes':{'POSITION':0}}]}]}",
                   &bl,
                   "mesh 0 primitive 0 POSITION: accessor 0 reads its elements from buffer view 0, "
                   "whose byte extent 60..84 exceeds the 64 bytes that resolved for buffer 0");
    expect_refusal(HEAD "'bufferViews':[{'buffer':0,'byteLength':@LEN@}],"
                        "'accessors':[{'bufferView':0,'componentType':5126,'count':2,'type':'SCALAR'}],"
                        "'meshes':[{'primitives':[{'attributes':{'POSITION':0},'indices':0}]}]}",
                   &bl,
                   "mesh 0 primitive 0 POSITION: accessor 0 is SCALAR of FLOAT, but the loader reads "
                   "VEC3 of FLOAT");
}

/* ---- animation refusals ------------------------------------------------ */

static void test_animation_refusals(void **state)
{
    (void)state;
    blob bl;
    std_blob(&bl);
    const char *nodes4 = "'nodes':[{},{},{},{}],";
    char doc[4096];

    /* The documented overflowing byteOffset (poisoned-track), named by
     * clip and node. */
    expect_refusal(HEAD "'bufferViews':[{'buffer':0,'byteOffset':18446744073709551615,'byteLength':12},"
                        "{'buffer':0,'byteOffset':12,'byteLength':36}],"
                        "'accessors':[" ACC2 "],'nodes':[{},{},{},{}],"
                        "'animations':[{'name':'walk','channels':[{'sampler':0,'target':{'node':3,"
                        "'path':'translation'}}],'samplers':[{'input':0,'output':1}]}]}",
                   &bl,
                   "clip 'walk' node 3 sampler input: accessor 0 reads its elements from buffer view "
                   "0, whose byteOffset 18446744073709551615 plus byteLength 12 is a byte extent that "
                   "overflows");
    /* Mistyped sampler accessors. */
    expect_refusal(STD "'nodes':[{}]," WALK("{'input':1,'output':1}"), &bl,
                   "animation 0 sampler 0 input for node 0 translation: accessor 1 is VEC3 of FLOAT, "
                   "but the loader reads SCALAR of FLOAT");
    expect_refusal(STD "'nodes':[{}]," WALK("{'input':0,'output':2}"), &bl,
                   "animation 0 sampler 0 output for node 0 translation: accessor 2 is VEC4 of FLOAT, "
                   "but the loader reads VEC3 of FLOAT");
    expect_refusal(STD "'nodes':[{}],'animations':[{'channels':[{'sampler':0,'target':{'node':0,"
                       "'path':'rotation'}}],'samplers':[{'input':0,'output':1}]}]}",
                   &bl,
                   "animation 0 sampler 0 output for node 0 rotation: accessor 1 is VEC3 of FLOAT, "
                   "but the loader reads VEC4 of FLOAT or normalized "
                   "BYTE/UNSIGNED_BYTE/SHORT/UNSIGNED_SHORT");
    expect_refusal(HEAD STD_VIEWS "'accessors':[" STD_ACC ",{'bufferView':2,'componentType':5123,"
                                  "'count':3,'type':'VEC4'}],'nodes':[{}],"
                                  "'animations':[{'channels':[{'sampler':0,'target':{'node':0,"
                                  "'path':'rotation'}}],'samplers':[{'input':0,'output':5}]}]}",
                   &bl,
                   "animation 0 sampler 0 output for node 0 rotation: accessor 5 is VEC4 of "
                   "UNSIGNED_SHORT without \"normalized\": true, but the loader reads VEC4 of FLOAT "
                   "or normalized BYTE/UNSIGNED_BYTE/SHORT/UNSIGNED_SHORT");
    expect_refusal(HEAD STD_VIEWS "'accessors':[" STD_ACC ",{'bufferView':1,'componentType':5122,"
                                  "'normalized':true,'count':3,'type':'VEC3'}],'nodes':[{}],"
                                  WALK("{'input':0,'output':5}"),
                   &bl,
                   "animation 0 sampler 0 output for node 0 translation: accessor 5 is VEC3 of SHORT, "
                   "but the loader reads VEC3 of FLOAT");
    /* Zero keyframes, count mismatch. */
    expect_refusal(HEAD STD_VIEWS "'accessors':[" STD_ACC ",{'bufferView':0,'componentType':5126,"
                                  "'count':0,'type':'SCALAR'}],'nodes':[{}]," WALK("{'input':5,'output':1}"),
                   &bl,
                   "malformed animation data: clip 'walk' node 0: animation channel with zero "
                   "keyframes");
    expect_refusal(STD "'nodes':[{}]," WALK("{'input':0,'output':4}"), &bl,
                   "malformed animation data: clip 'walk' node 0: 3 keyframe times but 9 output "
                   "values (expected 3)");
    expect_refusal(STD "'nodes':[{}]," WALK("{'input':0,'output':1,'interpolation':'CUBICSPLINE'}"),
                   &bl,
                   "malformed animation data: clip 'walk' node 0: 3 keyframe times but 3 output "
                   "values (expected 9)");
    expect_refusal(STD "'nodes':[{}]," WALK("{'input':0,'output':1,'interpolation':'SMOOTH'}"), &bl,
                   "animation 0 sampler 0: interpolation \"SMOOTH\" is not LINEAR, STEP or "
                   "CUBICSPLINE");
    /* Target path and node. */
    snprintf(doc, sizeof doc,
             STD "%s'animations':[{'name':'walk','channels':[{'sampler':0,'target':{'node':0,"
                 "'path':'pointer'}}],'samplers':[{'input':0,'output':1}]}]}",
             nodes4);
    expect_refusal(doc, &bl,
                   "malformed animation data: animation 0 channel 0: unknown target path "
                   "\"pointer\"");
    snprintf(doc, sizeof doc,
             STD "%s'animations':[{'name':'walk','channels':[{'sampler':0,'target':{'node':4,"
                 "'path':'translation'}}],'samplers':[{'input':0,'output':1}]}]}",
             nodes4);
    expect_refusal(doc, &bl,
                   "malformed animation data: animation 0 channel 0: target node 4 does not exist "
                   "(the file has 4 nodes)");
    expect_refusal(STD "'nodes':[{}],'animations':[{'channels':[{'sampler':1,'target':{'node':0,"
                       "'path':'translation'}}],'samplers':[{'input':0,'output':1}]}]}",
                   &bl, "animation 0 channel 0: \"sampler\" refers to sampler 1, but the file has 1");
    expect_refusal(STD "'nodes':[{}]," WALK("{'input':9,'output':1}"), &bl,
                   "animation 0 sampler 0: \"input\" refers to accessor 9, but the file has 5");
    /* Weights on a node without a mesh whose count does not divide. */
    expect_refusal(STD "'nodes':[{}],'animations':[{'name':'walk','channels':[{'sampler':0,"
                       "'target':{'node':0,'path':'weights'}}],'samplers':[{'input':4,'output':0}]}]}",
                   &bl,
                   "animation 0 sampler 0 input for node 0 weights: accessor 4 is VEC3 of FLOAT, "
                   "but the loader reads SCALAR of FLOAT");
}

/* ---- the scanner against the tree --------------------------------------- */

/* The loader reads "bufferViews", "accessors" and "animations" straight
 * from the text (gltf_scan.c) and falls back to the tree for anything
 * unusual. Both paths must agree exactly: same tables, same clips, and on
 * a refusal the same message. gltf_tree_only forces the tree path. */

static void same_track(const anim_track *x, const anim_track *y)
{
    assert_int_equal(x->bone, y->bone);
    assert_int_equal(x->node, y->node);
    assert_int_equal(x->path, y->path);
    assert_int_equal(x->interp, y->interp);
    assert_int_equal(x->key_count, y->key_count);
    assert_int_equal(x->components, y->components);
    assert_int_equal(x->value_count, y->value_count);
    assert_int_equal(x->channel, y->channel);
    assert_int_equal(x->sampler, y->sampler);
    assert_int_equal(x->input_accessor, y->input_accessor);
    assert_int_equal(x->output_accessor, y->output_accessor);
    assert_int_equal(x->quantized, y->quantized);
    assert_int_equal(x->borrowed, y->borrowed);
    assert_memory_equal(x->times, y->times, x->key_count * sizeof(float));
    if (x->value_count)
        assert_memory_equal(x->values, y->values,
                            (size_t)x->value_count * x->components * sizeof(float));
}

static void same_assets(const anim_asset *a, const anim_asset *b)
{
    const anim_source *s = &a->source, *t = &b->source;
    assert_int_equal(s->view_count, t->view_count);
    assert_int_equal(s->accessor_count, t->accessor_count);
    if (s->view_count)
        assert_memory_equal(s->views, t->views, s->view_count * sizeof *s->views);
    for (uint32_t i = 0; i < s->accessor_count; i++) {
        anim_accessor x = s->accessors[i], y = t->accessors[i];
        assert_string_equal(x.type, y.type);
        assert_int_equal(x.has_min, y.has_min);
        assert_int_equal(x.has_max, y.has_max);
        if (x.has_min)
            assert_memory_equal(x.min, y.min, x.components * sizeof(double));
        if (x.has_max)
            assert_memory_equal(x.max, y.max, x.components * sizeof(double));
        x.min = x.max = y.min = y.max = NULL;
        x.type = y.type = NULL;
        assert_memory_equal(&x, &y, sizeof x);
    }
    const anim_doc *d = &a->doc, *e = &b->doc;
    assert_int_equal(d->clip_count, e->clip_count);
    for (uint32_t c = 0; c < d->clip_count; c++) {
        const anim_clip *x = &d->clips[c], *y = &e->clips[c];
        assert_string_equal(x->name, y->name);
        assert_int_equal(x->has_name, y->has_name);
        assert_int_equal(x->track_count, y->track_count);
        assert_int_equal(x->morph_track_count, y->morph_track_count);
        assert_int_equal(x->max_keys, y->max_keys);
        assert_memory_equal(&x->duration_s, &y->duration_s, sizeof x->duration_s);
        for (uint32_t k = 0; k < x->track_count; k++)
            same_track(&x->tracks[k], &y->tracks[k]);
        for (uint32_t k = 0; k < x->morph_track_count; k++)
            same_track(&x->morph_tracks[k], &y->morph_tracks[k]);
    }
}

/* Loads bytes both ways; returns the scanner's asset (NULL when refused,
 * with the message in err after checking the tree gave the same one). */
static anim_asset *load_both(const void *bytes, size_t len, bool glb, anim_error *err)
{
    anim_error terr;
    anim_error_clear(err);
    anim_error_clear(&terr);
    anim_asset *a = anim_asset_load_memory(bytes, len, glb, NULL, "t.gltf", NULL, err);
    gltf_tree_only = true;
    anim_asset *b = anim_asset_load_memory(bytes, len, glb, NULL, "t.gltf", NULL, &terr);
    gltf_tree_only = false;
    if (!a != !b)
        fail_msg("scanner %s, tree %s", a ? "loaded" : err->message, b ? "loaded" : terr.message);
    if (a)
        same_assets(a, b);
    else {
        assert_string_equal(err->message, terr.message);
        assert_int_equal(err->code, terr.code);
    }
    anim_asset_free(b);
    return a;
}

/* True when the scanner consumed the root member key (it stays deferred
 * until someone reads it). */
static bool scanned(const anim_asset *a, const char *key)
{
    const anim_json_value *v = json_get_raw(a->source.root, key, strlen(key));
    return v && (v->flags & ANIM_JSON_F_DEFERRED);
}

static void test_scan_matches_tree(void **state)
{
    (void)state;
    blob bl;
    std_blob(&bl);
    /* Accepted documents: the scanner must take the plain ones and may
     * decline the rest; either way both paths agree. */
    static const struct {
        const char *tmpl;
        bool scans; /* all three arrays read by the scanner */
    } ok[] = {
        {STD "'nodes':[{}]," WALK("{'input':0,'output':1}"), true},
        /* Whitespace everywhere, unknown scalar members, names, STEP,
         * normalized false, min/max, byteStride, a channel without node. */
        {HEAD "'bufferViews' : [ { 'buffer' : 0 , 'byteLength' : 12 , 'name' : 'tv' , 'target' : 34962 } ,\n"
              "\t{'buffer':0,'byteOffset':12,'byteLength':36,'byteStride':12,'extrasx':null}],\r\n"
              "'accessors':[{'bufferView':0,'componentType':5126,'count':3,'type':'SCALAR',"
              "'min':[0],'max':[1.0e0],'normalized':false,'name':'t\\u00e9'},"
              "{'bufferView':1,'byteOffset':0,'componentType':5126,'count':3,'type':'VEC3',"
              "'max':[2.0,-1.5e-3,1e2],'min':[0,0,-0.0]}],'nodes':[{},{}],"
              "'animations':[{'name':'w\xc3\xa9lk','samplers':[{'output':1,'input':0,"
              "'interpolation':'STEP','u':true}],'channels':[{'target':{'path':'translation',"
              "'node':1},'sampler':0},{'sampler':0,'target':{'path':'weights'}}]},"
              "{'channels':[],'samplers':[]},{'name':'walk','channels':[],'samplers':[]},"
              "{'name':'walk','channels':[],'samplers':[]}]}",
         true},
        /* Shapes the scanner declines: an escaped key, an object member,
         * sparse, extras, a float index that the tree refuses... */
        {STD "'nodes':[{}],'animations':[{'name':'walk','channels':[{'sampler':0,'target':"
             "{'node':0,'path':'translation'}}],'samplers':[{'input':0,'output':1}],"
             "'extras':{'a':1}}]}",
         false},
        {HEAD STD_VIEWS "'accessors':[{'bufferView':0,'componentType':5126,'count':3,"
                        "'type':'SCALAR'},{'bufferView':1,'componentType':5126,'count':3,"
                        "'type':'VEC3','sparse':{'count':1,'indices':{'bufferView':0,"
                        "'componentType':5125},'values':{'bufferView':1}}}],'nodes':[{}]," WALK("{'input':0,'output':1}"),
         false},
        {STD "'nodes':[{}],'animations':[{'name':'w\\u0061lk','channels':[{'sampler':0,"
             "'target':{'node':0,'path':'translation'}}],'samplers':[{'input':0,'output':1}]}]}",
         false},
        {STD "'nodes':[{}],'animations':[{'name':'walk','channels':[{'\\u0073ampler':0,"
             "'target':{'node':0,'path':'translation'}}],'samplers':[{'input':0,'output':1}]}]}",
         false},
        /* A target without a node but with an unknown path is skipped. */
        {STD "'nodes':[{}],'animations':[{'channels':[{'sampler':0,'target':{'path':'pointer'}}],"
             "'samplers':[{'input':0,'output':1}]}]}",
         false},
        /* Shared key times and a CUBICSPLINE output. */
        {STD "'nodes':[{},{}],'animations':[{'channels':[{'sampler':0,'target':{'node':0,"
             "'path':'translation'}},{'sampler':1,'target':{'node':1,'path':'scale'}}],"
             "'samplers':[{'input':0,'output':4,'interpolation':'CUBICSPLINE'},"
             "{'input':0,'output':3}]}]}",
         true},
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        char *json = expand(ok[i].tmpl, &bl);
        anim_error err;
        anim_asset *a = load_both(json, strlen(json), false, &err);
        if (!a)
            fail_msg("document %zu refused: %s", i, err.message);
        if (ok[i].scans) {
            assert_true(scanned(a, "bufferViews"));
            assert_true(scanned(a, "accessors"));
            assert_true(scanned(a, "animations"));
        }
        anim_asset_free(a);
        free(json);
    }

    /* Refusals: the scanner declines or its records fail a check, and the
     * tree path names the fault exactly as before. */
    static const char *const bad[] = {
        /* JSON faults inside the scanned arrays. */
        STD "'nodes':[{}],'animations':[{'name':'walk','channels':[],'samplers':[],}]}",
        STD "'nodes':[{}],'animations':[{'name':'walk','name':'x','channels':[],'samplers':[]}]}",
        HEAD STD_VIEWS "'accessors':[{'bufferView':0,'count':3,'count':3,'componentType':5126,"
                       "'type':'SCALAR'}]}",
        HEAD STD_VIEWS "'accessors':[{'bufferView':0,'count':03,'componentType':5126,'type':'SCALAR'}]}",
        HEAD STD_VIEWS "'accessors':[{'bufferView':0,'count':3,'componentType':5126,'type':'SCALAR',"
                       "'max':[1e999]}]}",
        HEAD STD_VIEWS "'accessors':[{'bufferView':0,'count':3,'componentType':5126,'type':'SC\x01'}]}",
        HEAD STD_VIEWS "'accessors':[{'bufferView':0,'count':3,'componentType':5126,'type':'S\xc0\xafR'}]}",
        HEAD STD_VIEWS "'accessors':[{'bufferView':0,'count':3,'componentType':5126,'type':'SCALAR'}",
        HEAD "'bufferViews':[{'buffer':0,'byteLength':12 'byteOffset':0}]}",
        HEAD "'bufferViews':[{'buffer':0,'byteLength':12,'x':tru}]}",
        HEAD "'bufferViews':[{'buffer':0,'byteLength':12,'a':1,'b':2,'c':3,'d':4,'e':5,'f':6,"
             "'g':7,'h':8,'i':9,'a':10}]}",
        HEAD "'bufferViews':[{'buffer':0,'byteLength':12,'x':1,'x':2}]}",
        HEAD "'bufferViews':[{'buffer':0,'byteLength':12}],'bufferViews':[]}",
        /* glTF faults the records carry. */
        HEAD "'bufferViews':[{'buffer':1,'byteLength':12}]}",
        HEAD "'bufferViews':[{'byteLength':12}]}",
        HEAD "'bufferViews':[{'buffer':0}]}",
        HEAD "'bufferViews':[{'buffer':0,'byteLength':0}]}",
        HEAD "'bufferViews':[{'buffer':0,'byteLength':12,'byteStride':6}]}",
        HEAD "'bufferViews':[{'buffer':0,'byteLength':12,'byteStride':256}]}",
        HEAD "'bufferViews':[{'buffer':0,'byteLength':-12}]}",
        HEAD "'bufferViews':[{'buffer':0,'byteLength':1.5}]}",
        HEAD "'bufferViews':[{'buffer':'0','byteLength':12}]}",
        HEAD "'bufferViews':[{'buffer':0,'byteLength':99999999999999999999}]}",
        HEAD "'bufferViews':[{'buffer':0,'byteLength':12},7]}",
        HEAD "'bufferViews':{}}",
        HEAD STD_VIEWS "'accessors':[{'bufferView':5,'componentType':5126,'count':3,'type':'SCALAR'}]}",
        HEAD STD_VIEWS "'accessors':[{'bufferView':0,'count':3,'type':'SCALAR'}]}",
        HEAD STD_VIEWS "'accessors':[{'bufferView':0,'componentType':5126,'type':'SCALAR'}]}",
        HEAD STD_VIEWS "'accessors':[{'bufferView':0,'componentType':5126,'count':3}]}",
        HEAD STD_VIEWS "'accessors':[{'bufferView':0,'componentType':5127,'count':3,'type':'SCALAR'}]}",
        HEAD STD_VIEWS "'accessors':[{'bufferView':0,'componentType':5126,'count':4294967296,'type':'SCALAR'}]}",
        HEAD STD_VIEWS "'accessors':[{'bufferView':0,'componentType':5126,'count':3,'type':'VEC5'}]}",
        HEAD STD_VIEWS "'accessors':[{'bufferView':0,'componentType':5126,'count':3,'type':'SCALAR',"
                       "'normalized':true}]}",
        HEAD STD_VIEWS "'accessors':[{'bufferView':0,'componentType':5126,'count':3,'type':'SCALAR',"
                       "'normalized':1}]}",
        HEAD STD_VIEWS "'accessors':[{'bufferView':0,'componentType':5126,'count':3,'type':'VEC3',"
                       "'min':[0,0]}]}",
        HEAD STD_VIEWS "'accessors':[{'bufferView':0,'componentType':5126,'count':3,'type':'SCALAR',"
                       "'max':[0,'a']}]}",
        HEAD STD_VIEWS "'accessors':[{'bufferView':0,'componentType':5126,'count':3,'type':7}]}",
        STD "'nodes':[{}],'animations':[{'name':'walk','samplers':[]}]}",
        STD "'nodes':[{}],'animations':[{'name':'walk','channels':[]}]}",
        STD "'nodes':[{}],'animations':[{'name':7,'channels':[],'samplers':[]}]}",
        STD "'nodes':[{}],'animations':[{'name':'w\\u0000','channels':[],'samplers':[]}]}",
        STD "'nodes':[{}]," WALK("{'input':0}"),
        STD "'nodes':[{}]," WALK("{'input':0,'output':5}"),
        STD "'nodes':[{}]," WALK("{'input':0,'output':1,'interpolation':'linear'}"),
        STD "'nodes':[{}]," WALK("{'input':0,'output':1,'interpolation':5}"),
        STD "'nodes':[{}]," WALK("7"),
        STD "'nodes':[{}],'animations':[{'channels':[{'target':{'node':0,'path':'translation'}}],"
            "'samplers':[{'input':0,'output':1}]}]}",
        STD "'nodes':[{}],'animations':[{'channels':[{'sampler':0}],'samplers':[{'input':0,'output':1}]}]}",
        STD "'nodes':[{}],'animations':[{'channels':[{'sampler':0,'target':{'node':0}}],"
            "'samplers':[{'input':0,'output':1}]}]}",
        STD "'nodes':[{}],'animations':[{'channels':[{'sampler':0,'target':{'node':1,'path':'scale'}}],"
            "'samplers':[{'input':0,'output':1}]}]}",
        STD "'nodes':[{}],'animations':[{'channels':[{'sampler':0,'target':{'node':0,'path':'scale'}},"
            "{'sampler':0,'target':{'node':0,'path':'rotation'}}],'samplers':[{'input':0,'output':1}]}]}",
        STD "'nodes':[{}],'animations':[{'channels':[{'sampler':0,'target':{'node':0,'path':7}}],"
            "'samplers':[{'input':0,'output':1}]}]}",
        STD "'nodes':[{}],'animations':[{'channels':[{'sampler':0,'target':7}],"
            "'samplers':[{'input':0,'output':1}]}]}",
        STD "'nodes':[{}],'animations':[7]}",
        STD "'nodes':[{}],'animations':{}}",
        /* A fault in a later clip after good ones, and one in the JSON
         * after the scanned arrays. */
        STD "'nodes':[{}],'animations':[{'channels':[],'samplers':[]},{'channels':[{'sampler':0,"
            "'target':{'node':0,'path':'translation'}}],'samplers':[{'input':0,'output':2}]}]}",
        STD "'nodes':[{}]," WALK("{'input':0,'output':1}") ",",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *json = expand(bad[i], &bl);
        anim_error err;
        anim_asset *a = load_both(json, strlen(json), false, &err);
        if (a) {
            anim_asset_free(a);
            fail_msg("document %zu loaded: %s", i, json);
        }
        free(json);
    }
}

/* The deferred arrays read like any other JSON once asked for. */
static void test_scanned_arrays_expand(void **state)
{
    (void)state;
    blob bl;
    std_blob(&bl);
    anim_asset *a = must_load(STD "'nodes':[{}]," WALK("{'input':0,'output':1}"), &bl);
    const anim_json_value *root = a->source.root;
    assert_true(scanned(a, "accessors"));
    /* Walking the root's members reaches the deferred values too. */
    bool seen = false;
    for (size_t i = 0; i < anim_json_count(root); i++) {
        const anim_json_member *m = anim_json_member_at(root, i);
        if (anim_json_key_len(m) == 9 && !memcmp(m->key, "accessors", 9)) {
            assert_int_equal(anim_json_count(&m->value), 5);
            const anim_json_value *acc = anim_json_item(&m->value, 1);
            assert_false(m->value.flags & ANIM_JSON_F_DEFERRED);
            assert_int_equal(acc->type, ANIM_JSON_OBJECT);
            assert_true(anim_json_string_eq(anim_json_get(acc, "type"), "VEC3"));
            const anim_json_value *ct = anim_json_get(acc, "componentType");
            assert_int_equal(anim_json_integer(ct), 5126);
            assert_memory_equal(anim_json_number_text(ct, a->source.json_text), "5126", 4);
            seen = true;
        }
    }
    assert_true(seen);
    const anim_json_value *anims = anim_json_get(root, "animations");
    assert_non_null(anims);
    assert_int_equal(anim_json_count(anims), 1);
    assert_true(anim_json_string_eq(anim_json_get(anim_json_item(anims, 0), "name"), "walk"));
    const anim_json_value *views = anim_json_get(root, "bufferViews");
    assert_int_equal(anim_json_count(views), 5);
    assert_int_equal(anim_json_integer(anim_json_get(anim_json_item(views, 4), "byteOffset")), 132);
    anim_asset_free(a);
}

/* Every example and corpus file loads the same both ways. */
static void test_scan_matches_tree_on_files(void **state)
{
    (void)state;
    static const char *const dirs[] = {"examples/assets", "tests/fixtures/identity",
                                       "../shared/corpus"};
    const char *env = getenv("ANIMSMITH_CORPUS");
    size_t files = 0;
    for (size_t d = 0; d < 4; d++) {
        const char *dir = d < 3 ? dirs[d] : env;
        if (!dir)
            continue;
        char cmd[1024];
        snprintf(cmd, sizeof cmd,
                 "find '%s' -maxdepth 2 \\( -name '*.glb' -o -name '*.gltf' \\) 2>/dev/null | sort",
                 dir);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        char path[1024];
        while (fgets(path, sizeof path, p)) {
            path[strcspn(path, "\n")] = 0;
            anim_error err, terr;
            anim_asset *a = anim_asset_load(path, NULL, &err);
            gltf_tree_only = true;
            anim_asset *b = anim_asset_load(path, NULL, &terr);
            gltf_tree_only = false;
            if (!a != !b)
                fail_msg("%s: scanner %s, tree %s", path, a ? "loaded" : err.message,
                         b ? "loaded" : terr.message);
            if (a)
                same_assets(a, b);
            else
                assert_string_equal(err.message, terr.message);
            anim_asset_free(a);
            anim_asset_free(b);
            files++;
        }
        pclose(p);
    }
    if (!env && access("../shared/corpus", F_OK) != 0)
        print_message("corpus absent (../shared/corpus, $ANIMSMITH_CORPUS): examples only\n");
    assert_true(files > 0);
}

/* ---- external buffers -------------------------------------------------- */

/* Symbolic links are followed, and the real path must stay inside the real
 * path of the asset's directory: a linked file or a linked directory that
 * leads out is refused, naming the buffer and its URI; a link that stays
 * inside loads. */
static void test_symlink_confinement(void **state)
{
    (void)state;
    char outside[] = "/tmp/anim_gltf_out_XXXXXX";
    char dir[] = "/tmp/anim_gltf_link_XXXXXX";
    assert_non_null(mkdtemp(outside));
    assert_non_null(mkdtemp(dir));
    char secret[256], real_dir[PATH_MAX], real_secret[PATH_MAX + 16], p[256], q[256];
    snprintf(secret, sizeof secret, "%s/secret.bin", outside);
    blob bl;
    std_blob(&bl);
    FILE *f = fopen(secret, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bl.b, 1, bl.n, f), bl.n);
    fclose(f);
    assert_non_null(realpath(outside, real_dir));
    snprintf(real_secret, sizeof real_secret, "%s/secret.bin", real_dir);
    snprintf(p, sizeof p, "%s/link.bin", dir);
    assert_int_equal(symlink(secret, p), 0);
    snprintf(q, sizeof q, "%s/linked", dir);
    assert_int_equal(symlink(outside, q), 0);
    char real_base[PATH_MAX];
    assert_non_null(realpath(dir, real_base));

    char msg[3 * PATH_MAX];
    snprintf(msg, sizeof msg,
             "buffer 0: uri \"link.bin\" resolves through a symbolic link to %s, outside the "
             "asset's directory %s", real_secret, real_base);
    expect_refusal_dir("{'asset':{'version':'2.0'},'buffers':[{'byteLength':240,'uri':'link.bin'}]}",
                       NULL, dir, msg);
    snprintf(msg, sizeof msg,
             "buffer 0: uri \"linked/secret.bin\" resolves through a symbolic link to %s, "
             "outside the asset's directory %s", real_secret, real_base);
    expect_refusal_dir("{'asset':{'version':'2.0'},"
                       "'buffers':[{'byteLength':240,'uri':'linked/secret.bin'}]}",
                       NULL, dir, msg);

    /* A link inside the directory to a file inside it is fine. */
    char inside[256], alias[256];
    snprintf(inside, sizeof inside, "%s/data.bin", dir);
    f = fopen(inside, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bl.b, 1, bl.n, f), bl.n);
    fclose(f);
    snprintf(alias, sizeof alias, "%s/alias.bin", dir);
    assert_int_equal(symlink("data.bin", alias), 0);
    anim_error err;
    anim_asset *a = load_json_dir("{'asset':{'version':'2.0'},"
                                  "'buffers':[{'byteLength':240,'uri':'alias.bin'}]}",
                                  NULL, dir, &err);
    if (!a)
        fail_msg("%s", err.message);
    anim_asset_free(a);

    unlink(alias);
    unlink(inside);
    unlink(p);
    unlink(q);
    unlink(secret);
    rmdir(dir);
    rmdir(outside);
}

/* Budgets of derived allocations, checked at load before anything is
 * decoded, and raised through the load options ([limits] in
 * animsmith.toml). */
static void test_derived_budgets(void **state)
{
    (void)state;
    /* A mesh POSITION accessor of 16,000,000 implicit vertices: 384 MB as
     * the f64 values the measurements read. */
    const char *mesh = "{'asset':{'version':'2.0'},'nodes':[{'mesh':0}],"
                       "'meshes':[{'primitives':[{'attributes':{'POSITION':0}}]}],"
                       "'accessors':[{'componentType':5126,'count':16000000,'type':'VEC3'}]}";
    expect_refusal(mesh, NULL,
                   "mesh 0 primitive 0 POSITION: accessor 0 has no buffer view; its count 16000000 "
                   "needs 384000000 bytes of decoded values, over the 64 MiB implicit-accessor "
                   "budget (raise with [limits] implicit_accessor_mib in animsmith.toml)");
    anim_load_options opts;
    anim_load_options_default(&opts);
    opts.limits.implicit_accessor_bytes = (size_t)512 << 20;
    char *j = expand(mesh, NULL);
    anim_error err;
    anim_error_clear(&err);
    anim_asset *a = anim_asset_load_memory(j, strlen(j), false, NULL, "t.gltf", &opts, &err);
    if (!a)
        fail_msg("%s", err.message);
    anim_asset_free(a);
    free(j);

    /* 300 nodes sharing one key-time accessor of 100,000 keys: a metric
     * grid of 100,000 frames x 300 bones (about 4 GB) is refused at load,
     * naming the clip and the grid budget. */
    anim_strbuf doc = ANIM_STRBUF_INIT;
    anim_strbuf_puts(&doc, "{'asset':{'version':'2.0'},'buffers':[{'byteLength':8,'uri':'@URI@'}],"
                           "'bufferViews':[{'buffer':0,'byteLength':4},"
                           "{'buffer':0,'byteOffset':4,'byteLength':4}],"
                           "'accessors':[{'componentType':5126,'count':100000,'type':'SCALAR',"
                           "'sparse':{'count':1,'indices':{'bufferView':0,'componentType':5125},"
                           "'values':{'bufferView':1}}},"
                           "{'componentType':5126,'count':100000,'type':'VEC3'}],'nodes':[");
    for (int n = 0; n < 300; n++)
        anim_strbuf_puts(&doc, n ? ",{}" : "{}");
    anim_strbuf_puts(&doc, "],'animations':[{'name':'shared','samplers':[{'input':0,'output':1}],"
                           "'channels':[");
    for (int n = 0; n < 300; n++)
        anim_strbuf_printf(&doc, "%s{'sampler':0,'target':{'node':%d,'path':'translation'}}",
                           n ? "," : "", n);
    anim_strbuf_puts(&doc, "]}]}");
    blob bl;
    uint32_t last = 99999;
    float one = 1.0f;
    memcpy(bl.b, &last, 4);
    memcpy(bl.b + 4, &one, 4);
    bl.n = 8;
    expect_refusal(doc.data, &bl,
                   "clip 'shared': a metric grid of 100000 frames x 300 bones needs 4080800000 "
                   "bytes, over the 1024 MiB metric-grid budget (raise with [limits] grid_mib in "
                   "animsmith.toml)");
    anim_strbuf_free(&doc);
}


static void test_external_buffers(void **state)
{
    (void)state;
    char dir[] = "/tmp/anim_gltf_test_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/data.bin", dir);
    blob bl;
    std_blob(&bl);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bl.b, 1, bl.n, f), bl.n);
    fclose(f);

    const char *ext_doc = "{'asset':{'version':'2.0'},'buffers':[{'byteLength':240,'uri':'data.bin'}],"
                          STD_VIEWS "'accessors':[" STD_ACC "],'nodes':[{}]," WALK("{'input':0,'output':1}");
    anim_error err;
    anim_asset *a = load_json_dir(ext_doc, NULL, dir, &err);
    if (!a)
        fail_msg("%s", err.message);
    assert_int_equal(a->source.buffers[0].kind, ANIM_BUFFER_EXTERNAL);
    assert_string_equal(a->source.buffers[0].path, path);
    assert_true(a->doc.clips[0].tracks[0].values[8] == 2.0f);
    anim_asset_free(a);

    /* Through anim_asset_load with a file on disk. */
    char gpath[256];
    snprintf(gpath, sizeof gpath, "%s/doc.gltf", dir);
    char *json = expand(ext_doc, NULL);
    f = fopen(gpath, "wb");
    fputs(json, f);
    fclose(f);
    free(json);
    a = anim_asset_load(gpath, NULL, &err);
    if (!a)
        fail_msg("%s", err.message);
    assert_string_equal(a->source.path, gpath);
    anim_asset_free(a);

    expect_refusal_dir("{'asset':{'version':'2.0'},'buffers':[{'byteLength':240,'uri':'sub/../../data.bin'}]}",
                       NULL, dir,
                       "buffer 0: uri \"sub/../../data.bin\" leaves the asset's directory");
    expect_refusal_dir("{'asset':{'version':'2.0'},'buffers':[{'byteLength':240,'uri':'/etc/passwd'}]}",
                       NULL, dir, "buffer 0: uri \"/etc/passwd\" is an absolute path");
    expect_refusal_dir("{'asset':{'version':'2.0'},'buffers':[{'byteLength':240,'uri':'file:///etc/passwd'}]}",
                       NULL, dir, "buffer 0: uri \"file:///etc/passwd\" is not a relative file reference");
    expect_refusal_dir("{'asset':{'version':'2.0'},'buffers':[{'byteLength':240,'uri':'data.bin'}]}",
                       NULL, NULL,
                       "buffer 0: uri \"data.bin\" names an external file, but the asset has no "
                       "directory");
    char msg[512];
    snprintf(msg, sizeof msg, "buffer 0: %s/missing%%20.bin: No such file or directory",
             dir);
    snprintf(msg, sizeof msg, "buffer 0: %s/missing .bin: No such file or directory",
             dir);
    expect_refusal_dir("{'asset':{'version':'2.0'},'buffers':[{'byteLength':240,'uri':'missing%20.bin'}]}",
                       NULL, dir, msg);
    /* An external file shorter than byteLength. */
    expect_refusal_dir("{'asset':{'version':'2.0'},'buffers':[{'byteLength':400,'uri':'data.bin'}],"
                       "'bufferViews':[{'buffer':0,'byteOffset':300,'byteLength':12},"
                       "{'buffer':0,'byteOffset':12,'byteLength':36}],'accessors':[" ACC2 "],'nodes':[{}]," WALK("{'input':0,'output':1}"),
                       NULL, dir,
                       "clip 'walk' node 0 sampler input: accessor 0 reads its elements from buffer "
                       "view 0, whose byte extent 300..312 exceeds the 240 bytes that resolved for "
                       "buffer 0");
    /* External files share the size limit: the same 240-byte file named
     * three times does not fit 600 bytes. */
    {
        anim_load_options opts;
        anim_load_options_default(&opts);
        opts.max_file_bytes = 600;
        char *j = expand("{'asset':{'version':'2.0'},'buffers':[{'byteLength':240,'uri':'data.bin'},"
                         "{'byteLength':240,'uri':'data.bin'},{'byteLength':240,'uri':'./data.bin'}]}",
                         NULL);
        assert_null(anim_asset_load_memory(j, strlen(j), false, dir, "t.gltf", &opts, &err));
        assert_string_equal(err.message,
                            "t.gltf: buffer 2: uri \"./data.bin\": the asset's external buffers together "
                            "exceed the 600-byte limit");
        opts.max_file_bytes = 480;
        free(j);
        j = expand("{'asset':{'version':'2.0'},'buffers':[{'byteLength':240,'uri':'data.bin'},"
                   "{'byteLength':240,'uri':'data.bin'}]}",
                   NULL);
        a = anim_asset_load_memory(j, strlen(j), false, dir, "t.gltf", &opts, &err);
        if (!a)
            fail_msg("%s", err.message);
        anim_asset_free(a);
        free(j);
    }
    unlink(path);
    unlink(gpath);
    rmdir(dir);
}

/* ---- sizes from the file are checked before allocating ---------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void test_huge_sizes_refused_quickly(void **state)
{
    (void)state;
    blob bl;
    std_blob(&bl);
    double t0 = now_s();
    expect_refusal("{'asset':{'version':'2.0'},'buffers':[{'byteLength':1000000000000000000,"
                   "'uri':'@URI@'}]}",
                   &bl, "buffer 0: byteLength 1000000000000000000 exceeds the 2147483648-byte limit");
    expect_refusal(HEAD STD_VIEWS "'accessors':[{'bufferView':0,'componentType':5126,'count':4000000000,"
                                  "'type':'SCALAR'}," STD_ACC "],'nodes':[{}],"
                                  WALK("{'input':0,'output':2}"),
                   &bl,
                   "clip 'walk' node 0 sampler input: accessor 0 needs 16000000000 bytes of elements "
                   "at byteOffset 0 of buffer view 0, which is 12 bytes long");
    /* An accessor with no bufferView is implicitly zeros: a tiny file may
     * declare billions of them. */
    expect_refusal(HEAD "'bufferViews':[{'buffer':0,'byteLength':@LEN@}],"
                        "'accessors':[{'componentType':5126,'count':4000000000,'type':'SCALAR','sparse':"
                        "{'count':1,'indices':{'bufferView':0,'componentType':5125},"
                        "'values':{'bufferView':0}}},"
                        "{'componentType':5126,'count':4000000000,'type':'VEC3','sparse':"
                        "{'count':1,'indices':{'bufferView':0,'componentType':5125},"
                        "'values':{'bufferView':0}}}],'nodes':[{}]," WALK("{'input':0,'output':1}"),
                   &bl,
                   "clip 'walk' node 0 sampler input: accessor 0 has no buffer view; its count "
                   "4000000000 needs 16000000000 bytes of decoded values, over the 64 MiB "
                   "implicit-accessor budget (raise with [limits] implicit_accessor_mib in "
                   "animsmith.toml)");
    /* Each implicit accessor under the cap, but together more than the
     * decode budget (4x the buffers' bytes plus the implicit cap). */
    expect_refusal(HEAD "'bufferViews':[{'buffer':0,'byteLength':@LEN@}],"
                        "'accessors':[{'componentType':5126,'count':3900000,'type':'SCALAR','sparse':"
                        "{'count':1,'indices':{'bufferView':0,'componentType':5125},"
                        "'values':{'bufferView':0}}},"
                        "{'componentType':5126,'count':3900000,'type':'VEC4','sparse':"
                        "{'count':1,'indices':{'bufferView':0,'componentType':5125},"
                        "'values':{'bufferView':0}}}],'nodes':[{}],'animations':[{'name':'walk',"
                        "'channels':[{'sampler':0,'target':{'node':0,'path':'rotation'}}],"
                        "'samplers':[{'input':0,'output':1}]}]}",
                   &bl,
                   "clip 'walk' node 0 sampler output: accessor 1: decoded animation data exceeds "
                   "67109824 bytes, the decoded-track budget (4 times the buffers' bytes plus the "
                   "64 MiB implicit-accessor budget; raise with [limits] implicit_accessor_mib in "
                   "animsmith.toml)");
    expect_refusal("{'asset':{'version':'2.0'},'accessors':[{'componentType':5126,'count':"
                   "5000000000,'type':'SCALAR'}]}",
                   NULL, "accessor 0: count 5000000000 is too large");
    /* Smaller limits from the caller apply to the input itself. */
    anim_load_options opts;
    anim_load_options_default(&opts);
    opts.max_file_bytes = 16;
    anim_error err;
    const char *j = "{\"asset\":{\"version\":\"2.0\"}}";
    assert_null(anim_asset_load_memory(j, strlen(j), false, NULL, NULL, &opts, &err));
    assert_string_equal(err.message, "input of 27 bytes exceeds the 16-byte limit");
    assert_true(now_s() - t0 < 2.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dfs_order),
        cmocka_unit_test(test_no_nodes),
        cmocka_unit_test(test_rest_trs),
        cmocka_unit_test(test_forest_errors),
        cmocka_unit_test(test_asset_references),
        cmocka_unit_test(test_clip_names),
        cmocka_unit_test(test_clip_names_unique),
        cmocka_unit_test(test_tracks),
        cmocka_unit_test(test_duration_finite_max),
        cmocka_unit_test(test_morph_weights_kept_apart),
        cmocka_unit_test(test_normalized_rotations),
        cmocka_unit_test(test_sparse_output),
        cmocka_unit_test(test_glb_loads),
        cmocka_unit_test(test_glb_framing),
        cmocka_unit_test(test_json_and_extension_refusals),
        cmocka_unit_test(test_mesh_refusals),
        cmocka_unit_test(test_animation_refusals),
        cmocka_unit_test(test_scan_matches_tree),
        cmocka_unit_test(test_scanned_arrays_expand),
        cmocka_unit_test(test_scan_matches_tree_on_files),
        cmocka_unit_test(test_external_buffers),
        cmocka_unit_test(test_symlink_confinement),
        cmocka_unit_test(test_derived_budgets),
        cmocka_unit_test(test_huge_sizes_refused_quickly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
