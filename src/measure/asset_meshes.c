/* mesh_definitions: one record per source mesh with at least
 * one measurable primitive, primitives in source order.
 *
 * A primitive is measured when it is a triangle list (mode 4) with a
 * non-empty POSITION accessor; points, lines, strips and fans are left out
 * (their slot stays a gap in primitive_index) because the mesh model is
 * triangle-only and would misread them. Stored positions count once
 * each, indexed or not; boxes and centroids use finite rows only. Skin
 * statistics use the paired primary JOINTS_0 / WEIGHTS_0 set; secondary
 * sets are presence evidence only. */
#include "measure/asset_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/json.h"

typedef struct bounds {
    double min[3], max[3];
    double sum[3];
    uint64_t count;
} bounds;

static void bounds_init(bounds *b)
{
    for (int i = 0; i < 3; i++) {
        b->min[i] = INFINITY;
        b->max[i] = -INFINITY;
        b->sum[i] = 0.0;
    }
    b->count = 0;
}

static void bounds_add(bounds *b, const double *p)
{
    for (int i = 0; i < 3; i++) {
        b->min[i] = fmin(b->min[i], p[i]);
        b->max[i] = fmax(b->max[i], p[i]);
        b->sum[i] += p[i];
    }
    b->count++;
}

static void bounds_finish(const bounds *b, bool *has, anim_aabb *box, float *centroid)
{
    *has = b->count > 0;
    if (!*has)
        return;
    for (int i = 0; i < 3; i++) {
        box->min[i] = (float)b->min[i];
        box->max[i] = (float)b->max[i];
        centroid[i] = (float)(b->sum[i] / (double)b->count);
    }
}

bool asset_primitive_is_measured(const anim_source *src, const anim_primitive *prim)
{
    return prim->mode == 4 && prim->position != ANIM_NONE &&
           src->accessors[prim->position].count > 0;
}

double *asset_read_accessor(const anim_source *src, uint32_t accessor, anim_error *err)
{
    const anim_accessor *a = &src->accessors[accessor];
    size_t n;
    if (!anim_size_mul(a->count, a->components ? a->components : 1, &n) ||
        !anim_size_mul(n, sizeof(double), &n)) {
        anim_error_set(err, ANIM_ERR_LIMIT, "accessor %u is too large to decode", accessor);
        return NULL;
    }
    double *out = malloc(n ? n : 1);
    if (!out) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (anim_accessor_read_f64(src, accessor, out, err)) {
        free(out);
        return NULL;
    }
    return out;
}

/* The JSON object of mesh m primitive p (the loader validated the shape). */
static const anim_json_value *primitive_json(const anim_source *src, uint32_t m, uint32_t p)
{
    const anim_json_value *meshes = anim_json_get(src->root, "meshes");
    if (!meshes || anim_json_count(meshes) <= m)
        return NULL;
    const anim_json_value *prims = anim_json_get(anim_json_item(meshes, m), "primitives");
    if (!prims || anim_json_count(prims) <= p)
        return NULL;
    return anim_json_item(prims, p);
}

/* "JOINTS_n" / "WEIGHTS_n" with decimal n >= 1: sets *set, *is_joints. */
static bool influence_key(const char *key, size_t len, uint32_t *set, bool *is_joints)
{
    size_t prefix;
    if (len > 7 && memcmp(key, "JOINTS_", 7) == 0) {
        prefix = 7;
        *is_joints = true;
    } else if (len > 8 && memcmp(key, "WEIGHTS_", 8) == 0) {
        prefix = 8;
        *is_joints = false;
    } else {
        return false;
    }
    uint64_t n = 0;
    for (size_t i = prefix; i < len; i++) {
        if (key[i] < '0' || key[i] > '9')
            return false;
        n = n * 10 + (uint64_t)(key[i] - '0');
        if (n > UINT32_MAX)
            return false;
    }
    *set = (uint32_t)n;
    return n >= 1;
}

static bool has_set(const anim_influence_set_measurements *sets, uint32_t count, uint32_t set)
{
    for (uint32_t i = 0; i < count; i++)
        if (sets[i].set_index == set)
            return true;
    return false;
}

static anim_influence_set_measurements *find_or_add_set(anim_influence_set_measurements *sets,
                                                        uint32_t *count, uint32_t set_index)
{
    uint32_t i = 0;
    while (i < *count && sets[i].set_index < set_index)
        i++;
    if (i < *count && sets[i].set_index == set_index)
        return &sets[i];
    memmove(&sets[i + 1], &sets[i], (*count - i) * sizeof *sets);
    memset(&sets[i], 0, sizeof *sets);
    sets[i].set_index = set_index;
    (*count)++;
    return &sets[i];
}

/* Merges one primitive's secondary influence declarations into the mesh's
 * ascending set list. Zero-count accessors count as absent. */
