/* The LOD search (lod.h): per skinned mesh, a bisection of the index-count
 * fraction for the smallest candidate whose residual stays within the
 * bound, each step measured on the candidate as the writer writes it
 * (written to memory, loaded back), and the chosen meshes certified once
 * more on the bytes handed back.
 *
 * Why one fraction per mesh: the residual is one row per mesh (the
 * largest over every sample of every primitive), so it says which mesh
 * missed the bound but not which primitive; a per-primitive search would
 * steer blind. Meshes are searched one at a time with the others as
 * stored (a row reads its own mesh only), then written together.
 *
 * The residual is not monotone in the fraction in general (meshoptimizer
 * collapses different edges at different targets), so the bisection
 * finds a passing candidate near the smallest, not the smallest of all;
 * every candidate it returns passes, which is what the certificate says. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meshq/mq_lod_internal.h"

typedef struct lod_mesh_work {
    mq_gltf_mesh gm;
    uint32_t mesh;
    double ratio;
    const char *skip;          /* kept as stored, and why */
} lod_mesh_work;

/* The reductions of every triangle primitive of w at ratio, appended to
 * overrides (prim_count entries). */
static int reduce_mesh(const lod_mesh_work *w, double ratio, anim_lod_seams seams,
                       anim_arena *arena, anim_gltf_prim_override *overrides, mq_lod_prim *prims,
                       uint64_t *triangles, uint64_t *vertices, anim_error *err)
{
    *triangles = 0;
    *vertices = 0;
    for (uint32_t p = 0; p < w->gm.prim_count; p++) {
        if (mq_lod_prim_reduce(&w->gm.prims[p], w->mesh, ratio, seams, arena, &prims[p], err))
            return -1;
        overrides[p] = prims[p].o;
        *triangles += prims[p].o.index_count / 3;
        *vertices += prims[p].o.vertex_count;
    }
    return 0;
}

/* Writes source with the overrides to out (GLB) and loads it back. */
static anim_asset *candidate_of(const anim_asset *source, const anim_lod_options *o,
                                const anim_gltf_prim_override *overrides, uint32_t n,
                                anim_strbuf *out, anim_error *err)
{
    if (anim_gltf_write_asset_mem_with(source, NULL, ANIM_GLTF_FORMAT_GLB, o->generator,
                                       overrides, n, out, NULL, err))
        return NULL;
    anim_load_options lo;
    anim_load_options_default(&lo);
    lo.limits = source->source.limits;
    return anim_asset_load_memory(out->data, out->len, true, source->source.base_dir,
                                  "candidate", &lo, err);
}

static void residual_options(const anim_lod_options *o, const char *mesh,
                             anim_mq_gltf_options *ro)
{
    memset(ro, 0, sizeof *ro);
    ro->mesh = mesh;
    ro->envelope_from_clips = true;
    ro->has_max_residual = o->has_max_residual;
    ro->max_residual = o->max_residual;
    ro->source_path = o->source_path;
    ro->candidate_path = "candidate";
}

static const anim_mq_gltf_row *row_of(const anim_mq_gltf_result *r, uint32_t mesh)
{
    for (uint32_t i = 0; i < r->row_count; i++)
        if (r->rows[i].mesh == mesh)
            return &r->rows[i];
    return NULL;
}

static bool passes(const anim_lod_options *o, const anim_mq_reading *r)
{
    return r->state == ANIM_MQ_MEASURED && (!o->has_max_residual || r->value <= o->max_residual);
}

/* One measured step: mesh w at ratio. *pass and *reading (copied into
 * keep) on success. */
