/* Geometry records into arrays: control points, polygons and the layer
 * elements (normals, tangents, UVs, colours, material indices), each
 * element resolved to one data tuple per polygon corner.
 *
 * The same records sit in a 7.x Geometry object and in a 6.1 Mesh Model,
 * so this reads a record, not an object. Every index is checked against
 * the array it points into before anything uses it. */
#include <string.h>

#include "io/fbx/fbx_geometry_internal.h"

/* The element of a kind for layer 0: the one with the smallest layer
 * index (its first property), the first in record order on a tie. */
static const anim_fbx_node *first_element(const anim_fbx_node *rec, const char *kind,
                                          uint32_t *count)
{
    const anim_fbx_node *best = NULL;
    int64_t best_index = 0;
    *count = 0;
    for (uint32_t i = 0; i < rec->child_count; i++) {
        const anim_fbx_node *c = &rec->children[i];
        if (strcmp(c->name, kind) != 0)
            continue;
        (*count)++;
        int64_t index = 0;
        if (c->prop_count > 0 && (c->props[0].type == ANIM_FBX_I32 ||
                                  c->props[0].type == ANIM_FBX_I64 ||
                                  c->props[0].type == ANIM_FBX_I16))
            index = c->props[0].scalar.i;
        if (!best || index < best_index)
            best = c, best_index = index;
    }
    return best;
}

/* A string child record's value ("MappingInformationType"), dflt when absent. */
static int child_string(const anim_fbx_node *el, const char *name, const char *dflt,
                        const char **out, anim_error *err)
{
    const anim_fbx_node *c = anim_fbx_child(el, name);
    *out = dflt;
    if (!c)
        return 0;
    size_t len = 0;
    return anim_fbx_prop_string(c, 0, out, &len, err);
}

static int read_mapping(const anim_fbx_node *el, const char *label, const char *kind,
                        anim_fbx_mapping *map, bool *indexed, anim_error *err)
{
    const char *m = NULL, *r = NULL;
    if (child_string(el, "MappingInformationType", "ByPolygonVertex", &m, err) != 0 ||
        child_string(el, "ReferenceInformationType", "Direct", &r, err) != 0) {
        anim_error_prefix(err, "%s %s", label, kind);
        return -1;
    }
    if (strcmp(m, "ByPolygonVertex") == 0)
        *map = ANIM_FBX_MAP_POLYGON_VERTEX;
    else if (strcmp(m, "ByControlPoint") == 0 || strcmp(m, "ByVertice") == 0 ||
             strcmp(m, "ByVertex") == 0)
        *map = ANIM_FBX_MAP_CONTROL_POINT;
    else if (strcmp(m, "ByPolygon") == 0)
        *map = ANIM_FBX_MAP_POLYGON;
    else if (strcmp(m, "AllSame") == 0)
        *map = ANIM_FBX_MAP_ALL_SAME;
    else
        return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                              "%s %s: mapping '%s' is not supported (ByPolygonVertex, "
                              "ByControlPoint, ByPolygon, AllSame are)",
                              label, kind, m);
    if (strcmp(r, "Direct") == 0)
        *indexed = false;
    else if (strcmp(r, "IndexToDirect") == 0 || strcmp(r, "Index") == 0)
        *indexed = true;
    else
        return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                              "%s %s: reference mode '%s' is not supported", label, kind, r);
    return 0;
}

/* Which entry a corner reads under a mapping. */
static uint32_t mapped(anim_fbx_mapping map, const anim_fbx_geom *g, uint32_t corner,
                       uint32_t poly)
{
    switch (map) {
    case ANIM_FBX_MAP_POLYGON_VERTEX: return corner;
    case ANIM_FBX_MAP_CONTROL_POINT: return g->corner_cp[corner];
    case ANIM_FBX_MAP_POLYGON: return poly;
    case ANIM_FBX_MAP_ALL_SAME: return 0;
    }
    return 0;
}

