/* The envelope helper: one envelope entry from declared bone-motion ranges.
 *
 * Each chain bone j's change is an affine map F_j(q) = c_j + M_j (q - c_j)
 * + t_j with |M_j - I| <= e_j = 2 sin(theta_j / 2) + max |sigma_j - 1| (a
 * rotation by theta has |R - I| = 2 sin(theta / 2) in 2-D and 3-D alike),
 * |M_j| <= max sigma_j and |t_j| <= translate_j. The bone's deformation
 * relative to the reference is their composition over the chain, and the
 * reference's own deformation scales by at most S, the product of the
 * reference chain's largest scales. Every step is a triangle inequality,
 * so the entry is conservative for any motion inside the ranges. */
#include <math.h>

#include "animsmith/math.h"
#include "meshq/mq.h"

typedef struct step {
    double e, rotation, norm;
} step;

static step step_of(const anim_mq_bone_range *r, uint32_t dim)
{
    step s;
    double theta = fmin(fabs(r->rotate_max), ANIM_PI);
    s.rotation = 2 * sin(theta * 0.5);
    double scale = 0, norm = 0;
    for (uint32_t a = 0; a < dim; a++) {
        scale = fmax(scale, fmax(fabs(r->scale_min[a] - 1), fabs(r->scale_max[a] - 1)));
        norm = fmax(norm, r->scale_max[a]);
    }
    s.e = s.rotation + scale;
    s.norm = norm;
    return s;
}

void anim_mq_envelope_bone_of(const anim_mq_bone_range *reference_chain, uint32_t reference_count,
                              const anim_mq_bone_range *chain, uint32_t chain_count, uint32_t dim,
                              anim_mq_envelope_plant plant, double *linear, double pivot[3],
                              double *translation)
{
    bool scale_ignored = plant == ANIM_MQ_ENVELOPE_PLANT_SCALE_IGNORED;
    double S = 1;
    for (uint32_t i = 0; i < reference_count; i++)
        S *= scale_ignored ? 1 : step_of(&reference_chain[i], dim).norm;
    double composed = 1;
    for (uint32_t i = 0; i < chain_count; i++) {
        step s = step_of(&chain[i], dim);
        composed *= 1 + (scale_ignored ? s.rotation : s.e);
    }
    composed -= 1;
    const anim_mq_bone_range *last = &chain[chain_count - 1];
    for (uint32_t a = 0; a < 3; a++)
        pivot[a] = a < dim ? last->pivot[a] : 0;
    double delta = 0;
    if (plant != ANIM_MQ_ENVELOPE_PLANT_TRANSLATION_IGNORED) {
        delta = last->translate;
        for (uint32_t j = chain_count - 1; j-- > 0;) {
            step s = step_of(&chain[j], dim);
            double e = scale_ignored ? s.rotation : s.e;
            double gap = 0;
            for (uint32_t a = 0; a < dim; a++)
                gap += (pivot[a] - chain[j].pivot[a]) * (pivot[a] - chain[j].pivot[a]);
            delta = e * sqrt(gap) + (1 + e) * delta + chain[j].translate;
        }
    }
    *linear = S * composed;
    *translation = S * delta;
}
