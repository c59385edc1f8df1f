/* The FBX container parsers: binary files (32-bit records before 7.5,
 * 64-bit from 7.5, 6.1 in the 32-bit layout) built byte by byte here, with
 * raw and deflated arrays, and ASCII files as strings; every refusal names
 * the record and its byte offset or line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/fbx/fbx_tree.h"
#include "test_fbx_build.h"

typedef struct {
    anim_arena *arena;
    anim_fbx_tree tree;
    anim_error err;
} parsed;

static int parse_bytes(parsed *p, const void *bytes, size_t len, size_t budget)
{
    if (p->arena)
        anim_arena_free(p->arena);
    p->arena = anim_arena_new();
    anim_error_clear(&p->err);
    anim_fbx_parse_limits lim = {budget};
    return anim_fbx_parse(bytes, len, p->arena, &lim, &p->tree, &p->err);
}

static int parse_text(parsed *p, const char *text)
{
    return parse_bytes(p, text, strlen(text), 0);
}

static void done(parsed *p)
{
    anim_arena_free(p->arena);
    p->arena = NULL;
}

static void assert_contains(const char *hay, const char *needle)
{
    if (!strstr(hay, needle))
        fail_msg("\"%s\" does not contain \"%s\"", hay, needle);
}

/* ---- binary ------------------------------------------------------------ */

static const double k_verts[6] = {0.5, -1.25, 2.0, 3.0, 1e-3, -7.0};
static const int32_t k_index[4] = {0, 1, -3, 2};

/* A small file: a header record, an Objects record with a mesh whose
 * arrays are raw or deflated, every scalar type. */
static void build_sample(fbxb *f, uint32_t version, bool compress)
{
    fbxb_begin(f, version);
    fbxb_rec(f, "FBXHeaderExtension");
    fbxb_rec(f, "FBXVersion");
    fbxb_i32(f, (int32_t)version);
    fbxb_end(f);
    fbxb_end(f);
    fbxb_rec(f, "Objects");
    fbxb_rec(f, "Geometry");
    fbxb_i64(f, 1234567890123LL);
    fbxb_strn(f, 'S', "Body\0\1Geometry", 14);
    fbxb_str(f, "Mesh");
    fbxb_rec(f, "Vertices");
    fbxb_array(f, 'd', k_verts, 6, compress);
    fbxb_end(f);
    fbxb_rec(f, "PolygonVertexIndex");
    fbxb_array(f, 'i', k_index, 4, compress);
    fbxb_end(f);
    fbxb_rec(f, "Scalars");
    fbxb_bool(f, 1);
    fbxb_i16(f, -2);
    fbxb_f32(f, 0.25f);
    fbxb_f64(f, -1.5);
    fbxb_strn(f, 'R', "a\0b", 3);
    fbxb_end(f);
    fbxb_rec(f, "Empty");
    fbxb_end(f);
    fbxb_end(f);
    fbxb_end(f);
    fbxb_finish(f);
}

static void check_sample(const anim_fbx_tree *t, uint32_t version)
{
    assert_int_equal(t->version, version);
    assert_false(t->ascii);
    assert_int_equal(t->root.child_count, 2);
    const anim_fbx_node *hv =
        anim_fbx_child(anim_fbx_child(&t->root, "FBXHeaderExtension"), "FBXVersion");
    assert_non_null(hv);
    assert_int_equal(hv->props[0].type, 'I');
    assert_int_equal(hv->props[0].scalar.i, version);
    const anim_fbx_node *g = anim_fbx_child(anim_fbx_child(&t->root, "Objects"), "Geometry");
    assert_non_null(g);
    assert_int_equal(g->prop_count, 3);
    assert_int_equal(g->props[0].type, 'L');
    assert_true(g->props[0].scalar.i == 1234567890123LL);
    assert_int_equal(g->props[1].len, 14);
    assert_memory_equal(g->props[1].bytes, "Body\0\1Geometry", 15);
    assert_int_equal(g->child_count, 4);
    const anim_fbx_node *v = anim_fbx_child(g, "Vertices");
    assert_int_equal(v->props[0].type, 'd');
    assert_int_equal(v->props[0].count, 6);
    assert_memory_equal(v->props[0].array, k_verts, sizeof k_verts);
    const anim_fbx_node *pvi = anim_fbx_child(g, "PolygonVertexIndex");
    assert_int_equal(pvi->props[0].type, 'i');
    assert_memory_equal(pvi->props[0].array, k_index, sizeof k_index);
    const anim_fbx_node *s = anim_fbx_child(g, "Scalars");
    assert_int_equal(s->prop_count, 5);
    assert_int_equal(s->props[0].scalar.i, 1);
    assert_int_equal(s->props[1].scalar.i, -2);
    assert_true(s->props[2].scalar.f == 0.25);
    assert_true(s->props[3].scalar.f == -1.5);
    assert_int_equal(s->props[4].type, 'R');
    assert_int_equal(s->props[4].len, 3);
    assert_memory_equal(s->props[4].bytes, "a\0b", 4);
    const anim_fbx_node *e = anim_fbx_child(g, "Empty");
    assert_int_equal(e->prop_count, 0);
    assert_int_equal(e->child_count, 0);
    assert_false(e->where_is_line);
    assert_true(e->where > 27);
}

