/* The FBX object graph: objects with ids, classes and display names from
 * both name spellings, connections by id (7.x) and by name (6.1),
 * property lookup through the object's own record and its Definitions
 * template, and the messages that name an object. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "io/fbx/fbx_objects.h"
#include "test_fbx_build.h"

typedef struct {
    anim_arena *arena;
    anim_fbx_tree tree;
    anim_fbx_objects objs;
    uint32_t dangling;
    anim_error err;
} graph;

/* Parses and builds; returns the build's result (a parse failure fails
 * the test). */
static int load(graph *g, const void *bytes, size_t len)
{
    memset(g, 0, sizeof *g);
    g->arena = anim_arena_new();
    if (anim_fbx_parse(bytes, len, g->arena, NULL, &g->tree, &g->err) != 0)
        fail_msg("parse: %s", g->err.message);
    return anim_fbx_objects_build(&g->tree, g->arena, &g->objs, &g->dangling, &g->err);
}

static int load_text(graph *g, const char *text)
{
    return load(g, text, strlen(text));
}

static void unload(graph *g)
{
    anim_arena_free(g->arena);
    g->arena = NULL;
}

static const anim_fbx_object *by_id(const graph *g, int64_t id)
{
    uint32_t i = anim_fbx_object_by_id(&g->objs, id);
    assert_int_not_equal(i, ANIM_FBX_SCENE_ROOT);
    return &g->objs.objects[i];
}

static const char k_file74[] =
    "; FBX 7.4.0 project file\n"
    "GlobalSettings:  {\n"
    "\tVersion: 1000\n"
    "\tProperties70:  {\n"
    "\t\tP: \"UpAxis\", \"int\", \"Integer\", \"\",2\n"
    "\t\tP: \"UnitScaleFactor\", \"double\", \"Number\", \"\",2.54\n"
    "\t\tP: \"Broken\", \"int\", \"Integer\", \"\",\"x\"\n"
    "\t}\n"
    "}\n"
    "Definitions:  {\n"
    "\tObjectType: \"Model\" {\n"
    "\t\tPropertyTemplate: \"FbxNode\" {\n"
    "\t\t\tProperties70:  {\n"
    "\t\t\t\tP: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",0,0,0\n"
    "\t\t\t\tP: \"Lcl Scaling\", \"Lcl Scaling\", \"\", \"A\",1,1,1\n"
    "\t\t\t\tP: \"RotationOrder\", \"enum\", \"\", \"\",0\n"
    "\t\t\t}\n"
    "\t\t}\n"
    "\t}\n"
    "\tObjectType: \"Material\" {\n"
    "\t\tPropertyTemplate: \"FbxSurfaceLambert\" {\n"
    "\t\t\tProperties70:  {\n"
    "\t\t\t\tP: \"DiffuseFactor\", \"double\", \"Number\", \"A\",0.8\n"
    "\t\t\t}\n"
    "\t\t}\n"
    "\t\tPropertyTemplate: \"FbxSurfacePhong\" {\n"
    "\t\t\tProperties70:  {\n"
    "\t\t\t\tP: \"DiffuseFactor\", \"double\", \"Number\", \"A\",0.5\n"
    "\t\t\t\tP: \"Shininess\", \"double\", \"Number\", \"A\",20\n"
    "\t\t\t}\n"
    "\t\t}\n"
    "\t}\n"
    "\tObjectType: \"NodeAttribute\" {\n"
    "\t\tPropertyTemplate: \"FbxNull\" {\n"
    "\t\t\tProperties70:  {\n"
    "\t\t\t\tP: \"Size\", \"double\", \"Number\", \"\",100\n"
    "\t\t\t}\n"
    "\t\t}\n"
    "\t}\n"
    "}\n"
    "Objects:  {\n"
    "\tModel: 10, \"Model::Hips\", \"LimbNode\" {\n"
    "\t\tProperties70:  {\n"
    "\t\t\tP: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",1,2,3.5\n"
    "\t\t\tP: \"Bad\", \"Lcl Rotation\", \"\", \"A\",1,2\n"
    "\t\t\tP: \"Path\", \"KString\", \"\", \"\", \"C:/a.png\"\n"
    "\t\t\tP: \"Half\", \"double\", \"Number\", \"\",0.5\n"
    "\t\t}\n"
    "\t}\n"
    "\tModel: -11, \"Model::ns::Spine\", \"LimbNode\" {\n"
    "\t}\n"
    "\tNodeAttribute: 30, \"NodeAttribute::\", \"LimbNode\" {\n"
    "\t}\n"
    "\tNodeAttribute: 31, \"NodeAttribute::\", \"Null\" {\n"
    "\t}\n"
    "\tMaterial: 20, \"Material::skin\", \"\" {\n"
    "\t\tShadingModel: \"phong\"\n"
    "\t}\n"
    "\tMaterial: 21, \"Material::matte\", \"\" {\n"
    "\t\tShadingModel: \"Lambert\"\n"
    "\t}\n"
    "\tTexture: 40, \"Texture::tex\", \"\" {\n"
    "\t}\n"
    "}\n"
    "Connections:  {\n"
    "\tC: \"OO\",10,0\n"
    "\tC: \"OO\",-11,10\n"
    "\tC: \"OO\",30,10\n"
    "\tC: \"OP\",40,20, \"DiffuseColor\"\n"
    "\tC: \"OO\",99,10\n"
    "\tC: \"OO\",10,98\n"
    "\tC: \"PO\",40,20, \"x\"\n"
    "\tC: \"OO\",20,-11\n"
    "}\n"
    "Takes:  {\n"
    "\tCurrent: \"\"\n"
    "}\n";

