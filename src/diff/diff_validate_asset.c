/* The static asset evidence of a measurement record: meshes, node
 * instances, scenes, skeleton nodes, skins, materials, textures, images.
 * diff never compares it, but a report is only trusted when the whole
 * record is well formed, so every table must be present with row objects
 * carrying their identity index. The facts whose shape differs between
 * measurements versions are checked in full, so each version's record is
 * held to exactly its own shape:
 *
 *   - mesh_definitions[].primitives: required from v16, absent in v15;
 *   - images[].leading_magic_hex: allowed from v16 (unavailable images
 *     only, at most 16 bytes of lowercase hex), absent in v15;
 *   - rotation_xyzw in linear-transform facts (skeleton rest_world_linear
 *     and the skin joint matrices): from v18 exactly when the
 *     classification is unit_orthonormal, absent before. */
#include <math.h>
#include <string.h>

#include "diff/diff_internal.h"

static const char *const CLASSES[] = {"unit_orthonormal", "uniform_scaled", "non_uniform",
                                      "sheared",          "reflected",      "singular",
                                      "non_finite"};
enum { CLASS_UNIT_ORTHONORMAL = 0, CLASS_NON_FINITE = 6 };
static const char *const ORIENTATIONS[] = {"positive", "negative", "zero"};

/* One LinearTransformMeasurements object at parent.key. */
static int validate_linear(vctx *v, const anim_json_value *parent, const char *key)
{
    static const char *const KEYS[] = {"classification", "axis_lengths", "determinant",
                                       "orientation",    "uniform_scale", "rotation_xyzw"};
    const anim_json_value *lin = dv_required(v, parent, key);
    if (!lin)
        return -1;
    bool rotation = diff_has(v->version, DIFF_F_LINEAR_ROTATION);
    size_t old = dv_push(v, ".%s", key);
    int rc = dv_want_object(v, lin);
    if (!rc)
        rc = dv_check_keys(v, lin, KEYS, rotation ? 6 : 5);
    int cls = rc ? -1 : dv_enum_field(v, lin, "classification", CLASSES, 7);
    if (!rc && cls < 0)
        rc = -1;
    /* A non-finite matrix carries its classification and nothing else. */
    if (!rc && cls == CLASS_NON_FINITE && anim_json_count(lin) != 1)
        rc = dv_bad(v, "a non_finite classification carries no numeric facts");
    double d[4];
    if (!rc && cls != CLASS_NON_FINITE) {
        if (dv_numbers_field(v, lin, "axis_lengths", 3, d) ||
            dv_number_field(v, lin, "determinant", false, d) ||
            dv_enum_field(v, lin, "orientation", ORIENTATIONS, 3) < 0)
            rc = -1;
        if (!rc && anim_json_get(lin, "uniform_scale"))
            rc = dv_number_field(v, lin, "uniform_scale", false, d);
    }
    if (!rc && rotation) {
        bool want = cls == CLASS_UNIT_ORTHONORMAL;
        bool have = anim_json_get(lin, "rotation_xyzw") != NULL;
        if (want && !have)
            rc = dv_bad(v, "rotation_xyzw is required for a unit_orthonormal classification");
        else if (!want && have)
            rc = dv_bad(v, "rotation_xyzw is only carried for a unit_orthonormal classification");
        else if (have && !(rc = dv_numbers_field(v, lin, "rotation_xyzw", 4, d)) &&
                 fabs(sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3]) - 1.0) > 1e-6)
            rc = dv_bad(v, "rotation_xyzw is not a unit quaternion");
    }
    dv_pop(v, old);
    return rc;
}

/* An {min, max} box of finite numbers at obj.key, when present. */
static int optional_aabb(vctx *v, const anim_json_value *obj, const char *key)
{
    static const char *const KEYS[] = {"min", "max"};
    const anim_json_value *box = anim_json_get(obj, key);
    if (!box)
        return 0;
    double lo[3], hi[3];
    size_t old = dv_push(v, ".%s", key);
    int rc = dv_want_object(v, box) || dv_check_keys(v, box, KEYS, 2) ||
                     dv_numbers_field(v, box, "min", 3, lo) ||
                     dv_numbers_field(v, box, "max", 3, hi)
                 ? -1
                 : 0;
    for (int i = 0; !rc && i < 3; i++)
        if (lo[i] > hi[i])
            rc = dv_bad(v, "min exceeds max");
    dv_pop(v, old);
    return rc;
}

