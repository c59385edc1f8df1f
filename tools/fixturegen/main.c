/* animsmith-fixturegen OUTDIR: regenerates every example asset into
 * OUTDIR/assets/ and the example contracts into OUTDIR/.
 *
 * Output is deterministic (no timestamps, fixed recipes); the committed
 * copies under examples/ are checked against a fresh run by
 * tests/scripts/fixtures_match.sh. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "animsmith/atomic_write.h"
#include "animsmith/gltf_write.h"
#include "contracts.h"
#include "fixtures.h"

static const struct {
    const char *file;
    fg_recipe recipe;
} ASSETS[] = {
    {"clip.glb", fg_clip_clean},
    {"clip-dirty.glb", fg_clip_dirty},
    {"walk.glb", fg_walk_clean},
    {"walk-dirty.glb", fg_walk_dirty},
    {"walk-short-channel.glb", fg_walk_short_channel},
    {"walk-travel.glb", fg_walk_travel},
    {"walk-frozen-arm.glb", fg_walk_frozen_arm},
    {"walk-scaled.glb", fg_walk_scaled},
    {"run-ring.glb", fg_run_ring},
    {"report-comparison-before.glb", fg_report_comparison_before},
    {"report-comparison-after.glb", fg_report_comparison_after},
};

static int make_dir(const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST)
        return 0;
    fprintf(stderr, "animsmith-fixturegen: cannot create %s: %s\n", path, strerror(errno));
    return -1;
}

static char *join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *s = malloc(n);
    if (!s) {
        fprintf(stderr, "animsmith-fixturegen: out of memory\n");
        exit(1);
    }
    snprintf(s, n, "%s/%s", a, b);
    return s;
}

/* Writes each FBX asset of a table into the assets directory. */
static int write_fbx_assets(const char *assets, const fg_fbx_asset *list, size_t count)
{
    int status = 0;
    for (size_t i = 0; i < count; i++) {
        const fg_fbx_asset *a = &list[i];
        fbxw_doc *d = fbxw_new();
        a->recipe(d, a->format.version);
        char *path = join(assets, a->file);
        anim_error err = {0};
        if (fbxw_write(d, &a->format, path, &err) != 0) {
            fprintf(stderr, "animsmith-fixturegen: %s\n", err.message);
            status = 1;
        }
        free(path);
        fbxw_free(d);
    }
    return status;
}

static const char USAGE[] =
    "usage: animsmith-fixturegen OUTDIR\n"
    "\n"
    "Writes every example asset into OUTDIR/assets/ and the example contracts\n"
    "into OUTDIR/ (deterministic; examples/ is a committed run of it).\n"
    "\n"
    "  -h, --help  print this help and exit\n";

int main(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(USAGE, stdout);
        return 0;
    }
    /* An output directory never starts with '-': a mistyped flag must not
     * become a directory of that name. "./-dir" still works. */
    if (argc != 2 || argv[1][0] == '-' || argv[1][0] == '\0') {
        fputs(USAGE, stderr);
        return 2;
    }
    const char *out = argv[1];
    char *assets = join(out, "assets");
    if (make_dir(out) != 0 || make_dir(assets) != 0)
        return 1;
    int status = 0;
    const char *generator = anim_gltf_default_generator();
    for (size_t i = 0; i < sizeof ASSETS / sizeof ASSETS[0]; i++) {
        fg_builder b;
        if (fg_init(&b) != 0) {
            fprintf(stderr, "animsmith-fixturegen: out of memory\n");
            return 1;
        }
        ASSETS[i].recipe(&b);
        char *path = join(assets, ASSETS[i].file);
        anim_error err = {0};
        if (fg_write(&b, path, generator, &err) != 0) {
            fprintf(stderr, "animsmith-fixturegen: %s\n", err.message);
            status = 1;
        }
        free(path);
        fg_free(&b);
    }
    status |= write_fbx_assets(assets, fg_fbx_assets, fg_fbx_asset_count);
    status |= write_fbx_assets(assets, fg_fbx_static_assets, fg_fbx_static_asset_count);
    status |= write_fbx_assets(assets, fg_fbx_engine_assets, fg_fbx_engine_asset_count);
    for (size_t i = 0; i < fg_contract_count; i++) {
        char *path = join(out, fg_contracts[i].file);
        anim_error err = {0};
        const char *text = fg_contracts[i].text;
        if (anim_write_file_atomic(path, text, strlen(text), &err) != 0) {
            fprintf(stderr, "animsmith-fixturegen: %s\n", err.message);
            status = 1;
        }
        free(path);
    }
    free(assets);
    return status;
}