typedef struct element_spec {
    const char *kind;            /* "LayerElementNormal" */
    const char *data;            /* "Normals" */
    const char *index;           /* "NormalsIndex" */
    const char *what;            /* "normals", for messages */
    uint32_t width;
} element_spec;

static int read_element(const anim_fbx_node *rec, const element_spec *spec, anim_fbx_geom *g,
                        anim_arena *arena, anim_fbx_layer *out, uint32_t *element_count,
                        anim_error *err)
{
    memset(out, 0, sizeof *out);
    const anim_fbx_node *el = first_element(rec, spec->kind, element_count);
    if (!el)
        return 0;
    anim_fbx_mapping map;
    bool indexed;
    if (read_mapping(el, g->label, spec->kind, &map, &indexed, err) != 0)
        return -1;
    const anim_fbx_node *dn = anim_fbx_child(el, spec->data);
    if (!dn)
        return 0; /* an element without data adds nothing */
    uint32_t n = 0;
    if (anim_fbx_prop_array_f64(arena, dn, 0, &out->data, &n, err) != 0) {
        anim_error_prefix(err, "%s %s", g->label, spec->kind);
        return -1;
    }
    if (n % spec->width != 0)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s %s %s: %u values, not a multiple of %u",
                              g->label, spec->kind, spec->data, n, spec->width);
    out->width = spec->width;
    out->tuple_count = n / spec->width;
    const int64_t *idx = NULL;
    uint32_t idx_count = 0;
    if (indexed) {
        const anim_fbx_node *in = anim_fbx_child(el, spec->index);
        if (!in)
            return anim_error_set(err, ANIM_ERR_INVALID, "%s %s: IndexToDirect without %s",
                                  g->label, spec->kind, spec->index);
        if (anim_fbx_prop_array_i64(arena, in, 0, &idx, &idx_count, err) != 0) {
            anim_error_prefix(err, "%s %s", g->label, spec->kind);
            return -1;
        }
    }
    out->corner_tuple = anim_arena_calloc(arena, g->corner_count ? g->corner_count : 1,
                                          sizeof(uint32_t));
    if (!out->corner_tuple)
        return anim_error_set(err, ANIM_ERR_NOMEM, "%s %s: out of memory", g->label, spec->kind);
    for (uint32_t p = 0; p < g->poly_count; p++) {
        for (uint32_t c = g->poly_start[p]; c < g->poly_start[p + 1]; c++) {
            uint32_t at = mapped(map, g, c, p);
            int64_t tuple = at;
            if (indexed) {
                if (at >= idx_count)
                    return anim_error_set(err, ANIM_ERR_INVALID,
                                          "%s %s %s: %u entries, corner %u needs entry %u",
                                          g->label, spec->kind, spec->index, idx_count, c, at);
                tuple = idx[at];
                if (tuple < 0 || tuple >= out->tuple_count)
                    return anim_error_set(err, ANIM_ERR_INVALID,
                                          "%s %s %s[%u]: index %lld outside %u %s", g->label,
                                          spec->kind, spec->index, at, (long long)tuple,
                                          out->tuple_count, spec->what);
            } else if (tuple >= out->tuple_count) {
                return anim_error_set(err, ANIM_ERR_INVALID,
                                      "%s %s %s: %u %s, corner %u needs entry %u", g->label,
                                      spec->kind, spec->data, out->tuple_count, spec->what, c, at);
            }
            out->corner_tuple[c] = (uint32_t)tuple;
        }
    }
    const char *name = "";
    if (child_string(el, "Name", "", &name, err) != 0)
        anim_error_clear(err), name = "";
    out->name = name;
    out->present = true;
    return 0;
}

