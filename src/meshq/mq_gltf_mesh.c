/* Builds an anim_mq_mesh from one glTF mesh (see mq_gltf_mesh.h for the
 * bind space). Two passes: the first reads only counts and accessor
 * shapes, so the budget is checked before anything sized by the file is
 * allocated; the second decodes. */
#include "meshq/mq_gltf_mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/json.h"
#include "animsmith/math.h"
#include "animsmith/sample.h"
#include "animsmith/strbuf.h"

const char *mq_gltf_mesh_name(const anim_asset *asset, uint32_t mesh, anim_arena *arena)
{
    const anim_mesh *m = &asset->doc.meshes[mesh];
    if (m->name)
        return m->name;
    return anim_arena_printf(arena, "#%u", mesh);
}

uint32_t mq_gltf_mesh_first_vertex(const anim_mesh *mesh, uint32_t prim)
{
    uint32_t first = 0;
    for (uint32_t p = 0; p < prim && p < mesh->primitive_count; p++)
        if (mesh->primitives[p].mode == 4)
            first += mesh->primitives[p].vertex_count;
    return first;
}

uint32_t mq_gltf_mesh_instance(const anim_asset *asset, uint32_t mesh, uint32_t *skin)
{
    const anim_doc *doc = &asset->doc;
    uint32_t first = ANIM_NONE;
    for (uint32_t node = 0; node < doc->node_count; node++) {
        const anim_bone *b = &doc->bones[doc->node_to_bone[node]];
        if (b->mesh != mesh)
            continue;
        if (b->skin != ANIM_NONE && b->skin < doc->skin_count) {
            *skin = b->skin;
            return node;
        }
        if (first == ANIM_NONE)
            first = node;
    }
    *skin = ANIM_NONE;
    return first;
}

bool mq_gltf_mesh_is_skinned(const anim_asset *asset, uint32_t mesh)
{
    uint32_t skin;
    return mq_gltf_mesh_instance(asset, mesh, &skin) != ANIM_NONE && skin != ANIM_NONE;
}

static bool is_joint(const anim_skin *skin, uint32_t node)
{
    for (uint32_t j = 0; j < skin->joint_count; j++)
        if (skin->joints[j] == node)
            return true;
    return false;
}

uint32_t mq_gltf_skin_root_joint(const anim_asset *asset, uint32_t skin_index)
{
    const anim_doc *doc = &asset->doc;
    const anim_skin *skin = &doc->skins[skin_index];
    for (uint32_t j = 0; j < skin->joint_count; j++)
        if (skin->skeleton != ANIM_NONE && skin->joints[j] == skin->skeleton)
            return j;
    for (uint32_t j = 0; j < skin->joint_count; j++) {
        uint32_t node = skin->joints[j];
        if (node >= doc->node_count)
            continue;
        uint32_t parent = doc->bones[doc->node_to_bone[node]].parent;
        if (parent == ANIM_NONE || !is_joint(skin, doc->bones[parent].node))
            return j;
    }
    return skin->joint_count ? 0 : ANIM_NONE;
}

static const char *joint_name(const anim_doc *doc, uint32_t node, anim_arena *arena)
{
    if (node < doc->node_count && doc->bones[doc->node_to_bone[node]].has_name)
        return doc->bones[doc->node_to_bone[node]].name;
    return anim_arena_printf(arena, "node %u", node);
}

uint32_t mq_gltf_skin_find_joint(const anim_asset *asset, uint32_t skin_index, const char *name)
{
    const anim_doc *doc = &asset->doc;
    const anim_skin *skin = &doc->skins[skin_index];
    for (uint32_t j = 0; j < skin->joint_count; j++) {
        uint32_t node = skin->joints[j];
        if (node < doc->node_count && doc->bones[doc->node_to_bone[node]].has_name) {
            if (strcmp(doc->bones[doc->node_to_bone[node]].name, name) == 0)
                return j;
        } else {
            char buf[32];
            snprintf(buf, sizeof buf, "node %u", node);
            if (strcmp(buf, name) == 0)
                return j;
        }
    }
    return ANIM_NONE;
}

/* An attribute's accessor index from the primitive's JSON, or ANIM_NONE. */
static uint32_t attribute(const anim_json_value *attrs, const char *key, const anim_source *src)
{
    const anim_json_value *v = attrs ? anim_json_get(attrs, key) : NULL;
    if (!v || !anim_json_is_integer(v))
        return ANIM_NONE;
    int64_t a = anim_json_integer(v);
    if (a < 0 || a >= (int64_t)src->accessor_count)
        return ANIM_NONE;
    return (uint32_t)a;
}

