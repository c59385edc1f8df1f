/* Buffer views and accessors: parsed strictly, laid out against the bytes
 * that actually resolved, and decoded exactly (normalized integers per the
 * glTF rules, sparse substitution applied). */
#include "io/gltf/gltf_internal.h"
#include "io/json/json_internal.h"

#include <stdio.h>
#include <string.h>

size_t anim_gltf_component_size(uint32_t component_type)
{
    switch (component_type) {
    case ANIM_GLTF_BYTE:
    case ANIM_GLTF_UNSIGNED_BYTE:
        return 1;
    case ANIM_GLTF_SHORT:
    case ANIM_GLTF_UNSIGNED_SHORT:
        return 2;
    case ANIM_GLTF_UNSIGNED_INT:
    case ANIM_GLTF_FLOAT:
        return 4;
    default:
        return 0;
    }
}

const char *anim_gltf_component_name(uint32_t component_type)
{
    switch (component_type) {
    case ANIM_GLTF_BYTE: return "BYTE";
    case ANIM_GLTF_UNSIGNED_BYTE: return "UNSIGNED_BYTE";
    case ANIM_GLTF_SHORT: return "SHORT";
    case ANIM_GLTF_UNSIGNED_SHORT: return "UNSIGNED_SHORT";
    case ANIM_GLTF_UNSIGNED_INT: return "UNSIGNED_INT";
    case ANIM_GLTF_FLOAT: return "FLOAT";
    default: return NULL;
    }
}

static const struct {
    const char *name;
    uint32_t components;
} accessor_types[] = {
    {"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4},
    {"MAT2", 4},   {"MAT3", 9}, {"MAT4", 16},
};

int gltf_accessor_type_code(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof accessor_types / sizeof *accessor_types; i++)
        if (len == strlen(accessor_types[i].name) && memcmp(name, accessor_types[i].name, len) == 0)
            return (int)i + 1;
    return 0;
}

/* Element size with glTF's column padding for small matrix components. */
size_t gltf_accessor_element_size(const anim_accessor *a)
{
    size_t cs = anim_gltf_component_size(a->component_type);
    if (a->type[0] == 'M') {
        size_t rows = a->components == 4 ? 2 : a->components == 9 ? 3 : 4;
        size_t col = rows * cs;
        col = (col + 3) & ~(size_t)3;
        return col * rows;
    }
    return cs * a->components;
}

/* Properties of a buffer view or accessor, gathered in one walk over the
 * object's members (a large library has hundreds of thousands of these, and
 * a lookup per property was most of the cost), then checked in the order
 * the messages were defined for. Unknown members are ignored. */
enum {
    P_BUFFER, P_BUFFER_VIEW, P_BYTE_OFFSET, P_BYTE_LENGTH, P_BYTE_STRIDE, P_COMPONENT_TYPE,
    P_COUNT, P_NORMALIZED, P_TYPE, P_MIN, P_MAX, P_SPARSE, P_KEYS
};

static int key_slot(const char *k, size_t n)
{
#define IS(lit) (n == sizeof lit - 1 && memcmp(k, lit, sizeof lit - 1) == 0)
    switch (n) {
    case 3:
        return IS("min") ? P_MIN : IS("max") ? P_MAX : -1;
    case 4:
        return IS("type") ? P_TYPE : -1;
    case 5:
        return IS("count") ? P_COUNT : -1;
    case 6:
        return IS("buffer") ? P_BUFFER : IS("sparse") ? P_SPARSE : -1;
    case 10:
        return IS("bufferView") ? P_BUFFER_VIEW : IS("byteOffset") ? P_BYTE_OFFSET
               : IS("byteLength") ? P_BYTE_LENGTH
               : IS("byteStride") ? P_BYTE_STRIDE
               : IS("normalized") ? P_NORMALIZED : -1;
    case 13:
        return IS("componentType") ? P_COMPONENT_TYPE : -1;
    default:
        return -1;
    }
#undef IS
}

