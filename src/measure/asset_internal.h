/* Private helpers shared by the static asset measurement files
 * (src/measure/asset_*.c). Not part of the public API. */
#ifndef ANIMSMITH_MEASURE_ASSET_INTERNAL_H
#define ANIMSMITH_MEASURE_ASSET_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "animsmith/measure_asset.h"

/* Per-node source rest-world matrix in f64, kept beside the published f32
 * copy so descendants compose from the exact product, not a rounded one. */
typedef struct asset_world {
    bool available;
    double m[16];
} asset_world;

/* Every value |v - mean| <= tol * max(|mean|, |v|). */
bool asset_values_equal_to_mean(const double *values, uint32_t n, double mean, double tol);
/* a * b, column-major f64. */
void asset_mat4_mul(const double *a, const double *b, double *out);
/* Narrows to f32; false when a narrowed value is not finite. */
bool asset_narrow16(const double *m, float *out);
bool asset_all_finite_f(const float *v, uint32_t n);
bool asset_all_finite_d(const double *v, uint32_t n);

/* Whether a primitive is measured: a triangle list with a non-empty
 * POSITION accessor. */
bool asset_primitive_is_measured(const anim_source *src, const anim_primitive *prim);
/* Decodes a whole accessor as f64 into malloc memory (caller frees). */
double *asset_read_accessor(const anim_source *src, uint32_t accessor, anim_error *err);

int asset_measure_meshes(const anim_asset *asset, anim_arena *arena, anim_asset_measurements *out,
                         anim_error *err);
/* worlds: one per glTF node (source index). */
int asset_measure_skeleton(const anim_asset *asset, anim_arena *arena,
                           anim_asset_measurements *out, asset_world *worlds, anim_error *err);
int asset_measure_nodes(const anim_asset *asset, anim_arena *arena, const asset_world *worlds,
                        anim_asset_measurements *out, anim_error *err);
int asset_measure_skins(const anim_asset *asset, anim_arena *arena, const asset_world *worlds,
                        anim_asset_measurements *out, anim_error *err);
int asset_measure_materials(const anim_asset *asset, anim_arena *arena,
                            anim_asset_measurements *out, anim_error *err);
int asset_measure_images(const anim_asset *asset, anim_arena *arena, anim_asset_measurements *out,
                         anim_error *err);

#endif
