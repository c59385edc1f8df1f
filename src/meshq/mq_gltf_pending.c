/* Interim: the glTF form of the residual is being written on its own
 * branch; until it merges, these refuse plainly. Removed by that merge. */
#include "meshq/mq.h"

int anim_mq_gltf_residual(const struct anim_asset *source, const struct anim_asset *candidate,
                          const anim_mq_gltf_options *options, anim_arena *arena,
                          anim_mq_gltf_result *result, anim_error *err)
{
    (void)source, (void)candidate, (void)options, (void)arena, (void)result;
    return anim_error_set(err, ANIM_ERR_UNSUPPORTED, "mesh-quality residual: the glTF form is not built yet");
}

void anim_mq_gltf_report(const anim_mq_gltf_options *options, const anim_mq_gltf_result *result,
                         bool json, anim_strbuf *out, anim_mq_outcome *outcome)
{
    (void)options, (void)result, (void)json, (void)out, (void)outcome;
}
