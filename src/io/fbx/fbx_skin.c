/* Skin deformers: a Skin on the Geometry (on the Model in 6.1 files)
 * whose Clusters each link one Model with control point Indexes, Weights,
 * Transform and TransformLink (identity when absent).
 *
 * Joints are the linked nodes in cluster order (a node linked twice keeps
 * its first slot; the influences add up). The inverse bind matrix maps the
 * vertex data's space (the mesh node's, geometric transform applied) to
 * the joint's bind space, and that is what Transform holds: files write
 * it as inverse(TransformLink) * (the mesh node's bind global), so
 * TransformLink * Transform is the mesh's BindPose matrix (it is, to
 * 1e-7, in every exporter's file we have). The inverse bind matrix is
 * Transform in glTF space; TransformLink is the joint's bind global,
 * which the BindPose check compares with.
 *
 * Every vertex keeps its four strongest influences, normalized to sum 1.
 * A vertex no cluster weights is bound with weight 1 to the mesh node's
 * nearest ancestor among the skin's joints, else to joint 0, so the
 * skinned mesh stays where the static one was. The bind pose (BindPose)
 * is only compared against the clusters for a note. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/fbx/fbx_geometry_internal.h"
#include "animsmith/math.h"

uint32_t anim_fbx_pick_influences(const uint32_t *joints, const double *weights, uint32_t n,
                                  uint16_t out_joints[4], float out_weights[4])
{
    uint32_t picked[4];
    uint32_t k = 0;
    double sum = 0.0;
    for (; k < 4 && k < n; k++) {
        uint32_t best = UINT32_MAX;
        for (uint32_t i = 0; i < n; i++) {
            bool used = false;
            for (uint32_t j = 0; j < k; j++)
                used = used || picked[j] == i;
            if (used)
                continue;
            if (best == UINT32_MAX || weights[i] > weights[best] ||
                (weights[i] == weights[best] && joints[i] < joints[best]))
                best = i;
        }
        picked[k] = best;
        sum += weights[best];
    }
    for (uint32_t j = 0; j < 4; j++) {
        out_joints[j] = j < k ? (uint16_t)joints[picked[j]] : 0;
        out_weights[j] = j < k ? (float)(weights[picked[j]] / sum) : 0.0f;
    }
    return n > 4 ? n - 4 : 0;
}

/* The first Skin deformer of an object, ANIM_FBX_SCENE_ROOT if none. */
static uint32_t find_skin(const anim_fbx_objects *objs, uint32_t o, uint32_t *count)
{
    uint32_t found = ANIM_FBX_SCENE_ROOT;
    if (o == ANIM_FBX_SCENE_ROOT)
        return found;
    const anim_fbx_object *obj = &objs->objects[o];
    for (uint32_t k = 0; k < obj->dst_conn_count; k++) {
        uint32_t d = anim_fbx_conn_child(objs, obj, k, "Deformer", NULL);
        if (d == ANIM_FBX_SCENE_ROOT)
            continue;
        if (strcmp(objs->objects[d].subclass, "Skin") == 0) {
            if (found == ANIM_FBX_SCENE_ROOT)
                found = d;
            (*count)++;
        }
    }
    return found;
}

typedef struct cluster {
    uint32_t object, slot;
    const int64_t *indexes;
    const double *weights;
    uint32_t count;
    bool has_link;               /* TransformLink present (only the BindPose check reads it) */
    double transform[16], link[16];
} cluster;

/* A 16-number matrix child record; identity when absent. */
static int read_matrix(anim_fbx_scene *scene, const anim_fbx_object *o, const char *name,
                       double out[16], anim_error *err)
{
    char buf[256];
    const anim_fbx_node *r = anim_fbx_child(o->node, name);
    if (!r) {
        memset(out, 0, 16 * sizeof(double));
        out[0] = out[5] = out[10] = out[15] = 1.0;
        return 0;
    }
    const double *m = NULL;
    uint32_t n = 0;
    if (anim_fbx_prop_array_f64(scene->arena, r, 0, &m, &n, err) != 0) {
        anim_error_prefix(err, "%s %s", anim_fbx_object_label(o, buf, sizeof buf), name);
        return -1;
    }
    if (n != 16)
        return anim_error_set(err, ANIM_ERR_INVALID, "%s %s: %u values, expected 16",
                              anim_fbx_object_label(o, buf, sizeof buf), name, n);
    memcpy(out, m, 16 * sizeof(double));
    return 0;
}