static void test_binary_layouts(void **state)
{
    (void)state;
    static const uint32_t versions[] = {6100, 7400, 7500, 7700};
    for (size_t i = 0; i < 4; i++)
        for (int compress = 0; compress < 2; compress++) {
            fbxb f;
            build_sample(&f, versions[i], compress);
            assert_true(anim_fbx_sniff(f.b, f.n));
            parsed p = {0};
            if (parse_bytes(&p, f.b, f.n, 0) != 0)
                fail_msg("version %u compress %d: %s", versions[i], compress, p.err.message);
            check_sample(&p.tree, versions[i]);
            done(&p);
            free(f.b);
        }
}

/* The 32-bit layout read as 64-bit (or the reverse) must be refused, not
 * misread: the version decides the layout. */
static void test_binary_layout_follows_version(void **state)
{
    (void)state;
    fbxb f;
    build_sample(&f, 7400, false);
    f.b[23] = (uint8_t)(7500 & 0xff);
    f.b[24] = (uint8_t)(7500 >> 8);
    parsed p = {0};
    assert_int_equal(parse_bytes(&p, f.b, f.n, 0), -1);
    assert_int_equal(p.err.code, ANIM_ERR_PARSE);
    done(&p);
    free(f.b);
}

/* Finds the byte offset of a record's header by its name. */
static size_t rec_at(const fbxb *f, const char *name)
{
    size_t n = strlen(name);
    size_t hs = f->wide ? 25 : 13;
    for (size_t i = 27; i + n < f->n; i++)
        if (f->b[i] == n && memcmp(f->b + i + 1, name, n) == 0)
            return i + 1 - hs;
    fail_msg("record %s not found", name);
    return 0;
}

static void expect_error(const fbxb *f, size_t budget, anim_error_code code, const char *msg)
{
    parsed p = {0};
    assert_int_equal(parse_bytes(&p, f->b, f->n, budget), -1);
    if (p.err.code != code)
        fail_msg("code %d, expected %d: %s", p.err.code, code, p.err.message);
    assert_contains(p.err.message, msg);
    done(&p);
}

static void test_binary_offsets_checked(void **state)
{
    (void)state;
    fbxb f;
    build_sample(&f, 7400, false);
    size_t at = rec_at(&f, "Vertices");
    char where[64];
    snprintf(where, sizeof where, "at byte %zu", at);
    uint8_t saved[4];
    memcpy(saved, f.b + at, 4);
    /* End offset past the enclosing record. */
    fbxb_patch(&f, at, f.n + 100, false);
    expect_error(&f, 0, ANIM_ERR_PARSE, "end offset");
    /* End offset before the record's own header. */
    fbxb_patch(&f, at, at + 5, false);
    expect_error(&f, 0, ANIM_ERR_PARSE, where);
    memcpy(f.b + at, saved, 4);
    /* Property list length that does not match what the properties use. */
    uint32_t plen = (uint32_t)f.b[at + 8] | (uint32_t)f.b[at + 9] << 8;
    fbxb_patch(&f, at + 8, plen - 1, false);
    expect_error(&f, 0, ANIM_ERR_PARSE, "record 'Vertices'");
    fbxb_patch(&f, at + 8, plen, false);
    /* A property count the list cannot hold. */
    fbxb_patch(&f, at + 4, 1000, false);
    expect_error(&f, 0, ANIM_ERR_PARSE, "1000 properties");
    fbxb_patch(&f, at + 4, 1, false);
    /* Fewer properties declared than the list holds. */
    size_t sc = rec_at(&f, "Scalars");
    fbxb_patch(&f, sc + 4, 4, false);
    expect_error(&f, 0, ANIM_ERR_PARSE, "properties use 19 bytes, the list declares 27");
    fbxb_patch(&f, sc + 4, 5, false);
    /* Truncated file: no closing null record. */
    parsed p = {0};
    assert_int_equal(parse_bytes(&p, f.b, rec_at(&f, "Objects"), 0), -1);
    assert_contains(p.err.message, "without the closing null record");
    /* Cut inside a record. */
    assert_int_equal(parse_bytes(&p, f.b, at + 20, 0), -1);
    assert_int_equal(p.err.code, ANIM_ERR_PARSE);
    done(&p);
    /* Still good after the patches were undone. */
    assert_int_equal(parse_bytes(&p, f.b, f.n, 0), 0);
    done(&p);
    free(f.b);
}

