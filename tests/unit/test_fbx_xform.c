/* The FBX transform chain on hand-built scenes: every expected value below
 * is worked out by hand (90-degree rotations, pivots, inheritance of a
 * non-uniform parent scale, axis and unit changes), never by re-running
 * the code under test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/math.h"
#include "io/fbx/fbx_scene.h"

#define EPS 1e-12
#define S45 0.70710678118654752440

#define near(got, want)                                                                  \
    do {                                                                                 \
        double g_ = (got), w_ = (want);                                                  \
        if (!(fabs(g_ - w_) <= EPS))                                                     \
            fail_msg("%s = %.17g, want %.17g (line %d)", #got, g_, w_, __LINE__);        \
    } while (0)

#define near3(v, x, y, z)                                                                \
    do {                                                                                 \
        near((v)[0], (x));                                                               \
        near((v)[1], (y));                                                               \
        near((v)[2], (z));                                                               \
    } while (0)

/* A scene with up to 8 nodes; node 0 is the root. */
typedef struct {
    anim_arena *arena;
    anim_fbx_scene sc;
    anim_fbx_node_rec nodes[8];
    anim_fbx_channels ch[8];
    double world[8][16];
} fixture;

static anim_fbx_xform xf(void)
{
    anim_fbx_xform x;
    memset(&x, 0, sizeof x);
    for (int i = 0; i < 3; i++) {
        x.scaling[i] = 1.0;
        x.geometric_scaling[i] = 1.0;
    }
    x.inherit_type = 1;
    return x;
}

/* usf: UnitScaleFactor; axes as (coord, sign), (up, sign), (front, sign). */
static void init_axes(fixture *f, double usf, int coord, int csign, int up, int usign, int front,
                      int fsign)
{
    memset(f, 0, sizeof *f);
    f->arena = anim_arena_new();
    assert_non_null(f->arena);
    f->sc.arena = f->arena;
    f->sc.unit_scale_factor = usf;
    f->sc.coord_axis = coord;
    f->sc.coord_sign = csign;
    f->sc.up_axis = up;
    f->sc.up_sign = usign;
    f->sc.front_axis = front;
    f->sc.front_sign = fsign;
    anim_error err = {0};
    assert_int_equal(anim_fbx_scene_axes(&f->sc, &err), 0);
    f->sc.nodes = f->nodes;
    f->sc.node_count = 1;
    f->nodes[0].name = "<fbx-root>";
    f->nodes[0].parent = ANIM_NONE;
    f->nodes[0].object = ANIM_FBX_SCENE_ROOT;
    f->nodes[0].xform = xf();
}

/* Y-up metres: glTF space exactly, so file numbers are glTF numbers. */
static void init_plain(fixture *f)
{
    init_axes(f, 100.0, 0, 1, 1, 1, 2, 1);
}

static uint32_t add(fixture *f, uint32_t parent, anim_fbx_xform x, const char *name)
{
    uint32_t n = f->sc.node_count++;
    assert_true(n < 8);
    f->nodes[n].name = name;
    f->nodes[n].id = 100 + n;
    f->nodes[n].object = n - 1;
    f->nodes[n].parent = parent;
    f->nodes[n].xform = x;
    return n;
}

static void eval(fixture *f)
{
    anim_fbx_rest_channels(&f->sc, f->ch);
    anim_fbx_eval_worlds(&f->sc, f->ch, f->world);
}

static void done(fixture *f)
{
    anim_arena_free(f->arena);
}

