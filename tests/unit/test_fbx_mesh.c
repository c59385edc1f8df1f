/* The FBX geometry stage: triangulation, the vertex split, material
 * slots, influence capping, winding under mirroring (on plain arrays),
 * and layer elements, skins and blend shapes through small ASCII files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/math.h"
#include "io/fbx/fbx_geometry_internal.h"
#include "io/fbx/fbx_load.h"

/* ---- plain-array core ------------------------------------------------- */

typedef struct mesh_fixture {
    anim_arena *arena;
    anim_fbx_split out;
    anim_error err;
} mesh_fixture;

static int split(mesh_fixture *f, const anim_fbx_split_input *in)
{
    if (!f->arena)
        f->arena = anim_arena_new();
    return anim_fbx_split_mesh(in, f->arena, &f->out, &f->err);
}

static void fixture_free(mesh_fixture *f)
{
    anim_arena_free(f->arena);
    f->arena = NULL;
}

/* One polygon over control points 0..n-1 at pos. */
static void one_polygon(anim_fbx_split_input *in, const double *pos, uint32_t n, uint32_t *cps,
                        uint32_t *starts)
{
    memset(in, 0, sizeof *in);
    for (uint32_t i = 0; i < n; i++)
        cps[i] = i;
    starts[0] = 0, starts[1] = n;
    in->cp_count = n, in->positions = pos;
    in->corner_count = n, in->corner_cp = cps;
    in->poly_count = 1, in->poly_start = starts;
}

