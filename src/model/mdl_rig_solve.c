/* Constraint solving with refusals (mdl_rig_solve.h). */
#include <stdlib.h>

#include "model/mdl_rig_eval.h"
#include "model/mdl_rig_solve.h"

int mdl_solve_constraints(mdl_ctx *ctx, mdl_trs *locals, bool *written, const char *what)
{
    const mdl_doc *d = ctx->doc;
    size_t cn = d->constraint_count, n = 0, a = 0, b = 0, failed = 0, bad = 0;
    uint32_t joint = 0;
    if (mdl_spend(ctx, 1 + cn * (cn + d->joint_count)))
        return -1;
    size_t *order = malloc((cn + 1) * sizeof *order);
    if (!order)
        return mdl_nomem(ctx);
    int rc = 0;
    mdl_order_status os = mdl_constraint_order(d, order, &n, &a, &b, &joint);
    if (os == MDL_ORDER_TWO_WRITERS)
        rc = mdl_refuse(ctx, "constraint_conflict",
                        "%s: constraints \"%s\" and \"%s\" both write joint %u", what,
                        d->constraints[a].name, d->constraints[b].name, joint);
    else if (os == MDL_ORDER_CYCLE)
        rc = mdl_refuse(ctx, "constraint_cycle",
                        "%s: constraint \"%s\" is in a dependency cycle", what,
                        d->constraints[order[a]].name);
    if (rc == 0) {
        switch (mdl_constraint_solve(d, locals, order, n, &failed, &bad)) {
        case MDL_IK_OK:
            break;
        case MDL_IK_UNREACHABLE:
            rc = mdl_refuse(ctx, "ik_unreachable",
                            "%s: ik constraint \"%s\" cannot reach its target joint %u (set "
                            "clamp_reach)",
                            what, d->constraints[failed].name, d->constraints[failed].target);
            break;
        case MDL_IK_NONUNIFORM:
            rc = mdl_refuse(ctx, "ik_nonuniform_scale",
                            "%s: ik constraint \"%s\": joint %zu lacks uniform positive scale",
                            what, d->constraints[failed].name, bad);
            break;
        case MDL_IK_DEGENERATE:
            rc = mdl_refuse(ctx, "ik_degenerate",
                            "%s: ik constraint \"%s\": a zero-length bone, a target at the root "
                            "or a pole on the root-target line",
                            what, d->constraints[failed].name);
            break;
        }
    }
    for (size_t i = 0; rc == 0 && written && i < n; i++) {
        uint32_t w[2];
        size_t wn = mdl_constraint_writes(&d->constraints[order[i]], w);
        for (size_t k = 0; k < wn; k++)
            written[w[k]] = true;
    }
    free(order);
    return rc;
}
