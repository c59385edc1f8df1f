/* The FBX evidence of the engine predictions: the exact frame period of
 * each time mode and the frame-lattice arithmetic (integers only), the raw
 * transform-path matcher (byte-exact, ambiguity, generated and implicit
 * nodes never matching, partial inventories proving nothing), and the
 * inventory and timing facts a real load fills, ASCII 7.x and 6.1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "animsmith/doc.h"
#include "animsmith/engine.h"
#include "animsmith/fbx.h"
#include "animsmith/gltf.h"
#include "io/fbx/fbx_load.h"
#include "test_fbx_build.h"

#define K ANIM_FBX_KTIME_PER_SECOND

/* ---- frame periods ---- */

static void test_period_standard_modes(void **state)
{
    (void)state;
    assert_true(anim_fbx_frame_period_ktime(6, 0) == INT64_C(1539538600));  /* 30 */
    assert_true(anim_fbx_frame_period_ktime(7, 0) == INT64_C(1539538600));  /* 30 drop */
    assert_true(anim_fbx_frame_period_ktime(11, 0) == INT64_C(1924423250)); /* 24 */
    assert_true(anim_fbx_frame_period_ktime(10, 0) == INT64_C(1847446320)); /* 25 */
    assert_true(anim_fbx_frame_period_ktime(3, 0) == INT64_C(769769300));   /* 60 */
    assert_true(anim_fbx_frame_period_ktime(5, 0) == INT64_C(962211625));   /* 48 */
    assert_true(anim_fbx_frame_period_ktime(1, 0) == INT64_C(384884650));   /* 120 */
    assert_true(anim_fbx_frame_period_ktime(12, 0) == INT64_C(46186158));   /* 1000 */
    for (int64_t m = 1; m <= 18; m++) {
        int64_t p = anim_fbx_frame_period_ktime(m, 0);
        /* Whatever the mode, a nonzero period is exact. */
        if (p)
            assert_true(p > 0 && K % p == 0);
    }
}

static void test_period_inexact_and_unknown(void **state)
{
    (void)state;
    /* NTSC 30000/1001: K * 1001 / 30000 is no integer (1541078138.6). */
    assert_true(anim_fbx_frame_period_ktime(8, 0) == 0);
    assert_true(anim_fbx_frame_period_ktime(9, 0) == 0);
    assert_true(anim_fbx_frame_period_ktime(13, 0) == 0); /* 23.976 */
    assert_true(anim_fbx_frame_period_ktime(17, 0) == 0); /* 59.94 */
    assert_true(anim_fbx_frame_period_ktime(18, 0) == 0); /* 119.88 */
    /* K = 2^4 * 3 * 5^3 * 7697693: 96 = 2^5 * 3 and 72 = 2^3 * 3^2 do not divide it. */
    assert_true(anim_fbx_frame_period_ktime(15, 0) == 0);
    assert_true(anim_fbx_frame_period_ktime(16, 0) == 0);
    /* Mode 0 states no rate; unknown modes have none. */
    assert_true(anim_fbx_frame_period_ktime(0, 30) == 0);
    assert_true(anim_fbx_frame_period_ktime(19, 0) == 0);
    assert_true(anim_fbx_frame_period_ktime(-1, 0) == 0);
}

static void test_period_custom_rate(void **state)
{
    (void)state;
    assert_true(anim_fbx_frame_period_ktime(14, 24.0) == INT64_C(1924423250));
    assert_true(anim_fbx_frame_period_ktime(14, 12.5) == INT64_C(3694892640));
    assert_true(anim_fbx_frame_period_ktime(14, 0.5) == 2 * K);
    /* 29.97 as a double is not 2997/100, and neither divides K anyway. */
    assert_true(anim_fbx_frame_period_ktime(14, 29.97) == 0);
    assert_true(anim_fbx_frame_period_ktime(14, 7.0) == 0); /* 7 does not divide K */
    assert_true(anim_fbx_frame_period_ktime(14, -1.0) == 0);
    assert_true(anim_fbx_frame_period_ktime(14, 0.0) == 0);
    assert_true(anim_fbx_frame_period_ktime(14, 1e300) == 0);
    assert_true(anim_fbx_frame_period_ktime(14, 1e-300) == 0);
}

/* ---- the lattice ---- */