static void test_objects_74(void **state)
{
    (void)state;
    graph g;
    if (load_text(&g, k_file74) != 0)
        fail_msg("%s", g.err.message);
    const anim_fbx_objects *o = &g.objs;
    assert_int_equal(o->object_count, 7);
    assert_int_equal(o->conn_count, 5);
    assert_int_equal(g.dangling, 2); /* 99 and 98 name no object */
    assert_null(o->takes);           /* a 7.x Takes record holds no animation */
    const anim_fbx_object *hips = by_id(&g, 10), *spine = by_id(&g, -11);
    assert_string_equal(hips->cls, "Model");
    assert_string_equal(hips->subclass, "LimbNode");
    assert_string_equal(hips->name, "Hips");
    assert_string_equal(spine->name, "ns::Spine"); /* only the class part goes */
    assert_string_equal(by_id(&g, 30)->name, "");
    assert_int_equal(anim_fbx_object_by_id(o, 12345), ANIM_FBX_SCENE_ROOT);
    assert_ptr_equal(hips->node, anim_fbx_child(anim_fbx_child(&g.tree.root, "Objects"), "Model"));
    char label[128];
    assert_string_equal(anim_fbx_object_label(hips, label, sizeof label), "Model 'Hips' (id 10)");

    /* Connections in file order, both directions. */
    assert_int_equal(o->conns[0].dst, ANIM_FBX_SCENE_ROOT);
    assert_int_equal(hips->src_conn_count, 1);
    assert_int_equal(hips->dst_conn_count, 2);
    const char *prop = "unset";
    uint32_t spine_i = anim_fbx_object_by_id(o, -11);
    assert_int_equal(anim_fbx_child_object(o, hips, "Model", 0, &prop), spine_i);
    assert_null(prop);
    assert_int_equal(anim_fbx_child_object(o, hips, "Model", 1, NULL), ANIM_FBX_SCENE_ROOT);
    assert_int_equal(anim_fbx_child_object(o, hips, NULL, 1, NULL), anim_fbx_object_by_id(o, 30));
    assert_int_equal(anim_fbx_parent_object(o, spine, "Model", 0, NULL),
                     anim_fbx_object_by_id(o, 10));
    /* The root is no object: iteration skips it. */
    assert_int_equal(anim_fbx_parent_object(o, hips, NULL, 0, NULL), ANIM_FBX_SCENE_ROOT);
    const anim_fbx_object *skin = by_id(&g, 20);
    assert_int_equal(anim_fbx_child_object(o, skin, "Texture", 0, &prop),
                     anim_fbx_object_by_id(o, 40));
    assert_string_equal(prop, "DiffuseColor");
    assert_int_equal(anim_fbx_parent_object(o, skin, NULL, 0, NULL), spine_i);

    /* Properties: own record, then the template, then the default. */
    anim_error err;
    double v[3];
    static const double zero[3] = {0, 0, 0}, nine[3] = {9, 9, 9};
    assert_int_equal(anim_fbx_get_vec3(o, hips, "Lcl Translation", zero, v, &err), 0);
    assert_true(v[0] == 1 && v[1] == 2 && v[2] == 3.5);
    assert_int_equal(anim_fbx_get_vec3(o, hips, "Lcl Scaling", zero, v, &err), 0);
    assert_true(v[0] == 1 && v[1] == 1 && v[2] == 1);
    assert_int_equal(anim_fbx_get_vec3(o, hips, "Nope", nine, v, &err), 0);
    assert_true(v[0] == 9 && v[2] == 9);
    assert_int_equal(anim_fbx_get_vec3(o, hips, "Bad", zero, v, &err), -1);
    assert_string_equal(err.message, "Model 'Hips' (id 10) property 'Bad': expected 3 numbers");
    assert_true(v[0] == 9); /* untouched on error */
    uint32_t vi = 0;
    const anim_fbx_node *p = anim_fbx_find_prop(o, hips, "RotationOrder", &vi);
    assert_non_null(p);
    assert_int_equal(vi, 4);
    assert_ptr_equal(p, anim_fbx_find_prop_in(hips->templ, "RotationOrder", NULL));
    const char *s;
    assert_int_equal(anim_fbx_get_str(o, hips, "Path", "", &s, &err), 0);
    assert_string_equal(s, "C:/a.png");
    assert_int_equal(anim_fbx_get_str(o, hips, "Missing", "dflt", &s, &err), 0);
    assert_string_equal(s, "dflt");
    assert_int_equal(anim_fbx_get_str(o, hips, "Half", "", &s, &err), -1);
    assert_string_equal(err.message, "Model 'Hips' (id 10) property 'Half': expected a string");
    int64_t iv;
    assert_int_equal(anim_fbx_get_i64(o, hips, "RotationOrder", 7, &iv, &err), 0);
    assert_int_equal(iv, 0);
    assert_int_equal(anim_fbx_get_i64(o, hips, "Half", 7, &iv, &err), -1);
    assert_string_equal(err.message, "Model 'Hips' (id 10) property 'Half': expected an integer");
    double d;
    assert_int_equal(anim_fbx_get_f64(o, hips, "Half", 0, &d, &err), 0);
    assert_true(d == 0.5);
    assert_int_equal(anim_fbx_get_f64(o, spine, "Half", -1, &d, &err), 0);
    assert_true(d == -1);

    /* Templates chosen by ShadingModel and by attribute type. */
    assert_int_equal(anim_fbx_get_f64(o, skin, "DiffuseFactor", 0, &d, &err), 0);
    assert_true(d == 0.5);
    assert_int_equal(anim_fbx_get_f64(o, by_id(&g, 21), "DiffuseFactor", 0, &d, &err), 0);
    assert_true(d == 0.8);
    assert_null(by_id(&g, 30)->templ); /* a LimbNode attribute, only FbxNull given */
    assert_non_null(by_id(&g, 31)->templ);
    assert_null(by_id(&g, 40)->templ); /* no ObjectType for Texture */
    assert_null(by_id(&g, 40)->props);

    /* GlobalSettings. */
    assert_non_null(o->global_settings);
    assert_int_equal(anim_fbx_props_i64(o->global_settings, "UpAxis", 1, &iv, &err), 0);
    assert_int_equal(iv, 2);
    assert_int_equal(anim_fbx_props_f64(o->global_settings, "UnitScaleFactor", 1, &d, &err), 0);
    assert_true(d == 2.54);
    assert_int_equal(anim_fbx_props_f64(o->global_settings, "FrontAxis", 3, &d, &err), 0);
    assert_true(d == 3);
    assert_int_equal(anim_fbx_props_i64(o->global_settings, "Broken", 1, &iv, &err), -1);
    assert_string_equal(err.message,
                        "record 'Properties70' at line 4 property 'Broken': expected an integer");
    unload(&g);
}