static void gather(const anim_json_value *obj, const anim_json_value **slots)
{
    for (int k = 0; k < P_KEYS; k++)
        slots[k] = NULL;
    const anim_json_member *m = obj->u.members;
    for (uint32_t i = 0; i < obj->len; i++) {
        int k = key_slot(m[i].key, m[i].value.key_len);
        if (k >= 0)
            slots[k] = &m[i].value; /* keys are unique: the parser refuses repeats */
    }
}

static int parse_view(const anim_json_value *obj, uint32_t index, const anim_source *src,
                      anim_buffer_view *v, anim_error *err)
{
    char ctx[48];
    const anim_json_value *p[P_KEYS];
    if (obj->type != ANIM_JSON_OBJECT)
        return gltf_require_object(obj, gltf_format_ctx(ctx, sizeof ctx, "buffer view ", index),
                                   err);
    gather(obj, p);
    const char *text = src->json_text;
    uint64_t off, len, stride;
    /* Fast path: the common shape needs no message context. */
    if (gltf_value_index(text, p[P_BUFFER], "buffer", "", true, src->buffer_count, "buffer",
                         &v->buffer, NULL) ||
        gltf_value_u64(text, p[P_BYTE_OFFSET], "byteOffset", "", false, 0, &off, NULL) ||
        gltf_value_u64(text, p[P_BYTE_LENGTH], "byteLength", "", true, 0, &len, NULL) ||
        gltf_value_u64(text, p[P_BYTE_STRIDE], "byteStride", "", false, 0, &stride, NULL)) {
        gltf_format_ctx(ctx, sizeof ctx, "buffer view ", index);
        if (gltf_value_index(text, p[P_BUFFER], "buffer", ctx, true, src->buffer_count,
                             "buffer", &v->buffer, err) ||
            gltf_value_u64(text, p[P_BYTE_OFFSET], "byteOffset", ctx, false, 0, &off, err) ||
            gltf_value_u64(text, p[P_BYTE_LENGTH], "byteLength", ctx, true, 0, &len, err) ||
            gltf_value_u64(text, p[P_BYTE_STRIDE], "byteStride", ctx, false, 0, &stride, err))
            return -1;
    }
    if (p[P_BYTE_STRIDE] && (stride < 4 || stride > 252 || stride % 4 != 0))
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: byteStride %llu is not a multiple of 4 in 4..252",
                              gltf_format_ctx(ctx, sizeof ctx, "buffer view ", index),
                              (unsigned long long)stride);
    if (len == 0)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: byteLength must be at least 1",
                              gltf_format_ctx(ctx, sizeof ctx, "buffer view ", index));
    v->byte_offset = (size_t)off;
    v->byte_length = (size_t)len;
    v->byte_stride = (uint32_t)stride;
    return 0;
}

/* Accessor type by name (NULL when unknown). */
static const char *accessor_type(const anim_json_value *t, uint32_t *components)
{
    for (size_t i = 0; i < sizeof accessor_types / sizeof *accessor_types; i++)
        if (gltf_str_eq(t, accessor_types[i].name, strlen(accessor_types[i].name))) {
            *components = accessor_types[i].components;
            return accessor_types[i].name;
        }
    return NULL;
}

/* min / max: components numbers into arena memory. */
static int read_bounds(const anim_json_value *v, const char *key, const char *ctx,
                       uint32_t components, anim_arena *arena, const double **out, bool *present,
                       anim_error *err)
{
    double tmp[16];
    *out = NULL;
    if (gltf_value_numbers(v, key, ctx, components, tmp, present, err))
        return -1;
    if (!*present)
        return 0;
    double *d = anim_arena_alloc(arena, components * sizeof *d);
    if (!d)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    memcpy(d, tmp, components * sizeof *d);
    *out = d;
    return 0;
}