static void test_lattice_30fps(void **state)
{
    (void)state;
    const int64_t p = INT64_C(1539538600);
    int64_t f, r;
    assert_true(anim_fbx_frame_lattice(30 * p, p, &f, &r));
    assert_true(f == 30 && r == 0);
    assert_true(anim_fbx_frame_lattice(0, p, &f, &r));
    assert_true(f == 0);
    /* One tick past frame 30 is off: no rounding through seconds. */
    assert_false(anim_fbx_frame_lattice(30 * p + 1, p, &f, &r));
    assert_true(f == 30 && r == 1);
    assert_false(anim_fbx_frame_lattice(30 * p - 1, p, &f, &r));
    assert_true(f == 29 && r == p - 1);
    assert_false(anim_fbx_frame_lattice(30 * p + p / 2, p, &f, &r));
    assert_true(f == 30 && r == p / 2);
    /* Before time zero the frames around still floor. */
    assert_false(anim_fbx_frame_lattice(-p / 2, p, &f, &r));
    assert_true(f == -1 && r == p - p / 2);
    assert_true(anim_fbx_frame_lattice(-2 * p, p, &f, &r));
    assert_true(f == -2 && r == 0);
    /* No period: never on a lattice. */
    assert_false(anim_fbx_frame_lattice(30 * p, 0, &f, &r));
    assert_true(f == 0 && r == 0);
}

static void test_lattice_ntsc_seconds_vs_ticks(void **state)
{
    (void)state;
    /* 1001 frames of NTSC last exactly 1001 * 1001 / 30000 s, yet the file
     * has no integer period for them: the lattice question has no answer. */
    assert_true(anim_fbx_frame_period_ktime(9, 0) == 0);
    int64_t f, r;
    assert_false(anim_fbx_frame_lattice(K, anim_fbx_frame_period_ktime(9, 0), &f, &r));
    /* A custom 12.5 fps: 2.4 s is frame 30 exactly. */
    int64_t p = anim_fbx_frame_period_ktime(14, 12.5);
    assert_true(anim_fbx_frame_lattice(K * 12 / 5, p, &f, &r));
    assert_true(f == 30);
}

/* ---- the path matcher on a hand-built inventory ---- */

/*  0 <root>
 *  1 Reference        4 Props      6 Props     8 "x/y"     9 x
 *  2   Root           5   Socket   7   Socket              10  y
 *  3     Hips
 * 11 Helper (generated: never matches)  12 Root (top level, distinct from 2) */
static anim_fbx_raw_node g_rows[] = {
    {"", ANIM_NONE, 0, "", false, 0},
    {"Reference", 0, 10, "Null", true, 1},
    {"Root", 1, 11, "LimbNode", true, 2},
    {"Hips", 2, 12, "LimbNode", true, 3},
    {"Props", 0, 13, "Null", true, 4},
    {"Socket", 4, 14, "Null", true, 5},
    {"Props", 0, 15, "Null", true, 6},
    {"Socket", 6, 16, "Null", true, 7},
    {"x/y", 0, 17, "Null", true, 8},
    {"x", 0, 18, "Null", true, 9},
    {"y", 9, 19, "Null", true, 10},
    {"Helper", 0, 20, "Null", false, 11},
    {"Root", 0, 21, "Null", true, 12},
};

static anim_fbx_facts facts_of(anim_fbx_coverage coverage)
{
    anim_fbx_facts f;
    memset(&f, 0, sizeof f);
    f.raw_nodes = g_rows;
    f.raw_node_count = sizeof g_rows / sizeof g_rows[0];
    f.raw_coverage = coverage;
    f.raw_coverage_reason =
        coverage == ANIM_FBX_COVERAGE_COMPLETE ? NULL : "raw_name_not_representable";
    return f;
}

/* The paths the matcher tests treat as configurable are grammar-valid
 * root_motion_source values (and the malformed ones are not), so the
 * matcher is exercised on what the config loader lets through. */
static void test_paths_follow_the_grammar(void **state)
{
    (void)state;
    static const char *const valid[] = {
        "Reference/Root", "Reference/Root/Hips", "Reference", "Root", "Props/Socket",
        "Props", "x/y", "reference/root", "Reference/Root ", "Root/Hips",
        "Reference/Hips", "Reference/Root/Hips/Toe", "Hips", "Helper", "Reference/Pelvis",
    };
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++)
        if (!anim_engine_path_valid(valid[i], strlen(valid[i])))
            fail_msg("'%s' should be a valid path", valid[i]);
    static const char *const invalid[] = {"", "Reference//Root", "/Reference", "Reference/",
                                          "Reference/../Root", "Reference\\Root"};
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++)
        if (anim_engine_path_valid(invalid[i], strlen(invalid[i])))
            fail_msg("'%s' should be refused", invalid[i]);
}