static double tri_area_z(const double *pos, uint32_t a, uint32_t b, uint32_t c)
{
    const double *p = pos + 3 * a, *q = pos + 3 * b, *r = pos + 3 * c;
    return 0.5 * ((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
}

static void test_quad_and_ngon_fan(void **state)
{
    (void)state;
    static const double quad[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    uint32_t cps[8], starts[2];
    anim_fbx_split_input in;
    mesh_fixture f = {0};
    one_polygon(&in, quad, 4, cps, starts);
    assert_int_equal(split(&f, &in), 0);
    assert_int_equal(f.out.prim_count, 1);
    const uint32_t want_quad[] = {0, 1, 2, 0, 2, 3};
    assert_int_equal(f.out.prims[0].index_count, 6);
    assert_memory_equal(f.out.prims[0].indices, want_quad, sizeof want_quad);
    assert_int_equal(f.out.prims[0].vertex_count, 4);

    double hex[18];
    for (int i = 0; i < 6; i++) {
        hex[3 * i] = cos(i * ANIM_PI / 3), hex[3 * i + 1] = sin(i * ANIM_PI / 3);
        hex[3 * i + 2] = 0;
    }
    one_polygon(&in, hex, 6, cps, starts);
    assert_int_equal(split(&f, &in), 0);
    const uint32_t want_hex[] = {0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 5};
    assert_int_equal(f.out.prims[0].index_count, 12);
    assert_memory_equal(f.out.prims[0].indices, want_hex, sizeof want_hex);
    fixture_free(&f);
}

static void test_concave_polygon_is_ear_clipped(void **state)
{
    (void)state;
    /* An arrowhead whose corner 3 is reflex: the fan from corner 0 would
     * make the triangle (0, 2, 3) wind backwards outside the polygon. */
    static const double arrow[] = {0, 0, 0, 2, 1, 0, 0, 2, 0, 1, 1, 0};
    uint32_t cps[4], starts[2], tris[6], is[4];
    double ds[8];
    anim_fbx_triangulate(arrow, 4, tris, is, ds);
    double total = 0;
    for (int t = 0; t < 2; t++) {
        double a = tri_area_z(arrow, tris[3 * t], tris[3 * t + 1], tris[3 * t + 2]);
        assert_true(a > 0.0);
        total += a;
    }
    assert_true(fabs(total - 1.0) < 1e-12);
    /* The same through the split, and in a tilted plane (x = z). */
    double tilted[12];
    for (int i = 0; i < 4; i++)
        tilted[3 * i] = arrow[3 * i], tilted[3 * i + 1] = arrow[3 * i + 1],
                   tilted[3 * i + 2] = arrow[3 * i];
    anim_fbx_split_input in;
    mesh_fixture f = {0};
    one_polygon(&in, tilted, 4, cps, starts);
    assert_int_equal(split(&f, &in), 0);
    const uint32_t *ix = f.out.prims[0].indices;
    for (int t = 0; t < 2; t++)
        assert_true(tri_area_z(arrow, ix[3 * t], ix[3 * t + 1], ix[3 * t + 2]) > 0.0);
    fixture_free(&f);
}

static void test_split_by_normals_and_uvs(void **state)
{
    (void)state;
    /* Two triangles sharing the edge 0-2. */
    static const double pos[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    static const uint32_t cps[] = {0, 1, 2, 0, 2, 3};
    static const uint32_t starts[] = {0, 3, 6};
    float normals[18], uv[12];
    for (int c = 0; c < 6; c++)
        normals[3 * c] = 0, normals[3 * c + 1] = 0, normals[3 * c + 2] = 1;
    for (int c = 0; c < 6; c++)
        uv[2 * c] = (float)pos[3 * cps[c]], uv[2 * c + 1] = (float)pos[3 * cps[c] + 1];
    anim_fbx_split_input in = {.cp_count = 4, .positions = pos, .corner_count = 6,
                               .corner_cp = cps, .poly_count = 2, .poly_start = starts,
                               .normals = normals, .uv = uv};
    mesh_fixture f = {0};
    assert_int_equal(split(&f, &in), 0);
    assert_int_equal(f.out.prims[0].vertex_count, 4); /* shared corners merge */
    const uint32_t want[] = {0, 1, 2, 0, 2, 3};
    assert_memory_equal(f.out.prims[0].indices, want, sizeof want);
    /* A hard edge: the second triangle's normals differ. */
    for (int c = 3; c < 6; c++)
        normals[3 * c + 2] = -1;
    assert_int_equal(split(&f, &in), 0);
    assert_int_equal(f.out.prims[0].vertex_count, 6);
    /* Only one corner's UV differs (a seam at control point 0). */
    for (int c = 3; c < 6; c++)
        normals[3 * c + 2] = 1;
    uv[2 * 3] = 0.5f;
    assert_int_equal(split(&f, &in), 0);
    assert_int_equal(f.out.prims[0].vertex_count, 5);
    const uint32_t corners[] = {0, 1, 2, 3, 5};
    assert_memory_equal(f.out.prims[0].vertex_corner, corners, sizeof corners);
    fixture_free(&f);
}

static void test_material_slots_make_primitives(void **state)
{
    (void)state;
    static const double pos[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    static const uint32_t cps[] = {0, 1, 2, 0, 2, 3, 1, 2, 3, 0, 1};
    static const uint32_t starts[] = {0, 3, 6, 9, 11};
    static const uint32_t slots[] = {1, 0, 1, 0};
    anim_fbx_split_input in = {.cp_count = 4, .positions = pos, .corner_count = 11,
                               .corner_cp = cps, .poly_count = 4, .poly_start = starts,
                               .poly_slot = slots, .slot_count = 3};
    mesh_fixture f = {0};
    assert_int_equal(split(&f, &in), 0);
    assert_int_equal(f.out.prim_count, 2); /* slot 2 is unused */
    assert_int_equal(f.out.skipped_polygons, 1); /* the 2-corner polygon */
    assert_int_equal(f.out.prims[0].slot, 0);
    assert_int_equal(f.out.prims[0].index_count, 3);
    assert_int_equal(f.out.prims[1].slot, 1);
    assert_int_equal(f.out.prims[1].index_count, 6);
    /* Slot 1 vertices in first-use order: cps 0 1 2 then 3. */
    const uint32_t want1[] = {0, 1, 2, 1, 2, 3};
    assert_memory_equal(f.out.prims[1].indices, want1, sizeof want1);
    const uint32_t corners1[] = {0, 1, 2, 8};
    assert_memory_equal(f.out.prims[1].vertex_corner, corners1, sizeof corners1);
    /* A slot outside the slot count is refused. */
    static const uint32_t bad[] = {1, 0, 3, 0};
    in.poly_slot = bad;
    assert_int_equal(split(&f, &in), -1);
    fixture_free(&f);
}

static void test_mirroring_flips_winding(void **state)
{
    (void)state;
    static const double quad[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    uint32_t cps[4], starts[2];
    anim_fbx_split_input in;
    one_polygon(&in, quad, 4, cps, starts);
    in.flip_winding = true;
    mesh_fixture f = {0};
    assert_int_equal(split(&f, &in), 0);
    const uint32_t want[] = {0, 2, 1, 0, 3, 2};
    assert_memory_equal(f.out.prims[0].indices, want, sizeof want);
    fixture_free(&f);
}

static void test_polygon_vertex_index(void **state)
{
    (void)state;
    anim_arena *arena = anim_arena_new();
    anim_error err = {0};
    uint32_t *cps, *starts, polys;
    const int64_t pvi[] = {0, 1, -3, 2, 1, 0, 3}; /* the last polygon lacks its end mark */
    assert_int_equal(anim_fbx_polygons(pvi, 7, 4, "Geometry 'G' (id 1)", arena, &cps, &starts,
                                       &polys, &err),
                     0);
    assert_int_equal(polys, 2);
    assert_int_equal(cps[2], 2);
    assert_int_equal(starts[1], 3);
    assert_int_equal(starts[2], 7);
    const int64_t bad[] = {0, 1, 9000, -1};
    assert_int_equal(anim_fbx_polygons(bad, 4, 4000 / 1000, "Geometry 'Body' (id 123)", arena,
                                       &cps, &starts, &polys, &err),
                     -1);
    assert_string_equal(err.message, "Geometry 'Body' (id 123) PolygonVertexIndex[2]: index 9000 "
                                     "outside 4 control points");
    anim_arena_free(arena);
}

static void test_influence_capping(void **state)
{
    (void)state;
    const uint32_t joints[] = {5, 1, 2, 3, 4, 0};
    const double weights[] = {0.1, 0.4, 0.2, 0.2, 0.05, 0.3};
    uint16_t j[4];
    float w[4];
    assert_int_equal(anim_fbx_pick_influences(joints, weights, 6, j, w), 2);
    /* Strongest first; the 0.2 tie keeps joint 2 before joint 3. */
    const uint16_t want[] = {1, 0, 2, 3};
    assert_memory_equal(j, want, sizeof want);
    float sum = w[0] + w[1] + w[2] + w[3];
    assert_true(fabsf(sum - 1.0f) < 1e-6f);
    assert_true(fabsf(w[0] - 0.4f / 1.1f) < 1e-6f);
    const double two[] = {3.0, 1.0};
    assert_int_equal(anim_fbx_pick_influences(joints, two, 2, j, w), 0);
    assert_int_equal(j[0], 5);
    assert_true(fabsf(w[0] - 0.75f) < 1e-6f && w[2] == 0.0f);
}

/* ---- through ASCII files --------------------------------------------- */

#define assert_loaded(l, err)                                                                  \
    do {                                                                                       \
        if (!(l))                                                                              \
            fail_msg("%s", (err).message);                                                     \
    } while (0)

static const char *HEAD =
    "; FBX 7.4.0 project file\n"
    "FBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n\tFBXVersion: 7400\n}\n"
    "GlobalSettings:  {\n\tVersion: 1000\n\tProperties70:  {\n"
    "\t\tP: \"UpAxis\", \"int\", \"Integer\", \"\",1\n"
    "\t\tP: \"UpAxisSign\", \"int\", \"Integer\", \"\",1\n"
    "\t\tP: \"FrontAxis\", \"int\", \"Integer\", \"\",2\n"
    "\t\tP: \"FrontAxisSign\", \"int\", \"Integer\", \"\",1\n"
    "\t\tP: \"CoordAxis\", \"int\", \"Integer\", \"\",0\n"
    "\t\tP: \"CoordAxisSign\", \"int\", \"Integer\", \"\",%d\n"
    "\t\tP: \"UnitScaleFactor\", \"double\", \"Number\", \"\",100\n"
    "\t}\n}\n";

static anim_fbx_loaded *load(const char *objects, const char *connections, int coord_sign,
                             anim_error *err)
{
    char buf[16384];
    int n = snprintf(buf, sizeof buf, HEAD, coord_sign);
    n += snprintf(buf + n, sizeof buf - (size_t)n, "Objects:  {\n%s}\nConnections:  {\n%s}\n",
                  objects, connections);
    assert_true(n > 0 && (size_t)n < sizeof buf);
    return anim_fbx_read_memory(buf, (size_t)n, NULL, "test.fbx", NULL, err);
}

/* Two triangles over a unit square (cps 0 1 2 / 0 2 3) with normals as given. */
#define SQUARE_GEOMETRY(extra)                                                                 \
    "\tGeometry: 10, \"Geometry::Sq\", \"Mesh\" {\n"                                           \
    "\t\tVertices: *12 {\n\t\t\ta: 0,0,0,1,0,0,1,1,0,0,1,0\n\t\t}\n"                           \
    "\t\tPolygonVertexIndex: *6 {\n\t\t\ta: 0,1,-3,0,2,-4\n\t\t}\n" extra "\t}\n"              \
    "\tModel: 20, \"Model::Sq\", \"Mesh\" {\n\t\tVersion: 232\n\t}\n"
#define SQUARE_CONNECTIONS "\tC: \"OO\",20,0\n\tC: \"OO\",10,20\n"

static void test_layer_elements(void **state)
{
    (void)state;
    anim_error err = {0};
    /* ByPolygonVertex IndexToDirect: the second triangle's corners read
     * normal 1 (a hard edge), UVs per corner by index. */
    const char *obj = SQUARE_GEOMETRY(
        "\t\tLayerElementNormal: 0 {\n"
        "\t\t\tMappingInformationType: \"ByPolygonVertex\"\n"
        "\t\t\tReferenceInformationType: \"IndexToDirect\"\n"
        "\t\t\tNormals: *6 {\n\t\t\t\ta: 0,0,1,0,2,0\n\t\t\t}\n"
        "\t\t\tNormalsIndex: *6 {\n\t\t\t\ta: 0,0,0,1,1,1\n\t\t\t}\n\t\t}\n"
        "\t\tLayerElementUV: 0 {\n"
        "\t\t\tMappingInformationType: \"ByPolygonVertex\"\n"
        "\t\t\tReferenceInformationType: \"IndexToDirect\"\n"
        "\t\t\tUV: *8 {\n\t\t\t\ta: 0,0,1,0,1,1,0,1\n\t\t\t}\n"
        "\t\t\tUVIndex: *6 {\n\t\t\t\ta: 0,1,2,0,2,3\n\t\t\t}\n\t\t}\n");
    anim_fbx_loaded *l = load(obj, SQUARE_CONNECTIONS, 1, &err);
    assert_loaded(l, err);
    const anim_fbx_scene *s = &l->scene;
    assert_int_equal(s->mesh_count, 1);
    const anim_fbx_primitive *p = &s->meshes[0].primitives[0];
    assert_int_equal(p->vertex_count, 6);
    assert_int_equal(p->index_count, 6);
    assert_non_null(p->normals);
    assert_true(p->normals[2] == 1.0f && p->normals[3 * 5 + 1] == 1.0f); /* normalized */
    assert_true(p->uv0[2 * 2] == 1.0f && p->uv0[2 * 2 + 1] == 0.0f); /* v flipped: 1 - 1 */
    assert_int_equal(s->nodes[s->meshes[0].node].mesh, 0);
    anim_fbx_loaded_free(l);

    /* ByControlPoint Direct: one normal per control point, no split. */
    obj = SQUARE_GEOMETRY("\t\tLayerElementNormal: 0 {\n"
                          "\t\t\tMappingInformationType: \"ByVertice\"\n"
                          "\t\t\tReferenceInformationType: \"Direct\"\n"
                          "\t\t\tNormals: *12 {\n\t\t\t\ta: 0,0,1,0,0,1,0,0,1,1,0,0\n\t\t\t}\n"
                          "\t\t}\n");
    l = load(obj, SQUARE_CONNECTIONS, 1, &err);
    assert_loaded(l, err);
    p = &l->scene.meshes[0].primitives[0];
    assert_int_equal(p->vertex_count, 4);
    assert_true(p->normals[3 * 3] == 1.0f); /* control point 3's normal */
    anim_fbx_loaded_free(l);

    /* An index past the data is refused, naming the geometry. */
    obj = SQUARE_GEOMETRY("\t\tLayerElementNormal: 0 {\n"
                          "\t\t\tMappingInformationType: \"ByPolygonVertex\"\n"
                          "\t\t\tReferenceInformationType: \"IndexToDirect\"\n"
                          "\t\t\tNormals: *3 {\n\t\t\t\ta: 0,0,1\n\t\t\t}\n"
                          "\t\t\tNormalsIndex: *6 {\n\t\t\t\ta: 0,0,0,0,7,0\n\t\t\t}\n\t\t}\n");
    l = load(obj, SQUARE_CONNECTIONS, 1, &err);
    assert_null(l);
    assert_non_null(strstr(err.message, "Geometry 'Sq' (id 10) LayerElementNormal "
                                        "NormalsIndex[4]: index 7 outside 1 normals"));
}

static void test_mirrored_file_flips_winding(void **state)
{
    (void)state;
    anim_error err = {0};
    anim_fbx_loaded *l = load(SQUARE_GEOMETRY(""), SQUARE_CONNECTIONS, -1, &err);
    assert_loaded(l, err);
    const anim_fbx_primitive *p = &l->scene.meshes[0].primitives[0];
    const uint32_t want[] = {0, 2, 1, 0, 3, 2};
    assert_int_equal(p->index_count, 6);
    assert_memory_equal(p->indices, want, sizeof want);
    assert_true(p->positions[3] == -1.0f); /* x mirrored */
    anim_fbx_loaded_free(l);
}

static void test_materials_and_skin(void **state)
{
    (void)state;
    anim_error err = {0};
    const char *obj = SQUARE_GEOMETRY(
        "\t\tLayerElementMaterial: 0 {\n"
        "\t\t\tMappingInformationType: \"ByPolygon\"\n"
        "\t\t\tReferenceInformationType: \"IndexToDirect\"\n"
        "\t\t\tMaterials: *2 {\n\t\t\t\ta: 1,0\n\t\t\t}\n\t\t}\n")
        "\tMaterial: 30, \"Material::Red\", \"\" {\n\t\tProperties70:  {\n"
        "\t\t\tP: \"DiffuseColor\", \"Color\", \"\", \"A\",1,0,0\n"
        "\t\t\tP: \"Shininess\", \"double\", \"Number\", \"\",6\n\t\t}\n\t}\n"
        "\tMaterial: 31, \"Material::Blue\", \"\" {\n\t\tProperties70:  {\n"
        "\t\t\tP: \"DiffuseColor\", \"Color\", \"\", \"A\",0,0,1\n\t\t}\n\t}\n"
        "\tModel: 40, \"Model::J0\", \"LimbNode\" {\n\t\tVersion: 232\n\t}\n"
        "\tModel: 41, \"Model::J1\", \"LimbNode\" {\n\t\tVersion: 232\n\t}\n"
        "\tDeformer: 50, \"Deformer::Skin\", \"Skin\" {\n\t\tVersion: 101\n\t}\n"
        "\tDeformer: 51, \"SubDeformer::C0\", \"Cluster\" {\n"
        "\t\tIndexes: *3 {\n\t\t\ta: 0,1,2\n\t\t}\n\t\tWeights: *3 {\n\t\t\ta: 1,0.5,0.25\n\t\t}\n"
        "\t\tTransform: *16 {\n\t\t\ta: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1\n\t\t}\n"
        "\t\tTransformLink: *16 {\n\t\t\ta: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1\n\t\t}\n\t}\n"
        "\tDeformer: 52, \"SubDeformer::C1\", \"Cluster\" {\n"
        "\t\tIndexes: *2 {\n\t\t\ta: 1,2\n\t\t}\n\t\tWeights: *2 {\n\t\t\ta: 0.5,0.75\n\t\t}\n"
        "\t\tTransform: *16 {\n\t\t\ta: 0,-1,0,0,1,0,0,0,0,0,1,0,-2,0,0,1\n\t\t}\n"
        "\t\tTransformLink: *16 {\n\t\t\ta: 0,1,0,0,-1,0,0,0,0,0,1,0,0,2,0,1\n\t\t}\n\t}\n";
    /* The mesh node hangs under J1. */
    const char *conn = "\tC: \"OO\",20,41\n\tC: \"OO\",10,20\n"
                       "\tC: \"OO\",30,20\n\tC: \"OO\",31,20\n"
                                          "\tC: \"OO\",40,0\n\tC: \"OO\",41,40\n"
                                          "\tC: \"OO\",50,10\n\tC: \"OO\",51,50\n"
                                          "\tC: \"OO\",52,50\n\tC: \"OO\",40,51\n"
                                          "\tC: \"OO\",41,52\n";
    anim_fbx_loaded *l = load(obj, conn, 1, &err);
    assert_loaded(l, err);
    const anim_fbx_scene *s = &l->scene;
    assert_int_equal(s->material_count, 2);
    assert_string_equal(s->materials[0].name, "Red");
    assert_true(fabs(s->materials[0].roughness - 0.5) < 1e-12); /* sqrt(2 / 8) */
    assert_int_equal(s->meshes[0].primitive_count, 2);
    /* Polygon 1 uses slot 0 (Red), polygon 0 slot 1 (Blue). */
    assert_int_equal(s->meshes[0].primitives[0].material, 0);
    assert_int_equal(s->meshes[0].primitives[1].material, 1);
    assert_int_equal(s->skin_count, 1);
    const anim_fbx_skin *sk = &s->skins[0];
    assert_int_equal(sk->joint_count, 2);
    assert_true(s->nodes[sk->joints[0]].is_joint);
    /* J1 is bound at y = 2 turned 90 degrees about z, the mesh at the
     * origin: Transform = inverse(TransformLink) * mesh bind is the
     * inverse bind matrix as it stands. */
    static const double want_ibm[16] = {0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, -2, 0, 0, 1};
    for (int k = 0; k < 16; k++)
        assert_true(fabs(sk->inverse_bind[16 + k] - want_ibm[k]) < 1e-12);
    /* Slot 1 primitive = polygon 0 (cps 0 1 2): cp 1 has 0.5/0.5, cp 2
     * 0.25 on J0 and 0.75 on J1 (strongest first). */
    const anim_fbx_primitive *p = &s->meshes[0].primitives[1];
    assert_int_equal(p->vertex_count, 3);
    assert_true(p->weights[0] == 1.0f && p->joints[0] == 0);
    assert_true(p->joints[8] == 1 && p->weights[8] == 0.75f && p->weights[9] == 0.25f);
    /* cp 3 (in the other primitive) has no influence: bound to the mesh
     * node's nearest joint ancestor, J1. */
    const anim_fbx_primitive *q = &s->meshes[0].primitives[0];
    assert_true(q->weights[4 * 2] == 1.0f && q->joints[4 * 2] == 1);
    anim_fbx_loaded_free(l);
}

static void test_blend_shape_routed_to_split_vertices(void **state)
{
    (void)state;
    anim_error err = {0};
    const char *obj = SQUARE_GEOMETRY(
        "\t\tLayerElementNormal: 0 {\n"
        "\t\t\tMappingInformationType: \"ByPolygon\"\n"
        "\t\t\tReferenceInformationType: \"Direct\"\n"
        "\t\t\tNormals: *6 {\n\t\t\t\ta: 0,0,1,0,1,0\n\t\t\t}\n\t\t}\n")
        "\tGeometry: 60, \"Geometry::Up\", \"Shape\" {\n"
        "\t\tIndexes: *2 {\n\t\t\ta: 0,3\n\t\t}\n"
        "\t\tVertices: *6 {\n\t\t\ta: 0,0,1,0,0,2\n\t\t}\n\t}\n"
        "\tDeformer: 70, \"Deformer::BS\", \"BlendShape\" {\n\t\tVersion: 100\n\t}\n"
        "\tDeformer: 71, \"SubDeformer::Smile\", \"BlendShapeChannel\" {\n"
        "\t\tProperties70:  {\n\t\t\tP: \"DeformPercent\", \"Number\", \"\", \"A\",25\n\t\t}\n"
        "\t\tFullWeights: *1 {\n\t\t\ta: 100\n\t\t}\n\t}\n";
    const char *conn = SQUARE_CONNECTIONS "\tC: \"OO\",70,10\n\tC: \"OO\",71,70\n"
                                          "\tC: \"OO\",60,71\n";
    anim_fbx_loaded *l = load(obj, conn, 1, &err);
    assert_loaded(l, err);
    const anim_fbx_mesh *m = &l->scene.meshes[0];
    assert_int_equal(m->target_count, 1);
    assert_string_equal(m->targets[0].name, "Smile");
    assert_true(fabs(m->targets[0].default_weight - 0.25) < 1e-12);
    const anim_fbx_primitive *p = &m->primitives[0];
    /* Normals differ per polygon: cps 0 and 2 split into two vertices
     * each; both copies of cp 0 carry its delta. */
    assert_int_equal(p->vertex_count, 6);
    /* poly 0: v0 v1 v2 = cps 0 1 2; poly 1: v3 v4 v5 = cps 0 2 3. */
    const float *d = p->target_positions[0];
    const float want_z[] = {1, 0, 0, 1, 0, 2};
    for (uint32_t v = 0; v < 6; v++) {
        assert_true(d[3 * v] == 0.0f && d[3 * v + 1] == 0.0f);
        assert_true(d[3 * v + 2] == want_z[v]);
    }
    assert_int_equal(m->target_objects[0], anim_fbx_object_by_id(&l->objs, 71));
    anim_fbx_loaded_free(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quad_and_ngon_fan),
        cmocka_unit_test(test_concave_polygon_is_ear_clipped),
        cmocka_unit_test(test_split_by_normals_and_uvs),
        cmocka_unit_test(test_material_slots_make_primitives),
        cmocka_unit_test(test_mirroring_flips_winding),
        cmocka_unit_test(test_polygon_vertex_index),
        cmocka_unit_test(test_influence_capping),
        cmocka_unit_test(test_layer_elements),
        cmocka_unit_test(test_mirrored_file_flips_winding),
        cmocka_unit_test(test_materials_and_skin),
        cmocka_unit_test(test_blend_shape_routed_to_split_vertices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
