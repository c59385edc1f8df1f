/* Local validation of one object: the findings model.inspect lists in an
 * object's overview (faces, edges, vertices, materials, weights), and the
 * edge findings the solid domain repeats next to its global ones. The
 * checks are local on purpose: whether the mesh bounds a solid without
 * self-intersections is the solid domain's job (mdl_inspect_solid.c). */
#ifndef ANIMSMITH_MDL_MESH_CHECK_H
#define ANIMSMITH_MDL_MESH_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/mdl_doc.h"
#include "model/mdl_topo.h"

/* Finding kinds in reply order: a list is sorted by kind, then by the id it
 * is about. The last two are found only by the solid domain. */
typedef enum {
    MDL_ISSUE_DEGENERATE_FACE,
    MDL_ISSUE_NONPLANAR_FACE,
    MDL_ISSUE_NONCONVEX_FACE,
    MDL_ISSUE_BOUNDARY_EDGE,
    MDL_ISSUE_NONMANIFOLD_EDGE,
    MDL_ISSUE_INCONSISTENT_WINDING,
    MDL_ISSUE_LOOSE_VERTEX,
    MDL_ISSUE_UNDEFINED_MATERIAL,
    MDL_ISSUE_TOO_MANY_INFLUENCES,
    MDL_ISSUE_UNNORMALIZED_WEIGHTS,
    MDL_ISSUE_UNWEIGHTED_VERTEX,
    MDL_ISSUE_INWARD_ORIENTATION, /* solid: closed, oriented, negative volume */
    MDL_ISSUE_SELF_INTERSECTION,  /* solid: two faces cross */
    MDL_ISSUE_KIND_COUNT
} mdl_issue_kind;

/* The kinds of the object overview, and the edge kinds solid repeats. */
#define MDL_ISSUE_LOCAL_KINDS 11u
#define MDL_ISSUE_MASK(k) (1u << (k))
#define MDL_ISSUE_MASK_LOCAL ((1u << MDL_ISSUE_LOCAL_KINDS) - 1u)
#define MDL_ISSUE_MASK_EDGES                                                                    \
    (MDL_ISSUE_MASK(MDL_ISSUE_BOUNDARY_EDGE) | MDL_ISSUE_MASK(MDL_ISSUE_NONMANIFOLD_EDGE) |     \
     MDL_ISSUE_MASK(MDL_ISSUE_INCONSISTENT_WINDING))

/* Face / vertex / edge ids a finding row inlines at most (its detail gives
 * the full count). */
#define MDL_ISSUE_IDS_MAX 16

typedef struct mdl_issue {
    mdl_issue_kind kind;
    /* What it is about: a face index (face kinds), an edge index into the
     * topology (edge kinds), a vertex index (vertex kinds), a material
     * ordinal (undefined_material), face indices a < b (self_intersection);
     * unused for inward_orientation. */
    size_t a, b;
    double value; /* nonplanarity, weight sum, influence count, volume */
    size_t count; /* faces using an undefined material */
} mdl_issue;

typedef struct mdl_issue_list {
    mdl_issue *items;
    size_t count, cap;
} mdl_issue_list;

const char *mdl_issue_kind_name(mdl_issue_kind kind);
const char *mdl_issue_severity(mdl_issue_kind kind);

/* Appends the findings of the kinds in mask, in reply order. t is o's
 * topology (mdl_topo_build). 0, or -1 on out of memory. */
int mdl_mesh_check(const mdl_doc *d, const mdl_object *o, const mdl_topo *t, unsigned mask,
                   mdl_issue_list *out);
int mdl_issue_push(mdl_issue_list *l, const mdl_issue *is);
void mdl_issue_list_free(mdl_issue_list *l);

/* Writes one finding row {kind, severity, faces, vertices, ids_truncated,
 * detail} (plus material for undefined_material) as the next value of w. */
struct anim_json_writer;
void mdl_issue_write(struct anim_json_writer *w, const mdl_object *o, const mdl_topo *t,
                     const mdl_issue *is);

#endif
