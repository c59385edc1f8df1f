/* The weight tools: weight_locks (the object's locked weight groups) and
 * weight_edit (assign, normalize, smooth, mirror, transfer, bind over a
 * vertex selection). Every tool computes each selected vertex's new list
 * first and rewrites the weights in one pass, so tools that read other
 * vertices (smooth, mirror) see the weights as they were, and a refusal
 * leaves the object untouched. Locked weights stay exact; the free
 * influences share what the locked ones leave of unit sum
 * (mdl_weight_tools.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/mdl_ops.h"
#include "model/mdl_topo.h"
#include "model/mdl_weight_tools.h"

/* ---- weight_locks */

static const mdl_field weight_locks_fields[] = {
    {.name = "joints", .type = MDL_F_INT_ARRAY, .required = true, .min = 0,
     .max = MDL_JOINTS_MAX - 1, .min_items = 0, .max_items = MDL_JOINTS_MAX,
     .description = "joint ordinals to lock (replaces the set); empty unlocks every group"},
    {.name = NULL},
};

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int run_weight_locks(mdl_ctx *ctx, const anim_json_value *op)
{
    mdl_object *o = mdl_target_object(ctx, op, false);
    if (!o)
        return -1;
    const anim_json_value *list = mdl_field_get(op, "joints");
    size_t n = anim_json_count(list);
    if (mdl_spend(ctx, 1 + n))
        return -1;
    uint32_t *j = malloc((n + 1) * sizeof *j);
    if (!j)
        return mdl_nomem(ctx);
    for (size_t i = 0; i < n; i++) {
        int64_t v = anim_json_integer(anim_json_item(list, i));
        if ((uint64_t)v >= ctx->doc->joint_count) {
            free(j);
            return mdl_refuse(ctx, "unknown_joint",
                              "field \"joints[%zu]\": joint %lld does not exist (the skeleton "
                              "has %zu joints)",
                              i, (long long)v, ctx->doc->joint_count);
        }
        j[i] = (uint32_t)v;
    }
    if (n)
        qsort(j, n, sizeof *j, cmp_u32);
    for (size_t i = 1; i < n; i++)
        if (j[i] == j[i - 1]) {
            uint32_t dup = j[i];
            free(j);
            return mdl_refuse(ctx, "invalid_operation",
                              "field \"joints\": joint %u appears twice", dup);
        }
    free(o->locks);
    o->locks = n ? j : NULL;
    o->lock_count = n;
    if (!n)
        free(j);
    return 0;
}

const mdl_op_def mdl_op_weight_locks = {
    .op = "weight_locks",
    .mesh_edit = true,
    .fields = weight_locks_fields,
    .description = "Replaces the object's locked weight groups; weight tools keep locked "
                   "weights exact.",
    .run = run_weight_locks,
};

/* ---- weight_edit */

#define CAP_DEFAULT 4