static int measure_step(const anim_asset *source, const anim_lod_options *o,
                        const lod_mesh_work *w, double ratio, bool *pass, uint64_t *triangles,
                        anim_mq_reading *reading, anim_error *err)
{
    anim_arena *step = anim_arena_new();
    anim_gltf_prim_override *ov = step ? anim_arena_calloc(step, w->gm.prim_count + 1, sizeof *ov)
                                       : NULL;
    mq_lod_prim *prims = step ? anim_arena_calloc(step, w->gm.prim_count + 1, sizeof *prims)
                              : NULL;
    anim_strbuf bytes = ANIM_STRBUF_INIT;
    anim_asset *cand = NULL;
    int rc = -1;
    uint64_t vertices;
    if (!ov || !prims) {
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        goto done;
    }
    if (reduce_mesh(w, ratio, o->seams, step, ov, prims, triangles, &vertices, err))
        goto done;
    cand = candidate_of(source, o, ov, w->gm.prim_count, &bytes, err);
    if (!cand)
        goto done;
    anim_mq_gltf_options ro;
    residual_options(o, w->gm.name, &ro);
    anim_mq_gltf_result res;
    memset(&res, 0, sizeof res);
    if (anim_mq_gltf_residual(source, cand, &ro, step, &res, err))
        goto done;
    const anim_mq_gltf_row *row = row_of(&res, w->mesh);
    if (!row) {
        anim_error_set(err, ANIM_ERR_INVALID, "mesh '%s': the residual measured no row for it",
                       w->gm.name);
        goto done;
    }
    /* The reading's arrays live in the step arena: keep the scalars. */
    *reading = row->reading;
    reading->bone_covariance = reading->bone_lever = NULL;
    reading->uncarried_source = reading->uncarried_candidate = NULL;
    *pass = passes(o, reading);
    rc = 0;
done:
    if (cand)
        anim_asset_free(cand);
    anim_strbuf_free(&bytes);
    anim_arena_free(step);
    return rc;
}

/* Bisection of the fraction for mesh w; sets w->ratio. A refused or not
 * measurable full mesh ends the search with *why set. */
static int search(const anim_asset *source, const anim_lod_options *o, lod_mesh_work *w,
                  uint32_t *steps, anim_arena *arena, const char **why, anim_error *err)
{
    bool pass;
    uint64_t tris;
    anim_mq_reading r;
    *steps = 0;
    if (measure_step(source, o, w, 1.0, &pass, &tris, &r, err))
        return -1;
    (*steps)++;
    w->ratio = 1.0;
    if (!pass) {
        *why = r.state == ANIM_MQ_MEASURED
                   ? anim_arena_printf(arena, "mesh '%s': even the full mesh measures %.9g m, over "
                                              "the bound (its influences cut to four)",
                                       w->gm.name, r.value)
                   : anim_arena_printf(arena, "mesh '%s': residual %s: %s", w->gm.name,
                                       r.state == ANIM_MQ_REFUSED ? "refused" : "not measurable",
                                       r.reason ? r.reason : "");
        return 0;
    }
    if (!o->has_max_residual)
        return 0;
    /* Verdicts by triangle count: two fractions meshoptimizer reduces to
     * the same count are one candidate, measured once. */
    uint64_t seen_tris[64];
    bool seen_pass[64];
    uint32_t seen = 0;
    double lo = 0, hi = 1;
    uint32_t n = o->steps ? o->steps : ANIM_LOD_DEFAULT_STEPS;
    for (uint32_t s = 0; s < n; s++) {
        double mid = (lo + hi) / 2;
        if (measure_step(source, o, w, mid, &pass, &tris, &r, err))
            return -1;
        bool known = false;
        for (uint32_t k = 0; k < seen; k++)
            if (seen_tris[k] == tris) {
                known = true;
                pass = seen_pass[k];
            }
        if (!known && seen < 64) {
            seen_tris[seen] = tris;
            seen_pass[seen++] = pass;
        }
        (*steps)++;
        if (pass) {
            hi = mid;
            w->ratio = mid;
        } else {
            lo = mid;
        }
    }
    return 0;
}

/* Triangles of the stored triangle-list primitives (indexed or not). */
static uint64_t stored_triangles(const anim_asset *source, uint32_t mesh)
{
    const anim_mesh *m = &source->doc.meshes[mesh];
    uint64_t t = 0;
    for (uint32_t p = 0; p < m->primitive_count; p++) {
        const anim_primitive *pr = &m->primitives[p];
        if (pr->mode != 4)
            continue;
        t += pr->indices != ANIM_NONE && pr->indices < source->source.accessor_count
                 ? source->source.accessors[pr->indices].count / 3
                 : pr->vertex_count / 3;
    }
    return t;
}

