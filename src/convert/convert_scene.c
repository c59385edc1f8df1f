/* The animation-only projection and the static mesh transform bake, as
 * edits of the FBX scene before it is projected and written. */
#include "convert/convert_scene.h"

#include <math.h>
#include <string.h>

#include "animsmith/math.h"

void anim_convert_animation_only(anim_fbx_scene *scene)
{
    for (uint32_t i = 0; i < scene->node_count; i++) {
        scene->nodes[i].mesh = ANIM_NONE;
        scene->nodes[i].skin = ANIM_NONE;
        scene->nodes[i].material_count = 0;
    }
    scene->mesh_count = scene->skin_count = scene->material_count = 0;
    scene->texture_count = scene->image_count = 0;
    /* Weights belong to a mesh; with the meshes gone they have no target. */
    for (uint32_t c = 0; c < scene->clip_count; c++) {
        anim_fbx_clip *clip = &scene->clips[c];
        uint32_t kept = 0;
        for (uint32_t t = 0; t < clip->track_count; t++)
            if (clip->tracks[t].path != ANIM_PATH_WEIGHTS)
                clip->tracks[kept++] = clip->tracks[t];
        clip->track_count = kept;
    }
}

/* Rest world matrices of every node (parents come first). */
static void rest_worlds(const anim_fbx_scene *scene, anim_mat4 *world)
{
    for (uint32_t i = 0; i < scene->node_count; i++) {
        const anim_fbx_node_rec *n = &scene->nodes[i];
        anim_mat4 local = anim_mat4_from_trs(anim_vec3_from_array(n->t),
                                             anim_quat_normalize(anim_quat_from_array(n->r)),
                                             anim_vec3_from_array(n->s));
        world[i] = n->parent == ANIM_NONE ? local : anim_mat4_mul(&world[n->parent], &local);
    }
}

static bool finite16(const double *m)
{
    for (int i = 0; i < 16; i++)
        if (!isfinite(m[i]))
            return false;
    return true;
}

/* The inverse transpose of the 3x3 linear part (column-major 3x3 out),
 * for normals: cofactors / det. */
static void normal_matrix(const anim_mat4 *w, double det, double out[9])
{
    const double *m = w->m;
    double a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6],
           k = m[10];
    /* Row-major cofactor matrix of [[a b c][d e f][g h k]] is the inverse
     * transpose times det; store it column-major. */
    double cof[9] = {e * k - f * h, -(d * k - f * g), d * h - e * g,
                     -(b * k - c * h), a * k - c * g, -(a * h - b * g),
                     b * f - c * e, -(a * f - c * d), a * e - b * d};
    for (int r = 0; r < 3; r++)
        for (int col = 0; col < 3; col++)
            out[col * 3 + r] = cof[r * 3 + col] / det;
}

static void apply3(const double *m9, const float *v, float *out, bool normalize)
{
    double x = m9[0] * v[0] + m9[3] * v[1] + m9[6] * v[2];
    double y = m9[1] * v[0] + m9[4] * v[1] + m9[7] * v[2];
    double z = m9[2] * v[0] + m9[5] * v[1] + m9[8] * v[2];
    if (normalize) {
        double len = sqrt(x * x + y * y + z * z);
        if (len > 0) {
            x /= len;
            y /= len;
            z /= len;
        }
    }
    out[0] = (float)x;
    out[1] = (float)y;
    out[2] = (float)z;
}

static int refuse(anim_error *err, const char *what)
{
    return anim_error_set(err, ANIM_ERR_UNSUPPORTED, "cannot bake static transforms: %s", what);
}

static int check_bakeable(const anim_fbx_scene *scene, const anim_mat4 *world, anim_error *err)
{
    for (uint32_t c = 0; c < scene->clip_count; c++)
        if (scene->clips[c].track_count)
            return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                                  "cannot bake static transforms: clip '%s' animates the scene",
                                  scene->clips[c].name);
    if (scene->skin_count)
        return refuse(err, "the document has a skin");
    bool any = false;
    for (uint32_t i = 0; i < scene->node_count; i++) {
        const anim_fbx_node_rec *n = &scene->nodes[i];
        if (n->mesh == ANIM_NONE)
            continue;
        any = true;
        if (n->skin != ANIM_NONE || scene->meshes[n->mesh].skin != ANIM_NONE)
            return refuse(err, "a mesh instance is skinned");
        if (!finite16(world[i].m))
            return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                                  "cannot bake static transforms: node '%s' has a non-finite "
                                  "transform", n->name);
        double det = anim_mat4_det3(&world[i]);
        /* Near-singular relative to the transform's own scale: the cube
         * of the largest column length sets what "small" means. */
        double big = 0;
        for (int col = 0; col < 3; col++) {
            double l = anim_vec3_len(anim_mat4_column(&world[i], col));
            big = l > big ? l : big;
        }
        if (!(fabs(det) > 1e-9 * big * big * big) || big == 0)
            return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                                  "cannot bake static transforms: node '%s' has a singular or "
                                  "near-singular transform (determinant %g)", n->name, det);
        if (det < 0)
            return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                                  "cannot bake static transforms: node '%s' has a reflecting "
                                  "transform (determinant %g)", n->name, det);
    }
    if (!any)
        return refuse(err, "document has no mesh instances");
    return 0;
}

