/* anim_measure_asset: runs the static evidence passes in dependency order.
 * The source skeleton goes first because node instances and skins read
 * its rest-world matrices. */
#include "measure/asset_internal.h"

#include <stdlib.h>
#include <string.h>

int anim_measure_asset(const anim_asset *asset, anim_arena *arena, anim_asset_measurements *out,
                       anim_error *err)
{
    memset(out, 0, sizeof *out);
    out->default_scene_index = ANIM_NONE;
    uint32_t n = asset->doc.node_count;
    asset_world *worlds = calloc(n ? n : 1, sizeof *worlds);
    if (!worlds)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    int rc = 0;
    if (asset_measure_skeleton(asset, arena, out, worlds, err) ||
        asset_measure_meshes(asset, arena, out, err) ||
        asset_measure_nodes(asset, arena, worlds, out, err) ||
        asset_measure_skins(asset, arena, worlds, out, err) ||
        asset_measure_materials(asset, arena, out, err) ||
        asset_measure_images(asset, arena, out, err))
        rc = -1;
    free(worlds);
    return rc;
}