static void test_binary_nested_end_exact(void **state)
{
    (void)state;
    fbxb f;
    fbxb_begin(&f, 7500);
    fbxb_rec(&f, "P");
    fbxb_rec(&f, "A");
    fbxb_rec(&f, "X");
    fbxb_i32(&f, 1);
    fbxb_end(&f);
    fbxb_end(&f);
    fbxb_rec(&f, "B");
    fbxb_i32(&f, 2);
    fbxb_end(&f);
    fbxb_end(&f);
    fbxb_finish(&f);
    parsed p = {0};
    assert_int_equal(parse_bytes(&p, f.b, f.n, 0), 0);
    done(&p);
    /* A swallows B: its children's null record then closes them before
     * A's end offset. */
    size_t a = rec_at(&f, "A"), b = rec_at(&f, "B");
    uint64_t b_end = 0;
    for (int i = 7; i >= 0; i--)
        b_end = b_end << 8 | f.b[b + (size_t)i];
    fbxb_patch(&f, a, b_end, true);
    char msg[160];
    snprintf(msg, sizeof msg,
             "record 'A' at byte %zu: null record at byte %zu closes the nested records "
             "before the record end at byte %zu",
             a, b - 25, (size_t)b_end);
    expect_error(&f, 0, ANIM_ERR_PARSE, msg);
    free(f.b);
}

static void test_binary_unknown_type(void **state)
{
    (void)state;
    fbxb f;
    fbxb_begin(&f, 7400);
    fbxb_rec(&f, "Odd");
    fbxb_type(&f, 'Q');
    fbxb_u32(&f, 0);
    fbxb_end(&f);
    fbxb_finish(&f);
    expect_error(&f, 0, ANIM_ERR_PARSE,
                 "record 'Odd' at byte 27 property 0: unknown property type 0x51");
    free(f.b);
}

/* An array property written by hand: count, encoding, length, bytes. */
static void build_array_file(fbxb *f, uint32_t count, uint32_t enc, uint32_t clen, const void *data,
                             size_t n)
{
    fbxb_begin(f, 7400);
    fbxb_rec(f, "Vertices");
    fbxb_type(f, 'd');
    fbxb_u32(f, count);
    fbxb_u32(f, enc);
    fbxb_u32(f, clen);
    fbxb_put(f, data, n);
    fbxb_end(f);
    fbxb_finish(f);
}

