/* Private to the LOD builder: one primitive reduced at one fraction, as
 * the writer's override takes it (mq_lod_simplify.c), and the search over
 * the fraction (mq_lod.c). */
#ifndef ANIMSMITH_MQ_LOD_INTERNAL_H
#define ANIMSMITH_MQ_LOD_INTERNAL_H

#include "animsmith/gltf_write.h"
#include "animsmith/lod.h"
#include "meshq/mq_gltf_mesh.h"

typedef struct mq_lod_prim {
    anim_gltf_prim_override o;
    /* JOINTS_0 / WEIGHTS_0 written, the other sets dropped. */
    anim_gltf_attribute_data attrs[2 * MQ_GLTF_MAX_INFLUENCE_SETS];
    uint32_t seam_vertices;    /* used source vertices sharing a position */
    uint32_t seam_dropped;     /* of those, left out of the candidate */
} mq_lod_prim;

/* The four largest influences of stored vertex v (equal joints merged,
 * ties to the lower joint), divided by their sum, rounded to float, the
 * rounding residual put on the largest so the floats sum to 1 within
 * a float ulp (well inside ANIM_MQ_WEIGHT_SUM_SLACK). A vertex with no
 * positive share keeps four zeros (the residual refuses it by name). */
void mq_lod_influences(const mq_gltf_prim *p, uint32_t v, uint32_t joints[4], float weights[4]);

/* Reduces p to ratio of its index count (ratio >= 1: the full index
 * buffer), compacts the vertices in first-use order and fills out for
 * mesh. Arrays in arena. -1 with err (out of memory, sizes). */
int mq_lod_prim_reduce(const mq_gltf_prim *p, uint32_t mesh, double ratio, anim_lod_seams seams,
                       anim_arena *arena, mq_lod_prim *out, anim_error *err);

#endif
