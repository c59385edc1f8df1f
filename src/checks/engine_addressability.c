/* engine-addressability: the typed subasset selector Bevy 0.19.0's glTF
 * loader gives each source animation. GltfAssetLabel::Animation(i)
 * displays as `Animation{i}`, where i is the animation's index in the
 * source array; the animation's name is separate optional metadata. So
 * the prediction is keyed by index alone: unnamed and duplicate-named
 * animations each get their own label, and the label changes when the
 * source array is reordered.
 *
 * The prediction needs the complete raw animation inventory: with a
 * partial one (a row that is not an object, more rows than the bound)
 * the labels of the retained prefix would read as the whole file, so the
 * check reports one blocking inventory facet and predicts nothing. A
 * complete empty inventory has nothing to predict (not applicable).
 * Prediction only: never a finding. */
#include <stdio.h>
#include <string.h>

#include "checks/checks.h"
#include "checks/engine_bevy.h"
#include "checks/engine_inventory.h"

#define SCOPE "animation_asset_label"
#define INVENTORY_SCOPE "animation_asset_label_inventory"

CHECK_APPLIES(engine_addressability)
{
    return engine_bevy_applies(ctx, ENGINE_BEVY_R1 | ENGINE_BEVY_R2 | ENGINE_BEVY_R3) &&
           !anim_engine_inventory_complete_empty(ctx->asset);
}

static int label_facet(anim_lint_context *ctx, anim_check_record *rec,
                       const anim_engine_inventory_animation *an)
{
    char label[32], pointer[32];
    snprintf(label, sizeof label, "Animation%u", an->index);
    snprintf(pointer, sizeof pointer, "/animations/%u", an->index);
    anim_field result[3] = {anim_field_text("label", label),
                            anim_field_int("source_animation_index", an->index),
                            anim_field_text("source_name", an->name.s)};
    anim_basis_row basis[2];
    uint32_t n = 0;
    basis[n].kind = ANIM_BASIS_RAW_SOURCE;
    basis[n++].value = anim_field_text(pointer, an->name.s);
    engine_bevy_fact(ctx, basis, &n, ENGINE_BEVY_FACT_ANIMATION_LABEL);
    anim_prediction_facet f;
    memset(&f, 0, sizeof f);
    f.scope.code = SCOPE;
    f.scope.subject = label;
    f.state = ANIM_FACET_AVAILABLE;
    f.result_kind = "animation_asset_label";
    f.result = result;
    f.result_count = 3;
    f.basis = basis;
    f.basis_count = n;
    return anim_check_facet(ctx, rec, &f);
}

CHECK_RUN(engine_addressability)
{
    anim_engine_inventory inv;
    if (anim_engine_inventory_build(ctx->asset, ctx->scratch ? ctx->scratch : ctx->arena, &inv,
                                    err))
        return -1;
    /* The labels depend on the animation rows alone, not their channels. */
    if (inv.coverage != ANIM_ENGINE_INVENTORY_COMPLETE) {
        if (anim_check_facet_unavailable(ctx, rec, INVENTORY_SCOPE, NULL, inv.reason))
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        return 0;
    }
    for (uint32_t a = 0; a < inv.animation_count; a++)
        if (label_facet(ctx, rec, &inv.animations[a]))
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    return 0;
}
