/* The helpers the skin weight operations share (mdl_weight_tools.h): one
 * lock rule and one weight rewrite, so every tool treats locked groups the
 * same way. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/math.h"
#include "model/mdl_weight_tools.h"

int mdl_joint_world_points(const mdl_doc *d, double (*pts)[3])
{
    anim_mat4 *world = malloc((d->joint_count + 1) * sizeof *world);
    if (!world)
        return -1;
    for (size_t i = 0; i < d->joint_count; i++) {
        const mdl_joint *j = &d->joints[i];
        anim_mat4 local = anim_mat4_from_trs(anim_vec3_from_array(j->translation),
                                             anim_quat_from_array(j->rotation),
                                             anim_vec3_from_array(j->scale));
        world[i] = j->parent < 0 ? local : anim_mat4_mul(&world[j->parent], &local);
        anim_vec3 t = anim_mat4_translation(&world[i]);
        pts[i][0] = t.x;
        pts[i][1] = t.y;
        pts[i][2] = t.z;
    }
    free(world);
    return 0;
}

double mdl_segment_distance2(const double p[3], const double a[3], const double b[3])
{
    double ab[3], ap[3], len2 = 0, t = 0;
    for (int k = 0; k < 3; k++) {
        ab[k] = b[k] - a[k];
        ap[k] = p[k] - a[k];
        len2 += ab[k] * ab[k];
        t += ab[k] * ap[k];
    }
    t = len2 > 0 ? t / len2 : 0;
    if (t < 0)
        t = 0;
    if (t > 1)
        t = 1;
    double d2 = 0;
    for (int k = 0; k < 3; k++) {
        double e = ap[k] - t * ab[k];
        d2 += e * e;
    }
    return d2;
}

bool mdl_weight_locked(const mdl_object *o, uint32_t j)
{
    size_t lo = 0, hi = o->lock_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (o->locks[mid] == j)
            return true;
        if (o->locks[mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

void mdl_wlist_load(const mdl_object *o, uint64_t vertex, mdl_wlist *out)
{
    size_t first, count = mdl_object_vertex_weights(o, vertex, &first);
    if (count > MDL_VERTEX_INFLUENCES_MAX)
        count = MDL_VERTEX_INFLUENCES_MAX;
    out->n = (uint32_t)count;
    for (size_t k = 0; k < count; k++) {
        out->joint[k] = o->weights[first + k].joint;
        out->w[k] = o->weights[first + k].weight;
    }
}

double mdl_wlist_locked_sum(const mdl_object *o, const mdl_wlist *l, uint32_t *count)
{
    double sum = 0;
    uint32_t n = 0;
    for (uint32_t k = 0; k < l->n; k++)
        if (l->w[k] > 0 && mdl_weight_locked(o, l->joint[k])) {
            sum += l->w[k];
            n++;
        }
    if (count)
        *count = n;
    return sum;
}

/* Locked sums within this of one leave no free remainder. */
#define REMAINDER_EPS 1e-12

mdl_wfit mdl_wlist_fit(const mdl_object *o, const mdl_wlist *old, const double *free_w,
                       const uint32_t *free_j, size_t free_n, uint32_t cap, mdl_wlist *out)
{
    uint32_t locked_n = 0;
    double locked = mdl_wlist_locked_sum(o, old, &locked_n);
    out->n = 0;
    for (uint32_t k = 0; k < old->n; k++)
        if (old->w[k] > 0 && mdl_weight_locked(o, old->joint[k])) {
            out->joint[out->n] = old->joint[k];
            out->w[out->n++] = old->w[k];
        }
    if (locked > 1 + REMAINDER_EPS)
        return MDL_WFIT_LOCKED_OVER;
    double rest = 1 - locked;
    if (rest <= REMAINDER_EPS)
        return MDL_WFIT_OK;
    if (cap > MDL_VERTEX_INFLUENCES_MAX)
        cap = MDL_VERTEX_INFLUENCES_MAX;
    uint32_t room = cap > locked_n ? cap - locked_n : 0;
    /* The largest free entries, by selection (lists are short). */
    uint32_t first = out->n;
    double sum = 0;
    bool any = false;
    for (size_t k = 0; k < free_n; k++)
        if (free_w[k] > 0 && !mdl_weight_locked(o, free_j[k]))
            any = true;
    if (!any)
        return MDL_WFIT_NO_FREE;
    if (room == 0)
        return MDL_WFIT_CAP;
    for (uint32_t slot = 0; slot < room; slot++) {
        ptrdiff_t best = -1;
        for (size_t k = 0; k < free_n; k++) {
            if (!(free_w[k] > 0) || mdl_weight_locked(o, free_j[k]))
                continue;
            bool taken = false;
            for (uint32_t t = first; t < out->n; t++)
                if (out->joint[t] == free_j[k])
                    taken = true;
            if (taken)
                continue;
            /* Ties go to the lower joint, so the result is deterministic. */
            if (best < 0 || free_w[k] > free_w[best] ||
                (free_w[k] == free_w[best] && free_j[k] < free_j[best]))
                best = (ptrdiff_t)k;
        }
        if (best < 0)
            break;
        out->joint[out->n] = free_j[best];
        out->w[out->n++] = free_w[best];
        sum += free_w[best];
    }
    for (uint32_t t = first; t < out->n; t++)
        out->w[t] = out->w[t] / sum * rest;
    return MDL_WFIT_OK;
}

