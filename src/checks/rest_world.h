/* The effective rest-world transform of source nodes, shared by the
 * checks that judge what an attachment inherits (rest-world-scale,
 * engine-unit-scale): world = parent world · local down the source
 * hierarchy, where local is the authored TRS matrix or the authored
 * matrix (never its decomposition, so shear survives), and the
 * classification of the world's upper 3x3. Private to the checks layer. */
#ifndef ANIMSMITH_CHECKS_REST_WORLD_H
#define ANIMSMITH_CHECKS_REST_WORLD_H

#include <stdbool.h>

#include "animsmith/doc.h"
#include "animsmith/math.h"

typedef enum {
    REST_WORLD_OK = 0,
    REST_WORLD_NON_FINITE_LOCAL,     /* the node's own rest transform */
    REST_WORLD_PARENT_UNAVAILABLE,   /* an ancestor's world is unavailable */
    REST_WORLD_NON_FINITE_MATRIX     /* the composed world overflowed */
} rest_world_status;

typedef enum {
    REST_LIN_NON_FINITE,
    REST_LIN_SINGULAR,
    REST_LIN_REFLECTED,
    REST_LIN_SHEARED,
    REST_LIN_UNIT_ORTHONORMAL,
    REST_LIN_UNIFORM_SCALED,
    REST_LIN_NON_UNIFORM
} rest_lin_class;

typedef struct {
    rest_lin_class cls;
    double axes[3];          /* column lengths */
    bool has_uniform;        /* orthogonal columns of equal length */
    double uniform_scale;    /* their mean */
} rest_lin_facts;

/* Rest-world matrices (and their status) of every bone, in bone order;
 * world and status have doc->bone_count entries. A world element outside
 * binary32 range (the precision an engine holds it in) makes the node
 * unavailable although the product is taken in f64. */
void rest_world_compose(const anim_doc *doc, anim_mat4 *world, rest_world_status *status);

/* The rest_world_linear classification of m's upper 3x3 (the same rules
 * and tolerances as the measurement's). */
void rest_world_classify(const anim_mat4 *m, rest_lin_facts *out);

/* "unit_orthonormal", "uniform_scaled", "non_uniform", "sheared",
 * "reflected", "singular", "non_finite" (the measurement's spelling). */
const char *rest_world_class_name(rest_lin_class c);

/* Whether the bone's authored local transform is a translation, rotation
 * and scale: always for TRS nodes; for a matrix node, a finite affine
 * matrix (bottom row 0 0 0 1) whose upper 3x3 has nonzero, mutually
 * orthogonal columns (a reflection is a negative scale). A sheared or
 * projective matrix is not. */
bool rest_world_local_is_trs(const anim_bone *b);

#endif
