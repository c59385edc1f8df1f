/* anim_mq_gltf_residual: the skinning-envelope residual of a glTF mesh in
 * a candidate (a LOD) against the same mesh in its source, one row per
 * mesh. This file chooses the meshes, shares one bone-name table between
 * the two bindings, finds what moves vertices outside skinning (morph
 * targets) and hands the rest to the core (anim_mq_residual). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/json.h"
#include "meshq/mq_gltf_internal.h"

/* Everything one measurement's core call may hold at once. */
#define MQ_GLTF_MAX_BYTES ((size_t)1 << 30)

/* The mesh named as inspect prints it: its name, or "#N" for any mesh. */
static uint32_t find_mesh(const anim_asset *asset, const char *name)
{
    const anim_doc *doc = &asset->doc;
    for (uint32_t i = 0; i < doc->mesh_count; i++)
        if (doc->meshes[i].name && strcmp(doc->meshes[i].name, name) == 0)
            return i;
    if (name[0] == '#') {
        char *end = NULL;
        unsigned long i = strtoul(name + 1, &end, 10);
        if (end && *end == '\0' && end != name + 1 && i < doc->mesh_count)
            return (uint32_t)i;
    }
    return ANIM_NONE;
}

/* Whether the JSON array holds a non-zero number. */
static bool any_nonzero(const anim_json_value *arr)
{
    for (size_t i = 0; arr && i < anim_json_count(arr); i++) {
        const anim_json_value *v = anim_json_item(arr, i);
        if (v->type == ANIM_JSON_NUMBER && anim_json_number(v) != 0)
            return true;
    }
    return false;
}

/* A morph that moves the source mesh's vertices outside skinning: a
 * non-zero default weight (the mesh's or an instancing node's) or a clip
 * whose weights track on an instancing node keys a non-zero weight. A
 * weights track that holds every target at 0 moves nothing and is not
 * one. NULL when none, else the sentence naming it. */
static const char *morph_refusal(const anim_asset *asset, uint32_t mesh, anim_arena *arena)
{
    const anim_doc *doc = &asset->doc;
    const anim_mesh *m = &doc->meshes[mesh];
    uint32_t targets = 0;
    for (uint32_t p = 0; p < m->primitive_count; p++)
        if (m->primitives[p].target_count > targets)
            targets = m->primitives[p].target_count;
    if (targets == 0)
        return NULL;
    const char *name = mq_gltf_mesh_name(asset, mesh, arena);
    const anim_json_value *meshes = anim_json_get(asset->source.root, "meshes");
    const anim_json_value *mj =
        meshes && mesh < anim_json_count(meshes) ? anim_json_item(meshes, mesh) : NULL;
    if (mj && any_nonzero(anim_json_get(mj, "weights")))
        return anim_arena_printf(arena,
                                 "mesh '%s' has %u morph target(s) with a non-zero default weight; "
                                 "required every default weight 0 and no clip animating them — a "
                                 "morph moves vertices outside skinning, which the envelope does "
                                 "not bound",
                                 name, targets);
    const anim_json_value *nodes = anim_json_get(asset->source.root, "nodes");
    for (uint32_t node = 0; node < doc->node_count; node++) {
        const anim_bone *b = &doc->bones[doc->node_to_bone[node]];
        if (b->mesh != mesh)
            continue;
        const anim_json_value *nj =
            nodes && node < anim_json_count(nodes) ? anim_json_item(nodes, node) : NULL;
        if (nj && any_nonzero(anim_json_get(nj, "weights")))
            return anim_arena_printf(arena,
                                     "mesh '%s' has %u morph target(s) and node %u ('%s') sets a "
                                     "non-zero weight; required every default weight 0 and no "
                                     "clip animating them — a morph moves vertices outside "
                                     "skinning, which the envelope does not bound",
                                     name, targets, node, b->name);
    }
    for (uint32_t c = 0; c < doc->clip_count; c++) {
        const anim_clip *clip = &doc->clips[c];
        for (uint32_t k = 0; k < clip->morph_track_count; k++) {
            const anim_track *t = &clip->morph_tracks[k];
            if (t->bone >= doc->bone_count || doc->bones[t->bone].mesh != mesh)
                continue;
            size_t n = (size_t)t->value_count * t->components;
            for (size_t i = 0; i < n; i++) {
                if (t->values[i] == 0)
                    continue;
                return anim_arena_printf(
                    arena,
                    "mesh '%s' has %u morph target(s) and clip '%s' animates their weights "
                    "(channel %u on node %u '%s', a non-zero weight at key %zu); required no "
                    "clip animating them — a morph moves vertices outside skinning, which the "
                    "envelope does not bound",
                    name, targets, anim_clip_message_name(clip), t->channel, t->node,
                    doc->bones[t->bone].name,
                    (size_t)(i / t->components) / (t->interp == ANIM_INTERP_CUBICSPLINE ? 3 : 1));
            }
        }
    }
    return NULL;
}