static int parse_sparse(const anim_json_value *sparse, uint32_t index, const anim_source *src,
                        anim_accessor *a, anim_error *err)
{
    const char *text = src->json_text;
    char sctx[64];
    snprintf(sctx, sizeof sctx, "accessor %u sparse", index);
    uint64_t scount, ioff, voff, ictype;
    const anim_json_value *ind = anim_json_get(sparse, "indices");
    const anim_json_value *val = anim_json_get(sparse, "values");
    if (gltf_require_object(sparse, sctx, err) ||
        gltf_get_u64(text, sparse, "count", sctx, true, 0, &scount, err))
        return -1;
    if (!ind || !val)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: missing \"%s\"", sctx,
                              ind ? "values" : "indices");
    if (gltf_require_object(ind, sctx, err) || gltf_require_object(val, sctx, err) ||
        gltf_get_index(text, ind, "bufferView", sctx, true, src->view_count, "buffer view",
                       &a->sparse_indices_view, err) ||
        gltf_get_u64(text, ind, "byteOffset", sctx, false, 0, &ioff, err) ||
        gltf_get_u64(text, ind, "componentType", sctx, true, 0, &ictype, err) ||
        gltf_get_index(text, val, "bufferView", sctx, true, src->view_count, "buffer view",
                       &a->sparse_values_view, err) ||
        gltf_get_u64(text, val, "byteOffset", sctx, false, 0, &voff, err))
        return -1;
    if (ictype != ANIM_GLTF_UNSIGNED_BYTE && ictype != ANIM_GLTF_UNSIGNED_SHORT &&
        ictype != ANIM_GLTF_UNSIGNED_INT)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: indices componentType %llu is not UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT",
                              sctx, (unsigned long long)ictype);
    if (scount > a->count)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: count %llu exceeds the accessor's count %u", sctx,
                              (unsigned long long)scount, a->count);
    a->has_sparse = true;
    a->sparse_count = (uint32_t)scount;
    a->sparse_indices_offset = (size_t)ioff;
    a->sparse_indices_component_type = (uint32_t)ictype;
    a->sparse_values_offset = (size_t)voff;
    return 0;
}

static int parse_accessor(const anim_json_value *obj, uint32_t index, const anim_source *src,
                          anim_arena *arena, anim_accessor *a, anim_error *err)
{
    char ctx[48];
    const anim_json_value *p[P_KEYS];
    if (obj->type != ANIM_JSON_OBJECT)
        return gltf_require_object(obj, gltf_format_ctx(ctx, sizeof ctx, "accessor ", index),
                                   err);
    gather(obj, p);
    const char *text = src->json_text;
    uint64_t off, count, ctype;
    /* Fast path without a message context; on any fault, redo with one. */
    if (gltf_value_index(text, p[P_BUFFER_VIEW], "bufferView", "", false, src->view_count,
                         "buffer view", &a->buffer_view, NULL) ||
        gltf_value_u64(text, p[P_BYTE_OFFSET], "byteOffset", "", false, 0, &off, NULL) ||
        gltf_value_u64(text, p[P_COMPONENT_TYPE], "componentType", "", true, 0, &ctype, NULL) ||
        gltf_value_u64(text, p[P_COUNT], "count", "", true, 0, &count, NULL) ||
        gltf_value_bool(p[P_NORMALIZED], "normalized", "", false, &a->normalized, NULL) ||
        (p[P_TYPE] && gltf_value_string(p[P_TYPE], "type", "", NULL))) {
        gltf_format_ctx(ctx, sizeof ctx, "accessor ", index);
        if (gltf_value_index(text, p[P_BUFFER_VIEW], "bufferView", ctx, false, src->view_count,
                             "buffer view", &a->buffer_view, err) ||
            gltf_value_u64(text, p[P_BYTE_OFFSET], "byteOffset", ctx, false, 0, &off, err) ||
            gltf_value_u64(text, p[P_COMPONENT_TYPE], "componentType", ctx, true, 0, &ctype,
                           err) ||
            gltf_value_u64(text, p[P_COUNT], "count", ctx, true, 0, &count, err) ||
            gltf_value_bool(p[P_NORMALIZED], "normalized", ctx, false, &a->normalized, err) ||
            (p[P_TYPE] && gltf_value_string(p[P_TYPE], "type", ctx, err)))
            return -1;
    }
    const anim_json_value *type = p[P_TYPE];
    if (!type)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: missing required \"type\"",
                              gltf_format_ctx(ctx, sizeof ctx, "accessor ", index));
    if (ctype > UINT32_MAX || !anim_gltf_component_name((uint32_t)ctype))
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: componentType %llu is not a glTF component type",
                              gltf_format_ctx(ctx, sizeof ctx, "accessor ", index),
                              (unsigned long long)ctype);
    if (count > UINT32_MAX)
        return anim_error_set(err, ANIM_ERR_LIMIT, "%s: count %llu is too large",
                              gltf_format_ctx(ctx, sizeof ctx, "accessor ", index),
                              (unsigned long long)count);
    a->component_type = (uint32_t)ctype;
    a->count = (uint32_t)count;
    a->byte_offset = (size_t)off;
    a->type = accessor_type(type, &a->components);
    if (!a->type)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: type \"%.*s\" is not a glTF accessor type",
                              gltf_format_ctx(ctx, sizeof ctx, "accessor ", index),
                              (int)type->len, type->u.string);
    if (a->normalized && (a->component_type == ANIM_GLTF_FLOAT ||
                          a->component_type == ANIM_GLTF_UNSIGNED_INT))
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: \"normalized\" is not allowed for %s components",
                              gltf_format_ctx(ctx, sizeof ctx, "accessor ", index),
                              anim_gltf_component_name(a->component_type));
    if (p[P_MIN] || p[P_MAX]) {
        gltf_format_ctx(ctx, sizeof ctx, "accessor ", index);
        if (read_bounds(p[P_MIN], "min", ctx, a->components, arena, &a->min, &a->has_min, err) ||
            read_bounds(p[P_MAX], "max", ctx, a->components, arena, &a->max, &a->has_max, err))
            return -1;
    }
    if (!p[P_SPARSE])
        return 0;
    return parse_sparse(p[P_SPARSE], index, src, a, err);
}