uint32_t mq_gltf_mesh_uvless_primitive(const anim_asset *asset, uint32_t mesh_index)
{
    const anim_source *src = &asset->source;
    if (mesh_index >= asset->doc.mesh_count)
        return ANIM_NONE;
    const anim_mesh *m = &asset->doc.meshes[mesh_index];
    const anim_json_value *meshes_json = anim_json_get(src->root, "meshes");
    const anim_json_value *mesh_json = meshes_json && mesh_index < anim_json_count(meshes_json)
                                           ? anim_json_item(meshes_json, mesh_index)
                                           : NULL;
    const anim_json_value *prims_json = mesh_json ? anim_json_get(mesh_json, "primitives") : NULL;
    for (uint32_t p = 0; p < m->primitive_count; p++) {
        if (m->primitives[p].mode != 4)
            continue;
        const anim_json_value *pj =
            prims_json && p < anim_json_count(prims_json) ? anim_json_item(prims_json, p) : NULL;
        const anim_json_value *attrs = pj ? anim_json_get(pj, "attributes") : NULL;
        if (attribute(attrs, "TEXCOORD_0", src) == ANIM_NONE)
            return p;
    }
    return ANIM_NONE;
}

typedef struct prim_plan {
    uint32_t index;
    uint32_t uv, indices;
    uint32_t sets;
    uint32_t joints[MQ_GLTF_MAX_INFLUENCE_SETS], weights[MQ_GLTF_MAX_INFLUENCE_SETS];
    uint32_t vertices, triangles;
} prim_plan;

/* Checks one accessor's shape: count elements of components each. */
static int check_accessor(const anim_source *src, uint32_t a, uint32_t count, uint32_t components,
                          const char *what, const char *mesh_name, uint32_t p, const char *key,
                          anim_error *err)
{
    const anim_accessor *acc = &src->accessors[a];
    if (acc->count != count || acc->components != components)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: mesh '%s' primitive %u: %s accessor %u holds %u %s; required %u "
                              "elements of %u components (one per POSITION)",
                              what, mesh_name, p, key, a, acc->count, acc->type ? acc->type : "?",
                              count, components);
    return 0;
}

static int plan_primitive(const anim_asset *asset, const anim_json_value *prim_json,
                          const anim_primitive *prim, uint32_t p, const char *what,
                          const char *mesh_name, prim_plan *plan, anim_error *err)
{
    const anim_source *src = &asset->source;
    memset(plan, 0, sizeof *plan);
    plan->index = p;
    const anim_json_value *attrs = prim_json ? anim_json_get(prim_json, "attributes") : NULL;
    if (prim->position == ANIM_NONE || prim->vertex_count == 0)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: mesh '%s' primitive %u has no POSITION; required one", what,
                              mesh_name, p);
    plan->vertices = prim->vertex_count;
    if (check_accessor(src, prim->position, plan->vertices, 3, what, mesh_name, p, "POSITION", err))
        return -1;
    plan->uv = attribute(attrs, "TEXCOORD_0", src);
    if (plan->uv == ANIM_NONE)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: mesh '%s' primitive %u has no TEXCOORD_0; required one: the "
                              "residual's samples are UVs",
                              what, mesh_name, p);
    if (check_accessor(src, plan->uv, plan->vertices, 2, what, mesh_name, p, "TEXCOORD_0", err))
        return -1;
    plan->indices = prim->indices;
    if (plan->indices != ANIM_NONE) {
        const anim_accessor *ia = &src->accessors[plan->indices];
        if (ia->components != 1 || ia->count % 3 != 0)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: mesh '%s' primitive %u: indices accessor %u holds %u "
                                  "elements; required scalar triples (mode 4)",
                                  what, mesh_name, p, plan->indices, ia->count);
        plan->triangles = ia->count / 3;
    } else {
        if (plan->vertices % 3 != 0)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: mesh '%s' primitive %u: %u vertices without indices; "
                                  "required a multiple of 3 (mode 4)",
                                  what, mesh_name, p, plan->vertices);
        plan->triangles = plan->vertices / 3;
    }
    for (uint32_t s = 0; s < MQ_GLTF_MAX_INFLUENCE_SETS; s++) {
        char jk[16], wk[16];
        snprintf(jk, sizeof jk, "JOINTS_%u", s);
        snprintf(wk, sizeof wk, "WEIGHTS_%u", s);
        uint32_t ja = attribute(attrs, jk, src), wa = attribute(attrs, wk, src);
        if (ja == ANIM_NONE && wa == ANIM_NONE)
            break;
        if (ja == ANIM_NONE || wa == ANIM_NONE)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: mesh '%s' primitive %u has %s without %s; required both",
                                  what, mesh_name, p, ja == ANIM_NONE ? wk : jk,
                                  ja == ANIM_NONE ? jk : wk);
        if (check_accessor(src, ja, plan->vertices, 4, what, mesh_name, p, jk, err) ||
            check_accessor(src, wa, plan->vertices, 4, what, mesh_name, p, wk, err))
            return -1;
        plan->joints[s] = ja;
        plan->weights[s] = wa;
        plan->sets++;
    }
    return 0;
}