/* The name table both bindings index: the source's joints, then any name
 * only the candidate or the envelope brings. */
typedef struct name_table {
    const char **names;
    uint32_t count, cap;
} name_table;

static uint32_t name_index(name_table *t, const char *name)
{
    for (uint32_t i = 0; i < t->count; i++)
        if (strcmp(t->names[i], name) == 0)
            return i;
    if (t->count == t->cap)
        return ANIM_NONE;
    t->names[t->count] = name;
    return t->count++;
}

/* The candidate's binds over the shared table (its own joint indices
 * re-read by name). */
static int remap_candidate(mq_gltf_mesh *cand, name_table *table, anim_arena *arena,
                           anim_error *err)
{
    anim_mq_mesh *m = &cand->mesh;
    if (!m->bind_start)
        return 0;
    uint32_t *map = anim_arena_alloc(arena, (size_t)(cand->bone_count ? cand->bone_count : 1) *
                                                sizeof *map);
    size_t nb = m->bind_start[m->vertex_count];
    anim_mq_bind *binds = anim_arena_alloc(arena, (nb ? nb : 1) * sizeof *binds);
    if (!map || !binds)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t k = 0; k < cand->bone_count; k++)
        map[k] = name_index(table, cand->bone_names[k]);
    for (size_t b = 0; b < nb; b++) {
        binds[b] = m->binds[b];
        binds[b].bone = map[m->binds[b].bone];
    }
    m->binds = binds;
    return 0;
}

/* A named envelope over the table; bones the table lacks are added (the
 * core then refuses them as bound by no source vertex). */
static const anim_mq_envelope *envelope_over(const mq_named_envelope *named, name_table *table,
                                             anim_arena *arena)
{
    anim_mq_envelope *env = anim_arena_calloc(arena, 1, sizeof *env);
    anim_mq_envelope_bone *bones =
        anim_arena_calloc(arena, named->bone_count ? named->bone_count : 1, sizeof *bones);
    if (!env || !bones)
        return NULL;
    env->reference = name_index(table, named->reference);
    for (uint32_t i = 0; i < named->bone_count; i++) {
        bones[i].bone = name_index(table, named->bones[i].bone);
        bones[i].linear = named->bones[i].linear;
        memcpy(bones[i].pivot, named->bones[i].pivot, sizeof bones[i].pivot);
        bones[i].translation = named->bones[i].translation;
    }
    env->bones = bones;
    env->bone_count = named->bone_count;
    return env;
}

/* A row that is refused (code set) or not measurable (code NULL). */
static void unmeasured_row(anim_mq_gltf_row *row, const char *code, const char *reason,
                           uint64_t samples, uint64_t art)
{
    memset(&row->reading, 0, sizeof row->reading);
    row->reading.state = code ? ANIM_MQ_REFUSED : ANIM_MQ_NOT_MEASURABLE;
    row->reading.code = code;
    row->reading.reason = reason;
    row->reading.samples = samples;
    row->reading.art = art;
    row->reading.worst_sample = ANIM_MQ_NONE;
}

