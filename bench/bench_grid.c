/* Metric-grid benchmark: what sampling a clip costs, per bone-frame.
 *
 * Loads FILE.glb (or .gltf) and, best of several runs over every clip:
 *   full     anim_metric_grid_build (every bone of every frame),
 *   readers  anim_metric_grid_prepare plus what lint and measure read:
 *            the four seam frames of every bone and every frame of the
 *            --bones given (default: the hips, feet and toes the rig
 *            names resolve to, else bone 0),
 * and prints ns per bone-frame of the full grid for both. It also times
 * the two ways of composing FK down a random chain: T·R·S 4x4 matrices
 * (what the grid uses) and rotation quaternions plus positions, and
 * counts how often the quaternion form's model translation differs from
 * the matrix form's in any bit: any difference could change a printed
 * figure, which is why the grid keeps the matrices.
 *
 *   bench_grid [--runs N] [--bones I,J,...] FILE
 * It is a benchmark, not a test: it exits 0 unless the file cannot be
 * read. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf.h"
#include "animsmith/math.h"
#include "animsmith/sample.h"
#include "bench_clock.h"

#define MAX_BONES 64

static volatile double sink;

/* The bones the foot, hips and root readers would ask for, by name. */
static uint32_t default_bones(const anim_doc *doc, uint32_t *out)
{
    static const char *const names[] = {"hips", "pelvis", "foot_l", "foot_r", "ball_l", "ball_r",
                                        "leftfoot", "rightfoot", "lefttoebase", "righttoebase", "root"};
    uint32_t n = 0;
    for (uint32_t b = 0; b < doc->bone_count && n < MAX_BONES; b++) {
        const char *name = doc->bones[b].name ? doc->bones[b].name : "";
        char lower[64];
        size_t i = 0;
        for (; name[i] && i + 1 < sizeof lower; i++)
            lower[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i]);
        lower[i] = 0;
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
            const char *hit = strstr(lower, names[k]);
            if (hit && strlen(hit) == strlen(names[k])) {
                out[n++] = b;
                break;
            }
        }
    }
    if (n == 0 && doc->bone_count > 0)
        out[n++] = 0;
    return n;
}

static void touch(const anim_metric_grid *g)
{
    if (g->frame_count > 0 && g->bone_count > 0)
        sink += g->model_pos[anim_metric_grid_index(g, g->frame_count - 1, 0)].x;
}

/* Seconds for one sweep over the clips; *entries counts full-grid bone-frames. */
static double sweep(const anim_doc *doc, bool lazy, const uint32_t *bones, uint32_t nbones,
                    double *entries)
{
    double t0 = now_seconds();
    *entries = 0.0;
    for (uint32_t c = 0; c < doc->clip_count; c++) {
        anim_metric_grid g;
        anim_error err;
        int rc = lazy ? anim_metric_grid_prepare(doc, &doc->clips[c], &g, &err)
                      : anim_metric_grid_build(doc, &doc->clips[c], &g, &err);
        if (rc != 1)
            continue;
        if (lazy) {
            uint32_t n = g.frame_count;
            const uint32_t seam[4] = {0, 1, n - 2, n - 1};
            anim_metric_grid_need_frames(&g, seam, 4);
            anim_metric_grid_need_bones(&g, bones, nbones);
        }
        touch(&g);
        *entries += (double)g.frame_count * g.bone_count;
        anim_metric_grid_free(&g);
    }
    return now_seconds() - t0;
}

static uint32_t rng_state = 2463534242u;

static double rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return (double)rng_state / 4294967296.0 * 2.0 - 1.0;
}

/* FK down a chain of `depth` random unit-scale bones, `reps` times, both
 * ways; prints ns per bone and the share of translations that differ. */