/* Fills views and accessors from the scan records. Every check of
 * parse_view and parse_accessor is made here too, in the same terms; at
 * the first fault (or when the records do not cover both arrays) returns 1
 * without touching src, and the caller reads the tree, which reports the
 * fault exactly. -1 only when out of memory. */
static int views_and_accessors_from_scan(anim_source *src, anim_arena *arena,
                                         const gltf_scan *scan)
{
    const anim_json_value *vv = json_get_raw(src->root, "bufferViews", 11);
    const anim_json_value *av = json_get_raw(src->root, "accessors", 9);
    if ((vv && (!(vv->flags & ANIM_JSON_F_DEFERRED) || !scan->views_done)) ||
        (av && (!(av->flags & ANIM_JSON_F_DEFERRED) || !scan->accessors_done)))
        return 1;
    size_t view_count = vv ? scan->views_count : 0;
    size_t accessor_count = av ? scan->accessors_count : 0;
    if (view_count > GLTF_MAX_ARRAY || accessor_count > GLTF_MAX_ARRAY)
        return 1;
    anim_buffer_view *views = gltf_table_calloc(arena, view_count, sizeof *views);
    anim_accessor *accessors = gltf_table_calloc(arena, accessor_count, sizeof *accessors);
    if (!views || !accessors)
        return -1;
    for (size_t i = 0; i < view_count; i++) {
        const gltf_view_rec *r = &scan->views[i];
        anim_buffer_view *v = &views[i];
        uint64_t stride = r->has & VR_STRIDE ? r->byte_stride : 0;
        if (!(r->has & VR_BUFFER) || r->buffer >= src->buffer_count || !(r->has & VR_LENGTH) ||
            ((r->has & VR_STRIDE) && (stride < 4 || stride > 252 || stride % 4 != 0)) ||
            r->byte_length == 0)
            return 1;
        v->buffer = (uint32_t)r->buffer;
        v->byte_offset = (size_t)(r->has & VR_OFFSET ? r->byte_offset : 0);
        v->byte_length = (size_t)r->byte_length;
        v->byte_stride = (uint32_t)stride;
    }
    /* min / max of every accessor in one arena block. */
    double *numbers = NULL;
    if (accessor_count && scan->numbers_count) {
        numbers = anim_arena_alloc(arena, scan->numbers_count * sizeof *numbers);
        if (!numbers)
            return -1;
        memcpy(numbers, scan->numbers, scan->numbers_count * sizeof *numbers);
    }
    for (size_t i = 0; i < accessor_count; i++) {
        const gltf_accessor_rec *r = &scan->accessors[i];
        anim_accessor *a = &accessors[i];
        if (((r->has & AR_VIEW) && r->buffer_view >= view_count) || !(r->has & AR_CTYPE) ||
            !(r->has & AR_COUNT) || !(r->has & AR_TYPE) || r->component_type > UINT32_MAX ||
            !anim_gltf_component_name((uint32_t)r->component_type) || r->count > UINT32_MAX)
            return 1;
        a->buffer_view = r->has & AR_VIEW ? (uint32_t)r->buffer_view : ANIM_NONE;
        a->byte_offset = (size_t)(r->has & AR_OFFSET ? r->byte_offset : 0);
        a->component_type = (uint32_t)r->component_type;
        a->count = (uint32_t)r->count;
        a->normalized = r->normalized != 0;
        a->type = accessor_types[r->type - 1].name;
        a->components = accessor_types[r->type - 1].components;
        if (a->normalized && (a->component_type == ANIM_GLTF_FLOAT ||
                              a->component_type == ANIM_GLTF_UNSIGNED_INT))
            return 1;
        if (((r->has & AR_MIN) && r->min_n != a->components) ||
            ((r->has & AR_MAX) && r->max_n != a->components))
            return 1;
        a->has_min = (r->has & AR_MIN) != 0;
        a->has_max = (r->has & AR_MAX) != 0;
        a->min = a->has_min ? numbers + r->min_at : NULL;
        a->max = a->has_max ? numbers + r->max_at : NULL;
    }
    src->view_count = (uint32_t)view_count;
    src->accessor_count = (uint32_t)accessor_count;
    src->views = views;
    src->accessors = accessors;
    return 0;
}

