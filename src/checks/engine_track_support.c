/* engine-track-support: whether Bevy 0.19.0's glTF loader keeps the
 * file's animations at all (Bevy revision 3). Two gates decide it: the
 * compiled bevy_animation feature, then the loader's load_animations
 * setting; the feature gate takes precedence, so with it disabled the
 * animations are dropped whatever load_animations says.
 *
 * A closed gate is a negative prediction: one available facet per source
 * animation and one per channel row, each `dropped` by the gate that
 * closed first. Dropped rows are importer outcomes, not content findings.
 * When both gates are open the loader builds the clips, but whether they
 * survive at runtime (targets, graph wiring, playback) cannot be observed
 * without running Bevy: that is one stable blocking facet rather than a
 * positive claim.
 *
 * The rows come from the raw animation inventory and each animation's
 * independent channel inventory; if either is partial or unavailable the
 * check reports one blocking inventory facet and predicts nothing from
 * the retained prefix. A complete empty inventory is not applicable. */
#include <stdio.h>
#include <string.h>

#include "checks/checks.h"
#include "checks/engine_bevy.h"
#include "checks/engine_inventory.h"

#define BASIS_MAX 10

CHECK_APPLIES(engine_track_support)
{
    return engine_bevy_applies(ctx, ENGINE_BEVY_R3) &&
           !anim_engine_inventory_complete_empty(ctx->asset);
}

typedef struct {
    anim_lint_context *ctx;
    anim_check_record *rec;
    engine_bevy_setting feature, load;
    const char *gate;        /* the gate that drops, NULL when both are open */
} gate_state;

/* The two gate settings and the precedence fact every gate facet cites. */
static void gate_basis(const gate_state *st, anim_basis_row *basis, uint32_t *n)
{
    engine_bevy_setting_basis(&st->feature, basis, n);
    engine_bevy_setting_basis(&st->load, basis, n);
    engine_bevy_fact(st->ctx, basis, n, ENGINE_BEVY_FACT_GATE_PRECEDENCE);
}

static int available(gate_state *st, const char *code, const char *subject, const char *kind,
                     const anim_field *result, uint32_t result_count, const anim_basis_row *basis,
                     uint32_t basis_count)
{
    anim_prediction_facet f;
    memset(&f, 0, sizeof f);
    f.scope.code = code;
    f.scope.subject = subject;
    f.state = ANIM_FACET_AVAILABLE;
    f.result_kind = kind;
    f.result = result;
    f.result_count = result_count;
    f.basis = basis;
    f.basis_count = basis_count;
    return anim_check_facet(st->ctx, st->rec, &f);
}

static int blocked(gate_state *st, const char *code, const char *reason,
                   const anim_basis_row *basis, uint32_t basis_count)
{
    const char *reasons[1] = {reason};
    anim_prediction_facet f;
    memset(&f, 0, sizeof f);
    f.scope.code = code;
    f.state = ANIM_FACET_REQUIRED_UNAVAILABLE;
    f.basis = basis;
    f.basis_count = basis_count;
    f.reasons = reasons;
    f.reason_count = 1;
    return anim_check_facet(st->ctx, st->rec, &f);
}

static int drop_channel(gate_state *st, const anim_engine_inventory_animation *an,
                        const anim_engine_inventory_channel *ch)
{
    char subject[48], pointer[48];
    snprintf(subject, sizeof subject, "Animation%u/Channel%u", an->index, ch->index);
    snprintf(pointer, sizeof pointer, "/animations/%u/channels/%u", an->index, ch->index);
    anim_field node = ch->target_node == ANIM_NONE
                          ? anim_field_text("target_node", NULL)
                          : anim_field_int("target_node", ch->target_node);
    anim_field result[6] = {anim_field_text("outcome", "dropped"),
                            anim_field_text("gate", st->gate),
                            anim_field_int("source_animation_index", an->index),
                            anim_field_int("source_channel_index", ch->index),
                            node,
                            anim_field_text("target_path", ch->target_path.s)};
    anim_basis_row basis[BASIS_MAX];
    uint32_t n = 0;
    basis[n].kind = ANIM_BASIS_RAW_SOURCE;
    basis[n++].value = anim_field_text(pointer, ch->target_path.s);
    gate_basis(st, basis, &n);
    return available(st, "channel_load", subject, "channel_gate", result, 6, basis, n);
}

static int drop_animation(gate_state *st, const anim_engine_inventory_animation *an)
{
    char subject[32], pointer[32], channels[48];
    snprintf(subject, sizeof subject, "Animation%u", an->index);
    snprintf(pointer, sizeof pointer, "/animations/%u", an->index);
    snprintf(channels, sizeof channels, "/animations/%u/channels", an->index);
    anim_field result[5] = {anim_field_text("outcome", "dropped"),
                            anim_field_text("gate", st->gate),
                            anim_field_int("source_animation_index", an->index),
                            anim_field_text("source_name", an->name.s),
                            anim_field_int("channel_count", an->source_channel_count)};
    anim_basis_row basis[BASIS_MAX];
    uint32_t n = 0;
    basis[n].kind = ANIM_BASIS_RAW_SOURCE;
    basis[n++].value = anim_field_text(pointer, an->name.s);
    basis[n].kind = ANIM_BASIS_RAW_SOURCE;
    basis[n++].value = anim_field_int(channels, an->source_channel_count);
    gate_basis(st, basis, &n);
    if (available(st, "animation_load", subject, "animation_gate", result, 5, basis, n))
        return -1;
    /* Past the shared budget every channel facet would only be counted:
     * count them at once instead of building each. */
    if (st->ctx->facet_budget_left <= 1) {
        st->rec->facets_omitted += an->channel_count;
        return 0;
    }
    for (uint32_t c = 0; c < an->channel_count; c++)
        if (drop_channel(st, an, &an->channels[c]))
            return -1;
    return 0;
}

static int evaluate(gate_state *st, const anim_engine_inventory *inv)
{
    /* Either inventory short of complete: one atomic summary, no prefix. */
    if (inv->coverage != ANIM_ENGINE_INVENTORY_COMPLETE)
        return blocked(st, "animation_inventory", inv->reason, NULL, 0);
    if (inv->channel_coverage != ANIM_ENGINE_INVENTORY_COMPLETE)
        return blocked(st, "animation_inventory", inv->channel_reason, NULL, 0);
    anim_basis_row basis[BASIS_MAX];
    uint32_t n = 0;
    gate_basis(st, basis, &n);
    if (!st->feature.resolved || !st->load.resolved)
        return blocked(st, "animation_gate", ENGINE_BEVY_SETTING_UNRESOLVED, basis, n);
    st->gate = !st->feature.boolean ? "bevy_animation_feature"
               : !st->load.boolean  ? "load_animations"
                                    : NULL;
    if (!st->gate)
        return blocked(st, "runtime_survival", "runtime_survival_unobservable", basis, n);
    for (uint32_t a = 0; a < inv->animation_count; a++)
        if (drop_animation(st, &inv->animations[a]))
            return -1;
    return 0;
}

CHECK_RUN(engine_track_support)
{
    anim_engine_inventory inv;
    if (anim_engine_inventory_build(ctx->asset, ctx->scratch ? ctx->scratch : ctx->arena, &inv,
                                    err))
        return -1;
    gate_state st;
    memset(&st, 0, sizeof st);
    st.ctx = ctx;
    st.rec = rec;
    st.feature = engine_bevy_setting_get(ctx, "bevy_animation_feature");
    st.load = engine_bevy_setting_get(ctx, "load_animations");
    if (evaluate(&st, &inv))
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    return 0;
}
