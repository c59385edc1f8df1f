/* libFuzzer entry for mesh quality on glTF: `mesh-quality residual
 * SOURCE CANDIDATE` reads two untrusted files and an envelope TOML, so
 * the input is split into up to three parts at a marker line:
 *
 *   SOURCE [MARK CANDIDATE [MARK ENVELOPE.toml]]
 *
 * With no marker the candidate is the source itself (any glTF or GLB file
 * is then a useful input as it stands). Each file part is read as GLB when
 * it starts with the GLB magic, else as .gltf JSON, by the same loader
 * fuzz_gltf drives; the envelope is handed over by path, as the CLI does,
 * through an in-memory file.
 *
 * Whatever loads is measured with the envelope derived from the source's
 * clips and, when there is an envelope part, with that file, and each
 * result is written as both report forms. Every refusal must say why,
 * every row must land in exactly one outcome class, and the JSON report
 * must parse back. */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE 1 /* memfd_create */
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "animsmith/gltf.h"
#include "animsmith/meshq.h"
#include "animsmith/strbuf.h"
#include "support/fuzz_checks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Between parts. NUL bytes keep it out of any JSON text, and libFuzzer
 * learns it from the memmem below. */
static const char MARK[] = "\n\0animsmith-mq-part\0\n";
#define MARK_LEN (sizeof MARK - 1)

typedef struct part {
    const uint8_t *data;
    size_t size;
} part;

/* Up to three parts; returns how many. */
static int split(const uint8_t *data, size_t size, part parts[3])
{
    int n = 0;
    while (n < 2) {
        const uint8_t *at = memmem(data, size, MARK, MARK_LEN);
        if (!at)
            break;
        parts[n].data = data;
        parts[n].size = (size_t)(at - data);
        n++;
        size -= parts[n - 1].size + MARK_LEN;
        data = at + MARK_LEN;
    }
    parts[n].data = data;
    parts[n].size = size;
    return n + 1;
}

static anim_asset *load(const part *p, const char *name)
{
    anim_load_options opts;
    anim_load_options_default(&opts);
    opts.max_file_bytes = (size_t)64 << 20;
    bool glb = p->size >= 4 && memcmp(p->data, "glTF", 4) == 0;
    anim_error err;
    anim_error_clear(&err);
    anim_asset *a = anim_asset_load_memory(p->data, p->size, glb, NULL, name, &opts, &err);
    if (!a && err.message[0] == '\0')
        __builtin_trap();
    return a;
}

/* The envelope file: one in-memory file rewritten for every input, named
 * by its /proc path so the library opens it like any other. */
static int envelope_fd = -1;
static char envelope_path[64];

static const char *envelope_file(const part *p)
{
    if (envelope_fd < 0) {
        envelope_fd = memfd_create("fuzz-envelope.toml", 0);
        if (envelope_fd < 0)
            return NULL;
        snprintf(envelope_path, sizeof envelope_path, "/proc/self/fd/%d", envelope_fd);
    }
    if (ftruncate(envelope_fd, 0) != 0 || pwrite(envelope_fd, p->data, p->size, 0) != (ssize_t)p->size)
        return NULL;
    return envelope_path;
}

static void report(const anim_mq_gltf_options *o, const anim_mq_gltf_result *res)
{
    anim_mq_outcome oc[2];
    for (int json = 0; json < 2; json++) {
        anim_strbuf out = ANIM_STRBUF_INIT;
        anim_mq_gltf_report(o, res, json == 1, &out, &oc[json]);
        if (oc[json].rows != res->row_count)
            __builtin_trap();
        fuzz_require_outcome(&oc[json]);
        if (json == 1)
            fuzz_require_json(&out);
        anim_strbuf_free(&out);
    }
    if (memcmp(&oc[0], &oc[1], sizeof oc[0]) != 0)
        __builtin_trap(); /* one result, two writers: same outcome */
}

static void measure(const anim_asset *src, const anim_asset *cand, const char *env_path,
                    uint32_t uv_grid, const char *mesh)
{
    anim_mq_gltf_options o;
    memset(&o, 0, sizeof o);
    o.envelope_path = env_path;
    o.envelope_from_clips = env_path == NULL;
    o.has_max_residual = true;
    o.max_residual = 0.01;
    o.uv_grid = uv_grid;
    o.mesh = mesh;
    o.source_path = "source.glb";
    o.candidate_path = "candidate.glb";
    /* Small enough that a run stays fast, large enough for real grids;
     * the budget's own refusal gets exercised too. */
    o.max_samples = (uint64_t)1 << 16;
    anim_arena *arena = anim_arena_new();
    if (!arena)
        return;
    anim_mq_gltf_result res;
    anim_error err;
    anim_error_clear(&err);
    if (anim_mq_gltf_residual(src, cand, &o, arena, &res, &err) != 0) {
        if (err.message[0] == '\0')
            __builtin_trap();
    } else {
        report(&o, &res);
    }
    anim_arena_free(arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    part parts[3];
    int n = split(data, size, parts);
    anim_asset *src = load(&parts[0], "source.glb");
    anim_asset *cand = src && n > 1 ? load(&parts[1], "candidate.glb") : NULL;
    if (src && (n == 1 || cand)) {
        const anim_asset *c = cand ? cand : src;
        /* The texel grid and the mesh named follow a hash of the input
         * (not its size: a GLB's header fixes its size, so a mutated GLB
         * that still loads keeps it), so vertex-only, texture and grid
         * sampling, every skinned mesh and one mesh by index (skinned or
         * not) are all reached. */
        static const char *const meshes[] = {NULL, "#0", "#1"};
        uint32_t h = 2166136261u;
        for (size_t i = 0; i < size; i++)
            h = (h ^ data[i]) * 16777619u;
        uint32_t grid = h % 3 * 4;
        const char *mesh = meshes[h / 3 % 3];
        measure(src, c, NULL, grid, mesh);
        if (n == 3) {
            const char *path = envelope_file(&parts[2]);
            if (path)
                measure(src, c, path, grid, mesh);
        }
    }
    anim_asset_free(cand);
    anim_asset_free(src);
    return 0;
}