int gltf_parse_views_and_accessors(anim_source *src, anim_arena *arena, const gltf_scan *scan,
                                   anim_error *err)
{
    if (scan) {
        int rc = views_and_accessors_from_scan(src, arena, scan);
        if (rc <= 0)
            return rc ? anim_error_set(err, ANIM_ERR_NOMEM, "out of memory") : 0;
    }
    const anim_json_value *views, *accessors;
    if (gltf_get_array(src->root, "bufferViews", "glTF root", &views, err) ||
        gltf_get_array(src->root, "accessors", "glTF root", &accessors, err))
        return -1;
    src->view_count = views ? (uint32_t)views->len : 0;
    src->accessor_count = accessors ? (uint32_t)accessors->len : 0;
    src->views = gltf_table_calloc(arena, src->view_count, sizeof *src->views);
    src->accessors = gltf_table_calloc(arena, src->accessor_count, sizeof *src->accessors);
    if (!src->views || !src->accessors)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < src->view_count; i++)
        if (parse_view(&views->u.items[i], i, src, &src->views[i], err))
            return -1;
    for (uint32_t i = 0; i < src->accessor_count; i++)
        if (parse_accessor(&accessors->u.items[i], i, src, arena, &src->accessors[i], err))
            return -1;
    return 0;
}

/* Checks that [offset, offset + need) lies inside buffer view `view` and that
 * the view lies inside its buffer's declared and resolved bytes. */
static int check_view_span(const anim_source *src, uint32_t accessor, uint32_t view_index,
                           size_t offset, size_t need, const char *what, const char *ctx,
                           anim_error *err)
{
    const anim_buffer_view *v = &src->views[view_index];
    const anim_buffer *b = &src->buffers[v->buffer];
    size_t view_end;
    if (!anim_size_add(v->byte_offset, v->byte_length, &view_end))
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: accessor %u reads its %s from buffer view %u, whose byteOffset %zu plus byteLength %zu is a byte extent that overflows",
                              ctx, accessor, what, view_index, v->byte_offset, v->byte_length);
    if (view_end > b->byte_length)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: accessor %u reads its %s from buffer view %u, whose byte extent %zu..%zu exceeds buffer %u's byteLength %zu",
                              ctx, accessor, what, view_index, v->byte_offset, view_end, v->buffer,
                              b->byte_length);
    if (view_end > b->data_length)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: accessor %u reads its %s from buffer view %u, whose byte extent %zu..%zu exceeds the %zu bytes that resolved for buffer %u",
                              ctx, accessor, what, view_index, v->byte_offset, view_end,
                              b->data_length, v->buffer);
    size_t end;
    if (!anim_size_add(offset, need, &end) || end > v->byte_length)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: accessor %u needs %zu bytes of %s at byteOffset %zu of buffer view %u, which is %zu bytes long",
                              ctx, accessor, need, what, offset, view_index, v->byte_length);
    return 0;
}