static const mdl_field assign_fields[] = {
    {.name = "joint", .type = MDL_F_INTEGER, .required = true, .min = 0,
     .max = MDL_JOINTS_MAX - 1, .description = "the joint every selected vertex binds to"},
    {.name = NULL},
};
static const mdl_field normalize_fields[] = {
    {.name = "max_influences", .type = MDL_F_INTEGER, .min = 1,
     .max = MDL_VERTEX_INFLUENCES_MAX, .description = "influences kept per vertex, default 4"},
    {.name = NULL},
};
static const mdl_field smooth_fields[] = {
    {.name = "iterations", .type = MDL_F_INTEGER, .min = 1, .max = 64,
     .description = "passes, 1-64, default 1"},
    {.name = "factor", .type = MDL_F_NUMBER, .min = 0, .max = 1,
     .description = "blend towards the neighbour average, 0-1, default 0.5"},
    {.name = NULL},
};
static const mdl_field joint_map_fields[] = {
    {.name = "source", .type = MDL_F_INTEGER, .required = true, .min = 0,
     .max = MDL_JOINTS_MAX - 1, .description = "joint of the mirrored vertex's influence"},
    {.name = "target", .type = MDL_F_INTEGER, .required = true, .min = 0,
     .max = MDL_JOINTS_MAX - 1, .description = "joint it becomes on this side"},
    {.name = NULL},
};
static const mdl_field mirror_fields[] = {
    {.name = "axis", .type = MDL_F_INTEGER, .required = true, .min = 0, .max = 2,
     .description = "mirror plane normal through the origin: 0 X, 1 Y, 2 Z"},
    {.name = "joints", .type = MDL_F_OBJECTS, .required = true, .min_items = 0,
     .max_items = MDL_JOINTS_MAX, .fields = joint_map_fields,
     .description = "joint map rows {source, target}, sources unique; unmapped joints stay"},
    {.name = "tolerance", .type = MDL_F_NUMBER, .min = 0, .max = 1e300, .min_open = true,
     .description = "match distance, positive, default 0.001"},
    {.name = NULL},
};
static const mdl_field transfer_fields[] = {
    {.name = "source", .type = MDL_F_NAME, .required = true,
     .description = "the object whose weights are copied"},
    {.name = "max_distance", .type = MDL_F_NUMBER, .required = true, .min = 0, .max = 1e300,
     .min_open = true, .description = "match distance, positive"},
    {.name = NULL},
};
static const mdl_field bind_fields[] = {
    {.name = "max_influences", .type = MDL_F_INTEGER, .min = 1,
     .max = MDL_VERTEX_INFLUENCES_MAX, .description = "influences per vertex, default 4"},
    {.name = "power", .type = MDL_F_NUMBER, .min = 0, .max = 8, .min_open = true,
     .description = "inverse-distance power, (0, 8], default 2"},
    {.name = NULL},
};

static const mdl_field edit_variants[] = {
    {.name = "assign", .fields = assign_fields,
     .description = "binds every selected vertex rigidly to one joint"},
    {.name = "normalize", .fields = normalize_fields,
     .description = "prunes unlocked weights to the largest and normalizes to unit sum"},
    {.name = "smooth", .fields = smooth_fields,
     .description = "blends towards the average of edge-connected neighbours"},
    {.name = "mirror", .fields = mirror_fields,
     .description = "copies the weights of the vertex mirrored across an axis plane"},
    {.name = "transfer", .fields = transfer_fields,
     .description = "copies the weights of the nearest vertex of another object"},
    {.name = "bind", .fields = bind_fields,
     .description = "inverse-distance weights from the rest bone segments"},
    {.name = NULL},
};

static const mdl_field weight_edit_fields[] = {
    {.name = "vertices", .type = MDL_F_IDS, .required = true, .min_items = 0,
     .description = "vertex ID strings, unique; empty selects every vertex"},
    {.name = "edit", .type = MDL_F_VARIANT, .required = true, .fields = edit_variants,
     .description = "the tool: {type: assign|normalize|smooth|mirror|transfer|bind, ...}"},
    {.name = NULL},
};

/* The state of one weight_edit run. */
typedef struct wedit {
    mdl_ctx *ctx;
    mdl_object *o;
    const anim_json_value *edit;
    bool *sel;      /* per vertex index */
    mdl_wlist *out; /* per vertex index, for selected vertices */
} wedit;

/* Stores the fit of vertex v or refuses naming why it cannot be done. */
static int fit_vertex(wedit *e, size_t v, const double *w, const uint32_t *j, size_t n,
                      uint32_t cap, bool empty_ok)
{
    mdl_wlist old;
    uint64_t id = e->o->vertices[v].id;
    mdl_wlist_load(e->o, id, &old);
    mdl_wfit fit = mdl_wlist_fit(e->o, &old, w, j, n, cap, &e->out[v]);
    double locked = mdl_wlist_locked_sum(e->o, &old, NULL);
    switch (fit) {
    case MDL_WFIT_OK:
        return 0;
    case MDL_WFIT_LOCKED_OVER:
        return mdl_refuse(e->ctx, "locked_weight",
                          "vertex \"%llu\": its locked weights sum to %.17g, more than 1",
                          (unsigned long long)id, locked);
    case MDL_WFIT_CAP:
        return mdl_refuse(e->ctx, "influence_cap",
                          "vertex \"%llu\": max_influences %u cannot hold its locked weights "
                          "and the remaining weight %.17g",
                          (unsigned long long)id, cap, 1 - locked);
    case MDL_WFIT_NO_FREE:
        if (empty_ok) {
            /* Nothing unlocked to spread: the vertex keeps what it has. */
            e->out[v] = old;
            return 0;
        }
        return mdl_refuse(e->ctx, "locked_weight",
                          "vertex \"%llu\": no unlocked influence can take the remaining "
                          "weight %.17g",
                          (unsigned long long)id, 1 - locked);
    }
    return 0;
}

