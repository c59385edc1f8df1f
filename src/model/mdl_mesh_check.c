/* Local validation of one object (mdl_mesh_check.h). Each check walks the
 * object once in id order, so a list comes out sorted by kind and then by
 * id without a sort, and the same document always gives the same list. */
#include "model/mdl_mesh_check.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "animsmith/json_write.h"
#include "animsmith/numfmt.h"
#include "core/grow.h"
#include "model/mdl_tri.h"

#define WEIGHT_SUM_TOLERANCE 1e-6
#define RENDER_INFLUENCES_MAX 4
/* Twice the area below which a face counts as degenerate, relative to the
 * square of its size (so the test does not depend on the unit). */
#define DEGENERATE_RELATIVE 1e-12

static const struct {
    const char *name;
    const char *severity;
} kinds[MDL_ISSUE_KIND_COUNT] = {
    [MDL_ISSUE_DEGENERATE_FACE] = {"degenerate_face", "error"},
    [MDL_ISSUE_NONPLANAR_FACE] = {"nonplanar_face", "warning"},
    [MDL_ISSUE_NONCONVEX_FACE] = {"nonconvex_face", "warning"},
    [MDL_ISSUE_BOUNDARY_EDGE] = {"boundary_edge", "info"},
    [MDL_ISSUE_NONMANIFOLD_EDGE] = {"nonmanifold_edge", "error"},
    [MDL_ISSUE_INCONSISTENT_WINDING] = {"inconsistent_winding", "error"},
    [MDL_ISSUE_LOOSE_VERTEX] = {"loose_vertex", "warning"},
    [MDL_ISSUE_UNDEFINED_MATERIAL] = {"undefined_material", "info"},
    [MDL_ISSUE_TOO_MANY_INFLUENCES] = {"too_many_influences", "error"},
    [MDL_ISSUE_UNNORMALIZED_WEIGHTS] = {"unnormalized_weights", "warning"},
    [MDL_ISSUE_UNWEIGHTED_VERTEX] = {"unweighted_vertex", "warning"},
    [MDL_ISSUE_INWARD_ORIENTATION] = {"inward_orientation", "error"},
    [MDL_ISSUE_SELF_INTERSECTION] = {"self_intersection", "error"},
};

const char *mdl_issue_kind_name(mdl_issue_kind kind)
{
    return kind < MDL_ISSUE_KIND_COUNT ? kinds[kind].name : "unknown";
}

const char *mdl_issue_severity(mdl_issue_kind kind)
{
    return kind < MDL_ISSUE_KIND_COUNT ? kinds[kind].severity : "error";
}

int mdl_issue_push(mdl_issue_list *l, const mdl_issue *is)
{
    if (!anim_grow((void **)&l->items, &l->cap, l->count + 1, sizeof *l->items))
        return -1;
    l->items[l->count++] = *is;
    return 0;
}

void mdl_issue_list_free(mdl_issue_list *l)
{
    free(l->items);
    l->items = NULL;
    l->count = l->cap = 0;
}

static int push(mdl_issue_list *l, mdl_issue_kind kind, size_t a, size_t b, double value)
{
    mdl_issue is = {kind, a, b, value, 0};
    return mdl_issue_push(l, &is);
}