int gltf_accessor_check_layout(const anim_source *src, uint32_t index, const char *ctx,
                               anim_error *err)
{
    const anim_accessor *a = &src->accessors[index];
    size_t elem = gltf_accessor_element_size(a);
    if (a->buffer_view != ANIM_NONE && a->count > 0) {
        const anim_buffer_view *v = &src->views[a->buffer_view];
        size_t stride = v->byte_stride ? v->byte_stride : elem;
        if (v->byte_stride && v->byte_stride < elem)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: accessor %u reads its elements from buffer view %u, whose byteStride %u is shorter than its %zu-byte element",
                                  ctx, index, a->buffer_view, v->byte_stride, elem);
        size_t need;
        if (!anim_size_mul((size_t)a->count - 1, stride, &need) ||
            !anim_size_add(need, elem, &need))
            return anim_error_set(err, ANIM_ERR_INVALID, "%s: accessor %u extent overflows", ctx,
                                  index);
        if (check_view_span(src, index, a->buffer_view, a->byte_offset, need, "elements", ctx,
                            err))
            return -1;
    }
    if (!a->has_sparse)
        return 0;
    if (a->sparse_count == 0)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: accessor %u has a sparse block of count 0", ctx, index);
    size_t isz = anim_gltf_component_size(a->sparse_indices_component_type);
    size_t ineed, vneed;
    if (!anim_size_mul(a->sparse_count, isz, &ineed) ||
        !anim_size_mul(a->sparse_count, elem, &vneed))
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: accessor %u sparse extent overflows",
                              ctx, index);
    if (check_view_span(src, index, a->sparse_indices_view, a->sparse_indices_offset, ineed,
                        "sparse indices", ctx, err) ||
        check_view_span(src, index, a->sparse_values_view, a->sparse_values_offset, vneed,
                        "sparse values", ctx, err))
        return -1;
    /* Indices must be strictly increasing and inside the accessor. */
    const anim_buffer_view *iv = &src->views[a->sparse_indices_view];
    const uint8_t *ip = src->buffers[iv->buffer].data + iv->byte_offset + a->sparse_indices_offset;
    uint64_t prev = 0;
    for (uint32_t i = 0; i < a->sparse_count; i++) {
        uint64_t idx = isz == 1 ? ip[i] : isz == 2 ? (uint64_t)(ip[2 * i] | ip[2 * i + 1] << 8)
                                                   : (uint64_t)ip[4 * i] | (uint64_t)ip[4 * i + 1] << 8 |
                                                         (uint64_t)ip[4 * i + 2] << 16 |
                                                         (uint64_t)ip[4 * i + 3] << 24;
        if (idx >= a->count || (i > 0 && idx <= prev))
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: accessor %u sparse index %u is %llu, which is %s", ctx, index,
                                  i, (unsigned long long)idx,
                                  idx >= a->count ? "outside the accessor" : "not strictly increasing");
        prev = idx;
    }
    return 0;
}

/* One component as float per the glTF rules (normalized integers map to
 * [-1, 1] or [0, 1]; the signed forms clamp the most negative value). */
