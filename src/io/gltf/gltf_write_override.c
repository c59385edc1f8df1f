/* Mesh overrides: primitives written with new vertices and indices (the
 * LOD writer's hook, anim_gltf_write_asset_*_with).
 *
 * A reduced primitive keeps a subset of its stored vertices, so every
 * stored attribute and morph target is gathered element by element from
 * the stored bytes (sparse data applied first, the result dense): the
 * component types, normalization and values survive exactly as stored,
 * whatever the attribute is (NORMAL, TANGENT, COLOR_n, TEXCOORD_n, custom
 * _NAMES). Only what the caller computed anew (the indices, and the
 * influences it renormalized) comes from its arrays. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/arena.h"
#include "io/gltf/gltf_internal.h"
#include "io/gltf/gltf_write_internal.h"

const anim_gltf_prim_override *gw_override_of(const gw *g, uint32_t m, uint32_t p)
{
    for (uint32_t i = 0; i < g->override_count; i++)
        if (g->overrides[i].mesh == m && g->overrides[i].primitive == p)
            return &g->overrides[i];
    return NULL;
}

static bool attribute_type_ok(const anim_gltf_attribute_data *a)
{
    if (a->components < 1 || a->components > 4 || !a->name)
        return false;
    return a->component_type == ANIM_GLTF_FLOAT || a->component_type == ANIM_GLTF_UNSIGNED_SHORT ||
           a->component_type == ANIM_GLTF_UNSIGNED_BYTE;
}

int gw_check_overrides(gw *g)
{
    if (!g->override_count)
        return 0;
    if (!g->src)
        return gw_fail(g, ANIM_ERR_USAGE, "mesh overrides need a loaded asset");
    for (uint32_t i = 0; i < g->override_count; i++) {
        const anim_gltf_prim_override *o = &g->overrides[i];
        if (o->mesh >= g->src_doc->mesh_count ||
            o->primitive >= g->src_doc->meshes[o->mesh].primitive_count)
            return gw_fail(g, ANIM_ERR_INVALID,
                           "mesh override %u: mesh %u primitive %u does not exist", i, o->mesh,
                           o->primitive);
        if (gw_override_of(g, o->mesh, o->primitive) != o)
            return gw_fail(g, ANIM_ERR_INVALID,
                           "mesh override %u: mesh %u primitive %u is overridden twice", i,
                           o->mesh, o->primitive);
        uint32_t stored = g->src_doc->meshes[o->mesh].primitives[o->primitive].vertex_count;
        for (uint32_t v = 0; v < o->vertex_count; v++)
            if (o->vertex_source[v] >= stored)
                return gw_fail(g, ANIM_ERR_INVALID,
                               "mesh %u primitive %u override: vertex %u copies stored vertex "
                               "%u of %u",
                               o->mesh, o->primitive, v, o->vertex_source[v], stored);
        if (o->index_count % 3 != 0)
            return gw_fail(g, ANIM_ERR_INVALID,
                           "mesh %u primitive %u override: %u indices is not whole triangles",
                           o->mesh, o->primitive, o->index_count);
        for (uint32_t k = 0; k < o->index_count; k++)
            if (o->indices[k] >= o->vertex_count)
                return gw_fail(g, ANIM_ERR_INVALID,
                               "mesh %u primitive %u override: index %u is %u, past the %u "
                               "written vertices",
                               o->mesh, o->primitive, k, o->indices[k], o->vertex_count);
        for (uint32_t a = 0; a < o->attribute_count; a++)
            if (o->attributes[a].data && !attribute_type_ok(&o->attributes[a]))
                return gw_fail(g, ANIM_ERR_INVALID,
                               "mesh %u primitive %u override: attribute %u has an unsupported "
                               "type",
                               o->mesh, o->primitive, a);
    }
    return 0;
}

/* Every element of accessor a as stored (elem bytes each, packed), with
 * its sparse substitution applied. Caller frees. */