static void test_binary_arrays_checked(void **state)
{
    (void)state;
    fbxb f;
    /* Raw: compressedLength must equal count * 8. */
    build_array_file(&f, 6, 0, 40, k_verts, 40);
    expect_error(&f, 0, ANIM_ERR_PARSE, "raw array of 6 elements has 40 bytes, expected 48");
    free(f.b);
    /* Deflate of 5 doubles declared as 6. */
    uint8_t z[256];
    uLongf zn = sizeof z;
    assert_int_equal(compress2(z, &zn, (const Bytef *)k_verts, 40, 9), Z_OK);
    build_array_file(&f, 6, 1, (uint32_t)zn, z, zn);
    expect_error(&f, 0, ANIM_ERR_PARSE,
                 "record 'Vertices' at byte 27 property 0: compressed array inflates to 40 "
                 "bytes, declared 48");
    free(f.b);
    /* Deflate of 6 doubles declared as 5. */
    zn = sizeof z;
    assert_int_equal(compress2(z, &zn, (const Bytef *)k_verts, 48, 9), Z_OK);
    build_array_file(&f, 5, 1, (uint32_t)zn, z, zn);
    expect_error(&f, 0, ANIM_ERR_PARSE, "inflates to more than the declared 40 bytes");
    free(f.b);
    /* A truncated stream. */
    build_array_file(&f, 6, 1, (uint32_t)zn - 6, z, zn - 6);
    expect_error(&f, 0, ANIM_ERR_PARSE, "compressed array is truncated");
    free(f.b);
    /* Garbage. */
    static const uint8_t junk[16] = {0x78, 0x9c, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4};
    build_array_file(&f, 6, 1, 16, junk, 16);
    expect_error(&f, 0, ANIM_ERR_PARSE, "corrupt compressed array");
    free(f.b);
    /* Trailing bytes after the stream inside compressedLength. */
    zn = sizeof z;
    assert_int_equal(compress2(z, &zn, (const Bytef *)k_verts, 48, 9), Z_OK);
    z[zn] = 0;
    build_array_file(&f, 6, 1, (uint32_t)zn + 1, z, zn + 1);
    expect_error(&f, 0, ANIM_ERR_PARSE, "1 bytes after the end of a compressed array");
    free(f.b);
    /* Unknown encoding. */
    build_array_file(&f, 6, 2, 48, k_verts, 48);
    expect_error(&f, 0, ANIM_ERR_UNSUPPORTED, "unknown array encoding 2");
    free(f.b);
    /* A huge declared count is refused by the budget before any allocation,
     * compressed or not. */
    build_array_file(&f, 0x10000000u, 1, (uint32_t)zn, z, zn);
    expect_error(&f, 0, ANIM_ERR_LIMIT, "exceeds the remaining array budget");
    free(f.b);
    /* The budget is shared by all arrays of the file. */
    fbxb_begin(&f, 7400);
    for (int i = 0; i < 3; i++) {
        fbxb_rec(&f, "Vertices");
        fbxb_array(&f, 'd', k_verts, 6, i == 1);
        fbxb_end(&f);
    }
    fbxb_finish(&f);
    parsed p = {0};
    assert_int_equal(parse_bytes(&p, f.b, f.n, 144), 0);
    done(&p);
    expect_error(&f, 143, ANIM_ERR_LIMIT, "remaining array budget of 47 bytes");
    free(f.b);
    /* Array data past the property list. */
    build_array_file(&f, 6, 0, 48, k_verts, 40);
    expect_error(&f, 0, ANIM_ERR_PARSE, "runs past the property list");
    free(f.b);
}

static void test_binary_depth_limit(void **state)
{
    (void)state;
    for (unsigned depth = ANIM_FBX_MAX_DEPTH; depth <= ANIM_FBX_MAX_DEPTH + 1; depth++) {
        fbxb f;
        fbxb_begin(&f, 7400);
        for (unsigned i = 0; i < depth; i++) {
            fbxb_rec(&f, "N");
            fbxb_i32(&f, (int32_t)i);
        }
        for (unsigned i = 0; i < depth; i++)
            fbxb_end(&f);
        fbxb_finish(&f);
        parsed p = {0};
        int rc = parse_bytes(&p, f.b, f.n, 0);
        if (depth == ANIM_FBX_MAX_DEPTH) {
            assert_int_equal(rc, 0);
        } else {
            assert_int_equal(rc, -1);
            assert_int_equal(p.err.code, ANIM_ERR_LIMIT);
            assert_contains(p.err.message, "nesting deeper than 64");
        }
        done(&p);
        free(f.b);
    }
}

static void test_binary_strings_bounded(void **state)
{
    (void)state;
    fbxb f;
    fbxb_begin(&f, 7400);
    fbxb_rec(&f, "Name");
    fbxb_type(&f, 'S');
    fbxb_u32(&f, 1000);
    fbxb_put(&f, "abc", 3);
    fbxb_end(&f);
    fbxb_finish(&f);
    expect_error(&f, 0, ANIM_ERR_PARSE, "string of 1000 bytes runs past the property list");
    free(f.b);
    /* Record names go into messages as they are: control bytes refused. */
    fbxb_begin(&f, 7400);
    fbxb_rec(&f, "Bad\nName");
    fbxb_end(&f);
    fbxb_finish(&f);
    expect_error(&f, 0, ANIM_ERR_PARSE,
                 "record at byte 27: the record name holds a byte that is not printable ASCII");
    free(f.b);
}

/* ---- ASCII ----------------------------------------------------------- */