static float component_float(const uint8_t *p, uint32_t ctype, bool normalized)
{
    switch (ctype) {
    case ANIM_GLTF_FLOAT: {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    case ANIM_GLTF_BYTE: {
        float c = (float)(int8_t)p[0];
        if (!normalized)
            return c;
        float v = c / 127.0f;
        return v < -1.0f ? -1.0f : v;
    }
    case ANIM_GLTF_UNSIGNED_BYTE:
        return normalized ? (float)p[0] / 255.0f : (float)p[0];
    case ANIM_GLTF_SHORT: {
        float c = (float)(int16_t)(uint16_t)(p[0] | p[1] << 8);
        if (!normalized)
            return c;
        float v = c / 32767.0f;
        return v < -1.0f ? -1.0f : v;
    }
    case ANIM_GLTF_UNSIGNED_SHORT: {
        float c = (float)(uint16_t)(p[0] | p[1] << 8);
        return normalized ? c / 65535.0f : c;
    }
    case ANIM_GLTF_UNSIGNED_INT: {
        uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24;
        return (float)u;
    }
    default:
        return 0.0f;
    }
}

static bool host_little_endian(void)
{
    const uint16_t probe = 1;
    uint8_t first;
    memcpy(&first, &probe, 1);
    return first == 1;
}

/* Decodes one element (with matrix column padding) into out. */
static void decode_element(const anim_accessor *a, const uint8_t *p, float *out)
{
    size_t cs = anim_gltf_component_size(a->component_type);
    if (a->type[0] == 'M') {
        size_t rows = a->components == 4 ? 2 : a->components == 9 ? 3 : 4;
        size_t col = ((rows * cs) + 3) & ~(size_t)3;
        for (size_t c = 0; c < rows; c++)
            for (size_t r = 0; r < rows; r++)
                out[c * rows + r] = component_float(p + c * col + r * cs, a->component_type,
                                                    a->normalized);
        return;
    }
    for (uint32_t k = 0; k < a->components; k++)
        out[k] = component_float(p + k * cs, a->component_type, a->normalized);
}

int gltf_accessor_check_implicit(const anim_source *src, uint32_t index, size_t value_bytes,
                                 const char *ctx, anim_error *err)
{
    const anim_accessor *a = &src->accessors[index];
    if (a->buffer_view != ANIM_NONE)
        return 0;
    size_t n, bytes;
    bool fits = anim_size_mul(a->count, a->components ? a->components : 1, &n) &&
                anim_size_mul(n, value_bytes, &bytes);
    if (fits && bytes <= anim_limits_get(&src->limits, ANIM_LIMIT_IMPLICIT_ACCESSOR))
        return 0;
    char what[ANIM_ERROR_MESSAGE_MAX / 2];
    snprintf(what, sizeof what,
             "%.300s%saccessor %u has no buffer view; its count %u needs %s%zu bytes of decoded "
             "values",
             ctx ? ctx : "", ctx ? ": " : "", index, a->count, fits ? "" : "more than ",
             fits ? bytes : SIZE_MAX);
    return anim_limit_error(err, &src->limits, ANIM_LIMIT_IMPLICIT_ACCESSOR, what);
}

const float *gltf_accessor_floats(const anim_source *src, anim_arena *arena, uint32_t index,
                                  bool *borrowed, anim_error *err)
{
    const anim_accessor *a = &src->accessors[index];
    size_t elem = gltf_accessor_element_size(a);
    *borrowed = false;
    const uint8_t *base = NULL;
    size_t stride = elem;
    if (a->buffer_view != ANIM_NONE) {
        const anim_buffer_view *v = &src->views[a->buffer_view];
        base = src->buffers[v->buffer].data + v->byte_offset + a->byte_offset;
        stride = v->byte_stride ? v->byte_stride : elem;
    }
    /* Zero-copy when the bytes already are packed little-endian floats. */
    if (base && !a->has_sparse && a->component_type == ANIM_GLTF_FLOAT && stride == elem &&
        a->type[0] != 'M' && ((uintptr_t)base % sizeof(float)) == 0 && host_little_endian()) {
        *borrowed = true;
        return (const float *)(const void *)base;
    }
    size_t n, bytes;
    if (!anim_size_mul(a->count, a->components, &n) || !anim_size_mul(n, sizeof(float), &bytes)) {
        anim_error_set(err, ANIM_ERR_LIMIT, "accessor %u is too large", index);
        return NULL;
    }
    /* Without a buffer view the elements are implicit zeros: nothing in the
     * file backs the count, so a few bytes of JSON could otherwise demand
     * gigabytes. Bound it before allocating. */
    if (!base && gltf_accessor_check_implicit(src, index, sizeof(float), NULL, err))
        return NULL;
    float *out = anim_arena_calloc(arena, n ? n : 1, sizeof(float));
    if (!out) {
        anim_error_set(err, ANIM_ERR_NOMEM, "accessor %u: out of memory", index);
        return NULL;
    }
    if (base)
        for (uint32_t i = 0; i < a->count; i++)
            decode_element(a, base + (size_t)i * stride, out + (size_t)i * a->components);
    if (a->has_sparse) {
        const anim_buffer_view *iv = &src->views[a->sparse_indices_view];
        const anim_buffer_view *vv = &src->views[a->sparse_values_view];
        const uint8_t *ip =
            src->buffers[iv->buffer].data + iv->byte_offset + a->sparse_indices_offset;
        const uint8_t *vp =
            src->buffers[vv->buffer].data + vv->byte_offset + a->sparse_values_offset;
        size_t isz = anim_gltf_component_size(a->sparse_indices_component_type);
        for (uint32_t i = 0; i < a->sparse_count; i++) {
            uint32_t idx = isz == 1   ? ip[i]
                           : isz == 2 ? (uint32_t)(ip[2 * i] | ip[2 * i + 1] << 8)
                                      : (uint32_t)ip[4 * i] | (uint32_t)ip[4 * i + 1] << 8 |
                                            (uint32_t)ip[4 * i + 2] << 16 |
                                            (uint32_t)ip[4 * i + 3] << 24;
            decode_element(a, vp + (size_t)i * elem, out + (size_t)idx * a->components);
        }
    }
    return out;
}

/* Doubles straight from the bytes: UNSIGNED_INT indices above 2^24 must not
 * pass through binary32. Normalized integers widen the float rule exactly. */
static double component_double(const uint8_t *p, uint32_t ctype, bool normalized)
{
    if (ctype == ANIM_GLTF_UNSIGNED_INT)
        return (double)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                        (uint32_t)p[3] << 24);
    return (double)component_float(p, ctype, normalized);
}

