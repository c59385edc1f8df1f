/* Load benchmark: is reading a clip library bound by the disk or by us?
 *
 * Generates a large synthetic GLB laid out like a real exporter's (one
 * bufferView per accessor, float LINEAR T/R/S tracks per bone, a key-time
 * accessor per sampler unless --shared-times), or takes an existing file,
 * then times, best of several runs each:
 *   cat   read(2) of the whole file into memory (page cache warm),
 *   json  anim_json_parse of the JSON chunk alone,
 *   load  anim_asset_load (framing, JSON, buffers, skeleton, every clip
 *         decoded into tracks),
 * and prints MB/s, the load/cat ratio (target: <= 3) and peak RSS. The
 * loads run first, so the first peak RSS figure is the loader's alone (the
 * mapped file pages it touched plus its arena), not this program's copies.
 *
 *   bench_load [--clips N] [--bones N] [--keys N] [--runs N] [--shared-times]
 *              [--keep] [FILE.glb|FILE.gltf]
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "animsmith/gltf.h"
#include "animsmith/json.h"
#include "bench_clock.h"

typedef struct {
    unsigned clips, bones, keys, runs;
    bool shared_times, keep;
    const char *file;
} bench_opts;

/* A growable byte buffer for the JSON text and the BIN chunk. */
typedef struct {
    char *data;
    size_t len, cap;
} buf;

static void buf_reserve(buf *b, size_t extra)
{
    if (b->len + extra <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 1 << 16;
    while (cap < b->len + extra)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        fprintf(stderr, "bench_load: out of memory\n");
        exit(2);
    }
    b->data = p;
    b->cap = cap;
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void buf_printf(buf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(b->data ? b->data + b->len : NULL, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n < 0)
            exit(2);
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        buf_reserve(b, (size_t)n + 1);
    }
}

