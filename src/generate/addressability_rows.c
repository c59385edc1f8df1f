/* The inventory's animation and channel rows: the shared raw engine
 * inventory of the same load (checks/engine_inventory.h, the one the
 * engine checks predict from), copied into the document's model. Its two
 * coverages (animation rows, each animation's channel rows) become the
 * document's one coverage: complete only when both are, otherwise the
 * worse of the two with the first shortfall's reason. */
#include "checks/engine_inventory.h"
#include "generate/addressability.h"

static addr_coverage coverage_of(anim_engine_inventory_coverage c)
{
    return c == ANIM_ENGINE_INVENTORY_COMPLETE  ? ADDR_COMPLETE
           : c == ANIM_ENGINE_INVENTORY_PARTIAL ? ADDR_PARTIAL
                                                : ADDR_UNAVAILABLE;
}

static addr_text text_of(anim_engine_inventory_text t)
{
    addr_text out = {t.s, t.len};
    return out;
}

int addr_inventory_rows(const anim_asset *asset, anim_arena *arena, addr_inventory *inv,
                        anim_error *err)
{
    anim_engine_inventory ei;
    if (anim_engine_inventory_build(asset, arena, &ei, err))
        return -1;
    addr_coverage rows = coverage_of(ei.coverage), channels = coverage_of(ei.channel_coverage);
    inv->coverage = rows > channels ? rows : channels;
    inv->coverage_reason = rows != ADDR_COMPLETE ? ei.reason : ei.channel_reason;
    if (inv->coverage == ADDR_COMPLETE)
        inv->coverage_reason = NULL;
    inv->source_animation_count = ei.source_animation_count;
    inv->animation_count = ei.animation_count;
    inv->animations = anim_arena_calloc(arena, ei.animation_count ? ei.animation_count : 1,
                                        sizeof *inv->animations);
    if (!inv->animations)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t a = 0; a < ei.animation_count; a++) {
        const anim_engine_inventory_animation *src = &ei.animations[a];
        addr_animation *an = &inv->animations[a];
        an->index = src->index;
        an->name = text_of(src->name);
        an->channel_count = src->channel_count;
        an->channels = anim_arena_calloc(arena, src->channel_count ? src->channel_count : 1,
                                         sizeof *an->channels);
        if (!an->channels)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        for (uint32_t c = 0; c < src->channel_count; c++) {
            const anim_engine_inventory_channel *ch = &src->channels[c];
            addr_channel *row = &an->channels[c];
            row->index = ch->index;
            row->sampler = ch->sampler;
            row->node = ch->target_node;
            row->path = text_of(ch->target_path);
            row->input_accessor = ch->input_accessor;
            row->output_accessor = ch->output_accessor;
            /* glTF's default when the sampler states none. */
            row->interpolation = ch->interpolation.s ? text_of(ch->interpolation)
                                                     : (addr_text){"LINEAR", 6};
        }
    }
    return 0;
}