/* Reads accessor a (count * components doubles) into out. */
static int read_doubles(const anim_source *src, uint32_t a, double *out, anim_error *err)
{
    return anim_accessor_read_f64(src, a, out, err);
}

/* The world rest matrices of every bone. */
static int rest_world(const anim_doc *doc, anim_mat4 **out)
{
    anim_trs *local = malloc((size_t)(doc->bone_count ? doc->bone_count : 1) * sizeof *local);
    anim_mat4 *model = malloc((size_t)(doc->bone_count ? doc->bone_count : 1) * sizeof *model);
    if (!local || !model) {
        free(local);
        free(model);
        return -1;
    }
    anim_pose_rest(doc, local);
    anim_pose_fk(doc, local, model, NULL);
    free(local);
    *out = model;
    return 0;
}

static int bind_of(const anim_asset *asset, mq_gltf_mesh *out, const char *what, anim_error *err)
{
    const anim_doc *doc = &asset->doc;
    anim_mat4 *world = NULL;
    if (rest_world(doc, &world))
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    anim_mat4 g = anim_mat4_identity();
    if (out->skin == ANIM_NONE) {
        if (out->node != ANIM_NONE)
            g = world[doc->node_to_bone[out->node]];
    } else {
        const anim_skin *skin = &doc->skins[out->skin];
        uint32_t rj = out->reference_joint;
        anim_mat4 ibm = anim_mat4_identity();
        if (skin->inverse_bind)
            memcpy(ibm.m, skin->inverse_bind + 16 * (size_t)rj, sizeof ibm.m);
        anim_mat4 wr = world[doc->node_to_bone[skin->joints[rj]]];
        g = anim_mat4_mul(&wr, &ibm);
        for (uint32_t k = 0; k < skin->joint_count; k++) {
            double inv[16];
            anim_mat4 ibm_k = anim_mat4_identity();
            if (skin->inverse_bind)
                memcpy(ibm_k.m, skin->inverse_bind + 16 * (size_t)k, sizeof ibm_k.m);
            if (!anim_mat4_invert(ibm_k.m, inv)) {
                free(world);
                return anim_error_set(err, ANIM_ERR_INVALID,
                                      "%s: mesh '%s' skin %u joint %u ('%s'): the inverse bind "
                                      "matrix is singular; required an invertible one",
                                      what, out->name, out->skin, k, out->bone_names[k]);
            }
            anim_mat4 ik;
            memcpy(ik.m, inv, sizeof ik.m);
            anim_mat4 pk = anim_mat4_mul(&g, &ik);
            anim_vec3 c = anim_mat4_translation(&pk);
            out->pivots[3 * k] = c.x;
            out->pivots[3 * k + 1] = c.y;
            out->pivots[3 * k + 2] = c.z;
        }
    }
    memcpy(out->bind, g.m, sizeof out->bind);
    free(world);
    return 0;
}

