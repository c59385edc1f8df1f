/* The last stage of an FBX load: every number the projection will write is
 * finite in binary32. The stages refuse non-finite input values; this catches what
 * arithmetic on huge-but-finite ones can still produce (a product that
 * overflows, a decomposition of a collapsed matrix), so the glTF document
 * is always valid and the refusal names the object. */
#include <math.h>

#include "io/fbx/fbx_scene.h"

/* Finite once rounded to binary32, as the projection stores it (a finite
 * double beyond FLT_MAX becomes infinity there). */
static bool finite_d(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite((float)v[i]))
            return false;
    return true;
}

static bool finite_f(const float *v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        if (!isfinite(v[i]))
            return false;
    return true;
}

static int check_nodes(const anim_fbx_scene *sc, anim_error *err)
{
    for (uint32_t i = 0; i < sc->node_count; i++) {
        const anim_fbx_node_rec *n = &sc->nodes[i];
        if (!finite_d(n->t, 3) || !finite_d(n->r, 4) || !finite_d(n->s, 3))
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "Model '%s' (id %lld): its transform chain gives a non-finite "
                                  "rest transform",
                                  n->name, (long long)n->id);
    }
    return 0;
}

static int check_clips(const anim_fbx_scene *sc, anim_error *err)
{
    for (uint32_t c = 0; c < sc->clip_count; c++)
        for (uint32_t t = 0; t < sc->clips[c].track_count; t++) {
            const anim_fbx_track *tr = &sc->clips[c].tracks[t];
            if (!finite_d(tr->times, tr->key_count) ||
                !finite_d(tr->values, (size_t)tr->key_count * tr->components))
                return anim_error_set(err, ANIM_ERR_INVALID,
                                      "clip '%s' node '%s' %s: the transform chain gives a "
                                      "non-finite key",
                                      sc->clips[c].name, sc->nodes[tr->node].name,
                                      anim_path_name(tr->path));
        }
    return 0;
}

static int check_meshes(const anim_fbx_scene *sc, anim_error *err)
{
    for (uint32_t m = 0; m < sc->mesh_count; m++) {
        const anim_fbx_mesh *mesh = &sc->meshes[m];
        for (uint32_t p = 0; p < mesh->primitive_count; p++) {
            const anim_fbx_primitive *pr = &mesh->primitives[p];
            size_t n = pr->vertex_count;
            bool ok = finite_f(pr->positions, 3 * n) && finite_f(pr->normals, 3 * n) &&
                      finite_f(pr->tangents, 4 * n) && finite_f(pr->uv0, 2 * n) &&
                      finite_f(pr->colors, 4 * n) && finite_f(pr->weights, 4 * n);
            for (uint32_t t = 0; ok && t < mesh->target_count; t++)
                ok = finite_f(pr->target_positions[t], 3 * n) &&
                     (!pr->target_normals || finite_f(pr->target_normals[t], 3 * n));
            if (!ok)
                return anim_error_set(err, ANIM_ERR_INVALID,
                                      "mesh '%s' primitive %u: a vertex attribute is not finite "
                                      "in glTF space",
                                      mesh->name ? mesh->name : "", p);
        }
    }
    for (uint32_t s = 0; s < sc->skin_count; s++)
        if (!finite_d(sc->skins[s].inverse_bind, (size_t)16 * sc->skins[s].joint_count))
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "skin '%s': an inverse bind matrix is not finite",
                                  sc->skins[s].name ? sc->skins[s].name : "");
    return 0;
}

int anim_fbx_scene_check(const anim_fbx_scene *scene, anim_error *err)
{
    return check_nodes(scene, err) || check_clips(scene, err) || check_meshes(scene, err) ? -1
                                                                                           : 0;
}