static int measure_mesh(const anim_asset *source, const anim_asset *candidate,
                        const anim_mq_gltf_options *o, const mq_named_envelope *file_env,
                        uint32_t mesh, anim_arena *arena, anim_mq_gltf_row *row, anim_error *err)
{
    const char *spath = o->source_path ? o->source_path : "source";
    const char *cpath = o->candidate_path ? o->candidate_path : "candidate";
    const char *swhat = anim_arena_printf(arena, "source '%s'", spath);
    const char *cwhat = anim_arena_printf(arena, "candidate '%s'", cpath);
    memset(row, 0, sizeof *row);
    row->mesh = mesh;
    row->mesh_name = mq_gltf_mesh_name(source, mesh, arena);
    const char *who = anim_arena_printf(arena, "mesh '%s'", row->mesh_name);
    if (!swhat || !cwhat || !row->mesh_name || !who)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");

    /* The reference joint: the envelope's, else the skin's root. */
    uint32_t skin;
    mq_gltf_mesh_instance(source, mesh, &skin);
    uint32_t ref_joint = ANIM_NONE;
    if (skin != ANIM_NONE && file_env) {
        ref_joint = mq_gltf_skin_find_joint(source, skin, file_env->reference);
        if (ref_joint == ANIM_NONE)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: envelope '%s' reference \"%s\" is not a joint of skin %u "
                                  "that binds %s; required one of its joints",
                                  swhat, o->envelope_path, file_env->reference, skin, who);
    }
    uint32_t uvless = mq_gltf_mesh_uvless_primitive(source, mesh);
    if (uvless != ANIM_NONE) {
        const char *why = anim_arena_printf(
            arena, "%s: primitive %u has no TEXCOORD_0, and the residual's samples are UVs; "
                   "required a UV layout on every triangle primitive",
            who, uvless);
        if (!why)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        unmeasured_row(row, NULL, why, 0, 0);
        return 0;
    }
    mq_gltf_mesh *src = anim_arena_calloc(arena, 1, sizeof *src);
    mq_gltf_mesh *cand = anim_arena_calloc(arena, 1, sizeof *cand);
    if (!src || !cand)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    if (mq_gltf_mesh_build(source, mesh, ref_joint, swhat, arena, src, err))
        return -1;
    const char *reference =
        src->skin != ANIM_NONE ? src->bone_names[src->reference_joint] : NULL;
    row->reference = reference;

    if (mesh >= candidate->doc.mesh_count)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s has %u mesh(es), so no mesh %u to measure against %s of %s; "
                              "required the candidate's meshes in the source's order",
                              cwhat, candidate->doc.mesh_count, mesh, who, swhat);
    uint32_t cskin;
    mq_gltf_mesh_instance(candidate, mesh, &cskin);
    uint32_t cref = ANIM_NONE;
    if (cskin != ANIM_NONE && reference) {
        cref = mq_gltf_skin_find_joint(candidate, cskin, reference);
        if (cref == ANIM_NONE)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: mesh %u's skin %u has no joint \"%s\", the reference of "
                                  "%s; required the source's skeleton",
                                  cwhat, mesh, cskin, reference, who);
    }
    if (mq_gltf_mesh_build(candidate, mesh, cref, cwhat, arena, cand, err))
        return -1;
    row->source_triangles = src->mesh.triangle_count;
    row->candidate_triangles = cand->mesh.triangle_count;
    row->source_mesh = &src->mesh;

    /* One name table for both bindings and the envelope. */
    name_table table;
    table.cap = src->bone_count + cand->bone_count + (file_env ? file_env->bone_count + 1 : 0) + 1;
    table.names = anim_arena_calloc(arena, table.cap, sizeof *table.names);
    table.count = 0;
    if (!table.names)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t k = 0; k < src->bone_count; k++)
        table.names[table.count++] = src->bone_names[k];
    if (remap_candidate(cand, &table, arena, err))
        return -1;

    /* The samples, and the source's digest. */
    anim_mq_sample *samples = NULL;
    anim_mq_carrier *carriers = NULL;
    uint64_t count = 0, art = 0;
    if (mq_gltf_samples_build(source, src, o->uv_grid, o->max_samples, swhat, arena, &samples,
                              &carriers, &count, &art, err))
        return -1;
    row->samples = samples;
    row->source_carriers = carriers;
    char digest[ANIM_MQ_DIGEST_MAX];
    if (anim_mq_mesh_digest(&src->mesh, table.names, digest, err))
        return -1;
    row->source_digest = anim_arena_strdup(arena, digest);
    if (!row->source_digest)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");

    /* The envelope: from the file, or from the clips (which may refuse). */
    const char *deform = morph_refusal(source, mesh, arena);
    mq_named_envelope named;
    memset(&named, 0, sizeof named);
    const char *range_refusal = NULL;
    if (file_env) {
        named = *file_env;
    } else if (src->skin != ANIM_NONE) {
        int rc = mq_gltf_envelope_from_clips(source, src, who, arena, &named, &range_refusal, err);
        if (rc < 0)
            return -1;
    }
    if (range_refusal && !deform) {
        row->bone_names = table.names;
        row->bone_name_count = table.count;
        unmeasured_row(row, "SKINNING_RANGE_UNSUPPORTED", range_refusal, count, art);
        return 0;
    }
    if (!named.reference)
        named.reference = reference ? reference : "(no skin)";
    const anim_mq_envelope *env = envelope_over(&named, &table, arena);
    if (!env)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    row->envelope = env;
    row->bone_names = table.names;
    row->bone_name_count = table.count;

    anim_mq_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.who = who;
    ctx.source_id = spath;
    ctx.bone_names = table.names;
    ctx.bone_name_count = table.count;
    ctx.envelope = env;
    ctx.deform_refusal = deform;
    return anim_mq_residual(&ctx, &src->mesh, &cand->mesh, samples, count, carriers,
                            ANIM_MQ_PLANT_NONE, arena, MQ_GLTF_MAX_BYTES, &row->reading, err);
}

