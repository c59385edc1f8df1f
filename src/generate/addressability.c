/* generate addressability's entry: choose the contract from the config's
 * exact profile, build the one typed value from the same load, render it.
 *   no profile, a non-Bevy profile, Bevy revision 2 -> V1, bevy null;
 *   Bevy revision 1 -> V1 with the engine-addressability section;
 *   Bevy revision 3 -> V2.
 * The neutral inventory is built the same way in every case, so its
 * identity never depends on the profile. */
#include <string.h>

#include "generate/addressability.h"

static int build(const anim_asset *asset, const anim_config *cfg, addr_doc *d, anim_error *err)
{
    const anim_engine_profile *p = cfg && cfg->engine.present ? cfg->engine.def : NULL;
    bool bevy = p && p->family == ANIM_ENGINE_BEVY;
    d->version = bevy && p->revision == 3 ? 2 : 1;
    d->has_bevy = bevy && (p->revision == 1 || p->revision == 3);
    if (addr_inventory_build(asset, d->arena, &d->inventory, err))
        return -1;
    if (bevy && p->revision == 1 &&
        d->inventory.source_animation_count > ADDR_BEVY_R1_MAX_ANIMATIONS)
        return anim_error_set(err, ANIM_ERR_LIMIT,
                              "%s: %u animations; the Bevy revision 1 profile records at most "
                              "%u clips in its prediction provenance and refuses a longer file "
                              "rather than predicting a prefix",
                              asset->source.path, d->inventory.source_animation_count,
                              ADDR_BEVY_R1_MAX_ANIMATIONS);
    if (!d->has_bevy)
        return 0;
    if (addr_bevy_evaluate(asset, cfg, &d->bevy, err))
        return -1;
    if (d->version == 1)
        return 0;
    addr_budget budget = {0, 0};
    addr_bevy_settings settings;
    addr_bevy_settings_read(d->bevy.file.engine, &settings);
    return addr_raw_build(asset, d->arena, &budget, &d->raw, err) ||
                   addr_projection_build(&d->inventory, &d->raw, &settings, d->arena, &budget,
                                         &d->projection, err)
               ? -1
               : 0;
}

int anim_addressability_render(const anim_asset *asset, const anim_config *cfg,
                               const anim_tool_info *tool, anim_addressability_format format,
                               anim_strbuf *out, bool *blocking, anim_error *err)
{
    *blocking = false;
    if (asset->source.fbx)
        return anim_error_set(err, ANIM_ERR_UNSUPPORTED,
                              "%s: generate addressability reads glTF and GLB only; convert FBX "
                              "first (animsmith convert %s -o out.glb)",
                              asset->source.path, asset->source.path);
    addr_doc d;
    memset(&d, 0, sizeof d);
    if (tool)
        d.tool = *tool;
    d.arena = anim_arena_new();
    if (!d.arena)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    int rc = build(asset, cfg, &d, err);
    if (rc == 0) {
        *blocking = d.has_bevy && (d.bevy.unavailable > 0 ||
                                   (d.version == 2 && addr_projection_blocking(&d.projection)));
        if (format == ANIM_ADDRESSABILITY_JSON)
            rc = addr_render_json(&d, out, err);
        else if (format == ANIM_ADDRESSABILITY_TEXT)
            addr_render_text(&d, out);
        else
            addr_render_markdown(&d, out);
        if (rc == 0 && out->failed)
            rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while rendering");
    }
    addr_bevy_eval_free(&d.bevy);
    anim_arena_free(d.arena);
    return rc;
}