static void fk_compare(int depth, int reps)
{
    anim_trs *chain = malloc((size_t)depth * sizeof *chain);
    if (!chain)
        return;
    for (int i = 0; i < depth; i++) {
        chain[i].t = anim_vec3_make(rnd() * 0.3, rnd() * 0.3, rnd() * 0.3);
        chain[i].r = anim_quat_normalize(anim_quat_make(rnd(), rnd(), rnd(), rnd()));
        chain[i].s = anim_vec3_make(1.0, 1.0, 1.0);
    }
    anim_vec3 mat_pos = {0, 0, 0}, quat_pos = {0, 0, 0};
    long differ = 0, total = 0;
    double t0 = now_seconds();
    for (int r = 0; r < reps; r++) {
        anim_mat4 m = anim_mat4_identity();
        for (int i = 0; i < depth; i++) {
            anim_mat4 l = anim_mat4_from_trs(chain[i].t, chain[i].r, chain[i].s);
            m = i ? anim_mat4_mul(&m, &l) : l;
        }
        mat_pos = anim_mat4_translation(&m);
        sink += mat_pos.x;
    }
    double t_mat = now_seconds() - t0;
    t0 = now_seconds();
    for (int r = 0; r < reps; r++) {
        anim_quat q = chain[0].r;
        anim_vec3 p = chain[0].t;
        for (int i = 1; i < depth; i++) {
            p = anim_vec3_add(p, anim_quat_rotate(q, chain[i].t));
            q = anim_quat_mul(q, chain[i].r);
        }
        quat_pos = p;
        sink += quat_pos.x;
    }
    double t_quat = now_seconds() - t0;
    /* Bit comparison at every depth of the chain. */
    anim_mat4 m = anim_mat4_identity();
    anim_quat q = chain[0].r;
    anim_vec3 p = chain[0].t;
    for (int i = 0; i < depth; i++) {
        anim_mat4 l = anim_mat4_from_trs(chain[i].t, chain[i].r, chain[i].s);
        m = i ? anim_mat4_mul(&m, &l) : l;
        if (i) {
            p = anim_vec3_add(p, anim_quat_rotate(q, chain[i].t));
            q = anim_quat_mul(q, chain[i].r);
        }
        anim_vec3 mp = anim_mat4_translation(&m);
        differ += memcmp(&mp, &p, sizeof p) != 0;
        total++;
    }
    double per = 1e9 / ((double)reps * depth);
    printf("fk       mat4 %6.1f ns/bone   quat+pos %6.1f ns/bone   translations differing in a bit: "
           "%ld of %ld\n",
           t_mat * per, t_quat * per, differ, total);
    free(chain);
}

int main(int argc, char **argv)
{
    int runs = 5;
    const char *file = NULL;
    uint32_t bones[MAX_BONES], nbones = 0;
    bool bones_given = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--bones") && i + 1 < argc) {
            bones_given = true;
            for (char *s = argv[++i]; *s && nbones < MAX_BONES;) {
                bones[nbones++] = (uint32_t)strtoul(s, &s, 10);
                if (*s == ',')
                    s++;
                else
                    break;
            }
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            puts("usage: bench_grid [--runs N] [--bones I,J,...] FILE.glb|FILE.gltf");
            return 0;
        } else {
            file = argv[i];
        }
    }
    if (runs < 1)
        runs = 1;
    if (!file) {
        fputs("usage: bench_grid [--runs N] [--bones I,J,...] FILE.glb|FILE.gltf\n", stderr);
        return 2;
    }
    anim_error err;
    anim_asset *a = anim_asset_load(file, NULL, &err);
    if (!a) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    const anim_doc *doc = &a->doc;
    if (!bones_given)
        nbones = default_bones(doc, bones);
    double best_full = 1e30, best_lazy = 1e30, entries = 0.0;
    for (int r = 0; r < runs; r++) {
        double t = sweep(doc, false, bones, nbones, &entries);
        if (t < best_full)
            best_full = t;
        t = sweep(doc, true, bones, nbones, &entries);
        if (t < best_lazy)
            best_lazy = t;
    }
    printf("%s: %u clips, %u bones, %.0f bone-frames; readers' bones:", file, doc->clip_count,
           doc->bone_count, entries);
    for (uint32_t i = 0; i < nbones; i++)
        printf(" %u", bones[i]);
    printf("\n");
    if (entries > 0.0) {
        printf("full     %8.1f ns per bone-frame\n", best_full * 1e9 / entries);
        printf("readers  %8.1f ns per bone-frame of the full grid (%.1fx)\n", best_lazy * 1e9 / entries,
               best_lazy > 0.0 ? best_full / best_lazy : 0.0);
    }
    fk_compare(8, 200000);
    anim_asset_free(a);
    return 0;
}