static int edit_assign(wedit *e)
{
    mdl_ctx *ctx = e->ctx;
    int64_t jv = mdl_field_int(e->edit, "joint", 0);
    if ((uint64_t)jv >= ctx->doc->joint_count)
        return mdl_refuse(ctx, "unknown_joint",
                          "field \"edit.joint\": joint %lld does not exist (the skeleton has "
                          "%zu joints)",
                          (long long)jv, ctx->doc->joint_count);
    uint32_t j = (uint32_t)jv;
    for (size_t v = 0; v < e->o->vertex_count; v++) {
        if (!e->sel[v])
            continue;
        mdl_wlist old;
        mdl_wlist_load(e->o, e->o->vertices[v].id, &old);
        for (uint32_t k = 0; k < old.n; k++) {
            bool locked = old.w[k] > 0 && mdl_weight_locked(e->o, old.joint[k]);
            if (locked && (old.joint[k] != j || old.w[k] != 1))
                return mdl_refuse(ctx, "locked_weight",
                                  "vertex \"%llu\" has locked weight %.17g on joint %u: assign "
                                  "to joint %u would change it",
                                  (unsigned long long)e->o->vertices[v].id, old.w[k],
                                  old.joint[k], j);
        }
        e->out[v] = (mdl_wlist){.n = 1, .joint = {j}, .w = {1.0}};
    }
    return 0;
}

static int edit_normalize(wedit *e)
{
    uint32_t cap = (uint32_t)mdl_field_int(e->edit, "max_influences", CAP_DEFAULT);
    for (size_t v = 0; v < e->o->vertex_count; v++) {
        if (!e->sel[v])
            continue;
        mdl_wlist old;
        mdl_wlist_load(e->o, e->o->vertices[v].id, &old);
        if (old.n == 0) {
            e->out[v] = old; /* an unweighted vertex has nothing to normalize */
            continue;
        }
        if (fit_vertex(e, v, old.w, old.joint, old.n, cap, false))
            return -1;
    }
    return 0;
}

/* Dense scratch weights over the joints, cleared through the touched list. */
typedef struct dense {
    double *w;
    uint32_t *touched;
    size_t n;
} dense;

static void dense_add(dense *d, const mdl_wlist *l, double s)
{
    /* A zero contribution would list a joint it never adds to. */
    for (uint32_t k = 0; k < l->n && s > 0; k++) {
        if (d->w[l->joint[k]] == 0)
            d->touched[d->n++] = l->joint[k];
        d->w[l->joint[k]] += s * l->w[k];
    }
}

