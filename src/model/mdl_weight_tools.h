/* What the skin weight operations share (auto_weights, weight_locks and
 * the weight_edit tools): rest bone geometry, a per-vertex influence list
 * with the lock rule (locked weights stay exact, the free influences share
 * what the locked ones leave of unit sum), rewriting an object's weights
 * in one pass, and a nearest-point search over positions. */
#ifndef ANIMSMITH_MDL_WEIGHT_TOOLS_H
#define ANIMSMITH_MDL_WEIGHT_TOOLS_H

#include "model/mdl_doc.h"

/* Influences one vertex may store (the weights operation's bound). */
#define MDL_VERTEX_INFLUENCES_MAX 8

/* One vertex's influences, joints unique (order free until stored). */
typedef struct mdl_wlist {
    uint32_t n;
    uint32_t joint[MDL_VERTEX_INFLUENCES_MAX];
    double w[MDL_VERTEX_INFLUENCES_MAX];
} mdl_wlist;

/* World rest position of every joint (parents precede children); 0, -1
 * on out of memory. */
int mdl_joint_world_points(const mdl_doc *d, double (*pts)[3]);
/* Squared distance from p to the segment a-b (a point when a == b). */
double mdl_segment_distance2(const double p[3], const double a[3], const double b[3]);

/* Whether joint j is in the object's lock set. */
bool mdl_weight_locked(const mdl_object *o, uint32_t j);
/* The stored weights of vertex id into out. */
void mdl_wlist_load(const mdl_object *o, uint64_t vertex, mdl_wlist *out);
/* The sum of the positive locked weights of l, and their count. */
double mdl_wlist_locked_sum(const mdl_object *o, const mdl_wlist *l, uint32_t *count);

typedef enum {
    MDL_WFIT_OK,
    MDL_WFIT_LOCKED_OVER, /* the locked weights alone exceed one */
    MDL_WFIT_CAP,         /* the cap leaves no room for the free remainder */
    MDL_WFIT_NO_FREE      /* a free remainder is left but no free influence takes it */
} mdl_wfit;

/* The new weights of a vertex: its locked weights from `old` exactly, then
 * the largest positive unlocked entries of `free_w` (locked joints in it
 * are ignored) up to cap influences in all, scaled so that they sum to
 * 1 - (locked sum). Empty free weights with no remainder are fine. */
mdl_wfit mdl_wlist_fit(const mdl_object *o, const mdl_wlist *old, const double *free_w,
                       const uint32_t *free_j, size_t free_n, uint32_t cap, mdl_wlist *out);

/* Whether the stored weights of vertex id are exactly l (as stored). */
bool mdl_wlist_same(const mdl_object *o, uint64_t vertex, const mdl_wlist *l);

/* Replaces the weights of every vertex index v with set[v] by lists[v]
 * (in one pass, keeping (vertex, joint) order). 0, -1 on out of memory. */
int mdl_weights_rewrite(mdl_object *o, const bool *set, const mdl_wlist *lists);

/* Points sorted by x for radius queries. */
typedef struct mdl_near_key {
    double x;
    size_t i;
} mdl_near_key;

typedef struct mdl_near {
    const double (*p)[3];
    mdl_near_key *order; /* sorted by x, then index */
    size_t n;
} mdl_near;

int mdl_near_build(mdl_near *s, const double (*p)[3], size_t n); /* -1 on out of memory */
void mdl_near_free(mdl_near *s);
/* Index of the point nearest q within radius r (ties: lowest index), or
 * -1; *visited counts the candidates examined (for work accounting). */
ptrdiff_t mdl_near_find(const mdl_near *s, const double q[3], double r, uint64_t *visited);

#endif
