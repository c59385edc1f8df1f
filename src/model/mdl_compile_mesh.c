/* The primitives of one object: faces triangulated (mdl_tri.h), a normal
 * per corner, and the corners of each material's faces split into glTF
 * vertices by unique (vertex, uv, normal) in binary32, with face
 * provenance and, for a skinned object, up to four normalized influences
 * per vertex.
 *
 * Morph targets: each target of the object becomes a glTF morph target of
 * every primitive, POSITION deltas from the target and NORMAL deltas of
 * the derived normals (the morphed mesh's normals, derived the same way,
 * minus the base normals); the mesh's default weights are the targets'
 * weights and extras.targetNames their names.
 *
 * Normals: an explicit corner normal wins; a smooth face's corner gets the
 * normalized sum of the Newell vectors (area-weighted normals) of every
 * smooth face around its vertex; anything else the face's own normal. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "model/mdl_compile_internal.h"
#include "model/mdl_tri.h"

#define INFLUENCES_MAX 4

typedef struct vkey {
    uint32_t vertex; /* index into o->vertices */
    float uv[2];
    float n[3];
} vkey;

/* Per object: each corner's vertex index and normal, each face's
 * triangles (absolute corner indices). */
typedef struct obj_tables {
    uint32_t *cvi;
    double *cn;
    uint32_t *tri;       /* 3 per triangle */
    uint32_t *tri_first; /* per face, in triangles */
} obj_tables;

static void tables_free(obj_tables *t)
{
    free(t->cvi);
    free(t->cn);
    free(t->tri);
    free(t->tri_first);
}