static int edit_smooth(wedit *e)
{
    mdl_ctx *ctx = e->ctx;
    mdl_object *o = e->o;
    int64_t iterations = mdl_field_int(e->edit, "iterations", 1);
    double factor = mdl_field_f64(e->edit, "factor", 0.5);
    size_t nv = o->vertex_count, jn = ctx->doc->joint_count ? ctx->doc->joint_count : 1;
    mdl_topo t;
    if (mdl_topo_build(o, &t))
        return mdl_nomem(ctx);
    /* Neighbour lists (CSR) from the derived edges. */
    size_t *start = calloc(nv + 1, sizeof *start);
    size_t *adj = malloc((2 * t.edge_count + 1) * sizeof *adj);
    mdl_wlist *cur = malloc((nv + 1) * sizeof *cur);
    dense d = {calloc(jn, sizeof(double)), malloc((jn + 1) * sizeof(uint32_t)), 0};
    double *fw = malloc((jn + 1) * sizeof *fw);
    uint32_t *fj = malloc((jn + 1) * sizeof *fj);
    int rc = 0;
    if (!start || !adj || !cur || !d.w || !d.touched || !fw || !fj) {
        rc = mdl_nomem(ctx);
        goto done;
    }
    for (size_t i = 0; i < t.edge_count; i++) {
        start[mdl_object_vertex_index(o, t.edges[i].a) + 1]++;
        start[mdl_object_vertex_index(o, t.edges[i].b) + 1]++;
    }
    for (size_t v = 0; v < nv; v++)
        start[v + 1] += start[v];
    {
        size_t *fill = calloc(nv + 1, sizeof *fill);
        if (!fill) {
            rc = mdl_nomem(ctx);
            goto done;
        }
        for (size_t i = 0; i < t.edge_count; i++) {
            size_t a = (size_t)mdl_object_vertex_index(o, t.edges[i].a);
            size_t b = (size_t)mdl_object_vertex_index(o, t.edges[i].b);
            adj[start[a] + fill[a]++] = b;
            adj[start[b] + fill[b]++] = a;
        }
        free(fill);
    }
    for (size_t v = 0; v < nv; v++)
        mdl_wlist_load(o, o->vertices[v].id, &cur[v]);
    for (int64_t it = 0; it < iterations && rc == 0; it++) {
        if ((rc = mdl_spend(ctx, nv + 2 * t.edge_count)) != 0)
            break;
        for (size_t v = 0; v < nv && rc == 0; v++) {
            if (!e->sel[v])
                continue;
            size_t deg = start[v + 1] - start[v];
            d.n = 0;
            dense_add(&d, &cur[v], deg ? 1 - factor : 1);
            for (size_t k = start[v]; k < start[v + 1]; k++)
                dense_add(&d, &cur[adj[k]], factor / (double)deg);
            size_t n = 0;
            for (size_t k = 0; k < d.n; k++) {
                fj[n] = d.touched[k];
                fw[n++] = d.w[d.touched[k]];
                d.w[d.touched[k]] = 0;
            }
            /* Smoothing may gather many joints: keep the four largest, the
             * most a rendered vertex takes. */
            rc = fit_vertex(e, v, fw, fj, n, CAP_DEFAULT, true);
        }
        /* Jacobi: the next pass reads this pass's results. */
        for (size_t v = 0; v < nv && rc == 0; v++)
            if (e->sel[v])
                cur[v] = e->out[v];
    }
done:
    mdl_topo_free(&t);
    free(start);
    free(adj);
    free(cur);
    free(d.w);
    free(d.touched);
    free(fw);
    free(fj);
    return rc;
}

/* Vertex positions of o as a flat array for mdl_near. */
static double (*positions(const mdl_object *o))[3]
{
    double(*p)[3] = malloc((o->vertex_count + 1) * sizeof *p);
    if (p)
        for (size_t v = 0; v < o->vertex_count; v++)
            memcpy(p[v], o->vertices[v].p, sizeof p[v]);
    return p;
}

static int edit_mirror(wedit *e)
{
    mdl_ctx *ctx = e->ctx;
    mdl_object *o = e->o;
    int axis = (int)mdl_field_int(e->edit, "axis", 0);
    double tol = mdl_field_f64(e->edit, "tolerance", 0.001);
    const anim_json_value *rows = mdl_field_get(e->edit, "joints");
    size_t rn = anim_json_count(rows);
    int32_t map[MDL_JOINTS_MAX];
    for (size_t j = 0; j < MDL_JOINTS_MAX; j++)
        map[j] = (int32_t)j;
    bool mapped[MDL_JOINTS_MAX] = {false};
    for (size_t i = 0; i < rn; i++) {
        const anim_json_value *r = anim_json_item(rows, i);
        int64_t s = mdl_field_int(r, "source", 0), t = mdl_field_int(r, "target", 0);
        if ((uint64_t)s >= ctx->doc->joint_count || (uint64_t)t >= ctx->doc->joint_count)
            return mdl_refuse(ctx, "unknown_joint",
                              "field \"edit.joints[%zu]\": joint %lld does not exist (the "
                              "skeleton has %zu joints)",
                              i, (long long)((uint64_t)s >= ctx->doc->joint_count ? s : t),
                              ctx->doc->joint_count);
        if (mapped[s])
            return mdl_refuse(ctx, "invalid_operation",
                              "field \"edit.joints[%zu].source\": joint %lld is already mapped",
                              i, (long long)s);
        mapped[s] = true;
        map[s] = (int32_t)t;
    }
    double(*p)[3] = positions(o);
    mdl_near near = {0};
    if (!p || mdl_near_build(&near, (const double(*)[3])p, o->vertex_count)) {
        free(p);
        return mdl_nomem(ctx);
    }
    int rc = 0;
    for (size_t v = 0; v < o->vertex_count && rc == 0; v++) {
        if (!e->sel[v])
            continue;
        double q[3] = {p[v][0], p[v][1], p[v][2]};
        q[axis] = -q[axis];
        uint64_t visited = 0;
        ptrdiff_t m = mdl_near_find(&near, q, tol, &visited);
        if ((rc = mdl_spend(ctx, 1 + visited)) != 0)
            break;
        if (m < 0) {
            rc = mdl_refuse(ctx, "unmatched_vertex",
                            "vertex \"%llu\": no vertex lies within tolerance %.17g of its "
                            "mirror image across axis %d",
                            (unsigned long long)o->vertices[v].id, tol, axis);
            break;
        }
        mdl_wlist src;
        mdl_wlist_load(o, o->vertices[m].id, &src);
        double w[MDL_VERTEX_INFLUENCES_MAX];
        uint32_t j[MDL_VERTEX_INFLUENCES_MAX];
        size_t n = 0;
        for (uint32_t k = 0; k < src.n; k++) {
            uint32_t to = (uint32_t)map[src.joint[k]];
            size_t at = n;
            for (size_t x = 0; x < n; x++)
                if (j[x] == to)
                    at = x;
            if (at == n) {
                j[n] = to;
                w[n++] = 0;
            }
            w[at] += src.w[k];
        }
        rc = fit_vertex(e, v, w, j, n, MDL_VERTEX_INFLUENCES_MAX, true);
    }
    mdl_near_free(&near);
    free(p);
    return rc;
}