/* world * p as a point. */
static void apply(const double m[16], const double p[3], double out[3])
{
    for (int r = 0; r < 3; r++)
        out[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
}

static double col_len(const double m[16], int c)
{
    return sqrt(m[c * 4] * m[c * 4] + m[c * 4 + 1] * m[c * 4 + 1] + m[c * 4 + 2] * m[c * 4 + 2]);
}

/* ---- rotation orders ------------------------------------------------------ */

static void test_euler_orders(void **state)
{
    (void)state;
    /* (1, 2, 3) through 90 degrees about each axis, in each order, by hand:
     * Rx: (x,y,z) -> (x,-z,y); Ry: -> (z,y,-x); Rz: -> (-y,x,z). */
    static const double want[6][3] = {
        {3, 2, -1}, /* XYZ: X, then Y, then Z */
        {2, 1, -3}, /* XZY */
        {-2, 1, 3}, /* YZX */
        {-1, 3, 2}, /* YXZ */
        {1, -3, 2}, /* ZXY */
        {3, -2, 1}, /* ZYX */
    };
    const double deg[3] = {90, 90, 90}, v[3] = {1, 2, 3};
    for (int order = 0; order < 6; order++) {
        double m[16], out[3];
        anim_fbx_euler_matrix(deg, order, m);
        apply(m, v, out);
        near3(out, want[order][0], want[order][1], want[order][2]);
    }
    /* A single 30-degree turn about Z. */
    double m[16], out[3];
    anim_fbx_euler_matrix((const double[3]){0, 0, 30}, 0, m);
    apply(m, (const double[3]){1, 0, 0}, out);
    near3(out, cos(ANIM_PI / 6), 0.5, 0);
}

static void test_pure_trs(void **state)
{
    (void)state;
    fixture f;
    init_plain(&f);
    anim_fbx_xform x = xf();
    x.translation[0] = 1, x.translation[1] = 2, x.translation[2] = 3;
    x.rotation[2] = 90;
    x.scaling[0] = 2, x.scaling[1] = 3, x.scaling[2] = 4;
    uint32_t n = add(&f, 0, x, "a");
    eval(&f);
    double p[3];
    /* (1,1,1) -> S (2,3,4) -> Rz90 (-3,2,4) -> T (-2,4,7). */
    apply(f.world[n], (const double[3]){1, 1, 1}, p);
    near3(p, -2, 4, 7);
    double t[3], r[4], s[3];
    near(anim_fbx_local_trs(&f.sc, (const double(*)[16])f.world, n, t, r, s), 0.0);
    near3(t, 1, 2, 3);
    near3(s, 2, 3, 4);
    near(r[0], 0);
    near(r[1], 0);
    near(r[2], S45);
    near(r[3], S45);
    /* The same node in ZYX order with rotation (90, 90, 0): X is applied
     * last, so (1,0,0) -> Ry (0,0,-1) -> Rx (0,1,0). */
    f.nodes[n].xform.rotation_order = 5;
    f.nodes[n].xform.rotation[0] = 90, f.nodes[n].xform.rotation[1] = 90,
    f.nodes[n].xform.rotation[2] = 0;
    f.nodes[n].xform.scaling[0] = f.nodes[n].xform.scaling[1] = f.nodes[n].xform.scaling[2] = 1;
    f.nodes[n].xform.translation[0] = f.nodes[n].xform.translation[1] =
        f.nodes[n].xform.translation[2] = 0;
    eval(&f);
    apply(f.world[n], (const double[3]){1, 0, 0}, p);
    near3(p, 0, 1, 0);
    done(&f);
}

static void test_pre_post_rotation(void **state)
{
    (void)state;
    fixture f;
    init_plain(&f);
    anim_fbx_xform x = xf();
    x.pre_rotation[2] = 90; /* Rz90 */
    x.rotation[0] = 90;     /* Rx90 */
    x.post_rotation[1] = 90;
    uint32_t n = add(&f, 0, x, "a");
    eval(&f);
    /* (1,2,3) -> Rpost^-1 = Ry(-90): (x,y,z)->(-z,y,x) (-3,2,1)
     *         -> Rx90 (-3,-1,2) -> Rz90 (1,-3,2). */
    double p[3];
    apply(f.world[n], (const double[3]){1, 2, 3}, p);
    near3(p, 1, -3, 2);
    /* Pre-rotation ignores the node's rotation order (it is XYZ). */
    f.nodes[n].xform.post_rotation[1] = 0;
    f.nodes[n].xform.pre_rotation[0] = 90; /* pre = XYZ(90, 0, 90) */
    f.nodes[n].xform.rotation[0] = 0;
    f.nodes[n].xform.rotation_order = 5;
    eval(&f);
    /* (1,2,3) -> Rx (1,-3,2) -> Rz (3,1,2); ZYX would give Rz first. */
    apply(f.world[n], (const double[3]){1, 2, 3}, p);
    near3(p, 3, 1, 2);
    done(&f);
}

static void test_pivots(void **state)
{
    (void)state;
    fixture f;
    init_plain(&f);
    double t[3], r[4], s[3];
    /* Rotation about the pivot (1,0,0): the origin goes (−1,0,0) -> Rz90
     * (0,−1,0) -> (1,−1,0), so the local translation is (1,−1,0). */
    anim_fbx_xform x = xf();
    x.rotation[2] = 90;
    x.rotation_pivot[0] = 1;
    uint32_t a = add(&f, 0, x, "rp");
    /* Rotation offset adds on top: (1,−1,5). */
    x.rotation_offset[2] = 5;
    uint32_t b = add(&f, 0, x, "roff");
    /* Scaling about the pivot (1,0,0) by 2: origin -> (−1,0,0) -> (−2,0,0)
     * -> (−1,0,0); with scaling offset (0,3,0): (−1,3,0). */
    anim_fbx_xform y = xf();
    y.scaling[0] = y.scaling[1] = y.scaling[2] = 2;
    y.scaling_pivot[0] = 1;
    y.scaling_offset[1] = 3;
    uint32_t c = add(&f, 0, y, "sp");
    /* Both: Sp (0,1,0), S 2, Rp (1,0,0), Rz90: origin -> (0,−1,0) ->
     * (0,−2,0) -> (0,−1,0) -> (−1,−1,0) -> (1,−1,0) -> (2,−1,0). */
    anim_fbx_xform z = xf();
    z.rotation[2] = 90;
    z.rotation_pivot[0] = 1;
    z.scaling[0] = z.scaling[1] = z.scaling[2] = 2;
    z.scaling_pivot[1] = 1;
    uint32_t d = add(&f, 0, z, "both");
    eval(&f);
    anim_fbx_local_trs(&f.sc, (const double(*)[16])f.world, a, t, r, s);
    near3(t, 1, -1, 0);
    near(r[2], S45);
    anim_fbx_local_trs(&f.sc, (const double(*)[16])f.world, b, t, r, s);
    near3(t, 1, -1, 5);
    anim_fbx_local_trs(&f.sc, (const double(*)[16])f.world, c, t, r, s);
    near3(t, -1, 3, 0);
    near3(s, 2, 2, 2);
    anim_fbx_local_trs(&f.sc, (const double(*)[16])f.world, d, t, r, s);
    near3(t, 2, -1, 0);
    done(&f);
}

/* ---- inheritance ------------------------------------------------------------ */

/* Parent scale (2,1,1) at the top; child turned 90 degrees about Z at
 * (1,0,0), with the given inherit type. */
static uint32_t inherit_case(fixture *f, int inherit)
{
    init_plain(f);
    anim_fbx_xform p = xf();
    p.scaling[0] = 2;
    uint32_t pn = add(f, 0, p, "parent");
    anim_fbx_xform c = xf();
    c.rotation[2] = 90;
    c.translation[0] = 1;
    c.inherit_type = inherit;
    uint32_t cn = add(f, pn, c, "child");
    eval(f);
    return cn;
}

static void test_inherit_rsrs(void **state)
{
    (void)state;
    fixture f;
    uint32_t n = inherit_case(&f, 1);
    /* parent * local: x axis Rz90 e_x = (0,1,0) unscaled, y axis (−1,0,0)
     * scaled by the parent's X: (−2,0,0); origin (1,0,0) -> (2,0,0). */
    const double *w = f.world[n];
    near3(w, 0, 1, 0);
    near3(w + 4, -2, 0, 0);
    near3(w + 12, 2, 0, 0);
    double t[3], r[4], s[3];
    near(anim_fbx_local_trs(&f.sc, (const double(*)[16])f.world, n, t, r, s), 0.0);
    near3(t, 1, 0, 0);
    near3(s, 1, 1, 1);
    near(r[2], S45);
    done(&f);
}

static void test_inherit_rrss(void **state)
{
    (void)state;
    fixture f;
    uint32_t n = inherit_case(&f, 0);
    /* Rp * Rl * Sp * Sl = Rz90 * diag(2,1,1): the parent's X scale follows
     * the child's own X axis: x axis (0,2,0), y axis (−1,0,0). */
    const double *w = f.world[n];
    near3(w, 0, 2, 0);
    near3(w + 4, -1, 0, 0);
    near3(w + 12, 2, 0, 0);
    /* In the parent's space (x halved): Rz90 * diag(2, 0.5, 1). */
    double t[3], r[4], s[3];
    near(anim_fbx_local_trs(&f.sc, (const double(*)[16])f.world, n, t, r, s), 0.0);
    near3(t, 1, 0, 0);
    near3(s, 2, 0.5, 1);
    near(r[2], S45);
    near(r[3], S45);
    done(&f);
}

static void test_inherit_rrs(void **state)
{
    (void)state;
    fixture f;
    uint32_t n = inherit_case(&f, 2);
    /* The parent's own scale is not inherited: x (0,1,0), y (−1,0,0); the
     * translation still goes through the parent: (2,0,0). */
    const double *w = f.world[n];
    near3(w, 0, 1, 0);
    near3(w + 4, -1, 0, 0);
    near3(w + 12, 2, 0, 0);
    double t[3], r[4], s[3];
    anim_fbx_local_trs(&f.sc, (const double(*)[16])f.world, n, t, r, s);
    near3(s, 1, 0.5, 1);
    done(&f);

    /* Only the direct parent's scale is removed: grandparent 3, parent
     * (2,1,1): the child keeps the grandparent's uniform 3. */
    init_plain(&f);
    anim_fbx_xform g = xf();
    g.scaling[0] = g.scaling[1] = g.scaling[2] = 3;
    uint32_t gn = add(&f, 0, g, "grand");
    anim_fbx_xform p = xf();
    p.scaling[0] = 2;
    uint32_t pn = add(&f, gn, p, "parent");
    anim_fbx_xform c = xf();
    c.rotation[2] = 90;
    c.inherit_type = 2;
    uint32_t cn = add(&f, pn, c, "child");
    eval(&f);
    for (int k = 0; k < 3; k++)
        near(col_len(f.world[cn], k), 3.0);
    done(&f);
}

static void test_shear_note(void **state)
{
    (void)state;
    fixture f;
    init_plain(&f);
    /* A 45-degree child of a (2,1,1) scale shears (RSrs), and an RrSs
     * grandchild turned 30 degrees then has a local that is no TRS. */
    anim_fbx_xform g = xf();
    g.scaling[0] = 2;
    uint32_t gn = add(&f, 0, g, "squash");
    anim_fbx_xform p = xf();
    p.rotation[2] = 45;
    uint32_t pn = add(&f, gn, p, "turned");
    anim_fbx_xform c = xf();
    c.rotation[2] = 30;
    c.inherit_type = 0;
    add(&f, pn, c, "sheared");
    anim_error err = {0};
    assert_int_equal(anim_fbx_scene_rest(&f.sc, &err), 0);
    assert_int_equal(f.sc.note_count, 1);
    assert_non_null(strstr(f.sc.notes[0], "Model 'sheared' (id 103)"));
    /* RSrs everywhere: every local is exact, no note. */
    f.nodes[3].xform.inherit_type = 1;
    f.sc.note_count = 0;
    assert_int_equal(anim_fbx_scene_rest(&f.sc, &err), 0);
    assert_int_equal(f.sc.note_count, 0);
    near(f.nodes[3].r[2], sin(ANIM_PI / 12));
    done(&f);
}

static void test_zero_scale_parent(void **state)
{
    (void)state;
    fixture f;
    init_plain(&f);
    anim_fbx_xform p = xf();
    p.scaling[0] = p.scaling[1] = p.scaling[2] = 0;
    uint32_t pn = add(&f, 0, p, "hidden");
    anim_fbx_xform c = xf();
    c.translation[0] = 1, c.translation[1] = 2, c.translation[2] = 3;
    add(&f, pn, c, "kid");
    anim_error err = {0};
    assert_int_equal(anim_fbx_scene_rest(&f.sc, &err), 0);
    /* The worlds collapse; the child's rest is its own local. */
    near3(f.nodes[2].t, 1, 2, 3);
    near3(f.nodes[2].s, 1, 1, 1);
    assert_int_equal(f.sc.note_count, 1);
    assert_non_null(strstr(f.sc.notes[0], "Model 'kid' (id 102): parent has zero scale"));
    done(&f);
}

/* ---- axes and units ----------------------------------------------------------- */

static void test_z_up(void **state)
{
    (void)state;
    fixture f;
    /* 3ds Max: X right, Z up, front −Y; centimetres. */
    init_axes(&f, 1.0, 0, 1, 2, 1, 1, -1);
    assert_false(anim_fbx_axis_mirrors(&f.sc));
    double p[3];
    /* (x, y, z) -> (x, z, −y) * 0.01. */
    anim_fbx_convert_point(&f.sc, (const double[3]){1, 2, 3}, p);
    near3(p, 0.01, 0.03, -0.02);
    anim_fbx_convert_direction(&f.sc, (const double[3]){1, 2, 3}, p);
    near3(p, 1, 3, -2);
    /* A chain: A 100 cm up, B 50 cm along Y turned 90 degrees about the up
     * axis, C 10 cm along B's X. */
    anim_fbx_xform a = xf();
    a.translation[2] = 100;
    uint32_t an = add(&f, 0, a, "A");
    anim_fbx_xform b = xf();
    b.translation[1] = 50;
    b.rotation[2] = 90;
    uint32_t bn = add(&f, an, b, "B");
    anim_fbx_xform c = xf();
    c.translation[0] = 10;
    uint32_t cn = add(&f, bn, c, "C");
    eval(&f);
    near3(f.world[an] + 12, 0, 1, 0);
    near3(f.world[bn] + 12, 0, 1, -0.5);
    /* C in file space: (0,50,100) + Rz90 (10,0,0) = (0,60,100). */
    near3(f.world[cn] + 12, 0, 1, -0.6);
    double t[3], r[4], s[3];
    anim_fbx_local_trs(&f.sc, (const double(*)[16])f.world, bn, t, r, s);
    near3(t, 0, 0, -0.5);
    /* A turn about file +Z (up) is a turn about glTF +Y. */
    near(r[0], 0);
    near(r[1], S45);
    near(r[2], 0);
    near(r[3], S45);
    near3(s, 1, 1, 1);
    /* The geometric transform converts the same way. */
    f.nodes[cn].xform.geometric_translation[2] = 100;
    double g[16];
    anim_fbx_geometric_matrix(&f.sc, cn, g);
    near3(g + 12, 0, 1, 0);
    done(&f);
}

static void test_units(void **state)
{
    (void)state;
    fixture f;
    double p[3];
    init_axes(&f, 100.0, 0, 1, 1, 1, 2, 1); /* metres */
    near(f.sc.metres_per_unit, 1.0);
    anim_fbx_convert_point(&f.sc, (const double[3]){1, 2, 3}, p);
    near3(p, 1, 2, 3);
    done(&f);
    init_axes(&f, 1.0, 0, 1, 1, 1, 2, 1); /* centimetres */
    anim_fbx_convert_point(&f.sc, (const double[3]){1, 2, 3}, p);
    near3(p, 0.01, 0.02, 0.03);
    /* Units scale translations, never scale factors. */
    anim_fbx_xform x = xf();
    x.translation[1] = 150;
    x.scaling[0] = x.scaling[1] = x.scaling[2] = 2;
    uint32_t n = add(&f, 0, x, "hips");
    eval(&f);
    double t[3], r[4], s[3];
    anim_fbx_local_trs(&f.sc, (const double(*)[16])f.world, n, t, r, s);
    near3(t, 0, 1.5, 0);
    near3(s, 2, 2, 2);
    done(&f);
    init_axes(&f, 2.54, 0, 1, 1, 1, 2, 1); /* inches */
    near(f.sc.metres_per_unit, 0.0254);
    done(&f);
}

static void test_left_handed_mirrors(void **state)
{
    (void)state;
    fixture f;
    /* X points left: a reflection. */
    init_axes(&f, 100.0, 0, -1, 1, 1, 2, 1);
    assert_true(anim_fbx_axis_mirrors(&f.sc));
    double p[3];
    anim_fbx_convert_point(&f.sc, (const double[3]){1, 2, 3}, p);
    near3(p, -1, 2, 3);
    /* A 90-degree turn about Z stays a rotation: −90 degrees once
     * mirrored, with positive scale. */
    anim_fbx_xform x = xf();
    x.rotation[2] = 90;
    uint32_t n = add(&f, 0, x, "a");
    eval(&f);
    double t[3], r[4], s[3];
    near(anim_fbx_local_trs(&f.sc, (const double(*)[16])f.world, n, t, r, s), 0.0);
    near3(s, 1, 1, 1);
    near(r[2], -S45);
    near(r[3], S45);
    done(&f);
    init_axes(&f, 100.0, 0, 1, 1, 1, 2, 1);
    assert_false(anim_fbx_axis_mirrors(&f.sc));
    done(&f);
    /* Z-up with front +Y is left-handed. */
    init_axes(&f, 100.0, 0, 1, 2, 1, 1, 1);
    assert_true(anim_fbx_axis_mirrors(&f.sc));
    done(&f);
}

static void test_axis_refusals(void **state)
{
    (void)state;
    anim_fbx_scene sc;
    memset(&sc, 0, sizeof sc);
    anim_error err = {0};
    sc.unit_scale_factor = 1;
    sc.coord_axis = 0, sc.coord_sign = 1, sc.up_axis = 1, sc.up_sign = 1;
    sc.front_axis = 1, sc.front_sign = 1;
    assert_int_equal(anim_fbx_scene_axes(&sc, &err), -1);
    assert_non_null(strstr(err.message, "GlobalSettings FrontAxis 1"));
    sc.front_axis = 2, sc.front_sign = 0;
    assert_int_equal(anim_fbx_scene_axes(&sc, &err), -1);
    assert_non_null(strstr(err.message, "FrontAxisSign 0"));
    sc.front_sign = 1, sc.up_axis = 3;
    assert_int_equal(anim_fbx_scene_axes(&sc, &err), -1);
    assert_non_null(strstr(err.message, "UpAxis 3"));
    sc.up_axis = 1, sc.unit_scale_factor = 0;
    assert_int_equal(anim_fbx_scene_axes(&sc, &err), -1);
    assert_non_null(strstr(err.message, "UnitScaleFactor"));
    sc.unit_scale_factor = NAN;
    assert_int_equal(anim_fbx_scene_axes(&sc, &err), -1);
    sc.unit_scale_factor = 1;
    assert_int_equal(anim_fbx_scene_axes(&sc, &err), 0);
}

static void test_frame_rates(void **state)
{
    (void)state;
    near(anim_fbx_frame_rate(0, 0), 0);
    near(anim_fbx_frame_rate(1, 0), 120);
    near(anim_fbx_frame_rate(6, 0), 30);
    near(anim_fbx_frame_rate(9, 0), 30000.0 / 1001.0);
    near(anim_fbx_frame_rate(10, 0), 25);
    near(anim_fbx_frame_rate(11, 0), 24);
    near(anim_fbx_frame_rate(13, 0), 24000.0 / 1001.0);
    near(anim_fbx_frame_rate(14, 12.5), 12.5);
    near(anim_fbx_frame_rate(14, -1), 0);
    near(anim_fbx_frame_rate(17, 0), 60000.0 / 1001.0);
    near(anim_fbx_frame_rate(18, 0), 120000.0 / 1001.0);
    near(anim_fbx_frame_rate(19, 0), 0);
    near(anim_fbx_frame_rate(-1, 0), 0);
}

static void test_channels_animate(void **state)
{
    (void)state;
    fixture f;
    init_plain(&f);
    anim_fbx_xform x = xf();
    x.pre_rotation[1] = 90;
    uint32_t n = add(&f, 0, x, "a");
    anim_fbx_rest_channels(&f.sc, f.ch);
    f.ch[n].t[0] = 5;
    f.ch[n].r[0] = 90; /* after the pre-rotation: Ry90 * Rx90 */
    anim_fbx_eval_worlds(&f.sc, f.ch, f.world);
    double p[3];
    /* (1,2,3) -> Rx (1,-3,2) -> Ry (2,-3,-1) -> +5 x. */
    apply(f.world[n], (const double[3]){1, 2, 3}, p);
    near3(p, 7, -3, -1);
    done(&f);
}

static void test_notes_and_lookup(void **state)
{
    (void)state;
    fixture f;
    init_plain(&f);
    anim_error err = {0};
    for (int i = 0; i < 100; i++)
        assert_int_equal(anim_fbx_scene_note(&f.sc, &err, "note %d", i), 0);
    assert_int_equal(f.sc.note_count, 100);
    assert_string_equal(f.sc.notes[0], "note 0");
    assert_string_equal(f.sc.notes[99], "note 99");
    add(&f, 0, xf(), "a");
    add(&f, 1, xf(), "b");
    /* No map in a hand-built scene: the lookup searches. */
    assert_int_equal(anim_fbx_node_of_object(&f.sc, 1), 2);
    assert_int_equal(anim_fbx_node_of_object(&f.sc, 7), ANIM_NONE);
    uint32_t map[2] = {2, ANIM_NONE};
    f.sc.node_of_object = map;
    f.sc.node_of_object_count = 2;
    assert_int_equal(anim_fbx_node_of_object(&f.sc, 0), 2);
    assert_int_equal(anim_fbx_node_of_object(&f.sc, 1), ANIM_NONE);
    assert_int_equal(anim_fbx_node_of_object(&f.sc, 5), ANIM_NONE);
    done(&f);
}


/* ---- the stage on small ASCII files ---------------------------------------- */

typedef struct {
    anim_arena *arena;
    anim_fbx_tree tree;
    anim_fbx_objects objs;
    anim_fbx_scene sc;
    anim_error err;
} loaded;

static const char *HEADER = "; FBX 7.4.0 project file\n"
                            "FBXHeaderExtension:  {\n FBXVersion: 7400\n}\n";

/* Parses header + text and runs stage 1; returns its status. */
static int load(loaded *l, const char *text)
{
    memset(l, 0, sizeof *l);
    l->arena = anim_arena_new();
    assert_non_null(l->arena);
    char *all = anim_arena_printf(l->arena, "%s%s", HEADER, text);
    assert_non_null(all);
    assert_int_equal(anim_fbx_parse((const uint8_t *)all, strlen(all), l->arena, NULL, &l->tree,
                                    &l->err),
                     0);
    assert_int_equal(anim_fbx_objects_build(&l->tree, l->arena, &l->objs, NULL, &l->err), 0);
    l->sc.objs = &l->objs;
    l->sc.arena = l->arena;
    l->sc.version = l->tree.version;
    return anim_fbx_build_nodes(&l->sc, &l->err);
}

static void test_stage_hierarchy(void **state)
{
    (void)state;
    loaded l;
    const char *text =
        "GlobalSettings:  {\n Version: 1000\n Properties70:  {\n"
        "  P: \"UpAxis\", \"int\", \"Integer\", \"\",2\n"
        "  P: \"FrontAxis\", \"int\", \"Integer\", \"\",1\n"
        "  P: \"FrontAxisSign\", \"int\", \"Integer\", \"\",-1\n"
        "  P: \"UnitScaleFactor\", \"double\", \"Number\", \"\",2.54\n"
        "  P: \"TimeMode\", \"enum\", \"\", \"\",11\n }\n}\n"
        "Definitions:  {\n ObjectType: \"Model\" {\n  Count: 4\n"
        "  PropertyTemplate: \"FbxNode\" {\n   Properties70:  {\n"
        "    P: \"InheritType\", \"enum\", \"\", \"\",1\n   }\n  }\n }\n}\n"
        "Objects:  {\n"
        " Model: 10, \"Model::b\", \"LimbNode\" {\n  Properties70:  {\n"
        "   P: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",0,0,10\n"
        "   P: \"InheritType\", \"enum\", \"\", \"\",2\n  }\n }\n"
        " Model: 11, \"Model::a\", \"Null\" {\n }\n"
        " Model: 12, \"Model::c\", \"Mesh\" {\n }\n"
        " Model: 13, \"Model::d\", \"Root\" {\n }\n"
        "}\n"
        "Connections:  {\n C: \"OO\",10,11\n C: \"OO\",11,0\n C: \"OO\",12,11\n}\n";
    assert_int_equal(load(&l, text), 0);
    /* Depth first, siblings in file order: root, a, b, c, d. */
    assert_int_equal(l.sc.node_count, 5);
    const char *names[5] = {"<fbx-root>", "a", "b", "c", "d"};
    const uint32_t parents[5] = {ANIM_NONE, 0, 1, 1, 0};
    const bool joints[5] = {false, false, true, false, true};
    for (uint32_t n = 0; n < 5; n++) {
        assert_string_equal(l.sc.nodes[n].name, names[n]);
        assert_int_equal(l.sc.nodes[n].parent, parents[n]);
        assert_int_equal(l.sc.nodes[n].is_joint, joints[n]);
    }
    assert_int_equal(l.sc.nodes[2].id, 10);
    assert_int_equal(anim_fbx_node_of_object(&l.sc, l.sc.nodes[3].object), 3);
    /* The template's InheritType applies where the Model states none. */
    assert_int_equal(l.sc.nodes[1].xform.inherit_type, 1);
    assert_int_equal(l.sc.nodes[2].xform.inherit_type, 2);
    near(l.sc.frame_rate, 24.0);
    near(l.sc.metres_per_unit, 0.0254);
    /* b is 10 inches up (file Z): 0.254 m up in glTF. */
    near3(l.sc.nodes[2].t, 0, 0.254, 0);
    anim_arena_free(l.arena);
}

static const char *one_model(loaded *l, const char *props)
{
    char *text = anim_arena_printf(l->arena,
                                   "Objects:  {\n Model: 7, \"Model::j\", \"LimbNode\" {\n"
                                   "  Properties70:  {\n%s  }\n }\n}\n"
                                   "Connections:  {\n C: \"OO\",7,0\n}\n",
                                   props);
    assert_non_null(text);
    return text;
}

static int load_props(loaded *l, const char *props)
{
    anim_arena *tmp = anim_arena_new();
    loaded scratch = {.arena = tmp};
    const char *text = one_model(&scratch, props);
    int rc = load(l, text);
    anim_arena_free(tmp);
    return rc;
}

static void test_stage_rotation_active(void **state)
{
    (void)state;
    loaded l;
    const char *pre = "   P: \"PreRotation\", \"Vector3D\", \"Vector\", \"\",0,0,90\n"
                      "   P: \"RotationOrder\", \"enum\", \"\", \"\",5\n";
    /* RotationActive absent (0): the pre-rotation and order do not apply. */
    assert_int_equal(load_props(&l, pre), 0);
    near(l.sc.nodes[1].xform.pre_rotation[2], 0);
    assert_int_equal(l.sc.nodes[1].xform.rotation_order, 0);
    near(l.sc.nodes[1].r[3], 1);
    anim_arena_free(l.arena);
    char both[512];
    snprintf(both, sizeof both, "%s   P: \"RotationActive\", \"bool\", \"\", \"\",1\n", pre);
    assert_int_equal(load_props(&l, both), 0);
    near(l.sc.nodes[1].xform.pre_rotation[2], 90);
    assert_int_equal(l.sc.nodes[1].xform.rotation_order, 5);
    near(l.sc.nodes[1].r[2], S45);
    anim_arena_free(l.arena);
}

static void test_stage_refusals(void **state)
{
    (void)state;
    loaded l;
    /* Spheric rotation, when in effect, is refused naming the Model. */
    assert_int_equal(load_props(&l, "   P: \"RotationActive\", \"bool\", \"\", \"\",1\n"
                                    "   P: \"RotationOrder\", \"enum\", \"\", \"\",6\n"),
                     -1);
    assert_non_null(strstr(l.err.message, "Model 'j' (id 7)"));
    assert_non_null(strstr(l.err.message, "RotationOrder"));
    anim_arena_free(l.arena);
    assert_int_equal(load_props(&l, "   P: \"InheritType\", \"enum\", \"\", \"\",3\n"), -1);
    assert_non_null(strstr(l.err.message, "Model 'j' (id 7) property 'InheritType'"));
    anim_arena_free(l.arena);
    /* A parent cycle and a self-parent are errors naming a Model. */
    assert_int_equal(load(&l, "Objects:  {\n Model: 1, \"Model::x\", \"Null\" {\n }\n"
                              " Model: 2, \"Model::y\", \"Null\" {\n }\n"
                              " Model: 3, \"Model::z\", \"Null\" {\n }\n}\n"
                              "Connections:  {\n C: \"OO\",1,2\n C: \"OO\",2,1\n"
                              " C: \"OO\",3,1\n}\n"),
                     -1);
    assert_non_null(strstr(l.err.message, "cycle"));
    assert_true(strstr(l.err.message, "Model 'x' (id 1)") || strstr(l.err.message, "Model 'y' (id 2)"));
    anim_arena_free(l.arena);
    assert_int_equal(load(&l, "Objects:  {\n Model: 1, \"Model::x\", \"Null\" {\n }\n}\n"
                              "Connections:  {\n C: \"OO\",1,1\n}\n"),
                     -1);
    assert_non_null(strstr(l.err.message, "Model 'x' (id 1) is connected to itself"));
    anim_arena_free(l.arena);
    /* Conflicting axes in GlobalSettings. */
    assert_int_equal(load(&l, "GlobalSettings:  {\n Properties70:  {\n"
                              "  P: \"UpAxis\", \"int\", \"Integer\", \"\",2\n }\n}\n"),
                     -1);
    assert_non_null(strstr(l.err.message, "GlobalSettings"));
    anim_arena_free(l.arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_euler_orders),
        cmocka_unit_test(test_pure_trs),
        cmocka_unit_test(test_pre_post_rotation),
        cmocka_unit_test(test_pivots),
        cmocka_unit_test(test_inherit_rsrs),
        cmocka_unit_test(test_inherit_rrss),
        cmocka_unit_test(test_inherit_rrs),
        cmocka_unit_test(test_shear_note),
        cmocka_unit_test(test_zero_scale_parent),
        cmocka_unit_test(test_z_up),
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_left_handed_mirrors),
        cmocka_unit_test(test_axis_refusals),
        cmocka_unit_test(test_frame_rates),
        cmocka_unit_test(test_channels_animate),
        cmocka_unit_test(test_notes_and_lookup),
        cmocka_unit_test(test_stage_hierarchy),
        cmocka_unit_test(test_stage_rotation_active),
        cmocka_unit_test(test_stage_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