static int read_cluster(anim_fbx_scene *scene, const anim_fbx_mesh_ctx *ctx, uint32_t co,
                        cluster *c, anim_error *err)
{
    const anim_fbx_object *o = &scene->objs->objects[co];
    char buf[256];
    const char *label = anim_fbx_object_label(o, buf, sizeof buf);
    c->object = co;
    c->count = 0;
    const anim_fbx_node *in = anim_fbx_child(o->node, "Indexes");
    const anim_fbx_node *wn = anim_fbx_child(o->node, "Weights");
    if (in && wn) {
        uint32_t ni = 0, nw = 0;
        if (anim_fbx_prop_array_i64(scene->arena, in, 0, &c->indexes, &ni, err) != 0 ||
            anim_fbx_prop_array_f64(scene->arena, wn, 0, &c->weights, &nw, err) != 0) {
            anim_error_prefix(err, "%s", label);
            return -1;
        }
        if (ni != nw)
            return anim_error_set(err, ANIM_ERR_INVALID, "%s: %u Indexes but %u Weights", label,
                                  ni, nw);
        for (uint32_t i = 0; i < ni; i++)
            if (c->indexes[i] < 0 || c->indexes[i] >= ctx->geom->cp_count)
                return anim_error_set(err, ANIM_ERR_INVALID,
                                      "%s Indexes[%u]: index %lld outside %u control points",
                                      label, i, (long long)c->indexes[i], ctx->geom->cp_count);
        c->count = ni;
    }
    c->has_link = anim_fbx_child(o->node, "TransformLink") != NULL;
    if (read_matrix(scene, o, "Transform", c->transform, err) != 0 ||
        read_matrix(scene, o, "TransformLink", c->link, err) != 0)
        return -1;
    return 0;
}

static int inverse_bind(anim_fbx_scene *scene, const cluster *c, double out[16],
                        anim_error *err)
{
    double inv[16];
    anim_fbx_convert_matrix(scene, c->transform, out);
    /* A singular bind matrix cannot be a joint's inverse bind. */
    if (!anim_mat4_invert(out, inv)) {
        char buf[256];
        return anim_error_set(err, ANIM_ERR_INVALID, "%s Transform: not invertible",
                              anim_fbx_object_label(&scene->objs->objects[c->object], buf,
                                                    sizeof buf));
    }
    return 0;
}

/* The skin's joint for a vertex no cluster weights. */
static uint32_t fallback_joint(const anim_fbx_scene *scene, uint32_t node, const uint32_t *slot_of)
{
    for (uint32_t n = node, steps = 0; n != ANIM_NONE && n < scene->node_count &&
                                       steps <= scene->node_count;
         n = scene->nodes[n].parent, steps++)
        if (slot_of[n] != ANIM_NONE)
            return slot_of[n];
    return 0;
}

/* Bind poses are only compared with the clusters (which are what the
 * skin uses), and only for the first skins: the note is informative and
 * the scan costs every pose node per skin. */
#define BINDPOSE_CHECK_SKINS 64u

