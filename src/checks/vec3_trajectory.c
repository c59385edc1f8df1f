/* The per-clip memo of the vec3 trajectory analysis: one clip's results,
 * kept in the lint context's scratch arena so the checks that share a
 * track analyse it once. */
#include <stddef.h>
#include <stdint.h>

#include "checks/vec3_trajectory.h"

/* One clip's analyses: state 0 not yet asked, 1 analysed (tr valid), 2
 * refused. */
typedef struct {
    const anim_clip *clip;
    uint8_t *state;
    anim_vec3_trajectory *tr;
} trajectory_memo;

static trajectory_memo *memo_for(anim_lint_context *ctx, const anim_clip *clip)
{
    trajectory_memo *m = ctx->check_memo;
    if (m && m->clip == clip)
        return m;
    if (!ctx->scratch || clip->track_count == 0)
        return NULL;
    m = anim_arena_calloc(ctx->scratch, 1, sizeof *m);
    uint8_t *state = anim_arena_calloc(ctx->scratch, clip->track_count, sizeof *state);
    anim_vec3_trajectory *tr = anim_arena_calloc(ctx->scratch, clip->track_count, sizeof *tr);
    if (!m || !state || !tr)
        return NULL; /* without memory the analysis is simply repeated */
    *m = (trajectory_memo){clip, state, tr};
    ctx->check_memo = m;
    return m;
}

bool check_vec3_trajectory_of(anim_lint_context *ctx, const anim_clip *clip,
                              const anim_track *track, anim_vec3_trajectory *out)
{
    trajectory_memo *m = memo_for(ctx, clip);
    /* Addresses compared as integers: a track of another array is legal
     * input, and C orders pointers only within one array. */
    uintptr_t at = (uintptr_t)track, first = (uintptr_t)clip->tracks;
    if (!m || at < first || (at - first) / sizeof *track >= clip->track_count ||
        (at - first) % sizeof *track != 0)
        return anim_vec3_trajectory_analyze(track, out);
    size_t i = (size_t)((at - first) / sizeof *track);
    if (m->state[i] == 0)
        m->state[i] = anim_vec3_trajectory_analyze(track, &m->tr[i]) ? 1 : 2;
    if (m->state[i] != 1)
        return false;
    *out = m->tr[i];
    return true;
}