static void buf_put(buf *b, const void *p, size_t n)
{
    buf_reserve(b, n);
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void put_u32(FILE *f, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    fwrite(b, 1, 4, f);
}

/* A humanoid-like tree: a spine chain with limbs branching off every few
 * bones, so depth and fan-out look like a real rig. */
static unsigned parent_of(unsigned i)
{
    if (i == 0)
        return UINT32_MAX;
    if (i < 6)
        return i - 1;        /* hips .. head */
    if ((i - 6) % 10 == 0)
        return (i / 10) % 5; /* a limb or finger root hangs off the spine */
    return i - 1;
}

static int generate(const bench_opts *o, const char *path)
{
    buf json = {0}, bin = {0};
    unsigned nb = o->bones, nk = o->keys;
    /* BIN: per clip, per bone: times (unless shared), T, R, S. */
    buf_printf(&json, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"animsmith bench_load\"},");
    buf_printf(&json, "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[");
    for (unsigned i = 0; i < nb; i++) {
        buf_printf(&json, "%s{\"name\":\"bone_%03u\",\"translation\":[0,0.1,0]", i ? "," : "", i);
        bool first = true;
        for (unsigned c = i + 1; c < nb; c++)
            if (parent_of(c) == i) {
                buf_printf(&json, "%s%u", first ? ",\"children\":[" : ",", c);
                first = false;
            }
        buf_printf(&json, "%s}", first ? "" : "]");
    }
    buf_printf(&json, "],");
    /* Accessor/view tables are written after the animations reference them;
     * collect them in their own buffers. */
    buf views = {0}, accs = {0}, anims = {0};
    unsigned acc_count = 0;
    float *tmp = malloc(sizeof(float) * 4 * nk);
#define ADD_ACCESSOR(type, comps, minmax)                                                     \
    do {                                                                                      \
        size_t off = bin.len, bytes = sizeof(float) * (comps) * nk;                           \
        buf_put(&bin, tmp, bytes);                                                            \
        buf_printf(&views, "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}",          \
                   acc_count ? "," : "", off, bytes);                                         \
        buf_printf(&accs, "%s{\"bufferView\":%u,\"componentType\":5126,\"count\":%u,"         \
                          "\"type\":\"%s\"%s}",                                               \
                   acc_count ? "," : "", acc_count, nk, type, minmax);                        \
        acc_count++;                                                                          \
    } while (0)
    char minmax[128];
    for (unsigned c = 0; c < o->clips; c++) {
        double dur = (double)(nk - 1) / 30.0;
        unsigned shared = 0;
        if (o->shared_times) {
            for (unsigned k = 0; k < nk; k++)
                tmp[k] = (float)k / 30.0f;
            snprintf(minmax, sizeof minmax, ",\"min\":[0],\"max\":[%.9g]", dur);
            shared = acc_count;
            ADD_ACCESSOR("SCALAR", 1, minmax);
        }
        buf samplers = {0}, channels = {0};
        unsigned s = 0;
        for (unsigned b = 0; b < nb; b++)
            for (unsigned p = 0; p < 3; p++, s++) {
                unsigned times = shared;
                if (!o->shared_times) {
                    for (unsigned k = 0; k < nk; k++)
                        tmp[k] = (float)k / 30.0f;
                    snprintf(minmax, sizeof minmax, ",\"min\":[0],\"max\":[%.9g]", dur);
                    times = acc_count;
                    ADD_ACCESSOR("SCALAR", 1, minmax);
                }
                unsigned comps = p == 1 ? 4 : 3;
                for (unsigned k = 0; k < nk; k++) {
                    double a = 0.01 * (double)(k + b + c);
                    if (p == 1) {
                        tmp[4 * k + 0] = (float)sin(a);
                        tmp[4 * k + 1] = 0.0f;
                        tmp[4 * k + 2] = 0.0f;
                        tmp[4 * k + 3] = (float)cos(a);
                    } else {
                        for (unsigned j = 0; j < 3; j++)
                            tmp[3 * k + j] = p == 0 ? (float)(0.1 * a * (j + 1)) : 1.0f;
                    }
                }
                unsigned out = acc_count;
                ADD_ACCESSOR(p == 1 ? "VEC4" : "VEC3", comps, "");
                buf_printf(&samplers, "%s{\"input\":%u,\"output\":%u,\"interpolation\":\"LINEAR\"}",
                           s ? "," : "", times, out);
                static const char *paths[3] = {"translation", "rotation", "scale"};
                buf_printf(&channels, "%s{\"sampler\":%u,\"target\":{\"node\":%u,\"path\":\"%s\"}}",
                           s ? "," : "", s, b, paths[p]);
            }
        buf_put(&samplers, "", 1);
        buf_put(&channels, "", 1);
        buf_printf(&anims, "%s{\"name\":\"clip_%04u\",\"channels\":[%s],\"samplers\":[%s]}",
                   c ? "," : "", c, channels.data, samplers.data);
        free(samplers.data);
        free(channels.data);
    }
    free(tmp);
    buf_put(&views, "", 1);
    buf_put(&accs, "", 1);
    buf_put(&anims, "", 1);
    while (bin.len % 4)
        buf_put(&bin, "", 1);
    buf_printf(&json, "\"animations\":[%s],\"accessors\":[%s],\"bufferViews\":[%s],"
                      "\"buffers\":[{\"byteLength\":%zu}]}",
               anims.data, accs.data, views.data, bin.len);
    free(views.data);
    free(accs.data);
    free(anims.data);
    while (json.len % 4)
        buf_put(&json, " ", 1);
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "bench_load: %s: %s\n", path, strerror(errno));
        return -1;
    }
    uint64_t total = 12 + 8 + (uint64_t)json.len + 8 + bin.len;
    if (total > UINT32_MAX) {
        fprintf(stderr, "bench_load: %llu bytes does not fit a GLB\n", (unsigned long long)total);
        fclose(f);
        return -1;
    }
    put_u32(f, 0x46546C67u);
    put_u32(f, 2);
    put_u32(f, (uint32_t)total);
    put_u32(f, (uint32_t)json.len);
    put_u32(f, 0x4E4F534Au);
    fwrite(json.data, 1, json.len, f);
    put_u32(f, (uint32_t)bin.len);
    put_u32(f, 0x004E4942u);
    fwrite(bin.data, 1, bin.len, f);
    int rc = fclose(f) == 0 ? 0 : -1;
    free(json.data);
    free(bin.data);
    return rc;
}