static int bindpose_check(anim_fbx_scene *scene, const cluster *cl, uint32_t ncl,
                          uint32_t joint_count, const uint32_t *slot_of, const char *skin_label,
                          anim_error *err)
{
    const anim_fbx_objects *objs = scene->objs;
    if (scene->skin_count > BINDPOSE_CHECK_SKINS)
        return 0;
    uint32_t *first = malloc(((size_t)joint_count + 1) * sizeof *first);
    if (!first)
        return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", skin_label);
    memset(first, 0xff, ((size_t)joint_count + 1) * sizeof *first);
    for (uint32_t k = ncl; k-- > 0;)
        first[cl[k].slot] = k;
    int rc = 0;
    for (uint32_t o = 0; o < objs->object_count && rc == 0; o++) {
        const anim_fbx_object *pose = &objs->objects[o];
        if (strcmp(pose->cls, "Pose") != 0 || strcmp(pose->subclass, "BindPose") != 0)
            continue;
        uint32_t differ = 0;
        for (uint32_t i = 0; i < pose->node->child_count; i++) {
            const anim_fbx_node *pn = &pose->node->children[i];
            const anim_fbx_node *nn = anim_fbx_child(pn, "Node");
            const anim_fbx_node *mn = anim_fbx_child(pn, "Matrix");
            int64_t id = 0;
            if (strcmp(pn->name, "PoseNode") != 0 || !nn || !mn ||
                anim_fbx_prop_i64(nn, 0, &id, NULL) != 0)
                continue; /* 6.1 names its nodes by name: not compared */
            uint32_t obj = anim_fbx_object_by_id(objs, id);
            uint32_t node = obj == ANIM_FBX_SCENE_ROOT ? ANIM_NONE
                                                       : anim_fbx_node_of_object(scene, obj);
            if (node == ANIM_NONE || slot_of[node] == ANIM_NONE)
                continue;
            const double *m = NULL;
            uint32_t n = 0;
            if (anim_fbx_prop_array_f64(scene->arena, mn, 0, &m, &n, NULL) != 0 || n != 16)
                continue;
            const cluster *c = &cl[first[slot_of[node]]];
            if (!c->has_link)
                continue;
            const double *link = c->link;
            double d = 0.0;
            for (int k = 0; k < 16; k++)
                d = fmax(d, fabs(m[k] - link[k]));
            differ += !(d <= 1e-4);
        }
        char buf[256];
        if (differ)
            rc = anim_fbx_scene_note(scene, err,
                                     "%s: %u joint(s) differ from %s by more than 1e-4 (the "
                                     "clusters' TransformLink is used)",
                                     anim_fbx_object_label(pose, buf, sizeof buf), differ,
                                     skin_label);
    }
    free(first);
    return rc;
}