/* LayerElementMaterial: a slot per polygon. */
static int read_slots(const anim_fbx_node *rec, anim_fbx_geom *g, uint32_t slot_count,
                      anim_arena *arena, anim_error *err)
{
    uint32_t count = 0;
    const anim_fbx_node *el = first_element(rec, "LayerElementMaterial", &count);
    const anim_fbx_node *dn = el ? anim_fbx_child(el, "Materials") : NULL;
    if (!dn || slot_count == 0)
        return 0; /* no slots to choose between: one primitive */
    anim_fbx_mapping map;
    bool indexed;
    if (read_mapping(el, g->label, "LayerElementMaterial", &map, &indexed, err) != 0)
        return -1;
    if (map == ANIM_FBX_MAP_CONTROL_POINT)
        return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                              "%s LayerElementMaterial: mapping by control point is not supported",
                              g->label);
    const int64_t *mats = NULL;
    uint32_t n = 0;
    if (anim_fbx_prop_array_i64(arena, dn, 0, &mats, &n, err) != 0) {
        anim_error_prefix(err, "%s LayerElementMaterial", g->label);
        return -1;
    }
    if (n == 0)
        return 0;
    g->poly_slot = anim_arena_calloc(arena, g->poly_count ? g->poly_count : 1, sizeof(uint32_t));
    if (!g->poly_slot)
        return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", g->label);
    for (uint32_t p = 0; p < g->poly_count; p++) {
        /* By polygon vertex: the polygon's first corner decides. */
        uint32_t at = mapped(map, g, g->poly_start[p], p);
        if (at >= n)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s LayerElementMaterial Materials: %u entries, polygon %u "
                                  "needs entry %u",
                                  g->label, n, p, at);
        if (mats[at] < 0 || mats[at] >= slot_count)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s LayerElementMaterial Materials[%u]: slot %lld outside the "
                                  "model's %u material(s)",
                                  g->label, at, (long long)mats[at], slot_count);
        g->poly_slot[p] = (uint32_t)mats[at];
    }
    return 0;
}

static const element_spec SPECS[4] = {
    {"LayerElementNormal", "Normals", "NormalsIndex", "normals", 3},
    {"LayerElementTangent", "Tangents", "TangentsIndex", "tangents", 3},
    {"LayerElementUV", "UV", "UVIndex", "UVs", 2},
    {"LayerElementColor", "Colors", "ColorIndex", "colours", 4},
};

int anim_fbx_geom_read(const anim_fbx_node *rec, const char *label, uint32_t slot_count,
                       anim_arena *arena, anim_fbx_geom *g, anim_error *err)
{
    memset(g, 0, sizeof *g);
    g->label = label;
    const anim_fbx_node *vn = anim_fbx_child(rec, "Vertices");
    const anim_fbx_node *pn = anim_fbx_child(rec, "PolygonVertexIndex");
    if (!vn || !pn)
        return 0; /* no polygons: an empty geometry (NURBS, lines) yields no mesh */
    uint32_t n = 0;
    if (anim_fbx_prop_array_f64(arena, vn, 0, &g->cp, &n, err) != 0) {
        anim_error_prefix(err, "%s Vertices", label);
        return -1;
    }
    if (n % 3 != 0)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s Vertices: %u values, not a multiple of 3",
                              label, n);
    g->cp_count = n / 3;
    const int64_t *pvi = NULL;
    if (anim_fbx_prop_array_i64(arena, pn, 0, &pvi, &g->corner_count, err) != 0) {
        anim_error_prefix(err, "%s PolygonVertexIndex", label);
        return -1;
    }
    if (anim_fbx_polygons(pvi, g->corner_count, g->cp_count, label, arena, &g->corner_cp,
                          &g->poly_start, &g->poly_count, err) != 0)
        return -1;
    anim_fbx_layer *layers[4] = {&g->normal, &g->tangent, &g->uv, &g->color};
    for (int i = 0; i < 4; i++) {
        uint32_t count = 0;
        if (read_element(rec, &SPECS[i], g, arena, layers[i], &count, err) != 0)
            return -1;
        if (i == 2 && count > 1)
            g->extra_uv_sets = count - 1;
    }
    return read_slots(rec, g, slot_count, arena, err);
}