static void test_duplicate_ids(void **state)
{
    (void)state;
    graph g;
    assert_int_equal(load_text(&g, "; FBX 7.4.0 project file\n"
                                   "Objects:  {\n"
                                   "\tModel: 5, \"Model::A\", \"Null\" {\n\t}\n"
                                   "\tGeometry: 6, \"Geometry::G\", \"Mesh\" {\n\t}\n"
                                   "\tGeometry: 5, \"Geometry::B\", \"Mesh\" {\n\t}\n"
                                   "}\n"),
                     -1);
    assert_int_equal(g.err.code, ANIM_ERR_INVALID);
    assert_string_equal(g.err.message, "Model 'A' (id 5) and Geometry 'B' (id 5) share one id");
    unload(&g);
}

static void test_bad_connections(void **state)
{
    (void)state;
    graph g;
    assert_int_equal(load_text(&g, "; FBX 7.4.0 project file\n"
                                   "Connections:  {\n"
                                   "\tC: \"OO\",1\n"
                                   "}\n"),
                     -1);
    assert_string_equal(g.err.message,
                        "record 'C' at line 3: a connection needs a kind and two endpoints");
    unload(&g);
    assert_int_equal(load_text(&g, "; FBX 7.4.0 project file\n"
                                   "Connections:  {\n"
                                   "\tC: \"OO\",1,\"x\"\n"
                                   "}\n"),
                     -1);
    assert_string_equal(g.err.message, "record 'C' at line 3 property 2: expected an object id");
    unload(&g);
    assert_int_equal(load_text(&g, "; FBX 7.4.0 project file\n"
                                   "Connections:  {\n"
                                   "\tC: \"OP\",1,2\n"
                                   "}\n"),
                     -1);
    assert_string_equal(g.err.message, "record 'C' at line 3: an OP connection needs a property "
                                       "name");
    unload(&g);
    /* No Objects at all: an empty table. */
    assert_int_equal(load_text(&g, "; FBX 7.4.0 project file\nFBXHeaderExtension: {\n}\n"), 0);
    assert_int_equal(g.objs.object_count, 0);
    assert_null(g.objs.global_settings);
    unload(&g);
}