static int validate_primitives(vctx *v, const anim_json_value *mesh)
{
    static const char *const KEYS[] = {"primitive_index", "material_index", "vertex_count",
                                       "finite_vertex_count", "geometry_aabb",
                                       "geometry_centroid"};
    const anim_json_value *prims = dv_required(v, mesh, "primitives");
    if (!prims)
        return -1;
    size_t old = dv_push(v, ".primitives");
    int rc = dv_want_array(v, prims);
    uint64_t prev = 0;
    for (size_t i = 0; !rc && i < anim_json_count(prims); i++) {
        const anim_json_value *p = anim_json_item(prims, i);
        size_t o2 = dv_push(v, "[%zu]", i);
        uint64_t idx = 0, total = 0, finite = 0, mat = 0;
        double c[3];
        rc = dv_want_object(v, p) || dv_check_keys(v, p, KEYS, 6) ||
                     dv_uint_field(v, p, "primitive_index", &idx) ||
                     dv_uint_field(v, p, "vertex_count", &total) ||
                     dv_uint_field(v, p, "finite_vertex_count", &finite)
                 ? -1
                 : 0;
        /* Source order: gaps are valid (a loader may skip a primitive). */
        if (!rc && i > 0 && idx <= prev)
            rc = dv_bad(v, "primitive indices must be strictly increasing");
        const anim_json_value *m = rc ? NULL : dv_required(v, p, "material_index");
        if (!rc && !m)
            rc = -1;
        if (!rc && m->type != ANIM_JSON_NULL) {
            size_t o3 = dv_push(v, ".material_index");
            rc = dv_uint_value(v, m, &mat);
            dv_pop(v, o3);
        }
        if (!rc && finite > total)
            rc = dv_bad(v, "finite_vertex_count exceeds vertex_count");
        /* Finite-only geometry: present exactly when a finite row exists. */
        bool geom = !rc && anim_json_get(p, "geometry_aabb");
        bool cent = !rc && anim_json_get(p, "geometry_centroid");
        if (!rc && (geom != (finite > 0) || cent != (finite > 0)))
            rc = dv_bad(v, "geometry_aabb and geometry_centroid are present exactly when "
                           "finite_vertex_count is positive");
        if (!rc)
            rc = optional_aabb(v, p, "geometry_aabb");
        if (!rc && cent)
            rc = dv_numbers_field(v, p, "geometry_centroid", 3, c);
        prev = idx;
        dv_pop(v, o2);
    }
    dv_pop(v, old);
    return rc;
}

static int validate_mesh(vctx *v, const anim_json_value *mesh)
{
    static const char *const KEYS[] = {"mesh_index",     "name",           "vertex_count",
                                       "geometry_aabb",  "geometry_centroid",
                                       "max_joints_per_vertex", "weight_sum_min",
                                       "weight_sum_max", "additional_influence_sets",
                                       "primitives"};
    bool prims = diff_has(v->version, DIFF_F_PRIMITIVES);
    uint64_t u;
    double d[3];
    if (dv_check_keys(v, mesh, KEYS, prims ? 10 : 9) ||
        dv_uint_field(v, mesh, "vertex_count", &u) ||
        dv_uint_field(v, mesh, "max_joints_per_vertex", &u) ||
        optional_aabb(v, mesh, "geometry_aabb"))
        return -1;
    if (anim_json_get(mesh, "geometry_centroid") &&
        dv_numbers_field(v, mesh, "geometry_centroid", 3, d))
        return -1;
    if (anim_json_get(mesh, "weight_sum_min") &&
        dv_number_field(v, mesh, "weight_sum_min", false, d))
        return -1;
    if (anim_json_get(mesh, "weight_sum_max") &&
        dv_number_field(v, mesh, "weight_sum_max", false, d))
        return -1;
    const anim_json_value *sets = dv_required(v, mesh, "additional_influence_sets");
    if (!sets)
        return -1;
    size_t old = dv_push(v, ".additional_influence_sets");
    int rc = dv_want_array(v, sets);
    dv_pop(v, old);
    if (rc)
        return rc;
    return prims ? validate_primitives(v, mesh) : 0;
}

static int validate_skeleton_node(vctx *v, const anim_json_value *node)
{
    return validate_linear(v, node, "rest_world_linear");
}

/* Each skin joint's two derived matrices carry linear facts when
 * available. */