static void wlist_sort(mdl_wlist *l)
{
    for (uint32_t i = 1; i < l->n; i++)
        for (uint32_t k = i; k > 0 && l->joint[k - 1] > l->joint[k]; k--) {
            uint32_t tj = l->joint[k];
            l->joint[k] = l->joint[k - 1];
            l->joint[k - 1] = tj;
            double tw = l->w[k];
            l->w[k] = l->w[k - 1];
            l->w[k - 1] = tw;
        }
}

bool mdl_wlist_same(const mdl_object *o, uint64_t vertex, const mdl_wlist *l)
{
    mdl_wlist s = *l;
    wlist_sort(&s);
    size_t first, count = mdl_object_vertex_weights(o, vertex, &first);
    if (count != s.n)
        return false;
    for (uint32_t k = 0; k < s.n; k++)
        if (o->weights[first + k].joint != s.joint[k] || o->weights[first + k].weight != s.w[k])
            return false;
    return true;
}

int mdl_weights_rewrite(mdl_object *o, const bool *set, const mdl_wlist *lists)
{
    size_t total = 0, old = 0;
    for (size_t v = 0; v < o->vertex_count; v++) {
        if (set[v]) {
            total += lists[v].n;
            continue;
        }
        total += mdl_object_vertex_weights(o, o->vertices[v].id, &old);
    }
    mdl_weight *nw = malloc((total + 1) * sizeof *nw);
    if (!nw)
        return -1;
    size_t n = 0;
    old = 0;
    for (size_t v = 0; v < o->vertex_count; v++) {
        uint64_t id = o->vertices[v].id;
        /* Stored weights are sorted by vertex like the vertices. */
        while (old < o->weight_count && o->weights[old].vertex < id)
            old++;
        size_t end = old;
        while (end < o->weight_count && o->weights[end].vertex == id)
            end++;
        if (set[v]) {
            mdl_wlist s = lists[v];
            wlist_sort(&s);
            for (uint32_t k = 0; k < s.n; k++)
                if (s.w[k] > 0)
                    nw[n++] = (mdl_weight){id, s.joint[k], s.w[k]};
        } else if (end > old) { /* an unweighted object has no weight array */
            memcpy(nw + n, o->weights + old, (end - old) * sizeof *nw);
            n += end - old;
        }
        old = end;
    }
    free(o->weights);
    o->weights = nw;
    o->weight_count = n;
    o->weight_cap = total + 1;
    return 0;
}

/* Sorting (x, index) pairs needs no comparison context. */
static int cmp_x(const void *a, const void *b)
{
    const mdl_near_key *x = a, *y = b;
    if (x->x != y->x)
        return x->x < y->x ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

int mdl_near_build(mdl_near *s, const double (*p)[3], size_t n)
{
    s->p = p;
    s->n = n;
    s->order = malloc((n + 1) * sizeof *s->order);
    if (!s->order)
        return -1;
    for (size_t i = 0; i < n; i++)
        s->order[i] = (mdl_near_key){p[i][0], i};
    qsort(s->order, n, sizeof *s->order, cmp_x);
    return 0;
}

void mdl_near_free(mdl_near *s)
{
    free(s->order);
    s->order = NULL;
}

ptrdiff_t mdl_near_find(const mdl_near *s, const double q[3], double r, uint64_t *visited)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->order[mid].x < q[0] - r)
            lo = mid + 1;
        else
            hi = mid;
    }
    ptrdiff_t best = -1;
    double best_d = r * r;
    for (size_t i = lo; i < s->n; i++) {
        const double *p = s->p[s->order[i].i];
        if (p[0] > q[0] + r)
            break;
        (*visited)++;
        double d = 0;
        for (int k = 0; k < 3; k++)
            d += (p[k] - q[k]) * (p[k] - q[k]);
        if (d < best_d || (d == best_d && (best < 0 || s->order[i].i < (size_t)best))) {
            best_d = d;
            best = (ptrdiff_t)s->order[i].i;
        }
    }
    return best;
}