static const char k_file61[] =
    "; FBX 6.1.0 project file\n"
    "FBXHeaderExtension:  {\n"
    "\tFBXVersion: 6100\n"
    "}\n"
    "Objects:  {\n"
    "\tModel: \"Model::joint1\", \"Limb\" {\n"
    "\t\tProperties60:  {\n"
    "\t\t\tProperty: \"Lcl Translation\", \"Lcl Translation\", \"A+\",1,2,3\n"
    "\t\t}\n"
    "\t}\n"
    "\tModel: \"Model::mesh\", \"Mesh\" {\n"
    "\t\tVertices: 0,0,0,1,0,0,\n"
    "0,1,0\n"
    "\t\tPolygonVertexIndex: 0,1,-3\n"
    "\t}\n"
    "\tDeformer: \"Deformer::Skin mesh\", \"Skin\" {\n"
    "\t}\n"
    "\tDeformer: \"SubDeformer::Cluster joint1\", \"Cluster\" {\n"
    "\t\tIndexes: 0,1,2\n"
    "\t}\n"
    "\tGlobalSettings:  {\n"
    "\t\tVersion: 1000\n"
    "\t\tProperties60:  {\n"
    "\t\t\tProperty: \"UpAxis\", \"int\", \"\",1\n"
    "\t\t}\n"
    "\t}\n"
    "}\n"
    "Connections:  {\n"
    "\tConnect: \"OO\", \"Model::joint1\", \"Model::Scene\"\n"
    "\tConnect: \"OO\", \"Model::mesh\", \"Model::Scene\"\n"
    "\tConnect: \"OO\", \"Deformer::Skin mesh\", \"Model::mesh\"\n"
    "\tConnect: \"OO\", \"SubDeformer::Cluster joint1\", \"Deformer::Skin mesh\"\n"
    "\tConnect: \"OO\", \"Model::joint1\", \"SubDeformer::Cluster joint1\"\n"
    "\tConnect: \"OO\", \"Model::ghost\", \"Model::Scene\"\n"
    "}\n"
    "Takes:  {\n"
    "\tCurrent: \"Take 001\"\n"
    "}\n";