static void bake_mesh(anim_fbx_mesh *m, const anim_mat4 *w, double det)
{
    double lin[9] = {w->m[0], w->m[1], w->m[2], w->m[4], w->m[5], w->m[6], w->m[8], w->m[9], w->m[10]};
    double nrm[9];
    normal_matrix(w, det, nrm);
    for (uint32_t p = 0; p < m->primitive_count; p++) {
        anim_fbx_primitive *pr = &m->primitives[p];
        for (uint32_t v = 0; v < pr->vertex_count; v++) {
            float *pos = pr->positions + (size_t)v * 3;
            anim_vec3 q = anim_mat4_transform_point(w, anim_vec3_from_f32(pos));
            pos[0] = (float)q.x;
            pos[1] = (float)q.y;
            pos[2] = (float)q.z;
            if (pr->normals)
                apply3(nrm, pr->normals + (size_t)v * 3, pr->normals + (size_t)v * 3, true);
            if (pr->tangents)
                apply3(lin, pr->tangents + (size_t)v * 4, pr->tangents + (size_t)v * 4, true);
            for (uint32_t t = 0; t < m->target_count; t++) {
                float *d = pr->target_positions[t] + (size_t)v * 3;
                apply3(lin, d, d, false);
                if (pr->target_normals && pr->target_normals[t]) {
                    float *nd = pr->target_normals[t] + (size_t)v * 3;
                    apply3(nrm, nd, nd, false);
                }
            }
        }
    }
}

int anim_convert_bake_static(anim_fbx_scene *scene, anim_convert_bake_entry **entries,
                             uint32_t *entry_count, anim_error *err)
{
    anim_arena *arena = scene->arena;
    anim_mat4 *world = anim_arena_calloc(arena, scene->node_count + 1, sizeof *world);
    if (!world)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    rest_worlds(scene, world);
    if (check_bakeable(scene, world, err))
        return -1;
    uint32_t n = 0;
    for (uint32_t i = 0; i < scene->node_count; i++)
        n += scene->nodes[i].mesh != ANIM_NONE;
    anim_convert_bake_entry *out = anim_arena_calloc(arena, n + 1, sizeof *out);
    anim_fbx_node_rec *nodes = anim_arena_calloc(arena, n + 1, sizeof *nodes);
    if (!out || !nodes)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    /* The identity root keeps the source root's name. */
    nodes[0] = scene->nodes[0];
    nodes[0].parent = ANIM_NONE;
    nodes[0].mesh = nodes[0].skin = ANIM_NONE;
    uint32_t k = 0;
    for (uint32_t i = 0; i < scene->node_count; i++) {
        anim_fbx_node_rec *src = &scene->nodes[i];
        if (src->mesh == ANIM_NONE)
            continue;
        anim_fbx_mesh *m = &scene->meshes[src->mesh];
        double det = anim_mat4_det3(&world[i]);
        bake_mesh(m, &world[i], det);
        anim_convert_bake_entry *e = &out[k];
        e->source_node_index = i;
        e->source_node_name = src->name;
        e->source_mesh_ordinal = 0;
        e->source_mesh_index = src->mesh;
        e->source_mesh_name = m->name;
        e->output_node_index = k + 1;
        e->output_mesh_index = src->mesh;
        memcpy(e->world_transform, world[i].m, sizeof e->world_transform);
        e->linear_determinant = det;
        e->primitive_count = m->primitive_count;
        for (uint32_t p = 0; p < m->primitive_count; p++) {
            e->position_count += m->primitives[p].vertex_count;
            e->normal_count += m->primitives[p].normals ? m->primitives[p].vertex_count : 0;
        }
        anim_fbx_node_rec *dst = &nodes[k + 1];
        *dst = *src;
        dst->parent = 0;
        dst->t[0] = dst->t[1] = dst->t[2] = 0;
        dst->r[0] = dst->r[1] = dst->r[2] = 0;
        dst->r[3] = 1;
        dst->s[0] = dst->s[1] = dst->s[2] = 1;
        m->node = k + 1;
        k++;
    }
    memset(nodes[0].t, 0, sizeof nodes[0].t);
    nodes[0].r[0] = nodes[0].r[1] = nodes[0].r[2] = 0;
    nodes[0].r[3] = 1;
    nodes[0].s[0] = nodes[0].s[1] = nodes[0].s[2] = 1;
    scene->nodes = nodes;
    scene->node_count = n + 1;
    *entries = out;
    *entry_count = n;
    return 0;
}
