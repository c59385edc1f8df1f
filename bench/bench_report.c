/* HTML report benchmark: what rendering a report of a real file costs.
 *
 * Loads FILE (.glb or .gltf) once, then renders the full report and the
 * evidence-only one to memory several times each (the lint run, the grids
 * sampled again for the embedded streams, the mesh, the charts and the
 * page), and prints the page size and the best time of each.
 *
 *   bench_report [--runs N] [--config FILE] FILE
 * It is a benchmark, not a test: it exits 0 unless the file or config
 * cannot be read, the report refuses the file, or the arguments are wrong. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/config.h"
#include "animsmith/gltf.h"
#include "animsmith/html_report.h"
#include "bench_clock.h"

static const char USAGE[] = "usage: bench_report [--runs N] [--config FILE] FILE\n";

static int bench(const anim_html_report_input *in, bool evidence, int runs)
{
    double best = 1e30;
    size_t bytes = 0;
    anim_html_report_summary s;
    for (int r = 0; r < runs; r++) {
        anim_strbuf out = ANIM_STRBUF_INIT;
        anim_error err;
        anim_error_clear(&err);
        anim_html_report_options opts = {evidence, "bench", NULL, NULL};
        double t0 = now_seconds();
        int rc = anim_html_report_render(in, &opts, &out, &s, &err);
        double dt = now_seconds() - t0;
        bytes = out.len;
        anim_strbuf_free(&out);
        if (rc != 0) {
            fprintf(stderr, "bench_report: %s\n", err.message);
            return 1;
        }
        if (dt < best)
            best = dt;
    }
    printf("  %-13s %8.3f MB  %u clip(s) %llu finding(s)%s  best %8.2f ms\n",
           evidence ? "evidence-only" : "full", (double)bytes / 1e6, s.clips,
           (unsigned long long)s.findings, s.mesh ? " + mesh" : "", best * 1e3);
    return 0;
}

int main(int argc, char **argv)
{
    int runs = 5;
    const char *file = NULL, *config = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(USAGE, stdout);
            puts("Renders FILE's HTML report (full and evidence-only) and prints sizes and times.");
            return 0;
        }
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
            runs = atoi(argv[++i]);
            if (runs < 1) {
                fprintf(stderr, "bench_report: --runs wants a positive count\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--config") && i + 1 < argc) {
            config = argv[++i];
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
    anim_config *cfg = config ? anim_config_load(config, &err) : anim_config_default(&err);
    if (!cfg) {
        fprintf(stderr, "bench_report: %s\n", err.message);
        return 1;
    }
    anim_asset *asset = anim_asset_load(file, NULL, &err);
    if (!asset) {
        fprintf(stderr, "bench_report: %s\n", err.message);
        anim_config_free(cfg);
        return 1;
    }
    printf("%s: %.3f MB in\n", file, (double)asset->source.byte_count / 1e6);
    anim_html_report_input in = {asset, cfg, file, NULL};
    int rc = bench(&in, false, runs) || bench(&in, true, runs);
    anim_asset_free(asset);
    anim_config_free(cfg);
    return rc;
}