static void test_objects_61_ascii(void **state)
{
    (void)state;
    graph g;
    if (load_text(&g, k_file61) != 0)
        fail_msg("%s", g.err.message);
    const anim_fbx_objects *o = &g.objs;
    assert_int_equal(o->object_count, 4); /* GlobalSettings is no object */
    assert_int_equal(o->conn_count, 5);
    assert_int_equal(g.dangling, 1);
    const anim_fbx_object *joint = by_id(&g, 1), *mesh = by_id(&g, 2);
    assert_string_equal(joint->name, "joint1");
    assert_string_equal(joint->subclass, "Limb");
    assert_string_equal(by_id(&g, 3)->name, "Skin mesh");
    assert_string_equal(by_id(&g, 4)->name, "Cluster joint1");
    assert_string_equal(by_id(&g, 4)->cls, "Deformer");
    assert_int_equal(o->conns[0].dst, ANIM_FBX_SCENE_ROOT);
    assert_int_equal(anim_fbx_child_object(o, mesh, "Deformer", 0, NULL), 2);
    assert_int_equal(anim_fbx_parent_object(o, joint, "Deformer", 0, NULL), 3);
    uint32_t vi;
    assert_non_null(anim_fbx_find_prop(o, joint, "Lcl Translation", &vi));
    assert_int_equal(vi, 3);
    double v[3];
    static const double zero[3] = {0, 0, 0};
    anim_error err;
    assert_int_equal(anim_fbx_get_vec3(o, joint, "Lcl Translation", zero, v, &err), 0);
    assert_true(v[0] == 1 && v[1] == 2 && v[2] == 3);
    assert_null(joint->templ);
    /* Geometry data sits in the Model record as value runs. */
    const double *verts;
    uint32_t n;
    assert_int_equal(anim_fbx_prop_array_f64(g.arena, anim_fbx_child(mesh->node, "Vertices"), 0,
                                             &verts, &n, &err),
                     0);
    assert_int_equal(n, 9);
    int64_t up;
    assert_non_null(o->global_settings);
    assert_int_equal(anim_fbx_props_i64(o->global_settings, "UpAxis", 0, &up, &err), 0);
    assert_int_equal(up, 1);
    assert_non_null(o->takes);
    assert_string_equal(o->takes->name, "Takes");
    unload(&g);
}

