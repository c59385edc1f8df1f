/* Whole-document writer benchmark: what writing a real file back costs.
 *
 * Loads FILE (.glb or .gltf) once, then writes the whole document to
 * memory as GLB and as .gltf, several times each, and prints the input and
 * output sizes, the best time and the throughput in MB/s of output.
 *
 *   bench_write [--runs N] FILE
 * It is a benchmark, not a test: it exits 0 unless the file cannot be
 * read, the writer refuses it, or the arguments are wrong. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/gltf_write.h"
#include "bench_clock.h"

static const char USAGE[] = "usage: bench_write [--runs N] FILE\n";

static int bench(const anim_asset *asset, anim_gltf_format format, int runs)
{
    double best = 1e30;
    size_t bytes = 0;
    for (int r = 0; r < runs; r++) {
        anim_strbuf out = ANIM_STRBUF_INIT;
        anim_error err;
        anim_error_clear(&err);
        double t0 = now_seconds();
        int rc = anim_gltf_write_asset_mem(asset, NULL, format, NULL, &out, NULL, &err);
        double dt = now_seconds() - t0;
        bytes = out.len;
        anim_strbuf_free(&out);
        if (rc != 0) {
            fprintf(stderr, "bench_write: %s: %s\n", asset->source.path, err.message);
            return 1;
        }
        if (dt < best)
            best = dt;
    }
    printf("  %-5s %10.3f MB out  best %8.2f ms  %8.1f MB/s\n",
           format == ANIM_GLTF_FORMAT_GLB ? "glb" : "gltf", (double)bytes / 1e6, best * 1e3,
           (double)bytes / 1e6 / best);
    return 0;
}

int main(int argc, char **argv)
{
    int runs = 5;
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(USAGE, stdout);
            puts("Writes FILE back to memory as GLB and .gltf and prints sizes and times.");
            return 0;
        }
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
            runs = atoi(argv[++i]);
            if (runs < 1) {
                fprintf(stderr, "bench_write: --runs wants a positive count\n");
                return 2;
            }
        } else if (!file && argv[i][0] != '-') {
            file = argv[i];
        } else {
            fputs(USAGE, stderr);
            return 2;
        }
    }
    if (!file) {
        fputs(USAGE, stderr);
        return 2;
    }
    anim_error err;
    anim_error_clear(&err);
    double t0 = now_seconds();
    anim_asset *asset = anim_asset_load(file, NULL, &err);
    double load = now_seconds() - t0;
    if (!asset) {
        fprintf(stderr, "bench_write: %s\n", err.message);
        return 1;
    }
    printf("%s: %.3f MB in, loaded in %.2f ms\n", file, (double)asset->source.byte_count / 1e6,
           load * 1e3);
    int rc = bench(asset, ANIM_GLTF_FORMAT_GLB, runs) || bench(asset, ANIM_GLTF_FORMAT_GLTF, runs);
    anim_asset_free(asset);
    return rc;
}