static void newell(const mdl_object *o, const obj_tables *t, const mdl_face *f, double s[3])
{
    s[0] = s[1] = s[2] = 0;
    for (uint32_t i = 0; i < f->corner_count; i++) {
        const double *a = o->vertices[t->cvi[f->corner_first + i]].p;
        const double *b = o->vertices[t->cvi[f->corner_first + (i + 1) % f->corner_count]].p;
        s[0] += (a[1] - b[1]) * (a[2] + b[2]);
        s[1] += (a[2] - b[2]) * (a[0] + b[0]);
        s[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
}

static bool normalize3(double v[3])
{
    double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(len > 0) || !isfinite(len))
        return false;
    v[0] /= len;
    v[1] /= len;
    v[2] /= len;
    return true;
}

/* count: add the triangles to the compile's counts (the base mesh, not
 * the morphed copies). */
static int build_tables(cm_ctx *c, const mdl_object *o, obj_tables *t, bool count)
{
    memset(t, 0, sizeof *t);
    uint64_t tris = 0;
    for (size_t f = 0; f < o->face_count; f++)
        tris += o->faces[f].corner_count - 2;
    t->cvi = malloc((o->corner_count + 1) * sizeof *t->cvi);
    t->cn = malloc((o->corner_count + 1) * 3 * sizeof *t->cn);
    t->tri = malloc((size_t)(tris + 1) * 3 * sizeof *t->tri);
    t->tri_first = malloc((o->face_count + 1) * sizeof *t->tri_first);
    double *acc = calloc(o->vertex_count + 1, 3 * sizeof *acc);
    uint32_t *local = malloc(3 * MDL_FACE_CORNERS_MAX * sizeof *local);
    int rc = 0;
    if (!t->cvi || !t->cn || !t->tri || !t->tri_first || !acc || !local) {
        rc = cm_nomem(c);
        goto done;
    }
    for (size_t ci = 0; ci < o->corner_count; ci++)
        t->cvi[ci] = (uint32_t)mdl_object_vertex_index(o, o->corners[ci].vertex);
    for (size_t f = 0; f < o->face_count; f++) {
        const mdl_face *fc = &o->faces[f];
        if (!fc->smooth)
            continue;
        double s[3];
        newell(o, t, fc, s);
        for (uint32_t i = 0; i < fc->corner_count; i++) {
            double *a = acc + 3 * (size_t)t->cvi[fc->corner_first + i];
            a[0] += s[0];
            a[1] += s[1];
            a[2] += s[2];
        }
    }
    uint32_t next = 0;
    for (size_t f = 0; f < o->face_count; f++) {
        const mdl_face *fc = &o->faces[f];
        double fn[3];
        newell(o, t, fc, fn);
        if (!normalize3(fn)) {
            /* A degenerate face still needs a unit normal to be valid. */
            fn[0] = 0;
            fn[1] = 1;
            fn[2] = 0;
        }
        for (uint32_t i = 0; i < fc->corner_count; i++) {
            size_t ci = fc->corner_first + i;
            const mdl_corner *cr = &o->corners[ci];
            double n[3];
            if (cr->has_normal) {
                memcpy(n, cr->normal, sizeof n);
                if (!normalize3(n))
                    memcpy(n, fn, sizeof n);
            } else if (fc->smooth) {
                memcpy(n, acc + 3 * (size_t)t->cvi[ci], sizeof n);
                if (!normalize3(n))
                    memcpy(n, fn, sizeof n);
            } else {
                memcpy(n, fn, sizeof n);
            }
            memcpy(t->cn + 3 * ci, n, sizeof n);
        }
        bool nonplanar = false;
        int k = mdl_face_triangulate(o, fc, local, &nonplanar);
        if (k < 0) {
            rc = cm_nomem(c);
            goto done;
        }
        if (nonplanar && count)
            c->info->nonplanar_faces++;
        t->tri_first[f] = next;
        for (int i = 0; i < 3 * k; i++)
            t->tri[3 * (size_t)next + (size_t)i] = fc->corner_first + local[i];
        next += (uint32_t)k;
    }
    if (count)
        c->info->triangles += next;
done:
    free(acc);
    free(local);
    return rc;
}

static uint32_t tri_count_of(const mdl_object *o, const obj_tables *t, size_t f, uint32_t total)
{
    uint32_t end = f + 1 < o->face_count ? t->tri_first[f + 1] : total;
    return end - t->tri_first[f];
}

static uint64_t hash_key(const vkey *k)
{
    const unsigned char *p = (const unsigned char *)k;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < sizeof *k; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* Skin attributes of the primitive's vertices. */
static int build_skin_attrs(cm_ctx *c, const mdl_object *o, const uint32_t *src, uint32_t n,
                            cm_prim *p)
{
    bool wide = c->d->joint_count > 256;
    size_t jbytes = wide ? 2 : 1;
    unsigned char *joints = calloc((size_t)n + 1, 4 * jbytes);
    float *weights = calloc((size_t)n + 1, 4 * sizeof(float));
    int rc = 0;
    if (!joints || !weights) {
        rc = cm_nomem(c);
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) {
        const mdl_vertex *v = &o->vertices[src[i]];
        size_t first, count = mdl_object_vertex_weights(o, v->id, &first);
        const mdl_weight *w = o->weights + first;
        size_t live = 0;
        double sum = 0;
        for (size_t k = 0; k < count; k++)
            if (w[k].weight > 0) {
                live++;
                sum += w[k].weight;
            }
        if (live == 0 || !(sum > 0)) {
            rc = cm_refuse(c, ANIM_MODEL_E_REFUSED, "invalid_skin",
                           "object \"%s\" vertex \"%llu\" has no weights, but the object is "
                           "skinned (weight it or use auto_weights)",
                           o->name, (unsigned long long)v->id);
            goto done;
        }
        if (live > INFLUENCES_MAX) {
            rc = cm_refuse(c, ANIM_MODEL_E_REFUSED, "invalid_skin",
                           "object \"%s\" vertex \"%llu\" has %zu influences; a rendered vertex "
                           "takes at most %d",
                           o->name, (unsigned long long)v->id, live, INFLUENCES_MAX);
            goto done;
        }
        float *wo = weights + 4 * (size_t)i;
        size_t lane = 0, big = 0;
        for (size_t k = 0; k < count; k++) {
            if (!(w[k].weight > 0))
                continue;
            if (wide) {
                uint16_t j = (uint16_t)w[k].joint;
                memcpy(joints + (4 * (size_t)i + lane) * 2, &j, 2);
            } else {
                joints[4 * (size_t)i + lane] = (unsigned char)w[k].joint;
            }
            wo[lane] = (float)(w[k].weight / sum);
            if (wo[lane] > wo[big])
                big = lane;
            lane++;
        }
        /* The largest lane takes the rounding, so the f32 sum is 1. */
        float rest = 0;
        for (size_t k = 0; k < lane; k++)
            if (k != big)
                rest += wo[k];
        wo[big] = 1.0f - rest;
    }
    p->joints = glb_add_accessor(&c->b, joints, n,
                                 wide ? ANIM_GLTF_UNSIGNED_SHORT : ANIM_GLTF_UNSIGNED_BYTE, 4,
                                 GLB_TARGET_ARRAY_BUFFER, false);
    p->weights = glb_add_accessor(&c->b, weights, n, ANIM_GLTF_FLOAT, 4, GLB_TARGET_ARRAY_BUFFER,
                                  false);
done:
    free(joints);
    free(weights);
    return rc;
}

static void grow_bounds(cm_ctx *c, const float *p)
{
    for (int k = 0; k < 3; k++) {
        if (!c->bounds_set || p[k] < c->info->min[k])
            c->info->min[k] = p[k];
        if (!c->bounds_set || p[k] > c->info->max[k])
            c->info->max[k] = p[k];
    }
    c->bounds_set = true;
}

/* The primitive of material ordinal mat. */
/* The delta of vertex id in m (zero when the target does not move it). */
static const double *morph_delta(const mdl_morph *m, uint64_t id)
{
    static const double zero[3] = {0, 0, 0};
    size_t lo = 0, hi = m->delta_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->deltas[mid].vertex == id)
            return m->deltas[mid].delta;
        if (m->deltas[mid].vertex < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return zero;
}

/* The morph target accessors of a primitive: per glTF vertex i, made from
 * object vertex src[i] and corner crn[i] (whose normal it carries). */
static int build_targets(cm_ctx *c, const cm_mesh *m, const obj_tables *mt, const vkey *keys,
                         const uint32_t *crn, uint32_t nv, cm_prim *p)
{
    p->targets = malloc((2 * m->morph_count + 1) * sizeof *p->targets);
    float *dp = malloc(((size_t)nv + 1) * 3 * sizeof *dp);
    float *dn = malloc(((size_t)nv + 1) * 3 * sizeof *dn);
    int rc = 0;
    if (!p->targets || !dp || !dn) {
        rc = cm_nomem(c);
        goto done;
    }
    for (size_t k = 0; k < m->morph_count; k++) {
        for (uint32_t i = 0; i < nv; i++) {
            const double *d = morph_delta(m->morphs[k], m->o->vertices[keys[i].vertex].id);
            for (int a = 0; a < 3; a++) {
                dp[3 * (size_t)i + a] = (float)d[a];
                dn[3 * (size_t)i + a] =
                    (float)mt[k].cn[3 * (size_t)crn[i] + a] - keys[i].n[a];
            }
        }
        p->targets[2 * k] = glb_add_accessor(&c->b, dp, nv, ANIM_GLTF_FLOAT, 3,
                                             GLB_TARGET_ARRAY_BUFFER, true);
        p->targets[2 * k + 1] = glb_add_accessor(&c->b, dn, nv, ANIM_GLTF_FLOAT, 3,
                                                 GLB_TARGET_ARRAY_BUFFER, false);
    }
done:
    free(dp);
    free(dn);
    return rc;
}

static int build_prim(cm_ctx *c, const cm_mesh *m, const obj_tables *t, const obj_tables *mt,
                      uint32_t total_tris, int32_t mat, cm_prim *p)
{
    const mdl_object *o = m->o;
    bool skinned = m->skinned;
    size_t faces = 0, corners = 0;
    for (size_t f = 0; f < o->face_count; f++)
        if (o->faces[f].material == mat) {
            faces++;
            corners += 3 * (size_t)tri_count_of(o, t, f, total_tris);
        }
    size_t cap = 16;
    while (cap < 2 * corners)
        cap *= 2;
    p->material = mat;
    p->face_ids = malloc(faces * sizeof *p->face_ids);
    p->first_tri = malloc(faces * sizeof *p->first_tri);
    p->tri_count = malloc(faces * sizeof *p->tri_count);
    uint32_t *slots = malloc(cap * sizeof *slots); /* vertex + 1, 0 empty */
    vkey *keys = malloc(corners * sizeof *keys);
    uint32_t *src = malloc(corners * sizeof *src);
    uint32_t *crn = malloc((corners + 1) * sizeof *crn);
    uint32_t *idx = malloc(corners * sizeof *idx);
    int rc = 0;
    if (!p->face_ids || !p->first_tri || !p->tri_count || !slots || !keys || !src || !crn ||
        !idx) {
        rc = cm_nomem(c);
        goto done;
    }
    memset(slots, 0, cap * sizeof *slots);
    uint32_t nv = 0, ni = 0;
    for (size_t f = 0; f < o->face_count; f++) {
        if (o->faces[f].material != mat)
            continue;
        uint32_t tc = tri_count_of(o, t, f, total_tris);
        p->face_ids[p->face_count] = o->faces[f].id;
        p->first_tri[p->face_count] = ni / 3;
        p->tri_count[p->face_count++] = tc;
        for (uint32_t k = 0; k < 3 * tc; k++) {
            uint32_t ci = t->tri[3 * (size_t)t->tri_first[f] + k];
            vkey key;
            memset(&key, 0, sizeof key);
            key.vertex = t->cvi[ci];
            key.uv[0] = (float)o->corners[ci].uv[0];
            key.uv[1] = (float)o->corners[ci].uv[1];
            for (int a = 0; a < 3; a++)
                key.n[a] = (float)t->cn[3 * (size_t)ci + a];
            size_t h = (size_t)hash_key(&key) & (cap - 1);
            while (slots[h] && memcmp(&keys[slots[h] - 1], &key, sizeof key) != 0)
                h = (h + 1) & (cap - 1);
            if (!slots[h]) {
                keys[nv] = key;
                src[nv] = key.vertex;
                crn[nv] = ci;
                slots[h] = ++nv;
            }
            idx[ni++] = slots[h] - 1;
        }
    }
    float *pos = malloc(((size_t)nv + 1) * 3 * sizeof *pos);
    float *nrm = malloc(((size_t)nv + 1) * 3 * sizeof *nrm);
    float *uv = malloc(((size_t)nv + 1) * 2 * sizeof *uv);
    if (!pos || !nrm || !uv) {
        free(pos);
        free(nrm);
        free(uv);
        rc = cm_nomem(c);
        goto done;
    }
    for (uint32_t i = 0; i < nv; i++) {
        for (int a = 0; a < 3; a++) {
            pos[3 * (size_t)i + a] = (float)o->vertices[keys[i].vertex].p[a];
            nrm[3 * (size_t)i + a] = keys[i].n[a];
        }
        uv[2 * (size_t)i] = keys[i].uv[0];
        uv[2 * (size_t)i + 1] = keys[i].uv[1];
        grow_bounds(c, pos + 3 * (size_t)i);
    }
    p->position = glb_add_accessor(&c->b, pos, nv, ANIM_GLTF_FLOAT, 3, GLB_TARGET_ARRAY_BUFFER,
                                   true);
    p->normal = glb_add_accessor(&c->b, nrm, nv, ANIM_GLTF_FLOAT, 3, GLB_TARGET_ARRAY_BUFFER,
                                 false);
    p->uv = glb_add_accessor(&c->b, uv, nv, ANIM_GLTF_FLOAT, 2, GLB_TARGET_ARRAY_BUFFER, false);
    free(pos);
    free(nrm);
    free(uv);
    /* 65535 is the primitive-restart value of 16-bit indices. */
    if (nv <= 65535) {
        uint16_t *i16 = malloc(((size_t)ni + 1) * sizeof *i16);
        if (!i16) {
            rc = cm_nomem(c);
            goto done;
        }
        for (uint32_t i = 0; i < ni; i++)
            i16[i] = (uint16_t)idx[i];
        p->indices = glb_add_accessor(&c->b, i16, ni, ANIM_GLTF_UNSIGNED_SHORT, 1,
                                      GLB_TARGET_ELEMENT_ARRAY_BUFFER, false);
        free(i16);
    } else {
        p->indices = glb_add_accessor(&c->b, idx, ni, ANIM_GLTF_UNSIGNED_INT, 1,
                                      GLB_TARGET_ELEMENT_ARRAY_BUFFER, false);
    }
    c->info->vertices += nv;
    c->info->primitives++;
    if (skinned)
        rc = build_skin_attrs(c, o, src, nv, p);
    if (rc == 0 && m->morph_count)
        rc = build_targets(c, m, mt, keys, crn, nv, p);
done:
    free(slots);
    free(keys);
    free(src);
    free(crn);
    free(idx);
    return rc;
}

/* The corner normals of o with every target's deltas applied, one table
 * per target of m. */
static int build_morph_tables(cm_ctx *c, const cm_mesh *m, obj_tables *mt)
{
    const mdl_object *o = m->o;
    mdl_object copy = *o;
    copy.vertices = malloc((o->vertex_count + 1) * sizeof *copy.vertices);
    if (!copy.vertices)
        return cm_nomem(c);
    int rc = 0;
    for (size_t k = 0; k < m->morph_count && rc == 0; k++) {
        memcpy(copy.vertices, o->vertices, o->vertex_count * sizeof *copy.vertices);
        const mdl_morph *mo = m->morphs[k];
        for (size_t i = 0; i < mo->delta_count; i++) {
            ptrdiff_t v = mdl_object_vertex_index(o, mo->deltas[i].vertex);
            for (int a = 0; v >= 0 && a < 3; a++)
                copy.vertices[v].p[a] += mo->deltas[i].delta[a];
        }
        rc = build_tables(c, &copy, &mt[k], false);
    }
    free(copy.vertices);
    return rc;
}

int cm_build_mesh(cm_ctx *c, const mdl_object *o, bool skinned, cm_mesh *m)
{
    memset(m, 0, sizeof *m);
    m->o = o;
    m->skinned = skinned;
    m->morphs = malloc((c->d->morph_count + 1) * sizeof *m->morphs);
    if (!m->morphs)
        return cm_nomem(c);
    for (size_t i = 0; i < c->d->morph_count; i++)
        if (strcmp(c->d->morphs[i]->object, o->name) == 0)
            m->morphs[m->morph_count++] = c->d->morphs[i];
    obj_tables *mt = calloc(m->morph_count + 1, sizeof *mt);
    if (!mt)
        return cm_nomem(c);
    obj_tables t;
    int rc = build_tables(c, o, &t, true);
    if (rc == 0 && m->morph_count)
        rc = build_morph_tables(c, m, mt);
    uint32_t total = 0;
    for (size_t f = 0; f < o->face_count; f++)
        total += o->faces[f].corner_count - 2;
    bool used[MDL_MATERIAL_SLOTS] = {false};
    size_t distinct = 0;
    for (size_t f = 0; rc == 0 && f < o->face_count; f++) {
        int32_t mat = o->faces[f].material;
        if (!used[mat])
            distinct++;
        used[mat] = true;
    }
    if (rc == 0) {
        m->prims = calloc(distinct, sizeof *m->prims);
        if (!m->prims)
            rc = cm_nomem(c);
    }
    for (int32_t mat = 0; rc == 0 && mat < MDL_MATERIAL_SLOTS; mat++) {
        if (!used[mat])
            continue;
        c->material_used[mat] = true;
        rc = build_prim(c, m, &t, mt, total, mat, &m->prims[m->prim_count++]);
    }
    tables_free(&t);
    for (size_t k = 0; k < m->morph_count; k++)
        tables_free(&mt[k]);
    free(mt);
    return rc;
}

void cm_mesh_free(cm_mesh *m)
{
    for (size_t i = 0; i < m->prim_count; i++) {
        free(m->prims[i].face_ids);
        free(m->prims[i].first_tri);
        free(m->prims[i].tri_count);
        free(m->prims[i].targets);
    }
    free(m->prims);
    free(m->morphs);
    memset(m, 0, sizeof *m);
}

static void write_prim(cm_ctx *c, const cm_mesh *m, const cm_prim *p, anim_json_writer *w)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "attributes");
    anim_json_writer_begin_object(w);
    if (m->skinned)
        anim_json_writer_key_uint(w, "JOINTS_0", p->joints);
    anim_json_writer_key_uint(w, "NORMAL", p->normal);
    anim_json_writer_key_uint(w, "POSITION", p->position);
    anim_json_writer_key_uint(w, "TEXCOORD_0", p->uv);
    if (m->skinned)
        anim_json_writer_key_uint(w, "WEIGHTS_0", p->weights);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "extras");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "animsmith");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "faces");
    anim_json_writer_begin_array(w);
    for (size_t f = 0; f < p->face_count; f++) {
        char id[24];
        snprintf(id, sizeof id, "%llu", (unsigned long long)p->face_ids[f]);
        anim_json_writer_begin_array(w);
        anim_json_writer_string(w, id);
        anim_json_writer_uint(w, p->first_tri[f]);
        anim_json_writer_uint(w, p->tri_count[f]);
        anim_json_writer_end_array(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "object");
    anim_json_writer_string(w, m->o->name);
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
    anim_json_writer_key_uint(w, "indices", p->indices);
    anim_json_writer_key_uint(w, "material", (uint64_t)c->material_index[p->material]);
    anim_json_writer_key_uint(w, "mode", 4);
    if (m->morph_count) {
        anim_json_writer_key(w, "targets");
        anim_json_writer_begin_array(w);
        for (size_t k = 0; k < m->morph_count; k++) {
            anim_json_writer_begin_object(w);
            anim_json_writer_key_uint(w, "NORMAL", p->targets[2 * k + 1]);
            anim_json_writer_key_uint(w, "POSITION", p->targets[2 * k]);
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
    }
    anim_json_writer_end_object(w);
}

void cm_write_meshes(cm_ctx *c, anim_json_writer *w)
{
    if (!c->mesh_count)
        return;
    anim_json_writer_key(w, "meshes");
    anim_json_writer_begin_array(w);
    for (size_t i = 0; i < c->mesh_count; i++) {
        const cm_mesh *m = &c->meshes[i];
        anim_json_writer_begin_object(w);
        if (m->morph_count) {
            anim_json_writer_key(w, "extras");
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "targetNames");
            anim_json_writer_begin_array(w);
            for (size_t k = 0; k < m->morph_count; k++)
                anim_json_writer_string(w, m->morphs[k]->key.name);
            anim_json_writer_end_array(w);
            anim_json_writer_end_object(w);
        }
        anim_json_writer_key(w, "name");
        anim_json_writer_string(w, m->o->name);
        anim_json_writer_key(w, "primitives");
        anim_json_writer_begin_array(w);
        for (size_t p = 0; p < m->prim_count; p++)
            write_prim(c, m, &m->prims[p], w);
        anim_json_writer_end_array(w);
        if (m->morph_count) {
            anim_json_writer_key(w, "weights");
            anim_json_writer_begin_array(w);
            for (size_t k = 0; k < m->morph_count; k++)
                anim_json_writer_f64(w, m->morphs[k]->weight);
            anim_json_writer_end_array(w);
        }
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}