static int validate_skin(vctx *v, const anim_json_value *skin)
{
    static const char *const DERIVED[] = {"joint_bind_to_mesh", "mesh_bind_world"};
    const anim_json_value *joints = dv_required(v, skin, "joints");
    if (!joints)
        return -1;
    size_t old = dv_push(v, ".joints");
    int rc = dv_want_array(v, joints);
    for (size_t i = 0; !rc && i < anim_json_count(joints); i++) {
        const anim_json_value *j = anim_json_item(joints, i);
        size_t o2 = dv_push(v, "[%zu]", i);
        rc = dv_want_object(v, j);
        for (size_t k = 0; !rc && k < 2; k++) {
            const anim_json_value *dm = dv_required(v, j, DERIVED[k]);
            if (!dm) {
                rc = -1;
                break;
            }
            size_t o3 = dv_push(v, ".%s", DERIVED[k]);
            rc = dv_want_object(v, dm);
            if (!rc && anim_json_get(dm, "linear"))
                rc = validate_linear(v, dm, "linear");
            dv_pop(v, o3);
        }
        dv_pop(v, o2);
    }
    dv_pop(v, old);
    return rc;
}

static int validate_image(vctx *v, const anim_json_value *img)
{
    static const char *const KEYS[] = {"image_index",      "name",          "source_kind",
                                       "declared_mime_type", "detected_container", "width",
                                       "height",           "channel_count", "decoded_color_type",
                                       "unavailable_reason", "leading_magic_hex"};
    bool magic = diff_has(v->version, DIFF_F_LEADING_MAGIC);
    if (dv_check_keys(v, img, KEYS, magic ? 11 : 10))
        return -1;
    const anim_json_value *hex = anim_json_get(img, "leading_magic_hex");
    if (!hex)
        return 0;
    size_t old = dv_push(v, ".leading_magic_hex");
    int rc = 0;
    size_t n = hex->type == ANIM_JSON_STRING ? anim_json_string_len(hex) : 0;
    const char *s = hex->type == ANIM_JSON_STRING ? anim_json_string(hex) : "";
    if (hex->type != ANIM_JSON_STRING || n == 0 || n > 32 || n % 2)
        rc = dv_bad(v, "expected 1 to 16 bytes of lowercase hex");
    for (size_t i = 0; !rc && i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            rc = dv_bad(v, "expected 1 to 16 bytes of lowercase hex");
    /* Only unsupported payloads record their magic bytes. */
    if (!rc && !anim_json_get(img, "unavailable_reason"))
        rc = dv_bad(v, "only an unavailable image carries leading magic bytes");
    dv_pop(v, old);
    return rc;
}

typedef struct table_rule {
    const char *key;
    const char *index_key; /* each row's identity index */
    int (*row)(vctx *v, const anim_json_value *row); /* the versioned facts, or NULL */
} table_rule;

static const table_rule TABLES[] = {
    {"mesh_definitions", "mesh_index", validate_mesh},
    {"node_instances", "node_index", NULL},
    {"scenes", "scene_index", NULL},
    {"skeleton_nodes", "node_index", validate_skeleton_node},
    {"skins", "skin_index", validate_skin},
    {"material_definitions", "material_index", NULL},
    {"textures", "texture_index", NULL},
    {"images", "image_index", validate_image},
};

int diff_validate_asset(vctx *v, const anim_json_value *m)
{
    for (size_t t = 0; t < sizeof TABLES / sizeof *TABLES; t++) {
        const anim_json_value *tab = dv_required(v, m, TABLES[t].key);
        if (!tab)
            return -1;
        size_t old = dv_push(v, ".%s", TABLES[t].key);
        int rc = dv_want_array(v, tab);
        for (size_t i = 0; !rc && i < anim_json_count(tab); i++) {
            const anim_json_value *row = anim_json_item(tab, i);
            size_t o2 = dv_push(v, "[%zu]", i);
            uint64_t idx;
            rc = dv_want_object(v, row);
            if (!rc)
                rc = dv_uint_field(v, row, TABLES[t].index_key, &idx);
            if (!rc && TABLES[t].row)
                rc = TABLES[t].row(v, row);
            dv_pop(v, o2);
        }
        dv_pop(v, old);
        if (rc)
            return rc;
    }
    if (dv_string_field(v, m, "skeleton_source_coverage") ||
        dv_string_field(v, m, "material_resource_coverage"))
        return -1;
    const anim_json_value *ds = anim_json_get(m, "default_scene_index");
    if (ds) {
        uint64_t idx;
        size_t old = dv_push(v, ".default_scene_index");
        int rc = dv_uint_value(v, ds, &idx);
        dv_pop(v, old);
        if (rc)
            return rc;
    }
    return 0;
}