/* Every skinned mesh, or the one named. */
static int select_meshes(const anim_asset *source, const anim_lod_options *o, anim_arena *arena,
                         lod_mesh_work **out, uint32_t *count, anim_error *err)
{
    const anim_doc *d = &source->doc;
    lod_mesh_work *list = anim_arena_calloc(arena, d->mesh_count + 1, sizeof *list);
    if (!list)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    uint32_t n = 0;
    bool named = false;
    char what[512];
    snprintf(what, sizeof what, "source '%s'", o->source_path ? o->source_path : "");
    for (uint32_t m = 0; m < d->mesh_count; m++) {
        const char *name = mq_gltf_mesh_name(source, m, arena);
        if (!name)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        uint32_t skin = ANIM_NONE;
        mq_gltf_mesh_instance(source, m, &skin);
        if (o->mesh && strcmp(o->mesh, name))
            continue;
        if (o->mesh)
            named = true;
        if (skin == ANIM_NONE) {
            if (o->mesh)
                return anim_error_set(err, ANIM_ERR_USAGE, "%s: mesh '%s' is not skinned", what,
                                      name);
            continue;
        }
        list[n].mesh = m;
        uint32_t uvless = mq_gltf_mesh_uvless_primitive(source, m);
        if (uvless != ANIM_NONE) {
            /* Asked for by name, a mesh the residual cannot read is the
             * operator's error; among every skinned mesh it stays as
             * stored (certified trivially: nothing of it changes). */
            if (o->mesh)
                return anim_error_set(err, ANIM_ERR_USAGE,
                                      "%s: mesh '%s' primitive %u has no TEXCOORD_0; required "
                                      "one: the residual's samples are UVs",
                                      what, name, uvless);
            list[n].gm.name = name;
            list[n].skip = anim_arena_printf(arena, "mesh '%s' primitive %u has no "
                                             "TEXCOORD_0; the residual's samples are UVs",
                                             name, uvless);
            if (!list[n].skip)
                return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        } else if (mq_gltf_mesh_build(source, m, ANIM_NONE, what, arena, &list[n].gm, err)) {
            return -1;
        }
        n++;
    }
    if (o->mesh && !named)
        return anim_error_set(err, ANIM_ERR_USAGE, "%s: no mesh named '%s' (names as inspect "
                              "prints them)", what, o->mesh);
    if (n == 0)
        return anim_error_set(err, ANIM_ERR_USAGE, "%s: no skinned mesh to reduce", what);
    *out = list;
    *count = n;
    return 0;
}

