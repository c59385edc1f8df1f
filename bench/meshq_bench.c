/* Residual throughput: samples per second of the skinning-envelope
 * residual (envelope from the clips) of a character measured against
 * itself and against meshoptimizer's half (every triangle primitive at 50%
 * of its index count, seams left to meshoptimizer, as `lod --ratio 0.5
 * --seams meshopt` writes it).
 *
 *   meshq_bench [--runs N] [FILE...]
 * Default files: Michelle.glb, then Xbot.glb and CesiumMan.glb, from
 * $ANIMSMITH_CORPUS/gltf (default /work/shared/corpus/gltf, else
 * ../shared/corpus/gltf); a missing corpus is a message. A benchmark, not
 * a test: it prints figures and exits 0 (2 for wrong arguments). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/gltf_write.h"
#include "animsmith/meshq.h"
#include "bench_clock.h"
#include "meshq/mq_lod_internal.h"

/* The half of every skinned mesh, written to GLB bytes. */
static int half_of(const anim_asset *a, anim_arena *arena, anim_strbuf *out, anim_error *err)
{
    anim_gltf_prim_override ov[256];
    mq_lod_prim prims[256];
    uint32_t n = 0;
    for (uint32_t m = 0; m < a->doc.mesh_count; m++) {
        uint32_t skin = ANIM_NONE;
        mq_gltf_mesh_instance(a, m, &skin);
        mq_gltf_mesh gm;
        if (skin == ANIM_NONE || mq_gltf_mesh_build(a, m, ANIM_NONE, "bench", arena, &gm, err))
            continue;
        for (uint32_t p = 0; p < gm.prim_count && n < 256; p++) {
            if (mq_lod_prim_reduce(&gm.prims[p], m, 0.5, ANIM_LOD_SEAMS_MESHOPT, arena, &prims[n],
                                   err))
                return -1;
            ov[n] = prims[n].o;
            n++;
        }
    }
    anim_error_clear(err);
    return anim_gltf_write_asset_mem_with(a, NULL, ANIM_GLTF_FORMAT_GLB, NULL, ov, n, out, NULL,
                                          err);
}

static void measure(const char *label, const anim_asset *src, const anim_asset *cand, int runs)
{
    anim_mq_gltf_options o;
    memset(&o, 0, sizeof o);
    o.envelope_from_clips = true;
    o.source_path = label;
    o.candidate_path = "candidate";
    double best = 1e300;
    uint64_t samples = 0;
    for (int r = 0; r < runs; r++) {
        anim_arena *arena = anim_arena_new();
        anim_mq_gltf_result res;
        anim_error err;
        anim_error_clear(&err);
        double t0 = now_seconds();
        int rc = anim_mq_gltf_residual(src, cand, &o, arena, &res, &err);
        double t = now_seconds() - t0;
        if (rc) {
            printf("  %-28s error: %s\n", label, err.message);
            anim_arena_free(arena);
            return;
        }
        samples = 0;
        for (uint32_t i = 0; i < res.row_count; i++) {
            const anim_mq_reading *rd = &res.rows[i].reading;
            /* A refused row stops before the sums: its samples are not a
             * measure of throughput. */
            if (rd->state == ANIM_MQ_MEASURED)
                samples += rd->samples;
            if (r == 0 && rd->state != ANIM_MQ_MEASURED)
                printf("  %-28s mesh '%s' %s: %.200s\n", label, res.rows[i].mesh_name,
                       rd->state == ANIM_MQ_REFUSED ? "refused" : "not measurable",
                       rd->reason ? rd->reason : "");
            else if (r == 0)
                printf("  %-28s mesh '%s' residual %.6g m over %llu samples\n", label,
                       res.rows[i].mesh_name, rd->value, (unsigned long long)rd->samples);
        }
        best = t < best ? t : best;
        anim_arena_free(arena);
    }
    if (samples == 0) {
        printf("  %-28s no measured row: no throughput figure\n", label);
        return;
    }
    printf("  %-28s %llu samples in %.3f s (best of %d): %.0f samples/s\n", label,
           (unsigned long long)samples, best, runs, best > 0 ? (double)samples / best : 0.0);
}

static void bench_file(const char *path, int runs)
{
    anim_error err;
    anim_error_clear(&err);
    anim_asset *a = anim_asset_load(path, NULL, &err);
    if (!a) {
        printf("%s: %s\n", path, err.message);
        return;
    }
    printf("%s\n", path);
    measure("against itself", a, a, runs);
    anim_arena *arena = anim_arena_new();
    anim_strbuf half = ANIM_STRBUF_INIT;
    anim_asset *cand = NULL;
    if (half_of(a, arena, &half, &err) == 0)
        cand = anim_asset_load_memory(half.data, half.len, true, NULL, "half", NULL, &err);
    if (cand)
        measure("against the 50% candidate", a, cand, runs);
    else
        printf("  50%% candidate: %s\n", err.message);
    if (cand)
        anim_asset_free(cand);
    anim_strbuf_free(&half);
    anim_arena_free(arena);
    anim_asset_free(a);
}

int main(int argc, char **argv)
{
    int runs = 3;
    const char *files[64];
    int nf = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            puts("usage: meshq_bench [--runs N] [FILE...]");
            puts("Residual samples per second against itself and a 50% meshoptimizer candidate.");
            return 0;
        }
        if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (argv[i][0] != '-' && nf < 64)
            files[nf++] = argv[i];
        else {
            fprintf(stderr, "usage: meshq_bench [--runs N] [FILE...]\n");
            return 2;
        }
    }
    if (runs < 1)
        runs = 1;
    static char paths[3][1024];
    if (nf == 0) {
        const char *dir = getenv("ANIMSMITH_CORPUS");
        char base[900];
        snprintf(base, sizeof base, "%s/gltf", dir ? dir : "/work/shared/corpus");
        FILE *probe = NULL;
        snprintf(paths[0], sizeof paths[0], "%s/Michelle.glb", base);
        if (!(probe = fopen(paths[0], "rb"))) {
            snprintf(base, sizeof base, "../shared/corpus/gltf");
            snprintf(paths[0], sizeof paths[0], "%s/Michelle.glb", base);
            probe = fopen(paths[0], "rb");
        }
        if (!probe) {
            puts("meshq_bench: the corpus is absent (set ANIMSMITH_CORPUS); nothing measured");
            return 0;
        }
        fclose(probe);
        snprintf(paths[1], sizeof paths[1], "%s/Xbot.glb", base);
        snprintf(paths[2], sizeof paths[2], "%s/CesiumMan.glb", base);
        for (int k = 0; k < 3; k++)
            files[nf++] = paths[k];
    }
    for (int k = 0; k < nf; k++)
        bench_file(files[k], runs);
    return 0;
}