static const char k_ascii[] =
    "; FBX 7.4.0 project file\n"
    "; comment line\n"
    "FBXHeaderExtension:  {\n"
    "\tFBXVersion: 7400\n"
    "}\n"
    "Objects:  {\n"
    "\tModel: 123, \"Model::Hips\", \"LimbNode\" {\n"
    "\t\tVersion: 232\n"
    "\t\tProperties70:  {\n"
    "\t\t\tP: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",1.5,-2,3e2\n"
    "\t\t}\n"
    "\t\tShading: T\n"
    "\t\tCulling: \"Say &quot;hi&quot;\"\n"
    "\t}\n"
    "\tGeometry: 5, \"Geometry::G\", \"Mesh\" {\n"
    "\t\tVertices: *6 {\n"
    "\t\t\ta: 0.5,-1.25,2,\n"
    "3,0.001,-7\n"
    "\t\t} \n"
    "\t\tPolygonVertexIndex: *4 { a: 0,1,-3,2 }\n"
    "\t\tEmpty: *0 {\n\t\t\ta: \n\t\t}\n"
    "\t}\n"
    "\tAnimationLayer: 7, \"AnimLayer::Base\", \"\" {}\n"
    "\tObjectType: \"Model\" { Count: 2 }\n"
    "\tContent: , \"abc\"\n"
    "}\n";

static void test_ascii_basic(void **state)
{
    (void)state;
    parsed p = {0};
    assert_true(anim_fbx_sniff((const uint8_t *)k_ascii, strlen(k_ascii)));
    if (parse_text(&p, k_ascii) != 0)
        fail_msg("%s", p.err.message);
    const anim_fbx_tree *t = &p.tree;
    assert_true(t->ascii);
    assert_int_equal(t->version, 7400);
    assert_int_equal(t->root.child_count, 2);
    const anim_fbx_node *objs = anim_fbx_child(&t->root, "Objects");
    assert_int_equal(objs->child_count, 5);
    assert_int_equal(objs->where, 6);
    const anim_fbx_node *m = anim_fbx_child(objs, "Model");
    assert_int_equal(m->prop_count, 3);
    assert_int_equal(m->props[0].type, 'L');
    assert_int_equal(m->props[0].scalar.i, 123);
    assert_string_equal(m->props[1].bytes, "Model::Hips");
    assert_int_equal(m->where, 7);
    assert_true(m->where_is_line);
    const anim_fbx_node *pp = anim_fbx_child(anim_fbx_child(m, "Properties70"), "P");
    assert_int_equal(pp->prop_count, 7);
    assert_int_equal(pp->props[3].type, 'S');
    assert_string_equal(pp->props[3].bytes, "A");
    assert_int_equal(pp->props[4].type, 'D');
    assert_true(pp->props[4].scalar.f == 1.5);
    assert_int_equal(pp->props[5].type, 'L');
    assert_int_equal(pp->props[5].scalar.i, -2);
    assert_int_equal(pp->props[6].type, 'D');
    assert_true(pp->props[6].scalar.f == 300.0);
    const anim_fbx_node *sh = anim_fbx_child(m, "Shading");
    assert_int_equal(sh->props[0].type, 'S');
    assert_string_equal(sh->props[0].bytes, "T");
    const anim_fbx_node *cu = anim_fbx_child(m, "Culling");
    assert_string_equal(cu->props[0].bytes, "Say \"hi\"");
    assert_int_equal(cu->props[0].len, 8);
    const anim_fbx_node *g = anim_fbx_child(objs, "Geometry");
    const anim_fbx_node *v = anim_fbx_child(g, "Vertices");
    assert_int_equal(v->prop_count, 1);
    assert_int_equal(v->props[0].type, 'd');
    assert_int_equal(v->props[0].count, 6);
    assert_memory_equal(v->props[0].array, k_verts, sizeof k_verts);
    const anim_fbx_node *pvi = anim_fbx_child(g, "PolygonVertexIndex");
    assert_int_equal(pvi->props[0].type, 'l');
    const int64_t *iv = pvi->props[0].array;
    assert_true(iv[0] == 0 && iv[1] == 1 && iv[2] == -3 && iv[3] == 2);
    assert_int_equal(anim_fbx_child(g, "Empty")->props[0].count, 0);
    const anim_fbx_node *al = anim_fbx_child(objs, "AnimationLayer");
    assert_int_equal(al->prop_count, 3);
    assert_int_equal(al->child_count, 0);
    const anim_fbx_node *ot = anim_fbx_child(objs, "ObjectType");
    assert_int_equal(ot->child_count, 1);
    assert_int_equal(anim_fbx_child(ot, "Count")->props[0].scalar.i, 2);
    const anim_fbx_node *ct = anim_fbx_child(objs, "Content");
    assert_int_equal(ct->prop_count, 1);
    assert_string_equal(ct->props[0].bytes, "abc");
    done(&p);
}