int anim_accessor_read_f64(const anim_source *src, uint32_t index, double *out,
                           anim_error *err)
{
    if (index >= src->accessor_count)
        return anim_error_set(err, ANIM_ERR_USAGE, "accessor %u does not exist", index);
    char ctx[48];
    snprintf(ctx, sizeof ctx, "accessor %u", index);
    if (gltf_accessor_check_layout(src, index, ctx, err))
        return -1;
    const anim_accessor *a = &src->accessors[index];
    size_t elem = gltf_accessor_element_size(a);
    size_t cs = anim_gltf_component_size(a->component_type);
    size_t n = (size_t)a->count * a->components;
    for (size_t i = 0; i < n; i++)
        out[i] = 0.0;
    if (a->type[0] == 'M' || a->has_sparse) {
        /* Padded matrices and sparse substitution: reuse the float decoder. */
        anim_arena *scratch = anim_arena_new();
        if (!scratch)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        bool borrowed;
        const float *f = gltf_accessor_floats(src, scratch, index, &borrowed, err);
        if (f)
            for (size_t i = 0; i < n; i++)
                out[i] = f[i];
        anim_arena_free(scratch);
        return f ? 0 : -1;
    }
    if (a->buffer_view == ANIM_NONE)
        return 0;
    const anim_buffer_view *v = &src->views[a->buffer_view];
    const uint8_t *base = src->buffers[v->buffer].data + v->byte_offset + a->byte_offset;
    size_t stride = v->byte_stride ? v->byte_stride : elem;
    for (uint32_t i = 0; i < a->count; i++)
        for (uint32_t k = 0; k < a->components; k++)
            out[(size_t)i * a->components + k] =
                component_double(base + (size_t)i * stride + k * cs, a->component_type,
                                 a->normalized);
    return 0;
}