/* Influences per control point (CSR) into joints/weights per vertex. */
static int weigh(anim_fbx_scene *scene, const anim_fbx_mesh_ctx *ctx, const cluster *cl,
                 uint32_t ncl, uint32_t joint_count, const uint32_t *slot_of,
                 const char *skin_label, anim_error *err)
{
    uint32_t cps = ctx->geom->cp_count;
    uint32_t *start = calloc((size_t)cps + 1, sizeof *start);
    uint32_t *stamp = malloc(((size_t)joint_count + 1) * sizeof *stamp);
    uint32_t *where = malloc(((size_t)joint_count + 1) * sizeof *where);
    uint16_t *cj = malloc(4 * ((size_t)cps + 1) * sizeof *cj);
    float *cw = malloc(4 * ((size_t)cps + 1) * sizeof *cw);
    uint8_t *used = calloc((size_t)cps + 1, 1);
    uint32_t *ij = NULL;
    double *iw = NULL;
    int rc = -1;
    if (!start || !stamp || !where || !cj || !cw || !used)
        goto nomem;
    size_t total = 0;
    for (uint32_t k = 0; k < ncl; k++)
        for (uint32_t i = 0; i < cl[k].count; i++)
            if (cl[k].weights[i] > 0.0 && isfinite(cl[k].weights[i]))
                start[cl[k].indexes[i] + 1]++, total++;
    for (uint32_t i = 0; i < cps; i++)
        start[i + 1] += start[i];
    ij = malloc((total + 1) * sizeof *ij);
    iw = malloc((total + 1) * sizeof *iw);
    if (!ij || !iw)
        goto nomem;
    /* Fill, adding up the weights of clusters that share a joint slot. */
    uint32_t *fill = calloc((size_t)cps + 1, sizeof *fill);
    if (!fill)
        goto nomem;
    memset(stamp, 0xff, ((size_t)joint_count + 1) * sizeof *stamp);
    for (uint32_t k = 0; k < ncl; k++)
        for (uint32_t i = 0; i < cl[k].count; i++) {
            double w = cl[k].weights[i];
            if (!(w > 0.0) || !isfinite(w))
                continue;
            uint32_t cp = (uint32_t)cl[k].indexes[i], s = cl[k].slot;
            if (stamp[s] == cp && where[s] >= start[cp] && where[s] < start[cp] + fill[cp] &&
                ij[where[s]] == s) {
                iw[where[s]] += w;
                continue;
            }
            uint32_t at = start[cp] + fill[cp]++;
            ij[at] = s, iw[at] = w, stamp[s] = cp, where[s] = at;
        }
    uint64_t dropped = 0;
    uint32_t unbound = 0, fb = fallback_joint(scene, ctx->node, slot_of);
    for (uint32_t p = 0; p < ctx->split->prim_count; p++) {
        const anim_fbx_split_prim *sp = &ctx->split->prims[p];
        for (uint32_t v = 0; v < sp->vertex_count; v++)
            used[ctx->geom->corner_cp[sp->vertex_corner[v]]] = 1;
    }
    for (uint32_t cp = 0; cp < cps; cp++) {
        uint32_t n = fill[cp];
        if (n == 0) {
            cj[4 * cp] = (uint16_t)fb, cj[4 * cp + 1] = cj[4 * cp + 2] = cj[4 * cp + 3] = 0;
            cw[4 * cp] = 1.0f, cw[4 * cp + 1] = cw[4 * cp + 2] = cw[4 * cp + 3] = 0.0f;
            unbound += used[cp];
            continue;
        }
        dropped += anim_fbx_pick_influences(ij + start[cp], iw + start[cp], n, cj + 4 * cp,
                                            cw + 4 * cp);
    }
    free(fill);
    anim_fbx_mesh *mesh = &scene->meshes[ctx->mesh];
    mesh->dropped_influences = dropped > UINT32_MAX ? UINT32_MAX : (uint32_t)dropped;
    for (uint32_t p = 0; p < mesh->primitive_count; p++) {
        anim_fbx_primitive *prim = &mesh->primitives[p];
        const anim_fbx_split_prim *sp = &ctx->split->prims[p];
        size_t nv = sp->vertex_count ? sp->vertex_count : 1;
        prim->joints = anim_arena_calloc(scene->arena, 4 * nv, sizeof *prim->joints);
        prim->weights = anim_arena_calloc(scene->arena, 4 * nv, sizeof *prim->weights);
        if (!prim->joints || !prim->weights)
            goto nomem;
        for (uint32_t v = 0; v < sp->vertex_count; v++) {
            uint32_t cp = ctx->geom->corner_cp[sp->vertex_corner[v]];
            memcpy(prim->joints + 4 * (size_t)v, cj + 4 * (size_t)cp, 4 * sizeof *cj);
            memcpy(prim->weights + 4 * (size_t)v, cw + 4 * (size_t)cp, 4 * sizeof *cw);
        }
    }
    if (dropped && anim_fbx_scene_note(scene, err,
                                       "%s: %llu influence(s) beyond four per vertex dropped "
                                       "(the four strongest kept, renormalized)",
                                       skin_label, (unsigned long long)dropped) != 0)
        goto done;
    if (unbound && anim_fbx_scene_note(scene, err,
                                       "%s: %u vertex(es) without influence bound to joint '%s'",
                                       skin_label, unbound,
                                       scene->nodes[scene->skins[mesh->skin].joints[fb]].name) != 0)
        goto done;
    rc = 0;
    goto done;
nomem:
    anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory for skin weights", skin_label);
done:
    free(start), free(stamp), free(where), free(cj), free(cw), free(used), free(ij), free(iw);
    return rc;
}

/* Clusters of the skin in connection order, with their joint slots. */
static int gather(anim_fbx_scene *scene, const anim_fbx_mesh_ctx *ctx, uint32_t so, cluster **out,
                  uint32_t *ncl, uint32_t *slot_of, uint32_t **joints, uint32_t *joint_count,
                  anim_error *err)
{
    const anim_fbx_objects *objs = scene->objs;
    const anim_fbx_object *skin = &objs->objects[so];
    uint32_t cap = skin->dst_conn_count;
    cluster *cl = anim_arena_calloc(scene->arena, cap ? cap : 1, sizeof *cl);
    uint32_t *jn = anim_arena_calloc(scene->arena, cap ? cap : 1, sizeof *jn);
    if (!cl || !jn)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory for %u clusters", cap);
    uint32_t n = 0, nj = 0, unlinked = 0;
    for (uint32_t k = 0; k < cap; k++) {
        uint32_t co = anim_fbx_conn_child(objs, skin, k, NULL, NULL);
        if (co == ANIM_FBX_SCENE_ROOT || strcmp(objs->objects[co].subclass, "Cluster") != 0)
            continue;
        uint32_t lo = anim_fbx_child_object(objs, &objs->objects[co], "Model", 0, NULL);
        uint32_t node = lo == ANIM_FBX_SCENE_ROOT ? ANIM_NONE : anim_fbx_node_of_object(scene, lo);
        if (node == ANIM_NONE) {
            unlinked++;
            continue;
        }
        if (read_cluster(scene, ctx, co, &cl[n], err) != 0)
            return -1;
        if (slot_of[node] == ANIM_NONE) {
            if (nj >= 65535u) {
                char buf[256];
                return anim_error_set(err, ANIM_ERR_LIMIT, "%s: more than 65535 joints",
                                      anim_fbx_object_label(skin, buf, sizeof buf));
            }
            slot_of[node] = nj;
            jn[nj++] = node;
        }
        cl[n++].slot = slot_of[node];
    }
    if (unlinked) {
        char buf[256];
        if (anim_fbx_scene_note(scene, err, "%s: %u cluster(s) without a linked node ignored",
                                anim_fbx_object_label(skin, buf, sizeof buf), unlinked) != 0)
            return -1;
    }
    *out = cl, *ncl = n, *joints = jn, *joint_count = nj;
    return 0;
}