static int edit_transfer(wedit *e)
{
    mdl_ctx *ctx = e->ctx;
    mdl_object *o = e->o;
    char *name = mdl_field_name(e->edit, "source");
    if (!name)
        return mdl_nomem(ctx);
    ptrdiff_t si = mdl_doc_find_object(ctx->doc, name);
    if (si < 0) {
        int rc = mdl_refuse(ctx, "unknown_object",
                            "field \"edit.source\": object \"%s\" does not exist", name);
        free(name);
        return rc;
    }
    free(name);
    const mdl_object *s = ctx->doc->objects[si];
    double r = mdl_field_f64(e->edit, "max_distance", 1);
    double(*p)[3] = positions(s);
    mdl_near near = {0};
    if (!p || mdl_near_build(&near, (const double(*)[3])p, s->vertex_count)) {
        free(p);
        return mdl_nomem(ctx);
    }
    int rc = mdl_spend(ctx, 1 + s->vertex_count);
    size_t unmatched = 0;
    for (size_t v = 0; v < o->vertex_count && rc == 0; v++) {
        if (!e->sel[v])
            continue;
        uint64_t visited = 0;
        ptrdiff_t m = mdl_near_find(&near, o->vertices[v].p, r, &visited);
        if ((rc = mdl_spend(ctx, 1 + visited)) != 0)
            break;
        if (m < 0) {
            /* Outside max_distance the vertex keeps its own weights. */
            mdl_wlist_load(o, o->vertices[v].id, &e->out[v]);
            unmatched++;
            continue;
        }
        mdl_wlist src;
        mdl_wlist_load(s, s->vertices[m].id, &src);
        rc = fit_vertex(e, v, src.w, src.joint, src.n, MDL_VERTEX_INFLUENCES_MAX, true);
    }
    if (rc == 0 && unmatched &&
        mdl_note(ctx, "%zu selected vertices had no source vertex within %.17g and kept their "
                 "weights", unmatched, r))
        rc = mdl_nomem(ctx);
    mdl_near_free(&near);
    free(p);
    return rc;
}

