/* The polygon_mesh operation: arbitrary polygons over a list of positions,
 * appended to the named object (created when absent). It is how clients
 * bring their own cages in, so it refuses what would make the mesh
 * invalid (indices out of range, repeated corners, UV lists of the wrong
 * length, positions no polygon uses) before touching the document, and
 * reports nonplanar polygons, which are kept and triangulated by
 * projection at compile. */
#include <float.h>
#include <stdlib.h>

#include "model/mdl_ops.h"
#include "model/mdl_tri.h"

#define MAX_ELEMENTS 1000000

/* Index j of a vertices array; the validator admits integral numbers
 * written with a fraction or exponent ("2.0"). */
static int64_t index_at(const anim_json_value *vs, size_t j)
{
    const anim_json_value *v = anim_json_item(vs, j);
    return anim_json_is_integer(v) ? anim_json_integer(v) : (int64_t)anim_json_number(v);
}

/* Refuses what depends on more than one field: indices against the
 * position count, repeated indices, UV lengths, unused positions.
 * seen has one entry per position: 1 + the last polygon using it, so a
 * repeat within a polygon is found without comparing pairs. Counts the
 * corners into *corners. */
static int check_polygons(mdl_ctx *ctx, const anim_json_value *polys, size_t npos,
                          size_t *seen, uint64_t *corners)
{
    size_t npoly = anim_json_count(polys);
    *corners = 0;
    for (size_t i = 0; i < npoly; i++) {
        const anim_json_value *poly = anim_json_item(polys, i);
        const anim_json_value *vs = anim_json_get(poly, "vertices");
        const anim_json_value *uvs = anim_json_get(poly, "uvs");
        size_t n = anim_json_count(vs);
        *corners += n;
        if (uvs && uvs->type != ANIM_JSON_NULL && anim_json_count(uvs) != n)
            return mdl_refuse(ctx, "invalid_operation",
                              "polygons[%zu].uvs has %zu entries for %zu vertices", i,
                              anim_json_count(uvs), n);
        for (size_t j = 0; j < n; j++) {
            int64_t idx = index_at(vs, j);
            if (idx < 0 || (uint64_t)idx >= npos)
                return mdl_refuse(ctx, "out_of_range",
                                  "polygons[%zu].vertices[%zu] is %lld but there are %zu positions",
                                  i, j, (long long)idx, npos);
            if (seen[idx] == i + 1)
                return mdl_refuse(ctx, "degenerate_face",
                                  "polygons[%zu].vertices[%zu] repeats index %lld", i, j,
                                  (long long)idx);
            seen[idx] = i + 1;
        }
    }
    for (size_t p = 0; p < npos; p++) {
        if (seen[p] == 0)
            return mdl_refuse(ctx, "loose_vertices", "positions[%zu] is used by no polygon", p);
    }
    return 0;
}

static int add_polygons(mdl_ctx *ctx, mdl_object *o, const anim_json_value *polys,
                        const uint64_t *ids)
{
    size_t npoly = anim_json_count(polys), nonplanar = 0, first_bad = 0;
    uint64_t first_bad_face = 0;
    uint64_t vids[MDL_FACE_CORNERS_MAX];
    double uvs[MDL_FACE_CORNERS_MAX][2];
    for (size_t i = 0; i < npoly; i++) {
        const anim_json_value *poly = anim_json_item(polys, i);
        const anim_json_value *vs = anim_json_get(poly, "vertices");
        const anim_json_value *uv = anim_json_get(poly, "uvs");
        bool has_uv = uv && uv->type != ANIM_JSON_NULL;
        uint32_t n = (uint32_t)anim_json_count(vs);
        for (uint32_t j = 0; j < n; j++) {
            vids[j] = ids[index_at(vs, j)];
            if (has_uv)
                mdl_value_vec(anim_json_item(uv, j), uvs[j], 2);
        }
        int32_t material = (int32_t)mdl_field_int(poly, "material", 0);
        uint64_t fid = mdl_object_add_face(o, vids, has_uv ? (const double(*)[2])uvs : NULL, n,
                                           material, false);
        if (fid == 0)
            return mdl_nomem(ctx);
        if (mdl_select_face(ctx, fid) != 0)
            return -1;
        if (!mdl_face_is_planar(o, &o->faces[o->face_count - 1])) {
            if (nonplanar++ == 0)
                first_bad = i, first_bad_face = fid;
        }
    }
    if (nonplanar > 0)
        return mdl_note(ctx,
                        "%zu nonplanar polygon(s), first polygons[%zu] (face \"%llu\"): "
                        "triangulated by projection at compile",
                        nonplanar, first_bad, (unsigned long long)first_bad_face);
    return 0;
}