static double time_cat(const char *path, uint8_t *dst, size_t size)
{
    double t0 = now_seconds();
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    size_t got = 0;
    while (got < size) {
        ssize_t n = read(fd, dst + got, size - got > (1u << 20) ? (1u << 20) : size - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    return got == size ? now_seconds() - t0 : -1;
}

/* The literal `cat FILE >/dev/null` the target is stated against: cat(1)
 * run as a child process, its stdout on /dev/null. */
static double time_cat_command(const char *path)
{
    double t0 = now_seconds();
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
            _exit(127);
        execlp("cat", "cat", path, (char *)NULL);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return now_seconds() - t0;
}

static long peak_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static void print_usage(FILE *to)
{
    fputs("usage: bench_load [--clips N] [--bones N] [--keys N] [--runs N] [--shared-times] "
          "[--keep] [FILE]\n"
          "\n"
          "Times loading a GLB (generated with the given shape unless FILE is named)\n"
          "against reading it with read(2) and with cat(1); prints figures, never fails.\n"
          "\n"
          "  -h, --help  print this help and exit\n",
          to);
}

static int usage(void)
{
    print_usage(stderr);
    return 2;
}

int main(int argc, char **argv)
{
    bench_opts o = {500, 65, 60, 5, false, false, NULL};
    for (int i = 1; i < argc; i++) {
        unsigned *target = NULL;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            print_usage(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--clips"))
            target = &o.clips;
        else if (!strcmp(argv[i], "--bones"))
            target = &o.bones;
        else if (!strcmp(argv[i], "--keys"))
            target = &o.keys;
        else if (!strcmp(argv[i], "--runs"))
            target = &o.runs;
        else if (!strcmp(argv[i], "--shared-times"))
            o.shared_times = true;
        else if (!strcmp(argv[i], "--keep"))
            o.keep = true;
        else if (argv[i][0] == '-')
            return usage();
        else
            o.file = argv[i];
        if (target) {
            if (++i >= argc)
                return usage();
            *target = (unsigned)strtoul(argv[i], NULL, 10);
        }
    }
    if (o.bones == 0 || o.keys == 0 || o.runs == 0)
        return usage();
    char tmp_dir[] = "/tmp/animsmith_bench_XXXXXX";
    char tmp_path[sizeof tmp_dir + 16];
    const char *path = o.file;
    if (!path) {
        if (!mkdtemp(tmp_dir)) {
            perror("bench_load: mkdtemp");
            return 2;
        }
        snprintf(tmp_path, sizeof tmp_path, "%s/bench.glb", tmp_dir);
        path = tmp_path;
        double t0 = now_seconds();
        if (generate(&o, path) != 0)
            return 2;
        printf("generated %s: %u clips x %u bones x 3 tracks x %u keys, %s times, LINEAR float "
               "(%.2f s)\n",
               path, o.clips, o.bones, o.keys, o.shared_times ? "shared" : "per-sampler",
               now_seconds() - t0);
    }
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "bench_load: %s: %s\n", path, strerror(errno));
        return 2;
    }
    size_t size = (size_t)st.st_size;
    double mb = (double)size / 1e6;
    double load = 1e30;
    size_t tracks = 0, borrowed = 0, keys = 0, arena_bytes = 0;
    unsigned clips = 0, bones = 0;
    for (unsigned r = 0; r < o.runs; r++) {
        anim_error err;
        double t0 = now_seconds();
        anim_asset *a = anim_asset_load(path, NULL, &err);
        double t = now_seconds() - t0;
        if (!a) {
            fprintf(stderr, "bench_load: load: %s\n", err.message);
            return 2;
        }
        if (t < load)
            load = t;
        tracks = borrowed = keys = 0;
        clips = a->doc.clip_count;
        bones = a->doc.bone_count;
        for (uint32_t c = 0; c < a->doc.clip_count; c++)
            for (uint32_t k = 0; k < a->doc.clips[c].track_count; k++) {
                tracks++;
                borrowed += a->doc.clips[c].tracks[k].borrowed;
                keys += a->doc.clips[c].tracks[k].key_count;
            }
        arena_bytes = anim_arena_bytes(a->arena);
        anim_asset_free(a);
    }
    /* Measured before this program allocates anything of its own for the
     * cat and json timings, so it is the loader's peak. */
    long load_rss_kb = peak_rss_kb();
    uint8_t *bytes = malloc(size ? size : 1);
    double cat = 1e30, json = 1e30, cat_cmd = 1e30;
    for (unsigned r = 0; r < o.runs; r++) {
        double c = time_cat_command(path);
        if (c > 0 && c < cat_cmd)
            cat_cmd = c;
        double t = time_cat(path, bytes, size);
        if (t < 0) {
            fprintf(stderr, "bench_load: cannot read %s\n", path);
            return 2;
        }
        if (t < cat)
            cat = t;
    }
    /* The JSON text alone: the GLB JSON chunk, or the whole .gltf. */
    const char *jtext = (const char *)bytes;
    size_t jlen = size;
    if (size >= 20 && !memcmp(bytes, "glTF", 4)) {
        jlen = (size_t)bytes[12] | (size_t)bytes[13] << 8 | (size_t)bytes[14] << 16 |
               (size_t)bytes[15] << 24;
        jtext = (const char *)bytes + 20;
        if (jlen > size - 20)
            jlen = size - 20;
    }
    for (unsigned r = 0; r < o.runs; r++) {
        anim_arena *arena = anim_arena_new();
        anim_error err;
        double t0 = now_seconds();
        anim_json_value *root = anim_json_parse(arena, jtext, jlen, NULL, &err);
        double t = now_seconds() - t0;
        anim_arena_free(arena);
        if (!root) {
            fprintf(stderr, "bench_load: JSON: %s\n", err.message);
            return 2;
        }
        if (t < json)
            json = t;
    }
    printf("file   %s: %.1f MB (JSON chunk %.1f MB), %u clips, %u bones, %zu tracks, %zu keys\n",
           path, mb, (double)jlen / 1e6, clips, bones, tracks, keys);
    printf("cat    %8.2f ms  %8.0f MB/s   (read(2) loop, page cache warm, best of %u)\n",
           cat * 1e3, mb / cat, o.runs);
    if (cat_cmd < 1e30)
        printf("cat(1) %8.2f ms  %8.0f MB/s   (`cat FILE >/dev/null` as a process, best of %u)\n",
               cat_cmd * 1e3, mb / cat_cmd, o.runs);
    printf("json   %8.2f ms  %8.0f MB/s   (JSON chunk only, MB/s of the JSON)\n", json * 1e3,
           (double)jlen / 1e6 / json);
    printf("load   %8.2f ms  %8.0f MB/s   (anim_asset_load, every clip decoded)\n", load * 1e3,
           mb / load);
    printf("ratio  load/cat = %.2f (target <= 3.00)   json/load = %.0f%%\n", load / cat,
           100.0 * json / load);
    if (cat_cmd < 1e30)
        printf("ratio  load/cat(1) = %.2f\n", load / cat_cmd);
    printf("tracks borrowed zero-copy: %zu of %zu   arena %.1f MB   peak RSS %.1f MB during the "
           "loads (%.1f MB with the cat/json buffers)\n",
           borrowed, tracks, (double)arena_bytes / 1e6, (double)load_rss_kb / 1024.0,
           (double)peak_rss_kb() / 1024.0);
    free(bytes);
    if (!o.file && !o.keep) {
        unlink(path);
        rmdir(tmp_dir);
    }
    return 0;
}
