/* Derived topology of an object: its edges (unordered vertex pairs of
 * consecutive face corners) with the faces around each (radial query).
 * Never stored in the document; computed on demand, in (a, b) order. */
#ifndef ANIMSMITH_MDL_TOPO_H
#define ANIMSMITH_MDL_TOPO_H

#include "model/mdl_doc.h"

typedef struct mdl_edge {
    uint64_t a, b;        /* vertex ids, a < b */
    uint32_t face_count;  /* faces using the edge (1 boundary, 2 manifold) */
    uint32_t first_use;   /* index into mdl_topo.uses */
} mdl_edge;

/* One face-side of an edge: the face index and the corner index (within
 * the object's corner array) whose vertex starts the side. */
typedef struct mdl_edge_use {
    uint32_t face;
    uint32_t corner;
    bool forward; /* the side runs a -> b */
} mdl_edge_use;

typedef struct mdl_topo {
    mdl_edge *edges;
    size_t edge_count;
    mdl_edge_use *uses; /* grouped per edge */
    size_t use_count;
} mdl_topo;

int mdl_topo_build(const mdl_object *o, mdl_topo *t); /* 0, -1 on out of memory */
void mdl_topo_free(mdl_topo *t);
/* Edge index of the pair, or -1. */
ptrdiff_t mdl_topo_find(const mdl_topo *t, uint64_t a, uint64_t b);


/* ---- Addition (topology slice): shared by the operations that make new
 * vertices from old ones (extrude, inset). Gives vertex `to` a copy of
 * the weights of vertex `from` (replacing any it had). 0, -1 on out of
 * memory. */
int mdl_topo_copy_weights(mdl_object *o, uint64_t from, uint64_t to);

#endif