/* 6.1 writes long value runs that continue after a trailing comma. */
static void test_ascii_61_runs(void **state)
{
    (void)state;
    static const char text[] = "; FBX 6.1.0 project file\n"
                               "Objects:  {\n"
                               "\tModel: \"Model::Mesh1\", \"Mesh\" {\n"
                               "\t\tVertices: 1.0,2.0,3.0,\n"
                               "4,5.5,\n"
                               "\t\t6\n"
                               "\t\tPolygonVertexIndex: 0,1\n"
                               "\t\t,-3\n"
                               "\t\tTakes: {\n"
                               "\t\t}\n"
                               "\t}\n"
                               "}\n";
    parsed p = {0};
    if (parse_text(&p, text) != 0)
        fail_msg("%s", p.err.message);
    assert_int_equal(p.tree.version, 6100);
    const anim_fbx_node *m = anim_fbx_child(anim_fbx_child(&p.tree.root, "Objects"), "Model");
    const anim_fbx_node *v = anim_fbx_child(m, "Vertices");
    assert_int_equal(v->prop_count, 6);
    const double *d;
    uint32_t n;
    anim_error err;
    assert_int_equal(anim_fbx_prop_array_f64(p.arena, v, 0, &d, &n, &err), 0);
    assert_int_equal(n, 6);
    assert_true(d[3] == 4 && d[4] == 5.5 && d[5] == 6);
    const anim_fbx_node *pvi = anim_fbx_child(m, "PolygonVertexIndex");
    assert_int_equal(pvi->prop_count, 3);
    assert_int_equal(pvi->where, 7);
    const int64_t *iv;
    assert_int_equal(anim_fbx_prop_array_i64(p.arena, pvi, 0, &iv, &n, &err), 0);
    assert_true(n == 3 && iv[2] == -3);
    /* A run from a later index. */
    assert_int_equal(anim_fbx_prop_array_i64(p.arena, pvi, 1, &iv, &n, &err), 0);
    assert_true(n == 2 && iv[0] == 1);
    /* A run holding a non-integer cannot be read as integers. */
    assert_int_equal(anim_fbx_prop_array_i64(p.arena, v, 0, &iv, &n, &err), -1);
    assert_contains(err.message, "record 'Vertices' at line 4 property 4");
    done(&p);
}

static void expect_ascii_error(const char *text, size_t budget, anim_error_code code,
                               const char *msg)
{
    parsed p = {0};
    assert_int_equal(parse_bytes(&p, text, strlen(text), budget), -1);
    if (p.err.code != code)
        fail_msg("code %d, expected %d: %s", p.err.code, code, p.err.message);
    assert_contains(p.err.message, msg);
    done(&p);
}

static void test_ascii_errors(void **state)
{
    (void)state;
    expect_ascii_error("; FBX 7.4.0\nA: *3 { a: 1,2 }\n", 0, ANIM_ERR_PARSE,
                       "record 'A' at line 2: array declares 3 values, holds 2");
    expect_ascii_error("; FBX 7.4.0\nA: *2 { a: 1,2,3 }\n", 0, ANIM_ERR_PARSE,
                       "array declares 2 values and holds more");
    expect_ascii_error("; FBX 7.4.0\nA: *4000000000 { a: 1 }\n", 0, ANIM_ERR_PARSE,
                       "more than the file holds");
    expect_ascii_error("; FBX 7.4.0\nA: *3 { a: 1,2,3 }\n", 16, ANIM_ERR_LIMIT,
                       "exceeds the remaining array budget of 16 bytes");
    expect_ascii_error("; FBX 7.4.0\nA: *3 { a: 1,,3 }\n", 0, ANIM_ERR_PARSE, "empty array value");
    expect_ascii_error("; FBX 7.4.0\nA: *3 { a: 1,2,3\n", 0, ANIM_ERR_PARSE, "array never closed");
    expect_ascii_error("; FBX 7.4.0\nA: {\n  B: 1\n", 0, ANIM_ERR_PARSE,
                       "record 'A' at line 2 is never closed");
    expect_ascii_error("; FBX 7.4.0\nA: 1\n}\n", 0, ANIM_ERR_PARSE, "line 3: '}' closes no record");
    expect_ascii_error("; FBX 7.4.0\nA: \"abc\n", 0, ANIM_ERR_PARSE, "line 2: string never closed");
    expect_ascii_error("; FBX 7.4.0\nA: 1 2\n", 0, ANIM_ERR_PARSE, "expected ',' between values");
    expect_ascii_error("; FBX 7.4.0\nA: 1.2.3x\n", 0, ANIM_ERR_PARSE, "malformed number '1.2.3x'");
    expect_ascii_error("; FBX 7.4.0\nA 1\n", 0, ANIM_ERR_PARSE,
                       "expected a record name followed by ':'");
    expect_ascii_error("; FBX 7.4.0\nA: @\n", 0, ANIM_ERR_PARSE, "unexpected character '@'");
    expect_ascii_error("; FBX 7.4.0\nA: \x01\n", 0, ANIM_ERR_PARSE, "unexpected byte 0x01");
    expect_ascii_error("; FBX 7.4.0\nA\x01: 1\n", 0, ANIM_ERR_PARSE,
                       "line 2: expected a record name followed by ':'");
    parsed p = {0};
    assert_int_equal(parse_text(&p, "plain text\n"), -1);
    assert_contains(p.err.message, "not an FBX file");
    done(&p);
}