/* Binary names are "display\0\1Class"; 6.1 binary connects by them. */
static void test_objects_binary(void **state)
{
    (void)state;
    fbxb f;
    fbxb_begin(&f, 7500);
    fbxb_rec(&f, "Objects");
    fbxb_rec(&f, "Model");
    fbxb_i64(&f, 1LL << 40);
    fbxb_strn(&f, 'S', "Hips\0\1Model", 11);
    fbxb_str(&f, "LimbNode");
    fbxb_end(&f);
    fbxb_rec(&f, "Model");
    fbxb_i64(&f, 7);
    fbxb_strn(&f, 'S', "Model::Odd\0\1Model", 17);
    fbxb_str(&f, "Null");
    fbxb_end(&f);
    fbxb_end(&f);
    fbxb_rec(&f, "Connections");
    fbxb_rec(&f, "C");
    fbxb_str(&f, "OO");
    fbxb_i64(&f, 7);
    fbxb_i64(&f, 1LL << 40);
    fbxb_end(&f);
    fbxb_end(&f);
    fbxb_finish(&f);
    graph g;
    if (load(&g, f.b, f.n) != 0)
        fail_msg("%s", g.err.message);
    free(f.b);
    assert_int_equal(g.objs.object_count, 2);
    assert_string_equal(by_id(&g, 1LL << 40)->name, "Hips");
    assert_string_equal(by_id(&g, 7)->name, "Model::Odd"); /* binary names keep "::" */
    /* Control bytes of a name never reach a message. */
    anim_fbx_object odd = *by_id(&g, 7);
    odd.name = "a\nb\x7f";
    char label[64];
    assert_string_equal(anim_fbx_object_label(&odd, label, sizeof label), "Model 'a?b?' (id 7)");
    assert_string_equal(anim_fbx_object_label(&odd, label, 10), "Model 'a?");
    assert_string_equal(anim_fbx_object_label(&odd, label, 4), "Mod");
    assert_int_equal(g.objs.conn_count, 1);
    assert_int_equal(g.objs.conns[0].dst, anim_fbx_object_by_id(&g.objs, 1LL << 40));
    unload(&g);

    fbxb_begin(&f, 6100);
    fbxb_rec(&f, "Objects");
    fbxb_rec(&f, "Model");
    fbxb_strn(&f, 'S', "joint1\0\1Model", 13);
    fbxb_str(&f, "Limb");
    fbxb_end(&f);
    fbxb_rec(&f, "Model");
    fbxb_strn(&f, 'S', "joint2\0\1Model", 13);
    fbxb_str(&f, "Limb");
    fbxb_end(&f);
    fbxb_end(&f);
    fbxb_rec(&f, "Connections");
    fbxb_rec(&f, "Connect");
    fbxb_str(&f, "OO");
    fbxb_strn(&f, 'S', "joint1\0\1Model", 13);
    fbxb_strn(&f, 'S', "Scene\0\1Model", 12);
    fbxb_end(&f);
    fbxb_rec(&f, "Connect");
    fbxb_str(&f, "OO");
    fbxb_strn(&f, 'S', "joint2\0\1Model", 13);
    fbxb_strn(&f, 'S', "joint1\0\1Model", 13);
    fbxb_end(&f);
    fbxb_rec(&f, "Connect");
    fbxb_str(&f, "OO");
    fbxb_strn(&f, 'S', "joint2\0\1Deformer", 16); /* same name, other class */
    fbxb_strn(&f, 'S', "joint1\0\1Model", 13);
    fbxb_end(&f);
    fbxb_end(&f);
    fbxb_finish(&f);
    if (load(&g, f.b, f.n) != 0)
        fail_msg("%s", g.err.message);
    free(f.b);
    assert_int_equal(g.objs.object_count, 2);
    assert_int_equal(g.objs.conn_count, 2);
    assert_int_equal(g.dangling, 1);
    assert_int_equal(g.objs.conns[0].dst, ANIM_FBX_SCENE_ROOT);
    assert_int_equal(g.objs.conns[1].src, 1);
    assert_int_equal(g.objs.conns[1].dst, 0);
    unload(&g);
}

/* Ids are found through the sorted index whatever the file order. */
static void test_many_ids(void **state)
{
    (void)state;
    char text[64 * 1024] = "; FBX 7.4.0 project file\nObjects:  {\n";
    size_t n = strlen(text);
    for (int i = 0; i < 300; i++)
        n += (size_t)snprintf(text + n, sizeof text - n,
                              "\tModel: %d, \"Model::m%d\", \"Null\" {\n\t}\n",
                              (i * 7919) % 1000 - 500, i);
    snprintf(text + n, sizeof text - n, "}\n");
    graph g;
    if (load_text(&g, text) != 0)
        fail_msg("%s", g.err.message);
    for (int i = 0; i < 300; i++) {
        char name[16];
        snprintf(name, sizeof name, "m%d", i);
        assert_string_equal(by_id(&g, (i * 7919) % 1000 - 500)->name, name);
    }
    assert_int_equal(anim_fbx_object_by_id(&g.objs, 501), ANIM_FBX_SCENE_ROOT);
    unload(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_objects_74),      cmocka_unit_test(test_duplicate_ids),
        cmocka_unit_test(test_bad_connections), cmocka_unit_test(test_objects_61_ascii),
        cmocka_unit_test(test_objects_binary),  cmocka_unit_test(test_many_ids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