static void test_path_match(void **state)
{
    (void)state;
    anim_fbx_facts f = facts_of(ANIM_FBX_COVERAGE_COMPLETE);
    uint32_t n, s;
    assert_int_equal(anim_fbx_raw_path_match(&f, "Reference/Root", &n, &s), ANIM_FBX_PATH_MATCH);
    assert_int_equal(n, 2);
    assert_int_equal(s, ANIM_NONE);
    assert_int_equal(anim_fbx_raw_path_match(&f, "Reference/Root/Hips", &n, NULL),
                     ANIM_FBX_PATH_MATCH);
    assert_int_equal(n, 3);
    assert_int_equal(anim_fbx_raw_path_match(&f, "Reference", &n, NULL), ANIM_FBX_PATH_MATCH);
    assert_int_equal(n, 1);
    /* A top-level Root is its own path: "Root" is not a suffix match of
     * Reference/Root. */
    assert_int_equal(anim_fbx_raw_path_match(&f, "Root", &n, NULL), ANIM_FBX_PATH_MATCH);
    assert_int_equal(n, 12);
}

static void test_path_no_match(void **state)
{
    (void)state;
    anim_fbx_facts f = facts_of(ANIM_FBX_COVERAGE_COMPLETE);
    uint32_t n = 0;
    static const char *const misses[] = {
        "reference/root",      /* case-sensitive */
        "Reference/Root ",     /* byte-exact */
        "Root/Hips",           /* must start at a top-level Model */
        "Reference/Hips",      /* no skipped generations */
        "Reference/Root/Hips/Toe",
        "Hips",
        "Helper",              /* generated nodes never match */
        "",                    /* the implicit root never matches */
    };
    for (size_t i = 0; i < sizeof misses / sizeof misses[0]; i++) {
        if (anim_fbx_raw_path_match(&f, misses[i], &n, NULL) != ANIM_FBX_PATH_NO_MATCH)
            fail_msg("'%s' matched", misses[i]);
        assert_int_equal(n, ANIM_NONE);
    }
    /* Paths outside the grammar cannot name an unnamed or empty segment. */
    assert_int_equal(anim_fbx_raw_path_match(&f, "Reference//Root", NULL, NULL),
                     ANIM_FBX_PATH_NO_MATCH);
    assert_int_equal(anim_fbx_raw_path_match(&f, "/Reference", NULL, NULL),
                     ANIM_FBX_PATH_NO_MATCH);
    assert_int_equal(anim_fbx_raw_path_match(&f, "Reference/", NULL, NULL),
                     ANIM_FBX_PATH_NO_MATCH);
}

static void test_path_ambiguous(void **state)
{
    (void)state;
    anim_fbx_facts f = facts_of(ANIM_FBX_COVERAGE_COMPLETE);
    uint32_t n, s;
    assert_int_equal(anim_fbx_raw_path_match(&f, "Props/Socket", &n, &s),
                     ANIM_FBX_PATH_AMBIGUOUS);
    assert_int_equal(n, 5);
    assert_int_equal(s, 7);
    assert_int_equal(anim_fbx_raw_path_match(&f, "Props", &n, &s), ANIM_FBX_PATH_AMBIGUOUS);
    assert_int_equal(n, 4);
    assert_int_equal(s, 6);
    /* A name holding "/" spells the same path as x -> y: ambiguous, never
     * silently one of them. */
    assert_int_equal(anim_fbx_raw_path_match(&f, "x/y", &n, &s), ANIM_FBX_PATH_AMBIGUOUS);
    assert_int_equal(n, 8);
    assert_int_equal(s, 10);
}