int anim_mq_gltf_residual(const anim_asset *source, const anim_asset *candidate,
                          const anim_mq_gltf_options *options, anim_arena *arena,
                          anim_mq_gltf_result *result, anim_error *err)
{
    memset(result, 0, sizeof *result);
    if (options->envelope_path && options->envelope_from_clips)
        return anim_error_set(err, ANIM_ERR_USAGE,
                              "mesh-quality residual: --envelope and --envelope-from-clips are "
                              "two sources of one envelope; required one of them");
    if (!options->envelope_path && !options->envelope_from_clips)
        return anim_error_set(err, ANIM_ERR_USAGE,
                              "mesh-quality residual: no envelope; required --envelope FILE.toml "
                              "or --envelope-from-clips — the motion a LOD must stay correct "
                              "under has no default");
    if (options->has_max_residual &&
        (!isfinite(options->max_residual) || options->max_residual < 0))
        return anim_error_set(err, ANIM_ERR_USAGE,
                              "mesh-quality residual: --max-residual is %g; required a finite "
                              "number of metres, 0 or more",
                              options->max_residual);
    mq_named_envelope file_env;
    if (options->envelope_path && mq_gltf_envelope_read(options->envelope_path, arena, &file_env, err))
        return -1;
    const char *spath = options->source_path ? options->source_path : "source";

    uint32_t *meshes = anim_arena_calloc(arena, source->doc.mesh_count ? source->doc.mesh_count : 1,
                                         sizeof *meshes);
    if (!meshes)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    uint32_t n = 0;
    if (options->mesh) {
        uint32_t m = find_mesh(source, options->mesh);
        if (m == ANIM_NONE)
            return anim_error_set(err, ANIM_ERR_USAGE,
                                  "source '%s' has no mesh '%s'; required a mesh name as inspect "
                                  "prints it, or #N",
                                  spath, options->mesh);
        meshes[n++] = m;
    } else {
        for (uint32_t m = 0; m < source->doc.mesh_count; m++)
            if (mq_gltf_mesh_is_skinned(source, m))
                meshes[n++] = m;
        if (n == 0)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "source '%s' has no skinned mesh (a mesh used by a node with a "
                                  "skin); required one, or --mesh NAME",
                                  spath);
    }
    result->rows = anim_arena_calloc(arena, n, sizeof *result->rows);
    if (!result->rows)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < n; i++) {
        if (measure_mesh(source, candidate, options, options->envelope_path ? &file_env : NULL,
                         meshes[i], arena, &result->rows[i], err))
            return -1;
        result->row_count++;
    }
    return 0;
}