/* Twice the area vector (Newell) and the bounding-box diagonal of a face. */
static void face_measure(const mdl_object *o, const mdl_face *f, double *area2, double *size)
{
    double n[3] = {0, 0, 0}, lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (uint32_t i = 0; i < f->corner_count; i++) {
        const double *p = mdl_object_position(o, o->corners[f->corner_first + i].vertex);
        const double *q = mdl_object_position(
            o, o->corners[f->corner_first + (i + 1) % f->corner_count].vertex);
        n[0] += (p[1] - q[1]) * (p[2] + q[2]);
        n[1] += (p[2] - q[2]) * (p[0] + q[0]);
        n[2] += (p[0] - q[0]) * (p[1] + q[1]);
        for (int k = 0; k < 3; k++) {
            if (i == 0 || p[k] < lo[k])
                lo[k] = p[k];
            if (i == 0 || p[k] > hi[k])
                hi[k] = p[k];
        }
    }
    *area2 = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    double d[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    *size = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

static int check_faces(const mdl_object *o, unsigned mask, mdl_issue_list *out)
{
    bool *degenerate = calloc(o->face_count ? o->face_count : 1, sizeof *degenerate);
    if (!degenerate)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < o->face_count && rc == 0; i++) {
        double area2, size;
        face_measure(o, &o->faces[i], &area2, &size);
        degenerate[i] = size == 0 || area2 <= DEGENERATE_RELATIVE * size * size;
        if (degenerate[i] && (mask & MDL_ISSUE_MASK(MDL_ISSUE_DEGENERATE_FACE)))
            rc = push(out, MDL_ISSUE_DEGENERATE_FACE, i, 0, 0);
    }
    /* A degenerate face has no plane, so planarity and convexity say
     * nothing more about it. */
    if (mask & MDL_ISSUE_MASK(MDL_ISSUE_NONPLANAR_FACE))
        for (size_t i = 0; i < o->face_count && rc == 0; i++)
            if (!degenerate[i] && !mdl_face_is_planar(o, &o->faces[i]))
                rc = push(out, MDL_ISSUE_NONPLANAR_FACE, i, 0,
                          mdl_face_nonplanarity(o, &o->faces[i]));
    if (mask & MDL_ISSUE_MASK(MDL_ISSUE_NONCONVEX_FACE))
        for (size_t i = 0; i < o->face_count && rc == 0; i++)
            if (!degenerate[i] && o->faces[i].corner_count > 3 &&
                !mdl_face_is_convex(o, &o->faces[i]))
                rc = push(out, MDL_ISSUE_NONCONVEX_FACE, i, 0, 0);
    free(degenerate);
    return rc;
}

static int check_edges(const mdl_topo *t, unsigned mask, mdl_issue_list *out)
{
    if (mask & MDL_ISSUE_MASK(MDL_ISSUE_BOUNDARY_EDGE))
        for (size_t e = 0; e < t->edge_count; e++)
            if (t->edges[e].face_count == 1 && push(out, MDL_ISSUE_BOUNDARY_EDGE, e, 0, 1))
                return -1;
    if (mask & MDL_ISSUE_MASK(MDL_ISSUE_NONMANIFOLD_EDGE))
        for (size_t e = 0; e < t->edge_count; e++)
            if (t->edges[e].face_count > 2 &&
                push(out, MDL_ISSUE_NONMANIFOLD_EDGE, e, 0, t->edges[e].face_count))
                return -1;
    /* Two faces agree on orientation when they run their shared edge in
     * opposite directions; an edge of more than two faces is already
     * reported as nonmanifold. */
    if (mask & MDL_ISSUE_MASK(MDL_ISSUE_INCONSISTENT_WINDING))
        for (size_t e = 0; e < t->edge_count; e++) {
            const mdl_edge *ed = &t->edges[e];
            if (ed->face_count == 2 &&
                t->uses[ed->first_use].forward == t->uses[ed->first_use + 1].forward &&
                push(out, MDL_ISSUE_INCONSISTENT_WINDING, e, 0, 2))
                return -1;
        }
    return 0;
}

static int check_loose(const mdl_object *o, mdl_issue_list *out)
{
    bool *used = calloc(o->vertex_count ? o->vertex_count : 1, sizeof *used);
    if (!used)
        return -1;
    for (size_t c = 0; c < o->corner_count; c++) {
        ptrdiff_t v = mdl_object_vertex_index(o, o->corners[c].vertex);
        if (v >= 0)
            used[v] = true;
    }
    int rc = 0;
    for (size_t v = 0; v < o->vertex_count && rc == 0; v++)
        if (!used[v])
            rc = push(out, MDL_ISSUE_LOOSE_VERTEX, v, 0, 0);
    free(used);
    return rc;
}

static int check_materials(const mdl_doc *d, const mdl_object *o, mdl_issue_list *out)
{
    size_t uses[MDL_MATERIAL_SLOTS] = {0};
    for (size_t i = 0; i < o->face_count; i++) {
        int32_t m = o->faces[i].material;
        if (m >= 0 && m < MDL_MATERIAL_SLOTS)
            uses[m]++;
    }
    for (size_t m = 0; m < MDL_MATERIAL_SLOTS; m++)
        if (uses[m] && !d->materials[m].defined) {
            mdl_issue is = {MDL_ISSUE_UNDEFINED_MATERIAL, m, 0, 0, uses[m]};
            if (mdl_issue_push(out, &is))
                return -1;
        }
    return 0;
}

/* One pass per kind over the weights, grouped by vertex (both sorted). */
static int check_weights(const mdl_doc *d, const mdl_object *o, mdl_issue_kind kind,
                         mdl_issue_list *out)
{
    size_t w = 0;
    for (size_t v = 0; v < o->vertex_count; v++) {
        uint64_t id = o->vertices[v].id;
        while (w < o->weight_count && o->weights[w].vertex < id)
            w++;
        size_t nonzero = 0, n = 0;
        double sum = 0;
        for (; w + n < o->weight_count && o->weights[w + n].vertex == id; n++) {
            sum += o->weights[w + n].weight;
            if (o->weights[w + n].weight > 0)
                nonzero++;
        }
        if (kind == MDL_ISSUE_TOO_MANY_INFLUENCES && nonzero > RENDER_INFLUENCES_MAX &&
            push(out, kind, v, 0, (double)nonzero))
            return -1;
        if (kind == MDL_ISSUE_UNNORMALIZED_WEIGHTS && d->joint_count > 0 && n > 0 &&
            !(fabs(sum - 1.0) <= WEIGHT_SUM_TOLERANCE) && push(out, kind, v, 0, sum))
            return -1;
    }
    return 0;
}

static int check_unweighted(const mdl_object *o, mdl_issue_list *out)
{
    if (o->weight_count == 0)
        return 0;
    size_t w = 0;
    for (size_t v = 0; v < o->vertex_count; v++) {
        uint64_t id = o->vertices[v].id;
        while (w < o->weight_count && o->weights[w].vertex < id)
            w++;
        if ((w >= o->weight_count || o->weights[w].vertex != id) &&
            push(out, MDL_ISSUE_UNWEIGHTED_VERTEX, v, 0, 0))
            return -1;
    }
    return 0;
}

int mdl_mesh_check(const mdl_doc *d, const mdl_object *o, const mdl_topo *t, unsigned mask,
                   mdl_issue_list *out)
{
    const unsigned face_kinds = MDL_ISSUE_MASK(MDL_ISSUE_DEGENERATE_FACE) |
                                MDL_ISSUE_MASK(MDL_ISSUE_NONPLANAR_FACE) |
                                MDL_ISSUE_MASK(MDL_ISSUE_NONCONVEX_FACE);
    if ((mask & face_kinds) && check_faces(o, mask, out))
        return -1;
    if ((mask & MDL_ISSUE_MASK_EDGES) && check_edges(t, mask, out))
        return -1;
    if ((mask & MDL_ISSUE_MASK(MDL_ISSUE_LOOSE_VERTEX)) && check_loose(o, out))
        return -1;
    if ((mask & MDL_ISSUE_MASK(MDL_ISSUE_UNDEFINED_MATERIAL)) && check_materials(d, o, out))
        return -1;
    if ((mask & MDL_ISSUE_MASK(MDL_ISSUE_TOO_MANY_INFLUENCES)) &&
        check_weights(d, o, MDL_ISSUE_TOO_MANY_INFLUENCES, out))
        return -1;
    if ((mask & MDL_ISSUE_MASK(MDL_ISSUE_UNNORMALIZED_WEIGHTS)) &&
        check_weights(d, o, MDL_ISSUE_UNNORMALIZED_WEIGHTS, out))
        return -1;
    if ((mask & MDL_ISSUE_MASK(MDL_ISSUE_UNWEIGHTED_VERTEX)) && check_unweighted(o, out))
        return -1;
    return 0;
}

/* ---- rows */

static void write_id(anim_json_writer *w, uint64_t id)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, id);
    anim_json_writer_string(w, buf);
}