static uint8_t *stored_elements(gw *g, const anim_accessor *a, size_t elem, const char *ctx)
{
    size_t total;
    if (!anim_size_mul(a->count, elem, &total)) {
        gw_fail(g, ANIM_ERR_LIMIT, "%s: accessor too large", ctx);
        return NULL;
    }
    uint8_t *out = calloc(total ? total : 1, 1);
    if (!out) {
        gw_fail(g, ANIM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (a->buffer_view != ANIM_NONE && a->count) {
        const anim_buffer_view *v = &g->src->views[a->buffer_view];
        size_t stride = v->byte_stride ? v->byte_stride : elem;
        size_t span = (size_t)(a->count - 1) * stride + elem;
        const uint8_t *p = gw_view_bytes(g, a->buffer_view, a->byte_offset, span, ctx);
        if (!p)
            goto fail;
        for (uint32_t i = 0; i < a->count; i++)
            memcpy(out + (size_t)i * elem, p + (size_t)i * stride, elem);
    }
    if (a->has_sparse) {
        size_t isize = anim_gltf_component_size(a->sparse_indices_component_type);
        const uint8_t *ip = gw_view_bytes(g, a->sparse_indices_view, a->sparse_indices_offset,
                                          (size_t)a->sparse_count * isize, ctx);
        const uint8_t *vp = ip ? gw_view_bytes(g, a->sparse_values_view, a->sparse_values_offset,
                                               (size_t)a->sparse_count * elem, ctx)
                               : NULL;
        if (!vp)
            goto fail;
        for (uint32_t s = 0; s < a->sparse_count; s++) {
            uint64_t idx = 0;
            for (size_t b = 0; b < isize; b++)
                idx |= (uint64_t)ip[s * isize + b] << (8 * b);
            if (idx >= a->count) {
                gw_fail(g, ANIM_ERR_INVALID, "%s: sparse index %u outside the accessor", ctx, s);
                goto fail;
            }
            memcpy(out + idx * elem, vp + (size_t)s * elem, elem);
        }
    }
    return out;
fail:
    free(out);
    return NULL;
}

/* One component as the accessor's bounds state it: floats as floats,
 * integers as their stored integer value. */
static double bound_component(const uint8_t *p, uint32_t ctype)
{
    switch (ctype) {
    case ANIM_GLTF_FLOAT: {
        float f;
        memcpy(&f, p, 4);
        return (double)f;
    }
    case ANIM_GLTF_BYTE:
        return (double)(int8_t)p[0];
    case ANIM_GLTF_UNSIGNED_BYTE:
        return (double)p[0];
    case ANIM_GLTF_SHORT:
        return (double)(int16_t)(uint16_t)(p[0] | p[1] << 8);
    case ANIM_GLTF_UNSIGNED_SHORT:
        return (double)(uint16_t)(p[0] | p[1] << 8);
    default: {
        uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24;
        return (double)u;
    }
    }
}

/* min and max over the packed elements (vectors only: matrices keep
 * none, no vertex attribute is one). */
static void set_bounds(gw *g, gout *json, const uint8_t *data, uint32_t count, size_t stride,
                       uint32_t components, uint32_t ctype)
{
    gout_remove(json, "min");
    gout_remove(json, "max");
    if (components > 4 || count == 0)
        return;
    size_t cs = anim_gltf_component_size(ctype);
    double lo[4], hi[4];
    for (uint32_t k = 0; k < components; k++)
        lo[k] = hi[k] = bound_component(data + k * cs, ctype);
    for (uint32_t i = 1; i < count; i++)
        for (uint32_t k = 0; k < components; k++) {
            double v = bound_component(data + (size_t)i * stride + k * cs, ctype);
            lo[k] = v < lo[k] ? v : lo[k];
            hi[k] = v > hi[k] ? v : hi[k];
        }
    gout *mn = gout_array(&g->b), *mx = gout_array(&g->b);
    for (uint32_t k = 0; k < components; k++) {
        bool integer = ctype != ANIM_GLTF_FLOAT;
        gout_push(&g->b, mn, integer && lo[k] >= 0 ? gout_uint(&g->b, (uint64_t)lo[k])
                                                   : gout_f64(&g->b, lo[k]));
        gout_push(&g->b, mx, integer && hi[k] >= 0 ? gout_uint(&g->b, (uint64_t)hi[k])
                                                   : gout_f64(&g->b, hi[k]));
    }
    gout_set(&g->b, json, "min", mn);
    gout_set(&g->b, json, "max", mx);
}

/* A new dense vertex accessor holding the stored accessor's elements at
 * o->vertex_source. */
static int64_t gathered(gw *g, uint32_t index, const anim_gltf_prim_override *o, bool position,
                        const char *ctx)
{
    if (index >= g->src->accessor_count)
        return gw_fail(g, ANIM_ERR_INVALID, "%s: accessor %u does not exist", ctx, index);
    const anim_accessor *a = &g->src->accessors[index];
    size_t elem = gltf_accessor_element_size(a);
    size_t stride = (elem + 3) & ~(size_t)3;
    uint8_t *all = stored_elements(g, a, elem, ctx);
    if (!all)
        return -1;
    size_t total;
    uint8_t *out = NULL;
    if (anim_size_mul(o->vertex_count, stride, &total))
        out = calloc(total ? total : 1, 1);
    if (!out) {
        free(all);
        return gw_fail(g, ANIM_ERR_NOMEM, "out of memory");
    }
    for (uint32_t v = 0; v < o->vertex_count; v++) {
        if (o->vertex_source[v] >= a->count) {
            free(all);
            free(out);
            return gw_fail(g, ANIM_ERR_INVALID, "%s: accessor %u holds %u elements, vertex %u "
                           "needs element %u", ctx, index, a->count, v, o->vertex_source[v]);
        }
        memcpy(out + (size_t)v * stride, all + (size_t)o->vertex_source[v] * elem, elem);
    }
    free(all);
    int64_t view = gw_add_view(g, out, total, stride != elem ? (uint32_t)stride : 0,
                               GW_TARGET_ARRAY_BUFFER);
    gout *json = view < 0 ? NULL : gout_copy(&g->b, anim_json_item(gw_source_array(g, "accessors"), index));
    if (json) {
        gout_remove(json, "sparse");
        gout_remove(json, "byteOffset");
        gout_set(&g->b, json, "bufferView", gout_uint(&g->b, (uint64_t)view));
        gout_set(&g->b, json, "count", gout_uint(&g->b, o->vertex_count));
        if (position || a->has_min || a->has_max)
            set_bounds(g, json, out, o->vertex_count, stride, a->components, a->component_type);
        gout_push(&g->b, g->accessors, json);
    }
    free(out);
    if (view < 0)
        return -1;
    if (!json || g->b.failed)
        return gw_fail(g, ANIM_ERR_NOMEM, "out of memory");
    return (int64_t)g->accessors->count - 1;
}

static const char *type_name(uint32_t components)
{
    static const char *const names[] = {"SCALAR", "VEC2", "VEC3", "VEC4"};
    return names[components - 1];
}

/* A new accessor from the caller's array (dense, host order: this
 * library, like glTF, assumes a little-endian host; gltf_accessor.c). */
static int64_t from_array(gw *g, uint32_t count, uint32_t ctype, uint32_t components,
                          bool normalized, const void *data, uint32_t target, bool position)
{
    size_t cs = anim_gltf_component_size(ctype);
    size_t elem = cs * components;
    size_t stride = target == GW_TARGET_ARRAY_BUFFER ? (elem + 3) & ~(size_t)3 : elem;
    size_t total;
    if (!anim_size_mul(count, stride, &total))
        return gw_fail(g, ANIM_ERR_LIMIT, "override accessor too large");
    uint8_t *out = calloc(total ? total : 1, 1);
    if (!out)
        return gw_fail(g, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t v = 0; v < count; v++)
        memcpy(out + (size_t)v * stride, (const uint8_t *)data + (size_t)v * elem, elem);
    int64_t view = gw_add_view(g, out, total, stride != elem ? (uint32_t)stride : 0, target);
    gout *json = gout_object(&g->b);
    if (view >= 0) {
        gout_set(&g->b, json, "bufferView", gout_uint(&g->b, (uint64_t)view));
        gout_set(&g->b, json, "componentType", gout_uint(&g->b, ctype));
        gout_set(&g->b, json, "count", gout_uint(&g->b, count));
        gout_set(&g->b, json, "type", gout_string(&g->b, type_name(components)));
        if (normalized)
            gout_set(&g->b, json, "normalized", gout_bool(&g->b, true));
        if (position)
            set_bounds(g, json, out, count, stride, components, ctype);
        gout_push(&g->b, g->accessors, json);
    }
    free(out);
    if (view < 0)
        return -1;
    return g->b.failed ? gw_fail(g, ANIM_ERR_NOMEM, "out of memory")
                       : (int64_t)g->accessors->count - 1;
}

static const anim_gltf_attribute_data *replacement(const anim_gltf_prim_override *o,
                                                   const char *key, size_t len)
{
    for (uint32_t i = 0; i < o->attribute_count; i++)
        if (strlen(o->attributes[i].name) == len && memcmp(o->attributes[i].name, key, len) == 0)
            return &o->attributes[i];
    return NULL;
}

/* Rewrites an attribute map: stored ones gathered, replaced or dropped
 * ones as the override says; with_added also adds the override's new
 * names (never to morph targets, which hold displacements). */
static gout *rewrite_map(gw *g, const gout *map, const anim_gltf_prim_override *o,
                         bool with_added, const char *ctx)
{
    gout *out = gout_object(&g->b);
    for (uint32_t i = 0; map && map->type == GOUT_OBJECT && i < map->count; i++) {
        const gout_member *m = &map->v.members[i];
        char actx[160];
        snprintf(actx, sizeof actx, "%s %.*s", ctx, (int)m->key_len, m->key);
        const anim_gltf_attribute_data *r = replacement(o, m->key, m->key_len);
        if (r && with_added)
            continue; /* written below */
        if (r && !with_added && !r->data)
            continue;
        if (m->value->type != GOUT_INT || m->value->v.i < 0) {
            gw_fail(g, ANIM_ERR_INVALID, "%s: not an accessor index", actx);
            return NULL;
        }
        bool position = m->key_len == 8 && memcmp(m->key, "POSITION", 8) == 0;
        int64_t a = gathered(g, (uint32_t)m->value->v.i, o, position, actx);
        if (a < 0)
            return NULL;
        char *key = anim_arena_strndup(g->b.arena, m->key, m->key_len);
        gout_set(&g->b, out, key, gout_uint(&g->b, (uint64_t)a));
    }
    for (uint32_t i = 0; with_added && i < o->attribute_count; i++) {
        const anim_gltf_attribute_data *r = &o->attributes[i];
        if (!r->data)
            continue;
        int64_t a = from_array(g, o->vertex_count, r->component_type, r->components,
                               r->normalized, r->data, GW_TARGET_ARRAY_BUFFER,
                               strcmp(r->name, "POSITION") == 0);
        if (a < 0)
            return NULL;
        gout_set(&g->b, out, r->name, gout_uint(&g->b, (uint64_t)a));
    }
    gout_sort_members(out);
    return out;
}

int gw_write_override(gw *g, gout *prim, const anim_gltf_prim_override *o, const char *ctx)
{
    gout *attrs = gout_get(prim, "attributes");
    /* Sorted, so the buffer's order does not follow the source's keys. */
    gout_sort_members(attrs);
    gout *map = rewrite_map(g, attrs, o, true, ctx);
    if (!map)
        return -1;
    gout_set(&g->b, prim, "attributes", map);
    gout *targets = gout_get(prim, "targets");
    for (uint32_t t = 0; targets && targets->type == GOUT_ARRAY && t < targets->count; t++) {
        char tctx[96];
        snprintf(tctx, sizeof tctx, "%s target %u", ctx, t);
        gout_sort_members(targets->v.items[t]);
        gout *tm = rewrite_map(g, targets->v.items[t], o, false, tctx);
        if (!tm)
            return -1;
        targets->v.items[t] = tm;
    }
    /* UNSIGNED_SHORT when every written vertex fits below the 65535 that
     * strip restart reserves; the file gets smaller, the values equal. */
    bool narrow = o->vertex_count <= 65535;
    int64_t a;
    if (narrow) {
        uint16_t *idx = malloc((o->index_count ? o->index_count : 1) * sizeof *idx);
        if (!idx)
            return gw_fail(g, ANIM_ERR_NOMEM, "out of memory");
        for (uint32_t k = 0; k < o->index_count; k++)
            idx[k] = (uint16_t)o->indices[k];
        a = from_array(g, o->index_count, ANIM_GLTF_UNSIGNED_SHORT, 1, false, idx,
                       GW_TARGET_ELEMENT_ARRAY_BUFFER, false);
        free(idx);
    } else {
        a = from_array(g, o->index_count, ANIM_GLTF_UNSIGNED_INT, 1, false, o->indices,
                       GW_TARGET_ELEMENT_ARRAY_BUFFER, false);
    }
    if (a < 0)
        return -1;
    gout_set(&g->b, prim, "indices", gout_uint(&g->b, (uint64_t)a));
    return g->b.failed ? gw_fail(g, ANIM_ERR_NOMEM, "out of memory") : 0;
}