static int collect_influence_sets(const anim_source *src, const anim_json_value *prim_obj,
                                  anim_arena *arena, anim_mesh_measurements *mm,
                                  uint32_t *capacity, anim_error *err)
{
    const anim_json_value *attrs = prim_obj ? anim_json_get(prim_obj, "attributes") : NULL;
    size_t n = attrs ? anim_json_count(attrs) : 0;
    /* This primitive's own sides, to detect unpaired declarations on it. */
    anim_influence_set_measurements local[64];
    uint32_t local_count = 0;
    for (size_t i = 0; i < n; i++) {
        const anim_json_member *mem = anim_json_member_at(attrs, i);
        uint32_t set;
        bool is_joints;
        if (!influence_key(mem->key, anim_json_key_len(mem), &set, &is_joints))
            continue;
        if (!anim_json_is_integer(&mem->value))
            continue;
        int64_t acc = anim_json_integer(&mem->value);
        if (acc < 0 || acc >= (int64_t)src->accessor_count || src->accessors[acc].count == 0)
            continue;
        if (local_count == 64 && !has_set(local, local_count, set))
            continue; /* absurd attribute lists: the first 64 sets are kept */
        anim_influence_set_measurements *e = find_or_add_set(local, &local_count, set);
        if (is_joints)
            e->joints_present = true;
        else
            e->weights_present = true;
    }
    for (uint32_t i = 0; i < local_count; i++) {
        if (mm->additional_influence_set_count == *capacity) {
            uint32_t cap = *capacity ? *capacity * 2 : 4;
            anim_influence_set_measurements *grown = anim_arena_calloc(arena, cap, sizeof *grown);
            if (!grown)
                return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
            if (mm->additional_influence_set_count)
                memcpy(grown, mm->additional_influence_sets,
                       mm->additional_influence_set_count * sizeof *grown);
            mm->additional_influence_sets = grown;
            *capacity = cap;
        }
        anim_influence_set_measurements *e = find_or_add_set(
            mm->additional_influence_sets, &mm->additional_influence_set_count, local[i].set_index);
        e->joints_present |= local[i].joints_present;
        e->weights_present |= local[i].weights_present;
        e->joints_without_weights_present |= local[i].joints_present && !local[i].weights_present;
        e->weights_without_joints_present |= local[i].weights_present && !local[i].joints_present;
    }
    return 0;
}

static int measure_weights(const anim_source *src, const anim_primitive *prim,
                           anim_mesh_measurements *mm, anim_error *err)
{
    if (prim->joints0 == ANIM_NONE || prim->weights0 == ANIM_NONE ||
        src->accessors[prim->joints0].count == 0 || src->accessors[prim->weights0].count == 0)
        return 0;
    double *w = asset_read_accessor(src, prim->weights0, err);
    if (!w)
        return -1;
    uint32_t count = src->accessors[prim->weights0].count;
    for (uint32_t v = 0; v < count; v++) {
        uint32_t influences = 0;
        double sum = 0.0;
        for (int k = 0; k < 4; k++) {
            /* Weights are binary32 on the wire (or dequantized to it). */
            float f = (float)w[(size_t)v * 4 + (size_t)k];
            if (f > 0.0f)
                influences++;
            sum += (double)f;
        }
        if (influences > mm->max_joints_per_vertex)
            mm->max_joints_per_vertex = influences;
        if (isfinite(sum)) {
            if (!mm->has_weight_sums) {
                mm->weight_sum_min = mm->weight_sum_max = sum;
                mm->has_weight_sums = true;
            } else {
                mm->weight_sum_min = fmin(mm->weight_sum_min, sum);
                mm->weight_sum_max = fmax(mm->weight_sum_max, sum);
            }
        }
    }
    free(w);
    return 0;
}

static int measure_primitive(const anim_source *src, const anim_primitive *prim,
                             anim_primitive_measurements *pm, bounds *mesh_bounds,
                             anim_error *err)
{
    double *pos = asset_read_accessor(src, prim->position, err);
    if (!pos)
        return -1;
    uint32_t count = src->accessors[prim->position].count;
    bounds b;
    bounds_init(&b);
    for (uint32_t v = 0; v < count; v++) {
        const double *p = pos + (size_t)v * 3;
        if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]))
            continue;
        bounds_add(&b, p);
        bounds_add(mesh_bounds, p);
    }
    free(pos);
    pm->vertex_count = count;
    pm->finite_vertex_count = b.count;
    bounds_finish(&b, &pm->has_geometry, &pm->geometry_aabb, pm->geometry_centroid);
    return 0;
}

int asset_measure_meshes(const anim_asset *asset, anim_arena *arena, anim_asset_measurements *out,
                         anim_error *err)
{
    const anim_doc *doc = &asset->doc;
    const anim_source *src = &asset->source;
    out->meshes = anim_arena_calloc(arena, doc->mesh_count ? doc->mesh_count : 1,
                                    sizeof *out->meshes);
    if (!out->meshes)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    out->mesh_count = 0;
    for (uint32_t m = 0; m < doc->mesh_count; m++) {
        const anim_mesh *mesh = &doc->meshes[m];
        uint32_t kept = 0;
        for (uint32_t p = 0; p < mesh->primitive_count; p++)
            if (asset_primitive_is_measured(src, &mesh->primitives[p]))
                kept++;
        if (kept == 0)
            continue;
        anim_mesh_measurements *mm = &out->meshes[out->mesh_count++];
        mm->mesh_index = m;
        mm->name = mesh->name ? mesh->name : "mesh";
        mm->primitives = anim_arena_calloc(arena, kept, sizeof *mm->primitives);
        if (!mm->primitives)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        uint32_t set_capacity = 0;
        bounds mb;
        bounds_init(&mb);
        for (uint32_t p = 0; p < mesh->primitive_count; p++) {
            const anim_primitive *prim = &mesh->primitives[p];
            if (!asset_primitive_is_measured(src, prim))
                continue;
            anim_primitive_measurements *pm = &mm->primitives[mm->primitive_count++];
            pm->primitive_index = p;
            pm->material_index = prim->material;
            if (measure_primitive(src, prim, pm, &mb, err) ||
                measure_weights(src, prim, mm, err) ||
                collect_influence_sets(src, primitive_json(src, m, p), arena, mm, &set_capacity,
                                       err)) {
                anim_error_prefix(err, "mesh %u primitive %u", m, p);
                return -1;
            }
            mm->vertex_count += pm->vertex_count;
        }
        bounds_finish(&mb, &mm->has_geometry, &mm->geometry_aabb, mm->geometry_centroid);
    }
    return 0;
}