static const char *num(double v, char buf[ANIM_FMT_JSON_MAX])
{
    anim_fmt_f64_json(v, buf);
    return buf;
}

void mdl_issue_write(anim_json_writer *w, const mdl_object *o, const mdl_topo *t,
                     const mdl_issue *is)
{
    uint64_t faces[MDL_ISSUE_IDS_MAX], verts[2];
    size_t nf = 0, nv = 0;
    bool truncated = false;
    char detail[256], nb[ANIM_FMT_JSON_MAX];
    const mdl_edge *e = NULL;
    switch (is->kind) {
    case MDL_ISSUE_DEGENERATE_FACE:
    case MDL_ISSUE_NONPLANAR_FACE:
    case MDL_ISSUE_NONCONVEX_FACE:
        faces[nf++] = o->faces[is->a].id;
        break;
    case MDL_ISSUE_BOUNDARY_EDGE:
    case MDL_ISSUE_NONMANIFOLD_EDGE:
    case MDL_ISSUE_INCONSISTENT_WINDING:
        e = &t->edges[is->a];
        verts[nv++] = e->a;
        verts[nv++] = e->b;
        for (uint32_t u = 0; u < e->face_count; u++) {
            if (nf == MDL_ISSUE_IDS_MAX) {
                truncated = true;
                break;
            }
            faces[nf++] = o->faces[t->uses[e->first_use + u].face].id;
        }
        break;
    case MDL_ISSUE_LOOSE_VERTEX:
    case MDL_ISSUE_TOO_MANY_INFLUENCES:
    case MDL_ISSUE_UNNORMALIZED_WEIGHTS:
    case MDL_ISSUE_UNWEIGHTED_VERTEX:
        verts[nv++] = o->vertices[is->a].id;
        break;
    case MDL_ISSUE_UNDEFINED_MATERIAL:
        for (size_t i = 0; i < o->face_count; i++)
            if (o->faces[i].material == (int32_t)is->a) {
                if (nf == MDL_ISSUE_IDS_MAX) {
                    truncated = true;
                    break;
                }
                faces[nf++] = o->faces[i].id;
            }
        break;
    case MDL_ISSUE_SELF_INTERSECTION:
        faces[nf++] = o->faces[is->a].id;
        faces[nf++] = o->faces[is->b].id;
        break;
    default:
        break;
    }
    switch (is->kind) {
    case MDL_ISSUE_DEGENERATE_FACE:
        snprintf(detail, sizeof detail, "face %" PRIu64 " has zero area", faces[0]);
        break;
    case MDL_ISSUE_NONPLANAR_FACE:
        snprintf(detail, sizeof detail,
                 "face %" PRIu64 " is not planar (deviation %s of its size); compile "
                 "triangulates it by projection",
                 faces[0], num(is->value, nb));
        break;
    case MDL_ISSUE_NONCONVEX_FACE:
        snprintf(detail, sizeof detail, "face %" PRIu64 " is not convex in its plane", faces[0]);
        break;
    case MDL_ISSUE_BOUNDARY_EDGE:
        snprintf(detail, sizeof detail,
                 "edge %" PRIu64 "-%" PRIu64 " is open: only face %" PRIu64 " uses it", verts[0],
                 verts[1], faces[0]);
        break;
    case MDL_ISSUE_NONMANIFOLD_EDGE:
        snprintf(detail, sizeof detail, "edge %" PRIu64 "-%" PRIu64 " is used by %" PRIu32 " faces",
                 verts[0], verts[1], e->face_count);
        break;
    case MDL_ISSUE_INCONSISTENT_WINDING:
        snprintf(detail, sizeof detail,
                 "faces %" PRIu64 " and %" PRIu64 " both run edge %" PRIu64 "-%" PRIu64
                 " in the same direction",
                 faces[0], faces[1], verts[0], verts[1]);
        break;
    case MDL_ISSUE_LOOSE_VERTEX:
        snprintf(detail, sizeof detail, "vertex %" PRIu64 " is used by no face", verts[0]);
        break;
    case MDL_ISSUE_UNDEFINED_MATERIAL:
        snprintf(detail, sizeof detail,
                 "material %zu is not defined: %zu face(s) compile with the default material",
                 is->a, is->count);
        break;
    case MDL_ISSUE_TOO_MANY_INFLUENCES:
        snprintf(detail, sizeof detail,
                 "vertex %" PRIu64 " has %s non-zero influences; compile accepts at most 4",
                 verts[0], num(is->value, nb));
        break;
    case MDL_ISSUE_UNNORMALIZED_WEIGHTS:
        snprintf(detail, sizeof detail,
                 "weights of vertex %" PRIu64 " sum to %s; compile normalizes them", verts[0],
                 num(is->value, nb));
        break;
    case MDL_ISSUE_UNWEIGHTED_VERTEX:
        snprintf(detail, sizeof detail,
                 "vertex %" PRIu64 " has no weights while other vertices of the object do",
                 verts[0]);
        break;
    case MDL_ISSUE_INWARD_ORIENTATION:
        snprintf(detail, sizeof detail,
                 "the closed surface encloses a negative volume (%s): its faces wind inward",
                 num(is->value, nb));
        break;
    case MDL_ISSUE_SELF_INTERSECTION:
        snprintf(detail, sizeof detail, "faces %" PRIu64 " and %" PRIu64 " intersect", faces[0],
                 faces[1]);
        break;
    default:
        detail[0] = '\0';
        break;
    }
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "kind");
    anim_json_writer_string(w, mdl_issue_kind_name(is->kind));
    anim_json_writer_key(w, "severity");
    anim_json_writer_string(w, mdl_issue_severity(is->kind));
    if (is->kind == MDL_ISSUE_UNDEFINED_MATERIAL) {
        anim_json_writer_key(w, "material");
        anim_json_writer_uint(w, is->a);
    }
    anim_json_writer_key(w, "faces");
    anim_json_writer_begin_array(w);
    for (size_t i = 0; i < nf; i++)
        write_id(w, faces[i]);
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "vertices");
    anim_json_writer_begin_array(w);
    for (size_t i = 0; i < nv; i++)
        write_id(w, verts[i]);
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "ids_truncated");
    anim_json_writer_bool(w, truncated);
    anim_json_writer_key(w, "detail");
    anim_json_writer_string(w, detail);
    anim_json_writer_end_object(w);
}