/* The budget: every array this file sizes by counts from the file. */
static int check_budget(const anim_asset *asset, uint64_t vertices, uint64_t triangles,
                        uint64_t binds, const char *what, const char *mesh_name, anim_error *err)
{
    if (vertices > MQ_GLTF_MAX_VERTICES || triangles > MQ_GLTF_MAX_TRIANGLES)
        return anim_error_set(err, ANIM_ERR_LIMIT,
                              "%s: mesh '%s' has %llu vertices and %llu triangles; the mesh-quality "
                              "bound is %u vertices and %u triangles",
                              what, mesh_name, (unsigned long long)vertices,
                              (unsigned long long)triangles, MQ_GLTF_MAX_VERTICES,
                              MQ_GLTF_MAX_TRIANGLES);
    /* Per vertex: 3 + 2 doubles, 3 + 2 floats, an offset, the sets' joints
     * and weights, the decoding scratch; per triangle: 3 + 3 indices, a
     * group and the scratch. */
    uint64_t bytes = vertices * (5 * 8 + 5 * 4 + 4 + 4 * 8) +
                     binds * (4 + 8 + sizeof(anim_mq_bind)) + triangles * (7 * 4 + 3 * 8);
    size_t budget = anim_limits_get(&asset->source.limits, ANIM_LIMIT_GRID);
    if (bytes > budget) {
        char what_buf[256];
        snprintf(what_buf, sizeof what_buf, "%s: mesh '%s' would take %llu bytes to read", what,
                 mesh_name, (unsigned long long)bytes);
        return anim_limit_error(err, &asset->source.limits, ANIM_LIMIT_GRID, what_buf);
    }
    return 0;
}