static void test_ascii_depth_limit(void **state)
{
    (void)state;
    for (unsigned depth = ANIM_FBX_MAX_DEPTH; depth <= ANIM_FBX_MAX_DEPTH + 1; depth++) {
        char text[1024] = "; FBX 7.4.0 project file\n";
        for (unsigned i = 0; i < depth; i++)
            strcat(text, "N: {\n");
        for (unsigned i = 0; i < depth; i++)
            strcat(text, "}\n");
        parsed p = {0};
        int rc = parse_text(&p, text);
        if (depth == ANIM_FBX_MAX_DEPTH) {
            assert_int_equal(rc, 0);
        } else {
            assert_int_equal(rc, -1);
            assert_int_equal(p.err.code, ANIM_ERR_LIMIT);
            assert_contains(p.err.message, "nesting deeper than 64");
        }
        done(&p);
    }
}

static void test_ascii_special_numbers(void **state)
{
    (void)state;
    parsed p = {0};
    assert_int_equal(parse_text(&p, "FBXHeaderExtension: {\n}\n"
                                    "A: 1.#INF, -1.#IND, 99999999999999999999, +4, -inf\n"),
                     0);
    const anim_fbx_node *a = anim_fbx_child(&p.tree.root, "A");
    assert_true(isinf(a->props[0].scalar.f) && a->props[0].scalar.f > 0);
    assert_true(isnan(a->props[1].scalar.f));
    assert_int_equal(a->props[2].type, 'D'); /* too large for int64 */
    assert_int_equal(a->props[3].type, 'L');
    assert_int_equal(a->props[3].scalar.i, 4);
    assert_true(isinf(a->props[4].scalar.f) && a->props[4].scalar.f < 0);
    assert_int_equal(p.tree.version, 7400); /* no version stated */
    done(&p);
}

/* ---- typed reads --------------------------------------------------------- */