int anim_fbx_build_skin(anim_fbx_scene *scene, const anim_fbx_mesh_ctx *ctx, anim_error *err)
{
    const anim_fbx_objects *objs = scene->objs;
    uint32_t skins = 0;
    uint32_t so = find_skin(objs, ctx->geom_object, &skins);
    if (so == ANIM_FBX_SCENE_ROOT)
        so = find_skin(objs, ctx->model_object, &skins);
    if (so == ANIM_FBX_SCENE_ROOT)
        return 0;
    char buf[256];
    const char *label =
        anim_arena_strdup(scene->arena, anim_fbx_object_label(&objs->objects[so], buf, sizeof buf));
    uint32_t *slot_of = malloc(((size_t)scene->node_count + 1) * sizeof *slot_of);
    if (!label || !slot_of) {
        free(slot_of);
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory for a skin");
    }
    memset(slot_of, 0xff, ((size_t)scene->node_count + 1) * sizeof *slot_of);
    cluster *cl = NULL;
    uint32_t ncl = 0, nj = 0, *joints = NULL;
    int rc = -1;
    if (gather(scene, ctx, so, &cl, &ncl, slot_of, &joints, &nj, err) != 0)
        goto done;
    rc = 0;
    if (nj == 0)
        goto done; /* no clusters: the mesh stays unskinned */
    rc = -1;
    anim_fbx_skin *skin = &scene->skins[scene->skin_count];
    skin->name = objs->objects[so].name;
    skin->mesh = ctx->mesh;
    skin->joints = joints;
    skin->joint_count = nj;
    skin->inverse_bind = anim_arena_calloc(scene->arena, 16 * (size_t)nj, sizeof(double));
    if (!skin->inverse_bind) {
        anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", label);
        goto done;
    }
    /* The first cluster of each slot gives its bind matrix. */
    for (uint32_t k = ncl; k-- > 0;)
        if (inverse_bind(scene, &cl[k], skin->inverse_bind + 16 * (size_t)cl[k].slot, err) != 0)
            goto done;
    for (uint32_t j = 0; j < nj; j++)
        scene->nodes[joints[j]].is_joint = true;
    scene->meshes[ctx->mesh].skin = scene->skin_count;
    scene->nodes[ctx->node].skin = scene->skin_count;
    scene->skin_count++;
    if (weigh(scene, ctx, cl, ncl, nj, slot_of, label, err) != 0 ||
        bindpose_check(scene, cl, ncl, nj, slot_of, label, err) != 0)
        goto done;
    const char *type = NULL;
    size_t len = 0;
    const anim_fbx_node *st = anim_fbx_child(objs->objects[so].node, "SkinningType");
    if (st && anim_fbx_prop_string(st, 0, &type, &len, err) == 0 && strcmp(type, "Linear") != 0 &&
        anim_fbx_scene_note(scene, err, "%s: %s skinning treated as linear", label, type) != 0)
        goto done;
    anim_error_clear(err);
    if (skins > 1 &&
        anim_fbx_scene_note(scene, err, "%s: %u more skin deformer(s) on the mesh ignored", label,
                            skins - 1) != 0)
        goto done;
    rc = 0;
done:
    free(slot_of);
    return rc;
}