static void test_path_partial_inventory(void **state)
{
    (void)state;
    anim_fbx_facts f = facts_of(ANIM_FBX_COVERAGE_PARTIAL);
    uint32_t n = 0;
    /* Present, absent or duplicated: a partial inventory proves nothing. */
    assert_int_equal(anim_fbx_raw_path_match(&f, "Reference/Root", &n, NULL),
                     ANIM_FBX_PATH_INCOMPLETE);
    assert_int_equal(n, ANIM_NONE);
    assert_int_equal(anim_fbx_raw_path_match(&f, "Nowhere", NULL, NULL),
                     ANIM_FBX_PATH_INCOMPLETE);
    assert_int_equal(anim_fbx_raw_path_match(NULL, "Reference", NULL, NULL),
                     ANIM_FBX_PATH_INCOMPLETE);
    assert_string_equal(anim_fbx_path_outcome_name(ANIM_FBX_PATH_INCOMPLETE), "incomplete");
    assert_string_equal(anim_fbx_path_outcome_name(ANIM_FBX_PATH_AMBIGUOUS), "ambiguous");
}

static void test_raw_path_text(void **state)
{
    (void)state;
    anim_fbx_facts f = facts_of(ANIM_FBX_COVERAGE_COMPLETE);
    char buf[64];
    assert_int_equal(anim_fbx_raw_path(&f, 3, buf, sizeof buf), strlen("Reference/Root/Hips"));
    assert_string_equal(buf, "Reference/Root/Hips");
    assert_int_equal(anim_fbx_raw_path(&f, 10, buf, sizeof buf), 3);
    assert_string_equal(buf, "x/y");
    /* Truncated, still terminated; the full length returned. */
    char small[8];
    assert_int_equal(anim_fbx_raw_path(&f, 3, small, sizeof small), 19);
    assert_string_equal(small, "Referen");
    assert_int_equal(anim_fbx_raw_path(&f, 0, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
}

/* ---- a real load ---- */

static const char FBX7[] =
    "; FBX 7.5.0 project file\n"
    "FBXHeaderExtension:  {\n FBXHeaderVersion: 1003\n FBXVersion: 7500\n}\n"
    "GlobalSettings:  {\n Version: 1000\n Properties70:  {\n"
    "  P: \"UnitScaleFactor\", \"double\", \"Number\", \"\",100\n"
    "  P: \"TimeMode\", \"enum\", \"\", \"\",11\n }\n}\n"
    "Objects:  {\n"
    " Model: 10, \"Model::Reference\", \"Null\" {\n }\n"
    " Model: 11, \"Model::Root\", \"LimbNode\" {\n }\n"
    " Model: 12, \"Model::Hips\", \"LimbNode\" {\n }\n"
    " Model: 13, \"Model::Extra\", \"Null\" {\n }\n"
    " AnimationStack: 20, \"AnimStack::Stated\", \"\" {\n  Properties70:  {\n"
    "   P: \"LocalStop\", \"KTime\", \"Time\", \"\",46186158001\n  }\n }\n"
    " AnimationStack: 21, \"AnimStack::Keyed\", \"\" {\n }\n"
    " AnimationStack: 22, \"AnimStack::Empty\", \"\" {\n }\n"
    " AnimationLayer: 30, \"AnimLayer::Base\", \"\" {\n }\n"
    " AnimationLayer: 31, \"AnimLayer::Base\", \"\" {\n }\n"
    " AnimationLayer: 32, \"AnimLayer::Base\", \"\" {\n }\n"
    " AnimationCurveNode: 40, \"AnimCurveNode::T\", \"\" {\n  Properties70:  {\n"
    "   P: \"d|X\", \"Number\", \"\", \"A\",0\n  }\n }\n"
    " AnimationCurve: 50, \"AnimCurve::\", \"\" {\n  Default: 0\n  KeyVer: 4009\n"
    "  KeyTime: *2 {\n   a: 0,1924423250\n  }\n"
    "  KeyValueFloat: *2 {\n   a: 0,1\n  }\n"
    "  KeyAttrFlags: *1 {\n   a: 24836\n  }\n"
    "  KeyAttrDataFloat: *4 {\n   a: 0,0,218434821,0\n  }\n"
    "  KeyAttrRefCount: *1 {\n   a: 2\n  }\n }\n"
    "}\n"
    "Connections:  {\n"
    " C: \"OO\",10,0\n C: \"OO\",11,10\n C: \"OO\",12,11\n C: \"OO\",13,0\n"
    " C: \"OO\",30,20\n C: \"OO\",31,21\n C: \"OO\",32,22\n"
    " C: \"OO\",40,31\n C: \"OP\",40,11, \"Lcl Translation\"\n C: \"OP\",50,40, \"d|X\"\n"
    "}\n";

static anim_asset *load(const char *text, anim_error *err)
{
    anim_fbx_loaded *l = anim_fbx_read_memory(text, strlen(text), NULL, "t.fbx", NULL, err);
    if (!l)
        return NULL;
    anim_asset *a = anim_fbx_to_asset(l, NULL, err);
    anim_fbx_loaded_free(l);
    return a;
}

static void test_load_inventory_and_timing(void **state)
{
    (void)state;
    anim_error err = {0};
    anim_asset *a = load(FBX7, &err);
    if (!a)
        fail_msg("%s", err.message);
    const anim_fbx_facts *f = a->source.fbx;
    assert_non_null(f);
    assert_int_equal(f->raw_coverage, ANIM_FBX_COVERAGE_COMPLETE);
    assert_null(f->raw_coverage_reason);
    assert_int_equal(f->raw_node_count, 5);
    assert_false(f->raw_nodes[0].matchable);
    assert_int_equal(f->raw_nodes[0].parent, ANIM_NONE);
    assert_string_equal(f->raw_nodes[1].name, "Reference");
    assert_int_equal(f->raw_nodes[1].parent, 0);
    assert_string_equal(f->raw_nodes[2].name, "Root");
    assert_true(f->raw_nodes[2].id == 11);
    assert_string_equal(f->raw_nodes[2].subclass, "LimbNode");
    assert_int_equal(f->raw_nodes[3].parent, 2);
    assert_string_equal(f->raw_nodes[4].name, "Extra");
    /* Each row names the glTF node the projection made of it, the node a
     * bone points at. */
    for (uint32_t i = 0; i < f->raw_node_count; i++) {
        uint32_t node = f->raw_nodes[i].gltf_node;
        assert_true(node < a->doc.node_count);
        uint32_t b = a->doc.node_to_bone[node];
        assert_string_equal(a->doc.bones[b].name,
                            i == 0 ? "<fbx-root>" : f->raw_nodes[i].name);
    }
    uint32_t n;
    assert_int_equal(anim_fbx_raw_path_match(f, "Reference/Root/Hips", &n, NULL),
                     ANIM_FBX_PATH_MATCH);
    assert_int_equal(n, 3);
    assert_int_equal(anim_fbx_raw_path_match(f, "Reference/Extra", &n, NULL),
                     ANIM_FBX_PATH_NO_MATCH);

    /* Timing: 24 fps, the stated end one tick past 1 s; the keyed stack
     * ends on its last key; the empty one has no end at all. */
    assert_int_equal(f->take_count, 3);
    for (uint32_t t = 0; t < 3; t++) {
        assert_true(f->takes[t].time_mode == 11);
        assert_true(f->takes[t].frame_period_ktime == INT64_C(1924423250));
    }
    assert_int_equal(f->takes[0].span_source, ANIM_FBX_SPAN_STACK);
    assert_true(f->takes[0].stop_ktime == K + 1);
    assert_int_equal(f->takes[1].span_source, ANIM_FBX_SPAN_KEYS);
    assert_true(f->takes[1].stop_ktime == INT64_C(1924423250));
    assert_int_equal(f->takes[2].span_source, ANIM_FBX_SPAN_NONE);
    assert_string_equal(anim_fbx_span_source_name(f->takes[2].span_source), "none");
    anim_asset_free(a);
}

static const char FBX61[] =
    "; FBX 6.1.0 project file\n"
    "FBXHeaderExtension:  {\n"
    "\tFBXVersion: 6100\n"
    "}\n"
    "Objects:  {\n"
    "\tModel: \"Model::Reference\", \"Null\" {\n"
    "\t}\n"
    "\tModel: \"Model::Root\", \"Limb\" {\n"
    "\t}\n"
    "\tGlobalSettings:  {\n"
    "\t\tVersion: 1000\n"
    "\t\tProperties60:  {\n"
    "\t\t\tProperty: \"TimeMode\", \"enum\", \"\",8\n"
    "\t\t}\n"
    "\t}\n"
    "}\n"
    "Connections:  {\n"
    "\tConnect: \"OO\", \"Model::Reference\", \"Model::Scene\"\n"
    "\tConnect: \"OO\", \"Model::Root\", \"Model::Reference\"\n"
    "}\n"
    "Takes:  {\n"
    "\tCurrent: \"Take 001\"\n"
    "\tTake: \"Take 001\" {\n"
    "\t\tLocalTime: 0,46186158000\n"
    "\t}\n"
    "}\n";

static void test_load_61(void **state)
{
    (void)state;
    anim_error err = {0};
    anim_asset *a = load(FBX61, &err);
    if (!a)
        fail_msg("%s", err.message);
    const anim_fbx_facts *f = a->source.fbx;
    assert_int_equal(f->raw_node_count, 3);
    uint32_t n;
    assert_int_equal(anim_fbx_raw_path_match(f, "Reference/Root", &n, NULL), ANIM_FBX_PATH_MATCH);
    assert_string_equal(f->raw_nodes[n].name, "Root");
    assert_int_equal(f->take_count, 1);
    assert_int_equal(f->takes[0].span_source, ANIM_FBX_SPAN_STACK);
    assert_true(f->takes[0].stop_ktime == K);
    /* NTSC drop frame: a rate, but no integer period. */
    assert_true(f->takes[0].time_mode == 8);
    assert_true(f->takes[0].frame_period_ktime == 0);
    assert_true(f->takes[0].frame_rate > 29.9);
    anim_asset_free(a);
}

/* A binary name with a NUL inside its display part ("Ro\0ot\0\1Model")
 * cannot be carried byte-exact: the inventory is partial, and neither the
 * intact sibling nor the absent path is then proven. */
static void test_load_binary_partial(void **state)
{
    (void)state;
    fbxb f;
    fbxb_begin(&f, 7400);
    fbxb_rec(&f, "Objects");
    fbxb_rec(&f, "Model");
    fbxb_i64(&f, 100);
    fbxb_strn(&f, 'S', "Reference\0\1Model", 17);
    fbxb_str(&f, "Null");
    fbxb_end(&f);
    fbxb_rec(&f, "Model");
    fbxb_i64(&f, 101);
    fbxb_strn(&f, 'S', "Ro\0ot\0\1Model", 13);
    fbxb_str(&f, "LimbNode");
    fbxb_end(&f);
    fbxb_end(&f);
    fbxb_rec(&f, "Connections");
    fbxb_rec(&f, "C");
    fbxb_str(&f, "OO");
    fbxb_i64(&f, 100);
    fbxb_i64(&f, 0);
    fbxb_end(&f);
    fbxb_rec(&f, "C");
    fbxb_str(&f, "OO");
    fbxb_i64(&f, 101);
    fbxb_i64(&f, 100);
    fbxb_end(&f);
    fbxb_end(&f);
    fbxb_finish(&f);
    anim_error err = {0};
    anim_fbx_loaded *l = anim_fbx_read_memory(f.b, f.n, NULL, "p.fbx", NULL, &err);
    free(f.b);
    if (!l)
        fail_msg("%s", err.message);
    anim_asset *a = anim_fbx_to_asset(l, NULL, &err);
    anim_fbx_loaded_free(l);
    if (!a)
        fail_msg("%s", err.message);
    const anim_fbx_facts *ff = a->source.fbx;
    assert_int_equal(ff->raw_node_count, 3);
    assert_int_equal(ff->raw_coverage, ANIM_FBX_COVERAGE_PARTIAL);
    assert_string_equal(ff->raw_coverage_reason, "raw_name_not_representable");
    assert_string_equal(anim_fbx_coverage_name(ff->raw_coverage), "partial");
    assert_int_equal(anim_fbx_raw_path_match(ff, "Reference", NULL, NULL),
                     ANIM_FBX_PATH_INCOMPLETE);
    assert_int_equal(anim_fbx_raw_path_match(ff, "Reference/Root", NULL, NULL),
                     ANIM_FBX_PATH_INCOMPLETE);
    anim_asset_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_period_standard_modes),
        cmocka_unit_test(test_period_inexact_and_unknown),
        cmocka_unit_test(test_period_custom_rate),
        cmocka_unit_test(test_lattice_30fps),
        cmocka_unit_test(test_lattice_ntsc_seconds_vs_ticks),
        cmocka_unit_test(test_paths_follow_the_grammar),
        cmocka_unit_test(test_path_match),
        cmocka_unit_test(test_path_no_match),
        cmocka_unit_test(test_path_ambiguous),
        cmocka_unit_test(test_path_partial_inventory),
        cmocka_unit_test(test_raw_path_text),
        cmocka_unit_test(test_load_inventory_and_timing),
        cmocka_unit_test(test_load_61),
        cmocka_unit_test(test_load_binary_partial),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