static void test_typed_reads(void **state)
{
    (void)state;
    parsed p = {0};
    assert_int_equal(parse_text(&p, "; FBX 7.5.0 project file\n"
                                    "K: 3.0, 2.5, \"s\", 7, *2 { a: 1.5, 2 }, *2 { a: 4, 5 }\n"),
                     0);
    assert_int_equal(p.tree.version, 7500);
    const anim_fbx_node *k = anim_fbx_child(&p.tree.root, "K");
    anim_error err;
    int64_t i;
    double d;
    const char *s;
    size_t len;
    assert_int_equal(anim_fbx_prop_i64(k, 0, &i, &err), 0); /* 3.0 is exact */
    assert_int_equal(i, 3);
    assert_int_equal(anim_fbx_prop_i64(k, 1, &i, &err), -1);
    assert_string_equal(err.message,
                        "record 'K' at line 2 property 1: expected an integer, found a number");
    assert_int_equal(anim_fbx_prop_f64(k, 3, &d, &err), 0);
    assert_true(d == 7.0);
    assert_int_equal(anim_fbx_prop_f64(k, 2, &d, &err), -1);
    assert_string_equal(err.message,
                        "record 'K' at line 2 property 2: expected a number, found a string");
    assert_int_equal(anim_fbx_prop_string(k, 2, &s, &len, &err), 0);
    assert_true(len == 1 && s[0] == 's');
    assert_int_equal(anim_fbx_prop_string(k, 9, &s, &len, &err), -1);
    assert_contains(err.message, "property 9: expected a string, the record has 6 properties");
    const double *dv;
    const int64_t *lv;
    uint32_t n;
    assert_int_equal(anim_fbx_prop_array_f64(p.arena, k, 4, &dv, &n, &err), 0);
    assert_true(n == 2 && dv[0] == 1.5 && dv[1] == 2);
    assert_int_equal(anim_fbx_prop_array_i64(p.arena, k, 4, &lv, &n, &err), -1);
    assert_contains(err.message, "property 4[0]: not an exact integer");
    assert_int_equal(anim_fbx_prop_array_i64(p.arena, k, 5, &lv, &n, &err), 0);
    assert_true(n == 2 && lv[1] == 5);
    /* A scalar run meeting a string is refused. */
    assert_int_equal(anim_fbx_prop_array_f64(p.arena, k, 0, &dv, &n, &err), -1);
    assert_contains(err.message, "property 2");
    char buf[80];
    assert_string_equal(anim_fbx_node_where(&p.tree, k, buf, sizeof buf), "record 'K' at line 2");
    done(&p);

    /* Binary: byte offsets; arrays of every element type. */
    fbxb f;
    fbxb_begin(&f, 7400);
    fbxb_rec(&f, "Arrays");
    static const float fl[2] = {0.5f, -2.0f};
    static const int64_t il[2] = {-9, 1LL << 40};
    static const uint8_t bl[3] = {1, 0, 1};
    fbxb_array(&f, 'f', fl, 2, true);
    fbxb_array(&f, 'l', il, 2, false);
    fbxb_array(&f, 'b', bl, 3, true);
    fbxb_end(&f);
    fbxb_finish(&f);
    assert_int_equal(parse_bytes(&p, f.b, f.n, 0), 0);
    const anim_fbx_node *a = anim_fbx_child(&p.tree.root, "Arrays");
    assert_int_equal(anim_fbx_prop_array_f64(p.arena, a, 0, &dv, &n, &err), 0);
    assert_true(n == 2 && dv[0] == 0.5 && dv[1] == -2.0);
    assert_int_equal(anim_fbx_prop_array_i64(p.arena, a, 0, &lv, &n, &err), -1);
    assert_int_equal(anim_fbx_prop_array_i64(p.arena, a, 1, &lv, &n, &err), 0);
    assert_true(lv[1] == (1LL << 40));
    assert_int_equal(anim_fbx_prop_array_i64(p.arena, a, 2, &lv, &n, &err), 0);
    assert_true(n == 3 && lv[0] == 1 && lv[1] == 0);
    assert_int_equal(anim_fbx_prop_f64(a, 0, &d, &err), -1);
    assert_string_equal(err.message,
                        "record 'Arrays' at byte 27 property 0: expected a number, found an "
                        "array");
    assert_string_equal(anim_fbx_node_where(&p.tree, a, buf, sizeof buf),
                        "record 'Arrays' at byte 27");
    done(&p);
    free(f.b);
}

static void test_sniff(void **state)
{
    (void)state;
    assert_true(anim_fbx_sniff((const uint8_t *)"; FBX 6.1.0 project file\n", 25));
    assert_true(anim_fbx_sniff((const uint8_t *)"\xEF\xBB\xBF; FBX 7.4", 12));
    assert_true(anim_fbx_sniff((const uint8_t *)"; hand made\n\nFBXHeaderExtension: {", 34));
    assert_false(anim_fbx_sniff((const uint8_t *)"; hand made\nObjects: {", 22));
    assert_false(anim_fbx_sniff((const uint8_t *)"glTF", 4));
    assert_false(anim_fbx_sniff((const uint8_t *)"Kaydara FBX Binary", 18));
    assert_false(anim_fbx_sniff(NULL, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binary_layouts),
        cmocka_unit_test(test_binary_layout_follows_version),
        cmocka_unit_test(test_binary_offsets_checked),
        cmocka_unit_test(test_binary_nested_end_exact),
        cmocka_unit_test(test_binary_unknown_type),
        cmocka_unit_test(test_binary_arrays_checked),
        cmocka_unit_test(test_binary_depth_limit),
        cmocka_unit_test(test_binary_strings_bounded),
        cmocka_unit_test(test_ascii_basic),
        cmocka_unit_test(test_ascii_61_runs),
        cmocka_unit_test(test_ascii_errors),
        cmocka_unit_test(test_ascii_depth_limit),
        cmocka_unit_test(test_ascii_special_numbers),
        cmocka_unit_test(test_typed_reads),
        cmocka_unit_test(test_sniff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
