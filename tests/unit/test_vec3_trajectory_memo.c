/* The vec3 trajectory that the three scale checks share
 * (check_vec3_trajectory_of) is the analysis itself, bit for bit, whether
 * it is computed or remembered: for linear, step and cubic tracks, a track
 * the analysis refuses, a second clip, a track outside the clip and a
 * context whose scratch was dropped in between. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "checks/vec3_trajectory.h"
#include "lint/run_internal.h"
#include "support/test_support.h"


/* The memo's answer equals a fresh analysis, the trajectory's bytes too. */
static void expect_same(anim_lint_context *ctx, const anim_clip *clip, const anim_track *track)
{
    anim_vec3_trajectory want, got;
    memset(&want, 0, sizeof want);
    memset(&got, 0, sizeof got);
    bool ok = anim_vec3_trajectory_analyze(track, &want);
    assert_int_equal(check_vec3_trajectory_of(ctx, clip, track, &got), ok);
    if (ok)
        assert_memory_equal(&got, &want, sizeof want);
}

static void memo_equals_analysis(void **state)
{
    (void)state;
    static const float times[] = {0.0f, 0.25f, 0.5f, 1.0f};
    static const float moving[] = {1, 1, 1, 1.2f, 0.9f, 1, 1.4f, 1, 0.7f, 1, 1, 1};
    static const float still[] = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
    static const float bad[] = {1, 1, 1, NAN, 1, 1, 1, 1, 1, 1, 1, 1};
    float cubic[36]; /* in-tangent, value, out-tangent per key */
    for (int i = 0; i < 36; i++)
        cubic[i] = (float)(i % 3 == 1 ? 1.0 + 0.1 * i : (i % 7) * 0.5 - 1.0);
    anim_track a_tracks[4] = {
        test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_LINEAR, times, 4, moving, 4),
        test_support_track(ANIM_PATH_SCALE, ANIM_INTERP_STEP, times, 4, still, 4),
        test_support_track(ANIM_PATH_SCALE, ANIM_INTERP_LINEAR, times, 4, bad, 4),
        test_support_track(ANIM_PATH_SCALE, ANIM_INTERP_CUBICSPLINE, times, 4, cubic, 12),
    };
    anim_track b_tracks[2] = {
        test_support_track(ANIM_PATH_SCALE, ANIM_INTERP_LINEAR, times, 4, still, 4),
        test_support_track(ANIM_PATH_TRANSLATION, ANIM_INTERP_CUBICSPLINE, times, 4, cubic, 12),
    };
    anim_clip a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.tracks = a_tracks;
    a.track_count = 4;
    b.tracks = b_tracks;
    b.track_count = 2;
    anim_lint_context ctx;
    memset(&ctx, 0, sizeof ctx);
    for (int round = 0; round < 2; round++) {
        ctx.scratch = anim_arena_new();
        assert_non_null(ctx.scratch);
        for (int pass = 0; pass < 2; pass++) /* computed, then remembered */
            for (uint32_t i = 0; i < a.track_count; i++)
                expect_same(&ctx, &a, &a.tracks[i]);
        for (uint32_t i = 0; i < b.track_count; i++)
            expect_same(&ctx, &b, &b.tracks[i]); /* another clip: another memo */
        expect_same(&ctx, &a, &b.tracks[1]);     /* not a track of the clip asked about */
        for (uint32_t i = 0; i < a.track_count; i++)
            expect_same(&ctx, &a, &a.tracks[i]);
        /* The scratch goes: the memo must go with it. */
        anim_lint_scratch_drop(&ctx);
        assert_null(ctx.check_memo);
        assert_null(ctx.scratch);
    }
    /* Without a scratch the analysis is simply computed. */
    expect_same(&ctx, &a, &a.tracks[0]);
    assert_null(ctx.check_memo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(memo_equals_analysis),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