int anim_lod_build(const anim_asset *source, const anim_lod_options *o, anim_arena *arena,
                   anim_lod_result *result, anim_error *err)
{
    memset(result, 0, sizeof *result);
    result->bytes = (anim_strbuf)ANIM_STRBUF_INIT;
    if (!o->has_ratio && !o->has_max_residual)
        return anim_error_set(err, ANIM_ERR_USAGE, "lod: --max-residual is required (or --ratio "
                              "for a plain simplification)");
    if (o->has_ratio && !(o->ratio > 0 && o->ratio <= 1))
        return anim_error_set(err, ANIM_ERR_USAGE, "lod: the ratio %g is not in (0, 1]", o->ratio);
    lod_mesh_work *work = NULL;
    uint32_t n = 0;
    if (select_meshes(source, o, arena, &work, &n, err))
        return -1;
    result->meshes = anim_arena_calloc(arena, n, sizeof *result->meshes);
    result->clips = anim_arena_calloc(arena, source->doc.clip_count + 1, sizeof *result->clips);
    if (!result->meshes || !result->clips)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    result->mesh_count = n;
    for (uint32_t c = 0; c < source->doc.clip_count; c++)
        result->clips[result->clip_count++] = source->doc.clips[c].name;
    uint32_t total_prims = 0;
    for (uint32_t i = 0; i < n; i++) {
        anim_lod_mesh *m = &result->meshes[i];
        m->mesh = work[i].mesh;
        m->name = work[i].gm.name;
        m->source_triangles = work[i].gm.mesh.triangle_count;
        m->source_vertices = work[i].gm.mesh.vertex_count;
        total_prims += work[i].gm.prim_count;
        if (work[i].skip) {
            m->kept_as_stored = work[i].skip;
            m->source_triangles = m->triangles = stored_triangles(source, m->mesh);
            m->ratio = 1;
            continue;
        }
        work[i].ratio = o->has_ratio ? o->ratio : 1.0;
    }
    /* Skinned meshes the residual cannot read (no UVs) leave nothing to
     * certify: not a malformed file, a LOD that cannot be proven. */
    uint32_t readable = 0;
    for (uint32_t i = 0; i < n; i++)
        readable += !work[i].skip;
    if (readable == 0) {
        result->failure = anim_arena_printf(arena, "no skinned mesh the residual can read; the "
                                            "first: %s", work[0].skip);
        return result->failure ? 0 : anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    /* Every mesh is named in the result before any is searched, so a
     * failure report lists them all. */
    for (uint32_t i = 0; i < n && !o->has_ratio; i++) {
        anim_lod_mesh *m = &result->meshes[i];
        if (work[i].skip)
            continue;
        const char *why = NULL;
        if (search(source, o, &work[i], &m->steps, arena, &why, err))
            return -1;
        if (why) {
            result->failure = why;
            return 0;
        }
    }
    /* The chosen candidates together, written once and measured on the
     * bytes that are handed back. */
    anim_gltf_prim_override *ov = anim_arena_calloc(arena, total_prims + 1, sizeof *ov);
    mq_lod_prim *prims = anim_arena_calloc(arena, total_prims + 1, sizeof *prims);
    if (!ov || !prims)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    uint32_t at = 0;
    for (uint32_t i = 0; i < n; i++) {
        anim_lod_mesh *m = &result->meshes[i];
        if (m->kept_as_stored)
            continue;
        m->ratio = work[i].ratio;
        if (reduce_mesh(&work[i], work[i].ratio, o->seams, arena, ov + at, prims + at,
                        &m->triangles, &m->vertices, err))
            return -1;
        for (uint32_t p = 0; p < work[i].gm.prim_count; p++) {
            m->seam_vertices += prims[at + p].seam_vertices;
            m->seam_vertices_dropped += prims[at + p].seam_dropped;
        }
        at += work[i].gm.prim_count;
    }
    anim_asset *cand = candidate_of(source, o, ov, at, &result->bytes, err);
    if (!cand) {
        anim_strbuf_free(&result->bytes);
        return -1;
    }
    /* One measurement per mesh, by name: a mesh kept as stored is not
     * measured (the residual cannot read it) and not changed. */
    result->certified = true;
    for (uint32_t i = 0; i < n; i++) {
        anim_lod_mesh *m = &result->meshes[i];
        if (m->kept_as_stored)
            continue;
        anim_mq_gltf_options ro;
        residual_options(o, m->name, &ro);
        anim_mq_gltf_result res;
        memset(&res, 0, sizeof res);
        if (anim_mq_gltf_residual(source, cand, &ro, arena, &res, err)) {
            anim_asset_free(cand);
            anim_strbuf_free(&result->bytes);
            return -1;
        }
        const anim_mq_gltf_row *row = row_of(&res, m->mesh);
        if (!row) {
            result->failure = anim_arena_printf(arena, "mesh '%s': the written candidate "
                                                "measured no row for it", m->name);
            result->certified = false;
            break;
        }
        m->reading = row->reading;
        if (!passes(o, &m->reading)) {
            result->certified = false;
            result->failure =
                m->reading.state == ANIM_MQ_MEASURED
                    ? anim_arena_printf(arena, "mesh '%s': residual %.9g m is over the bound "
                                        "%.9g m", m->name, m->reading.value, o->max_residual)
                    : anim_arena_printf(arena, "mesh '%s': residual %s: %s", m->name,
                                        m->reading.state == ANIM_MQ_REFUSED ? "refused"
                                                                            : "not measurable",
                                        m->reading.reason ? m->reading.reason : "");
            break;
        }
    }
    anim_asset_free(cand);
    if (!result->certified)
        anim_strbuf_free(&result->bytes);
    return 0;
}