static int edit_bind(wedit *e)
{
    mdl_ctx *ctx = e->ctx;
    mdl_object *o = e->o;
    const mdl_doc *d = ctx->doc;
    size_t jn = d->joint_count;
    if (jn == 0)
        return mdl_refuse(ctx, "invalid_skeleton",
                          "object \"%s\": bind needs a skeleton (the document has no joints)",
                          o->name);
    uint32_t cap = (uint32_t)mdl_field_int(e->edit, "max_influences", CAP_DEFAULT);
    double power = mdl_field_f64(e->edit, "power", 2);
    double(*pts)[3] = malloc(jn * sizeof *pts);
    double *w = malloc(jn * sizeof *w);
    uint32_t *j = malloc(jn * sizeof *j);
    int rc = 0;
    if (!pts || !w || !j || mdl_joint_world_points(d, pts)) {
        rc = mdl_nomem(ctx);
        goto done;
    }
    for (size_t v = 0; v < o->vertex_count && rc == 0; v++) {
        if (!e->sel[v])
            continue;
        if ((rc = mdl_spend(ctx, 1 + jn)) != 0)
            break;
        /* Each joint's bone runs from its parent to it; the root is a
         * point. A vertex on a bone takes that bone alone (shared with
         * any other bone it also touches). */
        bool on_bone = false;
        for (size_t i = 0; i < jn; i++) {
            int32_t par = d->joints[i].parent;
            double d2 = mdl_segment_distance2(o->vertices[v].p, par < 0 ? pts[i] : pts[par],
                                              pts[i]);
            j[i] = (uint32_t)i;
            if (d2 <= 1e-24) {
                if (!on_bone)
                    for (size_t k = 0; k < i; k++)
                        w[k] = 0;
                on_bone = true;
                w[i] = 1;
            } else {
                w[i] = on_bone ? 0 : pow(sqrt(d2), -power);
                if (!isfinite(w[i]))
                    w[i] = 1e300;
            }
        }
        rc = fit_vertex(e, v, w, j, jn, cap, false);
    }
done:
    free(pts);
    free(w);
    free(j);
    return rc;
}

static int run_weight_edit(mdl_ctx *ctx, const anim_json_value *op)
{
    mdl_object *o = mdl_target_object(ctx, op, false);
    if (!o)
        return -1;
    size_t n = 0;
    uint64_t *ids = mdl_field_ids(ctx, op, "vertices", &n);
    if (ctx->nomem)
        return -1;
    wedit e = {ctx, o, mdl_field_get(op, "edit"), calloc(o->vertex_count + 1, sizeof(bool)),
               calloc(o->vertex_count + 1, sizeof(mdl_wlist))};
    size_t *idx = malloc((n + 1) * sizeof *idx);
    int rc = 0;
    if (!e.sel || !e.out || !idx) {
        rc = mdl_nomem(ctx);
        goto done;
    }
    if ((rc = mdl_resolve_vertices(ctx, o, ids, n, idx)) != 0)
        goto done;
    for (size_t i = 0; i < n; i++)
        e.sel[idx[i]] = true;
    if (n == 0)
        for (size_t v = 0; v < o->vertex_count; v++)
            e.sel[v] = true;
    if ((rc = mdl_spend(ctx, 1 + o->vertex_count + o->weight_count)) != 0)
        goto done;
    const anim_json_value *type = mdl_field_get(e.edit, "type");
    if (anim_json_string_eq(type, "assign"))
        rc = edit_assign(&e);
    else if (anim_json_string_eq(type, "normalize"))
        rc = edit_normalize(&e);
    else if (anim_json_string_eq(type, "smooth"))
        rc = edit_smooth(&e);
    else if (anim_json_string_eq(type, "mirror"))
        rc = edit_mirror(&e);
    else if (anim_json_string_eq(type, "transfer"))
        rc = edit_transfer(&e);
    else
        rc = edit_bind(&e);
    if (rc)
        goto done;
    for (size_t v = 0; v < o->vertex_count; v++) {
        if (!e.sel[v])
            continue;
        if (mdl_wlist_same(o, o->vertices[v].id, &e.out[v])) {
            e.sel[v] = false; /* unchanged: neither rewritten nor selected */
            continue;
        }
        if (mdl_select_vertex(ctx, o->vertices[v].id)) {
            rc = mdl_nomem(ctx);
            goto done;
        }
    }
    if (mdl_weights_rewrite(o, e.sel, e.out))
        rc = mdl_nomem(ctx);
done:
    free(ids);
    free(idx);
    free(e.sel);
    free(e.out);
    return rc;
}

const mdl_op_def mdl_op_weight_edit = {
    .op = "weight_edit",
    .mesh_edit = true,
    .fields = weight_edit_fields,
    .description = "Edits the weights of selected vertices (assign, normalize, smooth, mirror, "
                   "transfer, bind); locked weights stay exact.",
    .run = run_weight_edit,
};