static int run_polygon_mesh(mdl_ctx *ctx, const anim_json_value *op)
{
    const anim_json_value *pos = mdl_field_get(op, "positions");
    const anim_json_value *polys = mdl_field_get(op, "polygons");
    size_t npos = anim_json_count(pos), npoly = anim_json_count(polys);
    size_t *seen = calloc(npos, sizeof *seen);
    if (!seen)
        return mdl_nomem(ctx);
    uint64_t corners;
    int rc = check_polygons(ctx, polys, npos, seen, &corners);
    free(seen);
    if (rc != 0)
        return -1;
    /* Paid before the mesh is built, so an oversized one is refused
     * before it takes memory. */
    if (mdl_spend(ctx, 1 + npos + npoly + corners) != 0)
        return -1;
    mdl_object *o = mdl_target_object(ctx, op, true);
    if (!o)
        return -1;
    uint64_t *ids = malloc(npos * sizeof *ids);
    if (!ids)
        return mdl_nomem(ctx);
    rc = 0;
    for (size_t p = 0; p < npos && rc == 0; p++) {
        double xyz[3];
        mdl_value_vec(anim_json_item(pos, p), xyz, 3);
        ids[p] = mdl_object_add_vertex(o, xyz);
        rc = ids[p] == 0 ? mdl_nomem(ctx) : mdl_select_vertex(ctx, ids[p]);
    }
    if (rc == 0)
        rc = add_polygons(ctx, o, polys, ids);
    free(ids);
    return rc;
}

static const mdl_field polygon_fields[] = {
    {.name = "vertices", .type = MDL_F_INT_ARRAY, .required = true, .min = 0,
     .max = MAX_ELEMENTS - 1, .min_items = 3, .max_items = MDL_FACE_CORNERS_MAX,
     .description = "zero-based indices into positions, counter-clockwise seen from the front "
                    "(3-256, no repeats)"},
    {.name = "uvs", .type = MDL_F_VEC2_ARRAY, .required = false,
     .min_items = 3, .max_items = MDL_FACE_CORNERS_MAX,
     .description = "one UV per vertex, top-left origin (default all 0)"},
    {.name = "material", .type = MDL_F_INTEGER, .required = false, .min = 0,
     .max = MDL_MATERIAL_SLOTS - 1, .description = "material ordinal 0-511 (default 0)"},
    {0},
};

static const mdl_field polygon_mesh_fields[] = {
    {.name = "positions", .type = MDL_F_VEC3_ARRAY, .required = true,
     .min_items = 1, .max_items = MAX_ELEMENTS,
     .description = "vertex positions in metres (1-1,000,000), each used by some polygon"},
    {.name = "polygons", .type = MDL_F_OBJECTS, .required = true, .min_items = 1,
     .max_items = MAX_ELEMENTS, .fields = polygon_fields,
     .description = "faces over positions (1-1,000,000)"},
    {0},
};

const mdl_op_def mdl_op_polygon_mesh = {
    .op = "polygon_mesh",
    .mesh_edit = true,
    .fields = polygon_mesh_fields,
    .description = "appends polygons over new vertices; nonplanar ones are reported",
    .run = run_polygon_mesh,
};