int mq_gltf_mesh_build(const anim_asset *asset, uint32_t mesh_index, uint32_t reference_joint,
                       const char *what, anim_arena *arena, mq_gltf_mesh *out, anim_error *err)
{
    const anim_doc *doc = &asset->doc;
    const anim_source *src = &asset->source;
    memset(out, 0, sizeof *out);
    if (mesh_index >= doc->mesh_count)
        return anim_error_set(err, ANIM_ERR_USAGE, "%s has no mesh %u", what, mesh_index);
    const anim_mesh *m = &doc->meshes[mesh_index];
    out->mesh_index = mesh_index;
    out->name = mq_gltf_mesh_name(asset, mesh_index, arena);
    if (!out->name)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    out->node = mq_gltf_mesh_instance(asset, mesh_index, &out->skin);
    const anim_json_value *meshes_json = anim_json_get(src->root, "meshes");
    const anim_json_value *mesh_json = meshes_json && mesh_index < anim_json_count(meshes_json)
                                           ? anim_json_item(meshes_json, mesh_index)
                                           : NULL;
    const anim_json_value *prims_json = mesh_json ? anim_json_get(mesh_json, "primitives") : NULL;

    /* Pass 1: shapes and counts. */
    uint32_t tri_prims = 0;
    for (uint32_t p = 0; p < m->primitive_count; p++)
        if (m->primitives[p].mode == 4)
            tri_prims++;
    out->skipped_primitives = m->primitive_count - tri_prims;
    if (tri_prims == 0)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: mesh '%s' has no triangle primitive (mode 4); required one",
                              what, out->name);
    prim_plan *plans = malloc((size_t)tri_prims * sizeof *plans);
    if (!plans)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    uint64_t vertices = 0, triangles = 0, binds = 0;
    uint32_t n = 0;
    for (uint32_t p = 0; p < m->primitive_count; p++) {
        if (m->primitives[p].mode != 4)
            continue;
        const anim_json_value *pj =
            prims_json && p < anim_json_count(prims_json) ? anim_json_item(prims_json, p) : NULL;
        if (plan_primitive(asset, pj, &m->primitives[p], p, what, out->name, &plans[n], err)) {
            free(plans);
            return -1;
        }
        vertices += plans[n].vertices;
        triangles += plans[n].triangles;
        binds += (uint64_t)plans[n].vertices * 4 * plans[n].sets;
        n++;
    }
    if (check_budget(asset, vertices, triangles, binds, what, out->name, err)) {
        free(plans);
        return -1;
    }
    bool weighted = out->skin != ANIM_NONE;
    for (uint32_t i = 0; i < n && weighted; i++)
        if (plans[i].sets == 0)
            weighted = false;
    const anim_skin *skin = out->skin != ANIM_NONE ? &doc->skins[out->skin] : NULL;
    if (skin && skin->joint_count == 0) {
        free(plans);
        return anim_error_set(err, ANIM_ERR_INVALID, "%s: mesh '%s': skin %u has no joints", what,
                              out->name, out->skin);
    }

    /* Names, pivots, G. */
    if (skin) {
        out->bone_count = skin->joint_count;
        out->bone_names = anim_arena_calloc(arena, skin->joint_count, sizeof *out->bone_names);
        out->pivots = anim_arena_calloc(arena, skin->joint_count, 3 * sizeof(double));
        if (!out->bone_names || !out->pivots) {
            free(plans);
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        }
        for (uint32_t k = 0; k < skin->joint_count; k++) {
            out->bone_names[k] = joint_name(doc, skin->joints[k], arena);
            if (!out->bone_names[k]) {
                free(plans);
                return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
            }
        }
        out->reference_joint = reference_joint != ANIM_NONE ? reference_joint
                                                            : mq_gltf_skin_root_joint(asset, out->skin);
        if (out->reference_joint >= skin->joint_count) {
            free(plans);
            return anim_error_set(err, ANIM_ERR_USAGE, "%s: mesh '%s': no reference joint %u",
                                  what, out->name, out->reference_joint);
        }
    } else {
        out->reference_joint = ANIM_NONE;
    }
    if (bind_of(asset, out, what, err)) {
        free(plans);
        return -1;
    }
    anim_mat4 g;
    memcpy(g.m, out->bind, sizeof g.m);

    /* Pass 2: decode. */
    uint32_t V = (uint32_t)vertices, T = (uint32_t)triangles;
    double *points = anim_arena_alloc(arena, (size_t)V * 3 * sizeof(double));
    double *uvs = anim_arena_alloc(arena, (size_t)V * 2 * sizeof(double));
    uint32_t *tris = anim_arena_alloc(arena, (size_t)T * 3 * sizeof(uint32_t));
    uint32_t *groups = anim_arena_alloc(arena, (size_t)T * sizeof(uint32_t));
    uint32_t *bind_start = weighted ? anim_arena_alloc(arena, ((size_t)V + 1) * sizeof(uint32_t)) : NULL;
    anim_mq_bind *bind_list = weighted ? anim_arena_alloc(arena, (size_t)(binds ? binds : 1) * sizeof(anim_mq_bind)) : NULL;
    out->prims = anim_arena_calloc(arena, n, sizeof *out->prims);
    size_t scratch_n = 1;
    for (uint32_t i = 0; i < n; i++) {
        size_t need = (size_t)plans[i].vertices * 4;
        if ((size_t)plans[i].triangles * 3 > need)
            need = (size_t)plans[i].triangles * 3;
        if (need > scratch_n)
            scratch_n = need;
    }
    double *scratch = malloc(scratch_n * sizeof(double));
    if (!points || !uvs || !tris || !groups || (weighted && (!bind_start || !bind_list)) ||
        !out->prims || !scratch) {
        free(plans);
        free(scratch);
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    out->prim_count = n;
    uint32_t v0 = 0, t0 = 0, nb = 0;
    int rc = 0;
    for (uint32_t i = 0; i < n && !rc; i++) {
        const prim_plan *pl = &plans[i];
        mq_gltf_prim *pr = &out->prims[i];
        const anim_primitive *prim = &m->primitives[pl->index];
        pr->primitive = pl->index;
        pr->material = prim->material;
        pr->first_vertex = v0;
        pr->vertex_count = pl->vertices;
        pr->first_triangle = t0;
        pr->triangle_count = pl->triangles;
        pr->target_count = prim->target_count;
        pr->influence_sets = weighted ? pl->sets : 0;
        float *pos = anim_arena_alloc(arena, (size_t)pl->vertices * 3 * sizeof(float));
        float *uvf = anim_arena_alloc(arena, (size_t)pl->vertices * 2 * sizeof(float));
        uint32_t *idx = anim_arena_alloc(arena, (size_t)pl->triangles * 3 * sizeof(uint32_t));
        uint32_t *jt = pr->influence_sets
                           ? anim_arena_alloc(arena, (size_t)pl->vertices * 4 * pl->sets * sizeof(uint32_t))
                           : NULL;
        double *wt = pr->influence_sets
                         ? anim_arena_alloc(arena, (size_t)pl->vertices * 4 * pl->sets * sizeof(double))
                         : NULL;
        if (!pos || !uvf || !idx || (pr->influence_sets && (!jt || !wt))) {
            rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
            break;
        }
        pr->positions = pos;
        pr->uvs = uvf;
        pr->indices = idx;
        pr->joints = jt;
        pr->weights = wt;
        /* POSITION, carried through G. */
        if (read_doubles(src, prim->position, scratch, err)) {
            rc = -1;
            break;
        }
        for (uint32_t v = 0; v < pl->vertices; v++) {
            anim_vec3 x = anim_vec3_make(scratch[3 * v], scratch[3 * v + 1], scratch[3 * v + 2]);
            for (int c = 0; c < 3; c++)
                pos[3 * v + c] = (float)scratch[3 * v + c];
            anim_vec3 q = anim_mat4_transform_point(&g, x);
            points[3 * (size_t)(v0 + v)] = q.x;
            points[3 * (size_t)(v0 + v) + 1] = q.y;
            points[3 * (size_t)(v0 + v) + 2] = q.z;
        }
        if (read_doubles(src, pl->uv, scratch, err)) {
            rc = -1;
            break;
        }
        for (uint32_t v = 0; v < 2 * pl->vertices; v++) {
            uvs[2 * (size_t)v0 + v] = scratch[v];
            uvf[v] = (float)scratch[v];
        }
        /* Indices (primitive-local), then offset into the concatenation. */
        if (pl->indices != ANIM_NONE) {
            if (read_doubles(src, pl->indices, scratch, err)) {
                rc = -1;
                break;
            }
            for (uint32_t k = 0; k < 3 * pl->triangles; k++) {
                double d = scratch[k];
                if (!(d >= 0 && d < pl->vertices)) {
                    rc = anim_error_set(err, ANIM_ERR_INVALID,
                                        "%s: mesh '%s' primitive %u: index %u is %.0f; required "
                                        "below the %u vertices",
                                        what, out->name, pl->index, k, d, pl->vertices);
                    break;
                }
                idx[k] = (uint32_t)d;
            }
            if (rc)
                break;
        } else {
            for (uint32_t k = 0; k < 3 * pl->triangles; k++)
                idx[k] = k;
        }
        for (uint32_t t = 0; t < pl->triangles; t++) {
            for (int c = 0; c < 3; c++)
                tris[3 * (size_t)(t0 + t) + c] = v0 + idx[3 * t + c];
            groups[t0 + t] = pl->index;
        }
        /* Influence sets. */
        for (uint32_t s = 0; s < pr->influence_sets && !rc; s++) {
            uint32_t *js = jt + (size_t)s * 4 * pl->vertices;
            double *ws = wt + (size_t)s * 4 * pl->vertices;
            if (read_doubles(src, pl->joints[s], scratch, err)) {
                rc = -1;
                break;
            }
            for (uint32_t k = 0; k < 4 * pl->vertices; k++) {
                double d = scratch[k];
                js[k] = d >= 0 && d < 4294967295.0 ? (uint32_t)d : ANIM_NONE;
            }
            if (read_doubles(src, pl->weights[s], ws, err)) {
                rc = -1;
                break;
            }
        }
        if (rc)
            break;
        if (weighted) {
            for (uint32_t v = 0; v < pl->vertices && !rc; v++) {
                bind_start[v0 + v] = nb;
                for (uint32_t s = 0; s < pr->influence_sets; s++) {
                    for (uint32_t c = 0; c < 4; c++) {
                        size_t at = (size_t)s * 4 * pl->vertices + 4 * (size_t)v + c;
                        double w = wt[at];
                        if (w == 0)
                            continue; /* a zero share binds nothing */
                        if (jt[at] >= skin->joint_count || !isfinite(w)) {
                            rc = anim_error_set(err, ANIM_ERR_INVALID,
                                                "%s: mesh '%s' primitive %u vertex %u: JOINTS_%u "
                                                "names joint %u with weight %g; required a joint "
                                                "of skin %u's %u and a finite weight",
                                                what, out->name, pl->index, v, s, jt[at], w,
                                                out->skin, skin->joint_count);
                            break;
                        }
                        bind_list[nb].bone = jt[at];
                        bind_list[nb].weight = w;
                        nb++;
                    }
                    if (rc)
                        break;
                }
            }
        }
        v0 += pl->vertices;
        t0 += pl->triangles;
    }
    free(plans);
    free(scratch);
    if (rc)
        return -1;
    if (weighted)
        bind_start[V] = nb;
    out->mesh.dim = 3;
    out->mesh.vertex_count = V;
    out->mesh.points = points;
    out->mesh.uvs = uvs;
    out->mesh.triangle_count = T;
    out->mesh.triangles = tris;
    out->mesh.groups = groups;
    out->mesh.hull = V;
    out->mesh.bind_start = bind_start;
    out->mesh.binds = bind_list;
    return 0;
}
