/* Key-reduction benchmark: what --reduce-keys does to a real file.
 *
 * Loads FILE.glb (or .gltf) and runs anim_transform_reduce_keys on every
 * clip at the bound given (default 0.001 m), printing per clip the keys
 * before and after, the largest model-space error measured on the result,
 * the check samples and the time, then the totals.
 *
 *   bench_reduce [--bound METRES] FILE
 * It is a benchmark, not a test: it exits 0 unless the file cannot be
 * read or the arguments are wrong. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/transform.h"
#include "bench_clock.h"

int main(int argc, char **argv)
{
    double bound = 0.001;
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            puts("usage: bench_reduce [--bound METRES] FILE");
            puts("Runs --reduce-keys on every clip of FILE and prints keys, errors and times.");
            return 0;
        }
        if (strcmp(argv[i], "--bound") == 0 && i + 1 < argc) {
            char *end;
            bound = strtod(argv[++i], &end);
            if (*end) {
                fprintf(stderr, "bench_reduce: --bound wants a number, got %s\n", argv[i]);
                return 2;
            }
        } else if (!file && argv[i][0] != '-') {
            file = argv[i];
        } else {
            fprintf(stderr, "usage: bench_reduce [--bound METRES] FILE\n");
            return 2;
        }
    }
    if (!file) {
        fprintf(stderr, "usage: bench_reduce [--bound METRES] FILE\n");
        return 2;
    }
    anim_error err;
    anim_asset *a = anim_asset_load(file, NULL, &err);
    if (!a) {
        fprintf(stderr, "bench_reduce: %s\n", err.message);
        return 2;
    }
    printf("%s: %u clip(s), %u bone(s), bound %g m\n", file, a->doc.clip_count,
           a->doc.bone_count, bound);
    printf("%-32s %10s %10s %8s %12s %8s %10s\n", "clip", "keys", "after", "kept %", "error m",
           "samples", "ms");
    uint64_t before = 0, after = 0;
    double worst = 0.0, total_s = 0.0;
    for (uint32_t c = 0; c < a->doc.clip_count; c++) {
        anim_clip *clip = &a->doc.clips[c];
        anim_reduce_result r;
        anim_strbuf msg = ANIM_STRBUF_INIT;
        double t0 = now_seconds();
        int rc = anim_clip_detach(a->arena, clip, &err);
        if (rc == 0)
            rc = anim_transform_reduce_keys(a->arena, &a->doc, clip, bound, &r, &msg, &err);
        double s = now_seconds() - t0;
        anim_strbuf_free(&msg);
        if (rc != 0) {
            printf("%-32s refused: %s\n", clip->name, err.message);
            continue;
        }
        before += r.keys_before;
        after += r.keys_after;
        worst = r.max_error_m > worst ? r.max_error_m : worst;
        total_s += s;
        printf("%-32s %10llu %10llu %8.1f %12.9f %8u %10.1f\n", clip->name,
               (unsigned long long)r.keys_before, (unsigned long long)r.keys_after,
               r.keys_before ? 100.0 * (double)r.keys_after / (double)r.keys_before : 100.0,
               r.max_error_m, r.check_samples, s * 1e3);
    }
    printf("%-32s %10llu %10llu %8.1f %12.9f %8s %10.1f\n", "total", (unsigned long long)before,
           (unsigned long long)after, before ? 100.0 * (double)after / (double)before : 100.0,
           worst, "", total_s * 1e3);
    anim_asset_free(a);
    return 0;
}
